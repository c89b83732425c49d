/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:tracer-ctftracer
 * @title: ctftracer
 * @short_description: records a GStreamer pipeline as a CTF trace
 *
 * A GstTracer that writes what the pipelines of the process do as a CTF
 * 1.8 trace (CTF 2 with `ctf-version=2`) in the directory `location`:
 * buffer flow (every pad push, pull and buffer list with PTS, DTS,
 * duration, offset, size and flags), per-element processing time
 * (`proctime`: from a buffer entering an element to the element pushing
 * it on, in the same thread), source-to-sink latency (`latency`, as the
 * core `latency` tracer), queue levels, state changes, bus messages,
 * pad and element names, thread CPU usage and per-pad rates every
 * `period`, and optionally the debug log.
 *
 * One stream per thread (`stream_N`, packet context `thread_id`), filled
 * without a shared lock and written by a writer thread; partly filled
 * packets are flushed every `flush-interval` and at exit, so a process
 * killed with SIGKILL leaves a trace readable up to its last flush.  When
 * a thread's packet buffers are all waiting for the writer, its events
 * are discarded and counted (`events_discarded`), never blocking the
 * pipeline.
 *
 * Parameters (`GST_TRACERS="ctftracer(location=DIR,flush-interval=500)"`):
 * `location` (default `ctftracer-PID`; must be empty or absent),
 * `overwrite` (replace a previous CTF trace there, as ctfsink),
 * `ctf-version` (1 or 2), `flush-interval` and `period` (ms, default
 * 1000), `packet-size` (bytes, 4096 to 16 MiB, default 65536; strings
 * longer than 512 bytes are cut), `buffers-per-thread`
 * (default 32), and the switches `buffers`, `latency`, `queue-levels`,
 * `states`, `messages`, `rusage`, `rates`, `events` (default on),
 * `queries`, `log` (default off).
 *
 * ## Example
 * |[
 * GST_TRACERS="ctftracer(location=/tmp/t)" gst-launch-1.0 videotestsrc num-buffers=100 ! videoconvert ! fakesink
 * gst-launch-1.0 ctfsrc location=/tmp/t ! ctftextsink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctftracer.h"
#include "gstctftracer-private.h"
#include "gstctfsink-private.h"
#include "gstctf-output-version.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <glib/gstdio.h>

GST_DEBUG_CATEGORY_STATIC (gst_ctf_tracer_debug);
#define GST_CAT_DEFAULT gst_ctf_tracer_debug

struct _GstCtfTracer
{
  GstTracer parent;
  Trace *trace;
};

G_DEFINE_TYPE (GstCtfTracer, gst_ctf_tracer, GST_TYPE_TRACER);

static GQuark pad_quark, element_quark, tag_quark;
static inline gboolean trace_ready (Trace * t);

/* The running trace (one per process), for the atexit() flush. */
static Trace *live_trace;
G_LOCK_DEFINE_STATIC (live_trace);

/* ---- object ids ---- */

static guint32
element_id (Trace * t, GstElement * e)
{
  guint32 id;

  if (e == NULL)
    return G_MAXUINT32;
  id = GPOINTER_TO_UINT (g_object_get_qdata (G_OBJECT (e), element_quark));
  if (G_LIKELY (id != 0))
    return id - 1;
  g_mutex_lock (&t->lock);
  id = t->next_element_id++;
  g_mutex_unlock (&t->lock);
  g_object_set_qdata (G_OBJECT (e), element_quark, GUINT_TO_POINTER (id + 1));
  return id;
}

static void
pad_finalized (gpointer data)
{
  PadInfo *pi = data;

  g_atomic_int_set (&pi->alive, 0);
}

static GstElement *
pad_element (GstPad * pad)
{
  GstObject *parent = GST_OBJECT_PARENT (pad);

  /* a ghost pad's internal proxy pad: its ghost pad's element */
  if (parent != NULL && GST_IS_PAD (parent))
    parent = GST_OBJECT_PARENT (parent);
  return parent != NULL && GST_IS_ELEMENT (parent) ?
      GST_ELEMENT_CAST (parent) : NULL;
}

static const gchar *
factory_name (GstElement * e)
{
  GstElementFactory *f = e != NULL ? gst_element_get_factory (e) : NULL;

  return f != NULL ? GST_OBJECT_NAME (f) : "";
}

/* With s->lock held: the pad's names, once, in the stream of the thread
 * that uses it first (at that time the element has its final name). */
static void
announce_pad (Stream * s, guint64 ts, PadInfo * pi)
{
  GstElement *e = pi->element;
  gchar *path = e != NULL ? gst_object_get_path_string (GST_OBJECT (e)) :
      g_strdup ("");
  guint8 *p;

  p = tracer_event_begin (s, EV_PAD_NEW, 7 + 4 * (TRACER_MAX_STRING + 1), ts);
  if (p != NULL) {
    pi->announced = TRUE;
    p = tracer_put_u16 (p, pi->id);
    p = tracer_put_u32 (p, pi->element_id);
    p = tracer_put_u8 (p, GST_PAD_DIRECTION (pi->pad));
    p = tracer_put_string (p, GST_OBJECT_NAME (pi->pad));
    p = tracer_put_string (p, e != NULL ? GST_OBJECT_NAME (e) : "");
    p = tracer_put_string (p, factory_name (e));
    p = tracer_put_string (p, path);
    tracer_event_end (s, p);
  }
  g_free (path);
}

/* Without s->lock (it may take Trace.lock). */
static G_NO_INLINE PadInfo *
pad_info_slow (Trace * t, Stream * s, GstPad * pad)
{
  PadInfo *pi = g_object_get_qdata (G_OBJECT (pad), pad_quark);

  if (pi == NULL) {
    GstElement *e = pad_element (pad);
    const gchar *f = factory_name (e);

    pi = g_new0 (PadInfo, 1);
    pi->pad = pad;
    pi->alive = 1;
    pi->element = e;
    pi->element_id = element_id (t, e);
    pi->element_is_source = e != NULL &&
        GST_OBJECT_FLAG_IS_SET (e, GST_ELEMENT_FLAG_SOURCE);
    pi->element_is_sink = e != NULL &&
        GST_OBJECT_FLAG_IS_SET (e, GST_ELEMENT_FLAG_SINK);
    pi->element_is_queue = !strcmp (f, "queue") || !strcmp (f, "queue2");
    pi->element_is_boundary = pi->element_is_queue ||
        !strcmp (f, "multiqueue") || (e != NULL &&
        g_type_is_a (G_OBJECT_TYPE (e), g_type_from_name ("GstAggregator")));
    g_mutex_lock (&t->lock);
    /* ids above 65534 share 65535 (the events' pad field is 16 bits) */
    pi->id = MIN (t->next_pad_id, G_MAXUINT16);
    t->next_pad_id++;
    g_ptr_array_add (t->pads, pi);
    g_mutex_unlock (&t->lock);
    g_object_set_qdata_full (G_OBJECT (pad), pad_quark, pi, pad_finalized);
  }
  s->cache[(GPOINTER_TO_SIZE (pad) >> 6) % G_N_ELEMENTS (s->cache)] = pi;
  return pi;
}

static inline PadInfo *
pad_info (Trace * t, Stream * s, GstPad * pad)
{
  PadInfo *pi = s->cache[(GPOINTER_TO_SIZE (pad) >> 6) %
      G_N_ELEMENTS (s->cache)];

  if (G_LIKELY (pi != NULL && pi->pad == pad && pi->alive))
    return pi;
  return pad_info_slow (t, s, pad);
}

/* ---- time: hooks get ns since gst_init(); the trace's clock is
 * CLOCK_MONOTONIC (the same clock), offset measured at the first hook ---- */

static gint64 hook_offset;
static gsize hook_offset_set;

static inline guint64
hook_time (GstClockTime ts)
{
  if (G_UNLIKELY (!g_atomic_pointer_get (&hook_offset_set))) {
    if (g_once_init_enter (&hook_offset_set)) {
      hook_offset = (gint64) tracer_now () - (gint64) ts;
      g_once_init_leave (&hook_offset_set, 1);
    }
  }
  return ts + hook_offset;
}

/* ---- latency tags: the hook time (ns since gst_init(), 48 bits: 78
 * hours) << 16 | source pad id, kept as buffer qdata (64-bit pointers
 * only) where a buffer changes thread; within a thread they follow the
 * push frames ---- */

static inline guint64
make_tag (GstClockTime hook_ts, guint16 pad)
{
  return ((hook_ts + 1) << 16) | pad;   /* never 0 */
}

/* ---- hooks ---- */

#define GST_CTF_TRACER_CAST(o) ((GstCtfTracer *) (o))
#define TRACE_OF(self) (GST_CTF_TRACER_CAST (self)->trace)
/* in a hook: return unless the trace records */
#define TRACE_OR_RETURN(var, self) \
  Trace *var = TRACE_OF (self); \
  if (G_UNLIKELY (!trace_ready (var))) \
    return

/* With s->lock held. */
static void
queue_level (Stream * s, guint64 now, PadInfo * qpi, const guint * lv,
    const guint64 * tm)
{
  guint8 *p = tracer_event_begin (s, EV_QUEUE_LEVEL, 36, now);

  if (p == NULL)
    return;
  p = tracer_put_u32 (p, qpi->element_id);
  p = tracer_put_u32 (p, lv[0]);
  p = tracer_put_u32 (p, lv[1]);
  p = tracer_put_u64 (p, tm[0]);
  p = tracer_put_u32 (p, lv[2]);
  p = tracer_put_u32 (p, lv[3]);
  p = tracer_put_u64 (p, tm[1]);
  tracer_event_end (s, p);
}

static void
read_queue_level (GstElement * q, guint * lv, guint64 * tm)
{
  g_object_get (q, "current-level-buffers", &lv[0],
      "current-level-bytes", &lv[1], "current-level-time", &tm[0],
      "max-size-buffers", &lv[2], "max-size-bytes", &lv[3],
      "max-size-time", &tm[1], NULL);
}

/* With s->lock held. */
static void
write_buffer (Stream * s, guint64 now, guint16 pad, GstBuffer * buf,
    gsize size)
{
  GstClockTime dur = GST_BUFFER_DURATION (buf);
  gboolean longdur = dur != GST_CLOCK_TIME_NONE && dur >= G_MAXUINT32;
  guint8 *p = tracer_event_begin (s, longdur ? EV_BUFFER_LONG : EV_BUFFER,
      40, now);

  if (G_UNLIKELY (p == NULL))
    return;
  p = tracer_put_u16 (p, pad);
  p = tracer_put_u16 (p, (GST_MINI_OBJECT_FLAGS (buf) >> 4) & 0xffff);
  p = tracer_put_u32 (p, (guint32) MIN (size, G_MAXUINT32));
  p = tracer_put_u64 (p, GST_BUFFER_PTS (buf));
  p = tracer_put_u64 (p, GST_BUFFER_DTS (buf));
  if (G_UNLIKELY (longdur))
    p = tracer_put_u64 (p, dur);
  else
    p = tracer_put_u32 (p, dur == GST_CLOCK_TIME_NONE ? G_MAXUINT32 : dur);
  p = tracer_put_u64 (p, GST_BUFFER_OFFSET (buf));
  tracer_event_end (s, p);
}

/* Before a push on @pad (a buffer, or @list with @buf NULL): processing
 * time of @pad's element when this thread is inside a push into it,
 * latency when the peer is a sink, the queue's level when either side is
 * a queue.  Pushes a frame that push_post() pops. */
static void
push_pre (Trace * t, GstClockTime hook_ts, GstPad * pad, GstBuffer * buf,
    GstBufferList * list)
{
  Stream *s = tracer_stream_get (t);
  PadInfo *pi = pad_info (t, s, pad);
  GstPad *peer = GST_PAD_PEER (pad);
  PadInfo *ppi = pi->peer_info;
  GstElement *e = pi->element;
  GstElement *into = ppi != NULL ? ppi->element : NULL;
  PushFrame *up = s->depth > 0 && s->depth <= TRACER_MAX_DEPTH ?
      &s->frames[s->depth - 1] : NULL;
  gboolean inside = up != NULL && e != NULL && up->into == e;
  guint64 now = hook_time (hook_ts);
  guint64 tag = 0;
  gboolean level_in = FALSE, level_out = FALSE;
  guint lv_in[4], lv_out[4];
  guint64 tm_in[2], tm_out[2];
  gsize size = 0;
  guint n = 0;
  guint8 *p;

  if (G_UNLIKELY (peer != pi->peer || (ppi != NULL && !ppi->alive))) {
    ppi = peer != NULL ? pad_info (t, s, peer) : NULL;
    pi->peer = peer;
    pi->peer_info = ppi;
    into = ppi != NULL ? ppi->element : NULL;
    inside = up != NULL && e != NULL && up->into == e;
  }
  if (t->s.latency && buf != NULL && GLIB_SIZEOF_VOID_P == 8) {
    if (inside)
      tag = up->tag;
    if (tag == 0 && pi->element_is_source) {
      tag = make_tag (hook_ts, pi->id);
      if (ppi != NULL && ppi->element_is_boundary)
        gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (buf), tag_quark,
            GSIZE_TO_POINTER (tag), NULL);
    } else if (tag == 0 && up == NULL) {
      /* the first push of a thread: the buffer crossed from another */
      tag = GPOINTER_TO_SIZE (gst_mini_object_get_qdata
          (GST_MINI_OBJECT_CAST (buf), tag_quark));
    } else if (tag != 0 && ppi != NULL && ppi->element_is_boundary) {
      gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (buf), tag_quark,
          GSIZE_TO_POINTER (tag), NULL);
    }
  }
  /* queue levels are read before taking the stream lock (g_object_get
   * takes the queue's lock) */
  if (t->s.queue_levels && ppi != NULL && ppi->element_is_queue) {
    read_queue_level (ppi->element, lv_in, tm_in);
    level_in = TRUE;
  }
  if (t->s.queue_levels && pi->element_is_queue) {
    read_queue_level (pi->element, lv_out, tm_out);
    level_out = TRUE;
  }
  if (buf != NULL) {
    size = gst_buffer_get_size (buf);
    n = 1;
  } else if (list != NULL) {
    size = gst_buffer_list_calculate_size (list);
    n = gst_buffer_list_length (list);
  }
  pi->buffers += n;
  pi->bytes += size;

  stream_lock (s);
  if (G_UNLIKELY (!pi->announced))
    announce_pad (s, now, pi);
  if (G_UNLIKELY (ppi != NULL && !ppi->announced))
    announce_pad (s, now, ppi);
  if (t->s.latency && inside) {
    p = tracer_event_begin (s, EV_PROCTIME, 12, now);
    if (p != NULL) {
      p = tracer_put_u32 (p, pi->element_id);
      p = tracer_put_u64 (p, now - up->t_enter);
      tracer_event_end (s, p);
    }
  }
  if (tag != 0 && ppi != NULL && ppi->element_is_sink) {
    guint64 t0 = (tag >> 16) - 1;

    p = tracer_event_begin (s, EV_LATENCY, 12, now);
    if (p != NULL) {
      p = tracer_put_u16 (p, tag & 0xffff);
      p = tracer_put_u16 (p, ppi->id);
      p = tracer_put_u64 (p, hook_ts > t0 ? hook_ts - t0 : 0);
      tracer_event_end (s, p);
    }
  }
  if (level_out)
    queue_level (s, now, pi, lv_out, tm_out);
  if (level_in)
    queue_level (s, now, ppi, lv_in, tm_in);
  if (t->s.buffers && buf != NULL) {
    write_buffer (s, now, pi->id, buf, size);
  } else if (t->s.buffers && list != NULL) {
    p = tracer_event_begin (s, EV_BUFFER_LIST, 14, now);
    if (p != NULL) {
      p = tracer_put_u16 (p, pi->id);
      p = tracer_put_u32 (p, n);
      p = tracer_put_u64 (p, size);
      tracer_event_end (s, p);
    }
  }
  stream_unlock (s);

  if (G_LIKELY (s->depth < TRACER_MAX_DEPTH)) {
    PushFrame *f = &s->frames[s->depth];

    f->pad = pad;
    f->info = pi;
    f->into = into;
    f->t_enter = now;
    f->tag = tag;
  }
  s->depth++;
}

