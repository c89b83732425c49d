/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the LTTng 0.x trace reader (LTT trace formats 2.3 to 2.6, as
 * written by LTTng 0.x / lttd and read by LTTV, 2008-2011).
 *
 * A trace is a directory of tracefiles named `<channel>_<cpu>`
 * (`flight-<channel>_<cpu>` for flight-recorder channels).  Each
 * tracefile is a sequence of sub-buffers; each sub-buffer starts with a
 * 68-byte header (cycle counts, magic, version, frequency, sizes, lost
 * event counts) followed by events with a 32-bit header (5-bit event id,
 * 27-bit timestamp, extended forms).  The `metadata_N` tracefiles
 * describe the events: `core_marker_id` (channel, marker name, id, C type
 * sizes, alignment) and `core_marker_format` (channel, marker name,
 * format string) events.  Opening a trace indexes every sub-buffer and
 * reads the whole metadata channel, so every event class is known
 * before the first event is read.
 */
#pragma once

#include <glib-object.h>
#include "gstctf-version.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GstCtfLttng0Trace:
 *
 * An opened LTTng 0.x trace directory (refcounted, immutable once
 * opened).  The tracefiles are mapped read-only.
 */
typedef struct _GstCtfLttng0Trace GstCtfLttng0Trace;

/**
 * gst_ctf_lttng0_trace_open:
 * @dir: the trace directory
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_IO when
 *   the directory or a tracefile cannot be read; %GST_CTF_ERROR_LTTNG0
 *   when no `metadata_N` tracefile is there, a format version other than
 *   2.3 to 2.6 is found (the message names it), the metadata tracefiles
 *   are corrupt, or the tracefiles disagree on byte order or version
 *
 * Opens the trace: checks each tracefile's first sub-buffer header,
 * indexes its sub-buffers and reads the markers from the metadata
 * channel.  Problems that leave the rest readable (a data tracefile
 * shorter than one header, a sub-buffer that runs past the end of its
 * file, a marker format that does not parse, an id described twice
 * differently) are not errors: the part concerned is left out and a
 * warning is kept (gst_ctf_lttng0_trace_get_warnings()).
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL
 */
GST_CTF_API GstCtfLttng0Trace *gst_ctf_lttng0_trace_open (const gchar * dir,
    GError ** error);

/**
 * gst_ctf_lttng0_trace_ref:
 * @t: a trace
 *
 * Returns: (transfer full): @t, with one more reference
 */
GST_CTF_API GstCtfLttng0Trace *gst_ctf_lttng0_trace_ref (GstCtfLttng0Trace *
    t);

/**
 * gst_ctf_lttng0_trace_unref:
 * @t: (transfer full) (nullable): a trace
 *
 * Drops a reference; the last one unmaps the tracefiles.
 */
GST_CTF_API void gst_ctf_lttng0_trace_unref (GstCtfLttng0Trace * t);

GST_CTF_API GType gst_ctf_lttng0_trace_get_type (void);
#define GST_CTF_TYPE_LTTNG0_TRACE (gst_ctf_lttng0_trace_get_type ())

/**
 * gst_ctf_lttng0_trace_get_version:
 * @t: a trace
 * @major: (out) (optional): format major version (2)
 * @minor: (out) (optional): format minor version (3 to 6)
 */
GST_CTF_API void gst_ctf_lttng0_trace_get_version (GstCtfLttng0Trace * t,
    guint * major, guint * minor);

/**
 * gst_ctf_lttng0_trace_get_n_tracefiles:
 * @t: a trace
 *
 * Returns: the number of tracefiles read (those left out with a warning
 *   are not counted)
 */
GST_CTF_API guint gst_ctf_lttng0_trace_get_n_tracefiles (GstCtfLttng0Trace *
    t);

/**
 * gst_ctf_lttng0_trace_get_warnings:
 * @t: a trace
 *
 * Returns: (transfer none) (array zero-terminated=1): what opening the
 *   trace left out, one message per problem (file and byte offset
 *   included)
 */
GST_CTF_API const gchar *const *gst_ctf_lttng0_trace_get_warnings (
    GstCtfLttng0Trace * t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfLttng0Trace, gst_ctf_lttng0_trace_unref)

G_END_DECLS
