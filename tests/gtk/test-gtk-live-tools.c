/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The filter, the search, the export and seek=last on live sessions
 * (`net://...`), against the tests' LTTng live relay (tests/live-relay.c)
 * and the elements on a relay serving the same traces:
 *
 * - a GstCtfGtkFilterModel made while the session runs grows with it,
 *   and its rows equal `lttnglivesrc ! ctffilter PROPS ! ctftextsink`
 *   (time, name and fields of every row); on a session that never ends
 *   it reaches them while loading, and is dropped while it waits;
 * - GstCtfGtkSearch next/previous from every row (and -1, the end) on a
 *   live model, ended and running, equals a scan of those rows;
 * - the viewer's export of a range (gst-ctf-viewer-export.c: appsrc of
 *   GstCtfGtkLivePackets ! timefilter ! ctfsink) equals what
 *   `lttnglivesrc ! timefilter ! ctfsink` writes of the same range (the
 *   same files, byte for byte, also for a session of two traces, the
 *   second joining late; babeltrace2's text of both, else ctftextsink's);
 * - gst_ctf_gtk_event_model_new_for_url (GST_CTF_GTK_LIVE_SEEK_LAST) reads
 *   what `lttnglivesrc seek=last ! ctftextsink` prints.
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
#include "gst-ctf-viewer-export.h"

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

static void
run_pipeline (const gchar * desc)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstBus *bus;
  GstMessage *m;

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
}

/* `lttnglivesrc url=URL @src_props ! @middle ! ctftextsink` on a new relay
 * serving @o: its lines. */
