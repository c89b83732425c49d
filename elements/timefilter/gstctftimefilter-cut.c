/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * timefilter: a packet across a bound of the window.  Its events are
 * walked (no values kept) to find the kept ones, which are consecutive;
 * the new packet gets the header and context of the input with its times
 * moved to the bounds, the first kept event re-encoded and the others
 * copied as bytes when their alignment allows, else every kept event
 * re-encoded (CTF 1.8 §5, §8).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctftimefilter-private.h"

#include "gstctf-packet-meta.h"

#define GST_CAT_DEFAULT gst_ctf_time_filter_debug

/* Clock cycles whose time is about @ns (the inverse of
 * gst_ctf_clock_class_cycles_to_ns_from_origin(), exact for a 1 GHz
 * clock); the caller clamps it between event clock values. */
static guint64
cycles_from_ns (const GstCtfClockClass * cc, gint64 ns)
{
  gdouble c;

  if (cc->freq == 1000000000) {
    gint64 base;

    if (__builtin_mul_overflow (cc->offset_s, (gint64) 1000000000, &base) ||
        __builtin_add_overflow (base, cc->offset, &base))
      return 0;
    if (ns <= base)
      return 0;
    return (guint64) ns - (guint64) base;
  }
  c = ((gdouble) ns / 1e9 - (gdouble) cc->offset_s) * (gdouble) cc->freq -
      (gdouble) cc->offset;
  if (c <= 0)
    return 0;
  if (c >= 18446744073709551615.0)
    return G_MAXUINT64;
  return (guint64) c;
}


/* Decodes the events of a packet without keeping values, to find which
 * are in the window.  Events of a stream are in time order, so the kept
 * ones are consecutive.  With @end_clock (the packet's trusted
 * `timestamp_end`, in the window) every event from the first kept one to
 * the end of the content is in the window: the walk stops there (the
 * packet across the window's start is then walked only up to the
 * window), and the kept bytes end at `content_size`, where the events end
 * (CTF 1.8 §5.2; babeltrace2 errors on any other end). */
gboolean
gst_ctf_time_filter_walk_packet (GstCtfTimeFilter * self, const GstCtfClockClass * cc,
    const guint8 * data, gsize size, gboolean has_begin, guint64 base,
    const guint64 * end_clock, Walk * w, GError ** error)
{
  guint64 prev;

  memset (w, 0, sizeof (*w));
  gst_ctf_event_iter_set_recording (self->it, FALSE);
  if (!gst_ctf_event_iter_set_packet (self->it, data, size, error))
    return FALSE;
  if (!has_begin)
    gst_ctf_event_iter_set_clock_value (self->it, base);
  prev = gst_ctf_event_iter_get_clock_value (self->it);
  while (gst_ctf_event_iter_next (self->it, error)) {
    guint64 c = gst_ctf_event_iter_get_clock_value (self->it);
    gint64 ns;

    if (!cycles_to_ns (cc, c, &ns)) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK,
          "Cannot convert clock value %" G_GUINT64_FORMAT " of clock \"%s\" "
          "to ns from its origin (overflow)", c, cc->name);
      return FALSE;
    }
    if (w->n_events == 0)
      w->first_ns = ns;
    w->last_ns = ns;
    if (self->end.kind == GST_CTF_TIME_BOUND_ABSOLUTE && ns > self->end.ns) {
      /* Nothing more to keep in this packet.  A stream without
       * `timestamp_begin` still needs the clock at the packet's end. */
      w->after = TRUE;
      w->n_events++;
      if (has_begin)
        return TRUE;
      while (gst_ctf_event_iter_next (self->it, error))
        w->n_events++;
      break;
    }
    if (in_window (self, ns)) {
      guint64 end, begin;

      begin = gst_ctf_event_iter_get_event_offset (self->it, &end);
      if (w->n_kept == 0) {
        w->first_kept = w->n_events;
        w->first_clock = c;
        w->first_kept_begin = begin;
        w->before_first_kept = prev;
        w->first_kept_end = end;
        if (end_clock) {
          const GstCtfPacketInfo *pi =
              gst_ctf_event_iter_get_packet_info (self->it);

          w->rest_kept = TRUE;
          w->n_kept = 1;
          w->n_events++;
          w->last_clock = *end_clock;
          w->last_kept_end = pi->content_size;
          w->end_clock = *end_clock;
          return TRUE;
        }
      }
      w->n_kept++;
      w->last_clock = c;
      w->last_kept_end = end;
    }
    w->n_events++;
    prev = c;
  }
  if (error && *error)
    return FALSE;
  w->end_clock = gst_ctf_event_iter_get_clock_value (self->it);
  return TRUE;
}

