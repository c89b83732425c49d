/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the parts of the Perfetto writer share (gstctf-perfetto.h). */
#pragma once

#include "gstctf-perfetto.h"
#include "gstctf-protobuf.h"
#include "gstctf-reader.h"
#include "gstctf-event-merge.h"

G_BEGIN_DECLS

/* perfetto_trace.proto field numbers used by more than one file. */
#define PF_TRACE_PACKET 1       /* Trace.packet */
#define PF_TP_TIMESTAMP 8       /* TracePacket.timestamp */
#define PF_TP_FTRACE_EVENTS 1
#define PF_TP_PROCESS_TREE 2
#define PF_TP_CLOCK_SNAPSHOT 6
#define PF_TP_SEQ_ID 10         /* trusted_packet_sequence_id */
#define PF_TP_TRACK_EVENT 11
#define PF_TP_INTERNED_DATA 12
#define PF_TP_SEQ_FLAGS 13
#define PF_TP_SYSTEM_INFO 45
#define PF_TP_TRACK_DESCRIPTOR 60
#define PF_SEQ_INCREMENTAL_STATE_CLEARED 1
#define PF_SEQ_NEEDS_INCREMENTAL_STATE 2

/* Every packet of this writer is on one sequence. */
#define PF_SEQUENCE_ID 1

typedef struct {
  const GstCtfStreamClass *sc;
  guint64 stream_class_id;
  guint64 instance;             /* G_MAXUINT64: none */
  gint64 cpu;                   /* -1: no cpu_id */
  gint domain;                  /* 0: not known yet, 1: user space, 2: kernel */
  gboolean lttng_prio;          /* lttng-modules: prio fields are prio - 100 */
  guint64 clock;                /* last clock value (packets without begin) */
  GstCtfDiscardTracker tracker;
  guint64 track_uuid;           /* stream track (user space, discards) */
  const GstCtfEventClass *last_ec;      /* the last event's class */
  struct _PfClassInfo *last_ci;         /* and what it becomes */
  gint64 last_pid, last_tid;    /* user space: the last event's thread */
  guint64 last_thread_uuid;     /* and its track (0: none yet) */
  gint64 current_tid;           /* kernel: next_tid of the last sched_switch */
  gint64 current_prio;          /* its next_prio (as recorded) */
  gchar current_comm[32];       /* its next_comm */
} PfStream;

/* One bundle's `FtraceEventBundle.CompactSched` being built. */
typedef struct {
  GArray *sw_ts, *sw_state, *sw_pid, *sw_prio, *sw_comm;       /* gint64 */
  GArray *wk_ts, *wk_pid, *wk_cpu, *wk_prio, *wk_comm, *wk_flags;
  GHashTable *comm_index;       /* comm -> index + 1 */
  GPtrArray *comms;             /* (owned) intern_table */
} PfCompact;

/* What an event class becomes, worked out once (per trace class). */
typedef struct {
  gint scope;                   /* where the task id is: -1 none */
  gint ordinal;                 /* its member index in that scope's root */
} PfFieldRef;

typedef struct _PfClassInfo {
  const void *typed;            /* kernel: PfTyped (gstctf-perfetto-ftrace.c) */
  gint8 member[8];              /* per typed field: payload ordinal, -1 */
  gint8 task[2][3];             /* tid, tgid, comm payload ordinals, -1 */
  gboolean task_tgid_distinct;  /* tgid member is not the tid one */
  PfFieldRef pid;               /* kernel: the task the event is of */
  PfFieldRef flags;             /* kernel: trace.dat's common_flags */
  gint slice;                   /* user space: 0 instant, 1 begin, 2 end */
  guint64 name_iid;             /* user space: interned name */
  gint vpid, vtid, procname;    /* user space: ordinals in common ctx, -1 */
  gint vpid_scope, vtid_scope, procname_scope;
  gboolean cmdline;             /* side stream `tracecmd_cmdline` */
  GArray *anno[3];              /* user space: interned names (guint64) of
                                 * the common context, specific context and
                                 * payload members, by ordinal */
} PfClassInfo;

void gst_ctf_pf_class_info_free (gpointer p);

struct _GstCtfPerfettoWriter {
  GstCtfTraceClass *tc;
  const GstCtfStreamClass *side_sc;
  GstCtfEventIter *it;
  gboolean kernel;              /* the current packet's stream is a kernel one */
  gboolean lttng_prio;          /* and lttng-modules': prio - 100 */
  gboolean force_kernel;        /* every stream is (fuzz-perfetto) */
  gboolean strip_underscore;    /* TSDL: one leading `_` is not the name */

  GArray *streams;              /* PfStream */
  GHashTable *classes;          /* const GstCtfEventClass * -> PfClassInfo */

  /* Names: tid -> ProcTask (process tree), sent once per change. */
  GHashTable *tasks;
  GPtrArray *pending_tasks;     /* ProcTask * to send */

  /* Interning (user space): string -> iid. */
  GHashTable *event_names;
  GHashTable *annotation_names;
  GPtrArray *new_event_names;   /* (transfer none) keys of event_names */
  GPtrArray *new_annotation_names;
  GHashTable *threads;          /* PfThreadKey -> track uuid */
  GHashTable *processes;        /* pid -> track uuid */
  guint64 next_uuid;
  guint64 note_track;

  gboolean started;             /* clock snapshot, system info written */
  gboolean sequence_started;    /* first packet on the sequence sent */
  gint64 last_ns;
  guint64 events;

  PfCompact compact;
};

typedef struct {
  gint tid;
  gint tgid;                    /* -1: unknown (then the tid) */
  gchar *name;
} ProcTask;

/* gstctf-perfetto.c */
const GstCtfFieldValue *gst_ctf_pf_member (const GstCtfFieldValue * v,
    guint n, guint ordinal);
gchar *gst_ctf_pf_value_text (const GstCtfFieldValue * v, guint i);
const gchar *gst_ctf_pf_display_name (GstCtfPerfettoWriter * w,
    const gchar * name);
void gst_ctf_pf_note_task (GstCtfPerfettoWriter * w, gint64 tid,
    gint64 tgid, const gchar * name, gsize len);
void gst_ctf_pf_packet_begin (GstCtfPb * pb, GstCtfPerfettoWriter * w,
    gint64 ns);
void gst_ctf_pf_packet_end (GstCtfPb * pb);
guint64 gst_ctf_pf_ns (gint64 ns);

/* gstctf-perfetto-ftrace.c */
void gst_ctf_pf_compact_init (PfCompact * c);
void gst_ctf_pf_compact_clear (PfCompact * c);
void gst_ctf_pf_ftrace_packet (GstCtfPerfettoWriter * w, PfStream * st,
    GstCtfPb * pb, gboolean lost, GError ** error);

/* gstctf-perfetto-track.c */
typedef struct {
  gint64 pid, tid;
} PfThreadKey;
guint gst_ctf_pf_thread_key_hash (gconstpointer p);
gboolean gst_ctf_pf_thread_key_equal (gconstpointer a, gconstpointer b);
void gst_ctf_pf_track_packet (GstCtfPerfettoWriter * w, PfStream * st,
    GstCtfPb * pb, GError ** error);
void gst_ctf_pf_instant (GstCtfPerfettoWriter * w, GstCtfPb * pb,
    guint64 track_uuid, gint64 ns, const gchar * name);
guint64 gst_ctf_pf_global_track (GstCtfPerfettoWriter * w, GstCtfPb * pb,
    const gchar * name);

G_END_DECLS
