/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CTF 1.8 packet writer: the encoder twin of gstctf-packet-reader.c.
 *
 * Values are walked together with the writer's own field classes (values
 * may come from another trace class with the same layout).  Bits are
 * written as CTF 1.8 §4.1.5 lays them out: little-endian fields fill each
 * byte from its least significant bit, big-endian ones from its most
 * significant bit.  Every field starts at its alignment (§4.1.2).
 *
 * Event headers: at creation the writer enumerates the layouts of the
 * stream's event header (one per combination of variant options, tags
 * forced to a value whose label selects the option, §4.2.6) and sorts
 * them by size.  For each event it takes the smallest layout whose `id`
 * fields can hold the event class id and whose clock-mapped fields give
 * back the exact clock value under the §8 rule: an N-bit value replaces
 * the low N bits of the current clock, adding 2^N once when it is smaller
 * than the current low bits.  The roles come from the resolve pass
 * (GstCtfFieldClass.meaning), not from LTTng's names.
 */
#include "gstctf-unicode-private.h"
#include "gstctf-packet-writer-private.h"

#include <string.h>

static const gchar *const scope_names[] = {
  "packet header", "packet context", "event header",
  "event common context", "event specific context", "event payload",
};

/* --- bits ---------------------------------------------------------------- */

static gboolean
ensure_bytes_slow (GstCtfPacketWriter * w, guint64 nbytes, GError ** error)
{
  guint64 zero_to;

  if (G_UNLIKELY (nbytes > MAX_PACKET_BYTES)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot write packet: stream-class-id=%" G_GUINT64_FORMAT
        ", size=%" G_GUINT64_FORMAT " bytes, expected at most %"
        G_GUINT64_FORMAT, w->sc->id, nbytes, MAX_PACKET_BYTES);
    return FALSE;
  }
  if (nbytes > w->cap) {
    gsize ncap = MAX (w->cap * 2, 4096);

    while (ncap < nbytes)
      ncap *= 2;
    w->buf = g_realloc (w->buf, ncap);
    w->cap = ncap;
  }
  /* zero ahead in chunks: fields are written a few bytes at a time */
  zero_to = MIN ((guint64) w->cap, MAX (nbytes,
          (guint64) w->len + ZERO_AHEAD));
  if (zero_to > w->len) {
    memset (w->buf + w->len, 0, zero_to - w->len);
    w->len = zero_to;
  }
  return TRUE;
}

/* Makes the first @nbytes of the buffer writable; bytes never written
 * read as zeros (padding, CTF 1.8 §4.1.2). */
static inline gboolean
ensure_bytes (GstCtfPacketWriter * w, guint64 nbytes, GError ** error)
{
  if (G_LIKELY (nbytes <= w->len))
    return TRUE;
  return ensure_bytes_slow (w, nbytes, error);
}

/* Writes the low @size bits of @v at bit @off (CTF 1.8 §4.1.5). */
static inline void
put_bits (guint8 * buf, guint64 off, guint size, guint64 v,
    GstCtfByteOrder bo)
{
  guint64 pos = off;
  guint rem = size;

  if ((off & 7) == 0 && (size & 7) == 0) {
    guint8 *p = buf + (off >> 3);
    guint nb = size >> 3, i;

    if (bo == GST_CTF_BYTE_ORDER_LE) {
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
      /* constant sizes: single stores instead of a memcpy call */
      switch (nb) {
        case 1:
          *p = (guint8) v;
          break;
        case 2:{
          guint16 x = (guint16) v;

          memcpy (p, &x, 2);
          break;
        }
        case 4:{
          guint32 x = (guint32) v;

          memcpy (p, &x, 4);
          break;
        }
        case 8:
          memcpy (p, &v, 8);
          break;
        default:
          memcpy (p, &v, nb);
          break;
      }
#else
      for (i = 0; i < nb; i++)
        p[i] = (guint8) (v >> (8 * i));
#endif
    } else {
      for (i = 0; i < nb; i++)
        p[i] = (guint8) (v >> (8 * (nb - 1 - i)));
    }
    return;
  }
  if (bo == GST_CTF_BYTE_ORDER_LE) {
    while (rem > 0) {
      guint shift = pos & 7;
      guint n = MIN (8 - shift, rem);
      guint mask = ((1u << n) - 1) << shift;
      guint8 *p = buf + (pos >> 3);

      *p = (guint8) ((*p & ~mask) | (((guint) v << shift) & mask));
      v = n < 64 ? v >> n : 0;
      pos += n;
      rem -= n;
    }
  } else {
    while (rem > 0) {
      guint used = pos & 7;
      guint n = MIN (8 - used, rem);
      guint shift = 8 - used - n;
      guint bits = (guint) (v >> (rem - n)) & ((1u << n) - 1);
      guint mask = ((1u << n) - 1) << shift;
      guint8 *p = buf + (pos >> 3);

      *p = (guint8) ((*p & ~mask) | (bits << shift));
      pos += n;
      rem -= n;
    }
  }
}

static inline gboolean
align_to (GstCtfPacketWriter * w, guint alignment, GError ** error)
{
  if (alignment > 1) {
    guint64 a = alignment;
    guint64 npos = (w->pos + a - 1) & ~(a - 1);

    if (!w->dry && !ensure_bytes (w, (npos + 7) >> 3, error))
      return FALSE;
    w->pos = npos;
  }
  return TRUE;
}

static inline gboolean
write_bits (GstCtfPacketWriter * w, guint size, guint64 v, GstCtfByteOrder bo,
    GError ** error)
{
  if (!w->dry) {
    if (!ensure_bytes (w, (w->pos + size + 7) >> 3, error))
      return FALSE;
    put_bits (w->buf, w->pos, size, v, bo);
  }
  w->pos += size;
  return TRUE;
}

/* --- errors -------------------------------------------------------------- */

static inline const gchar *
value_name (const GstCtfFieldValue * val)
{
  return (val && val->name) ? val->name : "";
}

#define VALUE_ERROR(w, error, val, ...) G_STMT_START {                      \
    gchar *what_ = g_strdup_printf (__VA_ARGS__);                           \
    g_set_error ((error), GST_CTF_ERROR, GST_CTF_ERROR_PACKET,               \
        "Cannot write %s field: stream-class-id=%" G_GUINT64_FORMAT         \
        ", event-class-name=\"%s\", field=\"%s\", bit-offset=%"             \
        G_GUINT64_FORMAT ", %s", scope_names[(w)->scope], (w)->sc->id,      \
        (w)->event_name ? (w)->event_name : "",                             \
        value_name (val), (w)->pos, what_);                                 \
    g_free (what_);                                                         \
  } G_STMT_END

