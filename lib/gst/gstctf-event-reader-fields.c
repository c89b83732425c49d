/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfEventReader's field getters: a field found by its path in the
 * current event's scopes, and its value converted from what the packet
 * reader recorded (CTF 1.8 §4 types map to: integers and enumerations ->
 * int64/uint64, floats -> double, strings and text arrays/sequences ->
 * string, structures -> a{sv}, arrays and sequences -> av, variants ->
 * their selected option).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctf-event-reader-private.h"
#include "gstctf-unicode-private.h"

/* Limits of one path given to the field getters. */
#define PATH_MAX_LEN 1024

static gboolean
name_matches (const gchar * tsdl_name, const gchar * want, gsize len)
{
  if (tsdl_name == NULL)
    return FALSE;
  if (strncmp (tsdl_name, want, len) == 0 && tsdl_name[len] == '\0')
    return TRUE;
  return tsdl_name[0] == '_' && strncmp (tsdl_name + 1, want, len) == 0 &&
      tsdl_name[len + 1] == '\0';
}

static const gchar *
display_name (const gchar * tsdl_name)
{
  if (tsdl_name == NULL)
    return "";
  return tsdl_name[0] == '_' ? tsdl_name + 1 : tsdl_name;
}

/* A variant stands for its selected option. */
static guint
unwrap_variant (const GstCtfFieldValue * v, guint n, guint i)
{
  while (i < n && v[i].fc->type == GST_CTF_FIELD_CLASS_VARIANT &&
      v[i].end > i + 1)
    i++;
  return i;
}

/* The packet reader's text array rule (CTF 1.8 §4.2.3 note, as in
 * gstctf-plan.c): byte-aligned 8-bit integers with an encoding are kept
 * as bytes, with no child values. */
static gboolean
fc_is_text_array (const GstCtfFieldClass * fc)
{
  const GstCtfFieldClass *e = fc->element;
  guint a;

  if ((fc->type != GST_CTF_FIELD_CLASS_ARRAY &&
          fc->type != GST_CTF_FIELD_CLASS_SEQUENCE) || e == NULL)
    return FALSE;
  a = e->alignment;
  if (a == 0 || (a & (a - 1)) != 0)
    a = 1;
  return e->type == GST_CTF_FIELD_CLASS_INTEGER && e->integer.size == 8 &&
      a % 8 == 0 && e->integer.encoding != GST_CTF_ENCODING_NONE;
}

static gboolean
is_compound_with_children (const GstCtfFieldValue * v, guint i)
{
  switch (v[i].fc->type) {
    case GST_CTF_FIELD_CLASS_STRUCT:
      return TRUE;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      return !fc_is_text_array (v[i].fc);
    default:
      return FALSE;
  }
}

/* Finds @path ("a.b[2].c") below the root @v[0] of one scope; returns the
 * value index or -1. */
static gint
resolve_in_scope (const GstCtfFieldValue * v, guint n, const gchar * path)
{
  const gchar *p = path;
  guint cur = 0, i;

  if (n == 0)
    return -1;
  while (*p != '\0') {
    gsize len = strcspn (p, ".[");
    gint found = -1;

    cur = unwrap_variant (v, n, cur);
    if (cur >= n || v[cur].fc->type != GST_CTF_FIELD_CLASS_STRUCT)
      return -1;
    for (i = cur + 1; i < v[cur].end && i < n; i = MAX (v[i].end, i + 1)) {
      if (name_matches (v[i].name, p, len)) {
        found = (gint) i;
        break;
      }
    }
    if (found < 0)
      return -1;
    cur = (guint) found;
    p += len;
    while (*p == '[') {
      gchar *endp;
      guint64 idx = g_ascii_strtoull (p + 1, &endp, 10);
      guint64 k;

      if (endp == p + 1 || *endp != ']')
        return -1;
      p = endp + 1;
      cur = unwrap_variant (v, n, cur);
      if (cur >= n || (v[cur].fc->type != GST_CTF_FIELD_CLASS_ARRAY &&
              v[cur].fc->type != GST_CTF_FIELD_CLASS_SEQUENCE) ||
          !is_compound_with_children (v, cur) || idx >= v[cur].v.u)
        return -1;
      i = cur + 1;
      for (k = 0; k < idx && i < v[cur].end; k++)
        i = MAX (v[i].end, i + 1);
      if (i >= v[cur].end || i >= n)
        return -1;
      cur = i;
    }
    if (*p == '.')
      p++;
    else if (*p != '\0')
      return -1;
  }
  return (gint) unwrap_variant (v, n, cur);
}

