/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: what ctffilter's files share.
 */
#pragma once

#include "gstctf-model.h"

G_BEGIN_DECLS

/* Whether the filter can keep events of @ec (of @sc); @systems: the
 * trace has tracecmdsrc's event formats, whose trace-cmd systems the
 * filter expressions may name (known only from the packets). */
typedef gboolean (*GstCtfFilterKeepFunc) (gpointer data,
    const GstCtfStreamClass * sc, const GstCtfEventClass * ec,
    gboolean systems);

/* gstctffilter-metadata.c: @text (TSDL) without the event classes @keep
 * refuses, written again (free with g_free); CTF 2 metadata comes back
 * whole.  @n_removed: how many event classes were left out. */
gchar *_gst_ctf_filter_reduced_metadata (const gchar * text,
    GstCtfFilterKeepFunc keep, gpointer data, guint * n_removed,
    GError ** error);

G_END_DECLS
