/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkEventModel on live sessions (`net://...`), against the tests'
 * LTTng live relay (tests/live-relay.c):
 *
 * - the rows (count; time, name and fields text of every row of the
 *   bundled traces, asked for backwards so that the cursor seeks; 300
 *   random ones of the corpus's) equal the text of
 *   `lttnglivesrc ! ctftextsink` on the same relay, babeltrace2's text of
 *   the served trace (the bundled oracle, the corpus's) and, for
 *   ust-libc, what `babeltrace2 -i lttng-live` prints of the relay;
 * - rows appear while the session runs (n-items > 0 while loading, in
 *   several items-changed batches), and loading ends when the relay
 *   destroys the session;
 * - a session of two traces, one joining late (new trace classes:
 *   epochs), reads as lttnglivesrc pushes it;
 * - a refused connection, a missing session and a refused attach fail at
 *   once with GST_CTF_ERROR_LIVE; a connection the relay closes ends
 *   loading with that error, the rows before it kept; a model dropped
 *   while its session runs stops its threads.
 */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include "gstctfgtk.h"
#include "gstctf-error.h"
#include "../live-relay.h"
#include "../test-util.h"
#include "gtk-test-util.h"

#define N_SAMPLES 300

static gchar *
example (const gchar * rel)
{
  return g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), rel, NULL);
}

static gchar *
url_of (TestRelay * relay, const TestRelayOptions * o)
{
  return g_strdup_printf ("net://127.0.0.1:%u/host/%s/%s",
      test_relay_get_port (relay), o->hostname ? o->hostname : "testhost",
      o->session_name ? o->session_name : "testsession");
}

/* The text `lttnglivesrc ! ctftextsink` prints of a relay serving @o. */
static GPtrArray *
pipeline_lines (const TestRelayOptions * o)
{
  GError *err = NULL;
  TestRelay *relay = test_relay_start (o, &err);
  gchar *out, *url, *desc, *text = NULL;
  GstElement *p;
  GstBus *bus;
  GstMessage *m;
  GPtrArray *lines;
  gint fd;

  g_assert_no_error (err);
  fd = g_file_open_tmp ("gtk-live-XXXXXX.txt", &out, NULL);
  close (fd);
  url = url_of (relay, o);
  desc = g_strdup_printf ("lttnglivesrc url=%s session-not-found=end "
      "poll-interval=5 ! ctftextsink location=%s", url, out);
  p = gst_parse_launch (desc, &err);
  g_assert_no_error (err);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (m);
  if (GST_MESSAGE_TYPE (m) != GST_MESSAGE_EOS)
    g_error ("%s: did not end with EOS", desc);
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  lines = gtk_test_split_lines (text);
  g_free (text);
  g_unlink (out);
  g_free (out);
  g_free (desc);
  g_free (url);
  test_relay_stop (relay);
  return lines;
}

/* What `babeltrace2 -i lttng-live` prints of a relay serving @o; NULL
 * without babeltrace2. */
static GPtrArray *
bt2_live_lines (const TestRelayOptions * o)
{
  GError *err = NULL;
  TestRelay *relay;
  gchar *params, *out = NULL, *errout = NULL, *url;
  gint status = -1;
  GPtrArray *lines;

  if (!test_have_program ("babeltrace2"))
    return NULL;
  relay = test_relay_start (o, &err);
  g_assert_no_error (err);
  url = url_of (relay, o);
  params = g_strdup_printf ("inputs=[\"%s\"],session-not-found-action="
      "\"end\"", url);
  {
    gchar *argv[] = { (gchar *) "babeltrace2", (gchar *) "--component",
      (gchar *) "src.ctf.lttng-live", (gchar *) "--params", params, NULL
    };

    g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH,
            NULL, NULL, &out, &errout, &status, &err));
  }
  g_assert_no_error (err);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("babeltrace2 -i lttng-live %s: %s", url, errout);
  lines = gtk_test_split_lines (out);
  g_free (params);
  g_free (url);
  g_free (out);
  g_free (errout);
  test_relay_stop (relay);
  return lines;
}

typedef struct {
  TestRelay *relay;
  guint while_loading;          /* most rows seen while loading */
  guint before_end;             /* most rows seen before the relay
                                 * destroyed the session */
  guint batches;                /* items-changed while loading */
} Growth;

