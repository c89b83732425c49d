/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkLiveSource: see gstctfgtk-live-source.h.
 *
 * The follower follows the session as the `lttnglivesrc` element does
 * (elements/lttnglivesrc/: attach to every relay session of the traced
 * host and session name, metadata before the packets that need it, a
 * packet leaves only when every other stream has an index or an
 * inactivity beacon at or after its begin); the element's GAP events are
 * the ADVANCE records here.  Lock order: the source's lock only (the
 * follower does its socket and file I/O without it).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "gstctfgtk-live-source.h"
#include "gstctf-live.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"
#include "gstctf-trace-merge.h"

#define POLL_MS 100
#define TIMEOUT_MS 10000

typedef enum {
  RECORD_PACKET,
  RECORD_ADVANCE,
} RecordKind;

/* One packet in the spill file, or an advance. */
typedef struct {
  RecordKind kind;
  guint stream;                 /* index in streams (packets) */
  guint64 file_offset;
  gsize size;
  guint64 stream_class_id;
  gint64 rank;
  gint64 stream_id;
  const gchar *stream_name;     /* interned */
  gint64 offset;                /* in the relay's stream file */
  gint64 ns;                    /* packet: begin; advance: the time */
} Record;

typedef struct {
  GstCtfTraceClass *tc;
  guint first;                  /* its first record */
} Epoch;

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
} LiveStream;

typedef enum {
  STEP_OK,
  STEP_WAIT,
  STEP_EOS,
  STEP_ERROR,
} Step;

struct _GstCtfGtkLiveSource {
  gint ref;
  gchar *relay_host;
  gchar *tracer_host;
  gchar *session;
  guint16 port;
  GCancellable *cancel;
  GThread *thread;

  /* the follower's (thread) */
  GstCtfLiveClient *client;
  GArray *session_ids;          /* guint64 */
  GPtrArray *traces;            /* LiveTrace */
  GPtrArray *streams;           /* LiveStream */
  gboolean want_new_streams;
  gint64 new_streams_at;
  GstCtfTraceMerge *merge;
  GstCtfTraceClass *tc;         /* of the packets now (NULL: none yet) */
  gint64 position;              /* last begin or advance given */
  gint fd;                      /* the spill file (unlinked) */
  guint64 fd_size;

  GMutex lock;                  /* guards the rest */
  GCond cond;
  GArray *records;              /* Record */
  GArray *epochs;               /* Epoch */
  gboolean stopping;
  gboolean ended;
  GError *error;
};

struct _GstCtfGtkLiveReader {
  GstCtfGtkLiveSource *src;
  guint pos;                    /* next record */
  gint epoch;                   /* -1: before the first */
};

gboolean
_gst_ctf_gtk_live_is_url (const gchar * path)
{
  return path != NULL && (g_str_has_prefix (path, "net://") ||
      g_str_has_prefix (path, "net4://"));
}

static void
live_trace_free (LiveTrace * t)
{
  gst_ctf_live_metadata_free (t->meta);
  g_free (t->text);
  g_free (t->name);
  g_clear_pointer (&t->tc, gst_ctf_trace_class_unref);
  g_free (t);
}

/* ---- the follower (after lttnglivesrc's round) ---- */

static LiveTrace *
trace_for (GstCtfGtkLiveSource * s, guint64 ctf_trace_id)
{
  LiveTrace *t;
  guint i;

  for (i = 0; i < s->traces->len; i++) {
    t = g_ptr_array_index (s->traces, i);
    if (t->ctf_trace_id == ctf_trace_id)
      return t;
  }
  t = g_new0 (LiveTrace, 1);
  t->ctf_trace_id = ctf_trace_id;
  t->metadata_stream = G_MAXUINT64;
  t->meta = gst_ctf_live_metadata_new ();
  t->need_metadata = TRUE;
  t->input = -1;
  g_ptr_array_add (s->traces, t);
  return t;
}

