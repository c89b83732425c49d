/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests of timefilter and of the babeltrace2 `--begin/--end` time parser.
 *
 * - Parser: every text form, the digit rules babeltrace2 2.0.4 applies
 *   (checked against it by hand: `1:02`, `12.1234567890`, ` 12`, `+12`,
 *   `2026-1-01 10:00` are refused, `2026-01-01` and `-1.5` accepted),
 *   local time vs `gmt`, time-of-day bounds dated by the first packet.
 * - Properties: `start`/`end` and `start-time`/`end-time` follow each
 *   other with notify; an unparsable bound or start > end fails the
 *   state change with an element error.
 * - Oracle: on examples/traces/ust-sample, the corpus's LTTng-UST traces,
 *   six of its ctf/other/tracecompass traces (older LTTng, perf, OTF2)
 *   and any trace listed in GST_CTF_TIMEFILTER_TRACES (colon separated,
 *   e.g. a large recorded one), windows 1% in the middle, 50%, starting
 *   before the trace, ending after it, inside one packet, between two
 *   events (empty), and start > end (error):
 *   `ctfsrc ! timefilter ! ctftextsink` must print what `babeltrace2
 *   --begin --end` prints, and `babeltrace2 OUT` on `ctfsrc ! timefilter !
 *   ctfsink location=OUT` the same events.  babeltrace2 2.0 prints an
 *   empty string field as whatever its recycled event object held (an
 *   event decoded before the window, in the trimmed run), which no packet
 *   of the window can tell; ctftextsink runs with babeltrace-version=2.0
 *   (the system babeltrace2 is Debian 12's 2.0.4) and
 *   emulate-recycling=false, and such fields are the only difference
 *   allowed (counted and printed).
 * - After tracecmdsrc and after ctfmux (two traces merged): the same
 *   comparison with babeltrace2 (on tracecmdsrc ! ctfsink's trace).
 * - Zero copy: packets inside the window leave as the same GstBuffer.
 * - Live (non-seekable) upstream: a GstHarness pushing the same packets
 *   gives the same output packets as the seeking pipeline.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <glib/gstdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "gstctf-time-parse.h"
#include "gstctf-caps.h"

#include "test-util.h"

#define NS G_GINT64_CONSTANT (1000000000)

/* ------------------------------------------------------------------ */
/* helpers                                                              */

static gchar *
sample_trace (void)
{
  const gchar *data = g_getenv ("GST_CTF_TEST_DATA");
  gchar *d;

  if (data == NULL)
    return NULL;
  d = g_build_filename (data, "..", "..", "examples", "traces", "ust-sample",
      NULL);
  if (!g_file_test (d, G_FILE_TEST_IS_DIR)) {
    g_free (d);
    return NULL;
  }
  return d;
}

/* The babeltrace2 the windows are compared with and the text version
 * ctftextsink follows: Debian 12's 2.0.4, or 2.1.2 from ../shared/tools
 * for CTF 2 traces (test_windows_ctf2). */
static const gchar *bt_program = "babeltrace2";
static const gchar *bt_text_version = "2.0";

static gboolean
have_babeltrace2 (void)
{
  gchar *p = g_find_program_in_path ("babeltrace2");
  gboolean ok = p != NULL;

  g_free (p);
  return ok;
}

/* babeltrace2 ARGS... stdout; NULL when it fails. */
static gchar *
babeltrace2 (const gchar * a1, const gchar * a2, const gchar * a3,
    const gchar * a4)
{
  const gchar *argv[6] = { bt_program, a1, a2, a3, a4, NULL };
  gchar *out = NULL;
  gint status = 0;

  if (!g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL))
    return NULL;
  if (!g_spawn_check_wait_status (status, NULL)) {
    g_free (out);
    return NULL;
  }
  return out;
}

/* Runs a pipeline to EOS or error; returns the error text or NULL.  The
 * element named `f` (the timefilter) gets its stats in *@stats. */
static gchar *
run_pipeline (const gchar * desc, GstStructure ** stats)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *text;
  GstBus *bus;
  GstMessage *m;
  gchar *ret = NULL;

  fail_unless (pipeline != NULL, "%s: %s", desc, err ? err->message : "");
  text = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  if (text) {
    /* babeltrace2 2.0's text (the system babeltrace2 compared with is
     * Debian 12's 2.0.4), without its recycled strings */
    gst_util_set_object_arg (G_OBJECT (text), "babeltrace-version",
        bt_text_version);
    if (strcmp (bt_text_version, "2.0") == 0)
      g_object_set (text, "emulate-recycling", FALSE, NULL);
    gst_object_unref (text);
  }
  bus = gst_element_get_bus (pipeline);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  } else {
    m = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (m != NULL, "timeout: %s", desc);
  }
  if (m == NULL) {
    ret = g_strdup ("state change failed without an error message");
  } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;

    gst_message_parse_error (m, &err, &dbg);
    ret = g_strdup_printf ("%s | %s", err->message, dbg ? dbg : "");
    g_clear_error (&err);
    g_free (dbg);
  }
  if (m)
    gst_message_unref (m);
  if (stats) {
    GstElement *f = gst_bin_get_by_name (GST_BIN (pipeline), "f");

    *stats = NULL;
    if (f) {
      g_object_get (f, "stats", stats, NULL);
      gst_object_unref (f);
    }
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return ret;
}

/* A quoted string at *p (C escapes inside); advances past it. */
static void
take_quoted (const gchar ** p, const gchar ** start, gsize * len)
{
  const gchar *s = *p + 1;

  *start = s;
  while (*s && *s != '"' && *s != '\n') {
    if (*s == '\\' && s[1])
      s++;
    s++;
  }
  *len = s - *start;
  *p = *s == '"' ? s + 1 : s;
}

/* Compares babeltrace2's text @bt with @ours line by line: equal, except
 * that a string field that is empty in @ours may hold anything in @bt
 * (babeltrace2 2.0's recycled event objects).  Returns NULL when they
 * match, else a description of the first difference. */
