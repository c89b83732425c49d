/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CTF 2 metadata writer (CTF2-SPEC-2.0 §5-6): trace class -> JSON
 * text sequence, built with json-glib.
 *
 * Each model node becomes the field class CTF 2 has for it (the
 * GstCtfFieldForm first, then the CTF 1.8 type); meanings become roles
 * in the scopes where CTF 2 allows them; a sequence length or variant
 * tag becomes a field location found from the resolved target node
 * (ref_target): an absolute one through structures from a scope root,
 * else a relative one from the structures around the dynamic field.
 *
 * json-glib keeps integers as gint64: an unsigned value above
 * G_MAXINT64 (a mapping range of a 64-bit unsigned integer) is put in
 * the tree as a string holding a marker with a per-call nonce and its
 * digits, and the marker is replaced by the bare digits in the text.
 */
#include "gstctf-unicode-private.h"
#include "gstctf-json-writer.h"
#include "gstctf-tsdl-writer.h"
#include "gstctf-metadata.h"
#include "gstctf-text-private.h"

#include <json-glib/json-glib.h>
#include <string.h>

#define MAX_DEPTH 64

static const gchar *const origin_names[GST_CTF_N_SCOPES] = {
  "packet-header", "packet-context", "event-record-header",
  "event-record-common-context", "event-record-specific-context",
  "event-record-payload",
};

typedef struct {
  const GstCtfFieldClass *fc;   /* an enclosing structure or other node */
  guint index;                  /* member index being written */
} Frame;

typedef struct {
  const GstCtfTraceClass *tc;
  const GstCtfStreamClass *sc;
  const GstCtfFieldClass *roots[GST_CTF_N_SCOPES];
  GstCtfScope scope;
  GArray *stack;                /* Frame */
  gboolean from_ctf18;
  gchar *marker;                /* big unsigned value marker prefix */
  guint n_big;
  GError **error;
  gboolean failed;
} W;

static void
fail (W * w, const gchar * name, const gchar * what)
{
  if (w->failed)
    return;
  w->failed = TRUE;
  g_set_error (w->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
      "Cannot write CTF 2 metadata: scope=%s, field=\"%s\": %s",
      origin_names[w->scope], name ? name : "", what);
}

/* A string member, made valid UTF-8. */
static void
add_string (JsonBuilder * b, const gchar * key, const gchar * str)
{
  gchar *v = g_utf8_make_valid (str ? str : "", -1);

  if (key)
    json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, v);
  g_free (v);
}

static void
add_int (JsonBuilder * b, const gchar * key, gint64 v)
{
  if (key)
    json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, v);
}

static void
add_uint (W * w, JsonBuilder * b, const gchar * key, guint64 v)
{
  if (key)
    json_builder_set_member_name (b, key);
  if (v <= G_MAXINT64) {
    json_builder_add_int_value (b, (gint64) v);
  } else {
    gchar *s = g_strdup_printf ("%s%" G_GUINT64_FORMAT, w->marker, v);

    json_builder_add_string_value (b, s);
    g_free (s);
    w->n_big++;
  }
}

static void
add_uuid_array (JsonBuilder * b, const guint8 * u)
{
  guint i;

  json_builder_begin_array (b);
  for (i = 0; i < 16; i++)
    json_builder_add_int_value (b, u[i]);
  json_builder_end_array (b);
}

