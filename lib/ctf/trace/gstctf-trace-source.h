/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the packets of the CTF traces at or below a directory, in the
 * order ctfsrc pushes them, without GStreamer.
 *
 * What a reader outside a pipeline needs to give events in babeltrace2's
 * global order (gstctf-event-merge.h takes the packets in this order):
 * the traces are found and opened as babeltrace2's `source.ctf.fs` does
 * (gstctf-trace-dir.h), several traces are merged into one trace class
 * (gstctf-trace-merge.h) and the packets of all streams come in
 * `timestamp_begin` order, ties broken by babeltrace2's muxer order.
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-error.h"
#include "gstctf-index.h"
#include "gstctf-trace-dir.h"
#include "gstctf-trace-merge.h"

G_BEGIN_DECLS

/**
 * GstCtfTraceSource:
 *
 * An opened CTF trace (or several, read merged) giving its packets in
 * time order.  Not thread safe.
 */
typedef struct _GstCtfTraceSource GstCtfTraceSource;

/**
 * GstCtfSourcePacket:
 * @bytes: (transfer full): the whole packet; for several traces, with its
 *   header rewritten for the merged trace class
 * @stream_class_id: the packet's stream class id in
 *   gst_ctf_trace_source_get_trace_class()
 * @rank: the stream's rank in babeltrace2's tie order for equal
 *   timestamps, unique over all streams (#GstCtfPacketMeta.stream_index)
 * @stream_id: babeltrace2's stream ID of the packet's stream
 * @stream_name: (transfer none): interned name of the stream's first
 *   file (`traceI_NAME` when several traces are merged)
 * @offset: byte offset of the packet in its stream file
 * @entry: (transfer none): its index entry (times, sizes, counters)
 *
 * One packet given by gst_ctf_trace_source_next().
 */
typedef struct {
  GBytes *bytes;
  guint64 stream_class_id;
  guint rank;
  guint64 stream_id;
  const gchar *stream_name;
  gint64 offset;
  const GstCtfIndexEntry *entry;
} GstCtfSourcePacket;

/**
 * gst_ctf_trace_source_open: (skip)
 * @location: (type filename): a trace directory, its `metadata` file, or a
 *   directory above one or several traces
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_IO (no
 *   such file or directory, unreadable), %GST_CTF_ERROR_NO_TRACE (no trace
 *   below it), the metadata codes (TSDL or CTF 2),
 *   %GST_CTF_ERROR_PACKET (the first packet of a stream file cannot be
 *   read: babeltrace2 fails before any event then too), the codes of
 *   gst_ctf_trace_merge_new() and gst_ctf_trace_merge_check_clocks()
 *
 * Opens the traces as ctfsrc does: all the directories with one UUID are
 * one trace (LTTng rotation chunks); traces with different UUIDs are
 * merged, in babeltrace2's trace order.
 *
 * Returns: (transfer full) (nullable): the source, or %NULL
 */
GST_CTF_API GstCtfTraceSource *gst_ctf_trace_source_open (const gchar *
    location, GError ** error);

/**
 * GstCtfTraceSourceOpenFlags:
 * @GST_CTF_TRACE_SOURCE_OPEN_NONE: as gst_ctf_trace_source_open()
 * @GST_CTF_TRACE_SOURCE_OPEN_CLOCK_ERRORS: a stream file whose packet
 *   times cannot be converted (%GST_CTF_ERROR_CLOCK: a clock offset
 *   beyond 2^63 ns) fails the opening, as babeltrace2's index does
 *   (ctfsrc); without it the error comes at its place in time order
 *
 * Options of gst_ctf_trace_source_open_full().
 */
typedef enum {
  GST_CTF_TRACE_SOURCE_OPEN_NONE = 0,
  GST_CTF_TRACE_SOURCE_OPEN_CLOCK_ERRORS = 1 << 0,
} GstCtfTraceSourceOpenFlags;

/**
 * GstCtfTraceSourceFailedStage:
 * @GST_CTF_TRACE_SOURCE_FAILED_NONE: finding, reading the metadata or
 *   opening the stream files of a trace
 * @GST_CTF_TRACE_SOURCE_FAILED_FIRST_PACKET: the first packet of a stream
 *   file (or, with %GST_CTF_TRACE_SOURCE_OPEN_CLOCK_ERRORS, the times of
 *   a packet) cannot be read
 * @GST_CTF_TRACE_SOURCE_FAILED_MERGE: the traces cannot be merged
 *   (gst_ctf_trace_merge_check_clocks(), gst_ctf_trace_merge_new())
 *
 * Where gst_ctf_trace_source_open_full() failed.
 */
typedef enum {
  GST_CTF_TRACE_SOURCE_FAILED_NONE,
  GST_CTF_TRACE_SOURCE_FAILED_FIRST_PACKET,
  GST_CTF_TRACE_SOURCE_FAILED_MERGE,
} GstCtfTraceSourceFailedStage;

