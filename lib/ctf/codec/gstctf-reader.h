/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the CTF 1.8 packet reader.
 *
 * A packet is the bytes of one CTF packet as it sits in a data stream file
 * (CTF 1.8 §5: packet header, packet context, events, padding).  The
 * reader compiles one decode plan per field class tree the first time it
 * meets it and then decodes without allocating.
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GstCtfPacketInfo:
 * @stream_class: (nullable): the packet's stream class
 * @stream_class_id: from the packet header (`stream_id`), 0 when absent
 * @stream_instance_id: from the packet header, when @has_stream_instance_id
 * @uuid: from the packet header, when @has_uuid
 * @packet_size: packet size in **bits** (`packet_size`, or the bytes
 *   available × 8 when the packet context has none: the packet then spans
 *   the rest of the stream file)
 * @content_size: content size in **bits** (`content_size`, else
 *   @packet_size)
 * @timestamp_begin: clock cycles, when @has_timestamp_begin
 * @timestamp_end: clock cycles, when @has_timestamp_end
 * @events_discarded: snapshot counter (not a delta), when
 *   @has_events_discarded
 * @packet_seq_num: when @has_packet_seq_num
 * @events_offset: bit offset of the first event (end of the packet context)
 *
 * What the packet header and context say (CTF 1.8 §5.1, §5.2).
 */
typedef struct {
  const GstCtfStreamClass *stream_class;
  guint64 stream_class_id;
  guint64 stream_instance_id;
  gboolean has_stream_instance_id;
  guint8 uuid[16];
  gboolean has_uuid;
  guint64 packet_size;
  guint64 content_size;
  gboolean has_packet_size;
  gboolean has_content_size;
  guint64 timestamp_begin;
  guint64 timestamp_end;
  gboolean has_timestamp_begin;
  gboolean has_timestamp_end;
  guint64 events_discarded;
  gboolean has_events_discarded;
  guint64 packet_seq_num;
  gboolean has_packet_seq_num;
  guint64 events_offset;
} GstCtfPacketInfo;

/**
 * GstCtfFieldValue:
 * @fc: the field class of this value
 * @name: (nullable): member or option name as in TSDL (%NULL for array or
 *   sequence elements and for the root of a scope)
 * @end: index one past the last value of this node's subtree in the same
 *   array (so `end == own index + 1` for a leaf)
 * @v: the value: @v.u for unsigned integers and enums and for the child
 *   count of structs, arrays and sequences; @v.i for signed integers and
 *   enums (sign-extended); @v.d for floats; @v.s for strings and for text
 *   arrays; for a variant, @v.u is the index of the selected option, whose
 *   value is the variant's single child (named after the option)
 *
 * One decoded value.  The values of a scope are in pre-order.  An array or
 * sequence of byte-aligned 8-bit integers with an encoding (a text array,
 * CTF 1.8 §4.2.3 note) has no children: @v.s points at its bytes
 * (@v.s.len = element count, not cut at a NUL).  String pointers point into
 * the packet data and are valid while the packet is.
 */
typedef struct {
  const GstCtfFieldClass *fc;
  const gchar *name;
  guint32 end;
  union {
    guint64 u;
    gint64 i;
    gdouble d;
    struct {
      const gchar *ptr;
      guint32 len;
    } s;
  } v;
} GstCtfFieldValue;

/**
 * gst_ctf_packet_read_info:
 * @tc: the trace class
 * @data: (array length=size): packet bytes from its first byte
 * @size: bytes available (to the end of the stream file, or the buffer)
 * @info: (out caller-allocates): what the header and context say
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_PACKET
 *   when the header or context does not fit, bad magic, sizes that exceed
 *   @size or are not byte multiples; %GST_CTF_ERROR_UNKNOWN_STREAM_CLASS)
 *
 * Decodes the packet header and context only.  Used to index stream files
 * and route packets.
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_packet_read_info (const GstCtfTraceClass * tc,
    const guint8 * data, gsize size, GstCtfPacketInfo * info,
    GError ** error);

/**
 * GstCtfEventIter:
 *
 * Iterates the events of one packet at a time.  One iterator per consumer
 * thread; it keeps compiled plans for the trace class it was made for.
 */
