/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline: the lanes of a GstCtfGtkEventModel's summary
 * (gstctfgtk-summary.h) drawn with GtkSnapshot.  A redraw reads only the
 * summary, never the trace file: per pixel column, the events of the
 * summary bins whose middle falls in it, and for CPUs with `sched_switch`
 * events the tasks running, as coloured spans (idle in light grey; each
 * switch where it is when the spans are fewer than two per column, else
 * the task at each column's middle), lost events as red ticks.  With
 * #GstCtfGtkTimeline:task-rows, a row per task below the CPUs: when it
 * runs, coloured by CPU.
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
#include "gstctfgtk-timeline.h"
#include "gstctfgtk-event-model-private.h"
#include "gstctfgtk-deep-zoom.h"

#define LABEL_W 76
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
  GstCtfGtkDeepZoom *deep;      /* made at the first deep zoom */
  GArray *spans;                /* GstCtfGtkSpan, drawing scratch */
  gpointer watched_adj;         /* the scrolled window's, redraws */
};

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
  N_PROPS
};

enum {
  SIGNAL_EVENT_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

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

static guint n_task_rows (GstCtfGtkTimeline * self);
static gdouble task_row_y (GstCtfGtkTimeline * self, guint i);
static const GstCtfGtkDeepWindow *deep_window (GstCtfGtkTimeline * self,
    gint64 s, gint64 e, guint w);
static const gint64 *window_times (const GstCtfGtkDeepWindow * win,
    GstCtfGtkSummary * sum, guint lane, guint * n);

/* The range drawn: the visible range, or the whole trace. */
static gboolean
get_range (GstCtfGtkTimeline * self, gint64 * start, gint64 * end)
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

static gdouble
plot_width (GstCtfGtkTimeline * self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - LABEL_W, 1);
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
  if (!get_range (timeline, &s, &e))
    return 0;
  t = s + (x - LABEL_W) / plot_width (timeline) * (gdouble) (e - s);
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
  graphene_rect_init (area, LABEL_W, AXIS_H + lane * (LANE_H + LANE_GAP),
      plot_width (timeline), LANE_H);
}

static void
set_range (GstCtfGtkTimeline * self, gint64 s, gint64 e)
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
  set_range (timeline, (gint64) MIN (start_ns, (guint64) G_MAXINT64 / 2),
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
  get_range (timeline, &s, &e);
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
  if (factor <= 0 || !get_range (timeline, &s, &e))
    return;
  a = (gdouble) around_ns;
  set_range (timeline, (gint64) (a - (a - s) / factor),
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
  if (!get_range (timeline, &s, &e) || timeline->follow_all)
    return;
  set_range (timeline, (gint64) ns - (e - s) / 2,
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
  gtk_widget_queue_resize (GTK_WIDGET (timeline));
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
 *   #GstCtfGtkTimeline:task-rows, the idle task, or a task no
 *   `sched_switch` names)
 */
gboolean
gst_ctf_gtk_timeline_get_task_row_area (GstCtfGtkTimeline * timeline,
    gint tid, graphene_rect_t * area)
{
  GstCtfGtkSummary *sum;
  guint i, n;

  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), FALSE);
  n = n_task_rows (timeline);
  if (n == 0)
    return FALSE;
  sum = _gst_ctf_gtk_event_model_get_summary (timeline->model);
  for (i = 0; i < n; i++) {
    gint t;

    _gst_ctf_gtk_summary_get_task_info (sum, i, &t);
    if (t == tid) {
      graphene_rect_init (area, LABEL_W, task_row_y (timeline, i),
          plot_width (timeline), TASK_H);
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
  if (!get_range (timeline, &s, &e))
    return NULL;
  win = deep_window (timeline, s, e, (guint) plot_width (timeline));
  if (win == NULL)
    return NULL;
  t = window_times (win, _gst_ctf_gtk_event_model_get_summary
      (timeline->model), lane, &n);
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

/* ---- drawing ---- */

static void
append_rect (GtkSnapshot * snapshot, const GdkRGBA * c, gdouble x, gdouble y,
    gdouble w, gdouble h)
{
  graphene_rect_t r;

  graphene_rect_init (&r, x, y, w, h);
  gtk_snapshot_append_color (snapshot, c, &r);
}

static void
append_layout (GtkSnapshot * snapshot, PangoLayout * layout, gdouble x,
    gdouble y, const GdkRGBA * c)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, c);
  gtk_snapshot_restore (snapshot);
}

static void
append_text (GtkWidget * w, GtkSnapshot * snapshot, const gchar * text,
    gdouble x, gdouble y, const GdkRGBA * c)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (w, text);

  append_layout (snapshot, layout, x, y, c);
  g_object_unref (layout);
}

