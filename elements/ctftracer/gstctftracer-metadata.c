/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctftracer: the trace's metadata (CTF 1.8 TSDL; ctf-version=2 converts
 * it).  Fixed at start, so it is written once, complete, before any
 * packet.  Byte-aligned little-endian fields keep events small (an event
 * is its 4-byte compact header plus its payload) and let the hooks store
 * them with plain copies.  Enumerations come from GStreamer's own GEnum
 * types, so a reader prints `GST_FLOW_OK`-style labels.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctftracer-private.h"

#include <unistd.h>

static void
append_enum (GString * m, const gchar * alias, const gchar * container,
    GType type, gboolean nick)
{
  GEnumClass *ec = g_type_class_ref (type);
  guint i;

  g_string_append_printf (m, "typealias enum : %s {\n", container);
  for (i = 0; i < ec->n_values; i++)
    g_string_append_printf (m, "\t\"%s\" = %d,\n",
        nick ? ec->values[i].value_nick : ec->values[i].value_name,
        ec->values[i].value);
  /* TSDL needs a non-empty list; close it with the last entry */
  g_string_truncate (m, m->len - 2);
  g_string_append_printf (m, "\n} := %s;\n\n", alias);
  g_type_class_unref (ec);
}

static void
append_flags (GString * m, const gchar * alias, const gchar * container,
    GType type)
{
  GFlagsClass *fc = g_type_class_ref (type);
  guint i;

  g_string_append_printf (m, "typealias enum : %s {\n", container);
  for (i = 0; i < fc->n_values; i++)
    g_string_append_printf (m, "\t\"%s\" = %u,\n", fc->values[i].value_nick,
        fc->values[i].value);
  g_string_truncate (m, m->len - 2);
  g_string_append_printf (m, "\n} := %s;\n\n", alias);
  g_type_class_unref (fc);
}

static gchar *
escape (const gchar * s)
{
  return g_strescape (s != NULL ? s : "", NULL);
}

static void
event (GString * m, const gchar * name, guint id, const gchar * fields)
{
  g_string_append_printf (m, "event {\n\tname = \"%s\";\n\tid = %u;\n"
      "\tstream_id = 0;\n\tfields := struct {\n%s\t};\n};\n\n", name, id,
      fields);
}

