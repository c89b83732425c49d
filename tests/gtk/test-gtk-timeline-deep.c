/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline at deep zoom and with rows per task, drawn (rendered
 * to a texture, pixels read back as tests/gtk/test-gtk-widgets.c does):
 *
 * - at 10 µs and 1 µs windows, the events the timeline reads on its worker
 *   (gst_ctf_gtk_timeline_get_event_times()) are, lane by lane, the
 *   model's events of that window (whose times are babeltrace2's, see
 *   test-gtk-event-model.c), and a tick is drawn in the column of each
 *   and in no other;
 * - at a few µs around a `sched_switch`, the CPU's colour changes in the
 *   column of the switch's time (from the event's own fields);
 * - with task-rows, each task's row at sampled times shows the colour of
 *   the CPU it runs on, or none, as computed from the `sched_switch`
 *   lines of `trace-cmd report` (babeltrace2's text for an LTTng kernel
 *   trace).
 *
 * Bundled traces always, corpus traces when GST_CTF_CORPUS is there.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gtk/gtk.h>
#include "gstctfgtk.h"
#include "../test-util.h"
#include "gtk-test-util.h"

static const GdkRGBA tick = { 0.08, 0.25, 0.65, 1 };
static const GdkRGBA row_bg = { 0.96, 0.96, 0.97, 1 };

static gchar *
pixel_text (const guchar * px, gint width, gint x, gint y)
{
  const guchar *p = px + ((gsize) y * width + x) * 4;

  return g_strdup_printf ("%02x%02x%02x", p[2], p[1], p[0]);
}

static guint
n_lanes (GstCtfGtkTimeline * tl)
{
  graphene_rect_t area;
  guint j;

  for (j = 0; j < 256; j++) {
    gst_ctf_gtk_timeline_get_lane_area (tl, j, &area);
    if (gst_ctf_gtk_timeline_get_lane_at (tl, area.origin.y + 1) != (gint) j)
      break;
  }
  return j;
}

/* The model's events of [@s, @e): per CPU (index cpu + 1, 0 for none),
 * a GArray of guint64 times. */
static GPtrArray *
model_events (GstCtfGtkEventModel * m, guint64 s, guint64 e)
{
  GPtrArray *by_cpu = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_array_unref);
  guint row = gst_ctf_gtk_event_model_find_row (m, s);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (m));

  for (; row < n; row++) {
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), row);
    guint64 t = gst_ctf_gtk_event_get_timestamp_ns (ev);
    guint k = (guint) (gst_ctf_gtk_event_get_cpu (ev) + 1);

    g_object_unref (ev);
    if (t >= e)
      break;
    while (by_cpu->len <= k)
      g_ptr_array_add (by_cpu, g_array_new (FALSE, FALSE, sizeof (guint64)));
    g_array_append_val (g_ptr_array_index (by_cpu, k), t);
  }
  return by_cpu;
}

static gboolean
same_times (const guint64 * a, gsize na, GArray * b)
{
  return b != NULL && na == b->len && (na == 0 ||
      memcmp (a, b->data, na * sizeof (guint64)) == 0);
}

/* Windows of 10 µs and 1 µs from just before sampled events: the
 * ticks. */
