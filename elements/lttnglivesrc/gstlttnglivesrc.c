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

#include <string.h>

#include "gstctf-live.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"
#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"
#include "gstctf-element-util.h"
#include "gstctf-trace-merge.h"

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

typedef struct
{
  guint64 ctf_trace_id;
  guint64 metadata_stream;      /* G_MAXUINT64: not announced yet */
  GstCtfLiveMetadata *meta;
  gchar *text;
  GstCtfTraceClass *tc;
  gboolean need_metadata;
  gchar *name;                  /* the relay's path of the trace */
  gint input;                   /* in the merge, -1: not in it */
} LiveTrace;

#define NS_PER_S G_GINT64_CONSTANT (1000000000)

typedef struct
{
  guint64 id;
  LiveTrace *trace;
  const gchar *name;            /* interned channel name */
  guint rank;
  gboolean has_index;
  GstCtfLiveIndex index;
  gint64 begin_ns, end_ns;
  gint64 bound_ns;              /* nothing before it (G_MININT64: unknown) */
  gboolean hup;
  guint64 last_discarded;
  gboolean warned_late;         /* a packet older than the position went */
} LiveStream;

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
  gchar *relay_host, *tracer_host, *session;
  guint16 port;
  GstCtfLiveClient *client;
  GArray *session_ids;          /* guint64 */
  guint32 live_timer;           /* µs, object lock */
  GPtrArray *traces;            /* LiveTrace */
  GPtrArray *streams;           /* LiveStream (data streams) */
  gboolean want_new_streams;
  gint64 new_streams_at;        /* monotonic µs of the last GET_NEW_STREAMS */
  /* several traces: their merge, inputs in babeltrace2's trace order */
  GstCtfTraceMerge *merge;
  GstCaps *caps;                /* object lock */
  gint64 position;              /* last PTS or GAP end pushed, -1 */
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
live_trace_free (LiveTrace * t)
{
  gst_ctf_live_metadata_free (t->meta);
  g_free (t->text);
  g_free (t->name);
  if (t->tc)
    gst_ctf_trace_class_unref (t->tc);
  g_free (t);
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
  self->session_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->traces = g_ptr_array_new_with_free_func ((GDestroyNotify)
      live_trace_free);
  self->streams = g_ptr_array_new_with_free_func (g_free);
  self->position = -1;
  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

static void
gst_lttng_live_src_finalize (GObject * object)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (object);

  g_free (self->url);
  gst_ctf_source_clock_clear (&self->clock_props);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_object_unref (self->cancel);
  g_array_unref (self->session_ids);
  g_ptr_array_unref (self->traces);
  g_ptr_array_unref (self->streams);
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

/* -- connection state -- */

static void
drop_session (GstLttngLiveSrc * self)
{
  g_clear_pointer (&self->client, gst_ctf_live_client_free);
  g_array_set_size (self->session_ids, 0);
  g_clear_pointer (&self->merge, gst_ctf_trace_merge_free);
  g_ptr_array_set_size (self->streams, 0);
  g_ptr_array_set_size (self->traces, 0);
  self->want_new_streams = FALSE;
}

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

static LiveTrace *
trace_for (GstLttngLiveSrc * self, guint64 ctf_trace_id)
{
  LiveTrace *t;
  guint i;

  for (i = 0; i < self->traces->len; i++) {
    t = g_ptr_array_index (self->traces, i);
    if (t->ctf_trace_id == ctf_trace_id)
      return t;
  }
  t = g_new0 (LiveTrace, 1);
  t->ctf_trace_id = ctf_trace_id;
  t->metadata_stream = G_MAXUINT64;
  t->meta = gst_ctf_live_metadata_new ();
  t->need_metadata = TRUE;
  t->input = -1;
  g_ptr_array_add (self->traces, t);
  return t;
}

/* Adds the streams of an ATTACH_SESSION or GET_NEW_STREAMS reply. */
static gboolean
add_streams (GstLttngLiveSrc * self, GPtrArray * streams, GError ** error)
{
  guint i;

  for (i = 0; streams && i < streams->len; i++) {
    const GstCtfLiveStream *ls = g_ptr_array_index (streams, i);
    LiveTrace *t = trace_for (self, ls->ctf_trace_id);

    if (t->name == NULL)
      t->name = g_strdup (ls->path_name);
    if (ls->metadata) {
      t->metadata_stream = ls->id;
      t->need_metadata = TRUE;
    } else {
      LiveStream *s = g_new0 (LiveStream, 1);

      s->id = ls->id;
      s->trace = t;
      s->name = g_intern_string (ls->channel_name);
      s->rank = self->streams->len;
      s->bound_ns = G_MININT64;
      g_ptr_array_add (self->streams, s);
    }
    GST_INFO_OBJECT (self, "stream %" G_GUINT64_FORMAT " (%s/%s)%s", ls->id,
        ls->path_name, ls->channel_name, ls->metadata ? " metadata" : "");
  }
  return TRUE;
}

typedef enum
{
  STEP_OK,                      /* go on */
  STEP_WAIT,                    /* nothing now: sleep a poll interval */
  STEP_EOS,
  STEP_ERROR,
} Step;

/* Connects, lists, attaches to the sessions of the URL's host and name. */
static Step
attach (GstLttngLiveSrc * self, GError ** error)
{
  GstCtfLiveReply reply;
  GstLttngLiveSeek seek;
  GstLttngLiveNotFound not_found;
  guint timeout, i;
  guint32 timer = 0;

  GST_OBJECT_LOCK (self);
  seek = self->seek;
  not_found = self->not_found;
  timeout = self->timeout;
  GST_OBJECT_UNLOCK (self);

  if (self->client == NULL) {
    self->client = gst_ctf_live_client_connect (self->relay_host, self->port,
        timeout, self->cancel, error);
    if (self->client == NULL)
      return STEP_ERROR;
  }
  if (!gst_ctf_live_client_list_sessions (self->client, &reply, error))
    return STEP_ERROR;
  for (i = 0; i < reply.sessions->len; i++) {
    const GstCtfLiveSession *s = g_ptr_array_index (reply.sessions, i);

    if (strcmp (s->hostname, self->tracer_host) == 0 &&
        strcmp (s->session_name, self->session) == 0) {
      g_array_append_val (self->session_ids, s->id);
      timer = MAX (timer, s->live_timer);
    }
  }
  gst_ctf_live_reply_clear (&reply);
  if (self->session_ids->len == 0) {
    switch (not_found) {
      case GST_LTTNG_LIVE_NOT_FOUND_WAIT:
        return STEP_WAIT;
      case GST_LTTNG_LIVE_NOT_FOUND_END:
        return STEP_EOS;
      case GST_LTTNG_LIVE_NOT_FOUND_ERROR:
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "No session \"%s\" of host \"%s\" on LTTng relay %s:%u",
            self->session, self->tracer_host, self->relay_host, self->port);
        return STEP_ERROR;
    }
  }
  GST_OBJECT_LOCK (self);
  self->live_timer = timer;
  GST_OBJECT_UNLOCK (self);

  for (i = 0; i < self->session_ids->len; i++) {
    guint64 id = g_array_index (self->session_ids, guint64, i);
    const gchar *why = NULL;

    if (!gst_ctf_live_client_attach (self->client, id,
            seek == GST_LTTNG_LIVE_SEEK_LAST ? GST_CTF_LIVE_SEEK_LAST :
            GST_CTF_LIVE_SEEK_BEGINNING, &reply, error))
      return STEP_ERROR;
    switch (reply.status) {
      case GST_CTF_LIVE_ATTACH_OK:
        break;
      case GST_CTF_LIVE_ATTACH_ALREADY:
        why = "another viewer is attached to it";
        break;
      case GST_CTF_LIVE_ATTACH_NOT_LIVE:
        why = "it is not a live session (lttng create --live)";
        break;
      case GST_CTF_LIVE_ATTACH_UNK:
        why = "the relay no longer knows it";
        break;
      case GST_CTF_LIVE_ATTACH_SEEK_ERR:
        why = "the relay cannot seek in it";
        break;
      default:
        why = "the relay refused (unknown status)";
        break;
    }
    if (why) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "Cannot attach to session \"%s\" of host \"%s\" (relay session %"
          G_GUINT64_FORMAT ") on LTTng relay %s:%u: %s (status %u)",
          self->session, self->tracer_host, id, self->relay_host,
          self->port, why, reply.status);
      gst_ctf_live_reply_clear (&reply);
      return STEP_ERROR;
    }
    if (!add_streams (self, reply.streams, error)) {
      gst_ctf_live_reply_clear (&reply);
      return STEP_ERROR;
    }
    gst_ctf_live_reply_clear (&reply);
  }
  return STEP_OK;
}