static void
push_post (Trace * t, GstClockTime hook_ts, GstPad * pad, GstFlowReturn res)
{
  Stream *s = tracer_stream_get (t);
  PadInfo *pi;
  guint8 *p;

  if (s->depth > 0)
    s->depth--;
  if (G_LIKELY (s->depth < TRACER_MAX_DEPTH && s->frames[s->depth].pad == pad))
    pi = s->frames[s->depth].info;
  else
    pi = pad_info (t, s, pad);
  if (!t->s.buffers)
    return;
  stream_lock (s);
  p = tracer_event_begin (s, EV_PUSH_DONE, 3, hook_time (hook_ts));
  if (p != NULL) {
    p = tracer_put_u16 (p, pi->id);
    p = tracer_put_u8 (p, (guint8) (gint8) res);
    tracer_event_end (s, p);
  }
  stream_unlock (s);
}

static void
do_push_buffer_pre (GObject * self, GstClockTime ts, GstPad * pad,
    GstBuffer * buf)
{
  TRACE_OR_RETURN (t, self);
  push_pre (t, ts, pad, buf, NULL);
}

static void
do_push_buffer_post (GObject * self, GstClockTime ts, GstPad * pad,
    GstFlowReturn res)
{
  TRACE_OR_RETURN (t, self);
  push_post (t, ts, pad, res);
}

