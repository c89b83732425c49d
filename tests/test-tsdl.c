/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the TSDL lexer/parser/resolve pass and of metadata
 * loading, plus corpus tests over $GST_CTF_CORPUS/ctf: every metadata of a
 * unit babeltrace2 read parses, the fail/ units fail with the right error
 * code, the CTF 2 drafts of other/ctf2 are refused naming the fragment
 * (but the two babeltrace2 2.1 reads), and packetized metadata de-packetizes to the
 * oracle text (`babeltrace2 -o ctf-metadata`, which adds one newline).
 */
#include <gst/check/gstcheck.h>
#include <string.h>
#include <glib/gstdio.h>

#include "gstctf-metadata.h"
#include "gstctf-tsdl-writer.h"

#define PREAMBLE "/* CTF 1.8 */\n" \
  "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n" \
  "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n" \
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n" \
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n" \
  "trace { major = 1; minor = 8; byte_order = le; };\n"

static GstCtfTraceClass *
parse_ok (const gchar * text)
{
  GError *err = NULL;
  GstCtfTraceClass *tc = gst_ctf_tsdl_parse (text, "test", &err);

  if (tc == NULL)
    ck_abort_msg ("parse failed: %s\n--- text:\n%s", err->message, text);
  return tc;
}

static GError *
parse_fail (const gchar * text, gint code)
{
  GError *err = NULL;
  GstCtfTraceClass *tc = gst_ctf_tsdl_parse (text, "test", &err);

  ck_assert_msg (tc == NULL, "parse unexpectedly succeeded:\n%s", text);
  ck_assert (err != NULL);
  ck_assert_msg (err->domain == GST_CTF_ERROR && err->code == code,
      "expected code %d, got %d: %s", code, err->code, err->message);
  return err;
}

static const GstCtfEventClass *
first_event (GstCtfTraceClass * tc)
{
  GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, 0);

  ck_assert_uint_ge (sc->event_classes->len, 1);
  return g_ptr_array_index (sc->event_classes, 0);
}

static const GstCtfFieldClass *
member (const GstCtfFieldClass * fc, const gchar * name)
{
  const GstCtfFieldClass *m = gst_ctf_field_class_find_member (fc, name, NULL);

  ck_assert_msg (m != NULL, "no member %s", name);
  return m;
}

/* ---------------------------------------------------------------------- */


START_TEST (test_integer_attributes)
{
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "clock { name = monotonic; freq = 1000; };\n"
      "event { name = ev; fields := struct {\n"
      "  integer { size = 3; signed = true; base = hex; } a;\n"
      "  integer { size = 16; align = 16; byte_order = be; base = oct;"
      " encoding = UTF8; } b;\n"
      "  integer { size = 64; byte_order = network; base = b; } c;\n"
      "  integer { size = 32; byte_order = native; base = x;"
      " map = clock.monotonic.value; } d;\n"
      "  integer { size = 8; signed = 1; base = decimal; encoding = ASCII; } e;\n"
      "  integer { size = 8; base = p; } f;\n"
      "}; };\n");
  const GstCtfFieldClass *p = first_event (tc)->payload, *m;

  m = member (p, "a");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_INTEGER);
  ck_assert_uint_eq (m->integer.size, 3);
  ck_assert (m->integer.is_signed);
  ck_assert_uint_eq (m->integer.base, 16);
  ck_assert_uint_eq (m->alignment, 1);
  ck_assert_int_eq (m->integer.byte_order, GST_CTF_BYTE_ORDER_LE);
  m = member (p, "b");
  ck_assert_uint_eq (m->alignment, 16);
  ck_assert_int_eq (m->integer.byte_order, GST_CTF_BYTE_ORDER_BE);
  ck_assert_uint_eq (m->integer.base, 8);
  ck_assert_int_eq (m->integer.encoding, GST_CTF_ENCODING_UTF8);
  m = member (p, "c");
  ck_assert_int_eq (m->integer.byte_order, GST_CTF_BYTE_ORDER_BE);
  ck_assert_uint_eq (m->integer.base, 2);
  ck_assert_uint_eq (m->alignment, 8);
  m = member (p, "d");
  ck_assert_int_eq (m->integer.byte_order, GST_CTF_BYTE_ORDER_LE);
  ck_assert_uint_eq (m->integer.base, 16);
  ck_assert (m->integer.mapped_clock != NULL);
  ck_assert_str_eq (m->integer.mapped_clock->name, "monotonic");
  ck_assert_int_eq (m->meaning, GST_CTF_MEANING_TIMESTAMP);
  m = member (p, "e");
  ck_assert (m->integer.is_signed);
  ck_assert_int_eq (m->integer.encoding, GST_CTF_ENCODING_ASCII);
  m = member (p, "f");
  ck_assert_uint_eq (m->integer.base, 16);
  /* struct alignment = most aligned member */
  ck_assert_uint_eq (p->alignment, 16);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_native_byte_order_declared_before_trace)
{
  GstCtfTraceClass *tc = parse_ok ("/* CTF 1.8 */\n"
      "typealias integer { size = 32; byte_order = native; } := u32;\n"
      "typealias floating_point { exp_dig = 8; mant_dig = 24; } := f32;\n"
      "trace { major = 1; minor = 8; byte_order = be; };\n"
      "event { name = e; fields := struct { u32 a; f32 b;"
      " floating_point { exp_dig = 11; mant_dig = 53; byte_order = le;"
      " align = 64; } c; }; };\n");
  const GstCtfFieldClass *p = first_event (tc)->payload, *m;

  ck_assert_int_eq (tc->byte_order, GST_CTF_BYTE_ORDER_BE);
  ck_assert_int_eq (member (p, "a")->integer.byte_order,
      GST_CTF_BYTE_ORDER_BE);
  m = member (p, "b");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_FLOAT);
  ck_assert_uint_eq (m->floating.exp_dig, 8);
  ck_assert_uint_eq (m->floating.mant_dig, 24);
  ck_assert_int_eq (m->floating.byte_order, GST_CTF_BYTE_ORDER_BE);
  m = member (p, "c");
  ck_assert_uint_eq (m->floating.mant_dig, 53);
  ck_assert_uint_eq (m->alignment, 64);
  ck_assert_int_eq (m->floating.byte_order, GST_CTF_BYTE_ORDER_LE);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_multiword_alias_and_typedef)
{
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "typealias integer { size = 64; signed = false; } := unsigned long;\n"
      "typealias integer { size = 32; signed = true; } := long int;\n"
      "typealias integer { size = 32; } := void *;\n"
      "typedef integer { size = 16; signed = true; } s16_t, s16x2_t[2];\n"
      "typealias uint8_t [4] := quad_t;\n"
      "event { name = e; fields := struct {\n"
      "  unsigned long a; long int b; void * c; s16_t d; s16x2_t e;"
      " quad_t f; const uint8_t g;\n"
      "}; };\n");
  const GstCtfFieldClass *p = first_event (tc)->payload, *m;

  ck_assert_uint_eq (p->n_members, 7);
  ck_assert_uint_eq (member (p, "a")->integer.size, 64);
  ck_assert (member (p, "b")->integer.is_signed);
  ck_assert_uint_eq (member (p, "c")->integer.size, 32);
  ck_assert_uint_eq (member (p, "d")->integer.size, 16);
  m = member (p, "e");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_ARRAY);
  ck_assert_uint_eq (m->length, 2);
  ck_assert_uint_eq (m->element->integer.size, 16);
  m = member (p, "f");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_ARRAY);
  ck_assert_uint_eq (m->length, 4);
  ck_assert_uint_eq (member (p, "g")->integer.size, 8);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_alias_copies_are_distinct)
{
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "struct s { uint8_t len; uint8_t d[len]; };\n"
      "event { name = e; fields := struct { struct s x; struct s y; }; };\n");
  const GstCtfFieldClass *p = first_event (tc)->payload;
  const GstCtfFieldClass *x = member (p, "x"), *y = member (p, "y");

  ck_assert_ptr_ne (x, y);
  ck_assert_ptr_ne (member (x, "len"), member (y, "len"));
  ck_assert_ptr_eq (member (x, "d")->ref_target, member (x, "len"));
  ck_assert_ptr_eq (member (y, "d")->ref_target, member (y, "len"));
  ck_assert_int_ne (member (x, "len")->value_slot,
      member (y, "len")->value_slot);
  ck_assert_uint_eq (tc->n_value_slots, 2);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_struct_named_and_align)
{
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "struct hdr { uint8_t a; } align(32);\n"
      "event { name = e; fields := struct { struct hdr h;"
      " struct { uint16_t b; } align(4) anon;"
      " struct nested { uint8_t c; } n1; struct nested n2; }; };\n");
  const GstCtfFieldClass *p = first_event (tc)->payload, *m;

  m = member (p, "h");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_STRUCT);
  ck_assert_uint_eq (m->alignment, 32);
  ck_assert_uint_eq (member (p, "anon")->alignment, 8);
  ck_assert_uint_eq (member (member (p, "n2"), "c")->integer.size, 8);
  ck_assert_uint_eq (p->alignment, 32);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_enum)
{
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "typealias integer { size = 32; signed = true; } := int;\n"
      "enum named : uint8_t { X, Y };\n"
      "event { name = e; fields := struct {\n"
      "  enum : uint8_t { A, B = 5, C, \"quoted label\" = 10 ... 20, D, } a;\n"
      "  enum { NEG = -3, ZERO = 0 ... 0, AUTO } b;\n"
      "  enum named c;\n"
      "}; };\n");
  const GstCtfFieldClass *p = first_event (tc)->payload, *m;

  m = member (p, "a");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_ENUM);
  ck_assert_uint_eq (m->integer.size, 8);
  ck_assert_uint_eq (m->enumeration.n_mappings, 5);
  ck_assert_str_eq (m->enumeration.mappings[0].label, "A");
  ck_assert_uint_eq (m->enumeration.mappings[0].lower, 0);
  ck_assert_uint_eq (m->enumeration.mappings[1].lower, 5);
  ck_assert_str_eq (m->enumeration.mappings[2].label, "C");
  ck_assert_uint_eq (m->enumeration.mappings[2].lower, 6);
  ck_assert_str_eq (m->enumeration.mappings[3].label, "quoted label");
  ck_assert_uint_eq (m->enumeration.mappings[3].lower, 10);
  ck_assert_uint_eq (m->enumeration.mappings[3].upper, 20);
  ck_assert_uint_eq (m->enumeration.mappings[4].lower, 21);
  m = member (p, "b");
  ck_assert (m->integer.is_signed);
  ck_assert_uint_eq (m->integer.size, 32);
  ck_assert_int_eq ((gint64) m->enumeration.mappings[0].lower, -3);
  ck_assert_int_eq ((gint64) m->enumeration.mappings[2].lower, 1);
  m = member (p, "c");
  ck_assert_uint_eq (m->enumeration.n_mappings, 2);
  ck_assert_str_eq (m->enumeration.mappings[1].label, "Y");
  gst_ctf_trace_class_unref (tc);
}
END_TEST

