/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline's density per pixel column from its multi-resolution
 * summary (gstctfgtk-summary.c), at the whole trace, 1/10, 1/100 and
 * 1/1000 of it and a window of a few packets, 1600 columns:
 *
 * - gst_ctf_gtk_timeline_get_density() equals, lane by lane and column
 *   by column, the model's events (whose times are babeltrace2's, see
 *   test-gtk-event-model.c) counted in the column holding the middle of
 *   their bin, at the resolution it states;
 * - where it states bins at most a quarter of a column wide, the
 *   timeline reads nothing from the trace (no deep zoom); where the bins
 *   are wider, deep zoom reads the window's events, as many as the
 *   model's;
 * - on the bundled traces and the corpus's (small: the summary's memory
 *   cap is never reached, its finest bins stay 64 ns wide), the summary
 *   answers at every zoom where a column is at least 256 ns.
 *
 * Bundled traces always, corpus traces when GST_CTF_CORPUS is there.
 */
#include <string.h>
#include <gtk/gtk.h>
#include "gstctfgtk.h"
#include "../test-util.h"
#include "gtk-test-util.h"

#define PLOT_W 1600

/* The model's events: time and lane (CPUs in CPU order, then streams
 * without a CPU by name, as the timeline orders its lanes). */
typedef struct {
  guint64 *t;
  guint *lane;
  guint n, n_lanes;
} Events;

static gint
cmp_int (gconstpointer a, gconstpointer b)
{
  return *(const gint *) a - *(const gint *) b;
}

static gint
cmp_str (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar * const *) a, *(const gchar * const *) b);
}

static void
read_events (GstCtfGtkEventModel * m, Events * ev)
{
  GArray *cpus = g_array_new (FALSE, FALSE, sizeof (gint));
  GPtrArray *streams = g_ptr_array_new_with_free_func (g_free);
  gint *cpu;
  gchar **stream;
  guint i, k;

  ev->n = g_list_model_get_n_items (G_LIST_MODEL (m));
  ev->t = g_new (guint64, ev->n);
  ev->lane = g_new (guint, ev->n);
  cpu = g_new (gint, ev->n);
  stream = g_new0 (gchar *, ev->n);
  for (i = 0; i < ev->n; i++) {
    GstCtfGtkEvent *e = g_list_model_get_item (G_LIST_MODEL (m), i);

    g_assert_true (gst_ctf_gtk_event_has_timestamp (e));
    ev->t[i] = gst_ctf_gtk_event_get_timestamp_ns (e);
    cpu[i] = gst_ctf_gtk_event_get_cpu (e);
    if (cpu[i] < 0)
      stream[i] = g_strdup (gst_ctf_gtk_event_get_stream_name (e));
    g_object_unref (e);
  }
  for (i = 0; i < ev->n; i++) {
    if (cpu[i] >= 0) {
      for (k = 0; k < cpus->len && g_array_index (cpus, gint, k) != cpu[i];
          k++);
      if (k == cpus->len)
        g_array_append_val (cpus, cpu[i]);
    } else {
      for (k = 0; k < streams->len && g_strcmp0 (g_ptr_array_index (streams,
                  k), stream[i]) != 0; k++);
      if (k == streams->len)
        g_ptr_array_add (streams, g_strdup (stream[i]));
    }
  }
  g_array_sort (cpus, cmp_int);
  g_ptr_array_sort (streams, cmp_str);
  for (i = 0; i < ev->n; i++) {
    if (cpu[i] >= 0) {
      for (k = 0; g_array_index (cpus, gint, k) != cpu[i]; k++);
      ev->lane[i] = k;
    } else {
      for (k = 0; g_strcmp0 (g_ptr_array_index (streams, k), stream[i]) != 0;
          k++);
      ev->lane[i] = cpus->len + k;
    }
    g_free (stream[i]);
  }
  ev->n_lanes = cpus->len + streams->len;
  g_free (cpu);
  g_free (stream);
  g_array_unref (cpus);
  g_ptr_array_unref (streams);
}

/* Events per column of [@s, @e) in @n columns, each at the middle of its
 * bin of @res ns from the first event (what the summary states). */
static guint32 *
expected_density (const Events * ev, guint lane, guint64 s, guint64 e,
    guint n, guint64 res)
{
  guint32 *counts = g_new0 (guint32, n);
  gdouble col_ns = (gdouble) (e - s) / n;
  guint64 t0 = ev->t[0];
  guint i;

  for (i = 0; i < ev->n; i++) {
    guint64 t = MAX (ev->t[i], t0);
    gint64 mid = (gint64) (t0 + (t - t0) / res * res + res / 2), c;

    if (ev->lane[i] != lane || mid < (gint64) s || mid >= (gint64) e)
      continue;
    c = (gint64) ((mid - (gint64) s) / col_ns);
    if (c >= 0 && c < n)
      counts[c]++;
  }
  return counts;
}

static guint
count_in (const Events * ev, guint lane, guint64 s, guint64 e)
{
  guint i, n = 0;

  for (i = 0; i < ev->n; i++)
    n += ev->lane[i] == lane && ev->t[i] >= s && ev->t[i] < e;
  return n;
}