/* Largest alignment (bits) of a field class tree. */
static guint
max_alignment (const GstCtfFieldClass * fc, guint depth)
{
  guint a, i;

  if (fc == NULL || depth > 64)
    return 1;
  a = MAX (fc->alignment, 1);
  for (i = 0; i < fc->n_members; i++)
    a = MAX (a, max_alignment (fc->members[i].fc, depth + 1));
  if (fc->element)
    a = MAX (a, max_alignment (fc->element, depth + 1));
  return a;
}

static guint
stream_class_alignment (const GstCtfStreamClass * sc)
{
  guint a = MAX (max_alignment (sc->event_header, 0),
      max_alignment (sc->event_common_context, 0));
  guint i;

  for (i = 0; i < sc->event_classes->len; i++) {
    const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, i);

    a = MAX (a, max_alignment (ec->context, 0));
    a = MAX (a, max_alignment (ec->payload, 0));
  }
  return a;
}

/* A clock value at the window's beginning: no event in the window has a
 * smaller one, so it can be a packet's `timestamp_begin` (CTF 1.8 §5.2:
 * events lie within [timestamp_begin, timestamp_end]).  Exact for a 1 GHz
 * clock; for others, a value whose time is just below @ns (the double
 * precision conversion may map several values to one ns).  Falls back to
 * @fallback. */
static guint64
clock_at_begin (const GstCtfClockClass * cc, gint64 ns, guint64 fallback)
{
  guint64 c = cycles_from_ns (cc, ns);
  gint64 t;
  guint i;

  if (cc->freq == 1000000000)
    return cycles_to_ns (cc, c, &t) && t == ns ? c : fallback;
  for (i = 0; i < 64 && c > 0; i++, c--)
    if (cycles_to_ns (cc, c, &t) && t < ns)
      return c;
  return fallback;
}

/* The same at the window's end: no event in the window has a larger
 * clock value. */
static guint64
clock_at_end (const GstCtfClockClass * cc, gint64 ns, guint64 fallback)
{
  guint64 c = cycles_from_ns (cc, ns);
  gint64 t;
  guint i;

  if (cc->freq == 1000000000)
    return cycles_to_ns (cc, c, &t) && t == ns ? c : fallback;
  for (i = 0; i < 64 && c < G_MAXUINT64; i++, c++)
    if (cycles_to_ns (cc, c, &t) && t > ns)
      return c;
  return fallback;
}

/* What the header and context of a rewritten packet say: the input's,
 * with its times moved to the bounds it crosses. */
static void
packet_params (GstCtfTimeFilter * self, const GstCtfClockClass * cc,
    const GstCtfPacketInfo * info, guint64 base, GstCtfPacketWriterParams * pp)
{
  gboolean has_start = self->start.kind == GST_CTF_TIME_BOUND_ABSOLUTE;
  gboolean has_end = self->end.kind == GST_CTF_TIME_BOUND_ABSOLUTE;
  GstCtfPacketWriterParams p = { 0, };

  p.stream_instance_id = info->stream_instance_id;
  p.packet_seq_num = info->packet_seq_num;
  p.events_discarded = info->events_discarded;
  p.clock_value = base;
  /* Move the packet's times to the bounds it crosses. */
  if (info->has_timestamp_begin) {
    gint64 ns;

    p.has_timestamp_begin = TRUE;
    p.timestamp_begin = info->timestamp_begin;
    if (has_start && cycles_to_ns (cc, info->timestamp_begin, &ns) &&
        ns < self->start.ns)
      p.timestamp_begin = MAX (info->timestamp_begin, clock_at_begin (cc,
              self->start.ns, info->timestamp_begin));
  }
  if (self->trust_end && info->has_timestamp_end &&
      (!info->has_timestamp_begin ||
          info->timestamp_end >= info->timestamp_begin)) {
    gint64 ns;

    p.has_timestamp_end = TRUE;
    p.timestamp_end = info->timestamp_end;
    if (has_end && cycles_to_ns (cc, info->timestamp_end, &ns) &&
        ns > self->end.ns)
      p.timestamp_end = MIN (info->timestamp_end, clock_at_end (cc,
              self->end.ns, info->timestamp_end));
    p.timestamp_end = MAX (p.timestamp_end, p.timestamp_begin);
  }
  *pp = p;
}

