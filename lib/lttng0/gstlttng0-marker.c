/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng 0.x marker format strings -> payload layouts, and payload decoding.
 *
 * A marker's format string is a printf format whose arguments are the
 * event's fields, in order (LTTng 0.x `ltt-serialize.c`, LTTV
 * `ltt/marker.c`):
 *   - `%` C types: flags (`-+ #0`, skipped), a width or precision (ignored),
 *     a qualifier (`h` short, `l` long, `ll`/`L` long long, `z`/`Z` size_t,
 *     `t` ptrdiff_t) and a conversion (`d i` signed, `o u x X` unsigned,
 *     `c` unsigned char, `p` pointer, `s` NUL-terminated string);
 *   - `#` trace types before a `%` override the size and type written to
 *     the trace: `n` (network byte order), then a qualifier as above or a
 *     byte count `1 2 4 8`, then a conversion (`#2u%u`, `#p%lu`,
 *     `#n4u%lu`).  A `#` type with an unknown conversion is dropped, as the
 *     tracer and LTTV drop it (`irqstate #1%d` writes nothing);
 *   - a field is named after the first word that precedes it since the
 *     previous field (`pid %d` -> `pid`); LTTV names the others
 *     `field N` (N counts the fields from 1);
 *   - `%%` and `##` are literal.
 * Sizes of int, long, pointers and size_t are the marker's (from
 * `core_marker_id`).  Integers align as lttng0_field_align() says for the
 * marker's alignment, strings are unaligned; the payload starts aligned
 * to its largest field.
 */
#include "gstlttng0-private.h"

typedef struct
{
  GArray *fields;
  guint size;                   /* pending trace type: bytes, 0 = none */
  gint type;                    /* pending trace type, -1 = none */
  gboolean network;
} FmtState;

/* Qualifier and conversion of a `%` or `#` type at *p.  Returns the
 * conversion character (0 at the end of the string). */
static gchar
type_spec (const gchar ** p, gchar * qualifier, gboolean trace_type)
{
  const gchar *s = *p;

  *qualifier = 0;
  if (*s == 'h' || *s == 'l' || *s == 'L' || *s == 'Z' || *s == 'z'
      || *s == 't' || *s == 'S' || (trace_type && (*s == '1' || *s == '2'
              || *s == '4' || *s == '8'))) {
    *qualifier = *s++;
    if (*qualifier == 'l' && *s == 'l') {
      *qualifier = 'L';
      s++;
    }
  }
  *p = s;
  return *s;
}

static guint
qualified_size (const Lttng0Marker * m, gchar q)
{
  switch (q) {
    case 'L':
      return 8;
    case 'l':
      return m->long_size;
    case 'Z':
    case 'z':
      return m->size_t_size;
    case 't':
      return m->pointer_size;
    case 'h':
      return 2;
    case '1':
    case '2':
    case '4':
    case '8':
      return q - '0';
    default:
      return m->int_size;
  }
}

static void
field_clear (gpointer p)
{
  g_free (((Lttng0Field *) p)->name);
}

/**
 * _gst_ctf_lttng0_marker_parse:
 * @m: a marker with its sizes, alignment and format set
 * @minor: the trace format's minor version (alignment rules)
 * @error: return location for a %GST_CTF_ERROR_LTTNG0 error: a `%`
 *   conversion that is not one of `d i o u x X c p s`, a `*` width, or an
 *   integer size other than 1, 2, 4 or 8 bytes
 *
 * Fills @m's fields from its format string.
 */
