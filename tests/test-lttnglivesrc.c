/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lttnglivesrc against the tests' own LTTng live relay (live-relay.c):
 *
 * - `lttnglivesrc ! ctftextsink` equals babeltrace2's text of the served
 *   trace (the bundled ust-libc always; the corpus LTTng-UST units when
 *   ../shared is present), with relays of minor 4, 13 and 15, metadata
 *   split across replies, RETRY runs, inactivity beacons, late streams
 *   and relayd 2.13's empty OK to GET_NEW_STREAMS;
 * - babeltrace2 (the system's, 2.0.4 on Debian 12) reading the same relay
 *   prints the same text (the relay is faithful);
 * - ATTACH_ALREADY, NOT_LIVE, a refused connection and a missing session
 *   (session-not-found=error) are element errors naming the cause; with
 *   session-not-found=end a missing session is end-of-stream; with the
 *   default session-not-found=wait a missing session is waited for, and
 *   the destruction of the session being read is end-of-stream (the
 *   whole text out);
 * - ctftextsink writes the text of a live session out as it comes, not at
 *   the end; a GAP reaches the end of the last packets pushed; a stream
 *   announced after later packets went is pushed with a warning;
 * - LATENCY answers live, min = live timer + poll interval; seeks are
 *   refused; PLAYING -> NULL while waiting leaves no thread behind;
 * - the library: URL parsing, metadata reassembly of partial packets.
 */
#include <gst/check/gstcheck.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "live-relay.h"
#include "gstctf-live.h"
#include "gstctf-error.h"
#include "gstctf-metadata.h"
#include "gstctf-trace-dir.h"
#include "gstctf-packet-meta.h"
#include "test-util.h"

static gchar *
example (const gchar * rel)
{
  return g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), rel, NULL);
}

typedef struct {
  gboolean eos;
  gchar *error;                 /* message + debug of the first error */
} RunResult;

/* Runs DESC to EOS or error (at most 60 s). */
static void
run_pipeline (const gchar * desc, RunResult * r)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstBus *bus;
  GstMessage *m;

  memset (r, 0, sizeof *r);
  fail_unless (p != NULL, "%s: %s", desc, err ? err->message : "?");
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "%s: no EOS or error within 60 s", desc);
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS) {
    r->eos = TRUE;
  } else {
    gchar *dbg = NULL;

    gst_message_parse_error (m, &err, &dbg);
    r->error = g_strdup_printf ("%s | %s", err->message, dbg ? dbg : "");
    g_error_free (err);
    g_free (dbg);
  }
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}

/* Text of `lttnglivesrc ! ctftextsink` on a relay serving @dir. */
static gchar *live_text_src (const TestRelayOptions * opts,
    const gchar * extra_src, const gchar * extra_sink, RunResult * rr);

static gchar *
live_text (const TestRelayOptions * opts, const gchar * extra_sink,
    RunResult * rr)
{
  return live_text_src (opts, NULL, extra_sink, rr);
}

/* live_text() with properties of lttnglivesrc (@extra_src). */
static gchar *
live_text_src (const TestRelayOptions * opts, const gchar * extra_src,
    const gchar * extra_sink, RunResult * rr)
{
  GError *err = NULL;
  TestRelay *relay = test_relay_start (opts, &err);
  gchar *tmp, *out, *desc, *text = NULL;
  gint fd;

  fail_unless (relay != NULL, "relay: %s", err ? err->message : "?");
  fd = g_file_open_tmp ("livesrc-XXXXXX.txt", &out, NULL);
  close (fd);
  desc = g_strdup_printf ("lttnglivesrc url=net://127.0.0.1:%u/host/%s/%s "
      "session-not-found=end poll-interval=5 %s ! ctftextsink location=%s %s",
      test_relay_get_port (relay), opts->hostname ? opts->hostname :
      "testhost", opts->session_name ? opts->session_name : "testsession",
      extra_src ? extra_src : "", out, extra_sink ? extra_sink : "");
  run_pipeline (desc, rr);
  if (rr->eos)
    fail_unless (g_file_get_contents (out, &text, NULL, NULL));
  tmp = out;
  g_unlink (tmp);
  g_free (tmp);
  g_free (desc);
  test_relay_stop (relay);
  return text;
}

static gchar *
read_file (const gchar * path)
{
  gchar *t = NULL;

  fail_unless (g_file_get_contents (path, &t, NULL, NULL), "%s", path);
  return t;
}

static void
check_equal_text (const gchar * what, const gchar * got,
    const gchar * expected)
{
  if (g_strcmp0 (got, expected) != 0) {
    gsize i = 0;

    while (got && got[i] && got[i] == expected[i])
      i++;
    fail ("%s: text differs from the oracle at byte %" G_GSIZE_FORMAT
        " (got %" G_GSIZE_FORMAT " bytes, expected %" G_GSIZE_FORMAT ")",
        what, i, got ? strlen (got) : 0, strlen (expected));
  }
}

static void
check_fixture (const TestRelayOptions * o, const gchar * what)
{
  gchar *dir = example ("ust-libc");
  gchar *oracle_path = example ("ust-libc.babeltrace2.txt");
  gchar *oracle = read_file (oracle_path);
  TestRelayOptions opts = *o;
  RunResult rr;
  gchar *text;

  opts.dir = dir;
  text = live_text (&opts, NULL, &rr);
  fail_unless (rr.eos, "%s: %s", what, rr.error);
  check_equal_text (what, text, oracle);
  g_free (text);
  g_free (oracle);
  g_free (oracle_path);
  g_free (dir);
}

GST_START_TEST (test_fixture_plain)
{
  TestRelayOptions o = { 0 };

  o.minor = 13;
  check_fixture (&o, "minor 13");
}

GST_END_TEST;

/* The second bundled trace (enumerations, empty strings, 6 packets). */
GST_START_TEST (test_fixture_sample)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-sample");
  gchar *oracle_path = example ("ust-sample.babeltrace2-2.1.txt");
  gchar *oracle = read_file (oracle_path);
  RunResult rr;
  gchar *text;

  o.dir = dir;
  o.beacons = TRUE;
  o.retry_runs = 1;
  o.metadata_chunk = 333;
  text = live_text (&o, NULL, &rr);
  fail_unless (rr.eos, "%s", rr.error);
  check_equal_text ("ust-sample", text, oracle);
  g_free (text);
  g_free (oracle);
  g_free (oracle_path);
  g_free (dir);
}

