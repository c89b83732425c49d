/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkLiveSource: an LTTng live session (`net://...`) followed on a
 * thread, its packets kept for the event model to read again.
 * Private to libgstctf-gtk.
 *
 * One follower per session (a relay lets one viewer attach to a session)
 * and any number of readers over what it received.  The follower reads
 * the session as `lttnglivesrc` does (lib/live/ client, packets in
 * `timestamp_begin` order across streams, a merged trace class when the
 * session has several traces) and appends every packet to a temporary
 * file it owns (unlinked at once, so it goes with the process): the
 * memory kept is one small record per packet, as the index of a trace on
 * disk.
 *
 * The packets form epochs: a new epoch starts at each new trace class
 * (the tracer added metadata, a trace joined the session), where
 * `lttnglivesrc ! ctftextsink` sends new caps and its merge gives back
 * every event it holds.  A reader gives the packets in order, and
 * between them the points where it must do the same: a new epoch, and
 * the times up to which no later packet has an older event (what
 * `lttnglivesrc`'s GAP events say).
 */
#pragma once

#include <glib.h>
#include "gstctf-model.h"
#include "gstctf-packet-source.h"
#include "gstctf-live.h"

G_BEGIN_DECLS

typedef struct _GstCtfGtkLiveSource GstCtfGtkLiveSource;
typedef struct _GstCtfGtkLiveReader GstCtfGtkLiveReader;

/* What _gst_ctf_gtk_live_reader_next() gives. */
typedef enum {
  GST_CTF_GTK_LIVE_ERROR = -1,
  GST_CTF_GTK_LIVE_END = 0,     /* the session is over (or the follower
                                 * stopped at an error: dup_error()) */
  GST_CTF_GTK_LIVE_PACKET = 1,
  GST_CTF_GTK_LIVE_NEW_EPOCH = 2,       /* a new trace class from here */
  GST_CTF_GTK_LIVE_ADVANCE = 3, /* no later packet is older than *ns */
} GstCtfGtkLiveItem;

G_GNUC_INTERNAL gboolean _gst_ctf_gtk_live_is_url (const gchar * path);

G_GNUC_INTERNAL GstCtfGtkLiveSource *_gst_ctf_gtk_live_source_open (
    const gchar * url, GstCtfLiveSeek seek, GError ** error);
G_GNUC_INTERNAL GstCtfGtkLiveSource *_gst_ctf_gtk_live_source_lookup (
    const gchar * url);
G_GNUC_INTERNAL GstCtfGtkLiveSource *_gst_ctf_gtk_live_source_ref (
    GstCtfGtkLiveSource * s);
G_GNUC_INTERNAL void _gst_ctf_gtk_live_source_unref (GstCtfGtkLiveSource * s);
G_GNUC_INTERNAL void _gst_ctf_gtk_live_source_stop (GstCtfGtkLiveSource * s);
G_GNUC_INTERNAL GError *_gst_ctf_gtk_live_source_dup_error (
    GstCtfGtkLiveSource * s);

G_GNUC_INTERNAL GstCtfGtkLiveReader *_gst_ctf_gtk_live_reader_new (
    GstCtfGtkLiveSource * s);
G_GNUC_INTERNAL void _gst_ctf_gtk_live_reader_free (GstCtfGtkLiveReader * r);
G_GNUC_INTERNAL GstCtfGtkLiveSource *_gst_ctf_gtk_live_reader_get_source (
    GstCtfGtkLiveReader * r);
G_GNUC_INTERNAL GstCtfTraceClass *_gst_ctf_gtk_live_reader_get_trace_class (
    GstCtfGtkLiveReader * r);
G_GNUC_INTERNAL guint _gst_ctf_gtk_live_reader_get_epoch (
    GstCtfGtkLiveReader * r);
G_GNUC_INTERNAL void _gst_ctf_gtk_live_reader_set_follow (
    GstCtfGtkLiveReader * r, gboolean follow, const gint * cancelled);
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_live_reader_caught_up (
    GstCtfGtkLiveReader * r);
G_GNUC_INTERNAL const gchar *_gst_ctf_gtk_live_reader_get_metadata (
    GstCtfGtkLiveReader * r);
G_GNUC_INTERNAL void _gst_ctf_gtk_live_reader_get_last (
    GstCtfGtkLiveReader * r, gint64 * end_ns, guint64 * instance_id,
    guint64 * discarded_delta);
G_GNUC_INTERNAL void _gst_ctf_gtk_live_reader_rewind (GstCtfGtkLiveReader *
    r);
G_GNUC_INTERNAL void _gst_ctf_gtk_live_reader_seek (GstCtfGtkLiveReader * r,
    guint epoch, gint64 ns);
G_GNUC_INTERNAL GstCtfGtkLiveItem _gst_ctf_gtk_live_reader_next (
    GstCtfGtkLiveReader * r, GstCtfPacketSourcePacket * packet, gint64 * ns,
    GError ** error);

G_END_DECLS
