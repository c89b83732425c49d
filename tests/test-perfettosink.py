#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""perfettosink against the reference tools, decoding its output with
Perfetto's own trace proto (../shared/perfetto/perfetto_trace.proto,
compiled with protoc for python3-protobuf):

- every trace.dat (corpus and bundled): per CPU, the ftrace events equal
  `trace-cmd report -R -t`'s in count, time stamps (ns) and names (typed
  events by their message, `sys_enter`/`sys_exit` by the report's
  `__syscall_nr`); every sched_switch and sched_waking has the report's
  pids, comms, prios and state (those in compact_sched rebuilt as
  trace_processor does); the events the ring buffer lost are instants
  with the report's "EVENTS DROPPED" counts; every pid the report names is named in the process tree;
  where Debian's trace-cmd cannot read a file (zlib) the corpus oracle
  (us) is the reference;
- the same files through `tracecmdsrc lttng-compat=true ! ctfsink` and
  back through `ctfsrc ! perfettosink`: the same scheduling events;
- every LTTng-UST trace (corpus CTF 1.8 and CTF 2, bundled examples):
  the track events equal babeltrace2's text in count, time order, names
  and the values of every scalar field;
- a trace that fails in the middle: an error, and a file that decodes to
  its last packet, which says it is truncated;
- a file that is not a Perfetto trace is never replaced, an existing
  trace only with overwrite=true.

Without ../shared (no proto, no corpus) the bundled trace.dat files are
still checked at the wire level (events per CPU and time stamps).

Usage: test-perfettosink.py SOURCE_ROOT GST_LAUNCH PROTOC [ASAN_RUNTIME]
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

root, gst_launch, protoc = sys.argv[1], sys.argv[2], sys.argv[3]
env = dict(os.environ, TZ="UTC", LC_ALL="C")
if len(sys.argv) > 4 and sys.argv[4]:
    env["LD_PRELOAD"] = sys.argv[4]
tool_env = dict(env)            # the reference tools without the sanitizer
tool_env.pop("LD_PRELOAD", None)
# trace-cmd 3.1.6 prints raw ns times for some MALLOC_PERTURB_ values
tool_env.pop("MALLOC_PERTURB_", None)
corpus = os.environ.get("GST_CTF_CORPUS", "")
have_corpus = bool(corpus) and os.path.isdir(corpus)
proto_dir = os.path.join(root, "..", "shared", "perfetto")
tmp = tempfile.mkdtemp(prefix="perfettosink-")
failures = []
pb = None


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def launch(desc, expect_ok=True):
    r = subprocess.run([gst_launch, "-q"] + desc, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600)
    if expect_ok and r.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(desc), r.stderr.decode()))
    return r


def to_perfetto(src_desc, out):
    if os.path.exists(out):
        os.unlink(out)
    launch(src_desc + ["!", "perfettosink", "location=" + out])
    with open(out, "rb") as f:
        return f.read()


# -- decoding ---------------------------------------------------------------

def wire_fields(buf):
    """(field, wire type, value) of one protobuf message."""
    i, n = 0, len(buf)
    while i < n:
        key, i = varint(buf, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 2:
            ln, i = varint(buf, i)
            v = buf[i:i + ln]
            if len(v) != ln:
                raise ValueError("length past the end")
            i += ln
        elif wt == 1:
            v, i = buf[i:i + 8], i + 8
        elif wt == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wt)
        yield f, wt, v


def varint(buf, i):
    v = s = 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << s
        s += 7
        if b < 0x80:
            return v, i


def wire_ftrace(data):
    """Without the proto: {cpu: [timestamp, ...]} of every FtraceEvent."""
    per_cpu = collections.defaultdict(list)
    for f, wt, pkt in wire_fields(data):
        assert f == 1 and wt == 2, "not a Trace"
        for pf, _, bundle in wire_fields(pkt):
            if pf != 1:         # TracePacket.ftrace_events
                continue
            cpu, events = 0, []
            for bf, _, v in wire_fields(bundle):
                if bf == 1:
                    cpu = v
                elif bf == 2:
                    events.append(dict((ef, ev) for ef, _, ev in
                                       wire_fields(v))[1])
                elif bf == 4:   # compact_sched: delta-coded times
                    for cf, _, arr in wire_fields(v):
                        if cf in (1, 7):
                            t, i = 0, 0
                            while i < len(arr):
                                d, i = varint(arr, i)
                                t += d
                                events.append(t)
            per_cpu[cpu] += events
    return per_cpu