static GPtrArray *
live_text (const TestRelayOptions * o, const gchar * src_props,
    const gchar * middle)
{
  GError *err = NULL;
  TestRelay *relay = test_relay_start (o, &err);
  gchar *out, *url, *desc, *text = NULL;
  GPtrArray *lines;
  gint fd;

  g_assert_no_error (err);
  fd = g_file_open_tmp ("gtk-live-tools-XXXXXX.txt", &out, NULL);
  close (fd);
  url = url_of (relay, o);
  desc = g_strdup_printf ("lttnglivesrc url=%s session-not-found=end "
      "poll-interval=5 %s ! %s%sctftextsink location=%s", url, src_props,
      middle ? middle : "", middle ? " ! " : "", out);
  run_pipeline (desc);
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

/* Every item of @list against the oracle's lines. */
static void
check_list (const gchar * unit, GListModel * list, GPtrArray * lines)
{
  guint n = g_list_model_get_n_items (list), i;

  if (n != lines->len)
    g_error ("%s: %u rows, the oracle has %u", unit, n, lines->len);
  for (i = 0; i < n; i++) {
    GstCtfGtkEvent *ev = g_list_model_get_item (list, i);

    gtk_test_check_line (unit, i, ev, g_ptr_array_index (lines, i));
    g_object_unref (ev);
  }
}

static gboolean
too_long (gpointer data)
{
  g_error ("%s: not done within 120 s", (const gchar *) data);
  return G_SOURCE_REMOVE;
}

/* ---- filter ---- */

typedef struct {
  const gchar *rel;             /* examples/traces/REL or corpus REL */
  gboolean corpus;
  const gchar *entry;           /* the filter model's text */
  const gchar *props;           /* ctffilter's, as gst-launch takes them */
} FilterCase;

static const FilterCase filter_cases[] = {
  {"ust-libc", FALSE, "events=lttng_ust_libc:*,!lttng_ust_libc:free "
        "lttng_ust_libc/.*alloc: size > 40",
      "events=\"lttng_ust_libc:*,!lttng_ust_libc:free\" "
        "filter=\"lttng_ust_libc/.*alloc: size > 40\""},
  {"ust-sample", FALSE, "cpus=1", "cpus=1"},
  {"ust-sample", FALSE, "pids=5656 cpus=0 corpus_tp/ints: s8 > 0",
      "pids=5656 cpus=0 filter=\"corpus_tp/ints: s8 > 0\""},
  {"ctf/lttng-ust/pthread-multichan", TRUE, "cpus=0 .*: vtid & 1",
      "cpus=0 filter=\".*: vtid & 1\""},
};

typedef struct {
  TestRelay *relay;
  guint before_end;             /* most matches before the relay destroyed
                                 * the session */
  guint batches;
} FilterGrowth;

static void
on_filter_changed (GListModel * list, guint pos, guint removed, guint added,
    FilterGrowth * g)
{
  g->batches++;
  if (!test_relay_session_destroyed (g->relay))
    g->before_end = MAX (g->before_end, g_list_model_get_n_items (list));
}

/* Filter models made as the session starts grow with it and end with
 * ctffilter's rows. */
static void
test_filter (void)
{
  guint i, before_end = 0;

  for (i = 0; i < G_N_ELEMENTS (filter_cases); i++) {
    const FilterCase *c = &filter_cases[i];
    TestRelayOptions o = { 0 };
    gchar *dir, *url, *middle, *unit;
    GPtrArray *oracle;
    TestRelay *relay;
    GstCtfGtkEventModel *m;
    GstCtfGtkFilterModel *fm;
    GError *err = NULL;
    FilterGrowth g = { 0 };
    guint timeout;

    if (c->corpus && test_corpus () == NULL) {
      g_print ("SKIP %s %s: GST_CTF_CORPUS not set or missing\n", G_STRFUNC,
          c->rel);
      continue;
    }
    dir = c->corpus ? test_corpus_path (c->rel) : example (c->rel);
    o.dir = dir;
    o.beacons = TRUE;
    o.retry_runs = 2;
    o.minor = c->corpus ? 13 : 0;
    middle = g_strdup_printf ("ctffilter %s", c->props);
    oracle = live_text (&o, "", middle);
    g_assert_cmpuint (oracle->len, >, 0);

    relay = test_relay_start (&o, &err);
    g_assert_no_error (err);
    url = url_of (relay, &o);
    m = gst_ctf_gtk_event_model_new_for_path (url, &err);
    g_assert_no_error (err);
    fm = gst_ctf_gtk_filter_model_new (m, c->entry, &err);
    g_assert_no_error (err);
    g.relay = relay;
    g_signal_connect (fm, "items-changed", G_CALLBACK (on_filter_changed),
        &g);
    timeout = g_timeout_add_seconds (120, too_long, (gpointer) c->entry);
    while (gst_ctf_gtk_filter_model_get_loading (fm) ||
        gst_ctf_gtk_event_model_get_loading (m))
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (timeout);
    g_assert_true (gst_ctf_gtk_filter_model_wait (fm, &err));
    g_assert_no_error (err);
    g_assert_true (test_relay_session_destroyed (relay));
    unit = g_strdup_printf ("%s \"%s\"", c->rel, c->entry);
    check_list (unit, G_LIST_MODEL (fm), oracle);
    g_test_message ("%s: %u matches of %u rows, %u before the session "
        "ended, %u batches", unit, oracle->len, g_list_model_get_n_items
        (G_LIST_MODEL (m)), g.before_end, g.batches);
    before_end += g.before_end;
    g_free (unit);
    g_signal_handlers_disconnect_by_func (fm, on_filter_changed, &g);
    g_object_unref (fm);
    g_object_unref (m);
    test_relay_stop (relay);
    g_ptr_array_unref (oracle);
    g_free (middle);
    g_free (url);
    g_free (dir);
  }
  /* the matches came as the sessions ran, not at their end */
  g_assert_cmpuint (before_end, >, 0);
}

/* A session that never ends: the filter model reaches every match while
 * loading, and is dropped (its thread waiting for the relay) at once. */
static void
test_filter_running (void)
{
  const FilterCase *c = &filter_cases[0];
  TestRelayOptions o = { 0 };
  gchar *dir = example (c->rel), *url, *middle;
  GPtrArray *oracle;
  TestRelay *relay;
  GstCtfGtkEventModel *m;
  GstCtfGtkFilterModel *fm;
  GError *err = NULL;
  gint64 until, t0;

  o.dir = dir;
  o.beacons = TRUE;
  middle = g_strdup_printf ("ctffilter %s", c->props);
  oracle = live_text (&o, "", middle);
  o.never_end = TRUE;
  relay = test_relay_start (&o, &err);
  g_assert_no_error (err);
  url = url_of (relay, &o);
  m = gst_ctf_gtk_event_model_new_for_path (url, &err);
  g_assert_no_error (err);
  fm = gst_ctf_gtk_filter_model_new (m, c->entry, &err);
  g_assert_no_error (err);
  until = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (g_list_model_get_n_items (G_LIST_MODEL (fm)) < oracle->len &&
      g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gst_ctf_gtk_filter_model_get_loading (fm));
  g_assert_true (gst_ctf_gtk_event_model_get_loading (m));
  check_list ("running session", G_LIST_MODEL (fm), oracle);
  t0 = g_get_monotonic_time ();
  g_object_unref (fm);
  g_test_message ("filter model dropped while waiting in %" G_GINT64_FORMAT
      " us", g_get_monotonic_time () - t0);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 2 * G_USEC_PER_SEC);
  g_object_unref (m);
  test_relay_stop (relay);
  g_ptr_array_unref (oracle);
  g_free (middle);
  g_free (url);
  g_free (dir);
}

