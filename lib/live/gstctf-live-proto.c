/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng live viewer protocol: request encoding and bounded reply parsing
 * (no sockets here: replies are read through a GstCtfLiveReadFunc, so the
 * fuzz target drives the same code from memory).  Layouts: lttng-tools
 * `lttng-viewer-abi.h`, all integers big-endian, structs packed.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-live.h"
#include "gstctf-metadata.h"

#include <string.h>

/* Fixed sizes of the wire structures. */
#define SESSION_2_4_SIZE (8 + 4 + 4 + 4 + 64 + 255)
#define SESSION_2_15_FIXED (8 + 4 + 4 + 4 + 4 + 4 + 4)
#define STREAM_SIZE (8 + 8 + 4 + 4096 + 255)
#define INDEX_SIZE (7 * 8 + 4 + 4)
/* Bytes read at once when a reply carries a long payload: memory grows
 * only as the bytes arrive. */
#define CHUNK (64 * 1024)

static guint32
rd32 (const guint8 * p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) |
      ((guint32) p[2] << 8) | p[3];
}

static guint64
rd64 (const guint8 * p)
{
  return ((guint64) rd32 (p) << 32) | rd32 (p + 4);
}

static const gchar *
cmd_name (GstCtfLiveCommand cmd)
{
  switch (cmd) {
    case GST_CTF_LIVE_CMD_CONNECT:
      return "CONNECT";
    case GST_CTF_LIVE_CMD_LIST_SESSIONS:
      return "LIST_SESSIONS";
    case GST_CTF_LIVE_CMD_ATTACH_SESSION:
      return "ATTACH_SESSION";
    case GST_CTF_LIVE_CMD_GET_NEXT_INDEX:
      return "GET_NEXT_INDEX";
    case GST_CTF_LIVE_CMD_GET_PACKET:
      return "GET_PACKET";
    case GST_CTF_LIVE_CMD_GET_METADATA:
      return "GET_METADATA";
    case GST_CTF_LIVE_CMD_GET_NEW_STREAMS:
      return "GET_NEW_STREAMS";
    case GST_CTF_LIVE_CMD_CREATE_SESSION:
      return "CREATE_SESSION";
    case GST_CTF_LIVE_CMD_DETACH_SESSION:
      return "DETACH_SESSION";
  }
  return "unknown command";
}

void
gst_ctf_live_session_free (GstCtfLiveSession * s)
{
  if (s == NULL)
    return;
  g_free (s->hostname);
  g_free (s->session_name);
  g_free (s);
}

void
gst_ctf_live_stream_free (GstCtfLiveStream * s)
{
  if (s == NULL)
    return;
  g_free (s->path_name);
  g_free (s->channel_name);
  g_free (s);
}

void
gst_ctf_live_reply_clear (GstCtfLiveReply * reply)
{
  g_clear_pointer (&reply->sessions, g_ptr_array_unref);
  g_clear_pointer (&reply->streams, g_ptr_array_unref);
  g_clear_pointer (&reply->data, g_bytes_unref);
}

GBytes *
gst_ctf_live_encode_request (GstCtfLiveCommand cmd, const guint8 * payload,
    gsize payload_len)
{
  guint8 *buf = g_malloc (GST_CTF_LIVE_HEADER_SIZE + payload_len);
  guint64 size = GUINT64_TO_BE ((guint64) payload_len);
  guint32 c = GUINT32_TO_BE ((guint32) cmd), version = 0;

  memcpy (buf, &size, 8);
  memcpy (buf + 8, &c, 4);
  memcpy (buf + 12, &version, 4);
  if (payload_len)
    memcpy (buf + GST_CTF_LIVE_HEADER_SIZE, payload, payload_len);
  return g_bytes_new_take (buf, GST_CTF_LIVE_HEADER_SIZE + payload_len);
}

/* A fixed-size text field: up to its first NUL, made valid UTF-8. */
static gchar *
fixed_string (const guint8 * p, gsize max)
{
  const guint8 *nul = memchr (p, 0, max);

  return g_utf8_make_valid ((const gchar *) p, nul ? nul - p : (gssize) max);
}

/* @len bytes read in chunks, so that a length nobody sends allocates
 * nothing. */
