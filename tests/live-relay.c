/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tests' LTTng live relay (see live-relay.h): the reply side of the
 * viewer protocol (lttng-tools `lttng-viewer-abi.h`, big-endian packed
 * structs) over the packet indexes gst_ctf_trace_dir_open() builds (from
 * `index/NAME.idx` or a header scan).  One thread per connection.
 */
#include "live-relay.h"

#include <gio/gio.h>
#include <string.h>

#include "gstctf-trace-dir.h"
#include "gstctf-live.h"
#include "gstctf-metadata.h"

typedef struct {
  guint64 id;
  guint trace;                  /* in TestRelay.traces */
  const GstCtfStreamFile *file; /* NULL: the metadata stream */
} RelayStream;

typedef struct {
  GstCtfTraceDir *td;
  gchar *rel;                   /* path below the served directory */
  GBytes *metadata;             /* the metadata file as on disk */
} RelayTrace;

struct _TestRelay
{
  TestRelayOptions opts;
  gchar *dir, *hostname, *session_name;
  GPtrArray *traces;            /* RelayTrace* */
  GArray *streams;              /* RelayStream */
  GSocket *listener;
  guint16 port;
  GCancellable *cancel;
  GThread *accept_thread;
  GMutex lock;
  GPtrArray *threads;           /* connection threads */
  gboolean destroyed;
  gboolean ctf2;                /* the (first) trace is CTF 2 */
};

/* Per connection. */
typedef struct {
  TestRelay *r;
  GSocket *sock;
  guint32 minor;
  gboolean attached;
  gboolean *attached_to;        /* per relay session */
  gboolean *sent;               /* stream announced */
  guint *cursor;                /* next index entry per stream */
  guint *retries;               /* RETRY replies given for that entry */
  gboolean *beaconed;           /* beacon given for that entry */
  gsize *meta_off;              /* metadata bytes given per stream */
  gboolean *hup;
  guint packets;                /* GET_PACKET replies sent */
} Conn;

static void
put64 (GByteArray * a, guint64 v)
{
  v = GUINT64_TO_BE (v);
  g_byte_array_append (a, (guint8 *) & v, 8);
}

static void
put32 (GByteArray * a, guint32 v)
{
  v = GUINT32_TO_BE (v);
  g_byte_array_append (a, (guint8 *) & v, 4);
}

static void
put_fixed (GByteArray * a, const gchar * s, gsize n)
{
  guint8 *z = g_malloc0 (n);

  strncpy ((gchar *) z, s, n - 1);
  g_byte_array_append (a, z, n);
  g_free (z);
}

static gboolean
recv_all (Conn * c, guint8 * buf, gsize n)
{
  gsize got = 0;

  while (got < n) {
    gssize r = g_socket_receive (c->sock, (gchar *) buf + got, n - got,
        c->r->cancel, NULL);

    if (r <= 0)
      return FALSE;
    got += r;
  }
  return TRUE;
}

static gboolean
send_all (Conn * c, GByteArray * a)
{
  gsize sent = 0;

  while (sent < a->len) {
    gssize r = g_socket_send (c->sock, (gchar *) a->data + sent,
        a->len - sent, c->r->cancel, NULL);

    if (r <= 0)
      return FALSE;
    sent += r;
  }
  return TRUE;
}

static guint64
rd64 (const guint8 * p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_BE (v);
}

static guint32
rd32 (const guint8 * p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return GUINT32_FROM_BE (v);
}

static gboolean
is_late (TestRelay * r, guint i)
{
  const RelayStream *s = &g_array_index (r->streams, RelayStream, i);
  guint j;

  if (!r->opts.late_streams || s->file == NULL)
    return FALSE;
  /* the first data stream of its trace is not late */
  for (j = 0; j < i; j++) {
    const RelayStream *o = &g_array_index (r->streams, RelayStream, j);

    if (o->trace == s->trace && o->file != NULL)
      return TRUE;
  }
  return FALSE;
}

