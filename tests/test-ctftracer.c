/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctftracer: real pipelines run with GST_TRACERS in a child process (this
 * program with --child), then the trace is read back with ctfsrc !
 * ctftextsink, babeltrace2 2.0.4 (Debian) and ../shared/tools/
 * babeltrace2-2.1, and compared with what happened: buffer counts per
 * pad, PTS sequences, queue levels within their limits, latencies equal
 * to the core `latency` tracer's on the same run, a SIGKILLed live
 * pipeline, a writer too slow for the pipeline (events discarded and
 * counted, no blocking), an occupied directory (refused, untouched).
 */
#include <gst/check/gstcheck.h>

#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "test-util.h"

static gchar *self_exe;
static gchar *plugin_dir;       /* the children's system plugins */

/* The system plugins the children load (a private directory of links,
 * with its own registry): core elements, videotestsrc, videoconvert, the
 * core tracers.  Whether the video ones are there. */
static gboolean
make_plugin_dir (void)
{
  const gchar *sys = g_getenv ("GST_CTF_SYSTEM_PLUGINS");
  const gchar *names[] = { "coreelements", "videotestsrc",
    "videoconvertscale", "coretracers"
  };
  gboolean all = TRUE;
  guint i;

  plugin_dir = g_strdup_printf ("%s/ctftracer-plugins-%d", g_get_tmp_dir (),
      (int) getpid ());
  test_rm_rf (plugin_dir);
  g_mkdir_with_parents (plugin_dir, 0755);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *f = g_strdup_printf ("libgst%s.so", names[i]);
    gchar *src = g_build_filename (sys ? sys : "", f, NULL);
    gchar *dst = g_build_filename (plugin_dir, f, NULL);

    if (sys != NULL && g_file_test (src, G_FILE_TEST_EXISTS))
      fail_unless (symlink (src, dst) == 0);
    else
      all = FALSE;
    g_free (f);
    g_free (src);
    g_free (dst);
  }
  return all;
}

#define NEED_VIDEO() G_STMT_START {                                     \
  if (!make_plugin_dir ()) {                                            \
    g_print ("SKIP %s: videotestsrc, videoconvertscale or coretracers " \
        "not in GST_CTF_SYSTEM_PLUGINS\n", G_STRFUNC);                  \
    test_rm_rf (plugin_dir);                                            \
    return;                                                             \
  }                                                                     \
} G_STMT_END

/* ---- the child: run @desc to EOS (or forever) ---- */

static int
child_main (const gchar * desc)
{
  GstElement *pipeline;
  GError *err = NULL;
  GstBus *bus;
  GstMessage *msg;
  int rc = 1;

  gst_init (NULL, NULL);
  pipeline = gst_parse_launch (desc, &err);
  if (pipeline == NULL) {
    g_printerr ("child: %s\n", err->message);
    return 2;
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS)
    rc = 0;
  if (msg != NULL)
    gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  gst_deinit ();
  return rc;
}

/* Starts the child with GST_TRACERS=@tracers (and @extra_env, NULL or
 * "NAME=VALUE" strings); its pid in *pid when @pid, else waits and
 * returns its exit status with stderr in *err_out. */
static gint
run_child (const gchar * tracers, const gchar * const *extra_env,
    const gchar * desc, GPid * pid, gchar ** err_out)
{
  gchar *argv[] = { self_exe, (gchar *) "--child", (gchar *) desc, NULL };
  gchar **env = g_get_environ ();
  GError *err = NULL;
  gint status = -1;

  env = g_environ_setenv (env, "GST_TRACERS", tracers, TRUE);
  if (plugin_dir != NULL) {
    gchar *reg = g_build_filename (plugin_dir, "registry.bin", NULL);

    env = g_environ_setenv (env, "GST_PLUGIN_SYSTEM_PATH_1_0", plugin_dir,
        TRUE);
    env = g_environ_setenv (env, "GST_REGISTRY", reg, TRUE);
    g_free (reg);
  }
  env = g_environ_unsetenv (env, "CK_FORK");
  for (; extra_env != NULL && *extra_env != NULL; extra_env++) {
    gchar **kv = g_strsplit (*extra_env, "=", 2);

    env = g_environ_setenv (env, kv[0], kv[1], TRUE);
    g_strfreev (kv);
  }
  if (pid != NULL) {
    fail_unless (g_spawn_async (NULL, argv, env, G_SPAWN_DO_NOT_REAP_CHILD,
            NULL, NULL, pid, &err), "%s", err ? err->message : "");
  } else {
    fail_unless (g_spawn_sync (NULL, argv, env, 0, NULL, NULL, NULL,
            err_out, &status, &err), "%s", err ? err->message : "");
  }
  g_strfreev (env);
  return status;
}

