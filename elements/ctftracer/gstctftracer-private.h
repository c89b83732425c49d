/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctftracer internals: gstctftracer.c (the GstTracer: parameters, hooks),
 * gstctftracer-stream.c (per-thread streams: packet buffers, event
 * encoding), gstctftracer-writer.c (the writer thread: stream files,
 * flush, periodic samples), gstctftracer-metadata.c (the TSDL text).
 *
 * Lock order: Trace.lock (the list of streams and pads) before
 * Stream.lock (one thread's current packet).  A hook takes only its own
 * thread's Stream.lock, which nobody else takes except the writer thread
 * once per flush-interval, so the hot path has no shared lock.
 */
#pragma once

#include <string.h>
#include <gst/gst.h>

#include "gstctftracer.h"

G_BEGIN_DECLS

/* Event class ids (CTF 1.8 §8: ids 0..30 fit the compact event header). */
typedef enum
{
  EV_BUFFER = 0,
  EV_PUSH_DONE,
  EV_BUFFER_LIST,
  EV_PULL_RANGE,
  EV_EVENT,
  EV_QUERY,
  EV_PROCTIME,
  EV_LATENCY,
  EV_QUEUE_LEVEL,
  EV_STATE_CHANGE,
  EV_MESSAGE,
  EV_ELEMENT_NEW,
  EV_PAD_NEW,
  EV_THREAD,
  EV_THREAD_CPU,
  EV_LOG,
  EV_BUFFER_LONG,
  EV_PAD_RATE,
  EV_COUNT
} TracerEventId;

#define TRACER_COMPACT_ID_MAX 30
#define TRACER_TS_BITS 27
/* packet header: magic, uuid, stream_id, stream_instance_id */
#define TRACER_HEADER_SIZE (4 + 16 + 4 + 8)
/* packet context: timestamp_begin, timestamp_end, content_size,
 * packet_size, packet_seq_num, events_discarded, thread_id */
#define TRACER_CONTEXT_SIZE (8 * 6 + 4)
#define TRACER_PREAMBLE_SIZE (TRACER_HEADER_SIZE + TRACER_CONTEXT_SIZE)
/* longest string field written (bytes, without the NUL) */
#define TRACER_MAX_STRING 512
/* smallest packet-size: the largest event (log: 5 strings) fits */
#define TRACER_MIN_PACKET_SIZE 4096

/* What a pad is to the tracer (object qdata, never freed before the pad). */
typedef struct
{
  GstPad *pad;                  /* no ref; valid while alive */
  gint alive;                   /* cleared when the pad is finalized */
  guint16 id;
  guint32 element_id;
  GstElement *element;          /* parent element (no ref), or NULL */
  gboolean element_is_source;   /* GST_ELEMENT_FLAG_SOURCE */
  gboolean element_is_sink;     /* GST_ELEMENT_FLAG_SINK */
  gboolean element_is_queue;    /* queue, queue2: levels are sampled */
  gboolean element_is_boundary; /* queue, queue2, multiqueue, aggregators:
                                 * buffers change thread there */
  gboolean announced;           /* pad_new written */
  /* the peer last seen and its PadInfo (a cache: checked at each use) */
  GstPad *peer;
  gpointer peer_info;
  /* framerate / bitrate over `period` (written by the pushing thread,
   * read by the writer thread: a torn read only skews one period) */
  guint64 buffers;
  guint64 bytes;
  guint64 reported_buffers;
  guint64 reported_bytes;
} PadInfo;

typedef struct _Trace Trace;

/* One nested push on a thread (processing time, latency tag). */
typedef struct
{
  GstPad *pad;                  /* the pad pushed from (no ref) */
  gpointer info;                /* its PadInfo */
  GstElement *into;             /* element of its peer (no ref) */
  guint64 t_enter;
  guint64 tag;                  /* latency tag of the buffer, 0: none */
} PushFrame;

#define TRACER_MAX_DEPTH 32

typedef struct
{
  Trace *trace;
  gint lock;                    /* stream_lock(): a spin lock */
  guint64 instance_id;
  guint32 tid;
  gchar *thread_name;
  guint8 *buf;                  /* current packet, NULL: none */
  gsize len;                    /* bytes written in it */
  guint64 ts_begin;
  guint64 last_ts;
  guint n_events;
  guint64 seq;
  guint64 discarded;
  guint64 discarded_written;    /* events_discarded of the last packet */
  guint n_allocated;            /* packet buffers, at most buffers-per-thread */
  GSList *free_bufs;
  gboolean dead;                /* thread exited */
  int fd;                       /* writer thread only */
  /* the thread's own state (only the thread touches it) */
  PushFrame frames[TRACER_MAX_DEPTH];
  guint depth;
  gboolean in_hook;             /* no tracing of the tracer's own logging */
  PadInfo *cache[64];           /* pad -> PadInfo, direct mapped */
} Stream;

typedef struct
{
  Stream *stream;
  guint8 *data;
  gsize len;
} Packet;

typedef struct
{
  gchar *location;
  gboolean overwrite;
  gint ctf_version;
  gboolean buffers, events, queries, latency, queue_levels, states,
      messages, rusage, log, rates;
  guint64 flush_interval;       /* ns */
  guint64 period;               /* ns */
  guint packet_size;            /* bytes */
  guint buffers_per_thread;
  guint writer_pause_ms;        /* test knob: writer sleeps per packet */
} TracerSettings;

struct _Trace
{
  TracerSettings s;
  guint8 uuid[16];
  gint64 epoch_offset_ns;       /* realtime - monotonic at start */
  GMutex lock;
  GPtrArray *streams;           /* Stream*, owned */
  GPtrArray *pads;              /* PadInfo*; they live as long as the
                                 * process (a pad may outlive the trace) */
  guint next_pad_id;
  guint next_element_id;
  guint64 next_instance;
  GAsyncQueue *queue;           /* Packet* to write; NULL data: stop */
  GThread *writer;
  gint stopped;                 /* atomic */
  gsize opened;                 /* g_once: trace_open() ran */
  gint active;                  /* atomic: opened without error */
  gint dir_fd;
  gchar *error;                 /* why the trace could not start */
};

/* stream.c */
guint64 tracer_now (void);
Stream *tracer_stream_get (Trace * t);
/* With s->lock held: where the payload of an event of class @id at @ts
 * (ns, CLOCK_MONOTONIC) with at most @payload_max bytes goes, or NULL
 * when it is discarded; then tracer_event_end() with the payload end. */
guint8 *tracer_event_begin (Stream * s, guint id, gsize payload_max,
    guint64 ts);
static inline void
tracer_event_end (Stream * s, guint8 * end)
{
  s->len = end - s->buf;
  s->n_events++;
}
void tracer_stream_close_packet (Stream * s);
void tracer_stream_close_discards (Stream * s);
void tracer_stream_return_buffer (Stream * s, guint8 * data);
void tracer_stream_free (Stream * s);

static inline guint8 *
tracer_put_u8 (guint8 * p, guint8 v)
{
  *p = v;
  return p + 1;
}

static inline guint8 *
tracer_put_u16 (guint8 * p, guint16 v)
{
  v = GUINT16_TO_LE (v);
  memcpy (p, &v, 2);
  return p + 2;
}

static inline guint8 *
tracer_put_u32 (guint8 * p, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
  return p + 4;
}

static inline guint8 *
tracer_put_u64 (guint8 * p, guint64 v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p, &v, 8);
  return p + 8;
}

