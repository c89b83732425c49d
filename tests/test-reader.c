/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the CTF 1.8 packet reader: bit-level integers in both byte
 * orders (CTF 1.8 §4.1.5), clock wrap (§8), variants, sequences, text
 * arrays, packet header/context checks, clock conversion; then the corpus
 * traces against babeltrace2's oracles.
 */
#include <gst/check/gstcheck.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "gstctf-model.h"
#include "gstctf-reader.h"
#include "gstctf-metadata.h"
#include "gstctf-text-formatter.h"

/* ------------------------------------------------------------------ */
/* Building field classes and packets by hand                          */
/* ------------------------------------------------------------------ */

static GstCtfFieldClass *
mk_int (guint size, guint align, gboolean is_signed, GstCtfByteOrder bo)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_INTEGER);

  fc->integer.size = size;
  fc->alignment = align;
  fc->integer.is_signed = is_signed;
  fc->integer.byte_order = bo;
  return fc;
}

static GstCtfFieldClass *
mk_uint (guint size, guint align)
{
  return mk_int (size, align, FALSE, GST_CTF_BYTE_ORDER_LE);
}

static GstCtfFieldClass *
mk_float (guint mant_dig, guint exp_dig, GstCtfByteOrder bo, guint align)
{
  GstCtfFieldClass *f = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_FLOAT);

  f->floating.mant_dig = mant_dig;
  f->floating.exp_dig = exp_dig;
  f->floating.byte_order = bo;
  f->alignment = align;
  return f;
}

static GstCtfFieldClass *
mk_struct (void)
{
  return gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
}

static GstCtfFieldClass *
add (GstCtfFieldClass * st, const gchar * name, GstCtfFieldClass * m)
{
  gst_ctf_field_class_append_member (st, name, m);
  if (st->type == GST_CTF_FIELD_CLASS_STRUCT && m->alignment > st->alignment)
    st->alignment = m->alignment;
  return m;
}

static GstCtfFieldClass *
mk_enum (guint size, guint align, gboolean is_signed)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ENUM);

  fc->integer.size = size;
  fc->alignment = align;
  fc->integer.is_signed = is_signed;
  return fc;
}

static void
enum_map (GstCtfFieldClass * e, const gchar * label, guint64 lo, guint64 hi)
{
  guint n = e->enumeration.n_mappings;

  e->enumeration.mappings = g_renew (GstCtfEnumMapping,
      e->enumeration.mappings, n + 1);
  e->enumeration.mappings[n].label = g_strdup (label);
  e->enumeration.mappings[n].lower = lo;
  e->enumeration.mappings[n].upper = hi;
  e->enumeration.n_mappings = n + 1;
}

typedef struct {
  guint8 buf[65536];
  guint64 pos;                  /* bits */
} Writer;

static void
w_align (Writer * w, guint a)
{
  w->pos = (w->pos + a - 1) / a * a;
}

/* Writes @v in @n bits at the current position, one bit at a time, as
 * CTF 1.8 §4.1.5 defines it: little endian fills each byte from its least
 * significant bit with the value's low bits first; big endian fills each
 * byte from its most significant bit with the value's high bits first. */
static void
w_bits (Writer * w, guint64 v, guint n, GstCtfByteOrder bo)
{
  guint k;

  /* (the buffer is followed by pos: no write past it) */
  ck_assert_uint_le (w->pos + n, sizeof (w->buf) * 8);
  for (k = 0; k < n; k++) {
    guint64 p = w->pos + k;
    guint bit;

    if (bo == GST_CTF_BYTE_ORDER_LE)
      bit = (v >> k) & 1;
    else
      bit = (v >> (n - 1 - k)) & 1;
    if (bo == GST_CTF_BYTE_ORDER_LE) {
      if (bit)
        w->buf[p / 8] |= 1u << (p % 8);
      else
        w->buf[p / 8] &= ~(1u << (p % 8));
    } else {
      if (bit)
        w->buf[p / 8] |= 1u << (7 - p % 8);
      else
        w->buf[p / 8] &= ~(1u << (7 - p % 8));
    }
  }
  w->pos += n;
}

static void
w_int (Writer * w, guint64 v, guint n, guint align)
{
  w_align (w, align);
  w_bits (w, v, n, GST_CTF_BYTE_ORDER_LE);
}

static void
w_bytes (Writer * w, const void *p, gsize n)
{
  w_align (w, 8);
  memcpy (w->buf + w->pos / 8, p, n);
  w->pos += n * 8;
}

static void
w_string (Writer * w, const gchar * s)
{
  w_bytes (w, s, strlen (s) + 1);
}

/* Patches a 64-bit little-endian value at bit offset @at. */
static void
w_patch64 (Writer * w, guint64 at, guint64 v)
{
  guint64 save = w->pos;

  w->pos = at;
  w_bits (w, v, 64, GST_CTF_BYTE_ORDER_LE);
  w->pos = save;
}

static const guint8 test_uuid[16] = {
  0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
  0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10
};

/* A trace class like LTTng's: packet header {magic, uuid, stream_id},
 * packet context {timestamp_begin, timestamp_end, content_size,
 * packet_size}, one stream class; the caller adds the event header and
 * event classes.  Value slots are numbered by the caller. */
static GstCtfTraceClass *
mk_trace (GstCtfStreamClass ** sc_out, GstCtfClockClass ** cc_out)
{
  GstCtfTraceClass *tc = gst_ctf_trace_class_new ();
  GstCtfStreamClass *sc = gst_ctf_stream_class_new (0);
  GstCtfClockClass *cc = gst_ctf_clock_class_new ();
  GstCtfFieldClass *ph = mk_struct (), *pc = mk_struct (), *m, *uuid;

  tc->major = 1;
  tc->minor = 8;
  tc->byte_order = GST_CTF_BYTE_ORDER_LE;
  memcpy (tc->uuid, test_uuid, 16);
  tc->has_uuid = TRUE;

  cc->name = g_strdup ("monotonic");
  cc->freq = 1000000000;
  g_ptr_array_add (tc->clock_classes, cc);

  m = add (ph, "magic", mk_uint (32, 8));
  m->meaning = GST_CTF_MEANING_MAGIC;
  uuid = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
  uuid->element = mk_uint (8, 8);
  uuid->length = 16;
  uuid->alignment = 8;
  uuid->meaning = GST_CTF_MEANING_UUID;
  add (ph, "uuid", uuid);
  m = add (ph, "stream_id", mk_uint (32, 8));
  m->meaning = GST_CTF_MEANING_STREAM_CLASS_ID;
  tc->packet_header = ph;

  m = add (pc, "timestamp_begin", mk_uint (64, 8));
  m->meaning = GST_CTF_MEANING_TIMESTAMP_BEGIN;
  m->integer.mapped_clock = cc;
  m = add (pc, "timestamp_end", mk_uint (64, 8));
  m->meaning = GST_CTF_MEANING_TIMESTAMP_END;
  m->integer.mapped_clock = cc;
  m = add (pc, "content_size", mk_uint (64, 8));
  m->meaning = GST_CTF_MEANING_CONTENT_SIZE;
  m = add (pc, "packet_size", mk_uint (64, 8));
  m->meaning = GST_CTF_MEANING_PACKET_SIZE;
  sc->packet_context = pc;
  sc->default_clock = cc;
  g_ptr_array_add (tc->stream_classes, sc);

  *sc_out = sc;
  if (cc_out)
    *cc_out = cc;
  return tc;
}

static GstCtfEventClass *
add_event_class (GstCtfStreamClass * sc, guint64 id, const gchar * name,
    GstCtfFieldClass * payload)
{
  GstCtfEventClass *ec = gst_ctf_event_class_new ();

  ec->id = id;
  ec->name = g_strdup (name);
  ec->stream_class_id = sc->id;
  ec->payload = payload;
  g_ptr_array_add (sc->event_classes, ec);
  g_hash_table_insert (sc->event_class_by_id, &ec->id, ec);
  return ec;
}

/* Packet start as mk_trace() declares it; returns the bit offsets of
 * content_size and packet_size for w_finish(). */
static void
w_packet_start (Writer * w, guint64 ts_begin, guint64 ts_end,
    guint64 * sizes_at)
{
  memset (w, 0, sizeof (*w));
  w_int (w, 0xC1FC1FC1, 32, 8);
  w_bytes (w, test_uuid, 16);
  w_int (w, 0, 32, 8);
  w_int (w, ts_begin, 64, 8);
  w_int (w, ts_end, 64, 8);
  *sizes_at = w->pos;
  w_int (w, 0, 64, 8);
  w_int (w, 0, 64, 8);
}

/* Sets content_size to the current position and packet_size to it
 * rounded up to @pad_bytes bytes; returns the packet size in bytes. */
static gsize
w_finish (Writer * w, guint64 sizes_at, guint pad_bytes)
{
  guint64 content = w->pos;
  guint64 packet = (content + pad_bytes * 8 - 1) / (pad_bytes * 8) *
      (pad_bytes * 8);

  w_patch64 (w, sizes_at, content);
  w_patch64 (w, sizes_at + 64, packet);
  return packet / 8;
}

/* ------------------------------------------------------------------ */
/* Bit-level integers                                                  */
/* ------------------------------------------------------------------ */

/* Random layouts of integers with sizes 1..64, random alignments, both
 * byte orders, signed and unsigned, written bit by bit from the spec and
 * read back by the reader. */
