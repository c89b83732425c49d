/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CTF packets -> Perfetto's native trace format (perfetto_trace.proto:
 * a `Trace` is a sequence of `TracePacket`s, field 1), one CTF packet at a
 * time, in constant memory but for what grows with the trace's threads
 * and event classes (track descriptors, interned names, the names of the
 * process tree).
 *
 * Kernel traces (env `domain = "kernel"`: LTTng kernel, tracecmdsrc)
 * become per-CPU `FtraceEventBundle`s with Perfetto's typed events where
 * it has them (gstctf-perfetto-ftrace.c); every other trace becomes
 * `TrackEvent`s on one track per thread (gstctf-perfetto-track.c).
 * Library code: used by the perfettosink element, usable without it.
 */
#pragma once

#include <glib.h>
#include "gstctf-version.h"
#include "gstctf-model.h"

G_BEGIN_DECLS

typedef struct _GstCtfPerfettoWriter GstCtfPerfettoWriter;

/**
 * gst_ctf_perfetto_writer_new: (skip)
 *
 * Returns: (transfer full): a writer without a trace class
 */
GST_CTF_API GstCtfPerfettoWriter *gst_ctf_perfetto_writer_new (void);

GST_CTF_API void gst_ctf_perfetto_writer_free (GstCtfPerfettoWriter * w);

/**
 * gst_ctf_perfetto_writer_set_trace_class: (skip)
 * @w: the writer
 * @tc: (transfer none): the trace class of the next packets (a new or a
 *   grown one: what the writer learnt of threads and names is kept)
 * @side_sc: (nullable): a stream class whose events describe the trace
 *   instead of happening in it (tracecmdsrc's `tracecmd` side stream):
 *   they never become trace events; its `tracecmd_cmdline` events name
 *   processes
 */
GST_CTF_API void gst_ctf_perfetto_writer_set_trace_class (GstCtfPerfettoWriter * w,
    GstCtfTraceClass * tc, const GstCtfStreamClass * side_sc);

/**
 * gst_ctf_perfetto_writer_write_packet: (skip)
 * @w: the writer, with a trace class
 * @data: (array length=size): one CTF packet
 * @size: its size in bytes
 * @out: whole `TracePacket`s (each a `Trace.packet` field) are appended
 *   here; on error, what was appended for this packet is removed
 * @error: a %GST_CTF_ERROR from the packet reader
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_perfetto_writer_write_packet (GstCtfPerfettoWriter * w,
    const guint8 * data, gsize size, GByteArray * out, GError ** error);

/**
 * gst_ctf_perfetto_writer_write_note: (skip)
 * @w: the writer
 * @text: what to tell (say, why the trace ends early)
 * @out: one `TracePacket` is appended: an instant event named @text on
 *   the global track "gst-ctf", at the last event's time
 */
GST_CTF_API void gst_ctf_perfetto_writer_write_note (GstCtfPerfettoWriter * w,
    const gchar * text, GByteArray * out);

/* Totals so far. */
GST_CTF_API guint64 gst_ctf_perfetto_writer_get_events (GstCtfPerfettoWriter * w);

G_END_DECLS
