#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Trace Compass reads what our writers write.

Every writer path (ctfsink CTF 1.8 and CTF 2 from the CTF inputs,
tracecmdsrc plain / lttng-compat=true / ctf-version=2, lttng0src, ctfmux
in both modes, timefilter, ctffilter) writes a trace with gst-launch-1.0
into one temporary directory; Trace Compass's own CTF reader
(../shared/tools/tracecompass-ctf/ctfcheck.sh, ctf.core headless, one JVM
for all outputs) reads them, and its event count, first and last
timestamps (ns from the clock origin) and counts per event name must
equal babeltrace2's on the same output (Debian's 2.0.4 for CTF 1.8,
../shared/tools/babeltrace2-2.1 for CTF 2).

Where Trace Compass differs by design, the comparison follows it: with
more than one clock class it shows clock values (compared with
babeltrace2's --clock-cycles smallest and largest), with a clock that is
not 1 GHz it rounds through a double (a tolerance of an ulp), events
without a timestamp get 0.  KNOWN_LIMITS lists what this Trace Compass
version refuses though babeltrace2 reads it (CTF 2 with more than one
data stream class: "Stream without id with multiple streams", where
ctfsink must also have posted its warning, and no other run may post
it; CTF 1.8 static arrays of length 0); such an output must fail with
that message.  EXCLUDED lists the corpus inputs left out and why, OPEN
the runs that still fail and how.

Adding a writer: add a row to WRITERS (name, inputs, pipeline with {IN},
{IN2} and {OUT}, split on spaces); see the comment above it.

Usage: test-tracecompass.py SOURCE_ROOT GST_LAUNCH [ASAN_RUNTIME [GST_CTF]]
"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

root, gst_launch = sys.argv[1], sys.argv[2]
asan = len(sys.argv) > 3 and sys.argv[3]
genv = dict(os.environ)
if asan:
    genv["LD_PRELOAD"] = sys.argv[3]
# programs a WRITERS row may start with instead of a pipeline
TOOLS = {"gst-ctf": sys.argv[4] if len(sys.argv) > 4 else ""}
shared = os.path.join(root, "..", "shared")
checker = os.path.join(shared, "tools", "tracecompass-ctf", "ctfcheck.sh")
bt21 = os.path.join(shared, "tools", "babeltrace2-2.1")
bt20 = shutil.which("babeltrace2")
corpus = os.environ.get("GST_CTF_CORPUS", "")
ex = os.path.join(root, "examples", "traces")
data = os.path.join(root, "tests", "data")

# What ctfsink says when it writes CTF 2 with several data stream classes
# (elements/ctfsink/gstctfsink.c).
TC_WARNING = "Trace Compass"
TC_LIMIT = "Stream without id with multiple streams"

# The CTF units of the corpus that babeltrace2 reads (oracle STATUS.tsv
# exit 0) but that are no input here, and why.  Everything else is.
EXCLUDED = {
    # Trace Compass cannot read the input itself:
    "ctf/babeltrace/succeed/lttng-crash":
        "a buffer underflow in the last (crash) packet",
    "ctf/babeltrace/succeed/meta-variant-no-underscore":
        "'Variant tag must be an enum or an int: selector'",
    "ctf/babeltrace/succeed/smalltrace":
        "'Invalid integer format' (an 86-digit integer literal)",
    "ctf2/babeltrace/succeed/fl-bm": "a bit map: 'Missing trace block'",
    "ctf2/babeltrace/succeed/meta-variant-reserved-keywords":
        "'Unknown enum selector for variant fields'",
    "ctf2/babeltrace/succeed/meta-variant-two-underscores":
        "'Unknown enum selector for variant fields'",
    "ctf2/converted/babeltrace_succeed_meta-variant-reserved-keywords":
        "'Unknown enum selector for variant fields'",
    "ctf2/babeltrace/succeed/struct-array-align-elem":
        "a zero-length array in CTF 2: a read error after 1 event",
    # Trace Compass reads it with other times than babeltrace2: an event
    # without a timestamp field gets 0, not its packet's beginning time
    "ctf/other/barectf/counter-clock/dst-packet-features/beg-end-ts-multi":
        "events without time: 0 in Trace Compass",
    "ctf/other/barectf/counter-clock/dst-packet-features/beg-ts-multi":
        "events without time: 0 in Trace Compass",
    "ctf/other/barectf/counter-clock/dst-packet-features/end-ts-multi":
        "events without time: 0 in Trace Compass",
    # no reference: babeltrace2 2.1.2 crashes on the CTF 2 copy (and on
    # the input, tests/test-bt2-switches.py), CTF 1.8 has no LEB128
    "tests/data/ctf2/kinds": "babeltrace2 2.1.2 crashes on it",
    # babeltrace2 2.0.4 aborts on the CTF 1.8 copy, as on the CTF 1.8
    # original (corpus README)
    "ctf2/babeltrace/succeed/meta-ctx-sequence":
        "babeltrace2 2.0.4 aborts on its CTF 1.8 form",
}

# Writer runs that do not pass, (writer, input): what they fail with.
# Each is checked to still fail so (a fix shows as a failure asking to
# remove the row).  Trace Compass's CTF 2 reader fails the same way on
# babeltrace2's own CTF 2 forms of meta-variant-reserved-keywords,
# -two-underscores (its babeltrace2 2.1 copy too) and struct-array-align-elem
# (EXCLUDED above: an aligned element in a zero-length array, which
# babeltrace2's copy loses).
OPEN = {
    ("ctfsink-2", "ctf/babeltrace/succeed/meta-variant-reserved-keywords"):
        "Trace read error",
    ("ctfsink-2", "ctf/babeltrace/succeed/meta-variant-two-underscores"):
        "Trace read error",
    ("ctfsink-2", "ctf/babeltrace/succeed/struct-array-align-elem"):
        "Trace read error",
    # no reference: babeltrace2 2.1.2 aborts on these CTF 2 copies as on
    # their CTF 1.8 originals (precondition "packet-beginning-create-with-
    # default-clock-snapshot:without-default-clock-snapshot": packets
    # without begin/end times in a data stream class with a clock)
    ("ctfsink-2", "ctf/other/barectf/counter-clock/dst-er-features/ts"):
        "babeltrace2 exit -6",
    ("ctfsink-2", "ctf/other/barectf/counter-clock/dst-er-features/"
     "ts-uint32"): "babeltrace2 exit -6",
    ("ctfsink-2", "ctf/other/barectf/counter-clock/dst-packet-features/"
     "end-ts"): "babeltrace2 exit -6",
    ("ctfsink-2", "ctf/other/barectf/counter-clock/dst-packet-features/"
     "end-ts-uint32"): "babeltrace2 exit -6",
}


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=600, **kw)


