/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel events -> `FtraceEventBundle`s (perfetto_trace.proto), one per
 * CTF packet of a CPU's stream.  Events Perfetto knows get its typed
 * messages (the table below: ftrace's names and fields, and
 * lttng-modules' names for the same events, `*_tid` for `*_pid` and
 * `prio - 100`); every other event is a `GenericFtraceEvent` with its
 * name and every payload field.  Task names met on the way (sched_switch,
 * wakeups, fork, task_newtask/rename, LTTng's statedump, trace.dat's saved
 * cmdlines) go to the process tree.
 */
#include <string.h>

#include "gstctf-perfetto-private.h"

/* FtraceEventBundle */
#define PF_BUNDLE_CPU 1
#define PF_BUNDLE_EVENT 2
#define PF_BUNDLE_LOST_EVENTS 3
/* FtraceEvent */
#define PF_FE_TIMESTAMP 1
#define PF_FE_PID 2
#define PF_FE_GENERIC 327

typedef enum {
  K_NONE = 0,
  K_STR,                        /* string / text array */
  K_INT,                        /* int32 / int64 field */
  K_UINT,                       /* uint32 / uint64 field */
  K_PRIO,                       /* int32, + 100 for lttng-modules */
  K_ARGS,                       /* repeated uint64: an array member, or
                                 * (src NULL) every other integer member */
} PfKind;

typedef struct {
  guint8 field;
  guint8 kind;
  const gchar *src;             /* member names, first found: "a|b" */
} PfTypedField;

typedef struct {
  const gchar *names;           /* "|"-separated; "x*": prefix */
  guint event_field;            /* FtraceEvent oneof field number */
  PfTypedField f[8];
  const gchar *task[2][3];      /* tid, tgid, comm members */
} PfTyped;

#define WAKE(n, id) { n, id, { {1, K_STR, "comm"}, {2, K_INT, "pid|tid"}, \
      {3, K_PRIO, "prio"}, {4, K_INT, "success"}, {5, K_INT, "target_cpu"} }, \
      { {"pid|tid", NULL, "comm"} } }
#define WQ(n, id) { n, id, { {1, K_UINT, "work"}, {2, K_UINT, "function"} } }

/* Field numbers: perfetto_trace.proto's FtraceEvent oneof and each
 * *FtraceEvent message. */
