/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfLiveFollower (lib/live/) against the tests' own LTTng live relay
 * (live-relay.c) serving the bundled ust-sample, with RETRY runs and
 * inactivity beacons:
 *
 * - the metadata comes before any packet; every packet is byte for byte
 *   the bytes at its offset in the served stream file, each stream file
 *   is given whole, in order, and the packets come in timestamp_begin
 *   order; each advance goes forward and no later packet begins before
 *   it; the session's destruction is the end;
 * - a missing session: the end with GST_CTF_LIVE_NOT_FOUND_END, an error
 *   naming it with GST_CTF_LIVE_NOT_FOUND_ERROR; a URL without a session
 *   is refused.
 *
 * (lttnglivesrc and the GTK model's live source step the follower: the
 * tests lttnglivesrc, lttng-live-real, gtk-live check their output.)
 */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "live-relay.h"
#include "gstctf-live-follower.h"
#include "gstctf-error.h"

#define UST "ust/uid/0/64-bit"

static gchar *
relay_url (TestRelay * r, const gchar * session)
{
  return g_strdup_printf ("net://127.0.0.1:%u/host/testhost/%s",
      test_relay_get_port (r), session);
}

GST_START_TEST (test_follow_packets)
{
  TestRelayOptions o = { 0 };
  GError *err = NULL;
  gchar *dir = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"),
      "ust-sample", NULL);
  GHashTable *files = g_hash_table_new_full (g_str_hash, g_str_equal,
      NULL, (GDestroyNotify) g_bytes_unref);
  GHashTable *next = g_hash_table_new (g_str_hash, g_str_equal);
  GstCtfLiveFollower *f;
  TestRelay *relay;
  gchar *url;
  guint n_packets = 0, n_meta = 0, n_adv = 0;
  gint64 last_begin = G_MININT64, adv_to = G_MININT64;
  gint64 until = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  GstCtfLiveFollowerItem item;
  const gchar *names[] = { "channel0_0", "channel0_1" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *path = g_build_filename (dir, UST, names[i], NULL);
    gchar *data;
    gsize len;

    fail_unless (g_file_get_contents (path, &data, &len, NULL), "%s", path);
    g_hash_table_insert (files, (gpointer) g_intern_string (names[i]),
        g_bytes_new_take (data, len));
    g_free (path);
  }
  o.dir = dir;
  o.retry_runs = 2;
  o.beacons = TRUE;
  relay = test_relay_start (&o, &err);
  fail_unless (relay != NULL, "%s", err ? err->message : "");
  url = relay_url (relay, "testsession");
  f = gst_ctf_live_follower_new (url, GST_CTF_LIVE_SEEK_BEGINNING,
      GST_CTF_LIVE_NOT_FOUND_ERROR, 10000, 5, NULL, &err);
  fail_unless (f != NULL, "%s", err ? err->message : "");

  do {
    GstCtfLiveFollowerPacket p;
    GstCtfLiveFollowerAdvance a;

    fail_unless (g_get_monotonic_time () < until, "no end after 60 s");
    item = gst_ctf_live_follower_step (f, &p, &a, &err);
    switch (item) {
      case GST_CTF_LIVE_FOLLOWER_PACKET:{
        GBytes *file = g_hash_table_lookup (files, p.stream_name);
        gsize at = GPOINTER_TO_SIZE (g_hash_table_lookup (next,
                p.stream_name));
        gsize size, flen;
        const guint8 *d = g_bytes_get_data (p.bytes, &size);
        const guint8 *fd;

        fail_unless (n_meta > 0, "a packet before the metadata");
        fail_unless (file != NULL, "packet of unknown stream %s",
            p.stream_name);
        fd = g_bytes_get_data (file, &flen);
        /* each stream file whole, in order */
        fail_unless_equals_uint64 (p.offset, at);
        fail_unless (at + size <= flen && memcmp (d, fd + at, size) == 0,
            "%s: packet at %" G_GSIZE_FORMAT " (%" G_GSIZE_FORMAT
            " bytes) differs from the stream file", p.stream_name, at, size);
        g_hash_table_insert (next, (gpointer) p.stream_name,
            GSIZE_TO_POINTER (at + size));
        fail_unless (p.begin_ns >= last_begin, "packet begins at %"
            G_GINT64_FORMAT " after one at %" G_GINT64_FORMAT, p.begin_ns,
            last_begin);
        fail_unless (p.begin_ns >= adv_to, "packet begins at %"
            G_GINT64_FORMAT " before an advance to %" G_GINT64_FORMAT,
            p.begin_ns, adv_to);
        fail_unless (p.end_ns >= p.begin_ns);
        fail_if (p.late);
        last_begin = p.begin_ns;
        n_packets++;
        g_bytes_unref (p.bytes);
        break;
      }
      case GST_CTF_LIVE_FOLLOWER_METADATA:
        fail_unless (gst_ctf_live_follower_get_trace_class (f) != NULL);
        fail_unless (strstr (gst_ctf_live_follower_get_metadata (f),
                "corpus_tp:ints") != NULL);
        n_meta++;
        break;
      case GST_CTF_LIVE_FOLLOWER_ADVANCE:
        fail_unless (a.to_ns > a.from_ns);
        fail_unless (a.to_ns >= last_begin);
        adv_to = a.to_ns;
        n_adv++;
        break;
      case GST_CTF_LIVE_FOLLOWER_WAIT:
        g_usleep (1000);
        break;
      case GST_CTF_LIVE_FOLLOWER_AGAIN:
      case GST_CTF_LIVE_FOLLOWER_END:
        break;
      case GST_CTF_LIVE_FOLLOWER_ERROR:
        fail ("follower error: %s", err->message);
        break;
    }
  } while (item != GST_CTF_LIVE_FOLLOWER_END);

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    const gchar *n = g_intern_string (names[i]);

    fail_unless_equals_uint64 (GPOINTER_TO_SIZE (g_hash_table_lookup (next,
                n)), g_bytes_get_size (g_hash_table_lookup (files, n)));
  }
  fail_unless_equals_int (n_meta, 1);
  fail_unless (n_packets >= 2);
  fail_unless (gst_ctf_live_follower_get_live_timer (f) > 0);
  g_print ("%u packets, %u advances\n", n_packets, n_adv);

  gst_ctf_live_follower_free (f);
  test_relay_stop (relay);
  g_hash_table_unref (next);
  g_hash_table_unref (files);
  g_free (url);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_not_found)
{
  TestRelayOptions o = { 0 };
  GError *err = NULL;
  gchar *dir = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"),
      "ust-sample", NULL);
  GstCtfLiveFollowerPacket p;
  GstCtfLiveFollowerAdvance a;
  GstCtfLiveFollower *f;
  TestRelay *relay;
  gchar *url;

  o.dir = dir;
  relay = test_relay_start (&o, &err);
  fail_unless (relay != NULL, "%s", err ? err->message : "");
  url = relay_url (relay, "nope");

  f = gst_ctf_live_follower_new (url, GST_CTF_LIVE_SEEK_BEGINNING,
      GST_CTF_LIVE_NOT_FOUND_END, 10000, 5, NULL, &err);
  fail_unless (f != NULL);
  fail_unless_equals_int (gst_ctf_live_follower_step (f, &p, &a, &err),
      GST_CTF_LIVE_FOLLOWER_END);
  fail_unless (err == NULL);
  gst_ctf_live_follower_free (f);

  f = gst_ctf_live_follower_new (url, GST_CTF_LIVE_SEEK_BEGINNING,
      GST_CTF_LIVE_NOT_FOUND_WAIT, 10000, 5, NULL, &err);
  fail_unless_equals_int (gst_ctf_live_follower_attach (f, &err),
      GST_CTF_LIVE_FOLLOWER_WAIT);
  gst_ctf_live_follower_free (f);

  f = gst_ctf_live_follower_new (url, GST_CTF_LIVE_SEEK_BEGINNING,
      GST_CTF_LIVE_NOT_FOUND_ERROR, 10000, 5, NULL, &err);
  fail_unless_equals_int (gst_ctf_live_follower_step (f, &p, &a, &err),
      GST_CTF_LIVE_FOLLOWER_ERROR);
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_LIVE));
  fail_unless (strstr (err->message, "No session \"nope\" of host "
          "\"testhost\"") != NULL, "%s", err->message);
  g_clear_error (&err);
  gst_ctf_live_follower_free (f);

  f = gst_ctf_live_follower_new ("net://127.0.0.1:1", 0, 0, 10000, 5, NULL,
      &err);
  fail_unless (f == NULL);
  fail_unless (strstr (err->message, "names no session") != NULL, "%s",
      err->message);
  g_clear_error (&err);

  test_relay_stop (relay);
  g_free (url);
  g_free (dir);
}

GST_END_TEST;

static Suite *
live_follower_suite (void)
{
  Suite *s = suite_create ("live-follower");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_follow_packets);
  tcase_add_test (tc, test_not_found);
  return s;
}

GST_CHECK_MAIN (live_follower);
