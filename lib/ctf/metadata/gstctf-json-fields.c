/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: CTF 2 field classes (CTF2-SPEC-2.0 §5.4) into the model.
 *
 *   fixed-length bit array, bit map, boolean, unsigned/signed integer
 *       -> INTEGER (ENUM with mappings or flags), GstCtfFieldForm says
 *          which; roles -> meanings (kept as a per-node role here and
 *          checked against the scope by gstctf-json-resolve.c)
 *   fixed-length floating point number -> FLOAT (32 or 64 bits)
 *   null-terminated string -> STRING
 *   static-/dynamic-length string -> text ARRAY/SEQUENCE of bytes
 *   static-/dynamic-length BLOB -> ARRAY/SEQUENCE of bytes (form BLOB)
 *   structure -> STRUCT, static-/dynamic-length array -> ARRAY/SEQUENCE
 *   variant -> VARIANT with its own selector ranges
 * A field location is kept as its JSON text in ref_path until
 * gstctf-json-resolve.c resolves it.
 *   variable-length integer -> INTEGER/ENUM of form LEB128
 *   optional -> VARIANT of form OPTIONAL (one option, its own ranges)
 * A string's `encoding` (UTF-8, UTF-16BE/LE, UTF-32BE/LE) is the STRING's
 * encoding or the text element's (gstctf-unicode-private.h).
 */
#include "gstctf-json-private.h"

#include <string.h>

/* Properties of each field class type (CTF2-SPEC-2.0 §5.4), besides
 * `type`, `attributes` and `extensions`. */
static const struct {
  const gchar *type;
  const gchar *props[8];
} type_props[] = {
  {"fixed-length-bit-array", {"length", "byte-order", "bit-order",
          "alignment"}},
  {"fixed-length-bit-map", {"length", "byte-order", "bit-order", "alignment",
          "flags"}},
  {"fixed-length-boolean", {"length", "byte-order", "bit-order",
          "alignment"}},
  {"fixed-length-unsigned-integer", {"length", "byte-order", "bit-order",
          "alignment", "preferred-display-base", "mappings", "roles"}},
  {"fixed-length-signed-integer", {"length", "byte-order", "bit-order",
          "alignment", "preferred-display-base", "mappings"}},
  {"fixed-length-floating-point-number", {"length", "byte-order",
          "bit-order", "alignment"}},
  {"null-terminated-string", {"encoding"}},
  {"static-length-string", {"length", "encoding"}},
  {"dynamic-length-string", {"length-field-location", "encoding"}},
  {"static-length-blob", {"length", "media-type", "roles"}},
  {"dynamic-length-blob", {"length-field-location", "media-type"}},
  {"structure", {"member-classes", "minimum-alignment"}},
  {"static-length-array", {"element-field-class", "length",
          "minimum-alignment"}},
  {"dynamic-length-array", {"element-field-class", "length-field-location",
          "minimum-alignment"}},
  {"variant", {"options", "selector-field-location"}},
  {"variable-length-unsigned-integer", {"preferred-display-base", "mappings",
          "roles"}},
  {"variable-length-signed-integer", {"preferred-display-base", "mappings"}},
  {"optional", {"field-class", "selector-field-location",
          "selector-field-ranges"}},
};

static const gchar *const member_props[] = { "name", "field-class", NULL };
static const gchar *const option_props[] = { "name", "field-class",
  "selector-field-ranges", NULL
};
static const gchar *const location_props[] = { "origin", "path", NULL };