static const PfTyped typed[] = {
  {"sched_switch", 4, {{1, K_STR, "prev_comm"}, {2, K_INT, "prev_pid|prev_tid"},
          {3, K_PRIO, "prev_prio"}, {4, K_INT, "prev_state"},
          {5, K_STR, "next_comm"}, {6, K_INT, "next_pid|next_tid"},
          {7, K_PRIO, "next_prio"}},
      {{"prev_pid|prev_tid", NULL, "prev_comm"},
          {"next_pid|next_tid", NULL, "next_comm"}}},
  WAKE ("sched_waking", 20),
  WAKE ("sched_wakeup", 17),
  WAKE ("sched_wakeup_new", 114),
  {"sched_process_fork", 239, {{1, K_STR, "parent_comm"},
          {2, K_INT, "parent_tid|parent_pid"}, {3, K_STR, "child_comm"},
          {4, K_INT, "child_tid|child_pid"}},
      {{"child_tid|child_pid", "child_pid", "child_comm"},
          {"parent_tid|parent_pid", "parent_pid", "parent_comm"}}},
  {"sched_process_exit", 238, {{1, K_STR, "comm"}, {2, K_INT, "pid|tid"},
          {4, K_PRIO, "prio"}}},
  {"sched_process_free", 240, {{1, K_STR, "comm"}, {2, K_INT, "pid|tid"},
          {3, K_PRIO, "prio"}}},
  {"task_newtask", 235, {{1, K_INT, "pid|tid"}, {2, K_STR, "comm"},
          {3, K_UINT, "clone_flags"}, {4, K_INT, "oom_score_adj"}},
      {{"pid|tid", NULL, "comm"}}},
  {"task_rename", 236, {{1, K_INT, "pid|tid"}, {2, K_STR, "oldcomm"},
          {3, K_STR, "newcomm"}, {4, K_INT, "oom_score_adj"}},
      {{"pid|tid", NULL, "newcomm"}}},
  {"cpu_frequency|power_cpu_frequency", 11, {{1, K_UINT, "state"},
          {2, K_UINT, "cpu_id"}}},
  {"cpu_idle|power_cpu_idle", 13, {{1, K_UINT, "state"},
          {2, K_UINT, "cpu_id"}}},
  {"irq_handler_entry", 36, {{1, K_INT, "irq"}, {2, K_STR, "name"}}},
  {"irq_handler_exit", 37, {{1, K_INT, "irq"}, {2, K_INT, "ret"}}},
  {"softirq_entry|irq_softirq_entry", 24, {{1, K_UINT, "vec"}}},
  {"softirq_exit|irq_softirq_exit", 25, {{1, K_UINT, "vec"}}},
  {"softirq_raise|irq_softirq_raise", 26, {{1, K_UINT, "vec"}}},
  WQ ("workqueue_activate_work", 56),
  WQ ("workqueue_execute_end", 57),
  WQ ("workqueue_execute_start", 58),
  {"workqueue_queue_work", 59, {{1, K_UINT, "work"}, {2, K_UINT, "function"},
          {4, K_INT, "req_cpu"}, {5, K_INT, "cpu"},
          {6, K_STR, "workqueue"}}},
  {"print", 3, {{1, K_UINT, "ip"}, {2, K_STR, "buf"}}},
  /* raw_syscalls, and trace.dat's per-system-call events (syscalls
   * system: `__syscall_nr` and the arguments).  LTTng's
   * syscall_entry_NAME events record no number: generic. */
  {"sys_enter", 329, {{1, K_INT, "id"}, {2, K_ARGS, "args"}}},
  {"sys_exit", 330, {{1, K_INT, "id"}, {2, K_INT, "ret"}}},
  {"sys_enter_*", 329, {{1, K_INT, "__syscall_nr"}, {2, K_ARGS, NULL}}},
  {"sys_exit_*", 330, {{1, K_INT, "__syscall_nr"}, {2, K_INT, "ret"}}},
};

static gboolean
name_matches (const gchar * names, const gchar * name)
{
  gchar **alt = g_strsplit (names, "|", -1);
  gboolean ok = FALSE;
  guint i;

  for (i = 0; alt[i] && !ok; i++) {
    gsize l = strlen (alt[i]);

    if (l && alt[i][l - 1] == '*')
      ok = strncmp (alt[i], name, l - 1) == 0;
    else
      ok = strcmp (alt[i], name) == 0;
  }
  g_strfreev (alt);
  return ok;
}

/* Ordinal of the first of @names ("a|b") among @fc's members, or -1. */
static gint
member_ordinal (GstCtfPerfettoWriter * w, const GstCtfFieldClass * fc,
    const gchar * names)
{
  gchar **alt;
  gint found = -1;
  guint i, k;

  if (fc == NULL || names == NULL || fc->type != GST_CTF_FIELD_CLASS_STRUCT)
    return -1;
  alt = g_strsplit (names, "|", -1);
  for (i = 0; alt[i] && found < 0; i++)
    for (k = 0; k < fc->n_members && k < G_MAXINT8; k++)
      if (strcmp (gst_ctf_pf_display_name (w, fc->members[k].name),
              alt[i]) == 0) {
        found = (gint) k;
        break;
      }
  g_strfreev (alt);
  return found;
}

