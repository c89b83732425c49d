/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: field class trees compiled into flat decode plans (CTF 1.8
 * §4, §7.3 dynamic lengths and tags, §8 clock updates); the interpreter
 * that runs them is in gstctf-plan-exec.c.
 */
#include "gstctf-plan.h"
#include "gstctf-unicode-private.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Compilation                                                         */
/* ------------------------------------------------------------------ */

typedef struct {
  GstCtfOp *ops;                /* sized up front by count_ops() */
  guint n_ops;
  guint cap;
  GPtrArray *allocs;            /* ranges/options arrays owned by the plan */
  GError **error;
} Compiler;

static guint64
sat_mul (guint64 a, guint64 b)
{
  if (a != 0 && b > G_MAXUINT64 / a)
    return G_MAXUINT64;
  return a * b;
}

static guint64
sat_add (guint64 a, guint64 b)
{
  return (a > G_MAXUINT64 - b) ? G_MAXUINT64 : a + b;
}

static inline guint64
align_up_static (guint64 pos, guint32 align)
{
  return (pos + align - 1) & ~((guint64) align - 1);
}

static guint32
fc_align (const GstCtfFieldClass * fc)
{
  guint32 a = fc->alignment;

  /* The model promises a power of two >= 1; keep the interpreter safe
   * with anything else. */
  if (a == 0 || (a & (a - 1)) != 0)
    return 1;
  return a;
}

static GstCtfOp *
op_at (Compiler * c, guint idx)
{
  return &c->ops[idx];
}

static guint
op_append (Compiler * c, const GstCtfFieldClass * fc, const gchar * name,
    GstCtfOpKind kind)
{
  GstCtfOp op;

  memset (&op, 0, sizeof (op));
  op.kind = kind;
  op.fc = fc;
  op.name = name;
  op.slot = -1;
  op.ref_slot = -1;
  op.align = 1;
  op.static_bits = G_MAXUINT64;
  if (c->n_ops == c->cap) {
    c->cap = MAX (16, c->cap * 2);
    c->ops = g_renew (GstCtfOp, c->ops, c->cap);
  }
  c->ops[c->n_ops] = op;
  return c->n_ops++;
}

/* Does @label select option @name?  babeltrace2 matches the option's
 * name as written in TSDL against the labels, and its copies of named
 * types drop one leading underscore from option names (CTF 1.8 §4.2.2:
 * a leading underscore escapes a keyword).  So an exact match wins, and
 * failing that the names compare with one leading underscore removed
 * from each. */
static gboolean
label_matches (const gchar * label, const gchar * name, gboolean stripped)
{
  if (!stripped)
    return strcmp (label, name) == 0;
  if (label[0] == '_')
    label++;
  if (name[0] == '_')
    name++;
  return strcmp (label, name) == 0;
}

static gboolean compile_node (Compiler * c, const GstCtfFieldClass * fc,
    const gchar * name, guint depth, guint32 * align_out,
    guint64 * min_bits_out);

static gboolean
compile_int (Compiler * c, guint idx, const GstCtfFieldClass * fc,
    guint32 * align_out, guint64 * min_bits_out)
{
  GstCtfOp *op = op_at (c, idx);
  guint size = fc->integer.size;
  gboolean native;

  if (size < 1 || size > 64) {
    g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Integer field class%s%s has size %u: expected 1 to 64 bits",
        op->name ? " " : "", op->name ? op->name : "", size);
    return FALSE;
  }
  op->size = size;
  op->byte_order = fc->integer.byte_order;
  op->align = fc_align (fc);
  op->meaning = fc->meaning;
  if (fc->integer.is_signed)
    op->flags |= GST_CTF_OP_F_SIGNED;
  /* babeltrace2 updates the clock from unsigned clock-mapped integers
   * only, and never from `timestamp_end` (it would move the clock past
   * the packet's events before they are read). */
  if (fc->integer.mapped_clock && !fc->integer.is_signed &&
      fc->meaning != GST_CTF_MEANING_TIMESTAMP_END)
    op->flags |= GST_CTF_OP_F_CLOCK;
  if (fc->value_slot >= 0) {
    op->flags |= GST_CTF_OP_F_SLOT;
    op->slot = fc->value_slot;
  }
  if (fc->meaning != GST_CTF_MEANING_NONE &&
      fc->meaning != GST_CTF_MEANING_TIMESTAMP &&
      fc->meaning != GST_CTF_MEANING_UUID)
    op->flags |= GST_CTF_OP_F_MEANING;

  native = (op->byte_order == GST_CTF_BYTE_ORDER_LE) ==
      (G_BYTE_ORDER == G_LITTLE_ENDIAN);
  if (fc->form == GST_CTF_FIELD_FORM_LEB128) {
    /* CTF2-SPEC-2.0 §5.4.6: byte-aligned, one to ten bytes here */
    op->kind = GST_CTF_OP_VARINT;
    op->align = MAX (op->align, 8);
    op->size = 64;
    op->next = idx + 1;
    *align_out = op->align;
    *min_bits_out = 8;
    return TRUE;
  }
  op->kind = GST_CTF_OP_INT;
  if (op->align % 8 == 0) {
    switch (size) {
      case 8:
        op->kind = GST_CTF_OP_INT8;
        break;
      case 16:
        op->kind = native ? GST_CTF_OP_INT16 : GST_CTF_OP_INT16_SWAP;
        break;
      case 32:
        op->kind = native ? GST_CTF_OP_INT32 : GST_CTF_OP_INT32_SWAP;
        break;
      case 64:
        op->kind = native ? GST_CTF_OP_INT64 : GST_CTF_OP_INT64_SWAP;
        break;
      default:
        break;
    }
  }
  op->next = idx + 1;
  *align_out = op->align;
  *min_bits_out = size;
  return TRUE;
}

/* A CTF 2 UTF-16/32 string (GST_CTF_OP_WTEXT); length and slot as set
 * by the caller. */
static void
compile_wtext (GstCtfOp * op, GstCtfEncoding enc, gboolean nul_terminated)
{
  op->kind = GST_CTF_OP_WTEXT;
  op->size = (guint8) (_gst_ctf_encoding_unit (enc) * 8);
  op->byte_order = (enc == GST_CTF_ENCODING_UTF16BE ||
      enc == GST_CTF_ENCODING_UTF32BE) ? GST_CTF_BYTE_ORDER_BE :
      GST_CTF_BYTE_ORDER_LE;
  op->min_elem_bits = 8;
  if (nul_terminated)
    op->flags |= GST_CTF_OP_F_NUL_TERMINATED;
}

