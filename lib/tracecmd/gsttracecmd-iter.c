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

struct _GstCtfTraceDatCpuIter {
  GstCtfTraceDat *td;
  const GstCtfTraceDatBuffer *buf;
  guint cpu;
  guint page_size;

  /* uncompressed: file range still to read */
  guint64 off;
  guint64 end;

  /* compressed: the chunks and the one being read */
  gboolean compressed;
  TdChunks *chunks;
  const guint8 *chunk;
  gsize chunk_len;
  gsize chunk_pos;

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
    it->chunks = td_chunks_new (td, cd->cpu, it->off + 4, it->end,
        td_read32 (td->byte_order, td->base + it->off));
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