static Step
get_new_streams (GstLttngLiveSrc * self, gboolean * all_hup, GError ** error)
{
  guint i, n_hup = 0;

  self->want_new_streams = FALSE;
  self->new_streams_at = g_get_monotonic_time ();
  for (i = 0; i < self->session_ids->len; i++) {
    GstCtfLiveReply reply;
    gboolean ok;

    if (!gst_ctf_live_client_get_new_streams (self->client,
            g_array_index (self->session_ids, guint64, i), &reply, error))
      return STEP_ERROR;
    switch (reply.status) {
      case GST_CTF_LIVE_NEW_STREAMS_OK:
        ok = add_streams (self, reply.streams, error);
        gst_ctf_live_reply_clear (&reply);
        if (!ok)
          return STEP_ERROR;
        break;
      case GST_CTF_LIVE_NEW_STREAMS_NO_NEW:
        break;
      case GST_CTF_LIVE_NEW_STREAMS_HUP:
        n_hup++;
        break;
      default:
        gst_ctf_live_reply_clear (&reply);
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "LTTng relay %s:%u: GET_NEW_STREAMS failed (status %u)",
            self->relay_host, self->port, reply.status);
        return STEP_ERROR;
    }
    gst_ctf_live_reply_clear (&reply);
  }
  if (all_hup)
    *all_hup = n_hup == self->session_ids->len;
  return STEP_OK;
}

