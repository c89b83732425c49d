/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat -> CTF 1.8 packets.
 *
 * Trace class (built in gsttracecmd-trace-class.c):
 * gst_ctf_trace_dat_build_trace_class() for every flyrecord
 * buffer (one stream class per buffer, the CPU as stream instance), plus
 * a side stream class `tracecmd` whose synthetic events hold what the
 * file carries besides the pages.  The model is written as TSDL with the
 * TSDL writer and parsed back, so the packets are written against exactly
 * the trace class a reader of the output gets (CTF 1.8 §7).
 *
 * Time: event and packet clock values are the ring-buffer clock after
 * TSC2NSEC (1 GHz clock); DATE×1000 + OFFSET (what `trace-cmd report`
 * adds) plus the user's offset go into the clock class offset (CTF 1.8
 * §8 `offset_s`/`offset`), so a reader shows the same times as
 * `trace-cmd report -t`.
 *
 * Packets: one per ring-buffer page, `timestamp_begin` = the page's time
 * stamp (clamped to [end of the previous packet, first event]),
 * `timestamp_end` = its last event, `events_discarded` = the stream's
 * running count of events the kernel lost (the page header's missed
 * events; a loss without a stored count counts as 1).
 *
 * Output does not depend on the file's container format: what differs
 * between a v6 file and its v7 conversions (file version, compression,
 * section offsets) is left out, and the trace UUID is derived from the
 * trace's content, so v6 and v7 (none, zlib, zstd) copies of a recording
 * give byte-identical packets and metadata.
 */
#include "gsttracecmd-private.h"
#include "gsttracecmd-packetizer.h"
#include "gstctf-tsdl-writer.h"
#include "gstctf-packet-writer.h"
#include "gstctf-metadata.h"

#include <stdio.h>
#include <stdlib.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#include <unistd.h>
#endif

/* Uncompressed page data read from the file mapping is given back to the
 * kernel every this many bytes per stream, so the resident size stays
 * small however large the file is. */
#define RELEASE_STEP (4 * 1024 * 1024)

/* Target content size of a side-stream packet, in bytes. */
#define FILE_PACKET_TARGET (64 * 1024)
/* Binary options are cut into events of at most this many bytes, so the
 * values of one event stay small (a BTF_FILE option holds megabytes). */
#define OPTION_CHUNK 4096

static void plan_free (Plan * pl);


/**
 * gst_ctf_trace_dat_packetizer_new: (skip)
 * @td: an opened trace.dat file (a reference is kept)
 * @flags: #GstCtfTraceDatPacketizerFlags
 * @clock_offset_ns: added to the clock class offset (on top of the file's
 *   DATE/OFFSET options), in ns
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_TRACEDAT
 *   when the file has no flyrecord buffer; errors of the TSDL writer and
 *   parser and of the packet writer when the model cannot be expressed)
 *
 * Builds the CTF trace class of the file and prepares one packet writer
 * per (buffer, CPU) stream.
 *
 * Returns: (transfer full) (nullable): a packetizer, or %NULL
 */
GstCtfTraceDatPacketizer *
gst_ctf_trace_dat_packetizer_new (GstCtfTraceDat * td, guint flags,
    gint64 clock_offset_ns, GError ** error)
{
  GstCtfTraceDatPacketizer *p;
  TdCtfClass *cls = _gst_ctf_trace_dat_ctf_class_get (td, flags,
      clock_offset_ns, error);

  if (cls == NULL)
    return NULL;
  p = g_new0 (GstCtfTraceDatPacketizer, 1);
  p->td = gst_ctf_trace_dat_ref (td);
  p->flags = flags;
  p->cls = cls;
  p->common = g_new0 (GstCtfFieldValue, cls->max_values);
  p->payload = g_new0 (GstCtfFieldValue, cls->max_values);
  if (!_gst_ctf_trace_dat_packetizer_setup_streams (p, error)) {
    gst_ctf_trace_dat_packetizer_free (p);
    return NULL;
  }
  return p;
}

/**
 * gst_ctf_trace_dat_packetizer_free:
 * @p: (transfer full) (nullable): a packetizer
 */
void
gst_ctf_trace_dat_packetizer_free (GstCtfTraceDatPacketizer * p)
{
  guint i;

  if (!p)
    return;
  for (i = 0; i < p->n_streams; i++) {
    gst_ctf_trace_dat_cpu_iter_free (p->streams[i].it);
    if (p->streams[i].w)
      gst_ctf_packet_writer_free (p->streams[i].w);
  }
  /* a stream whose setup failed half-way */
  if (p->streams && p->streams[p->n_streams].it)
    gst_ctf_trace_dat_cpu_iter_free (p->streams[p->n_streams].it);
  g_free (p->streams);
  if (p->fw)
    gst_ctf_packet_writer_free (p->fw);
  g_free (p->out);
  g_free (p->common);
  g_free (p->payload);
  g_clear_error (&p->skipped_error);
  _gst_ctf_trace_dat_ctf_class_unref (p->cls);
  gst_ctf_trace_dat_unref (p->td);
  g_free (p);
}

/**
 * gst_ctf_trace_dat_packetizer_get_trace_class:
 * @p: a packetizer
 *
 * Returns: (transfer none): the trace class of the packets (parsed from
 *   the metadata text)
 */
GstCtfTraceClass *
gst_ctf_trace_dat_packetizer_get_trace_class (GstCtfTraceDatPacketizer * p)
{
  return p->cls->tc;
}

/**
 * gst_ctf_trace_dat_packetizer_get_metadata:
 * @p: a packetizer
 *
 * Returns: (transfer none): the TSDL metadata text (CTF 1.8 §7)
 */
const gchar *
gst_ctf_trace_dat_packetizer_get_metadata (GstCtfTraceDatPacketizer * p)
{
  return p->cls->tsdl;
}

/* ---- ring-buffer pages ------------------------------------------------- */

static inline guint64
clock_value (GstCtfTraceDat * td, guint64 raw)
{
  return gst_ctf_trace_dat_convert_ts (td, raw) - (guint64) td->ts_offset;
}

