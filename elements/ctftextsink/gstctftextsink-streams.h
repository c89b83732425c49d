/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: ctftextsink's parallel formatting: the lines of each stream made
 * on worker threads, merged in babeltrace2's order on the streaming thread
 * (gstctftextsink-streams.c).  Private to the element.
 */
#pragma once

#include "gstctf-event-merge.h"
#include "gstctf-text-formatter.h"

G_BEGIN_DECLS

typedef struct _GstCtfTextStreams GstCtfTextStreams;

GstCtfTextStreams *gst_ctf_text_streams_new (GstCtfTraceClass * tc,
    const GstCtfTextOptions * opts, const gchar * trace_name,
    guint n_workers);

/* Stops the workers and drops what was not given back. */
void gst_ctf_text_streams_free (GstCtfTextStreams * ts);

/* As gst_ctf_event_merge_push_full(): packets in `timestamp_begin` order
 * across streams; the packet's header and context are read here (errors
 * as that function's).  @file_path: (nullable): an interned string, the
 * file the packets of the stream come from. */
gboolean gst_ctf_text_streams_push (GstCtfTextStreams * ts, GBytes * packet,
    guint64 stream_class_id, gint64 rank, gint64 stream_id,
    const gchar * stream_name, const gchar * file_path, gint64 offset,
    GError ** error);

/* No more packets: everything can be given back. */
void gst_ctf_text_streams_finish (GstCtfTextStreams * ts);

/* The delta state of the lines merged so far; a new merge takes it over
 * (babeltrace2's deltas run across trace classes). */
void gst_ctf_text_streams_get_delta (GstCtfTextStreams * ts,
    GstCtfTextDelta * state);
void gst_ctf_text_streams_set_delta (GstCtfTextStreams * ts,
    const GstCtfTextDelta * state);

/* Gives back the next item in the order gst_ctf_event_merge_next() gives
 * it, waiting for the workers when needed.  An event: its line, delta
 * included, is appended to @out.  Discarded items: @item is filled and
 * @warn gets the warning text.  An error: @item (stream name, offset) and
 * @error are set.  GST_CTF_MERGE_NONE: nothing more until the next push
 * (or, after finish, the end). */
GstCtfMergeItemType gst_ctf_text_streams_next (GstCtfTextStreams * ts,
    GString * out, GstCtfMergeItem * item, GString * warn, GError ** error);

G_END_DECLS