GST_END_TEST;

/* The sources' clock options (issue 29): the session's clock moved as
 * babeltrace2 --clock-offset / --clock-offset-ns / --clock-force-correlate
 * move the trace's (2.0.4's text on the same trace directory). */
GST_START_TEST (test_clock_options)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-libc");
  gchar *oracle = NULL, *errout = NULL, *text;
  gint status = -1;
  RunResult rr;
  gchar *argv[] = { (gchar *) "babeltrace2", (gchar *) "--clock-offset=3600",
    (gchar *) "--clock-offset-ns=-1500000001",
    (gchar *) "--clock-force-correlate", (gchar *) "--clock-date", dir, NULL
  };

  if (!test_have_program ("babeltrace2")) {
    g_print ("SKIP %s: no babeltrace2 in PATH\n", G_STRFUNC);
    g_free (dir);
    return;
  }
  fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, &oracle, &errout, &status, NULL) && status == 0, "%s",
      errout);
  o.dir = dir;
  o.beacons = TRUE;
  text = live_text_src (&o, "clock-offset=3600 clock-offset-ns=-1500000001 "
      "force-clock-class-origin-unix-epoch=true",
      "babeltrace-version=2.0 clock-date=true", &rr);
  fail_unless (rr.eos, "%s", rr.error);
  fail_unless (g_str_has_prefix (oracle, "[20") && strlen (oracle) > 1000);
  check_equal_text ("ust-libc clock options", text, oracle);
  g_free (text);
  g_free (oracle);
  g_free (errout);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_fixture_minor4_and_15)
{
  TestRelayOptions o = { 0 };

  o.minor = 4;
  check_fixture (&o, "minor 4");
  o.minor = 15;
  check_fixture (&o, "minor 15");
}

GST_END_TEST;

GST_START_TEST (test_fixture_scripted)
{
  TestRelayOptions o = { 0 };

  o.minor = 13;
  o.metadata_chunk = 97;
  check_fixture (&o, "metadata in 97-byte replies");
  o.metadata_chunk = 0;
  o.retry_runs = 2;
  check_fixture (&o, "RETRY runs");
  o.retry_runs = 0;
  o.beacons = TRUE;
  check_fixture (&o, "beacons");
  o.beacons = FALSE;
  o.late_streams = TRUE;
  o.empty_new_streams = TRUE;
  check_fixture (&o, "late streams, empty OK to GET_NEW_STREAMS");
  o.metadata_chunk = 1000;
  o.retry_runs = 1;
  o.beacons = TRUE;
  check_fixture (&o, "all together");
}

GST_END_TEST;

/* The served trace's name, host and session names reach babeltrace2. */
GST_START_TEST (test_babeltrace2_reads_relay)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-libc");
  gchar *oracle_path = example ("ust-libc.babeltrace2.txt");
  gchar *oracle = read_file (oracle_path);
  GError *err = NULL;
  TestRelay *relay;
  gchar *params, *out = NULL, *errout = NULL;
  gint status = -1;

  if (!test_have_program ("babeltrace2")) {
    g_print ("SKIP %s: no babeltrace2 in PATH\n", G_STRFUNC);
    goto done;
  }
  o.dir = dir;
  o.minor = 13;
  o.metadata_chunk = 200;
  o.beacons = TRUE;
  relay = test_relay_start (&o, &err);
  fail_unless (relay != NULL);
  params = g_strdup_printf ("inputs=[\"net://127.0.0.1:%u/host/testhost/"
      "testsession\"],session-not-found-action=\"end\"",
      test_relay_get_port (relay));
  {
    gchar *argv[] = { (gchar *) "babeltrace2", (gchar *) "--component",
      (gchar *) "src.ctf.lttng-live", (gchar *) "--params", params, NULL
    };

    fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
            NULL, &out, &errout, &status, &err), "%s", err ? err->message :
        "?");
  }
  fail_unless (g_spawn_check_wait_status (status, NULL), "babeltrace2: %s",
      errout);
  check_equal_text ("babeltrace2 on the test relay", out, oracle);
  g_free (params);
  g_free (out);
  g_free (errout);
  test_relay_stop (relay);
done:
  g_free (oracle);
  g_free (oracle_path);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_corpus_units)
{
  const gchar *units[] = { "custom-2cpu", "dl-statedump", "libc-ls",
    "pthread-multichan"
  };
  guint i;

  NEED_CORPUS ();
  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    gchar *rel = g_strdup_printf ("ctf/lttng-ust/%s", units[i]);
    gchar *orel = g_strdup_printf ("ctf/lttng-ust/oracle/%s.txt", units[i]);
    gchar *dir = test_corpus_path (rel);
    gchar *opath = test_corpus_path (orel);
    gchar *oracle = read_file (opath);
    TestRelayOptions o = { 0 };
    RunResult rr;
    gchar *text;

    o.dir = dir;
    o.minor = 13;
    o.metadata_chunk = 4096;
    o.beacons = TRUE;
    text = live_text (&o, "babeltrace-version=2.0", &rr);
    fail_unless (rr.eos, "%s: %s", units[i], rr.error);
    check_equal_text (units[i], text, oracle);
    g_free (text);
    g_free (oracle);
    g_free (opath);
    g_free (dir);
    g_free (orel);
    g_free (rel);
  }
}

GST_END_TEST;


typedef struct {
  GArray *pts;                  /* GstClockTime of buffers, in push order */
  guint gaps;
  guint caps;
  gboolean meta_ok;
  GstClockTime last_gap_end;
  gboolean gap_after_buffer_ok;
} Seen;

static GstPadProbeReturn
seen_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Seen *seen = data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (info);
    GstCtfPacketMeta *m = gst_buffer_get_ctf_packet_meta (b);
    GstClockTime t = GST_BUFFER_PTS (b);

    g_array_append_val (seen->pts, t);
    if (m == NULL || m->stream_name == NULL || m->offset < 0)
      seen->meta_ok = FALSE;
  } else if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *e = GST_PAD_PROBE_INFO_EVENT (info);

    if (GST_EVENT_TYPE (e) == GST_EVENT_GAP) {
      GstClockTime ts, dur;

      gst_event_parse_gap (e, &ts, &dur);
      seen->gaps++;
      seen->last_gap_end = ts + dur;
      /* a gap never goes back before a pushed buffer */
      if (seen->pts->len &&
          ts < g_array_index (seen->pts, GstClockTime, seen->pts->len - 1))
        seen->gap_after_buffer_ok = FALSE;
    } else if (GST_EVENT_TYPE (e) == GST_EVENT_CAPS) {
      seen->caps++;
    }
  }
  return GST_PAD_PROBE_OK;
}