static void
add_streams (GstCtfGtkLiveSource * s, GPtrArray * streams)
{
  guint i;

  for (i = 0; streams != NULL && i < streams->len; i++) {
    const GstCtfLiveStream *ls = g_ptr_array_index (streams, i);
    LiveTrace *t = trace_for (s, ls->ctf_trace_id);

    if (t->name == NULL)
      t->name = g_strdup (ls->path_name);
    if (ls->metadata) {
      t->metadata_stream = ls->id;
      t->need_metadata = TRUE;
    } else {
      LiveStream *st = g_new0 (LiveStream, 1);

      st->id = ls->id;
      st->trace = t;
      st->name = g_intern_string (ls->channel_name);
      st->rank = s->streams->len;
      st->bound_ns = G_MININT64;
      g_ptr_array_add (s->streams, st);
    }
  }
}

/* Lists the relay's sessions and attaches to those of the URL's host and
 * session name (one per domain and bitness, as babeltrace2). */
static gboolean
attach (GstCtfGtkLiveSource * s, GError ** error)
{
  GstCtfLiveReply reply;
  guint i;

  if (!gst_ctf_live_client_list_sessions (s->client, &reply, error))
    return FALSE;
  for (i = 0; i < reply.sessions->len; i++) {
    const GstCtfLiveSession *ls = g_ptr_array_index (reply.sessions, i);

    if (g_strcmp0 (ls->hostname, s->tracer_host) == 0 &&
        g_strcmp0 (ls->session_name, s->session) == 0)
      g_array_append_val (s->session_ids, ls->id);
  }
  gst_ctf_live_reply_clear (&reply);
  if (s->session_ids->len == 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "No session \"%s\" of host \"%s\" on LTTng relay %s:%u",
        s->session, s->tracer_host, s->relay_host, s->port);
    return FALSE;
  }
  for (i = 0; i < s->session_ids->len; i++) {
    guint64 id = g_array_index (s->session_ids, guint64, i);
    const gchar *why = NULL;

    if (!gst_ctf_live_client_attach (s->client, id,
            GST_CTF_LIVE_SEEK_BEGINNING, &reply, error))
      return FALSE;
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
      default:
        why = "the relay refused";
        break;
    }
    if (why != NULL) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "Cannot attach to session \"%s\" of host \"%s\" (relay session %"
          G_GUINT64_FORMAT ") on LTTng relay %s:%u: %s (status %u)",
          s->session, s->tracer_host, id, s->relay_host, s->port, why,
          reply.status);
      gst_ctf_live_reply_clear (&reply);
      return FALSE;
    }
    add_streams (s, reply.streams);
    gst_ctf_live_reply_clear (&reply);
  }
  return TRUE;
}

static Step
get_new_streams (GstCtfGtkLiveSource * s, gboolean * all_hup,
    GError ** error)
{
  guint i, n_hup = 0;

  s->want_new_streams = FALSE;
  s->new_streams_at = g_get_monotonic_time ();
  for (i = 0; i < s->session_ids->len; i++) {
    GstCtfLiveReply reply;

    if (!gst_ctf_live_client_get_new_streams (s->client,
            g_array_index (s->session_ids, guint64, i), &reply, error))
      return STEP_ERROR;
    switch (reply.status) {
      case GST_CTF_LIVE_NEW_STREAMS_OK:
        add_streams (s, reply.streams);
        break;
      case GST_CTF_LIVE_NEW_STREAMS_NO_NEW:
        break;
      case GST_CTF_LIVE_NEW_STREAMS_HUP:
        n_hup++;
        break;
      default:
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "LTTng relay %s:%u: GET_NEW_STREAMS failed (status %u)",
            s->relay_host, s->port, reply.status);
        gst_ctf_live_reply_clear (&reply);
        return STEP_ERROR;
    }
    gst_ctf_live_reply_clear (&reply);
  }
  if (all_hup != NULL)
    *all_hup = n_hup == s->session_ids->len;
  return STEP_OK;
}