/* ---- search ---- */

/* Next and previous from every row, -1 and the end, against the rows of
 * a filter model of the same text (checked against ctffilter above). */
static void
check_search (const gchar * unit, GstCtfGtkEventModel * m, const gchar * text)
{
  GError *err = NULL;
  GstCtfGtkFilterModel *fm = gst_ctf_gtk_filter_model_new (m, text, &err);
  GstCtfGtkSearch *s;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (m)), nm, k = 0;
  gint64 from;

  g_assert_no_error (err);
  /* every match of the rows received (a running session's filter model
   * never ends loading): no new one for 1 s */
  for (;;) {
    guint before = g_list_model_get_n_items (G_LIST_MODEL (fm));
    gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;

    while (g_get_monotonic_time () < until)
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (10 * 1000);
    if (!gst_ctf_gtk_filter_model_get_loading (fm) ||
        g_list_model_get_n_items (G_LIST_MODEL (fm)) == before)
      break;
  }
  nm = g_list_model_get_n_items (G_LIST_MODEL (fm));
  g_assert_cmpuint (nm, >, 0);
  s = gst_ctf_gtk_search_new (m, text, &err);
  g_assert_no_error (err);
  for (from = -1; from <= (gint64) n; from++) {
    guint64 got = 0;
    gboolean found;
    gint64 want_next = -1, want_prev = -1;

    while (k < nm && (gint64) gst_ctf_gtk_filter_model_get_base_row (fm,
            k) <= from)
      k++;
    if (k < nm)
      want_next = (gint64) gst_ctf_gtk_filter_model_get_base_row (fm, k);
    {
      guint j = k;

      while (j > 0 && (gint64) gst_ctf_gtk_filter_model_get_base_row (fm,
              j - 1) >= from)
        j--;
      if (j > 0)
        want_prev = (gint64) gst_ctf_gtk_filter_model_get_base_row (fm,
            j - 1);
    }
    found = gst_ctf_gtk_search_find (s, from, TRUE, NULL, &got, &err);
    g_assert_no_error (err);
    if (found != (want_next >= 0) || (found && (gint64) got != want_next))
      g_error ("%s \"%s\": next after %" G_GINT64_FORMAT ": %s %"
          G_GUINT64_FORMAT ", the scan: %" G_GINT64_FORMAT, unit, text, from,
          found ? "found" : "none", got, want_next);
    if (from >= 0) {
      found = gst_ctf_gtk_search_find (s, from, FALSE, NULL, &got, &err);
      g_assert_no_error (err);
      if (found != (want_prev >= 0) || (found && (gint64) got != want_prev))
        g_error ("%s \"%s\": previous before %" G_GINT64_FORMAT ": %s %"
            G_GUINT64_FORMAT ", the scan: %" G_GINT64_FORMAT, unit, text,
            from, found ? "found" : "none", got, want_prev);
    }
  }
  g_test_message ("%s \"%s\": %u rows, %u matches, searched from each",
      unit, text, n, nm);
  g_object_unref (s);
  g_object_unref (fm);
}

