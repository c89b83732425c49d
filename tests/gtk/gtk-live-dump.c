/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gtk-live-dump URL: follows a live session with GstCtfGtkEventModel
 * (tests/gtk/test-viewer-live.py): prints `loading N` (flushed) once the
 * model has rows while the session runs, then, when the session ended,
 * `rows N` and every row as `TIME NAME: FIELDS` (TIME in UTC, as
 * babeltrace2 with TZ=UTC).  Exit status 1 on an error.
 */
#include <stdio.h>
#include <gst/gst.h>
#include "gstctfgtk.h"

static void
on_items_changed (GListModel * list, guint pos, guint removed, guint added,
    gboolean * said)
{
  if (!*said && gst_ctf_gtk_event_model_get_loading (GST_CTF_GTK_EVENT_MODEL
          (list)) && g_list_model_get_n_items (list) > 0) {
    *said = TRUE;
    printf ("loading %u\n", g_list_model_get_n_items (list));
    fflush (stdout);
  }
}

int
main (int argc, char **argv)
{
  GError *err = NULL;
  GstCtfGtkEventModel *m;
  gboolean said = FALSE;
  guint i, n;

  if (argc != 2) {
    fprintf (stderr, "usage: gtk-live-dump URL\n");
    return 2;
  }
  gst_init (NULL, NULL);
  m = gst_ctf_gtk_event_model_new_for_path (argv[1], &err);
  if (m == NULL) {
    fprintf (stderr, "gtk-live-dump: %s\n", err->message);
    g_error_free (err);
    return 1;
  }
  g_signal_connect (m, "items-changed", G_CALLBACK (on_items_changed),
      &said);
  if (!gst_ctf_gtk_event_model_wait (m, &err)) {
    fprintf (stderr, "gtk-live-dump: %s\n", err->message);
    g_error_free (err);
    g_object_unref (m);
    return 1;
  }
  n = g_list_model_get_n_items (G_LIST_MODEL (m));
  printf ("rows %u\n", n);
  for (i = 0; i < n; i++) {
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), i);
    guint64 ns = gst_ctf_gtk_event_get_timestamp_ns (ev);
    guint64 s = ns / 1000000000 % 86400;

    printf ("%02u:%02u:%02u.%09u %s: %s\n", (guint) (s / 3600),
        (guint) (s / 60 % 60), (guint) (s % 60), (guint) (ns % 1000000000),
        gst_ctf_gtk_event_get_name (ev), gst_ctf_gtk_event_get_fields (ev));
    g_object_unref (ev);
  }
  g_object_unref (m);
  return 0;
}