/**
 * GstCtfTraceSourceFailure:
 * @stage: where the opening failed
 * @n_traces: how many traces (UUIDs) were found, 0 when the search
 *   failed
 * @trace_path: (nullable): at %GST_CTF_TRACE_SOURCE_FAILED_FIRST_PACKET,
 *   the trace directory (gst_ctf_trace_source_failure_clear() frees it)
 *
 * What an application needs to word an opening error its own way.
 */
typedef struct {
  GstCtfTraceSourceFailedStage stage;
  guint n_traces;
  gchar *trace_path;
} GstCtfTraceSourceFailure;

/**
 * gst_ctf_trace_source_open_full: (skip)
 * @location: (type filename): as gst_ctf_trace_source_open()
 * @flags: options
 * @failure: (out caller-allocates) (optional): where it failed (always
 *   set; clear it with gst_ctf_trace_source_failure_clear())
 * @error: return location for a %GST_CTF_ERROR: the error as the failing
 *   step gave it, without the trace's name in front
 *
 * gst_ctf_trace_source_open() for ctfsrc: the same opening, with its
 * options, and the error left for the caller to word.
 *
 * Returns: (transfer full) (nullable): the source, or %NULL
 */
GST_CTF_API GstCtfTraceSource *gst_ctf_trace_source_open_full (const gchar *
    location, GstCtfTraceSourceOpenFlags flags,
    GstCtfTraceSourceFailure * failure, GError ** error);

/**
 * gst_ctf_trace_source_failure_clear: (skip)
 * @failure: (nullable): a failure filled by gst_ctf_trace_source_open_full()
 */
GST_CTF_API void gst_ctf_trace_source_failure_clear (
    GstCtfTraceSourceFailure * failure);

GST_CTF_API void gst_ctf_trace_source_free (GstCtfTraceSource * src);

/**
 * gst_ctf_trace_source_get_trace_class:
 * @src: a source
 *
 * Returns: (transfer none): the trace class of the packets
 */
GST_CTF_API GstCtfTraceClass *gst_ctf_trace_source_get_trace_class (
    GstCtfTraceSource * src);

/**
 * gst_ctf_trace_source_get_metadata:
 * @src: a source
 *
 * Returns: (transfer none): the TSDL text of
 *   gst_ctf_trace_source_get_trace_class()
 */
GST_CTF_API const gchar *gst_ctf_trace_source_get_metadata (
    GstCtfTraceSource * src);

/**
 * gst_ctf_trace_source_next: (skip)
 * @src: a source
 * @packet: (out caller-allocates): the next packet (unref its @bytes)
 * @error: return location for a %GST_CTF_ERROR: the error of a corrupt
 *   stream file (%GST_CTF_ERROR_PACKET, naming the file, the byte offset
 *   and what was expected), given at its place in time order, after the
 *   valid packets before it; %GST_CTF_ERROR_PACKET when a packet cannot
 *   be rewritten for the merged trace class
 *
 * The next packet over all streams: the smallest `timestamp_begin`, ties
 * to the lowest rank.
 *
 * Returns: 1 with @packet filled, 0 at the end, -1 on error (the source
 *   then gives nothing more)
 */
GST_CTF_API gint gst_ctf_trace_source_next (GstCtfTraceSource * src,
    GstCtfSourcePacket * packet, GError ** error);

/**
 * gst_ctf_trace_source_seek: (skip)
 * @src: a source
 * @ns: a time, ns from the clock origin (as #GstCtfMergeItem.ns)
 *
 * Goes back or forth so that the next packets are, in the same order as
 * from the start, those of each stream from its last packet whose
 * `timestamp_begin` is before @ns: every event at or after @ns is still
 * given (with a few before it, to be skipped by the reader).  A stream
 * whose packets have no `timestamp_begin` starts from its first packet.
 * An earlier error is forgotten (it comes again at its place).
 */
GST_CTF_API void gst_ctf_trace_source_seek (GstCtfTraceSource * src,
    gint64 ns);

/**
 * gst_ctf_trace_source_get_n_traces:
 * @src: a source
 *
 * Returns: how many traces (UUIDs) are read, merged when more than one
 */
GST_CTF_API guint gst_ctf_trace_source_get_n_traces (GstCtfTraceSource * src);

/**
 * gst_ctf_trace_source_get_trace_dir: (skip)
 * @src: a source
 * @i: a trace, below gst_ctf_trace_source_get_n_traces(), in
 *   babeltrace2's trace order (the merge's input order)
 *
 * Returns: (transfer none): its directories' streams and packets
 */
GST_CTF_API GstCtfTraceDir *gst_ctf_trace_source_get_trace_dir (
    GstCtfTraceSource * src, guint i);