/* The relay session (1...) a stream belongs to. */
static guint64
session_of (TestRelay * r, const RelayStream * s)
{
  return r->opts.session_per_trace ? s->trace + 1 : 1;
}

static guint64
n_sessions (TestRelay * r)
{
  return r->opts.session_per_trace ? r->traces->len : 1;
}

/* The streams of relay session @sid not sent yet (late ones or not). */
static void
put_streams (Conn * c, GByteArray * a, gboolean late, guint64 sid)
{
  TestRelay *r = c->r;
  GByteArray *list = g_byte_array_new ();
  guint i, n = 0;

  for (i = 0; i < r->streams->len; i++) {
    const RelayStream *s = &g_array_index (r->streams, RelayStream, i);
    const RelayTrace *t = g_ptr_array_index (r->traces, s->trace);
    gchar *path;

    if (c->sent[i] || is_late (r, i) != late || session_of (r, s) != sid ||
        !c->attached_to[sid - 1] || (late && c->packets < r->opts.late_after))
      continue;
    c->sent[i] = TRUE;
    n++;
    put64 (list, s->id);
    put64 (list, s->trace + 1);
    put32 (list, s->file == NULL);
    path = g_build_filename (r->hostname, r->session_name, t->rel, NULL);
    put_fixed (list, path, 4096);
    g_free (path);
    put_fixed (list, s->file ? s->file->name : "metadata", 255);
  }
  put32 (a, n);
  g_byte_array_append (a, list->data, list->len);
  g_byte_array_unref (list);
}

/* Streams not sent yet, of relay session @sid (0: of any attached one). */
static gboolean
any_late_unsent (Conn * c, guint64 sid)
{
  guint i;

  for (i = 0; i < c->r->streams->len; i++) {
    guint64 s = session_of (c->r, &g_array_index (c->r->streams, RelayStream,
            i));

    if (!c->sent[i] && c->attached_to[s - 1] && (sid == 0 || s == sid) &&
        c->packets >= c->r->opts.late_after)
      return TRUE;
  }
  return FALSE;
}

static void
check_destroyed (Conn * c)
{
  guint i;

  for (i = 0; i < c->r->streams->len; i++)
    if (g_array_index (c->r->streams, RelayStream, i).file && !c->hup[i])
      return;
  g_mutex_lock (&c->r->lock);
  c->r->destroyed = TRUE;
  g_mutex_unlock (&c->r->lock);
}

static gboolean
destroyed (TestRelay * r)
{
  gboolean d;

  g_mutex_lock (&r->lock);
  d = r->destroyed;
  g_mutex_unlock (&r->lock);
  return d;
}

static gint
find_stream (TestRelay * r, guint64 id)
{
  guint i;

  for (i = 0; i < r->streams->len; i++)
    if (g_array_index (r->streams, RelayStream, i).id == id)
      return i;
  return -1;
}

/* The latest timestamp_end of the packets of trace @t. */
static guint64
trace_end (TestRelay * r, guint t)
{
  guint64 end = 0;
  guint i, k;

  for (i = 0; i < r->streams->len; i++) {
    const RelayStream *s = &g_array_index (r->streams, RelayStream, i);

    if (s->trace != t || s->file == NULL)
      continue;
    for (k = 0; k < s->file->index->entries->len; k++)
      end = MAX (end, g_array_index (s->file->index->entries,
              GstCtfIndexEntry, k).timestamp_end);
  }
  return end;
}

