/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: babeltrace2 `sink.text.pretty`-compatible text formatting.
 *
 * One line per event, byte-identical to what `babeltrace2 TRACE` prints
 * with the default options (babeltrace2 2.1.2 by default, 2.0.4 on
 * request), plus the discarded events / packets warnings it prints on
 * stderr.
 */
#pragma once

#include <stdio.h>
#include "gstctf-model.h"
#include "gstctf-reader.h"

G_BEGIN_DECLS

/**
 * GstCtfBabeltraceVersion:
 * @GST_CTF_BABELTRACE_2_1: babeltrace2 2.1 (checked against 2.1.2): an
 *   enumeration value with several labels prints them as `{ "A", "B" }`,
 *   in the order of babeltrace2's label table, and the discarded items
 *   warnings name the trace `UID`
 * @GST_CTF_BABELTRACE_2_0: babeltrace2 2.0 (checked against 2.0.4, what
 *   Debian 12 ships): several labels print as `"A", "B"`, in the order
 *   they first appear in the enumeration, and the warnings name the trace
 *   `UUID`
 *
 * Which babeltrace2 release's `sink.text.pretty` output the formatter
 * reproduces.  (babeltrace2 2.0 also prints an empty string as what its
 * recycled event object last held; see
 * gst_ctf_text_formatter_set_event_object().)
 */
typedef enum {
  GST_CTF_BABELTRACE_2_1 = 0,
  GST_CTF_BABELTRACE_2_0 = 1,
} GstCtfBabeltraceVersion;

/**
 * GstCtfTextOptions:
 * @clock_cycles: print timestamps in clock cycles (`--clock-cycles`)
 * @clock_date: print the date before the time (`--clock-date`)
 * @clock_gmt: print UTC time instead of local time (`--clock-gmt`)
 * @clock_seconds: print `SEC.NS` instead of `HH:MM:SS.NS`
 *   (`--clock-seconds`)
 * @no_delta: do not print the `(+S.NS)` delta (`--no-delta`)
 * @name_header: print header field names (`timestamp = `, `name = `)
 * @name_scope: print scope names (`stream.packet.context = `, ...)
 * @name_context: print field names of the context scopes (default TRUE)
 * @name_payload: print field names of the payload (default TRUE)
 * @field_trace: print the trace name
 * @field_trace_hostname: print the `hostname` env entry (default TRUE)
 * @field_trace_domain: print the `domain` env entry
 * @field_trace_procname: print the `procname` env entry (default TRUE)
 * @field_trace_vpid: print the `vpid` env entry (default TRUE)
 * @field_loglevel: print the event class log level
 * @field_emf: print the event class EMF URI
 * @babeltrace_version: the babeltrace2 release whose output is reproduced
 *   (default %GST_CTF_BABELTRACE_2_1)
 * @clock_offset_s: seconds added to every clock class's offset
 *   (`--clock-offset`; default 0): the printed times move, not the deltas
 * @clock_offset_ns: nanoseconds added likewise (`--clock-offset-ns`)
 * @color: colour the text with ANSI escape sequences as babeltrace2
 *   `--color=always` does (bold values, cyan member names, yellow times,
 *   magenta event names; the warnings in yellow)
 * @json_lines: format each event as one JSON object on one line (JSON
 *   Lines) instead of babeltrace2's text: `time_ns` (ns from the clock's
 *   origin), `cycles`, `clock`, `name`, `trace` (name and environment),
 *   `stream` (`class_id`, `id`, `name`, `path`), `cpu`, then the scopes
 *   `packet_context`, `event_header`, `stream_event_context`,
 *   `event_context` and `payload` as objects; the options above do not
 *   apply (docs/user-guide.md describes the values)
 *
 * The main switches of babeltrace2's `sink.text.pretty` component
 * (babeltrace2-sink.text.pretty(7)).  Initialise with
 * gst_ctf_text_options_init() to get babeltrace2's defaults.
 */
typedef struct {
  gboolean clock_cycles;
  gboolean clock_date;
  gboolean clock_gmt;
  gboolean clock_seconds;
  gboolean no_delta;
  gboolean name_header;
  gboolean name_scope;
  gboolean name_context;
  gboolean name_payload;
  gboolean field_trace;
  gboolean field_trace_hostname;
  gboolean field_trace_domain;
  gboolean field_trace_procname;
  gboolean field_trace_vpid;
  gboolean field_loglevel;
  gboolean field_emf;
  GstCtfBabeltraceVersion babeltrace_version;
  gboolean json_lines;
  gint64 clock_offset_s;
  gint64 clock_offset_ns;
  gboolean color;
} GstCtfTextOptions;

