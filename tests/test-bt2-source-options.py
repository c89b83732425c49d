#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""babeltrace2's source options on our sources, against babeltrace2 itself
(2.0.4, the system's, and 2.1.2 when ../shared/tools/babeltrace2-2.1 is
there), byte for byte:

- `ctfsrc stream-intersection=true ! ctftextsink` against `babeltrace2
  --stream-intersection UNIT` on every trace of the corpus and the
  bundled ones (both fail on the same traces: no common time, no
  stream), and `ctfsrc stream-intersection=true ! ctfsink`, then
  `babeltrace2 OUT`, against the same;
- the clock options `clock-offset`, `clock-offset-ns`,
  `force-clock-class-origin-unix-epoch` and `trace-name` of ctfsrc against
  `--clock-offset`, `--clock-offset-ns`, `--clock-force-correlate` and
  `--params=trace-name=...`, through ctftextsink and through ctfsink then
  babeltrace2 (the moved clock is written);
- the same clock options of tracecmdsrc and lttng0src: their output with
  them against babeltrace2 with the options on their plain output
  (through ctfsink);
- traces whose clock `offset_s` is a nanosecond count (about 1.35e18, as
  Trace Compass's CTF writer writes it), made from corpus and bundled
  traces in a temporary directory: babeltrace2 refuses them, ctfsrc reads
  them as babeltrace 1.5 (`babeltrace`, whose text is the oracle for the
  times and the integer values) does, with one warning naming the clock,
  and ctfsink writes them back byte for byte, with times of the day and
  with dates; also when the wrapped offset is beyond 2^63 ns (babeltrace
  1.5 prints years after 2262).

Usage: test-bt2-source-options.py SOURCE_ROOT GST_LAUNCH [ASAN_RUNTIME]
Without the corpus (GST_CTF_CORPUS) only the bundled traces are used.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root, gst_launch = sys.argv[1], sys.argv[2]
env = dict(os.environ, TZ="UTC", LC_ALL="C")
env.pop("MALLOC_PERTURB_", None)
genv = dict(env)
if len(sys.argv) > 3 and sys.argv[3]:
    genv["LD_PRELOAD"] = sys.argv[3]
failures = 0
checked = 0
corpus = os.environ.get("GST_CTF_CORPUS", "")
if not corpus or not os.path.isdir(corpus):
    print("SKIP corpus traces: GST_CTF_CORPUS not set or missing")
    corpus = None
BT20 = shutil.which("babeltrace2")
bt21 = os.path.join(root, "..", "shared", "tools", "babeltrace2-2.1")
BT21 = bt21 if os.access(bt21, os.X_OK) else None
BT1 = shutil.which("babeltrace")
tmp = tempfile.mkdtemp(prefix="gst-ctf-bt2opts-")


def run(cmd, e=None):
    # (a hang is a failure, reported with what was written until then)
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=e or env,
                              timeout=120)
    except subprocess.TimeoutExpired as x:
        return subprocess.CompletedProcess(cmd, -9, x.stdout or b"",
                                           (x.stderr or b"") + b" (timeout)")


def ours(src_props, sink):
    return run([gst_launch, "-q", "ctfsrc"] + src_props + ["!"] + sink,
               genv)


def report(ok, what, a=b"", b=b"", err=b""):
    global failures, checked
    checked += 1
    if ok:
        print("ok   " + what)
        return
    failures += 1
    al, bl = a.split(b"\n"), b.split(b"\n")
    n = next((i for i in range(min(len(al), len(bl))) if al[i] != bl[i]),
             min(len(al), len(bl)))
    print("FAIL %s, line %d:\n  ours: %.300r\n  ref:  %.300r\n  %.400r" % (
        what, n + 1, al[n] if n < len(al) else b"<end>",
        bl[n] if n < len(bl) else b"<end>", err[-400:]))


def versions(unit):
    """(babeltrace2, ctftextsink properties) pairs for @unit: CTF 2 needs
    2.1."""
    ctf2 = False
    for d, _, files in os.walk(unit):
        if "metadata" in files:
            with open(os.path.join(d, "metadata"), "rb") as f:
                ctf2 = f.read(1) == b"\x1e"
            break
    out = []
    if BT20 and not ctf2:
        out.append((BT20, ["babeltrace-version=2.0"]))
    if BT21:
        out.append((BT21, []))
    return out


