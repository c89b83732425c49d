#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""ctftracer beside no tracer and GStreamer's own `latency` tracer (issue 28).

For each pipeline, one round runs, alternately:
  untraced        the pipeline alone
  ctftracer       GST_TRACERS="ctftracer(location=DIR)" (defaults: buffer
                  flow, proctime, latency, queue levels, states, messages,
                  rates, rusage)
  ctftracer-bl    only buffer flow and latency (the issue's target row)
  latency-log     GST_TRACERS=latency GST_DEBUG=GST_TRACER:7 logging to a
                  file (GST_DEBUG_FILE)
and prints the median CPU time (user + sys, wait4) and wall time over the
rounds, peak RSS (largest; /usr/bin/time %M), the trace's bytes on disk,
its events (counted by `ctfsrc ! ctfstatssink`), bytes per event and per
buffer push, and the ratios.  CPU time is the figure to compare on a
shared machine.

    python3 bench/tracer.py                  # 1M buffers, 3 rounds
    python3 bench/tracer.py -n 200000 -r 5

Needs the built plugin: run from the source tree after `ninja -C build`
(GST_PLUGIN_PATH is set to build/plugins).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "..", "build", "plugins")
TIME = "/usr/bin/time"

PIPELINES = {
    "3 elements": "fakesrc num-buffers={n} ! identity ! fakesink",
    "4 threads": "fakesrc num-buffers={n} ! identity ! tee name=t "
                 "t. ! queue ! fakesink t. ! queue ! fakesink "
                 "t. ! queue ! fakesink",
}


def run(cmd, env):
    rss_file = tempfile.mktemp(prefix="tracer-bench-rss-")
    argv = [TIME, "-f", "%M", "-o", rss_file] + cmd
    t0 = time.monotonic()
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)} failed: {err.decode()[-400:]}")
    with open(rss_file) as f:
        rss = int(f.read().split()[-1])
    os.unlink(rss_file)
    return ru.ru_utime + ru.ru_stime, wall, rss


def du(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(path, f))
               for f in os.listdir(path) if f.startswith("stream_"))


def count_events(trace, env):
    out = subprocess.run(
        ["gst-launch-1.0", "-q", "ctfsrc", f"location={trace}", "!",
         "ctfstatssink", "format=json"],
        env=env, capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    by_name = j.get("event_names", {})
    return j["events"], by_name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=1000000, help="buffers")
    ap.add_argument("-r", type=int, default=3, help="rounds")
    ap.add_argument("--out", default=os.path.join(HERE, "out", "tracer"))
    a = ap.parse_args()
    base = dict(os.environ)
    base["GST_PLUGIN_PATH"] = os.path.abspath(BUILD)
    base.pop("GST_TRACERS", None)
    os.makedirs(a.out, exist_ok=True)
    with open("/proc/loadavg") as f:
        print(f"# {os.cpu_count()} CPUs, load average before: "
              f"{f.read().split()[0]}")
    for pname, desc in PIPELINES.items():
        cmd = ["gst-launch-1.0", "-q"] + desc.format(n=a.n).split()
        trace = os.path.join(a.out, "trace")
        log = os.path.join(a.out, "latency.log")
        tools = {
            "untraced": {},
            "ctftracer": {"GST_TRACERS": f"ctftracer(location={trace})"},
            "ctftracer-bl": {"GST_TRACERS":
                             f"ctftracer(location={trace},events=false,"
                             "queue-levels=false,states=false,"
                             "messages=false,rusage=false,rates=false)"},
            "latency-log": {"GST_TRACERS": "latency",
                            "GST_DEBUG": "GST_TRACER:7",
                            "GST_DEBUG_FILE": log},
        }
        res = {t: [] for t in tools}
        size = {}
        events = {}
        for _ in range(a.r):
            for t, extra in tools.items():
                shutil.rmtree(trace, ignore_errors=True)
                if os.path.exists(log):
                    os.unlink(log)
                env = dict(base)
                env.update(extra)
                res[t].append(run(cmd, env))
                if t.startswith("ctftracer"):
                    size[t] = du(trace)
                    events[t] = count_events(trace, base)
                elif t == "latency-log":
                    size[t] = du(log)
        print(f"\n## {pname}: {' '.join(cmd[2:])}")
        print("| run | CPU s (median) | wall s (median) | peak RSS MiB | "
              "bytes on disk | events | B/event | B/buffer push | "
              "CPU vs untraced |")
        print("|---|---|---|---|---|---|---|---|---|")
        cpu0 = statistics.median(r[0] for r in res["untraced"])
        # pushes per buffer: fakesrc, identity (+ tee x3, queue x3)
        pushes = a.n * (2 if pname == "3 elements" else 8)
        for t in tools:
            cpu = statistics.median(r[0] for r in res[t])
            wall = statistics.median(r[1] for r in res[t])
            rss = max(r[2] for r in res[t]) / 1024
            b = size.get(t)
            ev = events.get(t, (None, None))[0]
            print(f"| {t} | {cpu:.2f} | {wall:.2f} | {rss:.1f} | "
                  f"{b if b is not None else '-'} | {ev or '-'} | "
                  f"{b / ev if ev else float('nan'):.1f} | "
                  f"{b / pushes if b else float('nan'):.1f} | "
                  f"{cpu / cpu0:.2f}x |")
        lat = statistics.median(r[0] for r in res["latency-log"])
        for t in ("ctftracer", "ctftracer-bl"):
            cpu = statistics.median(r[0] for r in res[t])
            print(f"latency-log / {t} CPU: {lat / cpu:.1f}x")
    with open("/proc/loadavg") as f:
        print(f"\n# load average after: {f.read().split()[0]}")


if __name__ == "__main__":
    main()
