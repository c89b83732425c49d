/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: trace classes parsed once per metadata text while they live
 * (gst_ctf_metadata_parse_shared(), gstctf-metadata.h).  The table itself is
 * in gstctf-model.c, next to the reference counting it depends on.
 */
#include "gstctf-metadata.h"
#include "gstctf-model-private.h"

#include <string.h>

static guint8 *
make_key (const gchar * text)
{
  guint8 *key = g_malloc (GST_CTF_SHARED_KEY_BYTES);
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint64 len = strlen (text);
  gsize n = 32;

  g_checksum_update (sum, (const guchar *) text, len);
  g_checksum_get_digest (sum, key, &n);
  g_checksum_free (sum);
  memcpy (key + 32, &len, sizeof (len));
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
