/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-ctfsrc
 * @title: ctfsrc
 * @short_description: reads a CTF trace directory as a stream of packets
 *
 * Reads a CTF 1.8 or CTF 2 trace (LTTng, barectf, babeltrace2
 * `sink.ctf.fs`, ...): the `metadata` file (plain text or packetized; TSDL
 * or, first byte 0x1E, CTF 2 JSON fragments) and every data stream
 * file of the trace directory.  Pushes one buffer per CTF packet, byte for
 * byte as in the file (zero copy: the buffers wrap a read-only mapping of
 * the file), in `timestamp_begin` order across all streams.
 *
 * The caps are `application/x-ctf` with the plain metadata text (TSDL or
 * CTF 2) in the `metadata` field and the trace UUID in `uuid`.  Buffer PTS is the
 * packet's `timestamp_begin` in ns since the Unix epoch (since the clock's
 * origin when it is not the epoch), DURATION is `timestamp_end` −
 * `timestamp_begin`; each buffer carries a #GstCtfPacketMeta.
 *
 * Buffer PTS stay absolute; positions, durations and seeks are in stream
 * time, which starts at 0 at the trace's first `timestamp_begin` (as a
 * demuxer whose timestamps do not start at 0 does): the segment's `start`
 * is that first time and its `time` 0, so POSITION / DURATION is the
 * fraction of the trace done.  The DURATION query answers the trace's
 * last `timestamp_end` minus its first `timestamp_begin`, the SEEKING
 * query the range [0, DURATION], and a TIME seek to T (stream time)
 * restarts every stream at its first packet whose `timestamp_end` is at
 * or after first + T; the new segment has `start` = first + T and
 * `time` = T.  A trace without timestamps keeps the default segment.
 *
 * `location` may also be a directory above the trace (e.g. an LTTng
 * session directory: `ust/uid/0/64-bit` is found below it).  When several
 * trace directories are below it and they all have the same UUID (the
 * chunks of an LTTng session rotation), they are read as one logical
 * trace, as babeltrace2 does: the largest metadata is used and each
 * stream's packets are merged across the chunks.  Traces with different
 * UUIDs (e.g. an LTTng kernel and a user space trace, or the per-process
 * buffers of several processes) are read merged, as babeltrace2 reads
 * them: their trace classes become one (gst_ctf_trace_merge_new(): stream
 * classes renumbered in babeltrace2's trace order, clocks kept, env
 * entries that differ kept per trace as `traceI_KEY`), the caps carry the
 * merged metadata and each packet is pushed with its header rewritten to
 * name the new stream class and the merged trace's UUID (the rest of the
 * packet shared with the file mapping, not copied).  Their clocks must be
 * correlatable as babeltrace2 requires (all with a Unix epoch origin, or
 * all with the same UUID).
 *
 * Events the tracer discarded (`events_discarded` increments) and lost
 * packets (`packet_seq_num` gaps) are posted as element warnings whose
 * details structure holds the counts, and totalled in #GstCtfSrc:stats.
 * A corrupt stream file gives an element error naming the file, the byte
 * offset and what was expected, after the valid packets before it.
 *
 * babeltrace2's `source.ctf.fs` parameters are properties:
 * #GstCtfSrc:clock-offset (s) and #GstCtfSrc:clock-offset-ns move every
 * clock of the trace class (the caps' metadata says the moved clock, so
 * ctfsink writes it; buffer PTS move too),
 * #GstCtfSrc:force-clock-class-origin-unix-epoch makes their origin the
 * Unix epoch (`--clock-force-correlate`) and #GstCtfSrc:trace-name names
 * the trace.  #GstCtfSrc:stream-intersection keeps only the time range in
 * which every stream of a trace has packets (`--stream-intersection`).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 ctfsrc location=lttng-traces/my-session ! ctfsink location=copy/
 * ]| Copies a trace, packet by packet.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfsrc.h"
#include "gstctf-stream-time.h"

#include <string.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "gstctf-trace-source.h"
#include "gstctf-caps.h"
#include "gstctf-element-util.h"
#include "gsttracecmd.h"
#include "gstctf-packet-meta.h"
#include "gstctf-source-clock.h"
#include "gstctftimefilter-private.h"

GST_DEBUG_CATEGORY_STATIC (gst_ctf_src_debug);
#define GST_CAT_DEFAULT gst_ctf_src_debug

enum
{
  PROP_0,
  PROP_LOCATION,
  PROP_STATS,
  PROP_STREAM_INTERSECTION,
  PROP_CLOCK_FIRST,             /* the GST_CTF_SOURCE_CLOCK_N_PROPS next */
};

/* What the element keeps of a stream (the read position and the order
 * of the packets are the GstCtfTraceSource's). */
typedef struct
{
  /* Several traces: which one, the stream class id in the merged trace
   * class and the rank for equal timestamps across all traces. */
  const GstCtfStream *stream;
  guint trace;
  guint64 new_sc_id;
  guint rank;
  /* the file of the last packet pushed and its interned path */
  const GstCtfStreamFile *file;
  const gchar *file_path;
  /* stream-intersection: the packets from end_cursor on begin after the
   * trace's intersection (G_MAXUINT without one) */
  guint end_cursor;
} StreamState;

struct _GstCtfSrc
{
  GstBaseSrc parent;