static gchar *
new_dir (const gchar * name)
{
  gchar *d = g_build_filename (g_get_tmp_dir (), name, NULL);
  gchar *p = g_strdup_printf ("%s-%d", d, (int) getpid ());

  g_free (d);
  test_rm_rf (p);
  return p;
}

/* ---- reading the trace back ---- */

static gchar *
textsink_text (const gchar * dir)
{
  gchar *out = g_strconcat (dir, ".txt", NULL);
  gchar *desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctftextsink "
      "location=\"%s\"", dir, out);
  gchar *errmsg = NULL, *text = NULL;

  fail_unless (test_run_pipeline (desc, &errmsg), "%s", errmsg);
  fail_unless (g_file_get_contents (out, &text, NULL, NULL));
  g_unlink (out);
  g_free (out);
  g_free (desc);
  return text;
}

/* babeltrace2 @tool's text of @dir (exit status in *status). */
static gchar *
bt_text (const gchar * tool, const gchar * dir, gint * status,
    gchar ** err_out)
{
  gchar *argv[] = { (gchar *) tool, (gchar *) dir, NULL };
  gchar **env = test_oracle_environ ();
  gchar *out = NULL;

  fail_unless (g_spawn_sync (NULL, argv, env, G_SPAWN_SEARCH_PATH, NULL,
          NULL, &out, err_out, status, NULL));
  g_strfreev (env);
  return out;
}

static gchar *
bt21_tool (void)
{
  const gchar *c = test_corpus ();
  gchar *p;

  if (c == NULL)
    return NULL;
  p = g_build_filename (c, "..", "tools", "babeltrace2-2.1", NULL);
  if (!g_file_test (p, G_FILE_TEST_IS_EXECUTABLE))
    g_clear_pointer (&p, g_free);
  return p;
}

/* ctftextsink's text equals babeltrace2 2.0.4's and 2.1's. */
static gchar *
read_and_compare (const gchar * dir, gboolean ctf2)
{
  gchar *text = textsink_text (dir), *bt, *tool;
  gint status;

  if (!ctf2 && test_have_program ("babeltrace2")) {
    bt = bt_text ("babeltrace2", dir, &status, NULL);
    fail_unless (g_spawn_check_wait_status (status, NULL),
        "babeltrace2 failed on %s", dir);
    fail_unless_equals_string (bt, text);
    g_free (bt);
  }
  tool = bt21_tool ();
  if (tool != NULL) {
    bt = bt_text (tool, dir, &status, NULL);
    fail_unless (g_spawn_check_wait_status (status, NULL),
        "babeltrace2 2.1 failed on %s", dir);
    fail_unless_equals_string (bt, text);
    g_free (bt);
    g_free (tool);
  } else {
    g_print ("SKIP babeltrace2-2.1 check: GST_CTF_CORPUS not set or no "
        "../shared/tools/babeltrace2-2.1\n");
  }
  return text;
}

/* Trace Compass's CTF reader (../shared/tools/tracecompass-ctf) reads
 * @dir to the end and counts @n_events events. */
static void
check_tracecompass (const gchar * dir, guint n_events)
{
  const gchar *c = test_corpus ();
  gchar *tool, *out = NULL, *want;
  gint status;

  if (c == NULL || !test_have_program ("java")) {
    g_print ("SKIP Trace Compass check: GST_CTF_CORPUS not set or no java\n");
    return;
  }
  tool = g_build_filename (c, "..", "tools", "tracecompass-ctf",
      "ctfcheck.sh", NULL);
  if (g_file_test (tool, G_FILE_TEST_IS_EXECUTABLE)) {
    gchar *argv[] = { tool, (gchar *) dir, NULL };

    fail_unless (g_spawn_sync (NULL, argv, NULL, 0, NULL, NULL, &out, NULL,
            &status, NULL));
    fail_unless (g_spawn_check_wait_status (status, NULL), "%s", out);
    want = g_strdup_printf ("\nevents: %u\n", n_events);
    fail_unless (strstr (out, want) != NULL, "%s", out);
    fail_unless (strstr (out, "non-monotonic timestamps: 0") != NULL);
    g_free (want);
    g_free (out);
  } else {
    g_print ("SKIP Trace Compass check: no %s\n", tool);
  }
  g_free (tool);
}