static PfClassInfo *
class_info (GstCtfPerfettoWriter * w, const GstCtfEventClass * ec)
{
  PfClassInfo *ci = g_hash_table_lookup (w->classes, ec);
  const GstCtfStreamClass *sc;
  guint i, j;

  if (ci)
    return ci;
  ci = g_new0 (PfClassInfo, 1);
  memset (ci->member, -1, sizeof (ci->member));
  memset (ci->task, -1, sizeof (ci->task));
  ci->pid.scope = -1;
  sc = NULL;
  for (i = 0; i < w->tc->stream_classes->len; i++) {
    const GstCtfStreamClass *s = g_ptr_array_index (w->tc->stream_classes, i);

    if (s->id == ec->stream_class_id)
      sc = s;
  }
  ci->cmdline = strcmp (ec->name, "tracecmd_cmdline") == 0;
  for (i = 0; i < G_N_ELEMENTS (typed) && !ci->typed; i++) {
    if (!name_matches (typed[i].names, ec->name))
      continue;
    ci->typed = &typed[i];
    for (j = 0; j < G_N_ELEMENTS (typed[i].f) && typed[i].f[j].kind; j++)
      ci->member[j] = (gint8) member_ordinal (w, ec->payload, typed[i].f[j].src);
  }
  /* Task names: the typed table's, LTTng's statedump, saved cmdlines. */
  if (ci->typed) {
    const PfTyped *t = ci->typed;

    for (i = 0; i < 2 && t->task[i][0]; i++)
      for (j = 0; j < 3; j++)
        ci->task[i][j] = (gint8) member_ordinal (w, ec->payload,
            t->task[i][j]);
  } else if (strcmp (ec->name, "lttng_statedump_process_state") == 0) {
    ci->task[0][0] = (gint8) member_ordinal (w, ec->payload, "tid");
    ci->task[0][1] = (gint8) member_ordinal (w, ec->payload, "pid");
    ci->task[0][2] = (gint8) member_ordinal (w, ec->payload, "name");
  } else if (ci->cmdline) {
    ci->task[0][0] = (gint8) member_ordinal (w, ec->payload, "pid");
    ci->task[0][2] = (gint8) member_ordinal (w, ec->payload, "comm");
  }
  /* The event's task: trace.dat's `common_pid`, LTTng's `tid` context. */
  if (sc && (i = member_ordinal (w, sc->event_common_context,
              "common_pid|tid"), (gint) i >= 0)) {
    ci->pid.scope = GST_CTF_SCOPE_EVENT_COMMON_CONTEXT;
    ci->pid.ordinal = (gint) i;
  } else if ((i = member_ordinal (w, ec->context, "common_pid|tid"),
          (gint) i >= 0)) {
    ci->pid.scope = GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT;
    ci->pid.ordinal = (gint) i;
  }
  ci->flags.scope = -1;
  if (sc && (i = member_ordinal (w, sc->event_common_context,
              "common_flags"), (gint) i >= 0)) {
    ci->flags.scope = GST_CTF_SCOPE_EVENT_COMMON_CONTEXT;
    ci->flags.ordinal = (gint) i;
  }
  g_hash_table_insert (w->classes, (gpointer) ec, ci);
  return ci;
}

static gboolean
is_int (const GstCtfFieldValue * x)
{
  return x && x->fc && (x->fc->type == GST_CTF_FIELD_CLASS_INTEGER ||
      x->fc->type == GST_CTF_FIELD_CLASS_ENUM);
}

static gint64
int_of (const GstCtfFieldValue * x)
{
  return x->fc->integer.is_signed ? x->v.i : (gint64) x->v.u;
}

/* A string, or a text array (CTF 1.8 §4.2.3 note: decoded without
 * children, @v.s its bytes), to its first NUL.  @x is in @v. */
static gboolean
text_of (const GstCtfFieldValue * v, const GstCtfFieldValue * x,
    const gchar ** s, gsize * len)
{
  const gchar *nul;

  if (x == NULL || x->fc == NULL)
    return FALSE;
  if (x->fc->type != GST_CTF_FIELD_CLASS_STRING &&
      !((x->fc->type == GST_CTF_FIELD_CLASS_ARRAY ||
              x->fc->type == GST_CTF_FIELD_CLASS_SEQUENCE) &&
          x->end == (guint32) (x - v) + 1))
    return FALSE;
  if (x->v.s.ptr == NULL) {
    *s = "";
    *len = 0;
    return TRUE;
  }
  *s = x->v.s.ptr;
  *len = x->v.s.len;
  nul = memchr (*s, 0, *len);
  if (nul)
    *len = nul - *s;
  return TRUE;
}

static void
write_string_field (GstCtfPb * pb, guint field, const gchar * s, gsize len)
{
  gst_ctf_pb_bytes (pb, field, s, len);
}