/* Prefixes a page's error with where the page is: file, CPU, page index
 * and, for an uncompressed page, its byte offset in the file. */
static void
page_error_prefix (GstCtfTraceDatPacketizer * p, Stream * s, GError ** error)
{
  GstCtfTraceDat *td = p->td;

  if (s->page >= td->base && s->page < td->base + td->file_size)
    g_prefix_error (error, "In file \"%s\", cpu %u, page %" G_GUINT64_FORMAT
        " (file-offset %" G_GUINT64_FORMAT "): ", td->origin, s->cpu,
        s->page_index, (guint64) (s->page - td->base));
  else
    g_prefix_error (error, "In file \"%s\", cpu %u, page %" G_GUINT64_FORMAT
        " (compressed data): ", td->origin, s->cpu, s->page_index);
}

/* After a corrupt page of @s: unless strict, or unless @err is not about
 * the page's bytes, takes @err, counts the page as skipped and returns
 * TRUE (trace-cmd report also goes on after such a page).  The loss shows
 * in the output as one discarded event (the count is unknown, as for a
 * kernel loss whose count was not stored). */
static gboolean
skip_bad_page (GstCtfTraceDatPacketizer * p, Stream * s, GError ** err)
{
  if ((p->flags & GST_CTF_TRACE_DAT_PACKETIZER_STRICT) || *err == NULL ||
      !g_error_matches (*err, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT))
    return FALSE;
  if (p->skipped_pages++ == 0 && p->skipped_error == NULL)
    p->skipped_error = *err;
  else
    g_error_free (*err);
  *err = NULL;
  s->discarded++;
  s->skipped_pages++;
  s->seq++;
  return TRUE;
}

/* Loads the stream's next good page and works out its timestamp_begin. */
static gboolean
stream_load (GstCtfTraceDatPacketizer * p, Stream * s, GError ** error)
{
  GstCtfTraceDat *td = p->td;
  GstCtfTraceDatPage pg;
  GstCtfTraceDatPageRecord pr;
  gint r;
  guint64 pts, begin;

  for (;;) {
    GError *err = NULL;

    s->have_page = FALSE;
    if (s->done)
      return TRUE;
    r = gst_ctf_trace_dat_cpu_iter_next_page (s->it, &s->page, &s->page_len,
        error);
    if (r < 0)
      return FALSE;
    if (r == 0) {
      s->done = TRUE;
      return TRUE;
    }
    s->page_index = s->seq;
    if (!gst_ctf_trace_dat_page_init (&pg, s->page, s->page_len,
            td->byte_order, td->kernel_long_size, td->page_data_offset, &err)
        || (r = gst_ctf_trace_dat_page_next (&pg, &pr, &err)) < 0) {
      page_error_prefix (p, s, &err);
      if (skip_bad_page (p, s, &err))
        continue;
      g_propagate_error (error, err);
      return FALSE;
    }
    pts = clock_value (td, pg.timestamp);
    begin = pts;
    if (r > 0)
      begin = MIN (begin, clock_value (td, pr.timestamp));
    if (s->has_prev)
      begin = MAX (begin, s->prev_end);
    s->begin = begin;
    s->have_page = TRUE;
    return TRUE;
  }
}

/* Compressed CPU data (trace-cmd.dat.v7(5)): u32 chunk count, then per
 * chunk {u32 compressed size, u32 inflated size, data}.  Walks the chunk
 * headers alongside the iterator to know where the chunk holding page
 * @page starts in the file: everything before it has been inflated. */
static guint64
zchunk_start (GstCtfTraceDatPacketizer * p, Stream * s, guint64 page)
{
  GstCtfTraceDat *td = p->td;
  guint ps = s->z_page_size ? s->z_page_size : 4096;

  while (s->z_left > 0 && s->z_pages_end <= page) {
    guint32 csize, usize;

    if (s->z_off > td->file_size || td->file_size - s->z_off < 8)
      break;
    csize = td_read32 (td->byte_order, td->base + s->z_off);
    usize = td_read32 (td->byte_order, td->base + s->z_off + 4);
    s->z_cur = s->z_off;
    s->z_pages_end += (usize + ps - 1) / ps;
    s->z_off += 8 + (guint64) csize;
    s->z_left--;
  }
  return s->z_cur;
}

/* After a page: give back the part of the file mapping this stream has
 * read (MADV_DONTNEED on a read-only private file mapping only frees the
 * resident copy; the data stays in the file), every RELEASE_STEP bytes;
 * with @all (before a seek moves the stream), all of it. */
static void
release_mapping (GstCtfTraceDatPacketizer * p, Stream * s, gboolean all)
{
#if defined(G_OS_UNIX) && defined(MADV_DONTNEED)
  GstCtfTraceDat *td = p->td;
  guint64 off, start, end, ps;

  if (!td->mapped)
    return;
  if (s->z_left > 0 || s->z_cur > 0) {
    /* compressed: up to the chunk of the next page */
    off = zchunk_start (p, s, s->seq);
  } else {
    if (s->page < td->base || s->page >= td->base + td->file_size)
      return;
    off = (guint64) (s->page - td->base) + s->page_len;
    if (s->released == G_MAXUINT64)
      s->released = (guint64) (s->page - td->base);
  }
  if (s->released == G_MAXUINT64 || off <= s->released
      || (!all && off - s->released < RELEASE_STEP))
    return;
  ps = (guint64) sysconf (_SC_PAGESIZE);
  start = (s->released + ps - 1) / ps * ps;
  end = MIN (off, (guint64) td->file_size) / ps * ps;
  if (end > start)
    madvise ((gpointer) (td->base + start), end - start, MADV_DONTNEED);
  s->released = off;
#endif
}