static gint
compare_inputs (gconstpointer a, gconstpointer b)
{
  const LiveTrace *x = *(LiveTrace * const *) a;
  const LiveTrace *y = *(LiveTrace * const *) b;

  return gst_ctf_trace_merge_compare_traces (x->tc, x->name, y->tc, y->name);
}

/* Caps for the traces whose metadata is known: one trace's own metadata,
 * or the merge of several (rebuilt when a trace joins or its metadata
 * grows; the inputs in babeltrace2's trace order, as ctfsrc). */
static gboolean
update_caps (GstLttngLiveSrc * self, GError ** error)
{
  GPtrArray *inputs = g_ptr_array_new ();
  GstCtfTraceClass **tcs;
  const gchar **names;
  const GstCtfTraceClass *tc;
  const gchar *text;
  GstCaps *caps;
  guint i;
  gboolean ok = TRUE;

  for (i = 0; i < self->traces->len; i++) {
    LiveTrace *t = g_ptr_array_index (self->traces, i);

    t->input = -1;
    if (t->tc)
      g_ptr_array_add (inputs, t);
  }
  g_clear_pointer (&self->merge, gst_ctf_trace_merge_free);
  if (inputs->len == 0) {
    g_ptr_array_unref (inputs);
    return TRUE;
  }
  g_ptr_array_sort (inputs, compare_inputs);
  tcs = g_new0 (GstCtfTraceClass *, inputs->len);
  names = g_new0 (const gchar *, inputs->len);
  for (i = 0; i < inputs->len; i++) {
    LiveTrace *t = g_ptr_array_index (inputs, i);

    t->input = i;
    tcs[i] = t->tc;
    names[i] = t->name;
  }
  if (inputs->len == 1) {
    tc = tcs[0];
    text = ((LiveTrace *) g_ptr_array_index (inputs, 0))->text;
  } else {
    if (gst_ctf_trace_merge_check_clocks (tcs, names, inputs->len, error))
      self->merge = gst_ctf_trace_merge_new (tcs, names, inputs->len, error);
    ok = self->merge != NULL;
    if (ok) {
      tc = gst_ctf_trace_merge_get_trace_class (self->merge);
      text = gst_ctf_trace_merge_get_metadata (self->merge);
    }
  }
  g_free (tcs);
  g_free (names);
  GST_INFO_OBJECT (self, "%u trace(s) with metadata", inputs->len);
  g_ptr_array_unref (inputs);
  if (!ok)
    return FALSE;
  caps = gst_ctf_caps_new (text, tc->has_uuid ? tc->uuid : NULL);
  {
    /* clock-offset, clock-offset-ns, force-clock-class-origin-unix-epoch,
     * trace-name: every metadata the session sends is moved alike */
    GstCtfSourceClock clock = { 0, };

    GST_OBJECT_LOCK (self);
    gst_ctf_source_clock_copy (&clock, &self->clock_props);
    GST_OBJECT_UNLOCK (self);
    self->shift_ns = gst_ctf_source_clock_shift_ns (&clock);
    ok = gst_ctf_source_clock_apply (&clock, &caps,
        gst_ctf_source_clock_hostname (tc), self->url, error);
    gst_ctf_source_clock_clear (&clock);
    if (!ok) {
      gst_caps_unref (caps);
      return FALSE;
    }
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

/* Fetches metadata until NO_NEW; new caps when the complete text grew. */
static Step
fetch_metadata (GstLttngLiveSrc * self, LiveTrace * t, GError ** error)
{
  gchar *text;
  gchar origin[96];

  if (t->metadata_stream == G_MAXUINT64)
    return STEP_WAIT;
  for (;;) {
    GstCtfLiveReply reply;
    gsize len;
    const guint8 *d;

    if (!gst_ctf_live_client_get_metadata (self->client, t->metadata_stream,
            &reply, error))
      return STEP_ERROR;
    if (reply.status == GST_CTF_LIVE_METADATA_NO_NEW)
      break;
    if (reply.status != GST_CTF_LIVE_METADATA_OK) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s:%u: GET_METADATA failed (status %u)",
          self->relay_host, self->port, reply.status);
      gst_ctf_live_reply_clear (&reply);
      return STEP_ERROR;
    }
    d = g_bytes_get_data (reply.data, &len);
    if (len == 0) {
      /* the relay has metadata it cannot hand out yet: retry */
      gst_ctf_live_reply_clear (&reply);
      return STEP_WAIT;
    }
    gst_ctf_live_metadata_append (t->meta, d, len);
    gst_ctf_live_reply_clear (&reply);
  }
  g_snprintf (origin, sizeof origin, "relay %s:%u metadata", self->relay_host,
      self->port);
  text = gst_ctf_live_metadata_get_text (t->meta, origin, error);
  if (text == NULL)
    return (error && *error) ? STEP_ERROR : STEP_WAIT;
  if (t->text == NULL || strcmp (t->text, text) != 0) {
    GstCtfTraceClass *tc = gst_ctf_metadata_parse (text, origin, error);
  
    if (tc == NULL) {
      g_free (text);
      return STEP_ERROR;
    }
    if (t->tc)
      gst_ctf_trace_class_unref (t->tc);
    t->tc = tc;
    g_free (t->text);
    t->text = text;
    if (!update_caps (self, error))
      return STEP_ERROR;
  } else {
    g_free (text);
  }
  t->need_metadata = FALSE;
  return STEP_OK;
}

