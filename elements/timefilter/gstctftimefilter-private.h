/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * timefilter internals shared by gstctftimefilter.c (the element: bounds,
 * seeking, which packets pass) and gstctftimefilter-cut.c (a packet across
 * a bound: finding the kept events and writing the new packet).
 */
#pragma once

#include "gstctftimefilter.h"

#include <string.h>

#include "gstctf-reader.h"
#include "gstctf-packet-writer.h"
#include "gstctf-time-parse.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_ctf_time_filter_debug);

/* Last clock value of a stream, the base of the next packet's first
 * timestamp when packets have no `timestamp_begin` (CTF 1.8 §8). */
typedef struct
{
  guint64 stream_class_id;
  guint64 stream_instance_id;
  guint64 clock;
} StreamClock;

struct _GstCtfTimeFilter
{
  GstBaseTransform parent;

  /* Properties, protected by the object lock. */
  gchar *start_str;
  gchar *end_str;
  gboolean gmt;
  guint64 start_time;           /* ns, or GST_CLOCK_TIME_NONE */
  guint64 end_time;
  gint64 window_end_ns;         /* end bound in ns once resolved, or -1 */

  /* Streaming state. */
  GstCtfTimeBound start;
  GstCtfTimeBound end;
  gboolean resolved;            /* bounds known in ns from origin */
  gboolean reencode_all;        /* tests: no byte copy of kept events */
  gboolean trust_end;           /* packets' timestamp_end is meaningful */
  gboolean eos;
  gchar *tsdl;
  GstCtfTraceClass *tc;
  const GstCtfStreamClass *side_sc;     /* tracecmdsrc's side stream, in @tc */
  GstCtfEventIter *it;
  GHashTable *writers;          /* stream class id -> GstCtfPacketWriter */
  GArray *clocks;               /* StreamClock */
  GHashTable *clock_index;      /* (class id, instance id) -> place in clocks + 1 */

  /* Statistics, protected by the object lock. */
  guint64 packets_passed;
  guint64 packets_dropped;
  guint64 packets_rewritten;
  guint64 events_dropped;
};

/* What a walk over a packet's events found. */
typedef struct
{
  guint n_events;
  guint first_kept;             /* index of the first kept event */
  guint n_kept;                 /* kept events are consecutive */
  guint64 first_clock, last_clock;      /* of the kept events, cycles */
  gint64 first_ns, last_ns;     /* of all the events */
  guint64 end_clock;            /* clock after the last event */
  guint64 first_kept_begin;     /* bit offset of the first kept event */
  guint64 before_first_kept;    /* clock value before it, cycles */
  guint64 first_kept_end;       /* bit offset after the first kept event */
  guint64 last_kept_end;        /* bit offset after the last kept event */
  gboolean after;               /* stopped at an event after the window */
  gboolean rest_kept;           /* stopped at the first kept event: the
                                 * rest of the packet is in the window */
} Walk;

static inline gboolean
cycles_to_ns (const GstCtfClockClass * cc, guint64 cycles, gint64 * ns)
{
  return gst_ctf_clock_class_cycles_to_ns_from_origin (cc, cycles, ns);
}

static inline gboolean
in_window (GstCtfTimeFilter * self, gint64 ns)
{
  return (self->start.kind != GST_CTF_TIME_BOUND_ABSOLUTE ||
      ns >= self->start.ns) && (self->end.kind != GST_CTF_TIME_BOUND_ABSOLUTE
      || ns <= self->end.ns);
}

/* gstctftimefilter-cut.c */
G_GNUC_INTERNAL gboolean gst_ctf_time_filter_walk_packet (GstCtfTimeFilter *
    self, const GstCtfClockClass * cc, const guint8 * data, gsize size,
    gboolean has_begin, guint64 base, const guint64 * end_clock, Walk * w,
    GError ** error);
G_GNUC_INTERNAL GstBuffer *gst_ctf_time_filter_copy_kept (GstCtfTimeFilter *
    self, GstBuffer * in, const GstCtfClockClass * cc, const guint8 * data,
    gsize size, const GstCtfPacketInfo * info, guint64 base, const Walk * w,
    GError ** error);
G_GNUC_INTERNAL GstBuffer *gst_ctf_time_filter_filter_packet (
    GstCtfTimeFilter * self, GstBuffer * in, const GstCtfClockClass * cc,
    const guint8 * data, gsize size, const GstCtfPacketInfo * info,
    guint64 base, Walk * w, gboolean * pass, GError ** error);

/* gstctftimefilter.c: a timefilter without pads cutting packets to
 * [@start_ns, @end_ns] (ns from the clock origin) for another element
 * (ctfsrc stream-intersection=true); NULL when @caps cannot be read.
 * gst_ctf_time_filter_cut() sets *@outbuf to the packet to push (the
 * same buffer, or a new one with the kept events) or NULL to drop it,
 * and returns GST_FLOW_ERROR with @error when it cannot be read. */
G_GNUC_INTERNAL GstCtfTimeFilter *gst_ctf_time_filter_new_cutter (
    GstCaps * caps, gint64 start_ns, gint64 end_ns);
G_GNUC_INTERNAL GstFlowReturn gst_ctf_time_filter_cut (GstCtfTimeFilter *
    self, GstBuffer * buf, GstBuffer ** outbuf, GError ** error);

/* babeltrace2's trace quirks: whether the tracer of @tc wrote a
 * `timestamp_end` at or after the packet's last event (not LTTng-UST <
 * 2.11.0, LTTng-modules < 2.9.13 and 2.10.0 to 2.10.9). */
G_GNUC_INTERNAL gboolean gst_ctf_time_filter_tracer_sets_timestamp_end (
    const GstCtfTraceClass * tc);

G_END_DECLS
