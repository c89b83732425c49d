#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gst-ctf-viewer under Xvfb: opens a trace, loads it, selects a row and
saves a screenshot (--screenshot, --quit-after-load): exit status 0 and a
PNG of the window's size; with --filter, --goto and --search the rows
shown and the row selected are babeltrace2's (--print-selected); a missing path and a corrupt trace give exit
status 1 and the message on stderr, never a crash.  With a third argument,
the screenshots are also copied there (docs/images/ is made so:
`meson test -C build gtk-viewer` then the copy is in SHOTS/).

usage: test-viewer.py VIEWER OUTDIR [COPY_TO]
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

viewer, outdir = sys.argv[1], sys.argv[2]
copy_to = sys.argv[3] if len(sys.argv) > 3 else None
examples = os.environ["GST_CTF_EXAMPLES"]
data = os.environ["GST_CTF_TEST_DATA"]
corpus = os.environ.get("GST_CTF_CORPUS", "")
os.makedirs(outdir, exist_ok=True)
env = dict(os.environ, GSK_RENDERER="cairo", GDK_BACKEND="x11",
           NO_AT_BRIDGE="1", TZ="UTC")


def run(args):
    p = subprocess.run([viewer] + args, env=env, capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stderr


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def shot(name, trace, row, extra=(), copy=True):
    png = os.path.join(outdir, name + ".png")
    if os.path.exists(png):
        os.unlink(png)
    rc, err = run([trace, "--select", str(row), "--size", "1280x760",
                   "--screenshot", png, "--quit-after-load"] + list(extra))
    assert rc == 0, (trace, rc, err)
    w, h = png_size(png)
    assert w >= 1000 and h >= 600, (png, w, h)
    print("%s: %s, %dx%d" % (trace, png, w, h))
    if copy_to and copy:
        shutil.copy(png, os.path.join(copy_to, "viewer-" + name + ".png"))


shot("ust-sample", os.path.join(examples, "ust-sample"), 40)
# markers A and B inside the sample's 0.9 ms, B-A in the marker bar
shot("ust-sample-markers", os.path.join(examples, "ust-sample"), 40,
     ["--markers", "1795307694383000000:1795307694383500000"])
shot("tracedat-armv7", os.path.join(data, "tracecmd", "armv7-v6.dat"), 60)
if os.path.isdir(os.path.join(corpus, "tracedat")):
    shot("tracedat-kernel",
         os.path.join(corpus, "tracedat", "sched-irq-timer-wq.v7-zstd.dat"),
         5000)
    shot("ust-multichan",
         os.path.join(corpus, "ctf", "lttng-ust", "pthread-multichan"), 3000)
    # a row per task under the CPUs (the Tasks button)
    shot("tracedat-task-rows",
         os.path.join(corpus, "tracedat", "sched-block-net.v6.dat"), 3000,
         ["--task-rows"])
    # rows for chosen tasks only (--tasks, as the Task rows picker
    # chooses): the busiest of the trace and two kernel threads
    shot("tracedat-task-rows-chosen",
         os.path.join(corpus, "tracedat", "sched-block-net.v6.dat"), 3000,
         ["--tasks", "19031,19085,19086,19096,58,15"])
    # --visible: 10 ms of the 0.32 s trace, its density per column from
    # the summary (bins of 64 ns, from memory), and 50 us around a
    # sched_switch at 1127.142814520 (babeltrace2's text of the trace):
    # deep zoom, the events read as ticks, the switch's colour edge where
    # the event is
    shot("tracedat-mid-zoom",
         os.path.join(corpus, "tracedat", "sched-block-net.v6.dat"), 9000,
         ["--task-rows", "--visible", "1127140000000:1127150000000"])
    shot("tracedat-deep-zoom",
         os.path.join(corpus, "tracedat", "sched-block-net.v6.dat"), 9222,
         ["--task-rows", "--visible", "1127142790000:1127142840000"])
else:
    print("SKIP corpus screenshots: GST_CTF_CORPUS not set or missing")
# --visible on the bundled sample (deep zoom: 2 us), and a bad one
shot("ust-sample-visible", os.path.join(examples, "ust-sample"), 40,
     ["--visible", "1795307694383000000:1795307694383002000"], copy=False)
for bad in ("12", "5:3", "a:b"):
    rc, err = run([os.path.join(examples, "ust-sample"), "--visible", bad,
                   "--quit-after-load"])
    assert rc == 2 and "--visible" in err, (bad, rc, err)
print("--visible: bad ranges refused (exit status 2)")

# find bar: --filter, --goto, --search on the bundled ust-libc trace,
# checked against babeltrace2's text of it (examples/traces): the rows
# shown, the row selected
def oracle_rows(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("["):
                t = line[1:line.index("]")]
                rest = line.split(") ", 1)[1].split(" ")
                name = rest[1].rstrip(":")   # after the host name
                rows.append((t, name, line))
    return rows


libc = os.path.join(examples, "ust-libc")
rows = oracle_rows(os.path.join(examples, "ust-libc.babeltrace2.txt"))
png = os.path.join(outdir, "filter.png")
rc, out_err = None, None
p = subprocess.run([viewer, libc, "--filter", "lttng_ust_libc/malloc",
                    "--goto", rows[400][0],
                    "--search", "lttng_ust_libc/malloc: size > 100",
                    "--size", "1280x760", "--screenshot", png,
                    "--quit-after-load", "--print-selected"],
                   env=env, capture_output=True, text=True, timeout=120)
assert p.returncode == 0, (p.returncode, p.stderr)
n_malloc = sum(1 for r in rows if r[1] == "lttng_ust_libc:malloc")
want = None
for i, r in enumerate(rows):
    if i >= 400 and r[1] == "lttng_ust_libc:malloc":
        size = int(r[2].split("size = ")[1].split(",")[0].split(" ")[0])
        # the goto lands on the first shown row at the time, the search
        # goes past it
        if i > min(j for j in range(400, len(rows))
                   if rows[j][1] == "lttng_ust_libc:malloc") and size > 100:
            want = (i, r[0])
            break
assert want is not None
assert ("shown %d" % n_malloc) in p.stdout, (p.stdout, n_malloc)
assert ("selected %d [%s] lttng_ust_libc:malloc" % want) in p.stdout, \
    (p.stdout, want)
w, h = png_size(png)
assert w >= 1000 and h >= 600, (png, w, h)
print("filter/goto/search: %s, %s" % (p.stdout.strip().replace("\n", "; "),
                                      png))
if copy_to:
    shutil.copy(png, os.path.join(copy_to, "viewer-filter.png"))

# a bad filter, search or time: the parser's message, exit status 1
for args, msg in ((["--filter", "lttng_ust_libc/malloc: size >"],
                   "Bad filter"),
                  (["--search", "lttng_ust_libc: (size == 1"], "Bad search"),
                  (["--goto", "12:xx"], "is not a time")):
    rc, err = run([libc, "--quit-after-load"] + args)
    assert rc == 1 and msg in err, (args, rc, err)
    print("%s: exit status 1, %s" % (" ".join(args), err.strip().splitlines()[-1]))
# export (--export DIR): `ctfsrc ! timefilter ! ctfsink`; babeltrace2 on
# the exported trace prints what `babeltrace2 --begin --end` prints of the
# source, byte for byte (the same babeltrace2 for both)
bt2 = shutil.which("babeltrace2")
if bt2 is None:
    print("SKIP export: no babeltrace2 on PATH")
else:
    sample = os.path.join(examples, "ust-sample")
    a, b = 1795307694383000000, 1795307694383500000
    oracle = subprocess.run(
        [bt2, "--clock-gmt", "--begin=00:34:54.383000000",
         "--end=00:34:54.383500000", sample],
        capture_output=True, check=True).stdout
    assert oracle.count(b"\n") == 66, oracle.count(b"\n")
    tmp = tempfile.mkdtemp(prefix="gstctf-export-")
    try:
        for name, opt in (("range", "--select-range"), ("markers",
                                                        "--markers")):
            out = os.path.join(tmp, name)
            # B before A: the range is A..B all the same
            arg = "%d:%d" % ((b, a) if name == "markers" else (a, b))
            rc, err = run([sample, opt, arg, "--export", out])
            assert rc == 0, (rc, err)
            got = subprocess.run([bt2, out], capture_output=True,
                                 check=True).stdout
            assert got == oracle, (name, len(got), len(oracle))
            print("export %s %s: %d bytes of text, as babeltrace2 "
                  "--begin --end" % (opt, arg, len(got)))
        # a non-empty directory is refused, left as it was
        rc, err = run([sample, "--select-range", "%d:%d" % (a, b),
                       "--export", os.path.join(tmp, "range")])
        assert rc == 1 and "not empty" in err, (rc, err)
        # nothing to export
        rc, err = run([sample, "--export", os.path.join(tmp, "none")])
        assert rc == 1 and "select a range" in err, (rc, err)
        assert not os.path.exists(os.path.join(tmp, "none"))
        print("export: non-empty directory and no range refused")
    finally:
        shutil.rmtree(tmp)

# --tasks: thread ids only (exit status 2 as for other bad options)
rc, err = run([os.path.join(data, "tracecmd", "armv7-v6.dat"), "--tasks",
               "12,x1", "--quit-after-load"])
assert rc == 2 and "entry 2 \"x1\"" in err, (rc, err)
shot("tracedat-armv7-tasks", os.path.join(data, "tracecmd", "armv7-v6.dat"),
     60, ["--tasks", "8,860,999999"], copy=False)

# errors: a message, exit status 1, no crash
tmp = tempfile.mkdtemp(prefix="gstctf-viewer-")
try:
    rc, err = run([os.path.join(tmp, "missing"), "--quit-after-load"])
    assert rc == 1 and "Cannot open" in err and "missing" in err, (rc, err)
    # the sample trace with the packet magic at byte 8192 of channel0_0
    # zeroed: the rows before it, then the error
    src = os.path.join(examples, "ust-sample", "ust", "uid", "0", "64-bit")
    for n in ("metadata", "channel0_0", "channel0_1"):
        shutil.copy(os.path.join(src, n), tmp)
    with open(os.path.join(tmp, "channel0_0"), "r+b") as f:
        f.seek(8192)
        f.write(b"\0\0\0\0")
    png = os.path.join(outdir, "corrupt.png")
    rc, err = run([tmp, "--screenshot", png, "--quit-after-load"])
    assert rc == 1 and os.path.exists(png), (rc, err)
    print("corrupt trace: exit status 1, screenshot %s" % png)
finally:
    shutil.rmtree(tmp)
