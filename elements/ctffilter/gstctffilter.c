/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-ctffilter
 * @title: ctffilter
 * @short_description: keeps the events of a CTF packet stream that match
 *   a filter
 *
 * Keeps the events that meet every condition set:
 *
 * - #GstCtfFilter:events: event class names, globs, `!` to exclude
 *   (`sched_*,irq_handler_entry,!sched_wakeup*`);
 * - #GstCtfFilter:cpus: CPU numbers from the packet context's `cpu_id`
 *   (`0,2-3`), as trace-cmd's `--cpu`;
 * - #GstCtfFilter:stream-classes: stream class ids; #GstCtfFilter:streams:
 *   data stream file names (globs, from the packet meta ctfsrc and
 *   tracecmdsrc set, e.g. `chan_0_*`, `cpu1`);
 * - #GstCtfFilter:pids / #GstCtfFilter:tids: process / thread ids, from
 *   the `vpid`/`vtid` contexts (LTTng-UST), `pid`/`tid` (LTTng kernel) or
 *   `common_pid` (tracecmdsrc), as trace-cmd's `-P`;
 * - #GstCtfFilter:filter: trace-cmd's `report -F` filter, verbatim
 *   (`sched_switch: next_pid == 123 && prev_state != 0`), applied to the
 *   event's fields and contexts by the names babeltrace2 shows;
 *   #GstCtfFilter:filter-out: the same, for the events to leave out
 *   (trace-cmd's `-v -F`).
 *
 * The output is a valid CTF packet stream with the same metadata: a
 * packet whose events are all kept goes out as the very same buffer; a
 * packet with none is dropped; a packet with some is written again with
 * the kept events (their bodies copied as bytes behind a new header when
 * their alignment allows, else re-encoded) and the input's header and
 * context, so `events_discarded`, `packet_seq_num` and the packet times
 * are kept.  Names, stream classes, streams and CPUs are decided once per
 * event class or per packet, without decoding events; the values of
 * events are decoded only for event classes whose expression needs them.
 * The packets of tracecmdsrc's side stream (the stream class holding
 * `tracecmd_event_format`: ftrace formats, saved cmdlines, kallsyms; they
 * describe the trace rather than happen in it) pass whatever the
 * conditions, and #GstCtfFilter:reduce-metadata keeps its event classes,
 * so `ctffilter events=sched_switch ! ctftextsink format=trace-cmd`
 * works.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -q ctfsrc location=T ! ctffilter events="lttng_ust_libc:*,!lttng_ust_libc:free" cpus=1 ! ctftextsink
 * ]| The libc events other than free of CPU 1, as text.
 * |[
 * gst-launch-1.0 tracecmdsrc location=trace.dat ! ctffilter filter="sched_switch: prev_pid == 0 || next_pid == 0" ! ctfsink location=OUT
 * ]| The switches from and to the idle task, as a CTF trace.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstctffilter.h"
#include "gstctffilter-private.h"

#include "gstctf-caps.h"
#include "gstctf-element-util.h"
#include "gsttracecmd.h"
#include "gstctf-filter-expr.h"
#include "gstctf-filter-spec.h"
#include "gstctf-metadata.h"
#include "gstctf-packet-meta.h"
#include "gstctf-packet-writer.h"
#include "gstctf-reader.h"

GST_DEBUG_CATEGORY_STATIC (gst_ctf_filter_debug);
#define GST_CAT_DEFAULT gst_ctf_filter_debug

enum
{
  PROP_0,
  PROP_EVENTS,
  PROP_CPUS,
  PROP_STREAM_CLASSES,
  PROP_STREAMS,
  PROP_PIDS,
  PROP_TIDS,
  PROP_FILTER,
  PROP_FILTER_OUT,
  PROP_STATS,
  PROP_REDUCE_METADATA,
  PROP_SIDE_STREAM,
  N_PROPS
};

#define N_TEXT_PROPS (PROP_FILTER_OUT + 1)
#define N_SCOPES (GST_CTF_SCOPE_EVENT_PAYLOAD + 1)

/* The decision for one event class. */
typedef struct
{
  GstCtfFilterPlanKind kind;
  GstCtfFilterPlan *plan;       /* for GST_CTF_FILTER_PLAN_EVAL */
} ClassPlan;

/* The plans of one stream class. */
typedef struct
{
  GHashTable *classes;          /* const GstCtfEventClass * -> ClassPlan */
  GstCtfFilterPlanKind all;     /* NEVER/ALWAYS when every class agrees */
  gboolean need_values;         /* some class decides on values */
} StreamPlans;

/* What ctffilter keeps per data stream: the last clock value, the base
 * of the next packet's first timestamp when packets have no
 * `timestamp_begin` (CTF 1.8 §8), and the packets it dropped, taken off
 * the `packet_seq_num` of the next ones so that readers do not report
 * them as lost (a gap the input had stays). */
typedef struct
{
  guint64 stream_class_id;
  guint64 stream_instance_id;
  const gchar *stream_name;     /* interned, from the packet meta */
  guint64 clock;
  guint64 dropped;
} StreamClock;

/* A kept event of the packet being filtered. */
typedef struct
{
  const GstCtfEventClass *ec;
  guint64 begin, body, end;     /* bit offsets */
  guint64 clock, clock_before;
} Kept;

struct _GstCtfFilter
{
  GstBaseTransform parent;

  /* Properties (the text as set), protected by the object lock. */
  gchar *text[N_TEXT_PROPS];

  /* Compiled at start(). */
  GstCtfNameList *events;
  GstCtfIdList *cpus;
  GstCtfIdList *stream_classes;
  GstCtfNameList *streams;
  GstCtfIdList *pids;
  GstCtfIdList *tids;
  GstCtfFilterExpr *filter;
  GstCtfFilterExpr *filter_out;

