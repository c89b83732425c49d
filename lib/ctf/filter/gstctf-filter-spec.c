/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A whole event filter as ctffilter's properties give it, from one line
 * of text (`events=sched_* cpus=0-1 sched_switch: prev_pid > 0`), and the
 * per event class decision ctffilter makes with its settings.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstctf-filter-spec.h"

struct _GstCtfFilterSpec {
  GstCtfNameList *events;
  GstCtfIdList *cpus;
  GstCtfIdList *stream_classes;
  GstCtfNameList *streams;
  GstCtfIdList *pids;
  GstCtfIdList *tids;
  GstCtfFilterExpr *filter;
  GstCtfFilterExpr *filter_out;
};

GstCtfFilterPlanKind
gst_ctf_filter_class_kind (const GstCtfStreamClass * sc,
    const GstCtfEventClass * ec, const gchar * system,
    const GstCtfNameList * events, const GstCtfFilterExpr * filter,
    const GstCtfFilterExpr * filter_out, const GstCtfIdList * pids,
    const GstCtfIdList * tids, GstCtfFilterPlan ** plan)
{
  static const gchar *const pid_names[] = { "vpid", "pid", "common_pid",
    NULL
  };
  static const gchar *const tid_names[] = { "vtid", "tid", "common_pid",
    NULL
  };
  GstCtfFilterPlanKind kind;
  GstCtfFilterPlan *p;

  *plan = NULL;
  if (events && !gst_ctf_name_list_match (events, ec->name))
    return GST_CTF_FILTER_PLAN_NEVER;
  p = gst_ctf_filter_plan_new (sc, ec);
  if (filter)
    gst_ctf_filter_plan_add_expr (p, filter, system, FALSE);
  if (filter_out)
    gst_ctf_filter_plan_add_expr (p, filter_out, system, TRUE);
  if (pids)
    gst_ctf_filter_plan_add_id_field (p, pid_names, pids);
  if (tids)
    gst_ctf_filter_plan_add_id_field (p, tid_names, tids);
  kind = gst_ctf_filter_plan_get_kind (p);
  if (kind == GST_CTF_FILTER_PLAN_EVAL)
    *plan = p;
  else
    gst_ctf_filter_plan_free (p);
  return kind;
}

gboolean
gst_ctf_filter_packet_cpu (const GstCtfFieldValue * v, guint n,
    guint64 * cpu)
{
  guint i;

  for (i = 1; v && i < n && i < v[0].end; i = v[i].end) {
    if (v[i].name && strcmp (v[i].name, "cpu_id") == 0 && v[i].fc &&
        (v[i].fc->type == GST_CTF_FIELD_CLASS_INTEGER ||
            v[i].fc->type == GST_CTF_FIELD_CLASS_ENUM)) {
      *cpu = v[i].v.u;
      return TRUE;
    }
    if (v[i].end <= i)
      break;
  }
  return FALSE;
}

/* ---- one line of settings ---- */

typedef enum {
  KEY_EVENTS,
  KEY_CPUS,
  KEY_STREAM_CLASSES,
  KEY_STREAMS,
  KEY_PIDS,
  KEY_TIDS,
  KEY_FILTER_OUT,
  N_KEYS
} Key;

static const gchar *const key_names[N_KEYS] = {
  "events", "cpus", "stream-classes", "streams", "pids", "tids",
  "filter-out"
};

static gint
find_key (const gchar * word, gsize len)
{
  const gchar *eq = memchr (word, '=', len);
  guint k;

  if (eq == NULL)
    return -1;
  for (k = 0; k < N_KEYS; k++)
    if (strlen (key_names[k]) == (gsize) (eq - word) &&
        strncmp (word, key_names[k], eq - word) == 0)
      return k;
  return -1;
}

/* `NAME=` with NAME lowercase letters, `-` and `_`: meant as a setting
 * (no event name has a `=`). */
static gboolean
looks_like_key (const gchar * word, gsize len)
{
  gsize i;

  for (i = 0; i < len && word[i] != '='; i++)
    if (!(g_ascii_islower (word[i]) || word[i] == '-' || word[i] == '_'))
      return FALSE;
  return i > 0 && i < len;
}

