/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: reader of trace-cmd `trace.dat` files (versions 6 and 7).
 *
 * Our own reader, no libtracecmd/libtraceevent: the file structure
 * (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)), compressed sections and
 * chunks (zlib, zstd), the ftrace event format files and the kernel
 * ring-buffer sub-buffer ("page") format (`events/header_page`,
 * `events/header_event`).
 *
 * Memory stays bounded: the file is mapped, compressed metadata sections
 * are inflated once (their declared size is checked), and per-CPU data is
 * walked page by page, inflating one chunk at a time.
 */
#pragma once

#include <glib-object.h>
#include "gstctf-version.h"
#include "gstctf-model.h"
#include "gstctf-reader.h"

G_BEGIN_DECLS

/**
 * GstCtfTraceDat:
 *
 * An opened trace.dat file.  Refcounted, immutable once opened; the
 * iterators made from it keep a reference.
 *
 * |[<!-- language="C" -->
 * g_autoptr (GstCtfTraceDat) td = gst_ctf_trace_dat_open ("trace.dat", &err);
 * GstCtfTraceDatMergeIter *it = gst_ctf_trace_dat_merge_iter_new (td, 0, &err);
 * GstCtfTraceDatRecord rec;
 * while (gst_ctf_trace_dat_merge_iter_next (it, &rec, &err) > 0) {
 *   const GstCtfTraceDatEventFormat *fmt =
 *       gst_ctf_trace_dat_get_event_format (td, rec.event_id);
 *   g_print ("%u %" G_GUINT64_FORMAT " %s\n", rec.cpu, rec.ts,
 *       fmt ? fmt->name : "?");
 * }
 * gst_ctf_trace_dat_merge_iter_free (it);
 * ]|
 */
typedef struct _GstCtfTraceDat GstCtfTraceDat;

/**
 * GstCtfTraceDatCompression:
 * @GST_CTF_TRACE_DAT_COMPRESSION_NONE: not compressed (v6, or v7 "none")
 * @GST_CTF_TRACE_DAT_COMPRESSION_ZLIB: zlib (trace-cmd "zlib" plug-in)
 * @GST_CTF_TRACE_DAT_COMPRESSION_ZSTD: Zstandard (trace-cmd "zstd")
 *
 * Compression algorithm named by the v7 compression header.
 */
typedef enum {
  GST_CTF_TRACE_DAT_COMPRESSION_NONE = 0,
  GST_CTF_TRACE_DAT_COMPRESSION_ZLIB,
  GST_CTF_TRACE_DAT_COMPRESSION_ZSTD,
} GstCtfTraceDatCompression;

/**
 * GstCtfTraceDatOptionId:
 *
 * Option ids (trace-cmd.dat.v7(5) "OPTIONS SECTION"; the same ids are
 * used by v6 files that carry options).  Unknown ids are kept as they are.
 */
typedef enum {
  GST_CTF_TRACE_DAT_OPTION_DONE = 0,
  GST_CTF_TRACE_DAT_OPTION_DATE = 1,
  GST_CTF_TRACE_DAT_OPTION_CPUSTAT = 2,
  GST_CTF_TRACE_DAT_OPTION_BUFFER = 3,
  GST_CTF_TRACE_DAT_OPTION_TRACECLOCK = 4,
  GST_CTF_TRACE_DAT_OPTION_UNAME = 5,
  GST_CTF_TRACE_DAT_OPTION_HOOK = 6,
  GST_CTF_TRACE_DAT_OPTION_OFFSET = 7,
  GST_CTF_TRACE_DAT_OPTION_CPUCOUNT = 8,
  GST_CTF_TRACE_DAT_OPTION_VERSION = 9,
  GST_CTF_TRACE_DAT_OPTION_PROCMAPS = 10,
  GST_CTF_TRACE_DAT_OPTION_TRACEID = 11,
  GST_CTF_TRACE_DAT_OPTION_TIME_SHIFT = 12,
  GST_CTF_TRACE_DAT_OPTION_GUEST = 13,
  GST_CTF_TRACE_DAT_OPTION_TSC2NSEC = 14,
  GST_CTF_TRACE_DAT_OPTION_STRINGS = 15,
  GST_CTF_TRACE_DAT_OPTION_HEADER_INFO = 16,
  GST_CTF_TRACE_DAT_OPTION_FTRACE_EVENTS = 17,
  GST_CTF_TRACE_DAT_OPTION_EVENT_FORMATS = 18,
  GST_CTF_TRACE_DAT_OPTION_KALLSYMS = 19,
  GST_CTF_TRACE_DAT_OPTION_PRINTK = 20,
  GST_CTF_TRACE_DAT_OPTION_CMDLINES = 21,
  GST_CTF_TRACE_DAT_OPTION_BUFFER_TEXT = 22,
} GstCtfTraceDatOptionId;

