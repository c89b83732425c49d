/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Export of a time range of a trace from gst-ctf-viewer: a pipeline
 * `ctfsrc|tracecmdsrc|lttng0src location=TRACE ! timefilter start-time=S
 * end-time=E ! ctfsink location=DIR` made with element factories (no
 * parsing of user strings); for a live session, an `appsrc` of the
 * packets its model received (gst-ctf-viewer-export-live.c) instead of
 * the source element.  The progress is the time of the last buffer
 * that reached ctfsink within [S, E]; the end (EOS), an error or a cancel
 * calls the done callback once, from the main context.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gstdio.h>
#include <gst/gst.h>
#include "gst-ctf-viewer-export.h"
#include "gst-ctf-viewer-export-live.h"

struct _GstCtfViewerExport {
  GstElement *pipeline;
  guint bus_watch;
  guint64 start, end;
  GMutex lock;
  guint64 position;             /* last buffer time, 0: none yet */
  GstCtfViewerExportDone done;
  gpointer user_data;
  gboolean finished;
};

/* The source element for @trace: trace.dat (a file), LTTng 0.x (a directory
 * of `metadata_N` files and no `metadata`), else CTF. */
static const gchar *
source_factory (const gchar * trace)
{
  gchar *meta;
  GDir *d;
  const gchar *name;
  gboolean lttng0 = FALSE;

  if (g_file_test (trace, G_FILE_TEST_IS_REGULAR))
    return "tracecmdsrc";
  meta = g_build_filename (trace, "metadata", NULL);
  if (!g_file_test (meta, G_FILE_TEST_EXISTS) &&
      (d = g_dir_open (trace, 0, NULL)) != NULL) {
    while (!lttng0 && (name = g_dir_read_name (d)) != NULL)
      lttng0 = g_str_has_prefix (name, "metadata_");
    g_dir_close (d);
  }
  g_free (meta);
  return lttng0 ? "lttng0src" : "ctfsrc";
}

/* FALSE, with @error set, when @dir exists and holds anything. */
static gboolean
check_dir (const gchar * dir, GError ** error)
{
  GDir *d;

  if (!g_file_test (dir, G_FILE_TEST_EXISTS))
    return TRUE;
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR)) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR,
        "\"%s\" is not a directory", dir);
    return FALSE;
  }
  d = g_dir_open (dir, 0, error);
  if (d == NULL)
    return FALSE;
  if (g_dir_read_name (d) != NULL) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
        "\"%s\" is not empty: export into a new or empty directory", dir);
    g_dir_close (d);
    return FALSE;
  }
  g_dir_close (d);
  return TRUE;
}

static void
finish (GstCtfViewerExport * ex, const GError * error)
{
  if (ex->finished)
    return;
  ex->finished = TRUE;
  gst_element_set_state (ex->pipeline, GST_STATE_NULL);
  if (ex->done != NULL)
    ex->done (ex, error, ex->user_data);
}

static gboolean
on_bus (GstBus * bus, GstMessage * msg, GstCtfViewerExport * ex)
{
  GError *err = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      finish (ex, NULL);
      break;
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, NULL);
      finish (ex, err);
      g_error_free (err);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* On the streaming thread: the time a buffer reaching ctfsink carries. */
static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, GstCtfViewerExport * ex)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  if (buf != NULL && GST_BUFFER_PTS_IS_VALID (buf)) {
    g_mutex_lock (&ex->lock);
    ex->position = MAX (ex->position, GST_BUFFER_PTS (buf));
    g_mutex_unlock (&ex->lock);
  }
  return GST_PAD_PROBE_OK;
}

static GstElement *
make (const gchar * factory, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (e == NULL)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "No element \"%s\" (GST_PLUGIN_PATH?)", factory);
  return e;
}

/**
 * gst_ctf_viewer_export_start:
 * @trace: the trace (CTF directory, trace.dat file, LTTng 0.x directory)
 *   or a live session's URL
 * @model: (nullable): the model of @trace; a live session is exported
 *   from what it received (a URL needs it)
 * @start_ns: first time kept, ns from the clock origin (included)
 * @end_ns: last time kept, ns from the clock origin (included)
 * @dir: the output directory: new, or existing and empty
 * @done: (scope notified): called once when the export ends, fails or is
 *   cancelled
 * @user_data: for @done
 * @error: why the export could not start
 *
 * Returns: (transfer full) (nullable): the running export, to free with
 *   gst_ctf_viewer_export_free() (after @done, or it is cancelled)
 */