static void
on_items_changed (GListModel * list, guint pos, guint removed, guint added,
    Growth * g)
{
  if (gst_ctf_gtk_event_model_get_loading (GST_CTF_GTK_EVENT_MODEL (list))) {
    g->while_loading = MAX (g->while_loading, g_list_model_get_n_items
        (list));
    g->batches++;
  }
  if (!test_relay_session_destroyed (g->relay)) {
    g->before_end = MAX (g->before_end, g_list_model_get_n_items (list));
  }
}

static gboolean
too_long (gpointer data)
{
  g_error ("the live model did not finish loading within 120 s");
  return G_SOURCE_REMOVE;
}

/* A model following a new relay serving @o, run to the session's end. */
static GstCtfGtkEventModel *
follow (const TestRelayOptions * o, Growth * g)
{
  GError *err = NULL;
  TestRelay *relay = test_relay_start (o, &err);
  gchar *url;
  GstCtfGtkEventModel *m;
  guint timeout;

  g_assert_no_error (err);
  url = url_of (relay, o);
  m = gst_ctf_gtk_event_model_new_for_path (url, &err);
  g_assert_no_error (err);
  g_assert_nonnull (m);
  g_assert_cmpstr (gst_ctf_gtk_event_model_get_path (m), ==, url);
  memset (g, 0, sizeof *g);
  g->relay = relay;
  g_signal_connect (m, "items-changed", G_CALLBACK (on_items_changed), g);
  timeout = g_timeout_add_seconds (120, too_long, NULL);
  while (gst_ctf_gtk_event_model_get_loading (m))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  g_signal_handlers_disconnect_by_func (m, on_items_changed, g);
  g_assert_true (gst_ctf_gtk_event_model_wait (m, &err));
  g_assert_no_error (err);
  g_assert_true (test_relay_session_destroyed (relay));
  test_relay_stop (relay);
  g_free (url);
  return m;
}

/* Every row (backwards: each block seeks) or N_SAMPLES random ones and
 * the last. */
static void
check_rows (const gchar * unit, GstCtfGtkEventModel * m, GPtrArray * lines)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (m)), i;

  if (n != lines->len)
    g_error ("%s: %u rows, the oracle has %u events", unit, n, lines->len);
  for (i = 0; i < MIN (n, N_SAMPLES + 1); i++) {
    guint r = n <= N_SAMPLES ? n - 1 - i : i == N_SAMPLES ? n - 1 :
        (guint) g_test_rand_int_range (0, (gint32) n);
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), r);

    g_assert_nonnull (ev);
    g_assert_cmpuint (gst_ctf_gtk_event_get_index (ev), ==, r);
    gtk_test_check_line (unit, r, ev, g_ptr_array_index (lines, r));
    g_object_unref (ev);
  }
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (m), n));
  g_test_message ("%s: %u rows, %u checkpoints", unit, n,
      gst_ctf_gtk_event_model_get_n_checkpoints (m));
}

/* The bundled traces, slowly (RETRY runs, beacons, metadata in pieces):
 * the rows equal both oracles; ust-sample's (three packets a stream)
 * come before the session ends. */
static void
test_live_bundled (void)
{
  /* (babeltrace2 2.1's text of enumeration labels, as the model's) */
  const gchar *units[] = { "ust-libc", "ust-sample" };
  const gchar *oracles[] = { "ust-libc.babeltrace2.txt",
    "ust-sample.babeltrace2-2.1.txt"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    TestRelayOptions o = { 0 };
    gchar *dir = example (units[i]);
    gchar *oname = g_strdup (oracles[i]);
    gchar *opath = example (oname);
    GPtrArray *bt2 = gtk_test_read_lines (opath), *text;
    GstCtfGtkEventModel *m;
    guint64 start = 0, end = 0;
    gchar *what;
    Growth g;

    o.dir = dir;
    o.beacons = TRUE;
    o.retry_runs = 2;
    o.metadata_chunk = 700;
    text = pipeline_lines (&o);
    m = follow (&o, &g);
    what = g_strdup_printf ("%s (lttnglivesrc ! ctftextsink)", units[i]);
    check_rows (what, m, text);
    g_free (what);
    what = g_strdup_printf ("%s (babeltrace2)", units[i]);
    check_rows (what, m, bt2);
    g_free (what);
    if (i == 0) {
      /* babeltrace2 2.0.4 (Debian 12) on the relay: its enumeration
       * labels differ from 2.1's, which ust-libc has none of */
      GPtrArray *live = bt2_live_lines (&o);

      if (live != NULL) {
        check_rows ("ust-libc (babeltrace2 -i lttng-live)", m, live);
        g_ptr_array_unref (live);
      } else {
        g_print ("SKIP %s (babeltrace2 -i lttng-live): no babeltrace2 in "
            "PATH\n", G_STRFUNC);
      }
    }
    g_test_message ("%s: %u rows before the session ended, %u while "
        "loading, %u batches", units[i], g.before_end, g.while_loading,
        g.batches);
    if (i == 1 && (g.before_end == 0 || g.before_end >= bt2->len))
      g_error ("%s: %u of %u rows before the session ended: the rows did "
          "not come as the session ran", units[i], g.before_end, bt2->len);
    g_assert_true (gst_ctf_gtk_event_model_get_time_range (m, &start, &end));
    g_assert_cmpuint (start, <, end);
    g_object_unref (m);
    g_ptr_array_unref (text);
    g_ptr_array_unref (bt2);
    g_free (opath);
    g_free (oname);
    g_free (dir);
  }
}