START_TEST (test_bit_packed_random)
{
  GRand *rand = g_rand_new_with_seed (1234 + _i);
  guint round;

  for (round = 0; round < 40; round++) {
    GstCtfStreamClass *sc;
    GstCtfTraceClass *tc = mk_trace (&sc, NULL);
    GstCtfFieldClass *payload = mk_struct ();
    guint n = g_rand_int_range (rand, 1, 24);
    guint64 expect[24];
    GstCtfFieldClass *fcs[24];
    GstCtfByteOrder prev_bo = GST_CTF_BYTE_ORDER_LE;
    Writer w;
    guint64 sizes_at;
    gsize size;
    guint k;
    GstCtfEventIter *it;
    const GstCtfFieldValue *vals;
    guint n_vals;
    GError *err = NULL;
    static const guint aligns[] = { 1, 1, 1, 2, 4, 8, 16, 32, 64 };

    for (k = 0; k < n; k++) {
      guint size_bits = g_rand_int_range (rand, 1, 65);
      guint align = aligns[g_rand_int_range (rand, 0, G_N_ELEMENTS (aligns))];
      gboolean sgn = g_rand_boolean (rand);
      GstCtfByteOrder bo = g_rand_boolean (rand) ? GST_CTF_BYTE_ORDER_LE :
          GST_CTF_BYTE_ORDER_BE;
      gchar name[16];

      /* Byte-aligned sizes use the fast paths: make them common. */
      if (g_rand_int_range (rand, 0, 3) == 0) {
        static const guint bs[] = { 8, 16, 32, 64 };
        size_bits = bs[g_rand_int_range (rand, 0, 4)];
        align = MAX (align, 8);
      }
      /* Fields of different byte orders never share a byte. */
      if (bo != prev_bo)
        align = MAX (align, 8);
      prev_bo = bo;
      g_snprintf (name, sizeof (name), "f%u", k);
      fcs[k] = add (payload, name, mk_int (size_bits, align, sgn, bo));
    }
    add_event_class (sc, 0, "ev", payload);

    w_packet_start (&w, 1000, 2000, &sizes_at);
    for (k = 0; k < n; k++) {
      guint64 v = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      guint sz = fcs[k]->integer.size;

      if (sz < 64)
        v &= (G_GUINT64_CONSTANT (1) << sz) - 1;
      w_align (&w, fcs[k]->alignment);
      w_bits (&w, v, sz, fcs[k]->integer.byte_order);
      if (fcs[k]->integer.is_signed && sz < 64 && (v >> (sz - 1)) & 1)
        v |= ~((G_GUINT64_CONSTANT (1) << sz) - 1);
      expect[k] = v;
    }
    /* Ends the packet exactly at the last field: exercises the byte-wise
     * slow path near the end of the buffer too. */
    size = w_finish (&w, sizes_at, 1);

    it = gst_ctf_event_iter_new (tc);
    gst_ctf_event_iter_set_recording (it, TRUE);
    ck_assert_msg (gst_ctf_event_iter_set_packet (it, w.buf, size, &err),
        "%s", err ? err->message : "");
    ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
        err ? err->message : "");
    vals = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD,
        &n_vals);
    fail_unless_equals_int (n_vals, n + 1);
    fail_unless_equals_int (vals[0].end, n + 1);
    fail_unless_equals_uint64 (vals[0].v.u, n);
    for (k = 0; k < n; k++) {
      fail_unless (vals[k + 1].fc == fcs[k]);
      fail_unless_equals_string (vals[k + 1].name, fcs[k]->integer.size ?
          payload->members[k].name : "");
      ck_assert_msg (vals[k + 1].v.u == expect[k],
          "round %u field %u (size %u align %u %s %s): got 0x%"
          G_GINT64_MODIFIER "x expected 0x%" G_GINT64_MODIFIER "x", round,
          k, fcs[k]->integer.size, fcs[k]->alignment,
          fcs[k]->integer.is_signed ? "signed" : "unsigned",
          fcs[k]->integer.byte_order ? "be" : "le", vals[k + 1].v.u,
          expect[k]);
    }
    fail_if (gst_ctf_event_iter_next (it, &err));
    fail_unless (err == NULL);
    gst_ctf_event_iter_free (it);
    gst_ctf_trace_class_unref (tc);
  }
  g_rand_free (rand);
}
END_TEST;

/* Known bytes: CTF 1.8 §4.1.5 examples worked by hand. */
START_TEST (test_bit_packed_known)
{
  GstCtfStreamClass *sc;
  GstCtfTraceClass *tc = mk_trace (&sc, NULL);
  GstCtfFieldClass *payload = mk_struct ();
  GstCtfEventIter *it;
  Writer w;
  guint64 sizes_at;
  gsize size;
  GError *err = NULL;
  const GstCtfFieldValue *v;
  guint n;

  /* LE: a:3 = 5, b:7 = 0x55, c:6 signed = -3; BE: d:4 = 0xA, e:12 = 0x123 */
  add (payload, "a", mk_int (3, 8, FALSE, GST_CTF_BYTE_ORDER_LE));
  add (payload, "b", mk_int (7, 1, FALSE, GST_CTF_BYTE_ORDER_LE));
  add (payload, "c", mk_int (6, 1, TRUE, GST_CTF_BYTE_ORDER_LE));
  add (payload, "d", mk_int (4, 8, FALSE, GST_CTF_BYTE_ORDER_BE));
  add (payload, "e", mk_int (12, 1, FALSE, GST_CTF_BYTE_ORDER_BE));
  add_event_class (sc, 0, "ev", payload);

  w_packet_start (&w, 0, 0, &sizes_at);
  {
    /* a=101b in bits 0-2, b=1010101b in bits 3-9, c=111101b (-3) in bits
     * 10-15: byte0 = b[4:0]<<3 | a = 0xAD, byte1 = c<<2 | b[6:5] = 0xF6.
     * d then e (big endian) fill two bytes from the MSB: 0xA1 0x23. */
    const guint8 bytes[] = { 0xAD, 0xF6, 0xA1, 0x23 };
    w_bytes (&w, bytes, sizeof (bytes));
  }
  size = w_finish (&w, sizes_at, 64);

  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);
  fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
  fail_unless (gst_ctf_event_iter_next (it, &err));
  v = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD, &n);
  fail_unless_equals_int (n, 6);
  fail_unless_equals_uint64 (v[1].v.u, 5);
  fail_unless_equals_uint64 (v[2].v.u, 0x55);
  fail_unless_equals_int64 (v[3].v.i, -3);
  fail_unless_equals_uint64 (v[4].v.u, 0xA);
  fail_unless_equals_uint64 (v[5].v.u, 0x123);
  fail_if (gst_ctf_event_iter_next (it, &err));
  fail_unless (err == NULL);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

START_TEST (test_floats)
{
  GstCtfStreamClass *sc;
  GstCtfTraceClass *tc = mk_trace (&sc, NULL);
  GstCtfFieldClass *payload = mk_struct ();
  GstCtfEventIter *it;
  Writer w;
  guint64 sizes_at;
  gsize size;
  GError *err = NULL;
  const GstCtfFieldValue *v;
  guint n;
  gfloat f32 = -1.5f;
  gdouble f64 = 5e-324;
  guint32 b32;
  guint64 b64;

  add (payload, "f", mk_float (24, 8, GST_CTF_BYTE_ORDER_BE, 8));
  add (payload, "pad", mk_uint (3, 1));
  add (payload, "d", mk_float (53, 11, GST_CTF_BYTE_ORDER_LE, 1));
  add_event_class (sc, 0, "ev", payload);

  w_packet_start (&w, 0, 0, &sizes_at);
  memcpy (&b32, &f32, 4);
  memcpy (&b64, &f64, 8);
  w_align (&w, 8);
  w_bits (&w, b32, 32, GST_CTF_BYTE_ORDER_BE);
  w_bits (&w, 0, 3, GST_CTF_BYTE_ORDER_LE);
  w_bits (&w, b64, 64, GST_CTF_BYTE_ORDER_LE);
  size = w_finish (&w, sizes_at, 8);

  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);
  fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
  ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
      err ? err->message : "");
  v = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD, &n);
  fail_unless_equals_int (n, 4);
  fail_unless (v[1].v.d == -1.5);
  fail_unless (v[3].v.d == 5e-324);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* The text of a double is glibc's "%g" (what babeltrace2 prints with),
 * also where the formatter does not call printf: 400 000 values over the
 * whole range (random bits, short decimals at every magnitude, exact
 * decimal ties and their neighbours, powers of ten and their neighbours),
 * each decoded from a packet and formatted as an event. */
static guint64 float_rng = 0x9E3779B97F4A7C15ull;

static guint64
float_rnd (void)
{
  float_rng ^= float_rng << 13;
  float_rng ^= float_rng >> 7;
  float_rng ^= float_rng << 17;
  return float_rng;
}

static gdouble
float_sample (guint i)
{
  gdouble d = 0;
  guint64 bits;

  switch (i % 5) {
    case 0:
      bits = float_rnd ();
      memcpy (&d, &bits, 8);
      break;
    case 1:                    /* a short decimal */
      d = (gdouble) (float_rnd () % 2000000) * pow (10.0,
          (gint) (float_rnd () % 640) - 330);
      break;
    case 2:                    /* an exact tie: a dyadic rational */
      d = ldexp ((gdouble) (float_rnd () % 2000000) + 0.5,
          -(gint) (float_rnd () % 30));
      break;
    case 3:                    /* next to a decimal tie */
      d = ((gdouble) (float_rnd () % 900000 + 100000) + 0.5) *
          pow (10.0, (gint) (float_rnd () % 640) - 336);
      memcpy (&bits, &d, 8);
      bits += (gint) (float_rnd () % 5) - 2;
      memcpy (&d, &bits, 8);
      break;
    default:                   /* next to a power of ten */
      d = pow (10.0, (gint) (float_rnd () % 640) - 330);
      memcpy (&bits, &d, 8);
      bits += (gint) (float_rnd () % 7) - 3;
      memcpy (&d, &bits, 8);
      break;
  }
  return (float_rnd () & 1) ? -d : d;
}

