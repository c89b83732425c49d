/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Runs a pipeline to EOS.  The first error ends it: one line on stderr
 * (the element's message, which names the file and offset), exit status
 * 1.  Ctrl-C sends EOS, so that ctfsink and the other file sinks finish
 * what they have (a live session stops there); a second Ctrl-C stops at
 * once.
 */
#include <stdio.h>
#include <glib-unix.h>
#include "gst-ctf-run.h"
#include "gst-ctf-error.h"
#include "gst-ctf-progress.h"

typedef struct {
  GMainLoop *loop;
  GstElement *pipeline;
  GstCtfCliProgress *progress;
  gboolean warnings;
  gboolean eos_sent;
  gint status;
} Run;

static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  Run *r = user_data;
  GError *err = NULL;
  gchar *dbg = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      gst_ctf_cli_progress_finish (r->progress, TRUE);
      g_main_loop_quit (r->loop);
      break;
    case GST_MESSAGE_ERROR:
      if (r->status != 0)
        break;                  /* the first error says why */
      gst_message_parse_error (msg, &err, &dbg);
      gst_ctf_cli_progress_finish (r->progress, FALSE);
      gst_ctf_cli_print_error (err->message, dbg);
      g_clear_error (&err);
      g_free (dbg);
      r->status = 1;
      g_main_loop_quit (r->loop);
      break;
    case GST_MESSAGE_WARNING:
      if (!r->warnings)
        break;
      gst_message_parse_warning (msg, &err, &dbg);
      gst_ctf_cli_progress_finish (r->progress, FALSE);
      fprintf (stderr, "gst-ctf: WARNING: %s\n", err->message);
      g_clear_error (&err);
      g_free (dbg);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* Only errors, warnings and EOS reach the main loop: the state changes,
 * stream starts, latency and other messages of every element would
 * each wake it up for nothing (a visible share of a small trace's run) */
static GstBusSyncReply
keep_few (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  return GST_MESSAGE_TYPE (msg) & (GST_MESSAGE_EOS | GST_MESSAGE_ERROR |
      GST_MESSAGE_WARNING) ? GST_BUS_PASS : GST_BUS_DROP;
}

static gboolean
on_sigint (gpointer user_data)
{
  Run *r = user_data;

  if (r->eos_sent) {
    r->status = 130;
    g_main_loop_quit (r->loop);
    return G_SOURCE_REMOVE;
  }
  r->eos_sent = TRUE;
  gst_element_send_event (r->pipeline, gst_event_new_eos ());
  return G_SOURCE_CONTINUE;
}

/* @progress: a progress bar on a terminal's stderr; @warnings: print the
 * elements' warnings (the text sink prints babeltrace2's own) */
gint
gst_ctf_cli_run (GstElement * pipeline, GstElement * sink, gboolean progress,
    gboolean warnings)
{
  Run r = { 0 };
  GstBus *bus;
  guint watch, sigint;

  r.pipeline = pipeline;
  r.warnings = warnings;
  r.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, keep_few, NULL, NULL);
  watch = gst_bus_add_watch (bus, on_message, &r);
  sigint = g_unix_signal_add (SIGINT, on_sigint, &r);
  if (progress)
    r.progress = gst_ctf_cli_progress_new (pipeline, sink);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* the first error message on the bus says why */
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg != NULL) {
      on_message (bus, msg, &r);
      gst_message_unref (msg);
    } else {
      gst_ctf_cli_print_error ("Cannot start the pipeline", NULL);
      r.status = 1;
    }
  } else {
    g_main_loop_run (r.loop);
  }
  gst_ctf_cli_progress_free (r.progress);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  if (r.status != 130)
    g_source_remove (sigint);
  g_source_remove (watch);
  gst_object_unref (bus);
  g_main_loop_unref (r.loop);
  return r.status;
}
