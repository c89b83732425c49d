#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The gst-ctf command against babeltrace2 and trace-cmd themselves.

- `gst-ctf [convert] OPTIONS UNIT` against `babeltrace2 [convert] OPTIONS
  UNIT`, stdout byte for byte, for a table of option combinations (names,
  fields, clocks, time ranges in each form, colours, several inputs,
  -w FILE, -o dummy, -o ctf-metadata) over the bundled traces and, with
  the corpus, corpus traces; each against babeltrace2 2.1.2
  (../shared/tools/babeltrace2-2.1) and Debian's 2.0.4 (gst-ctf with
  --babeltrace-version=2.0), outputs computed here;
- `-o ctf -w OUT` (whole and cut to a time range) read back by
  babeltrace2 as babeltrace2 reads the input; --events / --cpus as
  babeltrace2's lines of those events; -o json-lines and -o stats count
  babeltrace2's events;
- the options other branches bring (--stream-intersection,
  --clock-force-correlate, source-side --clock-offset with --begin,
  --debug-info, -o perfetto) when this build has their elements and
  properties, else SKIP with the reason;
- `gst-ctf report` against `trace-cmd report` (whole, -F, -v -F, --cpu,
  --stat) on the bundled trace.dat files and the corpus ones;
- `gst-ctf list net://RELAY` and `-i lttng-live net://RELAY` against
  `babeltrace2 -i lttng-live` on the tests' relay, and a live session
  read to its end;
- errors: one line, exit status 1; --help; the progress bar on a
  terminal only.