/* ---- direct encoding ---------------------------------------------------
 *
 * The trace class puts every field byte-aligned in the file's byte order,
 * so an event is the record's bytes rearranged: the header {id, 64-bit
 * timestamp}, then each field as gsttracecmd-ctf.c maps it (integers
 * copied, strings cut at their NUL, dynamic arrays as u32 count + bytes).
 * This writes exactly what the packet writer writes from the values of
 * gst_ctf_trace_dat_record_get_values() (tests/test-tracecmdsrc.c checks
 * both give the same bytes), without building values per event.  Formats
 * with a field the mapping does not cover keep the packet writer path.
 */

static gboolean
plan_op (const GstCtfTraceDatField * f, Op * op)
{
  guint elem = f->elem_size;

  if (elem != 1 && elem != 2 && elem != 4 && elem != 8)
    elem = 1;
  op->f = f;
  op->esize = elem;
  if (f->flags & GST_CTF_TRACE_DAT_FIELD_STRING) {
    op->kind = OP_STRING;
  } else if (f->flags & GST_CTF_TRACE_DAT_FIELD_DYNAMIC) {
    if (!(f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY))
      return FALSE;
    op->kind = OP_SEQUENCE;
  } else if ((f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY) && f->size == 0) {
    op->kind = OP_SEQUENCE;
  } else if (f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY) {
    op->kind = OP_ARRAY;
  } else if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
    op->kind = OP_INT;
  } else {
    op->kind = OP_ARRAY;
    op->esize = 1;
  }
  return TRUE;
}

/* An LTTng layout member's op. */
static gboolean
plan_lttng_op (const LttngField * lf, Op * op)
{
  op->lf = lf;
  op->f = lf->src;
  switch (lf->kind) {
    case LK_FIELD:
      return plan_op (lf->src, op);
    case LK_INT:
    case LK_ZERO:
    case LK_RWBS:
    case LK_NET_HEADER:
      op->kind = OP_LTTNG_INT;
      op->osize = lf->bytes;
      return TRUE;
    case LK_TEXT:
      op->kind = OP_LTTNG_TEXT;
      op->osize = lf->bytes;
      return TRUE;
    case LK_VTIDS:
      op->kind = OP_LTTNG_VTIDS;
      op->osize = 5;
      return TRUE;
    default:
      return FALSE;
  }
}

/* Ops for the common context then the payload of @fmt; with @layout
 * (lttng-compat), the payload follows it, and the common fields are in
 * it when @common_in_payload. */
static Plan *
plan_build (const GstCtfTraceDatEventFormat * fmt, const LttngLayout * layout,
    gboolean common_in_payload)
{
  Plan *pl = g_new0 (Plan, 1);
  guint i, n_in = fmt->n_common_fields + fmt->n_fields;

  if (layout)
    n_in = (common_in_payload ? 0 : fmt->n_common_fields) + layout->n;
  pl->ops = g_new0 (Op, n_in);
  pl->max_size = 10;
  for (i = 0; i < n_in; i++) {
    Op *op = &pl->ops[pl->n_ops];
    guint n_common = layout && common_in_payload ? 0 : fmt->n_common_fields;
    const GstCtfTraceDatField *f = NULL;
    gboolean ok;

    if (i < n_common) {
      f = &fmt->common_fields[i];
      if (strcmp (f->name, "common_type") == 0)
        continue;
      ok = plan_op (f, op);
    } else if (layout) {
      ok = plan_lttng_op (&layout->f[i - n_common], op);
      f = op->f;
    } else {
      f = &fmt->fields[i - n_common];
      ok = plan_op (f, op);
    }
    if (!ok) {
      g_free (pl->ops);
      g_free (pl);
      return NULL;
    }
    pl->max_size += 4 + 1 + op->osize + (f && (op->kind == OP_ARRAY
            || op->kind == OP_INT) ? f->size : 0);
    pl->n_ops++;
  }
  return pl;
}

static void
plan_free (Plan * pl)
{
  if (pl) {
    g_free (pl->ops);
    g_free (pl);
  }
}

/* Plans for every event id, or none when one format cannot be planned
 * (or GST_CTF_TRACEDAT_NO_DIRECT is set, to compare both paths). */
void
_gst_ctf_trace_dat_plans_setup (TdCtfClass * c)
{
  GstCtfTraceDat *td = c->td;
  gboolean common_in_payload;
  guint i;

  if (g_getenv ("GST_CTF_TRACEDAT_NO_DIRECT"))
    return;
  common_in_payload = ((const GstCtfStreamClass *)
      g_ptr_array_index (c->tc->stream_classes, 0))->event_common_context
      == NULL;
  c->plans = g_new0 (Plan *, 65536);
  for (i = 0; i < td->formats->len; i++) {
    const GstCtfTraceDatEventFormat *f = g_ptr_array_index (td->formats, i);

    if (f->id >= 65536 || td->format_by_id[f->id] != f)
      continue;
    c->plans[f->id] = plan_build (f,
        c->layouts ? c->layouts[f->id] : NULL, common_in_payload);
    if (!c->plans[f->id]) {
      g_clear_pointer (&c->plans, _gst_ctf_trace_dat_plans_free);
      return;
    }
  }
}

void
_gst_ctf_trace_dat_plans_free (Plan ** plans)
{
  guint i;

  if (plans == NULL)
    return;
  for (i = 0; i < 65536; i++)
    plan_free (plans[i]);
  g_free (plans);
}

static inline guint8 *
out_reserve (GstCtfTraceDatPacketizer * p, gsize pos, gsize n)
{
  if (pos + n > p->out_alloc) {
    p->out_alloc = MAX (p->out_alloc * 2, pos + n + 4096);
    p->out = g_realloc (p->out, p->out_alloc);
  }
  return p->out + pos;
}

static inline void
put_n (GstCtfByteOrder bo, guint8 * d, guint64 v, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    d[bo == GST_CTF_BYTE_ORDER_LE ? i : n - 1 - i] = (guint8) (v >> (8 * i));
}

