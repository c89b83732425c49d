/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-lttnglivesrc
 * @title: lttnglivesrc
 * @short_description: follows an LTTng session live through lttng-relayd
 *
 * Connects to the viewer port of an LTTng relay daemon (`lttng-relayd`),
 * attaches to every relay session of the traced host and session name
 * given in #GstLttngLiveSrc:url (one per tracing domain and bitness, as
 * babeltrace2's `src.ctf.lttng-live` does) and pushes the packets of the
 * session's streams as they arrive: one buffer per CTF packet, byte for
 * byte, as `ctfsrc` pushes them.  A session of several traces (kernel and
 * user space, per-PID buffers: a trace per process, appearing while the
 * session runs) is merged as `ctfsrc` merges several traces; the caps
 * change when a trace joins.
 *
 * The caps are `application/x-ctf` with the trace's metadata as plain text
 * (the relay's packetized metadata de-packetized, complete packets only);
 * when the tracer adds metadata (new event classes), new caps precede the
 * first packet that needs it.  Buffer PTS is the packet's
 * `timestamp_begin` in ns (since the Unix epoch when the clock's origin
 * is), DURATION its length; each buffer carries a #GstCtfPacketMeta.
 *
 * Packets are pushed in `timestamp_begin` order across streams: a packet
 * leaves only when every other stream has a packet index or an inactivity
 * beacon at or after its begin.  While a stream has nothing yet (the relay
 * answers RETRY) the others wait, as in babeltrace2; when nothing can be
 * pushed but the streams' inactivity beacons moved on, a GAP event up to
 * the lowest of them lets downstream elements (`ctfmux`) advance.
 *
 * The element is live (`is-live`), in TIME; the LATENCY query answers
 * live with min = the session's live timer + #GstLttngLiveSrc:poll-interval.
 * Seeks are refused.  End-of-stream comes when the session is destroyed
 * and every stream hung up, whatever #GstLttngLiveSrc:session-not-found
 * says (it applies to a session the relay does not list when the element
 * connects).
 *
 * The viewer protocol has no authentication: keep the relay's viewer port
 * on loopback or a trusted network.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 lttnglivesrc url=net://localhost/host/myhost/my-session ! ctftextsink
 * ]| Prints the events of a running session as babeltrace2 prints them.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstlttnglivesrc.h"
#include "gstctf-source-clock.h"

#include "gstctf-live-follower.h"
#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"
#include "gstctf-element-util.h"

GST_DEBUG_CATEGORY_STATIC (gst_lttng_live_src_debug);
#define GST_CAT_DEFAULT gst_lttng_live_src_debug

#define DEFAULT_SEEK GST_LTTNG_LIVE_SEEK_BEGINNING
#define DEFAULT_NOT_FOUND GST_LTTNG_LIVE_NOT_FOUND_WAIT
#define DEFAULT_POLL_INTERVAL 100
#define DEFAULT_TIMEOUT 10000

enum
{
  PROP_0,
  PROP_URL,
  PROP_SEEK,
  PROP_SESSION_NOT_FOUND,
  PROP_POLL_INTERVAL,
  PROP_TIMEOUT,
  PROP_CLOCK_FIRST,             /* the GST_CTF_SOURCE_CLOCK_N_PROPS next */
};

#define NS_PER_S G_GINT64_CONSTANT (1000000000)

struct _GstLttngLiveSrc
{
  GstPushSrc parent;

  /* properties, object lock */
  gchar *url;
  GstLttngLiveSeek seek;
  GstLttngLiveNotFound not_found;
  guint poll_interval;
  guint timeout;
  GstCtfSourceClock clock_props;
  /* what the clock options add to times (PTS, GAP events); the
   * position and the index keep the unmoved times */
  gint64 shift_ns;

  /* sleeping between polls, interrupted by unlock() */
  GMutex lock;
  GCond cond;
  gboolean unlocked;
  /* cancels socket I/O when going to READY */
  GCancellable *cancel;

  /* streaming thread */
  gchar *url_used;              /* the URL started with */
  GstCtfLiveFollower *follower;
  guint32 live_timer;           /* µs, object lock */
  GstCaps *caps;                /* object lock */
  gboolean pushed;
};

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

