/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CTF 1.8 packet writer's internals, shared by gstctf-packet-writer.c
 * (encoding, packets, events) and gstctf-packet-writer-layout.c (event
 * header layouts, flattened scopes).  Not installed.
 */
#pragma once

#include "gstctf-packet-writer.h"

G_BEGIN_DECLS

/* Limits for the templates the writer builds itself (headers). */
#define MAX_DEPTH 64
#define MAX_LAYOUTS 256
#define MAX_TEMPLATE_VALUES 65536
/* A packet larger than this is refused (content_size in bits must stay
 * far from overflow, and memory must stay bounded). */
#define MAX_PACKET_BYTES (G_GUINT64_CONSTANT (1) << 31)

#define CTF_MAGIC 0xC1FC1FC1u

typedef struct {
  const GstCtfFieldClass *variant;
  guint option;
} VariantChoice;

/* One step of a flattened scope: align, then (when @fc is set) write the
 * integer value at @idx of the scope's values. */
typedef struct {
  const GstCtfFieldClass *fc;   /* integer or enumeration, or NULL */
  guint align;                  /* bits */
  guint idx;
} FlatOp;

/* A scope whose layout is fixed by a template (no sequence, no string, no
 * text array, variants at the template's options), flattened once: what
 * encode_field() does for it per value, without walking the field class
 * tree.  The event header of each layout and the packet header and
 * context are written this way (once per event, once per packet). */
typedef struct {
  FlatOp *ops;
  guint n_ops;
  guint n_vals;                 /* values of the template */
  gboolean has_variant;         /* other values could select other options */
} Flat;

/* One event header layout: a template of values with the variant options
 * fixed. */
typedef struct {
  GstCtfFieldValue *vals;
  guint n_vals;
  guint64 bits;                 /* size when written from bit 0 */
  guint order;                  /* enumeration order, tie break */
  guint *ids;                   /* template indices of `id` fields */
  guint n_ids;
  guint *ts;                    /* template indices of clock-mapped fields */
  guint n_ts;
  /* variants whose tag is the final id field: the event id must select
   * the same option */
  VariantChoice *id_tagged;
  guint n_id_tagged;
  Flat flat;                    /* n_ops 0: not flattened */
} Layout;

/* For a variant: option index for each mapping of its tag enum. */
typedef struct {
  gint *option_of_mapping;
  guint n;
} VariantMap;

enum {
  PATCH_TIMESTAMP_BEGIN,
  PATCH_TIMESTAMP_END,
  PATCH_CONTENT_SIZE,
  PATCH_PACKET_SIZE,
  N_PATCHES
};

typedef struct {
  const GstCtfFieldClass *fc;
  guint64 offset;               /* bits */
} Patch;

/* What the writer knows of one event class of its stream class, checked
 * once: per event, a dense array indexed by the event class id replaces a
 * lookup by id (and the variant map lookups of the header checks). */
typedef struct {
  const GstCtfEventClass *ec;   /* NULL: entry not filled yet */
  /* the largest alignment (bits, at least 8) of the fields of the event's
   * body (stream event context, event context, payload); 0 when the body
   * cannot be copied as bytes (it refers to the event header, or is
   * deeper than MAX_DEPTH) */
  guint body_align;
  /* bit i: layout i can hold the event class id (layouts 0 to 63) */
  guint64 id_ok;
} EcInfo;

/* The encoded packet header of one stream instance id. */
typedef struct {
  gboolean valid;
  guint64 instance;
  guint64 bits;
  guint8 *bytes;
} PhCache;

#define PH_CACHE_N 16

/* Event class ids below this get an EcInfo slot; others share one. */
#define EC_INFO_MAX 16384
/* Bytes zeroed ahead of the write position at a time. */
#define ZERO_AHEAD 512

struct _GstCtfPacketWriter {
  GstCtfTraceClass *tc;
  const GstCtfStreamClass *sc;

  guint64 *slots;
  guint n_slots;

  guint8 *buf;
  gsize len;                    /* bytes touched (zeroed beyond) */
  gsize cap;
  guint64 pos;                  /* bits */

  gboolean in_packet;
  guint n_events;
  guint64 clock;
  guint64 first_clock;
  guint64 last_clock;
  guint64 stream_last_clock;    /* across packets, for LTTng's rule */
  gboolean has_tb_field;
  GstCtfPacketWriterParams params;
  Patch patches[N_PATCHES];
  gboolean allow_wrap;

  GstCtfScope scope;            /* scope being written */
  const gchar *event_name;      /* for messages */
  EcInfo *ec_info;              /* by event class id, n_ec_info */
  guint n_ec_info;
  EcInfo ec_spare;              /* for an id >= EC_INFO_MAX */
  gboolean dry;                 /* measure only */

  GstCtfFieldValue *ph_vals;
  guint n_ph;
  GstCtfFieldValue *pc_vals;
  guint n_pc;
  Flat ph_flat;
  Flat pc_flat;
  /* The packet header's bytes depend on the stream instance id only (no
   * slot, no field the finished packet patches): those of the last few
   * instance ids are kept and copied (one writer serves all the streams
   * of its class, which alternate). */
  gboolean ph_cacheable;
  PhCache ph_cache[PH_CACHE_N];
  guint ph_cache_next;          /* entry to replace next */

  Layout *layouts;
  guint n_layouts;

  GHashTable *variant_maps;     /* const GstCtfFieldClass * -> VariantMap */
  guint8 *zeros;                /* text arrays in templates */
};

typedef struct {
  const GstCtfFieldValue *v;
  guint n;
  guint i;
} Cursor;

static inline gboolean
is_text_element (const GstCtfFieldClass * el)
{
  /* CTF 1.8 §4.2.3 note: byte-aligned 8-bit integers with an encoding are
   * text; the reader gives them as one string value. */
  return el->type == GST_CTF_FIELD_CLASS_INTEGER && el->integer.size == 8
      && (el->alignment & 7) == 0
      && el->integer.encoding != GST_CTF_ENCODING_NONE;
}

/* gstctf-packet-writer.c */
G_GNUC_INTERNAL gint _gst_ctf_pw_variant_option_for (GstCtfPacketWriter * w,
    const GstCtfFieldClass * var, guint64 tag_value);
G_GNUC_INTERNAL gboolean _gst_ctf_pw_encode_field (GstCtfPacketWriter * w,
    const GstCtfFieldClass * fc, Cursor * c, guint depth, GError ** error);

/* gstctf-packet-writer-layout.c */
G_GNUC_INTERNAL void _gst_ctf_pw_flat_init (Flat * f,
    const GstCtfFieldClass * fc, const GstCtfFieldValue * vals, guint n);
G_GNUC_INTERNAL void _gst_ctf_pw_layout_clear (Layout * l);
G_GNUC_INTERNAL gboolean _gst_ctf_pw_build_layouts (GstCtfPacketWriter * w,
    GError ** error);
G_GNUC_INTERNAL GstCtfFieldValue *_gst_ctf_pw_build_simple_template (
    GstCtfPacketWriter * w, const GstCtfFieldClass * fc, guint * n);
G_GNUC_INTERNAL void _gst_ctf_pw_ec_info_fill (GstCtfPacketWriter * w,
    EcInfo * e, const GstCtfEventClass * ec);
G_GNUC_INTERNAL Layout *_gst_ctf_pw_choose_layout (GstCtfPacketWriter * w,
    const EcInfo * e, guint64 clock_value, GError ** error);

G_END_DECLS