  /* Per trace class (streaming thread). */
  gchar *tsdl;
  GstCtfTraceClass *tc;
  GstCtfEventIter *it;
  GHashTable *writers;          /* stream class id -> GstCtfPacketWriter */
  GHashTable *plans;            /* stream class id -> StreamPlans */
  GArray *clocks;               /* StreamClock */
  GArray *kept;                 /* Kept */
  GHashTable *systems;          /* event name -> trace-cmd system */
  const GstCtfEventClass *format_class; /* tracecmd_event_format */

  /* reduce-metadata (object lock): the last input metadata and its
   * reduced text */
  gboolean reduce;
  gchar *reduced_in;
  gchar *reduced_out;

  /* Statistics, protected by the object lock; side-stream=true counts
   * the side stream's packets too. */
  gboolean side_stream;
  guint64 packets_passed;
  guint64 packets_dropped;
  guint64 packets_rewritten;
  guint64 events_kept;
  guint64 events_dropped;
};

static GParamSpec *props[N_PROPS];

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

#define gst_ctf_filter_parent_class parent_class
G_DEFINE_TYPE (GstCtfFilter, gst_ctf_filter, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (ctffilter, "ctffilter",
    GST_RANK_NONE, GST_TYPE_CTF_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_ctf_filter_debug, "ctffilter", 0,
        "CTF event filter"));

static void gst_ctf_filter_finalize (GObject * object);
static void gst_ctf_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_ctf_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_ctf_filter_start (GstBaseTransform * trans);
static gboolean gst_ctf_filter_stop (GstBaseTransform * trans);
static gboolean gst_ctf_filter_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
static gboolean gst_ctf_filter_sink_event (GstBaseTransform * trans,
    GstEvent * event);
static GstCaps *gst_ctf_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static GstFlowReturn gst_ctf_filter_generate_output (GstBaseTransform *
    trans, GstBuffer ** outbuf);

#define TEXT_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_READY)

static void
gst_ctf_filter_class_init (GstCtfFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->finalize = gst_ctf_filter_finalize;
  gobject_class->set_property = gst_ctf_filter_set_property;
  gobject_class->get_property = gst_ctf_filter_get_property;

  /**
   * GstCtfFilter:events:
   *
   * Event class names to keep: comma-separated globs (`*`, `?`) matched
   * against the whole name; `!` before one leaves those out.  %NULL or
   * "": every name.
   */
  props[PROP_EVENTS] = g_param_spec_string ("events", "Events",
      "Event names to keep, comma-separated globs on the whole name; \"!\" "
      "before one excludes, e.g. \"sched_*,irq_handler_entry,"
      "!sched_wakeup*\" (empty: all)", NULL, TEXT_FLAGS);

  /**
   * GstCtfFilter:cpus:
   *
   * CPUs to keep, from the `cpu_id` field of the packet context
   * (LTTng, tracecmdsrc): numbers and ranges, `0,2-3`.  Packets without
   * `cpu_id` are dropped when set.
   */
  props[PROP_CPUS] = g_param_spec_string ("cpus", "CPUs",
      "CPUs to keep (packet context cpu_id), e.g. \"0,2-3\" (empty: all)",
      NULL, TEXT_FLAGS);

  /**
   * GstCtfFilter:stream-classes:
   *
   * Stream class ids to keep (`0,2-3`).
   */
  props[PROP_STREAM_CLASSES] = g_param_spec_string ("stream-classes",
      "Stream classes", "Stream class ids to keep, e.g. \"0,2-3\" "
      "(empty: all)", NULL, TEXT_FLAGS);

  /**
   * GstCtfFilter:streams:
   *
   * Data streams to keep, by the name of their stream file (the packet
   * meta of ctfsrc and tracecmdsrc): globs, `!` to exclude, as
   * #GstCtfFilter:events.  A packet without a stream name has the name "".
   */
  props[PROP_STREAMS] = g_param_spec_string ("streams", "Streams",
      "Data stream file names to keep, globs, \"!\" excludes, e.g. "
      "\"chan_0_*\" or \"cpu1\" (empty: all)", NULL, TEXT_FLAGS);

  /**
   * GstCtfFilter:pids:
   *
   * Process ids to keep (trace-cmd's `-P`): the event's `vpid` context
   * (LTTng-UST), else `pid` (LTTng kernel), else `common_pid` (trace.dat
   * through tracecmdsrc, where it is the thread id).  Events with none of
   * them are dropped when set.
   */
  props[PROP_PIDS] = g_param_spec_string ("pids", "PIDs",
      "Process ids to keep (vpid, pid or common_pid context), e.g. "
      "\"1234,2000-2100\" (empty: all)", NULL, TEXT_FLAGS);

  /**
   * GstCtfFilter:tids:
   *
   * Thread ids to keep: the `vtid` context, else `tid`, else
   * `common_pid`.
   */
  props[PROP_TIDS] = g_param_spec_string ("tids", "TIDs",
      "Thread ids to keep (vtid, tid or common_pid context), e.g. "
      "\"1234\" (empty: all)", NULL, TEXT_FLAGS);

  /**
   * GstCtfFilter:filter:
   *
   * A filter in trace-cmd's `report -F` grammar (libtraceevent's), taken
   * verbatim: `EVENTS[: EXPRESSION]` terms separated by commas (several
   * `-F` options), see #GstCtfFilterExpr.  Field names are the ones
   * babeltrace2 shows, looked up in the payload, the event context, the
   * stream event context and the packet context.
   */
  props[PROP_FILTER] = g_param_spec_string ("filter", "Filter",
      "trace-cmd -F filter: \"EVENTS[: EXPR][, EVENTS[: EXPR]...]\", e.g. "
      "\"sched_switch: next_pid == 123 && prev_state != 0\" (empty: all)",
      NULL, TEXT_FLAGS);

  /**
   * GstCtfFilter:filter-out:
   *
   * The same grammar as #GstCtfFilter:filter, for the events to leave
   * out (trace-cmd's `-v -F`).
   */
  props[PROP_FILTER_OUT] = g_param_spec_string ("filter-out", "Filter out",
      "trace-cmd -v -F filter: the events it matches are left out (empty: "
      "none)", NULL, TEXT_FLAGS);

  /**
   * GstCtfFilter:stats:
   *
   * `application/x-ctf-filter-stats` with `packets-passed` (same
   * buffer), `packets-dropped`, `packets-rewritten`, `events-kept` and
   * `events-dropped` (events looked at; packets decided without decoding
   * count in neither), all guint64.
   */
  props[PROP_STATS] = g_param_spec_boxed ("stats", "Statistics",
      "Packets passed untouched, dropped and rewritten; events kept and "
      "dropped in decoded packets (guint64 counts)", GST_TYPE_STRUCTURE,
      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * GstCtfFilter:reduce-metadata:
   *
   * Writes the output's metadata without the event classes whose events
   * can never be kept: those #GstCtfFilter:events leaves out, those of
   * the stream classes #GstCtfFilter:stream-classes leaves out, and those
   * the #GstCtfFilter:filter expressions can never match (not for
   * tracecmdsrc's traces, whose expressions may name trace-cmd systems
   * known only from the packets).  The metadata is written again as TSDL
   * (gst_ctf_tsdl_write()); the event classes left keep their ids, so the
   * packets do not change.  CTF 2 metadata is passed whole.
   */
  props[PROP_REDUCE_METADATA] = g_param_spec_boolean ("reduce-metadata",
      "Reduce metadata", "Write the output's metadata without the event "
      "classes that can no longer appear (left out by events, "
      "stream-classes or filter); written again as TSDL, CTF 2 passed "
      "whole", FALSE, TEXT_FLAGS);

  /**
   * GstCtfFilter:side-stream:
   *
   * Counts the packets and events of a trace.dat's side stream (the
   * `tracecmd_*` event classes, see
   * gst_ctf_trace_dat_is_side_stream_class()) in #GstCtfFilter:stats.
   * Whatever this says, the side stream's packets pass whole: they
   * describe the trace (ftrace formats, saved cmdlines, kallsyms, ...)
   * rather than happen in it, and ctfsink and format=trace-cmd need them.
   */
  props[PROP_SIDE_STREAM] = g_param_spec_boolean ("side-stream",
      "Side stream", "Count the packets and events of a trace.dat's side "
      "stream (tracecmd_* event classes, which pass whole in any case) in "
      "stats", FALSE, TEXT_FLAGS);

  g_object_class_install_properties (gobject_class, N_PROPS, props);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "CTF event filter", "Filter",
      "Keeps the events of a CTF packet stream that match event names, "
      "CPUs, streams, process ids and trace-cmd -F expressions; packets "
      "kept whole pass untouched", GST_CTF_ELEMENT_AUTHOR);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_ctf_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_ctf_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_ctf_filter_set_caps);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_ctf_filter_transform_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_ctf_filter_sink_event);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_ctf_filter_generate_output);
  trans_class->passthrough_on_same_caps = FALSE;
}

