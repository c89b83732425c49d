/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-CPU page and record iteration, and a merge over CPUs.
 *
 * Uncompressed data is read in place from the mapping.  Compressed v7
 * data is a chunk table (trace-cmd.dat.v7(5) "COMPRESSION FORMAT OF THE
 * TRACE DATA": u32 chunk count, then per chunk u32 compressed size, u32
 * inflated size (a multiple of the page size), data), read by
 * gsttracecmd-chunks.c (inflated ahead on a worker thread).
 */
#include "gsttracecmd-private.h"

/* Where a compressed chunk is and which pages it holds (for seeks). */
typedef struct {
  guint64 off;                  /* its header */
  guint32 n_pages;
  guint64 first_page;
} ChunkRef;

struct _GstCtfTraceDatCpuIter {
  GstCtfTraceDat *td;
  const GstCtfTraceDatBuffer *buf;
  guint cpu;
  guint page_size;

  /* uncompressed: file range still to read */
  guint64 off;
  guint64 end;
  guint64 data_off;             /* the CPU's data: first byte, size */
  guint64 data_size;

  /* compressed: the chunks and the one being read */
  gboolean compressed;
  TdChunks *chunks;
  const guint8 *chunk;
  gsize chunk_len;
  gsize chunk_pos;
  guint64 chunks_off;           /* the first chunk header */
  guint32 n_chunks;
  GArray *chunk_table;          /* of ChunkRef, made by the first seek */

  guint64 next_page_index;
  guint64 page_index;
  gboolean have_page;
  GstCtfTraceDatPage page;
};

/**
 * gst_ctf_trace_dat_cpu_iter_new: (skip)
 * @td: a file
 * @buffer: buffer index (see gst_ctf_trace_dat_get_buffer())
 * @cpu_index: index in the buffer's CPU table
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Returns: (transfer full) (nullable): an iterator at the CPU's first
 *   page, or NULL when the buffer or CPU does not exist or the chunk table
 *   is unreadable.
 */
GstCtfTraceDatCpuIter *
gst_ctf_trace_dat_cpu_iter_new (GstCtfTraceDat * td, guint buffer,
    guint cpu_index, GError ** error)
{
  const GstCtfTraceDatBuffer *b = gst_ctf_trace_dat_get_buffer (td, buffer);
  const GstCtfTraceDatCpuData *cd;
  GstCtfTraceDatCpuIter *it;

  if (!b || b->latency || cpu_index >= b->n_cpus) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "No such flyrecord buffer or CPU: file=\"%s\", buffer=%u, "
        "cpu-index=%u", td->origin, buffer, cpu_index);
    return NULL;
  }
  cd = &b->cpus[cpu_index];
  it = g_new0 (GstCtfTraceDatCpuIter, 1);
  it->td = gst_ctf_trace_dat_ref (td);
  it->buf = b;
  it->cpu = cd->cpu;
  it->page_size = b->page_size;
  it->off = cd->offset;
  it->end = cd->offset + cd->size;
  it->data_off = cd->offset;
  it->data_size = cd->size;
  it->compressed = b->compressed && cd->size > 0;
  if (it->compressed) {
    if (cd->size < 4) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
          "Cannot read chunk count: file=\"%s\", offset=%" G_GUINT64_FORMAT
          ", cpu=%u", td->origin, cd->offset, cd->cpu);
      gst_ctf_trace_dat_cpu_iter_free (it);
      return NULL;
    }
    /* trace-cmd records the size of the chunks after the count: the
     * count word comes on top (bounded by the file) */
    it->end = MIN ((guint64) td->file_size, it->end + 4);
    it->chunks_off = it->off + 4;
    it->n_chunks = td_read32 (td->byte_order, td->base + it->off);
    it->chunks = td_chunks_new (td, cd->cpu, it->chunks_off, it->end,
        it->n_chunks);
  }
  return it;
}

/**
 * gst_ctf_trace_dat_cpu_iter_free:
 * @it: (transfer full) (nullable): an iterator
 */