/* Two traces, the streams announced late (the second trace joins: a
 * merged trace class replaces the first). */
static void
test_live_two_traces (void)
{
  gchar *tmp = g_dir_make_tmp ("gtk-live-multi-XXXXXX", NULL);
  gchar *a = example ("ust-libc"), *b = example ("ust-sample");
  gchar *da = g_build_filename (tmp, "a", NULL);
  gchar *db = g_build_filename (tmp, "b", NULL);
  gchar *argv[] = { (gchar *) "cp", (gchar *) "-r", a, da, NULL };
  gchar *argv2[] = { (gchar *) "cp", (gchar *) "-r", b, db, NULL };
  TestRelayOptions o = { 0 };
  GstCtfGtkEventModel *m;
  GPtrArray *text;
  gint status;
  Growth g;
  guint k;

  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, NULL, NULL, &status, NULL) && status == 0);
  g_assert_true (g_spawn_sync (NULL, argv2, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, NULL, NULL, &status, NULL) && status == 0);
  o.dir = tmp;
  o.beacons = TRUE;
  for (k = 0; k < 2; k++) {
    o.late_streams = k == 0;
    o.session_per_trace = k == 1;
    text = pipeline_lines (&o);
    m = follow (&o, &g);
    check_rows (k == 0 ? "two traces, late streams" :
        "two traces, a relay session each", m, text);
    g_object_unref (m);
    g_ptr_array_unref (text);
  }
  test_rm_rf (tmp);
  g_free (da);
  g_free (db);
  g_free (a);
  g_free (b);
  g_free (tmp);
}

/* The corpus's LTTng-UST recordings (one with a checkpoint) equal
 * babeltrace2 2.1's text (2.0.4's prints recycled values of empty
 * strings, which the model does not emulate, as for files). */
static void
test_live_corpus (void)
{
  const gchar *units[] = { "custom-2cpu", "pthread-multichan" };
  guint i;

  if (test_corpus () == NULL) {
    g_test_skip ("GST_CTF_CORPUS not set or missing");
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing\n", G_STRFUNC);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    gchar *rel = g_strdup_printf ("ctf/lttng-ust/%s", units[i]);
    gchar *orel = g_strdup_printf ("ctf/lttng-ust/oracle-bt2.1/%s.txt",
        units[i]);
    gchar *dir = test_corpus_path (rel);
    gchar *opath = test_corpus_path (orel);
    GPtrArray *oracle = gtk_test_read_lines (opath);
    TestRelayOptions o = { 0 };
    GstCtfGtkEventModel *m;
    Growth g;

    o.dir = dir;
    o.minor = 13;
    o.metadata_chunk = 4096;
    o.beacons = TRUE;
    m = follow (&o, &g);
    check_rows (units[i], m, oracle);
    g_object_unref (m);
    g_ptr_array_unref (oracle);
    g_free (opath);
    g_free (dir);
    g_free (orel);
    g_free (rel);
  }
}

static void
expect_live_error (const gchar * url, const gchar * part)
{
  GError *err = NULL;
  GstCtfGtkEventModel *m = gst_ctf_gtk_event_model_new_for_path (url, &err);

  g_assert_null (m);
  g_assert_error (err, GST_CTF_ERROR, GST_CTF_ERROR_LIVE);
  if (part != NULL && strstr (err->message, part) == NULL)
    g_error ("%s: \"%s\" does not say \"%s\"", url, err->message, part);
  g_error_free (err);
}