gboolean
_gst_ctf_lttng0_marker_parse (Lttng0Marker * m, guint minor, GError ** error)
{
  const gchar *fmt = m->format, *p;
  const gchar *name_begin = fmt, *name_end = NULL;
  gchar *name = NULL;
  guint count = 1;
  FmtState st = { 0, };
  gchar q, conv;
  guint i;

  st.fields = g_array_new (FALSE, TRUE, sizeof (Lttng0Field));
  g_array_set_clear_func (st.fields, field_clear);
  st.type = -1;
  for (p = fmt; *p; p++) {
    switch (*p) {
      case '#':
        p++;
        if (*p == '#')
          break;
        st.network = FALSE;
        while (*p == 'n') {
          st.network = TRUE;
          p++;
        }
        conv = type_spec (&p, &q, TRUE);
        switch (conv) {
          case 'c':
            st.type = LTTNG0_FIELD_UNSIGNED;
            st.size = 1;
            break;
          case 's':
            st.type = LTTNG0_FIELD_STRING;
            break;
          case 'p':
            st.type = LTTNG0_FIELD_POINTER;
            st.size = m->pointer_size;
            break;
          case 'd':
          case 'i':
            st.type = LTTNG0_FIELD_SIGNED;
            st.size = qualified_size (m, q);
            break;
          case 'o':
          case 'u':
          case 'x':
          case 'X':
            st.type = LTTNG0_FIELD_UNSIGNED;
            st.size = qualified_size (m, q);
            break;
          default:
            /* dropped, as the tracer drops it; the character after the
             * qualifier (a `%`, say) is consumed with it */
            if (!*p)
              p--;
            break;
        }
        break;
      case '%':{
        Lttng0Field f = { 0, };
        guint csize = 0;
        gint ctype;

        p++;
        if (*p == '%')
          break;
        while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0')
          p++;
        while (g_ascii_isdigit (*p) || *p == '.')
          p++;
        if (*p == '*') {
          g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
              "Marker format does not parse: `*` width or precision at "
              "format-offset %u: marker=\"%s.%s\", format=\"%s\"",
              (guint) (p - fmt), m->channel, m->name, fmt);
          goto fail;
        }
        conv = type_spec (&p, &q, FALSE);
        switch (conv) {
          case 'c':
            ctype = LTTNG0_FIELD_UNSIGNED;
            csize = 1;
            break;
          case 's':
            ctype = LTTNG0_FIELD_STRING;
            break;
          case 'p':
            ctype = LTTNG0_FIELD_POINTER;
            csize = m->pointer_size;
            break;
          case 'd':
          case 'i':
            ctype = LTTNG0_FIELD_SIGNED;
            csize = qualified_size (m, q);
            break;
          case 'o':
          case 'u':
          case 'x':
          case 'X':
            ctype = LTTNG0_FIELD_UNSIGNED;
            csize = qualified_size (m, q);
            break;
          default:
            g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
                "Marker format does not parse: conversion `%c` at "
                "format-offset %u is not one of d i o u x X c p s: "
                "marker=\"%s.%s\", format=\"%s\"", conv ? conv : '?',
                (guint) (p - fmt), m->channel, m->name, fmt);
            goto fail;
        }
        f.type = (Lttng0FieldType) (st.type >= 0 ? st.type : ctype);
        f.size = st.size ? st.size : csize;
        if (ctype == LTTNG0_FIELD_STRING || f.type == LTTNG0_FIELD_STRING) {
          f.type = LTTNG0_FIELD_STRING;
          f.size = 0;
        } else if (f.size != 1 && f.size != 2 && f.size != 4 && f.size != 8) {
          g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
              "Marker format does not parse: field %u is %u bytes "
              "(expected 1, 2, 4 or 8; sizes int=%u long=%u pointer=%u "
              "size_t=%u): marker=\"%s.%s\", format=\"%s\"", count, f.size,
              m->int_size, m->long_size, m->pointer_size, m->size_t_size,
              m->channel, m->name, fmt);
          goto fail;
        }
        f.network = st.type >= 0 && st.network;
        f.base = f.type == LTTNG0_FIELD_POINTER || conv == 'x'
            || conv == 'X' ? 16 : conv == 'o' ? 8 : 10;
        f.align = f.type == LTTNG0_FIELD_STRING ? 1 :
            lttng0_field_align (minor, m->alignment, f.size);
        f.name = name && *name ? g_strdup (name) :
            g_strdup_printf ("field %u", count);
        count++;
        g_array_append_val (st.fields, f);
        st.type = -1;
        st.size = 0;
        st.network = FALSE;
        name_begin = NULL;
        g_clear_pointer (&name, g_free);
        break;
      }
      case ' ':
        if (!name_end && name_begin) {
          name_end = p;
          g_free (name);
          name = g_strndup (name_begin, name_end - name_begin);
        }
        break;
      default:
        if (!name_begin) {
          name_begin = p;
          name_end = NULL;
        }
        break;
    }
    if (!*p)
      break;
  }
  g_free (name);
  m->n_fields = st.fields->len;
  m->fields = (Lttng0Field *) g_array_free (st.fields, FALSE);
  m->largest_align = 1;
  for (i = 0; i < m->n_fields; i++)
    m->largest_align = MAX (m->largest_align, m->fields[i].align);
  m->usable = TRUE;
  return TRUE;

