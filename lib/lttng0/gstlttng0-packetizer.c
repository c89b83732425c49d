/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng 0.x trace -> CTF 1.8 packets.
 *
 * The trace class (gstlttng0-ctf.c) is written as TSDL and parsed back,
 * so packets are written against exactly the trace class a reader of the
 * output gets (CTF 1.8 §7).  Each sub-buffer becomes one packet, written
 * by the packet writer of its tracefile's stream from the decoded values:
 * `timestamp_begin` = cycle_count_begin (not before the stream's previous
 * packet), `timestamp_end` = its last event, `events_discarded` = the
 * header's events_lost (a running count per tracefile, as CTF 1.8 §5.2
 * wants it), `subbuf_corrupt` likewise.  Packets come out in
 * `timestamp_begin` order over all streams, as ctfsrc gives them.
 *
 * What cannot be read is left out, never guessed: an event of an unknown
 * or unusable marker, or whose size disagrees with its header, is
 * skipped when its header gives its size, else the rest of its
 * sub-buffer is; an event cut by the end of its sub-buffer ends the
 * sub-buffer.  Each packet says what it left out first (file, offset).
 *
 * Seeking (gst_ctf_lttng0_packetizer_seek()) uses the sub-buffer headers
 * as the index of times: each tracefile goes to its first sub-buffer
 * whose successor begins at or after the time; the running counts of the
 * headers before it are summed, and where the sub-buffer before it ends
 * is its header's cycle_count_end (or, when that runs past the next
 * header's beginning, what encoding it again, its packet dropped, finds).
 */
#include "gstlttng0-private.h"
#include "gstlttng0-packetizer.h"
#include "gstctf-tsdl-writer.h"
#include "gstctf-packet-writer.h"
#include "gstctf-metadata.h"

typedef struct
{
  const Lttng0Marker *m;
  const GstCtfEventClass *ec;
} EvClass;

typedef struct
{
  EvClass *by_id;               /* indexed by marker id */
  guint n_ids;
} ChannelTable;

typedef struct
{
  const Lttng0Tracefile *tf;
  GstCtfPacketWriter *w;
  const ChannelTable *ct;
  guint index;
  guint next_sb;
  gboolean have;                /* a sub-buffer is loaded */
  guint64 begin;
  gboolean has_prev;
  guint64 prev_end;
  guint64 lost, corrupt;        /* widened running counts */
  guint32 raw_lost, raw_corrupt;
  guint64 seq;
} Stream;

struct _GstCtfLttng0Packetizer
{
  GstCtfLttng0Trace *t;
  GstCtfTraceClass *tc;
  gchar *tsdl;
  guint64 mult;
  ChannelTable *tables;
  guint n_tables;
  Stream *streams;
  guint n_streams;
  Lttng0Value *vals;
  GstCtfFieldValue *fv;
  guint max_fields;
  gboolean started;
  gchar *problem;
};

