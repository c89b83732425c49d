/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tracecmdsrc lttng-compat=true against what lttng-modules records: every
 * corpus and bundled trace.dat is converted to SESSION/kernel and read back
 * with babeltrace2 (and babeltrace 1.5 when installed: same event count);
 * per-(event, CPU) counts equal `trace-cmd report`'s (the oracles), block
 * `rwbs` is lttng-modules' bit mask of the oracle's text, fork ids are the
 * oracle's (pid = tid: the documented fallback), the statedump lists the
 * saved cmdlines, `--stream-intersection` keeps every event of the CPUs'
 * common range, and the event classes both have are laid out as in the
 * real LTTng kernel traces of the corpus (names, order, types, signedness).
 */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "gstctf-metadata.h"
#include "test-util.h"

static gchar *
convert (const gchar * dat, const gchar * out)
{
  GError *err = NULL;
  gchar *desc = g_strdup_printf ("tracecmdsrc location=\"%s\" "
      "lttng-compat=true ! ctfsink location=\"%s\"", dat, out);
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstBus *bus;
  GstMessage *m;
  gchar *ret = NULL;

  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "timeout: %s", desc);
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (m, &err, NULL);
    ret = g_strdup (err->message);
    g_clear_error (&err);
  }
  gst_message_unref (m);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
  return ret;
}

static gchar *
run (const gchar * a0, const gchar * a1, const gchar * a2, const gchar * a3,
    const gchar * a4)
{
  const gchar *argv[] = { a0, a1, a2, a3, a4, NULL };
  gchar *o = NULL, *e = NULL;
  gint status = -1;

  fail_unless (g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_SEARCH_PATH,
          NULL, NULL, &o, &e, &status, NULL));
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s %s: %s", a0,
      a1, e);
  g_free (e);
  return o;
}

/* One babeltrace2 line: "[CYCLES] HOST NAME: { cpu_id = N }, ..." */
typedef struct
{
  guint64 ts;
  gchar *name;
  guint cpu;
  const gchar *line;
} Ev;

static gboolean
parse_ev (const gchar * line, Ev * ev)
{
  const gchar *p = strchr (line, ']'), *c;
  gchar **tok;
  guint i;

  if (line[0] != '[' || !p)
    return FALSE;
  ev->ts = g_ascii_strtoull (line + 1, NULL, 10);
  tok = g_strsplit (p + 2, " ", 3);
  ev->name = NULL;
  for (i = 0; tok[i] && i < 2; i++)
    if (g_str_has_suffix (tok[i], ":")) {
      ev->name = g_strndup (tok[i], strlen (tok[i]) - 1);
      break;
    }
  g_strfreev (tok);
  c = strstr (line, "cpu_id = ");
  ev->cpu = c ? (guint) g_ascii_strtoull (c + 9, NULL, 10) : G_MAXUINT;
  ev->line = line;
  return ev->name != NULL;
}

/* The last top-level `{` of a babeltrace2 line (its payload), strings
 * skipped. */
static const gchar *
bt_payload (const gchar * line)
{
  const gchar *p, *last = line;
  guint depth = 0;
  gboolean quoted = FALSE;

  for (p = line; *p; p++) {
    if (quoted) {
      if (*p == '\\' && p[1])
        p++;
      else if (*p == '"')
        quoted = FALSE;
    } else if (*p == '"') {
      quoted = TRUE;
    } else if (*p == '{') {
      if (depth++ == 0)
        last = p;
    } else if (*p == '}' && depth > 0) {
      depth--;
    }
  }
  return last;
}

/* `NAME = VALUE` of a babeltrace2 line's payload, as text. */
static gchar *
bt_value (const gchar * line, const gchar * name)
{
  gchar *key = g_strdup_printf (" %s = ", name);
  const gchar *p = strstr (bt_payload (line), key);
  gsize n;

  if (!p) {
    g_free (key);
    return NULL;
  }
  p += strlen (key);
  g_free (key);
  n = strcspn (p, ",}");
  return g_strstrip (g_strndup (p, n));
}

/* `NAME=VALUE` of an oracle line. */
static gchar *
oracle_value (const gchar * rest, const gchar * name)
{
  gchar *key = g_strdup_printf (" %s=", name);
  const gchar *p = strstr (rest, key);
  gsize n;

  if (!p) {
    g_free (key);
    return NULL;
  }
  p += strlen (key);
  g_free (key);
  n = strcspn (p, " ");
  return g_strndup (p, n);
}

/* lttng-modules' name of ftrace event SYSTEM:NAME (the documented
 * mapping, written out again here as the specification) */
