/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: merge the trace classes of several CTF 1.8 traces into one
 * (rules in gstctf-trace-merge.h).
 *
 * The merged trace class is built as a model (copies of the inputs' field
 * classes with renumbered stream classes and remapped clocks) and written
 * as TSDL with the TSDL writer (the caps text, ctfsink's metadata file).
 * When the inputs were parsed from TSDL, the model is then finished as
 * the parser finishes what it reads (_gst_ctf_metadata_adopt_tsdl():
 * value slots, meanings, clock mappings, indexes) and shared under its
 * text; otherwise the text is parsed back.  Either way the result is
 * resolved exactly like a trace class read from a file.
 */
#include "gstctf-trace-merge.h"
#include "gstctf-trace-merge-private.h"
#include "gstctf-metadata.h"
#include "gstctf-model-private.h"
#include "gstctf-tsdl-writer.h"
#include "gstctf-json-writer.h"
#include "gstctf-packet-writer.h"

#include <string.h>
#include <stdlib.h>

#define MAX_INPUTS 4096

/* Where a packet header field sits when it can be patched in place. */
typedef struct {
  gboolean present;
  guint64 byte_offset;
  guint size;                   /* bits, multiple of 8 */
  GstCtfByteOrder byte_order;
} HeaderSlot;

typedef struct {
  GstCtfTraceClass *tc;
  gchar *name;
  /* old stream class id -> new id */
  GHashTable *sc_map;           /* guint64* -> guint64* */
  GstCtfEventIter *iter;        /* for re-encoding, made on demand */
} Input;

struct _GstCtfTraceMerge {
  Input *inputs;
  guint n_inputs;
  gchar *metadata;
  GstCtfTraceClass *merged;
  gboolean reencode;
  HeaderSlot sid_slot;          /* in the shared header */
  HeaderSlot uuid_slot;
  GHashTable *writers;          /* new sc id (guint64*) -> GstCtfPacketWriter */
};

/* ------------------------------------------------------------------ */
/* field class helpers */

static gboolean
fc_equal (const GstCtfFieldClass * a, const GstCtfFieldClass * b)
{
  guint i;

  if (a == NULL || b == NULL)
    return a == b;
  if (a->type != b->type || a->alignment != b->alignment)
    return FALSE;
  switch (a->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (a->integer.size != b->integer.size ||
          a->integer.is_signed != b->integer.is_signed ||
          a->integer.byte_order != b->integer.byte_order ||
          a->integer.base != b->integer.base ||
          a->integer.encoding != b->integer.encoding ||
          (a->integer.mapped_clock == NULL) !=
          (b->integer.mapped_clock == NULL))
        return FALSE;
      if (a->type == GST_CTF_FIELD_CLASS_ENUM) {
        if (a->enumeration.n_mappings != b->enumeration.n_mappings)
          return FALSE;
        for (i = 0; i < a->enumeration.n_mappings; i++) {
          if (a->enumeration.mappings[i].lower !=
              b->enumeration.mappings[i].lower ||
              a->enumeration.mappings[i].upper !=
              b->enumeration.mappings[i].upper ||
              g_strcmp0 (a->enumeration.mappings[i].label,
                  b->enumeration.mappings[i].label) != 0)
            return FALSE;
        }
      }
      return TRUE;
    case GST_CTF_FIELD_CLASS_FLOAT:
      return a->floating.exp_dig == b->floating.exp_dig &&
          a->floating.mant_dig == b->floating.mant_dig &&
          a->floating.byte_order == b->floating.byte_order;
    case GST_CTF_FIELD_CLASS_STRING:
      return a->string.encoding == b->string.encoding;
    case GST_CTF_FIELD_CLASS_ARRAY:
      return a->length == b->length && fc_equal (a->element, b->element);
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      return g_strcmp0 (a->ref_path, b->ref_path) == 0 &&
          fc_equal (a->element, b->element);
    case GST_CTF_FIELD_CLASS_VARIANT:
      if (g_strcmp0 (a->ref_path, b->ref_path) != 0)
        return FALSE;
      /* fall through */
    case GST_CTF_FIELD_CLASS_STRUCT:
      if (a->n_members != b->n_members)
        return FALSE;
      for (i = 0; i < a->n_members; i++) {
        if (g_strcmp0 (a->members[i].name, b->members[i].name) != 0 ||
            !fc_equal (a->members[i].fc, b->members[i].fc))
          return FALSE;
      }
      return TRUE;
  }
  return FALSE;
}

/* Points every clock-mapped integer of @fc at its clock in the merged
 * model and names it explicitly. */
static void
fc_remap_clocks (GstCtfFieldClass * fc, const GstCtfTraceClass * in,
    GstCtfClockClass ** clock_map)
{
  guint i;

  if (fc == NULL)
    return;
  if ((fc->type == GST_CTF_FIELD_CLASS_INTEGER ||
          fc->type == GST_CTF_FIELD_CLASS_ENUM) &&
      fc->integer.mapped_clock != NULL) {
    GstCtfClockClass *target = NULL;

    for (i = 0; i < in->clock_classes->len; i++) {
      if (g_ptr_array_index (in->clock_classes, i) ==
          fc->integer.mapped_clock) {
        target = clock_map[i];
        break;
      }
    }
    fc->integer.mapped_clock = target;
    g_free (fc->integer.map_clock_name);
    fc->integer.map_clock_name = target ? g_strdup (target->name) : NULL;
  }
  for (i = 0; i < fc->n_members; i++)
    fc_remap_clocks (fc->members[i].fc, in, clock_map);
  fc_remap_clocks (fc->element, in, clock_map);
}

/* A CTF 2 name in a merged trace class that is CTF 1.8 (inputs of both
 * versions): a leading underscore gets another one, which CTF 1.8
 * readers strip for display (CTF 1.8 §4.2.2), as the TSDL writer does for
 * a CTF 2 trace class.  Structure members and the paths to them; variant
 * options keep their names (they are matched with their tag's labels). */
static gchar *
escaped_path (const gchar * path)
{
  gchar **tok = g_strsplit (path, ".", -1);
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; tok[i] != NULL; i++)
    g_string_append_printf (s, "%s%s%s", i ? "." : "", tok[i][0] == '_' ?
        "_" : "", tok[i]);
  g_strfreev (tok);
  return g_string_free (s, FALSE);
}

