#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Per-element processing time and per-path latency over time, from a
trace the `ctftracer` tracer wrote, read with GstCtf.EventReader.open().

    GST_TRACERS="ctftracer(location=/tmp/t)" gst-launch-1.0 videotestsrc num-buffers=300 ! videoconvert ! queue ! fakesink
    ctftracer-latency.py /tmp/t --plot latency.png

Without --plot (or without matplotlib) it prints, per element and per
path, count, min, mean, p50, p99 and max in microseconds (the same
figures `ctfsrc location=/tmp/t ! ctfstatssink` prints, in ns).
"""
import argparse
import collections
import math
import sys

import gi

gi.require_version("GstCtf", "1.0")
from gi.repository import GLib, GstCtf  # noqa: E402


def read(path):
    """(proctime, latency): label -> [(t_s, value_us)], time from the
    first event."""
    elements, pads = {}, {}
    proc = collections.defaultdict(list)
    lat = collections.defaultdict(list)
    raw_proc, raw_lat = [], []
    t0 = None
    try:
        r = GstCtf.EventReader.open(path)
        while True:
            ok, ts, name = r.next_event()
            if not ok:
                break
            if t0 is None:
                t0 = ts
            if name == "pad_new":
                pads[r.get_field("pad")] = "%s.%s" % (
                    r.get_field("element_name"), r.get_field("name"))
                elements[r.get_field("element")] = r.get_field("element_name")
            elif name == "element_new":
                elements.setdefault(r.get_field("element"),
                                    r.get_field("name"))
            elif name == "proctime":
                raw_proc.append((ts, r.get_field("element"),
                                 r.get_field("time")))
            elif name == "latency":
                raw_lat.append((ts, r.get_field("src_pad"),
                                r.get_field("sink_pad"), r.get_field("time")))
    except GLib.Error as e:
        sys.exit("error: %s" % e.message)
    # names are known once every pad_new has been read
    for ts, el, v in raw_proc:
        proc[elements.get(el, "element %d" % el)].append(
            ((ts - t0) / 1e9, v / 1e3))
    for ts, s, k, v in raw_lat:
        lat["%s -> %s" % (pads.get(s, s), pads.get(k, k))].append(
            ((ts - t0) / 1e9, v / 1e3))
    return proc, lat


def summary(title, series):
    print("%s (us): count min mean p50 p99 max" % title)
    for label in sorted(series):
        v = sorted(x for _, x in series[label])
        rank = lambda p: v[max(math.ceil(len(v) * p / 100) - 1, 0)]  # noqa
        print("  %s: %d %.3f %.3f %.3f %.3f %.3f" % (
            label, len(v), v[0], sum(v) / len(v), rank(50), rank(99), v[-1]))


def plot(proc, lat, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 1, sharex=True, figsize=(10, 7))
    for ax, series, title in ((axes[0], proc, "processing time per element"),
                              (axes[1], lat, "latency per path")):
        for label in sorted(series):
            xs, ys = zip(*series[label])
            ax.plot(xs, ys, ".", markersize=2, label=label)
        ax.set_ylabel("us")
        ax.set_yscale("log")
        ax.set_title(title)
        if series:
            ax.legend(fontsize="small", markerscale=4)
    axes[1].set_xlabel("s since the first event")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print("wrote %s" % out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace", help="the directory ctftracer wrote")
    ap.add_argument("--plot", metavar="FILE.png",
                    help="draw both series over time (needs matplotlib)")
    a = ap.parse_args()
    proc, lat = read(a.trace)
    summary("processing time per element", proc)
    summary("latency per path", lat)
    if a.plot:
        try:
            plot(proc, lat, a.plot)
        except ImportError:
            sys.exit("error: --plot needs matplotlib (python3-matplotlib)")


if __name__ == "__main__":
    main()