static void
gst_ctf_filter_init (GstCtfFilter * self)
{
  self->clocks = g_array_new (FALSE, FALSE, sizeof (StreamClock));
  self->kept = g_array_new (FALSE, FALSE, sizeof (Kept));
  self->systems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
}

static void
gst_ctf_filter_finalize (GObject * object)
{
  GstCtfFilter *self = GST_CTF_FILTER (object);
  guint i;

  for (i = 0; i < N_TEXT_PROPS; i++)
    g_free (self->text[i]);
  g_array_unref (self->clocks);
  g_array_unref (self->kept);
  g_hash_table_unref (self->systems);
  g_free (self->reduced_in);
  g_free (self->reduced_out);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_ctf_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfFilter *self = GST_CTF_FILTER (object);

  if (prop_id > PROP_0 && prop_id < N_TEXT_PROPS) {
    GST_OBJECT_LOCK (self);
    g_free (self->text[prop_id]);
    self->text[prop_id] = g_value_dup_string (value);
    GST_OBJECT_UNLOCK (self);
    return;
  }
  if (prop_id == PROP_SIDE_STREAM) {
    GST_OBJECT_LOCK (self);
    self->side_stream = g_value_get_boolean (value);
    GST_OBJECT_UNLOCK (self);
    return;
  }
  if (prop_id == PROP_REDUCE_METADATA) {
    GST_OBJECT_LOCK (self);
    self->reduce = g_value_get_boolean (value);
    g_clear_pointer (&self->reduced_in, g_free);
    g_clear_pointer (&self->reduced_out, g_free);
    GST_OBJECT_UNLOCK (self);
    return;
  }
  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_ctf_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfFilter *self = GST_CTF_FILTER (object);

  if (prop_id > PROP_0 && prop_id < N_TEXT_PROPS) {
    GST_OBJECT_LOCK (self);
    g_value_set_string (value, self->text[prop_id]);
    GST_OBJECT_UNLOCK (self);
  } else if (prop_id == PROP_STATS) {
    GST_OBJECT_LOCK (self);
    g_value_take_boxed (value, gst_structure_new
        ("application/x-ctf-filter-stats",
            "packets-passed", G_TYPE_UINT64, self->packets_passed,
            "packets-dropped", G_TYPE_UINT64, self->packets_dropped,
            "packets-rewritten", G_TYPE_UINT64, self->packets_rewritten,
            "events-kept", G_TYPE_UINT64, self->events_kept,
            "events-dropped", G_TYPE_UINT64, self->events_dropped, NULL));
    GST_OBJECT_UNLOCK (self);
  } else if (prop_id == PROP_SIDE_STREAM) {
    GST_OBJECT_LOCK (self);
    g_value_set_boolean (value, self->side_stream);
    GST_OBJECT_UNLOCK (self);
  } else if (prop_id == PROP_REDUCE_METADATA) {
    GST_OBJECT_LOCK (self);
    g_value_set_boolean (value, self->reduce);
    GST_OBJECT_UNLOCK (self);
  } else {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

/* ------------------------------------------------------------------ */

static void
stream_plans_free (gpointer p)
{
  StreamPlans *sp = p;

  g_hash_table_unref (sp->classes);
  g_free (sp);
}

static void
class_plan_free (gpointer p)
{
  ClassPlan *cp = p;

  gst_ctf_filter_plan_free (cp->plan);
  g_free (cp);
}

static void
writer_free (gpointer p)
{
  gst_ctf_packet_writer_free (p);
}

static void
drop_trace (GstCtfFilter * self)
{
  g_clear_pointer (&self->plans, g_hash_table_unref);
  g_clear_pointer (&self->writers, g_hash_table_unref);
  g_clear_pointer (&self->it, gst_ctf_event_iter_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  g_clear_pointer (&self->tsdl, g_free);
  self->format_class = NULL;
  g_array_set_size (self->clocks, 0);
  g_hash_table_remove_all (self->systems);
}

static void
drop_settings (GstCtfFilter * self)
{
  /* Plans point into the compiled settings. */
  drop_trace (self);
  g_clear_pointer (&self->events, gst_ctf_name_list_free);
  g_clear_pointer (&self->cpus, gst_ctf_id_list_free);
  g_clear_pointer (&self->stream_classes, gst_ctf_id_list_free);
  g_clear_pointer (&self->streams, gst_ctf_name_list_free);
  g_clear_pointer (&self->pids, gst_ctf_id_list_free);
  g_clear_pointer (&self->tids, gst_ctf_id_list_free);
  g_clear_pointer (&self->filter, gst_ctf_filter_expr_free);
  g_clear_pointer (&self->filter_out, gst_ctf_filter_expr_free);
}

static gboolean
gst_ctf_filter_start (GstBaseTransform * trans)
{
  GstCtfFilter *self = GST_CTF_FILTER (trans);
  gchar *text[N_TEXT_PROPS] = { NULL, };
  GError *err = NULL;
  guint i, bad = 0;

  GST_OBJECT_LOCK (self);
  for (i = 1; i < N_TEXT_PROPS; i++)
    if (self->text[i] && *self->text[i])
      text[i] = g_strdup (self->text[i]);
  self->packets_passed = self->packets_dropped = 0;
  self->packets_rewritten = self->events_kept = self->events_dropped = 0;
  GST_OBJECT_UNLOCK (self);

  drop_settings (self);
#define COMPILE(field, prop, fn) \
  if (err == NULL && text[prop] && (self->field = fn (text[prop], &err)) \
      == NULL) \
    bad = prop
  COMPILE (events, PROP_EVENTS, gst_ctf_name_list_parse);
  COMPILE (cpus, PROP_CPUS, gst_ctf_id_list_parse);
  COMPILE (stream_classes, PROP_STREAM_CLASSES, gst_ctf_id_list_parse);
  COMPILE (streams, PROP_STREAMS, gst_ctf_name_list_parse);
  COMPILE (pids, PROP_PIDS, gst_ctf_id_list_parse);
  COMPILE (tids, PROP_TIDS, gst_ctf_id_list_parse);
  COMPILE (filter, PROP_FILTER, gst_ctf_filter_expr_parse);
  COMPILE (filter_out, PROP_FILTER_OUT, gst_ctf_filter_expr_parse);
#undef COMPILE
  for (i = 0; i < N_TEXT_PROPS; i++)
    g_free (text[i]);
  if (err) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("Invalid \"%s\" property: %s", g_param_spec_get_name (props[bad]),
            err->message), ("%s (%s, code %d)", err->message,
            g_quark_to_string (err->domain), err->code));
    g_clear_error (&err);
    drop_settings (self);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_ctf_filter_stop (GstBaseTransform * trans)
{
  drop_settings (GST_CTF_FILTER (trans));
  return TRUE;
}

static const GstCtfEventClass *
find_event_class (const GstCtfTraceClass * tc, const gchar * name)
{
  guint i, j;

  for (i = 0; i < tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    for (j = 0; j < sc->event_classes->len; j++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      if (strcmp (ec->name, name) == 0)
        return ec;
    }
  }
  return NULL;
}

static gboolean
gst_ctf_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCtfFilter *self = GST_CTF_FILTER (trans);
  GstCtfTraceClass *tc = NULL;

  switch (gst_ctf_element_parse_caps (GST_ELEMENT (self), incaps,
          &self->tsdl, &tc)) {
    case GST_CTF_CAPS_SAME:
      return TRUE;
    case GST_CTF_CAPS_FAILED:
      return FALSE;
    case GST_CTF_CAPS_NEW:
      break;
  }
  /* A grown trace class keeps the ids of the old one: the per-stream
   * clocks stay valid; plans and writers are per trace class. */
  g_clear_pointer (&self->plans, g_hash_table_unref);
  g_clear_pointer (&self->writers, g_hash_table_unref);
  g_clear_pointer (&self->it, gst_ctf_event_iter_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  self->tc = tc;
  self->it = gst_ctf_event_iter_new (tc);
  /* the side stream's formats (gst_ctf_trace_dat_is_side_stream_class()) */
  self->format_class = gst_ctf_trace_dat_find_side_stream_class (tc) ?
      find_event_class (tc, "tracecmd_event_format") : NULL;
  self->writers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      writer_free);
  self->plans = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      stream_plans_free);
  return TRUE;
}

static gboolean
gst_ctf_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCtfFilter *self = GST_CTF_FILTER (trans);

  /* A new run of packets: stream clocks restart from the next packets. */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    g_array_set_size (self->clocks, 0);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* ------------------------------------------------------------------ */

/* The decision for each event class of @sc, made once. */
/* The decision for the events of @ec, @system its trace-cmd system if
 * known; the plan that decides on values in @plan (else NULL). */
static GstCtfFilterPlanKind
class_kind (GstCtfFilter * self, const GstCtfStreamClass * sc,
    const GstCtfEventClass * ec, const gchar * system,
    GstCtfFilterPlan ** plan)
{
  /* the library's, shared with the viewer's filter (GstCtfFilterSpec) */
  return gst_ctf_filter_class_kind (sc, ec, system, self->events,
      self->filter, self->filter_out, self->pids, self->tids, plan);
}

/* reduce-metadata: whether events of @ec can be kept (without the
 * expressions when trace-cmd systems could decide). */
static gboolean
keep_class (gpointer data, const GstCtfStreamClass * sc,
    const GstCtfEventClass * ec, gboolean systems)
{
  GstCtfFilter *self = data;
  GstCtfFilterPlan *plan = NULL;
  GstCtfFilterPlanKind kind;

  /* tracecmdsrc's side stream: kept whole (see process()) */
  if (gst_ctf_trace_dat_is_side_stream_class (sc))
    return TRUE;
  if (self->stream_classes &&
      !gst_ctf_id_list_contains (self->stream_classes, sc->id))
    return FALSE;
  if (self->events && !gst_ctf_name_list_match (self->events, ec->name))
    return FALSE;
  if (systems)
    return TRUE;
  kind = class_kind (self, sc, ec, NULL, &plan);
  gst_ctf_filter_plan_free (plan);
  return kind != GST_CTF_FILTER_PLAN_NEVER;
}

/* The output caps' metadata for @in with reduce-metadata (the last
 * result kept); NULL to leave it as it is. */
static gchar *
reduced_metadata (GstCtfFilter * self, const gchar * in)
{
  gchar *out = NULL;
  GError *err = NULL;
  guint removed = 0;

  GST_OBJECT_LOCK (self);
  if (self->reduced_in && strcmp (self->reduced_in, in) == 0)
    out = g_strdup (self->reduced_out);
  GST_OBJECT_UNLOCK (self);
  if (out)
    return out;
  out = _gst_ctf_filter_reduced_metadata (in, keep_class, self, &removed,
      &err);
  if (out == NULL) {
    GST_ELEMENT_WARNING (self, STREAM, ENCODE,
        ("Cannot reduce the metadata; it goes out whole."),
        ("%s", err ? err->message : "unknown error"));
    g_clear_error (&err);
    out = g_strdup (in);
  }
  GST_DEBUG_OBJECT (self, "metadata reduced: %u event classes left out",
      removed);
  GST_OBJECT_LOCK (self);
  g_free (self->reduced_in);
  g_free (self->reduced_out);
  self->reduced_in = g_strdup (in);
  self->reduced_out = g_strdup (out);
  GST_OBJECT_UNLOCK (self);
  return out;
}

/* With reduce-metadata, the source pad's caps carry the reduced metadata;
 * upstream, any metadata. */
static GstCaps *
gst_ctf_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCtfFilter *self = GST_CTF_FILTER (trans);
  gboolean reduce;
  GstCaps *res;
  guint i;

  GST_OBJECT_LOCK (self);
  reduce = self->reduce;
  GST_OBJECT_UNLOCK (self);
  if (!reduce)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_caps (trans,
        direction, caps, filter);
  res = gst_caps_copy (caps);
  for (i = 0; i < gst_caps_get_size (res); i++) {
    GstStructure *st = gst_caps_get_structure (res, i);
    const gchar *md = gst_structure_get_string (st, "metadata");

    if (direction == GST_PAD_SRC) {
      gst_structure_remove_field (st, "metadata");
    } else if (md != NULL) {
      gchar *r = reduced_metadata (self, md);

      gst_structure_set (st, "metadata", G_TYPE_STRING, r, NULL);
      g_free (r);
    }
  }
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, res,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (res);
    res = tmp;
  }
  return res;
}

