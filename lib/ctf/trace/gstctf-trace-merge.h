/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: merge the trace classes of several CTF 1.8 traces into one.
 *
 * Used by ctfsrc (a directory holding several traces, e.g. an LTTng
 * kernel and a user space trace) and by ctfmux (several inputs with
 * different metadata).  The merged trace class is what one output trace
 * declares; the packets of each input are rewritten for it.
 *
 * Rules (docs/design.md "ctfmux"):
 *
 * - Stream classes: every stream class of every input is kept, renumbered
 *   0, 1, 2, ... in input order, then in the input's stream class id order.
 *   Give the inputs in babeltrace2's trace order (UUID, then name:
 *   gst_ctf_trace_merge_compare_traces()) and comparing the new ids orders
 *   equal-time messages as babeltrace2's muxer does across traces
 *   (REFERENCE.md §1.3: trace UUID, trace name, stream class id).
 * - Clock classes: each input's clocks are kept.  A clock equal to one
 *   already merged (name, UUID, frequency, offsets, precision, origin) is
 *   shared; a different clock with a name already used is renamed
 *   `NAME_I` (I = input index; a number is added until unique).  A clock
 *   whose origin is the Unix epoch only through babeltrace2's LTTng
 *   `monotonic` quirk is written `absolute = true`, so the merged trace
 *   keeps that origin whatever its env says.  Every clock-mapped integer
 *   names its clock explicitly (`map = clock.NAME.value`): with several
 *   clocks babeltrace2 no longer maps unmapped timestamps by itself.
 * - Environment: a key with the same value (same type) in every input is
 *   kept as is.  Any other key is kept per input as `traceI_KEY`.  The
 *   merge also records, for each input I:
 *   `gstctf_traceI_stream_classes = "A,B,..."` (its new stream class
 *   ids), `gstctf_traceI_name` (its name, when given) and
 *   `gstctf_traceI_uuid` (its UUID, when it has one); and
 *   `gstctf_merged_traces = N`.  gst_ctf_trace_merge_find_env() reads this
 *   back: the env entry an event of a given stream class has in its own
 *   input trace.
 * - UUID: when an input has one, the merged trace gets a UUID derived
 *   from the inputs' UUIDs (SHA-1, RFC 4122 version 5 layout), so the
 *   same inputs always give the same output.
 * - Packet header (trace-wide, CTF 1.8 §5.1): when every input declares
 *   the same packet header layout, with the `stream_id` (and `uuid`) at a
 *   fixed byte-aligned offset and a `stream_id` wide enough for the new
 *   ids, the merged trace keeps it and a packet is rewritten by copying
 *   it and patching those fields.  Otherwise the merged header is
 *   `{ u32 magic; u8 uuid[16]; uN stream_id; u64 stream_instance_id; }`
 *   (uuid only when the merged trace has one, N = 8, 16 or 32 by the
 *   largest id, stream_instance_id only when an input header has one)
 *   and each packet is re-encoded event by event with the packet writer
 *   (same events, values and times; the event headers are chosen anew).
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-reader.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GstCtfTraceMerge:
 *
 * A merged trace class and how the inputs map onto it.  Not thread
 * safe (packet rewriting keeps decoders and writers).
 */
typedef struct _GstCtfTraceMerge GstCtfTraceMerge;

/**
 * gst_ctf_trace_merge_new: (skip)
 * @inputs: (array length=n_inputs): the input trace classes (references
 *   are taken), in the order their stream classes get new ids
 * @names: (array length=n_inputs) (nullable): input names (e.g.
 *   babeltrace2's trace names, `HOSTNAME/PATH`), elements may be %NULL
 * @n_inputs: number of inputs (>= 1, at most 4096)
 * @error: return location for a %GST_CTF_ERROR:
 *   %GST_CTF_ERROR_METADATA_INVALID when the merged trace class cannot be
 *   written as TSDL or parsed back (the message says which input)
 *
 * Merges the trace classes as the rules above say.
 *
 * Returns: (transfer full) (nullable): the merge, or %NULL
 */
GST_CTF_API GstCtfTraceMerge *gst_ctf_trace_merge_new (GstCtfTraceClass *
    const *inputs, const gchar * const *names, guint n_inputs,
    GError ** error);

/**
 * GstCtfTraceMergeFlags:
 * @GST_CTF_TRACE_MERGE_NONE: no flag
 * @GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH: every merged clock is declared
 *   with the Unix epoch as origin (`absolute = true`), as babeltrace2's
 *   `--clock-force-correlate` (`force-clock-class-origin-unix-epoch`)
 *   does: clocks that could not be correlated are then taken as such
 *
 * Options of gst_ctf_trace_merge_new_full().
 */
typedef enum {
  GST_CTF_TRACE_MERGE_NONE = 0,
  GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH = 1 << 0,
} GstCtfTraceMergeFlags;

