/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The events of a trace on disk in babeltrace2's global order, for
 * gst_ctf_event_reader_open(): the packets of any input through
 * GstCtfPacketSource (what ctfsrc, tracecmdsrc or lttng0src pushes),
 * then GstCtfEventMerge (what ctftextsink prints).  Private to
 * the library.
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-event-merge.h"

G_BEGIN_DECLS

typedef struct _GstCtfEventSource GstCtfEventSource;

G_GNUC_INTERNAL GstCtfEventSource *_gst_ctf_event_source_open (const gchar *
    path, GError ** error);
G_GNUC_INTERNAL void _gst_ctf_event_source_free (GstCtfEventSource * s);
G_GNUC_INTERNAL GstCtfTraceClass *_gst_ctf_event_source_get_trace_class (
    GstCtfEventSource * s);
G_GNUC_INTERNAL gboolean _gst_ctf_event_source_next (GstCtfEventSource * s,
    gboolean record, GstCtfMergeItem * item, GError ** error);
G_GNUC_INTERNAL const GstCtfFieldValue *_gst_ctf_event_source_get_values (
    GstCtfEventSource * s, GstCtfScope scope, guint * n_values);
G_GNUC_INTERNAL guint64 _gst_ctf_event_source_get_discarded (
    GstCtfEventSource * s, GstCtfMergeItemType type);

G_END_DECLS