/**
 * GstCtfTraceDatOption:
 * @id: option id (#GstCtfTraceDatOptionId or unknown)
 * @data: (array length=size): the option's payload, in file byte order
 * @size: payload size in bytes
 *
 * One option as stored in the file (DONE options are not listed).
 */
typedef struct {
  guint id;
  const guint8 *data;
  guint size;
} GstCtfTraceDatOption;

/**
 * GstCtfTraceDatFieldFlags:
 * @GST_CTF_TRACE_DAT_FIELD_ARRAY: `TYPE name[N]` or a dynamic array
 * @GST_CTF_TRACE_DAT_FIELD_DYNAMIC: `__data_loc TYPE[] name`: a 32-bit
 *   (or old 16-bit) location word {low 16: offset in the record, high 16:
 *   length}
 * @GST_CTF_TRACE_DAT_FIELD_RELATIVE: `__rel_loc`: like DYNAMIC, the offset
 *   counts from the end of the location word
 * @GST_CTF_TRACE_DAT_FIELD_STRING: a char/u8/s8 array (shown as text)
 * @GST_CTF_TRACE_DAT_FIELD_POINTER: the type is a pointer (`void *`)
 * @GST_CTF_TRACE_DAT_FIELD_LONG: the type contains `long`
 * @GST_CTF_TRACE_DAT_FIELD_SIGNED: `signed:1`
 *
 * What libtraceevent derives from a field's declaration.
 */
typedef enum {
  GST_CTF_TRACE_DAT_FIELD_ARRAY = 1 << 0,
  GST_CTF_TRACE_DAT_FIELD_DYNAMIC = 1 << 1,
  GST_CTF_TRACE_DAT_FIELD_RELATIVE = 1 << 2,
  GST_CTF_TRACE_DAT_FIELD_STRING = 1 << 3,
  GST_CTF_TRACE_DAT_FIELD_POINTER = 1 << 4,
  GST_CTF_TRACE_DAT_FIELD_LONG = 1 << 5,
  GST_CTF_TRACE_DAT_FIELD_SIGNED = 1 << 6,
} GstCtfTraceDatFieldFlags;

/**
 * GstCtfTraceDatField:
 * @name: field name (`common_pid`, `prev_comm`)
 * @type: declared type without the name and the `[N]` suffix
 *   (`char`, `__data_loc char[]`, `unsigned long`, `void *`)
 * @offset: byte offset in the record
 * @size: size in bytes (whole array for arrays; 4 for `__data_loc`)
 * @array_len: N of a static `[N]` array, else 0
 * @elem_size: size of one element (`size / array_len` for static arrays,
 *   the element type's size for dynamic ones when known, else 1)
 * @flags: #GstCtfTraceDatFieldFlags
 *
 * One `field:` line of an event format file.
 */
typedef struct {
  gchar *name;
  gchar *type;
  guint offset;
  guint size;
  guint array_len;
  guint elem_size;
  guint flags;
} GstCtfTraceDatField;

/**
 * GstCtfTraceDatEventFormat:
 * @id: event id (`ID:`), the record's `common_type`
 * @system: event system (`sched`, `ftrace` for ftrace's own events)
 * @name: event name (`sched_switch`)
 * @common_fields: (array length=n_common_fields): the `common_*` fields
 * @n_common_fields: their number
 * @fields: (array length=n_fields): the event's own fields
 * @n_fields: their number
 * @print_fmt: (nullable): the `print fmt:` text, unparsed
 * @text: the whole format file text as the file gave it (up to a NUL),
 *   what libtraceevent's tep_parse_event() reads
 *
 * A parsed event format file (`events/SYSTEM/NAME/format`).
 */