static gint64
cycles_to_ns (LiveTrace * t, guint64 sc_id, guint64 cycles)
{
  GstCtfStreamClass *sc = t->tc ?
      gst_ctf_trace_class_find_stream_class (t->tc, sc_id) : NULL;
  gint64 ns;

  if (sc && sc->default_clock &&
      gst_ctf_clock_class_cycles_to_ns_from_origin (sc->default_clock,
          cycles, &ns))
    return ns;
  return cycles > G_MAXINT64 ? G_MAXINT64 : (gint64) cycles;
}

static void
note_flags (GstLttngLiveSrc * self, LiveStream * s, guint32 flags)
{
  if (flags & GST_CTF_LIVE_FLAG_NEW_METADATA)
    s->trace->need_metadata = TRUE;
  if (flags & GST_CTF_LIVE_FLAG_NEW_STREAM)
    self->want_new_streams = TRUE;
}

/* GET_NEXT_INDEX for @s; *progress when something was learnt. */
static Step
poll_index (GstLttngLiveSrc * self, LiveStream * s, gboolean * progress,
    GError ** error)
{
  GstCtfLiveReply reply;
  gint64 ns;

  if (!gst_ctf_live_client_get_next_index (self->client, s->id, &reply,
          error))
    return STEP_ERROR;
  GST_LOG_OBJECT (self, "stream %" G_GUINT64_FORMAT " (%s): index status %u "
      "flags %u offset %" G_GUINT64_FORMAT " size %" G_GUINT64_FORMAT
      " end %" G_GUINT64_FORMAT, s->id, s->name, reply.status, reply.flags,
      reply.index.offset, reply.index.packet_size,
      reply.index.timestamp_end);
  note_flags (self, s, reply.flags);
  switch (reply.status) {
    case GST_CTF_LIVE_INDEX_OK:
      s->has_index = TRUE;
      s->index = reply.index;
      s->begin_ns = cycles_to_ns (s->trace, reply.index.stream_id,
          reply.index.timestamp_begin);
      s->end_ns = cycles_to_ns (s->trace, reply.index.stream_id,
          reply.index.timestamp_end);
      s->bound_ns = MAX (s->bound_ns, s->begin_ns);
      *progress = TRUE;
      break;
    case GST_CTF_LIVE_INDEX_INACTIVE:
      ns = cycles_to_ns (s->trace, reply.index.stream_id,
          reply.index.timestamp_end);
      if (ns > s->bound_ns) {
        s->bound_ns = ns;
        *progress = TRUE;
      }
      break;
    case GST_CTF_LIVE_INDEX_RETRY:
      break;
    case GST_CTF_LIVE_INDEX_HUP:
    case GST_CTF_LIVE_INDEX_EOF:
      s->hup = TRUE;
      *progress = TRUE;
      break;
    default:
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s:%u: GET_NEXT_INDEX of stream %s failed (status %u)",
          self->relay_host, self->port, s->name, reply.status);
      gst_ctf_live_reply_clear (&reply);
      return STEP_ERROR;
  }
  gst_ctf_live_reply_clear (&reply);
  return STEP_OK;
}