def name(unit):
    return os.path.relpath(unit, corpus) if corpus and \
        unit.startswith(corpus) else os.path.relpath(unit, root)


# -- units: the corpus's oracle units and the bundled traces ------------

def units():
    out = [os.path.join(root, "examples", "traces", t)
           for t in ("ust-sample", "ust-libc")]
    for t in sorted(os.listdir(os.path.join(root, "tests", "data", "ctf2"))):
        p = os.path.join(root, "tests", "data", "ctf2", t)
        if os.path.isfile(os.path.join(p, "metadata")):
            out.append(p)
    if corpus:
        for group in ("ctf/babeltrace", "ctf/lttng-ust", "ctf/other"):
            st = os.path.join(corpus, group, "oracle", "STATUS.tsv")
            with open(st) as f:
                for line in f.read().splitlines()[1:]:
                    u = line.split("\t")
                    # (2.0.4 aborts on meta-ctx-sequence; bt1-only traces)
                    if u[0].endswith("meta-ctx-sequence") or \
                            u[0].startswith("stable-1.5-only") or \
                            u[0].startswith("barectf/") and \
                            not u[0].endswith("/0"):
                        continue
                    out.append(os.path.join(corpus, group, u[0]))
        # CTF 2 (2.1.2 only)
        c2 = os.path.join(corpus, "ctf2", "lttng-2.15")
        if os.path.isdir(c2):
            out += [os.path.join(c2, t) for t in sorted(os.listdir(c2))
                    if os.path.isdir(os.path.join(c2, t))]
    return out


# -- stream intersection ------------------------------------------------

def check_intersection(unit):
    for bt, props in versions(unit):
        v = "2.1" if bt == BT21 else "2.0"
        b = run([bt, "--stream-intersection", unit])
        o = ours(["location=" + unit, "stream-intersection=true"],
                 ["ctftextsink"] + props)
        what = "stream-intersection %s (babeltrace2 %s)" % (name(unit), v)
        if b.returncode != 0:
            report(o.returncode != 0, what + ": both fail", o.stdout,
                   b.stdout, o.stderr)
            continue
        report(o.returncode == 0 and o.stdout == b.stdout, what, o.stdout,
               b.stdout, o.stderr)
        if v != "2.0" and BT20:
            continue
        # through ctfsink: babeltrace2 reads what we wrote the same
        out = os.path.join(tmp, "isect")
        shutil.rmtree(out, ignore_errors=True)
        o = ours(["location=" + unit, "stream-intersection=true"],
                 ["ctfsink", "location=" + out])
        r = run([bt, out]) if o.returncode == 0 else o
        if r.returncode == 0 and r.stdout != b.stdout and \
                not copy_is_same(bt, unit):
            # (ctfsink's copy of the whole trace already reads otherwise:
            # not this option's doing, e.g. the per-trace env of several
            # traces merged)
            print("skip %s through ctfsink: a plain ctfsrc ! ctfsink copy "
                  "already differs" % what)
            continue
        report(r.returncode == 0 and r.stdout == b.stdout,
               what + " through ctfsink", r.stdout, b.stdout,
               o.stderr + r.stderr)


def copy_is_same(bt, unit):
    out = os.path.join(tmp, "copy")
    shutil.rmtree(out, ignore_errors=True)
    o = ours(["location=" + unit], ["ctfsink", "location=" + out])
    return o.returncode == 0 and run([bt, out]).stdout == run([bt,
                                                               unit]).stdout


# -- clock options -------------------------------------------------------

CLOCK_CASES = [
    (["--clock-offset=3600"], ["clock-offset=3600"]),
    (["--clock-offset-ns=-1500000001"], ["clock-offset-ns=-1500000001"]),
    (["--clock-offset=-2", "--clock-offset-ns=999999999", "--clock-date"],
     ["clock-offset=-2", "clock-offset-ns=999999999"]),
    (["--clock-force-correlate"], ["force-clock-class-origin-unix-epoch=true"]),
    (["--clock-force-correlate", "--clock-offset=86400", "--clock-date"],
     ["force-clock-class-origin-unix-epoch=true", "clock-offset=86400"]),
]


