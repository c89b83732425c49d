/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the run executor.  A RUN op (GstCtfRun, gstctf-plan.h) decodes
 * fields at fixed offsets from its first one with one bounds check and
 * loads at fixed byte offsets, across strings, text sequences and
 * sequences of packed scalars and into the options of a variant whose tag
 * it reads, and so does an event run (gstctf-plan-event.c).
 * gst_ctf_plan_run() decodes a whole scope of static layout this way and
 * falls back to the op interpreter (gstctf-plan-exec.c) for everything
 * else, so that errors are the interpreter's.
 */
#include "gstctf-plan-exec-private.h"

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

/* The string or text sequence @sg ends with, at bit *@pos (aligned,
 * before the content's end), into @fv; moves *@pos past it.  FALSE when
 * it does not fit. */
static inline gboolean
run_text (const GstCtfRunSeg * sg, const GstCtfDecodeCtx * ctx,
    GstCtfFieldValue * fv, guint64 * pos)
{
  guint64 p = *pos;

  if (sg->dyn_kind == GST_CTF_OP_STRING) {
    /* CTF 1.8 §4.2.5: NUL-terminated, within the content */
    const guint8 *sp = ctx->data + (p >> 3);
    const guint8 *nul = memchr (sp, 0, (ctx->limit - p) >> 3);

    if (G_UNLIKELY (nul == NULL))
      return FALSE;
    fv->v.s.ptr = (const gchar *) sp;
    fv->v.s.len = (guint32) MIN ((guint64) (nul - sp), G_MAXUINT32);
    *pos = p + (guint64) (nul - sp + 1) * 8;
  } else {
    guint64 len;

    if (G_UNLIKELY ((guint) sg->dyn_slot >= ctx->n_slots))
      return FALSE;
    len = ctx->slots[sg->dyn_slot];
    /* bytes within the content (as check_count() for 8-bit elements) */
    if (G_UNLIKELY (len > (ctx->limit - p) / 8 || len > G_MAXUINT32))
      return FALSE;
    fv->v.s.ptr = (const gchar *) ctx->data + (p >> 3);
    fv->v.s.len = (guint32) len;
    *pos = p + len * 8;
  }
  return TRUE;
}

/* Copies template values [@first, @last) of @run to @base (indexed as
 * the template), their ends moved by @add. */
static inline void
copy_tmpl (GstCtfFieldValue * base, const GstCtfRun * run, guint first,
    guint last, guint add)
{
  guint k;

  if (last <= first)
    return;
  memcpy (base + first, run->tmpl + first,
      (last - first) * sizeof (GstCtfFieldValue));
  if (add != 0) {
    for (k = first; k < last; k++)
      base[k].end += add;
  }
}

/* How far the values at template index @t moved: the elements of the
 * sequences before it (@at: their template indexes, @cum: the move
 * after each, @n of them). */
static inline guint
moved_at (const guint32 * at, const guint32 * cum, guint n, guint32 t)
{
  guint m = 0, j;

  for (j = 0; j < n && at[j] < t; j++)
    m = cum[j];
  return m;
}

/* The segments after the first of run @run whose values start at index
 * @idx0 of ctx->values, from bit @pos (the first segment's end): each
 * starts after the string, text sequence (CTF 1.8 §4.2.5) or sequence of
 * scalars (§4.2.4) that ends the one before.  A sequence's elements are
 * values of their own, so with sequences (GstCtfRun.n_seqs) each later
 * segment's values are copied from the template at their moved place and
 * the structures around the sequences get their end last.  1 when done
 * (*@pos_out: the run's end), 0 when they do not fit, -1 on error. */