static void
check_ticks (const gchar * path, guint n_windows)
{
  GstCtfGtkEventModel *m = gtk_test_open_loaded (path);
  GtkWidget *tl = gst_ctf_gtk_timeline_new (m);
  GtkWidget *win = gtk_test_show (tl, 1676, 400);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (m));
  guint i, lanes, checked_events = 0, checked_ticks = 0;

  lanes = n_lanes (GST_CTF_GTK_TIMELINE (tl));
  g_assert_cmpuint (lanes, >, 0);
  g_assert_cmpuint (n, >, 0);
  for (i = 0; i < n_windows; i++) {
    guint row = (guint) ((guint64) n * (2 * i + 1) / (2 * n_windows));
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), row);
    guint64 t = gst_ctf_gtk_event_get_timestamp_ns (ev), s, e, span;
    GPtrArray *expect;
    guint lane, used = 0;
    guchar *px;
    gint w, h;

    g_object_unref (ev);
    /* 10 µs from 1 µs before, or 1 µs from 100 ns before */
    span = i % 2 ? 1000 : 10000;
    gst_ctf_gtk_timeline_set_visible_range (GST_CTF_GTK_TIMELINE (tl),
        t - span / 10, t - span / 10 + span);
    gst_ctf_gtk_timeline_get_visible_range (GST_CTF_GTK_TIMELINE (tl), &s,
        &e);
    g_assert_cmpuint (e - s, ==, span);
    expect = model_events (m, s, e);
    px = gtk_test_render (tl, &w, &h);
    g_assert_nonnull (px);
    g_free (px);
    for (lane = 0; lane < lanes; lane++) {
      gsize nt, k;
      guint64 *times = gtk_test_wait_event_times (GST_CTF_GTK_TIMELINE (tl),
          lane, &nt);
      graphene_rect_t area;
      gdouble ns_per_px;
      gint x, y, found = -1;
      gint64 last_col = -1;
      GHashTable *cols = g_hash_table_new (NULL, NULL);

      /* the lane's events are one CPU's (or stream's) events of the
       * model, all of them */
      for (k = 0; k < expect->len; k++)
        if (!(used & (1u << k)) && same_times (times, nt,
                g_ptr_array_index (expect, k))) {
          found = (gint) k;
          break;
        }
      if (found < 0 && nt == 0)
        found = -2;             /* a CPU with no event in the window */
      if (found == -1) {
        g_error ("%s: lane %u of [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
            "): %" G_GSIZE_FORMAT " times (first %" G_GUINT64_FORMAT
            ") match no CPU's events of the model", path, lane, s, e, nt,
            nt ? times[0] : 0);
      }
      if (found >= 0)
        used |= 1u << found;
      checked_events += nt;

      /* drawn: a tick in each column holding one, none elsewhere */
      px = gtk_test_render (tl, &w, &h);
      g_assert_nonnull (px);
      gst_ctf_gtk_timeline_get_lane_area (GST_CTF_GTK_TIMELINE (tl), lane,
          &area);
      ns_per_px = (gdouble) (e - s) / (guint) area.size.width;
      y = (gint) (area.origin.y + area.size.height - 3);
      for (k = 0; k < nt; k++) {
        gint64 col = (gint64) ((gint64) (times[k] - s) / ns_per_px);

        if (col != last_col)
          g_hash_table_add (cols, GINT_TO_POINTER ((gint) col + 1));
        last_col = col;
      }
      for (x = 0; x < (gint) area.size.width; x++) {
        gboolean want = g_hash_table_contains (cols, GINT_TO_POINTER (x + 1));
        gint px_x = (gint) area.origin.x + x;

        if (want != gtk_test_pixel_is (px, w, px_x, y, &tick)) {
          gchar *got = pixel_text (px, w, px_x, y);

          g_error ("%s: lane %u of [%" G_GUINT64_FORMAT ", %"
              G_GUINT64_FORMAT "): column %d is %s, a tick %s expected",
              path, lane, s, e, x, got, want ? "is" : "is not");
        }
        checked_ticks += want;
      }
      g_hash_table_unref (cols);
      g_free (px);
      g_free (times);
    }
    /* every CPU of the model's events is a lane's */
    for (lane = 0; lane < expect->len; lane++)
      if (((GArray *) g_ptr_array_index (expect, lane))->len > 0)
        g_assert_true (used & (1u << lane));
    g_ptr_array_unref (expect);
  }
  /* (each window holds at least its sampled event) */
  g_assert_cmpuint (checked_events, >=, n_windows);
  g_test_message ("%s: %u windows of 10 and 1 us, %u events read and %u tick "
      "columns checked", path, n_windows, checked_events, checked_ticks);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
}

