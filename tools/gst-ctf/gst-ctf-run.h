/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Running a pipeline to its end: errors, warnings, Ctrl-C, progress */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

gint gst_ctf_cli_run (GstElement * pipeline, GstElement * sink,
    gboolean progress, gboolean warnings);

G_END_DECLS
