/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: what the text formatter (gstctf-text-formatter.c) and its value
 * printing (gstctf-text-values.c) share: the formatter state and the
 * inline append and number-formatting helpers.  Private to the library.
 */
#ifndef __GST_CTF_TEXT_PRIVATE_H__
#define __GST_CTF_TEXT_PRIVATE_H__

#include <string.h>
#include <time.h>
#include <inttypes.h>

#include "gstctf-text-formatter.h"
#include "gstctf-trace-merge.h"
#include "gstctf-unicode-private.h"

#define NS_PER_S G_GINT64_CONSTANT (1000000000)

typedef enum {
  SCOPE_ABSENT = 0,             /* no field class, or nothing in IR */
  SCOPE_PLAIN,                  /* everything below is printed */
  SCOPE_FILTERED,               /* some nodes below are left out */
} ScopeState;

/* A print template of a scope whose layout is static (no sequence, no
 * variant below its root): the literal text between values (braces,
 * separators, member names) precomputed, and per value a hole; see
 * tpl_build(). */
typedef enum {
  TPL_UDEC,                     /* decimal unsigned integer */
  TPL_SDEC,                     /* decimal signed integer */
  TPL_STR,                      /* string: escaped inline unless recycling */
  TPL_TEXT,                     /* text array (not a sequence) */
  TPL_HEX,                      /* plain integer in base 16 */
  TPL_INT,                      /* other integers in base 2, 8 or 16 */
  TPL_ENUM,
  TPL_FLOAT,
  TPL_DYN,                      /* sequence or variant: its subtree's size
                                 * varies, _gst_ctf_text_append_value() */
  TPL_VALUE,                    /* anything else: _gst_ctf_text_append_value() */
} TplKind;

typedef struct {
  guint32 lit_off;              /* literal text before the value */
  guint32 lit_len;
  guint32 idx;                  /* value index, less the values of the
                                 * dynamic subtrees before it beyond their
                                 * root (see tpl_run()) */
  guint32 kind;                 /* TplKind */
} TplOp;

typedef struct {
  const GstCtfFieldClass *root;
  guint n_values;               /* (when n_dyn is 0) */
  guint n_dyn;                  /* TPL_DYN ops */
  guint shift;                  /* while building: see TplOp.idx */
  GString *lit;
  GArray *ops;                  /* TplOp */
  guint32 tail_off;             /* literal text after the last value */
  guint32 tail_len;
  gsize room;                   /* see tpl_build() */
} Template;

/* Literal pieces up to this size are copied with one fixed-size copy. */
#define TPL_LIT_COPY 32

/* The text a scope printed last, kept with a copy of what it depends
 * on: each value's class, name and subtree end, and its number, or for a
 * string or text array its bytes up to the first NUL.  Values that
 * compare equal print the same text (the formatter's options do not
 * change; not used while emulating recycled event objects). */
typedef struct {
  gboolean valid;
  /* The root class of the values kept is static
   * (_gst_ctf_text_class_is_static()): it fixes each value's class, name
   * and end, and only the values need comparing. */
  gboolean fixed_layout;
  const GstCtfFieldClass *layout_root;  /* (whether it is static: */
  gboolean root_static;                 /*  computed once per root) */
  GArray *vals;                 /* GstCtfFieldValue; strings: v.s.ptr is
                                 * an offset into @strs, v.s.len the
                                 * length up to the first NUL */
  GArray *is_text;              /* guint8 per value */
  GString *strs;
  GString *text;
} ScopeCache;

typedef struct {
  ScopeState packet_context;
  ScopeState common_context;
  Template *common_tpl;         /* NULL: not built yet */
  ScopeCache *common_cache;     /* NULL: not made yet */
  /* A merged trace class (gstctf-trace-merge.h): the env of the input
   * trace this stream class comes from (babeltrace2 prints each event
   * with its own trace's hostname, procname, vpid). */
  gboolean merged;
  const gchar *trace_name;      /* babeltrace2's name of that trace */
  const gchar *env_hostname;
  const gchar *env_domain;
  const gchar *env_procname;
  gboolean has_env_vpid;
  gint64 env_vpid;
} ScInfo;

typedef struct {
  ScopeState specific_context;
  ScopeState payload;
  Template *specific_tpl;
  Template *payload_tpl;
  /* The text from the trace environment fields to the event name ("vm
   * corpus_tp:ints: "), made with @head_entry as start_line. */
  GString *head;
  gboolean head_entry;
} EcInfo;