/* The values of one scope of the current event: the packet reader's, or
 * in trace mode the merger's (decoded on demand when the merger does not
 * record, see GstCtfEventReader:decode-fields). */
static const GstCtfFieldValue *
scope_values (GstCtfEventReader * self, GstCtfScope scope, guint * n)
{
  *n = 0;
  if (self->cur == NULL)
    return NULL;
  if (self->source != NULL)
    return _gst_ctf_event_source_get_values (self->source, scope, n);
  return gst_ctf_event_iter_get_values (self->cur, scope, n);
}

static const struct {
  const gchar *prefix;
  GstCtfScope scope;
} scope_prefixes[] = {
  {"payload", GST_CTF_SCOPE_EVENT_PAYLOAD},
  {"context", GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT},
  {"common-context", GST_CTF_SCOPE_EVENT_COMMON_CONTEXT},
  {"header", GST_CTF_SCOPE_EVENT_HEADER},
  {"packet-context", GST_CTF_SCOPE_PACKET_CONTEXT},
  {"packet-header", GST_CTF_SCOPE_PACKET_HEADER},
};

/* Search order without a scope prefix: what babeltrace2 prints last comes
 * first (the payload is what users ask for most). */
static const GstCtfScope search_order[] = {
  GST_CTF_SCOPE_EVENT_PAYLOAD,
  GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT,
  GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
  GST_CTF_SCOPE_PACKET_CONTEXT,
  GST_CTF_SCOPE_EVENT_HEADER,
  GST_CTF_SCOPE_PACKET_HEADER,
};

static const GstCtfFieldValue *
resolve_path (GstCtfEventReader * self, const gchar * path, guint * index,
    guint * n_values)
{
  const GstCtfFieldValue *v;
  const gchar *colon;
  guint n, s;
  gint i;

  if (self->cur == NULL || self->ec == NULL || path == NULL ||
      strnlen (path, PATH_MAX_LEN + 1) > PATH_MAX_LEN)
    return NULL;
  colon = strchr (path, ':');
  if (colon != NULL) {
    gsize plen = colon - path;

    for (s = 0; s < G_N_ELEMENTS (scope_prefixes); s++) {
      if (strlen (scope_prefixes[s].prefix) == plen &&
          strncmp (scope_prefixes[s].prefix, path, plen) == 0) {
        v = scope_values (self, scope_prefixes[s].scope, &n);
        i = resolve_in_scope (v, n, colon + 1);
        if (i < 0)
          return NULL;
        *index = (guint) i;
        *n_values = n;
        return v;
      }
    }
    return NULL;
  }
  for (s = 0; s < G_N_ELEMENTS (search_order); s++) {
    v = scope_values (self, search_order[s], &n);
    i = resolve_in_scope (v, n, path);
    if (i >= 0) {
      *index = (guint) i;
      *n_values = n;
      return v;
    }
  }
  return NULL;
}

static gchar *
text_dup (const GstCtfFieldClass * fc, const gchar * ptr, gsize len)
{
  GstCtfEncoding enc = _gst_ctf_field_class_text_encoding (fc);

  if (ptr == NULL)
    return g_strdup ("");
  if (_gst_ctf_encoding_unit (enc) > 1) {
    /* CTF 2 UTF-16/32 (checked by the reader) */
    GString *u = g_string_sized_new (len + 1);

    _gst_ctf_text_append_utf8 (u, enc, ptr, len);
    return g_string_free (u, FALSE);
  }
  /* Text arrays are not cut at a NUL by the reader (CTF 1.8 §4.2.3 note);
   * strings are already. */
  len = strnlen (ptr, len);
  if (g_utf8_validate_len (ptr, len, NULL))
    return g_strndup (ptr, len);
  return g_utf8_make_valid (ptr, len);
}