static gboolean
is_pow2 (guint64 v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

static gboolean
get_byte_order (GstCtfJsonCtx * c, JsonObject * o, const gchar * what,
    GstCtfByteOrder * bo)
{
  const gchar *s;

  if (!_gst_ctf_json_get_string (c, o, what, "byte-order", TRUE, &s))
    return FALSE;
  if (strcmp (s, "little-endian") == 0)
    *bo = GST_CTF_BYTE_ORDER_LE;
  else if (strcmp (s, "big-endian") == 0)
    *bo = GST_CTF_BYTE_ORDER_BE;
  else
    return _gst_ctf_json_fail (c, "%s: byte order `%s`: expected "
        "\"little-endian\" or \"big-endian\"", what, s);
  if (!_gst_ctf_json_get_string (c, o, what, "bit-order", FALSE, &s))
    return FALSE;
  if (s != NULL && strcmp (s, *bo == GST_CTF_BYTE_ORDER_LE ?
          "first-to-last" : "last-to-first") != 0)
    return _gst_ctf_json_fail (c, "%s: bit order `%s` is not supported "
        "(only the byte order's natural bit order)", what, s);
  return TRUE;
}

static gboolean
get_alignment (GstCtfJsonCtx * c, JsonObject * o, const gchar * what,
    const gchar * key, guint * out)
{
  guint64 a;

  if (!_gst_ctf_json_get_uint (c, o, what, key, FALSE, 1, &a))
    return FALSE;
  if (!is_pow2 (a) || a > (1u << 20))
    return _gst_ctf_json_fail (c, "%s: %s %" G_GUINT64_FORMAT ": expected a "
        "power of two", what, key, a);
  *out = (guint) a;
  return TRUE;
}

/* Roles (§5.4.1): the model's meanings; default-clock-timestamp is
 * TIMESTAMP here and TIMESTAMP_BEGIN once resolved in a packet context. */
static gboolean
get_role (GstCtfJsonCtx * c, JsonObject * o, const gchar * what,
    GstCtfFieldMeaning * out)
{
  static const struct {
    const gchar *name;
    GstCtfFieldMeaning meaning;
  } roles[] = {
    {"packet-magic-number", GST_CTF_MEANING_MAGIC},
    {"metadata-stream-uuid", GST_CTF_MEANING_UUID},
    {"data-stream-class-id", GST_CTF_MEANING_STREAM_CLASS_ID},
    {"data-stream-id", GST_CTF_MEANING_STREAM_INSTANCE_ID},
    {"packet-total-length", GST_CTF_MEANING_PACKET_SIZE},
    {"packet-content-length", GST_CTF_MEANING_CONTENT_SIZE},
    {"default-clock-timestamp", GST_CTF_MEANING_TIMESTAMP},
    {"packet-end-default-clock-timestamp", GST_CTF_MEANING_TIMESTAMP_END},
    {"discarded-event-record-counter-snapshot",
        GST_CTF_MEANING_EVENTS_DISCARDED},
    {"packet-sequence-number", GST_CTF_MEANING_PACKET_SEQ_NUM},
    {"event-record-class-id", GST_CTF_MEANING_EVENT_CLASS_ID},
  };
  JsonNode *n = json_object_get_member (o, "roles");
  JsonArray *a;
  guint i, k;

  *out = GST_CTF_MEANING_NONE;
  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (n))
    return _gst_ctf_json_fail (c, "%s: `roles` property: expected an array",
        what);
  a = json_node_get_array (n);
  for (i = 0; i < json_array_get_length (a); i++) {
    JsonNode *e = json_array_get_element (a, i);
    const gchar *s;

    if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) !=
        G_TYPE_STRING)
      return _gst_ctf_json_fail (c, "%s: role %u is not a string", what, i);
    s = json_node_get_string (e);
    for (k = 0; k < G_N_ELEMENTS (roles); k++)
      if (strcmp (s, roles[k].name) == 0)
        break;
    if (k == G_N_ELEMENTS (roles))
      return _gst_ctf_json_fail (c, "%s: unknown role `%s`", what, s);
    if (*out != GST_CTF_MEANING_NONE && *out != roles[k].meaning)
      return _gst_ctf_json_fail (c, "%s: several roles (`%s` and another) "
          "are not supported", what, s);
    *out = roles[k].meaning;
  }
  return TRUE;
}

