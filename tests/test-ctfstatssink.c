/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfstatssink against the reference tools:
 *
 * - totals (events, packets, streams, discarded-events and
 *   discarded-packets notices) equal what babeltrace2's
 *   `sink.utils.counter` counts (Event, Packet beginning, Stream
 *   beginning, Discarded event/packet messages) on the bundled trace and
 *   corpus traces with lost events and lost packets;
 * - events by name equal the counts of the babeltrace2 oracle text;
 * - on trace.dat files, events per CPU equal the lines per CPU of the
 *   `trace-cmd report` oracle and discarded events per CPU its
 *   `CPU:N [X EVENTS DROPPED]` lines;
 * - the JSON is one valid object (python3's json module) with the same
 *   counts; the element message carries them.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "test-util.h"

/* Runs `SRC ! ctfstatssink format=FORMAT location=TMP`; returns the file
 * and the ctf-stats message structure. */
static gchar *
run_stats (const gchar * src, const gchar * format, GstStructure ** msg_s)
{
  gchar *path = g_build_filename (g_get_tmp_dir (),
      "test-ctfstatssink-XXXXXX", NULL);
  gint fd = g_mkstemp (path);
  gchar *desc, *text = NULL;
  GError *err = NULL;
  GstElement *p;
  GstBus *bus;
  gboolean eos = FALSE;

  fail_unless (fd >= 0);
  close (fd);
  desc = g_strdup_printf ("%s ! ctfstatssink format=%s location=\"%s\"", src,
      format, path);
  p = gst_parse_launch (desc, &err);
  fail_unless (p != NULL, "%s", desc);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  *msg_s = NULL;
  while (!eos) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);

    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (m, &err, NULL);
      fail ("%s: %s", desc, err->message);
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (m, "ctf-stats")) {
      *msg_s = gst_structure_copy (gst_message_get_structure (m));
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS) {
      eos = TRUE;
    }
    gst_message_unref (m);
  }
  fail_unless (*msg_s != NULL, "no ctf-stats message");
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  fail_unless (g_file_get_contents (path, &text, NULL, NULL));
  g_unlink (path);
  g_free (path);
  g_free (desc);
  return text;
}

static guint64
get_u64 (const GstStructure * s, const gchar * f)
{
  guint64 v = 0;

  fail_unless (gst_structure_get_uint64 (s, f, &v), "no %s", f);
  return v;
}

/* "N NAME" of babeltrace2's counter output. */
static guint64
counter_value (const gchar * out, const gchar * what)
{
  gchar **lines = g_strsplit (out, "\n", -1);
  guint64 v = G_MAXUINT64;
  guint i;

  for (i = 0; lines[i]; i++) {
    gchar *p = g_strstrip (lines[i]), *end;
    guint64 n = g_ascii_strtoull (p, &end, 10);

    if (end != p && g_str_has_prefix (g_strchug (end), what))
      v = n;
  }
  g_strfreev (lines);
  fail_unless (v != G_MAXUINT64, "no \"%s\" in %s", what, out);
  return v;
}

/* Counts of the "events by name" part of our text. */
static GHashTable *
text_names (const gchar * text)
{
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  const gchar *p = strstr (text, "events by name:\n");
  gchar **lines;
  guint i;

  fail_unless (p != NULL);
  lines = g_strsplit (p + strlen ("events by name:\n"), "\n", -1);
  for (i = 0; lines[i] && *lines[i]; i++) {
    gchar *end;
    guint64 n = g_ascii_strtoull (lines[i], &end, 10);

    g_hash_table_insert (h, g_strdup (g_strstrip (end)),
        GSIZE_TO_POINTER ((gsize) n));
  }
  g_strfreev (lines);
  return h;
}

/* Counts by event name in a babeltrace2 pretty text: the word before the
 * first ": {" (or ": " at the line's end for events without fields). */
