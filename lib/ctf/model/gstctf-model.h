/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the trace model (CTF 1.8 and CTF 2).
 *
 * Plain C structures that describe a trace class as its metadata
 * declares it (CTF 1.8 §4 types, §5 event/stream/trace, §8 clocks; the
 * same for CTF2-SPEC-2.0 fragments, see #GstCtfFieldForm for the field
 * classes CTF 1.8 has no word for).  They are built by the TSDL parser
 * (gstctf-tsdl-parser.c) or the JSON front end (gstctf-json-*.c), read
 * by the packet reader and the text formatter, and owned by a refcounted
 * #GstCtfTraceClass.  Every field of the tree is its own node: a typealias
 * or typedef is copied where it is used, so a node can carry per-field
 * state (the value slot of a sequence length or variant tag).
 */
#pragma once

#include <glib-object.h>
#include "gstctf-version.h"

G_BEGIN_DECLS

/**
 * GstCtfByteOrder:
 * @GST_CTF_BYTE_ORDER_LE: little endian
 * @GST_CTF_BYTE_ORDER_BE: big endian
 *
 * A concrete byte order.  `native` and `network` from TSDL are resolved by
 * the parser (CTF 1.8 §4.1.5: `native` is the trace's byte order).
 */
typedef enum {
  GST_CTF_BYTE_ORDER_LE = 0,
  GST_CTF_BYTE_ORDER_BE = 1,
} GstCtfByteOrder;

/**
 * GstCtfEncoding:
 * @GST_CTF_ENCODING_NONE: not text
 * @GST_CTF_ENCODING_UTF8: UTF-8
 * @GST_CTF_ENCODING_ASCII: ASCII
 * @GST_CTF_ENCODING_UTF16BE: UTF-16, big-endian code units (CTF 2 only)
 * @GST_CTF_ENCODING_UTF16LE: UTF-16, little-endian code units (CTF 2 only)
 * @GST_CTF_ENCODING_UTF32BE: UTF-32, big-endian code units (CTF 2 only)
 * @GST_CTF_ENCODING_UTF32LE: UTF-32, little-endian code units (CTF 2 only)
 *
 * Text encoding of an integer, array/sequence element or string (CTF 1.8
 * §4.1.5 `encoding`; CTF2-SPEC-2.0 §5.4.8 string `encoding`).  A CTF 2
 * UTF-16/32 static- or dynamic-length string is a text array or sequence
 * of bytes whose element has the UTF-16/32 encoding; its length counts
 * bytes.  Its text ends at its first null code unit (2 or 4 zero bytes at
 * a code-unit boundary), as does a null-terminated string's.
 */
typedef enum {
  GST_CTF_ENCODING_NONE = 0,
  GST_CTF_ENCODING_UTF8,
  GST_CTF_ENCODING_ASCII,
  GST_CTF_ENCODING_UTF16BE,
  GST_CTF_ENCODING_UTF16LE,
  GST_CTF_ENCODING_UTF32BE,
  GST_CTF_ENCODING_UTF32LE,
} GstCtfEncoding;

/**
 * GstCtfFieldClassType:
 *
 * The kind of a field class (CTF 1.8 §4).
 */
typedef enum {
  GST_CTF_FIELD_CLASS_INTEGER = 0,
  GST_CTF_FIELD_CLASS_ENUM,
  GST_CTF_FIELD_CLASS_FLOAT,
  GST_CTF_FIELD_CLASS_STRING,
  GST_CTF_FIELD_CLASS_STRUCT,
  GST_CTF_FIELD_CLASS_ARRAY,
  GST_CTF_FIELD_CLASS_SEQUENCE,
  GST_CTF_FIELD_CLASS_VARIANT,
} GstCtfFieldClassType;

/**
 * GstCtfScope:
 *
 * The dynamic scopes of CTF 1.8 §7.3.2, in the order a packet and an event
 * are laid out.
 */
typedef enum {
  GST_CTF_SCOPE_PACKET_HEADER = 0,
  GST_CTF_SCOPE_PACKET_CONTEXT,
  GST_CTF_SCOPE_EVENT_HEADER,
  GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
  GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT,
  GST_CTF_SCOPE_EVENT_PAYLOAD,
  GST_CTF_N_SCOPES
} GstCtfScope;

