/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the interpreter that runs compiled decode plans
 * (gstctf-plan.c) over packet bytes (CTF 1.8 §4, §4.1.5 bit order, §7.3
 * dynamic lengths and tags, §8 clock updates).
 */
#include "gstctf-plan.h"

#include <string.h>

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
static guint64
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
static guint64
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

static void
set_overrun_error (GstCtfDecodeCtx * ctx, guint64 pos, guint64 need,
    const GstCtfOp * op, GError ** error)
{
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
      "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, field `%s` "
      "needs %" G_GUINT64_FORMAT " bits but the content ends at %"
      G_GUINT64_FORMAT " bits", ctx->scope_name ? ctx->scope_name : "field",
      pos, op->name ? op->name : "(unnamed)", need, ctx->limit);
}

static gboolean G_GNUC_NO_INLINE
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

static gboolean
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
static gboolean
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
      (op->kind == GST_CTF_OP_SEQUENCE || op->kind == GST_CTF_OP_TEXT_SEQUENCE)
      ? "sequence" : "array", op->name ? op->name : "(unnamed)", n,
      op->min_elem_bits, rem);
  return FALSE;
}

/* Room for @n more values without an error (the caller falls back to
 * field-by-field decoding, which reports the limit). */
static gboolean G_GNUC_NO_INLINE
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


/* The reads of a run segment: @l to @l_end at @base into the values at
 * @fv0.  With GCC each kind jumps to the next one's code (one indirect
 * jump per kind, better predicted than one shared switch). */
