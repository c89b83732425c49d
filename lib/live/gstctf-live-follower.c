/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfLiveFollower: see gstctf-live-follower.h.  One round (step()):
 * GET_NEW_STREAMS when a reply flagged new streams or every poll interval
 * (lttng-relayd 2.13 can miss the flag of per-PID traces), the metadata
 * of every trace that needs it, GET_NEXT_INDEX of every stream without
 * one, then the packet of the lowest begin when no other stream may still
 * have an older one.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/gst.h>

#include "gstctf-live-follower.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"
#include "gstctf-trace-merge.h"

GST_DEBUG_CATEGORY_STATIC (live_follower_debug);
#define GST_CAT_DEFAULT live_follower_debug

typedef struct {
  guint64 ctf_trace_id;
  guint64 metadata_stream;      /* G_MAXUINT64: not announced yet */
  GstCtfLiveMetadata *meta;
  gchar *text;
  GstCtfTraceClass *tc;
  gboolean need_metadata;
  gchar *name;                  /* the relay's path of the trace */
  gint input;                   /* in the merge, -1: not in it */
} LiveTrace;

typedef struct {
  guint64 id;
  LiveTrace *trace;
  const gchar *name;            /* interned channel name */
  guint rank;
  gboolean has_index;
  GstCtfLiveIndex index;
  gint64 begin_ns;
  gint64 end_ns;
  gint64 bound_ns;              /* nothing before it (G_MININT64: unknown) */
  gboolean hup;
  guint64 last_discarded;
  gboolean warned_late;
} LiveStream;

struct _GstCtfLiveFollower {
  gchar *url;
  gchar *relay_host;
  gchar *tracer_host;
  gchar *session;
  guint16 port;
  GstCtfLiveSeek seek;
  GstCtfLiveNotFound not_found;
  guint timeout_ms;
  guint poll_ms;
  GCancellable *cancel;

  GstCtfLiveClient *client;
  GArray *session_ids;          /* guint64 */
  guint32 live_timer;           /* µs */
  GPtrArray *traces;            /* LiveTrace */
  GPtrArray *streams;           /* LiveStream (data streams) */
  gboolean want_new_streams;
  gint64 new_streams_at;        /* monotonic µs of the last GET_NEW_STREAMS */
  GstCtfTraceMerge *merge;      /* several traces: their merge */
  GstCtfTraceClass *tc;         /* of the packets given now */
  const gchar *text;            /* its metadata (a trace's or the merge's) */
  gint64 position;              /* last packet begin or advance end */
  gboolean given;               /* a packet was given */
  gboolean wait_next;           /* an advance was given: WAIT comes next */
};

static void
live_trace_free (LiveTrace * t)
{
  gst_ctf_live_metadata_free (t->meta);
  g_free (t->text);
  g_free (t->name);
  g_clear_pointer (&t->tc, gst_ctf_trace_class_unref);
  g_free (t);
}

GstCtfLiveFollower *
gst_ctf_live_follower_new (const gchar * url, GstCtfLiveSeek seek,
    GstCtfLiveNotFound not_found, guint timeout_ms, guint poll_ms,
    GCancellable * cancellable, GError ** error)
{
  GstCtfLiveFollower *f;
  gchar *relay = NULL, *tracer = NULL, *session = NULL;
  guint16 port = 0;
  static gsize debug_once = 0;

  if (g_once_init_enter (&debug_once)) {
    GST_DEBUG_CATEGORY_INIT (live_follower_debug, "ctflivefollower", 0,
        "LTTng live session follower");
    g_once_init_leave (&debug_once, 1);
  }
  if (!gst_ctf_live_parse_url (url, &relay, &port, &tracer, &session,
          error))
    return NULL;
  if (session == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "LTTng live URL \"%s\" names no session: expected "
        "net://HOST[:PORT]/host/TRACER_HOST/SESSION", url);
    g_free (relay);
    g_free (tracer);
    return NULL;
  }
  f = g_new0 (GstCtfLiveFollower, 1);
  f->url = g_strdup (url);
  f->relay_host = relay;
  f->tracer_host = tracer;
  f->session = session;
  f->port = port;
  f->seek = seek;
  f->not_found = not_found;
  f->timeout_ms = timeout_ms;
  f->poll_ms = poll_ms;
  f->cancel = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  f->session_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  f->traces = g_ptr_array_new_with_free_func ((GDestroyNotify)
      live_trace_free);
  f->streams = g_ptr_array_new_with_free_func (g_free);
  f->position = G_MININT64;
  return f;
}

