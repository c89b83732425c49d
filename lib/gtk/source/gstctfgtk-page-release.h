/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The index thread's packets that are pages of the trace's own file
 * mappings (CTF stream files, mapped read-only and private) are given
 * back to the kernel (madvise MADV_DONTNEED) once the index is
 * RELEASE_LAG bytes past them, so the resident set does not grow with
 * the trace while it is indexed.  Such pages are only dropped from the
 * process: read again, they come back from the page cache or the file.
 * Packets in any other memory (decoded or copied packets: trace.dat,
 * LTTng 0.x, merged traces) are left alone.  Linux only (a no-op
 * elsewhere).  Private to libgstctf-gtk.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _GstCtfGtkPageRelease GstCtfGtkPageRelease;

G_GNUC_INTERNAL GstCtfGtkPageRelease *_gst_ctf_gtk_page_release_new (
    const gchar * trace_path);
G_GNUC_INTERNAL void _gst_ctf_gtk_page_release_add (
    GstCtfGtkPageRelease * r, gconstpointer data, gsize size);
G_GNUC_INTERNAL void _gst_ctf_gtk_page_release_flush (
    GstCtfGtkPageRelease * r);
G_GNUC_INTERNAL void _gst_ctf_gtk_page_release_free (
    GstCtfGtkPageRelease * r);
G_GNUC_INTERNAL guint64 _gst_ctf_gtk_page_release_get_released (
    GstCtfGtkPageRelease * r);

G_END_DECLS
