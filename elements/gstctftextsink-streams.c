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
 * before a packet (known from its context, gst_ctf_discard_tracker_next_packet())
 * right after the stream's event before them; a decoding error at the
 * place of the stream's last event.  Only the deltas are computed while
 * merging.
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

#include "gstctftextsink-streams.h"
#include "gstctf-reader.h"
#include "gstctf-heap-private.h"

/* A chunk ends after this many records or this much text. */
#define CHUNK_RECORDS 256
#define CHUNK_TEXT (64 * 1024)
/* Formatted chunks a job may have that the merge has not taken; a worker
 * takes the job again when it has at most LOW_AHEAD. */
#define MAX_AHEAD 8
#define LOW_AHEAD 4
/* Formatted chunks not merged yet, all jobs together (per worker, with
 * @ts in scope), beyond which only the job the merge waits for is
 * formatted (bounds the text made ahead while the merge waits for later
 * packets). */
#define OUT_PER_WORKER 16
#define MAX_OUT (OUT_PER_WORKER * ts->n_workers)
/* Packets per stream (and one per worker) pushed and not merged yet that
 * the engine may hold before the merge waits for a worker. */
#define HELD_PER_STREAM 2

typedef struct _Stream Stream;
typedef struct _Job Job;

/* A discarded-items notice or an error, with what the sink reports. */
typedef struct {
  GstCtfMergeItem item;
  gchar *warn;
  GError *error;
} Notice;

typedef struct {
  guint8 type;                  /* GstCtfMergeItemType */
  gboolean has_ns;              /* merge key */
  gint64 ns;
  guint32 off;                  /* the line in the chunk's text */
  guint32 len;
  GstCtfTextLine line;
  Notice *notice;               /* notices and errors */
} Record;

typedef struct {
  GString *text;
  GArray *recs;                 /* Record */
  guint pos;                    /* next record to merge */
} Chunk;

struct _Job {
  Stream *s;
  guint64 serial;               /* push order: the oldest job first */
  GBytes *bytes;
  gint64 offset;
  gboolean has_begin_ns;        /* its timestamp_begin, ns */
  gint64 begin_ns;
  gboolean visible;             /* the merge has reached its push */
  gboolean orphan;              /* of a failed stream: in no job list */

  /* under the lock */
  GQueue chunks;                /* Chunk*: formatted, not taken */
  gboolean busy;                /* a worker has it */
  gboolean queued;              /* in the work queue */
  gboolean done;                /* every event formatted (or failed) */
  gboolean blocked;             /* waits for the clock of the job before */
  gboolean capped;              /* in the capped queue (MAX_OUT) */
  gboolean head;                /* the merge waits for it */
  Job *next_in_stream;          /* the job that waits for this one */

  /* the worker's (while busy) */
  GstCtfEventIter *it;          /* NULL: not started */
  gboolean have_start_clock;    /* the clock this packet starts from */
  guint64 start_clock;
  gboolean have_key;            /* the stream's last merge key so far */
  gboolean key_has_ns;
  gint64 key_ns;
  guint64 end_clock;            /* (when done) the clock it ended with */
  gboolean started;             /* the packet is on @it */
};

struct _Stream {
  /* identity and tie order, as gstctf-event-merge.c */
  guint64 sc_id;
  gint64 rank;
  gint64 bt_id;
  guint serial;
  gchar *name;
  const GstCtfClockClass *clock;
  GstCtfDiscardTracker discards;

  GQueue jobs;                  /* Job*, in order, not merged yet */
  Job *last;                    /* the newest job, while not freed */
  gboolean have_end_clock;      /* the clock the last freed job ended with */
  guint64 end_clock;
  gboolean key_has_ns;          /* and its last merge key */
  gint64 key_ns;
  gboolean dead;                /* failed: nothing more */

  Chunk *cur;                   /* being merged */
  gint heap_index;              /* -1: not in the heap */
  gboolean pending;             /* in @pending: its head is to be found */
};

struct _GstCtfTextStreams {
  GstCtfTraceClass *tc;
  GstCtfTextFormatter *nfmt;    /* the streaming thread's: notices */

  GMutex lock;
  GCond work_cond;              /* work queued, or quit */
  GCond ready_cond;             /* a chunk is ready */
  GQueue work;                  /* Job*, by serial */
  GQueue capped;                /* Job*: runnable but for MAX_OUT */
  guint n_out;                  /* formatted chunks not merged */
  GQueue free_chunks;           /* Chunk* */
  GQueue free_iters;            /* GstCtfEventIter* */
  gboolean quit;
  guint n_idle;                 /* workers waiting for work */
  Job *waiting_for;             /* the merge waits for this job */
  guint held;                   /* jobs not merged */
  guint n_workers;
  GThread **workers;
  GstCtfTextFormatter **fmt;    /* one per worker */