void
gst_ctf_live_follower_free (GstCtfLiveFollower * f)
{
  if (f == NULL)
    return;
  g_clear_pointer (&f->client, gst_ctf_live_client_free);
  g_clear_pointer (&f->merge, gst_ctf_trace_merge_free);
  g_clear_pointer (&f->tc, gst_ctf_trace_class_unref);
  g_ptr_array_unref (f->streams);
  g_ptr_array_unref (f->traces);
  g_array_unref (f->session_ids);
  g_clear_object (&f->cancel);
  g_free (f->url);
  g_free (f->relay_host);
  g_free (f->tracer_host);
  g_free (f->session);
  g_free (f);
}

GstCtfTraceClass *
gst_ctf_live_follower_get_trace_class (GstCtfLiveFollower * f)
{
  return f->tc;
}

const gchar *
gst_ctf_live_follower_get_metadata (GstCtfLiveFollower * f)
{
  return f->text;
}

guint32
gst_ctf_live_follower_get_live_timer (GstCtfLiveFollower * f)
{
  return f->live_timer;
}

const gchar *
gst_ctf_live_follower_get_relay (GstCtfLiveFollower * f, guint16 * port)
{
  if (port != NULL)
    *port = f->port;
  return f->relay_host;
}

/* ---- streams and traces ---- */

static LiveTrace *
trace_for (GstCtfLiveFollower * f, guint64 ctf_trace_id)
{
  LiveTrace *t;
  guint i;

  for (i = 0; i < f->traces->len; i++) {
    t = g_ptr_array_index (f->traces, i);
    if (t->ctf_trace_id == ctf_trace_id)
      return t;
  }
  t = g_new0 (LiveTrace, 1);
  t->ctf_trace_id = ctf_trace_id;
  t->metadata_stream = G_MAXUINT64;
  t->meta = gst_ctf_live_metadata_new ();
  t->need_metadata = TRUE;
  t->input = -1;
  g_ptr_array_add (f->traces, t);
  return t;
}

/* Adds the streams of an ATTACH_SESSION or GET_NEW_STREAMS reply. */
static void
add_streams (GstCtfLiveFollower * f, GPtrArray * streams)
{
  guint i;

  for (i = 0; streams != NULL && i < streams->len; i++) {
    const GstCtfLiveStream *ls = g_ptr_array_index (streams, i);
    LiveTrace *t = trace_for (f, ls->ctf_trace_id);

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
      s->rank = f->streams->len;
      s->bound_ns = G_MININT64;
      g_ptr_array_add (f->streams, s);
    }
    GST_INFO ("stream %" G_GUINT64_FORMAT " (%s/%s)%s", ls->id,
        ls->path_name, ls->channel_name, ls->metadata ? " metadata" : "");
  }
}

static const gchar *
attach_refusal (guint32 status)
{
  switch (status) {
    case GST_CTF_LIVE_ATTACH_OK:
      return NULL;
    case GST_CTF_LIVE_ATTACH_ALREADY:
      return "another viewer is attached to it";
    case GST_CTF_LIVE_ATTACH_NOT_LIVE:
      return "it is not a live session (lttng create --live)";
    case GST_CTF_LIVE_ATTACH_UNK:
      return "the relay no longer knows it";
    case GST_CTF_LIVE_ATTACH_SEEK_ERR:
      return "the relay cannot seek in it";
    default:
      return "the relay refused (unknown status)";
  }
}

