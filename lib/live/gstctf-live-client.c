/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng live viewer client: one blocking TCP connection to a relay's viewer
 * port (TCP_NODELAY, each request in one write, replies through
 * gst_ctf_live_read_reply()).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-live.h"

#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

struct _GstCtfLiveClient
{
  GSocketConnection *conn;
  GSocket *socket;
  GCancellable *cancellable;
  gchar *relay;                 /* HOST:PORT for messages */
  gint64 timeout_us;
  guint32 minor;
  guint64 viewer_session_id;
};

static gboolean
client_read (gpointer ctx, guint8 * buf, gsize n, GError ** error)
{
  GstCtfLiveClient *c = ctx;
  gsize got = 0;

  while (got < n) {
    GError *err = NULL;
    gssize r;

    if (c->timeout_us > 0 && !g_socket_condition_timed_wait (c->socket,
            G_IO_IN, c->timeout_us, c->cancellable, &err)) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s: %s", c->relay,
          g_error_matches (err, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ?
          "no reply within the timeout" : err->message);
      g_error_free (err);
      return FALSE;
    }
    r = g_socket_receive (c->socket, (gchar *) buf + got, n - got,
        c->cancellable, &err);
    if (r < 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s: %s", c->relay, err->message);
      g_error_free (err);
      return FALSE;
    }
    if (r == 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s closed the connection", c->relay);
      return FALSE;
    }
    got += r;
  }
  return TRUE;
}

static gboolean
client_send (GstCtfLiveClient * c, GBytes * msg, GError ** error)
{
  gsize len, sent = 0;
  const guint8 *d = g_bytes_get_data (msg, &len);

  while (sent < len) {
    GError *err = NULL;
    gssize r = g_socket_send (c->socket, (const gchar *) d + sent,
        len - sent, c->cancellable, &err);

    if (r < 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
          "LTTng relay %s: cannot send: %s", c->relay, err->message);
      g_error_free (err);
      return FALSE;
    }
    sent += r;
  }
  return TRUE;
}

gboolean
gst_ctf_live_client_request (GstCtfLiveClient * c, GstCtfLiveCommand cmd,
    const guint8 * payload, gsize payload_len, guint32 max_len,
    GstCtfLiveReply * reply, GError ** error)
{
  GBytes *msg = gst_ctf_live_encode_request (cmd, payload, payload_len);
  gboolean ok = client_send (c, msg, error);

  g_bytes_unref (msg);
  memset (reply, 0, sizeof *reply);
  if (!ok)
    return FALSE;
  if (!gst_ctf_live_read_reply (cmd, c->minor, max_len, client_read, c,
          reply, error)) {
    gst_ctf_live_reply_clear (reply);
    return FALSE;
  }
  return TRUE;
}

static void
put64 (guint8 * p, guint64 v)
{
  v = GUINT64_TO_BE (v);
  memcpy (p, &v, 8);
}

static void
put32 (guint8 * p, guint32 v)
{
  v = GUINT32_TO_BE (v);
  memcpy (p, &v, 4);
}

GstCtfLiveClient *
gst_ctf_live_client_connect (const gchar * host, guint16 port,
    guint timeout_ms, GCancellable * cancellable, GError ** error)
{
  GstCtfLiveClient *c = g_new0 (GstCtfLiveClient, 1);
  GSocketClient *sc = g_socket_client_new ();
  GError *err = NULL;
  GstCtfLiveReply reply;
  guint8 p[20];

  c->relay = g_strdup_printf ("%s:%u", host, port);
  c->timeout_us = (gint64) timeout_ms * 1000;
  c->minor = GST_CTF_LIVE_MINOR;
  if (cancellable)
    c->cancellable = g_object_ref (cancellable);
  if (timeout_ms)
    g_socket_client_set_timeout (sc, (timeout_ms + 999) / 1000);
  /* a relay is reached directly: no proxy resolution (libproxy) */
  g_socket_client_set_enable_proxy (sc, FALSE);
  c->conn = g_socket_client_connect_to_host (sc, host, port, cancellable,
      &err);
  g_object_unref (sc);
  if (c->conn == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "Cannot connect to LTTng relay %s: %s", c->relay, err->message);
    g_error_free (err);
    gst_ctf_live_client_free (c);
    return NULL;
  }
  c->socket = g_socket_connection_get_socket (c->conn);
  /* small requests answered at once: no Nagle delay */
  if (g_socket_get_family (c->socket) != G_SOCKET_FAMILY_UNIX)
    g_socket_set_option (c->socket, IPPROTO_TCP, TCP_NODELAY, 1, NULL);

  put64 (p, G_MAXUINT64);
  put32 (p + 8, GST_CTF_LIVE_MAJOR);
  put32 (p + 12, GST_CTF_LIVE_MINOR);
  put32 (p + 16, 1);            /* LTTNG_VIEWER_CLIENT_COMMAND */
  if (!gst_ctf_live_client_request (c, GST_CTF_LIVE_CMD_CONNECT, p, 20, 0,
          &reply, error)) {
    gst_ctf_live_client_free (c);
    return NULL;
  }
  if (reply.major != GST_CTF_LIVE_MAJOR) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "LTTng relay %s speaks live protocol %u.%u, not %u.x", c->relay,
        reply.major, reply.minor, GST_CTF_LIVE_MAJOR);
    gst_ctf_live_client_free (c);
    return NULL;
  }
  c->minor = MIN (reply.minor, GST_CTF_LIVE_MINOR);
  c->viewer_session_id = reply.viewer_session_id;

  if (!gst_ctf_live_client_request (c, GST_CTF_LIVE_CMD_CREATE_SESSION,
          NULL, 0, 0, &reply, error)) {
    gst_ctf_live_client_free (c);
    return NULL;
  }
  if (reply.status != GST_CTF_LIVE_CREATE_SESSION_OK) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "LTTng relay %s refused to create a viewer session (status %u)",
        c->relay, reply.status);
    gst_ctf_live_client_free (c);
    return NULL;
  }
  return c;
}

