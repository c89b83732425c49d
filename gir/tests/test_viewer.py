#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Starts the GTK 4 viewer (examples/gtk/ctf-viewer.py) under Xvfb on a
corpus trace, waits until it has loaded, checks that its list model holds
every event of the trace (babeltrace2's count) and saves a screenshot;
then the same with a time range (timefilter) against babeltrace2
--begin/--end.  Exit code 77 (skip) without GTK 4 or Xvfb.

With `--live RELAY` (tests/live-relay-main.c): the viewer follows a live
session of the sample trace served by that relay (lttnglivesrc) until it
ends, and holds every event.

usage: test_viewer.py SCREENSHOT.png [--live RELAY]
"""
import os
import re
import shutil
import subprocess
import sys

top = os.environ.get("GST_CTF_SOURCE_ROOT",
                     os.path.join(os.path.dirname(__file__), "..", ".."))
viewer = os.path.join(top, "examples", "gtk", "ctf-viewer.py")
shot = os.path.abspath(sys.argv[1])
corpus = os.environ.get("GST_CTF_CORPUS", "")


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


try:
    import gi
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk  # noqa: F401
except (ImportError, ValueError) as e:
    skip("GTK 4 for Python is not installed (%s)" % e)
if shutil.which("xvfb-run") is None:
    skip("xvfb-run is not installed")

trace = os.path.join(corpus, "ctf", "lttng-ust", "custom-2cpu")
status = os.path.join(corpus, "ctf", "lttng-ust", "oracle", "STATUS.tsv")
if os.path.isdir(trace) and os.path.exists(status):
    with open(status) as f:
        expected = int([line.split("\t")[2] for line in f
                        if line.startswith("custom-2cpu\t")][0])
else:
    print("corpus not found (GST_CTF_CORPUS=%r): using the sample trace" %
          corpus)
    trace = os.path.join(top, "examples", "traces", "ust-sample")
    with open(os.path.join(top, "examples", "traces",
                           "ust-sample.babeltrace2.txt")) as f:
        expected = sum(1 for _ in f)

env = dict(os.environ, GSK_RENDERER="cairo", GDK_BACKEND="x11",
           NO_AT_BRIDGE="1", TZ="UTC", LC_ALL="C.UTF-8")


def run_viewer(*args):
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable,
           viewer, trace, "--exit-when-loaded", *args]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=240)
    print(r.stdout, end="")
    if r.returncode != 0:
        print(r.stderr)
        sys.exit("viewer exited with %d" % r.returncode)
    m = re.search(r"loaded: events=(\d+) model-items=(\d+) error=(.*)",
                  r.stdout)
    if m is None:
        print(r.stderr)
        sys.exit("the viewer did not report loading")
    return int(m.group(1)), int(m.group(2)), m.group(3)


if len(sys.argv) > 3 and sys.argv[2] == "--live":
    trace = os.path.join(top, "examples", "traces", "ust-sample")
    with open(os.path.join(top, "examples", "traces",
                           "ust-sample.babeltrace2.txt")) as f:
        expected = sum(1 for _ in f)
    relay = subprocess.Popen([sys.argv[3], trace, "testhost", "live"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        port = int(relay.stdout.readline())
        trace = "net://127.0.0.1:%d/host/testhost/live" % port
        events, items, error = run_viewer("--screenshot", shot)
    finally:
        relay.stdin.close()
        relay.wait(30)
    assert error == "none", error
    assert items == expected, (items, expected)
    print("ok: live session: %d events in the list model = babeltrace2's "
          "count" % items)
    sys.exit(0)

if os.path.exists(shot):
    os.remove(shot)
events, items, error = run_viewer("--screenshot", shot)
assert error == "none", error
assert events == expected, (events, expected)
assert items == expected, (items, expected)
with open(shot, "rb") as f:
    assert f.read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG"
assert os.path.getsize(shot) > 10000, "screenshot too small"
print("ok: %d events in the list model = babeltrace2's count; screenshot %s"
      % (items, shot))

# A time range drives a timefilter: same events as babeltrace2 --begin/--end
if shutil.which("babeltrace2") is not None:
    out = subprocess.run(["babeltrace2", trace], env=env, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    times = [line[1:19] for line in out]
    begin, end = times[len(times) // 4], times[len(times) // 2]
    want = len(subprocess.run(["babeltrace2", "--begin", begin, "--end", end,
                               trace], env=env, check=True,
                              capture_output=True,
                              text=True).stdout.splitlines())
    events, items, error = run_viewer("--begin", begin, "--end", end)
    assert error == "none", error
    assert items == want, (items, want)
    print("ok: range %s .. %s: %d events = babeltrace2 --begin/--end" %
          (begin, end, items))
