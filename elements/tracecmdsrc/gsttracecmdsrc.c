/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-tracecmdsrc
 * @title: tracecmdsrc
 * @short_description: reads a trace-cmd trace.dat file as a stream of CTF
 *   packets
 *
 * Reads a trace-cmd `trace.dat` file (version 6, or version 7 uncompressed,
 * zlib or zstd; every flyrecord buffer/instance) and pushes it as CTF 1.8:
 * each ring-buffer page becomes one CTF packet of its CPU's stream (the
 * CPU in the packet context `cpu_id` and as stream instance id), with
 * 64-bit timestamps; packets of all CPUs come out in `timestamp_begin`
 * order.  Event classes are the ftrace events (`sched_switch`), fields
 * keep the format files' names (`prev_comm`, `common_pid`).
 *
 * The caps are `application/x-ctf` with the TSDL metadata (CTF 2 JSON
 * metadata with #GstTraceCmdSrc:ctf-version=2) and the trace
 * UUID (derived from the recording's content: v6 and v7 copies of one
 * recording give the same bytes).  Buffer PTS is the packet's
 * `timestamp_begin` in ns since the clock origin (the Unix epoch when the
 * file has a DATE option), DURATION its length.  Positions, DURATION and
 * TIME seeks are stream time, 0 at the trace's first packet, as ctfsrc's
 * (the segment starts at the first packet with `time` 0): DURATION is the
 * trace's last event (the last non-empty page of each CPU is read at
 * start) minus its first packet, and a seek goes on from each CPU's last
 * page starting at or before the new start (binary search over the
 * pages), so `tracecmdsrc ! timefilter` reads the window, not the file.
 * After a seek the `tracecmd` side stream comes again first.
 *
 * Time: the clock class is named after the trace clock (`local`,
 * `x86_tsc`, ...), counts ns (TSC2NSEC applied when the file has it) and
 * carries the file's DATE/OFFSET as its offset, plus #GstTraceCmdSrc:clock-offset.
 *
 * Nothing the file holds is dropped: small items go to the TSDL `env`
 * (`uname`, `tracer_version`, `trace_clock`, `trace_clocks`, `trace_id`,
 * `date`, `offset`, `tsc2nsec_*`, `cpus`, `page_size`, `buffer_N`, ...);
 * large ones to a side stream `tracecmd` (stream class after the buffers',
 * packets from the trace's first time stamp, the last one ending with the
 * trace) of synthetic events:
 * `tracecmd_header` (header_page/header_event text), `tracecmd_option`
 * (every option but the file-layout ones, raw bytes), `tracecmd_event_format`
 * (id, system, name, print fmt), `tracecmd_cmdline` (pid, comm),
 * `tracecmd_kallsym` (address, type, name, module) and `tracecmd_printk`
 * (address, format).  With them a reader can rebuild every column of
 * `trace-cmd report` (the comm of a pid, symbols, print fmt output).
 * #GstTraceCmdSrc:file-stream turns the side stream off.
 *
 * Events the kernel lost (missed-events flags of a page header) go into
 * the packet context's `events_discarded` (a running count per CPU; a loss
 * whose count the kernel did not store counts as 1) and are posted as
 * element warnings.  Records whose event id has no format are left out
 * (counted in #GstTraceCmdSrc:stats, warned about once).
 *
 * With #GstTraceCmdSrc:lttng-compat, the output is what lttng-modules
 * 2.13 records for the same events (`syscall_entry_openat`,
 * `irq_softirq_entry`, `prev_tid`, priorities `prio - 100`, block `rwbs`
 * bit masks, `lttng_statedump_*` at the start, env `tracer_name =
 * "lttng-modules"`, `domain = "kernel"`, stream files `channel0_N`), so
 * Trace Compass opens it as an LTTng kernel trace.
 *
 * Latency-mode files (text only, no pages) are refused with an error; a
 * latency buffer beside flyrecord ones is left out with a warning.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 tracecmdsrc location=trace.dat ! ctfsink location=out/
 * gst-launch-1.0 tracecmdsrc location=trace.dat ! ctftextsink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttracecmdsrc.h"
#include "gstctf-source-clock.h"
#include "gstctf-stream-time.h"

#include "gsttracecmd.h"
#include "gsttracecmd-packetizer.h"
#include "gstctf-caps.h"
#include "gstctf-element-util.h"
#include "gstctf-output-version.h"
#include "gstctf-error.h"
#include "gstctf-packet-meta.h"

GST_DEBUG_CATEGORY_STATIC (gst_trace_cmd_src_debug);
#define GST_CAT_DEFAULT gst_trace_cmd_src_debug

#define DEFAULT_LTTNG_COMPAT FALSE
#define DEFAULT_FILE_STREAM TRUE
#define DEFAULT_STRICT FALSE

enum
{
  PROP_0,
  PROP_LOCATION,
  PROP_LTTNG_COMPAT,
  PROP_FILE_STREAM,
  PROP_STRICT,
  PROP_STATS,
  PROP_CTF_VERSION,
  PROP_CLOCK_FIRST,             /* the GST_CTF_SOURCE_CLOCK_N_PROPS next */
};

struct _GstTraceCmdSrc
{
  GstBaseSrc parent;

  /* properties, protected by the object lock */
  gchar *location;
  GstCtfSourceClock clock;
  gboolean lttng_compat;
  gboolean file_stream;
  gboolean strict;
  GstCtfOutputVersion ctf_version;

  /* set in start(), freed in stop() */
  GstCtfTraceDat *td;
  GstCtfTraceDatPacketizer *pk;
  GstCaps *caps;
  gboolean warned_skipped;
  /* the trace's range (-1: unknown) and the last seek */
  GstCtfStreamTime time;
  gboolean pushed;              /* a packet since start() or a seek */

  /* statistics, protected by the object lock */
  guint64 packets;
  guint64 bytes;
  guint64 events;
  guint64 discarded_events;
  guint64 skipped_records;
  guint64 clamped_timestamps;
  guint64 skipped_pages;
};

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

#define gst_trace_cmd_src_parent_class parent_class
G_DEFINE_TYPE (GstTraceCmdSrc, gst_trace_cmd_src, GST_TYPE_BASE_SRC);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (tracecmdsrc, "tracecmdsrc",
    GST_RANK_NONE, GST_TYPE_TRACE_CMD_SRC,
    GST_DEBUG_CATEGORY_INIT (gst_trace_cmd_src_debug, "tracecmdsrc", 0,
        "trace-cmd trace.dat source"));

static void gst_trace_cmd_src_finalize (GObject * object);
static void gst_trace_cmd_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_trace_cmd_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_trace_cmd_src_start (GstBaseSrc * bsrc);
static gboolean gst_trace_cmd_src_stop (GstBaseSrc * bsrc);
static GstCaps *gst_trace_cmd_src_get_caps (GstBaseSrc * bsrc,
    GstCaps * filter);
static gboolean gst_trace_cmd_src_is_seekable (GstBaseSrc * bsrc);
static gboolean gst_trace_cmd_src_do_seek (GstBaseSrc * bsrc,
    GstSegment * segment);
static gboolean gst_trace_cmd_src_query (GstBaseSrc * bsrc, GstQuery * query);
static GstFlowReturn gst_trace_cmd_src_create (GstBaseSrc * bsrc,
    guint64 offset, guint size, GstBuffer ** buf);

static void
gst_trace_cmd_src_class_init (GstTraceCmdSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);

  gobject_class->finalize = gst_trace_cmd_src_finalize;
  gobject_class->set_property = gst_trace_cmd_src_set_property;
  gobject_class->get_property = gst_trace_cmd_src_get_property;

  /**
   * GstTraceCmdSrc:location:
   *
   * The trace.dat file to read.
   */
  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "trace-cmd trace.dat file (v6 or v7) (default: none, must be set)",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /* clock-offset (s), clock-offset-ns, force-clock-class-origin-unix-epoch,
   * trace-name (gstctf-source-clock.h): the offsets are added to the
   * clock class offset on top of what the file's DATE/OFFSET options say
   * (e.g. to align a trace with another host's) */
  gst_ctf_source_clock_install (gobject_class, PROP_CLOCK_FIRST);

  /**
   * GstTraceCmdSrc:lttng-compat:
   *
   * Write what lttng-modules 2.13 records for the same events: its event
   * names, field sets, types and values (priorities `prio - 100`, block
   * `rwbs` bit masks, fork thread group ids, ...), a statedump of the
   * saved cmdlines' tasks at the start, its env, and stream files named
   * `channelK_CPU` (`ctfsink location=OUT/kernel` then lays the output out
   * as an LTTng session), so that LTTng kernel analyses (Trace Compass)
   * take it.  docs/tracecmdsrc.md gives the mapping and the fallbacks.
   */
  g_object_class_install_property (gobject_class, PROP_LTTNG_COMPAT,
      g_param_spec_boolean ("lttng-compat", "LTTng kernel trace",
          "Write events (syscall_entry_*, irq_softirq_entry, ...), fields "
          "(prev_tid, rwbs bit masks, prio - 100, ...), a statedump, env "
          "(tracer_name=lttng-modules, domain=kernel) and stream files "
          "(channel0_N) as lttng-modules 2.13 does", DEFAULT_LTTNG_COMPAT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstTraceCmdSrc:file-stream:
   *
   * Also write the side stream `tracecmd` of synthetic events that carry
   * the saved cmdlines, kallsyms, printk formats, options, event print
   * formats and the ring-buffer header descriptions.
   */
  g_object_class_install_property (gobject_class, PROP_FILE_STREAM,
      g_param_spec_boolean ("file-stream", "File stream",
          "Write the side stream of tracecmd_* events (cmdlines, kallsyms, "
          "printk formats, options, event print formats)",
          DEFAULT_FILE_STREAM, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstTraceCmdSrc:strict:
   *
   * A corrupt ring-buffer page (a commit past the page, an event past the
   * commit, a record whose fields go past it) ends the stream with an
   * error.  By default such a page is skipped with a warning naming the
   * CPU, the page and its byte offset in the file, counted in `stats`
   * (`skipped-pages`) and as one discarded event of its stream, and the
   * other pages convert, as `trace-cmd report` goes on after it.
   */
  g_object_class_install_property (gobject_class, PROP_STRICT,
      g_param_spec_boolean ("strict", "Strict",
          "Stop with an error at a corrupt ring-buffer page instead of "
          "skipping it with a warning", DEFAULT_STRICT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstTraceCmdSrc:stats:
   *
   * `application/x-tracecmd-src-stats` with `packets`, `bytes`, `events`
   * (pushed), `discarded-events` (lost by the kernel, and one per
   * skipped page), `skipped-pages` (corrupt ring-buffer pages skipped),
   * `skipped-records` (records of unknown event ids) and
   * `clamped-timestamps` (events whose time went back on their CPU, given
   * the previous time), all guint64.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Packets, bytes and events pushed, events the kernel lost, "
          "records left out (guint64 counts)", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstTraceCmdSrc:ctf-version:
   *
   * The CTF version of the metadata in the caps: `1.8` (TSDL, the
   * default; `auto` is the same) or `2` (CTF 2 JSON, converted from it:
   * the packets are the same bytes).
   */
  g_object_class_install_property (gobject_class, PROP_CTF_VERSION,
      g_param_spec_enum ("ctf-version", "CTF version",
          "CTF version of the metadata produced: 1.8 (TSDL; auto is the "
          "same) or 2 (JSON); the packets are the same bytes",
          GST_CTF_TYPE_OUTPUT_VERSION, GST_CTF_OUTPUT_VERSION_1_8,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "trace-cmd trace.dat source", "Source/File",
      "Reads a trace-cmd trace.dat file (v6/v7) and pushes it as CTF 1.8 "
      "(or, ctf-version=2, CTF 2) "
      "packets, one per ring-buffer page, in time order", GST_CTF_ELEMENT_AUTHOR);

  basesrc_class->start = GST_DEBUG_FUNCPTR (gst_trace_cmd_src_start);
  basesrc_class->stop = GST_DEBUG_FUNCPTR (gst_trace_cmd_src_stop);
  basesrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_trace_cmd_src_get_caps);
  basesrc_class->is_seekable =
      GST_DEBUG_FUNCPTR (gst_trace_cmd_src_is_seekable);
  basesrc_class->create = GST_DEBUG_FUNCPTR (gst_trace_cmd_src_create);
  basesrc_class->do_seek = GST_DEBUG_FUNCPTR (gst_trace_cmd_src_do_seek);
  basesrc_class->query = GST_DEBUG_FUNCPTR (gst_trace_cmd_src_query);
}

static void
gst_trace_cmd_src_init (GstTraceCmdSrc * self)
{
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
  self->lttng_compat = DEFAULT_LTTNG_COMPAT;
  self->file_stream = DEFAULT_FILE_STREAM;
  self->ctf_version = GST_CTF_OUTPUT_VERSION_1_8;
}

static void
gst_trace_cmd_src_finalize (GObject * object)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (object);

  g_free (self->location);
  gst_ctf_source_clock_clear (&self->clock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_trace_cmd_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    case PROP_LTTNG_COMPAT:
      self->lttng_compat = g_value_get_boolean (value);
      break;
    case PROP_FILE_STREAM:
      self->file_stream = g_value_get_boolean (value);
      break;
    case PROP_STRICT:
      self->strict = g_value_get_boolean (value);
      break;
    case PROP_CTF_VERSION:
      self->ctf_version = g_value_get_enum (value);
      break;
    default:
      if (prop_id >= PROP_CLOCK_FIRST &&
          gst_ctf_source_clock_set_property (&self->clock,
              prop_id - PROP_CLOCK_FIRST, value))
        break;
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_trace_cmd_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_LTTNG_COMPAT:
      g_value_set_boolean (value, self->lttng_compat);
      break;
    case PROP_FILE_STREAM:
      g_value_set_boolean (value, self->file_stream);
      break;
    case PROP_STRICT:
      g_value_set_boolean (value, self->strict);
      break;
    case PROP_CTF_VERSION:
      g_value_set_enum (value, self->ctf_version);
      break;
    case PROP_STATS:
      g_value_take_boxed (value,
          gst_structure_new ("application/x-tracecmd-src-stats",
              "packets", G_TYPE_UINT64, self->packets,
              "bytes", G_TYPE_UINT64, self->bytes,
              "events", G_TYPE_UINT64, self->events,
              "discarded-events", G_TYPE_UINT64, self->discarded_events,
              "skipped-records", G_TYPE_UINT64, self->skipped_records,
              "clamped-timestamps", G_TYPE_UINT64, self->clamped_timestamps,
              "skipped-pages", G_TYPE_UINT64, self->skipped_pages, NULL));
      break;
    default:
      if (prop_id >= PROP_CLOCK_FIRST &&
          gst_ctf_source_clock_get_property (&self->clock,
              prop_id - PROP_CLOCK_FIRST, value))
        break;
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_trace_cmd_src_start (GstBaseSrc * bsrc)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (bsrc);
  GError *err = NULL;
  gchar *location;
  guint flags = 0;
  gint64 offset;
  GstCtfTraceClass *tc;
  GstCtfSourceClock clock = { 0, };

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  /* the offsets go to the trace class the packetizer builds (its clock is
   * 1 GHz: exact), so the buffers' times include them */
  offset = gst_ctf_source_clock_shift_ns (&self->clock);
  if (self->lttng_compat)
    flags |= GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT;
  if (!self->file_stream)
    flags |= GST_CTF_TRACE_DAT_PACKETIZER_NO_FILE_STREAM;
  if (self->strict)
    flags |= GST_CTF_TRACE_DAT_PACKETIZER_STRICT;
  self->packets = self->bytes = self->events = 0;
  self->discarded_events = self->skipped_records = 0;
  self->clamped_timestamps = self->skipped_pages = 0;
  GST_OBJECT_UNLOCK (self);
  self->warned_skipped = FALSE;
  gst_ctf_stream_time_init (&self->time, -1, -1);
  self->pushed = FALSE;

  if (location == NULL || *location == '\0') {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No trace.dat file given (set the `location` property)."), (NULL));
    g_free (location);
    return FALSE;
  }
  self->td = gst_ctf_trace_dat_open (location, &err);
  if (!self->td) {
    gst_ctf_element_post_gerror (GST_ELEMENT (self), err, "Cannot read trace.dat file");
    g_error_free (err);
    g_free (location);
    return FALSE;
  }
  self->pk = gst_ctf_trace_dat_packetizer_new (self->td, flags, offset, &err);
  if (!self->pk) {
    gst_ctf_element_post_gerror (GST_ELEMENT (self), err, "Cannot convert trace.dat file");
    g_error_free (err);
    g_free (location);
    g_clear_pointer (&self->td, gst_ctf_trace_dat_unref);
    return FALSE;
  }
  {
    guint b;

    for (b = 0; b < gst_ctf_trace_dat_get_n_buffers (self->td); b++)
      if (gst_ctf_trace_dat_get_buffer (self->td, b)->latency)
        GST_ELEMENT_WARNING (self, STREAM, NOT_IMPLEMENTED,
            ("Latency (text) buffer \"%s\" of %s left out: only flyrecord "
                "buffers are converted",
                gst_ctf_trace_dat_get_buffer (self->td, b)->name, location),
            (NULL));
  }
  {
    gint64 b, e;

    /* the first page of each CPU and the last non-empty one: DURATION,
     * SEEKING; when they cannot be read, the error comes from create() */
    if (gst_ctf_trace_dat_packetizer_get_time_range (self->pk, &b, &e, &err))
      gst_ctf_stream_time_init (&self->time, b, e);
    else {
      GST_DEBUG_OBJECT (self, "no time range: %s", err->message);
      g_clear_error (&err);
    }
  }
  tc = gst_ctf_trace_dat_packetizer_get_trace_class (self->pk);
  {
    const gchar *md = gst_ctf_trace_dat_packetizer_get_metadata (self->pk);
    gchar *conv = NULL;

    GST_OBJECT_LOCK (self);
    if (self->ctf_version == GST_CTF_OUTPUT_VERSION_2)
      conv = gst_ctf_output_version_convert (md, GST_CTF_OUTPUT_VERSION_2,
          FALSE, &err);
    GST_OBJECT_UNLOCK (self);
    if (self->ctf_version == GST_CTF_OUTPUT_VERSION_2 && conv == NULL) {
      gst_ctf_element_post_gerror (GST_ELEMENT (self), err,
          "Cannot write the metadata as CTF 2");
      g_error_free (err);
      g_free (location);
      g_clear_pointer (&self->pk, gst_ctf_trace_dat_packetizer_free);
      g_clear_pointer (&self->td, gst_ctf_trace_dat_unref);
      return FALSE;
    }
    self->caps = gst_ctf_caps_new (conv ? conv : md,
        tc->has_uuid ? tc->uuid : NULL);
    g_free (conv);
    GST_OBJECT_LOCK (self);
    gst_ctf_source_clock_copy (&clock, &self->clock);
    GST_OBJECT_UNLOCK (self);
    clock.offset_s = clock.offset_ns = 0;
    if (!gst_ctf_source_clock_apply (&clock, &self->caps,
            gst_ctf_source_clock_hostname (tc), location, &err)) {
      gst_ctf_element_post_gerror (GST_ELEMENT (self), err,
          "Cannot move the trace's clock");
      g_error_free (err);
      gst_ctf_source_clock_clear (&clock);
      g_free (location);
      g_clear_pointer (&self->pk, gst_ctf_trace_dat_packetizer_free);
      g_clear_pointer (&self->td, gst_ctf_trace_dat_unref);
      return FALSE;
    }
    gst_ctf_source_clock_clear (&clock);
  }
  GST_INFO_OBJECT (self, "%s: trace.dat v%u, %u buffers, %u CPUs", location,
      gst_ctf_trace_dat_get_version (self->td),
      gst_ctf_trace_dat_get_n_buffers (self->td),
      gst_ctf_trace_dat_get_n_cpus (self->td));
  g_free (location);
  return TRUE;
}

static gboolean
gst_trace_cmd_src_stop (GstBaseSrc * bsrc)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (bsrc);

  g_clear_pointer (&self->pk, gst_ctf_trace_dat_packetizer_free);
  g_clear_pointer (&self->td, gst_ctf_trace_dat_unref);
  GST_OBJECT_LOCK (self);
  gst_clear_caps (&self->caps);
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static GstCaps *
gst_trace_cmd_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (bsrc);

  return gst_ctf_element_src_get_caps (bsrc, &self->caps, filter);
}

static gboolean
gst_trace_cmd_src_is_seekable (GstBaseSrc * bsrc)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (bsrc);

  return self->pk != NULL && self->time.begin_ns >= 0;
}

/* TIME seeks in stream time (gstctf-stream-time.c): each CPU goes on from
 * its last page starting at or before the new start (binary search over
 * the pages, gst_ctf_trace_dat_packetizer_seek()). */
static gboolean
gst_trace_cmd_src_do_seek (GstBaseSrc * bsrc, GstSegment * segment)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (bsrc);
  GError *err = NULL;

  if (segment->format != GST_FORMAT_TIME || segment->rate < 0) {
    GST_WARNING_OBJECT (self, "only forward TIME seeks are supported");
    return FALSE;
  }
  if (self->pk == NULL || self->time.begin_ns < 0)
    return TRUE;
  gst_ctf_stream_time_seek (&self->time, segment);
  /* (the seek GstBaseSrc makes at start leaves everything where it is) */
  if (!self->pushed && segment->start <= (guint64) self->time.begin_ns)
    return TRUE;
  GST_DEBUG_OBJECT (self, "seek to %" GST_TIME_FORMAT,
      GST_TIME_ARGS (segment->start));
  if (!gst_ctf_trace_dat_packetizer_seek (self->pk,
          (gint64) MIN (segment->start, (guint64) G_MAXINT64), &err)) {
    gst_ctf_element_post_gerror (GST_ELEMENT (self), err, "Cannot seek in trace.dat file");
    g_error_free (err);
    return FALSE;
  }
  self->pushed = FALSE;
  return TRUE;
}

static gboolean
gst_trace_cmd_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (bsrc);

  if (gst_ctf_stream_time_query (&self->time, bsrc,
          gst_trace_cmd_src_is_seekable (bsrc), query))
    return TRUE;
  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

/* Corrupt ring-buffer pages skipped by the packetizer (not strict): one
 * warning per batch, with the first page's place and what was wrong. */
static void
warn_skipped_pages (GstTraceCmdSrc * self)
{
  GError *err = NULL;
  guint n = gst_ctf_trace_dat_packetizer_pop_skipped_pages (self->pk, &err);

  if (n == 0)
    return;
  GST_OBJECT_LOCK (self);
  self->skipped_pages += n;
  GST_OBJECT_UNLOCK (self);
  GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, DECODE,
      ("Skipped %u corrupt ring-buffer page%s (each counted as 1 discarded "
          "event; set strict=true to stop instead): %s", n, n > 1 ? "s" : "",
          err ? err->message : ""), (NULL),
      ("skipped-pages", G_TYPE_UINT, n, NULL));
  g_clear_error (&err);
}

static GstFlowReturn
gst_trace_cmd_src_create (GstBaseSrc * bsrc, guint64 offset, guint size,
    GstBuffer ** out)
{
  GstTraceCmdSrc *self = GST_TRACE_CMD_SRC (bsrc);
  GstCtfTraceDatPacketInfo info;
  const guint8 *data;
  gsize len;
  GError *err = NULL;
  GstBuffer *buf;
  GstCtfPacketMeta *meta;
  gint r;

  if (!self->pk)
    return GST_FLOW_FLUSHING;
  r = gst_ctf_trace_dat_packetizer_next (self->pk, &data, &len, &info, &err);
  warn_skipped_pages (self);
  if (r < 0) {
    /* the end-of-stream GstBaseSrc sends after the error does not end a
     * complete stream: ctfsink marks its trace truncated */
    gst_pad_push_event (GST_BASE_SRC_PAD (self),
        gst_ctf_event_new_truncated (err->message));
    gst_ctf_element_post_gerror (GST_ELEMENT (self), err, "Corrupt trace.dat data");
    g_error_free (err);
    return GST_FLOW_ERROR;
  }
  if (r == 0) {
    GST_DEBUG_OBJECT (self, "all pages done");
    return GST_FLOW_EOS;
  }

  buf = gst_buffer_new_memdup (data, len);
  self->pushed = TRUE;
  if (info.begin_ns >= 0) {
    GST_BUFFER_PTS (buf) = info.begin_ns;
    GST_BUFFER_DURATION (buf) = info.end_ns - info.begin_ns;
  }
  GST_BUFFER_OFFSET (buf) = info.page_index;
  GST_BUFFER_OFFSET_END (buf) = info.page_index + 1;
  meta = gst_buffer_add_ctf_packet_meta (buf);
  meta->stream_class_id = info.stream_class_id;
  meta->stream_instance_id = info.stream_instance_id;
  meta->stream_name = info.stream_name;
  meta->stream_index = info.stream_index;
  meta->stream_id = info.stream_instance_id;
  meta->events_discarded_delta = info.discarded_delta;
  meta->events_discarded_unknown = info.discarded_unknown;

  if (info.discarded_delta > info.discarded_skipped) {
    guint64 lost = info.discarded_delta - info.discarded_skipped;

    if (info.discarded_unknown)
      GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, FAILED,
          ("The kernel lost events before page %" G_GUINT64_FORMAT " of CPU "
              "%u (count not recorded; counted as 1)", info.page_index,
              info.cpu), (NULL), ("discarded-events", G_TYPE_UINT64,
              lost, "cpu", G_TYPE_UINT, info.cpu,
              "page", G_TYPE_UINT64, info.page_index, "count-known",
              G_TYPE_BOOLEAN, FALSE, NULL));
    else
      GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, FAILED,
          ("The kernel lost %" G_GUINT64_FORMAT " events before page %"
              G_GUINT64_FORMAT " of CPU %u", lost,
              info.page_index, info.cpu), (NULL), ("discarded-events",
              G_TYPE_UINT64, lost, "cpu", G_TYPE_UINT,
              info.cpu, "page", G_TYPE_UINT64, info.page_index,
              "count-known", G_TYPE_BOOLEAN, TRUE, NULL));
  }
  if (info.skipped > 0 && !self->warned_skipped) {
    self->warned_skipped = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, DECODE,
        ("Records with an event id that has no event format were left out "
            "(first on CPU %u, page %" G_GUINT64_FORMAT "); the total is in "
            "the `stats` property", info.cpu, info.page_index), (NULL));
  }

  GST_OBJECT_LOCK (self);
  self->packets++;
  self->bytes += len;
  self->events += info.n_events;
  self->discarded_events += info.discarded_delta;
  self->skipped_records += info.skipped;
  self->clamped_timestamps += info.clamped;
  GST_OBJECT_UNLOCK (self);
  if (info.clamped > 0)
    GST_DEBUG_OBJECT (self, "%u events of CPU %u page %" G_GUINT64_FORMAT
        " went back in time: given the previous time", info.clamped,
        info.cpu, info.page_index);

  GST_LOG_OBJECT (self, "packet %s #%" G_GUINT64_FORMAT ": %u events, %"
      G_GSIZE_FORMAT " bytes, pts %" GST_TIME_FORMAT, info.stream_name,
      info.page_index, info.n_events, len,
      GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
  *out = buf;
  return GST_FLOW_OK;
}
