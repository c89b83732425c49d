/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfEventReader's instance, shared by its iteration
 * (gstctf-event-reader.c) and its field getters
 * (gstctf-event-reader-fields.c).
 */
#pragma once

#include "gstctf-event-reader.h"
#include "gstctf-reader.h"
#include "gstctf-event-source-private.h"

G_BEGIN_DECLS

/* Last clock value of a stream, for packets without `timestamp_begin`
 * (CTF 1.8 §8: the clock goes on from the previous packet). */
typedef struct {
  guint64 stream_class_id;
  gint64 instance;
  guint64 clock;
} StreamClock;

struct _GstCtfEventReader {
  GObject parent;

  GstCtfTraceClass *tc;
  GstCtfEventIter *it;          /* packet mode: our own iterator */
  GstCtfEventIter *cur;         /* the iterator on the current event */
  GstCaps *caps;                /* caps tc was made from, or NULL */
  gboolean decode_fields;
  gboolean side_stream;         /* give the trace.dat side stream's events */
  const GstCtfStreamClass *side;        /* that stream class in tc, or NULL */

  /* current packet */
  GstBuffer *buffer;
  GstMapInfo map;
  GBytes *bytes;
  gboolean in_packet;
  const GstCtfPacketInfo *info;
  const GstCtfClockClass *clock;
  gint cpu;
  const gchar *stream_name;
  gint64 stream_key;

  /* current event */
  const GstCtfEventClass *ec;

  GArray *stream_clocks;        /* StreamClock */

  /* trace mode (gst_ctf_event_reader_open()) */
  GstCtfEventSource *source;
  GError *source_error;         /* given again by every later next() */
  gboolean source_done;
};

G_END_DECLS