static GHashTable *
oracle_names (const gchar * path)
{
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  gchar *text = NULL, **lines;
  guint i;

  fail_unless (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    const gchar *e = strstr (lines[i], ": {"), *b;
    gchar *name;

    if (*lines[i] == '\0')
      continue;
    if (e == NULL)
      e = lines[i] + strlen (lines[i]) - 1;     /* "NAME:" at the end */
    for (b = e; b > lines[i] && b[-1] != ' '; b--);
    name = g_strndup (b, e - b);
    g_hash_table_insert (h, name, GSIZE_TO_POINTER (GPOINTER_TO_SIZE
            (g_hash_table_lookup (h, name)) + 1));
  }
  g_strfreev (lines);
  g_free (text);
  return h;
}

static void
compare_names (GHashTable * ours, GHashTable * theirs)
{
  GHashTableIter it;
  gpointer k, v;

  fail_unless_equals_int (g_hash_table_size (ours),
      g_hash_table_size (theirs));
  g_hash_table_iter_init (&it, theirs);
  while (g_hash_table_iter_next (&it, &k, &v))
    fail_unless_equals_uint64 (GPOINTER_TO_SIZE (g_hash_table_lookup (ours,
                k)), GPOINTER_TO_SIZE (v));
}

static void
check_json (const gchar * json, const GstStructure * s)
{
  gchar *path = g_build_filename (g_get_tmp_dir (),
      "test-ctfstatssink-XXXXXX.json", NULL);
  gint fd = g_mkstemp (path);
  gchar *script = g_strdup_printf ("import json,sys; d=json.load(open('%s')); "
      "print(d['events'], d['packets'], len(d['streams']), "
      "sum(d['event_names'].values()), sum(s['events'] for s in "
      "d['streams']))", path);
  gchar *argv[] = { (gchar *) "python3", (gchar *) "-c", script, NULL };
  gchar *out = NULL, *expected;
  gint status = 0;
  guint64 ev = get_u64 (s, "events");

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, json, -1, NULL));
  if (!test_have_program ("python3")) {
    g_print ("SKIP JSON check: python3 not installed\n");
  } else {
    fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
            NULL, &out, NULL, &status, NULL));
    fail_unless (status == 0, "not valid JSON: %s", json);
    expected = g_strdup_printf ("%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
        " %u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", ev,
        get_u64 (s, "packets"), g_value_get_uint (gst_structure_get_value (s,
                "streams")), ev, ev);
    fail_unless_equals_string (out, expected);
    g_free (expected);
  }
  g_unlink (path);
  g_free (path);
  g_free (script);
  g_free (out);
}

/* Totals against babeltrace2's counter; names against @oracle. */
static void
check_trace (const gchar * trace, const gchar * oracle)
{
  gchar *src = g_strdup_printf ("ctfsrc location=\"%s\"", trace);
  GstStructure *s, *s2;
  gchar *text = run_stats (src, "text", &s);
  gchar *json = run_stats (src, "json", &s2);
  const gchar *msg_json = gst_structure_get_string (s, "json");

  fail_unless (gst_structure_is_equal (s, s2));
  fail_unless_equals_string (json, msg_json);
  check_json (json, s);
  if (oracle) {
    GHashTable *a = text_names (text), *b = oracle_names (oracle);

    compare_names (a, b);
    g_hash_table_unref (a);
    g_hash_table_unref (b);
  }
  if (test_have_program ("babeltrace2")) {
    gchar *argv[] = { (gchar *) "babeltrace2", (gchar *) "-c",
      (gchar *) "sink.utils.counter", (gchar *) trace, NULL
    };
    gchar *out = NULL, *want;
    gint status = 0;

    fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
            G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status,
            NULL));
    fail_unless (status == 0, "babeltrace2 counter failed on %s", trace);
    fail_unless_equals_uint64 (get_u64 (s, "events"),
        counter_value (out, "Event message"));
    fail_unless_equals_uint64 (get_u64 (s, "packets"),
        counter_value (out, "Packet beginning message"));
    fail_unless_equals_uint64 (g_value_get_uint (gst_structure_get_value (s,
                "streams")), counter_value (out, "Stream beginning message"));
    want = g_strdup_printf ("\"discarded_event_notices\": %" G_GUINT64_FORMAT
        ", \"discarded_packets\"", counter_value (out,
            "Discarded event message"));
    fail_unless (strstr (json, want) != NULL, "%s: %s", want, json);
    g_free (want);
    want = g_strdup_printf ("\"discarded_packet_notices\": %"
        G_GUINT64_FORMAT ", ", counter_value (out, "Discarded packet message"));
    fail_unless (strstr (json, want) != NULL, "%s: %s", want, json);
    g_free (want);
    g_free (out);
  } else {
    g_print ("SKIP counter check: babeltrace2 not installed\n");
  }
  gst_structure_free (s);
  gst_structure_free (s2);
  g_free (text);
  g_free (json);
  g_free (src);
}