static void
test_search (void)
{
  gchar *dir = example ("ust-libc"), *url;
  TestRelayOptions o = { 0 };
  GError *err = NULL;
  TestRelay *relay;
  GstCtfGtkEventModel *m;
  guint k;

  o.dir = dir;
  o.beacons = TRUE;
  for (k = 0; k < 2; k++) {
    gint64 until = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

    /* ended, then running (never destroyed) */
    o.never_end = k == 1;
    relay = test_relay_start (&o, &err);
    g_assert_no_error (err);
    url = url_of (relay, &o);
    m = gst_ctf_gtk_event_model_new_for_path (url, &err);
    g_assert_no_error (err);
    if (k == 0)
      g_assert_true (gst_ctf_gtk_event_model_wait (m, &err));
    while (k == 1 && g_list_model_get_n_items (G_LIST_MODEL (m)) < 833 &&
        g_get_monotonic_time () < until)
      g_main_context_iteration (NULL, TRUE);
    g_assert_no_error (err);
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (m)), ==, 833);
    g_assert_true (gst_ctf_gtk_event_model_get_loading (m) == (k == 1));
    check_search (k == 0 ? "ust-libc, ended" : "ust-libc, running", m,
        "lttng_ust_libc/.*alloc: size > 40");
    check_search (k == 0 ? "ust-libc, ended" : "ust-libc, running", m,
        "events=lttng_ust_libc:realloc");
    g_object_unref (m);
    test_relay_stop (relay);
    g_free (url);
  }
  g_free (dir);
}

/* ---- export ---- */

static void
on_export_done (GstCtfViewerExport * ex, const GError * error, gpointer data)
{
  gint *state = data;

  if (error != NULL)
    g_error ("live export: %s", error->message);
  *state = 1;
}

/* babeltrace2's text of a trace directory (ctftextsink's without it). */
static gchar *
trace_text (const gchar * dir)
{
  gchar *out = NULL, *errout = NULL;
  gint status = -1;
  GError *err = NULL;

  if (test_have_program ("babeltrace2")) {
    gchar *argv[] = { (gchar *) "babeltrace2", (gchar *) dir, NULL };

    g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH,
            NULL, NULL, &out, &errout, &status, &err));
    g_assert_no_error (err);
    if (!g_spawn_check_wait_status (status, NULL))
      g_error ("babeltrace2 %s: %s", dir, errout);
  } else {
    gchar *txt = g_build_filename (dir, "..", "text.txt", NULL);
    gchar *desc = g_strdup_printf ("ctfsrc location=%s ! ctftextsink "
        "location=%s", dir, txt);

    g_print ("(no babeltrace2 in PATH: ctftextsink's text)\n");
    run_pipeline (desc);
    g_assert_true (g_file_get_contents (txt, &out, NULL, NULL));
    g_unlink (txt);
    g_free (txt);
    g_free (desc);
  }
  g_free (errout);
  return out;
}

/* Whether the files of the directories @a and @b have the same names and
 * bytes; @n_files set to their number. */
static gboolean
same_files (const gchar * a, const gchar * b, guint * n_files)
{
  GDir *d = g_dir_open (a, 0, NULL);
  const gchar *name;
  gboolean same = d != NULL;
  guint nb = 0;

  *n_files = 0;
  while (same && (name = g_dir_read_name (d)) != NULL) {
    gchar *pa = g_build_filename (a, name, NULL);
    gchar *pb = g_build_filename (b, name, NULL);
    gchar *ca = NULL, *cb = NULL;
    gsize la = 0, lb = 0;

    same = g_file_get_contents (pa, &ca, &la, NULL) &&
        g_file_get_contents (pb, &cb, &lb, NULL) && la == lb &&
        memcmp (ca, cb, la) == 0;
    (*n_files)++;
    g_free (ca);
    g_free (cb);
    g_free (pa);
    g_free (pb);
  }
  if (d != NULL)
    g_dir_close (d);
  d = g_dir_open (b, 0, NULL);
  while (d != NULL && g_dir_read_name (d) != NULL)
    nb++;
  if (d != NULL)
    g_dir_close (d);
  return same && nb == *n_files;
}

