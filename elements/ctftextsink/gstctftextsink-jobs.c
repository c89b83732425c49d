/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: ctftextsink's parallel formatting, the jobs: a packet pushed is
 * a job that worker threads decode and format into chunks of lines
 * without their delta (see gstctftextsink-streams.c for the whole).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstctftextsink-streams-private.h"

/* ------------------------------------------------------------------ */
/* Chunks and jobs                                                     */

static void
notice_free (Notice * n)
{
  g_free (n->warn);
  g_clear_error (&n->error);
  g_free (n);
}

static void
chunk_clear (Chunk * c)
{
  guint i;

  for (i = 0; i < c->recs->len; i++) {
    Record *r = &g_array_index (c->recs, Record, i);

    if (r->notice)
      notice_free (r->notice);
  }
  g_array_set_size (c->recs, 0);
  g_string_truncate (c->text, 0);
  c->pos = 0;
}

void
_gst_ctf_text_sink_chunk_free (Chunk * c)
{
  chunk_clear (c);
  g_array_unref (c->recs);
  g_string_free (c->text, TRUE);
  g_free (c);
}

/* (with the lock) */
Chunk *
_gst_ctf_text_sink_chunk_get (GstCtfTextStreams * ts)
{
  Chunk *c = g_queue_pop_head (&ts->free_chunks);

  if (c == NULL) {
    c = g_new0 (Chunk, 1);
    c->text = g_string_sized_new (4096);
    c->recs = g_array_sized_new (FALSE, FALSE, sizeof (Record),
        CHUNK_RECORDS);
  }
  return c;
}

/* (with the lock) */
void
_gst_ctf_text_sink_chunk_put (GstCtfTextStreams * ts, Chunk * c)
{
  chunk_clear (c);
  g_queue_push_head (&ts->free_chunks, c);
}

/* A formatted chunk was merged (with the lock). */
void
_gst_ctf_text_sink_chunk_merged (GstCtfTextStreams * ts, Chunk * c)
{
  Job *j;

  _gst_ctf_text_sink_chunk_put (ts, c);
  ts->n_out--;
  while (ts->n_out < MAX_OUT && (j = g_queue_pop_head (&ts->capped))) {
    j->capped = FALSE;
    _gst_ctf_text_sink_job_schedule (ts, j);
  }
}

/* (with the lock; the job is not busy) */
void
_gst_ctf_text_sink_job_free (GstCtfTextStreams * ts, Job * j)
{
  Chunk *c;

  while ((c = g_queue_pop_head (&j->chunks)))
    _gst_ctf_text_sink_chunk_put (ts, c);
  if (j->capped)
    g_queue_remove (&ts->capped, j);
  if (j->it)
    g_queue_push_head (&ts->free_iters, j->it);
  g_bytes_unref (j->bytes);
  g_free (j);
}

/* Holds @j back (with the lock) when there are MAX_OUT chunks ahead of
 * the merge and @j is neither started (a started job goes on: each holds
 * an iterator with its plans) nor the one the merge waits for. */
static gboolean
cap (GstCtfTextStreams * ts, Job * j)
{
  if (j->head || j->it != NULL || ts->n_out < MAX_OUT)
    return FALSE;
  j->capped = TRUE;
  g_queue_push_tail (&ts->capped, j);
  return TRUE;
}

/* Queues @j for a worker when it has work and room (with the lock); the
 * oldest jobs first. */
void
_gst_ctf_text_sink_job_schedule (GstCtfTextStreams * ts, Job * j)
{
  GList *l;

  if (j->busy || j->queued || j->done || j->blocked || j->capped ||
      g_queue_get_length (&j->chunks) > LOW_AHEAD || cap (ts, j))
    return;
  j->queued = TRUE;
  for (l = ts->work.tail; l != NULL; l = l->prev)
    if (((Job *) l->data)->serial < j->serial)
      break;
  if (l == NULL)
    g_queue_push_head (&ts->work, j);
  else
    g_queue_insert_after (&ts->work, l, j);
  if (ts->n_idle > 0)
    g_cond_signal (&ts->work_cond);
}

/* ------------------------------------------------------------------ */
/* Workers                                                             */

Notice *
_gst_ctf_text_sink_notice_new (const GstCtfMergeItem * item, Stream * s)
{
  Notice *n = g_new0 (Notice, 1);

  n->item = *item;
  n->item.iter = NULL;
  n->item.stream_class_id = s->sc_id;
  n->item.stream_id = s->bt_id;
  n->item.stream_name = s->name;
  return n;
}

/* Starts the job's packet on its iterator.  Returns FALSE when the packet
 * cannot be read (cannot happen: its header and context were read when it
 * was pushed). */
static gboolean
job_start (Job * j, GError ** error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (j->bytes, &size);
  const GstCtfPacketInfo *pi;

  gst_ctf_event_iter_set_recording (j->it, TRUE);
  if (!gst_ctf_event_iter_set_packet (j->it, data, size, error))
    return FALSE;
  if (j->pos.have_clock)
    gst_ctf_event_iter_set_clock_value (j->it, j->pos.clock);
  pi = gst_ctf_event_iter_get_packet_info (j->it);
  if (pi->has_timestamp_begin && j->s->clock != NULL) {
    j->pos.key_has_ns = gst_ctf_clock_class_cycles_to_ns_from_origin
        (j->s->clock, pi->timestamp_begin, &j->pos.key_ns);
    j->pos.have_key = TRUE;
  }
  return TRUE;
}