static gboolean
is_text (const GstCtfFieldValue * v, guint i)
{
  GstCtfFieldClassType t = v[i].fc->type;

  return t == GST_CTF_FIELD_CLASS_STRING ||
      ((t == GST_CTF_FIELD_CLASS_ARRAY || t == GST_CTF_FIELD_CLASS_SEQUENCE)
      && !is_compound_with_children (v, i));
}

static gboolean
mapping_holds (const GstCtfFieldClass * fc, const GstCtfEnumMapping * m,
    const GstCtfFieldValue * v)
{
  if (fc->integer.is_signed)
    return (gint64) m->lower <= v->v.i && v->v.i <= (gint64) m->upper;
  return m->lower <= v->v.u && v->v.u <= m->upper;
}

/* An enumeration value with its labels, `(xas)` or `(tas)`: each label
 * once, when one of its ranges holds the value, in the order of the
 * label's first mapping (babeltrace2's order: its Python bindings' and
 * its text output's). */
static GVariant *
enum_to_variant (const GstCtfFieldValue * v)
{
  const GstCtfFieldClass *fc = v->fc;
  const GstCtfEnumMapping *maps = fc->enumeration.mappings;
  guint n = fc->enumeration.n_mappings, i, j;
  GVariantBuilder labels;
  GVariant *value;

  g_variant_builder_init (&labels, G_VARIANT_TYPE_STRING_ARRAY);
  for (i = 0; i < n; i++) {
    const gchar *label = maps[i].label ? maps[i].label : "";
    gboolean held = FALSE;

    /* Only at the label's first mapping: is it new, and does any of its
     * mappings hold the value? */
    for (j = 0; j < i; j++)
      if (g_strcmp0 (maps[j].label, maps[i].label) == 0)
        break;
    if (j < i)
      continue;
    for (j = i; j < n && !held; j++)
      held = g_strcmp0 (maps[j].label, maps[i].label) == 0 &&
          mapping_holds (fc, &maps[j], v);
    if (held)
      g_variant_builder_add (&labels, "s", label);
  }
  value = fc->integer.is_signed ? g_variant_new_int64 (v->v.i) :
      g_variant_new_uint64 (v->v.u);
  return g_variant_new ("(@*as)", value, &labels);
}

static GVariant *
value_to_variant (const GstCtfFieldValue * v, guint n, guint i, guint depth,
    GstCtfValueFlags flags)
{
  GVariantBuilder b;
  guint c;

  i = unwrap_variant (v, n, i);
  if (i >= n)
    return g_variant_new_string ("");
  switch (v[i].fc->type) {
    case GST_CTF_FIELD_CLASS_ENUM:
      if (flags & GST_CTF_VALUE_ENUM_LABELS)
        return enum_to_variant (&v[i]);
      /* fall through */
    case GST_CTF_FIELD_CLASS_INTEGER:
      return v[i].fc->integer.is_signed ? g_variant_new_int64 (v[i].v.i) :
          g_variant_new_uint64 (v[i].v.u);
    case GST_CTF_FIELD_CLASS_FLOAT:
      return g_variant_new_double (v[i].v.d);
    case GST_CTF_FIELD_CLASS_VARIANT:
      /* an option-less variant */
      return g_variant_new_string ("");
    default:
      break;
  }
  if (is_text (v, i))
    return g_variant_new_take_string (text_dup (v[i].fc, v[i].v.s.ptr,
            v[i].v.s.len));
  /* The packet reader limits nesting (GST_CTF_PLAN_MAX_DEPTH); this
   * guard keeps the recursion bounded on its own. */
  if (depth > 128)
    return g_variant_new_string ("");
  if (v[i].fc->type == GST_CTF_FIELD_CLASS_STRUCT) {
    g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
    for (c = i + 1; c < v[i].end && c < n; c = MAX (v[c].end, c + 1))
      g_variant_builder_add (&b, "{sv}", display_name (v[c].name),
          value_to_variant (v, n, c, depth + 1, flags));
  } else {
    g_variant_builder_init (&b, G_VARIANT_TYPE ("av"));
    for (c = i + 1; c < v[i].end && c < n; c = MAX (v[c].end, c + 1))
      g_variant_builder_add (&b, "v", value_to_variant (v, n, c, depth + 1,
              flags));
  }
  return g_variant_builder_end (&b);
}

