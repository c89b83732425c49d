/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: what the decode plan interpreter (gstctf-plan-exec.c) and the
 * run executor (gstctf-plan-run.c) share: bit and byte loads (CTF 1.8 §4,
 * §4.1.5 bit order), value records, the side effects of integers (§7.3
 * lengths and tags, §8 clock updates).  Private to the library.
 */
#pragma once

#include "gstctf-plan.h"

#include <string.h>

G_BEGIN_DECLS


/* The hot helpers of runs must be inlined whatever the compiler's size
 * heuristics say. */
#if defined(__GNUC__)
#define RUN_ALWAYS_INLINE __attribute__((always_inline))
#else
#define RUN_ALWAYS_INLINE
#endif

/* ------------------------------------------------------------------ */
/* Interpretation                                                      */
/* ------------------------------------------------------------------ */

static inline guint64
align_up (guint64 pos, guint32 align)
{
  return (pos + align - 1) & ~((guint64) align - 1);
}

static inline guint64
load_le64 (const guint8 * p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static inline guint64
load_be64 (const guint8 * p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_BE (v);
}

/* CTF 1.8 §4.1.5: in little-endian fields the first bit is the least
 * significant bit of the first byte and bits fill each byte upward; the
 * value's low-order bits come first.  @n in 1..64; the caller checked
 * that pos + n <= n_bytes * 8. */
static G_GNUC_UNUSED guint64
read_bits_le (const guint8 * d, guint64 n_bytes, guint64 pos, guint n)
{
  guint64 byte = pos >> 3;
  guint sh = pos & 7;
  guint64 v;

  if (byte + 8 <= n_bytes) {
    v = load_le64 (d + byte) >> sh;
    if (sh + n > 64)
      v |= (guint64) d[byte + 8] << (64 - sh);
  } else {
    guint got = 0;

    v = 0;
    while (got < n) {
      guint b = pos & 7;
      guint take = MIN (8 - b, n - got);
      guint64 chunk = (d[pos >> 3] >> b) & ((1u << take) - 1);

      v |= chunk << got;
      got += take;
      pos += take;
    }
  }
  return n == 64 ? v : (v & ((G_GUINT64_CONSTANT (1) << n) - 1));
}

/* CTF 1.8 §4.1.5: in big-endian fields the first bit is the most
 * significant bit of the first byte; the value's high-order bits come
 * first. */
static G_GNUC_UNUSED guint64
read_bits_be (const guint8 * d, guint64 n_bytes, guint64 pos, guint n)
{
  guint64 byte = pos >> 3;
  guint sh = pos & 7;
  guint64 v;

  if (byte + 8 <= n_bytes) {
    v = load_be64 (d + byte) << sh;
    if (sh + n > 64)
      v |= (guint64) (d[byte + 8] >> (8 - sh));
    return n == 64 ? v : v >> (64 - n);
  } else {
    guint got = 0;

    v = 0;
    while (got < n) {
      guint b = pos & 7;
      guint take = MIN (8 - b, n - got);
      guint64 chunk = (d[pos >> 3] >> (8 - b - take)) & ((1u << take) - 1);

      v = (take == 64 ? 0 : v << take) | chunk;
      got += take;
      pos += take;
    }
    return v;
  }
}

static inline guint64
sign_extend (guint64 v, guint n)
{
  if (n >= 64)
    return v;
  return (guint64) (((gint64) (v << (64 - n))) >> (64 - n));
}

static G_GNUC_UNUSED void
set_overrun_error (GstCtfDecodeCtx * ctx, guint64 pos, guint64 need,
    const GstCtfOp * op, GError ** error)
{
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
      "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, field `%s` "
      "needs %" G_GUINT64_FORMAT " bits but the content ends at %"
      G_GUINT64_FORMAT " bits", ctx->scope_name ? ctx->scope_name : "field",
      pos, op->name ? op->name : "(unnamed)", need, ctx->limit);
}

static G_GNUC_UNUSED gboolean G_GNUC_NO_INLINE
grow_values (GstCtfDecodeCtx * ctx, GError ** error)
{
  GstCtfValueBuf *b = ctx->values;
  guint cap;

  if (b->cap >= GST_CTF_PLAN_MAX_VALUES) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, more than %u "
        "field values", ctx->scope_name ? ctx->scope_name : "field",
        ctx->pos, GST_CTF_PLAN_MAX_VALUES);
    return FALSE;
  }
  cap = MAX (64, b->cap * 2);
  cap = MIN (cap, GST_CTF_PLAN_MAX_VALUES);
  b->v = g_renew (GstCtfFieldValue, b->v, cap);
  b->cap = cap;
  return TRUE;
}