  /* streaming thread */
  GHashTable *streams;          /* "scid:rank" -> Stream* */
  guint n_streams;
  guint64 n_jobs;
  GPtrArray *heap;              /* Stream*, by their current record */
  GQueue pending;               /* Stream*: head to find */
  GQueue pushes;                /* Job*: pushed, not yet visible */
  Stream *returned;             /* the stream whose record was given back */
  gboolean have_limit;
  gint64 limit;
  gboolean finished;
  GstCtfTextDelta delta;
};

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

static void
chunk_free (Chunk * c)
{
  chunk_clear (c);
  g_array_unref (c->recs);
  g_string_free (c->text, TRUE);
  g_free (c);
}

/* (with the lock) */
static Chunk *
chunk_get (GstCtfTextStreams * ts)
{
  Chunk *c = g_queue_pop_head (&ts->free_chunks);

  if (c == NULL) {
    c = g_new0 (Chunk, 1);
    c->text = g_string_sized_new (4096);
    c->recs = g_array_sized_new (FALSE, FALSE, sizeof (Record), 64);
  }
  return c;
}

/* (with the lock) */
static void
chunk_put (GstCtfTextStreams * ts, Chunk * c)
{
  chunk_clear (c);
  g_queue_push_head (&ts->free_chunks, c);
}

static void schedule (GstCtfTextStreams * ts, Job * j);

/* A formatted chunk was merged (with the lock). */
static void
chunk_merged (GstCtfTextStreams * ts, Chunk * c)
{
  Job *j;

  chunk_put (ts, c);
  ts->n_out--;
  while (ts->n_out < MAX_OUT && (j = g_queue_pop_head (&ts->capped))) {
    j->capped = FALSE;
    schedule (ts, j);
  }
}

/* (with the lock; the job is not busy) */
static void
job_free (GstCtfTextStreams * ts, Job * j)
{
  Chunk *c;

  while ((c = g_queue_pop_head (&j->chunks)))
    chunk_put (ts, c);
  if (j->capped)
    g_queue_remove (&ts->capped, j);
  if (j->it)
    g_queue_push_head (&ts->free_iters, j->it);
  g_bytes_unref (j->bytes);
  g_free (j);
}

/* Queues @j for a worker when it has work and room (with the lock); the
 * oldest jobs first. */
static void
schedule (GstCtfTextStreams * ts, Job * j)
{
  GList *l;

  if (j->busy || j->queued || j->done || j->blocked || j->capped ||
      g_queue_get_length (&j->chunks) > LOW_AHEAD)
    return;
  if (!j->head && ts->n_out >= MAX_OUT) {
    j->capped = TRUE;
    g_queue_push_tail (&ts->capped, j);
    return;
  }
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

static Notice *
notice_new (const GstCtfMergeItem * item, Stream * s)
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
  if (j->have_start_clock)
    gst_ctf_event_iter_set_clock_value (j->it, j->start_clock);
  pi = gst_ctf_event_iter_get_packet_info (j->it);
  if (pi->has_timestamp_begin && j->s->clock != NULL) {
    j->key_has_ns = gst_ctf_clock_class_cycles_to_ns_from_origin
        (j->s->clock, pi->timestamp_begin, &j->key_ns);
    j->have_key = TRUE;
  }
  return TRUE;
}

/* Decodes and formats the job's next events into @c, until the chunk is
 * full or the packet ends (returns TRUE then: the job is done). */
static gboolean
fill_chunk (GstCtfTextFormatter * fmt, Job * j, Chunk * c)
{
  GError *err = NULL;
  const GstCtfClockClass *clock = j->s->clock;
  Record r;

  if (!j->started) {
    j->started = TRUE;
    if (!job_start (j, &err))
      goto failed;
  }

  memset (&r, 0, sizeof (r));
  r.type = GST_CTF_MERGE_EVENT;
  while (c->recs->len < CHUNK_RECORDS && c->text->len < CHUNK_TEXT) {
    if (!gst_ctf_event_iter_next (j->it, &err)) {
      const GstCtfPacketInfo *pi;

      if (err != NULL)
        goto failed;
      /* CTF 1.8 §8: a next packet without timestamp_begin starts from
       * this one's timestamp_end, else from its last clock value */
      pi = gst_ctf_event_iter_get_packet_info (j->it);
      j->end_clock = pi->has_timestamp_end ? pi->timestamp_end :
          gst_ctf_event_iter_get_clock_value (j->it);
      return TRUE;
    }
    r.has_ns = clock != NULL && gst_ctf_clock_class_cycles_to_ns_from_origin
        (clock, gst_ctf_event_iter_get_clock_value (j->it), &r.ns);
    j->have_key = TRUE;
    j->key_has_ns = r.has_ns;
    j->key_ns = r.ns;
    r.off = c->text->len;
    gst_ctf_text_formatter_format_event_line (fmt, j->it, c->text, &r.line);
    r.len = c->text->len - r.off;
    g_array_append_val (c->recs, r);
  }
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
    r.has_ns = j->have_key ? j->key_has_ns : FALSE;
    r.ns = j->have_key ? j->key_ns : 0;
    r.notice = notice_new (&item, j->s);
    r.notice->item.offset = j->offset;
    r.notice->error = err ? err : g_error_new (GST_CTF_ERROR,
        GST_CTF_ERROR_PACKET, "unknown error");
    g_array_append_val (c->recs, r);
    j->end_clock = 0;
    return TRUE;
  }
}