def check_clock(unit):
    for bargs, props in CLOCK_CASES:
        sink_props = ["clock-date=true"] if "--clock-date" in bargs else []
        for bt, vprops in versions(unit):
            v = "2.1" if bt == BT21 else "2.0"
            what = "%s %s (babeltrace2 %s)" % (" ".join(bargs), name(unit), v)
            b = run([bt] + bargs + [unit])
            if b.returncode != 0:
                report(False, what + ": babeltrace2 failed", b"", b"",
                       b.stderr)
                continue
            o = ours(["location=" + unit] + props,
                     ["ctftextsink"] + vprops + sink_props)
            report(o.returncode == 0 and o.stdout == b.stdout, what,
                   o.stdout, b.stdout, o.stderr)
            # ctfsink writes the moved clocks: babeltrace2 reads the same
            # times without the option
            out = os.path.join(tmp, "moved")
            shutil.rmtree(out, ignore_errors=True)
            o = ours(["location=" + unit] + props,
                     ["ctfsink", "location=" + out])
            r = run([bt] + [a for a in bargs if a == "--clock-date"] +
                    [out]) if o.returncode == 0 else o
            if r.returncode == 0 and r.stdout != b.stdout and \
                    not copy_is_same(bt, unit):
                print("skip %s through ctfsink: a plain ctfsrc ! ctfsink "
                      "copy already differs" % what)
                continue
            report(r.returncode == 0 and r.stdout == b.stdout,
                   what + " through ctfsink", r.stdout, b.stdout,
                   o.stderr + r.stderr)


def check_trace_name(unit):
    """source.ctf.fs trace-name: babeltrace2 prints HOSTNAME/NAME."""
    tdir = None
    for d, dirs, files in sorted(os.walk(unit)):
        dirs.sort()
        if "metadata" in files:
            tdir = d
            break
    for bt, vprops in versions(unit):
        v = "2.1" if bt == BT21 else "2.0"
        b = run([bt, "--component=source.ctf.fs",
                 '--params=inputs=["%s"],trace-name="my name"' % tdir,
                 "-f", "trace"])
        o = ours(["location=" + tdir, "trace-name=my name"],
                 ["ctftextsink", "fields=trace"] + vprops)
        report(b.returncode == 0 and o.returncode == 0 and
               o.stdout == b.stdout, "trace-name %s (babeltrace2 %s)" % (
                   name(unit), v), o.stdout, b.stdout, o.stderr + b.stderr)


for u in units():
    check_intersection(u)

CLOCK_UNITS = [os.path.join(root, "examples", "traces", "ust-sample"),
               os.path.join(root, "tests", "data", "ctf2", "windows")]
if corpus:
    CLOCK_UNITS += [os.path.join(corpus, "ctf", r) for r in (
        # a 2.8 GHz clock (the ns go through the cycles), a clock without
        # a Unix epoch origin, several traces merged, LTTng-UST per-PID
        "other/tracecompass/double_counters",
        "babeltrace/succeed/succeed1",
        "babeltrace/succeed/multi-domains",
        "lttng-ust/pthread-multichan")]
for u in CLOCK_UNITS:
    check_clock(u)
    check_trace_name(u)


def check_other_source(element, location):
    """tracecmdsrc, lttng0src: babeltrace2 --clock-... on the source's
    plain output (through ctfsink) against the source's clock options,
    through ctftextsink and through ctfsink."""
    plain = os.path.join(tmp, "plain")
    shutil.rmtree(plain, ignore_errors=True)
    o = run([gst_launch, "-q", element, "location=" + location, "!",
             "ctfsink", "location=" + plain], genv)
    if o.returncode != 0:
        report(False, "%s %s: plain copy" % (element, name(location)), b"",
               b"", o.stderr)
        return
    for bargs, props in CLOCK_CASES:
        sink_props = ["clock-date=true"] if "--clock-date" in bargs else []
        for bt, vprops in versions(plain):
            v = "2.1" if bt == BT21 else "2.0"
            what = "%s %s %s (babeltrace2 %s)" % (
                element, " ".join(bargs), name(location), v)
            b = run([bt] + bargs + [plain])
            # babeltrace2 prints a trace.dat's side stream: so do we here
            o = run([gst_launch, "-q", element, "location=" + location] +
                    props + ["!", "ctftextsink", "side-stream=true"] +
                    vprops + sink_props, genv)
            report(b.returncode == 0 and o.returncode == 0 and
                   o.stdout == b.stdout, what, o.stdout, b.stdout, o.stderr)
            out = os.path.join(tmp, "moved")
            shutil.rmtree(out, ignore_errors=True)
            o = run([gst_launch, "-q", element, "location=" + location] +
                    props + ["!", "ctfsink", "location=" + out], genv)
            r = run([bt] + [a for a in bargs if a == "--clock-date"] +
                    [out]) if o.returncode == 0 else o
            report(r.returncode == 0 and r.stdout == b.stdout,
                   what + " through ctfsink", r.stdout, b.stdout,
                   o.stderr + r.stderr)


