/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTask: a task (thread) of a kernel trace as its `sched_switch`
 * events show it, an item of gst_ctf_gtk_timeline_list_tasks().
 */
#pragma once

#include <glib-object.h>
#include "gstctfgtk-version.h"

G_BEGIN_DECLS

#define GST_CTF_GTK_TYPE_TASK (gst_ctf_gtk_task_get_type ())

GST_CTF_GTK_API
G_DECLARE_FINAL_TYPE (GstCtfGtkTask, gst_ctf_gtk_task, GST_CTF_GTK, TASK,
    GObject)

GST_CTF_GTK_API GstCtfGtkTask *gst_ctf_gtk_task_new (gint tid,
    const gchar * comm, guint64 run_time_ns, guint n_runs);
GST_CTF_GTK_API gint gst_ctf_gtk_task_get_tid (GstCtfGtkTask * task);
GST_CTF_GTK_API const gchar *gst_ctf_gtk_task_get_comm (GstCtfGtkTask * task);
GST_CTF_GTK_API guint64 gst_ctf_gtk_task_get_run_time_ns (
    GstCtfGtkTask * task);
GST_CTF_GTK_API guint gst_ctf_gtk_task_get_n_runs (GstCtfGtkTask * task);

G_END_DECLS
