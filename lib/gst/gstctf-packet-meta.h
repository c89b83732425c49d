/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfPacketMeta: what a reader already knows of a packet buffer.
 * Optional: every element must work without it (docs/design.md).
 */
#pragma once

#include <gst/gst.h>
#include "gstctf-version.h"

G_BEGIN_DECLS

#define GST_CTF_PACKET_META_API_TYPE (gst_ctf_packet_meta_api_get_type ())
#define GST_CTF_PACKET_META_INFO (gst_ctf_packet_meta_get_info ())

/**
 * GstCtfPacketMeta:
 * @meta: parent
 * @stream_class_id: stream class id of the packet
 * @stream_instance_id: stream instance id, or G_MAXUINT64 when the packet
 *   header has none
 * @stream_name: (nullable): interned name of the data stream file the
 *   packet came from, relative to the trace directory (e.g. `channel0_1`),
 *   or %NULL
 * @stream_index: a number identifying the stream among the trace's streams
 *   (stable for the whole trace; the order babeltrace2 gives its streams):
 *   its rank in babeltrace2's tie order for equal timestamps (stream class
 *   id, then @stream_id, then stream name), so comparing
 *   (@stream_class_id, @stream_index) orders streams as babeltrace2 does
 * @offset: byte offset of the packet in its stream file, or -1
 * @events_discarded_delta: events the tracer discarded between the
 *   previous packet of the stream and this one (0 when unknown)
 * @stream_id: the stream id babeltrace2 gives the stream (what its muxer
 *   compares after the stream class id and what its warnings print):
 *   @stream_instance_id when the stream has one, else 0, 1, 2, ... over
 *   the streams without one, in the order of their first file's path;
 *   G_MAXUINT64 when unknown.  (Added after the first version of this
 *   header.)
 * @file_path: (nullable): interned path of the file the packet's bytes
 *   were read from (ctfsrc: the stream file, so @offset is a byte offset
 *   in it), for error messages; %NULL when the packet was made rather
 *   than read (tracecmdsrc, re-encoded packets).  (Added after
 *   @stream_id; %NULL after gst_buffer_add_ctf_packet_meta().)
 * @events_discarded_unknown: the tracer flagged a loss right before this
 *   packet without storing how many events it lost (a trace.dat page
 *   whose header has the missed-events flag but no count), which
 *   @events_discarded_delta and the packet context's `events_discarded`
 *   count as 1; `ctftextsink format=trace-cmd` then prints trace-cmd's
 *   `CPU:N [EVENTS DROPPED]`.  The packet bytes cannot say it: lost when
 *   the stream goes through a file or the network.  (Added after
 *   @file_path; %FALSE after gst_buffer_add_ctf_packet_meta().)
 *
 * Describes where a packet comes from.  Copied with the buffer.
 */
typedef struct {
  GstMeta meta;
  guint64 stream_class_id;
  guint64 stream_instance_id;
  const gchar *stream_name;
  guint stream_index;
  gint64 offset;
  guint64 events_discarded_delta;
  guint64 stream_id;
  const gchar *file_path;
  gboolean events_discarded_unknown;
} GstCtfPacketMeta;

GST_CTF_API GType gst_ctf_packet_meta_api_get_type (void);
GST_CTF_API const GstMetaInfo *gst_ctf_packet_meta_get_info (void);

/**
 * gst_buffer_add_ctf_packet_meta:
 * @buffer: a packet buffer
 *
 * Returns: (transfer none): the new meta, zero-filled except
 *   @stream_instance_id and @stream_id (G_MAXUINT64) and @offset (-1)
 */
GST_CTF_API GstCtfPacketMeta *gst_buffer_add_ctf_packet_meta (GstBuffer *
    buffer);

/**
 * gst_buffer_get_ctf_packet_meta:
 * @buffer: a buffer
 *
 * Returns: (transfer none) (nullable): its #GstCtfPacketMeta
 */
#define gst_buffer_get_ctf_packet_meta(b) \
  ((GstCtfPacketMeta *) gst_buffer_get_meta ((b), GST_CTF_PACKET_META_API_TYPE))

G_END_DECLS
