/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the text of CTF 2 UTF-16/32 strings, see
 * gstctf-unicode-private.h.
 */
#include "gstctf-unicode-private.h"

#include <string.h>

GstCtfEncoding
_gst_ctf_field_class_text_encoding (const GstCtfFieldClass * fc)
{
  if (fc == NULL)
    return GST_CTF_ENCODING_NONE;
  if (fc->type == GST_CTF_FIELD_CLASS_STRING)
    return fc->string.encoding;
  if ((fc->type == GST_CTF_FIELD_CLASS_ARRAY ||
          fc->type == GST_CTF_FIELD_CLASS_SEQUENCE) && fc->element &&
      fc->element->type == GST_CTF_FIELD_CLASS_INTEGER)
    return fc->element->integer.encoding;
  return GST_CTF_ENCODING_NONE;
}

const gchar *
_gst_ctf_encoding_json_name (GstCtfEncoding enc)
{
  switch (enc) {
    case GST_CTF_ENCODING_UTF16BE:
      return "utf-16be";
    case GST_CTF_ENCODING_UTF16LE:
      return "utf-16le";
    case GST_CTF_ENCODING_UTF32BE:
      return "utf-32be";
    case GST_CTF_ENCODING_UTF32LE:
      return "utf-32le";
    default:
      return "utf-8";
  }
}

static inline guint32
load_unit (GstCtfEncoding enc, const guint8 * p)
{
  switch (enc) {
    case GST_CTF_ENCODING_UTF16BE:
      return ((guint32) p[0] << 8) | p[1];
    case GST_CTF_ENCODING_UTF16LE:
      return ((guint32) p[1] << 8) | p[0];
    case GST_CTF_ENCODING_UTF32BE:
      return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) |
          ((guint32) p[2] << 8) | p[3];
    default:
      return ((guint32) p[3] << 24) | ((guint32) p[2] << 16) |
          ((guint32) p[1] << 8) | p[0];
  }
}

gsize
_gst_ctf_wide_text_len (GstCtfEncoding enc, const guint8 * data, gsize len)
{
  guint unit = _gst_ctf_encoding_unit (enc);
  gsize i;

  if (unit == 1) {
    const guint8 *nul = memchr (data, 0, len);

    return nul ? (gsize) (nul - data) : len;
  }
  for (i = 0; i + unit <= len; i += unit)
    if (load_unit (enc, data + i) == 0)
      return i;
  return len;
}

/* Decodes the code point at @data[*i]; returns G_MAXUINT32 when invalid
 * (then *i is unchanged). */
static guint32
next_code_point (GstCtfEncoding enc, const guint8 * data, gsize len,
    gsize * i)
{
  guint unit = _gst_ctf_encoding_unit (enc);
  guint32 u;

  if (len - *i < unit)
    return G_MAXUINT32;
  u = load_unit (enc, data + *i);
  if (unit == 4) {
    if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF))
      return G_MAXUINT32;
    *i += 4;
    return u;
  }
  if (u >= 0xDC00 && u <= 0xDFFF)
    return G_MAXUINT32;
  if (u >= 0xD800 && u <= 0xDBFF) {
    guint32 lo;

    if (len - *i < 4)
      return G_MAXUINT32;
    lo = load_unit (enc, data + *i + 2);
    if (lo < 0xDC00 || lo > 0xDFFF)
      return G_MAXUINT32;
    *i += 4;
    return 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
  }
  *i += 2;
  return u;
}

gboolean
_gst_ctf_wide_text_check (GstCtfEncoding enc, const guint8 * data, gsize len,
    gsize * bad_offset)
{
  gsize i = 0;

  while (i < len) {
    guint32 cp = next_code_point (enc, data, len, &i);

    if (cp == G_MAXUINT32 || cp == 0) {
      *bad_offset = i;
      return FALSE;
    }
  }
  return TRUE;
}

void
_gst_ctf_text_append_utf8 (GString * out, GstCtfEncoding enc,
    const gchar * data, gsize len)
{
  const guint8 *d = (const guint8 *) data;
  guint unit = _gst_ctf_encoding_unit (enc);
  gsize i = 0;

  if (data == NULL)
    return;
  len = _gst_ctf_wide_text_len (enc, d, len);
  if (unit == 1) {
    g_string_append_len (out, data, len);
    return;
  }
  while (i < len) {
    guint32 cp = next_code_point (enc, d, len, &i);

    if (cp == G_MAXUINT32) {
      cp = 0xFFFD;
      i = MIN (i + unit, len);
    }
    g_string_append_unichar (out, cp);
  }
}
