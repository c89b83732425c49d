/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-ctfmux
 * @title: ctfmux
 * @short_description: merges CTF packet streams by timestamp into one trace
 *
 * Takes the packet streams of several CTF traces (from ctfsrc, tracecmdsrc,
 * timefilter, ...) on request pads `sink_%u` and outputs one trace.
 *
 * With #GstCtfMux:mode `packets` (the default) whole packets go out in
 * `timestamp_begin` order (buffer PTS plus the pad's #GstCtfMuxPad:offset);
 * equal times go in pad order, then by stream class id, then by stream
 * instance id, so a consumer can merge the events with one open packet
 * per stream.  When all inputs carry the same metadata (or there is one
 * input) and no offset is set, the buffers pass untouched (the same
 * buffers).  Otherwise the inputs' trace classes are merged into one
 * (gst_ctf_trace_merge_new_full(): stream classes renumbered in
 * babeltrace2's trace order, each input's clocks kept, renamed on a name
 * clash, env entries that differ kept per input as `traceI_KEY`), the new
 * caps are sent before the first packet that needs them and each packet
 * is sent as a copy whose header names its new stream class and the
 * merged trace's UUID (or re-encoded when the packet headers differ).
 *
 * With mode `events` every event is re-encoded with the packet writer into
 * new packets, in one global timestamp order with babeltrace2's muxer tie
 * rules (REFERENCE.md §1.3: time, then stream class id (= trace order,
 * then the trace's stream class id), then stream id): reading the output
 * packets one after the other gives non-decreasing timestamps across all
 * the streams.  A new packet starts whenever the next event belongs to
 * another stream (or to another source packet, or the packet reaches 64
 * KiB); packet context values and the `events_discarded` counter come
 * from the source packet, `packet_seq_num` is renumbered per output
 * stream (keeping the source's gaps: lost packets stay visible).
 *
 * ## Clocks
 *
 * babeltrace2 refuses to merge traces whose clocks cannot be correlated:
 * the clocks must all have the Unix epoch as origin (LTTng's `monotonic`
 * counts as such), or else all have the same UUID.  ctfmux refuses the
 * same inputs with an error naming them, unless #GstCtfMux:force-correlate
 * is set: every clock is then declared with a Unix epoch origin, like
 * babeltrace2's `--clock-force-correlate`.
 *
 * The per-pad #GstCtfMuxPad:offset (ns) shifts every time of an input: it
 * moves the input's clock offsets in the merged metadata (the packets are
 * not touched) and its buffer times.  Recipe to align a trace-cmd
 * `trace.dat` recorded with the `local` clock with an LTTng trace
 * (`monotonic` clock, shown since the Unix epoch): `local` and `mono`
 * both count from boot on most systems, so record both on the same
 * machine, take the difference between the wall clock and the monotonic
 * clock at recording time (`date +%s%N` minus the first field of
 * `/proc/uptime` in ns, or LTTng's clock `offset` from the metadata) and
 * give it as the trace.dat pad's offset, plus force-correlate when the
 * trace.dat clock is not declared with a Unix epoch origin.  With
 * `trace-cmd record -C mono` the LTTng clock offset alone is the offset.
 *
 * ## Time line
 *
 * Buffer PTS stay absolute; positions are stream time, 0 at the earliest
 * input's first packet (each input's segment `start - time` plus its
 * offset): ctfmux answers POSITION (the end of the packets it has taken)
 * and DURATION (the last input's end, from their DURATION queries), and a
 * TIME seek to T reaches each input as its own stream time for the same
 * instant.
 *
 * ## Live inputs
 *
 * With live upstreams the aggregator's #GstAggregator:latency plus 10 ms
 * bounds how long ctfmux waits for a pad that has no data: after
 * that it outputs what the other pads have, so packets from a pad that
 * was late can come after later ones of the other pads.
 *
 * Without live upstreams each sink pad holds up to 64 packets (1 MiB, at
 * least one packet) and ctfmux outputs every packet that is certainly
 * next before it waits again; it sets #GstAggregator:latency to 2^62 ns
 * for that while it runs (the LATENCY query still answers the value set
 * before, which the property gets back at READY).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 ctfmux name=m ! ctfsink location=merged \
 *     ctfsrc location=ust-a ! m.  ctfsrc location=ust-b ! m.
 * ]| Merges two traces into one.
 */

/*
 * Locking order (never take a lock listed earlier while holding a later
 * one; no lock is held while pushing or calling the library):
 *   1. GST_OBJECT_LOCK (self): the properties (mode, force-correlate) and
 *      the list of sink pads (GstElement's).
 *   2. GST_OBJECT_LOCK (pad): the pad's offset and its metadata (set from
 *      its CAPS event).
 * Everything else (the merge, output caps, the events-mode writers) is
 * touched only by the aggregate / sink event / stop functions, which the
 * aggregator calls from its source pad task (stop: with the task stopped).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfmux-private.h"
#include "gstctf-heap-private.h"
#include "gstctf-trace-dir.h"

GST_DEBUG_CATEGORY (gst_ctf_mux_debug);
#define GST_CAT_DEFAULT gst_ctf_mux_debug

/* Shortest wait for a live pad without data. */
#define MIN_LIVE_WAIT (10 * GST_MSECOND)

/* ------------------------------------------------------------------ */
/* the pad */

enum
{
  PROP_PAD_0,
  PROP_PAD_OFFSET,
};


G_DEFINE_TYPE (GstCtfMuxPad, gst_ctf_mux_pad, GST_TYPE_AGGREGATOR_PAD);

static void heap_clear (GstCtfMux * self);

static void
gst_ctf_mux_pad_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfMuxPad *pad = GST_CTF_MUX_PAD (object);

  switch (prop_id) {
    case PROP_PAD_OFFSET:{
      GstObject *parent;

      GST_OBJECT_LOCK (pad);
      pad->offset = g_value_get_int64 (value);
      pad->caps_serial++;       /* the merged clocks change */
      GST_OBJECT_UNLOCK (pad);
      /* (not with the pad's lock: the element's is taken first) */
      parent = gst_object_get_parent (GST_OBJECT (pad));
      if (parent && GST_IS_CTF_MUX (parent))
        gst_ctf_mux_pads_changed (GST_CTF_MUX (parent));
      if (parent)
        gst_object_unref (parent);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_mux_pad_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfMuxPad *pad = GST_CTF_MUX_PAD (object);

  switch (prop_id) {
    case PROP_PAD_OFFSET:
      GST_OBJECT_LOCK (pad);
      g_value_set_int64 (value, pad->offset);
      GST_OBJECT_UNLOCK (pad);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_mux_pad_finalize (GObject * object)
{
  GstCtfMuxPad *pad = GST_CTF_MUX_PAD (object);

  g_free (pad->tsdl);
  g_free (pad->trace_name);
  if (pad->tc)
    gst_ctf_trace_class_unref (pad->tc);
  g_mutex_clear (&pad->q_lock);
  g_cond_clear (&pad->q_cond);
  G_OBJECT_CLASS (gst_ctf_mux_pad_parent_class)->finalize (object);
}

static void
gst_ctf_mux_pad_constructed (GObject * object)
{
  G_OBJECT_CLASS (gst_ctf_mux_pad_parent_class)->constructed (object);
  if (GST_PAD_IS_SINK (object))
    gst_ctf_mux_queue_add_pad (GST_CTF_MUX_PAD (object));
}

static void
gst_ctf_mux_pad_class_init (GstCtfMuxPadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->constructed = gst_ctf_mux_pad_constructed;

  gobject_class->set_property = gst_ctf_mux_pad_set_property;
  gobject_class->get_property = gst_ctf_mux_pad_get_property;
  gobject_class->finalize = gst_ctf_mux_pad_finalize;

  /**
   * GstCtfMuxPad:offset:
   *
   * Nanoseconds added to every time of this input (its clocks' offsets
   * in the merged metadata and its buffer times).  Set it before the
   * first buffer.
   */
  g_object_class_install_property (gobject_class, PROP_PAD_OFFSET,
      g_param_spec_int64 ("offset", "Offset",
          "Nanoseconds added to every time of this input (clock offset in "
          "the merged metadata and buffer times)", G_MININT64 / 2,
          G_MAXINT64 / 2, 0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
}

static void
gst_ctf_mux_pad_init (GstCtfMuxPad * pad)
{
  pad->input = -1;
  pad->last_key = G_MININT64;
  pad->heap_index = -1;
  g_mutex_init (&pad->q_lock);
  g_cond_init (&pad->q_cond);
  pad->q_halt = GST_FLOW_OK;
}

/* ------------------------------------------------------------------ */
/* the element */

enum
{
  PROP_0,
  PROP_MODE,
  PROP_FORCE_CORRELATE,
  PROP_COPY_BODIES,
  PROP_CTF_VERSION,
};


static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink_%u",
    GST_PAD_SINK, GST_PAD_REQUEST,
    GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

GType
gst_ctf_mux_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CTF_MUX_MODE_PACKETS, "Whole packets in timestamp_begin order",
        "packets"},
    {GST_CTF_MUX_MODE_EVENTS, "Events re-encoded in one global time order",
        "events"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtfMuxMode", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

static void gst_ctf_mux_child_proxy_init (gpointer g_iface,
    gpointer iface_data);

#define gst_ctf_mux_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstCtfMux, gst_ctf_mux, GST_TYPE_AGGREGATOR,
    G_IMPLEMENT_INTERFACE (GST_TYPE_CHILD_PROXY,
        gst_ctf_mux_child_proxy_init));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (ctfmux, "ctfmux", GST_RANK_NONE,
    GST_TYPE_CTF_MUX, GST_DEBUG_CATEGORY_INIT (gst_ctf_mux_debug, "ctfmux", 0,
        "CTF trace muxer"));

static void
input_free (Input * in)
{
  g_free (in->tsdl);
  if (in->tc)
    gst_ctf_trace_class_unref (in->tc);
  g_free (in->name);
  g_free (in->trace_name);
  g_free (in);
}

static void
gst_ctf_mux_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfMux *self = GST_CTF_MUX (object);

  switch (prop_id) {
    case PROP_MODE:
      GST_OBJECT_LOCK (self);
      self->mode = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_FORCE_CORRELATE:
      GST_OBJECT_LOCK (self);
      self->force_correlate = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_COPY_BODIES:
      GST_OBJECT_LOCK (self);
      self->copy_bodies = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_CTF_VERSION:
      GST_OBJECT_LOCK (self);
      self->ctf_version = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_mux_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCtfMux *self = GST_CTF_MUX (object);

  switch (prop_id) {
    case PROP_MODE:
      GST_OBJECT_LOCK (self);
      g_value_set_enum (value, self->mode);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_FORCE_CORRELATE:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->force_correlate);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_COPY_BODIES:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->copy_bodies);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_CTF_VERSION:
      GST_OBJECT_LOCK (self);
      g_value_set_enum (value, self->ctf_version);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
out_stream_forget_writer (gpointer key, gpointer value, gpointer data)
{
  ((OutStream *) key)->w = NULL;
}

/* Drops the output state (events mode state included). */
static void
reset_output (GstCtfMux * self)
{
  g_clear_pointer (&self->merge, gst_ctf_trace_merge_free);
  if (self->out_tc)
    gst_ctf_trace_class_unref (self->out_tc);
  self->out_tc = NULL;
  g_clear_pointer (&self->out_tsdl, g_free);
  g_clear_pointer (&self->out_trace_name, g_free);
  g_clear_pointer (&self->emerge, gst_ctf_event_merge_free);
  g_hash_table_remove_all (self->writers);
  g_clear_pointer (&self->pending, gst_buffer_list_unref);
  /* the streams stay (their packet_seq_num goes on), not their writers */
  g_hash_table_foreach (self->out_streams, out_stream_forget_writer, NULL);
  self->open_w = NULL;
  self->open_stream = NULL;
}

static gboolean
gst_ctf_mux_start (GstAggregator * agg)
{
  GstCtfMux *self = GST_CTF_MUX (agg);
  GList *l;

  GST_OBJECT_LOCK (self);
  self->cur_mode = self->mode;
  self->cur_copy_bodies = self->copy_bodies;
  self->n_copied = self->n_reencoded = 0;
  /* inputs are made anew (a restart after stop) */
  for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next) {
    GstCtfMuxPad *pad = l->data;

    pad->input = -1;
    pad->last_key = G_MININT64;
  }
  self->heap_stale = TRUE;
  self->caps_changes++;
  GST_OBJECT_UNLOCK (self);
  gst_ctf_mux_queue_reset_all (self);
  g_ptr_array_set_size (self->inputs, 0);
  self->inputs_sorted = FALSE;
  self->caps_pending = FALSE;
  self->segment_sent = FALSE;
  gst_ctf_mux_time_reset (self);
  reset_output (self);
  g_hash_table_remove_all (self->out_streams);
  g_hash_table_remove_all (self->stream_ids);
  return TRUE;
}

/* A flushing seek: what was queued for the old position goes. */
static GstFlowReturn
gst_ctf_mux_flush (GstAggregator * agg)
{
  GstCtfMux *self = GST_CTF_MUX (agg);
  GList *l;

  if (self->emerge) {
    gst_ctf_event_merge_free (self->emerge);
    self->emerge = gst_ctf_event_merge_new (self->out_tc);
    gst_ctf_event_merge_set_emulate_recycling (self->emerge, FALSE);
    gst_ctf_event_merge_set_recording (self->emerge, !self->cur_copy_bodies);
  }
  g_clear_pointer (&self->pending, gst_buffer_list_unref);
  self->open_w = NULL;
  self->open_stream = NULL;
  /* a new segment, at the first packet of the new run */
  self->segment_sent = FALSE;
  gst_ctf_mux_time_flush (self);
  GST_OBJECT_LOCK (self);
  for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next)
    GST_CTF_MUX_PAD (l->data)->last_key = G_MININT64;
  self->heap_stale = TRUE;
  GST_OBJECT_UNLOCK (self);
  return GST_FLOW_OK;
}

static gboolean
gst_ctf_mux_stop (GstAggregator * agg)
{
  GstCtfMux *self = GST_CTF_MUX (agg);

  reset_output (self);
  g_ptr_array_set_size (self->inputs, 0);
  g_hash_table_remove_all (self->out_streams);
  g_hash_table_remove_all (self->stream_ids);
  heap_clear (self);
  gst_ctf_mux_queue_restore (self);
  return TRUE;
}

static gboolean
gst_ctf_mux_sink_event (GstAggregator * agg, GstAggregatorPad * apad,
    GstEvent * event)
{
  GstCtfMux *self = GST_CTF_MUX (agg);
  GstCtfMuxPad *pad = GST_CTF_MUX_PAD (apad);

  /* (rare: a pad's head or metadata may change; CAPS bumps caps_serial
   * below, before the next aggregate looks) */
  gst_ctf_mux_pads_changed (self);
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_START)
    gst_ctf_mux_queue_wake (pad);       /* an input thread may wait */
  else if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    gst_ctf_mux_queue_reset (pad);      /* the flush emptied the queue */
  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps;
    const gchar *tsdl;
    GstCtfTraceClass *tc;
    GError *err = NULL;

    gst_event_parse_caps (event, &caps);
    tsdl = gst_ctf_caps_get_metadata (caps);
    if (tsdl == NULL) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("Caps on pad %s carry no CTF metadata.", GST_PAD_NAME (pad)),
          ("caps: %" GST_PTR_FORMAT, caps));
      gst_event_unref (event);
      return FALSE;
    }
    GST_OBJECT_LOCK (pad);
    g_free (pad->trace_name);
    pad->trace_name = g_strdup (gst_ctf_caps_get_trace_name (caps));
    if (pad->tsdl && strcmp (pad->tsdl, tsdl) == 0) {
      GST_OBJECT_UNLOCK (pad);
      gst_event_unref (event);
      return TRUE;
    }
    GST_OBJECT_UNLOCK (pad);
    tc = gst_ctf_metadata_parse_shared (tsdl, GST_PAD_NAME (pad), &err);
    if (tc == NULL) {
      GST_ELEMENT_ERROR (self, STREAM, DECODE,
          ("Cannot parse the CTF metadata of the caps on pad %s.",
              GST_PAD_NAME (pad)), ("%s", err->message));
      g_error_free (err);
      gst_event_unref (event);
      return FALSE;
    }
    GST_OBJECT_LOCK (pad);
    g_free (pad->tsdl);
    pad->tsdl = g_strdup (tsdl);
    if (pad->tc)
      gst_ctf_trace_class_unref (pad->tc);
    pad->tc = tc;
    pad->caps_serial++;
    GST_OBJECT_UNLOCK (pad);
    gst_ctf_mux_pads_changed (self);
    GST_DEBUG_OBJECT (pad, "new metadata (%" G_GSIZE_FORMAT " bytes)",
        strlen (tsdl));
    gst_event_unref (event);
    return TRUE;
  }
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)
    gst_ctf_mux_time_note_segment (pad, event);
  return GST_AGGREGATOR_CLASS (parent_class)->sink_event (agg, apad, event);
}