static gchar *
compare_text (const gchar * bt, const gchar * ours, guint * lenient)
{
  const gchar *a = bt, *b = ours;
  guint line = 1;

  while (*a || *b) {
    const gchar *ea = strchr (a, '\n'), *eb = strchr (b, '\n');
    gsize la = ea ? (gsize) (ea - a) : strlen (a);
    gsize lb = eb ? (gsize) (eb - b) : strlen (b);

    if (la != lb || memcmp (a, b, la) != 0) {
      const gchar *x = a, *y = b;

      while (x < a + la && y < b + lb) {
        if (*x == '"' && *y == '"') {
          const gchar *sx, *sy;
          gsize nx, ny;

          take_quoted (&x, &sx, &nx);
          take_quoted (&y, &sy, &ny);
          if (ny != 0 && (nx != ny || memcmp (sx, sy, nx) != 0))
            break;
          continue;
        }
        if (*x != *y)
          break;
        x++;
        y++;
      }
      if (x != a + la || y != b + lb)
        return g_strdup_printf ("line %u differs:\n  babeltrace2: %.*s\n"
            "  ours:        %.*s", line, (int) MIN (la, 400), a,
            (int) MIN (lb, 400), b);
      (*lenient)++;
    }
    a += la + (ea ? 1 : 0);
    b += lb + (eb ? 1 : 0);
    line++;
  }
  return NULL;
}

static guint
count_lines (const gchar * s)
{
  guint n = 0;

  for (; *s; s++)
    if (*s == '\n')
      n++;
  return n;
}

/* ------------------------------------------------------------------ */
/* the time parser                                                      */

static gint64
parse_ok (const gchar * s, gboolean gmt, GstCtfTimeBoundKind kind)
{
  GstCtfTimeBound b;
  GError *err = NULL;

  fail_unless (gst_ctf_time_bound_parse (s, gmt, &b, &err), "%s: %s", s,
      err ? err->message : "");
  fail_unless_equals_int (b.kind, kind);
  return b.ns;
}

static void
parse_bad (const gchar * s)
{
  GstCtfTimeBound b;
  GError *err = NULL;

  fail_if (gst_ctf_time_bound_parse (s, TRUE, &b, &err), "accepted \"%s\"",
      s);
  fail_unless (g_error_matches (err, GST_CTF_ERROR,
          GST_CTF_ERROR_TIME_FORMAT), "%s", s);
  fail_unless (strstr (err->message, s) != NULL, "%s", err->message);
  g_error_free (err);
}