Usage: test-gst-ctf.py SOURCE_ROOT GST_CTF LIVE_RELAY
"""
import json
import os
import pty
import re
import shutil
import stat
import subprocess
import sys
import tempfile

root, gst_ctf, live_relay = sys.argv[1], sys.argv[2], sys.argv[3]
ENV = dict(os.environ, TZ="UTC", LC_ALL="C")
ENV.pop("BABELTRACE_TERM_COLOR", None)
# meson test sets it; trace-cmd 3.1.6 reads memory it did not initialise and
# then prints raw ns times for some values (tests/test-textsink-tracecmd.c)
ENV.pop("MALLOC_PERTURB_", None)
failures = 0
checked = 0
skips = []
tmp = tempfile.mkdtemp(prefix="test-gst-ctf-")


def run(cmd, env=None, timeout=300):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env or ENV, timeout=timeout)


def ok(cond, what, detail=""):
    global failures, checked
    checked += 1
    if cond:
        print("ok   " + what)
    else:
        failures += 1
        print("FAIL " + what + ("\n  " + detail if detail else ""))
    return cond


def skip(what):
    skips.append(what)
    print("SKIP " + what)


def first_diff(a, b):
    al, bl = a.split(b"\n"), b.split(b"\n")
    n = next((i for i in range(min(len(al), len(bl))) if al[i] != bl[i]),
             min(len(al), len(bl)))
    return "line %d:\n  ours: %.300r\n  bt2:  %.300r" % (
        n + 1, al[n] if n < len(al) else b"<end>",
        bl[n] if n < len(bl) else b"<end>")


def not_in_build(r):
    return r.returncode == 1 and b"not available in this build" in r.stderr


def rel(p):
    return os.path.relpath(p, root)


# ---- time ranges from babeltrace2's own text --------------------------

_windows = {}


def window(bt, unit):
    """Two event times a third and two thirds into UNIT, in each
    --begin form: (HH:MM:SS.NS, 'YYYY-MM-DD HH:MM:SS.NS', SEC.NS)."""
    if (bt, unit) in _windows:
        return _windows[(bt, unit)]
    forms = []
    for args, rx in (([], rb"^\[(\d\d:\d\d:\d\d\.\d{9})\]"),
                     (["--clock-date"],
                      rb"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{9})\]"),
                     (["--clock-seconds"], rb"^\[(\d+\.\d{9})\]")):
        lines = run([bt] + args + [unit]).stdout.split(b"\n")
        lines = [ln for ln in lines if ln]
        a, b = lines[len(lines) // 3], lines[2 * len(lines) // 3]
        forms.append((re.match(rx, a).group(1).decode(),
                      re.match(rx, b).group(1).decode()))
    _windows[(bt, unit)] = forms
    return forms


def fill(args, bt, unit):
    if not any("{" in a for a in args):
        return args
    (b, e), (bd, ed), (bs, es) = window(bt, unit)
    return [a.format(B=b, E=e, BD=bd, ED=ed, BS=bs, ES=es) for a in args]


# ---- the option table --------------------------------------------------

# (what, gst-ctf and babeltrace2 arguments, extra environment)
TABLE = [
    ("(defaults)", [], {}),
    ("convert", ["convert"], {}),
    ("-n none", ["-n", "none"], {}),
    ("--names=all", ["--names=all"], {}),
    ("--names payload,ctx", ["--names", "payload,ctx"], {}),
    ("--names=header,scope", ["--names=header,scope"], {}),
    ("-f all", ["-f", "all"], {}),
    ("--fields=trace:hostname,trace:procname",
     ["--fields=trace:hostname,trace:procname"], {}),
    ("-f loglevel,emf -n none", ["-f", "loglevel,emf", "-n", "none"], {}),
    ("--no-delta", ["--no-delta"], {}),
    ("--clock-cycles", ["--clock-cycles"], {}),
    ("--clock-seconds", ["--clock-seconds"], {}),
    ("--clock-date", ["--clock-date"], {}),
    ("--clock-date (TZ=Asia/Kolkata)", ["--clock-date"],
     {"TZ": "Asia/Kolkata"}),
    ("--clock-gmt --clock-date (TZ=Asia/Kolkata)",
     ["--clock-gmt", "--clock-date"], {"TZ": "Asia/Kolkata"}),
    ("--clock-offset=3600", ["--clock-offset=3600"], {}),
    ("--clock-offset-ns=-1500000001", ["--clock-offset-ns=-1500000001"], {}),
    ("--clock-offset -2 --clock-offset-ns 999999999 --clock-seconds",
     ["--clock-offset", "-2", "--clock-offset-ns", "999999999",
      "--clock-seconds"], {}),
    ("--begin", ["--begin", "{B}"], {}),
    ("--end", ["--end={E}"], {}),
    ("-b -e", ["-b", "{B}", "-e", "{E}"], {}),
    ("--timerange=[B,E]", ["--timerange=[{B},{E}]"], {}),
    ("--timerange B,E --no-delta", ["--timerange", "{B},{E}", "--no-delta"],
     {}),
    ("--begin/--end as dates", ["--begin", "{BD}", "--end", "{ED}"], {}),
    ("--begin/--end in seconds", ["--begin={BS}", "--end={ES}"], {}),
    ("--clock-gmt --begin/--end (TZ=Asia/Kolkata)",
     ["--clock-gmt", "--begin", "{B}", "--end", "{E}"],
     {"TZ": "Asia/Kolkata"}),
    ("--begin --names=all -f all --clock-date",
     ["--begin", "{B}", "--names=all", "-f", "all", "--clock-date"], {}),
    ("--color=always", ["--color=always"], {"BABELTRACE_TERM_COLOR": "always"}),
    ("--color=never", ["--color=never"], {"BABELTRACE_TERM_COLOR": "always"}),
    ("-o dummy", ["-o", "dummy"], {}),
    ("-o text", ["-o", "text"], {}),
]
# the rows run on every trace; the others on the bundled LTTng traces
SHORT = ["(defaults)", "--names=all", "-f all", "--clock-seconds",
         "--clock-offset-ns=-1500000001", "-b -e", "--begin/--end as dates"]


def compare(what, args, env, units, bt, version, bt_units=None,
            both_may_fail=False):
    """gst-ctf ARGS UNITS... against babeltrace2 ARGS UNITS...
    (@both_may_fail: where babeltrace2 refuses, gst-ctf must refuse too,
    with a one-line error and exit status 1)"""
    e = dict(ENV, **env)
    ours_args = list(args)
    if version == "2.0":
        ours_args.append("--babeltrace-version=2.0")
    if args and args[0] == "convert":
        ours_args = ["convert"] + ours_args[1:]
    o = run([gst_ctf] + ours_args + units, env=e)
    b = run([bt] + args + (bt_units or units), env=e)
    label = "%s (%s, babeltrace2 %s)" % (what, " ".join(rel(u) for u in units),
                                         version)
    if b.returncode != 0 and both_may_fail:
        lines = o.stderr.decode(errors="replace").strip().splitlines()
        return ok(o.returncode == 1 and len(lines) == 1 and not o.stdout,
                  label + ": refused as babeltrace2 refuses it",
                  "gst-ctf exited %d: %s" % (o.returncode, lines))
    if b.returncode != 0:
        return ok(False, label, "babeltrace2 exited %d: %s" %
                  (b.returncode, b.stderr[-300:]))
    return ok(o.returncode == 0 and o.stdout == b.stdout, label,
              first_diff(o.stdout, b.stdout) + "\n  " +
              o.stderr[-300:].decode(errors="replace"))


_recycles = {}


def recycles(tools, unit):
    """babeltrace2 2.0 prints an empty string as what its recycled event
    object last held (REFERENCE.md): where 2.0's text of UNIT differs from
    2.1's, a time range's first events depend on the events before it,
    which ctftextsink's emulation does not see after timefilter"""
    bts = dict((v, bt) for bt, v in tools)
    if "2.0" not in bts:
        return False
    if unit not in _recycles:
        # 2.1's text: babeltrace2 2.1's, else ours in 2.1's form (equal to
        # it: the oracle tests), where ../shared/tools is absent
        text21 = run([bts["2.1"], unit] if "2.1" in bts else
                     [gst_ctf, unit]).stdout
        _recycles[unit] = run([bts["2.0"], unit]).stdout != text21
    return _recycles[unit]


