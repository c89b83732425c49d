/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfmux's time line: stream time, seeks, POSITION and DURATION.
 *
 * Buffer PTS are absolute (an input's PTS plus its pad's offset).  Each
 * input's segment maps its stream time to its PTS (ctfsrc: stream time 0
 * at its trace's first packet, `start - time` = that packet's time), so an
 * input's origin is `start - time + offset`.  The output's origin is the
 * smallest of them: the output segment has `time` = `start` - origin, so
 * that POSITION / DURATION is the fraction done.  A TIME seek to T
 * (output stream time) is sent to each input as origin + T - offset -
 * (the input's `start - time`), at least 0.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfmux-private.h"

#define GST_CAT_DEFAULT gst_ctf_mux_debug

/* A SEGMENT event reached @pad (in stream order). */
void
gst_ctf_mux_time_note_segment (GstCtfMuxPad * pad, GstEvent * event)
{
  const GstSegment *seg;

  gst_event_parse_segment (event, &seg);
  GST_OBJECT_LOCK (pad);
  pad->has_origin = seg->format == GST_FORMAT_TIME;
  if (pad->has_origin)
    pad->origin = (gint64) MIN (seg->start, (guint64) G_MAXINT64 / 2) -
        (gint64) MIN (seg->time, (guint64) G_MAXINT64 / 2);
  GST_OBJECT_UNLOCK (pad);
}

/* The smallest input origin (with its offset); FALSE when no input has a
 * TIME segment yet. */
static gboolean
inputs_origin (GstCtfMux * self, gint64 * origin)
{
  gboolean found = FALSE;
  GList *l;

  GST_OBJECT_LOCK (self);
  for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next) {
    GstCtfMuxPad *pad = l->data;
    gint64 o;

    GST_OBJECT_LOCK (pad);
    o = pad->origin + pad->offset;
    if (pad->has_origin && (!found || o < *origin)) {
      *origin = o;
      found = TRUE;
    }
    GST_OBJECT_UNLOCK (pad);
  }
  GST_OBJECT_UNLOCK (self);
  return found;
}

/* The output segment for a run whose first packet is at @pts. */
void
gst_ctf_mux_time_make_segment (GstCtfMux * self, GstClockTime pts,
    GstSegment * seg)
{
  gint64 origin, first;

  gst_segment_init (seg, GST_FORMAT_TIME);
  if (!GST_CLOCK_TIME_IS_VALID (pts))
    return;
  first = (gint64) MIN (pts, (guint64) G_MAXINT64);
  GST_OBJECT_LOCK (self);
  origin = self->origin_ns;
  GST_OBJECT_UNLOCK (self);
  if (origin < 0) {
    /* the first run: its first packet, or an input that starts before */
    if (!inputs_origin (self, &origin) || origin < 0 || origin > first)
      origin = first;
    GST_OBJECT_LOCK (self);
    self->origin_ns = origin;
    GST_OBJECT_UNLOCK (self);
    GST_DEBUG_OBJECT (self, "stream time 0 at %" G_GINT64_FORMAT " ns",
        origin);
  }
  GST_OBJECT_LOCK (self);
  if (self->seek_start_ns >= 0) {
    /* after a seek to T: from origin + T, as the inputs' segments */
    seg->start = self->seek_start_ns;
    if (self->seek_stop_ns >= 0)
      seg->stop = self->seek_stop_ns;
    self->seek_start_ns = self->seek_stop_ns = -1;
  } else {
    seg->start = pts;
  }
  GST_OBJECT_UNLOCK (self);
  seg->position = seg->start;
  seg->time = seg->start >= (guint64) origin ? seg->start - origin : 0;
}

/* A TIME seek to T (output stream time): the next segment starts at
 * origin + T.  The inputs get it through seek_probe(). */