/**
 * GstCtfFieldMeaning:
 *
 * The role babeltrace2 gives some integer fields by scope and name
 * (`ctf-meta-update-meanings.cpp`).  Set by the parser's resolve pass
 * (gstctf-resolve.c), like @value_slot, @ref_target and @mapped_clock.
 */
typedef enum {
  GST_CTF_MEANING_NONE = 0,
  GST_CTF_MEANING_MAGIC,
  GST_CTF_MEANING_UUID,
  GST_CTF_MEANING_STREAM_CLASS_ID,
  GST_CTF_MEANING_STREAM_INSTANCE_ID,
  GST_CTF_MEANING_TIMESTAMP_BEGIN,
  GST_CTF_MEANING_TIMESTAMP_END,
  GST_CTF_MEANING_EVENTS_DISCARDED,
  GST_CTF_MEANING_PACKET_SEQ_NUM,
  GST_CTF_MEANING_PACKET_SIZE,
  GST_CTF_MEANING_CONTENT_SIZE,
  GST_CTF_MEANING_EVENT_CLASS_ID,
  GST_CTF_MEANING_TIMESTAMP,
} GstCtfFieldMeaning;

/**
 * GstCtfFieldForm:
 * @GST_CTF_FIELD_FORM_PLAIN: the field class is what its type says
 * @GST_CTF_FIELD_FORM_BOOLEAN: a CTF 2 fixed-length boolean: an unsigned
 *   %GST_CTF_FIELD_CLASS_INTEGER, false when 0
 * @GST_CTF_FIELD_FORM_BIT_MAP: a CTF 2 fixed-length bit map: an unsigned
 *   %GST_CTF_FIELD_CLASS_ENUM whose mappings are flags: each range is a
 *   range of bit indices, a flag is set when one of its bits is
 * @GST_CTF_FIELD_FORM_BIT_ARRAY: a CTF 2 fixed-length bit array: an
 *   unsigned %GST_CTF_FIELD_CLASS_INTEGER shown in hexadecimal
 * @GST_CTF_FIELD_FORM_BLOB: a CTF 2 static- or dynamic-length BLOB: a
 *   %GST_CTF_FIELD_CLASS_ARRAY or %GST_CTF_FIELD_CLASS_SEQUENCE of
 *   byte-aligned 8-bit unsigned integers
 * @GST_CTF_FIELD_FORM_LEB128: a CTF 2 variable-length integer (unsigned
 *   or signed LEB128, at most 64 value bits): a byte-aligned
 *   %GST_CTF_FIELD_CLASS_INTEGER (or ENUM) whose size (64) is the size
 *   of its value, not of its data
 * @GST_CTF_FIELD_FORM_OPTIONAL: a CTF 2 optional: a
 *   %GST_CTF_FIELD_CLASS_VARIANT of one option, present when its
 *   selector's value is in one of the variant's own ranges (a boolean
 *   selector: [1, 2^64-1]), else absent (no value, no data)
 *
 * What a CTF 2 field class is when the CTF 1.8 type that decodes it
 * does not say it all (the decoder reads it as its type; the text
 * formatter prints it as CTF 2 says).  CTF 1.8 field classes are all
 * %GST_CTF_FIELD_FORM_PLAIN.
 */
typedef enum {
  GST_CTF_FIELD_FORM_PLAIN = 0,
  GST_CTF_FIELD_FORM_BOOLEAN,
  GST_CTF_FIELD_FORM_BIT_MAP,
  GST_CTF_FIELD_FORM_BIT_ARRAY,
  GST_CTF_FIELD_FORM_BLOB,
  GST_CTF_FIELD_FORM_LEB128,
  GST_CTF_FIELD_FORM_OPTIONAL,
} GstCtfFieldForm;

typedef struct _GstCtfClockClass GstCtfClockClass;
typedef struct _GstCtfFieldClass GstCtfFieldClass;

