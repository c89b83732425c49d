/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef __GST_TRACECMD_REPORT_H__
#define __GST_TRACECMD_REPORT_H__

#include "gstctf-model.h"
#include "gstctf-reader.h"

G_BEGIN_DECLS

/**
 * GstCtfTraceCmdReport:
 *
 * Prints the events of a trace that tracecmdsrc converted from a
 * trace.dat as `trace-cmd report` prints the file: a `cpus=N` line, then
 * `COMM-PID [CPU] SECS.USECS: EVENT: INFO` lines, INFO formatted by
 * libtraceevent from the event's print fmt (and libtraceevent's plugins,
 * as trace-cmd loads them).  It learns the event formats, saved cmdlines,
 * kallsyms and printk formats from the `tracecmd` side stream's packets
 * (gst_ctf_trace_cmd_report_add_side_packet()), and rebuilds each event's
 * ftrace record from its CTF values and its format (docs/design.md,
 * "trace-cmd report output").  Not thread-safe: one per consumer.
 */
typedef struct _GstCtfTraceCmdReport GstCtfTraceCmdReport;

/**
 * gst_ctf_trace_cmd_report_new: (skip)
 * @tc: the trace class of the packets (a reference is taken)
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error when @tc
 *   does not come from tracecmdsrc (no `tracer_name = "trace-cmd"` env
 *   entry, or no `tracecmd` side stream class with the event formats)
 *
 * Returns: (transfer full) (nullable): a new report printer
 */
GST_CTF_API GstCtfTraceCmdReport *gst_ctf_trace_cmd_report_new (
    GstCtfTraceClass * tc, GError ** error);

/**
 * gst_ctf_trace_cmd_report_free: (skip)
 * @r: (transfer full) (nullable): a report printer
 *
 * Frees @r, its libtraceevent handle and the plugins it loaded.
 */
GST_CTF_API void gst_ctf_trace_cmd_report_free (GstCtfTraceCmdReport * r);

/**
 * gst_ctf_trace_cmd_report_is_side_stream: (skip)
 * @r: a report printer
 * @stream_class_id: a stream class id
 *
 * Returns: whether packets of @stream_class_id are the `tracecmd` side
 *   stream's (to give to gst_ctf_trace_cmd_report_add_side_packet(), not
 *   to print)
 */
GST_CTF_API gboolean gst_ctf_trace_cmd_report_is_side_stream (
    GstCtfTraceCmdReport * r, guint64 stream_class_id);

/**
 * gst_ctf_trace_cmd_report_add_side_packet: (skip)
 * @r: a report printer, before its first gst_ctf_trace_cmd_report_format_event()
 * @data: (array length=size): one packet of the side stream
 * @size: its size in bytes
 * @error: return location for a %GST_CTF_ERROR (the packet cannot be
 *   decoded)
 *
 * Takes the `tracecmd_header`, `tracecmd_event_format`,
 * `tracecmd_cmdline`, `tracecmd_kallsym` and `tracecmd_printk` events of
 * the packet.  Side packets given after the first event was formatted (a
 * seek makes tracecmdsrc send them again) are ignored.
 *
 * Returns: %TRUE when the packet was read
 */
GST_CTF_API gboolean gst_ctf_trace_cmd_report_add_side_packet (
    GstCtfTraceCmdReport * r, const guint8 * data, gsize size,
    GError ** error);

/**
 * gst_ctf_trace_cmd_report_format_header: (skip)
 * @r: a report printer
 * @out: where the text is appended
 *
 * Appends what `trace-cmd report` prints before the events: `cpus=N`.
 */
GST_CTF_API void gst_ctf_trace_cmd_report_format_header (
    GstCtfTraceCmdReport * r, GString * out);

/**
 * gst_ctf_trace_cmd_report_note_discarded: (skip)
 * @r: a report printer
 * @stream_class_id: the stream's class id
 * @stream_id: the stream's id, as the event merge reports it
 * @count: events the tracer discarded before the stream's next event,
 *   G_MAXUINT64 when the tracer did not say how many
 *
 * Makes the next event of that stream be preceded by trace-cmd's
 * `CPU:N [COUNT EVENTS DROPPED]` line (`CPU:N [EVENTS DROPPED]` for an
 * unknown count).
 */
GST_CTF_API void gst_ctf_trace_cmd_report_note_discarded (
    GstCtfTraceCmdReport * r, guint64 stream_class_id, gint64 stream_id,
    guint64 count);

/**
 * gst_ctf_trace_cmd_report_format_event: (skip)
 * @r: a report printer
 * @it: a recording iterator positioned on the event
 * @stream_class_id: the event's stream class id
 * @stream_id: the event's stream id, as the event merge reports it
 * @ns: the event's time in ns from its clock's origin (the record time
 *   `trace-cmd report` prints)
 * @out: where lines (each ending with a newline) are appended
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error: the
 *   event's values do not fit its ftrace format, or libtraceevent's
 *   process died on it with nothing left to leave out; or a
 *   %GST_CTF_ERROR_IO error: that process could not be started
 *
 * Queues the event's line.  libtraceevent runs in a child process (it
 * crashes on some malformed print fmts, as trace-cmd report does), so
 * lines come in batches: this call appends the lines queued so far to
 * @out when the queue is full, gst_ctf_trace_cmd_report_flush() appends
 * the rest.  Events of the side stream queue nothing.
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_trace_cmd_report_format_event (
    GstCtfTraceCmdReport * r, GstCtfEventIter * it, guint64 stream_class_id,
    gint64 stream_id, gint64 ns, GString * out, GError ** error);

/**
 * gst_ctf_trace_cmd_report_flush: (skip)
 * @r: a report printer
 * @out: where the queued lines are appended, in order
 * @error: return location for an error, as for
 *   gst_ctf_trace_cmd_report_format_event()
 *
 * Appends the lines of every event queued by
 * gst_ctf_trace_cmd_report_format_event() and not appended yet: call it
 * before writing @out's text out.
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_trace_cmd_report_flush (GstCtfTraceCmdReport * r,
    GString * out, GError ** error);

G_END_DECLS

#endif
