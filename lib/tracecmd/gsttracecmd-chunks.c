/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The chunks of one CPU's compressed v7 data (trace-cmd.dat.v7(5)
 * "COMPRESSION FORMAT OF THE TRACE DATA": u32 chunk count, then per chunk
 * u32 compressed size, u32 inflated size, data), handed out in order,
 * inflated ahead of the reader on a worker thread.
 *
 * The reader's thread reads each chunk header, checks it and queues the
 * chunk; a shared GThreadPool (one thread less than the CPUs, at most 4;
 * none on one CPU) inflates it; the reader takes the chunks back in file
 * order.  At most TD_CHUNKS_AHEAD chunks and TD_CHUNKS_AHEAD_BYTES of
 * inflated data per CPU are ahead of the reader; a larger chunk, or any
 * chunk when there is no pool, is inflated by the reader when it gets to
 * it.  A bad header or a chunk that does not inflate gives the same error,
 * at the same chunk (and again on each later call), as reading them one by
 * one.
 *
 * GST_CTF_TRACEDAT_INFLATE_THREADS=0 in the environment turns the pool
 * off (the tests compare both ways).
 */
#include "gsttracecmd-private.h"

#include <stdlib.h>

#define TD_CHUNKS_AHEAD 4
#define TD_CHUNKS_AHEAD_BYTES (1024 * 1024)

typedef enum {
  SLOT_FREE,                    /* no chunk */
  SLOT_LATER,                   /* header read; the reader inflates it */
  SLOT_QUEUED,                  /* on the pool */
  SLOT_DONE,                    /* inflated, or @error */
} SlotState;

typedef struct {
  TdChunks *owner;
  guint8 *buf;
  gsize alloc;
  guint64 off;                  /* of the chunk's header in the file */
  guint32 csize;
  guint32 usize;
  guint32 index;
  guint32 ahead;                /* bytes counted in ahead_bytes */
  SlotState state;
  GError *error;
  TdInflater *inflater;         /* the worker's, while queued */
} Slot;

struct _TdChunks {
  GstCtfTraceDat *td;
  guint cpu;
  guint64 off;                  /* next header to read */
  guint64 end;
  guint32 n_chunks;
  guint32 n_read;               /* headers read (queued or later) */
  guint32 n_taken;              /* chunks handed out (or skipped) */
  gboolean stop;                /* a header error is queued: no more */
  GError *failed;               /* the error handed out, given again */
  gsize ahead_bytes;            /* inflated bytes queued or done */
  gint cur;                     /* slot handed out last, or -1 */
  TdInflater *inflater;         /* the reader's */
  Slot slots[TD_CHUNKS_AHEAD];
  GMutex lock;
  GCond done;
};

static GThreadPool *pool;
/* one inflater per pool thread, made on first use */
static GPrivate worker_inflater = G_PRIVATE_INIT ((GDestroyNotify)
    td_inflater_free);

static void
inflate_job (gpointer data, gpointer user_data)
{
  Slot *s = data;
  TdChunks *c = s->owner;
  GstCtfTraceDat *td = c->td;
  TdInflater *z = g_private_get (&worker_inflater);
  GError *err = NULL;

  if (z == NULL) {
    z = td_inflater_new ();
    g_private_set (&worker_inflater, z);
  }
  td_decompress (td->compression, z, td->base + s->off + 8, s->csize,
      s->buf, s->usize, td->origin, s->off + 8, &err);
  g_mutex_lock (&c->lock);
  s->error = err;
  s->state = SLOT_DONE;
  g_cond_broadcast (&c->done);
  g_mutex_unlock (&c->lock);
}

static gpointer
make_pool (gpointer unused)
{
  const gchar *env = g_getenv ("GST_CTF_TRACEDAT_INFLATE_THREADS");
  gint n = (gint) g_get_num_processors () - 1;

  if (env != NULL && *env != '\0')
    n = atoi (env);
  n = CLAMP (n, 0, 4);
  if (n == 0)
    return NULL;
  /* exclusive: its threads exist from here on, so a queued chunk is
   * always inflated (NULL, no pool, when they cannot be made) */
  return g_thread_pool_new (inflate_job, NULL, n, TRUE, NULL);
}

TdChunks *
td_chunks_new (GstCtfTraceDat * td, guint cpu, guint64 off, guint64 end,
    guint32 n_chunks)
{
  static GOnce once = G_ONCE_INIT;
  TdChunks *c = g_new0 (TdChunks, 1);
  guint i;

  pool = g_once (&once, make_pool, NULL);
  c->td = td;
  c->cpu = cpu;
  c->off = off;
  c->end = end;
  c->n_chunks = n_chunks;
  c->cur = -1;
  for (i = 0; i < TD_CHUNKS_AHEAD; i++)
    c->slots[i].owner = c;
  g_mutex_init (&c->lock);
  g_cond_init (&c->done);
  return c;
}

void
td_chunks_free (TdChunks * c)
{
  guint i;

  if (c == NULL)
    return;
  /* the pool may still be writing into a slot */
  g_mutex_lock (&c->lock);
  for (i = 0; i < TD_CHUNKS_AHEAD; i++)
    while (c->slots[i].state == SLOT_QUEUED)
      g_cond_wait (&c->done, &c->lock);
  g_mutex_unlock (&c->lock);
  for (i = 0; i < TD_CHUNKS_AHEAD; i++) {
    g_free (c->slots[i].buf);
    g_clear_error (&c->slots[i].error);
  }
  g_clear_error (&c->failed);
  td_inflater_free (c->inflater);
  g_mutex_clear (&c->lock);
  g_cond_clear (&c->done);
  g_free (c);
}