  gchar *location;
  gboolean stream_intersection;
  GstCtfSourceClock clock_props;

  /* Set in start(), freed in stop(). */
  GstCtfSourceClock clock;      /* the properties when started */
  gint64 shift_ns;              /* what the clock options add to times */
  /* stream-intersection: per trace (merge input order) the range
   * [begin, end] in ns from the origin of the unmoved clocks, and a
   * timefilter cutting the packets across its bounds */
  gint64 *isect_begin, *isect_end;
  GstCtfTimeFilter **cutters;
  GstCtfTraceSource *src;       /* the traces, opened by the library */
  GstCtfTraceDir *td;           /* the (first) trace, src's */
  GPtrArray *tds;               /* several traces: src's, merge input order */
  GstCtfTraceMerge *merge;      /* several traces: src's merge */
  GstCaps *caps;
  StreamState *states;          /* one per stream of all the traces */
  guint n_states;
  /* first timestamp_begin, last timestamp_end (-1: none), last seek */
  GstCtfStreamTime time;

  /* Statistics, protected by the object lock. */
  guint64 packets;
  guint64 bytes;
  guint64 discarded_events;
  guint64 discarded_packets;
};

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

#define gst_ctf_src_parent_class parent_class
G_DEFINE_TYPE (GstCtfSrc, gst_ctf_src, GST_TYPE_BASE_SRC);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (ctfsrc, "ctfsrc", GST_RANK_NONE,
    GST_TYPE_CTF_SRC, GST_DEBUG_CATEGORY_INIT (gst_ctf_src_debug, "ctfsrc", 0,
        "CTF trace directory source"));

static void gst_ctf_src_finalize (GObject * object);
static void gst_ctf_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_ctf_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_ctf_src_start (GstBaseSrc * bsrc);
static gboolean gst_ctf_src_stop (GstBaseSrc * bsrc);
static GstCaps *gst_ctf_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter);
static gboolean gst_ctf_src_is_seekable (GstBaseSrc * bsrc);
static gboolean gst_ctf_src_do_seek (GstBaseSrc * bsrc, GstSegment * segment);
static gboolean gst_ctf_src_query (GstBaseSrc * bsrc, GstQuery * query);
static GstFlowReturn gst_ctf_src_create (GstBaseSrc * bsrc, guint64 offset,
    guint size, GstBuffer ** buf);

static void
gst_ctf_src_class_init (GstCtfSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);

  gobject_class->finalize = gst_ctf_src_finalize;
  gobject_class->set_property = gst_ctf_src_set_property;
  gobject_class->get_property = gst_ctf_src_get_property;

  /**
   * GstCtfSrc:location:
   *
   * The trace directory (the one holding `metadata`), or a directory
   * above one or several traces (several are read merged into one trace
   * class, as `babeltrace2 DIR` does).
   */
  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "CTF trace directory (holding `metadata`), or a directory above "
          "one or several traces, read merged (default: none, must be set)",
          NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfSrc:stats:
   *
   * `application/x-ctf-src-stats` with `packets` (pushed), `bytes`
   * (pushed), `discarded-events` and `discarded-packets` (reported by
   * the tracer), all guint64.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Packets and bytes pushed, events and packets the tracer "
          "discarded (guint64 counts)", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstCtfSrc:stream-intersection:
   *
   * Keep only the time range in which every stream of the trace has
   * packets, as `babeltrace2 --stream-intersection` does: from the latest
   * first `timestamp_begin` of the trace's streams to the earliest last
   * `timestamp_end` (from the LTTng index when there is one, else the
   * packet contexts).  Packets inside pass untouched, packets outside are
   * not read, packets across a bound are written again with their events
   * in the range (as timefilter does).  Several traces below `location`:
   * each trace its own range.  An error when a trace has no stream, a
   * stream has no packet times, or the range is empty.
   */
  g_object_class_install_property (gobject_class, PROP_STREAM_INTERSECTION,
      g_param_spec_boolean ("stream-intersection", "Stream intersection",
          "Keep only the time range in which every stream of the trace has "
          "packets (babeltrace2 --stream-intersection)", FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /* clock-offset, clock-offset-ns, force-clock-class-origin-unix-epoch,
   * trace-name (gstctf-source-clock.h) */
  gst_ctf_source_clock_install (gobject_class, PROP_CLOCK_FIRST);

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "CTF trace source", "Source/File",
      "Reads a CTF 1.8 or CTF 2 trace directory and pushes its packets in "
      "time order", GST_CTF_ELEMENT_AUTHOR);

  basesrc_class->start = GST_DEBUG_FUNCPTR (gst_ctf_src_start);
  basesrc_class->stop = GST_DEBUG_FUNCPTR (gst_ctf_src_stop);
  basesrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_ctf_src_get_caps);
  basesrc_class->is_seekable = GST_DEBUG_FUNCPTR (gst_ctf_src_is_seekable);
  basesrc_class->do_seek = GST_DEBUG_FUNCPTR (gst_ctf_src_do_seek);
  basesrc_class->query = GST_DEBUG_FUNCPTR (gst_ctf_src_query);
  basesrc_class->create = GST_DEBUG_FUNCPTR (gst_ctf_src_create);
}