/* Where marker @ns is drawn (its line; its letter box spans @x + 1 to
 * @x + 15), FALSE when unset or outside [@s, @e]. */
static gboolean
marker_x (guint64 ns, gint64 s, gint64 e, guint w, gdouble * x)
{
  if (ns == G_MAXUINT64 || (gint64) ns < s || (gint64) ns > e || e <= s)
    return FALSE;
  *x = LABEL_W + ((gdouble) ns - s) / ((gdouble) (e - s) / w);
  return TRUE;
}

/* TRUE when the axis text from @x0 to @x1 would be under a marker's box. */
static gboolean
under_marker (GstCtfGtkTimeline * self, gint64 s, gint64 e, guint w,
    gdouble x0, gdouble x1)
{
  guint64 m[2] = { self->marker_a, self->marker_b };
  gdouble x;
  guint i;

  for (i = 0; i < 2; i++)
    if (marker_x (m[i], s, e, w, &x) && x0 < x + 17 && x1 > x - 2)
      return TRUE;
  return FALSE;
}

/* `HH:MM:SS.NNN...` of a time, as many decimals as the tick step needs. */
static gchar *
format_time (gint64 ns, gint64 step)
{
  gint64 s = ns / 1000000000, frac = ns % 1000000000;
  gint digits = 0;
  gint64 st = step;

  while (st < 1000000000 && digits < 9) {
    st *= 10;
    digits++;
  }
  if (digits == 0)
    return g_strdup_printf ("%02d:%02d:%02d", (gint) (s / 3600 % 24),
        (gint) (s / 60 % 60), (gint) (s % 60));
  return g_strdup_printf ("%02d:%02d:%02d.%0*" G_GINT64_FORMAT,
      (gint) (s / 3600 % 24), (gint) (s / 60 % 60), (gint) (s % 60), digits,
      frac / (gint64) pow (10, 9 - digits));
}

static void
draw_axis (GstCtfGtkTimeline * self, GtkSnapshot * snapshot, gint64 s,
    gint64 e, gdouble w, gdouble height)
{
  static const GdkRGBA fg = { 0.2, 0.2, 0.2, 1 }, grid = { 0, 0, 0, 0.12 };
  gdouble ns_per_px = (gdouble) (e - s) / w;
  static const gint mult[] = { 1, 2, 5 };
  gint64 step = 1, p10 = 1, t;
  guint i;

  /* a step of 1, 2 or 5 x 10^k ns, ticks at least 120 px apart */
  for (; p10 < G_MAXINT64 / 100; p10 *= 10) {
    for (i = 0; i < G_N_ELEMENTS (mult); i++) {
      step = mult[i] * p10;
      if (step / ns_per_px >= 120)
        goto found;
    }
  }
found:
  for (t = s - s % step + (s % step ? step : 0); t < e; t += step) {
    gdouble x = LABEL_W + (t - s) / ns_per_px;
    gchar *label = format_time (t, step);
    PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self),
        label);
    gint lw;

    append_rect (snapshot, &grid, x, AXIS_H - 4, 1, height - AXIS_H + 4);
    /* (a label a marker's letter would cover, or the widget's edge cut,
     * is left out) */
    pango_layout_get_pixel_size (layout, &lw, NULL);
    if (x + 3 + lw <= LABEL_W + w &&
        !under_marker (self, s, e, (guint) w, x + 3, x + 3 + lw))
      append_layout (snapshot, layout, x + 3, 2, &fg);
    g_object_unref (layout);
    g_free (label);
  }
}

