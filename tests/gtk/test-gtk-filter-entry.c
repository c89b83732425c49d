/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The viewer's filter entry (GstCtfGtkFilterModel's text: `events=`,
 * `cpus=`, `streams=`, `pids=`, `tids=`, `filter-out=` words and a
 * trace-cmd -F expression, trace-cmd systems included) against ctffilter
 * with the same properties: for each text of the table, over bundled
 * traces and the corpus's (CTF and trace.dat), the model's rows are, event
 * for event (time, name, fields), the lines `SRC ! ctffilter PROPS !
 * ctftextsink` prints, each at the row the unfiltered pipeline prints it.
 * Then the
 * incremental search (GstCtfGtkSearch): next/previous from rows spread
 * over a corpus trace equal a scan of the filter model's rows, and read
 * less than the trace; a cancelled search stops; errors name the column.
 */
#include <string.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include "gstctfgtk.h"
#include "gstctf-error.h"
#include "../test-util.h"

typedef enum {
  IN_EXAMPLES,                  /* examples/traces */
  IN_DATA,                      /* tests/data */
  IN_CORPUS,
} Where;

typedef struct {
  Where where;
  const gchar *rel;
  const gchar *src;             /* ctfsrc, tracecmdsrc */
  const gchar *entry;           /* as typed in the viewer */
  const gchar *props[9];        /* ctffilter's: name, value, ..., NULL */
} Case;