/* Packets leave in timestamp_begin order across streams (PTS never go
 * back), all of them, with their meta; beacons give GAP events. */
GST_START_TEST (test_order_and_gaps)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-sample");
  GError *err = NULL;
  GstCtfTraceDir *td;
  guint n_packets = 0, i, round;

  {
    gchar *tdir = example ("ust-sample/ust/uid/0/64-bit");

    td = gst_ctf_trace_dir_open (tdir, &err);
    fail_unless (td != NULL);
    for (i = 0; i < td->files->len; i++)
      n_packets += ((GstCtfStreamFile *) g_ptr_array_index (td->files,
              i))->index->entries->len;
    gst_ctf_trace_dir_free (td);
    g_free (tdir);
  }
  fail_unless (n_packets >= 6);

  for (round = 0; round < 3; round++) {
    TestRelay *relay;
    GstElement *p, *src;
    GstPad *pad;
    gchar *desc;
    RunResult rr;
    Seen seen = { 0 };
    GstBus *bus;
    GstMessage *m;

    o.dir = dir;
    o.beacons = round >= 1;
    o.retry_runs = round == 2 ? 2 : 0;
    o.late_streams = round == 2;
    relay = test_relay_start (&o, NULL);
    desc = g_strdup_printf ("lttnglivesrc name=src url=net://127.0.0.1:%u/"
        "host/testhost/testsession session-not-found=end poll-interval=2 ! "
        "fakesink", test_relay_get_port (relay));
    p = gst_parse_launch (desc, NULL);
    src = gst_bin_get_by_name (GST_BIN (p), "src");
    pad = gst_element_get_static_pad (src, "src");
    seen.pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
    seen.meta_ok = TRUE;
    seen.gap_after_buffer_ok = TRUE;
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
        GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, seen_probe, &seen, NULL);
    bus = gst_element_get_bus (p);
    gst_element_set_state (p, GST_STATE_PLAYING);
    m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS, "round %u",
        round);
    gst_message_unref (m);
    gst_element_set_state (p, GST_STATE_NULL);
    fail_unless_equals_int (seen.pts->len, n_packets);
    for (i = 1; i < seen.pts->len; i++)
      fail_unless (g_array_index (seen.pts, GstClockTime, i) >=
          g_array_index (seen.pts, GstClockTime, i - 1),
          "round %u: packet %u goes back in time", round, i);
    fail_unless (seen.meta_ok);
    fail_unless_equals_int (seen.caps, 1);
    fail_unless (seen.gap_after_buffer_ok);
    if (o.beacons)
      fail_unless (seen.gaps > 0, "round %u: beacons gave no GAP", round);
    (void) rr;
    g_array_unref (seen.pts);
    gst_object_unref (bus);
    gst_object_unref (pad);
    gst_object_unref (src);
    gst_object_unref (p);
    g_free (desc);
    test_relay_stop (relay);
  }
  g_free (dir);
}

GST_END_TEST;

/* A live upstream: ctftextsink writes each packet's text out at once (and
 * on the GAP events of beacons), not in 64 KiB chunks or at EOS.  The
 * relay serves every packet of the trace and then only beacons past them:
 * the file holds the whole text while the pipeline still runs. */