static void
escape_ctf2_names (GstCtfFieldClass * fc, guint depth)
{
  guint i;

  if (fc == NULL || depth > 256)
    return;
  if (fc->ref_path != NULL) {
    gchar *p = escaped_path (fc->ref_path);

    g_free (fc->ref_path);
    fc->ref_path = p;
  }
  for (i = 0; i < fc->n_members; i++) {
    if (fc->type == GST_CTF_FIELD_CLASS_STRUCT && fc->members[i].name &&
        fc->members[i].name[0] == '_') {
      gchar *n = g_strconcat ("_", fc->members[i].name, NULL);

      g_free (fc->members[i].name);
      fc->members[i].name = n;
    }
    escape_ctf2_names (fc->members[i].fc, depth + 1);
  }
  escape_ctf2_names (fc->element, depth + 1);
}

static GstCtfFieldClass *
fc_copy_remapped (const GstCtfFieldClass * fc, const GstCtfTraceClass * in,
    GstCtfClockClass ** clock_map, gboolean escape)
{
  GstCtfFieldClass *c = gst_ctf_field_class_copy (fc);

  fc_remap_clocks (c, in, clock_map);
  if (escape && in->major >= 2)
    escape_ctf2_names (c, 0);
  return c;
}

/* Byte offset of the top-level member with @meaning of a header whose
 * members before it all have a static size; FALSE when unknown. */
static gboolean
static_size (const GstCtfFieldClass * fc, guint64 * bits)
{
  guint64 total = 0, sub;
  guint i;

  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      *bits = fc->integer.size;
      return TRUE;
    case GST_CTF_FIELD_CLASS_FLOAT:
      *bits = fc->floating.exp_dig + fc->floating.mant_dig;
      return TRUE;
    case GST_CTF_FIELD_CLASS_ARRAY:
      if (!static_size (fc->element, &sub) || fc->length > (1 << 20))
        return FALSE;
      if (fc->element->alignment > 1 && sub % fc->element->alignment)
        sub += fc->element->alignment - sub % fc->element->alignment;
      *bits = sub * fc->length;
      return TRUE;
    case GST_CTF_FIELD_CLASS_STRUCT:
      for (i = 0; i < fc->n_members; i++) {
        const GstCtfFieldClass *m = fc->members[i].fc;

        if (m->alignment > 1 && total % m->alignment)
          total += m->alignment - total % m->alignment;
        if (!static_size (m, &sub))
          return FALSE;
        total += sub;
      }
      *bits = total;
      return TRUE;
    default:
      return FALSE;
  }
}

static gboolean
find_header_slot (const GstCtfFieldClass * ph, GstCtfFieldMeaning meaning,
    HeaderSlot * slot)
{
  guint64 off = 0, sz;
  guint i;

  memset (slot, 0, sizeof (*slot));
  if (ph == NULL || ph->type != GST_CTF_FIELD_CLASS_STRUCT)
    return TRUE;
  for (i = 0; i < ph->n_members; i++) {
    const GstCtfFieldClass *m = ph->members[i].fc;

    if (m->alignment > 1 && off % m->alignment)
      off += m->alignment - off % m->alignment;
    if (m->meaning == meaning) {
      if (off % 8 != 0)
        return FALSE;
      slot->present = TRUE;
      slot->byte_offset = off / 8;
      if (meaning == GST_CTF_MEANING_UUID) {
        if (m->type != GST_CTF_FIELD_CLASS_ARRAY || m->length != 16 ||
            m->element->integer.size != 8 || m->element->alignment % 8)
          return FALSE;
        slot->size = 128;
      } else {
        if ((m->type != GST_CTF_FIELD_CLASS_INTEGER &&
                m->type != GST_CTF_FIELD_CLASS_ENUM) ||
            m->integer.size % 8 != 0)
          return FALSE;
        slot->size = m->integer.size;
        slot->byte_order = m->integer.byte_order;
      }
      return TRUE;
    }
    if (!static_size (m, &sz))
      return FALSE;
    off += sz;
  }
  return TRUE;
}

static gboolean
find_member_with_meaning (const GstCtfFieldClass * st,
    GstCtfFieldMeaning meaning)
{
  guint i;

  for (i = 0; i < st->n_members; i++)
    if (st->members[i].fc->meaning == meaning)
      return TRUE;
  return FALSE;
}

static void
write_uint (guint8 * p, guint64 v, guint bits, GstCtfByteOrder bo)
{
  guint n = bits / 8, i;

  for (i = 0; i < n; i++) {
    guint8 b = (guint8) (v >> (8 * i));

    if (bo == GST_CTF_BYTE_ORDER_LE)
      p[i] = b;
    else
      p[n - 1 - i] = b;
  }
}

/* ------------------------------------------------------------------ */
/* clocks */

static gboolean
clock_equal (const GstCtfClockClass * a, const GstCtfClockClass * b)
{
  return g_strcmp0 (a->name, b->name) == 0 &&
      g_strcmp0 (a->description, b->description) == 0 &&
      a->has_uuid == b->has_uuid &&
      (!a->has_uuid || memcmp (a->uuid, b->uuid, 16) == 0) &&
      a->freq == b->freq && a->precision == b->precision &&
      a->offset_s == b->offset_s && a->offset == b->offset &&
      a->origin_is_unix_epoch == b->origin_is_unix_epoch;
}

