/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ftrace event format files (`events/SYSTEM/NAME/format`) and
 * `events/header_page`: `name:`, `ID:`, `format:`, then one line per field
 *   field:TYPE NAME;  offset:N;  size:N;  signed:N;
 * (`signed:` is missing on old kernels), a blank line after the
 * `common_*` fields, then `print fmt: ...`, kept as text.  Flags follow
 * what libtraceevent derives from the declaration: arrays, `__data_loc`
 * and `__rel_loc` dynamic arrays, char arrays as strings, pointers, longs.
 */
#include "gsttracecmd-private.h"

#include <stdlib.h>

static gboolean
parse_uint (const gchar * s, const gchar * end, guint * out)
{
  guint64 v = 0;

  while (s < end && g_ascii_isspace (*s))
    s++;
  if (s >= end || !g_ascii_isdigit (*s))
    return FALSE;
  while (s < end && g_ascii_isdigit (*s)) {
    v = v * 10 + (guint) (*s - '0');
    if (v > G_MAXUINT32)
      return FALSE;
    s++;
  }
  *out = (guint) v;
  return TRUE;
}

static guint
type_elem_size (const gchar * type, guint long_size)
{
  if (strchr (type, '*'))
    return long_size;
  if (strstr (type, "long long") || strstr (type, "u64")
      || strstr (type, "s64"))
    return 8;
  if (strstr (type, "long"))
    return long_size;
  if (strstr (type, "short") || strstr (type, "u16") || strstr (type, "s16"))
    return 2;
  if (strstr (type, "int") || strstr (type, "u32") || strstr (type, "s32")
      || strstr (type, "pid_t"))
    return 4;
  return 1;
}

/* Parses "TYPE NAME[N]; offset:..; size:..; signed:..;" (the text after
 * "field:"), up to @end. */
static gboolean
parse_field_line (const gchar * s, const gchar * end, guint long_size,
    GstCtfTraceDatField * f)
{
  const gchar *semi, *decl_end, *name_end, *name_start, *p;
  gboolean have_offset = FALSE, have_size = FALSE, have_signed = FALSE;
  guint is_signed = 0;
  gchar *type;

  memset (f, 0, sizeof (*f));
  semi = memchr (s, ';', end - s);
  if (!semi)
    return FALSE;
  while (s < semi && g_ascii_isspace (*s))
    s++;
  decl_end = semi;
  while (decl_end > s && g_ascii_isspace (decl_end[-1]))
    decl_end--;
  if (decl_end <= s)
    return FALSE;

  name_end = decl_end;
  if (decl_end[-1] == ']') {
    /* static array: TYPE NAME[N] */
    const gchar *lb = decl_end - 1;
    guint n = 0;

    while (lb > s && *lb != '[')
      lb--;
    if (*lb != '[')
      return FALSE;
    name_end = lb;
    if (parse_uint (lb + 1, decl_end - 1, &n))
      f->array_len = n;
    f->flags |= GST_CTF_TRACE_DAT_FIELD_ARRAY;
  }
  name_start = name_end;
  while (name_start > s && (g_ascii_isalnum (name_start[-1])
          || name_start[-1] == '_'))
    name_start--;
  if (name_start == name_end)
    return FALSE;
  f->name = g_strndup (name_start, name_end - name_start);
  p = name_start;
  while (p > s && g_ascii_isspace (p[-1]))
    p--;
  type = g_strndup (s, p - s);
  f->type = type;

  if (g_str_has_prefix (type, "__data_loc"))
    f->flags |= GST_CTF_TRACE_DAT_FIELD_DYNAMIC | GST_CTF_TRACE_DAT_FIELD_ARRAY;
  else if (g_str_has_prefix (type, "__rel_loc"))
    f->flags |= GST_CTF_TRACE_DAT_FIELD_DYNAMIC |
        GST_CTF_TRACE_DAT_FIELD_RELATIVE | GST_CTF_TRACE_DAT_FIELD_ARRAY;
  if ((f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY) && (strstr (type, "char")
          || strstr (type, "u8") || strstr (type, "s8")))
    f->flags |= GST_CTF_TRACE_DAT_FIELD_STRING;
  if (strchr (type, '*'))
    f->flags |= GST_CTF_TRACE_DAT_FIELD_POINTER;
  if (strstr (type, "long"))
    f->flags |= GST_CTF_TRACE_DAT_FIELD_LONG;

  /* key:value; pairs */
  p = semi + 1;
  while (p < end) {
    const gchar *colon, *vend;
    guint v;

    while (p < end && (g_ascii_isspace (*p) || *p == ';'))
      p++;
    if (p >= end)
      break;
    colon = memchr (p, ':', end - p);
    if (!colon)
      break;
    vend = memchr (colon, ';', end - colon);
    if (!vend)
      vend = end;
    if (parse_uint (colon + 1, vend, &v)) {
      if (colon - p == 6 && memcmp (p, "offset", 6) == 0) {
        f->offset = v;
        have_offset = TRUE;
      } else if (colon - p == 4 && memcmp (p, "size", 4) == 0) {
        f->size = v;
        have_size = TRUE;
      } else if (colon - p == 6 && memcmp (p, "signed", 6) == 0) {
        is_signed = v;
        have_signed = TRUE;
      }
    }
    p = vend + 1;
  }
  if (!have_offset || !have_size)
    return FALSE;
  if (!have_signed) {
    /* old kernels: guess from the type as libtraceevent does not; unsigned
     * unless the type says otherwise */
    is_signed = !(g_str_has_prefix (type, "unsigned")
        || g_str_has_prefix (type, "u") || strchr (type, '*')
        || (f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY));
  }
  if (is_signed)
    f->flags |= GST_CTF_TRACE_DAT_FIELD_SIGNED;

  if (f->flags & GST_CTF_TRACE_DAT_FIELD_DYNAMIC) {
    const gchar *elem = type + strcspn (type, " ");
    f->elem_size = type_elem_size (elem, long_size);
  } else if (f->array_len > 0 && f->size % f->array_len == 0) {
    f->elem_size = f->size / f->array_len;
  } else if (f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY) {
    f->elem_size = type_elem_size (type, long_size);
    if (f->elem_size == 0 || f->size % f->elem_size != 0)
      f->elem_size = 1;
    f->array_len = f->size / f->elem_size;
  } else {
    f->elem_size = f->size;
  }
  return TRUE;
}

