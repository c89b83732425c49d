/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkEventModel against the reference tools: the row count and
 * 300 random rows (time, name, CPU, fields text) equal babeltrace2's text
 * for CTF traces (bundled ones and the corpus's), and `trace-cmd report`
 * (time, name, CPU) for trace.dat files; errors reach the caller as
 * GErrors.  The rows are asked for in random order, so that the cursor
 * seeks back and forth over the checkpoint index.
 */
#include <string.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include "gstctfgtk.h"
#include "gstctf-error.h"
#include "../test-util.h"
#include "gtk-test-util.h"

#define N_SAMPLES 300

/* The rows to look at: all of them for a small trace, else N_SAMPLES
 * random ones plus the first and the last, in random order. */
static GArray *
sample_rows (guint n)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));
  guint i;

  if (n <= N_SAMPLES) {
    for (i = 0; i < n; i++) {
      guint r = n - 1 - i;      /* backwards: every block seeks */

      g_array_append_val (rows, r);
    }
    return rows;
  }
  for (i = 0; i < N_SAMPLES; i++) {
    guint r = (guint) g_test_rand_int_range (0, (gint32) n);

    g_array_append_val (rows, r);
  }
  i = n - 1;
  g_array_append_val (rows, i);
  i = 0;
  g_array_append_val (rows, i);
  return rows;
}

static void
check_against_bt2 (const gchar * unit, const gchar * trace,
    const gchar * oracle)
{
  GstCtfGtkEventModel *m = gtk_test_open_loaded (trace);
  GPtrArray *lines = gtk_test_read_lines (oracle);
  GArray *rows;
  guint i, n = g_list_model_get_n_items (G_LIST_MODEL (m));

  if (n != lines->len)
    g_error ("%s: %u rows, babeltrace2 printed %u events", unit, n,
        lines->len);
  rows = sample_rows (n);
  for (i = 0; i < rows->len; i++) {
    guint r = g_array_index (rows, guint, i);
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), r);

    g_assert_nonnull (ev);
    g_assert_cmpuint (gst_ctf_gtk_event_get_index (ev), ==, r);
    gtk_test_check_line (unit, r, ev, g_ptr_array_index (lines, r));
    g_object_unref (ev);
  }
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (m), n));
  g_test_message ("%s: %u rows, %u checked, %u checkpoints", unit, n,
      rows->len, gst_ctf_gtk_event_model_get_n_checkpoints (m));
  g_array_unref (rows);
  g_ptr_array_unref (lines);
  g_object_unref (m);
}

static void
check_against_report (const gchar * unit, const gchar * dat,
    const gchar * oracle)
{
  GstCtfGtkEventModel *m = gtk_test_open_loaded (dat);
  GPtrArray *all = gtk_test_read_lines (oracle), *lines = g_ptr_array_new ();
  GArray *rows;
  guint i, n = g_list_model_get_n_items (G_LIST_MODEL (m));
  TestReportLine rl;

  for (i = 0; i < all->len; i++) {
    if (test_report_line_parse (g_ptr_array_index (all, i), &rl)) {
      g_ptr_array_add (lines, g_ptr_array_index (all, i));
      g_free (rl.comm);
    }
  }
  if (n != lines->len)
    g_error ("%s: %u rows, trace-cmd report printed %u events", unit, n,
        lines->len);
  rows = sample_rows (n);
  for (i = 0; i < rows->len; i++) {
    guint r = g_array_index (rows, guint, i);
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), r);
    const gchar *line = g_ptr_array_index (lines, r);
    const gchar *name = gst_ctf_gtk_event_get_name (ev);
    guint64 ns = gst_ctf_gtk_event_get_timestamp_ns (ev);

    g_assert_true (test_report_line_parse (line, &rl));
    /* trace-cmd report rounds to the nearest microsecond */
    if (rl.secs * 1000000 + rl.usecs != (ns + 500) / 1000 ||
        rl.cpu != (guint) gst_ctf_gtk_event_get_cpu (ev) ||
        !(g_str_has_prefix (rl.rest, name) && rl.rest[strlen (name)] == ':'))
      g_error ("%s row %u: %" G_GUINT64_FORMAT " ns, cpu %d, %s; "
          "trace-cmd report: %s", unit, r, ns,
          gst_ctf_gtk_event_get_cpu (ev), name, line);
    g_free (rl.comm);
    g_object_unref (ev);
  }
  g_test_message ("%s: %u rows, %u checked, %u checkpoints", unit, n,
      rows->len, gst_ctf_gtk_event_model_get_n_checkpoints (m));
  g_array_unref (rows);
  g_ptr_array_unref (lines);
  g_ptr_array_unref (all);
  g_object_unref (m);
}