# -- babeltrace2's view: events, first/last ns, counts per name ----------

BT_LINE = re.compile(rb"^(?:\[(-?)(\d+)\.(\d{9})\] )?(.+?):(?: \{| ?$)")
BT_CYCLES = re.compile(rb"^(?:\[(\d+)\] )?(.+?):(?: \{| ?$)")
BT_PARAMS = 'no-delta=yes,field-default=hide,color="never",'


def bt_summary(bt, trace, cycles=False):
    """(error, events, first, last, {name: count}) of babeltrace2's pretty
    text of @trace: the first and last times in ns from the clock origin,
    or with @cycles the smallest and largest clock values; None when
    the events have no time."""
    r = run([bt, "-c", "sink.text.pretty", "-p", BT_PARAMS +
             ("clock-cycles=yes" if cycles else "clock-seconds=yes"), trace])
    if r.returncode != 0:
        return ("babeltrace2 exit %d: %s" % (r.returncode, r.stderr[-300:]),
                0, None, None, {})
    names, first, last, n = {}, None, None, 0
    for line in r.stdout.split(b"\n"):
        if not line:
            continue
        m = (BT_CYCLES if cycles else BT_LINE).match(line)
        if not m:
            return ("unexpected babeltrace2 line %.120r" % line, 0, None,
                    None, {})
        name = m.group(m.lastindex).decode()
        names[name] = names.get(name, 0) + 1
        n += 1
        if cycles:
            if m.group(1) is not None:
                c = int(m.group(1))
                first = c if first is None else min(first, c)
                last = c if last is None else max(last, c)
            continue
        ns = None
        if m.group(2) is not None:
            ns = int(m.group(2)) * 1000000000 + int(m.group(3))
            if m.group(1):
                ns = -ns
        first = ns if first is None else first
        last = ns
    return (None, n, first, last, names)