static gboolean
clock_name_used (const GstCtfTraceClass * tc, const gchar * name)
{
  guint i;

  for (i = 0; i < tc->clock_classes->len; i++) {
    const GstCtfClockClass *cc = g_ptr_array_index (tc->clock_classes, i);

    if (g_strcmp0 (cc->name, name) == 0)
      return TRUE;
  }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* env */

static gboolean
env_equal (const GstCtfEnvEntry * a, const GstCtfEnvEntry * b)
{
  if (a->is_string != b->is_string)
    return FALSE;
  return a->is_string ? g_strcmp0 (a->str, b->str) == 0 :
      a->integer == b->integer;
}

static void
env_add (GstCtfTraceClass * tc, const gchar * name, gboolean is_string,
    const gchar * str, gint64 integer)
{
  GstCtfEnvEntry *e = g_new0 (GstCtfEnvEntry, 1);

  e->name = g_strdup (name);
  e->is_string = is_string;
  e->str = g_strdup (str);
  e->integer = integer;
  g_ptr_array_add (tc->env, e);
}

static gchar *
uuid_to_string (const guint8 * u)
{
  return g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
      "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5], u[6],
      u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* ------------------------------------------------------------------ */

static GstCtfFieldClass *
make_int (guint size, GstCtfByteOrder bo, guint base)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_INTEGER);

  fc->alignment = 8;
  fc->integer.size = size;
  fc->integer.byte_order = bo;
  fc->integer.base = base;
  return fc;
}

/* The packet header of a merge whose inputs' headers differ (CTF 1.8
 * §5.1): magic, the trace UUID when there is one, a stream_id as narrow
 * as the new ids allow and a stream_instance_id when an input has one
 * (small packets of tracers with narrow packet_size fields must still
 * fit). */
static GstCtfFieldClass *
canonical_header (GstCtfByteOrder bo, gboolean with_uuid, guint64 max_id,
    gboolean with_instance)
{
  GstCtfFieldClass *ph = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);

  ph->alignment = 8;
  gst_ctf_field_class_append_member (ph, "magic", make_int (32, bo, 16));
  if (with_uuid) {
    GstCtfFieldClass *uuid =
        gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);

    uuid->alignment = 8;
    uuid->length = 16;
    uuid->element = make_int (8, bo, 16);
    gst_ctf_field_class_append_member (ph, "uuid", uuid);
  }
  gst_ctf_field_class_append_member (ph, "stream_id", make_int (max_id < 256 ?
          8 : (max_id < 65536 ? 16 : 32), bo, 10));
  if (with_instance)
    gst_ctf_field_class_append_member (ph, "stream_instance_id",
        make_int (64, bo, 10));
  return ph;
}

static GstCtfEventClass *
event_class_copy (const GstCtfEventClass * ec, guint64 new_sc_id,
    const GstCtfTraceClass * in, GstCtfClockClass ** clock_map,
    gboolean escape)
{
  GstCtfEventClass *c = gst_ctf_event_class_new ();

  c->id = ec->id;
  c->name = g_strdup (ec->name);
  c->loglevel = ec->loglevel;
  c->model_emf_uri = g_strdup (ec->model_emf_uri);
  c->stream_class_id = new_sc_id;
  c->context = fc_copy_remapped (ec->context, in, clock_map, escape);
  c->payload = fc_copy_remapped (ec->payload, in, clock_map, escape);
  return c;
}

static gint
cmp_sc_by_id (gconstpointer a, gconstpointer b)
{
  const GstCtfStreamClass *x = *(const GstCtfStreamClass * const *) a;
  const GstCtfStreamClass *y = *(const GstCtfStreamClass * const *) b;

  return x->id < y->id ? -1 : (x->id > y->id ? 1 : 0);
}

static void
input_clear (Input * in)
{
  if (in->tc)
    gst_ctf_trace_class_unref (in->tc);
  g_free (in->name);
  if (in->sc_map)
    g_hash_table_unref (in->sc_map);
  if (in->iter)
    gst_ctf_event_iter_free (in->iter);
}

static guint64 *
u64_dup (guint64 v)
{
  guint64 *p = g_new (guint64, 1);

  *p = v;
  return p;
}

/* The model stream class @index copies @sc with @clock_map: the index of
 * the first model stream class that copied @sc with the same clock map
 * (the same text but for the id), or -1 when it is the first. */
static gint
twin_index (GHashTable * first_copy, const GstCtfStreamClass * sc,
    GstCtfClockClass ** clock_map, guint n_clocks, guint index)
{
  gsize n = (1 + n_clocks) * sizeof (gpointer);
  gpointer *k = g_malloc (n);
  GBytes *key;
  gpointer v;

  k[0] = (gpointer) sc;
  if (n_clocks)
    memcpy (k + 1, clock_map, n_clocks * sizeof (gpointer));
  key = g_bytes_new_take (k, n);
  if (g_hash_table_lookup_extended (first_copy, key, NULL, &v)) {
    g_bytes_unref (key);
    return GPOINTER_TO_INT (v);
  }
  g_hash_table_insert (first_copy, key, GINT_TO_POINTER ((gint) index));
  return -1;
}

/* Whether the merged model can stand for its parsed TSDL text: inputs
 * read from TSDL (their field classes round-trip through the writer) and
 * no CTF 2 names to escape. */
static gboolean
direct_ok (GstCtfTraceClass * const *inputs, guint n_inputs)
{
  guint i;

  for (i = 0; i < n_inputs; i++)
    if (!inputs[i]->from_tsdl || inputs[i]->major >= 2)
      return FALSE;
  return TRUE;
}

GstCtfTraceMerge *
gst_ctf_trace_merge_new (GstCtfTraceClass * const *inputs,
    const gchar * const *names, guint n_inputs, GError ** error)
{
  return gst_ctf_trace_merge_new_full (inputs, names, NULL, n_inputs,
      GST_CTF_TRACE_MERGE_NONE, error);
}

/* Moves a clock's origin by @ns nanoseconds (CTF 1.8 §8: the time of a
 * value is offset_s + (offset + value) / freq). */
static void
clock_add_offset (GstCtfClockClass * cc, gint64 ns)
{
  gint64 s = ns / 1000000000, rem = ns % 1000000000;
  gint64 cycles;

  if (rem < 0) {
    rem += 1000000000;
    s -= 1;
  }
  cc->offset_s += s;
  if (cc->freq == 1000000000)
    cycles = rem;
  else
    cycles = (gint64) (((gdouble) rem * (gdouble) cc->freq) / 1e9 + 0.5);
  cc->offset += cycles;
  /* keep offset below one second of cycles */
  if (cc->freq > 0 && cc->offset >= (gint64) cc->freq) {
    cc->offset_s += cc->offset / (gint64) cc->freq;
    cc->offset %= (gint64) cc->freq;
  }
}

