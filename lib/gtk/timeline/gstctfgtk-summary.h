/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a timeline draws, built while the model indexes: per lane (a CPU,
 * or a stream when the trace has no CPU) the events per time bin, the
 * task each CPU runs from `sched_switch` events, and the places where the
 * tracer lost events.  The counts are a pyramid of levels per lane, each
 * level's bins twice as wide as the one below, from the trace's first
 * event on; a level keeps its non-empty bins only (8 bytes each: index,
 * count).  The finest bins are 64 ns wide until the bins of all lanes and
 * levels would take more than SUMMARY_MAX_BYTES: then the finest level is
 * dropped (the finest width doubles), so memory is bounded whatever the
 * trace's length; a coarser level is added while the coarsest has more
 * than SUMMARY_COARSE_BINS bins over the trace.  A density reads the
 * level whose bins are the widest at most a SUMMARY_SUB_BINS-th of a
 * column: at most 2 * SUMMARY_SUB_BINS bins a column (or the coarsest
 * level's), whatever the zoom.
 * Thread safe: the index thread writes, the main thread reads.  Private
 * to libgstctf-gtk.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* the finest bins at first: 1 << 6 = 64 ns */
#define SUMMARY_FINEST_SHIFT 6
/* the counts of all lanes and levels take at most this */
#define SUMMARY_MAX_BYTES (4 * 1024 * 1024)
#define SUMMARY_MAX_LEVELS 48
#define SUMMARY_COARSE_BINS 4096
/* a density's bins are at most 1/4 of a column (deep zoom below) */
#define SUMMARY_SUB_BINS 4

typedef struct _GstCtfGtkSummary GstCtfGtkSummary;

/* A time span [start, end) of a task on a CPU: @id is the thread id in a
 * CPU's spans, the CPU in a task's. */
typedef struct {
  gint64 start, end;
  gint id;
} GstCtfGtkSpan;

G_GNUC_INTERNAL GstCtfGtkSummary *_gst_ctf_gtk_summary_new (void);
G_GNUC_INTERNAL void _gst_ctf_gtk_summary_free (GstCtfGtkSummary * s);

/* index thread */
G_GNUC_INTERNAL guint _gst_ctf_gtk_summary_lane (GstCtfGtkSummary * s,
    gint cpu, const gchar * stream_name);
G_GNUC_INTERNAL void _gst_ctf_gtk_summary_add_event (GstCtfGtkSummary * s,
    guint lane, gint64 ns);
G_GNUC_INTERNAL void _gst_ctf_gtk_summary_add_switch (GstCtfGtkSummary * s,
    guint lane, gint64 ns, gint prev_tid, const gchar * prev_comm,
    gint next_tid, const gchar * next_comm);
G_GNUC_INTERNAL void _gst_ctf_gtk_summary_add_lost (GstCtfGtkSummary * s,
    guint lane, gint64 ns, guint64 count);

/* readers */
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_summary_get_range (
    GstCtfGtkSummary * s, gint64 * start, gint64 * end);
G_GNUC_INTERNAL guint _gst_ctf_gtk_summary_get_n_lanes (GstCtfGtkSummary * s);
G_GNUC_INTERNAL gchar *_gst_ctf_gtk_summary_get_lane_label (
    GstCtfGtkSummary * s, guint lane, gint * cpu);
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_summary_has_tasks (
    GstCtfGtkSummary * s);
G_GNUC_INTERNAL void _gst_ctf_gtk_summary_get_density (GstCtfGtkSummary * s,
    guint lane, gint64 start, gint64 end, guint n_columns, guint32 * counts,
    guint64 * lost);
G_GNUC_INTERNAL const gchar *_gst_ctf_gtk_summary_get_task (
    GstCtfGtkSummary * s, guint lane, gint64 ns, gint * tid);
G_GNUC_INTERNAL guint64 _gst_ctf_gtk_summary_get_n_switches (
    GstCtfGtkSummary * s);

G_GNUC_INTERNAL guint _gst_ctf_gtk_summary_get_n_tasks (GstCtfGtkSummary * s);
G_GNUC_INTERNAL const gchar *_gst_ctf_gtk_summary_get_task_info (
    GstCtfGtkSummary * s, guint i, gint * tid);
G_GNUC_INTERNAL void _gst_ctf_gtk_summary_get_task_runs (
    GstCtfGtkSummary * s, guint i, gint64 start, gint64 end,
    guint n_columns, GArray * out);
G_GNUC_INTERNAL gint _gst_ctf_gtk_summary_get_task_cpu (GstCtfGtkSummary * s,
    gint tid, gint64 ns);
G_GNUC_INTERNAL void _gst_ctf_gtk_summary_get_lane_spans (
    GstCtfGtkSummary * s, guint lane, gint64 start, gint64 end,
    guint n_columns, GArray * out);
G_GNUC_INTERNAL gint64 _gst_ctf_gtk_summary_get_resolution (
    GstCtfGtkSummary * s, gint64 start, gint64 end, guint n_columns);
G_GNUC_INTERNAL gint64 _gst_ctf_gtk_summary_get_bin_ns (GstCtfGtkSummary * s);
G_GNUC_INTERNAL guint64 _gst_ctf_gtk_summary_count_events (
    GstCtfGtkSummary * s, gint64 start, gint64 end);

G_END_DECLS