static void
gst_ctf_src_init (GstCtfSrc * self)
{
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
  gst_ctf_stream_time_init (&self->time, -1, -1);
}

static void
gst_ctf_src_finalize (GObject * object)
{
  GstCtfSrc *self = GST_CTF_SRC (object);

  g_free (self->location);
  gst_ctf_source_clock_clear (&self->clock_props);
  gst_ctf_source_clock_clear (&self->clock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static GstStructure *
gst_ctf_src_make_stats (GstCtfSrc * self)
{
  GstStructure *s;

  GST_OBJECT_LOCK (self);
  s = gst_structure_new ("application/x-ctf-src-stats",
      "packets", G_TYPE_UINT64, self->packets,
      "bytes", G_TYPE_UINT64, self->bytes,
      "discarded-events", G_TYPE_UINT64, self->discarded_events,
      "discarded-packets", G_TYPE_UINT64, self->discarded_packets, NULL);
  GST_OBJECT_UNLOCK (self);
  return s;
}

static void
gst_ctf_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfSrc *self = GST_CTF_SRC (object);

  switch (prop_id) {
    case PROP_LOCATION:
      GST_OBJECT_LOCK (self);
      g_free (self->location);
      self->location = g_value_dup_string (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_STREAM_INTERSECTION:
      GST_OBJECT_LOCK (self);
      self->stream_intersection = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      if (prop_id >= PROP_CLOCK_FIRST) {
        GST_OBJECT_LOCK (self);
        gst_ctf_source_clock_set_property (&self->clock_props,
            prop_id - PROP_CLOCK_FIRST, value);
        GST_OBJECT_UNLOCK (self);
        break;
      }
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCtfSrc *self = GST_CTF_SRC (object);

  switch (prop_id) {
    case PROP_LOCATION:
      GST_OBJECT_LOCK (self);
      g_value_set_string (value, self->location);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, gst_ctf_src_make_stats (self));
      break;
    case PROP_STREAM_INTERSECTION:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->stream_intersection);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      if (prop_id >= PROP_CLOCK_FIRST) {
        GST_OBJECT_LOCK (self);
        gst_ctf_source_clock_get_property (&self->clock_props,
            prop_id - PROP_CLOCK_FIRST, value);
        GST_OBJECT_UNLOCK (self);
        break;
      }
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* An error of start(): "Cannot read CTF trace" @name. */
static void
post_gerror_at_start (GstCtfSrc * self, const GError * err,
    const gchar * name)
{
  gchar *what = g_strdup_printf ("Cannot read CTF trace \"%s\"", name);

  gst_ctf_element_post_gerror (GST_ELEMENT (self), err, what);
  g_free (what);
}

/* GError -> element error.  The GError domain and code go into the debug
 * string so that applications (and tests) can tell the causes apart.
 * From the streaming thread: the end-of-stream GstBaseSrc sends after
 * the error does not end a complete stream; ctfsink marks its trace
 * truncated.  Sent first, before the application reacts to the error. */
static void
post_gerror (GstCtfSrc * self, const GError * err, gboolean at_start)
{
  if (at_start) {
    post_gerror_at_start (self, err, self->td ? self->td->path :
        self->location);
    return;
  }
  gst_pad_push_event (GST_BASE_SRC_PAD (self),
      gst_ctf_event_new_truncated (err->message));
  gst_ctf_element_post_gerror (GST_ELEMENT (self), err,
      "Corrupt CTF data stream");
}

static gboolean
open_traces (GstCtfSrc * self, const gchar * location)
{
  GstCtfTraceSourceFailure failure;
  GError *err = NULL;
  const GstCtfTraceClass *tc;
  guint i, n;

  self->src = gst_ctf_trace_source_open_full (location,
      GST_CTF_TRACE_SOURCE_OPEN_CLOCK_ERRORS, &failure, &err);
  if (self->src == NULL) {
    if (failure.stage == GST_CTF_TRACE_SOURCE_FAILED_MERGE) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("Cannot read the %u traces below %s merged: %s",
              failure.n_traces, location, err->message),
          ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
              err->code));
    } else {
      /* (several traces: named by the location) */
      post_gerror_at_start (self, err, failure.n_traces == 1 &&
          failure.trace_path ? failure.trace_path : self->location);
    }
    g_error_free (err);
    gst_ctf_trace_source_failure_clear (&failure);
    return FALSE;
  }
  n = gst_ctf_trace_source_get_n_traces (self->src);
  self->td = gst_ctf_trace_source_get_trace_dir (self->src, 0);
  self->merge = gst_ctf_trace_source_get_merge (self->src);
  if (n > 1) {
    self->tds = g_ptr_array_sized_new (n);
    for (i = 0; i < n; i++) {
      GstCtfTraceDir *td = gst_ctf_trace_source_get_trace_dir (self->src, i);

      g_ptr_array_add (self->tds, td);
      GST_INFO_OBJECT (self, "trace %u: %s (%s): %u stream files, %u "
          "streams", i, gst_ctf_trace_source_get_trace_name (self->src, i),
          td->path, td->files->len, td->streams->len);
    }
  } else {
    GST_INFO_OBJECT (self, "trace %s: %u stream files, %u streams",
        self->td->path, self->td->files->len, self->td->streams->len);
  }

  tc = gst_ctf_trace_source_get_trace_class (self->src);
  self->caps = gst_ctf_caps_new (gst_ctf_trace_source_get_metadata
      (self->src), tc->has_uuid ? tc->uuid : NULL);
  /* babeltrace2's name for it, for ctftextsink fields=trace */
  if (n == 1)
    gst_ctf_caps_set_trace_name (self->caps,
        gst_ctf_trace_source_get_trace_name (self->src, 0));

  self->n_states = gst_ctf_trace_source_get_n_streams (self->src);
  self->states = g_new0 (StreamState, MAX (self->n_states, 1));
  for (i = 0; i < self->n_states; i++) {
    StreamState *st = &self->states[i];

    st->stream = gst_ctf_trace_source_get_stream (self->src, i, &st->trace,
        &st->new_sc_id, &st->rank);
  }
  return TRUE;
}