#define gst_lttng_live_src_parent_class parent_class
G_DEFINE_TYPE (GstLttngLiveSrc, gst_lttng_live_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (lttnglivesrc, "lttnglivesrc",
    GST_RANK_NONE, GST_TYPE_LTTNG_LIVE_SRC,
    GST_DEBUG_CATEGORY_INIT (gst_lttng_live_src_debug, "lttnglivesrc", 0,
        "LTTng live source"));

static GType
seek_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_LTTNG_LIVE_SEEK_BEGINNING, "From the oldest data the relay has",
        "beginning"},
    {GST_LTTNG_LIVE_SEEK_LAST, "From the packets the relay receives next",
        "last"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstLttngLiveSeek",
            values));
  return type;
}

static GType
not_found_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_LTTNG_LIVE_NOT_FOUND_WAIT, "Wait for the session to appear",
        "wait"},
    {GST_LTTNG_LIVE_NOT_FOUND_END, "End-of-stream", "end"},
    {GST_LTTNG_LIVE_NOT_FOUND_ERROR, "Element error", "error"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstLttngLiveNotFound", values));
  return type;
}

static void
gst_lttng_live_src_init (GstLttngLiveSrc * self)
{
  self->seek = DEFAULT_SEEK;
  self->not_found = DEFAULT_NOT_FOUND;
  self->poll_interval = DEFAULT_POLL_INTERVAL;
  self->timeout = DEFAULT_TIMEOUT;
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->cancel = g_cancellable_new ();
  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

static void
gst_lttng_live_src_finalize (GObject * object)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (object);

  g_free (self->url);
  g_free (self->url_used);
  gst_ctf_live_follower_free (self->follower);
  gst_ctf_source_clock_clear (&self->clock_props);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_object_unref (self->cancel);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_lttng_live_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_URL:
      g_free (self->url);
      self->url = g_value_dup_string (value);
      break;
    case PROP_SEEK:
      self->seek = g_value_get_enum (value);
      break;
    case PROP_SESSION_NOT_FOUND:
      self->not_found = g_value_get_enum (value);
      break;
    case PROP_POLL_INTERVAL:
      self->poll_interval = g_value_get_uint (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
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
gst_lttng_live_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_URL:
      g_value_set_string (value, self->url);
      break;
    case PROP_SEEK:
      g_value_set_enum (value, self->seek);
      break;
    case PROP_SESSION_NOT_FOUND:
      g_value_set_enum (value, self->not_found);
      break;
    case PROP_POLL_INTERVAL:
      g_value_set_uint (value, self->poll_interval);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
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

/* -- following (lib/live/gstctf-live-follower.c) -- */

/* Waits @ms or until unlock(); FALSE when unlocked. */
static gboolean
sleep_ms (GstLttngLiveSrc * self, guint ms)
{
  gint64 until = g_get_monotonic_time () + (gint64) ms * 1000;
  gboolean ok;

  g_mutex_lock (&self->lock);
  while (!self->unlocked && g_cond_wait_until (&self->cond, &self->lock,
          until));
  ok = !self->unlocked;
  g_mutex_unlock (&self->lock);
  return ok;
}

static gboolean
is_unlocked (GstLttngLiveSrc * self)
{
  gboolean u;

  g_mutex_lock (&self->lock);
  u = self->unlocked;
  g_mutex_unlock (&self->lock);
  return u;
}

static guint
poll_ms (GstLttngLiveSrc * self)
{
  guint v;

  GST_OBJECT_LOCK (self);
  v = self->poll_interval;
  GST_OBJECT_UNLOCK (self);
  return v;
}

/* Caps for the follower's new trace class: one trace's own metadata, or
 * the merge of several. */
static gboolean
update_caps (GstLttngLiveSrc * self, GError ** error)
{
  const GstCtfTraceClass *tc =
      gst_ctf_live_follower_get_trace_class (self->follower);
  GstCtfSourceClock clock = { 0, };
  GstCaps *caps;
  gboolean ok;

  caps = gst_ctf_caps_new (gst_ctf_live_follower_get_metadata
      (self->follower), tc->has_uuid ? tc->uuid : NULL);
  /* clock-offset, clock-offset-ns, force-clock-class-origin-unix-epoch,
   * trace-name: every metadata the session sends is moved alike */
  GST_OBJECT_LOCK (self);
  gst_ctf_source_clock_copy (&clock, &self->clock_props);
  GST_OBJECT_UNLOCK (self);
  self->shift_ns = gst_ctf_source_clock_shift_ns (&clock);
  ok = gst_ctf_source_clock_apply (&clock, &caps,
      gst_ctf_source_clock_hostname (tc), self->url_used, error);
  gst_ctf_source_clock_clear (&clock);
  if (!ok) {
    gst_caps_unref (caps);
    return FALSE;
  }
  GST_OBJECT_LOCK (self);
  gst_caps_replace (&self->caps, caps);
  GST_OBJECT_UNLOCK (self);
  ok = gst_base_src_set_caps (GST_BASE_SRC (self), caps);
  gst_caps_unref (caps);
  if (!ok)
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "Downstream refused the caps of the session's metadata");
  return ok;
}

/* The buffer of a packet the follower gave (its bytes taken). */
static GstBuffer *
make_buffer (GstLttngLiveSrc * self, GstCtfLiveFollowerPacket * p)
{
  GstBuffer *buf = gst_buffer_new_wrapped_bytes (p->bytes);
  GstCtfPacketMeta *meta;

  g_bytes_unref (p->bytes);
  GST_BUFFER_PTS (buf) = p->begin_ns >= 0 ? (GstClockTime) MAX (0,
      p->begin_ns + self->shift_ns) : GST_CLOCK_TIME_NONE;
  if (p->begin_ns >= 0 && p->end_ns >= p->begin_ns)
    GST_BUFFER_DURATION (buf) = p->end_ns - p->begin_ns;
  GST_BUFFER_OFFSET (buf) = p->offset;
  meta = gst_buffer_add_ctf_packet_meta (buf);
  meta->stream_class_id = p->stream_class_id;
  meta->stream_instance_id = p->has_stream_instance_id ?
      p->stream_instance_id : G_MAXUINT64;
  meta->stream_name = p->stream_name;
  meta->stream_index = p->has_stream_instance_id ?
      (guint) p->stream_instance_id : p->rank;
  meta->offset = (gint64) p->offset;
  meta->events_discarded_delta = p->events_discarded_delta;
  return buf;
}

static void
warn_late (GstLttngLiveSrc * self, const GstCtfLiveFollowerPacket * p)
{
  guint16 port;
  const gchar *relay = gst_ctf_live_follower_get_relay (self->follower,
      &port);

  GST_ELEMENT_WARNING (self, STREAM, FAILED,
      ("Stream %s from LTTng relay %s:%u joined late: its packet at %"
          G_GINT64_FORMAT ".%09" G_GINT64_FORMAT " s is older than what "
          "was already pushed (up to %" G_GINT64_FORMAT ".%09"
          G_GINT64_FORMAT " s, from the clock's origin); its events "
          "before that come out of time order (babeltrace2 stops with "
          "an error here).", p->stream_name, relay, port,
          p->begin_ns / NS_PER_S, p->begin_ns % NS_PER_S,
          p->position / NS_PER_S, p->position % NS_PER_S), (NULL));
}

static GstFlowReturn
gst_lttng_live_src_create (GstPushSrc * psrc, GstBuffer ** out)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (psrc);
  GError *err = NULL;

  for (;;) {
    GstCtfLiveFollowerPacket packet;
    GstCtfLiveFollowerAdvance adv;
    GstCtfLiveFollowerItem item;

    if (is_unlocked (self))
      return GST_FLOW_FLUSHING;
    item = gst_ctf_live_follower_step (self->follower, &packet, &adv, &err);
    GST_OBJECT_LOCK (self);
    self->live_timer = gst_ctf_live_follower_get_live_timer (self->follower);
    GST_OBJECT_UNLOCK (self);
    switch (item) {
      case GST_CTF_LIVE_FOLLOWER_PACKET:
        if (packet.late)
          warn_late (self, &packet);
        *out = make_buffer (self, &packet);
        self->pushed = TRUE;
        return GST_FLOW_OK;
      case GST_CTF_LIVE_FOLLOWER_METADATA:
        if (!update_caps (self, &err))
          goto error;
        break;
      case GST_CTF_LIVE_FOLLOWER_ADVANCE:
        /* let downstream advance to the lowest known time */
        GST_DEBUG_OBJECT (self, "gap to %" G_GINT64_FORMAT, adv.to_ns);
        gst_pad_push_event (GST_BASE_SRC_PAD (self),
            gst_event_new_gap (MAX (0, adv.from_ns + self->shift_ns),
                adv.to_ns - adv.from_ns));
        break;
      case GST_CTF_LIVE_FOLLOWER_AGAIN:
        break;
      case GST_CTF_LIVE_FOLLOWER_WAIT:
        if (!sleep_ms (self, poll_ms (self)))
          return GST_FLOW_FLUSHING;
        break;
      case GST_CTF_LIVE_FOLLOWER_END:
        GST_INFO_OBJECT (self, "session over: end-of-stream");
        return GST_FLOW_EOS;
      case GST_CTF_LIVE_FOLLOWER_ERROR:
        goto error;
    }
  }

error:
  if (g_cancellable_is_cancelled (self->cancel)) {
    g_clear_error (&err);
    return GST_FLOW_FLUSHING;
  }
  if (self->pushed)
    gst_pad_push_event (GST_BASE_SRC_PAD (self),
        gst_ctf_event_new_truncated (err->message));
  GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", err->message),
      ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
          err->code));
  g_error_free (err);
  return GST_FLOW_ERROR;
}

