/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-ctfstatssink
 * @title: ctfstatssink
 * @short_description: counts the events of a CTF packet stream
 *
 * A summary of the trace, what `trace-cmd report --stat` and
 * babeltrace2's `sink.utils.counter` give and more: events by name, and
 * per data stream (with its CPU when the packet context has `cpu_id`)
 * events, packets, the time of its first and last event, and what the
 * tracer discarded: events (the growth of the `events_discarded`
 * counter, one notice per growth as babeltrace2 reports them) and
 * packets (`packet_seq_num` gaps).  At EOS it writes the summary as text
 * or JSON (#GstCtfStatsSink:format) to #GstCtfStatsSink:location (stdout
 * by default) and posts it as an element message `ctf-stats` (fields
 * `events`, `packets`, `streams`, `discarded-events`,
 * `discarded-packets`, `first-ns`, `last-ns` and the `json` text), so
 * applications get it from the bus.
 *
 * For a trace written by the ctftracer tracer (env `tracer_name` =
 * "ctftracer") it adds the processing time per element and the latency
 * per source-to-sink path: count, min, mean, p50, p99 and max in ns
 * (JSON: `ctftracer.proctime`, `ctftracer.latency`).
 *
 * Event times are ns from the clock origin (the Unix epoch for LTTng),
 * computed as babeltrace2 2.0 computes them.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -q ctfsrc location=T ! ctfstatssink
 * ]| Prints the summary of trace T.
 * |[
 * gst-launch-1.0 tracecmdsrc location=trace.dat ! ctffilter events="sched_*" ! ctfstatssink format=json location=stats.json
 * ]| The counts of the sched events of a trace.dat file, as JSON.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gstctfstatssink.h"
#include "gstctfstatssink-tracer.h"

#include "gstctf-caps.h"
#include "gstctf-element-util.h"
#include "gstctf-event-merge.h"
#include "gstctf-metadata.h"
#include "gstctf-packet-meta.h"
#include "gstctf-reader.h"
#include "gsttracecmd.h"

GST_DEBUG_CATEGORY_STATIC (gst_ctf_stats_sink_debug);
#define GST_CAT_DEFAULT gst_ctf_stats_sink_debug

enum
{
  PROP_0,
  PROP_LOCATION,
  PROP_FORMAT,
  PROP_SIDE_STREAM,
};

typedef struct
{
  guint64 stream_class_id;
  guint64 stream_instance_id;   /* G_MAXUINT64: none */
  const gchar *stream_name;     /* interned (packet meta), or NULL */
  gint64 cpu;                   /* -1: no cpu_id */
  guint64 events, packets;
  guint64 discarded_events, discarded_event_notices;
  guint64 discarded_packets, discarded_packet_notices;
  gboolean has_time;
  gint64 first_ns, last_ns;
  guint64 clock;                /* next packet's base without timestamp_begin */
  GstCtfDiscardTracker tracker;
} StreamStats;

typedef struct
{
  gchar *name;
  guint64 count;
} NameCount;

struct _GstCtfStatsSink
{
  GstBaseSink parent;

  /* Properties, protected by the object lock. */
  gchar *location;
  GstCtfStatsSinkFormat format;
  gboolean side_stream;