static void
test_deep_ticks (void)
{
  gchar *p = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "armv7-v6.dat", NULL);

  check_ticks (p, 8);
  g_free (p);
  p = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-sample", NULL);
  check_ticks (p, 8);
  g_free (p);
  if (test_corpus () == NULL) {
    g_test_message ("SKIP corpus part: GST_CTF_CORPUS not set or missing");
    return;
  }
  p = test_corpus_path ("tracedat/sched-irq-timer-wq.v7-zstd.dat");
  check_ticks (p, 12);
  g_free (p);
  p = test_corpus_path ("ctf/babeltrace/succeed/multi-domains");
  check_ticks (p, 12);
  g_free (p);
}

/* An integer after @key in babeltrace2's text of the fields. */
static gboolean
field_int (const gchar * fields, const gchar * key, gint * v)
{
  const gchar *at = strstr (fields, key);

  if (at == NULL)
    return FALSE;
  *v = (gint) strtol (at + strlen (key), NULL, 10);
  return TRUE;
}

/* At 4 µs around sampled `sched_switch` events, the CPU lane's colour is
 * the previous task's in the column before the switch's and the next
 * task's in the column after. */
static void
check_switch_edges (const gchar * path, guint max)
{
  GstCtfGtkEventModel *m = gtk_test_open_loaded (path);
  GtkWidget *tl = gst_ctf_gtk_timeline_new (m);
  GtkWidget *win = gtk_test_show (tl, 1676, 400);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (m));
  guint row, checked = 0, step = MAX (n / 400, 1);
  gint lanes = (gint) n_lanes (GST_CTF_GTK_TIMELINE (tl));
  gint lane_of_cpu[64], k;
  gboolean has_cpu[64] = { FALSE, };

  /* the lanes are the CPUs with events, in order */
  for (row = 0; row < n; row++) {
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), row);
    gint cpu = gst_ctf_gtk_event_get_cpu (ev);

    if (cpu >= 0 && cpu < 64)
      has_cpu[cpu] = TRUE;
    g_object_unref (ev);
  }
  for (k = 0, row = 0; k < 64; k++)
    lane_of_cpu[k] = has_cpu[k] ? (gint) row++ : -1;
  g_assert_cmpint ((gint) row, ==, lanes);

  for (row = 0; row < n && checked < max; row += step) {
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), row);
    const gchar *name = gst_ctf_gtk_event_get_name (ev);
    const gchar *fields = gst_ctf_gtk_event_get_fields (ev);
    gint cpu = gst_ctf_gtk_event_get_cpu (ev), prev, next;
    guint64 t = gst_ctf_gtk_event_get_timestamp_ns (ev), s, e;
    graphene_rect_t area;
    GdkRGBA cp, cn;
    guchar *px;
    gint w, h, col, y;

    if (strcmp (name, "sched_switch") != 0 || cpu < 0 || cpu >= 64 ||
        !(field_int (fields, "prev_pid = ", &prev) ||
            field_int (fields, "prev_tid = ", &prev)) ||
        !(field_int (fields, "next_pid = ", &next) ||
            field_int (fields, "next_tid = ", &next)) ||
        prev == next) {
      g_object_unref (ev);
      /* from here, one by one to the next switch */
      if (strcmp (name, "sched_switch") != 0)
        row = row + 1 - step;
      continue;
    }
    g_object_unref (ev);
    gst_ctf_gtk_timeline_set_visible_range (GST_CTF_GTK_TIMELINE (tl),
        t - 2000, t + 2000);
    gst_ctf_gtk_timeline_get_visible_range (GST_CTF_GTK_TIMELINE (tl), &s,
        &e);
    px = gtk_test_render (tl, &w, &h);
    g_assert_nonnull (px);
    gst_ctf_gtk_timeline_get_lane_area (GST_CTF_GTK_TIMELINE (tl),
        (guint) lane_of_cpu[cpu], &area);
    col = (gint) ((gint64) (t - s) / ((gdouble) (e - s) /
            (guint) area.size.width));
    y = (gint) area.origin.y + 3;
    gst_ctf_gtk_task_color (prev, &cp);
    gst_ctf_gtk_task_color (next, &cn);
    if (!gtk_test_pixel_is (px, w, (gint) area.origin.x + col - 1, y,
            &cp) ||
        !gtk_test_pixel_is (px, w, (gint) area.origin.x + col + 1, y,
            &cn)) {
      gchar *a = pixel_text (px, w, (gint) area.origin.x + col - 1, y);
      gchar *b = pixel_text (px, w, (gint) area.origin.x + col + 1, y);

      g_error ("%s: sched_switch at %" G_GUINT64_FORMAT " on CPU %d (%d -> "
          "%d): columns %d and %d are %s and %s", path, t, cpu, prev, next,
          col - 1, col + 1, a, b);
    }
    g_free (px);
    checked++;
  }
  g_assert_cmpuint (checked, >, 3);
  g_test_message ("%s: %u sched_switch edges checked at 4 us", path,
      checked);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
}