/* One warning per clock whose `offset_s` in ns overflows 64 bits (Trace
 * Compass's CTF writer): babeltrace2 refuses such a trace, babeltrace 1.5
 * reads it with the offset modulo 2^64, and so do we (the resolver's
 * wrap_clock_offset()). */
static void
warn_wrapped_offsets (GstCtfSrc * self)
{
  guint n = self->tds ? self->tds->len : 1, t, i;

  for (t = 0; t < n; t++) {
    const GstCtfTraceDir *td = self->tds ? g_ptr_array_index (self->tds, t)
        : self->td;

    for (i = 0; i < td->trace_class->clock_classes->len; i++) {
      const GstCtfClockClass *cc =
          g_ptr_array_index (td->trace_class->clock_classes, i);

      if (!cc->offset_wrapped)
        continue;
      GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, FORMAT,
          ("Clock \"%s\" of trace \"%s\": its offset, %" G_GINT64_FORMAT
              " s (offset_s and the whole seconds of offset), overflows in "
              "nanoseconds (more than 64 bits: a nanosecond count in "
              "offset_s?); read as babeltrace 1.5 reads "
              "it, modulo 2^64: offset_s = %" G_GINT64_FORMAT ", offset = %"
              G_GINT64_FORMAT " cycles (babeltrace2 refuses this trace)",
              cc->name, td->path, cc->metadata_offset_s, cc->offset_s,
              cc->offset), (NULL),
          ("clock", G_TYPE_STRING, cc->name,
              "metadata-offset-s", G_TYPE_INT64, cc->metadata_offset_s,
              "offset-s", G_TYPE_INT64, cc->offset_s,
              "offset", G_TYPE_INT64, cc->offset, NULL));
    }
  }
}

/* A time from the index (ns from the unmoved clock's origin) as the
 * clock options move it. */
static gint64
shifted (GstCtfSrc * self, gint64 ns)
{
  gint64 t;

  if (__builtin_add_overflow (ns, self->shift_ns, &t))
    return self->shift_ns < 0 ? G_MININT64 : G_MAXINT64;
  return t;
}

/* First packet of @s whose timestamp_begin is after @t (ns), or
 * s->packets->len. */