static gboolean
gst_ctf_mux_src_event (GstAggregator * agg, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEEK)
    gst_ctf_mux_time_note_seek (GST_CTF_MUX (agg), event);
  return GST_AGGREGATOR_CLASS (parent_class)->src_event (agg, event);
}

static gboolean
gst_ctf_mux_src_query (GstAggregator * agg, GstQuery * query)
{
  gboolean handled;
  gboolean ret = gst_ctf_mux_time_src_query (GST_CTF_MUX (agg), query,
      &handled);

  if (handled)
    return ret;
  ret = GST_AGGREGATOR_CLASS (parent_class)->src_query (agg, query);
  if (ret && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY)
    gst_ctf_mux_queue_fix_latency (GST_CTF_MUX (agg), query);
  return ret;
}

static gboolean
gst_ctf_mux_sink_query (GstAggregator * agg, GstAggregatorPad * apad,
    GstQuery * query)
{
  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CAPS:{
      GstCaps *filter, *caps = gst_static_pad_template_get_caps
          (&sink_template);

      gst_query_parse_caps (query, &filter);
      if (filter) {
        GstCaps *tmp = gst_caps_intersect_full (filter, caps,
            GST_CAPS_INTERSECT_FIRST);

        gst_caps_unref (caps);
        caps = tmp;
      }
      gst_query_set_caps_result (query, caps);
      gst_caps_unref (caps);
      return TRUE;
    }
    case GST_QUERY_ACCEPT_CAPS:{
      GstCaps *caps;
      GstStructure *s;

      gst_query_parse_accept_caps (query, &caps);
      s = gst_caps_get_structure (caps, 0);
      gst_query_set_accept_caps_result (query,
          gst_structure_has_name (s, GST_CTF_CAPS_MEDIA_TYPE));
      return TRUE;
    }
    default:
      return GST_AGGREGATOR_CLASS (parent_class)->sink_query (agg, apad,
          query);
  }
}