/* Value slots: the packet header's targets first, then each stream
 * class's numbered from the same base (a packet uses only its own stream
 * class's), so n_value_slots follows the largest stream class. */
START_TEST (test_value_slots_per_stream_class)
{
  GstCtfTraceClass *tc = parse_ok ("/* CTF 1.8 */\n"
      "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
      "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
      "trace { major = 1; minor = 8; byte_order = le;\n"
      "  packet.header := struct { uint32_t magic; uint8_t hn;\n"
      "  uint8_t hseq[hn]; uint32_t stream_id; }; };\n"
      "stream { id = 0; event.header := struct { uint32_t id; }; };\n"
      "stream { id = 1; event.header := struct { uint32_t id; }; };\n"
      "event { name = a; id = 0; stream_id = 0; fields := struct {\n"
      "  uint8_t n; uint8_t seq[n]; uint8_t m; uint8_t seq2[m]; }; };\n"
      "event { name = b; id = 1; stream_id = 0; fields := struct {\n"
      "  uint8_t k; uint8_t seq[k];\n"
      "  uint8_t hs[trace.packet.header.hn]; }; };\n"
      "event { name = c; id = 0; stream_id = 1; fields := struct {\n"
      "  uint8_t n; uint8_t seq[n]; }; };\n");
  GstCtfStreamClass *s0 = gst_ctf_trace_class_find_stream_class (tc, 0);
  GstCtfStreamClass *s1 = gst_ctf_trace_class_find_stream_class (tc, 1);
  const GstCtfEventClass *a, *b, *c;

  ck_assert (s0 != NULL && s1 != NULL);
  a = gst_ctf_stream_class_find_event_class (s0, 0);
  b = gst_ctf_stream_class_find_event_class (s0, 1);
  c = gst_ctf_stream_class_find_event_class (s1, 0);
  /* header: slot 0; stream 0: n, m, k at 1..3; stream 1: n at 1 */
  ck_assert_int_eq (member (tc->packet_header, "hn")->value_slot, 0);
  ck_assert_int_eq (member (a->payload, "n")->value_slot, 1);
  ck_assert_int_eq (member (a->payload, "m")->value_slot, 2);
  ck_assert_int_eq (member (b->payload, "k")->value_slot, 3);
  ck_assert_int_eq (member (c->payload, "n")->value_slot, 1);
  ck_assert_uint_eq (tc->n_value_slots, 4);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_arrays_sequences)
{
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "event { name = e; context := struct { uint32_t clen; };\n"
      "  fields := struct {\n"
      "  uint8_t arr[2][3];\n"
      "  uint16_t n;\n"
      "  uint8_t seq[n];\n"
      "  uint32_t mat[n][4];\n"
      "  string str;\n"
      "  string { encoding = ASCII; } str2;\n"
      "  uint8_t abs_seq[event.context.clen];\n"
      "}; };\n");
  const GstCtfEventClass *ec = first_event (tc);
  const GstCtfFieldClass *p = ec->payload, *m;

  m = member (p, "arr");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_ARRAY);
  ck_assert_uint_eq (m->length, 2);
  ck_assert_int_eq (m->element->type, GST_CTF_FIELD_CLASS_ARRAY);
  ck_assert_uint_eq (m->element->length, 3);
  m = member (p, "seq");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_SEQUENCE);
  ck_assert_str_eq (m->ref_path, "n");
  ck_assert_ptr_eq (m->ref_target, member (p, "n"));
  ck_assert_int_ge (member (p, "n")->value_slot, 0);
  m = member (p, "mat");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_SEQUENCE);
  ck_assert_int_eq (m->element->type, GST_CTF_FIELD_CLASS_ARRAY);
  ck_assert_uint_eq (m->alignment, 8);
  ck_assert_int_eq (member (p, "str")->type, GST_CTF_FIELD_CLASS_STRING);
  ck_assert_int_eq (member (p, "str2")->string.encoding,
      GST_CTF_ENCODING_ASCII);
  m = member (p, "abs_seq");
  ck_assert_ptr_eq (m->ref_target, member (ec->context, "clen"));
  ck_assert_uint_eq (tc->n_value_slots, 2);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_variants)
{
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "typealias enum : uint8_t { I, S } := sel_t;\n"
      "variant untagged { uint32_t I; string S; };\n"
      "event { name = e; fields := struct {\n"
      "  sel_t tag;\n"
      "  variant <tag> { uint32_t I; string S; } v1;\n"
      "  variant untagged <tag> v2;\n"
      "  struct { variant <event.fields.tag> { uint8_t I; uint8_t S; } v; } s;\n"
      "}; };\n");
  const GstCtfFieldClass *p = first_event (tc)->payload, *m, *tag;

  tag = member (p, "tag");
  ck_assert_int_eq (tag->type, GST_CTF_FIELD_CLASS_ENUM);
  m = member (p, "v1");
  ck_assert_int_eq (m->type, GST_CTF_FIELD_CLASS_VARIANT);
  ck_assert_uint_eq (m->n_members, 2);
  ck_assert_ptr_eq (m->ref_target, tag);
  m = member (p, "v2");
  ck_assert_str_eq (m->ref_path, "tag");
  ck_assert_ptr_eq (m->ref_target, tag);
  m = member (member (p, "s"), "v");
  ck_assert_ptr_eq (m->ref_target, tag);
  ck_assert_uint_eq (tc->n_value_slots, 1);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

