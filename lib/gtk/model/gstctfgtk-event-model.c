/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkEventModel: a GListModel of the events of a trace in
 * babeltrace2's order (the order `ctfsrc ! ctftextsink` prints them).
 *
 * Two readers of the trace, each with its own packet source
 * (gstctfgtk-packet-source.h) and event merger (gstctf-event-merge.h):
 *
 * - the index, on a thread, walks every event without decoding its
 *   values, counts them, and every CHECKPOINT_EVENTS events notes a
 *   checkpoint: the time T of the first event of a row whose time is above
 *   the previous row's, and that row's number.  Every row before it is
 *   older than T, every row from it on is at T or later.  The rows found
 *   are published to the main context in batches (`items-changed` every
 *   PUBLISH_MS at most, never per event);
 * - the cursor, on the main thread, makes the rows asked for: it seeks
 *   its packet source to the checkpoint at or before the row (each stream
 *   from its last packet that begins before T), drops the events older
 *   than T, walks to the row and decodes a block of BLOCK_ROWS rows.
 *   The last N_BLOCKS blocks are kept.
 *
 * Memory: the packet index (packets) plus one checkpoint per
 * CHECKPOINT_EVENTS events plus the cached blocks, not O(events).
 *
 * A live session (`net://...`, gstctfgtk-live-source.h) is read the same
 * way from the packets its follower keeps in a temporary file, with two
 * more items from the packet source: a new trace class (the merge gives
 * back what it holds and a new one goes on, as ctftextsink at new caps;
 * checkpoints name the trace class, the "epoch", they are in) and an
 * advance (no later packet is older: the merge gives back what is older).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctfgtk-event-model-private.h"
#include "gstctfgtk-event-private.h"
#include "gstctfgtk-packet-source.h"
#include "gstctfgtk-page-release.h"
#include "gstctfgtk-summary.h"
#include "gstctf-event-merge.h"
#include "gstctf-text-formatter.h"

#define CHECKPOINT_EVENTS 4096
#define BLOCK_ROWS 256
#define N_BLOCKS 16
#define PUBLISH_MS 100
#define FIRST_PUBLISH_EVENTS 1024

typedef struct {
  gint64 ns;                    /* every row before @row is older */
  guint64 row;
  guint epoch;                  /* of the packet source (live) */
} Checkpoint;

/* What the index thread shares with the model (refcounted: the thread
 * and the model's publish callbacks hold it). */
typedef struct {
  gint ref;
  gint cancelled;               /* atomic */
  gchar *path;
  GstCtfGtkLiveSource *live;    /* a live session's follower, or NULL */
  GWeakRef model;
  GMainContext *context;

  GMutex lock;                  /* guards the rest */
  GArray *checkpoints;          /* Checkpoint, by row */
  guint64 n_events;
  gboolean done;
  GError *error;
  gboolean publish_pending;

  GstCtfGtkSummary *summary;    /* thread safe on its own */
} IndexJob;

/* A pushed packet the cursor's merger still reads (its bytes keep the
 * strings of the values of its events). */
typedef struct {
  GBytes *bytes;
  gint64 rank;
} Inflight;

typedef struct {
  guint64 first;                /* G_MAXUINT64: empty */
  guint n;
  guint64 used;                 /* LRU stamp */
  GstCtfGtkEvent *rows[BLOCK_ROWS];
} Block;

struct _GstCtfGtkEventModel {
  GObject parent;

  gchar *path;
  guint n_items;                /* published rows */
  gboolean loading;
  GError *error;
  IndexJob *job;
  GThread *thread;

  /* the cursor (main thread) */
  GstCtfGtkPacketSource *src;
  GstCtfTraceClass *tc;
  GstCtfEventMerge *merge;
  GstCtfTextFormatter *formatter;
  GArray *inflight;             /* Inflight, push order */
  gboolean finished;            /* the source gave its last packet */
  gboolean new_tc;              /* live: a new trace class after the merge */
  gboolean valid;               /* the cursor is at @row */
  guint64 row;                  /* row of the next event given */
  gint64 drop_below;            /* events older than this are skipped */
  GString *line;

  Block blocks[N_BLOCKS];
  guint64 stamp;
};

enum {
  PROP_0,
  PROP_PATH,
  PROP_LOADING,
  PROP_N_ITEMS,
  PROP_ITEM_TYPE,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void list_model_init (GListModelInterface * iface);
static GstCtfGtkEventModel *model_new (const gchar * path,
    GstCtfLiveSeek seek, GError ** error);

G_DEFINE_ENUM_TYPE (GstCtfGtkLiveSeek, gst_ctf_gtk_live_seek,
    G_DEFINE_ENUM_VALUE (GST_CTF_GTK_LIVE_SEEK_BEGINNING, "beginning"),
    G_DEFINE_ENUM_VALUE (GST_CTF_GTK_LIVE_SEEK_LAST, "last"));

G_DEFINE_FINAL_TYPE_WITH_CODE (GstCtfGtkEventModel, gst_ctf_gtk_event_model,
    G_TYPE_OBJECT, G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
        list_model_init));

/* ---- the index thread ---- */

static IndexJob *
index_job_ref (IndexJob * job)
{
  g_atomic_int_inc (&job->ref);
  return job;
}

static void
index_job_unref (IndexJob * job)
{
  if (!g_atomic_int_dec_and_test (&job->ref))
    return;
  g_free (job->path);
  g_clear_pointer (&job->live, _gst_ctf_gtk_live_source_unref);
  g_weak_ref_clear (&job->model);
  g_main_context_unref (job->context);
  g_mutex_clear (&job->lock);
  g_array_unref (job->checkpoints);
  g_clear_error (&job->error);
  _gst_ctf_gtk_summary_free (job->summary);
  g_free (job);
}

