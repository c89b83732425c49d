/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: batches of copied events, so that the events decoded and merged
 * on one thread are formatted as text on others (ctftextsink).
 *
 * A batch copies what the formatter reads from an iterator: the stream and
 * event classes, the clock value, and the decoded values of the four
 * printed scopes (CTF 1.8 §5: packet context, event common context, event
 * specific context, payload), plus the bytes of strings and text arrays,
 * which point into the packet and would not outlive it.  Field classes
 * and member names point into the trace class, which outlives the batch.
 *
 * The `(+S.NS)` delta of an event depends on the event printed before it,
 * which may be in the previous batch: each batch starts from the delta
 * state the previous one ends with (gst_ctf_text_batch_get_end_delta(),
 * computed from its last events only), so consecutive batches can be
 * formatted at the same time by different formatters.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-text-private.h"

GstCtfTextBatch *
gst_ctf_text_batch_new (void)
{
  return g_new0 (GstCtfTextBatch, 1);
}

void
gst_ctf_text_batch_free (GstCtfTextBatch * b)
{
  if (b == NULL)
    return;
  g_free (b->events);
  g_free (b->vals);
  g_free (b->strs);
  g_free (b->arena);
  g_free (b);
}

void
gst_ctf_text_batch_reset (GstCtfTextBatch * b, const GstCtfTextDelta * start)
{
  g_return_if_fail (b != NULL);

  b->n_events = 0;
  b->n_vals = 0;
  b->n_strs = 0;
  b->arena_len = 0;
  b->fixed = FALSE;
  memset (b->pc_it, 0, sizeof (b->pc_it));
  if (start != NULL) {
    b->start = *start;
  } else {
    memset (&b->start, 0, sizeof (b->start));
    /* (a new sequence, maybe of another trace class) */
    memset (b->bytes_key, 0, sizeof (b->bytes_key));
  }
}

guint
gst_ctf_text_batch_get_n_events (const GstCtfTextBatch * b)
{
  g_return_val_if_fail (b != NULL, 0);
  return b->n_events;
}

gsize
gst_ctf_text_batch_get_size (const GstCtfTextBatch * b)
{
  g_return_val_if_fail (b != NULL, 0);
  return b->n_vals * sizeof (GstCtfFieldValue) + b->arena_len +
      b->n_events * sizeof (BatchEvent);
}

/* Grows @p (of @alloc elements of @size bytes) to hold @need. */
static gpointer
grow (gpointer p, gsize * alloc, gsize need, gsize size)
{
  gsize n = *alloc ? *alloc : 64;

  while (n < need)
    n *= 2;
  *alloc = n;
  return g_realloc_n (p, n, size);
}

/* The values whose bytes live in the packet: strings, and text arrays and
 * sequences (no children: their bytes are the value, see
 * GstCtfFieldValue). */
static inline gboolean
value_has_bytes (const GstCtfFieldValue * v, gsize idx)
{
  const GstCtfFieldClass *fc = v->fc;
  GstCtfFieldClassType t;

  if (G_UNLIKELY (fc == NULL))
    return FALSE;
  t = fc->type;
  if (t == GST_CTF_FIELD_CLASS_STRING)
    return v->v.s.ptr != NULL;
  if (t != GST_CTF_FIELD_CLASS_ARRAY && t != GST_CTF_FIELD_CLASS_SEQUENCE)
    return FALSE;
  return v->end == idx + 1 && v->v.s.ptr != NULL && is_text_array (fc);
}

/* Whether a value of the subtree of @fc can hold bytes to copy. */
static gboolean
class_has_bytes (const GstCtfFieldClass * fc, guint depth)
{
  guint i;

  if (fc == NULL)
    return FALSE;
  if (depth > 256)
    return TRUE;
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_STRING:
      return TRUE;
    case GST_CTF_FIELD_CLASS_STRUCT:
    case GST_CTF_FIELD_CLASS_VARIANT:
      for (i = 0; i < fc->n_members; i++)
        if (class_has_bytes (fc->members[i].fc, depth + 1))
          return TRUE;
      return FALSE;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      return is_text_array (fc) || class_has_bytes (fc->element, depth + 1);
    default:
      return FALSE;
  }
}

