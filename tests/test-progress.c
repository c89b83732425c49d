/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Progress and the time line, on the bundled traces (no corpus needed):
 *
 * - ctfsrc: buffer PTS absolute; POSITION and DURATION in stream time (0
 *   at the trace's first packet), so 0 <= POSITION <= DURATION, below
 *   DURATION after the first packet and DURATION (or near) at the end;
 *   PERCENT likewise; a TIME seek to T is stream time (segment start =
 *   first + T, time = T).
 * - progressreport (gst-plugins-good, format=percent: its TIME unit is
 *   the whole second and these traces last 0.2 s) reports < 100 % early.
 * - timefilter seeks upstream in stream time (ctfsrc pushes only the
 *   packets from the window on) and its DURATION ends at the window's end.
 * - ctfmux: stream time from the earliest input's first packet.
 * - tracecmdsrc: stream time from its first page.
 */
#include <gst/check/gstcheck.h>

typedef struct
{
  GMutex lock;
  GstElement *query_target;     /* asked at every buffer */
  GArray *pos;                  /* gint64, POSITION after each buffer */
  GArray *dur;                  /* gint64, DURATION after each buffer */
  GArray *pct;                  /* gint64, PERCENT POSITION */
  GstClockTime first_pts, last_end, max_end;
  guint n;
} Progress;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Progress * p)
{
  gint64 pos = -1, dur = -1, pct = -1;

  if (p->query_target) {
    if (!gst_element_query_position (p->query_target, GST_FORMAT_TIME, &pos))
      pos = -1;
    if (!gst_element_query_duration (p->query_target, GST_FORMAT_TIME, &dur))
      dur = -1;
    if (!gst_element_query_position (p->query_target, GST_FORMAT_PERCENT,
            &pct))
      pct = -1;
  }
  g_mutex_lock (&p->lock);
  g_array_append_val (p->pos, pos);
  g_array_append_val (p->dur, dur);
  g_array_append_val (p->pct, pct);
  if (p->n == 0 || GST_BUFFER_PTS (buf) < p->first_pts)
    p->first_pts = GST_BUFFER_PTS (buf);
  p->last_end = GST_BUFFER_PTS (buf) + GST_BUFFER_DURATION (buf);
  if (p->n == 0 || p->last_end > p->max_end)
    p->max_end = p->last_end;
  p->n++;
  g_mutex_unlock (&p->lock);
}

static void
progress_init (Progress * p)
{
  memset (p, 0, sizeof (*p));
  g_mutex_init (&p->lock);
  p->pos = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->dur = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->pct = g_array_new (FALSE, FALSE, sizeof (gint64));
}

static void
progress_clear (Progress * p)
{
  g_array_unref (p->pos);
  g_array_unref (p->dur);
  g_array_unref (p->pct);
  g_mutex_clear (&p->lock);
  gst_clear_object (&p->query_target);
}

static gchar *
example (const gchar * name)
{
  const gchar *dir = g_getenv ("GST_CTF_EXAMPLES");

  fail_unless (dir != NULL, "GST_CTF_EXAMPLES is not set");
  return g_build_filename (dir, name, NULL);
}

static void
wait_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  fail_unless (m != NULL, "pipeline timed out");
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (m, &err, NULL);
    fail ("error: %s", err->message);
  }
  gst_message_unref (m);
  gst_object_unref (bus);
}

/* Runs DESC (with a fakesink named `out` and an element named `q`) to
 * EOS, querying `q` at every buffer. */