static gboolean publish_cb (gpointer data);

/* Hands the count so far to the main context (at most one callback
 * pending).  Called with the lock held. */
static void
publish_locked (IndexJob * job)
{
  GSource *idle;

  if (job->publish_pending)
    return;
  job->publish_pending = TRUE;
  idle = g_idle_source_new ();
  g_source_set_priority (idle, G_PRIORITY_DEFAULT);
  g_source_set_callback (idle, publish_cb, index_job_ref (job),
      (GDestroyNotify) index_job_unref);
  g_source_attach (idle, job->context);
  g_source_unref (idle);
}

/* The CPU of the packet being read: LTTng's packet context `cpu_id`,
 * else the stream instance id (trace.dat, LTTng 0.x); -1 for none (the
 * index's lanes; the deep-zoom worker's too). */
gint
_gst_ctf_gtk_merge_packet_cpu (GstCtfEventMerge * merge,
    const GstCtfMergeItem * item)
{
  const GstCtfFieldValue *v;
  guint n = 0;

  v = gst_ctf_event_merge_get_values (merge, GST_CTF_SCOPE_PACKET_CONTEXT,
      &n, NULL);
  return _gst_ctf_gtk_packet_cpu (v, n, gst_ctf_event_iter_get_packet_info
      (item->iter));
}

/* A payload member by name: its index, or 0 when absent.  (LTTng's
 * metadata names them `_prev_tid`: the underscore is left out, as
 * babeltrace2 prints them.) */
static guint
find_member (const GstCtfFieldValue * v, guint n, const gchar * a,
    const gchar * b)
{
  guint i;

  if (v == NULL || n == 0 || v[0].fc->type != GST_CTF_FIELD_CLASS_STRUCT)
    return 0;
  for (i = 1; i < n && i < v[0].end; i = MAX (v[i].end, i + 1)) {
    const gchar *name = v[i].name;

    if (name != NULL && name[0] == '_')
      name++;
    if (name != NULL && (strcmp (name, a) == 0 ||
            (b != NULL && strcmp (name, b) == 0)))
      return i;
  }
  return 0;
}

static gint
member_int (const GstCtfFieldValue * v, guint i)
{
  if (i == 0 || (v[i].fc->type != GST_CTF_FIELD_CLASS_INTEGER &&
          v[i].fc->type != GST_CTF_FIELD_CLASS_ENUM))
    return -1;
  return (gint) v[i].v.i;
}

/* A string, or a text array (`char next_comm[16]`), up to its NUL. */
static void
member_text (const GstCtfFieldValue * v, guint i, gchar * out, gsize size)
{
  gsize len = 0;

  out[0] = '\0';
  if (i == 0 || v[i].end != i + 1 || (v[i].fc->type !=
          GST_CTF_FIELD_CLASS_STRING && v[i].fc->type !=
          GST_CTF_FIELD_CLASS_ARRAY && v[i].fc->type !=
          GST_CTF_FIELD_CLASS_SEQUENCE) || v[i].v.s.ptr == NULL)
    return;
  while (len < v[i].v.s.len && len + 1 < size && v[i].v.s.ptr[len] != '\0')
    len++;
  memcpy (out, v[i].v.s.ptr, len);
  out[len] = '\0';
}

/* A `sched_switch` (trace.dat: prev_pid/next_pid; LTTng kernel:
 * prev_tid/next_tid): the CPU runs the next task from now on. */
static void
index_switch (IndexJob * job, GstCtfEventMerge * merge, guint lane,
    gint64 ns)
{
  const GstCtfFieldValue *v;
  guint n = 0;
  gchar prev[64], next[64];
  gint prev_tid, next_tid;

  v = gst_ctf_event_merge_get_values (merge, GST_CTF_SCOPE_EVENT_PAYLOAD,
      &n, NULL);
  if (v == NULL)
    return;
  prev_tid = member_int (v, find_member (v, n, "prev_pid", "prev_tid"));
  next_tid = member_int (v, find_member (v, n, "next_pid", "next_tid"));
  if (next_tid < 0)
    return;
  member_text (v, find_member (v, n, "prev_comm", NULL), prev, sizeof prev);
  member_text (v, find_member (v, n, "next_comm", NULL), next, sizeof next);
  _gst_ctf_gtk_summary_add_switch (job->summary, lane, ns, prev_tid, prev,
      next_tid, next);
}

static gboolean
is_sched_switch (const GstCtfEventClass * ec)
{
  const gchar *colon;

  if (ec == NULL || ec->name == NULL)
    return FALSE;
  colon = strrchr (ec->name, ':');
  return strcmp (colon ? colon + 1 : ec->name, "sched_switch") == 0;
}

/* A walking merge for the source's trace class (NULL: none yet). */
static GstCtfEventMerge *
index_merge_new (GstCtfGtkPacketSource * src)
{
  GstCtfTraceClass *tc = _gst_ctf_gtk_packet_source_get_trace_class (src);
  GstCtfEventMerge *merge;

  if (tc == NULL)
    return NULL;
  merge = gst_ctf_event_merge_new (tc);
  gst_ctf_event_merge_set_emulate_recycling (merge, FALSE);
  gst_ctf_event_merge_set_recording (merge, FALSE);
  return merge;
}