/* Integer ranges `[[lower, upper], ...]` (§5.2: as signed or unsigned
 * 64-bit values after the class's signedness, @order_check 1 or 0; -1:
 * not known yet, checked once resolved) appended to @fc's mappings under
 * @label for @option. */
static gboolean
add_ranges (GstCtfJsonCtx * c, GstCtfFieldClass * fc, JsonNode * n,
    const gchar * what, const gchar * label, guint option, gint order_check)
{
  JsonArray *a;
  guint i;

  if (!JSON_NODE_HOLDS_ARRAY (n) ||
      json_array_get_length (a = json_node_get_array (n)) == 0)
    return _gst_ctf_json_fail (c, "%s: ranges of `%s`: expected a non-empty "
        "array", what, label);
  for (i = 0; i < json_array_get_length (a); i++) {
    JsonNode *r = json_array_get_element (a, i), *lo, *hi;
    GstCtfEnumMapping *m;
    gint64 l, h;

    if (!JSON_NODE_HOLDS_ARRAY (r) ||
        json_array_get_length (json_node_get_array (r)) != 2)
      return _gst_ctf_json_fail (c, "%s: range %u of `%s`: expected "
          "[lower, upper]", what, i, label);
    lo = json_array_get_element (json_node_get_array (r), 0);
    hi = json_array_get_element (json_node_get_array (r), 1);
    if (!JSON_NODE_HOLDS_VALUE (lo) || json_node_get_value_type (lo) !=
        G_TYPE_INT64 || !JSON_NODE_HOLDS_VALUE (hi) ||
        json_node_get_value_type (hi) != G_TYPE_INT64)
      return _gst_ctf_json_fail (c, "%s: range %u of `%s`: expected two "
          "integers", what, i, label);
    l = json_node_get_int (lo);
    h = json_node_get_int (hi);
    if ((order_check == 1 && l > h) ||
        (order_check == 0 && (guint64) l > (guint64) h))
      return _gst_ctf_json_fail (c, "%s: range %u of `%s`: lower bound "
          "above upper bound", what, i, label);
    if (fc->enumeration.n_mappings >= 1u << 20)
      return _gst_ctf_json_fail (c, "%s: too many ranges", what);
    fc->enumeration.mappings = g_renew (GstCtfEnumMapping,
        fc->enumeration.mappings, fc->enumeration.n_mappings + 1);
    m = &fc->enumeration.mappings[fc->enumeration.n_mappings++];
    m->label = g_strdup (label);
    m->lower = (guint64) l;
    m->upper = (guint64) h;
    m->option = option;
  }
  return TRUE;
}

static gboolean
add_mappings (GstCtfJsonCtx * c, GstCtfFieldClass * fc, JsonObject * o,
    const gchar * key, const gchar * what)
{
  JsonNode *n = json_object_get_member (o, key);
  JsonObject *m;
  GList *names, *l;
  gboolean ok = TRUE;

  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (n))
    return _gst_ctf_json_fail (c, "%s: `%s` property: expected an object",
        what, key);
  m = json_node_get_object (n);
  names = json_object_get_members (m);
  for (l = names; l != NULL && ok; l = l->next)
    ok = add_ranges (c, fc, json_object_get_member (m, l->data), what,
        l->data, 0, fc->integer.is_signed ? 1 : 0);
  g_list_free (names);
  if (ok && fc->enumeration.n_mappings > 0)
    fc->type = GST_CTF_FIELD_CLASS_ENUM;
  return ok;
}

