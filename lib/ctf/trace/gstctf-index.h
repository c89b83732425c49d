/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: packet index of one CTF data stream file.
 *
 * An index lists where each packet of a stream file starts, how large it
 * is and which time range it covers (CTF 1.8 §5: packet header and
 * context).  It is read from the LTTng `index/<file>.idx` companion when
 * that file is valid, else built by scanning the packet headers.
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GST_CTF_INDEX_MAGIC:
 *
 * Magic number of an LTTng packet index file (`CTF_INDEX_MAGIC`), stored
 * big endian at the start of the file.
 */
#define GST_CTF_INDEX_MAGIC 0xC1F1DCC1u

/**
 * GstCtfIndexEntryFlags:
 * @GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN: @timestamp_begin is valid
 * @GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END: @timestamp_end is valid
 * @GST_CTF_INDEX_ENTRY_HAS_EVENTS_DISCARDED: @events_discarded is valid
 * @GST_CTF_INDEX_ENTRY_HAS_PACKET_SEQ_NUM: @packet_seq_num is valid
 * @GST_CTF_INDEX_ENTRY_HAS_STREAM_INSTANCE_ID: @stream_instance_id is valid
 * @GST_CTF_INDEX_ENTRY_TIMESTAMP_END_FIXED: @timestamp_end was not usable
 *   (0 or before @timestamp_begin, the lttng-crash quirk) and was replaced
 *   by the next packet's begin, or by @timestamp_begin for the last packet
 */
typedef enum {
  GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN = 1 << 0,
  GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END = 1 << 1,
  GST_CTF_INDEX_ENTRY_HAS_EVENTS_DISCARDED = 1 << 2,
  GST_CTF_INDEX_ENTRY_HAS_PACKET_SEQ_NUM = 1 << 3,
  GST_CTF_INDEX_ENTRY_HAS_STREAM_INSTANCE_ID = 1 << 4,
  GST_CTF_INDEX_ENTRY_TIMESTAMP_END_FIXED = 1 << 5,
} GstCtfIndexEntryFlags;

/**
 * GstCtfIndexEntry:
 * @offset: byte offset of the packet in its stream file
 * @packet_size: packet size in **bytes**
 * @content_size: content size in **bits** (CTF 1.8 §5.2 `content_size`)
 * @timestamp_begin: `timestamp_begin` in clock cycles
 * @timestamp_end: `timestamp_end` in clock cycles
 * @timestamp_begin_ns: @timestamp_begin in ns from the clock's origin
 *   (the Unix epoch when the clock's origin is), 0 when absent
 * @timestamp_end_ns: same for @timestamp_end
 * @events_discarded: snapshot of the `events_discarded` counter
 * @packet_seq_num: `packet_seq_num`
 * @stream_class_id: stream class id (packet header `stream_id`, 0 when
 *   the header has none)
 * @stream_instance_id: `stream_instance_id`, G_MAXUINT64 when absent
 * @flags: which optional members are valid, #GstCtfIndexEntryFlags
 *
 * One packet of a stream file.
 */
typedef struct {
  guint64 offset;
  guint64 packet_size;
  guint64 content_size;
  guint64 timestamp_begin;
  guint64 timestamp_end;
  gint64 timestamp_begin_ns;
  gint64 timestamp_end_ns;
  guint64 events_discarded;
  guint64 packet_seq_num;
  guint64 stream_class_id;
  guint64 stream_instance_id;
  guint32 flags;
} GstCtfIndexEntry;

/**
 * GstCtfIndex:
 * @entries: (element-type GstCtfIndexEntry): packets in file order
 * @from_idx_file: %TRUE when read from an LTTng `.idx` file
 * @error: (nullable): why indexing stopped before the end of the file
 *   (a %GST_CTF_ERROR, usually %GST_CTF_ERROR_PACKET); the entries before
 *   it are valid
 *
 * The packet index of one data stream file.
 */
typedef struct {
  GArray *entries;
  gboolean from_idx_file;
  GError *error;
} GstCtfIndex;