static gpointer
index_thread (gpointer data)
{
  IndexJob *job = data;
  GstCtfGtkPacketSource *src;
  GstCtfEventMerge *merge = NULL;
  GError *err = NULL;
  gboolean finished = FALSE, have_prev = FALSE, new_tc = FALSE;
  gint64 prev_ns = 0, max_ns = G_MININT64, last_publish = g_get_monotonic_time ();
  guint64 n = 0, next_checkpoint = CHECKPOINT_EVENTS;
  const guint8 *last_packet = NULL;
  const GstCtfEventClass *last_ec = NULL;
  gboolean last_is_switch = FALSE;
  guint lane = 0;
  /* stream name (interned) -> lane + 1, for the lost events notices */
  GHashTable *stream_lanes = g_hash_table_new (NULL, NULL);
  GstCtfGtkPageRelease *release = NULL;

  if (job->live != NULL)
    src = _gst_ctf_gtk_packet_source_new_live (job->live);
  else
    src = _gst_ctf_gtk_packet_source_open (job->path, &err);
  if (src != NULL) {
    /* the resident set flat in the trace's size (files on disk) */
    if (job->live == NULL)
      release = _gst_ctf_gtk_page_release_new (job->path);
    merge = index_merge_new (src);
  }
  while (src != NULL && !g_atomic_int_get (&job->cancelled)) {
    GstCtfMergeItem item;
    GstCtfMergeItemType t = merge != NULL ?
        gst_ctf_event_merge_next (merge, &item, &err) : GST_CTF_MERGE_NONE;

    if (t == GST_CTF_MERGE_EVENT) {
      const guint8 *pd = gst_ctf_event_merge_get_packet_data (merge, NULL);
      const GstCtfEventClass *ec =
          gst_ctf_event_iter_get_event_class (item.iter);

      if (pd != last_packet) {
        const gchar *sn = g_intern_string (item.stream_name);

        lane = _gst_ctf_gtk_summary_lane (job->summary,
            _gst_ctf_gtk_merge_packet_cpu (merge, &item), sn);
        g_hash_table_insert (stream_lanes, (gpointer) sn,
            GUINT_TO_POINTER (lane + 1));
        last_packet = pd;
      }
      if (ec != last_ec) {
        last_is_switch = is_sched_switch (ec);
        last_ec = ec;
      }
      if (item.has_ns) {
        _gst_ctf_gtk_summary_add_event (job->summary, lane, item.ns);
        if (last_is_switch)
          index_switch (job, merge, lane, item.ns);
      }
      if (item.has_ns && n >= next_checkpoint && have_prev &&
          item.ns > max_ns && _gst_ctf_gtk_packet_source_can_seek (src)) {
        Checkpoint c = { item.ns, n,
          _gst_ctf_gtk_packet_source_get_epoch (src)
        };

        g_mutex_lock (&job->lock);
        g_array_append_val (job->checkpoints, c);
        g_mutex_unlock (&job->lock);
        next_checkpoint = n + CHECKPOINT_EVENTS;
      }
      if (item.has_ns) {
        prev_ns = item.ns;
        max_ns = MAX (max_ns, item.ns);
        have_prev = TRUE;
      }
      n++;
      if (n == FIRST_PUBLISH_EVENTS || (n % 4096) == 0) {
        gint64 now = g_get_monotonic_time ();

        if (n == FIRST_PUBLISH_EVENTS || now - last_publish >=
            PUBLISH_MS * 1000) {
          g_mutex_lock (&job->lock);
          job->n_events = n;
          publish_locked (job);
          g_mutex_unlock (&job->lock);
          last_publish = now;
        }
      }
      continue;
    }
    if (t == GST_CTF_MERGE_ERROR) {
      if (err == NULL)
        g_set_error (&err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
            "unknown error");
      g_prefix_error (&err, "Cannot decode event in the packet at byte %"
          G_GINT64_FORMAT " of stream \"%s\" of \"%s\": ", item.offset,
          item.stream_name ? item.stream_name : "(unknown)", job->path);
      break;
    }
    if (t == GST_CTF_MERGE_DISCARDED_EVENTS) {
      gpointer l = g_hash_table_lookup (stream_lanes,
          g_intern_string (item.stream_name));
      gint64 ns = prev_ns;

      if (item.clock != NULL)
        gst_ctf_clock_class_cycles_to_ns_from_origin (item.clock, item.end,
            &ns);
      _gst_ctf_gtk_summary_add_lost (job->summary, l != NULL ?
          GPOINTER_TO_UINT (l) - 1 : _gst_ctf_gtk_summary_lane (job->summary,
              -1, item.stream_name), ns, item.count);
      continue;
    }
    if (t != GST_CTF_MERGE_NONE)
      continue;                 /* discarded packets notices */
    if (new_tc) {
      /* live: the events of the previous trace class are all out */
      g_clear_pointer (&merge, gst_ctf_event_merge_free);
      merge = index_merge_new (src);
      last_packet = NULL;
      last_ec = NULL;
      new_tc = FALSE;
      continue;
    }
    if (finished)
      break;
    if (job->live != NULL) {
      /* live: the rows found go out before the relay is waited for */
      g_mutex_lock (&job->lock);
      if (job->n_events != n) {
        job->n_events = n;
        publish_locked (job);
      }
      g_mutex_unlock (&job->lock);
    }
    {
      GstCtfGtkPacket p;
      gint r = _gst_ctf_gtk_packet_source_next (src, &p, &err);

      if (r < 0)
        break;
      if (r == 0) {
        finished = TRUE;
        if (merge != NULL)
          gst_ctf_event_merge_finish (merge);
        continue;
      }
      if (r == GST_CTF_GTK_PACKET_NEW_TRACE_CLASS) {
        new_tc = TRUE;
        if (merge != NULL)
          gst_ctf_event_merge_finish (merge);
        continue;
      }
      if (r == GST_CTF_GTK_PACKET_ADVANCE) {
        if (merge != NULL)
          gst_ctf_event_merge_advance (merge, p.ns);
        continue;
      }
      if (!gst_ctf_event_merge_push_full (merge, p.bytes, p.stream_class_id,
              p.rank, p.stream_id, p.stream_name, p.offset, &err)) {
        g_prefix_error (&err, "Cannot read packet at byte %" G_GINT64_FORMAT
            " of stream \"%s\" of \"%s\": ", p.offset, p.stream_name,
            job->path);
        g_bytes_unref (p.bytes);
        break;
      }
      _gst_ctf_gtk_page_release_add (release, g_bytes_get_data (p.bytes,
              NULL), g_bytes_get_size (p.bytes));
      g_bytes_unref (p.bytes);
    }
  }
  g_clear_pointer (&merge, gst_ctf_event_merge_free);
  _gst_ctf_gtk_packet_source_free (src);
  _gst_ctf_gtk_page_release_free (release);
  g_hash_table_unref (stream_lanes);
  /* live: the rows of every packet received, then why it stopped */
  if (err == NULL && job->live != NULL && finished)
    err = _gst_ctf_gtk_live_source_dup_error (job->live);

  g_mutex_lock (&job->lock);
  job->n_events = n;
  job->done = TRUE;
  job->error = err;
  publish_locked (job);
  g_mutex_unlock (&job->lock);
  index_job_unref (job);
  return NULL;
}

