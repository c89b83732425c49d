/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the text of CTF 2 UTF-16/32 strings (CTF2-SPEC-2.0 §5.4.8).
 *
 * A decoded string value keeps its raw bytes (GstCtfFieldValue.v.s), so
 * that re-encoding writes them back as they were; these helpers find its
 * text (up to the first null code unit), check it and give it as UTF-8,
 * as babeltrace2 2.1 does (glibc iconv: lone or misordered surrogates, a
 * code point above U+10FFFF or a surrogate in UTF-32 and a truncated code
 * unit are invalid; a byte order mark is a character).
 */
#pragma once

#include "gstctf-model.h"

G_BEGIN_DECLS

/* Bytes of one code unit of @enc: 2 (UTF-16), 4 (UTF-32), else 1. */
static inline guint
_gst_ctf_encoding_unit (GstCtfEncoding enc)
{
  switch (enc) {
    case GST_CTF_ENCODING_UTF16BE:
    case GST_CTF_ENCODING_UTF16LE:
      return 2;
    case GST_CTF_ENCODING_UTF32BE:
    case GST_CTF_ENCODING_UTF32LE:
      return 4;
    default:
      return 1;
  }
}

/* The encoding of a string or text array/sequence field class (its
 * element's), or GST_CTF_ENCODING_NONE for any other class. */
GstCtfEncoding _gst_ctf_field_class_text_encoding (const GstCtfFieldClass *
    fc);

/* Name as CTF 2 writes it ("utf-16le", ...). */
const gchar *_gst_ctf_encoding_json_name (GstCtfEncoding enc);

/* Bytes of @data[0..@len) before its first null code unit of @enc (@len
 * when there is none; a trailing partial code unit counts). */
gsize _gst_ctf_wide_text_len (GstCtfEncoding enc, const guint8 * data,
    gsize len);

/* Checks that @data[0..@len) is whole valid UTF-16/32 of @enc without a
 * null code unit.  Returns TRUE, or FALSE with the byte offset of the
 * first invalid code unit in @bad_offset. */
gboolean _gst_ctf_wide_text_check (GstCtfEncoding enc, const guint8 * data,
    gsize len, gsize * bad_offset);

/* Appends to @out, as UTF-8, the text of @data[0..@len) in @enc (up to
 * its first null code unit; invalid code units become U+FFFD, which a
 * checked value never has).  For UTF-8/ASCII/none: the bytes up to the
 * first NUL, unchanged. */
void _gst_ctf_text_append_utf8 (GString * out, GstCtfEncoding enc,
    const gchar * data, gsize len);

G_END_DECLS
