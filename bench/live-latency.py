#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Live latency of lttnglivesrc beside babeltrace2 (issue 17), bench job `live`.

Real lttng-relayd / lttng-sessiond 2.13 in a private mount namespace, set up
as tests/test-lttng-live-real.py does (its helpers are imported): tmpfs on
/var/run/lttng and /dev/shm, a temporary LTTNG_HOME, unique ports, daemons
stopped by pid.  For each viewer, a live UST session (`--live=100000`,
per-UID buffers) records a tracef() app emitting --rate events/s for
--seconds, then idle for --idle seconds (session still running); the viewer
follows the session with its text on a pseudo-terminal (so both flush each
line), and each line's delay is the wall clock (CLOCK_REALTIME) at its
arrival minus the event's timestamp (printed in seconds since the epoch:
`ctftextsink clock-seconds=true`, `babeltrace2 --clock-seconds`).  lttng-relayd
2.13 lets one viewer attach to a session at a time, so the two viewers
follow two sessions with the same settings, one after the other, --rounds
times alternately.  CPU time (user + sys) is the viewer's, over the run
(wait4) and over the idle period (/proc/PID/stat).

--probe adds `lttnglivesrc ! identity ! fakesink`: the delay of each
packet's end as it leaves the source; --ours-props PROPS a row of ours
with more ctftextsink properties.

usage: live-latency.py [--build DIR] [--seconds S] [--rate N] [--idle S]
                       [--rounds R] [--probe] [--ours-props PROPS]
                       (root: needs unshare -m)
