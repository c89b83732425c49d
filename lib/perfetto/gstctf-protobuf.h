/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small protocol buffers encoder: the wire format's varints (int32 and
 * int64 fields as 64-bit two's complement, no zigzag), fixed-size doubles
 * and length-delimited fields (strings, bytes, nested messages, packed
 * repeated varints), appended to a GByteArray.  Enough to write
 * Perfetto's TracePackets (https://protobuf.dev/programming-guides/encoding/).
 *
 * Bytes are written in place (@out grows by doubling), and the field
 * writers are inline: a field costs a few stores.  Nested messages are
 * opened with gst_ctf_pb_begin() and closed with gst_ctf_pb_end(): one
 * length byte is reserved and the message is moved when its length needs
 * more, so a small message costs no copy.
 */
#pragma once

#include <string.h>
#include <glib.h>

G_BEGIN_DECLS

/* Wire types (protobuf encoding, "Message Structure"). */
#define GST_CTF_PB_VARINT 0
#define GST_CTF_PB_I64 1
#define GST_CTF_PB_LEN 2

#define GST_CTF_PB_MAX_DEPTH 16

typedef struct {
  GByteArray *out;              /* (transfer none) */
  guint cap;                    /* bytes @out can hold without growing */
  guint depth;
  guint open[GST_CTF_PB_MAX_DEPTH];     /* offset of each reserved length byte */
} GstCtfPb;

void gst_ctf_pb_init (GstCtfPb * pb, GByteArray * out);
guint8 *gst_ctf_pb_grow (GstCtfPb * pb, gsize n);
void gst_ctf_pb_double (GstCtfPb * pb, guint field, gdouble v);
void gst_ctf_pb_bytes (GstCtfPb * pb, guint field, const void *data,
    gsize len);
void gst_ctf_pb_end_long (GstCtfPb * pb, guint at, guint len);

/* Room for @n more bytes at the end of @pb->out; where they go. */
static inline guint8 *
gst_ctf_pb_reserve (GstCtfPb * pb, gsize n)
{
  if (G_UNLIKELY (pb->out->len + n > pb->cap))
    return gst_ctf_pb_grow (pb, n);
  return pb->out->data + pb->out->len;
}

static inline guint
gst_ctf_pb_put_varint (guint8 * p, guint64 v)
{
  guint n = 0;

  while (v >= 0x80) {
    p[n++] = (guint8) (v | 0x80);
    v >>= 7;
  }
  p[n++] = (guint8) v;
  return n;
}

static inline void
gst_ctf_pb_varint_raw (GstCtfPb * pb, guint64 v)
{
  guint8 *p = gst_ctf_pb_reserve (pb, 10);

  pb->out->len += gst_ctf_pb_put_varint (p, v);
}

static inline void
gst_ctf_pb_uint (GstCtfPb * pb, guint field, guint64 v)
{
  guint8 *p = gst_ctf_pb_reserve (pb, 20);
  guint n = gst_ctf_pb_put_varint (p, ((guint64) field << 3) |
      GST_CTF_PB_VARINT);

  n += gst_ctf_pb_put_varint (p + n, v);
  pb->out->len += n;
}

/* int32 and int64 fields: a negative value is its 64-bit two's complement
 * (10 bytes), as protobuf encodes them. */
static inline void
gst_ctf_pb_int (GstCtfPb * pb, guint field, gint64 v)
{
  gst_ctf_pb_uint (pb, field, (guint64) v);
}

static inline void
gst_ctf_pb_bool (GstCtfPb * pb, guint field, gboolean v)
{
  gst_ctf_pb_uint (pb, field, v ? 1 : 0);
}

static inline void
gst_ctf_pb_string (GstCtfPb * pb, guint field, const gchar * s)
{
  gst_ctf_pb_bytes (pb, field, s, strlen (s));
}

static inline void
gst_ctf_pb_begin (GstCtfPb * pb, guint field)
{
  guint8 *p = gst_ctf_pb_reserve (pb, 11);
  guint n = gst_ctf_pb_put_varint (p, ((guint64) field << 3) |
      GST_CTF_PB_LEN);

  g_assert (pb->depth < GST_CTF_PB_MAX_DEPTH);
  p[n] = 0;
  pb->open[pb->depth++] = pb->out->len + n;
  pb->out->len += n + 1;
}

static inline void
gst_ctf_pb_end (GstCtfPb * pb)
{
  guint at, len;

  g_assert (pb->depth > 0);
  at = pb->open[--pb->depth];
  len = pb->out->len - at - 1;
  if (G_LIKELY (len < 0x80))
    pb->out->data[at] = (guint8) len;
  else
    gst_ctf_pb_end_long (pb, at, len);
}

G_END_DECLS
