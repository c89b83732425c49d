/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: CTF 2 metadata streams (CTF2-SPEC-2.0 §6): a JSON text
 * sequence (RFC 7464) of fragments, each a record separator (0x1E) then
 * one JSON object.  The first fragment is the preamble; then field class
 * aliases, at most one trace class, clock classes, data stream classes
 * and event record classes, each referring only to fragments before it.
 * Errors name the fragment by index (from 0) and byte offset.
 */
#include "gstctf-json-private.h"
#include "gstctf-metadata.h"

#include <stdarg.h>
#include <string.h>

#define RS 0x1e

gboolean
_gst_ctf_json_fail (GstCtfJsonCtx * c, const gchar * fmt, ...)
{
  va_list ap;
  gchar *msg;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
      "Invalid CTF 2 metadata: file=\"%s\", fragment=%u, offset=%"
      G_GSIZE_FORMAT ": %s", c->origin ? c->origin : "(memory)", c->index,
      c->offset, msg);
  g_free (msg);
  return FALSE;
}

gboolean
_gst_ctf_json_get_uint (GstCtfJsonCtx * c, JsonObject * o,
    const gchar * what, const gchar * key, gboolean required, guint64 dflt,
    guint64 * out)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL) {
    if (required)
      return _gst_ctf_json_fail (c, "%s: missing `%s` property", what, key);
    *out = dflt;
    return TRUE;
  }
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) !=
      G_TYPE_INT64 || json_node_get_int (n) < 0)
    return _gst_ctf_json_fail (c, "%s: `%s` property: expected an unsigned "
        "integer", what, key);
  *out = (guint64) json_node_get_int (n);
  return TRUE;
}

gboolean
_gst_ctf_json_get_string (GstCtfJsonCtx * c, JsonObject * o,
    const gchar * what, const gchar * key, gboolean required,
    const gchar ** out)
{
  JsonNode *n = json_object_get_member (o, key);

  *out = NULL;
  if (n == NULL) {
    if (required)
      return _gst_ctf_json_fail (c, "%s: missing `%s` property", what, key);
    return TRUE;
  }
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) !=
      G_TYPE_STRING)
    return _gst_ctf_json_fail (c, "%s: `%s` property: expected a string",
        what, key);
  *out = json_node_get_string (n);
  return TRUE;
}

gboolean
_gst_ctf_json_check_props (GstCtfJsonCtx * c, JsonObject * o,
    const gchar * what, const gchar * const *allowed)
{
  GList *names = json_object_get_members (o), *l;
  gboolean ok = TRUE;

  for (l = names; l != NULL && ok; l = l->next) {
    const gchar *n = l->data;
    guint i;

    if (strcmp (n, "type") == 0 || strcmp (n, "attributes") == 0 ||
        strcmp (n, "extensions") == 0)
      continue;
    for (i = 0; allowed[i] != NULL; i++)
      if (strcmp (n, allowed[i]) == 0)
        break;
    if (allowed[i] == NULL)
      ok = _gst_ctf_json_fail (c, "%s: unknown property `%s`", what, n);
  }
  g_list_free (names);
  return ok;
}

