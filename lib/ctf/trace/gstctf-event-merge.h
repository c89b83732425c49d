/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: merge the events of several streams of one trace into one
 * timestamp order, with babeltrace2's tie rules.
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-reader.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GstCtfMergeItemType:
 * @GST_CTF_MERGE_NONE: nothing can be emitted yet (push more packets, or
 *   call gst_ctf_event_merge_finish()); at the end: everything was emitted
 * @GST_CTF_MERGE_EVENT: an event; the item's iterator is positioned on it
 * @GST_CTF_MERGE_DISCARDED_EVENTS: the tracer discarded events (the
 *   `events_discarded` counter grew)
 * @GST_CTF_MERGE_DISCARDED_PACKETS: packets are missing (`packet_seq_num`
 *   gap)
 * @GST_CTF_MERGE_ERROR: a packet could not be decoded; the error is set
 */
typedef enum {
  GST_CTF_MERGE_NONE = 0,
  GST_CTF_MERGE_EVENT,
  GST_CTF_MERGE_DISCARDED_EVENTS,
  GST_CTF_MERGE_DISCARDED_PACKETS,
  GST_CTF_MERGE_ERROR,
} GstCtfMergeItemType;

/**
 * GstCtfMergeItem:
 * @type: what this item is
 * @iter: (nullable): for an event, a recording iterator positioned on it;
 *   valid until the next call to gst_ctf_event_merge_next()
 * @stream_class_id: the stream's class id
 * @stream_id: the stream's id (babeltrace2's stream ID), -1 for none
 * @stream_name: (nullable): the stream's name, as given to
 *   gst_ctf_event_merge_push()
 * @has_ns: whether @ns is valid (the stream class has a clock)
 * @ns: event time, ns from the clock origin; for an error, the time the
 *   stream had reached (its place in the merged order)
 * @count: discarded items, %G_MAXUINT64 when unknown
 * @clock: (nullable): for discarded items, the clock of @begin/@end;
 *   %NULL when the time range is unknown
 * @begin: discarded range begin, clock cycles
 * @end: discarded range end, clock cycles
 * @offset: for an event or an error, the byte offset of the packet in
 *   its stream file when known (-1 otherwise)
 * @pool_object: for an event, the babeltrace2 event object it would be
 *   decoded into (see gst_ctf_text_formatter_set_event_object()), or -1
 *   when not simulated
 */
typedef struct {
  GstCtfMergeItemType type;
  GstCtfEventIter *iter;
  guint64 stream_class_id;
  gint64 stream_id;
  const gchar *stream_name;
  gboolean has_ns;
  gint64 ns;
  guint64 count;
  const GstCtfClockClass *clock;
  guint64 begin;
  guint64 end;
  gint64 offset;
  gint64 pool_object;
} GstCtfMergeItem;

/**
 * GstCtfDiscardTracker:
 *
 * What the previous packet of a stream said of discarded events and
 * packets (its `events_discarded` snapshot, `packet_seq_num` and
 * `timestamp_end`, CTF 1.8 §5.2), to tell what the tracer discarded before
 * the next one, as babeltrace2's CTF source does.  One per stream,
 * zero-filled before its first packet.
 */
typedef struct {
  /*< private >*/
  gboolean valid;
  gboolean has_disc;
  guint64 disc;
  gboolean has_seq;
  guint64 seq;
  gboolean has_end;
  guint64 end;
} GstCtfDiscardTracker;

/**
 * gst_ctf_discard_tracker_next_packet: (skip)
 * @t: the stream's tracker
 * @pi: the stream's next packet
 * @clock: (nullable): the stream's default clock
 * @items: (out caller-allocates) (array fixed-size=2): the notices
 *
 * Moves @t to the packet @pi and tells what was discarded between the
 * previous packet and this one: a %GST_CTF_MERGE_DISCARDED_EVENTS item
 * when the `events_discarded` counter grew (the first packet: when it is
 * not 0), then a %GST_CTF_MERGE_DISCARDED_PACKETS item when
 * `packet_seq_num` skipped numbers.  Items get their @type, @count,
 * @clock (%NULL when the time range is unknown), @begin and @end (clock
 * cycles); the stream fields are the caller's to fill.
 *
 * Returns: the number of items filled in @items, 0 to 2
 */