# -- Trace Compass's view (ctfcheck.sh on a directory of traces) ---------

def trace_dirs(top):
    """The trace directories ctfcheck.sh finds below @top, in its order
    (the paths of the `metadata` files, sorted)."""
    found = []
    for d, _, files in os.walk(top):
        if "metadata" in files:
            found.append(os.path.join(d, "metadata"))
    return [os.path.dirname(p) for p in sorted(found)]


def tc_check(top):
    """{trace dir: result} for every trace below @top, read in one JVM;
    a result is a dict: error (None or the exception), events, first,
    last (ns or None), names ({name: count}, lost-event records left
    out)."""
    dirs = trace_dirs(top)
    r = run([checker, top])
    blocks, cur, in_names = [], None, False
    for line in r.stdout.decode("utf-8", "replace").split("\n"):
        m = re.match(r"^\s+(\d+) (.*)$", line)
        if in_names and m:
            if m.group(2) != "Lost event":
                cur["names"][m.group(2)] = int(m.group(1))
            continue
        in_names = False
        if cur is None or "events" in cur and (
                line.startswith("trace: ") or line.startswith("EXCEPTION")):
            if line.startswith("TOTAL ") or not line:
                continue
            cur = {"error": None, "names": {}, "path": None}
            blocks.append(cur)
        if line.startswith("trace: "):
            cur["path"] = line[7:]
        elif line.startswith("EXCEPTION"):
            cur["error"] = line
        elif line.startswith("events: "):
            cur["events"] = int(line[8:])
        elif line.startswith("first_ts_ns: "):
            v = line[13:]
            cur["first"] = None if v == "-" else int(v)
        elif line.startswith("last_ts_ns: "):
            v = line[12:]
            cur["last"] = None if v == "-" else int(v)
        elif line == "per event name:":
            in_names = True
    if len(blocks) != len(dirs):
        raise RuntimeError("ctfcheck.sh: %d results for %d traces (exit %d):"
                           " %s" % (len(blocks), len(dirs), r.returncode,
                                    r.stderr[-500:]))
    res = {}
    for d, b in zip(dirs, blocks):
        if b["path"] is not None and os.path.realpath(b["path"]) != \
                os.path.realpath(d):
            raise RuntimeError("ctfcheck.sh order: %s for %s" % (b["path"], d))
        res[d] = b
    return res


# -- inputs ----------------------------------------------------------------

TMP = [""]


def rel(p):
    if TMP[0] and p.startswith(os.path.join(TMP[0], "ltt0-in")):
        return "ltt0/" + os.path.relpath(p, os.path.join(TMP[0], "ltt0-in"))
    if corpus and p.startswith(corpus):
        return os.path.relpath(p, corpus)
    return os.path.relpath(p, root)


def ctf_inputs():
    """The CTF traces ctfsink copies: the bundled ones, and the corpus
    units babeltrace2 reads, but EXCLUDED."""
    units = [os.path.join(ex, "ust-libc"), os.path.join(ex, "ust-sample"),
             os.path.join(data, "text", "enums"),
             os.path.join(data, "text", "formats"),
             os.path.join(data, "ctf2", "kinds")]
    if not corpus:
        return units
    for d in ("ctf/babeltrace", "ctf/lttng-ust", "ctf/other"):
        base = os.path.join(corpus, d)
        with open(os.path.join(base, "oracle", "STATUS.tsv")) as f:
            rows = [ln.rstrip("\n").split("\t") for ln in f][1:]
        units += [os.path.join(base, row[0]) for row in rows
                  if row[1] == "0"]
    for d in ("babeltrace/succeed", "babeltrace/intersection", "converted",
              "lttng-2.15"):
        base = os.path.join(corpus, "ctf2", d)
        units += [os.path.join(base, n) for n in sorted(os.listdir(base))
                  if n != "oracle"]
    return [u for u in units if rel(u) not in EXCLUDED]


