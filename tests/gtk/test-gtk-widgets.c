/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline and GstCtfGtkDetails, drawn: the timeline is rendered
 * to a texture (GtkSnapshot -> GskRenderer) and its pixels read back.
 * The colour of a CPU's lane at the middle of a span between two
 * `sched_switch` lines of `trace-cmd report` is the colour of the task
 * that report says runs there; zoom and the visible range properties
 * behave.  Run under xvfb-run (tests/gtk/meson.build); skipped without a
 * display.
 */
#include <math.h>
#include <string.h>
#include <gtk/gtk.h>
#include "gstctfgtk.h"
#include "../test-util.h"
#include "gtk-test-util.h"

static gboolean
pixel_is (const guchar * px, gint width, gint x, gint y, const GdkRGBA * c)
{
  const guchar *p = px + ((gsize) y * width + x) * 4;

  return ABS (p[2] - (gint) (c->red * 255 + 0.5)) <= 2 &&
      ABS (p[1] - (gint) (c->green * 255 + 0.5)) <= 2 &&
      ABS (p[0] - (gint) (c->blue * 255 + 0.5)) <= 2;
}

typedef struct {
  guint cpu;
  guint64 us;
  gint next_pid;
} Switch;

static void
check_tasks (const gchar * dat, const gchar * oracle, guint max_samples)
{
  GstCtfGtkEventModel *m = gtk_test_open_loaded (dat);
  GtkWidget *tl = gst_ctf_gtk_timeline_new (m);
  GtkWidget *win = gtk_test_show (tl, 1200, 400);
  gchar *text = NULL;
  gchar **lines;
  GArray *sw = g_array_new (FALSE, FALSE, sizeof (Switch));
  guint i, j, n_lanes = 0, checked = 0;
  gint lane_of_cpu[64];

  /* lanes: CPUs in order */
  for (i = 0; i < G_N_ELEMENTS (lane_of_cpu); i++)
    lane_of_cpu[i] = -1;
  g_assert_true (g_file_get_contents (oracle, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i] != NULL; i++) {
    TestReportLine rl;
    const gchar *np;
    Switch s;

    if (!test_report_line_parse (lines[i], &rl))
      continue;
    g_free (rl.comm);
    if (!g_str_has_prefix (rl.rest, "sched_switch:") ||
        (np = strstr (rl.rest, " next_pid=")) == NULL)
      continue;
    s.cpu = rl.cpu;
    s.us = rl.secs * 1000000 + rl.usecs;
    s.next_pid = (gint) g_ascii_strtoll (np + 10, NULL, 10);
    g_array_append_val (sw, s);
  }
  {
    /* the lanes are the CPUs with events, in order: find them by the
     * lane labels' CPUs through a click position */
    graphene_rect_t area;

    for (j = 0; j < 64; j++) {
      gst_ctf_gtk_timeline_get_lane_area (GST_CTF_GTK_TIMELINE (tl), j,
          &area);
      if (gst_ctf_gtk_timeline_get_lane_at (GST_CTF_GTK_TIMELINE (tl),
              area.origin.y + 1) != (gint) j)
        break;
      n_lanes++;
    }
  }
  g_assert_cmpuint (n_lanes, >, 0);
  /* the armv7 and corpus traces have events on every CPU 0..n-1 */
  for (j = 0; j < n_lanes && j < 64; j++)
    lane_of_cpu[j] = j;

  for (i = 0; i < sw->len && checked < max_samples; i++) {
    const Switch *a = &g_array_index (sw, Switch, i);
    const Switch *b = NULL;
    graphene_rect_t area;
    guint64 t0, t1, d;
    guchar *px;
    gint w, h, x, y;
    GdkRGBA c;

    for (j = i + 1; j < sw->len; j++)
      if (g_array_index (sw, Switch, j).cpu == a->cpu) {
        b = &g_array_index (sw, Switch, j);
        break;
      }
    if (b == NULL || b->us < a->us + 10 || a->cpu >= 64 ||
        lane_of_cpu[a->cpu] < 0)
      continue;
    /* the span in the middle third of the plot */
    t0 = a->us * 1000;
    t1 = b->us * 1000;
    d = t1 - t0;
    gst_ctf_gtk_timeline_set_visible_range (GST_CTF_GTK_TIMELINE (tl),
        t0 - d, t1 + d);
    px = gtk_test_render (tl, &w, &h);
    g_assert_nonnull (px);
    gst_ctf_gtk_timeline_get_lane_area (GST_CTF_GTK_TIMELINE (tl),
        lane_of_cpu[a->cpu], &area);
    x = (gint) (area.origin.x + area.size.width / 2);
    y = (gint) area.origin.y + 3;
    gst_ctf_gtk_task_color (a->next_pid, &c);
    /* the axis's grid lines darken a column here and there */
    if (!pixel_is (px, w, x, y, &c) && !pixel_is (px, w, x + 2, y, &c)) {
      const guchar *p = px + ((gsize) y * w + x) * 4;

      g_error ("%s: CPU %u from %" G_GUINT64_FORMAT " us: pixel %02x%02x%02x"
          ", task %d is drawn %02x%02x%02x", dat, a->cpu, a->us, p[2], p[1],
          p[0], a->next_pid, (guint) (c.red * 255 + 0.5),
          (guint) (c.green * 255 + 0.5), (guint) (c.blue * 255 + 0.5));
    }
    g_free (px);
    checked++;
  }
  g_assert_cmpuint (checked, >, 5);
  g_test_message ("%s: %u lanes, running task colour checked at %u spans",
      dat, n_lanes, checked);
  g_strfreev (lines);
  g_free (text);
  g_array_unref (sw);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
}