def table(tools, units, rows):
    for unit in units:
        for what, args, env in TABLE:
            if what not in rows:
                continue
            for bt, v in tools:
                if (v == "2.0" and any("{" in a for a in args) and
                        recycles(tools, unit)):
                    skip("%s (%s, babeltrace2 2.0): 2.0's recycled strings "
                         "before the range" % (what, rel(unit)))
                    continue
                compare(what, fill(args, bt, unit), env, [unit], bt, v)


def check_write_file(tools, unit):
    for bt, v in tools:
        out = os.path.join(tmp, "w-%s.txt" % v)
        args = ["--names=all"] + (["--babeltrace-version=2.0"]
                                  if v == "2.0" else [])
        o = run([gst_ctf, "-w", out] + args + [unit])
        b = run([bt, "--names=all", unit])
        data = open(out, "rb").read() if os.path.exists(out) else b""
        ok(o.returncode == 0 and o.stdout == b"" and data == b.stdout,
           "-w FILE --names=all (%s, babeltrace2 %s)" % (rel(unit), v),
           first_diff(data, b.stdout))


def check_metadata(tools, unit):
    for d, _, files in sorted(os.walk(unit)):
        if "metadata" in files:
            for bt, v in tools:
                compare("-o ctf-metadata", ["-o", "ctf-metadata"], {}, [d],
                        bt, v)


_outs = [0]


def check_ctf_output(tools, bt, unit, v):
    """-o ctf -w OUT reads back as the input (and cut to a range)"""
    for cut in (False, True):
        if cut and v == "2.0" and recycles(tools, unit):
            skip("-o ctf --begin --end (%s) read by babeltrace2 2.0: 2.0's "
                 "recycled strings before the range" % rel(unit))
            continue
        _outs[0] += 1
        out = os.path.join(tmp, "ctf-%d" % _outs[0])
        rng = ["--begin", window(bt, unit)[0][0],
               "--end", window(bt, unit)[0][1]] if cut else []
        o = run([gst_ctf, "-o", "ctf", "-w", out] + rng + [unit])
        if not ok(o.returncode == 0, "-o ctf -w OUT%s (%s): exit 0" %
                  (" --begin --end" if cut else "", rel(unit)),
                  o.stderr[-300:].decode(errors="replace")):
            continue
        got = run([bt, out]).stdout
        want = run([bt] + rng + [unit]).stdout
        ok(got == want and len(want) > 0,
           "babeltrace2 %s reads -o ctf%s output as the input (%s)" %
           (v, " --begin --end" if cut else "", rel(unit)),
           first_diff(got, want))


