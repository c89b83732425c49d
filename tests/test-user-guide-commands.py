#!/usr/bin/env python3
"""Runs the gst-launch-1.0 command lines of docs/user-guide.md as written,
with only their example paths replaced: CTF trace paths (t/, ust/,
ust-trace/) by a copy of the bundled examples/traces/ust-libc, kernel/ by
one of examples/traces/ust-sample, trace.dat
by tests/data/tracecmd/i686-v6.dat, output directories by new ones.  Each
must exit 0 within 60 s and, when it writes a trace, leave a `metadata`
and stream files.  The network pair (tcpserversrc / tcpclientsink) is
run by test-across-hosts.py, the live ones (lttnglivesrc, which needs a
relay) by test-lttnglivesrc.c.

Usage: test-user-guide-commands.py SOURCE_ROOT GST_LAUNCH [ASAN_RUNTIME]
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

root, gst_launch = sys.argv[1], sys.argv[2]
env = dict(os.environ)
if len(sys.argv) > 3 and sys.argv[3]:
    # a sanitizer build's plugin needs its runtime loaded first
    env["LD_PRELOAD"] = sys.argv[3]
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0")


def commands(text):
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("    gst-launch-1.0 "):
            start = i + 1
            cmd = line.strip()
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1] + " " + lines[i].strip()
            yield start, cmd
        i += 1


def main():
    with open(os.path.join(root, "docs", "user-guide.md"),
              encoding="utf-8") as f:
        text = f.read()
    tmp = tempfile.mkdtemp(prefix="user-guide-")
    trace = os.path.join(tmp, "trace")
    shutil.copytree(os.path.join(root, "examples", "traces", "ust-libc"),
                    trace)
    other = os.path.join(tmp, "other")
    shutil.copytree(os.path.join(root, "examples", "traces", "ust-sample"),
                    other)
    dat = os.path.join(root, "tests", "data", "tracecmd", "i686-v6.dat")
    ran = 0
    try:
        for line, cmd in commands(text):
            words = shlex.split(cmd)
            if any(w.startswith(("tcpserversrc", "tcpclientsink",
                                 "lttnglivesrc"))
                   for w in words):
                continue
            outs = []
            args = []
            element = None
            for w in words[1:]:
                if "=" not in w and w != "!":
                    element = w
                m = re.match(r"^(location=)(.*)$", w)
                if m:
                    v = m.group(2)
                    if v.endswith(".dat"):
                        w = m.group(1) + dat
                    elif v.rstrip("/") in ("t", "ust", "ust-trace"):
                        w = m.group(1) + trace
                    elif v.rstrip("/") == "kernel":
                        w = m.group(1) + other
                    else:
                        out = os.path.join(tmp, "out%d" % len(outs) +
                                           "-%d" % line)
                        if element == "ctfsink":
                            outs.append(out)
                        w = m.group(1) + out
                args.append(w)
            print("user-guide.md:%d: %s" % (line, " ".join(words)))
            p = subprocess.run([gst_launch] + args, env=env, timeout=60,
                               capture_output=True, text=True)
            if p.returncode != 0 or "ERROR" in p.stderr + p.stdout:
                print(p.stdout[-2000:], p.stderr[-2000:])
                print("FAILED: exit %d" % p.returncode)
                return 1
            for out in outs:
                if not os.path.exists(os.path.join(out, "metadata")):
                    print("FAILED: no trace written to %s" % out)
                    return 1
            ran += 1
    finally:
        shutil.rmtree(tmp)
    print("%d commands of the user guide ran" % ran)
    return 0 if ran >= 5 else 1


if __name__ == "__main__":
    sys.exit(main())
