/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The viewer's benchmark probe (`gst-ctf-viewer --bench FILE.json TRACE`):
 * times from main() to the first rows drawn, the index complete and the
 * timeline drawn with its whole summary, then a scripted zoom/pan sweep
 * of the timeline with the time of every redraw; writes them as JSON and
 * quits.  bench/viewer.py reads the file.
 */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk.h"

G_BEGIN_DECLS

typedef struct _ViewerProbe ViewerProbe;

ViewerProbe *viewer_probe_start (const gchar * json_path, gint64 t_main_us,
    gint64 t_open_us, GtkWidget * window, GstCtfGtkTimeline * timeline, GListModel * rows,
    GstCtfGtkEventModel * model, GMainLoop * loop, gboolean * failed);
void viewer_probe_free (ViewerProbe * probe);

G_END_DECLS
