#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gst-ctf-viewer next to KernelShark on the same trace (issue 26): time
until loaded, time to the first rows, zoom/pan redraw percentiles and
peak RSS, N rounds alternating the programs, medians.

One Xvfb server (1700x1050x24) is started for the whole run and every
program is a direct child of this script, so its peak RSS is its own
(wait4's ru_maxrss, or VmHWM from /proc when the program is stopped by
us).  GTK runs with GSK_RENDERER=cairo GDK_DEBUG=gl-disable, as the tests.
Our window is 1610x1000: its timeline is then 1600 px wide.

Methods (the same clock, time.monotonic, from just before exec):
- ours, "exit": `gst-ctf-viewer --quit-after-load --size 1610x1000 TRACE`
  until it exits, minus the 0.5 s the viewer waits after the index is
  complete before quitting (frames for the rows to be drawn): index
  complete + start-up + exit.
- "idle" (both programs, same method): the program is polled every 10 ms;
  once its X window is mapped (`xdotool search --pid`), "loaded" is the
  last instant its CPU time (utime + stime from /proc/PID/stat) grew
  before it stayed still for 0.5 s; its VmHWM is then read and it is
  killed (SIGTERM).  KernelShark has no option to quit after loading, so
  this is how it is timed; ours is timed the same way for a fair ratio.
  The resolution is the 10 ms poll and the kernel's CPU-time tick.
- "probe": `gst-ctf-viewer --bench FILE.json TRACE`
  (viewer/gst-ctf-viewer-probe.c): on the viewer's frame clock, the end
  of the first frame painted with rows in the table, the index complete,
  the first frame after it (the timeline drawn from the whole summary),
  then a sweep of 40 zoom levels (whole trace down to 1 us across the
  1600 px timeline) x 4 pan positions, each frame's paint phase timed:
  p50/p95/max.  Its times count from the viewer's main(); the time from
  exec to main() (this script's clock and the viewer's are both
  CLOCK_MONOTONIC) is added, so "first rows" is from exec.
- "empty": the same viewer with no trace: `--bench` writes its peak RSS
  0.3 s after its first frame was painted: the baseline of the memory
  target (peak RSS above an empty window).  The idle method's figure for
  the empty viewer is printed too.

KernelShark refuses to load a trace as root until a modal warning is
answered (KsMainWindow::_rootWarning), so as root it runs as `nobody`
(setpriv, as bench/with-sessiond.sh) with a HOME and XDG_RUNTIME_DIR of
its own; the trace must be readable by nobody.

Usage: bench/viewer.py [-n ROUNDS] [--build DIR] [--no-kernelshark]
                       [--no-probe] TRACE...
       bench/viewer.py --record-ust DIR    # the LTTng-UST inputs, below
KernelShark is Debian's `kernelshark` (apt-get install kernelshark
xdotool); it opens trace.dat files only.

--record-ust DIR records, with ../shared/corpus/record-lttng-ust.sh
(custom-2cpu kind, 1 MiB packets, 16 per stream, as bench/bench.py's
inputs), DIR/ust-311000/custom-2cpu (3 677 504 events, 215 MB) and
DIR/ust-3030000/custom-2cpu (2.19 GB), under a session daemon of its own
(bench/with-sessiond.sh) when root.  Put them outside the repository.
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
AFTER_LOAD_DELAY = 0.5   # viewer/gst-ctf-viewer.c: g_timeout_add (500, after_load)
SIZE = ["--size", "1610x1000"]   # a 1600 px timeline
SHARED = os.path.join(os.path.dirname(TOP), "shared", "corpus")
UST_INPUTS = (311000, 3030000)   # custom-2cpu iterations: 3.68 M events, 2 GB
TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def vm_hwm_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def has_window(pid, env):
    r = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid",
                        str(pid)], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return r.returncode == 0 and r.stdout.strip() != b""


def run_exit(cmd, env):
    t0 = time.monotonic()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=null, env=env)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("%s failed" % " ".join(cmd))
    return wall - AFTER_LOAD_DELAY, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def run_probe(viewer, trace, env, tmp):
    """`--bench` (see the docstring): a dict of the probe's figures, times
    from exec; peak RSS from wait4."""
    out = os.path.join(tmp, "probe.json")
    if os.path.exists(out):
        os.unlink(out)
    cmd = [viewer] + SIZE + ["--bench", out] + ([trace] if trace else [])
    t0 = time.monotonic()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=null, env=env)
        _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or not os.path.exists(out):
        raise SystemExit("%s failed" % " ".join(cmd))
    with open(out) as f:
        j = json.load(f)
    j["exec_to_main_s"] = j["main_monotonic_us"] / 1e6 - t0
    j["peak_mib"] = ru.ru_maxrss / 1024.0
    return j


def nobody_cmd(cmd, home):
    """cmd as `nobody` when we are root (KernelShark's root warning)."""
    if os.geteuid() != 0:
        return cmd, {}
    import pwd
    pw = pwd.getpwnam("nobody")
    return (["setpriv", "--reuid=%d" % pw.pw_uid, "--regid=%d" % pw.pw_gid,
             "--clear-groups"] + cmd,
            {"HOME": home, "XDG_RUNTIME_DIR": home})


