/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which tasks get rows in GstCtfGtkTimeline (task-row-tids) and the
 * viewer's task picker, against the `sched_switch` lines of `trace-cmd
 * report` (babeltrace2's text for an LTTng kernel trace):
 *
 * - gst_ctf_gtk_timeline_list_tasks() has one task per thread id the
 *   switches name (not the idle task), busiest first, each with the
 *   command of its last switch, its runs (switches to it, and one for the
 *   run a CPU's first switch ends) and its run time (from a switch to it
 *   to the next switch on that CPU, cut to the trace's first and last
 *   events; within 1 µs per run for the report's µs);
 * - with a chosen set of thread ids (repeats, a thread id the trace does
 *   not have), the rows are exactly the chosen tasks, in thread id order,
 *   each row at sampled times shows the colour of the CPU the report's
 *   switches put the task on, or none; the property round-trips, an
 *   empty set gives no row, NULL every task;
 * - the label column is as wide as the widest `comm-tid` label (Pango);
 * - the picker lists every task, its search keeps those whose command
 *   holds the text or whose thread id starts with it, its boxes are the
 *   chosen tasks', unchecking one removes its row, and TID's column sorts
 *   by thread id.
 *
 * The bundled trace.dat always, corpus traces when GST_CTF_CORPUS is
 * there.  Screenshots of the rows and the picker go to shots/.
 */
#include <string.h>
#include <gtk/gtk.h>
#include "gstctfgtk.h"
#include "gst-ctf-viewer-tasks.h"
#include "../test-util.h"
#include "gtk-test-util.h"

static const GdkRGBA row_bg = { 0.96, 0.96, 0.97, 1 };

typedef struct {
  guint cpu;
  guint64 ns;
  gint prev, next;
  gchar *prev_comm, *next_comm;
} Switch;

typedef struct {
  gint tid;
  gchar *comm;                  /* the last switch's */
  guint64 run_ns;
  guint n_runs;
} OracleTask;

static void
switch_clear (Switch * x)
{
  g_free (x->prev_comm);
  g_free (x->next_comm);
}

/* The text of @line after @key up to @end (or a space when @end is 0),
 * without quotes. */
static gchar *
field (const gchar * line, const gchar * key, gchar end)
{
  const gchar *p = strstr (line, key), *q;

  g_assert_nonnull (p);
  p += strlen (key);
  if (*p == '"')
    p++;
  for (q = p; *q && *q != (end ? end : ' ') && *q != '"'; q++);
  return g_strndup (p, q - p);
}

/* The switches of @oracle: trace-cmd report's raw lines (µs: *in_us), or
 * babeltrace2's text of an LTTng kernel trace (`[HH:MM:SS.NNNNNNNNN]`,
 * the time of day of @t_first's day). */
static GArray *
read_switches (const gchar * oracle, guint64 t_first, gboolean * in_us)
{
  GPtrArray *lines = gtk_test_read_lines (oracle);
  GArray *sw = g_array_new (FALSE, FALSE, sizeof (Switch));
  guint i;

  g_array_set_clear_func (sw, (GDestroyNotify) switch_clear);
  *in_us = TRUE;
  for (i = 0; i < lines->len; i++) {
    const gchar *l = g_ptr_array_index (lines, i), *p;
    TestReportLine rl;
    Switch x;
    guint hh, mm, ss;
    guint64 frac;

    if (l[0] == '[' && sscanf (l, "[%u:%u:%u.%" G_GUINT64_FORMAT "]", &hh,
            &mm, &ss, &frac) == 4 &&
        (p = strstr (l, " sched_switch: { cpu_id = ")) != NULL) {
      const guint64 day = G_GUINT64_CONSTANT (86400000000000);

      x.cpu = (guint) g_ascii_strtoull (p + 26, NULL, 10);
      x.ns = t_first - t_first % day + ((hh * 60 + mm) * 60 + ss) *
          G_GUINT64_CONSTANT (1000000000) + frac;
      if (x.ns + day / 2 < t_first)
        x.ns += day;
      x.prev = (gint) g_ascii_strtoll (strstr (p, " prev_tid = ") + 12, NULL,
          10);
      x.next = (gint) g_ascii_strtoll (strstr (p, " next_tid = ") + 12, NULL,
          10);
      x.prev_comm = field (p, "prev_comm = ", '"');
      x.next_comm = field (p, "next_comm = ", '"');
      g_array_append_val (sw, x);
      *in_us = FALSE;
      continue;
    }
    if (!test_report_line_parse (l, &rl))
      continue;
    g_free (rl.comm);
    if (!g_str_has_prefix (rl.rest, "sched_switch:"))
      continue;
    x.cpu = rl.cpu;
    x.ns = (rl.secs * 1000000 + rl.usecs) * 1000;
    x.prev = (gint) g_ascii_strtoll (strstr (rl.rest, " prev_pid=") + 10,
        NULL, 10);
    x.next = (gint) g_ascii_strtoll (strstr (rl.rest, " next_pid=") + 10,
        NULL, 10);
    x.prev_comm = field (rl.rest, " prev_comm=", 0);
    x.next_comm = field (rl.rest, " next_comm=", 0);
    g_array_append_val (sw, x);
  }
  g_ptr_array_unref (lines);
  return sw;
}

static OracleTask *
oracle_task (GHashTable * tasks, gint tid, const gchar * comm)
{
  OracleTask *t = g_hash_table_lookup (tasks, GINT_TO_POINTER (tid));

  if (t == NULL) {
    t = g_new0 (OracleTask, 1);
    t->tid = tid;
    g_hash_table_insert (tasks, GINT_TO_POINTER (tid), t);
  }
  g_free (t->comm);
  t->comm = g_strdup (comm);
  return t;
}

static void
oracle_task_free (OracleTask * t)
{
  g_free (t->comm);
  g_free (t);
}

/* Tasks by tid (OracleTask) from the switches: the runs on each CPU,
 * the first from @t_first, the last to @t_last. */
static GHashTable *
oracle_tasks (GArray * sw, guint64 t_first, guint64 t_last)
{
  GHashTable *tasks = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) oracle_task_free);
  gint running[256];
  guint64 since[256];
  gboolean seen[256] = { FALSE, };
  guint i;

  for (i = 0; i < sw->len; i++) {
    const Switch *x = &g_array_index (sw, Switch, i);
    guint c = x->cpu;

    g_assert_cmpuint (c, <, 256);
    if (!seen[c]) {
      seen[c] = TRUE;
      running[c] = x->prev;
      since[c] = t_first;
      if (x->prev > 0)
        oracle_task (tasks, x->prev, x->prev_comm)->n_runs++;
    }
    if (running[c] > 0)
      ((OracleTask *) g_hash_table_lookup (tasks,
              GINT_TO_POINTER (running[c])))->run_ns += x->ns - since[c];
    if (x->prev > 0)
      oracle_task (tasks, x->prev, x->prev_comm);
    running[c] = x->next;
    since[c] = x->ns;
    if (x->next > 0)
      oracle_task (tasks, x->next, x->next_comm)->n_runs++;
  }
  for (i = 0; i < 256; i++)
    if (seen[i] && running[i] > 0)
      ((OracleTask *) g_hash_table_lookup (tasks,
              GINT_TO_POINTER (running[i])))->run_ns += t_last - since[i];
  return tasks;
}

/* Which CPU @tid runs on at @ns by the switches (-1: none); FALSE when a
 * switch of @tid is within 2 µs (the report's µs are rounded). */
static gboolean
switches_task_cpu (GArray * sw, gint tid, guint64 ns, gint * cpu)
{
  gint running[256];
  gboolean seen[256] = { FALSE, };
  guint i;

  *cpu = -1;
  for (i = 0; i < sw->len; i++) {
    const Switch *x = &g_array_index (sw, Switch, i);

    if ((x->prev == tid || x->next == tid) && x->ns + 2000 > ns &&
        x->ns < ns + 2000)
      return FALSE;
    if (!seen[x->cpu]) {
      running[x->cpu] = x->prev;
      seen[x->cpu] = TRUE;
    }
    if (x->ns <= ns)
      running[x->cpu] = x->next;
  }
  for (i = 0; i < 256; i++)
    if (seen[i] && running[i] == tid)
      *cpu = (gint) i;
  return TRUE;
}

/* @w drawn, saved as shots/@name.png in the build directory. */
static void
save_shot (GtkWidget * w, const gchar * name)
{
  gint width, height;
  guchar *px = gtk_test_render (w, &width, &height);
  GBytes *bytes;
  GdkTexture *tex;
  gchar *dir = g_build_filename (g_test_get_dir (G_TEST_BUILT), "shots",
      NULL);
  gchar *png = g_strdup_printf ("%s/%s.png", dir, name);

  g_assert_nonnull (px);
  bytes = g_bytes_new_take (px, (gsize) width * height * 4);
  tex = gdk_memory_texture_new (width, height,
      GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, (gsize) width * 4);
  g_mkdir_with_parents (dir, 0755);
  g_assert_true (gdk_texture_save_to_png (tex, png));
  g_test_message ("screenshot %s (%dx%d)", png, width, height);
  g_object_unref (tex);
  g_bytes_unref (bytes);
  g_free (png);
  g_free (dir);
}

static gint
cmp_int (gconstpointer a, gconstpointer b)
{
  return *(const gint *) a - *(const gint *) b;
}

/* Lets the main context run for 300 ms (layout, list rows bound). */
static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 300 * 1000;

  while (g_get_monotonic_time () < until) {
    while (g_main_context_iteration (NULL, FALSE));
    g_usleep (10000);
  }
}

/* The first widget of @type under @w (depth first), NULL when none. */
static GtkWidget *
find_type (GtkWidget * w, GType type)
{
  GtkWidget *c, *found;

  if (g_type_is_a (G_OBJECT_TYPE (w), type))
    return w;
  for (c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling
      (c))
    if ((found = find_type (c, type)) != NULL)
      return found;
  return NULL;
}

/* The check boxes of the picker's list under @w, appended to @out. */
static void
find_checks (GtkWidget * w, GPtrArray * out)
{
  GtkWidget *c;

  if (GTK_IS_CHECK_BUTTON (w))
    g_ptr_array_add (out, w);
  for (c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling
      (c))
    find_checks (c, out);
}

static void
check_tasks (const gchar * dat, const gchar * oracle, const gchar * shot)
{
  GstCtfGtkEventModel *m = gtk_test_open_loaded (dat);
  GstCtfGtkTimeline *tl = GST_CTF_GTK_TIMELINE (gst_ctf_gtk_timeline_new
      (m));
  GtkWidget *win, *picker, *pwin;
  GListModel *list;
  GArray *sw, *chosen;
  GHashTable *want;
  guint64 t_first, t_last, prev_run = G_MAXUINT64;
  gboolean in_us;
  guint i, n, n_checked = 0, n_running = 0, n_samples = 0, n_kw = 0;
  gint *tids, tid, widest = 0;
  gsize n_tids;
  graphene_rect_t area;
  GVariant *v;
  GPtrArray *checks;

  g_assert_true (gst_ctf_gtk_event_model_get_time_range (m, &t_first,
          &t_last));
  sw = read_switches (oracle, t_first, &in_us);
  want = oracle_tasks (sw, t_first, t_last);
  g_assert_cmpuint (g_hash_table_size (want), >, 4);

  /* the tasks, busiest first, against the report */
  list = gst_ctf_gtk_timeline_list_tasks (tl);
  n = g_list_model_get_n_items (list);
  g_assert_cmpuint (n, ==, g_hash_table_size (want));
  for (i = 0; i < n; i++) {
    GstCtfGtkTask *t = g_list_model_get_item (list, i);
    OracleTask *o = g_hash_table_lookup (want,
        GINT_TO_POINTER (gst_ctf_gtk_task_get_tid (t)));
    guint64 run = gst_ctf_gtk_task_get_run_time_ns (t);
    guint64 tol = in_us ? 1000 * (guint64) o->n_runs : o->n_runs;

    g_assert_nonnull (o);
    g_assert_cmpstr (gst_ctf_gtk_task_get_comm (t), ==, o->comm);
    g_assert_cmpuint (gst_ctf_gtk_task_get_n_runs (t), ==, o->n_runs);
    if (run + tol < o->run_ns || run > o->run_ns + tol)
      g_error ("%s: task %d ran %" G_GUINT64_FORMAT " ns, the report "
          "says %" G_GUINT64_FORMAT " (within %" G_GUINT64_FORMAT ")", dat,
          o->tid, run, o->run_ns, tol);
    g_assert_cmpuint (run, <=, prev_run);
    prev_run = run;
    g_object_unref (t);
  }

  /* a choice: the 3 busiest, the least busy, again the busiest, and a
   * thread id the trace does not have */
  chosen = g_array_new (FALSE, FALSE, sizeof (gint));
  for (i = 0; i < 3; i++) {
    GstCtfGtkTask *t = g_list_model_get_item (list, i);

    tid = gst_ctf_gtk_task_get_tid (t);
    g_array_append_val (chosen, tid);
    g_object_unref (t);
  }
  {
    GstCtfGtkTask *t = g_list_model_get_item (list, n - 1);

    tid = gst_ctf_gtk_task_get_tid (t);
    g_array_prepend_val (chosen, tid);
    tid = g_array_index (chosen, gint, 1);
    g_array_append_val (chosen, tid);
    tid = 999999;
    g_array_append_val (chosen, tid);
    g_object_unref (t);
  }
  g_object_set (tl, "task-rows", TRUE, NULL);
  gst_ctf_gtk_timeline_set_task_row_tids (tl, (const gint *) chosen->data,
      chosen->len);
  g_array_remove_index (chosen, chosen->len - 2);       /* the repeat */
  g_array_sort (chosen, cmp_int);
  tids = gst_ctf_gtk_timeline_get_task_row_tids (tl, &n_tids);
  g_assert_cmpmem (tids, n_tids * sizeof (gint), chosen->data,
      chosen->len * sizeof (gint));
  g_free (tids);
  g_object_get (tl, "task-row-tids", &v, NULL);
  g_assert_cmpuint (g_variant_n_children (v), ==, chosen->len);
  g_variant_unref (v);
  g_array_remove_index (chosen, chosen->len - 1);       /* 999999 */
  tids = gst_ctf_gtk_timeline_get_shown_task_tids (tl, &n_tids);
  g_assert_cmpmem (tids, n_tids * sizeof (gint), chosen->data,
      chosen->len * sizeof (gint));
  g_free (tids);

  win = gtk_test_show (GTK_WIDGET (tl), 1200, 400);
  {
    GHashTableIter it;
    gpointer key, val;

    g_hash_table_iter_init (&it, want);
    while (g_hash_table_iter_next (&it, &key, &val)) {
      gboolean in = FALSE;
      OracleTask *o = val;

      for (i = 0; i < chosen->len; i++)
        in |= g_array_index (chosen, gint, i) == GPOINTER_TO_INT (key);
      g_assert_cmpint (gst_ctf_gtk_timeline_get_task_row_area (tl,
              GPOINTER_TO_INT (key), &area), ==, in);
      if (in) {
        gchar *label = g_strdup_printf ("%s-%d", o->comm, o->tid);
        PangoLayout *layout = gtk_widget_create_pango_layout
            (GTK_WIDGET (tl), label);
        PangoAttrList *attrs = pango_attr_list_new ();
        gint w;

        pango_attr_list_insert (attrs, pango_attr_scale_new (0.8));
        pango_layout_set_attributes (layout, attrs);
        pango_attr_list_unref (attrs);
        pango_layout_get_pixel_size (layout, &w, NULL);
        widest = MAX (widest, w);
        g_object_unref (layout);
        g_free (label);
      }
    }
  }
  /* the label column: the widest label, 4 px before and 6 after it (76
   * to 220 px) */
  g_assert_true (gst_ctf_gtk_timeline_get_task_row_area (tl,
          g_array_index (chosen, gint, 0), &area));
  g_assert_cmpfloat (area.origin.x, ==, CLAMP (widest + 10, 76, 220));
  gst_ctf_gtk_timeline_get_lane_area (tl, 0, &area);
  g_assert_cmpfloat (area.origin.x, ==, CLAMP (widest + 10, 76, 220));

  /* the chosen rows at sampled times: the CPU the switches give */
  for (i = 0; i < sw->len && n_samples < 20; i += 1 + sw->len / 40) {
    const Switch *a = &g_array_index (sw, Switch, i);
    guint64 s, e, t = a->ns + 20000;
    guchar *px;
    gint w, h;
    guint k;

    gst_ctf_gtk_timeline_set_visible_range (tl, t - 2000000, t + 2000000);
    gst_ctf_gtk_timeline_get_visible_range (tl, &s, &e);
    px = gtk_test_render (GTK_WIDGET (tl), &w, &h);
    g_assert_nonnull (px);
    for (k = 0; k < chosen->len; k++) {
      gint cpu, x, y;
      GdkRGBA c;

      tid = g_array_index (chosen, gint, k);
      if (!switches_task_cpu (sw, tid, t, &cpu))
        continue;
      g_assert_true (gst_ctf_gtk_timeline_get_task_row_area (tl, tid,
              &area));
      x = (gint) (area.origin.x + (gdouble) (t - s) / ((gdouble) (e - s) /
              (guint) area.size.width));
      y = (gint) (area.origin.y + area.size.height / 2);
      g_assert_cmpint (y, <, h);
      if (cpu >= 0)
        gst_ctf_gtk_cpu_color (cpu, &c);
      else
        c = row_bg;
      if (!gtk_test_pixel_is (px, w, x, y, &c) &&
          !gtk_test_pixel_is (px, w, x + 2, y, &c))
        g_error ("%s: task %d at %" G_GUINT64_FORMAT " ns: not drawn as %s",
            dat, tid, t, cpu >= 0 ? "its CPU's colour" : "not running");
      n_checked++;
      n_running += cpu >= 0;
    }
    g_free (px);
    n_samples++;
  }
  g_assert_cmpuint (n_samples, >, 5);
  g_assert_cmpuint (n_running, >, 3);
  if (shot != NULL) {
    gst_ctf_gtk_timeline_show_all (tl);
    save_shot (GTK_WIDGET (tl), shot);
  }

  /* the picker: every task, the search, a box unchecked */
  picker = gst_ctf_viewer_tasks_picker_new (tl);
  pwin = gtk_test_show (picker, 520, 480);
  g_assert_cmpuint (gst_ctf_viewer_tasks_picker_get_n_shown (picker), ==, n);
  settle ();
  if (shot != NULL) {
    gchar *name = g_strconcat (shot, "-picker", NULL);

    save_shot (picker, name);
    g_free (name);
  }
  {
    GHashTableIter it;
    gpointer val;

    g_hash_table_iter_init (&it, want);
    while (g_hash_table_iter_next (&it, NULL, &val))
      n_kw += strstr (((OracleTask *) val)->comm, "kworker") != NULL;
  }
  gst_ctf_viewer_tasks_picker_set_search (picker, "KWorker");
  g_assert_cmpuint (gst_ctf_viewer_tasks_picker_get_n_shown (picker), ==,
      n_kw);
  gst_ctf_viewer_tasks_picker_set_search (picker, "");
  settle ();
  checks = g_ptr_array_new ();
  find_checks (picker, checks);
  g_assert_cmpuint (checks->len, >, 3);
  for (i = 0; i < checks->len; i++) {
    GtkCheckButton *cb = g_ptr_array_index (checks, i);
    gint cb_tid = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (cb), "tid"));
    gboolean in = FALSE;
    guint k;

    for (k = 0; k < chosen->len; k++)
      in |= g_array_index (chosen, gint, k) == cb_tid;
    g_assert_cmpint (gtk_check_button_get_active (cb), ==, in);
    if (in) {
      gtk_check_button_set_active (cb, FALSE);
      g_assert_false (gst_ctf_gtk_timeline_get_task_row_area (tl, cb_tid,
              &area));
      tids = gst_ctf_gtk_timeline_get_shown_task_tids (tl, &n_tids);
      g_assert_cmpuint (n_tids, ==, chosen->len - 1);
      g_free (tids);
      break;
    }
  }
  g_assert_cmpuint (i, <, checks->len);
  g_ptr_array_unref (checks);
  /* a click on TID's title: the rows shown by thread id */
  {
    GtkWidget *view = find_type (picker, GTK_TYPE_COLUMN_VIEW);
    GListModel *cols = gtk_column_view_get_columns (GTK_COLUMN_VIEW (view));
    GtkColumnViewColumn *col = g_list_model_get_item (cols, 1);
    GListModel *rows;
    gint min_tid = G_MAXINT, prev_tid = G_MININT;
    guint k;
    GHashTableIter it;
    gpointer key;

    g_hash_table_iter_init (&it, want);
    while (g_hash_table_iter_next (&it, &key, NULL))
      min_tid = MIN (min_tid, GPOINTER_TO_INT (key));
    gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (view), col,
        GTK_SORT_ASCENDING);
    g_object_unref (col);
    settle ();
    rows = gtk_no_selection_get_model (GTK_NO_SELECTION
        (gtk_column_view_get_model (GTK_COLUMN_VIEW (view))));
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n);
    for (k = 0; k < n; k++) {
      GstCtfGtkTask *t = g_list_model_get_item (rows, k);

      g_assert_cmpint (gst_ctf_gtk_task_get_tid (t), >, prev_tid);
      prev_tid = gst_ctf_gtk_task_get_tid (t);
      if (k == 0)
        g_assert_cmpint (prev_tid, ==, min_tid);
      g_object_unref (t);
    }
  }
  gtk_window_destroy (GTK_WINDOW (pwin));

  /* none, then every task again (the property too) */
  g_object_set (tl, "task-row-tids", g_variant_new_fixed_array
      (G_VARIANT_TYPE_INT32, NULL, 0, sizeof (gint32)), NULL);
  tids = gst_ctf_gtk_timeline_get_shown_task_tids (tl, &n_tids);
  g_assert_null (tids);
  g_assert_cmpuint (n_tids, ==, 0);
  tids = gst_ctf_gtk_timeline_get_task_row_tids (tl, &n_tids);
  g_assert_nonnull (tids);      /* none chosen, not every task */
  g_assert_cmpuint (n_tids, ==, 0);
  g_free (tids);
  g_object_get (tl, "task-row-tids", &v, NULL);
  g_assert_nonnull (v);
  g_assert_cmpuint (g_variant_n_children (v), ==, 0);
  g_variant_unref (v);
  g_object_set (tl, "task-row-tids", NULL, NULL);
  tids = gst_ctf_gtk_timeline_get_shown_task_tids (tl, &n_tids);
  g_assert_cmpuint (n_tids, ==, n);
  g_free (tids);
  g_assert_null (gst_ctf_gtk_timeline_get_task_row_tids (tl, &n_tids));

  g_test_message ("%s: %u tasks (run time and runs as the report's), %u "
      "rows chosen, %u samples, %u task states checked (%u running), %u "
      "kworker tasks found by the picker", dat, n, chosen->len, n_samples,
      n_checked, n_running, n_kw);
  gtk_window_destroy (GTK_WINDOW (win));
  g_object_unref (list);
  g_array_unref (chosen);
  g_hash_table_unref (want);
  g_array_unref (sw);
  g_object_unref (m);
}

static void
test_bundled (void)
{
  gchar *dat = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "armv7-v6.dat", NULL);
  gchar *o = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "oracle", "armv7-v6.dat.raw.txt", NULL);

  check_tasks (dat, o, NULL);
  g_free (dat);
  g_free (o);
}

static void
test_corpus_tracedat (void)
{
  static const gchar *const names[] = { "sched-block-net.v6.dat",
    "sched-irq-timer-wq.v7-zstd.dat"
  };
  guint i;

  NEED_CORPUS ();
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *rel = g_strconcat ("tracedat/", names[i], NULL);
    gchar *orel = g_strconcat ("tracedat/oracle/", names[i], ".raw.txt",
        NULL);
    gchar *dat = test_corpus_path (rel), *o = test_corpus_path (orel);

    check_tasks (dat, o, i == 0 ? "task-rows-chosen" : NULL);
    g_free (dat);
    g_free (o);
    g_free (rel);
    g_free (orel);
  }
}

static void
test_corpus_lttng (void)
{
  gchar *dat, *o;

  NEED_CORPUS ();
  dat = test_corpus_path ("ctf/babeltrace/succeed/lttng-tracefile-rotation");
  o = test_corpus_path
      ("ctf/babeltrace/oracle/succeed/lttng-tracefile-rotation.txt");
  check_tasks (dat, o, NULL);
  g_free (dat);
  g_free (o);
}

int
main (int argc, char **argv)
{
  if (!gtk_test_init_display (&argc, &argv))
    return 0;
  g_test_add_func ("/timeline-tasks/bundled", test_bundled);
  g_test_add_func ("/timeline-tasks/corpus-tracedat", test_corpus_tracedat);
  g_test_add_func ("/timeline-tasks/corpus-lttng", test_corpus_lttng);
  return g_test_run ();
}
