/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the widgets read of a model.  Private to libgstctf-gtk. */
#pragma once

#include "gstctfgtk-event-model.h"
#include "gstctfgtk-summary.h"

G_BEGIN_DECLS

G_GNUC_INTERNAL GstCtfGtkSummary *_gst_ctf_gtk_event_model_get_summary (
    GstCtfGtkEventModel * model);

G_END_DECLS
