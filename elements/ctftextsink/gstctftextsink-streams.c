/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: ctftextsink's parallel formatting.
 *
 * Every packet pushed becomes a job.  Worker threads take the oldest jobs
 * and decode and format their events into chunks: the lines without their
 * `(+S.NS)` delta, each with its merge key (the event's time; see
 * gst_ctf_text_formatter_format_event_line()).  A packet's events depend
 * on no other packet when its context has `timestamp_begin` (CTF 1.8 §8:
 * the clock starts there), so the packets of one stream are formatted at
 * the same time on several cores; a packet without it starts from the
 * clock value the stream's previous packet ended with, and waits for that
 * packet.  The streaming thread merges the chunks of all the streams with
 * the rules of gst_ctf_event_merge_next() (gstctf-event-merge.c): by time,
 * then stream class id, then stream rank, then the order the streams
 * appeared in; the packets of a stream in their order; an event only when
 * no packet still to come can hold an earlier one (it is older than the
 * latest `timestamp_begin` pushed); the discarded events and packets
 * before a packet (known from its context,
 * gst_ctf_discard_tracker_next_packet()) right after the stream's event
 * before them; a decoding error at the place of the stream's last event.
 * Only the deltas are computed while merging.
 *
 * Pushes: the merge takes a push in (its `timestamp_begin` as the limit,
 * its stream as one to start) only once it has given back everything it
 * could before it, as the sequential merge does at each push; the workers
 * start on the packet at once.
 *
 * Waiting: the merge waits for a worker only at the end, or when more than
 * HELD_PER_STREAM packets per stream (and one per worker) are pushed and
 * not merged; otherwise the streaming thread returns and takes the next
 * packet, so the workers do not run out of packets while the merge waits
 * for one.  Memory: a job keeps at most MAX_AHEAD formatted chunks that
 * the merge has not taken, and all jobs at most MAX_OUT (16 per worker),
 * except the job the merge waits for (@head); packets are held as the
 * sequential merge holds them (until no later packet can come before
 * their events).
 *
 * Locking: @lock protects the work queue, the iterator pool, the free
 * chunks and each job's chunks and flags.  A job's iterator is used only by
 * the worker that has the job (@busy); the streams, their job lists, the
 * heap and the chunk being merged only by the streaming thread.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstctftextsink-streams-private.h"
#include "gstctf-heap-private.h"

/* ------------------------------------------------------------------ */
/* Merge heap (streaming thread)                                       */

static inline const Record *
head (const Stream * s)
{
  return &g_array_index (s->cur->recs, Record, s->cur->pos);
}

static inline gboolean
stream_before (const Stream * a, const Stream * b)
{
  const Record *ra = head (a), *rb = head (b);

  if (ra->has_ns != rb->has_ns)
    return !ra->has_ns;
  if (ra->has_ns && ra->ns != rb->ns)
    return ra->ns < rb->ns;
  if (a->sc_id != b->sc_id)
    return a->sc_id < b->sc_id;
  if (a->rank != b->rank)
    return a->rank < b->rank;
  return a->serial < b->serial;
}

GST_CTF_DEFINE_ITEM_HEAP (heap, Stream, stream_before, heap_index)

typedef enum {
  ADV_RECORD,                   /* @s->cur holds the next record */
  ADV_IDLE,                     /* the stream has nothing more for now */
  ADV_LATER,                    /* a worker is on it; not waited for */
} Advance;