void
gst_ctf_live_client_free (GstCtfLiveClient * c)
{
  if (c == NULL)
    return;
  if (c->conn) {
    g_io_stream_close (G_IO_STREAM (c->conn), NULL, NULL);
    g_object_unref (c->conn);
  }
  g_clear_object (&c->cancellable);
  g_free (c->relay);
  g_free (c);
}

guint32
gst_ctf_live_client_get_minor (GstCtfLiveClient * c)
{
  return c->minor;
}

gboolean
gst_ctf_live_client_list_sessions (GstCtfLiveClient * c,
    GstCtfLiveReply * reply, GError ** error)
{
  return gst_ctf_live_client_request (c, GST_CTF_LIVE_CMD_LIST_SESSIONS,
      NULL, 0, 0, reply, error);
}

gboolean
gst_ctf_live_client_attach (GstCtfLiveClient * c, guint64 session_id,
    GstCtfLiveSeek seek, GstCtfLiveReply * reply, GError ** error)
{
  guint8 p[20];

  put64 (p, session_id);
  put64 (p + 8, 0);
  put32 (p + 16, seek);
  return gst_ctf_live_client_request (c, GST_CTF_LIVE_CMD_ATTACH_SESSION, p,
      20, 0, reply, error);
}

static gboolean
request_id (GstCtfLiveClient * c, GstCtfLiveCommand cmd, guint64 id,
    GstCtfLiveReply * reply, GError ** error)
{
  guint8 p[8];

  put64 (p, id);
  return gst_ctf_live_client_request (c, cmd, p, 8, 0, reply, error);
}

gboolean
gst_ctf_live_client_get_new_streams (GstCtfLiveClient * c,
    guint64 session_id, GstCtfLiveReply * reply, GError ** error)
{
  return request_id (c, GST_CTF_LIVE_CMD_GET_NEW_STREAMS, session_id, reply,
      error);
}

gboolean
gst_ctf_live_client_get_metadata (GstCtfLiveClient * c, guint64 stream_id,
    GstCtfLiveReply * reply, GError ** error)
{
  return request_id (c, GST_CTF_LIVE_CMD_GET_METADATA, stream_id, reply,
      error);
}

gboolean
gst_ctf_live_client_get_next_index (GstCtfLiveClient * c, guint64 stream_id,
    GstCtfLiveReply * reply, GError ** error)
{
  return request_id (c, GST_CTF_LIVE_CMD_GET_NEXT_INDEX, stream_id, reply,
      error);
}

gboolean
gst_ctf_live_client_get_packet (GstCtfLiveClient * c, guint64 stream_id,
    guint64 offset, guint32 len, GstCtfLiveReply * reply, GError ** error)
{
  guint8 p[20];

  put64 (p, stream_id);
  put64 (p + 8, offset);
  put32 (p + 16, len);
  return gst_ctf_live_client_request (c, GST_CTF_LIVE_CMD_GET_PACKET, p, 20,
      len, reply, error);
}

gboolean
gst_ctf_live_client_detach (GstCtfLiveClient * c, guint64 session_id,
    GstCtfLiveReply * reply, GError ** error)
{
  return request_id (c, GST_CTF_LIVE_CMD_DETACH_SESSION, session_id, reply,
      error);
}

GPtrArray *
gst_ctf_live_list_sessions (const gchar * url, guint timeout_ms,
    GCancellable * cancellable, GError ** error)
{
  GstCtfLiveClient *c;
  GstCtfLiveReply reply;
  GPtrArray *sessions = NULL;
  gchar *host;
  guint16 port;

  if (!gst_ctf_live_parse_url (url, &host, &port, NULL, NULL, error))
    return NULL;
  c = gst_ctf_live_client_connect (host, port, timeout_ms, cancellable,
      error);
  g_free (host);
  if (c == NULL)
    return NULL;
  if (gst_ctf_live_client_list_sessions (c, &reply, error)) {
    sessions = g_steal_pointer (&reply.sessions);
    gst_ctf_live_reply_clear (&reply);
  }
  gst_ctf_live_client_free (c);
  return sessions;
}