check_other_source("tracecmdsrc", os.path.join(root, "tests", "data",
                                               "tracecmd", "i686-v6.dat"))
if corpus:
    check_other_source("tracecmdsrc", os.path.join(
        corpus, "tracedat", "sched-irq-timer-wq.v7-zstd.dat"))
    # an LTTng 0.x trace, unpacked from the corpus's tarball
    ltt = os.path.join(tmp, "ltt0")
    os.makedirs(ltt)
    subprocess.run(["tar", "xzf", os.path.join(
        corpus, "ltt0", "trace-1021events-nolost-1cpu.tar.gz"), "-C", ltt],
        check=True)
    check_other_source("lttng0src", os.path.join(
        ltt, "trace-1021events-nolost-1cpu"))


# -- clock offset_s in nanoseconds (Trace Compass's CTF writer) ----------

# wrapped modulo 2^64 below 2^63 ns (year 2001), and beyond (year 2331)
NS_OFFSET_S = 1351530939773867110
NS_OFFSET_S_BEYOND = 1351530929945824323
LINE = re.compile(rb"^(\[[^]]*\] \([^)]*\)) (?:\S+ )?(\S+): ")
INT = re.compile(rb"\b(\w+) = (-?[0-9]+|0x[0-9A-Fa-f]+)\b")


def times_and_ints(text):
    """Per event line: the time and delta, the event name and every
    `name = integer`: what babeltrace 1.5 and babeltrace2's text share."""
    out = []
    for line in text.split(b"\n"):
        m = LINE.match(line)
        if m:
            out.append((m.group(1), m.group(2), INT.findall(line)))
        elif out and not line.startswith(b"[warning]"):
            # (babeltrace 1.5 writes a string's newline as it is: the
            # event's text goes on on the next line)
            out[-1][2].extend(INT.findall(line))
    return out