GstCtfTraceMerge *
gst_ctf_trace_merge_new_full (GstCtfTraceClass * const *inputs,
    const gchar * const *names, const gint64 * offsets_ns, guint n_inputs,
    GstCtfTraceMergeFlags flags, GError ** error)
{
  GstCtfTraceMerge *m;
  GstCtfTraceClass *model;
  GHashTable *seen_keys;
  GPtrArray *key_order;
  guint i, j, k;
  guint64 next_id = 0, max_id = 0;
  gboolean any_uuid = FALSE, same_header = TRUE;
  GChecksum *sum;
  gchar *text;
  GError *err = NULL;
  /* per model stream class: an earlier one copied from the same input
   * stream class with the same clocks (the TSDL writer copies its text),
   * or -1; keyed by the input stream class and the clock map */
  GArray *twin_of;
  GHashTable *first_copy;

  g_return_val_if_fail (inputs != NULL && n_inputs >= 1, NULL);
  if (n_inputs > MAX_INPUTS) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Cannot merge trace classes: inputs=%u, expected at most %u",
        n_inputs, MAX_INPUTS);
    return NULL;
  }

  twin_of = g_array_new (FALSE, FALSE, sizeof (gint));
  first_copy = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
      (GDestroyNotify) g_bytes_unref, NULL);
  m = g_new0 (GstCtfTraceMerge, 1);
  m->n_inputs = n_inputs;
  m->inputs = g_new0 (Input, n_inputs);
  m->writers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      (GDestroyNotify) gst_ctf_packet_writer_free);

  model = gst_ctf_trace_class_new ();
  /* CTF 2 inputs only: their names are written escaped (the merged trace
   * class is TSDL, CTF 1.8) */
  model->major = 2;
  for (i = 0; i < n_inputs; i++)
    if (inputs[i]->major < 2)
      model->major = 1;
  model->minor = model->major == 2 ? 0 : 8;
  model->byte_order = inputs[0]->byte_order;

  /* UUID derived from the inputs' (CTF 1.8 §5.1: one per trace). */
  sum = g_checksum_new (G_CHECKSUM_SHA1);
  g_checksum_update (sum, (const guchar *) "gst-ctf merged trace", -1);
  for (i = 0; i < n_inputs; i++) {
    if (inputs[i]->has_uuid) {
      any_uuid = TRUE;
      g_checksum_update (sum, inputs[i]->uuid, 16);
    } else {
      g_checksum_update (sum, (const guchar *) "-", 1);
    }
  }
  if (any_uuid) {
    guint8 digest[20];
    gsize dlen = sizeof (digest);

    g_checksum_get_digest (sum, digest, &dlen);
    memcpy (model->uuid, digest, 16);
    model->uuid[6] = (model->uuid[6] & 0x0f) | 0x50;
    model->uuid[8] = (model->uuid[8] & 0x3f) | 0x80;
    model->has_uuid = TRUE;
  }
  g_checksum_free (sum);

  /* Stream classes, clocks. */
  for (i = 0; i < n_inputs; i++) {
    GstCtfTraceClass *in = inputs[i];
    Input *inp = &m->inputs[i];
    GstCtfClockClass **clock_map = g_new0 (GstCtfClockClass *,
        MAX (in->clock_classes->len, 1));
    GPtrArray *scs;

    inp->tc = gst_ctf_trace_class_ref (in);
    inp->name = g_strdup (names ? names[i] : NULL);
    inp->sc_map = g_hash_table_new_full (g_int64_hash, g_int64_equal,
        g_free, g_free);

    for (j = 0; j < in->clock_classes->len; j++) {
      GstCtfClockClass adjusted = *(GstCtfClockClass *)
          g_ptr_array_index (in->clock_classes, j);
      const GstCtfClockClass *cc = &adjusted;
      GstCtfClockClass *nc = NULL;

      if (offsets_ns && offsets_ns[i] != 0)
        clock_add_offset (&adjusted, offsets_ns[i]);
      if (flags & GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH)
        adjusted.origin_is_unix_epoch = TRUE;

      for (k = 0; k < model->clock_classes->len; k++) {
        GstCtfClockClass *mc = g_ptr_array_index (model->clock_classes, k);

        if (clock_equal (mc, cc)) {
          nc = mc;
          break;
        }
      }
      if (nc == NULL) {
        nc = gst_ctf_clock_class_new ();
        *nc = *cc;
        nc->description = g_strdup (cc->description);
        nc->absolute = cc->absolute || cc->origin_is_unix_epoch;
        if (clock_name_used (model, cc->name)) {
          guint n = 0;

          nc->name = g_strdup_printf ("%s_%u", cc->name, i);
          while (clock_name_used (model, nc->name)) {
            g_free (nc->name);
            nc->name = g_strdup_printf ("%s_%u_%u", cc->name, i, ++n);
          }
        } else {
          nc->name = g_strdup (cc->name);
        }
        g_ptr_array_add (model->clock_classes, nc);
      }
      clock_map[j] = nc;
    }

    if (i > 0 && !fc_equal (in->packet_header, inputs[0]->packet_header))
      same_header = FALSE;

    scs = g_ptr_array_sized_new (in->stream_classes->len);
    for (j = 0; j < in->stream_classes->len; j++)
      g_ptr_array_add (scs, g_ptr_array_index (in->stream_classes, j));
    g_ptr_array_sort (scs, cmp_sc_by_id);
    for (j = 0; j < scs->len; j++) {
      const GstCtfStreamClass *sc = g_ptr_array_index (scs, j);
      GstCtfStreamClass *nsc = gst_ctf_stream_class_new (next_id);
      gboolean esc = model->major < 2;
      gint twin = twin_index (first_copy, sc, clock_map,
          in->clock_classes->len, model->stream_classes->len);

      nsc->packet_context = fc_copy_remapped (sc->packet_context, in,
          clock_map, esc);
      nsc->event_header = fc_copy_remapped (sc->event_header, in, clock_map,
          esc);
      nsc->event_common_context = fc_copy_remapped (sc->event_common_context,
          in, clock_map, esc);
      for (k = 0; k < sc->event_classes->len; k++) {
        GstCtfEventClass *ec = event_class_copy (g_ptr_array_index
            (sc->event_classes, k), next_id, in, clock_map, esc);

        g_ptr_array_add (nsc->event_classes, ec);
        g_hash_table_insert (nsc->event_class_by_id, &ec->id, ec);
      }
      if (sc->default_clock) {
        for (k = 0; k < in->clock_classes->len; k++)
          if (g_ptr_array_index (in->clock_classes, k) == sc->default_clock)
            nsc->default_clock = clock_map[k];
      }
      g_ptr_array_add (model->stream_classes, nsc);
      g_array_append_val (twin_of, twin);
      g_hash_table_insert (inp->sc_map, u64_dup (sc->id), u64_dup (next_id));
      max_id = next_id;
      next_id++;
    }
    g_ptr_array_unref (scs);
    g_free (clock_map);
  }

  /* Packet header: patch in place when shared, else a canonical one. */
  if (same_header && inputs[0]->packet_header != NULL &&
      find_header_slot (inputs[0]->packet_header,
          GST_CTF_MEANING_STREAM_CLASS_ID, &m->sid_slot) &&
      find_header_slot (inputs[0]->packet_header, GST_CTF_MEANING_UUID,
          &m->uuid_slot) &&
      (next_id <= 1 || (m->sid_slot.present && (m->sid_slot.size >= 64 ||
                  max_id < (G_GUINT64_CONSTANT (1) << m->sid_slot.size))))
      && (m->uuid_slot.present || !model->has_uuid)) {
    /* Stream classes that were alone in their trace may have no
     * `stream_id`: with one stream class in all, none is needed. */
    model->packet_header = gst_ctf_field_class_copy (inputs[0]->packet_header);
    m->reencode = FALSE;
  } else if (same_header && next_id <= 1 && inputs[0]->packet_header == NULL
      && !model->has_uuid) {
    m->reencode = FALSE;
  } else {
    gboolean with_instance = FALSE;

    for (i = 0; i < n_inputs; i++)
      if (inputs[i]->packet_header &&
          find_member_with_meaning (inputs[i]->packet_header,
              GST_CTF_MEANING_STREAM_INSTANCE_ID))
        with_instance = TRUE;
    model->packet_header = canonical_header (model->byte_order,
        model->has_uuid, max_id, with_instance);
    m->reencode = TRUE;
  }

  /* Env. */
  seen_keys = g_hash_table_new (g_str_hash, g_str_equal);
  key_order = g_ptr_array_new ();
  for (i = 0; i < n_inputs; i++) {
    for (j = 0; j < inputs[i]->env->len; j++) {
      GstCtfEnvEntry *e = g_ptr_array_index (inputs[i]->env, j);

      if (!g_hash_table_contains (seen_keys, e->name)) {
        g_hash_table_add (seen_keys, e->name);
        g_ptr_array_add (key_order, e->name);
      }
    }
  }
  for (k = 0; k < key_order->len; k++) {
    const gchar *key = g_ptr_array_index (key_order, k);
    const GstCtfEnvEntry *first = gst_ctf_trace_class_find_env (inputs[0],
        key);
    gboolean common = first != NULL;

    for (i = 1; common && i < n_inputs; i++) {
      const GstCtfEnvEntry *e = gst_ctf_trace_class_find_env (inputs[i], key);

      common = e != NULL && env_equal (e, first);
    }
    if (common) {
      env_add (model, key, first->is_string, first->str, first->integer);
      continue;
    }
    for (i = 0; i < n_inputs; i++) {
      const GstCtfEnvEntry *e = gst_ctf_trace_class_find_env (inputs[i], key);
      gchar *pkey;

      if (e == NULL)
        continue;
      pkey = g_strdup_printf ("trace%u_%s", i, key);
      env_add (model, pkey, e->is_string, e->str, e->integer);
      g_free (pkey);
    }
  }
  g_ptr_array_unref (key_order);
  g_hash_table_unref (seen_keys);
  env_add (model, "gstctf_merged_traces", FALSE, NULL, n_inputs);
  for (i = 0; i < n_inputs; i++) {
    GString *ids = g_string_new (NULL);
    GHashTableIter hit;
    gpointer key, value;
    GArray *vals = g_array_new (FALSE, FALSE, sizeof (guint64));
    gchar *pkey;

    g_hash_table_iter_init (&hit, m->inputs[i].sc_map);
    while (g_hash_table_iter_next (&hit, &key, &value))
      g_array_append_val (vals, *(guint64 *) value);
    for (j = 0; j < vals->len; j++) {
      guint64 min = G_MAXUINT64;
      guint at = 0;

      for (k = 0; k < vals->len; k++) {
        if (g_array_index (vals, guint64, k) < min) {
          min = g_array_index (vals, guint64, k);
          at = k;
        }
      }
      g_array_index (vals, guint64, at) = G_MAXUINT64;
      g_string_append_printf (ids, "%s%" G_GUINT64_FORMAT, j ? "," : "", min);
    }
    g_array_unref (vals);
    pkey = g_strdup_printf ("gstctf_trace%u_stream_classes", i);
    env_add (model, pkey, TRUE, ids->str, 0);
    g_free (pkey);
    g_string_free (ids, TRUE);
    if (m->inputs[i].name) {
      pkey = g_strdup_printf ("gstctf_trace%u_name", i);
      env_add (model, pkey, TRUE, m->inputs[i].name, 0);
      g_free (pkey);
    }
    if (inputs[i]->has_uuid) {
      gchar *u = uuid_to_string (inputs[i]->uuid);

      pkey = g_strdup_printf ("gstctf_trace%u_uuid", i);
      env_add (model, pkey, TRUE, u, 0);
      g_free (pkey);
      g_free (u);
    }
  }

  /* the merged trace class goes through TSDL: a CTF 2 field class whose
   * data TSDL cannot describe (LEB128, optional, integer-selected
   * variant) is refused rather than misread */
  if (!gst_ctf_trace_class_check_ctf18 (model, GST_CTF_CONVERT_LOSSY, &err))
    text = NULL;
  else
    text = _gst_ctf_tsdl_write_twins (model, (const gint *) twin_of->data,
        &err);
  g_array_unref (twin_of);
  g_hash_table_unref (first_copy);
  if (text == NULL) {
    gst_ctf_trace_class_unref (model);
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Cannot write the merged trace class: %s", err->message);
    g_clear_error (&err);
    gst_ctf_trace_merge_free (m);
    return NULL;
  }
  /* The model is what parsing @text gives, but for what the parser
   * derives, when every input was itself parsed from TSDL (copies of
   * their field classes read back as they are): finished like a parsed
   * class and shared under @text (the elements downstream find it from
   * the caps).  Else (CTF 2 inputs, classes built in memory) @text is
   * parsed back, shared too. */
  if (direct_ok (inputs, n_inputs) &&
      _gst_ctf_metadata_adopt_tsdl (model, text, NULL)) {
    m->merged = model;
  } else {
    gst_ctf_trace_class_unref (model);
    m->merged = _gst_ctf_metadata_parse_shared_whole (text,
        "merged metadata", &err);
  }
  if (m->merged == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Cannot parse back the merged trace class: %s", err->message);
    g_clear_error (&err);
    g_free (text);
    gst_ctf_trace_merge_free (m);
    return NULL;
  }
  m->metadata = text;
  return m;
}