static gchar *
lttng_name (const gchar * system, const gchar * name)
{
  if (g_str_has_prefix (name, "sys_enter_"))
    return g_strconcat ("syscall_entry_", name + 10, NULL);
  if (g_str_has_prefix (name, "sys_exit_"))
    return g_strconcat ("syscall_exit_", name + 9, NULL);
  if (g_strcmp0 (name, "kfree_skb") == 0)
    return g_strdup ("skb_kfree");
  if (g_strcmp0 (name, "consume_skb") == 0)
    return g_strdup ("skb_consume");
  /* net.h: netif_* -> net_if_*, napi_gro_* -> net_napi_gro_* */
  if (system && !strcmp (system, "net") && g_str_has_prefix (name, "netif_"))
    return g_strconcat ("net_if_", name + 6, NULL);
  if (system && !strcmp (system, "net")
      && g_str_has_prefix (name, "napi_gro_"))
    return g_strconcat ("net_", name, NULL);
  if (system && (!strcmp (system, "irq") || !strcmp (system, "timer")
          || !strcmp (system, "kmem") || !strcmp (system, "power"))) {
    gchar *pre = g_strconcat (system, "_", NULL);
    gboolean has = g_str_has_prefix (name, pre);

    g_free (pre);
    if (!has)
      return g_strconcat (system, "_", name, NULL);
  }
  return g_strdup (name);
}

/* lttng-modules' RWBS_FLAG_* mask of ftrace's rwbs text, letter by letter
 * (kernel blk_fill_rwbs(): [F]OP[E][F][A][S][M]) */
static guint
rwbs_mask (const gchar * s)
{
  guint m = 0, i = 0;

  if (s[0] == 'F' && s[1] && strchr ("WDRFN", s[1])) {
    m |= 1 << 10;
    i = 1;
  }
  switch (s[i]) {
    case 'W':
      m |= 1 << 0;
      break;
    case 'D':
      m |= 1 << 1;
      if (s[i + 1] == 'E') {
        m |= 1 << 7;
        i++;
      }
      break;
    case 'R':
      m |= 1 << 2;
      break;
    case 'F':
      m |= 1 << 8;
      break;
    default:
      break;
  }
  if (s[i])
    i++;
  for (; s[i]; i++)
    m |= s[i] == 'F' ? 1 << 9 : s[i] == 'A' ? 1 << 3 : s[i] == 'S' ? 1 << 5
        : s[i] == 'M' ? 1 << 6 : 0;
  return m;
}

