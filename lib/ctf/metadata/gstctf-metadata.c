/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: metadata stream loading (CTF 1.8 §7.1).
 *
 * A metadata file is either plain TSDL text (normally starting with the
 * `/ * CTF 1.8` signature) or a sequence of metadata packets, each with a
 * 37-byte header (magic 0x75D11D57 in the trace's byte order, trace UUID,
 * checksum, content_size and packet_size in bits, compression /
 * encryption / checksum schemes, major, minor) followed by TSDL text up to
 * content_size and padding up to packet_size.  CTF 2 metadata is a JSON
 * text sequence (RFC 7464: records start with 0x1E), plain or in the same
 * packets with major version 2 (CTF2-PMETA-1.0); it is returned as is and
 * gst_ctf_metadata_parse() hands it to the JSON front end.
 */
#include "gstctf-metadata.h"
#include "gstctf-json-private.h"

#include <glib/gstdio.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Metadata larger than this is refused (a real trace's metadata is at
 * most a few MiB; this bounds memory use on corrupt input). */
#define MAX_METADATA_SIZE (64 * 1024 * 1024)

#define TSDL_PACKET_MAGIC 0x75D11D57u
#define TSDL_PACKET_HEADER_SIZE 37

static const gchar *
origin_name (const gchar * origin)
{
  return origin ? origin : "(memory)";
}

static guint32
read_u32_unaligned (const guint8 * p, gboolean be)
{
  guint32 v;

  memcpy (&v, p, 4);
  return be ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

static gboolean
is_packetized (const guint8 * data, gsize size, gboolean * be)
{
  guint32 v;

  if (size < 4)
    return FALSE;
  memcpy (&v, data, 4);
  if (GUINT32_FROM_LE (v) == TSDL_PACKET_MAGIC) {
    *be = FALSE;
    return TRUE;
  }
  if (GUINT32_FROM_BE (v) == TSDL_PACKET_MAGIC) {
    *be = TRUE;
    return TRUE;
  }
  return FALSE;
}

/* CTF 1.8 §7.1 and CTF2-PMETA-1.0: concatenates the payloads of metadata
 * packets (all of version 1.8 or all of version 2.0). */
static gchar *
depacketize (const guint8 * data, gsize size, gboolean be,
    const gchar * origin, gsize * len_out, GError ** error)
{
  GString *out = g_string_new (NULL);
  guint8 uuid[16];
  gsize off = 0;
  guint index = 0;
  guint major = 0;

  while (off < size) {
    const guint8 *h = data + off;
    guint32 magic, content_size, packet_size;
    gsize content_bytes, packet_bytes;

    if (size - off < TSDL_PACKET_HEADER_SIZE) {
      /* babeltrace2 stops at a truncated trailing header: keep what we have */
      if (index > 0)
        break;
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_PACKET,
          "Cannot read metadata packet header: file=\"%s\", offset=%"
          G_GSIZE_FORMAT ", remaining=%" G_GSIZE_FORMAT ", expected %d bytes",
          origin_name (origin), off, size - off, TSDL_PACKET_HEADER_SIZE);
      goto fail;
    }
    magic = read_u32_unaligned (h, be);
    content_size = read_u32_unaligned (h + 24, be);
    packet_size = read_u32_unaligned (h + 28, be);
    if (magic != TSDL_PACKET_MAGIC) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_PACKET,
          "Invalid metadata packet: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", magic=0x%08x, expected-magic=0x%08x", origin_name (origin), off,
          magic, TSDL_PACKET_MAGIC);
      goto fail;
    }
    if (index == 0) {
      memcpy (uuid, h + 4, 16);
    } else if (memcmp (uuid, h + 4, 16) != 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_PACKET,
          "Invalid metadata packet: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ": UUID differs from the first packet's", origin_name (origin), off);
      goto fail;
    }
    if (h[32] != 0 || h[33] != 0 || h[34] != 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_PACKET,
          "Unsupported metadata packet: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", compression-scheme=%u, encryption-scheme=%u, checksum-scheme=%u"
          " (expected 0)", origin_name (origin), off, h[32], h[33], h[34]);
      goto fail;
    }
    if (!((h[35] == 1 && h[36] == 8) || (h[35] == 2 && h[36] == 0)) ||
        (index > 0 && h[35] != major)) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_PACKET,
          "Invalid metadata packet version: file=\"%s\", offset=%"
          G_GSIZE_FORMAT ", version=%u.%u, expected %s",
          origin_name (origin), off, h[35], h[36], index == 0 ?
          "1.8 or 2.0" : (major == 1 ? "1.8 as the first packet" :
              "2.0 as the first packet"));
      goto fail;
    }
    major = h[35];
    if (content_size % 8 != 0 || packet_size % 8 != 0
        || content_size < TSDL_PACKET_HEADER_SIZE * 8
        || content_size > packet_size) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_PACKET,
          "Invalid metadata packet sizes: file=\"%s\", offset=%"
          G_GSIZE_FORMAT ", content-size=%u bits, packet-size=%u bits",
          origin_name (origin), off, content_size, packet_size);
      goto fail;
    }
    content_bytes = content_size / 8;
    packet_bytes = packet_size / 8;
    if (content_bytes > size - off) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_PACKET,
          "Truncated metadata packet: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", content-size=%" G_GSIZE_FORMAT " bytes, remaining=%"
          G_GSIZE_FORMAT " bytes", origin_name (origin), off, content_bytes,
          size - off);
      goto fail;
    }
    g_string_append_len (out, (const gchar *) h + TSDL_PACKET_HEADER_SIZE,
        content_bytes - TSDL_PACKET_HEADER_SIZE);
    /* padding after the last packet may be cut short */
    off += MIN (packet_bytes, size - off);
    index++;
  }
  *len_out = out->len;
  return g_string_free (out, FALSE);