static StreamPlans *
get_plans (GstCtfFilter * self, const GstCtfStreamClass * sc)
{
  StreamPlans *sp = g_hash_table_lookup (self->plans, &sc->id);
  gboolean any_kept = FALSE, any_dropped = FALSE;
  guint i;

  if (sp)
    return sp;
  sp = g_new0 (StreamPlans, 1);
  sp->classes = g_hash_table_new_full (NULL, NULL, NULL, class_plan_free);
  for (i = 0; i < sc->event_classes->len; i++) {
    const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, i);
    ClassPlan *cp = g_new0 (ClassPlan, 1);
    const gchar *system = g_hash_table_lookup (self->systems, ec->name);

    cp->kind = class_kind (self, sc, ec, system, &cp->plan);
    any_kept |= cp->kind != GST_CTF_FILTER_PLAN_NEVER;
    any_dropped |= cp->kind != GST_CTF_FILTER_PLAN_ALWAYS;
    sp->need_values |= cp->kind == GST_CTF_FILTER_PLAN_EVAL;
    g_hash_table_insert (sp->classes, (gpointer) ec, cp);
  }
  sp->all = !any_kept ? GST_CTF_FILTER_PLAN_NEVER : !any_dropped ?
      GST_CTF_FILTER_PLAN_ALWAYS : GST_CTF_FILTER_PLAN_EVAL;
  GST_DEBUG_OBJECT (self, "stream class %" G_GUINT64_FORMAT ": %u event "
      "classes, %s", sc->id, sc->event_classes->len,
      sp->all == GST_CTF_FILTER_PLAN_NEVER ? "none kept" :
      sp->all == GST_CTF_FILTER_PLAN_ALWAYS ? "all kept" :
      sp->need_values ? "decided on values" : "decided by class");
  g_hash_table_insert (self->plans, g_memdup2 (&sc->id, sizeof (sc->id)),
      sp);
  return sp;
}