static void
do_push_list_pre (GObject * self, GstClockTime ts, GstPad * pad,
    GstBufferList * list)
{
  TRACE_OR_RETURN (t, self);
  push_pre (t, ts, pad, NULL, list);
}

static void
do_pull_range_post (GObject * self, GstClockTime ts, GstPad * pad,
    GstBuffer * buf, GstFlowReturn res)
{
  Trace *t = TRACE_OF (self);
  Stream *s;
  PadInfo *pi;
  guint64 now;
  gsize size;
  guint8 *p;

  if (G_UNLIKELY (!trace_ready (t)))
    return;
  s = tracer_stream_get (t);
  pi = pad_info (t, s, pad);
  now = hook_time (ts);
  size = buf != NULL ? gst_buffer_get_size (buf) : 0;
  if (buf != NULL) {
    pi->buffers++;
    pi->bytes += size;
  }
  stream_lock (s);
  if (G_UNLIKELY (!pi->announced))
    announce_pad (s, now, pi);
  p = tracer_event_begin (s, EV_PULL_RANGE, 23, now);
  if (p != NULL) {
    p = tracer_put_u16 (p, pi->id);
    p = tracer_put_u8 (p, (guint8) (gint8) res);
    p = tracer_put_u32 (p, (guint32) MIN (size, G_MAXUINT32));
    p = tracer_put_u64 (p, buf != NULL ? GST_BUFFER_PTS (buf) :
        GST_CLOCK_TIME_NONE);
    p = tracer_put_u64 (p, buf != NULL ? GST_BUFFER_OFFSET (buf) :
        GST_BUFFER_OFFSET_NONE);
    tracer_event_end (s, p);
  }
  stream_unlock (s);
}

