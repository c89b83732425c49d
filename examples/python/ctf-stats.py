#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Per-event-name counts and a latency histogram of a CTF trace or a
trace.dat file, read in Python with GstCtf.EventReader.open().

    ctf-stats.py TRACE                          # counts + inter-event gaps
    ctf-stats.py TRACE --pair sys_enter_read sys_exit_read --plot lat.png

Latency: with --pair BEGIN END, the time from each BEGIN event to the next
END event of the same stream/CPU (syscall entry/exit, irq/softirq
entry/exit, ...); without it, the gap between consecutive events of the
same stream.  The histogram is drawn with matplotlib when it is installed
(--plot FILE.png), else printed as text.
"""
import argparse
import collections
import math
import os
import sys

import gi

gi.require_version("GstCtf", "1.0")
from gi.repository import GLib, GstCtf  # noqa: E402


def read_events(path, on_event):
    """Calls on_event(ts_ns, name, stream_key) for every event, in time
    order; exits with the reader's message when the trace cannot be read
    (a missing path, no trace, a corrupt packet)."""
    try:
        reader = GstCtf.EventReader.open(path)
        # only times and names: skip field decoding
        reader.props.decode_fields = False
        nxt = reader.next_event
        stream = reader.get_stream_name
        while True:
            ok, ts, name = nxt()
            if not ok:
                break
            on_event(ts, name, stream())
    except GLib.Error as e:
        sys.exit("error: %s" % e.message)


def text_histogram(values, bins=20, width=50):
    lo, hi = min(values), max(values)
    # log-spaced bins: latencies span orders of magnitude
    lo = max(lo, 1)
    edges = [lo * (hi / lo) ** (i / bins) for i in range(bins + 1)] \
        if hi > lo else [lo, lo + 1]
    counts = [0] * (len(edges) - 1)
    for v in values:
        i = 0 if v <= lo else min(len(counts) - 1, int(
            bins * math.log(v / lo) / math.log(hi / lo))) if hi > lo else 0
        counts[i] += 1
    top = max(counts)
    for i, c in enumerate(counts):
        print("%12.0f ns %s %d" % (edges[i], "#" * (c * width // top if top
                                                     else 0), c))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trace", help="CTF trace directory or trace.dat")
    parser.add_argument("--pair", nargs=2, metavar=("BEGIN", "END"),
                        help="latency from BEGIN to the next END event of "
                        "the same stream")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="save the histogram (matplotlib)")
    parser.add_argument("--top", type=int, default=30,
                        help="event names listed (default 30)")
    args = parser.parse_args()

    counts = collections.Counter()
    latencies = []
    last = {}           # stream -> last time (gaps) or BEGIN time (pairs)

    if args.pair:
        begin_name, end_name = args.pair

        def on_event(ts, name, key):
            counts[name] += 1
            if name == begin_name:
                last[key] = ts
            elif name == end_name:
                t0 = last.pop(key, None)
                if t0 is not None:
                    latencies.append(ts - t0)
    else:
        def on_event(ts, name, key):
            counts[name] += 1
            t0 = last.get(key)
            if t0 is not None:
                latencies.append(ts - t0)
            last[key] = ts

    read_events(args.trace, on_event)
    total = sum(counts.values())
    print("%d events, %d names" % (total, len(counts)))
    for name, n in counts.most_common(args.top):
        print("%10d  %5.1f%%  %s" % (n, 100.0 * n / max(total, 1), name))
    what = ("%s -> %s latency" % tuple(args.pair)) if args.pair else \
        "gap between consecutive events of a stream"
    if not latencies:
        print("no %s measured" % what)
        return 0
    latencies.sort()
    pct = lambda p: latencies[min(len(latencies) - 1,  # noqa: E731
                                  int(p * len(latencies)))]
    print("%s: n=%d min=%d ns median=%d ns p99=%d ns max=%d ns" % (
        what, len(latencies), latencies[0], pct(0.5), pct(0.99),
        latencies[-1]))
    if args.plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("matplotlib is not installed: text histogram instead")
            text_histogram(latencies)
            return 0
        fig, ax = plt.subplots(figsize=(8, 4.5))
        positive = [v for v in latencies if v > 0] or [1]
        lo, hi = min(positive), max(positive)
        bins = [lo * (hi / lo) ** (i / 50) for i in range(51)] \
            if hi > lo else 10
        ax.hist(positive, bins=bins)
        ax.set_xscale("log")
        ax.set_xlabel("ns")
        ax.set_ylabel("count")
        ax.set_title("%s\n%s" % (os.path.basename(os.path.normpath(
            args.trace)), what))
        fig.tight_layout()
        fig.savefig(args.plot)
        print("histogram: %s" % args.plot)
    else:
        text_histogram(latencies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
