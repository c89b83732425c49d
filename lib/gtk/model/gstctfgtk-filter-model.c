/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkFilterModel: the rows of a GstCtfGtkEventModel that a filter
 * expression keeps.
 *
 * A thread reads the trace again with its own packet source and event
 * merger (gstctfgtk-row-reader.h; not recording: values are decoded only
 * for the events of the classes whose plan needs them,
 * gst_ctf_event_merge_get_values()), in the base model's row order, and
 * decides each event with the plan of its event class
 * (gst_ctf_filter_plan_new(), the code path ctffilter takes).  On a live
 * session it reads the packets the base model's follower received and
 * waits for more, as the base model's index does, until the session
 * ends: the matches grow with it.
 * It keeps only the base row numbers of the matches (8 bytes a match),
 * published to the main context in batches (`items-changed` every
 * PUBLISH_MS at most).  Items are the base model's items.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfgtk-filter-model.h"
#include "gstctfgtk-event.h"
#include "gstctfgtk-row-reader.h"
#include "gstctfgtk-event-model-private.h"

#define PUBLISH_MS 100

typedef struct {
  gint ref;
  gint cancelled;               /* atomic */
  gchar *path;
  GstCtfFilterSpec *spec;
  GstCtfGtkPacketSource *live;  /* the base model's session, or NULL */
  GWeakRef model;
  GMainContext *context;

  GMutex lock;                  /* guards the rest */
  GArray *rows;                 /* guint64 base rows, ascending */
  gboolean done;
  GError *error;
  gboolean publish_pending;
  GSource *idle;                /* the pending publish_cb (a reference) */
} FilterJob;

struct _GstCtfGtkFilterModel {
  GObject parent;

  GstCtfGtkEventModel *base;
  gchar *expression;
  guint n_items;                /* published matches */
  gboolean loading;
  GError *error;
  FilterJob *job;
  GThread *thread;
};

enum {
  PROP_0,
  PROP_LOADING,
  PROP_N_ITEMS,
  PROP_ITEM_TYPE,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void list_model_init (GListModelInterface * iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GstCtfGtkFilterModel, gst_ctf_gtk_filter_model,
    G_TYPE_OBJECT, G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
        list_model_init));

static FilterJob *
filter_job_ref (FilterJob * job)
{
  g_atomic_int_inc (&job->ref);
  return job;
}

static void
filter_job_unref (FilterJob * job)
{
  if (!g_atomic_int_dec_and_test (&job->ref))
    return;
  g_free (job->path);
  _gst_ctf_gtk_packet_source_free (job->live);
  gst_ctf_filter_spec_free (job->spec);
  g_weak_ref_clear (&job->model);
  g_main_context_unref (job->context);
  g_mutex_clear (&job->lock);
  g_array_unref (job->rows);
  g_clear_error (&job->error);
  g_free (job);
}

static gboolean publish_cb (gpointer data);

/* Called with the lock held. */
static void
publish_locked (FilterJob * job)
{
  GSource *idle;

  if (job->publish_pending)
    return;
  job->publish_pending = TRUE;
  idle = g_idle_source_new ();
  g_source_set_priority (idle, G_PRIORITY_DEFAULT);
  g_source_set_callback (idle, publish_cb, filter_job_ref (job),
      (GDestroyNotify) filter_job_unref);
  g_source_attach (idle, job->context);
  job->idle = idle;
}

static gpointer
filter_thread (gpointer data)
{
  FilterJob *job = data;
  GstCtfGtkRowReader *reader;
  GError *err = NULL;
  gint64 last_publish = g_get_monotonic_time ();
  GArray *batch = g_array_new (FALSE, FALSE, sizeof (guint64));

  reader = _gst_ctf_gtk_row_reader_new (job->path,
      g_steal_pointer (&job->live), job->spec, &err);
  /* a live session: its rows as they come, to its end */
  if (reader != NULL)
    _gst_ctf_gtk_packet_source_follow (_gst_ctf_gtk_row_reader_get_source
        (reader), TRUE, &job->cancelled);
  while (reader != NULL && !g_atomic_int_get (&job->cancelled)) {
    GstCtfMergeItem item;
    guint64 row;
    gint n = _gst_ctf_gtk_row_reader_next (reader, &item, &row, &err);
    gboolean keep;

    if (n <= 0)
      break;
    if (n == GST_CTF_GTK_ROW_CAUGHT_UP) {
      /* live: the matches so far go out before the relay is waited for */
      if (batch->len > 0) {
        g_mutex_lock (&job->lock);
        g_array_append_vals (job->rows, batch->data, batch->len);
        publish_locked (job);
        g_mutex_unlock (&job->lock);
        g_array_set_size (batch, 0);
        last_publish = g_get_monotonic_time ();
      }
      continue;
    }
    keep = _gst_ctf_gtk_row_reader_keeps (reader, &item, &err);
    if (err != NULL)
      break;
    if (keep)
      g_array_append_val (batch, row);
    if (((row + 1) % 4096) == 0 && batch->len > 0) {
      gint64 now = g_get_monotonic_time ();

      if (now - last_publish >= PUBLISH_MS * 1000) {
        g_mutex_lock (&job->lock);
        g_array_append_vals (job->rows, batch->data, batch->len);
        publish_locked (job);
        g_mutex_unlock (&job->lock);
        g_array_set_size (batch, 0);
        last_publish = now;
      }
    }
  }
  _gst_ctf_gtk_row_reader_free (reader);

  g_mutex_lock (&job->lock);
  g_array_append_vals (job->rows, batch->data, batch->len);
  job->done = TRUE;
  job->error = err;
  publish_locked (job);
  g_mutex_unlock (&job->lock);
  g_array_unref (batch);
  filter_job_unref (job);
  return NULL;
}