typedef struct {
  guint id;
  gchar *system;
  gchar *name;
  GstCtfTraceDatField *common_fields;
  guint n_common_fields;
  GstCtfTraceDatField *fields;
  guint n_fields;
  gchar *print_fmt;
  gchar *text;
} GstCtfTraceDatEventFormat;

/**
 * GstCtfTraceDatCpuData:
 * @cpu: CPU id
 * @offset: file offset of the CPU's data (of its chunk table when the
 *   buffer is compressed)
 * @size: bytes of data in the file (compressed size when compressed)
 *
 * Where one CPU's ring-buffer pages are.
 */
typedef struct {
  guint cpu;
  guint64 offset;
  guint64 size;
} GstCtfTraceDatCpuData;

/**
 * GstCtfTraceDatBuffer:
 * @name: instance name, `""` for the top-level buffer
 * @clock: (nullable): trace clock of the instance (v7), else the file's
 * @page_size: ring-buffer page size in bytes
 * @compressed: TRUE when the data is stored in compressed chunks
 * @latency: TRUE for a latency (text) buffer: no pages
 * @cpus: (array length=n_cpus): per-CPU data
 * @n_cpus: number of CPUs with data
 *
 * A flyrecord buffer: the top-level one or an instance (`-B`).
 */
typedef struct {
  gchar *name;
  gchar *clock;
  guint page_size;
  gboolean compressed;
  gboolean latency;
  GstCtfTraceDatCpuData *cpus;
  guint n_cpus;
} GstCtfTraceDatBuffer;

/**
 * GstCtfTraceDatRecord:
 * @ts: timestamp in ns, as `trace-cmd report -t` shows it: raw clock
 *   value, then TSC2NSEC, then + DATE×1000 + OFFSET
 * @raw_ts: the ring-buffer clock value (page stamp + deltas)
 * @data: (array length=size): the record's bytes (its payload, starting
 *   with `common_type`); valid until the iterator moves on
 * @size: record size in bytes (rounded up to 4 by the ring buffer)
 * @event_id: the record's `common_type`
 * @missed_events: events lost right before this record: 0, a count, or
 *   -1 when the kernel did not store the count
 * @cpu: CPU id
 * @page_index: index of the page in the CPU's data
 * @page_offset: offset of @data in its page
 *
 * One ring-buffer record.
 */
typedef struct {
  guint64 ts;
  guint64 raw_ts;
  const guint8 *data;
  guint size;
  guint event_id;
  gint64 missed_events;
  guint cpu;
  guint64 page_index;
  guint page_offset;
} GstCtfTraceDatRecord;

/**
 * GstCtfTraceDatPage:
 *
 * Parser of one ring-buffer sub-buffer.  Stack-allocated; fill it with
 * gst_ctf_trace_dat_page_init().  The public members are valid after init.
 */
typedef struct {
  /*< public >*/
  guint64 timestamp;            /* page header time stamp */
  guint commit;                 /* bytes of event data */
  gint64 missed_events;         /* 0, count, or -1 */
  /*< private >*/
  const guint8 *data;
  gsize size;
  guint data_offset;
  GstCtfByteOrder byte_order;
  guint pos;                    /* offset from data_offset */
  guint64 ts;
  gboolean first;
  gpointer _reserved[4];
} GstCtfTraceDatPage;

/**
 * GstCtfTraceDatPageRecord:
 * @timestamp: raw clock value of the record
 * @data: (array length=size): payload
 * @size: payload size in bytes
 * @offset: offset of @data from the page start
 * @missed_events: for the page's first record, the page's missed count,
 *   else 0
 *
 * One data record of a page (TIME_EXTEND, TIME_STAMP and PADDING entries
 * are consumed by the parser).
 */
typedef struct {
  guint64 timestamp;
  const guint8 *data;
  guint size;
  guint offset;
  gint64 missed_events;
} GstCtfTraceDatPageRecord;

GST_CTF_API GType gst_ctf_trace_dat_get_type (void);
#define GST_CTF_TYPE_TRACE_DAT (gst_ctf_trace_dat_get_type ())

GST_CTF_API GstCtfTraceDat *gst_ctf_trace_dat_open (const gchar * path,
    GError ** error);
GST_CTF_API GstCtfTraceDat *gst_ctf_trace_dat_open_bytes (GBytes * bytes,
    const gchar * origin, GError ** error);
