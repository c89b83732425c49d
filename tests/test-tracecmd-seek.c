/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Time range and TIME seeks of the trace.dat packetizer
 * (gsttracecmd-packetizer-seek.c), on compressed and uncompressed real
 * files: after a seek to T, each CPU's packets are those of a full
 * conversion from one page on, every page with an event at or after T is
 * there, and the pages before the one holding T are not read.
 */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "gsttracecmd.h"
#include "gsttracecmd-packetizer.h"
#include "gstctf-error.h"
#include "test-util.h"

typedef struct
{
  guint cpu;                    /* the stream index */
  guint64 page;
  gint64 begin_ns, end_ns;
  guint n_events;
} Pkt;

/* Packets of CPU streams from the current position to the end; side
 * stream packets counted in @n_side. */
static GArray *
drain (GstCtfTraceDatPacketizer * p, guint * n_side, gint64 * side_ns)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (Pkt));
  GstCtfTraceDatPacketInfo info;
  const guint8 *data;
  gsize size;
  GError *err = NULL;
  gint r;

  *n_side = 0;
  while ((r = gst_ctf_trace_dat_packetizer_next (p, &data, &size, &info,
              &err)) > 0) {
    Pkt k;

    if (info.is_file_stream) {
      guint j;

      /* the side stream comes in timestamp_begin order: at the trace's
       * first time, or after a seek at the seek's time, after the pages
       * that begin before it */
      for (j = 0; j < a->len; j++)
        fail_unless (g_array_index (a, Pkt, j).begin_ns < info.begin_ns);
      if (*n_side == 0)
        *side_ns = info.begin_ns;
      (*n_side)++;
      continue;
    }

    k.cpu = info.stream_index;  /* (instances: one stream per buffer and CPU) */
    k.page = info.page_index;
    k.begin_ns = info.begin_ns;
    k.end_ns = info.end_ns;
    k.n_events = info.n_events;
    g_array_append_val (a, k);
  }
  fail_unless (r == 0, "%s", err ? err->message : "");
  return a;
}

static void
check_file (const gchar * path, gboolean many_pages)
{
  GstCtfTraceDat *td;
  GstCtfTraceDatPacketizer *p;
  GError *err = NULL;
  GArray *full;
  gint64 begin, end, first_begin = G_MAXINT64, last_end = G_MININT64;
  guint n_side_full, i, k;
  gint64 side_ns = 0;

  td = gst_ctf_trace_dat_open (path, &err);
  fail_unless (td != NULL, "%s", err ? err->message : "");
  p = gst_ctf_trace_dat_packetizer_new (td, 0, 0, &err);
  fail_unless (p != NULL, "%s", err ? err->message : "");
  full = drain (p, &n_side_full, &side_ns);
  fail_unless (full->len >= 4, "%s: %u packets", path, full->len);
  for (i = 0; i < full->len; i++) {
    Pkt *a = &g_array_index (full, Pkt, i);

    first_begin = MIN (first_begin, a->begin_ns);
    if (a->n_events > 0)
      last_end = MAX (last_end, a->end_ns);
  }

  /* the range: the first packet's begin, the last event */
  fail_unless (gst_ctf_trace_dat_packetizer_get_time_range (p, &begin, &end,
          &err), "%s", err ? err->message : "");
  fail_unless_equals_int64 (begin, first_begin);
  fail_unless_equals_int64 (end, last_end);

  for (k = 0; k <= 8; k++) {
    /* before the start, eighths of the range, after the end */
    gint64 t = k == 0 ? begin - 1000 : k == 8 ? end + 1000 :
        begin + (end - begin) / 7 * (k - 1);
    GArray *part;
    guint n_side, j;

    fail_unless (gst_ctf_trace_dat_packetizer_seek (p, t, &err), "%s",
        err ? err->message : "");
    part = drain (p, &n_side, &side_ns);
    /* the side stream at the seek's time (the trace's start before it) */
    if (n_side > 0)
      fail_unless_equals_int64 (side_ns, MAX (t, begin));
    fail_unless_equals_int (n_side, n_side_full);
    /* per CPU: a suffix of the full run's pages, holding every page that
     * has an event at or after t */
    for (i = 0; i < full->len; i++) {
      Pkt *a = &g_array_index (full, Pkt, i);
      gboolean needed = a->n_events > 0 && a->end_ns >= t;
      gboolean found = FALSE;

      for (j = 0; j < part->len && !found; j++) {
        Pkt *b = &g_array_index (part, Pkt, j);

        if (b->cpu == a->cpu && b->page == a->page) {
          fail_unless_equals_int (b->n_events, a->n_events);
          fail_unless_equals_int64 (b->end_ns, a->end_ns);
          found = TRUE;
        }
      }
      fail_unless (found || !needed, "%s: seek to %" G_GINT64_FORMAT
          ": cpu %u page %" G_GUINT64_FORMAT " (end %" G_GINT64_FORMAT
          ") missing", path, t, a->cpu, a->page, a->end_ns);
    }
    if (k == 0)
      fail_unless_equals_int (part->len, full->len);
    if (k >= 4 && many_pages)
      fail_unless (part->len < full->len, "%s: seek to the middle read %u "
          "of %u packets", path, part->len, full->len);
    g_array_unref (part);
  }
  g_array_unref (full);
  gst_ctf_trace_dat_packetizer_free (p);
  gst_ctf_trace_dat_unref (td);
}

