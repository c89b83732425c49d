/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the CTF 1.8 packet writer (encoder).
 *
 * Builds packets of one stream class: packet header, packet context,
 * events, padding (CTF 1.8 §5).  Event values are given in the
 * representation the packet reader produces (#GstCtfFieldValue, pre-order
 * per scope), so reading an event with a recording #GstCtfEventIter and
 * appending its values writes the same event.  The writer builds each
 * event header itself, choosing the smallest header layout that gives
 * back the event class id and the exact clock value (CTF 1.8 §8).
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-reader.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GstCtfPacketWriterParams:
 * @stream_instance_id: written to the packet header field with meaning
 *   `stream_instance_id`, if any
 * @packet_seq_num: written to `packet_seq_num`, if the packet context has
 *   it (a reader counts a gap > 1 between consecutive packets of a stream
 *   as discarded packets: keep it consecutive)
 * @events_discarded: written to `events_discarded`, if any: a snapshot
 *   counter of the stream (CTF 1.8 §5.2), not a per-packet delta
 * @timestamp_begin: clock cycles, used when @has_timestamp_begin; else the
 *   first event's clock value (or @clock_value for an empty packet)
 * @timestamp_end: clock cycles, used when @has_timestamp_end; else the
 *   last event's clock value (or the begin time for an empty packet)
 * @has_timestamp_begin: whether @timestamp_begin is given
 * @has_timestamp_end: whether @timestamp_end is given
 * @clock_value: clock cycles: the base of the first event's timestamp
 *   when the packet context has no `timestamp_begin` (the last clock
 *   value of the previous packet of the stream)
 * @packet_size: fixed packet size in **bits** (a multiple of 8, e.g. an
 *   LTTng sub-buffer size × 8), or 0 for the content size rounded up to
 *   @packet_align
 * @packet_align: when @packet_size is 0, round the packet size up to a
 *   multiple of this many **bytes** (e.g. 4096 like LTTng); 0 or 1 for a
 *   byte multiple
 *
 * What a packet's header and context say beyond the caller's context
 * values.  Zero-initialise it and set what you need.
 */
typedef struct {
  guint64 stream_instance_id;
  guint64 packet_seq_num;
  guint64 events_discarded;
  guint64 timestamp_begin;
  guint64 timestamp_end;
  gboolean has_timestamp_begin;
  gboolean has_timestamp_end;
  guint64 clock_value;
  guint64 packet_size;
  guint packet_align;
} GstCtfPacketWriterParams;

/**
 * GstCtfPacketWriter:
 *
 * Writes packets of one stream class of a trace class.  Not thread safe;
 * one writer per stream being written.  The writer reuses one growing
 * buffer: appending an event does not allocate once the buffer has grown
 * to the packet size.
 *
 * |[<!-- language="C" -->
 * GstCtfPacketWriterParams p = { 0, };
 * p.stream_instance_id = cpu;
 * p.packet_seq_num = seq++;
 * gst_ctf_packet_writer_set_context_field (w, "cpu_id", cpu);
 * gst_ctf_packet_writer_begin_packet (w, &p, NULL, 0, &err);
 * gst_ctf_packet_writer_append_event (w, ec, cycles, NULL, 0, NULL, 0,
 *     payload, n_payload, &err);
 * bytes = gst_ctf_packet_writer_finish_packet_bytes (w, &err);
 * ]|
 */
typedef struct _GstCtfPacketWriter GstCtfPacketWriter;

/**
 * gst_ctf_packet_writer_new: (skip)
 * @tc: the trace class (a reference is kept)
 * @stream_class_id: id of the stream class to write
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_UNKNOWN_STREAM_CLASS; %GST_CTF_ERROR_METADATA_INVALID
 *   when the event header cannot be written: a variant tag outside the
 *   header, too many header layouts)
 *
 * Returns: (transfer full) (nullable): a new writer, or %NULL
 */
GST_CTF_API GstCtfPacketWriter *gst_ctf_packet_writer_new (GstCtfTraceClass *
    tc, guint64 stream_class_id, GError ** error);

GST_CTF_API void gst_ctf_packet_writer_free (GstCtfPacketWriter * w);

/**
 * gst_ctf_packet_writer_get_stream_class:
 * @w: a writer
 *
 * Returns: (transfer none): the stream class it writes
 */
