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
#include "gstctf-packet-writer.h"

#include <string.h>

/* Limits for the templates the writer builds itself (headers). */
#define MAX_DEPTH 64
#define MAX_LAYOUTS 256
#define MAX_TEMPLATE_VALUES 65536
/* A packet larger than this is refused (content_size in bits must stay
 * far from overflow, and memory must stay bounded). */
#define MAX_PACKET_BYTES (G_GUINT64_CONSTANT (1) << 31)

#define CTF_MAGIC 0xC1FC1FC1u

typedef struct {
  const GstCtfFieldClass *variant;
  guint option;
} VariantChoice;

/* One step of a flattened scope: align, then (when @fc is set) write the
 * integer value at @idx of the scope's values. */
typedef struct {
  const GstCtfFieldClass *fc;   /* integer or enumeration, or NULL */
  guint align;                  /* bits */
  guint idx;
} FlatOp;

/* A scope whose layout is fixed by a template (no sequence, no string, no
 * text array, variants at the template's options), flattened once: what
 * encode_field() does for it per value, without walking the field class
 * tree.  The event header of each layout and the packet header and
 * context are written this way (once per event, once per packet). */
typedef struct {
  FlatOp *ops;
  guint n_ops;
  guint n_vals;                 /* values of the template */
  gboolean has_variant;         /* other values could select other options */
} Flat;

/* One event header layout: a template of values with the variant options
 * fixed. */
typedef struct {
  GstCtfFieldValue *vals;
  guint n_vals;
  guint64 bits;                 /* size when written from bit 0 */
  guint order;                  /* enumeration order, tie break */
  guint *ids;                   /* template indices of `id` fields */
  guint n_ids;
  guint *ts;                    /* template indices of clock-mapped fields */
  guint n_ts;
  /* variants whose tag is the final id field: the event id must select
   * the same option */
  VariantChoice *id_tagged;
  guint n_id_tagged;
  Flat flat;                    /* n_ops 0: not flattened */
} Layout;

/* For a variant: option index for each mapping of its tag enum. */
typedef struct {
  gint *option_of_mapping;
  guint n;
} VariantMap;

enum {
  PATCH_TIMESTAMP_BEGIN,
  PATCH_TIMESTAMP_END,
  PATCH_CONTENT_SIZE,
  PATCH_PACKET_SIZE,
  N_PATCHES
};

typedef struct {
  const GstCtfFieldClass *fc;
  guint64 offset;               /* bits */
} Patch;

/* What the writer knows of one event class of its stream class, checked
 * once: per event, a dense array indexed by the event class id replaces a
 * lookup by id (and the variant map lookups of the header checks). */
typedef struct {
  const GstCtfEventClass *ec;   /* NULL: entry not filled yet */
  /* the largest alignment (bits, at least 8) of the fields of the event's
   * body (stream event context, event context, payload); 0 when the body
   * cannot be copied as bytes (it refers to the event header, or is
   * deeper than MAX_DEPTH) */
  guint body_align;
  /* bit i: layout i can hold the event class id (layouts 0 to 63) */
  guint64 id_ok;
} EcInfo;

/* The encoded packet header of one stream instance id. */
typedef struct {
  gboolean valid;
  guint64 instance;
  guint64 bits;
  guint8 *bytes;
} PhCache;

#define PH_CACHE_N 16

/* Event class ids below this get an EcInfo slot; others share one. */
#define EC_INFO_MAX 16384
/* Bytes zeroed ahead of the write position at a time. */
#define ZERO_AHEAD 512

struct _GstCtfPacketWriter {
  GstCtfTraceClass *tc;
  const GstCtfStreamClass *sc;

  guint64 *slots;
  guint n_slots;

  guint8 *buf;
  gsize len;                    /* bytes touched (zeroed beyond) */
  gsize cap;
  guint64 pos;                  /* bits */

  gboolean in_packet;
  guint n_events;
  guint64 clock;
  guint64 first_clock;
  guint64 last_clock;
  guint64 stream_last_clock;    /* across packets, for LTTng's rule */
  gboolean has_tb_field;
  GstCtfPacketWriterParams params;
  Patch patches[N_PATCHES];
  gboolean allow_wrap;