static const Case cases[] = {
  {IN_EXAMPLES, "ust-libc", "ctfsrc", "events=lttng_ust_libc:malloc",
      {"events", "lttng_ust_libc:malloc", NULL}},
  {IN_EXAMPLES, "ust-libc", "ctfsrc",
        "events=lttng_ust_libc:*,!lttng_ust_libc:free "
        "lttng_ust_libc/.*alloc: size > 40",
        {"events", "lttng_ust_libc:*,!lttng_ust_libc:free", "filter",
          "lttng_ust_libc/.*alloc: size > 40", NULL}},
  {IN_EXAMPLES, "ust-sample", "ctfsrc", "tids=5663", {"tids", "5663", NULL}},
  {IN_EXAMPLES, "ust-sample", "ctfsrc", "cpus=1", {"cpus", "1", NULL}},
  {IN_EXAMPLES, "ust-sample", "ctfsrc", "pids=5656 cpus=0 corpus_tp/ints: "
        "s8 > 0", {"pids", "5656", "cpus", "0", "filter",
          "corpus_tp/ints: s8 > 0", NULL}},
  {IN_EXAMPLES, "ust-sample", "ctfsrc",
        "\tevents=corpus_tp:tick,corpus_tp:floats  cpus=0-1 ",
        {"events", "corpus_tp:tick,corpus_tp:floats", "cpus", "0-1", NULL}},
  {IN_CORPUS, "ctf/lttng-ust/pthread-multichan", "ctfsrc",
      "streams=chan_libc_*", {"streams", "chan_libc_*", NULL}},
  {IN_CORPUS, "ctf/lttng-ust/pthread-multichan", "ctfsrc",
        "tids=16991,16993-16994 events=lttng_ust_pthread:*",
        {"tids", "16991,16993-16994", "events", "lttng_ust_pthread:*",
          NULL}},
  {IN_CORPUS, "ctf/lttng-ust/pthread-multichan", "ctfsrc",
      "cpus=0 .*: vtid & 1", {"cpus", "0", "filter", ".*: vtid & 1", NULL}},
  /* trace.dat: trace-cmd systems name events */
  {IN_CORPUS, "tracedat/sched-block-net.v6.dat", "tracecmdsrc",
      "sched/sched_switch", {"filter", "sched/sched_switch", NULL}},
  {IN_CORPUS, "tracedat/sched-block-net.v6.dat", "tracecmdsrc", "sched",
      {"filter", "sched", NULL}},
  {IN_CORPUS, "tracedat/sched-block-net.v6.dat", "tracecmdsrc",
        "block/block_rq_.*: nr_sector > 8",
      {"filter", "block/block_rq_.*: nr_sector > 8", NULL}},
  {IN_CORPUS, "tracedat/sched-block-net.v6.dat", "tracecmdsrc", "cpus=1",
      {"cpus", "1", NULL}},
  {IN_CORPUS, "tracedat/sched-block-net.v6.dat", "tracecmdsrc",
      "pids=19083", {"pids", "19083", NULL}},
  {IN_CORPUS, "tracedat/sched-block-net.v6.dat", "tracecmdsrc",
        "events=sched_* cpus=0 sched_switch: next_pid > 100",
        {"events", "sched_*", "cpus", "0", "filter",
          "sched_switch: next_pid > 100", NULL}},
  {IN_CORPUS, "tracedat/syscalls-kmem.v7-none.dat", "tracecmdsrc",
      "kmem/kmalloc: bytes_req > 64",
      {"filter", "kmem/kmalloc: bytes_req > 64", NULL}},
  {IN_CORPUS, "tracedat/syscalls-kmem.v7-none.dat", "tracecmdsrc",
        "events=kfree,kmem_cache_* tids=18613",
        {"events", "kfree,kmem_cache_*", "tids", "18613", NULL}},
  {IN_DATA, "tracecmd/armv7-v6.dat", "tracecmdsrc", "irq",
      {"filter", "irq", NULL}},
  {IN_DATA, "tracecmd/armv7-v6.dat", "tracecmdsrc",
        "events=softirq_*,sched_* sched",
      {"events", "softirq_*,sched_*", "filter", "sched", NULL}},
  /* filter-out (trace-cmd's -v -F), quoted as gst-launch quotes it */
  {IN_EXAMPLES, "ust-libc", "ctfsrc", "filter-out=lttng_ust_libc/free",
      {"filter-out", "lttng_ust_libc/free", NULL}},
  {IN_EXAMPLES, "ust-libc", "ctfsrc",
        "events=lttng_ust_libc:* filter-out='lttng_ust_libc/malloc: size > "
        "40 || size == 0' lttng_ust_libc/.*alloc",
        {"events", "lttng_ust_libc:*", "filter-out",
          "lttng_ust_libc/malloc: size > 40 || size == 0", "filter",
          "lttng_ust_libc/.*alloc", NULL}},
  {IN_EXAMPLES, "ust-sample", "ctfsrc",
        "cpus=0 filter-out=\"corpus_tp/ints: s8 > 0\"",
      {"cpus", "0", "filter-out", "corpus_tp/ints: s8 > 0", NULL}},
  {IN_CORPUS, "ctf/lttng-ust/pthread-multichan", "ctfsrc",
        "streams=chan_pthread_* filter-out=\".*unlock\"",
      {"streams", "chan_pthread_*", "filter-out", ".*unlock", NULL}},
  {IN_CORPUS, "tracedat/sched-block-net.v6.dat", "tracecmdsrc",
        "filter-out=\"sched_switch: prev_pid == 0 || next_pid == 0\" sched",
        {"filter-out", "sched_switch: prev_pid == 0 || next_pid == 0",
          "filter", "sched", NULL}},
  {IN_CORPUS, "tracedat/syscalls-kmem.v7-none.dat", "tracecmdsrc",
        "events=kmalloc,kfree cpus=1 "
        "filter-out=\"kmem/kmalloc: bytes_req > 64\"",
        {"events", "kmalloc,kfree", "cpus", "1", "filter-out",
          "kmem/kmalloc: bytes_req > 64", NULL}},
  {IN_DATA, "tracecmd/armv7-v6.dat", "tracecmdsrc", "filter-out=irq",
      {"filter-out", "irq", NULL}},
  {IN_DATA, "tracecmd/armv7-v6.dat", "tracecmdsrc",
        "cpus=0 filter-out='sched/sched_switch: prev_state == 0'",
        {"cpus", "0", "filter-out", "sched/sched_switch: prev_state == 0",
          NULL}},
};

static gchar *
case_path (Where where, const gchar * rel)
{
  const gchar *env = where == IN_EXAMPLES ? "GST_CTF_EXAMPLES" :
      "GST_CTF_TEST_DATA";

  if (where == IN_CORPUS)
    return test_corpus_path (rel);
  g_assert_nonnull (g_getenv (env));
  return g_build_filename (g_getenv (env), rel, NULL);
}

