/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The viewer's export bar: "Export selection…", a progress bar, Cancel. */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk.h"

G_BEGIN_DECLS

GtkWidget *gst_ctf_viewer_export_bar_new (GstCtfGtkTimeline * timeline,
    GtkWidget * status);
void gst_ctf_viewer_export_bar_set_trace (GtkWidget * bar,
    const gchar * trace);
void gst_ctf_viewer_export_bar_set_model (GtkWidget * bar,
    GstCtfGtkEventModel * model);
void gst_ctf_viewer_export_bar_run (GtkWidget * bar, const gchar * dir,
    GMainLoop * quit_loop, gboolean * failed);

G_END_DECLS