static void
test_live_errors (void)
{
  TestRelayOptions o = { 0 };
  GError *err = NULL;
  TestRelay *relay;
  GSocket *sock;
  GSocketAddress *any, *bound;
  guint16 port;
  gchar *url;

  /* a port nobody listens on: bound, never listened */
  sock = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
      G_SOCKET_PROTOCOL_TCP, &err);
  g_assert_no_error (err);
  any = g_inet_socket_address_new_from_string ("127.0.0.1", 0);
  g_assert_true (g_socket_bind (sock, any, FALSE, &err));
  bound = g_socket_get_local_address (sock, &err);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  url = g_strdup_printf ("net://127.0.0.1:%u/host/h/s", port);
  expect_live_error (url, NULL);
  g_free (url);
  g_object_unref (bound);
  g_object_unref (any);
  g_object_unref (sock);

  o.dir = g_getenv ("GST_CTF_EXAMPLES");
  relay = test_relay_start (&o, &err);
  g_assert_no_error (err);
  url = g_strdup_printf ("net://127.0.0.1:%u/host/testhost/nosuch",
      test_relay_get_port (relay));
  expect_live_error (url, "No session \"nosuch\"");
  g_free (url);
  url = g_strdup_printf ("net://127.0.0.1:%u", test_relay_get_port (relay));
  expect_live_error (url, "names no session");
  g_free (url);
  test_relay_stop (relay);

  o.attach_status = 4;          /* NOT_LIVE */
  relay = test_relay_start (&o, &err);
  g_assert_no_error (err);
  url = url_of (relay, &o);
  expect_live_error (url, "not a live session");
  g_free (url);
  test_relay_stop (relay);
}

/* The relay closes the connection after two packets: loading ends with
 * a GST_CTF_ERROR_LIVE error, the rows of the packets received there. */
static void
test_live_connection_lost (void)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-sample"), *url;
  GError *err = NULL;
  TestRelay *relay;
  GstCtfGtkEventModel *m;
  guint n;

  o.dir = dir;
  o.close_after = 2;
  relay = test_relay_start (&o, &err);
  g_assert_no_error (err);
  url = url_of (relay, &o);
  m = gst_ctf_gtk_event_model_new_for_path (url, &err);
  g_assert_no_error (err);
  g_assert_false (gst_ctf_gtk_event_model_wait (m, &err));
  g_assert_error (err, GST_CTF_ERROR, GST_CTF_ERROR_LIVE);
  g_assert_nonnull (gst_ctf_gtk_event_model_get_error (m));
  n = g_list_model_get_n_items (G_LIST_MODEL (m));
  g_test_message ("connection closed after 2 packets: %u rows, \"%s\"", n,
      err->message);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, 358);
  {
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), n - 1);

    g_assert_nonnull (ev);
    g_object_unref (ev);
  }
  g_clear_error (&err);
  g_object_unref (m);
  test_relay_stop (relay);
  g_free (url);
  g_free (dir);
}

/* Dropped while the session runs (never destroyed): the follower and
 * the index stop; the rows so far were there. */
static void
test_live_drop_running (void)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-libc"), *url;
  GError *err = NULL;
  TestRelay *relay;
  GstCtfGtkEventModel *m;
  gint64 until;

  o.dir = dir;
  o.beacons = TRUE;
  o.never_end = TRUE;
  relay = test_relay_start (&o, &err);
  g_assert_no_error (err);
  url = url_of (relay, &o);
  m = gst_ctf_gtk_event_model_new_for_path (url, &err);
  g_assert_no_error (err);
  until = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (g_list_model_get_n_items (G_LIST_MODEL (m)) < 833 &&
      g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (m)), ==, 833);
  g_assert_true (gst_ctf_gtk_event_model_get_loading (m));
  g_object_unref (m);
  test_relay_stop (relay);
  g_free (url);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gtk-live/errors", test_live_errors);
  g_test_add_func ("/gtk-live/bundled", test_live_bundled);
  g_test_add_func ("/gtk-live/two-traces", test_live_two_traces);
  g_test_add_func ("/gtk-live/corpus", test_live_corpus);
  g_test_add_func ("/gtk-live/drop-running", test_live_drop_running);
  g_test_add_func ("/gtk-live/connection-lost", test_live_connection_lost);
  return g_test_run ();
}
