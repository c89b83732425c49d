/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkFilterModel: the rows of a GstCtfGtkEventModel that a filter
 * expression (trace-cmd `report -F` grammar, as ctffilter's `filter`
 * property takes it) keeps, found in the background.
 */
#pragma once

#include <gio/gio.h>
#include "gstctfgtk-version.h"
#include "gstctfgtk-event-model.h"

G_BEGIN_DECLS

#define GST_CTF_GTK_TYPE_FILTER_MODEL (gst_ctf_gtk_filter_model_get_type ())

GST_CTF_GTK_API
G_DECLARE_FINAL_TYPE (GstCtfGtkFilterModel, gst_ctf_gtk_filter_model,
    GST_CTF_GTK, FILTER_MODEL, GObject)

GST_CTF_GTK_API GstCtfGtkFilterModel *gst_ctf_gtk_filter_model_new (
    GstCtfGtkEventModel * base, const gchar * expression, GError ** error);
GST_CTF_GTK_API GstCtfGtkEventModel *gst_ctf_gtk_filter_model_get_base (
    GstCtfGtkFilterModel * model);
GST_CTF_GTK_API const gchar *gst_ctf_gtk_filter_model_get_expression (
    GstCtfGtkFilterModel * model);
GST_CTF_GTK_API gboolean gst_ctf_gtk_filter_model_get_loading (
    GstCtfGtkFilterModel * model);
GST_CTF_GTK_API gboolean gst_ctf_gtk_filter_model_wait (
    GstCtfGtkFilterModel * model, GError ** error);
GST_CTF_GTK_API guint64 gst_ctf_gtk_filter_model_get_base_row (
    GstCtfGtkFilterModel * model, guint position);
GST_CTF_GTK_API guint gst_ctf_gtk_filter_model_find_position (
    GstCtfGtkFilterModel * model, guint64 base_row);
GST_CTF_GTK_API gboolean gst_ctf_gtk_filter_model_find_next (
    GstCtfGtkFilterModel * model, guint64 base_row, guint64 * match);
GST_CTF_GTK_API gboolean gst_ctf_gtk_filter_model_find_previous (
    GstCtfGtkFilterModel * model, guint64 base_row, guint64 * match);

G_END_DECLS
