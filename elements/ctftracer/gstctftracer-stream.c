/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctftracer: one CTF stream per thread.  Each thread fills its own packet
 * buffer under its own (uncontended) lock; a full packet goes to the
 * writer thread's queue and the thread takes a free buffer.  When the
 * thread already holds buffers-per-thread buffers (the writer is behind),
 * events are counted in `events_discarded` (CTF 1.8 §5.2) instead of
 * blocking the pipeline.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* pthread_getname_np */
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctftracer-private.h"

#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <pthread.h>

/* CTF 1.8 §5: the packet header's magic number. */
#define CTF_MAGIC 0xC1FC1FC1u
#define EXTENDED_ID 31

/* Every stream ever made: reachable for the whole process, because a
 * thread's GPrivate may outlive the trace (see stream_thread_exit). */
static GPtrArray *all_streams;
G_LOCK_DEFINE_STATIC (all_streams);

static void stream_thread_exit (gpointer data);
/* pthread keys, not a __thread variable: dynamic TLS of a dlopen()ed
 * plugin makes LeakSanitizer's thread scan crash now and then (GCC 12) */
static GPrivate stream_key = G_PRIVATE_INIT (stream_thread_exit);

guint64
tracer_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

guint8 *
tracer_put_string (guint8 * p, const gchar * str)
{
  gsize n;

  if (str == NULL)
    str = "";
  n = strnlen (str, TRACER_MAX_STRING);
  memcpy (p, str, n);
  p[n] = '\0';
  return p + n + 1;
}

static void
stream_thread_exit (gpointer data)
{
  Stream *s = data;

  stream_lock (s);
  if (!g_atomic_int_get (&s->trace->stopped) && s->n_events > 0)
    tracer_stream_close_packet (s);
  s->dead = TRUE;
  stream_unlock (s);
}

Stream *
tracer_stream_get (Trace * t)
{
  Stream *s = g_private_get (&stream_key);
  gchar name[64] = "";
  guint8 *p;

  if (G_LIKELY (s != NULL && s->trace == t))
    return s;
  s = g_new0 (Stream, 1);
  s->trace = t;
  s->fd = -1;
  s->tid = (guint32) syscall (SYS_gettid);
#ifdef __linux__
  pthread_getname_np (pthread_self (), name, sizeof name);
#endif
  s->thread_name = g_strdup (name);
  g_mutex_lock (&t->lock);
  s->instance_id = t->next_instance++;
  g_ptr_array_add (t->streams, s);
  g_mutex_unlock (&t->lock);
  G_LOCK (all_streams);
  if (all_streams == NULL)
    all_streams = g_ptr_array_new ();
  g_ptr_array_add (all_streams, s);
  G_UNLOCK (all_streams);
  g_private_set (&stream_key, s);

  stream_lock (s);
  p = tracer_event_begin (s, EV_THREAD, 4 + TRACER_MAX_STRING + 1,
      tracer_now ());
  if (p != NULL) {
    p = tracer_put_u32 (p, s->tid);
    p = tracer_put_string (p, s->thread_name);
    tracer_event_end (s, p);
  }
  stream_unlock (s);
  return s;
}

/* Called with s->lock. */
void
tracer_stream_close_packet (Stream * s)
{
  Trace *t = s->trace;
  Packet *pk;
  guint8 *p;

  if (s->buf == NULL)
    return;
  p = s->buf;
  p = tracer_put_u32 (p, CTF_MAGIC);
  memcpy (p, t->uuid, 16);
  p += 16;
  p = tracer_put_u32 (p, 0);
  p = tracer_put_u64 (p, s->instance_id);
  p = tracer_put_u64 (p, s->ts_begin);
  p = tracer_put_u64 (p, s->last_ts);
  p = tracer_put_u64 (p, (guint64) s->len * 8);
  p = tracer_put_u64 (p, (guint64) s->len * 8);
  p = tracer_put_u64 (p, s->seq++);
  p = tracer_put_u64 (p, s->discarded);
  tracer_put_u32 (p, s->tid);
  s->discarded_written = s->discarded;

  pk = g_new (Packet, 1);
  pk->stream = s;
  pk->data = s->buf;
  pk->len = s->len;
  s->buf = NULL;
  s->len = 0;
  s->n_events = 0;
  g_async_queue_push (t->queue, pk);
}