GST_START_TEST (test_text_written_while_live)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-libc");
  gchar *oracle_path = example ("ust-libc.babeltrace2.txt");
  gchar *oracle = read_file (oracle_path);
  TestRelay *relay;
  GstElement *p;
  GstBus *bus;
  GstMessage *m;
  gchar *out, *desc, *text = NULL;
  gint fd, i;

  o.dir = dir;
  o.never_end = TRUE;
  relay = test_relay_start (&o, NULL);
  fail_unless (relay != NULL);
  fd = g_file_open_tmp ("livesrc-XXXXXX.txt", &out, NULL);
  close (fd);
  desc = g_strdup_printf ("lttnglivesrc url=net://127.0.0.1:%u/host/"
      "testhost/testsession poll-interval=5 ! ctftextsink location=%s",
      test_relay_get_port (relay), out);
  p = gst_parse_launch (desc, NULL);
  fail_unless (p != NULL);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (i = 0; i < 600; i++) {
    m = gst_bus_timed_pop_filtered (bus, 50 * GST_MSECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (m == NULL, "the pipeline ended (%s)", m ?
        GST_MESSAGE_TYPE_NAME (m) : "");
    g_free (text);
    text = read_file (out);
    if (strcmp (text, oracle) == 0)
      break;
  }
  /* still running: nothing ended the stream */
  fail_if (test_relay_session_destroyed (relay));
  check_equal_text ("text before the end of the session", text, oracle);
  fail_unless (gst_element_set_state (p, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  g_free (text);
  text = read_file (out);
  check_equal_text ("text after stopping", text, oracle);
  g_unlink (out);
  g_free (out);
  g_free (text);
  g_free (desc);
  gst_object_unref (bus);
  gst_object_unref (p);
  test_relay_stop (relay);
  g_free (oracle);
  g_free (oracle_path);
  g_free (dir);
}

GST_END_TEST;


/* Listing: the library (2.4-style and minor-15 records), the C example's
 * --list, equal to `babeltrace2 -i lttng-live net://RELAY`; the example
 * converting a live session to a trace babeltrace2 reads as the oracle. */
GST_START_TEST (test_list_and_example)
{
  guint32 minors[] = { 4, 15 };
  gchar *dir = example ("ust-libc");
  guint m;

  for (m = 0; m < G_N_ELEMENTS (minors); m++) {
    TestRelayOptions o = { 0 };
    TestRelay *relay;
    GError *err = NULL;
    GPtrArray *sessions;
    const GstCtfLiveSession *s;
    gchar *url, *ours = NULL, *theirs = NULL;
    gint status;

    o.dir = dir;
    o.minor = minors[m];
    o.live_timer = 123000;
    relay = test_relay_start (&o, NULL);
    url = g_strdup_printf ("net://127.0.0.1:%u", test_relay_get_port (relay));
    sessions = gst_ctf_live_list_sessions (url, 5000, NULL, &err);
    fail_unless (sessions != NULL, "%s", err ? err->message : "");
    fail_unless_equals_int (sessions->len, 1);
    s = g_ptr_array_index (sessions, 0);
    fail_unless_equals_string (s->hostname, "testhost");
    fail_unless_equals_string (s->session_name, "testsession");
    fail_unless_equals_int (s->live_timer, 123000);
    fail_unless_equals_int (s->streams, 3);
    g_ptr_array_unref (sessions);
    {
      gchar *argv[] = { (gchar *) g_getenv ("GST_CTF_CONVERT"),
        (gchar *) "--list", url, NULL
      };

      fail_unless (argv[0] != NULL);
      fail_unless (g_spawn_sync (NULL, argv, NULL, 0, NULL, NULL, &ours,
              NULL, &status, NULL));
      fail_unless (g_spawn_check_wait_status (status, NULL));
    }
    if (test_have_program ("babeltrace2")) {
      gchar *argv[] = { (gchar *) "babeltrace2", (gchar *) "-i",
        (gchar *) "lttng-live", url, NULL
      };

      fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
              G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &theirs, NULL, &status,
              NULL));
      fail_unless_equals_string (ours, theirs);
    } else {
      g_print ("SKIP babeltrace2 listing: no babeltrace2 in PATH\n");
    }
    g_free (ours);
    g_free (theirs);

    if (m == 0) {
      /* ctf-convert net://... OUT: follows the session to its end */
      gchar *tmp = g_dir_make_tmp ("livesrc-convert-XXXXXX", NULL);
      gchar *out = g_build_filename (tmp, "out", NULL);
      gchar *live = g_strdup_printf ("%s/host/testhost/testsession", url);
      gchar *argv[] = { (gchar *) g_getenv ("GST_CTF_CONVERT"), live, out,
        NULL
      };
      gchar *errout = NULL;

      fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
              NULL, NULL, NULL, &errout, &status, NULL));
      fail_unless (g_spawn_check_wait_status (status, NULL), "%s", errout);
      if (test_have_program ("babeltrace2")) {
        gchar *oracle_path = example ("ust-libc.babeltrace2.txt");
        gchar *oracle = read_file (oracle_path);
        gchar *bargv[] = { (gchar *) "babeltrace2", out, NULL };
        gchar *text = NULL;

        fail_unless (g_spawn_sync (NULL, bargv, NULL, G_SPAWN_SEARCH_PATH,
                NULL, NULL, &text, NULL, &status, NULL));
        check_equal_text ("ctf-convert net://", text, oracle);
        g_free (text);
        g_free (oracle);
        g_free (oracle_path);
      }
      test_rm_rf (tmp);
      g_free (errout);
      g_free (live);
      g_free (out);
      g_free (tmp);
    }
    g_free (url);
    test_relay_stop (relay);
  }
  g_free (dir);
}

GST_END_TEST;


/* Text of `ctfsrc location=DIR ! ctftextsink` (several traces merged). */
static gchar *
ctfsrc_text (const gchar * dir, const gchar * extra)
{
  gchar *out, *desc, *text = NULL;
  RunResult rr;
  gint fd = g_file_open_tmp ("ctfsrc-XXXXXX.txt", &out, NULL);

  close (fd);
  desc = g_strdup_printf ("ctfsrc location=%s ! ctftextsink location=%s %s",
      dir, out, extra ? extra : "");
  run_pipeline (desc, &rr);
  fail_unless (rr.eos, "%s", rr.error);
  fail_unless (g_file_get_contents (out, &text, NULL, NULL));
  g_unlink (out);
  g_free (out);
  g_free (desc);
  return text;
}

/* What reached the sink: per stream, the end of its last packet (PTS +
 * DURATION); the furthest GAP end. */
typedef struct {
  GMutex lock;
  GHashTable *ends;             /* stream name -> end ns (as pointer) */
  guint n_buffers;
  GstClockTime gap_end;
} Ends;

static GstPadProbeReturn
ends_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Ends *e = data;

  g_mutex_lock (&e->lock);
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (info);
    GstCtfPacketMeta *m = gst_buffer_get_ctf_packet_meta (b);

    e->n_buffers++;
    if (m && m->stream_name)
      g_hash_table_insert (e->ends, (gpointer) m->stream_name,
          GSIZE_TO_POINTER ((gsize) (GST_BUFFER_PTS (b) +
                  GST_BUFFER_DURATION (b))));
  } else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) ==
      GST_EVENT_GAP) {
    GstClockTime ts, dur;

    gst_event_parse_gap (GST_PAD_PROBE_INFO_EVENT (info), &ts, &dur);
    e->gap_end = ts + dur;
  }
  g_mutex_unlock (&e->lock);
  return GST_PAD_PROBE_OK;
}

/* The lines of @text (clock-seconds=true) of events before @ns. */
static gchar *
lines_before (const gchar * text, GstClockTime ns)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; lines[i] && lines[i][0]; i++) {
    guint64 sec = 0, frac = 0;

    fail_unless (sscanf (lines[i], "[%" G_GUINT64_FORMAT ".%9"
            G_GUINT64_FORMAT "]", &sec, &frac) == 2, "%s", lines[i]);
    if (sec * GST_SECOND + frac < ns)
      g_string_append_printf (out, "%s\n", lines[i]);
  }
  g_strfreev (lines);
  return g_string_free (out, FALSE);
}

/* A stream whose next packet does not come yet (RETRY) after the others'
 * last packets: a GAP reaches the end of the streams' last packets (a
 * stream's next packet begins where its previous one ended), so
 * ctftextsink prints every event before it, without waiting for more
 * packets; none after it. */
