/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline's rows per task (#GstCtfGtkTimeline:task-rows): which
 * tasks get one (#GstCtfGtkTimeline:task-row-tids), the tasks to choose
 * from with their run time, and the label column, as wide as the labels
 * `comm-tid` of the rows shown.  gstctfgtk-timeline.c has the object,
 * gstctfgtk-timeline-draw.c draws the rows.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include "gstctfgtk-timeline-private.h"

static gint
cmp_tid (gconstpointer a, gconstpointer b)
{
  gint x = *(const gint *) a, y = *(const gint *) b;

  return (x > y) - (x < y);
}

static gboolean
tid_chosen (GstCtfGtkTimeline * self, gint tid)
{
  return self->row_tids == NULL || (self->row_tids->len > 0 &&
      bsearch (&tid, self->row_tids->data, self->row_tids->len,
          sizeof (gint), cmp_tid) != NULL);
}

/* The width of @self's task label @text, in px, as drawn. */
static gint
label_width (GstCtfGtkTimeline * self, const gchar * text)
{
  PangoLayout *layout = _gst_ctf_gtk_timeline_task_label_layout (self, text);
  gint w;

  pango_layout_get_pixel_size (layout, &w, NULL);
  g_object_unref (layout);
  return w;
}

/* Makes the rows (summary indices of the tasks shown) and the label
 * column's width again when the tasks or the choice changed. */
static void
update_rows (GstCtfGtkTimeline * self)
{
  GstCtfGtkSummary *sum;
  guint n, i;
  gint widest = 0;

  n = self->task_rows && self->model != NULL ?
      _gst_ctf_gtk_summary_get_n_tasks (_gst_ctf_gtk_event_model_get_summary
      (self->model)) : 0;
  if (self->rows_valid && n == self->rows_n_tasks)
    return;
  self->rows_valid = TRUE;
  self->rows_n_tasks = n;
  g_array_set_size (self->rows, 0);
  if (n > 0)
    sum = _gst_ctf_gtk_event_model_get_summary (self->model);
  for (i = 0; i < n; i++) {
    gint tid;
    const gchar *comm = _gst_ctf_gtk_summary_get_task_info (sum, i, &tid);
    gchar *label;

    if (!tid_chosen (self, tid))
      continue;
    g_array_append_val (self->rows, i);
    label = g_strdup_printf ("%s-%d", comm ? comm : "", tid);
    widest = MAX (widest, label_width (self, label));
    g_free (label);
  }
  /* 4 px before the text, 6 after it */
  self->label_w = CLAMP (widest + 10, LABEL_W, LABEL_MAX_W);
}

void
_gst_ctf_gtk_timeline_invalidate_rows (GstCtfGtkTimeline * self)
{
  self->rows_valid = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

guint
_gst_ctf_gtk_timeline_n_task_rows (GstCtfGtkTimeline * self)
{
  update_rows (self);
  return self->rows->len;
}

guint
_gst_ctf_gtk_timeline_task_row_index (GstCtfGtkTimeline * self, guint row)
{
  update_rows (self);
  return row < self->rows->len ? g_array_index (self->rows, guint, row) :
      G_MAXUINT;
}

gdouble
_gst_ctf_gtk_timeline_label_width (GstCtfGtkTimeline * self)
{
  update_rows (self);
  return self->label_w;
}

PangoLayout *
_gst_ctf_gtk_timeline_task_label_layout (GstCtfGtkTimeline * self,
    const gchar * text)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self),
      text);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_scale_new (0.8));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

/**
 * gst_ctf_gtk_timeline_set_task_row_tids:
 * @timeline: a timeline
 * @tids: (array length=n_tids) (nullable): thread ids, in any order;
 *   %NULL for every task
 * @n_tids: their number
 *
 * Chooses the tasks that get a row with #GstCtfGtkTimeline:task-rows
 * (#GstCtfGtkTimeline:task-row-tids): those of @tids that the trace's
 * `sched_switch` events name, by thread id, whatever the order of
 * @tids.  An empty list gives no row; %NULL (the default) a row to every
 * task.  Pick them from gst_ctf_gtk_timeline_list_tasks().
 */
void
gst_ctf_gtk_timeline_set_task_row_tids (GstCtfGtkTimeline * timeline,
    const gint * tids, gsize n_tids)
{
  GArray *a = NULL;

  g_return_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline));
  g_return_if_fail (tids != NULL || n_tids == 0);
  if (tids != NULL) {
    gsize i;

    a = g_array_sized_new (FALSE, FALSE, sizeof (gint), n_tids);
    g_array_append_vals (a, tids, n_tids);
    g_array_sort (a, cmp_tid);
    /* without repeats */
    for (i = 1; i < a->len;)
      if (g_array_index (a, gint, i) == g_array_index (a, gint, i - 1))
        g_array_remove_index (a, i);
      else
        i++;
  }
  if (a == NULL && timeline->row_tids == NULL)
    return;
  if (a != NULL && timeline->row_tids != NULL &&
      a->len == timeline->row_tids->len && (a->len == 0 ||
          memcmp (a->data, timeline->row_tids->data,
              a->len * sizeof (gint)) == 0)) {
    g_array_unref (a);
    return;
  }
  g_clear_pointer (&timeline->row_tids, g_array_unref);
  timeline->row_tids = a;
  _gst_ctf_gtk_timeline_invalidate_rows (timeline);
  _gst_ctf_gtk_timeline_notify_row_tids (timeline);
}

