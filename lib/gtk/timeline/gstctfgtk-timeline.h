/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline: one row per CPU (per stream where a trace has no
 * CPU) with event density per pixel column and, for kernel traces, the
 * task each CPU runs.
 */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk-version.h"
#include "gstctfgtk-event-model.h"
#include "gstctfgtk-task.h"

G_BEGIN_DECLS

#define GST_CTF_GTK_TYPE_TIMELINE (gst_ctf_gtk_timeline_get_type ())

GST_CTF_GTK_API
G_DECLARE_FINAL_TYPE (GstCtfGtkTimeline, gst_ctf_gtk_timeline, GST_CTF_GTK,
    TIMELINE, GtkWidget)

GST_CTF_GTK_API GtkWidget *gst_ctf_gtk_timeline_new (
    GstCtfGtkEventModel * model);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_set_model (
    GstCtfGtkTimeline * timeline, GstCtfGtkEventModel * model);
GST_CTF_GTK_API GstCtfGtkEventModel *gst_ctf_gtk_timeline_get_model (
    GstCtfGtkTimeline * timeline);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_set_visible_range (
    GstCtfGtkTimeline * timeline, guint64 start_ns, guint64 end_ns);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_get_visible_range (
    GstCtfGtkTimeline * timeline, guint64 * start_ns, guint64 * end_ns);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_set_selection (
    GstCtfGtkTimeline * timeline, guint64 start_ns, guint64 end_ns);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_set_marker (
    GstCtfGtkTimeline * timeline, guint marker, guint64 ns);
GST_CTF_GTK_API guint64 gst_ctf_gtk_timeline_get_marker (
    GstCtfGtkTimeline * timeline, guint marker);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_center_on (
    GstCtfGtkTimeline * timeline, guint64 ns);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_zoom (GstCtfGtkTimeline * timeline,
    gdouble factor, guint64 around_ns);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_show_all (
    GstCtfGtkTimeline * timeline);
GST_CTF_GTK_API guint64 gst_ctf_gtk_timeline_get_time_at (
    GstCtfGtkTimeline * timeline, gdouble x);
GST_CTF_GTK_API gint gst_ctf_gtk_timeline_get_lane_at (
    GstCtfGtkTimeline * timeline, gdouble y);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_get_lane_area (
    GstCtfGtkTimeline * timeline, guint lane, graphene_rect_t * area);
GST_CTF_GTK_API void gst_ctf_gtk_task_color (gint tid, GdkRGBA * color);
GST_CTF_GTK_API void gst_ctf_gtk_cpu_color (gint cpu, GdkRGBA * color);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_set_task_rows (
    GstCtfGtkTimeline * timeline, gboolean task_rows);
GST_CTF_GTK_API gboolean gst_ctf_gtk_timeline_get_task_rows (
    GstCtfGtkTimeline * timeline);
GST_CTF_GTK_API void gst_ctf_gtk_timeline_set_task_row_tids (
    GstCtfGtkTimeline * timeline, const gint * tids, gsize n_tids);
GST_CTF_GTK_API gint *gst_ctf_gtk_timeline_get_task_row_tids (
    GstCtfGtkTimeline * timeline, gsize * n_tids);
GST_CTF_GTK_API gint *gst_ctf_gtk_timeline_get_shown_task_tids (
    GstCtfGtkTimeline * timeline, gsize * n_tids);
GST_CTF_GTK_API GListModel *gst_ctf_gtk_timeline_list_tasks (
    GstCtfGtkTimeline * timeline);
GST_CTF_GTK_API gboolean gst_ctf_gtk_timeline_get_task_row_area (
    GstCtfGtkTimeline * timeline, gint tid, graphene_rect_t * area);
GST_CTF_GTK_API guint64 *gst_ctf_gtk_timeline_get_event_times (
    GstCtfGtkTimeline * timeline, guint lane, gsize * n_times);
GST_CTF_GTK_API guint32 *gst_ctf_gtk_timeline_get_density (
    GstCtfGtkTimeline * timeline, guint lane, guint * n_columns,
    guint64 * resolution_ns);

G_END_DECLS