static void
pad_type_event (Trace * t, GstClockTime ts, GstPad * pad, guint id,
    guint32 type)
{
  Stream *s = tracer_stream_get (t);
  PadInfo *pi = pad_info (t, s, pad);
  guint64 now = hook_time (ts);
  guint8 *p;

  stream_lock (s);
  if (G_UNLIKELY (!pi->announced))
    announce_pad (s, now, pi);
  p = tracer_event_begin (s, id, 6, now);
  if (p != NULL) {
    p = tracer_put_u16 (p, pi->id);
    p = tracer_put_u32 (p, type);
    tracer_event_end (s, p);
  }
  stream_unlock (s);
}

static void
do_push_event_pre (GObject * self, GstClockTime ts, GstPad * pad,
    GstEvent * ev)
{
  TRACE_OR_RETURN (t, self);
  pad_type_event (t, ts, pad, EV_EVENT, GST_EVENT_TYPE (ev));
}

static void
do_query_pre (GObject * self, GstClockTime ts, GstPad * pad, GstQuery * q)
{
  TRACE_OR_RETURN (t, self);
  pad_type_event (t, ts, pad, EV_QUERY, GST_QUERY_TYPE (q));
}

static void
do_element_new (GObject * self, GstClockTime ts, GstElement * e)
{
  Trace *t = TRACE_OF (self);
  Stream *s;
  guint32 id;
  guint8 *p;

  if (G_UNLIKELY (!trace_ready (t)))
    return;
  s = tracer_stream_get (t);
  id = element_id (t, e);
  stream_lock (s);
  p = tracer_event_begin (s, EV_ELEMENT_NEW,
      4 + 2 * (TRACER_MAX_STRING + 1), hook_time (ts));
  if (p != NULL) {
    p = tracer_put_u32 (p, id);
    p = tracer_put_string (p, GST_OBJECT_NAME (e));
    p = tracer_put_string (p, factory_name (e));
    tracer_event_end (s, p);
  }
  stream_unlock (s);
}