static void
reply_index (Conn * c, GByteArray * a, guint64 id)
{
  TestRelay *r = c->r;
  gint i = find_stream (r, id);
  const RelayStream *s;
  const GstCtfIndexEntry *e = NULL;
  guint32 status = GST_CTF_LIVE_INDEX_OK, flags = 0;
  guint64 beacon = 0, s_sc = 0;
  GArray *entries;

  if (i < 0 || g_array_index (r->streams, RelayStream, i).file == NULL) {
    status = GST_CTF_LIVE_INDEX_ERR;
    goto out;
  }
  s = &g_array_index (r->streams, RelayStream, i);
  s_sc = s->file->stream_class_id;
  entries = s->file->index->entries;
  if (any_late_unsent (c, 0))
    flags |= GST_CTF_LIVE_FLAG_NEW_STREAM;
  if (c->cursor[i] >= entries->len && r->opts.never_end) {
    status = GST_CTF_LIVE_INDEX_INACTIVE;
    beacon = trace_end (r, s->trace) + 1;
    goto out;
  }
  if (r->opts.hold_after && c->packets >= r->opts.hold_after) {
    status = GST_CTF_LIVE_INDEX_RETRY;
    goto out;
  }
  if (c->cursor[i] >= entries->len && r->opts.stall_at_end) {
    status = GST_CTF_LIVE_INDEX_RETRY;
    goto out;
  }
  if (c->cursor[i] >= entries->len) {
    status = GST_CTF_LIVE_INDEX_HUP;
    c->hup[i] = TRUE;
    check_destroyed (c);
    goto out;
  }
  e = &g_array_index (entries, GstCtfIndexEntry, c->cursor[i]);
  if (c->retries[i] < r->opts.retry_runs) {
    c->retries[i]++;
    status = GST_CTF_LIVE_INDEX_RETRY;
    e = NULL;
    goto out;
  }
  if (r->opts.beacons && !c->beaconed[i] &&
      (e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN) &&
      e->timestamp_begin > 0) {
    c->beaconed[i] = TRUE;
    status = GST_CTF_LIVE_INDEX_INACTIVE;
    beacon = e->timestamp_begin - 1;
    e = NULL;
    goto out;
  }
  c->cursor[i]++;
  c->retries[i] = 0;
  c->beaconed[i] = FALSE;

out:
  put64 (a, e ? e->offset : 0);
  put64 (a, e ? e->packet_size * 8 : 0);
  put64 (a, e ? e->content_size : 0);
  put64 (a, e ? e->timestamp_begin : 0);
  put64 (a, e ? e->timestamp_end : beacon);
  put64 (a, e ? e->events_discarded : 0);
  put64 (a, e ? e->stream_class_id : s_sc);
  put32 (a, status);
  put32 (a, flags);
}

static void
reply_metadata (Conn * c, GByteArray * a, guint64 id)
{
  TestRelay *r = c->r;
  gint i = find_stream (r, id);
  const RelayStream *s;
  gsize size, n;
  const guint8 *d;

  if (i < 0 || g_array_index (r->streams, RelayStream, i).file != NULL) {
    put64 (a, 0);
    put32 (a, GST_CTF_LIVE_METADATA_ERR);
    return;
  }
  s = &g_array_index (r->streams, RelayStream, i);
  d = g_bytes_get_data (((RelayTrace *) g_ptr_array_index (r->traces,
              s->trace))->metadata, &size);
  if (c->meta_off[i] >= size) {
    put64 (a, 0);
    put32 (a, GST_CTF_LIVE_METADATA_NO_NEW);
    return;
  }
  n = size - c->meta_off[i];
  if (r->opts.metadata_chunk && n > r->opts.metadata_chunk)
    n = r->opts.metadata_chunk;
  put64 (a, n);
  put32 (a, GST_CTF_LIVE_METADATA_OK);
  g_byte_array_append (a, d + c->meta_off[i], n);
  c->meta_off[i] += n;
}