/* Runs @pl to EOS (2 minutes at most), failing on an error. */
static void
run_pipeline (GstElement * pl)
{
  GError *err = NULL;
  GstBus *bus = gst_element_get_bus (pl);
  GstMessage *msg;

  g_assert_cmpint (gst_element_set_state (pl, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    g_error ("%s", err->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pl, GST_STATE_NULL);
}

/* ctftextsink's lines (times as seconds since the origin, no delta),
 * through ctffilter with @props when not NULL. */
static GPtrArray *
oracle_lines (const gchar * src, const gchar * path,
    const gchar * const *props)
{
  gchar *dir = g_dir_make_tmp ("gstctf-entry-XXXXXX", NULL);
  gchar *txt = g_build_filename (dir, "out.txt", NULL);
  gchar *desc, *text = NULL, **lines;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GError *err = NULL;
  GstElement *pl;
  guint i;

  desc = g_strdup_printf ("%s name=src %s! ctftextsink no-delta=true "
      "clock-seconds=true name=sink", src, props ? "! ctffilter name=f " :
      "");
  pl = gst_parse_launch (desc, &err);
  g_assert_no_error (err);
  {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pl), "src");

    g_object_set (e, "location", path, NULL);
    gst_object_unref (e);
    e = gst_bin_get_by_name (GST_BIN (pl), "sink");
    g_object_set (e, "location", txt, NULL);
    gst_object_unref (e);
  }
  if (props != NULL) {
    GstElement *f = gst_bin_get_by_name (GST_BIN (pl), "f");

    for (i = 0; props[i] != NULL; i += 2)
      gst_util_set_object_arg (G_OBJECT (f), props[i], props[i + 1]);
    gst_object_unref (f);
  }
  run_pipeline (pl);
  gst_object_unref (pl);
  g_assert_true (g_file_get_contents (txt, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i] != NULL; i++)
    if (lines[i][0] == '[')     /* not the discarded events warnings */
      g_ptr_array_add (out, g_strdup (lines[i]));
  g_strfreev (lines);
  g_free (text);
  g_unlink (txt);
  g_rmdir (dir);
  g_free (txt);
  g_free (dir);
  g_free (desc);
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

/* The row shows the line: its time, its name and its fields (the text
 * after `NAME: `, or nothing after `NAME:`). */
static void
assert_event_is_line (GstCtfGtkEvent * ev, const gchar * line)
{
  const gchar *name = gst_ctf_gtk_event_get_name (ev);
  gchar *with = g_strdup_printf (" %s: ", name), *bare =
      g_strdup_printf (" %s:", name);
  const gchar *at = strstr (line, with);

  if (gst_ctf_gtk_event_has_timestamp (ev))
    g_assert_cmpuint (gst_ctf_gtk_event_get_timestamp_ns (ev), ==,
        line_ns (line));
  if (at != NULL) {
    g_assert_cmpstr (gst_ctf_gtk_event_get_fields (ev), ==,
        at + strlen (with));
  } else {
    g_assert_true (g_str_has_suffix (line, bare));
    g_assert_cmpstr (gst_ctf_gtk_event_get_fields (ev), ==, "");
  }
  g_free (with);
  g_free (bare);
}

static GstCtfGtkEventModel *
loaded_model (const gchar * path)
{
  GError *err = NULL;
  GstCtfGtkEventModel *base = gst_ctf_gtk_event_model_new_for_path (path,
      &err);

  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_event_model_wait (base, &err));
  g_assert_no_error (err);
  return base;
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
  guint i, n;

  if (c->where == IN_CORPUS)
    NEED_CORPUS ();
  path = case_path (c->where, c->rel);
  all = oracle_lines (c->src, path, NULL);
  kept = oracle_lines (c->src, path, c->props);
  g_assert_cmpuint (kept->len, >, 0);
  g_assert_cmpuint (kept->len, <, all->len);

  base = loaded_model (path);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (base)), ==,
      all->len);
  fm = gst_ctf_gtk_filter_model_new (base, c->entry, &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_filter_model_wait (fm, &err));
  g_assert_no_error (err);
  n = g_list_model_get_n_items (G_LIST_MODEL (fm));
  g_test_message ("%s \"%s\": %u of %u rows (ctffilter: %u)", c->rel,
      c->entry, n, all->len, kept->len);
  g_assert_cmpuint (n, ==, kept->len);
  for (i = 0; i < n; i++) {
    guint64 r = gst_ctf_gtk_filter_model_get_base_row (fm, i);
    GstCtfGtkEvent *ev = g_list_model_get_item (G_LIST_MODEL (fm), i);

    g_assert_cmpuint (r, <, all->len);
    if (i > 0)
      g_assert_cmpuint (r, >, gst_ctf_gtk_filter_model_get_base_row (fm,
              i - 1));
    /* the same text at that row of the whole trace */
    g_assert_cmpstr (all->pdata[r], ==, kept->pdata[i]);
    g_assert_nonnull (ev);
    g_assert_cmpuint (gst_ctf_gtk_event_get_index (ev), ==, r);
    assert_event_is_line (ev, kept->pdata[i]);
    g_object_unref (ev);
  }
  g_object_unref (fm);
  g_object_unref (base);
  g_ptr_array_unref (all);
  g_ptr_array_unref (kept);
  g_free (path);
}