/* Called with s->lock: a packet buffer, or FALSE when the thread has all
 * its buffers in the writer's queue. */
static gboolean
stream_open_packet (Stream * s, guint64 ts)
{
  if (s->free_bufs != NULL) {
    s->buf = s->free_bufs->data;
    s->free_bufs = g_slist_delete_link (s->free_bufs, s->free_bufs);
  } else if (s->n_allocated < s->trace->s.buffers_per_thread) {
    s->buf = g_malloc (s->trace->s.packet_size);
    s->n_allocated++;
  } else {
    return FALSE;
  }
  s->len = TRACER_PREAMBLE_SIZE;
  s->ts_begin = ts;
  s->last_ts = ts;
  s->n_events = 0;
  return TRUE;
}

void
tracer_stream_return_buffer (Stream * s, guint8 * data)
{
  stream_lock (s);
  s->free_bufs = g_slist_prepend (s->free_bufs, data);
  stream_unlock (s);
}

/* Frees what the stream holds (the writer has stopped); the Stream
 * itself stays (all_streams). */
void
tracer_stream_free (Stream * s)
{
  stream_lock (s);
  g_clear_pointer (&s->buf, g_free);
  g_slist_free_full (s->free_bufs, g_free);
  s->free_bufs = NULL;
  s->n_allocated = 0;
  g_clear_pointer (&s->thread_name, g_free);
  stream_unlock (s);
}

guint8 *
tracer_event_begin (Stream * s, guint id, gsize payload_max, guint64 ts)
{
  Trace *t = s->trace;
  gsize need = 13 + payload_max;
  guint8 *p;

  if (G_UNLIKELY (g_atomic_int_get (&t->stopped)))
    return NULL;
  /* cannot happen with TRACER_MIN_PACKET_SIZE; never write past a packet */
  if (G_UNLIKELY (TRACER_PREAMBLE_SIZE + need > t->s.packet_size)) {
    s->discarded++;
    return NULL;
  }
  if (G_UNLIKELY (s->buf != NULL && s->len + need > t->s.packet_size))
    tracer_stream_close_packet (s);
  if (G_UNLIKELY (s->buf == NULL) && !stream_open_packet (s, ts)) {
    s->discarded++;
    return NULL;
  }
  if (G_UNLIKELY (ts < s->last_ts))
    ts = s->last_ts;
  p = s->buf + s->len;
  /* CTF 1.8 §8: a 27-bit timestamp gives back the full clock value when
   * less than 2^27 cycles passed since the previous one. */
  if (G_LIKELY (id <= TRACER_COMPACT_ID_MAX &&
          ts - s->last_ts < (G_GUINT64_CONSTANT (1) << TRACER_TS_BITS))) {
    p = tracer_put_u32 (p, id | (guint32) ((ts &
                ((1u << TRACER_TS_BITS) - 1)) << 5));
  } else {
    p = tracer_put_u8 (p, EXTENDED_ID);
    p = tracer_put_u32 (p, id);
    p = tracer_put_u64 (p, ts);
  }
  s->last_ts = ts;
  return p;
}


/* At the end of a run: an empty packet carrying the events_discarded
 * count when events were discarded after the last packet, so readers
 * report them (CTF 1.8 §5.2). */
void
tracer_stream_close_discards (Stream * s)
{
  stream_lock (s);
  if (s->buf == NULL && s->discarded != s->discarded_written &&
      stream_open_packet (s, s->last_ts))
    tracer_stream_close_packet (s);
  stream_unlock (s);
}