  GstCtfScope scope;            /* scope being written */
  const gchar *event_name;      /* for messages */
  EcInfo *ec_info;              /* by event class id, n_ec_info */
  guint n_ec_info;
  EcInfo ec_spare;              /* for an id >= EC_INFO_MAX */
  gboolean dry;                 /* measure only */

  GstCtfFieldValue *ph_vals;
  guint n_ph;
  GstCtfFieldValue *pc_vals;
  guint n_pc;
  Flat ph_flat;
  Flat pc_flat;
  /* The packet header's bytes depend on the stream instance id only (no
   * slot, no field the finished packet patches): those of the last few
   * instance ids are kept and copied (one writer serves all the streams
   * of its class, which alternate). */
  gboolean ph_cacheable;
  PhCache ph_cache[PH_CACHE_N];
  guint ph_cache_next;          /* entry to replace next */

  Layout *layouts;
  guint n_layouts;

  GHashTable *variant_maps;     /* const GstCtfFieldClass * -> VariantMap */
  guint8 *zeros;                /* text arrays in templates */
};

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

typedef struct {
  const GstCtfFieldValue *v;
  guint n;
  guint i;
} Cursor;

static inline gboolean
is_text_element (const GstCtfFieldClass * el)
{
  /* CTF 1.8 §4.2.3 note: byte-aligned 8-bit integers with an encoding are
   * text; the reader gives them as one string value. */
  return el->type == GST_CTF_FIELD_CLASS_INTEGER && el->integer.size == 8
      && (el->alignment & 7) == 0
      && el->integer.encoding != GST_CTF_ENCODING_NONE;
}

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

      if (G_UNLIKELY (slen > 0 && (val->v.s.ptr == NULL
                  || memchr (val->v.s.ptr, 0, slen) != NULL))) {
        VALUE_ERROR (w, error, val, "expected a string without NUL bytes");
        return FALSE;
      }
      /* strings are byte-aligned (§4.2.5): align_to did it */
      if (!w->dry) {
        guint64 at = w->pos >> 3;

        if (!ensure_bytes (w, at + slen + 1, error))
          return FALSE;
        if (slen > 0)
          memcpy (w->buf + at, val->v.s.ptr, slen);
        w->buf[at + slen] = 0;
      }
      w->pos += ((guint64) slen + 1) * 8;
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

/* Flattens the template @vals of @fc into @ops; FALSE when the layout is
 * not fixed by the template. */
static gboolean
flat_build (const GstCtfFieldClass * fc, const GstCtfFieldValue * vals,
    guint n, guint * i, GArray * ops, gboolean * has_variant, guint depth)
{
  FlatOp op = { NULL, 1, 0 };
  guint idx;
  guint64 k;

  if (fc == NULL || depth > MAX_DEPTH || *i >= n)
    return FALSE;
  idx = (*i)++;
  if (vals[idx].fc != fc)
    return FALSE;
  op.align = MAX (fc->alignment, 1);
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (fc->integer.size == 0 || fc->integer.size > 64)
        return FALSE;
      op.fc = fc;
      op.idx = idx;
      g_array_append_val (ops, op);
      return TRUE;
    case GST_CTF_FIELD_CLASS_STRUCT:
      if (vals[idx].v.u != fc->n_members)
        return FALSE;
      if (op.align > 1)
        g_array_append_val (ops, op);
      for (k = 0; k < fc->n_members; k++)
        if (!flat_build (fc->members[k].fc, vals, n, i, ops, has_variant,
                depth + 1))
          return FALSE;
      return TRUE;
    case GST_CTF_FIELD_CLASS_ARRAY:
      if (fc->element == NULL || is_text_element (fc->element)
          || vals[idx].v.u != fc->length || fc->length > MAX_TEMPLATE_VALUES)
        return FALSE;
      if (op.align > 1)
        g_array_append_val (ops, op);
      for (k = 0; k < fc->length; k++)
        if (!flat_build (fc->element, vals, n, i, ops, has_variant,
                depth + 1))
          return FALSE;
      return TRUE;
    case GST_CTF_FIELD_CLASS_VARIANT:
      if (vals[idx].v.u >= fc->n_members)
        return FALSE;
      *has_variant = TRUE;
      if (op.align > 1)
        g_array_append_val (ops, op);
      return flat_build (fc->members[vals[idx].v.u].fc, vals, n, i, ops,
          has_variant, depth + 1);
    default:
      return FALSE;
  }
}