GstCtfLttng0Packetizer *
gst_ctf_lttng0_packetizer_new (GstCtfLttng0Trace * t, GError ** error)
{
  GstCtfLttng0Packetizer *p = g_new0 (GstCtfLttng0Packetizer, 1);
  GstCtfTraceClass *model;
  guint i;

  p->t = gst_ctf_lttng0_trace_ref (t);
  model = _gst_ctf_lttng0_build_trace_class (t, &p->mult);
  p->tsdl = gst_ctf_tsdl_write (model, error);
  gst_ctf_trace_class_unref (model);
  if (!p->tsdl)
    goto fail;
  p->tc = gst_ctf_tsdl_parse (p->tsdl, t->dir, error);
  if (!p->tc) {
    g_prefix_error (error, "Generated metadata does not parse back: ");
    goto fail;
  }

  /* per channel: marker id -> (marker, event class) */
  p->n_tables = t->channels->len;
  p->tables = g_new0 (ChannelTable, p->n_tables);
  p->max_fields = 1;
  for (i = 0; i < t->channels->len; i++) {
    const Lttng0Channel *ch = g_ptr_array_index (t->channels, i);
    const GstCtfStreamClass *sc =
        gst_ctf_trace_class_find_stream_class (p->tc, i);
    ChannelTable *ct = &p->tables[i];
    GHashTableIter it;
    gpointer val;

    g_hash_table_iter_init (&it, ch->markers);
    while (g_hash_table_iter_next (&it, NULL, &val)) {
      const Lttng0Marker *m = val;
      if (m->usable)
        ct->n_ids = MAX (ct->n_ids, (guint) m->id + 1);
    }
    ct->by_id = g_new0 (EvClass, MAX (ct->n_ids, 1));
    g_hash_table_iter_init (&it, ch->markers);
    while (g_hash_table_iter_next (&it, NULL, &val)) {
      const Lttng0Marker *m = val;

      if (!m->usable)
        continue;
      ct->by_id[m->id].m = m;
      ct->by_id[m->id].ec = sc ? gst_ctf_stream_class_find_event_class (sc,
          m->id) : NULL;
      p->max_fields = MAX (p->max_fields, m->n_fields + 1);
    }
  }
  p->vals = g_new0 (Lttng0Value, p->max_fields);
  p->fv = g_new0 (GstCtfFieldValue, p->max_fields);

  p->streams = g_new0 (Stream, t->tracefiles->len);
  for (i = 0; i < t->tracefiles->len; i++) {
    Stream *s = &p->streams[i];

    s->tf = g_ptr_array_index (t->tracefiles, i);
    s->index = i;
    s->ct = &p->tables[s->tf->channel];
    s->w = gst_ctf_packet_writer_new (p->tc, s->tf->channel, error);
    p->n_streams++;
    if (!s->w)
      goto fail;
    gst_ctf_packet_writer_set_context_field (s->w, "cpu_id", s->tf->cpu);
  }
  return p;

fail:
  gst_ctf_lttng0_packetizer_free (p);
  return NULL;
}

void
gst_ctf_lttng0_packetizer_free (GstCtfLttng0Packetizer * p)
{
  guint i;

  if (!p)
    return;
  for (i = 0; i < p->n_streams; i++)
    if (p->streams[i].w)
      gst_ctf_packet_writer_free (p->streams[i].w);
  g_free (p->streams);
  for (i = 0; i < p->n_tables; i++)
    g_free (p->tables[i].by_id);
  g_free (p->tables);
  g_free (p->vals);
  g_free (p->fv);
  g_free (p->problem);
  g_free (p->tsdl);
  if (p->tc)
    gst_ctf_trace_class_unref (p->tc);
  gst_ctf_lttng0_trace_unref (p->t);
  g_free (p);
}

GstCtfTraceClass *
gst_ctf_lttng0_packetizer_get_trace_class (GstCtfLttng0Packetizer * p)
{
  return p->tc;
}

const gchar *
gst_ctf_lttng0_packetizer_get_metadata (GstCtfLttng0Packetizer * p)
{
  return p->tsdl;
}

static void
stream_load (GstCtfLttng0Packetizer * p, Stream * s)
{
  const Lttng0SubBuf *sb;

  s->have = s->next_sb < s->tf->n_subbufs;
  if (!s->have)
    return;
  sb = &s->tf->subbufs[s->next_sb];
  s->begin = sb->cycle_begin * p->mult;
  if (s->has_prev && s->begin < s->prev_end)
    s->begin = s->prev_end;
}

static void
set_problem (GstCtfLttng0Packetizer * p, GError * err)
{
  if (!p->problem)
    p->problem = g_strdup (err->message);
  g_error_free (err);
}

/* The values of one event for the packet writer: the payload root, then
 * one value per field. */