GST_START_TEST (test_seek_bundled)
{
  gchar *path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"),
      "tracecmdsrc", "instance.v7-zstd.dat", NULL);

  /* (one page per CPU and buffer: a seek cannot leave any out) */
  check_file (path, FALSE);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_seek_corpus)
{
  static const gchar *const files[] = { "syscalls-kmem.v7-none.dat",
    "sched-block-net.v6.dat", "sched-irq-timer-wq.v7-zstd.dat",
    "mixed.v7-zlib.dat"
  };
  guint i;

  NEED_CORPUS ();
  for (i = 0; i < G_N_ELEMENTS (files); i++) {
    gchar *rel = g_build_filename ("tracedat", files[i], NULL);
    gchar *path = test_corpus_path (rel);

    check_file (path, TRUE);
    g_free (path);
    g_free (rel);
  }
}

GST_END_TEST;

/* The side stream of tracecmd_* events (all at the trace's first time)
 * ends with the trace: its last packet's end is the last event's time,
 * so its range holds every CPU stream's (babeltrace2's
 * --stream-intersection kept only the side stream's events when its one
 * packet was [t0, t0]). */
static void
check_side_range (const gchar * path)
{
  GstCtfTraceDat *td = gst_ctf_trace_dat_open (path, NULL);
  GstCtfTraceDatPacketizer *p;
  GstCtfTraceDatPacketInfo info;
  const guint8 *data;
  gsize size;
  gint64 begin, end, side_end = -1, cpu_end = -1, side_begin = -1;

  fail_unless (td != NULL);
  p = gst_ctf_trace_dat_packetizer_new (td, 0, 0, NULL);
  fail_unless (p != NULL);
  while (gst_ctf_trace_dat_packetizer_next (p, &data, &size, &info,
          NULL) > 0) {
    if (info.is_file_stream) {
      if (side_begin < 0)
        side_begin = info.begin_ns;
      fail_unless (info.begin_ns >= side_end || side_end < 0 ||
          info.begin_ns == side_begin);
      side_end = info.end_ns;
    } else {
      cpu_end = MAX (cpu_end, info.end_ns);
      fail_unless (info.begin_ns >= side_begin);
    }
  }
  fail_unless (gst_ctf_trace_dat_packetizer_get_time_range (p, &begin, &end,
          NULL));
  fail_unless_equals_int64 (side_begin, begin);
  fail_unless_equals_int64 (side_end, end);
  fail_unless_equals_int64 (cpu_end, end);
  gst_ctf_trace_dat_packetizer_free (p);
  gst_ctf_trace_dat_unref (td);
}

