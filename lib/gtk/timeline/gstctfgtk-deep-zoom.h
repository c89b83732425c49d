/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Deep zoom for the timeline: the times of the events of a short time
 * range, decoded from the trace on a worker thread (never while drawing).
 * The main thread asks for a range; when the worker has read it, the
 * ready callback runs in the main context of the caller of _new() and the
 * range is answered from a small cache (the last DEEP_ZOOM_WINDOWS
 * ranges read).  Private to libgstctf-gtk.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DEEP_ZOOM_WINDOWS 4

typedef struct _GstCtfGtkDeepZoom GstCtfGtkDeepZoom;
typedef struct _GstCtfGtkDeepWindow GstCtfGtkDeepWindow;

G_GNUC_INTERNAL GstCtfGtkDeepZoom *_gst_ctf_gtk_deep_zoom_new (
    const gchar * path, GSourceFunc ready, gpointer user_data);
G_GNUC_INTERNAL void _gst_ctf_gtk_deep_zoom_free (GstCtfGtkDeepZoom * dz);
G_GNUC_INTERNAL const GstCtfGtkDeepWindow *_gst_ctf_gtk_deep_zoom_lookup (
    GstCtfGtkDeepZoom * dz, gint64 start, gint64 end);
G_GNUC_INTERNAL void _gst_ctf_gtk_deep_zoom_request (GstCtfGtkDeepZoom * dz,
    gint64 start, gint64 end);
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_deep_zoom_is_busy (
    GstCtfGtkDeepZoom * dz);
G_GNUC_INTERNAL const gint64 *_gst_ctf_gtk_deep_window_get_times (
    const GstCtfGtkDeepWindow * w, gint cpu, const gchar * stream_name,
    guint * n);

G_END_DECLS