/* Decodes and formats the job's next events into @c, until the chunk is
 * full or the packet ends (returns TRUE then: the job is done). */
static gboolean
fill_chunk (GstCtfTextFormatter * fmt, Job * j, Chunk * c)
{
  GError *err = NULL;
  Record r;
  Record *recs;
  guint n;

  if (!j->started) {
    j->started = TRUE;
    if (!job_start (j, &err))
      goto failed;
  }

  gst_ctf_text_formatter_set_stream (fmt, j->s->bt_id, j->s->name,
      j->s->path);
  memset (&r, 0, sizeof (r));
  r.type = GST_CTF_MERGE_EVENT;
  /* The records are written in place, without a call per line: the array
   * is sized for a whole chunk here, and cut to what was written at each
   * way out. */
  n = c->recs->len;
  if (n >= CHUNK_RECORDS)
    return FALSE;
  g_array_set_size (c->recs, CHUNK_RECORDS);
  recs = (Record *) (gpointer) c->recs->data;
  while (n < CHUNK_RECORDS && c->text->len < CHUNK_TEXT) {
    if (!gst_ctf_event_iter_next (j->it, &err)) {
      const GstCtfPacketInfo *pi;

      g_array_set_size (c->recs, n);
      if (err != NULL)
        goto failed;
      /* CTF 1.8 §8: a next packet without timestamp_begin starts from
       * this one's timestamp_end, else from its last clock value */
      pi = gst_ctf_event_iter_get_packet_info (j->it);
      j->pos.have_clock = TRUE;
      j->pos.clock = pi->has_timestamp_end ? pi->timestamp_end :
          gst_ctf_event_iter_get_clock_value (j->it);
      return TRUE;
    }
    r.off = c->text->len;
    gst_ctf_text_formatter_format_event_line (fmt, j->it, c->text, &r.line);
    r.len = c->text->len - r.off;
    /* the merge key: the time the line has (its stream's clock) */
    r.has_ns = r.line.has_clock && r.line.has_ns;
    r.ns = r.line.ns;
    j->pos.have_key = TRUE;
    j->pos.key_has_ns = r.has_ns;
    j->pos.key_ns = r.ns;
    recs[n++] = r;
  }
  g_array_set_size (c->recs, n);
  return FALSE;

failed:
  {
    GstCtfMergeItem item;

    memset (&item, 0, sizeof (item));
    item.type = GST_CTF_MERGE_ERROR;
    item.offset = j->offset;
    memset (&r, 0, sizeof (r));
    r.type = GST_CTF_MERGE_ERROR;
    /* ordered where the stream was: its last event, or the packet's
     * beginning */
    r.has_ns = j->pos.have_key && j->pos.key_has_ns;
    r.ns = j->pos.have_key ? j->pos.key_ns : 0;
    r.notice = _gst_ctf_text_sink_notice_new (&item, j->s);
    r.notice->error = err ? err : g_error_new (GST_CTF_ERROR,
        GST_CTF_ERROR_PACKET, "unknown error");
    g_array_append_val (c->recs, r);
    return TRUE;
  }
}

gpointer
_gst_ctf_text_sink_worker_main (gpointer data)
{
  WorkerArg *arg = data;
  GstCtfTextStreams *ts = arg->ts;
  GstCtfTextFormatter *fmt = ts->fmt[arg->index];

  g_free (arg);
  g_mutex_lock (&ts->lock);
  for (;;) {
    Job *j;
    gboolean more = TRUE;

    while (!ts->quit && g_queue_is_empty (&ts->work)) {
      ts->n_idle++;
      g_cond_wait (&ts->work_cond, &ts->lock);
      ts->n_idle--;
    }
    if (ts->quit)
      break;
    j = g_queue_pop_head (&ts->work);
    j->queued = FALSE;
    /* (queued while there was room) */
    if (cap (ts, j))
      continue;
    j->busy = TRUE;
    if (j->it == NULL) {
      j->it = g_queue_pop_head (&ts->free_iters);
      if (j->it == NULL)
        j->it = gst_ctf_event_iter_new (ts->tc);
    }
    /* chunks of this job while it has events and room */
    while (more) {
      Chunk *c = _gst_ctf_text_sink_chunk_get (ts);
      gboolean done;

      g_mutex_unlock (&ts->lock);
      done = fill_chunk (fmt, j, c);
      g_mutex_lock (&ts->lock);

      if (c->recs->len > 0) {
        g_queue_push_tail (&j->chunks, c);
        ts->n_out++;
      } else {
        _gst_ctf_text_sink_chunk_put (ts, c);
      }
      if (done) {
        Job *n = j->next_in_stream;

        j->done = TRUE;
        g_queue_push_head (&ts->free_iters, j->it);
        j->it = NULL;
        if (n != NULL) {
          /* the next packet of the stream starts from this one's clock */
          n->pos = j->pos;
          n->blocked = FALSE;
          _gst_ctf_text_sink_job_schedule (ts, n);
        }
      }
      if (ts->waiting_for == j)
        g_cond_signal (&ts->ready_cond);
      more = !done && g_queue_get_length (&j->chunks) < MAX_AHEAD &&
          !ts->quit;
    }
    j->busy = FALSE;
    _gst_ctf_text_sink_job_schedule (ts, j);
  }
  g_mutex_unlock (&ts->lock);
  return NULL;
}