GST_CTF_API const GstCtfStreamClass *gst_ctf_packet_writer_get_stream_class (
    GstCtfPacketWriter * w);

/**
 * gst_ctf_packet_writer_set_compact_wrap:
 * @w: a writer
 * @allow: whether an N-bit timestamp may wrap once (default %TRUE)
 *
 * CTF 1.8 §8 lets an N-bit timestamp stand for a value up to 2^N - 1
 * cycles after the previous one even when its high bits changed (the
 * reader adds 2^N once).  LTTng's ring buffer is stricter: it uses the
 * compact header only when the bits above N equal those of the previous
 * event of the stream (0 before the first event, so the first event of a
 * stream always gets the full timestamp).  With @allow %FALSE the writer
 * follows LTTng's rule, tracking the previous event across the packets it
 * writes, so re-encoding an unmodified LTTng stream gives the same
 * bytes.  The §8 reconstruction is checked in both modes.
 */
GST_CTF_API void gst_ctf_packet_writer_set_compact_wrap (GstCtfPacketWriter *
    w, gboolean allow);

/**
 * gst_ctf_packet_writer_set_context_field:
 * @w: a writer
 * @name: name of a top-level integer or enumeration member of the packet
 *   context, as in TSDL (e.g. `cpu_id`)
 * @value: its value (the bits of a gint64 for a signed field)
 *
 * Sets a packet context value used by later packets begun with no
 * context values.  Fields with a meaning (sizes, timestamps, counters)
 * are always written from #GstCtfPacketWriterParams and the content.
 *
 * Returns: %FALSE when the packet context has no such integer member
 */
GST_CTF_API gboolean gst_ctf_packet_writer_set_context_field (
    GstCtfPacketWriter * w, const gchar * name, guint64 value);

/**
 * gst_ctf_packet_writer_begin_packet:
 * @w: a writer
 * @params: (nullable): packet parameters (%NULL: all zero)
 * @context: (array length=n_context) (nullable): packet context values as
 *   gst_ctf_event_iter_get_values() gives them for
 *   %GST_CTF_SCOPE_PACKET_CONTEXT, or %NULL for the values set with
 *   gst_ctf_packet_writer_set_context_field() (others 0)
 * @n_context: number of values
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_PACKET
 *   when a value does not fit its field class)
 *
 * Starts a packet, dropping any unfinished one, and writes its header and
 * context.  The context values are copied into the packet at once; the
 * fields with a meaning are fixed up by
 * gst_ctf_packet_writer_finish_packet().
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_packet_writer_begin_packet (GstCtfPacketWriter *
    w, const GstCtfPacketWriterParams * params,
    const GstCtfFieldValue * context, guint n_context, GError ** error);

/**
 * gst_ctf_packet_writer_append_event:
 * @w: a writer with a packet begun
 * @ec: the event class (of the writer's stream class)
 * @clock_value: the event's full clock value in cycles of the stream's
 *   default clock
 * @common_context: (array length=n_common_context) (nullable): values of
 *   the stream's event common context (%GST_CTF_SCOPE_EVENT_COMMON_CONTEXT)
 * @n_common_context: number of values
 * @specific_context: (array length=n_specific_context) (nullable): values
 *   of the event class's context
 * @n_specific_context: number of values
 * @payload: (array length=n_payload) (nullable): payload values
 * @n_payload: number of values
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_PACKET when
 *   a value does not fit its field class (an integer too big for its
 *   size, a sequence whose element count differs from its length field, a
 *   variant option that differs from its tag, values that do not follow
 *   the field class), when no event header layout gives back the clock
 *   value exactly, or when the packet would exceed its fixed size;
 *   %GST_CTF_ERROR_UNKNOWN_EVENT_CLASS when @ec is not of the stream class
 *
 * Appends one event.  Values are matched to the writer's field classes by
 * position (their own @fc may belong to another trace class with the same
 * layout, e.g. the input of a merge); a scope with a field class needs
 * its values (at least the root struct), except an empty struct.  The
 * event header is chosen and written by the writer.  On error the packet
 * is left as it was before the call.
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_packet_writer_append_event (GstCtfPacketWriter *
    w, const GstCtfEventClass * ec, guint64 clock_value,
    const GstCtfFieldValue * common_context, guint n_common_context,
    const GstCtfFieldValue * specific_context, guint n_specific_context,
    const GstCtfFieldValue * payload, guint n_payload, GError ** error);

/**
 * gst_ctf_packet_writer_append_event_body:
 * @w: a writer with a packet begun
 * @ec: the event class (of the writer's stream class)
 * @clock_value: the event's full clock value in cycles of the stream's
 *   default clock
 * @packet: (array length=packet_size): the bytes of the packet the event
 *   was read from, written with the same field classes for the event's
 *   body (e.g. read with an iterator of the writer's trace class)
 * @packet_size: bytes in @packet
 * @body_offset: bit offset in @packet where the event's header ends
 *   (gst_ctf_event_iter_get_header_end())
 * @body_end: bit offset in @packet one past the event's last bit
 *   (gst_ctf_event_iter_get_event_offset())
 * @copied: (out): whether the event was appended
 * @error: return location for a %GST_CTF_ERROR: as
 *   gst_ctf_packet_writer_append_event(), and %GST_CTF_ERROR_PACKET when
 *   the body range is not inside @packet
 *
 * Appends one event with a header the writer builds (as
 * gst_ctf_packet_writer_append_event() does) and a body (stream event
 * context, event context, payload, with their padding) copied as bytes
 * from @packet, without decoding it.  CTF 1.8 §4.2.2 alignment is
 * relative to the packet start, so the copy is exact only when the body
 * lands at a bit offset congruent to @body_offset modulo the largest
 * alignment used in the body (and at least 8: only whole bytes are
 * copied; @body_offset and @body_end must be byte multiples).  When it
 * would not be exact, or the body's lengths or tags refer to the event
 * header, nothing is written, *@copied is %FALSE and the function returns
 * %TRUE: append the event with gst_ctf_packet_writer_append_event()
 * instead.  Padding bits inside the body keep the source's values
 * (readers ignore them).
 *
 * Returns: %FALSE on error (nothing written)
 */