GST_START_TEST (test_gap_to_packet_end)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-libc");
  gchar *full = ctfsrc_text (dir, "clock-seconds=true");
  TestRelay *relay;
  GstElement *p, *src;
  GstPad *pad;
  GstBus *bus;
  GstMessage *m;
  Ends e = { 0 };
  gchar *out, *desc, *text = NULL, *expected = NULL;
  GstClockTime low = GST_CLOCK_TIME_NONE;
  gint fd, i;

  o.dir = dir;
  o.stall_at_end = TRUE;
  relay = test_relay_start (&o, NULL);
  fail_unless (relay != NULL);
  fd = g_file_open_tmp ("livesrc-XXXXXX.txt", &out, NULL);
  close (fd);
  desc = g_strdup_printf ("lttnglivesrc name=src url=net://127.0.0.1:%u/"
      "host/testhost/testsession poll-interval=5 ! ctftextsink "
      "clock-seconds=true location=%s", test_relay_get_port (relay), out);
  p = gst_parse_launch (desc, NULL);
  fail_unless (p != NULL);
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  pad = gst_element_get_static_pad (src, "src");
  g_mutex_init (&e.lock);
  e.ends = g_hash_table_new (NULL, NULL);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, ends_probe, &e, NULL);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (i = 0; i < 600; i++) {
    GHashTableIter it;
    gpointer v;

    m = gst_bus_timed_pop_filtered (bus, 50 * GST_MSECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (m == NULL, "the pipeline ended (%s)", m ?
        GST_MESSAGE_TYPE_NAME (m) : "");
    g_mutex_lock (&e.lock);
    /* (ust-libc: 2 streams; the lowest last end is the bound) */
    low = GST_CLOCK_TIME_NONE;
    g_hash_table_iter_init (&it, e.ends);
    while (g_hash_table_iter_next (&it, NULL, &v))
      low = MIN (low, (GstClockTime) GPOINTER_TO_SIZE (v));
    if (g_hash_table_size (e.ends) == 2 && e.gap_end >= low) {
      g_mutex_unlock (&e.lock);
      g_free (text);
      text = read_file (out);
      if (expected == NULL)
        expected = lines_before (full, low);
      if (strcmp (text, expected) == 0)
        break;
    } else {
      g_mutex_unlock (&e.lock);
    }
  }
  g_mutex_lock (&e.lock);
  fail_unless_equals_int (g_hash_table_size (e.ends), 2);
  fail_unless (e.gap_end >= low, "no GAP to the end of the last packets: "
      "%" GST_TIME_FORMAT " < %" GST_TIME_FORMAT, GST_TIME_ARGS (e.gap_end),
      GST_TIME_ARGS (low));
  g_mutex_unlock (&e.lock);
  fail_unless (expected != NULL && expected[0] != '\0');
  check_equal_text ("text before the GAP", text, expected);
  fail_unless (gst_element_set_state (p, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  g_unlink (out);
  g_free (out);
  g_free (text);
  g_free (expected);
  g_free (full);
  g_free (desc);
  g_hash_table_unref (e.ends);
  g_mutex_clear (&e.lock);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (src);
  gst_object_unref (p);
  test_relay_stop (relay);
  g_free (dir);
}

GST_END_TEST;

static gint
compare_lines (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* The lines of @text, sorted. */
static gchar *
sorted_lines (const gchar * text)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  gchar *joined;

  qsort (lines, g_strv_length (lines), sizeof (gchar *), compare_lines);
  joined = g_strjoinv ("\n", lines);
  g_strfreev (lines);
  return joined;
}

/* A stream the relay announces only after packets of another stream that
 * end after its first packet begins (a per-PID trace of an app that the
 * relay makes known late): lttnglivesrc cannot put it back in order; it
 * pushes its packets anyway, with a warning naming the stream, and every
 * event is printed (babeltrace2 stops with "Late message could not be
 * handled correctly" there). */
GST_START_TEST (test_late_stream_warns)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-sample");
  gchar *full = ctfsrc_text (dir, "no-delta=true");
  TestRelay *relay;
  GstElement *p;
  GstBus *bus;
  GstMessage *m;
  gchar *out, *desc, *text, *got, *want, *warning = NULL;
  gboolean eos = FALSE;
  gint fd;

  o.dir = dir;
  o.late_streams = TRUE;
  o.late_after = 2;
  relay = test_relay_start (&o, NULL);
  fail_unless (relay != NULL);
  fd = g_file_open_tmp ("livesrc-XXXXXX.txt", &out, NULL);
  close (fd);
  desc = g_strdup_printf ("lttnglivesrc url=net://127.0.0.1:%u/host/"
      "testhost/testsession session-not-found=end poll-interval=5 ! "
      "ctftextsink no-delta=true location=%s", test_relay_get_port (relay),
      out);
  p = gst_parse_launch (desc, NULL);
  fail_unless (p != NULL);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  while (!eos && (m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GError *err = NULL;

    fail_if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR, "error");
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING && warning == NULL) {
      gst_message_parse_warning (m, &err, NULL);
      warning = g_strdup (err->message);
      g_error_free (err);
    }
    eos = GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
    gst_message_unref (m);
  }
  fail_unless (eos);
  gst_element_set_state (p, GST_STATE_NULL);
  fail_unless (warning != NULL && strstr (warning, "Stream channel0_1 ") &&
      strstr (warning, "joined late"), "warning: %s", warning);
  text = read_file (out);
  got = sorted_lines (text);
  want = sorted_lines (full);
  check_equal_text ("every event of the late stream", got, want);
  g_unlink (out);
  g_free (out);
  g_free (text);
  g_free (got);
  g_free (want);
  g_free (warning);
  g_free (full);
  g_free (desc);
  gst_object_unref (bus);
  gst_object_unref (p);
  test_relay_stop (relay);
  g_free (dir);
}

GST_END_TEST;

/* A session of several traces (two bundled traces side by side, as the
 * domains or per-PID traces of one session): merged as ctfsrc merges
 * them, and for the corpus's kernel + UST unit, babeltrace2's text. */
