/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the GTK tests share (gtk-test-util.h). */
#include "gtk-test-util.h"

GstCtfGtkEventModel *
gtk_test_open_loaded (const gchar * path)
{
  GError *err = NULL;
  GstCtfGtkEventModel *m = gst_ctf_gtk_event_model_new_for_path (path, &err);

  g_assert_no_error (err);
  g_assert_nonnull (m);
  g_assert_true (gst_ctf_gtk_event_model_wait (m, &err));
  g_assert_no_error (err);
  g_assert_false (gst_ctf_gtk_event_model_get_loading (m));
  return m;
}

GtkWidget *
gtk_test_show (GtkWidget * child, gint w, gint h)
{
  GtkWidget *win = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (win), w, h);
  gtk_window_set_child (GTK_WINDOW (win), child);
  gtk_window_present (GTK_WINDOW (win));
  while (gtk_widget_get_width (child) < w / 2 ||
      !gtk_widget_get_mapped (child))
    g_main_context_iteration (NULL, TRUE);
  return win;
}

guchar *
gtk_test_render (GtkWidget * w, gint * width, gint * height)
{
  GtkSnapshot *s = gtk_snapshot_new ();
  GskRenderer *r = gtk_native_get_renderer (gtk_widget_get_native (w));
  GskRenderNode *node;
  GdkTexture *tex;
  guchar *px;

  /* the widget's own drawing, now (its paintable gives the last frame) */
  while (g_main_context_iteration (NULL, FALSE));
  *width = gtk_widget_get_width (w);
  *height = gtk_widget_get_height (w);
  GTK_WIDGET_GET_CLASS (w)->snapshot (w, s);
  node = gtk_snapshot_free_to_node (s);
  if (node == NULL)             /* a container whose children are not drawn yet */
    return NULL;
  tex = gsk_renderer_render_texture (r, node,
      &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  px = g_malloc ((gsize) * width * *height * 4);
  gdk_texture_download (tex, px, (gsize) * width * 4);
  g_object_unref (tex);
  gsk_render_node_unref (node);
  return px;
}

GPtrArray *
gtk_test_split_lines (const gchar * text)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  guint i;

  for (i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (out, g_strdup (lines[i]));
  g_strfreev (lines);
  return out;
}

GPtrArray *
gtk_test_read_lines (const gchar * path)
{
  gchar *text = NULL;
  GPtrArray *out;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  out = gtk_test_split_lines (text);
  g_free (text);
  return out;
}