static void
test_deep_switches (void)
{
  gchar *p = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "armv7-v6.dat", NULL);

  check_switch_edges (p, 20);
  g_free (p);
  if (test_corpus () == NULL) {
    g_test_message ("SKIP corpus part: GST_CTF_CORPUS not set or missing");
    return;
  }
  p = test_corpus_path ("tracedat/sched-block-net.v6.dat");
  check_switch_edges (p, 30);
  g_free (p);
  /* an LTTng kernel trace (prev_tid/next_tid) */
  p = test_corpus_path ("ctf/babeltrace/succeed/lttng-tracefile-rotation");
  check_switch_edges (p, 30);
  g_free (p);
}

typedef struct {
  guint cpu;
  guint64 ns;                   /* the report's µs, in ns */
  gint prev_pid, next_pid;
} Switch;

/* Which CPU @tid runs on at @ns from the report's switches (-1: none),
 * FALSE when a switch of @tid is within 2 µs (the report's µs are
 * rounded). */
static gboolean
report_task_cpu (GArray * sw, gint tid, guint64 ns, gint * cpu)
{
  gint running[64];
  gboolean seen[64] = { FALSE, };
  guint i;

  *cpu = -1;
  for (i = 0; i < 64; i++)
    running[i] = -1;
  for (i = 0; i < sw->len; i++) {
    const Switch *x = &g_array_index (sw, Switch, i);

    if ((x->prev_pid == tid || x->next_pid == tid) &&
        x->ns + 2000 > ns && x->ns < ns + 2000)
      return FALSE;
    if (x->cpu >= 64)
      continue;
    if (!seen[x->cpu]) {
      running[x->cpu] = x->prev_pid;    /* before its first switch */
      seen[x->cpu] = TRUE;
    }
    if (x->ns <= ns)
      running[x->cpu] = x->next_pid;
  }
  for (i = 0; i < 64; i++)
    if (running[i] == tid)
      *cpu = (gint) i;
  return TRUE;
}

