/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkSearch: next/previous match of a filter from a row, read
 * incrementally.
 *
 * Forward from row R: the reader seeks its packet source to the model's
 * checkpoint at or before R + 1 (gstctfgtk-event-model.c: the rows from a
 * checkpoint on are at its time or later), drops the events older than
 * the checkpoint's time, walks (without decoding) to R + 1 and decides
 * each row from there with the filter model's matcher, stopping at the
 * first match.  Backward from R: the rows from the checkpoint before R to
 * R are decided, the last match kept; without one, the segment before
 * that checkpoint is read, and so on towards the first row.  Only the
 * values of the events whose class plan needs them are decoded.
 *
 * The packet source and matcher are kept between finds (one at a time;
 * a find started while another runs opens its own).
 *
 * A live session is searched in the packets the model received
 * (gstctfgtk-row-reader.h), among the rows its index has found when the
 * find starts: a find does not wait for the session.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfgtk-search.h"
#include "gstctfgtk-event-model-private.h"
#include "gstctfgtk-row-reader.h"

#define CANCEL_CHECK_EVENTS 1024

typedef GstCtfGtkRowReader Reader;

struct _GstCtfGtkSearch {
  GObject parent;

  GstCtfGtkEventModel *model;
  gchar *path;
  gchar *expression;
  GstCtfFilterSpec *spec;

  GMutex lock;                  /* guards the rest */
  Reader *idle;                 /* a reader no find uses, or NULL */
  guint64 last_n_read;
};

G_DEFINE_FINAL_TYPE (GstCtfGtkSearch, gst_ctf_gtk_search, G_TYPE_OBJECT);

static void
reader_free (Reader * r)
{
  _gst_ctf_gtk_row_reader_free (r);
}

static Reader *
reader_take (GstCtfGtkSearch * self, GError ** error)
{
  Reader *r;

  g_mutex_lock (&self->lock);
  r = g_steal_pointer (&self->idle);
  g_mutex_unlock (&self->lock);
  if (r != NULL)
    return r;
  /* live: what the model received, up to where the find gets */
  return _gst_ctf_gtk_row_reader_new (self->path,
      _gst_ctf_gtk_event_model_new_live_source (self->model), self->spec,
      error);
}

static void
reader_give_back (GstCtfGtkSearch * self, Reader * r)
{
  g_mutex_lock (&self->lock);
  if (self->idle == NULL) {
    self->idle = r;
    r = NULL;
  }
  g_mutex_unlock (&self->lock);
  reader_free (r);
}

/* The index of the last checkpoint whose row is at most @row, -1 for
 * none (the first row). */
static gint
checkpoint_at (GArray * cps, guint64 row)
{
  guint lo = 0, hi = cps->len;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (g_array_index (cps, GstCtfGtkCheckpoint, mid).row <= row)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (gint) lo - 1;
}

/* Decides the rows from checkpoint @ci (-1: the first row) on: from
 * @first (rows before it are walked only) up to @end (excluded,
 * G_MAXUINT64: the end of the trace), stopping at the first match when
 * @first_only.  Returns whether a match was found (the last one in
 * @match unless @first_only); FALSE with @error set on error. */
static gboolean
scan (Reader * r, GArray * cps, gint ci, guint64 first, guint64 end,
    gboolean first_only, GCancellable * cancellable, guint64 * n_read,
    guint64 * match, GError ** error)
{
  gboolean found = FALSE;
  GstCtfMergeItem item;
  guint64 row;

  if (!_gst_ctf_gtk_row_reader_reset (r, ci >= 0 ? &g_array_index (cps,
              GstCtfGtkCheckpoint, ci) : NULL, error))
    return FALSE;
  for (;;) {
    gint n = _gst_ctf_gtk_row_reader_next (r, &item, &row, error);

    if (n < 0)
      return FALSE;
    if (n == GST_CTF_GTK_ROW_CAUGHT_UP)
      continue;
    if (n == 0 || row >= end)
      break;
    if ((++*n_read % CANCEL_CHECK_EVENTS) == 0 &&
        g_cancellable_set_error_if_cancelled (cancellable, error))
      return FALSE;
    if (row < first)
      continue;
    if (!_gst_ctf_gtk_row_reader_keeps (r, &item, error)) {
      if (error != NULL && *error != NULL)
        return FALSE;
      continue;
    }
    *match = row;
    found = TRUE;
    if (first_only)
      break;
  }
  return found;
}