/* Flattens a scope's template; leaves @f empty when it cannot. */
static void
flat_init (Flat * f, const GstCtfFieldClass * fc,
    const GstCtfFieldValue * vals, guint n)
{
  GArray *ops = g_array_new (FALSE, FALSE, sizeof (FlatOp));
  guint i = 0;
  gboolean has_variant = FALSE;

  memset (f, 0, sizeof (*f));
  if (fc != NULL && vals != NULL
      && flat_build (fc, vals, n, &i, ops, &has_variant, 0) && i == n
      && ops->len > 0) {
    guint k, out = 0, pending = 1;

    /* an align-only step merges into the next field's alignment (both
     * powers of two: aligning to one then the other is aligning to the
     * larger); only a trailing one stays */
    for (k = 0; k < ops->len; k++) {
      FlatOp op = g_array_index (ops, FlatOp, k);

      pending = MAX (pending, op.align);
      if (op.fc == NULL && k + 1 < ops->len)
        continue;
      op.align = pending;
      pending = 1;
      g_array_index (ops, FlatOp, out++) = op;
    }
    g_array_set_size (ops, out);
    f->n_ops = ops->len;
    f->ops = (FlatOp *) g_array_free (ops, FALSE);
    f->n_vals = n;
    f->has_variant = has_variant;
  } else {
    g_array_free (ops, TRUE);
  }
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

/* --- templates ----------------------------------------------------------- */

typedef struct {
  GArray *vals;                 /* GstCtfFieldValue */
  GArray *choices;              /* guint, option of the k-th variant met */
  GArray *radix;                /* guint, options of the k-th variant met */
  guint k;
  gboolean bad;
  guint8 *zeros;
  gsize n_zeros;
} TBuild;

static void
tbuild (TBuild * b, const GstCtfFieldClass * fc, const gchar * name,
    guint depth)
{
  GstCtfFieldValue v = { fc, name, 0, {0} };
  guint idx = b->vals->len;
  guint64 k;
  guint i;

  if (depth > MAX_DEPTH || b->vals->len >= MAX_TEMPLATE_VALUES) {
    b->bad = TRUE;
    return;
  }
  g_array_append_val (b->vals, v);
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_STRING:
      g_array_index (b->vals, GstCtfFieldValue, idx).v.s.ptr = "";
      break;
    case GST_CTF_FIELD_CLASS_STRUCT:
      g_array_index (b->vals, GstCtfFieldValue, idx).v.u = fc->n_members;
      for (i = 0; i < fc->n_members && !b->bad; i++)
        tbuild (b, fc->members[i].fc, fc->members[i].name, depth + 1);
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
      if (fc->element == NULL || fc->length > MAX_TEMPLATE_VALUES) {
        b->bad = TRUE;
        break;
      }
      if (is_text_element (fc->element)) {
        if (fc->length > b->n_zeros)
          b->bad = TRUE;
        g_array_index (b->vals, GstCtfFieldValue, idx).v.s.ptr =
            (const gchar *) b->zeros;
        g_array_index (b->vals, GstCtfFieldValue, idx).v.s.len = fc->length;
        break;
      }
      g_array_index (b->vals, GstCtfFieldValue, idx).v.u = fc->length;
      for (k = 0; k < fc->length && !b->bad; k++)
        tbuild (b, fc->element, NULL, depth + 1);
      break;
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      /* empty: its length field defaults to 0 too */
      if (fc->element && is_text_element (fc->element))
        g_array_index (b->vals, GstCtfFieldValue, idx).v.s.ptr = "";
      break;
    case GST_CTF_FIELD_CLASS_VARIANT:{
      guint kk = b->k++;
      guint choice;

      if (fc->n_members == 0) {
        b->bad = TRUE;
        break;
      }
      if (kk >= b->choices->len) {
        guint zero = 0;

        g_array_append_val (b->choices, zero);
      }
      choice = g_array_index (b->choices, guint, kk);
      g_array_set_size (b->radix, MAX (b->radix->len, kk + 1));
      g_array_index (b->radix, guint, kk) = fc->n_members;
      g_array_index (b->vals, GstCtfFieldValue, idx).v.u = choice;
      tbuild (b, fc->members[choice].fc, fc->members[choice].name, depth + 1);
      break;
    }
    default:
      break;
  }
  g_array_index (b->vals, GstCtfFieldValue, idx).end = b->vals->len;
}

