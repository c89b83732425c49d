#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""examples/python/ctftracer-latency.py on a trace ctftracer writes (a
child Python runs `fakesrc ! identity ! queue ! fakesink` with
GST_TRACERS): its per-element processing time and per-path latency
summaries are the ones ctfsrc ! ctfstatssink computes (count, min, max;
the script prints microseconds)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

ROOT = os.environ.get("GST_CTF_SOURCE_ROOT",
                      os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "examples", "python", "ctftracer-latency.py")
N = 300

CHILD = """
import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst
Gst.init(None)
p = Gst.parse_launch("fakesrc num-buffers=%d ! identity name=id ! queue ! "
                     "fakesink name=sink")
p.set_state(Gst.State.PLAYING)
m = p.get_bus().timed_pop_filtered(60 * Gst.SECOND,
                                   Gst.MessageType.EOS | Gst.MessageType.ERROR)
ok = m is not None and m.type == Gst.MessageType.EOS
p.set_state(Gst.State.NULL)
del p, m
Gst.deinit()
raise SystemExit(0 if ok else 1)
""" % N


class CtfTracerExample(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ctftracer-example-")
        self.trace = os.path.join(self.tmp, "t")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_script_matches_ctfstatssink(self):
        env = dict(os.environ)
        env["GST_TRACERS"] = "ctftracer(location=%s)" % self.trace
        subprocess.run([sys.executable, "-c", CHILD], env=env, check=True,
                       timeout=120)
        out = subprocess.run([sys.executable, SCRIPT, self.trace],
                             capture_output=True, text=True, check=True,
                             timeout=120).stdout
        stats = os.path.join(self.tmp, "stats.json")
        p = Gst.parse_launch("ctfsrc location=%s ! ctfstatssink format=json "
                             "location=%s" % (self.trace, stats))
        p.set_state(Gst.State.PLAYING)
        m = p.get_bus().timed_pop_filtered(
            60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
        p.set_state(Gst.State.NULL)
        self.assertEqual(m.type, Gst.MessageType.EOS)
        with open(stats) as f:
            summary = json.load(f)["ctftracer"]
        lines = {}
        for line in out.splitlines():
            mm = re.match(r"^  (.+): (\d+) ([\d.]+) [\d.]+ [\d.]+ [\d.]+ "
                          r"([\d.]+)$", line)
            if mm:
                lines[mm.group(1)] = (int(mm.group(2)), mm.group(3),
                                      mm.group(4))
        self.assertIn("id", summary["proctime"])
        self.assertIn("fakesrc0.src -> sink.sink", summary["latency"])
        for table in ("proctime", "latency"):
            for label, s in summary[table].items():
                self.assertIn(label, lines, out)
                count, mn, mx = lines[label]
                self.assertEqual(count, s["count"])
                self.assertEqual(mn, "%.3f" % (s["min"] / 1e3))
                self.assertEqual(mx, "%.3f" % (s["max"] / 1e3))
        self.assertEqual(summary["proctime"]["id"]["count"], N)
        self.assertEqual(summary["latency"]["fakesrc0.src -> sink.sink"]
                         ["count"], N)


if __name__ == "__main__":
    Gst.init(None)
    unittest.main(verbosity=2)