def check_event_selection(bt, unit, v):
    base = run([bt, "--no-delta", unit]).stdout.split(b"\n")
    names = sorted({re.search(rb"\] \S+ (\S+): ", ln).group(1)
                    for ln in base if ln})
    name = names[0]
    want = b"".join(ln + b"\n" for ln in base if b" " + name + b": " in ln)
    ver = ["--babeltrace-version=2.0"] if v == "2.0" else []
    o = run([gst_ctf, "--no-delta", "--events", name.decode()] + ver + [unit])
    ok(o.returncode == 0 and o.stdout == want and want,
       "--events %s = babeltrace2 %s's lines of it (%s)" %
       (name.decode(), v, rel(unit)), first_diff(o.stdout, want))
    want = b"".join(ln + b"\n" for ln in base if b"cpu_id = 0 }" in ln)
    o = run([gst_ctf, "--no-delta", "--cpus", "0"] + ver + [unit])
    ok(o.returncode == 0 and o.stdout == want and want,
       "--cpus 0 = babeltrace2 %s's lines of cpu_id 0 (%s)" % (v, rel(unit)),
       first_diff(o.stdout, want))
    # trace-cmd's grammar: LTTng's provider:event is system provider
    name = b"lttng_ust_libc:malloc"
    want = b"".join(ln + b"\n" for ln in base if b" " + name + b": " in ln
                    and int(re.search(rb"[{ ]size = (\d+)", ln).group(1)) >
                    100)
    o = run([gst_ctf, "--no-delta", "--filter",
             "lttng_ust_libc/malloc: size > 100"] + ver + [unit])
    ok(o.returncode == 0 and o.stdout == want and want,
       "--filter 'lttng_ust_libc/malloc: size > 100' = babeltrace2 %s's "
       "lines of it (%s, %d events)" % (v, rel(unit), len(want.splitlines())),
       first_diff(o.stdout, want))


def check_other_outputs(bt, unit):
    n = len(run([bt, unit]).stdout.splitlines())
    o = run([gst_ctf, "-o", "json-lines", unit])
    lines = o.stdout.splitlines()
    try:
        names = [json.loads(ln)["name"] for ln in lines]
    except (ValueError, KeyError):
        names = []
    ok(o.returncode == 0 and len(names) == n and n > 0,
       "-o json-lines: %d JSON events = babeltrace2's %d (%s)" %
       (len(names), n, rel(unit)))
    o = run([gst_ctf, "-o", "stats", unit])
    m = re.match(rb"(\d+) events,", o.stdout)
    ok(o.returncode == 0 and m and int(m.group(1)) == n,
       "-o stats counts babeltrace2's %d events (%s)" % (n, rel(unit)),
       o.stdout[:100].decode(errors="replace"))


# ---- options whose elements other branches add --------------------------

def check_optional(tools, ex, corpus):
    libc = os.path.join(ex, "ust-libc")
    sample = os.path.join(ex, "ust-sample")
    # the sources shift the clocks: --begin is in shifted time
    probe = run([gst_ctf, "-o", "ctf", "-w", os.path.join(tmp, "probe"),
                 "--clock-offset=1", libc])
    if not_in_build(probe):
        skip("--clock-offset with --begin/-o ctf: " +
             probe.stderr.decode().strip())
    else:
        for bt, v in tools:
            b, e = window(bt, libc)[0]
            compare("--clock-offset=3600 --begin (shifted) --end",
                    ["--clock-offset=3600", "--begin", b.replace(
                        b[:2], "%02d" % ((int(b[:2]) + 1) % 24), 1),
                     "--end", e.replace(e[:2], "%02d" % (
                         (int(e[:2]) + 1) % 24), 1)], {}, [libc], bt, v)
    probe = run([gst_ctf, "--clock-force-correlate", "-o", "dummy", libc])
    if not_in_build(probe):
        skip("--clock-force-correlate: " + probe.stderr.decode().strip())
    else:
        for bt, v in tools:
            compare("--clock-force-correlate", ["--clock-force-correlate"],
                    {}, [libc], bt, v)
    probe = run([gst_ctf, "--stream-intersection", "-o", "dummy", libc])
    inter = os.path.join(corpus, "ctf", "babeltrace", "intersection")
    if not_in_build(probe):
        skip("--stream-intersection: " + probe.stderr.decode().strip())
    else:
        units = [libc, sample]
        if corpus and os.path.isdir(inter):
            units += [os.path.join(inter, d) for d in sorted(os.listdir(
                inter))]
        for unit in units:
            for bt, v in tools:
                compare("--stream-intersection", ["--stream-intersection"],
                        {}, [unit], bt, v, both_may_fail=True)
    probe = run([gst_ctf, "--debug-info", "-o", "dummy", libc])
    if not_in_build(probe):
        skip("--debug-info: " + probe.stderr.decode().strip())
    else:
        for bt, v in tools:
            # the babeltrace2 2.1.2 of ../shared/tools is built without
            # the lttng-utils plugin (filter.lttng-utils.debug-info)
            if run([bt, "--debug-info", "-c", "sink.utils.dummy",
                    libc]).returncode != 0:
                skip("--debug-info (babeltrace2 %s): it has no "
                     "filter.lttng-utils.debug-info" % v)
                continue
            compare("--debug-info", ["--debug-info"], {}, [libc], bt, v)
            compare("--debug-info-full-path", ["--debug-info-full-path"], {},
                    [libc], bt, v)
    out = os.path.join(tmp, "out.perfetto")
    probe = run([gst_ctf, "-o", "perfetto", "-w", out, libc])
    if not_in_build(probe):
        skip("-o perfetto: " + probe.stderr.decode().strip())
    else:
        ok(probe.returncode == 0 and os.path.getsize(out) > 0,
           "-o perfetto -w FILE writes a file (%s)" % rel(libc))