static void
test_bundled_ctf (void)
{
  const gchar *ex = g_getenv ("GST_CTF_EXAMPLES");
  const gchar *data = g_getenv ("GST_CTF_TEST_DATA");
  const struct {
    const gchar *dir, *trace, *oracle;
  } units[] = {
    {ex, "ust-sample", "ust-sample.babeltrace2-2.1.txt"},
    {ex, "ust-libc", "ust-libc.babeltrace2.txt"},
    {data, "ctf2/kinds", "ctf2/kinds.txt"},
    {data, "ctf2/utf", "ctf2/utf.txt"},
    {data, "ctf2/windows", "ctf2/windows.txt"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    gchar *t = g_build_filename (units[i].dir, units[i].trace, NULL);
    gchar *o = g_build_filename (units[i].dir, units[i].oracle, NULL);

    check_against_bt2 (units[i].trace, t, o);
    g_free (t);
    g_free (o);
  }
}

static void
test_bundled_tracedat (void)
{
  const gchar *names[] = { "armv7-v6.dat", "armv7-v7-none.dat",
    "i686-v6.dat", "i686-v7-zstd.dat"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *dat = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"),
        "tracecmd", names[i], NULL);
    gchar *oname = g_strconcat (names[i], ".raw.txt", NULL);
    gchar *o = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
        "oracle", oname, NULL);

    check_against_report (names[i], dat, o);
    g_free (dat);
    g_free (oname);
    g_free (o);
  }
}

static gboolean
need_corpus (void)
{
  if (test_corpus () != NULL)
    return TRUE;
  g_test_skip ("GST_CTF_CORPUS not set or missing");
  return FALSE;
}

static void
test_corpus_ctf (void)
{
  const struct {
    const gchar *trace, *oracle;
  } units[] = {
    /* 2.1.2's text where it differs from 2.0.4's (enum labels, empty
     * strings of recycled events) */
    {"ctf/lttng-ust/custom-2cpu", "ctf/lttng-ust/oracle-bt2.1/custom-2cpu.txt"},
    {"ctf/lttng-ust/pthread-multichan",
        "ctf/lttng-ust/oracle-bt2.1/pthread-multichan.txt"},
    {"ctf/lttng-ust/dl-statedump",
        "ctf/lttng-ust/oracle-bt2.1/dl-statedump.txt"},
    {"ctf/lttng-ust/libc-ls", "ctf/lttng-ust/oracle/libc-ls.txt"},
    /* kernel + UST traces below one directory, merged */
    {"ctf/babeltrace/succeed/multi-domains",
        "ctf/babeltrace/oracle/succeed/multi-domains.txt"},
    {"ctf/babeltrace/succeed/lttng-tracefile-rotation",
        "ctf/babeltrace/oracle/succeed/lttng-tracefile-rotation.txt"},
    {"ctf/other/tracecompass/flipping-endianness",
        "ctf/other/oracle/tracecompass/flipping-endianness.txt"},
  };
  guint i;

  if (!need_corpus ())
    return;
  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    gchar *t = test_corpus_path (units[i].trace);
    gchar *o = test_corpus_path (units[i].oracle);

    check_against_bt2 (units[i].trace, t, o);
    g_free (t);
    g_free (o);
  }
}

static void
test_corpus_tracedat (void)
{
  const gchar *names[] = {
    "tracedat/sched-irq-timer-wq.v7-zstd.dat",
    "tracedat/syscalls-kmem.v7-none.dat",
    "tracedat/sched-block-net.v6.dat",
    "tracedat/mixed.v7-zlib.dat",
    "tracedat/public/elainecole__kernel-monitor-framework__trace.dat",
    "tracedat/public/hebel23__driver__trace.dat",
  };
  guint i;

  if (!need_corpus ())
    return;
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *dat = test_corpus_path (names[i]);
    gchar *dir = g_path_get_dirname (dat);
    gchar *base = g_path_get_basename (dat);
    gchar *oname = g_strconcat (base, ".raw.txt", NULL);
    gchar *o = g_build_filename (dir, "oracle", oname, NULL);

    check_against_report (names[i], dat, o);
    g_free (dat);
    g_free (dir);
    g_free (base);
    g_free (oname);
    g_free (o);
  }
}

