/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rows of a model's trace read again and decided by a filter
 * (gstctfgtk-row-reader.h).  The merge does not record and does not
 * emulate recycled values, as the index's: the same packets, advances
 * and trace classes in the same order give the same rows.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfgtk-row-reader.h"
#include "gstctfgtk-filter-match-private.h"

struct _GstCtfGtkRowReader {
  gchar *path;
  const GstCtfFilterSpec *spec;
  GstCtfGtkPacketSource *src;
  GstCtfEventMerge *merge;      /* NULL: live, before the first metadata */
  GstCtfGtkMatcher *matcher;    /* for the merge's trace class */
  gboolean finished;            /* the source gave its last packet */
  gboolean new_tc;              /* live: a new trace class after the merge */
  gboolean told;                /* CAUGHT_UP given since the last item */
  gint64 drop_below;            /* events older than this are skipped */
  guint64 row;                  /* row of the next event given */
};

/* A merge and a matcher for the source's trace class now. */
static void
new_merge (GstCtfGtkRowReader * r)
{
  GstCtfTraceClass *tc = _gst_ctf_gtk_packet_source_get_trace_class
      (r->src);

  /* plans before the merger: they point into the trace class */
  g_clear_pointer (&r->matcher, _gst_ctf_gtk_matcher_free);
  g_clear_pointer (&r->merge, gst_ctf_event_merge_free);
  r->new_tc = FALSE;
  if (tc == NULL)
    return;
  r->merge = gst_ctf_event_merge_new (tc);
  gst_ctf_event_merge_set_emulate_recycling (r->merge, FALSE);
  gst_ctf_event_merge_set_recording (r->merge, FALSE);
  r->matcher = _gst_ctf_gtk_matcher_new (r->spec, r->src, r->path);
}

GstCtfGtkRowReader *
_gst_ctf_gtk_row_reader_new (const gchar * path, GstCtfGtkPacketSource * src,
    const GstCtfFilterSpec * spec, GError ** error)
{
  GstCtfGtkRowReader *r;

  if (src == NULL)
    src = _gst_ctf_gtk_packet_source_open (path, error);
  if (src == NULL)
    return NULL;
  r = g_new0 (GstCtfGtkRowReader, 1);
  r->path = g_strdup (path);
  r->spec = spec;
  r->src = src;
  r->drop_below = G_MININT64;
  new_merge (r);
  return r;
}

void
_gst_ctf_gtk_row_reader_free (GstCtfGtkRowReader * r)
{
  if (r == NULL)
    return;
  _gst_ctf_gtk_matcher_free (r->matcher);
  g_clear_pointer (&r->merge, gst_ctf_event_merge_free);
  _gst_ctf_gtk_packet_source_free (r->src);
  g_free (r->path);
  g_free (r);
}

GstCtfGtkPacketSource *
_gst_ctf_gtk_row_reader_get_source (GstCtfGtkRowReader * r)
{
  return r->src;
}

gboolean
_gst_ctf_gtk_row_reader_reset (GstCtfGtkRowReader * r,
    const GstCtfGtkCheckpoint * c, GError ** error)
{
  gboolean ok;

  if (c != NULL)
    ok = _gst_ctf_gtk_packet_source_seek (r->src, c->epoch, c->ns, error);
  else
    ok = _gst_ctf_gtk_packet_source_rewind (r->src, error);
  if (!ok)
    return FALSE;
  new_merge (r);
  r->finished = FALSE;
  r->told = FALSE;
  r->row = c != NULL ? c->row : 0;
  r->drop_below = c != NULL ? c->ns : G_MININT64;
  return TRUE;
}

gint
_gst_ctf_gtk_row_reader_next (GstCtfGtkRowReader * r, GstCtfMergeItem * item,
    guint64 * row, GError ** error)
{
  for (;;) {
    GstCtfMergeItemType t = r->merge != NULL ?
        gst_ctf_event_merge_next (r->merge, item, error) :
        GST_CTF_MERGE_NONE;
    GstCtfGtkPacket p;
    gint n;

    if (t == GST_CTF_MERGE_EVENT) {
      if (item->has_ns && item->ns < r->drop_below)
        continue;
      *row = r->row++;
      return 1;
    }
    if (t == GST_CTF_MERGE_ERROR) {
      if (error != NULL && *error == NULL)
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
            "unknown error");
      g_prefix_error (error, "Cannot decode event in the packet at byte %"
          G_GINT64_FORMAT " of stream \"%s\" of \"%s\": ", item->offset,
          item->stream_name ? item->stream_name : "(unknown)", r->path);
      return -1;
    }
    if (t != GST_CTF_MERGE_NONE)
      continue;                 /* lost events notices: not rows */
    if (r->new_tc) {
      /* live: a later trace class goes on from the first event of its
       * packets (as the model's cursor) */
      new_merge (r);
      r->drop_below = G_MININT64;
      continue;
    }
    if (r->finished)
      return 0;
    if (!r->told && _gst_ctf_gtk_packet_source_caught_up (r->src)) {
      r->told = TRUE;
      return GST_CTF_GTK_ROW_CAUGHT_UP;
    }
    n = _gst_ctf_gtk_packet_source_next (r->src, &p, error);
    r->told = FALSE;
    if (n < 0)
      return -1;
    if (n == 0 || n == GST_CTF_GTK_PACKET_NEW_TRACE_CLASS) {
      r->finished = n == 0;
      r->new_tc = n != 0;
      if (r->merge != NULL)
        gst_ctf_event_merge_finish (r->merge);
      continue;
    }
    if (n == GST_CTF_GTK_PACKET_ADVANCE) {
      if (r->merge != NULL)
        gst_ctf_event_merge_advance (r->merge, p.ns);
      continue;
    }
    if (r->merge == NULL || !gst_ctf_event_merge_push_full (r->merge,
            p.bytes, p.stream_class_id, p.rank, p.stream_id, p.stream_name,
            p.offset, error)) {
      if (error != NULL && *error == NULL)
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "a packet before the session's metadata");
      g_prefix_error (error, "Cannot read packet at byte %" G_GINT64_FORMAT
          " of stream \"%s\" of \"%s\": ", p.offset, p.stream_name, r->path);
      g_bytes_unref (p.bytes);
      return -1;
    }
    g_bytes_unref (p.bytes);
  }
}

gboolean
_gst_ctf_gtk_row_reader_keeps (GstCtfGtkRowReader * r,
    const GstCtfMergeItem * item, GError ** error)
{
  return _gst_ctf_gtk_matcher_keeps (r->matcher, r->merge, item, error);
}