/* We set the output caps ourselves (the merged metadata). */
static gboolean
gst_ctf_mux_negotiate (GstAggregator * agg)
{
  return TRUE;
}

/* Live: called with the aggregator's source lock held (so no
 * gst_aggregator_get_latency() here).  The base class waits until this
 * running time plus the latency, then calls aggregate with timeout. */
static GstClockTime
gst_ctf_mux_get_next_time (GstAggregator * agg)
{
  GstClock *clock = gst_element_get_clock (GST_ELEMENT (agg));
  GstClockTime now, base;

  if (clock == NULL)
    return GST_CLOCK_TIME_NONE;
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  base = gst_element_get_base_time (GST_ELEMENT (agg));
  if (now < base)
    return GST_CLOCK_TIME_NONE;
  return now - base + MIN_LIVE_WAIT;
}

/* GstChildProxy over the sink pads, so that `ctfmux sink_1::offset=N`
 * works in gst-launch-1.0 (set when the pad is requested). */
static GObject *
gst_ctf_mux_child_proxy_get_child_by_index (GstChildProxy * proxy,
    guint index)
{
  GstCtfMux *self = GST_CTF_MUX (proxy);
  GObject *obj = NULL;

  GST_OBJECT_LOCK (self);
  obj = g_list_nth_data (GST_ELEMENT_CAST (self)->sinkpads, index);
  if (obj)
    gst_object_ref (obj);
  GST_OBJECT_UNLOCK (self);
  return obj;
}

