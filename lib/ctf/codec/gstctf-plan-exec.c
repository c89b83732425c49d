/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the interpreter that runs compiled decode plans
 * (gstctf-plan.c) over packet bytes, op by op (CTF 1.8 §4, §4.1.5 bit
 * order, §7.3 dynamic lengths and tags, §8 clock updates); runs of
 * statically laid out fields are in gstctf-plan-run.c.
 */
#include "gstctf-plan-exec-private.h"
#include "gstctf-unicode-private.h"

static inline GstCtfEncoding
wtext_encoding (const GstCtfOp * op)
{
  if (op->size == 16)
    return op->byte_order == GST_CTF_BYTE_ORDER_BE ?
        GST_CTF_ENCODING_UTF16BE : GST_CTF_ENCODING_UTF16LE;
  return op->byte_order == GST_CTF_BYTE_ORDER_BE ?
      GST_CTF_ENCODING_UTF32BE : GST_CTF_ENCODING_UTF32LE;
}

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

gboolean
_gst_ctf_plan_exec_ops (const GstCtfOp * ops, guint n_ops, GstCtfDecodeCtx * ctx,
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
        r = _gst_ctf_plan_run_exec_op (op->run, ctx, pos, error);
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

      case GST_CTF_OP_VARINT:{
        /* CTF2-SPEC-2.0 §5.4.6: LEB128, 7 value bits per byte, the high
         * bit set on all but the last; values beyond 64 bits refused */
        guint64 p = pos >> 3, lim = limit >> 3;
        guint shift = 0;
        guint8 b;

        v = 0;
        do {
          if (G_UNLIKELY ((pos & 7) != 0 || p >= lim))
            goto overrun;
          b = data[p++];
          /* the tenth byte holds bit 63 only (its sign extension for
           * a signed integer) */
          if (G_UNLIKELY (shift > 63 || (shift == 63 && (b & 0x7f) != 0 &&
                      (b & 0x7f) != ((op->flags & GST_CTF_OP_F_SIGNED) ?
                          0x7f : 0x01)))) {
            ctx->pos = cur;
            g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
                "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, "
                "variable-length integer `%s` has more than 64 value bits",
                ctx->scope_name ? ctx->scope_name : "field", pos,
                op->name ? op->name : "(unnamed)");
            return FALSE;
          }
          v |= (guint64) (b & 0x7f) << shift;
          shift += 7;
        } while (b & 0x80);
        if ((op->flags & GST_CTF_OP_F_SIGNED) && shift < 64 && (b & 0x40))
          v |= G_MAXUINT64 << shift;
        cur = p << 3;
        goto int_read;
      }

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

      case GST_CTF_OP_WTEXT:{
        /* CTF2-SPEC-2.0 §5.4.8-10: UTF-16/32 text up to the first null
         * code unit (at a code-unit boundary from the string's start) */
        GstCtfEncoding enc = wtext_encoding (op);
        guint unit = op->size / 8;
        const guint8 *s;
        guint64 n, text;
        gsize bad;

        if (G_UNLIKELY (pos > limit || (pos & 7) != 0))
          goto overrun;
        s = data + (pos >> 3);
        if (op->flags & GST_CTF_OP_F_NUL_TERMINATED) {
          guint64 max = (limit - pos) >> 3;

          text = _gst_ctf_wide_text_len (enc, s, max);
          if (G_UNLIKELY (text + unit > max)) {
            ctx->pos = cur;
            g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
                "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, "
                "%s string `%s` has no null code unit before the content "
                "ends at %" G_GUINT64_FORMAT " bits",
                ctx->scope_name ? ctx->scope_name : "field", pos,
                _gst_ctf_encoding_json_name (enc),
                op->name ? op->name : "(unnamed)", limit);
            return FALSE;
          }
          n = text + unit;
        } else {
          if (op->ref_slot < 0) {
            n = op->length;
          } else {
            if (G_UNLIKELY ((guint) op->ref_slot >= ctx->n_slots))
              goto bad_slot;
            n = ctx->slots[op->ref_slot];
          }
          if (G_UNLIKELY (!check_count (ctx, op, pos, n, error)))
            return FALSE;
          if (G_UNLIKELY (n > G_MAXUINT32)) {
            g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
                "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, "
                "string of %" G_GUINT64_FORMAT " bytes is too long",
                ctx->scope_name ? ctx->scope_name : "field", pos, n);
            return FALSE;
          }
          text = _gst_ctf_wide_text_len (enc, s, n);
        }
        /* babeltrace2 2.1 refuses text iconv cannot convert */
        if (G_UNLIKELY (!_gst_ctf_wide_text_check (enc, s, text, &bad))) {
          ctx->pos = cur;
          g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
              "Cannot decode %s: offset=%" G_GUINT64_FORMAT " bits, string "
              "`%s` is not valid %s at its byte %" G_GSIZE_FORMAT,
              ctx->scope_name ? ctx->scope_name : "field", pos,
              op->name ? op->name : "(unnamed)",
              _gst_ctf_encoding_json_name (enc), bad);
          return FALSE;
        }
        if (values) {
          GstCtfFieldValue *fv = record (ctx, op, NULL, error);

          if (fv == NULL)
            return FALSE;
          fv->v.s.ptr = (const gchar *) s;
          fv->v.s.len = (guint32) ((op->flags & GST_CTF_OP_F_NUL_TERMINATED)
              ? text : n);
        }
        cur = pos + n * 8;
        i++;
        continue;
      }

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
        if (opt == G_MAXUINT32 && (op->flags & GST_CTF_OP_F_OPTIONAL)) {
          /* an absent optional: a value without child, no data */
          cur = pos;
          if (values) {
            GstCtfFieldValue *fv = record (ctx, op, NULL, error);

            if (fv == NULL)
              return FALSE;
            fv->v.u = G_MAXUINT32;
          }
          i = op->next;
          continue;
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
  int_read:
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
        op->kind == GST_CTF_OP_WTEXT ? 8 :
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
gst_ctf_plan_run_walk (const GstCtfPlan * plan, GstCtfDecodeCtx * ctx,
    GError ** error)
{
  return _gst_ctf_plan_exec_ops (plan->fast_ops, plan->n_fast_ops, ctx, error);
}
