#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Side-by-side benchmark of gst-ctf pipelines and their peers (issue 7).

Runs our pipelines and the peer tools (babeltrace2, trace-cmd, cp) on the
same inputs, alternately (one round = every tool of a job once), several
rounds, and prints medians of wall time and of CPU time (user + sys of the
process and its children, from wait4), ns/event, MB/s, peak RSS (/usr/bin/time
%M, largest over the rounds), ratios to each peer, plus the machine
and its load.

Inputs are recorded once with ../shared/corpus/record-lttng-ust.sh and
record-tracedat.sh under bench/out/inputs (git-ignored) and reused:

    ust-N/custom-2cpu     LTTng-UST, N ustwork iterations (-s 1M -c 16)
    kernel-Ds.dat         kernel trace.dat v7 zstd, D seconds of workload
    ltt0-8cpu/            the corpus' 8-CPU LTTng 0.x trace (698 650 events),
                          unpacked, and ltt0-8cpu.ctf its lttng0src ! ctfsink

    python3 bench/bench.py                         # all jobs, 5 rounds
    python3 bench/bench.py -r 3 --jobs ctf2ctf,decode
    python3 bench/bench.py --ctf /path/to/trace --jobs text
    python3 bench/bench.py --jobs rss --rss-sizes 100M,2G

Jobs: ctf2ctf, decode, text, window, merge, tracedat, lttng0, rss (the
default set); issue 19's, run only when named: jsonl (ctftextsink
format=json-lines beside its babeltrace2 text and babeltrace2), filter
(ctffilter by event name and by CPU beside `babeltrace2 | grep`, and on
the trace.dat by name, field and CPU beside `trace-cmd report -F` /
`--cpu`); issue 16's `ctf2`, run only when named: decoding CTF 2 vs
CTF 1.8, the same events: the main input converted by babeltrace2 2.1
(../shared/tools/babeltrace2-2.1 -c sink.ctf.fs -p 'ctf-version="2"',
kept in bench/out/inputs) and the corpus's ctf2/converted traces beside
their CTF 1.8 originals; ctf-decode -a, ctfsrc ! fakesink and ctfsrc !
ctftextsink on each, beside babeltrace2 2.1 (sink.utils.dummy and text);
'vs ours' is the CTF 2 row over its CTF 1.8 row: for the main input,
babeltrace2 2.1's CTF 1.8 output of it, the same layout as its CTF 2;
issue 17's `live`, run only when named: bench/live-latency.py (real
lttng-relayd/lttng-sessiond in a private mount namespace, root): delay from
an event's timestamp to its text line from `lttnglivesrc ! ctftextsink`
beside `babeltrace2 net://...`, and the viewers' CPU time, in the notes;
issue 29's `debuginfo`, run only when named: ctfdebuginfo beside
babeltrace2 --debug-info on tests/data/debuginfo/record.sh's workload
recorded with --debuginfo-iters loops (1 M events with an ip context),
its binaries kept in bench/out/inputs/debuginfo-N/target;
issue 27's `perfetto`, run only when named: ctfsrc ! perfettosink beside
ctftextsink and babeltrace2's text on the main input, tracecmdsrc !
perfettosink beside ctftextsink format=trace-cmd and trace-cmd report on
the trace.dat, and the .pftrace bytes per event in the notes;
and issue 21's scale
jobs, run only when named:

    perpid      per-PID LTTng-UST sessions of --perpid-sizes traces
                (bench/record-perpid.sh: /bin/true runs with the libc
                wrapper, 2 streams each), in bench/out/inputs/perpid-N
    streams256  a trace with 16 KiB packets (--scale-iters) and the same
                packets dealt over 256 streams of one trace
                (bench/redistribute.py --streams 256)
    muxpads     ctfmux (both modes) with --mux-pads inputs: the same
                packets dealt over that many traces (redistribute.py
                --traces K), beside babeltrace2 merging them

perpid and streams256 run ctfsrc ! ctftextsink, ctfsrc ! ctfsink and
ctfsrc ! timefilter ! ctfsink (middle half of the span) beside babeltrace2
doing the same, and note each command's growth from size to size and its
peak RSS per stream; muxpads notes the wall time per packet by number of
inputs.  As root, inputs are recorded with a session daemon of their own
(bench/with-sessiond.sh, run as nobody and stopped after).

    python3 bench/bench.py -r 3 --jobs perpid,streams256,muxpads

A job whose element is not built is reported as skipped.  `decode` uses
build/bench/ctf-decode (walk = decode what is needed to step through the
events; all = every field value recorded, as babeltrace2 does; -j2 = the
streams decoded on 2 threads).

Floors, next to the two targets that are out of reach: `window` also runs
`gst-launch-1.0 fakesrc num-buffers=1 ! fakesink` (what any gst-launch
process costs), `merge` runs build/bench/packet-floor with as many packets
as mode=events wrote (the GstBuffers alone, made, listed, mapped and freed
as ctfmux and ctfsink do).

