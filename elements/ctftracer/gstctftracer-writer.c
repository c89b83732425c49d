/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctftracer: the writer thread.  It writes each packet it receives with
 * one write(2) to its stream file `stream_N` (N: the stream instance id),
 * so after a SIGKILL a file holds whole packets, and the page cache keeps
 * what was written.  Every flush-interval it closes the threads' partly
 * filled packets; every period it records thread CPU usage and per-pad
 * buffer and byte counts into its own stream.  Files are opened with
 * O_EXCL inside the trace directory only.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctftracer-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/resource.h>

static gboolean
write_all (int fd, const guint8 * data, gsize len)
{
  while (len > 0) {
    ssize_t n = write (fd, data, len);

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return FALSE;
    data += n;
    len -= n;
  }
  return TRUE;
}

static void
write_packet (Trace * t, Packet * pk)
{
  Stream *s = pk->stream;

  if (s->fd < 0) {
    gchar name[64];

    g_snprintf (name, sizeof name, "stream_%" G_GUINT64_FORMAT,
        s->instance_id);
    s->fd = openat (t->dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
        0644);
    if (s->fd < 0)
      g_printerr ("ctftracer: cannot create \"%s/%s\": %s; its packets are "
          "lost\n", t->s.location, name, g_strerror (errno));
  }
  if (s->fd >= 0 && !write_all (s->fd, pk->data, pk->len))
    g_printerr ("ctftracer: cannot write stream_%" G_GUINT64_FORMAT
        " in \"%s\": %s\n", s->instance_id, t->s.location,
        g_strerror (errno));
  if (t->s.writer_pause_ms > 0)
    g_usleep (t->s.writer_pause_ms * 1000);
  tracer_stream_return_buffer (s, pk->data);
  g_free (pk);
}

/* Streams are never removed during a run: a copy of the list lets the
 * writer lock each stream without holding Trace.lock. */
static GPtrArray *
copy_streams (Trace * t)
{
  GPtrArray *a;

  g_mutex_lock (&t->lock);
  a = g_ptr_array_copy (t->streams, NULL, NULL);
  g_mutex_unlock (&t->lock);
  return a;
}

static void
flush_streams (Trace * t)
{
  GPtrArray *a = copy_streams (t);
  guint i;

  for (i = 0; i < a->len; i++) {
    Stream *s = g_ptr_array_index (a, i);

    stream_lock (s);
    if (s->n_events > 0)
      tracer_stream_close_packet (s);
    stream_unlock (s);
  }
  g_ptr_array_free (a, TRUE);
}

/* utime and stime (fields 14 and 15 of /proc/self/task/TID/stat) in ns. */
static gboolean
read_thread_cpu (guint32 tid, guint64 * user, guint64 * sys)
{
  gchar path[64], *text = NULL, *p;
  unsigned long long ut, st;
  gboolean ok = FALSE;
  long hz = sysconf (_SC_CLK_TCK);

  g_snprintf (path, sizeof path, "/proc/self/task/%u/stat", tid);
  if (hz <= 0 || !g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  /* the command name (field 2) may hold spaces: skip past its ')' */
  p = strrchr (text, ')');
  if (p != NULL && sscanf (p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
          "%*u %llu %llu", &ut, &st) == 2) {
    *user = ut * (GST_SECOND / hz);
    *sys = st * (GST_SECOND / hz);
    ok = TRUE;
  }
  g_free (text);
  return ok;
}

static void
record_cpu (Trace * t, Stream * self)
{
  struct rusage ru;
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (guint32));
  GPtrArray *a = copy_streams (t);
  guint64 now = tracer_now ();
  guint i;

  for (i = 0; i < a->len; i++) {
    Stream *s = g_ptr_array_index (a, i);

    if (!s->dead)
      g_array_append_val (tids, s->tid);
  }
  g_ptr_array_free (a, TRUE);
  stream_lock (self);
  for (i = 0; i < tids->len; i++) {
    guint32 tid = g_array_index (tids, guint32, i);
    guint64 user, sys;
    guint8 *p;

    if (!read_thread_cpu (tid, &user, &sys))
      continue;
    p = tracer_event_begin (self, EV_THREAD_CPU, 20, now);
    if (p == NULL)
      break;
    p = tracer_put_u32 (p, tid);
    p = tracer_put_u64 (p, user);
    p = tracer_put_u64 (p, sys);
    tracer_event_end (self, p);
  }
  g_array_free (tids, TRUE);
  /* the whole process as tid 0 */
  if (getrusage (RUSAGE_SELF, &ru) == 0) {
    guint8 *p = tracer_event_begin (self, EV_THREAD_CPU, 20, now);

    if (p != NULL) {
      p = tracer_put_u32 (p, 0);
      p = tracer_put_u64 (p, ru.ru_utime.tv_sec * GST_SECOND +
          ru.ru_utime.tv_usec * GST_USECOND);
      p = tracer_put_u64 (p, ru.ru_stime.tv_sec * GST_SECOND +
          ru.ru_stime.tv_usec * GST_USECOND);
      tracer_event_end (self, p);
    }
  }
  stream_unlock (self);
}