static void
test_timeline_tasks (void)
{
  gchar *dat = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "armv7-v6.dat", NULL);
  gchar *o = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "oracle", "armv7-v6.dat.raw.txt", NULL);

  check_tasks (dat, o, 40);
  g_free (dat);
  g_free (o);
  if (test_corpus () == NULL) {
    g_test_message ("SKIP corpus part: GST_CTF_CORPUS not set or missing");
    return;
  }
  dat = test_corpus_path ("tracedat/sched-block-net.v6.dat");
  o = test_corpus_path ("tracedat/oracle/sched-block-net.v6.dat.raw.txt");
  check_tasks (dat, o, 40);
  g_free (dat);
  g_free (o);
}

static void
test_timeline_range (void)
{
  gchar *t = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-sample",
      NULL);
  GstCtfGtkEventModel *m = gtk_test_open_loaded (t);
  GtkWidget *tl = gst_ctf_gtk_timeline_new (m);
  GtkWidget *win = gtk_test_show (tl, 900, 200);
  guint64 ts, te, s, e, s2, e2;
  guchar *px;
  gint w, h;

  g_assert_true (gst_ctf_gtk_event_model_get_time_range (m, &ts, &te));
  g_assert_cmpuint (te, >, ts);
  /* the whole trace at first */
  g_object_get (tl, "visible-start-ns", &s, "visible-end-ns", &e, NULL);
  g_assert_cmpuint (s, <=, ts);
  g_assert_cmpuint (e, >, te);
  /* zoom in around the middle: half the span */
  gst_ctf_gtk_timeline_zoom (GST_CTF_GTK_TIMELINE (tl), 2.0, ts + (te -
          ts) / 2);
  g_object_get (tl, "visible-start-ns", &s2, "visible-end-ns", &e2, NULL);
  g_assert_cmpfloat (ABS ((gdouble) (e2 - s2) - (e - s) / 2.0), <,
      (e - s) / 100.0);
  /* 1 µs at most deep */
  g_object_set (tl, "visible-start-ns", ts + 10, "visible-end-ns", ts + 11,
      NULL);
  g_object_get (tl, "visible-start-ns", &s2, "visible-end-ns", &e2, NULL);
  g_assert_cmpuint (e2 - s2, ==, 1000);
  px = gtk_test_render (tl, &w, &h);
  g_assert_nonnull (px);
  g_free (px);
  /* no further out than the whole trace */
  gst_ctf_gtk_timeline_zoom (GST_CTF_GTK_TIMELINE (tl), 1e-9, ts);
  g_object_get (tl, "visible-start-ns", &s2, "visible-end-ns", &e2, NULL);
  g_assert_cmpuint (s2, ==, s);
  g_assert_cmpuint (e2, ==, e);
  /* the time under a pixel column */
  g_assert_cmpuint (gst_ctf_gtk_timeline_get_time_at (GST_CTF_GTK_TIMELINE
          (tl), w), >=, te);
  gst_ctf_gtk_timeline_set_selection (GST_CTF_GTK_TIMELINE (tl), te, ts);
  g_object_get (tl, "selection-start-ns", &s2, "selection-end-ns", &e2,
      NULL);
  g_assert_cmpuint (s2, ==, ts);
  g_assert_cmpuint (e2, ==, te);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
  g_free (t);
}