void
gst_ctf_trace_merge_free (GstCtfTraceMerge * m)
{
  guint i;

  if (m == NULL)
    return;
  for (i = 0; i < m->n_inputs; i++)
    input_clear (&m->inputs[i]);
  g_free (m->inputs);
  g_free (m->metadata);
  if (m->merged)
    gst_ctf_trace_class_unref (m->merged);
  g_hash_table_unref (m->writers);
  g_free (m);
}

GstCtfTraceClass *
gst_ctf_trace_merge_get_trace_class (GstCtfTraceMerge * m)
{
  return m->merged;
}

const gchar *
gst_ctf_trace_merge_get_metadata (GstCtfTraceMerge * m)
{
  return m->metadata;
}

guint
gst_ctf_trace_merge_get_n_inputs (GstCtfTraceMerge * m)
{
  return m->n_inputs;
}

gboolean
gst_ctf_trace_merge_packets_reencoded (GstCtfTraceMerge * m)
{
  return m->reencode;
}

gboolean
gst_ctf_trace_merge_map_stream_class (GstCtfTraceMerge * m, guint input,
    guint64 stream_class_id, guint64 * new_id)
{
  const guint64 *v;

  if (input >= m->n_inputs)
    return FALSE;
  v = g_hash_table_lookup (m->inputs[input].sc_map, &stream_class_id);
  if (v == NULL)
    return FALSE;
  *new_id = *v;
  return TRUE;
}

