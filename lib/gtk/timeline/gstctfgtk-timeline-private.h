/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline's parts: the object and its API
 * (gstctfgtk-timeline.c), drawing (gstctfgtk-timeline-draw.c), input
 * (gstctfgtk-timeline-input.c).  Private to libgstctf-gtk.
 */
#pragma once

#include "gstctfgtk-timeline.h"
#include "gstctfgtk-event-model-private.h"
#include "gstctfgtk-deep-zoom.h"
#include "gstctfgtk-task.h"

G_BEGIN_DECLS

#define LABEL_W 76              /* the label column, at least */
#define LABEL_MAX_W 220         /* and at most (task labels: comm-tid) */
#define AXIS_H 22
#define LANE_H 26
#define LANE_GAP 2
#define DENSITY_H 6
#define MIN_SPAN_NS 1000        /* deepest zoom: 1 µs across the widget */
#define TASK_H 16               /* a task's row */
/* deep zoom reads at most about this many events */
#define DEEP_MAX_EVENTS (512 * 1024)

struct _GstCtfGtkTimeline {
  GtkWidget parent;

  GstCtfGtkEventModel *model;
  gulong items_handler;
  gboolean follow_all;          /* the visible range is the whole trace */
  guint64 start, end;           /* visible range */
  guint64 sel_start, sel_end;
  guint64 marker_a, marker_b;   /* G_MAXUINT64: unset */
  gdouble pointer_x;            /* last pointer position, -1: outside */
  /* drag */
  guint64 drag_start, drag_end;
  gdouble drag_x;
  gboolean selecting;
  gboolean marking;             /* Ctrl held: a click places a marker */
  gdouble zoom_scale;
  gboolean task_rows;
  GArray *row_tids;             /* gint, sorted: the tasks given rows;
                                 * NULL: every task */
  /* (gstctfgtk-timeline-tasks.c) made again when not rows_valid or the
   * summary's number of tasks is no longer rows_n_tasks */
  GArray *rows;                 /* guint: the summary's task per row */
  gboolean rows_valid;
  guint rows_n_tasks;
  gdouble label_w;              /* the label column's width, px */
  GstCtfGtkDeepZoom *deep;      /* made at the first deep zoom */
  GArray *spans;                /* GstCtfGtkSpan, drawing scratch */
  gpointer watched_adj;         /* the scrolled window's, redraws */
};

enum {
  SIGNAL_EVENT_ACTIVATED,
  N_SIGNALS
};

G_GNUC_INTERNAL extern guint _gst_ctf_gtk_timeline_signals[N_SIGNALS];

/* The range drawn (the visible range, or the whole trace); FALSE when
 * there is nothing to draw. */
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_timeline_get_range (GstCtfGtkTimeline *
    self, gint64 * start, gint64 * end);
/* Sets the visible range: at least MIN_SPAN_NS, moved back within 5% of
 * the trace's ends; one as wide as the trace shows all of it. */
G_GNUC_INTERNAL void _gst_ctf_gtk_timeline_set_range (GstCtfGtkTimeline *
    self, gint64 s, gint64 e);
/* The plot's width in pixels (the widget's, minus the labels). */
G_GNUC_INTERNAL gdouble _gst_ctf_gtk_timeline_plot_width (GstCtfGtkTimeline *
    self);
/* The top of the @i-th task row. */
G_GNUC_INTERNAL gdouble _gst_ctf_gtk_timeline_task_row_y (GstCtfGtkTimeline *
    self, guint i);
G_GNUC_INTERNAL void _gst_ctf_gtk_timeline_notify_row_tids (
    GstCtfGtkTimeline * self);

/* Rows per task (gstctfgtk-timeline-tasks.c): their number (0 without
 * #GstCtfGtkTimeline:task-rows), the summary's task of row @row
 * (G_MAXUINT: none), the label column's width in px (LABEL_W, wider for
 * the task labels shown), the layout of a task label; after a change of
 * the model, task-rows or task-row-tids, invalidate_rows. */
G_GNUC_INTERNAL guint _gst_ctf_gtk_timeline_n_task_rows (GstCtfGtkTimeline *
    self);
G_GNUC_INTERNAL guint _gst_ctf_gtk_timeline_task_row_index (
    GstCtfGtkTimeline * self, guint row);
G_GNUC_INTERNAL gdouble _gst_ctf_gtk_timeline_label_width (
    GstCtfGtkTimeline * self);
G_GNUC_INTERNAL PangoLayout *_gst_ctf_gtk_timeline_task_label_layout (
    GstCtfGtkTimeline * self, const gchar * text);
G_GNUC_INTERNAL void _gst_ctf_gtk_timeline_invalidate_rows (
    GstCtfGtkTimeline * self);

/* Drawing (gstctfgtk-timeline-draw.c) */
G_GNUC_INTERNAL void _gst_ctf_gtk_timeline_snapshot (GtkWidget * widget,
    GtkSnapshot * snapshot);
G_GNUC_INTERNAL void _gst_ctf_gtk_timeline_measure (GtkWidget * widget,
    GtkOrientation orientation, gint for_size, gint * minimum,
    gint * natural, gint * minimum_baseline, gint * natural_baseline);
/* The deep-zoom window read for @s..@e at @w columns, NULL while it is
 * not (the read is asked for); the times of one lane in it. */
G_GNUC_INTERNAL const GstCtfGtkDeepWindow *_gst_ctf_gtk_timeline_deep_window
    (GstCtfGtkTimeline * self, gint64 s, gint64 e, guint w);
G_GNUC_INTERNAL const gint64 *_gst_ctf_gtk_timeline_window_times (const
    GstCtfGtkDeepWindow * win, GstCtfGtkSummary * sum, guint lane,
    guint * n);

/* Input (gstctfgtk-timeline-input.c) */
G_GNUC_INTERNAL void _gst_ctf_gtk_timeline_add_controllers (
    GstCtfGtkTimeline * self);

G_END_DECLS