static StreamClock *
stream_clock (GstCtfFilter * self, const GstCtfPacketInfo * info,
    const GstCtfPacketMeta * meta)
{
  guint64 inst = info->has_stream_instance_id ? info->stream_instance_id :
      G_MAXUINT64;
  const gchar *name = meta ? meta->stream_name : NULL;
  StreamClock sc = { info->stream_class_id, inst, name, 0, 0 };
  guint i;

  for (i = 0; i < self->clocks->len; i++) {
    StreamClock *c = &g_array_index (self->clocks, StreamClock, i);

    if (c->stream_class_id == info->stream_class_id &&
        c->stream_instance_id == inst && c->stream_name == name)
      return c;
  }
  g_array_append_val (self->clocks, sc);
  return &g_array_index (self->clocks, StreamClock, self->clocks->len - 1);
}

/* The string member @name of a decoded structure at @v. */
static gchar *
member_string (const GstCtfFieldValue * v, guint n, const gchar * name)
{
  guint i;

  for (i = 1; v && i < n && i < v[0].end && v[i].end > i; i = v[i].end)
    if (v[i].name && strcmp (v[i].name, name) == 0 && v[i].fc &&
        v[i].fc->type == GST_CTF_FIELD_CLASS_STRING)
      return g_strndup (v[i].v.s.ptr ? v[i].v.s.ptr : "", v[i].v.s.len);
  return NULL;
}