/* PTS/DURATION of a rewritten packet, like ctfsrc's: its times in ns. */
static void
set_times (GstBuffer * out, GstBuffer * in, const GstCtfClockClass * cc,
    const GstCtfPacketWriterParams * p, const Walk * w)
{
  gint64 b = 0, e = 0;
  gboolean hb = cycles_to_ns (cc, p->has_timestamp_begin ?
      p->timestamp_begin : w->first_clock, &b);
  gboolean he = cycles_to_ns (cc, p->has_timestamp_end ? p->timestamp_end :
      w->last_clock, &e);

  GstCtfPacketMeta *meta;

  gst_buffer_copy_into (out, in, GST_BUFFER_COPY_FLAGS | GST_BUFFER_COPY_META,
      0, -1);
  /* its bytes are new: no longer those at meta->offset of a file */
  if ((meta = gst_buffer_get_ctf_packet_meta (out)) != NULL)
    meta->file_path = NULL;
  GST_BUFFER_OFFSET (out) = GST_BUFFER_OFFSET (in);
  GST_BUFFER_OFFSET_END (out) = GST_BUFFER_OFFSET_NONE;
  GST_BUFFER_PTS (out) = hb && b >= 0 ? (GstClockTime) b : GST_BUFFER_PTS (in);
  GST_BUFFER_DURATION (out) = hb && he && e >= b ? (GstClockTime) (e - b) :
      GST_CLOCK_TIME_NONE;
}

static GstCtfPacketWriter *
get_writer (GstCtfTimeFilter * self, guint64 key, GError ** error)
{
  GstCtfPacketWriter *wr = g_hash_table_lookup (self->writers, &key);

  if (wr == NULL) {
    wr = gst_ctf_packet_writer_new (self->tc, key, error);
    if (wr == NULL)
      return NULL;
    g_hash_table_insert (self->writers, g_memdup2 (&key, sizeof (key)), wr);
  }
  return wr;
}

/* The fast way for a packet across a bound: the packet writer writes the
 * header, the context and the first kept event (whose timestamp may need
 * a full header: the event before it is gone, CTF 1.8 §8), and the bytes
 * of the other kept events are copied as they are (their timestamps are
 * relative to the first kept one, whose clock value does not change).
 * Then `content_size` and `packet_size` are set.  This needs the copied
 * bytes to keep their alignment, and the header and context to have a
 * fixed layout up to those sizes; otherwise (and on any doubt) returns
 * NULL without @error and the caller re-encodes every kept event. */