static void
value_to_gvalue (const GstCtfFieldValue * v, guint n, guint i, GValue * value,
    GstCtfValueFlags flags)
{
  switch (v[i].fc->type) {
    case GST_CTF_FIELD_CLASS_ENUM:
      if (flags & GST_CTF_VALUE_ENUM_LABELS) {
        g_value_init (value, G_TYPE_VARIANT);
        g_value_take_variant (value, g_variant_ref_sink (enum_to_variant
                (&v[i])));
        return;
      }
      /* fall through */
    case GST_CTF_FIELD_CLASS_INTEGER:
      if (v[i].fc->integer.is_signed) {
        g_value_init (value, G_TYPE_INT64);
        g_value_set_int64 (value, v[i].v.i);
      } else {
        g_value_init (value, G_TYPE_UINT64);
        g_value_set_uint64 (value, v[i].v.u);
      }
      return;
    case GST_CTF_FIELD_CLASS_FLOAT:
      g_value_init (value, G_TYPE_DOUBLE);
      g_value_set_double (value, v[i].v.d);
      return;
    default:
      break;
  }
  if (is_text (v, i)) {
    g_value_init (value, G_TYPE_STRING);
    g_value_take_string (value, text_dup (v[i].fc, v[i].v.s.ptr,
            v[i].v.s.len));
    return;
  }
  g_value_init (value, G_TYPE_VARIANT);
  g_value_take_variant (value, g_variant_ref_sink (value_to_variant (v, n,
              i, 0, flags)));
}

static void
free_gvalue (GValue * v)
{
  g_value_unset (v);
  g_free (v);
}

/**
 * gst_ctf_event_reader_get_field: (skip)
 * @reader: a reader positioned on an event (with
 *   #GstCtfEventReader:decode-fields)
 * @path: a field name, or a path such as `a.b[2].c`, optionally prefixed
 *   by a scope: `payload:`, `context:` (event specific context),
 *   `common-context:`, `header:` (event header), `packet-context:`,
 *   `packet-header:`.  Without a prefix, scopes are searched in that
 *   order.  A leading underscore of a TSDL name is optional.
 * @value: (out caller-allocates): an uninitialized #GValue that receives
 *   the value: #G_TYPE_INT64 or #G_TYPE_UINT64 for integers and
 *   enumerations (by the signedness of the field), #G_TYPE_DOUBLE for
 *   floats, #G_TYPE_STRING for strings and text arrays (invalid UTF-8
 *   replaced), #G_TYPE_VARIANT for structures (`a{sv}`) and arrays (`av`).
 *   A variant gives its selected option's value.
 *
 * Reads one field of the current event.  Bindings get
 * gst_ctf_event_reader_dup_field() under this name.
 *
 * Returns: %TRUE when the field exists (@value is then set; unset it)
 */
gboolean
gst_ctf_event_reader_get_field (GstCtfEventReader * reader,
    const gchar * path, GValue * value)
{
  const GstCtfFieldValue *v;
  guint i, n;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  v = resolve_path (reader, path, &i, &n);
  if (v == NULL)
    return FALSE;
  value_to_gvalue (v, n, i, value, GST_CTF_VALUE_NONE);
  return TRUE;
}

/**
 * gst_ctf_event_reader_dup_field: (rename-to gst_ctf_event_reader_get_field)
 * @reader: a reader positioned on an event
 * @path: as gst_ctf_event_reader_get_field()
 *
 * gst_ctf_event_reader_get_field() for bindings: in Python,
 * `reader.get_field("msg")` gives the value, or %None when the event has
 * no such field.
 *
 * Returns: (transfer full) (nullable): a new #GValue (free with
 *   g_boxed_free()), or %NULL when there is no such field
 */
GValue *
gst_ctf_event_reader_dup_field (GstCtfEventReader * reader,
    const gchar * path)
{
  GValue *value = g_new0 (GValue, 1);

  if (!gst_ctf_event_reader_get_field (reader, path, value)) {
    g_free (value);
    return NULL;
  }
  return value;
}