/* Main context: the rows found so far become the model's items. */
static gboolean
publish_cb (gpointer data)
{
  IndexJob *job = data;
  GstCtfGtkEventModel *self;
  guint64 n;
  gboolean done;
  GError *err = NULL;

  g_mutex_lock (&job->lock);
  job->publish_pending = FALSE;
  n = job->n_events;
  done = job->done;
  if (done && job->error != NULL)
    err = g_error_copy (job->error);
  g_mutex_unlock (&job->lock);

  self = g_weak_ref_get (&job->model);
  if (self == NULL) {
    g_clear_error (&err);
    return G_SOURCE_REMOVE;
  }
  n = MIN (n, (guint64) G_MAXUINT);
  if (n > self->n_items) {
    guint old = self->n_items;

    self->n_items = (guint) n;
    g_list_model_items_changed (G_LIST_MODEL (self), old, 0,
        self->n_items - old);
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_ITEMS]);
  }
  if (done && self->loading) {
    self->error = err;
    err = NULL;
    self->loading = FALSE;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LOADING]);
  }
  g_clear_error (&err);
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

/* ---- the cursor ---- */

static void
cursor_clear (GstCtfGtkEventModel * self)
{
  guint i;

  g_clear_pointer (&self->merge, gst_ctf_event_merge_free);
  for (i = 0; i < self->inflight->len; i++)
    g_bytes_unref (g_array_index (self->inflight, Inflight, i).bytes);
  g_array_set_size (self->inflight, 0);
  self->valid = FALSE;
}

/* A recording merge (and formatter) for the source's trace class now. */
static void
cursor_new_merge (GstCtfGtkEventModel * self)
{
  GstCtfTraceClass *tc = _gst_ctf_gtk_packet_source_get_trace_class
      (self->src);

  g_clear_pointer (&self->merge, gst_ctf_event_merge_free);
  self->new_tc = FALSE;
  if (tc == NULL)
    return;                     /* live, before the first metadata */
  if (tc != self->tc) {
    g_clear_pointer (&self->formatter, gst_ctf_text_formatter_free);
    g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
    self->tc = gst_ctf_trace_class_ref (tc);
    self->formatter = gst_ctf_text_formatter_new (tc, NULL);
  }
  self->merge = gst_ctf_event_merge_new (tc);
  gst_ctf_event_merge_set_emulate_recycling (self->merge, FALSE);
  gst_ctf_event_merge_set_recording (self->merge, TRUE);
}

/* Puts the cursor at checkpoint @c (NULL: the first row). */
static gboolean
cursor_reset (GstCtfGtkEventModel * self, const Checkpoint * c,
    GError ** error)
{
  gboolean ok;

  cursor_clear (self);
  if (c != NULL)
    ok = _gst_ctf_gtk_packet_source_seek (self->src, c->epoch, c->ns, error);
  else
    ok = _gst_ctf_gtk_packet_source_rewind (self->src, error);
  if (!ok)
    return FALSE;
  cursor_new_merge (self);
  self->finished = FALSE;
  self->row = c != NULL ? c->row : 0;
  self->drop_below = c != NULL ? c->ns : G_MININT64;
  self->valid = TRUE;
  return TRUE;
}

/* The bytes of the packet the event just given is in; the packets of its
 * stream pushed before it are read to their end and let go. */
static GBytes *
cursor_packet (GstCtfGtkEventModel * self)
{
  const guint8 *data = gst_ctf_event_merge_get_packet_data (self->merge,
      NULL);
  guint i, j;

  for (i = 0; i < self->inflight->len; i++) {
    Inflight *f = &g_array_index (self->inflight, Inflight, i);

    if (g_bytes_get_data (f->bytes, NULL) != (gconstpointer) data)
      continue;
    for (j = 0; j < i;) {
      Inflight *o = &g_array_index (self->inflight, Inflight, j);

      if (o->rank == f->rank) {
        g_bytes_unref (o->bytes);
        g_array_remove_index (self->inflight, j);
        i--;
        f = &g_array_index (self->inflight, Inflight, i);
      } else {
        j++;
      }
    }
    return f->bytes;
  }
  return NULL;
}