Before each job the page cache is synced, dropped when running as root
(--no-drop-caches: not), and the job's inputs are read once.
"""
import argparse
import os
import platform
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(TOP), "shared", "corpus")
INPUTS = os.path.join(HERE, "out", "inputs")
# bytes of trace per ustwork iteration of the custom-2cpu kind (measured:
# 250000 iterations -> 173 MB, 2.96 M events)
UST_BYTES_PER_ITER = 692


# ---------------------------------------------------------------- running

class Result:
    def __init__(self, wall, cpu, rss_kib, rc):
        self.wall, self.cpu, self.rss_kib, self.rc = wall, cpu, rss_kib, rc


TIME = "/usr/bin/time"


def run_measured(cmd, stdout_path=os.devnull):
    """Run cmd (an argv list); return a Result.  Wall time and CPU time
    (user + sys, from wait4: that child and its waited-for children).
    Peak RSS comes from /usr/bin/time -f %M: a child forked from this
    Python process would report Python's own resident set (the fork's
    high-water mark before exec) as a floor of some 16 MiB."""
    rss_file = os.path.join(tempfile.gettempdir(),
                            f"gst-ctf-bench-rss-{os.getpid()}")
    argv = ([TIME, "-f", "%M", "-o", rss_file] + cmd
            if os.path.exists(TIME) else cmd)
    with open(stdout_path, "wb") as out:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        # drain stderr in case it is large; keep the tail for errors
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
        dt = time.monotonic() - t0
    rc = os.waitstatus_to_exitcode(status)
    p.returncode = rc
    rss = ru.ru_maxrss
    if argv is not cmd:
        try:
            with open(rss_file) as f:
                # the last word (time prints "Command exited with
                # non-zero status" before it on failure)
                rss = int(f.read().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
    if rc != 0:
        sys.stderr.write(f"!! {' '.join(cmd)}: exit {rc}\n"
                         f"{err.decode(errors='replace')[-600:]}\n")
    return Result(dt, ru.ru_utime + ru.ru_stime, rss, rc)


def settle(paths, drop):
    """Before a job: written-back and (as root, with @drop) dropped page
    cache, then @paths read once so that the job starts hot.  Output left
    in the page cache by earlier jobs (hundreds of MB per merge round)
    otherwise slows later writes: `ctfmux mode=packets ! ctfsink` took
    0.47 s of kernel time instead of 0.07 s after a few merge rounds."""
    os.sync()
    if drop and os.geteuid() == 0:
        try:
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3\n")
        except OSError:
            pass
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.join(r, f) for r, _, fs in os.walk(p)
                      for f in fs]
        elif os.path.exists(p):
            files.append(p)
    if files:
        subprocess.run(["cat"] + files, stdout=subprocess.DEVNULL)


def have_element(name):
    # (not --exists: it also compares the plugin's version with the core's)
    return subprocess.run(["gst-inspect-1.0", name],
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def du_bytes(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total


def stream_bytes(path):
    """Bytes of CTF data stream files below path (no metadata, no index)."""
    total = 0
    for root, _, files in os.walk(path):
        if os.path.basename(root) == "index":
            continue
        for f in files:
            if f != "metadata":
                total += os.path.getsize(os.path.join(root, f))
    return total


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = f", {kib / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return (f"{platform.system()} {platform.release()}, "
            f"{os.cpu_count()} CPUs ({cpu}){mem}")


def tool_versions():
    out = []
    for cmd in (["babeltrace2", "--version"], ["trace-cmd", "--version"],
                ["gst-launch-1.0", "--version"]):
        try:
            txt = subprocess.run(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT).stdout.decode()
        except OSError:
            continue
        m = re.search(r"version (\d+\.\d+(\.\d+)?)", txt) or \
            re.search(r"(\d+\.\d+(\.\d+)?)", txt)
        out.append(f"{cmd[0]} {m.group(1) if m else '?'}")
    return ", ".join(out)


# ---------------------------------------------------------------- inputs

def ensure_sessiond():
    subprocess.run(["sh", "-c", "lttng list >/dev/null 2>&1 || "
                    "lttng-sessiond --daemonize"], check=False)


def record_ust(iters, tag="", subbuf="1M", nsub=16):
    dest = os.path.join(INPUTS, f"ust-{iters}{tag}")
    trace = os.path.join(dest, "custom-2cpu")
    if os.path.isdir(trace):
        return trace
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(INPUTS, exist_ok=True)
    print(f"recording {trace} ...", file=sys.stderr)
    cmd = ["bash", os.path.join(SHARED, "record-lttng-ust.sh"),
           "-o", dest, "-k", "custom-2cpu", "-n", str(iters),
           "-s", subbuf, "-c", str(nsub)]
    if os.geteuid() == 0:
        # a session daemon of its own, as nobody, stopped after
        tmp = tempfile.mkdtemp(prefix="gst-ctf-bench-rec-")
        os.chmod(tmp, 0o777)
        cmd[3] = os.path.join(tmp, "out")
        subprocess.run(["bash", os.path.join(HERE, "with-sessiond.sh"),
                        "--"] + cmd, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["chown", "-R", f"{os.getuid()}:{os.getgid()}", tmp],
                       check=True)
        shutil.move(cmd[3], dest)
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        ensure_sessiond()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return trace


def trace_dir(top):
    """The directory holding `metadata` below top (one trace)."""
    for root, _, files in os.walk(top):
        if "metadata" in files:
            return root
    raise RuntimeError(f"no trace below {top}")


def record_perpid(n):
    """A per-PID LTTng-UST session of n `/bin/true` runs (n traces)."""
    dest = os.path.join(INPUTS, f"perpid-{n}")
    if os.path.isdir(dest):
        return dest
    os.makedirs(INPUTS, exist_ok=True)
    print(f"recording {dest} ...", file=sys.stderr)
    subprocess.run(["bash", os.path.join(HERE, "record-perpid.sh"),
                    "-o", dest, "-n", str(n)], check=True,
                   stdout=subprocess.DEVNULL)
    return dest


def redistributed(src, name, *how):
    """src's packets dealt over more streams or traces
    (bench/redistribute.py), made once under INPUTS."""
    dest = os.path.join(INPUTS, name)
    if not os.path.isdir(dest):
        subprocess.run([sys.executable, os.path.join(HERE, "redistribute.py"),
                        src, dest] + list(how), check=True,
                       stdout=subprocess.DEVNULL)
    return dest


def record_tracedat(seconds):
    path = os.path.join(INPUTS, f"kernel-{seconds}s.dat")
    if os.path.isfile(path):
        return path
    os.makedirs(INPUTS, exist_ok=True)
    print(f"recording {path} ...", file=sys.stderr)
    subprocess.run(["bash", os.path.join(SHARED, "record-tracedat.sh"),
                    "-o", path, "-d", str(seconds), "-b", "262144",
                    "-e", "sched irq timer syscalls"], check=True,
                   stdout=subprocess.DEVNULL)
    return path


def parse_size(s):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMG]?)B?", s.upper())
    if not m:
        raise ValueError(s)
    return int(float(m.group(1)) * {"": 1, "K": 1e3, "M": 1e6,
                                    "G": 1e9}[m.group(2)])


def ctf_time_span(trace):
    """(first, last) packet timestamps in ns from the clock origin, from the
    LTTng index files of the trace directories below trace."""
    lo = hi = None
    for root, dirs, files in os.walk(trace):
        if "metadata" not in files or "index" not in dirs:
            continue
        meta = open(os.path.join(root, "metadata"), "rb").read()
        if meta[:4] in (b"\x57\x1d\xd1\x75", b"\x75\xd1\x1d\x57"):
            # packetized metadata: take the text of each packet (header
            # 37 bytes, content_size and packet_size in bits at bytes 24
            # and 28, CTF 1.8 §7.1)
            txt, o = b"", 0
            order = "<" if meta[:4] == b"\x57\x1d\xd1\x75" else ">"
            while o + 37 <= len(meta):
                content, packet = struct.unpack(order + "II", meta[o + 24:o + 32])
                if packet == 0:
                    break
                txt += meta[o + 37:o + content // 8]
                o += packet // 8
            meta = txt
        meta = meta.decode("latin-1")
        clock = re.search(r"clock\s*\{(.*?)\};", meta, re.S).group(1)
        freq = int(re.search(r"freq\s*=\s*(\d+)", clock).group(1))
        off = re.search(r"\boffset\s*=\s*(-?\d+)", clock)
        off_s = re.search(r"offset_s\s*=\s*(-?\d+)", clock)
        base = (int(off_s.group(1)) if off_s else 0) * 10**9 + \
            (int(off.group(1)) * 10**9 // freq if off else 0)
        idx = os.path.join(root, "index")
        for f in sorted(os.listdir(idx)):
            b = open(os.path.join(idx, f), "rb").read()
            magic, _, _, esize = struct.unpack(">IIII", b[:16])
            if magic != 0xC1F1DCC1:
                continue
            for o in range(16, len(b) - esize + 1, esize):
                _, _, _, tb, te = struct.unpack(">QQQQQ", b[o:o + 40])
                tb = base + tb * 10**9 // freq
                te = base + te * 10**9 // freq
                lo = tb if lo is None else min(lo, tb)
                hi = te if hi is None else max(hi, te)
    return lo, hi


def ns_str(ns):
    return "%d.%09d" % divmod(ns, 10**9)


# ---------------------------------------------------------------- jobs

class Bench:
    def __init__(self, args):
        self.args = args
        self.scratch = tempfile.mkdtemp(prefix="gst-ctf-bench-",
                                        dir=args.scratch)
        self.decode = os.path.join(args.build, "bench", "ctf-decode")
        self.floor = os.path.join(args.build, "bench", "packet-floor")
        self.rows = []
        self.notes = []
        self.counts = {}

    def out(self, name="out"):
        return os.path.join(self.scratch, name)

    def clean(self):
        for f in os.listdir(self.scratch):
            p = os.path.join(self.scratch, f)
            if os.path.isdir(p):
                shutil.rmtree(p, ignore_errors=True)
            else:
                os.unlink(p)

    def ctf_events(self, trace):
        """Event count of a CTF trace (with our decoder; the figure agrees
        with babeltrace2's line count on the inputs used here)."""
        if trace not in self.counts:
            txt = subprocess.run([self.decode, "-q", trace],
                                 stdout=subprocess.PIPE, check=True).stdout
            self.counts[trace] = int(re.search(rb"events (\d+)", txt).group(1))
        return self.counts[trace]

    def tracedat_events(self, path):
        if path not in self.counts:
            p = subprocess.Popen(["trace-cmd", "report", "-i", path],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL)
            n = 0
            for line in p.stdout:
                if re.search(rb"\[\d+\]\s+\d+\.\d+:", line):
                    n += 1
            p.wait()
            self.counts[path] = n
        return self.counts[path]

    def measure(self, job, tools, n_events, nbytes, reps=None, ref="gst-ctf",
                peers_of=None):
        """tools: list of (label, argv or callable -> argv, stdout path).
        Runs every tool once per round, reps rounds; appends table rows."""
        reps = reps or self.args.reps
        res = {t[0]: [] for t in tools}
        for _ in range(reps):
            for label, cmd, stdout in tools:
                self.clean()
                argv = cmd() if callable(cmd) else cmd
                res[label].append(run_measured(argv, stdout or os.devnull))
        med = {}
        for label, _, _ in tools:
            ok = [r for r in res[label] if r.rc == 0]
            if not ok:
                med[label] = None
                continue
            med[label] = (statistics.median(r.wall for r in ok),
                          statistics.median(r.cpu for r in ok),
                          max(r.rss_kib for r in ok) / 1024.0,
                          len(ok), len(res[label]))
        refs = peers_of or {}
        for label, _, _ in tools:
            m = med[label]
            if m is None:
                self.rows.append((job, label, "failed", "", "", "", "", "",
                                  ""))
                continue
            wall, cpu, rss, nok, nall = m
            ratio = ""
            base = refs.get(label)
            if base and med.get(base):
                bw, bc = med[base][0], med[base][1]
                ratio = f"{wall / bw:.1f}x / {cpu / bc:.1f}x"
            self.rows.append((job, label, f"{wall:.3f}", f"{cpu:.3f}",
                              f"{wall * 1e9 / n_events:.0f}" if n_events else "",
                              f"{nbytes / 1e6 / wall:.0f}" if nbytes else "",
                              f"{rss:.1f}", ratio,
                              "" if nok == nall else f"{nall - nok} failed"))
        return med

    def skip(self, job, why):
        self.rows.append((job, f"(skipped: {why})", "", "", "", "", "", "",
                          ""))


def gst(*pipeline):
    return ["gst-launch-1.0", "-q"] + [a for p in pipeline for a in p.split()]


def job_ctf2ctf(b, trace):
    if not have_element("ctfsink"):
        return b.skip("CTF -> CTF", "ctfsink not built")
    n, size = b.ctf_events(trace), du_bytes(trace)
    out = b.out()
    med = b.measure("CTF -> CTF", [
        ("gst-ctf ctfsrc ! ctfsink",
         ["gst-launch-1.0", "-q", "ctfsrc", f"location={trace}", "!",
          "ctfsink", f"location={out}"], None),
        ("babeltrace2 -o ctf", ["babeltrace2", trace, "-o", "ctf", "-w", out],
         None),
        ("cp -r", ["cp", "-r", trace, out], None),
    ], n, size, peers_of={"babeltrace2 -o ctf": "gst-ctf ctfsrc ! ctfsink",
                          "cp -r": "gst-ctf ctfsrc ! ctfsink"})
    return med


def job_decode(b, trace):
    if not os.path.exists(b.decode):
        return b.skip("decode only", "bench/ctf-decode not built")
    n, size = b.ctf_events(trace), stream_bytes(trace)
    ours = "ctf-decode -a (all fields)"
    b.measure("decode only", [
        (ours, [b.decode, "-q", "-a", trace], None),
        ("ctf-decode (walk)", [b.decode, "-q", trace], None),
        ("ctf-decode -a -j2", [b.decode, "-q", "-a", "-j2", trace], None),
        ("babeltrace2 -c sink.utils.dummy",
         ["babeltrace2", trace, "-c", "sink.utils.dummy"], None),
    ], n, size, peers_of={"babeltrace2 -c sink.utils.dummy": ours,
                          "ctf-decode (walk)": ours,
                          "ctf-decode -a -j2": ours})


def job_text(b, trace):
    if not have_element("ctftextsink"):
        return b.skip("CTF -> text", "ctftextsink not built")
    n, size = b.ctf_events(trace), du_bytes(trace)
    ours = "gst-ctf ctfsrc ! ctftextsink"
    b.measure("CTF -> text", [
        (ours, ["gst-launch-1.0", "-q", "ctfsrc", f"location={trace}", "!",
                "ctftextsink", "location=/dev/null"], None),
        ("babeltrace2 > /dev/null", ["babeltrace2", trace], None),
    ], n, size, peers_of={"babeltrace2 > /dev/null": ours})


BT21 = os.path.join(os.path.dirname(SHARED), "tools", "babeltrace2-2.1")
# corpus CTF 2 traces babeltrace2 2.1.2 converted, and their originals
CTF2_CONVERTED = [
    ("lttng-ust_custom-2cpu", "ctf/lttng-ust/custom-2cpu"),
    ("lttng-ust_libc-ls", "ctf/lttng-ust/libc-ls"),
    ("lttng-ust_dl-statedump", "ctf/lttng-ust/dl-statedump"),
    ("other_tracecompass_context-switches",
     "ctf/other/tracecompass/context-switches"),
    ("other_tracecompass_bandwidth_issue",
     "ctf/other/tracecompass/bandwidth_issue"),
]


def convert_bt21(trace, version):
    """The main input written once by babeltrace2 2.1 (sink.ctf.fs) as
    CTF `version` ("2", or "1": the control with the same layout)."""
    dest = os.path.join(INPUTS, os.path.basename(os.path.dirname(trace))
                        + ("-ctf2" if version == "2" else "-bt-ctf1"))
    if not os.path.isdir(dest):
        print(f"converting {trace} to CTF {version} ...", file=sys.stderr)
        tmp = dest + ".part"
        shutil.rmtree(tmp, ignore_errors=True)
        subprocess.run([BT21, trace, "-c", "sink.ctf.fs", "-p",
                        f'path="{tmp}"', "-p", f'ctf-version="{version}"'],
                       check=True, stdout=subprocess.DEVNULL)
        os.rename(tmp, dest)
    return trace_dir(dest)


def job_ctf2(b, trace):
    """CTF 2 vs CTF 1.8, the same events.  babeltrace2 writes its own
    layout (64-bit event header fields where LTTng has a compact header,
    procname a null-terminated string where LTTng has a char[17]), in
    CTF 2 and in CTF 1.8 alike: for the main input its CTF 1.8 output is
    the CTF 2 row's base, the LTTng original a row of its own."""
    if not os.path.exists(BT21):
        return b.skip("CTF 2 vs 1.8", "no ../shared/tools/babeltrace2-2.1")
    if not os.path.exists(b.decode):
        return b.skip("CTF 2 vs 1.8", "bench/ctf-decode not built")
    pairs = []
    if trace:
        pairs.append(("main input", trace, convert_bt21(trace, "2"),
                      convert_bt21(trace, "1")))
    for conv, orig in CTF2_CONVERTED:
        t2 = os.path.join(SHARED, "ctf2", "converted", conv)
        t1 = os.path.join(SHARED, orig)
        if os.path.isdir(t1) and os.path.isdir(t2):
            pairs.append((conv, trace_dir(t1), trace_dir(t2), None))
    for what, t1, t2, t1bt in pairs:
        n1, n2 = b.ctf_events(t1), b.ctf_events(t2)
        if n1 != n2:
            b.notes.append(f"CTF 2 vs 1.8, {what}: {n1} events in CTF 1.8, "
                           f"{n2} in CTF 2")
        settle([t for t in (t1, t2, t1bt) if t], b.args.drop_caches)
        tools, peers = [], {}
        for cmd_label, argv in (
                ("ctf-decode -a", lambda t: [b.decode, "-q", "-a", t]),
                ("ctfsrc ! fakesink",
                 lambda t: gst(f"ctfsrc location={t} ! fakesink")),
                ("ctfsrc ! ctftextsink",
                 lambda t: gst(f"ctfsrc location={t} ! ctftextsink "
                               "location=/dev/null")),
                ("babeltrace2-2.1 -c sink.utils.dummy",
                 lambda t: [BT21, t, "-c", "sink.utils.dummy"]),
                ("babeltrace2-2.1 > /dev/null", lambda t: [BT21, t])):
            tools.append((f"{cmd_label}, CTF 1.8", argv(t1), None))
            base = f"{cmd_label}, CTF 1.8"
            if t1bt:
                base = f"{cmd_label}, CTF 1.8 by babeltrace2"
                tools.append((base, argv(t1bt), None))
            tools.append((f"{cmd_label}, CTF 2", argv(t2), None))
            peers[f"{cmd_label}, CTF 2"] = base
        b.measure(f"CTF 2 vs 1.8: {what} ({n1} events)", tools, n1,
                  stream_bytes(t1), peers_of=peers)


def job_window(b, trace, fraction):
    if not have_element("timefilter"):
        return b.skip("1% window", "timefilter not built")
    lo, hi = ctf_time_span(trace)
    if lo is None:
        return b.skip("1% window", "no LTTng index to find the time span")
    mid, half = lo + (hi - lo) // 2, int((hi - lo) * fraction / 2)
    wb, we = ns_str(mid - half), ns_str(mid + half)
    n, size = b.ctf_events(trace), du_bytes(trace)
    out = b.out()
    ours = "gst-ctf ctfsrc ! timefilter ! ctfsink"
    full = "gst-ctf full pass (ctfsrc ! ctfsink)"
    # what any gst-launch process costs: start-up, one buffer, tear-down
    floor = "floor: gst-launch-1.0 fakesrc num-buffers=1 ! fakesink"
    med = b.measure(f"{fraction:.0%} window", [
        (ours, ["gst-launch-1.0", "-q", "ctfsrc", f"location={trace}", "!",
                "timefilter", f"start={wb}", f"end={we}", "!",
                "ctfsink", f"location={out}"], None),
        ("babeltrace2 --begin --end -o ctf",
         ["babeltrace2", f"--begin={wb}", f"--end={we}", trace, "-o", "ctf",
          "-w", out], None),
        (full, ["gst-launch-1.0", "-q", "ctfsrc", f"location={trace}", "!",
                "ctfsink", f"location={out}"], None),
        (floor, gst("fakesrc num-buffers=1 ! fakesink"), None),
    ], n, size, peers_of={"babeltrace2 --begin --end -o ctf": ours,
                          full: ours})
    for label in (ours, floor):
        if med.get(label) and med.get(full):
            b.notes.append(
                f"window [{wb}, {we}] ({fraction:.0%} of the span): "
                f"{label} = {100 * med[label][0] / med[full][0]:.1f}% of "
                f"our full pass (wall), "
                f"{100 * med[label][1] / med[full][1]:.1f}% (CPU)")
    # the two outputs hold the same events
    subprocess.run(["gst-launch-1.0", "-q", "ctfsrc", f"location={trace}",
                    "!", "timefilter", f"start={wb}", f"end={we}", "!",
                    "ctfsink", f"location={out}-a"], check=False)
    subprocess.run(["babeltrace2", f"--begin={wb}", f"--end={we}", trace,
                    "-o", "ctf", "-w", f"{out}-b"], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    na = b.ctf_events(f"{out}-a") if os.path.isdir(f"{out}-a") else "?"
    nb = b.ctf_events(f"{out}-b") if os.path.isdir(f"{out}-b") else "?"
    b.notes.append(f"events in the window: timefilter {na}, babeltrace2 {nb}")


def job_merge(b, t1, t2):
    if not have_element("ctfmux"):
        return b.skip("merge 2 traces", "ctfmux not built")
    n = b.ctf_events(t1) + b.ctf_events(t2)
    size = du_bytes(t1) + du_bytes(t2)
    out = b.out()

    def mux(mode):
        return ["gst-launch-1.0", "-q", "ctfmux", "name=m", f"mode={mode}",
                "!", "ctfsink", f"location={out}",
                "ctfsrc", f"location={t1}", "!", "m.",
                "ctfsrc", f"location={t2}", "!", "m."]
    pk, ev = "gst-ctf ctfmux mode=packets", "gst-ctf ctfmux mode=events"
    bt = "babeltrace2 T1 T2 -o ctf"
    # mode=events writes one packet (one GstBuffer) per run of events of
    # one stream: the floor is making and freeing as many GstBuffers of
    # that size (bench/packet-floor.c)
    subprocess.run(mux("events"), check=True)
    txt = subprocess.run([b.decode, "-q", out], stdout=subprocess.PIPE,
                         check=True).stdout
    pkts = int(re.search(rb"packets (\d+)", txt).group(1))
    pbytes = int(re.search(rb"bytes (\d+)", txt).group(1))
    floor = f"floor: packet-floor {pkts} (the GstBuffers alone)"
    b.clean()
    tools = [
        (pk, mux("packets"), None),
        (ev, mux("events"), None),
        (bt, ["babeltrace2", t1, t2, "-o", "ctf", "-w", out], None),
    ]
    if os.path.exists(b.floor):
        tools.append((floor, [b.floor, str(pkts),
                              str(max(1, pbytes // pkts))], None))
    med = b.measure("merge 2 traces", tools, n, size,
                    peers_of={bt: pk, ev: pk})
    b.notes.append("merge: the ratio on the babeltrace2 row is to "
                   "mode=packets; babeltrace2 / mode=events = see the wall "
                   "and CPU columns")
    b.notes.append(f"merge: mode=events wrote {pkts} packets "
                   f"({n / pkts:.2f} events each, {pbytes // pkts} bytes)")
    if med.get(bt) and med.get(floor) and med.get(ev):
        b.notes.append(f"merge: babeltrace2 / mode=events = "
                       f"{med[bt][0] / med[ev][0]:.1f}x; babeltrace2 / "
                       f"floor = {med[bt][0] / med[floor][0]:.1f}x (the most "
                       "one GstBuffer per packet allows)")


def job_tracedat(b, dat):
    if not have_element("tracecmdsrc"):
        return b.skip("trace.dat -> CTF", "tracecmdsrc not built")
    n, size = b.tracedat_events(dat), du_bytes(dat)
    out = b.out()
    ours = "gst-ctf tracecmdsrc ! ctfsink"
    b.measure("trace.dat -> CTF", [
        (ours, ["gst-launch-1.0", "-q", "tracecmdsrc", f"location={dat}", "!",
                "ctfsink", f"location={out}"], None),
        ("trace-cmd report > /dev/null",
         ["trace-cmd", "report", "-i", dat], None),
        ("trace-cmd convert --file-version 6",
         lambda: ["trace-cmd", "convert", "--file-version", "6", "-i", dat,
                  "-o", out + ".dat"], None),
    ], n, size, peers_of={"trace-cmd report > /dev/null": ours,
                          "trace-cmd convert --file-version 6": ours})


def job_perfetto(b, trace, dat):
    """Issue 27: perfettosink beside ctftextsink and babeltrace2's text on
    the main input, and beside ctftextsink format=trace-cmd and trace-cmd
    report on the trace.dat; the .pftrace size per event in the notes.
    perfettosink writes a file (it cannot write to /dev/null), so
    ctftextsink is measured writing a file too."""
    if not have_element("perfettosink"):
        return b.skip("CTF -> Perfetto", "perfettosink not built")
    out = b.out("out.pftrace")
    for what, src, n, size, peers in (
            ("CTF -> Perfetto", f"ctfsrc location={trace}",
             b.ctf_events(trace), du_bytes(trace),
             [("gst-ctf ctfsrc ! ctftextsink (to a file)",
               gst(f"ctfsrc location={trace}",
                   f"! ctftextsink location={b.out('out.txt')}")),
              ("gst-ctf ctfsrc ! ctftextsink location=/dev/null",
               gst(f"ctfsrc location={trace}",
                   "! ctftextsink location=/dev/null")),
              ("babeltrace2 > /dev/null", ["babeltrace2", trace])]),
            ("trace.dat -> Perfetto", f"tracecmdsrc location={dat}",
             b.tracedat_events(dat), du_bytes(dat),
             [("gst-ctf tracecmdsrc ! ctftextsink format=trace-cmd (to a "
               "file)", gst(f"tracecmdsrc location={dat}",
                            "! ctftextsink format=trace-cmd "
                            f"location={b.out('out.txt')}")),
              ("trace-cmd report > /dev/null",
               ["trace-cmd", "report", "-i", dat])])):
        ours = "gst-ctf perfettosink"
        b.measure(what, [(ours, gst(src, f"! perfettosink location={out}"),
                          None)] + [(lbl, cmd, None) for lbl, cmd in peers],
                  n, size, peers_of={lbl: ours for lbl, _ in peers})
        b.clean()
        subprocess.run(gst(src, f"! perfettosink location={out}"),
                       check=True)
        size_out = os.path.getsize(out)
        b.notes.append(f"{what}: {size_out / 1e6:.1f} MB of .pftrace for "
                       f"{n} events, {size_out / n:.1f} bytes/event")


def job_jsonl(b, trace):
    if not have_element("ctftextsink"):
        return b.skip("CTF -> JSON Lines", "ctftextsink not built")
    n, size = b.ctf_events(trace), du_bytes(trace)
    ours = "gst-ctf ctftextsink format=json-lines"
    b.measure("CTF -> JSON Lines", [
        (ours, gst(f"ctfsrc location={trace}",
                   "! ctftextsink format=json-lines location=/dev/null"),
         None),
        ("gst-ctf ctftextsink (babeltrace2 text)",
         gst(f"ctfsrc location={trace}", "! ctftextsink location=/dev/null"),
         None),
        ("babeltrace2 > /dev/null", ["babeltrace2", trace], None),
    ], n, size, peers_of={"babeltrace2 > /dev/null": ours,
                          "gst-ctf ctftextsink (babeltrace2 text)": ours})


def first_event_name(trace):
    """The name of the trace's most frequent event among its first 2000."""
    p = subprocess.Popen(["babeltrace2", trace], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    counts = {}
    for i, line in enumerate(p.stdout):
        m = re.search(rb"\) \S+ (\S+): ", line)
        if m:
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
        if i >= 2000:
            break
    p.kill()
    p.wait()
    return min(counts, key=counts.get).decode() if counts else "x"


def job_filter(b, trace, dat):
    """ctffilter by name and by CPU beside babeltrace2 | grep (CTF) and
    trace-cmd report -F / --cpu (trace.dat)."""
    if not have_element("ctffilter"):
        return b.skip("filter", "ctffilter not built")
    if trace:
        n, size = b.ctf_events(trace), du_bytes(trace)
        name = first_event_name(trace)
        ours = f"gst-ctf ctffilter events={name} ! ctftextsink"
        b.measure(f"filter by name (CTF, the rarest of the first events)", [
            (ours, gst(f"ctfsrc location={trace}", f"! ctffilter events={name}",
                       "! ctftextsink location=/dev/null"), None),
            (f"gst-ctf ctffilter events={name} ! ctfsink",
             gst(f"ctfsrc location={trace}", f"! ctffilter events={name}",
                 f"! ctfsink location={b.out()}"), None),
            (f"babeltrace2 \\| grep ' {name}: '",
             ["sh", "-c", f"babeltrace2 '{trace}' | grep -F ' {name}: '"],
             None),
        ], n, size, peers_of={f"babeltrace2 \\| grep ' {name}: '": ours})
        ours = "gst-ctf ctffilter cpus=1 ! ctftextsink"
        b.measure("filter by CPU (CTF)", [
            (ours, gst(f"ctfsrc location={trace}", "! ctffilter cpus=1",
                       "! ctftextsink location=/dev/null"), None),
            ("babeltrace2 \\| grep 'cpu_id = 1 }'",
             ["sh", "-c", f"babeltrace2 '{trace}' | grep -F 'cpu_id = 1 }}'"],
             None),
        ], n, size, peers_of={"babeltrace2 \\| grep 'cpu_id = 1 }'": ours})
    if dat:
        n, size = b.tracedat_events(dat), du_bytes(dat)
        ours = "gst-ctf tracecmdsrc ! ctffilter events=sched_switch ! ctftextsink"
        b.measure("filter by name (trace.dat)", [
            (ours, gst(f"tracecmdsrc location={dat}",
                       "! ctffilter events=sched_switch",
                       "! ctftextsink location=/dev/null"), None),
            ("trace-cmd report -F sched_switch",
             ["trace-cmd", "report", "-F", "sched_switch", "-i", dat], None),
        ], n, size, peers_of={"trace-cmd report -F sched_switch": ours})
        expr = "sched_switch: prev_pid == 0"
        ours = f"gst-ctf ctffilter filter='{expr}' ! ctftextsink"
        b.measure("filter by field (trace.dat)", [
            (ours, ["gst-launch-1.0", "-q", "tracecmdsrc", f"location={dat}",
                    "!", "ctffilter", f"filter={expr}", "!", "ctftextsink",
                    "location=/dev/null"], None),
            (f"trace-cmd report -F '{expr}'",
             ["trace-cmd", "report", "-F", expr, "-i", dat], None),
        ], n, size, peers_of={f"trace-cmd report -F '{expr}'": ours})
        ours = "gst-ctf ctffilter cpus=1 ! ctftextsink"
        b.measure("filter by CPU (trace.dat)", [
            (ours, gst(f"tracecmdsrc location={dat}", "! ctffilter cpus=1",
                       "! ctftextsink location=/dev/null"), None),
            ("trace-cmd report --cpu 1",
             ["trace-cmd", "report", "--cpu", "1", "-i", dat], None),
        ], n, size, peers_of={"trace-cmd report --cpu 1": ours})


def ltt0_input():
    """The corpus' 8-CPU LTTng 0.x trace, unpacked once; None without
    the corpus."""
    tarball = os.path.join(SHARED, "ltt0",
                           "trace-698650events_3029lost-8CPU.tar.gz")
    dest = os.path.join(INPUTS, "ltt0-8cpu")
    if not os.path.isdir(dest):
        if not os.path.exists(tarball):
            return None
        os.makedirs(dest + ".part", exist_ok=True)
        subprocess.run(["tar", "xzf", tarball, "-C", dest + ".part"],
                       check=True)
        os.rename(dest + ".part", dest)
    for dirpath, _, names in os.walk(dest):
        if "metadata_0" in names:
            return dirpath
    return None


def job_lttng0(b, trace):
    if not have_element("lttng0src"):
        return b.skip("LTTng 0.x -> CTF", "lttng0src not built")
    if trace is None:
        return b.skip("LTTng 0.x -> CTF", "no ../shared/corpus/ltt0")
    ctf = os.path.join(INPUTS, "ltt0-8cpu.ctf")
    if not os.path.isdir(ctf):
        shutil.rmtree(ctf + ".part", ignore_errors=True)
        subprocess.run(gst(f"lttng0src location={trace} ! "
                           f"ctfsink location={ctf}.part"), check=True)
        os.rename(ctf + ".part", ctf)
    settle([trace, ctf], b.args.drop_caches)
    n, size = b.ctf_events(ctf), du_bytes(trace)
    out = b.out()
    ours = "gst-ctf lttng0src ! ctfsink"
    text = "gst-ctf lttng0src ! ctftextsink"
    b.measure("LTTng 0.x -> CTF", [
        (ours, gst(f"lttng0src location={trace} ! ctfsink location={out}"),
         None),
        ("gst-ctf ctfsrc ! ctfsink (its CTF output)",
         gst(f"ctfsrc location={ctf} ! ctfsink location={out}"), None),
    ], n, size, peers_of={"gst-ctf ctfsrc ! ctfsink (its CTF output)": ours})
    b.measure("LTTng 0.x -> text", [
        (text, gst(f"lttng0src location={trace} ! "
                   "ctftextsink location=/dev/null"), None),
        ("gst-ctf ctfsrc ! ctftextsink (its CTF output)",
         gst(f"ctfsrc location={ctf} ! ctftextsink location=/dev/null"),
         None),
        ("babeltrace2 (its CTF output) > /dev/null", ["babeltrace2", ctf],
         None),
    ], n, size, peers_of={
        "gst-ctf ctfsrc ! ctftextsink (its CTF output)": text,
        "babeltrace2 (its CTF output) > /dev/null": text})


def job_rss(b, sizes):
    if not have_element("ctfsink"):
        return b.skip("peak RSS", "ctfsink not built")
    for s in sizes:
        nbytes = parse_size(s)
        iters = max(1000, nbytes // UST_BYTES_PER_ITER)
        trace = record_ust(iters)
        settle([trace], False)
        n, size = b.ctf_events(trace), du_bytes(trace)
        out = b.out()
        tools = [(f"ctfsrc ! ctfsink ({size / 1e6:.0f} MB)",
                  ["gst-launch-1.0", "-q", "ctfsrc", f"location={trace}", "!",
                   "ctfsink", f"location={out}"], None)]
        if have_element("ctftextsink"):
            tools.append((f"ctfsrc ! ctftextsink ({size / 1e6:.0f} MB)",
                          ["gst-launch-1.0", "-q", "ctfsrc",
                           f"location={trace}", "!", "ctftextsink",
                           "location=/dev/null"], None))
        if os.path.exists(b.decode):
            tools.append((f"ctf-decode -a ({size / 1e6:.0f} MB)",
                          [b.decode, "-q", "-a", trace], None))
        b.measure("peak RSS", tools, n, size, reps=1)


# ------------------------------------------------ scale (issue 21)

def three_jobs(b, what, top, tag, span_of=None, reps=None):
    """ctfsrc ! ctftextsink, ctfsrc ! ctfsink and ctfsrc ! timefilter !
    ctfsink (middle half of the time span, from the LTTng index of top or
    of span_of) on top, each beside babeltrace2 doing the same; one table
    block.  Returns the medians."""
    n, size = b.ctf_events(top), du_bytes(top)
    out = b.out()
    lo, hi = ctf_time_span(span_of or top)
    text, bt_text = f"{tag} ctfsrc ! ctftextsink", f"{tag} babeltrace2 (text)"
    ctf, bt_ctf = f"{tag} ctfsrc ! ctfsink", f"{tag} babeltrace2 -o ctf"
    win = f"{tag} ctfsrc ! timefilter ! ctfsink"
    bt_win = f"{tag} babeltrace2 --begin --end -o ctf"
    tools = [
        (text, ["gst-launch-1.0", "-q", "ctfsrc", f"location={top}", "!",
                "ctftextsink", "location=/dev/null"], None),
        (bt_text, ["babeltrace2", top], None),
        (ctf, ["gst-launch-1.0", "-q", "ctfsrc", f"location={top}", "!",
               "ctfsink", f"location={out}"], None),
        (bt_ctf, ["babeltrace2", top, "-o", "ctf", "-w", out], None),
    ]
    peers = {bt_text: text, bt_ctf: ctf}
    if lo is not None:
        q = (hi - lo) // 4
        wb, we = ns_str(lo + q), ns_str(hi - q)
        tools += [
            (win, ["gst-launch-1.0", "-q", "ctfsrc", f"location={top}", "!",
                   "timefilter", f"start={wb}", f"end={we}", "!",
                   "ctfsink", f"location={out}"], None),
            (bt_win, ["babeltrace2", f"--begin={wb}", f"--end={we}", top,
                      "-o", "ctf", "-w", out], None),
        ]
        peers[bt_win] = win
    return b.measure(what, tools, n, size, peers_of=peers, reps=reps)


def growth_notes(b, what, sizes, meds, unit, per_stream, grows="input",
                 actual=None):
    """Per-size growth of each command's wall and CPU time, and the peak
    RSS per stream between the smallest and the largest input.  actual:
    the real size of each input (a per-PID session may hold fewer traces
    than runs) for the ratios."""
    actual = actual or {k: k for k in sizes}
    labels = [lab.split(" ", 1)[1] for lab in meds[sizes[0]] if meds[sizes[0]][lab]]
    for lab in labels:
        parts = []
        for a, c in zip(sizes, sizes[1:]):
            ma = meds[a].get(f"[{a}] {lab}")
            mc = meds[c].get(f"[{c}] {lab}")
            if ma and mc:
                parts.append(f"{actual[a]} -> {actual[c]} {unit}: "
                             f"{mc[0] / ma[0]:.2f}x wall, {mc[1] / ma[1]:.2f}x "
                             f"CPU for {actual[c] / actual[a]:.2f}x {grows}")
        m0, m1 = meds[sizes[0]].get(f"[{sizes[0]}] {lab}"), \
            meds[sizes[-1]].get(f"[{sizes[-1]}] {lab}")
        rss = ""
        if m0 and m1 and per_stream[sizes[-1]] > per_stream[sizes[0]]:
            rss = (f"; peak RSS {(m1[2] - m0[2]) * 1024 / (per_stream[sizes[-1]] - per_stream[sizes[0]]):.0f}"
                   f" KiB per stream more ({m0[2]:.0f} -> {m1[2]:.0f} MiB)")
        if parts:
            b.notes.append(f"{what}, {lab}: " + "; ".join(parts) + rss)


def count_streams(top):
    n = 0
    for root, _, files in os.walk(top):
        if "metadata" in files:
            n += sum(1 for f in files if f != "metadata"
                     and os.path.getsize(os.path.join(root, f)) > 0)
    return n


def job_perpid(b, sizes):
    if not have_element("ctftextsink") or not have_element("timefilter"):
        return b.skip("per-PID", "ctftextsink or timefilter not built")
    meds, streams, traces = {}, {}, {}
    for n in sizes:
        top = record_perpid(n)
        settle([top], b.args.drop_caches)
        streams[n] = count_streams(top)
        traces[n] = sum(1 for _, _, fs in os.walk(top) if "metadata" in fs)
        # (babeltrace2 takes minutes above 1000 traces: one round there)
        reps = 1 if n > 1000 else None
        meds[n] = three_jobs(b, f"per-PID, {traces[n]} traces ({streams[n]} "
                             "streams)" + (", 1 round" if reps else ""), top,
                             f"[{n}]", reps=reps)
    growth_notes(b, "per-PID", sizes, meds, "traces", streams,
                 actual=traces)


def job_streams(b, n_streams, iters):
    if not have_element("ctftextsink") or not have_element("timefilter"):
        return b.skip(f"{n_streams} streams", "elements not built")
    src = trace_dir(record_ust(iters, "-16k", "16k", 32))
    many = redistributed(src, f"streams{n_streams}-{iters}", "--streams",
                         str(n_streams))
    settle([src, many], b.args.drop_caches)
    meds, streams = {}, {}
    for k, top in ((2, src), (n_streams, many)):
        streams[k] = count_streams(top)
        meds[k] = three_jobs(b, f"{k} streams, one trace ({b.ctf_events(top)} "
                             "events)", top, f"[{k}]", span_of=src)
    growth_notes(b, "streams", [2, n_streams], meds, "streams", streams,
                 "streams, same events")


def job_muxpads(b, pads, iters):
    if not have_element("ctfmux"):
        return b.skip("ctfmux pads", "ctfmux not built")
    src = trace_dir(record_ust(iters, "-16k", "16k", 32))
    out = b.out()
    per_packet = {}
    for k in pads:
        top = redistributed(src, f"traces{k}-{iters}", "--traces", str(k))
        traces = sorted(os.path.join(top, d) for d in os.listdir(top))
        settle([top], b.args.drop_caches)
        txt = subprocess.run([b.decode, "-q", top], stdout=subprocess.PIPE,
                             check=True).stdout
        pkts = int(re.search(rb"packets (\d+)", txt).group(1))

        def mux(mode):
            cmd = ["gst-launch-1.0", "-q", "ctfmux", "name=m", f"mode={mode}",
                   "!", "ctfsink", f"location={out}"]
            for t in traces:
                cmd += ["ctfsrc", f"location={t}", "!", "m."]
            return cmd
        pk, ev = f"[{k} pads] ctfmux mode=packets", f"[{k} pads] ctfmux mode=events"
        bt = f"[{k} pads] babeltrace2 -o ctf (same traces)"
        med = b.measure(f"ctfmux, {k} inputs ({pkts} packets)", [
            (pk, mux("packets"), None),
            (ev, mux("events"), None),
            (bt, ["babeltrace2"] + traces + ["-o", "ctf", "-w", out], None),
        ], b.ctf_events(top), du_bytes(top), peers_of={bt: pk})
        per_packet[k] = {lab.split("] ", 1)[1]: (m[0] * 1e6 / pkts if m else None)
                         for lab, m in med.items()}
        if med.get(bt) and med.get(ev):
            b.notes.append(f"ctfmux {k} inputs: babeltrace2 / mode=events = "
                           f"{med[bt][0] / med[ev][0]:.1f}x")
    for lab in per_packet[pads[0]]:
        vals = [f"{k}: {per_packet[k][lab]:.1f}" for k in pads
                if per_packet[k].get(lab)]
        b.notes.append(f"ctfmux, {lab}: wall us per packet by inputs: "
                       + ", ".join(vals))


# ---------------------------------------------------------------- main

def record_debuginfo(iters):
    """tests/data/debuginfo/record.sh with iters loops (13 events with an
    ip context per loop: about 1 M events for 80 000), its binaries kept
    beside the trace under INPUTS/debuginfo-N/target."""
    dest = os.path.join(INPUTS, f"debuginfo-{iters}")
    if os.path.isdir(os.path.join(dest, "target")):
        return dest
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(INPUTS, exist_ok=True)
    print(f"recording {dest} ...", file=sys.stderr)
    script = os.path.join(TOP, "tests", "data", "debuginfo", "record.sh")
    tmp = tempfile.mkdtemp(prefix="gst-ctf-bench-di-")
    os.chmod(tmp, 0o777)
    cmd = ["bash", script, os.path.join(tmp, "out"), str(iters), "1M"]
    if os.geteuid() == 0:
        subprocess.run(["bash", os.path.join(HERE, "with-sessiond.sh"),
                        "--"] + cmd, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["chown", "-R", f"{os.getuid()}:{os.getgid()}", tmp],
                       check=True)
    else:
        ensure_sessiond()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    os.makedirs(dest)
    shutil.move(os.path.join(tmp, "out"), os.path.join(dest, "trace"))
    os.makedirs(os.path.join(dest, "target", "tmp"))
    shutil.copytree("/tmp/gst-ctf-debuginfo",
                    os.path.join(dest, "target", "tmp", "gst-ctf-debuginfo"))
    shutil.rmtree(tmp, ignore_errors=True)
    return dest


def job_debuginfo(b, iters):
    """ctfdebuginfo beside babeltrace2 --debug-info (issue 29), and both
    without debug info for the cost of the field."""
    if not have_element("ctfdebuginfo"):
        return b.skip("debug info", "ctfdebuginfo not built")
    top = record_debuginfo(iters)
    trace = trace_dir(os.path.join(top, "trace"))
    tgt = os.path.join(top, "target")
    dbg = os.path.join(tgt, "tmp", "gst-ctf-debuginfo", "debug")
    settle([top], b.args.drop_caches)
    n, size = b.ctf_events(trace), du_bytes(trace)
    ours = "gst-ctf ctfsrc ! ctfdebuginfo ! ctftextsink"
    peer = "babeltrace2 --debug-info > /dev/null"
    b.measure("debug info", [
        (ours, gst(f"ctfsrc location={trace}", "! ctfdebuginfo",
                   f"target-prefix={tgt} debug-info-dir={dbg}",
                   "! ctftextsink location=/dev/null"), None),
        (peer, ["babeltrace2", "--debug-info",
                f"--debug-info-target-prefix={tgt}",
                f"--debug-info-dir={dbg}", trace], None),
        ("gst-ctf ctfsrc ! ctfdebuginfo ! ctfsink",
         gst(f"ctfsrc location={trace}", "! ctfdebuginfo",
             f"target-prefix={tgt} debug-info-dir={dbg}",
             f"! ctfsink location={b.out()}"), None),
        ("babeltrace2 --debug-info -o ctf",
         ["babeltrace2", "--debug-info", f"--debug-info-target-prefix={tgt}",
          f"--debug-info-dir={dbg}", trace, "-o", "ctf", "-w",
          b.out("bt2")], None),
        ("gst-ctf ctfsrc ! ctftextsink (no debug info)",
         gst(f"ctfsrc location={trace}", "! ctftextsink location=/dev/null"),
         None),
        ("babeltrace2 > /dev/null (no debug info)", ["babeltrace2", trace],
         None),
    ], n, size, peers_of={peer: ours, "babeltrace2 --debug-info -o ctf":
                          "gst-ctf ctfsrc ! ctfdebuginfo ! ctfsink"})


def job_live(b, build):
    """Issue 17: bench/live-latency.py (real LTTng daemons, root); its
    table goes to the notes, its columns are not the jobs' ones."""
    if not have_element("lttnglivesrc"):
        b.skip("live", "lttnglivesrc is not built")
        return
    r = subprocess.run([sys.executable,
                        os.path.join(TOP, "bench", "live-latency.py"),
                        "--build", build, "--probe"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        b.skip("live", (r.stderr.strip().splitlines() or ["failed"])[-1])
        return
    b.notes.append("live latency (lttnglivesrc ! ctftextsink beside "
                   "babeltrace2 net://, bench/live-latency.py):\n\n"
                   + r.stdout.rstrip())


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-r", "--reps", type=int, default=5,
                    help="rounds (default 5)")
    ap.add_argument("--ust-iters", type=int, default=250000,
                    help="custom-2cpu iterations of the main input "
                    "(default 250000: 173 MB, 2.96 M events)")
    ap.add_argument("--ctf", help="main CTF input instead of recording one")
    ap.add_argument("--ctf2", nargs=2, metavar="T",
                    help="the two CTF inputs of the merge job (default: two "
                    "recorded traces of half the main size)")
    ap.add_argument("--tracedat", help="trace.dat input instead of recording")
    ap.add_argument("--tracedat-seconds", type=int, default=30,
                    help="workload seconds of the recorded trace.dat "
                    "(default 30: about 2.5 M events)")
    ap.add_argument("--window", type=float, default=0.01,
                    help="window fraction of the time span (default 0.01)")
    ap.add_argument("--rss-sizes", default="100M,2G",
                    help="input sizes of the peak RSS job (default 100M,2G)")
    ap.add_argument("--lttng0", help="LTTng 0.x trace directory of the "
                    "lttng0 job (default: the corpus' 8-CPU trace)")
    ap.add_argument("--jobs", default="ctf2ctf,decode,text,window,merge,"
                    "tracedat,lttng0,rss", help="any of ctf2ctf, decode, text, "
                    "window, merge, tracedat, lttng0, rss (default: these), "
                    "perpid, streams256, muxpads (issue 21), jsonl, filter "
                    "(issue 19), ctf2 (issue 16), live (issue 17), "
                    "debuginfo (issue 29), perfetto (issue 27)")
    ap.add_argument("--debuginfo-iters", type=int, default=80000,
                    help="loops of tests/data/debuginfo/record.sh for the "
                    "debuginfo job (default 80000: about 1 M events with "
                    "an ip context)")
    ap.add_argument("--perpid-sizes", default="100,300,1000,3000",
                    help="traces of the per-PID sessions (perpid job; "
                    "recorded with bench/record-perpid.sh)")
    ap.add_argument("--scale-iters", type=int, default=50000,
                    help="custom-2cpu iterations (16 KiB packets) of the "
                    "trace dealt over 256 streams (streams256) or over the "
                    "ctfmux inputs (muxpads); default 50000: 35 MB")
    ap.add_argument("--mux-pads", default="2,16,64,256",
                    help="ctfmux inputs of the muxpads job")
    default_build = os.path.join(TOP, "build-perf")
    if not os.path.isdir(default_build):
        default_build = os.path.join(TOP, "build")
    ap.add_argument("--build", default=default_build,
                    help="meson build dir (default build-perf, else build)")
    ap.add_argument("--scratch", default=None,
                    help="directory for outputs (default $TMPDIR)")
    ap.add_argument("--no-drop-caches", dest="drop_caches",
                    action="store_false",
                    help="do not drop the page cache before each job (it "
                    "is dropped only when running as root)")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)

    os.environ.update(TZ="UTC", LC_ALL="C",
                      GST_PLUGIN_PATH=os.path.join(args.build, "plugins"),
                      GST_REGISTRY=os.path.join(tempfile.gettempdir(),
                                                "gst-ctf-bench-registry.bin"))
    os.environ.pop("GST_DEBUG", None)
    subprocess.run(["gst-inspect-1.0", "ctfsrc"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)      # warm the registry

    jobs = args.jobs.split(",")
    b = Bench(args)
    main_jobs = {"ctf2ctf", "decode", "text", "window", "jsonl", "filter",
                 "ctf2", "perfetto"}
    trace = args.ctf or (record_ust(args.ust_iters)
                         if main_jobs & set(jobs) else None)
    load0 = os.getloadavg()
    t0 = time.time()
    print(f"# gst-ctf benchmark, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"machine: {machine()}")
    print(f"tools: {tool_versions()}")
    print(f"build: {args.build}")
    if trace:
        print(f"main input: {trace} ({du_bytes(trace) / 1e6:.1f} MB, "
              f"{b.ctf_events(trace)} events); {args.reps} rounds, medians")
    else:
        print(f"{args.reps} rounds, medians")
    print(f"load average at start: {load0[0]:.2f}")
    print("page cache: synced, "
          + ("dropped" if args.drop_caches and os.geteuid() == 0 else
             "not dropped")
          + " and the job's inputs read once before each job\n", flush=True)

    print("| job | command | wall s | CPU s | ns/event | MB/s | "
          "peak RSS MiB | vs ours (wall / CPU) | |")
    print("|---|---|---|---|---|---|---|---|---|", flush=True)
    printed = 0
    for j in jobs:
        if j == "merge":
            t1, t2 = args.ctf2 or (record_ust(args.ust_iters // 2, "-a"),
                                   record_ust(args.ust_iters // 2, "-b"))
            settle([t1, t2], args.drop_caches)
        elif j in ("tracedat", "filter", "perfetto"):
            dat = args.tracedat or record_tracedat(args.tracedat_seconds)
            settle([dat] + ([trace] if j in ("filter", "perfetto") else []),
                   args.drop_caches)
        elif j in ("rss", "lttng0", "perpid", "streams256", "muxpads",
                   "live", "debuginfo"):
            settle([], args.drop_caches)
        else:
            settle([trace], args.drop_caches)
        if j == "ctf2ctf":
            job_ctf2ctf(b, trace)
        elif j == "decode":
            job_decode(b, trace)
        elif j == "text":
            job_text(b, trace)
        elif j == "window":
            job_window(b, trace, args.window)
        elif j == "ctf2":
            job_ctf2(b, trace)
        elif j == "merge":
            job_merge(b, t1, t2)
        elif j == "tracedat":
            job_tracedat(b, dat)
        elif j == "jsonl":
            job_jsonl(b, trace)
        elif j == "perfetto":
            job_perfetto(b, trace, dat)
        elif j == "filter":
            job_filter(b, trace, dat)
        elif j == "lttng0":
            job_lttng0(b, args.lttng0 or ltt0_input())
        elif j == "rss":
            job_rss(b, args.rss_sizes.split(","))
        elif j == "perpid":
            job_perpid(b, [int(x) for x in args.perpid_sizes.split(",")])
        elif j == "streams256":
            job_streams(b, 256, args.scale_iters)
        elif j == "muxpads":
            job_muxpads(b, [int(x) for x in args.mux_pads.split(",")],
                        args.scale_iters)
        elif j == "live":
            job_live(b, args.build)
        elif j == "debuginfo":
            job_debuginfo(b, args.debuginfo_iters)
        else:
            sys.exit(f"unknown job {j}")
        sys.stderr.write(f"[{j} done, {time.time() - t0:.0f} s]\n")
        # rows as each job ends, so that an interrupted run still shows them
        for r in b.rows[printed:]:
            print("| " + " | ".join(r) + " |")
        printed = len(b.rows)
        sys.stdout.flush()
    print()
    for note in b.notes:
        print(f"- {note}")
    load1 = os.getloadavg()
    print(f"- load average at end: {load1[0]:.2f}; "
          f"run took {time.time() - t0:.0f} s")
    print("- 'vs ours' = the tool's time / our time (> 1: ours is faster); "
          "for cp -r, 1/x is our fraction of its throughput")
    shutil.rmtree(b.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
