/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-lttng0src
 * @title: lttng0src
 * @short_description: reads an LTTng 0.x trace as a stream of CTF packets
 *
 * Reads an LTTng 0.x trace directory (the LTT trace format 2.3 to 2.6 of
 * LTTng 0.x and LTTV, 2008-2011; both byte orders, 32- and 64-bit
 * traced systems) and pushes it as CTF 1.8: each sub-buffer of each
 * tracefile becomes one CTF packet of that tracefile's stream, and the
 * packets of all tracefiles come out in `timestamp_begin` order.
 *
 * Mapping: one stream class per channel (`metadata` first), one stream
 * per tracefile (`kernel_0`: the file name is the stream name, so
 * `ctfsink` writes files of the same names), the CPU in the packet
 * context (`cpu_id`); one event class per marker, named `channel.marker`
 * as LTTV names it (`kernel.syscall_entry`), with the fields of the
 * marker's format string (`ip`, `syscall_id`).  The metadata channel's
 * `core_marker_id` and `core_marker_format` events are kept, so the
 * marker descriptions are in the output.  The clock counts the trace's
 * cycles at start_freq / freq_scale Hz; its origin is the Unix epoch
 * (the trace's start_time).
 *
 * Events the tracer lost (the sub-buffer headers' events_lost count) go
 * into the packet context's `events_discarded` and are posted as element
 * warnings; so are corrupt sub-buffers (`subbuf_corrupt`).  Formats
 * before 2.3 and after 2.6 are refused with an error naming the version
 * found.  Corrupt data is left out with a warning naming the file and
 * byte offset (the totals are in #GstLttng0Src:stats).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -q lttng0src location=trace-dir/ ! ctftextsink
 * gst-launch-1.0 lttng0src location=trace-dir/ ! ctfsink location=out/
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstlttng0src.h"
#include "gstctf-source-clock.h"

#include "gstlttng0.h"
#include "gstlttng0-packetizer.h"
#include "gstctf-caps.h"
#include "gstctf-output-version.h"
#include "gstctf-element-util.h"
#include "gstctf-error.h"
#include "gstctf-packet-meta.h"

GST_DEBUG_CATEGORY_STATIC (gst_lttng0_src_debug);
#define GST_CAT_DEFAULT gst_lttng0_src_debug

/* Problems posted as warnings one by one; past this many, only the
 * stats count them. */
#define MAX_PROBLEM_WARNINGS 20

enum
{
  PROP_0,
  PROP_LOCATION,
  PROP_STATS,
  PROP_CTF_VERSION,
  PROP_CLOCK_FIRST,             /* the GST_CTF_SOURCE_CLOCK_N_PROPS next */
};

struct _GstLttng0Src
{
  GstBaseSrc parent;

  /* properties, protected by the object lock */
  gchar *location;
  GstCtfOutputVersion ctf_version;
  GstCtfSourceClock clock_props;

  /* set in start(), freed in stop() */
  gint64 shift_ns;              /* what the clock options add to times */
  GstCtfLttng0Trace *trace;
  GstCtfLttng0Packetizer *pk;
  GstCaps *caps;
  guint problems_posted;

  /* statistics, protected by the object lock */
  guint64 packets;
  guint64 bytes;
  guint64 events;
  guint64 discarded_events;
  guint64 corrupt_subbuffers;
  guint64 skipped_events;
  guint64 clamped_timestamps;
};

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

#define gst_lttng0_src_parent_class parent_class
G_DEFINE_TYPE (GstLttng0Src, gst_lttng0_src, GST_TYPE_BASE_SRC);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (lttng0src, "lttng0src",
    GST_RANK_NONE, GST_TYPE_LTTNG0_SRC,
    GST_DEBUG_CATEGORY_INIT (gst_lttng0_src_debug, "lttng0src", 0,
        "LTTng 0.x trace source"));

static void gst_lttng0_src_finalize (GObject * object);
static void gst_lttng0_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_lttng0_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_lttng0_src_start (GstBaseSrc * bsrc);
static gboolean gst_lttng0_src_stop (GstBaseSrc * bsrc);
static GstCaps *gst_lttng0_src_get_caps (GstBaseSrc * bsrc,
    GstCaps * filter);
static gboolean gst_lttng0_src_is_seekable (GstBaseSrc * bsrc);
static GstFlowReturn gst_lttng0_src_create (GstBaseSrc * bsrc,
    guint64 offset, guint size, GstBuffer ** buf);

static void
gst_lttng0_src_class_init (GstLttng0SrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);

  gobject_class->finalize = gst_lttng0_src_finalize;
  gobject_class->set_property = gst_lttng0_src_set_property;
  gobject_class->get_property = gst_lttng0_src_get_property;

  /**
   * GstLttng0Src:location:
   *
   * The LTTng 0.x trace directory (the one holding `metadata_0`).
   */
  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "LTTng 0.x trace directory, the one holding metadata_0 and the "
          "<channel>_<cpu> tracefiles (default: none, must be set)",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstLttng0Src:stats:
   *
   * `application/x-lttng0-src-stats` with `packets`, `bytes`, `events`
   * (pushed), `discarded-events` (lost by the tracer),
   * `corrupt-subbuffers` (counted corrupt by the tracer),
   * `skipped-events` (left out because they could not be read) and
   * `clamped-timestamps` (events whose time went back in their
   * tracefile, given the previous time), all guint64.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Packets, bytes and events pushed, events the tracer lost, "
          "corrupt sub-buffers, events left out (guint64 counts)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstLttng0Src:ctf-version:
   *
   * The CTF version of the metadata in the caps: `1.8` (TSDL, the
   * default; `auto` is the same) or `2` (CTF 2 JSON, converted from it:
   * the packets are the same bytes).
   */
  /* clock-offset, clock-offset-ns, force-clock-class-origin-unix-epoch,
   * trace-name (gstctf-source-clock.h) */
  gst_ctf_source_clock_install (gobject_class, PROP_CLOCK_FIRST);

  g_object_class_install_property (gobject_class, PROP_CTF_VERSION,
      g_param_spec_enum ("ctf-version", "CTF version",
          "CTF version of the metadata produced: 1.8 (TSDL; auto is the "
          "same) or 2 (JSON); the packets are the same bytes",
          GST_CTF_TYPE_OUTPUT_VERSION, GST_CTF_OUTPUT_VERSION_1_8,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "LTTng 0.x trace source", "Source/File",
      "Reads an LTTng 0.x trace (LTT format 2.3 to 2.6, as LTTV reads) and "
      "pushes it as CTF 1.8 (or, ctf-version=2, CTF 2) packets, one per "
      "sub-buffer, in time order",
      "gst-ctf");

  basesrc_class->start = GST_DEBUG_FUNCPTR (gst_lttng0_src_start);
  basesrc_class->stop = GST_DEBUG_FUNCPTR (gst_lttng0_src_stop);
  basesrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_lttng0_src_get_caps);
  basesrc_class->is_seekable = GST_DEBUG_FUNCPTR (gst_lttng0_src_is_seekable);
  basesrc_class->create = GST_DEBUG_FUNCPTR (gst_lttng0_src_create);
}

static void
gst_lttng0_src_init (GstLttng0Src * self)
{
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
  self->ctf_version = GST_CTF_OUTPUT_VERSION_1_8;
}

static void
gst_lttng0_src_finalize (GObject * object)
{
  GstLttng0Src *self = GST_LTTNG0_SRC (object);

  g_free (self->location);
  gst_ctf_source_clock_clear (&self->clock_props);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_lttng0_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstLttng0Src *self = GST_LTTNG0_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    case PROP_CTF_VERSION:
      self->ctf_version = g_value_get_enum (value);
      break;
    default:
      if (prop_id >= PROP_CLOCK_FIRST &&
          gst_ctf_source_clock_set_property (&self->clock_props,
              prop_id - PROP_CLOCK_FIRST, value))
        break;
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_lttng0_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstLttng0Src *self = GST_LTTNG0_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_CTF_VERSION:
      g_value_set_enum (value, self->ctf_version);
      break;
    case PROP_STATS:
      g_value_take_boxed (value,
          gst_structure_new ("application/x-lttng0-src-stats",
              "packets", G_TYPE_UINT64, self->packets,
              "bytes", G_TYPE_UINT64, self->bytes,
              "events", G_TYPE_UINT64, self->events,
              "discarded-events", G_TYPE_UINT64, self->discarded_events,
              "corrupt-subbuffers", G_TYPE_UINT64, self->corrupt_subbuffers,
              "skipped-events", G_TYPE_UINT64, self->skipped_events,
              "clamped-timestamps", G_TYPE_UINT64, self->clamped_timestamps,
              NULL));
      break;
    default:
      if (prop_id >= PROP_CLOCK_FIRST &&
          gst_ctf_source_clock_get_property (&self->clock_props,
              prop_id - PROP_CLOCK_FIRST, value))
        break;
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_lttng0_src_start (GstBaseSrc * bsrc)
{
  GstLttng0Src *self = GST_LTTNG0_SRC (bsrc);
  const gchar *const *warnings;
  GstCtfTraceClass *tc;
  GError *err = NULL;
  gchar *location, *conv;
  guint major, minor;

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  self->packets = self->bytes = self->events = 0;
  self->discarded_events = self->corrupt_subbuffers = 0;
  self->skipped_events = self->clamped_timestamps = 0;
  GST_OBJECT_UNLOCK (self);
  self->problems_posted = 0;

  if (location == NULL || *location == '\0') {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No LTTng 0.x trace directory given (set the `location` "
            "property)."), (NULL));
    g_free (location);
    return FALSE;
  }
  self->trace = gst_ctf_lttng0_trace_open (location, &err);
  if (!self->trace) {
    gst_ctf_element_post_gerror (GST_ELEMENT (self), err, "Cannot read LTTng 0.x trace");
    g_error_free (err);
    g_free (location);
    return FALSE;
  }
  for (warnings = gst_ctf_lttng0_trace_get_warnings (self->trace);
      *warnings; warnings++)
    GST_ELEMENT_WARNING (self, STREAM, DECODE, ("%s", *warnings), (NULL));
  self->pk = gst_ctf_lttng0_packetizer_new (self->trace, &err);
  if (!self->pk) {
    gst_ctf_element_post_gerror (GST_ELEMENT (self), err, "Cannot convert LTTng 0.x trace");
    g_error_free (err);
    g_free (location);
    g_clear_pointer (&self->trace, gst_ctf_lttng0_trace_unref);
    return FALSE;
  }
  tc = gst_ctf_lttng0_packetizer_get_trace_class (self->pk);
  GST_OBJECT_LOCK (self);
  conv = gst_ctf_output_version_convert
      (gst_ctf_lttng0_packetizer_get_metadata (self->pk),
      self->ctf_version == GST_CTF_OUTPUT_VERSION_2 ?
      GST_CTF_OUTPUT_VERSION_2 : GST_CTF_OUTPUT_VERSION_AUTO, FALSE, &err);
  if (conv != NULL)
    self->caps = gst_ctf_caps_new (conv, tc->has_uuid ? tc->uuid : NULL);
  GST_OBJECT_UNLOCK (self);
  if (conv == NULL) {
    gst_ctf_element_post_gerror (GST_ELEMENT (self), err,
        "Cannot write the metadata as CTF 2");
    g_error_free (err);
    g_free (location);
    g_clear_pointer (&self->pk, gst_ctf_lttng0_packetizer_free);
    g_clear_pointer (&self->trace, gst_ctf_lttng0_trace_unref);
    return FALSE;
  }
  g_free (conv);
  {
    /* clock-offset, clock-offset-ns, force-clock-class-origin-unix-epoch,
     * trace-name: the caps' trace class and the buffers' PTS */
    GstCtfSourceClock clock = { 0, };
    gboolean ok;

    GST_OBJECT_LOCK (self);
    gst_ctf_source_clock_copy (&clock, &self->clock_props);
    GST_OBJECT_UNLOCK (self);
    self->shift_ns = gst_ctf_source_clock_shift_ns (&clock);
    ok = gst_ctf_source_clock_apply (&clock, &self->caps,
        gst_ctf_source_clock_hostname (tc), location, &err);
    gst_ctf_source_clock_clear (&clock);
    if (!ok) {
      gst_ctf_element_post_gerror (GST_ELEMENT (self), err,
          "Cannot move the trace's clock");
      g_error_free (err);
      g_free (location);
      gst_clear_caps (&self->caps);
      g_clear_pointer (&self->pk, gst_ctf_lttng0_packetizer_free);
      g_clear_pointer (&self->trace, gst_ctf_lttng0_trace_unref);
      return FALSE;
    }
  }
  gst_ctf_lttng0_trace_get_version (self->trace, &major, &minor);
  GST_INFO_OBJECT (self, "%s: LTT format %u.%u, %u tracefiles", location,
      major, minor, gst_ctf_lttng0_trace_get_n_tracefiles (self->trace));
  g_free (location);
  return TRUE;
}

static gboolean
gst_lttng0_src_stop (GstBaseSrc * bsrc)
{
  GstLttng0Src *self = GST_LTTNG0_SRC (bsrc);

  g_clear_pointer (&self->pk, gst_ctf_lttng0_packetizer_free);
  g_clear_pointer (&self->trace, gst_ctf_lttng0_trace_unref);
  GST_OBJECT_LOCK (self);
  gst_clear_caps (&self->caps);
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static GstCaps *
gst_lttng0_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  GstLttng0Src *self = GST_LTTNG0_SRC (bsrc);

  return gst_ctf_element_src_get_caps (bsrc, &self->caps, filter);
}

static gboolean
gst_lttng0_src_is_seekable (GstBaseSrc * bsrc)
{
  return FALSE;
}

static void
post_packet_warnings (GstLttng0Src * self,
    const GstCtfLttng0PacketInfo * info)
{
  if (info->discarded_delta > 0)
    GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, FAILED,
        ("The tracer lost %" G_GUINT64_FORMAT " events before sub-buffer %"
            G_GUINT64_FORMAT " of %s", info->discarded_delta,
            info->subbuf_index, info->stream_name), (NULL),
        ("discarded-events", G_TYPE_UINT64, info->discarded_delta,
            "tracefile", G_TYPE_STRING, info->stream_name,
            "cpu", G_TYPE_UINT, info->cpu,
            "subbuffer", G_TYPE_UINT64, info->subbuf_index, NULL));
  if (info->corrupt_delta > 0)
    GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, FAILED,
        ("The tracer counted %" G_GUINT64_FORMAT " corrupt sub-buffers "
            "before sub-buffer %" G_GUINT64_FORMAT " of %s",
            info->corrupt_delta, info->subbuf_index, info->stream_name),
        (NULL), ("corrupt-subbuffers", G_TYPE_UINT64, info->corrupt_delta,
            "tracefile", G_TYPE_STRING, info->stream_name,
            "subbuffer", G_TYPE_UINT64, info->subbuf_index, NULL));
  if (info->problem && self->problems_posted < MAX_PROBLEM_WARNINGS) {
    self->problems_posted++;
    GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, DECODE,
        ("%s%s", info->problem,
            self->problems_posted == MAX_PROBLEM_WARNINGS ?
            " (further problems are only counted in the `stats` property)" :
            ""), (NULL), ("skipped-events", G_TYPE_UINT, info->skipped,
            "tracefile", G_TYPE_STRING, info->stream_name,
            "subbuffer", G_TYPE_UINT64, info->subbuf_index, NULL));
  }
}