/* The CPU's or stream's events of a deep zoom window. */
static const gint64 *
window_times (const GstCtfGtkDeepWindow * win, GstCtfGtkSummary * sum,
    guint lane, guint * n)
{
  gint cpu;
  gchar *label = _gst_ctf_gtk_summary_get_lane_label (sum, lane, &cpu);
  const gint64 *t = _gst_ctf_gtk_deep_window_get_times (win, cpu, label, n);

  g_free (label);
  return t;
}

/* Coloured spans of a row: @spans' ids to colours by @color. */
static void
draw_spans (GtkSnapshot * snapshot, GArray * spans, gint64 s,
    gdouble ns_per_px, gdouble y, gdouble h, void (*color) (gint, GdkRGBA *))
{
  guint i;

  for (i = 0; i < spans->len; i++) {
    const GstCtfGtkSpan *sp = &g_array_index (spans, GstCtfGtkSpan, i);
    gdouble x0 = (sp->start - s) / ns_per_px, x1 = (sp->end - s) / ns_per_px;
    GdkRGBA c;

    color (sp->id, &c);
    append_rect (snapshot, &c, LABEL_W + x0, y, MAX (x1 - x0, 0.5), h);
  }
}

static void
draw_lane (GstCtfGtkTimeline * self, GtkSnapshot * snapshot,
    GstCtfGtkSummary * sum, guint lane, gint64 s, gint64 e, guint w,
    guint32 * counts, guint64 * lost, gboolean tasks, gdouble log_max,
    const GstCtfGtkDeepWindow * win)
{
  static const GdkRGBA fg = { 0.15, 0.15, 0.15, 1 };
  static const GdkRGBA bg = { 0.96, 0.96, 0.97, 1 };
  static const GdkRGBA red = { 0.85, 0.1, 0.1, 1 };
  static const GdkRGBA tick = { 0.08, 0.25, 0.65, 1 };
  gdouble y = AXIS_H + lane * (LANE_H + LANE_GAP);
  gdouble ns_per_px = (gdouble) (e - s) / w;
  gint cpu;
  gchar *label = _gst_ctf_gtk_summary_get_lane_label (sum, lane, &cpu);
  guint x, run, prev_level;
  gboolean task_lane = tasks && cpu >= 0;
  gdouble dh = task_lane ? DENSITY_H : LANE_H - 4;

  append_rect (snapshot, &bg, LABEL_W, y, w, LANE_H);
  append_text (GTK_WIDGET (self), snapshot, label, 4, y + 4, &fg);
  g_free (label);

  _gst_ctf_gtk_summary_get_density (sum, lane, s, e, w, counts, lost);

  /* running tasks: each switch where it is, or per column */
  if (task_lane) {
    _gst_ctf_gtk_summary_get_lane_spans (sum, lane, s, e, w, self->spans);
    draw_spans (snapshot, self->spans, s, ns_per_px, y,
        LANE_H - DENSITY_H - 1, gst_ctf_gtk_task_color);
  }
  if (win != NULL) {
    /* deep zoom: a tick in each column holding an event */
    guint n, i, lo = 0, hi;
    const gint64 *t = window_times (win, sum, lane, &n);
    gint64 last_col = -1;

    hi = n;
    while (lo < hi) {
      guint mid = lo + (hi - lo) / 2;

      if (t[mid] < s)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (i = lo; i < n && t[i] < e; i++) {
      gint64 col = (gint64) ((t[i] - s) / ns_per_px);

      if (col == last_col || col >= w)
        continue;
      append_rect (snapshot, &tick, LABEL_W + col, y + LANE_H - dh - 1, 1,
          dh);
      last_col = col;
    }
  } else {
    /* density: 16 shades, runs of columns with one shade */
    run = 0;
    prev_level = 0;
    for (x = 0; x <= w; x++) {
      guint level = 0;

      if (x < w && counts[x] > 0)
        level = 1 + (guint) (15 * log1p (counts[x]) / MAX (log_max, 1e-9));
      if (x == 0)
        prev_level = level;
      if (x == w || level != prev_level) {
        if (prev_level > 0) {
          GdkRGBA c = { 0.12, 0.35, 0.75, 0.35 + 0.65 * prev_level / 16.0 };
          gdouble h = task_lane ? dh : MAX (2, dh * prev_level / 16.0);

          append_rect (snapshot, &c, LABEL_W + run, y + LANE_H - h - 1,
              x - run, h);
        }
        run = x;
        prev_level = level;
      }
    }
  }
  for (x = 0; x < w; x++)
    if (lost[x] > 0)
      append_rect (snapshot, &red, LABEL_W + x, y, 2, LANE_H);
}

static guint
n_task_rows (GstCtfGtkTimeline * self)
{
  if (!self->task_rows || self->model == NULL)
    return 0;
  return _gst_ctf_gtk_summary_get_n_tasks
      (_gst_ctf_gtk_event_model_get_summary (self->model));
}

static gdouble
task_row_y (GstCtfGtkTimeline * self, guint i)
{
  guint n_lanes = _gst_ctf_gtk_summary_get_n_lanes
      (_gst_ctf_gtk_event_model_get_summary (self->model));

  return AXIS_H + n_lanes * (LANE_H + LANE_GAP) + i * (TASK_H + LANE_GAP);
}

/* The @i-th task's row: `TID COMM`, its runs coloured by CPU. */
static void
draw_task_row (GstCtfGtkTimeline * self, GtkSnapshot * snapshot,
    GstCtfGtkSummary * sum, guint i, gint64 s, gint64 e, guint w)
{
  static const GdkRGBA fg = { 0.15, 0.15, 0.15, 1 };
  static const GdkRGBA bg = { 0.96, 0.96, 0.97, 1 };
  gdouble y = task_row_y (self, i);
  gint tid;
  const gchar *comm = _gst_ctf_gtk_summary_get_task_info (sum, i, &tid);
  gchar *label = g_strdup_printf ("%d %s", tid, comm ? comm : "");
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self),
      label);
  PangoAttrList *attrs = pango_attr_list_new ();

  append_rect (snapshot, &bg, LABEL_W, y, w, TASK_H);
  pango_attr_list_insert (attrs, pango_attr_scale_new (0.8));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_set_width (layout, (LABEL_W - 6) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  append_layout (snapshot, layout, 4, y + 1, &fg);
  g_object_unref (layout);
  g_free (label);
  _gst_ctf_gtk_summary_get_task_runs (sum, i, s, e, w, self->spans);
  draw_spans (snapshot, self->spans, s, (gdouble) (e - s) / w, y, TASK_H,
      gst_ctf_gtk_cpu_color);
}