fail:
  g_free (name);
  g_array_free (st.fields, TRUE);
  return FALSE;
}

void
_gst_ctf_lttng0_marker_free (Lttng0Marker * m)
{
  guint i;

  if (!m)
    return;
  for (i = 0; i < m->n_fields; i++)
    g_free (m->fields[i].name);
  g_free (m->fields);
  g_free (m->channel);
  g_free (m->name);
  g_free (m->format);
  g_free (m);
}

/**
 * _gst_ctf_lttng0_marker_decode:
 * @t: the trace
 * @m: a usable marker
 * @c: the cursor of the sub-buffer the event is in
 * @payload: where the event header ends, from the sub-buffer start
 * @values: (out caller-allocates): @m->n_fields values
 * @end: (out): where the payload ends, from the sub-buffer start
 * @error: return location for a %GST_CTF_ERROR_LTTNG0 error (a field or a
 *   string past the sub-buffer's data)
 *
 * Returns: 1 on success, -1 on error
 */
gint
_gst_ctf_lttng0_marker_decode (const GstCtfLttng0Trace * t,
    const Lttng0Marker * m, const Lttng0Cursor * c, guint32 payload,
    Lttng0Value * values, guint32 * end, GError ** error)
{
  const guint8 *d = c->data;
  guint64 pos = lttng0_align_up (payload, m->largest_align);
  guint64 lim = c->sb->data_end;
  guint i;

  for (i = 0; i < m->n_fields; i++) {
    const Lttng0Field *f = &m->fields[i];
    Lttng0Value *v = &values[i];

    if (f->type == LTTNG0_FIELD_STRING) {
      const guint8 *nul = pos < lim ? memchr (d + pos, 0, lim - pos) : NULL;

      if (G_UNLIKELY (!nul))
        goto past;
      v->s = (const gchar *) d + pos;
      v->len = (guint32) (nul - (d + pos));
      v->u = 0;
      pos += v->len + 1;
      continue;
    }
    pos = lttng0_align_up (pos, f->align);
    if (G_UNLIKELY (pos + f->size > lim))
      goto past;
    v->s = NULL;
    v->len = 0;
    switch (f->size) {
      case 1:
        v->u = d[pos];
        if (f->type == LTTNG0_FIELD_SIGNED)
          v->u = (guint64) (gint64) (gint8) v->u;
        break;
      case 2:
        v->u = lttng0_read16 (f->network || t->big_endian, d + pos);
        if (f->type == LTTNG0_FIELD_SIGNED)
          v->u = (guint64) (gint64) (gint16) v->u;
        break;
      case 4:
        v->u = lttng0_read32 (f->network || t->big_endian, d + pos);
        if (f->type == LTTNG0_FIELD_SIGNED)
          v->u = (guint64) (gint64) (gint32) v->u;
        break;
      default:
        v->u = lttng0_read64 (f->network || t->big_endian, d + pos);
        break;
    }
    pos += f->size;
  }
  *end = (guint32) pos;
  return 1;

past:
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
      "Event past the end of its sub-buffer's data: file=\"%s\", "
      "offset=%" G_GUINT64_FORMAT ", marker=\"%s.%s\", field=\"%s\", "
      "data-end=%" G_GUINT64_FORMAT, c->tf->path, c->sb->offset + payload,
      m->channel, m->name, m->fields[i].name, c->sb->offset + lim);
  return -1;
}