static guint
find_first_packet_beginning_after (const GstCtfStream * s, gint64 t)
{
  guint lo = 0, hi = s->packets->len;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    const GstCtfIndexEntry *e =
        g_array_index (s->packets, GstCtfStreamPacket, mid).entry;

    if (!(e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN) ||
        e->timestamp_begin_ns <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The end of stream @s as babeltrace2's index has it after its tracer
 * quirk fixes: the last packet's `timestamp_end`, or the time of its
 * last event when that end is not to be trusted (the tracer wrote it
 * before the last event, or 0: lttng-crash). */
static gint64
stream_end_ns (const GstCtfTraceDir * td, const GstCtfStream * s,
    gboolean trust_end)
{
  const GstCtfStreamPacket *p = &g_array_index (s->packets,
      GstCtfStreamPacket, s->packets->len - 1);
  const GstCtfIndexEntry *e = p->entry;
  const GstCtfStreamClass *sc;
  GstCtfEventIter *it;
  gint64 end = e->timestamp_end_ns, ns;
  guint64 clock;

  if (trust_end && !(e->flags & GST_CTF_INDEX_ENTRY_TIMESTAMP_END_FIXED))
    return end;
  sc = gst_ctf_trace_class_find_stream_class (td->trace_class,
      s->stream_class_id);
  if (sc == NULL || sc->default_clock == NULL)
    return end;
  it = gst_ctf_event_iter_new (td->trace_class);
  gst_ctf_event_iter_set_recording (it, FALSE);
  if (gst_ctf_event_iter_set_packet (it, p->file->data + e->offset,
          e->packet_size, NULL)) {
    /* (no event: the clock of the packet context, as babeltrace2) */
    while (gst_ctf_event_iter_next (it, NULL));
    clock = gst_ctf_event_iter_get_clock_value (it);
    if (gst_ctf_clock_class_cycles_to_ns_from_origin (sc->default_clock,
            clock, &ns))
      end = ns;
  }
  gst_ctf_event_iter_free (it);
  return end;
}

/* stream-intersection=true: per trace, the latest first timestamp_begin
 * and the earliest last timestamp_end of its streams (babeltrace2's
 * `babeltrace.trace-infos` query and the trimmers its CLI adds); the
 * streams start at the range, the packets beginning after it are left
 * out, and a cutter per trace cuts the packets across its bounds. */
static gboolean
set_intersection (GstCtfSrc * self)
{
  guint n = self->tds ? self->tds->len : 1, t, i;
  gint64 all_begin = -1, all_end = -1;

  self->isect_begin = g_new (gint64, n);
  self->isect_end = g_new (gint64, n);
  self->cutters = g_new0 (GstCtfTimeFilter *, n);
  for (t = 0; t < n; t++) {
    const GstCtfTraceDir *td = self->tds ? g_ptr_array_index (self->tds, t)
        : self->td;
    gint64 b = G_MININT64, e = G_MAXINT64;
    guint n_streams = 0;
    gboolean trust_end =
        gst_ctf_time_filter_tracer_sets_timestamp_end (td->trace_class);

    for (i = 0; i < self->n_states; i++) {
      const GstCtfStream *s = self->states[i].stream;
      const GstCtfIndexEntry *first, *last;

      if (self->states[i].trace != t || s->packets->len == 0)
        continue;
      n_streams++;
      first = g_array_index (s->packets, GstCtfStreamPacket, 0).entry;
      last = g_array_index (s->packets, GstCtfStreamPacket,
          s->packets->len - 1).entry;
      if (!(first->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN) ||
          !(last->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END)) {
        GST_ELEMENT_ERROR (self, STREAM, FORMAT,
            ("Cannot find the stream intersection of trace \"%s\": stream "
                "file \"%s\" has no packet times (timestamp_begin and "
                "timestamp_end in the packet context, or an LTTng index)",
                td->path, s->name), (NULL));
        return FALSE;
      }
      b = MAX (b, first->timestamp_begin_ns);
      e = MIN (e, stream_end_ns (td, s, trust_end));
    }
    if (n_streams == 0) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("Cannot find the stream intersection of trace \"%s\": it has no "
              "stream with packets", td->path), (NULL));
      return FALSE;
    }
    if (b > e) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("The streams of trace \"%s\" have no time in common: the "
              "latest first packet begins at %" G_GINT64_FORMAT " ns, after "
              "the earliest last packet ends (%" G_GINT64_FORMAT " ns, from "
              "the clock's origin)", td->path, shifted (self, b),
              shifted (self, e)), (NULL));
      return FALSE;
    }
    self->isect_begin[t] = b;
    self->isect_end[t] = e;
    GST_INFO_OBJECT (self, "trace %s: stream intersection [%" G_GINT64_FORMAT
        ", %" G_GINT64_FORMAT "] ns", td->path, b, e);
    self->cutters[t] = gst_ctf_time_filter_new_cutter (self->caps,
        shifted (self, b), shifted (self, e));
    if (self->cutters[t] == NULL) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("Cannot read the metadata of trace \"%s\" to cut its packets",
              td->path), (NULL));
      return FALSE;
    }
    all_begin = all_begin < 0 ? b : MIN (all_begin, b);
    all_end = MAX (all_end, e);
  }
  for (i = 0; i < self->n_states; i++) {
    StreamState *st = &self->states[i];

    st->end_cursor = find_first_packet_beginning_after (st->stream,
        self->isect_end[st->trace]);
    gst_ctf_trace_source_set_stream_range (self->src, i,
        gst_ctf_trace_source_find_packet_ending_at_or_after (st->stream,
            self->isect_begin[st->trace]), st->end_cursor);
  }
  self->time.begin_ns = all_begin;
  self->time.end_ns = all_end;
  return TRUE;
}

static gboolean
gst_ctf_src_start (GstBaseSrc * bsrc)
{
  GstCtfSrc *self = GST_CTF_SRC (bsrc);
  GError *err = NULL;
  gchar *location;
  gboolean intersection;
  guint i;

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  intersection = self->stream_intersection;
  gst_ctf_source_clock_copy (&self->clock, &self->clock_props);
  self->packets = self->bytes = 0;
  self->discarded_events = self->discarded_packets = 0;
  GST_OBJECT_UNLOCK (self);

  if (location == NULL || *location == '\0') {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No trace directory given (set the `location` property)."), (NULL));
    g_free (location);
    return FALSE;
  }

  if (!open_traces (self, location)) {
    g_free (location);
    /* GstBaseSrc does not call stop() when start() fails */
    gst_ctf_src_stop (bsrc);
    return FALSE;
  }
  g_free (location);

  warn_wrapped_offsets (self);

  /* The clock options move the clocks of the caps' metadata */
  if (!gst_ctf_source_clock_apply (&self->clock, &self->caps,
          gst_ctf_source_clock_hostname (self->td->trace_class),
          self->td->path, &err)) {
    post_gerror (self, err, TRUE);
    g_error_free (err);
    gst_ctf_src_stop (bsrc);
    return FALSE;
  }
  self->shift_ns = gst_ctf_source_clock_shift_ns (&self->clock);

  gst_ctf_stream_time_init (&self->time, -1, -1);
  for (i = 0; i < self->n_states; i++) {
    const GstCtfStream *s = self->states[i].stream;
    guint j;

    self->states[i].end_cursor = G_MAXUINT;
    for (j = 0; j < s->packets->len; j++) {
      const GstCtfIndexEntry *e =
          g_array_index (s->packets, GstCtfStreamPacket, j).entry;

      if ((e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN) &&
          e->timestamp_begin_ns >= 0 && (self->time.begin_ns < 0 ||
              e->timestamp_begin_ns < self->time.begin_ns))
        self->time.begin_ns = e->timestamp_begin_ns;
      if ((e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END) &&
          e->timestamp_end_ns > self->time.end_ns)
        self->time.end_ns = e->timestamp_end_ns;
    }
  }
  if (intersection && !set_intersection (self)) {
    gst_ctf_src_stop (bsrc);
    return FALSE;
  }
  if (self->time.begin_ns >= 0)
    self->time.begin_ns = shifted (self, self->time.begin_ns);
  if (self->time.end_ns >= 0)
    self->time.end_ns = shifted (self, self->time.end_ns);
  return TRUE;
}

