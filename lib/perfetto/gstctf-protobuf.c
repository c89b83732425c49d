/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The protobuf wire format, writing side only (see gstctf-protobuf.h). */
#include <string.h>

#include "gstctf-protobuf.h"

void
gst_ctf_pb_init (GstCtfPb * pb, GByteArray * out)
{
  pb->out = out;
  pb->cap = out->len;           /* at least; found out on first growth */
  pb->depth = 0;
}

/* Room for @n more bytes at the end of @pb->out; returns where they go.
 * GByteArray keeps its allocation when it shrinks, so growing it to the
 * wanted size and back leaves the room. */
static inline guint8 *
reserve (GstCtfPb * pb, gsize n)
{
  GByteArray *out = pb->out;

  if (G_UNLIKELY (out->len + n > pb->cap)) {
    guint len = out->len;
    gsize want = MAX ((gsize) len + n, (gsize) len * 2);

    g_byte_array_set_size (out, (guint) MAX (want, 4096));
    pb->cap = out->len;
    g_byte_array_set_size (out, len);
  }
  return out->data + out->len;
}

static inline guint
put_varint (guint8 * p, guint64 v)
{
  guint n = 0;

  while (v >= 0x80) {
    p[n++] = (guint8) (v | 0x80);
    v >>= 7;
  }
  p[n++] = (guint8) v;
  return n;
}

void
gst_ctf_pb_varint_raw (GstCtfPb * pb, guint64 v)
{
  guint8 *p = reserve (pb, 10);

  pb->out->len += put_varint (p, v);
}

void
gst_ctf_pb_uint (GstCtfPb * pb, guint field, guint64 v)
{
  guint8 *p = reserve (pb, 20);
  guint n = put_varint (p, ((guint64) field << 3) | GST_CTF_PB_VARINT);

  n += put_varint (p + n, v);
  pb->out->len += n;
}

/* int32 and int64 fields: a negative value is its 64-bit two's complement
 * (10 bytes), as protobuf encodes them. */
void
gst_ctf_pb_int (GstCtfPb * pb, guint field, gint64 v)
{
  gst_ctf_pb_uint (pb, field, (guint64) v);
}

void
gst_ctf_pb_bool (GstCtfPb * pb, guint field, gboolean v)
{
  gst_ctf_pb_uint (pb, field, v ? 1 : 0);
}

void
gst_ctf_pb_double (GstCtfPb * pb, guint field, gdouble v)
{
  guint8 *p = reserve (pb, 18);
  guint64 bits;
  guint n, i;

  memcpy (&bits, &v, sizeof (bits));
  n = put_varint (p, ((guint64) field << 3) | GST_CTF_PB_I64);
  for (i = 0; i < 8; i++)
    p[n++] = (guint8) (bits >> (8 * i));
  pb->out->len += n;
}

void
gst_ctf_pb_bytes (GstCtfPb * pb, guint field, const void *data, gsize len)
{
  guint8 *p = reserve (pb, 20 + len);
  guint n = put_varint (p, ((guint64) field << 3) | GST_CTF_PB_LEN);

  n += put_varint (p + n, len);
  if (len)
    memcpy (p + n, data, len);
  pb->out->len += n + (guint) len;
}

void
gst_ctf_pb_string (GstCtfPb * pb, guint field, const gchar * s)
{
  gst_ctf_pb_bytes (pb, field, s, strlen (s));
}

void
gst_ctf_pb_begin (GstCtfPb * pb, guint field)
{
  guint8 *p = reserve (pb, 11);
  guint n = put_varint (p, ((guint64) field << 3) | GST_CTF_PB_LEN);

  g_assert (pb->depth < GST_CTF_PB_MAX_DEPTH);
  p[n] = 0;
  pb->open[pb->depth++] = pb->out->len + n;
  pb->out->len += n + 1;
}

void
gst_ctf_pb_end (GstCtfPb * pb)
{
  guint at, len, extra = 0, i;
  guint64 v;
  guint8 *d;

  g_assert (pb->depth > 0);
  at = pb->open[--pb->depth];
  len = pb->out->len - at - 1;
  for (v = len >> 7; v; v >>= 7)
    extra++;
  if (extra) {
    reserve (pb, extra);
    d = pb->out->data;
    memmove (d + at + 1 + extra, d + at + 1, len);
    pb->out->len += extra;
  }
  d = pb->out->data;
  v = len;
  for (i = 0; i < extra; i++) {
    d[at + i] = (guint8) (v | 0x80);
    v >>= 7;
  }
  d[at + extra] = (guint8) v;
}