static void
reply_packet (Conn * c, GByteArray * a, const guint8 * p)
{
  TestRelay *r = c->r;
  gint i = find_stream (r, rd64 (p));
  guint64 off = rd64 (p + 8);
  guint32 len = rd32 (p + 16);
  const GstCtfStreamFile *f;

  if (i < 0 || (f = g_array_index (r->streams, RelayStream, i).file) == NULL
      || off > f->size || len > f->size - off) {
    put32 (a, GST_CTF_LIVE_PACKET_ERR);
    put32 (a, 0);
    put32 (a, 0);
    return;
  }
  put32 (a, GST_CTF_LIVE_PACKET_OK);
  put32 (a, len);
  put32 (a, 0);
  g_byte_array_append (a, f->data + off, len);
}

static void
reply_sessions (Conn * c, GByteArray * a)
{
  TestRelay *r = c->r;
  guint32 timer = r->opts.live_timer ? r->opts.live_timer : 100000;
  guint64 sid;

  if (destroyed (r)) {
    put32 (a, 0);
    return;
  }
  put32 (a, n_sessions (r));
  for (sid = 1; sid <= n_sessions (r); sid++) {
    guint n = 0, i;

    for (i = 0; i < r->streams->len; i++)
      if (session_of (r, &g_array_index (r->streams, RelayStream, i)) == sid)
        n++;
    put64 (a, sid);
    put32 (a, r->opts.attach_status == GST_CTF_LIVE_ATTACH_NOT_LIVE ? 0 :
        timer);
    put32 (a, c->attached_to[sid - 1] ? 1 : 0);
    put32 (a, n);
    if (c->minor >= 15) {
      put32 (a, strlen (r->hostname) + 1);
      put32 (a, strlen (r->session_name) + 1);
      put32 (a, r->ctf2 ? GST_CTF_LIVE_TRACE_FORMAT_CTF_2 :
          GST_CTF_LIVE_TRACE_FORMAT_CTF_1_8);
      g_byte_array_append (a, (guint8 *) r->hostname,
          strlen (r->hostname) + 1);
      g_byte_array_append (a, (guint8 *) r->session_name,
          strlen (r->session_name) + 1);
    } else {
      put_fixed (a, r->hostname, 64);
      put_fixed (a, r->session_name, 255);
    }
  }
}