GstCtfViewerExport *
gst_ctf_viewer_export_start (const gchar * trace,
    GstCtfGtkEventModel * model, guint64 start_ns,
    guint64 end_ns, const gchar * dir, GstCtfViewerExportDone done,
    gpointer user_data, GError ** error)
{
  GstCtfViewerExport *ex;
  GstElement *src, *filter, *sink;
  GstPad *pad;
  GstBus *bus;

  g_return_val_if_fail (trace != NULL && dir != NULL, NULL);
  if (!check_dir (dir, error))
    return NULL;
  if (end_ns < start_ns) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "The range ends before it begins");
    return NULL;
  }
  if (g_str_has_prefix (trace, "net://") || g_str_has_prefix (trace,
          "net4://")) {
    if (model == NULL) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
          "No model of the live session %s to export from", trace);
      return NULL;
    }
    src = gst_ctf_viewer_export_live_source (model, error);
  } else {
    src = make (source_factory (trace), error);
  }
  filter = src != NULL ? make ("timefilter", error) : NULL;
  sink = filter != NULL ? make ("ctfsink", error) : NULL;
  if (sink == NULL) {
    g_clear_pointer (&src, gst_object_unref);
    g_clear_pointer (&filter, gst_object_unref);
    return NULL;
  }
  ex = g_new0 (GstCtfViewerExport, 1);
  g_mutex_init (&ex->lock);
  ex->start = start_ns;
  ex->end = end_ns;
  ex->done = done;
  ex->user_data = user_data;
  ex->pipeline = gst_pipeline_new ("export");
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (src), "location"))
    g_object_set (src, "location", trace, NULL);
  g_object_set (filter, "start-time", start_ns, "end-time", end_ns, NULL);
  g_object_set (sink, "location", dir, NULL);
  gst_bin_add_many (GST_BIN (ex->pipeline), src, filter, sink, NULL);
  if (!gst_element_link_many (src, filter, sink, NULL)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "Cannot link %s ! timefilter ! ctfsink", GST_OBJECT_NAME (src));
    gst_object_unref (ex->pipeline);
    g_mutex_clear (&ex->lock);
    g_free (ex);
    return NULL;
  }
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER,
      (GstPadProbeCallback) on_buffer, ex, NULL);
  gst_object_unref (pad);
  bus = gst_element_get_bus (ex->pipeline);
  ex->bus_watch = gst_bus_add_watch (bus, (GstBusFunc) on_bus, ex);
  gst_object_unref (bus);
  if (gst_element_set_state (ex->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* the error message is on the bus: the done callback gets it */
  }
  return ex;
}

/**
 * gst_ctf_viewer_export_get_fraction:
 * @export: an export
 *
 * Returns: how far it is, 0 to 1, from the time of the last buffer written
 */
gdouble
gst_ctf_viewer_export_get_fraction (GstCtfViewerExport * export)
{
  guint64 pos;

  if (export->finished)
    return 1.0;
  g_mutex_lock (&export->lock);
  pos = export->position;
  g_mutex_unlock (&export->lock);
  if (pos <= export->start || export->end <= export->start)
    return 0.0;
  return MIN (1.0, (gdouble) (pos - export->start) /
      (gdouble) (export->end - export->start));
}

/**
 * gst_ctf_viewer_export_cancel:
 * @export: an export
 *
 * Stops it; the done callback is called with a G_IO_ERROR_CANCELLED error.
 * What was written stays in the directory (an incomplete trace).
 */
void
gst_ctf_viewer_export_cancel (GstCtfViewerExport * export)
{
  GError *err;

  if (export->finished)
    return;
  err = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
      "Export cancelled");
  finish (export, err);
  g_error_free (err);
}

/**
 * gst_ctf_viewer_export_free:
 * @export: (transfer full): an export; cancelled if still running
 */
void
gst_ctf_viewer_export_free (GstCtfViewerExport * export)
{
  if (export == NULL)
    return;
  export->done = NULL;
  gst_ctf_viewer_export_cancel (export);
  g_source_remove (export->bus_watch);
  gst_object_unref (export->pipeline);
  g_mutex_clear (&export->lock);
  g_free (export);
}