static gboolean
compile_array (Compiler * c, guint idx, const GstCtfFieldClass * fc,
    guint depth, guint32 * align_out, guint64 * min_bits_out)
{
  const GstCtfFieldClass *elem = fc->element;
  gboolean is_seq = fc->type == GST_CTF_FIELD_CLASS_SEQUENCE;
  guint32 align = fc_align (fc);
  guint32 elem_align;
  guint64 elem_min;
  GstCtfOp *op;

  if (elem == NULL) {
    g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Array or sequence field class without element field class");
    return FALSE;
  }
  if (is_seq) {
    const GstCtfFieldClass *t = fc->ref_target;

    if (t == NULL || t->value_slot < 0 ||
        (t->type != GST_CTF_FIELD_CLASS_INTEGER &&
            t->type != GST_CTF_FIELD_CLASS_ENUM)) {
      g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
          "Sequence length `%s` is not resolved to an integer field",
          fc->ref_path ? fc->ref_path : "(none)");
      return FALSE;
    }
    op_at (c, idx)->ref_slot = t->value_slot;
  }
  op_at (c, idx)->length = fc->length;
  op_at (c, idx)->meaning = fc->meaning;

  /* A CTF 2 UTF-16/32 static- or dynamic-length string. */
  if (elem->type == GST_CTF_FIELD_CLASS_INTEGER &&
      _gst_ctf_encoding_unit (elem->integer.encoding) > 1) {
    op = op_at (c, idx);
    compile_wtext (op, elem->integer.encoding, FALSE);
    op->align = MAX (align, 8);
    op->next = idx + 1;
    *align_out = op->align;
    *min_bits_out = is_seq ? 0 : sat_mul (fc->length, 8);
    return TRUE;
  }

  /* A text array (CTF 1.8 §4.2.3 note, babeltrace2's
   * ctf-meta-update-text-array-sequence): byte-aligned 8-bit integers
   * with an encoding are read as bytes, no element ops. */
  if (elem->type == GST_CTF_FIELD_CLASS_INTEGER && elem->integer.size == 8
      && fc_align (elem) % 8 == 0
      && elem->integer.encoding != GST_CTF_ENCODING_NONE) {
    op = op_at (c, idx);
    op->kind = is_seq ? GST_CTF_OP_TEXT_SEQUENCE : GST_CTF_OP_TEXT_ARRAY;
    op->align = MAX (align, fc_align (elem));
    op->min_elem_bits = 8;
    op->next = idx + 1;
    *align_out = op->align;
    *min_bits_out = is_seq ? 0 : sat_mul (fc->length, 8);
    return TRUE;
  }

  op_at (c, idx)->kind = is_seq ? GST_CTF_OP_SEQUENCE : GST_CTF_OP_ARRAY;
  if (!compile_node (c, elem, NULL, depth + 1, &elem_align, &elem_min))
    return FALSE;
  op = op_at (c, idx);
  op->align = MAX (align, elem_align);
  op->min_elem_bits = elem_min;
  op->next = c->n_ops;
  *align_out = op->align;
  *min_bits_out = is_seq ? 0 : sat_mul (fc->length, elem_min);
  return TRUE;
}

static gboolean
compile_variant (Compiler * c, guint idx, const GstCtfFieldClass * fc,
    guint depth, guint32 * align_out, guint64 * min_bits_out)
{
  const GstCtfFieldClass *tag = fc->ref_target;
  GArray *ranges;
  guint32 *options;
  guint64 min_bits = G_MAXUINT64;
  guint k, m;
  GstCtfOp *op;

  /* A CTF 2 variant selects by its own ranges: its selector is any
   * integer.  A CTF 1.8 one by its enumeration tag's labels. */
  if (tag == NULL || tag->value_slot < 0 ||
      (tag->type != GST_CTF_FIELD_CLASS_ENUM &&
          (fc->enumeration.n_mappings == 0 ||
              tag->type != GST_CTF_FIELD_CLASS_INTEGER))) {
    g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Variant tag `%s` is not resolved to an enumeration field",
        fc->ref_path ? fc->ref_path : "(none)");
    return FALSE;
  }

  ranges = g_array_new (FALSE, FALSE, sizeof (GstCtfVariantRange));
  for (m = 0; m < fc->enumeration.n_mappings; m++) {
    const GstCtfEnumMapping *map = &fc->enumeration.mappings[m];
    GstCtfVariantRange r;

    if (map->option >= fc->n_members)
      continue;
    r.lower = map->lower;
    r.upper = map->upper;
    r.option = map->option;
    g_array_append_val (ranges, r);
  }
  for (k = 0; fc->enumeration.n_mappings == 0 && k < fc->n_members; k++) {
    const gchar *name = fc->members[k].name;
    gboolean found = FALSE;
    gint pass;

    for (pass = 0; pass < 2 && !found; pass++) {
      for (m = 0; m < tag->enumeration.n_mappings; m++) {
        const GstCtfEnumMapping *map = &tag->enumeration.mappings[m];
        GstCtfVariantRange r;

        if (!label_matches (map->label, name, pass == 1))
          continue;
        r.lower = map->lower;
        r.upper = map->upper;
        r.option = k;
        g_array_append_val (ranges, r);
        found = TRUE;
      }
    }
  }

  if (c->allocs == NULL)
    c->allocs = g_ptr_array_new_with_free_func (g_free);
  options = g_new0 (guint32, 2 * MAX (fc->n_members, 1));
  g_ptr_array_add (c->allocs, options);
  op_at (c, idx)->option_ends = options + MAX (fc->n_members, 1);
  op = op_at (c, idx);
  op->kind = GST_CTF_OP_VARIANT;
  op->align = fc_align (fc);
  op->ref_slot = tag->value_slot;
  op->tag_signed = tag->integer.is_signed;
  op->n_children = fc->n_members;
  if (fc->form == GST_CTF_FIELD_FORM_OPTIONAL)
    op->flags |= GST_CTF_OP_F_OPTIONAL;
  op->n_ranges = ranges->len;
  op->ranges = (GstCtfVariantRange *) g_array_free (ranges, FALSE);
  g_ptr_array_add (c->allocs, op->ranges);
  op->options = options;

  for (k = 0; k < fc->n_members; k++) {
    guint32 a;
    guint64 mb;

    options[k] = c->n_ops;
    if (!compile_node (c, fc->members[k].fc, fc->members[k].name, depth + 1,
            &a, &mb))
      return FALSE;
    op_at (c, idx)->option_ends[k] = c->n_ops;
    min_bits = MIN (min_bits, mb);
  }
  op = op_at (c, idx);
  op->next = c->n_ops;
  *align_out = op->align;
  *min_bits_out = fc->n_members && !(op->flags & GST_CTF_OP_F_OPTIONAL) ?
      min_bits : 0;
  return TRUE;
}