GstCtfLiveFollowerItem
gst_ctf_live_follower_attach (GstCtfLiveFollower * f, GError ** error)
{
  GstCtfLiveReply reply;
  guint32 timer = 0;
  guint i;

  if (f->session_ids->len > 0)
    return GST_CTF_LIVE_FOLLOWER_AGAIN;
  if (f->client == NULL) {
    f->client = gst_ctf_live_client_connect (f->relay_host, f->port,
        f->timeout_ms, f->cancel, error);
    if (f->client == NULL)
      return GST_CTF_LIVE_FOLLOWER_ERROR;
  }
  if (!gst_ctf_live_client_list_sessions (f->client, &reply, error))
    return GST_CTF_LIVE_FOLLOWER_ERROR;
  for (i = 0; i < reply.sessions->len; i++) {
    const GstCtfLiveSession *s = g_ptr_array_index (reply.sessions, i);

    if (g_strcmp0 (s->hostname, f->tracer_host) == 0 &&
        g_strcmp0 (s->session_name, f->session) == 0) {
      g_array_append_val (f->session_ids, s->id);
      timer = MAX (timer, s->live_timer);
    }
  }
  gst_ctf_live_reply_clear (&reply);
  if (f->session_ids->len == 0) {
    switch (f->not_found) {
      case GST_CTF_LIVE_NOT_FOUND_WAIT:
        return GST_CTF_LIVE_FOLLOWER_WAIT;
      case GST_CTF_LIVE_NOT_FOUND_END:
        return GST_CTF_LIVE_FOLLOWER_END;
      default:
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "No session \"%s\" of host \"%s\" on LTTng relay %s:%u",
            f->session, f->tracer_host, f->relay_host, f->port);
        return GST_CTF_LIVE_FOLLOWER_ERROR;
    }
  }
  f->live_timer = timer;

  for (i = 0; i < f->session_ids->len; i++) {
    guint64 id = g_array_index (f->session_ids, guint64, i);
    const gchar *why;

    if (!gst_ctf_live_client_attach (f->client, id, f->seek, &reply, error))
      return GST_CTF_LIVE_FOLLOWER_ERROR;
    why = attach_refusal (reply.status);
    if (why != NULL) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "Cannot attach to session \"%s\" of host \"%s\" (relay session %"
          G_GUINT64_FORMAT ") on LTTng relay %s:%u: %s (status %u)",
          f->session, f->tracer_host, id, f->relay_host, f->port, why,
          reply.status);
      gst_ctf_live_reply_clear (&reply);
      return GST_CTF_LIVE_FOLLOWER_ERROR;
    }
    add_streams (f, reply.streams);
    gst_ctf_live_reply_clear (&reply);
  }
  return GST_CTF_LIVE_FOLLOWER_AGAIN;
}

/* GET_NEW_STREAMS of every session; *all_hup when each hung up (the
 * session was destroyed). */
static gboolean
get_new_streams (GstCtfLiveFollower * f, gboolean * all_hup, GError ** error)
{
  guint i, n_hup = 0;

  f->want_new_streams = FALSE;
  f->new_streams_at = g_get_monotonic_time ();
  for (i = 0; i < f->session_ids->len; i++) {
    GstCtfLiveReply reply;

    if (!gst_ctf_live_client_get_new_streams (f->client,
            g_array_index (f->session_ids, guint64, i), &reply, error))
      return FALSE;
    switch (reply.status) {
      case GST_CTF_LIVE_NEW_STREAMS_OK:
        add_streams (f, reply.streams);
        break;
      case GST_CTF_LIVE_NEW_STREAMS_NO_NEW:
        break;
      case GST_CTF_LIVE_NEW_STREAMS_HUP:
        n_hup++;
        break;
      default:
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "LTTng relay %s:%u: GET_NEW_STREAMS failed (status %u)",
            f->relay_host, f->port, reply.status);
        gst_ctf_live_reply_clear (&reply);
        return FALSE;
    }
    gst_ctf_live_reply_clear (&reply);
  }
  if (all_hup != NULL)
    *all_hup = n_hup == f->session_ids->len;
  return TRUE;
}

