/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a timeline draws, built while the model indexes: per lane (a CPU,
 * or a stream when the trace has no CPU) the events per time bin, the
 * task each CPU runs from `sched_switch` events, and the places where the
 * tracer lost events.  The bins cover the trace from its first event;
 * when they run out their width doubles (pairs merged), so memory stays
 * at SUMMARY_BINS counters per lane whatever the trace's length.
 * Thread safe: the index thread writes, the main thread reads.  Private
 * to libgstctf-gtk.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SUMMARY_BINS 16384

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
G_GNUC_INTERNAL gint64 _gst_ctf_gtk_summary_get_bin_ns (GstCtfGtkSummary * s);
G_GNUC_INTERNAL guint64 _gst_ctf_gtk_summary_count_events (
    GstCtfGtkSummary * s, gint64 start, gint64 end);

G_END_DECLS
