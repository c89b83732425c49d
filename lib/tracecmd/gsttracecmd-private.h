/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal state of the trace.dat reader, shared by its source files. */
#pragma once

#include <string.h>

#include "gsttracecmd.h"
#include "gstctf-error.h"
#include "gsttracecmd-packetizer.h"
#include "gstctf-packet-writer.h"

G_BEGIN_DECLS

/* Limits on what a file may make us allocate. */
#define TD_MAX_SECTION_SIZE   (512u * 1024 * 1024)  /* inflated section */
#define TD_MAX_CHUNK_SIZE     (64u * 1024 * 1024)   /* inflated data chunk */
/* An inflated size claimed by a compressed block must be plausible for its
 * compressed size before we allocate it: real sections and chunks (text,
 * ring-buffer pages) compress far less than 1:1024, zlib cannot exceed
 * about 1:1032, so a larger claim is corruption, not data. */
#define TD_MAX_INFLATE_RATIO  1024u
#define TD_INFLATE_PLAUSIBLE(csize, usize) \
  ((guint64) (usize) <= (guint64) (csize) * TD_MAX_INFLATE_RATIO + 4096)
#define TD_MAX_PAGE_SIZE      (16u * 1024 * 1024)
#define TD_MAX_CPUS           4096
#define TD_MAX_EVENTS         65536
#define TD_MAX_SECTIONS       4096

/* A text section kept where it lies in the file (or in its inflated
 * section) and copied NUL-ended only when asked for: kallsyms alone is
 * megabytes that the packet readers never look at. */
typedef struct {
  const guint8 *raw;            /* NULL: absent */
  gsize raw_size;
  gchar *text;                  /* made once, by td_lazy_text_get() */
  gsize size;                   /* strlen (text) */
} TdLazyText;

G_GNUC_INTERNAL const gchar *td_lazy_text_get (TdLazyText * t, gsize * size);

struct _GstCtfTraceDat {
  gint ref_count;
  gchar *origin;
  GMappedFile *mapped;
  GBytes *bytes;
  const guint8 *base;
  gsize file_size;

  guint version;
  GstCtfByteOrder byte_order;
  guint long_size;
  guint page_size;
  GstCtfTraceDatCompression compression;
  gchar *compression_name;
  gchar *compression_version;

  /* from header_page */
  guint kernel_long_size;       /* size of `commit` */
  guint page_data_offset;       /* offset of `data` */
  gchar *header_page;
  gchar *header_event;

  guint n_cpus;
  gchar *clock;
  gchar *uname;
  gchar *tracer_version;
  gint64 ts_offset;             /* DATE × 1000 + OFFSET, in ns */
  gboolean has_tsc2nsec;
  guint32 tsc_mult;
  guint32 tsc_shift;
  guint64 tsc_offset;

  GArray *options;              /* GstCtfTraceDatOption */
  GPtrArray *owned;             /* inflated buffers the options point in */

  gchar *cmdlines;
  gsize cmdlines_size;
  gchar *comms;                 /* copy of cmdlines cut into NUL-ended comms */
  GHashTable *comm_by_pid;      /* GINT_TO_POINTER(pid) -> comm in comms */
  TdLazyText kallsyms;
  TdLazyText printk;

  GPtrArray *formats;           /* GstCtfTraceDatEventFormat */
  GstCtfTraceDatEventFormat **format_by_id;  /* [65536] */
  guint common_type_offset;
  guint common_type_size;

  GPtrArray *buffers;           /* GstCtfTraceDatBuffer */
};

/* Byte order helpers: reads from a pointer known to hold @n bytes. */
static inline guint16
td_read16 (GstCtfByteOrder bo, const guint8 * p)
{
  return bo == GST_CTF_BYTE_ORDER_LE ? (guint16) (p[0] | (p[1] << 8))
      : (guint16) ((p[0] << 8) | p[1]);
}

static inline guint32
td_read32 (GstCtfByteOrder bo, const guint8 * p)
{
  if (bo == GST_CTF_BYTE_ORDER_LE)
    return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) |
        ((guint32) p[3] << 24);
  return (guint32) p[3] | ((guint32) p[2] << 8) | ((guint32) p[1] << 16) |
      ((guint32) p[0] << 24);
}

static inline guint64
td_read64 (GstCtfByteOrder bo, const guint8 * p)
{
  if (bo == GST_CTF_BYTE_ORDER_LE)
    return (guint64) td_read32 (bo, p) | ((guint64) td_read32 (bo, p + 4) << 32);
  return ((guint64) td_read32 (bo, p) << 32) | (guint64) td_read32 (bo, p + 4);
}

