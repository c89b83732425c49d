/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: trace classes parsed once per metadata text while they live
 * (gst_ctf_tsdl_parse_shared(), gstctf-metadata.h).
 *
 * The table maps a key (SHA-256 of the text, then its length) to a trace
 * class without holding a reference: gst_ctf_trace_class_unref() takes
 * the dying class out (under the table's lock) before freeing it, and a
 * lookup only takes a reference on a class whose count is not zero yet
 * (a class on its way out is as good as absent).
 */
#include "gstctf-metadata.h"
#include "gstctf-model-private.h"

#include <string.h>

#define KEY_BYTES (32 + sizeof (guint64))

static GMutex lock;
static GHashTable *table;       /* key (guint8[KEY_BYTES]) -> GstCtfTraceClass */

static guint
key_hash (gconstpointer k)
{
  guint h;

  memcpy (&h, k, sizeof (h));
  return h;
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, KEY_BYTES) == 0;
}

static guint8 *
make_key (const gchar * text)
{
  guint8 *key = g_malloc (KEY_BYTES);
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint64 len = strlen (text);
  gsize n = 32;

  g_checksum_update (sum, (const guchar *) text, len);
  g_checksum_get_digest (sum, key, &n);
  g_checksum_free (sum);
  memcpy (key + 32, &len, sizeof (len));
  return key;
}

/* A reference, unless the class is being freed (count 0). */
static gboolean
try_ref (GstCtfTraceClass * tc)
{
  for (;;) {
    gint n = g_atomic_int_get (&tc->ref_count);

    if (n <= 0)
      return FALSE;
    if (g_atomic_int_compare_and_exchange (&tc->ref_count, n, n + 1))
      return TRUE;
  }
}

GstCtfTraceClass *
gst_ctf_tsdl_parse_shared (const gchar * text, const gchar * origin,
    GError ** error)
{
  guint8 *key;
  GstCtfTraceClass *tc;

  g_return_val_if_fail (text != NULL, NULL);

  key = make_key (text);
  g_mutex_lock (&lock);
  tc = table ? g_hash_table_lookup (table, key) : NULL;
  if (tc && !try_ref (tc))
    tc = NULL;
  g_mutex_unlock (&lock);
  if (tc) {
    g_free (key);
    return tc;
  }

  tc = gst_ctf_tsdl_parse (text, origin, error);
  if (tc == NULL) {
    g_free (key);
    return NULL;
  }
  g_mutex_lock (&lock);
  if (table == NULL)
    table = g_hash_table_new (key_hash, key_equal);
  /* (another thread may have put the same text in meanwhile: the first
   * stays, this one is simply not shared) */
  if (!g_hash_table_contains (table, key)) {
    tc->shared_key = key;
    g_hash_table_insert (table, key, tc);
    key = NULL;
  }
  g_mutex_unlock (&lock);
  g_free (key);
  return tc;
}

void
_gst_ctf_tsdl_shared_forget (GstCtfTraceClass * tc)
{
  g_mutex_lock (&lock);
  if (table && g_hash_table_lookup (table, tc->shared_key) == tc)
    g_hash_table_remove (table, tc->shared_key);
  if (table && g_hash_table_size (table) == 0)
    g_clear_pointer (&table, g_hash_table_unref);
  g_mutex_unlock (&lock);
  g_clear_pointer (&tc->shared_key, g_free);
}