/* Main context: the matches found so far become items. */
static void
take_published (GstCtfGtkFilterModel * self)
{
  FilterJob *job = self->job;
  guint old = self->n_items, now;
  gboolean done;
  GSource *idle;

  g_mutex_lock (&job->lock);
  job->publish_pending = FALSE;
  idle = g_steal_pointer (&job->idle);
  /* only rows the base model has published already (its index may be
   * behind this thread): the rest once it has them */
  {
    guint base_n = g_list_model_get_n_items (G_LIST_MODEL (self->base));
    guint lo = 0, hi = MIN (job->rows->len, G_MAXUINT);

    while (lo < hi) {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (job->rows, guint64, mid) < base_n)
        lo = mid + 1;
      else
        hi = mid;
    }
    now = lo;
    done = job->done && now == job->rows->len;
  }
  if (done && self->error == NULL && job->error != NULL)
    self->error = g_error_copy (job->error);
  g_mutex_unlock (&job->lock);
  /* done here (also when called by wait() before it ran) */
  if (idle != NULL) {
    g_source_destroy (idle);
    g_source_unref (idle);
  }

  self->n_items = now;
  if (now != old) {
    g_list_model_items_changed (G_LIST_MODEL (self), old, 0, now - old);
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_ITEMS]);
  }
  if (done && self->loading) {
    self->loading = FALSE;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LOADING]);
  }
}

static gboolean
publish_cb (gpointer data)
{
  FilterJob *job = data;
  GstCtfGtkFilterModel *self = g_weak_ref_get (&job->model);

  if (self != NULL) {
    take_published (self);
    g_object_unref (self);
  }
  return G_SOURCE_REMOVE;
}

static void
on_base_items_changed (GListModel * base, guint pos, guint removed,
    guint added, GstCtfGtkFilterModel * self)
{
  if (self->loading)
    take_published (self);
}

/* ---- GListModel ---- */

static gpointer
get_item (GListModel * list, guint position)
{
  GstCtfGtkFilterModel *self = GST_CTF_GTK_FILTER_MODEL (list);

  if (position >= self->n_items)
    return NULL;
  return g_list_model_get_item (G_LIST_MODEL (self->base),
      (guint) gst_ctf_gtk_filter_model_get_base_row (self, position));
}

static GType
get_item_type (GListModel * list)
{
  return GST_CTF_GTK_TYPE_EVENT;
}

static guint
get_n_items (GListModel * list)
{
  return GST_CTF_GTK_FILTER_MODEL (list)->n_items;
}

static void
list_model_init (GListModelInterface * iface)
{
  iface->get_item = get_item;
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
}

/* ---- GObject ---- */

static void
gst_ctf_gtk_filter_model_init (GstCtfGtkFilterModel * self)
{
}

static void
gst_ctf_gtk_filter_model_dispose (GObject * object)
{
  GstCtfGtkFilterModel *self = GST_CTF_GTK_FILTER_MODEL (object);

  if (self->thread != NULL) {
    g_atomic_int_set (&self->job->cancelled, 1);
    g_thread_join (self->thread);
    self->thread = NULL;
  }
  if (self->job != NULL) {
    /* a publish still pending: its source holds the job, never run when
     * the context is not iterated again */
    GSource *idle;

    g_mutex_lock (&self->job->lock);
    idle = g_steal_pointer (&self->job->idle);
    self->job->publish_pending = FALSE;
    g_mutex_unlock (&self->job->lock);
    if (idle != NULL) {
      g_source_destroy (idle);
      g_source_unref (idle);
    }
  }
  if (self->base != NULL)
    g_signal_handlers_disconnect_by_data (self->base, self);
  g_clear_object (&self->base);
  G_OBJECT_CLASS (gst_ctf_gtk_filter_model_parent_class)->dispose (object);
}