GST_START_TEST (test_several_traces)
{
  gchar *tmp = g_dir_make_tmp ("livesrc-multi-XXXXXX", NULL);
  gchar *a = example ("ust-libc"), *b = example ("ust-sample");
  gchar *da = g_build_filename (tmp, "a", NULL);
  gchar *db = g_build_filename (tmp, "b", NULL);
  gchar *argv[] = { (gchar *) "cp", (gchar *) "-r", a, da, NULL };
  gchar *argv2[] = { (gchar *) "cp", (gchar *) "-r", b, db, NULL };
  TestRelayOptions o = { 0 };
  gchar *expected, *text;
  RunResult rr;
  gint status;

  fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, NULL, NULL, &status, NULL) && status == 0);
  fail_unless (g_spawn_sync (NULL, argv2, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, NULL, NULL, &status, NULL) && status == 0);
  expected = ctfsrc_text (tmp, NULL);
  o.dir = tmp;
  o.beacons = TRUE;
  o.late_streams = TRUE;
  text = live_text (&o, NULL, &rr);
  fail_unless (rr.eos, "%s", rr.error);
  check_equal_text ("two traces", text, expected);
  g_free (text);
  /* each trace a relay session of its own, same host and name (domains,
   * bitnesses): all attached */
  o.session_per_trace = TRUE;
  text = live_text (&o, NULL, &rr);
  fail_unless (rr.eos, "%s", rr.error);
  check_equal_text ("two relay sessions", text, expected);
  g_free (text);
  g_free (expected);
  test_rm_rf (tmp);
  g_free (da);
  g_free (db);
  g_free (a);
  g_free (b);
  g_free (tmp);

  if (test_corpus () != NULL) {
    gchar *dir = test_corpus_path ("ctf/babeltrace/succeed/multi-domains");
    gchar *opath = test_corpus_path
        ("ctf/babeltrace/oracle/succeed/multi-domains.txt");
    gchar *oracle = read_file (opath);

    memset (&o, 0, sizeof o);
    o.dir = dir;
    o.metadata_chunk = 1000;
    text = live_text (&o, "babeltrace-version=2.0", &rr);
    fail_unless (rr.eos, "%s", rr.error);
    check_equal_text ("multi-domains", text, oracle);
    g_free (text);
    g_free (oracle);
    g_free (opath);
    g_free (dir);
  } else {
    g_print ("SKIP %s (corpus part): GST_CTF_CORPUS not set or missing\n",
        G_STRFUNC);
  }
}

GST_END_TEST;


/* CTF 2 sessions (LTTng 2.15 offers them to minor-15 viewers): the
 * bundled CTF 2 trace of every field kind, and the corpus's LTTng 2.15
 * recordings (packetized CTF 2 metadata), equal to babeltrace2 2.1.2. */
GST_START_TEST (test_ctf2)
{
  gchar *dir = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "ctf2",
      "kinds", NULL);
  gchar *opath = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "ctf2",
      "kinds.txt", NULL);
  gchar *oracle = read_file (opath);
  const gchar *units[] = { "ust-fields", "ust-libc" };
  TestRelayOptions o = { 0 };
  RunResult rr;
  gchar *text;
  guint i;

  o.dir = dir;
  o.minor = 15;
  o.metadata_chunk = 500;
  text = live_text (&o, NULL, &rr);
  fail_unless (rr.eos, "%s", rr.error);
  check_equal_text ("ctf2/kinds", text, oracle);
  g_free (text);
  g_free (oracle);
  g_free (opath);
  g_free (dir);

  if (test_corpus () == NULL) {
    g_print ("SKIP %s (corpus part): GST_CTF_CORPUS not set or missing\n",
        G_STRFUNC);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    gchar *rel = g_strdup_printf ("ctf2/lttng-2.15/%s", units[i]);
    gchar *orel = g_strdup_printf ("ctf2/lttng-2.15/oracle/%s.txt", units[i]);

    dir = test_corpus_path (rel);
    opath = test_corpus_path (orel);
    oracle = read_file (opath);
    memset (&o, 0, sizeof o);
    o.dir = dir;
    o.minor = 15;
    o.metadata_chunk = 1500;
    o.beacons = TRUE;
    text = live_text (&o, NULL, &rr);
    fail_unless (rr.eos, "%s: %s", units[i], rr.error);
    check_equal_text (units[i], text, oracle);
    g_free (text);
    g_free (oracle);
    g_free (opath);
    g_free (dir);
    g_free (orel);
    g_free (rel);
  }
}

GST_END_TEST;

static void
check_error (const TestRelayOptions * o, const gchar * expect)
{
  gchar *dir = example ("ust-libc");
  TestRelayOptions opts = *o;
  RunResult rr;
  gchar *text;

  opts.dir = dir;
  text = live_text (&opts, NULL, &rr);
  fail_unless (!rr.eos && rr.error != NULL, "expected an error");
  fail_unless (strstr (rr.error, expect) != NULL, "error \"%s\" lacks \"%s\"",
      rr.error, expect);
  fail_unless (strstr (rr.error, "gst-ctf-error-quark, code 16") != NULL,
      "error \"%s\" is not GST_CTF_ERROR_LIVE", rr.error);
  g_free (rr.error);
  g_free (text);
  g_free (dir);
}

GST_START_TEST (test_attach_errors)
{
  TestRelayOptions o = { 0 };

  o.attach_status = GST_CTF_LIVE_ATTACH_ALREADY;
  check_error (&o, "another viewer is attached");
  o.attach_status = GST_CTF_LIVE_ATTACH_NOT_LIVE;
  check_error (&o, "not a live session");
  /* the relay goes away after the first packet */
  o.attach_status = 0;
  o.close_after = 1;
  check_error (&o, "closed the connection");
}

GST_END_TEST;

GST_START_TEST (test_connection_refused)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-libc");
  TestRelay *relay;
  guint16 port;
  gchar *desc;
  RunResult rr;

  o.dir = dir;
  relay = test_relay_start (&o, NULL);
  port = test_relay_get_port (relay);
  test_relay_stop (relay);      /* nobody listens there now */
  desc = g_strdup_printf ("lttnglivesrc url=net://127.0.0.1:%u/host/h/s "
      "! fakesink", port);
  run_pipeline (desc, &rr);
  fail_unless (!rr.eos);
  fail_unless (strstr (rr.error, "Cannot connect to LTTng relay 127.0.0.1:")
      != NULL, "%s", rr.error);
  g_free (rr.error);
  g_free (desc);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_session_not_found)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-libc");
  TestRelay *relay;
  gchar *desc;
  RunResult rr;

  o.dir = dir;
  relay = test_relay_start (&o, NULL);
  desc = g_strdup_printf ("lttnglivesrc url=net://127.0.0.1:%u/host/testhost/"
      "nosuch session-not-found=error ! fakesink",
      test_relay_get_port (relay));
  run_pipeline (desc, &rr);
  fail_unless (!rr.eos);
  fail_unless (strstr (rr.error, "No session \"nosuch\" of host \"testhost\"")
      != NULL, "%s", rr.error);
  g_free (rr.error);
  g_free (desc);
  desc = g_strdup_printf ("lttnglivesrc url=net://127.0.0.1:%u/host/testhost/"
      "nosuch session-not-found=end ! fakesink", test_relay_get_port (relay));
  run_pipeline (desc, &rr);
  fail_unless (rr.eos, "%s", rr.error);
  g_free (desc);
  test_relay_stop (relay);
  g_free (dir);
}

