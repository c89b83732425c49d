/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: CTF traces on disk.
 *
 * A CTF 1.8 trace is a directory holding a `metadata` file and data
 * stream files (CTF 1.8 §5).  This finds traces below a directory the
 * way babeltrace2 does, lists, maps and indexes a trace's stream files
 * and groups them into logical streams as babeltrace2's `source.ctf.fs`
 * does (LTTng tracefile rotation: `chan_0_0`, `chan_0_1`, ... are one
 * stream).
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-error.h"
#include "gstctf-index.h"

G_BEGIN_DECLS

/**
 * GstCtfStreamFile:
 * @path: full path of the file
 * @name: interned base name of the file (relative to the trace directory)
 * @mapped: (nullable): the read-only mapping of the file
 * @data: (array length=size): the file's bytes
 * @size: file size in bytes (> 0: babeltrace2 ignores empty files)
 * @index: (nullable): its packet index; %NULL when the first packet could
 *   not be read (then @error says why)
 * @first_packet_ok: the first packet's header and context were read
 * @stream_class_id: stream class id of the first packet
 * @stream_instance_id: `stream_instance_id` of the first packet, or
 *   G_MAXUINT64
 * @has_begin: the first packet has `timestamp_begin`
 * @begin_ns: its `timestamp_begin` in ns from the clock's origin
 * @error: (nullable): why reading this file stops early (a
 *   %GST_CTF_ERROR naming the file and byte offset); the packets of
 *   @index are the valid ones before that point
 *
 * One data stream file of a trace.
 */
typedef struct {
  gchar *path;
  const gchar *name;
  GMappedFile *mapped;
  const guint8 *data;
  gsize size;
  GstCtfIndex *index;
  gboolean first_packet_ok;
  guint64 stream_class_id;
  guint64 stream_instance_id;
  gboolean has_begin;
  gint64 begin_ns;
  GError *error;
} GstCtfStreamFile;

/**
 * GstCtfStreamPacket:
 * @file: the file the packet is in
 * @entry: its index entry (offset and size in @file, timestamps, ...)
 *
 * One packet of a logical stream.
 */
typedef struct {
  GstCtfStreamFile *file;
  const GstCtfIndexEntry *entry;
} GstCtfStreamPacket;

/**
 * GstCtfStream:
 * @stream_class_id: stream class id (G_MAXUINT64 when its only file's
 *   first packet is unreadable)
 * @stream_instance_id: the `stream_instance_id` shared by its files, or
 *   G_MAXUINT64 when the stream has none (babeltrace2 also gives a file
 *   whose first packet has no `timestamp_begin` a stream of its own, with
 *   no instance id)
 * @bt_stream_id: the stream id babeltrace2 gives this stream: the
 *   instance id when there is one, else 0, 1, 2, ... in @index order
 *   among the streams without instance id
 * @index: position in babeltrace2's order of its streams (and output
 *   ports): streams sorted by the full path of their first (earliest)
 *   file
 * @stream_index: rank of the stream in babeltrace2's tie order for
 *   messages with equal timestamps (`common_muxing_compare_messages()`:
 *   stream class id, then stream id, then stream name = first file path);
 *   unique within the trace
 * @name: interned base name of the stream's first (earliest) file
 * @files: (element-type GstCtfStreamFile) (transfer none): its files,
 *   earliest first (by first `timestamp_begin`, then name)
 * @packets: (element-type GstCtfStreamPacket): all its packets in
 *   `timestamp_begin` order (one file: file order), identical packets of
 *   overlapping files dropped as babeltrace2 does (same size, begin, end
 *   and sequence number)
 * @error: (nullable) (transfer none): the first error among its files
 * @error_after: when @error is set, the number of @packets that come
 *   before the error (the reader stops after them)
 *
 * A logical data stream: the files of one (stream class, instance).
 */
typedef struct {
  guint64 stream_class_id;
  guint64 stream_instance_id;
  guint64 bt_stream_id;
  guint index;
  guint stream_index;
  const gchar *name;
  GPtrArray *files;
  GArray *packets;
  const GError *error;
  guint error_after;
} GstCtfStream;

/**
 * GstCtfTraceDir:
 * @path: the trace directory (the one holding `metadata`)
 * @metadata: plain TSDL text of the trace (de-packetized)
 * @trace_class: the parsed trace class
 * @files: (element-type GstCtfStreamFile): all stream files, by name
 * @streams: (element-type GstCtfStream): logical streams in babeltrace2's
 *   order (see #GstCtfStream.index)
 *
 * An opened CTF trace.
 */
typedef struct {
  gchar *path;
  gchar *metadata;
  GstCtfTraceClass *trace_class;
  GPtrArray *files;
  GPtrArray *streams;
} GstCtfTraceDir;