static GstCtfFieldClass *
fixed_length (GstCtfJsonCtx * c, JsonObject * o, const gchar * type,
    const gchar * what)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_INTEGER);
  gboolean is_float = strcmp (type, "fixed-length-floating-point-number") == 0;
  guint64 len, base;

  if (!_gst_ctf_json_get_uint (c, o, what, "length", TRUE, 0, &len)
      || !get_byte_order (c, o, what, &fc->integer.byte_order)
      || !get_alignment (c, o, what, "alignment", &fc->alignment)
      || !get_role (c, o, what, &fc->meaning))
    goto fail;
  if (is_float) {
    fc->type = GST_CTF_FIELD_CLASS_FLOAT;
    fc->floating.byte_order = fc->integer.byte_order;
    if (len == 32) {
      fc->floating.exp_dig = 8;
      fc->floating.mant_dig = 24;
    } else if (len == 64) {
      fc->floating.exp_dig = 11;
      fc->floating.mant_dig = 53;
    } else {
      _gst_ctf_json_fail (c, "%s: floating point number of %" G_GUINT64_FORMAT
          " bits not supported (32 or 64)", what, len);
      goto fail;
    }
    return fc;
  }
  if (len < 1 || len > 64) {
    _gst_ctf_json_fail (c, "%s: length %" G_GUINT64_FORMAT " bits not "
        "supported (1 to 64)", what, len);
    goto fail;
  }
  fc->integer.size = (guint) len;
  fc->integer.is_signed = strcmp (type, "fixed-length-signed-integer") == 0;
  if (strcmp (type, "fixed-length-bit-array") == 0) {
    fc->form = GST_CTF_FIELD_FORM_BIT_ARRAY;
    fc->integer.base = 16;
  } else if (strcmp (type, "fixed-length-boolean") == 0) {
    fc->form = GST_CTF_FIELD_FORM_BOOLEAN;
  } else if (strcmp (type, "fixed-length-bit-map") == 0) {
    fc->form = GST_CTF_FIELD_FORM_BIT_MAP;
    fc->integer.base = 16;
    if (!json_object_has_member (o, "flags")) {
      _gst_ctf_json_fail (c, "%s: missing `flags` property", what);
      goto fail;
    }
    if (!add_mappings (c, fc, o, "flags", what))
      goto fail;
  } else {
    if (!_gst_ctf_json_get_uint (c, o, what, "preferred-display-base",
            FALSE, 10, &base))
      goto fail;
    if (base != 2 && base != 8 && base != 10 && base != 16) {
      _gst_ctf_json_fail (c, "%s: preferred display base %" G_GUINT64_FORMAT
          ": expected 2, 8, 10 or 16", what, base);
      goto fail;
    }
    fc->integer.base = (guint) base;
    if (!add_mappings (c, fc, o, "mappings", what))
      goto fail;
  }
  return fc;

fail:
  gst_ctf_field_class_free (fc);
  return NULL;
}

/* Keeps a field location (§5.3) as JSON text until it is resolved. */
static gboolean
keep_location (GstCtfJsonCtx * c, GstCtfFieldClass * fc, JsonObject * o,
    const gchar * key, const gchar * what)
{
  JsonNode *n = json_object_get_member (o, key);
  JsonGenerator *g;

  if (n == NULL)
    return _gst_ctf_json_fail (c, "%s: missing `%s` property", what, key);
  if (!JSON_NODE_HOLDS_OBJECT (n))
    return _gst_ctf_json_fail (c, "%s: `%s` property: expected a field "
        "location object", what, key);
  if (!_gst_ctf_json_check_props (c, json_node_get_object (n),
          "field location", location_props))
    return FALSE;
  g = json_generator_new ();
  json_generator_set_root (g, n);
  fc->ref_path = json_generator_to_data (g, NULL);
  g_object_unref (g);
  return TRUE;
}