static inline GstCtfFieldValue *
record (GstCtfDecodeCtx * ctx, const GstCtfOp * op, guint * idx,
    GError ** error)
{
  GstCtfValueBuf *b = ctx->values;
  GstCtfFieldValue *fv;
  guint i = b->len;

  if (G_UNLIKELY (i >= b->cap) && !grow_values (ctx, error))
    return NULL;
  b->len = i + 1;
  fv = &b->v[i];
  fv->fc = op->fc;
  fv->name = op->name;
  fv->end = i + 1;
  fv->v.u = 0;
  if (idx)
    *idx = i;
  return fv;
}

/* CTF 1.8 §8 (babeltrace2 msg-iter update_default_clock()): an N-bit
 * value replaces the low N bits of the current clock value; when it is
 * smaller than those low bits the clock wrapped, once. */
static inline void
update_clock (GstCtfDecodeCtx * ctx, guint64 v, guint n)
{
  guint64 mask;

  if (n >= 64) {
    ctx->clock = v;
    return;
  }
  mask = (G_GUINT64_CONSTANT (1) << n) - 1;
  if (v < (ctx->clock & mask))
    ctx->clock += mask + 1;
  ctx->clock = (ctx->clock & ~mask) | v;
}

static G_GNUC_UNUSED gboolean
int_effects (GstCtfDecodeCtx * ctx, const GstCtfOp * op, guint64 v,
    guint64 field_pos, GError ** error)
{
  if (op->flags & GST_CTF_OP_F_CLOCK)
    update_clock (ctx, v, op->size);
  if ((op->flags & GST_CTF_OP_F_SLOT) && (guint) op->slot < ctx->n_slots)
    ctx->slots[op->slot] = v;
  if (op->flags & GST_CTF_OP_F_MEANING) {
    GstCtfPacketInfo *info = ctx->info;

    ctx->seen_meanings |= 1u << (op->meaning & 31);
    switch (op->meaning) {
      case GST_CTF_MEANING_EVENT_CLASS_ID:
        ctx->event_class_id = v;
        ctx->has_event_class_id = TRUE;
        break;
      case GST_CTF_MEANING_MAGIC:
        ctx->has_magic = TRUE;
        ctx->magic = (guint32) v;
        if (v != 0xC1FC1FC1u) {
          g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
              "Cannot read packet header: offset=%" G_GUINT64_FORMAT
              " bits, magic=0x%" G_GINT64_MODIFIER "x, "
              "expected-magic=0xc1fc1fc1", field_pos, v);
          return FALSE;
        }
        break;
      case GST_CTF_MEANING_STREAM_CLASS_ID:
        if (info)
          info->stream_class_id = v;
        break;
      case GST_CTF_MEANING_STREAM_INSTANCE_ID:
        if (info) {
          info->stream_instance_id = v;
          info->has_stream_instance_id = TRUE;
        }
        break;
      case GST_CTF_MEANING_TIMESTAMP_BEGIN:
        if (info) {
          info->timestamp_begin = v;
          info->has_timestamp_begin = TRUE;
        }
        break;
      case GST_CTF_MEANING_TIMESTAMP_END:
        if (info) {
          info->timestamp_end = v;
          info->has_timestamp_end = TRUE;
        }
        break;
      case GST_CTF_MEANING_EVENTS_DISCARDED:
        if (info) {
          info->events_discarded = v;
          info->has_events_discarded = TRUE;
        }
        break;
      case GST_CTF_MEANING_PACKET_SEQ_NUM:
        if (info) {
          info->packet_seq_num = v;
          info->has_packet_seq_num = TRUE;
        }
        break;
      case GST_CTF_MEANING_PACKET_SIZE:
        if (info) {
          info->packet_size = v;
          info->has_packet_size = TRUE;
        }
        break;
      case GST_CTF_MEANING_CONTENT_SIZE:
        if (info) {
          info->content_size = v;
          info->has_content_size = TRUE;
        }
        break;
      default:
        break;
    }
  }
  return TRUE;
}

