/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Stream time for the gst-ctf sources, as a demuxer whose timestamps do
 * not start at 0 gives it: the segment's `start` is the trace's first
 * packet time (first + T after a seek to T) and its `time` 0 (T), so
 * POSITION / DURATION is the fraction done while buffer PTS stay
 * absolute.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-stream-time.h"

void
gst_ctf_stream_time_init (GstCtfStreamTime * st, gint64 begin_ns,
    gint64 end_ns)
{
  st->begin_ns = begin_ns;
  st->end_ns = end_ns;
  st->seg_start = st->seg_time = st->seg_stop = GST_CLOCK_TIME_NONE;
}

/* A TIME seek's segment as GstBaseSrc gives it to do_seek() (positions as
 * they are in the seek: stream time, start = time = T) made absolute:
 * start first + T, time T.  A seek that leaves the start as it was
 * (GST_SEEK_TYPE_NONE) keeps the absolute start made here before. */
void
gst_ctf_stream_time_seek (GstCtfStreamTime * st, GstSegment * segment)
{
  guint64 first, t;

  if (st->begin_ns < 0)
    return;
  first = (guint64) st->begin_ns;
  if (st->seg_start != GST_CLOCK_TIME_NONE &&
      segment->start == st->seg_start && st->seg_start != st->seg_time)
    t = segment->start - first; /* start unchanged */
  else
    t = MIN (segment->start, G_MAXINT64 - first);
  segment->start = first + t;
  segment->time = t;
  segment->position = segment->start;
  if (GST_CLOCK_TIME_IS_VALID (segment->stop) &&
      segment->stop != st->seg_stop)
    segment->stop = first + MIN (segment->stop, G_MAXINT64 - first);
  st->seg_start = segment->start;
  st->seg_time = segment->time;
  st->seg_stop = segment->stop;
}

/* POSITION in PERCENT (progressreport format=percent, for traces shorter
 * than its 1 s TIME unit), DURATION in TIME (last - first) and PERCENT,
 * SEEKING in TIME ([0, DURATION]).  FALSE: not answered here. */
gboolean
gst_ctf_stream_time_query (GstCtfStreamTime * st, GstBaseSrc * src,
    gboolean seekable, GstQuery * query)
{
  gboolean known = st->begin_ns >= 0 && st->end_ns >= st->begin_ns;
  GstFormat format;

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_POSITION:
      gst_query_parse_position (query, &format, NULL);
      if (format == GST_FORMAT_PERCENT && known && st->end_ns > st->begin_ns) {
        guint64 pos;

        GST_OBJECT_LOCK (src);
        pos = src->segment.position;
        GST_OBJECT_UNLOCK (src);
        if (!GST_CLOCK_TIME_IS_VALID (pos) || pos < (guint64) st->begin_ns)
          pos = st->begin_ns;
        pos = MIN (pos, (guint64) st->end_ns) - st->begin_ns;
        gst_query_set_position (query, GST_FORMAT_PERCENT,
            gst_util_uint64_scale (pos, GST_FORMAT_PERCENT_MAX,
                st->end_ns - st->begin_ns));
        return TRUE;
      }
      return FALSE;
    case GST_QUERY_DURATION:
      gst_query_parse_duration (query, &format, NULL);
      if (format == GST_FORMAT_PERCENT && known && st->end_ns > st->begin_ns) {
        gst_query_set_duration (query, GST_FORMAT_PERCENT,
            GST_FORMAT_PERCENT_MAX);
        return TRUE;
      }
      if (format == GST_FORMAT_TIME && known) {
        gst_query_set_duration (query, GST_FORMAT_TIME,
            st->end_ns - st->begin_ns);
        return TRUE;
      }
      return FALSE;
    case GST_QUERY_SEEKING:
      gst_query_parse_seeking (query, &format, NULL, NULL, NULL);
      if (format == GST_FORMAT_TIME) {
        gst_query_set_seeking (query, GST_FORMAT_TIME, seekable, 0,
            known ? st->end_ns - st->begin_ns : -1);
        return TRUE;
      }
      return FALSE;
    default:
      return FALSE;
  }
}