/* --- variants ------------------------------------------------------------ */

static gboolean
label_matches_option (const gchar * label, const gchar * option)
{
  /* CTF 1.8 §4.2.6: the option named like the tag's label; one leading
   * underscore on either side is TSDL escaping (§4.2.2). */
  if (strcmp (label, option) == 0)
    return TRUE;
  if (option[0] == '_' && strcmp (label, option + 1) == 0)
    return TRUE;
  if (label[0] == '_' && strcmp (label + 1, option) == 0)
    return TRUE;
  return FALSE;
}

static gboolean
mapping_contains (const GstCtfFieldClass * tag, const GstCtfEnumMapping * m,
    guint64 v)
{
  if (tag->integer.is_signed)
    return (gint64) v >= (gint64) m->lower && (gint64) v <= (gint64) m->upper;
  return v >= m->lower && v <= m->upper;
}

static void
variant_map_free (gpointer p)
{
  VariantMap *vm = p;

  g_free (vm->option_of_mapping);
  g_free (vm);
}

static void
collect_variants (GstCtfPacketWriter * w, const GstCtfFieldClass * fc,
    guint depth)
{
  guint i, j;

  if (fc == NULL || depth > MAX_DEPTH)
    return;
  if (fc->type == GST_CTF_FIELD_CLASS_VARIANT && fc->ref_target != NULL
      && fc->ref_target->type == GST_CTF_FIELD_CLASS_ENUM
      && !g_hash_table_contains (w->variant_maps, fc)) {
    const GstCtfFieldClass *tag = fc->ref_target;
    VariantMap *vm = g_new0 (VariantMap, 1);

    vm->n = tag->enumeration.n_mappings;
    vm->option_of_mapping = g_new (gint, MAX (vm->n, 1));
    for (i = 0; i < vm->n; i++) {
      vm->option_of_mapping[i] = -1;
      for (j = 0; j < fc->n_members; j++) {
        if (label_matches_option (tag->enumeration.mappings[i].label,
                fc->members[j].name)) {
          vm->option_of_mapping[i] = j;
          break;
        }
      }
    }
    g_hash_table_insert (w->variant_maps, (gpointer) fc, vm);
  }
  for (i = 0; i < fc->n_members; i++)
    collect_variants (w, fc->members[i].fc, depth + 1);
  collect_variants (w, fc->element, depth + 1);
}

/* The option a tag value selects: the first mapping that contains it. */
static gint
variant_option_for (GstCtfPacketWriter * w, const GstCtfFieldClass * var,
    guint64 tag_value)
{
  const GstCtfFieldClass *tag = var->ref_target;
  VariantMap *vm = g_hash_table_lookup (w->variant_maps, var);
  guint i;

  if (vm == NULL)
    return -2;                  /* cannot check */
  for (i = 0; i < vm->n; i++) {
    if (mapping_contains (tag, &tag->enumeration.mappings[i], tag_value))
      return vm->option_of_mapping[i];
  }
  return -1;
}

/* --- the encoder --------------------------------------------------------- */

static inline gboolean
types_compatible (GstCtfFieldClassType a, GstCtfFieldClassType b)
{
  if (a == b)
    return TRUE;
  return (a == GST_CTF_FIELD_CLASS_INTEGER || a == GST_CTF_FIELD_CLASS_ENUM)
      && (b == GST_CTF_FIELD_CLASS_INTEGER || b == GST_CTF_FIELD_CLASS_ENUM);
}

/* Packet header and context fields whose value the writer owns. */
static guint64
packet_meaning_value (GstCtfPacketWriter * w, const GstCtfFieldClass * fc,
    guint64 raw)
{
  const GstCtfPacketWriterParams *p = &w->params;

  switch (fc->meaning) {
    case GST_CTF_MEANING_MAGIC:
      return CTF_MAGIC;
    case GST_CTF_MEANING_STREAM_CLASS_ID:
      return w->sc->id;
    case GST_CTF_MEANING_STREAM_INSTANCE_ID:
      return p->stream_instance_id;
    case GST_CTF_MEANING_EVENTS_DISCARDED:
      return p->events_discarded;
    case GST_CTF_MEANING_PACKET_SEQ_NUM:
      return p->packet_seq_num;
    case GST_CTF_MEANING_TIMESTAMP_BEGIN:
      w->has_tb_field = TRUE;
      if (p->has_timestamp_begin)
        return p->timestamp_begin;
      w->patches[PATCH_TIMESTAMP_BEGIN].fc = fc;
      w->patches[PATCH_TIMESTAMP_BEGIN].offset = w->pos;
      return 0;
    case GST_CTF_MEANING_TIMESTAMP_END:
      if (p->has_timestamp_end)
        return p->timestamp_end;
      w->patches[PATCH_TIMESTAMP_END].fc = fc;
      w->patches[PATCH_TIMESTAMP_END].offset = w->pos;
      return 0;
    case GST_CTF_MEANING_CONTENT_SIZE:
      w->patches[PATCH_CONTENT_SIZE].fc = fc;
      w->patches[PATCH_CONTENT_SIZE].offset = w->pos;
      return 0;
    case GST_CTF_MEANING_PACKET_SIZE:
      w->patches[PATCH_PACKET_SIZE].fc = fc;
      w->patches[PATCH_PACKET_SIZE].offset = w->pos;
      return 0;
    default:
      return raw;
  }
}

static inline gboolean
int_fits (const GstCtfFieldClass * fc, guint64 raw)
{
  guint size = fc->integer.size;

  if (size >= 64)
    return TRUE;
  if (!fc->integer.is_signed)
    return (raw >> size) == 0;
  else {
    gint64 s = (gint64) raw;
    gint64 max = (G_GINT64_CONSTANT (1) << (size - 1)) - 1;

    return s >= -max - 1 && s <= max;
  }
}

static gboolean encode_field (GstCtfPacketWriter * w,
    const GstCtfFieldClass * fc, Cursor * c, guint depth, GError ** error);

/* CTF2-SPEC-2.0 §5.4.6: the shortest LEB128 of @v (byte-aligned: the
 * caller aligned), 7 bits a byte, the high bit on all but the last. */