/* The next row: 1 with @item set, 0 at the end, -1 on error. */
static gint
cursor_next (GstCtfGtkEventModel * self, GstCtfMergeItem * item,
    GError ** error)
{
  for (;;) {
    GstCtfMergeItemType t = self->merge != NULL ?
        gst_ctf_event_merge_next (self->merge, item, error) :
        GST_CTF_MERGE_NONE;

    if (t == GST_CTF_MERGE_EVENT) {
      if (item->has_ns && item->ns < self->drop_below)
        continue;
      self->row++;
      return 1;
    }
    if (t == GST_CTF_MERGE_ERROR)
      return -1;
    if (t != GST_CTF_MERGE_NONE)
      continue;
    if (self->new_tc) {
      /* live: a later trace class goes on from the first event of its
       * packets, older than the checkpoint sought or not */
      cursor_clear (self);
      cursor_new_merge (self);
      self->valid = TRUE;
      self->drop_below = G_MININT64;
      continue;
    }
    if (self->finished)
      return 0;
    {
      GstCtfGtkPacket p;
      gint r = _gst_ctf_gtk_packet_source_next (self->src, &p, error);
      Inflight f;

      if (r < 0)
        return -1;
      if (r == 0) {
        self->finished = TRUE;
        if (self->merge != NULL)
          gst_ctf_event_merge_finish (self->merge);
        continue;
      }
      if (r == GST_CTF_GTK_PACKET_NEW_TRACE_CLASS) {
        self->new_tc = TRUE;
        if (self->merge != NULL)
          gst_ctf_event_merge_finish (self->merge);
        continue;
      }
      if (r == GST_CTF_GTK_PACKET_ADVANCE) {
        if (self->merge != NULL)
          gst_ctf_event_merge_advance (self->merge, p.ns);
        continue;
      }
      if (!gst_ctf_event_merge_push_full (self->merge, p.bytes,
              p.stream_class_id, p.rank, p.stream_id, p.stream_name,
              p.offset, error)) {
        g_bytes_unref (p.bytes);
        return -1;
      }
      f.bytes = p.bytes;
      f.rank = p.rank;
      g_array_append_val (self->inflight, f);
    }
  }
}

/* babeltrace2's text of the event's scopes: its line after `NAME: `. */
static const gchar *
fields_text (GstCtfGtkEventModel * self, GstCtfMergeItem * item)
{
  const GstCtfEventClass *ec = gst_ctf_event_iter_get_event_class
      (item->iter);
  const gchar *name = ec && ec->name ? ec->name : "";
  gsize nlen = strlen (name);
  GstCtfTextLine tl;
  gchar *s, *sp;

  g_string_truncate (self->line, 0);
  gst_ctf_text_formatter_format_event_line (self->formatter, item->iter,
      self->line, &tl);
  while (self->line->len > 0 && self->line->str[self->line->len - 1] ==
      '\n')
    g_string_truncate (self->line, self->line->len - 1);
  s = self->line->str;
  if (tl.delta_at >= 0 && (gsize) tl.delta_at + 2 <= self->line->len)
    s += tl.delta_at + 2;       /* `) ` after the delta */
  /* `[HOST ]NAME:[ FIELDS]` */
  if (!(strncmp (s, name, nlen) == 0 && s[nlen] == ':') &&
      (sp = strchr (s, ' ')) != NULL)
    s = sp + 1;
  if (strncmp (s, name, nlen) == 0 && s[nlen] == ':')
    s += nlen + 1;
  if (*s == ' ')
    s++;
  return s;
}

static Block *
find_block (GstCtfGtkEventModel * self, guint64 first)
{
  guint i;

  for (i = 0; i < N_BLOCKS; i++)
    if (self->blocks[i].first == first)
      return &self->blocks[i];
  return NULL;
}

static void
block_clear (Block * b)
{
  guint i;

  for (i = 0; i < b->n; i++)
    g_clear_object (&b->rows[i]);
  b->n = 0;
  b->first = G_MAXUINT64;
}

/* The checkpoint at or before @row, NULL for the first row (copied to
 * @out). */
static const Checkpoint *
find_checkpoint (GstCtfGtkEventModel * self, guint64 row, Checkpoint * out)
{
  IndexJob *job = self->job;
  guint lo = 0, hi;
  gboolean found = FALSE;

  g_mutex_lock (&job->lock);
  hi = job->checkpoints->len;
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (g_array_index (job->checkpoints, Checkpoint, mid).row <= row)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo > 0) {
    *out = g_array_index (job->checkpoints, Checkpoint, lo - 1);
    found = TRUE;
  }
  g_mutex_unlock (&job->lock);
  return found ? out : NULL;
}

/* Fills @b (rows from @first) up to its end or the published rows. */
static gboolean
fill_block (GstCtfGtkEventModel * self, Block * b, guint64 first,
    GError ** error)
{
  guint64 want = first + b->n;
  guint64 end = MIN (first + BLOCK_ROWS, (guint64) self->n_items);
  Checkpoint c;
  const Checkpoint *cp = find_checkpoint (self, want, &c);
  GstCtfMergeItem item;

  if (!self->valid || self->row > want ||
      (cp != NULL && self->row < cp->row)) {
    if (!cursor_reset (self, cp, error))
      return FALSE;
  }
  while (self->row < end) {
    guint64 row = self->row;
    gint r = cursor_next (self, &item, error);

    if (r <= 0) {
      self->valid = FALSE;
      if (r == 0)
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
            "\"%s\" ended at row %" G_GUINT64_FORMAT ", before row %"
            G_GUINT64_FORMAT " the index found", self->path, row, end);
      return FALSE;
    }
    if (row < want)
      continue;
    b->rows[b->n++] = _gst_ctf_gtk_event_new (row, &item,
        cursor_packet (self), fields_text (self, &item), self->tc);
  }
  return TRUE;
}

static gpointer
get_item (GListModel * list, guint position)
{
  GstCtfGtkEventModel *self = GST_CTF_GTK_EVENT_MODEL (list);
  guint64 first = position - position % BLOCK_ROWS;
  GError *err = NULL;
  Block *b;
  guint i;

  if (position >= self->n_items || self->src == NULL)
    return NULL;
  b = find_block (self, first);
  if (b == NULL) {
    /* the least recently used block */
    b = &self->blocks[0];
    for (i = 1; i < N_BLOCKS; i++)
      if (self->blocks[i].used < b->used)
        b = &self->blocks[i];
    block_clear (b);
    b->first = first;
  }
  b->used = ++self->stamp;
  if (position - first >= b->n && !fill_block (self, b, first, &err)) {
    g_warning ("%s", err->message);
    g_clear_error (&err);
  }
  if (position - first >= b->n)
    return NULL;
  return g_object_ref (b->rows[position - first]);
}