static void
layout_clear (Layout * l)
{
  g_free (l->vals);
  g_free (l->ids);
  g_free (l->ts);
  g_free (l->id_tagged);
  g_free (l->flat.ops);
}

static gint
find_template_index (const GstCtfFieldValue * vals, guint before,
    const GstCtfFieldClass * fc)
{
  guint j;

  for (j = 0; j < before; j++) {
    if (vals[j].fc == fc)
      return j;
  }
  return -1;
}

/* Finishes a layout from its template: forces the tags, finds the id and
 * clock fields.  Returns FALSE when the combination cannot be written. */
static gboolean
layout_init (GstCtfPacketWriter * w, Layout * l, GArray * vals,
    GError ** error)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *ts = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *tagged = g_array_new (FALSE, FALSE, sizeof (VariantChoice));
  GstCtfFieldValue *v = (GstCtfFieldValue *) vals->data;
  guint n = vals->len, i, j;
  gint final_id = -1;
  gboolean ok = TRUE;
  guint8 *forced = g_new0 (guint8, n);

  for (i = 0; i < n; i++) {
    const GstCtfFieldClass *fc = v[i].fc;

    if (fc->type == GST_CTF_FIELD_CLASS_INTEGER
        || fc->type == GST_CTF_FIELD_CLASS_ENUM) {
      if (fc->meaning == GST_CTF_MEANING_EVENT_CLASS_ID) {
        g_array_append_val (ids, i);
        final_id = i;
      } else if (fc->integer.mapped_clock != NULL
          && !fc->integer.is_signed) {
        /* what a reader updates its clock from (babeltrace2: unsigned
         * clock-mapped integers) */
        g_array_append_val (ts, i);
      }
    }
  }
  for (i = 0; i < n && ok; i++) {
    const GstCtfFieldClass *fc = v[i].fc;
    const GstCtfFieldClass *tag;
    gint ti;
    guint opt = (guint) v[i].v.u;
    gboolean found = FALSE;

    if (fc->type != GST_CTF_FIELD_CLASS_VARIANT)
      continue;
    tag = fc->ref_target;
    ti = tag ? find_template_index (v, i, tag) : -1;
    if (ti < 0 || tag->type != GST_CTF_FIELD_CLASS_ENUM) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
          "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
          ", variant=\"%s\", tag=\"%s\", expected an enumeration tag in the "
          "event header", w->sc->id, v[i].name ? v[i].name : "",
          fc->ref_path ? fc->ref_path : "");
      ok = FALSE;
      break;
    }
    if (ti == final_id) {
      VariantChoice vc = { fc, opt };

      g_array_append_val (tagged, vc);
    }
    /* a value whose label selects the option: the lowest of the first
     * mapping that does (this is what LTTng writes: 31 for `extended`) */
    for (j = 0; j < tag->enumeration.n_mappings; j++) {
      if (variant_option_for (w, fc, tag->enumeration.mappings[j].lower)
          == (gint) opt) {
        if (forced[ti] && v[ti].v.u != tag->enumeration.mappings[j].lower)
          continue;
        v[ti].v.u = tag->enumeration.mappings[j].lower;
        forced[ti] = 1;
        found = TRUE;
        break;
      }
    }
    if (!found)
      ok = FALSE;               /* this combination cannot be selected */
  }
  g_free (forced);
  if (ok) {
    l->n_vals = n;
    l->vals = g_memdup2 (v, n * sizeof (GstCtfFieldValue));
    l->n_ids = ids->len;
    l->ids = (guint *) g_array_free (ids, FALSE);
    l->n_ts = ts->len;
    l->ts = (guint *) g_array_free (ts, FALSE);
    l->n_id_tagged = tagged->len;
    l->id_tagged = (VariantChoice *) g_array_free (tagged, FALSE);
  } else {
    g_array_free (ids, TRUE);
    g_array_free (ts, TRUE);
    g_array_free (tagged, TRUE);
  }
  return ok;
}