static void
field_clear (GstCtfTraceDatField * f)
{
  g_free (f->name);
  g_free (f->type);
}

/**
 * gst_ctf_trace_dat_event_format_free:
 * @fmt: (transfer full) (nullable): a format
 *
 * Frees a format from gst_ctf_trace_dat_event_format_parse().
 */
void
gst_ctf_trace_dat_event_format_free (GstCtfTraceDatEventFormat * fmt)
{
  guint i;

  if (!fmt)
    return;
  for (i = 0; i < fmt->n_common_fields; i++)
    field_clear (&fmt->common_fields[i]);
  for (i = 0; i < fmt->n_fields; i++)
    field_clear (&fmt->fields[i]);
  g_free (fmt->common_fields);
  g_free (fmt->fields);
  g_free (fmt->system);
  g_free (fmt->name);
  g_free (fmt->print_fmt);
  g_free (fmt->text);
  g_free (fmt);
}

/**
 * gst_ctf_trace_dat_event_format_parse: (skip)
 * @text: (array length=len): the format file text (need not be
 *   NUL-terminated)
 * @len: its length in bytes
 * @system: (nullable): the event system the file belongs to
 * @long_size: the kernel `long` size (4 or 8), for dynamic array
 *   element sizes
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Parses one event format file.  Fields must lie inside a record of at
 * most 64 KiB (the ring buffer's limit is one page).
 *
 * Returns: (transfer full): the format, or NULL on error.
 */