static gchar *
uuid_string (const guint8 * u)
{
  return g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
      "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5], u[6],
      u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* The name a member is written with: a CTF 1.8 name loses the leading
 * underscore readers strip for display, unless a sibling is written with
 * the same name (one without a leading underscore, or the same name
 * earlier): `_PELCHAT` and `__PELCHAT` become `PELCHAT` and `_PELCHAT`,
 * as babeltrace2 2.1 writes them. */
static const gchar *
member_name (W * w, const GstCtfFieldClass * parent, guint index)
{
  const gchar *name = parent->members[index].name;
  guint i;

  if (!w->from_ctf18 || name == NULL || name[0] != '_')
    return name;
  for (i = 0; i < parent->n_members; i++) {
    const gchar *o = parent->members[i].name;

    if (i == index || o == NULL)
      continue;
    if ((o[0] != '_' && strcmp (o, name + 1) == 0) || (o[0] == '_' &&
            strcmp (o + 1, name + 1) == 0 && i < index))
      return name;
  }
  return name + 1;
}

static const gchar *
role_name (W * w, const GstCtfFieldClass * fc)
{
  gboolean header = w->scope == GST_CTF_SCOPE_PACKET_HEADER;
  gboolean context = w->scope == GST_CTF_SCOPE_PACKET_CONTEXT;
  gboolean ev_header = w->scope == GST_CTF_SCOPE_EVENT_HEADER;
  gboolean clocked = w->sc != NULL && w->sc->default_clock != NULL;

  if (fc->meaning == GST_CTF_MEANING_UUID)
    return header ? "metadata-stream-uuid" : NULL;
  if ((fc->type != GST_CTF_FIELD_CLASS_INTEGER &&
          fc->type != GST_CTF_FIELD_CLASS_ENUM) || fc->integer.is_signed)
    return NULL;
  switch (fc->meaning) {
    case GST_CTF_MEANING_MAGIC:
      return header ? "packet-magic-number" : NULL;
    case GST_CTF_MEANING_STREAM_CLASS_ID:
      return header ? "data-stream-class-id" : NULL;
    case GST_CTF_MEANING_STREAM_INSTANCE_ID:
      return header ? "data-stream-id" : NULL;
    case GST_CTF_MEANING_PACKET_SIZE:
      return context ? "packet-total-length" : NULL;
    case GST_CTF_MEANING_CONTENT_SIZE:
      return context ? "packet-content-length" : NULL;
    case GST_CTF_MEANING_TIMESTAMP_BEGIN:
      return context && clocked ? "default-clock-timestamp" : NULL;
    case GST_CTF_MEANING_TIMESTAMP_END:
      return context && clocked ? "packet-end-default-clock-timestamp" : NULL;
    case GST_CTF_MEANING_EVENTS_DISCARDED:
      return context ? "discarded-event-record-counter-snapshot" : NULL;
    case GST_CTF_MEANING_PACKET_SEQ_NUM:
      return context ? "packet-sequence-number" : NULL;
    case GST_CTF_MEANING_EVENT_CLASS_ID:
      return ev_header ? "event-record-class-id" : NULL;
    case GST_CTF_MEANING_TIMESTAMP:
      return (ev_header || context) && clocked ?
          "default-clock-timestamp" : NULL;
    default:
      return NULL;
  }
}

static void
add_roles (W * w, JsonBuilder * b, const GstCtfFieldClass * fc)
{
  const gchar *role = role_name (w, fc);

  if (role == NULL)
    return;
  json_builder_set_member_name (b, "roles");
  json_builder_begin_array (b);
  json_builder_add_string_value (b, role);
  json_builder_end_array (b);
}

static void
add_byte_order (JsonBuilder * b, GstCtfByteOrder bo)
{
  add_string (b, "byte-order", bo == GST_CTF_BYTE_ORDER_BE ? "big-endian" :
      "little-endian");
}

/* `LABEL: [[lower, upper], ...]` for every mapping of @fc with @label. */
static void
add_label_ranges (W * w, JsonBuilder * b, const GstCtfFieldClass * fc,
    const gchar * label)
{
  gchar *valid = g_utf8_make_valid (label, -1);
  guint j;

  json_builder_set_member_name (b, valid);
  g_free (valid);
  json_builder_begin_array (b);
  for (j = 0; j < fc->enumeration.n_mappings; j++) {
    const GstCtfEnumMapping *m = &fc->enumeration.mappings[j];

    if (strcmp (m->label ? m->label : "", label) != 0)
      continue;
    json_builder_begin_array (b);
    if (fc->integer.is_signed) {
      add_int (b, NULL, (gint64) m->lower);
      add_int (b, NULL, (gint64) m->upper);
    } else {
      add_uint (w, b, NULL, m->lower);
      add_uint (w, b, NULL, m->upper);
    }
    json_builder_end_array (b);
  }
  json_builder_end_array (b);
}

/* `{ LABEL: [[lower, upper], ...], ... }` from @fc's mappings.  babeltrace2
 * 2.1 prints the labels of a CTF 2 value in the order of the metadata,
 * and those of a CTF 1.8 value in its label table's order: a CTF 1.8
 * enumeration's labels are written in the latter, so that both print
 * alike; others in the order they first appear. */
static void
add_mappings (W * w, JsonBuilder * b, const gchar * key,
    const GstCtfFieldClass * fc)
{
  guint i;

  json_builder_set_member_name (b, key);
  json_builder_begin_object (b);
  if (w->from_ctf18 && fc->form == GST_CTF_FIELD_FORM_PLAIN) {
    guint n;
    const gchar **labels = _gst_ctf_text_enum_label_order (fc, &n);

    for (i = 0; i < n; i++)
      add_label_ranges (w, b, fc, labels[i] ? labels[i] : "");
    g_free (labels);
  } else {
    GHashTable *done = g_hash_table_new (g_str_hash, g_str_equal);

    for (i = 0; i < fc->enumeration.n_mappings; i++) {
      const gchar *label = fc->enumeration.mappings[i].label;

      label = label ? label : "";
      if (g_hash_table_contains (done, label))
        continue;
      g_hash_table_add (done, (gpointer) label);
      add_label_ranges (w, b, fc, label);
    }
    g_hash_table_unref (done);
  }
  json_builder_end_object (b);
}

static void
add_integer (W * w, JsonBuilder * b, const GstCtfFieldClass * fc)
{
  const gchar *type;
  gboolean has_mappings = fc->type == GST_CTF_FIELD_CLASS_ENUM &&
      fc->enumeration.n_mappings > 0;

  switch (fc->form) {
    case GST_CTF_FIELD_FORM_BOOLEAN:
      type = "fixed-length-boolean";
      break;
    case GST_CTF_FIELD_FORM_BIT_MAP:
      type = "fixed-length-bit-map";
      break;
    case GST_CTF_FIELD_FORM_BIT_ARRAY:
      type = "fixed-length-bit-array";
      break;
    case GST_CTF_FIELD_FORM_LEB128:
      type = fc->integer.is_signed ? "variable-length-signed-integer" :
          "variable-length-unsigned-integer";
      break;
    default:
      type = fc->integer.is_signed ? "fixed-length-signed-integer" :
          "fixed-length-unsigned-integer";
      break;
  }
  add_string (b, "type", type);
  if (fc->form != GST_CTF_FIELD_FORM_LEB128) {
    add_int (b, "length", fc->integer.size);
    add_byte_order (b, fc->integer.byte_order);
    add_int (b, "alignment", MAX (fc->alignment, 1));
  }
  if (fc->form == GST_CTF_FIELD_FORM_PLAIN ||
      fc->form == GST_CTF_FIELD_FORM_LEB128) {
    guint base = fc->integer.base;

    add_int (b, "preferred-display-base", (base == 2 || base == 8 ||
            base == 16) ? base : 10);
    if (has_mappings)
      add_mappings (w, b, "mappings", fc);
  } else if (fc->form == GST_CTF_FIELD_FORM_BIT_MAP) {
    add_mappings (w, b, "flags", fc);
  }
  add_roles (w, b, fc);
}

/* Is @target reached from @fc through structure members only?  The
 * member names (as written) are pushed on @path. */
static gboolean
find_path (W * w, const GstCtfFieldClass * fc,
    const GstCtfFieldClass * target, guint limit, GPtrArray * path,
    guint depth)
{
  guint i;

  if (fc == target)
    return TRUE;
  if (fc == NULL || fc->type != GST_CTF_FIELD_CLASS_STRUCT ||
      depth > MAX_DEPTH)
    return FALSE;
  for (i = 0; i < fc->n_members && i < limit; i++) {
    g_ptr_array_add (path, (gpointer) member_name (w, fc, i));
    if (find_path (w, fc->members[i].fc, target, G_MAXUINT, path, depth + 1))
      return TRUE;
    g_ptr_array_set_size (path, path->len - 1);
  }
  return FALSE;
}

static void
add_path (JsonBuilder * b, GPtrArray * path, guint ups)
{
  guint i;

  json_builder_set_member_name (b, "path");
  json_builder_begin_array (b);
  for (i = 0; i < ups; i++)
    json_builder_add_null_value (b);
  for (i = 0; i < path->len; i++)
    add_string (b, NULL, g_ptr_array_index (path, i));
  json_builder_end_array (b);
}

/* The field location of @fc's length or selector field (§5.3). */
static void
add_location (W * w, JsonBuilder * b, const gchar * key,
    const GstCtfFieldClass * fc, const gchar * name)
{
  const GstCtfFieldClass *target = fc->ref_target;
  GPtrArray *path = g_ptr_array_new ();
  GstCtfScope s;
  gint k;
  guint ups = 0;

  if (target == NULL) {
    fail (w, name, "its length or selector field is not resolved");
    goto out;
  }
  /* absolute: a scope before this one, or this one's members before the
   * dynamic field (the outermost frames name the way down) */
  for (s = 0; s <= w->scope; s++) {
    guint limit = G_MAXUINT;

    if (w->roots[s] == NULL)
      continue;
    if (s == w->scope && w->stack->len > 0)
      limit = g_array_index (w->stack, Frame, 0).index + 1;
    g_ptr_array_set_size (path, 0);
    if (find_path (w, w->roots[s], target, limit, path, 0) && path->len > 0) {
      json_builder_set_member_name (b, key);
      json_builder_begin_object (b);
      add_string (b, "origin", origin_names[s]);
      add_path (b, path, 0);
      json_builder_end_object (b);
      goto out;
    }
  }
  /* relative: from the innermost structure around the field up */
  for (k = (gint) w->stack->len - 1; k >= 0; k--) {
    const Frame *f = &g_array_index (w->stack, Frame, k);

    if (f->fc->type != GST_CTF_FIELD_CLASS_STRUCT)
      continue;
    g_ptr_array_set_size (path, 0);
    if (find_path (w, f->fc, target, f->index, path, 0) && path->len > 0) {
      json_builder_set_member_name (b, key);
      json_builder_begin_object (b);
      add_path (b, path, ups);
      json_builder_end_object (b);
      goto out;
    }
    ups++;
  }
  fail (w, name, "its length or selector field is not reachable by a "
      "field location (through structures only)");
out:
  g_ptr_array_unref (path);
}

static void add_field_class (W * w, JsonBuilder * b,
    const GstCtfFieldClass * fc, const gchar * name, guint depth);

static void
push (W * w, const GstCtfFieldClass * fc, guint index)
{
  Frame f = { fc, index };

  g_array_append_val (w->stack, f);
}

static void
pop (W * w)
{
  g_array_set_size (w->stack, w->stack->len - 1);
}

static gboolean
is_text_bytes (const GstCtfFieldClass * fc)
{
  const GstCtfFieldClass *e = fc->element;

  return e != NULL && e->type == GST_CTF_FIELD_CLASS_INTEGER &&
      e->form == GST_CTF_FIELD_FORM_PLAIN && e->integer.size == 8 &&
      e->alignment == 8 && fc->alignment == 8 &&
      e->integer.encoding != GST_CTF_ENCODING_NONE;
}

static gboolean
is_bytes (const GstCtfFieldClass * fc)
{
  const GstCtfFieldClass *e = fc->element;

  return e != NULL && e->type == GST_CTF_FIELD_CLASS_INTEGER &&
      !e->integer.is_signed && e->integer.size == 8 && e->alignment == 8 &&
      fc->alignment == 8;
}

static void
add_array (W * w, JsonBuilder * b, const GstCtfFieldClass * fc,
    const gchar * name, guint depth)
{
  gboolean dynamic = fc->type == GST_CTF_FIELD_CLASS_SEQUENCE;
  const gchar *type;

  if (fc->element == NULL) {
    fail (w, name, "an array without an element field class");
    return;
  }
  if ((fc->form == GST_CTF_FIELD_FORM_BLOB ||
          (fc->meaning == GST_CTF_MEANING_UUID && !dynamic)) && is_bytes (fc))
    type = dynamic ? "dynamic-length-blob" : "static-length-blob";
  else if (is_text_bytes (fc))
    type = dynamic ? "dynamic-length-string" : "static-length-string";
  else
    type = dynamic ? "dynamic-length-array" : "static-length-array";
  add_string (b, "type", type);
  if (g_str_has_suffix (type, "-string") &&
      _gst_ctf_encoding_unit (fc->element->integer.encoding) > 1)
    add_string (b, "encoding",
        _gst_ctf_encoding_json_name (fc->element->integer.encoding));
  if (dynamic)
    add_location (w, b, "length-field-location", fc, name);
  else
    add_uint (w, b, "length", fc->length);
  if (g_str_has_suffix (type, "-array")) {
    if (fc->alignment > 1)
      add_int (b, "minimum-alignment", fc->alignment);
    json_builder_set_member_name (b, "element-field-class");
    push (w, fc, 0);
    add_field_class (w, b, fc->element, name, depth + 1);
    pop (w);
  } else if (g_str_has_suffix (type, "-blob")) {
    add_roles (w, b, fc);
  }
}

static void
add_struct (W * w, JsonBuilder * b, const GstCtfFieldClass * fc,
    guint depth)
{
  guint i;

  add_string (b, "type", "structure");
  if (fc->alignment > 1)
    add_int (b, "minimum-alignment", fc->alignment);
  json_builder_set_member_name (b, "member-classes");
  json_builder_begin_array (b);
  for (i = 0; i < fc->n_members && !w->failed; i++) {
    const gchar *mname = member_name (w, fc, i);

    json_builder_begin_object (b);
    add_string (b, "name", mname);
    json_builder_set_member_name (b, "field-class");
    push (w, fc, i);
    add_field_class (w, b, fc->members[i].fc, mname, depth + 1);
    pop (w);
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
}

/* Does CTF 1.8 @label select option @name (as the packet reader's plan
 * does: an exact match first, else with one leading underscore off
 * each)? */
static gboolean
label_selects (const gchar * label, const gchar * name, gboolean stripped)
{
  if (label == NULL || name == NULL)
    return FALSE;
  if (!stripped)
    return strcmp (label, name) == 0;
  return strcmp (label[0] == '_' ? label + 1 : label,
      name[0] == '_' ? name + 1 : name) == 0;
}

/* The ranges of option @k: the variant's own (CTF 2), else those of
 * its enumeration tag's labels that name it (CTF 1.8). */
static guint
add_option_ranges (W * w, JsonBuilder * b, const GstCtfFieldClass * fc,
    guint k, gboolean sgn)
{
  const GstCtfFieldClass *tag = fc->ref_target;
  const gchar *name = fc->members[k].name;
  guint m, n = 0;
  gint pass;

  json_builder_set_member_name (b, "selector-field-ranges");
  json_builder_begin_array (b);
  if (fc->enumeration.n_mappings > 0) {
    for (m = 0; m < fc->enumeration.n_mappings; m++) {
      const GstCtfEnumMapping *r = &fc->enumeration.mappings[m];

      if (r->option != k)
        continue;
      json_builder_begin_array (b);
      if (sgn) {
        add_int (b, NULL, (gint64) r->lower);
        add_int (b, NULL, (gint64) r->upper);
      } else {
        add_uint (w, b, NULL, r->lower);
        add_uint (w, b, NULL, r->upper);
      }
      json_builder_end_array (b);
      n++;
    }
  } else if (tag != NULL) {
    for (pass = 0; pass < 2 && n == 0; pass++) {
      for (m = 0; m < tag->enumeration.n_mappings; m++) {
        const GstCtfEnumMapping *r = &tag->enumeration.mappings[m];

        if (!label_selects (r->label, name, pass == 1))
          continue;
        json_builder_begin_array (b);
        if (sgn) {
          add_int (b, NULL, (gint64) r->lower);
          add_int (b, NULL, (gint64) r->upper);
        } else {
          add_uint (w, b, NULL, r->lower);
          add_uint (w, b, NULL, r->upper);
        }
        json_builder_end_array (b);
        n++;
      }
    }
  }
  json_builder_end_array (b);
  return n;
}

/* Whether option @k can be selected at all. */
static gboolean
option_selectable (const GstCtfFieldClass * fc, guint k)
{
  const GstCtfFieldClass *tag = fc->ref_target;
  guint m;
  gint pass;

  if (fc->enumeration.n_mappings > 0) {
    for (m = 0; m < fc->enumeration.n_mappings; m++)
      if (fc->enumeration.mappings[m].option == k)
        return TRUE;
    return FALSE;
  }
  for (pass = 0; tag != NULL && pass < 2; pass++)
    for (m = 0; m < tag->enumeration.n_mappings; m++)
      if (label_selects (tag->enumeration.mappings[m].label,
              fc->members[k].name, pass == 1))
        return TRUE;
  return FALSE;
}

static void
add_variant (W * w, JsonBuilder * b, const GstCtfFieldClass * fc,
    const gchar * name, guint depth)
{
  const GstCtfFieldClass *tag = fc->ref_target;
  gboolean sgn = tag != NULL && tag->integer.is_signed;
  guint k, n = 0;

  if (fc->form == GST_CTF_FIELD_FORM_OPTIONAL) {
    add_string (b, "type", "optional");
    add_location (w, b, "selector-field-location", fc, name);
    if (tag != NULL && tag->form != GST_CTF_FIELD_FORM_BOOLEAN)
      add_option_ranges (w, b, fc, 0, sgn);
    if (fc->n_members == 0) {
      fail (w, name, "an optional without a field class");
      return;
    }
    json_builder_set_member_name (b, "field-class");
    push (w, fc, 0);
    add_field_class (w, b, fc->members[0].fc, name, depth + 1);
    pop (w);
    return;
  }
  add_string (b, "type", "variant");
  add_location (w, b, "selector-field-location", fc, name);
  json_builder_set_member_name (b, "options");
  json_builder_begin_array (b);
  for (k = 0; k < fc->n_members && !w->failed; k++) {
    const gchar *oname;

    if (!option_selectable (fc, k))
      continue;
    oname = member_name (w, fc, k);
    json_builder_begin_object (b);
    if (oname != NULL && oname[0] != '\0')
      add_string (b, "name", oname);
    add_option_ranges (w, b, fc, k, sgn);
    json_builder_set_member_name (b, "field-class");
    push (w, fc, k);
    add_field_class (w, b, fc->members[k].fc, oname, depth + 1);
    pop (w);
    json_builder_end_object (b);
    n++;
  }
  json_builder_end_array (b);
  if (n == 0)
    fail (w, name, "a variant none of whose options can be selected");
}

static void
add_field_class (W * w, JsonBuilder * b, const GstCtfFieldClass * fc,
    const gchar * name, guint depth)
{
  if (w->failed)
    return;
  json_builder_begin_object (b);
  if (depth > MAX_DEPTH) {
    fail (w, name, "field classes nested more than 64 deep");
  } else {
    switch (fc->type) {
      case GST_CTF_FIELD_CLASS_INTEGER:
      case GST_CTF_FIELD_CLASS_ENUM:
        add_integer (w, b, fc);
        break;
      case GST_CTF_FIELD_CLASS_FLOAT:
        add_string (b, "type", "fixed-length-floating-point-number");
        add_int (b, "length", fc->floating.exp_dig + fc->floating.mant_dig);
        add_byte_order (b, fc->floating.byte_order);
        add_int (b, "alignment", MAX (fc->alignment, 1));
        break;
      case GST_CTF_FIELD_CLASS_STRING:
        add_string (b, "type", "null-terminated-string");
        if (_gst_ctf_encoding_unit (fc->string.encoding) > 1)
          add_string (b, "encoding",
              _gst_ctf_encoding_json_name (fc->string.encoding));
        break;
      case GST_CTF_FIELD_CLASS_STRUCT:
        add_struct (w, b, fc, depth);
        break;
      case GST_CTF_FIELD_CLASS_ARRAY:
      case GST_CTF_FIELD_CLASS_SEQUENCE:
        add_array (w, b, fc, name, depth);
        break;
      case GST_CTF_FIELD_CLASS_VARIANT:
        add_variant (w, b, fc, name, depth);
        break;
    }
  }
  json_builder_end_object (b);
}

static void
add_scope (W * w, JsonBuilder * b, const gchar * key, GstCtfScope scope)
{
  const GstCtfFieldClass *fc = w->roots[scope];

  if (fc == NULL || w->failed)
    return;
  /* An empty packet header or event record header that aligns to no
   * more than a byte reads no bits, moves nothing and shows nowhere (the
   * other scopes show as `{ }` in babeltrace2's text): it is left out, as
   * Trace Compass's CTF 2 reader fails on it (IndexOutOfBoundsException
   * in StreamDeclarationParser.lookupStructName) */
  if ((scope == GST_CTF_SCOPE_PACKET_HEADER
          || scope == GST_CTF_SCOPE_EVENT_HEADER)
      && fc->type == GST_CTF_FIELD_CLASS_STRUCT && fc->n_members == 0
      && fc->alignment <= 8)
    return;
  w->scope = scope;
  g_array_set_size (w->stack, 0);
  json_builder_set_member_name (b, key);
  add_field_class (w, b, fc, NULL, 0);
}

/* One fragment: RS, the JSON text, LF. */
static void
emit (W * w, GString * out, JsonBuilder * b)
{
  JsonGenerator *g = json_generator_new ();
  JsonNode *root = json_builder_get_root (b);
  gchar *text;

  json_generator_set_root (g, root);
  text = json_generator_to_data (g, NULL);
  g_string_append_c (out, GST_CTF_METADATA_JSON_RS);
  g_string_append (out, text);
  g_string_append_c (out, '\n');
  g_free (text);
  json_node_unref (root);
  g_object_unref (g);
  json_builder_reset (b);
}

static const gchar *
lttng_log_level_name (gint64 level)
{
  static const gchar *const names[] = {
    "emergency", "alert", "critical", "error", "warning", "notice", "info",
    "debug:system", "debug:program", "debug:process", "debug:module",
    "debug:unit", "debug:function", "debug:line", "debug",
  };

  return level >= 0 && level < (gint64) G_N_ELEMENTS (names) ?
      names[level] : NULL;
}

/* A clock class ID: its name, made unique. */
static gchar *
clock_id (const GstCtfTraceClass * tc, const GstCtfClockClass * cc)
{
  guint i, same = 0;

  for (i = 0; i < tc->clock_classes->len; i++) {
    const GstCtfClockClass *o = g_ptr_array_index (tc->clock_classes, i);

    if (o == cc)
      break;
    if (g_strcmp0 (o->name, cc->name) == 0)
      same++;
  }
  if (same == 0)
    return g_strdup (cc->name ? cc->name : "");
  return g_strdup_printf ("%s-%u", cc->name ? cc->name : "", same);
}

static void
write_clock (W * w, GString * out, JsonBuilder * b,
    const GstCtfClockClass * cc)
{
  gchar *id = clock_id (w->tc, cc);
  gint64 secs = cc->offset_s, cycles = cc->offset;
  gint64 freq = (gint64) MIN (cc->freq, (guint64) G_MAXINT64);

  /* CTF 2: 0 <= cycles < frequency */
  if (freq > 0) {
    secs += cycles / freq;
    cycles %= freq;
    if (cycles < 0) {
      cycles += freq;
      secs--;
    }
  }
  json_builder_begin_object (b);
  add_string (b, "type", "clock-class");
  add_string (b, "id", id);
  add_string (b, "name", cc->name);
  if (cc->has_uuid) {
    gchar *u = uuid_string (cc->uuid);

    add_string (b, "uid", u);
    g_free (u);
  }
  if (cc->description)
    add_string (b, "description", cc->description);
  add_uint (w, b, "frequency", cc->freq ? cc->freq : 1000000000);
  if (cc->origin_is_unix_epoch)
    add_string (b, "origin", "unix-epoch");
  json_builder_set_member_name (b, "offset-from-origin");
  json_builder_begin_object (b);
  add_int (b, "seconds", secs);
  add_int (b, "cycles", cycles);
  json_builder_end_object (b);
  add_uint (w, b, "precision", cc->precision);
  json_builder_end_object (b);
  emit (w, out, b);
  g_free (id);
}

static void
write_event_class (W * w, GString * out, JsonBuilder * b,
    const GstCtfStreamClass * sc, const GstCtfEventClass * ec)
{
  json_builder_begin_object (b);
  add_string (b, "type", "event-record-class");
  add_uint (w, b, "id", ec->id);
  add_uint (w, b, "data-stream-class-id", sc->id);
  if (ec->name)
    add_string (b, "name", ec->name);
  if (ec->loglevel != -1 || ec->model_emf_uri) {
    json_builder_set_member_name (b, "attributes");
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "lttng.org,2009");
    json_builder_begin_object (b);
    if (ec->loglevel != -1) {
      const gchar *ln = lttng_log_level_name (ec->loglevel);

      if (ln)
        add_string (b, "log-level", ln);
      else
        add_int (b, "log-level", ec->loglevel);
    }
    if (ec->model_emf_uri)
      add_string (b, "emf-uri", ec->model_emf_uri);
    json_builder_end_object (b);
    json_builder_end_object (b);
  }
  w->roots[GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT] = ec->context;
  w->roots[GST_CTF_SCOPE_EVENT_PAYLOAD] = ec->payload;
  add_scope (w, b, "specific-context-field-class",
      GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT);
  add_scope (w, b, "payload-field-class", GST_CTF_SCOPE_EVENT_PAYLOAD);
  json_builder_end_object (b);
  emit (w, out, b);
}

static void
write_stream_class (W * w, GString * out, JsonBuilder * b,
    const GstCtfStreamClass * sc)
{
  guint j;

  w->sc = sc;
  w->roots[GST_CTF_SCOPE_PACKET_CONTEXT] = sc->packet_context;
  w->roots[GST_CTF_SCOPE_EVENT_HEADER] = sc->event_header;
  w->roots[GST_CTF_SCOPE_EVENT_COMMON_CONTEXT] = sc->event_common_context;
  w->roots[GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT] = NULL;
  w->roots[GST_CTF_SCOPE_EVENT_PAYLOAD] = NULL;
  json_builder_begin_object (b);
  add_string (b, "type", "data-stream-class");
  add_uint (w, b, "id", sc->id);
  if (sc->default_clock) {
    gchar *id = clock_id (w->tc, sc->default_clock);

    add_string (b, "default-clock-class-id", id);
    g_free (id);
  }
  add_scope (w, b, "packet-context-field-class",
      GST_CTF_SCOPE_PACKET_CONTEXT);
  add_scope (w, b, "event-record-header-field-class",
      GST_CTF_SCOPE_EVENT_HEADER);
  add_scope (w, b, "event-record-common-context-field-class",
      GST_CTF_SCOPE_EVENT_COMMON_CONTEXT);
  json_builder_end_object (b);
  emit (w, out, b);
  for (j = 0; j < sc->event_classes->len && !w->failed; j++)
    write_event_class (w, out, b, sc, g_ptr_array_index (sc->event_classes,
            j));
}

/* Replaces each `"MARKER<digits>"` by `<digits>`. */
static gchar *
unmark (W * w, GString * out)
{
  GString *res;
  gchar *quoted = g_strdup_printf ("\"%s", w->marker);
  const gchar *p = out->str, *hit;
  gsize qlen = strlen (quoted);

  if (w->n_big == 0) {
    g_free (quoted);
    return g_string_free (out, FALSE);
  }
  res = g_string_sized_new (out->len);
  while ((hit = strstr (p, quoted)) != NULL) {
    const gchar *d = hit + qlen, *e = d;

    while (g_ascii_isdigit (*e))
      e++;
    g_string_append_len (res, p, hit - p);
    g_string_append_len (res, d, e - d);
    p = *e == '"' ? e + 1 : e;
  }
  g_string_append (res, p);
  g_string_free (out, TRUE);
  g_free (quoted);
  return g_string_free (res, FALSE);
}

gchar *
gst_ctf_json_write (const GstCtfTraceClass * tc, GError ** error)
{
  W w = { 0, };
  JsonBuilder *b;
  GString *out;
  guint i;

  g_return_val_if_fail (tc != NULL, NULL);

  w.tc = tc;
  w.error = error;
  w.from_ctf18 = tc->major < 2;
  w.stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  /* a marker no string of the model holds: it has a random nonce */
  w.marker = g_strdup_printf ("gst-ctf-u64-%08x%08x:", g_random_int (),
      g_random_int ());
  w.roots[GST_CTF_SCOPE_PACKET_HEADER] = tc->packet_header;
  b = json_builder_new ();
  out = g_string_new (NULL);

  json_builder_begin_object (b);
  add_string (b, "type", "preamble");
  add_int (b, "version", 2);
  if (tc->has_uuid) {
    json_builder_set_member_name (b, "uuid");
    add_uuid_array (b, tc->uuid);
  }
  json_builder_end_object (b);
  emit (&w, out, b);

  json_builder_begin_object (b);
  add_string (b, "type", "trace-class");
  if (tc->uid) {
    add_string (b, "uid", tc->uid);
  } else if (tc->has_uuid) {
    gchar *u = uuid_string (tc->uuid);

    add_string (b, "uid", u);
    g_free (u);
  }
  if (tc->env->len > 0) {
    json_builder_set_member_name (b, "environment");
    json_builder_begin_object (b);
    for (i = 0; i < tc->env->len; i++) {
      const GstCtfEnvEntry *e = g_ptr_array_index (tc->env, i);
      gchar *key = g_utf8_make_valid (e->name ? e->name : "", -1);

      if (e->is_string)
        add_string (b, key, e->str);
      else
        add_int (b, key, e->integer);
      g_free (key);
    }
    json_builder_end_object (b);
  }
  add_scope (&w, b, "packet-header-field-class", GST_CTF_SCOPE_PACKET_HEADER);
  json_builder_end_object (b);
  emit (&w, out, b);

  /* each clock once, even when several data stream classes use it */
  for (i = 0; i < tc->clock_classes->len; i++)
    write_clock (&w, out, b, g_ptr_array_index (tc->clock_classes, i));

  for (i = 0; i < tc->stream_classes->len && !w.failed; i++)
    write_stream_class (&w, out, b, g_ptr_array_index (tc->stream_classes,
            i));

  g_object_unref (b);
  g_array_free (w.stack, TRUE);
  if (w.failed) {
    g_string_free (out, TRUE);
    g_free (w.marker);
    return NULL;
  }
  {
    gchar *text = unmark (&w, out);

    g_free (w.marker);
    return text;
  }
}