static gboolean
gst_ctf_src_stop (GstBaseSrc * bsrc)
{
  GstCtfSrc *self = GST_CTF_SRC (bsrc);

  if (self->cutters) {
    guint n = self->tds ? self->tds->len : 1, i;

    for (i = 0; i < n; i++)
      gst_clear_object (&self->cutters[i]);
    g_clear_pointer (&self->cutters, g_free);
  }
  g_clear_pointer (&self->isect_begin, g_free);
  g_clear_pointer (&self->isect_end, g_free);
  self->shift_ns = 0;
  g_clear_pointer (&self->states, g_free);
  self->n_states = 0;
  gst_clear_caps (&self->caps);
  /* (the traces and their merge are the source's) */
  self->merge = NULL;
  self->td = NULL;
  g_clear_pointer (&self->tds, g_ptr_array_unref);
  g_clear_pointer (&self->src, gst_ctf_trace_source_free);
  return TRUE;
}

static GstCaps *
gst_ctf_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  GstCtfSrc *self = GST_CTF_SRC (bsrc);

  return gst_ctf_element_src_get_caps (bsrc, &self->caps, filter);
}

static gboolean
gst_ctf_src_is_seekable (GstBaseSrc * bsrc)
{
  return TRUE;
}

static gboolean
gst_ctf_src_do_seek (GstBaseSrc * bsrc, GstSegment * segment)
{
  GstCtfSrc *self = GST_CTF_SRC (bsrc);
  gboolean from_start;
  gint64 start;
  guint i;

  if (segment->format != GST_FORMAT_TIME || segment->rate < 0) {
    GST_WARNING_OBJECT (self, "only forward TIME seeks are supported");
    return FALSE;
  }
  if (self->td == NULL)
    return TRUE;

  /* seek positions are stream time (gstctf-stream-time.c); stream time 0
   * is the whole trace, negative times included (a clock whose offset is
   * negative, or wrapped beyond 2^63 ns: gstctf-resolve.c), which the
   * absolute start of the segment cannot say */
  from_start = segment->start == 0;
  gst_ctf_stream_time_seek (&self->time, segment);
  start = (gint64) MIN (segment->start, (guint64) G_MAXINT64);
  /* (the index has the times of the unmoved clocks) */
  if (__builtin_sub_overflow (start, self->shift_ns, &start))
    start = self->shift_ns > 0 ? G_MININT64 : G_MAXINT64;
  if (from_start)
    start = G_MININT64;
  GST_DEBUG_OBJECT (self, "seek to %" G_GINT64_FORMAT " ns", start);

  for (i = 0; i < self->n_states; i++) {
    StreamState *st = &self->states[i];
    const GstCtfStream *s = st->stream;
    GstCtfTraceDir *td = self->tds ? g_ptr_array_index (self->tds,
        st->trace) : self->td;
    const GstCtfStreamClass *sc =
        gst_ctf_trace_class_find_stream_class (td->trace_class,
        s->stream_class_id);

    /* tracecmdsrc's side stream (the event formats a trace-cmd text needs)
     * is sent whole after any seek, as tracecmdsrc itself does: it is the
     * trace's description, not events of a time */
    gst_ctf_trace_source_set_stream_range (self->src, i,
        sc && gst_ctf_trace_dat_is_side_stream_class (sc) ? 0 :
        gst_ctf_trace_source_find_packet_ending_at_or_after (s,
            self->isect_begin ? MAX (start, self->isect_begin[st->trace]) :
            start), st->end_cursor);
  }
  return TRUE;
}

static gboolean
gst_ctf_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstCtfSrc *self = GST_CTF_SRC (bsrc);

  if (gst_ctf_stream_time_query (&self->time, bsrc, self->td != NULL, query))
    return TRUE;
  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

/* Reports what the tracer lost between the previous packet of the stream
 * and @p: events_discarded increments and packet_seq_num gaps, as
 * babeltrace2's message iterator does (a first packet with a non-zero
 * counter reports that many; sequence gaps need a previous packet). */
