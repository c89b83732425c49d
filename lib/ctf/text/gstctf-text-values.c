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

#include <math.h>
#include <stdio.h>
#include <string.h>

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
 * are copied (iscntrl() in the C locale).  escape_class[c]: 0 = copy,
 * 1 = one-letter escape (escape_letter[c]), 2 = \xNN. */
static const guint8 escape_class[256] = {
  2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2,
  0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
};

static gchar
escape_letter (guchar c)
{
  switch (c) {
    case '\\':
      return '\\';
    case '\'':
      return '\'';
    case '"':
      return '"';
    case '?':
      return '?';
    case '\a':
      return 'a';
    case '\b':
      return 'b';
    case 0x1b:
      return 'e';
    case '\f':
      return 'f';
    case '\n':
      return 'n';
    case '\r':
      return 'r';
    case '\t':
      return 't';
    default:
      return 'v';
  }
}

void
_gst_ctf_text_append_escaped (GString * s, const gchar * str, gsize len)
{
  static const gchar hex[] = "0123456789abcdef";
  gsize i, run = 0;

  put_c (s, '"');
  for (i = 0; i < len; i++) {
    guchar c = (guchar) str[i];
    gchar buf[4];

    if (G_LIKELY (escape_class[c] == 0))
      continue;
    if (i > run)
      put (s, str + run, i - run);
    run = i + 1;
    buf[0] = '\\';
    if (escape_class[c] == 1) {
      buf[1] = escape_letter (c);
      put (s, buf, 2);
    } else {
      buf[1] = 'x';
      buf[2] = hex[c >> 4];
      buf[3] = hex[c & 0xf];
      put (s, buf, 4);
    }
  }
  if (len > run)
    put (s, str + run, len - run);
  put_c (s, '"');
}

void
_gst_ctf_text_append_field_text (GString * s, const GstCtfFieldClass * fc,
    const GstCtfFieldValue * v)
{
  GstCtfEncoding enc = _gst_ctf_field_class_text_encoding (fc);
  GString *u;

  if (v->v.s.ptr == NULL) {
    _gst_ctf_text_append_escaped (s, "", 0);
    return;
  }
  if (_gst_ctf_encoding_unit (enc) == 1) {
    _gst_ctf_text_append_escaped (s, v->v.s.ptr, strnlen (v->v.s.ptr,
            v->v.s.len));
    return;
  }
  /* CTF 2 UTF-16/32: babeltrace2 2.1 prints its UTF-8 conversion */
  u = g_string_sized_new (v->v.s.len + 1);
  _gst_ctf_text_append_utf8 (u, enc, v->v.s.ptr, v->v.s.len);
  _gst_ctf_text_append_escaped (s, u->str, u->len);
  g_string_free (u, TRUE);
}

#define append_escaped _gst_ctf_text_append_escaped
#define append_float _gst_ctf_text_append_float
#define append_integer _gst_ctf_text_append_integer

void
_gst_ctf_text_append_integer (GString * s, const GstCtfFieldClass * fc,
    const GstCtfFieldValue * v)
{
  guint len = fc->integer.size;
  guint64 u = v->v.u;

  if (fc->form == GST_CTF_FIELD_FORM_BOOLEAN) {
    /* a CTF 2 boolean, as babeltrace2 2.1 prints it */
    if (u != 0)
      put_lit (s, "true");
    else
      put_lit (s, "false");
    return;
  }
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
      put_lit (s, "0x");
      append_hex_upper (s, hex_bits (fc, u));
      break;
    default:
      if (fc->integer.is_signed)
        append_i64 (s, v->v.i);
      else
        append_u64 (s, u);
      break;
  }
}

/* A CTF 2 BLOB as babeltrace2 2.1 prints it: `{ 00 ab ff }`. */
static void
append_blob (GString * s, const GstCtfFieldValue * vals, guint idx,
    guint end)
{
  static const gchar hex[] = "0123456789abcdef";
  guint i;

  put_c (s, '{');
  for (i = idx + 1; i < end; i++) {
    guint8 b = (guint8) vals[i].v.u;

    put_c (s, ' ');
    put_c (s, hex[b >> 4]);
    put_c (s, hex[b & 15]);
  }
  put_lit (s, " }");
}