static GBytes *
read_payload (GstCtfLiveReadFunc read, gpointer ctx, gsize len,
    GError ** error)
{
  GByteArray *a = g_byte_array_new ();

  while (a->len < len) {
    gsize n = MIN (len - a->len, CHUNK);
    guint old = a->len;

    g_byte_array_set_size (a, old + n);
    if (!read (ctx, a->data + old, n, error)) {
      g_byte_array_unref (a);
      return NULL;
    }
  }
  return g_byte_array_free_to_bytes (a);
}

static gboolean
read_sessions (guint32 minor, GstCtfLiveReadFunc read, gpointer ctx,
    GstCtfLiveReply * reply, GError ** error)
{
  guint8 b[SESSION_2_4_SIZE];
  guint32 count, i;

  if (!read (ctx, b, 4, error))
    return FALSE;
  count = rd32 (b);
  if (count > GST_CTF_LIVE_MAX_SESSIONS) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "LIST_SESSIONS reply: %u sessions, more than the %u accepted",
        count, GST_CTF_LIVE_MAX_SESSIONS);
    return FALSE;
  }
  reply->sessions = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_live_session_free);
  for (i = 0; i < count; i++) {
    GstCtfLiveSession *s;

    if (!read (ctx, b, minor >= 15 ? SESSION_2_15_FIXED : SESSION_2_4_SIZE,
            error))
      return FALSE;
    s = g_new0 (GstCtfLiveSession, 1);
    s->id = rd64 (b);
    s->live_timer = rd32 (b + 8);
    s->clients = rd32 (b + 12);
    s->streams = rd32 (b + 16);
    g_ptr_array_add (reply->sessions, s);
    if (minor >= 15) {
      guint32 host_len = rd32 (b + 20), name_len = rd32 (b + 24);
      guint8 *text;

      s->trace_format = rd32 (b + 28);
      if (host_len > GST_CTF_LIVE_MAX_NAME || name_len > GST_CTF_LIVE_MAX_NAME) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "LIST_SESSIONS reply, session %u: name lengths %u and %u, "
            "longer than the %u bytes accepted", i, host_len, name_len,
            GST_CTF_LIVE_MAX_NAME);
        return FALSE;
      }
      text = g_malloc (host_len + name_len + 1);
      if (!read (ctx, text, host_len + name_len, error)) {
        g_free (text);
        return FALSE;
      }
      s->hostname = fixed_string (text, host_len);
      s->session_name = fixed_string (text + host_len, name_len);
      g_free (text);
    } else {
      s->hostname = fixed_string (b + 20, 64);
      s->session_name = fixed_string (b + 84, 255);
    }
  }
  return TRUE;
}

static gboolean
read_streams (GstCtfLiveCommand cmd, GstCtfLiveReadFunc read, gpointer ctx,
    GstCtfLiveReply * reply, GError ** error)
{
  guint8 *b;
  guint8 h[8];
  guint32 count, i;
  gboolean ok = TRUE;

  if (!read (ctx, h, 8, error))
    return FALSE;
  reply->status = rd32 (h);
  count = rd32 (h + 4);
  if (count > GST_CTF_LIVE_MAX_STREAMS) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "%s reply: %u streams, more than the %u accepted", cmd_name (cmd),
        count, GST_CTF_LIVE_MAX_STREAMS);
    return FALSE;
  }
  reply->streams = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_live_stream_free);
  b = g_malloc (STREAM_SIZE);
  for (i = 0; i < count && ok; i++) {
    GstCtfLiveStream *s;

    ok = read (ctx, b, STREAM_SIZE, error);
    if (!ok)
      break;
    s = g_new0 (GstCtfLiveStream, 1);
    s->id = rd64 (b);
    s->ctf_trace_id = rd64 (b + 8);
    s->metadata = rd32 (b + 16) != 0;
    s->path_name = fixed_string (b + 20, 4096);
    s->channel_name = fixed_string (b + 20 + 4096, 255);
    g_ptr_array_add (reply->streams, s);
  }
  g_free (b);
  return ok;
}