/* Number of elements of an array or sequence, checked against the bits
 * left: N elements of at least B bits each cannot exceed them, so a
 * corrupt length fails here instead of looping or allocating. */
static G_GNUC_UNUSED gboolean
check_count (GstCtfDecodeCtx * ctx, const GstCtfOp * op, guint64 pos,
    guint64 n, GError ** error)
{
  guint64 rem = ctx->limit - pos;

  if (op->min_elem_bits > 0) {
    if (n <= rem / op->min_elem_bits)
      return TRUE;
  } else if (n <= GST_CTF_PLAN_MAX_ZERO_SIZE_ELEMS) {
    return TRUE;
  }
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
      "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, %s `%s` has %"
      G_GUINT64_FORMAT " elements of at least %" G_GUINT64_FORMAT
      " bits but only %" G_GUINT64_FORMAT " bits remain",
      ctx->scope_name ? ctx->scope_name : "field", pos,
      op->kind == GST_CTF_OP_WTEXT ? "string" :
      (op->kind == GST_CTF_OP_SEQUENCE || op->kind == GST_CTF_OP_TEXT_SEQUENCE)
      ? "sequence" : "array", op->name ? op->name : "(unnamed)", n,
      op->min_elem_bits, rem);
  return FALSE;
}

/* Room for @n more values without an error (the caller falls back to
 * field-by-field decoding, which reports the limit). */
static G_GNUC_UNUSED gboolean G_GNUC_NO_INLINE
reserve_values (GstCtfValueBuf * b, guint n)
{
  guint cap = b->cap;

  if (n > GST_CTF_PLAN_MAX_VALUES - b->len)
    return FALSE;
  while (cap - b->len < n)
    cap = MAX (64, cap * 2);
  cap = MIN (cap, GST_CTF_PLAN_MAX_VALUES);
  b->v = g_renew (GstCtfFieldValue, b->v, cap);
  b->cap = cap;
  return TRUE;
}

/* Reads a run item or scalar element of kind @kind at @p into @fv's
 * value, the same value as the integer and float ops give.  Returns the
 * integer value (for value slots). */
static inline guint64 load_item (guint kind, const guint8 * p,
    guint64 value, GstCtfFieldValue * fv) RUN_ALWAYS_INLINE;

static inline guint64
load_item (guint kind, const guint8 * p, guint64 value,
    GstCtfFieldValue * fv)
{
  guint64 v;

  switch (kind) {
    case GST_CTF_RUN_U8:
      v = p[0];
      break;
    case GST_CTF_RUN_S8:
      v = (guint64) (gint64) (gint8) p[0];
      break;
    case GST_CTF_RUN_U16:{
      guint16 t;

      memcpy (&t, p, 2);
      v = t;
      break;
    }
    case GST_CTF_RUN_S16:{
      gint16 t;

      memcpy (&t, p, 2);
      v = (guint64) (gint64) t;
      break;
    }
    case GST_CTF_RUN_U32:{
      guint32 t;

      memcpy (&t, p, 4);
      v = t;
      break;
    }
    case GST_CTF_RUN_S32:{
      gint32 t;

      memcpy (&t, p, 4);
      v = (guint64) (gint64) t;
      break;
    }
    case GST_CTF_RUN_U64:
      memcpy (&v, p, 8);
      break;
    case GST_CTF_RUN_U16_SWAP:{
      guint16 t;

      memcpy (&t, p, 2);
      v = GUINT16_SWAP_LE_BE (t);
      break;
    }
    case GST_CTF_RUN_S16_SWAP:{
      guint16 t;

      memcpy (&t, p, 2);
      v = (guint64) (gint64) (gint16) GUINT16_SWAP_LE_BE (t);
      break;
    }
    case GST_CTF_RUN_U32_SWAP:{
      guint32 t;

      memcpy (&t, p, 4);
      v = GUINT32_SWAP_LE_BE (t);
      break;
    }
    case GST_CTF_RUN_S32_SWAP:{
      guint32 t;

      memcpy (&t, p, 4);
      v = (guint64) (gint64) (gint32) GUINT32_SWAP_LE_BE (t);
      break;
    }
    case GST_CTF_RUN_U64_SWAP:
      memcpy (&v, p, 8);
      v = GUINT64_SWAP_LE_BE (v);
      break;
    case GST_CTF_RUN_F32:
    case GST_CTF_RUN_F32_SWAP:{
      guint32 b;
      gfloat f;

      memcpy (&b, p, 4);
      if (kind == GST_CTF_RUN_F32_SWAP)
        b = GUINT32_SWAP_LE_BE (b);
      memcpy (&f, &b, 4);
      fv->v.d = f;
      return 0;
    }
    case GST_CTF_RUN_F64:
    case GST_CTF_RUN_F64_SWAP:
      memcpy (&v, p, 8);
      if (kind == GST_CTF_RUN_F64_SWAP)
        v = GUINT64_SWAP_LE_BE (v);
      memcpy (&fv->v.d, &v, 8);
      return 0;
    case GST_CTF_RUN_TEXT:
      fv->v.s.ptr = (const gchar *) p;
      fv->v.s.len = (guint32) value;
      return 0;
    default:                   /* GST_CTF_RUN_CONST */
      v = value;
      break;
  }
  fv->v.u = v;
  return v;
}