static gint
str_ptr_cmp (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

static void
check_file (const gchar * dat, const gchar * oracle_path)
{
  gchar *tmp = g_dir_make_tmp ("tracecmdsrc-lttng-XXXXXX", NULL);
  gchar *session = g_build_filename (tmp, "session", NULL);
  gchar *out = g_build_filename (session, "kernel", NULL);
  gchar *chan = g_build_filename (out, "channel0_0", NULL);
  gchar *err = convert (dat, out), *text, *inter, *oracle = NULL;
  gchar **lines, **olines;
  GHashTable *system_of = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  GHashTable *ours = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  GHashTable *theirs = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  GHashTable *cmdlines = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  GHashTable *first = g_hash_table_new (NULL, NULL);
  GHashTable *last = g_hash_table_new (NULL, NULL);
  GPtrArray *our_rwbs = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *our_fork = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *their_rwbs = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *their_fork = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *our_tid = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *their_tid = g_ptr_array_new_with_free_func (g_free);
  guint i, n_states = 0, n_events = 0, n_in_range = 0, n_inter = 0;
  guint64 lo = 0, hi = G_MAXUINT64;
  GHashTableIter it;
  gpointer k, v;

  fail_unless (err == NULL, "%s: %s", dat, err);
  /* an LTTng session: SESSION/kernel/{metadata,channel0_N}, read from the
   * session directory */
  fail_unless (g_file_test (chan, G_FILE_TEST_IS_REGULAR), "%s", chan);
  text = run ("babeltrace2", "--clock-cycles", "--no-delta", session, NULL);
  inter = run ("babeltrace2", "--stream-intersection", "--clock-cycles",
      "--no-delta", session);
  lines = g_strsplit (text, "\n", -1);
  /* formats' systems and the saved cmdlines from the side stream */
  for (i = 0; lines[i]; i++) {
    Ev ev;

    if (!parse_ev (lines[i], &ev))
      continue;
    if (!strcmp (ev.name, "tracecmd_event_format")) {
      gchar *sys = bt_value (ev.line, "system"), *nm = bt_value (ev.line,
          "name");
      g_hash_table_replace (system_of, g_strndup (nm + 1, strlen (nm) - 2),
          g_strndup (sys + 1, strlen (sys) - 2));
      g_free (sys);
      g_free (nm);
    } else if (!strcmp (ev.name, "tracecmd_cmdline")) {
      gchar *pid = bt_value (ev.line, "pid"), *comm = bt_value (ev.line,
          "comm");
      gchar *c = g_strndup (comm + 1, MIN (strlen (comm) - 2, 15));
      g_hash_table_add (cmdlines, g_strdup_printf ("%s %s", pid, c));
      g_free (c);
      g_free (pid);
      g_free (comm);
    }
    g_free (ev.name);
  }
  for (i = 0; lines[i]; i++) {
    Ev ev;
    gchar *key;

    if (!parse_ev (lines[i], &ev))
      continue;
    if (g_str_has_prefix (ev.name, "tracecmd_")) {
      g_free (ev.name);
      continue;
    }
    if (!strcmp (ev.name, "lttng_statedump_process_state")) {
      gchar *tid = bt_value (ev.line, "tid"), *pid = bt_value (ev.line,
          "pid"), *nm = bt_value (ev.line, "name");
      gchar *key2 = g_strdup_printf ("%s %.*s", tid, (int) strlen (nm) - 2,
          nm + 1);

      fail_unless_equals_string (tid, pid);
      fail_unless (g_hash_table_remove (cmdlines, key2),
          "%s: statedump task %s not in the saved cmdlines", dat, key2);
      n_states++;
      g_free (key2);
      g_free (tid);
      g_free (pid);
      g_free (nm);
      g_free (ev.name);
      continue;
    }
    if (g_str_has_prefix (ev.name, "lttng_statedump_")) {
      g_free (ev.name);
      continue;
    }
    key = g_strdup_printf ("%s %u", ev.name, ev.cpu);
    g_hash_table_insert (ours, key, GUINT_TO_POINTER (GPOINTER_TO_UINT
            (g_hash_table_lookup (ours, key)) + 1));
    if (!g_hash_table_contains (first, GUINT_TO_POINTER (ev.cpu + 1)))
      g_hash_table_insert (first, GUINT_TO_POINTER (ev.cpu + 1),
          g_memdup2 (&ev.ts, 8));
    g_free (g_hash_table_lookup (last, GUINT_TO_POINTER (ev.cpu + 1)));
    g_hash_table_insert (last, GUINT_TO_POINTER (ev.cpu + 1),
        g_memdup2 (&ev.ts, 8));
    if (g_str_has_prefix (ev.name, "block_")) {
      gchar *r = bt_value (ev.line, "rwbs"), *t = bt_value (ev.line, "tid");
      gchar *c = bt_value (ev.line, "comm");
      if (r)
        g_ptr_array_add (our_rwbs, g_strdup_printf ("%u %s", ev.cpu, r));
      /* block.h's tid (the current task: the oracle's PID column) in the
       * events that record rwbs and the task's comm */
      if (r && c)
        fail_unless (t != NULL, "%s: no tid: %s", dat, ev.line);
      if (t)
        g_ptr_array_add (our_tid, g_strdup_printf ("%s %u %s", ev.name,
                ev.cpu, t));
      g_free (r);
      g_free (t);
      g_free (c);
    }
    if (!strcmp (ev.name, "net_dev_queue")
        || !strcmp (ev.name, "net_if_receive_skb")
        || !strcmp (ev.name, "net_if_rx"))
      /* net_dev_template: the header type a trace.dat cannot know */
      fail_unless (strstr (ev.line, ", network_header_type = ( \"_unknown\" "
              ": container = 0 ), network_header = { { } } }") != NULL,
          "%s: %s", dat, ev.line);
    if (g_str_has_prefix (ev.name, "timer_hrtimer_")) {
      gchar *m = bt_value (ev.line, "mode");
      /* hrtimer_mode labels: "( "HRTIMER_MODE_..." */
      fail_unless (m == NULL || g_str_has_prefix (m, "( \"HRTIMER_MODE_"),
          "%s: %s", dat, ev.line);
      g_free (m);
    }
    if (!strcmp (ev.name, "sched_process_fork")) {
      gchar *a = bt_value (ev.line, "parent_tid"), *b = bt_value (ev.line,
          "parent_pid"), *c = bt_value (ev.line, "child_tid"),
          *d = bt_value (ev.line, "child_pid");

      fail_unless_equals_string (a, b);
      fail_unless_equals_string (c, d);
      g_ptr_array_add (our_fork, g_strdup_printf ("%u %s %s", ev.cpu, a, c));
      g_free (a);
      g_free (b);
      g_free (c);
      g_free (d);
    }
    n_events++;
    g_free (ev.name);
  }
  /* every task of the saved cmdlines is in the statedump */
  fail_unless_equals_int (g_hash_table_size (cmdlines), 0);
  fail_unless (n_states > 0, "%s: no statedump", dat);

  fail_unless (g_file_get_contents (oracle_path, &oracle, NULL, NULL));
  olines = g_strsplit (oracle, "\n", -1);
  for (i = 0; olines[i]; i++) {
    TestReportLine rl;
    gchar *name, *ln, *key;
    gsize n;

    if (!test_report_line_parse (olines[i], &rl))
      continue;
    n = strcspn (rl.rest, ":");
    name = g_strndup (rl.rest, n);
    ln = lttng_name (g_hash_table_lookup (system_of, name), name);
    key = g_strdup_printf ("%s %u", ln, rl.cpu);
    g_hash_table_insert (theirs, key, GUINT_TO_POINTER (GPOINTER_TO_UINT
            (g_hash_table_lookup (theirs, key)) + 1));
    if (g_str_has_prefix (name, "block_")) {
      gchar *r = oracle_value (rl.rest, "rwbs");
      gchar *c = oracle_value (rl.rest, "comm");
      if (r)
        g_ptr_array_add (their_rwbs, g_strdup_printf ("%u %u", rl.cpu,
                rwbs_mask (r)));
      if (r && c)
        g_ptr_array_add (their_tid, g_strdup_printf ("%s %u %ld", ln,
                rl.cpu, rl.pid));
      g_free (r);
      g_free (c);
    }
    if (!strcmp (name, "sched_process_fork")) {
      gchar *a = oracle_value (rl.rest, "parent_pid"),
          *c = oracle_value (rl.rest, "child_pid");
      g_ptr_array_add (their_fork, g_strdup_printf ("%u %s %s", rl.cpu, a,
              c));
      g_free (a);
      g_free (c);
    }
    g_free (name);
    g_free (ln);
    g_free (rl.comm);
  }
  /* per-(event, CPU) counts */
  fail_unless_equals_int (g_hash_table_size (ours),
      g_hash_table_size (theirs));
  g_hash_table_iter_init (&it, theirs);
  while (g_hash_table_iter_next (&it, &k, &v))
    fail_unless_equals_int (GPOINTER_TO_UINT (g_hash_table_lookup (ours, k)),
        GPOINTER_TO_UINT (v));
  /* rwbs and fork ids: the same (CPU, value) multisets */
  g_ptr_array_sort (our_rwbs, str_ptr_cmp);
  g_ptr_array_sort (their_rwbs, str_ptr_cmp);
  fail_unless_equals_int (our_rwbs->len, their_rwbs->len);
  for (i = 0; i < our_rwbs->len; i++)
    fail_unless (!strcmp (g_ptr_array_index (our_rwbs, i),
            g_ptr_array_index (their_rwbs, i)), "%s: rwbs %s vs %s", dat,
        (gchar *) g_ptr_array_index (our_rwbs, i),
        (gchar *) g_ptr_array_index (their_rwbs, i));
  g_ptr_array_sort (our_tid, str_ptr_cmp);
  g_ptr_array_sort (their_tid, str_ptr_cmp);
  fail_unless_equals_int (our_tid->len, their_tid->len);
  for (i = 0; i < our_tid->len; i++)
    fail_unless_equals_string (g_ptr_array_index (our_tid, i),
        g_ptr_array_index (their_tid, i));
  g_ptr_array_sort (our_fork, str_ptr_cmp);
  g_ptr_array_sort (their_fork, str_ptr_cmp);
  fail_unless_equals_int (our_fork->len, their_fork->len);
  for (i = 0; i < our_fork->len; i++)
    fail_unless_equals_string (g_ptr_array_index (our_fork, i),
        g_ptr_array_index (their_fork, i));

  /* --stream-intersection keeps at least the events inside every CPU's
   * [first, last] event range */
  g_hash_table_iter_init (&it, first);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    lo = MAX (lo, *(guint64 *) v);
    hi = MIN (hi, *(guint64 *) g_hash_table_lookup (last, k));
  }
  for (i = 0; lines[i]; i++) {
    Ev ev;

    if (!parse_ev (lines[i], &ev))
      continue;
    if (!g_str_has_prefix (ev.name, "tracecmd_")
        && !g_str_has_prefix (ev.name, "lttng_statedump_") && ev.ts >= lo
        && ev.ts <= hi)
      n_in_range++;
    g_free (ev.name);
  }
  g_strfreev (lines);
  lines = g_strsplit (inter, "\n", -1);
  for (i = 0; lines[i]; i++) {
    Ev ev;

    if (!parse_ev (lines[i], &ev))
      continue;
    if (!g_str_has_prefix (ev.name, "tracecmd_")
        && !g_str_has_prefix (ev.name, "lttng_statedump_"))
      n_inter++;
    g_free (ev.name);
  }
  /* babeltrace 1.5 reads the session too, every event */
  if (test_have_program ("babeltrace")) {
    gchar *b1 = run ("babeltrace", session, NULL, NULL, NULL);
    gchar **l1 = g_strsplit (b1, "\n", -1);
    gchar **l2 = g_strsplit (text, "\n", -1);
    guint n1 = 0, n2 = 0;

    for (i = 0; l1[i]; i++)
      n1 += l1[i][0] == '[';
    for (i = 0; l2[i]; i++)
      n2 += l2[i][0] == '[';
    fail_unless_equals_int (n1, n2);
    g_strfreev (l1);
    g_strfreev (l2);
    g_free (b1);
  }
  if (lo <= hi)
    fail_unless (n_inter >= n_in_range, "%s: --stream-intersection kept %u "
        "events, %u are in the CPUs' common range", dat, n_inter, n_in_range);
  g_print ("tracecmdsrc lttng-compat: %s: %u events, %u statedump tasks, "
      "%u rwbs, %u forks, %u/%u in the common range kept\n", dat, n_events,
      n_states, our_rwbs->len, our_fork->len, n_inter, n_in_range);

  g_strfreev (lines);
  g_strfreev (olines);
  g_free (oracle);
  g_free (text);
  g_free (inter);
  g_hash_table_iter_init (&it, first);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_free (v);
  g_hash_table_iter_init (&it, last);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_free (v);
  g_hash_table_unref (first);
  g_hash_table_unref (last);
  g_hash_table_unref (system_of);
  g_hash_table_unref (ours);
  g_hash_table_unref (theirs);
  g_hash_table_unref (cmdlines);
  g_ptr_array_unref (our_rwbs);
  g_ptr_array_unref (their_rwbs);
  g_ptr_array_unref (our_fork);
  g_ptr_array_unref (their_fork);
  g_ptr_array_unref (our_tid);
  g_ptr_array_unref (their_tid);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (out);
  g_free (session);
  g_free (chan);
}

