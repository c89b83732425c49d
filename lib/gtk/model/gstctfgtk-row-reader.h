/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rows of a model's trace read again, numbered as the model's index
 * numbers them, and decided by a filter: what the filter model and the
 * search walk.  On a live session (the packets the model's follower
 * received, gstctfgtk-live-source.h) it does what the index does at a
 * new trace class (the merge gives back what it holds, a new merge and
 * matcher go on) and at an advance (the merge gives back what is older),
 * so its rows are the model's.  Private to libgstctf-gtk.
 */
#pragma once

#include "gstctfgtk-event-model-private.h"
#include "gstctfgtk-packet-source.h"
#include "gstctf-event-merge.h"
#include "gstctf-filter-spec.h"

G_BEGIN_DECLS

typedef struct _GstCtfGtkRowReader GstCtfGtkRowReader;

/* What _gst_ctf_gtk_row_reader_next() returns besides 1 (a row), 0 (the
 * end) and -1 (an error): live, following, every packet received was
 * read; the next call waits for more (once between two packets). */
#define GST_CTF_GTK_ROW_CAUGHT_UP 2

/* A reader of @src (taken; NULL: @path opened) deciding rows with @spec
 * (which must outlive it), at the first row. */
G_GNUC_INTERNAL GstCtfGtkRowReader *_gst_ctf_gtk_row_reader_new (
    const gchar * path, GstCtfGtkPacketSource * src,
    const GstCtfFilterSpec * spec, GError ** error);
G_GNUC_INTERNAL void _gst_ctf_gtk_row_reader_free (GstCtfGtkRowReader * r);
/* (transfer none) */
G_GNUC_INTERNAL GstCtfGtkPacketSource *_gst_ctf_gtk_row_reader_get_source (
    GstCtfGtkRowReader * r);
/* Back at checkpoint @c (NULL: the first row). */
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_row_reader_reset (
    GstCtfGtkRowReader * r, const GstCtfGtkCheckpoint * c, GError ** error);
/* The next row (its number in @row): 1 with @item set, 0 at the end, -1
 * with @error set, GST_CTF_GTK_ROW_CAUGHT_UP. */
G_GNUC_INTERNAL gint _gst_ctf_gtk_row_reader_next (GstCtfGtkRowReader * r,
    GstCtfMergeItem * item, guint64 * row, GError ** error);
/* Whether the row just given is kept; FALSE with @error set when its
 * values cannot be decoded. */
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_row_reader_keeps (
    GstCtfGtkRowReader * r, const GstCtfMergeItem * item, GError ** error);

G_END_DECLS