/**
 * gst_ctf_trace_merge_new_full: (skip)
 * @inputs: (array length=n_inputs): as gst_ctf_trace_merge_new()
 * @names: (array length=n_inputs) (nullable): as gst_ctf_trace_merge_new()
 * @offsets_ns: (array length=n_inputs) (nullable): per input, nanoseconds
 *   added to every time of the input: its clocks' offsets (CTF 1.8 §8
 *   `offset_s`, `offset`) are moved by that much in the merged trace
 *   class, so packets are not touched and a reader sees each time plus
 *   the offset (exact for clocks whose frequency divides 1 GHz, else
 *   rounded to the nearest cycle)
 * @n_inputs: number of inputs
 * @flags: #GstCtfTraceMergeFlags
 * @error: as gst_ctf_trace_merge_new()
 *
 * gst_ctf_trace_merge_new() with per-input time offsets and options.
 *
 * Returns: (transfer full) (nullable): the merge, or %NULL
 */
GST_CTF_API GstCtfTraceMerge *gst_ctf_trace_merge_new_full (GstCtfTraceClass *
    const *inputs, const gchar * const *names, const gint64 * offsets_ns,
    guint n_inputs, GstCtfTraceMergeFlags flags, GError ** error);

GST_CTF_API void gst_ctf_trace_merge_free (GstCtfTraceMerge * m);

/**
 * gst_ctf_trace_merge_get_trace_class:
 * @m: a merge
 *
 * Returns: (transfer none): the merged trace class, fully resolved: what
 *   gst_ctf_metadata_parse() gives for gst_ctf_trace_merge_get_metadata()
 *   (built directly when the inputs were parsed from TSDL, else parsed
 *   back), and what gst_ctf_metadata_parse_shared() gives for that text
 *   while it lives
 */
GST_CTF_API GstCtfTraceClass *gst_ctf_trace_merge_get_trace_class (
    GstCtfTraceMerge * m);

/**
 * gst_ctf_trace_merge_get_metadata:
 * @m: a merge
 *
 * Returns: (transfer none): the merged TSDL metadata text
 */
GST_CTF_API const gchar *gst_ctf_trace_merge_get_metadata (GstCtfTraceMerge *
    m);

/**
 * gst_ctf_trace_merge_get_n_inputs:
 * @m: a merge
 *
 * Returns: the number of inputs
 */
GST_CTF_API guint gst_ctf_trace_merge_get_n_inputs (GstCtfTraceMerge * m);

/**
 * gst_ctf_trace_merge_map_stream_class:
 * @m: a merge
 * @input: input index
 * @stream_class_id: a stream class id of that input
 * @new_id: (out): its id in the merged trace class
 *
 * Returns: %FALSE when the input has no such stream class
 */
GST_CTF_API gboolean gst_ctf_trace_merge_map_stream_class (GstCtfTraceMerge *
    m, guint input, guint64 stream_class_id, guint64 * new_id);

/**
 * gst_ctf_trace_merge_packets_reencoded:
 * @m: a merge
 *
 * Returns: %TRUE when packets are re-encoded (the inputs' packet headers
 *   differ, or cannot be patched in place), %FALSE when they are copied
 *   and patched
 */
GST_CTF_API gboolean gst_ctf_trace_merge_packets_reencoded (GstCtfTraceMerge *
    m);

/**
 * gst_ctf_trace_merge_rewrite_packet:
 * @m: a merge
 * @input: input index of the packet
 * @data: (array length=size): the packet's bytes (one whole packet)
 * @size: bytes
 * @stream_instance_id: instance id to write when the merged header has
 *   `stream_instance_id` and the input packet has none (e.g. the input's
 *   stream index)
 * @new_stream_class_id: (out) (optional): the packet's stream class id in
 *   the merged trace
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_PACKET (the
 *   packet cannot be read or written; the message gives the byte or bit
 *   offset), %GST_CTF_ERROR_UNKNOWN_STREAM_CLASS,
 *   %GST_CTF_ERROR_UNKNOWN_EVENT_CLASS
 *
 * The packet as the merged trace declares it: a copy with the packet
 * header's `stream_id` and `uuid` patched, or a re-encoded packet (see
 * gst_ctf_trace_merge_packets_reencoded()).
 *
 * Returns: (transfer full) (nullable): the new packet bytes, or %NULL
 */
GST_CTF_API GBytes *gst_ctf_trace_merge_rewrite_packet (GstCtfTraceMerge * m,
    guint input, const guint8 * data, gsize size, guint64 stream_instance_id,
    guint64 * new_stream_class_id, GError ** error);