typedef struct {
  GstCtfTextStreams *ts;
  guint index;
} WorkerArg;

static gpointer
worker_main (gpointer data)
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
    j->busy = TRUE;
    if (j->it == NULL) {
      j->it = g_queue_pop_head (&ts->free_iters);
      if (j->it == NULL)
        j->it = gst_ctf_event_iter_new (ts->tc);
    }
    /* chunks of this job while it has events and room */
    while (more) {
      Chunk *c = chunk_get (ts);
      gboolean done;

      g_mutex_unlock (&ts->lock);
      done = fill_chunk (fmt, j, c);
      g_mutex_lock (&ts->lock);

      if (c->recs->len > 0) {
        g_queue_push_tail (&j->chunks, c);
        ts->n_out++;
      } else {
        chunk_put (ts, c);
      }
      if (done) {
        Job *n = j->next_in_stream;

        j->done = TRUE;
        g_queue_push_head (&ts->free_iters, j->it);
        j->it = NULL;
        if (n != NULL) {
          /* the next packet of the stream starts from this one's clock */
          n->have_start_clock = TRUE;
          n->start_clock = j->end_clock;
          n->have_key = j->have_key;
          n->key_has_ns = j->key_has_ns;
          n->key_ns = j->key_ns;
          n->blocked = FALSE;
          schedule (ts, n);
        }
      }
      if (ts->waiting_for == j)
        g_cond_signal (&ts->ready_cond);
      more = !done && g_queue_get_length (&j->chunks) < MAX_AHEAD &&
          (j->head || ts->n_out < MAX_OUT) && !ts->quit &&
          (ts->work.head == NULL ||
          ((Job *) ts->work.head->data)->serial > j->serial);
    }
    j->busy = FALSE;
    schedule (ts, j);
  }
  g_mutex_unlock (&ts->lock);
  return NULL;
}

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
    chunk_merged (ts, s->cur);
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
      schedule (ts, j);
      a = ADV_RECORD;
      break;
    }
    if (j->done) {
      /* merged: what a next packet without timestamp_begin needs */
      g_queue_pop_head (&s->jobs);
      if (s->last == j) {
        s->last = NULL;
        s->have_end_clock = TRUE;
        s->end_clock = j->end_clock;
        s->key_has_ns = j->key_has_ns;
        s->key_ns = j->key_ns;
      }
      job_free (ts, j);
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
      schedule (ts, j);
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
    ts->workers[i] = g_thread_new ("ctftextsink-fmt", worker_main, arg);
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
      job_free (ts, j);
    }
    if (s->cur)
      chunk_free (s->cur);
  }
  g_hash_table_unref (ts->streams);
  g_queue_clear (&ts->pending);
  g_ptr_array_unref (ts->heap);
  g_queue_clear_full (&ts->free_chunks, (GDestroyNotify) chunk_free);
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
  c = chunk_get (ts);
  g_mutex_unlock (&ts->lock);
  warn = g_string_new (NULL);
  for (i = 0; i < n; i++) {
    Record r;

    memset (&r, 0, sizeof (r));
    r.type = items[i].type;
    items[i].offset = offset;
    r.notice = notice_new (&items[i], s);
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
    const gchar * stream_name, gint64 offset, GError ** error)
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
    } else if (s->last != NULL) {
      j->have_start_clock = TRUE;
      j->start_clock = s->last->end_clock;
      j->have_key = s->last->have_key;
      j->key_has_ns = s->last->key_has_ns;
      j->key_ns = s->last->key_ns;
    } else if (s->have_end_clock) {
      j->have_start_clock = TRUE;
      j->start_clock = s->end_clock;
      j->have_key = TRUE;
      j->key_has_ns = s->key_has_ns;
      j->key_ns = s->key_ns;
    }
  }
  s->last = j;
  g_queue_push_tail (&s->jobs, j);
  ts->held++;
  schedule (ts, j);
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
  while ((s = g_queue_pop_head (&ts->pending))) {
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
    const gchar *line = s->cur->text->str + r->off;

    if (r->line.delta_at >= 0) {
      put_bytes (out, line, r->line.delta_at);
      gst_ctf_text_formatter_append_delta (ts->nfmt, out, &ts->delta,
          &r->line);
      put_bytes (out, line + r->line.delta_at, r->len - r->line.delta_at);
    } else {
      gst_ctf_text_formatter_append_delta (ts->nfmt, out, &ts->delta,
          &r->line);
      put_bytes (out, line, r->len);
    }
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