static gboolean
encode_leb128 (GstCtfPacketWriter * w, guint64 v, gboolean is_signed,
    GError ** error)
{
  guint8 b[10];
  guint n = 0;

  for (;;) {
    guint8 x = v & 0x7f;
    gboolean last;

    v = is_signed ? (guint64) ((gint64) v >> 7) : v >> 7;
    if (is_signed)
      last = (v == 0 && !(x & 0x40)) || (v == G_MAXUINT64 && (x & 0x40));
    else
      last = v == 0;
    if (last || n == 9) {
      b[n++] = x;
      break;
    }
    b[n++] = x | 0x80;
  }
  if (!w->dry) {
    if (!ensure_bytes (w, (w->pos >> 3) + n, error))
      return FALSE;
    memcpy (w->buf + (w->pos >> 3), b, n);
  }
  w->pos += (guint64) n * 8;
  return TRUE;
}

static gboolean
encode_integer (GstCtfPacketWriter * w, const GstCtfFieldClass * fc,
    const GstCtfFieldValue * val, GError ** error)
{
  guint64 raw = val->v.u;
  guint size = fc->integer.size;

  if (G_UNLIKELY (w->scope <= GST_CTF_SCOPE_PACKET_CONTEXT
          && fc->meaning != GST_CTF_MEANING_NONE))
    raw = packet_meaning_value (w, fc, raw);
  if (G_UNLIKELY (size == 0 || size > 64)) {
    VALUE_ERROR (w, error, val, "integer size %u not supported", size);
    return FALSE;
  }
  if (G_UNLIKELY (!int_fits (fc, raw))) {
    if (fc->integer.is_signed)
      VALUE_ERROR (w, error, val, "expected a signed %u-bit value, found %"
          G_GINT64_FORMAT, size, (gint64) raw);
    else
      VALUE_ERROR (w, error, val, "expected an unsigned %u-bit value, found %"
          G_GUINT64_FORMAT, size, raw);
    return FALSE;
  }
  /* Keep what the reader keeps: signed values sign-extended. */
  if (fc->value_slot >= 0 && (guint) fc->value_slot < w->n_slots)
    w->slots[fc->value_slot] = raw;
  if (fc->form == GST_CTF_FIELD_FORM_LEB128)
    return encode_leb128 (w, raw, fc->integer.is_signed, error);
  if (size < 64)
    raw &= (G_GUINT64_CONSTANT (1) << size) - 1;
  if (!write_bits (w, size, raw, fc->integer.byte_order, error))
    return FALSE;
  return TRUE;
}

static gboolean
encode_text (GstCtfPacketWriter * w, const GstCtfFieldValue * val,
    guint64 len, GError ** error)
{
  if (G_UNLIKELY (val->v.s.len != len)) {
    VALUE_ERROR (w, error, val, "expected %" G_GUINT64_FORMAT
        " text bytes, found %u", len, val->v.s.len);
    return FALSE;
  }
  if (len == 0)
    return TRUE;
  if (G_UNLIKELY (val->v.s.ptr == NULL)) {
    VALUE_ERROR (w, error, val, "text bytes missing");
    return FALSE;
  }
  if (!w->dry) {
    if (!ensure_bytes (w, (w->pos >> 3) + len, error))
      return FALSE;
    memcpy (w->buf + (w->pos >> 3), val->v.s.ptr, len);
  }
  w->pos += len * 8;
  return TRUE;
}

static gboolean
encode_field (GstCtfPacketWriter * w, const GstCtfFieldClass * fc,
    Cursor * c, guint depth, GError ** error)
{
  const GstCtfFieldValue *val;
  guint64 len, k;
  guint i;

  if (G_UNLIKELY (c->i >= c->n)) {
    VALUE_ERROR (w, error, NULL, "expected a value, found the end of the %u "
        "values", c->n);
    return FALSE;
  }
  val = &c->v[c->i++];
  if (G_UNLIKELY (depth > MAX_DEPTH)) {
    VALUE_ERROR (w, error, val, "nesting deeper than %d", MAX_DEPTH);
    return FALSE;
  }
  if (G_UNLIKELY (val->fc != NULL && val->fc != fc
          && !types_compatible (val->fc->type, fc->type))) {
    VALUE_ERROR (w, error, val, "expected a value of field class type %d, "
        "found type %d", fc->type, val->fc->type);
    return FALSE;
  }
  if (!align_to (w, fc->alignment, error))
    return FALSE;

  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      return encode_integer (w, fc, val, error);

    case GST_CTF_FIELD_CLASS_FLOAT:{
      guint size = fc->floating.exp_dig + fc->floating.mant_dig;

      if (size == 32) {
        gfloat f = (gfloat) val->v.d;
        guint32 b;

        memcpy (&b, &f, 4);
        return write_bits (w, 32, b, fc->floating.byte_order, error);
      } else if (size == 64) {
        guint64 b;

        memcpy (&b, &val->v.d, 8);
        return write_bits (w, 64, b, fc->floating.byte_order, error);
      }
      VALUE_ERROR (w, error, val, "expected a 32- or 64-bit float class, "
          "found %u bits", size);
      return FALSE;
    }

    case GST_CTF_FIELD_CLASS_STRING:{
      guint32 slen = val->v.s.len;
      /* CTF 2 UTF-16/32: a null code unit of 2 or 4 bytes ends it */
      guint unit = _gst_ctf_encoding_unit (fc->string.encoding);

      if (G_UNLIKELY (slen > 0 && (val->v.s.ptr == NULL || slen % unit != 0
                  || _gst_ctf_wide_text_len (fc->string.encoding,
                      (const guint8 *) val->v.s.ptr, slen) != slen))) {
        VALUE_ERROR (w, error, val, "expected a string without null code "
            "units of %u bytes", unit);
        return FALSE;
      }
      /* strings are byte-aligned (§4.2.5): align_to did it */
      if (!w->dry) {
        guint64 at = w->pos >> 3;

        if (!ensure_bytes (w, at + slen + unit, error))
          return FALSE;
        if (slen > 0)
          memcpy (w->buf + at, val->v.s.ptr, slen);
        memset (w->buf + at + slen, 0, unit);
      }
      w->pos += ((guint64) slen + unit) * 8;
      return TRUE;
    }

    case GST_CTF_FIELD_CLASS_STRUCT:
      if (G_UNLIKELY (val->v.u != fc->n_members)) {
        VALUE_ERROR (w, error, val, "expected a struct of %u members, found %"
            G_GUINT64_FORMAT, fc->n_members, val->v.u);
        return FALSE;
      }
      for (i = 0; i < fc->n_members; i++) {
        if (!encode_field (w, fc->members[i].fc, c, depth + 1, error))
          return FALSE;
      }
      return TRUE;

    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      if (fc->type == GST_CTF_FIELD_CLASS_ARRAY) {
        len = fc->length;
      } else {
        const GstCtfFieldClass *lf = fc->ref_target;

        if (G_UNLIKELY (lf == NULL || lf->value_slot < 0
                || (guint) lf->value_slot >= w->n_slots)) {
          VALUE_ERROR (w, error, val, "sequence length field `%s` not "
              "resolved", fc->ref_path ? fc->ref_path : "");
          return FALSE;
        }
        len = w->slots[lf->value_slot];
      }
      if (fc->element == NULL) {
        VALUE_ERROR (w, error, val, "array without element class");
        return FALSE;
      }
      if (is_text_element (fc->element)) {
        if (!align_to (w, fc->element->alignment, error))
          return FALSE;
        return encode_text (w, val, len, error);
      }
      if (G_UNLIKELY (val->v.u != len)) {
        VALUE_ERROR (w, error, val, "expected %" G_GUINT64_FORMAT
            " elements (the %s), found %" G_GUINT64_FORMAT, len,
            fc->type == GST_CTF_FIELD_CLASS_ARRAY ? "array length" :
            "sequence length field's value", val->v.u);
        return FALSE;
      }
      for (k = 0; k < len; k++) {
        if (!encode_field (w, fc->element, c, depth + 1, error))
          return FALSE;
      }
      return TRUE;

    case GST_CTF_FIELD_CLASS_VARIANT:{
      guint64 opt = val->v.u;

      /* an absent CTF 2 optional (gstctf-reader.h): no data */
      if (opt == G_MAXUINT32 && fc->form == GST_CTF_FIELD_FORM_OPTIONAL)
        return TRUE;
      if (G_UNLIKELY (opt >= fc->n_members)) {
        VALUE_ERROR (w, error, val, "expected an option index below %u, "
            "found %" G_GUINT64_FORMAT, fc->n_members, opt);
        return FALSE;
      }
      /* header templates select options by construction */
      if (w->scope != GST_CTF_SCOPE_EVENT_HEADER && fc->ref_target != NULL
          && fc->ref_target->value_slot >= 0
          && (guint) fc->ref_target->value_slot < w->n_slots) {
        guint64 tag = w->slots[fc->ref_target->value_slot];
        gint sel = variant_option_for (w, fc, tag);

        if (G_UNLIKELY (sel != -2 && sel != (gint) opt)) {
          VALUE_ERROR (w, error, val, "tag `%s` value %" G_GINT64_FORMAT
              " selects option %d, found option %" G_GUINT64_FORMAT
              " (`%s`)", fc->ref_path ? fc->ref_path : "", (gint64) tag,
              sel, opt, fc->members[opt].name);
          return FALSE;
        }
      }
      return encode_field (w, fc->members[opt].fc, c, depth + 1, error);
    }
  }
  VALUE_ERROR (w, error, val, "unknown field class type %d", fc->type);
  return FALSE;
}