/* The running task of each CPU from `trace-cmd report`'s sched_switch
 * lines against the model's, at the middle of 300 random spans between
 * two switches of a CPU (report times are rounded to the µs: spans
 * shorter than 4 µs are left out). */
typedef struct {
  guint cpu;
  guint64 us;
  gint next_pid;
  gchar *next_comm;
} Switch;

static void
switch_clear (Switch * s)
{
  g_free (s->next_comm);
}

static guint
check_running_tasks (const gchar * unit, const gchar * dat,
    const gchar * oracle)
{
  GstCtfGtkEventModel *m = gtk_test_open_loaded (dat);
  GPtrArray *lines = gtk_test_read_lines (oracle);
  GArray *sw = g_array_new (FALSE, FALSE, sizeof (Switch));
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (guint));
  guint i, j, checked = 0;
  TestReportLine rl;

  g_array_set_clear_func (sw, (GDestroyNotify) switch_clear);
  for (i = 0; i < lines->len; i++) {
    const gchar *nc, *np;
    Switch s;

    if (!test_report_line_parse (g_ptr_array_index (lines, i), &rl))
      continue;
    g_free (rl.comm);
    if (!g_str_has_prefix (rl.rest, "sched_switch:"))
      continue;
    nc = strstr (rl.rest, " next_comm=");
    np = nc ? strstr (nc, " next_pid=") : NULL;
    g_assert_nonnull (np);
    s.cpu = rl.cpu;
    s.us = rl.secs * 1000000 + rl.usecs;
    s.next_comm = g_strndup (nc + 11, np - (nc + 11));
    s.next_pid = (gint) g_ascii_strtoll (np + 10, NULL, 10);
    g_array_append_val (sw, s);
  }
  /* spans: a switch and the next one of its CPU */
  for (i = 0; i < sw->len; i++) {
    const Switch *a = &g_array_index (sw, Switch, i);

    for (j = i + 1; j < sw->len; j++) {
      const Switch *b = &g_array_index (sw, Switch, j);

      if (b->cpu != a->cpu)
        continue;
      if (b->us > a->us + 4)
        g_array_append_val (spans, i);
      break;
    }
  }
  g_assert_cmpuint (spans->len, >, 0);
  for (i = 0; i < MIN (spans->len, N_SAMPLES); i++) {
    guint k = spans->len <= N_SAMPLES ? i :
        (guint) g_test_rand_int_range (0, (gint32) spans->len);
    const Switch *a = &g_array_index (sw, Switch, g_array_index (spans,
            guint, k));
    guint64 ns = a->us * 1000 + 2000;   /* 2 µs after the switch */
    gint tid;
    const gchar *comm = gst_ctf_gtk_event_model_get_running_task (m,
        (gint) a->cpu, ns, &tid);

    if (tid != a->next_pid || g_strcmp0 (comm, a->next_comm) != 0)
      g_error ("%s: CPU %u at %" G_GUINT64_FORMAT " ns: model %s-%d, "
          "trace-cmd report %s-%d", unit, a->cpu, ns, comm, tid,
          a->next_comm, a->next_pid);
    checked++;
  }
  g_test_message ("%s: %u sched_switch, running task checked at %u times",
      unit, sw->len, checked);
  g_array_unref (spans);
  g_array_unref (sw);
  g_ptr_array_unref (lines);
  g_object_unref (m);
  return checked;
}

static void
test_running_task (void)
{
  gchar *dat = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "armv7-v6.dat", NULL);
  gchar *o = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "oracle", "armv7-v6.dat.raw.txt", NULL);
  const gchar *names[] = {
    "tracedat/sched-irq-timer-wq.v7-zstd.dat",
    "tracedat/sched-block-net.v6.dat",
    "tracedat/mixed.v7-zlib.dat",
    "tracedat/public/elainecole__kernel-monitor-framework__trace.dat",
  };

  check_running_tasks ("armv7-v6.dat", dat, o);
  g_free (dat);
  g_free (o);
  if (!need_corpus ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *d = test_corpus_path (names[i]);
    gchar *dir = g_path_get_dirname (d);
    gchar *base = g_path_get_basename (d);
    gchar *oname = g_strconcat (base, ".raw.txt", NULL);
    gchar *or = g_build_filename (dir, "oracle", oname, NULL);

    g_assert_cmpuint (check_running_tasks (names[i], d, or), >, 10);
    g_free (d);
    g_free (dir);
    g_free (base);
    g_free (oname);
    g_free (or);
  }
}