static gint
layout_cmp (gconstpointer a, gconstpointer b)
{
  const Layout *la = a, *lb = b;

  if (la->bits != lb->bits)
    return la->bits < lb->bits ? -1 : 1;
  return la->order < lb->order ? -1 : (la->order > lb->order);
}

static gboolean
build_layouts (GstCtfPacketWriter * w, GError ** error)
{
  const GstCtfFieldClass *eh = w->sc->event_header;
  GArray *layouts = g_array_new (FALSE, TRUE, sizeof (Layout));
  TBuild b = { 0, };
  gboolean ok = TRUE;
  guint order = 0;

  b.choices = g_array_new (FALSE, TRUE, sizeof (guint));
  b.radix = g_array_new (FALSE, TRUE, sizeof (guint));
  b.zeros = w->zeros;
  b.n_zeros = 4096;

  if (eh == NULL) {
    Layout l = { 0, };

    g_array_append_val (layouts, l);
  }
  while (eh != NULL) {
    Layout l = { 0, };
    gint j;

    b.vals = g_array_new (FALSE, TRUE, sizeof (GstCtfFieldValue));
    b.k = 0;
    b.bad = FALSE;
    g_array_set_size (b.radix, 0);
    tbuild (&b, eh, NULL, 0);
    g_array_set_size (b.choices, b.k);
    if (b.bad) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
          "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
          ", expected a header of bounded size", w->sc->id);
      g_array_free (b.vals, TRUE);
      ok = FALSE;
      break;
    }
    if (layout_init (w, &l, b.vals, error)) {
      Cursor c = { l.vals, l.n_vals, 0 };

      l.order = order++;
      /* measure: a dry encode from bit 0 */
      w->dry = TRUE;
      w->pos = 0;
      w->scope = GST_CTF_SCOPE_EVENT_HEADER;
      if (encode_field (w, eh, &c, 0, NULL)) {
        l.bits = w->pos;
        g_array_append_val (layouts, l);
      } else {
        layout_clear (&l);
      }
      w->dry = FALSE;
      w->pos = 0;
    } else if (error && *error) {
      g_array_free (b.vals, TRUE);
      ok = FALSE;
      break;
    }
    g_array_free (b.vals, TRUE);
    if (layouts->len > MAX_LAYOUTS) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
          "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
          ", expected at most %d variant option combinations", w->sc->id,
          MAX_LAYOUTS);
      ok = FALSE;
      break;
    }
    /* next combination (mixed-radix odometer over the variants met) */
    for (j = (gint) b.k - 1; j >= 0; j--) {
      guint *ch = &g_array_index (b.choices, guint, j);

      if (*ch + 1 < g_array_index (b.radix, guint, j)) {
        (*ch)++;
        g_array_set_size (b.choices, j + 1);
        break;
      }
    }
    if (j < 0)
      break;
  }
  g_array_free (b.choices, TRUE);
  g_array_free (b.radix, TRUE);
  if (ok && layouts->len == 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
        ", no variant option combination can be selected by its tags",
        w->sc->id);
    ok = FALSE;
  }
  if (!ok) {
    guint i;

    for (i = 0; i < layouts->len; i++)
      layout_clear (&g_array_index (layouts, Layout, i));
    g_array_free (layouts, TRUE);
    return FALSE;
  }
  g_array_sort (layouts, layout_cmp);
  w->n_layouts = layouts->len;
  w->layouts = (Layout *) g_array_free (layouts, FALSE);
  for (order = 0; order < w->n_layouts; order++) {
    Layout *l = &w->layouts[order];

    flat_init (&l->flat, eh, l->vals, l->n_vals);
  }
  return TRUE;
}

