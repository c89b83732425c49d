/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The viewer's marker bar: markers A and B of the timeline and their delta. */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk.h"

G_BEGIN_DECLS

GtkWidget *gst_ctf_viewer_marker_bar_new (GstCtfGtkTimeline * timeline);
gchar *gst_ctf_viewer_marker_text (guint64 a_ns, guint64 b_ns);

G_END_DECLS