void
gst_ctf_mux_time_note_seek (GstCtfMux * self, GstEvent * event)
{
  GstFormat format;
  GstSeekFlags flags;
  GstSeekType start_type, stop_type;
  gint64 start, stop, origin;
  gdouble rate;

  gst_event_parse_seek (event, &rate, &format, &flags, &start_type, &start,
      &stop_type, &stop);
  if (format != GST_FORMAT_TIME || !(flags & GST_SEEK_FLAG_FLUSH))
    return;
  GST_OBJECT_LOCK (self);
  origin = self->origin_ns;
  GST_OBJECT_UNLOCK (self);
  if (origin < 0 && !inputs_origin (self, &origin))
    return;
  GST_OBJECT_LOCK (self);
  self->seek_start_ns = start_type == GST_SEEK_TYPE_SET && start >= 0 ?
      origin + MIN (start, G_MAXINT64 / 2) : -1;
  self->seek_stop_ns = self->seek_start_ns >= 0 &&
      stop_type == GST_SEEK_TYPE_SET && stop >= 0 ?
      origin + MIN (stop, G_MAXINT64 / 2) : -1;
  GST_OBJECT_UNLOCK (self);
}

/* The aggregate thread took @buf, an input buffer whose times move by
 * its pad's @offset: the position is the end of what was taken. */
void
gst_ctf_mux_time_note_buffer (GstCtfMux * self, GstBuffer * buf,
    gint64 offset)
{
  gint64 end;

  if (!GST_BUFFER_PTS_IS_VALID (buf))
    return;
  end = (gint64) MIN (GST_BUFFER_PTS (buf), (guint64) G_MAXINT64 / 2) +
      offset;
  if (GST_BUFFER_DURATION_IS_VALID (buf))
    end += (gint64) MIN (GST_BUFFER_DURATION (buf), (guint64) G_MAXINT64 / 4);
  GST_OBJECT_LOCK (self);
  if (end > self->position_ns)
    self->position_ns = end;
  GST_OBJECT_UNLOCK (self);
}

/* A flushing seek: the position restarts from the new packets. */
void
gst_ctf_mux_time_flush (GstCtfMux * self)
{
  GST_OBJECT_LOCK (self);
  self->position_ns = G_MININT64;
  GST_OBJECT_UNLOCK (self);
}

void
gst_ctf_mux_time_reset (GstCtfMux * self)
{
  GST_OBJECT_LOCK (self);
  self->origin_ns = -1;
  self->position_ns = G_MININT64;
  self->seek_start_ns = self->seek_stop_ns = -1;
  GST_OBJECT_UNLOCK (self);
}

static gboolean
query_duration (GstCtfMux * self, gint64 * duration)
{
  gint64 origin, end = G_MININT64;
  GList *pads = NULL, *l;
  gboolean ok = TRUE;

  GST_OBJECT_LOCK (self);
  origin = self->origin_ns;
  for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next)
    pads = g_list_prepend (pads, gst_object_ref (l->data));
  GST_OBJECT_UNLOCK (self);
  if (pads == NULL)
    return FALSE;
  if (origin < 0 && !inputs_origin (self, &origin))
    ok = FALSE;

  for (l = pads; l && ok; l = l->next) {
    GstCtfMuxPad *pad = l->data;
    gint64 d, o;
    gboolean has;

    GST_OBJECT_LOCK (pad);
    has = pad->has_origin;
    o = pad->origin + pad->offset;
    GST_OBJECT_UNLOCK (pad);
    if (!has || !gst_pad_peer_query_duration (GST_PAD (pad), GST_FORMAT_TIME,
            &d) || d < 0)
      ok = FALSE;
    else
      end = MAX (end, o + d);
  }
  g_list_free_full (pads, gst_object_unref);
  if (!ok || end < origin)
    return FALSE;
  *duration = end - origin;
  return TRUE;
}

/* POSITION: the end of the packets taken so far; DURATION: the last input
 * end, both in stream time. */
gboolean
gst_ctf_mux_time_src_query (GstCtfMux * self, GstQuery * query,
    gboolean * handled)
{
  GstFormat format;

  *handled = FALSE;
  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_POSITION:{
      gint64 origin, pos;

      gst_query_parse_position (query, &format, NULL);
      if (format != GST_FORMAT_TIME)
        return FALSE;
      GST_OBJECT_LOCK (self);
      origin = self->origin_ns;
      pos = self->position_ns;
      GST_OBJECT_UNLOCK (self);
      if (origin < 0 || pos == G_MININT64)
        return FALSE;
      gst_query_set_position (query, GST_FORMAT_TIME, MAX (pos - origin, 0));
      *handled = TRUE;
      return TRUE;
    }
    case GST_QUERY_DURATION:{
      gint64 dur;

      gst_query_parse_duration (query, &format, NULL);
      if (format != GST_FORMAT_TIME)
        return FALSE;
      /* not GstAggregator's largest input DURATION: the inputs' stream
       * times do not start at the same instant */
      *handled = TRUE;
      if (!query_duration (self, &dur))
        return FALSE;
      gst_query_set_duration (query, GST_FORMAT_TIME, dur);
      return TRUE;
    }
    default:
      return FALSE;
  }
}