/* Makes @s->cur hold @s's next record, from its oldest job. */
static Advance
stream_advance (GstCtfTextStreams * ts, Stream * s)
{
  Advance a;
  Job *j;

  if (s->cur != NULL && s->cur->pos < s->cur->recs->len)
    return ADV_RECORD;
  if (s->dead)
    return ADV_IDLE;
  g_mutex_lock (&ts->lock);
  if (s->cur != NULL) {
    _gst_ctf_text_sink_chunk_merged (ts, s->cur);
    s->cur = NULL;
  }
  for (;;) {
    j = g_queue_peek_head (&s->jobs);
    if (j == NULL || !j->visible) {
      a = ADV_IDLE;
      break;
    }
    s->cur = g_queue_pop_head (&j->chunks);
    if (s->cur != NULL) {
      _gst_ctf_text_sink_job_schedule (ts, j);
      a = ADV_RECORD;
      break;
    }
    if (j->done) {
      /* merged: what a next packet without timestamp_begin needs */
      g_queue_pop_head (&s->jobs);
      if (s->last == j) {
        s->last = NULL;
        s->end = j->pos;
      }
      _gst_ctf_text_sink_job_free (ts, j);
      ts->held--;
      continue;
    }
    /* the merge needs it: formatted whatever else is ahead */
    if (!j->head) {
      j->head = TRUE;
      if (j->capped) {
        g_queue_remove (&ts->capped, j);
        j->capped = FALSE;
      }
      _gst_ctf_text_sink_job_schedule (ts, j);
    }
    if (!ts->finished &&
        ts->held <= HELD_PER_STREAM * ts->n_streams + ts->n_workers) {
      a = ADV_LATER;
      break;
    }
    ts->waiting_for = j;
    g_cond_wait (&ts->ready_cond, &ts->lock);
    ts->waiting_for = NULL;
  }
  g_mutex_unlock (&ts->lock);
  return a;
}

/* ------------------------------------------------------------------ */
/* API                                                                 */

static void
stream_free (Stream * s)
{
  g_free (s->name);
  g_free (s);
}

GstCtfTextStreams *
gst_ctf_text_streams_new (GstCtfTraceClass * tc,
    const GstCtfTextOptions * opts, const gchar * trace_name,
    guint n_workers)
{
  GstCtfTextStreams *ts = g_new0 (GstCtfTextStreams, 1);
  guint i;

  ts->tc = gst_ctf_trace_class_ref (tc);
  ts->nfmt = gst_ctf_text_formatter_new (tc, opts);
  gst_ctf_text_formatter_set_trace_name (ts->nfmt, trace_name);
  g_mutex_init (&ts->lock);
  g_cond_init (&ts->work_cond);
  g_cond_init (&ts->ready_cond);
  ts->streams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) stream_free);
  ts->heap = g_ptr_array_new ();
  ts->n_workers = MAX (n_workers, 1);
  ts->workers = g_new0 (GThread *, ts->n_workers);
  ts->fmt = g_new0 (GstCtfTextFormatter *, ts->n_workers);
  for (i = 0; i < ts->n_workers; i++) {
    WorkerArg *arg = g_new (WorkerArg, 1);

    ts->fmt[i] = gst_ctf_text_formatter_new (tc, opts);
    gst_ctf_text_formatter_set_trace_name (ts->fmt[i], trace_name);
    arg->ts = ts;
    arg->index = i;
    ts->workers[i] = g_thread_new ("ctftextsink-fmt",
        _gst_ctf_text_sink_worker_main, arg);
  }
  return ts;
}

void
gst_ctf_text_streams_free (GstCtfTextStreams * ts)
{
  GHashTableIter hi;
  gpointer v;
  guint i;

  if (ts == NULL)
    return;
  g_mutex_lock (&ts->lock);
  ts->quit = TRUE;
  g_cond_broadcast (&ts->work_cond);
  g_mutex_unlock (&ts->lock);
  for (i = 0; i < ts->n_workers; i++) {
    g_thread_join (ts->workers[i]);
    gst_ctf_text_formatter_free (ts->fmt[i]);
  }
  g_free (ts->workers);
  g_free (ts->fmt);

  /* (jobs not applied yet are in their stream's list, but an orphan) */
  {
    Job *j;

    while ((j = g_queue_pop_head (&ts->pushes)))
      if (j->orphan) {
        g_bytes_unref (j->bytes);
        g_free (j);
      }
  }
  g_hash_table_iter_init (&hi, ts->streams);
  while (g_hash_table_iter_next (&hi, NULL, &v)) {
    Stream *s = v;
    Job *j;

    while ((j = g_queue_pop_head (&s->jobs))) {
      j->busy = FALSE;
      _gst_ctf_text_sink_job_free (ts, j);
    }
    if (s->cur)
      _gst_ctf_text_sink_chunk_free (s->cur);
  }
  g_hash_table_unref (ts->streams);
  g_queue_clear (&ts->pending);
  g_ptr_array_unref (ts->heap);
  g_queue_clear_full (&ts->free_chunks,
      (GDestroyNotify) _gst_ctf_text_sink_chunk_free);
  g_queue_clear_full (&ts->free_iters,
      (GDestroyNotify) gst_ctf_event_iter_free);
  g_queue_clear (&ts->work);
  g_queue_clear (&ts->capped);
  g_mutex_clear (&ts->lock);
  g_cond_clear (&ts->work_cond);
  g_cond_clear (&ts->ready_cond);
  gst_ctf_text_formatter_free (ts->nfmt);
  gst_ctf_trace_class_unref (ts->tc);
  g_free (ts);
}