static gboolean
find (GstCtfGtkSearch * self, Reader * r, gint64 from, gboolean forward,
    GCancellable * cancellable, guint64 * match, GError ** error)
{
  GArray *cps = _gst_ctf_gtk_event_model_copy_checkpoints (self->model);
  guint64 n_read = 0;
  gboolean found = FALSE;
  GError *err = NULL;

  /* live: the rows the model's index found (their numbers are the same
   * whatever the reader received after them); on disk, every row */
  guint64 limit = _gst_ctf_gtk_packet_source_get_live
      (_gst_ctf_gtk_row_reader_get_source (r)) != NULL ?
      _gst_ctf_gtk_event_model_get_n_indexed (self->model) : G_MAXUINT64;

  if (forward) {
    guint64 first = from < 0 ? 0 : (guint64) from + 1;

    found = scan (r, cps, checkpoint_at (cps, first), first, limit,
        TRUE, cancellable, &n_read, match, &err);
  } else if (from > 0 && limit > 0) {
    guint64 end = MIN ((guint64) from, limit);

    for (;;) {
      gint ci = checkpoint_at (cps, end - 1);
      guint64 start = ci >= 0 ? g_array_index (cps, GstCtfGtkCheckpoint,
          ci).row : 0;

      found = scan (r, cps, ci, start, end, FALSE, cancellable, &n_read,
          match, &err);
      if (found || err != NULL || start == 0)
        break;
      end = start;
    }
  }
  g_array_unref (cps);
  g_mutex_lock (&self->lock);
  self->last_n_read = n_read;
  g_mutex_unlock (&self->lock);
  if (err != NULL) {
    if (!g_error_matches (err, G_IO_ERROR, G_IO_ERROR_CANCELLED))
      g_prefix_error (&err, "Cannot search \"%s\": ", self->path);
    g_propagate_error (error, err);
    return FALSE;
  }
  return found;
}

static void
gst_ctf_gtk_search_init (GstCtfGtkSearch * self)
{
  g_mutex_init (&self->lock);
}

static void
gst_ctf_gtk_search_finalize (GObject * object)
{
  GstCtfGtkSearch *self = GST_CTF_GTK_SEARCH (object);

  reader_free (self->idle);
  gst_ctf_filter_spec_free (self->spec);
  g_clear_object (&self->model);
  g_free (self->path);
  g_free (self->expression);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (gst_ctf_gtk_search_parent_class)->finalize (object);
}

static void
gst_ctf_gtk_search_class_init (GstCtfGtkSearchClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_ctf_gtk_search_finalize;
}

/**
 * gst_ctf_gtk_search_new:
 * @model: the model whose rows are searched (its path is read again)
 * @expression: the filter whose matches are searched for, as
 *   gst_ctf_gtk_filter_model_new() takes it
 * @error: return location for a %GST_CTF_ERROR_FILTER_SYNTAX (with the
 *   column)
 *
 * Returns: (transfer full) (nullable): the search, %NULL when
 *   @expression does not parse
 */
GstCtfGtkSearch *
gst_ctf_gtk_search_new (GstCtfGtkEventModel * model,
    const gchar * expression, GError ** error)
{
  GstCtfGtkSearch *self;
  GstCtfFilterSpec *spec;

  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), NULL);
  g_return_val_if_fail (expression != NULL, NULL);

  spec = gst_ctf_filter_spec_parse (expression, error);
  if (spec == NULL)
    return NULL;
  self = g_object_new (GST_CTF_GTK_TYPE_SEARCH, NULL);
  self->model = g_object_ref (model);
  self->path = g_strdup (gst_ctf_gtk_event_model_get_path (model));
  self->expression = g_strdup (expression);
  self->spec = spec;
  return self;
}

/**
 * gst_ctf_gtk_search_get_expression:
 * @search: a search
 *
 * Returns: (transfer none): the expression given to
 *   gst_ctf_gtk_search_new()
 */
const gchar *
gst_ctf_gtk_search_get_expression (GstCtfGtkSearch * search)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_SEARCH (search), NULL);
  return search->expression;
}

