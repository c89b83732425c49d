/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Changing one integer of a packet's context in place (content_size,
 * packet_size, packet_seq_num, ...) when every field before it has a
 * fixed size (CTF 1.8 §4: each field aligned to its alignment, then its
 * size), so elements that copy packets need not re-encode them.  Moved
 * from timefilter's edge packets; ctffilter renumbers packets with it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-packet-writer.h"

typedef enum {
  LAYOUT_NOT_FOUND,             /* walked past it all: *off is its end */
  LAYOUT_FOUND,
  LAYOUT_VARIABLE,              /* a field of variable size came first */
} LayoutResult;

/* Bit offset (from @off) of the integer with @meaning in @fc, as long as
 * only fixed-size fields come before it. */
static LayoutResult
layout_find (const GstCtfFieldClass * fc, GstCtfFieldMeaning meaning,
    guint64 * off, const GstCtfFieldClass ** found, guint depth)
{
  guint64 a;
  guint i;

  if (fc == NULL)
    return LAYOUT_NOT_FOUND;
  if (depth > 32)
    return LAYOUT_VARIABLE;
  a = MAX (fc->alignment, 1);
  *off = (*off + a - 1) / a * a;
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (meaning != GST_CTF_MEANING_NONE && fc->meaning == meaning) {
        *found = fc;
        return LAYOUT_FOUND;
      }
      *off += fc->integer.size;
      return LAYOUT_NOT_FOUND;
    case GST_CTF_FIELD_CLASS_FLOAT:
      *off += fc->floating.exp_dig + fc->floating.mant_dig;
      return LAYOUT_NOT_FOUND;
    case GST_CTF_FIELD_CLASS_STRUCT:
      for (i = 0; i < fc->n_members; i++) {
        LayoutResult r = layout_find (fc->members[i].fc, meaning, off, found,
            depth + 1);

        if (r != LAYOUT_NOT_FOUND)
          return r;
      }
      return LAYOUT_NOT_FOUND;
    case GST_CTF_FIELD_CLASS_ARRAY:
      if (fc->length > 4096)
        return LAYOUT_VARIABLE;
      for (i = 0; i < fc->length; i++) {
        LayoutResult r = layout_find (fc->element, meaning, off, found,
            depth + 1);

        if (r != LAYOUT_NOT_FOUND)
          return r;
      }
      return LAYOUT_NOT_FOUND;
    default:
      return LAYOUT_VARIABLE;
  }
}

gboolean
gst_ctf_packet_find_context_field (const GstCtfTraceClass * tc,
    const GstCtfStreamClass * sc, GstCtfFieldMeaning meaning,
    guint64 * bit_offset, const GstCtfFieldClass ** fc)
{
  const GstCtfFieldClass *dummy = NULL;
  guint64 off = 0;

  *fc = NULL;
  *bit_offset = 0;
  if (layout_find (tc->packet_header, GST_CTF_MEANING_NONE, &off, &dummy,
          0) != LAYOUT_NOT_FOUND)
    return FALSE;
  if (layout_find (sc->packet_context, meaning, &off, fc, 0) ==
      LAYOUT_VARIABLE) {
    *fc = NULL;
    return FALSE;
  }
  if (*fc)
    *bit_offset = off;
  return TRUE;
}

gboolean
gst_ctf_packet_poke_integer (guint8 * data, gsize size, guint64 bit_offset,
    const GstCtfFieldClass * fc, guint64 value)
{
  guint n = fc->integer.size / 8, i;

  if (bit_offset % 8 || fc->integer.size % 8 || bit_offset / 8 + n > size ||
      (n < 8 && value >> (8 * n)))
    return FALSE;
  for (i = 0; i < n; i++) {
    guint8 byte = (guint8) (value >> (8 * i));

    if (fc->integer.byte_order == GST_CTF_BYTE_ORDER_LE)
      data[bit_offset / 8 + i] = byte;
    else
      data[bit_offset / 8 + n - 1 - i] = byte;
  }
  return TRUE;
}