struct _GstCtfTextFormatter {
  GstCtfTraceClass *tc;
  GstCtfTextOptions opts;
  gchar *trace_name;

  /* Field classes that babeltrace2 keeps out of its trace IR. */
  GHashTable *not_in_ir;
  /* GstCtfStreamClass* -> ScInfo*, GstCtfEventClass* -> EcInfo* */
  GHashTable *sc_info;
  GHashTable *ec_info;
  const GstCtfEventClass *last_ec;
  const EcInfo *last_ec_info;
  const GstCtfStreamClass *last_sc;
  const ScInfo *last_sc_info;

  /* Environment, looked up once. */
  const gchar *env_hostname;
  const gchar *env_domain;
  const gchar *env_procname;
  gboolean has_env_vpid;
  gint64 env_vpid;

  /* Delta state, as babeltrace2: none yet until an event with a clock. */
  GstCtfTextDelta delta;
  /* gst_ctf_text_formatter_format_event_line(): the delta is left out of
   * the line, and where it goes is noted in @line (offsets from
   * @line_start). */
  gboolean defer_delta;
  gsize line_start;
  GstCtfTextLine line;

  /* localtime_r() cache: the broken-down time of cached_sec, and its
   * text ("[YYYY-MM-DD ]HH:MM:SS."), printed with every event of that
   * second. */
  gboolean have_cached_tm;
  gboolean cached_gmt;
  gboolean cached_date;
  time_t cached_sec;
  struct tm cached_tm;
  gchar cached_text[40];
  gsize cached_text_len;
  /* cached_sec in nanoseconds, or -1 (none, or a negative time's) */
  gint64 cached_base_ns;

  /* Direct-mapped caches of the sc_info / ec_info lookups: events of
   * different classes interleave, a hash lookup per event showed in the
   * profile. */
  const GstCtfEventClass *ec_cache_key[64];
  const EcInfo *ec_cache_val[64];

  gboolean negative_warning_done;

  /* The packet context is printed with every event of its packet: its
   * text is kept and reused while its decoded values stay the same (only
   * for contexts without strings, whose bytes could change behind an
   * unchanged pointer). */
  GPtrArray *templates;         /* Template, owned */

  /* The last clock conversion: an event's time is printed, used for the
   * delta and kept for the next delta. */
  const GstCtfClockClass *memo_cc;
  guint64 memo_cycles;
  gint64 memo_ns;
  gboolean memo_ok;
  /* The last clock class converted, when its frequency is 1 GHz: the time
   * of its cycle 0 (its offset), which a clock value is added to. */
  const GstCtfClockClass *origin_cc;
  gboolean origin_ok;
  gint64 origin_ns;
  /* The packet (_gst_ctf_event_iter_get_packet_serial()) whose context
   * @pc_text is: its values do not change while it is current. */
  guint64 pc_serial;
  GString *pc_text;
  GArray *pc_vals;              /* GstCtfFieldValue */
  gboolean pc_names;
  gboolean pc_valid;

  /* Enumeration class -> its labels grouped (gstctf-text-values.c). */
  GHashTable *enums;
  const GstCtfFieldClass *last_enum_fc;
  gconstpointer last_enum;

  /* babeltrace2 event object emulation: object number -> (text sequence
   * field class -> GString of its last non-empty value). */
  gint64 cur_object;
  GHashTable *objects;

  /* clock_offset_s / clock_offset_ns: a copy of each clock class with
   * the offsets applied (GstCtfClockClass* -> GstCtfClockClass*), for
   * the printed times only (deltas and merge keys do not change: the
   * offset moves every time of a clock alike). */
  GHashTable *offset_clocks;
  const GstCtfClockClass *last_offset_cc;
  const GstCtfClockClass *last_offset_adj;

  /* JSON Lines (gstctf-text-json.c): per structure field class its
   * members' escaped keys, per enumeration class its labels, made once
   * (field class -> info, owned), with direct-mapped caches in front. */
  GHashTable *json_info;
  gconstpointer json_cache_key[64];
  gpointer json_cache_val[64];

  /* The stream of the next events (gst_ctf_text_formatter_set_stream()),
   * and its JSON member, made again when it or the stream class changes. */
  gint64 stream_id;
  gchar *stream_name;
  gchar *stream_path;
  GString *json_stream;
  const GstCtfStreamClass *json_stream_sc;
  gboolean json_stream_valid;
};