/**
 * GstCtfNamedFieldClass:
 * @name: the member (or variant option) name as written in TSDL, leading
 *   underscore included (CTF 1.8 §4.2.2: readers strip one for display)
 * @fc: (transfer full): its field class
 */
typedef struct {
  gchar *name;
  GstCtfFieldClass *fc;
} GstCtfNamedFieldClass;

/**
 * GstCtfEnumMapping:
 * @label: the label
 * @lower: lowest value, inclusive (as gint64 for signed containers, as the
 *   bits of a guint64 for unsigned ones)
 * @upper: highest value, inclusive, same representation as @lower
 *
 * @option: for a CTF 2 variant's own ranges (see #GstCtfFieldClass), the
 *   index of the option the range selects; else 0
 *
 * One `LABEL = A ... B` range of an enumeration (CTF 1.8 §4.1.8).  A label
 * may appear in several mappings.
 */
typedef struct {
  gchar *label;
  guint64 lower;
  guint64 upper;
  guint option;
} GstCtfEnumMapping;

/**
 * GstCtfFieldClass:
 *
 * One node of a field class tree.  Members not used by @type are 0/NULL.
 *
 * Integers and enumerations use the `integer` part (an enum's container).
 * @alignment is in bits, as TSDL `align` (a struct's alignment is the
 * largest of its members' and its own `align()` attribute; arrays and
 * sequences align as their element; strings and floats as declared).
 */
struct _GstCtfFieldClass {
  GstCtfFieldClassType type;
  guint alignment;              /* bits, power of two, >= 1 */
  GstCtfFieldForm form;         /* CTF 2 refinement of @type */

  struct {
    guint size;                 /* bits, 1..64 */
    gboolean is_signed;
    GstCtfByteOrder byte_order;
    guint base;                 /* 2, 8, 10 or 16 (display base) */
    GstCtfEncoding encoding;
    gchar *map_clock_name;      /* `map = clock.NAME.value`, or NULL */
    GstCtfClockClass *mapped_clock;     /* resolved, (transfer none) */
  } integer;

  /* ENUM: its mappings.  VARIANT: a CTF 2 variant's selector field
   * ranges (CTF2-SPEC-2.0 §5.4.17), one per range, @option giving the
   * option and @label its name; a VARIANT without them (CTF 1.8) selects
   * by its tag's enumeration labels. */
  struct {
    GstCtfEnumMapping *mappings;
    guint n_mappings;
  } enumeration;

  struct {
    guint exp_dig;
    guint mant_dig;             /* includes the implicit bit: 24 or 53 */
    GstCtfByteOrder byte_order;
  } floating;

  struct {
    GstCtfEncoding encoding;
  } string;

  /* STRUCT members, VARIANT options */
  GstCtfNamedFieldClass *members;
  guint n_members;

  /* ARRAY (length) and SEQUENCE (length_path) */
  GstCtfFieldClass *element;
  guint64 length;

  /* SEQUENCE length / VARIANT tag: the path as written in TSDL, then the
   * field it resolves to (CTF 1.8 §7.3: relative lookup first, then
   * absolute dynamic scopes).  The target is an integer (sequence) or an
   * enumeration (variant) decoded before this field; its @value_slot is
   * where the reader keeps its last value. */
  gchar *ref_path;
  const GstCtfFieldClass *ref_target;   /* (transfer none) */

  /* Per-node state set after parsing. */
  gint value_slot;              /* -1, or index in the reader's value slots */
  GstCtfFieldMeaning meaning;
};