typedef struct _GstCtfEventIter GstCtfEventIter;

GST_CTF_API GstCtfEventIter *gst_ctf_event_iter_new (GstCtfTraceClass * tc);
GST_CTF_API void gst_ctf_event_iter_free (GstCtfEventIter * it);

/**
 * gst_ctf_event_iter_set_recording:
 * @it: the iterator
 * @record: whether to keep decoded field values
 *
 * With @record %FALSE (the default) the iterator only decodes what it needs
 * to walk events (sizes, lengths, tags, ids, timestamps).  With %TRUE it
 * keeps every value for gst_ctf_event_iter_get_values().
 */
GST_CTF_API void gst_ctf_event_iter_set_recording (GstCtfEventIter * it,
    gboolean record);

/**
 * gst_ctf_event_iter_set_packet:
 * @it: the iterator
 * @data: (array length=size): the packet; must stay valid while iterating
 * @size: bytes available (the packet may be followed by others)
 * @error: as gst_ctf_packet_read_info()
 *
 * Starts a packet: decodes its header and context and sets the current
 * clock value to `timestamp_begin` (0 when absent).
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_event_iter_set_packet (GstCtfEventIter * it,
    const guint8 * data, gsize size, GError ** error);

/**
 * gst_ctf_event_iter_set_clock_value:
 * @it: the iterator
 * @cycles: full 64-bit clock value
 *
 * Overrides the current clock value (the base for the next N-bit
 * timestamp, CTF 1.8 §8).  For a packet without `timestamp_begin`, give
 * the last clock value of the previous packet of the same stream.
 */
GST_CTF_API void gst_ctf_event_iter_set_clock_value (GstCtfEventIter * it,
    guint64 cycles);

GST_CTF_API const GstCtfPacketInfo *gst_ctf_event_iter_get_packet_info (
    GstCtfEventIter * it);

/**
 * gst_ctf_event_iter_next:
 * @it: the iterator
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_PACKET
 *   (event runs past `content_size`; the message gives the bit offset),
 *   %GST_CTF_ERROR_UNKNOWN_EVENT_CLASS
 *
 * Decodes the next event of the packet.  Timestamps are reconstructed as
 * CTF 1.8 §8 specifies: an N-bit clock-mapped field replaces the low N bits
 * of the current clock value, adding 2^N once when the new low bits are
 * smaller.
 *
 * Returns: %TRUE when an event was decoded; %FALSE at the end of the
 *   packet (with @error unset) or on error (with @error set)
 */
GST_CTF_API gboolean gst_ctf_event_iter_next (GstCtfEventIter * it,
    GError ** error);

GST_CTF_API const GstCtfEventClass *gst_ctf_event_iter_get_event_class (
    GstCtfEventIter * it);

/**
 * gst_ctf_event_iter_get_clock_value:
 * @it: the iterator
 *
 * Returns: the current clock value in cycles of the stream class's default
 *   clock (after the current event's timestamp, if any)
 */
GST_CTF_API guint64 gst_ctf_event_iter_get_clock_value (GstCtfEventIter * it);

/**
 * gst_ctf_event_iter_get_event_offset:
 * @it: the iterator
 * @end: (out) (optional): bit offset one past the current event
 *
 * Returns: bit offset of the current event's first bit in the packet
 */
GST_CTF_API guint64 gst_ctf_event_iter_get_event_offset (GstCtfEventIter *
    it, guint64 * end);

GST_CTF_API guint64 gst_ctf_event_iter_get_header_end (GstCtfEventIter *
    it);

/**
 * gst_ctf_event_iter_get_packet_count:
 * @it: the iterator
 *
 * How many times gst_ctf_event_iter_set_packet() was called on @it: it
 * changes exactly when the packet header and context values (CTF 1.8 §5,
 * the packet scopes) may change, so a consumer can keep what it derived
 * from them while it stays the same.
 *
 * Returns: a counter
 */