static void
count_notify (GObject * o, GParamSpec * pspec, guint * n)
{
  (*n)++;
}

/* The column, in row @y, drawn in @c; -1 when none. */
static gint
find_column (const guchar * px, gint w, gint y, const GdkRGBA * c)
{
  gint x;

  for (x = 0; x < w; x++)
    if (pixel_is (px, w, x, y, c))
      return x;
  return -1;
}

/* Markers A and B: unset by default, set by property and API, notified
 * once per change, drawn as lines at the column of their time. */
static void
test_timeline_markers (void)
{
  static const GdkRGBA a_color = { 0.0, 0.55, 0.0, 1 };
  static const GdkRGBA b_color = { 0.75, 0.0, 0.75, 1 };
  gchar *t = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-sample",
      NULL);
  GstCtfGtkEventModel *m = gtk_test_open_loaded (t);
  GtkWidget *tl = gst_ctf_gtk_timeline_new (m);
  GtkWidget *win = gtk_test_show (tl, 900, 200);
  GstCtfGtkTimeline *tt = GST_CTF_GTK_TIMELINE (tl);
  guint64 ts, te, a, b;
  guint notified = 0;
  guchar *px;
  gint w, h, xa, xb;
  gdouble ns_per_px;

  g_assert_true (gst_ctf_gtk_event_model_get_time_range (m, &ts, &te));
  g_object_get (tl, "marker-a-ns", &a, "marker-b-ns", &b, NULL);
  g_assert_cmpuint (a, ==, G_MAXUINT64);
  g_assert_cmpuint (b, ==, G_MAXUINT64);
  px = gtk_test_render (tl, &w, &h);
  g_assert_cmpint (find_column (px, w, h - 2, &a_color), ==, -1);
  g_assert_cmpint (find_column (px, w, h - 2, &b_color), ==, -1);
  g_free (px);

  g_signal_connect (tl, "notify::marker-a-ns", G_CALLBACK (count_notify),
      &notified);
  g_object_set (tl, "marker-a-ns", ts + (te - ts) / 4, NULL);
  gst_ctf_gtk_timeline_set_marker (tt, 0, ts + (te - ts) / 4);
  g_assert_cmpuint (notified, ==, 1);
  gst_ctf_gtk_timeline_set_marker (tt, 1, ts + (te - ts) / 4 * 3);
  g_assert_cmpuint (gst_ctf_gtk_timeline_get_marker (tt, 0), ==,
      ts + (te - ts) / 4);
  g_object_get (tl, "marker-b-ns", &b, NULL);
  g_assert_cmpuint (b, ==, ts + (te - ts) / 4 * 3);

  /* drawn where the time is */
  px = gtk_test_render (tl, &w, &h);
  xa = find_column (px, w, h - 2, &a_color);
  xb = find_column (px, w, h - 2, &b_color);
  g_free (px);
  g_assert_cmpint (xa, >, 0);
  g_assert_cmpint (xb, >, xa);
  ns_per_px = (gdouble) (gst_ctf_gtk_timeline_get_time_at (tt, w - 1) -
      gst_ctf_gtk_timeline_get_time_at (tt, w - 101)) / 100.0;
  g_assert_cmpfloat (fabs ((gdouble) gst_ctf_gtk_timeline_get_time_at (tt,
              xa + 1) - (gdouble) (ts + (te - ts) / 4)), <=, 2 * ns_per_px);
  g_assert_cmpfloat (fabs ((gdouble) gst_ctf_gtk_timeline_get_time_at (tt,
              xb + 1) - (gdouble) (ts + (te - ts) / 4 * 3)), <=,
      2 * ns_per_px);

  /* removed */
  gst_ctf_gtk_timeline_set_marker (tt, 0, G_MAXUINT64);
  g_assert_cmpuint (notified, ==, 2);
  px = gtk_test_render (tl, &w, &h);
  g_assert_cmpint (find_column (px, w, h - 2, &a_color), ==, -1);
  g_assert_cmpint (find_column (px, w, h - 2, &b_color), ==, xb);
  g_free (px);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
  g_free (t);
}

