/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: one packet source for every trace on disk: a CTF 1.8/2 trace
 * directory (or a directory above several, read merged), a trace-cmd
 * trace.dat file or an LTTng 0.x trace directory.  The packets come in
 * the order the matching source element pushes them (ctfsrc:
 * gstctf-trace-source.h; tracecmdsrc: the trace.dat packetizer;
 * lttng0src: the LTTng 0.x packetizer), as CTF 1.8 packets of
 * gst_ctf_packet_source_get_trace_class().
 *
 * The GObject-free readers (GstCtf.EventReader, the GTK event model)
 * open their input through this: what kind of input a path is, and how
 * each kind is read, seeks and rewinds, is decided here only.
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GstCtfPacketSource:
 *
 * An opened trace on disk giving CTF packets in time order.  Not thread
 * safe.
 */
typedef struct _GstCtfPacketSource GstCtfPacketSource;

/**
 * GstCtfPacketSourceKind:
 * @GST_CTF_PACKET_SOURCE_CTF: CTF traces (ctfsrc)
 * @GST_CTF_PACKET_SOURCE_TRACE_DAT: a trace.dat file (tracecmdsrc)
 * @GST_CTF_PACKET_SOURCE_LTTNG0: an LTTng 0.x trace (lttng0src)
 *
 * What gst_ctf_packet_source_open() found at the path.
 */
typedef enum {
  GST_CTF_PACKET_SOURCE_CTF,
  GST_CTF_PACKET_SOURCE_TRACE_DAT,
  GST_CTF_PACKET_SOURCE_LTTNG0,
} GstCtfPacketSourceKind;

/**
 * GstCtfPacketSourceFlags:
 * @GST_CTF_PACKET_SOURCE_FLAGS_NONE: nothing special
 * @GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM: a trace.dat's side stream of
 *   synthetic `tracecmd_*` events (the file's description) is left out:
 *   only the records `trace-cmd report` prints
 *
 * Options of gst_ctf_packet_source_open().
 */
typedef enum {
  GST_CTF_PACKET_SOURCE_FLAGS_NONE = 0,
  GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM = 1 << 0,
} GstCtfPacketSourceFlags;

/**
 * GstCtfPacketSourcePacket:
 * @bytes: (transfer full): the whole CTF packet
 * @stream_class_id: its stream class id in
 *   gst_ctf_packet_source_get_trace_class()
 * @rank: the stream's rank for equal timestamps, unique over all streams
 *   (#GstCtfPacketMeta.stream_index)
 * @stream_id: babeltrace2's stream ID, -1 for none
 * @stream_name: (transfer none): interned name of the stream
 * @offset: byte offset of the packet in its file, -1 when it has none (a
 *   trace.dat page becomes a packet of other bytes)
 *
 * One packet given by gst_ctf_packet_source_next().
 */
typedef struct {
  GBytes *bytes;
  guint64 stream_class_id;
  gint64 rank;
  gint64 stream_id;
  const gchar *stream_name;
  gint64 offset;
} GstCtfPacketSourcePacket;

/**
 * gst_ctf_packet_source_open: (skip)
 * @path: (type filename): a CTF trace directory, its `metadata` file or a
 *   directory above one or several traces; a trace.dat file (any other
 *   regular file); an LTTng 0.x trace directory (`metadata_N` tracefiles,
 *   no `metadata`)
 * @flags: options
 * @error: return location for a %GST_CTF_ERROR: the errors of
 *   gst_ctf_trace_source_open(), gst_ctf_trace_dat_open() and
 *   gst_ctf_lttng0_trace_open() and of their packetizers
 *
 * Opens the input.  A trace.dat is read strictly: a corrupt page is an
 * error, not a page left out (a reader has no warning channel).
 *
 * Returns: (transfer full) (nullable): the source, or %NULL
 */
GST_CTF_API GstCtfPacketSource *gst_ctf_packet_source_open (const gchar *
    path, GstCtfPacketSourceFlags flags, GError ** error);

GST_CTF_API void gst_ctf_packet_source_free (GstCtfPacketSource * s);

/**
 * gst_ctf_packet_source_get_kind:
 * @s: a source
 *
 * Returns: what was opened
 */
GST_CTF_API GstCtfPacketSourceKind gst_ctf_packet_source_get_kind (
    GstCtfPacketSource * s);

/**
 * gst_ctf_packet_source_get_trace_class:
 * @s: a source
 *
 * Returns: (transfer none): the trace class of the packets
 */
GST_CTF_API GstCtfTraceClass *gst_ctf_packet_source_get_trace_class (
    GstCtfPacketSource * s);

/**
 * gst_ctf_packet_source_can_seek:
 * @s: a source
 *
 * Returns: whether gst_ctf_packet_source_seek() works (every kind today;
 *   an LTTng 0.x trace has no index of times: its seek reads the
 *   tracefiles again from their start, leaving out the packets before the
 *   time without decoding their events)
 */
GST_CTF_API gboolean gst_ctf_packet_source_can_seek (GstCtfPacketSource * s);

/**
 * gst_ctf_packet_source_seek: (skip)
 * @s: a source
 * @ns: a time, ns from the clock origin (as #GstCtfMergeItem.ns)
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_IO when
 *   the source cannot seek; the trace.dat packetizer's seek errors, the
 *   LTTng 0.x packetizer's errors)
 *
 * Makes the next packets hold every event at or after @ns (and some
 * before it, for the reader to skip).
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_packet_source_seek (GstCtfPacketSource * s,
    gint64 ns, GError ** error);

/**
 * gst_ctf_packet_source_rewind: (skip)
 * @s: a source
 * @error: return location for a %GST_CTF_ERROR
 *
 * Back to the first packet (any input, also one that cannot seek).
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_packet_source_rewind (GstCtfPacketSource * s,
    GError ** error);

/**
 * gst_ctf_packet_source_next: (skip)
 * @s: a source
 * @packet: (out caller-allocates): the next packet (unref its @bytes)
 * @error: return location for a %GST_CTF_ERROR (a corrupt packet, page or
 *   stream file)
 *
 * Returns: 1 with @packet filled, 0 at the end, -1 with @error set
 */
GST_CTF_API gint gst_ctf_packet_source_next (GstCtfPacketSource * s,
    GstCtfPacketSourcePacket * packet, GError ** error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfPacketSource, gst_ctf_packet_source_free)

G_END_DECLS
