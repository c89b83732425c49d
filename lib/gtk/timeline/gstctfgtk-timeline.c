/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline: the lanes of a GstCtfGtkEventModel's summary
 * (gstctfgtk-summary.h) drawn with GtkSnapshot (gstctfgtk-timeline-draw.c;
 * the pointer and keys: gstctfgtk-timeline-input.c).  A redraw reads only the
 * summary, never the trace file: per pixel column, the events of the
 * summary bins whose middle falls in it, and for CPUs with `sched_switch`
 * events the tasks running, as coloured spans (idle in light grey; each
 * switch where it is when the spans are fewer than two per column, else
 * the task at each column's middle), lost events as red ticks.  With
 * #GstCtfGtkTimeline:task-rows, a row per task below the CPUs (every task,
 * or those #GstCtfGtkTimeline:task-row-tids chooses; the label column as
 * wide as their labels: gstctfgtk-timeline-tasks.c): when it runs,
 * coloured by CPU.
 *
 * Deep zoom: when a pixel column is narrower than a summary bin, the
 * events of the visible range (and as much again on each side) are read
 * on a worker thread (gstctfgtk-deep-zoom.h); until they are, the bins
 * are drawn, then each event is a tick in its column.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include "gstctfgtk-timeline-private.h"


enum {
  PROP_0,
  PROP_MODEL,
  PROP_VISIBLE_START_NS,
  PROP_VISIBLE_END_NS,
  PROP_SELECTION_START_NS,
  PROP_SELECTION_END_NS,
  PROP_MARKER_A_NS,
  PROP_MARKER_B_NS,
  PROP_TASK_ROWS,
  PROP_TASK_ROW_TIDS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];
guint _gst_ctf_gtk_timeline_signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (GstCtfGtkTimeline, gst_ctf_gtk_timeline,
    GTK_TYPE_WIDGET);

/**
 * gst_ctf_gtk_task_color:
 * @tid: a thread id, 0 for the idle task
 * @color: (out caller-allocates): its colour in the timeline
 *
 * The colour #GstCtfGtkTimeline gives a task: a hue from the thread id,
 * light grey for the idle task.
 */
void
gst_ctf_gtk_task_color (gint tid, GdkRGBA * color)
{
  guint32 h;
  gfloat r, g, b;

  if (tid <= 0) {
    *color = (GdkRGBA) {
    0.88, 0.88, 0.88, 1.0};
    return;
  }
  /* a hash spreads neighbouring ids over the hues */
  h = (guint32) tid *2654435761u;
  gtk_hsv_to_rgb ((h >> 8) % 360 / 360.0f, 0.55f + (h & 0x3) * 0.1f,
      0.80f, &r, &g, &b);
  *color = (GdkRGBA) {
  r, g, b, 1.0};
}

/**
 * gst_ctf_gtk_cpu_color:
 * @cpu: a CPU number
 * @color: (out caller-allocates): its colour in the timeline's task rows
 *
 * The colour #GstCtfGtkTimeline gives a CPU in the rows of tasks
 * (#GstCtfGtkTimeline:task-rows): one of 8 hues, darker for CPUs 8 to
 * 15, and so on every 8 CPUs.
 */
void
gst_ctf_gtk_cpu_color (gint cpu, GdkRGBA * color)
{
  static const gfloat hues[8] = { 0.58f, 0.08f, 0.33f, 0.0f, 0.75f, 0.14f,
    0.48f, 0.9f
  };
  gfloat r, g, b;
  guint c = (guint) MAX (cpu, 0);

  gtk_hsv_to_rgb (hues[c % 8], 0.75f, 0.95f - 0.2f * (c / 8 % 3), &r, &g,
      &b);
  *color = (GdkRGBA) {
  r, g, b, 1.0};
}

/* The range drawn: the visible range, or the whole trace. */
gboolean
_gst_ctf_gtk_timeline_get_range (GstCtfGtkTimeline * self, gint64 * start,
    gint64 * end)
{
  guint64 s, e;

  if (self->model == NULL)
    return FALSE;
  if (self->follow_all) {
    if (!gst_ctf_gtk_event_model_get_time_range (self->model, &s, &e))
      return FALSE;
    if (e < s + MIN_SPAN_NS)
      e = s + MIN_SPAN_NS;
    /* the last event in the last column */
    e += (e - s) / 1000 + 1;
  } else {
    s = self->start;
    e = self->end;
  }
  *start = (gint64) s;
  *end = (gint64) e;
  return e > s;
}