/**
 * gst_ctf_index_read_idx: (skip)
 * @tc: the trace class
 * @data: (array length=size): the whole stream file
 * @size: stream file size in bytes
 * @idx_data: (array length=idx_size): the whole `.idx` file
 * @idx_size: its size in bytes
 * @origin: (nullable): the `.idx` file name, for messages
 * @error: return location for a %GST_CTF_ERROR_INDEX
 *
 * Reads an LTTng packet index (big endian header {magic 0xC1F1DCC1, major,
 * minor, entry size}, then entries {offset, packet_size (bits),
 * content_size (bits), timestamp_begin, timestamp_end, events_discarded,
 * stream_id[, stream_instance_id, packet_seq_num since 1.1]}) and
 * validates it as babeltrace2 does: magic, major version 1, entry size at
 * least the 1.0 size, entry area a multiple of the entry size, packet
 * sizes byte multiples, offsets not decreasing, end not before begin, sum
 * of packet sizes equal to @size.  Also checks what babeltrace2 takes on
 * trust (each packet inside the file, non-zero sizes).  The first packet
 * of @data must be readable (its header gives the stream class and clock).
 *
 * Returns: (transfer full) (nullable): the index, or %NULL with @error set
 *   when the file is not valid (the caller then scans the stream file)
 */
GST_CTF_API GstCtfIndex *gst_ctf_index_read_idx (const GstCtfTraceClass * tc,
    const guint8 * data, gsize size, const guint8 * idx_data, gsize idx_size,
    const gchar * origin, GError ** error);

/**
 * gst_ctf_index_scan: (skip)
 * @tc: the trace class
 * @data: (array length=size): the whole stream file
 * @size: stream file size in bytes
 * @origin: (nullable): the stream file name, for messages
 *
 * Builds an index by reading each packet's header and context with
 * gst_ctf_packet_read_info(), from offset 0 to the end of the file.  Never
 * fails as a whole: when a packet cannot be read (bad magic, unknown
 * stream class, UUID different from the trace's, size past the end of the
 * file, zero or non byte-multiple size), indexing stops there and
 * #GstCtfIndex.error says where (`file`, byte `offset`, what was
 * expected); the entries before it are valid.
 *
 * Returns: (transfer full): the index
 */
GST_CTF_API GstCtfIndex *gst_ctf_index_scan (const GstCtfTraceClass * tc,
    const guint8 * data, gsize size, const gchar * origin);

/**
 * gst_ctf_index_build: (skip)
 * @tc: the trace class
 * @data: (array length=size): the whole stream file
 * @size: stream file size in bytes
 * @origin: (nullable): the stream file path; the LTTng index is looked
 *   for at `dirname(origin)/index/basename(origin).idx`
 *
 * gst_ctf_index_read_idx() when the `.idx` file exists and is valid, else
 * gst_ctf_index_scan() (babeltrace2 falls back the same way on any index
 * failure).
 *
 * Returns: (transfer full): the index
 */
GST_CTF_API GstCtfIndex *gst_ctf_index_build (const GstCtfTraceClass * tc,
    const guint8 * data, gsize size, const gchar * origin);

/**
 * gst_ctf_index_fix_timestamp_end:
 * @index: an index
 *
 * Applies babeltrace2's lttng-crash quirk: an entry whose `timestamp_end`
 * is 0 (or before its `timestamp_begin`) while `timestamp_begin` is not
 * gets the next entry's begin, or its own begin for the last entry
 * (babeltrace2 decodes the last event's time there; a reader that needs
 * it must decode the packet).  Marks fixed entries with
 * %GST_CTF_INDEX_ENTRY_TIMESTAMP_END_FIXED.
 */
GST_CTF_API void gst_ctf_index_fix_timestamp_end (GstCtfIndex * index);

GST_CTF_API void gst_ctf_index_free (GstCtfIndex * index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfIndex, gst_ctf_index_free)

G_END_DECLS
