/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gtk-live-dump URL [--filter TEXT] [--export DIR]: follows a live
 * session with GstCtfGtkEventModel (tests/gtk/test-viewer-live.py):
 * prints `loading N` (flushed) once the model has rows while the session
 * runs, then, when the session ended, `rows N` and every row as `TIME
 * NAME: FIELDS` (TIME in UTC, as babeltrace2 with TZ=UTC).  With
 * --filter, a GstCtfGtkFilterModel of TEXT made as the session starts:
 * `filter N` and its rows alike, after a check that GstCtfGtkSearch
 * next (from -1) and previous (from the end) walk exactly its rows.
 * With --export, the viewer's export (gst-ctf-viewer-export.c) of the
 * times of rows N/4 to 3N/4 into DIR: `export START END` (ns from the
 * clock origin).  Exit status 1 on an error.
 */
#include <stdio.h>
#include <string.h>
#include <gst/gst.h>
#include "gstctfgtk.h"
#include "gst-ctf-viewer-export.h"

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

static void
print_rows (GListModel * list)
{
  guint i, n = g_list_model_get_n_items (list);

  for (i = 0; i < n; i++) {
    GstCtfGtkEvent *ev = g_list_model_get_item (list, i);
    guint64 ns = gst_ctf_gtk_event_get_timestamp_ns (ev);
    guint64 s = ns / 1000000000 % 86400;

    printf ("%02u:%02u:%02u.%09u %s: %s\n", (guint) (s / 3600),
        (guint) (s / 60 % 60), (guint) (s % 60), (guint) (ns % 1000000000),
        gst_ctf_gtk_event_get_name (ev), gst_ctf_gtk_event_get_fields (ev));
    g_object_unref (ev);
  }
}

/* Next from -1 and previous from the end, find by find: the filter
 * model's rows. */
static gboolean
check_search (GstCtfGtkEventModel * m, GstCtfGtkFilterModel * fm,
    const gchar * text, GError ** error)
{
  GstCtfGtkSearch *s = gst_ctf_gtk_search_new (m, text, error);
  guint nm = g_list_model_get_n_items (G_LIST_MODEL (fm)), k;
  gint64 from = -1;
  guint64 got;

  if (s == NULL)
    return FALSE;
  for (k = 0; gst_ctf_gtk_search_find (s, from, TRUE, NULL, &got, error);
      k++) {
    if (k >= nm || got != gst_ctf_gtk_filter_model_get_base_row (fm, k))
      break;
    from = (gint64) got;
  }
  if (*error == NULL && k == nm) {
    from = g_list_model_get_n_items (G_LIST_MODEL (m));
    for (; k > 0 && gst_ctf_gtk_search_find (s, from, FALSE, NULL, &got,
            error); k--) {
      if (got != gst_ctf_gtk_filter_model_get_base_row (fm, k - 1))
        break;
      from = (gint64) got;
    }
    if (k == 0 && *error == NULL &&
        !gst_ctf_gtk_search_find (s, from, FALSE, NULL, &got, error) &&
        *error == NULL) {
      g_object_unref (s);
      return TRUE;
    }
  }
  if (*error == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the search's "
        "match %u is not the filter model's (%u matches)", k, nm);
  g_object_unref (s);
  return FALSE;
}

static void
on_export_done (GstCtfViewerExport * ex, const GError * error,
    gpointer data)
{
  GError **out = data;

  *out = error != NULL ? g_error_copy (error) :
      g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, "done");
}

static gboolean
export (GstCtfGtkEventModel * m, const gchar * dir, GError ** error)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (m));
  GstCtfGtkEvent *a, *b;
  GstCtfViewerExport *ex;
  guint64 s, e;
  GError *done = NULL;

  if (n == 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "no rows");
    return FALSE;
  }
  a = g_list_model_get_item (G_LIST_MODEL (m), n / 4);
  b = g_list_model_get_item (G_LIST_MODEL (m), 3 * n / 4);
  s = gst_ctf_gtk_event_get_timestamp_ns (a);
  e = gst_ctf_gtk_event_get_timestamp_ns (b);
  g_object_unref (a);
  g_object_unref (b);
  ex = gst_ctf_viewer_export_start (gst_ctf_gtk_event_model_get_path (m), m,
      s, e, dir, on_export_done, &done, error);
  if (ex == NULL)
    return FALSE;
  while (done == NULL)
    g_main_context_iteration (NULL, TRUE);
  gst_ctf_viewer_export_free (ex);
  if (!g_error_matches (done, G_IO_ERROR, G_IO_ERROR_EXISTS)) {
    g_propagate_error (error, done);
    return FALSE;
  }
  g_error_free (done);
  printf ("export %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", s, e);
  return TRUE;
}

int
main (int argc, char **argv)
{
  GError *err = NULL;
  GstCtfGtkEventModel *m;
  GstCtfGtkFilterModel *fm = NULL;
  gboolean said = FALSE;
  const gchar *filter = NULL, *export_dir = NULL;
  gint i;

  for (i = 2; i + 1 < argc; i += 2) {
    if (strcmp (argv[i], "--filter") == 0)
      filter = argv[i + 1];
    else if (strcmp (argv[i], "--export") == 0)
      export_dir = argv[i + 1];
    else
      break;
  }
  if (argc < 2 || i != argc) {
    fprintf (stderr, "usage: gtk-live-dump URL [--filter TEXT] "
        "[--export DIR]\n");
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
  /* made as the session starts: it grows with it */
  if (filter != NULL && (fm = gst_ctf_gtk_filter_model_new (m, filter,
              &err)) == NULL)
    goto fail;
  if (!gst_ctf_gtk_event_model_wait (m, &err))
    goto fail;
  printf ("rows %u\n", g_list_model_get_n_items (G_LIST_MODEL (m)));
  print_rows (G_LIST_MODEL (m));
  if (fm != NULL) {
    if (!gst_ctf_gtk_filter_model_wait (fm, &err) ||
        !check_search (m, fm, filter, &err))
      goto fail;
    printf ("filter %u\n", g_list_model_get_n_items (G_LIST_MODEL (fm)));
    print_rows (G_LIST_MODEL (fm));
  }
  if (export_dir != NULL && !export (m, export_dir, &err))
    goto fail;
  g_clear_object (&fm);
  g_object_unref (m);
  return 0;
fail:
  fprintf (stderr, "gtk-live-dump: %s\n", err->message);
  g_error_free (err);
  g_clear_object (&fm);
  g_object_unref (m);
  return 1;
}