/* One event to format: its classes, clock value, and the iterator on it
 * (the values of the four printed scopes: packet context, common context,
 * specific context, payload). */
typedef struct {
  const GstCtfStreamClass *sc;
  const GstCtfEventClass *ec;
  guint64 cycles;
  GstCtfEventIter *it;
} TextEventView;

G_BEGIN_DECLS

/* gstctf-text-time.c: the time printed for @cycles of @cc: with the
 * clock_offset_s / clock_offset_ns options applied as babeltrace2's
 * --clock-offset / --clock-offset-ns do (to the clock class offsets). */
gboolean _gst_ctf_text_printed_ns (GstCtfTextFormatter * f,
    const GstCtfClockClass * cc, guint64 cycles, gint64 * ns);

/* gstctf-text-time.c: appends a time, @ns from the clock origin, as
 * babeltrace2 prints it with the formatter's options. */
void _gst_ctf_text_append_wall (GstCtfTextFormatter * f, GString * s,
    gint64 ns);
void _gst_ctf_text_append_wall_clock (GstCtfTextFormatter * f,
    GString * s, const GstCtfClockClass * cc, gint64 ns);

/* gstctf-text-formatter.c: whether the values of @fc always take the
 * same slots (no sequence, no variant). */
gboolean _gst_ctf_text_class_is_static (const GstCtfFieldClass * fc,
    guint depth);

/* gstctf-text-ir.c: fills @f's not_in_ir, sc_info and ec_info. */
void _gst_ctf_text_compute_ir (GstCtfTextFormatter * f);

/* The trace name printed for events of @si's stream class: its input's
 * for a merged trace class, else the formatter's (may be NULL). */
const gchar *_gst_ctf_text_trace_name (const GstCtfTextFormatter * f,
    const ScInfo * si);

/* gstctf-text-formatter.c: formats one event (the work of
 * gst_ctf_text_formatter_format_event()). */
void _gst_ctf_text_format_view (GstCtfTextFormatter * f,
    const TextEventView * ev, GString * out);

/* gstctf-text-json.c: formats one event as a JSON Lines object (the
 * json_lines option); @ei's head holds its constant members. */
void _gst_ctf_text_format_json (GstCtfTextFormatter * f,
    const TextEventView * ev, const ScInfo * si, EcInfo * ei, GString * out);

void _gst_ctf_text_json_info_free (gpointer info);

/* Appends @len bytes of @str as a JSON string (bytes outside valid UTF-8
 * as \udcXX). */
void _gst_ctf_text_append_json_string (GString * s, const gchar * str,
    gsize len);

/* Arrays and sequences of 8-bit, 8-bit-aligned integers with an encoding
 * are text for babeltrace2 (CTF 1.8 §4.2.3, §4.2.4). */
static inline gboolean
is_text_array (const GstCtfFieldClass * fc)
{
  const GstCtfFieldClass *el;

  if (fc->type != GST_CTF_FIELD_CLASS_ARRAY &&
      fc->type != GST_CTF_FIELD_CLASS_SEQUENCE)
    return FALSE;
  el = fc->element;
  if (el == NULL)
    return FALSE;
  if (el->type != GST_CTF_FIELD_CLASS_INTEGER &&
      el->type != GST_CTF_FIELD_CLASS_ENUM)
    return FALSE;
  return el->alignment == 8 && el->integer.size == 8 &&
      el->integer.encoding != GST_CTF_ENCODING_NONE;
}

/* ------------------------------------------------------------------ */
/* Appending without a call per piece                                  */

/* g_string_append_len() is a library call that handles overlap and
 * growth; the output GString is preallocated by the callers (ctftextsink
 * keeps a large buffer), so appends almost always fit: copy inline then,
 * fall back to GLib when the string must grow. */
/* Copies @n <= 16 bytes: two overlapping fixed-size copies instead of a
 * memcpy() call (most pieces are short: separators, names, numbers). */
static inline void
put_small (gchar * d, const gchar * p, gsize n)
{
  if (n >= 8) {
    guint64 a, b;

    memcpy (&a, p, 8);
    memcpy (&b, p + n - 8, 8);
    memcpy (d, &a, 8);
    memcpy (d + n - 8, &b, 8);
  } else if (n >= 4) {
    guint32 a, b;

    memcpy (&a, p, 4);
    memcpy (&b, p + n - 4, 4);
    memcpy (d, &a, 4);
    memcpy (d + n - 4, &b, 4);
  } else if (n > 0) {
    d[0] = p[0];
    d[n >> 1] = p[n >> 1];
    d[n - 1] = p[n - 1];
  }
}