static gint
compare_inputs (gconstpointer a, gconstpointer b)
{
  const LiveTrace *x = *(LiveTrace * const *) a;
  const LiveTrace *y = *(LiveTrace * const *) b;

  return gst_ctf_trace_merge_compare_traces (x->tc, x->name, y->tc, y->name);
}

/* A new epoch with the trace class of the traces known so far: one
 * trace's own, or their merge (inputs in babeltrace2's trace order). */
static gboolean
new_epoch (GstCtfGtkLiveSource * s, GError ** error)
{
  GPtrArray *inputs = g_ptr_array_new ();
  GstCtfTraceClass **tcs, *tc = NULL;
  const gchar **names;
  Epoch e;
  guint i;

  for (i = 0; i < s->traces->len; i++) {
    LiveTrace *t = g_ptr_array_index (s->traces, i);

    t->input = -1;
    if (t->tc != NULL)
      g_ptr_array_add (inputs, t);
  }
  g_clear_pointer (&s->merge, gst_ctf_trace_merge_free);
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
  } else if (gst_ctf_trace_merge_check_clocks (tcs, names, inputs->len,
          error)) {
    s->merge = gst_ctf_trace_merge_new (tcs, names, inputs->len, error);
    if (s->merge != NULL)
      tc = gst_ctf_trace_class_ref (gst_ctf_trace_merge_get_trace_class
          (s->merge));
  }
  g_free (tcs);
  g_free (names);
  g_ptr_array_unref (inputs);
  if (tc == NULL)
    return FALSE;
  g_clear_pointer (&s->tc, gst_ctf_trace_class_unref);
  s->tc = tc;
  g_mutex_lock (&s->lock);
  e.tc = gst_ctf_trace_class_ref (tc);
  e.first = s->records->len;
  g_array_append_val (s->epochs, e);
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
  return TRUE;
}

static Step
fetch_metadata (GstCtfGtkLiveSource * s, LiveTrace * t, GError ** error)
{
  gchar origin[96];
  gchar *text;

  if (t->metadata_stream == G_MAXUINT64)
    return STEP_WAIT;
  for (;;) {
    GstCtfLiveReply reply;
    const guint8 *d;
    gsize len;

    if (!gst_ctf_live_client_get_metadata (s->client, t->metadata_stream,
            &reply, error))
      return STEP_ERROR;
    if (reply.status == GST_CTF_LIVE_METADATA_NO_NEW)
      break;
    if (reply.status != GST_CTF_LIVE_METADATA_OK) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s:%u: GET_METADATA failed (status %u)",
          s->relay_host, s->port, reply.status);
      gst_ctf_live_reply_clear (&reply);
      return STEP_ERROR;
    }
    d = g_bytes_get_data (reply.data, &len);
    if (len == 0) {
      gst_ctf_live_reply_clear (&reply);
      return STEP_WAIT;
    }
    gst_ctf_live_metadata_append (t->meta, d, len);
    gst_ctf_live_reply_clear (&reply);
  }
  g_snprintf (origin, sizeof origin, "relay %s:%u metadata", s->relay_host,
      s->port);
  text = gst_ctf_live_metadata_get_text (t->meta, origin, error);
  if (text == NULL)
    return (error != NULL && *error != NULL) ? STEP_ERROR : STEP_WAIT;
  if (t->text == NULL || strcmp (t->text, text) != 0) {
    GstCtfTraceClass *tc = gst_ctf_metadata_parse (text, origin, error);

    if (tc == NULL) {
      g_free (text);
      return STEP_ERROR;
    }
    g_clear_pointer (&t->tc, gst_ctf_trace_class_unref);
    t->tc = tc;
    g_free (t->text);
    t->text = text;
    if (!new_epoch (s, error))
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
note_flags (GstCtfGtkLiveSource * s, LiveStream * st, guint32 flags)
{
  if (flags & GST_CTF_LIVE_FLAG_NEW_METADATA)
    st->trace->need_metadata = TRUE;
  if (flags & GST_CTF_LIVE_FLAG_NEW_STREAM)
    s->want_new_streams = TRUE;
}

static Step
poll_index (GstCtfGtkLiveSource * s, LiveStream * st, gboolean * progress,
    GError ** error)
{
  GstCtfLiveReply reply;
  gint64 ns;

  if (!gst_ctf_live_client_get_next_index (s->client, st->id, &reply, error))
    return STEP_ERROR;
  note_flags (s, st, reply.flags);
  switch (reply.status) {
    case GST_CTF_LIVE_INDEX_OK:
      st->has_index = TRUE;
      st->index = reply.index;
      st->begin_ns = cycles_to_ns (st->trace, reply.index.stream_id,
          reply.index.timestamp_begin);
      st->end_ns = cycles_to_ns (st->trace, reply.index.stream_id,
          reply.index.timestamp_end);
      st->bound_ns = MAX (st->bound_ns, st->begin_ns);
      *progress = TRUE;
      break;
    case GST_CTF_LIVE_INDEX_INACTIVE:
      ns = cycles_to_ns (st->trace, reply.index.stream_id,
          reply.index.timestamp_end);
      if (ns > st->bound_ns) {
        st->bound_ns = ns;
        *progress = TRUE;
      }
      break;
    case GST_CTF_LIVE_INDEX_RETRY:
      break;
    case GST_CTF_LIVE_INDEX_HUP:
    case GST_CTF_LIVE_INDEX_EOF:
      st->hup = TRUE;
      *progress = TRUE;
      break;
    default:
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s:%u: GET_NEXT_INDEX of stream %s failed (status %u)",
          s->relay_host, s->port, st->name, reply.status);
      gst_ctf_live_reply_clear (&reply);
      return STEP_ERROR;
  }
  gst_ctf_live_reply_clear (&reply);
  return STEP_OK;
}