static guint64
report_discarded (GstCtfSrc * self, const GstCtfStream * s, guint idx)
{
  const GstCtfIndexEntry *e =
      g_array_index (s->packets, GstCtfStreamPacket, idx).entry;
  const GstCtfIndexEntry *prev = idx > 0 ?
      g_array_index (s->packets, GstCtfStreamPacket, idx - 1).entry : NULL;
  guint64 ev = 0, pk = 0;

  if (e->flags & GST_CTF_INDEX_ENTRY_HAS_EVENTS_DISCARDED) {
    guint64 before = 0;

    if (prev && (prev->flags & GST_CTF_INDEX_ENTRY_HAS_EVENTS_DISCARDED))
      before = prev->events_discarded;
    if (e->events_discarded > before)
      ev = e->events_discarded - before;
  }
  if (prev && (e->flags & GST_CTF_INDEX_ENTRY_HAS_PACKET_SEQ_NUM) &&
      (prev->flags & GST_CTF_INDEX_ENTRY_HAS_PACKET_SEQ_NUM) &&
      e->packet_seq_num > prev->packet_seq_num + 1)
    pk = e->packet_seq_num - prev->packet_seq_num - 1;

  if (ev > 0) {
    GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, FAILED,
        ("Tracer discarded %" G_GUINT64_FORMAT " events before the packet "
            "at offset %" G_GUINT64_FORMAT " of stream \"%s\" (stream class "
            "ID: %" G_GUINT64_FORMAT ", stream ID: %" G_GUINT64_FORMAT ")",
            ev, e->offset, s->name, s->stream_class_id, s->bt_stream_id),
        (NULL), ("discarded-events", G_TYPE_UINT64, ev,
            "stream-name", G_TYPE_STRING, s->name,
            "stream-class-id", G_TYPE_UINT64, s->stream_class_id,
            "stream-id", G_TYPE_UINT64, s->bt_stream_id, NULL));
  }
  if (pk > 0) {
    GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, FAILED,
        ("Tracer discarded %" G_GUINT64_FORMAT " packets before the packet "
            "at offset %" G_GUINT64_FORMAT " of stream \"%s\" (stream class "
            "ID: %" G_GUINT64_FORMAT ", stream ID: %" G_GUINT64_FORMAT ")",
            pk, e->offset, s->name, s->stream_class_id, s->bt_stream_id),
        (NULL), ("discarded-packets", G_TYPE_UINT64, pk,
            "stream-name", G_TYPE_STRING, s->name,
            "stream-class-id", G_TYPE_UINT64, s->stream_class_id,
            "stream-id", G_TYPE_UINT64, s->bt_stream_id, NULL));
  }
  GST_OBJECT_LOCK (self);
  self->discarded_events += ev;
  self->discarded_packets += pk;
  GST_OBJECT_UNLOCK (self);
  return ev;
}

/* What a pushed packet's memory keeps: the file mapping and the packet's
 * place in it. */
typedef struct {
  GMappedFile *mapped;
  const guint8 *data;
  gsize size;
} PacketMapping;

/* When downstream is done with a packet, its whole pages leave our
 * resident set (MADV_DONTNEED on a read-only private file mapping drops
 * the page table entries; the data stays in the page cache and a later
 * read faults it back unchanged).  Without this the resident set grows
 * with the trace: every page of every stream file stays mapped in. */
static void
packet_mapping_free (gpointer data)
{
  PacketMapping *pm = data;
#if defined(G_OS_UNIX) && defined(MADV_DONTNEED)
  static gsize page_size = 0;
  guintptr begin, end;

  if (page_size == 0)
    page_size = (gsize) sysconf (_SC_PAGESIZE);
  begin = ((guintptr) pm->data + page_size - 1) & ~(guintptr) (page_size - 1);
  end = ((guintptr) pm->data + pm->size) & ~(guintptr) (page_size - 1);
  if (end > begin)
    madvise ((void *) begin, end - begin, MADV_DONTNEED);
#endif
  g_mapped_file_unref (pm->mapped);
  g_slice_free (PacketMapping, pm);
}