static gint G_GNUC_NO_INLINE
run_segs (const GstCtfRun * run, GstCtfDecodeCtx * ctx, guint idx0,
    guint64 pos, guint64 * pos_out, GError ** error)
{
  GstCtfValueBuf *values = ctx->values;
  GstCtfFieldValue *fv0 = values->v + idx0;
  guint n = run->n_items, s, k, n_seen = 0;
  guint32 shift = 0, seq_at[GST_CTF_RUN_MAX_SEGS], seq_cum[GST_CTF_RUN_MAX_SEGS];

  for (s = 0; s + 1 < run->n_segs; s++) {
    const GstCtfRunSeg *sg = &run->segs[s], *next = sg + 1;
    GstCtfFieldValue *fv = &fv0[shift + sg->dyn_item];

    /* the string or sequence that ends the segment; it takes a byte at
     * least (an empty one right at the end goes field by field) */
    pos = align_up (pos, sg->dyn_align);
    if (G_UNLIKELY (pos >= ctx->limit))
      return 0;
    if (sg->dyn_kind != GST_CTF_OP_SEQUENCE) {
      if (!run_text (sg, ctx, fv, &pos))
        return 0;
    } else {
      /* the elements, each a value of its own after the sequence's (as
       * the interpreter records them); the count is bounded by the bits
       * left, as check_count() does */
      guint eb = elem_bytes (sg->dyn_elem_kind);
      const guint8 *p = ctx->data + (pos >> 3);
      guint64 len;
      guint e0;

      if (G_UNLIKELY ((guint) sg->dyn_slot >= ctx->n_slots))
        return 0;
      len = ctx->slots[sg->dyn_slot];
      if (G_UNLIKELY (len > (ctx->limit - pos) / (eb * 8) ||
              len > G_MAXUINT32 / 2 - n - shift))
        return 0;
      if (G_UNLIKELY (values->cap - (idx0 + n + shift) < len)) {
        values->len = idx0 + n + shift;
        if (!reserve_values (values, (guint) len))
          return 0;
        fv0 = values->v + idx0;
        fv = &fv0[shift + sg->dyn_item];
      }
      e0 = run->tmpl[sg->dyn_item].end + idx0 + shift;
      fv->v.u = len;
      fv->end = e0 + (guint) len;
      fv++;
      for (k = 0; k < len; k++, fv++, p += eb) {
        fv->fc = sg->dyn_elem_fc;
        fv->name = sg->dyn_elem_name;
        fv->end = e0 + 1 + k;
        load_item (sg->dyn_elem_kind, p, 0, fv);
      }
      pos += len * eb * 8;
      shift += (guint32) len;
      seq_at[n_seen] = sg->dyn_item;
      seq_cum[n_seen] = shift;
      n_seen++;
      values->len = idx0 + n + shift;
    }
    /* the next segment (its values at their place after sequences) */
    if (run->n_seqs > 0)
      copy_tmpl (fv0 + shift, run, next->first_item,
          s + 2 < run->n_segs ? next[1].first_item : n, idx0 + shift);
    pos = align_up (pos, next->align);
    if (G_UNLIKELY (pos + next->bits > ctx->limit))
      return 0;
    if (!run_seg (next, ctx, fv0 + shift, pos, error))
      return -1;
    pos += next->bits;
  }
  /* the structures around sequences end after their elements */
  for (k = 0; k < run->n_grow; k++) {
    const GstCtfRunGrow *g = &run->grow[k];

    fv0[g->item + moved_at (seq_at, seq_cum, n_seen, g->item)].end =
        idx0 + g->end_local + moved_at (seq_at, seq_cum, n_seen, g->end);
  }
  values->len = idx0 + n + shift;
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
  guint idx0 = values->len, n = run->n_items;

  if (in_place) {
    /* same layout as the previous event at the same place: only the
     * reads change */
    fv0 = values->v + idx0;
  } else {
    if (G_UNLIKELY (values->cap - idx0 < n) && !reserve_values (values, n))
      return 0;
    fv0 = values->v + idx0;
    /* with sequences, only the first segment's values stay at their
     * template place (run_segs() copies the others) */
    copy_tmpl (fv0, run, 0, run->n_seqs > 0 ? run->segs[1].first_item : n,
        idx0);
  }
  values->len = idx0 + n;

  /* the first segment: the caller aligned @pos */
  if (G_UNLIKELY (pos + run->bits0 > ctx->limit))
    return 0;
  if (!run_seg (&run->segs[0], ctx, fv0, pos, error))
    return -1;
  pos += run->bits0;
  if (G_UNLIKELY (run->n_segs > 1)) {
    gint r = run_segs (run, ctx, idx0, pos, &pos, error);

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
gint G_GNUC_NO_INLINE
_gst_ctf_plan_run_exec_op (const GstCtfRun * run, GstCtfDecodeCtx * ctx, guint64 pos,
    GError ** error)
{
  return run_exec (run_pick (run, ctx, pos), ctx, pos, FALSE, error);
}

#undef RUN_LOADS

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
    ok = _gst_ctf_plan_exec_ops (plan->ops, plan->n_ops, ctx, error);
    /* the interpreter wrote anything anywhere */
    ctx->values->tmpl_owner = NULL;
    return ok;
  }
  return _gst_ctf_plan_exec_ops (plan->fast_ops, plan->n_fast_ops, ctx, error);
}

gint
gst_ctf_event_run_exec (const GstCtfEventRun * er, GstCtfDecodeCtx * ctx,
    GError ** error)
{
  GstCtfValueBuf *values = ctx->values;
  const GstCtfRun *run = &er->run;
  gint r;

  values->len = 0;
  r = run_body (run, ctx, align_up (ctx->pos, er->align),
      values->tmpl_owner == run, error);
  values->tmpl_owner = r > 0 ? run : NULL;
  return r;
}