/* tracecmdsrc's side stream (its packets come first) describes each
 * ftrace event format with its system: trace-cmd filters name events by
 * system too (`sched`, `sched/sched_switch`), and CTF event class names
 * do not carry it (docs/tracecmdsrc.md). */
static void
learn_systems (GstCtfFilter * self, const guint8 * data, gsize size)
{
  const GstCtfEventClass *fmt = self->format_class;

  gst_ctf_event_iter_set_recording (self->it, TRUE);
  if (!gst_ctf_event_iter_set_packet (self->it, data, size, NULL))
    return;
  while (gst_ctf_event_iter_next (self->it, NULL)) {
    const GstCtfFieldValue *v;
    gchar *system, *name;
    guint n;

    if (gst_ctf_event_iter_get_event_class (self->it) != fmt)
      continue;
    v = gst_ctf_event_iter_get_values (self->it, GST_CTF_SCOPE_EVENT_PAYLOAD,
        &n);
    system = member_string (v, n, "system");
    name = member_string (v, n, "name");
    if (system && name)
      gst_ctf_filter_systems_add (self->systems, name, system);
    g_free (system);
    g_free (name);
  }
}

/* The packet context's `cpu_id`, if it has one. */
static gboolean
packet_cpu (GstCtfFilter * self, guint64 * cpu)
{
  guint n = 0;
  const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (self->it,
      GST_CTF_SCOPE_PACKET_CONTEXT, &n);

  return gst_ctf_filter_packet_cpu (v, n, cpu);
}

/* Walks the packet's events and lists the kept ones in self->kept. */
static gboolean
walk (GstCtfFilter * self, StreamPlans * sp, guint * n_events,
    GError ** error)
{
  const GstCtfEventClass *last_ec = NULL;
  const ClassPlan *cp = NULL;
  guint64 prev = gst_ctf_event_iter_get_clock_value (self->it);

  *n_events = 0;
  g_array_set_size (self->kept, 0);
  while (gst_ctf_event_iter_next (self->it, error)) {
    const GstCtfEventClass *ec = gst_ctf_event_iter_get_event_class (self->it);
    guint64 c = gst_ctf_event_iter_get_clock_value (self->it);
    gboolean keep;

    (*n_events)++;
    if (ec != last_ec) {
      cp = g_hash_table_lookup (sp->classes, ec);
      last_ec = ec;
    }
    if (G_UNLIKELY (cp == NULL)) {
      keep = FALSE;
    } else if (cp->kind == GST_CTF_FILTER_PLAN_EVAL) {
      const GstCtfFieldValue *scopes[N_SCOPES] = { NULL, };
      guint n[N_SCOPES] = { 0, }, s;

      for (s = GST_CTF_SCOPE_PACKET_CONTEXT; s < N_SCOPES; s++)
        scopes[s] = gst_ctf_event_iter_get_values (self->it, s, &n[s]);
      keep = gst_ctf_filter_plan_matches (cp->plan, scopes, n);
    } else {
      keep = cp->kind == GST_CTF_FILTER_PLAN_ALWAYS;
    }
    if (keep) {
      Kept k;

      k.ec = ec;
      k.begin = gst_ctf_event_iter_get_event_offset (self->it, &k.end);
      k.body = gst_ctf_event_iter_get_header_end (self->it);
      k.clock = c;
      k.clock_before = prev;
      g_array_append_val (self->kept, k);
    }
    prev = c;
  }
  return !(error && *error);
}

static void copy_fields (GstBuffer * out, GstBuffer * in);

static GstCtfPacketWriter *
get_writer (GstCtfFilter * self, guint64 key, GError ** error)
{
  GstCtfPacketWriter *wr = g_hash_table_lookup (self->writers, &key);

  if (wr == NULL) {
    wr = gst_ctf_packet_writer_new (self->tc, key, error);
    if (wr == NULL)
      return NULL;
    g_hash_table_insert (self->writers, g_memdup2 (&key, sizeof (key)), wr);
  }
  return wr;
}

/* A packet with the kept events only: the input's header and context
 * (times, sequence number and discarded events kept: the kept events lie
 * within the same times), each event's body copied behind a header the
 * writer chooses when its alignment allows (CTF 1.8 §4.2.2), else
 * re-encoded from its values. */