GstBuffer *
gst_ctf_time_filter_copy_kept (GstCtfTimeFilter * self, GstBuffer * in,
    const GstCtfClockClass * cc, const guint8 * data, gsize size,
    const GstCtfPacketInfo * info, guint64 base, const Walk * w,
    GError ** error)
{
  const GstCtfStreamClass *sc = info->stream_class;
  const GstCtfFieldClass *cs_fc = NULL, *ps_fc = NULL;
  guint64 cs_off, ps_off, c1, content, raw_from, raw_to;
  GstCtfPacketWriterParams p;
  GstCtfPacketWriter *wr;
  const GstCtfFieldValue *ctx, *v[3];
  const guint8 *data1;
  guint n_ctx, n[3], i, align;
  gsize size1, out_size;
  GstBuffer *out;
  GstMapInfo om;

  if (sc == NULL || !gst_ctf_packet_find_context_field (self->tc, sc,
          GST_CTF_MEANING_CONTENT_SIZE, &cs_off, &cs_fc) ||
      !gst_ctf_packet_find_context_field (self->tc, sc,
          GST_CTF_MEANING_PACKET_SIZE, &ps_off, &ps_fc))
    return NULL;
  align = stream_class_alignment (sc);
  if (w->first_kept_end % 8 != 0 || w->last_kept_end > (guint64) size * 8)
    return NULL;

  wr = get_writer (self, info->stream_class_id, error);
  if (wr == NULL)
    return NULL;
  packet_params (self, cc, info, base, &p);
  /* The writer only sees the first kept event: give it the end. */
  if (info->has_timestamp_end) {
    p.timestamp_end = p.has_timestamp_end ? MAX (p.timestamp_end,
        w->last_clock) : w->last_clock;
    p.has_timestamp_end = TRUE;
  }

  gst_ctf_event_iter_set_recording (self->it, TRUE);
  if (!gst_ctf_event_iter_set_packet (self->it, data, size, error))
    goto failed;
  if (!info->has_timestamp_begin)
    gst_ctf_event_iter_set_clock_value (self->it, base);
  ctx = gst_ctf_event_iter_get_values (self->it, GST_CTF_SCOPE_PACKET_CONTEXT,
      &n_ctx);
  if (!gst_ctf_packet_writer_begin_packet (wr, &p, ctx, n_ctx, error))
    goto failed;
  /* Straight to the first kept event, found by the walk. */
  if (!gst_ctf_event_iter_set_position (self->it, w->first_kept_begin,
          w->before_first_kept) || !gst_ctf_event_iter_next (self->it, error)) {
    if (error && *error == NULL)
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
          "Packet has fewer events the second time it is read");
    goto failed;
  }
  for (i = 0; i < 3; i++)
    v[i] = gst_ctf_event_iter_get_values (self->it,
        GST_CTF_SCOPE_EVENT_COMMON_CONTEXT + i, &n[i]);
  if (!gst_ctf_packet_writer_append_event (wr,
          gst_ctf_event_iter_get_event_class (self->it),
          gst_ctf_event_iter_get_clock_value (self->it), v[0], n[0], v[1],
          n[1], v[2], n[2], error))
    goto failed;
  gst_ctf_event_iter_set_recording (self->it, FALSE);
  c1 = gst_ctf_packet_writer_get_content_size (wr);
  data1 = gst_ctf_packet_writer_finish_packet (wr, &size1, error);
  if (data1 == NULL)
    return NULL;
  /* The copied events must land on the same alignment. */
  if (c1 % 8 != 0 || c1 % align != w->first_kept_end % align ||
      c1 / 8 > size1)
    return NULL;

  raw_from = w->first_kept_end / 8;
  raw_to = (w->last_kept_end + 7) / 8;
  content = c1 + (w->last_kept_end - w->first_kept_end);
  out_size = c1 / 8 + (raw_to - raw_from);
  out = gst_buffer_new_allocate (NULL, out_size, NULL);
  if (out == NULL || !gst_buffer_map (out, &om, GST_MAP_WRITE)) {
    if (out)
      gst_buffer_unref (out);
    return NULL;
  }
  memcpy (om.data, data1, c1 / 8);
  memcpy (om.data + c1 / 8, data + raw_from, raw_to - raw_from);
  if ((cs_fc && !gst_ctf_packet_poke_integer (om.data, om.size, cs_off,
              cs_fc, content)) ||
      (ps_fc && !gst_ctf_packet_poke_integer (om.data, om.size, ps_off, ps_fc,
              (guint64) out_size * 8))) {
    gst_buffer_unmap (out, &om);
    gst_buffer_unref (out);
    return NULL;
  }
  gst_buffer_unmap (out, &om);
  GST_LOG_OBJECT (self, "copied kept events: content_size at bit %"
      G_GUINT64_FORMAT ", packet_size at bit %" G_GUINT64_FORMAT ", first "
      "event %" G_GUINT64_FORMAT " bits, copied bits [%" G_GUINT64_FORMAT
      ", %" G_GUINT64_FORMAT ")", cs_off, ps_off, c1, w->first_kept_end,
      w->last_kept_end);
  set_times (out, in, cc, &p, w);
  return out;

failed:
  gst_ctf_event_iter_set_recording (self->it, FALSE);
  return NULL;
}