gboolean
_gst_ctf_json_check_extensions (GstCtfJsonCtx * c, JsonObject * o,
    const gchar * what)
{
  JsonNode *n = json_object_get_member (o, "extensions");

  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (n))
    return _gst_ctf_json_fail (c, "%s: `extensions` property: expected an "
        "object", what);
  if (json_object_get_size (json_node_get_object (n)) > 0) {
    GList *names = json_object_get_members (json_node_get_object (n));
    gboolean r = _gst_ctf_json_fail (c, "%s: unknown extension namespace "
        "`%s` (CTF2-SPEC-2.0 requires refusing extensions a reader does not "
        "support)", what, (const gchar *) names->data);

    g_list_free (names);
    return r;
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Integer literals                                                    */

/* json-glib reads an integer literal into a gint64 (the low 64 bits of
 * a larger unsigned one): literals the model can hold (INT64_MIN to
 * UINT64_MAX, the latter read back as guint64 where an unsigned value is
 * expected) pass, others are refused here with their byte offset.  So is
 * nesting deeper than GST_CTF_JSON_MAX_NESTING (json-glib's parser
 * recurses). */
static gboolean
check_int_literals (GstCtfJsonCtx * c, const gchar * s, gsize len)
{
  gsize i = 0;
  guint depth = 0;

  while (i < len) {
    if (s[i] == '[' || s[i] == '{') {
      if (++depth > GST_CTF_JSON_MAX_NESTING) {
        gsize save = c->offset;
        gboolean r;

        c->offset = save + 1 + i;
        r = _gst_ctf_json_fail (c, "JSON nested deeper than %u levels",
            GST_CTF_JSON_MAX_NESTING);
        c->offset = save;
        return r;
      }
    } else if ((s[i] == ']' || s[i] == '}') && depth > 0) {
      depth--;
    }
    if (s[i] == '"') {
      for (i++; i < len && s[i] != '"'; i++)
        if (s[i] == '\\')
          i++;
      i++;
      continue;
    }
    if (s[i] == '-' || g_ascii_isdigit (s[i])) {
      gboolean neg = s[i] == '-';
      gsize start = i, j;
      guint64 v = 0;
      gboolean over = FALSE;

      if (neg)
        i++;
      for (j = i; j < len && g_ascii_isdigit (s[j]); j++) {
        guint d = s[j] - '0';

        if (v > (G_MAXUINT64 - d) / 10)
          over = TRUE;
        else
          v = v * 10 + d;
      }
      if (j < len && (s[j] == '.' || s[j] == 'e' || s[j] == 'E')) {
        /* a number with a fraction or exponent: a double for json-glib */
        while (j < len && (g_ascii_isdigit (s[j]) || strchr (".eE+-",
                    s[j]) != NULL))
          j++;
        i = j;
        continue;
      }
      if (over || (neg && v > (guint64) G_MAXINT64 + 1)) {
        gsize save = c->offset;
        gboolean r;

        c->offset = save + 1 + start;
        r = _gst_ctf_json_fail (c, "integer `%.*s` out of range (%s)",
            (gint) MIN (j - start, 40), s + start,
            neg ? "below -2^63" : "above 2^64-1");
        c->offset = save;
        return r;
      }
      i = j;
      continue;
    }
    i++;
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Fragments                                                           */

typedef struct {
  gboolean has_preamble;
  gboolean has_trace_class;
  gboolean has_stream_class;
  GHashTable *clock_ids;        /* id -> GstCtfClockClass (transfer none) */
} State;

static gboolean
parse_uuid_array (GstCtfJsonCtx * c, JsonNode * n, const gchar * what,
    guint8 uuid[16])
{
  JsonArray *a;
  guint i;

  if (!JSON_NODE_HOLDS_ARRAY (n) ||
      json_array_get_length (a = json_node_get_array (n)) != 16)
    return _gst_ctf_json_fail (c, "%s: `uuid` property: expected an array "
        "of 16 bytes", what);
  for (i = 0; i < 16; i++) {
    JsonNode *e = json_array_get_element (a, i);

    if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) !=
        G_TYPE_INT64 || json_node_get_int (e) < 0 || json_node_get_int (e) >
        255)
      return _gst_ctf_json_fail (c, "%s: `uuid` property: element %u is not "
          "a byte", what, i);
    uuid[i] = (guint8) json_node_get_int (e);
  }
  return TRUE;
}

static const gchar *const preamble_props[] = { "version", "uuid", NULL };
static const gchar *const alias_props[] = { "name", "field-class", NULL };
static const gchar *const trace_props[] = { "namespace", "name", "uid",
  "environment", "packet-header-field-class", NULL
};
static const gchar *const clock_props[] = { "id", "namespace", "name", "uid",
  "frequency", "origin", "offset-from-origin", "precision", "accuracy",
  "description", NULL
};
static const gchar *const clock_origin_props[] = { "namespace", "name", "uid",
  NULL
};
static const gchar *const clock_offset_props[] = { "seconds", "cycles", NULL };
static const gchar *const stream_props[] = { "id", "namespace", "name", "uid",
  "default-clock-class-id", "packet-context-field-class",
  "event-record-header-field-class", "event-record-common-context-field-class",
  NULL
};
static const gchar *const event_props[] = { "id", "data-stream-class-id",
  "namespace", "name", "uid", "specific-context-field-class",
  "payload-field-class", NULL
};

static gboolean
frag_preamble (GstCtfJsonCtx * c, State * st, JsonObject * o)
{
  guint64 version;

  if (!_gst_ctf_json_check_props (c, o, "preamble", preamble_props) ||
      !_gst_ctf_json_get_uint (c, o, "preamble", "version", TRUE, 0,
          &version))
    return FALSE;
  if (version != 2)
    return _gst_ctf_json_fail (c, "preamble: version %" G_GUINT64_FORMAT
        ", expected 2", version);
  if (!_gst_ctf_json_check_extensions (c, o, "preamble"))
    return FALSE;
  if (json_object_has_member (o, "uuid")) {
    if (!parse_uuid_array (c, json_object_get_member (o, "uuid"),
            "preamble", c->tc->uuid))
      return FALSE;
    c->tc->has_uuid = TRUE;
  }
  st->has_preamble = TRUE;
  return TRUE;
}

static gboolean
frag_alias (GstCtfJsonCtx * c, JsonObject * o)
{
  const gchar *name;
  GstCtfFieldClass *fc;

  if (!_gst_ctf_json_check_props (c, o, "field class alias", alias_props) ||
      !_gst_ctf_json_get_string (c, o, "field class alias", "name", TRUE,
          &name))
    return FALSE;
  if (g_hash_table_contains (c->aliases, name))
    return _gst_ctf_json_fail (c, "field class alias `%s` defined twice",
        name);
  if (!json_object_has_member (o, "field-class"))
    return _gst_ctf_json_fail (c, "field class alias `%s`: missing "
        "`field-class` property", name);
  fc = _gst_ctf_json_field_class (c, json_object_get_member (o,
          "field-class"), "field class alias", 0);
  if (fc == NULL)
    return FALSE;
  g_hash_table_insert (c->aliases, g_strdup (name), fc);
  return TRUE;
}

static gboolean
add_env (GstCtfJsonCtx * c, JsonObject * env)
{
  GList *names = json_object_get_members (env), *l;
  gboolean ok = TRUE;

  for (l = names; l != NULL && ok; l = l->next) {
    JsonNode *n = json_object_get_member (env, l->data);
    GstCtfEnvEntry *e;

    if (!JSON_NODE_HOLDS_VALUE (n) ||
        (json_node_get_value_type (n) != G_TYPE_STRING &&
            json_node_get_value_type (n) != G_TYPE_INT64)) {
      ok = _gst_ctf_json_fail (c, "trace class: environment entry `%s`: "
          "expected a string or an integer", (const gchar *) l->data);
      break;
    }
    e = g_new0 (GstCtfEnvEntry, 1);
    e->name = g_strdup (l->data);
    if (json_node_get_value_type (n) == G_TYPE_STRING) {
      e->is_string = TRUE;
      e->str = g_strdup (json_node_get_string (n));
    } else {
      e->integer = json_node_get_int (n);
    }
    g_ptr_array_add (c->tc->env, e);
  }
  g_list_free (names);
  return ok;
}

static gboolean
frag_trace_class (GstCtfJsonCtx * c, State * st, JsonObject * o)
{
  const gchar *uid;
  JsonNode *n;

  if (st->has_trace_class)
    return _gst_ctf_json_fail (c, "second trace class fragment");
  if (st->has_stream_class)
    return _gst_ctf_json_fail (c, "trace class fragment after a data "
        "stream class fragment");
  st->has_trace_class = TRUE;
  if (!_gst_ctf_json_check_props (c, o, "trace class", trace_props) ||
      !_gst_ctf_json_check_extensions (c, o, "trace class") ||
      !_gst_ctf_json_get_string (c, o, "trace class", "uid", FALSE, &uid))
    return FALSE;
  c->tc->uid = g_strdup (uid);
  n = json_object_get_member (o, "environment");
  if (n != NULL) {
    if (!JSON_NODE_HOLDS_OBJECT (n))
      return _gst_ctf_json_fail (c, "trace class: `environment` property: "
          "expected an object");
    if (!add_env (c, json_node_get_object (n)))
      return FALSE;
  }
  n = json_object_get_member (o, "packet-header-field-class");
  if (n != NULL) {
    c->tc->packet_header = _gst_ctf_json_field_class (c, n,
        "packet header field class", 0);
    if (c->tc->packet_header == NULL)
      return FALSE;
    if (c->tc->packet_header->type != GST_CTF_FIELD_CLASS_STRUCT)
      return _gst_ctf_json_fail (c, "packet header field class: expected a "
          "structure");
  }
  return _gst_ctf_json_resolve_trace (c);
}

static gboolean
frag_clock_class (GstCtfJsonCtx * c, State * st, JsonObject * o)
{
  const gchar *id, *name, *desc;
  GstCtfClockClass *cc;
  guint64 freq, precision;
  JsonNode *n;

  if (!_gst_ctf_json_check_props (c, o, "clock class", clock_props) ||
      !_gst_ctf_json_get_string (c, o, "clock class", "id", TRUE, &id) ||
      !_gst_ctf_json_get_string (c, o, "clock class", "name", FALSE, &name)
      || !_gst_ctf_json_get_string (c, o, "clock class", "description",
          FALSE, &desc)
      || !_gst_ctf_json_get_uint (c, o, "clock class", "frequency", TRUE, 0,
          &freq)
      || !_gst_ctf_json_get_uint (c, o, "clock class", "precision", FALSE, 0,
          &precision)
      || !_gst_ctf_json_check_extensions (c, o, "clock class"))
    return FALSE;
  if (freq == 0)
    return _gst_ctf_json_fail (c, "clock class `%s`: frequency 0", id);
  if (g_hash_table_contains (st->clock_ids, id))
    return _gst_ctf_json_fail (c, "duplicate clock class fragment with ID "
        "`%s`", id);
  cc = gst_ctf_clock_class_new ();
  g_ptr_array_add (c->tc->clock_classes, cc);
  cc->name = g_strdup (name ? name : id);
  cc->description = g_strdup (desc);
  cc->freq = freq;
  cc->precision = precision;
  g_hash_table_insert (st->clock_ids, g_strdup (id), cc);

  n = json_object_get_member (o, "origin");
  if (n != NULL) {
    if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) ==
        G_TYPE_STRING) {
      if (strcmp (json_node_get_string (n), "unix-epoch") != 0)
        return _gst_ctf_json_fail (c, "clock class `%s`: unknown origin "
            "`%s`", id, json_node_get_string (n));
      cc->absolute = TRUE;
      cc->origin_is_unix_epoch = TRUE;
    } else if (!JSON_NODE_HOLDS_OBJECT (n)) {
      return _gst_ctf_json_fail (c, "clock class `%s`: `origin` property: "
          "expected \"unix-epoch\" or an object", id);
    } else if (!_gst_ctf_json_check_props (c, json_node_get_object (n),
            "clock class origin", clock_origin_props)) {
      return FALSE;
    }
  }
  n = json_object_get_member (o, "offset-from-origin");
  if (n != NULL) {
    JsonObject *off;
    JsonNode *s;
    guint64 cycles;

    if (!JSON_NODE_HOLDS_OBJECT (n))
      return _gst_ctf_json_fail (c, "clock class `%s`: `offset-from-origin` "
          "property: expected an object", id);
    off = json_node_get_object (n);
    if (!_gst_ctf_json_check_props (c, off, "clock class offset",
            clock_offset_props))
      return FALSE;
    s = json_object_get_member (off, "seconds");
    if (s != NULL) {
      if (!JSON_NODE_HOLDS_VALUE (s) || json_node_get_value_type (s) !=
          G_TYPE_INT64)
        return _gst_ctf_json_fail (c, "clock class `%s`: offset seconds: "
            "expected an integer", id);
      cc->offset_s = json_node_get_int (s);
    }
    if (!_gst_ctf_json_get_uint (c, off, "clock class offset", "cycles",
            FALSE, 0, &cycles))
      return FALSE;
    if (cycles >= freq)
      return _gst_ctf_json_fail (c, "clock class `%s`: offset cycles %"
          G_GUINT64_FORMAT " not below the frequency", id, cycles);
    cc->offset = (gint64) cycles;
  }
  return TRUE;
}

