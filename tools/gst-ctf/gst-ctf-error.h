/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-ctf's errors: one line on stderr, exit status 1 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define GST_CTF_CLI_ERROR (gst_ctf_cli_error_quark ())
GQuark gst_ctf_cli_error_quark (void);

void gst_ctf_cli_print_error (const gchar * message, const gchar * details);
gint gst_ctf_cli_fail (GError * error);
void gst_ctf_cli_set_verbose (gboolean on);

G_END_DECLS
