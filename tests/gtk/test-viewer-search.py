#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gst-ctf-viewer's find bar with ctffilter's settings, under Xvfb:
--filter with `events=`/`cpus=` words shows the rows babeltrace2's text of
the bundled ust-libc trace has for them, and --search (read from the
selected row by GstCtfGtkSearch) selects the first match after the row
--goto selected that the filter shows, matches the filter hides being
searched past; a bad setting gives exit status 1 and the column.

usage: test-viewer-search.py VIEWER
"""
import os
import re
import subprocess
import sys

viewer = sys.argv[1]
examples = os.environ["GST_CTF_EXAMPLES"]
env = dict(os.environ, GSK_RENDERER="cairo", GDK_BACKEND="x11",
           NO_AT_BRIDGE="1", TZ="UTC")
libc = os.path.join(examples, "ust-libc")

# babeltrace2's text: (time of day, name, size field or None)
rows = []
with open(os.path.join(examples, "ust-libc.babeltrace2.txt")) as f:
    for line in f:
        if line.startswith("["):
            t = line[1:line.index("]")]
            name = line.split(") ", 1)[1].split(" ")[1].rstrip(":")
            m = re.search(r"\bsize = (\d+)", line)
            rows.append((t, name, int(m.group(1)) if m else None))


def view(*args):
    p = subprocess.run([viewer, libc, "--quit-after-load",
                        "--print-selected"] + list(args), env=env,
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


shown = [i for i, r in enumerate(rows) if r[1] == "lttng_ust_libc:malloc"]
cases = 0
# the malloc row before the first other *alloc row of size >= 1600 (a
# match the filter hides)
first_hidden = min(i for i, r in enumerate(rows) if r[1].endswith("alloc")
                   and r[1] != "lttng_ust_libc:malloc" and r[2] is not None
                   and r[2] >= 1600)
before = max(i for i in shown if i < first_hidden)
passed = 0
for start in (shown[0], before, shown[len(shown) // 2]):
    for limit in (100, 1000, 1600):
        want = None
        hidden = 0
        for i in range(start + 1, len(rows)):
            r = rows[i]
            if r[1].endswith("alloc") and r[2] is not None and \
                    r[2] >= limit:
                if r[1] == "lttng_ust_libc:malloc":
                    want = i
                    break
                hidden += 1
        rc, out, err = view("--filter", "events=lttng_ust_libc:malloc cpus=0",
                            "--goto", rows[start][0], "--search",
                            "lttng_ust_libc/.*alloc: size >= %d" % limit)
        assert rc == 0, (rc, err)
        assert ("shown %d" % len(shown)) in out, (out, len(shown))
        if want is None:
            assert "selected %d " % start in out, (out, start)
        else:
            assert ("selected %d [%s] lttng_ust_libc:malloc" %
                    (want, rows[want][0])) in out, (out, want, start, limit)
        print("from row %d, size >= %d: %s (%d hidden matches passed)" %
              (start, limit, out.strip().replace("\n", "; "), hidden))
        cases += 1
        passed += hidden
assert cases == 9 and passed > 0, (cases, passed)

rc, out, err = view("--filter", "events=lttng_ust_libc:malloc cpu=0")
assert rc == 1 and "unknown setting \"cpu=\" at column 30" in err, (rc, err)
print("bad setting: exit status 1, %s" % err.strip().splitlines()[-1])
