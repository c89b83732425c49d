/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: trace classes parsed once per metadata text while they live
 * (gst_ctf_metadata_parse_shared(), gstctf-metadata.h).  The table itself is
 * in gstctf-model.c, next to the reference counting it depends on.
 */
#include "gstctf-metadata.h"
#include "gstctf-model-private.h"

#include <string.h>

/* A 64-bit hash of @len bytes of @text, 8 bytes per step (a SHA-256
 * took 15 instructions a byte: a tenth of a 100-trace session's setup
 * went into hashing its merged metadata twice); the table compares the
 * texts themselves, so the hash needs no strength. */
static guint64
text_hash (const gchar * text, gsize len)
{
  const guint64 m = G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  guint64 h = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ len;
  guint64 w;
  gsize i;

  for (i = 0; i + 8 <= len; i += 8) {
    memcpy (&w, text + i, 8);
    h = (h ^ w) * m;
    h ^= h >> 29;
  }
  w = 0;
  memcpy (&w, text + i, len - i);
  h = (h ^ w) * m;
  h ^= h >> 32;
  return h;
}

/* The table's key for @text (gstctf-model-private.h). */
static guint8 *
make_key (const gchar * text)
{
  guint64 len = strlen (text);
  guint64 h = text_hash (text, len);
  guint8 *key = g_malloc (GST_CTF_SHARED_KEY_HEAD + len + 1);

  memcpy (key, &h, 8);
  memcpy (key + 8, &len, 8);
  memcpy (key + GST_CTF_SHARED_KEY_HEAD, text, len + 1);
  return key;
}

GstCtfTraceClass *
gst_ctf_metadata_parse_shared (const gchar * text, const gchar * origin,
    GError ** error)
{
  guint8 *key;
  GstCtfTraceClass *tc;

  g_return_val_if_fail (text != NULL, NULL);

  key = make_key (text);
  tc = _gst_ctf_trace_class_shared_lookup (key);
  if (tc) {
    g_free (key);
    return tc;
  }
  tc = gst_ctf_metadata_parse (text, origin, error);
  if (tc)
    _gst_ctf_trace_class_shared_insert (tc, key);       /* takes @key */
  else
    g_free (key);
  return tc;
}