/**
 * gst_ctf_gtk_timeline_get_task_row_tids:
 * @timeline: a timeline
 * @n_tids: (out): the number of thread ids returned
 *
 * Returns: (transfer full) (array length=n_tids) (nullable): the thread
 *   ids given to gst_ctf_gtk_timeline_set_task_row_tids(), in increasing
 *   order without repeats; %NULL when every task gets a row
 */
gint *
gst_ctf_gtk_timeline_get_task_row_tids (GstCtfGtkTimeline * timeline,
    gsize * n_tids)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), NULL);
  g_return_val_if_fail (n_tids != NULL, NULL);
  *n_tids = 0;
  if (timeline->row_tids == NULL)
    return NULL;
  *n_tids = timeline->row_tids->len;
  if (*n_tids == 0)
    return g_new0 (gint, 1);    /* none, not NULL (every task) */
  return g_memdup2 (timeline->row_tids->data, *n_tids * sizeof (gint));
}

/**
 * gst_ctf_gtk_timeline_get_shown_task_tids:
 * @timeline: a timeline
 * @n_tids: (out): the number of rows
 *
 * The tasks that have a row now, top to bottom (by thread id): none
 * without #GstCtfGtkTimeline:task-rows; as the model indexes, more tasks
 * may come.
 *
 * Returns: (transfer full) (array length=n_tids) (nullable): their thread
 *   ids, %NULL when there is no row
 */
gint *
gst_ctf_gtk_timeline_get_shown_task_tids (GstCtfGtkTimeline * timeline,
    gsize * n_tids)
{
  GstCtfGtkSummary *sum;
  gint *tids;
  guint i, n;

  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), NULL);
  g_return_val_if_fail (n_tids != NULL, NULL);
  *n_tids = n = _gst_ctf_gtk_timeline_n_task_rows (timeline);
  if (n == 0)
    return NULL;
  sum = _gst_ctf_gtk_event_model_get_summary (timeline->model);
  tids = g_new (gint, n);
  for (i = 0; i < n; i++)
    _gst_ctf_gtk_summary_get_task_info (sum,
        g_array_index (timeline->rows, guint, i), &tids[i]);
  return tids;
}

static gint
cmp_busiest (gconstpointer a, gconstpointer b)
{
  GstCtfGtkTask *x = *(GstCtfGtkTask **) a, *y = *(GstCtfGtkTask **) b;
  guint64 rx = gst_ctf_gtk_task_get_run_time_ns (x);
  guint64 ry = gst_ctf_gtk_task_get_run_time_ns (y);

  gint tx = gst_ctf_gtk_task_get_tid (x), ty = gst_ctf_gtk_task_get_tid (y);

  if (rx != ry)
    return rx < ry ? 1 : -1;
  return cmp_tid (&tx, &ty);
}

/**
 * gst_ctf_gtk_timeline_list_tasks:
 * @timeline: a timeline
 *
 * The tasks of the model's kernel trace, one per thread id its
 * `sched_switch` events name (the idle task left out), known so far (the
 * model indexes the trace in the background: call again once it is
 * loaded), with how long each ran (#GstCtfGtkTask:run-time-ns) and how
 * often, busiest first (then by thread id).  Each is a candidate for a row
 * (gst_ctf_gtk_timeline_set_task_row_tids()); the list is a copy and does
 * not change.
 *
 * Returns: (transfer full): a list of #GstCtfGtkTask, empty without a
 *   model or `sched_switch` events
 */
GListModel *
gst_ctf_gtk_timeline_list_tasks (GstCtfGtkTimeline * timeline)
{
  GListStore *store = g_list_store_new (GST_CTF_GTK_TYPE_TASK);
  GstCtfGtkSummary *sum;
  GPtrArray *tasks;
  GArray *runs;
  gint64 t0, t1;
  guint n, i, k;

  g_return_val_if_fail (GST_CTF_GTK_IS_TIMELINE (timeline), NULL);
  if (timeline->model == NULL)
    return G_LIST_MODEL (store);
  sum = _gst_ctf_gtk_event_model_get_summary (timeline->model);
  if (!_gst_ctf_gtk_summary_get_range (sum, &t0, &t1))
    return G_LIST_MODEL (store);
  n = _gst_ctf_gtk_summary_get_n_tasks (sum);
  tasks = g_ptr_array_new_full (n, g_object_unref);
  runs = g_array_new (FALSE, FALSE, sizeof (GstCtfGtkSpan));
  for (i = 0; i < n; i++) {
    gint tid;
    const gchar *comm = _gst_ctf_gtk_summary_get_task_info (sum, i, &tid);
    guint64 run_ns = 0;

    /* every run as it is: more columns than runs (spans_for_columns()),
     * cut to the trace's first and last events */
    _gst_ctf_gtk_summary_get_task_runs (sum, i, t0, t1 + 1, G_MAXUINT / 2,
        runs);
    for (k = 0; k < runs->len; k++) {
      const GstCtfGtkSpan *sp = &g_array_index (runs, GstCtfGtkSpan, k);

      run_ns += (guint64) (MIN (sp->end, t1) - sp->start);
    }
    g_ptr_array_add (tasks, gst_ctf_gtk_task_new (tid, comm, run_ns,
            runs->len));
  }
  g_ptr_array_sort (tasks, cmp_busiest);
  g_list_store_splice (store, 0, 0, tasks->pdata, tasks->len);
  g_ptr_array_unref (tasks);
  g_array_unref (runs);
  return G_LIST_MODEL (store);
}
