/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The task picker of gst-ctf-viewer (as KernelShark's task plots
 * dialog): a list of the trace's tasks (gst_ctf_gtk_timeline_list_tasks():
 * thread id, command, run time, busiest first; a click on a column's
 * title sorts by it) with a check box each for a row in the timeline
 * (GstCtfGtkTimeline:task-row-tids), a search field that narrows the list
 * (command or thread id), and All / None / Busiest buttons.  Shown in a
 * popover from a button next to Tasks; a change turns the rows per task
 * on.  --tasks=TID,... sets the same choice
 * (gst_ctf_viewer_tasks_parse()).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gst-ctf-viewer-tasks.h"

#define BUSIEST 16              /* the Busiest button's choice */

typedef struct {
  GstCtfGtkTimeline *timeline;  /* (weak: the picker lives in its window) */
  GListStore *tasks;            /* GstCtfGtkTask, busiest first */
  GtkCustomFilter *filter;
  GtkFilterListModel *shown;
  GtkWidget *search;
  gchar *needle;                /* lowercase search text */
} Picker;

static void
picker_free (Picker * p)
{
  g_object_unref (p->tasks);
  g_object_unref (p->shown);
  g_free (p->needle);
  g_free (p);
}

static Picker *
get_picker (GtkWidget * picker)
{
  return g_object_get_data (G_OBJECT (picker), "gst-ctf-viewer-picker");
}

/* Whether @tid has a row by the timeline's choice (NULL: every task). */
static gboolean
chosen (Picker * p, gint tid)
{
  gsize n, i;
  gint *tids = gst_ctf_gtk_timeline_get_task_row_tids (p->timeline, &n);
  gboolean yes = tids == NULL;

  for (i = 0; i < n && !yes; i++)
    yes = tids[i] == tid;
  g_free (tids);
  return yes;
}

/* Sets the choice to @tids and shows the rows. */
static void
choose (Picker * p, GArray * tids)
{
  gst_ctf_gtk_timeline_set_task_row_tids (p->timeline,
      tids ? (const gint *) tids->data : NULL, tids ? tids->len : 0);
  gst_ctf_gtk_timeline_set_task_rows (p->timeline, TRUE);
}

static gboolean
matches (gpointer item, gpointer data)
{
  Picker *p = data;
  GstCtfGtkTask *t = item;
  gchar *lower, tid[16];
  gboolean yes;

  if (p->needle == NULL || p->needle[0] == '\0')
    return TRUE;
  g_snprintf (tid, sizeof tid, "%d", gst_ctf_gtk_task_get_tid (t));
  if (g_str_has_prefix (tid, p->needle))
    return TRUE;
  lower = g_utf8_strdown (gst_ctf_gtk_task_get_comm (t), -1);
  yes = strstr (lower, p->needle) != NULL;
  g_free (lower);
  return yes;
}

/* ---- the columns ---- */

typedef enum {
  COL_SHOW,
  COL_TID,
  COL_COMM,
  COL_RUN,
  COL_RUNS,
} Column;

static void
on_check_toggled (GtkCheckButton * check, Picker * p)
{
  gint tid = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (check), "tid"));
  gboolean on = gtk_check_button_get_active (check);
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (gint));
  guint i, n = g_list_model_get_n_items (G_LIST_MODEL (p->tasks));

  /* the choice from the list's tasks (every one when all are chosen), with
   * @tid in or out */
  for (i = 0; i < n; i++) {
    GstCtfGtkTask *t = g_list_model_get_item (G_LIST_MODEL (p->tasks), i);
    gint x = gst_ctf_gtk_task_get_tid (t);

    if (x == tid ? on : chosen (p, x))
      g_array_append_val (tids, x);
    g_object_unref (t);
  }
  choose (p, tids->len == n ? NULL : tids);
  g_array_unref (tids);
}