/* ---- metadata ---- */

static gint
compare_inputs (gconstpointer a, gconstpointer b)
{
  const LiveTrace *x = *(LiveTrace * const *) a;
  const LiveTrace *y = *(LiveTrace * const *) b;

  return gst_ctf_trace_merge_compare_traces (x->tc, x->name, y->tc, y->name);
}

/* The trace class of the traces whose metadata is known: one trace's
 * own, or their merge (rebuilt when a trace joins or its metadata grows;
 * the inputs in babeltrace2's trace order, as ctfsrc). */
static gboolean
update_trace_class (GstCtfLiveFollower * f, GError ** error)
{
  GPtrArray *inputs = g_ptr_array_new ();
  GstCtfTraceClass **tcs, *tc = NULL;
  const gchar **names, *text = NULL;
  guint i;

  for (i = 0; i < f->traces->len; i++) {
    LiveTrace *t = g_ptr_array_index (f->traces, i);

    t->input = -1;
    if (t->tc != NULL)
      g_ptr_array_add (inputs, t);
  }
  g_clear_pointer (&f->merge, gst_ctf_trace_merge_free);
  if (inputs->len == 0) {
    g_ptr_array_unref (inputs);
    return TRUE;
  }
  g_ptr_array_sort (inputs, compare_inputs);
  tcs = g_new0 (GstCtfTraceClass *, inputs->len);
  names = g_new0 (const gchar *, inputs->len);
  for (i = 0; i < inputs->len; i++) {
    LiveTrace *t = g_ptr_array_index (inputs, i);

    t->input = (gint) i;
    tcs[i] = t->tc;
    names[i] = t->name;
  }
  if (inputs->len == 1) {
    tc = gst_ctf_trace_class_ref (tcs[0]);
    text = ((LiveTrace *) g_ptr_array_index (inputs, 0))->text;
  } else if (gst_ctf_trace_merge_check_clocks (tcs, names, inputs->len,
          error)) {
    f->merge = gst_ctf_trace_merge_new (tcs, names, inputs->len, error);
    if (f->merge != NULL) {
      tc = gst_ctf_trace_class_ref (gst_ctf_trace_merge_get_trace_class
          (f->merge));
      text = gst_ctf_trace_merge_get_metadata (f->merge);
    }
  }
  g_free (tcs);
  g_free (names);
  GST_INFO ("%u trace(s) with metadata", inputs->len);
  g_ptr_array_unref (inputs);
  if (tc == NULL)
    return FALSE;
  g_clear_pointer (&f->tc, gst_ctf_trace_class_unref);
  f->tc = tc;
  f->text = text;
  return TRUE;
}

/* Fetches @t's metadata until NO_NEW: METADATA when its complete text
 * grew (a new trace class), AGAIN when it did not. */
