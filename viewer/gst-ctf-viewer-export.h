/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Export of a time range of a trace: `SRC ! timefilter ! ctfsink`. */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk.h"

G_BEGIN_DECLS

typedef struct _GstCtfViewerExport GstCtfViewerExport;

/* @error: NULL when the export finished, else why it stopped */
typedef void (*GstCtfViewerExportDone) (GstCtfViewerExport * export,
    const GError * error, gpointer user_data);

GstCtfViewerExport *gst_ctf_viewer_export_start (const gchar * trace,
    GstCtfGtkEventModel * model, guint64 start_ns, guint64 end_ns, const gchar * dir,
    GstCtfViewerExportDone done, gpointer user_data, GError ** error);
gdouble gst_ctf_viewer_export_get_fraction (GstCtfViewerExport * export);
void gst_ctf_viewer_export_cancel (GstCtfViewerExport * export);
void gst_ctf_viewer_export_free (GstCtfViewerExport * export);

G_END_DECLS