static gboolean
compile_node (Compiler * c, const GstCtfFieldClass * fc, const gchar * name,
    guint depth, guint32 * align_out, guint64 * min_bits_out)
{
  guint idx;
  GstCtfOp *op;

  if (fc == NULL) {
    g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Missing field class%s%s", name ? " for " : "", name ? name : "");
    return FALSE;
  }
  if (depth > GST_CTF_PLAN_MAX_DEPTH) {
    g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Field classes nested deeper than %u levels",
        GST_CTF_PLAN_MAX_DEPTH);
    return FALSE;
  }
  if (c->n_ops >= G_MAXINT32) {
    g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Field class tree too large");
    return FALSE;
  }

  idx = op_append (c, fc, name, GST_CTF_OP_INT);

  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      return compile_int (c, idx, fc, align_out, min_bits_out);

    case GST_CTF_FIELD_CLASS_FLOAT:{
      guint size = fc->floating.mant_dig + fc->floating.exp_dig;

      /* Only IEEE 754 binary32 and binary64, as babeltrace2. */
      if (!((fc->floating.mant_dig == 24 && fc->floating.exp_dig == 8) ||
              (fc->floating.mant_dig == 53 && fc->floating.exp_dig == 11))) {
        g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
            "Floating point field class with mant_dig=%u exp_dig=%u: "
            "expected 24/8 or 53/11", fc->floating.mant_dig,
            fc->floating.exp_dig);
        return FALSE;
      }
      op = op_at (c, idx);
      op->kind = GST_CTF_OP_FLOAT;
      op->size = size;
      op->byte_order = fc->floating.byte_order;
      op->align = fc_align (fc);
      op->next = idx + 1;
      *align_out = op->align;
      *min_bits_out = size;
      return TRUE;
    }

    case GST_CTF_FIELD_CLASS_STRING:
      op = op_at (c, idx);
      if (_gst_ctf_encoding_unit (fc->string.encoding) > 1) {
        compile_wtext (op, fc->string.encoding, TRUE);
        op->align = MAX (fc_align (fc), 8);
        op->next = idx + 1;
        *align_out = op->align;
        *min_bits_out = op->size;
        return TRUE;
      }
      op->kind = GST_CTF_OP_STRING;
      op->align = MAX (fc_align (fc), 8);
      op->next = idx + 1;
      *align_out = op->align;
      *min_bits_out = 8;
      return TRUE;

    case GST_CTF_FIELD_CLASS_STRUCT:{
      guint32 align = fc_align (fc);
      guint64 min_bits = 0;
      guint k, end;

      op_at (c, idx)->kind = GST_CTF_OP_STRUCT_BEGIN;
      op_at (c, idx)->n_children = fc->n_members;
      for (k = 0; k < fc->n_members; k++) {
        guint32 a;
        guint64 mb;

        if (!compile_node (c, fc->members[k].fc, fc->members[k].name,
                depth + 1, &a, &mb))
          return FALSE;
        /* A structure aligns as its most aligned member (CTF 1.8
         * §4.2.1). */
        align = MAX (align, a);
        min_bits = sat_add (min_bits, mb);
      }
      end = op_append (c, fc, NULL, GST_CTF_OP_STRUCT_END);
      op_at (c, end)->next = end + 1;
      op = op_at (c, idx);
      op->align = align;
      op->next = end + 1;
      *align_out = align;
      *min_bits_out = min_bits;
      return TRUE;
    }

    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      return compile_array (c, idx, fc, depth, align_out, min_bits_out);

    case GST_CTF_FIELD_CLASS_VARIANT:
      return compile_variant (c, idx, fc, depth, align_out, min_bits_out);

    default:
      g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
          "Unknown field class type %d", (gint) fc->type);
      return FALSE;
  }
}

/* Static layout (second pass over the pre-order ops).  A subtree is
 * static when its size does not depend on the data and decoding it has
 * no side effect; then, when not recording, it is skipped in one step.
 * Offsets inside a static structure are fixed relative to its start
 * because the structure is aligned as its most aligned member. */
#define STATIC_MAX_BITS (G_GUINT64_CONSTANT (1) << 48)

static guint64
compute_static (GstCtfOp * ops, guint i)
{
  GstCtfOp *op = &ops[i];
  guint64 bits = G_MAXUINT64;

  switch (op->kind) {
    case GST_CTF_OP_INT:
    case GST_CTF_OP_INT8:
    case GST_CTF_OP_INT16:
    case GST_CTF_OP_INT32:
    case GST_CTF_OP_INT64:
    case GST_CTF_OP_INT16_SWAP:
    case GST_CTF_OP_INT32_SWAP:
    case GST_CTF_OP_INT64_SWAP:
      if ((op->flags & GST_CTF_OP_F_EFFECTS) == 0)
        bits = op->size;
      break;
    case GST_CTF_OP_FLOAT:
      bits = op->size;
      break;
    case GST_CTF_OP_TEXT_ARRAY:
      if (op->meaning == GST_CTF_MEANING_NONE && op->length < STATIC_MAX_BITS)
        bits = op->length * 8;
      break;
    case GST_CTF_OP_STRUCT_BEGIN:{
      guint j = i + 1;
      guint64 off = 0;
      gboolean ok = TRUE;

      /* members until the STRUCT_END, the last op of the subtree */
      while (j < op->next - 1) {
        guint64 cb = compute_static (ops, j);

        if (cb == G_MAXUINT64)
          ok = FALSE;
        else if (ok)
          off = align_up_static (off, ops[j].align) + cb;
        if (off > STATIC_MAX_BITS)
          ok = FALSE;
        j = ops[j].next;
      }
      if (ok)
        bits = off;
      break;
    }
    case GST_CTF_OP_ARRAY:
    case GST_CTF_OP_SEQUENCE:{
      guint64 eb = compute_static (ops, i + 1);

      if (eb != G_MAXUINT64) {
        /* 0 for zero-size elements: then there is nothing to skip */
        op->stride = align_up_static (eb, ops[i + 1].align);
      }
      if (op->kind == GST_CTF_OP_ARRAY && eb != G_MAXUINT64 &&
          op->meaning == GST_CTF_MEANING_NONE) {
        if (op->length == 0)
          bits = 0;
        else if (op->stride != 0 &&
            op->length - 1 < STATIC_MAX_BITS / op->stride)
          bits = (op->length - 1) * op->stride + eb;
        else if (op->stride == 0)
          bits = 0;
      }
      break;
    }
    case GST_CTF_OP_VARIANT:{
      guint k;

      /* not static itself, but its options may be */
      for (k = 0; k < op->n_children; k++)
        compute_static (ops, op->options[k]);
      break;
    }
    default:
      break;
  }
  op->static_bits = bits;
  return bits;
}

static gboolean
collapsible (const GstCtfOp * op)
{
  return op->static_bits != G_MAXUINT64 &&
      (op->kind == GST_CTF_OP_STRUCT_BEGIN || op->kind == GST_CTF_OP_ARRAY ||
      op->kind == GST_CTF_OP_TEXT_ARRAY || op->kind <= GST_CTF_OP_FLOAT);
}