GST_START_TEST (test_side_stream_range)
{
  gchar *path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"),
      "tracecmdsrc", "instance.v7-zstd.dat", NULL);
  gchar *rel, *out, *cmd, *text = NULL;
  gint status;
  guint n_cpu = 0;

  check_side_range (path);
  g_free (path);
  if (test_corpus () == NULL || !test_have_program ("babeltrace2")) {
    g_print ("SKIP test_side_stream_range (babeltrace2 part): "
        "GST_CTF_CORPUS or babeltrace2 missing\n");
    return;
  }
  rel = g_build_filename ("tracedat", "sched-irq-timer-wq.v7-zstd.dat", NULL);
  path = test_corpus_path (rel);
  check_side_range (path);
  /* babeltrace2 --stream-intersection on the CTF output keeps the CPU
   * events of the range all CPUs cover */
  out = g_dir_make_tmp ("tracecmd-si-XXXXXX", NULL);
  /* converted in this process (a spawned gst-launch-1.0 could not load
   * a sanitizer build's plugin), read by babeltrace2 */
  {
    gchar *desc = g_strdup_printf ("tracecmdsrc location=\"%s\" ! ctfsink "
        "location=\"%s/t\"", path, out);
    GstElement *pipe = gst_parse_launch (desc, NULL);
    GstBus *bus;
    GstMessage *msg;

    fail_unless (pipe != NULL);
    bus = gst_element_get_bus (pipe);
    gst_element_set_state (pipe, GST_STATE_PLAYING);
    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
    gst_message_unref (msg);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipe);
    g_free (desc);
  }
  cmd = g_strdup_printf ("%s/t", out);
  {
    gchar *argv[] = { (gchar *) "babeltrace2",
      (gchar *) "--stream-intersection", cmd, NULL
    };

    fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
            NULL, &text, NULL, &status, NULL));
  }
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s", cmd);
  {
    gchar **lines = g_strsplit (text, "\n", -1);
    guint i;

    for (i = 0; lines[i]; i++)
      n_cpu += lines[i][0] == '[' && strstr (lines[i], "tracecmd_") == NULL;
    g_strfreev (lines);
  }
  /* trace-cmd report: 14 132 events; the CPUs' common range holds all but
   * the 29 before the second CPU's first event */
  fail_unless (n_cpu > 14000, "%u CPU events", n_cpu);
  g_free (cmd);
  test_rm_rf (out);
  g_free (out);
  g_free (text);
  g_free (path);
  g_free (rel);
}

GST_END_TEST;

/* Packetizers of one file with the same class flags and clock offset
 * share its CTF trace class (gsttracecmd-ctf-class.c); interleaved, each
 * still makes the packets a packetizer alone makes, byte for byte; other
 * flags or offsets get a class of their own, equal to a fresh build. */