static GstCtfFieldValue *
build_simple_template (GstCtfPacketWriter * w, const GstCtfFieldClass * fc,
    guint * n)
{
  TBuild b = { 0, };
  GstCtfFieldValue *ret = NULL;

  *n = 0;
  if (fc == NULL)
    return NULL;
  b.vals = g_array_new (FALSE, TRUE, sizeof (GstCtfFieldValue));
  b.choices = g_array_new (FALSE, TRUE, sizeof (guint));
  b.radix = g_array_new (FALSE, TRUE, sizeof (guint));
  b.zeros = w->zeros;
  b.n_zeros = 4096;
  tbuild (&b, fc, NULL, 0);
  if (!b.bad) {
    *n = b.vals->len;
    ret = (GstCtfFieldValue *) g_array_free (b.vals, FALSE);
  } else {
    g_array_free (b.vals, TRUE);
  }
  g_array_free (b.choices, TRUE);
  g_array_free (b.radix, TRUE);
  return ret;
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

  w->ph_vals = build_simple_template (w, tc->packet_header, &w->n_ph);
  w->pc_vals = build_simple_template (w, sc->packet_context, &w->n_pc);
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
  if (!build_layouts (w, error)) {
    gst_ctf_packet_writer_free (w);
    return NULL;
  }
  flat_init (&w->ph_flat, tc->packet_header, w->ph_vals, w->n_ph);
  flat_init (&w->pc_flat, sc->packet_context, w->pc_vals, w->n_pc);
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
    layout_clear (&w->layouts[i]);
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

/* CTF 1.8 §8 */
static inline guint64
reconstruct (guint64 cur, guint64 v, guint size)
{
  guint64 mask;

  if (size >= 64)
    return v;
  mask = (G_GUINT64_CONSTANT (1) << size) - 1;
  if (v < (cur & mask))
    cur += mask + 1;
  return (cur & ~mask) | v;
}

static inline guint64
int_max (const GstCtfFieldClass * fc)
{
  guint size = fc->integer.size - (fc->integer.is_signed ? 1 : 0);

  return size >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << size) - 1;
}

/* Whether @l's id fields can hold event class id @id (its last id field
 * is wide enough, the variants it tags select this layout's options). */
static gboolean
layout_ids_ok (GstCtfPacketWriter * w, const Layout * l, guint64 id)
{
  guint i;

  if (l->n_ids > 0) {
    const GstCtfFieldClass *fc = l->vals[l->ids[l->n_ids - 1]].fc;

    if (id > int_max (fc))
      return FALSE;
    for (i = 0; i < l->n_id_tagged; i++) {
      if (variant_option_for (w, l->id_tagged[i].variant, id)
          != (gint) l->id_tagged[i].option)
        return FALSE;
    }
  }
  return TRUE;
}

/* Fills @l's id and clock fields for the event, whose id layout_ids_ok()
 * accepted; FALSE when the layout cannot give back the clock value. */
static gboolean
layout_fill (GstCtfPacketWriter * w, Layout * l, guint64 id, guint64 base,
    guint64 clock)
{
  guint i;
  guint64 cur = base;

  for (i = 0; i < l->n_ts; i++) {
    const GstCtfFieldClass *fc = l->vals[l->ts[i]].fc;
    guint size = fc->integer.size;
    guint64 low = size >= 64 ? clock :
        clock & ((G_GUINT64_CONSTANT (1) << size) - 1);

    /* LTTng's rule: the bits above N must equal those of the previous
     * event of the stream (0 before the first one) */
    if (!w->allow_wrap && size < 64
        && (clock >> size) != (w->stream_last_clock >> size))
      return FALSE;
    cur = reconstruct (cur, low, size);
    l->vals[l->ts[i]].v.u = low;
  }
  if (cur != clock)
    return FALSE;
  for (i = 0; i < l->n_ids; i++) {
    GstCtfFieldValue *v = &l->vals[l->ids[i]];

    if (i == l->n_ids - 1)
      v->v.u = id;
    else if (v->fc->type != GST_CTF_FIELD_CLASS_ENUM
        || v->fc->value_slot < 0)
      /* an id field that is not a tag: anything, the last id wins */
      v->v.u = MIN (id, int_max (v->fc));
  }
  return TRUE;
}