static void
build_fast_ops (GstCtfPlan * plan, GPtrArray ** allocs)
{
  const GstCtfOp *src = plan->ops;
  guint n = plan->n_ops;
  guint small[3 * 65];
  guint *map = (n < 64) ? small : g_new (guint, 3 * (n + 1));
  guint *jump_to = map + (n + 1);
  guint *origin = jump_to + (n + 1);
  guint n_origin = 0;
  /* every source op gives at most one op, plus the jumps */
  GstCtfOp *dst = g_new (GstCtfOp, 2 * n + 1);
  guint n_dst = 0;
  guint32 pending = 1;          /* alignment of structures begun, owed to
                                 * the next op emitted */
  guint i = 0, k;

  /* In fast plans a variant runs its selected option in line: every
   * option but the last ends with a JUMP to the op after the variant. */
  for (i = 0; i <= n; i++)
    jump_to[i] = G_MAXUINT;
  for (i = 0; i < n; i++) {
    if (src[i].kind == GST_CTF_OP_VARIANT) {
      for (k = 0; k + 1 < src[i].n_children; k++)
        jump_to[src[i].option_ends[k]] = src[i].next;
    }
  }
  i = 0;

  while (i < n) {
    const GstCtfOp *op = &src[i];
    GstCtfOp copy = *op;

    if (jump_to[i] != G_MAXUINT) {
      GstCtfOp j;

      memset (&j, 0, sizeof (j));
      j.kind = GST_CTF_OP_JUMP;
      j.align = 1;
      j.slot = j.ref_slot = -1;
      j.static_bits = G_MAXUINT64;
      dst[n_dst++] = j;
      origin[n_origin++] = i;   /* fixed below from jump_to */
    }
    map[i] = n_dst;
    if (op->kind == GST_CTF_OP_STRUCT_END) {
      i++;
      continue;
    }
    if (op->kind == GST_CTF_OP_STRUCT_BEGIN && !collapsible (op) &&
        op->next != i + 2) {
      /* Its first member is emitted next, within the same range, and
       * aligns for it: consecutive alignments compose as their maximum. */
      pending = MAX (pending, op->align);
      i++;
      continue;
    }
    if (collapsible (op) || op->kind == GST_CTF_OP_STRUCT_BEGIN) {
      copy.kind = GST_CTF_OP_SKIP;
      copy.flags = 0;
      if (op->static_bits == G_MAXUINT64)
        copy.static_bits = 0;   /* empty structure: alignment only */
      copy.align = MAX (copy.align, pending);
      pending = 1;
      dst[n_dst++] = copy;
      origin[n_origin++] = i;
      /* a collapsed subtree's inner ops are never referenced from
       * outside it, except its end */
      for (k = i + 1; k < op->next; k++)
        map[k] = n_dst;
      i = op->next;
      continue;
    }
    copy.align = MAX (copy.align, pending);
    pending = 1;
    dst[n_dst++] = copy;
    origin[n_origin++] = i;
    i++;
  }
  map[n] = n_dst;

  for (k = 0; k < n_dst; k++) {
    GstCtfOp *op = &dst[k];
    const GstCtfOp *so = &src[origin[k]];

    if (op->kind == GST_CTF_OP_JUMP) {
      op->next = map[jump_to[origin[k]]];
      continue;
    }
    op->next = map[so->next];
    if (op->kind == GST_CTF_OP_VARIANT) {
      guint32 *opts = g_new0 (guint32, 2 * MAX (op->n_children, 1));
      guint j;

      if (*allocs == NULL)
        *allocs = g_ptr_array_new_with_free_func (g_free);
      for (j = 0; j < op->n_children; j++) {
        opts[j] = map[so->options[j]];
        opts[op->n_children + j] = map[so->option_ends[j]];
      }
      op->options = opts;
      op->option_ends = opts + op->n_children;
      g_ptr_array_add (*allocs, opts);
    }
  }
  if (map != small)
    g_free (map);
  plan->n_fast_ops = n_dst;
  plan->fast_ops = dst;
}

/* Runs (recording plans).  Limits keep byte offsets and value counts of
 * a run small. */
#define RUN_MAX_ITEMS 1024
#define RUN_MAX_BITS (G_GUINT64_CONSTANT (1) << 31)
#define RUN_MAX_SEGS GST_CTF_RUN_MAX_SEGS

/* The GstCtfRunKind reading integer or float op @op, or NONE. */
static guint8
run_kind (const GstCtfOp * op)
{
  gboolean s = (op->flags & GST_CTF_OP_F_SIGNED) != 0;
  gboolean native = (op->byte_order == GST_CTF_BYTE_ORDER_LE) ==
      (G_BYTE_ORDER == G_LITTLE_ENDIAN);

  switch (op->kind) {
    case GST_CTF_OP_INT8:
      return s ? GST_CTF_RUN_S8 : GST_CTF_RUN_U8;
    case GST_CTF_OP_INT16:
      return s ? GST_CTF_RUN_S16 : GST_CTF_RUN_U16;
    case GST_CTF_OP_INT32:
      return s ? GST_CTF_RUN_S32 : GST_CTF_RUN_U32;
    case GST_CTF_OP_INT64:
      return GST_CTF_RUN_U64;
    case GST_CTF_OP_INT16_SWAP:
      return s ? GST_CTF_RUN_S16_SWAP : GST_CTF_RUN_U16_SWAP;
    case GST_CTF_OP_INT32_SWAP:
      return s ? GST_CTF_RUN_S32_SWAP : GST_CTF_RUN_U32_SWAP;
    case GST_CTF_OP_INT64_SWAP:
      return GST_CTF_RUN_U64_SWAP;
    case GST_CTF_OP_FLOAT:
      if (op->align % 8 != 0)
        return GST_CTF_RUN_NONE;
      if (op->size == 32)
        return native ? GST_CTF_RUN_F32 : GST_CTF_RUN_F32_SWAP;
      return native ? GST_CTF_RUN_F64 : GST_CTF_RUN_F64_SWAP;
    default:
      return GST_CTF_RUN_NONE;
  }
}

/* A run being built. */
typedef struct {
  const GstCtfOp *ops;
  GPtrArray **allocs;
  guint depth;
  GArray *items;                /* GstCtfRunItem */
  GArray *effects;              /* GstCtfRunEffect */
  GArray *open;                 /* guint32: structures around the tail */
  GArray *segs;                 /* GstCtfRunSeg: the completed segments */
  gint tail_item;               /* the variant ending the run, or -1 */
  const GstCtfOp *tail_op;
  GstCtfRun **tail_runs;
  /* the current segment */
  guint64 off;                  /* bits from its start */
  guint32 a0;                   /* its start's alignment, 0: not yet */
  guint array_depth;            /* inside static arrays: no segment end */
  guint n_seqs;                 /* sequences of scalars ending segments */
  GArray *grow;                 /* GstCtfRunGrow: structures around them */
} RunBuild;

typedef struct {
  guint items, effects, open, segs, n_seqs, grow;
  gint tail_item;
  guint64 off;
  guint32 a0;
} RunState;

static void
run_save (const RunBuild * rb, RunState * st)
{
  st->items = rb->items->len;
  st->effects = rb->effects->len;
  st->open = rb->open->len;
  st->segs = rb->segs->len;
  st->n_seqs = rb->n_seqs;
  st->grow = rb->grow->len;
  st->tail_item = rb->tail_item;
  st->off = rb->off;
  st->a0 = rb->a0;
}