fail:
  g_string_free (out, TRUE);
  return NULL;
}

/* A NUL byte ends the text only when nothing but NULs follow it. */
static gboolean
check_nul_bytes (const gchar * text, gsize len, const gchar * origin,
    GError ** error)
{
  const gchar *nul = memchr (text, '\0', len);
  const gchar *p, *ls = text;
  guint line = 1;

  if (nul == NULL)
    return TRUE;
  for (p = nul; p < text + len; p++)
    if (*p != '\0')
      break;
  if (p == text + len)
    return TRUE;
  for (p = text; p < nul; p++) {
    if (*p == '\n' || (*p == '\r' && p[1] != '\n')) {
      line++;
      ls = p + 1;
    }
  }
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_SYNTAX,
      "Invalid metadata: file=\"%s\", line %u, column %u: NUL byte in "
      "metadata text (byte offset %" G_GSIZE_FORMAT ")", origin_name (origin),
      line, (guint) (nul - ls) + 1, (gsize) (nul - text));
  return FALSE;
}

/**
 * gst_ctf_metadata_from_bytes:
 * @data: (array length=size): file contents
 * @size: bytes
 * @origin: (nullable): a name for error messages (the file path)
 * @error: return location for a %GST_CTF_ERROR
 *
 * Like gst_ctf_metadata_load_file() on bytes already in memory.
 * Packetized metadata is de-packetized (errors:
 * %GST_CTF_ERROR_METADATA_PACKET with the byte offset of the packet);
 * more than 64 MiB fails with %GST_CTF_ERROR_METADATA_INVALID.
 *
 * Returns: (transfer full): the TSDL text, or %NULL
 */