# ---- gst-ctf report against trace-cmd report ---------------------------

def trace_cmd_report(args, ours):
    """trace-cmd report ARGS; asked twice more when its text differs from
    OURS: trace-cmd 3.1.6 once printed i686-v7-zstd.dat's times as raw ns
    ("[000]585229563745:") in one of some hundred runs, and armv7-v6.dat's
    text differed once in CI, never here in thousands of runs"""
    for _ in range(3):
        b = run(["trace-cmd", "report"] + args)
        if b.stdout == ours:
            break
    return b


def check_report(files):
    tc = shutil.which("trace-cmd")
    if tc is None:
        skip("gst-ctf report: trace-cmd not installed")
        return
    for f in files:
        first = run([tc, "report", "-i", f]).stdout
        m = re.search(rb"\]\s+[\d.]+: (\w+):", first)
        if m is None:
            skip("report %s: trace-cmd cannot read it" % rel(f))
            continue
        ev = m.group(1).decode()
        cases = [[], ["--stat"], ["-F", ev], ["-v", "-F", ev],
                 ["--cpu", "0"], ["-F", ev + ": common_pid != 0"]]
        for args in cases:
            o = run([gst_ctf, "report"] + args + [f])
            b = trace_cmd_report(args + ["-i", f], o.stdout)
            if "-F" in args:
                # trace-cmd prints a loss only when the page's first record
                # passes the filter; ctffilter keeps every loss
                o.stdout, b.stdout = (re.sub(rb"(?m)^CPU:\d+ \[(\d+ )?EVENTS "
                                             rb"DROPPED\]\n", b"", x)
                                      for x in (o.stdout, b.stdout))
            ok(o.returncode == 0 and o.stdout == b.stdout and b.stdout,
               "report %s = trace-cmd report %s (%s)" % (
                   " ".join(args), " ".join(args), rel(f)),
               first_diff(o.stdout, b.stdout) + "\n  " +
               o.stderr[-300:].decode(errors="replace"))
    # -i FILE and -w FILE
    f = files[0]
    out = os.path.join(tmp, "report.txt")
    o = run([gst_ctf, "report", "-i", f, "-w", out])
    mine = open(out, "rb").read()
    ok(o.returncode == 0 and mine == trace_cmd_report(["-i", f], mine).stdout,
       "report -i FILE -w OUT (%s)" % rel(f))
    o = run([gst_ctf, "report", os.path.join(root, "README.md")])
    ok(o.returncode == 1 and len(o.stderr.splitlines()) == 1 and
       b"README.md" in o.stderr and b"offset=0" in o.stderr,
       "report on a file that is not a trace.dat: one line, exit 1 (%s)" %
       o.stderr.decode().strip())


# ---- live: the tests' relay --------------------------------------------