static GstCtfPacketWriter *
get_writer (GstCtfTraceMerge * m, guint64 sc_id, GError ** error)
{
  GstCtfPacketWriter *w = g_hash_table_lookup (m->writers, &sc_id);

  if (w == NULL) {
    w = gst_ctf_packet_writer_new (m->merged, sc_id, error);
    if (w == NULL)
      return NULL;
    g_hash_table_insert (m->writers, u64_dup (sc_id), w);
  }
  return w;
}

static GBytes *
reencode_packet (GstCtfTraceMerge * m, Input * in, const guint8 * data,
    gsize size, guint64 instance, guint64 new_sc, GError ** error)
{
  const GstCtfPacketInfo *pi;
  GstCtfPacketWriter *w;
  const GstCtfStreamClass *nsc;
  GstCtfPacketWriterParams p = { 0, };
  const GstCtfFieldValue *ctx;
  guint n_ctx;

  if (in->iter == NULL) {
    in->iter = gst_ctf_event_iter_new (in->tc);
    gst_ctf_event_iter_set_recording (in->iter, TRUE);
  }
  if (!gst_ctf_event_iter_set_packet (in->iter, data, size, error))
    return NULL;
  pi = gst_ctf_event_iter_get_packet_info (in->iter);
  w = get_writer (m, new_sc, error);
  if (w == NULL)
    return NULL;
  nsc = gst_ctf_packet_writer_get_stream_class (w);

  p.stream_instance_id = pi->has_stream_instance_id ?
      pi->stream_instance_id : instance;
  p.packet_seq_num = pi->packet_seq_num;
  p.events_discarded = pi->events_discarded;
  p.timestamp_begin = pi->timestamp_begin;
  p.has_timestamp_begin = pi->has_timestamp_begin;
  p.timestamp_end = pi->timestamp_end;
  p.has_timestamp_end = pi->has_timestamp_end;
  p.clock_value = gst_ctf_event_iter_get_clock_value (in->iter);
  ctx = gst_ctf_event_iter_get_values (in->iter,
      GST_CTF_SCOPE_PACKET_CONTEXT, &n_ctx);
  if (!gst_ctf_packet_writer_begin_packet (w, &p, n_ctx ? ctx : NULL, n_ctx,
          error))
    return NULL;

  for (;;) {
    GError *err = NULL;
    const GstCtfEventClass *iec, *oec;
    const GstCtfFieldValue *cc, *sc, *pl;
    guint ncc, nsc_v, npl;

    if (!gst_ctf_event_iter_next (in->iter, &err)) {
      if (err) {
        g_propagate_error (error, err);
        return NULL;
      }
      break;
    }
    iec = gst_ctf_event_iter_get_event_class (in->iter);
    oec = gst_ctf_stream_class_find_event_class (nsc, iec->id);
    if (oec == NULL) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_UNKNOWN_EVENT_CLASS,
          "Cannot re-encode event: event-class-id=%" G_GUINT64_FORMAT
          ", stream-class-id=%" G_GUINT64_FORMAT ", expected an event "
          "class of the merged stream class", iec->id, nsc->id);
      return NULL;
    }
    cc = gst_ctf_event_iter_get_values (in->iter,
        GST_CTF_SCOPE_EVENT_COMMON_CONTEXT, &ncc);
    sc = gst_ctf_event_iter_get_values (in->iter,
        GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT, &nsc_v);
    pl = gst_ctf_event_iter_get_values (in->iter,
        GST_CTF_SCOPE_EVENT_PAYLOAD, &npl);
    if (!gst_ctf_packet_writer_append_event (w, oec,
            gst_ctf_event_iter_get_clock_value (in->iter), cc, ncc, sc,
            nsc_v, pl, npl, error))
      return NULL;
  }
  return gst_ctf_packet_writer_finish_packet_bytes (w, error);
}

