/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The time line of the gst-ctf sources (ctfsrc, tracecmdsrc): buffer PTS
 * are absolute ns; positions, durations and seeks are stream time, 0 at
 * the trace's first packet (docs/design.md, "Time line").
 */
#ifndef __GST_CTF_STREAM_TIME_H__
#define __GST_CTF_STREAM_TIME_H__

#include <gst/base/gstbasesrc.h>

G_BEGIN_DECLS

typedef struct {
  gint64 begin_ns;              /* first timestamp_begin, or -1 */
  gint64 end_ns;                /* last time, or -1 */
  /* the segment of the last seek (absolute start, time, stop) */
  guint64 seg_start, seg_time, seg_stop;
} GstCtfStreamTime;

G_GNUC_INTERNAL void gst_ctf_stream_time_init (GstCtfStreamTime * st,
    gint64 begin_ns, gint64 end_ns);
G_GNUC_INTERNAL void gst_ctf_stream_time_seek (GstCtfStreamTime * st,
    GstSegment * segment);
G_GNUC_INTERNAL gboolean gst_ctf_stream_time_query (GstCtfStreamTime * st,
    GstBaseSrc * src, gboolean seekable, GstQuery * query);

G_END_DECLS

#endif