def check_live(bt, ex):
    relay = subprocess.Popen([live_relay, os.path.join(ex, "ust-libc"),
                              "testhost", "testsession"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             env=ENV)
    try:
        port = int(relay.stdout.readline())
        url = "net://127.0.0.1:%d" % port
        o = run([gst_ctf, "list", url], timeout=60)
        want = b"%s/host/testhost/testsession" % url.encode()
        ok(o.returncode == 0 and want in o.stdout,
           "list %s names the session" % url,
           (o.stdout + o.stderr).decode(errors="replace"))
        if bt:
            b = run([bt, "-i", "lttng-live", url], timeout=60)
            ok(o.stdout == b.stdout, "list = babeltrace2 -i lttng-live",
               first_diff(o.stdout, b.stdout))
            o2 = run([gst_ctf, "-i", "lttng-live", url], timeout=60)
            ok(o2.returncode == 0 and o2.stdout == b.stdout,
               "-i lttng-live net://RELAY = babeltrace2's listing",
               first_diff(o2.stdout, b.stdout))
        o = run([gst_ctf, url + "/host/testhost/testsession"], timeout=120)
        want = open(os.path.join(ex, "ust-libc.babeltrace2.txt"), "rb").read()
        ok(o.returncode == 0 and o.stdout == want,
           "net://.../host/testhost/testsession: the session's text to its "
           "end", first_diff(o.stdout, want) + "\n  " +
           o.stderr[-300:].decode(errors="replace"))
    finally:
        relay.stdin.close()
        relay.wait(timeout=30)
    o = run([gst_ctf, "list", "net://127.0.0.1:1"], timeout=60)
    ok(o.returncode == 1 and len(o.stderr.splitlines()) == 1,
       "list on a closed port: one line, exit 1 (%s)" %
       o.stderr.decode().strip())


# ---- errors, help, progress --------------------------------------------

def check_errors(ex):
    missing = os.path.join(tmp, "no-such-trace")
    o = run([gst_ctf, missing])
    ok(o.returncode == 1 and o.stderr.count(b"\n") == 1 and
       missing.encode() in o.stderr and o.stdout == b"",
       "missing input: one line naming it, exit 1 (%s)" %
       o.stderr.decode().strip())
    bad = os.path.join(tmp, "bad")
    shutil.copytree(os.path.join(ex, "ust-libc"), bad)
    stream = os.path.join(bad, "ust", "uid", "0", "64-bit", "channel0_0")
    with open(stream, "r+b") as f:
        f.truncate(5000)
    o = run([gst_ctf, bad])
    ok(o.returncode == 1 and o.stderr.count(b"\n") == 1 and
       b'file="%s"' % stream.encode() in o.stderr and b"offset=" in o.stderr,
       "truncated stream file: one line with file and offset, exit 1 (%s)"
       % o.stderr.decode().strip())
    o = run([gst_ctf, os.path.join(root, "README.md")])
    ok(o.returncode == 1 and o.stderr.count(b"\n") == 1 and
       b"offset=0" in o.stderr, "not a trace: one line, exit 1 (%s)" %
       o.stderr.decode().strip())
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    o = run([gst_ctf, empty])
    ok(o.returncode == 1 and o.stderr.count(b"\n") == 1,
       "directory without a trace: one line, exit 1 (%s)" %
       o.stderr.decode().strip())
    for args, what in ((["--bogus"], "unknown option"),
                       (["-o", "ctf"], "-o ctf without -w"),
                       (["-o", "nonsense"], "unknown output format"),
                       (["--color=maybe"], "bad --color"),
                       (["--clock-offset=x"], "bad --clock-offset"),
                       (["--timerange=1"], "bad --timerange"),
                       (["-o", "ctf", "-w", tmp, "--names=all"],
                        "--names with -o ctf")):
        o = run([gst_ctf] + args + [os.path.join(ex, "ust-libc")])
        ok(o.returncode == 1 and o.stderr.count(b"\n") == 1 and
           o.stdout == b"", "%s: one line, exit 1 (%s)" %
           (what, o.stderr.decode().strip()))
    o = run([gst_ctf, "-o", "ctf", "-w", os.path.join(ex, "ust-sample"),
             os.path.join(ex, "ust-libc")])
    ok(o.returncode == 1 and o.stderr.count(b"\n") == 1,
       "-o ctf into a non-empty directory refused: one line, exit 1 (%s)" %
       o.stderr.decode().strip())
    o = run([gst_ctf, "-o", "dummy", os.path.join(ex, "ust-libc")])
    ok(o.returncode == 0 and o.stdout == b"" and
       stat.S_ISCHR(os.stat("/dev/null").st_mode),
       "-o dummy prints nothing and leaves /dev/null a device")
    o = run([gst_ctf, "-o", "stats", "-w", "/dev/null",
             os.path.join(ex, "ust-libc")])
    ok(o.returncode == 1 and stat.S_ISCHR(os.stat("/dev/null").st_mode),
       "-o stats -w /dev/null refused (ctfstatssink renames a new file over "
       "its location): %s" % o.stderr.decode().strip())
    o = run([gst_ctf, "--help"])
    ok(o.returncode == 0 and b"--begin" in o.stdout and
       b"report" in o.stdout, "--help")
    o = run([gst_ctf, "report", "--help"])
    ok(o.returncode == 0 and b"--stat" in o.stdout, "report --help")


def on_pty(cmd, env):
    """stderr of @cmd on a pseudo terminal"""
    mo, so = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=so, env=env)
    os.close(so)
    out = b""
    while True:
        try:
            d = os.read(mo, 65536)
        except OSError:
            break
        if not d:
            break
        out += d
    p.wait(timeout=300)
    os.close(mo)
    return p.returncode, out


