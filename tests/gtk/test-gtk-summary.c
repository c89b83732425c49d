/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The timeline's summary (lib/gtk/timeline/gstctfgtk-summary.c, private:
 * built into the test) on made-up events, what real traces rarely give:
 * events out of time order within a lane, and more of them than its
 * memory cap holds at 64 ns (its finest levels dropped while it fills).
 * At every zoom the density equals the events counted, by brute force,
 * at the middle of their bin of the resolution it states; its bins stay
 * within SUMMARY_MAX_BYTES; the count of a range is the events of the
 * bins it touches.
 */
#include <string.h>
#include <glib.h>
#include "gstctfgtk-summary.h"

#define N_COLUMNS 1600

typedef struct {
  gint64 *t;
  guint *lane;
  guint n;
} Events;

static void
check_density (GstCtfGtkSummary * s, const Events * ev, guint n_lanes,
    gint64 start, gint64 end)
{
  gint64 t0, t_end, res = _gst_ctf_gtk_summary_get_resolution (s, start, end,
      N_COLUMNS);
  gdouble col_ns = (gdouble) (end - start) / N_COLUMNS;
  guint32 *got = g_new (guint32, N_COLUMNS), *want = g_new (guint32,
      N_COLUMNS);
  guint lane, i, c;

  g_assert_true (_gst_ctf_gtk_summary_get_range (s, &t0, &t_end));
  /* the widest bins at most a quarter column, or the finest */
  g_assert_true (res * SUMMARY_SUB_BINS <= col_ns ||
      res == _gst_ctf_gtk_summary_get_bin_ns (s));
  g_assert_true (res * SUMMARY_SUB_BINS * 2 > col_ns ||
      res == _gst_ctf_gtk_summary_get_bin_ns (s) || res * 2 *
      SUMMARY_COARSE_BINS > t_end - t0);
  for (lane = 0; lane < n_lanes; lane++) {
    _gst_ctf_gtk_summary_get_density (s, lane, start, end, N_COLUMNS, got,
        NULL);
    memset (want, 0, N_COLUMNS * sizeof (guint32));
    for (i = 0; i < ev->n; i++) {
      gint64 t = MAX (ev->t[i], t0), mid = t0 + (t - t0) / res * res + res / 2;

      if (ev->lane[i] != lane || mid < start || mid >= end)
        continue;
      c = (guint) ((mid - start) / col_ns);
      if (c < N_COLUMNS)
        want[c]++;
    }
    for (c = 0; c < N_COLUMNS; c++)
      if (got[c] != want[c])
        g_error ("[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), bins of %"
            G_GINT64_FORMAT " ns: lane %u column %u: %u events, %u expected",
            start, end, res, lane, c, got[c], want[c]);
  }
  g_free (got);
  g_free (want);
}

static void
run (guint n, guint n_lanes, gint64 span, gdouble disorder)
{
  GstCtfGtkSummary *s = _gst_ctf_gtk_summary_new ();
  GRand *r = g_rand_new_with_seed (n);
  Events ev = { g_new (gint64, n), g_new (guint, n), n };
  gint64 t = 1000000000, t0 = t, zoom;
  guint i;

  for (i = 0; i < n_lanes; i++) {
    gchar *name = g_strdup_printf ("stream%02u", i);

    g_assert_cmpuint (_gst_ctf_gtk_summary_lane (s, -1, name), ==, i);
    g_free (name);
  }
  for (i = 0; i < n; i++) {
    /* in time order, bursts and gaps; some a little late */
    t += g_rand_int_range (r, 0, 2) ? g_rand_int_range (r, 0, 200) :
        g_rand_int_range (r, 0, (gint32) MIN (2 * span / n, G_MAXINT32));
    ev.t[i] = t;
    if (g_rand_double (r) < disorder)
      ev.t[i] -= g_rand_int_range (r, 0, 100000);
    ev.lane[i] = g_rand_int_range (r, 0, n_lanes);
    _gst_ctf_gtk_summary_add_event (s, ev.lane[i], ev.t[i]);
  }
  g_test_message ("%u events on %u lanes over %.3f s: finest bins %"
      G_GINT64_FORMAT " ns", n, n_lanes, (t - t0) / 1e9,
      _gst_ctf_gtk_summary_get_bin_ns (s));
  /* the whole trace, and its end (the last bins) */
  check_density (s, &ev, n_lanes, t0, t + 1);
  check_density (s, &ev, n_lanes, t - (t - t0) / 50, t + 1);
  for (zoom = t - t0; zoom >= 1000; zoom /= 7) {
    gint64 at = t0 + g_rand_int_range (r, 0, 1000) * ((t - t0 - zoom) / 1000);

    check_density (s, &ev, n_lanes, at, at + zoom);
    check_density (s, &ev, n_lanes, t0 - zoom / 3, t0 - zoom / 3 + zoom);
  }
  /* the count of a range: the events of the bins it touches, bins of at
   * most a 1024th of it (or the finest) */
  {
    gint64 a = t0 + (t - t0) / 3, b = a + (t - t0) / 100;
    gint64 w = MAX ((b - a) / 1024, _gst_ctf_gtk_summary_get_bin_ns (s));
    guint64 exact = 0, wide = 0;
    guint64 got = _gst_ctf_gtk_summary_count_events (s, a, b);

    for (i = 0; i < n; i++) {
      exact += ev.t[i] >= a && ev.t[i] < b;
      wide += ev.t[i] >= a - w && ev.t[i] < b + w;
    }
    g_assert_cmpuint (got, >=, exact);
    g_assert_cmpuint (got, <=, wide);
  }
  g_rand_free (r);
  g_free (ev.t);
  g_free (ev.lane);
  _gst_ctf_gtk_summary_free (s);
}

/* A few thousand events: 64 ns bins throughout. */
static void
test_small (void)
{
  run (5000, 3, G_GINT64_CONSTANT (50000000), 0.0);
}

static void
test_out_of_order (void)
{
  run (20000, 2, G_GINT64_CONSTANT (10000000), 0.05);
}

/* More bins than the cap: the finest levels dropped as it fills. */
static void
test_capped (void)
{
  run (1500000, 4, G_GINT64_CONSTANT (20000000000), 0.001);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/summary/small", test_small);
  g_test_add_func ("/summary/out-of-order", test_out_of_order);
  g_test_add_func ("/summary/capped", test_capped);
  return g_test_run ();
}