def record_ust(top):
    """The LTTng-UST inputs of this benchmark, recorded once."""
    for iters in UST_INPUTS:
        dest = os.path.join(top, "ust-%d" % iters)
        if os.path.isdir(os.path.join(dest, "custom-2cpu")):
            print("%s/custom-2cpu: there already" % dest)
            continue
        tmp = tempfile.mkdtemp(prefix="gst-ctf-vbench-rec-")
        os.chmod(tmp, 0o777)
        out = os.path.join(tmp, "out")
        cmd = ["bash", os.path.join(SHARED, "record-lttng-ust.sh"), "-o", out,
               "-k", "custom-2cpu", "-n", str(iters), "-s", "1M", "-c", "16"]
        if os.geteuid() == 0:
            cmd = ["bash", os.path.join(HERE, "with-sessiond.sh"), "--"] + cmd
        else:
            subprocess.run(["sh", "-c", "lttng list >/dev/null 2>&1 || "
                            "lttng-sessiond --daemonize"], check=False)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        if os.geteuid() == 0:
            subprocess.run(["chown", "-R", "%d:%d" % (os.getuid(),
                                                      os.getgid()), tmp],
                           check=True)
        os.makedirs(top, exist_ok=True)
        shutil.move(out, dest)
        shutil.rmtree(tmp, ignore_errors=True)
        print("%s/custom-2cpu recorded" % dest)


class Exited(Exception):
    pass


def run_idle(cmd, env, still=0.5, limit=120.0):
    err = tempfile.TemporaryFile()
    t0 = time.monotonic()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=err, env=env)
    mapped = False
    last_cpu, last_t = -1.0, t0
    try:
        while True:
            time.sleep(0.01)
            now = time.monotonic()
            if p.poll() is not None:
                err.seek(0)
                raise Exited("%s exited (%d): %s" % (
                    " ".join(cmd), p.returncode,
                    err.read().decode(errors="replace")[-600:]))
            if now - t0 > limit:
                raise SystemExit("%s: not idle after %.0f s" % (cmd[0], limit))
            c = cpu_s(p.pid)
            if c != last_cpu:
                last_cpu, last_t = c, now
            if not mapped:
                mapped = has_window(p.pid, env)
                continue
            if now - last_t >= still:
                return last_t - t0, last_cpu, vm_hwm_mib(p.pid)
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        err.close()


def run_ks(cmd, env, tries=3):
    """KernelShark, idle method, tried again when it dies (it was killed by
    SIGABRT once here while starting, under a load of 7): each failure is
    printed with the end of its stderr."""
    for i in range(tries):
        try:
            return run_idle(cmd, env)
        except Exited as e:
            print("  (KernelShark run failed, %s: %s)" % (
                "trying again" if i + 1 < tries else "given up", e))
    return None


def start_xvfb():
    """An Xvfb of our own on a free display (-displayfd: the server picks
    it and tells us), 1700x1050x24."""
    r, w = os.pipe()
    x = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0",
                          "1700x1050x24", "-nolisten", "tcp",
                          # (no reset when the last client leaves: a
                          # program started then could not connect)
                          "-noreset"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         pass_fds=(w,))
    os.close(w)
    with os.fdopen(r) as f:
        n = f.readline().strip()
    if not n:
        x.kill()
        raise SystemExit("cannot start Xvfb")
    return x, ":" + n