/* Each DIR/NAME.dat with DIR/oracle/NAME.dat.raw.txt. */
static guint
check_dir (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *n;
  guint count = 0;

  if (!d)
    return 0;
  while ((n = g_dir_read_name (d))) {
    gchar *dat, *raw, *oname;

    if (!g_str_has_suffix (n, ".dat"))
      continue;
    dat = g_build_filename (dir, n, NULL);
    oname = g_strconcat (n, ".raw.txt", NULL);
    raw = g_build_filename (dir, "oracle", oname, NULL);
    if (g_file_test (raw, G_FILE_TEST_EXISTS)) {
      check_file (dat, raw);
      count++;
    }
    g_free (dat);
    g_free (raw);
    g_free (oname);
  }
  g_dir_close (d);
  return count;
}

START_TEST (test_bundled)
{
  const gchar *d = g_getenv ("GST_CTF_TEST_DATA");
  gchar *dir = g_build_filename (d ? d : "tests/data", "tracecmd", NULL);

  if (!test_have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 missing\n", G_STRFUNC);
    g_free (dir);
    return;
  }
  fail_unless (check_dir (dir) >= 4);
  g_free (dir);
}

END_TEST;

START_TEST (test_corpus_files)
{
  gchar *dir, *pub;

  NEED_CORPUS ();
  if (!test_have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 missing\n", G_STRFUNC);
    return;
  }
  dir = test_corpus_path ("tracedat");
  pub = test_corpus_path ("tracedat/public");
  fail_unless (check_dir (dir) + check_dir (pub) >= 7);
  g_free (dir);
  g_free (pub);
}