/**
 * gst_ctf_event_reader_get_payload:
 * @reader: a reader positioned on an event
 *
 * gst_ctf_event_reader_get_fields() of the event payload: the event's own
 * fields.
 *
 * Returns: (transfer full): an `a{sv}` dictionary
 */
GVariant *
gst_ctf_event_reader_get_payload (GstCtfEventReader * reader)
{
  return gst_ctf_event_reader_get_fields (reader,
      GST_CTF_SCOPE_EVENT_PAYLOAD);
}

/**
 * gst_ctf_field_values_to_variant: (skip)
 * @values: (array length=n_values): the values of one scope, in pre-order,
 *   as gst_ctf_event_iter_get_values() gives them
 * @n_values: their number
 * @flags: how to give enumerations
 *
 * The scope as gst_ctf_event_reader_get_fields_full() gives it, for
 * readers that hold the values themselves (e.g. copied with their
 * packet).
 *
 * Returns: (transfer full) (nullable): an `a{sv}` for a structure scope,
 *   %NULL when @n_values is 0
 */
GVariant *
gst_ctf_field_values_to_variant (const GstCtfFieldValue * values,
    guint n_values, GstCtfValueFlags flags)
{
  if (values == NULL || n_values == 0)
    return NULL;
  return g_variant_ref_sink (value_to_variant (values, n_values, 0, 0,
          flags));
}

/* The values of a scope when it is a structure, else NULL. */
static const GstCtfFieldValue *
struct_scope (GstCtfEventReader * reader, GstCtfScope scope, guint * n)
{
  const GstCtfFieldValue *v = NULL;

  *n = 0;
  if (reader->ec != NULL || scope <= GST_CTF_SCOPE_PACKET_CONTEXT)
    v = scope_values (reader, scope, n);
  if (v == NULL || *n == 0 || v[0].fc->type != GST_CTF_FIELD_CLASS_STRUCT)
    return NULL;
  return v;
}

/**
 * gst_ctf_event_reader_get_field_variant:
 * @reader: a reader positioned on an event
 * @path: as gst_ctf_event_reader_get_field()
 *
 * Like gst_ctf_event_reader_get_field(), as a #GVariant: `x`/`t`
 * integers and enumerations, `d` floats, `s` text, `a{sv}` structures
 * (fields in declaration order), `av` arrays and sequences.
 *
 * Returns: (transfer full) (nullable): the value, %NULL when there is no
 *   such field
 */
GVariant *
gst_ctf_event_reader_get_field_variant (GstCtfEventReader * reader,
    const gchar * path)
{
  return gst_ctf_event_reader_get_field_variant_full (reader, path,
      GST_CTF_VALUE_NONE);
}

/**
 * gst_ctf_event_reader_get_field_variant_full:
 * @reader: a reader positioned on an event
 * @path: as gst_ctf_event_reader_get_field()
 * @flags: #GstCtfValueFlags
 *
 * gst_ctf_event_reader_get_field_variant() with options: with
 * %GST_CTF_VALUE_ENUM_LABELS, enumerations are `(xas)` (signed) or
 * `(tas)` (unsigned) pairs of the value and its labels.
 *
 * Returns: (transfer full) (nullable): the value, %NULL when there is no
 *   such field
 */
GVariant *
gst_ctf_event_reader_get_field_variant_full (GstCtfEventReader * reader,
    const gchar * path, GstCtfValueFlags flags)
{
  const GstCtfFieldValue *v;
  guint i, n;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  v = resolve_path (reader, path, &i, &n);
  if (v == NULL)
    return NULL;
  return g_variant_ref_sink (value_to_variant (v, n, i, 0, flags));
}

/**
 * gst_ctf_event_reader_get_fields:
 * @reader: a reader positioned on an event
 * @scope: which scope (#GST_CTF_SCOPE_EVENT_PAYLOAD for the event's
 *   fields)
 *
 * All the fields of one scope of the current event (or packet, for the
 * packet scopes) as a dictionary in declaration order, names without the
 * TSDL leading underscore, values typed as
 * gst_ctf_event_reader_get_field_variant() says.
 *
 * Returns: (transfer full): an `a{sv}` dictionary, empty when the scope is
 *   absent or fields are not decoded
 */