static void
write_typed (GstCtfPerfettoWriter * w, const PfClassInfo * ci,
    const GstCtfFieldValue * v, guint n, GstCtfPb * pb)
{
  const PfTyped *t = ci->typed;
  const GstCtfFieldValue *m[G_N_ELEMENTS (t->f)];
  guint j, k, i;

  gst_ctf_pb_begin (pb, t->event_field);
  for (j = 0; j < G_N_ELEMENTS (t->f) && t->f[j].kind; j++) {
    const GstCtfFieldValue *x;
    const gchar *s;
    gsize len;

    m[j] = ci->member[j] >= 0 ? gst_ctf_pf_member (v, n, ci->member[j]) : NULL;
    x = m[j];
    switch (t->f[j].kind) {
      case K_STR:
        if (text_of (v, x, &s, &len))
          write_string_field (pb, t->f[j].field, s, len);
        break;
      case K_INT:
        if (is_int (x))
          gst_ctf_pb_int (pb, t->f[j].field, int_of (x));
        break;
      case K_UINT:
        if (is_int (x))
          gst_ctf_pb_uint (pb, t->f[j].field, (guint64) int_of (x));
        break;
      case K_PRIO:
        if (is_int (x))
          gst_ctf_pb_int (pb, t->f[j].field, int_of (x) +
              (w->lttng_prio ? 100 : 0));
        break;
      case K_ARGS:
        if (t->f[j].src && x && x->fc->type != GST_CTF_FIELD_CLASS_INTEGER) {
          guint at = (guint) (x - v);

          for (i = at + 1; i < x->end && i < n; i = v[i].end)
            if (is_int (&v[i]))
              gst_ctf_pb_uint (pb, t->f[j].field, (guint64) int_of (&v[i]));
        } else if (t->f[j].src == NULL) {
          /* every integer member but those of the other fields */
          for (k = 0; (x = gst_ctf_pf_member (v, n, k)) != NULL; k++) {
            guint o;
            gboolean used = FALSE;

            for (o = 0; o < G_N_ELEMENTS (t->f) && t->f[o].kind; o++)
              used |= o != j && ci->member[o] == (gint) k;
            if (!used && is_int (x))
              gst_ctf_pb_uint (pb, t->f[j].field, (guint64) int_of (x));
          }
        }
        break;
      default:
        break;
    }
  }
  gst_ctf_pb_end (pb);
}

static void
write_generic (GstCtfPerfettoWriter * w, const GstCtfEventClass * ec,
    const GstCtfFieldValue * v, guint n, GstCtfPb * pb)
{
  const GstCtfFieldValue *x;
  guint k;

  /* GenericFtraceEvent: event_name 1, field 2 { name 1, str_value 3,
   * int_value 4, uint_value 5 } */
  gst_ctf_pb_begin (pb, PF_FE_GENERIC);
  gst_ctf_pb_string (pb, 1, ec->name);
  for (k = 0; (x = gst_ctf_pf_member (v, n, k)) != NULL; k++) {
    const gchar *s;
    gsize len;

    gst_ctf_pb_begin (pb, 2);
    gst_ctf_pb_string (pb, 1, gst_ctf_pf_display_name (w, x->name));
    if (is_int (x) && x->fc->integer.is_signed)
      gst_ctf_pb_int (pb, 4, x->v.i);
    else if (is_int (x))
      gst_ctf_pb_uint (pb, 5, x->v.u);
    else if (text_of (v, x, &s, &len))
      gst_ctf_pb_bytes (pb, 3, s, len);
    else {
      gchar *t = gst_ctf_pf_value_text (v, (guint) (x - v));

      gst_ctf_pb_string (pb, 3, t);
      g_free (t);
    }
    gst_ctf_pb_end (pb);
  }
  gst_ctf_pb_end (pb);
}

static void
note_tasks (GstCtfPerfettoWriter * w, const PfClassInfo * ci,
    const GstCtfFieldValue * v, guint n)
{
  guint i;

  for (i = 0; i < 2; i++) {
    const GstCtfFieldValue *tid, *tgid, *comm;
    const gchar *s;
    gsize len;

    if (ci->task[i][0] < 0 || ci->task[i][2] < 0)
      continue;
    tid = gst_ctf_pf_member (v, n, ci->task[i][0]);
    tgid = ci->task[i][1] >= 0 && ci->task[i][1] != ci->task[i][0] ?
        gst_ctf_pf_member (v, n, ci->task[i][1]) : NULL;
    comm = gst_ctf_pf_member (v, n, ci->task[i][2]);
    if (is_int (tid) && text_of (v, comm, &s, &len))
      gst_ctf_pf_note_task (w, int_of (tid), is_int (tgid) ? int_of (tgid) :
          -1, s, len);
  }
}