static inline guint64
td_read_n (GstCtfByteOrder bo, const guint8 * p, guint n)
{
  switch (n) {
    case 1:
      return p[0];
    case 2:
      return td_read16 (bo, p);
    case 4:
      return td_read32 (bo, p);
    case 8:
      return td_read64 (bo, p);
    default:
      return 0;
  }
}

/* gsttracecmd-compress.c */
/* Decompression state kept across blocks (zstd's context: making one per
 * block took a third of the time of inflating a kernel trace.dat's 40 KiB
 * chunks); one thread at a time. */
typedef struct _TdInflater TdInflater;
G_GNUC_INTERNAL TdInflater *td_inflater_new (void);
G_GNUC_INTERNAL void td_inflater_free (TdInflater * z);
/* @z: (nullable): state to reuse, or NULL for one made for this block */
G_GNUC_INTERNAL gboolean td_decompress (GstCtfTraceDatCompression c,
    TdInflater * z, const guint8 * in, gsize in_size, guint8 * out,
    gsize out_size, const gchar * origin, guint64 offset, GError ** error);

/* gsttracecmd-chunks.c: a CPU's compressed chunks, from the chunk after
 * the count at @off to @end, inflated ahead on a worker thread */
typedef struct _TdChunks TdChunks;
G_GNUC_INTERNAL TdChunks *td_chunks_new (GstCtfTraceDat * td, guint cpu,
    guint64 off, guint64 end, guint32 n_chunks);
G_GNUC_INTERNAL void td_chunks_free (TdChunks * c);
/* The next non-empty chunk's inflated bytes (valid until the next call):
 * 1, 0 at the end, -1 on a bad chunk (@error says which) */
G_GNUC_INTERNAL gint td_chunks_next (TdChunks * c, const guint8 ** data,
    gsize * len, GError ** error);

/* gsttracecmd-format.c */
G_GNUC_INTERNAL gboolean td_parse_header_page (const gchar * text, gsize len,
    guint * commit_size, guint * data_offset);

/* ---- packetizer internals (gsttracecmd-packetizer.c and
 * gsttracecmd-trace-class.c) ---------------------------------------------- */

/* Side stream event class ids */
/* Side stream event class ids */
enum
{
  FEV_HEADER = 0,
  FEV_OPTION,
  FEV_EVENT_FORMAT,
  FEV_CMDLINE,
  FEV_KALLSYM,
  FEV_PRINTK,
  N_FEV
};


/* LTTng-kernel layouts (gsttracecmd-lttng.c): one payload member each */
typedef enum
{
  LK_FIELD,                     /* the ftrace field as gsttracecmd-ctf.c maps it */
  LK_INT,                       /* the source integer (+ add), resized */
  LK_ZERO,                      /* an integer the file does not hold: 0 */
  LK_TEXT,                      /* a text as a char[bytes] UTF-8 array */
  LK_RWBS,                      /* block `rwbs` text as a uint32 bit mask */
  LK_VTIDS,                     /* uint8 length 1, then int32[] {source} */
  LK_NET_HEADER,                /* net_dev_template's network_header_type
                                 * (uint8 enum, 0: _unknown) then its
                                 * network_header variant (the empty
                                 * `_unknown` option): 1 byte */
} LttngKind;

/* An lttng-modules enumeration (LTTNG_TRACEPOINT_ENUM): its labels'
 * ranges in declaration order */
typedef struct
{
  const gchar *label;
  guint64 lower, upper;
} LttngEnumValue;

typedef struct
{
  const LttngEnumValue *values;
  guint n;
} LttngEnum;

typedef struct
{
  gchar *name;
  LttngKind kind;
  const GstCtfTraceDatField *src;       /* NULL for LK_ZERO */
  guint bytes;
  gboolean is_signed;
  guint base;
  gint64 add;
  const LttngEnum *enumeration; /* LK_INT, LK_ZERO: an enum of it, or NULL */
} LttngField;

typedef struct
{
  LttngField *f;
  guint n;
  guint8 *scratch;              /* LK_TEXT values' bytes, 16 per member */
} LttngLayout;

G_GNUC_INTERNAL LttngLayout *_gst_ctf_trace_dat_lttng_layout_new (
    const GstCtfTraceDatEventFormat * f, guint long_size,
    gboolean with_common);
G_GNUC_INTERNAL void _gst_ctf_trace_dat_lttng_layout_free (LttngLayout * l);
G_GNUC_INTERNAL gchar *_gst_ctf_trace_dat_lttng_event_name (
    const GstCtfTraceDatEventFormat * f);
G_GNUC_INTERNAL guint32 _gst_ctf_trace_dat_lttng_rwbs (const gchar * s,
    gsize len);
G_GNUC_INTERNAL GstCtfFieldClass *_gst_ctf_trace_dat_lttng_payload (
    GstCtfTraceClass * tc, const LttngLayout * l, GstCtfByteOrder bo);
