/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf-viewer's following of a live session (viewer/gst-ctf-viewer-
 * live.c), on a window with a timeline and a model of a running session
 * of the tests' relay (never destroyed): the Follow toggle shows while
 * the session runs; the timeline shows all of a session shorter than the
 * follow window; zooming stops following; the Follow toggle (the End
 * key's action) follows again at the zoom shown, the end of the session
 * in view.  With an event table in the window: following keeps its last
 * row in view; scrolling it up stops following, Follow scrolls it to the
 * end again, selecting a row stops following.  Under Xvfb (skipped
 * without a display).
 */
#include <string.h>
#include <gtk/gtk.h>
#include <gst/gst.h>
#include "gstctfgtk.h"
#include "../live-relay.h"
#include "gst-ctf-viewer-live.h"
#include "gtk-test-util.h"

static gchar *opened;

static void
open_cb (gpointer data, const gchar * path)
{
  g_free (opened);
  opened = g_strdup (path);
}

static void
spin (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
}

static void
test_follow (void)
{
  TestRelayOptions o = { 0 };
  GError *err = NULL;
  TestRelay *relay;
  gchar *dir = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"),
      "ust-sample", NULL), *url;
  GtkWidget *window = gtk_window_new (), *box;
  GtkWidget *timeline = gst_ctf_gtk_timeline_new (NULL);
  GstCtfGtkEventModel *m;
  ViewerLive *live;
  guint64 a, b, s, e, w;
  gint64 until;
  GtkWidget *follow;

  o.dir = dir;
  o.beacons = TRUE;
  o.never_end = TRUE;
  relay = test_relay_start (&o, &err);
  g_assert_no_error (err);
  url = g_strdup_printf ("net://127.0.0.1:%u/host/testhost/testsession",
      test_relay_get_port (relay));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  live = viewer_live_new (GTK_WINDOW (window), GST_CTF_GTK_TIMELINE
      (timeline), open_cb, NULL);
  follow = viewer_live_get_follow_button (live);
  gtk_box_append (GTK_BOX (box), viewer_live_get_open_button (live));
  gtk_box_append (GTK_BOX (box), follow);
  gtk_box_append (GTK_BOX (box), timeline);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 300);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_false (gtk_widget_get_visible (follow));

  m = gst_ctf_gtk_event_model_new_for_path (url, &err);
  g_assert_no_error (err);
  gst_ctf_gtk_timeline_set_model (GST_CTF_GTK_TIMELINE (timeline), m);
  viewer_live_set_model (live, m);
  until = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (g_list_model_get_n_items (G_LIST_MODEL (m)) < 358 &&
      g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (m)), ==, 358);
  spin (200);
  g_assert_true (gst_ctf_gtk_event_model_get_loading (m));
  g_assert_true (gtk_widget_get_visible (follow));
  g_assert_true (viewer_live_get_following (live));
  g_assert_true (gst_ctf_gtk_event_model_get_time_range (m, &a, &b));
  /* a session of a few ms: all of it, its end in view */
  gst_ctf_gtk_timeline_get_visible_range (GST_CTF_GTK_TIMELINE (timeline),
      &s, &e);
  g_assert_cmpuint (s, <=, a);
  g_assert_cmpuint (e, >=, b);
  {
    gchar *st = viewer_live_status (live);

    g_assert_cmpstr (st, ==, "Live: 358 events so far, following");
    g_free (st);
  }

  /* zoomed in around the start: following stops */
  gst_ctf_gtk_timeline_zoom (GST_CTF_GTK_TIMELINE (timeline), 8, a);
  g_assert_false (viewer_live_get_following (live));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (follow)));
  gst_ctf_gtk_timeline_get_visible_range (GST_CTF_GTK_TIMELINE (timeline),
      &s, &e);
  w = e - s;
  g_assert_cmpuint (e, <, b);

  /* Follow (what End does too): following again, at that zoom, the end
   * in view */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (follow), TRUE);
  g_assert_true (viewer_live_get_following (live));
  gst_ctf_gtk_timeline_get_visible_range (GST_CTF_GTK_TIMELINE (timeline),
      &s, &e);
  g_assert_cmpuint (e, >=, b);
  g_assert_cmpuint (s, <=, b);
  g_assert_cmpuint (e - s, <=, w + w / 10);
  g_assert_cmpuint (e - s, >=, w - w / 10);
  g_test_message ("following %" G_GUINT64_FORMAT " ns of a %"
      G_GUINT64_FORMAT " ns session", e - s, b - a);

  viewer_live_set_model (live, NULL);
  gst_ctf_gtk_timeline_set_model (GST_CTF_GTK_TIMELINE (timeline), NULL);
  g_object_unref (m);
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_live_free (live);
  test_relay_stop (relay);
  g_free (url);
  g_free (dir);
  g_free (opened);
}

static void
setup_label (GtkSignalListItemFactory * f, GtkListItem * item, gpointer d)
{
  gtk_list_item_set_child (item, gtk_label_new (NULL));
}

static guint last_bound;