gdouble
_gst_ctf_gtk_timeline_plot_width (GstCtfGtkTimeline * self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) -
      _gst_ctf_gtk_timeline_label_width (self), 1);
}

/**
 * gst_ctf_gtk_timeline_get_time_at:
 * @timeline: a timeline
 * @x: a widget x coordinate
 *
 * Returns: the time at @x, ns from the clock origin (0 without a model)
 */
guint64
gst_ctf_gtk_timeline_get_time_at (GstCtfGtkTimeline * timeline, gdouble x)
{
  gint64 s, e;
  gdouble t;

  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), 0);
  if (!_gst_ctf_gtk_timeline_get_range (timeline, &s, &e))
    return 0;
  t = s + (x - _gst_ctf_gtk_timeline_label_width (timeline)) /
      _gst_ctf_gtk_timeline_plot_width (timeline) *
      (gdouble) (e - s);
  return t <= 0 ? 0 : (guint64) t;
}

/**
 * gst_ctf_gtk_timeline_get_lane_at:
 * @timeline: a timeline
 * @y: a widget y coordinate
 *
 * Returns: the lane drawn at @y, -1 for none
 */
gint
gst_ctf_gtk_timeline_get_lane_at (GstCtfGtkTimeline * timeline, gdouble y)
{
  gint lane;

  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), -1);
  if (timeline->model == NULL || y < AXIS_H)
    return -1;
  lane = (gint) ((y - AXIS_H) / (LANE_H + LANE_GAP));
  if (lane >= (gint) _gst_ctf_gtk_summary_get_n_lanes
      (_gst_ctf_gtk_event_model_get_summary (timeline->model)))
    return -1;
  return lane;
}

/**
 * gst_ctf_gtk_timeline_get_lane_area:
 * @timeline: a timeline
 * @lane: a lane (CPUs in CPU order, then streams by name)
 * @area: (out caller-allocates): where its plot is drawn, in widget
 *   coordinates
 */
void
gst_ctf_gtk_timeline_get_lane_area (GstCtfGtkTimeline * timeline,
    guint lane, graphene_rect_t * area)
{
  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  graphene_rect_init (area, _gst_ctf_gtk_timeline_label_width (timeline),
      AXIS_H + lane * (LANE_H + LANE_GAP),
      _gst_ctf_gtk_timeline_plot_width (timeline), LANE_H);
}

void
_gst_ctf_gtk_timeline_set_range (GstCtfGtkTimeline * self, gint64 s, gint64 e)
{
  gint64 ts = 0, te = 0, span;
  guint64 a, b;

  if (e - s < MIN_SPAN_NS) {
    gint64 mid = s + (e - s) / 2;

    s = mid - MIN_SPAN_NS / 2;
    e = s + MIN_SPAN_NS;
  }
  if (self->model != NULL && gst_ctf_gtk_event_model_get_time_range
      (self->model, &a, &b)) {
    ts = (gint64) a;
    te = (gint64) b + 1;
    span = te - ts;
    /* no further out than the whole trace, with a margin */
    if (e - s >= span + span / 10) {
      self->follow_all = TRUE;
      goto done;
    }
    if (s < ts - span / 20) {
      e += ts - span / 20 - s;
      s = ts - span / 20;
    }
    if (e > te + span / 20) {
      s -= e - (te + span / 20);
      e = te + span / 20;
    }
  }
  self->follow_all = FALSE;
  self->start = (guint64) MAX (s, 0);
  self->end = (guint64) MAX (e, s + 1);
done:
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_VISIBLE_START_NS]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_VISIBLE_END_NS]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * gst_ctf_gtk_timeline_set_visible_range:
 * @timeline: a timeline
 * @start_ns: first time shown, ns from the clock origin
 * @end_ns: last time shown; 0 with @start_ns 0: the whole trace
 *
 * Shows [@start_ns, @end_ns) across the widget (at least 1 µs, at most
 * the whole trace).
 */
void
gst_ctf_gtk_timeline_set_visible_range (GstCtfGtkTimeline * timeline,
    guint64 start_ns, guint64 end_ns)
{
  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  if (start_ns == 0 && end_ns == 0) {
    gst_ctf_gtk_timeline_show_all (timeline);
    return;
  }
  _gst_ctf_gtk_timeline_set_range (timeline,
      (gint64) MIN (start_ns, (guint64) G_MAXINT64 / 2),
      (gint64) MIN (end_ns, (guint64) G_MAXINT64 / 2));
}