G_GNUC_INTERNAL guint64 _gst_ctf_trace_dat_lttng_int (GstCtfTraceDat * td,
    const LttngField * lf, const guint8 * data, gsize size);
G_GNUC_INTERNAL void _gst_ctf_trace_dat_lttng_text (GstCtfTraceDat * td,
    const LttngField * lf, const guint8 * data, gsize size, guint8 * out);
G_GNUC_INTERNAL gboolean _gst_ctf_trace_dat_lttng_values (GstCtfTraceDat * td,
    LttngLayout * l, const GstCtfFieldClass * payload_fc,
    const GstCtfTraceDatRecord * rec, GstCtfFieldValue * v, guint max,
    guint * n);

/* lttng_statedump_start's event class id (process_state +1, end +2) */
#define LTTNG_STATEDUMP_START_ID 65533
G_GNUC_INTERNAL gboolean _gst_ctf_trace_dat_lttng_add_statedump (
    GstCtfStreamClass * sc, GstCtfByteOrder bo, guint long_size);
G_GNUC_INTERNAL gboolean _gst_ctf_trace_dat_lttng_statedump (
    GstCtfTraceDat * td, const GstCtfStreamClass * sc,
    GstCtfPacketWriter * w, guint cpu, guint64 t0, const guint8 ** data,
    gsize * size, guint * n_events, GError ** error);

/* gsttracecmd-ctf.c */
G_GNUC_INTERNAL void _gst_ctf_trace_dat_append_field (GstCtfTraceClass * tc,
    GstCtfFieldClass * st, const GstCtfTraceDatField * f, const gchar * as,
    GstCtfByteOrder bo);
G_GNUC_INTERNAL gboolean _gst_ctf_trace_dat_field_values (GstCtfTraceDat * td,
    const GstCtfTraceDatField * f, const GstCtfTraceDatRecord * rec,
    const GstCtfNamedFieldClass * members, guint n_members, guint * mi,
    GstCtfFieldValue * v, guint * n, guint max);
G_GNUC_INTERNAL const GstCtfEventClass *_gst_ctf_trace_dat_record_values (
    GstCtfTraceDat * td, const GstCtfTraceClass * tc,
    const GstCtfTraceDatRecord * rec, GstCtfFieldValue * common,
    guint max_common, guint * n_common, GstCtfFieldValue * payload,
    guint max_payload, guint * n_payload, GError ** error);

/* One ftrace field's CTF encoding, as gsttracecmd-ctf.c maps it. */
typedef enum
{
  OP_INT,                       /* 1/2/4/8-byte integer: its bytes */
  OP_STRING,                    /* char array / __data_loc char[]: to NUL */
  OP_SEQUENCE,                  /* other dynamic array: u32 count + bytes */
  OP_ARRAY,                     /* static array: its bytes (0 past the end) */
  OP_LTTNG_INT,                 /* LK_INT, LK_ZERO, LK_RWBS, LK_NET_HEADER:
                                 * osize bytes */
  OP_LTTNG_TEXT,                /* LK_TEXT: osize bytes */
  OP_LTTNG_VTIDS,               /* LK_VTIDS: 1 + 4 bytes */
} OpKind;

typedef struct
{
  OpKind kind;
  guint esize;
  const GstCtfTraceDatField *f;
  const LttngField *lf;         /* OP_LTTNG_* */
  guint osize;                  /* OP_LTTNG_INT, OP_LTTNG_TEXT: bytes out */
} Op;

typedef struct _Plan
{
  Op *ops;
  guint n_ops;
  gsize max_size;               /* bytes of the event but strings/arrays */
} Plan;

typedef struct
{
  guint64 sc_id;
  guint buffer;
  guint cpu_index;
  guint cpu;
  const gchar *name;
  guint index;
  GstCtfTraceDatCpuIter *it;
  GstCtfPacketWriter *w;
  const GstCtfEventClass **ec_by_id;    /* (transfer none), per stream class */
  guint n_ec_by_id;

  /* look-ahead: the next page */
  gboolean have_page;
  gboolean done;
  const guint8 *page;
  gsize page_len;
  guint64 page_index;
  guint64 begin;

  guint64 released;             /* file offset below which the mapping was
                                 * given back, or G_MAXUINT64 */
  /* compressed data: chunk headers walked so far (see zchunk_start()) */
  guint64 z_off;
  guint64 z_cur;
  guint64 z_pages_end;
  guint32 z_left;
  guint z_page_size;

  gboolean has_prev;
  guint64 prev_end;
  guint64 seq;
  guint64 discarded;
  guint skipped_pages;          /* corrupt pages skipped since the last
                                 * packet, already in @discarded */
} Stream;