static gboolean
scope_member (GstCtfJsonCtx * c, JsonObject * o, const gchar * key,
    const gchar * what, GstCtfFieldClass ** out)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL)
    return TRUE;
  *out = _gst_ctf_json_field_class (c, n, what, 0);
  if (*out == NULL)
    return FALSE;
  if ((*out)->type != GST_CTF_FIELD_CLASS_STRUCT)
    return _gst_ctf_json_fail (c, "%s: expected a structure", what);
  return TRUE;
}

static gboolean
frag_stream_class (GstCtfJsonCtx * c, State * st, JsonObject * o)
{
  const gchar *clock_id;
  GstCtfStreamClass *sc;
  guint64 id;

  if (!_gst_ctf_json_check_props (c, o, "data stream class", stream_props)
      || !_gst_ctf_json_get_uint (c, o, "data stream class", "id", FALSE, 0,
          &id)
      || !_gst_ctf_json_get_string (c, o, "data stream class",
          "default-clock-class-id", FALSE, &clock_id)
      || !_gst_ctf_json_check_extensions (c, o, "data stream class"))
    return FALSE;
  if (gst_ctf_trace_class_find_stream_class (c->tc, id) != NULL)
    return _gst_ctf_json_fail (c, "duplicate data stream class with ID %"
        G_GUINT64_FORMAT, id);
  sc = gst_ctf_stream_class_new (id);
  g_ptr_array_add (c->tc->stream_classes, sc);
  st->has_stream_class = TRUE;
  if (clock_id != NULL) {
    sc->default_clock = g_hash_table_lookup (st->clock_ids, clock_id);
    if (sc->default_clock == NULL)
      return _gst_ctf_json_fail (c, "data stream class %" G_GUINT64_FORMAT
          ": no clock class with ID `%s` before it", id, clock_id);
  }
  return scope_member (c, o, "packet-context-field-class",
      "packet context field class", &sc->packet_context)
      && scope_member (c, o, "event-record-header-field-class",
      "event record header field class", &sc->event_header)
      && scope_member (c, o, "event-record-common-context-field-class",
      "event record common context field class", &sc->event_common_context)
      && _gst_ctf_json_resolve_stream (c, sc);
}