static guint
event_values (GstCtfLttng0Packetizer * p, const EvClass * e)
{
  const GstCtfFieldClass *st = e->ec->payload;
  GstCtfFieldValue *v = p->fv;
  guint i, n = e->m->n_fields;

  if (!st || st->n_members != n)
    return 0;
  memset (&v[0], 0, sizeof (v[0]));
  v[0].fc = st;
  v[0].v.u = n;
  v[0].end = n + 1;
  for (i = 0; i < n; i++) {
    GstCtfFieldValue *f = &v[i + 1];

    f->fc = st->members[i].fc;
    f->name = st->members[i].name;
    f->end = i + 2;
    if (e->m->fields[i].type == LTTNG0_FIELD_STRING) {
      f->v.s.ptr = p->vals[i].s;
      f->v.s.len = p->vals[i].len;
    } else {
      f->v.u = p->vals[i].u;
    }
  }
  return n + 1;
}

static gboolean
encode (GstCtfLttng0Packetizer * p, Stream * s, const guint8 ** data,
    gsize * size, GstCtfLttng0PacketInfo * info, GError ** error)
{
  const Lttng0SubBuf *sb = &s->tf->subbufs[s->next_sb];
  GstCtfPacketWriterParams prm = { 0, };
  Lttng0Cursor c;
  Lttng0EventHeader h;
  guint64 last = s->begin;
  guint n = 0, skipped = 0, clamped = 0;
  GError *err = NULL;
  gint r;

  memset (info, 0, sizeof (*info));
  g_clear_pointer (&p->problem, g_free);
  /* running counts of 32 bits that may wrap */
  info->discarded_delta = (guint32) (sb->events_lost - s->raw_lost);
  info->corrupt_delta = (guint32) (sb->subbuf_corrupt - s->raw_corrupt);
  s->raw_lost = sb->events_lost;
  s->raw_corrupt = sb->subbuf_corrupt;
  s->lost += info->discarded_delta;
  s->corrupt += info->corrupt_delta;

  prm.stream_instance_id = s->index;
  prm.packet_seq_num = s->seq;
  prm.events_discarded = s->lost;
  prm.has_timestamp_begin = TRUE;
  prm.timestamp_begin = s->begin;
  gst_ctf_packet_writer_set_context_field (s->w, "subbuf_corrupt",
      s->corrupt);
  if (!gst_ctf_packet_writer_begin_packet (s->w, &prm, NULL, 0, error))
    return FALSE;

  _gst_ctf_lttng0_cursor_init (&c, s->tf, sb);
  while ((r = _gst_ctf_lttng0_cursor_next (p->t, &c, &h, &err)) > 0) {
    const EvClass *e = h.id < s->ct->n_ids ? &s->ct->by_id[h.id] : NULL;
    guint32 start, end;
    guint64 cv;
    guint nv;

    if (G_UNLIKELY (!e || !e->m || !e->ec)) {
      if (!p->problem)
        p->problem = g_strdup_printf ("Event of an unknown or unusable "
            "marker left out%s: file=\"%s\", offset=%" G_GUINT64_FORMAT
            ", channel=\"%s\", id=%u", h.size < 0 ? ", with the rest of "
            "its sub-buffer (its size is not known)" : "", s->tf->path,
            sb->offset + h.offset, ((Lttng0Channel *) g_ptr_array_index
                (p->t->channels, s->tf->channel))->name, h.id);
      skipped++;
      if (h.size < 0)
        break;
      c.pos = (guint32) MIN ((guint64) h.payload + (guint64) h.size,
          (guint64) sb->data_end);
      continue;
    }
    start = (guint32) lttng0_align_up (h.payload, e->m->largest_align);
    if (G_UNLIKELY (_gst_ctf_lttng0_marker_decode (p->t, e->m, &c,
                h.payload, p->vals, &end, &err) < 0)) {
      set_problem (p, err);
      err = NULL;
      skipped++;
      break;
    }
    if (G_UNLIKELY (h.size >= 0 && (guint64) h.size != end - start)) {
      if (!p->problem)
        p->problem = g_strdup_printf ("Event left out, its size differs "
            "from its marker's: file=\"%s\", offset=%" G_GUINT64_FORMAT
            ", marker=\"%s.%s\", header-size=%" G_GINT64_FORMAT
            ", format-size=%u", s->tf->path, sb->offset + h.offset,
            e->m->channel, e->m->name, h.size, end - start);
      skipped++;
      c.pos = (guint32) MIN ((guint64) start + (guint64) h.size,
          (guint64) sb->data_end);
      continue;
    }
    c.pos = end;
    cv = h.tsc * p->mult;
    if (G_UNLIKELY (cv < last)) {
      cv = last;
      clamped++;
    }
    nv = event_values (p, e);
    if (!gst_ctf_packet_writer_append_event (s->w, e->ec, cv, NULL, 0, NULL,
            0, nv ? p->fv : NULL, nv, error)) {
      g_prefix_error (error, "In file \"%s\", offset %" G_GUINT64_FORMAT
          ": ", s->tf->path, sb->offset + h.offset);
      return FALSE;
    }
    last = cv;
    n++;
  }
  if (r < 0) {
    set_problem (p, err);
    skipped++;
  }
  *data = gst_ctf_packet_writer_finish_packet (s->w, size, error);
  if (!*data)
    return FALSE;

  info->stream_class_id = s->tf->channel;
  info->stream_instance_id = s->index;
  info->stream_name = s->tf->name;
  info->stream_index = s->index;
  info->channel = ((Lttng0Channel *) g_ptr_array_index (p->t->channels,
          s->tf->channel))->name;
  info->cpu = s->tf->cpu;
  info->subbuf_index = s->next_sb;
  info->file_offset = sb->offset;
  info->timestamp_begin = s->begin;
  info->timestamp_end = last;
  info->n_events = n;
  info->events_discarded = s->lost;
  info->skipped = skipped;
  info->clamped = clamped;
  info->problem = p->problem;
  s->prev_end = last;
  s->has_prev = TRUE;
  s->seq++;
  s->next_sb++;
  return TRUE;
}