def check_progress(ex):
    libc = os.path.join(ex, "ust-libc")
    env = dict(ENV, GST_CTF_PROGRESS_DELAY_MS="0")
    rc, err = on_pty([gst_ctf, "-o", "ctf", "-w", os.path.join(tmp, "p1"),
                      libc], env)
    ok(rc == 0 and b"[" + b"#" * 30 + b"] 100.0 %" in err,
       "progress bar on a terminal, full at the end: %r" % err[-120:])
    rc, err = on_pty([gst_ctf, "-o", "ctf", "-w", os.path.join(tmp, "p2"),
                      libc], ENV)
    ok(rc == 0 and b"#" not in err,
       "no progress bar for a job shorter than a second")
    rc, err = on_pty([gst_ctf, "--no-progress", "-o", "ctf", "-w",
                      os.path.join(tmp, "p3"), libc], env)
    ok(rc == 0 and b"#" not in err, "--no-progress")
    o = run([gst_ctf, "-o", "ctf", "-w", os.path.join(tmp, "p4"), libc],
            env=env)
    ok(o.returncode == 0 and o.stderr == b"",
       "no progress bar when stderr is not a terminal")


SIDE_EVENT = re.compile(rb"^\[[^]]*\] \([^)]*\) (?:\S+ )?tracecmd_[a-z_]+: ")


def check_other_inputs(bt, v, dat, corpus):
    """A trace.dat and an LTTng 0.x directory as inputs: their text is
    what babeltrace2 prints of their -o ctf conversion"""
    units = [dat]
    ltt = os.path.join(corpus, "ltt0", "trace-1021events-nolost-1cpu.tar.gz")
    if corpus and os.path.exists(ltt):
        d = os.path.join(tmp, "ltt0")
        os.mkdir(d)
        subprocess.run(["tar", "xzf", ltt, "-C", d], check=True)
        sub = [os.path.join(d, x) for x in os.listdir(d)]
        units.append(sub[0] if len(sub) == 1 and os.path.isdir(sub[0])
                     else d)
    else:
        skip("LTTng 0.x input: GST_CTF_CORPUS absent")
    ver = ["--babeltrace-version=2.0"] if v == "2.0" else []
    for unit in units:
        _outs[0] += 1
        out = os.path.join(tmp, "ctf-%d" % _outs[0])
        c = run([gst_ctf, "-o", "ctf", "-w", out, unit])
        t = run([gst_ctf] + ver + [unit])
        b = run([bt, out])
        # a trace.dat's side stream (tracecmd_* events, at the trace's first
        # time) is not printed by default; babeltrace2 prints it
        want = b"".join(ln for ln in b.stdout.splitlines(True)
                        if not SIDE_EVENT.search(ln))
        ok(c.returncode == 0 and t.returncode == 0 and t.stdout == want
           and len(want) > 0, "gst-ctf %s = babeltrace2 %s of its -o ctf "
           "output (side stream left out)" % (rel(unit), v),
           first_diff(t.stdout, want) +
           "\n  " + (c.stderr + t.stderr)[-300:].decode(errors="replace"))


def check_completion():
    bc = "/usr/share/bash-completion/bash_completion"
    if not os.path.exists(bc):
        skip("bash completion: bash-completion not installed")
        return
    mine = os.path.join(root, "tools", "gst-ctf", "gst-ctf.bash-completion")
    for line, want in (("gst-ctf -o ", "json-lines"),
                       ("gst-ctf --clock-o", "--clock-offset-ns"),
                       ("gst-ctf --names=a", "args all"),
                       ("gst-ctf report --s", "--stat"),
                       ("gst-ctf --color ", "never auto always")):
        script = ('source %s; source %s; COMP_LINE="%s"; '
                  'COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< '
                  '"$COMP_LINE"; [[ $COMP_LINE == *" " ]] && '
                  'COMP_WORDS+=(""); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); '
                  '_gst_ctf; echo "${COMPREPLY[*]}"' % (bc, mine, line))
        o = run(["bash", "-c", script])
        ok(want in o.stdout.decode(), "completion of %r: %s" % (
            line, o.stdout.decode().strip()))


