/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The convert pipeline for the command line's options */
#pragma once

#include <gst/gst.h>
#include "gst-ctf-options.h"

G_BEGIN_DECLS

GstElement *gst_ctf_cli_pipeline_new (const GstCtfCliOptions * opts,
    const gchar * dummy_path, GstElement ** sink, GError ** error);

G_END_DECLS