/* GET_PACKET for @s's index; *out the buffer, or NULL to retry later. */
static Step
fetch_packet (GstLttngLiveSrc * self, LiveStream * s, GstBuffer ** out,
    GError ** error)
{
  GstCtfLiveReply reply;
  guint32 len = (guint32) (s->index.packet_size / 8);
  GstCtfPacketInfo info;
  GstCtfPacketMeta *meta;
  GstBuffer *buf;
  gsize size;
  gconstpointer d;

  *out = NULL;
  if (!gst_ctf_live_client_get_packet (self->client, s->id, s->index.offset,
          len, &reply, error))
    return STEP_ERROR;
  note_flags (self, s, reply.flags);
  switch (reply.status) {
    case GST_CTF_LIVE_PACKET_OK:
      break;
    case GST_CTF_LIVE_PACKET_RETRY:
      return STEP_WAIT;
    case GST_CTF_LIVE_PACKET_EOF:
      s->hup = TRUE;
      s->has_index = FALSE;
      return STEP_OK;
    default:
      if (reply.flags & GST_CTF_LIVE_FLAG_NEW_METADATA)
        return STEP_OK;         /* fetch it first, then ask again */
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s:%u: GET_PACKET of stream %s at offset %"
          G_GUINT64_FORMAT " failed (status %u)", self->relay_host,
          self->port, s->name, s->index.offset, reply.status);
      gst_ctf_live_reply_clear (&reply);
      return STEP_ERROR;
  }
  d = g_bytes_get_data (reply.data, &size);
  if (!gst_ctf_packet_read_info (s->trace->tc, d, size, &info, error)) {
    g_prefix_error (error, "Packet of stream %s at offset %" G_GUINT64_FORMAT
        " from LTTng relay %s:%u: ", s->name, s->index.offset,
        self->relay_host, self->port);
    gst_ctf_live_reply_clear (&reply);
    return STEP_ERROR;
  }
  if (self->merge) {
    guint64 new_sc;
    GBytes *b = gst_ctf_trace_merge_rewrite_packet (self->merge,
        (guint) s->trace->input, d, size, s->rank, &new_sc, error);

    if (b == NULL) {
      g_prefix_error (error, "Packet of stream %s at offset %"
          G_GUINT64_FORMAT " from LTTng relay %s:%u: ", s->name,
          s->index.offset, self->relay_host, self->port);
      gst_ctf_live_reply_clear (&reply);
      return STEP_ERROR;
    }
    buf = gst_buffer_new_wrapped_bytes (b);
    g_bytes_unref (b);
    info.stream_class_id = new_sc;
  } else {
    buf = gst_buffer_new_wrapped_bytes (reply.data);
  }
  gst_ctf_live_reply_clear (&reply);
  GST_BUFFER_PTS (buf) = s->begin_ns >= 0 ? (GstClockTime) MAX (0,
      s->begin_ns + self->shift_ns) : GST_CLOCK_TIME_NONE;
  if (s->begin_ns >= 0 && s->end_ns >= s->begin_ns)
    GST_BUFFER_DURATION (buf) = s->end_ns - s->begin_ns;
  GST_BUFFER_OFFSET (buf) = s->index.offset;
  meta = gst_buffer_add_ctf_packet_meta (buf);
  meta->stream_class_id = info.stream_class_id;
  meta->stream_instance_id = info.has_stream_instance_id ?
      info.stream_instance_id : G_MAXUINT64;
  meta->stream_name = s->name;
  meta->stream_index = info.has_stream_instance_id ?
      (guint) info.stream_instance_id : s->rank;
  meta->offset = (gint64) s->index.offset;
  if (s->index.events_discarded > s->last_discarded)
    meta->events_discarded_delta = s->index.events_discarded -
        s->last_discarded;
  s->last_discarded = s->index.events_discarded;
  s->has_index = FALSE;
  /* the stream's next packet begins where this one ended (LTTng takes
   * both at the same sub-buffer switch): with the other streams' beacons
   * past it, a GAP lets the sinks give back this packet's events before
   * the next one comes */
  if (s->end_ns > s->bound_ns)
    s->bound_ns = s->end_ns;
  *out = buf;
  return STEP_OK;
}