gchar *
tracer_metadata_tsdl (const Trace * t)
{
  GString *m = g_string_new ("/* CTF 1.8 */\n\n");
  gchar host[256] = "";
  gchar *e_host, *e_prog, *e_ver, *ver;
  const gchar *prog = g_get_prgname ();
  guint64 off = (guint64) t->epoch_offset_ns;
  guint i;

  gethostname (host, sizeof host - 1);
  e_host = escape (host);
  e_prog = escape (prog);
  ver = gst_version_string ();
  e_ver = escape (ver);
  g_free (ver);

  g_string_append (m,
      "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
      "typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"
      "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
      "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
      "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
      "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
      "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
      "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
      "typealias integer { size = 27; align = 1; signed = false; "
      "map = clock.monotonic.value; } := uint27_clock_monotonic_t;\n"
      "typealias integer { size = 64; align = 8; signed = false; "
      "map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n\n");

  g_string_append (m, "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"");
  for (i = 0; i < 16; i++) {
    g_string_append_printf (m, "%02x", t->uuid[i]);
    if (i == 3 || i == 5 || i == 7 || i == 9)
      g_string_append_c (m, '-');
  }
  g_string_append (m, "\";\n\tbyte_order = le;\n"
      "\tpacket.header := struct {\n"
      "\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
      "\t\tuint32_t stream_id;\n\t\tuint64_t stream_instance_id;\n"
      "\t};\n};\n\n");

  g_string_append_printf (m, "env {\n\tdomain = \"gstreamer\";\n"
      "\ttracer_name = \"ctftracer\";\n\thostname = \"%s\";\n"
      "\tprocname = \"%s\";\n\tvpid = %d;\n\tgst_version = \"%s\";\n"
      "\tgst_ctf_version = \"%s\";\n};\n\n", e_host, e_prog,
      (int) getpid (), e_ver, VERSION);

  /* CLOCK_MONOTONIC with the Unix epoch as origin (the offset measured at
   * start), as LTTng's `monotonic` clock. */
  g_string_append_printf (m, "clock {\n\tname = \"monotonic\";\n"
      "\tdescription = \"Monotonic Clock\";\n\tfreq = 1000000000;\n"
      "\tprecision = 1;\n\toffset_s = %" G_GUINT64_FORMAT ";\n"
      "\toffset = %" G_GUINT64_FORMAT ";\n\tabsolute = TRUE;\n};\n\n",
      off / GST_SECOND, off % GST_SECOND);

  g_string_append (m, "struct event_header_compact {\n"
      "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
      "\tvariant <id> {\n"
      "\t\tstruct { uint27_clock_monotonic_t timestamp; } compact;\n"
      "\t\tstruct { uint32_t id; uint64_clock_monotonic_t timestamp; } "
      "extended;\n\t} v;\n} align(8);\n\n"
      "stream {\n\tid = 0;\n\tevent.header := struct event_header_compact;\n"
      "\tpacket.context := struct {\n"
      "\t\tuint64_clock_monotonic_t timestamp_begin;\n"
      "\t\tuint64_clock_monotonic_t timestamp_end;\n"
      "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
      "\t\tuint64_t packet_seq_num;\n\t\tuint64_t events_discarded;\n"
      "\t\tuint32_t thread_id;\n\t};\n};\n\n");

  append_enum (m, "flow_return_t", "int8_t", GST_TYPE_FLOW_RETURN, FALSE);
  append_enum (m, "event_type_t", "uint32_t", GST_TYPE_EVENT_TYPE, TRUE);
  append_enum (m, "query_type_t", "uint32_t", GST_TYPE_QUERY_TYPE, TRUE);
  append_flags (m, "message_type_t", "uint32_t", GST_TYPE_MESSAGE_TYPE);
  append_enum (m, "state_t", "uint8_t", GST_TYPE_STATE, TRUE);
  append_enum (m, "state_change_return_t", "uint8_t",
      GST_TYPE_STATE_CHANGE_RETURN, TRUE);
  append_enum (m, "pad_direction_t", "uint8_t", GST_TYPE_PAD_DIRECTION, TRUE);
  append_enum (m, "debug_level_t", "uint8_t", GST_TYPE_DEBUG_LEVEL, TRUE);

  /* `flags` is GstBufferFlags >> 4 (bit 0: live, 2: discont, ...);
   * timestamps are ns, 18446744073709551615 (and 4294967295 for the
   * 32-bit duration) meaning GST_CLOCK_TIME_NONE. */
  event (m, "buffer", EV_BUFFER,
      "\t\tuint16_t pad;\n\t\tuint16_t flags;\n\t\tuint32_t size;\n"
      "\t\tuint64_t pts;\n\t\tuint64_t dts;\n\t\tuint32_t duration;\n"
      "\t\tuint64_t offset;\n");
  event (m, "push_done", EV_PUSH_DONE,
      "\t\tuint16_t pad;\n\t\tflow_return_t flow;\n");
  event (m, "buffer_list", EV_BUFFER_LIST,
      "\t\tuint16_t pad;\n\t\tuint32_t buffers;\n\t\tuint64_t size;\n");
  event (m, "pull_range", EV_PULL_RANGE,
      "\t\tuint16_t pad;\n\t\tflow_return_t flow;\n\t\tuint32_t size;\n"
      "\t\tuint64_t pts;\n\t\tuint64_t offset;\n");
  event (m, "event", EV_EVENT, "\t\tuint16_t pad;\n\t\tevent_type_t type;\n");
  event (m, "query", EV_QUERY, "\t\tuint16_t pad;\n\t\tquery_type_t type;\n");
  event (m, "proctime", EV_PROCTIME,
      "\t\tuint32_t element;\n\t\tuint64_t time;\n");
  event (m, "latency", EV_LATENCY,
      "\t\tuint16_t src_pad;\n\t\tuint16_t sink_pad;\n\t\tuint64_t time;\n");
  event (m, "queue_level", EV_QUEUE_LEVEL,
      "\t\tuint32_t element;\n\t\tuint32_t buffers;\n\t\tuint32_t bytes;\n"
      "\t\tuint64_t time;\n\t\tuint32_t max_buffers;\n"
      "\t\tuint32_t max_bytes;\n\t\tuint64_t max_time;\n");
  event (m, "state_change", EV_STATE_CHANGE,
      "\t\tuint32_t element;\n\t\tstate_t from;\n\t\tstate_t to;\n"
      "\t\tstate_change_return_t result;\n");
  event (m, "message", EV_MESSAGE,
      "\t\tuint32_t element;\n\t\tmessage_type_t type;\n"
      "\t\tstring details;\n");
  event (m, "element_new", EV_ELEMENT_NEW,
      "\t\tuint32_t element;\n\t\tstring name;\n\t\tstring factory;\n");
  event (m, "pad_new", EV_PAD_NEW,
      "\t\tuint16_t pad;\n\t\tuint32_t element;\n"
      "\t\tpad_direction_t direction;\n\t\tstring name;\n"
      "\t\tstring element_name;\n\t\tstring factory;\n\t\tstring path;\n");
  event (m, "thread", EV_THREAD, "\t\tuint32_t tid;\n\t\tstring name;\n");
  event (m, "thread_cpu", EV_THREAD_CPU,
      "\t\tuint32_t tid;\n\t\tuint64_t user;\n\t\tuint64_t system;\n");
  event (m, "log", EV_LOG,
      "\t\tdebug_level_t level;\n\t\tstring category;\n\t\tstring object;\n"
      "\t\tstring file;\n\t\tstring function;\n\t\tuint32_t line;\n"
      "\t\tstring message;\n");
  event (m, "buffer_long", EV_BUFFER_LONG,
      "\t\tuint16_t pad;\n\t\tuint16_t flags;\n\t\tuint32_t size;\n"
      "\t\tuint64_t pts;\n\t\tuint64_t dts;\n\t\tuint64_t duration;\n"
      "\t\tuint64_t offset;\n");
  event (m, "pad_rate", EV_PAD_RATE,
      "\t\tuint16_t pad;\n\t\tuint32_t buffers;\n\t\tuint64_t bytes;\n"
      "\t\tuint64_t period;\n");

  g_free (e_host);
  g_free (e_prog);
  g_free (e_ver);
  return g_string_free (m, FALSE);
}
