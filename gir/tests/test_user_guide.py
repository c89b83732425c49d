#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs the Python examples of docs/user-guide.md as written (every
```python block, from the top of the source tree), then each again with
its trace path replaced by a missing path, a directory without a trace
and a trace whose first packet is corrupt: each must raise GLib.Error,
with the expected domain and code, within 2 s of starting (Python start
and imports not counted)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.environ.get("GST_CTF_SOURCE_ROOT",
                     os.path.join(os.path.dirname(__file__), "..", ".."))
GUIDE = os.path.join(TOP, "docs", "user-guide.md")
TRACE = "examples/traces/ust-sample"
LIMIT_S = 2.0

# Imports done before the clock starts; the block runs in this process.
HARNESS = r"""
import json, sys, time
import gi
gi.require_version("Gst", "1.0"); gi.require_version("GstCtf", "1.0")
from gi.repository import GLib, Gst, GstCtf
Gst.init(None)
code = sys.stdin.read()
t0 = time.monotonic()
try:
    exec(compile(code, "user-guide block", "exec"), {"__name__": "__main__"})
    out = {"error": None}
except GLib.Error as e:
    out = {"error": [e.domain, e.code, e.message]}
out["elapsed"] = time.monotonic() - t0
print("HARNESS " + json.dumps(out))
"""


def have_gtk_widgets():
    """GstCtfGtk-1.0 is built only when GTK 4 is found."""
    import gi
    try:
        gi.require_version("GstCtfGtk", "1.0")
        return True
    except ValueError:
        return False


def guide_blocks():
    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"^```python\n(.*?)^```$", text, re.M | re.S)
    if not have_gtk_widgets():
        print("SKIP the GstCtfGtk blocks: no GstCtfGtk-1.0 typelib",
              file=sys.stderr)
        blocks = [b for b in blocks if "GstCtfGtk" not in b]
    return blocks


def run_block(code, harness=False):
    args = [sys.executable, "-c", HARNESS] if harness else \
        [sys.executable, "-c", code]
    return subprocess.run(args, cwd=TOP, input=code if harness else None,
                          capture_output=True, text=True, timeout=60)


def corrupt_trace(tmp):
    """ust-sample with the first packet's magic zeroed (CTF 1.8 5.1)."""
    dst = os.path.join(tmp, "corrupt")
    shutil.copytree(os.path.join(TOP, TRACE), dst)
    with open(os.path.join(dst, "ust", "uid", "0", "64-bit", "channel0_0"),
              "r+b") as f:
        f.write(b"\0\0\0\0")
    return dst


class TestUserGuide(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.blocks = guide_blocks()

    def test_blocks_found(self):
        self.assertGreaterEqual(len(self.blocks), 2)
        for code in self.blocks:
            self.assertIn(TRACE, code)

    def test_as_written(self):
        for code in self.blocks:
            r = run_block(code)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stderr, "")
            lines = r.stdout.splitlines()
            self.assertGreater(len(lines), 5, code)
            # vtid and procname of the sample trace's process
            self.assertTrue(all(" 5662 " in x or "ustwork" in x
                                for x in lines), lines[:3])

    def bad_inputs(self, tmp):
        nodir = os.path.join(tmp, "empty")
        os.mkdir(nodir)
        with open(os.path.join(nodir, "notes.txt"), "w") as f:
            f.write("no trace here\n")
        return [("missing", os.path.join(tmp, "missing")),
                ("no trace", nodir),
                ("corrupt first packet", corrupt_trace(tmp))]

    def test_errors_raise(self):
        import gi
        gi.require_version("Gst", "1.0")
        gi.require_version("GstCtf", "1.0")
        from gi.repository import Gst, GstCtf
        ctf = ("gst-ctf-error-quark", [GstCtf.Error.IO,
                                       GstCtf.Error.NO_TRACE,
                                       GstCtf.Error.PACKET])
        gst = [("gst-resource-error-quark", Gst.ResourceError.NOT_FOUND),
               ("gst-resource-error-quark", Gst.ResourceError.NOT_FOUND),
               ("gst-stream-error-quark", Gst.StreamError.DECODE)]
        with tempfile.TemporaryDirectory() as tmp:
            for code in self.blocks:
                pipeline = "Gst.parse_launch" in code
                inputs = self.bad_inputs(tmp)
                for i, (what, path) in enumerate(inputs):
                    r = run_block(code.replace(TRACE, path), harness=True)
                    last = r.stdout.splitlines()[-1] if r.stdout else ""
                    self.assertTrue(last.startswith("HARNESS "),
                                    (what, r.stdout, r.stderr))
                    out = json.loads(last[len("HARNESS "):])
                    self.assertIsNotNone(out["error"], (what, code))
                    domain, errcode, message = out["error"]
                    want = gst[i] if pipeline else (ctf[0], ctf[1][i])
                    self.assertEqual((domain, errcode), want,
                                     (what, message))
                    self.assertLess(out["elapsed"], LIMIT_S, what)
                    print("%s, %s: %s (%.2f s)" % (
                        "pipeline" if pipeline else "reader", what, message,
                        out["elapsed"]), file=sys.stderr)
                shutil.rmtree(os.path.join(tmp, "empty"))
                shutil.rmtree(os.path.join(tmp, "corrupt"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