/**
 * gst_ctf_gtk_timeline_get_visible_range:
 * @timeline: a timeline
 * @start_ns: (out) (optional): first time shown
 * @end_ns: (out) (optional): end of the time shown
 */
void
gst_ctf_gtk_timeline_get_visible_range (GstCtfGtkTimeline * timeline,
    guint64 * start_ns, guint64 * end_ns)
{
  gint64 s = 0, e = 0;

  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  _gst_ctf_gtk_timeline_get_range (timeline, &s, &e);
  if (start_ns != NULL)
    *start_ns = (guint64) MAX (s, 0);
  if (end_ns != NULL)
    *end_ns = (guint64) MAX (e, 0);
}

/**
 * gst_ctf_gtk_timeline_show_all:
 * @timeline: a timeline
 *
 * Shows the whole trace (and follows it while the model loads).
 */
void
gst_ctf_gtk_timeline_show_all (GstCtfGtkTimeline * timeline)
{
  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  timeline->follow_all = TRUE;
  g_object_notify_by_pspec (G_OBJECT (timeline),
      props[PROP_VISIBLE_START_NS]);
  g_object_notify_by_pspec (G_OBJECT (timeline), props[PROP_VISIBLE_END_NS]);
  gtk_widget_queue_draw (GTK_WIDGET (timeline));
}

/**
 * gst_ctf_gtk_timeline_zoom:
 * @timeline: a timeline
 * @factor: above 1 to zoom in, below 1 to zoom out
 * @around_ns: the time that stays in place
 */
void
gst_ctf_gtk_timeline_zoom (GstCtfGtkTimeline * timeline, gdouble factor,
    guint64 around_ns)
{
  gint64 s, e;
  gdouble a;

  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  if (factor <= 0 || !_gst_ctf_gtk_timeline_get_range (timeline, &s, &e))
    return;
  a = (gdouble) around_ns;
  _gst_ctf_gtk_timeline_set_range (timeline, (gint64) (a - (a - s) / factor),
      (gint64) (a + (e - a) / factor));
}

/**
 * gst_ctf_gtk_timeline_center_on:
 * @timeline: a timeline
 * @ns: a time
 *
 * Pans so that @ns is in the middle, at the same zoom.
 */
void
gst_ctf_gtk_timeline_center_on (GstCtfGtkTimeline * timeline, guint64 ns)
{
  gint64 s, e;

  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  if (!_gst_ctf_gtk_timeline_get_range (timeline, &s, &e) ||
      timeline->follow_all)
    return;
  _gst_ctf_gtk_timeline_set_range (timeline, (gint64) ns - (e - s) / 2,
      (gint64) ns + (e - s) / 2);
}

/**
 * gst_ctf_gtk_timeline_set_selection:
 * @timeline: a timeline
 * @start_ns: start of the selected range
 * @end_ns: its end; equal to @start_ns: no selection
 */
void
gst_ctf_gtk_timeline_set_selection (GstCtfGtkTimeline * timeline,
    guint64 start_ns, guint64 end_ns)
{
  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  timeline->sel_start = MIN (start_ns, end_ns);
  timeline->sel_end = MAX (start_ns, end_ns);
  g_object_notify_by_pspec (G_OBJECT (timeline),
      props[PROP_SELECTION_START_NS]);
  g_object_notify_by_pspec (G_OBJECT (timeline),
      props[PROP_SELECTION_END_NS]);
  gtk_widget_queue_draw (GTK_WIDGET (timeline));
}

/**
 * gst_ctf_gtk_timeline_set_marker:
 * @timeline: a timeline
 * @marker: 0 for marker A, 1 for marker B
 * @ns: its time, ns from the clock origin; %G_MAXUINT64 removes it
 *
 * Places (or removes) marker A or B, drawn as a labelled vertical line.
 * Sets #GstCtfGtkTimeline:marker-a-ns or #GstCtfGtkTimeline:marker-b-ns.
 */