gchar *
gst_ctf_metadata_from_bytes (const guint8 * data, gsize size,
    const gchar * origin, GError ** error)
{
  gboolean be = FALSE;
  gchar *text;
  gsize len;

  g_return_val_if_fail (data != NULL || size == 0, NULL);

  if (size > MAX_METADATA_SIZE) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Metadata too large: file=\"%s\", size=%" G_GSIZE_FORMAT
        " bytes, limit=%d bytes", origin_name (origin), size,
        MAX_METADATA_SIZE);
    return NULL;
  }
  if (is_packetized (data, size, &be)) {
    text = depacketize (data, size, be, origin, &len, error);
    if (text == NULL)
      return NULL;
    /* NUL bytes inside packet payloads: same rule as plain text */
    if (!check_nul_bytes (text, len, origin, error)) {
      g_free (text);
      return NULL;
    }
  } else {
    text = g_malloc (size + 1);
    if (size > 0)
      memcpy (text, data, size);
    text[size] = '\0';
    len = size;
    if (!check_nul_bytes (text, len, origin, error)) {
      g_free (text);
      return NULL;
    }
    /* A `/ * CTF x.y` signature naming another version is refused, as
     * babeltrace2 does; text without a signature is accepted (early
     * LTTng metadata has none). */
    if (text[0] != GST_CTF_METADATA_JSON_RS &&
        g_str_has_prefix (text, "/* CTF ")) {
      guint major = 0, minor = 0;

      if (sscanf (text + 7, "%u.%u", &major, &minor) == 2
          && (major != 1 || minor != 8)) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
            "Invalid metadata version in signature: file=\"%s\", offset=0, "
            "version=%u.%u, expected 1.8", origin_name (origin), major, minor);
        g_free (text);
        return NULL;
      }
    }
  }
  return text;
}

/**
 * gst_ctf_metadata_load_file:
 * @path: (type filename): a `metadata` file
 * @error: return location for a %GST_CTF_ERROR
 *
 * Reads a metadata file, plain text or packetized (CTF 1.8 §7.1), and
 * returns its text (TSDL, or CTF 2 JSON fragments).  An unreadable file
 * fails with %GST_CTF_ERROR_IO.
 *
 * Returns: (transfer full): the TSDL text, NUL terminated, or %NULL
 */
gchar *
gst_ctf_metadata_load_file (const gchar * path, GError ** error)
{
  GStatBuf st;
  gchar *contents = NULL, *text;
  gsize len = 0;
  GError *err = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_stat (path, &st) != 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot open metadata file: file=\"%s\": %s", path,
        g_strerror (errno));
    return NULL;
  }
  if (st.st_size > MAX_METADATA_SIZE) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Metadata too large: file=\"%s\", size=%" G_GINT64_FORMAT
        " bytes, limit=%d bytes", path, (gint64) st.st_size,
        MAX_METADATA_SIZE);
    return NULL;
  }
  if (!g_file_get_contents (path, &contents, &len, &err)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot read metadata file: file=\"%s\": %s", path, err->message);
    g_error_free (err);
    return NULL;
  }
  text = gst_ctf_metadata_from_bytes ((const guint8 *) contents, len, path,
      error);
  g_free (contents);
  return text;
}

/**
 * gst_ctf_metadata_parse:
 * @text: metadata text as gst_ctf_metadata_load_file() returns it
 * @origin: (nullable): a name for error messages (the file path)
 * @error: return location for a %GST_CTF_ERROR
 *
 * Builds the trace class of a metadata text of either version: text
 * whose first byte is 0x1E (RFC 7464 record separator) is a CTF 2 JSON
 * text sequence (CTF2-SPEC-2.0), read by the JSON front end (errors
 * name the fragment by index and byte offset); anything else is TSDL
 * (gst_ctf_tsdl_parse()).
 *
 * Returns: (transfer full): the trace class, or %NULL
 */
GstCtfTraceClass *
gst_ctf_metadata_parse (const gchar * text, const gchar * origin,
    GError ** error)
{
  g_return_val_if_fail (text != NULL, NULL);

  if (gst_ctf_metadata_is_ctf2 (text))
    return _gst_ctf_json_parse (text, strlen (text), origin, error);
  return gst_ctf_tsdl_parse (text, origin, error);
}