static void
add_record (GstCtfGtkLiveSource * s, const Record * r)
{
  g_mutex_lock (&s->lock);
  g_array_append_val (s->records, *r);
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
}

/* Appends @size bytes to the spill file: their offset there. */
static gboolean
spill (GstCtfGtkLiveSource * s, const guint8 * d, gsize size,
    guint64 * at, GError ** error)
{
  gsize done = 0;

  while (done < size) {
    gssize w = pwrite (s->fd, d + done, size - done,
        (off_t) (s->fd_size + done));

    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
          "Cannot write the live session's packets to a temporary file: %s",
          g_strerror (errno));
      return FALSE;
    }
    done += (gsize) w;
  }
  *at = s->fd_size;
  s->fd_size += size;
  return TRUE;
}

static Step
fetch_packet (GstCtfGtkLiveSource * s, LiveStream * st, GError ** error)
{
  GstCtfLiveReply reply;
  guint32 len = (guint32) (st->index.packet_size / 8);
  GstCtfPacketInfo info;
  GBytes *b = NULL;
  const guint8 *d;
  gsize size;
  Record r = { RECORD_PACKET, };
  gboolean ok;

  if (!gst_ctf_live_client_get_packet (s->client, st->id, st->index.offset,
          len, &reply, error))
    return STEP_ERROR;
  note_flags (s, st, reply.flags);
  switch (reply.status) {
    case GST_CTF_LIVE_PACKET_OK:
      break;
    case GST_CTF_LIVE_PACKET_RETRY:
      gst_ctf_live_reply_clear (&reply);
      return STEP_WAIT;
    case GST_CTF_LIVE_PACKET_EOF:
      gst_ctf_live_reply_clear (&reply);
      st->hup = TRUE;
      st->has_index = FALSE;
      return STEP_OK;
    default:
      gst_ctf_live_reply_clear (&reply);
      if (reply.flags & GST_CTF_LIVE_FLAG_NEW_METADATA)
        return STEP_OK;         /* fetch it first, then ask again */
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s:%u: GET_PACKET of stream %s at offset %"
          G_GUINT64_FORMAT " failed (status %u)", s->relay_host, s->port,
          st->name, st->index.offset, reply.status);
      return STEP_ERROR;
  }
  d = g_bytes_get_data (reply.data, &size);
  if (!gst_ctf_packet_read_info (st->trace->tc, d, size, &info, error)) {
    g_prefix_error (error, "Packet of stream %s at offset %" G_GUINT64_FORMAT
        " from LTTng relay %s:%u: ", st->name, st->index.offset,
        s->relay_host, s->port);
    gst_ctf_live_reply_clear (&reply);
    return STEP_ERROR;
  }
  if (s->merge != NULL) {
    b = gst_ctf_trace_merge_rewrite_packet (s->merge,
        (guint) st->trace->input, d, size, st->rank, &r.stream_class_id,
        error);
    if (b == NULL) {
      g_prefix_error (error, "Packet of stream %s at offset %"
          G_GUINT64_FORMAT " from LTTng relay %s:%u: ", st->name,
          st->index.offset, s->relay_host, s->port);
      gst_ctf_live_reply_clear (&reply);
      return STEP_ERROR;
    }
    d = g_bytes_get_data (b, &size);
  } else {
    r.stream_class_id = info.stream_class_id;
  }
  /* as lttnglivesrc's packet meta and ctftextsink's reading of it */
  r.stream = st->rank;
  r.rank = info.has_stream_instance_id ? (gint64) info.stream_instance_id :
      (gint64) st->rank;
  r.stream_id = info.has_stream_instance_id ?
      (gint64) info.stream_instance_id : r.rank;
  r.stream_name = st->name;
  r.offset = (gint64) st->index.offset;
  r.ns = st->begin_ns;
  r.size = size;
  ok = spill (s, d, size, &r.file_offset, error);
  g_clear_pointer (&b, g_bytes_unref);
  gst_ctf_live_reply_clear (&reply);
  if (!ok)
    return STEP_ERROR;
  add_record (s, &r);
  s->position = MAX (s->position, st->begin_ns);
  st->has_index = FALSE;
  if (st->end_ns > st->bound_ns)
    st->bound_ns = st->end_ns;
  return STEP_OK;
}

