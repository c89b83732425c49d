/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Input detection: `net://` URLs are LTTng live sessions, a file that
 * starts with trace-cmd's magic is a trace.dat, a directory whose files
 * include LTTng 0.x's `metadata_N` channel (and no CTF `metadata`) is an
 * LTTng 0.x trace, any other directory goes to ctfsrc (a CTF 1.8/2 trace
 * or a directory above traces; ctfsrc says when it finds none).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include "gst-ctf-input.h"
#include "gst-ctf-error.h"

/* trace-cmd.dat(5): 0x17 0x08 0x44 "tracing" */
static const guint8 trace_dat_magic[10] = {
  0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
};

gboolean
gst_ctf_cli_is_live_url (const gchar * input)
{
  return g_str_has_prefix (input, "net://") ||
      g_str_has_prefix (input, "net4://") ||
      g_str_has_prefix (input, "net6://");
}

/* net://RELAY[:PORT]/host/HOST/SESSION rather than net://RELAY[:PORT] */
gboolean
gst_ctf_cli_live_url_has_session (const gchar * url)
{
  const gchar *rest = strstr (url, "://") + 3;
  const gchar *slash = strchr (rest, '/');

  return slash != NULL && slash[1] != '\0';
}

static gboolean
is_lttng0_dir (const gchar * path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;
  gboolean metadata_n = FALSE, metadata = FALSE;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL) {
    if (strcmp (name, "metadata") == 0)
      metadata = TRUE;
    else if (g_str_has_prefix (name, "metadata_") &&
        g_ascii_isdigit (name[9]))
      metadata_n = TRUE;
  }
  g_dir_close (dir);
  return metadata_n && !metadata;
}

gboolean
gst_ctf_cli_detect_input (const gchar * input, GstCtfCliInput * kind,
    GError ** error)
{
  GStatBuf st;
  guint8 head[sizeof (trace_dat_magic)];
  FILE *f;
  gsize n;

  if (gst_ctf_cli_is_live_url (input)) {
    *kind = GST_CTF_CLI_INPUT_LIVE;
    return TRUE;
  }
  if (g_stat (input, &st) != 0) {
    int e = errno;

    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "Cannot open input: path=\"%s\": %s", input, g_strerror (e));
    return FALSE;
  }
  if (S_ISDIR (st.st_mode)) {
    *kind = is_lttng0_dir (input) ? GST_CTF_CLI_INPUT_LTTNG0 :
        GST_CTF_CLI_INPUT_CTF;
    return TRUE;
  }
  f = g_fopen (input, "rb");
  if (f == NULL) {
    int e = errno;

    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "Cannot open input: path=\"%s\": %s", input, g_strerror (e));
    return FALSE;
  }
  n = fread (head, 1, sizeof (head), f);
  fclose (f);
  if (n == sizeof (head) && memcmp (head, trace_dat_magic, n) == 0) {
    *kind = GST_CTF_CLI_INPUT_TRACE_DAT;
    return TRUE;
  }
  g_set_error (error, GST_CTF_CLI_ERROR, 0,
      "Not a trace: file=\"%s\", offset=0: expected a trace-cmd trace.dat "
      "file (magic 17 08 44 \"tracing\"), a trace directory or a net:// URL",
      input);
  return FALSE;
}

const gchar *
gst_ctf_cli_input_factory (GstCtfCliInput kind)
{
  switch (kind) {
    case GST_CTF_CLI_INPUT_TRACE_DAT:
      return "tracecmdsrc";
    case GST_CTF_CLI_INPUT_LTTNG0:
      return "lttng0src";
    case GST_CTF_CLI_INPUT_LIVE:
      return "lttnglivesrc";
    case GST_CTF_CLI_INPUT_CTF:
    default:
      return "ctfsrc";
  }
}

const gchar *
gst_ctf_cli_input_property (GstCtfCliInput kind)
{
  return kind == GST_CTF_CLI_INPUT_LIVE ? "url" : "location";
}