/* The rows of the widget on screen: all of them, or in a scrolled window
 * (a GtkViewport), the part it shows (scrolling then redraws). */
static void
shown_y (GstCtfGtkTimeline * self, gdouble * y0, gdouble * y1)
{
  GtkWidget *vp = gtk_widget_get_ancestor (GTK_WIDGET (self),
      GTK_TYPE_VIEWPORT);
  graphene_rect_t b;

  *y0 = 0;
  *y1 = gtk_widget_get_height (GTK_WIDGET (self));
  if (vp == NULL || !gtk_widget_compute_bounds (GTK_WIDGET (self), vp, &b))
    return;
  *y0 = MAX (-b.origin.y, 0);
  *y1 = *y0 + gtk_widget_get_height (vp);
  {
    GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE
        (vp));

    if (adj != NULL && adj != self->watched_adj) {
      g_signal_connect_object (adj, "value-changed",
          G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
      if (self->watched_adj != NULL)
        g_object_remove_weak_pointer (self->watched_adj, &self->watched_adj);
      self->watched_adj = adj;
      g_object_add_weak_pointer (G_OBJECT (adj), &self->watched_adj);
    }
  }
}

static gboolean
deep_ready (gpointer data)
{
  gtk_widget_queue_draw (GTK_WIDGET (data));
  return G_SOURCE_REMOVE;
}

/* The events read for [@s, @e) shown in @w columns, when a column is
 * narrower than a summary bin; NULL when the bins are drawn (zoomed out,
 * too many events, or the events are being read: the worker is asked
 * for them here, and queues a redraw once it has them). */