GST_START_TEST (test_parse_forms)
{
  GstCtfTimeBound b;

  /* 2026-11-22 00:34:54 UTC = 1795307694 */
  fail_unless_equals_int64 (parse_ok ("2026-11-22 00:34:54.382991362", TRUE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 1795307694382991362);
  fail_unless_equals_int64 (parse_ok ("2026-11-22 00:34:54.5", TRUE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 1795307694500000000);
  fail_unless_equals_int64 (parse_ok ("2026-11-22 00:34", TRUE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 1795307640 * NS);
  fail_unless_equals_int64 (parse_ok ("2026-11-22 00:34:54", TRUE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 1795307694 * NS);
  fail_unless_equals_int64 (parse_ok ("2026-11-22", TRUE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 1795305600 * NS);
  fail_unless_equals_int64 (parse_ok ("1795307694.382991362", TRUE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 1795307694382991362);
  fail_unless_equals_int64 (parse_ok ("12", FALSE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 12 * NS);
  fail_unless_equals_int64 (parse_ok ("-1.5", FALSE,
          GST_CTF_TIME_BOUND_ABSOLUTE), -1500000000);
  fail_unless_equals_int64 (parse_ok ("0.000000001", FALSE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 1);
  /* `$` of babeltrace2's regular expressions allows a final newline */
  fail_unless_equals_int64 (parse_ok ("12\n", FALSE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 12 * NS);
  parse_ok (NULL, FALSE, GST_CTF_TIME_BOUND_OPEN);
  parse_ok ("", FALSE, GST_CTF_TIME_BOUND_OPEN);

  fail_unless (gst_ctf_time_bound_parse ("23:53:46.0108", FALSE, &b, NULL));
  fail_unless_equals_int (b.kind, GST_CTF_TIME_BOUND_TIME_OF_DAY);
  fail_unless_equals_int (b.hour, 23);
  fail_unless_equals_int (b.minute, 53);
  fail_unless_equals_int (b.second, 46);
  fail_unless_equals_int (b.nsec, 10800000);
  fail_unless (gst_ctf_time_bound_parse ("01:02", FALSE, &b, NULL));
  fail_unless_equals_int (b.kind, GST_CTF_TIME_BOUND_TIME_OF_DAY);
  fail_unless_equals_int (b.second, 0);

  /* what babeltrace2 2.0.4 refuses */
  parse_bad ("1:02");
  parse_bad ("12.1234567890");
  parse_bad ("00:00:00.1234567891");
  parse_bad ("1.2.3");
  parse_bad (" 12");
  parse_bad ("+12");
  parse_bad ("2026-1-01 10:00");
  parse_bad ("2026-11-22T00:34");
  parse_bad ("2026-11-22 00:34:5");
  parse_bad ("12.");
  parse_bad ("-");
  parse_bad ("soon");
  /* beyond gint64 nanoseconds */
  parse_bad ("9223372037");
  parse_bad ("99999999999999999999999");
  /* before the Unix epoch */
  parse_bad ("1969-12-31 23:59");
}

GST_END_TEST;

GST_START_TEST (test_parse_local_time)
{
  gchar *old = g_strdup (g_getenv ("TZ"));
  GstCtfTimeBound b;

  /* A POSIX TZ rule needs no tzdata: one hour east of UTC. */
  g_setenv ("TZ", "XXX-1", TRUE);
  tzset ();
  fail_unless_equals_int64 (parse_ok ("2026-11-22 00:34:54", FALSE,
          GST_CTF_TIME_BOUND_ABSOLUTE), (1795307694 - 3600) * NS);
  fail_unless_equals_int64 (parse_ok ("2026-11-22 00:34:54", TRUE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 1795307694 * NS);
  /* seconds from the origin do not depend on the time zone */
  fail_unless_equals_int64 (parse_ok ("1795307694", FALSE,
          GST_CTF_TIME_BOUND_ABSOLUTE), 1795307694 * NS);

  /* time of day: the date of the first packet, in local time:
   * 2026-11-21 23:30 UTC is 2026-11-22 00:30 local */
  fail_unless (gst_ctf_time_bound_parse ("00:34:54.25", FALSE, &b, NULL));
  fail_unless (gst_ctf_time_bound_resolve (&b, (1795307694 - 3600 - 300) *
          NS, FALSE, NULL));
  fail_unless_equals_int (b.kind, GST_CTF_TIME_BOUND_ABSOLUTE);
  fail_unless_equals_int64 (b.ns, (1795307694 - 3600) * NS + 250000000);
  /* ... and in UTC with gmt: that is 2026-11-21 */
  fail_unless (gst_ctf_time_bound_parse ("00:34:54.25", TRUE, &b, NULL));
  fail_unless (gst_ctf_time_bound_resolve (&b, (1795307694 - 3600 - 300) *
          NS, TRUE, NULL));
  fail_unless_equals_int64 (b.ns, (1795307694 - 86400) * NS + 250000000);

  if (old)
    g_setenv ("TZ", old, TRUE);
  else
    g_unsetenv ("TZ");
  tzset ();
  g_free (old);
}

GST_END_TEST;

GST_START_TEST (test_format_seconds)
{
  const gint64 values[] = { 0, 1, 999999999, 1795307694382991362,
    -1, -1500000000, G_MAXINT64, G_MININT64 + 1
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (values); i++) {
    gchar *s = gst_ctf_time_format_seconds (values[i]);

    fail_unless_equals_int64 (parse_ok (s, FALSE,
            GST_CTF_TIME_BOUND_ABSOLUTE), values[i]);
    g_free (s);
  }
  {
    gchar *s = gst_ctf_time_format_seconds (-1500000000);

    fail_unless_equals_string (s, "-1.500000000");
    g_free (s);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* properties and errors                                                */

static void
count_notify (GObject * obj, GParamSpec * pspec, gpointer data)
{
  GHashTable *h = data;
  const gchar *name = g_param_spec_get_name (pspec);

  g_hash_table_insert (h, (gpointer) name, GUINT_TO_POINTER (
          GPOINTER_TO_UINT (g_hash_table_lookup (h, name)) + 1));
}

GST_START_TEST (test_properties)
{
  GstElement *f = gst_element_factory_make ("timefilter", NULL);
  GHashTable *n = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 t;
  gchar *s;

  fail_unless (f != NULL);
  g_signal_connect (f, "notify", G_CALLBACK (count_notify), n);

  g_object_get (f, "start-time", &t, "start", &s, NULL);
  fail_unless_equals_uint64 (t, GST_CLOCK_TIME_NONE);
  fail_unless (s == NULL);

  g_object_set (f, "start", "2026-11-22 00:34:54.5", "gmt", TRUE, NULL);
  g_object_get (f, "start-time", &t, NULL);
  fail_unless_equals_uint64 (t, 1795307694500000000);
  fail_unless (g_hash_table_lookup (n, "start-time") != NULL);

  g_object_set (f, "end-time", (guint64) 1795307695000000001, NULL);
  g_object_get (f, "end", &s, NULL);
  fail_unless_equals_string (s, "1795307695.000000001");
  g_free (s);
  fail_unless (g_hash_table_lookup (n, "end") != NULL);

  g_object_set (f, "end-time", GST_CLOCK_TIME_NONE, NULL);
  g_object_get (f, "end", &s, NULL);
  fail_unless (s == NULL);

  /* time of day: no number before the first packet */
  g_object_set (f, "end", "00:35", NULL);
  g_object_get (f, "end-time", &t, NULL);
  fail_unless_equals_uint64 (t, GST_CLOCK_TIME_NONE);
  /* a negative time reads as 0 */
  g_object_set (f, "end", "-3", NULL);
  g_object_get (f, "end-time", &t, NULL);
  fail_unless_equals_uint64 (t, 0);

  g_hash_table_unref (n);
  gst_object_unref (f);
}

GST_END_TEST;

static gchar *
error_for (const gchar * start, const gchar * end)
{
  GstElement *f = gst_element_factory_make ("timefilter", NULL);
  GstBus *bus = gst_bus_new ();
  GstStateChangeReturn r;
  GstMessage *m;
  gchar *ret = NULL;

  gst_element_set_bus (f, bus);
  g_object_set (f, "start", start, "end", end, NULL);
  /* The bounds are checked when the element starts (READY to PAUSED). */
  r = gst_element_set_state (f, GST_STATE_PAUSED);
  m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (m) {
    GError *err = NULL;

    gst_message_parse_error (m, &err, NULL);
    fail_unless (GST_MESSAGE_SRC (m) == GST_OBJECT (f));
    ret = g_strdup (err->message);
    g_error_free (err);
    gst_message_unref (m);
    fail_unless (r == GST_STATE_CHANGE_FAILURE, "state change: %s",
        gst_element_state_change_return_get_name (r));
  } else {
    fail_unless (r == GST_STATE_CHANGE_SUCCESS, "state change: %s",
        gst_element_state_change_return_get_name (r));
  }
  gst_element_set_state (f, GST_STATE_NULL);
  gst_element_set_bus (f, NULL);
  gst_object_unref (bus);
  gst_object_unref (f);
  return ret;
}

GST_START_TEST (test_errors_at_state_change)
{
  gchar *e;

  e = error_for ("yesterday", NULL);
  fail_unless (e && strstr (e, "Invalid date/time format") &&
      strstr (e, "yesterday"), "%s", e);
  g_free (e);
  e = error_for ("12", "11.999999999");
  fail_unless (e && strstr (e, "beginning is after its end"), "%s", e);
  g_free (e);
  e = error_for ("12", "12");
  fail_unless (e == NULL, "%s", e);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* windows against babeltrace2                                          */

typedef struct {
  gint64 *t;                    /* event times, ns, in printed order */
  guint n;
} Times;

/* Event times of @trace from `babeltrace2 --clock-seconds`. */
static gboolean
event_times (const gchar * trace, Times * times)
{
  gchar *out = babeltrace2 ("--clock-seconds", trace, NULL, NULL);
  const gchar *p;
  GArray *a;

  if (out == NULL)
    return FALSE;
  a = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (p = out; *p; ) {
    const gchar *nl = strchr (p, '\n');

    if (*p == '[') {
      gchar *end;
      gint64 s = g_ascii_strtoll (p + 1, &end, 10);
      gint64 v = s * NS;

      if (*end == '.')
        v += g_ascii_strtoll (end + 1, NULL, 10);
      g_array_append_val (a, v);
    }
    if (nl == NULL)
      break;
    p = nl + 1;
  }
  g_free (out);
  times->n = a->len;
  times->t = (gint64 *) g_array_free (a, FALSE);
  return times->n > 0;
}

/* Runs one window both ways and compares.  @expect_error: start > end. */
static void
check_window (const gchar * trace, const gchar * what, const gchar * b,
    const gchar * e, gboolean expect_error, guint * n_events)
{
  gchar *bt_begin = g_strdup_printf ("--begin=%s", b);
  gchar *bt_end = g_strdup_printf ("--end=%s", e);
  gchar *tmp = g_dir_make_tmp ("timefilter-XXXXXX", NULL);
  gchar *txt = g_build_filename (tmp, "out.txt", NULL);
  gchar *out = g_build_filename (tmp, "trace", NULL);
  gchar *desc, *err, *bt, *ours = NULL, *bt_out, *diff;
  GstStructure *stats = NULL;
  guint lenient = 0, lenient2 = 0;
  gsize len;

  fail_unless (tmp != NULL);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! timefilter name=f "
      "start=\"%s\" end=\"%s\" ! ctftextsink name=t location=\"%s\"",
      trace, b, e, txt);
  err = run_pipeline (desc, &stats);
  g_free (desc);

  if (expect_error) {
    fail_unless (err != NULL && strstr (err, "beginning is after its end"),
        "%s %s: expected a start > end error, got %s", trace, what, err);
    fail_unless (babeltrace2 (bt_begin, bt_end, trace, NULL) == NULL,
        "babeltrace2 accepts start > end?");
    g_print ("  %-22s [%s, %s]: error as expected: %s\n", what, b, e, err);
    g_free (err);
    goto done;
  }
  fail_unless (err == NULL, "%s %s: %s", trace, what, err);
  bt = babeltrace2 (bt_begin, bt_end, trace, NULL);
  fail_unless (bt != NULL, "babeltrace2 %s %s %s failed", bt_begin, bt_end,
      trace);
  fail_unless (g_file_get_contents (txt, &ours, &len, NULL));
  diff = compare_text (bt, ours, &lenient);
  fail_unless (diff == NULL, "%s %s [%s, %s]: ctftextsink vs babeltrace2: "
      "%s", trace, what, b, e, diff);
  *n_events = count_lines (bt);

  /* The same window written with ctfsink, read by babeltrace2. */
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! timefilter "
      "start=\"%s\" end=\"%s\" ! ctfsink location=\"%s\"", trace, b, e, out);
  err = run_pipeline (desc, NULL);
  g_free (desc);
  fail_unless (err == NULL, "%s %s: ctfsink: %s", trace, what, err);
  if (*n_events > 0 || g_file_test (out, G_FILE_TEST_IS_DIR)) {
    bt_out = babeltrace2 (out, NULL, NULL, NULL);
    fail_unless (bt_out != NULL, "%s %s: babeltrace2 cannot read the "
        "written window %s", trace, what, out);
    diff = compare_text (bt_out, ours, &lenient2);
    fail_unless (diff == NULL, "%s %s [%s, %s]: babeltrace2 OUT vs window: "
        "%s", trace, what, b, e, diff);
    g_free (bt_out);
  }
  {
    guint64 passed = 0, dropped = 0, rewritten = 0;

    if (stats) {
      gst_structure_get_uint64 (stats, "packets-passed", &passed);
      gst_structure_get_uint64 (stats, "packets-dropped", &dropped);
      gst_structure_get_uint64 (stats, "packets-rewritten", &rewritten);
    }
    g_print ("  %-22s [%s, %s]: %u events equal (%u/%u lines differ only "
        "by babeltrace2's recycled empty strings); packets passed %"
        G_GUINT64_FORMAT ", rewritten %" G_GUINT64_FORMAT ", dropped %"
        G_GUINT64_FORMAT "\n", what, b, e, *n_events, lenient, lenient2,
        passed, rewritten, dropped);
  }
  g_free (bt);
  g_free (ours);

done:
  if (stats)
    gst_structure_free (stats);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (txt);
  g_free (out);
  g_free (bt_begin);
  g_free (bt_end);
}

static gchar *
sec (gint64 ns)
{
  return gst_ctf_time_format_seconds (ns);
}

static gint
cmp_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
check_trace_windows (const gchar * trace)
{
  Times tm;
  gint64 first, last, span, gap_a = 0, gap_b = 0;
  guint i, n = 0, k;
  gchar *b, *e;
  struct tm utc;
  time_t secs;
  gchar date_b[64];

  g_print ("%s\n", trace);
  fail_unless (event_times (trace, &tm), "no events in %s", trace);
  qsort (tm.t, tm.n, sizeof (gint64), cmp_i64);
  first = tm.t[0];
  last = tm.t[tm.n - 1];
  span = last - first;

#define WINDOW(what, lo, hi, err) G_STMT_START {                        \
    b = sec (lo);                                                       \
    e = sec (hi);                                                       \
    check_window (trace, what, b, e, err, &n);                          \
    g_free (b);                                                         \
    g_free (e);                                                         \
  } G_STMT_END

  /* 1% and 50% of the events, in the middle */
  WINDOW ("1% in the middle", tm.t[tm.n / 2 - tm.n / 200],
      tm.t[tm.n / 2 + tm.n / 200], FALSE);
  fail_unless (n > 0);
  WINDOW ("50% in the middle", tm.t[tm.n / 4], tm.t[tm.n / 4 * 3], FALSE);
  fail_unless (n > 0);
  WINDOW ("starting before", first - 10 * NS, first + span / 10, FALSE);
  fail_unless (n > 0);
  WINDOW ("ending after", first + span / 10 * 9, last + 10 * NS, FALSE);
  fail_unless (n > 0);
  WINDOW ("whole trace", first - 1, last + 1, FALSE);
  fail_unless_equals_int (n, tm.n);
  /* a few consecutive events: inside one packet (usually) */
  k = tm.n / 3;
  WINDOW ("inside one packet", tm.t[k], tm.t[MIN (k + 3, tm.n - 1)], FALSE);
  fail_unless (n >= 1);
  /* between two events: the first gap of at least 2 ns after the middle */
  for (i = tm.n / 2; i + 1 < tm.n; i++) {
    if (tm.t[i + 1] - tm.t[i] >= 2) {
      gap_a = tm.t[i] + 1;
      gap_b = tm.t[i + 1] - 1;
      break;
    }
  }
  if (gap_b > 0) {
    WINDOW ("between two events", gap_a, gap_b, FALSE);
    fail_unless_equals_int (n, 0);
  }
  WINDOW ("start > end", first + span / 2, first + span / 2 - 1, TRUE);

  /* The date form (TZ=UTC in the test environment) and the time-of-day
   * form, dated by the first packet. */
  secs = (time_t) ((first + span / 4) / NS);
  gmtime_r (&secs, &utc);
  strftime (date_b, sizeof (date_b), "%Y-%m-%d %H:%M:%S", &utc);
  b = g_strdup_printf ("%s.%09u", date_b, (guint) ((first + span / 4) % NS));
  e = sec (first + span / 2);
  check_window (trace, "date form", b, e, FALSE, &n);
  g_free (b);
  g_free (e);
  b = g_strdup_printf ("%s.%09u", date_b + 11, (guint) ((first + span / 4)
          % NS));
  e = g_strdup ("");
  {
    secs = (time_t) (last / NS + 1);
    gmtime_r (&secs, &utc);
    g_free (e);
    e = g_malloc (32);
    strftime (e, 32, "%H:%M:%S", &utc);
  }
  /* only when the trace does not cross midnight */
  if ((first / NS) / 86400 == (last / NS + 1) / 86400)
    check_window (trace, "time-of-day form", b, e, FALSE, &n);
  g_free (b);
  g_free (e);
#undef WINDOW
  g_free (tm.t);
}

GST_START_TEST (test_windows_sample)
{
  gchar *t = sample_trace ();

  if (t == NULL || !have_babeltrace2 ()) {
    g_print ("SKIP %s: no sample trace or no babeltrace2\n", G_STRFUNC);
    g_free (t);
    return;
  }
  check_trace_windows (t);
  g_free (t);
}

GST_END_TEST;

/* The same windows when every kept event is re-encoded (the path for
 * packets whose event bytes cannot be copied as they are). */
GST_START_TEST (test_windows_reencode)
{
  gchar *t = sample_trace ();

  if (t == NULL || !have_babeltrace2 ()) {
    g_print ("SKIP %s: no sample trace or no babeltrace2\n", G_STRFUNC);
    g_free (t);
    return;
  }
  g_setenv ("GST_CTF_TIMEFILTER_REENCODE", "1", TRUE);
  check_trace_windows (t);
  if (test_corpus ()) {
    gchar *c = g_build_filename (test_corpus (), "ctf", "lttng-ust",
        "pthread-multichan", NULL);

    check_trace_windows (c);
    g_free (c);
  }
  g_unsetenv ("GST_CTF_TIMEFILTER_REENCODE");
  g_free (t);
}

GST_END_TEST;

GST_START_TEST (test_windows_corpus)
{
  const gchar *names[] = { "custom-2cpu", "libc-ls", "pthread-multichan",
    "dl-statedump"
  };
  guint i;

  if (test_corpus () == NULL || !have_babeltrace2 ()) {
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing, or no "
        "babeltrace2\n", G_STRFUNC);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *t = g_build_filename (test_corpus (), "ctf", "lttng-ust", names[i],
        NULL);

    check_trace_windows (t);
    g_free (t);
  }
}

GST_END_TEST;

/* CTF 2 (babeltrace2 2.1.2 from ../shared/tools): the bundled
 * tests/data/ctf2/windows (LEB128, BLOBs, optionals, bit map, variants
 * with integer selectors, UTF-16/32 strings, header and context fields
 * known by their roles only), also with every kept event re-encoded, and
 * the corpus's LTTng 2.15 recordings and converted CTF 2 traces (one
 * trace each: a directory of several CTF 2 traces, such as
 * babeltrace/succeed/session-rotation, is merged into a trace class that
 * ctfsink writes as TSDL, which cannot always express it: writing CTF 2
 * metadata is not done here). */
GST_START_TEST (test_windows_ctf2)
{
  const gchar *units[] = { "lttng-2.15/ust-libc", "lttng-2.15/ust-fields",
    "converted/lttng-ust_libc-ls", "converted/lttng-ust_custom-2cpu",
    "converted/other_tracecompass_flipping-endianness",
    "babeltrace/succeed/2packets"
  };
  gchar *tool, *t;
  guint i;

  if (test_corpus () == NULL) {
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing\n", G_STRFUNC);
    return;
  }
  tool = g_build_filename (test_corpus (), "..", "tools", "babeltrace2-2.1",
      NULL);
  if (!g_file_test (tool, G_FILE_TEST_IS_EXECUTABLE)) {
    g_print ("SKIP %s: no ../shared/tools/babeltrace2-2.1\n", G_STRFUNC);
    g_free (tool);
    return;
  }
  bt_program = tool;
  bt_text_version = "2.1";
  t = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "ctf2", "windows",
      NULL);
  check_trace_windows (t);
  g_setenv ("GST_CTF_TIMEFILTER_REENCODE", "1", TRUE);
  check_trace_windows (t);
  g_unsetenv ("GST_CTF_TIMEFILTER_REENCODE");
  g_free (t);
  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    t = g_build_filename (test_corpus (), "ctf2", units[i], NULL);
    check_trace_windows (t);
    g_free (t);
  }
  bt_program = "babeltrace2";
  bt_text_version = "2.0";
  g_free (tool);
}

GST_END_TEST;

/* Without ../shared: a window of tests/data/ctf2/windows written by
 * ctfsink (edge packets re-encoded) prints the lines of windows.txt
 * (babeltrace2 2.1.2's text of the whole trace) in the window, but for
 * the first line's delta. */
GST_START_TEST (test_window_ctf2_fixture)
{
  gchar *dir = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "ctf2",
      NULL);
  gchar *t = g_build_filename (dir, "windows", NULL);
  gchar *exp_path = g_build_filename (dir, "windows.txt", NULL);
  gchar *tmp = g_dir_make_tmp ("timefilter-ctf2-XXXXXX", NULL);
  gchar *out = g_build_filename (tmp, "trace", NULL);
  gchar *txt = g_build_filename (tmp, "out.txt", NULL);
  gchar *desc, *err, *all = NULL, *got = NULL, **lines;
  GString *exp = g_string_new (NULL);
  guint i, n = 0;

  /* events at 11:06:40.011 .. .050 UTC: the middle of packet 0 to the
   * middle of packet 1 */
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! timefilter "
      "start=1795000000.010500000 end=1795000000.050500000 ! ctfsink "
      "location=\"%s\"", t, out);
  err = run_pipeline (desc, NULL);
  fail_unless (err == NULL, "%s: %s", desc, err);
  g_free (desc);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctftextsink name=t "
      "location=\"%s\"", out, txt);
  bt_text_version = "2.1";
  err = run_pipeline (desc, NULL);
  bt_text_version = "2.0";
  fail_unless (err == NULL, "%s: %s", desc, err);
  fail_unless (g_file_get_contents (exp_path, &all, NULL, NULL));
  fail_unless (g_file_get_contents (txt, &got, NULL, NULL));
  lines = g_strsplit (all, "\n", -1);
  for (i = 0; lines[i] != NULL; i++) {
    if (strncmp (lines[i], "[11:06:40.0", 11) != 0)
      continue;
    if (strncmp (lines[i], "[11:06:40.011", 13) < 0 ||
        strncmp (lines[i], "[11:06:40.050", 13) > 0)
      continue;
    if (n++ == 0)
      g_string_append_printf (exp, "%.21s(+?.\?\?\?\?\?\?\?\?\?)%s\n", lines[i],
          strchr (lines[i], ')') + 1);
    else
      g_string_append_printf (exp, "%s\n", lines[i]);
  }
  fail_unless_equals_int (n, 40);
  fail_unless_equals_string (got, exp->str);
  g_strfreev (lines);
  g_string_free (exp, TRUE);
  g_free (all);
  g_free (got);
  g_free (desc);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (txt);
  g_free (out);
  g_free (exp_path);
  g_free (t);
  g_free (dir);
}

GST_END_TEST;

/* Older tracers (LTTng-UST 2.6/2.8, LTTng-modules 2.5 whose
 * `timestamp_end` babeltrace2 ignores), perf's and OTF2's CTF writers. */
GST_START_TEST (test_windows_other)
{
  const gchar *names[] = { "context-switches", "flipping-endianness",
    "perf-taskset2", "debuginfo-test-app3", "bandwidth_issue", "mpi_pthread"
  };
  guint i;

  if (test_corpus () == NULL || !have_babeltrace2 ()) {
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing, or no "
        "babeltrace2\n", G_STRFUNC);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *t = g_build_filename (test_corpus (), "ctf", "other", "tracecompass",
        names[i], NULL);

    if (g_file_test (t, G_FILE_TEST_IS_DIR))
      check_trace_windows (t);
    else
      g_print ("SKIP %s: no %s\n", G_STRFUNC, t);
    g_free (t);
  }
}

GST_END_TEST;

/* `SRC ! timefilter ! ctftextsink` against babeltrace2 --begin/--end on
 * @bt_args (one or two trace directories). */
static void
check_after (const gchar * src_desc, const gchar * bt_a, const gchar * bt_b,
    const gchar * b, const gchar * e, guint * n_events)
{
  gchar *bt_begin = g_strdup_printf ("--begin=%s", b);
  gchar *bt_end = g_strdup_printf ("--end=%s", e);
  gchar *tmp = g_dir_make_tmp ("timefilter-XXXXXX", NULL);
  gchar *txt = g_build_filename (tmp, "out.txt", NULL);
  gchar *desc, *err, *bt, *ours = NULL, *diff;
  guint lenient = 0;

  desc = g_strdup_printf ("%s timefilter name=f start=%s end=%s ! "
      "ctftextsink name=t location=\"%s\"", src_desc, b, e, txt);
  err = run_pipeline (desc, NULL);
  fail_unless (err == NULL, "%s: %s", desc, err);
  bt = babeltrace2 (bt_begin, bt_end, bt_a, bt_b);
  fail_unless (bt != NULL);
  fail_unless (g_file_get_contents (txt, &ours, NULL, NULL));
  diff = compare_text (bt, ours, &lenient);
  fail_unless (diff == NULL, "%s: %s", desc, diff);
  *n_events = count_lines (bt);
  g_print ("  [%s, %s] %u events equal (%u lines differ only by recycled "
      "empty strings): %s\n", b, e, *n_events, lenient, desc);
  g_free (desc);
  g_free (bt);
  g_free (ours);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (txt);
  g_free (bt_begin);
  g_free (bt_end);
}

/* After tracecmdsrc (the oracle reads tracecmdsrc ! ctfsink's whole
 * trace) and after ctfmux merging two traces. */
GST_START_TEST (test_after_other_sources)
{
  gchar *dat, *tmp, *full, *desc, *err, *t1, *t2;
  guint n = 0;

  if (test_corpus () == NULL || !have_babeltrace2 ()) {
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing, or no "
        "babeltrace2\n", G_STRFUNC);
    return;
  }
  dat = g_build_filename (test_corpus (), "tracedat",
      "sched-irq-timer-wq.v7-zstd.dat", NULL);
  tmp = g_dir_make_tmp ("timefilter-XXXXXX", NULL);
  full = g_build_filename (tmp, "full", NULL);
  /* CPU events only: after a seek the side stream's events are at the
   * seek's time, where babeltrace2 --begin on the whole trace has none
   * (test_side_stream_kept checks them) */
  desc = g_strdup_printf ("tracecmdsrc location=\"%s\" file-stream=false ! "
      "ctfsink location=\"%s\"", dat, full);
  err = run_pipeline (desc, NULL);
  g_free (desc);
  if (err != NULL) {
    g_print ("SKIP %s: tracecmdsrc: %s\n", G_STRFUNC, err);
    g_free (err);
  } else {
    desc = g_strdup_printf ("tracecmdsrc location=\"%s\" file-stream=false "
        "!", dat);
    check_after (desc, full, NULL, "893.9", "893.95", &n);
    fail_unless (n > 1000);
    check_after (desc, full, NULL, "893.7", "893.701", &n);
    fail_unless (n > 10);
    check_after (desc, full, NULL, "894.0", "895", &n);
    fail_unless (n > 1000);
    g_free (desc);
  }
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (full);
  g_free (dat);

  t1 = g_build_filename (test_corpus (), "ctf", "lttng-ust", "libc-ls", NULL);
  t2 = g_build_filename (test_corpus (), "ctf", "lttng-ust", "dl-statedump",
      NULL);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! m.  ctfsrc "
      "location=\"%s\" ! m.  ctfmux name=m !", t1, t2);
  check_after (desc, t1, t2, "1795305937.2", "1795305937.205", &n);
  fail_unless (n > 100);
  check_after (desc, t1, t2, "1795305930", "1795305941.47", &n);
  fail_unless (n > 3000);
  g_free (desc);
  g_free (t1);
  g_free (t2);
}

GST_END_TEST;

GST_START_TEST (test_windows_extra)
{
  const gchar *list = g_getenv ("GST_CTF_TIMEFILTER_TRACES");
  gchar **v;
  guint i;

  if (list == NULL || *list == '\0' || !have_babeltrace2 ()) {
    g_print ("SKIP %s: GST_CTF_TIMEFILTER_TRACES not set\n", G_STRFUNC);
    return;
  }
  v = g_strsplit (list, ":", -1);
  for (i = 0; v[i]; i++)
    if (*v[i])
      check_trace_windows (v[i]);
  g_strfreev (v);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* zero copy and live upstream                                          */

typedef struct {
  GstBuffer *last_in;
  guint same, other;
} Probe;

static GstPadProbeReturn
probe_in (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Probe *p = data;

  p->last_in = GST_PAD_PROBE_INFO_BUFFER (info);
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
probe_out (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Probe *p = data;

  if (GST_PAD_PROBE_INFO_BUFFER (info) == p->last_in)
    p->same++;
  else
    p->other++;
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_zero_copy)
{
  gchar *t = sample_trace ();
  gchar *desc;
  GstElement *pipeline, *f;
  GstPad *sink, *src;
  GstBus *bus;
  GstMessage *m;
  Probe pr = { NULL, 0, 0 };
  GstStructure *stats;
  guint64 passed = 0, rewritten = 0;

  if (t == NULL) {
    g_print ("SKIP %s: no sample trace\n", G_STRFUNC);
    return;
  }
  /* The whole trace is in the window: every packet is passed. */
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! timefilter name=f "
      "start=1 end=4000000000 ! fakesink", t);
  pipeline = gst_parse_launch (desc, NULL);
  f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  sink = gst_element_get_static_pad (f, "sink");
  src = gst_element_get_static_pad (f, "src");
  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, probe_in, &pr, NULL);
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, probe_out, &pr, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
  gst_message_unref (m);
  g_object_get (f, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "packets-passed", &passed);
  gst_structure_get_uint64 (stats, "packets-rewritten", &rewritten);
  gst_structure_free (stats);
  fail_unless (pr.same > 0);
  fail_unless_equals_int (pr.other, 0);
  fail_unless_equals_uint64 (passed, pr.same);
  fail_unless_equals_uint64 (rewritten, 0);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (f);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (t);
}

GST_END_TEST;

/* All packets of a pipeline's output, with its caps. */
static GPtrArray *
collect (const gchar * desc, GstCaps ** caps)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "s");
  GPtrArray *bufs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GstSample *sample;

  fail_unless (sink != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (;;) {
    sample = NULL;
    /* the action signal: no link to libgstapp needed */
    g_signal_emit_by_name (sink, "pull-sample", &sample);
    if (sample == NULL)
      break;
    if (caps && *caps == NULL)
      *caps = gst_caps_ref (gst_sample_get_caps (sample));
    g_ptr_array_add (bufs, gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return bufs;
}

static gboolean
buffers_equal (GstBuffer * a, GstBuffer * b)
{
  GstMapInfo ma, mb;
  gboolean eq;

  gst_buffer_map (a, &ma, GST_MAP_READ);
  gst_buffer_map (b, &mb, GST_MAP_READ);
  eq = ma.size == mb.size && memcmp (ma.data, mb.data, ma.size) == 0;
  gst_buffer_unmap (a, &ma);
  gst_buffer_unmap (b, &mb);
  return eq;
}

GST_START_TEST (test_live_upstream)
{
  gchar *t = sample_trace ();
  gchar *desc;
  GPtrArray *all, *seeked;
  GstCaps *caps = NULL;
  GstHarness *h;
  guint i, n_out = 0;
  GstFlowReturn ret = GST_FLOW_OK;
  const gchar *b = "1795307694.382991362", *e = "1795307694.383300000";

  if (t == NULL) {
    g_print ("SKIP %s: no sample trace\n", G_STRFUNC);
    return;
  }
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! appsink name=s "
      "sync=false", t);
  all = collect (desc, &caps);
  g_free (desc);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! timefilter start=%s "
      "end=%s ! appsink name=s sync=false", t, b, e);
  seeked = collect (desc, NULL);
  g_free (desc);
  fail_unless (all->len > 2 && seeked->len > 0);

  {
    /* the bounds are read when the harness starts the element */
    GstElement *f = gst_element_factory_make ("timefilter", NULL);

    g_object_set (f, "start", b, "end", e, NULL);
    h = gst_harness_new_with_element (f, "sink", "src");
    gst_object_unref (f);
  }
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  for (i = 0; i < all->len && ret == GST_FLOW_OK; i++)
    ret = gst_harness_push (h, gst_buffer_ref (g_ptr_array_index (all, i)));
  /* past the end: EOS to upstream, and downstream */
  fail_unless_equals_int (ret, GST_FLOW_EOS);
  for (;;) {
    GstBuffer *out = gst_harness_try_pull (h);

    if (out == NULL)
      break;
    fail_unless (n_out < seeked->len);
    fail_unless (buffers_equal (out, g_ptr_array_index (seeked, n_out)),
        "packet %u differs from the seeking pipeline's", n_out);
    gst_buffer_unref (out);
    n_out++;
  }
  fail_unless_equals_int (n_out, seeked->len);
  {
    GstEvent *ev;
    gboolean eos = FALSE;

    while ((ev = gst_harness_try_pull_event (h))) {
      if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
        eos = TRUE;
      gst_event_unref (ev);
    }
    fail_unless (eos, "no EOS downstream");
  }
  gst_harness_teardown (h);
  gst_caps_unref (caps);
  g_ptr_array_unref (all);
  g_ptr_array_unref (seeked);
  g_free (t);
}

