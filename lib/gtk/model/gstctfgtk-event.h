/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkEvent: one event of a GstCtfGtkEventModel, made on demand for
 * the rows a view asks for.
 */
#pragma once

#include <glib-object.h>
#include "gstctfgtk-version.h"

G_BEGIN_DECLS

#define GST_CTF_GTK_TYPE_EVENT (gst_ctf_gtk_event_get_type ())

GST_CTF_GTK_API
G_DECLARE_FINAL_TYPE (GstCtfGtkEvent, gst_ctf_gtk_event, GST_CTF_GTK, EVENT,
    GObject)

GST_CTF_GTK_API guint64 gst_ctf_gtk_event_get_index (GstCtfGtkEvent * event);
GST_CTF_GTK_API gboolean gst_ctf_gtk_event_has_timestamp (
    GstCtfGtkEvent * event);
GST_CTF_GTK_API guint64 gst_ctf_gtk_event_get_timestamp_ns (
    GstCtfGtkEvent * event);
GST_CTF_GTK_API const gchar *gst_ctf_gtk_event_get_name (
    GstCtfGtkEvent * event);
GST_CTF_GTK_API gint gst_ctf_gtk_event_get_cpu (GstCtfGtkEvent * event);
GST_CTF_GTK_API const gchar *gst_ctf_gtk_event_get_stream_name (
    GstCtfGtkEvent * event);
GST_CTF_GTK_API const gchar *gst_ctf_gtk_event_get_fields (
    GstCtfGtkEvent * event);
GST_CTF_GTK_API GVariant *gst_ctf_gtk_event_dup_fields_variant (
    GstCtfGtkEvent * event);

G_END_DECLS