guint8 *tracer_put_string (guint8 * p, const gchar * str);

/* A thread's stream lock: taken by the thread for each hook call and by
 * the writer once per flush-interval, so it is almost never contended;
 * a spin lock that yields costs less than a GMutex call on the hot
 * path. */
static inline void
stream_lock (Stream * s)
{
  while (G_UNLIKELY (!g_atomic_int_compare_and_exchange (&s->lock, 0, 1)))
    g_thread_yield ();
}

static inline void
stream_unlock (Stream * s)
{
  g_atomic_int_set (&s->lock, 0);
}

/* writer.c */
gboolean tracer_writer_start (Trace * t);
void tracer_writer_stop (Trace * t);

/* gstctftracer.c */
struct _GstCtfTracer
{
  GstTracer parent;
  Trace *trace;
};

/* Opens the trace (directory, metadata, writer) at the first call;
 * whether it records. */
gboolean tracer_trace_open_once (Trace * t);

/* Whether hooks record: the trace is open (opening it at the first hook
 * call, so an object made only to be inspected writes nothing). */
static inline gboolean
trace_ready (Trace * t)
{
  if (G_LIKELY (g_atomic_int_get (&t->active)))
    return TRUE;
  return tracer_trace_open_once (t);
}

/* hooks.c */
void tracer_hooks_init (void);
void tracer_hooks_register (GstTracer * tracer, Trace * t);
void tracer_hooks_remove_log (void);

/* metadata.c */
gchar *tracer_metadata_tsdl (const Trace * t);

G_END_DECLS
