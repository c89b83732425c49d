/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline's drawing (gstctfgtk-timeline.c has the object and
 * its API, gstctfgtk-timeline-input.c the pointer and keys): the axis,
 * a lane per CPU or stream from the summary (deep zoom: ticks of the
 * events read on the worker), the rows per task, markers and selection.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include "gstctfgtk-timeline-private.h"

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
marker_x (gdouble x0, guint64 ns, gint64 s, gint64 e, guint w, gdouble * x)
{
  if (ns == G_MAXUINT64 || (gint64) ns < s || (gint64) ns > e || e <= s)
    return FALSE;
  *x = x0 + ((gdouble) ns - s) / ((gdouble) (e - s) / w);
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
    if (marker_x (self->label_w, m[i], s, e, w, &x) && x0 < x + 17 &&
        x1 > x - 2)
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
    gdouble x = self->label_w + (t - s) / ns_per_px;
    gchar *label = format_time (t, step);
    PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self),
        label);
    gint lw;

    append_rect (snapshot, &grid, x, AXIS_H - 4, 1, height - AXIS_H + 4);
    /* (a label a marker's letter would cover, or the widget's edge cut,
     * is left out) */
    pango_layout_get_pixel_size (layout, &lw, NULL);
    if (x + 3 + lw <= self->label_w + w &&
        !under_marker (self, s, e, (guint) w, x + 3, x + 3 + lw))
      append_layout (snapshot, layout, x + 3, 2, &fg);
    g_object_unref (layout);
    g_free (label);
  }
}

/* The CPU's or stream's events of a deep zoom window. */
const gint64 *
_gst_ctf_gtk_timeline_window_times (const GstCtfGtkDeepWindow * win,
    GstCtfGtkSummary * sum, guint lane, guint * n)
{
  gint cpu;
  gchar *label = _gst_ctf_gtk_summary_get_lane_label (sum, lane, &cpu);
  const gint64 *t = _gst_ctf_gtk_deep_window_get_times (win, cpu, label, n);

  g_free (label);
  return t;
}

/* Coloured spans of a row: @spans' ids to colours by @color. */
static void
draw_spans (GtkSnapshot * snapshot, GArray * spans, gdouble left, gint64 s,
    gdouble ns_per_px, gdouble y, gdouble h, void (*color) (gint, GdkRGBA *))
{
  guint i;

  for (i = 0; i < spans->len; i++) {
    const GstCtfGtkSpan *sp = &g_array_index (spans, GstCtfGtkSpan, i);
    gdouble x0 = (sp->start - s) / ns_per_px, x1 = (sp->end - s) / ns_per_px;
    GdkRGBA c;

    color (sp->id, &c);
    append_rect (snapshot, &c, left + x0, y, MAX (x1 - x0, 0.5), h);
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

  append_rect (snapshot, &bg, self->label_w, y, w, LANE_H);
  append_text (GTK_WIDGET (self), snapshot, label, 4, y + 4, &fg);
  g_free (label);

  _gst_ctf_gtk_summary_get_density (sum, lane, s, e, w, counts, lost);

  /* running tasks: each switch where it is, or per column */
  if (task_lane) {
    _gst_ctf_gtk_summary_get_lane_spans (sum, lane, s, e, w, self->spans);
    draw_spans (snapshot, self->spans, self->label_w, s, ns_per_px, y,
        LANE_H - DENSITY_H - 1, gst_ctf_gtk_task_color);
  }
  if (win != NULL) {
    /* deep zoom: a tick in each column holding an event */
    guint n, i, lo = 0, hi;
    const gint64 *t = _gst_ctf_gtk_timeline_window_times (win, sum, lane, &n);
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
      append_rect (snapshot, &tick, self->label_w + col,
          y + LANE_H - dh - 1, 1,
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

          append_rect (snapshot, &c, self->label_w + run,
              y + LANE_H - h - 1,
              x - run, h);
        }
        run = x;
        prev_level = level;
      }
    }
  }
  for (x = 0; x < w; x++)
    if (lost[x] > 0)
      append_rect (snapshot, &red, self->label_w + x, y, 2, LANE_H);
}


