#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""ctftextsink's babeltrace2 switches against babeltrace2 itself, byte for
byte, on the bundled traces: --names / -n (names=), --fields / -f
(fields=), --color (color=; BABELTRACE_TERM_COLOR=always for
babeltrace2, which otherwise colours only a terminal), --clock-offset /
--clock-offset-ns (clock-offset=,
clock-offset-ns=), and `babeltrace2 -o ctf-metadata DIR` (format=metadata)
on the bundled traces' metadata directories.  Each case runs against the
system babeltrace2 (2.0.4 on Debian 12, with babeltrace-version=2.0) and,
when ../shared/tools/babeltrace2-2.1 is there, against 2.1.2 (the default
mode; CTF 2 traces only there).  With the corpus, the clock offsets are
also checked on a trace whose clock is not 1 GHz.  Also: --fields=trace
and -f all where babeltrace2's trace name has a path (traces below the
directory given, several traces merged by ctfsrc or ctfmux, rotation
chunks), and when babeltrace2 colours at all (each --color value with
stdout and stderr on pseudo terminals or pipes, several TERM and
BABELTRACE_TERM_COLOR values, to stdout and with -w FILE).

Usage: test-bt2-switches.py SOURCE_ROOT GST_LAUNCH [ASAN_RUNTIME]
"""
import os
import pty
import shutil
import subprocess
import sys
import tempfile

root, gst_launch = sys.argv[1], sys.argv[2]
# (babeltrace2 colours only a terminal unless told so)
env = dict(os.environ, TZ="UTC", LC_ALL="C", BABELTRACE_TERM_COLOR="always")
genv = dict(env)
if len(sys.argv) > 3 and sys.argv[3]:
    genv["LD_PRELOAD"] = sys.argv[3]
failures = 0
checked = 0


def check(what, ours_props, unit, bt, bt_args, version, mux=None):
    """babeltrace2 BT_ARGS UNIT against ctfsrc location=UNIT ! ctftextsink
    PROPS; with @mux (a list of directories), babeltrace2 BT_ARGS DIR...
    against ctfmux of one ctfsrc per directory."""
    global failures, checked
    b = subprocess.run([bt] + bt_args + (mux or [unit]),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       env=env, timeout=300)
    if b.returncode != 0:
        print("FAIL %s: %s exited %d" % (what, bt, b.returncode))
        failures += 1
        return
    props = ours_props + (["babeltrace-version=2.0"] if version == "2.0"
                          else [])
    if mux:
        src = ["ctfmux", "name=m"]
        for d in mux:
            src += ["ctfsrc", "location=" + d, "!", "m."]
        src += ["m."]
    else:
        src = ["ctfsrc", "location=" + unit]
    o = subprocess.run([gst_launch, "-q"] + src + ["!", "ctftextsink"] +
                       props, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=genv, timeout=300)
    checked += 1
    if o.returncode != 0 or o.stdout != b.stdout:
        failures += 1
        ol, bl = o.stdout.split(b"\n"), b.stdout.split(b"\n")
        n = next((i for i in range(min(len(ol), len(bl))) if ol[i] != bl[i]),
                 min(len(ol), len(bl)))
        print("FAIL %s (%s, babeltrace2 %s), line %d:\n  ours: %.300r\n"
              "  bt2:  %.300r\n  %s" % (what, os.path.relpath(unit, root),
                                        version, n + 1,
                                        ol[n] if n < len(ol) else b"<end>",
                                        bl[n] if n < len(bl) else b"<end>",
                                        o.stderr[-300:]))
    else:
        print("ok   %s (%s, babeltrace2 %s)" % (
            what, os.path.relpath(unit, root), version))


CASES = [
    ("-n none", ["-n", "none"], ["names=none"]),
    ("--names=all", ["--names=all"], ["names=all"]),
    ("--names=payload", ["--names=payload"], ["names=payload"]),
    ("--names=ctx,header", ["--names=ctx,header"], ["names=ctx,header"]),
    ("--names=scope,args", ["--names=scope,args"], ["names=scope,args"]),
    ("--fields=loglevel", ["--fields=loglevel"], ["fields=loglevel"]),
    ("--fields=trace:domain,trace:vpid", ["--fields=trace:domain,trace:vpid"],
     ["fields=trace:domain,trace:vpid"]),
    ("-n none -f trace:procname,emf", ["-n", "none", "-f",
                                       "trace:procname,emf"],
     ["names=none", "fields=trace:procname,emf"]),
    ("--color=always", ["--color=always"], ["color=always"]),
    ("--color=always --names=all -f trace:domain,loglevel",
     ["--color=always", "--names=all", "-f", "trace:domain,loglevel"],
     ["color=always", "names=all", "fields=trace:domain,loglevel"]),
    ("--color=never", ["--color=never"], ["color=never"]),
    ("--clock-offset=3600", ["--clock-offset=3600"], ["clock-offset=3600"]),
    ("--clock-offset-ns=-1500000001", ["--clock-offset-ns=-1500000001"],
     ["clock-offset-ns=-1500000001"]),
    ("--clock-offset=-2 --clock-offset-ns=999999999 --clock-gmt --clock-date",
     ["--clock-offset=-2", "--clock-offset-ns=999999999", "--clock-gmt",
      "--clock-date"],
     ["clock-offset=-2", "clock-offset-ns=999999999", "clock-gmt=true",
      "clock-date=true"]),
]

# The trace's name (babeltrace2 names a trace by its `hostname` env entry
# and its path below the directory it was given) and every optional field.
TRACE_CASES = [
    ("--fields=trace", ["--fields=trace"], ["fields=trace"]),
    ("-f all", ["-f", "all"], ["fields=all"]),
    ("--names=header -f trace,trace:hostname",
     ["--names=header", "-f", "trace,trace:hostname"],
     ["names=header", "fields=trace,trace:hostname"]),
]


def check_trace_names(tools, ex, corpus):
    """fields=trace and fields=all where the trace name differs: a trace
    below the directory given, the trace directory itself, a directory
    of several traces (merged), ctfmux of several ctfsrc; with the
    corpus, traces of several directories (one UUID: rotation chunks) and
    an LTTng kernel + user space session."""
    libc = os.path.join(ex, "ust-libc")
    libc_trace = os.path.join(libc, "ust", "uid", "0", "64-bit")
    sample = os.path.join(ex, "ust-sample")
    units = [libc, libc_trace, libc + "/"]
    # (ust-sample with others: babeltrace2 2.0.4's recycled strings of
    # several traces are not emulated; 2.1 prints the true values)
    units21 = [ex]
    bt = os.path.join(corpus, "ctf", "babeltrace", "succeed")
    if corpus and os.path.isdir(bt):
        units += [os.path.join(bt, "multi-domains"),
                  os.path.join(bt, "session-rotation"),
                  os.path.join(bt, "session-rotation", "a", "1"),
                  os.path.join(bt, "session-rotation", "3", "ust", "pid")]
    else:
        print("SKIP the corpus trace names: GST_CTF_CORPUS absent")
    for what, bargs, props in TRACE_CASES:
        for bt_, v in tools:
            for unit in units + (units21 if v == "2.1" else []):
                check(what, props, unit, bt_, bargs, v)
            # (the bundled traces ctfmux merges without force-correlate
            # are LTTng ones, ust-sample among them: 2.1 only)
            if v == "2.1":
                check(what + " (ctfmux)", props, libc, bt_, bargs, v,
                      mux=[libc, sample])
                check(what + " (ctfmux)", props, libc_trace, bt_, bargs, v,
                      mux=[libc_trace, os.path.join(sample, "ust")])


def run_on(cmd, tty, term, term_color):
    """Runs @cmd with stdout and stderr on pseudo-terminals (@tty) or
    pipes, TERM=@term and BABELTRACE_TERM_COLOR=@term_color (None: unset);
    returns its stdout."""
    e = dict(genv if cmd[0] == gst_launch else env)
    for k, v in (("TERM", term), ("BABELTRACE_TERM_COLOR", term_color)):
        e.pop(k, None)
        if v is not None:
            e[k] = v
    if not tty:
        return subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=e,
                              timeout=300).stdout
    mo, so = pty.openpty()
    me, se = pty.openpty()
    p = subprocess.Popen(cmd, stdout=so, stderr=se, env=e)
    os.close(so)
    os.close(se)
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
    os.close(me)
    return out


# (tty, TERM, BABELTRACE_TERM_COLOR): babeltrace2 colours when stdout and
# stderr are terminals whose TERM it knows, or when told to always
COLOR_ENVS = [
    (True, "xterm-256color", None),
    (True, "screen.xterm-256color", None),
    (True, "dumb", None),
    (True, None, None),
    (True, "xterm", "never"),
    (True, "xterm", "sometimes"),
    (False, "xterm", None),
    (False, "xterm", "ALWAYS"),
    (False, "dumb", "aLwAyS"),
]


def check_colors(tools, unit):
    """--color=auto|always|never under each terminal setting, on stdout
    and with -w FILE (location=FILE; the file only: babeltrace2's
    closing colour reset goes to its terminal)."""
    global failures, checked
    tmp = tempfile.mkdtemp(prefix="bt2-colors-")
    for bt, v in tools:
        props = ["babeltrace-version=2.0"] if v == "2.0" else []
        for tty, term, tc in COLOR_ENVS:
            for color in ("auto", "always", "never"):
                for to_file in (False, True):
                    bf = os.path.join(tmp, "bt2.txt")
                    of = os.path.join(tmp, "ours.txt")
                    b = run_on([bt, "--color=" + color] +
                               (["-w", bf] if to_file else []) + [unit],
                               tty, term, tc)
                    o = run_on([gst_launch, "-q", "ctfsrc",
                                "location=" + unit, "!", "ctftextsink",
                                "color=" + color] + props +
                               (["location=" + of] if to_file else []),
                               tty, term, tc)
                    if to_file:
                        with open(bf, "rb") as f:
                            b = f.read()
                        with open(of, "rb") as f:
                            o = f.read()
                    what = "--color=%s%s (%s, TERM=%s, " \
                        "BABELTRACE_TERM_COLOR=%s, babeltrace2 %s)" % (
                            color, " -w FILE" if to_file else "",
                            "terminal" if tty else "pipes", term, tc, v)
                    checked += 1
                    if o != b or (b"\x1b[" in b) != (b"\x1b[" in o):
                        failures += 1
                        print("FAIL %s: ours %d bytes (%s colour), bt2 %d "
                              "(%s colour)" % (
                                  what, len(o),
                                  "with" if b"\x1b[" in o else "no",
                                  len(b), "with" if b"\x1b[" in b else "no"))
                    else:
                        print("ok   %s: %s colour" % (
                            what, "with" if b"\x1b[" in b else "no"))
    shutil.rmtree(tmp)


def main():
    bt20 = shutil.which("babeltrace2")
    bt21 = os.path.join(root, "..", "shared", "tools", "babeltrace2-2.1")
    if not os.path.exists(bt21):
        bt21 = None
        print("SKIP babeltrace2 2.1 cases: ../shared/tools/babeltrace2-2.1 "
              "absent")
    if bt20 is None and bt21 is None:
        print("SKIP: no babeltrace2")
        return 0
    ex = os.path.join(root, "examples", "traces")
    data = os.path.join(root, "tests", "data")
    ctf18 = [os.path.join(ex, "ust-sample"), os.path.join(ex, "ust-libc"),
             os.path.join(data, "text", "formats"),
             os.path.join(data, "text", "enums")]
    # (babeltrace2 2.1.2 crashes on the bundled tests/data/ctf2/kinds: only
    # its metadata is compared; the text cases use a corpus CTF 2 trace)
    ctf2 = [os.path.join(data, "ctf2", "kinds")]
    corpus = os.environ.get("GST_CTF_CORPUS", "")
    ctf2_text = os.path.join(corpus, "ctf2", "lttng-2.15", "ust-libc")
    tools = [(t, v) for t, v in ((bt20, "2.0"), (bt21, "2.1")) if t]
    for unit in ctf18:
        for what, bargs, props in CASES:
            for bt, v in tools:
                check(what, props, unit, bt, bargs, v)
    if bt21 and corpus and os.path.isdir(ctf2_text):
        ctf2.append(ctf2_text)
        for what, bargs, props in CASES:
            check(what, props, ctf2_text, bt21, bargs, "2.1")
    # the metadata text: the directories that hold a metadata file
    for unit in ctf18 + ctf2:
        for d, _, files in sorted(os.walk(unit)):
            if "metadata" in files:
                for bt, v in tools:
                    if unit in ctf2 and v == "2.0":
                        continue
                    check("-o ctf-metadata", ["format=metadata"], d, bt,
                          ["-o", "ctf-metadata"], v)
    check_trace_names(tools, ex, corpus)
    check_colors(tools, os.path.join(ex, "ust-libc"))
    slow = os.path.join(corpus, "ctf", "other", "tracecompass",
                        "double_counters")
    if corpus and os.path.isdir(slow):
        # a 2.8 GHz clock: the offset in ns goes through the cycles
        for what, bargs, props in CASES[11:]:
            for bt, v in tools:
                check(what, props, slow, bt, bargs, v)
    else:
        print("SKIP the 2.8 GHz corpus trace: GST_CTF_CORPUS absent")
    print("%d/%d outputs equal babeltrace2's" % (checked - failures, checked))
    return 1 if failures else 0


sys.exit(main())
