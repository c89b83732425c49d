/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The viewer's task picker: which tasks get a row in the timeline
 * (GstCtfGtkTimeline:task-row-tids), from a list of the trace's tasks
 * with their run time, check boxes and a search field.
 */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk.h"

G_BEGIN_DECLS

GtkWidget *gst_ctf_viewer_tasks_button_new (GstCtfGtkTimeline * timeline);
GtkWidget *gst_ctf_viewer_tasks_picker_new (GstCtfGtkTimeline * timeline);
void gst_ctf_viewer_tasks_picker_refresh (GtkWidget * picker);
void gst_ctf_viewer_tasks_picker_set_search (GtkWidget * picker,
    const gchar * text);
guint gst_ctf_viewer_tasks_picker_get_n_shown (GtkWidget * picker);
gboolean gst_ctf_viewer_tasks_parse (const gchar * text, GArray ** tids,
    GError ** error);

G_END_DECLS