static GstBuffer *
rewrite (GstCtfFilter * self, GstBuffer * in, const guint8 * data,
    gsize size, const GstCtfPacketInfo * info, guint64 base,
    guint64 seq_num, GError ** error)
{
  GstCtfPacketWriterParams p = { 0, };
  GstCtfPacketWriter *wr = get_writer (self, info->stream_class_id, error);
  const GstCtfFieldValue *ctx;
  GstBuffer *out;
  GBytes *bytes;
  guint n_ctx, i;

  if (wr == NULL)
    return NULL;
  p.stream_instance_id = info->stream_instance_id;
  p.packet_seq_num = seq_num;
  p.events_discarded = info->events_discarded;
  p.has_timestamp_begin = info->has_timestamp_begin;
  p.timestamp_begin = info->timestamp_begin;
  p.has_timestamp_end = info->has_timestamp_end &&
      (!info->has_timestamp_begin ||
      info->timestamp_end >= info->timestamp_begin);
  p.timestamp_end = info->timestamp_end;
  p.clock_value = base;

  gst_ctf_event_iter_set_recording (self->it, TRUE);
  if (!gst_ctf_event_iter_set_packet (self->it, data, size, error))
    return NULL;
  if (!info->has_timestamp_begin)
    gst_ctf_event_iter_set_clock_value (self->it, base);
  ctx = gst_ctf_event_iter_get_values (self->it, GST_CTF_SCOPE_PACKET_CONTEXT,
      &n_ctx);
  if (!gst_ctf_packet_writer_begin_packet (wr, &p, ctx, n_ctx, error))
    return NULL;
  for (i = 0; i < self->kept->len; i++) {
    const Kept *k = &g_array_index (self->kept, Kept, i);
    gboolean copied = FALSE;

    if (k->body % 8 == 0 && k->end % 8 == 0 &&
        !gst_ctf_packet_writer_append_event_body (wr, k->ec, k->clock, data,
            size, k->body, k->end, &copied, error))
      return NULL;
    if (!copied) {
      const GstCtfFieldValue *v[3];
      guint n[3], s;

      if (!gst_ctf_event_iter_set_position (self->it, k->begin,
              k->clock_before) || !gst_ctf_event_iter_next (self->it, error)) {
        if (error && *error == NULL)
          g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
              "Packet has fewer events the second time it is read");
        return NULL;
      }
      for (s = 0; s < 3; s++)
        v[s] = gst_ctf_event_iter_get_values (self->it,
            GST_CTF_SCOPE_EVENT_COMMON_CONTEXT + s, &n[s]);
      if (!gst_ctf_packet_writer_append_event (wr, k->ec, k->clock, v[0],
              n[0], v[1], n[1], v[2], n[2], error))
        return NULL;
    }
  }
  bytes = gst_ctf_packet_writer_finish_packet_bytes (wr, error);
  if (bytes == NULL)
    return NULL;
  out = gst_buffer_new_wrapped_bytes (bytes);
  g_bytes_unref (bytes);
  copy_fields (out, in);
  return out;
}

static void count (GstCtfFilter * self, guint64 * packets, guint n_kept,
    guint n_events);
static GstBuffer *pass_counted (GstCtfFilter * self, GstBuffer * buf,
    const guint8 * data, gsize size, const GstCtfPacketInfo * info,
    StreamClock * st, guint n_kept, guint n_events, gboolean counted);

/* Buffer fields of a packet written again from @in: its times and
 * meta, but its bytes are no longer those of a file. */
static void
copy_fields (GstBuffer * out, GstBuffer * in)
{
  GstCtfPacketMeta *meta;

  gst_buffer_copy_into (out, in, GST_BUFFER_COPY_FLAGS |
      GST_BUFFER_COPY_TIMESTAMPS | GST_BUFFER_COPY_META, 0, -1);
  if ((meta = gst_buffer_get_ctf_packet_meta (out)) != NULL)
    meta->file_path = NULL;
  GST_BUFFER_OFFSET_END (out) = GST_BUFFER_OFFSET_NONE;
}

/* A packet kept whole: the same buffer, or a copy with its
 * `packet_seq_num` lowered by the packets dropped before it in its stream
 * (NULL when that field cannot be patched in place: the caller then
 * writes the packet again with all its events). */
static GstBuffer *
pass (GstCtfFilter * self, GstBuffer * buf, const guint8 * data,
    gsize size, const GstCtfPacketInfo * info, StreamClock * st,
    guint n_kept, guint n_events)
{
  return pass_counted (self, buf, data, size, info, st, n_kept, n_events,
      TRUE);
}

/* pass(), counted in the stats or not (@counted: the side stream's packets
 * are counted only with side-stream=true). */
static GstBuffer *
pass_counted (GstCtfFilter * self, GstBuffer * buf, const guint8 * data,
    gsize size, const GstCtfPacketInfo * info, StreamClock * st,
    guint n_kept, guint n_events, gboolean counted)
{
  const GstCtfFieldClass *fc;
  GstBuffer *out;
  GstMapInfo om;
  guint64 off;

  if (st->dropped == 0 || !info->has_packet_seq_num) {
    if (counted)
      count (self, &self->packets_passed, n_kept, n_events);
    return gst_buffer_ref (buf);
  }
  if (!gst_ctf_packet_find_context_field (self->tc, info->stream_class,
          GST_CTF_MEANING_PACKET_SEQ_NUM, &off, &fc) || fc == NULL)
    return NULL;
  out = gst_buffer_new_memdup (data, size);
  copy_fields (out, buf);
  if (!gst_buffer_map (out, &om, GST_MAP_WRITE))
    goto failed;
  if (!gst_ctf_packet_poke_integer (om.data, om.size, off, fc,
          info->packet_seq_num - st->dropped)) {
    gst_buffer_unmap (out, &om);
    goto failed;
  }
  gst_buffer_unmap (out, &om);
  if (counted)
    count (self, &self->packets_rewritten, n_kept, n_events);
  return out;

failed:
  gst_buffer_unref (out);
  return NULL;
}

static void
count (GstCtfFilter * self, guint64 * packets, guint n_kept, guint n_events)
{
  GST_OBJECT_LOCK (self);
  (*packets)++;
  self->events_kept += n_kept;
  self->events_dropped += n_events - n_kept;
  GST_OBJECT_UNLOCK (self);
}

/* The number of events of a packet (side-stream=true counts the side
 * stream's, whose packets pass without being decoded otherwise). */
static guint
packet_n_events (GstCtfFilter * self, const guint8 * data, gsize size)
{
  guint n = 0;

  gst_ctf_event_iter_set_recording (self->it, FALSE);
  if (!gst_ctf_event_iter_set_packet (self->it, data, size, NULL))
    return 0;
  while (gst_ctf_event_iter_next (self->it, NULL))
    n++;
  return n;
}