static inline void
put (GString * s, const gchar * p, gsize n)
{
  if (G_LIKELY (s->len + n < s->allocated_len)) {
    gchar *d = s->str + s->len;

    if (n <= 16)
      put_small (d, p, n);
    else
      memcpy (d, p, n);
    s->len += n;
    d[n] = '\0';
  } else {
    g_string_append_len (s, p, n);
  }
}

/* A string literal: its length is known at compile time. */
#define put_lit(s, lit) put ((s), "" lit, sizeof (lit) - 1)

static inline void
put_c (GString * s, gchar c)
{
  if (G_LIKELY (s->len + 1 < s->allocated_len)) {
    s->str[s->len++] = c;
    s->str[s->len] = '\0';
  } else {
    g_string_append_c (s, c);
  }
}

static inline void
put_str (GString * s, const gchar * str)
{
  put (s, str, strlen (str));
}

/* ------------------------------------------------------------------ */
/* Number formatting without printf                                    */

/* Two digits per division: half the multiply-shift sequences of a digit
 * loop (a timestamp line holds some 30 digits). */
static const gchar digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* Writes @v in decimal ending at @buf[@size]; returns the first index. */
static inline gint
format_u64 (gchar * buf, gint size, guint64 v)
{
  gint p = size;

  while (v >= 100) {
    guint r = (guint) (v % 100);

    v /= 100;
    p -= 2;
    buf[p] = digit_pairs[2 * r];
    buf[p + 1] = digit_pairs[2 * r + 1];
  }
  if (v >= 10) {
    p -= 2;
    buf[p] = digit_pairs[2 * v];
    buf[p + 1] = digit_pairs[2 * v + 1];
  } else {
    buf[--p] = '0' + (gchar) v;
  }
  return p;
}

/* Number of decimal digits of @v. */
static inline guint
u64_digits (guint64 v)
{
  static const guint64 pow10[20] = {
    G_GUINT64_CONSTANT (1), G_GUINT64_CONSTANT (10),
    G_GUINT64_CONSTANT (100), G_GUINT64_CONSTANT (1000),
    G_GUINT64_CONSTANT (10000), G_GUINT64_CONSTANT (100000),
    G_GUINT64_CONSTANT (1000000), G_GUINT64_CONSTANT (10000000),
    G_GUINT64_CONSTANT (100000000), G_GUINT64_CONSTANT (1000000000),
    G_GUINT64_CONSTANT (10000000000), G_GUINT64_CONSTANT (100000000000),
    G_GUINT64_CONSTANT (1000000000000),
    G_GUINT64_CONSTANT (10000000000000),
    G_GUINT64_CONSTANT (100000000000000),
    G_GUINT64_CONSTANT (1000000000000000),
    G_GUINT64_CONSTANT (10000000000000000),
    G_GUINT64_CONSTANT (100000000000000000),
    G_GUINT64_CONSTANT (1000000000000000000),
    G_GUINT64_CONSTANT (10000000000000000000),
  };
  guint t;

  if (v < 10)
    return 1;
  /* log10 from the bit length (1233 / 4096 ~ log10(2)), then corrected */
  t = ((64 - (guint) __builtin_clzll (v)) * 1233) >> 12;
  return t + (v >= pow10[t]);
}

/* Exactly 8 digits, zero-padded (@v < 10^8), at @d: @v / 10^6 in 7.57
 * fixed point (the multiplier rounded up), then a multiply by 100 per
 * pair of digits (checked equal to "%08u" for every @v below 10^8). */
static inline void
write_8digits (gchar * d, guint32 v)
{
  const guint64 mask = (G_GUINT64_CONSTANT (1) << 57) - 1;
  guint64 t = (guint64) v * G_GUINT64_CONSTANT (144115188076);

  memcpy (d, digit_pairs + 2 * (t >> 57), 2);
  t = (t & mask) * 100;
  memcpy (d + 2, digit_pairs + 2 * (t >> 57), 2);
  t = (t & mask) * 100;
  memcpy (d + 4, digit_pairs + 2 * (t >> 57), 2);
  t = (t & mask) * 100;
  memcpy (d + 6, digit_pairs + 2 * (t >> 57), 2);
}