START_TEST (test_float_text_is_printf)
{
  GstCtfStreamClass *sc;
  GstCtfTraceClass *tc = mk_trace (&sc, NULL);
  GstCtfFieldClass *payload = mk_struct ();
  GstCtfTextFormatter *fmt;
  GstCtfEventIter *it;
  GString *line = g_string_new (NULL);
  static Writer w;
  GError *err = NULL;
  guint64 sizes_at;
  guint i = 0, checked = 0, p;
  const guint per_packet = 8000;

  add (payload, "d", mk_float (53, 11, GST_CTF_BYTE_ORDER_LE, 8));
  add_event_class (sc, 0, "ev", payload);
  fmt = gst_ctf_text_formatter_new (tc, NULL);
  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);

  for (p = 0; p < 50; p++) {
    gdouble vals[8000];
    gsize size;
    guint k;

    w_packet_start (&w, 0, 0, &sizes_at);
    for (k = 0; k < per_packet; k++) {
      guint64 b;

      vals[k] = float_sample (i++);
      memcpy (&b, &vals[k], 8);
      w_align (&w, 64);
      w_bits (&w, b, 64, GST_CTF_BYTE_ORDER_LE);
    }
    size = w_finish (&w, sizes_at, 8);
    ck_assert_msg (gst_ctf_event_iter_set_packet (it, w.buf, size, &err),
        "%s", err ? err->message : "");
    for (k = 0; k < per_packet; k++) {
      gchar expected[64];
      const gchar *at;

      ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
          err ? err->message : "");
      g_string_truncate (line, 0);
      gst_ctf_text_formatter_format_event (fmt, it, line);
      g_snprintf (expected, sizeof (expected), "d = %g }\n", vals[k]);
      at = strstr (line->str, "d = ");
      ck_assert_msg (at != NULL && strcmp (at, expected) == 0,
          "%.17g printed as \"%s\", printf gives \"%s\"", vals[k],
          at ? at : line->str, expected);
      checked++;
    }
  }
  fail_unless_equals_int (checked, 400000);
  g_string_free (line, TRUE);
  gst_ctf_event_iter_free (it);
  gst_ctf_text_formatter_free (fmt);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* Integers next to the formatter's cuts (10^8 and 10^16 blocks, digit
 * counts, hex pairs), and random ones, are printed as printf prints
 * them. */
static guint64
int_sample (guint i, GRand * r)
{
  static const guint64 p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
    10000000, 100000000, 1000000000, G_GUINT64_CONSTANT (10000000000),
    G_GUINT64_CONSTANT (100000000000), G_GUINT64_CONSTANT (1000000000000),
    G_GUINT64_CONSTANT (10000000000000), G_GUINT64_CONSTANT (100000000000000),
    G_GUINT64_CONSTANT (1000000000000000),
    G_GUINT64_CONSTANT (10000000000000000),
    G_GUINT64_CONSTANT (100000000000000000),
    G_GUINT64_CONSTANT (1000000000000000000),
    G_GUINT64_CONSTANT (10000000000000000000),
  };
  guint64 v = ((guint64) g_rand_int (r) << 32) | g_rand_int (r);

  switch (i % 4) {
    case 0:                    /* next to a power of ten */
      return p10[g_rand_int_range (r, 0, 20)] + g_rand_int_range (r, -2, 3);
    case 1:                    /* any bit length */
      return v >> g_rand_int_range (r, 0, 64);
    case 2:                    /* next to a power of two */
      return (G_GUINT64_CONSTANT (1) << g_rand_int_range (r, 0, 64)) +
          g_rand_int_range (r, -2, 3);
    default:
      return v;
  }
}

START_TEST (test_integer_text_is_printf)
{
  GstCtfStreamClass *sc;
  GstCtfTraceClass *tc = mk_trace (&sc, NULL);
  GstCtfFieldClass *payload = mk_struct (), *hex;
  GstCtfTextFormatter *fmt;
  GstCtfEventIter *it;
  GString *line = g_string_new (NULL);
  GRand *r = g_rand_new_with_seed (21);
  static Writer w;
  GError *err = NULL;
  guint64 sizes_at;
  guint i = 0, checked = 0, p;
  /* (packets below the test writer's 64 KiB) */
  const guint per_packet = 2000;

  add (payload, "u", mk_uint (64, 8));
  add (payload, "s", mk_int (64, 8, TRUE, GST_CTF_BYTE_ORDER_LE));
  hex = mk_uint (64, 8);
  hex->integer.base = 16;
  add (payload, "h", hex);
  add_event_class (sc, 0, "ev", payload);
  fmt = gst_ctf_text_formatter_new (tc, NULL);
  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);

  for (p = 0; p < 50; p++) {
    guint64 vals[2000];
    gsize size;
    guint k;

    w_packet_start (&w, 0, 0, &sizes_at);
    for (k = 0; k < per_packet; k++) {
      vals[k] = int_sample (i++, r);
      w_int (&w, vals[k], 64, 8);
      w_int (&w, vals[k], 64, 8);
      w_int (&w, vals[k], 64, 8);
    }
    size = w_finish (&w, sizes_at, 8);
    ck_assert_msg (gst_ctf_event_iter_set_packet (it, w.buf, size, &err),
        "%s", err ? err->message : "");
    for (k = 0; k < per_packet; k++) {
      gchar *expected;
      const gchar *at;

      ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
          err ? err->message : "");
      g_string_truncate (line, 0);
      gst_ctf_text_formatter_format_event (fmt, it, line);
      expected = g_strdup_printf ("{ u = %" G_GUINT64_FORMAT ", s = %"
          G_GINT64_FORMAT ", h = 0x%" G_GINT64_MODIFIER "X }\n", vals[k],
          (gint64) vals[k], vals[k]);
      at = strstr (line->str, "{ u = ");
      ck_assert_msg (at != NULL && strcmp (at, expected) == 0,
          "%" G_GUINT64_FORMAT " printed as \"%s\", printf gives \"%s\"",
          vals[k], at ? at : line->str, expected);
      g_free (expected);
      checked++;
    }
  }
  fail_unless_equals_int (checked, 100000);
  g_rand_free (r);
  g_string_free (line, TRUE);
  gst_ctf_event_iter_free (it);
  gst_ctf_text_formatter_free (fmt);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* Times and deltas (the wall-clock text kept per second, the nanoseconds
 * and deltas under a second written without divisions, a 1 GHz clock's
 * origin converted once) as printf and gmtime_r() give them: times
 * within a second, across seconds, deltas of a second and more, and a
 * clock offset. */
START_TEST (test_time_text_is_printf)
{
  GstCtfStreamClass *sc;
  GstCtfClockClass *cc;
  GstCtfTraceClass *tc = mk_trace (&sc, &cc);
  GstCtfFieldClass *eh = mk_struct (), *m;
  GstCtfTextOptions opts;
  GstCtfTextFormatter *fmt;
  GstCtfEventIter *it;
  GString *line = g_string_new (NULL);
  GRand *r = g_rand_new_with_seed (7);
  static Writer w;
  GError *err = NULL;
  guint64 sizes_at, ts = 0, prev = 0;
  guint64 times[3000];
  const gint64 offset_s = 1700000000;
  gsize size;
  guint k;

  cc->offset_s = offset_s;
  m = add (eh, "timestamp", mk_uint (64, 8));
  m->meaning = GST_CTF_MEANING_TIMESTAMP;
  m->integer.mapped_clock = cc;
  sc->event_header = eh;
  add_event_class (sc, 0, "ev", mk_struct ());
  gst_ctf_text_options_init (&opts);
  opts.clock_gmt = TRUE;
  fmt = gst_ctf_text_formatter_new (tc, &opts);
  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);

  w_packet_start (&w, 0, G_MAXINT64, &sizes_at);
  for (k = 0; k < G_N_ELEMENTS (times); k++) {
    switch (k % 5) {
      case 0:                  /* to the next second's first ns */
        ts = (ts / 1000000000 + 1) * 1000000000;
        break;
      case 1:                  /* a second and more */
        ts += 1000000000 + g_rand_int_range (r, 0, 3000000);
        break;
      case 2:                  /* just under a second */
        ts += 999999999;
        break;
      default:                 /* short */
        ts += g_rand_int_range (r, 0, 2000000);
        break;
    }
    if (k == 2000)
      ts += G_GUINT64_CONSTANT (86400000000000) * 400;  /* days later */
    times[k] = ts;
    w_int (&w, ts, 64, 8);
  }
  size = w_finish (&w, sizes_at, 8);
  ck_assert_msg (gst_ctf_event_iter_set_packet (it, w.buf, size, &err),
      "%s", err ? err->message : "");
  for (k = 0; k < G_N_ELEMENTS (times); k++) {
    time_t sec = (time_t) (offset_s + times[k] / 1000000000);
    struct tm tm;
    gchar *expected;

    ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
        err ? err->message : "");
    g_string_truncate (line, 0);
    gst_ctf_text_formatter_format_event (fmt, it, line);
    gmtime_r (&sec, &tm);
    if (k == 0)
      expected = g_strdup_printf ("[%02d:%02d:%02d.%09u] (+?.\?\?\?\?\?\?\?\?\?) ",
          tm.tm_hour, tm.tm_min, tm.tm_sec,
          (guint) (times[k] % 1000000000));
    else
      expected = g_strdup_printf ("[%02d:%02d:%02d.%09u] (+%"
          G_GUINT64_FORMAT ".%09u) ", tm.tm_hour, tm.tm_min, tm.tm_sec,
          (guint) (times[k] % 1000000000), (times[k] - prev) / 1000000000,
          (guint) ((times[k] - prev) % 1000000000));
    ck_assert_msg (g_str_has_prefix (line->str, expected),
        "event %u at %" G_GUINT64_FORMAT " printed as \"%s\", want \"%s\"",
        k, times[k], line->str, expected);
    g_free (expected);
    prev = times[k];
  }
  g_rand_free (r);
  g_string_free (line, TRUE);
  gst_ctf_event_iter_free (it);
  gst_ctf_text_formatter_free (fmt);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* ------------------------------------------------------------------ */
/* LTTng-like compact/extended event headers and 27-bit clock wrap      */
/* ------------------------------------------------------------------ */

/* event header: enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
 * variant <id> { struct { uint27 timestamp; } compact;
 *                struct { uint32 id; uint64 timestamp; } extended; } v; */
static void
add_lttng_header (GstCtfTraceClass * tc, GstCtfStreamClass * sc,
    GstCtfClockClass * cc)
{
  GstCtfFieldClass *eh = mk_struct (), *id, *var, *compact, *ext, *m;

  id = mk_enum (5, 1, FALSE);
  enum_map (id, "compact", 0, 30);
  enum_map (id, "extended", 31, 31);
  id->meaning = GST_CTF_MEANING_EVENT_CLASS_ID;
  id->value_slot = 0;
  add (eh, "id", id);

  var = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_VARIANT);
  var->ref_path = g_strdup ("id");
  var->ref_target = id;
  compact = mk_struct ();
  m = add (compact, "timestamp", mk_uint (27, 1));
  m->integer.mapped_clock = cc;
  m->meaning = GST_CTF_MEANING_TIMESTAMP;
  ext = mk_struct ();
  m = add (ext, "id", mk_uint (32, 8));
  m->meaning = GST_CTF_MEANING_EVENT_CLASS_ID;
  m = add (ext, "timestamp", mk_uint (64, 8));
  m->integer.mapped_clock = cc;
  m->meaning = GST_CTF_MEANING_TIMESTAMP;
  gst_ctf_field_class_append_member (var, "compact", compact);
  gst_ctf_field_class_append_member (var, "extended", ext);
  add (eh, "v", var);
  eh->alignment = 8;
  sc->event_header = eh;
  tc->n_value_slots = MAX (tc->n_value_slots, 1);
}

