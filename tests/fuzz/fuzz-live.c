/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the LTTng live viewer reply parser
 * (lib/live/gstctf-live-proto.c), as lttnglivesrc meets an untrusted or
 * broken relay.  Input: byte 0 picks the command (1..9), byte 1 the
 * connection's minor version (< 128: 4, else 15), bytes 2-5 the GET_PACKET
 * length asked (big-endian); the rest is what the relay sends, parsed as
 * consecutive replies to that command until it runs out.  Metadata
 * replies go through the reassembly and the metadata loader.
 *
 *   build-fuzz/tests/fuzz/fuzz-live tests/fuzz/seeds/live
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gstctf-live.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

typedef struct
{
  const uint8_t *p;
  size_t left;
} Mem;

static gboolean
mem_read (gpointer ctx, guint8 * buf, gsize n, GError ** error)
{
  Mem *m = ctx;

  if (n > m->left) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE, "end of input");
    return FALSE;
  }
  memcpy (buf, m->p, n);
  m->p += n;
  m->left -= n;
  return TRUE;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstCtfLiveCommand cmd;
  guint32 minor, max_len;
  GstCtfLiveMetadata *meta;
  Mem m;
  guint n = 0;

  if (size < 6)
    return 0;
  cmd = (GstCtfLiveCommand) (data[0] % 9 + 1);
  minor = data[1] < 128 ? 4 : 15;
  max_len = ((guint32) data[2] << 24) | ((guint32) data[3] << 16) |
      ((guint32) data[4] << 8) | data[5];
  m.p = data + 6;
  m.left = size - 6;
  meta = gst_ctf_live_metadata_new ();
  while (m.left > 0 && n++ < 64) {
    GstCtfLiveReply reply;
    GError *err = NULL;
    guint i;

    if (!gst_ctf_live_read_reply (cmd, minor, max_len, mem_read, &m, &reply,
            &err)) {
      g_assert (err != NULL && err->domain == GST_CTF_ERROR);
      g_error_free (err);
      gst_ctf_live_reply_clear (&reply);
      break;
    }
    for (i = 0; reply.sessions && i < reply.sessions->len; i++) {
      const GstCtfLiveSession *s = g_ptr_array_index (reply.sessions, i);

      g_assert (g_utf8_validate (s->hostname, -1, NULL));
      g_assert (g_utf8_validate (s->session_name, -1, NULL));
    }
    for (i = 0; reply.streams && i < reply.streams->len; i++) {
      const GstCtfLiveStream *s = g_ptr_array_index (reply.streams, i);

      g_assert (strlen (s->channel_name) <= 4 * 255);
    }
    if (cmd == GST_CTF_LIVE_CMD_GET_PACKET && reply.data)
      g_assert (g_bytes_get_size (reply.data) == max_len);
    if (cmd == GST_CTF_LIVE_CMD_GET_METADATA && reply.data) {
      gsize len;
      const guint8 *d = g_bytes_get_data (reply.data, &len);
      gchar *text;

      gst_ctf_live_metadata_append (meta, d, len);
      text = gst_ctf_live_metadata_get_text (meta, "fuzz", &err);
      g_assert (text != NULL || err == NULL || err->domain == GST_CTF_ERROR);
      g_clear_error (&err);
      g_free (text);
    }
    gst_ctf_live_reply_clear (&reply);
  }
  gst_ctf_live_metadata_free (meta);
  return 0;
}