static void
do_change_state_post (GObject * self, GstClockTime ts, GstElement * e,
    GstStateChange change, GstStateChangeReturn res)
{
  Trace *t = TRACE_OF (self);
  Stream *s;
  guint32 id;
  guint8 *p;

  if (G_UNLIKELY (!trace_ready (t)))
    return;
  s = tracer_stream_get (t);
  id = element_id (t, e);
  stream_lock (s);
  p = tracer_event_begin (s, EV_STATE_CHANGE, 7, hook_time (ts));
  if (p != NULL) {
    p = tracer_put_u32 (p, id);
    p = tracer_put_u8 (p, GST_STATE_TRANSITION_CURRENT (change));
    p = tracer_put_u8 (p, GST_STATE_TRANSITION_NEXT (change));
    p = tracer_put_u8 (p, res);
    tracer_event_end (s, p);
  }
  stream_unlock (s);
}

static gchar *
message_details (GstMessage * msg)
{
  GError *err = NULL;
  gchar *dbg = NULL, *text;
  const GstStructure *st;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &dbg);
      break;
    case GST_MESSAGE_QOS:
    case GST_MESSAGE_LATENCY:
    case GST_MESSAGE_ELEMENT:
    case GST_MESSAGE_INFO:
    case GST_MESSAGE_STATE_CHANGED:
      st = gst_message_get_structure (msg);
      return st != NULL ? gst_structure_to_string (st) :
          g_strdup (GST_MESSAGE_TYPE_NAME (msg));
    default:
      /* never an empty string: babeltrace2 2.0.4 may print a stale value
       * for an empty string field */
      st = gst_message_get_structure (msg);
      return g_strdup (st != NULL ? gst_structure_get_name (st) :
          GST_MESSAGE_TYPE_NAME (msg));
  }
  text = g_strdup_printf ("%s (%s)", err != NULL ? err->message : "",
      dbg != NULL ? dbg : "");
  g_clear_error (&err);
  g_free (dbg);
  return text;
}