/* Encodes one record after its event header; returns the new position. */
static gsize
direct_event (GstCtfTraceDatPacketizer * p, const Plan * pl,
    const guint8 * data, guint size, gsize pos)
{
  GstCtfTraceDat *td = p->td;
  guint i;

  for (i = 0; i < pl->n_ops; i++) {
    const Op *op = &pl->ops[i];
    const GstCtfTraceDatField *f = op->f;
    guint off = 0, len = 0, n;
    guint8 *d;

    switch (op->kind) {
      case OP_INT:
        d = out_reserve (p, pos, f->size);
        if (f->offset <= size && f->size <= size - f->offset)
          memcpy (d, data + f->offset, f->size);
        else
          memset (d, 0, f->size);
        pos += f->size;
        break;
      case OP_LTTNG_INT:
        d = out_reserve (p, pos, op->osize);
        put_n (td->byte_order, d, _gst_ctf_trace_dat_lttng_int (td, op->lf,
                data, size), op->osize);
        pos += op->osize;
        break;
      case OP_LTTNG_TEXT:
        d = out_reserve (p, pos, op->osize);
        _gst_ctf_trace_dat_lttng_text (td, op->lf, data, size, d);
        pos += op->osize;
        break;
      case OP_LTTNG_VTIDS:
        d = out_reserve (p, pos, 5);
        d[0] = 1;
        put_n (td->byte_order, d + 1, _gst_ctf_trace_dat_lttng_int (td,
                op->lf, data, size), 4);
        pos += 5;
        break;
      case OP_STRING:
        gst_ctf_trace_dat_field_get_dynamic (td, f, data, size, &off, &len);
        n = (guint) strnlen ((const gchar *) data + off, len);
        d = out_reserve (p, pos, n + 1);
        memcpy (d, data + off, n);
        d[n] = 0;
        pos += n + 1;
        break;
      case OP_SEQUENCE:
        gst_ctf_trace_dat_field_get_dynamic (td, f, data, size, &off, &len);
        n = len / op->esize;
        d = out_reserve (p, pos, 4 + (gsize) n * op->esize);
        put_n (td->byte_order, d, n, 4);
        memcpy (d + 4, data + off, (gsize) n * op->esize);
        pos += 4 + (gsize) n * op->esize;
        break;
      case OP_ARRAY:
        n = (f->size / op->esize) * op->esize;
        d = out_reserve (p, pos, n);
        if (gst_ctf_trace_dat_field_get_dynamic (td, f, data, size, &off,
                &len) && len >= n)
          memcpy (d, data + off, n);
        else
          memset (d, 0, n);
        pos += n;
        break;
    }
  }
  return pos;
}

/* Packet header and context of the trace class (gsttracecmd-ctf.c):
 * magic, uuid, stream_id, stream_instance_id | timestamp_begin,
 * timestamp_end, content_size, packet_size, events_discarded, cpu_id. */
#define DIRECT_HEADER_SIZE (4 + 16 + 4 + 8 + 8 * 5 + 4)

static gboolean
direct_page (GstCtfTraceDatPacketizer * p, Stream * s,
    GstCtfTraceDatPage * pg, guint64 * last_out, guint * n_out,
    guint * skipped_out, guint * clamped_out, gsize * size_out,
    GError ** error)
{
  GstCtfTraceDat *td = p->td;
  GstCtfByteOrder bo = td->byte_order;
  GstCtfTraceDatPageRecord pr;
  guint64 last = s->begin;
  guint n = 0, skipped = 0;
  gsize pos = DIRECT_HEADER_SIZE;
  guint8 *d;
  gint r;

  while ((r = gst_ctf_trace_dat_page_next (pg, &pr, error)) > 0) {
    guint id;
    const Plan *pl;
    guint64 cv;

    if (td->common_type_offset + td->common_type_size > pr.size) {
      skipped++;
      continue;
    }
    id = (guint) td_read_n (bo, pr.data + td->common_type_offset,
        td->common_type_size);
    pl = id < 65536 && s->ec_by_id[id] ? p->cls->plans[id] : NULL;
    if (!pl) {
      skipped++;
      continue;
    }
    cv = gst_ctf_trace_dat_convert_ts (td, pr.timestamp) -
        (guint64) td->ts_offset;
    if (cv < last) {
      cv = last;
      (*clamped_out)++;
    }
    d = out_reserve (p, pos, 10);
    put_n (bo, d, id, 2);
    put_n (bo, d + 2, cv, 8);
    pos = direct_event (p, pl, pr.data, pr.size, pos + 10);
    last = cv;
    n++;
  }
  if (r < 0)
    return FALSE;
  d = out_reserve (p, 0, DIRECT_HEADER_SIZE);
  put_n (bo, d, 0xc1fc1fc1, 4);
  memcpy (d + 4, p->cls->tc->uuid, 16);
  put_n (bo, d + 20, s->sc_id, 4);
  put_n (bo, d + 24, s->cpu, 8);
  put_n (bo, d + 32, s->begin, 8);
  put_n (bo, d + 40, last, 8);
  put_n (bo, d + 48, (guint64) pos * 8, 8);
  put_n (bo, d + 56, (guint64) pos * 8, 8);
  put_n (bo, d + 64, s->discarded, 8);
  put_n (bo, d + 72, s->cpu, 4);
  *last_out = last;
  *n_out = n;
  *skipped_out = skipped;
  *size_out = pos;
  return TRUE;
}

