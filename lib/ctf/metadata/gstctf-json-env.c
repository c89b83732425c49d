/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: an entry added to the environment of CTF 2 metadata
 * (CTF2-SPEC-2.0 §5.2 trace class `environment`), the rest of the text
 * kept byte for byte (json-glib would write integers beyond int64 back
 * as negative numbers, so the fragment is not regenerated: the entry is
 * inserted as text where a small scanner finds the object it goes in).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>

#include "gstctf-metadata.h"
#include "gstctf-error.h"

static const gchar *
skip_ws (const gchar * p, const gchar * end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  return p;
}

/* After the JSON string starting at @p (a quote), or NULL. */
static const gchar *
skip_string (const gchar * p, const gchar * end)
{
  for (p++; p < end; p++) {
    if (*p == '\\')
      p++;
    else if (*p == '"')
      return p + 1;
  }
  return NULL;
}

/* In the fragment [@p, @end) (one JSON object): the position just after
 * the `{` of the value of its top-level member @key when that value is an
 * object, else (no such member) NULL; *@root_open gets the position just
 * after the fragment's own `{`. */
static const gchar *
find_member_object (const gchar * p, const gchar * end, const gchar * key,
    const gchar ** root_open)
{
  guint depth = 0;
  gsize klen = strlen (key);

  *root_open = NULL;
  while (p < end) {
    if (*p == '"') {
      const gchar *s = p, *after = skip_string (p, end);

      if (after == NULL)
        return NULL;
      if (depth == 1 && (gsize) (after - s) == klen + 2 &&
          memcmp (s + 1, key, klen) == 0) {
        const gchar *v = skip_ws (after, end);

        if (v < end && *v == ':') {
          v = skip_ws (v + 1, end);
          if (v < end && *v == '{')
            return v + 1;
        }
      }
      p = after;
      continue;
    }
    if (*p == '{' || *p == '[') {
      if (depth == 0 && *p == '{')
        *root_open = p + 1;
      depth++;
    } else if (*p == '}' || *p == ']') {
      if (depth == 0)
        return NULL;
      depth--;
    }
    p++;
  }
  return NULL;
}

static gboolean
is_trace_class (const gchar * frag, gsize len)
{
  JsonParser *parser = json_parser_new ();
  gboolean yes = FALSE;

  if (json_parser_load_from_data (parser, frag, (gssize) len, NULL)) {
    JsonNode *root = json_parser_get_root (parser);

    if (root && JSON_NODE_HOLDS_OBJECT (root)) {
      const gchar *type = json_object_get_string_member_with_default
          (json_node_get_object (root), "type", NULL);

      yes = type != NULL && strcmp (type, "trace-class") == 0;
    }
  }
  g_object_unref (parser);
  return yes;
}

/* `"NAME": VALUE` as JSON text. */
static gchar *
member_text (const gchar * name, gint64 int_value, const gchar * str_value)
{
  JsonNode *n = json_node_new (JSON_NODE_VALUE);
  JsonGenerator *g = json_generator_new ();
  gchar *k, *v, *ret;

  json_node_set_string (n, name);
  json_generator_set_root (g, n);
  k = json_generator_to_data (g, NULL);
  if (str_value)
    json_node_set_string (n, str_value);
  else
    json_node_set_int (n, int_value);
  json_generator_set_root (g, n);
  v = json_generator_to_data (g, NULL);
  ret = g_strdup_printf ("%s: %s", k, v);
  g_free (k);
  g_free (v);
  g_object_unref (g);
  json_node_unref (n);
  return ret;
}

gchar *
gst_ctf_metadata_ctf2_add_environment (const gchar * text, const gchar * name,
    gint64 int_value, const gchar * string_value, GError ** error)
{
  const gchar *end, *p, *frag, *frag_end, *after_preamble = NULL;
  gchar *member;
  GString *out;

  g_return_val_if_fail (text != NULL && name != NULL, NULL);
  if (!gst_ctf_metadata_is_ctf2 (text)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Not CTF 2 metadata (no record separator first)");
    return NULL;
  }
  member = member_text (name, int_value, string_value);
  end = text + strlen (text);
  for (p = text; p < end; p = frag_end) {
    const gchar *root_open, *env;

    frag = p + 1;
    frag_end = memchr (frag, GST_CTF_METADATA_JSON_RS, end - frag);
    if (frag_end == NULL)
      frag_end = end;
    if (after_preamble == NULL)
      after_preamble = frag_end;
    if (!is_trace_class (frag, frag_end - frag))
      continue;
    env = find_member_object (frag, frag_end, "environment", &root_open);
    out = g_string_new (NULL);
    if (env) {
      gboolean empty = *skip_ws (env, frag_end) == '}';

      g_string_append_len (out, text, env - text);
      g_string_append_printf (out, "\n    %s%s", member, empty ? "" : ",");
      g_string_append (out, env);
    } else if (root_open) {
      gboolean empty = *skip_ws (root_open, frag_end) == '}';

      g_string_append_len (out, text, root_open - text);
      g_string_append_printf (out, "\n  \"environment\": {%s}%s", member,
          empty ? "" : ",");
      g_string_append (out, root_open);
    } else {
      g_string_free (out, TRUE);
      break;
    }
    g_free (member);
    return g_string_free (out, FALSE);
  }
  if (p < end) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "CTF 2 metadata: the trace class fragment is not a JSON object");
    g_free (member);
    return NULL;
  }
  /* No trace class fragment: one after the preamble (CTF2-SPEC-2.0: the
   * trace class comes before any data stream class). */
  out = g_string_new (NULL);
  g_string_append_len (out, text, after_preamble - text);
  g_string_append_printf (out, "%c{\n  \"type\": \"trace-class\",\n  "
      "\"environment\": {%s}\n}\n", GST_CTF_METADATA_JSON_RS, member);
  g_string_append (out, after_preamble);
  g_free (member);
  return g_string_free (out, FALSE);
}