static void
run_progress (const gchar * desc, Progress * p)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *out;

  fail_unless (pipeline != NULL, "%s: %s", desc, err ? err->message : "");
  out = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  p->query_target = gst_bin_get_by_name (GST_BIN (pipeline), "q");
  fail_unless (out != NULL && p->query_target != NULL);
  g_object_set (out, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  g_signal_connect (out, "handoff", G_CALLBACK (on_handoff), p);
  gst_object_unref (out);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  wait_eos (pipeline);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

/* 0 <= POSITION <= DURATION at every buffer, DURATION = the time from the
 * first packet's begin to the last end; below DURATION after the first
 * packet, DURATION at the end (the last packet's end).  PTS absolute. */
static void
check_queries (const gchar * what, Progress * p, gint64 dur,
    gboolean exact_end)
{
  gint64 last_pos = g_array_index (p->pos, gint64, p->n - 1);
  guint i;

  g_print ("%s: %u packets, duration %" GST_TIME_FORMAT ", position %"
      GST_TIME_FORMAT " after the first, %" GST_TIME_FORMAT " after the "
      "last\n", what, p->n, GST_TIME_ARGS (dur),
      GST_TIME_ARGS (g_array_index (p->pos, gint64, 0)),
      GST_TIME_ARGS (last_pos));
  fail_unless (p->n >= 2, "%s: %u packets", what, p->n);
  fail_unless (p->first_pts > 1000000 * GST_SECOND,
      "%s: PTS are absolute ns since 1970", what);
  for (i = 0; i < p->n; i++) {
    gint64 pos = g_array_index (p->pos, gint64, i);
    gint64 d = g_array_index (p->dur, gint64, i);
    gint64 pct = g_array_index (p->pct, gint64, i);

    fail_unless_equals_int64 (d, dur);
    fail_unless (pos >= 0 && pos <= d, "%s: buffer %u: position %"
        G_GINT64_FORMAT " not in [0, %" G_GINT64_FORMAT "]", what, i, pos, d);
    if (pct != -1)
      fail_unless (pct >= 0 && pct <= GST_FORMAT_PERCENT_MAX);
  }
  fail_unless (g_array_index (p->pos, gint64, 0) < dur,
      "%s: 100 %% after the first packet", what);
  if (exact_end)
    fail_unless_equals_int64 (last_pos, (gint64) (p->last_end -
            p->first_pts));
  fail_unless (last_pos >= dur - dur / 100, "%s: ends at %" G_GINT64_FORMAT
      " of %" G_GINT64_FORMAT, what, last_pos, dur);
}

GST_START_TEST (test_ctfsrc_position_duration)
{
  const gchar *traces[] = { "ust-libc", "ust-sample" };
  guint t;

  for (t = 0; t < G_N_ELEMENTS (traces); t++) {
    gchar *path = example (traces[t]);
    gchar *desc = g_strdup_printf ("ctfsrc name=q location=\"%s\" ! "
        "fakesink name=out", path);
    Progress p;

    progress_init (&p);
    run_progress (desc, &p);
    check_queries (traces[t], &p, p.max_end - p.first_pts, TRUE);
    /* PERCENT: the same fraction, in GST_FORMAT_PERCENT_MAX units */
    fail_unless (g_array_index (p.pct, gint64, 0) <
        GST_FORMAT_PERCENT_MAX, "PERCENT 100 %% after the first packet");
    fail_unless_equals_int64 (g_array_index (p.pct, gint64, p.n - 1),
        gst_util_uint64_scale (p.last_end - p.first_pts,
            GST_FORMAT_PERCENT_MAX, p.max_end - p.first_pts));
    if (t == 1)                 /* ust-sample: 6 packets over 0.2 s */
      fail_unless (g_array_index (p.pos, gint64, 0) <
          (gint64) (p.max_end - p.first_pts) / 10);
    progress_clear (&p);
    g_free (desc);
    g_free (path);
  }
}

GST_END_TEST;

/* A seek to T is in stream time: the segment after it starts at first + T
 * with time T, every packet pushed ends at or after first + T, and the
 * pipeline's POSITION is then T or more.  (Not named `first`: gstcheck's
 * fail_unless_equals_int64() declares a `first`.) */
GST_START_TEST (test_ctfsrc_seek_stream_time)
{
  gchar *path = example ("ust-sample");
  gchar *desc = g_strdup_printf ("ctfsrc name=q location=\"%s\" ! "
      "fakesink name=out sync=false", path);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *out = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstPad *pad = gst_element_get_static_pad (out, "sink");
  GstEvent *ev;
  const GstSegment *seg;
  gint64 dur = -1, pos = -1, begin, t;
  Progress p;

  progress_init (&p);
  g_object_set (out, "signal-handoffs", TRUE, NULL);
  g_signal_connect (out, "handoff", G_CALLBACK (on_handoff), &p);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_query_duration (pipeline, GST_FORMAT_TIME, &dur));
  ev = gst_pad_get_sticky_event (pad, GST_EVENT_SEGMENT, 0);
  fail_unless (ev != NULL);
  gst_event_parse_segment (ev, &seg);
  begin = seg->start;
  fail_unless_equals_int64 (seg->time, 0);
  fail_unless (begin > 1000000 * (gint64) GST_SECOND);
  gst_event_unref (ev);
  /* the pipeline's POSITION (fakesink, prerolled) is stream time too */
  fail_unless (gst_element_query_position (pipeline, GST_FORMAT_TIME, &pos));
  fail_unless (pos >= 0 && pos <= dur, "position %" G_GINT64_FORMAT
      " of %" G_GINT64_FORMAT, pos, dur);

  t = dur / 2;
  fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, t));
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  ev = gst_pad_get_sticky_event (pad, GST_EVENT_SEGMENT, 0);
  gst_event_parse_segment (ev, &seg);
  fail_unless_equals_int64 (seg->start, begin + t);
  fail_unless_equals_int64 (seg->time, t);
  gst_event_unref (ev);
  g_mutex_lock (&p.lock);
  g_array_set_size (p.pos, 0);
  p.n = 0;
  g_mutex_unlock (&p.lock);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  wait_eos (pipeline);
  fail_unless (gst_element_query_position (pipeline, GST_FORMAT_TIME, &pos));
  fail_unless (pos >= t && pos <= dur, "position %" G_GINT64_FORMAT
      " after a seek to %" G_GINT64_FORMAT, pos, t);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (out);
  gst_object_unref (pipeline);
  progress_clear (&p);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