/* CTF2-SPEC-2.0 §5.4.8: `encoding`, default UTF-8 */
static gboolean
get_encoding (GstCtfJsonCtx * c, JsonObject * o, const gchar * what,
    GstCtfEncoding * out)
{
  static const struct {
    const gchar *name;
    GstCtfEncoding enc;
  } names[] = {
    {"utf-8", GST_CTF_ENCODING_UTF8},
    {"utf-16be", GST_CTF_ENCODING_UTF16BE},
    {"utf-16le", GST_CTF_ENCODING_UTF16LE},
    {"utf-32be", GST_CTF_ENCODING_UTF32BE},
    {"utf-32le", GST_CTF_ENCODING_UTF32LE},
  };
  const gchar *enc;
  guint i;

  *out = GST_CTF_ENCODING_UTF8;
  if (!_gst_ctf_json_get_string (c, o, what, "encoding", FALSE, &enc))
    return FALSE;
  if (enc == NULL)
    return TRUE;
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    if (strcmp (enc, names[i].name) == 0) {
      *out = names[i].enc;
      return TRUE;
    }
  }
  return _gst_ctf_json_fail (c, "%s: `encoding` property: unknown string "
      "encoding `%s` (expected utf-8, utf-16be, utf-16le, utf-32be or "
      "utf-32le)", what, enc);
}

static GstCtfFieldClass *
byte_element (GstCtfEncoding encoding)
{
  GstCtfFieldClass *e = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_INTEGER);

  e->integer.size = 8;
  e->alignment = 8;
  e->integer.encoding = encoding;
  e->integer.base = encoding != GST_CTF_ENCODING_NONE ? 10 : 16;
  return e;
}

/* static-/dynamic-length string and BLOB */
static GstCtfFieldClass *
bytes (GstCtfJsonCtx * c, JsonObject * o, gboolean dynamic, gboolean text,
    const gchar * what)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (dynamic ?
      GST_CTF_FIELD_CLASS_SEQUENCE : GST_CTF_FIELD_CLASS_ARRAY);
  GstCtfEncoding encoding = GST_CTF_ENCODING_NONE;

  fc->alignment = 8;
  if (!text)
    fc->form = GST_CTF_FIELD_FORM_BLOB;
  if (text && !get_encoding (c, o, what, &encoding)) {
    gst_ctf_field_class_free (fc);
    return NULL;
  }
  fc->element = byte_element (encoding);
  if (!get_role (c, o, what, &fc->meaning))
    goto fail;
  if (dynamic) {
    if (!keep_location (c, fc, o, "length-field-location", what))
      goto fail;
  } else if (!_gst_ctf_json_get_uint (c, o, what, "length", TRUE, 0,
          &fc->length)) {
    goto fail;
  }
  return fc;

fail:
  gst_ctf_field_class_free (fc);
  return NULL;
}

static GstCtfFieldClass *
structure (GstCtfJsonCtx * c, JsonObject * o, const gchar * what,
    guint depth)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
  JsonNode *n = json_object_get_member (o, "member-classes");
  GHashTable *names = NULL;
  JsonArray *a;
  guint i;

  if (!get_alignment (c, o, what, "minimum-alignment", &fc->alignment))
    goto fail;
  if (n == NULL)
    return fc;
  if (!JSON_NODE_HOLDS_ARRAY (n)) {
    _gst_ctf_json_fail (c, "%s: `member-classes` property: expected an "
        "array", what);
    goto fail;
  }
  a = json_node_get_array (n);
  names = g_hash_table_new (g_str_hash, g_str_equal);
  for (i = 0; i < json_array_get_length (a); i++) {
    JsonNode *m = json_array_get_element (a, i);
    JsonObject *mo;
    const gchar *name;
    GstCtfFieldClass *mfc;

    if (!JSON_NODE_HOLDS_OBJECT (m)) {
      _gst_ctf_json_fail (c, "%s: member %u: expected an object", what, i);
      goto fail;
    }
    mo = json_node_get_object (m);
    if (!_gst_ctf_json_check_props (c, mo, "structure member", member_props)
        || !_gst_ctf_json_get_string (c, mo, "structure member", "name", TRUE,
            &name) || !_gst_ctf_json_check_extensions (c, mo,
            "structure member"))
      goto fail;
    if (g_hash_table_contains (names, name)) {
      _gst_ctf_json_fail (c, "%s: duplicate member name `%s`", what, name);
      goto fail;
    }
    if (!json_object_has_member (mo, "field-class")) {
      _gst_ctf_json_fail (c, "%s: member `%s`: missing `field-class` "
          "property", what, name);
      goto fail;
    }
    mfc = _gst_ctf_json_field_class (c, json_object_get_member (mo,
            "field-class"), name, depth + 1);
    if (mfc == NULL)
      goto fail;
    gst_ctf_field_class_append_member (fc, name, mfc);
    g_hash_table_add (names, fc->members[fc->n_members - 1].name);
    /* a structure aligns as its most aligned member (§5.4.13) */
    fc->alignment = MAX (fc->alignment, mfc->alignment);
  }
  g_hash_table_unref (names);
  return fc;

