#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gst-ctf trace viewer (GTK 4, PyGObject).

Opens a CTF trace directory, a trace-cmd trace.dat file or a live LTTng
session (net://RELAY/host/HOST/SESSION, followed until it is destroyed)
and lists its events in a virtualized Gtk.ColumnView (time, stream/CPU, name, fields).
A time range (babeltrace2 --begin/--end forms) drives a `timefilter`
element.  The pipeline runs in GStreamer's streaming threads:

    ctfsrc location=TRACE ! [timefilter start=.. end=.. !] appsink
    tracecmdsrc location=trace.dat ! ...
    lttnglivesrc url=net://RELAY/host/HOST/SESSION session-not-found=end ! ...

The appsink callback decodes each packet with GstCtf.EventReader and
appends compact per-event records (time, name id, packet, index); the
main loop publishes new rows every 100 ms, so the list fills
incrementally and the window stays responsive on traces of millions of
events.  Field text is decoded lazily, only for the rows on screen.

    ctf-viewer.py [--begin T] [--end T] [TRACE]
    ctf-viewer.py TRACE --screenshot out.png --exit-when-loaded   # tests
"""
import argparse
import ctypes
import datetime
import os
import sys
import threading
import time
from array import array
from collections import OrderedDict

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstCtf", "1.0")
gi.require_version("Gtk", "4.0")
from gi.repository import GLib, GObject, Gio, Gst, GstCtf, Gtk  # noqa: E402


def format_time(ns):
    """ns from the Unix epoch -> 'HH:MM:SS.NNNNNNNNN' (UTC), as
    babeltrace2 prints with TZ=UTC."""
    secs, frac = divmod(ns, 10**9)
    t = datetime.datetime.fromtimestamp(secs, datetime.timezone.utc)
    return "%s.%09d" % (t.strftime("%H:%M:%S"), frac)


class EventRow(GObject.Object):
    """One row, made on demand for the rows on screen."""
    __gtype_name__ = "CtfViewerEventRow"

    def __init__(self, model, position):
        super().__init__()
        self.model = model
        self.position = position


class EventModel(GObject.Object, Gio.ListModel):
    """A Gio.ListModel over compact arrays: no object per event."""
    __gtype_name__ = "CtfViewerEventModel"

    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.ts = array("q")
            self.name_id = array("I")
            self.packet = array("I")
            self.ordinal = array("I")
            self.names = []
            self.name_ids = {}
            self.packets = []          # (buffer, caps, stream label)
            self.order = None          # sorted permutation, after loading
        self.published = 0
        self.field_cache = OrderedDict()
        self.field_reader = None

    # Gio.ListModel
    def do_get_item_type(self):
        return EventRow.__gtype__

    def do_get_n_items(self):
        return self.published

    def do_get_item(self, position):
        if position >= self.published:
            return None
        return EventRow(self, position)

    # called from the streaming thread
    def add_packet(self, reader, sample):
        buf = sample.get_buffer()
        reader.set_buffer(buf)
        cpu = reader.get_cpu()
        label = ("cpu %d" % cpu) if cpu >= 0 else (
            reader.get_stream_name() or "stream %d" %
            reader.get_stream_class_id())
        with self.lock:
            p = len(self.packets)
            self.packets.append((buf, sample.get_caps(), label))
        ts, name_id, packet, ordinal = self.ts, self.name_id, self.packet, \
            self.ordinal
        ids = self.name_ids
        k = 0
        nxt = reader.next_event
        while True:
            ok, t, name = nxt()
            if not ok:
                break
            i = ids.get(name)
            if i is None:
                i = ids[name] = len(self.names)
                self.names.append(name)
            ts.append(t)
            name_id.append(i)
            packet.append(p)
            ordinal.append(k)
            k += 1
        return k

    # main thread
    def publish(self):
        n = len(self.ts)
        old = self.published
        if n > old:
            self.published = n
            self.items_changed(old, 0, n - old)

    def sort_by_time(self):
        """Packets come in timestamp_begin order per stream; events of
        streams overlap: sort once loading is over (stable)."""
        ts = self.ts
        order = sorted(range(len(ts)), key=ts.__getitem__)
        if any(i != j for i, j in enumerate(order)):
            self.order = array("I", order)
            self.items_changed(0, self.published, self.published)

    def index(self, position):
        return self.order[position] if self.order is not None else position

    def row_time(self, position):
        return self.ts[self.index(position)]

    def row_texts(self, position):
        i = self.index(position)
        p = self.packet[i]
        return (format_time(self.ts[i]), self.packets[p][2],
                self.names[self.name_id[i]], self.fields(p, self.ordinal[i]))

    def fields(self, p, k):
        texts = self.field_cache.get(p)
        if texts is None:
            buf, caps, _ = self.packets[p]
            if self.field_reader is None:
                self.field_reader = GstCtf.EventReader.new_from_caps(caps)
            else:
                self.field_reader.set_caps(caps)
            r = self.field_reader
            r.set_buffer(buf)
            texts = []
            while r.next():
                texts.append(r.format_fields())
            self.field_cache[p] = texts
            if len(self.field_cache) > 256:
                self.field_cache.popitem(last=False)
        else:
            self.field_cache.move_to_end(p)
        return texts[k] if k < len(texts) else ""


class Loader:
    """Runs the pipeline; the appsink callback decodes in the streaming
    thread."""

    def __init__(self, model, on_done):
        self.model = model
        self.on_done = on_done
        self.pipeline = None
        self.reader = None
        self.error = None
        self.events = 0
        self.started = 0

    def start(self, path, begin=None, end=None):
        self.stop()
        self.model.reset()
        self.reader = None
        self.error = None
        self.events = 0
        live = path.startswith(("net://", "net4://"))
        src = "lttnglivesrc" if live else \
            "ctfsrc" if os.path.isdir(path) else "tracecmdsrc"
        if Gst.ElementFactory.find(src) is None:
            raise RuntimeError("the %s element is not available (set "
                               "GST_PLUGIN_PATH)" % src)
        self.pipeline = Gst.Pipeline.new("viewer")
        source = Gst.ElementFactory.make(src, "src")
        if live:
            # rows appear as the session records, until it is destroyed
            source.set_property("url", path)
            Gst.util_set_object_arg(source, "session-not-found", "end")
        else:
            source.set_property("location", path)
        sink = Gst.ElementFactory.make("appsink", "sink")
        sink.set_property("sync", False)
        sink.set_property("emit-signals", True)
        sink.connect("new-sample", self.on_sample)
        self.pipeline.add(source)
        self.pipeline.add(sink)
        last = source
        if begin or end:
            window = Gst.ElementFactory.make("timefilter", "window")
            if window is None:
                raise RuntimeError("the timefilter element is not available")
            if begin:
                window.set_property("start", begin)
            if end:
                window.set_property("end", end)
            self.pipeline.add(window)
            source.link(window)
            last = window
        last.link(sink)
        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_message)
        self.started = time.monotonic()
        self.pipeline.set_state(Gst.State.PLAYING)

    def stop(self):
        if self.pipeline is not None:
            self.pipeline.get_bus().remove_signal_watch()
            self.pipeline.set_state(Gst.State.NULL)
            self.pipeline = None

    def on_sample(self, sink):
        # streaming thread
        sample = sink.emit("pull-sample")
        if sample is None:
            return Gst.FlowReturn.EOS
        try:
            if self.reader is None:
                self.reader = GstCtf.EventReader.new_from_caps(
                    sample.get_caps())
                self.reader.props.decode_fields = False
            else:
                self.reader.set_caps(sample.get_caps())
            self.events += self.model.add_packet(self.reader, sample)
        except GLib.Error as e:
            self.error = e.message
            return Gst.FlowReturn.ERROR
        return Gst.FlowReturn.OK

    def on_message(self, bus, msg):
        if msg.type == Gst.MessageType.EOS:
            self.stop()
            self.on_done(None)
        elif msg.type == Gst.MessageType.ERROR:
            err, _ = msg.parse_error()
            self.stop()
            self.on_done(self.error or err.message)


class Viewer(Gtk.ApplicationWindow):
    def __init__(self, app, args):
        super().__init__(application=app, title="gst-ctf viewer")
        self.args = args
        self.set_default_size(1200, 700)
        self.model = EventModel()
        self.loader = Loader(self.model, self.on_loaded)
        self.path = args.trace
        self.loading = False

        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
        self.set_child(box)

        bar = Gtk.Box(spacing=6, margin_start=6, margin_end=6, margin_top=6)
        open_btn = Gtk.Button(label="Open trace…")
        open_btn.connect("clicked", self.on_open)
        bar.append(open_btn)
        bar.append(Gtk.Label(label="From"))
        self.begin_entry = Gtk.Entry(placeholder_text="HH:MM:SS.NNNNNNNNN",
                                     text=args.begin or "", width_chars=22)
        bar.append(self.begin_entry)
        bar.append(Gtk.Label(label="to"))
        self.end_entry = Gtk.Entry(placeholder_text="HH:MM:SS.NNNNNNNNN",
                                   text=args.end or "", width_chars=22)
        bar.append(self.end_entry)
        apply_btn = Gtk.Button(label="Apply range")
        apply_btn.connect("clicked", lambda *_: self.load())
        self.begin_entry.connect("activate", lambda *_: self.load())
        self.end_entry.connect("activate", lambda *_: self.load())
        bar.append(apply_btn)
        sel_btn = Gtk.Button(label="Range from selection")
        sel_btn.set_tooltip_text("Use the first and last selected rows "
                                 "as the time range")
        sel_btn.connect("clicked", self.on_range_from_selection)
        bar.append(sel_btn)
        box.append(bar)

        self.selection = Gtk.MultiSelection(model=self.model)
        view = Gtk.ColumnView(model=self.selection, show_row_separators=True,
                              show_column_separators=True)
        for title, idx, expand in (("Time (UTC)", 0, False),
                                   ("Stream / CPU", 1, False),
                                   ("Event", 2, False),
                                   ("Fields", 3, True)):
            factory = Gtk.SignalListItemFactory()
            factory.connect("setup", self.on_setup)
            factory.connect("bind", self.on_bind, idx)
            col = Gtk.ColumnViewColumn(title=title, factory=factory)
            col.set_expand(expand)
            col.set_resizable(True)
            view.append_column(col)
        scroller = Gtk.ScrolledWindow(vexpand=True, hexpand=True)
        scroller.set_child(view)
        box.append(scroller)

        self.status = Gtk.Label(xalign=0, margin_start=6, margin_bottom=4)
        box.append(self.status)
        GLib.timeout_add(100, self.on_tick)
        if self.path:
            GLib.idle_add(self.load)
        else:
            self.status.set_text("Open a CTF trace directory or a trace.dat "
                                 "file")

    def on_setup(self, factory, item):
        label = Gtk.Label(xalign=0, ellipsize=3)   # Pango.EllipsizeMode.END
        item.set_child(label)

    def on_bind(self, factory, item, idx):
        row = item.get_item()
        item.get_child().set_text(
            row.model.row_texts(row.position)[idx])

    def on_open(self, *_):
        dialog = Gtk.FileChooserNative(
            title="Open a CTF trace directory", transient_for=self,
            action=Gtk.FileChooserAction.SELECT_FOLDER)

        def done(d, response):
            if response == Gtk.ResponseType.ACCEPT:
                self.path = d.get_file().get_path()
                self.load()
        dialog.connect("response", done)
        dialog.show()
        self._dialog = dialog

    def on_range_from_selection(self, *_):
        sel = self.selection.get_selection()
        if sel.is_empty():
            return
        first = sel.get_minimum()
        last = sel.get_maximum()
        self.begin_entry.set_text(format_time(self.model.row_time(first)))
        self.end_entry.set_text(format_time(self.model.row_time(last)))
        self.load()

    def load(self):
        begin = self.begin_entry.get_text().strip() or None
        end = self.end_entry.get_text().strip() or None
        self.model.items_changed(0, self.model.published, 0)
        try:
            self.loading = True
            self.loader.start(self.path, begin, end)
        except (RuntimeError, GLib.Error) as e:
            self.loading = False
            self.status.set_text("Error: %s" % e)
        return False

    def on_tick(self):
        if self.loading:
            self.model.publish()
            self.status.set_text("Loading %s… %d events" % (
                self.path, self.model.published))
        return True

    def on_loaded(self, error):
        self.loading = False
        self.model.publish()
        self.model.sort_by_time()
        n = self.model.published
        dt = time.monotonic() - self.loader.started
        if error:
            text = "Error: %s (%d events read)" % (error, n)
        else:
            span = ""
            if n:
                span = ", %s … %s" % (format_time(self.model.row_time(0)),
                                      format_time(self.model.row_time(n - 1)))
            text = "%s: %d events in %.2f s%s" % (self.path, n, dt, span)
        self.status.set_text(text)
        print("loaded: events=%d model-items=%d error=%s" % (
            self.loader.events, self.model.get_n_items(), error or "none"),
            flush=True)
        if self.args.screenshot or self.args.exit_when_loaded:
            # let the list lay out and draw its rows first
            GLib.timeout_add(700, self.finish)

    def finish(self):
        if self.args.screenshot:
            save_screenshot(self, self.args.screenshot)
        if self.args.exit_when_loaded:
            self.get_application().quit()
        return False


def gobject_pointer(obj):
    """The C pointer of a PyGObject object."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get(obj.__gpointer__, None)


def save_screenshot(widget, path):
    """Renders @widget with its own GSK renderer into a PNG.  PyGObject
    3.42 cannot hold GskRenderNode (a fundamental type), so the few calls
    that pass a node go through ctypes."""
    gtk = ctypes.CDLL("libgtk-4.so.1")
    vp = ctypes.c_void_p
    for name, res, args in (
            ("gtk_snapshot_new", vp, []),
            ("gdk_paintable_snapshot", None,
             [vp, vp, ctypes.c_double, ctypes.c_double]),
            ("gtk_snapshot_free_to_node", vp, [vp]),
            ("gsk_renderer_render_texture", vp, [vp, vp, vp]),
            ("gdk_texture_save_to_png", ctypes.c_int, [vp, ctypes.c_char_p]),
            ("gsk_render_node_unref", None, [vp]),
            ("g_object_unref", None, [vp])):
        getattr(gtk, name).restype = res
        getattr(gtk, name).argtypes = args
    w, h = widget.get_width(), widget.get_height()
    paintable = Gtk.WidgetPaintable.new(widget)
    renderer = widget.get_native().get_renderer()
    snap = gtk.gtk_snapshot_new()
    gtk.gdk_paintable_snapshot(gobject_pointer(paintable), snap, w, h)
    node = gtk.gtk_snapshot_free_to_node(snap)
    if not node:
        raise RuntimeError("nothing to render")
    tex = gtk.gsk_renderer_render_texture(gobject_pointer(renderer), node,
                                          None)
    ok = gtk.gdk_texture_save_to_png(tex, os.fsencode(path))
    gtk.g_object_unref(tex)
    gtk.gsk_render_node_unref(node)
    if not ok:
        raise RuntimeError("cannot write %s" % path)
    print("screenshot: %s (%dx%d)" % (path, w, h), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trace", nargs="?",
                        help="CTF trace directory, trace.dat file or "
                        "net://RELAY/host/HOST/SESSION (live)")
    parser.add_argument("--begin", help="start of the time range")
    parser.add_argument("--end", help="end of the time range")
    parser.add_argument("--screenshot", help="save a PNG once loaded")
    parser.add_argument("--exit-when-loaded", action="store_true",
                        help="quit once loaded (tests)")
    args = parser.parse_args()
    Gst.init(None)
    app = Gtk.Application(application_id="org.example.GstCtfViewer",
                          flags=Gio.ApplicationFlags.NON_UNIQUE)
    app.connect("activate", lambda a: Viewer(a, args).present())
    return app.run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
