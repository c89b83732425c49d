/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkDeepZoom: the events of a time range, read on a worker thread
 * (gstctfgtk-deep-zoom.h).  The worker has its own packet source: it seeks
 * to the range's start (each stream from its last packet beginning before
 * it, as the model's cursor does), merges the packets in babeltrace2's
 * order without decoding the values, and keeps the time of each event of
 * the range, grouped by CPU (or stream where there is no CPU).  A newer
 * request stops the one being read.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctfgtk-deep-zoom.h"
#include "gstctfgtk-event-model-private.h"
#include "gstctfgtk-packet-source.h"
#include "gstctfgtk-page-release.h"
#include "gstctf-event-merge.h"

/* a range holding more events than this is left to the summary */
#define MAX_EVENTS (1024 * 1024)

typedef struct {
  gint cpu;
  const gchar *stream_name;     /* interned */
  GArray *times;                /* gint64, in order */
} Group;

struct _GstCtfGtkDeepWindow {
  gint64 start, end;
  GPtrArray *groups;            /* Group * */
  guint64 used;
};

/* What the worker shares with the main thread (refcounted: the owner,
 * the thread and each pending ready source hold it). */
typedef struct {
  gint ref;
  gchar *path;
  GMainContext *context;
  GMutex lock;
  GCond cond;
  gboolean quit;
  gboolean have_request;
  gint64 req_start, req_end;
  gint generation;              /* atomic: a newer request stops a read */
  gboolean busy;
  GPtrArray *done;              /* GstCtfGtkDeepWindow *, read, not taken */
  GstCtfGtkDeepZoom *owner;     /* main thread only; NULL once freed */
} Shared;

struct _GstCtfGtkDeepZoom {
  Shared *sh;
  GThread *thread;
  GSourceFunc ready;
  gpointer user_data;
  GstCtfGtkDeepWindow *windows[DEEP_ZOOM_WINDOWS];
  guint64 stamp;
  gint64 asked_start, asked_end;        /* the last request */
};

static void
group_free (Group * g)
{
  g_array_unref (g->times);
  g_free (g);
}

static void
window_free (GstCtfGtkDeepWindow * w)
{
  if (w == NULL)
    return;
  g_ptr_array_unref (w->groups);
  g_free (w);
}

/* Each group's times in an array of their own size (the array grew by
 * doubling: up to twice the memory, DEEP_ZOOM_WINDOWS times over). */
static void
window_trim (GstCtfGtkDeepWindow * w)
{
  guint i;

  for (i = 0; i < w->groups->len; i++) {
    Group *g = g_ptr_array_index (w->groups, i);
    GArray *exact = g_array_sized_new (FALSE, FALSE, sizeof (gint64),
        g->times->len);

    g_array_append_vals (exact, g->times->data, g->times->len);
    g_array_unref (g->times);
    g->times = exact;
  }
}

static Shared *
shared_ref (Shared * sh)
{
  g_atomic_int_inc (&sh->ref);
  return sh;
}

static void
shared_unref (Shared * sh)
{
  if (!g_atomic_int_dec_and_test (&sh->ref))
    return;
  g_ptr_array_unref (sh->done);
  g_main_context_unref (sh->context);
  g_mutex_clear (&sh->lock);
  g_cond_clear (&sh->cond);
  g_free (sh->path);
  g_free (sh);
}

static Group *
find_group (GPtrArray * groups, gint cpu, const gchar * stream_name)
{
  guint i;
  Group *g;

  for (i = 0; i < groups->len; i++) {
    g = g_ptr_array_index (groups, i);
    if (cpu >= 0 ? g->cpu == cpu : (g->cpu < 0 &&
            g->stream_name == stream_name))
      return g;
  }
  g = g_new0 (Group, 1);
  g->cpu = cpu;
  g->stream_name = stream_name;
  g->times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_ptr_array_add (groups, g);
  return g;
}

/* Reads [@start, @end): the window, or NULL when stopped by a newer
 * request, an error or too many events. */
