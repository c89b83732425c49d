#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Python event iteration: GstCtf.EventReader (PyGObject) against
babeltrace2's Python bindings (bt2) on the same CTF trace, same work per
event: read the timestamp (ns from origin) and the event name.  `gstctf`
decodes the packets of a ctfsrc ! appsink pipeline (per-stream order),
`open` reads with GstCtf.EventReader.open() (global order, as bt2).

    GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib \\
    GST_PLUGIN_PATH=build/plugins PYTHONPATH=gir/python \\
    python3 gir/bench-python.py TRACE [-r 3] [--fields]

Prints events/s of each (median of the runs, alternated) and the ratio.
"""
import argparse
import statistics
import time

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstCtf", "1.0")
from gi.repository import Gst, GstCtf  # noqa: E402


def gstctf_iterate(path, fields=False):
    pipeline = Gst.parse_launch("ctfsrc name=src ! appsink name=out "
                                "sync=false max-buffers=256")
    pipeline.get_by_name("src").set_property("location", path)
    sink = pipeline.get_by_name("out")
    pipeline.set_state(Gst.State.PLAYING)
    reader = None
    n = 0
    acc = 0
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:
            break
        if reader is None:
            reader = GstCtf.EventReader.new_from_caps(sample.get_caps())
            reader.props.decode_fields = fields
        reader.set_buffer(sample.get_buffer())
        nxt = reader.next_event
        while True:
            ok, ts, name = nxt()
            if not ok:
                break
            acc += ts
            n += 1
            if fields:
                reader.get_fields_table(GstCtf.Scope.SCOPE_EVENT_PAYLOAD)
    pipeline.set_state(Gst.State.NULL)
    return n


def open_iterate(path, fields=False):
    """EventReader.open(): no pipeline, global time order; with fields,
    the payload as the override's dict (declaration order, lists,
    labelled enums)."""
    reader = GstCtf.EventReader.open(path)
    n = 0
    acc = 0
    if fields:
        for ev in reader:
            acc += ev.get_timestamp_ns()
            ev.get_event_name()
            ev.payload
            n += 1
        return n
    reader.props.decode_fields = False
    nxt = reader.next_event
    while True:
        ok, ts, name = nxt()
        if not ok:
            break
        acc += ts
        n += 1
    return n


def bt2_iterate(path, fields=False):
    import bt2
    n = 0
    acc = 0
    for msg in bt2.TraceCollectionMessageIterator(path):
        if type(msg) is bt2._EventMessageConst:
            acc += msg.default_clock_snapshot.ns_from_origin
            msg.event.name
            n += 1
            if fields:
                dict(msg.event.payload_field)
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("-r", "--runs", type=int, default=3)
    ap.add_argument("--fields", action="store_true",
                    help="also read every event's payload as a dict")
    args = ap.parse_args()
    Gst.init(None)
    res = {"gstctf": [], "open": [], "bt2": []}
    counts = {}
    for _ in range(args.runs):
        for name, fn in (("gstctf", gstctf_iterate), ("open", open_iterate),
                         ("bt2", bt2_iterate)):
            t0 = time.perf_counter()
            counts[name] = fn(args.trace, args.fields)
            res[name].append(time.perf_counter() - t0)
    for name in res:
        med = statistics.median(res[name])
        print("%-7s %8d events  %.3f s  %.3f M events/s" % (
            name, counts[name], med, counts[name] / med / 1e6))
    for name in ("gstctf", "open"):
        print("ratio %s/bt2: %.1fx" % (name, statistics.median(res["bt2"]) /
                                       statistics.median(res[name])))


if __name__ == "__main__":
    main()