static void
w_compact (Writer * w, guint id, guint64 ts)
{
  w_align (w, 8);
  w_bits (w, id, 5, GST_CTF_BYTE_ORDER_LE);
  w_bits (w, ts & 0x7FFFFFF, 27, GST_CTF_BYTE_ORDER_LE);
}

static void
w_extended (Writer * w, guint32 id, guint64 ts)
{
  w_align (w, 8);
  w_bits (w, 31, 5, GST_CTF_BYTE_ORDER_LE);
  w_int (w, id, 32, 8);
  w_int (w, ts, 64, 8);
}

/* Shape of flvmux's test_rollover_timestamps: the low bits wrap several
 * times; each wrap adds 2^27 once (CTF 1.8 §8). */
START_TEST (test_timestamp_wrap_27)
{
  GstCtfStreamClass *sc;
  GstCtfClockClass *cc;
  GstCtfTraceClass *tc = mk_trace (&sc, &cc);
  GstCtfFieldClass *payload = mk_struct ();
  GstCtfEventIter *it;
  Writer w;
  guint64 sizes_at;
  gsize size;
  GError *err = NULL;
  const guint64 base = G_GUINT64_CONSTANT (0x1234) << 27;
  const guint64 times[] = {
    base + 0x7FFFF00,           /* near the top of the 27-bit range */
    base + 0x7FFFFFF,
    base + (1 << 27) + 0x10,    /* wrapped */
    base + (1 << 27) + 0x10,    /* same */
    base + (2 << 27) + 0x5,     /* wrapped again */
    base + (2 << 27) + 0x7FFFFF0,
    base + (3 << 27) + 0x0,     /* wrap to exactly 0 */
  };
  guint k;

  add_lttng_header (tc, sc, cc);
  add (payload, "x", mk_uint (8, 8));
  add_event_class (sc, 3, "ev3", payload);
  add_event_class (sc, 100, "ev100", mk_struct ());
  gst_ctf_field_class_free (mk_struct ());

  w_packet_start (&w, base + 0x7FFFE00, base + (4 << 27), &sizes_at);
  for (k = 0; k < G_N_ELEMENTS (times); k++) {
    w_compact (&w, 3, times[k]);
    w_int (&w, k, 8, 8);
  }
  /* extended header: 64-bit timestamp overwrites, id 100 */
  w_extended (&w, 100, base + (5 << 27) + 7);
  /* compact after extended continues from the 64-bit value */
  w_compact (&w, 3, 0x3);
  w_int (&w, 99, 8, 8);
  size = w_finish (&w, sizes_at, 4096);

  it = gst_ctf_event_iter_new (tc);
  fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
  fail_unless_equals_uint64 (gst_ctf_event_iter_get_clock_value (it),
      base + 0x7FFFE00);
  for (k = 0; k < G_N_ELEMENTS (times); k++) {
    ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
        err ? err->message : "");
    fail_unless_equals_uint64 (gst_ctf_event_iter_get_event_class (it)->id,
        3);
    fail_unless_equals_uint64 (gst_ctf_event_iter_get_clock_value (it),
        times[k]);
  }
  fail_unless (gst_ctf_event_iter_next (it, &err));
  fail_unless_equals_uint64 (gst_ctf_event_iter_get_event_class (it)->id,
      100);
  fail_unless_equals_uint64 (gst_ctf_event_iter_get_clock_value (it),
      base + (5 << 27) + 7);
  fail_unless (gst_ctf_event_iter_next (it, &err));
  fail_unless_equals_uint64 (gst_ctf_event_iter_get_clock_value (it),
      base + (6 << 27) + 3);
  fail_if (gst_ctf_event_iter_next (it, &err));
  fail_unless (err == NULL);
  /* packet info */
  {
    const GstCtfPacketInfo *info = gst_ctf_event_iter_get_packet_info (it);
    fail_unless (info->has_timestamp_begin && info->has_timestamp_end);
    fail_unless_equals_uint64 (info->timestamp_end, base + (4 << 27));
    fail_unless_equals_uint64 (info->packet_size, 4096 * 8);
    fail_unless (info->has_uuid);
    fail_unless (memcmp (info->uuid, test_uuid, 16) == 0);
    fail_unless_equals_uint64 (info->events_offset, (4 + 16 + 4 + 32) * 8);
  }
  /* set_clock_value overrides the base of the next value */
  fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
  gst_ctf_event_iter_set_clock_value (it, base + 0x7FFFF00);
  fail_unless (gst_ctf_event_iter_next (it, &err));
  fail_unless_equals_uint64 (gst_ctf_event_iter_get_clock_value (it),
      times[0]);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* Two good events, then an id the stream class lacks: babeltrace's
 * fail/valid-events-then-invalid-events shape. */
