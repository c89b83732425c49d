/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-timefilter
 * @title: timefilter
 * @short_description: keeps the events of a CTF packet stream in a time window
 *
 * Keeps the events whose time is in [#GstCtfTimeFilter:start,
 * #GstCtfTimeFilter:end] (both included), like babeltrace2's
 * `--begin`/`--end` options (`filter.utils.trimmer`), at the cost of the
 * window rather than of the trace:
 *
 * - a packet whose `timestamp_begin` and `timestamp_end` are both in the
 *   window goes out as the very same #GstBuffer (no copy, no decoding);
 * - a packet entirely before or after the window is dropped;
 * - a packet across a bound is walked (decoding only what locates the
 *   events, up to the first event after the window) and written again
 *   with only the events in the window: the packet writer writes its
 *   header, context and first kept event (which may need a full
 *   timestamp, CTF 1.8 §8), the bytes of the other kept events are copied
 *   as they are when they keep their alignment (else they are decoded and
 *   re-encoded too), then `content_size`/`packet_size` are set.  Its
 *   `timestamp_begin`/`timestamp_end` are moved to the bounds it crosses
 *   (never past its first or last kept event); `packet_seq_num` and
 *   `events_discarded` are kept, so discarded events are never hidden.
 *   If all its events are in the window it goes out unchanged; if none,
 *   it is dropped.
 *
 * Event times are compared in nanoseconds from the clock origin, computed
 * as babeltrace2 2.0 computes them (gst_ctf_clock_class_cycles_to_ns_from_origin()).
 *
 * When the first packet arrives and its upstream answers the SEEKING query
 * for TIME with seekable (ctfsrc does), timefilter sends a flushing TIME
 * seek to `start` (no stop) upstream, in the upstream's stream time
 * (`start` minus its segment's `start - time`: ctfsrc counts from its
 * first packet), so that the packets before the window are never read.
 * Its DURATION answer ends at the window's `end` once known.  With a live or non-seekable upstream the
 * packets before the window are dropped as they come.  The first packet
 * whose `timestamp_begin` is after `end` ends the stream: timefilter sends
 * EOS downstream and returns EOS upstream.  This relies on the packet
 * stream being in `timestamp_begin` order, as ctfsrc, tracecmdsrc and
 * ctfmux give it.
 *
 * The packets of tracecmdsrc's side stream (the stream class holding
 * `tracecmd_event_format`: ftrace formats, saved cmdlines, kallsyms; they
 * describe the trace rather than happen in it) pass whatever the window,
 * so `ctftextsink format=trace-cmd` can follow.  (After its seek,
 * tracecmdsrc sends them again at the window's start; ctfsrc reading a
 * converted trace does not, and those that end before the window are
 * not read.)
 *
 * Bounds use the text forms of babeltrace2's `--begin`/`--end`:
 * `YYYY-MM-DD HH:MM[:SS[.NNNNNNNNN]]`, `YYYY-MM-DD`,
 * `HH:MM[:SS[.NNNNNNNNN]]` (the date is the one of the first packet) and
 * `[-]SEC[.NNNNNNNNN]` (seconds from the clock origin), in local time
 * unless #GstCtfTimeFilter:gmt is set.  #GstCtfTimeFilter:start-time and
 * #GstCtfTimeFilter:end-time say the same in nanoseconds: `start` and
 * `start-time` are two forms of one bound, setting one form updates the
 * other, so the one set last wins (likewise `end` and `end-time`).  A bound that cannot be parsed, or a start after the
 * end, is an element error at the READY to PAUSED state change (or at the
 * first packet for time-of-day bounds).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 ctfsrc location=T ! timefilter start="2026-11-21 23:53:46.0108" end="23:53:46.5" ! ctfsink location=OUT
 * ]| Writes the events of that half second of trace T as a new trace.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctftimefilter-private.h"

#include "gstctf-caps.h"
#include "gstctf-element-util.h"
#include "gsttracecmd.h"
#include "gstctf-packet-meta.h"
#include "gstctf-metadata.h"

GST_DEBUG_CATEGORY (gst_ctf_time_filter_debug);
#define GST_CAT_DEFAULT gst_ctf_time_filter_debug

enum
{
  PROP_0,
  PROP_START,
  PROP_END,
  PROP_START_TIME,
  PROP_END_TIME,
  PROP_GMT,
  PROP_CLOCK_GMT,
  PROP_STATS,
};



static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

#define gst_ctf_time_filter_parent_class parent_class
/* Registered as "GstTimeFilter", so that an element's default name is
 * "timefilter0", after its factory, as for every other element here (the
 * default name is the type name without "Gst", lowercased). */