static gint64
to_ns (GstCtfLttng0Packetizer * p, guint64 cv)
{
  const GstCtfClockClass *cc = g_ptr_array_index (p->tc->clock_classes, 0);
  gint64 ns = 0;

  gst_ctf_clock_class_cycles_to_ns_from_origin (cc, cv, &ns);
  return ns;
}

/* Puts @s at sub-buffer @k as a read from the start would, except that
 * the events of sub-buffer @k - 1 are taken not to run past its header's
 * cycle_count_end when that is before @k's cycle_count_begin, and else
 * @k - 1 is taken to begin at its own header's time (not clamped to the
 * end of @k - 2).  Sets @end to the end of @k - 1 (G_MININT64 when @k is
 * 0). */
static gboolean
stream_seek (GstCtfLttng0Packetizer * p, Stream * s, guint k, gint64 * end,
    GError ** error)
{
  guint j;

  s->next_sb = 0;
  s->seq = 0;
  s->has_prev = FALSE;
  s->prev_end = 0;
  s->lost = s->corrupt = 0;
  s->raw_lost = s->raw_corrupt = 0;
  *end = G_MININT64;
  if (k == 0) {
    stream_load (p, s);
    return TRUE;
  }
  /* the headers alone, when they say that sub-buffer k - 1 ends before
   * k begins: its last event is not after its cycle_count_end, so k
   * begins at its own cycle_count_begin */
  if (s->tf->subbufs[k - 1].cycle_end <= s->tf->subbufs[k].cycle_begin &&
      s->tf->subbufs[k - 1].cycle_begin <= s->tf->subbufs[k - 1].cycle_end) {
    for (j = 0; j < k; j++) {
      const Lttng0SubBuf *sb = &s->tf->subbufs[j];

      s->lost += (guint32) (sb->events_lost - s->raw_lost);
      s->corrupt += (guint32) (sb->subbuf_corrupt - s->raw_corrupt);
      s->raw_lost = sb->events_lost;
      s->raw_corrupt = sb->subbuf_corrupt;
    }
    s->next_sb = k;
    s->seq = k;
    s->has_prev = TRUE;
    s->prev_end = s->tf->subbufs[k - 1].cycle_end * p->mult;
    *end = to_ns (p, s->prev_end);
    stream_load (p, s);
    return TRUE;
  }
  /* else sub-buffer k - 1 is encoded again (its packet dropped) for
   * where its last event is; the running counts up to k - 1 */
  for (j = 0; j + 1 < k; j++) {
    const Lttng0SubBuf *sb = &s->tf->subbufs[j];

    s->lost += (guint32) (sb->events_lost - s->raw_lost);
    s->corrupt += (guint32) (sb->subbuf_corrupt - s->raw_corrupt);
    s->raw_lost = sb->events_lost;
    s->raw_corrupt = sb->subbuf_corrupt;
  }
  s->next_sb = k - 1;
  s->seq = k - 1;
  stream_load (p, s);
  {
    GstCtfLttng0PacketInfo info;
    const guint8 *data;
    gsize size;

    if (!encode (p, s, &data, &size, &info, error))
      return FALSE;
    *end = to_ns (p, info.timestamp_end);
  }
  stream_load (p, s);
  return TRUE;
}