/* Writes @v < 10^8 in decimal at @d; returns the length. */
static inline guint
write_u32_short (gchar * d, guint32 w)
{
  guint len = u64_digits (w);
  gchar *p = d + len;

  while (w >= 100) {
    guint32 r = w % 100;

    w /= 100;
    p -= 2;
    p[0] = digit_pairs[2 * r];
    p[1] = digit_pairs[2 * r + 1];
  }
  if (w >= 10) {
    p[-2] = digit_pairs[2 * w];
    p[-1] = digit_pairs[2 * w + 1];
  } else {
    p[-1] = '0' + (gchar) w;
  }
  return len;
}

/* Writes @v in decimal at @d (room for 20 bytes); returns the length.
 * Beyond 8 digits, the low digits go by 8-digit blocks (write_8digits()),
 * one 64-bit division per block. */
static inline guint
write_u64 (gchar * d, guint64 v)
{
  const guint64 e8 = G_GUINT64_CONSTANT (100000000);
  guint n;

  if (v < e8)
    return write_u32_short (d, (guint32) v);
  if (v < e8 * e8) {
    n = write_u32_short (d, (guint32) (v / e8));
  } else {
    guint64 h = v / e8;

    n = write_u32_short (d, (guint32) (h / e8));
    write_8digits (d + n, (guint32) (h % e8));
    n += 8;
  }
  write_8digits (d + n, (guint32) (v % e8));
  return n + 8;
}

static inline void
append_u64 (GString * s, guint64 v)
{
  if (G_LIKELY (s->allocated_len - s->len > 21)) {
    s->len += write_u64 (s->str + s->len, v);
    s->str[s->len] = '\0';
  } else {
    gchar buf[24];
    gint p = format_u64 (buf, sizeof (buf), v);

    put (s, buf + p, sizeof (buf) - p);
  }
}

/* Exactly 9 digits, zero-padded (@v < 10^9), at @d: the nanoseconds
 * of every timestamp and delta.  @v / 10^8 in 7.57 fixed point (the
 * multiplier rounded up), then each pair of digits from the fraction
 * times 100: a multiply per pair instead of a division.  The rounding
 * error stays below the last pair's weight: checked equal to "%09u" for
 * every @v below 10^9. */
static inline void
write_9digits (gchar * d, guint32 v)
{
  const guint64 mask = (G_GUINT64_CONSTANT (1) << 57) - 1;
  guint64 t = (guint64) v * G_GUINT64_CONSTANT (1441151881);

  d[0] = '0' + (gchar) (t >> 57);
  t = (t & mask) * 100;
  memcpy (d + 1, digit_pairs + 2 * (t >> 57), 2);
  t = (t & mask) * 100;
  memcpy (d + 3, digit_pairs + 2 * (t >> 57), 2);
  t = (t & mask) * 100;
  memcpy (d + 5, digit_pairs + 2 * (t >> 57), 2);
  t = (t & mask) * 100;
  memcpy (d + 7, digit_pairs + 2 * (t >> 57), 2);
}

static inline void
append_9digits (GString * s, guint32 v)
{
  if (G_LIKELY (s->allocated_len - s->len > 10)) {
    write_9digits (s->str + s->len, v);
    s->len += 9;
    s->str[s->len] = '\0';
  } else {
    gchar buf[9];

    write_9digits (buf, v);
    put (s, buf, 9);
  }
}

static inline void
append_i64 (GString * s, gint64 v)
{
  if (v < 0) {
    put_c (s, '-');
    append_u64 (s, (guint64) 0 - (guint64) v);
  } else {
    append_u64 (s, (guint64) v);
  }
}

/* Zero-padded to @width digits (more when needed). */
static inline void
append_u64_padded (GString * s, guint64 v, gint width)
{
  gchar buf[24];
  gint p = format_u64 (buf, sizeof (buf), v);

  while ((gint) sizeof (buf) - p < width && p > 0)
    buf[--p] = '0';
  put (s, buf + p, sizeof (buf) - p);
}

/* Two upper-case hexadecimal digits per byte value. */
static const gchar hex_pairs_upper[513] =
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
    "202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F"
    "404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F"
    "606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F"
    "808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9F"
    "A0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF"
    "C0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDF"
    "E0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF";

/* @v in upper-case hexadecimal at @d (room for 16 bytes); returns the
 * length. */