/* The notices before a packet, as the job's first chunk. */
static Chunk *
notices_chunk (GstCtfTextStreams * ts, Stream * s,
    const GstCtfPacketInfo * info, gint64 offset)
{
  GstCtfMergeItem items[2];
  guint i, n = gst_ctf_discard_tracker_next_packet (&s->discards, info,
      s->clock, items);
  GString *warn;
  Chunk *c;

  if (n == 0)
    return NULL;
  g_mutex_lock (&ts->lock);
  c = _gst_ctf_text_sink_chunk_get (ts);
  g_mutex_unlock (&ts->lock);
  warn = g_string_new (NULL);
  for (i = 0; i < n; i++) {
    Record r;

    memset (&r, 0, sizeof (r));
    r.type = items[i].type;
    items[i].offset = offset;
    r.notice = _gst_ctf_text_sink_notice_new (&items[i], s);
    g_string_truncate (warn, 0);
    gst_ctf_text_formatter_format_discarded (ts->nfmt, warn,
        r.type == GST_CTF_MERGE_DISCARDED_EVENTS ? GST_CTF_DISCARDED_EVENTS :
        GST_CTF_DISCARDED_PACKETS, items[i].count, items[i].clock,
        items[i].begin, items[i].end, s->name, s->sc_id, s->bt_id);
    r.notice->warn = g_strdup (warn->str);
    g_array_append_val (c->recs, r);
  }
  g_string_free (warn, TRUE);
  return c;
}

gboolean
gst_ctf_text_streams_push (GstCtfTextStreams * ts, GBytes * packet,
    guint64 stream_class_id, gint64 rank, gint64 stream_id,
    const gchar * stream_name, const gchar * file_path, gint64 offset,
    GError ** error)
{
  gchar key[48];
  Stream *s;
  Job *j;
  Chunk *notices;
  GstCtfPacketInfo info;
  gsize size;
  const guint8 *data = g_bytes_get_data (packet, &size);

  if (!gst_ctf_packet_read_info (ts->tc, data, size, &info, error))
    return FALSE;

  g_snprintf (key, sizeof (key), "%" G_GUINT64_FORMAT ":%" G_GINT64_FORMAT,
      stream_class_id, rank);
  s = g_hash_table_lookup (ts->streams, key);
  if (s == NULL) {
    s = g_new0 (Stream, 1);
    s->sc_id = stream_class_id;
    s->rank = rank;
    s->bt_id = stream_id;
    s->serial = ts->n_streams++;
    s->name = g_strdup (stream_name);
    s->path = file_path;
    s->heap_index = -1;
    g_hash_table_insert (ts->streams, g_strdup (key), s);
  }
  if (s->clock == NULL && info.stream_class != NULL)
    s->clock = info.stream_class->default_clock;

  notices = s->dead ? NULL : notices_chunk (ts, s, &info, offset);
  j = g_new0 (Job, 1);
  j->s = s;
  j->serial = ts->n_jobs++;
  j->bytes = g_bytes_ref (packet);
  j->offset = offset;
  if (info.has_timestamp_begin && info.stream_class &&
      info.stream_class->default_clock)
    j->has_begin_ns = gst_ctf_clock_class_cycles_to_ns_from_origin
        (info.stream_class->default_clock, info.timestamp_begin,
        &j->begin_ns);
  /* (the merge takes it in when it has given back what it could before
   * this push, see apply_push()) */
  g_queue_push_tail (&ts->pushes, j);
  if (s->dead) {
    j->orphan = TRUE;
    return TRUE;
  }

  g_mutex_lock (&ts->lock);
  if (notices) {
    g_queue_push_tail (&j->chunks, notices);
    ts->n_out++;
  }
  if (!info.has_timestamp_begin) {
    /* CTF 1.8 §8: the clock goes on from the stream's previous packet */
    if (s->last != NULL && !s->last->done) {
      j->blocked = TRUE;
      s->last->next_in_stream = j;
    } else {
      j->pos = s->last != NULL ? s->last->pos : s->end;
    }
  }
  s->last = j;
  g_queue_push_tail (&s->jobs, j);
  ts->held++;
  _gst_ctf_text_sink_job_schedule (ts, j);
  g_mutex_unlock (&ts->lock);
  return TRUE;
}

