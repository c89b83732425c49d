/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The packets of a trace in the order its source element pushes them,
 * with a time seek: the library's GstCtfPacketSource
 * (gstctf-packet-source.h), opened without a trace.dat's side stream, or
 * a reader of a live session (gstctfgtk-live-source.h).  Private to
 * libgstctf-gtk.
 */
#pragma once

#include <glib.h>
#include "gstctf-model.h"
#include "gstctf-packet-source.h"
#include "gstctfgtk-live-source.h"

G_BEGIN_DECLS

typedef struct _GstCtfGtkPacketSource GstCtfGtkPacketSource;

/* One packet, or the time of an advance (_gst_ctf_gtk_packet_source_next
 * returning GST_CTF_GTK_PACKET_ADVANCE). */
typedef struct {
  GBytes *bytes;
  guint64 stream_class_id;
  gint64 rank;
  gint64 stream_id;
  const gchar *stream_name;
  gint64 offset;
  gint64 ns;
} GstCtfGtkPacket;

/* What _gst_ctf_gtk_packet_source_next() returns besides 1 (a packet),
 * 0 (the end) and -1 (an error); only a live session gives them. */
#define GST_CTF_GTK_PACKET_NEW_TRACE_CLASS 2    /* finish the merge, then
                                                 * read with the new one */
#define GST_CTF_GTK_PACKET_ADVANCE 3    /* no later packet is older than
                                         * packet->ns */

/* A trace on disk, or what the event model of this process that follows
 * a live session's URL (the latest opened) received so far (not
 * following it: the end of the records received when the reader gets
 * there; a URL no model follows is a GST_CTF_ERROR_LIVE error).  Readers
 * that know the model take its own session instead
 * (_gst_ctf_gtk_event_model_new_live_source()). */
G_GNUC_INTERNAL GstCtfGtkPacketSource *_gst_ctf_gtk_packet_source_open (
    const gchar * path, GError ** error);
/* A trace on disk or a live session's URL (the session is followed from
 * now on; its first trace class comes with NEW_TRACE_CLASS). */
G_GNUC_INTERNAL GstCtfGtkPacketSource *_gst_ctf_gtk_packet_source_open_any (
    const gchar * path, GstCtfLiveSeek seek, GError ** error);
/* Another reader of the same live session (following it). */
G_GNUC_INTERNAL GstCtfGtkPacketSource *_gst_ctf_gtk_packet_source_new_live (
    GstCtfGtkLiveSource * live);
/* (transfer none) (nullable): the live session read */
G_GNUC_INTERNAL GstCtfGtkLiveSource *_gst_ctf_gtk_packet_source_get_live (
    GstCtfGtkPacketSource * s);
/* Live, @follow: wait at the end of what was received for more, as the
 * model's own readers do, until the session ends or @cancelled (atomic,
 * nullable, outliving @s) is set; else end there.  Nothing on disk. */
G_GNUC_INTERNAL void _gst_ctf_gtk_packet_source_follow (
    GstCtfGtkPacketSource * s, gboolean follow, const gint * cancelled);
/* Live: every packet received was read (the next read waits, or ends
 * when not following); FALSE on disk. */
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_packet_source_caught_up (
    GstCtfGtkPacketSource * s);
G_GNUC_INTERNAL void _gst_ctf_gtk_packet_source_free (GstCtfGtkPacketSource *
    s);
/* (nullable): live, NULL before the first NEW_TRACE_CLASS */
G_GNUC_INTERNAL GstCtfTraceClass *_gst_ctf_gtk_packet_source_get_trace_class
    (GstCtfGtkPacketSource * s);
/* The epoch (live: trace class number) of the packets given now; 0 on
 * disk. */
G_GNUC_INTERNAL guint _gst_ctf_gtk_packet_source_get_epoch (
    GstCtfGtkPacketSource * s);
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_packet_source_can_seek (
    GstCtfGtkPacketSource * s);
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_packet_source_seek (
    GstCtfGtkPacketSource * s, guint epoch, gint64 ns, GError ** error);
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_packet_source_rewind (
    GstCtfGtkPacketSource * s, GError ** error);
G_GNUC_INTERNAL gint _gst_ctf_gtk_packet_source_next (GstCtfGtkPacketSource *
    s, GstCtfGtkPacket * p, GError ** error);

G_END_DECLS