static void
run_restore (RunBuild * rb, const RunState * st)
{
  g_array_set_size (rb->items, st->items);
  g_array_set_size (rb->effects, st->effects);
  g_array_set_size (rb->open, st->open);
  g_array_set_size (rb->segs, st->segs);
  rb->n_seqs = st->n_seqs;
  g_array_set_size (rb->grow, st->grow);
  rb->tail_item = st->tail_item;
  rb->off = st->off;
  rb->a0 = st->a0;
}

static GstCtfRun *run_build (const GstCtfOp * ops, guint j, guint e,
    gboolean whole, GPtrArray ** allocs, guint depth, guint * k_out);

static gpointer
run_alloc (GPtrArray ** allocs, gsize size)
{
  gpointer p = g_malloc0 (MAX (size, 1));

  if (*allocs == NULL)
    *allocs = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (*allocs, p);
  return p;
}

/* Appends the values of the subtree at @j to the run.  Offsets are fixed
 * from a segment's start (aligned to its first field, so only fields
 * aligned to at most that are at fixed offsets).  A string or text
 * sequence ends a segment.  A variant can end the run when each of its
 * options makes a run of its own (decoded at the variant's offset once
 * the tag is known).  FALSE when the subtree cannot be part of the run;
 * @rb may then hold a partial subtree (run_restore()). */
static gboolean
run_add (RunBuild * rb, guint j)
{
  const GstCtfOp *ops = rb->ops;
  const GstCtfOp *op = &ops[j];
  GArray *items = rb->items;
  GstCtfRunItem it;
  guint start = items->len;
  guint64 e, k;
  /* a sequence of effect-free scalars packed at their size (elem_kind)
   * records its elements as values of their own, so the values after it
   * move by its length */
  gboolean seq = op->kind == GST_CTF_OP_SEQUENCE &&
      op->elem_kind != GST_CTF_RUN_NONE &&
      op->meaning == GST_CTF_MEANING_NONE;
  gboolean dyn = op->kind == GST_CTF_OP_STRING || seq ||
      (op->kind == GST_CTF_OP_TEXT_SEQUENCE &&
      op->meaning == GST_CTF_MEANING_NONE);

  if (items->len >= RUN_MAX_ITEMS || rb->tail_item >= 0)
    return FALSE;
  if (dyn) {
    GstCtfRunSeg seg;

    /* aligned at run time: any alignment */
    if (rb->array_depth > 0 || rb->segs->len >= RUN_MAX_SEGS)
      return FALSE;
    memset (&seg, 0, sizeof (seg));
    seg.bits = rb->off;
    seg.align = MAX (rb->a0, 1);
    seg.dyn_item = start;
    seg.dyn_kind = op->kind;
    seg.dyn_align = op->align;
    seg.dyn_slot = op->ref_slot;
    if (seq) {
      seg.dyn_elem_kind = op->elem_kind;
      seg.dyn_elem_fc = ops[j + 1].fc;
      seg.dyn_elem_name = ops[j + 1].name;
      rb->n_seqs++;
    }
    g_array_append_val (rb->segs, seg);
    memset (&it, 0, sizeof (it));
    it.fc = op->fc;
    it.name = op->name;
    it.end_off = start + 1;
    it.kind = GST_CTF_RUN_DYN;
    it.seg = rb->segs->len - 1;
    g_array_append_val (items, it);
    rb->off = 0;
    rb->a0 = 0;
    return TRUE;
  }
  if (rb->a0 == 0)
    rb->a0 = op->align;
  /* Fields read at byte offsets only (aligned to 8 bits or more, in a
   * segment whose start is): structures and arrays align as their
   * members, an empty structure takes no bits, a variant itself takes no
   * bits (its options align for themselves). */
  if (op->align > rb->a0)
    return FALSE;
  if ((op->kind <= GST_CTF_OP_FLOAT || op->kind == GST_CTF_OP_TEXT_ARRAY) &&
      (rb->a0 < 8 || op->align < 8))
    return FALSE;
  rb->off = align_up_static (rb->off, op->align);
  if (rb->off >= RUN_MAX_BITS)
    return FALSE;
  memset (&it, 0, sizeof (it));
  it.fc = op->fc;
  it.name = op->name;
  it.byte_off = (guint32) (rb->off / 8);
  it.end_off = start + 1;
  it.seg = rb->segs->len;

  switch (op->kind) {
    case GST_CTF_OP_INT8:
    case GST_CTF_OP_INT16:
    case GST_CTF_OP_INT32:
    case GST_CTF_OP_INT64:
    case GST_CTF_OP_INT16_SWAP:
    case GST_CTF_OP_INT32_SWAP:
    case GST_CTF_OP_INT64_SWAP:
    case GST_CTF_OP_FLOAT:
      it.kind = run_kind (op);
      if (it.kind == GST_CTF_RUN_NONE)
        return FALSE;
      if (op->flags & GST_CTF_OP_F_EFFECTS) {
        GstCtfRunEffect fx;

        memset (&fx, 0, sizeof (fx));
        fx.item = start;
        fx.bit_off = (guint32) rb->off;
        fx.op = *op;
        g_array_append_val (rb->effects, fx);
      }
      rb->off += op->size;
      break;
    case GST_CTF_OP_TEXT_ARRAY:
      if (op->meaning != GST_CTF_MEANING_NONE || op->length > (1u << 24))
        return FALSE;
      it.kind = GST_CTF_RUN_TEXT;
      it.value = op->length;
      rb->off += op->length * 8;
      break;
    case GST_CTF_OP_STRUCT_BEGIN:{
      guint seqs_before = rb->n_seqs;

      it.kind = GST_CTF_RUN_CONST;
      it.value = op->n_children;
      g_array_append_val (items, it);
      /* members until the STRUCT_END, the last op of the subtree */
      for (k = j + 1; k < op->next - 1; k = ops[k].next) {
        if (!run_add (rb, k))
          return FALSE;
      }
      g_array_index (items, GstCtfRunItem, start).end_off = items->len;
      if (rb->n_seqs > seqs_before) {
        GstCtfRunGrow g;

        g.item = start;
        g.end = g.end_local = items->len;
        g_array_append_val (rb->grow, g);
      }
      if (rb->tail_item >= (gint) start) {
        guint32 idx = start;

        /* its end is known once the tail's option is decoded */
        g_array_append_val (rb->open, idx);
      }
      return rb->off < RUN_MAX_BITS;
    }
    case GST_CTF_OP_ARRAY:
      if (op->meaning != GST_CTF_MEANING_NONE || op->length > RUN_MAX_ITEMS)
        return FALSE;
      it.kind = GST_CTF_RUN_CONST;
      it.value = op->length;
      g_array_append_val (items, it);
      rb->array_depth++;
      for (e = 0; e < op->length; e++) {
        if (!run_add (rb, j + 1) || rb->tail_item >= 0) {
          rb->array_depth--;
          return FALSE;
        }
      }
      rb->array_depth--;
      g_array_index (items, GstCtfRunItem, start).end_off = items->len;
      return rb->off < RUN_MAX_BITS;
    case GST_CTF_OP_VARIANT:{
      GstCtfRun **runs;

      /* a tail after a sequence would have to move with it; an optional
       * may select nothing */
      if (rb->depth >= GST_CTF_PLAN_MAX_DEPTH || op->n_children == 0 ||
          rb->n_seqs > 0 || (op->flags & GST_CTF_OP_F_OPTIONAL))
        return FALSE;
      runs = g_new0 (GstCtfRun *, op->n_children);
      for (k = 0; k < op->n_children; k++) {
        guint end;

        runs[k] = run_build (ops, op->options[k], op->option_ends[k], TRUE,
            rb->allocs, rb->depth + 1, &end);
        if (runs[k] == NULL || end != op->option_ends[k]) {
          g_free (runs);
          return FALSE;
        }
      }
      /* the option runs stay allocated (in allocs) if this run is given
       * up: a few bytes per plan at most */
      it.kind = GST_CTF_RUN_CONST;
      g_array_append_val (items, it);
      rb->tail_item = start;
      rb->tail_op = op;
      rb->tail_runs = run_alloc (rb->allocs,
          op->n_children * sizeof (GstCtfRun *));
      memcpy (rb->tail_runs, runs, op->n_children * sizeof (GstCtfRun *));
      g_free (runs);
      return TRUE;
    }
    default:
      return FALSE;
  }
  g_array_append_val (items, it);
  return rb->off < RUN_MAX_BITS;
}