GST_CTF_API GstCtfTraceDat *gst_ctf_trace_dat_ref (GstCtfTraceDat * td);
GST_CTF_API void gst_ctf_trace_dat_unref (GstCtfTraceDat * td);

GST_CTF_API const gchar *gst_ctf_trace_dat_get_origin (GstCtfTraceDat * td);
GST_CTF_API guint gst_ctf_trace_dat_get_version (GstCtfTraceDat * td);
GST_CTF_API GstCtfTraceDatCompression
gst_ctf_trace_dat_get_compression (GstCtfTraceDat * td);
GST_CTF_API const gchar *gst_ctf_trace_dat_get_compression_name (
    GstCtfTraceDat * td, const gchar ** version);
GST_CTF_API GstCtfByteOrder gst_ctf_trace_dat_get_byte_order (
    GstCtfTraceDat * td);
GST_CTF_API guint gst_ctf_trace_dat_get_long_size (GstCtfTraceDat * td);
GST_CTF_API guint gst_ctf_trace_dat_get_kernel_long_size (GstCtfTraceDat *
    td);
GST_CTF_API guint gst_ctf_trace_dat_get_page_size (GstCtfTraceDat * td);
GST_CTF_API guint gst_ctf_trace_dat_get_n_cpus (GstCtfTraceDat * td);
GST_CTF_API const gchar *gst_ctf_trace_dat_get_clock (GstCtfTraceDat * td);
GST_CTF_API const gchar *gst_ctf_trace_dat_get_uname (GstCtfTraceDat * td);
GST_CTF_API const gchar *gst_ctf_trace_dat_get_tracer_version (
    GstCtfTraceDat * td);
GST_CTF_API gint64 gst_ctf_trace_dat_get_ts_offset (GstCtfTraceDat * td);
GST_CTF_API gboolean gst_ctf_trace_dat_get_tsc2nsec (GstCtfTraceDat * td,
    guint32 * mult, guint32 * shift, guint64 * offset);
GST_CTF_API guint64 gst_ctf_trace_dat_convert_ts (GstCtfTraceDat * td,
    guint64 raw);

GST_CTF_API const GstCtfTraceDatOption *gst_ctf_trace_dat_get_options (
    GstCtfTraceDat * td, guint * n_options);
GST_CTF_API const gchar *gst_ctf_trace_dat_get_header_page (
    GstCtfTraceDat * td);
GST_CTF_API const gchar *gst_ctf_trace_dat_get_header_event (
    GstCtfTraceDat * td);
GST_CTF_API const gchar *gst_ctf_trace_dat_get_cmdlines (GstCtfTraceDat * td,
    gsize * size);
GST_CTF_API const gchar *gst_ctf_trace_dat_get_kallsyms (GstCtfTraceDat * td,
    gsize * size);
GST_CTF_API const gchar *gst_ctf_trace_dat_get_printk (GstCtfTraceDat * td,
    gsize * size);
GST_CTF_API const gchar *gst_ctf_trace_dat_lookup_comm (GstCtfTraceDat * td,
    gint pid);

GST_CTF_API guint gst_ctf_trace_dat_get_n_event_formats (GstCtfTraceDat * td);
GST_CTF_API const GstCtfTraceDatEventFormat *
gst_ctf_trace_dat_get_nth_event_format (GstCtfTraceDat * td, guint n);
GST_CTF_API const GstCtfTraceDatEventFormat *
gst_ctf_trace_dat_get_event_format (GstCtfTraceDat * td, guint id);
GST_CTF_API const GstCtfTraceDatEventFormat *
gst_ctf_trace_dat_find_event_format (GstCtfTraceDat * td,
    const gchar * system, const gchar * name);

GST_CTF_API guint gst_ctf_trace_dat_get_n_buffers (GstCtfTraceDat * td);
GST_CTF_API const GstCtfTraceDatBuffer *gst_ctf_trace_dat_get_buffer (
    GstCtfTraceDat * td, guint index);

/* Field access (bounds-checked against @size) */
GST_CTF_API gboolean gst_ctf_trace_dat_field_read_int (GstCtfTraceDat * td,
    const GstCtfTraceDatField * field, const guint8 * data, gsize size,
    guint64 * value);