/* One round: metadata, new streams, indexes, then a packet if one may
 * leave.  *buf set when one does. */
static Step
round_once (GstLttngLiveSrc * self, GstBuffer ** buf, GError ** error)
{
  LiveStream *best = NULL;
  gboolean progress = FALSE, all_hup = TRUE;
  gint64 low = G_MAXINT64;
  guint i;
  Step st;

  *buf = NULL;
  if (self->session_ids->len == 0) {
    st = attach (self, error);
    if (st != STEP_OK)
      return st;
  }
  /* lttng-relayd 2.13 can miss the NEW_STREAM flag of per-PID traces:
   * ask every poll interval too */
  if (g_get_monotonic_time () - self->new_streams_at >=
      (gint64) poll_ms (self) * 1000)
    self->want_new_streams = TRUE;
  if (self->want_new_streams &&
      (st = get_new_streams (self, NULL, error)) != STEP_OK)
    return st;
  /* (streams first: a trace's metadata stream may come after its data
   * streams) */
  for (i = 0; i < self->traces->len; i++) {
    LiveTrace *t = g_ptr_array_index (self->traces, i);

    if (t->need_metadata && (st = fetch_metadata (self, t, error)) != STEP_OK)
      return st;
  }

  for (i = 0; i < self->streams->len; i++) {
    LiveStream *s = g_ptr_array_index (self->streams, i);

    /* (a trace whose metadata is not known yet waits: its times need
     * its clocks) */
    if (s->hup || s->has_index || s->trace->tc == NULL)
      continue;
    if ((st = poll_index (self, s, &progress, error)) != STEP_OK)
      return st;
  }
  /* what an index asked for comes before any packet */
  for (i = 0; i < self->traces->len; i++)
    if (((LiveTrace *) g_ptr_array_index (self->traces, i))->need_metadata)
      return STEP_OK;
  if (self->want_new_streams)
    return STEP_OK;

  for (i = 0; i < self->streams->len; i++) {
    LiveStream *s = g_ptr_array_index (self->streams, i);

    if (s->hup)
      continue;
    all_hup = FALSE;
    if (s->has_index && (best == NULL || s->begin_ns < best->begin_ns))
      best = s;
    low = MIN (low, s->has_index ? s->begin_ns : s->bound_ns);
  }
  if (best && low >= best->begin_ns) {
    if (self->pushed && best->begin_ns < self->position &&
        !best->warned_late) {
      /* a stream the relay announced after later packets (or GAP ends)
       * of the others went: it cannot be put back in order */
      best->warned_late = TRUE;
      GST_ELEMENT_WARNING (self, STREAM, FAILED,
          ("Stream %s from LTTng relay %s:%u joined late: its packet at %"
              G_GINT64_FORMAT ".%09" G_GINT64_FORMAT " s is older than what "
              "was already pushed (up to %" G_GINT64_FORMAT ".%09"
              G_GINT64_FORMAT " s, from the clock's origin); its events "
              "before that come out of time order (babeltrace2 stops with "
              "an error here).", best->name, self->relay_host, self->port,
              best->begin_ns / NS_PER_S, best->begin_ns % NS_PER_S,
              self->position / NS_PER_S, self->position % NS_PER_S),
          (NULL));
    }
    st = fetch_packet (self, best, buf, error);
    if (st != STEP_OK || *buf != NULL)
      return st;
    return STEP_OK;
  }
  if (all_hup) {
    gboolean destroyed = FALSE;

    if ((st = get_new_streams (self, &destroyed, error)) != STEP_OK)
      return st;
    /* the session we read was destroyed: its data is all out, whatever
     * session-not-found says (that applies before attaching only) */
    if (destroyed) {
      GST_INFO_OBJECT (self, "session destroyed: end-of-stream");
      return STEP_EOS;
    }
    return self->want_new_streams ? STEP_OK : STEP_WAIT;
  }
  /* blocked: let downstream advance to the lowest known time */
  if (self->pushed && low != G_MININT64 && low > self->position) {
    GstEvent *gap = gst_event_new_gap (MAX (0, self->position +
            self->shift_ns), low - self->position);

    GST_DEBUG_OBJECT (self, "gap to %" G_GINT64_FORMAT, low);
    self->position = low;
    gst_pad_push_event (GST_BASE_SRC_PAD (self), gap);
  }
  if (progress)
    return STEP_OK;
  /* idle: ask for streams the relay did not flag (relayd 2.13) */
  self->want_new_streams = TRUE;
  return STEP_WAIT;
}