/* Makes the run built in @rb whose first op is @first. */
void
_gst_ctf_run_link (GstCtfRun * run)
{
  guint s;

  for (s = 0; s < run->n_segs; s++) {
    GstCtfRunSeg *sg = &run->segs[s];

    sg->loads = run->loads + sg->first_load;
    sg->loads_end = sg->loads + sg->n_loads;
    sg->fx = run->effects + sg->first_effect;
    sg->fx_end = sg->fx + sg->n_effects;
  }
  run->bits0 = run->segs[0].bits;
}

static GstCtfRun *
run_new (const GstCtfOp * first, RunBuild * rb, GPtrArray ** allocs)
{
  GstCtfRun *run = run_alloc (allocs, sizeof (GstCtfRun));
  GArray *items = rb->items, *effects = rb->effects;
  guint n = items->len, k, s, q = 0;
  GstCtfRunSeg last;

  run->orig = *first;
  run->n_items = n;
  /* the segments: the completed ones, then the current one */
  memset (&last, 0, sizeof (last));
  last.bits = rb->off;
  last.align = MAX (rb->a0, 1);
  g_array_append_val (rb->segs, last);
  run->n_segs = rb->segs->len;
  run->segs = run_alloc (allocs, rb->segs->len * sizeof (GstCtfRunSeg));
  memcpy (run->segs, rb->segs->data, rb->segs->len * sizeof (GstCtfRunSeg));
  /* the first one starts where the caller aligned the run */
  run->segs[0].align = 1;
  for (s = 0, k = 0; s < run->n_segs; s++) {
    while (k < n && g_array_index (items, GstCtfRunItem, k).seg < s)
      k++;
    run->segs[s].first_item = k;
  }
  run->n_seqs = rb->n_seqs;
  run->n_grow = rb->grow->len;
  if (run->n_grow > 0) {
    run->grow = run_alloc (allocs, run->n_grow * sizeof (GstCtfRunGrow));
    memcpy (run->grow, rb->grow->data, run->n_grow * sizeof (GstCtfRunGrow));
  }

  run->n_effects = effects->len;
  run->effects = run_alloc (allocs, effects->len * sizeof (GstCtfRunEffect));
  if (effects->len > 0)
    memcpy (run->effects, effects->data,
        effects->len * sizeof (GstCtfRunEffect));
  for (k = 0; k < effects->len; k++) {
    GstCtfRunEffect *fx = &run->effects[k];

    if ((fx->op.flags & GST_CTF_OP_F_EFFECTS) == GST_CTF_OP_F_SLOT)
      fx->fast = GST_CTF_RUN_FX_SLOT;
    else if ((fx->op.flags & GST_CTF_OP_F_EFFECTS) == GST_CTF_OP_F_CLOCK)
      fx->fast = GST_CTF_RUN_FX_CLOCK;
    else if ((fx->op.flags & GST_CTF_OP_F_CLOCK) == 0 &&
        fx->op.meaning == GST_CTF_MEANING_EVENT_CLASS_ID)
      fx->fast = GST_CTF_RUN_FX_EVENT_ID;
    else
      fx->fast = GST_CTF_RUN_FX_ANY;
  }
  /* effects are in field order, so each segment's are contiguous */
  for (s = 0; s < run->n_segs; s++) {
    run->segs[s].first_effect = q;
    while (q < effects->len && g_array_index (items, GstCtfRunItem,
            run->effects[q].item).seg == s)
      q++;
    run->segs[s].n_effects = q - run->segs[s].first_effect;
  }

  run->tail_item = rb->tail_item;
  if (rb->tail_item >= 0) {
    run->tail_op = run_alloc (allocs, sizeof (GstCtfOp));
    *run->tail_op = *rb->tail_op;
    run->tail_runs = rb->tail_runs;
    run->n_open = rb->open->len;
    run->open = run_alloc (allocs, rb->open->len * sizeof (guint32));
    if (rb->open->len > 0)
      memcpy (run->open, rb->open->data, rb->open->len * sizeof (guint32));
  }

  run->tmpl = run_alloc (allocs, n * sizeof (GstCtfFieldValue));
  run->loads = run_alloc (allocs, n * sizeof (GstCtfRunLoad));
  for (k = 0; k < n; k++) {
    const GstCtfRunItem *it = &g_array_index (items, GstCtfRunItem, k);
    GstCtfFieldValue *fv = &run->tmpl[k];

    fv->fc = it->fc;
    fv->name = it->name;
    fv->end = it->end_off;
    if (it->kind == GST_CTF_RUN_CONST)
      fv->v.u = it->value;
    else if (it->kind == GST_CTF_RUN_TEXT)
      fv->v.s.len = (guint32) it->value;
  }
  /* each segment's reads together, grouped by kind (in any order: side
   * effects come after them), so that the dispatch on the kind mostly
   * repeats the previous one */
  for (s = 0; s < run->n_segs; s++) {
    guint kind;

    run->segs[s].first_load = run->n_loads;
    for (kind = GST_CTF_RUN_NONE + 1; kind < GST_CTF_RUN_DYN; kind++) {
      for (k = 0; k < n; k++) {
        const GstCtfRunItem *it = &g_array_index (items, GstCtfRunItem, k);

        if (it->seg != s || it->kind != kind)
          continue;
        run->loads[run->n_loads].byte_off = it->byte_off;
        run->loads[run->n_loads].val_off = k * sizeof (GstCtfFieldValue);
        run->loads[run->n_loads].kind = it->kind;
        run->n_loads++;
      }
    }
    run->segs[s].n_loads = run->n_loads - run->segs[s].first_load;
  }
  _gst_ctf_run_link (run);
  return run;
}