def ns_offset_trace(tdir, offset_s, dest):
    """A copy of trace @tdir whose plain-text metadata says the clock
    offset_s @offset_s (LTTng writes no offset_s: it is added)."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(tdir, dest)
    m = run([BT20 or BT21, "-o", "ctf-metadata", tdir]).stdout.decode()
    if re.search(r"\boffset_s\s*=", m):
        m = re.sub(r"\boffset_s\s*=\s*-?[0-9]+\s*;",
                   "offset_s = %d;" % offset_s, m)
    else:
        m = re.sub(r"(\n\s*)offset\s*=", r"\1offset_s = %d;\1offset =" %
                   offset_s, m, count=1)
    with open(os.path.join(dest, "metadata"), "w") as f:
        f.write(m)


def same_files(a, b):
    for f in sorted(os.listdir(a)):
        if os.path.isdir(os.path.join(a, f)):
            continue
        with open(os.path.join(a, f), "rb") as x, \
                open(os.path.join(b, f), "rb") as y:
            if x.read() != y.read():
                return f
    return None


def check_ns_offset(tdir, offset_s, date):
    t = os.path.join(tmp, "ns-offset")
    ns_offset_trace(tdir, offset_s, t)
    what = "offset_s = %d %s" % (offset_s, name(tdir))
    b1 = run([BT1] + (["--clock-date"] if date else []) + [t])
    o = run([gst_launch, "ctfsrc", "location=" + t, "!", "ctftextsink",
             "babeltrace-version=2.0", "clock-date=%s" % str(date).lower(),
             "location=" + os.path.join(tmp, "o.txt")], genv)
    with open(os.path.join(tmp, "o.txt"), "rb") as f:
        text = f.read()
    a, b = times_and_ints(text), times_and_ints(b1.stdout)
    # the same times and deltas in the same order; the same events with
    # the same values at each time (babeltrace 1.5 orders events of equal
    # times across streams otherwise than babeltrace2)
    same = [x[0] for x in a] == [x[0] for x in b] and \
        sorted((x[0].split(b"]")[0], x[1], x[2]) for x in a) == \
        sorted((x[0].split(b"]")[0], x[1], x[2]) for x in b)
    report(b1.returncode == 0 and o.returncode == 0 and len(a) > 0 and
           same, what + ": times%s and integers as babeltrace 1.5" %
           (" (dates)" if date else ""),
           repr(a[:3]).encode(), repr(b[:3]).encode(), o.stderr)
    n_warn = o.stdout.count(b"overflows in nanoseconds")
    report(n_warn == 1 and b'Clock "' in o.stdout,
           what + ": one warning naming the clock (%d)" % n_warn)
    bt = BT20 or BT21
    report(run([bt, t]).returncode != 0, what + ": babeltrace2 refuses it")
    out = os.path.join(tmp, "ns-offset-copy")
    shutil.rmtree(out, ignore_errors=True)
    o = ours(["location=" + t], ["ctfsink", "location=" + out])
    diff = same_files(t, out) if o.returncode == 0 else "(failed)"
    report(diff is None, what + ": ctfsink writes it back unchanged (%s)" %
           diff, b"", b"", o.stderr)


# -- a clock whose origin is before the Unix epoch: negative times ------

NEG_OFFSET_S = -10000000000


def check_negative_times(tdir):
    """babeltrace2 prints the first negative time as SEC.NS (with one
    warning on stderr) and the later ones as times of the day: the same
    text, warnings and all, through ctftextsink (parallel by default) and
    through ctfsink then babeltrace2."""
    t = os.path.join(tmp, "negative")
    ns_offset_trace(tdir, NEG_OFFSET_S, t)
    what = "offset_s = %d %s" % (NEG_OFFSET_S, name(tdir))
    for bt, props in versions(t):
        ref = run([bt, t])
        txt = os.path.join(tmp, "neg.txt")
        o = ours(["location=" + t], ["ctftextsink", "location=" + txt] +
                 props)
        with open(txt, "rb") as f:
            text = f.read()
        report(ref.returncode == 0 and b"\n[-" in b"\n" + ref.stdout and
               o.returncode == 0 and text == ref.stdout and
               o.stderr == ref.stderr, what + ": negative times as " +
               os.path.basename(bt), text, ref.stdout, o.stderr)
        out = os.path.join(tmp, "neg-copy")
        shutil.rmtree(out, ignore_errors=True)
        o = ours(["location=" + t], ["ctfsink", "location=" + out])
        back = run([bt, out])
        report(o.returncode == 0 and back.stdout == ref.stdout,
               what + ": through ctfsink, " + os.path.basename(bt),
               back.stdout, ref.stdout, o.stderr + back.stderr)


if BT20 or BT21:
    check_negative_times(os.path.join(root, "examples", "traces",
                                      "ust-sample", "ust", "uid", "0",
                                      "64-bit"))


if BT1 and (BT20 or BT21):
    NS_UNITS = [os.path.dirname(p) for p in (
        os.path.join(root, "examples", "traces", "ust-sample", "ust", "uid",
                     "0", "64-bit", "metadata"),
        os.path.join(root, "examples", "traces", "ust-libc", "ust", "uid",
                     "0", "64-bit", "metadata"))]
    if corpus:
        NS_UNITS += [os.path.join(corpus, "ctf", r) for r in (
            "babeltrace/intersection/3eventsintersect",
            "lttng-ust/custom-2cpu/ust/uid/0/64-bit")]
    for u in NS_UNITS:
        if os.path.isfile(os.path.join(u, "metadata")):
            # wrapped below 2^63 ns (year 2001) and beyond (year 2331:
            # held as a negative offset, printed unsigned)
            for off in (NS_OFFSET_S, NS_OFFSET_S_BEYOND):
                for date in (False, True):
                    check_ns_offset(u, off, date)
        else:
            report(False, "missing trace " + u)
else:
    print("SKIP offset_s in ns: babeltrace (1.5) or babeltrace2 missing")

shutil.rmtree(tmp, ignore_errors=True)
print("%d checks, %d failures" % (checked, failures))
sys.exit(1 if failures else 0)
