/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The clock options of the gst-ctf sources (ctfsrc, tracecmdsrc,
 * lttng0src, lttnglivesrc), as babeltrace2's `source.ctf.fs` parameters:
 * `clock-offset` (s), `clock-offset-ns`, `force-clock-class-origin-unix-
 * epoch` and `trace-name`.  They change the trace class the source
 * produces (the caps' metadata text and trace name) and its buffers' PTS,
 * so that every element after it, ctfsink included, sees the moved clock.
 */
#pragma once

#include <gst/gst.h>
#include "gstctf-model.h"

G_BEGIN_DECLS

typedef struct {
  gint64 offset_s;
  gint64 offset_ns;
  gboolean force_unix_epoch;
  gchar *trace_name;            /* (nullable) */
} GstCtfSourceClock;

/* The four properties get ids @first_prop_id .. @first_prop_id + 3. */
#define GST_CTF_SOURCE_CLOCK_N_PROPS 4

void gst_ctf_source_clock_install (GObjectClass * klass, guint first_prop_id);

/* For set_property/get_property: @rel_id = prop_id - first_prop_id (the
 * caller takes its object lock).  FALSE when @rel_id is not one of ours. */
gboolean gst_ctf_source_clock_set_property (GstCtfSourceClock * sc,
    guint rel_id, const GValue * value);
gboolean gst_ctf_source_clock_get_property (const GstCtfSourceClock * sc,
    guint rel_id, GValue * value);

void gst_ctf_source_clock_copy (GstCtfSourceClock * dst,
    const GstCtfSourceClock * src);
void gst_ctf_source_clock_clear (GstCtfSourceClock * sc);

/* Whether the clocks move (an offset or the forced origin). */
gboolean gst_ctf_source_clock_moves (const GstCtfSourceClock * sc);

/* What the offsets add to a time in ns (PTS), saturated. */
gint64 gst_ctf_source_clock_shift_ns (const GstCtfSourceClock * sc);

/* Adds the shift to @pts (GST_CLOCK_TIME_NONE stays so; clamped at 0). */
GstClockTime gst_ctf_source_clock_shift_pts (const GstCtfSourceClock * sc,
    GstClockTime pts);

/* Moves the clocks of @caps' metadata (gst_ctf_metadata_move_clocks())
 * and sets its trace name when one is given (after @hostname and a
 * slash, as babeltrace2 does, when @hostname is not NULL); @caps is made
 * writable.  FALSE with @error (naming @origin) when the metadata cannot
 * be. */
gboolean gst_ctf_source_clock_apply (const GstCtfSourceClock * sc,
    GstCaps ** caps, const gchar * hostname, const gchar * origin,
    GError ** error);

/* The `hostname` env entry of @tc when it is a string, or NULL. */
const gchar *gst_ctf_source_clock_hostname (const GstCtfTraceClass * tc);

/* The same on a metadata text alone (a source that builds its caps
 * itself); returns a new text, or NULL with @error. */
gchar *gst_ctf_source_clock_apply_metadata (const GstCtfSourceClock * sc,
    const gchar * metadata, const gchar * origin, GError ** error);

G_END_DECLS