static void G_GNUC_NO_INLINE
run_loads (const GstCtfRunLoad * l, const GstCtfRunLoad * l_end,
    const guint8 * base, GstCtfFieldValue * fv0)
{
#if defined(__GNUC__)
  static const void *const jump[GST_CTF_RUN_DYN] = {
    [GST_CTF_RUN_NONE] = &&done,
    [GST_CTF_RUN_U8] = &&u8,[GST_CTF_RUN_S8] = &&s8,
    [GST_CTF_RUN_U16] = &&u16,[GST_CTF_RUN_S16] = &&s16,
    [GST_CTF_RUN_U32] = &&u32,[GST_CTF_RUN_S32] = &&s32,
    [GST_CTF_RUN_U64] = &&u64,
    [GST_CTF_RUN_U16_SWAP] = &&u16s,[GST_CTF_RUN_S16_SWAP] = &&s16s,
    [GST_CTF_RUN_U32_SWAP] = &&u32s,[GST_CTF_RUN_S32_SWAP] = &&s32s,
    [GST_CTF_RUN_U64_SWAP] = &&u64s,
    [GST_CTF_RUN_F32] = &&f32,[GST_CTF_RUN_F64] = &&f64,
    [GST_CTF_RUN_F32_SWAP] = &&f32s,[GST_CTF_RUN_F64_SWAP] = &&f64s,
    [GST_CTF_RUN_TEXT] = &&text,
  };
  const guint8 *p;
  GstCtfFieldValue *fv;

#define RUN_AT() \
  p = base + l->byte_off; \
  fv = (GstCtfFieldValue *) ((guint8 *) fv0 + l->val_off)
#define RUN_NEXT() \
  if (++l < l_end) \
    goto *jump[l->kind]; \
  return

  goto *jump[l->kind];
u8:
  RUN_AT ();
  fv->v.u = p[0];
  RUN_NEXT ();
s8:
  RUN_AT ();
  fv->v.i = (gint8) p[0];
  RUN_NEXT ();
u16:
  RUN_AT ();
  fv->v.u = rd16 (p);
  RUN_NEXT ();
s16:
  RUN_AT ();
  fv->v.i = (gint16) rd16 (p);
  RUN_NEXT ();
u32:
  RUN_AT ();
  fv->v.u = rd32 (p);
  RUN_NEXT ();
s32:
  RUN_AT ();
  fv->v.i = (gint32) rd32 (p);
  RUN_NEXT ();
u64:
  RUN_AT ();
  fv->v.u = rd64 (p);
  RUN_NEXT ();
u16s:
  RUN_AT ();
  fv->v.u = GUINT16_SWAP_LE_BE (rd16 (p));
  RUN_NEXT ();
s16s:
  RUN_AT ();
  fv->v.i = (gint16) GUINT16_SWAP_LE_BE (rd16 (p));
  RUN_NEXT ();
u32s:
  RUN_AT ();
  fv->v.u = GUINT32_SWAP_LE_BE (rd32 (p));
  RUN_NEXT ();
s32s:
  RUN_AT ();
  fv->v.i = (gint32) GUINT32_SWAP_LE_BE (rd32 (p));
  RUN_NEXT ();
u64s:
  RUN_AT ();
  fv->v.u = GUINT64_SWAP_LE_BE (rd64 (p));
  RUN_NEXT ();
f32:
  RUN_AT ();
  fv->v.d = f32_bits (rd32 (p));
  RUN_NEXT ();
f64:
  RUN_AT ();
  fv->v.d = f64_bits (rd64 (p));
  RUN_NEXT ();
f32s:
  RUN_AT ();
  fv->v.d = f32_bits (GUINT32_SWAP_LE_BE (rd32 (p)));
  RUN_NEXT ();
f64s:
  RUN_AT ();
  fv->v.d = f64_bits (GUINT64_SWAP_LE_BE (rd64 (p)));
  RUN_NEXT ();
text:
  RUN_AT ();
  fv->v.s.ptr = (const gchar *) p;
  RUN_NEXT ();
done:
  return;
#undef RUN_AT
#undef RUN_NEXT
#else
  for (; l < l_end; l++) {
    const guint8 *p = base + l->byte_off;
    GstCtfFieldValue *fv = (GstCtfFieldValue *) ((guint8 *) fv0 +
        l->val_off);

    switch (l->kind) {
      case GST_CTF_RUN_U8:
        fv->v.u = p[0];
        break;
      case GST_CTF_RUN_S8:
        fv->v.i = (gint8) p[0];
        break;
      case GST_CTF_RUN_U16:
        fv->v.u = rd16 (p);
        break;
      case GST_CTF_RUN_S16:
        fv->v.i = (gint16) rd16 (p);
        break;
      case GST_CTF_RUN_U32:
        fv->v.u = rd32 (p);
        break;
      case GST_CTF_RUN_S32:
        fv->v.i = (gint32) rd32 (p);
        break;
      case GST_CTF_RUN_U64:
        fv->v.u = rd64 (p);
        break;
      case GST_CTF_RUN_U16_SWAP:
        fv->v.u = GUINT16_SWAP_LE_BE (rd16 (p));
        break;
      case GST_CTF_RUN_S16_SWAP:
        fv->v.i = (gint16) GUINT16_SWAP_LE_BE (rd16 (p));
        break;
      case GST_CTF_RUN_U32_SWAP:
        fv->v.u = GUINT32_SWAP_LE_BE (rd32 (p));
        break;
      case GST_CTF_RUN_S32_SWAP:
        fv->v.i = (gint32) GUINT32_SWAP_LE_BE (rd32 (p));
        break;
      case GST_CTF_RUN_U64_SWAP:
        fv->v.u = GUINT64_SWAP_LE_BE (rd64 (p));
        break;
      case GST_CTF_RUN_F32:
        fv->v.d = f32_bits (rd32 (p));
        break;
      case GST_CTF_RUN_F64:
        fv->v.d = f64_bits (rd64 (p));
        break;
      case GST_CTF_RUN_F32_SWAP:
        fv->v.d = f32_bits (GUINT32_SWAP_LE_BE (rd32 (p)));
        break;
      case GST_CTF_RUN_F64_SWAP:
        fv->v.d = f64_bits (GUINT64_SWAP_LE_BE (rd64 (p)));
        break;
      case GST_CTF_RUN_TEXT:
        fv->v.s.ptr = (const gchar *) p;
        break;
      default:
        /* the compiler makes no other kind of read */
        g_assert_not_reached ();
    }
  }
#endif
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

  if (run->flat == NULL || pos + run->segs[0].bits > ctx->limit ||
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

/* Reads and side effects of run segment @sg at bit @pos (aligned, its
 * static bits checked); FALSE when a side effect failed. */
static inline gboolean run_seg (const GstCtfRunSeg * sg,
    GstCtfDecodeCtx * ctx, GstCtfFieldValue * fv0, guint64 pos,
    GError ** error) RUN_ALWAYS_INLINE;

static inline gboolean
run_seg (const GstCtfRunSeg * sg, GstCtfDecodeCtx * ctx,
    GstCtfFieldValue * fv0, guint64 pos, GError ** error)
{
  const GstCtfRunEffect *fx, *fx_end;

  if (sg->loads != sg->loads_end)
    run_loads (sg->loads, sg->loads_end, ctx->data + (pos >> 3), fv0);
  fx_end = sg->fx_end;
  for (fx = sg->fx; fx < fx_end; fx++) {
    guint64 v = fv0[fx->item].v.u;

    switch (fx->fast) {
      case GST_CTF_RUN_FX_SLOT:
        if ((guint) fx->op.slot < ctx->n_slots)
          ctx->slots[fx->op.slot] = v;
        break;
      case GST_CTF_RUN_FX_CLOCK:
        update_clock (ctx, v, fx->op.size);
        break;
      case GST_CTF_RUN_FX_EVENT_ID:
        if ((fx->op.flags & GST_CTF_OP_F_SLOT) &&
            (guint) fx->op.slot < ctx->n_slots)
          ctx->slots[fx->op.slot] = v;
        ctx->seen_meanings |= 1u << GST_CTF_MEANING_EVENT_CLASS_ID;
        ctx->event_class_id = v;
        ctx->has_event_class_id = TRUE;
        break;
      default:
        if (!int_effects (ctx, &fx->op, v, pos + fx->bit_off, error))
          return FALSE;
        break;
    }
  }
  return TRUE;
}

/* The segments after the first (CTF 1.8 §4.2.5 strings and text
 * sequences between them) of a run at bit @pos (the first segment's
 * end): 1 when done (*@pos_out: the run's end), 0 when they do not fit,
 * -1 on error. */
static gint G_GNUC_NO_INLINE
run_segs (const GstCtfRun * run, GstCtfDecodeCtx * ctx,
    GstCtfFieldValue * fv0, guint64 pos, guint64 * pos_out, GError ** error)
{
  const GstCtfRunSeg *sg, *sg_end = run->segs + run->n_segs;

  for (sg = run->segs; sg + 1 < sg_end; sg++) {
    /* the string or text sequence that ends the segment */
    pos = align_up (pos, sg->dyn_align);
    /* a string takes a byte at least (an empty text sequence right at
     * the end goes field by field) */
    if (G_UNLIKELY (pos >= ctx->limit))
      return 0;
    if (sg->dyn_kind == GST_CTF_OP_STRING) {
      /* CTF 1.8 §4.2.5: NUL-terminated, within the content */
      const guint8 *sp = ctx->data + (pos >> 3);
      const guint8 *nul = memchr (sp, 0, (ctx->limit - pos) >> 3);

      if (G_UNLIKELY (nul == NULL))
        return 0;
      fv0[sg->dyn_item].v.s.ptr = (const gchar *) sp;
      fv0[sg->dyn_item].v.s.len = (guint32) MIN ((guint64) (nul - sp),
          G_MAXUINT32);
      pos += (guint64) (nul - sp + 1) * 8;
    } else {
      guint64 len;

      if (G_UNLIKELY ((guint) sg->dyn_slot >= ctx->n_slots))
        return 0;
      len = ctx->slots[sg->dyn_slot];
      /* bytes within the content (as check_count() for 8-bit
       * elements) */
      if (G_UNLIKELY (len > (ctx->limit - pos) / 8 || len > G_MAXUINT32))
        return 0;
      fv0[sg->dyn_item].v.s.ptr = (const gchar *) ctx->data + (pos >> 3);
      fv0[sg->dyn_item].v.s.len = (guint32) len;
      pos += len * 8;
    }
    /* the next segment */
    pos = align_up (pos, sg[1].align);
    if (G_UNLIKELY (pos + sg[1].bits > ctx->limit))
      return 0;
    if (!run_seg (&sg[1], ctx, fv0, pos, error))
      return -1;
    pos += sg[1].bits;
  }
  *pos_out = pos;
  return 1;
}

/* Tails of tails decoded in one go; deeper ones are decoded field by
 * field. */
#define RUN_MAX_TAILS 8

/* The values and fields of run @run (without its tail) at bit @pos
 * (aligned for it); sets ctx->pos to its end.  1: done, 0: does not fit
 * (values->len is left past the run: the caller resets it), -1: error. */
static inline gint run_body (const GstCtfRun * run, GstCtfDecodeCtx * ctx,
    guint64 pos, gboolean in_place, GError ** error)
    RUN_ALWAYS_INLINE;

static inline gint
run_body (const GstCtfRun * run, GstCtfDecodeCtx * ctx, guint64 pos,
    gboolean in_place, GError ** error)
{
  GstCtfValueBuf *values = ctx->values;
  GstCtfFieldValue *fv0;
  guint idx0 = values->len, n = run->n_items, k;

  if (in_place) {
    /* same layout as the previous event at the same place: only the
     * reads change */
    fv0 = values->v + idx0;
  } else {
    if (G_UNLIKELY (values->cap - idx0 < n) && !reserve_values (values, n))
      return 0;
    fv0 = values->v + idx0;
    memcpy (fv0, run->tmpl, n * sizeof (GstCtfFieldValue));
    if (idx0 != 0) {
      for (k = 0; k < n; k++)
        fv0[k].end += idx0;
    }
  }
  values->len = idx0 + n;

  /* the first segment: the caller aligned @pos */
  if (G_UNLIKELY (pos + run->segs[0].bits > ctx->limit))
    return 0;
  if (!run_seg (&run->segs[0], ctx, fv0, pos, error))
    return -1;
  pos += run->segs[0].bits;
  if (G_UNLIKELY (run->n_segs > 1)) {
    gint r = run_segs (run, ctx, fv0, pos, &pos, error);

    if (r <= 0)
      return r;
  }
  ctx->pos = pos;
  return 1;
}

/* run_exec() for a run ending with a variant: the selected option's
 * run follows, and so on. */
static gint G_GNUC_NO_INLINE
run_exec_tails (const GstCtfRun * run, GstCtfDecodeCtx * ctx, guint64 pos,
    gboolean in_place, GError ** error)
{
  GstCtfValueBuf *values = ctx->values;
  struct {
    const GstCtfRun *run;
    guint idx0;
    guint32 opt;
  } tails[RUN_MAX_TAILS];
  guint n_tails = 0, top = values->len, k;

  for (;;) {
    guint idx0 = values->len;
    guint32 opt;
    gint r = run_body (run, ctx, pos, in_place, error);

    if (r < 0)
      return -1;
    if (r == 0)
      goto no_fit;
    if (run->tail_item < 0)
      break;

    /* a variant ends the run: the selected option's run follows */
    opt = variant_option (ctx, run->tail_op);
    if (G_UNLIKELY (opt >= run->tail_op->n_children ||
            n_tails == RUN_MAX_TAILS))
      goto no_fit;
    tails[n_tails].run = run;
    tails[n_tails].idx0 = idx0;
    tails[n_tails].opt = opt;
    n_tails++;
    run = run->tail_runs[opt];
    /* the option's template is still in place after the run's when the
     * run's is and the same option was decoded last (only for the first
     * tail: tail_owner is that one) */
    in_place = in_place && n_tails == 1 && values->tail_owner == run;
    pos = align_up (ctx->pos, run->orig.align);
  }

  if (n_tails > 0) {
    guint len = values->len;

    /* the variants and the structures around them end with the last
     * option */
    for (k = 0; k < n_tails; k++) {
      const GstCtfRun *r = tails[k].run;
      GstCtfFieldValue *v0 = values->v + tails[k].idx0;
      guint j;

      v0[r->tail_item].v.u = tails[k].opt;
      v0[r->tail_item].end = len;
      for (j = 0; j < r->n_open; j++)
        v0[r->open[j]].end = len;
    }
    values->tail_owner = tails[0].run->tail_runs[tails[0].opt];
  }
  return 1;

no_fit:
  values->len = top;
  values->tail_owner = NULL;
  return 0;
}

/* Decodes run @run at bit @pos (aligned for it) and, when it ends with a
 * variant, the run of the selected option, and so on; sets ctx->pos to
 * the end.  @in_place: @run's template is already at ctx->values' end.
 * Returns 1 when done, 0 when it does not fit (no value recorded: the
 * caller decodes field by field; side effects may have been applied,
 * which is harmless as applying them again gives the same state), -1 on
 * error (a side effect failed). */
static inline gint run_exec (const GstCtfRun * run,
    GstCtfDecodeCtx * ctx, guint64 pos, gboolean in_place, GError ** error)
    RUN_ALWAYS_INLINE;

static inline gint
run_exec (const GstCtfRun * run, GstCtfDecodeCtx * ctx, guint64 pos,
    gboolean in_place, GError ** error)
{
  GstCtfValueBuf *values = ctx->values;
  guint top;
  gint r;

  if (G_UNLIKELY (values == NULL))
    return 0;
  if (G_UNLIKELY (run->tail_item >= 0))
    return run_exec_tails (run, ctx, pos, in_place, error);
  top = values->len;
  r = run_body (run, ctx, pos, in_place, error);
  if (G_UNLIKELY (r == 0)) {
    values->len = top;
    values->tail_owner = NULL;
  }
  return r;
}

/* For RUN ops inside the interpreter. */
static gint G_GNUC_NO_INLINE
run_exec_op (const GstCtfRun * run, GstCtfDecodeCtx * ctx, guint64 pos,
    GError ** error)
{
  return run_exec (run_pick (run, ctx, pos), ctx, pos, FALSE, error);
}

#undef RUN_LOADS

/* int_effects() with the common cases in line: a value slot alone (a
 * sequence length, a variant tag), a clock update alone (a timestamp),
 * the event class id. */
static inline gboolean
apply_effects (GstCtfDecodeCtx * ctx, const GstCtfOp * op, guint64 v,
    guint64 field_pos, GError ** error)
{
  guint f = op->flags & GST_CTF_OP_F_EFFECTS;

  if (f == GST_CTF_OP_F_SLOT) {
    if ((guint) op->slot < ctx->n_slots)
      ctx->slots[op->slot] = v;
    return TRUE;
  }
  if (f == GST_CTF_OP_F_CLOCK) {
    update_clock (ctx, v, op->size);
    return TRUE;
  }
  if ((f & GST_CTF_OP_F_CLOCK) == 0 &&
      op->meaning == GST_CTF_MEANING_EVENT_CLASS_ID) {
    if ((f & GST_CTF_OP_F_SLOT) && (guint) op->slot < ctx->n_slots)
      ctx->slots[op->slot] = v;
    ctx->seen_meanings |= 1u << GST_CTF_MEANING_EVENT_CLASS_ID;
    ctx->event_class_id = v;
    ctx->has_event_class_id = TRUE;
    return TRUE;
  }
  return int_effects (ctx, op, v, field_pos, error);
}

/* A pending array/sequence element range or selected variant option:
 * the interpreter walks op ranges with this explicit stack instead of
 * recursing (no call per element or option). */
typedef struct {
  guint64 remaining;            /* elements left after the current one */
  guint32 body;                 /* first op of the element range */
  guint32 end;                  /* end of the range being run */
  guint32 ret;                  /* op to continue at when done */
  guint32 outer_end;            /* end of the enclosing range */
  guint32 vidx;                 /* recorded value to close, or G_MAXUINT32 */
} Frame;

static gboolean
exec_ops (const GstCtfOp * ops, guint n_ops, GstCtfDecodeCtx * ctx,
    GError ** error)
{
  const guint8 *data = ctx->data;
  const guint64 limit = ctx->limit;
  GstCtfValueBuf *values = ctx->values;
  guint64 cur = ctx->pos;
  guint i = 0, end = n_ops;
  Frame stack[GST_CTF_PLAN_MAX_DEPTH + 2];
  guint sp = 0;
  guint32 open[GST_CTF_PLAN_MAX_DEPTH + 2];     /* recorded structures
                                                 * not closed yet */
  guint osp = 0;
  /* every element iteration consumes a bit, except zero-size ones: all
   * iterations together are bounded by the bits left plus this many */
  guint64 iter_budget = (limit - MIN (cur, limit)) +
      GST_CTF_PLAN_MAX_EMPTY_ITERATIONS;

  for (;;) {
    const GstCtfOp *op;
    guint64 pos, v;

    if (G_UNLIKELY (i >= end)) {
      Frame *f;

      if (sp == 0)
        break;
      f = &stack[sp - 1];
      if (f->remaining > 0) {
        if (G_UNLIKELY (iter_budget == 0)) {
          ctx->pos = cur;
          g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
              "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, arrays "
              "of empty elements repeat more than %u times",
              ctx->scope_name ? ctx->scope_name : "field", cur,
              GST_CTF_PLAN_MAX_EMPTY_ITERATIONS);
          return FALSE;
        }
        iter_budget--;
        f->remaining--;
        i = f->body;
        continue;
      }
      if (values && f->vidx != G_MAXUINT32)
        values->v[f->vidx].end = values->len;
      i = f->ret;
      end = f->outer_end;
      sp--;
      continue;
    }

    op = &ops[i];
    pos = align_up (cur, op->align);

  dispatch:
    switch (op->kind) {
      case GST_CTF_OP_RUN:{
        gint r;

        ctx->pos = cur;
        r = run_exec_op (op->run, ctx, pos, error);
        if (G_UNLIKELY (r <= 0)) {
          if (r < 0)
            return FALSE;
          /* field by field, with the errors of that path */
          op = &op->run->orig;
          goto dispatch;
        }
        cur = ctx->pos;
        i = op->next;
        continue;
      }
      case GST_CTF_OP_INT8:
        if (G_UNLIKELY (pos + 8 > limit))
          goto overrun;
        v = data[pos >> 3];
        if (op->flags & GST_CTF_OP_F_SIGNED)
          v = (guint64) (gint64) (gint8) v;
        goto int_done;
      case GST_CTF_OP_INT16:{
        guint16 t;

        if (G_UNLIKELY (pos + 16 > limit))
          goto overrun;
        memcpy (&t, data + (pos >> 3), 2);
        v = (op->flags & GST_CTF_OP_F_SIGNED) ?
            (guint64) (gint64) (gint16) t : t;
        goto int_done;
      }
      case GST_CTF_OP_INT32:{
        guint32 t;

        if (G_UNLIKELY (pos + 32 > limit))
          goto overrun;
        memcpy (&t, data + (pos >> 3), 4);
        v = (op->flags & GST_CTF_OP_F_SIGNED) ?
            (guint64) (gint64) (gint32) t : t;
        goto int_done;
      }
      case GST_CTF_OP_INT64:
        if (G_UNLIKELY (pos + 64 > limit))
          goto overrun;
        memcpy (&v, data + (pos >> 3), 8);
        goto int_done;
      case GST_CTF_OP_INT16_SWAP:{
        guint16 t;

        if (G_UNLIKELY (pos + 16 > limit))
          goto overrun;
        memcpy (&t, data + (pos >> 3), 2);
        t = GUINT16_SWAP_LE_BE (t);
        v = (op->flags & GST_CTF_OP_F_SIGNED) ?
            (guint64) (gint64) (gint16) t : t;
        goto int_done;
      }
      case GST_CTF_OP_INT32_SWAP:{
        guint32 t;

        if (G_UNLIKELY (pos + 32 > limit))
          goto overrun;
        memcpy (&t, data + (pos >> 3), 4);
        t = GUINT32_SWAP_LE_BE (t);
        v = (op->flags & GST_CTF_OP_F_SIGNED) ?
            (guint64) (gint64) (gint32) t : t;
        goto int_done;
      }
      case GST_CTF_OP_INT64_SWAP:
        if (G_UNLIKELY (pos + 64 > limit))
          goto overrun;
        memcpy (&v, data + (pos >> 3), 8);
        v = GUINT64_SWAP_LE_BE (v);
        goto int_done;
      case GST_CTF_OP_INT:
        if (G_UNLIKELY (pos + op->size > limit))
          goto overrun;
        if (op->byte_order == GST_CTF_BYTE_ORDER_LE)
          v = read_bits_le (data, ctx->n_bytes, pos, op->size);
        else
          v = read_bits_be (data, ctx->n_bytes, pos, op->size);
        if (op->flags & GST_CTF_OP_F_SIGNED)
          v = sign_extend (v, op->size);
        goto int_done;

      case GST_CTF_OP_JUMP:
        i = op->next;
        continue;

      case GST_CTF_OP_SKIP:
        if (G_UNLIKELY (pos + op->static_bits > limit)) {
          ctx->pos = cur;
          set_overrun_error (ctx, pos, op->static_bits, op, error);
          return FALSE;
        }
        cur = pos + op->static_bits;
        i++;
        continue;

      case GST_CTF_OP_FLOAT:{
        if (G_UNLIKELY (pos + op->size > limit))
          goto overrun;
        if (op->byte_order == GST_CTF_BYTE_ORDER_LE)
          v = read_bits_le (data, ctx->n_bytes, pos, op->size);
        else
          v = read_bits_be (data, ctx->n_bytes, pos, op->size);
        cur = pos + op->size;
        if (values) {
          GstCtfFieldValue *fv = record (ctx, op, NULL, error);

          if (fv == NULL)
            return FALSE;
          if (op->size == 32) {
            guint32 b = (guint32) v;
            gfloat f;

            memcpy (&f, &b, 4);
            fv->v.d = f;
          } else {
            memcpy (&fv->v.d, &v, 8);
          }
        }
        i++;
        continue;
      }

      case GST_CTF_OP_STRING:{
        const guint8 *s, *nul;
        guint64 max;

        /* CTF 1.8 §4.2.5: NUL-terminated, within the content. */
        if (G_UNLIKELY (pos >= limit || (pos & 7) != 0))
          goto overrun;
        s = data + (pos >> 3);
        max = (limit - pos) >> 3;
        nul = memchr (s, 0, max);
        if (G_UNLIKELY (nul == NULL)) {
          g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
              "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, string "
              "`%s` has no NUL terminator before the content ends at %"
              G_GUINT64_FORMAT " bits",
              ctx->scope_name ? ctx->scope_name : "field", pos,
              op->name ? op->name : "(unnamed)", limit);
          return FALSE;
        }
        cur = pos + (guint64) (nul - s + 1) * 8;
        if (values) {
          GstCtfFieldValue *fv = record (ctx, op, NULL, error);

          if (fv == NULL)
            return FALSE;
          fv->v.s.ptr = (const gchar *) s;
          fv->v.s.len = (guint32) MIN ((guint64) (nul - s), G_MAXUINT32);
        }
        i++;
        continue;
      }

      case GST_CTF_OP_STRUCT_BEGIN:
        cur = pos;
        if (values) {
          guint idx;
          GstCtfFieldValue *fv = record (ctx, op, &idx, error);

          if (fv == NULL)
            return FALSE;
          fv->v.u = op->n_children;
          /* closed by the matching STRUCT_END (structures nest at most
           * GST_CTF_PLAN_MAX_DEPTH deep, the plan was checked) */
          if (G_LIKELY (osp < G_N_ELEMENTS (open)))
            open[osp++] = idx;
        }
        i++;
        continue;

      case GST_CTF_OP_STRUCT_END:
        if (values && osp > 0) {
          osp--;
          values->v[open[osp]].end = values->len;
        }
        i++;
        continue;

      case GST_CTF_OP_TEXT_ARRAY:
      case GST_CTF_OP_TEXT_SEQUENCE:{
        guint64 n;

        if (op->kind == GST_CTF_OP_TEXT_ARRAY) {
          n = op->length;
        } else {
          if (G_UNLIKELY ((guint) op->ref_slot >= ctx->n_slots))
            goto bad_slot;
          n = ctx->slots[op->ref_slot];
        }
        if (G_UNLIKELY (pos > limit))
          goto overrun;
        if (G_UNLIKELY (!check_count (ctx, op, pos, n, error)))
          return FALSE;
        if (values) {
          GstCtfFieldValue *fv = record (ctx, op, NULL, error);

          if (fv == NULL)
            return FALSE;
          if (G_UNLIKELY (n > G_MAXUINT32)) {
            g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
                "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, text "
                "array of %" G_GUINT64_FORMAT " bytes is too long",
                ctx->scope_name ? ctx->scope_name : "field", pos, n);
            return FALSE;
          }
          fv->v.s.ptr = (const gchar *) data + (pos >> 3);
          fv->v.s.len = (guint32) n;
        }
        cur = pos + n * 8;
        i++;
        continue;
      }

      case GST_CTF_OP_ARRAY:
      case GST_CTF_OP_SEQUENCE:{
        guint64 n;
        guint32 vidx = G_MAXUINT32;

        if (op->kind == GST_CTF_OP_ARRAY) {
          n = op->length;
        } else {
          if (G_UNLIKELY ((guint) op->ref_slot >= ctx->n_slots))
            goto bad_slot;
          n = ctx->slots[op->ref_slot];
        }
        if (G_UNLIKELY (pos > limit))
          goto overrun;
        if (G_UNLIKELY (!check_count (ctx, op, pos, n, error)))
          return FALSE;
        cur = pos;
        if (G_UNLIKELY (op->meaning == GST_CTF_MEANING_UUID) && ctx->info &&
            n == 16 && (pos & 7) == 0 && op->stride == 8) {
          memcpy (ctx->info->uuid, data + (pos >> 3), 16);
          ctx->info->has_uuid = TRUE;
        }
        if (values && op->elem_kind != GST_CTF_RUN_NONE && n < G_MAXUINT32
            && (values->cap - values->len > n ||
                reserve_values (values, (guint) n + 1))) {
          /* packed scalars: check_count() bounded n * size by the bits
           * left, and the array is aligned for its elements */
          const GstCtfOp *el = &ops[i + 1];
          const guint8 *p = data + (pos >> 3);
          guint eb = elem_bytes (op->elem_kind);
          guint idx0 = values->len, k;
          GstCtfFieldValue *fv = values->v + idx0;

          fv->fc = op->fc;
          fv->name = op->name;
          fv->end = idx0 + 1 + (guint) n;
          fv->v.u = n;
          fv++;
          for (k = 0; k < n; k++, fv++, p += eb) {
            fv->fc = el->fc;
            fv->name = el->name;
            fv->end = idx0 + 2 + k;
            load_item (op->elem_kind, p, 0, fv);
          }
          values->len = idx0 + 1 + (guint) n;
          cur = pos + n * eb * 8;
          i = op->next;
          continue;
        }
        if (values) {
          guint idx;
          GstCtfFieldValue *fv = record (ctx, op, &idx, error);

          if (fv == NULL)
            return FALSE;
          fv->v.u = n;
          vidx = idx;
        } else if (op->stride) {
          /* Static, effect-free elements: skip them all (the count was
           * checked against the bits left; the end is checked here). */
          if (n > 0) {
            guint64 end_pos = pos + (n - 1) * op->stride +
                ops[i + 1].static_bits;

            if (G_UNLIKELY (end_pos > limit)) {
              ctx->pos = cur;
              set_overrun_error (ctx, pos, end_pos - pos, op, error);
              return FALSE;
            }
            cur = end_pos;
          }
          i = op->next;
          continue;
        }
        if (n == 0) {
          i = op->next;
          continue;
        }
        stack[sp].remaining = n - 1;
        stack[sp].body = i + 1;
        stack[sp].end = op->next;
        stack[sp].ret = op->next;
        stack[sp].outer_end = end;
        stack[sp].vidx = vidx;
        sp++;
        end = op->next;
        i = i + 1;
        continue;
      }

      case GST_CTF_OP_VARIANT:{
        guint64 tag;
        guint32 r, opt = G_MAXUINT32;
        guint32 vidx = G_MAXUINT32;

        if (G_UNLIKELY ((guint) op->ref_slot >= ctx->n_slots))
          goto bad_slot;
        tag = ctx->slots[op->ref_slot];
        for (r = 0; r < op->n_ranges; r++) {
          const GstCtfVariantRange *vr = &op->ranges[r];

          if (op->tag_signed ? ((gint64) tag >= (gint64) vr->lower &&
                  (gint64) tag <= (gint64) vr->upper)
              : (tag >= vr->lower && tag <= vr->upper)) {
            opt = vr->option;
            break;
          }
        }
        if (G_UNLIKELY (opt == G_MAXUINT32)) {
          g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
              "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, variant "
              "`%s` has no option for tag value %" G_GINT64_FORMAT,
              ctx->scope_name ? ctx->scope_name : "field", pos,
              op->name ? op->name : "(unnamed)", (gint64) tag);
          return FALSE;
        }
        cur = pos;
        if (!values) {
          /* fast plan: the option's ops end with a JUMP past the
           * variant */
          i = op->options[opt];
          continue;
        } else {
          guint idx;
          GstCtfFieldValue *fv = record (ctx, op, &idx, error);

          if (fv == NULL)
            return FALSE;
          fv->v.u = opt;
          vidx = idx;
        }
        stack[sp].remaining = 0;
        stack[sp].body = op->options[opt];
        stack[sp].end = op->option_ends[opt];
        stack[sp].ret = op->next;
        stack[sp].outer_end = end;
        stack[sp].vidx = vidx;
        sp++;
        end = op->option_ends[opt];
        i = op->options[opt];
        continue;
      }

      default:
        g_assert_not_reached ();
    }

  int_done:
    cur = pos + op->size;
    if (G_UNLIKELY (op->flags & GST_CTF_OP_F_EFFECTS)) {
      if (!apply_effects (ctx, op, v, pos, error))
        return FALSE;
    }
    if (values) {
      GstCtfFieldValue *fv = record (ctx, op, NULL, error);

      if (fv == NULL)
        return FALSE;
      fv->v.u = v;
    }
    i++;
    continue;

  overrun:
    ctx->pos = cur;
    set_overrun_error (ctx, pos, op->kind == GST_CTF_OP_STRING ? 8 :
        op->size ? op->size : 1, op, error);
    return FALSE;

  bad_slot:
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Cannot decode %s: value slot %d of `%s` is out of range",
        ctx->scope_name ? ctx->scope_name : "field", op->ref_slot,
        op->name ? op->name : "(unnamed)");
    return FALSE;
  }
  ctx->pos = cur;
  return TRUE;
}