GVariant *
gst_ctf_event_reader_get_fields (GstCtfEventReader * reader,
    GstCtfScope scope)
{
  return gst_ctf_event_reader_get_fields_full (reader, scope,
      GST_CTF_VALUE_NONE);
}

/**
 * gst_ctf_event_reader_get_fields_full:
 * @reader: a reader positioned on an event
 * @scope: which scope
 * @flags: #GstCtfValueFlags
 *
 * gst_ctf_event_reader_get_fields() with the options of
 * gst_ctf_event_reader_get_field_variant_full().
 *
 * Returns: (transfer full): an `a{sv}` dictionary
 */
GVariant *
gst_ctf_event_reader_get_fields_full (GstCtfEventReader * reader,
    GstCtfScope scope, GstCtfValueFlags flags)
{
  const GstCtfFieldValue *v;
  guint n;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  v = struct_scope (reader, scope, &n);
  if (v == NULL)
    return g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE
            ("{sv}"), NULL, 0));
  return g_variant_ref_sink (value_to_variant (v, n, 0, 0, flags));
}

/**
 * gst_ctf_event_reader_get_fields_table:
 * @reader: a reader positioned on an event
 * @scope: which scope, as gst_ctf_event_reader_get_fields()
 *
 * The top-level fields of one scope as a hash table of #GValue, typed as
 * gst_ctf_event_reader_get_field() says.  For bindings: PyGObject turns
 * it into a `dict` in C, much faster than unpacking the #GVariant of
 * gst_ctf_event_reader_get_fields().
 *
 * Returns: (transfer full) (element-type utf8 GValue): field name (TSDL
 *   leading underscore stripped) -> value; empty when the scope is absent
 *   or fields are not decoded
 */
GHashTable *
gst_ctf_event_reader_get_fields_table (GstCtfEventReader * reader,
    GstCtfScope scope)
{
  return gst_ctf_event_reader_get_fields_table_full (reader, scope,
      GST_CTF_VALUE_NONE);
}

/**
 * gst_ctf_event_reader_get_fields_table_full:
 * @reader: a reader positioned on an event
 * @scope: which scope
 * @flags: #GstCtfValueFlags; with %GST_CTF_VALUE_ENUM_LABELS an
 *   enumeration is a #G_TYPE_VARIANT `(xas)` / `(tas)` value
 *
 * gst_ctf_event_reader_get_fields_table() with the options of
 * gst_ctf_event_reader_get_field_variant_full().  With
 * gst_ctf_event_reader_get_field_names() a binding builds the scope's
 * dictionary in declaration order (the GstCtf Python override does).
 *
 * Returns: (transfer full) (element-type utf8 GValue): field name ->
 *   value
 */
GHashTable *
gst_ctf_event_reader_get_fields_table_full (GstCtfEventReader * reader,
    GstCtfScope scope, GstCtfValueFlags flags)
{
  const GstCtfFieldValue *v;
  GHashTable *t;
  guint n, c, i;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  t = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      (GDestroyNotify) free_gvalue);
  v = struct_scope (reader, scope, &n);
  if (v == NULL)
    return t;
  for (c = 1; c < v[0].end && c < n; c = MAX (v[c].end, c + 1)) {
    GValue *gv = g_new0 (GValue, 1);

    i = unwrap_variant (v, n, c);
    value_to_gvalue (v, n, i, gv, flags);
    /* Keys point into the trace class, which outlives the table's use
     * in a binding call; names are unique within a structure. */
    g_hash_table_insert (t, (gpointer) display_name (v[c].name), gv);
  }
  return t;
}

/**
 * gst_ctf_event_reader_get_field_names:
 * @reader: a reader positioned on an event
 * @scope: which scope
 *
 * The names of the top-level fields of one scope, in declaration order,
 * as gst_ctf_event_reader_get_fields_table() names them.
 *
 * Returns: (transfer container) (array zero-terminated=1): the names
 *   (the strings belong to the trace class); empty when the scope is
 *   absent or fields are not decoded
 */