static void
gst_ctf_gtk_filter_model_finalize (GObject * object)
{
  GstCtfGtkFilterModel *self = GST_CTF_GTK_FILTER_MODEL (object);

  if (self->job != NULL)
    filter_job_unref (self->job);
  g_free (self->expression);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (gst_ctf_gtk_filter_model_parent_class)->finalize (object);
}

static void
gst_ctf_gtk_filter_model_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfGtkFilterModel *self = GST_CTF_GTK_FILTER_MODEL (object);

  switch (prop_id) {
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->n_items);
      break;
    case PROP_ITEM_TYPE:
      g_value_set_gtype (value, GST_CTF_GTK_TYPE_EVENT);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
gst_ctf_gtk_filter_model_class_init (GstCtfGtkFilterModelClass * klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);

  oc->dispose = gst_ctf_gtk_filter_model_dispose;
  oc->finalize = gst_ctf_gtk_filter_model_finalize;
  oc->get_property = gst_ctf_gtk_filter_model_get_property;

  /**
   * GstCtfGtkFilterModel:loading:
   *
   * Whether the thread is still looking for matches.
   */
  props[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, TRUE,
      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * GstCtfGtkFilterModel:n-items:
   *
   * The number of matches published so far.
   */
  props[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0,
      G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
      G_PARAM_EXPLICIT_NOTIFY);
  /**
   * GstCtfGtkFilterModel:item-type:
   *
   * %GST_CTF_GTK_TYPE_EVENT.
   */
  props[PROP_ITEM_TYPE] = g_param_spec_gtype ("item-type", NULL, NULL,
      G_TYPE_OBJECT, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (oc, N_PROPS, props);
}

/**
 * gst_ctf_gtk_filter_model_new:
 * @base: the model of the whole trace (its items are given back)
 * @expression: a filter in trace-cmd's `report -F` grammar, as
 *   ctffilter's `filter` property takes it (see gst_ctf_filter_expr_parse())
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_FILTER_SYNTAX: the parser's message, with the column)
 *
 * Starts a thread that reads @base's trace again and keeps the base row
 * numbers of the events @expression keeps.  Matches are published to the
 * thread-default main context of the caller in batches; #GListModel
 * items are @base's items.  Memory: 8 bytes per match.
 *
 * On a live session (@base made from a `net://` URL) the thread reads
 * the packets @base received (no second attach to the relay) and waits
 * for more: the matches grow as the session records, in the order of
 * `lttnglivesrc ! ctffilter ! ctftextsink`, and
 * #GstCtfGtkFilterModel:loading stays %TRUE until the session ends.
 *
 * Returns: (transfer full) (nullable): the model, %NULL when @expression
 *   does not parse
 */
GstCtfGtkFilterModel *
gst_ctf_gtk_filter_model_new (GstCtfGtkEventModel * base,
    const gchar * expression, GError ** error)
{
  GstCtfGtkFilterModel *self;
  GstCtfFilterSpec *spec;
  FilterJob *job;

  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (base), NULL);
  g_return_val_if_fail (expression != NULL, NULL);

  spec = gst_ctf_filter_spec_parse (expression, error);
  if (spec == NULL)
    return NULL;

  self = g_object_new (GST_CTF_GTK_TYPE_FILTER_MODEL, NULL);
  self->base = g_object_ref (base);
  self->expression = g_strdup (expression);
  self->loading = TRUE;

  job = g_new0 (FilterJob, 1);
  job->ref = 1;
  job->path = g_strdup (gst_ctf_gtk_event_model_get_path (base));
  job->spec = spec;
  /* (the packets the base model received: not a second attach) */
  job->live = _gst_ctf_gtk_event_model_new_live_source (base);
  g_weak_ref_init (&job->model, self);
  job->context = g_main_context_ref_thread_default ();
  g_mutex_init (&job->lock);
  job->rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->job = job;
  g_signal_connect (base, "items-changed", G_CALLBACK (on_base_items_changed),
      self);
  self->thread = g_thread_new ("gstctf-filter", filter_thread,
      filter_job_ref (job));
  return self;
}

/**
 * gst_ctf_gtk_filter_model_get_base:
 * @model: a filter model
 *
 * Returns: (transfer none): the model whose rows @model filters
 */
GstCtfGtkEventModel *
gst_ctf_gtk_filter_model_get_base (GstCtfGtkFilterModel * model)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_FILTER_MODEL (model), NULL);
  return model->base;
}