/* Errors: the parser's, with the column in the whole text. */
static void
test_errors (void)
{
  static const struct {
    const gchar *text;
    const gchar *says;
  } bad[] = {
    {"cpus=0-x", "cpus= at column 1"},
    {"events=sched_* pids=1,,2", "pids= at column 16"},
    {"cpus=1 cpus=2", "given twice, again at column 8"},
    {"events=a cpus=1 sched_switch: next_pid ==",
        "filter \"events=a cpus=1 sched_switch: next_pid ==\": expected a "
          "number or a quoted string (the right side of a comparison is a "
          "value) at column 42"},
    {"tids=3 sched_switch: (prev_pid == 1", "column 36"},
    {"events=,x", "events= at column 1"},
    {"cpus=0 cpu=1", "unknown setting \"cpu=\" at column 8"},
    {"filter-out=\"sched_switch: next_pid == 1", "quote at column 12 is "
          "not closed"},
    {"filter-out=\"sched_switch: next_pid ==\" sched",
        "filter \"filter-out=\"sched_switch: next_pid ==\" sched\": "
          "expected a number or a quoted string (the right side of a "
          "comparison is a value) at column 38"},
    {"filter-out=a filter-out=b", "given twice, again at column 14"},
  };
  gchar *path = case_path (IN_EXAMPLES, "ust-sample");
  GstCtfGtkEventModel *base = loaded_model (path);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *err = NULL;
    GstCtfGtkFilterModel *fm = gst_ctf_gtk_filter_model_new (base,
        bad[i].text, &err);
    GstCtfGtkSearch *s;

    g_assert_null (fm);
    g_assert_error (err, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX);
    g_test_message ("%s: %s", bad[i].text, err->message);
    if (strstr (err->message, bad[i].says) == NULL)
      g_error ("\"%s\": \"%s\" does not say \"%s\"", bad[i].text,
          err->message, bad[i].says);
    g_clear_error (&err);
    s = gst_ctf_gtk_search_new (base, bad[i].text, &err);
    g_assert_null (s);
    g_assert_error (err, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX);
    g_clear_error (&err);
  }
  g_object_unref (base);
  g_free (path);
}

/* Search next/previous from rows spread over a corpus trace.dat (and
 * before the first row, after the last) against a scan of the filter
 * model's matches. */
static void
check_search (const gchar * rel, const gchar * entry, guint min_checkpoints)
{
  gchar *path;
  GstCtfGtkEventModel *base;
  GstCtfGtkFilterModel *fm;
  GstCtfGtkSearch *s;
  GError *err = NULL;
  guint n_rows, n_matches, i, n_checked = 0, n_small = 0;
  guint64 *matches;
  gint64 from;

  NEED_CORPUS ();
  path = test_corpus_path (rel);
  base = loaded_model (path);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (base));
  g_assert_cmpuint (gst_ctf_gtk_event_model_get_n_checkpoints (base), >=,
      min_checkpoints);
  fm = gst_ctf_gtk_filter_model_new (base, entry, &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_filter_model_wait (fm, &err));
  n_matches = g_list_model_get_n_items (G_LIST_MODEL (fm));
  g_assert_cmpuint (n_matches, >, 0);
  matches = g_new (guint64, n_matches);
  for (i = 0; i < n_matches; i++)
    matches[i] = gst_ctf_gtk_filter_model_get_base_row (fm, i);

  s = gst_ctf_gtk_search_new (base, entry, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (gst_ctf_gtk_search_get_expression (s), ==, entry);
  for (from = -1; from <= (gint64) n_rows; from += from < 0 ? 1 :
      MAX (1, n_rows / 61) + (from % 7)) {
    gint64 want_next = -1, want_prev = -1;
    guint64 got = G_MAXUINT64;
    gboolean found;

    /* brute force over the model's matches */
    for (i = 0; i < n_matches; i++) {
      if ((gint64) matches[i] < from)
        want_prev = (gint64) matches[i];
      if ((gint64) matches[i] > from && want_next < 0)
        want_next = (gint64) matches[i];
    }
    found = gst_ctf_gtk_search_find (s, from, TRUE, NULL, &got, &err);
    g_assert_no_error (err);
    g_assert_cmpint (found, ==, want_next >= 0);
    if (found) {
      guint64 n_read = gst_ctf_gtk_search_get_last_n_read (s);

      g_assert_cmpuint (got, ==, (guint64) want_next);
      /* read from a checkpoint near the row, not the whole trace */
      if ((gint64) got - from < n_rows / 8 && from > 3 * 4096)
        g_assert_cmpuint (n_read, <, n_rows / 2);
      n_small += n_read < n_rows / 2;
    }
    if (from >= 0) {
      found = gst_ctf_gtk_search_find (s, from, FALSE, NULL, &got, &err);
      g_assert_no_error (err);
      g_assert_cmpint (found, ==, want_prev >= 0);
      if (found)
        g_assert_cmpuint (got, ==, (guint64) want_prev);
    }
    n_checked++;
  }
  g_test_message ("%s \"%s\": %u rows, %u matches, %u checkpoints, %u rows "
      "searched from, %u forward finds read less than half the trace",
      rel, entry, n_rows, n_matches,
      gst_ctf_gtk_event_model_get_n_checkpoints (base), n_checked, n_small);
  g_assert_cmpuint (n_checked, >, 50);
  if (min_checkpoints > 1)
    g_assert_cmpuint (n_small, >, n_checked / 2);
  g_free (matches);
  g_object_unref (s);
  g_object_unref (fm);
  g_object_unref (base);
  g_free (path);
}