GST_CTF_API gboolean gst_ctf_trace_dat_field_get_dynamic (GstCtfTraceDat * td,
    const GstCtfTraceDatField * field, const guint8 * data, gsize size,
    guint * offset, guint * length);

/* Event format files */
GST_CTF_API GstCtfTraceDatEventFormat *gst_ctf_trace_dat_event_format_parse (
    const gchar * text, gsize len, const gchar * system, guint long_size,
    GError ** error);
GST_CTF_API void gst_ctf_trace_dat_event_format_free (
    GstCtfTraceDatEventFormat * fmt);
GST_CTF_API const GstCtfTraceDatField *
gst_ctf_trace_dat_event_format_find_field (
    const GstCtfTraceDatEventFormat * fmt, const gchar * name);

/* Ring-buffer pages */
GST_CTF_API gboolean gst_ctf_trace_dat_page_init (GstCtfTraceDatPage * page,
    const guint8 * data, gsize size, GstCtfByteOrder byte_order,
    guint commit_size, guint data_offset, GError ** error);
GST_CTF_API gint gst_ctf_trace_dat_page_next (GstCtfTraceDatPage * page,
    GstCtfTraceDatPageRecord * rec, GError ** error);

/**
 * GstCtfTraceDatCpuIter:
 *
 * Walks one CPU's pages and records of one buffer, in file order.
 */
typedef struct _GstCtfTraceDatCpuIter GstCtfTraceDatCpuIter;

GST_CTF_API GstCtfTraceDatCpuIter *gst_ctf_trace_dat_cpu_iter_new (
    GstCtfTraceDat * td, guint buffer, guint cpu_index, GError ** error);
GST_CTF_API void gst_ctf_trace_dat_cpu_iter_free (GstCtfTraceDatCpuIter * it);
GST_CTF_API gint gst_ctf_trace_dat_cpu_iter_next_page (
    GstCtfTraceDatCpuIter * it, const guint8 ** page, gsize * size,
    GError ** error);
GST_CTF_API gint gst_ctf_trace_dat_cpu_iter_next (GstCtfTraceDatCpuIter * it,
    GstCtfTraceDatRecord * rec, GError ** error);
GST_CTF_API gint64 gst_ctf_trace_dat_cpu_iter_get_n_pages (
    GstCtfTraceDatCpuIter * it, GError ** error);
GST_CTF_API gboolean gst_ctf_trace_dat_cpu_iter_seek_page (
    GstCtfTraceDatCpuIter * it, guint64 page, GError ** error);

/**
 * GstCtfTraceDatMergeIter:
 *
 * Walks the records of all CPUs of one buffer in timestamp order (ties:
 * lowest CPU index first, as `trace-cmd report`).
 */
typedef struct _GstCtfTraceDatMergeIter GstCtfTraceDatMergeIter;

GST_CTF_API GstCtfTraceDatMergeIter *gst_ctf_trace_dat_merge_iter_new (
    GstCtfTraceDat * td, guint buffer, GError ** error);
GST_CTF_API void gst_ctf_trace_dat_merge_iter_free (
    GstCtfTraceDatMergeIter * it);
GST_CTF_API gint gst_ctf_trace_dat_merge_iter_next (
    GstCtfTraceDatMergeIter * it, GstCtfTraceDatRecord * rec,
    GError ** error);

/* CTF trace model */
GST_CTF_API GstCtfTraceClass *gst_ctf_trace_dat_build_trace_class (
    GstCtfTraceDat * td, guint buffer, GError ** error);
GST_CTF_API const GstCtfEventClass *gst_ctf_trace_dat_record_get_values (
    GstCtfTraceDat * td, const GstCtfTraceClass * tc,
    const GstCtfTraceDatRecord * rec, GstCtfFieldValue * common,
    guint max_common, guint * n_common, GstCtfFieldValue * payload,
    guint max_payload, guint * n_payload, GError ** error);

/* The side stream (gsttracecmd-side-stream.c) */
GST_CTF_API gboolean gst_ctf_trace_dat_is_side_stream_class (
    const GstCtfStreamClass * sc);
GST_CTF_API const GstCtfStreamClass *gst_ctf_trace_dat_find_side_stream_class (
    const GstCtfTraceClass * tc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfTraceDat, gst_ctf_trace_dat_unref)

G_END_DECLS