/* LTTng's log levels (`lttng.org,2009` attribute `log-level`), as the
 * CTF 1.8 `loglevel` numbers babeltrace2 shows. */
static gint64
lttng_log_level (const gchar * s)
{
  static const gchar *const names[] = {
    "emergency", "alert", "critical", "error", "warning", "notice", "info",
    "debug:system", "debug:program", "debug:process", "debug:module",
    "debug:unit", "debug:function", "debug:line", "debug",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (s, names[i]) == 0)
      return i;
  return -1;
}

static gboolean
event_attributes (GstCtfJsonCtx * c, JsonObject * o, GstCtfEventClass * ec)
{
  JsonNode *n = json_object_get_member (o, "attributes"), *ns, *v;
  JsonObject *lt;

  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (n))
    return _gst_ctf_json_fail (c, "event record class `%s`: `attributes` "
        "property: expected an object", ec->name ? ec->name : "");
  ns = json_object_get_member (json_node_get_object (n), "lttng.org,2009");
  if (ns == NULL || !JSON_NODE_HOLDS_OBJECT (ns))
    return TRUE;
  lt = json_node_get_object (ns);
  v = json_object_get_member (lt, "log-level");
  if (v != NULL && JSON_NODE_HOLDS_VALUE (v)) {
    if (json_node_get_value_type (v) == G_TYPE_STRING)
      ec->loglevel = lttng_log_level (json_node_get_string (v));
    else if (json_node_get_value_type (v) == G_TYPE_INT64)
      ec->loglevel = json_node_get_int (v);
  }
  v = json_object_get_member (lt, "emf-uri");
  if (v != NULL && JSON_NODE_HOLDS_VALUE (v) &&
      json_node_get_value_type (v) == G_TYPE_STRING)
    ec->model_emf_uri = g_strdup (json_node_get_string (v));
  return TRUE;
}