static const gchar *lttng_like =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
    "trace { major = 1; minor = 8;\n"
    "  uuid = \"4877f7b2-b939-485d-8d8f-8914f057388b\"; byte_order = le;\n"
    "  packet.header := struct { uint32_t magic; uint8_t uuid[16];\n"
    "    uint32_t stream_id; uint64_t stream_instance_id; };\n"
    "};\n"
    "env { hostname = \"vm\"; tracer_name = \"lttng-ust\"; tracer_major = 2;"
    " neg = -5; };\n"
    "clock { name = \"monotonic\"; uuid = \"f46967a1-c29b-4a8c-8274-0d3e0f094dac\";\n"
    "  description = \"Monotonic Clock\"; freq = 1000000000;\n"
    "  offset = 1795305072242605315; };\n"
    "typealias integer { size = 27; align = 1; signed = false;\n"
    "  map = clock.monotonic.value; } := uint27_clock_monotonic_t;\n"
    "typealias integer { size = 64; align = 8; signed = false;\n"
    "  map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n"
    "struct packet_context { uint64_clock_monotonic_t timestamp_begin;\n"
    "  uint64_clock_monotonic_t timestamp_end; uint64_t content_size;\n"
    "  uint64_t packet_size; uint64_t packet_seq_num;\n"
    "  uint64_t events_discarded; uint32_t cpu_id; };\n"
    "struct event_header_compact {\n"
    "  enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "  variant <id> { struct { uint27_clock_monotonic_t timestamp; } compact;\n"
    "    struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;\n"
    "  } v; } align(8);\n"
    "stream { id = 0; event.header := struct event_header_compact;\n"
    "  packet.context := struct packet_context;\n"
    "  event.context := struct { integer { size = 32; align = 8; signed = 1;"
    " encoding = none; base = 10; } _vtid; }; };\n"
    "event { name = \"a:b\"; id = 3; stream_id = 0; loglevel = 13;\n"
    "  model.emf.uri = \"http://x\";\n"
    "  fields := struct { integer { size = 32; align = 8; signed = 0; } __msg_length;\n"
    "  integer { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; }"
    " _msg[ __msg_length ]; }; };\n"
    "callsite { name = \"a:b\"; func = \"f\"; ip = 0x1234; file = \"x.c\";"
    " line = 12; };\n";

START_TEST (test_lttng_like_trace)
{
  GstCtfTraceClass *tc = parse_ok (lttng_like);
  GstCtfStreamClass *sc;
  const GstCtfEventClass *ec;
  const GstCtfFieldClass *h, *v, *m;
  GstCtfClockClass *cc;
  const GstCtfEnvEntry *e;

  ck_assert_uint_eq (tc->major, 1);
  ck_assert_uint_eq (tc->minor, 8);
  ck_assert (tc->has_uuid);
  ck_assert_uint_eq (tc->uuid[0], 0x48);
  ck_assert_uint_eq (tc->uuid[15], 0x8b);
  h = tc->packet_header;
  ck_assert_int_eq (member (h, "magic")->meaning, GST_CTF_MEANING_MAGIC);
  ck_assert_int_eq (member (h, "uuid")->meaning, GST_CTF_MEANING_UUID);
  ck_assert_int_eq (member (h, "stream_id")->meaning,
      GST_CTF_MEANING_STREAM_CLASS_ID);
  ck_assert_int_eq (member (h, "stream_instance_id")->meaning,
      GST_CTF_MEANING_STREAM_INSTANCE_ID);

  e = gst_ctf_trace_class_find_env (tc, "hostname");
  ck_assert (e != NULL && e->is_string);
  ck_assert_str_eq (e->str, "vm");
  e = gst_ctf_trace_class_find_env (tc, "tracer_major");
  ck_assert (e != NULL && !e->is_string);
  ck_assert_int_eq (e->integer, 2);
  ck_assert_int_eq (gst_ctf_trace_class_find_env (tc, "neg")->integer, -5);

  ck_assert_uint_eq (tc->clock_classes->len, 1);
  cc = g_ptr_array_index (tc->clock_classes, 0);
  ck_assert_str_eq (cc->name, "monotonic");
  ck_assert_str_eq (cc->description, "Monotonic Clock");
  ck_assert (cc->has_uuid);
  ck_assert_uint_eq (cc->freq, 1000000000);
  /* offset normalized below freq, as babeltrace2 does */
  ck_assert_int_eq (cc->offset_s, 1795305072);
  ck_assert_int_eq (cc->offset, 242605315);
  ck_assert (!cc->absolute);
  ck_assert (cc->origin_is_unix_epoch);       /* LTTng `monotonic` quirk */

  sc = gst_ctf_trace_class_find_stream_class (tc, 0);
  ck_assert (sc != NULL);
  ck_assert_ptr_eq (sc->default_clock, cc);
  m = member (sc->packet_context, "timestamp_begin");
  ck_assert_int_eq (m->meaning, GST_CTF_MEANING_TIMESTAMP_BEGIN);
  ck_assert_ptr_eq (m->integer.mapped_clock, cc);
  ck_assert_int_eq (member (sc->packet_context, "timestamp_end")->meaning,
      GST_CTF_MEANING_TIMESTAMP_END);
  ck_assert_int_eq (member (sc->packet_context, "content_size")->meaning,
      GST_CTF_MEANING_CONTENT_SIZE);
  ck_assert_int_eq (member (sc->packet_context, "packet_size")->meaning,
      GST_CTF_MEANING_PACKET_SIZE);
  ck_assert_int_eq (member (sc->packet_context, "packet_seq_num")->meaning,
      GST_CTF_MEANING_PACKET_SEQ_NUM);
  ck_assert_int_eq (member (sc->packet_context, "events_discarded")->meaning,
      GST_CTF_MEANING_EVENTS_DISCARDED);
  ck_assert_int_eq (member (sc->packet_context, "cpu_id")->meaning,
      GST_CTF_MEANING_NONE);

  ck_assert_uint_eq (sc->event_header->alignment, 8);
  m = member (sc->event_header, "id");
  ck_assert_int_eq (m->meaning, GST_CTF_MEANING_EVENT_CLASS_ID);
  ck_assert_int_ge (m->value_slot, 0);
  v = member (sc->event_header, "v");
  ck_assert_ptr_eq (v->ref_target, m);
  ck_assert_int_eq (member (member (v, "extended"), "id")->meaning,
      GST_CTF_MEANING_EVENT_CLASS_ID);
  ck_assert_int_eq (member (member (v, "extended"), "timestamp")->meaning,
      GST_CTF_MEANING_TIMESTAMP);
  ck_assert_int_eq (member (member (v, "compact"), "timestamp")->meaning,
      GST_CTF_MEANING_TIMESTAMP);
  ck_assert_uint_eq (member (sc->event_common_context, "_vtid")->integer.size,
      32);

  ec = gst_ctf_stream_class_find_event_class (sc, 3);
  ck_assert (ec != NULL);
  ck_assert_str_eq (ec->name, "a:b");
  ck_assert_int_eq (ec->loglevel, 13);
  ck_assert_str_eq (ec->model_emf_uri, "http://x");
  ck_assert_uint_eq (ec->stream_class_id, 0);
  m = member (ec->payload, "_msg");
  ck_assert_ptr_eq (m->ref_target, member (ec->payload, "__msg_length"));
  ck_assert_uint_eq (tc->n_value_slots, 2);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_scoping)
{
  GstCtfTraceClass *tc;
  GError *err;

  /* a block's typealias is visible inside it, not after it */
  tc = parse_ok (PREAMBLE
      "stream { typealias integer { size = 12; } := u12;\n"
      "  event.header := struct { u12 a; struct { u12 b; } s; }; };\n");
  gst_ctf_trace_class_unref (tc);
  err = parse_fail (PREAMBLE
      "stream { typealias integer { size = 12; } := u12; };\n"
      "event { name = e; fields := struct { u12 a; }; };\n",
      GST_CTF_ERROR_METADATA_SYNTAX);
  ck_assert (strstr (err->message, "line 8") != NULL);
  g_error_free (err);
  /* a struct body's declarations are local to it */
  err = parse_fail (PREAMBLE
      "event { name = e; fields := struct {\n"
      "  struct { typealias integer { size = 4; } := u4; u4 x; } s;\n"
      "  u4 y; }; };\n", GST_CTF_ERROR_METADATA_SYNTAX);
  g_error_free (err);
}
END_TEST

START_TEST (test_scoped_lookups)
{
  /* babeltrace's meta-ctx-sequence: sequences in stream contexts, a
   * stream without id, no event at all */
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "stream {\n"
      "  event.context := struct { uint8_t __evt_ctx_seq_length;\n"
      "    uint8_t _evt_ctx_seq[ __evt_ctx_seq_length ]; };\n"
      "  packet.context := struct { uint8_t __pkt_ctx_seq_length;\n"
      "    uint8_t _pkt_ctx_seq[ __pkt_ctx_seq_length ]; };\n"
      "};\n");
  GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, 0);
  const GstCtfFieldClass *m;

  m = member (sc->event_common_context, "_evt_ctx_seq");
  ck_assert_ptr_eq (m->ref_target, member (sc->event_common_context,
          "__evt_ctx_seq_length"));
  m = member (sc->packet_context, "_pkt_ctx_seq");
  ck_assert_ptr_eq (m->ref_target, member (sc->packet_context,
          "__pkt_ctx_seq_length"));
  ck_assert_uint_eq (tc->n_value_slots, 2);
  gst_ctf_trace_class_unref (tc);

  /* relative lookup from inside a variant option reaches the enclosing
   * structures; absolute paths reach earlier dynamic scopes */
  tc = parse_ok (PREAMBLE
      "typealias enum : uint8_t { A, B } := sel_t;\n"
      "stream { id = 0; event.header := struct { sel_t id; uint8_t n; };\n"
      "  packet.context := struct { uint16_t cnt; }; };\n"
      "event { name = e; stream_id = 0; fields := struct {\n"
      "  uint8_t len;\n"
      "  variant <stream.event.header.id> {\n"
      "    struct { uint8_t d[len]; } A;\n"
      "    struct { uint8_t inner; uint8_t e[inner]; uint8_t f[len]; } B;\n"
      "  } v;\n"
      "  uint8_t g[stream.packet.context.cnt];\n"
      "}; };\n");
  sc = g_ptr_array_index (tc->stream_classes, 0);
  {
    const GstCtfFieldClass *p = first_event (tc)->payload;
    const GstCtfFieldClass *v = member (p, "v"), *b = member (v, "B");

    ck_assert_ptr_eq (v->ref_target, member (sc->event_header, "id"));
    ck_assert_ptr_eq (member (member (v, "A"), "d")->ref_target,
        member (p, "len"));
    ck_assert_ptr_eq (member (b, "e")->ref_target, member (b, "inner"));
    ck_assert_ptr_eq (member (p, "g")->ref_target,
        member (sc->packet_context, "cnt"));
  }
  gst_ctf_trace_class_unref (tc);

  /* `n` of the event header is not reachable by a relative path from the
   * payload (babeltrace2 only looks in the current dynamic scope) */
  g_error_free (parse_fail (PREAMBLE
          "stream { event.header := struct { uint8_t n; }; };\n"
          "event { name = e; fields := struct { uint8_t f[n]; }; };\n",
          GST_CTF_ERROR_METADATA_INVALID));
  /* an absolute path into a later scope is refused */
  g_error_free (parse_fail (PREAMBLE
          "stream { event.header := struct { uint8_t f[event.fields.n]; }; };\n"
          "event { name = e; fields := struct { uint8_t n; }; };\n",
          GST_CTF_ERROR_METADATA_INVALID));
  /* a tag in another option of the same variant is refused */
  g_error_free (parse_fail (PREAMBLE
          "typealias enum : uint8_t { A, B } := sel_t;\n"
          "event { name = e; fields := struct { sel_t s; variant <s> {\n"
          "  uint8_t A; uint8_t B[event.fields.v.A]; } v; }; };\n",
          GST_CTF_ERROR_METADATA_INVALID));
}
END_TEST