typedef GstCtfTimeFilter GstTimeFilter;
typedef GstCtfTimeFilterClass GstTimeFilterClass;
G_DEFINE_TYPE (GstTimeFilter, gst_ctf_time_filter, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (timefilter, "timefilter",
    GST_RANK_NONE, GST_TYPE_CTF_TIME_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_ctf_time_filter_debug, "timefilter", 0,
        "CTF time window filter"));

static void gst_ctf_time_filter_finalize (GObject * object);
static void gst_ctf_time_filter_set_property (GObject * object,
    guint prop_id, const GValue * value, GParamSpec * pspec);
static void gst_ctf_time_filter_get_property (GObject * object,
    guint prop_id, GValue * value, GParamSpec * pspec);
static gboolean gst_ctf_time_filter_start (GstBaseTransform * trans);
static gboolean gst_ctf_time_filter_stop (GstBaseTransform * trans);
static gboolean gst_ctf_time_filter_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
static gboolean gst_ctf_time_filter_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
static gboolean gst_ctf_time_filter_sink_event (GstBaseTransform * trans,
    GstEvent * event);
static GstFlowReturn gst_ctf_time_filter_generate_output (GstBaseTransform *
    trans, GstBuffer ** outbuf);

static void
gst_ctf_time_filter_class_init (GstCtfTimeFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->finalize = gst_ctf_time_filter_finalize;
  gobject_class->set_property = gst_ctf_time_filter_set_property;
  gobject_class->get_property = gst_ctf_time_filter_get_property;

  /**
   * GstCtfTimeFilter:start:
   *
   * Beginning of the window (included), in one of babeltrace2's
   * `--begin` forms; %NULL or "" for an open beginning.
   */
  g_object_class_install_property (gobject_class, PROP_START,
      g_param_spec_string ("start", "Start",
          "Beginning of the window (included): \"YYYY-MM-DD "
          "HH:MM[:SS[.NNNNNNNNN]]\", \"YYYY-MM-DD\", "
          "\"HH:MM[:SS[.NNNNNNNNN]]\" (date of the first packet) or "
          "\"[-]SEC[.NNNNNNNNN]\" (from the clock origin); empty: open. "
          "Same bound as start-time: the one set last wins",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfTimeFilter:end:
   *
   * End of the window (included), in one of babeltrace2's `--end`
   * forms; %NULL or "" for an open end.
   */
  g_object_class_install_property (gobject_class, PROP_END,
      g_param_spec_string ("end", "End",
          "End of the window (included), same forms as `start`; empty: "
          "open. Same bound as end-time: the one set last wins",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfTimeFilter:start-time:
   *
   * Beginning of the window in ns from the trace clock's origin (the
   * Unix epoch for LTTng and other absolute clocks), or
   * %GST_CLOCK_TIME_NONE for an open beginning.  Setting it sets
   * #GstCtfTimeFilter:start to `SEC.NNNNNNNNN`; setting `start` updates
   * it (a negative time reads as 0; a time-of-day `start` reads as
   * %GST_CLOCK_TIME_NONE until the first packet gives its date, then it
   * is notified).
   */
  g_object_class_install_property (gobject_class, PROP_START_TIME,
      g_param_spec_uint64 ("start-time", "Start time",
          "Beginning of the window in ns from the clock origin "
          "(GST_CLOCK_TIME_NONE: open). Same bound as start: the one set "
          "last wins", 0, G_MAXUINT64, GST_CLOCK_TIME_NONE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfTimeFilter:end-time:
   *
   * End of the window in ns from the trace clock's origin, or
   * %GST_CLOCK_TIME_NONE for an open end; kept in sync with
   * #GstCtfTimeFilter:end like #GstCtfTimeFilter:start-time.
   */
  g_object_class_install_property (gobject_class, PROP_END_TIME,
      g_param_spec_uint64 ("end-time", "End time",
          "End of the window in ns from the clock origin "
          "(GST_CLOCK_TIME_NONE: open). Same bound as end: the one set last "
          "wins", 0, G_MAXUINT64, GST_CLOCK_TIME_NONE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfTimeFilter:gmt:
   *
   * Whether dates and times of day in `start`/`end` are UTC rather than
   * local time (babeltrace2's `gmt` trimmer parameter).
   */
  g_object_class_install_property (gobject_class, PROP_GMT,
      g_param_spec_boolean ("gmt", "GMT",
          "Dates and times of day in start/end are UTC, not local time",
          FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfTimeFilter:clock-gmt:
   *
   * The same as #GstCtfTimeFilter:gmt, under the name ctftextsink uses
   * (and babeltrace2's `--clock-gmt`, which sets both its text sink's
   * `clock-gmt` and its trimmer's `gmt`), so one name works on both.
   */
  g_object_class_install_property (gobject_class, PROP_CLOCK_GMT,
      g_param_spec_boolean ("clock-gmt", "Clock GMT",
          "Same as gmt (the name ctftextsink and babeltrace2's --clock-gmt "
          "use)", FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfTimeFilter:stats:
   *
   * `application/x-ctf-timefilter-stats` with `packets-passed` (same
   * buffer), `packets-dropped`, `packets-rewritten` and `events-dropped`
   * (events decoded and left out of rewritten packets: decoding stops at
   * the first event after the window), all guint64.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Packets passed untouched, dropped and rewritten, and events "
          "dropped from rewritten packets (guint64 counts)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "CTF time window filter", "Filter",
      "Keeps the events of a CTF packet stream that lie in a time window; "
      "packets inside pass untouched", GST_CTF_ELEMENT_AUTHOR);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_ctf_time_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_ctf_time_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_ctf_time_filter_set_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_ctf_time_filter_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_ctf_time_filter_query);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_ctf_time_filter_generate_output);
  trans_class->passthrough_on_same_caps = FALSE;
}

/* Keys of clock_index: a stream class id and an instance id. */
static guint
stream_key_hash (gconstpointer p)
{
  const guint64 *k = p;

  return g_int64_hash (&k[0]) * 31 + g_int64_hash (&k[1]);
}

static gboolean
stream_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, 2 * sizeof (guint64)) == 0;
}

static void
clocks_reset (GstCtfTimeFilter * self)
{
  g_array_set_size (self->clocks, 0);
  g_hash_table_remove_all (self->clock_index);
}

static void
gst_ctf_time_filter_init (GstCtfTimeFilter * self)
{
  self->start_time = GST_CLOCK_TIME_NONE;
  self->end_time = GST_CLOCK_TIME_NONE;
  self->clocks = g_array_new (FALSE, FALSE, sizeof (StreamClock));
  self->clock_index = g_hash_table_new_full (stream_key_hash,
      stream_key_equal, g_free, NULL);
}

static void
gst_ctf_time_filter_finalize (GObject * object)
{
  GstCtfTimeFilter *self = GST_CTF_TIME_FILTER (object);

  g_free (self->start_str);
  g_free (self->end_str);
  g_array_unref (self->clocks);
  g_hash_table_unref (self->clock_index);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* The numeric form of a parsed text bound (object lock held). */
static guint64
bound_to_time (const gchar * str, gboolean gmt)
{
  GstCtfTimeBound b;

  if (!gst_ctf_time_bound_parse (str, gmt, &b, NULL) ||
      b.kind != GST_CTF_TIME_BOUND_ABSOLUTE)
    return GST_CLOCK_TIME_NONE;
  return b.ns < 0 ? 0 : (guint64) b.ns;
}

static gchar *
time_to_string (guint64 t)
{
  if (!GST_CLOCK_TIME_IS_VALID (t))
    return NULL;
  return gst_ctf_time_format_seconds ((gint64) MIN (t, (guint64) G_MAXINT64));
}

static void
gst_ctf_time_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfTimeFilter *self = GST_CTF_TIME_FILTER (object);
  const gchar *other = NULL, *other2 = NULL;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_START:
      g_free (self->start_str);
      self->start_str = g_value_dup_string (value);
      self->start_time = bound_to_time (self->start_str, self->gmt);
      other = "start-time";
      break;
    case PROP_END:
      g_free (self->end_str);
      self->end_str = g_value_dup_string (value);
      self->end_time = bound_to_time (self->end_str, self->gmt);
      other = "end-time";
      break;
    case PROP_START_TIME:
      self->start_time = g_value_get_uint64 (value);
      g_free (self->start_str);
      self->start_str = time_to_string (self->start_time);
      other = "start";
      break;
    case PROP_END_TIME:
      self->end_time = g_value_get_uint64 (value);
      g_free (self->end_str);
      self->end_str = time_to_string (self->end_time);
      other = "end";
      break;
    case PROP_GMT:
    case PROP_CLOCK_GMT:
      self->gmt = g_value_get_boolean (value);
      self->start_time = bound_to_time (self->start_str, self->gmt);
      self->end_time = bound_to_time (self->end_str, self->gmt);
      other = "start-time";
      other2 = "end-time";
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (other)
    g_object_notify (object, other);
  if (other2)
    g_object_notify (object, other2);
}

static GstStructure *
make_stats (GstCtfTimeFilter * self)
{
  GstStructure *s;

  GST_OBJECT_LOCK (self);
  s = gst_structure_new ("application/x-ctf-timefilter-stats",
      "packets-passed", G_TYPE_UINT64, self->packets_passed,
      "packets-dropped", G_TYPE_UINT64, self->packets_dropped,
      "packets-rewritten", G_TYPE_UINT64, self->packets_rewritten,
      "events-dropped", G_TYPE_UINT64, self->events_dropped, NULL);
  GST_OBJECT_UNLOCK (self);
  return s;
}

static void
gst_ctf_time_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfTimeFilter *self = GST_CTF_TIME_FILTER (object);

  switch (prop_id) {
    case PROP_START:
      GST_OBJECT_LOCK (self);
      g_value_set_string (value, self->start_str);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_END:
      GST_OBJECT_LOCK (self);
      g_value_set_string (value, self->end_str);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_START_TIME:
      GST_OBJECT_LOCK (self);
      g_value_set_uint64 (value, self->start_time);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_END_TIME:
      GST_OBJECT_LOCK (self);
      g_value_set_uint64 (value, self->end_time);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_GMT:
    case PROP_CLOCK_GMT:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->gmt);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, make_stats (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* ------------------------------------------------------------------ */

static void
drop_trace (GstCtfTimeFilter * self)
{
  g_clear_pointer (&self->writers, g_hash_table_unref);
  g_clear_pointer (&self->it, gst_ctf_event_iter_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  self->side_sc = NULL;
  g_clear_pointer (&self->tsdl, g_free);
  clocks_reset (self);
}

static gboolean
check_order (GstCtfTimeFilter * self)
{
  if (self->start.kind == GST_CTF_TIME_BOUND_ABSOLUTE &&
      self->end.kind == GST_CTF_TIME_BOUND_ABSOLUTE &&
      self->start.ns > self->end.ns) {
    gchar *a = gst_ctf_time_format_seconds (self->start.ns);
    gchar *b = gst_ctf_time_format_seconds (self->end.ns);

    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("The time window's beginning is after its end: start=%s s, "
            "end=%s s (from the clock origin).", a, b),
        ("begin-ns-from-origin=%" G_GINT64_FORMAT ", end-ns-from-origin=%"
            G_GINT64_FORMAT, self->start.ns, self->end.ns));
    g_free (a);
    g_free (b);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_ctf_time_filter_start (GstBaseTransform * trans)
{
  GstCtfTimeFilter *self = GST_CTF_TIME_FILTER (trans);
  gchar *start_str, *end_str;
  gboolean gmt, ok = TRUE;
  GError *err = NULL;

  GST_OBJECT_LOCK (self);
  start_str = g_strdup (self->start_str);
  end_str = g_strdup (self->end_str);
  gmt = self->gmt;
  self->packets_passed = self->packets_dropped = 0;
  self->packets_rewritten = self->events_dropped = 0;
  GST_OBJECT_UNLOCK (self);

  if (!gst_ctf_time_bound_parse (start_str, gmt, &self->start, &err) ||
      !gst_ctf_time_bound_parse (end_str, gmt, &self->end, &err)) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("Invalid time bound: %s", err->message),
        ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
            err->code));
    g_clear_error (&err);
    ok = FALSE;
  } else {
    ok = check_order (self);
  }
  g_free (start_str);
  g_free (end_str);

  self->resolved = FALSE;
  self->eos = FALSE;
  GST_OBJECT_LOCK (self);
  self->window_end_ns = -1;
  GST_OBJECT_UNLOCK (self);
  /* For tests: always re-encode kept events (the path used when their
   * bytes cannot be copied). */
  self->reencode_all = g_getenv ("GST_CTF_TIMEFILTER_REENCODE") != NULL;
  return ok;
}

static gboolean
gst_ctf_time_filter_stop (GstBaseTransform * trans)
{
  drop_trace (GST_CTF_TIME_FILTER (trans));
  return TRUE;
}

static void
writer_free (gpointer p)
{
  gst_ctf_packet_writer_free (p);
}

static gint64
env_int (const GstCtfTraceClass * tc, const gchar * name)
{
  const GstCtfEnvEntry *e = gst_ctf_trace_class_find_env (tc, name);

  return e && !e->is_string ? e->integer : -1;
}

/* babeltrace2's trace quirks: LTTng-UST < 2.11.0, LTTng-modules < 2.9.13
 * and 2.10.0 to 2.10.9 wrote a `timestamp_end` that can be before the
 * packet's last event; such packets are judged by their events. */
gboolean
gst_ctf_time_filter_tracer_sets_timestamp_end (const GstCtfTraceClass * tc)
{
  const GstCtfEnvEntry *name = gst_ctf_trace_class_find_env (tc,
      "tracer_name");
  gint64 major = env_int (tc, "tracer_major");
  gint64 minor = env_int (tc, "tracer_minor");
  gint64 patch = env_int (tc, "tracer_patchlevel");
  gint64 v;

  if (name == NULL || !name->is_string || name->str == NULL || major < 0 ||
      minor < 0)
    return TRUE;
  v = major * 1000000 + minor * 1000 + MAX (patch, 0);
  if (strcmp (name->str, "lttng-ust") == 0)
    return v >= 2011000;
  if (strcmp (name->str, "lttng-modules") == 0)
    return v >= 2009013 && !(v >= 2010000 && v <= 2010009);
  return TRUE;
}

static gboolean
gst_ctf_time_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCtfTimeFilter *self = GST_CTF_TIME_FILTER (trans);
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
   * clocks stay valid; writers and decode plans are per trace class. */
  g_clear_pointer (&self->writers, g_hash_table_unref);
  g_clear_pointer (&self->it, gst_ctf_event_iter_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  self->tc = tc;
  self->side_sc = gst_ctf_trace_dat_find_side_stream_class (tc);
  self->it = gst_ctf_event_iter_new (tc);
  self->trust_end = gst_ctf_time_filter_tracer_sets_timestamp_end (tc);
  self->writers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      writer_free);
  return TRUE;
}

static gboolean
gst_ctf_time_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCtfTimeFilter *self = GST_CTF_TIME_FILTER (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
      /* A new run of packets (our seek, or one from downstream): the
       * stream clocks restart from the next packets. */
      self->eos = FALSE;
      clocks_reset (self);
      break;
    case GST_EVENT_EOS:
      /* Already sent when the window ended. */
      if (self->eos) {
        gst_event_unref (event);
        return TRUE;
      }
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* ------------------------------------------------------------------ */

static StreamClock *
stream_clock (GstCtfTimeFilter * self, const GstCtfPacketInfo * info)
{
  guint64 inst = info->has_stream_instance_id ? info->stream_instance_id :
      G_MAXUINT64;
  guint64 key[2] = { info->stream_class_id, inst };
  guint at = GPOINTER_TO_UINT (g_hash_table_lookup (self->clock_index, key));
  StreamClock sc;

  /* (a hash table, not a scan: thousands of streams, one look per packet) */
  if (at > 0)
    return &g_array_index (self->clocks, StreamClock, at - 1);
  sc.stream_class_id = info->stream_class_id;
  sc.stream_instance_id = inst;
  sc.clock = 0;
  g_array_append_val (self->clocks, sc);
  g_hash_table_insert (self->clock_index, g_memdup2 (key, sizeof (key)),
      GUINT_TO_POINTER (self->clocks->len));
  return &g_array_index (self->clocks, StreamClock, self->clocks->len - 1);
}

/* Bounds given as a time of day get the date of the first packet; then
 * the upstream is asked to seek to the window. */
static gboolean
resolve_bounds (GstCtfTimeFilter * self, gint64 first_ns)
{
  GError *err = NULL;
  gboolean gmt, notify_start, notify_end;

  GST_OBJECT_LOCK (self);
  gmt = self->gmt;
  GST_OBJECT_UNLOCK (self);
  notify_start = self->start.kind == GST_CTF_TIME_BOUND_TIME_OF_DAY;
  notify_end = self->end.kind == GST_CTF_TIME_BOUND_TIME_OF_DAY;
  if (!gst_ctf_time_bound_resolve (&self->start, first_ns, gmt, &err) ||
      !gst_ctf_time_bound_resolve (&self->end, first_ns, gmt, &err)) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("Invalid time bound: %s", err->message),
        ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
            err->code));
    g_clear_error (&err);
    return FALSE;
  }
  if (!check_order (self))
    return FALSE;
  self->resolved = TRUE;

  GST_OBJECT_LOCK (self);
  self->window_end_ns = self->end.kind == GST_CTF_TIME_BOUND_ABSOLUTE ?
      self->end.ns : -1;
  if (notify_start)
    self->start_time = self->start.ns < 0 ? 0 : (guint64) self->start.ns;
  if (notify_end)
    self->end_time = self->end.ns < 0 ? 0 : (guint64) self->end.ns;
  GST_OBJECT_UNLOCK (self);
  if (notify_start)
    g_object_notify (G_OBJECT (self), "start-time");
  if (notify_end)
    g_object_notify (G_OBJECT (self), "end-time");
  GST_INFO_OBJECT (self, "window [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
      "] ns", self->start.kind == GST_CTF_TIME_BOUND_ABSOLUTE ?
      self->start.ns : G_MININT64, self->end.kind ==
      GST_CTF_TIME_BOUND_ABSOLUTE ? self->end.ns : G_MAXINT64);
  return TRUE;
}

/* DURATION (stream time, from upstream) ends at the window's end once it
 * is known, so that POSITION / DURATION reaches 1 when the window is
 * done; POSITION and the rest go through as GstBaseTransform does. */
static gboolean
gst_ctf_time_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCtfTimeFilter *self = GST_CTF_TIME_FILTER (trans);
  gboolean ret;
  GstFormat format;
  gint64 dur, end_ns, end_stream;

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
  if (!ret || direction != GST_PAD_SRC ||
      GST_QUERY_TYPE (query) != GST_QUERY_DURATION)
    return ret;
  gst_query_parse_duration (query, &format, &dur);
  if (format != GST_FORMAT_TIME || dur < 0)
    return ret;
  GST_OBJECT_LOCK (self);
  end_ns = self->window_end_ns;
  if (end_ns >= 0 && trans->segment.format == GST_FORMAT_TIME) {
    end_stream = end_ns - ((gint64) trans->segment.start -
        (gint64) trans->segment.time);
    if (end_stream >= 0 && end_stream < dur)
      gst_query_set_duration (query, GST_FORMAT_TIME, end_stream);
  }
  GST_OBJECT_UNLOCK (self);
  return ret;
}

/* Seeks upstream to the window's beginning when it can seek in TIME.
 * Returns TRUE when the seek was done (the current packet is then stale). */
static gboolean
seek_upstream (GstCtfTimeFilter * self)
{
  GstPad *sinkpad = GST_BASE_TRANSFORM_SINK_PAD (self);
  GstQuery *q;
  gboolean seekable = FALSE;
  GstEvent *seek;
  const GstSegment *seg = &GST_BASE_TRANSFORM (self)->segment;
  gint64 target;

  q = gst_query_new_seeking (GST_FORMAT_TIME);
  if (gst_pad_peer_query (sinkpad, q))
    gst_query_parse_seeking (q, NULL, &seekable, NULL, NULL);
  gst_query_unref (q);
  if (!seekable) {
    GST_DEBUG_OBJECT (self, "upstream cannot seek in TIME: dropping the "
        "packets before the window as they come");
    return FALSE;
  }
  /* No stop position: GstBaseSrc ends a TIME segment as soon as one
   * buffer's PTS + DURATION reaches the stop, while packets of other
   * streams that begin before it may still follow.  The end of the
   * window is ours to find. */
  /* Seek positions are stream time: the upstream segment maps them to
   * the absolute time of the buffers (ctfsrc: 0 = its first packet). */
  target = self->start.ns;
  if (seg->format == GST_FORMAT_TIME) {
    target -= (gint64) seg->start - (gint64) seg->time;
    target = MAX (target, 0);
  }
  seek = gst_event_new_seek (1.0, GST_FORMAT_TIME,
      GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, GST_SEEK_TYPE_SET,
      target, GST_SEEK_TYPE_NONE, -1);
  GST_DEBUG_OBJECT (self, "seeking upstream to %" G_GINT64_FORMAT " ns "
      "(stream time %" G_GINT64_FORMAT ")", self->start.ns, target);
  if (!gst_pad_push_event (sinkpad, seek)) {
    GST_DEBUG_OBJECT (self, "upstream refused the seek");
    return FALSE;
  }
  return TRUE;
}

static void
count (GstCtfTimeFilter * self, guint64 * counter, guint64 dropped_events)
{
  GST_OBJECT_LOCK (self);
  (*counter)++;
  self->events_dropped += dropped_events;
  GST_OBJECT_UNLOCK (self);
}

typedef enum
{
  CUT_FAILED,
  CUT_PASSED,
  CUT_DROPPED,
  CUT_REWRITTEN,
} CutResult;

/* A packet across a bound of the window (or without times in its
 * context): its events are walked, without keeping their values, and it
 * passes whole, is dropped or is written again with the kept events in
 * *@outbuf.  On failure *@what says what could not be done. */
static CutResult
cut_packet (GstCtfTimeFilter * self, GstBuffer * buf, const GstMapInfo * map,
    const GstCtfPacketInfo * info, const GstCtfClockClass * cc, guint64 base,
    gboolean have_b, gint64 b_ns, gboolean have_e, gint64 e_ns, Walk * w,
    GstBuffer ** outbuf, const gchar ** what, GError ** err)
{
  GstBuffer *out;

  if (!gst_ctf_time_filter_walk_packet (self, cc, map->data, map->size,
          info->has_timestamp_begin, base, have_e && in_window (self, e_ns) ?
          &info->timestamp_end : NULL, w, err)) {
    *what = "Cannot decode packet";
    return CUT_FAILED;
  }
  if ((w->n_kept == w->n_events && !w->after && w->n_events > 0) ||
      (w->n_events == 0 && have_b && in_window (self, b_ns))) {
    *outbuf = gst_buffer_ref (buf);
    return CUT_PASSED;
  }
  if (w->n_kept == 0)
    return CUT_DROPPED;
  out = self->reencode_all ? NULL : gst_ctf_time_filter_copy_kept (self, buf,
      cc, map->data, map->size, info, base, w, err);
  if (out == NULL && *err == NULL) {
    gboolean pass = FALSE;
    Walk w2;

    GST_DEBUG_OBJECT (self, "re-encoding every kept event");
    out = gst_ctf_time_filter_filter_packet (self, buf, cc, map->data,
        map->size, info, base, &w2, &pass, err);
    if (out == NULL && *err == NULL) {
      g_set_error (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
          "Packet decodes differently the second time");
    }
  }
  if (out == NULL) {
    *what = "Cannot write the packet again";
    return CUT_FAILED;
  }
  GST_LOG_OBJECT (self, "rewrote packet: kept %u of %u events", w->n_kept,
      w->n_events);
  *outbuf = out;
  return CUT_REWRITTEN;
}

static GstFlowReturn
process (GstCtfTimeFilter * self, GstBuffer * buf, GstBuffer ** outbuf)
{
  GstMapInfo map;
  GstCtfPacketInfo info;
  const GstCtfClockClass *cc;
  GError *err = NULL;
  gint64 b_ns = 0, e_ns = 0;
  gboolean have_b = FALSE, have_e = FALSE;
  StreamClock *sclock = NULL;
  guint64 base = 0;
  Walk w;
  GstFlowReturn ret = GST_FLOW_OK;
  const gchar *what = NULL;

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
    g_clear_error (&err);
    ret = GST_FLOW_ERROR;
    goto done;
  }
  cc = info.stream_class ? info.stream_class->default_clock : NULL;
  if (cc == NULL) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Cannot filter by time: stream class %" G_GUINT64_FORMAT " has no "
            "default clock (no clock-mapped timestamps)",
            info.stream_class_id), (NULL));
    ret = GST_FLOW_ERROR;
    goto done;
  }
  if (!info.has_timestamp_begin) {
    sclock = stream_clock (self, &info);
    base = sclock->clock;
  }

  /* The packet's time range from its context when it has one; a
   * `timestamp_end` before `timestamp_begin` (lttng-crash's 0) is not
   * trusted. */
  if (info.has_timestamp_begin)
    have_b = cycles_to_ns (cc, info.timestamp_begin, &b_ns);
  if (have_b && self->trust_end && info.has_timestamp_end &&
      info.timestamp_end >= info.timestamp_begin)
    have_e = cycles_to_ns (cc, info.timestamp_end, &e_ns);

  if (!self->resolved) {
    gint64 first = b_ns;

    if (!have_b) {
      if (!gst_ctf_time_filter_walk_packet (self, cc, map.data, map.size, FALSE, base, NULL, &w,
              &err)) {
        gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err, "Cannot decode packet");
        g_clear_error (&err);
        ret = GST_FLOW_ERROR;
        goto done;
      }
      if (w.n_events == 0) {
        /* No time yet: the window cannot be placed; keep nothing. */
        if (sclock)
          sclock->clock = w.end_clock;
        count (self, &self->packets_dropped, 0);
        goto done;
      }
      first = w.first_ns;
    }
    if (!resolve_bounds (self, first)) {
      ret = GST_FLOW_ERROR;
      goto done;
    }
    if (have_b && self->start.kind == GST_CTF_TIME_BOUND_ABSOLUTE &&
        self->start.ns > b_ns && seek_upstream (self)) {
      /* Packets come again from the window's beginning (this one too,
       * if it reaches into the window). */
      goto done;
    }
  }

  /* tracecmdsrc's side stream (ftrace formats, cmdlines, kallsyms, ...)
   * describes the trace rather than happens in it, and ctftextsink
   * format=trace-cmd needs it: passed whatever the window (after a seek
   * upstream above, tracecmdsrc sends it again at the window's start) */
  if (self->side_sc != NULL && info.stream_class == self->side_sc) {
    count (self, &self->packets_passed, 0);
    *outbuf = gst_buffer_ref (buf);
    goto done;
  }
  if (have_b && self->end.kind == GST_CTF_TIME_BOUND_ABSOLUTE &&
      b_ns > self->end.ns) {
    /* Packets come in timestamp_begin order: nothing more to keep. */
    GST_DEBUG_OBJECT (self, "packet begins after the window: EOS");
    count (self, &self->packets_dropped, 0);
    self->eos = TRUE;
    gst_pad_push_event (GST_BASE_TRANSFORM_SRC_PAD (self),
        gst_event_new_eos ());
    ret = GST_FLOW_EOS;
    goto done;
  }
  if (have_e && self->start.kind == GST_CTF_TIME_BOUND_ABSOLUTE &&
      e_ns < self->start.ns) {
    count (self, &self->packets_dropped, 0);
    goto done;
  }
  if (have_b && have_e && in_window (self, b_ns) && in_window (self, e_ns)) {
    /* Zero copy: the very same buffer. */
    count (self, &self->packets_passed, 0);
    *outbuf = gst_buffer_ref (buf);
    goto done;
  }

  /* Across a bound (or without times in its context): look at the
   * events, without keeping their values. */
  switch (cut_packet (self, buf, &map, &info, cc, base, have_b, b_ns, have_e,
          e_ns, &w, outbuf, &what, &err)) {
    case CUT_FAILED:
      gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err, what);
      g_clear_error (&err);
      ret = GST_FLOW_ERROR;
      goto done;
    case CUT_PASSED:
      count (self, &self->packets_passed, 0);
      break;
    case CUT_DROPPED:
      count (self, &self->packets_dropped, 0);
      break;
    case CUT_REWRITTEN:
      count (self, &self->packets_rewritten, w.n_events - w.n_kept);
      break;
  }
  if (sclock)
    sclock->clock = w.end_clock;
  /* Without timestamp_begin there is no packet time to end on: end at
   * the first packet whose events all come after the window. */
  if (!have_b && w.n_events > 0 && self->end.kind ==
      GST_CTF_TIME_BOUND_ABSOLUTE && w.first_ns > self->end.ns &&
      *outbuf == NULL) {
    self->eos = TRUE;
    gst_pad_push_event (GST_BASE_TRANSFORM_SRC_PAD (self),
        gst_event_new_eos ());
    ret = GST_FLOW_EOS;
  }