GST_END_TEST;

/* Whether the pipeline DESC ran @ms without EOS or error. */
static gboolean
runs_on (const gchar * desc, guint ms)
{
  GstElement *p = gst_parse_launch (desc, NULL);
  GstBus *bus;
  GstMessage *m;

  fail_unless (p != NULL, "%s", desc);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, ms * GST_MSECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (gst_element_set_state (p, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (p);
  if (m)
    gst_message_unref (m);
  return m == NULL;
}

/* Text of `lttnglivesrc url=... ! ctftextsink EXTRA_SINK`, the source
 * with its default properties, on a relay serving @opts->dir; NULL
 * unless the pipeline ended with EOS. */
static gchar *
default_props_text (const TestRelayOptions * opts, const gchar * extra_sink,
    RunResult * rr)
{
  TestRelay *relay = test_relay_start (opts, NULL);
  gchar *out, *desc, *text = NULL;
  gint fd;

  fail_unless (relay != NULL);
  fd = g_file_open_tmp ("livesrc-XXXXXX.txt", &out, NULL);
  close (fd);
  desc = g_strdup_printf ("lttnglivesrc url=net://127.0.0.1:%u/host/testhost/"
      "testsession ! ctftextsink location=%s %s",
      test_relay_get_port (relay), out, extra_sink ? extra_sink : "");
  run_pipeline (desc, rr);
  if (rr->eos)
    fail_unless (g_file_get_contents (out, &text, NULL, NULL));
  g_unlink (out);
  g_free (out);
  g_free (desc);
  test_relay_stop (relay);
  return text;
}

/* With the default properties (session-not-found=wait), a session
 * destroyed while lttnglivesrc reads it ends the stream: EOS, and the
 * sink's text is babeltrace2's whole text (the last packets' events
 * included).  It used to wait for a new session of that name forever,
 * holding them back. */
GST_START_TEST (test_destroyed_session_ends)
{
  const gchar *traces[][2] = {
    {"ust-sample", "ust-sample.babeltrace2-2.1.txt"},
    {"ust-libc", "ust-libc.babeltrace2.txt"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (traces); i++) {
    gchar *dir = example (traces[i][0]);
    gchar *oracle_path = example (traces[i][1]);
    gchar *oracle = read_file (oracle_path);
    TestRelayOptions o = { 0 };
    RunResult rr;
    gchar *text;

    o.dir = dir;
    o.beacons = TRUE;
    text = default_props_text (&o, NULL, &rr);
    fail_unless (rr.eos, "%s: %s", traces[i][0], rr.error);
    check_equal_text (traces[i][0], text, oracle);
    g_free (text);
    g_free (oracle);
    g_free (oracle_path);
    g_free (dir);
  }
}

GST_END_TEST;

/* The same over the corpus LTTng-UST units (several streams; with
 * babeltrace-version=2.0 the sink prints nothing before EOS). */
GST_START_TEST (test_destroyed_session_ends_corpus)
{
  const gchar *units[] = { "custom-2cpu", "pthread-multichan" };
  guint i;

  NEED_CORPUS ();
  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    gchar *rel = g_strdup_printf ("ctf/lttng-ust/%s", units[i]);
    gchar *orel = g_strdup_printf ("ctf/lttng-ust/oracle/%s.txt", units[i]);
    gchar *dir = test_corpus_path (rel);
    gchar *opath = test_corpus_path (orel);
    gchar *oracle = read_file (opath);
    TestRelayOptions o = { 0 };
    RunResult rr;
    gchar *text;

    o.dir = dir;
    o.beacons = TRUE;
    text = default_props_text (&o, "babeltrace-version=2.0", &rr);
    fail_unless (rr.eos, "%s: %s", units[i], rr.error);
    check_equal_text (units[i], text, oracle);
    g_free (text);
    g_free (oracle);
    g_free (opath);
    g_free (dir);
    g_free (orel);
    g_free (rel);
  }
}

GST_END_TEST;

/* session-not-found=wait still waits for a session the relay does not
 * list: here the one a first viewer read until it was destroyed. */
GST_START_TEST (test_wait_for_listed_session)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-libc");
  TestRelay *relay;
  gchar *desc;
  RunResult rr;

  o.dir = dir;
  relay = test_relay_start (&o, NULL);
  fail_unless (relay != NULL);
  desc = g_strdup_printf ("lttnglivesrc url=net://127.0.0.1:%u/host/testhost/"
      "testsession poll-interval=20 ! fakesink", test_relay_get_port (relay));
  run_pipeline (desc, &rr);
  fail_unless (rr.eos, "%s", rr.error);
  fail_unless (test_relay_session_destroyed (relay));
  /* the relay lists no session now: the second viewer waits */
  fail_unless (runs_on (desc, 500), "the source did not wait for the "
      "session to appear");
  g_free (desc);
  test_relay_stop (relay);
  g_free (dir);
}

GST_END_TEST;

/* LATENCY, seeks, and going down while waiting for a session. */
GST_START_TEST (test_latency_seek_state)
{
  TestRelayOptions o = { 0 };
  gchar *dir = example ("ust-libc");
  TestRelay *relay;
  GstElement *p, *src;
  gchar *desc;
  GstQuery *q;
  gboolean live;
  GstClockTime min, max;
  GstStateChangeReturn ret;

  o.dir = dir;
  o.live_timer = 250000;
  relay = test_relay_start (&o, NULL);
  /* a session that is not there: the source waits */
  desc = g_strdup_printf ("lttnglivesrc name=src url=net://127.0.0.1:%u/"
      "host/testhost/later poll-interval=20 ! fakesink",
      test_relay_get_port (relay));
  p = gst_parse_launch (desc, NULL);
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  ret = gst_element_set_state (p, GST_STATE_PLAYING);
  fail_unless (ret == GST_STATE_CHANGE_NO_PREROLL ||
      ret == GST_STATE_CHANGE_ASYNC || ret == GST_STATE_CHANGE_SUCCESS);
  g_usleep (100 * 1000);
  fail_if (gst_element_seek_simple (p, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH,
          0), "a flushing seek was accepted");
  q = gst_query_new_latency ();
  fail_unless (gst_element_query (src, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  /* not attached yet: only the poll interval */
  fail_unless_equals_uint64 (min, 20 * GST_MSECOND);
  gst_query_unref (q);
  gst_element_set_state (p, GST_STATE_PAUSED);
  gst_element_set_state (p, GST_STATE_PLAYING);
  fail_unless (gst_element_set_state (p, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (src);
  gst_object_unref (p);
  g_free (desc);

  /* attached: the session's live timer counts */
  desc = g_strdup_printf ("lttnglivesrc name=src url=net://127.0.0.1:%u/"
      "host/testhost/testsession poll-interval=20 ! fakesink",
      test_relay_get_port (relay));
  p = gst_parse_launch (desc, NULL);
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  gst_element_set_state (p, GST_STATE_PLAYING);
  {
    GstBus *bus = gst_element_get_bus (p);
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
        GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR);

    fail_unless (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ASYNC_DONE);
    gst_message_unref (m);
    gst_object_unref (bus);
  }
  q = gst_query_new_latency ();
  fail_unless (gst_element_query (src, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless_equals_uint64 (min, 250 * GST_MSECOND + 20 * GST_MSECOND);
  gst_query_unref (q);
  fail_unless (gst_element_set_state (p, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (src);
  gst_object_unref (p);
  g_free (desc);
  test_relay_stop (relay);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_url)
{
  gchar *h, *t, *s;
  guint16 port;
  GError *err = NULL;

  fail_unless (gst_ctf_live_parse_url ("net://relay/host/box/sess", &h, &port,
          &t, &s, NULL));
  fail_unless_equals_string (h, "relay");
  fail_unless_equals_int (port, 5344);
  fail_unless_equals_string (t, "box");
  fail_unless_equals_string (s, "sess");
  g_free (h);
  g_free (t);
  g_free (s);
  fail_unless (gst_ctf_live_parse_url ("net4://10.0.0.1:6000", &h, &port,
          &t, &s, NULL));
  fail_unless_equals_string (h, "10.0.0.1");
  fail_unless_equals_int (port, 6000);
  fail_unless (t == NULL && s == NULL);
  g_free (h);
  fail_if (gst_ctf_live_parse_url ("net://relay:0/host/a/b", &h, &port, &t,
          &s, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_LIVE));
  g_clear_error (&err);
  fail_if (gst_ctf_live_parse_url ("net://relay/host/a", &h, &port, &t, &s,
          NULL));
  fail_if (gst_ctf_live_parse_url ("file:///x", &h, &port, &t, &s, NULL));
}

GST_END_TEST;

/* Packetized metadata in pieces: text only for the complete packets. */
GST_START_TEST (test_metadata_pieces)
{
  gchar *path = example ("ust-libc/ust/uid/0/64-bit/metadata");
  gchar *data, *whole, *text;
  gsize len, cut;
  GstCtfLiveMetadata *m = gst_ctf_live_metadata_new ();
  GError *err = NULL;
  guint32 psize;

  fail_unless (g_file_get_contents (path, &data, &len, NULL));
  whole = gst_ctf_metadata_from_bytes ((guint8 *) data, len, NULL, NULL);
  fail_unless (whole != NULL);
  memcpy (&psize, data + 28, 4);
  psize = GUINT32_FROM_LE (psize) / 8;
  fail_unless (psize < len, "fixture metadata has one packet only");
  /* half a header: nothing yet */
  gst_ctf_live_metadata_append (m, (guint8 *) data, 20);
  fail_unless (gst_ctf_live_metadata_get_text (m, NULL, &err) == NULL);
  fail_unless (err == NULL);
  /* one packet and a bit: the first packet's text */
  cut = psize + 50;
  gst_ctf_live_metadata_append (m, (guint8 *) data + 20, cut - 20);
  text = gst_ctf_live_metadata_get_text (m, NULL, &err);
  fail_unless (text != NULL, "%s", err ? err->message : "");
  fail_unless (g_str_has_prefix (whole, text));
  fail_unless (strlen (text) < strlen (whole));
  g_free (text);
  gst_ctf_live_metadata_append (m, (guint8 *) data + cut, len - cut);
  text = gst_ctf_live_metadata_get_text (m, NULL, &err);
  fail_unless_equals_string (text, whole);
  g_free (text);
  gst_ctf_live_metadata_free (m);
  g_free (whole);
  g_free (data);
  g_free (path);
}

GST_END_TEST;

static Suite *
lttnglivesrc_suite (void)
{
  Suite *s = suite_create ("lttnglivesrc");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_url);
  tcase_add_test (tc, test_metadata_pieces);
  tcase_add_test (tc, test_fixture_plain);
  tcase_add_test (tc, test_fixture_minor4_and_15);
  tcase_add_test (tc, test_clock_options);
  tcase_add_test (tc, test_fixture_sample);
  tcase_add_test (tc, test_fixture_scripted);
  tcase_add_test (tc, test_babeltrace2_reads_relay);
  tcase_add_test (tc, test_corpus_units);
  tcase_add_test (tc, test_order_and_gaps);
  tcase_add_test (tc, test_text_written_while_live);
  tcase_add_test (tc, test_gap_to_packet_end);
  tcase_add_test (tc, test_late_stream_warns);
  tcase_add_test (tc, test_list_and_example);
  tcase_add_test (tc, test_several_traces);
  tcase_add_test (tc, test_ctf2);
  tcase_add_test (tc, test_attach_errors);
  tcase_add_test (tc, test_connection_refused);
  tcase_add_test (tc, test_session_not_found);
  tcase_add_test (tc, test_destroyed_session_ends);
  tcase_add_test (tc, test_destroyed_session_ends_corpus);
  tcase_add_test (tc, test_wait_for_listed_session);
  tcase_add_test (tc, test_latency_seek_state);
  return s;
}

GST_CHECK_MAIN (lttnglivesrc);