/* An LTTng 0.x trace of the corpus against `lttng0src ! ctftextsink` (the
text babeltrace2 prints for the CTF that lttng0src makes; LTTV's own
dump has another form), and its rows found from its start (no
checkpoints). */
static void
test_corpus_lttng0 (void)
{
  gchar *tmp, *tarball, *dir, *txt, *desc, *errmsg = NULL;
  gchar *argv[] = { (gchar *) "tar", (gchar *) "xzf", NULL, (gchar *) "-C",
    NULL, NULL
  };
  gint status = -1;

  if (!need_corpus ())
    return;
  tmp = g_dir_make_tmp ("gstctf-gtk-XXXXXX", NULL);
  tarball = test_corpus_path ("ltt0/trace-15316events_nolost_newformat.tar.gz");
  argv[2] = tarball;
  argv[4] = tmp;
  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, NULL, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  dir = g_build_filename (tmp, "trace-15316events_nolost_newformat", NULL);
  txt = g_build_filename (tmp, "text.txt", NULL);
  desc = g_strdup_printf ("lttng0src location=\"%s\" ! ctftextsink "
      "location=\"%s\"", dir, txt);
  {
    GError *err = NULL;
    GstElement *pl = gst_parse_launch (desc, &err);
    GstBus *bus;
    GstMessage *msg;

    g_assert_no_error (err);
    gst_element_set_state (pl, GST_STATE_PLAYING);
    bus = gst_element_get_bus (pl);
    msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    g_assert_nonnull (msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, &errmsg);
      g_error ("%s: %s", desc, err->message);
    }
    gst_message_unref (msg);
    gst_object_unref (bus);
    gst_element_set_state (pl, GST_STATE_NULL);
    gst_object_unref (pl);
  }
  check_against_bt2 ("ltt0/trace-15316events_nolost_newformat", dir, txt);
  test_rm_rf (tmp);
  g_free (desc);
  g_free (txt);
  g_free (dir);
  g_free (tarball);
  g_free (tmp);
}

static void
expect_open_error (const gchar * path, gint code)
{
  GError *err = NULL;
  GstCtfGtkEventModel *m = gst_ctf_gtk_event_model_new_for_path (path, &err);

  g_assert_null (m);
  g_assert_error (err, GST_CTF_ERROR, code);
  g_test_message ("%s: %s", path, err->message);
  g_error_free (err);
}

/* A copy of the bundled ust-sample trace with the packet magic at
 * @offset of channel0_0 zeroed. */
static gchar *
corrupt_copy (gsize offset)
{
  gchar *tmp = g_dir_make_tmp ("gstctf-gtk-XXXXXX", NULL);
  gchar *src = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-sample",
      "ust", "uid", "0", "64-bit", NULL);
  const gchar *names[] = { "metadata", "channel0_0", "channel0_1" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *from = g_build_filename (src, names[i], NULL);
    gchar *to = g_build_filename (tmp, names[i], NULL);
    gchar *data;
    gsize len;

    g_assert_true (g_file_get_contents (from, &data, &len, NULL));
    if (i == 1) {
      g_assert_cmpuint (offset + 4, <=, len);
      memset (data + offset, 0, 4);
    }
    g_assert_true (g_file_set_contents (to, data, len, NULL));
    g_free (data);
    g_free (from);
    g_free (to);
  }
  g_free (src);
  return tmp;
}

static void
test_errors (void)
{
  gchar *tmp = g_dir_make_tmp ("gstctf-gtk-XXXXXX", NULL);
  gchar *missing = g_build_filename (tmp, "missing", NULL);
  gchar *notes = g_build_filename (tmp, "notes.txt", NULL);
  gchar *first = corrupt_copy (0);
  gchar *later = corrupt_copy (8192);
  GstCtfGtkEventModel *m;
  GError *err = NULL;
  guint n;

  expect_open_error (missing, GST_CTF_ERROR_IO);
  expect_open_error (tmp, GST_CTF_ERROR_NO_TRACE);
  g_assert_true (g_file_set_contents (notes, "no trace here\n", -1, NULL));
  expect_open_error (notes, GST_CTF_ERROR_TRACEDAT);
  /* the first packet: at once */
  expect_open_error (first, GST_CTF_ERROR_PACKET);
  /* a later packet: the rows before it, then the error, naming the
   * stream file */
  m = gst_ctf_gtk_event_model_new_for_path (later, &err);
  g_assert_no_error (err);
  g_assert_false (gst_ctf_gtk_event_model_wait (m, &err));
  g_assert_error (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET);
  g_assert_nonnull (strstr (err->message, "channel0_0"));
  g_assert_nonnull (gst_ctf_gtk_event_model_get_error (m));
  g_test_message ("%s", err->message);
  g_clear_error (&err);
  n = g_list_model_get_n_items (G_LIST_MODEL (m));
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, 358);
  {
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), n - 1);

    g_assert_nonnull (ev);
    g_object_unref (ev);
  }
  g_object_unref (m);
  test_rm_rf (first);
  test_rm_rf (later);
  test_rm_rf (tmp);
  g_free (first);
  g_free (later);
  g_free (notes);
  g_free (missing);
  g_free (tmp);
}