static GstCtfLiveFollowerItem
fetch_metadata (GstCtfLiveFollower * f, LiveTrace * t, GError ** error)
{
  GstCtfLiveFollowerItem item = GST_CTF_LIVE_FOLLOWER_AGAIN;
  gchar origin[96];
  gchar *text;

  if (t->metadata_stream == G_MAXUINT64)
    return GST_CTF_LIVE_FOLLOWER_WAIT;
  for (;;) {
    GstCtfLiveReply reply;
    const guint8 *d;
    gsize len;

    if (!gst_ctf_live_client_get_metadata (f->client, t->metadata_stream,
            &reply, error))
      return GST_CTF_LIVE_FOLLOWER_ERROR;
    if (reply.status == GST_CTF_LIVE_METADATA_NO_NEW)
      break;
    if (reply.status != GST_CTF_LIVE_METADATA_OK) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s:%u: GET_METADATA failed (status %u)",
          f->relay_host, f->port, reply.status);
      gst_ctf_live_reply_clear (&reply);
      return GST_CTF_LIVE_FOLLOWER_ERROR;
    }
    d = g_bytes_get_data (reply.data, &len);
    if (len == 0) {
      /* the relay has metadata it cannot hand out yet: retry */
      gst_ctf_live_reply_clear (&reply);
      return GST_CTF_LIVE_FOLLOWER_WAIT;
    }
    gst_ctf_live_metadata_append (t->meta, d, len);
    gst_ctf_live_reply_clear (&reply);
  }
  g_snprintf (origin, sizeof origin, "relay %s:%u metadata", f->relay_host,
      f->port);
  text = gst_ctf_live_metadata_get_text (t->meta, origin, error);
  if (text == NULL)
    return (error != NULL && *error != NULL) ? GST_CTF_LIVE_FOLLOWER_ERROR :
        GST_CTF_LIVE_FOLLOWER_WAIT;
  if (t->text == NULL || strcmp (t->text, text) != 0) {
    GstCtfTraceClass *tc = gst_ctf_metadata_parse (text, origin, error);

    if (tc == NULL) {
      g_free (text);
      return GST_CTF_LIVE_FOLLOWER_ERROR;
    }
    g_clear_pointer (&t->tc, gst_ctf_trace_class_unref);
    t->tc = tc;
    g_free (t->text);
    t->text = text;
    if (!update_trace_class (f, error))
      return GST_CTF_LIVE_FOLLOWER_ERROR;
    item = GST_CTF_LIVE_FOLLOWER_METADATA;
  } else {
    g_free (text);
  }
  t->need_metadata = FALSE;
  return item;
}

/* ---- indexes and packets ---- */

static gint64
cycles_to_ns (LiveTrace * t, guint64 sc_id, guint64 cycles)
{
  GstCtfStreamClass *sc = t->tc != NULL ?
      gst_ctf_trace_class_find_stream_class (t->tc, sc_id) : NULL;
  gint64 ns;

  if (sc != NULL && sc->default_clock != NULL &&
      gst_ctf_clock_class_cycles_to_ns_from_origin (sc->default_clock,
          cycles, &ns))
    return ns;
  return cycles > G_MAXINT64 ? G_MAXINT64 : (gint64) cycles;
}

static void
note_flags (GstCtfLiveFollower * f, LiveStream * s, guint32 flags)
{
  if (flags & GST_CTF_LIVE_FLAG_NEW_METADATA)
    s->trace->need_metadata = TRUE;
  if (flags & GST_CTF_LIVE_FLAG_NEW_STREAM)
    f->want_new_streams = TRUE;
}

/* GET_NEXT_INDEX for @s; *progress when something was learnt. */
static gboolean
poll_index (GstCtfLiveFollower * f, LiveStream * s, gboolean * progress,
    GError ** error)
{
  GstCtfLiveReply reply;
  gint64 ns;

  if (!gst_ctf_live_client_get_next_index (f->client, s->id, &reply, error))
    return FALSE;
  GST_LOG ("stream %" G_GUINT64_FORMAT " (%s): index status %u flags %u "
      "offset %" G_GUINT64_FORMAT " size %" G_GUINT64_FORMAT " end %"
      G_GUINT64_FORMAT, s->id, s->name, reply.status, reply.flags,
      reply.index.offset, reply.index.packet_size,
      reply.index.timestamp_end);
  note_flags (f, s, reply.flags);
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
          f->relay_host, f->port, s->name, reply.status);
      gst_ctf_live_reply_clear (&reply);
      return FALSE;
  }
  gst_ctf_live_reply_clear (&reply);
  return TRUE;
}