/* The @row-th task row: `COMM-TID` (cut in the middle when wider than
 * LABEL_MAX_W), its runs coloured by CPU. */
static void
draw_task_row (GstCtfGtkTimeline * self, GtkSnapshot * snapshot,
    GstCtfGtkSummary * sum, guint row, gint64 s, gint64 e, guint w)
{
  static const GdkRGBA fg = { 0.15, 0.15, 0.15, 1 };
  static const GdkRGBA bg = { 0.96, 0.96, 0.97, 1 };
  gdouble y = _gst_ctf_gtk_timeline_task_row_y (self, row);
  guint i = _gst_ctf_gtk_timeline_task_row_index (self, row);
  gint tid;
  const gchar *comm = _gst_ctf_gtk_summary_get_task_info (sum, i, &tid);
  gchar *label = g_strdup_printf ("%s-%d", comm ? comm : "", tid);
  PangoLayout *layout = _gst_ctf_gtk_timeline_task_label_layout (self,
      label);

  append_rect (snapshot, &bg, self->label_w, y, w, TASK_H);
  pango_layout_set_width (layout, (self->label_w - 6) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  append_layout (snapshot, layout, 4, y + 1, &fg);
  g_object_unref (layout);
  g_free (label);
  _gst_ctf_gtk_summary_get_task_runs (sum, i, s, e, w, self->spans);
  draw_spans (snapshot, self->spans, self->label_w, s, (gdouble) (e - s) / w,
      y, TASK_H, gst_ctf_gtk_cpu_color);
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

/* The events read for [@s, @e) shown in @w columns, when the summary's
 * finest bins are wider than a SUMMARY_SUB_BINS-th of a column; NULL when
 * the bins are drawn (zoomed out, too many events, or the events are
 * being read: the worker is asked for them here, and queues a redraw
 * once it has them). */
const GstCtfGtkDeepWindow *
_gst_ctf_gtk_timeline_deep_window (GstCtfGtkTimeline * self, gint64 s,
    gint64 e, guint w)
{
  GstCtfGtkSummary *sum;
  const GstCtfGtkDeepWindow *win;
  gint64 span = e - s, margin = e - s;

  if (self->model == NULL || gst_ctf_gtk_event_model_get_loading
      (self->model) || w == 0)
    return NULL;
  sum = _gst_ctf_gtk_event_model_get_summary (self->model);
  if ((gdouble) _gst_ctf_gtk_summary_get_bin_ns (sum) * SUMMARY_SUB_BINS <=
      (gdouble) span / w)
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

/**
 * gst_ctf_gtk_timeline_get_density:
 * @timeline: a timeline
 * @lane: a lane (CPUs in CPU order, then streams by name)
 * @n_columns: (out): the number of columns: the plot's width in pixels
 * @resolution_ns: (out) (optional): the width, in ns, of the summary's
 *   bins counted
 *
 * The events of @lane per pixel column of the visible range, as the
 * timeline draws its density: from the summary built while the model
 * indexed, never from the trace file.  The summary's bins counted are at
 * most a quarter of a column wide where it can (it keeps bins as fine as
 * a bounded memory allows, see docs/design.md); each bin counts in the
 * column holding its middle, column `c` covering `[start + c * w, start
 * + (c + 1) * w)` with `w = (end - start) / n_columns` (floating point),
 * so an event counts at most half a bin from its own column.  Where the
 * finest bins are wider than a quarter of a column, the timeline draws
 * the events read from the trace instead (deep zoom, see
 * gst_ctf_gtk_timeline_get_event_times()), unless the range holds too
 * many events.
 *
 * Returns: (transfer full) (array length=n_columns) (nullable): the
 *   counts (saturating at %G_MAXUINT32), %NULL when nothing is drawn (no
 *   model, no event yet, or a plot narrower than a pixel)
 */
guint32 *
gst_ctf_gtk_timeline_get_density (GstCtfGtkTimeline * timeline, guint lane,
    guint * n_columns, guint64 * resolution_ns)
{
  GstCtfGtkSummary *sum;
  gint64 s, e;
  guint w;
  guint32 *counts;

  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), NULL);
  g_return_val_if_fail (n_columns != NULL, NULL);
  *n_columns = 0;
  if (resolution_ns != NULL)
    *resolution_ns = 0;
  w = (guint) _gst_ctf_gtk_timeline_plot_width (timeline);
  if (w == 0 || !_gst_ctf_gtk_timeline_get_range (timeline, &s, &e))
    return NULL;
  sum = _gst_ctf_gtk_event_model_get_summary (timeline->model);
  counts = g_new (guint32, w);
  _gst_ctf_gtk_summary_get_density (sum, lane, s, e, w, counts, NULL);
  if (resolution_ns != NULL)
    *resolution_ns = (guint64) _gst_ctf_gtk_summary_get_resolution (sum, s,
        e, w);
  *n_columns = w;
  return counts;
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

  if (!marker_x (self->label_w, ns, s, e, w, &x))
    return;
  append_rect (snapshot, c, x - 1, 0, 2, height);
  append_rect (snapshot, c, x + 1, 0, 14, AXIS_H - 4);
  append_text (GTK_WIDGET (self), snapshot, label, x + 3, 0, &white);
}

void
_gst_ctf_gtk_timeline_snapshot (GtkWidget * widget, GtkSnapshot * snapshot)
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
  _gst_ctf_gtk_timeline_label_width (self);     /* self->label_w */
  if (!_gst_ctf_gtk_timeline_get_range (self, &s, &e))
    return;
  sum = _gst_ctf_gtk_event_model_get_summary (self->model);
  w = (guint) _gst_ctf_gtk_timeline_plot_width (self);
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
  win = _gst_ctf_gtk_timeline_deep_window (self, s, e, w);
  for (lane = 0; lane < n_lanes; lane++)
    draw_lane (self, snapshot, sum, lane, s, e, w, counts, lost, tasks,
        log1p (max), win);
  n_tasks = _gst_ctf_gtk_timeline_n_task_rows (self);
  if (n_tasks > 0) {
    gdouble y0, y1;

    shown_y (self, &y0, &y1);
    for (x = 0; x < n_tasks; x++) {
      gdouble y = _gst_ctf_gtk_timeline_task_row_y (self, x);

      if (y + TASK_H >= y0 && y <= y1)
        draw_task_row (self, snapshot, sum, x, s, e, w);
    }
  }
  draw_axis (self, snapshot, s, e, w, height);
  if (self->sel_end > self->sel_start) {
    gdouble ns_per_px = (gdouble) (e - s) / w;
    gdouble x0 = self->label_w + ((gdouble) self->sel_start - s) /
        ns_per_px;
    gdouble x1 = self->label_w + ((gdouble) self->sel_end - s) / ns_per_px;

    x0 = CLAMP (x0, self->label_w, width);
    x1 = CLAMP (x1, self->label_w, width);
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

void
_gst_ctf_gtk_timeline_measure (GtkWidget * widget, GtkOrientation orientation,
    int for_size, int *minimum, int *natural, int *minimum_baseline,
    int *natural_baseline)
{
  GstCtfGtkTimeline *self = GST_CTF_GTK_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL) {
    gdouble label_w = _gst_ctf_gtk_timeline_label_width (self);

    *minimum = label_w + 100;
    *natural = label_w + 800;
  } else {
    guint n = self->model ? _gst_ctf_gtk_summary_get_n_lanes
        (_gst_ctf_gtk_event_model_get_summary (self->model)) : 0;

    *minimum = *natural = AXIS_H + MAX (n, 1) * (LANE_H + LANE_GAP) +
        _gst_ctf_gtk_timeline_n_task_rows (self) * (TASK_H + LANE_GAP) + 4;
  }
}
