#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs the user guide's two "Across hosts" command lines, as written, on
127.0.0.1 with a free port: tcpserversrc ! gdpdepay ! ctfsink (started
first) and ctfsrc ! gdppay ! tcpclientsink sync=false.  The received
trace's metadata and stream files must be byte-identical to what
`ctfsrc ! ctfsink` writes locally, and the stream files to the input's.

Usage: test-across-hosts.py SOURCE_ROOT GST_LAUNCH [ASAN_RUNTIME]
(ASAN_RUNTIME: preloaded into gst-launch-1.0 in a sanitizer build)
"""
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import time

root, gst_launch = sys.argv[1], sys.argv[2]
env = dict(os.environ)
if len(sys.argv) > 3 and sys.argv[3]:
    env["LD_PRELOAD"] = sys.argv[3]
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    failures += 0 if cond else 1


def guide_commands():
    """The receiving and sending lines of the guide's Across hosts part."""
    with open(os.path.join(root, "docs", "user-guide.md"),
              encoding="utf-8") as f:
        text = f.read()
    part = text[text.index("### Across hosts"):]
    part = part[:part.index("\n### ", 1)]
    lines = [ln.strip() for ln in part.splitlines()
             if ln.startswith("    gst-launch-1.0")]
    recv = [ln for ln in lines if "tcpserversrc" in ln]
    send = [ln for ln in lines if "tcpclientsink" in ln]
    assert len(recv) == 1 and len(send) == 1, lines
    return recv[0], send[0]


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def listening(port):
    """Whether something listens on 127.0.0.1/0.0.0.0 PORT (a connect
    would be taken as the sender by tcpserversrc: read /proc instead)."""
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as f:
                next(f)
                for line in f:
                    local, state = line.split()[1], line.split()[3]
                    if state == "0A" and int(local.split(":")[1], 16) == port:
                        return True
        except OSError:
            pass
    return False


def instantiate(cmd, port, location):
    """The guide's line for this run: host 127.0.0.1, the test's port and
    location; everything else as written."""
    cmd = re.sub(r"\bhost=\S+", "host=127.0.0.1", cmd)
    cmd = re.sub(r"\bport=\d+", "port=%d" % port, cmd)
    cmd = re.sub(r"\blocation=\S+", "location=" + location, cmd)
    argv = shlex.split(cmd)
    assert argv[0] == "gst-launch-1.0"
    return [gst_launch] + argv[1:]


def files_of(d):
    return {n: open(os.path.join(d, n), "rb").read()
            for n in sorted(os.listdir(d))
            if os.path.isfile(os.path.join(d, n))}


def stream_files(d):
    """Stream file contents in name order (names differ across hosts)."""
    return [v for k, v in files_of(d).items() if k != "metadata"]


recv_line, send_line = guide_commands()
print("guide:\n  " + recv_line + "\n  " + send_line)
check("sync=false" in send_line, "the sending line does not sync")

for name in ("ust-libc", "ust-sample"):
    trace = os.path.join(root, "examples", "traces", name)
    with tempfile.TemporaryDirectory() as tmp:
        local = os.path.join(tmp, "local")
        copy = os.path.join(tmp, "copy")
        r = subprocess.run([gst_launch, "-q", "ctfsrc", "location=" + trace,
                            "!", "ctfsink", "location=" + local],
                           capture_output=True, text=True, timeout=60,
                           env=env)
        check(r.returncode == 0, "%s: local ctfsrc ! ctfsink (%s)" %
              (name, r.stderr.strip()))

        port = free_port()
        recv = subprocess.Popen(instantiate(recv_line, port, copy),
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, env=env)
        deadline = time.monotonic() + 20
        while not listening(port) and recv.poll() is None and \
                time.monotonic() < deadline:
            time.sleep(0.05)
        check(listening(port), "%s: receiver listens on port %d" %
              (name, port))
        send = subprocess.run(instantiate(send_line, port, trace),
                              capture_output=True, text=True, timeout=60,
                              env=env)
        check(send.returncode == 0, "%s: sender exits 0 (%s)" %
              (name, send.stderr.strip()[-300:]))
        try:
            out, _ = recv.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            recv.kill()
            out, _ = recv.communicate()
            check(False, "%s: receiver did not end after the sender" % name)
        check(recv.returncode == 0, "%s: receiver exits 0 (%s)" %
              (name, out.strip()[-300:]))
        if not os.path.isdir(copy):
            check(False, "%s: no received trace" % name)
            continue
        got, want = files_of(copy), files_of(local)
        check(got.get("metadata") == want.get("metadata"),
              "%s: metadata byte-identical to the local copy's" % name)
        check(stream_files(copy) == stream_files(local) and
              len(stream_files(copy)) > 0,
              "%s: %d stream files byte-identical to the local copy's "
              "(received as %s)" % (name, len(stream_files(copy)),
                                     ", ".join(k for k in got
                                               if k != "metadata")))
        inp = os.path.join(trace, "ust", "uid", "0", "64-bit")
        check(stream_files(copy) == stream_files(inp),
              "%s: stream files byte-identical to the input's" % name)

sys.exit(1 if failures else 0)