/* Bytes a scalar element kind takes. */
static inline guint
elem_bytes (guint kind)
{
  static const guint8 sizes[] = {
    [GST_CTF_RUN_U8] = 1,[GST_CTF_RUN_S8] = 1,
    [GST_CTF_RUN_U16] = 2,[GST_CTF_RUN_S16] = 2,
    [GST_CTF_RUN_U32] = 4,[GST_CTF_RUN_S32] = 4,[GST_CTF_RUN_U64] = 8,
    [GST_CTF_RUN_U16_SWAP] = 2,[GST_CTF_RUN_S16_SWAP] = 2,
    [GST_CTF_RUN_U32_SWAP] = 4,[GST_CTF_RUN_S32_SWAP] = 4,
    [GST_CTF_RUN_U64_SWAP] = 8,
    [GST_CTF_RUN_F32] = 4,[GST_CTF_RUN_F64] = 8,
    [GST_CTF_RUN_F32_SWAP] = 4,[GST_CTF_RUN_F64_SWAP] = 8,
  };

  return kind < G_N_ELEMENTS (sizes) ? sizes[kind] : 0;
}

static gboolean int_effects (GstCtfDecodeCtx * ctx, const GstCtfOp * op,
    guint64 v, guint64 field_pos, GError ** error);

static inline guint16
rd16 (const guint8 * p)
{
  guint16 t;

  memcpy (&t, p, 2);
  return t;
}

static inline guint32
rd32 (const guint8 * p)
{
  guint32 t;

  memcpy (&t, p, 4);
  return t;
}

static inline guint64
rd64 (const guint8 * p)
{
  guint64 t;

  memcpy (&t, p, 8);
  return t;
}

static inline gdouble
f32_bits (guint32 b)
{
  gfloat f;

  memcpy (&f, &b, 4);
  return f;
}

static inline gdouble
f64_bits (guint64 b)
{
  gdouble d;

  memcpy (&d, &b, 8);
  return d;
}

/* The option of variant @op selected by its tag, or G_MAXUINT32 (also
 * for a bad slot). */
static inline guint32
variant_option (const GstCtfDecodeCtx * ctx, const GstCtfOp * op)
{
  guint64 tag;
  guint32 r;

  if (G_UNLIKELY ((guint) op->ref_slot >= ctx->n_slots))
    return G_MAXUINT32;
  tag = ctx->slots[op->ref_slot];
  for (r = 0; r < op->n_ranges; r++) {
    const GstCtfVariantRange *vr = &op->ranges[r];

    if (op->tag_signed ? ((gint64) tag >= (gint64) vr->lower &&
            (gint64) tag <= (gint64) vr->upper)
        : (tag >= vr->lower && tag <= vr->upper))
      return vr->option;
  }
  return G_MAXUINT32;
}