/* printf's "%g" (precision 6) for |d| in [1e-4, 1e6): 6 significant
 * digits in fixed notation, trailing zeros removed (C11 §7.21.6.1).  The
 * exponent X (10^X <= |d|, X in -4..5) picks an exact power of ten
 * 10^(5-X) (at most 1e9); the product with |d| is below 2^20, so its
 * rounding error is at most 2^-34, and rounding it to an integer gives
 * the exact product's 6 digits unless it lies within 1e-6 of a half.  A
 * product that is exactly a half with no rounding error (fma() residual
 * 0) is a true decimal tie, rounded to even as printf does; other values
 * near a half (and a carry to 10^6 at X = 5, which needs the e-notation)
 * make this return 0, and the caller uses snprintf().  The comparisons
 * with the inexact 1e-4 .. 1e-1 are exact decisions: each of those doubles
 * lies above its power of ten, with no double between.  Checked against
 * glibc's "%g" on 20 M values, and with the ties on 60 M more (random
 * bits, short decimals, exact dyadic ties and their neighbours, values
 * next to every rounding boundary and power of ten): all equal. */
static guint
format_g6_fixed (gdouble d, gchar * out)
{
  static const gdouble lo[] = { 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1e3,
    1e4, 1e5
  };
  static const gdouble scale[] = { 1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2,
    1e1, 1
  };
  gdouble a = d < 0 ? -d : d, y, fl, frac;
  guint64 m;
  gint x = 9, X, i;
  guint n = 0, nd;
  gchar dig[6];

  if (!(a >= 1e-4 && a < 1e6))
    return 0;
  while (x > 0 && a < lo[x])
    x--;
  y = a * scale[x];
  fl = floor (y);
  frac = y - fl;
  if (fabs (frac - 0.5) < 1e-6) {
    /* An exact half (the product had no rounding error: the binary value
     * is a decimal tie) rounds to even, as printf in the default rounding
     * mode; anything merely near one is left to snprintf(). */
    if (frac != 0.5 || fma (a, scale[x], -y) != 0)
      return 0;
    m = (guint64) fl + ((guint64) fl & 1);
  } else {
    m = (guint64) fl + (frac > 0.5);
  }
  X = x - 4;
  if (m >= 1000000) {
    m /= 10;
    X++;
  }
  if (X > 5 || m < 100000 || m >= 1000000)
    return 0;
  for (i = 5; i >= 0; i--) {
    dig[i] = '0' + (gchar) (m % 10);
    m /= 10;
  }
  nd = 6;
  while (nd > 1 && dig[nd - 1] == '0' && (gint) nd > (X >= 0 ? X + 1 : 0))
    nd--;
  if (d < 0)
    out[n++] = '-';
  if (X >= 0) {
    for (i = 0; i <= X; i++)
      out[n++] = dig[i];
    if ((gint) nd > X + 1) {
      out[n++] = '.';
      for (i = X + 1; i < (gint) nd; i++)
        out[n++] = dig[i];
    }
  } else {
    out[n++] = '0';
    out[n++] = '.';
    for (i = 0; i < -X - 1; i++)
      out[n++] = '0';
    for (i = 0; i < (gint) nd; i++)
      out[n++] = dig[i];
  }
  return n;
}

/* printf's "%g" (precision 6) for finite nonzero |d| outside [1e-4, 1e6):
 * e-notation, d.ddddde±XX with trailing zeros (and a lone point) removed
 * and at least two exponent digits (C11 §7.21.6.1).  X = floor(log10 |d|)
 * (corrected by one when the scaled value falls outside [1e5, 1e6)); the
 * six digits are |d| × 10^(5-X) rounded to an integer.  That product
 * takes at most three roundings (an inexact power of ten, a second factor
 * for denormals, the product), a relative error below 2^-50, so below
 * 1e-9 on a value under 1e6: rounding it gives the exact digits unless it
 * lies within 1e-6 of a half, and then this returns 0 and the caller uses
 * snprintf(), as it does when the rounded value carries to a power of ten
 * that %g prints in fixed notation.  Checked against glibc's "%g" on 50 M
 * values (random bits over the whole range, values next to rounding
 * boundaries and powers of ten): all equal. */