"""
import argparse
import importlib.util
import os
import pty
import re
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location(
    "live_real", os.path.join(TOP, "tests", "test-lttng-live-real.py"))
live_real = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(live_real)

APP = r'''
#include <lttng/tracef.h>
#include <stdlib.h>
#include <time.h>
int main (int argc, char **argv)
{
  /* argv: events per second, seconds */
  long rate = atol (argv[1]), n = rate * atol (argv[2]), i;
  struct timespec next;
  clock_gettime (CLOCK_MONOTONIC, &next);
  for (i = 0; i < n; i++) {
    tracef ("live event %ld", i);
    next.tv_nsec += 1000000000L / rate;
    if (next.tv_nsec >= 1000000000L) {
      next.tv_sec++;
      next.tv_nsec -= 1000000000L;
    }
    clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
  }
  return 0;
}
'''

GST = ["gst-launch-1.0", "-q", "lttnglivesrc", "url=URL",
       "session-not-found=end", "!", "ctftextsink", "clock-seconds=true"]
VIEWERS = [
    ("ours", "lttnglivesrc ! ctftextsink clock-seconds=true", GST),
    ("babeltrace2", "babeltrace2 --clock-seconds net://...",
     ["babeltrace2", "--clock-seconds", "URL"]),
]
# `--probe`: packets leaving lttnglivesrc (identity's last-message with
# gst-launch -v): the delay of each packet's end (timestamp_end), a lower
# bound of the delays of its events
PROBE = [("packets", "lttnglivesrc ! identity (delay of each packet end)",
          ["gst-launch-1.0", "-v", "lttnglivesrc", "url=URL",
           "session-not-found=end", "!", "identity", "silent=false", "!",
           "fakesink"])]
TS = re.compile(rb"^\[(\d+)\.(\d{9})\]")
PKT = re.compile(rb"chain .*pts: (\d+):(\d\d):(\d\d)\.(\d{9}), "
                 rb"duration: (\d+):(\d\d):(\d\d)\.(\d{9})")


def hms_ns(h, m, s, ns):
    return ((int(h) * 60 + int(m)) * 60 + int(s)) * 10**9 + int(ns)


def stamp(line):
    """The event's timestamp of a text line, or a packet's end, in ns."""
    # (gst-launch-1.0 on a terminal writes its position, `\rH:MM:SS /
    # ...`, between the lines)
    m = TS.match(line.rstrip(b"\r").rsplit(b"\r", 1)[-1])
    if m:
        return int(m.group(1)) * 10**9 + int(m.group(2))
    m = PKT.search(line)
    if m:
        return hms_ns(*m.groups()[:4]) + hms_ns(*m.groups()[4:])
    return None
TICK = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except OSError:
        return None


def follow(cmd, env, lttng, app, args):
    """Starts the viewer on a pty, the app; returns delays (ns), CPU."""
    master, slave = pty.openpty()
    viewer = subprocess.Popen(cmd, env=env, stdout=slave,
                              stderr=subprocess.DEVNULL,
                              stdin=subprocess.DEVNULL)
    # the slave stays open here until the end: when the last writer
    # closes it, Linux can drop what the master has not read yet
    delays, buf = [], b""
    idle_cpu = None

    def pump(until):
        nonlocal buf
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return True
            r, _, _ = select.select([master], [], [], left)
            if not r:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return False
            now = time.time_ns()
            if not chunk:
                return False
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                ts = stamp(line)
                if ts is not None:
                    delays.append(now - ts)
                elif os.environ.get("LIVE_LATENCY_DEBUG"):
                    sys.stderr.write(repr(line[:120]) + "\n")

    pump(time.monotonic() + 1.0)          # attached, streams known
    p = subprocess.Popen(["taskset", "-c", "0", app, str(args.rate),
                          str(args.seconds)], env=env)
    while p.poll() is None:
        pump(time.monotonic() + 0.2)
    pump(time.monotonic() + 1.0)          # the last live timer period
    c0 = proc_cpu(viewer.pid)
    pump(time.monotonic() + args.idle)
    c1 = proc_cpu(viewer.pid)
    if c0 is not None and c1 is not None:
        idle_cpu = c1 - c0
    lttng("stop")
    lttng("destroy")
    ru = None
    end = time.monotonic() + 10.0
    while ru is None and time.monotonic() < end:
        pump(time.monotonic() + 0.1)
        pid, _, r = os.wait4(viewer.pid, os.WNOHANG)
        if pid:
            ru = r
    if ru is None:                        # did not end: stopped by its pid
        os.kill(viewer.pid, 15)
        _, _, ru = os.wait4(viewer.pid, 0)
    while select.select([master], [], [], 0.2)[0]:    # what it wrote last
        if not pump(time.monotonic() + 0.2):
            break
    viewer.returncode = 0
    os.close(slave)
    os.close(master)
    cpu = ru.ru_utime + ru.ru_stime
    return delays, cpu, idle_cpu, p.returncode


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def inner(args):
    tmp = tempfile.mkdtemp(prefix="live-latency-")
    for d in ("/var/run/lttng", "/dev/shm"):
        os.makedirs(d, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "tmpfs", d], check=True)
    env = dict(os.environ, LTTNG_HOME=os.path.join(tmp, "home"),
               HOME=os.path.join(tmp, "home"), TZ="UTC")
    os.makedirs(env["LTTNG_HOME"])
    app = os.path.join(tmp, "app")
    with open(app + ".c", "w") as f:
        f.write(APP)
    subprocess.run(["cc", "-O2", "-o", app, app + ".c", "-llttng-ust",
                    "-ldl"], check=True)
    c, d, l = live_real.free_ports(3)
    relayd = sessiond = None
    viewers = VIEWERS + [("ours+" + x, "lttnglivesrc ! ctftextsink "
                          "clock-seconds=true " + x, GST + x.split())
                         for x in args.ours_props] + \
        (PROBE if args.probe else [])
    results = {v[0]: [] for v in viewers}
    host = socket.gethostname()
    try:
        relayd = subprocess.Popen(
            ["lttng-relayd", "-C", f"tcp://127.0.0.1:{c}",
             "-D", f"tcp://127.0.0.1:{d}", "-L", f"tcp://127.0.0.1:{l}",
             "-o", os.path.join(tmp, "relay-out")], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        sessiond = subprocess.Popen(["lttng-sessiond", "--no-kernel"],
                                    env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        for _ in range(100):
            ok = subprocess.run(["lttng", "list"], env=env,
                                capture_output=True).returncode == 0
            try:
                socket.create_connection(("127.0.0.1", l), 0.2).close()
            except OSError:
                ok = False
            if ok:
                break
            time.sleep(0.1)
        else:
            sys.exit("the LTTng daemons did not start")
        k = 0
        for _ in range(args.rounds):
            for who, _, argv in viewers:
                k += 1
                name = f"lat{os.getpid()}n{k}"
                lttng = lambda *a: subprocess.run(
                    ["lttng"] + list(a) + ([name] if a[0] in
                                          ("stop", "destroy") else []),
                    env=env, check=True, capture_output=True)
                lttng("create", name, "--live=100000",
                      f"--set-url=net://127.0.0.1:{c}:{d}")
                lttng("enable-event", "-u", "lttng_ust_tracef:*")
                lttng("start")
                url = f"net://127.0.0.1:{l}/host/{host}/{name}"
                cmd = [x.replace("URL", url) for x in argv]
                r = follow(cmd, env, lttng, app, args)
                results[who].append(r)
                sys.stderr.write(f"[{who}: {len(r[0])} events]\n")
    finally:
        live_real.stop(sessiond)
        live_real.stop(relayd)
        for d in ("/dev/shm", "/var/run/lttng"):
            subprocess.run(["umount", d])
        shutil.rmtree(tmp, ignore_errors=True)
    n_exp = args.rate * args.seconds
    print(f"| viewer | lines (events; packets for identity) / events emitted | median delay ms | "
          f"p90 ms | max ms | CPU s (run) | CPU s (idle {args.idle} s) | "
          f"median vs ours |")
    print("|---|---|---|---|---|---|---|---|")
    med = {}
    for who, _, _ in viewers:
        allds = [x for r in results[who] for x in r[0]]
        med[who] = statistics.median(allds) if allds else float("nan")
    for who, cmd, _ in viewers:
        rs = results[who]
        allds = [x for r in rs for x in r[0]]
        seen = "/".join(str(len(r[0])) for r in rs)
        cpu = "/".join(f"{r[1]:.2f}" if r[1] is not None else "?" for r in rs)
        idle = "/".join(f"{r[2]:.2f}" if r[2] is not None else "?"
                        for r in rs)
        if not allds:
            print(f"| `{cmd}` | 0/{n_exp} | - | - | - | {cpu} | {idle} | |")
            continue
        print(f"| `{cmd}` | {seen} of {n_exp} | {med[who] / 1e6:.1f} | "
              f"{pct(allds, 0.9) / 1e6:.1f} | {max(allds) / 1e6:.1f} | "
              f"{cpu} | {idle} | {med[who] / med['ours']:.2f} |")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--seconds", type=int, default=15)
    ap.add_argument("--rate", type=int, default=1000)
    ap.add_argument("--idle", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--ours-props", action="append", default=[],
                    metavar="PROPS", help="also a row with these ctftextsink "
                    "properties, e.g. 'parallel=false sync=false' "
                    "(repeatable)")
    ap.add_argument("--probe", action="store_true",
                    help="also the delay of each packet's end as it leaves "
                    "lttnglivesrc (identity silent=false)")
    args = ap.parse_args()
    if os.environ.get("GST_CTF_LIVE_LATENCY_INNER") == "1":
        return inner(args)
    for prog in ("lttng", "lttng-sessiond", "lttng-relayd", "babeltrace2",
                 "cc", "unshare", "taskset", "gst-launch-1.0"):
        if shutil.which(prog) is None:
            sys.exit(f"{prog} not found (sh scripts/install-deps.sh)")
    if os.geteuid() != 0:
        sys.exit("needs root for a private mount namespace (unshare -m)")
    env = dict(os.environ, GST_CTF_LIVE_LATENCY_INNER="1",
               GST_PLUGIN_PATH=os.path.join(os.path.abspath(args.build),
                                            "plugins"),
               GST_REGISTRY=os.path.join(tempfile.gettempdir(),
                                         "gst-ctf-live-latency-registry.bin"))
    env.pop("GST_DEBUG", None)
    return subprocess.run(["unshare", "-m", "--propagation", "private",
                           sys.executable] + sys.argv, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
