/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The marker bar of gst-ctf-viewer: a label under the timeline showing
 * marker A, marker B (GstCtfGtkTimeline:marker-a-ns / marker-b-ns) and
 * B - A, updated when either moves.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gst-ctf-viewer-markers.h"

static void
append_time (GString * s, const gchar * name, guint64 ns)
{
  guint64 secs = ns / 1000000000;

  /* as the table's Time column: the time of day of the clock, UTC */
  g_string_append_printf (s, "%s %02u:%02u:%02u.%09u", name,
      (guint) (secs / 3600 % 24), (guint) (secs / 60 % 60),
      (guint) (secs % 60), (guint) (ns % 1000000000));
}

/**
 * gst_ctf_viewer_marker_text:
 * @a_ns: marker A in ns, %G_MAXUINT64 when unset
 * @b_ns: marker B in ns, %G_MAXUINT64 when unset
 *
 * Returns: (transfer full): the marker bar's text, e.g.
 *   `A 00:34:54.383000000   B 00:34:54.383500000   B-A +500000 ns
 *   (0.500000 ms)`
 */
gchar *
gst_ctf_viewer_marker_text (guint64 a_ns, guint64 b_ns)
{
  GString *s = g_string_new (NULL);

  if (a_ns == G_MAXUINT64 && b_ns == G_MAXUINT64)
    return g_strdup ("Markers: Ctrl+click (A), Ctrl+Shift+click (B), "
        "or the A/B keys; Escape removes them");
  if (a_ns != G_MAXUINT64)
    append_time (s, "A", a_ns);
  if (b_ns != G_MAXUINT64) {
    if (s->len > 0)
      g_string_append (s, "   ");
    append_time (s, "B", b_ns);
  }
  if (a_ns != G_MAXUINT64 && b_ns != G_MAXUINT64) {
    guint64 d = b_ns >= a_ns ? b_ns - a_ns : a_ns - b_ns;

    g_string_append_printf (s, "   B-A %c%" G_GUINT64_FORMAT " ns",
        b_ns >= a_ns ? '+' : '-', d);
    if (d >= 1000)
      g_string_append_printf (s, " (%.6f ms)", d / 1e6);
  }
  return g_string_free (s, FALSE);
}

static void
update (GstCtfGtkTimeline * timeline, GParamSpec * pspec, GtkLabel * label)
{
  gchar *text = gst_ctf_viewer_marker_text
      (gst_ctf_gtk_timeline_get_marker (timeline, 0),
      gst_ctf_gtk_timeline_get_marker (timeline, 1));

  gtk_label_set_text (label, text);
  g_free (text);
}

/**
 * gst_ctf_viewer_marker_bar_new:
 * @timeline: the timeline whose markers are shown
 *
 * Returns: (transfer floating): a label following the markers of @timeline
 */
GtkWidget *
gst_ctf_viewer_marker_bar_new (GstCtfGtkTimeline * timeline)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_name (label, "marker-bar");
  gtk_widget_set_margin_start (label, 6);
  g_signal_connect_object (timeline, "notify::marker-a-ns",
      G_CALLBACK (update), label, 0);
  g_signal_connect_object (timeline, "notify::marker-b-ns",
      G_CALLBACK (update), label, 0);
  update (timeline, NULL, GTK_LABEL (label));
  return label;
}