void
gst_ctf_trace_dat_cpu_iter_free (GstCtfTraceDatCpuIter * it)
{
  if (!it)
    return;
  td_chunks_free (it->chunks);
  if (it->chunk_table)
    g_array_unref (it->chunk_table);
  gst_ctf_trace_dat_unref (it->td);
  g_free (it);
}

/**
 * gst_ctf_trace_dat_cpu_iter_next_page:
 * @it: an iterator
 * @page: (out) (transfer none) (array length=size): the next page's bytes,
 *   valid until the iterator moves on
 * @size: (out): its size: the buffer's page size, or less for a short
 *   last page
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Moves to the next raw page (records of the current page not yet read
 * are skipped).
 *
 * Returns: 1 with a page, 0 at the end of the CPU's data, -1 on error.
 */
gint
gst_ctf_trace_dat_cpu_iter_next_page (GstCtfTraceDatCpuIter * it,
    const guint8 ** page, gsize * size, GError ** error)
{
  it->have_page = FALSE;
  if (!it->compressed) {
    guint64 n;

    if (it->off >= it->end)
      return 0;
    n = MIN ((guint64) it->page_size, it->end - it->off);
    *page = it->td->base + it->off;
    *size = n;
    it->off += n;
  } else {
    if (it->chunk_pos >= it->chunk_len) {
      gint r = td_chunks_next (it->chunks, &it->chunk, &it->chunk_len,
          error);

      if (r <= 0)
        return r;
      it->chunk_pos = 0;
    }
    *size = MIN ((gsize) it->page_size, it->chunk_len - it->chunk_pos);
    *page = it->chunk + it->chunk_pos;
    it->chunk_pos += *size;
  }
  it->page_index = it->next_page_index++;
  return 1;
}

/* The chunk table of compressed data, from the chunk headers (8 bytes
 * each, read in place: nothing is inflated). */
static gboolean
chunk_table (GstCtfTraceDatCpuIter * it, GError ** error)
{
  GstCtfTraceDat *td = it->td;
  guint64 off = it->chunks_off, page = 0;
  guint32 k;

  if (it->chunk_table)
    return TRUE;
  it->chunk_table = g_array_new (FALSE, FALSE, sizeof (ChunkRef));
  for (k = 0; k < it->n_chunks; k++) {
    ChunkRef r;
    guint32 csize, usize;

    if (off > it->end || it->end - off < 8) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
          "Cannot read chunk header %u of %u: file=\"%s\", offset=%"
          G_GUINT64_FORMAT ", cpu=%u: past the CPU's data", k, it->n_chunks,
          td->origin, off, it->cpu);
      g_clear_pointer (&it->chunk_table, g_array_unref);
      return FALSE;
    }
    csize = td_read32 (td->byte_order, td->base + off);
    usize = td_read32 (td->byte_order, td->base + off + 4);
    r.off = off;
    r.n_pages = (guint32) ((usize + (guint64) it->page_size - 1) /
        it->page_size);
    r.first_page = page;
    g_array_append_val (it->chunk_table, r);
    page += r.n_pages;
    off += 8 + (guint64) csize;
  }
  return TRUE;
}

/**
 * gst_ctf_trace_dat_cpu_iter_get_n_pages:
 * @it: an iterator
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error (a chunk
 *   table that goes past the CPU's data)
 *
 * The number of pages of the CPU (a short last page counts), from the
 * data size, or from the chunk headers of compressed data (nothing is
 * inflated).
 *
 * Returns: the page count, or -1 on error
 */
gint64
gst_ctf_trace_dat_cpu_iter_get_n_pages (GstCtfTraceDatCpuIter * it,
    GError ** error)
{
  ChunkRef *last;

  if (!it->compressed)
    return (gint64) ((it->data_size + it->page_size - 1) / it->page_size);
  if (!chunk_table (it, error))
    return -1;
  if (it->chunk_table->len == 0)
    return 0;
  last = &g_array_index (it->chunk_table, ChunkRef, it->chunk_table->len - 1);
  return (gint64) (last->first_page + last->n_pages);
}