/* An integer of kind @kind at @p, as a run records it. */
static inline guint64
load_int (guint kind, const guint8 * p)
{
  switch (kind) {
    case GST_CTF_RUN_U8:
      return p[0];
    case GST_CTF_RUN_S8:
      return (guint64) (gint64) (gint8) p[0];
    case GST_CTF_RUN_U16:
      return rd16 (p);
    case GST_CTF_RUN_S16:
      return (guint64) (gint64) (gint16) rd16 (p);
    case GST_CTF_RUN_U32:
      return rd32 (p);
    case GST_CTF_RUN_S32:
      return (guint64) (gint64) (gint32) rd32 (p);
    case GST_CTF_RUN_U16_SWAP:
      return GUINT16_SWAP_LE_BE (rd16 (p));
    case GST_CTF_RUN_S16_SWAP:
      return (guint64) (gint64) (gint16) GUINT16_SWAP_LE_BE (rd16 (p));
    case GST_CTF_RUN_U32_SWAP:
      return GUINT32_SWAP_LE_BE (rd32 (p));
    case GST_CTF_RUN_S32_SWAP:
      return (guint64) (gint64) (gint32) GUINT32_SWAP_LE_BE (rd32 (p));
    case GST_CTF_RUN_U64_SWAP:
      return GUINT64_SWAP_LE_BE (rd64 (p));
    default:
      return rd64 (p);
  }
}

/* For a run ending with a variant whose tag it reads: the run joined
 * with the selected option's (GstCtfRun.flat), found by reading the tag
 * first; else @run. */
static inline const GstCtfRun *
run_pick (const GstCtfRun * run, const GstCtfDecodeCtx * ctx, guint64 pos)
{
  const GstCtfOp *v = run->tail_op;
  guint64 tag;
  guint32 r;

  if (run->flat == NULL || pos + run->bits0 > ctx->limit ||
      (guint) v->ref_slot >= ctx->n_slots)
    return run;
  tag = load_int (run->tag_kind, ctx->data + (pos >> 3) + run->tag_byte_off);
  for (r = 0; r < v->n_ranges; r++) {
    const GstCtfVariantRange *vr = &v->ranges[r];

    if (v->tag_signed ? ((gint64) tag >= (gint64) vr->lower &&
            (gint64) tag <= (gint64) vr->upper)
        : (tag >= vr->lower && tag <= vr->upper))
      return vr->option < v->n_children ? run->flat[vr->option] : run;
  }
  return run;
}

/* For an event header that is one run @run, at @pos (aligned): the run
 * that decodes it (*@picked: @run or, for a header ending with a
 * variant, the one of the option its tag selects, GstCtfRun.flat) and
 * the event class id that run reads (*@id), known before the run is
 * decoded.  FALSE when it does not fit, no option is selected or the id
 * is not at a fixed place. */
static inline gboolean
run_pick_event (const GstCtfRun * run, const GstCtfDecodeCtx * ctx,
    guint64 pos, const GstCtfRun ** picked, guint64 * id)
{
  const guint8 *p = ctx->data + (pos >> 3);
  const GstCtfRun *r = run;

  if (run->flat != NULL) {
    const GstCtfOp *v = run->tail_op;
    guint64 tag;
    guint32 k;

    if (pos + run->bits0 > ctx->limit ||
        (guint) v->ref_slot >= ctx->n_slots)
      return FALSE;
    tag = load_int (run->tag_kind, p + run->tag_byte_off);
    for (k = 0; k < v->n_ranges; k++) {
      const GstCtfVariantRange *vr = &v->ranges[k];

      if (v->tag_signed ? ((gint64) tag >= (gint64) vr->lower &&
              (gint64) tag <= (gint64) vr->upper)
          : (tag >= vr->lower && tag <= vr->upper)) {
        if (vr->option >= v->n_children)
          return FALSE;
        r = run->flat[vr->option];
        break;
      }
    }
    if (r == run || pos + r->bits0 > ctx->limit)
      return FALSE;
    /* the tag is the id (LTTng's compact form) */
    if (r->id_byte_off == run->tag_byte_off && r->id_kind == run->tag_kind) {
      *picked = r;
      *id = tag;
      return TRUE;
    }
  } else if (r->tail_item >= 0 || pos + r->bits0 > ctx->limit) {
    return FALSE;
  }
  if (r->id_kind == GST_CTF_RUN_NONE)
    return FALSE;
  *picked = r;
  *id = load_int (r->id_kind, p + r->id_byte_off);
  return TRUE;
}

/* gstctf-plan-exec.c: the op interpreter */
G_GNUC_INTERNAL gboolean _gst_ctf_plan_exec_ops (const GstCtfOp * ops,
    guint n_ops, GstCtfDecodeCtx * ctx, GError ** error);

/* gstctf-plan-run.c: a RUN op inside the interpreter */
G_GNUC_INTERNAL gint _gst_ctf_plan_run_exec_op (const GstCtfRun * run,
    GstCtfDecodeCtx * ctx, guint64 pos, GError ** error);

G_END_DECLS