/**
 * gst_ctf_find_traces:
 * @dir: (type filename): a directory
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_IO when
 *   @dir cannot be read, %GST_CTF_ERROR_NO_TRACE when no trace is below it
 *
 * Finds the CTF traces at or below @dir as babeltrace2's automatic source
 * discovery does: a directory holding a regular file named `metadata` is
 * a trace (its subdirectories are not searched further); other
 * directories are searched recursively (at most 32 levels).
 *
 * Returns: (transfer full) (element-type filename): the trace directories,
 *   sorted by path, or %NULL
 */
GST_CTF_API GPtrArray *gst_ctf_find_traces (const gchar * dir,
    GError ** error);

/**
 * gst_ctf_trace_name:
 * @trace_class: the trace's class (its `hostname` env entry)
 * @root: (type filename): the directory the user gave
 * @path: (type filename) (nullable): the trace directory, at or below
 *   @root; %NULL for a trace read from several directories (rotation
 *   chunks: one UUID)
 *
 * babeltrace2's trace name (`--fields=trace`, the discarded items
 * warnings), as its command line names what it finds below an input: the
 * `hostname` env entry (when it is a string), then, for a trace of one
 * directory strictly below @root, `/` (when there is a host name) and
 * @path relative to @root (all of @path when it is not below @root).  A
 * trace given itself, or read from several directories, is named by its
 * host name alone, or "" without one.
 *
 * Returns: (transfer full): the name
 */
GST_CTF_API gchar *gst_ctf_trace_name (const GstCtfTraceClass * trace_class,
    const gchar * root, const gchar * path);

/**
 * gst_ctf_trace_dir_list_stream_files:
 * @trace_dir: (type filename): a trace directory
 * @error: return location for a %GST_CTF_ERROR_IO
 *
 * The data stream files of a trace, by babeltrace2's rule
 * (`create_ds_file_groups()`): every regular file (symbolic links
 * followed) of the directory itself except `metadata`, names starting
 * with `.` and empty files.  Subdirectories such as `index/` are not
 * data.
 *
 * Returns: (transfer full) (element-type filename): base names, sorted,
 *   or %NULL
 */
GST_CTF_API GPtrArray *gst_ctf_trace_dir_list_stream_files (const gchar *
    trace_dir, GError ** error);

/**
 * gst_ctf_trace_dir_open: (skip)
 * @path: (type filename): a trace directory (holding `metadata`)
 * @error: return location for a %GST_CTF_ERROR: from
 *   gst_ctf_metadata_load_file() and gst_ctf_metadata_parse() (metadata
 *   errors, TSDL or CTF 2), %GST_CTF_ERROR_IO
 *
 * Loads and parses the metadata, maps every stream file, indexes it
 * (gst_ctf_index_build()) and groups the files into streams.  A corrupt
 * stream file does not make this fail: its stream's #GstCtfStream.error
 * tells where the valid packets end.
 *
 * Returns: (transfer full): the trace, or %NULL
 */
GST_CTF_API GstCtfTraceDir *gst_ctf_trace_dir_open (const gchar * path,
    GError ** error);

/**
 * gst_ctf_trace_dir_open_parsed: (skip)
 * @path: (type filename): a trace directory (holding `metadata`)
 * @metadata: the text of its `metadata` (plain TSDL, as
 *   gst_ctf_metadata_load_file() gives it)
 * @tc: @metadata parsed (gst_ctf_tsdl_parse())
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_IO
 *
 * gst_ctf_trace_dir_open() for a caller that has read and parsed the
 * metadata already (e.g. to group several traces by UUID): the text is
 * copied and @tc is referenced, not parsed again.
 *
 * Returns: (transfer full): the trace, or %NULL
 */
GST_CTF_API GstCtfTraceDir *gst_ctf_trace_dir_open_parsed (const gchar * path,
    const gchar * metadata, GstCtfTraceClass * tc, GError ** error);

/**
 * gst_ctf_trace_dir_open_merged: (skip)
 * @paths: (array length=n_paths) (element-type filename): trace directories
 * @n_paths: number of directories (>= 1)
 * @name: (nullable): the #GstCtfTraceDir.path to give the result (e.g. the
 *   directory they were found below), %NULL for the chosen one's
 * @error: return location for a %GST_CTF_ERROR: as
 *   gst_ctf_trace_dir_open(), or %GST_CTF_ERROR_SEVERAL_TRACES when the
 *   traces do not all have the same UUID
 *
 * Opens several trace directories of one logical trace, as babeltrace2's
 * `source.ctf.fs` does with several inputs (LTTng session rotation: each
 * chunk is a trace directory with the same UUID): the metadata with the
 * most stream and event classes is used, the files of all directories are
 * grouped into streams by (stream class, instance id) and each stream's
 * packets merged in time order (identical packets of overlapping chunks
 * dropped).
 *
 * Returns: (transfer full): the trace, or %NULL
 */
GST_CTF_API GstCtfTraceDir *gst_ctf_trace_dir_open_merged (const gchar *
    const *paths, guint n_paths, const gchar * name, GError ** error);

GST_CTF_API void gst_ctf_trace_dir_free (GstCtfTraceDir * td);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfTraceDir, gst_ctf_trace_dir_free)

G_END_DECLS