fail:
  if (names)
    g_hash_table_unref (names);
  gst_ctf_field_class_free (fc);
  return NULL;
}

static GstCtfFieldClass *
array (GstCtfJsonCtx * c, JsonObject * o, gboolean dynamic,
    const gchar * what, guint depth)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (dynamic ?
      GST_CTF_FIELD_CLASS_SEQUENCE : GST_CTF_FIELD_CLASS_ARRAY);
  JsonNode *n = json_object_get_member (o, "element-field-class");

  if (!get_alignment (c, o, what, "minimum-alignment", &fc->alignment))
    goto fail;
  if (n == NULL) {
    _gst_ctf_json_fail (c, "%s: missing `element-field-class` property",
        what);
    goto fail;
  }
  if (dynamic) {
    if (!keep_location (c, fc, o, "length-field-location", what))
      goto fail;
  } else if (!_gst_ctf_json_get_uint (c, o, what, "length", TRUE, 0,
          &fc->length)) {
    goto fail;
  }
  fc->element = _gst_ctf_json_field_class (c, n, what, depth + 1);
  if (fc->element == NULL)
    goto fail;
  fc->alignment = MAX (fc->alignment, fc->element->alignment);
  return fc;

fail:
  gst_ctf_field_class_free (fc);
  return NULL;
}

static GstCtfFieldClass *
variant (GstCtfJsonCtx * c, JsonObject * o, const gchar * what, guint depth)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_VARIANT);
  JsonNode *n = json_object_get_member (o, "options");
  JsonArray *a;
  guint i;

  if (!keep_location (c, fc, o, "selector-field-location", what))
    goto fail;
  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n) ||
      json_array_get_length (json_node_get_array (n)) == 0) {
    _gst_ctf_json_fail (c, "%s: `options` property: expected a non-empty "
        "array", what);
    goto fail;
  }
  a = json_node_get_array (n);
  for (i = 0; i < json_array_get_length (a); i++) {
    JsonNode *m = json_array_get_element (a, i), *r;
    JsonObject *mo;
    const gchar *name;
    gchar *label;
    GstCtfFieldClass *ofc;
    gboolean ok;

    if (!JSON_NODE_HOLDS_OBJECT (m)) {
      _gst_ctf_json_fail (c, "%s: option %u: expected an object", what, i);
      goto fail;
    }
    mo = json_node_get_object (m);
    if (!_gst_ctf_json_check_props (c, mo, "variant option", option_props)
        || !_gst_ctf_json_get_string (c, mo, "variant option", "name", FALSE,
            &name) || !_gst_ctf_json_check_extensions (c, mo,
            "variant option"))
      goto fail;
    r = json_object_get_member (mo, "selector-field-ranges");
    if (r == NULL || !json_object_has_member (mo, "field-class")) {
      _gst_ctf_json_fail (c, "%s: option %u: expected `field-class` and "
          "`selector-field-ranges` properties", what, i);
      goto fail;
    }
    ofc = _gst_ctf_json_field_class (c, json_object_get_member (mo,
            "field-class"), name ? name : what, depth + 1);
    if (ofc == NULL)
      goto fail;
    label = name ? g_strdup (name) : g_strdup ("");
    gst_ctf_field_class_append_member (fc, label, ofc);
    /* the selector's signedness is known once resolved */
    ok = add_ranges (c, fc, r, what, label, i, -1);
    g_free (label);
    if (!ok)
      goto fail;
  }
  return fc;

