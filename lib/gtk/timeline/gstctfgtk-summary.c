/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkSummary: event density, running tasks and lost events per lane
 * (gstctfgtk-summary.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctfgtk-summary.h"

typedef struct {
  gint64 start;                 /* the task runs from here */
  gint tid;
  const gchar *comm;            /* interned */
} TaskSpan;

typedef struct {
  gint64 ns;
  guint64 count;
} Lost;

/* A task's rows: when and where it ran (KernelShark's task plots). */
typedef struct {
  gint tid;
  const gchar *comm;            /* interned, the last one seen */
  GArray *runs;                 /* GstCtfGtkSpan (id: the CPU), by start */
} Task;

/* A non-empty bin of a level: @count events in [t0 + idx * w,
 * t0 + (idx + 1) * w), w the level's width. */
typedef struct {
  guint32 idx, count;
} Bin;

/* A lane's non-empty bins at one level, by idx, in chunks of CHUNK bins
 * (the last one grown by doubling): no copy of the whole level as it
 * grows, and the chunks of a level dropped are reused by the next. */
#define CHUNK_SHIFT 11         /* 2048 bins, 16 KiB */
#define CHUNK (1u << CHUNK_SHIFT)
typedef struct {
  Bin **chunks;
  guint len, n_chunks, tail_alloc;
} Level;

static inline Bin *
level_bin (const Level * lv, guint i)
{
  return &lv->chunks[i >> CHUNK_SHIFT][i & (CHUNK - 1)];
}

static void
level_clear (Level * lv)
{
  guint i;

  for (i = 0; i < lv->n_chunks; i++)
    g_free (lv->chunks[i]);
  g_free (lv->chunks);
  memset (lv, 0, sizeof (Level));
}

static void
level_push (Level * lv, Bin b)
{
  guint off = lv->len & (CHUNK - 1);

  if (lv->len == lv->n_chunks * CHUNK) {
    lv->chunks = g_renew (Bin *, lv->chunks, lv->n_chunks + 1);
    lv->tail_alloc = 16;
    lv->chunks[lv->n_chunks++] = g_new (Bin, lv->tail_alloc);
  } else if (off == lv->tail_alloc) {
    lv->tail_alloc *= 2;
    lv->chunks[lv->n_chunks - 1] = g_renew (Bin, lv->chunks[lv->n_chunks -
            1], lv->tail_alloc);
  }
  *level_bin (lv, lv->len++) = b;
}

typedef struct {
  gint cpu;                     /* -1: a stream's lane */
  gchar *stream_name;
  Level levels[SUMMARY_MAX_LEVELS];     /* the finest first */
  GArray *spans;                /* TaskSpan, by start */
  GArray *lost;                 /* Lost, by ns */
  Task *running;                /* the task whose run is open here */
  /* the events of levels[0]'s last bin not counted in the coarser levels
   * yet (they are when the next bin starts): one update per event */
  guint32 pending;
} Lane;

struct _GstCtfGtkSummary {
  GMutex lock;
  GPtrArray *lanes;
  gboolean have_t0;
  gint64 t0;                    /* first event */
  gint64 t_end;                 /* last event */
  guint shift;                  /* the finest bins are 1 << shift ns */
  guint n_levels;               /* level k: bins of 1 << (shift + k) ns */
  guint64 n_bins;               /* Bin of all lanes and levels */
  guint64 n_switches;
  GPtrArray *tasks;             /* Task *, by tid (not the idle task) */
};

static void
task_free (Task * t)
{
  g_array_unref (t->runs);
  g_free (t);
}

static void
lane_free (Lane * l)
{
  guint k;

  g_free (l->stream_name);
  for (k = 0; k < SUMMARY_MAX_LEVELS; k++)
    level_clear (&l->levels[k]);
  g_array_unref (l->spans);
  g_array_unref (l->lost);
  g_free (l);
}

GstCtfGtkSummary *
_gst_ctf_gtk_summary_new (void)
{
  GstCtfGtkSummary *s = g_new0 (GstCtfGtkSummary, 1);

  g_mutex_init (&s->lock);
  s->lanes = g_ptr_array_new_with_free_func ((GDestroyNotify) lane_free);
  s->tasks = g_ptr_array_new_with_free_func ((GDestroyNotify) task_free);
  s->shift = SUMMARY_FINEST_SHIFT;
  s->n_levels = 1;
  return s;
}

void
_gst_ctf_gtk_summary_free (GstCtfGtkSummary * s)
{
  if (s == NULL)
    return;
  g_ptr_array_unref (s->lanes);
  g_ptr_array_unref (s->tasks);
  g_mutex_clear (&s->lock);
  g_free (s);
}

static void fit_locked (GstCtfGtkSummary * s, gint64 ns);

/* The lane of a CPU (@cpu >= 0) or of a stream, made when new.  Lanes of
 * CPUs are kept in CPU order. */
guint
_gst_ctf_gtk_summary_lane (GstCtfGtkSummary * s, gint cpu,
    const gchar * stream_name)
{
  Lane *l;
  guint i, at;

  g_mutex_lock (&s->lock);
  for (i = 0; i < s->lanes->len; i++) {
    l = g_ptr_array_index (s->lanes, i);
    if (cpu >= 0 ? l->cpu == cpu : (l->cpu < 0 &&
            g_strcmp0 (l->stream_name, stream_name) == 0)) {
      g_mutex_unlock (&s->lock);
      return i;
    }
  }
  l = g_new0 (Lane, 1);
  l->cpu = cpu;
  l->stream_name = g_strdup (stream_name);
  l->spans = g_array_new (FALSE, FALSE, sizeof (TaskSpan));
  l->lost = g_array_new (FALSE, FALSE, sizeof (Lost));
  /* CPUs by number, then streams by name */
  for (at = 0; at < s->lanes->len; at++) {
    Lane *o = g_ptr_array_index (s->lanes, at);

    if (cpu >= 0 ? (o->cpu < 0 || o->cpu > cpu) : (o->cpu < 0 &&
            g_strcmp0 (o->stream_name, stream_name) > 0))
      break;
  }
  g_ptr_array_insert (s->lanes, at, l);
  if (s->have_t0)
    fit_locked (s, s->t_end);
  g_mutex_unlock (&s->lock);
  return at;
}

/* Lane @l's level @k with bins merged pairwise from level @k - 1;
 * returns its number of bins. */
static guint
merge_level (Lane * l, guint k)
{
  const Level *fine = &l->levels[k - 1];
  Level *coarse = &l->levels[k];
  guint i;

  level_clear (coarse);
  for (i = 0; i < fine->len; i++) {
    const Bin *f = level_bin (fine, i);
    Bin b = { f->idx / 2, f->count };
    Bin *last = coarse->len > 0 ? level_bin (coarse, coarse->len - 1) : NULL;

    if (last != NULL && last->idx == b.idx)
      last->count = (guint32) MIN ((guint64) last->count + b.count,
          G_MAXUINT32);
    else
      level_push (coarse, b);
  }
  return coarse->len;
}

static void flush_locked (GstCtfGtkSummary * s);

/* One more level, twice as coarse as the coarsest. */
static void
add_level_locked (GstCtfGtkSummary * s)
{
  guint i;

  flush_locked (s);
  for (i = 0; i < s->lanes->len; i++)
    s->n_bins += merge_level (g_ptr_array_index (s->lanes, i), s->n_levels);
  s->n_levels++;
}

/* Drops the finest level: the next one, twice as coarse, is the finest. */
static void
drop_finest_locked (GstCtfGtkSummary * s)
{
  guint i;

  if (s->n_levels == 1)
    add_level_locked (s);
  flush_locked (s);
  for (i = 0; i < s->lanes->len; i++) {
    Lane *l = g_ptr_array_index (s->lanes, i);

    s->n_bins -= l->levels[0].len;
    level_clear (&l->levels[0]);
    memmove (l->levels, l->levels + 1, (SUMMARY_MAX_LEVELS - 1) *
        sizeof (Level));
    memset (&l->levels[SUMMARY_MAX_LEVELS - 1], 0, sizeof (Level));
  }
  s->n_levels--;
  s->shift++;
}

/* The levels for the trace up to @ns: the finest ones dropped while
 * their bins would not fit a guint32 or all of them would take more than
 * SUMMARY_MAX_BYTES, a coarser one added while the coarsest has more than
 * SUMMARY_COARSE_BINS bins over the trace. */
static void
fit_locked (GstCtfGtkSummary * s, gint64 ns)
{
  guint64 span = (guint64) (ns - s->t0) + 1;

  while (s->shift < 62 && ((span >> s->shift) > G_MAXUINT32 ||
          s->n_bins * sizeof (Bin) > SUMMARY_MAX_BYTES))
    drop_finest_locked (s);
  while (s->n_levels < SUMMARY_MAX_LEVELS &&
      (span >> (s->shift + s->n_levels - 1)) >= SUMMARY_COARSE_BINS)
    add_level_locked (s);
}

/* The first of @lv's bins with an idx at or after @idx. */
static guint
level_find (const Level * lv, guint64 idx)
{
  guint lo = 0, hi = lv->len;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (level_bin (lv, mid)->idx < idx)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Counts @n events in bin @idx of @lv: the last one, mostly (a lane's
 * events come in time order); returns TRUE when a bin was added. */
static inline gboolean
level_add (Level * lv, guint32 idx, guint32 n)
{
  Bin *last = lv->len > 0 ? level_bin (lv, lv->len - 1) : NULL;
  Bin b = { idx, n };
  guint at, i;

  if (G_LIKELY (last != NULL && last->idx == idx)) {
    last->count = (guint32) MIN ((guint64) last->count + n, G_MAXUINT32);
    return FALSE;
  }
  if (G_LIKELY (last == NULL || last->idx < idx)) {
    level_push (lv, b);
    return TRUE;
  }
  /* (out of order: rare) */
  at = level_find (lv, idx);
  if (level_bin (lv, at)->idx == idx) {
    level_bin (lv, at)->count = (guint32) MIN ((guint64) level_bin (lv,
            at)->count + n, G_MAXUINT32);
    return FALSE;
  }
  level_push (lv, *last);
  for (i = lv->len - 2; i > at; i--)
    *level_bin (lv, i) = *level_bin (lv, i - 1);
  *level_bin (lv, at) = b;
  return TRUE;
}

/* @l's pending events counted in its coarser levels. */
static void
flush_lane_locked (GstCtfGtkSummary * s, Lane * l)
{
  guint32 idx;
  guint k;

  if (l->pending == 0)
    return;
  idx = level_bin (&l->levels[0], l->levels[0].len - 1)->idx;
  for (k = 1; k < s->n_levels; k++)
    s->n_bins += level_add (&l->levels[k], idx >> k, l->pending);
  l->pending = 0;
}

static void
flush_locked (GstCtfGtkSummary * s)
{
  guint i;

  for (i = 0; i < s->lanes->len; i++)
    flush_lane_locked (s, g_ptr_array_index (s->lanes, i));
}

/* Lane @l's pending events as a bin of level @k >= 1 (@idx, FALSE when
 * none): what readers of the coarser levels add. */
static gboolean
pending_bin (GstCtfGtkSummary * s, const Lane * l, guint k, Bin * b)
{
  if (k == 0 || l->pending == 0)
    return FALSE;
  b->idx = level_bin (&l->levels[0], l->levels[0].len - 1)->idx >> k;
  b->count = l->pending;
  return TRUE;
}

/* Events come in time order (babeltrace2's). */
void
_gst_ctf_gtk_summary_add_event (GstCtfGtkSummary * s, guint lane, gint64 ns)
{
  Lane *l;
  Level *lv;
  Bin *last;
  guint64 d;
  guint32 idx;
  guint k, added = 0;

  g_mutex_lock (&s->lock);
  if (!s->have_t0) {
    s->t0 = s->t_end = ns;
    s->have_t0 = TRUE;
  }
  if (ns < s->t0)
    ns = s->t0;
  if (G_UNLIKELY (ns > s->t_end)) {
    fit_locked (s, ns);
    s->t_end = ns;
  }
  l = g_ptr_array_index (s->lanes, lane);
  d = (guint64) (ns - s->t0);
  idx = (guint32) (d >> s->shift);
  lv = &l->levels[0];
  last = lv->len > 0 ? level_bin (lv, lv->len - 1) : NULL;
  if (G_LIKELY (last != NULL && last->idx == idx && l->pending <
          G_MAXUINT32)) {
    /* the last bin's: the coarser levels count it when the next starts */
    if (G_LIKELY (last->count < G_MAXUINT32))
      last->count++;
    l->pending++;
  } else {
    flush_lane_locked (s, l);
    if (last == NULL || last->idx < idx) {
      added += level_add (lv, idx, 1);
      l->pending = 1;
    } else {
      /* (out of order, or the last bin full: every level now) */
      for (k = 0; k < s->n_levels; k++)
        added += level_add (&l->levels[k], (guint32) (d >> (s->shift + k)),
            1);
    }
  }
  s->n_bins += added;
  if (G_UNLIKELY (added > 0 && s->n_bins * sizeof (Bin) > SUMMARY_MAX_BYTES))
    fit_locked (s, s->t_end);
  g_mutex_unlock (&s->lock);
}

/* The task of @tid, made when new (NULL for the idle task). */
static Task *
task_locked (GstCtfGtkSummary * s, gint tid, const gchar * comm)
{
  guint lo = 0, hi = s->tasks->len;
  Task *t;

  if (tid <= 0)
    return NULL;
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (((Task *) g_ptr_array_index (s->tasks, mid))->tid < tid)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < s->tasks->len && (t = g_ptr_array_index (s->tasks, lo))->tid ==
      tid) {
    if (comm != NULL && *comm != '\0')
      t->comm = comm;
    return t;
  }
  t = g_new0 (Task, 1);
  t->tid = tid;
  t->comm = comm;
  t->runs = g_array_new (FALSE, FALSE, sizeof (GstCtfGtkSpan));
  g_ptr_array_insert (s->tasks, lo, t);
  return t;
}

/* @tid runs on @l's CPU from @ns on (until the CPU's next switch). */
static void
open_run_locked (GstCtfGtkSummary * s, Lane * l, gint tid,
    const gchar * comm, gint64 ns)
{
  Task *t = task_locked (s, tid, comm);
  GstCtfGtkSpan run = { ns, G_MAXINT64, l->cpu };

  l->running = t;
  if (t != NULL)
    g_array_append_val (t->runs, run);
}

void
_gst_ctf_gtk_summary_add_switch (GstCtfGtkSummary * s, guint lane,
    gint64 ns, gint prev_tid, const gchar * prev_comm, gint next_tid,
    const gchar * next_comm)
{
  Lane *l;
  TaskSpan span;

  g_mutex_lock (&s->lock);
  l = g_ptr_array_index (s->lanes, lane);
  /* before its first switch, a CPU ran the task it switches from */
  if (l->spans->len == 0) {
    span.start = G_MININT64;
    span.tid = prev_tid;
    span.comm = g_intern_string (prev_comm);
    g_array_append_val (l->spans, span);
    open_run_locked (s, l, prev_tid, span.comm, G_MININT64);
  }
  span.start = ns;
  span.tid = next_tid;
  span.comm = g_intern_string (next_comm);
  g_array_append_val (l->spans, span);
  if (l->running != NULL)
    g_array_index (l->running->runs, GstCtfGtkSpan,
        l->running->runs->len - 1).end = ns;
  l->running = NULL;
  /* (a task only switched from, after lost events, still has a row) */
  task_locked (s, prev_tid, g_intern_string (prev_comm));
  open_run_locked (s, l, next_tid, span.comm, ns);
  s->n_switches++;
  g_mutex_unlock (&s->lock);
}

void
_gst_ctf_gtk_summary_add_lost (GstCtfGtkSummary * s, guint lane, gint64 ns,
    guint64 count)
{
  Lane *l;
  Lost lost = { ns, count };

  g_mutex_lock (&s->lock);
  l = g_ptr_array_index (s->lanes, lane);
  g_array_append_val (l->lost, lost);
  g_mutex_unlock (&s->lock);
}

gboolean
_gst_ctf_gtk_summary_get_range (GstCtfGtkSummary * s, gint64 * start,
    gint64 * end)
{
  gboolean have;

  g_mutex_lock (&s->lock);
  have = s->have_t0;
  *start = s->t0;
  *end = s->t_end;
  g_mutex_unlock (&s->lock);
  return have;
}

guint
_gst_ctf_gtk_summary_get_n_lanes (GstCtfGtkSummary * s)
{
  guint n;

  g_mutex_lock (&s->lock);
  n = s->lanes->len;
  g_mutex_unlock (&s->lock);
  return n;
}

gchar *
_gst_ctf_gtk_summary_get_lane_label (GstCtfGtkSummary * s, guint lane,
    gint * cpu)
{
  gchar *label = NULL;
  Lane *l;

  *cpu = -1;
  g_mutex_lock (&s->lock);
  if (lane < s->lanes->len) {
    l = g_ptr_array_index (s->lanes, lane);
    *cpu = l->cpu;
    label = l->cpu >= 0 ? g_strdup_printf ("CPU %d", l->cpu) :
        g_strdup (l->stream_name);
  }
  g_mutex_unlock (&s->lock);
  return label;
}

gboolean
_gst_ctf_gtk_summary_has_tasks (GstCtfGtkSummary * s)
{
  gboolean has;

  g_mutex_lock (&s->lock);
  has = s->n_switches > 0;
  g_mutex_unlock (&s->lock);
  return has;
}

guint64
_gst_ctf_gtk_summary_get_n_switches (GstCtfGtkSummary * s)
{
  guint64 n;

  g_mutex_lock (&s->lock);
  n = s->n_switches;
  g_mutex_unlock (&s->lock);
  return n;
}

/* The level whose bins are the widest at most @max_ns wide (the finest
 * when all are wider). */
static guint
level_for_locked (GstCtfGtkSummary * s, gdouble max_ns)
{
  guint k = 0;

  while (k + 1 < s->n_levels && (gdouble) (1ull << (s->shift + k + 1)) <=
      max_ns)
    k++;
  return k;
}

/* Events (and lost events) per column of [@start, @end) cut in
 * @n_columns, from the level whose bins are the widest at most a
 * SUMMARY_SUB_BINS-th of a column (the finest when all are wider): each
 * bin counts in the column holding its middle, so an event is at most
 * half a bin from its column. */
void
_gst_ctf_gtk_summary_get_density (GstCtfGtkSummary * s, guint lane,
    gint64 start, gint64 end, guint n_columns, guint32 * counts,
    guint64 * lost)
{
  Lane *l;
  const Level *lv;
  gdouble col_ns;
  gint64 b0, w;
  guint i, k, b;
  Bin pb;

  memset (counts, 0, n_columns * sizeof (guint32));
  if (lost != NULL)
    memset (lost, 0, n_columns * sizeof (guint64));
  if (n_columns == 0 || end <= start)
    return;
  col_ns = (gdouble) (end - start) / n_columns;
  g_mutex_lock (&s->lock);
  if (!s->have_t0 || lane >= s->lanes->len) {
    g_mutex_unlock (&s->lock);
    return;
  }
  l = g_ptr_array_index (s->lanes, lane);
  k = level_for_locked (s, col_ns / SUMMARY_SUB_BINS);
  lv = &l->levels[k];
  w = (gint64) 1 << (s->shift + k);
  b0 = start > s->t0 ? (start - s->t0) / w - 1 : 0;
  for (b = level_find (lv, MAX (b0, 0)); b < lv->len; b++) {
    const Bin *bin = level_bin (lv, b);
    gint64 mid = s->t0 + (gint64) bin->idx * w + w / 2;
    gint64 c;

    if (mid >= end)
      break;
    if (mid < start)
      continue;
    c = (gint64) ((mid - start) / col_ns);
    if (c >= 0 && c < n_columns)
      counts[c] = MIN ((guint64) counts[c] + bin->count, G_MAXUINT32);
  }
  if (pending_bin (s, l, k, &pb)) {
    gint64 mid = s->t0 + (gint64) pb.idx * w + w / 2;
    gint64 c = (gint64) ((mid - start) / col_ns);

    if (mid >= start && mid < end && c >= 0 && c < n_columns)
      counts[c] = MIN ((guint64) counts[c] + pb.count, G_MAXUINT32);
  }
  for (i = 0; lost != NULL && i < l->lost->len; i++) {
    const Lost *x = &g_array_index (l->lost, Lost, i);
    gint64 c;

    if (x->ns < start || x->ns >= end)
      continue;
    c = (gint64) ((x->ns - start) / col_ns);
    if (c >= 0 && c < n_columns)
      lost[c] += x->count;
  }
  g_mutex_unlock (&s->lock);
}

/* The width (ns) of the bins _gst_ctf_gtk_summary_get_density() counts
 * for [@start, @end) in @n_columns. */
gint64
_gst_ctf_gtk_summary_get_resolution (GstCtfGtkSummary * s, gint64 start,
    gint64 end, guint n_columns)
{
  gint64 w;

  g_mutex_lock (&s->lock);
  w = (gint64) 1 << (s->shift + level_for_locked (s,
          (gdouble) (end - start) / MAX (n_columns, 1) / SUMMARY_SUB_BINS));
  g_mutex_unlock (&s->lock);
  return w;
}

/* The task a CPU's lane runs at @ns (the last switch at or before it),
 * NULL when unknown. */
const gchar *
_gst_ctf_gtk_summary_get_task (GstCtfGtkSummary * s, guint lane, gint64 ns,
    gint * tid)
{
  const gchar *comm = NULL;
  Lane *l;
  guint lo = 0, hi;

  *tid = -1;
  g_mutex_lock (&s->lock);
  if (lane < s->lanes->len) {
    l = g_ptr_array_index (s->lanes, lane);
    hi = l->spans->len;
    while (lo < hi) {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (l->spans, TaskSpan, mid).start <= ns)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo > 0) {
      const TaskSpan *sp = &g_array_index (l->spans, TaskSpan, lo - 1);

      *tid = sp->tid;
      comm = sp->comm;
    }
  }
  g_mutex_unlock (&s->lock);
  return comm;
}