static guint
gst_ctf_mux_child_proxy_get_children_count (GstChildProxy * proxy)
{
  GstCtfMux *self = GST_CTF_MUX (proxy);
  guint count;

  GST_OBJECT_LOCK (self);
  count = GST_ELEMENT_CAST (self)->numsinkpads;
  GST_OBJECT_UNLOCK (self);
  return count;
}

static void
gst_ctf_mux_child_proxy_init (gpointer g_iface, gpointer iface_data)
{
  GstChildProxyInterface *iface = g_iface;

  iface->get_child_by_index = gst_ctf_mux_child_proxy_get_child_by_index;
  iface->get_children_count = gst_ctf_mux_child_proxy_get_children_count;
}

static GstPad *
gst_ctf_mux_request_new_pad (GstElement * element, GstPadTemplate * templ,
    const gchar * req_name, const GstCaps * caps)
{
  GstPad *pad = GST_ELEMENT_CLASS (parent_class)->request_new_pad (element,
      templ, req_name, caps);

  if (pad)
    gst_child_proxy_child_added (GST_CHILD_PROXY (element), G_OBJECT (pad),
        GST_OBJECT_NAME (pad));
  return pad;
}

static void
gst_ctf_mux_release_pad (GstElement * element, GstPad * pad)
{
  gst_child_proxy_child_removed (GST_CHILD_PROXY (element), G_OBJECT (pad),
      GST_OBJECT_NAME (pad));
  /* (its input thread may wait for room: deactivating the pad waits for
   * that thread) */
  if (GST_IS_CTF_MUX_PAD (pad))
    gst_ctf_mux_queue_halt (GST_CTF_MUX_PAD (pad), GST_FLOW_FLUSHING);
  GST_ELEMENT_CLASS (parent_class)->release_pad (element, pad);
}

static GstAggregatorPad *
gst_ctf_mux_create_new_pad (GstAggregator * agg, GstPadTemplate * templ,
    const gchar * req_name, const GstCaps * caps)
{
  GstAggregatorPad *pad = GST_AGGREGATOR_CLASS (parent_class)->create_new_pad
      (agg, templ, req_name, caps);

  if (pad && GST_IS_CTF_MUX_PAD (pad)) {
    const gchar *name = GST_PAD_NAME (pad);

    if (g_str_has_prefix (name, "sink_"))
      GST_CTF_MUX_PAD (pad)->order = (guint) g_ascii_strtoull (name + 5,
          NULL, 10);
    gst_ctf_mux_time_add_pad (GST_CTF_MUX_PAD (pad));
  }
  return pad;
}

/* ------------------------------------------------------------------ */
/* output trace class */

static gint
compare_inputs (gconstpointer a, gconstpointer b)
{
  const Input *x = *(const Input * const *) a;
  const Input *y = *(const Input * const *) b;

  /* babeltrace2's trace order (UUID), then pad order */
  if (x->tc->has_uuid && !y->tc->has_uuid)
    return -1;
  if (!x->tc->has_uuid && y->tc->has_uuid)
    return 1;
  if (x->tc->has_uuid) {
    gint r = memcmp (x->tc->uuid, y->tc->uuid, 16);

    if (r != 0)
      return r;
  }
  return x->first_order < y->first_order ? -1 :
      (x->first_order > y->first_order ? 1 : 0);
}

/* Events mode: forget what the previous trace class held, after it was
 * all written.  Declared here, defined with the events code. */

/* Makes sure every pad with metadata has an input and the output trace
 * class covers them all.  Returns FALSE on error (posted). */
/* The output metadata in the CTF version asked for (`auto`: the newest
 * of the inputs'): the merged trace class is written as TSDL and
 * converted; the packets are the same bytes either way. */
static gboolean
convert_output (GstCtfMux * self, GstFlowReturn * flow)
{
  GstCtfOutputVersion v;
  gboolean want2 = FALSE;
  gchar *conv;
  GError *err = NULL;
  guint i;

  GST_OBJECT_LOCK (self);
  v = self->ctf_version;
  GST_OBJECT_UNLOCK (self);
  if (v == GST_CTF_OUTPUT_VERSION_AUTO) {
    for (i = 0; i < self->inputs->len; i++)
      if (((Input *) g_ptr_array_index (self->inputs, i))->tc->major >= 2)
        want2 = TRUE;
  } else {
    want2 = v == GST_CTF_OUTPUT_VERSION_2;
  }
  if (want2 == gst_ctf_metadata_is_ctf2 (self->out_tsdl))
    return TRUE;
  conv = gst_ctf_output_version_convert (self->out_tsdl, want2 ?
      GST_CTF_OUTPUT_VERSION_2 : GST_CTF_OUTPUT_VERSION_1_8, FALSE, &err);
  if (conv == NULL) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Cannot write the merged trace as CTF %s: %s", want2 ? "2" : "1.8",
            err->message), (NULL));
    g_clear_error (&err);
    *flow = GST_FLOW_ERROR;
    return FALSE;
  }
  g_free (self->out_tsdl);
  self->out_tsdl = conv;
  return TRUE;
}

