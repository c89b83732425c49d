/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkFilterModel against ctffilter: for several trace-cmd `-F`
 * expressions (event names, a field comparison, CPU, a pid, a regular
 * expression on a string), on the bundled traces and the corpus's (CTF
 * and trace.dat), the model's rows are the lines that
 * `SRC ! ctffilter filter=EXPR ! ctftextsink` prints, in order, each at
 * the row the unfiltered `SRC ! ctftextsink` prints it.  Search
 * next/previous and go-to-time are checked against the row numbers of
 * those texts; a bad expression gives the parser's GError.
 */
#include <string.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include "gstctfgtk.h"
#include "gstctf-error.h"
#include "../test-util.h"

/* examples/traces of the source tree (tests/meson.build sets it). */
static const gchar *
examples (void)
{
  const gchar *d = g_getenv ("GST_CTF_EXAMPLES");

  g_assert_nonnull (d);
  return d;
}

typedef struct {
  const gchar *rel;             /* below the corpus, or NULL: bundled */
  const gchar *bundled;         /* below examples/traces */
  const gchar *src;             /* ctfsrc, tracecmdsrc */
  const gchar *expr;
} Case;

static const Case cases[] = {
  {NULL, "ust-libc", "ctfsrc", "lttng_ust_libc/malloc: size > 100"},
  {NULL, "ust-libc", "ctfsrc", "lttng_ust_libc/.*alloc"},
  {NULL, "ust-libc", "ctfsrc", "lttng_ust_libc: ptr == 0 || vtid != 10676"},
  {NULL, "ust-sample", "ctfsrc", ".*: CPU == 0"},
  {"ctf/lttng-ust/pthread-multichan", NULL, "ctfsrc", ".*: vtid & 1"},
  {"tracedat/sched-block-net.v6.dat", NULL, "tracecmdsrc",
      "sched_switch: next_pid > 100 && prev_state == 0"},
  {"tracedat/sched-block-net.v6.dat", NULL, "tracecmdsrc", ".*: CPU == 1"},
  {"tracedat/sched-block-net.v6.dat", NULL, "tracecmdsrc",
      ".*: common_pid == 19083"},
  {"tracedat/sched-block-net.v6.dat", NULL, "tracecmdsrc",
      "sched_wakeup.*: comm =~ \"^kworker\""},
  {"tracedat/syscalls-kmem.v7-none.dat", NULL, "tracecmdsrc", "kmalloc"},
};