static GstFlowReturn
gst_ctf_src_create (GstBaseSrc * bsrc, guint64 offset, guint size,
    GstBuffer ** out)
{
  GstCtfSrc *self = GST_CTF_SRC (bsrc);
  GstSegment *segment = &bsrc->segment;
  const GstCtfStream *s;
  const GstCtfStreamPacket *p;
  const GstCtfIndexEntry *e;
  StreamState *st;
  GstBuffer *buf;
  GstMemory *mem;
  GstCtfPacketMeta *meta;
  GstCtfSourceSlot slot;
  GError *stream_err = NULL;
  gint r;

  if (self->td == NULL)
    return GST_FLOW_FLUSHING;

again:
  /* the next packet in time order over all streams, or the error of a
   * corrupt stream file at its place (the library's order) */
  r = gst_ctf_trace_source_next_packet (self->src, &slot, &stream_err);
  if (r == 0) {
    GST_DEBUG_OBJECT (self, "all streams done");
    return GST_FLOW_EOS;
  }
  st = &self->states[slot.stream];
  s = st->stream;
  if (r < 0) {
    post_gerror (self, stream_err, FALSE);
    g_error_free (stream_err);
    return GST_FLOW_ERROR;
  }

  p = slot.packet;
  e = p->entry;

  /* Past the segment's stop: nothing more to push (packets are in
   * timestamp_begin order). */
  if (GST_CLOCK_TIME_IS_VALID (segment->stop) &&
      (e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN) &&
      shifted (self, e->timestamp_begin_ns) >= 0 &&
      (guint64) shifted (self, e->timestamp_begin_ns) > segment->stop) {
    GST_DEBUG_OBJECT (self, "past segment stop");
    return GST_FLOW_EOS;
  }

  if (self->merge) {
    /* Several traces: the header rewritten to name the merged stream
     * class and trace (CTF 1.8 §5.1), then the rest of the packet from
     * the file mapping, not copied (or a re-encoded packet). */
    GError *err = NULL;
    gsize n_replaced, packet_bytes;
    GBytes *head = gst_ctf_trace_merge_rewrite_packet_head (self->merge,
        st->trace, p->file->data + e->offset, e->packet_size,
        s->bt_stream_id, NULL, &n_replaced, &packet_bytes, &err);
    gsize n;
    gconstpointer d;

    if (head == NULL) {
      post_gerror (self, err, FALSE);
      g_error_free (err);
      return GST_FLOW_ERROR;
    }
    buf = gst_buffer_new ();
    d = g_bytes_get_data (head, &n);
    if (n > 0)
      gst_buffer_append_memory (buf,
          gst_memory_new_wrapped (GST_MEMORY_FLAG_READONLY, (gpointer) d, n,
              0, n, g_bytes_ref (head), (GDestroyNotify) g_bytes_unref));
    g_bytes_unref (head);
    if (n_replaced < packet_bytes) {
      PacketMapping *pm = g_slice_new (PacketMapping);

      pm->mapped = g_mapped_file_ref (p->file->mapped);
      pm->data = p->file->data + e->offset;
      pm->size = e->packet_size;
      gst_buffer_append_memory (buf,
          gst_memory_new_wrapped (GST_MEMORY_FLAG_READONLY,
              (gpointer) p->file->data, p->file->size, e->offset + n_replaced,
              packet_bytes - n_replaced, pm, packet_mapping_free));
    }
  } else {
    /* Zero copy: the memory wraps the file mapping and keeps it alive. */
    PacketMapping *pm = g_slice_new (PacketMapping);

    pm->mapped = g_mapped_file_ref (p->file->mapped);
    pm->data = p->file->data + e->offset;
    pm->size = e->packet_size;
    mem = gst_memory_new_wrapped (GST_MEMORY_FLAG_READONLY,
        (gpointer) p->file->data, p->file->size, e->offset, e->packet_size,
        pm, packet_mapping_free);
    buf = gst_buffer_new ();
    gst_buffer_append_memory (buf, mem);
  }

  if ((e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN) &&
      shifted (self, e->timestamp_begin_ns) >= 0) {
    GST_BUFFER_PTS (buf) = shifted (self, e->timestamp_begin_ns);
    if ((e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END) &&
        e->timestamp_end_ns >= e->timestamp_begin_ns)
      GST_BUFFER_DURATION (buf) = e->timestamp_end_ns - e->timestamp_begin_ns;
  }
  GST_BUFFER_OFFSET (buf) = e->offset;
  GST_BUFFER_OFFSET_END (buf) = e->offset + e->packet_size;

  meta = gst_buffer_add_ctf_packet_meta (buf);
  meta->stream_class_id = st->new_sc_id;
  meta->stream_instance_id =
      (e->flags & GST_CTF_INDEX_ENTRY_HAS_STREAM_INSTANCE_ID) ?
      e->stream_instance_id : G_MAXUINT64;
  /* (several traces: `traceI_NAME`, file names may clash) */
  meta->stream_name = gst_ctf_trace_source_stream_name (self->src,
      slot.stream, p);
  meta->stream_index = st->rank;
  meta->offset = (gint64) e->offset;
  if (st->file != p->file) {
    st->file = p->file;
    st->file_path = g_intern_string (p->file->path);
  }
  meta->file_path = st->file_path;
  meta->stream_id = s->bt_stream_id;

  if (self->cutters) {
    /* stream-intersection: a packet across the range's bounds is written
     * again with its events in the range, or dropped */
    GstBuffer *cut = NULL;
    GError *err = NULL;
    guint idx = slot.index;

    if (gst_ctf_time_filter_cut (self->cutters[st->trace], buf, &cut,
            &err) != GST_FLOW_OK) {
      gst_buffer_unref (buf);
      g_prefix_error (&err, "file=\"%s\", offset=%" G_GUINT64_FORMAT ": ",
          p->file->path, e->offset);
      post_gerror (self, err, FALSE);
      g_error_free (err);
      return GST_FLOW_ERROR;
    }
    gst_buffer_unref (buf);
    if (cut == NULL) {
      GST_LOG_OBJECT (self, "packet %s@%" G_GUINT64_FORMAT " is outside the "
          "stream intersection", p->file->name, e->offset);
      goto again;
    }
    buf = cut;
    meta = gst_buffer_get_ctf_packet_meta (buf);
    if (meta)
      meta->events_discarded_delta = report_discarded (self, s, idx);
  } else {
    meta->events_discarded_delta = report_discarded (self, s, slot.index);
  }

  GST_OBJECT_LOCK (self);
  self->packets++;
  self->bytes += e->packet_size;
  GST_OBJECT_UNLOCK (self);

  GST_LOG_OBJECT (self, "packet %s@%" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
      " bytes) pts %" GST_TIME_FORMAT, p->file->name, e->offset,
      e->packet_size, GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
  *out = buf;
  return GST_FLOW_OK;
}