static gboolean
ensure_output (GstCtfMux * self, GstFlowReturn * flow)
{
  GList *l;
  gboolean changed = FALSE, force;
  guint i;

  *flow = GST_FLOW_OK;
  GST_OBJECT_LOCK (self);
  /* no pad has new metadata or offset since the last look: nothing to do
   * (and no scan of all the pads for every packet) */
  if (self->out_tsdl != NULL && self->caps_changes == self->caps_changes_seen) {
    GST_OBJECT_UNLOCK (self);
    return TRUE;
  }
  self->caps_changes_seen = self->caps_changes;
  force = self->force_correlate;
  for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next) {
    GstCtfMuxPad *pad = l->data;
    gint found = -1;

    GST_OBJECT_LOCK (pad);
    if (pad->tsdl == NULL || (pad->input >= 0 &&
            pad->input_serial == pad->caps_serial)) {
      GST_OBJECT_UNLOCK (pad);
      continue;
    }
    for (i = 0; i < self->inputs->len; i++) {
      Input *in = g_ptr_array_index (self->inputs, i);

      if (in->offset == pad->offset && strcmp (in->tsdl, pad->tsdl) == 0) {
        found = i;
        break;
      }
    }
    if (found < 0 && pad->input >= 0) {
      /* New metadata for a pad (a growing trace): its input is updated
       * in place when no other pad shares it, so that the other inputs
       * keep their place in the merge. */
      GList *o;
      gboolean shared = FALSE;

      for (o = GST_ELEMENT (self)->sinkpads; o; o = o->next)
        if (o->data != (gpointer) pad &&
            GST_CTF_MUX_PAD (o->data)->input == pad->input)
          shared = TRUE;
      if (!shared) {
        Input *in = g_ptr_array_index (self->inputs, pad->input);

        g_free (in->tsdl);
        in->tsdl = g_strdup (pad->tsdl);
        g_free (in->trace_name);
        in->trace_name = g_strdup (pad->trace_name);
        gst_ctf_trace_class_unref (in->tc);
        in->tc = gst_ctf_trace_class_ref (pad->tc);
        in->offset = pad->offset;
        found = pad->input;
        changed = TRUE;
      }
    }
    if (found < 0) {
      Input *in = g_new0 (Input, 1);

      in->tsdl = g_strdup (pad->tsdl);
      in->tc = gst_ctf_trace_class_ref (pad->tc);
      in->offset = pad->offset;
      in->first_order = pad->order;
      in->name = g_strdup (GST_PAD_NAME (pad));
      in->trace_name = g_strdup (pad->trace_name);
      g_ptr_array_add (self->inputs, in);
      found = self->inputs->len - 1;
      changed = TRUE;
    }
    pad->input = found;
    pad->input_serial = pad->caps_serial;
    GST_OBJECT_UNLOCK (pad);
  }
  GST_OBJECT_UNLOCK (self);

  if (!changed && self->out_tsdl != NULL)
    return TRUE;
  if (self->inputs->len == 0)
    return TRUE;

  /* The first time, order the inputs as babeltrace2 orders traces; later
   * inputs are appended so that earlier stream class ids stay. */
  if (!self->inputs_sorted) {
    GPtrArray *before = g_ptr_array_sized_new (self->inputs->len);
    gint *map = g_new (gint, self->inputs->len);

    for (i = 0; i < self->inputs->len; i++)
      g_ptr_array_add (before, g_ptr_array_index (self->inputs, i));
    g_ptr_array_sort (self->inputs, compare_inputs);
    for (i = 0; i < before->len; i++) {
      guint j;

      for (j = 0; j < self->inputs->len; j++)
        if (g_ptr_array_index (self->inputs, j) ==
            g_ptr_array_index (before, i))
          map[i] = j;
    }
    GST_OBJECT_LOCK (self);
    for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next) {
      GstCtfMuxPad *pad = l->data;

      if (pad->input >= 0)
        pad->input = map[pad->input];
    }
    GST_OBJECT_UNLOCK (self);
    g_free (map);
    g_ptr_array_unref (before);
    self->inputs_sorted = TRUE;
  }

  /* Events mode: what the old trace class holds goes out first. */
  if (self->cur_mode == GST_CTF_MUX_MODE_EVENTS && self->emerge) {
    *flow = gst_ctf_mux_events_drain (self, TRUE);
    if (*flow != GST_FLOW_OK)
      return FALSE;
  }
  reset_output (self);

  if (self->inputs->len == 1 && !force &&
      ((Input *) g_ptr_array_index (self->inputs, 0))->offset == 0) {
    Input *in = g_ptr_array_index (self->inputs, 0);

    self->out_tsdl = g_strdup (in->tsdl);
    self->out_tc = gst_ctf_trace_class_ref (in->tc);
    self->out_trace_name = g_strdup (in->trace_name);
  } else {
    GstCtfTraceClass **tcs = g_new0 (GstCtfTraceClass *, self->inputs->len);
    const gchar **names = g_new0 (const gchar *, self->inputs->len);
    gchar **trace_names = g_new0 (gchar *, self->inputs->len + 1);
    gint64 *offsets = g_new0 (gint64, self->inputs->len);
    GError *err = NULL;

    for (i = 0; i < self->inputs->len; i++) {
      Input *in = g_ptr_array_index (self->inputs, i);

      tcs[i] = in->tc;
      names[i] = in->name;
      offsets[i] = in->offset;
      /* the merged env records babeltrace2's name of each input (an
       * input whose caps do not say: as babeltrace2 names a trace given
       * itself), which ctftextsink prints for fields=trace */
      trace_names[i] = in->trace_name ? g_strdup (in->trace_name) :
          gst_ctf_trace_name (in->tc, "", NULL);
    }
    if (!gst_ctf_trace_merge_check_clocks_full (tcs, names,
            self->inputs->len, force ? GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH :
            GST_CTF_TRACE_MERGE_NONE, &err)) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("Cannot merge inputs whose clocks cannot be correlated: %s",
              err->message), ("%s (%s, code %d)", err->message,
              g_quark_to_string (err->domain), err->code));
    } else {
      self->merge = gst_ctf_trace_merge_new_full (tcs,
          (const gchar * const *) trace_names, offsets,
          self->inputs->len, force ? GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH :
          GST_CTF_TRACE_MERGE_NONE, &err);
      if (self->merge == NULL)
        GST_ELEMENT_ERROR (self, STREAM, FORMAT,
            ("Cannot merge the trace classes of the inputs: %s",
                err->message), ("%s (%s, code %d)", err->message,
                g_quark_to_string (err->domain), err->code));
    }
    g_free (tcs);
    g_free (names);
    g_strfreev (trace_names);
    g_free (offsets);
    if (self->merge == NULL) {
      g_clear_error (&err);
      *flow = GST_FLOW_ERROR;
      return FALSE;
    }
    self->out_tsdl = g_strdup (gst_ctf_trace_merge_get_metadata
        (self->merge));
    self->out_tc = gst_ctf_trace_class_ref (gst_ctf_trace_merge_get_trace_class
        (self->merge));
    GST_INFO_OBJECT (self, "merged %u inputs (%s)", self->inputs->len,
        gst_ctf_trace_merge_packets_reencoded (self->merge) ?
        "packets re-encoded" : "packet headers patched");
  }
  if (!convert_output (self, flow))
    return FALSE;
  self->caps_pending = TRUE;
  if (self->cur_mode == GST_CTF_MUX_MODE_EVENTS) {
    self->emerge = gst_ctf_event_merge_new (self->out_tc);
    /* No whole-trace buffering: events flow as soon as they are due. */
    gst_ctf_event_merge_set_emulate_recycling (self->emerge, FALSE);
    /* Copied bodies need no values: the events are only walked. */
    gst_ctf_event_merge_set_recording (self->emerge, !self->cur_copy_bodies);
  }
  return TRUE;
}