GST_CTF_API guint64 gst_ctf_event_iter_get_packet_count (GstCtfEventIter *
    it);

/**
 * gst_ctf_event_iter_set_position:
 * @it: the iterator, in a packet (after gst_ctf_event_iter_set_packet())
 * @offset: bit offset of an event's first bit in the current packet, as
 *   gst_ctf_event_iter_get_event_offset() gave it for this packet
 * @clock_value: the clock value (cycles) before that event: the clock
 *   value after the event before it, or the packet's starting clock value
 *   for its first event
 *
 * Makes the next gst_ctf_event_iter_next() decode the event at @offset, so
 * that an event found by an earlier walk over the same packet is decoded
 * again (with values, say) without decoding the events before it.  This is
 * exact because fields only refer to earlier fields of the same event or
 * to the packet header and context (CTF 1.8 §7.3.2), which
 * gst_ctf_event_iter_set_packet() already decoded.  An offset that is not
 * an event's start decodes garbage, with the same bounds checks and errors
 * as any other bits.
 *
 * Returns: %FALSE (and nothing changes) when @it is not in a packet or
 *   @offset is past the packet's content
 */
GST_CTF_API gboolean gst_ctf_event_iter_set_position (GstCtfEventIter * it,
    guint64 offset, guint64 clock_value);

/**
 * gst_ctf_event_iter_get_values:
 * @it: a recording iterator
 * @scope: which scope
 * @n_values: (out): number of values
 *
 * The decoded values of @scope for the current event (event scopes) or
 * packet (packet header and context), in pre-order; the first value is
 * the scope's root struct.  Empty when the scope is absent.
 *
 * Returns: (array length=n_values) (transfer none) (nullable): values,
 *   valid until the next call to gst_ctf_event_iter_next() or
 *   gst_ctf_event_iter_set_packet()
 */
GST_CTF_API const GstCtfFieldValue *gst_ctf_event_iter_get_values (
    GstCtfEventIter * it, GstCtfScope scope, guint * n_values);

/**
 * gst_ctf_clock_class_cycles_to_ns_from_origin:
 * @cc: a clock class
 * @cycles: a clock value
 * @ns: (out): nanoseconds from the clock's origin (the Unix epoch when
 *   @cc->origin_is_unix_epoch), including `offset_s` and `offset`
 *
 * The same arithmetic as babeltrace2 2.0, so that printed times match
 * its output to the nanosecond: exact for a 1 GHz clock; for any other
 * frequency babeltrace2 computes `1e9 × cycles / freq` in double
 * precision and truncates, and so does this function (exact integer
 * arithmetic differs by 1 ns on most events of a 2.8 GHz corpus trace).
 * `offset` cycles beyond a second are moved into `offset_s` first.
 *
 * Returns: %FALSE when the result does not fit in a gint64
 */
GST_CTF_API gboolean gst_ctf_clock_class_cycles_to_ns_from_origin (const
    GstCtfClockClass * cc, guint64 cycles, gint64 * ns);

/**
 * gst_ctf_clock_class_add_offset:
 * @cc: a clock class, changed in place
 * @offset_s: seconds to add to the clock's offset
 * @offset_ns: nanoseconds to add to it (any sign; whole seconds move
 *   into @offset_s)
 *
 * Moves @cc's origin as babeltrace2's `source.ctf.fs` parameters
 * `clock-class-offset-s` and `clock-class-offset-ns` (`babeltrace2
 * --clock-offset`, `--clock-offset-ns`) do: the nanoseconds modulo one
 * second (floor) become cycles at the clock's frequency, truncated, and
 * go to `offset`; the rest goes to `offset_s`.
 *
 * Returns: %FALSE, @cc unchanged, when the new offset does not fit
 */
GST_CTF_API gboolean gst_ctf_clock_class_add_offset (GstCtfClockClass * cc,
    gint64 offset_s, gint64 offset_ns);

G_END_DECLS