/**
 * gst_ctf_text_options_init:
 * @opts: (out caller-allocates): options to fill
 *
 * Sets @opts to babeltrace2's `sink.text.pretty` defaults.
 */
GST_CTF_API void gst_ctf_text_options_init (GstCtfTextOptions * opts);

/**
 * GstCtfTextFormatter:
 *
 * Formats events of one trace class as text.  Keeps the previous event's
 * timestamp for the `(+S.NS)` delta, like babeltrace2 does across all
 * the events it prints.  Not thread safe; allocates nothing per event.
 */
typedef struct _GstCtfTextFormatter GstCtfTextFormatter;

/**
 * gst_ctf_text_formatter_new: (skip)
 * @tc: the trace class whose events will be formatted (a reference is
 *   taken)
 * @opts: (nullable): options, %NULL for the defaults
 *
 * Returns: (transfer full): a new formatter
 */
GST_CTF_API GstCtfTextFormatter *gst_ctf_text_formatter_new (
    GstCtfTraceClass * tc, const GstCtfTextOptions * opts);

GST_CTF_API void gst_ctf_text_formatter_free (GstCtfTextFormatter * f);

/**
 * gst_ctf_text_formatter_set_trace_name:
 * @f: the formatter
 * @name: (nullable): the trace name babeltrace2 would use (printed with
 *   the `trace` field and in the discarded items warnings)
 */
GST_CTF_API void gst_ctf_text_formatter_set_trace_name (
    GstCtfTextFormatter * f, const gchar * name);

/**
 * gst_ctf_text_formatter_reset_delta:
 * @f: the formatter
 *
 * Forgets the previous timestamp: the next event prints `(+?.?????????)`.
 */
GST_CTF_API void gst_ctf_text_formatter_reset_delta (GstCtfTextFormatter * f);

/**
 * gst_ctf_text_formatter_format_event:
 * @f: the formatter
 * @it: a recording iterator (gst_ctf_event_iter_set_recording()) positioned
 *   on an event (after a successful gst_ctf_event_iter_next())
 * @out: string the line is appended to, newline included
 *
 * Appends the event as babeltrace2 `sink.text.pretty` prints it:
 * `[HH:MM:SS.NNNNNNNNN] (+S.NNNNNNNNN) host name: { packet ctx },
 * { common ctx }, { specific ctx }, { payload }`.  Fields that babeltrace2
 * does not expose (clock-mapped integers, the packet context fields with a
 * meaning such as `packet_size` or `timestamp_begin`, the event header)
 * are left out the same way.  Updates the previous timestamp.
 */
GST_CTF_API void gst_ctf_text_formatter_format_event (GstCtfTextFormatter * f,
    GstCtfEventIter * it, GString * out);

/**
 * gst_ctf_text_formatter_set_stream:
 * @f: the formatter
 * @stream_id: the stream's id (babeltrace2's stream ID), -1 when unknown
 * @name: (nullable): the stream's name (its data stream file's name)
 * @path: (nullable): the path of the file its packets were read from
 *
 * Says which stream the next events come from: the `stream` member of
 * the JSON Lines output (#GstCtfTextOptions.json_lines) gives them.
 */
GST_CTF_API void gst_ctf_text_formatter_set_stream (GstCtfTextFormatter * f,
    gint64 stream_id, const gchar * name, const gchar * path);

/**
 * gst_ctf_text_formatter_set_event_object:
 * @f: the formatter
 * @object: babeltrace2 event object number for the next event, -1 for
 *   none
 *
 * babeltrace2 2.0 recycles event objects (one pool per event class) and
 * does not clear a text sequence field whose length is 0: it prints what
 * the recycled object held.  When the caller knows which object the next
 * event would use (gst_ctf_event_merge_next() simulates babeltrace2's
 * graph), the formatter reproduces that output.
 */
GST_CTF_API void gst_ctf_text_formatter_set_event_object (
    GstCtfTextFormatter * f, gint64 object);

/**
 * GstCtfTextDelta:
 * @have_ns: whether @ns is set
 * @ns: time of the last printed event with a clock, ns from the origin
 * @have_cycles: whether @cycles is set
 * @cycles: clock value of that event (for `--clock-cycles`)
 *
 * What the `(+S.NS)` delta of the next event is computed from.
 */
typedef struct {
  gboolean have_ns;
  gint64 ns;
  gboolean have_cycles;
  guint64 cycles;
} GstCtfTextDelta;