GST_CTF_API gboolean gst_ctf_packet_writer_append_event_body (
    GstCtfPacketWriter * w, const GstCtfEventClass * ec,
    guint64 clock_value, const guint8 * packet, gsize packet_size,
    guint64 body_offset, guint64 body_end, gboolean * copied,
    GError ** error);

/**
 * gst_ctf_packet_writer_append_event_spliced:
 * @w: a writer with a packet begun
 * @ec: the event class (of the writer's stream class)
 * @clock_value: the event's full clock value in cycles of the stream's
 *   default clock
 * @packet: (array length=packet_size): the bytes of the packet the event
 *   was read from
 * @packet_size: bytes in @packet
 * @body_offset: bit offset in @packet where the event's header ends
 * @split: bit offset in @packet where @insert goes, between @body_offset
 *   and @body_end
 * @body_end: bit offset in @packet one past the event's last bit
 * @insert: (array length=insert_size): bytes to write at @split, already
 *   encoded as the writer's field classes lay them out there
 * @insert_size: bytes in @insert
 * @copied: (out): whether the event was appended
 * @error: return location for a %GST_CTF_ERROR, as
 *   gst_ctf_packet_writer_append_event_body()
 *
 * gst_ctf_packet_writer_append_event_body() for an event whose body
 * gained fields in the writer's trace class (e.g. a member appended to
 * the event common context): a header the writer builds, the source body
 * up to @split, @insert, then the rest of the source body, copied as
 * bytes.  Exact only when every field of the body is byte-aligned (so
 * that any byte shift keeps the layout) and the offsets are whole bytes;
 * otherwise nothing is written, *@copied is %FALSE and the function
 * returns %TRUE: append the event with
 * gst_ctf_packet_writer_append_event() instead.
 *
 * Returns: %FALSE on error (nothing written)
 */
GST_CTF_API gboolean gst_ctf_packet_writer_append_event_spliced (
    GstCtfPacketWriter * w, const GstCtfEventClass * ec,
    guint64 clock_value, const guint8 * packet, gsize packet_size,
    guint64 body_offset, guint64 split, guint64 body_end,
    const guint8 * insert, gsize insert_size, gboolean * copied,
    GError ** error);

/**
 * gst_ctf_packet_writer_get_event_count:
 * @w: a writer
 *
 * Returns: the number of events in the current packet
 */
GST_CTF_API guint gst_ctf_packet_writer_get_event_count (GstCtfPacketWriter *
    w);

