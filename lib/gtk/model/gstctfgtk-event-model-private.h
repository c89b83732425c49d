/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the widgets read of a model.  Private to libgstctf-gtk. */
#pragma once

#include "gstctfgtk-event-model.h"
#include "gstctfgtk-summary.h"
#include "gstctf-event-merge.h"
#include "gstctfgtk-packet-source.h"

G_BEGIN_DECLS

/* The CPU of the packet @item is in: LTTng's packet context `cpu_id`,
 * else the stream instance id; -1 for none. */
G_GNUC_INTERNAL gint _gst_ctf_gtk_merge_packet_cpu (GstCtfEventMerge * merge,
    const GstCtfMergeItem * item);
G_GNUC_INTERNAL GstCtfGtkSummary *_gst_ctf_gtk_event_model_get_summary (
    GstCtfGtkEventModel * model);

/* A row the packet source can seek to: every row before @row is older
 * than @ns, every row from it on is at @ns or later. */
typedef struct {
  gint64 ns;
  guint64 row;
  guint epoch;                  /* of the packet source (live) */
} GstCtfGtkCheckpoint;

/* A copy of the checkpoints found so far, by row (GstCtfGtkCheckpoint;
 * free with g_array_unref()), for readers on other threads. */
G_GNUC_INTERNAL GArray *_gst_ctf_gtk_event_model_copy_checkpoints (
    GstCtfGtkEventModel * model);

G_GNUC_INTERNAL GstCtfGtkPacketSource *
_gst_ctf_gtk_event_model_new_live_source (GstCtfGtkEventModel * model);
G_GNUC_INTERNAL GstCtfGtkLiveSource *_gst_ctf_gtk_event_model_get_live_source
    (GstCtfGtkEventModel * model);
G_GNUC_INTERNAL guint64 _gst_ctf_gtk_event_model_get_n_indexed (
    GstCtfGtkEventModel * model);

G_END_DECLS