static void
do_post_message_pre (GObject * self, GstClockTime ts, GstElement * e,
    GstMessage * msg)
{
  Trace *t = TRACE_OF (self);
  Stream *s;
  guint32 id;
  gchar *details;
  guint8 *p;

  if (G_UNLIKELY (!trace_ready (t)))
    return;
  s = tracer_stream_get (t);
  id = element_id (t, e);
  details = message_details (msg);
  stream_lock (s);
  p = tracer_event_begin (s, EV_MESSAGE, 8 + TRACER_MAX_STRING + 1,
      hook_time (ts));
  if (p != NULL) {
    p = tracer_put_u32 (p, id);
    p = tracer_put_u32 (p, GST_MESSAGE_TYPE (msg));
    p = tracer_put_string (p, details);
    tracer_event_end (s, p);
  }
  stream_unlock (s);
  g_free (details);
}

static void
do_log (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  Trace *t = user_data;
  Stream *s;
  const gchar *text;
  const gchar *obj = "-";
  guint8 *p;

  if (level > gst_debug_category_get_threshold (cat) ||
      g_atomic_int_get (&t->stopped) || !trace_ready (t))
    return;
  s = tracer_stream_get (t);
  if (s->in_hook)
    return;
  s->in_hook = TRUE;
  text = gst_debug_message_get (message);
  if (object != NULL && GST_IS_OBJECT (object) &&
      GST_OBJECT_NAME (object) != NULL)
    obj = GST_OBJECT_NAME (object);
  stream_lock (s);
  p = tracer_event_begin (s, EV_LOG, 5 + 5 * (TRACER_MAX_STRING + 1),
      tracer_now ());
  if (p != NULL) {
    p = tracer_put_u8 (p, level);
    p = tracer_put_string (p, gst_debug_category_get_name (cat));
    p = tracer_put_string (p, obj);
    p = tracer_put_string (p, file);
    p = tracer_put_string (p, function);
    p = tracer_put_u32 (p, line);
    p = tracer_put_string (p, text);
    tracer_event_end (s, p);
  }
  stream_unlock (s);
  s->in_hook = FALSE;
}

/* ---- parameters and start ---- */

static gboolean
get_bool (const GstStructure * st, const gchar * name, gboolean def)
{
  gboolean v;

  return gst_structure_get_boolean (st, name, &v) ? v : def;
}

static guint
get_uint (const GstStructure * st, const gchar * name, guint def,
    guint min, guint max)
{
  gint v;
  guint u;

  if (gst_structure_get_uint (st, name, &u))
    return CLAMP (u, min, max);
  if (gst_structure_get_int (st, name, &v))
    return CLAMP ((guint) MAX (v, 0), min, max);
  return def;
}

/* FALSE when @params do not parse (then nothing is traced: a location
 * meant for the trace may be in them). */
static gboolean
parse_params (TracerSettings * set, const gchar * params)
{
  gchar *text = g_strdup_printf ("ctftracer,%s", params ? params : "");
  GstStructure *st = gst_structure_from_string (text, NULL);
  const gchar *loc;

  gboolean ok = st != NULL || params == NULL || *params == '\0';

  if (st == NULL)
    st = gst_structure_new_empty ("ctftracer");
  loc = gst_structure_get_string (st, "location");
  set->location = loc != NULL ? g_strdup (loc) :
      g_strdup_printf ("ctftracer-%d", (int) getpid ());
  set->overwrite = get_bool (st, "overwrite", FALSE);
  set->ctf_version = get_uint (st, "ctf-version", 1, 1, 2);
  set->buffers = get_bool (st, "buffers", TRUE);
  set->events = get_bool (st, "events", TRUE);
  set->queries = get_bool (st, "queries", FALSE);
  set->latency = get_bool (st, "latency", TRUE);
  set->queue_levels = get_bool (st, "queue-levels", TRUE);
  set->states = get_bool (st, "states", TRUE);
  set->messages = get_bool (st, "messages", TRUE);
  set->rusage = get_bool (st, "rusage", TRUE);
  set->rates = get_bool (st, "rates", TRUE);
  set->log = get_bool (st, "log", FALSE);
  set->flush_interval = get_uint (st, "flush-interval", 1000, 1, 3600000) *
      GST_MSECOND;
  set->period = get_uint (st, "period", 1000, 1, 3600000) * GST_MSECOND;
  set->packet_size = get_uint (st, "packet-size", 65536,
      TRACER_MIN_PACKET_SIZE, 1 << 24);
  set->buffers_per_thread = get_uint (st, "buffers-per-thread", 32, 1, 4096);
  set->writer_pause_ms = get_uint (st, "writer-pause", 0, 0, 10000);
  gst_structure_free (st);
  g_free (text);
  return ok;
}