/* ------------------------------------------------------------------ */
/* CompactSched (perfetto_trace.proto FtraceEventBundle.CompactSched): the
 * sched_switch and sched_waking events of a bundle as packed arrays with
 * delta-encoded times and interned comms, about 10 bytes an event.  It
 * leaves out what Perfetto takes from the CPU's previous switch (the
 * switch's prev_* and the task of both events), so an event goes there
 * only when that is exactly what it recorded; else it is a typed event. */

#define N_COMPACT_ARRAYS 11

static GArray **
compact_arrays (PfCompact * c)
{
  return &c->sw_ts;
}

void
gst_ctf_pf_compact_init (PfCompact * c)
{
  GArray **a = compact_arrays (c);
  guint i;

  for (i = 0; i < N_COMPACT_ARRAYS; i++)
    a[i] = g_array_new (FALSE, FALSE, sizeof (gint64));
  c->comm_index = g_hash_table_new (g_str_hash, g_str_equal);
  c->comms = g_ptr_array_new_with_free_func (g_free);
}

void
gst_ctf_pf_compact_clear (PfCompact * c)
{
  GArray **a = compact_arrays (c);
  guint i;

  for (i = 0; i < N_COMPACT_ARRAYS; i++)
    g_array_unref (a[i]);
  g_hash_table_unref (c->comm_index);
  g_ptr_array_unref (c->comms);
}

static void
compact_reset (PfCompact * c)
{
  GArray **a = compact_arrays (c);
  guint i;

  for (i = 0; i < N_COMPACT_ARRAYS; i++)
    g_array_set_size (a[i], 0);
  g_hash_table_remove_all (c->comm_index);
  g_ptr_array_set_size (c->comms, 0);
}

static gint64
compact_comm (PfCompact * c, const gchar * s, gsize len)
{
  gchar *key = g_strndup (s, len);
  gpointer idx = g_hash_table_lookup (c->comm_index, key);

  if (idx) {
    g_free (key);
    return GPOINTER_TO_INT (idx) - 1;
  }
  g_ptr_array_add (c->comms, key);
  g_hash_table_insert (c->comm_index, key, GINT_TO_POINTER (c->comms->len));
  return c->comms->len - 1;
}

static void
push (GArray * a, gint64 v)
{
  g_array_append_val (a, v);
}

static gint64
last_of (GArray * a)
{
  return a->len ? g_array_index (a, gint64, a->len - 1) : 0;
}

static void
packed (GstCtfPb * pb, guint field, GArray * a, gboolean delta)
{
  gint64 prev = 0;
  guint i;

  if (a->len == 0)
    return;
  gst_ctf_pb_begin (pb, field);
  for (i = 0; i < a->len; i++) {
    gint64 v = g_array_index (a, gint64, i);

    gst_ctf_pb_varint_raw (pb, (guint64) (delta ? v - prev : v));
    prev = v;
  }
  gst_ctf_pb_end (pb);
}

static void
write_compact (PfCompact * c, GstCtfPb * pb)
{
  guint i;

  if (c->sw_ts->len == 0 && c->wk_ts->len == 0)
    return;
  gst_ctf_pb_begin (pb, 4);     /* FtraceEventBundle.compact_sched */
  for (i = 0; i < c->comms->len; i++)
    gst_ctf_pb_string (pb, 5, g_ptr_array_index (c->comms, i));
  packed (pb, 1, c->sw_ts, TRUE);
  packed (pb, 2, c->sw_state, FALSE);
  packed (pb, 3, c->sw_pid, FALSE);
  packed (pb, 4, c->sw_prio, FALSE);
  packed (pb, 6, c->sw_comm, FALSE);
  packed (pb, 7, c->wk_ts, TRUE);
  packed (pb, 8, c->wk_pid, FALSE);
  packed (pb, 9, c->wk_cpu, FALSE);
  packed (pb, 10, c->wk_prio, FALSE);
  packed (pb, 11, c->wk_comm, FALSE);
  packed (pb, 12, c->wk_flags, FALSE);
  gst_ctf_pb_end (pb);
}

