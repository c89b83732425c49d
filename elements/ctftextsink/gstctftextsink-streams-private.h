/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: what ctftextsink's parallel formatting shares between its
 * merge (gstctftextsink-streams.c) and its jobs and workers
 * (gstctftextsink-jobs.c): the structures, limits and locking described
 * in gstctftextsink-streams.c.  Private to the element.
 */
#pragma once

#include "gstctftextsink-streams.h"
#include "gstctf-reader.h"

G_BEGIN_DECLS

/* A chunk ends after this many records or this much text. */
#define CHUNK_RECORDS 256
#define CHUNK_TEXT (64 * 1024)
/* Formatted chunks a job may have that the merge has not taken; a worker
 * takes the job again when it has at most LOW_AHEAD.  (8192 events ahead:
 * with 8 chunks, 2048, a worker formatting the packet after the one the
 * merge takes, in the same stream, stopped long before the packet's end
 * and the parallel text of a one-stream trace was slower than the
 * sequential one; 64 per worker in all: at most 4 to 5 MiB of text each.) */
#define MAX_AHEAD 32
#define LOW_AHEAD 16
/* Formatted chunks not merged yet, all jobs together (per worker, with
 * @ts in scope), beyond which only the job the merge waits for is
 * formatted (bounds the text made ahead while the merge waits for later
 * packets). */
#define OUT_PER_WORKER 64
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

/* Where a stream stands after a packet: the merge key it reached (its
 * last event's time, or the packet's `timestamp_begin`: where a decoding
 * error after it is ordered) and the clock value a next packet without
 * `timestamp_begin` starts from (CTF 1.8 §8). */
typedef struct {
  gboolean have_key;
  gboolean key_has_ns;
  gint64 key_ns;
  gboolean have_clock;
  guint64 clock;
} StreamPos;

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
  gboolean started;             /* the packet is on @it */
  /* before it starts: where the stream's previous packet left it; while
   * it runs: the key reached; when done (read with the lock): where it
   * leaves the stream */
  StreamPos pos;
};

struct _Stream {
  /* identity and tie order, as gstctf-event-merge.c */
  guint64 sc_id;
  gint64 rank;
  gint64 bt_id;
  guint serial;
  gchar *name;
  const gchar *path;            /* interned, nullable */
  const GstCtfClockClass *clock;
  GstCtfDiscardTracker discards;

  GQueue jobs;                  /* Job*, in order, not merged yet */
  Job *last;                    /* the newest job, while not freed */
  StreamPos end;                /* where the last freed job left it */
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

typedef struct {
  GstCtfTextStreams *ts;
  guint index;
} WorkerArg;

/* gstctftextsink-jobs.c.  With the lock held: chunk_get, chunk_put,
 * chunk_merged (a chunk the merge took is done with), job_free (a job not
 * busy), job_schedule (queues a job that has work and room). */
Chunk *_gst_ctf_text_sink_chunk_get (GstCtfTextStreams * ts);
void _gst_ctf_text_sink_chunk_put (GstCtfTextStreams * ts, Chunk * c);
void _gst_ctf_text_sink_chunk_free (Chunk * c);
void _gst_ctf_text_sink_chunk_merged (GstCtfTextStreams * ts, Chunk * c);
void _gst_ctf_text_sink_job_free (GstCtfTextStreams * ts, Job * j);
void _gst_ctf_text_sink_job_schedule (GstCtfTextStreams * ts, Job * j);
Notice *_gst_ctf_text_sink_notice_new (const GstCtfMergeItem * item,
    Stream * s);
gpointer _gst_ctf_text_sink_worker_main (gpointer data);

G_END_DECLS