def main():
    ex = os.path.join(root, "examples", "traces")
    data = os.path.join(root, "tests", "data")
    corpus = os.environ.get("GST_CTF_CORPUS", "")
    if not (corpus and os.path.isdir(corpus)):
        corpus = ""
    bt20 = shutil.which("babeltrace2")
    bt21 = os.path.join(root, "..", "shared", "tools", "babeltrace2-2.1")
    if not os.path.exists(bt21):
        bt21 = None
        skip("babeltrace2 2.1 rows: ../shared/tools/babeltrace2-2.1 absent")
    tools = [(t, v) for t, v in ((bt20, "2.0"), (bt21, "2.1")) if t]
    libc, sample = os.path.join(ex, "ust-libc"), os.path.join(ex, "ust-sample")

    check_errors(ex)
    check_progress(ex)
    check_completion()
    if not tools:
        skip("babeltrace2 comparisons: no babeltrace2 installed")
    else:
        every = [what for what, _, _ in TABLE]
        table(tools, [libc, sample], every)
        table(tools, [os.path.join(data, "text", "formats"),
                      os.path.join(data, "text", "enums")], SHORT)
        check_write_file(tools, libc)
        check_metadata(tools, libc)
        check_metadata(tools, sample)
        for bt, v in tools:
            check_ctf_output(tools, bt, libc, v)
            check_event_selection(bt, libc, v)
        check_other_outputs(tools[0][0], sample)
        if bt21:
            # several inputs merged by time (2.0.4's recycled strings of
            # several traces are not emulated: 2.1 only)
            compare("two inputs", [], {}, [libc, sample], bt21, "2.1")
            compare("two inputs --names=all -f trace", ["--names=all", "-f",
                                                       "trace"], {},
                    [libc, sample], bt21, "2.1")
            compare("two inputs -b -e", fill(["-b", "{B}", "-e", "{E}"],
                                             bt21, libc), {},
                    [libc, sample], bt21, "2.1")
        check_optional(tools, ex, corpus)
        if corpus:
            units = [os.path.join(corpus, "ctf", "lttng-ust", u)
                     for u in ("libc-ls", "pthread-multichan",
                               "custom-2cpu")]
            units.append(os.path.join(corpus, "ctf", "babeltrace",
                                      "succeed", "multi-domains"))
            table(tools, units, SHORT)
            check_other_outputs(tools[0][0], units[0])
            for bt, v in tools:
                check_ctf_output(tools, bt, units[1], v)
            c2 = os.path.join(corpus, "ctf2", "lttng-2.15", "ust-libc")
            if bt21:
                table([(bt21, "2.1")], [c2], SHORT)
                check_ctf_output(tools, bt21, c2, "2.1")
                compare("two inputs (corpus)", [], {}, [units[0], libc],
                        bt21, "2.1")
        else:
            skip("corpus rows: GST_CTF_CORPUS absent")
    dats = sorted(os.path.join(data, "tracecmd", f) for f in os.listdir(
        os.path.join(data, "tracecmd")) if f.endswith(".dat"))
    if corpus:
        td = os.path.join(corpus, "tracedat")
        dats += sorted(os.path.join(td, f) for f in os.listdir(td)
                       if f.endswith(".dat"))
        dats += sorted(os.path.join(td, "public", f) for f in os.listdir(
            os.path.join(td, "public")) if f.endswith(".dat"))
    check_report(dats)
    if dats and shutil.which("trace-cmd"):
        for bt, v in tools[:1]:
            o = run([gst_ctf, "-o", "trace-cmd", dats[0]])
            b = trace_cmd_report(["-i", dats[0]], o.stdout)
            ok(o.returncode == 0 and o.stdout == b.stdout and b.stdout,
               "-o trace-cmd = trace-cmd report (%s)" % rel(dats[0]),
               first_diff(o.stdout, b.stdout) + "\n  " +
               o.stderr[-300:].decode(errors="replace"))
    if tools:
        check_other_inputs(tools[-1][0], tools[-1][1], dats[0], corpus)
    check_live(bt20 or bt21, ex)
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d/%d checks passed; %d skipped%s" % (
        checked - failures, checked, len(skips),
        "".join("\n  SKIP " + s for s in skips)))
    return 1 if failures else 0


sys.exit(main())