static GstFlowReturn
gst_lttng_live_src_create (GstPushSrc * psrc, GstBuffer ** out)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (psrc);
  GError *err = NULL;

  for (;;) {
    GstBuffer *buf = NULL;
    Step st;

    if (is_unlocked (self))
      return GST_FLOW_FLUSHING;
    st = round_once (self, &buf, &err);
    switch (st) {
      case STEP_OK:
        if (buf) {
          if (GST_BUFFER_PTS_IS_VALID (buf) &&
              (gint64) GST_BUFFER_PTS (buf) - self->shift_ns > self->position)
            self->position = GST_BUFFER_PTS (buf) - self->shift_ns;
          self->pushed = TRUE;
          *out = buf;
          return GST_FLOW_OK;
        }
        break;
      case STEP_WAIT:
        if (!sleep_ms (self, poll_ms (self)))
          return GST_FLOW_FLUSHING;
        break;
      case STEP_EOS:
        return GST_FLOW_EOS;
      case STEP_ERROR:
        if (g_cancellable_is_cancelled (self->cancel)) {
          g_clear_error (&err);
          return GST_FLOW_FLUSHING;
        }
        if (self->pushed)
          gst_pad_push_event (GST_BASE_SRC_PAD (self),
              gst_ctf_event_new_truncated (err->message));
        GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", err->message),
            ("%s (%s, code %d)", err->message,
                g_quark_to_string (err->domain), err->code));
        g_error_free (err);
        return GST_FLOW_ERROR;
    }
  }
}

static gboolean
gst_lttng_live_src_start (GstBaseSrc * bsrc)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (bsrc);
  GError *err = NULL;
  gchar *url;

  GST_OBJECT_LOCK (self);
  url = g_strdup (self->url);
  GST_OBJECT_UNLOCK (self);
  g_free (self->relay_host);
  g_free (self->tracer_host);
  g_free (self->session);
  self->relay_host = self->tracer_host = self->session = NULL;
  if (!gst_ctf_live_parse_url (url, &self->relay_host, &self->port,
          &self->tracer_host, &self->session, &err) ||
      self->session == NULL) {
    if (err == NULL)
      g_set_error (&err, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng live URL \"%s\" names no session: expected "
          "net://HOST[:PORT]/host/TRACER_HOST/SESSION", url);
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", err->message),
        ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
            err->code));
    g_error_free (err);
    g_free (url);
    return FALSE;
  }
  g_free (url);
  g_cancellable_reset (self->cancel);
  self->position = -1;
  self->pushed = FALSE;
  return TRUE;
}

static gboolean
gst_lttng_live_src_stop (GstBaseSrc * bsrc)
{
  GstLttngLiveSrc *self = GST_LTTNG_LIVE_SRC (bsrc);

  drop_session (self);
  GST_OBJECT_LOCK (self);
  gst_clear_caps (&self->caps);
  self->live_timer = 0;
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&self->relay_host, g_free);
  g_clear_pointer (&self->tracer_host, g_free);
  g_clear_pointer (&self->session, g_free);
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
