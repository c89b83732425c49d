/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The protobuf wire format, writing side only (see gstctf-protobuf.h). */
#include <string.h>

#include "gstctf-protobuf.h"

void
gst_ctf_pb_init (GstCtfPb * pb, GByteArray * out)
{
  pb->out = out;
  pb->depth = 0;
}

void
gst_ctf_pb_varint_raw (GstCtfPb * pb, guint64 v)
{
  guint8 b[10];
  guint n = 0;

  while (v >= 0x80) {
    b[n++] = (guint8) (v | 0x80);
    v >>= 7;
  }
  b[n++] = (guint8) v;
  g_byte_array_append (pb->out, b, n);
}

static inline void
tag (GstCtfPb * pb, guint field, guint wire)
{
  gst_ctf_pb_varint_raw (pb, ((guint64) field << 3) | wire);
}

void
gst_ctf_pb_uint (GstCtfPb * pb, guint field, guint64 v)
{
  tag (pb, field, GST_CTF_PB_VARINT);
  gst_ctf_pb_varint_raw (pb, v);
}

/* int32 and int64 fields: a negative value is its 64-bit two's complement
 * (10 bytes), as protobuf encodes them. */
void
gst_ctf_pb_int (GstCtfPb * pb, guint field, gint64 v)
{
  tag (pb, field, GST_CTF_PB_VARINT);
  gst_ctf_pb_varint_raw (pb, (guint64) v);
}

void
gst_ctf_pb_bool (GstCtfPb * pb, guint field, gboolean v)
{
  gst_ctf_pb_uint (pb, field, v ? 1 : 0);
}

void
gst_ctf_pb_double (GstCtfPb * pb, guint field, gdouble v)
{
  guint64 bits;
  guint8 b[8];
  guint i;

  memcpy (&bits, &v, sizeof (bits));
  for (i = 0; i < 8; i++)
    b[i] = (guint8) (bits >> (8 * i));
  tag (pb, field, GST_CTF_PB_I64);
  g_byte_array_append (pb->out, b, 8);
}

void
gst_ctf_pb_bytes (GstCtfPb * pb, guint field, const void *data, gsize len)
{
  tag (pb, field, GST_CTF_PB_LEN);
  gst_ctf_pb_varint_raw (pb, len);
  if (len)
    g_byte_array_append (pb->out, data, (guint) len);
}

void
gst_ctf_pb_string (GstCtfPb * pb, guint field, const gchar * s)
{
  gst_ctf_pb_bytes (pb, field, s, strlen (s));
}

void
gst_ctf_pb_begin (GstCtfPb * pb, guint field)
{
  guint8 zero = 0;

  g_assert (pb->depth < GST_CTF_PB_MAX_DEPTH);
  tag (pb, field, GST_CTF_PB_LEN);
  pb->open[pb->depth++] = pb->out->len;
  g_byte_array_append (pb->out, &zero, 1);
}

void
gst_ctf_pb_end (GstCtfPb * pb)
{
  guint at, len, extra = 0, i;
  guint64 v;

  g_assert (pb->depth > 0);
  at = pb->open[--pb->depth];
  len = pb->out->len - at - 1;
  for (v = len >> 7; v; v >>= 7)
    extra++;
  if (extra) {
    g_byte_array_set_size (pb->out, pb->out->len + extra);
    memmove (pb->out->data + at + 1 + extra, pb->out->data + at + 1, len);
  }
  v = len;
  for (i = 0; i < extra; i++) {
    pb->out->data[at + i] = (guint8) (v | 0x80);
    v >>= 7;
  }
  pb->out->data[at + extra] = (guint8) v;
}