static GType
get_item_type (GListModel * list)
{
  return GST_CTF_GTK_TYPE_EVENT;
}

static guint
get_n_items (GListModel * list)
{
  return GST_CTF_GTK_EVENT_MODEL (list)->n_items;
}

static void
list_model_init (GListModelInterface * iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

/* ---- the object ---- */

static void
gst_ctf_gtk_event_model_init (GstCtfGtkEventModel * self)
{
  guint i;

  self->loading = TRUE;
  self->inflight = g_array_new (FALSE, FALSE, sizeof (Inflight));
  self->line = g_string_new (NULL);
  for (i = 0; i < N_BLOCKS; i++)
    self->blocks[i].first = G_MAXUINT64;
}

static void
gst_ctf_gtk_event_model_dispose (GObject * object)
{
  GstCtfGtkEventModel *self = GST_CTF_GTK_EVENT_MODEL (object);
  guint i;

  if (self->job != NULL)
    g_atomic_int_set (&self->job->cancelled, 1);
  if (self->job != NULL && self->job->live != NULL)
    _gst_ctf_gtk_live_source_stop (self->job->live);    /* wakes the index */
  if (self->thread != NULL)
    g_thread_join (g_steal_pointer (&self->thread));
  for (i = 0; i < N_BLOCKS; i++)
    block_clear (&self->blocks[i]);
  G_OBJECT_CLASS (gst_ctf_gtk_event_model_parent_class)->dispose (object);
}

static void
gst_ctf_gtk_event_model_finalize (GObject * object)
{
  GstCtfGtkEventModel *self = GST_CTF_GTK_EVENT_MODEL (object);

  cursor_clear (self);
  g_array_unref (self->inflight);
  g_clear_pointer (&self->job, index_job_unref);
  g_clear_pointer (&self->formatter, gst_ctf_text_formatter_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  g_clear_pointer (&self->src, _gst_ctf_gtk_packet_source_free);
  g_string_free (self->line, TRUE);
  g_clear_error (&self->error);
  g_free (self->path);
  G_OBJECT_CLASS (gst_ctf_gtk_event_model_parent_class)->finalize (object);
}

static void
gst_ctf_gtk_event_model_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfGtkEventModel *self = GST_CTF_GTK_EVENT_MODEL (object);

  switch (prop_id) {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
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
      break;
  }
}

static void
gst_ctf_gtk_event_model_class_init (GstCtfGtkEventModelClass * klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  const GParamFlags f = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  oc->dispose = gst_ctf_gtk_event_model_dispose;
  oc->finalize = gst_ctf_gtk_event_model_finalize;
  oc->get_property = gst_ctf_gtk_event_model_get_property;

  /**
   * GstCtfGtkEventModel:path:
   *
   * The trace the model reads (as given to
   * gst_ctf_gtk_event_model_new_for_path()).
   */
  props[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, f);
  /**
   * GstCtfGtkEventModel:loading:
   *
   * %TRUE until the background index has found every event (or stopped
   * at an error: gst_ctf_gtk_event_model_get_error()); for a live session,
   * until the session is destroyed.
   */
  props[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, TRUE,
      f);
  /**
   * GstCtfGtkEventModel:n-items:
   *
   * The rows indexed so far; grows while #GstCtfGtkEventModel:loading,
   * with one #GListModel::items-changed per batch.
   */
  props[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0,
      G_MAXUINT, 0, f);
  /**
   * GstCtfGtkEventModel:item-type:
   *
   * #GstCtfGtkEvent.
   */
  props[PROP_ITEM_TYPE] = g_param_spec_gtype ("item-type", NULL, NULL,
      G_TYPE_OBJECT, f);
  g_object_class_install_properties (oc, N_PROPS, props);
}

/**
 * gst_ctf_gtk_event_model_new_for_path:
 * @path: (type filename): a CTF 1.8 or CTF 2 trace directory, a directory
 *   above several traces (read merged, as babeltrace2 does), a trace-cmd
 *   `trace.dat` file, an LTTng 0.x trace directory, or a live LTTng
 *   session's URL `net://RELAY[:PORT]/host/TRACED_HOST/SESSION` (port 5344
 *   when absent; also `net4://`)
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_IO (no such
 *   file or directory), %GST_CTF_ERROR_NO_TRACE (no trace below it), the
 *   metadata, trace.dat and LTTng 0.x codes, %GST_CTF_ERROR_PACKET (the
 *   first packet of a stream file is unreadable); for a URL,
 *   %GST_CTF_ERROR_LIVE (no session in the URL, the relay cannot be
 *   reached within 10 s or does not answer, it lists no such session, it
 *   refuses the attach)
 *
 * Opens the trace and starts indexing it on a thread: the model is empty
 * at first and grows (#GstCtfGtkEventModel:n-items) in the thread-default
 * main context of the caller while #GstCtfGtkEventModel:loading is
 * %TRUE.  Errors found later (a corrupt packet) end the rows at the
 * valid events before it and are given by
 * gst_ctf_gtk_event_model_get_error() once loading is over.
 *
 * A live session is connected to and attached (from the oldest data the
 * relay has) before this returns; the model then grows as the session
 * records, in the order `lttnglivesrc ! ctftextsink` prints its events,
 * and #GstCtfGtkEventModel:loading stays %TRUE until the session is
 * destroyed (or the connection is lost: an error).  Its packets are kept
 * in a temporary file the model owns and deletes (one small record per
 * packet in memory).
 *
 * Returns: (transfer full) (nullable): the model, or %NULL with @error set
 */
GstCtfGtkEventModel *
gst_ctf_gtk_event_model_new_for_path (const gchar * path, GError ** error)
{
  g_return_val_if_fail (path != NULL, NULL);
  return model_new (path, GST_CTF_LIVE_SEEK_BEGINNING, error);
}

/**
 * gst_ctf_gtk_event_model_new_for_url:
 * @url: a live LTTng session's URL
 *   `net://RELAY[:PORT]/host/TRACED_HOST/SESSION` (also `net4://`); a
 *   path on disk is opened as gst_ctf_gtk_event_model_new_for_path()
 *   does
 * @seek: where the session is read from, as `lttnglivesrc`'s `seek`
 *   property: %GST_CTF_GTK_LIVE_SEEK_BEGINNING from the oldest data the
 *   relay still has (what gst_ctf_gtk_event_model_new_for_path() does),
 *   %GST_CTF_GTK_LIVE_SEEK_LAST from the newest packets the relay has
 *   when the model attaches (lttng-relayd starts each stream at its last
 *   index), what `lttnglivesrc seek=last` reads
 * @error: return location for a %GST_CTF_ERROR, as
 *   gst_ctf_gtk_event_model_new_for_path() sets it
 *
 * A model of a live session read from where @seek says; otherwise as
 * gst_ctf_gtk_event_model_new_for_path().
 *
 * Returns: (transfer full) (nullable): the model, or %NULL with @error set
 */
GstCtfGtkEventModel *
gst_ctf_gtk_event_model_new_for_url (const gchar * url,
    GstCtfGtkLiveSeek seek, GError ** error)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (seek == GST_CTF_GTK_LIVE_SEEK_BEGINNING ||
      seek == GST_CTF_GTK_LIVE_SEEK_LAST, NULL);
  return model_new (url, seek == GST_CTF_GTK_LIVE_SEEK_LAST ?
      GST_CTF_LIVE_SEEK_LAST : GST_CTF_LIVE_SEEK_BEGINNING, error);
}