/**
 * GstCtfClockClass:
 * @name: clock name (`clock { name = ...; }`)
 * @description: (nullable): description
 * @uuid: clock UUID, valid when @has_uuid
 * @freq: frequency in Hz (cycles per second), > 0, default 1000000000
 * @precision: precision in cycles
 * @offset_s: offset of the clock origin from the Unix epoch (when
 *   @absolute or origin is Unix epoch), in seconds
 * @offset: further offset in cycles
 * @absolute: `absolute = true` (CTF 1.8 §8)
 * @origin_is_unix_epoch: TRUE when the origin is the Unix epoch (LTTng's
 *   `monotonic` quirk included, as babeltrace2 does)
 * @offset_wrapped: the metadata's `offset_s` × 10^9 does not fit in 64
 *   bits (Trace Compass's CTF writer puts nanoseconds there): @offset_s
 *   and @offset were replaced by what babeltrace 1.5 computes, the
 *   product modulo 2^64 (babeltrace2 refuses such a trace), read as a
 *   signed 64-bit ns count: beyond 2^63 ns @offset_s is negative and the
 *   clock's times, as `guint64`, are babeltrace 1.5's
 * @metadata_offset_s: the `offset_s` the metadata says, when
 *   @offset_wrapped
 */
struct _GstCtfClockClass {
  gchar *name;
  gchar *description;
  guint8 uuid[16];
  gboolean has_uuid;
  guint64 freq;
  guint64 precision;
  gint64 offset_s;
  gint64 offset;
  gboolean absolute;
  gboolean origin_is_unix_epoch;
  gboolean offset_wrapped;
  gint64 metadata_offset_s;
};

/**
 * GstCtfEventClass:
 * @id: event class id within its stream class
 * @name: event name
 * @loglevel: `loglevel`, or -1 when absent
 * @model_emf_uri: (nullable): `model.emf.uri`
 * @stream_class_id: id of the stream class it belongs to
 * @context: (nullable): event specific context field class (a struct)
 * @payload: (nullable): payload (`fields`) field class (a struct)
 */
typedef struct {
  guint64 id;
  gchar *name;
  gint64 loglevel;
  gchar *model_emf_uri;
  guint64 stream_class_id;
  GstCtfFieldClass *context;
  GstCtfFieldClass *payload;
} GstCtfEventClass;

/**
 * GstCtfStreamClass:
 * @id: stream class id (0 when the trace declares none)
 * @packet_context: (nullable): struct
 * @event_header: (nullable): struct
 * @event_common_context: (nullable): struct (TSDL `event.context` of the
 *   stream block)
 * @event_classes: (element-type GstCtfEventClass): in metadata order
 * @event_class_by_id: &ec->id (g_int64_hash/g_int64_equal, keys point
 *   into the event classes) -> GstCtfEventClass
 * @default_clock: (nullable): the clock its timestamps map to
 */
typedef struct {
  guint64 id;
  GstCtfFieldClass *packet_context;
  GstCtfFieldClass *event_header;
  GstCtfFieldClass *event_common_context;
  GPtrArray *event_classes;
  GHashTable *event_class_by_id;
  GstCtfClockClass *default_clock;
} GstCtfStreamClass;

/**
 * GstCtfEnvEntry:
 * @name: key
 * @is_string: TRUE for a string value, FALSE for an integer
 * @str: string value
 * @integer: integer value
 */
typedef struct {
  gchar *name;
  gboolean is_string;
  gchar *str;
  gint64 integer;
} GstCtfEnvEntry;

/**
 * GstCtfTraceClass:
 *
 * A parsed trace class: what a `metadata` file declares.  Refcounted,
 * immutable once built.
 */
typedef struct _GstCtfTraceClass GstCtfTraceClass;

struct _GstCtfTraceClass {
  /*< private >*/
  gint ref_count;
  /*< public >*/
  guint major;
  guint minor;
  guint8 uuid[16];
  gboolean has_uuid;
  GstCtfByteOrder byte_order;
  GstCtfFieldClass *packet_header;      /* nullable, struct */
  GPtrArray *env;                       /* GstCtfEnvEntry, in order */
  GPtrArray *clock_classes;             /* GstCtfClockClass */
  GPtrArray *stream_classes;            /* GstCtfStreamClass, by metadata order */
  guint n_value_slots;                  /* number of value_slot indices used */
  /* CTF 2 (major 2): member names are shown as written (CTF 1.8 strips
   * one leading underscore); the trace class's `uid`, or NULL */
  gchar *uid;
  /*< private >*/
  /* stream class id -> its position in stream_classes (as the parser
   * left them: each hit is checked, a miss falls back to a scan) */
  GHashTable *sc_pos_by_id;
  /* in gst_ctf_metadata_parse_shared()'s tables (its keys: the text, and
   * the text without its env and trace uuid) */
  guint8 *shared_key;
  guint8 *skeleton_key;
  /* (nullable): the class whose packet header, clock and stream classes
   * (and their indexes) this one uses, holding a reference on it; then
   * only @env, @uuid and @has_uuid are this class's own */
  struct _GstCtfTraceClass *base;
  /* compiled plans (field class -> plan) with RUN ops and without, made,
   * shared and locked by the packet reader (gstctf-packet-reader.c) */
  GHashTable *plans[2];
  /* made by gst_ctf_tsdl_parse() (or finished as it would be:
   * _gst_ctf_metadata_adopt_tsdl()) from text whose literals are UTF-8,
   * so that gst_ctf_tsdl_write() of its field classes reads back as they
   * are; gst_ctf_trace_merge_new() relies on it (a caller that changes a
   * parsed class's field classes must clear it) */
  gboolean from_tsdl;
};