/* For gstctf-packet-writer-layout.c. */
gint
_gst_ctf_pw_variant_option_for (GstCtfPacketWriter * w,
    const GstCtfFieldClass * var, guint64 tag_value)
{
  return variant_option_for (w, var, tag_value);
}

gboolean
_gst_ctf_pw_encode_field (GstCtfPacketWriter * w, const GstCtfFieldClass * fc,
    Cursor * c, guint depth, GError ** error)
{
  return encode_field (w, fc, c, depth, error);
}

/* Writes @vals (laid out as the template of @f) as encode_scope() would.
 * FALSE (nothing to trust in the packet past the start position) when a
 * value does not fit its field: encode_scope() then says why. */
static gboolean
flat_encode (GstCtfPacketWriter * w, const Flat * f,
    const GstCtfFieldValue * vals, gboolean packet_scope, GError ** error)
{
  guint i;

  for (i = 0; i < f->n_ops; i++) {
    const FlatOp *op = &f->ops[i];
    const GstCtfFieldClass *fc = op->fc;
    guint64 v;
    guint size;

    if (op->align > 1) {
      guint64 a = op->align;

      w->pos = (w->pos + a - 1) & ~(a - 1);
    }
    if (fc == NULL) {
      if (!ensure_bytes (w, (w->pos + 7) >> 3, error))
        return FALSE;
      continue;
    }
    v = vals[op->idx].v.u;
    if (packet_scope && fc->meaning != GST_CTF_MEANING_NONE)
      v = packet_meaning_value (w, fc, v);
    if (G_UNLIKELY (!int_fits (fc, v)))
      return FALSE;
    if (fc->value_slot >= 0 && (guint) fc->value_slot < w->n_slots)
      w->slots[fc->value_slot] = v;
    size = fc->integer.size;
    if (size < 64)
      v &= (G_GUINT64_CONSTANT (1) << size) - 1;
    if (!ensure_bytes (w, (w->pos + size + 7) >> 3, error))
      return FALSE;
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
    if ((w->pos & 7) == 0 && fc->integer.byte_order == GST_CTF_BYTE_ORDER_LE
        && (size == 8 || size == 16 || size == 32 || size == 64)) {
      guint8 *p = w->buf + (w->pos >> 3);

      /* the common case in full: one store */
      if (size == 8) {
        *p = (guint8) v;
      } else if (size == 16) {
        guint16 x = (guint16) v;

        memcpy (p, &x, 2);
      } else if (size == 32) {
        guint32 x = (guint32) v;

        memcpy (p, &x, 4);
      } else {
        memcpy (p, &v, 8);
      }
    } else
#endif
      put_bits (w->buf, w->pos, size, v, fc->integer.byte_order);
    w->pos += size;
  }
  return TRUE;
}

/* Encodes one scope.  NULL values are accepted for an absent scope and for
 * an empty struct. */
static gboolean
encode_scope (GstCtfPacketWriter * w, GstCtfScope scope,
    const GstCtfFieldClass * fc, const GstCtfFieldValue * vals, guint n,
    GError ** error)
{
  Cursor c = { vals, n, 0 };
  GstCtfFieldValue empty = { NULL, NULL, 1, {0} };

  w->scope = scope;
  if (fc == NULL) {
    if (G_UNLIKELY (n > 0)) {
      VALUE_ERROR (w, error, NULL, "expected no values (the scope has no "
          "field class), found %u", n);
      return FALSE;
    }
    return TRUE;
  }
  if (n == 0 && fc->type == GST_CTF_FIELD_CLASS_STRUCT
      && fc->n_members == 0) {
    c.v = &empty;
    c.n = 1;
  }
  if (!encode_field (w, fc, &c, 0, error))
    return FALSE;
  if (G_UNLIKELY (c.i != c.n)) {
    VALUE_ERROR (w, error, &c.v[c.i], "expected %u values, found %u", c.i,
        c.n);
    return FALSE;
  }
  return TRUE;
}

