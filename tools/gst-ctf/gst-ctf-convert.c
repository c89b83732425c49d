/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-ctf [convert] [OPTIONS] INPUT...: babeltrace2 convert */
#include <stdio.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include "gst-ctf-commands.h"
#include "gst-ctf-error.h"
#include "gst-ctf-input.h"
#include "gst-ctf-options.h"
#include "gst-ctf-pipeline.h"
#include "gst-ctf-plugin.h"
#include "gst-ctf-run.h"

/* outputs that go to a file (or nowhere) and may run for long: the
 * progress bar does not mix with text on the terminal */
static gboolean
wants_progress (const GstCtfCliOptions * o)
{
  if (!o->progress)
    return FALSE;
  switch (o->output) {
    case GST_CTF_CLI_OUTPUT_CTF:
    case GST_CTF_CLI_OUTPUT_PERFETTO:
    case GST_CTF_CLI_OUTPUT_DUMMY:
      return TRUE;
    case GST_CTF_CLI_OUTPUT_CTF_METADATA:
      return FALSE;
    default:
      return o->output_path != NULL;
  }
}

gint
gst_ctf_cli_convert (gint argc, gchar ** argv)
{
  GstCtfCliOptions o = { 0 };
  GError *error = NULL;
  GstElement *pipeline, *sink;
  gchar *dummy_dir = NULL, *dummy_path = NULL;
  gint status;

  if (!gst_ctf_cli_options_parse (&o, &argc, &argv, &error)) {
    gst_ctf_cli_options_clear (&o);
    return gst_ctf_cli_fail (error);
  }
  gst_ctf_cli_set_verbose (o.verbose);
  /* babeltrace2 -i lttng-live net://RELAY lists the relay's sessions */
  if (o.inputs[1] == NULL && gst_ctf_cli_is_live_url (o.inputs[0]) &&
      !gst_ctf_cli_live_url_has_session (o.inputs[0])) {
    status = gst_ctf_cli_list (o.inputs[0]);
    gst_ctf_cli_options_clear (&o);
    return status;
  }
  if (!gst_ctf_cli_init (&error)) {
    gst_ctf_cli_options_clear (&o);
    return gst_ctf_cli_fail (error);
  }
  if (o.output == GST_CTF_CLI_OUTPUT_DUMMY) {
    dummy_dir = g_dir_make_tmp ("gst-ctf-XXXXXX", &error);
    if (dummy_dir == NULL) {
      gst_ctf_cli_options_clear (&o);
      return gst_ctf_cli_fail (error);
    }
    dummy_path = g_build_filename (dummy_dir, "summary.txt", NULL);
  }
  pipeline = gst_ctf_cli_pipeline_new (&o, dummy_path, &sink, &error);
  if (pipeline == NULL) {
    status = gst_ctf_cli_fail (error);
  } else {
    /* ctftextsink prints babeltrace2's own warnings (discarded events) */
    status = gst_ctf_cli_run (pipeline, sink, wants_progress (&o),
        o.verbose || o.output != GST_CTF_CLI_OUTPUT_TEXT);
    gst_object_unref (pipeline);
  }
  if (dummy_dir != NULL) {
    g_unlink (dummy_path);
    g_rmdir (dummy_dir);
  }
  g_free (dummy_path);
  g_free (dummy_dir);
  gst_ctf_cli_options_clear (&o);
  return status;
}