static gboolean
same_text (const gchar * a, const gchar * s, gsize len)
{
  return strlen (a) == len && memcmp (a, s, len) == 0;
}

/* sched_switch (typed[0]) into the compact arrays when its prev_* are the
 * CPU's previous next_* and its task is prev_pid. */
static gboolean
compact_switch (GstCtfPerfettoWriter * w, PfStream * st,
    const PfClassInfo * ci, const GstCtfFieldValue * v, guint n, gint64 ns,
    gint64 pid)
{
  PfCompact *c = &w->compact;
  const GstCtfFieldValue *m[7];
  const gchar *pc, *nc;
  gsize pl, nl;
  guint j;

  for (j = 0; j < 7; j++)
    if (ci->member[j] < 0 ||
        !(m[j] = gst_ctf_pf_member (v, n, ci->member[j])))
      return FALSE;
  if (!is_int (m[1]) || !is_int (m[2]) || !is_int (m[3]) || !is_int (m[5]) ||
      !is_int (m[6]) || !text_of (v, m[0], &pc, &pl) ||
      !text_of (v, m[4], &nc, &nl))
    return FALSE;
  if (st->current_tid < 0 || int_of (m[1]) != st->current_tid ||
      pid != st->current_tid || int_of (m[2]) != st->current_prio ||
      !same_text (st->current_comm, pc, pl) || ns < last_of (c->sw_ts))
    return FALSE;
  push (c->sw_ts, ns);
  push (c->sw_state, int_of (m[3]));
  push (c->sw_pid, int_of (m[5]));
  push (c->sw_prio, int_of (m[6]) + (w->lttng_prio ? 100 : 0));
  push (c->sw_comm, compact_comm (c, nc, nl));
  return TRUE;
}

/* sched_waking (typed[1]) into the compact arrays when it was recorded by
 * the task running on the CPU and has no `success` (kernels >= 4.3). */
static gboolean
compact_waking (GstCtfPerfettoWriter * w, PfStream * st,
    const PfClassInfo * ci, const GstCtfFieldValue * v, guint n, gint64 ns,
    gint64 pid, gint64 flags)
{
  PfCompact *c = &w->compact;
  const GstCtfFieldValue *comm, *tid, *prio, *cpu;
  const gchar *s;
  gsize len;

  if (ci->member[3] >= 0 || ci->member[0] < 0 || ci->member[1] < 0 ||
      ci->member[2] < 0 || ci->member[4] < 0)
    return FALSE;
  comm = gst_ctf_pf_member (v, n, ci->member[0]);
  tid = gst_ctf_pf_member (v, n, ci->member[1]);
  prio = gst_ctf_pf_member (v, n, ci->member[2]);
  cpu = gst_ctf_pf_member (v, n, ci->member[4]);
  if (!is_int (tid) || !is_int (prio) || !is_int (cpu) ||
      !text_of (v, comm, &s, &len) || st->current_tid < 0 ||
      pid != st->current_tid || ns < last_of (c->wk_ts))
    return FALSE;
  push (c->wk_ts, ns);
  push (c->wk_pid, int_of (tid));
  push (c->wk_cpu, int_of (cpu));
  push (c->wk_prio, int_of (prio) + (w->lttng_prio ? 100 : 0));
  push (c->wk_comm, compact_comm (c, s, len));
  push (c->wk_flags, flags);
  return TRUE;
}

/* Remembers the task a switch runs, to tell whether the next switch on
 * the CPU needs its prev_* written. */
static void
after_switch (PfStream * st, const PfClassInfo * ci,
    const GstCtfFieldValue * v, guint n)
{
  const GstCtfFieldValue *next = ci->member[5] >= 0 ?
      gst_ctf_pf_member (v, n, ci->member[5]) : NULL;
  const GstCtfFieldValue *prio = ci->member[6] >= 0 ?
      gst_ctf_pf_member (v, n, ci->member[6]) : NULL;
  const GstCtfFieldValue *comm = ci->member[4] >= 0 ?
      gst_ctf_pf_member (v, n, ci->member[4]) : NULL;
  const gchar *s;
  gsize len;

  st->current_tid = is_int (next) ? int_of (next) : -1;
  st->current_prio = is_int (prio) ? int_of (prio) : G_MININT64;
  if (text_of (v, comm, &s, &len) && len < sizeof (st->current_comm)) {
    memcpy (st->current_comm, s, len);
    st->current_comm[len] = '\0';
  } else {
    st->current_tid = -1;       /* nothing to compare the next one with */
  }
}

