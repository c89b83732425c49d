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
- both: the process exits, no hidden `.NAME.part` file is left;
- with -e in the middle of the session (the relay holds back the packets
  after the third one: test-live-relay --hold-after 3, the bundled
  ust-sample trace): the stream files are the first packets received,
  byte for byte, and babeltrace2 prints the events of those packets (as
  on the served files cut to the same packets).

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
TRACES = os.path.join(root, "examples", "traces")
UID_DIR = os.path.join("ust", "uid", "0", "64-bit")


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    failures += 0 if cond else 1


def data_files(streams):
    return sorted(n for n in os.listdir(streams)
                  if n != "metadata" and
                  os.path.isfile(os.path.join(streams, n)))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def all_packets_written(out, sizes):
    """ctfsink's .NAME.part files hold SIZES (name -> bytes) of the served
    streams (live upstream: ctfsink writes each packet out at once)."""
    for n, size in sizes.items():
        part = os.path.join(out, "." + n + ".part")
        if not os.path.exists(part) or os.path.getsize(part) < size:
            return False
    return True


def babeltrace2_text(path):
    r = subprocess.run(["babeltrace2", path], capture_output=True,
                       text=True, env=env)
    return r.returncode, r.stdout, r.stderr


def run(port, tmp, with_e, streams, sizes, what):
    """SIGINT once SIZES (name -> bytes) of the stream files of STREAMS
    reached ctfsink."""
    out = os.path.join(tmp, "out-" + what.replace(" ", "-"))
    log = open(os.path.join(tmp, "log-" + what.replace(" ", "")), "w+")
    argv = [gst_launch] + (["-e"] if with_e else []) + [
        "lttnglivesrc",
        "url=net://127.0.0.1:%d/host/testhost/testsession" % port,
        "poll-interval=10", "!", "ctfsink", "location=" + out]
    p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                         env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None and \
            not all_packets_written(out, sizes):
        time.sleep(0.05)
    check(p.poll() is None, what + ": the pipeline runs with the session")
    check(all_packets_written(out, sizes),
          what + ": the packets served reached ctfsink")
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
    check(names == sorted(list(sizes) + ["metadata"]),
          what + ": metadata and the stream files (%s)" % names)
    ref = os.path.join(tmp, "ref-" + what.replace(" ", "-"))
    os.makedirs(ref)
    shutil.copy(os.path.join(streams, "metadata"), ref)
    for n, size in sizes.items():
        p_out = os.path.join(out, n)
        served = read(os.path.join(streams, n))[:size]
        with open(os.path.join(ref, n), "wb") as f:
            f.write(served)
        check(os.path.exists(p_out) and read(p_out) == served,
              what + ": %s is the served packets, byte for byte" % n)
    meta = read(os.path.join(out, "metadata")).decode("utf-8", "replace") \
        if "metadata" in names else ""
    if with_e:
        check("gst_ctf_truncated" not in meta,
              what + ": the metadata is not marked truncated")
    else:
        check("gst_ctf_truncated = 1;" in meta,
              what + ": the metadata is marked truncated")
    if shutil.which("babeltrace2"):
        rc_in, text_in, _ = babeltrace2_text(ref)
        rc_out, text_out, err = babeltrace2_text(out)
        check(rc_in == 0 and rc_out == 0 and text_out == text_in and
              text_in != "",
              what + ": babeltrace2 reads the output: the events of the "
              "served packets (%d lines)%s" % (text_out.count("\n"),
                                "" if rc_out == 0 else ": " + err[-300:]))
    else:
        print("SKIP babeltrace2 check: no babeltrace2 in PATH")
    if failures:
        print(text[-2000:])


def relay_run(tmp, trace, relay_args, with_e, sizes, what):
    """One gst-launch-1.0 run against a relay of its own (one viewer per
    session at a time)."""
    relay = subprocess.Popen([relay_prog] + relay_args +
                             [os.path.join(TRACES, trace)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        run(int(relay.stdout.readline()), tmp, with_e,
            os.path.join(TRACES, trace, UID_DIR), sizes, what)
    finally:
        relay.stdin.close()
        relay.wait(30)


def main():
    tmp = tempfile.mkdtemp(prefix="gst-ctf-live-sigint-")
    streams = os.path.join(TRACES, "ust-libc", UID_DIR)
    full = {n: os.path.getsize(os.path.join(streams, n))
            for n in data_files(streams)}
    relay_run(tmp, "ust-libc", ["--never-end"], True, full, "with -e")
    relay_run(tmp, "ust-libc", ["--never-end"], False, full, "without -e")
    # ust-sample: 3 packets of 4096 bytes per stream; in time order the
    # first three are channel0_0's first, channel0_1's first, channel0_0's
    # second
    relay_run(tmp, "ust-sample", ["--hold-after", "3"], True,
              {"channel0_0": 8192, "channel0_1": 4096},
              "with -e mid-session")
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s)" % failures)
    sys.exit(1 if failures else 0)


main()