END_TEST;

/* ---- timefilter keeps the side stream --------------------------------- */

static gchar *
run_desc (const gchar * desc)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstBus *bus;
  GstMessage *m;
  gchar *ret = NULL;

  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "timeout: %s", desc);
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (m, &err, NULL);
    ret = g_strdup (err->message);
    g_clear_error (&err);
  }
  gst_message_unref (m);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return ret;
}

/* Events of @dir: side-stream (tracecmd_*) and statedump process events
 * counted, the others' times (clock seconds text) in @times. */
static void
count_dir (const gchar * dir, guint * n_side, guint * n_states,
    GPtrArray * times)
{
  gchar *text = run ("babeltrace2", "--clock-seconds", "--no-delta", dir,
      NULL);
  gchar **lines = g_strsplit (text, "\n", -1);
  guint i;

  *n_side = *n_states = 0;
  for (i = 0; lines[i]; i++) {
    Ev ev;

    if (!parse_ev (lines[i], &ev))
      continue;
    if (g_str_has_prefix (ev.name, "tracecmd_"))
      (*n_side)++;
    else if (!strcmp (ev.name, "lttng_statedump_process_state"))
      (*n_states)++;
    else if (!g_str_has_prefix (ev.name, "lttng_statedump_"))
      g_ptr_array_add (times, g_strndup (lines[i] + 1,
              strcspn (lines[i] + 1, "]")));
    g_free (ev.name);
  }
  g_strfreev (lines);
  g_free (text);
}