START_TEST (test_c_types_and_keywords_as_names)
{
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "typealias integer { size = 8; } := _Bool;\n"
      "typealias integer { size = 16; signed = true; } := short;\n"
      "typealias integer { size = 64; signed = true; } := long long int;\n"
      "event { name = string; fields := struct { _Bool b; short s;"
      " long long int l;\n"
      "  enum : uint8_t { _align, _callsite, _struct, string, event } e; }; };\n");
  const GstCtfEventClass *ec = first_event (tc);

  ck_assert_str_eq (ec->name, "string");
  ck_assert_uint_eq (member (ec->payload, "b")->integer.size, 8);
  ck_assert_uint_eq (member (ec->payload, "s")->integer.size, 16);
  ck_assert_uint_eq (member (ec->payload, "l")->integer.size, 64);
  ck_assert_str_eq (member (ec->payload, "e")->enumeration.mappings[3].label,
      "string");
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_implicit_stream_and_ids)
{
  GstCtfTraceClass *tc = parse_ok (PREAMBLE
      "event { name = only; fields := struct { uint8_t x; }; };\n");
  GstCtfStreamClass *sc;

  ck_assert_uint_eq (tc->stream_classes->len, 1);
  sc = g_ptr_array_index (tc->stream_classes, 0);
  ck_assert_uint_eq (sc->id, 0);
  ck_assert_uint_eq (sc->event_classes->len, 1);
  ck_assert (gst_ctf_stream_class_find_event_class (sc, 0) != NULL);
  ck_assert (sc->default_clock == NULL);
  gst_ctf_trace_class_unref (tc);

  /* event without stream_id goes to the only stream class */
  tc = parse_ok (PREAMBLE "stream { id = 7; };\n"
      "event { name = a; id = 1; };\n");
  sc = gst_ctf_trace_class_find_stream_class (tc, 7);
  ck_assert (sc != NULL);
  ck_assert (gst_ctf_stream_class_find_event_class (sc, 1) != NULL);
  gst_ctf_trace_class_unref (tc);

  g_error_free (parse_fail (PREAMBLE "stream { id = 1; }; stream { id = 2; };"
          "event { name = a; };", GST_CTF_ERROR_METADATA_INVALID));
  g_error_free (parse_fail (PREAMBLE
          "event { name = a; id = 1; }; event { name = b; id = 1; };",
          GST_CTF_ERROR_METADATA_INVALID));
  g_error_free (parse_fail (PREAMBLE "event { name = a; stream_id = 4; };",
          GST_CTF_ERROR_METADATA_INVALID));
  g_error_free (parse_fail (PREAMBLE "event { id = 2; };",
          GST_CTF_ERROR_METADATA_INVALID));
}
END_TEST

START_TEST (test_clock_quirks)
{
  GstCtfTraceClass *tc;
  GstCtfStreamClass *sc;
  GstCtfClockClass *cc;

  /* unmapped timestamp_begin/end and event header timestamp -> the single
   * clock; absolute = true -> Unix epoch origin */
  tc = parse_ok (PREAMBLE
      "clock { name = c0; freq = 1000; offset_s = -10; offset = 2500;"
      " absolute = TRUE; precision = 3; };\n"
      "stream { packet.context := struct { uint64_t timestamp_begin;"
      " uint64_t timestamp_end; };\n"
      "  event.header := struct { uint8_t id; uint32_t timestamp; }; };\n");
  cc = g_ptr_array_index (tc->clock_classes, 0);
  ck_assert (cc->absolute);
  ck_assert (cc->origin_is_unix_epoch);
  ck_assert_int_eq (cc->offset_s, -8);
  ck_assert_int_eq (cc->offset, 500);
  ck_assert_uint_eq (cc->precision, 3);
  sc = g_ptr_array_index (tc->stream_classes, 0);
  ck_assert_ptr_eq (member (sc->packet_context,
          "timestamp_begin")->integer.mapped_clock, cc);
  ck_assert_ptr_eq (member (sc->event_header, "timestamp")->integer.mapped_clock,
      cc);
  ck_assert_int_eq (member (sc->event_header, "timestamp")->meaning,
      GST_CTF_MEANING_TIMESTAMP);
  ck_assert_ptr_eq (sc->default_clock, cc);
  gst_ctf_trace_class_unref (tc);

  /* no clock at all: implicit 1 GHz `default` clock */
  tc = parse_ok (PREAMBLE
      "stream { event.header := struct { uint32_t timestamp; }; };\n");
  ck_assert_uint_eq (tc->clock_classes->len, 1);
  cc = g_ptr_array_index (tc->clock_classes, 0);
  ck_assert_str_eq (cc->name, "default");
  ck_assert_uint_eq (cc->freq, 1000000000);
  ck_assert (!cc->origin_is_unix_epoch);
  gst_ctf_trace_class_unref (tc);

  /* a clock nothing maps to is not a default clock (babeltrace2 prints no
   * timestamps then); non-LTTng monotonic is not Unix epoch */
  tc = parse_ok (PREAMBLE "clock { name = monotonic; };\n"
      "event { name = e; };\n");
  sc = g_ptr_array_index (tc->stream_classes, 0);
  ck_assert (sc->default_clock == NULL);
  cc = g_ptr_array_index (tc->clock_classes, 0);
  ck_assert (!cc->origin_is_unix_epoch);
  gst_ctf_trace_class_unref (tc);

  g_error_free (parse_fail (PREAMBLE
          "clock { name = a; }; clock { name = b; };\n"
          "stream { event.header := struct { uint32_t timestamp; }; };\n",
          GST_CTF_ERROR_METADATA_INVALID));
  g_error_free (parse_fail (PREAMBLE
          "event { name = e; fields := struct { integer { size = 8;"
          " map = clock.nope.value; } x; }; };\n",
          GST_CTF_ERROR_METADATA_INVALID));
  g_error_free (parse_fail (PREAMBLE "clock { freq = 10; };",
          GST_CTF_ERROR_METADATA_INVALID));
  g_error_free (parse_fail (PREAMBLE "clock { name = x; freq = 0; };",
          GST_CTF_ERROR_METADATA_INVALID));
}
END_TEST