static guint
format_g6_exp (gdouble d, gchar * out)
{
  gdouble a = d < 0 ? -d : d, y, fl, frac;
  gint X, k, tries;
  guint64 m = 0;
  guint n = 0, nd, i, e;
  gchar dig[6], ex[4];

  X = (gint) floor (log10 (a));
  for (tries = 0; tries < 2; tries++) {
    k = 5 - X;
    if (k > 300)
      y = (a * 1e300) * pow (10.0, k - 300);
    else
      y = a * pow (10.0, k);
    if (y < 99999.0) {
      X--;
      continue;
    }
    if (y >= 1000000.0) {
      X++;
      continue;
    }
    break;
  }
  if (tries == 2)
    return 0;
  fl = floor (y);
  frac = y - fl;
  if (fabs (frac - 0.5) < 1e-6)
    return 0;
  m = (guint64) fl + (frac > 0.5);
  if (m >= 1000000) {
    m /= 10;
    X++;
  }
  if (m < 100000 || (X >= -4 && X < 6))
    return 0;
  for (i = 6; i > 0; i--) {
    dig[i - 1] = '0' + (gchar) (m % 10);
    m /= 10;
  }
  nd = 6;
  while (nd > 1 && dig[nd - 1] == '0')
    nd--;
  if (d < 0)
    out[n++] = '-';
  out[n++] = dig[0];
  if (nd > 1) {
    out[n++] = '.';
    for (i = 1; i < nd; i++)
      out[n++] = dig[i];
  }
  out[n++] = 'e';
  out[n++] = X < 0 ? '-' : '+';
  e = (guint) (X < 0 ? -X : X);
  i = 0;
  do {
    ex[i++] = '0' + (gchar) (e % 10);
    e /= 10;
  } while (e > 0);
  if (i < 2)
    ex[i++] = '0';
  while (i > 0)
    out[n++] = ex[--i];
  return n;
}

/* printf's "%g" (precision 6), what babeltrace2 prints floats with.  Fast
 * path: a value that is the nearest double to a decimal m / 10^k with
 * m < 10^6 and k <= 4 (at most 6 significant digits, magnitude in
 * [1e-4, 1e6)) prints as that decimal in fixed notation without trailing
 * zeros: its distance to the decimal (half an ulp) is far below the
 * rounding boundary of the 6th significant digit.  Then other values of
 * that magnitude (format_g6_fixed()); anything else goes to snprintf(). */