GST_START_TEST (test_ust_libc)
{
  gchar *trace = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-libc",
      NULL);
  gchar *oracle = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"),
      "ust-libc.babeltrace2.txt", NULL);
  gchar *src = g_strdup_printf ("ctfsrc location=\"%s\"", trace);
  GstStructure *s;
  gchar *text = run_stats (src, "text", &s);
  gint64 t0 = 0, t1 = 0;

  /* Known figures of the bundled trace (833 events, 2 streams). */
  fail_unless_equals_uint64 (get_u64 (s, "events"), 833);
  fail_unless (gst_structure_get_int64 (s, "first-ns", &t0));
  fail_unless (gst_structure_get_int64 (s, "last-ns", &t1));
  /* [00:55:28.608334069] and [00:55:28.617421515] in the oracle */
  fail_unless_equals_int64 (t0 % 86400000000000, 3328608334069);
  fail_unless_equals_int64 (t1 - t0, 9087446);
  fail_unless (strstr (text, "channel0_0 (stream class 0, CPU 0): 833 events")
      != NULL, "%s", text);
  check_trace (trace, oracle);
  gst_structure_free (s);
  g_free (text);
  g_free (src);
  g_free (trace);
  g_free (oracle);
}

GST_END_TEST;

GST_START_TEST (test_corpus_ctf)
{
  static const gchar *const units[][2] = {
    {"ctf/lttng-ust/pthread-multichan",
        "ctf/lttng-ust/oracle/pthread-multichan.txt"},
    {"ctf/babeltrace/packet-seq-num/2-streams-lost-in-1",
        "ctf/babeltrace/oracle/packet-seq-num/2-streams-lost-in-1.txt"},
    {"ctf/babeltrace/packet-seq-num/7-lost-between-2-with-index", NULL},
    {"ctf/babeltrace/succeed/ev-disc-no-ts-begin-end",
        "ctf/babeltrace/oracle/succeed/ev-disc-no-ts-begin-end.txt"},
    {"ctf/babeltrace/succeed/multi-domains",
        "ctf/babeltrace/oracle/succeed/multi-domains.txt"},
  };
  guint i;

  NEED_CORPUS ();
  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    gchar *t = test_corpus_path (units[i][0]);
    gchar *o = units[i][1] ? test_corpus_path (units[i][1]) : NULL;

    check_trace (t, o);
    g_free (t);
    g_free (o);
  }
}

GST_END_TEST;

/* trace.dat: per CPU events and discarded events against the oracle of
 * `trace-cmd report`. */
