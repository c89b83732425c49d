/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal state of the trace.dat reader, shared by its source files. */
#pragma once

#include <string.h>

#include "gsttracecmd.h"
#include "gstctf-error.h"

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
  gchar *kallsyms;
  gsize kallsyms_size;
  gchar *printk;
  gsize printk_size;

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
G_GNUC_INTERNAL gboolean td_decompress (GstCtfTraceDatCompression c,
    const guint8 * in, gsize in_size, guint8 * out, gsize out_size,
    const gchar * origin, guint64 offset, GError ** error);

/* gsttracecmd-format.c */
G_GNUC_INTERNAL gboolean td_parse_header_page (const gchar * text, gsize len,
    guint * commit_size, guint * data_offset);

G_END_DECLS