/* One event line: its name and the "{ ... }" of its payload. */
typedef struct
{
  gchar *name;
  guint64 thread;
  gchar *fields;
} Ev;

static GPtrArray *
parse_events (const gchar * text)
{
  GPtrArray *a = g_ptr_array_new ();
  GRegex *re = g_regex_new ("\\) ([a-z_]+): \\{ thread_id = ([0-9]+) \\}, "
      "(\\{ .* \\})$", G_REGEX_MULTILINE, 0, NULL);
  GMatchInfo *mi;

  g_regex_match (re, text, 0, &mi);
  while (g_match_info_matches (mi)) {
    Ev *e = g_new0 (Ev, 1);
    gchar *th = g_match_info_fetch (mi, 2);

    e->name = g_match_info_fetch (mi, 1);
    e->thread = g_ascii_strtoull (th, NULL, 10);
    e->fields = g_match_info_fetch (mi, 3);
    g_free (th);
    g_ptr_array_add (a, e);
    g_match_info_next (mi, NULL);
  }
  g_match_info_free (mi);
  g_regex_unref (re);
  return a;
}

static void
free_events (GPtrArray * a)
{
  guint i;

  for (i = 0; i < a->len; i++) {
    Ev *e = g_ptr_array_index (a, i);

    g_free (e->name);
    g_free (e->fields);
    g_free (e);
  }
  g_ptr_array_free (a, TRUE);
}

static const gchar *
field_at (const Ev * e, const gchar * name)
{
  gchar *k1 = g_strdup_printf ("{ %s = ", name);
  gchar *k2 = g_strdup_printf (", %s = ", name);
  const gchar *p = strstr (e->fields, k1);

  if (p == NULL)
    p = strstr (e->fields, k2);
  if (p != NULL)
    p += strlen (k2);
  g_free (k1);
  g_free (k2);
  return p;
}

static guint64
field_u64 (const Ev * e, const gchar * name)
{
  const gchar *p = field_at (e, name);

  fail_unless (p != NULL, "no %s in %s", name, e->fields);
  return g_ascii_strtoull (p, NULL, 10);
}

/* A string field's value (free it). */
static gchar *
field_str (const Ev * e, const gchar * name)
{
  const gchar *p = field_at (e, name), *q;

  fail_unless (p != NULL && *p == '"', "no string %s in %s", name,
      e->fields);
  q = strchr (p + 1, '"');
  return g_strndup (p + 1, q - p - 1);
}

/* The pad id of ELEMENT.PAD from the pad_new events, or -1. */
static gint
pad_id (GPtrArray * evs, const gchar * element, const gchar * pad)
{
  guint i;

  for (i = 0; i < evs->len; i++) {
    Ev *e = g_ptr_array_index (evs, i);
    gchar *en, *pn;
    gboolean hit;

    if (strcmp (e->name, "pad_new"))
      continue;
    en = field_str (e, "element_name");
    pn = field_str (e, "name");
    hit = !strcmp (en, element) && !strcmp (pn, pad);
    g_free (en);
    g_free (pn);
    if (hit)
      return field_u64 (e, "pad");
  }
  return -1;
}

static guint
count_on_pad (GPtrArray * evs, const gchar * name, gint pad)
{
  guint i, n = 0;

  for (i = 0; i < evs->len; i++) {
    Ev *e = g_ptr_array_index (evs, i);

    if (!strcmp (e->name, name) && (gint) field_u64 (e, "pad") == pad)
      n++;
  }
  return n;
}