static gboolean
gst_lttng_live_src_start (GstBaseSrc * bsrc)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (bsrc);
  GstCtfLiveSeek seek;
  GstCtfLiveNotFound not_found;
  guint timeout, poll;
  GError *err = NULL;

  GST_OBJECT_LOCK (self);
  g_free (self->url_used);
  self->url_used = g_strdup (self->url);
  seek = self->seek == GST_LTTNG_LIVE_SEEK_LAST ? GST_CTF_LIVE_SEEK_LAST :
      GST_CTF_LIVE_SEEK_BEGINNING;
  not_found = self->not_found == GST_LTTNG_LIVE_NOT_FOUND_END ?
      GST_CTF_LIVE_NOT_FOUND_END :
      self->not_found == GST_LTTNG_LIVE_NOT_FOUND_ERROR ?
      GST_CTF_LIVE_NOT_FOUND_ERROR : GST_CTF_LIVE_NOT_FOUND_WAIT;
  timeout = self->timeout;
  poll = self->poll_interval;
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&self->follower, gst_ctf_live_follower_free);
  g_cancellable_reset (self->cancel);
  self->follower = gst_ctf_live_follower_new (self->url_used, seek,
      not_found, timeout, poll, self->cancel, &err);
  if (self->follower == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", err->message),
        ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
            err->code));
    g_error_free (err);
    return FALSE;
  }
  self->pushed = FALSE;
  return TRUE;
}

