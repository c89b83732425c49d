/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng 0.x reader: structures shared by the reader's files (not public).
 *
 * Format (LTT 2.3-2.6; LTTV ltt/ltt-private.h, ltt/tracefile.c,
 * ltt/marker.c are the reference reader):
 *
 *   sub-buffer header, 68 bytes, in the trace's byte order:
 *     0 u64 cycle_count_begin   8 u64 cycle_count_end   16 u32 magic
 *    20 u8 major  21 u8 minor  22 u8 arch_size  23 u8 alignment
 *    24 u64 start_time_sec  32 u64 start_time_usec  40 u64 start_freq
 *    48 u32 freq_scale
 *    52 u32 lost_size (2.3/2.4: padding at the end) | data_size (2.5/2.6:
 *       bytes used, header included)
 *    56 u32 buf_size (2.3/2.4) | sb_size (2.5/2.6): the sub-buffer's size
 *    60 u32 events_lost  64 u32 subbuf_corrupt  (running counts)
 *
 *   event header: u32 (aligned to 4 when the trace aligns), 5-bit id above
 *   27 timestamp bits; id 29: u16 id, u16 size (0xFFFF: u32 size
 *   follows), u64 TSC (aligned to 8); id 30: u16 id, u16 size (+u32);
 *   id 31: u16 id.  The payload follows, aligned to its largest field.
 */
#pragma once

#include "gstlttng0.h"
#include "gstctf-model.h"

#include <string.h>

G_BEGIN_DECLS

#define LTTNG0_MAGIC 0x00D6B7EDu
#define LTTNG0_SUBBUF_HEADER_SIZE 68
#define LTTNG0_TSC_BITS 27
#define LTTNG0_TSC_MASK ((G_GUINT64_CONSTANT (1) << LTTNG0_TSC_BITS) - 1)
#define LTTNG0_ID_SIZE_TSC 29
#define LTTNG0_ID_SIZE 30
#define LTTNG0_ID_ONLY 31

/* The metadata channel's own events (fixed ids). */
#define LTTNG0_CORE_MARKER_ID 0
#define LTTNG0_CORE_MARKER_FORMAT 1

typedef enum {
  LTTNG0_FIELD_SIGNED,
  LTTNG0_FIELD_UNSIGNED,
  LTTNG0_FIELD_POINTER,
  LTTNG0_FIELD_STRING,
} Lttng0FieldType;

/* One argument of a marker format string. */
typedef struct {
  gchar *name;                  /* as LTTV names it ("field 1" if none) */
  Lttng0FieldType type;
  guint size;                   /* bytes: 1, 2, 4, 8 (0: string) */
  guint align;                  /* bytes, effective (1 when packed) */
  gboolean network;             /* network (big endian) byte order */
  guint base;                   /* display base: 8, 10 or 16 */
} Lttng0Field;

/* A marker: what `core_marker_id` and `core_marker_format` say. */
typedef struct {
  gchar *channel;
  gchar *name;
  guint16 id;
  guint8 int_size, long_size, pointer_size, size_t_size, alignment;
  gchar *format;                /* NULL until its format is read */
  Lttng0Field *fields;
  guint n_fields;
  guint largest_align;          /* effective alignment of the payload */
  gboolean usable;              /* format read and parsed */
} Lttng0Marker;

/* One sub-buffer of a tracefile, from its header. */
typedef struct {
  guint64 offset;               /* in the file */
  guint32 size;                 /* sub-buffer size */
  guint32 data_end;             /* bytes holding data, header included */
  guint64 cycle_begin, cycle_end;
  guint32 events_lost, subbuf_corrupt;
} Lttng0SubBuf;

typedef struct {
  gchar *path;
  gchar *name;                  /* file name: kernel_0, flight-net_1 */
  guint channel;                /* index in trace->channels */
  guint cpu;
  GBytes *bytes;                /* the file's contents (mapped) */
  const guint8 *base;
  gsize size;
  Lttng0SubBuf *subbufs;
  guint n_subbufs;
} Lttng0Tracefile;

typedef struct {
  gchar *name;
  GPtrArray *tracefiles;        /* Lttng0Tracefile *, by cpu */
  GHashTable *markers;          /* id -> Lttng0Marker * (owned) */
} Lttng0Channel;