/* tracecmdsrc ! timefilter: a window that does not hold the trace's
 * first time keeps the side stream (cmdlines, kallsyms, formats, ...)
 * and the statedump: after timefilter's seek they come at the window's
 * start. */
START_TEST (test_side_stream_kept)
{
  const gchar *d = g_getenv ("GST_CTF_TEST_DATA");
  gchar *dat = g_build_filename (d ? d : "tests/data", "tracecmd",
      "armv7-v6.dat", NULL);
  gchar *tmp = g_dir_make_tmp ("tracecmdsrc-lttng-XXXXXX", NULL);
  gchar *full = g_build_filename (tmp, "full", NULL);
  gchar *cut = g_build_filename (tmp, "cut", NULL);
  GPtrArray *t_full = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *t_cut = g_ptr_array_new_with_free_func (g_free);
  guint side_full, states_full, side_cut, states_cut, i;
  const gchar *start, *end;
  gchar *desc, *err;

  if (!test_have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 missing\n", G_STRFUNC);
    return;
  }
  err = convert (dat, full);
  fail_unless (err == NULL, "%s", err);
  count_dir (full, &side_full, &states_full, t_full);
  fail_unless (t_full->len > 20 && side_full > 0 && states_full > 0);
  start = g_ptr_array_index (t_full, t_full->len / 2);
  end = g_ptr_array_index (t_full, t_full->len - 1);
  fail_unless (strcmp (start, g_ptr_array_index (t_full, 0)) > 0);
  desc = g_strdup_printf ("tracecmdsrc location=\"%s\" lttng-compat=true ! "
      "timefilter start=%s end=%s ! ctfsink location=\"%s\"", dat, start,
      end, cut);
  err = run_desc (desc);
  fail_unless (err == NULL, "%s: %s", desc, err);
  count_dir (cut, &side_cut, &states_cut, t_cut);
  fail_unless_equals_int (side_cut, side_full);
  fail_unless_equals_int (states_cut, states_full);
  /* the window's events, none before it */
  fail_unless (t_cut->len > 0 && t_cut->len < t_full->len);
  for (i = 0; i < t_cut->len; i++)
    fail_unless (strcmp (g_ptr_array_index (t_cut, i), start) >= 0);
  g_print ("tracecmdsrc lttng-compat ! timefilter start=%s: %u side-stream "
      "events and %u statedump tasks kept, %u of %u events\n", start,
      side_cut, states_cut, t_cut->len, t_full->len);
  g_free (desc);
  g_ptr_array_unref (t_full);
  g_ptr_array_unref (t_cut);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (full);
  g_free (cut);
  g_free (dat);
}

END_TEST;

/* ---- metadata against real LTTng kernel traces ------------------------- */

static const gchar *
strip1 (const gchar * name)
{
  return name[0] == '_' ? name + 1 : name;
}

/* "" when @a (ours) and @b (lttng-modules') are laid out alike, else what
 * differs.  A text array's element signedness is not compared: the two
 * real traces differ on it (lttng-modules 2.5: signed, 2.10: unsigned). */
static gchar *
compare_fc (const GstCtfFieldClass * a, const GstCtfFieldClass * b)
{
  if (a->type != b->type)
    return g_strdup_printf ("type %d vs %d", a->type, b->type);
  switch (a->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (a->integer.size != b->integer.size)
        return g_strdup_printf ("size %u vs %u", a->integer.size,
            b->integer.size);
      if (a->integer.is_signed != b->integer.is_signed
          && b->integer.encoding == GST_CTF_ENCODING_NONE)
        return g_strdup_printf ("signed %d vs %d", a->integer.is_signed,
            b->integer.is_signed);
      return g_strdup ("");
    case GST_CTF_FIELD_CLASS_ARRAY:
      if (a->length != b->length)
        return g_strdup_printf ("length %u vs %u", (guint) a->length,
            (guint) b->length);
      return compare_fc (a->element, b->element);
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      return compare_fc (a->element, b->element);
    default:
      return g_strdup ("");
  }
}

/* Known differences, documented in docs/tracecmdsrc.md: the kernel's
 * sched_stat_runtime lost `vruntime` (6.8), which a trace.dat then does
 * not hold; ftrace's sched_process_exit has `group_dead` (kept) after
 * lttng-modules' three fields; the statedump follows lttng-modules 2.13,
 * the corpus trace that has one is 2.5's. */
static gboolean
known_difference (const GstCtfEventClass * o, const GstCtfEventClass * r)
{
  if (!strcmp (r->name, "sched_stat_runtime"))
    return o->payload->n_members == 3 && r->payload->n_members == 4;
  /* lttng-modules 2.13's (lttng-statedump.h); the corpus has 2.5's */
  if (!strcmp (r->name, "lttng_statedump_process_state"))
    return o->payload->n_members == 10 && r->payload->n_members == 12;
  if (!strcmp (r->name, "sched_process_exit"))
    return o->payload->n_members == 4 && r->payload->n_members == 3;
  return FALSE;
}

