/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkEventModel: the events of a trace on disk as a GListModel,
 * indexed in the background, rows decoded on demand.
 */
#pragma once

#include <gio/gio.h>
#include "gstctfgtk-version.h"
#include "gstctfgtk-event.h"

G_BEGIN_DECLS

/**
 * GstCtfGtkLiveSeek:
 * @GST_CTF_GTK_LIVE_SEEK_BEGINNING: from the oldest data the relay still
 *   has (`lttnglivesrc seek=beginning`, the default)
 * @GST_CTF_GTK_LIVE_SEEK_LAST: from the newest packets the relay has when
 *   the model attaches: lttng-relayd starts each stream at its last packet
 *   index (`lttnglivesrc seek=last`)
 *
 * Where a live session is read from (gst_ctf_gtk_event_model_new_for_url()).
 */
typedef enum {
  GST_CTF_GTK_LIVE_SEEK_BEGINNING,
  GST_CTF_GTK_LIVE_SEEK_LAST,
} GstCtfGtkLiveSeek;

#define GST_CTF_GTK_TYPE_LIVE_SEEK (gst_ctf_gtk_live_seek_get_type ())
GST_CTF_GTK_API GType gst_ctf_gtk_live_seek_get_type (void);

#define GST_CTF_GTK_TYPE_EVENT_MODEL (gst_ctf_gtk_event_model_get_type ())

GST_CTF_GTK_API
G_DECLARE_FINAL_TYPE (GstCtfGtkEventModel, gst_ctf_gtk_event_model,
    GST_CTF_GTK, EVENT_MODEL, GObject)

GST_CTF_GTK_API GstCtfGtkEventModel *gst_ctf_gtk_event_model_new_for_path (
    const gchar * path, GError ** error);
GST_CTF_GTK_API GstCtfGtkEventModel *gst_ctf_gtk_event_model_new_for_url (
    const gchar * url, GstCtfGtkLiveSeek seek, GError ** error);
GST_CTF_GTK_API const gchar *gst_ctf_gtk_event_model_get_path (
    GstCtfGtkEventModel * model);
GST_CTF_GTK_API gboolean gst_ctf_gtk_event_model_get_loading (
    GstCtfGtkEventModel * model);
GST_CTF_GTK_API const GError *gst_ctf_gtk_event_model_get_error (
    GstCtfGtkEventModel * model);
GST_CTF_GTK_API gboolean gst_ctf_gtk_event_model_wait (
    GstCtfGtkEventModel * model, GError ** error);
GST_CTF_GTK_API guint gst_ctf_gtk_event_model_get_n_checkpoints (
    GstCtfGtkEventModel * model);
GST_CTF_GTK_API gboolean gst_ctf_gtk_event_model_get_time_range (
    GstCtfGtkEventModel * model, guint64 * start_ns, guint64 * end_ns);
GST_CTF_GTK_API guint gst_ctf_gtk_event_model_find_row (
    GstCtfGtkEventModel * model, guint64 ns);
GST_CTF_GTK_API const gchar *gst_ctf_gtk_event_model_get_running_task (
    GstCtfGtkEventModel * model, gint cpu, guint64 ns, gint * tid);

G_END_DECLS