static gpointer
conn_thread (gpointer data)
{
  Conn *c = data;
  TestRelay *r = c->r;
  guint n = r->streams->len;
  guint8 h[16];

  c->sent = g_new0 (gboolean, n);
  c->attached_to = g_new0 (gboolean, n_sessions (r));
  c->cursor = g_new0 (guint, n);
  c->retries = g_new0 (guint, n);
  c->beaconed = g_new0 (gboolean, n);
  c->meta_off = g_new0 (gsize, n);
  c->hup = g_new0 (gboolean, n);
  c->minor = r->opts.minor;

  while (recv_all (c, h, 16)) {
    guint64 size = rd64 (h);
    guint32 cmd = rd32 (h + 8);
    guint8 *p;
    GByteArray *a;
    gboolean ok;

    if (size > 4096)
      break;
    p = g_malloc0 (size + 32);
    if (!recv_all (c, p, size)) {
      g_free (p);
      break;
    }
    a = g_byte_array_new ();
    switch (cmd) {
      case GST_CTF_LIVE_CMD_CONNECT:
        c->minor = MIN (r->opts.minor, rd32 (p + 12));
        put64 (a, 42);
        put32 (a, 2);
        put32 (a, r->opts.minor);
        put32 (a, 1);
        break;
      case GST_CTF_LIVE_CMD_CREATE_SESSION:
        put32 (a, GST_CTF_LIVE_CREATE_SESSION_OK);
        break;
      case GST_CTF_LIVE_CMD_LIST_SESSIONS:
        reply_sessions (c, a);
        break;
      case GST_CTF_LIVE_CMD_ATTACH_SESSION:
        if (rd64 (p) < 1 || rd64 (p) > n_sessions (r) || destroyed (r)) {
          put32 (a, GST_CTF_LIVE_ATTACH_UNK);
          put32 (a, 0);
        } else if (r->opts.attach_status) {
          put32 (a, r->opts.attach_status);
          put32 (a, 0);
        } else {
          guint i;

          if (rd32 (p + 16) == GST_CTF_LIVE_SEEK_LAST)
            /* from now: each stream's last packet */
            for (i = 0; i < n; i++) {
              const RelayStream *s = &g_array_index (r->streams,
                  RelayStream, i);

              if (s->file && s->file->index->entries->len)
                c->cursor[i] = s->file->index->entries->len - 1;
            }
          c->attached = TRUE;
          c->attached_to[rd64 (p) - 1] = TRUE;
          put32 (a, GST_CTF_LIVE_ATTACH_OK);
          put_streams (c, a, FALSE, rd64 (p));
        }
        break;
      case GST_CTF_LIVE_CMD_GET_NEW_STREAMS:
        if (rd64 (p) < 1 || rd64 (p) > n_sessions (r) ||
            !c->attached_to[rd64 (p) - 1]) {
          put32 (a, GST_CTF_LIVE_NEW_STREAMS_ERR);
          put32 (a, 0);
        } else if (any_late_unsent (c, rd64 (p))) {
          put32 (a, GST_CTF_LIVE_NEW_STREAMS_OK);
          put_streams (c, a, TRUE, rd64 (p));
        } else if (destroyed (r)) {
          put32 (a, GST_CTF_LIVE_NEW_STREAMS_HUP);
          put32 (a, 0);
        } else {
          put32 (a, r->opts.empty_new_streams ? GST_CTF_LIVE_NEW_STREAMS_OK :
              GST_CTF_LIVE_NEW_STREAMS_NO_NEW);
          put32 (a, 0);
        }
        break;
      case GST_CTF_LIVE_CMD_GET_METADATA:
        reply_metadata (c, a, rd64 (p));
        break;
      case GST_CTF_LIVE_CMD_GET_NEXT_INDEX:
        reply_index (c, a, rd64 (p));
        break;
      case GST_CTF_LIVE_CMD_GET_PACKET:
        if (r->opts.close_after && c->packets >= r->opts.close_after) {
          /* the relay goes away in the middle of the session */
          g_free (p);
          g_byte_array_unref (a);
          goto done;
        }
        c->packets++;
        reply_packet (c, a, p);
        break;
      case GST_CTF_LIVE_CMD_DETACH_SESSION:
        c->attached = FALSE;
        put32 (a, GST_CTF_LIVE_DETACH_OK);
        break;
      default:
        put32 (a, G_MAXUINT32);
        break;
    }
    g_free (p);
    ok = send_all (c, a);
    g_byte_array_unref (a);
    if (!ok)
      break;
  }
done:
  g_socket_close (c->sock, NULL);
  g_object_unref (c->sock);
  g_free (c->sent);
  g_free (c->attached_to);
  g_free (c->cursor);
  g_free (c->retries);
  g_free (c->beaconed);
  g_free (c->meta_off);
  g_free (c->hup);
  g_free (c);
  return NULL;
}

static gpointer
accept_thread (gpointer data)
{
  TestRelay *r = data;

  for (;;) {
    GSocket *s = g_socket_accept (r->listener, r->cancel, NULL);
    Conn *c;

    if (s == NULL)
      break;
    c = g_new0 (Conn, 1);
    c->r = r;
    c->sock = s;
    g_mutex_lock (&r->lock);
    g_ptr_array_add (r->threads, g_thread_new ("live-relay-conn",
            conn_thread, c));
    g_mutex_unlock (&r->lock);
  }
  return NULL;
}

static void
relay_trace_free (RelayTrace * t)
{
  gst_ctf_trace_dir_free (t->td);
  g_free (t->rel);
  g_bytes_unref (t->metadata);
  g_free (t);
}