/**
 * gst_ctf_trace_source_get_trace_name:
 * @src: a source
 * @i: a trace, as for gst_ctf_trace_source_get_trace_dir()
 *
 * Returns: (transfer none): babeltrace2's name of trace @i
 */
GST_CTF_API const gchar *gst_ctf_trace_source_get_trace_name (
    GstCtfTraceSource * src, guint i);

/**
 * gst_ctf_trace_source_get_merge: (skip)
 * @src: a source
 *
 * Returns: (transfer none) (nullable): the merge of several traces, %NULL
 *   for one
 */
GST_CTF_API GstCtfTraceMerge *gst_ctf_trace_source_get_merge (
    GstCtfTraceSource * src);

/**
 * gst_ctf_trace_source_get_n_streams:
 * @src: a source
 *
 * Returns: how many streams all the traces have
 */
GST_CTF_API guint gst_ctf_trace_source_get_n_streams (GstCtfTraceSource *
    src);

/**
 * gst_ctf_trace_source_get_stream: (skip)
 * @src: a source
 * @i: a stream, below gst_ctf_trace_source_get_n_streams() (trace by
 *   trace, each in its directory's stream order)
 * @trace: (out) (optional): its trace
 * @stream_class_id: (out) (optional): its stream class id in
 *   gst_ctf_trace_source_get_trace_class() (%G_MAXUINT64 when the merge
 *   has no such class)
 * @rank: (out) (optional): as #GstCtfSourcePacket.rank
 *
 * Returns: (transfer none): the stream and its packets
 */
GST_CTF_API const GstCtfStream *gst_ctf_trace_source_get_stream (
    GstCtfTraceSource * src, guint i, guint * trace,
    guint64 * stream_class_id, guint * rank);

/**
 * GstCtfSourceSlot:
 * @stream: the packet's stream (as for gst_ctf_trace_source_get_stream())
 * @index: the packet's place in the stream's packets
 * @packet: (transfer none): the packet in its stream file's mapping
 *
 * One packet given by gst_ctf_trace_source_next_packet(): where it is,
 * its bytes not taken.
 */
typedef struct {
  guint stream;
  guint index;
  const GstCtfStreamPacket *packet;
} GstCtfSourceSlot;

/**
 * gst_ctf_trace_source_next_packet: (skip)
 * @src: a source
 * @slot: (out caller-allocates): the next packet
 * @error: return location for the error of a corrupt stream file, as the
 *   stream has it (gst_ctf_trace_source_next() puts "Corrupt CTF data
 *   stream" in front); @slot->stream names the stream
 *
 * gst_ctf_trace_source_next() for a caller that makes the packet's
 * bytes itself (ctfsrc wraps the file mapping, and for merged traces
 * rewrites only the packet header): the same order, the same errors.
 *
 * Returns: 1 with @slot filled, 0 at the end, -1 on error (the source
 *   then gives nothing more until a seek)
 */
GST_CTF_API gint gst_ctf_trace_source_next_packet (GstCtfTraceSource * src,
    GstCtfSourceSlot * slot, GError ** error);

/**
 * gst_ctf_trace_source_stream_name: (skip)
 * @src: a source
 * @stream: a stream
 * @packet: one of its packets
 *
 * Returns: (transfer none): the interned name of @packet's stream file,
 *   `traceI_NAME` when several traces are merged (#GstCtfSourcePacket)
 */
GST_CTF_API const gchar *gst_ctf_trace_source_stream_name (
    GstCtfTraceSource * src, guint stream, const GstCtfStreamPacket * packet);

/**
 * gst_ctf_trace_source_find_packet_ending_at_or_after: (skip)
 * @s: a stream
 * @ns: a time, ns from the clock origin
 *
 * Packets are in `timestamp_begin` order and their ends are taken not to
 * decrease (CTF 1.8 §5.2: packets of a stream do not overlap).
 *
 * Returns: the first packet of @s whose `timestamp_end` (else
 *   `timestamp_begin`) is at or after @ns, the number of packets when
 *   none is, 0 when the packets have no times
 */
GST_CTF_API guint gst_ctf_trace_source_find_packet_ending_at_or_after (
    const GstCtfStream * s, gint64 ns);

/**
 * gst_ctf_trace_source_set_stream_range: (skip)
 * @src: a source
 * @stream: a stream (as for gst_ctf_trace_source_get_stream())
 * @first: its next packet
 * @end: its packets from @end on are left out (and its error, when it has
 *   one after them); %G_MAXUINT: none
 *
 * Moves one stream (ctfsrc's seeks and its stream-intersection); the
 * order of the next packets follows.  An earlier error is forgotten.
 */
GST_CTF_API void gst_ctf_trace_source_set_stream_range (
    GstCtfTraceSource * src, guint stream, guint first, guint end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfTraceSource, gst_ctf_trace_source_free)

G_END_DECLS