static GstCtfGtkEventModel *
model_new (const gchar * path, GstCtfLiveSeek seek, GError ** error)
{
  GstCtfGtkEventModel *self;
  GstCtfGtkPacketSource *src;
  IndexJob *job;

  src = _gst_ctf_gtk_packet_source_open_any (path, seek, error);
  if (src == NULL)
    return NULL;
  self = g_object_new (GST_CTF_GTK_TYPE_EVENT_MODEL, NULL);
  self->path = g_strdup (path);
  self->src = src;
  cursor_new_merge (self);      /* (its tc and formatter; live: later) */
  g_clear_pointer (&self->merge, gst_ctf_event_merge_free);

  job = g_new0 (IndexJob, 1);
  job->ref = 1;
  job->path = g_strdup (path);
  if (_gst_ctf_gtk_packet_source_get_live (src) != NULL)
    job->live = _gst_ctf_gtk_live_source_ref
        (_gst_ctf_gtk_packet_source_get_live (src));
  g_weak_ref_init (&job->model, self);
  job->context = g_main_context_ref_thread_default ();
  g_mutex_init (&job->lock);
  job->checkpoints = g_array_new (FALSE, FALSE, sizeof (Checkpoint));
  job->summary = _gst_ctf_gtk_summary_new ();
  self->job = job;
  self->thread = g_thread_new ("gstctf-gtk-index", index_thread,
      index_job_ref (job));
  return self;
}

/**
 * gst_ctf_gtk_event_model_get_path:
 * @model: a model
 *
 * Returns: (transfer none) (type filename): #GstCtfGtkEventModel:path
 */
const gchar *
gst_ctf_gtk_event_model_get_path (GstCtfGtkEventModel * model)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), NULL);
  return model->path;
}

/**
 * gst_ctf_gtk_event_model_get_loading:
 * @model: a model
 *
 * Returns: #GstCtfGtkEventModel:loading
 */
gboolean
gst_ctf_gtk_event_model_get_loading (GstCtfGtkEventModel * model)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), FALSE);
  return model->loading;
}

/**
 * gst_ctf_gtk_event_model_get_error:
 * @model: a model
 *
 * Returns: (transfer none) (nullable): the error that stopped the index
 *   (the trace is corrupt after the rows it has), %NULL when there was none
 *   or while loading
 */
const GError *
gst_ctf_gtk_event_model_get_error (GstCtfGtkEventModel * model)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), NULL);
  return model->error;
}

/**
 * gst_ctf_gtk_event_model_wait:
 * @model: a model
 * @error: return location for the error of
 *   gst_ctf_gtk_event_model_get_error()
 *
 * Runs the model's main context until the index is complete (for
 * programs without a main loop, and tests).
 *
 * Returns: %TRUE when every event was indexed, %FALSE with @error set
 *   when the trace is corrupt after the rows the model has
 */
gboolean
gst_ctf_gtk_event_model_wait (GstCtfGtkEventModel * model, GError ** error)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), FALSE);
  while (model->loading)
    g_main_context_iteration (model->job->context, TRUE);
  if (model->error != NULL) {
    g_propagate_error (error, g_error_copy (model->error));
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_ctf_gtk_event_model_get_n_checkpoints:
 * @model: a model
 *
 * The size of the index that finds a row: one checkpoint per few
 * thousand events (none for LTTng 0.x traces, read from their start).
 *
 * Returns: the number of checkpoints so far
 */
guint
gst_ctf_gtk_event_model_get_n_checkpoints (GstCtfGtkEventModel * model)
{
  guint n;

  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), 0);
  g_mutex_lock (&model->job->lock);
  n = model->job->checkpoints->len;
  g_mutex_unlock (&model->job->lock);
  return n;
}