/* `location` must be empty or absent, or (overwrite) hold only a previous
 * CTF trace, which is deleted: ctfsink's rules. */
static gchar *
prepare_directory (const TracerSettings * set)
{
  GstCtfSinkDirScan scan;
  GError *err = NULL;
  gchar *why = NULL, *list;

  if (g_mkdir_with_parents (set->location, 0755) != 0)
    return g_strdup_printf ("Cannot create directory \"%s\": %s",
        set->location, g_strerror (errno));
  if (!gst_ctf_sink_dir_scan (set->location, &scan, &err)) {
    why = g_strdup_printf ("Cannot read directory \"%s\": %s",
        set->location, err->message);
    g_error_free (err);
    return why;
  }
  if (scan.names == NULL)
    return NULL;
  list = gst_ctf_sink_dir_scan_describe (&scan);
  if (!set->overwrite)
    why = g_strdup_printf ("Directory \"%s\" is not empty: it holds %s; "
        "set overwrite=true to replace a previous trace", set->location,
        list);
  else if (scan.foreign != NULL)
    why = g_strdup_printf ("Directory \"%s\" holds \"%s\", which is not part "
        "of a CTF trace (%s); nothing was deleted", set->location,
        scan.foreign, scan.foreign_why);
  else if (!gst_ctf_sink_dir_remove (&scan, &err)) {
    why = g_strdup_printf ("Cannot replace the trace in \"%s\": %s",
        set->location, err->message);
    g_error_free (err);
  }
  g_free (list);
  gst_ctf_sink_dir_scan_clear (&scan);
  return why;
}

static gboolean
write_metadata (Trace * t)
{
  gchar *tsdl = tracer_metadata_tsdl (t), *text = tsdl;
  GError *err = NULL;
  gboolean ok;
  gchar *path;

  if (t->s.ctf_version == 2) {
    text = gst_ctf_output_version_convert (tsdl, GST_CTF_OUTPUT_VERSION_2,
        FALSE, &err);
    if (text == NULL) {
      t->error = g_strdup_printf ("Cannot write CTF 2 metadata: %s",
          err->message);
      g_error_free (err);
      g_free (tsdl);
      return FALSE;
    }
  }
  path = g_build_filename (t->s.location, "metadata", NULL);
  ok = g_file_set_contents (path, text, -1, &err);
  if (!ok) {
    t->error = g_strdup_printf ("Cannot write \"%s\": %s", path,
        err->message);
    g_error_free (err);
  }
  if (text != tsdl)
    g_free (text);
  g_free (tsdl);
  g_free (path);
  return ok;
}

static void
stop_at_exit (void)
{
  Trace *t;

  G_LOCK (live_trace);
  t = live_trace;
  G_UNLOCK (live_trace);
  if (t != NULL)
    tracer_writer_stop (t);
}

static Trace *
trace_new (const gchar * params)
{
  Trace *t = g_new0 (Trace, 1);
  guint i;

  if (!parse_params (&t->s, params))
    t->error = g_strdup_printf ("Cannot parse the parameters \"%s\" "
        "(expected NAME=VALUE,... as in a GstStructure)", params);
  g_mutex_init (&t->lock);
  t->streams = g_ptr_array_new ();
  t->pads = g_ptr_array_new ();
  t->dir_fd = -1;
  for (i = 0; i < 16; i++)
    t->uuid[i] = g_random_int_range (0, 256);
  t->uuid[6] = (t->uuid[6] & 0x0f) | 0x40;      /* RFC 4122 version 4 */
  t->uuid[8] = (t->uuid[8] & 0x3f) | 0x80;
  return t;
}

/* The directory, the metadata and the writer thread, at the first hook
 * call: a tracer object made only to be inspected (gst-inspect-1.0
 * ctftracer) writes nothing. */