/* A directory holding copies of ust-libc and ust-sample. */
static gchar *
two_traces (void)
{
  gchar *tmp = g_dir_make_tmp ("gtk-live-two-XXXXXX", NULL);
  const gchar *names[] = { "ust-libc", "ust-sample" };
  guint k;

  for (k = 0; k < 2; k++) {
    gchar *from = example (names[k]);
    gchar *to = g_build_filename (tmp, k == 0 ? "a" : "b", NULL);
    gchar *argv[] = { (gchar *) "cp", (gchar *) "-r", from, to, NULL };
    gint status;

    g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH,
            NULL, NULL, NULL, NULL, &status, NULL) && status == 0);
    g_free (from);
    g_free (to);
  }
  return tmp;
}

/* The viewer's export of a range of an ended session and of a running
 * one (what was received) against lttnglivesrc ! timefilter ! ctfsink. */
static void
test_export (void)
{
  /* the last: both traces, the second joining late (a new trace class,
   * new caps in the middle of the export) */
  const gchar *units[] = { "ust-libc", "ust-sample", "two traces" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    gchar *dir = i < 2 ? example (units[i]) : two_traces (), *url, *desc;
    gchar *a, *b;
    gchar *tmp = g_dir_make_tmp ("gtk-live-export-XXXXXX", NULL);
    gchar *out_viewer = g_build_filename (tmp, "viewer", NULL);
    gchar *out_pipe = g_build_filename (tmp, "pipeline", NULL);
    TestRelayOptions o = { 0 };
    GError *err = NULL;
    TestRelay *relay;
    GstCtfGtkEventModel *m;
    GstCtfGtkEvent *ev;
    GstCtfViewerExport *ex;
    guint64 s, e;
    guint n, timeout, n_files;
    gint state = 0;
    GPtrArray *la;

    o.dir = dir;
    o.beacons = TRUE;
    o.late_streams = i == 2;
    relay = test_relay_start (&o, &err);
    g_assert_no_error (err);
    url = url_of (relay, &o);
    m = gst_ctf_gtk_event_model_new_for_path (url, &err);
    g_assert_no_error (err);
    g_assert_true (gst_ctf_gtk_event_model_wait (m, &err));
    g_assert_no_error (err);
    n = g_list_model_get_n_items (G_LIST_MODEL (m));
    ev = g_list_model_get_item (G_LIST_MODEL (m), n / 4);
    s = gst_ctf_gtk_event_get_timestamp_ns (ev);
    g_object_unref (ev);
    ev = g_list_model_get_item (G_LIST_MODEL (m), 3 * n / 4);
    e = gst_ctf_gtk_event_get_timestamp_ns (ev);
    g_object_unref (ev);

    ex = gst_ctf_viewer_export_start (url, m, s, e, out_viewer,
        on_export_done, &state, &err);
    g_assert_no_error (err);
    g_assert_nonnull (ex);
    timeout = g_timeout_add_seconds (120, too_long, (gpointer) "export");
    while (state == 0)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (timeout);
    g_assert_cmpfloat (gst_ctf_viewer_export_get_fraction (ex), ==, 1.0);
    gst_ctf_viewer_export_free (ex);
    test_relay_stop (relay);

    /* the elements on a new relay serving the same trace */
    relay = test_relay_start (&o, &err);
    g_assert_no_error (err);
    g_free (url);
    url = url_of (relay, &o);
    desc = g_strdup_printf ("lttnglivesrc url=%s session-not-found=end "
        "poll-interval=5 ! timefilter start-time=%" G_GUINT64_FORMAT
        " end-time=%" G_GUINT64_FORMAT " ! ctfsink location=%s", url, s, e,
        out_pipe);
    run_pipeline (desc);
    test_relay_stop (relay);

    /* the same files, byte for byte */
    if (!same_files (out_viewer, out_pipe, &n_files))
      g_error ("%s: the live export's files differ from lttnglivesrc ! "
          "timefilter ! ctfsink's (%s, %s)", units[i], out_viewer, out_pipe);
    g_assert_cmpuint (n_files, >, 1);
    if (i == 2) {
      /* (babeltrace2 cannot read either: the element's output of two
       * traces puts their streams of the same name in one file) */
      g_test_message ("%s: export of rows %u..%u of %u: %u files, as the "
          "pipeline's", units[i], n / 4, 3 * n / 4, n, n_files);
      g_object_unref (m);
      test_rm_rf (tmp);
      test_rm_rf (dir);
      g_free (desc);
      g_free (out_viewer);
      g_free (out_pipe);
      g_free (tmp);
      g_free (url);
      g_free (dir);
      continue;
    }
    a = trace_text (out_viewer);
    b = trace_text (out_pipe);
    la = gtk_test_split_lines (a);
    g_test_message ("%s: export of rows %u..%u of %u (%" G_GUINT64_FORMAT
        "..%" G_GUINT64_FORMAT " ns): %u events", units[i], n / 4,
        3 * n / 4, n, s, e, la->len);
    g_assert_cmpuint (la->len, >, 0);
    g_assert_cmpuint (la->len, <, n);
    if (strcmp (a, b) != 0)
      g_error ("%s: the live export differs from lttnglivesrc ! timefilter "
          "! ctfsink's (%s, %s)", units[i], out_viewer, out_pipe);
    g_ptr_array_unref (la);
    g_free (a);
    g_free (b);
    g_object_unref (m);
    test_rm_rf (tmp);
    g_free (desc);
    g_free (out_viewer);
    g_free (out_pipe);
    g_free (tmp);
    g_free (url);
    g_free (dir);
  }
}