static void
test_details (void)
{
  gchar *t = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-sample",
      NULL);
  GstCtfGtkEventModel *m = gtk_test_open_loaded (t);
  GtkWidget *d = gst_ctf_gtk_details_new ();
  GtkWidget *win = gtk_test_show (d, 500, 600);
  GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), 0);
  guchar *px;
  gint w, h;

  gst_ctf_gtk_details_set_event (GST_CTF_GTK_DETAILS (d), ev);
  g_assert_true (gst_ctf_gtk_details_get_event (GST_CTF_GTK_DETAILS (d)) ==
      ev);
  while (g_main_context_iteration (NULL, FALSE));
  px = gtk_test_render (d, &w, &h);
  g_free (px);
  gst_ctf_gtk_details_set_event (GST_CTF_GTK_DETAILS (d), NULL);
  g_object_unref (ev);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
  g_free (t);
}

/* How long a redraw takes (the render nodes, what a frame costs before
 * rasterisation) at 1600 px, from the whole trace down to 1 µs: printed,
 * not asserted (the machine may be shared). */
static void
test_timeline_redraw_time (void)
{
  gchar *dat;
  GstCtfGtkEventModel *m;
  GtkWidget *tl, *win;
  guint64 ts, te;
  GArray *times = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble span;
  guint i;

  if (test_corpus () != NULL)
    dat = test_corpus_path ("tracedat/sched-irq-timer-wq.v7-zstd.dat");
  else
    dat = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
        "armv7-v6.dat", NULL);
  m = gtk_test_open_loaded (dat);
  tl = gst_ctf_gtk_timeline_new (m);
  win = gtk_test_show (tl, 1600 + 76, 300);
  g_assert_true (gst_ctf_gtk_event_model_get_time_range (m, &ts, &te));
  for (span = (gdouble) (te - ts); span >= 1000; span /= 2) {
    for (i = 0; i < 4; i++) {
      guint64 s = ts + (guint64) ((te - ts - MIN (span, te - ts)) * i / 4.0);
      GtkSnapshot *snap = gtk_snapshot_new ();
      GskRenderNode *node;
      gint64 t0;
      gdouble ms;

      gst_ctf_gtk_timeline_set_visible_range (GST_CTF_GTK_TIMELINE (tl), s,
          s + (guint64) span);
      t0 = g_get_monotonic_time ();
      GTK_WIDGET_GET_CLASS (tl)->snapshot (tl, snap);
      node = gtk_snapshot_free_to_node (snap);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (times, ms);
      g_clear_pointer (&node, gsk_render_node_unref);
    }
  }
  {
    gdouble *v = (gdouble *) times->data;
    guint n = times->len, k;

    /* insertion sort: a few dozen values */
    for (i = 1; i < n; i++)
      for (k = i; k > 0 && v[k - 1] > v[k]; k--) {
        gdouble t = v[k];

        v[k] = v[k - 1];
        v[k - 1] = t;
      }
    g_test_message ("timeline redraw (render nodes) at 1600 px, %u zoom "
        "levels/positions from the whole trace to 1 us: median %.2f ms, "
        "p95 %.2f ms, max %.2f ms", n, v[n / 2], v[n * 95 / 100], v[n - 1]);
  }
  g_array_unref (times);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
  g_free (dat);
}

int
main (int argc, char **argv)
{
  if (!gtk_test_init_display (&argc, &argv))
    return 0;
  g_test_add_func ("/widgets/timeline-tasks", test_timeline_tasks);
  g_test_add_func ("/widgets/timeline-range", test_timeline_range);
  g_test_add_func ("/widgets/timeline-markers", test_timeline_markers);
  g_test_add_func ("/widgets/details", test_details);
  g_test_add_func ("/widgets/timeline-redraw-time",
      test_timeline_redraw_time);
  return g_test_run ();
}