/* progressreport posts `progress` messages: the first one, a second into
 * the run (identity slows the six packets to 0.4 s each), is below 100 %;
 * the last one, at EOS, is 100 %. */
GST_START_TEST (test_progressreport)
{
  gchar *path = example ("ust-sample");
  gchar *desc = g_strdup_printf ("ctfsrc location=\"%s\" ! identity "
      "sleep-time=400000 ! progressreport update-freq=1 format=percent "
      "silent=true ! fakesink", path);
  GstElement *pipeline;
  GstBus *bus;
  gint first = -1, last = -1;
  guint n = 0;

  fail_unless (gst_element_factory_find ("progressreport") != NULL,
      "progressreport (gstreamer1.0-plugins-good) is not available");
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (;;) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    const GstStructure *st;
    gint percent;

    fail_unless (m != NULL);
    if (GST_MESSAGE_TYPE (m) != GST_MESSAGE_ELEMENT) {
      fail_unless (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
      gst_message_unref (m);
      break;
    }
    st = gst_message_get_structure (m);
    if (gst_structure_has_name (st, "progress") &&
        gst_structure_get_int (st, "percent", &percent)) {
      if (n == 0)
        first = percent;
      last = percent;
      n++;
    }
    gst_message_unref (m);
  }
  g_print ("progressreport: %u reports, first %d %%, last %d %%\n", n, first,
      last);
  fail_unless (n >= 2, "%u progress reports", n);
  fail_unless (first >= 0 && first < 50, "first report %d %%", first);
  fail_unless_equals_int (last, 100);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

/* timefilter seeks ctfsrc to the window in stream time: ctfsrc pushes the
 * packet that made it seek, then only the packets ending in or after the
 * window (5 of ust-sample's 6 for this start).  Its DURATION ends at the
 * window's end. */
GST_START_TEST (test_timefilter_stream_time)
{
  gchar *path = example ("ust-sample");
  /* start between the first packet's end and the second's */
  gchar *desc = g_strdup_printf ("ctfsrc name=src location=\"%s\" ! "
      "timefilter name=q start=1795307694.382985344 "
      "end=1795307694.383685364 ! fakesink name=out", path);
  GstElement *pipeline, *src, *f, *out;
  GstStructure *stats = NULL;
  guint64 packets = 0;
  gint64 dur = -1;
  Progress p;

  pipeline = gst_parse_launch (desc, NULL);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  f = gst_bin_get_by_name (GST_BIN (pipeline), "q");
  out = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  progress_init (&p);
  g_object_set (out, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  g_signal_connect (out, "handoff", G_CALLBACK (on_handoff), &p);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  wait_eos (pipeline);
  g_object_get (src, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint64 (stats, "packets", &packets));
  g_print ("timefilter: ctfsrc pushed %" G_GUINT64_FORMAT " packets\n",
      packets);
  fail_unless_equals_int64 (packets, 1 + 5);
  fail_unless (gst_element_query_duration (f, GST_FORMAT_TIME, &dur));
  /* the window's end - the trace's first packet (ust-sample: 54.370660981) */
  fail_unless_equals_int64 (dur, 383685364 - 370660981);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_structure_free (stats);
  gst_object_unref (src);
  gst_object_unref (f);
  gst_object_unref (out);
  gst_object_unref (pipeline);
  progress_clear (&p);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

/* ctfmux of two traces 20 minutes apart: stream time starts at the
 * earlier one, DURATION reaches the later one's end, POSITION follows. */
GST_START_TEST (test_ctfmux_position_duration)
{
  gchar *a = example ("ust-libc");
  gchar *b = example ("ust-sample");
  const gchar *modes[] = { "packets", "events" };
  GstClockTime first = GST_CLOCK_TIME_NONE, end = 0;
  guint m;

  /* the inputs' times, from ctfsrc alone */
  for (m = 0; m < 2; m++) {
    gchar *desc = g_strdup_printf ("ctfsrc name=q location=\"%s\" ! "
        "fakesink name=out", m == 0 ? a : b);
    Progress p;

    progress_init (&p);
    run_progress (desc, &p);
    first = MIN (first, p.first_pts);
    end = MAX (end, p.max_end);
    progress_clear (&p);
    g_free (desc);
  }
  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    gchar *desc = g_strdup_printf ("ctfmux name=q mode=%s ! fakesink "
        "name=out  ctfsrc location=\"%s\" ! q.  ctfsrc location=\"%s\" ! q.",
        modes[m], a, b);
    Progress p;

    progress_init (&p);
    run_progress (desc, &p);
    fail_unless_equals_int64 (p.first_pts, first);
    check_queries (modes[m], &p, end - first, FALSE);
    progress_clear (&p);
    g_free (desc);
  }
  g_free (a);
  g_free (b);
}

GST_END_TEST;

/* ctfmux with a tracecmdsrc input: both inputs answer DURATION, and
 * ctfmux's (from the earliest input's origin to the latest end) holds
 * each of them. */
GST_START_TEST (test_ctfmux_tracecmdsrc_duration)
{
  const gchar *dir = g_getenv ("GST_CTF_TEST_DATA");
  gchar *a = example ("ust-sample");
  gchar *b, *desc;
  GstElement *pipeline, *mux, *src;
  gint64 dur = -1, d_src = -1, d_ctf = -1;

  fail_unless (dir != NULL);
  b = g_build_filename (dir, "tracecmd", "i686-v6.dat", NULL);
  desc = g_strdup_printf ("ctfmux name=q force-correlate=true ! fakesink "
      "ctfsrc name=c location=\"%s\" ! q.  tracecmdsrc name=t "
      "location=\"%s\" ! q.", a, b);
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  mux = gst_bin_get_by_name (GST_BIN (pipeline), "q");
  src = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  fail_unless (gst_element_query_duration (src, GST_FORMAT_TIME, &d_src));
  gst_object_unref (src);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  fail_unless (gst_element_query_duration (src, GST_FORMAT_TIME, &d_ctf));
  gst_object_unref (src);
  fail_unless (gst_element_query_duration (mux, GST_FORMAT_TIME, &dur));
  fail_unless (d_src > 0 && d_ctf > 0);
  fail_unless (dur >= d_src && dur >= d_ctf, "ctfmux %" G_GINT64_FORMAT
      " < an input's (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", dur,
      d_src, d_ctf);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (mux);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (a);
  g_free (b);
}

GST_END_TEST;

/* tracecmdsrc: PTS absolute, POSITION from its first page. */
GST_START_TEST (test_tracecmdsrc_position)
{
  const gchar *dir = g_getenv ("GST_CTF_TEST_DATA");
  gchar *path, *desc;
  Progress p;
  guint i;

  fail_unless (dir != NULL);
  path = g_build_filename (dir, "tracecmd", "i686-v7-zstd.dat", NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS)) {
    g_free (path);
    path = g_build_filename (dir, "tracecmd", "i686-v6.dat", NULL);
  }
  desc = g_strdup_printf ("tracecmdsrc name=q location=\"%s\" ! "
      "fakesink name=out", path);
  progress_init (&p);
  run_progress (desc, &p);
  fail_unless (p.n >= 2);
  for (i = 0; i < p.n; i++) {
    gint64 pos = g_array_index (p.pos, gint64, i);

    fail_unless (pos >= 0 && pos <= (gint64) (p.max_end - p.first_pts),
        "buffer %u: position %" G_GINT64_FORMAT, i, pos);
  }
  g_print ("tracecmdsrc: %u packets, position %" GST_TIME_FORMAT
      " at the end\n", p.n, GST_TIME_ARGS (g_array_index (p.pos, gint64,
              p.n - 1)));
  progress_clear (&p);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

/* tracecmdsrc: DURATION is the trace's last event minus its first packet
 * (the library's time range), POSITION in [0, DURATION]; a flushing
 * seek to half of it goes on from each CPU's page holding that time:
 * about half the packets, from around the middle to the end.
 * Needs a file with many pages: the corpus' sched-irq-timer-wq (zstd). */
GST_START_TEST (test_tracecmdsrc_duration_seek)
{
  const gchar *corpus = g_getenv ("GST_CTF_CORPUS");
  gchar *path, *desc;
  Progress p;
  GstElement *pipeline, *out;
  GstBus *bus;
  GstMessage *m;
  gint64 dur, full_begin;
  guint i, n_full;

  if (!corpus || !g_file_test (corpus, G_FILE_TEST_IS_DIR)) {
    g_print ("SKIP test_tracecmdsrc_duration_seek: GST_CTF_CORPUS not set "
        "or missing\n");
    return;
  }
  path = g_build_filename (corpus, "tracedat",
      "sched-irq-timer-wq.v7-zstd.dat", NULL);
  desc = g_strdup_printf ("tracecmdsrc name=q location=\"%s\" "
      "file-stream=false ! fakesink name=out", path);
  progress_init (&p);
  run_progress (desc, &p);
  dur = g_array_index (p.dur, gint64, 0);
  fail_unless (dur > 0);
  full_begin = p.first_pts;
  n_full = p.n;
  /* the last packet's end is the trace's last event */
  fail_unless_equals_int64 (dur, (gint64) (p.max_end - p.first_pts));
  for (i = 0; i < p.n; i++) {
    gint64 pos = g_array_index (p.pos, gint64, i);

    fail_unless_equals_int64 (g_array_index (p.dur, gint64, i), dur);
    fail_unless (pos >= 0 && pos <= dur);
  }
  progress_clear (&p);

  /* a flushing seek to DURATION / 2 */
  progress_init (&p);
  pipeline = gst_parse_launch (desc, NULL);
  out = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  g_object_set (out, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, dur / 2));
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  g_signal_connect (out, "handoff", G_CALLBACK (on_handoff), &p);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
  gst_message_unref (m);
  g_print ("tracecmdsrc: %u packets, %u after a seek to the middle\n",
      n_full, p.n);
  fail_unless (p.n > 0 && p.n < n_full * 3 / 4, "%u of %u packets", p.n,
      n_full);
  /* the packets after the seek reach the end, and start around the
   * middle (each CPU from its page holding it) */
  fail_unless_equals_uint64 (p.max_end, full_begin + dur);
  fail_unless (p.first_pts > (GstClockTime) full_begin + dur / 4);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (out);
  gst_object_unref (pipeline);
  progress_clear (&p);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

static Suite *
progress_suite (void)
{
  Suite *s = suite_create ("progress");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_ctfsrc_position_duration);
  tcase_add_test (tc, test_ctfsrc_seek_stream_time);
  tcase_add_test (tc, test_progressreport);
  tcase_add_test (tc, test_timefilter_stream_time);
  tcase_add_test (tc, test_ctfmux_position_duration);
  tcase_add_test (tc, test_ctfmux_tracecmdsrc_duration);
  tcase_add_test (tc, test_tracecmdsrc_position);
  tcase_add_test (tc, test_tracecmdsrc_duration_seek);
  return s;
}

GST_CHECK_MAIN (progress);