/* Reads the next chunk header into a free slot and queues the chunk (or
 * leaves it to the reader).  FALSE when there is nothing to read, no
 * free slot, or no room ahead (@must: read it anyway, it is the chunk the
 * reader needs now). */
static gboolean
read_header (TdChunks * c, gboolean must)
{
  GstCtfTraceDat *td = c->td;
  Slot *s;
  guint32 csize, usize;

  if (c->stop || c->n_read >= c->n_chunks)
    return FALSE;
  /* the slots in use: the chunks read and not taken, and the one handed
   * out last (counted, not looked at: the pool may be writing them) */
  if (c->n_read - c->n_taken + (c->cur >= 0 ? 1 : 0) >= TD_CHUNKS_AHEAD)
    return FALSE;
  s = &c->slots[c->n_read % TD_CHUNKS_AHEAD];
  s->index = c->n_read;
  s->off = c->off;
  if (c->end - c->off < 8) {
    g_set_error (&s->error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Cannot read chunk header: file=\"%s\", offset=%" G_GUINT64_FORMAT
        ", cpu=%u, chunk=%u, expected=8 bytes", td->origin, c->off,
        c->cpu, s->index);
    goto bad;
  }
  csize = td_read32 (td->byte_order, td->base + c->off);
  usize = td_read32 (td->byte_order, td->base + c->off + 4);
  if (csize > c->end - c->off - 8 || usize > TD_MAX_CHUNK_SIZE
      || !TD_INFLATE_PLAUSIBLE (csize, usize)) {
    g_set_error (&s->error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Bad chunk sizes: file=\"%s\", offset=%" G_GUINT64_FORMAT
        ", cpu=%u, chunk=%u, compressed-size=%u, available=%"
        G_GUINT64_FORMAT ", inflated-size=%u, max=%u", td->origin, c->off,
        c->cpu, s->index, csize, c->end - c->off - 8, usize,
        TD_MAX_CHUNK_SIZE);
    goto bad;
  }
  if (!must && (pool == NULL || usize > TD_CHUNKS_AHEAD_BYTES
          || c->ahead_bytes + usize > TD_CHUNKS_AHEAD_BYTES))
    return FALSE;
  s->csize = csize;
  s->usize = usize;
  if (usize > s->alloc) {
    g_free (s->buf);
    s->buf = g_malloc (usize);
    s->alloc = usize;
  }
  c->off += 8 + (guint64) csize;
  c->n_read++;
  s->ahead = 0;
  if (pool != NULL && usize > 0 && usize <= TD_CHUNKS_AHEAD_BYTES) {
    s->ahead = usize;
    c->ahead_bytes += usize;
    s->state = SLOT_QUEUED;
    g_thread_pool_push (pool, s, NULL);
  } else {
    s->state = SLOT_LATER;
  }
  return TRUE;

bad:
  /* the error waits in its slot for the reader */
  s->csize = s->usize = s->ahead = 0;
  s->state = SLOT_DONE;
  c->stop = TRUE;
  c->n_read++;
  return FALSE;
}

/* Queues chunks ahead as far as the limits allow. */
static void
read_ahead (TdChunks * c)
{
  while (read_header (c, FALSE));
}

gint
td_chunks_next (TdChunks * c, const guint8 ** data, gsize * len,
    GError ** error)
{
  if (c->failed != NULL) {
    g_propagate_error (error, g_error_copy (c->failed));
    return -1;
  }
  for (;;) {
    Slot *s;

    if (c->cur >= 0) {
      s = &c->slots[c->cur];
      c->ahead_bytes -= s->ahead;
      s->state = SLOT_FREE;
      c->cur = -1;
    }
    if (c->n_taken >= c->n_chunks)
      return 0;
    s = &c->slots[c->n_taken % TD_CHUNKS_AHEAD];
    if (c->n_taken == c->n_read && !read_header (c, TRUE)
        && s->state != SLOT_DONE)
      return 0;
    c->cur = (gint) (c->n_taken % TD_CHUNKS_AHEAD);
    c->n_taken++;
    g_mutex_lock (&c->lock);
    while (s->state == SLOT_QUEUED)
      g_cond_wait (&c->done, &c->lock);
    g_mutex_unlock (&c->lock);
    if (s->state == SLOT_LATER) {
      if (c->inflater == NULL)
        c->inflater = td_inflater_new ();
      td_decompress (c->td->compression, c->inflater,
          c->td->base + s->off + 8, s->csize, s->buf, s->usize,
          c->td->origin, s->off + 8, &s->error);
      s->state = SLOT_DONE;
    }
    read_ahead (c);
    if (s->error != NULL) {
      /* stays the answer, as when each call read the chunk again */
      c->failed = s->error;
      s->error = NULL;
      g_propagate_error (error, g_error_copy (c->failed));
      return -1;
    }
    if (s->usize > 0) {
      *data = s->buf;
      *len = s->usize;
      return 1;
    }
  }
}