struct _GstCtfLttng0Trace {
  gint ref_count;
  gchar *dir;
  gboolean big_endian;
  guint major, minor, arch_size, alignment;
  guint64 start_time_sec, start_time_usec, start_freq, start_tsc;
  guint32 freq_scale;
  GPtrArray *tracefiles;        /* Lttng0Tracefile *, channel then cpu */
  GPtrArray *channels;          /* Lttng0Channel *, metadata first */
  GPtrArray *warnings;          /* gchar *, NULL-terminated */
};

/* One decoded value of a payload. */
typedef struct {
  guint64 u;                    /* integers (signed: sign-extended) */
  const gchar *s;               /* strings: into the tracefile */
  guint32 len;                  /* string length, NUL excluded */
} Lttng0Value;

/* Reading position in one sub-buffer. */
typedef struct {
  const Lttng0Tracefile *tf;
  const Lttng0SubBuf *sb;
  const guint8 *data;           /* sub-buffer start */
  guint32 pos;                  /* next event header, from data */
  guint64 tsc;                  /* last full TSC */
} Lttng0Cursor;

/* An event header. */
typedef struct {
  guint32 offset;               /* of the header in the sub-buffer */
  guint16 id;
  guint64 tsc;
  gint64 size;                  /* payload size from the header, or -1 */
  guint32 payload;              /* where the header ends */
} Lttng0EventHeader;

static inline guint16
lttng0_read16 (gboolean be, const guint8 * p)
{
  return be ? (guint16) (p[0] << 8 | p[1]) : (guint16) (p[1] << 8 | p[0]);
}

static inline guint32
lttng0_read32 (gboolean be, const guint8 * p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return be ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

static inline guint64
lttng0_read64 (gboolean be, const guint8 * p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return be ? GUINT64_FROM_BE (v) : GUINT64_FROM_LE (v);
}

/* Padding to align @off to a field of @size bytes: LTT aligns a field to
 * min(alignment, size) in formats 2.3 and 2.6 and to its size in 2.4 and
 * 2.5; nothing is aligned when the trace's alignment is 0. */
static inline guint
lttng0_field_align (guint minor, guint alignment, guint size)
{
  if (alignment == 0 || size == 0)
    return 1;
  if (minor == 4 || minor == 5)
    return size;
  return MIN (alignment, size);
}

static inline guint64
lttng0_align_up (guint64 off, guint align)
{
  return align <= 1 ? off : (off + align - 1) / align * align;
}

/* gstlttng0-marker.c */
gboolean _gst_ctf_lttng0_marker_parse (Lttng0Marker * m, guint minor,
    GError ** error);
void _gst_ctf_lttng0_marker_free (Lttng0Marker * m);
gint _gst_ctf_lttng0_marker_decode (const GstCtfLttng0Trace * t,
    const Lttng0Marker * m, const Lttng0Cursor * c, guint32 payload,
    Lttng0Value * values, guint32 * end, GError ** error);

/* gstlttng0-event.c */
void _gst_ctf_lttng0_cursor_init (Lttng0Cursor * c,
    const Lttng0Tracefile * tf, const Lttng0SubBuf * sb);
gint _gst_ctf_lttng0_cursor_next (const GstCtfLttng0Trace * t,
    Lttng0Cursor * c, Lttng0EventHeader * h, GError ** error);

/* gstlttng0-metadata.c */
gboolean _gst_ctf_lttng0_read_metadata (GstCtfLttng0Trace * t,
    GError ** error);
const Lttng0Marker *_gst_ctf_lttng0_core_marker (const GstCtfLttng0Trace * t,
    guint id);

/* gstlttng0-ctf.c */
GstCtfTraceClass *_gst_ctf_lttng0_build_trace_class (
    const GstCtfLttng0Trace * t, guint64 * mult);

/* gstlttng0-trace.c */
GstCtfLttng0Trace *_gst_ctf_lttng0_trace_open_bytes (
    const gchar * const *names, GBytes * const *contents, guint n,
    GError ** error);
void _gst_ctf_lttng0_trace_warn (GstCtfLttng0Trace * t, const gchar * fmt,
    ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