/**
 * gst_ctf_gtk_filter_model_get_expression:
 * @model: a filter model
 *
 * Returns: (transfer none): the expression given to
 *   gst_ctf_gtk_filter_model_new()
 */
const gchar *
gst_ctf_gtk_filter_model_get_expression (GstCtfGtkFilterModel * model)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_FILTER_MODEL (model), NULL);
  return model->expression;
}

/**
 * gst_ctf_gtk_filter_model_get_loading:
 * @model: a filter model
 *
 * Returns: whether matches are still being looked for
 */
gboolean
gst_ctf_gtk_filter_model_get_loading (GstCtfGtkFilterModel * model)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_FILTER_MODEL (model), FALSE);
  return model->loading;
}

/**
 * gst_ctf_gtk_filter_model_wait:
 * @model: a filter model
 * @error: return location for the error that stopped the search (a
 *   %GST_CTF_ERROR from the readers)
 *
 * Blocks until the base model and this one have read the whole trace,
 * and publishes every match (emitting `items-changed` for the rest), e.g.
 * for tests and batch use.  Matches are published only once the base
 * model has published their rows.
 *
 * Returns: %TRUE when the whole trace was read
 */
gboolean
gst_ctf_gtk_filter_model_wait (GstCtfGtkFilterModel * model, GError ** error)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_FILTER_MODEL (model), FALSE);

  /* the base model's rows first: only those it has are published */
  gst_ctf_gtk_event_model_wait (model->base, NULL);
  if (model->thread != NULL) {
    g_thread_join (model->thread);
    model->thread = NULL;
  }
  take_published (model);
  if (model->error != NULL) {
    g_propagate_error (error, g_error_copy (model->error));
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_ctf_gtk_filter_model_get_base_row:
 * @model: a filter model
 * @position: a position in @model, below its number of items
 *
 * Returns: the row of the base model shown at @position
 */
guint64
gst_ctf_gtk_filter_model_get_base_row (GstCtfGtkFilterModel * model,
    guint position)
{
  guint64 row;

  g_return_val_if_fail (GST_CTF_GTK_IS_FILTER_MODEL (model), 0);
  g_return_val_if_fail (position < model->n_items, 0);

  g_mutex_lock (&model->job->lock);
  row = g_array_index (model->job->rows, guint64, position);
  g_mutex_unlock (&model->job->lock);
  return row;
}

/**
 * gst_ctf_gtk_filter_model_find_position:
 * @model: a filter model
 * @base_row: a row of the base model
 *
 * Binary search over the published matches.
 *
 * Returns: the position of the first match at or after @base_row (the
 *   number of items when there is none)
 */
guint
gst_ctf_gtk_filter_model_find_position (GstCtfGtkFilterModel * model,
    guint64 base_row)
{
  guint lo = 0, hi;

  g_return_val_if_fail (GST_CTF_GTK_IS_FILTER_MODEL (model), 0);

  hi = model->n_items;
  g_mutex_lock (&model->job->lock);
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (g_array_index (model->job->rows, guint64, mid) < base_row)
      lo = mid + 1;
    else
      hi = mid;
  }
  g_mutex_unlock (&model->job->lock);
  return lo;
}

/**
 * gst_ctf_gtk_filter_model_find_next:
 * @model: a filter model (used as a search: its matches)
 * @base_row: a row of the base model
 * @match: (out): the base row of the first match after @base_row
 *
 * Returns: whether a published match follows @base_row
 */
gboolean
gst_ctf_gtk_filter_model_find_next (GstCtfGtkFilterModel * model,
    guint64 base_row, guint64 * match)
{
  guint pos;

  g_return_val_if_fail (GST_CTF_GTK_IS_FILTER_MODEL (model), FALSE);

  pos = gst_ctf_gtk_filter_model_find_position (model, base_row + 1);
  if (pos >= model->n_items)
    return FALSE;
  *match = gst_ctf_gtk_filter_model_get_base_row (model, pos);
  return TRUE;
}

/**
 * gst_ctf_gtk_filter_model_find_previous:
 * @model: a filter model (used as a search: its matches)
 * @base_row: a row of the base model
 * @match: (out): the base row of the last match before @base_row
 *
 * Returns: whether a published match comes before @base_row
 */
gboolean
gst_ctf_gtk_filter_model_find_previous (GstCtfGtkFilterModel * model,
    guint64 base_row, guint64 * match)
{
  guint pos;

  g_return_val_if_fail (GST_CTF_GTK_IS_FILTER_MODEL (model), FALSE);

  pos = gst_ctf_gtk_filter_model_find_position (model, base_row);
  if (pos == 0)
    return FALSE;
  *match = gst_ctf_gtk_filter_model_get_base_row (model, pos - 1);
  return TRUE;
}