static gboolean
gst_lttng_live_src_stop (GstBaseSrc * bsrc)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (bsrc);

  g_clear_pointer (&self->follower, gst_ctf_live_follower_free);
  GST_OBJECT_LOCK (self);
  gst_clear_caps (&self->caps);
  self->live_timer = 0;
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&self->url_used, g_free);
  return TRUE;
}

static gboolean
gst_lttng_live_src_unlock (GstBaseSrc * bsrc)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (bsrc);

  g_mutex_lock (&self->lock);
  self->unlocked = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_lttng_live_src_unlock_stop (GstBaseSrc * bsrc)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (bsrc);

  g_mutex_lock (&self->lock);
  self->unlocked = FALSE;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static GstStateChangeReturn
gst_lttng_live_src_change_state (GstElement * element,
    GstStateChange transition)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (element);

  /* going down: a request waiting for the relay ends now (the connection
   * is dropped in stop()) */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    g_cancellable_cancel (self->cancel);
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

static gboolean
gst_lttng_live_src_negotiate (GstBaseSrc * bsrc)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (bsrc);
  GstCaps *caps = NULL;
  gboolean ok = TRUE;

  /* the caps come from the metadata, set as soon as it is known */
  GST_OBJECT_LOCK (self);
  if (self->caps)
    caps = gst_caps_ref (self->caps);
  GST_OBJECT_UNLOCK (self);
  if (caps) {
    ok = gst_base_src_set_caps (bsrc, caps);
    gst_caps_unref (caps);
  }
  return ok;
}

static GstCaps *
gst_lttng_live_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  return gst_ctf_element_src_get_caps (bsrc,
      &GST_LTTNG_LIVE_SRC (bsrc)->caps, filter);
}

static gboolean
gst_lttng_live_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (bsrc);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstClockTime min;

    GST_OBJECT_LOCK (self);
    min = (GstClockTime) self->live_timer * GST_USECOND +
        (GstClockTime) self->poll_interval * GST_MSECOND;
    GST_OBJECT_UNLOCK (self);
    gst_query_set_latency (query, TRUE, min, GST_CLOCK_TIME_NONE);
    return TRUE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