START_TEST (test_unknown_event_class)
{
  GstCtfStreamClass *sc;
  GstCtfClockClass *cc;
  GstCtfTraceClass *tc = mk_trace (&sc, &cc);
  GstCtfFieldClass *payload = mk_struct ();
  GstCtfEventIter *it;
  Writer w;
  guint64 sizes_at;
  gsize size;
  GError *err = NULL;
  guint n = 0;

  add_lttng_header (tc, sc, cc);
  add (payload, "x", mk_uint (8, 8));
  add_event_class (sc, 1, "ev", payload);
  w_packet_start (&w, 0, 0, &sizes_at);
  w_compact (&w, 1, 5);
  w_int (&w, 1, 8, 8);
  w_compact (&w, 1, 6);
  w_int (&w, 2, 8, 8);
  w_extended (&w, 255, 7);
  w_int (&w, 3, 8, 8);
  size = w_finish (&w, sizes_at, 64);

  it = gst_ctf_event_iter_new (tc);
  fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
  while (gst_ctf_event_iter_next (it, &err))
    n++;
  fail_unless_equals_int (n, 2);
  fail_unless (g_error_matches (err, GST_CTF_ERROR,
          GST_CTF_ERROR_UNKNOWN_EVENT_CLASS));
  ck_assert_msg (strstr (err->message,
          "No event class with ID 255 in stream class 0") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  /* stays at the end afterwards */
  fail_if (gst_ctf_event_iter_next (it, &err));
  fail_unless (err == NULL);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* ------------------------------------------------------------------ */
/* Variants, sequences, strings, text arrays                           */
/* ------------------------------------------------------------------ */

START_TEST (test_variant_sequence_text)
{
  GstCtfStreamClass *sc;
  GstCtfTraceClass *tc = mk_trace (&sc, NULL);
  GstCtfFieldClass *payload = mk_struct (), *tag, *var, *len, *seq, *elem,
      *txt, *tseq, *str, *opt;
  GstCtfEventIter *it;
  Writer w;
  guint64 sizes_at;
  gsize size;
  GError *err = NULL;
  const GstCtfFieldValue *v;
  guint n, k;

  tc->n_value_slots = 2;
  /* signed tag, option names with underscores as written in TSDL */
  tag = add (payload, "tag", mk_enum (8, 8, TRUE));
  enum_map (tag, "_neg", (guint64) - 5, (guint64) - 1);
  enum_map (tag, "pos", 1, 10);
  enum_map (tag, "__two", 20, 20);
  enum_map (tag, "pos", 30, 30);
  tag->value_slot = 0;
  var = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_VARIANT);
  var->ref_path = g_strdup ("tag");
  var->ref_target = tag;
  gst_ctf_field_class_append_member (var, "_neg", mk_uint (16, 8));
  /* "_pos" only matches "pos" with the leading underscore dropped */
  str = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING);
  gst_ctf_field_class_append_member (var, "_pos", str);
  opt = mk_struct ();
  add (opt, "a", mk_uint (4, 1));
  add (opt, "b", mk_uint (4, 1));
  gst_ctf_field_class_append_member (var, "__two", opt);
  add (payload, "var", var);

  len = add (payload, "len", mk_uint (16, 8));
  len->value_slot = 1;
  seq = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
  seq->ref_path = g_strdup ("len");
  seq->ref_target = len;
  elem = mk_struct ();
  add (elem, "x", mk_uint (3, 1));
  add (elem, "y", mk_int (32, 32, TRUE, GST_CTF_BYTE_ORDER_BE));
  seq->element = elem;
  seq->alignment = 32;
  add (payload, "seq", seq);

  txt = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
  txt->element = mk_uint (8, 8);
  txt->element->integer.encoding = GST_CTF_ENCODING_UTF8;
  txt->length = 6;
  txt->alignment = 8;
  add (payload, "txt", txt);
  tseq = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
  tseq->element = mk_uint (8, 8);
  tseq->element->integer.encoding = GST_CTF_ENCODING_UTF8;
  tseq->ref_path = g_strdup ("len");
  tseq->ref_target = len;
  tseq->alignment = 8;
  add (payload, "tseq", tseq);
  add_event_class (sc, 0, "ev", payload);

  w_packet_start (&w, 0, 0, &sizes_at);
  /* event 1: tag -3 -> _neg (u16 0xBEEF), len 2 */
  w_int (&w, (guint8) - 3, 8, 8);
  w_int (&w, 0xBEEF, 16, 8);
  w_int (&w, 2, 16, 8);
  for (k = 0; k < 2; k++) {
    w_align (&w, 32);
    w_bits (&w, k + 1, 3, GST_CTF_BYTE_ORDER_LE);
    w_align (&w, 32);
    w_bits (&w, (guint32) (-(gint) k - 100), 32, GST_CTF_BYTE_ORDER_BE);
  }
  w_bytes (&w, "ab\0cd\0", 6);
  w_bytes (&w, "xy", 2);
  /* event 2: tag 30 -> _pos string, len 0 (the payload struct aligns as
   * its most aligned member, the 32-bit sequence) */
  w_align (&w, 32);
  w_int (&w, 30, 8, 8);
  w_string (&w, "hello");
  w_int (&w, 0, 16, 8);
  w_align (&w, 32);             /* an empty sequence still aligns */
  w_bytes (&w, "zzzzzz", 6);
  /* event 3: tag 20 -> __two {a=3, b=12} */
  w_align (&w, 32);
  w_int (&w, 20, 8, 8);
  w_bits (&w, 3, 4, GST_CTF_BYTE_ORDER_LE);
  w_bits (&w, 12, 4, GST_CTF_BYTE_ORDER_LE);
  w_int (&w, 0, 16, 8);
  w_align (&w, 32);
  w_bytes (&w, "qqqqqq", 6);
  /* event 4: tag 0 -> no option */
  w_align (&w, 32);
  w_int (&w, 0, 8, 8);
  w_int (&w, 0, 32, 8);
  size = w_finish (&w, sizes_at, 16);

  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);
  fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));

  ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
      err ? err->message : "");
  v = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD, &n);
  /* root, tag, var, var._neg, len, seq, (struct, x, y) x2, txt, tseq */
  fail_unless_equals_int (n, 14);
  fail_unless_equals_int64 (v[1].v.i, -3);
  fail_unless_equals_string (v[2].name, "var");
  fail_unless_equals_uint64 (v[2].v.u, 0);
  fail_unless_equals_int (v[2].end, 4);
  fail_unless_equals_string (v[3].name, "_neg");
  fail_unless_equals_uint64 (v[3].v.u, 0xBEEF);
  fail_unless_equals_uint64 (v[4].v.u, 2);
  fail_unless_equals_string (v[5].name, "seq");
  fail_unless_equals_uint64 (v[5].v.u, 2);
  fail_unless_equals_int (v[5].end, 12);
  fail_unless (v[6].name == NULL);
  fail_unless_equals_int (v[6].end, 9);
  fail_unless_equals_uint64 (v[7].v.u, 1);
  fail_unless_equals_int64 (v[8].v.i, -100);
  fail_unless_equals_uint64 (v[10].v.u, 2);
  fail_unless_equals_int64 (v[11].v.i, -101);
  fail_unless_equals_int (v[12].v.s.len, 6);
  fail_unless (memcmp (v[12].v.s.ptr, "ab\0cd\0", 6) == 0);
  fail_unless_equals_int (v[12].end, 13);
  fail_unless_equals_int (v[13].v.s.len, 2);
  fail_unless (memcmp (v[13].v.s.ptr, "xy", 2) == 0);
  /* text points into the packet */
  fail_unless ((const guint8 *) v[13].v.s.ptr > w.buf &&
      (const guint8 *) v[13].v.s.ptr < w.buf + size);
  fail_unless_equals_int (v[0].end, 14);

  ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
      err ? err->message : "");
  v = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD, &n);
  fail_unless_equals_int (n, 8);
  fail_unless_equals_uint64 (v[2].v.u, 1);
  fail_unless_equals_string (v[3].name, "_pos");
  fail_unless_equals_int (v[3].v.s.len, 5);
  fail_unless (strncmp (v[3].v.s.ptr, "hello", 5) == 0);
  fail_unless_equals_uint64 (v[5].v.u, 0);
  fail_unless_equals_int (v[5].end, 6);
  fail_unless_equals_int (v[7].v.s.len, 0);

  ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
      err ? err->message : "");
  v = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD, &n);
  fail_unless_equals_uint64 (v[2].v.u, 2);
  fail_unless_equals_string (v[3].name, "__two");
  fail_unless_equals_int (v[3].end, 6);
  fail_unless_equals_uint64 (v[4].v.u, 3);
  fail_unless_equals_uint64 (v[5].v.u, 12);

  fail_if (gst_ctf_event_iter_next (it, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  ck_assert_msg (strstr (err->message, "tag value 0") != NULL, "%s",
      err->message);
  g_clear_error (&err);

  /* the same packet without recording gives the same walk */
  gst_ctf_event_iter_set_recording (it, FALSE);
  fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
  for (k = 0; k < 3; k++)
    fail_unless (gst_ctf_event_iter_next (it, &err));
  fail_unless (gst_ctf_event_iter_get_values (it,
          GST_CTF_SCOPE_EVENT_PAYLOAD, &n) == NULL);
  fail_unless_equals_int (n, 0);
  fail_if (gst_ctf_event_iter_next (it, &err));
  g_clear_error (&err);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* A sequence of structures holding a variant: the fast (non-recording)
 * walk runs options in line and must end where the recording walk does. */
START_TEST (test_array_of_variants)
{
  GstCtfStreamClass *sc;
  GstCtfTraceClass *tc = mk_trace (&sc, NULL);
  GstCtfFieldClass *payload = mk_struct (), *len, *seq, *elem, *t, *var;
  GstCtfEventIter *it;
  Writer w;
  guint64 sizes_at, b1, e1, b2, e2;
  gsize size;
  GError *err = NULL;
  const GstCtfFieldValue *v;
  guint n, k;
  const guint tags[] = { 0, 1, 2, 0, 2 };

  tc->n_value_slots = 2;
  len = add (payload, "len", mk_uint (8, 8));
  len->value_slot = 0;
  elem = mk_struct ();
  t = add (elem, "t", mk_enum (3, 1, FALSE));
  enum_map (t, "a", 0, 0);
  enum_map (t, "b", 1, 1);
  enum_map (t, "c", 2, 2);
  t->value_slot = 1;
  var = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_VARIANT);
  var->ref_target = t;
  gst_ctf_field_class_append_member (var, "a", mk_uint (5, 1));
  gst_ctf_field_class_append_member (var, "b", mk_uint (16, 8));
  gst_ctf_field_class_append_member (var, "c",
      gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING));
  add (elem, "v", var);
  seq = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
  seq->ref_target = len;
  seq->element = elem;
  add (payload, "seq", seq);
  add (payload, "after", mk_uint (8, 8));
  add_event_class (sc, 0, "ev", payload);

  w_packet_start (&w, 0, 0, &sizes_at);
  w_int (&w, G_N_ELEMENTS (tags), 8, 8);
  for (k = 0; k < G_N_ELEMENTS (tags); k++) {
    w_bits (&w, tags[k], 3, GST_CTF_BYTE_ORDER_LE);
    if (tags[k] == 0)
      w_bits (&w, 17 + k, 5, GST_CTF_BYTE_ORDER_LE);
    else if (tags[k] == 1)
      w_int (&w, 1000 + k, 16, 8);
    else
      w_string (&w, "zz");
  }
  w_int (&w, 0x5A, 8, 8);
  size = w_finish (&w, sizes_at, 8);

  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);
  fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
  ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%s",
      err ? err->message : "");
  b1 = gst_ctf_event_iter_get_event_offset (it, &e1);
  v = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD, &n);
  /* root, len, seq, 5 x (struct, t, v, option), after */
  fail_unless_equals_int (n, 4 + 5 * 4);
  fail_unless_equals_uint64 (v[3 + 0 * 4 + 3].v.u, 17);
  fail_unless_equals_uint64 (v[3 + 1 * 4 + 3].v.u, 1001);
  fail_unless_equals_int (v[3 + 2 * 4 + 3].v.s.len, 2);
  fail_unless_equals_uint64 (v[3 + 3 * 4 + 3].v.u, 20);
  fail_unless_equals_uint64 (v[n - 1].v.u, 0x5A);
  fail_if (gst_ctf_event_iter_next (it, &err));
  fail_unless (err == NULL);

  gst_ctf_event_iter_set_recording (it, FALSE);
  fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
  fail_unless (gst_ctf_event_iter_next (it, &err));
  b2 = gst_ctf_event_iter_get_event_offset (it, &e2);
  fail_unless_equals_uint64 (b1, b2);
  fail_unless_equals_uint64 (e1, e2);
  fail_if (gst_ctf_event_iter_next (it, &err));
  fail_unless (err == NULL);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* A huge sequence length must fail cleanly, not allocate or loop. */
START_TEST (test_sequence_bounds)
{
  GstCtfStreamClass *sc;
  GstCtfTraceClass *tc = mk_trace (&sc, NULL);
  GstCtfFieldClass *payload = mk_struct (), *len, *seq, *seq2, *str;
  GstCtfEventIter *it;
  Writer w;
  guint64 sizes_at;
  gsize size;
  GError *err = NULL;
  gboolean rec;

  tc->n_value_slots = 1;
  len = add (payload, "len", mk_uint (64, 8));
  len->value_slot = 0;
  seq = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
  seq->ref_target = len;
  seq->element = mk_uint (1, 1);
  add (payload, "bits", seq);
  /* sequence of empty structs: elements may take no bits */
  seq2 = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
  seq2->ref_target = len;
  seq2->element = mk_struct ();
  add (payload, "empties", seq2);
  str = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING);
  add (payload, "s", str);
  add_event_class (sc, 0, "ev", payload);

  for (rec = 0; rec <= 1; rec++) {
    w_packet_start (&w, 0, 0, &sizes_at);
    w_int (&w, G_GUINT64_CONSTANT (0x7FFFFFFFFFFFFFFF), 64, 8);
    w_bytes (&w, "abcdefgh", 8);
    size = w_finish (&w, sizes_at, 8);
    it = gst_ctf_event_iter_new (tc);
    gst_ctf_event_iter_set_recording (it, rec);
    fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
    fail_if (gst_ctf_event_iter_next (it, &err));
    fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
    ck_assert_msg (strstr (err->message, "bits remain") != NULL, "%s",
        err->message);
    g_clear_error (&err);
    gst_ctf_event_iter_free (it);

    /* 3 bits, then a zero-size sequence of 3, then an unterminated
     * string */
    w_packet_start (&w, 0, 0, &sizes_at);
    w_int (&w, 3, 64, 8);
    w_bits (&w, 5, 3, GST_CTF_BYTE_ORDER_LE);
    w_bytes (&w, "abc", 3);
    size = w_finish (&w, sizes_at, 8);
    it = gst_ctf_event_iter_new (tc);
    gst_ctf_event_iter_set_recording (it, rec);
    fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
    fail_if (gst_ctf_event_iter_next (it, &err));
    fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
    ck_assert_msg (strstr (err->message, "NUL") != NULL, "%s", err->message);
    g_clear_error (&err);
    gst_ctf_event_iter_free (it);
  }
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* Nested sequences of empty structures: each level may repeat 2^16
 * times, together they must not make the decode loop for long. */
