/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The source of an export of a live session: what its model received. */
#pragma once

#include <gst/gst.h>
#include "gstctfgtk.h"

G_BEGIN_DECLS

/* (transfer floating) (nullable): an `appsrc` pushing the packets @model
 * received (GstCtfGtkLivePackets), then EOS */
GstElement *gst_ctf_viewer_export_live_source (GstCtfGtkEventModel * model,
    GError ** error);

G_END_DECLS