void
gst_ctf_gtk_timeline_set_marker (GstCtfGtkTimeline * timeline, guint marker,
    guint64 ns)
{
  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  g_return_if_fail (marker <= 1);
  if (marker == 0) {
    if (timeline->marker_a == ns)
      return;
    timeline->marker_a = ns;
  } else {
    if (timeline->marker_b == ns)
      return;
    timeline->marker_b = ns;
  }
  g_object_notify_by_pspec (G_OBJECT (timeline),
      props[marker == 0 ? PROP_MARKER_A_NS : PROP_MARKER_B_NS]);
  gtk_widget_queue_draw (GTK_WIDGET (timeline));
}

/**
 * gst_ctf_gtk_timeline_get_marker:
 * @timeline: a timeline
 * @marker: 0 for marker A, 1 for marker B
 *
 * Returns: the marker's time in ns from the clock origin, %G_MAXUINT64
 *   when it is not placed
 */
guint64
gst_ctf_gtk_timeline_get_marker (GstCtfGtkTimeline * timeline, guint marker)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), G_MAXUINT64);
  g_return_val_if_fail (marker <= 1, G_MAXUINT64);
  return marker == 0 ? timeline->marker_a : timeline->marker_b;
}

/**
 * gst_ctf_gtk_timeline_set_task_rows:
 * @timeline: a timeline
 * @task_rows: whether to draw a row per task
 *
 * Sets #GstCtfGtkTimeline:task-rows.
 */
void
gst_ctf_gtk_timeline_set_task_rows (GstCtfGtkTimeline * timeline,
    gboolean task_rows)
{
  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  task_rows = ! !task_rows;
  if (timeline->task_rows == task_rows)
    return;
  timeline->task_rows = task_rows;
  g_object_notify_by_pspec (G_OBJECT (timeline), props[PROP_TASK_ROWS]);
  _gst_ctf_gtk_timeline_invalidate_rows (timeline);
}

/**
 * gst_ctf_gtk_timeline_get_task_rows:
 * @timeline: a timeline
 *
 * Returns: #GstCtfGtkTimeline:task-rows
 */
gboolean
gst_ctf_gtk_timeline_get_task_rows (GstCtfGtkTimeline * timeline)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), FALSE);
  return timeline->task_rows;
}

/**
 * gst_ctf_gtk_timeline_get_task_row_area:
 * @timeline: a timeline
 * @tid: a thread id
 * @area: (out caller-allocates): where its row's plot is drawn, in widget
 *   coordinates
 *
 * Returns: %FALSE when the timeline draws no row for @tid (no
 *   #GstCtfGtkTimeline:task-rows, the idle task, a task no
 *   `sched_switch` names, or one #GstCtfGtkTimeline:task-row-tids leaves
 *   out)
 */
gboolean
gst_ctf_gtk_timeline_get_task_row_area (GstCtfGtkTimeline * timeline,
    gint tid, graphene_rect_t * area)
{
  GstCtfGtkSummary *sum;
  guint i, n;

  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), FALSE);
  n = _gst_ctf_gtk_timeline_n_task_rows (timeline);
  if (n == 0)
    return FALSE;
  sum = _gst_ctf_gtk_event_model_get_summary (timeline->model);
  for (i = 0; i < n; i++) {
    gint t;

    _gst_ctf_gtk_summary_get_task_info (sum,
        _gst_ctf_gtk_timeline_task_row_index (timeline, i), &t);
    if (t == tid) {
      graphene_rect_init (area, _gst_ctf_gtk_timeline_label_width (timeline),
          _gst_ctf_gtk_timeline_task_row_y (timeline, i),
          _gst_ctf_gtk_timeline_plot_width (timeline), TASK_H);
      return TRUE;
    }
  }
  return FALSE;
}

/**
 * gst_ctf_gtk_timeline_get_event_times:
 * @timeline: a timeline
 * @lane: a lane (CPUs in CPU order, then streams by name)
 * @n_times: (out): the number of times returned
 *
 * At deep zoom (a pixel column narrower than what the summary's bins
 * resolve), the timeline reads the events of the visible range on a
 * worker thread and draws each as a tick in its column.  This gives the
 * times of those events of @lane, in ns from the clock origin, in the
 * model's order; when they are not read yet, it asks for them (as a
 * redraw does) and returns %NULL: wait for the main context to run, and
 * ask again.
 *
 * Returns: (transfer full) (array length=n_times) (nullable): the times,
 *   %NULL when the timeline draws the summary's density instead (zoomed
 *   out, too many events, the model still loading, or not read yet)
 */