def tracedat_inputs():
    ins = [os.path.join(data, "tracecmd", "i686-v7-zstd.dat"),
           os.path.join(data, "tracecmdsrc", "date.v7-zstd.dat")]
    if corpus:
        for d in ("tracedat", "tracedat/public"):
            base = os.path.join(corpus, d)
            ins += [os.path.join(base, n) for n in sorted(os.listdir(base))
                    if n.endswith(".dat")]
    return ins


def ltt0_inputs(tmp):
    """The LTTng 0.x corpus traces, unpacked into @tmp."""
    ins = []
    base = os.path.join(corpus, "ltt0")
    for n in sorted(os.listdir(base)):
        if not n.endswith(".tar.gz"):
            continue
        d = os.path.join(tmp, "ltt0-in", n[:-len(".tar.gz")])
        os.makedirs(d)
        subprocess.run(["tar", "xzf", os.path.join(base, n), "-C", d],
                       check=True)
        subs = os.listdir(d)
        # most tarballs hold one folder, trace-2.6 its files
        ins.append(os.path.join(d, subs[0]) if len(subs) == 1 and
                   os.path.isdir(os.path.join(d, subs[0])) else d)
    return ins


def gst_ctf_inputs():
    """What the gst-ctf command converts with -o ctf: a CTF 1.8 and a
    CTF 2 trace, a trace.dat."""
    ins = [os.path.join(ex, "ust-libc"),
           os.path.join(data, "tracecmd", "i686-v7-zstd.dat")]
    if corpus:
        ins += [os.path.join(corpus, "ctf", "lttng-ust", "pthread-multichan"),
                os.path.join(corpus, "ctf2", "lttng-2.15", "ust-libc"),
                os.path.join(corpus, "tracedat",
                             "sched-irq-timer-wq.v7-zstd.dat")]
    return ins


def pairs():
    """(IN, IN2) merged by ctfmux: LTTng-UST traces of one machine, a CTF
    1.8 + CTF 2 pair (the output is CTF 2) and a multi-stream-class one."""
    ust = os.path.join(corpus, "ctf", "lttng-ust")
    l215 = os.path.join(corpus, "ctf2", "lttng-2.15")
    ps = [(os.path.join(ex, "ust-libc"), os.path.join(ex, "ust-sample"))]
    if corpus:
        ps += [(os.path.join(ust, "libc-ls"),
                os.path.join(ust, "custom-2cpu")),
               (os.path.join(ust, "dl-statedump"),
                os.path.join(l215, "ust-fields")),
               (os.path.join(ust, "pthread-multichan"),
                os.path.join(ust, "custom-2cpu"))]
    return ps


def window_inputs():
    """Traces cut by timefilter to their middle third of events."""
    ins = [os.path.join(ex, "ust-libc")]
    if corpus:
        ins += [os.path.join(corpus, "ctf", "lttng-ust", n)
                for n in ("libc-ls", "pthread-multichan", "custom-2cpu")]
        ins += [os.path.join(corpus, "ctf2", "lttng-2.15", "ust-fields")]
    return ins


