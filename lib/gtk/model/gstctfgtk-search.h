/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkSearch: the next (previous) row of a GstCtfGtkEventModel that
 * a filter keeps, found by reading the trace from the checkpoint at (or
 * before) a row only until the first match, on a worker thread.
 */
#pragma once

#include <gio/gio.h>
#include "gstctfgtk-version.h"
#include "gstctfgtk-event-model.h"

G_BEGIN_DECLS

#define GST_CTF_GTK_TYPE_SEARCH (gst_ctf_gtk_search_get_type ())

GST_CTF_GTK_API
G_DECLARE_FINAL_TYPE (GstCtfGtkSearch, gst_ctf_gtk_search, GST_CTF_GTK,
    SEARCH, GObject)

GST_CTF_GTK_API GstCtfGtkSearch *gst_ctf_gtk_search_new (
    GstCtfGtkEventModel * model, const gchar * expression, GError ** error);
GST_CTF_GTK_API const gchar *gst_ctf_gtk_search_get_expression (
    GstCtfGtkSearch * search);
GST_CTF_GTK_API gboolean gst_ctf_gtk_search_find (GstCtfGtkSearch * search,
    gint64 row, gboolean forward, GCancellable * cancellable,
    guint64 * match, GError ** error);
GST_CTF_GTK_API void gst_ctf_gtk_search_find_async (GstCtfGtkSearch * search,
    gint64 row, gboolean forward, GCancellable * cancellable,
    GAsyncReadyCallback callback, gpointer user_data);
GST_CTF_GTK_API gboolean gst_ctf_gtk_search_find_finish (
    GstCtfGtkSearch * search, GAsyncResult * result, guint64 * match,
    GError ** error);
GST_CTF_GTK_API guint64 gst_ctf_gtk_search_get_last_n_read (
    GstCtfGtkSearch * search);

G_END_DECLS
