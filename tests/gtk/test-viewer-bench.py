#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gst-ctf-viewer --bench under Xvfb (the probe bench/viewer.py reads):
on the bundled ust-sample, the JSON has babeltrace2's event count, the
times in order (index before the timeline drawn whole), 160 sweep frames
from the whole trace down to 1 us on a 1600 px timeline, each timed, and
percentiles in order; with no trace, the baseline's first frame and peak
RSS; a missing trace: exit status 1 and no file.

usage: test-viewer-bench.py VIEWER OUTDIR
"""
import json
import os
import subprocess
import sys

viewer, outdir = sys.argv[1], sys.argv[2]
examples = os.environ["GST_CTF_EXAMPLES"]
os.makedirs(outdir, exist_ok=True)
env = dict(os.environ, GSK_RENDERER="cairo", GDK_BACKEND="x11",
           NO_AT_BRIDGE="1", TZ="UTC")


def bench(name, args):
    out = os.path.join(outdir, name + ".json")
    if os.path.exists(out):
        os.unlink(out)
    # 1610: the timeline is 10 px narrower than the window
    p = subprocess.run([viewer, "--size", "1610x1000", "--bench", out] + args,
                       env=env, capture_output=True, text=True, timeout=240)
    if not os.path.exists(out):
        return p.returncode, p.stderr, None
    with open(out) as f:
        j = json.load(f)
    print("%s: %s" % (name, {k: v for k, v in j.items() if k != "steps"}))
    return p.returncode, p.stderr, j


trace = os.path.join(examples, "ust-sample")
with open(os.path.join(examples, "ust-sample.babeltrace2.txt")) as f:
    n_oracle = sum(1 for _ in f)
rc, err, j = bench("ust-sample", [trace])
assert rc == 0 and j is not None, (rc, err)
assert j["events"] == n_oracle, (j["events"], n_oracle)
assert 0 < j["open_called_s"] <= j["open_returned_s"] <= j["rows_published_s"] <= j["first_rows_s"]
assert 0 < j["index_s"] <= j["summary_drawn_s"]
assert j["vm_hwm_after_summary_kib"] > 0
assert j["timeline_width_px"] == 1600, j["timeline_width_px"]
steps = j["steps"]
assert len(steps) == j["levels"] * j["pans"] == 160, len(steps)
spans = [s["span_ns"] for s in steps]
assert spans == sorted(spans, reverse=True), "zoom levels not in order"
assert spans[-1] == 1000, spans[-1]
# the first level: the whole trace
t0, t1 = j["trace_start_ns"], j["trace_end_ns"]
assert 0 < t0 < t1 and spans[0] == t1 - t0, (spans[0], t0, t1)
assert steps[0]["start_ns"] == t0, (steps[0], t0)
# each level: PANS centres across the trace, in order (the first ones
# clamped to the trace's start while the span is wide)
for lv in range(j["levels"]):
    st = [s["start_ns"] for s in steps[lv * j["pans"]:(lv + 1) * j["pans"]]]
    assert st == sorted(st) and st[0] >= t0, (lv, st)
    assert len(set(st)) == len(st) or spans[lv * j["pans"]] > (t1 - t0) / 4, \
        (lv, st)
assert all(s["frame_ms"] > 0 and s["snapshot_ms"] > 0 and s["render_ms"] > 0
           for s in steps), "a frame not timed"
for k in ("frame_ms", "snapshot_ms", "render_ms"):
    q = j[k]
    assert 0 < q["p50"] <= q["p95"] <= q["max"], (k, q)
    assert q["max"] == max(s[k] for s in steps), (k, q)
print("ust-sample: %d events, first rows %.3f s, index %.3f s, frame p95 "
      "%.2f ms" % (j["events"], j["first_rows_s"], j["index_s"],
                   j["frame_ms"]["p95"]))

rc, err, j = bench("empty", [])
assert rc == 0 and j is not None, (rc, err)
assert j["trace"] is None and j["first_frame_s"] > 0, j
assert j["vm_hwm_after_first_frame_kib"] > 0, j

rc, err, j = bench("missing", [os.path.join(outdir, "no-such-trace")])
assert rc == 1 and j is None, (rc, j)
assert "no-such-trace" in err, err
print("ok")