/**
 * gst_ctf_trace_dat_cpu_iter_seek_page:
 * @it: an iterator
 * @page: a page index (past the last page: the end)
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Positions the iterator so that the next
 * gst_ctf_trace_dat_cpu_iter_next_page() gives page @page.  Uncompressed
 * data: in place.  Compressed data: the chunk holding the page is found
 * from the chunk headers and inflated, and the pages before @page in it
 * are passed over.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_ctf_trace_dat_cpu_iter_seek_page (GstCtfTraceDatCpuIter * it,
    guint64 page, GError ** error)
{
  guint lo, hi;
  ChunkRef *r;

  it->have_page = FALSE;
  if (!it->compressed) {
    guint64 n = (it->data_size + it->page_size - 1) / it->page_size;

    page = MIN (page, n);
    it->off = it->data_off + MIN (page * it->page_size, it->data_size);
    it->next_page_index = page;
    return TRUE;
  }
  if (!chunk_table (it, error))
    return FALSE;
  /* the last chunk whose first page is at or before @page */
  lo = 0;
  hi = it->chunk_table->len;
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (g_array_index (it->chunk_table, ChunkRef, mid).first_page <= page)
      lo = mid + 1;
    else
      hi = mid;
  }
  td_chunks_free (it->chunks);
  it->chunk = NULL;
  it->chunk_len = it->chunk_pos = 0;
  if (lo == 0) {
    it->chunks = td_chunks_new (it->td, it->cpu, it->end, it->end, 0);
    it->next_page_index = 0;
    return TRUE;
  }
  r = &g_array_index (it->chunk_table, ChunkRef, lo - 1);
  /* (empty chunks hold no page: the next chunk's pages follow) */
  it->chunks = td_chunks_new (it->td, it->cpu, r->off, it->end,
      it->n_chunks - (lo - 1));
  it->next_page_index = r->first_page;
  while (it->next_page_index < page) {
    const guint8 *d;
    gsize n;
    gint k = gst_ctf_trace_dat_cpu_iter_next_page (it, &d, &n, error);

    if (k < 0)
      return FALSE;
    if (k == 0)
      break;
  }
  return TRUE;
}

/**
 * gst_ctf_trace_dat_cpu_iter_next:
 * @it: an iterator
 * @rec: (out caller-allocates): the next record
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Moves to the next record of the CPU, page after page.  @rec->data stays
 * valid until the next call.
 *
 * Returns: 1 with a record, 0 at the end, -1 on a corrupt page or chunk.
 */
gint
gst_ctf_trace_dat_cpu_iter_next (GstCtfTraceDatCpuIter * it,
    GstCtfTraceDatRecord * rec, GError ** error)
{
  GstCtfTraceDat *td = it->td;

  for (;;) {
    if (it->have_page) {
      GstCtfTraceDatPageRecord pr;
      gint r = gst_ctf_trace_dat_page_next (&it->page, &pr, error);

      if (r < 0) {
        g_prefix_error (error, "In file \"%s\", cpu %u, page %" G_GUINT64_FORMAT
            ": ", td->origin, it->cpu, it->page_index);
        return -1;
      }
      if (r > 0) {
        rec->raw_ts = pr.timestamp;
        rec->ts = gst_ctf_trace_dat_convert_ts (td, pr.timestamp);
        rec->data = pr.data;
        rec->size = pr.size;
        rec->missed_events = pr.missed_events;
        rec->cpu = it->cpu;
        rec->page_index = it->page_index;
        rec->page_offset = pr.offset;
        if (td->common_type_offset + td->common_type_size <= pr.size)
          rec->event_id = (guint) td_read_n (td->byte_order,
              pr.data + td->common_type_offset, td->common_type_size);
        else
          rec->event_id = G_MAXUINT;
        return 1;
      }
      it->have_page = FALSE;
    } else {
      const guint8 *p;
      gsize n;
      gint r = gst_ctf_trace_dat_cpu_iter_next_page (it, &p, &n, error);

      if (r <= 0)
        return r;
      if (!gst_ctf_trace_dat_page_init (&it->page, p, n, td->byte_order,
              td->kernel_long_size, td->page_data_offset, error)) {
        g_prefix_error (error, "In file \"%s\", cpu %u, page %" G_GUINT64_FORMAT
            ": ", td->origin, it->cpu, it->page_index);
        return -1;
      }
      it->have_page = TRUE;
    }
  }
}