/* --- public -------------------------------------------------------------- */

GstCtfPacketWriter *
gst_ctf_packet_writer_new (GstCtfTraceClass * tc, guint64 stream_class_id,
    GError ** error)
{
  GstCtfPacketWriter *w;
  const GstCtfStreamClass *sc;
  guint i;

  g_return_val_if_fail (tc != NULL, NULL);

  sc = gst_ctf_trace_class_find_stream_class (tc, stream_class_id);
  if (sc == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_UNKNOWN_STREAM_CLASS,
        "Cannot create packet writer: stream-class-id=%" G_GUINT64_FORMAT
        ", expected a stream class of the trace class", stream_class_id);
    return NULL;
  }
  w = g_new0 (GstCtfPacketWriter, 1);
  w->tc = gst_ctf_trace_class_ref (tc);
  w->sc = sc;
  w->allow_wrap = TRUE;
  w->n_slots = tc->n_value_slots;
  w->slots = g_new0 (guint64, MAX (w->n_slots, 1));
  w->zeros = g_malloc0 (4096);
  w->variant_maps = g_hash_table_new_full (NULL, NULL, NULL,
      variant_map_free);

  collect_variants (w, tc->packet_header, 0);
  collect_variants (w, sc->packet_context, 0);
  collect_variants (w, sc->event_header, 0);
  collect_variants (w, sc->event_common_context, 0);
  for (i = 0; i < sc->event_classes->len; i++) {
    const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, i);

    collect_variants (w, ec->context, 0);
    collect_variants (w, ec->payload, 0);
  }

  w->ph_vals = _gst_ctf_pw_build_simple_template (w, tc->packet_header, &w->n_ph);
  w->pc_vals = _gst_ctf_pw_build_simple_template (w, sc->packet_context, &w->n_pc);
  if ((tc->packet_header && w->ph_vals == NULL)
      || (sc->packet_context && w->pc_vals == NULL)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Cannot create packet writer: stream-class-id=%" G_GUINT64_FORMAT
        ", expected a packet header and context of bounded size",
        stream_class_id);
    gst_ctf_packet_writer_free (w);
    return NULL;
  }
  /* the packet header's UUID (CTF 1.8 §5.1) is the trace's */
  for (i = 0; i < w->n_ph; i++) {
    const GstCtfFieldClass *fc = w->ph_vals[i].fc;

    if (fc->meaning == GST_CTF_MEANING_UUID
        && fc->type == GST_CTF_FIELD_CLASS_ARRAY && fc->length == 16) {
      if (is_text_element (fc->element)) {
        w->ph_vals[i].v.s.ptr = (const gchar *) tc->uuid;
      } else if (w->ph_vals[i].end == i + 17) {
        guint k;

        for (k = 0; k < 16; k++)
          w->ph_vals[i + 1 + k].v.u = tc->uuid[k];
      }
    }
  }
  if (!_gst_ctf_pw_build_layouts (w, error)) {
    gst_ctf_packet_writer_free (w);
    return NULL;
  }
  _gst_ctf_pw_flat_init (&w->ph_flat, tc->packet_header, w->ph_vals, w->n_ph);
  _gst_ctf_pw_flat_init (&w->pc_flat, sc->packet_context, w->pc_vals, w->n_pc);
  w->ph_cacheable = w->ph_flat.n_ops > 0;
  for (i = 0; i < w->ph_flat.n_ops; i++) {
    const GstCtfFieldClass *fc = w->ph_flat.ops[i].fc;

    if (fc != NULL && (fc->value_slot >= 0 ||
            (fc->meaning != GST_CTF_MEANING_NONE
                && fc->meaning != GST_CTF_MEANING_MAGIC
                && fc->meaning != GST_CTF_MEANING_UUID
                && fc->meaning != GST_CTF_MEANING_STREAM_CLASS_ID
                && fc->meaning != GST_CTF_MEANING_STREAM_INSTANCE_ID)))
      w->ph_cacheable = FALSE;
  }
  return w;
}

void
gst_ctf_packet_writer_free (GstCtfPacketWriter * w)
{
  guint i;

  if (w == NULL)
    return;
  for (i = 0; i < w->n_layouts; i++)
    _gst_ctf_pw_layout_clear (&w->layouts[i]);
  g_free (w->layouts);
  g_free (w->ph_vals);
  g_free (w->pc_vals);
  g_free (w->ph_flat.ops);
  g_free (w->pc_flat.ops);
  for (i = 0; i < PH_CACHE_N; i++)
    g_free (w->ph_cache[i].bytes);
  g_hash_table_unref (w->variant_maps);
  g_free (w->ec_info);
  g_free (w->zeros);
  g_free (w->slots);
  g_free (w->buf);
  gst_ctf_trace_class_unref (w->tc);
  g_free (w);
}

const GstCtfStreamClass *
gst_ctf_packet_writer_get_stream_class (GstCtfPacketWriter * w)
{
  return w->sc;
}

void
gst_ctf_packet_writer_set_compact_wrap (GstCtfPacketWriter * w,
    gboolean allow)
{
  w->allow_wrap = allow;
}

gboolean
gst_ctf_packet_writer_set_context_field (GstCtfPacketWriter * w,
    const gchar * name, guint64 value)
{
  guint i, idx;

  if (w->pc_vals == NULL)
    return FALSE;
  idx = 1;
  for (i = 0; i < w->sc->packet_context->n_members && idx < w->n_pc; i++) {
    const GstCtfFieldClass *fc = w->pc_vals[idx].fc;

    if (strcmp (w->sc->packet_context->members[i].name, name) == 0) {
      if (fc->type != GST_CTF_FIELD_CLASS_INTEGER
          && fc->type != GST_CTF_FIELD_CLASS_ENUM)
        return FALSE;
      w->pc_vals[idx].v.u = value;
      return TRUE;
    }
    idx = w->pc_vals[idx].end;
  }
  return FALSE;
}