/* ctfstatssink's JSON summary of @dir. */
static gchar *
stats_json (const gchar * dir)
{
  gchar *out = g_strconcat (dir, ".json", NULL);
  gchar *desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctfstatssink "
      "format=json location=\"%s\"", dir, out);
  gchar *errmsg = NULL, *text = NULL;

  fail_unless (test_run_pipeline (desc, &errmsg), "%s", errmsg);
  fail_unless (g_file_get_contents (out, &text, NULL, NULL));
  g_unlink (out);
  g_free (out);
  g_free (desc);
  return text;
}

/* The summary "LABEL": {"count": C, "min": A, ..., "max": B} in @json. */
static gboolean
summary_of (const gchar * json, const gchar * label, guint64 * count,
    guint64 * min, guint64 * max)
{
  gchar *key = g_strdup_printf ("\"%s\": {\"count\": ", label);
  const gchar *p = strstr (json, key);

  g_free (key);
  if (p == NULL)
    return FALSE;
  p = strchr (p, '{') + 1;
  *count = g_ascii_strtoull (strstr (p, "\"count\": ") + 9, NULL, 10);
  *min = g_ascii_strtoull (strstr (p, "\"min\": ") + 7, NULL, 10);
  *max = g_ascii_strtoull (strstr (p, "\"max\": ") + 7, NULL, 10);
  return TRUE;
}

/* ---- tests ---- */

/* tee and queues: four streaming threads; every src pad pushed N
 * buffers, queue levels within limits, proctime of identity. */
GST_START_TEST (test_buffer_counts)
{
  const guint n = 500;
  gchar *dir = new_dir ("ctftracer-counts");
  gchar *tr = g_strdup_printf ("ctftracer(location=%s,period=50)", dir);
  gchar *desc = g_strdup_printf ("fakesrc num-buffers=%u sizetype=fixed "
      "sizemax=100 ! identity name=id ! tee name=t ! queue name=q1 ! "
      "fakesink name=s1 t. ! queue name=q2 max-size-buffers=3 ! "
      "identity name=slow sleep-time=200 ! fakesink name=s2", n);
  const gchar *pads[][2] = { {"fakesrc0", "src"}, {"id", "src"},
  {"t", "src_0"}, {"t", "src_1"}, {"q1", "src"}, {"q2", "src"},
  {"slow", "src"}
  };
  GHashTable *threads = g_hash_table_new (NULL, NULL);
  gchar *text, *errs = NULL;
  GPtrArray *evs;
  guint i, levels = 0, proctimes = 0, latencies = 0;
  gint st, id_elem = -1;
  guint64 pt_min = G_MAXUINT64, pt_max = 0, c, mn, mx;
  guint64 rate_buffers[64] = { 0, }, rate_bytes[64] = { 0, };
  guint thread_cpu = 0;
  gchar *json;

  st = run_child (tr, NULL, desc, NULL, &errs);
  fail_unless (g_spawn_check_wait_status (st, NULL), "child: %s", errs);
  text = read_and_compare (dir, FALSE);
  evs = parse_events (text);
  fail_unless (evs->len > 7 * n);
  check_tracecompass (dir, evs->len);
  for (i = 0; i < G_N_ELEMENTS (pads); i++) {
    gint id = pad_id (evs, pads[i][0], pads[i][1]);

    fail_unless (id >= 0, "no pad_new for %s.%s", pads[i][0], pads[i][1]);
    fail_unless_equals_int (count_on_pad (evs, "buffer", id), n);
    fail_unless_equals_int (count_on_pad (evs, "push_done", id), n);
  }
  for (i = 0; i < evs->len; i++) {
    Ev *e = g_ptr_array_index (evs, i);

    if (!strcmp (e->name, "buffer")) {
      g_hash_table_add (threads, GSIZE_TO_POINTER (e->thread));
      fail_unless_equals_int (field_u64 (e, "size"), 100);
    } else if (!strcmp (e->name, "queue_level")) {
      guint64 mb = field_u64 (e, "max_buffers");

      levels++;
      if (mb > 0)
        fail_unless (field_u64 (e, "buffers") <= mb, "%s", e->fields);
      fail_unless (field_u64 (e, "bytes") <= field_u64 (e, "max_bytes"));
      fail_unless (field_u64 (e, "time") <= field_u64 (e, "max_time"));
    } else if (!strcmp (e->name, "element_new")) {
      gchar *nm = field_str (e, "name");

      if (!strcmp (nm, "id"))
        id_elem = field_u64 (e, "element");
      g_free (nm);
    } else if (!strcmp (e->name, "latency")) {
      latencies++;
    } else if (!strcmp (e->name, "thread_cpu")) {
      thread_cpu++;
    } else if (!strcmp (e->name, "pad_rate")) {
      rate_buffers[MIN (field_u64 (e, "pad"), 63)] += field_u64 (e, "buffers");
      rate_bytes[MIN (field_u64 (e, "pad"), 63)] += field_u64 (e, "bytes");
    }
  }
  /* per-pad counts over the periods add up to what was pushed */
  for (i = 0; i < G_N_ELEMENTS (pads); i++) {
    gint id = pad_id (evs, pads[i][0], pads[i][1]);

    fail_unless_equals_uint64 (rate_buffers[MIN (id, 63)], n);
    fail_unless_equals_uint64 (rate_bytes[MIN (id, 63)], n * 100);
  }
  fail_unless (thread_cpu > 0);
  for (i = 0; i < evs->len; i++) {
    Ev *e = g_ptr_array_index (evs, i);

    if (!strcmp (e->name, "proctime") &&
        (gint) field_u64 (e, "element") == id_elem) {
      guint64 v = field_u64 (e, "time");

      proctimes++;
      pt_min = MIN (pt_min, v);
      pt_max = MAX (pt_max, v);
    }
  }
  /* ctfstatssink's summaries: the same values, named */
  json = stats_json (dir);
  fail_unless (summary_of (json, "id", &c, &mn, &mx), "%s", json);
  fail_unless_equals_uint64 (c, n);
  fail_unless_equals_uint64 (mn, pt_min);
  fail_unless_equals_uint64 (mx, pt_max);
  fail_unless (summary_of (json, "fakesrc0.src -> s1.sink", &c, &mn, &mx));
  fail_unless_equals_uint64 (c, n);
  fail_unless (summary_of (json, "fakesrc0.src -> s2.sink", &c, &mn, &mx));
  fail_unless_equals_uint64 (c, n);
  g_free (json);
  /* fakesrc thread, two queue threads (+ main, writer) */
  fail_unless (g_hash_table_size (threads) >= 3);
  /* a level at each push into a queue and out of it */
  fail_unless_equals_int (levels, 4 * n);
  fail_unless_equals_int (proctimes, n);
  fail_unless_equals_int (latencies, 2 * n);
  free_events (evs);
  g_hash_table_unref (threads);
  g_free (text);
  g_free (errs);
  test_rm_rf (dir);
  g_free (dir);
  g_free (tr);
  g_free (desc);
}