/* A reader (not following) of what the model's live session received;
 * NULL for a trace on disk. */
GstCtfGtkPacketSource *
_gst_ctf_gtk_event_model_new_live_source (GstCtfGtkEventModel * model)
{
  GstCtfGtkPacketSource *s;

  if (model->job->live == NULL)
    return NULL;
  s = _gst_ctf_gtk_packet_source_new_live (model->job->live);
  _gst_ctf_gtk_packet_source_follow (s, FALSE, NULL);
  return s;
}

/* (transfer none) (nullable): the model's live session */
GstCtfGtkLiveSource *
_gst_ctf_gtk_event_model_get_live_source (GstCtfGtkEventModel * model)
{
  return model->job->live;
}

/* The rows the index has found so far (at least the published ones):
 * on a live session, the rows every reader of the packets received so
 * far numbers alike. */
guint64
_gst_ctf_gtk_event_model_get_n_indexed (GstCtfGtkEventModel * model)
{
  guint64 n;

  g_mutex_lock (&model->job->lock);
  n = model->job->n_events;
  g_mutex_unlock (&model->job->lock);
  return n;
}

GArray *
_gst_ctf_gtk_event_model_copy_checkpoints (GstCtfGtkEventModel * model)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (GstCtfGtkCheckpoint));
  guint i;

  g_mutex_lock (&model->job->lock);
  for (i = 0; i < model->job->checkpoints->len; i++) {
    const Checkpoint *c = &g_array_index (model->job->checkpoints,
        Checkpoint, i);
    GstCtfGtkCheckpoint o = { c->ns, c->row, c->epoch };

    g_array_append_val (out, o);
  }
  g_mutex_unlock (&model->job->lock);
  return out;
}

GstCtfGtkSummary *
_gst_ctf_gtk_event_model_get_summary (GstCtfGtkEventModel * model)
{
  return model->job->summary;
}

/**
 * gst_ctf_gtk_event_model_get_time_range:
 * @model: a model
 * @start_ns: (out) (optional): time of the first event, ns from the clock
 *   origin
 * @end_ns: (out) (optional): time of the last event indexed so far
 *
 * Returns: %FALSE while no event with a time was indexed
 */
gboolean
gst_ctf_gtk_event_model_get_time_range (GstCtfGtkEventModel * model,
    guint64 * start_ns, guint64 * end_ns)
{
  gint64 s = 0, e = 0;
  gboolean have;

  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), FALSE);
  have = _gst_ctf_gtk_summary_get_range (model->job->summary, &s, &e);
  if (start_ns != NULL)
    *start_ns = have ? (guint64) MAX (s, 0) : 0;
  if (end_ns != NULL)
    *end_ns = have ? (guint64) MAX (e, 0) : 0;
  return have;
}

/**
 * gst_ctf_gtk_event_model_find_row:
 * @model: a model
 * @ns: a time, ns from the clock origin
 *
 * Finds the first event at or after @ns among the rows indexed so far:
 * from the checkpoint before it, the events are walked (not decoded into
 * items).
 *
 * Returns: its row, #GstCtfGtkEventModel:n-items when every row is
 *   older than @ns
 */
guint
gst_ctf_gtk_event_model_find_row (GstCtfGtkEventModel * model, guint64 ns)
{
  IndexJob *job;
  const Checkpoint *cp = NULL;
  Checkpoint c;
  GstCtfMergeItem item;
  guint lo = 0, hi;

  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), 0);
  job = model->job;
  g_mutex_lock (&job->lock);
  hi = job->checkpoints->len;
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if ((guint64) g_array_index (job->checkpoints, Checkpoint, mid).ns <= ns)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo > 0) {
    c = g_array_index (job->checkpoints, Checkpoint, lo - 1);
    cp = &c;
  }
  g_mutex_unlock (&job->lock);
  if (cp != NULL && cp->row >= model->n_items)
    cp = NULL;
  if (!cursor_reset (model, cp, NULL))
    return 0;
  while (model->row < model->n_items) {
    guint64 row = model->row;

    if (cursor_next (model, &item, NULL) <= 0) {
      model->valid = FALSE;
      break;
    }
    if (item.has_ns && item.ns >= 0 && (guint64) item.ns >= ns)
      return (guint) row;
  }
  return model->n_items;
}

/**
 * gst_ctf_gtk_event_model_get_running_task:
 * @model: a model
 * @cpu: a CPU
 * @ns: a time, ns from the clock origin
 * @tid: (out) (optional): the task's thread id (0: the idle task), -1
 *   when unknown
 *
 * The task @cpu runs at @ns, from the `sched_switch` events indexed so
 * far (trace.dat, LTTng kernel traces): the `next_comm` of the last
 * switch at or before @ns, or the `prev_comm` of the first one.
 *
 * Returns: (transfer none) (nullable): the task's command name, %NULL
 *   when unknown (no `sched_switch` on @cpu)
 */
const gchar *
gst_ctf_gtk_event_model_get_running_task (GstCtfGtkEventModel * model,
    gint cpu, guint64 ns, gint * tid)
{
  GstCtfGtkSummary *s;
  guint i, n;
  gint t = -1;
  const gchar *comm = NULL;

  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), NULL);
  s = model->job->summary;
  n = _gst_ctf_gtk_summary_get_n_lanes (s);
  for (i = 0; i < n; i++) {
    gint lane_cpu;
    gchar *label = _gst_ctf_gtk_summary_get_lane_label (s, i, &lane_cpu);

    g_free (label);
    if (lane_cpu == cpu) {
      comm = _gst_ctf_gtk_summary_get_task (s, i, (gint64) MIN (ns,
              (guint64) G_MAXINT64), &t);
      break;
    }
  }
  if (tid != NULL)
    *tid = t;
  return comm;
}