gboolean
gst_ctf_packet_writer_begin_packet (GstCtfPacketWriter * w,
    const GstCtfPacketWriterParams * params, const GstCtfFieldValue * context,
    guint n_context, GError ** error)
{
  PhCache *pc;
  guint i;

  g_return_val_if_fail (w != NULL, FALSE);

  memset (&w->params, 0, sizeof (w->params));
  if (params)
    w->params = *params;
  memset (w->patches, 0, sizeof (w->patches));
  w->pos = 0;
  w->len = 0;
  w->n_events = 0;
  w->in_packet = FALSE;
  w->has_tb_field = FALSE;
  w->event_name = NULL;
  w->dry = FALSE;
  if (w->params.packet_size % 8 != 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot begin packet: stream-class-id=%" G_GUINT64_FORMAT
        ", packet-size=%" G_GUINT64_FORMAT " bits, expected a multiple of 8",
        w->sc->id, w->params.packet_size);
    return FALSE;
  }
  w->scope = GST_CTF_SCOPE_PACKET_HEADER;
  pc = NULL;
  for (i = 0; w->ph_cacheable && i < PH_CACHE_N; i++) {
    if (w->ph_cache[i].valid
        && w->ph_cache[i].instance == w->params.stream_instance_id) {
      pc = &w->ph_cache[i];
      break;
    }
  }
  if (pc != NULL) {
    gsize nb = (pc->bits + 7) >> 3;

    if (!ensure_bytes (w, nb, error))
      return FALSE;
    if (nb > 0)
      memcpy (w->buf, pc->bytes, nb);
    w->pos = pc->bits;
  } else if (w->ph_flat.n_ops > 0 && flat_encode (w, &w->ph_flat,
          w->ph_vals, TRUE, NULL)) {
    if (w->ph_cacheable) {
      gsize nb = (w->pos + 7) >> 3;

      pc = &w->ph_cache[w->ph_cache_next];
      w->ph_cache_next = (w->ph_cache_next + 1) % PH_CACHE_N;
      pc->bytes = g_realloc (pc->bytes, MAX (nb, 1));
      if (nb > 0)
        memcpy (pc->bytes, w->buf, nb);
      pc->bits = w->pos;
      pc->instance = w->params.stream_instance_id;
      pc->valid = TRUE;
    }
  } else {
    w->pos = 0;
    if (!encode_scope (w, GST_CTF_SCOPE_PACKET_HEADER, w->tc->packet_header,
            w->ph_vals, w->n_ph, error))
      return FALSE;
  }
  if (context == NULL) {
    context = w->pc_vals;
    n_context = w->n_pc;
  }
  {
    guint64 start = w->pos;

    /* the template's layout holds for any values when it has no variant */
    w->scope = GST_CTF_SCOPE_PACKET_CONTEXT;
    if (w->pc_flat.n_ops == 0 || n_context != w->pc_flat.n_vals
        || (context != w->pc_vals && w->pc_flat.has_variant)
        || !flat_encode (w, &w->pc_flat, context, TRUE, NULL)) {
      w->pos = start;
      if (!encode_scope (w, GST_CTF_SCOPE_PACKET_CONTEXT,
              w->sc->packet_context, context, n_context, error))
        return FALSE;
    }
  }
  /* the reader starts from timestamp_begin when the context has it */
  w->clock = (w->has_tb_field && w->params.has_timestamp_begin) ?
      w->params.timestamp_begin : w->params.clock_value;
  w->first_clock = w->last_clock = w->clock;
  w->in_packet = TRUE;
  return TRUE;
}

/* The checked EcInfo of @ec, or NULL when @ec is not one of the writer's
 * stream class (its field classes' value slots would not be the writer's
 * slots). */
static inline EcInfo *
ec_info_get (GstCtfPacketWriter * w, const GstCtfEventClass * ec)
{
  EcInfo *e;

  if (G_LIKELY (ec->id < w->n_ec_info && w->ec_info[ec->id].ec == ec))
    return &w->ec_info[ec->id];
  if (gst_ctf_stream_class_find_event_class (w->sc, ec->id) != ec)
    return NULL;
  if (ec->id >= EC_INFO_MAX) {
    e = &w->ec_spare;
    if (e->ec != ec)
      _gst_ctf_pw_ec_info_fill (w, e, ec);
    return e;
  }
  if (ec->id >= w->n_ec_info) {
    guint n = MIN (MAX ((guint) ec->id + 1, w->n_ec_info * 2),
        EC_INFO_MAX);

    w->ec_info = g_renew (EcInfo, w->ec_info, n);
    memset (w->ec_info + w->n_ec_info, 0,
        (n - w->n_ec_info) * sizeof (EcInfo));
    w->n_ec_info = n;
  }
  e = &w->ec_info[ec->id];
  _gst_ctf_pw_ec_info_fill (w, e, ec);
  return e;
}

static gboolean
check_event_class (GstCtfPacketWriter * w, const GstCtfEventClass * ec,
    EcInfo ** e, GError ** error)
{
  if (G_UNLIKELY (!w->in_packet)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot write event: stream-class-id=%" G_GUINT64_FORMAT
        ", expected a begun packet", w->sc->id);
    return FALSE;
  }
  /* the event class's field classes must be the writer's own: their value
   * slots index the writer's slots */
  *e = ec_info_get (w, ec);
  if (G_UNLIKELY (*e == NULL)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_UNKNOWN_EVENT_CLASS,
        "Cannot write event: stream-class-id=%" G_GUINT64_FORMAT
        ", event-class-id=%" G_GUINT64_FORMAT ", event-class-name=\"%s\", "
        "expected an event class of the stream class", w->sc->id, ec->id,
        ec->name ? ec->name : "");
    return FALSE;
  }
  return TRUE;
}

/* Writes the event header of layout @l (filled). */
static inline gboolean
encode_header (GstCtfPacketWriter * w, const Layout * l, GError ** error)
{
  guint64 start = w->pos;

  w->scope = GST_CTF_SCOPE_EVENT_HEADER;
  if (l->flat.n_ops > 0 && flat_encode (w, &l->flat, l->vals, FALSE, NULL))
    return TRUE;
  w->pos = start;
  return encode_scope (w, GST_CTF_SCOPE_EVENT_HEADER, w->sc->event_header,
      l->vals, l->n_vals, error);
}

/* After an event was written. */
static inline void
event_done (GstCtfPacketWriter * w, guint64 clock_value)
{
  if (w->n_events == 0)
    w->first_clock = clock_value;
  w->last_clock = clock_value;
  w->stream_last_clock = clock_value;
  w->clock = clock_value;
  w->n_events++;
  w->event_name = NULL;
}

/* Puts the packet back as it was at bit @save_pos (@save_byte: the byte
 * that held it, when @save_pos is inside a byte). */
static void
rollback (GstCtfPacketWriter * w, guint64 save_pos, guint8 save_byte)
{
  gsize keep = (save_pos + 7) >> 3;

  /* leave the bytes past the content as zeros, as if never written */
  if (w->len > keep) {
    memset (w->buf + keep, 0, w->len - keep);
    w->len = keep;
  }
  if (save_pos & 7)
    w->buf[save_pos >> 3] = save_byte;
  w->pos = save_pos;
  w->event_name = NULL;
}