GST_END_TEST;

/* A live source through videoconvert: the PTS sequence, and latencies
 * equal to the core `latency` tracer's on the same run. */
GST_START_TEST (test_live_latency)
{
  const guint n = 20;
  gchar *dir = new_dir ("ctftracer-live");
  gchar *log = g_strconcat (dir, ".log", NULL);
  gchar *tr = g_strdup_printf ("ctftracer(location=%s);latency", dir);
  gchar *logenv = g_strconcat ("GST_DEBUG_FILE=", log, NULL);
  const gchar *env[] = { "GST_DEBUG=GST_TRACER:7", "GST_DEBUG_NO_COLOR=1",
    logenv, NULL
  };
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=%u "
      "! video/x-raw,width=64,height=48,framerate=30/1 ! videoconvert ! "
      "video/x-raw,format=GRAY8 ! fakesink", n);
  gchar *text, *logtext, *errs = NULL;
  GPtrArray *evs, *core = g_ptr_array_new_with_free_func (g_free);
  GRegex *re;
  GMatchInfo *mi;
  guint i, k = 0, nb = 0;
  gint st, conv;
  guint64 pts0 = 0;

  NEED_VIDEO ();
  st = run_child (tr, env, desc, NULL, &errs);
  fail_unless (g_spawn_check_wait_status (st, NULL), "child: %s", errs);
  text = read_and_compare (dir, FALSE);
  evs = parse_events (text);
  conv = pad_id (evs, "videoconvert0", "src");
  fail_unless (conv >= 0);
  for (i = 0; i < evs->len; i++) {
    Ev *e = g_ptr_array_index (evs, i);

    if (!strcmp (e->name, "buffer") && (gint) field_u64 (e, "pad") == conv) {
      /* a live source stamps running time: frames 1/30 s apart */
      if (nb == 0)
        pts0 = field_u64 (e, "pts");
      fail_unless_equals_uint64 (field_u64 (e, "pts") - pts0,
          gst_util_uint64_scale (nb, GST_SECOND, 30));
      fail_unless_equals_uint64 (field_u64 (e, "duration"),
          gst_util_uint64_scale (nb + 1, GST_SECOND, 30) -
          gst_util_uint64_scale (nb, GST_SECOND, 30));
      fail_unless_equals_uint64 (field_u64 (e, "size"), 64 * 48);
      nb++;
    }
  }
  fail_unless_equals_int (nb, n);

  fail_unless (g_file_get_contents (log, &logtext, NULL, NULL));
  re = g_regex_new ("latency, src-element-id=.*time=\\(guint64\\)([0-9]+)",
      0, 0, NULL);
  g_regex_match (re, logtext, 0, &mi);
  while (g_match_info_matches (mi)) {
    g_ptr_array_add (core, g_match_info_fetch (mi, 1));
    g_match_info_next (mi, NULL);
  }
  g_match_info_free (mi);
  g_regex_unref (re);
  fail_unless_equals_int (core->len, n);
  for (i = 0; i < evs->len; i++) {
    Ev *e = g_ptr_array_index (evs, i);

    if (strcmp (e->name, "latency"))
      continue;
    fail_unless (k < core->len);
    /* both measure from the source's push to the push into the sink,
     * with the same hook timestamps */
    fail_unless_equals_uint64 (field_u64 (e, "time"),
        g_ascii_strtoull (g_ptr_array_index (core, k), NULL, 10));
    k++;
  }
  fail_unless_equals_int (k, n);
  g_ptr_array_unref (core);
  free_events (evs);
  g_free (text);
  g_free (logtext);
  g_free (errs);
  g_unlink (log);
  test_rm_rf (dir);
  test_rm_rf (plugin_dir);
  g_free (dir);
  g_free (log);
  g_free (logenv);
  g_free (tr);
  g_free (desc);
}