/* ---- merge ------------------------------------------------------------- */

typedef struct {
  GstCtfTraceDatCpuIter *it;
  GstCtfTraceDatRecord rec;
  gboolean pending;             /* rec holds an unreturned record */
  gboolean done;
} MergeSlot;

struct _GstCtfTraceDatMergeIter {
  MergeSlot *slots;
  guint n_slots;
};

/**
 * gst_ctf_trace_dat_merge_iter_new: (skip)
 * @td: a file
 * @buffer: buffer index
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Returns: (transfer full) (nullable): an iterator over all CPUs of the
 *   buffer in timestamp order, or NULL on error.
 */
GstCtfTraceDatMergeIter *
gst_ctf_trace_dat_merge_iter_new (GstCtfTraceDat * td, guint buffer,
    GError ** error)
{
  const GstCtfTraceDatBuffer *b = gst_ctf_trace_dat_get_buffer (td, buffer);
  GstCtfTraceDatMergeIter *m;
  guint i;

  if (!b || b->latency) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "No such flyrecord buffer: file=\"%s\", buffer=%u", td->origin,
        buffer);
    return NULL;
  }
  m = g_new0 (GstCtfTraceDatMergeIter, 1);
  m->n_slots = b->n_cpus;
  m->slots = g_new0 (MergeSlot, MAX (b->n_cpus, 1));
  for (i = 0; i < b->n_cpus; i++) {
    m->slots[i].it = gst_ctf_trace_dat_cpu_iter_new (td, buffer, i, error);
    if (!m->slots[i].it) {
      gst_ctf_trace_dat_merge_iter_free (m);
      return NULL;
    }
  }
  return m;
}

/**
 * gst_ctf_trace_dat_merge_iter_free:
 * @it: (transfer full) (nullable): an iterator
 */
void
gst_ctf_trace_dat_merge_iter_free (GstCtfTraceDatMergeIter * it)
{
  guint i;

  if (!it)
    return;
  for (i = 0; i < it->n_slots; i++)
    gst_ctf_trace_dat_cpu_iter_free (it->slots[i].it);
  g_free (it->slots);
  g_free (it);
}

/**
 * gst_ctf_trace_dat_merge_iter_next:
 * @it: an iterator
 * @rec: (out caller-allocates): the next record in time order
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Returns the record with the smallest timestamp among the CPUs' next
 * ones; on a tie the CPU that comes first in the buffer's table wins.
 * @rec->data stays valid until the next call.
 *
 * Returns: 1 with a record, 0 at the end, -1 on error.
 */
gint
gst_ctf_trace_dat_merge_iter_next (GstCtfTraceDatMergeIter * it,
    GstCtfTraceDatRecord * rec, GError ** error)
{
  gint best = -1;
  guint i;

  for (i = 0; i < it->n_slots; i++) {
    MergeSlot *s = &it->slots[i];

    if (!s->pending && !s->done) {
      gint r = gst_ctf_trace_dat_cpu_iter_next (s->it, &s->rec, error);
      if (r < 0)
        return -1;
      if (r == 0)
        s->done = TRUE;
      else
        s->pending = TRUE;
    }
    if (s->pending && (best < 0 || s->rec.ts < it->slots[best].rec.ts))
      best = i;
  }
  if (best < 0)
    return 0;
  *rec = it->slots[best].rec;
  it->slots[best].pending = FALSE;
  return 1;
}