static void
check_tracedat (const gchar * file, const gchar * oracle)
{
  gchar *src = g_strdup_printf ("tracecmdsrc location=\"%s\"", file);
  GstStructure *s;
  gchar *text = run_stats (src, "text", &s);
  gchar *otext = NULL, **lines;
  guint64 per_cpu[8] = { 0, }, dropped[8] = { 0, };
  guint i;

  fail_unless (g_file_get_contents (oracle, &otext, NULL, NULL), "%s",
      oracle);
  lines = g_strsplit (otext, "\n", -1);
  for (i = 0; lines[i]; i++) {
    TestReportLine r;
    guint cpu;
    guint64 n;

    if (sscanf (lines[i], "CPU:%u [%" G_GUINT64_FORMAT " EVENTS DROPPED]",
            &cpu, &n) == 2 && cpu < 8) {
      dropped[cpu] += n;
    } else if (test_report_line_parse (lines[i], &r)) {
      if (r.cpu < 8)
        per_cpu[r.cpu]++;
      g_free (r.comm);
    }
  }
  for (i = 0; i < 8; i++) {
    gchar *want, label[32];

    if (per_cpu[i] == 0 && dropped[i] == 0)
      continue;
    want = g_strdup_printf ("cpu%u (stream class 0, CPU %u): %"
        G_GUINT64_FORMAT " events, ", i, i, per_cpu[i]);
    fail_unless (strstr (text, want) != NULL, "%s: want \"%s\" in\n%s", file,
        want, text);
    g_free (want);
    want = g_strdup_printf ("discarded %" G_GUINT64_FORMAT " events",
        dropped[i]);
    g_snprintf (label, sizeof (label), "cpu%u (", i);
    fail_unless (strstr (strstr (text, label), want) != NULL,
        "%s: want \"%s\" for CPU %u in\n%s", file, want, i, text);
    g_free (want);
  }
  g_strfreev (lines);
  g_free (otext);
  g_free (text);
  g_free (src);
  gst_structure_free (s);
}

GST_START_TEST (test_tracedat)
{
  static const gchar *const files[] = {
    "sched-irq-timer-wq.v7-zstd.dat", "syscalls-kmem.v7-none.dat",
    "sched-block-net.v6.dat", "mixed.v7-zlib.dat",
  };
  guint i;

  NEED_CORPUS ();
  for (i = 0; i < G_N_ELEMENTS (files); i++) {
    gchar *rel = g_strdup_printf ("tracedat/%s", files[i]);
    gchar *orel = g_strdup_printf ("tracedat/oracle/%s.txt", files[i]);
    gchar *f = test_corpus_path (rel), *o = test_corpus_path (orel);

    check_tracedat (f, o);
    g_free (rel);
    g_free (orel);
    g_free (f);
    g_free (o);
  }
}

GST_END_TEST;

/* A location that is not a regular file (a FIFO here; /dev/null in
 * practice) is written, not replaced by a regular file. */
static gpointer
read_fifo (gpointer path)
{
  gchar *text = NULL;

  g_file_get_contents (path, &text, NULL, NULL);
  return text;
}

GST_START_TEST (test_location_fifo)
{
  gchar *dir = g_dir_make_tmp ("test-ctfstatssink-XXXXXX", NULL);
  gchar *fifo = g_build_filename (dir, "fifo", NULL);
  gchar *trace = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-libc",
      NULL);
  gchar *desc, *text;
  GThread *reader;
  GstElement *p;
  GstMessage *m;
  GStatBuf st;

  fail_unless (dir != NULL);
  fail_unless (mkfifo (fifo, 0600) == 0);
  reader = g_thread_new ("fifo", read_fifo, fifo);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctfstatssink "
      "location=\"%s\"", trace, fifo);
  p = gst_parse_launch (desc, NULL);
  fail_unless (p != NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless_equals_int (GST_MESSAGE_TYPE (m), GST_MESSAGE_EOS);
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  text = g_thread_join (reader);
  fail_unless (text != NULL && g_str_has_prefix (text,
          "833 events, 2 packets, 2 streams"), "%s", text);
  fail_unless (g_stat (fifo, &st) == 0 && S_ISFIFO (st.st_mode),
      "the FIFO was replaced");
  g_unlink (fifo);
  g_rmdir (dir);
  g_free (text);
  g_free (desc);
  g_free (trace);
  g_free (fifo);
  g_free (dir);
}

GST_END_TEST;

static Suite *
ctfstatssink_suite (void)
{
  Suite *s = suite_create ("ctfstatssink");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_ust_libc);
  tcase_add_test (tc, test_location_fifo);
  tcase_add_test (tc, test_corpus_ctf);
  tcase_add_test (tc, test_tracedat);
  return s;
}

GST_CHECK_MAIN (ctfstatssink);