GST_CTF_API GType gst_ctf_trace_class_get_type (void);
#define GST_CTF_TYPE_TRACE_CLASS (gst_ctf_trace_class_get_type ())

GST_CTF_API GstCtfTraceClass *gst_ctf_trace_class_new (void);
GST_CTF_API GstCtfTraceClass *gst_ctf_trace_class_ref (GstCtfTraceClass * tc);
GST_CTF_API void gst_ctf_trace_class_unref (GstCtfTraceClass * tc);

GST_CTF_API GstCtfStreamClass *gst_ctf_trace_class_find_stream_class (
    const GstCtfTraceClass * tc, guint64 id);
GST_CTF_API const GstCtfEventClass *gst_ctf_stream_class_find_event_class (
    const GstCtfStreamClass * sc, guint64 id);
GST_CTF_API const GstCtfEnvEntry *gst_ctf_trace_class_find_env (
    const GstCtfTraceClass * tc, const gchar * name);
/* Appends an env entry (no check for an earlier one of that name). */
GST_CTF_API void gst_ctf_trace_class_add_env_string (GstCtfTraceClass * tc,
    const gchar * name, const gchar * value);
GST_CTF_API void gst_ctf_trace_class_add_env_integer (GstCtfTraceClass * tc,
    const gchar * name, gint64 value);

/* Construction helpers used by the parser and by other trace class
 * builders (trace.dat, merge). */
GST_CTF_API GstCtfFieldClass *gst_ctf_field_class_new (GstCtfFieldClassType
    type);
/* A byte-aligned integer field class of @size bits (@base 2, 8, 10 or 16
 * for readers' display) and a byte-aligned structure without members. */
GST_CTF_API GstCtfFieldClass *gst_ctf_field_class_new_integer (guint size,
    gboolean is_signed, GstCtfByteOrder byte_order, guint base);
GST_CTF_API GstCtfFieldClass *gst_ctf_field_class_new_struct (void);
GST_CTF_API GstCtfFieldClass *gst_ctf_field_class_copy (const GstCtfFieldClass
    * fc);
GST_CTF_API void gst_ctf_field_class_free (GstCtfFieldClass * fc);
GST_CTF_API void gst_ctf_field_class_append_member (GstCtfFieldClass * fc,
    const gchar * name, GstCtfFieldClass * member);
GST_CTF_API const GstCtfFieldClass *gst_ctf_field_class_find_member (
    const GstCtfFieldClass * fc, const gchar * name, guint * index);

GST_CTF_API GstCtfStreamClass *gst_ctf_stream_class_new (guint64 id);
GST_CTF_API void gst_ctf_stream_class_free (GstCtfStreamClass * sc);
GST_CTF_API GstCtfEventClass *gst_ctf_event_class_new (void);
GST_CTF_API void gst_ctf_event_class_free (GstCtfEventClass * ec);
GST_CTF_API GstCtfClockClass *gst_ctf_clock_class_new (void);
GST_CTF_API void gst_ctf_clock_class_free (GstCtfClockClass * cc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCtfTraceClass, gst_ctf_trace_class_unref)

G_END_DECLS
