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

/* `HH:MM:SS.NNNNNNNNN` of ns from the origin, in UTC (TZ=UTC oracles). */
static gchar *
bt2_time (guint64 ns)
{
  guint64 s = ns / 1000000000, day = s % 86400;

  return g_strdup_printf ("%02u:%02u:%02u.%09u", (guint) (day / 3600),
      (guint) (day / 60 % 60), (guint) (day % 60),
      (guint) (ns % 1000000000));
}

void
gtk_test_check_line (const gchar * unit, guint pos, GstCtfGtkEvent * ev,
    const gchar * line)
{
  const gchar *name = gst_ctf_gtk_event_get_name (ev);
  const gchar *fields = gst_ctf_gtk_event_get_fields (ev);
  gchar *t = bt2_time (gst_ctf_gtk_event_get_timestamp_ns (ev));
  const gchar *p, *cpu;
  gsize nlen = strlen (name);

  if (gst_ctf_gtk_event_has_timestamp (ev)) {
    if (line[0] != '[' || strncmp (line + 1, t, strlen (t)) != 0)
      g_error ("%s row %u: time %s, oracle: %s", unit, pos, t, line);
    p = strstr (line, ") ");
    g_assert_nonnull (p);
    p += 2;
  } else {
    /* no clock: babeltrace2 prints no time */
    g_assert_cmpint (line[0], !=, '[');
    p = line;
  }
  g_free (t);
  if (!(strncmp (p, name, nlen) == 0 && p[nlen] == ':'))
    p = strchr (p, ' ') + 1;
  if (!(strncmp (p, name, nlen) == 0 && p[nlen] == ':'))
    g_error ("%s row %u: name %s, oracle: %s", unit, pos, name, line);
  p += nlen + 1;
  if (*p == ' ')
    p++;
  if (strcmp (p, fields) != 0)
    g_error ("%s row %u:\n  model:  %s\n  oracle: %s", unit, pos, fields,
        p);
  /* babeltrace2 prints LTTng's packet context cpu_id first */
  cpu = strstr (p, "{ cpu_id = ");
  if (cpu == p)
    g_assert_cmpint (gst_ctf_gtk_event_get_cpu (ev), ==,
        (gint) g_ascii_strtoll (cpu + 11, NULL, 10));
}

gboolean
gtk_test_init_display (int *argc, char ***argv)
{
  g_test_init (argc, argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  if (!gtk_init_check ()) {
    g_print ("1..0 # SKIP no display (run under xvfb-run)\n");
    return FALSE;
  }
  return TRUE;
}

gboolean
gtk_test_pixel_is (const guchar * px, gint width, gint x, gint y,
    const GdkRGBA * c)
{
  const guchar *p = px + ((gsize) y * width + x) * 4;
  gdouble k;

  for (k = 1.0; k > 0.86; k -= 0.01)
    if (ABS (p[2] - (gint) (c->red * k * 255 + 0.5)) <= 2 &&
        ABS (p[1] - (gint) (c->green * k * 255 + 0.5)) <= 2 &&
        ABS (p[0] - (gint) (c->blue * k * 255 + 0.5)) <= 2)
      return TRUE;
  return FALSE;
}

guint64 *
gtk_test_wait_event_times (GstCtfGtkTimeline * tl, guint lane, gsize * n)
{
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  for (;;) {
    guint64 *t = gst_ctf_gtk_timeline_get_event_times (tl, lane, n);

    if (t != NULL)
      return t;
    g_assert_cmpint (g_get_monotonic_time (), <, until);
    g_main_context_iteration (NULL, FALSE);
    g_usleep (1000);
  }
}
