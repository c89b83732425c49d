/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A progress bar on stderr while a job writes a file */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _GstCtfCliProgress GstCtfCliProgress;

GstCtfCliProgress *gst_ctf_cli_progress_new (GstElement * pipeline,
    GstElement * sink);
void gst_ctf_cli_progress_finish (GstCtfCliProgress * p, gboolean done);
void gst_ctf_cli_progress_free (GstCtfCliProgress * p);

G_END_DECLS