/* Compares the event classes of @ours that @lttng_dir has and that are
 * not in @done yet (the newest lttng-modules trace comes first). */
static guint
compare_with (const GstCtfTraceClass * ours, const gchar * lttng_dir,
    GHashTable * done, GString * diffs)
{
  gchar *text = run ("babeltrace2", "--output-format=ctf-metadata",
      lttng_dir, NULL, NULL);
  GError *err = NULL;
  GstCtfTraceClass *ref = gst_ctf_tsdl_parse (text, lttng_dir, &err);
  const GstCtfStreamClass *osc = g_ptr_array_index (ours->stream_classes, 0);
  const GstCtfStreamClass *rsc;
  guint i, j, n = 0;

  fail_unless (ref != NULL, "%s", err ? err->message : "");
  rsc = g_ptr_array_index (ref->stream_classes, 0);
  for (i = 0; i < rsc->event_classes->len; i++) {
    const GstCtfEventClass *r = g_ptr_array_index (rsc->event_classes, i);
    const GstCtfEventClass *o = NULL;

    for (j = 0; j < osc->event_classes->len && !o; j++) {
      const GstCtfEventClass *c = g_ptr_array_index (osc->event_classes, j);
      if (!strcmp (c->name, r->name))
        o = c;
    }
    if (!o || g_hash_table_contains (done, r->name))
      continue;
    g_hash_table_add (done, g_strdup (r->name));
    n++;
    if (known_difference (o, r)) {
      g_print ("tracecmdsrc lttng-compat: %s: %u members, lttng-modules "
          "%u (known, documented)\n", r->name, o->payload->n_members,
          r->payload->n_members);
      continue;
    }
    if (o->payload->n_members != r->payload->n_members)
      g_string_append_printf (diffs, "%s (%s): %u members vs %u\n", r->name,
          lttng_dir, o->payload->n_members, r->payload->n_members);
    for (j = 0; j < MIN (o->payload->n_members, r->payload->n_members); j++) {
      const GstCtfNamedFieldClass *a = &o->payload->members[j];
      const GstCtfNamedFieldClass *b = &r->payload->members[j];
      gchar *why = compare_fc (a->fc, b->fc);

      if (strcmp (strip1 (a->name), strip1 (b->name)) || *why)
        g_string_append_printf (diffs, "%s.%u: %s vs %s %s\n", r->name, j,
            a->name, b->name, why);
      g_free (why);
    }
  }
  gst_ctf_trace_class_unref (ref);
  g_free (text);
  return n;
}

START_TEST (test_metadata_vs_lttng_modules)
{
  const gchar *files[] = { "tracedat/sched-irq-timer-wq.v7-zstd.dat",
    "tracedat/sched-block-net.v6.dat"
  };
  /* lttng-modules 2.10, then 2.5 for the events 2.10's trace lacks */
  const gchar *refs[] = {
    "ctf/babeltrace/succeed/lttng-tracefile-rotation/kernel",
    "ctf/other/tracecompass/flipping-endianness"
  };
  GString *diffs = g_string_new (NULL);
  guint f, r, n = 0;

  NEED_CORPUS ();
  if (!test_have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 missing\n", G_STRFUNC);
    return;
  }
  for (f = 0; f < G_N_ELEMENTS (files); f++) {
    gchar *dat = test_corpus_path (files[f]);
    gchar *tmp = g_dir_make_tmp ("tracecmdsrc-lttng-XXXXXX", NULL);
    gchar *out = g_build_filename (tmp, "ctf", NULL);
    gchar *mp = g_build_filename (out, "metadata", NULL);
    gchar *err = convert (dat, out), *meta = NULL;
    GstCtfTraceClass *ours;
    GError *e = NULL;
    GHashTable *done = g_hash_table_new_full (g_str_hash, g_str_equal,
        g_free, NULL);

    fail_unless (err == NULL, "%s", err);
    fail_unless (g_file_get_contents (mp, &meta, NULL, NULL));
    ours = gst_ctf_tsdl_parse (meta, mp, &e);
    fail_unless (ours != NULL, "%s", e ? e->message : "");
    for (r = 0; r < G_N_ELEMENTS (refs); r++) {
      gchar *rd = test_corpus_path (refs[r]);
      n += compare_with (ours, rd, done, diffs);
      g_free (rd);
    }
    g_hash_table_unref (done);
    gst_ctf_trace_class_unref (ours);
    g_free (meta);
    test_rm_rf (tmp);
    g_free (tmp);
    g_free (out);
    g_free (mp);
    g_free (dat);
  }
  g_print ("tracecmdsrc lttng-compat: %u event classes compared with "
      "lttng-modules' traces\n", n);
  fail_unless (n >= 10, "%u", n);
  fail_unless (diffs->len == 0, "%s", diffs->str);
  g_string_free (diffs, TRUE);
}