GST_END_TEST;

/* Truncated or garbled packets give an element error, never a crash. */
GST_START_TEST (test_corrupt_input)
{
  gchar *t = sample_trace ();
  gchar *desc;
  GPtrArray *all;
  GstCaps *caps = NULL;
  guint i, cut, n_error = 0;

  if (t == NULL) {
    g_print ("SKIP %s: no sample trace\n", G_STRFUNC);
    return;
  }
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! appsink name=s "
      "sync=false", t);
  all = collect (desc, &caps);
  g_free (desc);
  fail_unless (all->len > 3);

  for (i = 0; i < 64; i++) {
    /* channel0_0@8192: begins at .383010573, across the window start */
    GstBuffer *orig = g_ptr_array_index (all, 3);
    GstElement *f = gst_element_factory_make ("timefilter", NULL);
    GstHarness *h;
    GstBuffer *bad;
    GstMapInfo m;
    GstFlowReturn ret;

    /* a window across the packet, so that its events are decoded */
    g_object_set (f, "start", "1795307694.383020000", "end",
        "1795307694.383100000", NULL);
    h = gst_harness_new_with_element (f, "sink", "src");
    gst_object_unref (f);
    gst_harness_set_src_caps (h, gst_caps_ref (caps));
    bad = gst_buffer_copy_deep (orig);
    gst_buffer_map (bad, &m, GST_MAP_WRITE);
    if (i < 16) {
      /* truncated */
      cut = (guint) (m.size * i / 16);
      gst_buffer_unmap (bad, &m);
      gst_buffer_resize (bad, 0, cut);
    } else {
      /* garbled bytes after the packet context */
      guint j;

      for (j = 0; j < 8; j++)
        m.data[(100 + (i * 131 + j * 977)) % m.size] ^= 0xA5 + i;
      gst_buffer_unmap (bad, &m);
    }
    ret = gst_harness_push (h, bad);
    fail_unless (ret == GST_FLOW_OK || ret == GST_FLOW_ERROR ||
        ret == GST_FLOW_EOS, "flow %s", gst_flow_get_name (ret));
    if (ret == GST_FLOW_ERROR)
      n_error++;
    gst_harness_teardown (h);
  }
  /* every truncation is caught (the untruncated-size case aside) */
  fail_unless (n_error >= 15, "%u errors", n_error);
  g_print ("  %u of 64 damaged packets refused with an error\n", n_error);
  gst_caps_unref (caps);
  g_ptr_array_unref (all);
  g_free (t);
}

GST_END_TEST;

static Suite *
timefilter_suite (void)
{
  Suite *s = suite_create ("timefilter");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_parse_forms);
  tcase_add_test (tc, test_parse_local_time);
  tcase_add_test (tc, test_format_seconds);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_errors_at_state_change);
  tcase_add_test (tc, test_zero_copy);
  tcase_add_test (tc, test_live_upstream);
  tcase_add_test (tc, test_corrupt_input);
  tcase_add_test (tc, test_windows_sample);
  tcase_add_test (tc, test_windows_reencode);
  tcase_add_test (tc, test_windows_corpus);
  tcase_add_test (tc, test_windows_ctf2);
  tcase_add_test (tc, test_window_ctf2_fixture);
  tcase_add_test (tc, test_windows_other);
  tcase_add_test (tc, test_after_other_sources);
  tcase_add_test (tc, test_windows_extra);
  return s;
}

GST_CHECK_MAIN (timefilter);