GST_CTF_API guint gst_ctf_discard_tracker_next_packet (
    GstCtfDiscardTracker * t, const GstCtfPacketInfo * pi,
    const GstCtfClockClass * clock, GstCtfMergeItem items[2]);

/**
 * GstCtfEventMerge:
 *
 * Takes packets of several streams, arriving in `timestamp_begin` order
 * (the order ctfsrc pushes them), and gives back their events in the
 * order babeltrace2's muxer prints them: by nanoseconds from the clock
 * origin, then stream class id, then stream id, then (same stream) the
 * order in the stream.  An event is given back as soon as no packet still
 * to come can hold an earlier one; memory stays bounded by the packets
 * that overlap in time.  Also reports discarded events (difference of
 * `events_discarded` snapshots) and discarded packets (`packet_seq_num`
 * gaps) per stream, as babeltrace2's CTF source does.
 */
typedef struct _GstCtfEventMerge GstCtfEventMerge;

/**
 * gst_ctf_event_merge_new: (skip)
 * @tc: the trace class of all the packets (a reference is taken)
 *
 * Returns: (transfer full): a new merger
 */
GST_CTF_API GstCtfEventMerge *gst_ctf_event_merge_new (GstCtfTraceClass * tc);
GST_CTF_API void gst_ctf_event_merge_free (GstCtfEventMerge * m);

/**
 * gst_ctf_event_merge_push:
 * @m: the merger
 * @packet: (transfer none): the bytes of one packet (a reference is kept
 *   until all its events were given back)
 * @stream_class_id: stream class id of the packet
 * @stream_id: stream id (babeltrace2's stream ID, orders streams of one
 *   class with equal timestamps); -1 when the stream has none
 * @stream_name: (nullable): stream name for warnings (copied)
 * @offset: byte offset of the packet in its stream file, -1 if unknown
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_PACKET or
 *   %GST_CTF_ERROR_UNKNOWN_STREAM_CLASS when the header or context cannot
 *   be read)
 *
 * Queues one packet.  Packets must come in non-decreasing
 * `timestamp_begin` order across streams, and in stream order within a
 * stream.
 *
 * Returns: %TRUE when the packet was queued
 */
GST_CTF_API gboolean gst_ctf_event_merge_push (GstCtfEventMerge * m,
    GBytes * packet, guint64 stream_class_id, gint64 stream_id,
    const gchar * stream_name, gint64 offset, GError ** error);

/**
 * gst_ctf_event_merge_push_full:
 * @m: the merger
 * @packet: (transfer none): the bytes of one packet (a reference is kept
 *   until all its events were given back)
 * @stream_class_id: stream class id of the packet
 * @rank: identifies the stream among those of @stream_class_id and orders
 *   streams with equal timestamps (lower first), e.g.
 *   #GstCtfPacketMeta.stream_index, the stream's rank in babeltrace2's tie
 *   order (which also sorts traces merged into one trace class, where
 *   babeltrace2 stream ids can repeat)
 * @stream_id: babeltrace2's stream ID, only reported
 *   (#GstCtfMergeItem.stream_id, printed in discarded-items warnings); -1
 *   when the stream has none
 * @stream_name: (nullable): stream name for warnings (copied)
 * @offset: byte offset of the packet in its stream file, -1 if unknown
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_PACKET or
 *   %GST_CTF_ERROR_UNKNOWN_STREAM_CLASS when the header or context cannot
 *   be read)
 *
 * gst_ctf_event_merge_push() with the tie order given apart from the
 * reported stream id.  The stream id of the first packet of a stream is
 * the one reported for all of them.
 *
 * Returns: %TRUE when the packet was queued
 */
GST_CTF_API gboolean gst_ctf_event_merge_push_full (GstCtfEventMerge * m,
    GBytes * packet, guint64 stream_class_id, gint64 rank, gint64 stream_id,
    const gchar * stream_name, gint64 offset, GError ** error);

/**
 * gst_ctf_event_merge_set_emulate_recycling:
 * @m: the merger, before the first packet
 * @emulate: whether to simulate babeltrace2's event object recycling
 *
 * babeltrace2 2.0 prints an empty string or an empty text sequence as the
 * value its recycled event object last held.  With @emulate (the default
 * when the trace has strings or text sequences), the merger replays
 * babeltrace2's graph to tell which object each event uses
 * (#GstCtfMergeItem.pool_object); this needs the whole trace before the
 * first event is given back (up to 64 MiB, beyond which the emulation is
 * dropped and events flow as usual).
 */