/**
 * gst_ctf_lttng0_packetizer_seek:
 * @p: a packetizer
 * @ns: a time, ns from the clock origin (%G_MININT64: the start)
 * @error: return location for an error (a packet that cannot be written)
 *
 * Positions each tracefile so that gst_ctf_lttng0_packetizer_next() gives
 * its packets from the first whose last event is at or after @ns: the
 * sub-buffer headers' times tell where it is, without reading the
 * tracefiles from their start (one sub-buffer before it per tracefile is
 * decoded at most, none when the headers' times are in order).  The
 * packets given are those a read from the start gives, byte for byte,
 * unless a sub-buffer's events run past its header's cycle_count_end.
 *
 * Returns: %TRUE, or %FALSE with @error set
 */
gboolean
gst_ctf_lttng0_packetizer_seek (GstCtfLttng0Packetizer * p, gint64 ns,
    GError ** error)
{
  guint i;

  for (i = 0; i < p->n_streams; i++) {
    Stream *s = &p->streams[i];
    guint k = 0, n = s->tf->n_subbufs;
    gint64 end;

    /* the first sub-buffer whose successor begins at or after @ns */
    if (ns != G_MININT64)
      while (k + 1 < n && to_ns (p, s->tf->subbufs[k + 1].cycle_begin *
              p->mult) < ns)
        k++;
    /* the one before must end before @ns, else it is given too */
    for (;;) {
      if (!stream_seek (p, s, k, &end, error))
        return FALSE;
      if (k == 0 || end < ns)
        break;
      k--;
    }
  }
  p->started = TRUE;
  return TRUE;
}

gint
gst_ctf_lttng0_packetizer_next (GstCtfLttng0Packetizer * p,
    const guint8 ** data, gsize * size, GstCtfLttng0PacketInfo * info,
    GError ** error)
{
  Stream *best = NULL;
  guint i;

  if (!p->started) {
    for (i = 0; i < p->n_streams; i++)
      stream_load (p, &p->streams[i]);
    p->started = TRUE;
  }
  for (i = 0; i < p->n_streams; i++) {
    Stream *s = &p->streams[i];
    if (s->have && (!best || s->begin < best->begin))
      best = s;
  }
  if (!best)
    return 0;
  if (!encode (p, best, data, size, info, error))
    return -1;
  info->begin_ns = to_ns (p, info->timestamp_begin);
  info->end_ns = to_ns (p, info->timestamp_end);
  stream_load (p, best);
  return 1;
}