START_TEST (test_lexer)
{
  GstCtfTraceClass *tc = parse_ok ("/* CTF 1.8 */\r\n"
      "// line comment\r\n"
      "typealias integer { size = 0x20; align = 010; signed = false; }"
      " := u32; /* multi\r\n line */\r\n"
      "trace { major = 1U; minor = 8UL; byte_order = le; };\r\n"
      "env { s = \"a\\\"b\\\\c\\n\\t\\x41\\101\\?\\'\"; c = 'x'; u = 18446744073709551615ULL; };\r\n"
      "event { name = e; fields := struct { u32 x; }; };\r\n");
  const GstCtfEnvEntry *e = gst_ctf_trace_class_find_env (tc, "s");

  ck_assert_str_eq (e->str, "a\"b\\c\n\tAA?'");
  ck_assert_str_eq (gst_ctf_trace_class_find_env (tc, "c")->str, "x");
  ck_assert_int_eq (gst_ctf_trace_class_find_env (tc, "u")->integer, -1);
  ck_assert_uint_eq (member (first_event (tc)->payload, "x")->alignment, 8);
  ck_assert_uint_eq (member (first_event (tc)->payload, "x")->integer.size,
      32);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

static void
check_error_at (const gchar * text, gint code, const gchar * where)
{
  GError *err = parse_fail (text, code);

  ck_assert_msg (strstr (err->message, where) != NULL,
      "expected \"%s\" in: %s", where, err->message);
  g_error_free (err);
}

START_TEST (test_syntax_errors)
{
  /* the second integer block is not lexed again (the parser keeps the
   * first one's class): lines and columns after it still count */
  check_error_at ("/* CTF 1.8 */\n"
      "typealias integer {\n size = 8; align = 8;\n} := a_t;\n"
      "typealias integer {\n size = 8; align = 8;\n} := b_t;\n"
      "typealias integer { size = 8; ] := c_t;\n",
      GST_CTF_ERROR_METADATA_SYNTAX, "line 8, column 31");
  {
    GstCtfTraceClass *tc = parse_ok (PREAMBLE
        "event { name = \"e\"; fields := struct {\n"
        "  integer { size = 8; align = 8; signed = true; } a;\n"
        "  integer { size = 8; align = 8; signed = true; } b;\n"
        "  integer { size = 16; align = 8; signed = true; } c; }; };\n");
    const GstCtfFieldClass *f = first_event (tc)->payload;

    /* equal texts, distinct nodes */
    ck_assert_int_eq (f->n_members, 3);
    ck_assert (f->members[0].fc != f->members[1].fc);
    ck_assert (f->members[1].fc->integer.is_signed);
    ck_assert_int_eq (f->members[1].fc->integer.size, 8);
    ck_assert_int_eq (f->members[2].fc->integer.size, 16);
    gst_ctf_trace_class_unref (tc);
  }
  check_error_at ("/* CTF 1.8 */\n\n"
      "typealias integer { size = 8; align = 8; signed = false; ] := uint8_t;\n",
      GST_CTF_ERROR_METADATA_SYNTAX, "line 3, column 58");
  check_error_at ("trace {\n  major = 1;\n  minor = 8 }\n",
      GST_CTF_ERROR_METADATA_SYNTAX, "line 3, column 13");
  check_error_at ("/* unterminated\n", GST_CTF_ERROR_METADATA_SYNTAX,
      "line 1, column 1");
  check_error_at ("env { a = \"abc\n\"; };", GST_CTF_ERROR_METADATA_SYNTAX,
      "line 1, column 11");
  check_error_at ("env {\n a = \"\\o\"; };", GST_CTF_ERROR_METADATA_SYNTAX,
      "line 2, column 7");
  check_error_at ("env { a = 99999999999999999999; };",
      GST_CTF_ERROR_METADATA_SYNTAX, "line 1, column 11");
  check_error_at ("env { a = 09; };", GST_CTF_ERROR_METADATA_SYNTAX,
      "line 1");
  check_error_at ("env { a = 1x; };", GST_CTF_ERROR_METADATA_SYNTAX,
      "line 1");
  check_error_at ("\r\n\r\n  @", GST_CTF_ERROR_METADATA_SYNTAX,
      "line 3, column 3");
  check_error_at (PREAMBLE "event { name = e; fields := struct { uint99_t x; "
      "}; };", GST_CTF_ERROR_METADATA_SYNTAX, "line 7");
  check_error_at (PREAMBLE "event { name = e; fields := struct { uint8_t x[; "
      "}; };", GST_CTF_ERROR_METADATA_SYNTAX, "line 7");
  check_error_at (PREAMBLE "event { name = e; ", GST_CTF_ERROR_METADATA_SYNTAX,
      "line 7");
  check_error_at (PREAMBLE "uint8_t x;", GST_CTF_ERROR_METADATA_SYNTAX,
      "line 7");
}
END_TEST

START_TEST (test_invalid_metadata)
{
  gint code = GST_CTF_ERROR_METADATA_INVALID;

  check_error_at ("typealias integer { size = 65; } := x;", code, "line 1");
  check_error_at ("typealias integer { size = 0; } := x;", code, "line 1");
  check_error_at ("typealias integer { align = 8; } := x;", code, "size");
  check_error_at ("typealias integer { size = 8; align = 3; } := x;", code,
      "align");
  check_error_at ("typealias floating_point { exp_dig = 5; mant_dig = 11; }"
      " := f16;", code, "line 1");
  check_error_at ("trace { byte_order = native; };", code, "line 1");
  check_error_at ("trace { byte_order = middle; };", code, "line 1");
  check_error_at ("trace { uuid = \"nope\"; };", code, "uuid");
  check_error_at ("trace { }; trace { };", code, "duplicate");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " uint8_t a; uint8_t a; }; };", code, "duplicate field");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " struct { uint8_t h; } len; uint8_t x[len]; }; };", code,
      "not an unsigned integer");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " integer { size = 8; signed = true; } len; uint8_t x[len]; }; };",
      code, "not an unsigned integer");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " uint8_t sel; variant <sel> { uint8_t a; } v; }; };", code,
      "not an enumeration");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " uint8_t x[len]; uint8_t len; }; };", code, "cannot resolve");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " uint8_t x[nope]; }; };", code, "cannot resolve");
  check_error_at (PREAMBLE "variant v { uint8_t a; };"
      "event { name = e; fields := struct { variant v x; }; };", code,
      "without a tag");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " enum { A } x; }; };", code, "int");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " enum : uint8_t { A = -1 } x; }; };", code, "negative");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " struct nope x; }; };", code, "nope");
  check_error_at (PREAMBLE "event { name = e; fields := uint8_t; };", code,
      "structure");
  check_error_at (PREAMBLE "event { name = e; fields := struct {"
      " uint8_t x : 3; }; };", code, "bit-field");
}
END_TEST

START_TEST (test_limits)
{
  GString *s = g_string_new (PREAMBLE);
  GError *err = NULL;
  guint i;

  /* deep nesting */
  g_string_append (s, "event { name = e; fields := ");
  for (i = 0; i < 200; i++)
    g_string_append (s, "struct { ");
  ck_assert (gst_ctf_tsdl_parse (s->str, NULL, &err) == NULL);
  ck_assert_int_eq (err->code, GST_CTF_ERROR_METADATA_SYNTAX);
  g_clear_error (&err);

  /* exponential alias expansion */
  g_string_assign (s, PREAMBLE "typealias struct { uint8_t a; uint8_t b; }"
      " := t0;\n");
  for (i = 1; i < 40; i++)
    g_string_append_printf (s, "typealias struct { t%u a; t%u b; } := t%u;\n",
        i - 1, i - 1, i);
  ck_assert (gst_ctf_tsdl_parse (s->str, NULL, &err) == NULL);
  ck_assert_int_eq (err->code, GST_CTF_ERROR_METADATA_INVALID);
  g_clear_error (&err);
  g_string_free (s, TRUE);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* metadata loading */

static void
put32 (guint8 * p, guint32 v, gboolean be)
{
  v = be ? GUINT32_TO_BE (v) : GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

static void
add_packet (GByteArray * a, const gchar * payload, gboolean be, guint pad,
    guint8 major)
{
  guint8 h[37] = { 0, };
  gsize len = strlen (payload);
  guint i;

  put32 (h, 0x75D11D57, be);
  for (i = 0; i < 16; i++)
    h[4 + i] = (guint8) i;
  put32 (h + 24, (guint32) ((37 + len) * 8), be);
  put32 (h + 28, (guint32) ((37 + len + pad) * 8), be);
  h[35] = major;
  h[36] = 8;
  g_byte_array_append (a, h, 37);
  g_byte_array_append (a, (const guint8 *) payload, (guint) len);
  for (i = 0; i < pad; i++)
    g_byte_array_append (a, (const guint8 *) "", 1);
}

START_TEST (test_metadata_packetized)
{
  gint be;

  for (be = 0; be < 2; be++) {
    GByteArray *a = g_byte_array_new ();
    GError *err = NULL;
    gchar *text;

    add_packet (a, "/* CTF 1.8 */\ntrace {", be, 13, 1);
    add_packet (a, " major = 1; };\n", be, 0, 1);
    text = gst_ctf_metadata_from_bytes (a->data, a->len, "m", &err);
    ck_assert_msg (text != NULL, "%s", err ? err->message : "");
    ck_assert_str_eq (text, "/* CTF 1.8 */\ntrace { major = 1; };\n");
    g_free (text);
    /* bad version */
    g_byte_array_set_size (a, 0);
    add_packet (a, "x", be, 0, 2);
    ck_assert (gst_ctf_metadata_from_bytes (a->data, a->len, "m", &err) ==
        NULL);
    ck_assert_int_eq (err->code, GST_CTF_ERROR_METADATA_PACKET);
    g_clear_error (&err);
    /* truncated payload */
    g_byte_array_set_size (a, 0);
    add_packet (a, "abcdef", be, 0, 1);
    ck_assert (gst_ctf_metadata_from_bytes (a->data, a->len - 2, "m",
            &err) == NULL);
    ck_assert_int_eq (err->code, GST_CTF_ERROR_METADATA_PACKET);
    ck_assert (strstr (err->message, "offset=0") != NULL);
    g_clear_error (&err);
    /* compression scheme */
    g_byte_array_set_size (a, 0);
    add_packet (a, "abc", be, 0, 1);
    a->data[32] = 1;
    ck_assert (gst_ctf_metadata_from_bytes (a->data, a->len, "m",
            &err) == NULL);
    ck_assert_int_eq (err->code, GST_CTF_ERROR_METADATA_PACKET);
    g_clear_error (&err);
    /* zero packet size never loops */
    g_byte_array_set_size (a, 0);
    add_packet (a, "abc", be, 0, 1);
    put32 (a->data + 28, 0, be);
    ck_assert (gst_ctf_metadata_from_bytes (a->data, a->len, "m",
            &err) == NULL);
    ck_assert_int_eq (err->code, GST_CTF_ERROR_METADATA_PACKET);
    g_clear_error (&err);
    g_byte_array_unref (a);
  }
}
END_TEST

START_TEST (test_metadata_plain_and_ctf2)
{
  GError *err = NULL;
  const gchar *ctf2 = "\x1e{\"type\": \"preamble\", \"version\": 2}\n";
  const gchar *bad_ver = "/* CTF 1.7 */\n";
  gchar *text;

  text = gst_ctf_metadata_from_bytes ((const guint8 *) "/* CTF 1.8 */ x\0\0",
      17, "m", &err);
  ck_assert_str_eq (text, "/* CTF 1.8 */ x");
  g_free (text);
  text = gst_ctf_metadata_from_bytes ((const guint8 *) "trace {};", 9, "m",
      &err);
  ck_assert_str_eq (text, "trace {};");
  g_free (text);
  ck_assert (gst_ctf_metadata_from_bytes ((const guint8 *) "a\nb\0c", 5, "m",
          &err) == NULL);
  ck_assert_int_eq (err->code, GST_CTF_ERROR_METADATA_SYNTAX);
  ck_assert (strstr (err->message, "line 2, column 2") != NULL);
  g_clear_error (&err);
  /* CTF 2 (first byte 0x1E): returned as is, for the JSON front end */
  text = gst_ctf_metadata_from_bytes ((const guint8 *) ctf2, strlen (ctf2),
      "m", &err);
  ck_assert_str_eq (text, ctf2);
  ck_assert (gst_ctf_metadata_is_ctf2 (text));
  g_free (text);
  ck_assert (gst_ctf_metadata_from_bytes ((const guint8 *) bad_ver,
          strlen (bad_ver), "m", &err) == NULL);
  ck_assert_int_eq (err->code, GST_CTF_ERROR_METADATA_INVALID);
  g_clear_error (&err);
  ck_assert (gst_ctf_metadata_load_file ("/nonexistent/metadata", &err) ==
      NULL);
  ck_assert_int_eq (err->code, GST_CTF_ERROR_IO);
  g_clear_error (&err);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* corpus */

static const gchar *
corpus_dir (void)
{
  const gchar *c = g_getenv ("GST_CTF_CORPUS");

  if (c == NULL || !g_file_test (c, G_FILE_TEST_IS_DIR)) {
    g_print ("GST_CTF_CORPUS not set or missing: corpus tests skipped\n");
    return NULL;
  }
  return c;
}

static void
find_metadata (const gchar * dir, GPtrArray * out)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *n;

  if (d == NULL)
    return;
  while ((n = g_dir_read_name (d)) != NULL) {
    gchar *p = g_build_filename (dir, n, NULL);

    if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p,
            G_FILE_TEST_IS_SYMLINK)) {
      find_metadata (p, out);
      g_free (p);
    } else if (strcmp (n, "metadata") == 0) {
      g_ptr_array_add (out, p);
    } else {
      g_free (p);
    }
  }
  g_dir_close (d);
}