GST_CTF_API void gst_ctf_event_merge_set_emulate_recycling (
    GstCtfEventMerge * m, gboolean emulate);

/**
 * gst_ctf_event_merge_set_recording:
 * @m: the merger, before the first packet
 * @record: whether the streams' iterators record every value
 *
 * With @record %TRUE (the default) #GstCtfMergeItem.iter is a recording
 * iterator.  With %FALSE the events are only walked (about 2.6 times
 * cheaper, see gst_ctf_event_iter_set_recording()): a consumer that
 * copies event bodies as bytes (gst_ctf_packet_writer_append_event_body())
 * asks for values only for the events it cannot copy, with
 * gst_ctf_event_merge_get_values().
 */
GST_CTF_API void gst_ctf_event_merge_set_recording (GstCtfEventMerge * m,
    gboolean record);

/**
 * gst_ctf_event_merge_get_packet_data:
 * @m: the merger, after gst_ctf_event_merge_next() gave back an event
 * @size: (out) (optional): bytes of the packet
 *
 * The packet the event just given back is in, e.g. to copy its body
 * from (gst_ctf_event_iter_get_header_end() and
 * gst_ctf_event_iter_get_event_offset() of #GstCtfMergeItem.iter give
 * the bit offsets).
 *
 * Returns: (transfer none) (array length=size) (nullable): the packet's
 *   bytes, valid until the next call to gst_ctf_event_merge_next()
 */
GST_CTF_API const guint8 *gst_ctf_event_merge_get_packet_data (
    GstCtfEventMerge * m, gsize * size);

/**
 * gst_ctf_event_merge_get_values:
 * @m: the merger, after gst_ctf_event_merge_next() gave back an event
 * @scope: which scope
 * @n_values: (out): number of values
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_PACKET
 *   when no event was just given back)
 *
 * The values of the event just given back, as
 * gst_ctf_event_iter_get_values() gives them, also when the merger does
 * not record (gst_ctf_event_merge_set_recording()): the packet header and
 * context values are kept when a packet starts, an event's values are
 * decoded again on demand by a second iterator that only goes forward
 * within the packet (the cost of recording, for the events asked for).
 *
 * Returns: (array length=n_values) (transfer none) (nullable): the values
 *   (%NULL with @error unset for an absent scope), valid until the next
 *   call to gst_ctf_event_merge_next()
 */
GST_CTF_API const GstCtfFieldValue *gst_ctf_event_merge_get_values (
    GstCtfEventMerge * m, GstCtfScope scope, guint * n_values,
    GError ** error);

/**
 * gst_ctf_event_merge_finish:
 * @m: the merger
 *
 * No more packets will come: everything queued can be given back.
 */
GST_CTF_API void gst_ctf_event_merge_finish (GstCtfEventMerge * m);

/**
 * gst_ctf_event_merge_advance:
 * @m: the merger
 * @ns: a time, ns from the clock origin (as the events' times)
 *
 * No packet pushed from now on holds an event older than @ns (a live
 * source said so: a GAP event up to @ns after packets in
 * `timestamp_begin` order): the events strictly older than @ns can be
 * given back without waiting for a later packet.  A time below what the
 * pushes already allowed changes nothing.
 */
GST_CTF_API void gst_ctf_event_merge_advance (GstCtfEventMerge * m,
    gint64 ns);

/**
 * gst_ctf_event_merge_next:
 * @m: the merger
 * @item: (out caller-allocates): the next item
 * @error: return location for the %GST_CTF_ERROR of a
 *   %GST_CTF_MERGE_ERROR item (from gst_ctf_event_iter_next())
 *
 * Gives back the next item in babeltrace2 order.  After an error, the
 * stream that failed is dropped and the others go on.
 *
 * Returns: the item type; %GST_CTF_MERGE_NONE when nothing more can be
 *   given back yet
 */
GST_CTF_API GstCtfMergeItemType gst_ctf_event_merge_next (GstCtfEventMerge *
    m, GstCtfMergeItem * item, GError ** error);

/**
 * gst_ctf_event_merge_get_n_queued:
 * @m: the merger
 *
 * Returns: the number of packets held (queued or being read)
 */
GST_CTF_API guint gst_ctf_event_merge_get_n_queued (GstCtfEventMerge * m);

G_END_DECLS