GBytes *
gst_ctf_trace_merge_rewrite_packet_head (GstCtfTraceMerge * m, guint input,
    const guint8 * data, gsize size, guint64 stream_instance_id,
    guint64 * new_stream_class_id, gsize * n_replaced, gsize * packet_bytes,
    GError ** error)
{
  GstCtfPacketInfo info;
  Input *in;
  guint64 new_sc;
  gsize head = 0;
  guint8 *copy;

  g_return_val_if_fail (input < m->n_inputs, NULL);
  g_return_val_if_fail (n_replaced != NULL && packet_bytes != NULL, NULL);
  in = &m->inputs[input];
  if (!gst_ctf_packet_read_info (in->tc, data, size, &info, error))
    return NULL;
  if (!gst_ctf_trace_merge_map_stream_class (m, input, info.stream_class_id,
          &new_sc)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_UNKNOWN_STREAM_CLASS,
        "Cannot rewrite packet: input=%u, stream-class-id=%" G_GUINT64_FORMAT
        ", expected a stream class of the input", input,
        info.stream_class_id);
    return NULL;
  }
  if (new_stream_class_id)
    *new_stream_class_id = new_sc;
  if (info.packet_size / 8 < size)
    size = info.packet_size / 8;
  *packet_bytes = size;
  if (m->reencode) {
    *n_replaced = size;
    return reencode_packet (m, in, data, size, stream_instance_id, new_sc,
        error);
  }

  /* Patched in place (CTF 1.8 §5.1: the header's stream_id and uuid):
   * only the bytes up to the last patched field change. */
  if (m->sid_slot.present) {
    if (m->sid_slot.byte_offset + m->sid_slot.size / 8 > size) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
          "Cannot rewrite packet header: offset=%" G_GUINT64_FORMAT
          " (bytes), expected a stream_id field inside the %" G_GSIZE_FORMAT
          "-byte packet", m->sid_slot.byte_offset, size);
      return NULL;
    }
    head = m->sid_slot.byte_offset + (m->sid_slot.size + 7) / 8;
  }
  if (m->uuid_slot.present && m->merged->has_uuid &&
      m->uuid_slot.byte_offset + 16 <= size)
    head = MAX (head, m->uuid_slot.byte_offset + 16);
  copy = g_memdup2 (data, MAX (head, 1));
  if (m->sid_slot.present)
    write_uint (copy + m->sid_slot.byte_offset, new_sc, m->sid_slot.size,
        m->sid_slot.byte_order);
  if (m->uuid_slot.present && m->merged->has_uuid &&
      m->uuid_slot.byte_offset + 16 <= size)
    memcpy (copy + m->uuid_slot.byte_offset, m->merged->uuid, 16);
  *n_replaced = head;
  return g_bytes_new_take (copy, head);
}

GBytes *
gst_ctf_trace_merge_rewrite_packet (GstCtfTraceMerge * m, guint input,
    const guint8 * data, gsize size, guint64 stream_instance_id,
    guint64 * new_stream_class_id, GError ** error)
{
  GBytes *head;
  gsize n_replaced, packet_bytes, n;
  guint8 *copy;

  head = gst_ctf_trace_merge_rewrite_packet_head (m, input, data, size,
      stream_instance_id, new_stream_class_id, &n_replaced, &packet_bytes,
      error);
  if (head == NULL || n_replaced == packet_bytes)
    return head;
  /* the new head, then the rest of the packet */
  n = g_bytes_get_size (head);
  copy = g_malloc (n + packet_bytes - n_replaced);
  memcpy (copy, g_bytes_get_data (head, NULL), n);
  memcpy (copy + n, data + n_replaced, packet_bytes - n_replaced);
  g_bytes_unref (head);
  return g_bytes_new_take (copy, n + packet_bytes - n_replaced);
}

/* ------------------------------------------------------------------ */

gint
gst_ctf_trace_merge_compare_traces (const GstCtfTraceClass * a,
    const gchar * name_a, const GstCtfTraceClass * b, const gchar * name_b)
{
  if (a->has_uuid && !b->has_uuid)
    return -1;
  if (!a->has_uuid && b->has_uuid)
    return 1;
  if (a->has_uuid) {
    gint r = memcmp (a->uuid, b->uuid, 16);

    if (r != 0)
      return r;
  }
  if (name_a && !name_b)
    return -1;
  if (!name_a && name_b)
    return 1;
  if (name_a)
    return strcmp (name_a, name_b);
  return 0;
}

gboolean
gst_ctf_trace_merge_check_clocks (GstCtfTraceClass * const *inputs,
    const gchar * const *names, guint n_inputs, GError ** error)
{
  return gst_ctf_trace_merge_check_clocks_full (inputs, names, n_inputs,
      GST_CTF_TRACE_MERGE_NONE, error);
}