guint
_gst_ctf_gtk_summary_get_n_tasks (GstCtfGtkSummary * s)
{
  guint n;

  g_mutex_lock (&s->lock);
  n = s->tasks->len;
  g_mutex_unlock (&s->lock);
  return n;
}

/* The command name (interned) and thread id of the @i-th task by tid. */
const gchar *
_gst_ctf_gtk_summary_get_task_info (GstCtfGtkSummary * s, guint i,
    gint * tid)
{
  const gchar *comm = NULL;

  *tid = -1;
  g_mutex_lock (&s->lock);
  if (i < s->tasks->len) {
    Task *t = g_ptr_array_index (s->tasks, i);

    *tid = t->tid;
    comm = t->comm;
  }
  g_mutex_unlock (&s->lock);
  return comm;
}

/* The first span of @a (by start, non-overlapping) from @lo ending after
 * @ns. */
static guint
first_after_from (GArray * a, guint lo, gint64 ns)
{
  guint hi = a->len;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (g_array_index (a, GstCtfGtkSpan, mid).end <= ns)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static guint
first_after (GArray * a, gint64 ns)
{
  return first_after_from (a, 0, ns);
}

/* Spans of @in (by start, non-overlapping) as drawn over [@start, @end)
 * cut in @n_columns: each one as it is (clamped to the range) when they
 * are at most two per column, else per column the one at the column's
 * middle, equal neighbours merged.  Appended to @out. */
static void
spans_for_columns (GArray * in, gint64 start, gint64 end, guint n_columns,
    GArray * out)
{
  guint i = first_after (in, start), j = first_after (in, end - 1);
  gdouble col_ns = (gdouble) (end - start) / MAX (n_columns, 1);
  guint c;

  if (j < in->len && g_array_index (in, GstCtfGtkSpan, j).start < end)
    j++;
  if (j - i <= 2 * (guint64) n_columns) {
    for (; i < j; i++) {
      GstCtfGtkSpan sp = g_array_index (in, GstCtfGtkSpan, i);

      sp.start = MAX (sp.start, start);
      sp.end = MIN (sp.end, end);
      if (sp.end > sp.start)
        g_array_append_val (out, sp);
    }
    return;
  }
  for (c = 0; c < n_columns; c++) {
    gint64 t = start + (gint64) ((c + 0.5) * col_ns);
    gint64 c0 = start + (gint64) (c * col_ns);
    gint64 c1 = c + 1 == n_columns ? end : start + (gint64) ((c + 1) *
        col_ns);
    const GstCtfGtkSpan *sp;

    i = first_after_from (in, i, t);
    if (i >= in->len)
      break;
    sp = &g_array_index (in, GstCtfGtkSpan, i);
    if (sp->start > t)
      continue;
    if (out->len > 0) {
      GstCtfGtkSpan *last = &g_array_index (out, GstCtfGtkSpan,
          out->len - 1);

      if (last->id == sp->id && last->end == c0) {
        last->end = c1;
        continue;
      }
    }
    {
      GstCtfGtkSpan col = { c0, c1, sp->id };

      g_array_append_val (out, col);
    }
  }
}

/* The last of @spans (TaskSpan, by start) starting at or before @ns, 0
 * when none does (the first span starts at G_MININT64). */
static guint
last_at_or_before (GArray * spans, gint64 ns)
{
  guint lo = 0, hi = spans->len;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (g_array_index (spans, TaskSpan, mid).start <= ns)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 ? lo - 1 : 0;
}

/* When the @i-th task ran in [@start, @end): spans whose id is the CPU,
 * exact when few enough for @n_columns, else sampled per column
 * (spans_for_columns()).  @out is emptied first. */
void
_gst_ctf_gtk_summary_get_task_runs (GstCtfGtkSummary * s, guint i,
    gint64 start, gint64 end, guint n_columns, GArray * out)
{
  g_array_set_size (out, 0);
  if (end <= start)
    return;
  g_mutex_lock (&s->lock);
  if (i < s->tasks->len)
    spans_for_columns (((Task *) g_ptr_array_index (s->tasks, i))->runs,
        start, end, n_columns, out);
  g_mutex_unlock (&s->lock);
}

/* The CPU the task @tid runs on at @ns, -1 when it does not run then
 * (or is not known). */
gint
_gst_ctf_gtk_summary_get_task_cpu (GstCtfGtkSummary * s, gint tid, gint64 ns)
{
  gint cpu = -1;
  guint i;

  g_mutex_lock (&s->lock);
  for (i = 0; i < s->tasks->len; i++) {
    Task *t = g_ptr_array_index (s->tasks, i);
    guint k;

    if (t->tid != tid)
      continue;
    k = first_after (t->runs, ns);
    if (k < t->runs->len && g_array_index (t->runs, GstCtfGtkSpan,
            k).start <= ns)
      cpu = g_array_index (t->runs, GstCtfGtkSpan, k).id;
    break;
  }
  g_mutex_unlock (&s->lock);
  return cpu;
}

/* The tasks a CPU's lane ran in [@start, @end): spans whose id is the
 * thread id, as _gst_ctf_gtk_summary_get_task_runs() gives them (each
 * switch's span runs to the lane's next switch). */
void
_gst_ctf_gtk_summary_get_lane_spans (GstCtfGtkSummary * s, guint lane,
    gint64 start, gint64 end, guint n_columns, GArray * out)
{
  Lane *l;
  guint first, last, k;

  g_array_set_size (out, 0);
  if (end <= start || n_columns == 0)
    return;
  g_mutex_lock (&s->lock);
  if (lane >= s->lanes->len || (l = g_ptr_array_index (s->lanes,
              lane))->spans->len == 0) {
    g_mutex_unlock (&s->lock);
    return;
  }
  /* the switches from the last at or before @start to the last before
   * @end */
  first = last_at_or_before (l->spans, start);
  last = last_at_or_before (l->spans, end - 1);
  if (last - first + 1 <= 2 * (guint64) n_columns) {
    for (k = first; k <= last; k++) {
      const TaskSpan *ts = &g_array_index (l->spans, TaskSpan, k);
      GstCtfGtkSpan sp = { MAX (ts->start, start), k + 1 < l->spans->len ?
            MIN (g_array_index (l->spans, TaskSpan, k + 1).start, end) : end,
        ts->tid
      };

      if (sp.end > sp.start)
        g_array_append_val (out, sp);
    }
  } else {
    /* per column, the task at its middle (a binary search each) */
    gdouble col_ns = (gdouble) (end - start) / n_columns;
    guint c;

    for (c = 0; c < n_columns; c++) {
      gint64 c0 = start + (gint64) (c * col_ns);
      gint64 c1 = c + 1 == n_columns ? end : start + (gint64) ((c + 1) *
          col_ns);
      gint tid = g_array_index (l->spans, TaskSpan,
          last_at_or_before (l->spans, start + (gint64) ((c + 0.5) *
                  col_ns))).tid;
      GstCtfGtkSpan *prev = out->len > 0 ? &g_array_index (out,
          GstCtfGtkSpan, out->len - 1) : NULL;

      if (prev != NULL && prev->id == tid && prev->end == c0) {
        prev->end = c1;
      } else {
        GstCtfGtkSpan sp = { c0, c1, tid };

        g_array_append_val (out, sp);
      }
    }
  }
  g_mutex_unlock (&s->lock);
}

/* The width of the finest bins, ns: what the density resolves. */
gint64
_gst_ctf_gtk_summary_get_bin_ns (GstCtfGtkSummary * s)
{
  gint64 b;

  g_mutex_lock (&s->lock);
  b = (gint64) 1 << s->shift;
  g_mutex_unlock (&s->lock);
  return b;
}

/* About how many events (all lanes) [@start, @end) holds: those of the
 * bins it touches, at the finest level where that is at most
 * SUMMARY_COARSE_BINS bins. */
guint64
_gst_ctf_gtk_summary_count_events (GstCtfGtkSummary * s, gint64 start,
    gint64 end)
{
  guint64 n = 0;
  gint64 b0, b1, w;
  guint i, k, b;

  g_mutex_lock (&s->lock);
  if (s->have_t0 && end > start) {
    k = level_for_locked (s, (gdouble) (end - start) / SUMMARY_COARSE_BINS);
    while (k + 1 < s->n_levels && (end - start) >> (s->shift + k) >
        SUMMARY_COARSE_BINS)
      k++;
    w = (gint64) 1 << (s->shift + k);
    b0 = MAX (start - s->t0, 0) / w;
    b1 = MAX (end - s->t0, 0) / w;
    for (i = 0; i < s->lanes->len; i++) {
      const Lane *l = g_ptr_array_index (s->lanes, i);
      const Level *lv = &l->levels[k];
      Bin pb;

      for (b = level_find (lv, b0); b < lv->len && level_bin (lv, b)->idx <=
          b1; b++)
        n += level_bin (lv, b)->count;
      if (pending_bin (s, l, k, &pb) && pb.idx >= b0 && pb.idx <= b1)
        n += pb.count;
    }
  }
  g_mutex_unlock (&s->lock);
  return n;
}