static void
bind_label (GtkSignalListItemFactory * f, GtkListItem * item, gpointer d)
{
  GstCtfGtkEvent *ev = gtk_list_item_get_item (item);

  last_bound = MAX (last_bound, gtk_list_item_get_position (item));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
      gst_ctf_gtk_event_get_name (ev));
}

/* Waits for the table's layout of its rows (the adjustment's upper
 * settles). */
static void
settle (GtkAdjustment * adj)
{
  gdouble upper = -1;
  gint i;

  for (i = 0; i < 50 && upper != gtk_adjustment_get_upper (adj); i++) {
    upper = gtk_adjustment_get_upper (adj);
    spin (100);
  }
}

static gboolean
at_end (GtkAdjustment * adj)
{
  return gtk_adjustment_get_value (adj) + 1 >= gtk_adjustment_get_upper
      (adj) - gtk_adjustment_get_page_size (adj);
}

static void
test_table (void)
{
  TestRelayOptions o = { 0 };
  GError *err = NULL;
  TestRelay *relay;
  gchar *dir = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"),
      "ust-sample", NULL), *url;
  GtkWidget *window = gtk_window_new (), *box, *scroll, *table;
  GtkWidget *timeline = gst_ctf_gtk_timeline_new (NULL);
  GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
  GtkSingleSelection *sel = gtk_single_selection_new (NULL); /* the table's */
  GstCtfGtkEventModel *m;
  GtkAdjustment *adj;
  ViewerLive *live;
  gint64 until;
  GtkWidget *follow;

  o.dir = dir;
  o.beacons = TRUE;
  o.never_end = TRUE;
  relay = test_relay_start (&o, &err);
  g_assert_no_error (err);
  url = g_strdup_printf ("net://127.0.0.1:%u/host/testhost/testsession",
      test_relay_get_port (relay));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  live = viewer_live_new (GTK_WINDOW (window), GST_CTF_GTK_TIMELINE
      (timeline), open_cb, NULL);
  follow = viewer_live_get_follow_button (live);
  gtk_box_append (GTK_BOX (box), follow);
  gtk_box_append (GTK_BOX (box), timeline);
  g_signal_connect (f, "setup", G_CALLBACK (setup_label), NULL);
  g_signal_connect (f, "bind", G_CALLBACK (bind_label), NULL);
  gtk_single_selection_set_autoselect (sel, FALSE);
  gtk_single_selection_set_can_unselect (sel, TRUE);
  table = gtk_column_view_new (GTK_SELECTION_MODEL (sel));
  gtk_column_view_append_column (GTK_COLUMN_VIEW (table),
      gtk_column_view_column_new ("Event", f));
  scroll = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroll, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), table);
  gtk_box_append (GTK_BOX (box), scroll);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 500);
  gtk_window_present (GTK_WINDOW (window));
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroll));

  m = gst_ctf_gtk_event_model_new_for_path (url, &err);
  g_assert_no_error (err);
  gst_ctf_gtk_timeline_set_model (GST_CTF_GTK_TIMELINE (timeline), m);
  gtk_single_selection_set_model (sel, G_LIST_MODEL (m));
  viewer_live_set_model (live, m);
  until = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (g_list_model_get_n_items (G_LIST_MODEL (m)) < 358 &&
      g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (m)), ==, 358);
  settle (adj);
  g_assert_true (gst_ctf_gtk_event_model_get_loading (m));
  g_assert_true (viewer_live_get_following (live));
  /* 358 rows do not fit: the table scrolled to its last one (bound, so
   * shown: the list view lays out the rows in view) */
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >,
      2 * gtk_adjustment_get_page_size (adj));
  g_assert_true (at_end (adj));
  g_assert_cmpuint (last_bound, ==, 357);

  /* scrolled up: following stops, the table stays there */
  gtk_adjustment_set_value (adj, 0);
  g_assert_false (viewer_live_get_following (live));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (follow)));
  settle (adj);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 0);
  last_bound = 0;

  /* Follow: the last row again */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (follow), TRUE);
  g_assert_true (viewer_live_get_following (live));
  settle (adj);
  g_assert_true (at_end (adj));
  g_assert_cmpuint (last_bound, ==, 357);

  /* a row selected: following stops */
  gtk_single_selection_set_selected (sel, 350);
  g_assert_false (viewer_live_get_following (live));
  settle (adj);
  g_assert_cmpuint (gtk_single_selection_get_selected (sel), ==, 350);

  viewer_live_set_model (live, NULL);
  gtk_single_selection_set_model (sel, NULL);
  gst_ctf_gtk_timeline_set_model (GST_CTF_GTK_TIMELINE (timeline), NULL);
  g_object_unref (m);
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_live_free (live);
  test_relay_stop (relay);
  g_free (url);
  g_free (dir);
  g_free (opened);
  opened = NULL;
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  if (!gtk_test_init_display (&argc, &argv))
    return 0;
  g_test_add_func ("/viewer-live/follow", test_follow);
  g_test_add_func ("/viewer-live/table", test_table);
  return g_test_run ();
}