static gboolean
frag_event_class (GstCtfJsonCtx * c, JsonObject * o)
{
  const gchar *name;
  GstCtfStreamClass *sc;
  GstCtfEventClass *ec;
  guint64 id, sc_id;

  if (!_gst_ctf_json_check_props (c, o, "event record class", event_props)
      || !_gst_ctf_json_get_uint (c, o, "event record class", "id", FALSE, 0,
          &id)
      || !_gst_ctf_json_get_uint (c, o, "event record class",
          "data-stream-class-id", FALSE, 0, &sc_id)
      || !_gst_ctf_json_get_string (c, o, "event record class", "name",
          FALSE, &name)
      || !_gst_ctf_json_check_extensions (c, o, "event record class"))
    return FALSE;
  sc = gst_ctf_trace_class_find_stream_class (c->tc, sc_id);
  if (sc == NULL)
    return _gst_ctf_json_fail (c, "event record class %" G_GUINT64_FORMAT
        ": no data stream class with ID %" G_GUINT64_FORMAT " before it", id,
        sc_id);
  if (gst_ctf_stream_class_find_event_class (sc, id) != NULL)
    return _gst_ctf_json_fail (c, "duplicate event record class with ID %"
        G_GUINT64_FORMAT " in data stream class %" G_GUINT64_FORMAT, id,
        sc_id);
  ec = gst_ctf_event_class_new ();
  ec->id = id;
  ec->stream_class_id = sc_id;
  ec->name = g_strdup (name ? name : "");
  g_ptr_array_add (sc->event_classes, ec);
  g_hash_table_insert (sc->event_class_by_id, &ec->id, ec);
  return event_attributes (c, o, ec)
      && scope_member (c, o, "specific-context-field-class",
      "event record specific context field class", &ec->context)
      && scope_member (c, o, "payload-field-class",
      "event record payload field class", &ec->payload)
      && _gst_ctf_json_resolve_event (c, sc, ec);
}