static const GstCtfGtkDeepWindow *
deep_window (GstCtfGtkTimeline * self, gint64 s, gint64 e, guint w)
{
  GstCtfGtkSummary *sum;
  const GstCtfGtkDeepWindow *win;
  gint64 span = e - s, margin = e - s;

  if (self->model == NULL || gst_ctf_gtk_event_model_get_loading
      (self->model) || w == 0)
    return NULL;
  sum = _gst_ctf_gtk_event_model_get_summary (self->model);
  if ((gdouble) _gst_ctf_gtk_summary_get_bin_ns (sum) <= (gdouble) span / w)
    return NULL;
  if (_gst_ctf_gtk_summary_count_events (sum, s - margin, e + margin) >
      DEEP_MAX_EVENTS) {
    margin = 0;
    if (_gst_ctf_gtk_summary_count_events (sum, s, e) > DEEP_MAX_EVENTS)
      return NULL;
  }
  if (self->deep == NULL)
    self->deep = _gst_ctf_gtk_deep_zoom_new (gst_ctf_gtk_event_model_get_path
        (self->model), deep_ready, self);
  win = _gst_ctf_gtk_deep_zoom_lookup (self->deep, s, e);
  if (win == NULL)
    _gst_ctf_gtk_deep_zoom_request (self->deep, s - margin, e + margin);
  return win;
}

static const GdkRGBA marker_a_color = { 0.0, 0.55, 0.0, 1 };
static const GdkRGBA marker_b_color = { 0.75, 0.0, 0.75, 1 };

/* A marker: a 2 px line over the lanes, its letter in a box on the axis. */
static void
draw_marker (GstCtfGtkTimeline * self, GtkSnapshot * snapshot, guint64 ns,
    const gchar * label, const GdkRGBA * c, gint64 s, gint64 e, guint w,
    gdouble height)
{
  static const GdkRGBA white = { 1, 1, 1, 1 };
  gdouble x;

  if (!marker_x (ns, s, e, w, &x))
    return;
  append_rect (snapshot, c, x - 1, 0, 2, height);
  append_rect (snapshot, c, x + 1, 0, 14, AXIS_H - 4);
  append_text (GTK_WIDGET (self), snapshot, label, x + 3, 0, &white);
}

static void
gst_ctf_gtk_timeline_snapshot (GtkWidget * widget, GtkSnapshot * snapshot)
{
  GstCtfGtkTimeline *self = GST_CTF_GTK_TIMELINE (widget);
  static const GdkRGBA white = { 1, 1, 1, 1 };
  static const GdkRGBA sel = { 0.2, 0.45, 0.9, 0.25 };
  gdouble width = gtk_widget_get_width (widget);
  gdouble height = gtk_widget_get_height (widget);
  GstCtfGtkSummary *sum;
  gint64 s, e;
  guint w, lane, n_lanes, x;
  guint32 *counts, max = 0;
  guint64 *lost;
  gboolean tasks;
  const GstCtfGtkDeepWindow *win;
  guint n_tasks;

  append_rect (snapshot, &white, 0, 0, width, height);
  if (!get_range (self, &s, &e))
    return;
  sum = _gst_ctf_gtk_event_model_get_summary (self->model);
  w = (guint) plot_width (self);
  n_lanes = _gst_ctf_gtk_summary_get_n_lanes (sum);
  tasks = _gst_ctf_gtk_summary_has_tasks (sum);
  counts = g_new (guint32, w);
  lost = g_new (guint64, w);
  /* one shade scale for all lanes */
  for (lane = 0; lane < n_lanes; lane++) {
    _gst_ctf_gtk_summary_get_density (sum, lane, s, e, w, counts, NULL);
    for (x = 0; x < w; x++)
      max = MAX (max, counts[x]);
  }
  win = deep_window (self, s, e, w);
  for (lane = 0; lane < n_lanes; lane++)
    draw_lane (self, snapshot, sum, lane, s, e, w, counts, lost, tasks,
        log1p (max), win);
  n_tasks = n_task_rows (self);
  if (n_tasks > 0) {
    gdouble y0, y1;

    shown_y (self, &y0, &y1);
    for (x = 0; x < n_tasks; x++) {
      gdouble y = task_row_y (self, x);

      if (y + TASK_H >= y0 && y <= y1)
        draw_task_row (self, snapshot, sum, x, s, e, w);
    }
  }
  draw_axis (self, snapshot, s, e, w, height);
  if (self->sel_end > self->sel_start) {
    gdouble ns_per_px = (gdouble) (e - s) / w;
    gdouble x0 = LABEL_W + ((gdouble) self->sel_start - s) / ns_per_px;
    gdouble x1 = LABEL_W + ((gdouble) self->sel_end - s) / ns_per_px;

    x0 = CLAMP (x0, LABEL_W, width);
    x1 = CLAMP (x1, LABEL_W, width);
    append_rect (snapshot, &sel, x0, AXIS_H, MAX (x1 - x0, 1),
        height - AXIS_H);
  }
  draw_marker (self, snapshot, self->marker_a, "A", &marker_a_color, s, e, w,
      height);
  draw_marker (self, snapshot, self->marker_b, "B", &marker_b_color, s, e, w,
      height);
  g_free (counts);
  g_free (lost);
}