static void
setup_cell (GtkSignalListItemFactory * f, GtkListItem * li, Picker * p)
{
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (f), "col"));
  GtkWidget *w;

  if (col == COL_SHOW) {
    w = gtk_check_button_new ();
    g_signal_connect (w, "toggled", G_CALLBACK (on_check_toggled), p);
  } else {
    w = gtk_label_new (NULL);
    gtk_label_set_xalign (GTK_LABEL (w), col == COL_COMM ? 0 : 1);
    gtk_label_set_single_line_mode (GTK_LABEL (w), TRUE);
    if (col != COL_COMM)
      gtk_widget_add_css_class (w, "numeric");
  }
  gtk_list_item_set_child (li, w);
}

static void
bind_cell (GtkSignalListItemFactory * f, GtkListItem * li, Picker * p)
{
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (f), "col"));
  GstCtfGtkTask *t = gtk_list_item_get_item (li);
  GtkWidget *w = gtk_list_item_get_child (li);
  gchar buf[64];

  switch (col) {
    case COL_SHOW:
      g_object_set_data (G_OBJECT (w), "tid",
          GINT_TO_POINTER (gst_ctf_gtk_task_get_tid (t)));
      g_signal_handlers_block_by_func (w, on_check_toggled, p);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (w), chosen (p,
              gst_ctf_gtk_task_get_tid (t)));
      g_signal_handlers_unblock_by_func (w, on_check_toggled, p);
      return;
    case COL_TID:
      g_snprintf (buf, sizeof buf, "%d", gst_ctf_gtk_task_get_tid (t));
      break;
    case COL_COMM:
      gtk_label_set_text (GTK_LABEL (w), gst_ctf_gtk_task_get_comm (t));
      return;
    case COL_RUN:
      g_snprintf (buf, sizeof buf, "%.3f ms",
          gst_ctf_gtk_task_get_run_time_ns (t) / 1e6);
      break;
    case COL_RUNS:
      g_snprintf (buf, sizeof buf, "%u", gst_ctf_gtk_task_get_n_runs (t));
      break;
  }
  gtk_label_set_text (GTK_LABEL (w), buf);
}

/* A column; a click on the title of one with @prop (a GstCtfGtkTask
 * property) sorts by it. */
static void
add_column (GtkColumnView * view, Picker * p, const gchar * title,
    Column col, gboolean expand, const gchar * prop)
{
  GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *c;

  g_object_set_data (G_OBJECT (f), "col", GINT_TO_POINTER (col));
  g_signal_connect (f, "setup", G_CALLBACK (setup_cell), p);
  g_signal_connect (f, "bind", G_CALLBACK (bind_cell), p);
  c = gtk_column_view_column_new (title, f);
  gtk_column_view_column_set_expand (c, expand);
  if (prop != NULL) {
    GtkExpression *e = gtk_property_expression_new (GST_CTF_GTK_TYPE_TASK,
        NULL, prop);
    GtkSorter *sorter = col == COL_COMM ?
        GTK_SORTER (gtk_string_sorter_new (e)) :
        GTK_SORTER (gtk_numeric_sorter_new (e));

    gtk_column_view_column_set_sorter (c, sorter);
    g_object_unref (sorter);
  }
  gtk_column_view_append_column (view, c);
  g_object_unref (c);
}

/* ---- the buttons ---- */

static void
on_all (GtkButton * b, Picker * p)
{
  choose (p, NULL);
  gst_ctf_viewer_tasks_picker_refresh (g_object_get_data (G_OBJECT (b),
          "picker"));
}

static void
on_none (GtkButton * b, Picker * p)
{
  GArray *none = g_array_new (FALSE, FALSE, sizeof (gint));

  choose (p, none);
  g_array_unref (none);
  gst_ctf_viewer_tasks_picker_refresh (g_object_get_data (G_OBJECT (b),
          "picker"));
}

static void
on_busiest (GtkButton * b, Picker * p)
{
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (gint));
  guint i, n = MIN (g_list_model_get_n_items (G_LIST_MODEL (p->tasks)),
      BUSIEST);

  for (i = 0; i < n; i++) {
    GstCtfGtkTask *t = g_list_model_get_item (G_LIST_MODEL (p->tasks), i);
    gint tid = gst_ctf_gtk_task_get_tid (t);

    g_array_append_val (tids, tid);
    g_object_unref (t);
  }
  choose (p, tids);
  g_array_unref (tids);
  gst_ctf_viewer_tasks_picker_refresh (g_object_get_data (G_OBJECT (b),
          "picker"));
}