fail:
  gst_ctf_field_class_free (fc);
  return NULL;
}

/* gst_ctf_field_class_copy() leaves resolution state out, the meanings
 * too; an alias's roles are part of its field class. */
static void
copy_roles (GstCtfFieldClass * dst, const GstCtfFieldClass * src)
{
  guint i;

  dst->meaning = src->meaning;
  for (i = 0; i < dst->n_members; i++)
    copy_roles (dst->members[i].fc, src->members[i].fc);
  if (dst->element != NULL)
    copy_roles (dst->element, src->element);
}

static GstCtfFieldClass *
variable_length (GstCtfJsonCtx * c, JsonObject * o, const gchar * type,
    const gchar * what)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_INTEGER);
  guint64 base;

  fc->form = GST_CTF_FIELD_FORM_LEB128;
  fc->alignment = 8;
  fc->integer.size = 64;
  fc->integer.byte_order = GST_CTF_BYTE_ORDER_LE;
  fc->integer.is_signed = strcmp (type, "variable-length-signed-integer") == 0;
  if (!get_role (c, o, what, &fc->meaning) ||
      !_gst_ctf_json_get_uint (c, o, what, "preferred-display-base", FALSE,
          10, &base))
    goto fail;
  if (base != 2 && base != 8 && base != 10 && base != 16) {
    _gst_ctf_json_fail (c, "%s: preferred display base %" G_GUINT64_FORMAT
        ": expected 2, 8, 10 or 16", what, base);
    goto fail;
  }
  fc->integer.base = (guint) base;
  if (!add_mappings (c, fc, o, "mappings", what))
    goto fail;
  return fc;

fail:
  gst_ctf_field_class_free (fc);
  return NULL;
}

/* An optional (§5.4.16): a one-option variant; with a boolean selector
 * the option is there when the selector is not 0, with an integer one
 * when its value is in `selector-field-ranges` (checked once the
 * selector is resolved: gstctf-json-resolve.c). */
static GstCtfFieldClass *
optional (GstCtfJsonCtx * c, JsonObject * o, const gchar * what, guint depth)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_VARIANT);
  JsonNode *n = json_object_get_member (o, "field-class");
  JsonNode *r = json_object_get_member (o, "selector-field-ranges");
  GstCtfFieldClass *ofc;

  fc->form = GST_CTF_FIELD_FORM_OPTIONAL;
  if (!keep_location (c, fc, o, "selector-field-location", what))
    goto fail;
  if (n == NULL) {
    _gst_ctf_json_fail (c, "%s: missing `field-class` property", what);
    goto fail;
  }
  ofc = _gst_ctf_json_field_class (c, n, what, depth + 1);
  if (ofc == NULL)
    goto fail;
  gst_ctf_field_class_append_member (fc, what, ofc);
  if (r != NULL) {
    if (!add_ranges (c, fc, r, what, what, 0, -1))
      goto fail;
  } else {
    /* a boolean selector: checked when resolved */
    fc->enumeration.mappings = g_new0 (GstCtfEnumMapping, 1);
    fc->enumeration.n_mappings = 1;
    fc->enumeration.mappings[0].label = g_strdup (what);
    fc->enumeration.mappings[0].lower = 1;
    fc->enumeration.mappings[0].upper = G_MAXUINT64;
  }
  return fc;

fail:
  gst_ctf_field_class_free (fc);
  return NULL;
}