static void
gst_ctf_gtk_timeline_measure (GtkWidget * widget, GtkOrientation orientation,
    int for_size, int *minimum, int *natural, int *minimum_baseline,
    int *natural_baseline)
{
  GstCtfGtkTimeline *self = GST_CTF_GTK_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL) {
    *minimum = LABEL_W + 100;
    *natural = LABEL_W + 800;
  } else {
    guint n = self->model ? _gst_ctf_gtk_summary_get_n_lanes
        (_gst_ctf_gtk_event_model_get_summary (self->model)) : 0;

    *minimum = *natural = AXIS_H + MAX (n, 1) * (LANE_H + LANE_GAP) +
        n_task_rows (self) * (TASK_H + LANE_GAP) + 4;
  }
}

/* ---- input ---- */

static gboolean
on_scroll (GtkEventControllerScroll * c, gdouble dx, gdouble dy,
    GstCtfGtkTimeline * self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state
      (GTK_EVENT_CONTROLLER (c));
  gint64 s, e;
  gdouble x = 0, y = 0;
  GdkEvent *ev = gtk_event_controller_get_current_event
      (GTK_EVENT_CONTROLLER (c));

  if (!get_range (self, &s, &e))
    return FALSE;
  if (ev != NULL)
    gdk_event_get_position (ev, &x, &y);
  if (mods & GDK_CONTROL_MASK) {
    gst_ctf_gtk_timeline_zoom (self, pow (1.25, -dy),
        gst_ctf_gtk_timeline_get_time_at (self, x));
  } else {
    gint64 d = (gint64) ((dx + dy) * (e - s) / 10);

    set_range (self, s + d, e + d);
  }
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag * g, gdouble x, gdouble y,
    GstCtfGtkTimeline * self)
{
  gint64 s = 0, e = 0;
  GdkModifierType mods = gtk_event_controller_get_current_event_state
      (GTK_EVENT_CONTROLLER (g));

  get_range (self, &s, &e);
  self->drag_start = (guint64) s;
  self->drag_end = (guint64) e;
  self->drag_x = x;
  self->selecting = (mods & GDK_SHIFT_MASK) != 0;
  self->marking = (mods & GDK_CONTROL_MASK) != 0;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag * g, gdouble ox, gdouble oy,
    GstCtfGtkTimeline * self)
{
  if (self->marking)
    return;
  if (self->selecting) {
    gst_ctf_gtk_timeline_set_selection (self,
        gst_ctf_gtk_timeline_get_time_at (self, self->drag_x),
        gst_ctf_gtk_timeline_get_time_at (self, self->drag_x + ox));
  } else {
    gdouble span = (gdouble) (self->drag_end - self->drag_start);
    gint64 d = (gint64) (-ox / plot_width (self) * span);

    set_range (self, (gint64) self->drag_start + d,
        (gint64) self->drag_end + d);
  }
}