def window(unit):
    """START/END (SEC.NNNNNNNNN): the times of @unit's events at a third
    and two thirds of their count (a window by time can be empty: the
    events of custom-2cpu are at its two ends)."""
    bt = bt21 if os.path.exists(bt21) else bt20
    r = run([bt, "-c", "sink.text.pretty", "-p",
             BT_PARAMS + "clock-seconds=yes", unit])
    times = [m.group(2) + b"." + m.group(3) for m in
             map(BT_LINE.match, r.stdout.split(b"\n")) if m and m.group(2)]
    if r.returncode != 0 or len(times) < 3:
        raise RuntimeError("%s: babeltrace2 exit %d, %d events" % (
            unit, r.returncode, len(times)))
    n = len(times)
    return times[n // 3].decode(), times[2 * n // 3].decode()


# The cases: (writer name, inputs, gst-launch-1.0 pipeline).  The inputs
# are a function of the temporary directory returning paths (or tuples of
# paths for {IN} and {IN2}); the pipeline is a string with {IN}, {IN2},
# {OUT} (the output directory ctfsink writes) and {START}/{END} (the
# times of {IN}'s events at one and two thirds of their count).  A new writer is a new row; its output
# must end in `ctfsink location={OUT}`.  A row may also be a command
# line of a program of TOOLS (its path given on the command line; rows of
# a program not given are skipped).
WRITERS = [
    ("ctfsink-1.8", lambda t: ctf_inputs(),
     "ctfsrc location={IN} ! ctfsink location={OUT} ctf-version=1.8 "
     "lossy=true"),
    ("ctfsink-2", lambda t: ctf_inputs(),
     "ctfsrc location={IN} ! ctfsink location={OUT} ctf-version=2"),
    ("tracecmdsrc", lambda t: tracedat_inputs(),
     "tracecmdsrc location={IN} ! ctfsink location={OUT}"),
    ("tracecmdsrc-lttng", lambda t: tracedat_inputs(),
     "tracecmdsrc location={IN} lttng-compat=true ! ctfsink location={OUT}"),
    ("tracecmdsrc-ctf2", lambda t: tracedat_inputs(),
     "tracecmdsrc location={IN} ctf-version=2 ! ctfsink location={OUT}"),
    ("lttng0src", lambda t: ltt0_inputs(t) if corpus else [],
     "lttng0src location={IN} ! ctfsink location={OUT}"),
    ("ctfmux-packets", lambda t: pairs(),
     "ctfmux name=m mode=packets ! ctfsink location={OUT} "
     "ctfsrc location={IN} ! m. ctfsrc location={IN2} ! m."),
    ("ctfmux-events", lambda t: pairs(),
     "ctfmux name=m mode=events ! ctfsink location={OUT} "
     "ctfsrc location={IN} ! m. ctfsrc location={IN2} ! m."),
    ("ctfmux-events-1.8", lambda t: pairs(),
     "ctfmux name=m mode=events ctf-version=1.8 ! ctfsink location={OUT} "
     "ctfsrc location={IN} ! m. ctfsrc location={IN2} ! m."),
    ("timefilter", lambda t: window_inputs(),
     "ctfsrc location={IN} ! timefilter start={START} end={END} ! "
     "ctfsink location={OUT}"),
    ("ctffilter-events", lambda t: window_inputs(),
     "ctfsrc location={IN} ! ctffilter events=lttng_ust_libc:*,corpus_tp:* "
     "cpus=0 ! ctfsink location={OUT}"),
    ("gst-ctf", lambda t: gst_ctf_inputs(),
     "gst-ctf -o ctf -w {OUT} {IN}"),
    ("ctffilter-tracecmd", lambda t: tracedat_inputs(),
     "tracecmdsrc location={IN} lttng-compat=true ! "
     "ctffilter events=sched_switch,sched_wakeup* ! ctfsink location={OUT}"),
]


def write(pipeline, out):
    """Runs @pipeline; (error or None, whether ctfsink warned about Trace
    Compass).  Without -q: gst-launch-1.0 -q does not print warnings."""
    words = pipeline.split(" ")
    if words[0] in TOOLS:
        r = run([TOOLS[words[0]]] + words[1:], env=genv)
    else:
        r = run([gst_launch] + words, env=genv)
    text = (r.stdout + r.stderr).decode("utf-8", "replace")
    warned = any(ln.startswith(("WARNING", "gst-ctf: WARNING")) and
                 TC_WARNING in ln for ln in text.split("\n"))
    if r.returncode != 0:
        return "gst-launch-1.0 exit %d: %s" % (r.returncode, text[-400:]), \
            warned
    if not os.path.exists(os.path.join(out, "metadata")):
        return "no %s/metadata" % out, warned
    return None, warned


def metadata_info(trace):
    """What of @trace's metadata decides how Trace Compass reads it: the
    CTF version, the number of data stream classes, the clock classes'
    frequencies, whether it has a static array of length 0."""
    with open(os.path.join(trace, "metadata"), "rb") as f:
        t = f.read()
    if t[:1] == b"\x1e":
        return {"version": "2",
                "dscs": len(re.findall(rb'"type":\s*"data-stream-class"', t)),
                "clocks": [int(x) for x in re.findall(
                    rb'"type":\s*"clock-class".*?"frequency":\s*(\d+)', t)],
                "zero_arrays": re.search(
                    rb'"type":\s*"static-length-array"[^{}]*"length":\s*0\b',
                    t) is not None}
    if t[:4] in (b"\x57\x1d\xd1\x75", b"\x75\xd1\x1d\x57"):
        t = run([bt20, "-o", "ctf-metadata", trace]).stdout
    clocks = [re.search(rb"\bfreq\s*=\s*(\d+)", c)
              for c in re.findall(rb"(?ms)^clock\s*\{(.*?)\};", t)]
    return {"version": "1.8",
            "dscs": max(1, len(re.findall(rb"(?m)^stream\s*\{", t))),
            "clocks": [int(c.group(1)) if c else 1000000000 for c in clocks],
            "zero_arrays": re.search(rb"\[0\];", t) is not None}


# Outputs this Trace Compass version refuses though babeltrace2 reads
# them: (what, does it apply to a metadata_info(), Trace Compass's
# message).  Such an output must fail in Trace Compass with that message
# (so the row goes once Trace Compass reads them).
KNOWN_LIMITS = [
    ("CTF 2 with more than one data stream class (ctfsink warns)",
     lambda i: i["version"] == "2" and i["dscs"] > 1, TC_LIMIT),
    # trace.dat formats of old kernels declare `buf[0]`/`caller[0]`
    ("a CTF 1.8 static array of length 0",
     lambda i: i["version"] == "1.8" and i["zero_arrays"],
     "Array length is negative"),
]


def compare(t, trace, warned):
    """None when Trace Compass's result @t on @trace is babeltrace2's,
    else why not; (why, note)."""
    i = metadata_info(trace)
    if warned != (i["version"] == "2" and i["dscs"] > 1):
        return "CTF %s, %d data stream classes, but ctfsink %s" % (
            i["version"], i["dscs"], "warned" if warned else
            "did not warn"), ""
    # Trace Compass converts times with the trace's clock only when it
    # has one (CTFTrace.getClock()); with several it shows clock values
    # (no offset, no frequency): compare them with babeltrace2's then.
    multi = len(i["clocks"]) > 1
    err, n, first, last, names = bt_summary(bt21 if i["version"] == "2"
                                            else bt20, trace, cycles=multi)
    if err:
        return err, ""
    for what, applies, message in KNOWN_LIMITS:
        if applies(i):
            if t["error"] and message in t["error"]:
                return None, "%d events; %s: Trace Compass refuses it" % (
                    n, what)
            return "expected Trace Compass to refuse %s (%r), got %s" % (
                what, message, t["error"] or "%d events" % t["events"]), ""
    if t["error"]:
        return t["error"], ""
    if n and first is None:
        # no timestamps (no clock): Trace Compass shows 0
        first = last = 0
    tol = 0
    if len(i["clocks"]) == 1 and i["clocks"][0] != 1000000000 and n:
        # (cycles + offset) * (1e9 / frequency) in a double, truncated
        tol = int(max(math.ulp(float(first)), math.ulp(float(last))) +
                  math.ceil(1e9 / i["clocks"][0]))
    if t["events"] != n or (first is None) != (t["first"] is None) or \
            first is not None and (abs(t["first"] - first) > tol or
                                   abs(t["last"] - last) > tol):
        return "Trace Compass %d events %s..%s, babeltrace2 %d %s..%s%s" % (
            t["events"], t["first"], t["last"], n, first, last,
            " (+-%d ns)" % tol if tol else ""), ""
    if t["names"] != names:
        diff = sorted(k for k in set(names) | set(t["names"])
                      if names.get(k) != t["names"].get(k))
        return "counts per name differ: %s" % ", ".join(
            "%s %s/%s" % (k, t["names"].get(k), names.get(k))
            for k in diff[:5]), ""
    return None, "%d events%s%s" % (
        n, ", clock values (%d clock classes)" % len(i["clocks"])
        if multi else "", ", times +-%d ns (%d Hz clock)" % (
            tol, i["clocks"][0]) if tol else "")


def main():
    if not os.path.exists(checker):
        print("SKIP: no %s: ../shared absent (GST_CTF_CORPUS too)" % checker)
        return 77
    if shutil.which("java") is None:
        print("SKIP: no java (openjdk-17-jre-headless, scripts/"
              "install-deps.sh) to run Trace Compass's reader")
        return 77
    if not os.path.exists(bt21) or bt20 is None:
        print("SKIP: babeltrace2 2.0 (Debian) and 2.1 (../shared/tools) "
              "both needed")
        return 77
    global corpus
    if not corpus or not os.path.isdir(corpus):
        print("SKIP corpus inputs: GST_CTF_CORPUS not set or missing; "
              "bundled traces only")
        corpus = ""
    tmp = tempfile.mkdtemp(prefix="gst-ctf-tracecompass-")
    TMP[0] = tmp
    outs = os.path.join(tmp, "out")
    os.makedirs(outs)
    failures = []
    cases = []
    for wi, (name, inputs, pipeline) in enumerate(WRITERS):
        tool = pipeline.split(" ")[0]
        if tool in TOOLS and not TOOLS[tool]:
            print("SKIP %s: no %s given" % (name, tool))
            continue
        ins = inputs(tmp)
        if asan:
            ins = ins[::6]   # the sanitizers are 10x slower
        for i, inp in enumerate(ins):
            in1, in2 = inp if isinstance(inp, tuple) else (inp, "")
            out = os.path.join(outs, "%02d-%s" % (wi, name), "%03d" % i)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            what = "%s %s" % (name, rel(in1) + (" + " + rel(in2)
                                                 if in2 else ""))
            sub = {"IN": in1, "IN2": in2, "OUT": out}
            if "{START}" in pipeline:
                sub["START"], sub["END"] = window(in1)
            err, warned = write(pipeline.format(**sub), out)
            if err:
                failures.append("FAIL %s: %s" % (what, err))
                print(failures[-1])
                continue
            cases.append((what, out, warned, OPEN.get((name, rel(in1)))))
    tc = tc_check(outs)
    checked, bad, n_open, n_limit = 0, 0, 0, 0
    for what, out, warned, still in cases:
        for trace in trace_dirs(out):
            why, note = compare(tc[trace], trace, warned)
            checked += 1
            if still:
                if why and still in why:
                    n_open += 1
                    print("open %s: %s" % (what, why[:200]))
                    continue
                why = "listed in OPEN (%s) but: %s" % (still, why or note)
            if why:
                bad += 1
                failures.append("FAIL %s: %s" % (what, why))
                print(failures[-1])
            else:
                n_limit += "Trace Compass refuses it" in note
                print("ok   %s: %s" % (what, note))
    print("%d outputs: %d read by Trace Compass as babeltrace2 reads them "
          "(events, first/last times, counts per name), %d refused as "
          "KNOWN_LIMITS say, %d OPEN, %d failed" % (
              checked, checked - bad - n_open - n_limit, n_limit, n_open,
              bad))
    if not failures:
        shutil.rmtree(tmp)
    else:
        print("outputs kept in " + tmp)
    return 1 if failures else 0


sys.exit(main())
