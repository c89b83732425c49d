/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfmux internals shared by gstctfmux.c (the element, the pads, packet
 * mode) and gstctfmux-events.c (events mode: the merge of events and
 * the output packets it writes).
 */
#pragma once

#include "gstctfmux.h"

#include <string.h>

#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"
#include "gstctf-trace-merge.h"
#include "gstctf-event-merge.h"
#include "gstctf-packet-writer.h"
#include "gstctf-output-version.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_ctf_mux_debug);

/* Largest content of an events-mode output packet, bits. */
#define EVENTS_PACKET_MAX_BITS (64 * 1024 * 8)
/* Events mode: output packets pushed together, at most. */
#define PENDING_MAX_BUFFERS 256
#define PENDING_MAX_BYTES (1024 * 1024)

struct _GstCtfMuxPad
{
  GstAggregatorPad parent;

  /* GST_OBJECT_LOCK (pad) */
  gint64 offset;
  gchar *tsdl;                  /* metadata of the current caps */
  gchar *trace_name;            /* their `trace-name`, or NULL */
  GstCtfTraceClass *tc;         /* parsed @tsdl */
  guint64 caps_serial;          /* bumped on every new metadata */
  gboolean has_origin;          /* a TIME segment came */
  gint64 origin;                /* its start - time: PTS of stream time 0 */
  GstPad *probed_peer;          /* the peer with the seek probe */
  gulong peer_probe;

  /* aggregate thread only */
  guint order;                  /* the N of sink_N */
  gint input;                   /* index in self->inputs, -1 */
  guint64 input_serial;         /* caps_serial @input was made for */
  gint64 last_key;              /* key of the last packet taken */
  /* its place in the order of head packets (gstctfmux.c pick_pad()) */
  gint heap_index;              /* in GstCtfMux.heap, -1 when not there */
  gint64 head_key;
  guint64 head_sc;
  guint64 head_instance;

  /* q_lock: the packets queued on the pad (gstctfmux-queue.c) */
  GMutex q_lock;
  GCond q_cond;
  gint q_buffers;               /* entered the pad, not popped yet */
  gsize q_bytes;
  gboolean q_waiting;           /* the input's thread waits for room */
  GstFlowReturn q_halt;         /* not OK: buffers get this flow */
  GstPadChainFunction agg_chain;        /* GstAggregatorPad's */
};

/* One distinct input trace (pads with the same metadata and offset share
 * one). */
typedef struct
{
  gchar *tsdl;
  GstCtfTraceClass *tc;
  gint64 offset;
  guint first_order;
  gchar *name;                  /* the first pad's name (messages) */
  gchar *trace_name;            /* babeltrace2's name (the merged env) */
} Input;

/* Events mode: one output stream. */
typedef struct
{
  guint64 sc;                   /* stream class id: key with @instance */
  guint64 instance;
  guint64 seq;                  /* next packet_seq_num */
  guint64 last_clock;
  guint rank;
  gboolean has_src_seq;
  guint64 src_seq;              /* packet_seq_num of the last source packet */
  const gchar *name;            /* interned "stream_SC_INSTANCE" */
  GstCtfPacketWriter *w;        /* the stream class's writer */
} OutStream;

struct _GstCtfMux
{
  GstAggregator parent;

  /* GST_OBJECT_LOCK (self) */
  GstCtfMuxMode mode;
  gboolean force_correlate;
  gboolean copy_bodies;
  GstCtfOutputVersion ctf_version;

  /* aggregate thread */
  GstCtfMuxMode cur_mode;
  GPtrArray *inputs;            /* Input, merge order */
  gboolean inputs_sorted;       /* first order fixed */
  GstCtfTraceMerge *merge;      /* NULL: passthrough of inputs[0] */
  GstCtfTraceClass *out_tc;
  gchar *out_tsdl;
  gchar *out_trace_name;        /* the single input's `trace-name` */
  gboolean caps_pending;
  gboolean segment_sent;

  /* GST_OBJECT_LOCK (self): the time line (gstctfmux-time.c) */
  gint64 origin_ns;             /* PTS of output stream time 0, or -1 */
  gint64 position_ns;           /* end of the packets taken, or G_MININT64 */
  gint64 seek_start_ns;         /* a seek's absolute start for the next */
  gint64 seek_stop_ns;          /*   segment, or -1 */

  /* The pads in the order of their head packets: a heap of the pads whose
   * head is known (it changes only when this element pops it) and a list
   * of the others (popped since, or without data yet); the pads are
   * referenced.  GST_OBJECT_LOCK (self): heap_stale (set when pads come
   * and go, are flushed, get events or a new offset: everything is placed
   * anew) and caps_changes (bumped on new metadata or offset). */
  GPtrArray *heap;
  GPtrArray *unplaced;
  gboolean heap_stale;
  guint32 heap_cookie;          /* the element's pads_cookie it was made at */
  guint64 caps_changes;
  guint64 caps_changes_seen;    /* aggregate thread */