static void
on_drag_end (GtkGestureDrag * g, gdouble ox, gdouble oy,
    GstCtfGtkTimeline * self)
{
  guint64 t;
  guint row, n;

  if (fabs (ox) > 3 || fabs (oy) > 3 || self->model == NULL ||
      self->drag_x < LABEL_W)
    return;
  if (self->marking) {
    /* Ctrl+click: marker A; Ctrl+Shift+click: marker B */
    gst_ctf_gtk_timeline_set_marker (self, self->selecting ? 1 : 0,
        gst_ctf_gtk_timeline_get_time_at (self, self->drag_x));
    return;
  }
  /* a click: the nearest event */
  t = gst_ctf_gtk_timeline_get_time_at (self, self->drag_x);
  row = gst_ctf_gtk_event_model_find_row (self->model, t);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  if (n == 0)
    return;
  if (row >= n)
    row = n - 1;
  else if (row > 0) {
    GstCtfGtkEvent *a = g_list_model_get_item (G_LIST_MODEL (self->model),
        row - 1);
    GstCtfGtkEvent *b = g_list_model_get_item (G_LIST_MODEL (self->model),
        row);

    if (a != NULL && b != NULL && t - gst_ctf_gtk_event_get_timestamp_ns (a)
        < gst_ctf_gtk_event_get_timestamp_ns (b) - t)
      row--;
    g_clear_object (&a);
    g_clear_object (&b);
  }
  g_signal_emit (self, signals[SIGNAL_EVENT_ACTIVATED], 0, row);
}

static void
on_zoom_begin (GtkGesture * g, GdkEventSequence * seq,
    GstCtfGtkTimeline * self)
{
  self->zoom_scale = 1.0;
}

static void
on_zoom_scale (GtkGestureZoom * g, gdouble scale, GstCtfGtkTimeline * self)
{
  gdouble cx = 0, cy = 0;

  if (scale <= 0 || self->zoom_scale <= 0)
    return;
  gtk_gesture_get_bounding_box_center (GTK_GESTURE (g), &cx, &cy);
  gst_ctf_gtk_timeline_zoom (self, scale / self->zoom_scale,
      gst_ctf_gtk_timeline_get_time_at (self, cx));
  self->zoom_scale = scale;
}

static gboolean
on_key (GtkEventControllerKey * c, guint keyval, guint keycode,
    GdkModifierType state, GstCtfGtkTimeline * self)
{
  gint64 s, e;

  if (!get_range (self, &s, &e))
    return FALSE;
  switch (keyval) {
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      gst_ctf_gtk_timeline_zoom (self, 2.0, (guint64) (s + (e - s) / 2));
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      gst_ctf_gtk_timeline_zoom (self, 0.5, (guint64) (s + (e - s) / 2));
      return TRUE;
    case GDK_KEY_Left:
      set_range (self, s - (e - s) / 5, e - (e - s) / 5);
      return TRUE;
    case GDK_KEY_Right:
      set_range (self, s + (e - s) / 5, e + (e - s) / 5);
      return TRUE;
    case GDK_KEY_Home:
      gst_ctf_gtk_timeline_show_all (self);
      return TRUE;
    case GDK_KEY_a:
    case GDK_KEY_b:
      /* at the pointer, else at the middle of the view */
      gst_ctf_gtk_timeline_set_marker (self, keyval == GDK_KEY_a ? 0 : 1,
          self->pointer_x >= LABEL_W ?
          gst_ctf_gtk_timeline_get_time_at (self, self->pointer_x) :
          (guint64) (s + (e - s) / 2));
      return TRUE;
    case GDK_KEY_Escape:
      gst_ctf_gtk_timeline_set_marker (self, 0, G_MAXUINT64);
      gst_ctf_gtk_timeline_set_marker (self, 1, G_MAXUINT64);
      return TRUE;
    default:
      return FALSE;
  }
}