/* The rows come in batches while loading, and a model dropped while it
 * loads stops its thread. */
static guint n_changes;
static guint n_added;

static void
on_items_changed (GListModel * list, guint pos, guint removed, guint added,
    gpointer data)
{
  g_assert_cmpuint (removed, ==, 0);
  g_assert_cmpuint (pos, ==, n_added);
  n_changes++;
  n_added += added;
}

static void
test_batches (void)
{
  gchar *t;
  GstCtfGtkEventModel *m;
  GError *err = NULL;

  t = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-libc", NULL);
  m = gst_ctf_gtk_event_model_new_for_path (t, &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_event_model_get_loading (m));
  n_changes = n_added = 0;
  g_signal_connect (m, "items-changed", G_CALLBACK (on_items_changed), NULL);
  g_assert_true (gst_ctf_gtk_event_model_wait (m, &err));
  g_assert_cmpuint (n_added, ==, g_list_model_get_n_items (G_LIST_MODEL (m)));
  /* far fewer signals than events */
  g_assert_cmpuint (n_changes, >=, 1);
  g_assert_cmpuint (n_changes, <=, 1 + n_added / 1024);
  g_object_unref (m);
  /* dropped at once */
  m = gst_ctf_gtk_event_model_new_for_path (t, &err);
  g_assert_no_error (err);
  g_object_unref (m);
  g_free (t);
}

static void
test_fields_variant (void)
{
  gchar *t = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-sample",
      NULL);
  GstCtfGtkEventModel *m = gtk_test_open_loaded (t);
  GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (m), 0);
  GVariant *v = gst_ctf_gtk_event_dup_fields_variant (ev);
  GVariant *payload, *ctx;
  guint64 u64;
  gint64 vpid;
  gchar *procname = NULL;

  /* babeltrace2: corpus_tp:ints: { cpu_id = 0 }, { vpid = 5656, vtid =
   * 5662, procname = "ustwork" }, { s8 = 0, ..., u64 =
   * 18446744073709551615, ... } */
  g_assert_cmpstr (gst_ctf_gtk_event_get_name (ev), ==, "corpus_tp:ints");
  payload = g_variant_lookup_value (v, "event.fields", G_VARIANT_TYPE_VARDICT);
  g_assert_nonnull (payload);
  g_assert_true (g_variant_lookup (payload, "u64", "t", &u64));
  g_assert_cmpuint (u64, ==, G_MAXUINT64);
  ctx = g_variant_lookup_value (v, "stream.event.context",
      G_VARIANT_TYPE_VARDICT);
  g_assert_nonnull (ctx);
  g_assert_true (g_variant_lookup (ctx, "vpid", "x", &vpid));
  g_assert_cmpint (vpid, ==, 5656);
  g_assert_true (g_variant_lookup (ctx, "procname", "s", &procname));
  g_assert_cmpstr (procname, ==, "ustwork");
  g_free (procname);
  g_variant_unref (ctx);
  g_variant_unref (payload);
  g_variant_unref (v);
  g_object_unref (ev);
  g_object_unref (m);
  g_free (t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  gst_init (NULL, NULL);        /* lttng0src ! ctftextsink, the oracle */
  g_test_add_func ("/event-model/bundled-ctf", test_bundled_ctf);
  g_test_add_func ("/event-model/bundled-tracedat", test_bundled_tracedat);
  g_test_add_func ("/event-model/corpus-ctf", test_corpus_ctf);
  g_test_add_func ("/event-model/corpus-tracedat", test_corpus_tracedat);
  g_test_add_func ("/event-model/corpus-lttng0", test_corpus_lttng0);
  g_test_add_func ("/event-model/running-task", test_running_task);
  g_test_add_func ("/event-model/errors", test_errors);
  g_test_add_func ("/event-model/batches", test_batches);
  g_test_add_func ("/event-model/fields-variant", test_fields_variant);
  return g_test_run ();
}