GST_END_TEST;

static guint64
dir_stream_bytes (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  guint64 total = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL) {
    gchar *p = g_build_filename (dir, name, NULL);
    GStatBuf st;

    if (g_str_has_prefix (name, "stream_") && g_stat (p, &st) == 0)
      total += st.st_size;
    g_free (p);
  }
  if (d != NULL)
    g_dir_close (d);
  return total;
}

/* A live pipeline killed with SIGKILL: the trace reads up to its last
 * flush. */
GST_START_TEST (test_sigkill)
{
  gchar *dir = new_dir ("ctftracer-kill");
  gchar *tr = g_strdup_printf ("ctftracer(location=%s,flush-interval=100)",
      dir);
  gchar *text;
  GPtrArray *evs;
  GPid pid;
  gint status, i, src, nb = 0;
  guint64 pts0 = 0;

  NEED_VIDEO ();
  run_child (tr, NULL, "videotestsrc is-live=true ! "
      "video/x-raw,width=32,height=24,framerate=100/1 ! fakesink", &pid,
      NULL);
  for (i = 0; i < 200 && dir_stream_bytes (dir) < 8192; i++)
    g_usleep (50 * 1000);
  g_usleep (300 * 1000);
  fail_unless (kill (pid, SIGKILL) == 0);
  fail_unless (waitpid (pid, &status, 0) == pid);
  fail_unless (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);
  g_spawn_close_pid (pid);

  text = read_and_compare (dir, FALSE);
  evs = parse_events (text);
  src = pad_id (evs, "videotestsrc0", "src");
  fail_unless (src >= 0);
  for (i = 0; i < (gint) evs->len; i++) {
    Ev *e = g_ptr_array_index (evs, i);

    if (!strcmp (e->name, "buffer") && (gint) field_u64 (e, "pad") == src) {
      if (nb == 0)
        pts0 = field_u64 (e, "pts");
      fail_unless_equals_uint64 (field_u64 (e, "pts") - pts0,
          gst_util_uint64_scale (nb, GST_SECOND, 100));
      nb++;
    }
  }
  fail_unless (nb >= 5, "only %d buffers recorded", nb);
  free_events (evs);
  g_free (text);
  test_rm_rf (dir);
  test_rm_rf (plugin_dir);
  g_free (dir);
  g_free (tr);
}

