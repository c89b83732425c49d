/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline's deep zoom on a live session (`net://...` of the
 * tests' relay, once it ended): the worker reads the packets the model
 * received (no second attach to the relay), and the times of its ticks,
 * all lanes together, are the model's events of the visible range.
 */
#include <string.h>
#include <gtk/gtk.h>
#include "gstctfgtk.h"
#include "../live-relay.h"
#include "gtk-test-util.h"

static gint
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* Every lane's ticks of the range shown, sorted (10 s at most). */
static GArray *
ticks (GstCtfGtkTimeline * tl)
{
  GArray *all = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint lane;

  for (lane = 0; lane < 64; lane++) {
    gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
    graphene_rect_t area;
    guint64 *t;
    gsize n;

    gst_ctf_gtk_timeline_get_lane_area (tl, lane, &area);
    if (gst_ctf_gtk_timeline_get_lane_at (tl, area.origin.y + 1) !=
        (gint) lane)
      break;
    while ((t = gst_ctf_gtk_timeline_get_event_times (tl, lane, &n)) ==
        NULL) {
      g_assert_cmpint (g_get_monotonic_time (), <, until);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
    g_array_append_vals (all, t, n);
    g_free (t);
  }
  g_array_sort (all, cmp_u64);
  return all;
}

static void
test_live_deep (void)
{
  gchar *dir = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-sample",
      NULL), *url;
  TestRelayOptions o = { 0 };
  GError *err = NULL;
  TestRelay *relay;
  GstCtfGtkEventModel *m;
  GtkWidget *tl, *win;
  guint n, i, checked = 0;

  o.dir = dir;
  o.beacons = TRUE;
  relay = test_relay_start (&o, &err);
  g_assert_no_error (err);
  url = g_strdup_printf ("net://127.0.0.1:%u/host/testhost/testsession",
      test_relay_get_port (relay));
  m = gst_ctf_gtk_event_model_new_for_path (url, &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_event_model_wait (m, &err));
  g_assert_no_error (err);
  while (gst_ctf_gtk_event_model_get_loading (m))
    g_main_context_iteration (NULL, TRUE);
  n = g_list_model_get_n_items (G_LIST_MODEL (m));
  tl = gst_ctf_gtk_timeline_new (m);
  win = gtk_test_show (tl, 1676, 400);
  for (i = 0; i < 8; i++) {
    guint row = n * (2 * i + 1) / 16, r;
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), row);
    guint64 t = gst_ctf_gtk_event_get_timestamp_ns (ev), s, e;
    GArray *want = g_array_new (FALSE, FALSE, sizeof (guint64)), *got;

    g_object_unref (ev);
    gst_ctf_gtk_timeline_set_visible_range (GST_CTF_GTK_TIMELINE (tl),
        t - 1000, t + 9000);
    gst_ctf_gtk_timeline_get_visible_range (GST_CTF_GTK_TIMELINE (tl), &s,
        &e);
    for (r = gst_ctf_gtk_event_model_find_row (m, s); r < n; r++) {
      guint64 x;

      ev = g_list_model_get_item (G_LIST_MODEL (m), r);
      x = gst_ctf_gtk_event_get_timestamp_ns (ev);
      g_object_unref (ev);
      if (x >= e)
        break;
      g_array_append_val (want, x);
    }
    g_array_sort (want, cmp_u64);
    got = ticks (GST_CTF_GTK_TIMELINE (tl));
    if (got->len != want->len || memcmp (got->data, want->data,
            got->len * sizeof (guint64)) != 0)
      g_error ("[%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "): %u ticks, "
          "the model has %u events there", s, e, got->len, want->len);
    checked += got->len;
    g_array_unref (got);
    g_array_unref (want);
  }
  g_test_message ("live deep zoom: %u ticks in 8 windows of 10 us", checked);
  g_assert_cmpuint (checked, >, 0);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
  test_relay_stop (relay);
  g_free (url);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  if (!gtk_test_init_display (&argc, &argv))
    return 0;
  g_test_add_func ("/gtk-live-deep/ticks", test_live_deep);
  return g_test_run ();
}
