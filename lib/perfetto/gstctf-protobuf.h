/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small protocol buffers encoder: the wire format's varints, zigzag-free
 * signed varints (int32/int64 fields), fixed-size doubles and
 * length-delimited fields (strings, bytes, nested messages, packed
 * repeated varints), appended to a GByteArray.  Enough to write
 * Perfetto's TracePackets (https://protobuf.dev/programming-guides/encoding/).
 *
 * Bytes are written in place (@out grows by doubling), so a field costs
 * no call into GLib.  Nested messages are opened with gst_ctf_pb_begin() and closed with
 * gst_ctf_pb_end(): one length byte is reserved and the message is moved
 * when its length needs more, so a small message costs no copy.
 */
#pragma once

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
void gst_ctf_pb_varint_raw (GstCtfPb * pb, guint64 v);
void gst_ctf_pb_uint (GstCtfPb * pb, guint field, guint64 v);
void gst_ctf_pb_int (GstCtfPb * pb, guint field, gint64 v);
void gst_ctf_pb_bool (GstCtfPb * pb, guint field, gboolean v);
void gst_ctf_pb_double (GstCtfPb * pb, guint field, gdouble v);
void gst_ctf_pb_bytes (GstCtfPb * pb, guint field, const void *data,
    gsize len);
void gst_ctf_pb_string (GstCtfPb * pb, guint field, const gchar * s);
void gst_ctf_pb_begin (GstCtfPb * pb, guint field);
void gst_ctf_pb_end (GstCtfPb * pb);

G_END_DECLS
