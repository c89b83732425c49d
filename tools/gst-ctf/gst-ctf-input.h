/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What kind of trace an INPUT argument is, and the source that reads it */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  GST_CTF_CLI_INPUT_CTF,        /* ctfsrc location= */
  GST_CTF_CLI_INPUT_TRACE_DAT,  /* tracecmdsrc location= */
  GST_CTF_CLI_INPUT_LTTNG0,     /* lttng0src location= */
  GST_CTF_CLI_INPUT_LIVE,       /* lttnglivesrc url= */
} GstCtfCliInput;

gboolean gst_ctf_cli_detect_input (const gchar * input,
    GstCtfCliInput * kind, GError ** error);
const gchar *gst_ctf_cli_input_factory (GstCtfCliInput kind);
const gchar *gst_ctf_cli_input_property (GstCtfCliInput kind);
gboolean gst_ctf_cli_is_live_url (const gchar * input);
gboolean gst_ctf_cli_live_url_has_session (const gchar * url);

G_END_DECLS