/**
 * gst_ctf_gtk_search_find:
 * @search: a search
 * @row: the row searched from (not itself a candidate); -1 searches
 *   forward from the first row, the number of rows backward from the last
 * @forward: %TRUE for the first match after @row, %FALSE for the last
 *   match before it
 * @cancellable: (nullable): stops the search (%G_IO_ERROR_CANCELLED)
 * @match: (out): the row of the match
 * @error: return location for a %GST_CTF_ERROR from the readers or
 *   %G_IO_ERROR_CANCELLED
 *
 * Reads the trace from the model's checkpoint at (or before) @row until
 * the first match only (backward: segment by segment, each from its
 * checkpoint).  Blocks; gst_ctf_gtk_search_find_async() runs it on a
 * worker thread.  The model's rows found so far give the checkpoints; a
 * match may lie beyond the rows it has published yet.  On a live
 * session the rows searched are the ones the model's index has found
 * when the find starts (read from the packets the model received):
 * %FALSE when none of them after (before) @row matches yet.
 *
 * Returns: whether a match was found (%FALSE with @error unset: none)
 */
gboolean
gst_ctf_gtk_search_find (GstCtfGtkSearch * search, gint64 row,
    gboolean forward, GCancellable * cancellable, guint64 * match,
    GError ** error)
{
  Reader *r;
  gboolean found;

  g_return_val_if_fail (GST_CTF_GTK_IS_SEARCH (search), FALSE);
  g_return_val_if_fail (match != NULL, FALSE);

  r = reader_take (search, error);
  if (r == NULL)
    return FALSE;
  found = find (search, r, row, forward, cancellable, match, error);
  reader_give_back (search, r);
  return found;
}

typedef struct {
  gint64 row;
  gboolean forward;
  guint64 match;
} FindData;

static void
find_thread (GTask * task, gpointer source, gpointer task_data,
    GCancellable * cancellable)
{
  FindData *d = task_data;
  GError *err = NULL;
  gboolean found = gst_ctf_gtk_search_find (source, d->row, d->forward,
      cancellable, &d->match, &err);

  if (err != NULL)
    g_task_return_error (task, err);
  else
    g_task_return_boolean (task, found);
}

/**
 * gst_ctf_gtk_search_find_async:
 * @search: a search
 * @row: as gst_ctf_gtk_search_find() takes it
 * @forward: as gst_ctf_gtk_search_find() takes it
 * @cancellable: (nullable): stops the search
 * @callback: called in the thread-default main context of the caller
 * @user_data: for @callback
 *
 * gst_ctf_gtk_search_find() on a worker thread.
 */
void
gst_ctf_gtk_search_find_async (GstCtfGtkSearch * search, gint64 row,
    gboolean forward, GCancellable * cancellable,
    GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *task;
  FindData *d;

  g_return_if_fail (GST_CTF_GTK_IS_SEARCH (search));

  task = g_task_new (search, cancellable, callback, user_data);
  g_task_set_source_tag (task, gst_ctf_gtk_search_find_async);
  d = g_new0 (FindData, 1);
  d->row = row;
  d->forward = forward;
  g_task_set_task_data (task, d, g_free);
  g_task_run_in_thread (task, find_thread);
  g_object_unref (task);
}

/**
 * gst_ctf_gtk_search_find_finish:
 * @search: a search
 * @result: the result given to the callback
 * @match: (out): the row of the match
 * @error: as gst_ctf_gtk_search_find() sets it
 *
 * Returns: whether a match was found (%FALSE with @error unset: none)
 */
gboolean
gst_ctf_gtk_search_find_finish (GstCtfGtkSearch * search,
    GAsyncResult * result, guint64 * match, GError ** error)
{
  GTask *task = G_TASK (result);
  gboolean found;

  g_return_val_if_fail (g_task_is_valid (result, search), FALSE);

  found = g_task_propagate_boolean (task, error);
  if (found)
    *match = ((FindData *) g_task_get_task_data (task))->match;
  return found;
}

/**
 * gst_ctf_gtk_search_get_last_n_read:
 * @search: a search
 *
 * How much the last find read, e.g. to check that it did not read the
 * whole trace.
 *
 * Returns: the number of rows the last find that ended walked
 */
guint64
gst_ctf_gtk_search_get_last_n_read (GstCtfGtkSearch * search)
{
  guint64 n;

  g_return_val_if_fail (GST_CTF_GTK_IS_SEARCH (search), 0);
  g_mutex_lock (&search->lock);
  n = search->last_n_read;
  g_mutex_unlock (&search->lock);
  return n;
}