gboolean
gst_ctf_live_read_reply (GstCtfLiveCommand cmd, guint32 minor,
    guint32 max_len, GstCtfLiveReadFunc read, gpointer ctx,
    GstCtfLiveReply * reply, GError ** error)
{
  guint8 b[INDEX_SIZE];

  memset (reply, 0, sizeof *reply);
  switch (cmd) {
    case GST_CTF_LIVE_CMD_CONNECT:
      if (!read (ctx, b, 20, error))
        return FALSE;
      reply->viewer_session_id = rd64 (b);
      reply->major = rd32 (b + 8);
      reply->minor = rd32 (b + 12);
      return TRUE;
    case GST_CTF_LIVE_CMD_LIST_SESSIONS:
      return read_sessions (minor, read, ctx, reply, error);
    case GST_CTF_LIVE_CMD_ATTACH_SESSION:
    case GST_CTF_LIVE_CMD_GET_NEW_STREAMS:
      return read_streams (cmd, read, ctx, reply, error);
    case GST_CTF_LIVE_CMD_GET_NEXT_INDEX:
      if (!read (ctx, b, INDEX_SIZE, error))
        return FALSE;
      reply->index.offset = rd64 (b);
      reply->index.packet_size = rd64 (b + 8);
      reply->index.content_size = rd64 (b + 16);
      reply->index.timestamp_begin = rd64 (b + 24);
      reply->index.timestamp_end = rd64 (b + 32);
      reply->index.events_discarded = rd64 (b + 40);
      reply->index.stream_id = rd64 (b + 48);
      reply->index.status = reply->status = rd32 (b + 56);
      reply->index.flags = reply->flags = rd32 (b + 60);
      if (reply->status == GST_CTF_LIVE_INDEX_OK &&
          (reply->index.packet_size % 8 != 0 ||
              reply->index.content_size > reply->index.packet_size ||
              reply->index.packet_size / 8 > G_MAXUINT32)) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "GET_NEXT_INDEX reply: packet size %" G_GUINT64_FORMAT
            " bits, content size %" G_GUINT64_FORMAT " bits: expected a "
            "whole number of bytes below 4 GiB, content inside",
            reply->index.packet_size, reply->index.content_size);
        return FALSE;
      }
      return TRUE;
    case GST_CTF_LIVE_CMD_GET_PACKET:{
      guint32 len;

      if (!read (ctx, b, 12, error))
        return FALSE;
      reply->status = rd32 (b);
      len = rd32 (b + 4);
      reply->flags = rd32 (b + 8);
      if (reply->status != GST_CTF_LIVE_PACKET_OK)
        return TRUE;
      if (len != max_len) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "GET_PACKET reply: %u bytes where %u were asked", len, max_len);
        return FALSE;
      }
      reply->data = read_payload (read, ctx, len, error);
      return reply->data != NULL;
    }
    case GST_CTF_LIVE_CMD_GET_METADATA:{
      guint64 len;

      if (!read (ctx, b, 12, error))
        return FALSE;
      len = rd64 (b);
      reply->status = rd32 (b + 8);
      if (reply->status != GST_CTF_LIVE_METADATA_OK)
        return TRUE;
      if (len > GST_CTF_LIVE_MAX_METADATA_REPLY) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
            "GET_METADATA reply: %" G_GUINT64_FORMAT " bytes, more than "
            "the %u accepted", len, GST_CTF_LIVE_MAX_METADATA_REPLY);
        return FALSE;
      }
      reply->data = read_payload (read, ctx, (gsize) len, error);
      return reply->data != NULL;
    }
    case GST_CTF_LIVE_CMD_CREATE_SESSION:
    case GST_CTF_LIVE_CMD_DETACH_SESSION:
      if (!read (ctx, b, 4, error))
        return FALSE;
      reply->status = rd32 (b);
      return TRUE;
  }
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
      "no reply layout for command %d", (gint) cmd);
  return FALSE;
}