/* GstCtfRun.id_kind and id_byte_off of @run. */
static void
run_find_event_id (GstCtfRun * run)
{
  gint k, item = -1;
  guint i;

  if (run->tail_item >= 0)
    return;
  for (k = (gint) run->n_effects - 1; k >= 0 && item < 0; k--) {
    const GstCtfRunEffect *fx = &run->effects[k];

    if ((fx->op.flags & GST_CTF_OP_F_MEANING) &&
        fx->op.meaning == GST_CTF_MEANING_EVENT_CLASS_ID)
      item = (gint) fx->item;
  }
  if (item < 0 || run->tmpl[item].fc == NULL)
    return;
  for (i = 0; i < run->n_loads; i++) {
    const GstCtfRunLoad *l = &run->loads[i];

    /* only in the first segment is its offset fixed */
    if (l->val_off == (guint) item * sizeof (GstCtfFieldValue) &&
        l->kind <= GST_CTF_RUN_U64_SWAP && i < run->segs[0].n_loads) {
      run->id_byte_off = l->byte_off;
      run->id_kind = l->kind;
      return;
    }
  }
}

/* @p and option @o's run @sub as one run (see GstCtfRun.flat), or NULL
 * when @sub's offset in @p is not fixed. */
static GstCtfRun *
run_flatten (const GstCtfRun * p, const GstCtfRun * sub, guint32 o,
    GPtrArray ** allocs)
{
  GstCtfRun *f;
  guint64 var_off;
  guint n, k;

  if (p->n_segs != 1 || sub->n_segs != 1 || sub->tail_item >= 0 ||
      sub->orig.align > p->orig.align || p->orig.align < 8)
    return NULL;
  var_off = align_up_static (p->segs[0].bits, sub->orig.align);
  if (var_off + sub->segs[0].bits >= RUN_MAX_BITS ||
      p->n_items + sub->n_items > RUN_MAX_ITEMS * 2)
    return NULL;
  n = p->n_items + sub->n_items;

  f = run_alloc (allocs, sizeof (GstCtfRun));
  f->orig = p->orig;
  f->n_items = n;
  f->tail_item = -1;
  f->n_segs = 1;
  f->segs = run_alloc (allocs, sizeof (GstCtfRunSeg));
  f->segs[0] = p->segs[0];
  f->segs[0].bits = var_off + sub->segs[0].bits;

  /* values: the run's, then the option's after them */
  f->tmpl = run_alloc (allocs, n * sizeof (GstCtfFieldValue));
  memcpy (f->tmpl, p->tmpl, p->n_items * sizeof (GstCtfFieldValue));
  memcpy (f->tmpl + p->n_items, sub->tmpl,
      sub->n_items * sizeof (GstCtfFieldValue));
  for (k = p->n_items; k < n; k++)
    f->tmpl[k].end += p->n_items;
  f->tmpl[p->tail_item].v.u = o;
  f->tmpl[p->tail_item].end = n;
  for (k = 0; k < p->n_open; k++)
    f->tmpl[p->open[k]].end = n;

  f->n_loads = p->n_loads + sub->n_loads;
  f->loads = run_alloc (allocs, f->n_loads * sizeof (GstCtfRunLoad));
  memcpy (f->loads, p->loads, p->n_loads * sizeof (GstCtfRunLoad));
  for (k = 0; k < sub->n_loads; k++) {
    GstCtfRunLoad *l = &f->loads[p->n_loads + k];

    *l = sub->loads[k];
    l->byte_off += (guint32) (var_off / 8);
    l->val_off += p->n_items * sizeof (GstCtfFieldValue);
  }

  f->n_effects = p->n_effects + sub->n_effects;
  f->effects = run_alloc (allocs, f->n_effects * sizeof (GstCtfRunEffect));
  memcpy (f->effects, p->effects, p->n_effects * sizeof (GstCtfRunEffect));
  for (k = 0; k < sub->n_effects; k++) {
    GstCtfRunEffect *fx = &f->effects[p->n_effects + k];

    *fx = sub->effects[k];
    fx->item += p->n_items;
    fx->bit_off += (guint32) var_off;
  }
  f->segs[0].first_load = 0;
  f->segs[0].n_loads = f->n_loads;
  f->segs[0].first_effect = 0;
  f->segs[0].n_effects = f->n_effects;
  _gst_ctf_run_link (f);
  run_find_event_id (f);
  return f;
}

/* Flat runs for run @run ending with a variant, when its tag is a field
 * of the run. */
static void
run_make_flat (GstCtfRun * run, GPtrArray ** allocs)
{
  const GstCtfOp *v = run->tail_op;
  GstCtfRun **flat;
  guint k, tag_item = G_MAXUINT;

  for (k = 0; k < run->n_effects; k++) {
    const GstCtfRunEffect *fx = &run->effects[k];

    if ((fx->op.flags & GST_CTF_OP_F_SLOT) && fx->op.slot == v->ref_slot)
      tag_item = fx->item;
  }
  if (tag_item == G_MAXUINT)
    return;
  for (k = 0; k < run->n_loads; k++) {
    if (run->loads[k].val_off == tag_item * sizeof (GstCtfFieldValue) &&
        run->loads[k].kind <= GST_CTF_RUN_U64_SWAP) {
      run->tag_byte_off = run->loads[k].byte_off;
      run->tag_kind = run->loads[k].kind;
      break;
    }
  }
  if (k == run->n_loads)
    return;
  flat = run_alloc (allocs, v->n_children * sizeof (GstCtfRun *));
  for (k = 0; k < v->n_children; k++) {
    flat[k] = run_flatten (run, run->tail_runs[k], k, allocs);
    if (flat[k] == NULL)
      return;
  }
  run->flat = flat;
}

/* The longest run of siblings from @j within [@j, @e) (*@k_out: the op
 * after it): NULL when it would hold fewer than two values, unless
 * @whole and it covers the whole range. */