def decode(data):
    t = pb.Trace()
    t.ParseFromString(data)
    return t


TYPED = None


SWITCH = ("prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm",
          "next_pid", "next_prio")
WAKING = ("comm", "pid", "prio", "target_cpu")


class Ev:
    """One ftrace event: typed, generic or from a bundle's compact_sched."""

    def __init__(self, ts, name, pid, msg=None, fields=None):
        self.ts, self.name, self.pid, self.msg = ts, name, pid, msg
        self.fields = fields or {}


def ftrace_events(trace):
    """{cpu: [Ev]} in time order, tasks {tid: {names}}.  The compact
    sched_switch events get their prev_* (and both compact kinds their
    task) from the CPU's previous switch, as trace_processor does."""
    per_cpu = collections.defaultdict(list)
    tasks = collections.defaultdict(set)
    for k, p in enumerate(trace.packet):
        if p.HasField("ftrace_events"):
            b = p.ftrace_events
            for i, e in enumerate(b.event):
                kind = e.WhichOneof("event")
                name = e.generic.event_name if kind == "generic" else kind
                ev = Ev(e.timestamp, name, e.pid, e)
                if kind == "sched_switch":
                    ev.fields = {f: getattr(e.sched_switch, f)
                                 for f in SWITCH}
                per_cpu[b.cpu].append(((e.timestamp, k, 0, i), ev))
            c = b.compact_sched
            t = 0
            for i, dt in enumerate(c.switch_timestamp):
                t += dt
                ev = Ev(t, "sched_switch", None, None, {
                    "prev_state": c.switch_prev_state[i],
                    "next_pid": c.switch_next_pid[i],
                    "next_prio": c.switch_next_prio[i],
                    "next_comm": c.intern_table[c.switch_next_comm_index[i]]})
                per_cpu[b.cpu].append(((t, k, 1, i), ev))
            t = 0
            for i, dt in enumerate(c.waking_timestamp):
                t += dt
                ev = Ev(t, "sched_waking", None, None, {
                    "comm": c.intern_table[c.waking_comm_index[i]],
                    "pid": c.waking_pid[i], "prio": c.waking_prio[i],
                    "target_cpu": c.waking_target_cpu[i]})
                per_cpu[b.cpu].append(((t, k, 1, i), ev))
        if p.HasField("process_tree"):
            for th in p.process_tree.threads:
                tasks[th.tid].add(th.name)
    out = {}
    for cpu, evs in per_cpu.items():
        evs.sort(key=lambda x: x[0])
        running = None          # the CPU's last switch
        for _, ev in evs:
            if ev.pid is None and running is not None:
                ev.pid = running["next_pid"]
                if ev.name == "sched_switch":
                    ev.fields.update(prev_comm=running["next_comm"],
                                     prev_pid=running["next_pid"],
                                     prev_prio=running["next_prio"])
            if ev.name == "sched_switch":
                running = ev.fields
        out[cpu] = [ev for _, ev in evs]
    return out, tasks


# -- trace-cmd report ---------------------------------------------------------

REPORT_RE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+):"
                       r"\s*(.*)$")
DROPPED_RE = re.compile(r"^\s*CPU:(\d+) \[(\d+) EVENTS DROPPED\]")
drops = collections.Counter()   # the last report's, by CPU
SYSCALL_RE = re.compile(r"^(sys_enter|sys_exit)_.*$")
REPORT_LINE_RE = re.compile(rb"\[\d+\]\s+\d+\.\d+:", re.M)
KEY_RE = re.compile(r"(?:^| )([A-Za-z_][A-Za-z0-9_]*)=")


def num(text):
    return int(text, 16) if text.startswith("0x") else int(text)


def raw_fields(text):
    out = {}
    keys = list(KEY_RE.finditer(text))
    for k, m in enumerate(keys):
        end = keys[k + 1].start() if k + 1 < len(keys) else len(text)
        out[m.group(1)] = text[m.end():end].strip()
    return out


