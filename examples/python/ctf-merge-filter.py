#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Merge CTF traces and trace.dat files into one CTF trace, optionally
keeping only a time window, with a progress bar.

    ctf-merge-filter.py -o merged/ ust-trace/ kernel.dat
    ctf-merge-filter.py -o cut/ --begin 12:00:01 --end 12:00:02 trace/

The pipeline (docs/user-guide.md):

    ctfsrc location=A ! timefilter ! m.     tracecmdsrc location=B ! timefilter ! m.
    ctfmux name=m [mode=events] ! ctfsink location=OUT

With a single input there is no ctfmux.  Needs GST_PLUGIN_PATH to point
at the gst-ctf plugin when it is not installed.
"""
import argparse
import os
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def make(factory, **props):
    e = Gst.ElementFactory.make(factory, None)
    if e is None:
        sys.exit("error: the `%s` element is not available (is "
                 "GST_PLUGIN_PATH set to the gst-ctf plugin directory?)" %
                 factory)
    for k, v in props.items():
        e.set_property(k.replace("_", "-"), v)
    return e


def build(args):
    pipeline = Gst.Pipeline.new("merge")
    sink = make("ctfsink", location=args.output)
    if args.overwrite:
        sink.set_property("overwrite", True)
    pipeline.add(sink)
    if len(args.inputs) > 1:
        mux = make("ctfmux", mode=args.mode)
        pipeline.add(mux)
        mux.link(sink)
        target = mux
    else:
        target = sink
    counter = {"packets": 0, "bytes": 0}

    def count(pad, info):
        # ctfmux mode=events pushes its packets in buffer lists
        if info.type & Gst.PadProbeType.BUFFER_LIST:
            blist = info.get_buffer_list()
            for i in range(blist.length()):
                counter["packets"] += 1
                counter["bytes"] += blist.get(i).get_size()
        else:
            counter["packets"] += 1
            counter["bytes"] += info.get_buffer().get_size()
        return Gst.PadProbeReturn.OK

    sink.get_static_pad("sink").add_probe(
        Gst.PadProbeType.BUFFER | Gst.PadProbeType.BUFFER_LIST, count)
    for path in args.inputs:
        if not os.path.exists(path):
            sys.exit("error: input not found: %r" % path)
        src = make("ctfsrc" if os.path.isdir(path) else "tracecmdsrc",
                   location=path)
        pipeline.add(src)
        last = src
        if args.begin or args.end:
            window = make("timefilter")
            if args.begin:
                window.set_property("start", args.begin)
            if args.end:
                window.set_property("end", args.end)
            pipeline.add(window)
            last.link(window)
            last = window
        if not last.link(target):
            sys.exit("error: cannot link %s" % path)
    return pipeline, counter


def progress_bar(fraction, text, width=30):
    done = int(width * fraction)
    return "[%s%s] %5.1f%% %s" % ("#" * done, "." * (width - done),
                                  100 * fraction, text)


def main():
    parser = argparse.ArgumentParser(
        description="Merge CTF traces / trace.dat files and cut them to a "
        "time window")
    parser.add_argument("inputs", nargs="+",
                        help="CTF trace directories or trace.dat files")
    parser.add_argument("-o", "--output", required=True,
                        help="output CTF trace directory")
    parser.add_argument("--begin", help="keep events at or after this time "
                        "(babeltrace2 --begin forms)")
    parser.add_argument("--end", help="keep events at or before this time")
    parser.add_argument("--mode", choices=("packets", "events"),
                        default="packets", help="ctfmux mode (default: "
                        "whole packets by timestamp_begin)")
    parser.add_argument("-f", "--overwrite", action="store_true",
                        help="replace a CTF trace already in the output "
                        "directory (fails, deleting nothing, when other "
                        "files are there)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar")
    args = parser.parse_args()

    Gst.init(None)
    pipeline, counter = build(args)
    loop = GLib.MainLoop()
    state = {"error": None}
    tty = sys.stderr.isatty()
    started = time.monotonic()

    def show(final=False):
        if args.quiet:
            return True
        ok_p, pos = pipeline.query_position(Gst.Format.TIME)
        ok_d, dur = pipeline.query_duration(Gst.Format.TIME)
        frac = 1.0 if final else (min(1.0, pos / dur) if ok_p and ok_d and
                                  dur > 0 else 0.0)
        text = "%d packets, %.1f MiB, %.1f s" % (
            counter["packets"], counter["bytes"] / 1048576.0,
            time.monotonic() - started)
        sys.stderr.write(("\r" if tty else "") + progress_bar(frac, text) +
                         ("\n" if final or not tty else ""))
        sys.stderr.flush()
        return True

    def on_message(bus, msg):
        if msg.type == Gst.MessageType.EOS:
            show(final=True)
            loop.quit()
        elif msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            if tty and not args.quiet:
                sys.stderr.write("\n")
            state["error"] = "%s: %s" % (msg.src.get_name(), err.message)
            loop.quit()
        elif msg.type == Gst.MessageType.WARNING:
            err, _ = msg.parse_warning()
            sys.stderr.write("\nwarning: %s: %s\n" % (msg.src.get_name(),
                                                      err.message))

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    GLib.timeout_add(250, show)
    pipeline.set_state(Gst.State.PLAYING)
    try:
        loop.run()
    except KeyboardInterrupt:
        state["error"] = "interrupted"
    pipeline.set_state(Gst.State.NULL)
    if state["error"]:
        print("error: " + state["error"], file=sys.stderr)
        return 1
    print("wrote %s (%d packets)" % (args.output, counter["packets"]),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