GstCtfTraceDatEventFormat *
gst_ctf_trace_dat_event_format_parse (const gchar * text, gsize len,
    const gchar * system, guint long_size, GError ** error)
{
  GstCtfTraceDatEventFormat *fmt = g_new0 (GstCtfTraceDatEventFormat, 1);
  GArray *fields = g_array_new (FALSE, TRUE, sizeof (GstCtfTraceDatField));
  GArray *blocks = g_array_new (FALSE, FALSE, sizeof (guint));
  const gchar *p = text, *end = text + len;
  gboolean have_id = FALSE, in_format = FALSE, blank_seen = FALSE;
  guint block = 0, i, n_blocks;

  fmt->system = g_strdup (system ? system : "");
  fmt->text = g_strndup (text, len);
  while (p < end) {
    const gchar *eol = memchr (p, '\n', end - p);
    const gchar *s = p, *le;

    if (!eol)
      eol = end;
    le = eol;
    p = eol + 1;
    while (s < le && (*s == ' ' || *s == '\t'))
      s++;
    if (s == le || (le - s == 1 && *s == '\r')) {
      if (in_format && fields->len > 0)
        blank_seen = TRUE;
      continue;
    }
    if (le - s >= 5 && memcmp (s, "name:", 5) == 0) {
      const gchar *n = s + 5;
      const gchar *ne = le;

      while (n < ne && g_ascii_isspace (*n))
        n++;
      while (ne > n && g_ascii_isspace (ne[-1]))
        ne--;
      g_free (fmt->name);
      fmt->name = g_strndup (n, ne - n);
    } else if (le - s >= 3 && memcmp (s, "ID:", 3) == 0) {
      have_id = parse_uint (s + 3, le, &fmt->id);
    } else if (le - s >= 7 && memcmp (s, "format:", 7) == 0) {
      in_format = TRUE;
    } else if (le - s >= 6 && memcmp (s, "field:", 6) == 0) {
      GstCtfTraceDatField f;

      if (blank_seen) {
        block++;
        blank_seen = FALSE;
      }
      if (!parse_field_line (s + 6, le, long_size, &f)) {
        field_clear (&f);
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
            "Cannot parse event format field: event=\"%s\", line=\"%.*s\"",
            fmt->name ? fmt->name : "?", (int) MIN (le - s, 200), s);
        goto fail;
      }
      if ((guint64) f.offset + f.size > 65536) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
            "Event format field out of range: event=\"%s\", field=\"%s\", "
            "offset=%u, size=%u", fmt->name ? fmt->name : "?", f.name,
            f.offset, f.size);
        field_clear (&f);
        goto fail;
      }
      g_array_append_val (fields, f);
      g_array_append_val (blocks, block);
    } else if (le - s >= 10 && memcmp (s, "print fmt:", 10) == 0) {
      const gchar *f = s + 10;

      while (f < end && *f == ' ')
        f++;
      /* the print fmt is the rest of the file */
      le = end;
      while (le > f && g_ascii_isspace (le[-1]))
        le--;
      fmt->print_fmt = g_strndup (f, le - f);
      break;
    }
  }

  if (!fmt->name || !have_id) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Event format without %s: system=\"%s\", event=\"%s\"",
        fmt->name ? "ID" : "name", fmt->system, fmt->name ? fmt->name : "?");
    goto fail;
  }

  /* The common fields are the first block (before the blank line); a
   * format without a blank line is split by the `common_` prefix. */
  n_blocks = fields->len ? g_array_index (blocks, guint, fields->len - 1) + 1
      : 0;
  fmt->common_fields = g_new0 (GstCtfTraceDatField, fields->len + 1);
  fmt->fields = g_new0 (GstCtfTraceDatField, fields->len + 1);
  for (i = 0; i < fields->len; i++) {
    GstCtfTraceDatField *f = &g_array_index (fields, GstCtfTraceDatField, i);
    gboolean common = n_blocks > 1 ? g_array_index (blocks, guint, i) == 0
        : g_str_has_prefix (f->name, "common_");

    if (common)
      fmt->common_fields[fmt->n_common_fields++] = *f;
    else
      fmt->fields[fmt->n_fields++] = *f;
  }
  g_array_free (fields, TRUE);
  g_array_free (blocks, TRUE);
  return fmt;

fail:
  for (i = 0; i < fields->len; i++)
    field_clear (&g_array_index (fields, GstCtfTraceDatField, i));
  g_array_free (fields, TRUE);
  g_array_free (blocks, TRUE);
  gst_ctf_trace_dat_event_format_free (fmt);
  return NULL;
}

/**
 * gst_ctf_trace_dat_event_format_find_field:
 * @fmt: a format
 * @name: field name, common or not
 *
 * Returns: (nullable) (transfer none): the field, or NULL.
 */
const GstCtfTraceDatField *
gst_ctf_trace_dat_event_format_find_field (const GstCtfTraceDatEventFormat *
    fmt, const gchar * name)
{
  guint i;

  for (i = 0; i < fmt->n_common_fields; i++)
    if (strcmp (fmt->common_fields[i].name, name) == 0)
      return &fmt->common_fields[i];
  for (i = 0; i < fmt->n_fields; i++)
    if (strcmp (fmt->fields[i].name, name) == 0)
      return &fmt->fields[i];
  return NULL;
}

/* `events/header_page`: the size of `commit` is the kernel long; `data`
 * starts the events. */
gboolean
td_parse_header_page (const gchar * text, gsize len, guint * commit_size,
    guint * data_offset)
{
  const gchar *p = text, *end = text + len;
  gboolean have_commit = FALSE, have_data = FALSE;

  while (p < end) {
    const gchar *eol = memchr (p, '\n', end - p);
    const gchar *s = p;

    if (!eol)
      eol = end;
    p = eol + 1;
    while (s < eol && g_ascii_isspace (*s))
      s++;
    if (eol - s > 6 && memcmp (s, "field:", 6) == 0) {
      GstCtfTraceDatField f;

      if (parse_field_line (s + 6, eol, 8, &f)) {
        if (strcmp (f.name, "commit") == 0) {
          *commit_size = f.size;
          have_commit = TRUE;
        } else if (strcmp (f.name, "data") == 0) {
          *data_offset = f.offset;
          have_data = TRUE;
        }
      }
      field_clear (&f);
    }
  }
  return have_commit && have_data;
}