static guint
streams_poll (GstCtfGtkLiveSource * s)
{
  return POLL_MS;
}

static Step
round_once (GstCtfGtkLiveSource * s, GError ** error)
{
  LiveStream *best = NULL;
  gboolean progress = FALSE, all_hup = TRUE;
  gint64 low = G_MAXINT64;
  guint i;
  Step st;

  /* lttng-relayd 2.13 can miss the NEW_STREAM flag of per-PID traces */
  if (g_get_monotonic_time () - s->new_streams_at >=
      (gint64) streams_poll (s) * 1000)
    s->want_new_streams = TRUE;
  if (s->want_new_streams && (st = get_new_streams (s, NULL, error)) !=
      STEP_OK)
    return st;
  for (i = 0; i < s->traces->len; i++) {
    LiveTrace *t = g_ptr_array_index (s->traces, i);

    if (t->need_metadata && (st = fetch_metadata (s, t, error)) != STEP_OK)
      return st;
  }
  for (i = 0; i < s->streams->len; i++) {
    LiveStream *ls = g_ptr_array_index (s->streams, i);

    if (ls->hup || ls->has_index || ls->trace->tc == NULL)
      continue;
    if ((st = poll_index (s, ls, &progress, error)) != STEP_OK)
      return st;
  }
  for (i = 0; i < s->traces->len; i++)
    if (((LiveTrace *) g_ptr_array_index (s->traces, i))->need_metadata)
      return STEP_OK;
  if (s->want_new_streams)
    return STEP_OK;

  for (i = 0; i < s->streams->len; i++) {
    LiveStream *ls = g_ptr_array_index (s->streams, i);

    if (ls->hup)
      continue;
    all_hup = FALSE;
    if (ls->has_index && (best == NULL || ls->begin_ns < best->begin_ns))
      best = ls;
    low = MIN (low, ls->has_index ? ls->begin_ns : ls->bound_ns);
  }
  if (best != NULL && low >= best->begin_ns)
    return fetch_packet (s, best, error);
  if (all_hup) {
    gboolean destroyed = FALSE;

    if ((st = get_new_streams (s, &destroyed, error)) != STEP_OK)
      return st;
    if (destroyed)
      return STEP_EOS;
    return s->want_new_streams ? STEP_OK : STEP_WAIT;
  }
  /* blocked: the readers' merges may give back what is older than the
   * lowest known time (lttnglivesrc's GAP event) */
  if (s->tc != NULL && low != G_MININT64 && low > s->position &&
      s->records->len > 0) {
    Record r = { RECORD_ADVANCE, };

    r.ns = low;
    s->position = low;
    add_record (s, &r);
  }
  if (progress)
    return STEP_OK;
  s->want_new_streams = TRUE;
  return STEP_WAIT;
}