static GstCtfGtkDeepWindow *
read_range (Shared * sh, GstCtfGtkPacketSource * src,
    GstCtfGtkPageRelease * release, gint64 start, gint64 end,
    gint generation)
{
  GstCtfEventMerge *merge;
  GstCtfGtkDeepWindow *w = g_new0 (GstCtfGtkDeepWindow, 1);
  gboolean finished = FALSE, ok = FALSE;
  const guint8 *last_packet = NULL;
  Group *g = NULL;
  guint64 n = 0;

  w->start = start;
  w->end = end;
  w->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);
  if (!(_gst_ctf_gtk_packet_source_can_seek (src) ?
          _gst_ctf_gtk_packet_source_seek (src, G_MAXUINT, start, NULL) :
          _gst_ctf_gtk_packet_source_rewind (src, NULL))) {
    window_free (w);
    return NULL;
  }
  merge = gst_ctf_event_merge_new (_gst_ctf_gtk_packet_source_get_trace_class
      (src));
  gst_ctf_event_merge_set_emulate_recycling (merge, FALSE);
  gst_ctf_event_merge_set_recording (merge, FALSE);
  for (;;) {
    GstCtfMergeItem item;
    GstCtfMergeItemType t;

    if ((n & 1023) == 0 && g_atomic_int_get (&sh->generation) != generation)
      break;
    t = gst_ctf_event_merge_next (merge, &item, NULL);
    if (t == GST_CTF_MERGE_EVENT) {
      const guint8 *pd;

      if (!item.has_ns || item.ns < start)
        continue;
      if (item.ns >= end) {
        ok = TRUE;
        break;
      }
      pd = gst_ctf_event_merge_get_packet_data (merge, NULL);
      if (pd != last_packet) {
        g = find_group (w->groups,
            _gst_ctf_gtk_merge_packet_cpu (merge, &item),
            g_intern_string (item.stream_name));
        last_packet = pd;
      }
      g_array_append_val (g->times, item.ns);
      if (++n > MAX_EVENTS)
        break;
      continue;
    }
    if (t == GST_CTF_MERGE_ERROR)
      break;
    if (t != GST_CTF_MERGE_NONE)
      continue;
    if (finished) {
      ok = TRUE;
      break;
    }
    {
      GstCtfGtkPacket p;
      gint r = _gst_ctf_gtk_packet_source_next (src, &p, NULL);

      if (r < 0)
        break;
      if (r == 0 || r == GST_CTF_GTK_PACKET_NEW_TRACE_CLASS) {
        /* live: the range is read within the trace class of its start */
        finished = TRUE;
        gst_ctf_event_merge_finish (merge);
        continue;
      }
      if (r == GST_CTF_GTK_PACKET_ADVANCE) {
        gst_ctf_event_merge_advance (merge, p.ns);
        continue;
      }
      if (!gst_ctf_event_merge_push_full (merge, p.bytes, p.stream_class_id,
              p.rank, p.stream_id, p.stream_name, p.offset, NULL)) {
        g_bytes_unref (p.bytes);
        break;
      }
      _gst_ctf_gtk_page_release_add (release, g_bytes_get_data (p.bytes,
              NULL), g_bytes_get_size (p.bytes));
      g_bytes_unref (p.bytes);
    }
  }
  gst_ctf_event_merge_free (merge);
  /* only the times are kept: the pages read go back (RSS flat whatever
   * the ranges visited) */
  _gst_ctf_gtk_page_release_flush (release);
  if (!ok) {
    window_free (w);
    return NULL;
  }
  window_trim (w);
  return w;
}

/* Main context: the windows read go to the owner's cache. */
static gboolean
deliver_cb (gpointer data)
{
  Shared *sh = data;
  GstCtfGtkDeepZoom *dz = sh->owner;
  GPtrArray *done;
  guint i, k;

  g_mutex_lock (&sh->lock);
  done = sh->done;
  sh->done = g_ptr_array_new ();
  g_mutex_unlock (&sh->lock);
  for (i = 0; i < done->len; i++) {
    GstCtfGtkDeepWindow *w = g_ptr_array_index (done, i);
    guint oldest = 0;

    if (dz == NULL) {
      window_free (w);
      continue;
    }
    for (k = 0; k < DEEP_ZOOM_WINDOWS; k++) {
      if (dz->windows[k] == NULL) {
        oldest = k;
        break;
      }
      if (dz->windows[k]->used < dz->windows[oldest]->used)
        oldest = k;
    }
    window_free (dz->windows[oldest]);
    w->used = ++dz->stamp;
    dz->windows[oldest] = w;
  }
  g_ptr_array_unref (done);
  if (dz != NULL && dz->ready != NULL)
    dz->ready (dz->user_data);
  return G_SOURCE_REMOVE;
}

static gpointer
worker (gpointer data)
{
  Shared *sh = data;
  GstCtfGtkPacketSource *src = NULL;
  GstCtfGtkPageRelease *release = NULL;

  g_mutex_lock (&sh->lock);
  for (;;) {
    gint64 start, end;
    gint generation;
    GstCtfGtkDeepWindow *w;

    while (!sh->quit && !sh->have_request)
      g_cond_wait (&sh->cond, &sh->lock);
    if (sh->quit)
      break;
    start = sh->req_start;
    end = sh->req_end;
    generation = g_atomic_int_get (&sh->generation);
    sh->have_request = FALSE;
    sh->busy = TRUE;
    g_mutex_unlock (&sh->lock);

    if (src == NULL) {
      src = _gst_ctf_gtk_packet_source_open (sh->path, NULL);
      if (src != NULL)
        release = _gst_ctf_gtk_page_release_new (sh->path);
    }
    w = src != NULL ? read_range (sh, src, release, start, end,
        generation) : NULL;

    g_mutex_lock (&sh->lock);
    sh->busy = sh->have_request;
    if (w != NULL) {
      GSource *idle = g_idle_source_new ();

      g_ptr_array_add (sh->done, w);
      g_source_set_callback (idle, deliver_cb, shared_ref (sh),
          (GDestroyNotify) shared_unref);
      g_source_attach (idle, sh->context);
      g_source_unref (idle);
    }
  }
  g_mutex_unlock (&sh->lock);
  if (src != NULL)
    _gst_ctf_gtk_packet_source_free (src);
  _gst_ctf_gtk_page_release_free (release);
  shared_unref (sh);
  return NULL;
}