static void
record_rates (Trace * t, Stream * self, guint64 period)
{
  guint64 now = tracer_now ();
  guint i;

  g_mutex_lock (&t->lock);
  stream_lock (self);
  for (i = 0; i < t->pads->len; i++) {
    PadInfo *pi = g_ptr_array_index (t->pads, i);
    guint64 b = pi->buffers, n = pi->bytes;
    guint8 *p;

    if (b == pi->reported_buffers)
      continue;
    p = tracer_event_begin (self, EV_PAD_RATE, 22, now);
    if (p == NULL)
      break;
    p = tracer_put_u16 (p, pi->id);
    p = tracer_put_u32 (p, (guint32) (b - pi->reported_buffers));
    p = tracer_put_u64 (p, n - pi->reported_bytes);
    p = tracer_put_u64 (p, period);
    tracer_event_end (self, p);
    pi->reported_buffers = b;
    pi->reported_bytes = n;
  }
  stream_unlock (self);
  g_mutex_unlock (&t->lock);
}

static gpointer
writer_main (gpointer data)
{
  Trace *t = data;
  Stream *self = tracer_stream_get (t);
  guint64 now = tracer_now ();
  guint64 next_flush = now + t->s.flush_interval;
  guint64 last_period = now, next_period = now + t->s.period;
  gboolean stop = FALSE;

  while (!stop) {
    guint64 deadline = MIN (next_flush, next_period);
    Packet *pk;

    now = tracer_now ();
    pk = g_async_queue_timeout_pop (t->queue,
        deadline > now ? (deadline - now) / 1000 : 0);
    if (pk != NULL && pk->data == NULL) {
      g_free (pk);
      stop = TRUE;
      /* the last period's samples, then nothing more is recorded */
      now = tracer_now ();
      if (t->s.rusage)
        record_cpu (t, self);
      if (t->s.rates)
        record_rates (t, self, now - last_period);
      g_atomic_int_set (&t->stopped, 1);
    } else if (pk != NULL) {
      write_packet (t, pk);
    }
    now = tracer_now ();
    if (now >= next_period && !stop) {
      if (t->s.rusage)
        record_cpu (t, self);
      if (t->s.rates)
        record_rates (t, self, now - last_period);
      last_period = now;
      next_period = now + t->s.period;
    }
    if (now >= next_flush || stop) {
      flush_streams (t);
      next_flush = now + t->s.flush_interval;
    }
  }
  /* everything closed before the stop marker: write what is queued,
   * then the discard counts that no packet carried yet */
  for (;;) {
    Packet *pk;
    GPtrArray *a;
    guint i;

    while ((pk = g_async_queue_try_pop (t->queue)) != NULL)
      if (pk->data != NULL)
        write_packet (t, pk);
      else
        g_free (pk);
    a = copy_streams (t);
    for (i = 0; i < a->len; i++)
      tracer_stream_close_discards (g_ptr_array_index (a, i));
    g_ptr_array_free (a, TRUE);
    if (g_async_queue_length (t->queue) <= 0)
      break;
  }
  return NULL;
}

gboolean
tracer_writer_start (Trace * t)
{
  t->queue = g_async_queue_new ();
  t->writer = g_thread_new ("ctftracer-writer", writer_main, t);
  return TRUE;
}

/* Flushes every stream and waits for the writer to write it all.  Hooks
 * called once the writer has seen the stop marker record nothing. */
void
tracer_writer_stop (Trace * t)
{
  Packet *marker;
  guint i;

  if (t->writer == NULL)
    return;
  marker = g_new0 (Packet, 1);
  g_async_queue_push (t->queue, marker);
  g_thread_join (t->writer);
  t->writer = NULL;
  g_mutex_lock (&t->lock);
  for (i = 0; i < t->streams->len; i++) {
    Stream *s = g_ptr_array_index (t->streams, i);

    if (s->fd >= 0) {
      close (s->fd);
      s->fd = -1;
    }
  }
  g_mutex_unlock (&t->lock);
}
