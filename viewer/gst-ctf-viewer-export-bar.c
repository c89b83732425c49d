/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The export bar of gst-ctf-viewer: an "Export selection…" button that
 * asks for a directory and exports the timeline's selection (else the
 * range between markers A and B) through gst-ctf-viewer-export.c, with a
 * progress bar and a Cancel button while it runs; the outcome goes to the
 * status line.  The bar's state hangs on the box (g_object_set_data).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gst-ctf-viewer-export-bar.h"
#include "gst-ctf-viewer-export.h"

typedef struct {
  GtkWidget *box, *button, *progress, *cancel;
  GtkWidget *status;
  GstCtfGtkTimeline *timeline;
  gchar *trace;
  GstCtfGtkEventModel *model;   /* (nullable): the trace's */
  gchar *dir;
  GstCtfViewerExport *export;
  guint tick;
  GMainLoop *quit_loop;
  gboolean *failed;
} Bar;

static void
bar_free (Bar * b)
{
  g_clear_handle_id (&b->tick, g_source_remove);
  g_clear_pointer (&b->export, gst_ctf_viewer_export_free);
  g_free (b->trace);
  if (b->model != NULL)
    g_signal_handlers_disconnect_by_data (b->model, b);
  g_clear_object (&b->model);
  g_free (b->dir);
  g_free (b);
}

static void
set_status (Bar * b, const gchar * text)
{
  gtk_label_set_text (GTK_LABEL (b->status), text);
}

static void
set_running (Bar * b, gboolean running)
{
  gtk_widget_set_visible (b->progress, running);
  gtk_widget_set_visible (b->cancel, running);
  gtk_widget_set_sensitive (b->button, !running && b->trace != NULL);
}

static gboolean
on_tick (Bar * b)
{
  if (b->export != NULL)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (b->progress),
        gst_ctf_viewer_export_get_fraction (b->export));
  return G_SOURCE_CONTINUE;
}

static gboolean
free_export_idle (gpointer data)
{
  gst_ctf_viewer_export_free (data);
  return G_SOURCE_REMOVE;
}

static void
on_done (GstCtfViewerExport * ex, const GError * error, Bar * b)
{
  gchar *text;

  if (error != NULL)
    text = g_strdup_printf ("Export into \"%s\" stopped: %s", b->dir,
        error->message);
  else
    text = g_strdup_printf ("Exported into \"%s\"", b->dir);
  set_status (b, text);
  if (error != NULL)
    g_printerr ("%s\n", text);
  g_free (text);
  g_clear_handle_id (&b->tick, g_source_remove);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (b->progress), 1.0);
  set_running (b, FALSE);
  /* freed outside its own callback */
  g_idle_add (free_export_idle, b->export);
  b->export = NULL;
  if (error != NULL && b->failed != NULL)
    *b->failed = TRUE;
  if (b->quit_loop != NULL)
    g_main_loop_quit (b->quit_loop);
}

static gboolean
quit_idle (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

/* The range to export: the selection (more than 1 ns), else A..B. */
static gboolean
get_range (Bar * b, guint64 * start, guint64 * end)
{
  guint64 s, e, a, mb;

  g_object_get (b->timeline, "selection-start-ns", &s, "selection-end-ns",
      &e, NULL);
  /* a selected row marks 1 ns: not a range */
  if (e > s + 1) {
    *start = s;
    *end = e;
    return TRUE;
  }
  a = gst_ctf_gtk_timeline_get_marker (b->timeline, 0);
  mb = gst_ctf_gtk_timeline_get_marker (b->timeline, 1);
  if (a == G_MAXUINT64 || mb == G_MAXUINT64)
    return FALSE;
  *start = MIN (a, mb);
  *end = MAX (a, mb);
  return TRUE;
}

static void
start (Bar * b, const gchar * dir)
{
  GError *err = NULL;
  guint64 s = 0, e = 0;
  gchar *text;

  g_free (b->dir);
  b->dir = g_strdup (dir);
  if (b->trace == NULL) {
    err = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
        "no trace is open");
  } else if (!get_range (b, &s, &e)) {
    err = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "select a range (Shift+drag) or place markers A and B first");
  } else {
    b->export = gst_ctf_viewer_export_start (b->trace, b->model, s, e, dir,
        (GstCtfViewerExportDone) on_done, b, &err);
  }
  if (b->export == NULL) {
    text = g_strdup_printf ("Cannot export into \"%s\": %s", dir,
        err->message);
    set_status (b, text);
    g_printerr ("%s\n", text);
    g_free (text);
    g_error_free (err);
    if (b->failed != NULL)
      *b->failed = TRUE;
    /* the loop may not run yet: quit from it */
    if (b->quit_loop != NULL)
      g_idle_add (quit_idle, b->quit_loop);
    return;
  }
  text = g_strdup_printf ("Exporting %" G_GUINT64_FORMAT " ns into \"%s\"…",
      e - s, dir);
  set_status (b, text);
  g_free (text);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (b->progress), 0.0);
  set_running (b, TRUE);
  b->tick = g_timeout_add (100, (GSourceFunc) on_tick, b);
}