gboolean
gst_ctf_trace_merge_check_clocks_full (GstCtfTraceClass * const *inputs,
    const gchar * const *names, guint n_inputs, GstCtfTraceMergeFlags flags,
    GError ** error)
{
  gboolean forced = (flags & GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH) != 0;
  const GstCtfClockClass *ref = NULL;
  guint ref_input = 0, i, j;
  gboolean any_without = FALSE;
  guint without_input = 0;

  /* babeltrace2 takes the first clock it sees as the reference: with a
   * Unix epoch origin every other clock needs one too; else they all
   * need its UUID. */
  for (i = 0; i < n_inputs; i++) {
    for (j = 0; j < inputs[i]->stream_classes->len; j++) {
      const GstCtfStreamClass *sc =
          g_ptr_array_index (inputs[i]->stream_classes, j);
      const GstCtfClockClass *cc = sc->default_clock;
      const gchar *why = NULL;

      if (cc == NULL) {
        if (!any_without) {
          any_without = TRUE;
          without_input = i;
        }
        continue;
      }
      if (ref == NULL) {
        ref = cc;
        ref_input = i;
        continue;
      }
      if (forced) {
        /* every clock gets a Unix epoch origin */
      } else if (ref->origin_is_unix_epoch) {
        if (!cc->origin_is_unix_epoch)
          why = "expecting a clock whose origin is the Unix epoch";
      } else if (ref->has_uuid) {
        if (cc->origin_is_unix_epoch)
          why = "expecting a clock with an unknown origin, got one whose "
              "origin is the Unix epoch";
        else if (!cc->has_uuid)
          why = "expecting a clock with a UUID, got one without";
        else if (memcmp (cc->uuid, ref->uuid, 16) != 0)
          why = "expecting a clock with the same UUID";
      } else if (cc != ref) {
        why = "expecting the same clock (neither has a Unix epoch origin "
            "nor a UUID)";
      }
      if (why) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK,
            "Cannot correlate clocks: input=%u (%s), clock=\"%s\", "
            "reference-input=%u (%s), reference-clock=\"%s\": %s; set "
            "force-correlate to merge anyway (babeltrace2's "
            "--clock-force-correlate)", i, names && names[i] ? names[i] :
            "?", cc->name, ref_input, names && names[ref_input] ?
            names[ref_input] : "?", ref->name, why);
        return FALSE;
      }
    }
  }
  if (any_without && ref != NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK,
        "Cannot correlate clocks: input=%u (%s) has a stream class without "
        "a clock, input=%u (%s) has clock \"%s\": babeltrace2 cannot order "
        "events without a time among timed ones, even when forced",
        without_input, names && names[without_input] ?
        names[without_input] : "?", ref_input, names && names[ref_input] ?
        names[ref_input] : "?", ref->name);
    return FALSE;
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* reading back what a merge records in the env                        */

struct _GstCtfMergeEnvIndex {
  GHashTable *env;              /* name -> first GstCtfEnvEntry of that name */
  GHashTable *sc_input;         /* guint64* stream class id -> input + 1 */
};

GstCtfMergeEnvIndex *
_gst_ctf_merge_env_index_new (const GstCtfTraceClass * tc)
{
  GstCtfMergeEnvIndex *idx = g_new0 (GstCtfMergeEnvIndex, 1);
  const GstCtfEnvEntry *n;
  gint64 i;
  guint j;

  idx->env = g_hash_table_new (g_str_hash, g_str_equal);
  idx->sc_input = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      NULL);
  for (j = 0; j < tc->env->len; j++) {
    GstCtfEnvEntry *e = g_ptr_array_index (tc->env, j);

    if (!g_hash_table_contains (idx->env, e->name))
      g_hash_table_insert (idx->env, e->name, e);
  }
  n = g_hash_table_lookup (idx->env, "gstctf_merged_traces");
  if (n == NULL || n->is_string || n->integer <= 0 || n->integer > MAX_INPUTS)
    return idx;
  for (i = 0; i < n->integer; i++) {
    gchar key[64];
    const GstCtfEnvEntry *e;
    const gchar *p;

    g_snprintf (key, sizeof (key), "gstctf_trace%" G_GINT64_FORMAT
        "_stream_classes", i);
    e = g_hash_table_lookup (idx->env, key);
    if (e == NULL || !e->is_string || e->str == NULL)
      continue;
    p = e->str;
    while (*p) {
      gchar *end;
      guint64 v = g_ascii_strtoull (p, &end, 10);

      if (end == p)
        break;
      /* the first input that lists an id has it */
      if (!g_hash_table_contains (idx->sc_input, &v))
        g_hash_table_insert (idx->sc_input, u64_dup (v),
            GINT_TO_POINTER ((gint) i + 1));
      p = end;
      if (*p == ',')
        p++;
    }
  }
  return idx;
}

void
_gst_ctf_merge_env_index_free (GstCtfMergeEnvIndex * idx)
{
  if (idx == NULL)
    return;
  g_hash_table_unref (idx->env);
  g_hash_table_unref (idx->sc_input);
  g_free (idx);
}

gint
_gst_ctf_merge_env_index_input (const GstCtfMergeEnvIndex * idx,
    guint64 stream_class_id)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (idx->sc_input,
          &stream_class_id)) - 1;
}

const GstCtfEnvEntry *
_gst_ctf_merge_env_index_lookup (const GstCtfMergeEnvIndex * idx,
    const gchar * key)
{
  return g_hash_table_lookup (idx->env, key);
}

const GstCtfEnvEntry *
_gst_ctf_merge_env_index_find (const GstCtfMergeEnvIndex * idx,
    guint64 stream_class_id, const gchar * name)
{
  gint input = _gst_ctf_merge_env_index_input (idx, stream_class_id);

  if (input >= 0) {
    gchar *key = g_strdup_printf ("trace%d_%s", input, name);
    const GstCtfEnvEntry *e = g_hash_table_lookup (idx->env, key);

    g_free (key);
    if (e)
      return e;
  }
  return g_hash_table_lookup (idx->env, name);
}

gint
gst_ctf_trace_merge_get_input_of_stream_class (const GstCtfTraceClass * tc,
    guint64 stream_class_id)
{
  GstCtfMergeEnvIndex *idx = _gst_ctf_merge_env_index_new (tc);
  gint input = _gst_ctf_merge_env_index_input (idx, stream_class_id);

  _gst_ctf_merge_env_index_free (idx);
  return input;
}

const GstCtfEnvEntry *
gst_ctf_trace_merge_find_env (const GstCtfTraceClass * tc,
    guint64 stream_class_id, const gchar * name)
{
  GstCtfMergeEnvIndex *idx = _gst_ctf_merge_env_index_new (tc);
  const GstCtfEnvEntry *e = _gst_ctf_merge_env_index_find (idx,
      stream_class_id, name);

  _gst_ctf_merge_env_index_free (idx);
  return e;
}