guint64 *
gst_ctf_gtk_timeline_get_event_times (GstCtfGtkTimeline * timeline,
    guint lane, gsize * n_times)
{
  const GstCtfGtkDeepWindow *win;
  const gint64 *t;
  gint64 s, e;
  guint n, i;
  GArray *out;

  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), NULL);
  g_return_val_if_fail (n_times != NULL, NULL);
  *n_times = 0;
  if (!_gst_ctf_gtk_timeline_get_range (timeline, &s, &e))
    return NULL;
  win = _gst_ctf_gtk_timeline_deep_window (timeline, s, e,
      (guint) _gst_ctf_gtk_timeline_plot_width (timeline));
  if (win == NULL)
    return NULL;
  t = _gst_ctf_gtk_timeline_window_times (win,
      _gst_ctf_gtk_event_model_get_summary (timeline->model), lane, &n);
  /* (zero-terminated: never NULL, even empty) */
  out = g_array_new (TRUE, FALSE, sizeof (guint64));
  for (i = 0; i < n; i++)
    if (t[i] >= s && t[i] < e) {
      guint64 v = (guint64) t[i];

      g_array_append_val (out, v);
    }
  *n_times = out->len;
  return (guint64 *) g_array_free (out, FALSE);
}

void
_gst_ctf_gtk_timeline_notify_row_tids (GstCtfGtkTimeline * self)
{
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_TASK_ROW_TIDS]);
}

gdouble
_gst_ctf_gtk_timeline_task_row_y (GstCtfGtkTimeline * self, guint i)
{
  guint n_lanes = _gst_ctf_gtk_summary_get_n_lanes
      (_gst_ctf_gtk_event_model_get_summary (self->model));

  return AXIS_H + n_lanes * (LANE_H + LANE_GAP) + i * (TASK_H + LANE_GAP);
}

/* ---- the object ---- */

static void
on_items_changed (GListModel * list, guint pos, guint removed, guint added,
    GstCtfGtkTimeline * self)
{
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * gst_ctf_gtk_timeline_set_model:
 * @timeline: a timeline
 * @model: (nullable): the events to draw
 */
void
gst_ctf_gtk_timeline_set_model (GstCtfGtkTimeline * timeline,
    GstCtfGtkEventModel * model)
{
  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  if (timeline->model == model)
    return;
  if (timeline->model != NULL) {
    g_signal_handler_disconnect (timeline->model, timeline->items_handler);
    g_clear_object (&timeline->model);
  }
  g_clear_pointer (&timeline->deep, _gst_ctf_gtk_deep_zoom_free);
  if (model != NULL) {
    timeline->model = g_object_ref (model);
    timeline->items_handler = g_signal_connect (model, "items-changed",
        G_CALLBACK (on_items_changed), timeline);
  }
  timeline->follow_all = TRUE;
  timeline->sel_start = timeline->sel_end = 0;
  timeline->rows_valid = FALSE;
  g_object_notify_by_pspec (G_OBJECT (timeline), props[PROP_MODEL]);
  gtk_widget_queue_resize (GTK_WIDGET (timeline));
}

/**
 * gst_ctf_gtk_timeline_get_model:
 * @timeline: a timeline
 *
 * Returns: (transfer none) (nullable): the model drawn
 */
GstCtfGtkEventModel *
gst_ctf_gtk_timeline_get_model (GstCtfGtkTimeline * timeline)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), NULL);
  return timeline->model;
}

/**
 * gst_ctf_gtk_timeline_new:
 * @model: (nullable): the events to draw
 *
 * Returns: (transfer floating): a new timeline
 */
GtkWidget *
gst_ctf_gtk_timeline_new (GstCtfGtkEventModel * model)
{
  return g_object_new (GST_CTF_GTK_TYPE_TIMELINE, "model", model, NULL);
}


static void
gst_ctf_gtk_timeline_init (GstCtfGtkTimeline * self)
{
  self->follow_all = TRUE;
  self->marker_a = G_MAXUINT64;
  self->marker_b = G_MAXUINT64;
  self->pointer_x = -1;
  self->spans = g_array_new (FALSE, FALSE, sizeof (GstCtfGtkSpan));
  self->rows = g_array_new (FALSE, FALSE, sizeof (guint));
  self->label_w = LABEL_W;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  _gst_ctf_gtk_timeline_add_controllers (self);
}

static void
gst_ctf_gtk_timeline_dispose (GObject * object)
{
  gst_ctf_gtk_timeline_set_model (GST_CTF_GTK_TIMELINE (object), NULL);
  G_OBJECT_CLASS (gst_ctf_gtk_timeline_parent_class)->dispose (object);
}