static gboolean
parse_fragment (GstCtfJsonCtx * c, State * st, const gchar * s, gsize len)
{
  JsonParser *p;
  JsonNode *root;
  JsonObject *o;
  GError *jerr = NULL;
  const gchar *type;
  gboolean ok;

  if (!check_int_literals (c, s, len))
    return FALSE;
  p = json_parser_new_immutable ();
  if (!json_parser_load_from_data (p, s, (gssize) len, &jerr)) {
    g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_SYNTAX,
        "Invalid CTF 2 metadata: file=\"%s\", fragment=%u, offset=%"
        G_GSIZE_FORMAT ": not a JSON text: %s",
        c->origin ? c->origin : "(memory)", c->index, c->offset,
        jerr->message);
    g_error_free (jerr);
    g_object_unref (p);
    return FALSE;
  }
  root = json_parser_get_root (p);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)) {
    g_object_unref (p);
    return _gst_ctf_json_fail (c, "expected a JSON object");
  }
  o = json_node_get_object (root);
  if (!_gst_ctf_json_get_string (c, o, "fragment", "type", TRUE, &type)) {
    g_object_unref (p);
    return FALSE;
  }
  if (c->index == 0 && strcmp (type, "preamble") != 0) {
    ok = _gst_ctf_json_fail (c, "first fragment is a `%s`, expected the "
        "preamble", type);
  } else if (strcmp (type, "preamble") == 0) {
    ok = c->index == 0 ? frag_preamble (c, st, o) :
        _gst_ctf_json_fail (c, "preamble fragment that is not the first");
  } else if (strcmp (type, "field-class-alias") == 0) {
    ok = frag_alias (c, o);
  } else if (strcmp (type, "trace-class") == 0) {
    ok = frag_trace_class (c, st, o);
  } else if (strcmp (type, "clock-class") == 0) {
    ok = frag_clock_class (c, st, o);
  } else if (strcmp (type, "data-stream-class") == 0) {
    ok = frag_stream_class (c, st, o);
  } else if (strcmp (type, "event-record-class") == 0) {
    ok = frag_event_class (c, o);
  } else {
    ok = _gst_ctf_json_fail (c, "unknown fragment type `%s`", type);
  }
  g_object_unref (p);
  return ok;
}