static void
trace_open (Trace * t)
{
  static gboolean atexit_set;
  gint64 real, mono;

  mono = tracer_now ();
  real = g_get_real_time () * 1000;
  t->epoch_offset_ns = real - mono;

  if (t->error == NULL)
    t->error = prepare_directory (&t->s);
  if (t->error == NULL) {
    t->dir_fd = open (t->s.location, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (t->dir_fd < 0)
      t->error = g_strdup_printf ("Cannot open directory \"%s\": %s",
          t->s.location, g_strerror (errno));
  }
  if (t->error == NULL && !write_metadata (t))
    g_assert (t->error != NULL);
  if (t->error != NULL) {
    g_printerr ("ctftracer: %s; not tracing.\n", t->error);
    GST_ERROR ("%s", t->error);
    return;
  }
  GST_INFO ("tracing to %s", t->s.location);
  tracer_writer_start (t);
  G_LOCK (live_trace);
  if (live_trace == NULL)
    live_trace = t;
  G_UNLOCK (live_trace);
  if (!atexit_set) {
    atexit (stop_at_exit);
    atexit_set = TRUE;
  }
  g_atomic_int_set (&t->active, 1);
}

static G_NO_INLINE gboolean
trace_open_once (Trace * t)
{
  if (g_once_init_enter (&t->opened)) {
    trace_open (t);
    g_once_init_leave (&t->opened, 1);
  }
  return g_atomic_int_get (&t->active);
}

/* Whether hooks record: the trace is open (opening it at the first
 * call). */
static inline gboolean
trace_ready (Trace * t)
{
  if (G_LIKELY (g_atomic_int_get (&t->active)))
    return TRUE;
  return trace_open_once (t);
}

static void
trace_free (Trace * t)
{
  guint i;

  tracer_writer_stop (t);
  G_LOCK (live_trace);
  if (live_trace == t)
    live_trace = NULL;
  G_UNLOCK (live_trace);
  for (i = 0; i < t->streams->len; i++)
    tracer_stream_free (g_ptr_array_index (t->streams, i));
  /* Streams stay reachable from threads' GPrivate */
  if (t->queue != NULL)
    g_async_queue_unref (t->queue);
  if (t->dir_fd >= 0)
    close (t->dir_fd);
  /* PadInfo stay: a pad may outlive the trace (pad_finalized) */
  g_free (t->s.location);
  g_free (t->error);
  /* the Trace itself (and its lock) stays: a thread's Stream points at
   * it */
}

static void
gst_ctf_tracer_constructed (GObject * object)
{
  GstCtfTracer *self = GST_CTF_TRACER (object);
  GstTracer *tracer = GST_TRACER (object);
  gchar *params = NULL;
  Trace *t;

  G_OBJECT_CLASS (gst_ctf_tracer_parent_class)->constructed (object);
  g_object_get (object, "params", &params, NULL);
  t = self->trace = trace_new (params);
  g_free (params);
  if (t->s.buffers || t->s.latency || t->s.queue_levels || t->s.rates) {
    gst_tracing_register_hook (tracer, "pad-push-pre",
        G_CALLBACK (do_push_buffer_pre));
    gst_tracing_register_hook (tracer, "pad-push-post",
        G_CALLBACK (do_push_buffer_post));
    gst_tracing_register_hook (tracer, "pad-push-list-pre",
        G_CALLBACK (do_push_list_pre));
    gst_tracing_register_hook (tracer, "pad-push-list-post",
        G_CALLBACK (do_push_buffer_post));
  }
  if (t->s.buffers)
    gst_tracing_register_hook (tracer, "pad-pull-range-post",
        G_CALLBACK (do_pull_range_post));
  if (t->s.events)
    gst_tracing_register_hook (tracer, "pad-push-event-pre",
        G_CALLBACK (do_push_event_pre));
  if (t->s.queries)
    gst_tracing_register_hook (tracer, "pad-query-pre",
        G_CALLBACK (do_query_pre));
  gst_tracing_register_hook (tracer, "element-new",
      G_CALLBACK (do_element_new));
  if (t->s.states)
    gst_tracing_register_hook (tracer, "element-change-state-post",
        G_CALLBACK (do_change_state_post));
  if (t->s.messages)
    gst_tracing_register_hook (tracer, "element-post-message-pre",
        G_CALLBACK (do_post_message_pre));
  if (t->s.log)
    gst_debug_add_log_function (do_log, t, NULL);
}

static void
gst_ctf_tracer_finalize (GObject * object)
{
  GstCtfTracer *self = GST_CTF_TRACER (object);

  if (self->trace != NULL) {
    if (self->trace->s.log)
      gst_debug_remove_log_function (do_log);
    trace_free (self->trace);
  }
  G_OBJECT_CLASS (gst_ctf_tracer_parent_class)->finalize (object);
}

static void
gst_ctf_tracer_class_init (GstCtfTracerClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->constructed = gst_ctf_tracer_constructed;
  gobject_class->finalize = gst_ctf_tracer_finalize;
  pad_quark = g_quark_from_static_string ("gst-ctf-tracer-pad");
  element_quark = g_quark_from_static_string ("gst-ctf-tracer-element");
  tag_quark = g_quark_from_static_string ("gst-ctf-tracer-latency-tag");
  GST_DEBUG_CATEGORY_INIT (gst_ctf_tracer_debug, "ctftracer", 0,
      "CTF tracer");
}

static void
gst_ctf_tracer_init (GstCtfTracer * self)
{
}