/* One zoom: [@s, @e) asked. */
static void
check_zoom (const gchar * path, GstCtfGtkTimeline * tl, const Events * ev,
    guint64 s, guint64 e, const gchar * what)
{
  guint lane, checked = 0, nonzero = 0;
  guint64 res = 0;
  gboolean summary = FALSE;
  gdouble col_ns;

  gst_ctf_gtk_timeline_set_visible_range (tl, s, e);
  gst_ctf_gtk_timeline_get_visible_range (tl, &s, &e);
  col_ns = (gdouble) (e - s) / PLOT_W;
  for (lane = 0; lane < ev->n_lanes; lane++) {
    guint n;
    guint32 *got = gst_ctf_gtk_timeline_get_density (tl, lane, &n, &res);
    guint32 *want;
    guint c;

    g_assert_nonnull (got);
    g_assert_cmpuint (n, ==, PLOT_W);
    g_assert_cmpuint (res, >, 0);
    summary = res * 4 <= col_ns;
    /* (small traces: 64 ns bins everywhere) */
    g_assert_true (summary || col_ns < 4 * 64);
    want = expected_density (ev, lane, s, e, n, res);
    for (c = 0; c < n; c++) {
      if (got[c] != want[c])
        g_error ("%s, %s [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
            "), bins of %" G_GUINT64_FORMAT " ns: lane %u column %u has %u "
            "events, the model's events give %u", path, what, s, e, res, lane,
            c, got[c], want[c]);
      checked += got[c];
      nonzero += got[c] > 0;
    }
    g_free (got);
    g_free (want);

    if (summary) {
      gsize nt;
      guint64 *t = gst_ctf_gtk_timeline_get_event_times (tl, lane, &nt);

      /* drawn from memory: nothing read from the trace */
      g_assert_null (t);
    } else {
      /* deep zoom: the events read are the model's */
      gsize nt;
      guint64 *t = gtk_test_wait_event_times (tl, lane, &nt);

      g_assert_cmpuint (nt, ==, count_in (ev, lane, s, e));
      g_free (t);
    }
  }
  g_test_message ("%s, %s: [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
      ") columns of %.1f ns, bins of %" G_GUINT64_FORMAT " ns (%s): %u "
      "events in %u non-empty columns equal", path, what, s, e, col_ns, res,
      summary ? "summary" : "deep zoom below", checked, nonzero);
}

static void
check_trace (const gchar * path)
{
  GstCtfGtkEventModel *m = gtk_test_open_loaded (path);
  GtkWidget *tl = gst_ctf_gtk_timeline_new (m);
  GtkWidget *win = gtk_test_show (tl, PLOT_W + 76, 400);
  GstCtfGtkTimeline *t = GST_CTF_GTK_TIMELINE (tl);
  Events ev;
  guint64 ts, te, mid, span;
  guint i, row;
  graphene_rect_t area;

  read_events (m, &ev);
  g_assert_cmpuint (ev.n, >, 100);
  g_assert_true (gst_ctf_gtk_event_model_get_time_range (m, &ts, &te));
  gst_ctf_gtk_timeline_get_lane_area (t, 0, &area);
  g_assert_cmpfloat (area.size.width, ==, PLOT_W);
  /* as many lanes as CPUs and streams */
  gst_ctf_gtk_timeline_get_lane_area (t, ev.n_lanes - 1, &area);
  g_assert_cmpint (gst_ctf_gtk_timeline_get_lane_at (t, area.origin.y + 1),
      ==, (gint) ev.n_lanes - 1);
  gst_ctf_gtk_timeline_get_lane_area (t, ev.n_lanes, &area);
  g_assert_cmpint (gst_ctf_gtk_timeline_get_lane_at (t, area.origin.y + 1),
      !=, (gint) ev.n_lanes);

  gst_ctf_gtk_timeline_show_all (t);
  gst_ctf_gtk_timeline_get_visible_range (t, &ts, &te);
  check_zoom (path, t, &ev, ts, te, "whole trace");
  /* around the middle event, 1/10, 1/100, 1/1000 of the trace */
  mid = ev.t[ev.n / 2];
  for (i = 1, span = te - ts; i <= 3; i++) {
    gchar *what = g_strdup_printf ("1/%u", i == 1 ? 10 : i == 2 ? 100 : 1000);

    span /= 10;
    check_zoom (path, t, &ev, mid - span / 2, mid - span / 2 + span, what);
    g_free (what);
  }
  /* a few packets: 300 events from a third of the trace */
  row = ev.n / 3;
  check_zoom (path, t, &ev, ev.t[row], ev.t[MIN (row + 300, ev.n - 1)] + 1,
      "300 events");
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
  g_free (ev.t);
  g_free (ev.lane);
}

static void
test_bundled (void)
{
  gchar *p = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmdsrc",
      "date.v7-zstd.dat", NULL);
  gchar *u = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-libc",
      NULL);

  check_trace (p);
  check_trace (u);
  g_free (p);
  g_free (u);
}

static void
test_corpus_traces (void)
{
  gchar *p;

  if (test_corpus () == NULL) {
    g_test_message ("SKIP corpus part: GST_CTF_CORPUS not set or missing");
    return;
  }
  p = test_corpus_path ("tracedat/sched-irq-timer-wq.v7-zstd.dat");
  check_trace (p);
  g_free (p);
  p = test_corpus_path ("ctf/lttng-ust/pthread-multichan");
  check_trace (p);
  g_free (p);
}

int
main (int argc, char **argv)
{
  if (!gtk_test_init_display (&argc, &argv))
    return 0;
  g_test_add_func ("/timeline-density/bundled", test_bundled);
  g_test_add_func ("/timeline-density/corpus", test_corpus_traces);
  return g_test_run ();
}