static GstFlowReturn
gst_lttng0_src_create (GstBaseSrc * bsrc, guint64 offset, guint size,
    GstBuffer ** out)
{
  GstLttng0Src *self = GST_LTTNG0_SRC (bsrc);
  GstCtfLttng0PacketInfo info;
  const guint8 *data;
  gsize len;
  GError *err = NULL;
  GstBuffer *buf;
  GstCtfPacketMeta *meta;
  gint r;

  if (!self->pk)
    return GST_FLOW_FLUSHING;
  r = gst_ctf_lttng0_packetizer_next (self->pk, &data, &len, &info, &err);
  if (r < 0) {
    gst_ctf_element_post_gerror (GST_ELEMENT (self), err, "Cannot convert LTTng 0.x trace");
    g_error_free (err);
    return GST_FLOW_ERROR;
  }
  if (r == 0) {
    GST_DEBUG_OBJECT (self, "all sub-buffers done");
    return GST_FLOW_EOS;
  }

  buf = gst_buffer_new_memdup (data, len);
  if (info.begin_ns >= 0) {
    GST_BUFFER_PTS (buf) = info.begin_ns + self->shift_ns >= 0 ?
        (GstClockTime) (info.begin_ns + self->shift_ns) : 0;
    GST_BUFFER_DURATION (buf) = info.end_ns - info.begin_ns;
  }
  GST_BUFFER_OFFSET (buf) = info.subbuf_index;
  GST_BUFFER_OFFSET_END (buf) = info.subbuf_index + 1;
  meta = gst_buffer_add_ctf_packet_meta (buf);
  meta->stream_class_id = info.stream_class_id;
  meta->stream_instance_id = info.stream_instance_id;
  meta->stream_name = g_intern_string (info.stream_name);
  meta->stream_index = info.stream_index;
  meta->stream_id = info.stream_instance_id;
  meta->events_discarded_delta = info.discarded_delta;

  post_packet_warnings (self, &info);

  GST_OBJECT_LOCK (self);
  self->packets++;
  self->bytes += len;
  self->events += info.n_events;
  self->discarded_events += info.discarded_delta;
  self->corrupt_subbuffers += info.corrupt_delta;
  self->skipped_events += info.skipped;
  self->clamped_timestamps += info.clamped;
  GST_OBJECT_UNLOCK (self);

  GST_LOG_OBJECT (self, "packet %s #%" G_GUINT64_FORMAT ": %u events, %"
      G_GSIZE_FORMAT " bytes, pts %" GST_TIME_FORMAT, info.stream_name,
      info.subbuf_index, info.n_events, len,
      GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
  *out = buf;
  return GST_FLOW_OK;
}