/**
 * gst_ctf_trace_merge_rewrite_packet_head:
 * @m: a merge
 * @input: input index of the packet
 * @data: (array length=size): the packet's bytes (one whole packet)
 * @size: bytes
 * @stream_instance_id: as for gst_ctf_trace_merge_rewrite_packet()
 * @new_stream_class_id: (out) (optional): the packet's stream class id in
 *   the merged trace
 * @n_replaced: (out): how many bytes at the start of @data the returned
 *   bytes replace
 * @packet_bytes: (out): the packet's size in bytes (its `packet_size`,
 *   at most @size)
 * @error: return location for a %GST_CTF_ERROR, as for
 *   gst_ctf_trace_merge_rewrite_packet()
 *
 * gst_ctf_trace_merge_rewrite_packet() without copying what does not
 * change: the merged packet is the returned bytes followed by @data from
 * byte *@n_replaced to byte *@packet_bytes.  When packets are patched in
 * place, the returned bytes are the packet header up to its last patched
 * field (`stream_id`, `uuid`; CTF 1.8 §5.1), so a caller can share the
 * rest of the input packet's memory; when they are re-encoded, the whole
 * new packet (*@n_replaced = *@packet_bytes).
 *
 * Returns: (transfer full) (nullable): the new first bytes, or %NULL
 */
GST_CTF_API GBytes *gst_ctf_trace_merge_rewrite_packet_head (GstCtfTraceMerge *
    m, guint input, const guint8 * data, gsize size,
    guint64 stream_instance_id, guint64 * new_stream_class_id,
    gsize * n_replaced, gsize * packet_bytes, GError ** error);

/**
 * gst_ctf_trace_merge_compare_traces:
 * @a: a trace class
 * @name_a: (nullable): its name
 * @b: another trace class
 * @name_b: (nullable): its name
 *
 * babeltrace2's order of traces for messages with equal times
 * (`common_muxing_compare_messages()`): a trace with a UUID before one
 * without, UUIDs compared as bytes, then names (a named trace first).
 *
 * Returns: < 0, 0 or > 0 like strcmp()
 */
GST_CTF_API gint gst_ctf_trace_merge_compare_traces (const GstCtfTraceClass *
    a, const gchar * name_a, const GstCtfTraceClass * b,
    const gchar * name_b);

/**
 * gst_ctf_trace_merge_check_clocks:
 * @inputs: (array length=n_inputs): trace classes to be merged
 * @names: (array length=n_inputs) (nullable): their names, for messages
 * @n_inputs: number of inputs
 * @error: return location for a %GST_CTF_ERROR_CLOCK
 *
 * babeltrace2's muxer refuses to order messages whose clocks cannot be
 * correlated (REFERENCE.md §1.3, clock-correlation-validator): all clocks
 * must have the Unix epoch as origin, or else all have the same UUID (or
 * there is no clock at all).  This checks the default clocks of all the
 * stream classes of all the inputs the same way; the user's fix is to
 * force the correlation (babeltrace2's `--clock-force-correlate`).
 *
 * Returns: %TRUE when the clocks can be correlated
 */
GST_CTF_API gboolean gst_ctf_trace_merge_check_clocks (GstCtfTraceClass *
    const *inputs, const gchar * const *names, guint n_inputs,
    GError ** error);

/**
 * gst_ctf_trace_merge_check_clocks_full:
 * @inputs: (array length=n_inputs): trace classes to be merged
 * @names: (array length=n_inputs) (nullable): their names, for messages
 * @n_inputs: number of inputs
 * @flags: with %GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH only what forcing
 *   cannot fix is checked: stream classes without a clock next to ones
 *   with a clock (babeltrace2 refuses those even with
 *   `--clock-force-correlate`)
 * @error: return location for a %GST_CTF_ERROR_CLOCK
 *
 * gst_ctf_trace_merge_check_clocks() with options.
 *
 * Returns: %TRUE when the clocks can be correlated
 */
GST_CTF_API gboolean gst_ctf_trace_merge_check_clocks_full (GstCtfTraceClass *
    const *inputs, const gchar * const *names, guint n_inputs,
    GstCtfTraceMergeFlags flags, GError ** error);

/**
 * gst_ctf_trace_merge_get_input_of_stream_class:
 * @tc: a trace class (made by a merge or not)
 * @stream_class_id: a stream class id
 *
 * Reads the env entries a merge records.
 *
 * Returns: the input index of the stream class, or -1 when @tc is not a
 *   merged trace class or does not say
 */
GST_CTF_API gint gst_ctf_trace_merge_get_input_of_stream_class (const
    GstCtfTraceClass * tc, guint64 stream_class_id);

/**
 * gst_ctf_trace_merge_find_env:
 * @tc: a trace class (made by a merge or not)
 * @stream_class_id: the stream class of an event
 * @name: an env key of the input trace (e.g. `procname`)
 *
 * The env entry @name as the input trace of @stream_class_id had it:
 * `traceI_NAME` when the merge kept it per input, else `NAME` (which is
 * also what a trace class that was not merged gives).  Not for per-event
 * use: look up once per stream class.
 *
 * Returns: (transfer none) (nullable): the entry (its @name member is the
 *   key as stored), or %NULL
 */
GST_CTF_API const GstCtfEnvEntry *gst_ctf_trace_merge_find_env (const
    GstCtfTraceClass * tc, guint64 stream_class_id, const gchar * name);

G_END_DECLS