static gboolean
encode_page (GstCtfTraceDatPacketizer * p, Stream * s, const guint8 ** data,
    gsize * size, GstCtfTraceDatPacketInfo * info, GError ** error)
{
  GstCtfTraceDat *td = p->td;
  GstCtfTraceDatPage pg;
  GstCtfTraceDatPageRecord pr;
  GstCtfTraceDatRecord rec;
  GstCtfPacketWriterParams prm = { 0, };
  guint64 last = s->begin;
  guint n = 0, skipped = 0, clamped = 0;
  gint r;

  if (!gst_ctf_trace_dat_page_init (&pg, s->page, s->page_len,
          td->byte_order, td->kernel_long_size, td->page_data_offset, error))
    return FALSE;
  memset (info, 0, sizeof (*info));
  if (pg.missed_events != 0) {
    info->discarded_delta = pg.missed_events > 0 ?
        (guint64) pg.missed_events : 1;
    info->discarded_unknown = pg.missed_events < 0;
    s->discarded += info->discarded_delta;
  }
  info->discarded_skipped = s->skipped_pages;
  info->discarded_delta += s->skipped_pages;
  if (p->cls->plans) {
    if (!direct_page (p, s, &pg, &last, &n, &skipped, &clamped, size,
            error)) {
      page_error_prefix (p, s, error);
      return FALSE;
    }
    *data = p->out;
    goto done;
  }
  prm.stream_instance_id = s->cpu;
  prm.packet_seq_num = s->seq;
  prm.events_discarded = s->discarded;
  prm.has_timestamp_begin = TRUE;
  prm.timestamp_begin = s->begin;
  if (!gst_ctf_packet_writer_begin_packet (s->w, &prm, NULL, 0, error))
    return FALSE;

  memset (&rec, 0, sizeof (rec));
  rec.cpu = s->cpu;
  rec.page_index = s->page_index;
  while ((r = gst_ctf_trace_dat_page_next (&pg, &pr, error)) > 0) {
    const GstCtfEventClass *ec;
    guint nc, np;
    guint64 cv;

    rec.raw_ts = pr.timestamp;
    rec.ts = gst_ctf_trace_dat_convert_ts (td, pr.timestamp);
    rec.data = pr.data;
    rec.size = pr.size;
    rec.missed_events = pr.missed_events;
    rec.page_offset = pr.offset;
    if (td->common_type_offset + td->common_type_size <= pr.size)
      rec.event_id = (guint) td_read_n (td->byte_order,
          pr.data + td->common_type_offset, td->common_type_size);
    else
      rec.event_id = G_MAXUINT;
    ec = rec.event_id < 65536 ? s->ec_by_id[rec.event_id] : NULL;
    if (!ec) {
      skipped++;
      continue;
    }
    if (p->cls->layouts) {
      const GstCtfEventClass *bec;

      /* lttng-compat: the common context as usual, the payload as the
       * event's layout says */
      bec = _gst_ctf_trace_dat_record_values (td, p->cls->build_tc, &rec,
          p->common, p->cls->max_values, &nc, NULL, 0, &np, error);
      if (bec && !_gst_ctf_trace_dat_lttng_values (td,
              p->cls->layouts[rec.event_id], bec->payload, &rec, p->payload,
              p->cls->max_values, &np)) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
            "Too many values: event-id=%u", rec.event_id);
        bec = NULL;
      }
      if (!bec) {
        page_error_prefix (p, s, error);
        return FALSE;
      }
    } else if (!gst_ctf_trace_dat_record_get_values (td, p->cls->build_tc, &rec,
            p->common, p->cls->max_values, &nc, p->payload, p->cls->max_values, &np,
            error)) {
      page_error_prefix (p, s, error);
      return FALSE;
    }
    cv = rec.ts - (guint64) td->ts_offset;
    /* a packet begins at or before its first event */
    if (cv < last) {
      cv = last;
      clamped++;
    }
    if (!gst_ctf_packet_writer_append_event (s->w, ec, cv, p->common, nc,
            NULL, 0, p->payload, np, error)) {
      g_prefix_error (error, "In file \"%s\", cpu %u, page %" G_GUINT64_FORMAT
          ", page-offset %u: ", td->origin, s->cpu, s->page_index, pr.offset);
      return FALSE;
    }
    last = cv;
    n++;
  }
  if (r < 0) {
    page_error_prefix (p, s, error);
    return FALSE;
  }
  *data = gst_ctf_packet_writer_finish_packet (s->w, size, error);
  if (!*data)
    return FALSE;

done:
  info->stream_class_id = s->sc_id;
  info->stream_instance_id = s->cpu;
  info->stream_name = s->name;
  info->stream_index = s->index;
  info->cpu = s->cpu;
  info->page_index = s->page_index;
  info->timestamp_begin = s->begin;
  info->timestamp_end = last;
  info->n_events = n;
  info->events_discarded = s->discarded;
  info->skipped = skipped;
  info->clamped = clamped;
  s->prev_end = last;
  s->has_prev = TRUE;
  s->skipped_pages = 0;
  s->seq++;
  release_mapping (p, s, FALSE);
  return TRUE;
}

/* ---- side stream ------------------------------------------------------- */

typedef struct
{
  GstCtfFieldValue *v;
  guint n;
} Vals;

static void
v_root (Vals * vs, const GstCtfEventClass * ec)
{
  GstCtfFieldValue *v = &vs->v[0];

  memset (v, 0, sizeof (*v));
  v->fc = ec->payload;
  v->v.u = ec->payload->n_members;
  vs->n = 1;
}

static GstCtfFieldValue *
v_add (Vals * vs, const GstCtfEventClass * ec)
{
  GstCtfFieldValue *v = &vs->v[vs->n];
  guint m = vs->n - 1;

  memset (v, 0, sizeof (*v));
  /* only the root's direct members are added this way */
  if (m < ec->payload->n_members) {
    v->fc = ec->payload->members[m].fc;
    v->name = ec->payload->members[m].name;
  }
  v->end = ++vs->n;
  return v;
}

static void
v_str (Vals * vs, const GstCtfEventClass * ec, const gchar * s, gsize len)
{
  GstCtfFieldValue *v = v_add (vs, ec);

  /* a CTF string ends at its first NUL (CTF 1.8 §4.2.5) */
  v->v.s.ptr = s ? s : "";
  v->v.s.len = s ? (guint32) strnlen (s, len) : 0;
}

static void
v_uint (Vals * vs, const GstCtfEventClass * ec, guint64 x)
{
  v_add (vs, ec)->v.u = x;
}

static gboolean
file_append (GstCtfTraceDatPacketizer * p, guint fev, Vals * vs,
    GError ** error)
{
  vs->v[0].end = vs->n;
  return gst_ctf_packet_writer_append_event (p->fw, p->fec[fev], p->side_cv,
      NULL,
      0, NULL, 0, vs->v, vs->n, error);
}