static void
check_task_rows (const gchar * dat, const gchar * oracle, guint max_samples)
{
  GstCtfGtkEventModel *m = gtk_test_open_loaded (dat);
  GtkWidget *tl = gst_ctf_gtk_timeline_new (m);
  GtkWidget *win;
  gchar *text = NULL, **lines;
  GArray *sw = g_array_new (FALSE, FALSE, sizeof (Switch));
  GHashTable *tids = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer key;
  guint i, j, samples = 0, checked = 0, running = 0;
  graphene_rect_t area;
  guint64 t_first;

  g_assert_false (gst_ctf_gtk_timeline_get_task_row_area
      (GST_CTF_GTK_TIMELINE (tl), 1, &area));
  g_object_set (tl, "task-rows", TRUE, NULL);
  win = gtk_test_show (tl, 1200, 400);
  g_assert_true (g_file_get_contents (oracle, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_true (gst_ctf_gtk_event_model_get_time_range (m, &t_first, NULL));
  for (i = 0; lines[i] != NULL; i++) {
    TestReportLine rl;
    const gchar *pp, *np;
    Switch x;
    guint hh, mm, ss;
    guint64 frac;

    /* babeltrace2's text (LTTng kernel): `[HH:MM:SS.NNNNNNNNN] (+D) HOST
     * sched_switch: { cpu_id = C }, { ..., prev_tid = P, ..., next_tid =
     * N, ... }`, the time of day (UTC) of the first event's day */
    if (lines[i][0] == '[' && sscanf (lines[i], "[%u:%u:%u.%" G_GUINT64_FORMAT
            "]", &hh, &mm, &ss, &frac) == 4 &&
        (np = strstr (lines[i], " sched_switch: { cpu_id = ")) != NULL) {
      const guint64 day = G_GUINT64_CONSTANT (86400000000000);
      guint64 tod = ((hh * 60 + mm) * 60 + ss) * G_GUINT64_CONSTANT
          (1000000000) + frac;

      x.cpu = (guint) g_ascii_strtoull (np + 26, NULL, 10);
      x.ns = t_first - t_first % day + tod;
      if (x.ns + day / 2 < t_first)
        x.ns += day;            /* past midnight */
      pp = strstr (np, " prev_tid = ");
      np = strstr (np, " next_tid = ");
      g_assert_true (pp != NULL && np != NULL);
      x.prev_pid = (gint) g_ascii_strtoll (pp + 12, NULL, 10);
      x.next_pid = (gint) g_ascii_strtoll (np + 12, NULL, 10);
      g_array_append_val (sw, x);
      if (x.prev_pid > 0)
        g_hash_table_add (tids, GINT_TO_POINTER (x.prev_pid));
      if (x.next_pid > 0)
        g_hash_table_add (tids, GINT_TO_POINTER (x.next_pid));
      continue;
    }
    if (!test_report_line_parse (lines[i], &rl))
      continue;
    g_free (rl.comm);
    if (!g_str_has_prefix (rl.rest, "sched_switch:") ||
        (pp = strstr (rl.rest, " prev_pid=")) == NULL ||
        (np = strstr (rl.rest, " next_pid=")) == NULL)
      continue;
    x.cpu = rl.cpu;
    x.ns = (rl.secs * 1000000 + rl.usecs) * 1000;
    x.prev_pid = (gint) g_ascii_strtoll (pp + 10, NULL, 10);
    x.next_pid = (gint) g_ascii_strtoll (np + 10, NULL, 10);
    g_array_append_val (sw, x);
    if (x.prev_pid > 0)
      g_hash_table_add (tids, GINT_TO_POINTER (x.prev_pid));
    if (x.next_pid > 0)
      g_hash_table_add (tids, GINT_TO_POINTER (x.next_pid));
  }
  /* a row for each task the switches name, none for the idle task */
  g_hash_table_iter_init (&it, tids);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_assert_true (gst_ctf_gtk_timeline_get_task_row_area
        (GST_CTF_GTK_TIMELINE (tl), GPOINTER_TO_INT (key), &area));
  g_assert_false (gst_ctf_gtk_timeline_get_task_row_area
      (GST_CTF_GTK_TIMELINE (tl), 0, &area));

  for (i = 0; i < sw->len && samples < max_samples; i++) {
    const Switch *a = &g_array_index (sw, Switch, i);
    const Switch *b = NULL;
    guint64 t, d, s, e;
    guchar *px;
    gint w, h;

    for (j = i + 1; j < sw->len; j++)
      if (g_array_index (sw, Switch, j).cpu == a->cpu) {
        b = &g_array_index (sw, Switch, j);
        break;
      }
    if (b == NULL || b->ns < a->ns + 10000)
      continue;
    /* the middle of a span of a CPU, in the middle third of the plot */
    t = a->ns + (b->ns - a->ns) / 2;
    d = b->ns - a->ns;
    gst_ctf_gtk_timeline_set_visible_range (GST_CTF_GTK_TIMELINE (tl),
        a->ns - d, b->ns + d);
    gst_ctf_gtk_timeline_get_visible_range (GST_CTF_GTK_TIMELINE (tl), &s,
        &e);
    px = gtk_test_render (tl, &w, &h);
    g_assert_nonnull (px);
    g_hash_table_iter_init (&it, tids);
    while (g_hash_table_iter_next (&it, &key, NULL)) {
      gint tid = GPOINTER_TO_INT (key), cpu, x, y;
      GdkRGBA c;

      if (!report_task_cpu (sw, tid, t, &cpu))
        continue;
      g_assert_true (gst_ctf_gtk_timeline_get_task_row_area
          (GST_CTF_GTK_TIMELINE (tl), tid, &area));
      x = (gint) (area.origin.x + (gdouble) (t - s) / ((gdouble) (e - s) /
              (guint) area.size.width));
      y = (gint) (area.origin.y + area.size.height / 2);
      g_assert_cmpint (y, <, h);
      if (cpu >= 0)
        gst_ctf_gtk_cpu_color (cpu, &c);
      else
        c = row_bg;
      if (!gtk_test_pixel_is (px, w, x, y, &c) &&
          !gtk_test_pixel_is (px, w, x + 2, y, &c)) {
        gchar *got = pixel_text (px, w, x, y);

        g_error ("%s: task %d at %" G_GUINT64_FORMAT " ns: pixel %s, "
            "expected %s (%02x%02x%02x)", dat, tid, t, got, cpu >= 0 ?
            "its CPU's colour" : "not running", (guint) (c.red * 255 + 0.5),
            (guint) (c.green * 255 + 0.5), (guint) (c.blue * 255 + 0.5));
      }
      checked++;
      running += cpu >= 0;
    }
    g_free (px);
    samples++;
  }
  g_assert_cmpuint (samples, >, 5);
  g_assert_cmpuint (running, >, 5);
  g_test_message ("%s: %u task rows, %u samples, %u task states checked "
      "(%u running)", dat, g_hash_table_size (tids), samples, checked,
      running);
  g_strfreev (lines);
  g_free (text);
  g_array_unref (sw);
  g_hash_table_unref (tids);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
}

static void
test_task_rows (void)
{
  gchar *dat = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "armv7-v6.dat", NULL);
  gchar *o = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "oracle", "armv7-v6.dat.raw.txt", NULL);
  const gchar *corpus[] = { "sched-block-net.v6.dat",
    "sched-irq-timer-wq.v7-zstd.dat"
  };
  guint i;

  check_task_rows (dat, o, 20);
  g_free (dat);
  g_free (o);
  if (test_corpus () == NULL) {
    g_test_message ("SKIP corpus part: GST_CTF_CORPUS not set or missing");
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (corpus); i++) {
    gchar *rel = g_strconcat ("tracedat/", corpus[i], NULL);
    gchar *orel = g_strconcat ("tracedat/oracle/", corpus[i], ".raw.txt",
        NULL);

    dat = test_corpus_path (rel);
    o = test_corpus_path (orel);
    check_task_rows (dat, o, 25);
    g_free (dat);
    g_free (o);
    g_free (rel);
    g_free (orel);
  }
  /* an LTTng kernel trace against babeltrace2's text */
  dat = test_corpus_path ("ctf/babeltrace/succeed/lttng-tracefile-rotation");
  o = test_corpus_path
      ("ctf/babeltrace/oracle/succeed/lttng-tracefile-rotation.txt");
  check_task_rows (dat, o, 25);
  g_free (dat);
  g_free (o);
}