GST_END_TEST;

/* A writer far too slow for the pipeline: events are discarded and
 * counted, the pipeline is not held up. */
GST_START_TEST (test_discard)
{
  const guint n = 20000;
  gchar *dir = new_dir ("ctftracer-discard");
  gchar *tr = g_strdup_printf ("ctftracer(location=%s,writer-pause=500,"
      "packet-size=4096,buffers-per-thread=2)", dir);
  gchar *desc = g_strdup_printf ("fakesrc num-buffers=%u ! fakesink", n);
  gchar *text, *bt, *bterr = NULL, *errs = NULL;
  GPtrArray *evs;
  gint64 t0 = g_get_monotonic_time ();
  gint st, src;
  guint seen;

  st = run_child (tr, NULL, desc, NULL, &errs);
  fail_unless (g_spawn_check_wait_status (st, NULL), "child: %s", errs);
  /* ~40 bytes x 3 events x 20000 in 4 KiB packets is ~600 packets: at
   * 0.5 s each a blocking tracer would take 5 minutes */
  fail_unless (g_get_monotonic_time () - t0 < 60 * G_USEC_PER_SEC);
  text = textsink_text (dir);
  evs = parse_events (text);
  src = pad_id (evs, "fakesrc0", "src");
  seen = count_on_pad (evs, "buffer", src);
  fail_unless (seen > 0 && seen < n, "%u of %u buffers recorded", seen, n);
  if (test_have_program ("babeltrace2")) {
    bt = bt_text ("babeltrace2", dir, &st, &bterr);
    fail_unless (g_spawn_check_wait_status (st, NULL));
    fail_unless (strstr (bterr, "Tracer discarded") != NULL, "%s", bterr);
    fail_unless_equals_string (bt, text);
    g_free (bt);
    g_free (bterr);
  }
  free_events (evs);
  g_free (text);
  g_free (errs);
  test_rm_rf (dir);
  g_free (dir);
  g_free (tr);
  g_free (desc);
}

GST_END_TEST;

/* A directory holding something else: refused, nothing written there. */
GST_START_TEST (test_occupied_directory)
{
  gchar *dir = new_dir ("ctftracer-occupied");
  gchar *thesis = g_build_filename (dir, "thesis.tex", NULL);
  gchar *tr = g_strdup_printf ("ctftracer(location=%s,overwrite=true)", dir);
  gchar *errs = NULL, *content = NULL;
  GDir *d;
  gint st;

  fail_unless (g_mkdir_with_parents (dir, 0755) == 0);
  fail_unless (g_file_set_contents (thesis, "chapter 1", -1, NULL));
  st = run_child (tr, NULL, "fakesrc num-buffers=10 ! fakesink", NULL, &errs);
  fail_unless (g_spawn_check_wait_status (st, NULL), "child: %s", errs);
  fail_unless (strstr (errs, "thesis.tex") != NULL, "%s", errs);
  fail_unless (g_file_get_contents (thesis, &content, NULL, NULL));
  fail_unless_equals_string (content, "chapter 1");
  d = g_dir_open (dir, 0, NULL);
  fail_unless_equals_string (g_dir_read_name (d), "thesis.tex");
  fail_unless (g_dir_read_name (d) == NULL);
  g_dir_close (d);
  g_free (content);
  g_free (errs);
  /* parameters that do not parse: nothing traced anywhere */
  g_free (tr);
  test_rm_rf (dir);
  tr = g_strdup_printf ("ctftracer(location=%s,flush-interval", dir);
  st = run_child (tr, NULL, "fakesrc num-buffers=10 ! fakesink", NULL, &errs);
  fail_unless (g_spawn_check_wait_status (st, NULL), "child: %s", errs);
  fail_unless (strstr (errs, "Cannot parse the parameters") != NULL, "%s",
      errs);
  fail_if (g_file_test (dir, G_FILE_TEST_EXISTS));
  g_free (errs);
  test_rm_rf (dir);
  g_free (thesis);
  g_free (dir);
  g_free (tr);
}