/* Next line of @text from *pos; returns FALSE at the end. */
static gboolean
next_line (const gchar * text, gsize size, gsize * pos, const gchar ** line,
    gsize * len)
{
  const gchar *nl;

  if (!text || *pos >= size)
    return FALSE;
  *line = text + *pos;
  nl = memchr (*line, '\n', size - *pos);
  *len = nl ? (gsize) (nl - *line) : size - *pos;
  *pos += *len + (nl ? 1 : 0);
  return TRUE;
}

/* Splits "A B C..." on spaces/tabs: the next token of @line. */
static const gchar *
token (const gchar ** line, const gchar * end, gsize * len)
{
  const gchar *s = *line, *t;

  while (s < end && (*s == ' ' || *s == '\t'))
    s++;
  t = s;
  while (t < end && *t != ' ' && *t != '\t')
    t++;
  *len = t - s;
  *line = t;
  return s;
}

static gboolean
file_fill (GstCtfTraceDatPacketizer * p, GError ** error)
{
  GstCtfTraceDat *td = p->td;
  GstCtfFieldValue buf[16];
  GstCtfFieldValue *ov = NULL;
  Vals vs = { buf, 0 };
  const gchar *line;
  gsize len, size;
  const gchar *text;
  gboolean ok = TRUE;

  while (ok && p->phase < N_FEV
      && gst_ctf_packet_writer_get_content_size (p->fw) / 8 <
      FILE_PACKET_TARGET) {
    const GstCtfEventClass *ec = p->fec[p->phase];

    switch (p->phase) {
      case FEV_HEADER:
        v_root (&vs, ec);
        v_str (&vs, ec, td->header_page, (gsize) G_MAXSSIZE);
        v_str (&vs, ec, td->header_event, (gsize) G_MAXSSIZE);
        ok = file_append (p, FEV_HEADER, &vs, error);
        p->phase++;
        p->pos = 0;
        break;
      case FEV_OPTION:{
        const GstCtfTraceDatOption *opts;
        guint n_opts, i;

        opts = gst_ctf_trace_dat_get_options (td, &n_opts);
        if (p->pos >= n_opts) {
          p->phase++;
          p->pos = 0;
          break;
        }
        if (_gst_ctf_trace_dat_option_is_container (opts[p->pos].id)) {
          p->pos++;
          break;
        }
        {
          const GstCtfTraceDatOption *o = &opts[p->pos];
          const gchar *nm = _gst_ctf_trace_dat_option_name (o->id);
          /* text options (UNAME, VERSION, CPUSTAT, ...) as text, the
           * others as their raw bytes (file byte order) */
          gboolean is_text = o->size > 0;
          guint tlen = o->size, nbytes;
          GstCtfFieldValue *seq;

          for (i = 0; i < o->size && is_text; i++)
            if (o->data[i] == '\0')
              is_text = i == o->size - 1;
            else if (!g_ascii_isprint (o->data[i])
                && !g_ascii_isspace (o->data[i]))
              is_text = FALSE;
          if (is_text && o->data[o->size - 1] == '\0')
            tlen--;
          /* a binary option: OPTION_CHUNK bytes per event, `offset`
           * says where they go */
          nbytes = is_text ? 0 : MIN (o->size - p->opt_off, OPTION_CHUNK);
          ov = g_new (GstCtfFieldValue, nbytes + 8);
          vs.v = ov;
          v_root (&vs, ec);
          v_uint (&vs, ec, o->id);
          v_str (&vs, ec, nm, strlen (nm));
          v_str (&vs, ec, is_text ? (const gchar *) o->data : "",
              is_text ? tlen : 0);
          v_uint (&vs, ec, p->opt_off);
          v_uint (&vs, ec, nbytes);
          seq = v_add (&vs, ec);
          seq->v.u = nbytes;
          for (i = 0; i < nbytes; i++) {
            GstCtfFieldValue *e = &vs.v[vs.n++];
            memset (e, 0, sizeof (*e));
            e->fc = seq->fc->element;
            e->end = vs.n;
            e->v.u = o->data[p->opt_off + i];
          }
          seq->end = vs.n;
          p->opt_off += nbytes;
          if (!is_text && p->opt_off < o->size) {
            /* more of this option in the next event */
            ok = file_append (p, FEV_OPTION, &vs, error);
            g_free (ov);
            vs.v = buf;
            break;
          }
          p->opt_off = 0;
        }
        ok = file_append (p, FEV_OPTION, &vs, error);
        g_free (ov);
        vs.v = buf;
        p->pos++;
        break;
      }
      case FEV_EVENT_FORMAT:{
        const GstCtfTraceDatEventFormat *f;

        if (p->pos >= td->formats->len) {
          p->phase++;
          p->pos = 0;
          break;
        }
        f = g_ptr_array_index (td->formats, p->pos);
        v_root (&vs, ec);
        v_uint (&vs, ec, f->id);
        v_str (&vs, ec, f->system, (gsize) G_MAXSSIZE);
        v_str (&vs, ec, f->name, (gsize) G_MAXSSIZE);
        v_str (&vs, ec, f->print_fmt, (gsize) G_MAXSSIZE);
        v_str (&vs, ec, f->text, (gsize) G_MAXSSIZE);
        ok = file_append (p, FEV_EVENT_FORMAT, &vs, error);
        p->pos++;
        break;
      }
      case FEV_CMDLINE:{
        const gchar *end, *tk;
        gsize tl;
        gchar num[32];

        text = gst_ctf_trace_dat_get_cmdlines (td, &size);
        if (!next_line (text, size, &p->pos, &line, &len)) {
          p->phase++;
          p->pos = 0;
          break;
        }
        /* "PID COMM" (the comm may hold spaces) */
        end = line + len;
        tk = token (&line, end, &tl);
        if (tl == 0 || tl >= sizeof (num))
          break;
        memcpy (num, tk, tl);
        num[tl] = '\0';
        if (line < end)
          line++;
        v_root (&vs, ec);
        v_uint (&vs, ec, (guint64) (gint64) (gint32) strtol (num, NULL, 10));
        v_str (&vs, ec, line, end - line);
        ok = file_append (p, FEV_CMDLINE, &vs, error);
        break;
      }
      case FEV_KALLSYM:{
        const gchar *end, *a, *t, *nm, *mod;
        gsize al, tl, nl, ml;
        gchar num[32];

        text = gst_ctf_trace_dat_get_kallsyms (td, &size);
        if (!next_line (text, size, &p->pos, &line, &len)) {
          p->phase++;
          p->pos = 0;
          break;
        }
        /* "ADDR TYPE NAME[\t[MODULE]]" */
        end = line + len;
        a = token (&line, end, &al);
        t = token (&line, end, &tl);
        nm = token (&line, end, &nl);
        mod = token (&line, end, &ml);
        if (al == 0 || al >= sizeof (num) || nl == 0)
          break;
        if (ml >= 2 && mod[0] == '[' && mod[ml - 1] == ']') {
          mod++;
          ml -= 2;
        }
        memcpy (num, a, al);
        num[al] = '\0';
        v_root (&vs, ec);
        v_uint (&vs, ec, g_ascii_strtoull (num, NULL, 16));
        v_str (&vs, ec, t, tl);
        v_str (&vs, ec, nm, nl);
        v_str (&vs, ec, mod, ml);
        ok = file_append (p, FEV_KALLSYM, &vs, error);
        break;
      }
      case FEV_PRINTK:{
        const gchar *end, *sep;
        gchar num[32];
        gsize al;

        text = gst_ctf_trace_dat_get_printk (td, &size);
        if (!next_line (text, size, &p->pos, &line, &len)) {
          p->phase++;
          p->pos = 0;
          break;
        }
        /* "0xADDR : \"FORMAT\"" */
        end = line + len;
        sep = g_strstr_len (line, len, " : ");
        if (!sep)
          break;
        al = MIN ((gsize) (sep - line), sizeof (num) - 1);
        memcpy (num, line, al);
        num[al] = '\0';
        v_root (&vs, ec);
        v_uint (&vs, ec, g_ascii_strtoull (num, NULL, 16));
        v_str (&vs, ec, sep + 3, end - (sep + 3));
        ok = file_append (p, FEV_PRINTK, &vs, error);
        break;
      }
      default:
        p->phase = N_FEV;
        break;
    }
  }
  return ok;
}