TestRelay *
test_relay_start (const TestRelayOptions * opts, GError ** error)
{
  TestRelay *r = g_new0 (TestRelay, 1);
  GPtrArray *paths;
  GInetAddress *lo;
  GSocketAddress *addr, *bound;
  guint i, j;
  guint64 next_id = 1;

  r->opts = *opts;
  if (r->opts.minor == 0)
    r->opts.minor = 13;
  r->dir = g_strdup (opts->dir);
  r->hostname = g_strdup (opts->hostname ? opts->hostname : "testhost");
  r->session_name = g_strdup (opts->session_name ? opts->session_name :
      "testsession");
  r->traces = g_ptr_array_new_with_free_func ((GDestroyNotify)
      relay_trace_free);
  r->streams = g_array_new (FALSE, FALSE, sizeof (RelayStream));
  r->threads = g_ptr_array_new ();
  r->cancel = g_cancellable_new ();
  g_mutex_init (&r->lock);

  paths = gst_ctf_find_traces (opts->dir, error);
  if (paths == NULL)
    goto fail;
  for (i = 0; i < paths->len; i++) {
    const gchar *path = g_ptr_array_index (paths, i);
    RelayTrace *t = g_new0 (RelayTrace, 1);
    gchar *mpath, *contents;
    gsize len;
    RelayStream ms = { next_id++, i, NULL };

    g_ptr_array_add (r->traces, t);
    t->td = gst_ctf_trace_dir_open (path, error);
    if (t->td == NULL) {
      g_ptr_array_unref (paths);
      goto fail;
    }
    t->rel = g_strdup (path + strlen (opts->dir));
    mpath = g_build_filename (path, "metadata", NULL);
    if (!g_file_get_contents (mpath, &contents, &len, error)) {
      g_free (mpath);
      g_ptr_array_unref (paths);
      goto fail;
    }
    g_free (mpath);
    t->metadata = g_bytes_new_take (contents, len);
    if (i == 0 && t->td->metadata)
      r->ctf2 = gst_ctf_metadata_is_ctf2 (t->td->metadata);
    g_array_append_val (r->streams, ms);
    for (j = 0; j < t->td->files->len; j++) {
      RelayStream ds = { next_id++, i, g_ptr_array_index (t->td->files, j) };

      g_array_append_val (r->streams, ds);
    }
  }
  g_ptr_array_unref (paths);

  r->listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
      G_SOCKET_PROTOCOL_TCP, error);
  if (r->listener == NULL)
    goto fail;
  lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  addr = g_inet_socket_address_new (lo, 0);
  g_object_unref (lo);
  if (!g_socket_bind (r->listener, addr, TRUE, error)) {
    g_object_unref (addr);
    goto fail;
  }
  g_object_unref (addr);
  if (!g_socket_listen (r->listener, error))
    goto fail;
  bound = g_socket_get_local_address (r->listener, error);
  if (bound == NULL)
    goto fail;
  r->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_object_unref (bound);
  r->accept_thread = g_thread_new ("live-relay", accept_thread, r);
  return r;

fail:
  test_relay_stop (r);
  return NULL;
}

guint16
test_relay_get_port (TestRelay * r)
{
  return r->port;
}

gboolean
test_relay_session_destroyed (TestRelay * r)
{
  return destroyed (r);
}

void
test_relay_stop (TestRelay * r)
{
  guint i;

  if (r == NULL)
    return;
  g_cancellable_cancel (r->cancel);
  if (r->accept_thread)
    g_thread_join (r->accept_thread);
  for (i = 0; i < r->threads->len; i++)
    g_thread_join (g_ptr_array_index (r->threads, i));
  g_ptr_array_unref (r->threads);
  if (r->listener) {
    g_socket_close (r->listener, NULL);
    g_object_unref (r->listener);
  }
  g_object_unref (r->cancel);
  g_ptr_array_unref (r->traces);
  g_array_unref (r->streams);
  g_mutex_clear (&r->lock);
  g_free (r->dir);
  g_free (r->hostname);
  g_free (r->session_name);
  g_free (r);
}