GstCtfFieldClass *
_gst_ctf_json_field_class (GstCtfJsonCtx * c, JsonNode * node,
    const gchar * what, guint depth)
{
  JsonObject *o;
  const gchar *type;
  guint i;

  if (depth > GST_CTF_JSON_MAX_DEPTH) {
    _gst_ctf_json_fail (c, "%s: field classes nested deeper than %u levels",
        what, GST_CTF_JSON_MAX_DEPTH);
    return NULL;
  }
  if (++c->n_nodes > GST_CTF_JSON_MAX_NODES) {
    _gst_ctf_json_fail (c, "more than %u field classes",
        GST_CTF_JSON_MAX_NODES);
    return NULL;
  }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) ==
      G_TYPE_STRING) {
    const GstCtfFieldClass *alias = g_hash_table_lookup (c->aliases,
        json_node_get_string (node));

    if (alias == NULL) {
      _gst_ctf_json_fail (c, "%s: no field class alias named `%s` before "
          "it", what, json_node_get_string (node));
      return NULL;
    }
    {
      GstCtfFieldClass *copy = gst_ctf_field_class_copy (alias);

      copy_roles (copy, alias);
      return copy;
    }
  }
  if (!JSON_NODE_HOLDS_OBJECT (node)) {
    _gst_ctf_json_fail (c, "%s: expected a field class (an object or an "
        "alias name)", what);
    return NULL;
  }
  o = json_node_get_object (node);
  if (!_gst_ctf_json_get_string (c, o, what, "type", TRUE, &type) ||
      !_gst_ctf_json_check_extensions (c, o, what))
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (type_props); i++) {
    if (strcmp (type, type_props[i].type) == 0) {
      if (!_gst_ctf_json_check_props (c, o, what, type_props[i].props))
        return NULL;
      break;
    }
  }

  if (g_str_has_prefix (type, "fixed-length-"))
    if (strcmp (type, "fixed-length-bit-array") == 0 ||
        strcmp (type, "fixed-length-bit-map") == 0 ||
        strcmp (type, "fixed-length-boolean") == 0 ||
        strcmp (type, "fixed-length-unsigned-integer") == 0 ||
        strcmp (type, "fixed-length-signed-integer") == 0 ||
        strcmp (type, "fixed-length-floating-point-number") == 0)
      return fixed_length (c, o, type, what);
  if (strcmp (type, "null-terminated-string") == 0) {
    GstCtfEncoding encoding;
    GstCtfFieldClass *fc;

    if (!get_encoding (c, o, what, &encoding))
      return NULL;
    fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING);
    fc->string.encoding = encoding;
    return fc;
  }
  if (strcmp (type, "static-length-string") == 0)
    return bytes (c, o, FALSE, TRUE, what);
  if (strcmp (type, "dynamic-length-string") == 0)
    return bytes (c, o, TRUE, TRUE, what);
  if (strcmp (type, "static-length-blob") == 0)
    return bytes (c, o, FALSE, FALSE, what);
  if (strcmp (type, "dynamic-length-blob") == 0)
    return bytes (c, o, TRUE, FALSE, what);
  if (strcmp (type, "structure") == 0)
    return structure (c, o, what, depth);
  if (strcmp (type, "static-length-array") == 0)
    return array (c, o, FALSE, what, depth);
  if (strcmp (type, "dynamic-length-array") == 0)
    return array (c, o, TRUE, what, depth);
  if (strcmp (type, "variant") == 0)
    return variant (c, o, what, depth);
  if (strcmp (type, "variable-length-unsigned-integer") == 0 ||
      strcmp (type, "variable-length-signed-integer") == 0)
    return variable_length (c, o, type, what);
  if (strcmp (type, "optional") == 0)
    return optional (c, o, what, depth);
  _gst_ctf_json_fail (c, "%s: unknown field class type `%s`", what, type);
  return NULL;
}