/* The events of the current packet of @st; @pb NULL: the side stream
 * (only its saved cmdlines are read). */
void
gst_ctf_pf_ftrace_packet (GstCtfPerfettoWriter * w, PfStream * st,
    GstCtfPb * pb, gboolean lost, GError ** error)
{
  const GstCtfClockClass *cc = st->sc ? st->sc->default_clock : NULL;
  guint start = pb ? pb->out->len : 0, count = 0;

  if (pb) {
    compact_reset (&w->compact);
    gst_ctf_pf_packet_begin (pb, w, -1);
    gst_ctf_pb_begin (pb, PF_TP_FTRACE_EVENTS);
    gst_ctf_pb_uint (pb, PF_BUNDLE_CPU, st->cpu >= 0 ? (guint64) st->cpu : 0);
  }
  while (gst_ctf_event_iter_next (w->it, error)) {
    const GstCtfEventClass *ec = gst_ctf_event_iter_get_event_class (w->it);
    PfClassInfo *ci;
    const GstCtfFieldValue *v, *pv;
    guint n = 0, pn = 0;
    gint64 ns, pid = st->current_tid, flags = 0;

    if (ec != st->last_ec) {
      st->last_ci = class_info (w, ec);
      st->last_ec = ec;
    }
    ci = st->last_ci;
    v = gst_ctf_event_iter_get_values (w->it, GST_CTF_SCOPE_EVENT_PAYLOAD, &n);
    note_tasks (w, ci, v, n);
    if (pb == NULL)
      continue;
    if (!cc || !gst_ctf_clock_class_cycles_to_ns_from_origin (cc,
            gst_ctf_event_iter_get_clock_value (w->it), &ns))
      ns = (gint64) gst_ctf_event_iter_get_clock_value (w->it);
    w->last_ns = ns;
    if (ci->pid.scope >= 0) {
      pv = gst_ctf_event_iter_get_values (w->it, ci->pid.scope, &pn);
      pv = gst_ctf_pf_member (pv, pn, ci->pid.ordinal);
      if (is_int (pv))
        pid = int_of (pv);
    }
    if (ci->flags.scope >= 0) {
      pv = gst_ctf_event_iter_get_values (w->it, ci->flags.scope, &pn);
      pv = gst_ctf_pf_member (pv, pn, ci->flags.ordinal);
      if (is_int (pv))
        flags = int_of (pv);
    }
    if (ci->typed == &typed[0] && compact_switch (w, st, ci, v, n, ns, pid)) {
      after_switch (st, ci, v, n);
    } else if (ci->typed == &typed[1] && compact_waking (w, st, ci, v, n, ns,
            pid, flags)) {
      /* in the compact arrays */
    } else {
      gst_ctf_pb_begin (pb, PF_BUNDLE_EVENT);
      gst_ctf_pb_uint (pb, PF_FE_TIMESTAMP, gst_ctf_pf_ns (ns));
      if (pid >= 0)
        gst_ctf_pb_uint (pb, PF_FE_PID, (guint64) pid);
      if (ci->typed)
        write_typed (w, ci, v, n, pb);
      else
        write_generic (w, ec, v, n, pb);
      gst_ctf_pb_end (pb);
      if (ci->typed == &typed[0])
        after_switch (st, ci, v, n);
    }
    w->events++;
    count++;
  }
  if (pb == NULL)
    return;
  if (count == 0 && !lost) {
    /* nothing to say: no empty bundle */
    g_byte_array_set_size (pb->out, start);
    pb->depth -= 2;
    return;
  }
  write_compact (&w->compact, pb);
  if (lost)
    gst_ctf_pb_bool (pb, PF_BUNDLE_LOST_EVENTS, TRUE);
  gst_ctf_pb_end (pb);
  gst_ctf_pf_packet_end (pb);
}
