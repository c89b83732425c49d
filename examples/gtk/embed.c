/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The gst-ctf GTK 4 widgets in an application: a timeline above the
 * details of the event clicked in it.   embed TRACE */
#include <gtk/gtk.h>
#include <gstctfgtk.h>    /* pkg-config gstctf-gtk-1.0 */

static void
on_event (GstCtfGtkTimeline * tl, guint row, GstCtfGtkDetails * details)
{
  GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL
      (gst_ctf_gtk_timeline_get_model (tl)), row);

  gst_ctf_gtk_details_set_event (details, ev);
  g_clear_object (&ev);
}

int
main (int argc, char **argv)
{
  GError *err = NULL;
  GstCtfGtkEventModel *model;
  GtkWidget *win, *box, *timeline, *details;

  gtk_init ();
  model = gst_ctf_gtk_event_model_new_for_path (argc > 1 ? argv[1] : ".",
      &err);
  if (model == NULL) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  timeline = gst_ctf_gtk_timeline_new (model);
  details = gst_ctf_gtk_details_new ();
  gtk_widget_set_vexpand (details, TRUE);
  g_signal_connect (timeline, "event-activated", G_CALLBACK (on_event),
      details);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), timeline);
  gtk_box_append (GTK_BOX (box), details);
  win = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (win), 1000, 600);
  gtk_window_set_child (GTK_WINDOW (win), box);
  gtk_window_present (GTK_WINDOW (win));
  while (g_list_model_get_n_items (gtk_window_get_toplevels ()) > 0)
    g_main_context_iteration (NULL, TRUE);
  g_object_unref (model);
  return 0;
}