void
gst_ctf_mux_send_caps_and_segment (GstCtfMux * self, GstClockTime pts)
{
  if (self->caps_pending) {
    GstCaps *caps = gst_ctf_caps_new (self->out_tsdl,
        self->out_tc->has_uuid ? self->out_tc->uuid : NULL);

    gst_ctf_caps_set_trace_name (caps, self->out_trace_name);

    gst_aggregator_set_src_caps (GST_AGGREGATOR (self), caps);
    gst_caps_unref (caps);
    self->caps_pending = FALSE;
  }
  if (!self->segment_sent) {
    GstSegment seg;

    /* Buffers carry absolute times: start where the run starts, stream
     * time from the inputs' first packet. */
    gst_ctf_mux_time_make_segment (self, pts, &seg);
    gst_aggregator_update_segment (GST_AGGREGATOR (self), &seg);
    self->segment_sent = TRUE;
  }
}

/* ------------------------------------------------------------------ */
/* choosing the next packet */

void
gst_ctf_mux_head_ids (GstCtfMuxPad * pad, GstBuffer * buf, guint64 * sc, guint64 * inst)
{
  GstCtfPacketMeta *meta = gst_buffer_get_ctf_packet_meta (buf);

  *sc = 0;
  *inst = G_MAXUINT64;
  if (meta) {
    *sc = meta->stream_class_id;
    *inst = meta->stream_instance_id;
  } else if (pad->tc) {
    GstMapInfo map;
    GstCtfPacketInfo info;

    if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
      if (gst_ctf_packet_read_info (pad->tc, map.data, map.size, &info,
              NULL)) {
        *sc = info.stream_class_id;
        if (info.has_stream_instance_id)
          *inst = info.stream_instance_id;
      }
      gst_buffer_unmap (buf, &map);
    }
  }
}

static gint64
buffer_key (GstCtfMuxPad * pad, GstBuffer * buf, gint64 offset)
{
  if (GST_BUFFER_PTS_IS_VALID (buf))
    return (gint64) MIN (GST_BUFFER_PTS (buf), (guint64) G_MAXINT64 / 2) +
        offset;
  return pad->last_key;
}

/* The order of head packets: time, then pad order (sink_N), then the
 * stream class and instance ids of the packets. */
static inline gboolean
pad_before (const GstCtfMuxPad * a, const GstCtfMuxPad * b)
{
  if (a->head_key != b->head_key)
    return a->head_key < b->head_key;
  if (a->order != b->order)
    return a->order < b->order;
  if (a->head_sc != b->head_sc)
    return a->head_sc < b->head_sc;
  if (a->head_instance != b->head_instance)
    return a->head_instance < b->head_instance;
  return a < b;
}

GST_CTF_DEFINE_ITEM_HEAP (pad_heap, GstCtfMuxPad, pad_before, heap_index);

void
gst_ctf_mux_pads_changed (GstCtfMux * self)
{
  GST_OBJECT_LOCK (self);
  self->heap_stale = TRUE;
  self->caps_changes++;
  GST_OBJECT_UNLOCK (self);
}

static void
heap_clear (GstCtfMux * self)
{
  guint i;

  for (i = 0; i < self->heap->len; i++) {
    GstCtfMuxPad *pad = g_ptr_array_index (self->heap, i);

    pad->heap_index = -1;
    gst_object_unref (pad);
  }
  g_ptr_array_set_size (self->heap, 0);
  for (i = 0; i < self->unplaced->len; i++)
    gst_object_unref (g_ptr_array_index (self->unplaced, i));
  g_ptr_array_set_size (self->unplaced, 0);
}

/* The pad whose head packet goes out next, or NULL.  *waiting: a pad
 * without data that is not EOS.  Only the pads popped since the last call
 * (and those without data then) are looked at: the others keep their head
 * and their place in the heap. */
static GstCtfMuxPad *
pick_pad (GstCtfMux * self, gboolean * waiting)
{
  guint i;

  *waiting = FALSE;
  GST_OBJECT_LOCK (self);
  if (self->heap_stale ||
      self->heap_cookie != GST_ELEMENT (self)->pads_cookie) {
    GList *l;

    heap_clear (self);
    for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next)
      g_ptr_array_add (self->unplaced, gst_object_ref (l->data));
    self->heap_stale = FALSE;
    self->heap_cookie = GST_ELEMENT (self)->pads_cookie;
  }
  GST_OBJECT_UNLOCK (self);

  for (i = 0; i < self->unplaced->len;) {
    GstCtfMuxPad *pad = g_ptr_array_index (self->unplaced, i);
    GstBuffer *buf = gst_aggregator_pad_peek_buffer (GST_AGGREGATOR_PAD (pad));
    gint64 offset;

    if (buf == NULL) {
      if (gst_aggregator_pad_is_eos (GST_AGGREGATOR_PAD (pad))) {
        /* done, until a flush or an event makes the heap stale */
        g_ptr_array_remove_index_fast (self->unplaced, i);
        gst_object_unref (pad);
      } else {
        *waiting = TRUE;
        i++;
      }
      continue;
    }
    GST_OBJECT_LOCK (pad);
    offset = pad->offset;
    GST_OBJECT_UNLOCK (pad);
    pad->head_key = buffer_key (pad, buf, offset);
    gst_ctf_mux_head_ids (pad, buf, &pad->head_sc, &pad->head_instance);
    gst_buffer_unref (buf);
    /* (its reference goes with it) */
    g_ptr_array_remove_index_fast (self->unplaced, i);
    pad_heap_update (self->heap, pad);
  }
  if (self->heap->len == 0)
    return NULL;
  return gst_object_ref (g_ptr_array_index (self->heap, 0));
}

/* @pad's head was popped: its next one is looked at by the next
 * pick_pad(). */
static void
unplace (GstCtfMux * self, GstCtfMuxPad * pad)
{
  if (pad->heap_index < 0)
    return;
  pad_heap_remove (self->heap, pad);
  g_ptr_array_add (self->unplaced, pad);
}

/* ------------------------------------------------------------------ */
/* packets mode */