void
_gst_ctf_text_append_float (GString * s, gdouble d)
{
  static const gdouble p10[] = { 1, 10, 100, 1000, 10000 };
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  gdouble a = d < 0 ? -d : d;
  guint64 bits;
  gint n;

  /* A subnormal goes to snprintf(), which reads the bits: with the CPU's
   * denormals-are-zero mode on (set for the whole process by any library
   * linked with -ffast-math), the arithmetic below would take it for 0. */
  memcpy (&bits, &d, sizeof bits);
  if ((bits & G_GUINT64_CONSTANT (0x7ff0000000000000)) == 0
      && (bits & G_GUINT64_CONSTANT (0x000fffffffffffff)) != 0)
    goto libc;
  if (d == 0) {
    if (signbit (d))
      put_lit (s, "-0");
    else
      put_c (s, '0');
    return;
  }
  if (isinf (d)) {
    if (d < 0)
      put_lit (s, "-inf");
    else
      put_lit (s, "inf");
    return;
  }
  if (isnan (d)) {
    /* (glibc prints the sign of a NaN) */
    if (signbit (d))
      put_lit (s, "-nan");
    else
      put_lit (s, "nan");
    return;
  }
  if (a >= 1e-4 && a < 1e6) {
    guint k;

    for (k = 0; k < G_N_ELEMENTS (p10); k++) {
      gdouble x = a * p10[k];

      if (x < 1e6 && x == (gdouble) (guint64) x && x / p10[k] == a) {
        guint64 m = (guint64) x;
        guint64 ip = m / (guint64) p10[k];
        guint64 fp = m % (guint64) p10[k];

        if (d < 0)
          put_c (s, '-');
        append_u64 (s, ip);
        if (k > 0 && fp != 0) {
          gchar frac[4];
          guint j, len = k;

          for (j = k; j > 0; j--) {
            frac[j - 1] = '0' + (gchar) (fp % 10);
            fp /= 10;
          }
          while (len > 0 && frac[len - 1] == '0')
            len--;
          put_c (s, '.');
          put (s, frac, len);
        }
        return;
      }
    }
  }
  if (a >= 1e-4 && a < 1e6)
    n = (gint) format_g6_fixed (d, buf);
  else
    n = (gint) format_g6_exp (d, buf);
  if (n > 0) {
    put (s, buf, n);
    return;
  }
libc:
  n = snprintf (buf, sizeof (buf), "%g", d);

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
      put_color (f, s, COLOR_FIELD_NAME);
      put_str (s, display_name (f, c->name));
      put_color (f, s, COLOR_RESET);
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
      put_color (f, s, COLOR_VALUE);
      append_integer (s, fc, v);
      put_color (f, s, COLOR_RESET);
      break;
    case GST_CTF_FIELD_CLASS_ENUM:
      _gst_ctf_text_append_enum (f, s, fc, v);
      break;
    case GST_CTF_FIELD_CLASS_FLOAT:
      put_color (f, s, COLOR_VALUE);
      append_float (s, v->v.d);
      put_color (f, s, COLOR_RESET);
      break;
    case GST_CTF_FIELD_CLASS_STRING:{
      gsize len = v->v.s.ptr ? strnlen (v->v.s.ptr, v->v.s.len) : 0;
      const gchar *ptr = v->v.s.ptr;

      if (fc->string.encoding >= GST_CTF_ENCODING_UTF16BE) {
        _gst_ctf_text_append_field_text (s, fc, v);
        break;
      }
      /* babeltrace2 2.0 does not clear the string field of a recycled
       * event object for an empty string either. */
      if (f->cur_object >= 0)
        ptr = object_text (f, fc, ptr, len, len == 0, &len);
      put_color (f, s, COLOR_VALUE);
      append_escaped (s, ptr, len);
      put_color (f, s, COLOR_RESET);
      break;
    }
    case GST_CTF_FIELD_CLASS_STRUCT:
      return append_struct (f, s, vals, n, idx, names, filtered, depth);
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      if (fc->form == GST_CTF_FIELD_FORM_BLOB) {
        append_blob (s, vals, idx, end);
      } else if (is_text_array (fc) && end == idx + 1 &&
          fc->element->integer.encoding >= GST_CTF_ENCODING_UTF16BE) {
        _gst_ctf_text_append_field_text (s, fc, v);
      } else if (is_text_array (fc) && end == idx + 1) {
        /* babeltrace2 fills a string field up to the first NUL. */
        gsize len = v->v.s.ptr ? strnlen (v->v.s.ptr, v->v.s.len) : 0;
        const gchar *ptr = v->v.s.ptr;

        if (fc->type == GST_CTF_FIELD_CLASS_SEQUENCE && f->cur_object >= 0)
          ptr = object_text (f, fc, ptr, len, v->v.s.len == 0, &len);
        put_color (f, s, COLOR_VALUE);
        append_escaped (s, ptr, len);
        put_color (f, s, COLOR_RESET);
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
      if (fc->form == GST_CTF_FIELD_FORM_OPTIONAL && idx + 1 >= end) {
        /* an absent optional, as babeltrace2 2.1 prints it */
        put_lit (s, "<none>");
        break;
      }
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