static gpointer
follow_thread (gpointer data)
{
  GstCtfGtkLiveSource *s = data;
  GError *err = NULL;
  gboolean eos = FALSE;

  for (;;) {
    Step st;

    g_mutex_lock (&s->lock);
    if (s->stopping) {
      g_mutex_unlock (&s->lock);
      break;
    }
    g_mutex_unlock (&s->lock);
    st = round_once (s, &err);
    if (st == STEP_EOS) {
      eos = TRUE;
      break;
    }
    if (st == STEP_ERROR)
      break;
    if (st == STEP_WAIT) {
      gint64 until = g_get_monotonic_time () + POLL_MS * 1000;

      g_mutex_lock (&s->lock);
      while (!s->stopping && g_cond_wait_until (&s->cond, &s->lock, until));
      g_mutex_unlock (&s->lock);
    }
  }
  g_clear_pointer (&s->client, gst_ctf_live_client_free);
  g_mutex_lock (&s->lock);
  s->ended = TRUE;
  if (err != NULL && !s->stopping && !eos)
    s->error = err;
  else
    g_clear_error (&err);
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
  return NULL;
}

/* ---- the source ---- */

GstCtfGtkLiveSource *
_gst_ctf_gtk_live_source_open (const gchar * url, GError ** error)
{
  GstCtfGtkLiveSource *s = g_new0 (GstCtfGtkLiveSource, 1);
  gchar *tmp = NULL;

  s->ref = 1;
  s->fd = -1;
  g_mutex_init (&s->lock);
  g_cond_init (&s->cond);
  s->cancel = g_cancellable_new ();
  s->session_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->traces = g_ptr_array_new_with_free_func ((GDestroyNotify)
      live_trace_free);
  s->streams = g_ptr_array_new_with_free_func (g_free);
  s->records = g_array_new (FALSE, FALSE, sizeof (Record));
  s->epochs = g_array_new (FALSE, FALSE, sizeof (Epoch));
  s->position = G_MININT64;
  s->ended = TRUE;              /* no thread yet */

  if (!gst_ctf_live_parse_url (url, &s->relay_host, &s->port,
          &s->tracer_host, &s->session, error))
    goto fail;
  if (s->session == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "LTTng live URL \"%s\" names no session: expected "
        "net://HOST[:PORT]/host/TRACER_HOST/SESSION", url);
    goto fail;
  }
  s->client = gst_ctf_live_client_connect (s->relay_host, s->port,
      TIMEOUT_MS, s->cancel, error);
  if (s->client == NULL || !attach (s, error))
    goto fail;
  s->fd = g_file_open_tmp ("gst-ctf-live-XXXXXX", &tmp, error);
  if (s->fd < 0)
    goto fail;
  /* the file goes with its descriptor, also when the process dies */
  g_unlink (tmp);
  g_free (tmp);
  s->ended = FALSE;
  s->thread = g_thread_new ("gstctf-gtk-live", follow_thread, s);
  return s;