  /* Streaming thread. */
  gchar *tsdl;
  GstCtfTraceClass *tc;
  const GstCtfStreamClass *side;        /* trace.dat side stream, or NULL */
  GstCtfEventIter *it;
  GArray *streams;              /* StreamStats */
  GHashTable *names;            /* name -> NameCount */
  GHashTable *classes;          /* const GstCtfEventClass * -> NameCount */
  GstCtfTracerStats *tracer;    /* a ctftracer trace: its summaries */
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

GType
gst_ctf_stats_sink_format_get_type (void)
{
  static gsize type;
  static const GEnumValue values[] = {
    {GST_CTF_STATS_SINK_FORMAT_TEXT, "Text for people", "text"},
    {GST_CTF_STATS_SINK_FORMAT_JSON, "One JSON object", "json"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstCtfStatsSinkFormat", values));
  return (GType) type;
}

#define gst_ctf_stats_sink_parent_class parent_class
G_DEFINE_TYPE (GstCtfStatsSink, gst_ctf_stats_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (ctfstatssink, "ctfstatssink",
    GST_RANK_NONE, GST_TYPE_CTF_STATS_SINK,
    GST_DEBUG_CATEGORY_INIT (gst_ctf_stats_sink_debug, "ctfstatssink", 0,
        "CTF trace statistics"));

static void gst_ctf_stats_sink_finalize (GObject * object);
static void gst_ctf_stats_sink_set_property (GObject * object,
    guint prop_id, const GValue * value, GParamSpec * pspec);
static void gst_ctf_stats_sink_get_property (GObject * object,
    guint prop_id, GValue * value, GParamSpec * pspec);
static gboolean gst_ctf_stats_sink_start (GstBaseSink * sink);
static gboolean gst_ctf_stats_sink_stop (GstBaseSink * sink);
static gboolean gst_ctf_stats_sink_set_caps (GstBaseSink * sink,
    GstCaps * caps);
static gboolean gst_ctf_stats_sink_event (GstBaseSink * sink,
    GstEvent * event);
static GstFlowReturn gst_ctf_stats_sink_render (GstBaseSink * sink,
    GstBuffer * buf);

static void
gst_ctf_stats_sink_class_init (GstCtfStatsSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *sink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->finalize = gst_ctf_stats_sink_finalize;
  gobject_class->set_property = gst_ctf_stats_sink_set_property;
  gobject_class->get_property = gst_ctf_stats_sink_get_property;

  /**
   * GstCtfStatsSink:location:
   *
   * File the summary is written to at EOS (replaced); %NULL: stdout.
   */
  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "File the summary is written to at EOS (NULL: stdout)", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfStatsSink:format:
   *
   * `text` (for people) or `json` (one object, for scripts).
   */
  g_object_class_install_property (gobject_class, PROP_FORMAT,
      g_param_spec_enum ("format", "Format",
          "Summary format: text (for people) or json (one object: totals, "
          "\"event_names\" and \"streams\")", GST_TYPE_CTF_STATS_SINK_FORMAT,
          GST_CTF_STATS_SINK_FORMAT_TEXT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfStatsSink:side-stream:
   *
   * Also counts the events and packets of a trace.dat's side stream (the
   * `tracecmd_*` event classes: the file's header and options, ftrace
   * formats, saved cmdlines, kallsyms, printk formats; see
   * gst_ctf_trace_dat_is_side_stream_class()).  Off by default: they
   * describe the trace rather than happen in it, and `trace-cmd report
   * --stat` counts none of them.
   */
  g_object_class_install_property (gobject_class, PROP_SIDE_STREAM,
      g_param_spec_boolean ("side-stream", "Side stream",
          "Also count the events of a trace.dat's side stream (tracecmd_* "
          "event classes: header, options, ftrace formats, cmdlines, "
          "kallsyms, printk formats), which describe the trace rather than "
          "happen in it", FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class,
      "CTF trace statistics", "Sink",
      "Counts the events of a CTF packet stream by name and by stream/CPU, "
      "with time range and discarded events and packets; text or JSON, "
      "and an element message", GST_CTF_ELEMENT_AUTHOR);

  sink_class->start = GST_DEBUG_FUNCPTR (gst_ctf_stats_sink_start);
  sink_class->stop = GST_DEBUG_FUNCPTR (gst_ctf_stats_sink_stop);
  sink_class->set_caps = GST_DEBUG_FUNCPTR (gst_ctf_stats_sink_set_caps);
  sink_class->event = GST_DEBUG_FUNCPTR (gst_ctf_stats_sink_event);
  sink_class->render = GST_DEBUG_FUNCPTR (gst_ctf_stats_sink_render);

  gst_type_mark_as_plugin_api (GST_TYPE_CTF_STATS_SINK_FORMAT, 0);
}

static void
name_count_free (gpointer p)
{
  NameCount *n = p;

  g_free (n->name);
  g_free (n);
}

static void
gst_ctf_stats_sink_init (GstCtfStatsSink * self)
{
  self->streams = g_array_new (FALSE, TRUE, sizeof (StreamStats));
  self->names = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      name_count_free);
  self->classes = g_hash_table_new (NULL, NULL);
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
}

static void
gst_ctf_stats_sink_finalize (GObject * object)
{
  GstCtfStatsSink *self = GST_CTF_STATS_SINK (object);

  g_free (self->location);
  g_array_unref (self->streams);
  g_hash_table_unref (self->classes);
  g_hash_table_unref (self->names);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_ctf_stats_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfStatsSink *self = GST_CTF_STATS_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    case PROP_FORMAT:
      self->format = g_value_get_enum (value);
      break;
    case PROP_SIDE_STREAM:
      self->side_stream = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_ctf_stats_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfStatsSink *self = GST_CTF_STATS_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_FORMAT:
      g_value_set_enum (value, self->format);
      break;
    case PROP_SIDE_STREAM:
      g_value_set_boolean (value, self->side_stream);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
reset (GstCtfStatsSink * self)
{
  g_clear_pointer (&self->it, gst_ctf_event_iter_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  self->side = NULL;
  g_clear_pointer (&self->tsdl, g_free);
  g_array_set_size (self->streams, 0);
  g_hash_table_remove_all (self->classes);
  g_hash_table_remove_all (self->names);
  g_clear_pointer (&self->tracer, gst_ctf_tracer_stats_free);
}

static gboolean
gst_ctf_stats_sink_start (GstBaseSink * sink)
{
  reset (GST_CTF_STATS_SINK (sink));
  return TRUE;
}

static gboolean
gst_ctf_stats_sink_stop (GstBaseSink * sink)
{
  reset (GST_CTF_STATS_SINK (sink));
  return TRUE;
}

static gboolean
gst_ctf_stats_sink_set_caps (GstBaseSink * sink, GstCaps * caps)
{
  GstCtfStatsSink *self = GST_CTF_STATS_SINK (sink);
  GstCtfTraceClass *tc = NULL;

  switch (gst_ctf_element_parse_caps (GST_ELEMENT (self), caps, &self->tsdl,
          &tc)) {
    case GST_CTF_CAPS_SAME:
      return TRUE;
    case GST_CTF_CAPS_FAILED:
      return FALSE;
    case GST_CTF_CAPS_NEW:
      break;
  }
  /* Counts by event class point into the old trace class: a grown one
   * keeps the names, counted by name. */
  g_hash_table_remove_all (self->classes);
  g_clear_pointer (&self->it, gst_ctf_event_iter_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  self->tc = tc;
  self->side = gst_ctf_trace_dat_find_side_stream_class (tc);
  self->it = gst_ctf_event_iter_new (tc);
  {
    const GstCtfEnvEntry *e = gst_ctf_trace_class_find_env (tc,
        "tracer_name");

    if (self->tracer == NULL && e != NULL && e->is_string &&
        !g_strcmp0 (e->str, "ctftracer"))
      self->tracer = gst_ctf_tracer_stats_new ();
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */

static StreamStats *
stream_stats (GstCtfStatsSink * self, const GstCtfPacketInfo * info,
    const GstCtfPacketMeta * meta)
{
  guint64 inst = info->has_stream_instance_id ? info->stream_instance_id :
      G_MAXUINT64;
  const gchar *name = meta ? meta->stream_name : NULL;
  StreamStats st = { 0, };
  guint i;

  for (i = 0; i < self->streams->len; i++) {
    StreamStats *s = &g_array_index (self->streams, StreamStats, i);

    if (s->stream_class_id == info->stream_class_id &&
        s->stream_instance_id == inst && s->stream_name == name)
      return s;
  }
  st.stream_class_id = info->stream_class_id;
  st.stream_instance_id = inst;
  st.stream_name = name;
  st.cpu = -1;
  g_array_append_val (self->streams, st);
  return &g_array_index (self->streams, StreamStats, self->streams->len - 1);
}

static NameCount *
name_count (GstCtfStatsSink * self, const GstCtfEventClass * ec)
{
  NameCount *n = g_hash_table_lookup (self->classes, ec);

  if (n == NULL) {
    n = g_hash_table_lookup (self->names, ec->name);
    if (n == NULL) {
      n = g_new0 (NameCount, 1);
      n->name = g_strdup (ec->name);
      g_hash_table_insert (self->names, n->name, n);
    }
    g_hash_table_insert (self->classes, (gpointer) ec, n);
  }
  return n;
}

static void
packet_cpu (GstCtfStatsSink * self, StreamStats * st)
{
  guint n = 0, i;
  const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (self->it,
      GST_CTF_SCOPE_PACKET_CONTEXT, &n);

  for (i = 1; v && i < n && i < v[0].end && v[i].end > i; i = v[i].end)
    if (v[i].name && strcmp (v[i].name, "cpu_id") == 0 && v[i].fc &&
        v[i].fc->type == GST_CTF_FIELD_CLASS_INTEGER) {
      st->cpu = (gint64) MIN (v[i].v.u, (guint64) G_MAXINT64);
      return;
    }
}

static gboolean
side_stream (GstCtfStatsSink * self)
{
  gboolean ret;

  GST_OBJECT_LOCK (self);
  ret = self->side_stream;
  GST_OBJECT_UNLOCK (self);
  return ret;
}

static GstFlowReturn
gst_ctf_stats_sink_render (GstBaseSink * sink, GstBuffer * buf)
{
  GstCtfStatsSink *self = GST_CTF_STATS_SINK (sink);
  GstCtfPacketMeta *meta = gst_buffer_get_ctf_packet_meta (buf);
  const GstCtfClockClass *cc;
  const GstCtfEventClass *last_ec = NULL;
  NameCount *nc = NULL;
  GstCtfMergeItem items[2];
  GstCtfPacketInfo info;
  StreamStats *st;
  GError *err = NULL;
  GstMapInfo map;
  guint n, i;

  if (self->tc == NULL) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("Received a packet before caps with CTF metadata."));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, (NULL), ("Cannot map buffer."));
    return GST_FLOW_ERROR;
  }
  if (!gst_ctf_packet_read_info (self->tc, map.data, map.size, &info, &err))
    goto error;
  if (self->side != NULL && info.stream_class == self->side
      && !side_stream (self)) {
    gst_buffer_unmap (buf, &map);
    return GST_FLOW_OK;
  }
  st = stream_stats (self, &info, meta);
  cc = info.stream_class ? info.stream_class->default_clock : NULL;
  st->packets++;
  n = gst_ctf_discard_tracker_next_packet (&st->tracker, &info, cc, items);
  for (i = 0; i < n; i++) {
    guint64 c = items[i].count == G_MAXUINT64 ? 0 : items[i].count;

    if (items[i].type == GST_CTF_MERGE_DISCARDED_EVENTS) {
      st->discarded_events += c;
      st->discarded_event_notices++;
    } else {
      st->discarded_packets += c;
      st->discarded_packet_notices++;
    }
  }

  gst_ctf_event_iter_set_recording (self->it, TRUE);
  if (!gst_ctf_event_iter_set_packet (self->it, map.data, map.size, &err))
    goto error;
  if (st->cpu < 0)
    packet_cpu (self, st);
  gst_ctf_event_iter_set_recording (self->it, self->tracer != NULL);
  if (!info.has_timestamp_begin)
    gst_ctf_event_iter_set_clock_value (self->it, st->clock);
  while (gst_ctf_event_iter_next (self->it, &err)) {
    const GstCtfEventClass *ec = gst_ctf_event_iter_get_event_class (self->it);
    gint64 ns;

    if (ec != last_ec) {
      nc = name_count (self, ec);
      last_ec = ec;
    }
    nc->count++;
    st->events++;
    if (self->tracer != NULL) {
      guint nv = 0;
      const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (self->it,
          GST_CTF_SCOPE_EVENT_PAYLOAD, &nv);

      gst_ctf_tracer_stats_add (self->tracer, ec->name, v, nv);
    }
    if (cc && gst_ctf_clock_class_cycles_to_ns_from_origin (cc,
            gst_ctf_event_iter_get_clock_value (self->it), &ns)) {
      if (!st->has_time)
        st->first_ns = ns;
      st->last_ns = ns;
      st->has_time = TRUE;
    }
  }
  if (err)
    goto error;
  st->clock = gst_ctf_event_iter_get_clock_value (self->it);
  gst_buffer_unmap (buf, &map);
  return GST_FLOW_OK;

error:
  GST_ELEMENT_ERROR (self, STREAM, DECODE, ("Cannot decode packet: %s",
          err->message), ("buffer offset=%" G_GUINT64_FORMAT " (bytes in its "
          "stream file) (%s, code %d)", GST_BUFFER_OFFSET (buf),
          g_quark_to_string (err->domain), err->code));
  g_clear_error (&err);
  gst_buffer_unmap (buf, &map);
  return GST_FLOW_ERROR;
}

/* ------------------------------------------------------------------ */
/* The summary */

typedef struct
{
  guint64 events, packets, discarded_events, discarded_packets;
  guint64 discarded_event_notices, discarded_packet_notices;
  gboolean has_time;
  gint64 first_ns, last_ns;
} Totals;

static void
totals (GstCtfStatsSink * self, Totals * t)
{
  guint i;

  memset (t, 0, sizeof (*t));
  for (i = 0; i < self->streams->len; i++) {
    const StreamStats *s = &g_array_index (self->streams, StreamStats, i);

    t->events += s->events;
    t->packets += s->packets;
    t->discarded_events += s->discarded_events;
    t->discarded_packets += s->discarded_packets;
    t->discarded_event_notices += s->discarded_event_notices;
    t->discarded_packet_notices += s->discarded_packet_notices;
    if (s->has_time) {
      t->first_ns = t->has_time ? MIN (t->first_ns, s->first_ns) :
          s->first_ns;
      t->last_ns = t->has_time ? MAX (t->last_ns, s->last_ns) : s->last_ns;
      t->has_time = TRUE;
    }
  }
}

static gint
by_count (gconstpointer a, gconstpointer b)
{
  const NameCount *x = *(NameCount * const *) a;
  const NameCount *y = *(NameCount * const *) b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->name, y->name);
}

static GPtrArray *
sorted_names (GstCtfStatsSink * self)
{
  GPtrArray *a = g_ptr_array_new ();
  GHashTableIter it;
  gpointer v;

  g_hash_table_iter_init (&it, self->names);
  while (g_hash_table_iter_next (&it, NULL, &v))
    g_ptr_array_add (a, v);
  g_ptr_array_sort (a, by_count);
  return a;
}

static void
json_string (GString * s, const gchar * str)
{
  const guchar *p;

  g_string_append_c (s, '"');
  for (p = (const guchar *) str; *p; p++) {
    if (*p == '"' || *p == '\\')
      g_string_append_printf (s, "\\%c", *p);
    else if (*p < 0x20)
      g_string_append_printf (s, "\\u%04x", *p);
    else
      g_string_append_c (s, *p);
  }
  g_string_append_c (s, '"');
}

static void
append_seconds (GString * s, gint64 ns)
{
  guint64 a = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;

  g_string_append_printf (s, "%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
      ns < 0 ? "-" : "", a / 1000000000, a % 1000000000);
}

static gchar *
stream_label (const StreamStats * s)
{
  if (s->stream_name)
    return g_strdup (s->stream_name);
  if (s->stream_instance_id != G_MAXUINT64)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
        s->stream_class_id, s->stream_instance_id);
  return g_strdup_printf ("%" G_GUINT64_FORMAT, s->stream_class_id);
}

static gchar *
make_json (GstCtfStatsSink * self, const Totals * t)
{
  GString *s = g_string_new ("{");
  GPtrArray *names = sorted_names (self);
  guint i;

  g_string_append_printf (s, "\"events\": %" G_GUINT64_FORMAT ", "
      "\"packets\": %" G_GUINT64_FORMAT ", \"streams_count\": %u, "
      "\"discarded_events\": %" G_GUINT64_FORMAT ", "
      "\"discarded_event_notices\": %" G_GUINT64_FORMAT ", "
      "\"discarded_packets\": %" G_GUINT64_FORMAT ", "
      "\"discarded_packet_notices\": %" G_GUINT64_FORMAT, t->events,
      t->packets, self->streams->len, t->discarded_events,
      t->discarded_event_notices, t->discarded_packets,
      t->discarded_packet_notices);
  if (t->has_time)
    g_string_append_printf (s, ", \"first_ns\": %" G_GINT64_FORMAT
        ", \"last_ns\": %" G_GINT64_FORMAT, t->first_ns, t->last_ns);
  g_string_append (s, ", \"event_names\": {");
  for (i = 0; i < names->len; i++) {
    const NameCount *n = g_ptr_array_index (names, i);

    g_string_append (s, i ? ", " : "");
    json_string (s, n->name);
    g_string_append_printf (s, ": %" G_GUINT64_FORMAT, n->count);
  }
  g_string_append (s, "}, \"streams\": [");
  for (i = 0; i < self->streams->len; i++) {
    const StreamStats *st = &g_array_index (self->streams, StreamStats, i);
    gchar *label = stream_label (st);

    g_string_append (s, i ? ", {\"name\": " : "{\"name\": ");
    json_string (s, label);
    g_string_append_printf (s, ", \"stream_class_id\": %" G_GUINT64_FORMAT,
        st->stream_class_id);
    if (st->stream_instance_id != G_MAXUINT64)
      g_string_append_printf (s, ", \"stream_instance_id\": %"
          G_GUINT64_FORMAT, st->stream_instance_id);
    if (st->cpu >= 0)
      g_string_append_printf (s, ", \"cpu_id\": %" G_GINT64_FORMAT, st->cpu);
    g_string_append_printf (s, ", \"events\": %" G_GUINT64_FORMAT
        ", \"packets\": %" G_GUINT64_FORMAT ", \"discarded_events\": %"
        G_GUINT64_FORMAT ", \"discarded_event_notices\": %" G_GUINT64_FORMAT
        ", \"discarded_packets\": %" G_GUINT64_FORMAT
        ", \"discarded_packet_notices\": %" G_GUINT64_FORMAT, st->events,
        st->packets, st->discarded_events, st->discarded_event_notices,
        st->discarded_packets, st->discarded_packet_notices);
    if (st->has_time)
      g_string_append_printf (s, ", \"first_ns\": %" G_GINT64_FORMAT
          ", \"last_ns\": %" G_GINT64_FORMAT, st->first_ns, st->last_ns);
    g_string_append_c (s, '}');
    g_free (label);
  }
  g_string_append_c (s, ']');
  if (self->tracer != NULL)
    gst_ctf_tracer_stats_append_json (self->tracer, s, json_string);
  g_string_append (s, "}\n");
  g_ptr_array_unref (names);
  return g_string_free (s, FALSE);
}

static gchar *
make_text (GstCtfStatsSink * self, const Totals * t)
{
  GString *s = g_string_new (NULL);
  GPtrArray *names = sorted_names (self);
  guint i;

  g_string_append_printf (s, "%" G_GUINT64_FORMAT " events, %"
      G_GUINT64_FORMAT " packets, %u streams\n", t->events, t->packets,
      self->streams->len);
  if (t->has_time) {
    g_string_append (s, "first event: ");
    append_seconds (s, t->first_ns);
    g_string_append (s, " s, last event: ");
    append_seconds (s, t->last_ns);
    g_string_append (s, " s, duration: ");
    append_seconds (s, t->last_ns - t->first_ns);
    g_string_append (s, " s (from the clock origin)\n");
  }
  g_string_append_printf (s, "discarded: %" G_GUINT64_FORMAT " events (%"
      G_GUINT64_FORMAT " notices), %" G_GUINT64_FORMAT " packets (%"
      G_GUINT64_FORMAT " notices)\n\nevents by name:\n", t->discarded_events,
      t->discarded_event_notices, t->discarded_packets,
      t->discarded_packet_notices);
  for (i = 0; i < names->len; i++) {
    const NameCount *n = g_ptr_array_index (names, i);

    g_string_append_printf (s, "%12" G_GUINT64_FORMAT "  %s\n", n->count,
        n->name);
  }
  g_string_append (s, "\nstreams:\n");
  for (i = 0; i < self->streams->len; i++) {
    const StreamStats *st = &g_array_index (self->streams, StreamStats, i);
    gchar *label = stream_label (st);

    g_string_append_printf (s, "  %s (stream class %" G_GUINT64_FORMAT,
        label, st->stream_class_id);
    if (st->cpu >= 0)
      g_string_append_printf (s, ", CPU %" G_GINT64_FORMAT, st->cpu);
    g_string_append_printf (s, "): %" G_GUINT64_FORMAT " events, %"
        G_GUINT64_FORMAT " packets, discarded %" G_GUINT64_FORMAT
        " events and %" G_GUINT64_FORMAT " packets", st->events, st->packets,
        st->discarded_events, st->discarded_packets);
    if (st->has_time) {
      g_string_append (s, ", ");
      append_seconds (s, st->first_ns);
      g_string_append (s, " s to ");
      append_seconds (s, st->last_ns);
      g_string_append (s, " s");
    }
    g_string_append_c (s, '\n');
    g_free (label);
  }
  if (self->tracer != NULL)
    gst_ctf_tracer_stats_append_text (self->tracer, s);
  g_ptr_array_unref (names);
  return g_string_free (s, FALSE);
}

/* Writes the summary and posts it; FALSE after posting an error. */

/* The summary written to @location: a regular file (or a new one) is
 * replaced whole (g_file_set_contents(): a reader never sees half of
 * it); anything else (a device such as /dev/null or /dev/stdout, a FIFO)
 * is opened and written, never replaced by a regular file. */
static gboolean
write_summary (const gchar * location, const gchar * text, GError ** error)
{
  gboolean regular = !g_file_test (location, G_FILE_TEST_EXISTS) ||
      g_file_test (location, G_FILE_TEST_IS_REGULAR);
  FILE *f;
  gboolean ok;

  if (regular)
    return g_file_set_contents (location, text, -1, error);
  f = fopen (location, "w");
  if (f == NULL) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "%s", g_strerror (errno));
    return FALSE;
  }
  ok = fputs (text, f) >= 0;
  ok = fclose (f) == 0 && ok;
  if (!ok)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "%s", g_strerror (errno));
  return ok;
}

static gboolean
report (GstCtfStatsSink * self)
{
  Totals t;
  gchar *json, *out, *location;
  GstCtfStatsSinkFormat format;
  GError *err = NULL;
  GstStructure *st;

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  format = self->format;
  GST_OBJECT_UNLOCK (self);

  totals (self, &t);
  json = make_json (self, &t);
  out = format == GST_CTF_STATS_SINK_FORMAT_JSON ? g_strdup (json) :
      make_text (self, &t);
  if (location && *location) {
    if (!write_summary (location, out, &err)) {
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
          ("Cannot write the statistics to \"%s\": %s", location,
              err->message), (NULL));
      g_clear_error (&err);
      g_free (out);
      g_free (json);
      g_free (location);
      return FALSE;
    }
  } else {
    fputs (out, stdout);
    fflush (stdout);
  }
  st = gst_structure_new ("ctf-stats",
      "events", G_TYPE_UINT64, t.events,
      "packets", G_TYPE_UINT64, t.packets,
      "streams", G_TYPE_UINT, self->streams->len,
      "discarded-events", G_TYPE_UINT64, t.discarded_events,
      "discarded-packets", G_TYPE_UINT64, t.discarded_packets,
      "json", G_TYPE_STRING, json, NULL);
  if (t.has_time)
    gst_structure_set (st, "first-ns", G_TYPE_INT64, t.first_ns,
        "last-ns", G_TYPE_INT64, t.last_ns, NULL);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), st));
  g_free (out);
  g_free (json);
  g_free (location);
  return TRUE;
}

static gboolean
gst_ctf_stats_sink_event (GstBaseSink * sink, GstEvent * event)
{
  GstCtfStatsSink *self = GST_CTF_STATS_SINK (sink);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS && !report (self)) {
    gst_event_unref (event);
    return FALSE;
  }
  return GST_BASE_SINK_CLASS (parent_class)->event (sink, event);
}