/* Whether @root's tree holds the node @node. */
static gboolean
fc_contains (const GstCtfFieldClass * root, const GstCtfFieldClass * node,
    guint depth)
{
  guint i;

  if (root == NULL || depth > MAX_DEPTH)
    return FALSE;
  if (root == node)
    return TRUE;
  for (i = 0; i < root->n_members; i++)
    if (fc_contains (root->members[i].fc, node, depth + 1))
      return TRUE;
  return fc_contains (root->element, node, depth + 1);
}

/* The largest alignment in @fc's tree (bits, at least 1), or 0 when the
 * body it belongs to cannot be copied as bytes: a length or tag that
 * lives in the event header (the writer writes its own header), or a tree
 * deeper than MAX_DEPTH. */
static guint
body_fc_align (GstCtfPacketWriter * w, const GstCtfFieldClass * fc,
    guint depth)
{
  guint a, i, sub;

  if (fc == NULL)
    return 1;
  if (depth > MAX_DEPTH)
    return 0;
  if (fc->ref_target != NULL
      && fc_contains (w->sc->event_header, fc->ref_target, 0))
    return 0;
  a = MAX (fc->alignment, 1);
  for (i = 0; i < fc->n_members; i++) {
    sub = body_fc_align (w, fc->members[i].fc, depth + 1);
    if (sub == 0)
      return 0;
    a = MAX (a, sub);
  }
  if (fc->element != NULL) {
    sub = body_fc_align (w, fc->element, depth + 1);
    if (sub == 0)
      return 0;
    a = MAX (a, sub);
  }
  return a;
}

static void
ec_info_fill (GstCtfPacketWriter * w, EcInfo * e,
    const GstCtfEventClass * ec)
{
  guint i, a, b;

  e->ec = ec;
  a = body_fc_align (w, w->sc->event_common_context, 0);
  b = a ? body_fc_align (w, ec->context, 0) : 0;
  a = b ? MAX (a, b) : 0;
  b = a ? body_fc_align (w, ec->payload, 0) : 0;
  a = b ? MAX (a, b) : 0;
  e->body_align = a ? MAX (a, 8) : 0;
  e->id_ok = 0;
  for (i = 0; i < MIN (w->n_layouts, 64); i++)
    if (layout_ids_ok (w, &w->layouts[i], ec->id))
      e->id_ok |= G_GUINT64_CONSTANT (1) << i;
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
      ec_info_fill (w, e, ec);
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
  ec_info_fill (w, e, ec);
  return e;
}

/* The smallest layout for the event (filled), or NULL (error set). */
static Layout *
choose_layout (GstCtfPacketWriter * w, const EcInfo * e,
    guint64 clock_value, GError ** error)
{
  const GstCtfEventClass *ec = e->ec;
  guint64 base = w->clock;
  guint i;

  if (w->n_events == 0 && w->has_tb_field && !w->params.has_timestamp_begin)
    base = clock_value;         /* timestamp_begin will be this event's */

  for (i = 0; i < w->n_layouts; i++) {
    Layout *l = &w->layouts[i];

    if (i < 64 ? !(e->id_ok & (G_GUINT64_CONSTANT (1) << i))
        : !layout_ids_ok (w, l, ec->id))
      continue;
    if (layout_fill (w, l, ec->id, base, clock_value))
      return l;
  }
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
      "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
      ", event-class-id=%" G_GUINT64_FORMAT ", event-class-name=\"%s\", "
      "clock-value=%" G_GUINT64_FORMAT ", previous-clock-value=%"
      G_GUINT64_FORMAT ", expected a header layout that holds the id and "
      "gives back the clock value", w->sc->id, ec->id,
      ec->name ? ec->name : "", clock_value, base);
  return NULL;
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
  l = choose_layout (w, e, clock_value, error);
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
  l = choose_layout (w, e, clock_value, error);
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
