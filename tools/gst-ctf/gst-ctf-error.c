/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Errors as babeltrace2 words them: `ERROR: ` then one line, a sentence
 * that names the file, the offset and what was expected (the library's
 * messages already do); the GStreamer debug details only with -v.
 */
#include <stdio.h>
#include <string.h>
#include "gst-ctf-error.h"

G_DEFINE_QUARK (gst-ctf-cli-error-quark, gst_ctf_cli_error);

static gboolean verbose;

void
gst_ctf_cli_set_verbose (gboolean on)
{
  verbose = on;
}

/* @message on one line: newlines inside it become spaces */
void
gst_ctf_cli_print_error (const gchar * message, const gchar * details)
{
  gchar *line = g_strdup (message);

  g_strdelimit (line, "\r\n", ' ');
  g_strchomp (line);
  fprintf (stderr, "gst-ctf: ERROR: %s\n", line);
  if (verbose && details != NULL)
    fprintf (stderr, "  (%s)\n", details);
  fflush (stderr);
  g_free (line);
}

/* Prints @error (freed) and returns the exit status, 1 */
gint
gst_ctf_cli_fail (GError * error)
{
  gst_ctf_cli_print_error (error->message, NULL);
  g_error_free (error);
  return 1;
}