  /* deep pad queues without live inputs (gstctfmux-queue.c): written by
   * the aggregate thread (and stop), GST_OBJECT_LOCK (self) */
  gboolean deep;
  guint64 saved_latency;        /* the `latency` before */

  /* events mode */
  GstCtfEventMerge *emerge;
  GHashTable *writers;          /* guint64 sc id -> GstCtfPacketWriter */
  GHashTable *out_streams;      /* OutStream (key: sc, instance) */
  gboolean cur_copy_bodies;
  guint64 n_copied;             /* events whose body was copied */
  guint64 n_reencoded;          /* events re-encoded field by field */
  GstBufferList *pending;       /* output packets not pushed yet */
  gsize pending_bytes;
  GHashTable *stream_ids;       /* "pad:sc:instance" -> id + 1 */
  GstCtfPacketWriter *open_w;
  guint64 open_sc;
  guint64 open_instance;
  guint64 open_src_seq;
  guint64 open_src_discarded;
  guint64 open_src_begin;
  gint64 open_first_ns;
  gint64 open_last_ns;
  OutStream *open_stream;
};

/* gstctfmux.c */
G_GNUC_INTERNAL void gst_ctf_mux_pads_changed (GstCtfMux * self);
G_GNUC_INTERNAL void gst_ctf_mux_send_caps_and_segment (GstCtfMux * self,
    GstClockTime pts);
G_GNUC_INTERNAL void gst_ctf_mux_head_ids (GstCtfMuxPad * pad, GstBuffer * buf,
    guint64 * sc, guint64 * inst);

/* gstctfmux-time.c */
G_GNUC_INTERNAL void gst_ctf_mux_time_note_segment (GstCtfMuxPad * pad,
    GstEvent * event);
G_GNUC_INTERNAL void gst_ctf_mux_time_make_segment (GstCtfMux * self,
    GstClockTime pts, GstSegment * seg);
G_GNUC_INTERNAL void gst_ctf_mux_time_note_buffer (GstCtfMux * self,
    GstBuffer * buf, gint64 offset);
G_GNUC_INTERNAL void gst_ctf_mux_time_flush (GstCtfMux * self);
G_GNUC_INTERNAL void gst_ctf_mux_time_note_seek (GstCtfMux * self,
    GstEvent * event);
G_GNUC_INTERNAL void gst_ctf_mux_time_reset (GstCtfMux * self);
G_GNUC_INTERNAL gboolean gst_ctf_mux_time_src_query (GstCtfMux * self,
    GstQuery * query, gboolean * handled);
G_GNUC_INTERNAL void gst_ctf_mux_time_add_pad (GstCtfMuxPad * pad);

/* gstctfmux-queue.c */
G_GNUC_INTERNAL void gst_ctf_mux_queue_add_pad (GstCtfMuxPad * pad);
G_GNUC_INTERNAL void gst_ctf_mux_queue_popped (GstCtfMuxPad * pad,
    GstBuffer * buf);
G_GNUC_INTERNAL void gst_ctf_mux_queue_reset (GstCtfMuxPad * pad);
G_GNUC_INTERNAL void gst_ctf_mux_queue_wake (GstCtfMuxPad * pad);
G_GNUC_INTERNAL void gst_ctf_mux_queue_halt (GstCtfMuxPad * pad,
    GstFlowReturn flow);
G_GNUC_INTERNAL void gst_ctf_mux_queue_halt_all (GstCtfMux * self,
    GstFlowReturn flow);
G_GNUC_INTERNAL void gst_ctf_mux_queue_reset_all (GstCtfMux * self);
G_GNUC_INTERNAL void gst_ctf_mux_queue_update (GstCtfMux * self);
G_GNUC_INTERNAL void gst_ctf_mux_queue_restore (GstCtfMux * self);
G_GNUC_INTERNAL void gst_ctf_mux_queue_fix_latency (GstCtfMux * self,
    GstQuery * query);

/* gstctfmux-events.c */
G_GNUC_INTERNAL guint gst_ctf_mux_out_stream_hash (gconstpointer p);
G_GNUC_INTERNAL gboolean gst_ctf_mux_out_stream_equal (gconstpointer a,
    gconstpointer b);
G_GNUC_INTERNAL GstFlowReturn gst_ctf_mux_events_drain (GstCtfMux * self,
    gboolean finish);
G_GNUC_INTERNAL GstFlowReturn gst_ctf_mux_events_push (GstCtfMux * self,
    GstCtfMuxPad * pad, GstBuffer * buf);

G_END_DECLS
