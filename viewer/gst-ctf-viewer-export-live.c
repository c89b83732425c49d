/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The source element of an export of a live session from gst-ctf-viewer:
 * the session was attached to by the model (lttng-relayd lets one viewer
 * attach), so the packets come from what the model received
 * (GstCtfGtkLivePackets) through an `appsrc`, as `lttnglivesrc` pushes
 * them: caps with the session's metadata, one buffer a packet.  The
 * appsrc is driven through its signals (no link to libgstapp).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gst-ctf-viewer-export-live.h"

/* On the appsrc's streaming thread: the next packet, or the end. */
static void
on_need_data (GstElement * appsrc, guint length, GstCtfGtkLivePackets * p)
{
  GError *err = NULL;
  GstSample *sample = gst_ctf_gtk_live_packets_pull (p, &err);
  GstFlowReturn ret;

  if (sample != NULL) {
    g_signal_emit_by_name (appsrc, "push-sample", sample, &ret);
    gst_sample_unref (sample);
    return;
  }
  if (err != NULL) {
    GST_ELEMENT_ERROR (appsrc, RESOURCE, READ, ("%s", err->message),
        ("reading the live session's packets back from the model"));
    g_error_free (err);
    return;
  }
  g_signal_emit_by_name (appsrc, "end-of-stream", &ret);
}

GstElement *
gst_ctf_viewer_export_live_source (GstCtfGtkEventModel * model,
    GError ** error)
{
  GstCtfGtkLivePackets *p = gst_ctf_gtk_live_packets_new (model, error);
  GstElement *src;

  if (p == NULL)
    return NULL;
  src = gst_element_factory_make ("appsrc", NULL);
  if (src == NULL) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "No element \"appsrc\" (gstreamer1.0-plugins-base)");
    g_object_unref (p);
    return NULL;
  }
  /* PTS in ns from the clock origin, as lttnglivesrc; not live here: the
   * packets are all there */
  g_object_set (src, "format", GST_FORMAT_TIME, NULL);
  g_signal_connect_data (src, "need-data", G_CALLBACK (on_need_data), p,
      (GClosureNotify) (void (*)(void)) g_object_unref, 0);
  return src;
}
