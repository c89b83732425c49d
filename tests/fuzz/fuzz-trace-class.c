/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer helpers: the trace class an input picks (fuzz-trace-class.h).
 */
#include <string.h>

#include "fuzz-trace-class.h"

/* LTTng-like trace classes (strings, sequences, floats, enumerations,
 * the scopes of event "d" joined into one run): one with LTTng's kernel
 * compact event header (a 5-bit id and a 27-bit timestamp, bit fields)
 * and one with LTTng-UST's large header (a 16-bit id, byte-aligned, so
 * the whole event can be one run); and a big-endian one without packet
 * sizes that uses bit fields, variants and nested sequences. */
#define TSDL_LTTNG_PREAMBLE \
    "/* CTF 1.8 */\n" \
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n" \
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n" \
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n" \
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n" \
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n" \
    "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n" \
    "trace {\n" \
    "  major = 1; minor = 8;\n" \
    "  uuid = \"f96fbada-6a42-42f6-a313-e72cc760ce24\";\n" \
    "  byte_order = le;\n" \
    "  packet.header := struct {\n" \
    "    uint32_t magic; uint8_t uuid[16]; uint32_t stream_id;\n" \
    "    uint64_t stream_instance_id;\n" \
    "  };\n" \
    "};\n" \
    "clock { name = \"monotonic\"; freq = 1000000000; offset = 1795305072242605315; };\n" \
    "typealias integer { size = 27; align = 1; signed = false;\n" \
    "  map = clock.monotonic.value; } := uint27_clock_monotonic_t;\n" \
    "typealias integer { size = 64; align = 8; signed = false;\n" \
    "  map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n" \
    "struct packet_context {\n" \
    "  uint64_clock_monotonic_t timestamp_begin;\n" \
    "  uint64_clock_monotonic_t timestamp_end;\n" \
    "  uint64_t content_size; uint64_t packet_size;\n" \
    "  uint64_t packet_seq_num; uint64_t events_discarded; uint32_t cpu_id;\n" \
    "};\n"

#define TSDL_LTTNG_STREAM_EVENTS(EVENT_HEADER) \
    "stream {\n" \
    "  id = 0;\n" \
    "  event.header := struct " EVENT_HEADER ";\n" \
    "  packet.context := struct packet_context;\n" \
    "  event.context := struct {\n" \
    "    integer { size = 32; align = 8; signed = 1; } _vtid;\n" \
    "    integer { size = 8; align = 8; signed = 1; encoding = UTF8; } _procname[17];\n" \
    "  };\n" \
    "};\n" \
    "event { name = \"a\"; id = 0; stream_id = 0;\n" \
    "  fields := struct {\n" \
    "    integer { size = 64; align = 8; signed = 0; base = 16; } _ptr;\n" \
    "    string _msg;\n" \
    "    uint16_t _n;\n" \
    "    integer { size = 8; align = 8; signed = 0; encoding = UTF8; } _text[ _n ];\n" \
    "    integer { size = 32; align = 8; signed = 1; } _ints[ _n ];\n" \
    "  };\n" \
    "};\n" \
    "event { name = \"b\"; id = 1; stream_id = 0;\n" \
    "  fields := struct {\n" \
    "    floating_point { exp_dig = 8; mant_dig = 24; align = 32; } _f;\n" \
    "    floating_point { exp_dig = 11; mant_dig = 53; align = 64; byte_order = be; } _d;\n" \
    "    enum : uint8_t { ZERO = 0, ONE = 1, MANY = 2 ... 200 } _e;\n" \
    "    integer { size = 16; align = 8; byte_order = be; } _net;\n" \
    "  };\n" \
    "};\n" \
    "event { name = \"c\"; id = 2; stream_id = 0; };\n" \
    "event { name = \"d\"; id = 3; stream_id = 0;\n" \
    "  fields := struct {\n" \
    "    uint16_t _a; integer { size = 32; align = 8; signed = 1; } _b;\n" \
    "    string _s; uint8_t _len;\n" \
    "    integer { size = 8; align = 8; encoding = UTF8; } _t[ _len ];\n" \
    "    uint32_t _c; integer { size = 16; align = 8; signed = 1; } _h;\n" \
    "    integer { size = 8; align = 8; signed = 1; } _i;\n" \
    "    integer { size = 64; align = 8; signed = 1; byte_order = be; } _j;\n" \
    "  };\n" \
    "};\n" \
    "event { name = \"e\"; id = 4; stream_id = 0;\n" \
    "  fields := struct {\n" \
    "    enum : uint8_t { A = 0, B = 1 } _tag;\n" \
    "    variant <_tag> { uint16_t A; string B; } _v;\n" \
    "  };\n" \
    "};\n"

static const gchar tsdl_lttng[] =
    TSDL_LTTNG_PREAMBLE
    "struct event_header_compact {\n"
    "  enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "  variant <id> {\n"
    "    struct { uint27_clock_monotonic_t timestamp; } compact;\n"
    "    struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;\n"
    "  } v;\n"
    "} align(8);\n"
    TSDL_LTTNG_STREAM_EVENTS ("event_header_compact");

static const gchar tsdl_ust[] =
    TSDL_LTTNG_PREAMBLE
    "typealias integer { size = 32; align = 8; signed = false;\n"
    "  map = clock.monotonic.value; } := uint32_clock_monotonic_t;\n"
    "struct event_header_large {\n"
    "  enum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
    "  variant <id> {\n"
    "    struct { uint32_clock_monotonic_t timestamp; } compact;\n"
    "    struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;\n"
    "  } v;\n"
    "} align(8);\n"
    TSDL_LTTNG_STREAM_EVENTS ("event_header_large");

static const gchar tsdl_be[] =
    "/* CTF 1.8 */\n"
    "trace { major = 1; minor = 8; byte_order = be; };\n"
    "stream {\n"
    "  event.header := struct {\n"
    "    integer { size = 3; align = 1; signed = false; } id;\n"
    "    integer { size = 13; align = 1; signed = false; } timestamp;\n"
    "  };\n"
    "};\n"
    "event { name = \"x\"; id = 0;\n"
    "  fields := struct {\n"
    "    enum : integer { size = 4; align = 1; signed = true; } {\n"
    "      _neg = -8 ... -1, pos = 0 ... 6, _str = 7 } tag;\n"
    "    variant <tag> {\n"
    "      integer { size = 9; align = 1; signed = true; } _neg;\n"
    "      struct { integer { size = 7; align = 1; } a; integer { size = 2; align = 1; } b[3]; } pos;\n"
    "      string _str;\n"
    "    } v;\n"
    "    integer { size = 6; align = 1; signed = false; } n;\n"
    "    struct {\n"
    "      integer { size = 2; align = 1; signed = false; } m;\n"
    "      integer { size = 5; align = 1; signed = true; byte_order = le; } s[m];\n"
    "    } outer[n];\n"
    "  };\n"
    "};\n"
    "event { name = \"y\"; id = 1;\n"
    "  fields := struct { integer { size = 64; align = 1; signed = true; } big; };\n"
    "};\n";

static GstCtfTraceClass *trace_classes[3];

GstCtfTraceClass *
fuzz_trace_class (const uint8_t ** data, size_t * size)
{
  GError *err = NULL;
  guint which;

  if (*size < 1)
    return NULL;
  if (((*data)[0] & 3) == 2) {
    gchar *text = fuzz_trace_class_tsdl (data, size);
    GstCtfTraceClass *own;

    if (text == NULL)
      return NULL;
    own = gst_ctf_metadata_parse (text, "fuzz", &err);
    g_free (text);
    g_clear_error (&err);
    return own;
  }
  which = MIN ((*data)[0] & 3, 2);
  *data += 1;
  *size -= 1;
  if (trace_classes[which] == NULL) {
    static const gchar *const texts[] = { tsdl_lttng, tsdl_be, tsdl_ust };

    trace_classes[which] = gst_ctf_tsdl_parse (texts[which], "fuzz", &err);
    if (trace_classes[which] == NULL)
      g_error ("fixed TSDL does not parse: %s", err->message);
  }
  return gst_ctf_trace_class_ref (trace_classes[which]);
}

gchar *
fuzz_trace_class_tsdl (const uint8_t ** data, size_t * size)
{
  static const gchar *const texts[] = { tsdl_lttng, tsdl_be, tsdl_ust };
  gsize tlen;
  gchar *text;

  if (*size < 1)
    return NULL;
  if (((*data)[0] & 3) != 2) {
    text = g_strdup (texts[MIN ((*data)[0] & 3, 2)]);
    *data += 1;
    *size -= 1;
    return text;
  }
  if (*size < 3)
    return NULL;
  tlen = (*data)[1] | ((*data)[2] << 8);
  if (tlen > *size - 3)
    return NULL;
  text = g_strndup ((const gchar *) *data + 3, tlen);
  *data += 3 + tlen;
  *size -= 3 + tlen;
  return text;
}
