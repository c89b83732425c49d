#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gst-ctf-viewer next to KernelShark on the same trace (issue 26): time
until loaded and peak RSS, N rounds alternating the programs, medians.

One Xvfb server (1600x1000x24) is started for the whole run and every
program is a direct child of this script, so its peak RSS is its own
(wait4's ru_maxrss, or VmHWM from /proc when the program is stopped by
us).  GTK runs with GSK_RENDERER=cairo GDK_DEBUG=gl-disable, as the tests.

Methods (the same clock, time.monotonic, from just before exec):
- ours, "exit": `gst-ctf-viewer --quit-after-load --size 1600x1000 TRACE`
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
- "empty": the same viewer with no trace, idle method: the baseline of the
  memory target (peak RSS above an empty window).

Not measured here: time to the first rows drawn, and zoom/pan redraw
percentiles (they need a probe inside the viewer; see
docs/performance.md, "Viewer against KernelShark").

Usage: bench/viewer.py [-n ROUNDS] [--build DIR] [--no-kernelshark] TRACE...
KernelShark is Debian's `kernelshark` (apt-get install kernelshark
xdotool); it opens trace.dat files only.
"""
import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
AFTER_LOAD_DELAY = 0.5   # viewer/gst-ctf-viewer.c: g_timeout_add (500, after_load)
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


def run_idle(cmd, env, still=0.5, limit=120.0):
    t0 = time.monotonic()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=null, env=env)
    mapped = False
    last_cpu, last_t = -1.0, t0
    try:
        while True:
            time.sleep(0.01)
            now = time.monotonic()
            if p.poll() is not None:
                raise SystemExit("%s exited (%d)" % (" ".join(cmd), p.returncode))
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


def start_xvfb():
    """An Xvfb of our own on a free display (-displayfd: the server picks
    it and tells us), 1600x1000x24."""
    r, w = os.pipe()
    x = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0",
                          "1600x1000x24", "-nolisten", "tcp"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         pass_fds=(w,))
    os.close(w)
    with os.fdopen(r) as f:
        n = f.readline().strip()
    if not n:
        x.kill()
        raise SystemExit("cannot start Xvfb")
    return x, ":" + n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--no-kernelshark", action="store_true")
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()

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

    xvfb, display = start_xvfb()
    env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11",
               GSK_RENDERER="cairo", GDK_DEBUG="gl-disable", NO_AT_BRIDGE="1",
               QT_QPA_PLATFORM="xcb")
    env.pop("WAYLAND_DISPLAY", None)
    size = ["--size", "1600x1000"]
    try:
        print("load average: %.2f %.2f %.2f" % os.getloadavg())
        empty = [run_idle([viewer] + size, env) for _ in range(a.n)]
        base = max(r[2] for r in empty)
        print("%-40s %9s %9s %10s %14s" % ("program (method)", "wall s",
                                           "CPU s", "peak MiB", "above empty"))
        print("%-40s %9s %9s %10.1f %14s" % ("gst-ctf-viewer, no trace (idle)",
                                             "", "", base, ""))
        for t in a.traces:
            size_mb = (sum(os.path.getsize(os.path.join(d, f))
                           for d, _, fs in os.walk(t) for f in fs)
                       if os.path.isdir(t) else os.path.getsize(t)) / 1e6
            print("\n%s (%.0f MB)" % (t, size_mb))
            jobs = [("gst-ctf-viewer (exit)", run_exit, [viewer] + size + ["--quit-after-load", t]),
                    ("gst-ctf-viewer (idle)", run_idle, [viewer] + size + [t])]
            if ks is not None and os.path.isfile(t):
                jobs.append(("kernelshark (idle)", run_idle, [ks, t]))
            res = {j[0]: [] for j in jobs}
            for _ in range(a.n):
                for name, fn, cmd in jobs:
                    res[name].append(fn(cmd, env))
            meds = {}
            for name, _, _ in jobs:
                r = res[name]
                wall = statistics.median(x[0] for x in r)
                cpu = statistics.median(x[1] for x in r)
                peak = max(x[2] for x in r)
                meds[name] = wall
                print("%-40s %9.3f %9.3f %10.1f %14.1f" % (name, wall, cpu,
                                                           peak, peak - base))
            if "kernelshark (idle)" in meds:
                print("KernelShark / ours (idle method, wall): %.2fx" %
                      (meds["kernelshark (idle)"] / meds["gst-ctf-viewer (idle)"]))
        print("\nload average: %.2f %.2f %.2f" % os.getloadavg())
    finally:
        xvfb.terminate()
        xvfb.wait()


if __name__ == "__main__":
    main()
