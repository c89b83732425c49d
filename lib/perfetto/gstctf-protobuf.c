/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The protobuf wire format, writing side only: what is not inline in
 * gstctf-protobuf.h. */
#include <string.h>

#include "gstctf-protobuf.h"

void
gst_ctf_pb_init (GstCtfPb * pb, GByteArray * out)
{
  pb->out = out;
  pb->cap = out->len;           /* at least; found out on first growth */
  pb->depth = 0;
}

/* GByteArray keeps its allocation when it shrinks, so growing it to the
 * wanted size and back leaves the room. */
guint8 *
gst_ctf_pb_grow (GstCtfPb * pb, gsize n)
{
  GByteArray *out = pb->out;
  guint len = out->len;
  gsize want = MAX ((gsize) len + n, (gsize) len * 2);

  g_byte_array_set_size (out, (guint) MAX (want, 4096));
  pb->cap = out->len;
  g_byte_array_set_size (out, len);
  return out->data + out->len;
}

void
gst_ctf_pb_double (GstCtfPb * pb, guint field, gdouble v)
{
  guint8 *p = gst_ctf_pb_reserve (pb, 18);
  guint64 bits;
  guint n, i;

  memcpy (&bits, &v, sizeof (bits));
  n = gst_ctf_pb_put_varint (p, ((guint64) field << 3) | GST_CTF_PB_I64);
  for (i = 0; i < 8; i++)
    p[n++] = (guint8) (bits >> (8 * i));
  pb->out->len += n;
}

void
gst_ctf_pb_bytes (GstCtfPb * pb, guint field, const void *data, gsize len)
{
  guint8 *p = gst_ctf_pb_reserve (pb, 20 + len);
  guint n = gst_ctf_pb_put_varint (p, ((guint64) field << 3) |
      GST_CTF_PB_LEN);

  n += gst_ctf_pb_put_varint (p + n, len);
  if (len)
    memcpy (p + n, data, len);
  pb->out->len += n + (guint) len;
}

/* A message of 128 bytes or more: its length takes @extra more bytes, so
 * the message moves up by as many. */
void
gst_ctf_pb_end_long (GstCtfPb * pb, guint at, guint len)
{
  guint extra = 0, i;
  guint64 v;
  guint8 *d;

  for (v = len >> 7; v; v >>= 7)
    extra++;
  gst_ctf_pb_reserve (pb, extra);
  d = pb->out->data;
  memmove (d + at + 1 + extra, d + at + 1, len);
  pb->out->len += extra;
  v = len;
  for (i = 0; i < extra; i++) {
    d[at + i] = (guint8) (v | 0x80);
    v >>= 7;
  }
  d[at + extra] = (guint8) v;
}