/* How long redraws take (render nodes) at 1600 px with a row per task,
 * from the whole trace down to 1 µs, once the deep zoom's events are
 * read: printed, not asserted (the machine may be shared). */
/* Whether the timeline draws its range from deep zoom: the summary's
 * bins (gst_ctf_gtk_timeline_get_density()) wider than a quarter column. */
static gboolean
deep_expected (GstCtfGtkTimeline * tl)
{
  guint64 res, s, e;
  guint n;
  guint32 *c = gst_ctf_gtk_timeline_get_density (tl, 0, &n, &res);

  g_free (c);
  gst_ctf_gtk_timeline_get_visible_range (tl, &s, &e);
  return n > 0 && res * 4 > (gdouble) (e - s) / n;
}

static void
test_redraw_time (void)
{
  gchar *dat;
  GstCtfGtkEventModel *m;
  GtkWidget *tl, *win;
  guint64 ts, te;
  GArray *times = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble span, *v;
  guint i, k, n;

  if (test_corpus () != NULL)
    dat = test_corpus_path ("tracedat/sched-irq-timer-wq.v7-zstd.dat");
  else
    dat = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
        "armv7-v6.dat", NULL);
  m = gtk_test_open_loaded (dat);
  tl = gst_ctf_gtk_timeline_new (m);
  g_object_set (tl, "task-rows", TRUE, NULL);
  win = gtk_test_show (tl, 1600 + 76, 300);
  g_assert_true (gst_ctf_gtk_event_model_get_time_range (m, &ts, &te));
  for (span = (gdouble) (te - ts); span >= 1000; span /= 2) {
    for (i = 0; i < 4; i++) {
      guint64 s = ts + (guint64) ((te - ts - MIN (span, te - ts)) * i / 4.0);
      GtkSnapshot *snap;
      GskRenderNode *node;
      gsize nt;
      gint64 t0;
      gdouble ms;

      gst_ctf_gtk_timeline_set_visible_range (GST_CTF_GTK_TIMELINE (tl), s,
          s + (guint64) span);
      /* the deep zoom's events read, when the summary's bins are wider
       * than a quarter column */
      for (k = 0; deep_expected (GST_CTF_GTK_TIMELINE (tl)) && k < 2000;
          k++) {
        guint64 *t = gst_ctf_gtk_timeline_get_event_times
            (GST_CTF_GTK_TIMELINE (tl), 0, &nt);

        if (t != NULL) {
          g_free (t);
          break;
        }
        while (g_main_context_iteration (NULL, FALSE));
        g_usleep (1000);
      }
      snap = gtk_snapshot_new ();
      t0 = g_get_monotonic_time ();
      GTK_WIDGET_GET_CLASS (tl)->snapshot (tl, snap);
      node = gtk_snapshot_free_to_node (snap);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (times, ms);
      g_clear_pointer (&node, gsk_render_node_unref);
    }
  }
  v = (gdouble *) times->data;
  n = times->len;
  for (i = 1; i < n; i++)
    for (k = i; k > 0 && v[k - 1] > v[k]; k--) {
      gdouble t = v[k];

      v[k] = v[k - 1];
      v[k - 1] = t;
    }
  g_test_message ("%s: redraw (render nodes) at 1600 px with %u task rows, "
      "%u zoom levels/positions from the whole trace to 1 us: median %.2f "
      "ms, p95 %.2f ms, max %.2f ms", dat, (guint) ((gtk_widget_get_height
              (tl) - 22) / 18), n, v[n / 2], v[n * 95 / 100], v[n - 1]);
  g_array_unref (times);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (m);
  g_free (dat);
}

int
main (int argc, char **argv)
{
  if (!gtk_test_init_display (&argc, &argv))
    return 0;
  g_test_add_func ("/timeline-deep/ticks", test_deep_ticks);
  g_test_add_func ("/timeline-deep/switch-edges", test_deep_switches);
  g_test_add_func ("/timeline-deep/task-rows", test_task_rows);
  g_test_add_func ("/timeline-deep/redraw-time", test_redraw_time);
  return g_test_run ();
}