def med(xs):
    return statistics.median(xs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--no-kernelshark", action="store_true")
    ap.add_argument("--no-probe", action="store_true",
                    help="leave out the --bench runs")
    ap.add_argument("--record-ust", metavar="DIR",
                    help="record the LTTng-UST inputs into DIR, then stop")
    ap.add_argument("traces", nargs="*")
    a = ap.parse_args()
    if a.record_ust:
        record_ust(a.record_ust)
        return
    if not a.traces:
        ap.error("no trace")

    viewer = os.path.join(a.build, "viewer", "gst-ctf-viewer")
    if not os.access(viewer, os.X_OK):
        raise SystemExit("%s is not built" % viewer)
    ks = None if a.no_kernelshark else shutil.which("kernelshark")
    if not a.no_kernelshark and (ks is None or shutil.which("xdotool") is None):
        print("kernelshark or xdotool missing (apt-get install kernelshark "
              "xdotool): KernelShark skipped", file=sys.stderr)
        ks = None
    if shutil.which("xdotool") is None:
        raise SystemExit("xdotool is needed (apt-get install xdotool)")
    ksv = ""
    if ks is not None:
        r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}",
                            "kernelshark"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        ksv = r.stdout.strip()

    tmp = tempfile.mkdtemp(prefix="gst-ctf-vbench-")
    ks_home = os.path.join(tmp, "kshome")
    os.mkdir(ks_home, 0o700)
    if os.geteuid() == 0:
        import pwd
        os.chown(ks_home, pwd.getpwnam("nobody").pw_uid, -1)
    xvfb, display = start_xvfb()
    env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11",
               GSK_RENDERER="cairo", GDK_DEBUG="gl-disable", NO_AT_BRIDGE="1",
               QT_QPA_PLATFORM="xcb")
    env.pop("WAYLAND_DISPLAY", None)
    row = "%-34s %8s %8s %9s %11s"
    try:
        print("load average: %.2f %.2f %.2f" % os.getloadavg())
        empty_idle = [run_idle([viewer] + SIZE, env) for _ in range(a.n)]
        empty = [run_probe(viewer, None, env, tmp) for _ in range(a.n)]
        base = max(j["vm_hwm_after_first_frame_kib"] for j in empty) / 1024.0
        print(row % ("program (method)", "wall s", "CPU s", "peak MiB",
                     "above empty"))
        print(row % ("gst-ctf-viewer, no trace (probe)", "%.3f" % med(
            j["exec_to_main_s"] + j["first_frame_s"] for j in empty), "",
            "%.1f" % base, ""))
        print(row % ("gst-ctf-viewer, no trace (idle)", "", "",
                     "%.1f" % max(r[2] for r in empty_idle), ""))
        for t in a.traces:
            size_mb = (sum(os.path.getsize(os.path.join(d, f))
                           for d, _, fs in os.walk(t) for f in fs)
                       if os.path.isdir(t) else os.path.getsize(t)) / 1e6
            print("\n%s (%.0f MB)" % (t, size_mb))
            jobs = [("gst-ctf-viewer (exit)", run_exit,
                     [viewer] + SIZE + ["--quit-after-load", t]),
                    ("gst-ctf-viewer (idle)", run_idle, [viewer] + SIZE + [t])]
            if ks is not None and os.path.isfile(t):
                kcmd, kenv = nobody_cmd([ks, t], ks_home)
                jobs.append(("kernelshark %s (idle)" % ksv,
                             lambda c, e, kenv=kenv: run_ks(
                                 c, dict(e, **kenv)), kcmd))
            res = {j[0]: [] for j in jobs}
            probes = []
            for _ in range(a.n):
                for name, fn, cmd in jobs:
                    r = fn(cmd, env)
                    if r is not None:
                        res[name].append(r)
                if not a.no_probe:
                    probes.append(run_probe(viewer, t, env, tmp))
            meds = {}
            print(row % ("program (method)", "wall s", "CPU s", "peak MiB",
                         "above empty"))
            for name, _, _ in jobs:
                r = res[name]
                if not r:
                    print(row % (name, "failed", "", "", ""))
                    continue
                wall = med(x[0] for x in r)
                peak = max(x[2] for x in r)
                meds[name] = wall
                print(row % (name, "%.3f" % wall, "%.3f" % med(x[1] for x in r),
                             "%.1f" % peak, "%.1f" % (peak - base)))
            ksname = [n for n in meds if n.startswith("kernelshark")]
            if ksname:
                print("KernelShark / ours (idle method, wall): %.2fx" %
                      (meds[ksname[0]] / meds["gst-ctf-viewer (idle)"]))
            if probes:
                e2m = med(j["exec_to_main_s"] for j in probes)
                peak = max(j["peak_mib"] for j in probes)
                print(row % ("gst-ctf-viewer (probe)", "", "", "%.1f" % peak,
                             "%.1f" % (peak - base)))
                print("  from exec (medians): open_trace() %.3f -> %.3f s, "
                      "first rows in the table's model %.3f s"
                      % tuple(med(j["exec_to_main_s"] + j[k] for j in probes)
                              for k in ("open_called_s", "open_returned_s",
                                        "rows_published_s")))
                print("  events %d; exec to main() %.3f s; from exec (median):"
                      " first rows drawn %.3f s, index %.3f s, timeline "
                      "drawn whole %.3f s; open_trace() to first rows %.3f s"
                      % (probes[0]["events"], e2m,
                         med(j["exec_to_main_s"] + j["first_rows_s"]
                             for j in probes),
                         med(j["exec_to_main_s"] + j["index_s"]
                             for j in probes),
                         med(j["exec_to_main_s"] + j["summary_drawn_s"]
                             for j in probes),
                         med(j["first_rows_s"] - j["open_called_s"]
                             for j in probes)))
                print("  peak RSS when the timeline is drawn whole: %.1f MiB "
                      "(anon %.1f, file %.1f now)" % (
                          max(j["vm_hwm_after_summary_kib"] for j in probes)
                          / 1024.0,
                          probes[-1]["rss_anon_after_summary_kib"] / 1024.0,
                          probes[-1]["rss_file_after_summary_kib"] / 1024.0))
                for k in ("frame_ms", "snapshot_ms", "render_ms"):
                    print("  sweep %-12s p50 %6.2f  p95 %6.2f  max %6.2f "
                          "(medians of the rounds; %d frames, timeline %d px)"
                          % (k, med(j[k]["p50"] for j in probes),
                             med(j[k]["p95"] for j in probes),
                             med(j[k]["max"] for j in probes),
                             len(probes[0]["steps"]),
                             probes[0]["timeline_width_px"]))
        print("\nload average: %.2f %.2f %.2f" % os.getloadavg())
    finally:
        xvfb.terminate()
        xvfb.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