static gboolean
file_packet (GstCtfTraceDatPacketizer * p, const guint8 ** data, gsize * size,
    GstCtfTraceDatPacketInfo * info, GError ** error)
{
  GstCtfPacketWriterParams prm = { 0, };
  guint n;

  guint64 end = p->side_cv;

  prm.packet_seq_num = p->fseq;
  prm.has_timestamp_begin = TRUE;
  prm.timestamp_begin = p->side_cv;
  if (!gst_ctf_packet_writer_begin_packet (p->fw, &prm, NULL, 0, error))
    return FALSE;
  if (!file_fill (p, error))
    return FALSE;
  /* The events are at the trace's first time; the last packet ends with
   * the trace, so that the side stream's range holds the CPU streams'
   * (babeltrace2 --stream-intersection keeps the range all streams
   * cover: [t0, t0] left only the side stream's events). */
  if (p->phase >= N_FEV) {
    gint64 b, e;

    if (!gst_ctf_trace_dat_packetizer_get_time_range (p, &b, &e, error))
      return FALSE;
    if (p->has_events)
      end = MAX (p->end_cv, p->side_cv);
  }
  gst_ctf_packet_writer_set_timestamp_end (p->fw, end);
  n = gst_ctf_packet_writer_get_event_count (p->fw);
  *data = gst_ctf_packet_writer_finish_packet (p->fw, size, error);
  if (!*data)
    return FALSE;
  if (p->phase >= N_FEV)
    p->file_done = TRUE;
  memset (info, 0, sizeof (*info));
  info->stream_class_id = p->cls->file_sc_id;
  info->stream_name = g_intern_static_string ("tracecmd");
  info->stream_index = p->file_index;
  info->is_file_stream = TRUE;
  info->page_index = p->fseq++;
  info->timestamp_begin = p->side_cv;
  info->timestamp_end = end;
  info->n_events = n;
  return TRUE;
}

/* ---- iteration ------------------------------------------------------- */

gboolean
_gst_ctf_trace_dat_packetizer_start (GstCtfTraceDatPacketizer * p,
    GError ** error)
{
  gboolean any = FALSE;
  guint i;

  if (p->started)
    return TRUE;
  for (i = 0; i < p->n_streams; i++) {
    if (!stream_load (p, &p->streams[i], error))
      return FALSE;
    if (p->streams[i].have_page && (!any || p->streams[i].begin < p->t0)) {
      p->t0 = p->streams[i].begin;
      any = TRUE;
    }
  }
  p->side_cv = p->t0;
  p->started = TRUE;
  return TRUE;
}

gboolean
_gst_ctf_trace_dat_packetizer_stream_load (GstCtfTraceDatPacketizer * p,
    Stream * s, GError ** error)
{
  return stream_load (p, s, error);
}

void
_gst_ctf_trace_dat_packetizer_stream_reset (GstCtfTraceDatPacketizer * p,
    Stream * s, guint64 page)
{
  const GstCtfTraceDatBuffer *buf = gst_ctf_trace_dat_get_buffer (p->td,
      s->buffer);
  const GstCtfTraceDatCpuData *cd = &buf->cpus[s->cpu_index];

  /* what was read before the seek is not read again soon: a reader that
   * seeks from range to range (the GTK timeline's deep zoom) keeps only
   * what it reads now resident */
  if (s->have_page)
    release_mapping (p, s, TRUE);
  s->have_page = s->done = s->has_prev = FALSE;
  s->prev_end = 0;
  s->seq = page;
  s->discarded = 0;
  s->skipped_pages = 0;
  s->released = G_MAXUINT64;
  if (s->z_page_size) {
    /* compressed: the chunk walk of release_mapping() starts again */
    s->z_left = td_read32 (p->td->byte_order, p->td->base + cd->offset);
    s->z_off = cd->offset + 4;
    s->z_cur = s->z_off;
    s->z_pages_end = 0;
    s->released = cd->offset;
  }
}