/* Runs @desc to EOS (2 minutes at most), failing on an error. */
static void
run_pipeline (const gchar * desc)
{
  GError *err = NULL;
  GstElement *pl = gst_parse_launch (desc, &err);
  GstBus *bus;
  GstMessage *msg;

  g_assert_no_error (err);
  g_assert_cmpint (gst_element_set_state (pl, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pl);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    g_error ("%s: %s", desc, err->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pl, GST_STATE_NULL);
  gst_object_unref (pl);
}

/* ctftextsink's lines (times as seconds since the origin, no delta). */
static GPtrArray *
oracle_lines (const gchar * src, const gchar * path, const gchar * expr)
{
  gchar *dir = g_dir_make_tmp ("gstctf-filter-XXXXXX", NULL);
  gchar *txt = g_build_filename (dir, "out.txt", NULL);
  gchar *filter = NULL, *desc, *text = NULL, **lines;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  guint i;

  if (expr != NULL) {
    GString *q = g_string_new (NULL);
    const gchar *p;

    for (p = expr; *p; p++) {
      if (*p == '"' || *p == '\\')
        g_string_append_c (q, '\\');
      g_string_append_c (q, *p);
    }
    filter = g_strdup_printf ("! ctffilter filter=\"%s\" ", q->str);
    g_string_free (q, TRUE);
  }
  desc = g_strdup_printf ("%s location=\"%s\" %s! ctftextsink no-delta=true "
      "clock-seconds=true location=\"%s\"", src, path, filter ? filter : "",
      txt);
  run_pipeline (desc);
  g_assert_true (g_file_get_contents (txt, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (out, g_strdup (lines[i]));
  g_strfreev (lines);
  g_free (text);
  g_unlink (txt);
  g_rmdir (dir);
  g_free (txt);
  g_free (dir);
  g_free (desc);
  g_free (filter);
  return out;
}

/* `[SEC.NNNNNNNNN]` of a line, in ns. */
static guint64
line_ns (const gchar * line)
{
  gchar *end;
  guint64 s, ns;

  g_assert_cmpint (line[0], ==, '[');
  s = g_ascii_strtoull (line + 1, &end, 10);
  g_assert_cmpint (*end, ==, '.');
  ns = g_ascii_strtoull (end + 1, NULL, 10);
  return s * G_GUINT64_CONSTANT (1000000000) + ns;
}

static void
check_case (gconstpointer data)
{
  const Case *c = data;
  gchar *path;
  GPtrArray *all, *kept;
  GstCtfGtkEventModel *base;
  GstCtfGtkFilterModel *fm;
  GError *err = NULL;
  GArray *oracle;
  guint i, j, n;

  if (c->rel != NULL) {
    NEED_CORPUS ();
    path = test_corpus_path (c->rel);
  } else {
    path = g_build_filename (examples (), c->bundled, NULL);
  }
  all = oracle_lines (c->src, path, NULL);
  kept = oracle_lines (c->src, path, c->expr);
  g_assert_cmpuint (kept->len, >, 0);
  g_assert_cmpuint (kept->len, <, all->len);

  /* the oracle's rows: kept is a subsequence of all */
  oracle = g_array_new (FALSE, FALSE, sizeof (guint));
  for (i = 0, j = 0; i < all->len && j < kept->len; i++)
    if (strcmp (all->pdata[i], kept->pdata[j]) == 0) {
      g_array_append_val (oracle, i);
      j++;
    }
  g_assert_cmpuint (oracle->len, ==, kept->len);

  base = gst_ctf_gtk_event_model_new_for_path (path, &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_event_model_wait (base, &err));
  g_assert_no_error (err);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (base)), ==,
      all->len);

  fm = gst_ctf_gtk_filter_model_new (base, c->expr, &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_filter_model_wait (fm, &err));
  g_assert_no_error (err);
  g_assert_false (gst_ctf_gtk_filter_model_get_loading (fm));
  n = g_list_model_get_n_items (G_LIST_MODEL (fm));
  g_test_message ("%s %s: %u of %u rows", c->rel ? c->rel : c->bundled,
      c->expr, n, all->len);
  g_assert_cmpuint (n, ==, kept->len);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (fm)) ==
      GST_CTF_GTK_TYPE_EVENT);

  for (i = 0; i < n; i++) {
    guint64 r = gst_ctf_gtk_filter_model_get_base_row (fm, i);

    g_assert_cmpuint (r, <, all->len);
    if (i > 0)
      g_assert_cmpuint (r, >, gst_ctf_gtk_filter_model_get_base_row (fm,
              i - 1));
    /* the same text at that row (identical lines may swap) */
    g_assert_cmpstr (all->pdata[r], ==, kept->pdata[i]);
    g_assert_cmpuint (gst_ctf_gtk_filter_model_find_position (fm, r), ==, i);
  }
  /* items are the base model's, at the right rows (a few) */
  for (i = 0; i < n; i += MAX (1, n / 20)) {
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (fm), i);

    g_assert_nonnull (ev);
    g_assert_cmpuint (gst_ctf_gtk_event_get_index (ev), ==,
        gst_ctf_gtk_filter_model_get_base_row (fm, i));
    if (gst_ctf_gtk_event_has_timestamp (ev))
      g_assert_cmpuint (gst_ctf_gtk_event_get_timestamp_ns (ev), ==,
          line_ns (kept->pdata[i]));
    g_object_unref (ev);
  }
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (fm), n));

  /* search next/previous from rows spread over the trace */
  for (i = 0; i < all->len; i += MAX (1, all->len / 97)) {
    gint want_next = -1, want_prev = -1;
    guint64 got;

    for (j = 0; j < oracle->len; j++) {
      guint o = g_array_index (oracle, guint, j);

      if (o < i)
        want_prev = o;
      if (o > i && want_next < 0)
        want_next = o;
    }
    if (want_next < 0) {
      g_assert_false (gst_ctf_gtk_filter_model_find_next (fm, i, &got));
    } else {
      g_assert_true (gst_ctf_gtk_filter_model_find_next (fm, i, &got));
      g_assert_cmpstr (all->pdata[got], ==, all->pdata[want_next]);
      g_assert_cmpuint (got, >, i);
    }
    if (want_prev < 0) {
      g_assert_false (gst_ctf_gtk_filter_model_find_previous (fm, i, &got));
    } else {
      g_assert_true (gst_ctf_gtk_filter_model_find_previous (fm, i, &got));
      g_assert_cmpstr (all->pdata[got], ==, all->pdata[want_prev]);
      g_assert_cmpuint (got, <, i);
    }
  }

  /* go to time: the first row at or after the time of kept rows, and of
   * 1 ns after them */
  for (i = 0; i < kept->len; i += MAX (1, kept->len / 50)) {
    guint64 t = line_ns (kept->pdata[i]);
    guint want = 0, want1 = 0, got;

    while (want < all->len && line_ns (all->pdata[want]) < t)
      want++;
    want1 = want;
    while (want1 < all->len && line_ns (all->pdata[want1]) < t + 1)
      want1++;
    got = gst_ctf_gtk_event_model_find_row (base, t);
    g_assert_cmpuint (got, ==, want);
    got = gst_ctf_gtk_event_model_find_row (base, t + 1);
    g_assert_cmpuint (got, ==, want1);
  }

  g_object_unref (fm);
  g_object_unref (base);
  g_array_unref (oracle);
  g_ptr_array_unref (all);
  g_ptr_array_unref (kept);
  g_free (path);
}

