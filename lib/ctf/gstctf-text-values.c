/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: printing of decoded field values as babeltrace2's
 * `sink.text.pretty` does (integers in their display base, enumeration
 * labels, floats, escaped strings, structures, arrays, variants), for
 * gstctf-text-formatter.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-text-private.h"

static void
string_free (gpointer s)
{
  g_string_free (s, TRUE);
}

/* A text sequence of length 0: babeltrace2 2.0 leaves the string field of
 * its recycled event object as it was.  Returns the field's text. */
static const gchar *
object_text (GstCtfTextFormatter * f, const GstCtfFieldClass * fc,
    const gchar * ptr, gsize len, gboolean empty_seq, gsize * out_len)
{
  GHashTable *fields;
  GString *str;

  if (f->cur_object < 0) {
    *out_len = len;
    return ptr;
  }
  fields = g_hash_table_lookup (f->objects, &f->cur_object);
  if (fields == NULL) {
    gint64 *key = g_new (gint64, 1);

    *key = f->cur_object;
    fields = g_hash_table_new_full (NULL, NULL, NULL, string_free);
    g_hash_table_insert (f->objects, key, fields);
  }
  str = g_hash_table_lookup (fields, fc);
  if (empty_seq) {
    *out_len = str ? str->len : 0;
    return str ? str->str : "";
  }
  if (str == NULL) {
    str = g_string_new (NULL);
    g_hash_table_insert (fields, (gpointer) fc, str);
  }
  g_string_truncate (str, 0);
  g_string_append_len (str, ptr, len);
  *out_len = len;
  return ptr;
}


/* ------------------------------------------------------------------ */
/* Values                                                              */

/* The babeltrace2 pretty sink's string escaping: \\ \' \" \? and the C
 * escapes for control characters, \xNN for the others; bytes >= 0x80
 * are copied (iscntrl() in the C locale). */
static void
append_escaped (GString * s, const gchar * str, gsize len)
{
  static const gchar hex[] = "0123456789abcdef";
  gsize i, run = 0;

  put_c (s, '"');
  for (i = 0; i < len; i++) {
    guchar c = (guchar) str[i];
    const gchar *esc = NULL;
    gchar xbuf[4];

    if (c >= 0x20 && c != 0x7f && c != '\\' && c != '\'' && c != '"' &&
        c != '?')
      continue;
    if (i > run)
      put (s, str + run, i - run);
    run = i + 1;
    switch (c) {
      case '\\':
        esc = "\\\\";
        break;
      case '\'':
        esc = "\\'";
        break;
      case '"':
        esc = "\\\"";
        break;
      case '?':
        esc = "\\?";
        break;
      case '\a':
        esc = "\\a";
        break;
      case '\b':
        esc = "\\b";
        break;
      case 0x1b:
        esc = "\\e";
        break;
      case '\f':
        esc = "\\f";
        break;
      case '\n':
        esc = "\\n";
        break;
      case '\r':
        esc = "\\r";
        break;
      case '\t':
        esc = "\\t";
        break;
      case '\v':
        esc = "\\v";
        break;
      default:
        xbuf[0] = '\\';
        xbuf[1] = 'x';
        xbuf[2] = hex[c >> 4];
        xbuf[3] = hex[c & 0xf];
        put (s, xbuf, 4);
        continue;
    }
    put_str (s, esc);
  }
  if (len > run)
    put (s, str + run, len - run);
  put_c (s, '"');
}

static void
append_integer (GString * s, const GstCtfFieldClass * fc,
    const GstCtfFieldValue * v)
{
  guint len = fc->integer.size;
  guint64 u = v->v.u;

  switch (fc->integer.base) {
    case 2:{
      guint bit;

      put_lit (s, "0b");
      if (len == 0 || len > 64)
        len = 64;
      for (bit = len; bit > 0; bit--)
        put_c (s, (u >> (bit - 1)) & 1 ? '1' : '0');
      break;
    }
    case 8:
      if (fc->integer.is_signed && len > 0 && len < 64) {
        guint rounded = ((len - 1) / 3 + 1) * 3;

        if (rounded < 64)
          u &= (G_GUINT64_CONSTANT (1) << rounded) - 1;
      }
      put_c (s, '0');
      append_oct (s, u);
      break;
    case 16:
      if (len > 0 && len < 64) {
        guint rounded = (len + 3) & ~3u;

        if (rounded < 64)
          u &= (G_GUINT64_CONSTANT (1) << rounded) - 1;
      }
      put_lit (s, "0x");
      append_hex_upper (s, u);
      break;
    default:
      if (fc->integer.is_signed)
        append_i64 (s, v->v.i);
      else
        append_u64 (s, u);
      break;
  }
}

static gboolean
mapping_matches (const GstCtfFieldClass * fc, const GstCtfEnumMapping * m,
    const GstCtfFieldValue * v)
{
  if (fc->integer.is_signed)
    return v->v.i >= (gint64) m->lower && v->v.i <= (gint64) m->upper;
  return v->v.u >= m->lower && v->v.u <= m->upper;
}

/* Labels in babeltrace2's order: one entry per distinct label, ordered by
 * the label's first appearance in the enumeration, each label once. */