static void
on_search_changed (GtkSearchEntry * e, Picker * p)
{
  g_free (p->needle);
  p->needle = g_utf8_strdown (gtk_editable_get_text (GTK_EDITABLE (e)), -1);
  gtk_filter_changed (GTK_FILTER (p->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static GtkWidget *
button (GtkWidget * box, GtkWidget * picker, const gchar * label,
    const gchar * tip, GCallback cb, Picker * p)
{
  GtkWidget *b = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_tooltip_text (b, tip);
  g_object_set_data (G_OBJECT (b), "picker", picker);
  g_signal_connect (b, "clicked", cb, p);
  gtk_box_append (GTK_BOX (box), b);
  return b;
}

/**
 * gst_ctf_viewer_tasks_picker_new:
 * @timeline: the timeline whose rows it chooses (outlives the picker)
 *
 * Returns: (transfer floating): the picker: a search field, the buttons
 *   and the list of tasks (as gst_ctf_viewer_tasks_picker_refresh() last
 *   read them)
 */
GtkWidget *
gst_ctf_viewer_tasks_picker_new (GstCtfGtkTimeline * timeline)
{
  Picker *p = g_new0 (Picker, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkWidget *view;

  p->timeline = timeline;
  p->tasks = g_list_store_new (GST_CTF_GTK_TYPE_TASK);
  p->filter = gtk_custom_filter_new (matches, p, NULL);
  p->shown = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL
          (p->tasks)), GTK_FILTER (p->filter));
  g_object_set_data_full (G_OBJECT (box), "gst-ctf-viewer-picker", p,
      (GDestroyNotify) picker_free);

  p->search = gtk_search_entry_new ();
  g_object_set (p->search, "placeholder-text", "Command or thread id",
      NULL);
  gtk_widget_set_hexpand (p->search, TRUE);
  g_signal_connect (p->search, "search-changed",
      G_CALLBACK (on_search_changed), p);
  gtk_box_append (GTK_BOX (row), p->search);
  button (row, box, "_All", "A row for every task (the default)",
      G_CALLBACK (on_all), p);
  button (row, box, "_None", "No task rows", G_CALLBACK (on_none), p);
  button (row, box, "_Busiest", "Rows for the 16 tasks that ran longest",
      G_CALLBACK (on_busiest), p);
  gtk_box_append (GTK_BOX (box), row);

  view = gtk_column_view_new (NULL);
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (view), TRUE);
  add_column (GTK_COLUMN_VIEW (view), p, "Row", COL_SHOW, FALSE, NULL);
  add_column (GTK_COLUMN_VIEW (view), p, "TID", COL_TID, FALSE, "tid");
  add_column (GTK_COLUMN_VIEW (view), p, "Command", COL_COMM, TRUE, "comm");
  add_column (GTK_COLUMN_VIEW (view), p, "Run time", COL_RUN, FALSE,
      "run-time-ns");
  add_column (GTK_COLUMN_VIEW (view), p, "Runs", COL_RUNS, FALSE, "n-runs");
  /* busiest first until a column's title is clicked */
  gtk_column_view_set_model (GTK_COLUMN_VIEW (view),
      GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL
              (gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL
                          (p->shown)), g_object_ref (gtk_column_view_get_sorter
                          (GTK_COLUMN_VIEW (view))))))));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), view);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll),
      GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scroll, 420, 360);
  gtk_widget_set_vexpand (scroll, TRUE);
  gtk_box_append (GTK_BOX (box), scroll);
  gst_ctf_viewer_tasks_picker_refresh (box);
  return box;
}

/**
 * gst_ctf_viewer_tasks_picker_refresh:
 * @picker: a picker
 *
 * Reads the timeline's tasks again (more come while the model indexes)
 * and its choice.
 */