const gchar **
gst_ctf_event_reader_get_field_names (GstCtfEventReader * reader,
    GstCtfScope scope)
{
  const GstCtfFieldValue *v;
  GPtrArray *names;
  guint n, c;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  names = g_ptr_array_new ();
  v = struct_scope (reader, scope, &n);
  for (c = 1; v != NULL && c < v[0].end && c < n; c = MAX (v[c].end, c + 1))
    g_ptr_array_add (names, (gpointer) display_name (v[c].name));
  g_ptr_array_add (names, NULL);
  return (const gchar **) g_ptr_array_free (names, FALSE);
}

static void
format_value (GString * s, const GstCtfFieldValue * v, guint n, guint i,
    guint depth)
{
  guint c, k;

  i = unwrap_variant (v, n, i);
  if (i >= n)
    return;
  switch (v[i].fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (v[i].fc->type == GST_CTF_FIELD_CLASS_ENUM) {
        /* the first label whose range holds the value, as a hint */
        for (k = 0; k < v[i].fc->enumeration.n_mappings; k++) {
          const GstCtfEnumMapping *m = &v[i].fc->enumeration.mappings[k];
          gboolean in = v[i].fc->integer.is_signed ?
              ((gint64) m->lower <= v[i].v.i && v[i].v.i <= (gint64) m->upper)
              : (m->lower <= v[i].v.u && v[i].v.u <= m->upper);
          if (in) {
            g_string_append_printf (s, "\"%s\" : ", m->label);
            break;
          }
        }
      }
      if (v[i].fc->integer.base == 16)
        g_string_append_printf (s, "0x%" G_GINT64_MODIFIER "X", v[i].v.u);
      else if (v[i].fc->integer.is_signed)
        g_string_append_printf (s, "%" G_GINT64_FORMAT, v[i].v.i);
      else
        g_string_append_printf (s, "%" G_GUINT64_FORMAT, v[i].v.u);
      return;
    case GST_CTF_FIELD_CLASS_FLOAT:
      g_string_append_printf (s, "%g", v[i].v.d);
      return;
    case GST_CTF_FIELD_CLASS_VARIANT:
      return;
    default:
      break;
  }
  if (is_text (v, i)) {
    gchar *t = text_dup (v[i].fc, v[i].v.s.ptr, MIN (v[i].v.s.len, 4096));
    gchar *e = g_strescape (t, NULL);
    g_string_append_printf (s, "\"%s\"", e);
    g_free (e);
    g_free (t);
    return;
  }
  if (depth > 128)
    return;
  g_string_append (s, v[i].fc->type == GST_CTF_FIELD_CLASS_STRUCT ? "{ " :
      "[ ");
  for (c = i + 1; c < v[i].end && c < n; c = MAX (v[c].end, c + 1)) {
    if (c != i + 1)
      g_string_append (s, ", ");
    if (v[i].fc->type == GST_CTF_FIELD_CLASS_STRUCT)
      g_string_append_printf (s, "%s = ", display_name (v[c].name));
    format_value (s, v, n, c, depth + 1);
  }
  g_string_append (s, v[i].fc->type == GST_CTF_FIELD_CLASS_STRUCT ? " }" :
      " ]");
}

/**
 * gst_ctf_event_reader_format_fields:
 * @reader: a reader positioned on an event
 *
 * The event's fields as one line of text in the style of babeltrace2's
 * pretty output: the common context, the specific context and the
 * payload, each as `{ name = value, ... }`, separated by `, `.  Enum
 * values are preceded by their label, strings are quoted and escaped,
 * and long text is cut to 4096 bytes (for list views).
 *
 * Returns: (transfer full): the text, empty when there is no field
 */
gchar *
gst_ctf_event_reader_format_fields (GstCtfEventReader * reader)
{
  static const GstCtfScope scopes[] = {
    GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
    GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT,
    GST_CTF_SCOPE_EVENT_PAYLOAD,
  };
  GString *s;
  guint k, n;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  s = g_string_new (NULL);
  if (reader->cur == NULL || reader->ec == NULL)
    return g_string_free (s, FALSE);
  for (k = 0; k < G_N_ELEMENTS (scopes); k++) {
    const GstCtfFieldValue *v =
        scope_values (reader, scopes[k], &n);
    if (v == NULL || n <= 1)
      continue;
    if (s->len > 0)
      g_string_append (s, ", ");
    format_value (s, v, n, 0, 0);
  }
  return g_string_free (s, FALSE);
}