static void
gst_ctf_gtk_timeline_finalize (GObject * object)
{
  GstCtfGtkTimeline *self = GST_CTF_GTK_TIMELINE (object);

  g_array_unref (self->spans);
  g_array_unref (self->rows);
  g_clear_pointer (&self->row_tids, g_array_unref);
  if (self->watched_adj != NULL)
    g_object_remove_weak_pointer (self->watched_adj, &self->watched_adj);
  G_OBJECT_CLASS (gst_ctf_gtk_timeline_parent_class)->finalize (object);
}

static void
gst_ctf_gtk_timeline_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfGtkTimeline *self = GST_CTF_GTK_TIMELINE (object);
  guint64 s, e;

  switch (prop_id) {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_VISIBLE_START_NS:
      gst_ctf_gtk_timeline_get_visible_range (self, &s, &e);
      g_value_set_uint64 (value, s);
      break;
    case PROP_VISIBLE_END_NS:
      gst_ctf_gtk_timeline_get_visible_range (self, &s, &e);
      g_value_set_uint64 (value, e);
      break;
    case PROP_SELECTION_START_NS:
      g_value_set_uint64 (value, self->sel_start);
      break;
    case PROP_SELECTION_END_NS:
      g_value_set_uint64 (value, self->sel_end);
      break;
    case PROP_MARKER_A_NS:
      g_value_set_uint64 (value, self->marker_a);
      break;
    case PROP_MARKER_B_NS:
      g_value_set_uint64 (value, self->marker_b);
      break;
    case PROP_TASK_ROWS:
      g_value_set_boolean (value, self->task_rows);
      break;
    case PROP_TASK_ROW_TIDS:
      g_value_take_variant (value, self->row_tids == NULL ? NULL :
          g_variant_new_fixed_array (G_VARIANT_TYPE_INT32,
              self->row_tids->data, self->row_tids->len, sizeof (gint32)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_gtk_timeline_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfGtkTimeline *self = GST_CTF_GTK_TIMELINE (object);
  guint64 s, e;

  gst_ctf_gtk_timeline_get_visible_range (self, &s, &e);
  switch (prop_id) {
    case PROP_MODEL:
      gst_ctf_gtk_timeline_set_model (self, g_value_get_object (value));
      break;
    case PROP_VISIBLE_START_NS:
      gst_ctf_gtk_timeline_set_visible_range (self,
          g_value_get_uint64 (value), e);
      break;
    case PROP_VISIBLE_END_NS:
      gst_ctf_gtk_timeline_set_visible_range (self, s,
          g_value_get_uint64 (value));
      break;
    case PROP_SELECTION_START_NS:
      gst_ctf_gtk_timeline_set_selection (self, g_value_get_uint64 (value),
          MAX (self->sel_end, g_value_get_uint64 (value)));
      break;
    case PROP_SELECTION_END_NS:
      gst_ctf_gtk_timeline_set_selection (self, self->sel_start,
          g_value_get_uint64 (value));
      break;
    case PROP_MARKER_A_NS:
      gst_ctf_gtk_timeline_set_marker (self, 0, g_value_get_uint64 (value));
      break;
    case PROP_MARKER_B_NS:
      gst_ctf_gtk_timeline_set_marker (self, 1, g_value_get_uint64 (value));
      break;
    case PROP_TASK_ROWS:
      gst_ctf_gtk_timeline_set_task_rows (self, g_value_get_boolean (value));
      break;
    case PROP_TASK_ROW_TIDS:{
      static const gint none[1] = { 0 };
      GVariant *v = g_value_get_variant (value);
      gsize n = 0;
      const gint32 *tids = v ? g_variant_get_fixed_array (v, &n,
          sizeof (gint32)) : NULL;

      /* (an empty array's data may be NULL: no rows, not every task) */
      gst_ctf_gtk_timeline_set_task_row_tids (self, v && tids == NULL ?
          none : (const gint *) tids, n);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_gtk_timeline_class_init (GstCtfGtkTimelineClass * klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  GtkWidgetClass *wc = GTK_WIDGET_CLASS (klass);
  const GParamFlags f = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      G_PARAM_EXPLICIT_NOTIFY;

  oc->dispose = gst_ctf_gtk_timeline_dispose;
  oc->finalize = gst_ctf_gtk_timeline_finalize;
  oc->get_property = gst_ctf_gtk_timeline_get_property;
  oc->set_property = gst_ctf_gtk_timeline_set_property;
  wc->snapshot = _gst_ctf_gtk_timeline_snapshot;
  wc->measure = _gst_ctf_gtk_timeline_measure;

  /**
   * GstCtfGtkTimeline:model:
   *
   * The events drawn (their model's summary: no redraw reads the trace).
   */
  props[PROP_MODEL] = g_param_spec_object ("model", NULL, NULL,
      GST_CTF_GTK_TYPE_EVENT_MODEL, f);
  /**
   * GstCtfGtkTimeline:visible-start-ns:
   *
   * The time at the left edge of the plot, ns from the clock origin.
   */
  props[PROP_VISIBLE_START_NS] = g_param_spec_uint64 ("visible-start-ns",
      NULL, NULL, 0, G_MAXUINT64, 0, f);
  /**
   * GstCtfGtkTimeline:visible-end-ns:
   *
   * The time at the right edge of the plot, ns from the clock origin.
   */
  props[PROP_VISIBLE_END_NS] = g_param_spec_uint64 ("visible-end-ns", NULL,
      NULL, 0, G_MAXUINT64, 0, f);
  /**
   * GstCtfGtkTimeline:selection-start-ns:
   *
   * Start of the selected time range (Shift+drag), ns from the clock
   * origin.
   */
  props[PROP_SELECTION_START_NS] = g_param_spec_uint64 ("selection-start-ns",
      NULL, NULL, 0, G_MAXUINT64, 0, f);
  /**
   * GstCtfGtkTimeline:selection-end-ns:
   *
   * End of the selected time range; equal to the start: none.
   */
  props[PROP_SELECTION_END_NS] = g_param_spec_uint64 ("selection-end-ns",
      NULL, NULL, 0, G_MAXUINT64, 0, f);
  /**
   * GstCtfGtkTimeline:marker-a-ns:
   *
   * Marker A (Ctrl+click, or the A key at the pointer), ns from the clock
   * origin; %G_MAXUINT64: not placed. Escape removes both markers.
   */
  props[PROP_MARKER_A_NS] = g_param_spec_uint64 ("marker-a-ns", NULL, NULL,
      0, G_MAXUINT64, G_MAXUINT64, f);
  /**
   * GstCtfGtkTimeline:marker-b-ns:
   *
   * Marker B (Ctrl+Shift+click, or the B key at the pointer), ns from the
   * clock origin; %G_MAXUINT64: not placed.
   */
  props[PROP_MARKER_B_NS] = g_param_spec_uint64 ("marker-b-ns", NULL, NULL,
      0, G_MAXUINT64, G_MAXUINT64, f);
  /**
   * GstCtfGtkTimeline:task-rows:
   *
   * For kernel traces (`sched_switch` events), a row per task (thread id
   * and command name, the idle task left out) below the CPUs' lanes,
   * showing when it runs, coloured by CPU (gst_ctf_gtk_cpu_color()), as
   * KernelShark's task plots.
   */
  props[PROP_TASK_ROWS] = g_param_spec_boolean ("task-rows", NULL, NULL,
      FALSE, f);
  /**
   * GstCtfGtkTimeline:task-row-tids:
   *
   * The tasks that get a row with #GstCtfGtkTimeline:task-rows: an array
   * of thread ids (`ai`), %NULL (the default) for every task the
   * `sched_switch` events name, an empty array for none (see
   * gst_ctf_gtk_timeline_set_task_row_tids(); the thread ids come sorted,
   * without repeats).  gst_ctf_gtk_timeline_list_tasks() lists the tasks
   * to choose from, busiest first.
   */
  props[PROP_TASK_ROW_TIDS] = g_param_spec_variant ("task-row-tids", NULL,
      NULL, G_VARIANT_TYPE ("ai"), NULL, f);
  g_object_class_install_properties (oc, N_PROPS, props);

  /**
   * GstCtfGtkTimeline::event-activated:
   * @timeline: the timeline
   * @position: the row, in the model, of the event nearest to the click
   *
   * A click (no drag) in a lane.
   */
  _gst_ctf_gtk_timeline_signals[SIGNAL_EVENT_ACTIVATED] =
      g_signal_new ("event-activated",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_set_css_name (wc, "gstctftimeline");
}