/* Parses @value for key @k into @spec; FALSE with @error set. */
static gboolean
set_key (GstCtfFilterSpec * spec, Key k, const gchar * value,
    GError ** error)
{
  switch (k) {
    case KEY_EVENTS:
      return (spec->events = gst_ctf_name_list_parse (value, error)) != NULL;
    case KEY_STREAMS:
      return (spec->streams = gst_ctf_name_list_parse (value, error)) != NULL;
    case KEY_CPUS:
      return (spec->cpus = gst_ctf_id_list_parse (value, error)) != NULL;
    case KEY_STREAM_CLASSES:
      return (spec->stream_classes = gst_ctf_id_list_parse (value,
              error)) != NULL;
    case KEY_PIDS:
      return (spec->pids = gst_ctf_id_list_parse (value, error)) != NULL;
    case KEY_TIDS:
      return (spec->tids = gst_ctf_id_list_parse (value, error)) != NULL;
    case KEY_FILTER_OUT:      /* parse_expr_at(): columns of the whole text */
    default:
      g_assert_not_reached ();
  }
  return FALSE;
}

static gboolean
key_is_set (const GstCtfFilterSpec * spec, Key k)
{
  const gpointer set[N_KEYS] = { spec->events, spec->cpus,
    spec->stream_classes, spec->streams, spec->pids, spec->tids,
    spec->filter_out
  };

  return set[k] != NULL;
}

/* The end of the word of @s from @i: at a space or tab, except in a
 * value quoted as gst-launch quotes properties (`KEY="..."`, `KEY='...'`,
 * the quote right after the first `=` of a word that looks like a
 * setting), which runs to the same quote; -1 when it does not end. */
static gssize
word_end (const gchar * s, gsize i, gsize len)
{
  gsize start = i;

  while (i < len && s[i] != ' ' && s[i] != '\t') {
    if (s[i] == '=' && i + 1 < len && (s[i + 1] == '"' || s[i + 1] == '\'')
        && memchr (s + start, '=', i - start) == NULL &&
        looks_like_key (s + start, i + 1 - start)) {
      const gchar *close = memchr (s + i + 2, s[i + 1], len - i - 2);

      if (close == NULL)
        return -1;
      i = close - s;
    }
    i++;
  }
  return i;
}

/* Parses @expr, the text of an expression at @offset in @text: the
 * parser is given @expr after @offset spaces, so that its columns are the
 * columns of @text, and its message quotes @text. */
static GstCtfFilterExpr *
parse_expr_at (const gchar * text, const gchar * expr, gsize offset,
    GError ** error)
{
  gsize len = offset + strlen (expr);
  gchar *padded = g_malloc (len + 1);
  GstCtfFilterExpr *e;
  GError *err = NULL;

  memset (padded, ' ', offset);
  memcpy (padded + offset, expr, len - offset + 1);
  if ((e = gst_ctf_filter_expr_parse (padded, &err)) == NULL) {
    /* the parser quotes the text it was given: the whole text instead */
    gchar *quoted = g_strdup_printf ("\"%s\"", padded);
    gchar *whole = g_strdup_printf ("\"%s\"", text);
    GString *msg = g_string_new (err->message);

    g_string_replace (msg, quoted, whole, 1);
    g_set_error_literal (error, err->domain, err->code, msg->str);
    g_string_free (msg, TRUE);
    g_free (quoted);
    g_free (whole);
    g_error_free (err);
  }
  g_free (padded);
  return e;
}

