/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctftracer: the hooks.  Each takes its thread's stream (one uncontended
 * lock), resolves pads and elements to small ids (a per-thread cache,
 * object qdata on a miss; a pad's names are written once, at its first
 * use, as `pad_new`) and writes its events with plain stores.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctftracer-private.h"

#include <string.h>

static GQuark pad_quark, element_quark, tag_quark;

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

/* ---- registration ---- */

void
tracer_hooks_init (void)
{
  pad_quark = g_quark_from_static_string ("gst-ctf-tracer-pad");
  element_quark = g_quark_from_static_string ("gst-ctf-tracer-element");
  tag_quark = g_quark_from_static_string ("gst-ctf-tracer-latency-tag");
}

/* The hooks @t's switches ask for. */
void
tracer_hooks_register (GstTracer * tracer, Trace * t)
{
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

void
tracer_hooks_remove_log (void)
{
  gst_debug_remove_log_function (do_log);
}