/* A packet across a bound: one decoding pass that writes the events in
 * the window to a new packet as it meets them (the kept events are
 * consecutive, events of a stream being in time order) and stops at the
 * first event after the window.  Returns the new packet, or NULL with
 * *@pass set when every event is in the window (the input can go out
 * as is), or NULL with neither *@pass nor @error set when no event is.
 * @w gets the counts. */
GstBuffer *
gst_ctf_time_filter_filter_packet (GstCtfTimeFilter * self, GstBuffer * in,
    const GstCtfClockClass * cc, const guint8 * data, gsize size,
    const GstCtfPacketInfo * info, guint64 base, Walk * w, gboolean * pass,
    GError ** error)
{
  GstCtfPacketWriter *wr;
  GstCtfPacketWriterParams p = { 0, };
  const GstCtfFieldValue *ctx;
  guint n_ctx;
  GBytes *bytes;
  GstBuffer *out;
  gboolean has_start = self->start.kind == GST_CTF_TIME_BOUND_ABSOLUTE;
  gboolean has_end = self->end.kind == GST_CTF_TIME_BOUND_ABSOLUTE;
  gboolean after = FALSE;
  guint64 key = info->stream_class_id;

  memset (w, 0, sizeof (*w));
  *pass = FALSE;
  wr = get_writer (self, key, error);
  if (wr == NULL)
    return NULL;

  gst_ctf_event_iter_set_recording (self->it, TRUE);
  if (!gst_ctf_event_iter_set_packet (self->it, data, size, error))
    goto failed;
  if (!info->has_timestamp_begin)
    gst_ctf_event_iter_set_clock_value (self->it, base);
  ctx = gst_ctf_event_iter_get_values (self->it, GST_CTF_SCOPE_PACKET_CONTEXT,
      &n_ctx);

  packet_params (self, cc, info, base, &p);
  if (!gst_ctf_packet_writer_begin_packet (wr, &p, ctx, n_ctx, error))
    goto failed;

  while (gst_ctf_event_iter_next (self->it, error)) {
    guint64 c = gst_ctf_event_iter_get_clock_value (self->it);
    const GstCtfFieldValue *v[3];
    guint n[3], sc;
    gint64 ns;

    if (!cycles_to_ns (cc, c, &ns)) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK,
          "Cannot convert clock value %" G_GUINT64_FORMAT " of clock \"%s\" "
          "to ns from its origin (overflow)", c, cc->name);
      goto failed;
    }
    if (w->n_events++ == 0)
      w->first_ns = ns;
    w->last_ns = ns;
    if (has_start && ns < self->start.ns)
      continue;
    if (has_end && ns > self->end.ns) {
      after = TRUE;
      break;
    }
    for (sc = 0; sc < 3; sc++)
      v[sc] = gst_ctf_event_iter_get_values (self->it,
          GST_CTF_SCOPE_EVENT_COMMON_CONTEXT + sc, &n[sc]);
    if (!gst_ctf_packet_writer_append_event (wr,
            gst_ctf_event_iter_get_event_class (self->it), c, v[0], n[0],
            v[1], n[1], v[2], n[2], error))
      goto failed;
    if (w->n_kept++ == 0)
      w->first_clock = c;
    w->last_clock = c;
  }
  if (error && *error)
    goto failed;
  gst_ctf_event_iter_set_recording (self->it, FALSE);
  if (after && !info->has_timestamp_begin) {
    /* The next packet's clock base: the end of this one. */
    while (gst_ctf_event_iter_next (self->it, error))
      w->n_events++;
    if (error && *error)
      goto failed;
  }
  w->end_clock = gst_ctf_event_iter_get_clock_value (self->it);

  if (w->n_kept == 0)
    return NULL;
  if (w->n_kept == w->n_events && !after) {
    *pass = TRUE;
    return NULL;
  }
  bytes = gst_ctf_packet_writer_finish_packet_bytes (wr, error);
  if (bytes == NULL)
    return NULL;

  out = gst_buffer_new_wrapped_bytes (bytes);
  g_bytes_unref (bytes);
  set_times (out, in, cc, &p, w);
  return out;

failed:
  gst_ctf_event_iter_set_recording (self->it, FALSE);
  return NULL;
}