/* The merge has given back everything it could before the push of @j:
 * the packet becomes part of the merge, as gst_ctf_event_merge_push()
 * would have made it then. */
static void
apply_push (GstCtfTextStreams * ts, Job * j)
{
  Stream *s = j->s;

  if (j->has_begin_ns) {
    if (!ts->have_limit || j->begin_ns > ts->limit)
      ts->limit = j->begin_ns;
    ts->have_limit = TRUE;
  }
  if (j->orphan) {
    g_bytes_unref (j->bytes);
    g_free (j);
    return;
  }
  j->visible = TRUE;
  /* A stream without a current record: find it before merging on (as
   * the merge of all streams starts a pushed packet at once). */
  if (s->heap_index < 0 && s != ts->returned && !s->pending) {
    s->pending = TRUE;
    g_queue_push_tail (&ts->pending, s);
  }
}

void
gst_ctf_text_streams_finish (GstCtfTextStreams * ts)
{
  ts->finished = TRUE;
}

void
gst_ctf_text_streams_get_delta (GstCtfTextStreams * ts,
    GstCtfTextDelta * state)
{
  *state = ts->delta;
}

void
gst_ctf_text_streams_set_delta (GstCtfTextStreams * ts,
    const GstCtfTextDelta * state)
{
  ts->delta = *state;
}

/* Gives back the notice or error @r of @s. */
static GstCtfMergeItemType
give_notice (Stream * s, const Record * r, GstCtfMergeItem * item,
    GString * warn, GError ** error)
{
  Notice *n = r->notice;

  *item = n->item;
  if (r->type == GST_CTF_MERGE_ERROR) {
    g_propagate_error (error, n->error);
    n->error = NULL;
    s->dead = TRUE;
  } else {
    g_string_append (warn, n->warn);
  }
  s->cur->pos++;
  return r->type;
}

/* Finds @s's next record; a notice is given back at once (returns its
 * type), else @s takes its place in the heap (or leaves it).  Sets @later
 * when the record is not formatted yet and was not waited for. */
static GstCtfMergeItemType
stream_place (GstCtfTextStreams * ts, Stream * s, GstCtfMergeItem * item,
    GString * warn, GError ** error, gboolean * later)
{
  const Record *r;

  switch (stream_advance (ts, s)) {
    case ADV_LATER:
      *later = TRUE;
      return GST_CTF_MERGE_NONE;
    case ADV_IDLE:
      heap_remove (ts->heap, s);
      return GST_CTF_MERGE_NONE;
    default:
      break;
  }
  r = head (s);
  if (r->type == GST_CTF_MERGE_DISCARDED_EVENTS
      || r->type == GST_CTF_MERGE_DISCARDED_PACKETS) {
    heap_remove (ts->heap, s);
    ts->returned = s;
    return give_notice (s, r, item, warn, error);
  }
  heap_update (ts->heap, s);
  return GST_CTF_MERGE_NONE;
}