GST_END_TEST;

/* ctf-version=2 (read by ctftextsink and babeltrace2 2.1) with the debug
 * log as events. */
GST_START_TEST (test_ctf2_log)
{
  gchar *dir = new_dir ("ctftracer-ctf2");
  gchar *tr = g_strdup_printf ("ctftracer(location=%s,ctf-version=2,"
      "log=true)", dir);
  const gchar *env[] = { "GST_DEBUG=GST_STATES:4", NULL };
  gchar *meta_path = g_build_filename (dir, "metadata", NULL);
  gchar *text, *meta = NULL, *errs = NULL;
  GPtrArray *evs;
  guint i, logs = 0, bufs = 0;
  gint st;

  st = run_child (tr, env, "fakesrc num-buffers=50 ! fakesink", NULL, &errs);
  fail_unless (g_spawn_check_wait_status (st, NULL), "child: %s", errs);
  fail_unless (g_file_get_contents (meta_path, &meta, NULL, NULL));
  fail_unless (meta[0] == '\x1e', "not a CTF 2 JSON text sequence");
  text = read_and_compare (dir, TRUE);
  evs = parse_events (text);
  for (i = 0; i < evs->len; i++) {
    Ev *e = g_ptr_array_index (evs, i);

    if (!strcmp (e->name, "log")) {
      gchar *cat = field_str (e, "category");

      fail_unless_equals_string (cat, "GST_STATES");
      logs++;
      g_free (cat);
    } else if (!strcmp (e->name, "buffer")) {
      bufs++;
    }
  }
  fail_unless (logs > 0);
  fail_unless_equals_int (bufs, 50);
  free_events (evs);
  g_free (text);
  g_free (meta);
  g_free (errs);
  test_rm_rf (dir);
  g_free (meta_path);
  g_free (dir);
  g_free (tr);
}

GST_END_TEST;

/* A tracer object made only to be looked at (gst-inspect-1.0 ctftracer)
 * writes nothing: the trace directory is made at the first hook call. */
GST_START_TEST (test_inspect_writes_nothing)
{
  gchar *dir = new_dir ("ctftracer-inspect");
  gchar *old = g_get_current_dir ();
  GstPluginFeature *f;
  GObject *tracer;
  GDir *d;

  fail_unless (g_mkdir_with_parents (dir, 0755) == 0);
  fail_unless (g_chdir (dir) == 0);
  f = gst_registry_lookup_feature (gst_registry_get (), "ctftracer");
  fail_unless (f != NULL && GST_IS_TRACER_FACTORY (f));
  {
    GstPluginFeature *loaded = gst_plugin_feature_load (f);

    gst_object_unref (f);
    f = loaded;
  }
  fail_unless (f != NULL);
  tracer = g_object_new (gst_tracer_factory_get_tracer_type
      (GST_TRACER_FACTORY (f)), NULL);
  g_object_unref (tracer);
  gst_object_unref (f);
  d = g_dir_open (dir, 0, NULL);
  fail_unless (g_dir_read_name (d) == NULL, "the tracer wrote in the "
      "current directory");
  g_dir_close (d);
  fail_unless (g_chdir (old) == 0);
  test_rm_rf (dir);
  g_free (old);
  g_free (dir);
}

GST_END_TEST;

static Suite *
ctftracer_suite (void)
{
  Suite *s = suite_create ("ctftracer");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_buffer_counts);
  tcase_add_test (tc, test_live_latency);
  tcase_add_test (tc, test_sigkill);
  tcase_add_test (tc, test_discard);
  tcase_add_test (tc, test_occupied_directory);
  tcase_add_test (tc, test_ctf2_log);
  tcase_add_test (tc, test_inspect_writes_nothing);
  return s;
}

int
main (int argc, char **argv)
{
  Suite *s;

  if (argc == 3 && !strcmp (argv[1], "--child"))
    return child_main (argv[2]);
  self_exe = g_file_read_link ("/proc/self/exe", NULL);
  g_unsetenv ("GST_TRACERS");
  gst_check_init (&argc, &argv);
  s = ctftracer_suite ();
  return gst_check_run_suite (s, "ctftracer", __FILE__);
}