END_TEST;

/* ---- env as lttng-modules 2.13 writes it ------------------------------ */

static gchar *
env_str (const GstCtfTraceClass * tc, const gchar * name)
{
  const GstCtfEnvEntry *e = gst_ctf_trace_class_find_env (tc, name);

  fail_unless (e != NULL, "no env %s", name);
  fail_unless (e->is_string, "env %s is not a string", name);
  return e->str;
}

/* lttng-modules' env (hostname, domain, sysname, kernel_release,
 * kernel_version, tracer_*, trace_buffering_scheme, trace_name,
 * trace_creation_datetime): trace_creation_datetime is lttng-tools'
 * "YYYYmmddTHHMMSS+HHMM" of the trace's first second when the file has a
 * DATE option (babeltrace2's sink.ctf.fs accepts it and lays its output
 * out as HOSTNAME/TRACE_NAME-DATETIME/kernel, as for an LTTng trace), ""
 * without one; kernel_version is "" (not in a trace.dat). */
START_TEST (test_env)
{
  static const struct
  {
    const gchar *file, *datetime;
  } cases[] = {
    /* first event 1795676386.397455 (oracle) = 2026-11-26 06:59:46 UTC */
    {"date.v7-zstd.dat", "20261126T065946+0000"},
    {"ts-offset.v7-zstd.dat", ""},
  };
  const gchar *d = g_getenv ("GST_CTF_TEST_DATA");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *dat = g_build_filename (d ? d : "tests/data", "tracecmdsrc",
        cases[i].file, NULL);
    gchar *tmp = g_dir_make_tmp ("tracecmdsrc-lttng-XXXXXX", NULL);
    gchar *out = g_build_filename (tmp, "session", "kernel", NULL);
    gchar *mp = g_build_filename (out, "metadata", NULL);
    gchar *err = convert (dat, out), *meta = NULL;
    GstCtfTraceClass *tc;
    GError *e = NULL;

    fail_unless (err == NULL, "%s", err);
    fail_unless (g_file_get_contents (mp, &meta, NULL, NULL));
    tc = gst_ctf_tsdl_parse (meta, mp, &e);
    fail_unless (tc != NULL, "%s", e ? e->message : "");
    fail_unless_equals_string (env_str (tc, "domain"), "kernel");
    fail_unless_equals_string (env_str (tc, "tracer_name"), "lttng-modules");
    fail_unless_equals_string (env_str (tc, "hostname"), "vm");
    fail_unless_equals_string (env_str (tc, "sysname"), "Linux");
    fail_unless_equals_string (env_str (tc, "kernel_release"),
        "6.18.44-fc-v669");
    fail_unless_equals_string (env_str (tc, "kernel_version"), "");
    fail_unless_equals_string (env_str (tc, "trace_buffering_scheme"),
        "global");
    fail_unless_equals_string (env_str (tc, "trace_name"), "");
    fail_unless_equals_string (env_str (tc, "trace_creation_datetime"),
        cases[i].datetime);
    if (*cases[i].datetime && test_have_program ("babeltrace2")) {
      gchar *session = g_build_filename (tmp, "session", NULL);
      gchar *w = g_build_filename (tmp, "bt2", NULL);
      gchar *dir = g_strdup_printf ("vm/-%s/kernel", cases[i].datetime);
      gchar *expect = g_build_filename (w, dir, "metadata", NULL);
      const gchar *argv[] = { "babeltrace2", session, "-o", "ctf", "-w", w,
        NULL
      };
      gint status = -1;

      fail_unless (g_spawn_sync (NULL, (gchar **) argv, NULL,
              G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
              NULL, NULL, &status, NULL));
      fail_unless (g_spawn_check_wait_status (status, NULL));
      fail_unless (g_file_test (expect, G_FILE_TEST_EXISTS),
          "babeltrace2 sink.ctf.fs did not write %s", expect);
      g_free (expect);
      g_free (dir);
      g_free (w);
      g_free (session);
    }
    gst_ctf_trace_class_unref (tc);
    g_free (meta);
    test_rm_rf (tmp);
    g_free (tmp);
    g_free (out);
    g_free (mp);
    g_free (dat);
  }
}

END_TEST;

static Suite *
tracecmdsrc_lttng_suite (void)
{
  Suite *s = suite_create ("tracecmdsrc-lttng");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_bundled);
  tcase_add_test (tc, test_corpus_files);
  tcase_add_test (tc, test_side_stream_kept);
  tcase_add_test (tc, test_metadata_vs_lttng_modules);
  tcase_add_test (tc, test_env);
  return s;
}

GST_CHECK_MAIN (tracecmdsrc_lttng);
