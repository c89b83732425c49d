/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: LTTng 0.x trace -> CTF 1.8 packets (the conversion behind the
 * `lttng0src` element).
 *
 * Each sub-buffer of each tracefile becomes one CTF packet of that
 * tracefile's stream (one stream class per channel); the packets of all
 * streams come out in `timestamp_begin` order.  The metadata channel is
 * a stream like the others: its `core_marker_id` and `core_marker_format`
 * events are kept, so the marker descriptions are in the output.
 */
#pragma once

#include "gstlttng0.h"
#include "gstctf-model.h"

G_BEGIN_DECLS

/**
 * GstCtfLttng0PacketInfo:
 * @stream_class_id: stream class of the packet (the channel's rank,
 *   `metadata` = 0)
 * @stream_instance_id: the tracefile's rank in the trace (unique per
 *   stream)
 * @stream_name: (transfer none): the tracefile name (`kernel_0`), usable
 *   as a stream file name
 * @stream_index: rank of the stream (same as @stream_instance_id)
 * @channel: (transfer none): the channel name
 * @cpu: the CPU number of the tracefile (`cpu_id` in the packet context)
 * @subbuf_index: rank of the sub-buffer in its tracefile (time order)
 * @file_offset: byte offset of the sub-buffer in its tracefile
 * @timestamp_begin: clock value of the packet's beginning (the
 *   sub-buffer's cycle_count_begin, not before the stream's previous
 *   packet)
 * @timestamp_end: clock value of its last event (@timestamp_begin when
 *   it has none)
 * @begin_ns: @timestamp_begin in ns since the Unix epoch
 * @end_ns: @timestamp_end in ns since the Unix epoch
 * @n_events: events in the packet
 * @events_discarded: the stream's count of lost events so far (the
 *   sub-buffer header's events_lost, widened past 32 bits)
 * @discarded_delta: events lost since the stream's previous packet
 * @corrupt_delta: sub-buffers the tracer counted as corrupt since the
 *   stream's previous packet
 * @skipped: events of the sub-buffer left out (unknown or unusable
 *   marker, size mismatch), plus 1 when the rest of the sub-buffer was
 *   left out
 * @clamped: events whose time was before the previous event of their
 *   stream, given that previous time
 * @problem: (nullable) (transfer none): the first thing left out of this
 *   sub-buffer, with the file and byte offset; valid until the next call
 *
 * What a packet returned by gst_ctf_lttng0_packetizer_next() holds.
 */
typedef struct {
  guint64 stream_class_id;
  guint64 stream_instance_id;
  const gchar *stream_name;
  guint stream_index;
  const gchar *channel;
  guint cpu;
  guint64 subbuf_index;
  guint64 file_offset;
  guint64 timestamp_begin;
  guint64 timestamp_end;
  gint64 begin_ns;
  gint64 end_ns;
  guint n_events;
  guint64 events_discarded;
  guint64 discarded_delta;
  guint64 corrupt_delta;
  guint skipped;
  guint clamped;
  const gchar *problem;
} GstCtfLttng0PacketInfo;

/**
 * GstCtfLttng0Packetizer:
 *
 * Turns an opened LTTng 0.x trace into CTF packets.  Not thread safe.
 */
typedef struct _GstCtfLttng0Packetizer GstCtfLttng0Packetizer;

/**
 * gst_ctf_lttng0_packetizer_new: (skip)
 * @t: an opened trace (a reference is kept)
 * @error: return location for a %GST_CTF_ERROR (errors of the TSDL writer
 *   and parser or of the packet writer when the model cannot be written)
 *
 * Builds the CTF trace class of the trace and one packet writer per
 * tracefile.
 *
 * Returns: (transfer full) (nullable): a packetizer, or %NULL
 */
GST_CTF_API GstCtfLttng0Packetizer *gst_ctf_lttng0_packetizer_new (
    GstCtfLttng0Trace * t, GError ** error);

/**
 * gst_ctf_lttng0_packetizer_free:
 * @p: (transfer full) (nullable): a packetizer
 */
GST_CTF_API void gst_ctf_lttng0_packetizer_free (GstCtfLttng0Packetizer * p);

/**
 * gst_ctf_lttng0_packetizer_get_trace_class:
 * @p: a packetizer
 *
 * Returns: (transfer none): the trace class of the packets (parsed from
 *   the metadata text)
 */
GST_CTF_API GstCtfTraceClass *gst_ctf_lttng0_packetizer_get_trace_class (
    GstCtfLttng0Packetizer * p);

/**
 * gst_ctf_lttng0_packetizer_get_metadata:
 * @p: a packetizer
 *
 * Returns: (transfer none): the TSDL metadata text (CTF 1.8 §7)
 */
GST_CTF_API const gchar *gst_ctf_lttng0_packetizer_get_metadata (
    GstCtfLttng0Packetizer * p);

/**
 * gst_ctf_lttng0_packetizer_next:
 * @p: a packetizer
 * @data: (out) (transfer none) (array length=size): the packet's bytes,
 *   valid until the next call
 * @size: (out): its size in bytes
 * @info: (out caller-allocates): what the packet holds
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_PACKET
 *   when an event cannot be written)
 *
 * Makes the packet of the sub-buffer with the smallest `timestamp_begin`
 * over all tracefiles (ties: the lower stream rank).  Corrupt data is
 * not an error: what cannot be read is left out and said in
 * @info->problem.
 *
 * Returns: 1 with a packet, 0 at the end, -1 on error
 */
GST_CTF_API gint gst_ctf_lttng0_packetizer_next (GstCtfLttng0Packetizer * p,
    const guint8 ** data, gsize * size, GstCtfLttng0PacketInfo * info,
    GError ** error);

GST_CTF_API gboolean gst_ctf_lttng0_packetizer_seek (
    GstCtfLttng0Packetizer * p, gint64 ns, GError ** error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfLttng0Packetizer,
    gst_ctf_lttng0_packetizer_free)

G_END_DECLS