/* @ready runs (in the caller's thread-default main context) each time a
 * requested range was read. */
GstCtfGtkDeepZoom *
_gst_ctf_gtk_deep_zoom_new (const gchar * path, GSourceFunc ready,
    gpointer user_data)
{
  GstCtfGtkDeepZoom *dz = g_new0 (GstCtfGtkDeepZoom, 1);
  Shared *sh = g_new0 (Shared, 1);

  sh->ref = 1;
  sh->path = g_strdup (path);
  sh->context = g_main_context_ref_thread_default ();
  g_mutex_init (&sh->lock);
  g_cond_init (&sh->cond);
  sh->done = g_ptr_array_new ();
  sh->owner = dz;
  dz->sh = sh;
  dz->ready = ready;
  dz->user_data = user_data;
  dz->asked_start = dz->asked_end = 0;
  dz->thread = g_thread_new ("gstctf-gtk-deep-zoom", worker,
      shared_ref (sh));
  return dz;
}

/* Stops the worker (waiting for it); no ready callback runs after. */
void
_gst_ctf_gtk_deep_zoom_free (GstCtfGtkDeepZoom * dz)
{
  guint i;

  if (dz == NULL)
    return;
  g_mutex_lock (&dz->sh->lock);
  dz->sh->quit = TRUE;
  g_atomic_int_inc (&dz->sh->generation);
  g_cond_signal (&dz->sh->cond);
  g_mutex_unlock (&dz->sh->lock);
  g_thread_join (dz->thread);
  for (i = 0; i < dz->sh->done->len; i++)
    window_free (g_ptr_array_index (dz->sh->done, i));
  g_ptr_array_set_size (dz->sh->done, 0);
  dz->sh->owner = NULL;
  shared_unref (dz->sh);
  for (i = 0; i < DEEP_ZOOM_WINDOWS; i++)
    window_free (dz->windows[i]);
  g_free (dz);
}

/* A window read that holds [@start, @end), NULL when none does. */
const GstCtfGtkDeepWindow *
_gst_ctf_gtk_deep_zoom_lookup (GstCtfGtkDeepZoom * dz, gint64 start,
    gint64 end)
{
  guint i;

  for (i = 0; i < DEEP_ZOOM_WINDOWS; i++) {
    GstCtfGtkDeepWindow *w = dz->windows[i];

    if (w != NULL && w->start <= start && w->end >= end) {
      w->used = ++dz->stamp;
      return w;
    }
  }
  return NULL;
}

/* Asks the worker to read [@start, @end) (stopping what it reads), unless
 * that is what it was last asked. */
void
_gst_ctf_gtk_deep_zoom_request (GstCtfGtkDeepZoom * dz, gint64 start,
    gint64 end)
{
  if (dz->asked_start == start && dz->asked_end == end)
    return;
  dz->asked_start = start;
  dz->asked_end = end;
  g_mutex_lock (&dz->sh->lock);
  dz->sh->req_start = start;
  dz->sh->req_end = end;
  dz->sh->have_request = TRUE;
  dz->sh->busy = TRUE;
  g_atomic_int_inc (&dz->sh->generation);
  g_cond_signal (&dz->sh->cond);
  g_mutex_unlock (&dz->sh->lock);
}

/* Whether a range asked for is being read or waits for its delivery. */
gboolean
_gst_ctf_gtk_deep_zoom_is_busy (GstCtfGtkDeepZoom * dz)
{
  gboolean busy;

  g_mutex_lock (&dz->sh->lock);
  busy = dz->sh->busy || dz->sh->done->len > 0;
  g_mutex_unlock (&dz->sh->lock);
  return busy;
}

/* The times (ns from the origin, in order) of the window's events of a
 * CPU (@cpu >= 0) or of a stream; NULL with @n 0 when it has none. */
const gint64 *
_gst_ctf_gtk_deep_window_get_times (const GstCtfGtkDeepWindow * w, gint cpu,
    const gchar * stream_name, guint * n)
{
  guint i;

  *n = 0;
  for (i = 0; i < w->groups->len; i++) {
    Group *g = g_ptr_array_index (w->groups, i);

    if (cpu >= 0 ? g->cpu == cpu : (g->cpu < 0 &&
            g_strcmp0 (g->stream_name, stream_name) == 0)) {
      *n = g->times->len;
      return (const gint64 *) g->times->data;
    }
  }
  return NULL;
}