START_TEST (test_nested_empty_sequences)
{
  GstCtfStreamClass *sc;
  GstCtfTraceClass *tc = mk_trace (&sc, NULL);
  GstCtfFieldClass *payload = mk_struct (), *len, *outer, *inner, *elem;
  GstCtfEventIter *it;
  Writer w;
  guint64 sizes_at;
  gsize size;
  GError *err = NULL;
  gboolean rec;

  tc->n_value_slots = 1;
  len = add (payload, "len", mk_uint (32, 8));
  len->value_slot = 0;
  inner = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
  inner->ref_target = len;
  inner->element = mk_struct ();
  elem = mk_struct ();
  add (elem, "inner", inner);
  outer = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
  outer->ref_target = len;
  outer->element = elem;
  add (payload, "outer", outer);
  add_event_class (sc, 0, "ev", payload);

  w_packet_start (&w, 0, 0, &sizes_at);
  w_int (&w, 60000, 32, 8);
  size = w_finish (&w, sizes_at, 8);
  for (rec = 0; rec <= 1; rec++) {
    it = gst_ctf_event_iter_new (tc);
    gst_ctf_event_iter_set_recording (it, rec);
    fail_unless (gst_ctf_event_iter_set_packet (it, w.buf, size, &err));
    fail_if (gst_ctf_event_iter_next (it, &err));
    fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
    g_clear_error (&err);
    gst_ctf_event_iter_free (it);
  }
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* ------------------------------------------------------------------ */
/* Packet header and context checks                                    */
/* ------------------------------------------------------------------ */

START_TEST (test_packet_info_errors)
{
  GstCtfStreamClass *sc;
  GstCtfTraceClass *tc = mk_trace (&sc, NULL);
  GstCtfPacketInfo info;
  Writer w;
  guint64 sizes_at;
  gsize size;
  GError *err = NULL;

  add_event_class (sc, 0, "ev", mk_struct ());
  w_packet_start (&w, 10, 20, &sizes_at);
  size = w_finish (&w, sizes_at, 32);
  fail_unless (gst_ctf_packet_read_info (tc, w.buf, size, &info, &err));
  fail_unless (info.stream_class == sc);
  fail_unless_equals_uint64 (info.packet_size, 512);
  fail_unless_equals_uint64 (info.content_size, (4 + 16 + 4 + 32) * 8);
  fail_unless_equals_uint64 (info.events_offset, (4 + 16 + 4 + 32) * 8);
  fail_unless_equals_uint64 (info.timestamp_begin, 10);
  fail_unless_equals_uint64 (info.timestamp_end, 20);
  fail_unless (!info.has_stream_instance_id);

  /* bad magic */
  w.buf[0] ^= 1;
  fail_if (gst_ctf_packet_read_info (tc, w.buf, size, &info, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  fail_unless (strstr (err->message, "expected-magic=0xc1fc1fc1") != NULL);
  g_clear_error (&err);
  w.buf[0] ^= 1;

  /* packet larger than the bytes available */
  fail_if (gst_ctf_packet_read_info (tc, w.buf, size - 1, &info, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);

  /* truncated header */
  fail_if (gst_ctf_packet_read_info (tc, w.buf, 10, &info, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);

  /* content > packet */
  w_patch64 (&w, sizes_at, 513);
  fail_if (gst_ctf_packet_read_info (tc, w.buf, size, &info, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);

  /* packet size not a byte multiple */
  w_patch64 (&w, sizes_at, 450);
  w_patch64 (&w, sizes_at + 64, 451);
  fail_if (gst_ctf_packet_read_info (tc, w.buf, size, &info, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);
  w_patch64 (&w, sizes_at, 448);
  w_patch64 (&w, sizes_at + 64, 512);

  /* a uuid that is not the trace's is read (babeltrace2 2.0 does) and
   * given back as it is */
  w.buf[5] ^= 0xFF;
  fail_unless (gst_ctf_packet_read_info (tc, w.buf, size, &info, &err));
  fail_unless (info.has_uuid);
  fail_unless (memcmp (info.uuid, tc->uuid, 16) != 0);
  w.buf[5] ^= 0xFF;

  /* unknown stream class */
  w.buf[20] = 7;
  fail_if (gst_ctf_packet_read_info (tc, w.buf, size, &info, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR,
          GST_CTF_ERROR_UNKNOWN_STREAM_CLASS));
  g_clear_error (&err);
  w.buf[20] = 0;

  fail_unless (gst_ctf_packet_read_info (tc, w.buf, size, &info, &err));
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* No packet context sizes: the packet is the rest of the bytes, and the
 * events end there exactly. */
START_TEST (test_no_packet_size)
{
  GstCtfTraceClass *tc = gst_ctf_trace_class_new ();
  GstCtfStreamClass *sc = gst_ctf_stream_class_new (0);
  GstCtfFieldClass *payload = mk_struct ();
  GstCtfEventIter *it;
  GError *err = NULL;
  const guint8 bytes[] = { 1, 0, 2, 0, 3, 0 };
  guint n = 0;

  add (payload, "x", mk_uint (16, 8));
  g_ptr_array_add (tc->stream_classes, sc);
  add_event_class (sc, 5, "only", payload);

  it = gst_ctf_event_iter_new (tc);
  fail_unless (gst_ctf_event_iter_set_packet (it, bytes, 6, &err));
  fail_unless_equals_uint64 (gst_ctf_event_iter_get_packet_info (it)->
      packet_size, 48);
  while (gst_ctf_event_iter_next (it, &err)) {
    fail_unless_equals_uint64 (gst_ctf_event_iter_get_event_class (it)->id,
        5);
    n++;
  }
  fail_unless (err == NULL);
  fail_unless_equals_int (n, 3);

  /* an event that does not fit */
  fail_unless (gst_ctf_event_iter_set_packet (it, bytes, 5, &err));
  fail_unless (gst_ctf_event_iter_next (it, &err));
  fail_unless (gst_ctf_event_iter_next (it, &err));
  fail_if (gst_ctf_event_iter_next (it, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  ck_assert_msg (strstr (err->message, "offset=32 bits") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
}
END_TEST;

/* ------------------------------------------------------------------ */
/* Clock conversion                                                    */
/* ------------------------------------------------------------------ */

static gint64
to_ns (guint64 freq, gint64 offset_s, gint64 offset, guint64 cycles)
{
  GstCtfClockClass cc;
  gint64 ns = 0;

  memset (&cc, 0, sizeof (cc));
  cc.freq = freq;
  cc.offset_s = offset_s;
  cc.offset = offset;
  fail_unless (gst_ctf_clock_class_cycles_to_ns_from_origin (&cc, cycles,
          &ns));
  return ns;
}

static gboolean
to_ns_ok (guint64 freq, gint64 offset_s, gint64 offset, guint64 cycles)
{
  GstCtfClockClass cc;
  gint64 ns;

  memset (&cc, 0, sizeof (cc));
  cc.freq = freq;
  cc.offset_s = offset_s;
  cc.offset = offset;
  return gst_ctf_clock_class_cycles_to_ns_from_origin (&cc, cycles, &ns);
}

START_TEST (test_clock_conversion)
{
  /* 1 GHz: exact */
  fail_unless_equals_int64 (to_ns (1000000000, 0, 0, 123456789012345678),
      123456789012345678);
  /* LTTng: offset in cycles only, larger than a second */
  fail_unless_equals_int64 (to_ns (1000000000, 0,
          G_GINT64_CONSTANT (1795305072242605315), 337198973593 -
          242605315 + 0),
      G_GINT64_CONSTANT (1795305072242605315) + 337198973593 - 242605315);
  /* offset_s and offset together */
  fail_unless_equals_int64 (to_ns (1000000000, 1700000000, 1500000000, 7),
      G_GINT64_CONSTANT (1700000001500000007));
  /* 1 MHz */
  fail_unless_equals_int64 (to_ns (1000000, 10, 500000, 1234567),
      10 * G_GINT64_CONSTANT (1000000000) + 500000000 + 1234567000);
  /* 3 Hz: not a divisor of 10^9, rounded down */
  fail_unless_equals_int64 (to_ns (3, 0, 0, 1), 333333333);
  fail_unless_equals_int64 (to_ns (3, 0, 0, 2), 666666666);
  fail_unless_equals_int64 (to_ns (3, 0, 0, 3), 1000000000);
  fail_unless_equals_int64 (to_ns (3, 0, 4, 0), 1333333333);
  /* babeltrace2 2.0 arithmetic for a 2.8 GHz clock: Trace Compass's
   * double_counters trace, first event printed [14:43:25.691198444]
   * (exact integer arithmetic would give ...443) */
  fail_unless_equals_int64 (to_ns (2800130166, 1651437635, 370127861,
          G_GUINT64_CONSTANT (4536688456365975)),
      G_GINT64_CONSTANT (1653057805691198444));
  /* negative offsets */
  fail_unless_equals_int64 (to_ns (1000000000, -10, 0, 5),
      -10 * G_GINT64_CONSTANT (1000000000) + 5);
  fail_unless_equals_int64 (to_ns (1000000000, 0, -1, 0), -1);
  fail_unless_equals_int64 (to_ns (1000, 0, -1500, 0), -1500000000);
  /* large offsets and overflow */
  fail_unless_equals_int64 (to_ns (1000000000, 9000000000, 0, 0),
      G_GINT64_CONSTANT (9000000000000000000));
  fail_if (to_ns_ok (1000000000, 9300000000, 0, 0));
  fail_if (to_ns_ok (1000000000, 9000000000, 0,
          G_GUINT64_CONSTANT (300000000000000000)));
  fail_if (to_ns_ok (1000000000, 0, 0, G_MAXUINT64));
  fail_if (to_ns_ok (0, 0, 0, 0));
  /* negative base plus a large value does not overflow */
  fail_unless_equals_int64 (to_ns (1000000000, -9000000000, 0,
          G_GUINT64_CONSTANT (9000000000000000001)), 1);
}
END_TEST;

/* ------------------------------------------------------------------ */
/* Corpus: every event of real traces, counted against the oracles     */
/* ------------------------------------------------------------------ */

static const gchar *
corpus_dir (void)
{
  const gchar *d = g_getenv ("GST_CTF_CORPUS");

  if (d == NULL || !g_file_test (d, G_FILE_TEST_IS_DIR))
    return NULL;
  return d;
}

static void
find_metadata_dirs (const gchar * dir, GPtrArray * out, guint depth)
{
  GDir *d;
  const gchar *name;
  gchar *meta;

  if (depth > 8)
    return;
  meta = g_build_filename (dir, "metadata", NULL);
  if (g_file_test (meta, G_FILE_TEST_IS_REGULAR))
    g_ptr_array_add (out, g_strdup (dir));
  g_free (meta);
  d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL) {
    gchar *sub = g_build_filename (dir, name, NULL);

    if (g_file_test (sub, G_FILE_TEST_IS_DIR) && strcmp (name, "index") != 0)
      find_metadata_dirs (sub, out, depth + 1);
    g_free (sub);
  }
  g_dir_close (d);
}

typedef struct {
  guint64 events;
  gboolean have_first;
  gint64 first_ns;              /* earliest event time, ns from origin */
  gchar *error;
} TraceResult;

/* Reads every stream file of the trace in @dir, all packets, all events. */
static void
read_trace_dir (const gchar * dir, TraceResult * res)
{
  gchar *meta_path = g_build_filename (dir, "metadata", NULL);
  GError *err = NULL;
  gchar *text = gst_ctf_metadata_load_file (meta_path, &err);
  GstCtfTraceClass *tc;
  GDir *d;
  const gchar *name;
  GstCtfEventIter *it, *fast;

  g_free (meta_path);
  if (text == NULL) {
    res->error = g_strdup_printf ("%s: %s", dir, err->message);
    g_error_free (err);
    return;
  }
  tc = gst_ctf_tsdl_parse (text, dir, &err);
  g_free (text);
  if (tc == NULL) {
    res->error = g_strdup_printf ("%s: %s", dir, err->message);
    g_error_free (err);
    return;
  }
  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);
  /* a second iterator without recording (skipping plans) must walk the
   * same events to the same offsets and clock values */
  fast = gst_ctf_event_iter_new (tc);
  d = g_dir_open (dir, 0, NULL);
  while (d && (name = g_dir_read_name (d)) != NULL && res->error == NULL) {
    gchar *path = g_build_filename (dir, name, NULL);
    gchar *contents = NULL;
    gsize len = 0, off = 0;

    if (strcmp (name, "metadata") == 0 || name[0] == '.' ||
        !g_file_test (path, G_FILE_TEST_IS_REGULAR) ||
        !g_file_get_contents (path, &contents, &len, NULL)) {
      g_free (path);
      continue;
    }
    while (off < len && res->error == NULL) {
      const GstCtfPacketInfo *info;
      GstCtfPacketInfo info2;

      if (!gst_ctf_packet_read_info (tc, (const guint8 *) contents + off,
              len - off, &info2, &err) ||
          !gst_ctf_event_iter_set_packet (it, (const guint8 *) contents + off,
              len - off, &err)) {
        res->error = g_strdup_printf ("%s@%" G_GSIZE_FORMAT ": %s", path, off,
            err->message);
        g_clear_error (&err);
        break;
      }
      info = gst_ctf_event_iter_get_packet_info (it);
      fail_unless_equals_uint64 (info2.packet_size, info->packet_size);
      fail_unless (gst_ctf_event_iter_set_packet (fast,
              (const guint8 *) contents + off, len - off, NULL));
      while (gst_ctf_event_iter_next (it, &err)) {
        const GstCtfClockClass *cc = info->stream_class->default_clock;
        guint64 e1, e2;

        fail_unless (gst_ctf_event_iter_next (fast, NULL));
        fail_unless_equals_uint64 (gst_ctf_event_iter_get_event_offset (it,
                &e1), gst_ctf_event_iter_get_event_offset (fast, &e2));
        fail_unless_equals_uint64 (e1, e2);
        fail_unless_equals_uint64 (gst_ctf_event_iter_get_clock_value (it),
            gst_ctf_event_iter_get_clock_value (fast));

        res->events++;
        if (cc) {
          gint64 ns;

          if (gst_ctf_clock_class_cycles_to_ns_from_origin (cc,
                  gst_ctf_event_iter_get_clock_value (it), &ns) &&
              (!res->have_first || ns < res->first_ns)) {
            res->first_ns = ns;
            res->have_first = TRUE;
          }
        }
      }
      if (err) {
        res->error = g_strdup_printf ("%s@%" G_GSIZE_FORMAT ": %s", path, off,
            err->message);
        g_clear_error (&err);
        break;
      }
      off += info->packet_size / 8;
    }
    g_free (contents);
    g_free (path);
  }
  if (d)
    g_dir_close (d);
  gst_ctf_event_iter_free (fast);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
}

static guint64
count_lines (const gchar * path)
{
  gchar *contents = NULL;
  gsize len = 0, i;
  guint64 n = 0;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return G_MAXUINT64;
  for (i = 0; i < len; i++)
    if (contents[i] == '\n')
      n++;
  g_free (contents);
  return n;
}

static const gchar *const lttng_units[] = {
  "libc-ls", "pthread-multichan", "custom-2cpu", "dl-statedump"
};

START_TEST (test_corpus_lttng_ust)
{
  const gchar *corpus = corpus_dir ();
  const gchar *unit = lttng_units[_i];
  gchar *root, *oracle, *contents = NULL, stamp[64];
  GPtrArray *dirs;
  TraceResult total = { 0, };
  guint i;
  time_t secs;
  struct tm tm;

  if (corpus == NULL) {
    g_print ("GST_CTF_CORPUS not set or missing: corpus test skipped\n");
    return;
  }
  root = g_build_filename (corpus, "ctf", "lttng-ust", unit, NULL);
  dirs = g_ptr_array_new_with_free_func (g_free);
  find_metadata_dirs (root, dirs, 0);
  ck_assert_msg (dirs->len > 0, "no trace under %s", root);
  for (i = 0; i < dirs->len; i++) {
    TraceResult r = { 0, };

    read_trace_dir (g_ptr_array_index (dirs, i), &r);
    ck_assert_msg (r.error == NULL, "%s", r.error);
    total.events += r.events;
    if (r.have_first && (!total.have_first || r.first_ns < total.first_ns)) {
      total.first_ns = r.first_ns;
      total.have_first = TRUE;
    }
  }
  oracle = g_strdup_printf ("%s/ctf/lttng-ust/oracle/%s.txt", corpus, unit);
  fail_unless_equals_uint64 (total.events, count_lines (oracle));

  /* the first event's time, HH:MM:SS.nnnnnnnnn UTC, is in the oracle */
  fail_unless (total.have_first);
  secs = (time_t) (total.first_ns / 1000000000);
  gmtime_r (&secs, &tm);
  g_snprintf (stamp, sizeof (stamp), "[%02d:%02d:%02d.%09" G_GINT64_FORMAT
      "]", tm.tm_hour, tm.tm_min, tm.tm_sec, total.first_ns % 1000000000);
  fail_unless (g_file_get_contents (oracle, &contents, NULL, NULL));
  ck_assert_msg (g_str_has_prefix (contents, stamp), "%s is not the first "
      "time of %s", stamp, oracle);
  g_free (contents);
  g_free (oracle);
  g_ptr_array_unref (dirs);
  g_free (root);
}
END_TEST;

/* Single-trace units of babeltrace's succeed/ and Trace Compass's traces
 * that babeltrace2 read (exit 0 in STATUS.tsv): same event count. */
static void
check_status_units (const gchar * tree, const gchar * prefix,
    guint * n_checked)
{
  const gchar *corpus = corpus_dir ();
  gchar *status_path, *contents = NULL;
  gchar **lines;
  guint i;

  status_path = g_build_filename (corpus, "ctf", tree, "oracle",
      "STATUS.tsv", NULL);
  ck_assert_msg (g_file_get_contents (status_path, &contents, NULL, NULL),
      "cannot read %s", status_path);
  lines = g_strsplit (contents, "\n", -1);
  for (i = 1; lines[i] != NULL; i++) {
    gchar **cols = g_strsplit (lines[i], "\t", -1);
    GPtrArray *dirs;
    gchar *root, *oracle;
    TraceResult r = { 0, };

    if (g_strv_length (cols) < 3 || !g_str_has_prefix (cols[0], prefix) ||
        strcmp (cols[1], "0") != 0) {
      g_strfreev (cols);
      continue;
    }
    root = g_build_filename (corpus, "ctf", tree, cols[0], NULL);
    dirs = g_ptr_array_new_with_free_func (g_free);
    find_metadata_dirs (root, dirs, 0);
    if (dirs->len == 1) {
      read_trace_dir (g_ptr_array_index (dirs, 0), &r);
      ck_assert_msg (r.error == NULL, "%s: %s", cols[0], r.error);
      oracle = g_strdup_printf ("%s/ctf/%s/oracle/%s.txt", corpus, tree,
          cols[0]);
      fail_unless_equals_uint64 (r.events, g_ascii_strtoull (cols[2], NULL,
              10));
      if (g_file_test (oracle, G_FILE_TEST_EXISTS))
        fail_unless_equals_uint64 (r.events, count_lines (oracle));
      g_free (oracle);
      (*n_checked)++;
    }
    g_ptr_array_unref (dirs);
    g_free (root);
    g_strfreev (cols);
  }
  g_strfreev (lines);
  g_free (contents);
  g_free (status_path);
}

START_TEST (test_corpus_babeltrace_succeed)
{
  guint n = 0;

  if (corpus_dir () == NULL) {
    g_print ("GST_CTF_CORPUS not set or missing: corpus test skipped\n");
    return;
  }
  check_status_units ("babeltrace", "succeed/", &n);
  ck_assert_msg (n >= 20, "only %u units checked", n);
}
END_TEST;

START_TEST (test_corpus_tracecompass)
{
  guint n = 0;

  if (corpus_dir () == NULL) {
    g_print ("GST_CTF_CORPUS not set or missing: corpus test skipped\n");
    return;
  }
  check_status_units ("other", "tracecompass/", &n);
  ck_assert_msg (n >= 10, "only %u units checked", n);
}
END_TEST;

/* babeltrace's fail/valid-events-then-invalid-events: two events, then
 * the unknown event class error. */
START_TEST (test_corpus_valid_then_invalid)
{
  const gchar *corpus = corpus_dir ();
  gchar *dir;
  TraceResult r = { 0, };

  if (corpus == NULL) {
    g_print ("GST_CTF_CORPUS not set or missing: corpus test skipped\n");
    return;
  }
  dir = g_build_filename (corpus, "ctf", "babeltrace", "fail",
      "valid-events-then-invalid-events", "trace", NULL);
  read_trace_dir (dir, &r);
  fail_unless_equals_uint64 (r.events, 2);
  fail_unless (r.error != NULL);
  ck_assert_msg (strstr (r.error, "No event class with ID") != NULL, "%s",
      r.error);
  g_free (r.error);
  g_free (dir);
}
END_TEST;

/* Values of the event scopes equal (same packet: string pointers too). */
static void
check_same_values (GstCtfEventIter * it, const GArray * saved, guint ev)
{
  const GstCtfFieldValue *v;
  guint sc, n, i, k = 0;

  for (sc = GST_CTF_SCOPE_EVENT_HEADER; sc <= GST_CTF_SCOPE_EVENT_PAYLOAD;
      sc++) {
    v = gst_ctf_event_iter_get_values (it, sc, &n);
    for (i = 0; i < n; i++, k++) {
      const GstCtfFieldValue *o;

      ck_assert_msg (k < saved->len, "event %u: more values", ev);
      o = &g_array_index (saved, GstCtfFieldValue, k);
      ck_assert_msg (o->fc == v[i].fc && o->name == v[i].name &&
          o->end == v[i].end && o->v.u == v[i].v.u, "event %u: value %u "
          "differs", ev, k);
      if (v[i].fc->type == GST_CTF_FIELD_CLASS_STRING ||
          v[i].fc->type == GST_CTF_FIELD_CLASS_ARRAY ||
          v[i].fc->type == GST_CTF_FIELD_CLASS_SEQUENCE)
        ck_assert_uint_eq (o->v.s.len, v[i].v.s.len);
    }
  }
  ck_assert_uint_eq (k, saved->len);
}

/* gst_ctf_event_iter_set_position(): back to any event of a packet found
 * by a walk, it decodes the same event (class, clock, end, every value) as
 * the sequential pass; offsets outside the events are refused.  On the
 * bundled LTTng-UST sample (compact and extended headers: 27-bit
 * timestamps relative to the clock before the event). */
START_TEST (test_set_position)
{
  const gchar *ex = g_getenv ("GST_CTF_EXAMPLES");
  gchar *dir, *mpath, *text, *data;
  GError *err = NULL;
  GstCtfTraceClass *tc;
  GstCtfEventIter *it;
  GDir *d;
  const gchar *name;
  guint n_checked = 0;

  ck_assert_msg (ex != NULL, "GST_CTF_EXAMPLES not set");
  dir = g_build_filename (ex, "ust-sample", "ust", "uid", "0",
      "64-bit", NULL);
  mpath = g_build_filename (dir, "metadata", NULL);
  text = gst_ctf_metadata_load_file (mpath, &err);
  ck_assert_msg (text != NULL, "%s", err ? err->message : "");
  tc = gst_ctf_tsdl_parse (text, mpath, &err);
  ck_assert_msg (tc != NULL, "%s", err ? err->message : "");
  it = gst_ctf_event_iter_new (tc);
  d = g_dir_open (dir, 0, NULL);
  ck_assert (d != NULL);
  while ((name = g_dir_read_name (d)) != NULL) {
    gchar *path = g_build_filename (dir, name, NULL);
    gsize len = 0, off = 0;

    if (strcmp (name, "metadata") == 0 ||
        !g_file_test (path, G_FILE_TEST_IS_REGULAR) ||
        !g_file_get_contents (path, &data, &len, NULL)) {
      g_free (path);
      continue;
    }
    while (off < len) {
      const GstCtfPacketInfo *info;
      GArray *begins = g_array_new (FALSE, FALSE, sizeof (guint64));
      GArray *clocks = g_array_new (FALSE, FALSE, sizeof (guint64));
      guint64 start_clock, psize;
      guint e;

      /* pass 1: a walk; remember where each event starts and the clock
       * before it */
      gst_ctf_event_iter_set_recording (it, FALSE);
      ck_assert (gst_ctf_event_iter_set_packet (it, (guint8 *) data + off,
              len - off, NULL));
      info = gst_ctf_event_iter_get_packet_info (it);
      psize = info->packet_size / 8;
      start_clock = gst_ctf_event_iter_get_clock_value (it);
      g_array_append_val (clocks, start_clock);
      while (gst_ctf_event_iter_next (it, NULL)) {
        guint64 b = gst_ctf_event_iter_get_event_offset (it, NULL);
        guint64 c = gst_ctf_event_iter_get_clock_value (it);

        g_array_append_val (begins, b);
        g_array_append_val (clocks, c);
      }
      /* every event decoded again after set_position(), against a
       * recording sequential pass */
      for (e = 0; e < begins->len; e++) {
        GArray *saved = g_array_new (FALSE, FALSE, sizeof (GstCtfFieldValue));
        const GstCtfEventClass *ec;
        guint64 end, end2, c;
        guint sc, n, j;

        gst_ctf_event_iter_set_recording (it, TRUE);
        ck_assert (gst_ctf_event_iter_set_packet (it, (guint8 *) data + off,
                len - off, NULL));
        for (j = 0; j <= e; j++)
          ck_assert (gst_ctf_event_iter_next (it, NULL));
        ec = gst_ctf_event_iter_get_event_class (it);
        c = gst_ctf_event_iter_get_clock_value (it);
        gst_ctf_event_iter_get_event_offset (it, &end);
        for (sc = GST_CTF_SCOPE_EVENT_HEADER;
            sc <= GST_CTF_SCOPE_EVENT_PAYLOAD; sc++) {
          const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (it, sc,
              &n);
          g_array_append_vals (saved, v, n);
        }
        /* from a fresh packet state, and after a wrong clock value (the
         * one given to set_position() must win) */
        for (j = 0; j < 2; j++) {
          ck_assert (gst_ctf_event_iter_set_packet (it,
                  (guint8 *) data + off, len - off, NULL));
          if (j == 1)
            gst_ctf_event_iter_set_clock_value (it,
                G_GUINT64_CONSTANT (0x0123456789abcdef));
          ck_assert (gst_ctf_event_iter_set_position (it,
                  g_array_index (begins, guint64, e),
                  g_array_index (clocks, guint64, e)));
          ck_assert (gst_ctf_event_iter_next (it, NULL));
          ck_assert (gst_ctf_event_iter_get_event_class (it) == ec);
          ck_assert_uint_eq (gst_ctf_event_iter_get_clock_value (it), c);
          ck_assert_uint_eq (gst_ctf_event_iter_get_event_offset (it,
                  &end2), g_array_index (begins, guint64, e));
          ck_assert_uint_eq (end2, end);
          check_same_values (it, saved, e);
          n_checked++;
        }
        g_array_free (saved, TRUE);
      }
      /* outside the events: refused; the packet count moves with every
       * set_packet() only (not with events or positions) */
      {
        guint64 before = gst_ctf_event_iter_get_packet_count (it);

        ck_assert (gst_ctf_event_iter_set_packet (it, (guint8 *) data + off,
                len - off, NULL));
        ck_assert_uint_eq (gst_ctf_event_iter_get_packet_count (it),
            before + 1);
        ck_assert (gst_ctf_event_iter_next (it, NULL));
        ck_assert (gst_ctf_event_iter_set_position (it, info->events_offset,
                start_clock));
        ck_assert_uint_eq (gst_ctf_event_iter_get_packet_count (it),
            before + 1);
      }
      ck_assert (!gst_ctf_event_iter_set_position (it, info->content_size + 1,
              0));
      ck_assert (!gst_ctf_event_iter_set_position (it,
              info->events_offset - 1, 0));
      g_array_free (begins, TRUE);
      g_array_free (clocks, TRUE);
      ck_assert (psize > 0);
      off += psize;
    }
    g_free (data);
    g_free (path);
  }
  g_dir_close (d);
  ck_assert_uint_gt (n_checked, 100);
  g_print ("set_position: %u events decoded again, all equal\n",
      n_checked / 2);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
  g_free (text);
  g_free (mpath);
  g_free (dir);
}
END_TEST;

static Suite *
reader_suite (void)
{
  Suite *s = suite_create ("packet reader");
  TCase *tc = tcase_create ("unit");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_bit_packed_random, 0, 10);
  tcase_add_test (tc, test_bit_packed_known);
  tcase_add_test (tc, test_floats);
  tcase_add_test (tc, test_float_text_is_printf);
  tcase_add_test (tc, test_integer_text_is_printf);
  tcase_add_test (tc, test_time_text_is_printf);
  tcase_add_test (tc, test_timestamp_wrap_27);
  tcase_add_test (tc, test_unknown_event_class);
  tcase_add_test (tc, test_variant_sequence_text);
  tcase_add_test (tc, test_array_of_variants);
  tcase_add_test (tc, test_sequence_bounds);
  tcase_add_test (tc, test_nested_empty_sequences);
  tcase_add_test (tc, test_packet_info_errors);
  tcase_add_test (tc, test_no_packet_size);
  tcase_add_test (tc, test_clock_conversion);
  tcase_add_test (tc, test_set_position);

  if (g_getenv ("GST_CTF_READER_NO_CORPUS") == NULL) {
    TCase *tcc = tcase_create ("corpus");

    suite_add_tcase (s, tcc);
    tcase_set_timeout (tcc, 300);
    tcase_add_loop_test (tcc, test_corpus_lttng_ust, 0,
        G_N_ELEMENTS (lttng_units));
    tcase_add_test (tcc, test_corpus_babeltrace_succeed);
    tcase_add_test (tcc, test_corpus_tracecompass);
    tcase_add_test (tcc, test_corpus_valid_then_invalid);
  }
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (reader_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : 0;
}
