/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Following one LTTng live session through lttng-relayd: the polling
 * rounds that `lttnglivesrc` and the GTK model's live source share.
 */
#pragma once

#include <gio/gio.h>
#include "gstctf-live.h"
#include "gstctf-model.h"

G_BEGIN_DECLS

/**
 * GstCtfLiveNotFound:
 * @GST_CTF_LIVE_NOT_FOUND_WAIT: list the sessions again after a poll
 *   interval (gst_ctf_live_follower_step() gives
 *   %GST_CTF_LIVE_FOLLOWER_WAIT)
 * @GST_CTF_LIVE_NOT_FOUND_END: the session is over at once
 *   (%GST_CTF_LIVE_FOLLOWER_END)
 * @GST_CTF_LIVE_NOT_FOUND_ERROR: a %GST_CTF_ERROR_LIVE error
 *
 * What a follower does when the relay does not list the session when it
 * attaches (babeltrace2's `session-not-found-action`).  Once attached, the
 * session's destruction ends the follower whatever the value.
 */
typedef enum {
  GST_CTF_LIVE_NOT_FOUND_WAIT,
  GST_CTF_LIVE_NOT_FOUND_END,
  GST_CTF_LIVE_NOT_FOUND_ERROR,
} GstCtfLiveNotFound;

/**
 * GstCtfLiveFollowerItem:
 * @GST_CTF_LIVE_FOLLOWER_ERROR: an error (the follower cannot go on)
 * @GST_CTF_LIVE_FOLLOWER_END: the session was destroyed and all its
 *   packets were given (or it was not found, with
 *   %GST_CTF_LIVE_NOT_FOUND_END)
 * @GST_CTF_LIVE_FOLLOWER_AGAIN: nothing to give yet, but the round learnt
 *   something: call again at once
 * @GST_CTF_LIVE_FOLLOWER_WAIT: nothing new on the relay: call again after
 *   the poll interval
 * @GST_CTF_LIVE_FOLLOWER_PACKET: a packet (the #GstCtfLiveFollowerPacket)
 * @GST_CTF_LIVE_FOLLOWER_METADATA: a new trace class for the packets from
 *   now on (gst_ctf_live_follower_get_trace_class(),
 *   gst_ctf_live_follower_get_metadata())
 * @GST_CTF_LIVE_FOLLOWER_ADVANCE: no later packet begins before the
 *   #GstCtfLiveFollowerAdvance's @to_ns (an element's GAP event)
 *
 * What one gst_ctf_live_follower_step() gives.
 */
typedef enum {
  GST_CTF_LIVE_FOLLOWER_ERROR = -1,
  GST_CTF_LIVE_FOLLOWER_END = 0,
  GST_CTF_LIVE_FOLLOWER_AGAIN,
  GST_CTF_LIVE_FOLLOWER_WAIT,
  GST_CTF_LIVE_FOLLOWER_PACKET,
  GST_CTF_LIVE_FOLLOWER_METADATA,
  GST_CTF_LIVE_FOLLOWER_ADVANCE,
} GstCtfLiveFollowerItem;

/**
 * GstCtfLiveFollowerPacket:
 * @bytes: the packet, byte for byte (rewritten by the traces' merge when
 *   the session has several traces)
 * @stream_class_id: its stream class in the current trace class
 * @has_stream_instance_id: whether its header has a stream instance id
 * @stream_instance_id: that id
 * @stream_name: (transfer none): the relay's channel name (interned)
 * @rank: the stream's rank in the order the relay announced the streams
 * @offset: bytes, where the packet is in the relay's stream file
 * @begin_ns: its `timestamp_begin`, ns from the clock's origin
 * @end_ns: its `timestamp_end`, ns from the clock's origin
 * @events_discarded_delta: events its stream lost since its previous
 *   packet
 * @late: %TRUE the first time a stream gives a packet older than what was
 *   already given (a stream the relay announced late)
 * @position: ns, the latest packet begin or advance given before it
 *
 * A packet given by gst_ctf_live_follower_step().
 */
typedef struct {
  GBytes *bytes;
  guint64 stream_class_id;
  gboolean has_stream_instance_id;
  guint64 stream_instance_id;
  const gchar *stream_name;
  guint rank;
  guint64 offset;
  gint64 begin_ns;
  gint64 end_ns;
  guint64 events_discarded_delta;
  gboolean late;
  gint64 position;
} GstCtfLiveFollowerPacket;

/**
 * GstCtfLiveFollowerAdvance:
 * @from_ns: the latest packet begin or advance given before
 * @to_ns: no later packet begins before it
 *
 * An advance given by gst_ctf_live_follower_step().
 */
typedef struct {
  gint64 from_ns;
  gint64 to_ns;
} GstCtfLiveFollowerAdvance;

/**
 * GstCtfLiveFollower:
 *
 * Follows one session of an LTTng relay (every relay session of the
 * traced host and session name: one per tracing domain and bitness, as
 * babeltrace2's `src.ctf.lttng-live`) and gives its packets in
 * `timestamp_begin` order across streams: a packet only when every other
 * stream has a packet index or an inactivity beacon at or after its
 * begin; the metadata before the packets that need it; the traces of the
 * session merged with #GstCtfTraceMerge (in babeltrace2's trace order)
 * when there are several.
 *
 * Pull API: the caller calls gst_ctf_live_follower_step() in a loop from
 * one thread and sleeps as it likes on %GST_CTF_LIVE_FOLLOWER_WAIT.
 * Blocking socket I/O; the #GCancellable given to
 * gst_ctf_live_follower_new() ends a request at once.  Not thread-safe.
 *
 * |[<!-- language="C" -->
 * f = gst_ctf_live_follower_new (url, GST_CTF_LIVE_SEEK_BEGINNING,
 *     GST_CTF_LIVE_NOT_FOUND_WAIT, 10000, 100, cancel, &error);
 * for (;;) {
 *   item = gst_ctf_live_follower_step (f, &packet, &advance, &error);
 *   if (item == GST_CTF_LIVE_FOLLOWER_PACKET)
 *     use (packet.bytes), g_bytes_unref (packet.bytes);
 *   else if (item == GST_CTF_LIVE_FOLLOWER_WAIT)
 *     g_usleep (100 * 1000);
 *   else if (item <= GST_CTF_LIVE_FOLLOWER_END)
 *     break;
 * }
 * ]|
 */