gboolean
gst_ctf_plan_exec (const GstCtfPlan * plan, GstCtfDecodeCtx * ctx,
    GError ** error)
{
  /* Keep every bit offset far from overflow: limit < 2^60 bits. */
  if (ctx->limit > (G_GUINT64_CONSTANT (1) << 60))
    ctx->limit = G_GUINT64_CONSTANT (1) << 60;
  if (ctx->limit > ctx->n_bytes * 8)
    ctx->limit = ctx->n_bytes * 8;
  return gst_ctf_plan_run (plan, ctx, error);
}

gboolean
gst_ctf_plan_run (const GstCtfPlan * plan, GstCtfDecodeCtx * ctx,
    GError ** error)
{
  if (ctx->values) {
    gboolean ok;

    /* a scope of static layout: no interpreter */
    if (plan->whole_run) {
      guint64 start = ctx->pos;
      guint64 pos = align_up (ctx->pos, plan->ops[0].align);
      const GstCtfRun *run = run_pick (plan->whole_run, ctx, pos);
      gint r = run_exec (run, ctx, pos, ctx->values->len == 0 &&
          ctx->values->tmpl_owner == run, error);

      if (r > 0) {
        ctx->values->tmpl_owner = run;
        return TRUE;
      }
      ctx->values->tmpl_owner = NULL;
      if (r < 0)
        return FALSE;
      ctx->pos = start;
    }
    ok = exec_ops (plan->ops, plan->n_ops, ctx, error);
    /* the interpreter wrote anything anywhere */
    ctx->values->tmpl_owner = NULL;
    return ok;
  }
  return exec_ops (plan->fast_ops, plan->n_fast_ops, ctx, error);
}

gboolean
gst_ctf_plan_run_walk (const GstCtfPlan * plan, GstCtfDecodeCtx * ctx,
    GError ** error)
{
  return exec_ops (plan->fast_ops, plan->n_fast_ops, ctx, error);
}