static void
append_enum (GString * s, const GstCtfFieldClass * fc,
    const GstCtfFieldValue * v)
{
  guint i, j, printed = 0;
  const GstCtfEnumMapping *maps = fc->enumeration.mappings;
  guint n = fc->enumeration.n_mappings;

  put_lit (s, "( ");
  for (i = 0; i < n; i++) {
    gboolean first = TRUE, match = FALSE;

    /* Only consider the first mapping with each label... */
    for (j = 0; j < i; j++)
      if (g_strcmp0 (maps[j].label, maps[i].label) == 0) {
        first = FALSE;
        break;
      }
    if (!first)
      continue;
    /* ...and all its ranges. */
    for (j = i; j < n && !match; j++)
      if (j == i || g_strcmp0 (maps[j].label, maps[i].label) == 0)
        match = mapping_matches (fc, &maps[j], v);
    if (!match)
      continue;
    if (printed++ > 0)
      put_lit (s, ", ");
    append_escaped (s, maps[i].label ? maps[i].label : "",
        maps[i].label ? strlen (maps[i].label) : 0);
  }
  if (printed == 0)
    put_lit (s, "<unknown>");
  put_lit (s, " : container = ");
  append_integer (s, fc, v);
  put_lit (s, " )");
}

static void
append_float (GString * s, gdouble d)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  gint n = g_snprintf (buf, sizeof (buf), "%g", d);

  if (n > 0)
    put (s, buf, MIN ((gsize) n, sizeof (buf) - 1));
}

static guint
append_struct (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldValue * vals, guint n, guint idx, gboolean names,
    gboolean filtered, guint depth)
{
  guint end = MIN (vals[idx].end, n);
  guint child = idx + 1;
  guint printed = 0;

  put_c (s, '{');
  while (child < end) {
    const GstCtfFieldValue *c = &vals[child];
    guint next = c->end > child ? c->end : child + 1;

    if (filtered && g_hash_table_contains (f->not_in_ir, c->fc)) {
      child = next;
      continue;
    }
    if (printed++ > 0)
      put_lit (s, ", ");
    else
      put_c (s, ' ');
    if (names) {
      put_str (s, display_name (c->name));
      put_lit (s, " = ");
    }
    child = _gst_ctf_text_append_value (f, s, vals, n, child, names, filtered, depth + 1);
    if (child < next)
      child = next;
  }
  put_lit (s, " }");
  return MAX (end, idx + 1);
}

guint
_gst_ctf_text_append_value (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldValue * vals, guint n, guint idx, gboolean names,
    gboolean filtered, guint depth)
{
  const GstCtfFieldValue *v = &vals[idx];
  const GstCtfFieldClass *fc = v->fc;
  guint end = MAX (MIN (v->end, n), idx + 1);

  if (fc == NULL || depth > 512)
    return end;

  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
      append_integer (s, fc, v);
      break;
    case GST_CTF_FIELD_CLASS_ENUM:
      append_enum (s, fc, v);
      break;
    case GST_CTF_FIELD_CLASS_FLOAT:
      append_float (s, v->v.d);
      break;
    case GST_CTF_FIELD_CLASS_STRING:{
      gsize len = v->v.s.ptr ? strnlen (v->v.s.ptr, v->v.s.len) : 0;
      const gchar *ptr = v->v.s.ptr;

      /* babeltrace2 2.0 does not clear the string field of a recycled
       * event object for an empty string either. */
      if (f->cur_object >= 0)
        ptr = object_text (f, fc, ptr, len, len == 0, &len);
      append_escaped (s, ptr, len);
      break;
    }
    case GST_CTF_FIELD_CLASS_STRUCT:
      return append_struct (f, s, vals, n, idx, names, filtered, depth);
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      if (is_text_array (fc) && end == idx + 1) {
        /* babeltrace2 fills a string field up to the first NUL. */
        gsize len = v->v.s.ptr ? strnlen (v->v.s.ptr, v->v.s.len) : 0;
        const gchar *ptr = v->v.s.ptr;

        if (fc->type == GST_CTF_FIELD_CLASS_SEQUENCE && f->cur_object >= 0)
          ptr = object_text (f, fc, ptr, len, v->v.s.len == 0, &len);
        append_escaped (s, ptr, len);
      } else {
        guint child = idx + 1;
        guint64 i = 0;

        put_c (s, '[');
        while (child < end) {
          if (i > 0)
            put_lit (s, ", ");
          else
            put_c (s, ' ');
          if (names) {
            put_c (s, '[');
            append_u64 (s, i);
            put_lit (s, "] = ");
          }
          child = _gst_ctf_text_append_value (f, s, vals, n, child, names, filtered,
              depth + 1);
          i++;
        }
        put_lit (s, " ]");
      }
      break;
    case GST_CTF_FIELD_CLASS_VARIANT:
      put_lit (s, "{ ");
      if (idx + 1 < end)
        _gst_ctf_text_append_value (f, s, vals, n, idx + 1, names, filtered, depth + 1);
      put_lit (s, " }");
      break;
    default:
      break;
  }
  return end;
}