/* Reads <top>/oracle/STATUS.tsv into unit -> babeltrace2 exit status. */
static GHashTable *
read_status (const gchar * top)
{
  gchar *path = g_build_filename (top, "oracle", "STATUS.tsv", NULL);
  gchar *contents = NULL;
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) g_strfreev);
  gchar **lines;
  guint i;

  ck_assert_msg (g_file_get_contents (path, &contents, NULL, NULL),
      "cannot read %s", path);
  lines = g_strsplit (contents, "\n", -1);
  for (i = 1; lines[i] != NULL; i++) {
    gchar **f = g_strsplit (lines[i], "\t", -1);

    if (g_strv_length (f) >= 4)
      g_hash_table_insert (h, g_strdup (f[0]), f);
    else
      g_strfreev (f);
  }
  g_strfreev (lines);
  g_free (contents);
  g_free (path);
  return h;
}

/* The STATUS.tsv unit a metadata path belongs to: the longest unit that
 * is a directory prefix of it. */
static gchar **
unit_of (GHashTable * status, const gchar * rel, gchar ** unit_out)
{
  GHashTableIter it;
  gpointer k, v;
  gchar **best = NULL;
  gsize best_len = 0;

  g_hash_table_iter_init (&it, status);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    gsize l = strlen (k);

    if (strncmp (rel, k, l) == 0 && rel[l] == '/' && l > best_len) {
      best = v;
      best_len = l;
      *unit_out = k;
    }
  }
  return best;
}

static gboolean
ends_with_fail_unit (const gchar * unit, const gchar * name)
{
  return g_str_has_prefix (unit, "fail/") && strcmp (unit + 5, name) == 0;
}

START_TEST (test_corpus_metadata)
{
  const gchar *corpus = corpus_dir ();
  const gchar *tops[] = { "babeltrace", "lttng-ust", "other" };
  guint t, i, n_ok = 0, n_total = 0;

  if (corpus == NULL)
    return;
  for (t = 0; t < G_N_ELEMENTS (tops); t++) {
    gchar *top = g_build_filename (corpus, "ctf", tops[t], NULL);
    GHashTable *status = read_status (top);
    GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

    find_metadata (top, files);
    for (i = 0; i < files->len; i++) {
      const gchar *path = g_ptr_array_index (files, i);
      const gchar *rel = path + strlen (top) + 1;
      gchar *unit = NULL;
      gchar **st = unit_of (status, rel, &unit);
      GError *err = NULL;
      gchar *text = gst_ctf_metadata_load_file (path, &err);
      GstCtfTraceClass *tc = NULL;

      if (text != NULL)
        tc = gst_ctf_metadata_parse (text, path, &err);
      n_total++;
      if (g_str_has_prefix (rel, "ctf2/")) {
        /* drafts of CTF 2 (Trace Compass): babeltrace2 2.1.2 reads only
         * these two; the others are refused naming the fragment */
        if (strstr (rel, "ev-disc-no-ts-begin-end") != NULL ||
            strstr (rel, "CTF2-vl-ints") != NULL)
          ck_assert_msg (tc != NULL, "%s: %s", path, err ? err->message : "");
        else
          ck_assert_msg (err != NULL && err->code ==
              GST_CTF_ERROR_METADATA_INVALID && strstr (err->message,
                  "fragment=") != NULL, "%s: %s", path,
              err ? err->message : "parsed");
      } else if (st == NULL) {
        ck_abort_msg ("%s: no STATUS.tsv unit", path);
      } else if (strcmp (st[1], "0") == 0
          || strcmp (unit, "succeed/meta-ctx-sequence") == 0
          || strcmp (unit, "stable-1.5-only/succeed/lttng-modules-2.0-pre5")
          == 0) {
        /* babeltrace2 read it (or should have: it aborts on
         * meta-ctx-sequence and rejects pre5 that babeltrace 1 reads) */
        ck_assert_msg (tc != NULL, "%s: %s", path, err ? err->message : "");
      } else if (ends_with_fail_unit (unit, "metadata-syntax-error")) {
        ck_assert_msg (err && err->code == GST_CTF_ERROR_METADATA_SYNTAX
            && strstr (err->message, "line 3,") != NULL, "%s: %s", path,
            err ? err->message : "parsed");
      } else if (ends_with_fail_unit (unit, "fail2")
          || ends_with_fail_unit (unit, "integer-range")) {
        ck_assert_msg (err && err->code == GST_CTF_ERROR_METADATA_SYNTAX,
            "%s: %s", path, err ? err->message : "parsed");
      } else if (ends_with_fail_unit (unit,
              "invalid-sequence-length-field-class")
          || ends_with_fail_unit (unit,
              "invalid-variant-selector-field-class")) {
        ck_assert_msg (err && err->code == GST_CTF_ERROR_METADATA_INVALID,
            "%s: %s", path, err ? err->message : "parsed");
      } else if (ends_with_fail_unit (unit, "lttng-modules-2.0-pre1")
          || ends_with_fail_unit (unit, "packet-based-metadata")) {
        ck_assert_msg (err && err->code == GST_CTF_ERROR_METADATA_PACKET,
            "%s: %s", path, err ? err->message : "parsed");
      } else {
        /* other babeltrace2 failures are in the data streams */
        ck_assert_msg (tc != NULL, "%s: %s", path, err ? err->message : "");
      }
      if (tc != NULL)
        n_ok++;
      if (tc)
        gst_ctf_trace_class_unref (tc);
      g_clear_error (&err);
      g_free (text);
    }
    g_ptr_array_unref (files);
    g_hash_table_unref (status);
    g_free (top);
  }
  g_print ("corpus: %u metadata files checked, %u parsed\n", n_total, n_ok);
  ck_assert_uint_ge (n_total, 150);
}
END_TEST

START_TEST (test_corpus_depacketize)
{
  const gchar *corpus = corpus_dir ();
  const gchar *tops[] = { "babeltrace", "lttng-ust", "other" };
  guint t, n = 0;

  if (corpus == NULL)
    return;
  for (t = 0; t < G_N_ELEMENTS (tops); t++) {
    gchar *top = g_build_filename (corpus, "ctf", tops[t], NULL);
    GHashTable *status = read_status (top);
    GHashTableIter it;
    gpointer k, v;

    g_hash_table_iter_init (&it, status);
    while (g_hash_table_iter_next (&it, &k, &v)) {
      const gchar *unit = k;
      gchar **f = v;
      gchar **tsdls = g_strsplit (f[3], " ", -1);
      gchar *dir = g_path_get_dirname (unit);
      gchar *base = g_path_get_basename (unit);
      guint i;

      for (i = 0; tsdls[i] != NULL; i++) {
        const gchar *name = tsdls[i];
        gchar *sub, *md, *oracle, *expected = NULL, *text, **parts;
        GError *err = NULL;
        gsize len;

        if (*name == '\0')
          continue;
        /* <base>[.<sub__dir>].metadata.tsdl */
        ck_assert (g_str_has_prefix (name, base));
        sub = g_strndup (name + strlen (base),
            strlen (name) - strlen (base) - strlen (".metadata.tsdl"));
        parts = g_strsplit (*sub == '.' ? sub + 1 : sub, "__", -1);
        g_free (sub);
        sub = g_strjoinv ("/", parts);
        g_strfreev (parts);
        md = g_build_filename (top, unit, sub, "metadata", NULL);
        oracle = g_build_filename (top, "oracle", strcmp (dir, ".") ? dir :
            "", name, NULL);
        ck_assert_msg (g_file_get_contents (oracle, &expected, &len, NULL),
            "cannot read %s", oracle);
        text = gst_ctf_metadata_load_file (md, &err);
        ck_assert_msg (text != NULL, "%s: %s", md, err ? err->message : "");
        /* babeltrace2 -o ctf-metadata prints the text and a newline */
        ck_assert_uint_eq (strlen (text) + 1, len);
        ck_assert_msg (memcmp (text, expected, len - 1) == 0
            && expected[len - 1] == '\n', "%s differs from %s", md, oracle);
        n++;
        g_free (text);
        g_free (expected);
        g_free (oracle);
        g_free (md);
        g_free (sub);
      }
      g_strfreev (tsdls);
      g_free (dir);
      g_free (base);
    }
    g_hash_table_unref (status);
    g_free (top);
  }
  g_print ("corpus: %u packetized metadata files equal to the oracle\n", n);
  ck_assert_uint_ge (n, 20);
}
END_TEST

