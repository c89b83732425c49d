#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The gst-ctf GTK 4 widgets in an application: a timeline above a list
of the events of a trace (CTF directory, trace.dat, LTTng 0.x, or a
live LTTng session: net://RELAY/host/HOST/SESSION).

    embed.py TRACE
"""
import sys
import gi
gi.require_version("Gtk", "4.0")
gi.require_version("GstCtfGtk", "1.0")
from gi.repository import Gtk, GstCtfGtk

model = GstCtfGtk.EventModel.new_for_path(sys.argv[1])  # GLib.Error if bad
factory = Gtk.SignalListItemFactory()
factory.connect("setup", lambda f, item: item.set_child(Gtk.Label(xalign=0)))
factory.connect("bind", lambda f, item: item.get_child().set_text(
    "%d  %s  %s" % (item.get_item().props.timestamp_ns,
                    item.get_item().props.name, item.get_item().props.fields)))
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
box.append(GstCtfGtk.Timeline(model=model))
box.append(Gtk.ScrolledWindow(vexpand=True, child=Gtk.ListView(
    model=Gtk.NoSelection(model=model), factory=factory)))
app = Gtk.Application()
app.connect("activate", lambda a: Gtk.ApplicationWindow(
    application=a, child=box, default_width=1000, default_height=600).present())
app.run(None)