void
_gst_ctf_trace_dat_packetizer_file_reset (GstCtfTraceDatPacketizer * p)
{
  p->phase = 0;
  p->pos = 0;
  p->opt_off = 0;
  p->fseq = 0;
  p->file_done = FALSE;
  p->statedump_done = FALSE;
}

static gint64
to_ns (GstCtfTraceDatPacketizer * p, guint64 cv)
{
  const GstCtfClockClass *cc = g_ptr_array_index (p->cls->tc->clock_classes, 0);

  return (gint64) cv + cc->offset_s * 1000000000 + cc->offset;
}

/**
 * gst_ctf_trace_dat_packetizer_next:
 * @p: a packetizer
 * @data: (out) (transfer none) (array length=size): the packet's bytes,
 *   valid until the next call
 * @size: (out): its size in bytes
 * @info: (out caller-allocates): what the packet holds
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_TRACEDAT
 *   for a corrupt page or chunk, with file, CPU and page;
 *   %GST_CTF_ERROR_PACKET when a record cannot be encoded)
 *
 * Makes the next packet: the side stream's packets first (all at the
 * trace's first time), then the page with the smallest `timestamp_begin`
 * over all streams (ties: the lower stream index).
 *
 * Returns: 1 with a packet, 0 at the end, -1 on error.
 */
gint
gst_ctf_trace_dat_packetizer_next (GstCtfTraceDatPacketizer * p,
    const guint8 ** data, gsize * size, GstCtfTraceDatPacketInfo * info,
    GError ** error)
{
  Stream *best = NULL;
  guint i;

  if (!_gst_ctf_trace_dat_packetizer_start (p, error))
    return -1;
  /* the side stream and the statedump come at p->side_cv (the trace's
   * first time, or the time of the last seek, so that a time window
   * starting there keeps them), in timestamp_begin order with the pages */
  for (i = 0; i < p->n_streams; i++) {
    Stream *s = &p->streams[i];
    if (s->have_page && (!best || s->begin < best->begin))
      best = s;
  }
  if (p->cls->file_stream && !p->file_done
      && (!best || p->side_cv <= best->begin)) {
    if (!file_packet (p, data, size, info, error))
      return -1;
    info->begin_ns = to_ns (p, info->timestamp_begin);
    info->end_ns = to_ns (p, info->timestamp_end);
    return 1;
  }
  if (p->cls->layouts && !p->statedump_done && p->n_streams > 0) {
    Stream *s = &p->streams[0];
    guint64 t = s->has_prev ? MAX (p->side_cv, s->prev_end) : p->side_cv;
    guint n = 0;

    /* lttng-compat: the statedump, in the first CPU stream, once that
     * stream's packets before its time are out */
    if ((!s->have_page || s->begin >= t) && (!best || t <= best->begin)) {
      p->statedump_done = TRUE;
      if (!_gst_ctf_trace_dat_lttng_statedump (p->td,
              g_ptr_array_index (p->cls->tc->stream_classes, s->sc_id), s->w,
              s->cpu, t, data, size, &n, error))
        return -1;
      if (*size > 0) {
        memset (info, 0, sizeof (*info));
        info->stream_class_id = s->sc_id;
        info->stream_instance_id = s->cpu;
        info->stream_name = s->name;
        info->stream_index = s->index;
        info->cpu = s->cpu;
        info->page_index = s->seq;
        info->timestamp_begin = info->timestamp_end = t;
        info->n_events = n;
        info->begin_ns = info->end_ns = to_ns (p, t);
        s->prev_end = t;
        s->has_prev = TRUE;
        return 1;
      }
    }
  }
  for (;;) {
    GError *err = NULL;

    best = NULL;
    for (i = 0; i < p->n_streams; i++) {
      Stream *s = &p->streams[i];
      if (s->have_page && (!best || s->begin < best->begin))
        best = s;
    }
    if (!best)
      return 0;
    if (encode_page (p, best, data, size, info, &err))
      break;
    if (!skip_bad_page (p, best, &err)) {
      g_propagate_error (error, err);
      return -1;
    }
    if (!stream_load (p, best, error))
      return -1;
  }
  info->begin_ns = to_ns (p, info->timestamp_begin);
  info->end_ns = to_ns (p, info->timestamp_end);
  if (!stream_load (p, best, error))
    return -1;
  return 1;
}

/**
 * gst_ctf_trace_dat_packetizer_pop_skipped_pages:
 * @p: a packetizer
 * @first_error: (out) (optional) (nullable) (transfer full): the
 *   %GST_CTF_ERROR_TRACEDAT error of the first of them (its message names
 *   the file, the CPU, the page and, for uncompressed data, the page's
 *   byte offset in the file), or %NULL when there are none
 *
 * Without %GST_CTF_TRACE_DAT_PACKETIZER_STRICT, a corrupt ring-buffer page
 * does not end the conversion: gst_ctf_trace_dat_packetizer_next() skips
 * it (the stream's `events_discarded` grows by one, the count being
 * unknown) and goes on.  This gives how many pages were skipped since the
 * last call, and resets the count.
 *
 * Returns: the number of pages skipped since the last call
 */
guint
gst_ctf_trace_dat_packetizer_pop_skipped_pages (GstCtfTraceDatPacketizer * p,
    GError ** first_error)
{
  guint n = p->skipped_pages;

  p->skipped_pages = 0;
  if (first_error)
    *first_error = p->skipped_error;
  else
    g_clear_error (&p->skipped_error);
  p->skipped_error = NULL;
  return n;
}