static void
check_shared_class (const gchar * path)
{
  GstCtfTraceDat *td = gst_ctf_trace_dat_open (path, NULL);
  GstCtfTraceDat *td2 = gst_ctf_trace_dat_open (path, NULL);
  GstCtfTraceDatPacketizer *a, *b, *c, *alone;
  GstCtfTraceDatPacketInfo ia, ib, ic;
  const guint8 *da, *db, *dc;
  gsize sa, sb, sc;
  guint n = 0;
  gint ra, rb, rc;

  fail_unless (td != NULL && td2 != NULL);
  a = gst_ctf_trace_dat_packetizer_new (td, 0, 0, NULL);
  b = gst_ctf_trace_dat_packetizer_new (td,
      GST_CTF_TRACE_DAT_PACKETIZER_STRICT, 0, NULL);
  alone = gst_ctf_trace_dat_packetizer_new (td2, 0, 0, NULL);
  fail_unless (a != NULL && b != NULL && alone != NULL);
  fail_unless (gst_ctf_trace_dat_packetizer_get_trace_class (a) ==
      gst_ctf_trace_dat_packetizer_get_trace_class (b), "%s", path);
  fail_unless (gst_ctf_trace_dat_packetizer_get_trace_class (a) !=
      gst_ctf_trace_dat_packetizer_get_trace_class (alone), "%s", path);
  fail_unless_equals_string (gst_ctf_trace_dat_packetizer_get_metadata (a),
      gst_ctf_trace_dat_packetizer_get_metadata (alone));
  /* b is one packet behind a: both read the shared class at once */
  rb = gst_ctf_trace_dat_packetizer_next (b, &db, &sb, &ib, NULL);
  do {
    ra = gst_ctf_trace_dat_packetizer_next (a, &da, &sa, &ia, NULL);
    rc = gst_ctf_trace_dat_packetizer_next (alone, &dc, &sc, &ic, NULL);
    fail_unless_equals_int (ra, rc);
    if (ra > 0) {
      fail_unless (sa == sc && memcmp (da, dc, sa) == 0,
          "%s: packet %u differs", path, n);
      fail_unless_equals_int (ia.stream_index, ic.stream_index);
    }
    if (rb > 0)
      rb = gst_ctf_trace_dat_packetizer_next (b, &db, &sb, &ib, NULL);
    n++;
  } while (ra > 0);
  fail_unless (n > 1, "%s", path);
  fail_unless_equals_int (rb, 0);

  /* another clock offset, lttng-compat: classes of their own, each equal
   * to a packetizer alone on the other file */
  c = gst_ctf_trace_dat_packetizer_new (td, 0, 1000, NULL);
  fail_unless (c != NULL);
  fail_unless (gst_ctf_trace_dat_packetizer_get_trace_class (c) !=
      gst_ctf_trace_dat_packetizer_get_trace_class (a));
  gst_ctf_trace_dat_packetizer_free (alone);
  alone = gst_ctf_trace_dat_packetizer_new (td2, 0, 1000, NULL);
  fail_unless_equals_string (gst_ctf_trace_dat_packetizer_get_metadata (c),
      gst_ctf_trace_dat_packetizer_get_metadata (alone));
  gst_ctf_trace_dat_packetizer_free (c);
  gst_ctf_trace_dat_packetizer_free (alone);
  c = gst_ctf_trace_dat_packetizer_new (td,
      GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT, 0, NULL);
  alone = gst_ctf_trace_dat_packetizer_new (td2,
      GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT, 0, NULL);
  fail_unless (c != NULL && alone != NULL);
  fail_unless (gst_ctf_trace_dat_packetizer_get_trace_class (c) !=
      gst_ctf_trace_dat_packetizer_get_trace_class (a));
  fail_unless_equals_string (gst_ctf_trace_dat_packetizer_get_metadata (c),
      gst_ctf_trace_dat_packetizer_get_metadata (alone));
  /* c and alone packetize the same bytes */
  n = 0;
  do {
    ra = gst_ctf_trace_dat_packetizer_next (c, &da, &sa, &ia, NULL);
    rc = gst_ctf_trace_dat_packetizer_next (alone, &dc, &sc, &ic, NULL);
    fail_unless_equals_int (ra, rc);
    if (ra > 0)
      fail_unless (sa == sc && memcmp (da, dc, sa) == 0,
          "%s: lttng-compat packet %u differs", path, n);
    n++;
  } while (ra > 0);
  gst_ctf_trace_dat_packetizer_free (c);
  gst_ctf_trace_dat_packetizer_free (alone);

  /* the last user gone, a new packetizer builds the class again */
  gst_ctf_trace_dat_packetizer_free (a);
  gst_ctf_trace_dat_packetizer_free (b);
  a = gst_ctf_trace_dat_packetizer_new (td, 0, 0, NULL);
  alone = gst_ctf_trace_dat_packetizer_new (td2, 0, 0, NULL);
  fail_unless (a != NULL && alone != NULL);
  fail_unless_equals_string (gst_ctf_trace_dat_packetizer_get_metadata (a),
      gst_ctf_trace_dat_packetizer_get_metadata (alone));
  gst_ctf_trace_dat_packetizer_free (a);
  gst_ctf_trace_dat_packetizer_free (alone);
  gst_ctf_trace_dat_unref (td);
  gst_ctf_trace_dat_unref (td2);
}

GST_START_TEST (test_shared_class)
{
  const gchar *bundled[] = { "instance.v7-zstd.dat", "date.v7-zstd.dat" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bundled); i++) {
    gchar *path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"),
        "tracecmdsrc", bundled[i], NULL);

    check_shared_class (path);
    g_free (path);
  }
  if (test_corpus () == NULL) {
    g_print ("SKIP test_shared_class (corpus part): GST_CTF_CORPUS "
        "missing\n");
    return;
  }
  {
    gchar *rel = g_build_filename ("tracedat", "sched-irq-timer-wq.v7-zstd.dat",
        NULL);
    gchar *path = test_corpus_path (rel);

    check_shared_class (path);
    g_free (path);
    g_free (rel);
  }
}

GST_END_TEST;

static Suite *
tracecmd_seek_suite (void)
{
  Suite *s = suite_create ("tracecmd-seek");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_seek_bundled);
  tcase_add_test (tc, test_seek_corpus);
  tcase_add_test (tc, test_side_stream_range);
  tcase_add_test (tc, test_shared_class);
  return s;
}

GST_CHECK_MAIN (tracecmd_seek);