gboolean
gst_ctf_packet_writer_append_event (GstCtfPacketWriter * w,
    const GstCtfEventClass * ec, guint64 clock_value,
    const GstCtfFieldValue * common_context, guint n_common_context,
    const GstCtfFieldValue * specific_context, guint n_specific_context,
    const GstCtfFieldValue * payload, guint n_payload, GError ** error)
{
  guint64 save_pos;
  guint8 save_byte = 0;
  Layout *l;
  EcInfo *e;

  g_return_val_if_fail (w != NULL && ec != NULL, FALSE);

  if (!check_event_class (w, ec, &e, error))
    return FALSE;
  w->event_name = ec->name;
  l = _gst_ctf_pw_choose_layout (w, e, clock_value, error);
  if (G_UNLIKELY (l == NULL)) {
    w->event_name = NULL;
    return FALSE;
  }

  save_pos = w->pos;
  if (save_pos & 7)
    save_byte = w->buf[save_pos >> 3];

  if (!encode_header (w, l, error)
      || !encode_scope (w, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
          w->sc->event_common_context, common_context, n_common_context,
          error)
      || !encode_scope (w, GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT, ec->context,
          specific_context, n_specific_context, error)
      || !encode_scope (w, GST_CTF_SCOPE_EVENT_PAYLOAD, ec->payload, payload,
          n_payload, error))
    goto rollback;
  if (G_UNLIKELY (w->params.packet_size != 0
          && w->pos > w->params.packet_size)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot write event: stream-class-id=%" G_GUINT64_FORMAT
        ", event-class-name=\"%s\", end-bit-offset=%" G_GUINT64_FORMAT
        ", expected at most packet-size=%" G_GUINT64_FORMAT " bits",
        w->sc->id, ec->name ? ec->name : "", w->pos, w->params.packet_size);
    goto rollback;
  }
  event_done (w, clock_value);
  return TRUE;

rollback:
  rollback (w, save_pos, save_byte);
  return FALSE;
}

gboolean
gst_ctf_packet_writer_append_event_body (GstCtfPacketWriter * w,
    const GstCtfEventClass * ec, guint64 clock_value, const guint8 * packet,
    gsize packet_size, guint64 body_offset, guint64 body_end,
    gboolean * copied, GError ** error)
{
  guint64 save_pos, out_body, a, nbytes, end_byte;
  guint8 save_byte = 0;
  Layout *l;
  EcInfo *e;

  g_return_val_if_fail (w != NULL && ec != NULL && copied != NULL, FALSE);
  *copied = FALSE;

  if (!check_event_class (w, ec, &e, error))
    return FALSE;
  if (G_UNLIKELY (packet == NULL || body_offset > body_end
          || body_end > (guint64) packet_size * 8)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot copy event body: stream-class-id=%" G_GUINT64_FORMAT
        ", event-class-name=\"%s\", body=[%" G_GUINT64_FORMAT ", %"
        G_GUINT64_FORMAT ") bits, expected a range inside the %"
        G_GSIZE_FORMAT "-byte packet", w->sc->id, ec->name ? ec->name : "",
        body_offset, body_end, packet_size);
    return FALSE;
  }
  /* Only whole bytes are copied (a partial byte's bit order depends on
   * the byte order of the field in it, CTF 1.8 §4.1.5). */
  a = e->body_align;
  if (a == 0 || (body_offset & 7) != 0 || (body_end & 7) != 0)
    return TRUE;

  w->event_name = ec->name;
  l = _gst_ctf_pw_choose_layout (w, e, clock_value, error);
  if (G_UNLIKELY (l == NULL)) {
    w->event_name = NULL;
    return FALSE;
  }
  save_pos = w->pos;
  if (save_pos & 7)
    save_byte = w->buf[save_pos >> 3];
  if (!encode_header (w, l, error))
    goto rollback;
  /* CTF 1.8 §4.2.2: alignment is relative to the packet start, so the
   * body's padding and fields land the same only when the body starts
   * at the same offset modulo its largest alignment. */
  out_body = w->pos;
  if ((out_body & (a - 1)) != (body_offset & (a - 1))) {
    rollback (w, save_pos, save_byte);
    return TRUE;
  }
  nbytes = (body_end - body_offset) >> 3;
  if (G_UNLIKELY (w->params.packet_size != 0
          && out_body + nbytes * 8 > w->params.packet_size)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot write event: stream-class-id=%" G_GUINT64_FORMAT
        ", event-class-name=\"%s\", end-bit-offset=%" G_GUINT64_FORMAT
        ", expected at most packet-size=%" G_GUINT64_FORMAT " bits",
        w->sc->id, ec->name ? ec->name : "", out_body + nbytes * 8,
        w->params.packet_size);
    goto rollback;
  }
  /* The copied bytes need no zeroing first: they are all overwritten
   * (the bytes before them are, up to the body's start). */
  if (!ensure_bytes (w, out_body >> 3, error))
    goto rollback;
  end_byte = (out_body >> 3) + nbytes;
  if (end_byte > w->len) {
    if (end_byte > w->cap || end_byte > MAX_PACKET_BYTES) {
      if (!ensure_bytes_slow (w, end_byte, error))
        goto rollback;
    } else {
      w->len = end_byte;
    }
  }
  if (nbytes > 0)
    memcpy (w->buf + (out_body >> 3), packet + (body_offset >> 3), nbytes);
  w->pos = out_body + nbytes * 8;
  *copied = TRUE;
  event_done (w, clock_value);
  return TRUE;

rollback:
  rollback (w, save_pos, save_byte);
  return FALSE;
}

/* Appends @n bytes at the writer's (byte-aligned) position. */
static gboolean
put_bytes (GstCtfPacketWriter * w, const guint8 * src, guint64 n,
    GError ** error)
{
  guint64 end_byte = (w->pos >> 3) + n;

  if (!ensure_bytes (w, w->pos >> 3, error))
    return FALSE;
  if (end_byte > w->len) {
    if (end_byte > w->cap || end_byte > MAX_PACKET_BYTES) {
      if (!ensure_bytes_slow (w, end_byte, error))
        return FALSE;
    } else {
      w->len = end_byte;
    }
  }
  if (n > 0)
    memcpy (w->buf + (w->pos >> 3), src, n);
  w->pos += n * 8;
  return TRUE;
}