def report(dat, oracle_raw):
    """{cpu: [(ts ns, name, comm, pid, fields)]}, unit of ts (1 or 1000)."""
    text = None
    # trace-cmd now, for ns (it once gave no events on a loaded machine:
    # asked again, then the oracle)
    for _ in range(2 if shutil.which("trace-cmd") else 0):
        r = subprocess.run(["trace-cmd", "report", "-R", "-t", "-i", dat],
                           env=tool_env, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        if r.returncode == 0 and REPORT_LINE_RE.search(r.stdout):
            text, unit = r.stdout.decode("utf-8", "replace"), 1
            break
    if text is not None:
        pass
    elif oracle_raw and os.path.exists(oracle_raw):
        text, unit = open(oracle_raw, encoding="utf-8",
                          errors="replace").read(), 1000
    else:
        return None, None
    per_cpu = collections.defaultdict(list)
    drops.clear()
    for line in text.splitlines():
        d = DROPPED_RE.match(line)
        if d:
            drops[int(d.group(1))] += int(d.group(2))
        m = REPORT_RE.match(line)
        if not m:
            continue
        comm, pid, cpu, s, frac, name, rest = m.groups()
        ns = int(s) * 1000000000 + int(frac.ljust(9, "0")[:9])
        per_cpu[int(cpu)].append((ns, name, comm.strip(), int(pid), rest))
    return per_cpu, unit


def check_tracedat(dat, oracle_raw):
    label = os.path.relpath(dat, root)
    out = os.path.join(tmp, "t.pftrace")
    data = to_perfetto(["tracecmdsrc", "location=" + dat], out)
    want, unit = report(dat, oracle_raw)
    if want is None:
        print("SKIP %s: trace-cmd cannot read it and no oracle" % label)
        return None
    if pb is None:
        got = wire_ftrace(data)
        for cpu in set(want) | set(got):
            w = [x[0] for x in want.get(cpu, [])]
            g = sorted((t + unit // 2) // unit * unit
                       for t in got.get(cpu, []))
            if w != g:
                fail("%s CPU %d: %d events, report %d (or times differ)" %
                     (label, cpu, len(g), len(w)))
        print("ok %s (wire level: %d events)" % (label, sum(
            len(v) for v in got.values())))
        return None
    trace = decode(data)
    got, tasks = ftrace_events(trace)
    n = 0
    for cpu in sorted(set(want) | set(got)):
        w, g = want.get(cpu, []), got.get(cpu, [])
        if len(w) != len(g):
            fail("%s CPU %d: %d ftrace events, report %d" %
                 (label, cpu, len(g), len(w)))
            continue
        # events of one time stamp in name order on both sides
        # (stable: sys_enter_NAME is our sys_enter, in the same order)
        w = sorted(w, key=lambda x: (x[0], SYSCALL_RE.sub(r"\1", x[1])))
        g = sorted(g, key=lambda x: ((x.ts + unit // 2) // unit * unit,
                                     x.name))
        for (wt, wn, comm, pid, rest), e in zip(w, g):
            n += 1
            gt, gn = e.ts, e.name
            # trace-cmd report rounds to the nearest us without -t
            if (gt + unit // 2) // unit * unit != wt:
                fail("%s CPU %d: event at %d ns, report %d" %
                     (label, cpu, gt, wt))
                break
            f = raw_fields(rest)
            if gn in ("sys_enter", "sys_exit") and wn != gn:
                ok = wn.startswith(gn + "_") and \
                    int(f.get("__syscall_nr", -1)) == \
                    getattr(e.msg, gn).id
            else:
                ok = gn == wn
            if not ok:
                fail("%s CPU %d at %d: %s, report %s" %
                     (label, cpu, wt, gn, wn))
                break
            if e.pid != pid:
                fail("%s CPU %d at %d (%s): pid %s, report %d" %
                     (label, cpu, wt, gn, e.pid, pid))
                break
            keys = SWITCH if gn == "sched_switch" else \
                WAKING if gn == "sched_waking" else ()
            mine = {k: e.fields.get(k, getattr(e.msg, gn).__getattribute__(k)
                                    if e.msg is not None else None)
                    for k in keys}
            theirs = {k: (f.get(k) if k.endswith("comm") else
                          num(f.get(k, "-1"))) for k in keys}
            if mine != theirs:
                fail("%s CPU %d at %d: %s %s, report %s" %
                     (label, cpu, wt, gn, mine, theirs))
                break
            # several buffers: report shows "INSTANCE:   COMM"
            if pid != 0 and comm != "<...>" and not any(
                    comm == t or re.match(r"^\S+:\s+" + re.escape(t) + "$",
                                          comm)
                    for t in tasks.get(pid, ())):
                fail("%s: pid %d (%s) not named in the process tree (%s)" %
                     (label, pid, comm, tasks.get(pid)))
                break
    # what the ring buffer lost: instants "tracer discarded N events" on
    # the CPU's track, as many as report's "CPU:N [N EVENTS DROPPED]"
    tracks = {p.track_descriptor.uuid: p.track_descriptor.name
              for p in trace.packet if p.HasField("track_descriptor")}
    lost = collections.Counter()
    for p in trace.packet:
        if p.HasField("track_event"):
            m = re.match(r"tracer discarded (\d+) events$",
                         p.track_event.name)
            c = re.match(r"CPU (\d+) ", tracks.get(
                p.track_event.track_uuid, ""))
            if m and c:
                lost[int(c.group(1))] += int(m.group(1))
    if lost != drops:
        fail("%s: discarded events %s, report %s" % (label, dict(lost),
                                                      dict(drops)))
    print("ok %s: %d ftrace events, %d lost" % (label, n,
                                                 sum(lost.values())))
    return got


SCHED = ("sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
         "sched_process_fork", "sched_process_exit", "sched_process_free")


def sched_events(per_cpu):
    return {cpu: [(e.ts, e.name, e.pid, sorted(e.fields.items()) or
                   str(e.msg).replace("\n", " "))
                  for e in evs if e.name in SCHED]
            for cpu, evs in per_cpu.items()}


def check_lttng_compat(dat, direct):
    label = os.path.relpath(dat, root)
    kdir = os.path.join(tmp, "kernel")
    shutil.rmtree(kdir, ignore_errors=True)
    launch(["tracecmdsrc", "location=" + dat, "lttng-compat=true", "!",
            "ctfsink", "location=" + kdir])
    data = to_perfetto(["ctfsrc", "location=" + kdir],
                       os.path.join(tmp, "k.pftrace"))
    got, _ = ftrace_events(decode(data))
    a, b = sched_events(direct), sched_events(got)
    for cpu in sorted(set(a) | set(b)):
        if a.get(cpu, []) != b.get(cpu, []):
            x, y = a.get(cpu, []), b.get(cpu, [])
            diff = next((i for i in range(min(len(x), len(y)))
                         if x[i] != y[i]), min(len(x), len(y)))
            fail("%s lttng-compat CPU %d: %d sched events, direct %d; first "
                 "difference: %s / %s" % (label, cpu, len(y), len(x),
                                           y[diff:diff + 1], x[diff:diff + 1]))
            return
    print("ok %s lttng-compat: %d sched events" %
          (label, sum(len(v) for v in b.values())))


# -- babeltrace2 text ---------------------------------------------------------

BT_RE = re.compile(r"^\[(\d\d):(\d\d):(\d\d)\.(\d{9})\] \([^)]*\) \S+ (\S+): ")


def bt2_events(path):
    out = []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = BT_RE.match(line)
        if m:
            h, mi, s, ns, name = m.groups()
            t = ((int(h) * 60 + int(mi)) * 60 + int(s)) * 10**9 + int(ns)
            out.append((t, name, line))
    return out


def scalar_ok(name, a, line):
    kind = a.WhichOneof("value")
    pre = re.escape(name) + r" = (?:\( [^)]*: container = )?"
    if kind in ("int_value", "uint_value"):
        return re.search(r"(?:^|[ {,])" + pre + str(getattr(a, kind)) +
                         r"\b", line) is not None
    if kind == "pointer_value":
        return re.search(r"(?:^|[ {,])" + pre + "0x%X\\b" % a.pointer_value,
                         line, re.I) is not None
    if kind == "string_value":
        s = a.string_value
        # babeltrace2 2.0 shows a recycled value for a text sequence of
        # length 0 (lib/ctf/text/gstctf-text-values.c object_text())
        if s and all(0x20 <= ord(c) < 0x7F and c not in "\"\\" for c in s):
            return (' %s = "%s"' % (name, s)) in line
    return (" %s = " % name) in line


def check_ust(trace_dir, oracle):
    label = os.path.relpath(trace_dir, root)
    data = to_perfetto(["ctfsrc", "location=" + trace_dir],
                       os.path.join(tmp, "u.pftrace"))
    trace = decode(data)
    names, anames, got = {}, {}, []
    for p in trace.packet:
        if p.HasField("interned_data"):
            for x in p.interned_data.event_names:
                names[x.iid] = x.name
            for x in p.interned_data.debug_annotation_names:
                anames[x.iid] = x.name
        if p.HasField("track_event") and p.track_event.name_iid:
            got.append((p.timestamp % (86400 * 10**9),
                        names[p.track_event.name_iid], p.track_event))
    want = bt2_events(oracle)
    got.sort(key=lambda x: x[0])
    if len(got) != len(want):
        fail("%s: %d track events, babeltrace2 %d" %
             (label, len(got), len(want)))
        return
    by_key = collections.defaultdict(list)
    for t, n, line in want:
        by_key[t].append((n, line))
    for (gt, gn, te), (wt, wn, _) in zip(got, want):
        if gt != wt:
            fail("%s: event at %d, babeltrace2 %d (%s)" % (label, gt, wt, wn))
            return
        lines = [line for n, line in by_key[gt]
                 if n == gn or (te.type == te.TYPE_SLICE_BEGIN and
                                n.startswith(gn + "_"))]
        if not lines:
            fail("%s at %d: %s not among babeltrace2's %s" %
                 (label, gt, gn, [n for n, _ in by_key[gt]]))
            return
        for a in te.debug_annotations:
            an = anames[a.name_iid]
            if not any(scalar_ok(an, a, line) for line in lines):
                fail("%s at %d %s: %s = %s not in babeltrace2's %s" %
                     (label, gt, gn, an, str(a).replace("\n", " "), lines[0]))
                return
    print("ok %s: %d track events" % (label, len(got)))


# -- bad input ----------------------------------------------------------------

def check_truncated():
    src = os.path.join(root, "examples", "traces", "ust-sample")
    copy = os.path.join(tmp, "bad")
    shutil.copytree(src, copy)
    stream = None
    for d, _, files in os.walk(copy):
        for f in sorted(files):
            p = os.path.join(d, f)
            if f != "metadata" and os.path.isfile(p) and \
                    open(p, "rb").read(4) == b"\xc1\x1f\xfc\xc1":
                stream = stream or p
    data = bytearray(open(stream, "rb").read())
    # the magic of the stream's last packet (packets start with it)
    last = data.rfind(b"\xc1\x1f\xfc\xc1")
    assert last > 0, "one packet only"
    data[last:last + 4] = b"\0\0\0\0"
    open(stream, "wb").write(data)
    out = os.path.join(tmp, "bad.pftrace")
    r = launch(["ctfsrc", "location=" + copy, "!", "perfettosink",
                "location=" + out], expect_ok=False)
    if r.returncode == 0 or b"magic" not in r.stderr:
        fail("corrupt packet: exit %d, %s" % (r.returncode, r.stderr))
    if not os.path.exists(out) or os.path.exists(
            os.path.join(tmp, ".bad.pftrace.part")):
        fail("corrupt packet: no %s, or its .part left" % out)
        return
    data = open(out, "rb").read()
    packets = [v for _, _, v in wire_fields(data)]      # whole packets
    if pb is not None:
        t = decode(data)
        last = t.packet[-1]
        if not (last.HasField("track_event") and
                "truncated" in last.track_event.name and
                "magic" in last.track_event.name):
            fail("corrupt packet: last packet %s" % last)
    print("ok corrupt packet: %d whole TracePackets, then the error" %
          len(packets))


def check_overwrite():
    """Never replaces what it did not write."""
    src = ["ctfsrc", "location=" +
           os.path.join(root, "examples", "traces", "ust-sample")]
    other = os.path.join(tmp, "notes.txt")
    with open(other, "w") as f:
        f.write("not a trace\n")
    for extra in ([], ["overwrite=true"]):
        r = launch(src + ["!", "perfettosink", "location=" + other] + extra,
                   expect_ok=False)
        if r.returncode == 0 or open(other).read() != "not a trace\n":
            fail("perfettosink %s replaced a file that is not a Perfetto "
                 "trace" % extra)
    out = os.path.join(tmp, "again.pftrace")
    first = to_perfetto(src, out)
    r = launch(src + ["!", "perfettosink", "location=" + out],
               expect_ok=False)
    if r.returncode == 0 or b"overwrite=true" not in r.stderr:
        fail("an existing trace was replaced without overwrite=true")
    launch(src + ["!", "perfettosink", "location=" + out, "overwrite=true"])
    if open(out, "rb").read() != first:
        fail("overwrite=true did not write the same trace again")
    print("ok overwrite rules")


def main():
    global pb
    try:
        import google.protobuf  # noqa: F401  (python3-protobuf)
        have_pb = True
    except ImportError:
        have_pb = False
    if os.path.exists(os.path.join(proto_dir, "perfetto_trace.proto")) and \
            protoc and os.path.exists(protoc) and have_pb:
        gen = os.path.join(tmp, "gen")
        os.makedirs(gen)
        subprocess.run([protoc, "--python_out=" + gen, "-I", proto_dir,
                        os.path.join(proto_dir, "perfetto_trace.proto")],
                       check=True)
        sys.path.insert(0, gen)
        import perfetto_trace_pb2
        pb = perfetto_trace_pb2
    else:
        print("SKIP decoding with perfetto_trace.proto: ../shared/perfetto, "
              "protoc or python3-protobuf is absent; wire-level checks of "
              "the bundled trace.dat files only (the GST_CTF_CORPUS checks "
              "need ../shared)")

    dats = []
    for sub in ("tracecmd", "tracecmdsrc"):
        d = os.path.join(root, "tests", "data", sub)
        for f in sorted(os.listdir(d)):
            if f.endswith(".dat"):
                dats.append((os.path.join(d, f),
                             os.path.join(d, "oracle", f + ".raw.txt")))
    if have_corpus:
        for sub in ("tracedat", "tracedat/public"):
            d = os.path.join(corpus, sub)
            for f in sorted(os.listdir(d)):
                if f.endswith(".dat"):
                    dats.append((os.path.join(d, f),
                                 os.path.join(d, "oracle", f + ".raw.txt")))
    else:
        print("SKIP corpus traces: GST_CTF_CORPUS (%s) is absent" % corpus)
    for dat, oracle in dats:
        got = check_tracedat(dat, oracle)
        if got is not None:
            check_lttng_compat(dat, got)
    check_truncated()
    check_overwrite()
    if pb is None:
        return
    ust = [(os.path.join(root, "examples", "traces", n),
            os.path.join(root, "examples", "traces", n + ".babeltrace2.txt"))
           for n in ("ust-libc", "ust-sample")]
    if have_corpus:
        d = os.path.join(corpus, "ctf", "lttng-ust")
        ust += [(os.path.join(d, n), os.path.join(d, "oracle", n + ".txt"))
                for n in sorted(os.listdir(d))
                if os.path.exists(os.path.join(d, "oracle", n + ".txt"))]
        d = os.path.join(corpus, "ctf2", "converted")
        ust += [(os.path.join(d, n), os.path.join(d, "oracle", n + ".txt"))
                for n in sorted(os.listdir(d)) if n.startswith("lttng-ust_")]
        d = os.path.join(corpus, "ctf2", "lttng-2.15")
        ust += [(os.path.join(d, n), os.path.join(d, "oracle", n + ".txt"))
                for n in sorted(os.listdir(d))
                if os.path.exists(os.path.join(d, "oracle", n + ".txt"))]
    for trace_dir, oracle in ust:
        check_ust(trace_dir, oracle)


try:
    main()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