gboolean
gst_ctf_live_parse_url (const gchar * url, gchar ** relay_host,
    guint16 * port, gchar ** tracer_host, gchar ** session, GError ** error)
{
  const gchar *p, *slash, *colon;
  gchar **parts = NULL;
  guint64 port_v = GST_CTF_LIVE_DEFAULT_PORT;

  *relay_host = NULL;
  if (tracer_host)
    *tracer_host = NULL;
  if (session)
    *session = NULL;
  if (url == NULL)
    goto bad;
  if (g_str_has_prefix (url, "net://"))
    p = url + 6;
  else if (g_str_has_prefix (url, "net4://"))
    p = url + 7;
  else
    goto bad;
  slash = strchr (p, '/');
  if (slash == NULL)
    slash = p + strlen (p);
  colon = memchr (p, ':', slash - p);
  if ((colon ? colon : slash) == p)
    goto bad;
  if (colon) {
    gchar *port_s = g_strndup (colon + 1, slash - colon - 1);
    gboolean ok = g_ascii_string_to_unsigned (port_s, 10, 1, 65535,
        &port_v, NULL);

    g_free (port_s);
    if (!ok)
      goto bad;
  }
  if (*slash != '\0' && strcmp (slash, "/") != 0) {
    parts = g_strsplit (slash + 1, "/", -1);
    if (g_strv_length (parts) != 3 || strcmp (parts[0], "host") != 0 ||
        parts[1][0] == '\0' || parts[2][0] == '\0')
      goto bad;
  }
  *relay_host = g_strndup (p, (colon ? colon : slash) - p);
  *port = (guint16) port_v;
  if (parts && tracer_host)
    *tracer_host = g_strdup (parts[1]);
  if (parts && session)
    *session = g_strdup (parts[2]);
  g_strfreev (parts);
  return TRUE;

bad:
  g_strfreev (parts);
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
      "Invalid LTTng live URL \"%s\": expected "
      "net://HOST[:PORT]/host/TRACER_HOST/SESSION", url ? url : "(null)");
  return FALSE;
}

/* -- metadata -- */

#define TSDL_PACKET_MAGIC 0x75D11D57u
#define TSDL_PACKET_HEADER_SIZE 37

struct _GstCtfLiveMetadata
{
  GByteArray *bytes;
};

GstCtfLiveMetadata *
gst_ctf_live_metadata_new (void)
{
  GstCtfLiveMetadata *m = g_new0 (GstCtfLiveMetadata, 1);

  m->bytes = g_byte_array_new ();
  return m;
}

void
gst_ctf_live_metadata_free (GstCtfLiveMetadata * m)
{
  if (m == NULL)
    return;
  g_byte_array_unref (m->bytes);
  g_free (m);
}

void
gst_ctf_live_metadata_append (GstCtfLiveMetadata * m, const guint8 * data,
    gsize size)
{
  g_byte_array_append (m->bytes, data, size);
}

gchar *
gst_ctf_live_metadata_get_text (GstCtfLiveMetadata * m, const gchar * origin,
    GError ** error)
{
  const guint8 *d = m->bytes->data;
  gsize size = m->bytes->len, off = 0;
  gboolean be;
  guint32 magic;

  if (size < 4)
    return NULL;
  magic = rd32 (d);
  if (magic != TSDL_PACKET_MAGIC && GUINT32_SWAP_LE_BE (magic) !=
      TSDL_PACKET_MAGIC)
    /* plain text: everything so far */
    return gst_ctf_metadata_from_bytes (d, size, origin, error);
  be = magic == TSDL_PACKET_MAGIC;
  /* only whole packets: the loader refuses a truncated last one */
  while (off + TSDL_PACKET_HEADER_SIZE <= size) {
    guint32 packet_size = rd32 (d + off + 28);

    if (!be)
      packet_size = GUINT32_SWAP_LE_BE (packet_size);
    if (packet_size < TSDL_PACKET_HEADER_SIZE * 8 || packet_size % 8 != 0)
      break;                    /* the loader names the problem */
    if (off + packet_size / 8 > size)
      break;
    off += packet_size / 8;
  }
  if (off == 0) {
    if (size >= TSDL_PACKET_HEADER_SIZE) {
      guint32 packet_size = rd32 (d + 28);

      if (!be)
        packet_size = GUINT32_SWAP_LE_BE (packet_size);
      if (packet_size < TSDL_PACKET_HEADER_SIZE * 8 || packet_size % 8 != 0)
        return gst_ctf_metadata_from_bytes (d, size, origin, error);
    }
    return NULL;
  }
  return gst_ctf_metadata_from_bytes (d, off, origin, error);
}