/* Many stream classes, env keys and clocks (a merged trace class of
 * thousands of traces): each found by its id or name, duplicates refused
 * or merged as with a few. */
START_TEST (test_many_classes)
{
  GString *t = g_string_new (PREAMBLE);
  GstCtfTraceClass *tc;
  GError *err;
  guint i, n = 3000;

  g_string_append (t, "env {\n");
  for (i = 0; i < n; i++)
    g_string_append_printf (t, "  trace%u_vpid = %u;\n", i, i + 100);
  g_string_append (t, "  trace7_vpid = 7;\n};\n");
  for (i = 0; i < 3; i++)
    g_string_append_printf (t, "clock { name = c%u; freq = 1000; };\n", i);
  /* ids out of order */
  for (i = 0; i < n; i++)
    g_string_append_printf (t, "stream { id = %u; };\n"
        "event { name = \"e%u\"; id = 1; stream_id = %u; "
        "fields := struct { uint8_t x; }; };\n", (i * 7) % n, i,
        (i * 7) % n);
  tc = parse_ok (t->str);
  ck_assert_uint_eq (tc->stream_classes->len, n);
  ck_assert_uint_eq (tc->env->len, n);
  ck_assert_uint_eq (tc->clock_classes->len, 3);
  for (i = 0; i < n; i++) {
    GstCtfStreamClass *sc = gst_ctf_trace_class_find_stream_class (tc, i);
    const GstCtfEventClass *ec;

    ck_assert (sc != NULL);
    ck_assert_uint_eq (sc->id, i);
    ec = gst_ctf_stream_class_find_event_class (sc, 1);
    ck_assert (ec != NULL);
    ck_assert_uint_eq (ec->stream_class_id, i);
  }
  ck_assert (gst_ctf_trace_class_find_stream_class (tc, n) == NULL);
  /* a key given twice keeps its place and takes the last value */
  ck_assert_str_eq (((GstCtfEnvEntry *) g_ptr_array_index (tc->env, 7))->name,
      "trace7_vpid");
  ck_assert_int_eq (gst_ctf_trace_class_find_env (tc, "trace7_vpid")->integer,
      7);
  ck_assert_int_eq (gst_ctf_trace_class_find_env (tc,
          "trace2999_vpid")->integer, 3099);
  /* the array changed after parsing (as trace.dat's builder does): the
   * lookups stay right */
  g_ptr_array_remove_index (tc->stream_classes, 0);      /* id 0 */
  ck_assert (gst_ctf_trace_class_find_stream_class (tc, 0) == NULL);
  for (i = 1; i < n; i += 97) {
    GstCtfStreamClass *sc = gst_ctf_trace_class_find_stream_class (tc, i);

    ck_assert (sc != NULL);
    ck_assert_uint_eq (sc->id, i);
  }
  gst_ctf_trace_class_unref (tc);

  g_string_append (t, "stream { id = 5; };\n");
  err = parse_fail (t->str, GST_CTF_ERROR_METADATA_INVALID);
  ck_assert (strstr (err->message, "duplicate stream class id 5") != NULL);
  g_error_free (err);
  g_string_truncate (t, strlen (PREAMBLE));
  g_string_append (t, "clock { name = a; }; clock { name = b; }; "
      "clock { name = a; };\n");
  err = parse_fail (t->str, GST_CTF_ERROR_METADATA_INVALID);
  ck_assert (strstr (err->message, "duplicate clock `a`") != NULL);
  g_error_free (err);
  g_string_free (t, TRUE);
}

END_TEST;

/* gst_ctf_metadata_parse_shared(): one trace class per text while it lives. */
START_TEST (test_parse_shared)
{
  const gchar *a = PREAMBLE "stream { event.header := struct { uint8_t id; "
      "}; };\nevent { name = \"x\"; fields := struct { uint8_t v; }; };\n";
  const gchar *b = PREAMBLE "event { name = \"y\"; fields := struct { "
      "uint16_t v; }; };\n";
  gchar *a2 = g_strdup (a);
  GError *err = NULL;
  GstCtfTraceClass *ta = gst_ctf_metadata_parse_shared (a, "a", NULL);
  GstCtfTraceClass *ta2 = gst_ctf_metadata_parse_shared (a2, "a2", NULL);
  GstCtfTraceClass *tb = gst_ctf_metadata_parse_shared (b, "b", NULL);
  GstCtfTraceClass *tp = gst_ctf_tsdl_parse (a, "plain", NULL);

  ck_assert (ta != NULL && tb != NULL && tp != NULL);
  ck_assert (ta == ta2);        /* same text, another copy of it */
  ck_assert (ta != tb);
  ck_assert (tp != ta);         /* gst_ctf_tsdl_parse() never shares */
  ck_assert_str_eq (first_event (tb)->name, "y");
  {
    /* same length, one byte apart at the end: two classes */
    const gchar *c = PREAMBLE "event { name = \"p\"; };\n/* 1 */";
    const gchar *d = PREAMBLE "event { name = \"q\"; };\n/* 2 */";
    GstCtfTraceClass *tcc = gst_ctf_metadata_parse_shared (c, "c", NULL);
    GstCtfTraceClass *tcd = gst_ctf_metadata_parse_shared (d, "d", NULL);

    ck_assert (tcc != NULL && tcd != NULL && tcc != tcd);
    ck_assert_str_eq (first_event (tcd)->name, "q");
    gst_ctf_trace_class_unref (tcc);
    gst_ctf_trace_class_unref (tcd);
  }
  gst_ctf_trace_class_unref (ta);
  gst_ctf_trace_class_unref (ta2);
  gst_ctf_trace_class_unref (tb);
  gst_ctf_trace_class_unref (tp);
  /* all gone: parsed anew, and still right */
  ta = gst_ctf_metadata_parse_shared (a, "a", NULL);
  ck_assert_str_eq (first_event (ta)->name, "x");
  gst_ctf_trace_class_unref (ta);
  /* errors as gst_ctf_tsdl_parse() */
  ck_assert (gst_ctf_metadata_parse_shared ("trace { major = ; };", "bad",
          &err) == NULL);
  ck_assert (err->domain == GST_CTF_ERROR &&
      err->code == GST_CTF_ERROR_METADATA_SYNTAX);
  g_error_free (err);
  g_free (a2);
}

END_TEST;

/* The traces of a per-PID session: metadata equal but for the trace uuid
 * and the env values.  One parse serves them all (the stream and clock
 * classes are shared), and each class is what its own parse gives. */
static gchar *
perpid_text (const gchar * uuid, gint vpid, const gchar * tracer)
{
  return g_strdup_printf ("/* CTF 1.8 */\n"
      "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
      "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
      "typealias integer { size = 64; align = 8; signed = false; "
      "map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n"
      "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n"
      "\tbyte_order = le;\n\tpacket.header := struct { uint32_t magic; "
      "uint8_t uuid[16]; uint32_t stream_id; };\n};\n"
      "env {\n\ttracer_name = \"%s\"; /* } \" */\n\tvpid = %d;\n"
      "\tprocname = \"true\";\n};\n"
      "clock {\n\tname = \"monotonic\";\n\toffset = 1000;\n};\n"
      "stream {\n\tid = 0;\n\tevent.header := struct { uint32_t id; "
      "uint64_clock_monotonic_t timestamp; };\n};\n"
      "event {\n\tname = \"x\";\n\tid = 0;\n\tstream_id = 0;\n"
      "\tfields := struct { uint32_t v; };\n};\n", uuid, tracer, vpid);
}

/* Two texts that differ in an env value, the uuid written after a
 * vertical tab (found by fuzz-tsdl): the second one's shared parse kept
 * no uuid where the whole parse has one (the cuts had not found it). */
START_TEST (test_parse_shared_uncut_uuid)
{
  const gchar *a = "/* CTF 1.8 */\ntrace {\n\tmajor = 1;\n\tminor = 8;\n"
      "\v uuid = \"ea4923a2-cc8f-4ca2-a3f0-571d8177e652\";\n"
      "\tbyte_order = le;\n};\nenv {\n\tdescription = \"A\";\n};\n";
  gchar *b = g_strdup (a);
  GstCtfTraceClass *pa, *pb, *full;
  gchar *wb, *wfull;

  strstr (b, "\"A\"")[1] = 'B';      /* another env value */
  pa = gst_ctf_metadata_parse_shared (a, "a", NULL);
  fail_unless (pa != NULL && pa->has_uuid);
  pb = gst_ctf_metadata_parse_shared (b, "b", NULL);
  full = gst_ctf_tsdl_parse (b, "b", NULL);
  fail_unless (pb != NULL && full != NULL && full->has_uuid);
  wb = gst_ctf_tsdl_write (pb, NULL);
  wfull = gst_ctf_tsdl_write (full, NULL);
  fail_unless_equals_string (wb, wfull);
  g_free (wb);
  g_free (wfull);
  gst_ctf_trace_class_unref (full);
  gst_ctf_trace_class_unref (pb);
  gst_ctf_trace_class_unref (pa);
  g_free (b);
}