done:
  gst_buffer_unmap (buf, &map);
  return ret;
}

static GstFlowReturn
gst_ctf_time_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCtfTimeFilter *self = GST_CTF_TIME_FILTER (trans);
  GstBuffer *buf = trans->queued_buf;
  GstFlowReturn ret;

  *outbuf = NULL;
  if (buf == NULL)
    return GST_FLOW_OK;
  trans->queued_buf = NULL;

  if (self->eos) {
    gst_buffer_unref (buf);
    return GST_FLOW_EOS;
  }
  /* An open window: everything passes. */
  if (self->start.kind == GST_CTF_TIME_BOUND_OPEN &&
      self->end.kind == GST_CTF_TIME_BOUND_OPEN) {
    count (self, &self->packets_passed, 0);
    *outbuf = buf;
    return GST_FLOW_OK;
  }
  ret = process (self, buf, outbuf);
  gst_buffer_unref (buf);
  return ret;
}

/* ------------------------------------------------------------------ */
/* A timefilter as a packet cutter, without pads (ctfsrc
 * stream-intersection=true): the same decisions and re-encoding as the
 * element, errors returned instead of posted. */

GstCtfTimeFilter *
gst_ctf_time_filter_new_cutter (GstCaps * caps, gint64 start_ns,
    gint64 end_ns)
{
  GstCtfTimeFilter *self = g_object_new (GST_TYPE_CTF_TIME_FILTER, NULL);

  gst_object_ref_sink (self);
  self->start.kind = GST_CTF_TIME_BOUND_ABSOLUTE;
  self->start.ns = start_ns;
  self->end.kind = GST_CTF_TIME_BOUND_ABSOLUTE;
  self->end.ns = end_ns;
  self->resolved = TRUE;
  self->reencode_all = g_getenv ("GST_CTF_TIMEFILTER_REENCODE") != NULL;
  if (!gst_ctf_time_filter_set_caps (GST_BASE_TRANSFORM (self), caps, caps)) {
    gst_object_unref (self);
    return NULL;
  }
  return self;
}