/* g_string_append_len() without its checks and call (once per event) */
static inline void
put_bytes (GString * s, const gchar * p, gsize n)
{
  if (G_UNLIKELY (s->len + n >= s->allocated_len)) {
    gsize len = s->len;

    g_string_set_size (s, len + n);
    s->len = len;
  }
  memcpy (s->str + s->len, p, n);
  s->len += n;
  s->str[s->len] = '\0';
}

/* What gst_ctf_event_merge_next() would give back with the packets
 * pushed so far (@later: or nothing, because a worker has not formatted
 * the next record yet). */
static GstCtfMergeItemType
merge_step (GstCtfTextStreams * ts, GString * out, GstCtfMergeItem * item,
    GString * warn, GError ** error, gboolean * later_out)
{
  Stream *s;
  const Record *r;
  GstCtfMergeItemType t;
  gboolean later = FALSE;

  /* (a stream whose next record is not formatted yet stays where it is,
   * to be placed at a later call) */
  if (ts->returned != NULL) {
    s = ts->returned;
    ts->returned = NULL;
    t = stream_place (ts, s, item, warn, error, &later);
    if (later) {
      ts->returned = s;
      *later_out = TRUE;
      return GST_CTF_MERGE_NONE;
    }
    if (t != GST_CTF_MERGE_NONE)
      return t;
  }
  /* (the queue is mostly empty: no call then) */
  while (ts->pending.length > 0 && (s = g_queue_pop_head (&ts->pending))) {
    s->pending = FALSE;
    t = stream_place (ts, s, item, warn, error, &later);
    if (later) {
      s->pending = TRUE;
      g_queue_push_head (&ts->pending, s);
      *later_out = TRUE;
      return GST_CTF_MERGE_NONE;
    }
    if (t != GST_CTF_MERGE_NONE)
      return t;
  }

  if (ts->heap->len == 0)
    return GST_CTF_MERGE_NONE;
  s = g_ptr_array_index (ts->heap, 0);
  r = head (s);
  if (!ts->finished || !g_queue_is_empty (&ts->pushes)) {
    /* strictly older than any packet still to come */
    if (!ts->have_limit)
      return GST_CTF_MERGE_NONE;
    if (r->has_ns && r->ns >= ts->limit)
      return GST_CTF_MERGE_NONE;
  }

  if (r->type == GST_CTF_MERGE_ERROR) {
    heap_remove (ts->heap, s);
    return give_notice (s, r, item, warn, error);
  }

  {
    /* (a line without delta: all of it after the delta state's move) */
    const gchar *line = s->cur->text->str + r->off;
    gsize at = r->line.delta_at >= 0 ? (gsize) r->line.delta_at : 0;

    put_bytes (out, line, at);
    gst_ctf_text_formatter_append_delta (ts->nfmt, out, &ts->delta,
        &r->line);
    put_bytes (out, line + at, r->len - at);
  }
  item->type = GST_CTF_MERGE_EVENT;
  item->stream_class_id = s->sc_id;
  item->stream_id = s->bt_id;
  item->stream_name = s->name;
  item->has_ns = r->has_ns;
  item->ns = r->ns;
  s->cur->pos++;
  /* the common case: the stream's next record is an event of the same
   * chunk, the stream stays at the top or sinks */
  if (s->cur->pos < s->cur->recs->len &&
      head (s)->type == GST_CTF_MERGE_EVENT) {
    heap_down (ts->heap, 0);
  } else {
    ts->returned = s;
  }
  return GST_CTF_MERGE_EVENT;
}

GstCtfMergeItemType
gst_ctf_text_streams_next (GstCtfTextStreams * ts, GString * out,
    GstCtfMergeItem * item, GString * warn, GError ** error)
{
  for (;;) {
    gboolean later = FALSE;
    GstCtfMergeItemType t;
    Job *j;

    memset (item, 0, sizeof (*item));
    item->offset = -1;
    item->pool_object = -1;
    t = merge_step (ts, out, item, warn, error, &later);
    if (t != GST_CTF_MERGE_NONE || later)
      return t;
    /* everything before the next push was given back */
    j = g_queue_pop_head (&ts->pushes);
    if (j == NULL)
      return GST_CTF_MERGE_NONE;
    apply_push (ts, j);
  }
}