static gboolean
gst_lttng_live_src_is_seekable (GstBaseSrc * bsrc)
{
  return FALSE;
}

static gboolean
gst_lttng_live_src_event (GstBaseSrc * bsrc, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEEK) {
    GST_WARNING_OBJECT (bsrc, "a live session cannot be seeked");
    return FALSE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->event (bsrc, event);
}

static void
gst_lttng_live_src_class_init (GstLttngLiveSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *pushsrc_class = GST_PUSH_SRC_CLASS (klass);

  gobject_class->finalize = gst_lttng_live_src_finalize;
  gobject_class->set_property = gst_lttng_live_src_set_property;
  gobject_class->get_property = gst_lttng_live_src_get_property;

  /**
   * GstLttngLiveSrc:url:
   *
   * `net://HOST[:PORT]/host/TRACER_HOST/SESSION` (babeltrace2's form; the
   * default port is 5344).
   */
  /* clock-offset, clock-offset-ns, force-clock-class-origin-unix-epoch,
   * trace-name (gstctf-source-clock.h) */
  gst_ctf_source_clock_install (gobject_class, PROP_CLOCK_FIRST);

  g_object_class_install_property (gobject_class, PROP_URL,
      g_param_spec_string ("url", "URL",
          "LTTng relay and session: net://HOST[:PORT]/host/TRACER_HOST/SESSION "
          "(default port 5344; the viewer protocol has no authentication: "
          "loopback or a trusted network only)", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstLttngLiveSrc:seek:
   *
   * Where reading starts when attaching.
   */
  g_object_class_install_property (gobject_class, PROP_SEEK,
      g_param_spec_enum ("seek", "Seek",
          "Where reading starts: the oldest data the relay has, or the "
          "packets it receives next", seek_get_type (), DEFAULT_SEEK,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstLttngLiveSrc:session-not-found:
   *
   * What to do when the relay does not list the session (yet) when the
   * element connects: `wait` lists again every
   * #GstLttngLiveSrc:poll-interval until it appears, `end` sends
   * end-of-stream, `error` posts an element error.  Once attached, the
   * session's destruction ends the stream with any value.
   */
  g_object_class_install_property (gobject_class, PROP_SESSION_NOT_FOUND,
      g_param_spec_enum ("session-not-found", "Session not found",
          "When the relay does not list the session (yet) at start: wait "
          "for it to appear, end-of-stream or error (babeltrace2's "
          "session-not-found-action).  With any value, the stream ends "
          "when the session being read is destroyed",
          not_found_get_type (), DEFAULT_NOT_FOUND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_POLL_INTERVAL,
      g_param_spec_uint ("poll-interval", "Poll interval",
          "Milliseconds between polls of the relay when it has nothing new",
          1, 60000, DEFAULT_POLL_INTERVAL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Milliseconds to wait for the relay to connect or reply before "
          "an error (0: forever)", 0, G_MAXUINT, DEFAULT_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "LTTng live source", "Source/Network",
      "Follows an LTTng tracing session live through lttng-relayd and "
      "pushes its CTF packets in time order", GST_CTF_ELEMENT_AUTHOR);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_lttng_live_src_change_state);

  basesrc_class->start = GST_DEBUG_FUNCPTR (gst_lttng_live_src_start);
  basesrc_class->stop = GST_DEBUG_FUNCPTR (gst_lttng_live_src_stop);
  basesrc_class->unlock = GST_DEBUG_FUNCPTR (gst_lttng_live_src_unlock);
  basesrc_class->unlock_stop =
      GST_DEBUG_FUNCPTR (gst_lttng_live_src_unlock_stop);
  basesrc_class->negotiate = GST_DEBUG_FUNCPTR (gst_lttng_live_src_negotiate);
  basesrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_lttng_live_src_get_caps);
  basesrc_class->query = GST_DEBUG_FUNCPTR (gst_lttng_live_src_query);
  basesrc_class->is_seekable =
      GST_DEBUG_FUNCPTR (gst_lttng_live_src_is_seekable);
  basesrc_class->event = GST_DEBUG_FUNCPTR (gst_lttng_live_src_event);
  pushsrc_class->create = GST_DEBUG_FUNCPTR (gst_lttng_live_src_create);

  gst_type_mark_as_plugin_api (seek_get_type (), 0);
  gst_type_mark_as_plugin_api (not_found_get_type (), 0);
}
