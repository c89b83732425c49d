/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The decision "is this row kept" of the filter model and of the search,
 * as ctffilter decides it (gstctf-filter-spec.h).  Private to
 * libgstctf-gtk.
 */
#pragma once

#include "gstctfgtk-packet-source.h"
#include "gstctf-event-merge.h"
#include "gstctf-filter-spec.h"

G_BEGIN_DECLS

typedef struct _GstCtfGtkMatcher GstCtfGtkMatcher;

/* A matcher for the events @src gives (@path: the path it opened, for a
 * trace.dat's trace-cmd systems).  @spec must outlive it.  Not thread
 * safe: one per reader. */
G_GNUC_INTERNAL GstCtfGtkMatcher *_gst_ctf_gtk_matcher_new (
    const GstCtfFilterSpec * spec, GstCtfGtkPacketSource * src,
    const gchar * path);
G_GNUC_INTERNAL void _gst_ctf_gtk_matcher_free (GstCtfGtkMatcher * m);

/* Whether the event @merge just gave back (@item) is kept; FALSE with
 * @error set when its values cannot be decoded. */
G_GNUC_INTERNAL gboolean _gst_ctf_gtk_matcher_keeps (GstCtfGtkMatcher * m,
    GstCtfEventMerge * merge, const GstCtfMergeItem * item, GError ** error);

G_END_DECLS