/* The seek GstAggregator sends to every input (to the peer of each sink
 * pad, so the probe is on the peer), made the input's own: output stream
 * time -> absolute -> the input's stream time. */
static GstPadProbeReturn
seek_probe (GstPad * peer, GstPadProbeInfo * info, gpointer user_data)
{
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  GstCtfMuxPad *mpad = user_data;
  GstCtfMux *self;
  gdouble rate;
  GstFormat format;
  GstSeekFlags flags;
  GstSeekType start_type, stop_type;
  gint64 start, stop, origin, shift;
  gboolean has;
  GstEvent *seek;

  if (GST_EVENT_TYPE (event) != GST_EVENT_SEEK)
    return GST_PAD_PROBE_OK;
  gst_event_parse_seek (event, &rate, &format, &flags, &start_type, &start,
      &stop_type, &stop);
  if (format != GST_FORMAT_TIME)
    return GST_PAD_PROBE_OK;
  self = GST_CTF_MUX (gst_pad_get_parent_element (GST_PAD (mpad)));
  if (self == NULL)
    return GST_PAD_PROBE_OK;
  GST_OBJECT_LOCK (self);
  origin = self->origin_ns;
  GST_OBJECT_UNLOCK (self);
  if (origin < 0 && !inputs_origin (self, &origin)) {
    gst_object_unref (self);
    return GST_PAD_PROBE_OK;    /* no time line yet: as it is */
  }
  GST_OBJECT_LOCK (mpad);
  has = mpad->has_origin;
  shift = origin - mpad->offset - mpad->origin;
  GST_OBJECT_UNLOCK (mpad);
  gst_object_unref (self);
  if (!has)
    return GST_PAD_PROBE_OK;
  if (start_type == GST_SEEK_TYPE_SET && start >= 0)
    start = MAX (start + shift, 0);
  if (stop_type == GST_SEEK_TYPE_SET && stop >= 0)
    stop = MAX (stop + shift, 0);
  GST_DEBUG_OBJECT (mpad, "seek: %" G_GINT64_FORMAT " ns in this input's "
      "stream time", start);
  seek = gst_event_new_seek (rate, format, flags, start_type, start,
      stop_type, stop);
  gst_event_set_seqnum (seek, gst_event_get_seqnum (event));
  gst_event_unref (event);
  GST_PAD_PROBE_INFO_DATA (info) = seek;
  return GST_PAD_PROBE_OK;
}

static void
on_linked (GstPad * pad, GstPad * peer, gpointer user_data)
{
  GstCtfMuxPad *mpad = GST_CTF_MUX_PAD (pad);

  GST_OBJECT_LOCK (mpad);
  if (mpad->probed_peer == NULL) {
    mpad->probed_peer = gst_object_ref (peer);
    mpad->peer_probe = gst_pad_add_probe (peer,
        GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, seek_probe, mpad, NULL);
  }
  GST_OBJECT_UNLOCK (mpad);
}

static void
on_unlinked (GstPad * pad, GstPad * peer, gpointer user_data)
{
  GstCtfMuxPad *mpad = GST_CTF_MUX_PAD (pad);
  GstPad *old;
  gulong id;

  GST_OBJECT_LOCK (mpad);
  old = mpad->probed_peer;
  id = mpad->peer_probe;
  mpad->probed_peer = NULL;
  mpad->peer_probe = 0;
  GST_OBJECT_UNLOCK (mpad);
  if (old) {
    gst_pad_remove_probe (old, id);
    gst_object_unref (old);
  }
}

void
gst_ctf_mux_time_add_pad (GstCtfMuxPad * pad)
{
  g_signal_connect (pad, "linked", G_CALLBACK (on_linked), NULL);
  g_signal_connect (pad, "unlinked", G_CALLBACK (on_unlinked), NULL);
}