/* The packet header's magic field, if any, gives the trace byte order
 * (the model has one; CTF 2 gives one per field class). */
static void
set_trace_byte_order (GstCtfTraceClass * tc)
{
  const GstCtfFieldClass *h = tc->packet_header;
  guint i;

  tc->byte_order = GST_CTF_BYTE_ORDER_LE;
  for (i = 0; h != NULL && i < h->n_members; i++) {
    const GstCtfFieldClass *m = h->members[i].fc;

    if (m->type == GST_CTF_FIELD_CLASS_INTEGER
        || m->type == GST_CTF_FIELD_CLASS_ENUM) {
      tc->byte_order = m->integer.byte_order;
      return;
    }
  }
}

GstCtfTraceClass *
_gst_ctf_json_parse (const gchar * text, gsize len, const gchar * origin,
    GError ** error)
{
  GstCtfJsonCtx c;
  State st;
  gsize off = 0;
  gboolean ok = TRUE;

  memset (&c, 0, sizeof (c));
  memset (&st, 0, sizeof (st));
  c.origin = origin;
  c.error = error;
  c.tc = gst_ctf_trace_class_new ();
  c.tc->major = 2;
  c.tc->minor = 0;
  c.aliases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) gst_ctf_field_class_free);
  st.clock_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);

  /* trailing whitespace and NULs (padding) end the stream */
  while (len > 0 && (text[len - 1] == '\0' || g_ascii_isspace (text[len -
                  1])))
    len--;
  if (len == 0 || text[0] != RS) {
    c.offset = 0;
    ok = _gst_ctf_json_fail (&c, "a CTF 2 metadata stream starts with a "
        "record separator (0x1E)");
  }
  while (ok && off < len) {
    const gchar *start = text + off + 1;
    const gchar *end = memchr (start, RS, len - off - 1);
    gsize flen = end ? (gsize) (end - start) : len - off - 1;

    c.offset = off;
    ok = parse_fragment (&c, &st, start, flen);
    c.index++;
    off += flen + 1;
  }
  if (ok && !st.has_preamble) {
    c.offset = 0;
    ok = _gst_ctf_json_fail (&c, "no preamble fragment");
  }
  if (ok && c.tc->stream_classes->len == 0) {
    c.index--;
    ok = _gst_ctf_json_fail (&c, "missing data stream class fragment in "
        "metadata stream");
  }
  if (ok)
    set_trace_byte_order (c.tc);
  g_hash_table_unref (c.aliases);
  g_hash_table_unref (st.clock_ids);
  if (!ok) {
    gst_ctf_trace_class_unref (c.tc);
    return NULL;
  }
  return c.tc;
}
