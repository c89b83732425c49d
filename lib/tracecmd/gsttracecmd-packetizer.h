/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: trace.dat -> CTF 1.8 packets (the conversion behind the
 * `tracecmdsrc` element).
 *
 * Each ring-buffer page of each CPU of each flyrecord buffer becomes one
 * CTF packet of that CPU's stream; the packets of all streams come out in
 * `timestamp_begin` order.  What the file holds besides the pages (saved
 * cmdlines, kallsyms, printk formats, event formats' print fmt, the
 * header_page/header_event text and the trace options) is carried in the
 * TSDL `env` (small items) and in a side stream of synthetic events
 * (large items), so that nothing the file holds is lost.
 */
#pragma once

#include "gsttracecmd.h"

G_BEGIN_DECLS

/**
 * GstCtfTraceDatPacketizerFlags:
 * @GST_CTF_TRACE_DAT_PACKETIZER_NONE: default conversion
 * @GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT: name events, fields and env
 *   as lttng-modules does (`syscall_entry_openat`, `irq_softirq_entry`,
 *   `prev_tid`, env `tracer_name = "lttng-modules"`), so that tools that
 *   know LTTng kernel traces (Trace Compass) recognise the trace
 * @GST_CTF_TRACE_DAT_PACKETIZER_NO_FILE_STREAM: leave out the side stream
 *   of synthetic `tracecmd_*` events (cmdlines, kallsyms, printk formats,
 *   options, event formats)
 * @GST_CTF_TRACE_DAT_PACKETIZER_STRICT: a corrupt ring-buffer page (a
 *   commit past the page, an event past the commit, a record whose fields
 *   go past it) is an error; without this flag the page is skipped and
 *   reported by gst_ctf_trace_dat_packetizer_pop_skipped_pages(), as
 *   `trace-cmd report` goes on after such a page
 *
 * Conversion options.
 */
typedef enum {
  GST_CTF_TRACE_DAT_PACKETIZER_NONE = 0,
  GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT = 1 << 0,
  GST_CTF_TRACE_DAT_PACKETIZER_NO_FILE_STREAM = 1 << 1,
  GST_CTF_TRACE_DAT_PACKETIZER_STRICT = 1 << 2,
} GstCtfTraceDatPacketizerFlags;

/**
 * GstCtfTraceDatPacketInfo:
 * @stream_class_id: stream class of the packet (the buffer index for
 *   ring-buffer pages; the last stream class for the side stream)
 * @stream_instance_id: the CPU id (0 for the side stream)
 * @stream_name: (transfer none): interned stream name (`cpu0`,
 *   `INSTANCE-cpu1`, `tracecmd`), usable as a stream file name
 * @stream_index: rank of the stream in (stream class id, instance id)
 *   order
 * @is_file_stream: TRUE for a packet of the side stream
 * @cpu: CPU id
 * @page_index: index of the page in its CPU's data
 * @timestamp_begin: clock value (ns since the clock origin, the clock
 *   class offset not added) of the packet's beginning
 * @timestamp_end: same for its end
 * @begin_ns: @timestamp_begin + the clock class offset, in ns
 * @end_ns: @timestamp_end + the clock class offset, in ns
 * @n_events: events in the packet
 * @events_discarded: the stream's `events_discarded` counter after this
 *   packet
 * @discarded_delta: events lost right before this page: those the kernel
 *   lost (a page whose count the kernel did not store counts as 1), plus
 *   @discarded_skipped
 * @discarded_unknown: TRUE when the kernel flagged lost events without
 *   storing their number
 * @skipped: records of this page that were left out because their event
 *   id has no event format
 * @clamped: events of this page whose time was before the previous event
 *   of their CPU, given that previous time (CTF time does not go back
 *   within a stream)
 * @discarded_skipped: corrupt pages of this stream skipped right before
 *   this one (see gst_ctf_trace_dat_packetizer_pop_skipped_pages()), each
 *   counted as one discarded event in @discarded_delta
 *
 * What a packet returned by gst_ctf_trace_dat_packetizer_next() holds.
 */
typedef struct {
  guint64 stream_class_id;
  guint64 stream_instance_id;
  const gchar *stream_name;
  guint stream_index;
  gboolean is_file_stream;
  guint cpu;
  guint64 page_index;
  guint64 timestamp_begin;
  guint64 timestamp_end;
  gint64 begin_ns;
  gint64 end_ns;
  guint n_events;
  guint64 events_discarded;
  guint64 discarded_delta;
  gboolean discarded_unknown;
  guint skipped;
  guint clamped;
  guint discarded_skipped;
} GstCtfTraceDatPacketInfo;

/**
 * GstCtfTraceDatPacketizer:
 *
 * Turns an opened trace.dat file into CTF packets.  Not thread safe.
 */
typedef struct _GstCtfTraceDatPacketizer GstCtfTraceDatPacketizer;

GST_CTF_API GstCtfTraceDatPacketizer *gst_ctf_trace_dat_packetizer_new (
    GstCtfTraceDat * td, guint flags, gint64 clock_offset_ns,
    GError ** error);
GST_CTF_API void gst_ctf_trace_dat_packetizer_free (
    GstCtfTraceDatPacketizer * p);
GST_CTF_API GstCtfTraceClass *gst_ctf_trace_dat_packetizer_get_trace_class (
    GstCtfTraceDatPacketizer * p);
GST_CTF_API const gchar *gst_ctf_trace_dat_packetizer_get_metadata (
    GstCtfTraceDatPacketizer * p);
GST_CTF_API gint gst_ctf_trace_dat_packetizer_next (
    GstCtfTraceDatPacketizer * p, const guint8 ** data, gsize * size,
    GstCtfTraceDatPacketInfo * info, GError ** error);
GST_CTF_API guint gst_ctf_trace_dat_packetizer_pop_skipped_pages (
    GstCtfTraceDatPacketizer * p, GError ** first_error);
GST_CTF_API gboolean gst_ctf_trace_dat_packetizer_get_time_range (
    GstCtfTraceDatPacketizer * p, gint64 * begin_ns, gint64 * end_ns,
    GError ** error);
GST_CTF_API gboolean gst_ctf_trace_dat_packetizer_seek (
    GstCtfTraceDatPacketizer * p, gint64 ns, GError ** error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfTraceDatPacketizer,
    gst_ctf_trace_dat_packetizer_free)

G_END_DECLS