gboolean
gst_ctf_packet_writer_append_event_spliced (GstCtfPacketWriter * w,
    const GstCtfEventClass * ec, guint64 clock_value, const guint8 * packet,
    gsize packet_size, guint64 body_offset, guint64 split, guint64 body_end,
    const guint8 * insert, gsize insert_size, gboolean * copied,
    GError ** error)
{
  guint64 save_pos, out_body, a;
  guint8 save_byte = 0;
  Layout *l;
  EcInfo *e;

  g_return_val_if_fail (w != NULL && ec != NULL && copied != NULL, FALSE);
  *copied = FALSE;

  if (!check_event_class (w, ec, &e, error))
    return FALSE;
  if (G_UNLIKELY (packet == NULL || body_offset > split || split > body_end
          || body_end > (guint64) packet_size * 8)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot copy event body: stream-class-id=%" G_GUINT64_FORMAT
        ", event-class-name=\"%s\", body=[%" G_GUINT64_FORMAT ", %"
        G_GUINT64_FORMAT ") bits split at %" G_GUINT64_FORMAT ", expected "
        "ranges inside the %" G_GSIZE_FORMAT "-byte packet", w->sc->id,
        ec->name ? ec->name : "", body_offset, body_end, split,
        packet_size);
    return FALSE;
  }
  a = e->body_align;
  /* whole bytes only, and what follows the inserted bytes must land as it
   * was: any byte shift is exact only for a body of byte-aligned fields */
  if (a == 0 || a > 8 || (body_offset & 7) != 0 || (split & 7) != 0 ||
      (body_end & 7) != 0)
    return TRUE;

  w->event_name = ec->name;
  l = _gst_ctf_pw_choose_layout (w, e, clock_value, error);
  if (G_UNLIKELY (l == NULL)) {
    w->event_name = NULL;
    return FALSE;
  }
  save_pos = w->pos;
  if (save_pos & 7)
    save_byte = w->buf[save_pos >> 3];
  if (!encode_header (w, l, error))
    goto rollback;
  out_body = w->pos;
  if ((out_body & 7) != 0) {
    rollback (w, save_pos, save_byte);
    return TRUE;
  }
  if (G_UNLIKELY (w->params.packet_size != 0 && out_body + (body_end -
              body_offset) + insert_size * 8 > w->params.packet_size)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot write event: stream-class-id=%" G_GUINT64_FORMAT
        ", event-class-name=\"%s\", end-bit-offset=%" G_GUINT64_FORMAT
        ", expected at most packet-size=%" G_GUINT64_FORMAT " bits",
        w->sc->id, ec->name ? ec->name : "", out_body + (body_end -
            body_offset) + insert_size * 8, w->params.packet_size);
    goto rollback;
  }
  if (!put_bytes (w, packet + (body_offset >> 3), (split - body_offset) >> 3,
          error) || !put_bytes (w, insert, insert_size, error) ||
      !put_bytes (w, packet + (split >> 3), (body_end - split) >> 3, error))
    goto rollback;
  *copied = TRUE;
  event_done (w, clock_value);
  return TRUE;

rollback:
  rollback (w, save_pos, save_byte);
  return FALSE;
}

guint
gst_ctf_packet_writer_get_event_count (GstCtfPacketWriter * w)
{
  return w->n_events;
}

guint64
gst_ctf_packet_writer_get_content_size (GstCtfPacketWriter * w)
{
  return w->pos;
}

guint64
gst_ctf_packet_writer_get_clock_value (GstCtfPacketWriter * w)
{
  return w->clock;
}

static gboolean
patch (GstCtfPacketWriter * w, guint which, guint64 value, GError ** error)
{
  static const gchar *const names[] = {
    "timestamp_begin", "timestamp_end", "content_size", "packet_size"
  };
  const GstCtfFieldClass *fc = w->patches[which].fc;
  guint size;

  if (fc == NULL)
    return TRUE;
  size = fc->integer.size;
  if (which <= PATCH_TIMESTAMP_END && size < 64)
    value &= (G_GUINT64_CONSTANT (1) << size) - 1;
  if (!int_fits (fc, value)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot finish packet: stream-class-id=%" G_GUINT64_FORMAT
        ", field=\"%s\", value=%" G_GUINT64_FORMAT ", expected a value that "
        "fits %u bits", w->sc->id, names[which], value, size);
    return FALSE;
  }
  put_bits (w->buf, w->patches[which].offset, size, value,
      fc->integer.byte_order);
  return TRUE;
}

const guint8 *
gst_ctf_packet_writer_finish_packet (GstCtfPacketWriter * w, gsize * size,
    GError ** error)
{
  guint64 content = w->pos, psize, tb, te;

  g_return_val_if_fail (w != NULL && size != NULL, NULL);
  *size = 0;
  if (!w->in_packet) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot finish packet: stream-class-id=%" G_GUINT64_FORMAT
        ", expected a begun packet", w->sc->id);
    return NULL;
  }
  if (w->params.packet_size != 0) {
    psize = w->params.packet_size;
    if (content > psize) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
          "Cannot finish packet: stream-class-id=%" G_GUINT64_FORMAT
          ", content-size=%" G_GUINT64_FORMAT " bits, expected at most "
          "packet-size=%" G_GUINT64_FORMAT " bits", w->sc->id, content,
          psize);
      return NULL;
    }
  } else {
    guint64 a = w->params.packet_align > 1 ? w->params.packet_align : 1;

    psize = (content + 7) / 8;
    psize = (psize + a - 1) / a * a * 8;
  }
  if (!ensure_bytes (w, psize / 8, error))
    return NULL;

  tb = w->params.has_timestamp_begin ? w->params.timestamp_begin :
      (w->n_events > 0 ? w->first_clock : w->params.clock_value);
  te = w->params.has_timestamp_end ? w->params.timestamp_end :
      (w->n_events > 0 ? w->last_clock : tb);
  if (!patch (w, PATCH_TIMESTAMP_BEGIN, tb, error)
      || !patch (w, PATCH_TIMESTAMP_END, te, error)
      || !patch (w, PATCH_CONTENT_SIZE, content, error)
      || !patch (w, PATCH_PACKET_SIZE, psize, error))
    return NULL;
  w->in_packet = FALSE;
  *size = psize / 8;
  return w->buf;
}

void
gst_ctf_packet_writer_set_timestamp_end (GstCtfPacketWriter * w,
    guint64 cycles)
{
  g_return_if_fail (w != NULL);

  w->params.has_timestamp_end = TRUE;
  w->params.timestamp_end = cycles;
}

GBytes *
gst_ctf_packet_writer_finish_packet_bytes (GstCtfPacketWriter * w,
    GError ** error)
{
  gsize size;
  const guint8 *data = gst_ctf_packet_writer_finish_packet (w, &size, error);

  if (data == NULL)
    return NULL;
  return g_bytes_new (data, size);
}
