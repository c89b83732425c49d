#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs examples/python: ctf-stats.py (counts = babeltrace2's, plot
written when matplotlib is installed) and ctf-merge-filter.py (merged and
windowed traces read back by babeltrace2 with the expected events)."""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

top = os.environ.get("GST_CTF_SOURCE_ROOT",
                     os.path.join(os.path.dirname(__file__), "..", ".."))
ex = os.path.join(top, "examples", "python")
sample = os.path.join(top, "examples", "traces", "ust-sample")
oracle = os.path.join(top, "examples", "traces", "ust-sample.babeltrace2.txt")
env = dict(os.environ, TZ="UTC", LC_ALL="C.UTF-8")
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    failures += 0 if cond else 1


def run(script, *args, timeout=300):
    r = subprocess.run([sys.executable, os.path.join(ex, script), *args],
                       env=env, capture_output=True, text=True,
                       timeout=timeout)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
    return r


def bt2_lines(*args):
    return subprocess.run(["babeltrace2", *args], env=env, check=True,
                          capture_output=True,
                          text=True).stdout.splitlines()


def count_packets(trace):
    """Packets in a written trace, as ctfsrc reads them."""
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
    Gst.init(None)
    p = Gst.parse_launch("ctfsrc name=s location=\"%s\" ! fakesink" % trace)
    p.set_state(Gst.State.PLAYING)
    msg = p.get_bus().timed_pop_filtered(
        30 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    n = -1
    if msg and msg.type == Gst.MessageType.EOS:
        n = p.get_by_name("s").get_property("stats").get_value("packets")
    p.set_state(Gst.State.NULL)
    return n


with open(oracle) as f:
    want = collections.Counter(line.split()[3].rstrip(":") for line in f)

with tempfile.TemporaryDirectory() as tmp:
    plot = os.path.join(tmp, "hist.png")
    r = run("ctf-stats.py", sample, "--plot", plot)
    got = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].endswith("%"):
            got[parts[2]] = int(parts[0])
    check(r.returncode == 0 and got == dict(want),
          "ctf-stats counts = babeltrace2's (%d names)" % len(want))
    try:
        import matplotlib  # noqa: F401
        check(os.path.exists(plot) and open(plot, "rb").read(4) ==
              b"\x89PNG", "histogram plot written")
    except ImportError:
        print("skip: matplotlib not installed, text histogram only")

    # a trace that cannot be read: an error at once, not a wait forever
    for bad in (os.path.join(tmp, "missing"), tmp):
        try:
            r = run("ctf-stats.py", bad, timeout=30)
            check(r.returncode != 0 and r.stderr.startswith("error: ") and
                  bad in r.stderr, "ctf-stats on %s: error %r" % (
                      bad, r.stderr.strip()))
        except subprocess.TimeoutExpired:
            check(False, "ctf-stats on %s ends" % bad)

    have_bt2 = shutil.which("babeltrace2") is not None
    out = os.path.join(tmp, "cut")
    b, e = "00:34:54.3830", "00:34:54.3840"
    r = run("ctf-merge-filter.py", "-q", "-o", out, "--begin", b, "--end", e,
            sample)
    check(r.returncode == 0, "ctf-merge-filter window exits 0")
    if have_bt2:
        check(len(bt2_lines(out)) == len(bt2_lines("--begin", b, "--end", e,
                                                   sample)),
              "window = babeltrace2 --begin/--end")
    r = run("ctf-merge-filter.py", "-q", "-o", os.path.join(tmp, "x"),
            os.path.join(tmp, "missing"))
    check(r.returncode != 0 and "input not found" in r.stderr,
          "missing input reported")
    # Both bundled traces merged, by packets and by events: the packet
    # count printed is the output's (events mode pushes buffer lists).
    libc = os.path.join(top, "examples", "traces", "ust-libc")
    for mode in ("packets", "events"):
        merged = os.path.join(tmp, "merged-" + mode)
        r = run("ctf-merge-filter.py", "-o", merged, "--mode", mode, sample,
                libc)
        m = re.search(r"wrote .* \((\d+) packets\)", r.stderr)
        n = int(m.group(1)) if m else -1
        want_n = count_packets(merged)
        check(r.returncode == 0 and n == want_n and n > 0,
              "ctf-merge-filter --mode %s counts %d packets (output has %d)"
              % (mode, n, want_n))
    corpus = os.environ.get("GST_CTF_CORPUS", "")
    other = os.path.join(corpus, "ctf", "lttng-ust", "dl-statedump")
    if os.path.isdir(other) and have_bt2:
        merged = os.path.join(tmp, "merged")
        r = run("ctf-merge-filter.py", "-q", "-o", merged, sample, other)
        check(r.returncode == 0 and len(bt2_lines(merged)) ==
              len(bt2_lines(sample)) + len(bt2_lines(other)),
              "merge of two traces holds the events of both")
    else:
        print("skip: corpus or babeltrace2 missing, merge not checked")

sys.exit(1 if failures else 0)