fail:
  _gst_ctf_gtk_live_source_unref (s);
  return NULL;
}

GstCtfGtkLiveSource *
_gst_ctf_gtk_live_source_ref (GstCtfGtkLiveSource * s)
{
  g_atomic_int_inc (&s->ref);
  return s;
}

/* Ends the follower (its socket I/O at once) and wakes the readers:
 * they see the end of what was received. */
void
_gst_ctf_gtk_live_source_stop (GstCtfGtkLiveSource * s)
{
  g_mutex_lock (&s->lock);
  s->stopping = TRUE;
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
  g_cancellable_cancel (s->cancel);
  if (s->thread != NULL)
    g_thread_join (g_steal_pointer (&s->thread));
}

void
_gst_ctf_gtk_live_source_unref (GstCtfGtkLiveSource * s)
{
  guint i;

  if (!g_atomic_int_dec_and_test (&s->ref))
    return;
  _gst_ctf_gtk_live_source_stop (s);
  g_clear_pointer (&s->client, gst_ctf_live_client_free);
  g_clear_pointer (&s->merge, gst_ctf_trace_merge_free);
  g_clear_pointer (&s->tc, gst_ctf_trace_class_unref);
  if (s->fd >= 0)
    close (s->fd);
  for (i = 0; i < s->epochs->len; i++)
    gst_ctf_trace_class_unref (g_array_index (s->epochs, Epoch, i).tc);
  g_array_unref (s->epochs);
  g_array_unref (s->records);
  g_ptr_array_unref (s->streams);
  g_ptr_array_unref (s->traces);
  g_array_unref (s->session_ids);
  g_object_unref (s->cancel);
  g_clear_error (&s->error);
  g_free (s->relay_host);
  g_free (s->tracer_host);
  g_free (s->session);
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->cond);
  g_free (s);
}

/* The error that ended the follower (the relay closed the connection,
 * a corrupt packet...), NULL when the session ended or was stopped. */
GError *
_gst_ctf_gtk_live_source_dup_error (GstCtfGtkLiveSource * s)
{
  GError *e;

  g_mutex_lock (&s->lock);
  e = s->error != NULL ? g_error_copy (s->error) : NULL;
  g_mutex_unlock (&s->lock);
  return e;
}

/* ---- readers ---- */

GstCtfGtkLiveReader *
_gst_ctf_gtk_live_reader_new (GstCtfGtkLiveSource * s)
{
  GstCtfGtkLiveReader *r = g_new0 (GstCtfGtkLiveReader, 1);

  r->src = _gst_ctf_gtk_live_source_ref (s);
  r->epoch = -1;
  return r;
}

void
_gst_ctf_gtk_live_reader_free (GstCtfGtkLiveReader * r)
{
  if (r == NULL)
    return;
  _gst_ctf_gtk_live_source_unref (r->src);
  g_free (r);
}

GstCtfGtkLiveSource *
_gst_ctf_gtk_live_reader_get_source (GstCtfGtkLiveReader * r)
{
  return r->src;
}

/* The trace class of the packets the reader gives now (NULL before the
 * first epoch). */
GstCtfTraceClass *
_gst_ctf_gtk_live_reader_get_trace_class (GstCtfGtkLiveReader * r)
{
  GstCtfTraceClass *tc = NULL;

  g_mutex_lock (&r->src->lock);
  if (r->epoch >= 0)
    tc = g_array_index (r->src->epochs, Epoch, r->epoch).tc;
  g_mutex_unlock (&r->src->lock);
  return tc;
}

guint
_gst_ctf_gtk_live_reader_get_epoch (GstCtfGtkLiveReader * r)
{
  return r->epoch < 0 ? 0 : (guint) r->epoch;
}