END_TEST

/* The env entries of a text whose skeleton is known, read without the
 * parser in their usual spelling and by the parser otherwise: the same
 * entries as the whole parse, whatever the spelling. */
START_TEST (test_parse_shared_env_spellings)
{
  const gchar *head = "/* CTF 1.8 */\ntrace {\n\tmajor = 1;\n\tminor = 8;\n"
      "\tuuid = \"%s\";\n\tbyte_order = le;\n};\nenv {%s};\n";
  const gchar *bodies[] = {
    "\n\ta = \"x y\";\n\tb = 12;\n\tc = -7;\n\td = -0;\n\te = \"\";\n",
    " a = 012; ",               /* octal */
    " a = 0x1f; b = 0; ",
    " a = 9999999999999999999; b = 18446744073709551615; ",
    " a = -9223372036854775808; ",
    " a = 10U; ",
    " a = \"\\t\\x41\"; ",
    " a = \"caf\xc3\xa9\"; ",
    " a = 1; a = \"again\"; b = 2; ",
    " struct = 1; ",
    " a = ust; b = x.y; ",
    " a.b = 1; ",
    " /* c */ a = 1; // d\n b = 2; ",
    " a = 'c'; ",
    " a = - 5; b = +5; ",
    " a\n=\n\"v\"\n;\r\n",
    " a = 1 ",
    " a = \"unterminated; ",
    "",
  };
  const gchar *uuids[] = { "ea4923a2-cc8f-4ca2-a3f0-571d8177e652",
    "EA4923A2-CC8F-4CA2-A3F0-571D8177E653", "ea4923a2cc8f-4ca2-a3f0-571d8177e65",
    "ea4923a2-cc8f-4ca2-a3f0-571d8177e6zz"
  };
  gchar *base_text = g_strdup_printf (head, uuids[0], " base = 1; ");
  GstCtfTraceClass *base = gst_ctf_metadata_parse_shared (base_text, "base",
      NULL);
  guint i, j, k;

  ck_assert (base != NULL);
  for (i = 0; i < G_N_ELEMENTS (bodies); i++) {
    for (k = 0; k < G_N_ELEMENTS (uuids); k++) {
      gchar *t = g_strdup_printf (head, uuids[k], bodies[i]);
      GstCtfTraceClass *shared = gst_ctf_metadata_parse_shared (t, "t", NULL);
      GstCtfTraceClass *whole = gst_ctf_tsdl_parse (t, "t", NULL);

      ck_assert_msg ((shared == NULL) == (whole == NULL), "%s", t);
      if (whole) {
        ck_assert_msg (shared->has_uuid == whole->has_uuid
            && memcmp (shared->uuid, whole->uuid, 16) == 0, "%s", t);
        ck_assert_msg (shared->from_tsdl == whole->from_tsdl, "%s", t);
        ck_assert_uint_eq (shared->env->len, whole->env->len);
        for (j = 0; j < whole->env->len; j++) {
          const GstCtfEnvEntry *x = g_ptr_array_index (shared->env, j);
          const GstCtfEnvEntry *y = g_ptr_array_index (whole->env, j);

          ck_assert_msg (strcmp (x->name, y->name) == 0
              && x->is_string == y->is_string
              && g_strcmp0 (x->str, y->str) == 0
              && x->integer == y->integer, "%s: entry %u", t, j);
        }
        gst_ctf_trace_class_unref (shared);
        gst_ctf_trace_class_unref (whole);
      }
      g_free (t);
    }
  }
  gst_ctf_trace_class_unref (base);
  g_free (base_text);
}

END_TEST

START_TEST (test_parse_shared_perpid)
{
  gchar *t1 = perpid_text ("2a6422d0-6cee-11e0-8c08-cb07d7b3a564", 1,
      "lttng-ust");
  gchar *t2 = perpid_text ("ea4923a2-cc8f-4ca2-a3f0-571d8177e652", 22,
      "lttng-ust");
  gchar *t3 = perpid_text ("4e4fe6e3-8003-4a8e-91bf-e036c8b8c9b6", 3,
      "other");
  gchar *t4 = perpid_text ("not-a-uuid", 4, "lttng-ust");
  GstCtfTraceClass *c1 = gst_ctf_metadata_parse_shared (t1, "t1", NULL);
  GstCtfTraceClass *c2 = gst_ctf_metadata_parse_shared (t2, "t2", NULL);
  GstCtfTraceClass *c3 = gst_ctf_metadata_parse_shared (t3, "t3", NULL);
  GstCtfTraceClass *p2 = gst_ctf_tsdl_parse (t2, "t2", NULL);
  GstCtfTraceClass *p3 = gst_ctf_tsdl_parse (t3, "t3", NULL);
  gchar *w2, *wp2, *w3, *wp3;
  GError *err = NULL;

  ck_assert (c1 && c2 && c3 && p2 && p3);
  ck_assert (c1 != c2);
  /* c2 was not parsed: it shares c1's classes */
  ck_assert (c2->stream_classes == c1->stream_classes);
  ck_assert (c2->clock_classes == c1->clock_classes);
  ck_assert (c2->packet_header == c1->packet_header);
  ck_assert_int_eq (gst_ctf_trace_class_find_env (c1, "vpid")->integer, 1);
  ck_assert_int_eq (gst_ctf_trace_class_find_env (c2, "vpid")->integer, 22);
  ck_assert (c2->has_uuid && memcmp (c2->uuid, p2->uuid, 16) == 0);
  ck_assert (memcmp (c1->uuid, c2->uuid, 16) != 0);
  /* a tracer_name changes the clock's origin: its own parse */
  ck_assert (c3->stream_classes != c1->stream_classes);
  ck_assert (((GstCtfClockClass *) g_ptr_array_index (c1->clock_classes,
              0))->origin_is_unix_epoch);
  ck_assert (!((GstCtfClockClass *) g_ptr_array_index (c3->clock_classes,
              0))->origin_is_unix_epoch);
  /* each is what its own parse gives */
  w2 = gst_ctf_tsdl_write (c2, NULL);
  wp2 = gst_ctf_tsdl_write (p2, NULL);
  w3 = gst_ctf_tsdl_write (c3, NULL);
  wp3 = gst_ctf_tsdl_write (p3, NULL);
  ck_assert_str_eq (w2, wp2);
  ck_assert_str_eq (w3, wp3);
  /* c2 outlives the class it was made from */
  gst_ctf_trace_class_unref (c1);
  ck_assert_str_eq (first_event (c2)->name, "x");
  /* a bad uuid: the whole text's error */
  ck_assert (gst_ctf_metadata_parse_shared (t4, "t4", &err) == NULL);
  ck_assert (err->domain == GST_CTF_ERROR &&
      err->code == GST_CTF_ERROR_METADATA_INVALID);
  ck_assert (strstr (err->message, "t4") != NULL);
  g_error_free (err);
  g_free (w2);
  g_free (wp2);
  g_free (w3);
  g_free (wp3);
  gst_ctf_trace_class_unref (c2);
  gst_ctf_trace_class_unref (c3);
  gst_ctf_trace_class_unref (p2);
  gst_ctf_trace_class_unref (p3);
  g_free (t1);
  g_free (t2);
  g_free (t3);
  g_free (t4);
}

END_TEST;

static Suite *
tsdl_suite (void)
{
  Suite *s = suite_create ("tsdl");
  TCase *tc = tcase_create ("parser");
  TCase *tm = tcase_create ("metadata");
  TCase *tk = tcase_create ("corpus");

  tcase_add_test (tc, test_integer_attributes);
  tcase_add_test (tc, test_native_byte_order_declared_before_trace);
  tcase_add_test (tc, test_multiword_alias_and_typedef);
  tcase_add_test (tc, test_alias_copies_are_distinct);
  tcase_add_test (tc, test_struct_named_and_align);
  tcase_add_test (tc, test_enum);
  tcase_add_test (tc, test_arrays_sequences);
  tcase_add_test (tc, test_value_slots_per_stream_class);
  tcase_add_test (tc, test_variants);
  tcase_add_test (tc, test_lttng_like_trace);
  tcase_add_test (tc, test_scoping);
  tcase_add_test (tc, test_scoped_lookups);
  tcase_add_test (tc, test_c_types_and_keywords_as_names);
  tcase_add_test (tc, test_implicit_stream_and_ids);
  tcase_add_test (tc, test_clock_quirks);
  tcase_add_test (tc, test_lexer);
  tcase_add_test (tc, test_syntax_errors);
  tcase_add_test (tc, test_invalid_metadata);
  tcase_add_test (tc, test_limits);
  tcase_add_test (tc, test_many_classes);
  tcase_add_test (tc, test_parse_shared);
  tcase_add_test (tc, test_parse_shared_perpid);
  tcase_add_test (tc, test_parse_shared_uncut_uuid);
  tcase_add_test (tc, test_parse_shared_env_spellings);
  suite_add_tcase (s, tc);
  tcase_add_test (tm, test_metadata_packetized);
  tcase_add_test (tm, test_metadata_plain_and_ctf2);
  suite_add_tcase (s, tm);
  tcase_add_test (tk, test_corpus_metadata);
  tcase_add_test (tk, test_corpus_depacketize);
  suite_add_tcase (s, tk);
  return s;
}

int
main (void)
{
  Suite *s = tsdl_suite ();
  SRunner *sr = srunner_create (s);
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