/* The slot of what @b knows of the scope class @root. */
static inline guint
scope_slot (GstCtfTextBatch * b, const GstCtfFieldClass * root)
{
  /* (multiplicative hash: field classes are allocated close together) */
  guint slot = (guint) (((guint64) (guintptr) root *
          G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 56);

  if (G_UNLIKELY (b->bytes_key[slot] != root)) {
    b->bytes_key[slot] = root;
    b->bytes_val[slot] = class_has_bytes (root, 0);
    /* -1: to learn; -2: not static, never */
    b->bytes_learnt[slot] = b->bytes_val[slot] &&
        !_gst_ctf_text_class_is_static (root, 0) ? -2 : -1;
  }
  return slot;
}

/* Copies the bytes of value @i of @dst (values @base.. of @b) into the
 * arena when it has some. */
static inline void
copy_bytes (GstCtfTextBatch * b, GstCtfFieldValue * dst, gsize base, guint i)
{
  GstCtfFieldValue *v = &dst[i];
  gsize off;

  if (!value_has_bytes (v, i))
    return;
  if (G_UNLIKELY (b->n_strs == b->strs_alloc))
    b->strs = grow (b->strs, &b->strs_alloc, b->n_strs + 1,
        sizeof (guint32));
  b->strs[b->n_strs++] = (guint32) (base + i);
  /* The offset in the arena stands for the pointer until the batch is
   * formatted (gst_ctf_text_formatter_format_batch()). */
  off = b->arena_len;
  if (G_UNLIKELY (off + v->v.s.len > b->arena_alloc || b->arena == NULL))
    b->arena = grow (b->arena, &b->arena_alloc, off + v->v.s.len, 1);
  if (v->v.s.len > 0)
    memcpy (b->arena + off, v->v.s.ptr, v->v.s.len);
  b->arena_len = off + v->v.s.len;
  v->v.s.ptr = GSIZE_TO_POINTER (off);
}

/* Whether @it is still in the packet whose context values were last
 * copied for it in @b: then the event refers to that copy. */
static inline gboolean
share_packet_context (GstCtfTextBatch * b, BatchEvent * e,
    GstCtfEventIter * it, guint64 packet, guint n)
{
  guint j;

  for (j = 0; j < BATCH_PC_SLOTS && b->pc_it[j] != NULL; j++) {
    if (b->pc_it[j] != it)
      continue;
    if (b->pc_packet[j] != packet || b->pc_n[j] != n)
      return FALSE;
    e->voff[0] = b->pc_off[j];
    e->vn[0] = n;
    return TRUE;
  }
  return FALSE;
}

static inline void
remember_packet_context (GstCtfTextBatch * b, GstCtfEventIter * it,
    guint64 packet, guint32 off, guint n)
{
  guint j;

  for (j = 0; j < BATCH_PC_SLOTS - 1 && b->pc_it[j] != NULL &&
      b->pc_it[j] != it; j++);
  b->pc_it[j] = it;
  b->pc_packet[j] = packet;
  b->pc_off[j] = off;
  b->pc_n[j] = n;
}

void
gst_ctf_text_batch_add_event (GstCtfTextBatch * b, GstCtfEventIter * it)
{
  static const GstCtfScope scopes[4] = {
    GST_CTF_SCOPE_PACKET_CONTEXT, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
    GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT, GST_CTF_SCOPE_EVENT_PAYLOAD,
  };
  const GstCtfPacketInfo *pi;
  BatchEvent *e;
  guint64 packet;
  guint k;

  g_return_if_fail (b != NULL && it != NULL);
  g_return_if_fail (!b->fixed);

  if (G_UNLIKELY (b->n_events == b->events_alloc)) {
    gsize alloc = b->events_alloc;

    b->events = grow (b->events, &alloc, b->n_events + 1,
        sizeof (BatchEvent));
    b->events_alloc = (guint) MIN (alloc, G_MAXUINT);
  }
  e = &b->events[b->n_events++];
  pi = gst_ctf_event_iter_get_packet_info (it);
  e->sc = pi ? pi->stream_class : NULL;
  e->ec = gst_ctf_event_iter_get_event_class (it);
  e->cycles = gst_ctf_event_iter_get_clock_value (it);
  packet = gst_ctf_event_iter_get_packet_count (it);

  for (k = 0; k < 4; k++) {
    guint n = 0;
    const GstCtfFieldValue *vals = gst_ctf_event_iter_get_values (it,
        scopes[k], &n);
    GstCtfFieldValue *dst;
    guint i, slot;

    if (vals == NULL)
      n = 0;
    if (k == 0 && n > 0 && share_packet_context (b, e, it, packet, n))
      continue;
    /* (a batch holds far fewer than 4 G values: the element bounds its
     * size) */
    e->voff[k] = (guint32) b->n_vals;
    e->vn[k] = n;
    if (n == 0)
      continue;
    if (G_UNLIKELY (b->n_vals + n > b->vals_alloc))
      b->vals = grow (b->vals, &b->vals_alloc, b->n_vals + n,
          sizeof (GstCtfFieldValue));
    dst = b->vals + b->n_vals;
    memcpy (dst, vals, n * sizeof (GstCtfFieldValue));
    slot = vals[0].fc != NULL ? scope_slot (b, vals[0].fc) : G_MAXUINT;
    if (slot != G_MAXUINT && !b->bytes_val[slot]) {
      /* nothing to copy */
    } else if (slot != G_MAXUINT && b->bytes_learnt[slot] >= 0 &&
        b->bytes_n[slot] == n) {
      /* a static class: its values with bytes are where they were */
      gint j;

      for (j = 0; j < b->bytes_learnt[slot]; j++)
        copy_bytes (b, dst, b->n_vals, b->bytes_idx[slot][j]);
    } else {
      guint n_idx = 0;
      gboolean learn = slot != G_MAXUINT && b->bytes_learnt[slot] == -1;

      for (i = 0; i < n; i++) {
        if (!value_has_bytes (&dst[i], i))
          continue;
        if (learn) {
          if (n_idx < BATCH_BYTES_IDX && i <= G_MAXUINT8)
            b->bytes_idx[slot][n_idx++] = (guint8) i;
          else
            learn = FALSE;      /* too many, or too far */
        }
        copy_bytes (b, dst, b->n_vals, i);
      }
      if (slot != G_MAXUINT && b->bytes_learnt[slot] == -1) {
        b->bytes_learnt[slot] = learn ? (gint) n_idx : -2;
        b->bytes_n[slot] = n;
      }
    }
    if (k == 0)
      remember_packet_context (b, it, packet, e->voff[0], n);
    b->n_vals += n;
  }
}

void
gst_ctf_text_batch_get_end_delta (const GstCtfTextBatch * b,
    GstCtfTextDelta * delta)
{
  guint i;
  gboolean cycles_done = FALSE;

  g_return_if_fail (b != NULL && delta != NULL);

  /* What the formatter's update_last() leaves after the last event: the
   * clock value of the last event with a clock, and the time of the last
   * one whose conversion succeeded. */
  *delta = b->start;
  for (i = b->n_events; i > 0; i--) {
    const BatchEvent *e = &b->events[i - 1];
    gint64 ns;

    if (e->sc == NULL || e->sc->default_clock == NULL)
      continue;
    if (!cycles_done) {
      delta->have_cycles = TRUE;
      delta->cycles = e->cycles;
      cycles_done = TRUE;
    }
    if (gst_ctf_clock_class_cycles_to_ns_from_origin (e->sc->default_clock,
            e->cycles, &ns)) {
      delta->have_ns = TRUE;
      delta->ns = ns;
      break;
    }
  }
}

void
gst_ctf_text_formatter_format_batch (GstCtfTextFormatter * f,
    GstCtfTextBatch * b, GString * out)
{
  TextEventView ev;
  guint i, k;
  gint64 saved_object;

  g_return_if_fail (f != NULL && b != NULL && out != NULL);

  if (!b->fixed) {
    gsize j;

    for (j = 0; j < b->n_strs; j++) {
      GstCtfFieldValue *v = &b->vals[b->strs[j]];

      v->v.s.ptr = (const gchar *) b->arena +
          GPOINTER_TO_SIZE (v->v.s.ptr);
    }
    b->fixed = TRUE;
  }

  f->have_last_ns = b->start.have_ns;
  f->last_ns = b->start.ns;
  f->have_last_cycles = b->start.have_cycles;
  f->last_cycles = b->start.cycles;
  saved_object = f->cur_object;
  f->cur_object = -1;
  f->in_batch = TRUE;
  f->pc_batch_vals = NULL;

  ev.it = NULL;
  for (i = 0; i < b->n_events; i++) {
    const BatchEvent *e = &b->events[i];

    ev.sc = e->sc;
    ev.ec = e->ec;
    ev.cycles = e->cycles;
    for (k = 0; k < 4; k++) {
      ev.vals[k] = e->vn[k] ? b->vals + e->voff[k] : NULL;
      ev.n[k] = e->vn[k];
    }
    _gst_ctf_text_format_view (f, &ev, out);
  }
  f->cur_object = saved_object;
  f->in_batch = FALSE;
  f->pc_batch_vals = NULL;
}