static GstBuffer *
rewrite_buffer (GstCtfMux * self, GstCtfMuxPad * pad, GstBuffer * buf,
    gint64 offset, GError ** error)
{
  GstCtfPacketMeta *meta = gst_buffer_get_ctf_packet_meta (buf), *nmeta;
  GstMapInfo map;
  GBytes *head;
  GstBuffer *out;
  guint64 new_sc = 0;
  gsize n_replaced, packet_bytes;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot map packet buffer");
    return NULL;
  }
  head = gst_ctf_trace_merge_rewrite_packet_head (self->merge, pad->input,
      map.data, map.size, meta && meta->stream_id != G_MAXUINT64 ?
      meta->stream_id : 0, &new_sc, &n_replaced, &packet_bytes, error);
  gst_buffer_unmap (buf, &map);
  if (head == NULL)
    return NULL;
  /* the new header bytes, then the rest of the input packet shared, not
   * copied */
  if (n_replaced < packet_bytes)
    out = gst_buffer_copy_region (buf, GST_BUFFER_COPY_MEMORY, n_replaced,
        packet_bytes - n_replaced);
  else
    out = gst_buffer_new ();
  if (g_bytes_get_size (head) > 0) {
    gsize n;
    gconstpointer d = g_bytes_get_data (head, &n);

    gst_buffer_prepend_memory (out,
        gst_memory_new_wrapped (GST_MEMORY_FLAG_READONLY, (gpointer) d, n, 0,
            n, g_bytes_ref (head), (GDestroyNotify) g_bytes_unref));
  }
  g_bytes_unref (head);
  gst_buffer_copy_into (out, buf, GST_BUFFER_COPY_FLAGS |
      GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
  if (GST_BUFFER_PTS_IS_VALID (out))
    GST_BUFFER_PTS (out) += offset;
  nmeta = gst_buffer_add_ctf_packet_meta (out);
  if (meta) {
    nmeta->stream_instance_id = meta->stream_instance_id;
    /* file names of different inputs may clash (LTTng's channel0_0) */
    if (meta->stream_name) {
      gchar *n = g_strdup_printf ("trace%d_%s", pad->input,
          meta->stream_name);

      nmeta->stream_name = g_intern_string (n);
      g_free (n);
    }
    nmeta->stream_index = meta->stream_index;
    nmeta->offset = meta->offset;
    nmeta->events_discarded_delta = meta->events_discarded_delta;
    nmeta->events_discarded_unknown = meta->events_discarded_unknown;
    nmeta->stream_id = meta->stream_id;
  }
  nmeta->stream_class_id = new_sc;
  return out;
}

static GstFlowReturn
push_packet (GstCtfMux * self, GstCtfMuxPad * pad, GstBuffer * buf)
{
  GstBuffer *out;
  gint64 offset;

  GST_OBJECT_LOCK (pad);
  offset = pad->offset;
  GST_OBJECT_UNLOCK (pad);

  if (self->merge == NULL) {
    out = buf;                  /* the same buffer */
  } else {
    GError *err = NULL;

    out = rewrite_buffer (self, pad, buf, offset, &err);
    gst_buffer_unref (buf);
    if (out == NULL) {
      GST_ELEMENT_ERROR (self, STREAM, DECODE,
          ("Cannot rewrite a packet of pad %s for the merged trace: %s",
              GST_PAD_NAME (pad), err->message), ("%s (%s, code %d)",
              err->message, g_quark_to_string (err->domain), err->code));
      g_error_free (err);
      return GST_FLOW_ERROR;
    }
  }
  gst_ctf_mux_send_caps_and_segment (self, GST_BUFFER_PTS (out));
  return gst_aggregator_finish_buffer (GST_AGGREGATOR (self), out);
}

/* ------------------------------------------------------------------ */

/* Takes the packets that are certainly next: while every pad that is not
 * at EOS has one queued (the base class calls again when they have);
 * after a live timeout, up to 256 packets of the pads with data. */
static GstFlowReturn
take_packets (GstCtfMux * self, gboolean timeout)
{
  GstAggregator *agg = GST_AGGREGATOR (self);
  GstFlowReturn ret = GST_FLOW_OK;
  guint n = 0;

  do {
    GstCtfMuxPad *pad;
    GstBuffer *buf;
    gboolean waiting;
    gint64 offset;

    if (!ensure_output (self, &ret))
      return ret == GST_FLOW_OK ? GST_FLOW_ERROR : ret;

    pad = pick_pad (self, &waiting);
    if (pad == NULL) {
      if (waiting)
        return n > 0 ? GST_FLOW_OK : GST_AGGREGATOR_FLOW_NEED_DATA;
      /* every pad is EOS */
      if (self->cur_mode == GST_CTF_MUX_MODE_EVENTS) {
        ret = gst_ctf_mux_events_drain (self, TRUE);
        if (ret != GST_FLOW_OK)
          return ret;
      }
      GST_DEBUG_OBJECT (self, "all inputs done");
      if (self->cur_mode == GST_CTF_MUX_MODE_EVENTS)
        GST_INFO_OBJECT (self, "events: %" G_GUINT64_FORMAT " bodies copied, %"
            G_GUINT64_FORMAT " re-encoded", self->n_copied,
            self->n_reencoded);
      return GST_FLOW_EOS;
    }
    if (waiting && !timeout) {
      gst_object_unref (pad);
      return n > 0 ? GST_FLOW_OK : GST_AGGREGATOR_FLOW_NEED_DATA;
    }
    buf = gst_aggregator_pad_pop_buffer (GST_AGGREGATOR_PAD (pad));
    unplace (self, pad);
    if (buf == NULL) {
      gst_object_unref (pad);
      continue;
    }
    gst_ctf_mux_queue_popped (pad, buf);
    GST_OBJECT_LOCK (pad);
    offset = pad->offset;
    GST_OBJECT_UNLOCK (pad);
    if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP) &&
        gst_buffer_get_size (buf) == 0) {
      /* a GAP event of the input (lttnglivesrc), which the base class
       * queues as an empty buffer: time went by, no packet */
      pad->last_key = buffer_key (pad, buf, offset);
      gst_buffer_unref (buf);
      gst_object_unref (pad);
      continue;
    }
    if (self->out_tc == NULL || pad->input < 0) {
      /* a buffer before caps */
      gst_buffer_unref (buf);
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
          ("Pad %s received a buffer before caps with CTF metadata.",
              GST_PAD_NAME (pad)));
      gst_object_unref (pad);
      return GST_FLOW_NOT_NEGOTIATED;
    }
    pad->last_key = buffer_key (pad, buf, offset);
    gst_ctf_mux_time_note_buffer (self, buf, offset);
    gst_aggregator_selected_samples (agg, GST_BUFFER_PTS (buf),
        GST_BUFFER_DTS (buf), GST_BUFFER_DURATION (buf), NULL);
    if (self->cur_mode == GST_CTF_MUX_MODE_EVENTS)
      ret = gst_ctf_mux_events_push (self, pad, buf);
    else
      ret = push_packet (self, pad, buf);
    gst_object_unref (pad);
    n++;
  } while (ret == GST_FLOW_OK && (!timeout || n < 256));
  return ret;
}