GstCtfFilterSpec *
gst_ctf_filter_spec_parse (const gchar * text, GError ** error)
{
  GstCtfFilterSpec *spec;
  gchar *rest;
  gsize i = 0, len;
  GError *err = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  if (!g_utf8_validate (text, -1, NULL)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX,
        "Filter is not valid UTF-8");
    return NULL;
  }
  spec = g_new0 (GstCtfFilterSpec, 1);
  /* the words KEY=VALUE become spaces, so that the expression parser's
   * columns are the columns of @text */
  rest = g_strdup (text);
  len = strlen (rest);
  for (;;) {
    gsize start, end;
    gssize we;
    gint k;

    while (i < len && (rest[i] == ' ' || rest[i] == '\t'))
      i++;
    start = i;
    if ((we = word_end (rest, i, len)) < 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX,
          "Cannot parse filter \"%s\": the quote at column %" G_GSIZE_FORMAT
          " is not closed", text,
          (gsize) (strchr (rest + start, '=') - rest) + 2);
      goto fail;
    }
    i = end = we;
    if (start == end)
      break;
    k = find_key (rest + start, end - start);
    if (k < 0 && looks_like_key (rest + start, end - start)) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX,
          "Cannot parse filter \"%s\": unknown setting \"%.*s\" at column %"
          G_GSIZE_FORMAT " (expected events=, cpus=, stream-classes=, "
          "streams=, pids=, tids= or filter-out=)", text,
          (gint) (strchr (rest + start, '=') - (rest + start) + 1),
          rest + start, start + 1);
      goto fail;
    }
    if (k < 0)
      break;                    /* the expression begins */
    if (key_is_set (spec, k)) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX,
          "Cannot parse filter \"%s\": \"%s=\" given twice, again at "
          "column %" G_GSIZE_FORMAT, text, key_names[k], start + 1);
      goto fail;
    }
    {
      gsize at = start + strlen (key_names[k]) + 1;
      gchar *value;

      /* a quoted value without its quotes */
      if (at + 1 < end && (rest[at] == '"' || rest[at] == '\'') &&
          rest[end - 1] == rest[at])
        value = g_strndup (rest + at + 1, end - at - 2), at++;
      else
        value = g_strndup (rest + at, end - at);
      if (k == KEY_FILTER_OUT) {
        spec->filter_out = parse_expr_at (text, value, at, error);
        if (spec->filter_out == NULL) {
          g_free (value);
          goto fail;
        }
      } else if (!set_key (spec, k, value, &err)) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX,
            "Cannot parse filter \"%s\": %s= at column %" G_GSIZE_FORMAT
            ": %s", text, key_names[k], start + 1, err->message);
        g_error_free (err);
        g_free (value);
        goto fail;
      }
      g_free (value);
    }
    memset (rest + start, ' ', end - start);
  }
  {
    gchar *copy = g_strdup (rest);
    gboolean any = g_strstrip (copy)[0] != '\0';

    g_free (copy);
    if (any && (spec->filter = parse_expr_at (text, rest, 0,
                error)) == NULL)
      goto fail;
  }
  g_free (rest);
  return spec;

fail:
  g_free (rest);
  gst_ctf_filter_spec_free (spec);
  return NULL;
}

void
gst_ctf_filter_spec_free (GstCtfFilterSpec * spec)
{
  if (spec == NULL)
    return;
  gst_ctf_name_list_free (spec->events);
  gst_ctf_id_list_free (spec->cpus);
  gst_ctf_id_list_free (spec->stream_classes);
  gst_ctf_name_list_free (spec->streams);
  gst_ctf_id_list_free (spec->pids);
  gst_ctf_id_list_free (spec->tids);
  gst_ctf_filter_expr_free (spec->filter);
  gst_ctf_filter_expr_free (spec->filter_out);
  g_free (spec);
}

gboolean
gst_ctf_filter_spec_has_expression (const GstCtfFilterSpec * spec)
{
  return spec->filter != NULL || spec->filter_out != NULL;
}

GstCtfFilterPlanKind
gst_ctf_filter_spec_class_kind (const GstCtfFilterSpec * spec,
    const GstCtfStreamClass * sc, const GstCtfEventClass * ec,
    const gchar * system, GstCtfFilterPlan ** plan)
{
  if (spec->stream_classes &&
      !gst_ctf_id_list_contains (spec->stream_classes, sc->id)) {
    *plan = NULL;
    return GST_CTF_FILTER_PLAN_NEVER;
  }
  return gst_ctf_filter_class_kind (sc, ec, system, spec->events,
      spec->filter, spec->filter_out, spec->pids, spec->tids, plan);
}

gboolean
gst_ctf_filter_spec_keeps_packet (const GstCtfFilterSpec * spec,
    guint64 stream_class_id, const gchar * stream_name,
    const GstCtfFieldValue * context, guint n_context)
{
  guint64 cpu;

  if (spec->stream_classes &&
      !gst_ctf_id_list_contains (spec->stream_classes, stream_class_id))
    return FALSE;
  if (spec->streams && !gst_ctf_name_list_match (spec->streams,
          stream_name ? stream_name : ""))
    return FALSE;
  if (spec->cpus && !(gst_ctf_filter_packet_cpu (context, n_context, &cpu)
          && gst_ctf_id_list_contains (spec->cpus, cpu)))
    return FALSE;
  return TRUE;
}

gboolean
gst_ctf_filter_spec_needs_cpu (const GstCtfFilterSpec * spec)
{
  return spec->cpus != NULL;
}

GHashTable *
gst_ctf_filter_systems_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
gst_ctf_filter_systems_add (GHashTable * systems, const gchar * name,
    const gchar * system)
{
  g_hash_table_replace (systems, g_strdup (name), g_strdup (system));
}