/**
 * GstCtfTextLine:
 * @delta_at: where the `(+S.NS)` delta text goes: a byte offset from the
 *   start of the line, or -1 when the line has none (no clock, or the
 *   `no_delta` option)
 * @has_clock: whether the event's stream class has a default clock (only
 *   such events print a time and move the delta state)
 * @has_ns: whether @ns is valid (the clock value converts to ns)
 * @ns: the event's time, ns from the clock origin
 * @cycles: the event's clock value, cycles
 *
 * A line formatted without its delta by
 * gst_ctf_text_formatter_format_event_line(), and what the delta is
 * computed from.
 */
typedef struct {
  gssize delta_at;
  gboolean has_clock;
  gboolean has_ns;
  gint64 ns;
  guint64 cycles;
} GstCtfTextLine;

/**
 * gst_ctf_text_formatter_format_event_line: (skip)
 * @f: the formatter
 * @it: a recording iterator positioned on an event
 * @out: string the line is appended to, newline included
 * @line: (out caller-allocates): where the delta goes, and the event's time
 *
 * Appends the line gst_ctf_text_formatter_format_event() would append,
 * without the text of its delta (`+S.NNNNNNNNN` between the parentheses,
 * or after `delta = ` with the `name_header` option), and leaves the
 * formatter's delta state alone.  So the lines of several streams can be
 * made on several threads, each stream in its own order, and the deltas
 * put in when the lines are merged
 * (gst_ctf_text_formatter_append_delta()).
 */
GST_CTF_API void gst_ctf_text_formatter_format_event_line (
    GstCtfTextFormatter * f, GstCtfEventIter * it, GString * out,
    GstCtfTextLine * line);

/**
 * gst_ctf_text_formatter_append_delta: (skip)
 * @f: a formatter (only its options are read: any thread may call this
 *   while another formats with @f)
 * @out: string the delta text is appended to
 * @state: (inout): the delta state of the merged lines so far
 *   (zero-filled: none yet); moved to @line's event
 * @line: the line the delta is for
 *
 * Appends the delta text of @line (nothing when `delta_at` is -1) and
 * updates @state as formatting the event in order would have.
 */
GST_CTF_API void gst_ctf_text_formatter_append_delta (
    const GstCtfTextFormatter * f, GString * out, GstCtfTextDelta * state,
    const GstCtfTextLine * line);

/**
 * gst_ctf_text_formatter_get_delta: (skip)
 * @f: the formatter
 * @state: (out caller-allocates): what the `(+S.NS)` delta of the next
 *   event formatted by @f is computed from
 */
GST_CTF_API void gst_ctf_text_formatter_get_delta (
    const GstCtfTextFormatter * f, GstCtfTextDelta * state);

/**
 * gst_ctf_text_formatter_set_delta: (skip)
 * @f: the formatter
 * @state: a delta state, from gst_ctf_text_formatter_get_delta() of the
 *   formatter @f takes over from (the printing goes on with a new trace
 *   class: babeltrace2's deltas run across all the events it prints)
 */
GST_CTF_API void gst_ctf_text_formatter_set_delta (GstCtfTextFormatter * f,
    const GstCtfTextDelta * state);

/**
 * GstCtfDiscardedKind:
 * @GST_CTF_DISCARDED_EVENTS: events discarded by the tracer
 *   (`events_discarded` counter difference)
 * @GST_CTF_DISCARDED_PACKETS: packets lost (`packet_seq_num` gap)
 */
typedef enum {
  GST_CTF_DISCARDED_EVENTS = 0,
  GST_CTF_DISCARDED_PACKETS = 1,
} GstCtfDiscardedKind;

/**
 * gst_ctf_text_formatter_format_discarded:
 * @f: the formatter
 * @out: string the warning line is appended to, newline included
 * @kind: events or packets
 * @count: number of discarded items, %G_MAXUINT64 when unknown
 * @cc: (nullable): clock of @begin and @end; %NULL when the time range is
 *   unknown
 * @begin: beginning of the range, in cycles of @cc
 * @end: end of the range, in cycles of @cc
 * @stream_name: (nullable): stream name (babeltrace2 uses the stream file
 *   path)
 * @stream_class_id: stream class id
 * @stream_id: stream id, or -1 when the stream has none
 *
 * Appends the `WARNING: Tracer discarded N events between [...] and [...]
 * in trace "..." (UID: ...) within stream "..." (stream class ID: N,
 * stream ID: N).` line babeltrace2's pretty sink prints on stderr (`UUID`
 * with %GST_CTF_BABELTRACE_2_0).  Does
 * not touch the previous timestamp.
 */
GST_CTF_API void gst_ctf_text_formatter_format_discarded (
    GstCtfTextFormatter * f, GString * out, GstCtfDiscardedKind kind,
    guint64 count, const GstCtfClockClass * cc, guint64 begin, guint64 end,
    const gchar * stream_name, guint64 stream_class_id, gint64 stream_id);

G_END_DECLS