static GstFlowReturn
gst_ctf_mux_aggregate (GstAggregator * agg, gboolean timeout)
{
  GstCtfMux *self = GST_CTF_MUX (agg);
  GstFlowReturn ret;

  gst_ctf_mux_queue_update (self);
  ret = take_packets (self, timeout);
  /* the base class stops every pad with this flow: so do the input
   * threads that wait for room (NEED_DATA is a custom error value) */
  if (ret < GST_FLOW_OK && ret != GST_AGGREGATOR_FLOW_NEED_DATA)
    gst_ctf_mux_queue_halt_all (self, ret);
  return ret;
}

static GstStateChangeReturn
gst_ctf_mux_change_state (GstElement * element, GstStateChange transition)
{
  /* the sink pads are deactivated next, which waits for their input
   * threads: none may stay waiting for room */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    gst_ctf_mux_queue_halt_all (GST_CTF_MUX (element), GST_FLOW_FLUSHING);
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

/* ------------------------------------------------------------------ */

static void
gst_ctf_mux_finalize (GObject * object)
{
  GstCtfMux *self = GST_CTF_MUX (object);

  reset_output (self);
  heap_clear (self);
  g_ptr_array_unref (self->heap);
  g_ptr_array_unref (self->unplaced);
  g_ptr_array_unref (self->inputs);
  g_hash_table_unref (self->writers);
  g_hash_table_unref (self->out_streams);
  g_hash_table_unref (self->stream_ids);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_ctf_mux_class_init (GstCtfMuxClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);

  gobject_class->set_property = gst_ctf_mux_set_property;
  gobject_class->get_property = gst_ctf_mux_get_property;
  gobject_class->finalize = gst_ctf_mux_finalize;

  /**
   * GstCtfMux:mode:
   *
   * `packets`: whole packets in `timestamp_begin` order; `events`: every
   * event re-encoded in one global time order.
   */
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "packets: whole packets ordered by timestamp_begin; events: all "
          "events re-encoded in one global timestamp order",
          GST_TYPE_CTF_MUX_MODE, GST_CTF_MUX_MODE_PACKETS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfMux:force-correlate:
   *
   * Merge inputs whose clocks cannot be correlated (no Unix epoch origin
   * and different UUIDs) by declaring every clock with a Unix epoch
   * origin, like babeltrace2's `--clock-force-correlate`.  Without it
   * such inputs are refused with an error.
   */
  g_object_class_install_property (gobject_class, PROP_FORCE_CORRELATE,
      g_param_spec_boolean ("force-correlate", "Force correlate",
          "Merge inputs whose clocks cannot be correlated, taking every "
          "clock's origin as the Unix epoch (babeltrace2's "
          "--clock-force-correlate)", FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfMux:copy-bodies:
   *
   * Events mode: write each event's body (event contexts and payload) as
   * the bytes it had in its source packet, behind a new event header,
   * when the body lands at the same offset modulo its largest alignment
   * (CTF 1.8 §4.2.2; for LTTng's byte-aligned fields: always); otherwise
   * the event is decoded and re-encoded field by field.  The output reads
   * the same either way; `false` re-encodes every event.
   */
  g_object_class_install_property (gobject_class, PROP_COPY_BODIES,
      g_param_spec_boolean ("copy-bodies", "Copy bodies",
          "Events mode: copy each event's body as bytes when its alignment "
          "allows (false: re-encode every field)", TRUE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfMux:ctf-version:
   *
   * The CTF version of the output metadata: `auto` (the default: CTF 2
   * when an input is CTF 2, else CTF 1.8), `1.8` or `2`.  The merged
   * trace class is built as CTF 1.8 and converted
   * (gst_ctf_metadata_convert()); packets are the same bytes in both.
   * A CTF 2 input with a field class CTF 1.8 cannot express (a LEB128
   * integer, an optional, a BLOB...) cannot be merged with another trace
   * yet.
   */
  g_object_class_install_property (gobject_class, PROP_CTF_VERSION,
      g_param_spec_enum ("ctf-version", "CTF version",
          "CTF version of the output: auto (CTF 2 when an input is CTF 2), "
          "1.8 or 2", GST_CTF_TYPE_OUTPUT_VERSION,
          GST_CTF_OUTPUT_VERSION_AUTO, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &src_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &sink_template, GST_TYPE_CTF_MUX_PAD);
  gst_element_class_set_static_metadata (element_class,
      "CTF trace muxer", "Muxer",
      "Merges CTF packet streams into one trace, ordered by timestamp",
      GST_CTF_ELEMENT_AUTHOR);

  element_class->request_new_pad =
      GST_DEBUG_FUNCPTR (gst_ctf_mux_request_new_pad);
  element_class->release_pad = GST_DEBUG_FUNCPTR (gst_ctf_mux_release_pad);
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_ctf_mux_change_state);

  agg_class->start = GST_DEBUG_FUNCPTR (gst_ctf_mux_start);
  agg_class->stop = GST_DEBUG_FUNCPTR (gst_ctf_mux_stop);
  agg_class->flush = GST_DEBUG_FUNCPTR (gst_ctf_mux_flush);
  agg_class->sink_event = GST_DEBUG_FUNCPTR (gst_ctf_mux_sink_event);
  agg_class->sink_query = GST_DEBUG_FUNCPTR (gst_ctf_mux_sink_query);
  agg_class->src_query = GST_DEBUG_FUNCPTR (gst_ctf_mux_src_query);
  agg_class->src_event = GST_DEBUG_FUNCPTR (gst_ctf_mux_src_event);
  agg_class->negotiate = GST_DEBUG_FUNCPTR (gst_ctf_mux_negotiate);
  agg_class->get_next_time = GST_DEBUG_FUNCPTR (gst_ctf_mux_get_next_time);
  agg_class->create_new_pad = GST_DEBUG_FUNCPTR (gst_ctf_mux_create_new_pad);
  agg_class->aggregate = GST_DEBUG_FUNCPTR (gst_ctf_mux_aggregate);

  gst_type_mark_as_plugin_api (GST_TYPE_CTF_MUX_PAD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CTF_MUX_MODE, 0);
}

static void
gst_ctf_mux_init (GstCtfMux * self)
{
  self->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) input_free);
  self->heap = g_ptr_array_new ();
  self->unplaced = g_ptr_array_new ();
  self->heap_stale = TRUE;
  self->writers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      (GDestroyNotify) gst_ctf_packet_writer_free);
  self->out_streams = g_hash_table_new_full (gst_ctf_mux_out_stream_hash,
      gst_ctf_mux_out_stream_equal, g_free, NULL);
  self->copy_bodies = TRUE;
  self->origin_ns = -1;
  self->position_ns = G_MININT64;
  self->seek_start_ns = self->seek_stop_ns = -1;
  self->stream_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
}