void
gst_ctf_viewer_tasks_picker_refresh (GtkWidget * picker)
{
  Picker *p = get_picker (picker);
  GListModel *tasks = gst_ctf_gtk_timeline_list_tasks (p->timeline);
  guint n = g_list_model_get_n_items (tasks), i;
  gpointer *items = g_new (gpointer, MAX (n, 1));

  for (i = 0; i < n; i++)
    items[i] = g_list_model_get_item (tasks, i);
  /* (all items replaced: the check boxes are bound again) */
  g_list_store_splice (p->tasks, 0,
      g_list_model_get_n_items (G_LIST_MODEL (p->tasks)), items, n);
  for (i = 0; i < n; i++)
    g_object_unref (items[i]);
  g_free (items);
  g_object_unref (tasks);
}

/**
 * gst_ctf_viewer_tasks_picker_set_search:
 * @picker: a picker
 * @text: what the search field shows
 */
void
gst_ctf_viewer_tasks_picker_set_search (GtkWidget * picker,
    const gchar * text)
{
  gtk_editable_set_text (GTK_EDITABLE (get_picker (picker)->search), text);
  on_search_changed (GTK_SEARCH_ENTRY (get_picker (picker)->search),
      get_picker (picker));
}

/**
 * gst_ctf_viewer_tasks_picker_get_n_shown:
 * @picker: a picker
 *
 * Returns: the number of tasks the list shows (those the search keeps)
 */
guint
gst_ctf_viewer_tasks_picker_get_n_shown (GtkWidget * picker)
{
  return g_list_model_get_n_items (G_LIST_MODEL (get_picker (picker)->shown));
}

static void
on_popover_show (GtkWidget * popover, GtkWidget * picker)
{
  gst_ctf_viewer_tasks_picker_refresh (picker);
}

/**
 * gst_ctf_viewer_tasks_button_new:
 * @timeline: the timeline whose rows it chooses
 *
 * Returns: (transfer floating): a menu button opening the picker in a
 *   popover (the list read again each time it opens)
 */
GtkWidget *
gst_ctf_viewer_tasks_button_new (GstCtfGtkTimeline * timeline)
{
  GtkWidget *mb = gtk_menu_button_new ();
  GtkWidget *pop = gtk_popover_new ();
  GtkWidget *picker = gst_ctf_viewer_tasks_picker_new (timeline);

  gtk_menu_button_set_label (GTK_MENU_BUTTON (mb), "Ta_sk rows");
  gtk_menu_button_set_use_underline (GTK_MENU_BUTTON (mb), TRUE);
  gtk_widget_set_tooltip_text (mb, "Choose the tasks that get a row "
      "(thread id, command, run time)");
  gtk_popover_set_child (GTK_POPOVER (pop), picker);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (mb), pop);
  g_signal_connect (pop, "show", G_CALLBACK (on_popover_show), picker);
  return mb;
}

/**
 * gst_ctf_viewer_tasks_parse:
 * @text: `TID[,TID...]` (decimal thread ids)
 * @tids: (out) (transfer full): the thread ids (gint)
 * @error: a %G_OPTION_ERROR_BAD_VALUE naming the wrong entry
 *
 * Parses the value of --tasks.
 *
 * Returns: %FALSE on error
 */
gboolean
gst_ctf_viewer_tasks_parse (const gchar * text, GArray ** tids,
    GError ** error)
{
  gchar **parts = g_strsplit (text, ",", -1);
  guint i;

  *tids = g_array_new (FALSE, FALSE, sizeof (gint));
  for (i = 0; parts[i] != NULL; i++) {
    gint64 v;
    gint tid;

    if (!g_ascii_string_to_signed (g_strstrip (parts[i]), 10, 0, G_MAXINT,
            &v, NULL)) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--tasks: entry %u \"%s\" of \"%s\" is not a thread id "
          "(expected TID[,TID...])", i + 1, parts[i], text);
      g_strfreev (parts);
      g_clear_pointer (tids, g_array_unref);
      return FALSE;
    }
    tid = (gint) v;
    g_array_append_val (*tids, tid);
  }
  g_strfreev (parts);
  return TRUE;
}