static void
on_dir_response (GtkNativeDialog * d, gint response, Bar * b)
{
  if (response == GTK_RESPONSE_ACCEPT) {
    GFile *f = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (d));
    gchar *path = f != NULL ? g_file_get_path (f) : NULL;

    if (path != NULL)
      start (b, path);
    g_free (path);
    g_clear_object (&f);
  }
  g_object_unref (d);
}

static void
on_export_clicked (GtkButton * button, Bar * b)
{
  GtkFileChooserNative *d = gtk_file_chooser_native_new
      ("Export selection into a new or empty folder",
      GTK_WINDOW (gtk_widget_get_root (b->box)),
      GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "_Export", "_Cancel");

  g_signal_connect (d, "response", G_CALLBACK (on_dir_response), b);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (d));
}

static void
on_cancel_clicked (GtkButton * button, Bar * b)
{
  if (b->export != NULL)
    gst_ctf_viewer_export_cancel (b->export);
}

/**
 * gst_ctf_viewer_export_bar_new:
 * @timeline: whose selection (or markers) is exported
 * @status: the label the outcome is written to
 *
 * Returns: (transfer floating): the bar
 */
GtkWidget *
gst_ctf_viewer_export_bar_new (GstCtfGtkTimeline * timeline,
    GtkWidget * status)
{
  Bar *b = g_new0 (Bar, 1);

  b->timeline = timeline;
  b->status = status;
  b->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (b->box, 6);
  gtk_widget_set_margin_end (b->box, 6);
  b->button = gtk_button_new_with_label ("Export selection…");
  b->progress = gtk_progress_bar_new ();
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (b->progress), TRUE);
  gtk_widget_set_hexpand (b->progress, TRUE);
  gtk_widget_set_valign (b->progress, GTK_ALIGN_CENTER);
  b->cancel = gtk_button_new_with_label ("Cancel");
  gtk_box_append (GTK_BOX (b->box), b->button);
  gtk_box_append (GTK_BOX (b->box), b->progress);
  gtk_box_append (GTK_BOX (b->box), b->cancel);
  g_signal_connect (b->button, "clicked", G_CALLBACK (on_export_clicked), b);
  g_signal_connect (b->cancel, "clicked", G_CALLBACK (on_cancel_clicked), b);
  set_running (b, FALSE);
  g_object_set_data_full (G_OBJECT (b->box), "gst-ctf-export-bar", b,
      (GDestroyNotify) bar_free);
  return b->box;
}

/**
 * gst_ctf_viewer_export_bar_set_trace:
 * @bar: the bar
 * @trace: the trace now open (what is exported)
 */
void
gst_ctf_viewer_export_bar_set_trace (GtkWidget * bar, const gchar * trace)
{
  Bar *b = g_object_get_data (G_OBJECT (bar), "gst-ctf-export-bar");

  g_free (b->trace);
  b->trace = g_strdup (trace);
  if (b->model != NULL)
    g_signal_handlers_disconnect_by_data (b->model, b);
  g_clear_object (&b->model);
  set_running (b, b->export != NULL);
}

/**
 * gst_ctf_viewer_export_bar_set_model:
 * @bar: the bar
 * @model: the model now open (its path is what is exported; a live
 *   session's packets come from it)
 */
void
gst_ctf_viewer_export_bar_set_model (GtkWidget * bar,
    GstCtfGtkEventModel * model)
{
  Bar *b = g_object_get_data (G_OBJECT (bar), "gst-ctf-export-bar");

  gst_ctf_viewer_export_bar_set_trace (bar,
      gst_ctf_gtk_event_model_get_path (model));
  b->model = g_object_ref (model);
}

static void
on_live_ended (GstCtfGtkEventModel * model, GParamSpec * pspec, Bar * b)
{
  gchar *dir;

  if (gst_ctf_gtk_event_model_get_loading (model))
    return;
  g_signal_handlers_disconnect_by_func (model, on_live_ended, b);
  dir = g_strdup (b->dir);
  start (b, dir);
  g_free (dir);
}

/**
 * gst_ctf_viewer_export_bar_run:
 * @bar: the bar
 * @dir: the output directory (new, or existing and empty)
 * @quit_loop: (nullable): quit when the export ends
 * @failed: (nullable): set to %TRUE when it could not start or failed
 *
 * Exports without asking (`--export DIR`); a live session once it ended
 * (its model stopped loading).
 */
void
gst_ctf_viewer_export_bar_run (GtkWidget * bar, const gchar * dir,
    GMainLoop * quit_loop, gboolean * failed)
{
  Bar *b = g_object_get_data (G_OBJECT (bar), "gst-ctf-export-bar");

  b->quit_loop = quit_loop;
  b->failed = failed;
  if (b->model != NULL && gst_ctf_gtk_event_model_get_loading (b->model) &&
      g_str_has_prefix (b->trace, "net")) {
    /* a live session: what it recorded, once it ended */
    g_free (b->dir);
    b->dir = g_strdup (dir);
    g_signal_connect (b->model, "notify::loading",
        G_CALLBACK (on_live_ended), b);
    return;
  }
  start (b, dir);
}
