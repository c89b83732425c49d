/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The packets of a trace on disk in the order its source element pushes
 * them (ctfsrc: gstctf-trace-source.h; tracecmdsrc: the trace.dat
 * packetizer; lttng0src: the LTTng 0.x packetizer), with a time seek
 * where the input has one.  Private to libgstctf-gtk.
 */
#pragma once

#include <glib.h>
#include "gstctf-model.h"

G_BEGIN_DECLS

typedef struct _GstCtfGtkPacketSource GstCtfGtkPacketSource;

/* One packet, in time order over all streams. */
typedef struct {
  GBytes *bytes;                /* transfer full */
  guint64 stream_class_id;
  gint64 rank;                  /* tie order, unique over all streams */
  gint64 stream_id;             /* babeltrace2's stream ID, -1 for none */
  const gchar *stream_name;     /* interned */
  gint64 offset;                /* in its stream file, -1 when unknown */
} GstCtfGtkPacket;

G_GNUC_INTERNAL GstCtfGtkPacketSource *_gst_ctf_gtk_packet_source_open (
    const gchar * path, GError ** error);
G_GNUC_INTERNAL void _gst_ctf_gtk_packet_source_free (
    GstCtfGtkPacketSource * s);
G_GNUC_INTERNAL GstCtfTraceClass *_gst_ctf_gtk_packet_source_get_trace_class (
    GstCtfGtkPacketSource * s);
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_packet_source_can_seek (
    GstCtfGtkPacketSource * s);
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_packet_source_seek (
    GstCtfGtkPacketSource * s, gint64 ns, GError ** error);
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_packet_source_rewind (
    GstCtfGtkPacketSource * s, GError ** error);
G_GNUC_INTERNAL gint _gst_ctf_gtk_packet_source_next (
    GstCtfGtkPacketSource * s, GstCtfGtkPacket * packet, GError ** error);

G_END_DECLS
