/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkDetails: every field of one event as a tree.
 */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk-version.h"
#include "gstctfgtk-event.h"

G_BEGIN_DECLS

#define GST_CTF_GTK_TYPE_DETAILS (gst_ctf_gtk_details_get_type ())

GST_CTF_GTK_API
G_DECLARE_FINAL_TYPE (GstCtfGtkDetails, gst_ctf_gtk_details, GST_CTF_GTK,
    DETAILS, GtkWidget)

GST_CTF_GTK_API GtkWidget *gst_ctf_gtk_details_new (void);
GST_CTF_GTK_API void gst_ctf_gtk_details_set_event (GstCtfGtkDetails *
    details, GstCtfGtkEvent * event);
GST_CTF_GTK_API GstCtfGtkEvent *gst_ctf_gtk_details_get_event (
    GstCtfGtkDetails * details);

G_END_DECLS