typedef struct _GstCtfLiveFollower GstCtfLiveFollower;

/**
 * gst_ctf_live_follower_new:
 * @url: `net://HOST[:PORT]/host/TRACER_HOST/SESSION` (also `net4://`)
 * @seek: where reading starts when attaching
 * @not_found: what to do when the relay does not list the session
 * @timeout_ms: longest wait for the relay to connect or reply (0: none)
 * @poll_ms: milliseconds between polls when the relay has nothing new
 *   (the caller's sleep); also how often new streams are asked for
 * @cancellable: (nullable): cancels every request of the follower
 * @error: return location for a %GST_CTF_ERROR_LIVE error
 *
 * Parses @url; connects nothing yet (the first step, or
 * gst_ctf_live_follower_attach(), does).
 *
 * Returns: (transfer full) (nullable): the follower, %NULL when @url is
 *   not a session's URL
 */
GST_CTF_API GstCtfLiveFollower *gst_ctf_live_follower_new (const gchar * url,
    GstCtfLiveSeek seek, GstCtfLiveNotFound not_found, guint timeout_ms,
    guint poll_ms, GCancellable * cancellable, GError ** error);

/**
 * gst_ctf_live_follower_free:
 * @f: (nullable) (transfer full): a follower
 *
 * Closes the connection and frees @f.
 */
GST_CTF_API void gst_ctf_live_follower_free (GstCtfLiveFollower * f);

/**
 * gst_ctf_live_follower_attach:
 * @f: a follower
 * @error: return location for a %GST_CTF_ERROR_LIVE error
 *
 * Connects, lists the relay's sessions and attaches to those of the URL's
 * host and session name, when not done yet (the first
 * gst_ctf_live_follower_step() does it otherwise).
 *
 * Returns: %GST_CTF_LIVE_FOLLOWER_AGAIN when attached,
 *   %GST_CTF_LIVE_FOLLOWER_WAIT or %GST_CTF_LIVE_FOLLOWER_END when the
 *   session is not listed (as @not_found says), or
 *   %GST_CTF_LIVE_FOLLOWER_ERROR
 */
GST_CTF_API GstCtfLiveFollowerItem gst_ctf_live_follower_attach (
    GstCtfLiveFollower * f, GError ** error);

/**
 * gst_ctf_live_follower_step:
 * @f: a follower
 * @packet: (out caller-allocates): set on %GST_CTF_LIVE_FOLLOWER_PACKET
 *   (@packet->bytes is the caller's to unref)
 * @advance: (out caller-allocates): set on %GST_CTF_LIVE_FOLLOWER_ADVANCE
 * @error: return location for a %GST_CTF_ERROR_LIVE, %GST_CTF_ERROR
 *   (corrupt metadata or packet) or #G_IO_ERROR error
 *
 * One round: new streams, metadata, packet indexes, then a packet when one
 * may leave, or an advance when none may but the streams' beacons moved
 * on.  After an error or the end, do not call it again.
 *
 * Returns: what the round gives
 */
GST_CTF_API GstCtfLiveFollowerItem gst_ctf_live_follower_step (
    GstCtfLiveFollower * f, GstCtfLiveFollowerPacket * packet,
    GstCtfLiveFollowerAdvance * advance, GError ** error);

/**
 * gst_ctf_live_follower_get_trace_class:
 * @f: a follower
 *
 * Returns: (transfer none) (nullable): the trace class of the packets
 *   given from the last %GST_CTF_LIVE_FOLLOWER_METADATA on (one trace's,
 *   or the merge's), %NULL before it; valid until the next one
 */
GST_CTF_API GstCtfTraceClass *gst_ctf_live_follower_get_trace_class (
    GstCtfLiveFollower * f);

/**
 * gst_ctf_live_follower_get_metadata:
 * @f: a follower
 *
 * Returns: (transfer none) (nullable): the metadata text of
 *   gst_ctf_live_follower_get_trace_class() (the trace's own, or the
 *   merge's TSDL), valid as long as it
 */
GST_CTF_API const gchar *gst_ctf_live_follower_get_metadata (
    GstCtfLiveFollower * f);

/**
 * gst_ctf_live_follower_get_live_timer:
 * @f: a follower
 *
 * Returns: µs, the largest live timer of the sessions attached (0 before)
 */
GST_CTF_API guint32 gst_ctf_live_follower_get_live_timer (
    GstCtfLiveFollower * f);

/**
 * gst_ctf_live_follower_get_relay:
 * @f: a follower
 * @port: (out) (optional): the relay's viewer port
 *
 * Returns: (transfer none): the relay's host name, as in the URL
 */
GST_CTF_API const gchar *gst_ctf_live_follower_get_relay (
    GstCtfLiveFollower * f, guint16 * port);

G_END_DECLS