static void
test_bad_expression (void)
{
  gchar *path = g_build_filename (examples (), "ust-sample",
      NULL);
  GError *err = NULL;
  GstCtfGtkEventModel *base = gst_ctf_gtk_event_model_new_for_path (path,
      &err);
  GstCtfGtkFilterModel *fm;

  g_assert_no_error (err);
  fm = gst_ctf_gtk_filter_model_new (base, "sched_switch: next_pid ==", &err);
  g_assert_null (fm);
  g_assert_error (err, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX);
  g_assert_nonnull (strstr (err->message, "column"));
  g_clear_error (&err);
  fm = gst_ctf_gtk_filter_model_new (base, "sched_switch: (next_pid == 1",
      &err);
  g_assert_null (fm);
  g_assert_error (err, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX);
  g_clear_error (&err);
  g_object_unref (base);
  g_free (path);
}

/* Disposing a model whose thread is still reading stops the thread. */
static void
test_dispose_early (void)
{
  gchar *path = g_build_filename (examples (), "ust-libc",
      NULL);
  GError *err = NULL;
  GstCtfGtkEventModel *base = gst_ctf_gtk_event_model_new_for_path (path,
      &err);
  GstCtfGtkFilterModel *fm;

  g_assert_no_error (err);
  fm = gst_ctf_gtk_filter_model_new (base, ".*", &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_filter_model_get_base (fm) == base);
  g_assert_cmpstr (gst_ctf_gtk_filter_model_get_expression (fm), ==, ".*");
  g_object_unref (fm);
  g_object_unref (base);
  g_free (path);
}

static void
count_added (GListModel * m, guint pos, guint removed, guint added,
    guint * total)
{
  g_assert_cmpuint (pos, ==, *total);
  g_assert_cmpuint (removed, ==, 0);
  *total += added;
}

/* Made while the base model still indexes: the matches are published in
 * batches, in order, never beyond the base model's rows, and end equal to
 * those of a filter made on the loaded model. */
static void
test_before_base_loaded (void)
{
  gchar *path;
  GError *err = NULL;
  GstCtfGtkEventModel *base;
  GstCtfGtkFilterModel *early, *late;
  guint total = 0, i, n;
  GMainContext *ctx = g_main_context_default ();

  NEED_CORPUS ();
  path = test_corpus_path ("tracedat/sched-block-net.v6.dat");
  base = gst_ctf_gtk_event_model_new_for_path (path, &err);
  g_assert_no_error (err);
  early = gst_ctf_gtk_filter_model_new (base, ".*: CPU == 1", &err);
  g_assert_no_error (err);
  g_signal_connect (early, "items-changed", G_CALLBACK (count_added), &total);
  while (gst_ctf_gtk_filter_model_get_loading (early)) {
    g_main_context_iteration (ctx, TRUE);
    n = g_list_model_get_n_items (G_LIST_MODEL (early));
    if (n > 0)
      g_assert_cmpuint (gst_ctf_gtk_filter_model_get_base_row (early, n - 1),
          <, g_list_model_get_n_items (G_LIST_MODEL (base)));
  }
  g_assert_true (gst_ctf_gtk_filter_model_wait (early, &err));
  g_assert_no_error (err);
  n = g_list_model_get_n_items (G_LIST_MODEL (early));
  g_assert_cmpuint (total, ==, n);
  g_assert_cmpuint (n, ==, 6733);       /* ctffilter's count (oracle/6) */

  late = gst_ctf_gtk_filter_model_new (base, ".*: CPU == 1", &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_filter_model_wait (late, &err));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (late)), ==, n);
  for (i = 0; i < n; i++)
    g_assert_cmpuint (gst_ctf_gtk_filter_model_get_base_row (late, i), ==,
        gst_ctf_gtk_filter_model_get_base_row (early, i));
  g_object_unref (late);
  g_object_unref (early);
  g_object_unref (base);
  g_free (path);
}

int
main (int argc, char **argv)
{
  guint i;

  gst_init (NULL, NULL);
  g_test_init (&argc, &argv, NULL);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *name = g_strdup_printf ("/gtk/filter-model/oracle/%u", i);

    g_test_add_data_func (name, &cases[i], check_case);
    g_free (name);
  }
  g_test_add_func ("/gtk/filter-model/bad-expression", test_bad_expression);
  g_test_add_func ("/gtk/filter-model/dispose-early", test_dispose_early);
  g_test_add_func ("/gtk/filter-model/before-base-loaded",
      test_before_base_loaded);
  return g_test_run ();
}
