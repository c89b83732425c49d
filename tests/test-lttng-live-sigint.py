#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Ctrl-C on `gst-launch-1.0 [-e] lttnglivesrc url=... ! ctfsink
location=DIR` following a session that is still running (the tests' relay,
test-live-relay --never-end, serving the bundled ust-libc trace and then
only inactivity beacons), once every packet reached ctfsink:

- with -e (end-of-stream on Ctrl-C): the process exits with status 0 and
  DIR is a complete trace: its stream files are the served ones byte for
  byte, its metadata is not marked truncated, babeltrace2 prints the same
  text as on the served trace;
- without -e (the pipeline goes to NULL): ctfsink's documented truncated
  trace: the complete packets under their final names (the same bytes,
  the same babeltrace2 text), `gst_ctf_truncated = 1` in the metadata
  (ctfsink's warning is posted while the pipeline goes to NULL, when
  gst-launch-1.0 no longer reads the bus: it does not show);
- both: the process exits, no hidden `.NAME.part` file is left.

Usage: test-lttng-live-sigint.py SOURCE_ROOT GST_LAUNCH TEST_LIVE_RELAY
[ASAN_RUNTIME] (ASAN_RUNTIME: preloaded into gst-launch-1.0 in a sanitizer
build)
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

root, gst_launch, relay_prog = sys.argv[1:4]
env = dict(os.environ)
if len(sys.argv) > 4 and sys.argv[4]:
    env["LD_PRELOAD"] = sys.argv[4]
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0")
failures = 0
TRACE = os.path.join(root, "examples", "traces", "ust-libc")
STREAMS = os.path.join(TRACE, "ust", "uid", "0", "64-bit")


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    failures += 0 if cond else 1


def data_files():
    return sorted(n for n in os.listdir(STREAMS)
                  if n != "metadata" and
                  os.path.isfile(os.path.join(STREAMS, n)))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def all_packets_written(out):
    """Every served byte is in ctfsink's .NAME.part files (live upstream:
    ctfsink writes each packet out at once)."""
    for n in data_files():
        part = os.path.join(out, "." + n + ".part")
        if not os.path.exists(part) or \
                os.path.getsize(part) < os.path.getsize(
                    os.path.join(STREAMS, n)):
            return False
    return True


def babeltrace2_text(path):
    r = subprocess.run(["babeltrace2", path], capture_output=True,
                       text=True, env=env)
    return r.returncode, r.stdout, r.stderr


def run(port, tmp, with_e):
    what = "with -e" if with_e else "without -e"
    out = os.path.join(tmp, "out-e" if with_e else "out")
    log = open(os.path.join(tmp, "log-" + what.replace(" ", "")), "w+")
    argv = [gst_launch] + (["-e"] if with_e else []) + [
        "lttnglivesrc",
        "url=net://127.0.0.1:%d/host/testhost/testsession" % port,
        "poll-interval=10", "!", "ctfsink", "location=" + out]
    p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                         env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None and \
            not all_packets_written(out):
        time.sleep(0.05)
    check(p.poll() is None, what + ": the pipeline runs with the session")
    check(all_packets_written(out), what + ": every packet reached ctfsink")
    p.send_signal(signal.SIGINT)
    try:
        rc = p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait()
        check(False, what + ": exits within 30 s of SIGINT")
    log.seek(0)
    text = log.read()
    log.close()
    if with_e:
        check(rc == 0, what + ": exit status 0 (got %d)" % rc)
    else:
        check(rc is not None and rc >= 0,
              what + ": exits on SIGINT (status %d)" % rc)
    left = sorted(n for n in os.listdir(out) if n.startswith(".")) \
        if os.path.isdir(out) else ["(no output directory)"]
    check(left == [], what + ": no hidden .part file left (%s)" % left)
    names = sorted(os.listdir(out)) if os.path.isdir(out) else []
    check(names == sorted(data_files() + ["metadata"]),
          what + ": metadata and the stream files (%s)" % names)
    for n in data_files():
        p_out = os.path.join(out, n)
        check(os.path.exists(p_out) and
              read(p_out) == read(os.path.join(STREAMS, n)),
              what + ": %s is the served stream, byte for byte" % n)
    meta = read(os.path.join(out, "metadata")).decode("utf-8", "replace") \
        if "metadata" in names else ""
    if with_e:
        check("gst_ctf_truncated" not in meta,
              what + ": the metadata is not marked truncated")
    else:
        check("gst_ctf_truncated = 1;" in meta,
              what + ": the metadata is marked truncated")
    if shutil.which("babeltrace2"):
        rc_in, text_in, _ = babeltrace2_text(STREAMS)
        rc_out, text_out, err = babeltrace2_text(out)
        check(rc_in == 0 and rc_out == 0 and text_out == text_in and
              text_in != "",
              what + ": babeltrace2 reads the output: the served events "
              "(%d lines)%s" % (text_out.count("\n"),
                                "" if rc_out == 0 else ": " + err[-300:]))
    else:
        print("SKIP babeltrace2 check: no babeltrace2 in PATH")
    if failures:
        print(text[-2000:])


def main():
    tmp = tempfile.mkdtemp(prefix="gst-ctf-live-sigint-")
    relay = subprocess.Popen([relay_prog, "--never-end", TRACE],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        port = int(relay.stdout.readline())
        # one viewer per session at a time: one relay per run
        run(port, tmp, True)
    finally:
        relay.stdin.close()
        relay.wait(30)
    relay = subprocess.Popen([relay_prog, "--never-end", TRACE],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        run(int(relay.stdout.readline()), tmp, False)
    finally:
        relay.stdin.close()
        relay.wait(30)
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s)" % failures)
    sys.exit(1 if failures else 0)


main()