static GstFlowReturn
process (GstCtfFilter * self, GstBuffer * buf, GstBuffer ** outbuf)
{
  GstCtfPacketMeta *meta = gst_buffer_get_ctf_packet_meta (buf);
  GstMapInfo map;
  GstCtfPacketInfo info;
  StreamPlans *sp;
  StreamClock *sclock = NULL;
  GError *err = NULL;
  guint64 base = 0, cpu;
  guint n_events = 0, n_kept;
  GstFlowReturn ret = GST_FLOW_OK;

  if (self->tc == NULL) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("Received a packet before caps with CTF metadata."));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, (NULL), ("Cannot map buffer."));
    return GST_FLOW_ERROR;
  }
  if (!gst_ctf_packet_read_info (self->tc, map.data, map.size, &info, &err)) {
    gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err, "Cannot read packet header");
    ret = GST_FLOW_ERROR;
    goto done;
  }
  if (info.stream_class == NULL)
    goto drop;
  sclock = stream_clock (self, &info, meta);
  if (!info.has_timestamp_begin)
    base = sclock->clock;
  else if (self->filter || self->filter_out) {
    if (self->format_class &&
        self->format_class->stream_class_id == info.stream_class_id)
      learn_systems (self, map.data, map.size);
  }
  /* tracecmdsrc's side stream (ftrace formats, cmdlines, kallsyms, ...)
   * describes the trace rather than happens in it, and format=trace-cmd
   * needs it: passed whatever the settings keep */
  if (self->format_class && info.has_timestamp_begin &&
      self->format_class->stream_class_id == info.stream_class_id) {
    gboolean counted;
    guint n;

    GST_OBJECT_LOCK (self);
    counted = self->side_stream;
    GST_OBJECT_UNLOCK (self);
    n = counted ? packet_n_events (self, map.data, map.size) : 0;
    *outbuf = pass_counted (self, buf, map.data, map.size, &info, sclock, n,
        n, counted);
    if (*outbuf)
      goto done;
  }
  /* Per packet, without decoding events (a stream without
   * `timestamp_begin` is still walked for the next packet's clock). */
  if ((self->stream_classes &&
          !gst_ctf_id_list_contains (self->stream_classes,
              info.stream_class_id)) || (self->streams &&
          !gst_ctf_name_list_match (self->streams, meta &&
              meta->stream_name ? meta->stream_name : "")))
    goto drop_walked;
  sp = get_plans (self, info.stream_class);
  if (sp->all == GST_CTF_FILTER_PLAN_NEVER)
    goto drop_walked;

  gst_ctf_event_iter_set_recording (self->it, self->cpus != NULL ||
      sp->need_values);
  if (!gst_ctf_event_iter_set_packet (self->it, map.data, map.size, &err)) {
    gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err, "Cannot decode packet");
    ret = GST_FLOW_ERROR;
    goto done;
  }
  if (!info.has_timestamp_begin)
    gst_ctf_event_iter_set_clock_value (self->it, base);
  if (self->cpus && !(packet_cpu (self, &cpu) &&
          gst_ctf_id_list_contains (self->cpus, cpu)))
    goto drop_walked;
  if (sp->all == GST_CTF_FILTER_PLAN_ALWAYS && info.has_timestamp_begin) {
    *outbuf = pass (self, buf, map.data, map.size, &info, sclock, 0, 0);
    if (*outbuf)
      goto done;
  }
  gst_ctf_event_iter_set_recording (self->it, sp->need_values);
  if (!walk (self, sp, &n_events, &err)) {
    gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err, "Cannot decode packet");
    ret = GST_FLOW_ERROR;
    goto done;
  }
  sclock->clock = gst_ctf_event_iter_get_clock_value (self->it);
  n_kept = self->kept->len;
  if (n_kept == n_events)
    *outbuf = pass (self, buf, map.data, map.size, &info, sclock, n_kept,
        n_events);
  if (*outbuf == NULL && n_kept == 0) {
    sclock->dropped += info.has_packet_seq_num;
    count (self, &self->packets_dropped, 0, n_events);
  } else if (*outbuf == NULL) {
    GstBuffer *out = rewrite (self, buf, map.data, map.size, &info, base,
        info.packet_seq_num - sclock->dropped, &err);

    gst_ctf_event_iter_set_recording (self->it, FALSE);
    if (out == NULL) {
      gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err, "Cannot write the packet again");
      ret = GST_FLOW_ERROR;
      goto done;
    }
    GST_LOG_OBJECT (self, "rewrote packet: kept %u of %u events", n_kept,
        n_events);
    count (self, &self->packets_rewritten, n_kept, n_events);
    *outbuf = out;
  }
  goto done;

drop_walked:
  sclock->dropped += info.has_packet_seq_num;
  if (!info.has_timestamp_begin) {
    /* The next packet of the stream starts from this one's clock. */
    gst_ctf_event_iter_set_recording (self->it, FALSE);
    if (!gst_ctf_event_iter_set_packet (self->it, map.data, map.size, &err))
      goto drop;
    gst_ctf_event_iter_set_clock_value (self->it, base);
    while (gst_ctf_event_iter_next (self->it, &err));
    if (err == NULL)
      sclock->clock = gst_ctf_event_iter_get_clock_value (self->it);
    g_clear_error (&err);
  }
  count (self, &self->packets_dropped, 0, 0);
  goto done;

drop:
  count (self, &self->packets_dropped, 0, 0);

done:
  g_clear_error (&err);
  gst_buffer_unmap (buf, &map);
  return ret;
}

static GstFlowReturn
gst_ctf_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCtfFilter *self = GST_CTF_FILTER (trans);
  GstBuffer *buf = trans->queued_buf;
  GstFlowReturn ret;

  *outbuf = NULL;
  if (buf == NULL)
    return GST_FLOW_OK;
  trans->queued_buf = NULL;
  ret = process (self, buf, outbuf);
  gst_buffer_unref (buf);
  return ret;
}
