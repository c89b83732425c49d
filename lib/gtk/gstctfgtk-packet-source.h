/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The packets of a trace on disk in the order its source element pushes
 * them, with a time seek where the input has one: the library's
 * GstCtfPacketSource (gstctf-packet-source.h), opened without a
 * trace.dat's side stream.  Private to libgstctf-gtk.
 */
#pragma once

#include <glib.h>
#include "gstctf-model.h"
#include "gstctf-packet-source.h"

G_BEGIN_DECLS

/* The library's source, under the model's names. */
typedef GstCtfPacketSource GstCtfGtkPacketSource;
typedef GstCtfPacketSourcePacket GstCtfGtkPacket;

G_GNUC_INTERNAL GstCtfGtkPacketSource *_gst_ctf_gtk_packet_source_open (
    const gchar * path, GError ** error);
#define _gst_ctf_gtk_packet_source_free gst_ctf_packet_source_free
#define _gst_ctf_gtk_packet_source_get_trace_class \
    gst_ctf_packet_source_get_trace_class
#define _gst_ctf_gtk_packet_source_can_seek gst_ctf_packet_source_can_seek
#define _gst_ctf_gtk_packet_source_seek gst_ctf_packet_source_seek
#define _gst_ctf_gtk_packet_source_rewind gst_ctf_packet_source_rewind
#define _gst_ctf_gtk_packet_source_next gst_ctf_packet_source_next

G_END_DECLS