/**
 * gst_ctf_packet_writer_get_content_size:
 * @w: a writer
 *
 * Returns: the bits written so far in the current packet
 */
GST_CTF_API guint64 gst_ctf_packet_writer_get_content_size (
    GstCtfPacketWriter * w);

/**
 * gst_ctf_packet_writer_get_clock_value:
 * @w: a writer
 *
 * Returns: the clock value after the last event (for a stream without
 *   `timestamp_begin`, the next packet's #GstCtfPacketWriterParams
 *   clock_value)
 */
GST_CTF_API guint64 gst_ctf_packet_writer_get_clock_value (GstCtfPacketWriter *
    w);

/**
 * gst_ctf_packet_writer_set_timestamp_end:
 * @w: a writer with a packet begun without
 *   #GstCtfPacketWriterParams.has_timestamp_end
 * @cycles: the packet's `timestamp_end`, in clock cycles
 *
 * Sets the `timestamp_end` that gst_ctf_packet_writer_finish_packet()
 * writes, instead of the last event's clock value: for a packet whose end
 * is only known once its events are in.
 */
GST_CTF_API void gst_ctf_packet_writer_set_timestamp_end (
    GstCtfPacketWriter * w, guint64 cycles);

/**
 * gst_ctf_packet_writer_finish_packet:
 * @w: a writer with a packet begun
 * @size: (out): packet size in bytes
 * @error: return location for a %GST_CTF_ERROR (%GST_CTF_ERROR_PACKET:
 *   content larger than the fixed packet size, a size or time that does
 *   not fit its context field)
 *
 * Fixes `timestamp_begin`, `timestamp_end`, `content_size` and
 * `packet_size` (CTF 1.8 §5.2, in bits), pads with zero bytes to the
 * packet size and ends the packet.
 *
 * Returns: (transfer none) (array length=size) (nullable): the packet
 *   bytes, valid until the next call on @w
 */
GST_CTF_API const guint8 *gst_ctf_packet_writer_finish_packet (
    GstCtfPacketWriter * w, gsize * size, GError ** error);

/**
 * gst_ctf_packet_writer_finish_packet_bytes:
 * @w: a writer with a packet begun
 * @error: as gst_ctf_packet_writer_finish_packet()
 *
 * Like gst_ctf_packet_writer_finish_packet() but returns a copy.
 *
 * Returns: (transfer full) (nullable): the packet bytes
 */
GST_CTF_API GBytes *gst_ctf_packet_writer_finish_packet_bytes (
    GstCtfPacketWriter * w, GError ** error);

/**
 * gst_ctf_packet_find_context_field:
 * @tc: the trace class
 * @sc: the packet's stream class
 * @meaning: the packet context field wanted (e.g.
 *   %GST_CTF_MEANING_PACKET_SEQ_NUM, %GST_CTF_MEANING_CONTENT_SIZE)
 * @bit_offset: (out): its bit offset from the packet's start
 * @fc: (out) (transfer none) (nullable): its field class, %NULL when the
 *   packet context has no such field
 *
 * Finds where the integer with @meaning sits in every packet of @sc, when
 * the packet header and the context fields before it all have a fixed
 * size (CTF 1.8 §4).
 *
 * Returns: %FALSE when a field of variable size (string, sequence,
 *   variant, large array) comes first, so the place differs by packet
 */
GST_CTF_API gboolean gst_ctf_packet_find_context_field (const
    GstCtfTraceClass * tc, const GstCtfStreamClass * sc,
    GstCtfFieldMeaning meaning, guint64 * bit_offset,
    const GstCtfFieldClass ** fc);

/**
 * gst_ctf_packet_poke_integer:
 * @data: (array length=size): packet bytes, writable
 * @size: bytes in @data
 * @bit_offset: where the field starts (gst_ctf_packet_find_context_field())
 * @fc: the integer field class
 * @value: the new value
 *
 * Writes @value over a byte-aligned integer field of a whole number of
 * bytes, in its byte order.
 *
 * Returns: %FALSE (nothing written) when the field is not byte-aligned
 *   or not a whole number of bytes, lies past @size, or @value does not
 *   fit its size
 */
GST_CTF_API gboolean gst_ctf_packet_poke_integer (guint8 * data, gsize size,
    guint64 bit_offset, const GstCtfFieldClass * fc, guint64 value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfPacketWriter, gst_ctf_packet_writer_free)

G_END_DECLS