/* The CTF side of a file's conversion: the same for every packetizer of
 * one file with the same LTTNG_COMPAT and NO_FILE_STREAM flags and clock
 * offset, so built once and shared by them, read-only once built
 * (gsttracecmd-ctf-class.c).  On a desktop kernel's trace.dat it is
 * about 8 MB: the builder's trace class, the TSDL text (1.2 MB), the
 * trace class parsed back from it and the tables by event id. */
typedef struct {
  gint ref_count;
  GstCtfTraceDat *td;           /* the key (no reference: the users hold
                                 * one) */
  guint flags;                  /* LTTNG_COMPAT | NO_FILE_STREAM */
  gint64 clock_offset_ns;

  GstCtfTraceClass *build_tc;   /* buffer 0's model: values come from it */
  GPtrArray *keep;              /* other builder trace classes */
  GstCtfTraceClass *tc;         /* parsed back from @tsdl */
  gchar *tsdl;
  const GstCtfEventClass ***ec_tables;  /* [stream class][event id] */
  guint n_ec_tables;
  /* lttng-compat: layouts by event id ([65536]; NULL otherwise) */
  LttngLayout **layouts;
  /* direct encoding (see plan_build()); NULL: through the packet writer */
  struct _Plan **plans;         /* [65536] by event id */
  guint max_values;             /* room for the values of one record */
  gboolean file_stream;
  guint64 file_sc_id;
} TdCtfClass;

struct _GstCtfTraceDatPacketizer
{
  GstCtfTraceDat *td;
  guint flags;
  TdCtfClass *cls;              /* shared, read-only */

  Stream *streams;
  guint n_streams;
  gboolean statedump_done;      /* the statedump packet was made */

  guint8 *out;
  gsize out_alloc;

  GstCtfFieldValue *common;     /* [cls->max_values] */
  GstCtfFieldValue *payload;    /* [cls->max_values] */

  gboolean started;
  guint64 t0;
  guint64 side_cv;              /* time of the side stream and statedump */

  /* side stream */
  guint file_index;
  GstCtfPacketWriter *fw;
  const GstCtfEventClass *fec[N_FEV];
  guint phase;
  gsize pos;
  guint opt_off;                /* bytes of the current option written */
  guint64 fseq;
  gboolean file_done;

  /* corrupt pages skipped since the last pop_skipped_pages() */
  guint skipped_pages;
  GError *skipped_error;        /* the first one's */

  /* the last event's clock value (gsttracecmd-packetizer-seek.c) */
  gboolean have_end;
  gboolean has_events;
  guint64 end_cv;
};

/* gsttracecmd-packetizer.c, for gsttracecmd-packetizer-seek.c */
/* loads every stream's first page and works out t0, once */
G_GNUC_INTERNAL gboolean _gst_ctf_trace_dat_packetizer_start (
    GstCtfTraceDatPacketizer * p, GError ** error);
/* @s's iterator was moved to @page: the stream starts again there */
G_GNUC_INTERNAL void _gst_ctf_trace_dat_packetizer_stream_reset (
    GstCtfTraceDatPacketizer * p, Stream * s, guint64 page);
G_GNUC_INTERNAL gboolean _gst_ctf_trace_dat_packetizer_stream_load (
    GstCtfTraceDatPacketizer * p, Stream * s, GError ** error);
/* the side stream's packets are made again */
G_GNUC_INTERNAL void _gst_ctf_trace_dat_packetizer_file_reset (
    GstCtfTraceDatPacketizer * p);

/* gsttracecmd-ctf-class.c */
G_GNUC_INTERNAL TdCtfClass *_gst_ctf_trace_dat_ctf_class_get (
    GstCtfTraceDat * td, guint flags, gint64 clock_offset_ns,
    GError ** error);
G_GNUC_INTERNAL void _gst_ctf_trace_dat_ctf_class_unref (TdCtfClass * c);

/* gsttracecmd-packetizer.c: the direct encoding's plans of @c */
G_GNUC_INTERNAL void _gst_ctf_trace_dat_plans_setup (TdCtfClass * c);
G_GNUC_INTERNAL void _gst_ctf_trace_dat_plans_free (struct _Plan **plans);

/* gsttracecmd-trace-class.c */
G_GNUC_INTERNAL gboolean _gst_ctf_trace_dat_option_is_container (guint id);
G_GNUC_INTERNAL const gchar *_gst_ctf_trace_dat_option_name (guint id);
G_GNUC_INTERNAL gboolean _gst_ctf_trace_dat_ctf_class_build (TdCtfClass * c,
    GError ** error);
G_GNUC_INTERNAL gboolean
_gst_ctf_trace_dat_packetizer_setup_streams (GstCtfTraceDatPacketizer * p,
    GError ** error);

G_END_DECLS
