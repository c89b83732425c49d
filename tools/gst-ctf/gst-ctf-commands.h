/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-ctf's commands; each returns the exit status */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gint gst_ctf_cli_convert (gint argc, gchar ** argv);
gint gst_ctf_cli_report (gint argc, gchar ** argv);
gint gst_ctf_cli_list (const gchar * url);
gint gst_ctf_cli_list_command (gint argc, gchar ** argv);

G_END_DECLS