GstFlowReturn
gst_ctf_time_filter_cut (GstCtfTimeFilter * self, GstBuffer * buf,
    GstBuffer ** outbuf, GError ** error)
{
  GstMapInfo map;
  GstCtfPacketInfo info;
  const GstCtfClockClass *cc;
  gint64 b_ns = 0, e_ns = 0;
  gboolean have_b = FALSE, have_e = FALSE;
  const gchar *what = NULL;
  GError *err = NULL;
  Walk w;
  GstFlowReturn ret = GST_FLOW_OK;

  *outbuf = NULL;
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot map buffer");
    return GST_FLOW_ERROR;
  }
  if (!gst_ctf_packet_read_info (self->tc, map.data, map.size, &info,
          error)) {
    ret = GST_FLOW_ERROR;
    goto done;
  }
  cc = info.stream_class ? info.stream_class->default_clock : NULL;
  if (info.has_timestamp_begin && cc)
    have_b = cycles_to_ns (cc, info.timestamp_begin, &b_ns);
  if (have_b && self->trust_end && info.has_timestamp_end &&
      info.timestamp_end >= info.timestamp_begin)
    have_e = cycles_to_ns (cc, info.timestamp_end, &e_ns);
  /* (no time to cut by: kept whole) */
  if (cc == NULL || !have_b ||
      (self->side_sc != NULL && info.stream_class == self->side_sc)) {
    *outbuf = gst_buffer_ref (buf);
    goto done;
  }
  if (b_ns > self->end.ns || (have_e && e_ns < self->start.ns))
    goto done;
  if (have_e && in_window (self, b_ns) && in_window (self, e_ns)) {
    *outbuf = gst_buffer_ref (buf);
    goto done;
  }
  if (cut_packet (self, buf, &map, &info, cc, 0, have_b, b_ns, have_e, e_ns,
          &w, outbuf, &what, &err) == CUT_FAILED) {
    g_propagate_prefixed_error (error, err, "%s: ", what);
    ret = GST_FLOW_ERROR;
  }
done:
  gst_buffer_unmap (buf, &map);
  return ret;
}