void
_gst_ctf_gtk_live_reader_rewind (GstCtfGtkLiveReader * r)
{
  r->pos = 0;
  r->epoch = -1;
}

/* Within @epoch: from the packet where every stream's last packet that
 * begins before @ns is (the ones after it are later). */
void
_gst_ctf_gtk_live_reader_seek (GstCtfGtkLiveReader * r, guint epoch,
    gint64 ns)
{
  GstCtfGtkLiveSource *s = r->src;
  GHashTable *last = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer v;
  guint first, end, i, pos;

  g_mutex_lock (&s->lock);
  if (epoch >= s->epochs->len) {
    g_mutex_unlock (&s->lock);
    g_hash_table_unref (last);
    _gst_ctf_gtk_live_reader_rewind (r);
    return;
  }
  first = g_array_index (s->epochs, Epoch, epoch).first;
  end = epoch + 1 < s->epochs->len ?
      g_array_index (s->epochs, Epoch, epoch + 1).first : s->records->len;
  for (i = first; i < end; i++) {
    const Record *rec = &g_array_index (s->records, Record, i);

    if (rec->kind != RECORD_PACKET)
      continue;
    if (rec->ns >= ns)
      break;                    /* in begin order: the rest are later */
    g_hash_table_insert (last, GUINT_TO_POINTER (rec->stream + 1),
        GUINT_TO_POINTER (i + 1));
  }
  g_mutex_unlock (&s->lock);
  pos = i;
  g_hash_table_iter_init (&it, last);
  while (g_hash_table_iter_next (&it, NULL, &v))
    pos = MIN (pos, GPOINTER_TO_UINT (v) - 1);
  g_hash_table_unref (last);
  r->pos = pos;
  r->epoch = (gint) epoch;
}

GstCtfGtkLiveItem
_gst_ctf_gtk_live_reader_next (GstCtfGtkLiveReader * r,
    GstCtfPacketSourcePacket * packet, gint64 * ns, GError ** error)
{
  GstCtfGtkLiveSource *s = r->src;
  Record rec;
  guint8 *data;
  gsize done = 0;

  g_mutex_lock (&s->lock);
  for (;;) {
    if ((guint) (r->epoch + 1) < s->epochs->len &&
        g_array_index (s->epochs, Epoch, r->epoch + 1).first <= r->pos) {
      r->epoch++;
      g_mutex_unlock (&s->lock);
      return GST_CTF_GTK_LIVE_NEW_EPOCH;
    }
    if (r->pos < s->records->len)
      break;
    if (s->ended || s->stopping) {
      /* (after an error too: what came before it is read to its end;
       * _gst_ctf_gtk_live_source_dup_error() tells) */
      g_mutex_unlock (&s->lock);
      return GST_CTF_GTK_LIVE_END;
    }
    g_cond_wait (&s->cond, &s->lock);
  }
  rec = g_array_index (s->records, Record, r->pos);
  r->pos++;
  g_mutex_unlock (&s->lock);

  if (rec.kind == RECORD_ADVANCE) {
    *ns = rec.ns;
    return GST_CTF_GTK_LIVE_ADVANCE;
  }
  data = g_malloc (MAX (rec.size, 1));
  while (done < rec.size) {
    gssize n = pread (s->fd, data + done, rec.size - done,
        (off_t) (rec.file_offset + done));

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
          "Cannot read the live session's packet of stream %s back from "
          "its temporary file: %s", rec.stream_name,
          n < 0 ? g_strerror (errno) : "short read");
      g_free (data);
      return GST_CTF_GTK_LIVE_ERROR;
    }
    done += (gsize) n;
  }
  packet->bytes = g_bytes_new_take (data, rec.size);
  packet->stream_class_id = rec.stream_class_id;
  packet->rank = rec.rank;
  packet->stream_id = rec.stream_id;
  packet->stream_name = rec.stream_name;
  packet->offset = rec.offset;
  *ns = rec.ns;
  return GST_CTF_GTK_LIVE_PACKET;
}