static void
test_search_sched (void)
{
  check_search ("tracedat/sched-block-net.v6.dat",
      "sched/sched_switch: prev_state == 0", 3);
}

static void
test_search_kmem (void)
{
  check_search ("tracedat/syscalls-kmem.v7-none.dat",
      "events=kfree cpus=1 kmem: bytes_req > 0 || ptr != 0", 3);
}

static void
test_search_filter_out (void)
{
  check_search ("tracedat/sched-block-net.v6.dat",
      "filter-out=\"sched_switch: prev_state == 0\" sched", 3);
}

static void
test_search_ctf (void)
{
  check_search ("ctf/lttng-ust/pthread-multichan",
      "tids=16992 lttng_ust_libc/malloc: size > 200", 1);
}

static void
on_found (GObject * source, GAsyncResult * res, gpointer data)
{
  GAsyncResult **out = data;

  *out = g_object_ref (res);
}

/* The worker: its result comes back in the caller's main context; a
 * cancelled search stops with G_IO_ERROR_CANCELLED. */
static void
test_search_async (void)
{
  gchar *path;
  GstCtfGtkEventModel *base;
  GstCtfGtkSearch *s;
  GAsyncResult *res = NULL;
  GCancellable *cancel;
  GError *err = NULL;
  guint64 got = 0, want = 0;

  NEED_CORPUS ();
  path = test_corpus_path ("tracedat/sched-block-net.v6.dat");
  base = loaded_model (path);
  s = gst_ctf_gtk_search_new (base, "sched_switch", &err);
  g_assert_no_error (err);
  g_assert_true (gst_ctf_gtk_search_find (s, 5000, TRUE, NULL, &want,
          &err));
  gst_ctf_gtk_search_find_async (s, 5000, TRUE, NULL, on_found, &res);
  while (res == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gst_ctf_gtk_search_find_finish (s, res, &got, &err));
  g_assert_no_error (err);
  g_assert_cmpuint (got, ==, want);
  g_clear_object (&res);

  /* no match: it would read to the end; cancelled, it stops */
  g_object_unref (s);
  s = gst_ctf_gtk_search_new (base, "sched_switch: prev_pid == 999999999",
      &err);
  g_assert_no_error (err);
  cancel = g_cancellable_new ();
  g_cancellable_cancel (cancel);
  gst_ctf_gtk_search_find_async (s, -1, TRUE, cancel, on_found, &res);
  while (res == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (gst_ctf_gtk_search_find_finish (s, res, &got, &err));
  g_assert_error (err, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&err);
  g_clear_object (&res);
  /* not cancelled: no match */
  g_assert_false (gst_ctf_gtk_search_find (s, -1, TRUE, NULL, &got, &err));
  g_assert_no_error (err);
  g_assert_cmpuint (gst_ctf_gtk_search_get_last_n_read (s), ==,
      g_list_model_get_n_items (G_LIST_MODEL (base)));
  g_object_unref (cancel);
  g_object_unref (s);
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
    gchar *name = g_strdup_printf ("/gtk/filter-entry/ctffilter/%u", i);

    g_test_add_data_func (name, &cases[i], check_case);
    g_free (name);
  }
  g_test_add_func ("/gtk/filter-entry/errors", test_errors);
  g_test_add_func ("/gtk/filter-entry/search/sched", test_search_sched);
  g_test_add_func ("/gtk/filter-entry/search/kmem", test_search_kmem);
  g_test_add_func ("/gtk/filter-entry/search/filter-out",
      test_search_filter_out);
  g_test_add_func ("/gtk/filter-entry/search/ctf", test_search_ctf);
  g_test_add_func ("/gtk/filter-entry/search/async", test_search_async);
  return g_test_run ();
}