/* GET_PACKET for @s's index: PACKET, or WAIT / AGAIN to ask later. */
static GstCtfLiveFollowerItem
fetch_packet (GstCtfLiveFollower * f, LiveStream * s,
    GstCtfLiveFollowerPacket * p, GError ** error)
{
  GstCtfLiveReply reply;
  guint32 len = (guint32) (s->index.packet_size / 8);
  GstCtfPacketInfo info;
  GBytes *b;
  const guint8 *d;
  gsize size;

  if (!gst_ctf_live_client_get_packet (f->client, s->id, s->index.offset,
          len, &reply, error))
    return GST_CTF_LIVE_FOLLOWER_ERROR;
  note_flags (f, s, reply.flags);
  switch (reply.status) {
    case GST_CTF_LIVE_PACKET_OK:
      break;
    case GST_CTF_LIVE_PACKET_RETRY:
      gst_ctf_live_reply_clear (&reply);
      return GST_CTF_LIVE_FOLLOWER_WAIT;
    case GST_CTF_LIVE_PACKET_EOF:
      gst_ctf_live_reply_clear (&reply);
      s->hup = TRUE;
      s->has_index = FALSE;
      return GST_CTF_LIVE_FOLLOWER_AGAIN;
    default:
      gst_ctf_live_reply_clear (&reply);
      if (reply.flags & GST_CTF_LIVE_FLAG_NEW_METADATA)
        return GST_CTF_LIVE_FOLLOWER_AGAIN;     /* fetch it first */
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s:%u: GET_PACKET of stream %s at offset %"
          G_GUINT64_FORMAT " failed (status %u)", f->relay_host, f->port,
          s->name, s->index.offset, reply.status);
      return GST_CTF_LIVE_FOLLOWER_ERROR;
  }
  d = g_bytes_get_data (reply.data, &size);
  if (!gst_ctf_packet_read_info (s->trace->tc, d, size, &info, error))
    goto bad_packet;
  if (f->merge != NULL) {
    b = gst_ctf_trace_merge_rewrite_packet (f->merge,
        (guint) s->trace->input, d, size, s->rank, &p->stream_class_id,
        error);
    if (b == NULL)
      goto bad_packet;
  } else {
    b = g_bytes_ref (reply.data);
    p->stream_class_id = info.stream_class_id;
  }
  gst_ctf_live_reply_clear (&reply);
  p->bytes = b;
  p->has_stream_instance_id = info.has_stream_instance_id;
  p->stream_instance_id = info.stream_instance_id;
  p->stream_name = s->name;
  p->rank = s->rank;
  p->offset = s->index.offset;
  p->begin_ns = s->begin_ns;
  p->end_ns = s->end_ns;
  p->events_discarded_delta = 0;
  if (s->index.events_discarded > s->last_discarded)
    p->events_discarded_delta = s->index.events_discarded -
        s->last_discarded;
  s->last_discarded = s->index.events_discarded;
  /* a stream the relay announced after later packets (or advances) of
   * the others: it cannot be put back in order */
  p->late = f->given && s->begin_ns < f->position && !s->warned_late;
  if (p->late)
    s->warned_late = TRUE;
  p->position = f->position;
  f->position = MAX (f->position, s->begin_ns);
  f->given = TRUE;
  s->has_index = FALSE;
  /* the stream's next packet begins where this one ended (LTTng takes
   * both at the same sub-buffer switch): with the other streams' beacons
   * past it, an advance lets the readers give back this packet's events
   * before the next one comes */
  if (s->end_ns > s->bound_ns)
    s->bound_ns = s->end_ns;
  return GST_CTF_LIVE_FOLLOWER_PACKET;

bad_packet:
  g_prefix_error (error, "Packet of stream %s at offset %" G_GUINT64_FORMAT
      " from LTTng relay %s:%u: ", s->name, s->index.offset, f->relay_host,
      f->port);
  gst_ctf_live_reply_clear (&reply);
  return GST_CTF_LIVE_FOLLOWER_ERROR;
}

/* ---- the round ---- */

