#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Start-up cost of gst-ctf next to gst-launch-1.0 and babeltrace2 on a
tiny trace (issue 30): each command's text of TRACE to /dev/null, N rounds
alternating the commands; mean CPU time (user + sys from wait4: the
kernel charges it by clock ticks, so one short run reads 0 or 4 ms and
only a mean over many runs means something), median wall time, and with
--callgrind the instructions of one run (valgrind, exact).  gst-launch-1.0
reads a warm registry (GST_REGISTRY of its own, filled by a first run
that is not counted).

Usage: bench/startup.py [-n N] [--build DIR] [TRACE]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


def once(cmd, env):
    t0 = time.monotonic()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=null, env=env)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("%s failed" % " ".join(cmd))
    return ru.ru_utime + ru.ru_stime, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=21)
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("trace", nargs="?",
                    default=os.path.join(TOP, "examples", "traces",
                                         "ust-libc"))
    a = ap.parse_args()
    reg = tempfile.mkdtemp(prefix="gst-ctf-startup-")
    env = dict(os.environ, TZ="UTC", LC_ALL="C",
               GST_PLUGIN_PATH=os.path.join(a.build, "plugins"),
               GST_REGISTRY=os.path.join(reg, "registry.bin"))
    cmds = [("gst-ctf TRACE",
             [os.path.join(a.build, "tools", "gst-ctf", "gst-ctf"), a.trace]),
            ("gst-launch-1.0 -q ctfsrc ! ctftextsink",
             ["gst-launch-1.0", "-q", "ctfsrc", "location=" + a.trace, "!",
              "ctftextsink"])]
    if shutil.which("babeltrace2"):
        cmds.append(("babeltrace2 TRACE (2.0.4)", ["babeltrace2", a.trace]))
    bt21 = os.path.join(TOP, "..", "shared", "tools", "babeltrace2-2.1")
    if os.path.exists(bt21):
        cmds.append(("babeltrace2 TRACE (2.1.2)", [bt21, a.trace]))
    for _, cmd in cmds:
        once(cmd, env)          # warm: registry, page cache
    res = {name: [] for name, _ in cmds}
    for _ in range(a.n):
        for name, cmd in cmds:
            res[name].append(once(cmd, env))
    print("load average: %.2f; %d rounds" % (os.getloadavg()[0],
                                                       a.n))
    print("| command | CPU ms (mean) | wall ms (median) |%s" %
          (" instructions |" if a.callgrind else ""))
    print("|---|---|---|%s" % ("---|" if a.callgrind else ""))
    for name, cmd in cmds:
        cpu = statistics.mean(r[0] for r in res[name]) * 1e3
        wall = statistics.median(r[1] for r in res[name]) * 1e3
        ir = ""
        if a.callgrind:
            # (babeltrace2 2.1.2 is a shell script that runs the binary:
            # every process counts)
            out = os.path.join(reg, "callgrind.out.%p")
            r = subprocess.run(["valgrind", "--tool=callgrind",
                                "--trace-children=yes",
                                "--callgrind-out-file=" + out] + cmd,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env, text=True)
            ir = " %d |" % sum(int(x.split()[0].replace(",", "")) for x in
                               r.stderr.split("Collected : ")[1:])
        print("| `%s` | %.1f | %.1f |%s" % (name, cpu, wall, ir))
    shutil.rmtree(reg, ignore_errors=True)


main()