static gboolean
on_query_tooltip (GtkWidget * w, gint x, gint y, gboolean keyboard,
    GtkTooltip * tooltip, GstCtfGtkTimeline * self)
{
  GstCtfGtkSummary *sum;
  gint lane = gst_ctf_gtk_timeline_get_lane_at (self, y);
  guint64 t;
  gint64 s, e;
  gint tid, cpu;
  const gchar *comm;
  guint32 count = 0;
  guint64 lost = 0;
  gchar *label, *text;
  guint n_tasks = n_task_rows (self);

  if (x < LABEL_W || !get_range (self, &s, &e))
    return FALSE;
  if (lane < 0 && n_tasks > 0 && y >= task_row_y (self, 0)) {
    /* a task's row: where it runs at the pointer */
    guint i = (guint) ((y - task_row_y (self, 0)) / (TASK_H + LANE_GAP));

    if (i >= n_tasks)
      return FALSE;
    sum = _gst_ctf_gtk_event_model_get_summary (self->model);
    comm = _gst_ctf_gtk_summary_get_task_info (sum, i, &tid);
    cpu = _gst_ctf_gtk_summary_get_task_cpu (sum, tid, (gint64)
        gst_ctf_gtk_timeline_get_time_at (self, x));
    if (cpu >= 0)
      text = g_strdup_printf ("%s-%d\nruns on CPU %d", comm ? comm : "",
          tid, cpu);
    else
      text = g_strdup_printf ("%s-%d\nnot running", comm ? comm : "", tid);
    gtk_tooltip_set_text (tooltip, text);
    g_free (text);
    return TRUE;
  }
  if (lane < 0)
    return FALSE;
  sum = _gst_ctf_gtk_event_model_get_summary (self->model);
  t = gst_ctf_gtk_timeline_get_time_at (self, x);
  {
    gdouble ns_per_px = (gdouble) (e - s) / plot_width (self);
    gint64 c0 = s + (gint64) ((x - LABEL_W) * ns_per_px);

    _gst_ctf_gtk_summary_get_density (sum, lane, c0,
        c0 + MAX ((gint64) ns_per_px, 1), 1, &count, &lost);
  }
  label = _gst_ctf_gtk_summary_get_lane_label (sum, lane, &cpu);
  comm = _gst_ctf_gtk_summary_get_task (sum, lane, (gint64) t, &tid);
  if (comm != NULL)
    text = g_strdup_printf ("%s\n%s-%d\n%u events%s", label, comm, tid,
        count, lost ? " (events lost)" : "");
  else
    text = g_strdup_printf ("%s\n%u events%s", label, count,
        lost ? " (events lost)" : "");
  gtk_tooltip_set_text (tooltip, text);
  g_free (text);
  g_free (label);
  return TRUE;
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
on_motion (GtkEventControllerMotion * c, gdouble x, gdouble y,
    GstCtfGtkTimeline * self)
{
  self->pointer_x = x;
}

static void
on_leave (GtkEventControllerMotion * c, GstCtfGtkTimeline * self)
{
  self->pointer_x = -1;
}

static void
gst_ctf_gtk_timeline_init (GstCtfGtkTimeline * self)
{
  GtkEventController *scroll, *key, *motion;
  GtkGesture *drag, *zoom;

  self->follow_all = TRUE;
  self->marker_a = G_MAXUINT64;
  self->marker_b = G_MAXUINT64;
  self->pointer_x = -1;
  self->spans = g_array_new (FALSE, FALSE, sizeof (GstCtfGtkSpan));
  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip),
      self);

  scroll = gtk_event_controller_scroll_new
      (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  zoom = gtk_gesture_zoom_new ();
  g_signal_connect (zoom, "begin", G_CALLBACK (on_zoom_begin), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (on_zoom_scale), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (zoom));

  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
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
  wc->snapshot = gst_ctf_gtk_timeline_snapshot;
  wc->measure = gst_ctf_gtk_timeline_measure;

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
  g_object_class_install_properties (oc, N_PROPS, props);

  /**
   * GstCtfGtkTimeline::event-activated:
   * @timeline: the timeline
   * @position: the row, in the model, of the event nearest to the click
   *
   * A click (no drag) in a lane.
   */
  signals[SIGNAL_EVENT_ACTIVATED] = g_signal_new ("event-activated",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_set_css_name (wc, "gstctftimeline");
}
