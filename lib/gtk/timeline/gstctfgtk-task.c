/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * GstCtfGtkTask:
 *
 * A task (a thread: the kernel schedules threads) of a kernel trace as
 * its `sched_switch` events show it: its thread id, its command name and
 * how long it ran.  gst_ctf_gtk_timeline_list_tasks() gives one per task
 * the trace's switches name, to choose the timeline's rows from (as
 * KernelShark's task plots dialog does).  Immutable.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfgtk-task.h"

struct _GstCtfGtkTask {
  GObject parent;

  gint tid;
  gchar *comm;
  guint64 run_time_ns;
  guint n_runs;
};

G_DEFINE_FINAL_TYPE (GstCtfGtkTask, gst_ctf_gtk_task, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TID,
  PROP_COMM,
  PROP_RUN_TIME_NS,
  PROP_N_RUNS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
gst_ctf_gtk_task_init (GstCtfGtkTask * self)
{
}

static void
gst_ctf_gtk_task_finalize (GObject * object)
{
  g_free (GST_CTF_GTK_TASK (object)->comm);
  G_OBJECT_CLASS (gst_ctf_gtk_task_parent_class)->finalize (object);
}

static void
gst_ctf_gtk_task_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfGtkTask *self = GST_CTF_GTK_TASK (object);

  switch (prop_id) {
    case PROP_TID:
      g_value_set_int (value, self->tid);
      break;
    case PROP_COMM:
      g_value_set_string (value, self->comm);
      break;
    case PROP_RUN_TIME_NS:
      g_value_set_uint64 (value, self->run_time_ns);
      break;
    case PROP_N_RUNS:
      g_value_set_uint (value, self->n_runs);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_gtk_task_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfGtkTask *self = GST_CTF_GTK_TASK (object);

  switch (prop_id) {
    case PROP_TID:
      self->tid = g_value_get_int (value);
      break;
    case PROP_COMM:
      self->comm = g_value_dup_string (value);
      break;
    case PROP_RUN_TIME_NS:
      self->run_time_ns = g_value_get_uint64 (value);
      break;
    case PROP_N_RUNS:
      self->n_runs = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_gtk_task_class_init (GstCtfGtkTaskClass * klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  const GParamFlags f = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
      G_PARAM_STATIC_STRINGS;

  oc->finalize = gst_ctf_gtk_task_finalize;
  oc->get_property = gst_ctf_gtk_task_get_property;
  oc->set_property = gst_ctf_gtk_task_set_property;

  /**
   * GstCtfGtkTask:tid:
   *
   * The thread id (`next_pid` / `prev_pid` of `sched_switch`).
   */
  props[PROP_TID] = g_param_spec_int ("tid", NULL, NULL, G_MININT,
      G_MAXINT, 0, f);
  /**
   * GstCtfGtkTask:comm:
   *
   * The command name, the last one a switch gave the thread (`next_comm`
   * / `prev_comm`), at most 15 bytes on Linux.
   */
  props[PROP_COMM] = g_param_spec_string ("comm", NULL, NULL, "", f);
  /**
   * GstCtfGtkTask:run-time-ns:
   *
   * How long the task ran, in ns: the sum, over the CPUs, of the times
   * from a switch to it to the next switch on that CPU, within the
   * trace's first and last events (a task running when the trace begins
   * or ends counts from the first event or to the last).
   */
  props[PROP_RUN_TIME_NS] = g_param_spec_uint64 ("run-time-ns", NULL, NULL,
      0, G_MAXUINT64, 0, f);
  /**
   * GstCtfGtkTask:n-runs:
   *
   * How many times it ran: the switches to it (and one for a run the
   * trace begins in).
   */
  props[PROP_N_RUNS] = g_param_spec_uint ("n-runs", NULL, NULL, 0,
      G_MAXUINT, 0, f);
  g_object_class_install_properties (oc, N_PROPS, props);
}

/**
 * gst_ctf_gtk_task_new:
 * @tid: the thread id
 * @comm: (nullable): the command name (%NULL: empty)
 * @run_time_ns: how long it ran, in ns
 * @n_runs: how many times it ran
 *
 * Returns: (transfer full): a new task
 */
GstCtfGtkTask *
gst_ctf_gtk_task_new (gint tid, const gchar * comm, guint64 run_time_ns,
    guint n_runs)
{
  return g_object_new (GST_CTF_GTK_TYPE_TASK, "tid", tid, "comm",
      comm ? comm : "", "run-time-ns", run_time_ns, "n-runs", n_runs, NULL);
}

/**
 * gst_ctf_gtk_task_get_tid:
 * @task: a task
 *
 * Returns: #GstCtfGtkTask:tid
 */
gint
gst_ctf_gtk_task_get_tid (GstCtfGtkTask * task)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_TASK (task), -1);
  return task->tid;
}

/**
 * gst_ctf_gtk_task_get_comm:
 * @task: a task
 *
 * Returns: (transfer none): #GstCtfGtkTask:comm
 */
const gchar *
gst_ctf_gtk_task_get_comm (GstCtfGtkTask * task)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_TASK (task), NULL);
  return task->comm;
}

/**
 * gst_ctf_gtk_task_get_run_time_ns:
 * @task: a task
 *
 * Returns: #GstCtfGtkTask:run-time-ns, in ns
 */
guint64
gst_ctf_gtk_task_get_run_time_ns (GstCtfGtkTask * task)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_TASK (task), 0);
  return task->run_time_ns;
}

/**
 * gst_ctf_gtk_task_get_n_runs:
 * @task: a task
 *
 * Returns: #GstCtfGtkTask:n-runs
 */
guint
gst_ctf_gtk_task_get_n_runs (GstCtfGtkTask * task)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_TASK (task), 0);
  return task->n_runs;
}