static inline guint
write_hex_upper (gchar * d, guint64 v)
{
  /* digit count from the bit length: no loop test per digit */
  guint n = v == 0 ? 1 : (64 - (guint) __builtin_clzll (v) + 3) / 4;
  gchar *p = d + n;

  /* a byte (two digits) per step */
  while (p - d >= 2) {
    p -= 2;
    memcpy (p, hex_pairs_upper + 2 * (v & 0xff), 2);
    v >>= 8;
  }
  if (p > d)
    d[0] = hex_pairs_upper[2 * (v & 0xf) + 1];
  return n;
}

static inline void
append_hex_upper (GString * s, guint64 v)
{
  gchar buf[16];

  put (s, buf, write_hex_upper (buf, v));
}

/* babeltrace2 prints a signed integer in base 16 as the bits of its
 * size rounded up to whole digits. */
static inline guint64
hex_bits (const GstCtfFieldClass * fc, guint64 u)
{
  guint len = fc->integer.size;

  if (len > 0 && len < 64) {
    guint rounded = (len + 3) & ~3u;

    if (rounded < 64)
      u &= (G_GUINT64_CONSTANT (1) << rounded) - 1;
  }
  return u;
}
static inline void
append_oct (GString * s, guint64 v)
{
  gchar buf[24];
  gint p = sizeof (buf);

  do {
    buf[--p] = '0' + (gchar) (v & 7);
    v >>= 3;
  } while (v != 0);
  put (s, buf + p, sizeof (buf) - p);
}

static inline const gchar *
display_name (const GstCtfTextFormatter * f, const gchar * name)
{
  if (name == NULL)
    return "";
  /* CTF 1.8 §4.2.2: a leading underscore escapes the name; CTF 2 names
   * are shown as written. */
  return name[0] == '_' && f->tc->major < 2 ? name + 1 : name;
}

/* babeltrace2's colours (its --color=always): bold values, cyan member
 * names, bold yellow times, bold magenta event names, bold red unknown
 * labels, bold header and scope names. */
#define COLOR_RESET "\033[0m"
#define COLOR_VALUE "\033[1m"
#define COLOR_FIELD_NAME "\033[36m"
#define COLOR_NAME "\033[1m"
#define COLOR_TIMESTAMP "\033[1m\033[1m\033[33m"
#define COLOR_EVENT_NAME "\033[1m\033[1m\033[35m"
#define COLOR_UNKNOWN "\033[1m\033[1m\033[31m"
#define COLOR_WARNING "\033[33m"
#define COLOR_WARNING_WORD "\033[1m"

/* Appends @lit when the formatter colours its output. */
#define put_color(f, s, lit) \
  G_STMT_START { if ((f)->opts.color) put_lit ((s), lit); } G_STMT_END

/* gstctf-text-values.c */
/* A leaf value of the matching class, as _gst_ctf_text_append_value()
 * prints it. */
void _gst_ctf_text_append_integer (GString * s, const GstCtfFieldClass * fc,
    const GstCtfFieldValue * v);
void _gst_ctf_text_append_enum (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldClass * fc, const GstCtfFieldValue * v);
void _gst_ctf_text_enum_info_free (gpointer data);
/* The distinct labels of @fc's mappings (@n of them, array owned by the
 * caller, labels by @fc) in the order babeltrace2 2.1 prints the labels
 * of a CTF 1.8 enumeration value (its label hash table's order; see
 * gstctf-text-enum.c): the CTF 2 writer gives mappings in that order,
 * which is the order 2.1 prints CTF 2 labels in. */
G_GNUC_INTERNAL
const gchar **_gst_ctf_text_enum_label_order (const GstCtfFieldClass * fc,
    guint * n);
void _gst_ctf_text_append_float (GString * s, gdouble d);

/* Appends @len bytes of @str quoted and escaped as babeltrace2 does. */
void _gst_ctf_text_append_escaped (GString * s, const gchar * str,
    gsize len);

/* Appends the text of a string or text array value of class @fc (up to
 * its first null code unit, as UTF-8) quoted and escaped. */
void _gst_ctf_text_append_field_text (GString * s,
    const GstCtfFieldClass * fc, const GstCtfFieldValue * v);

/* Appends the value at @idx and its subtree; returns the index after the
 * subtree. */
guint _gst_ctf_text_append_value (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldValue * vals, guint n, guint idx, gboolean names,
    gboolean filtered, guint depth);

G_END_DECLS

#endif /* __GST_CTF_TEXT_PRIVATE_H__ */
