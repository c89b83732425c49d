/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkPacketSource: the library's GstCtfPacketSource
 * (gstctf-packet-source.h), which opens every input on disk and reads it
 * in its source element's order, or a reader of a live session
 * (gstctfgtk-live-source.h) (gstctfgtk-packet-source.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfgtk-packet-source.h"

struct _GstCtfGtkPacketSource {
  GstCtfPacketSource *file;
  GstCtfGtkLiveReader *live;
};

GstCtfGtkPacketSource *
_gst_ctf_gtk_packet_source_open (const gchar * path, GError ** error)
{
  GstCtfPacketSource *f;
  GstCtfGtkPacketSource *s;

  if (_gst_ctf_gtk_live_is_url (path)) {
    /* what the model following it received (the relay lets one viewer
     * attach), up to where the reader gets */
    GstCtfGtkLiveSource *live = _gst_ctf_gtk_live_source_lookup (path);

    if (live == NULL) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "No event model of this process follows the live session %s",
          path);
      return NULL;
    }
    s = _gst_ctf_gtk_packet_source_new_live (live);
    _gst_ctf_gtk_live_source_unref (live);
    _gst_ctf_gtk_packet_source_follow (s, FALSE, NULL);
    return s;
  }

  /* the side stream of synthetic tracecmd_* events is left out: the rows
   * are the records `trace-cmd report` prints */
  f = gst_ctf_packet_source_open (path, GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM,
      error);
  if (f == NULL)
    return NULL;
  s = g_new0 (GstCtfGtkPacketSource, 1);
  s->file = f;
  return s;
}

GstCtfGtkPacketSource *
_gst_ctf_gtk_packet_source_open_any (const gchar * path,
    GstCtfLiveSeek seek, GError ** error)
{
  GstCtfGtkLiveSource *live;
  GstCtfGtkPacketSource *s;

  if (!_gst_ctf_gtk_live_is_url (path))
    return _gst_ctf_gtk_packet_source_open (path, error);
  live = _gst_ctf_gtk_live_source_open (path, seek, error);
  if (live == NULL)
    return NULL;
  s = _gst_ctf_gtk_packet_source_new_live (live);
  _gst_ctf_gtk_live_source_unref (live);
  return s;
}

GstCtfGtkPacketSource *
_gst_ctf_gtk_packet_source_new_live (GstCtfGtkLiveSource * live)
{
  GstCtfGtkPacketSource *s = g_new0 (GstCtfGtkPacketSource, 1);

  s->live = _gst_ctf_gtk_live_reader_new (live);
  return s;
}

GstCtfGtkLiveSource *
_gst_ctf_gtk_packet_source_get_live (GstCtfGtkPacketSource * s)
{
  return s->live != NULL ? _gst_ctf_gtk_live_reader_get_source (s->live) :
      NULL;
}

void
_gst_ctf_gtk_packet_source_follow (GstCtfGtkPacketSource * s,
    gboolean follow, const gint * cancelled)
{
  if (s->live != NULL)
    _gst_ctf_gtk_live_reader_set_follow (s->live, follow, cancelled);
}

gboolean
_gst_ctf_gtk_packet_source_caught_up (GstCtfGtkPacketSource * s)
{
  return s->live != NULL && _gst_ctf_gtk_live_reader_caught_up (s->live);
}

void
_gst_ctf_gtk_packet_source_free (GstCtfGtkPacketSource * s)
{
  if (s == NULL)
    return;
  g_clear_pointer (&s->file, gst_ctf_packet_source_free);
  g_clear_pointer (&s->live, _gst_ctf_gtk_live_reader_free);
  g_free (s);
}

GstCtfTraceClass *
_gst_ctf_gtk_packet_source_get_trace_class (GstCtfGtkPacketSource * s)
{
  if (s->live != NULL)
    return _gst_ctf_gtk_live_reader_get_trace_class (s->live);
  return gst_ctf_packet_source_get_trace_class (s->file);
}

guint
_gst_ctf_gtk_packet_source_get_epoch (GstCtfGtkPacketSource * s)
{
  return s->live != NULL ? _gst_ctf_gtk_live_reader_get_epoch (s->live) : 0;
}

gboolean
_gst_ctf_gtk_packet_source_can_seek (GstCtfGtkPacketSource * s)
{
  return s->live != NULL || gst_ctf_packet_source_can_seek (s->file);
}

gboolean
_gst_ctf_gtk_packet_source_seek (GstCtfGtkPacketSource * s, guint epoch,
    gint64 ns, GError ** error)
{
  if (s->live == NULL)
    return gst_ctf_packet_source_seek (s->file, ns, error);
  _gst_ctf_gtk_live_reader_seek (s->live, epoch, ns);
  return TRUE;
}

gboolean
_gst_ctf_gtk_packet_source_rewind (GstCtfGtkPacketSource * s,
    GError ** error)
{
  if (s->live == NULL)
    return gst_ctf_packet_source_rewind (s->file, error);
  _gst_ctf_gtk_live_reader_rewind (s->live);
  return TRUE;
}

gint
_gst_ctf_gtk_packet_source_next (GstCtfGtkPacketSource * s,
    GstCtfGtkPacket * p, GError ** error)
{
  GstCtfPacketSourcePacket fp;
  gint r;

  if (s->live != NULL)
    r = _gst_ctf_gtk_live_reader_next (s->live, &fp, &p->ns, error);
  else
    r = gst_ctf_packet_source_next (s->file, &fp, error);
  if (r == 1) {
    p->bytes = fp.bytes;
    p->stream_class_id = fp.stream_class_id;
    p->rank = fp.rank;
    p->stream_id = fp.stream_id;
    p->stream_name = fp.stream_name;
    p->offset = fp.offset;
  }
  return r;
}