/* A trace on disk has no live packets; a URL without its model cannot be
 * exported. */
static void
test_export_errors (void)
{
  gchar *dir = example ("ust-sample");
  GstCtfGtkEventModel *m = gtk_test_open_loaded (dir);
  GError *err = NULL;

  g_assert_null (gst_ctf_gtk_live_packets_new (m, &err));
  g_assert_error (err, GST_CTF_ERROR, GST_CTF_ERROR_LIVE);
  g_clear_error (&err);
  g_assert_null (gst_ctf_viewer_export_start ("net://127.0.0.1:1/host/h/s",
          NULL, 0, 1, "/nonexistent-gtk-live-tools", NULL, NULL, &err));
  g_assert_error (err, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&err);
  g_object_unref (m);
  g_free (dir);
}

/* ---- seek=last ---- */

static void
test_seek_last (void)
{
  gchar *dir = example ("ust-sample"), *url, *opath;
  TestRelayOptions o = { 0 };
  GError *err = NULL;
  GPtrArray *oracle, *all;
  TestRelay *relay;
  GstCtfGtkEventModel *m;

  o.dir = dir;
  o.beacons = TRUE;
  oracle = live_text (&o, "seek=last", NULL);
  opath = example ("ust-sample.babeltrace2-2.1.txt");
  all = gtk_test_read_lines (opath);
  relay = test_relay_start (&o, &err);
  g_assert_no_error (err);
  url = url_of (relay, &o);
  m = gst_ctf_gtk_event_model_new_for_url (url, GST_CTF_GTK_LIVE_SEEK_LAST,
      &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_event_model_wait (m, &err));
  g_assert_no_error (err);
  check_list ("ust-sample, seek=last", G_LIST_MODEL (m), oracle);
  g_test_message ("seek=last: %u rows of %u", oracle->len, all->len);
  /* the newest packets only, and their events are the trace's last */
  g_assert_cmpuint (oracle->len, >, 0);
  g_assert_cmpuint (oracle->len, <, all->len);
  g_assert_cmpint (strncmp (g_ptr_array_index (oracle, oracle->len - 1),
          g_ptr_array_index (all, all->len - 1), 20), ==, 0);
  g_object_unref (m);
  test_relay_stop (relay);
  /* a path on disk: as new_for_path */
  m = gst_ctf_gtk_event_model_new_for_url (dir, GST_CTF_GTK_LIVE_SEEK_LAST,
      &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_event_model_wait (m, &err));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (m)), ==,
      all->len);
  g_object_unref (m);
  g_ptr_array_unref (all);
  g_ptr_array_unref (oracle);
  g_free (opath);
  g_free (url);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gtk-live-tools/filter", test_filter);
  g_test_add_func ("/gtk-live-tools/filter-running", test_filter_running);
  g_test_add_func ("/gtk-live-tools/search", test_search);
  g_test_add_func ("/gtk-live-tools/export", test_export);
  g_test_add_func ("/gtk-live-tools/export-errors", test_export_errors);
  g_test_add_func ("/gtk-live-tools/seek-last", test_seek_last);
  return g_test_run ();
}