static GstCtfRun *
run_build (const GstCtfOp * ops, guint j, guint e, gboolean whole,
    GPtrArray ** allocs, guint depth, guint * k_out)
{
  RunBuild rb;
  GstCtfRun *run = NULL;
  guint k = j;

  memset (&rb, 0, sizeof (rb));
  rb.ops = ops;
  rb.allocs = allocs;
  rb.depth = depth;
  rb.items = g_array_new (FALSE, FALSE, sizeof (GstCtfRunItem));
  rb.effects = g_array_new (FALSE, FALSE, sizeof (GstCtfRunEffect));
  rb.open = g_array_new (FALSE, FALSE, sizeof (guint32));
  rb.segs = g_array_new (FALSE, FALSE, sizeof (GstCtfRunSeg));
  rb.grow = g_array_new (FALSE, FALSE, sizeof (GstCtfRunGrow));
  rb.tail_item = -1;
  /* the caller aligns the run's start for its first op */
  rb.a0 = ops[j].align;
  while (k < e) {
    RunState st;

    run_save (&rb, &st);
    if (!run_add (&rb, k)) {
      run_restore (&rb, &st);
      break;
    }
    k = ops[k].next;
  }
  if (rb.items->len >= 2 || (rb.items->len == 1 && whole && k == e)) {
    run = run_new (&ops[j], &rb, allocs);
    if (run->tail_item >= 0)
      run_make_flat (run, allocs);
    else
      run_find_event_id (run);
  }
  g_array_free (rb.items, TRUE);
  g_array_free (rb.effects, TRUE);
  g_array_free (rb.open, TRUE);
  g_array_free (rb.segs, TRUE);
  g_array_free (rb.grow, TRUE);
  *k_out = k;
  return run;
}

static void make_runs (GstCtfPlan * plan, guint b, guint e,
    GPtrArray ** allocs, guint depth);

/* Runs inside the subtree at @j, which is not part of a run itself. */
static void
make_runs_below (GstCtfPlan * plan, guint j, GPtrArray ** allocs,
    guint depth)
{
  GstCtfOp *op = &plan->ops[j];
  guint k;

  switch (op->kind) {
    case GST_CTF_OP_STRUCT_BEGIN:
      make_runs (plan, j + 1, op->next - 1, allocs, depth + 1);
      break;
    case GST_CTF_OP_ARRAY:
    case GST_CTF_OP_SEQUENCE:
      make_runs (plan, j + 1, op->next, allocs, depth + 1);
      break;
    case GST_CTF_OP_VARIANT:
      for (k = 0; k < op->n_children; k++)
        make_runs (plan, op->options[k], op->option_ends[k], allocs,
            depth + 1);
      break;
    default:
      break;
  }
}

/* GstCtfOp.elem_kind of every array and sequence of one packed scalar
 * per element (read in a loop, or ending a run segment), set before the
 * runs are made. */
static void
set_elem_kinds (GstCtfPlan * plan)
{
  guint j;

  for (j = 0; j + 1 < plan->n_ops; j++) {
    GstCtfOp *op = &plan->ops[j];
    const GstCtfOp *el = &plan->ops[j + 1];

    if ((op->kind == GST_CTF_OP_ARRAY || op->kind == GST_CTF_OP_SEQUENCE) &&
        el->next == j + 2 && el->align >= 8 && el->align <= el->size &&
        (el->flags & GST_CTF_OP_F_EFFECTS) == 0 &&
        op->stride == el->size && op->meaning == GST_CTF_MEANING_NONE)
      op->elem_kind = run_kind (el);
  }
}

/* Replaces the first op of every longest sequence of siblings in
 * [@b, @e) that can form a run (at least two values, or a whole scope)
 * by a RUN op whose @next is the end of the sequence. */
static void
make_runs (GstCtfPlan * plan, guint b, guint e, GPtrArray ** allocs,
    guint depth)
{
  GstCtfOp *ops = plan->ops;
  guint j = b;

  if (depth > GST_CTF_PLAN_MAX_DEPTH + 1)
    return;
  while (j < e) {
    guint k;
    GstCtfRun *run = run_build (ops, j, e, j == 0 && e == plan->n_ops,
        allocs, depth, &k);

    if (run != NULL) {
      ops[j].kind = GST_CTF_OP_RUN;
      ops[j].next = k;
      ops[j].run = run;
      j = k;
      continue;
    }
    make_runs_below (plan, j, allocs, depth);
    j = ops[j].next;
  }
}

static void
free_allocs (GPtrArray * allocs)
{
  if (allocs)
    g_ptr_array_free (allocs, TRUE);
}

/* The plan and what its ops point to live in one allocation list; the
 * plan frees them together. */
typedef struct {
  GstCtfPlan plan;
  GPtrArray *allocs;
} PlanPriv;

/* Number of ops a tree compiles to (an upper bound with text arrays),
 * so the op array is allocated once.  Stops counting past a limit: the
 * compiler then grows the array as needed. */
static guint
count_ops (const GstCtfFieldClass * fc, guint depth)
{
  guint n = 1, k;

  if (fc == NULL || depth > GST_CTF_PLAN_MAX_DEPTH)
    return 1;
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_STRUCT:
      n++;
      /* fall through */
    case GST_CTF_FIELD_CLASS_VARIANT:
      for (k = 0; k < fc->n_members && n < 4096; k++)
        n += count_ops (fc->members[k].fc, depth + 1);
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      n += count_ops (fc->element, depth + 1);
      break;
    default:
      break;
  }
  return n;
}

GstCtfPlan *
gst_ctf_plan_compile (const GstCtfFieldClass * fc, GError ** error)
{
  return gst_ctf_plan_compile_full (fc, TRUE, error);
}

GstCtfPlan *
gst_ctf_plan_compile_full (const GstCtfFieldClass * fc, gboolean runs,
    GError ** error)
{
  Compiler c;
  PlanPriv *p;
  guint32 align;
  guint64 min_bits;

  c.cap = count_ops (fc, 0);
  c.ops = g_new (GstCtfOp, c.cap);
  c.n_ops = 0;
  c.allocs = NULL;              /* made when a variant needs it */
  c.error = error;

  if (!compile_node (&c, fc, NULL, 0, &align, &min_bits)) {
    g_free (c.ops);
    free_allocs (c.allocs);
    return NULL;
  }

  p = g_new0 (PlanPriv, 1);
  p->plan.n_ops = c.n_ops;
  p->plan.ops = c.ops;
  p->plan.root = fc;
  p->allocs = c.allocs;
  compute_static (p->plan.ops, 0);
  build_fast_ops (&p->plan, &p->allocs);
  /* after the fast plan, which is built from the ops without runs */
  set_elem_kinds (&p->plan);
  if (runs)
    make_runs (&p->plan, 0, p->plan.n_ops, &p->allocs, 0);
  if (p->plan.ops[0].kind == GST_CTF_OP_RUN &&
      p->plan.ops[0].next == p->plan.n_ops)
    p->plan.whole_run = p->plan.ops[0].run;
  if (p->plan.n_fast_ops == 1 && p->plan.fast_ops[0].kind == GST_CTF_OP_SKIP) {
    p->plan.skip_only = TRUE;
    p->plan.skip_align = p->plan.fast_ops[0].align;
    p->plan.skip_bits = p->plan.fast_ops[0].static_bits;
  }
  return &p->plan;
}

void
gst_ctf_plan_free (GstCtfPlan * plan)
{
  PlanPriv *p = (PlanPriv *) plan;

  if (plan == NULL)
    return;
  g_free (p->plan.ops);
  g_free (p->plan.fast_ops);
  free_allocs (p->allocs);
  g_free (p);
}