GstCtfLiveFollowerItem
gst_ctf_live_follower_step (GstCtfLiveFollower * f,
    GstCtfLiveFollowerPacket * packet, GstCtfLiveFollowerAdvance * advance,
    GError ** error)
{
  LiveStream *best = NULL;
  gboolean progress = FALSE, all_hup = TRUE;
  gint64 low = G_MAXINT64;
  GstCtfLiveFollowerItem item;
  guint i;

  if (f->wait_next) {
    f->wait_next = FALSE;
    return GST_CTF_LIVE_FOLLOWER_WAIT;
  }
  if (f->session_ids->len == 0 &&
      (item = gst_ctf_live_follower_attach (f, error)) !=
      GST_CTF_LIVE_FOLLOWER_AGAIN)
    return item;
  /* lttng-relayd 2.13 can miss the NEW_STREAM flag of per-PID traces:
   * ask every poll interval too */
  if (g_get_monotonic_time () - f->new_streams_at >=
      (gint64) f->poll_ms * 1000)
    f->want_new_streams = TRUE;
  if (f->want_new_streams && !get_new_streams (f, NULL, error))
    return GST_CTF_LIVE_FOLLOWER_ERROR;
  /* (streams first: a trace's metadata stream may come after its data
   * streams) */
  for (i = 0; i < f->traces->len; i++) {
    LiveTrace *t = g_ptr_array_index (f->traces, i);

    if (t->need_metadata &&
        (item = fetch_metadata (f, t, error)) != GST_CTF_LIVE_FOLLOWER_AGAIN)
      return item;
  }
  for (i = 0; i < f->streams->len; i++) {
    LiveStream *s = g_ptr_array_index (f->streams, i);

    /* (a trace whose metadata is not known yet waits: its times need
     * its clocks) */
    if (s->hup || s->has_index || s->trace->tc == NULL)
      continue;
    if (!poll_index (f, s, &progress, error))
      return GST_CTF_LIVE_FOLLOWER_ERROR;
  }
  /* what an index asked for comes before any packet */
  for (i = 0; i < f->traces->len; i++)
    if (((LiveTrace *) g_ptr_array_index (f->traces, i))->need_metadata)
      return GST_CTF_LIVE_FOLLOWER_AGAIN;
  if (f->want_new_streams)
    return GST_CTF_LIVE_FOLLOWER_AGAIN;

  for (i = 0; i < f->streams->len; i++) {
    LiveStream *s = g_ptr_array_index (f->streams, i);

    if (s->hup)
      continue;
    all_hup = FALSE;
    if (s->has_index && (best == NULL || s->begin_ns < best->begin_ns))
      best = s;
    low = MIN (low, s->has_index ? s->begin_ns : s->bound_ns);
  }
  if (best != NULL && low >= best->begin_ns)
    return fetch_packet (f, best, packet, error);
  if (all_hup) {
    gboolean destroyed = FALSE;

    if (!get_new_streams (f, &destroyed, error))
      return GST_CTF_LIVE_FOLLOWER_ERROR;
    /* the session we read was destroyed: its data is all out, whatever
     * not_found says (that applies before attaching only) */
    if (destroyed) {
      GST_INFO ("session destroyed: end");
      return GST_CTF_LIVE_FOLLOWER_END;
    }
    return f->want_new_streams ? GST_CTF_LIVE_FOLLOWER_AGAIN :
        GST_CTF_LIVE_FOLLOWER_WAIT;
  }
  /* idle: ask for streams the relay did not flag (relayd 2.13) */
  if (!progress)
    f->want_new_streams = TRUE;
  /* blocked: the readers may give back what is older than the lowest
   * known time */
  if (f->given && low != G_MININT64 && low > f->position) {
    GST_DEBUG ("advance to %" G_GINT64_FORMAT, low);
    advance->from_ns = f->position;
    advance->to_ns = low;
    f->position = low;
    f->wait_next = !progress;
    return GST_CTF_LIVE_FOLLOWER_ADVANCE;
  }
  return progress ? GST_CTF_LIVE_FOLLOWER_AGAIN : GST_CTF_LIVE_FOLLOWER_WAIT;
}
