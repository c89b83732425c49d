/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Perfetto writer's packet loop: routes each CTF packet to the ftrace
 * (kernel) or track event (user space) mapping, and writes what Perfetto
 * needs besides events: the clock snapshot, the system info and the
 * process tree (perfetto_trace.proto `ClockSnapshot`, `SystemInfo`,
 * `ProcessTree`), and discarded events and packets as instant events.
 */
#include <string.h>

#include "gstctf-perfetto-private.h"
#include "gstctf-trace-merge.h"

/* ClockSnapshot.Clock.BuiltinClocks */
#define PF_CLOCK_REALTIME 1
#define PF_CLOCK_BOOTTIME 6

void
gst_ctf_pf_class_info_free (gpointer p)
{
  PfClassInfo *ci = p;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (ci->anno); i++)
    if (ci->anno[i])
      g_array_unref (ci->anno[i]);
  g_free (ci);
}

GstCtfPerfettoWriter *
gst_ctf_perfetto_writer_new (void)
{
  GstCtfPerfettoWriter *w = g_new0 (GstCtfPerfettoWriter, 1);

  w->streams = g_array_new (FALSE, TRUE, sizeof (PfStream));
  w->classes = g_hash_table_new_full (NULL, NULL, NULL,
      gst_ctf_pf_class_info_free);
  w->tasks = g_hash_table_new (NULL, NULL);
  w->pending_tasks = g_ptr_array_new ();
  w->event_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  w->annotation_names = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  w->new_event_names = g_ptr_array_new ();
  w->new_annotation_names = g_ptr_array_new ();
  w->threads = g_hash_table_new (gst_ctf_pf_thread_key_hash,
      gst_ctf_pf_thread_key_equal);
  w->processes = g_hash_table_new (NULL, NULL);
  w->next_uuid = 1;
  gst_ctf_pf_compact_init (&w->compact);
  return w;
}

static void
task_free (gpointer p)
{
  ProcTask *t = p;

  g_free (t->name);
  g_free (t);
}

void
gst_ctf_perfetto_writer_free (GstCtfPerfettoWriter * w)
{
  GHashTableIter hi;
  gpointer k, v;

  if (w == NULL)
    return;
  g_clear_pointer (&w->it, gst_ctf_event_iter_free);
  g_clear_pointer (&w->tc, gst_ctf_trace_class_unref);
  g_array_unref (w->streams);
  g_hash_table_unref (w->classes);
  g_hash_table_iter_init (&hi, w->tasks);
  while (g_hash_table_iter_next (&hi, NULL, &v))
    task_free (v);
  g_hash_table_unref (w->tasks);
  g_ptr_array_unref (w->pending_tasks);
  g_hash_table_unref (w->event_names);
  g_hash_table_unref (w->annotation_names);
  g_ptr_array_unref (w->new_event_names);
  g_ptr_array_unref (w->new_annotation_names);
  g_hash_table_iter_init (&hi, w->threads);
  while (g_hash_table_iter_next (&hi, &k, NULL))
    g_free (k);
  g_hash_table_unref (w->threads);
  g_hash_table_unref (w->processes);
  gst_ctf_pf_compact_clear (&w->compact);
  g_free (w);
}

/* The env entry @name of the trace of stream class @scid (the input's
 * own in a merged trace class). */
static const gchar *
env_string (const GstCtfTraceClass * tc, guint64 scid, const gchar * name)
{
  const GstCtfEnvEntry *e = gst_ctf_trace_merge_find_env (tc, scid, name);

  return e && e->is_string ? e->str : NULL;
}

static gboolean
env_integer (const GstCtfTraceClass * tc, guint64 scid, const gchar * name,
    gint64 * v)
{
  const GstCtfEnvEntry *e = gst_ctf_trace_merge_find_env (tc, scid, name);

  if (e == NULL || e->is_string)
    return FALSE;
  *v = e->integer;
  return TRUE;
}

void
gst_ctf_perfetto_writer_set_trace_class (GstCtfPerfettoWriter * w,
    GstCtfTraceClass * tc, const GstCtfStreamClass * side_sc)
{
  guint i;

  /* Cached class infos and stream class pointers belong to the old one. */
  g_hash_table_remove_all (w->classes);
  for (i = 0; i < w->streams->len; i++) {
    g_array_index (w->streams, PfStream, i).sc = NULL;
    g_array_index (w->streams, PfStream, i).domain = 0;
    g_array_index (w->streams, PfStream, i).last_ec = NULL;
  }
  g_clear_pointer (&w->it, gst_ctf_event_iter_free);
  g_clear_pointer (&w->tc, gst_ctf_trace_class_unref);
  w->tc = gst_ctf_trace_class_ref (tc);
  w->side_sc = side_sc;
  w->it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (w->it, TRUE);
  w->strip_underscore = tc->from_tsdl;
}

guint64
gst_ctf_perfetto_writer_get_events (GstCtfPerfettoWriter * w)
{
  return w->events;
}

/* ------------------------------------------------------------------ */
/* Helpers of the mapping files */

guint64
gst_ctf_pf_ns (gint64 ns)
{
  return ns < 0 ? 0 : (guint64) ns;
}

/* The @ordinal-th member of the root struct of scope values @v. */
const GstCtfFieldValue *
gst_ctf_pf_member (const GstCtfFieldValue * v, guint n, guint ordinal)
{
  guint i, k = 0;

  if (v == NULL || n == 0 || v[0].fc == NULL ||
      v[0].fc->type != GST_CTF_FIELD_CLASS_STRUCT)
    return NULL;
  for (i = 1; i < n && i < v[0].end && v[i].end > i; i = v[i].end, k++)
    if (k == ordinal)
      return &v[i];
  return NULL;
}

/* CTF 1.8 §4.2.2: readers show TSDL names without one leading `_`. */
const gchar *
gst_ctf_pf_display_name (GstCtfPerfettoWriter * w, const gchar * name)
{
  if (name && w->strip_underscore && name[0] == '_' && name[1])
    return name + 1;
  return name ? name : "";
}

static void
append_text (GString * s, const GstCtfFieldValue * v, guint i)
{
  const GstCtfFieldValue *x = &v[i];
  const GstCtfFieldClass *fc = x->fc;
  guint j;

  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (fc->integer.is_signed)
        g_string_append_printf (s, "%" G_GINT64_FORMAT, x->v.i);
      else if (fc->integer.base == 16)
        g_string_append_printf (s, "0x%" G_GINT64_MODIFIER "x", x->v.u);
      else
        g_string_append_printf (s, "%" G_GUINT64_FORMAT, x->v.u);
      break;
    case GST_CTF_FIELD_CLASS_FLOAT:
      g_string_append_printf (s, "%.17g", x->v.d);
      break;
    case GST_CTF_FIELD_CLASS_STRING:
      g_string_append_len (s, x->v.s.ptr, x->v.s.len);
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      if (x->end == i + 1 && x->v.s.ptr) {
        const gchar *nul = memchr (x->v.s.ptr, 0, x->v.s.len);

        g_string_append_len (s, x->v.s.ptr, nul ? nul - x->v.s.ptr :
            (gssize) x->v.s.len);
        break;
      }
      g_string_append_c (s, '[');
      for (j = i + 1; j < x->end; j = v[j].end) {
        if (j > i + 1)
          g_string_append (s, ", ");
        append_text (s, v, j);
      }
      g_string_append_c (s, ']');
      break;
    case GST_CTF_FIELD_CLASS_STRUCT:
      g_string_append_c (s, '{');
      for (j = i + 1; j < x->end; j = v[j].end) {
        if (j > i + 1)
          g_string_append (s, ", ");
        g_string_append_printf (s, "%s = ", v[j].name ? v[j].name : "");
        append_text (s, v, j);
      }
      g_string_append_c (s, '}');
      break;
    case GST_CTF_FIELD_CLASS_VARIANT:
      if (x->end > i + 1)
        append_text (s, v, i + 1);
      break;
  }
}

/* A value as text: strings and text arrays as they are (to their first
 * NUL), numbers in their display base, compounds as `[a, b]` and
 * `{name = v, ...}`.  Free with g_free(). */
gchar *
gst_ctf_pf_value_text (const GstCtfFieldValue * v, guint i)
{
  GString *s = g_string_new (NULL);

  append_text (s, v, i);
  return g_string_free (s, FALSE);
}

/* A task name seen in the trace: queued for the next ProcessTree when it
 * is new or changed.  @len: bytes of @name (cut at a NUL). */
void
gst_ctf_pf_note_task (GstCtfPerfettoWriter * w, gint64 tid, gint64 tgid,
    const gchar * name, gsize len)
{
  const gchar *nul;
  ProcTask *t;

  if (tid < 0 || tid > G_MAXINT32 || name == NULL)
    return;
  nul = memchr (name, 0, len);
  if (nul)
    len = nul - name;
  if (len == 0)
    return;
  t = g_hash_table_lookup (w->tasks, GINT_TO_POINTER ((gint) tid));
  if (t && strlen (t->name) == len && memcmp (t->name, name, len) == 0 &&
      (tgid < 0 || t->tgid == tgid))
    return;
  if (t == NULL) {
    t = g_new0 (ProcTask, 1);
    t->tid = (gint) tid;
    t->tgid = -1;
    g_hash_table_insert (w->tasks, GINT_TO_POINTER ((gint) tid), t);
  }
  g_free (t->name);
  t->name = g_strndup (name, len);
  if (tgid >= 0 && tgid <= G_MAXINT32)
    t->tgid = (gint) tgid;
  if (!g_ptr_array_find (w->pending_tasks, t, NULL))
    g_ptr_array_add (w->pending_tasks, t);
}

/* Opens a TracePacket on the writer's sequence.  @ns < 0: no timestamp. */
void
gst_ctf_pf_packet_begin (GstCtfPb * pb, GstCtfPerfettoWriter * w, gint64 ns)
{
  gst_ctf_pb_begin (pb, PF_TRACE_PACKET);
  if (ns >= 0)
    gst_ctf_pb_uint (pb, PF_TP_TIMESTAMP, (guint64) ns);
  gst_ctf_pb_uint (pb, PF_TP_SEQ_ID, PF_SEQUENCE_ID);
  if (!w->sequence_started) {
    gst_ctf_pb_uint (pb, PF_TP_SEQ_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED |
        PF_SEQ_NEEDS_INCREMENTAL_STATE);
    w->sequence_started = TRUE;
  } else {
    gst_ctf_pb_uint (pb, PF_TP_SEQ_FLAGS, PF_SEQ_NEEDS_INCREMENTAL_STATE);
  }
}

void
gst_ctf_pf_packet_end (GstCtfPb * pb)
{
  gst_ctf_pb_end (pb);
}

/* ------------------------------------------------------------------ */

static void
write_process_tree (GstCtfPerfettoWriter * w, GstCtfPb * pb, gint64 ns)
{
  guint i;

  if (w->pending_tasks->len == 0)
    return;
  gst_ctf_pf_packet_begin (pb, w, ns);
  gst_ctf_pb_begin (pb, PF_TP_PROCESS_TREE);
  for (i = 0; i < w->pending_tasks->len; i++) {
    const ProcTask *t = g_ptr_array_index (w->pending_tasks, i);
    gint tgid = t->tgid >= 0 ? t->tgid : t->tid;

    /* ProcessTree.Thread: tid 1, name 2, tgid 3 */
    gst_ctf_pb_begin (pb, 2);
    gst_ctf_pb_int (pb, 1, t->tid);
    gst_ctf_pb_string (pb, 2, t->name);
    gst_ctf_pb_int (pb, 3, tgid);
    gst_ctf_pb_end (pb);
    if (tgid == t->tid) {
      /* ProcessTree.Process: pid 1, cmdline 3, cmdline_is_comm 9 */
      gst_ctf_pb_begin (pb, 1);
      gst_ctf_pb_int (pb, 1, t->tid);
      gst_ctf_pb_string (pb, 3, t->name);
      gst_ctf_pb_bool (pb, 9, TRUE);
      gst_ctf_pb_end (pb);
    }
  }
  gst_ctf_pb_end (pb);
  gst_ctf_pf_packet_end (pb);
  g_ptr_array_set_size (w->pending_tasks, 0);
}

/* SystemInfo from the env: trace.dat's `uname` (`uname -s -n -r -m`),
 * LTTng's `sysname`, `kernel_release`, `kernel_version`. */
static void
write_system_info (GstCtfPerfettoWriter * w, GstCtfPb * pb, guint64 scid)
{
  const gchar *uname = env_string (w->tc, scid, "uname");
  const gchar *sysname = env_string (w->tc, scid, "sysname");
  const gchar *release = env_string (w->tc, scid, "kernel_release");
  const gchar *version = env_string (w->tc, scid, "kernel_version");
  gchar **words = NULL;
  const gchar *machine = NULL;
  gint64 cpus = 0, page = 0;

  if (uname) {
    words = g_strsplit (uname, " ", 5);
    if (words[0] && !sysname)
      sysname = words[0];
    if (words[0] && words[1] && words[2] && !release)
      release = words[2];
    if (words[0] && words[1] && words[2] && words[3])
      machine = words[3];
  }
  if (!sysname && !release && !machine)
    goto done;
  gst_ctf_pf_packet_begin (pb, w, -1);
  gst_ctf_pb_begin (pb, PF_TP_SYSTEM_INFO);
  /* Utsname: sysname 1, version 2, release 3, machine 4 */
  gst_ctf_pb_begin (pb, 1);
  if (sysname)
    gst_ctf_pb_string (pb, 1, sysname);
  if (version && *version)
    gst_ctf_pb_string (pb, 2, version);
  if (release)
    gst_ctf_pb_string (pb, 3, release);
  if (machine)
    gst_ctf_pb_string (pb, 4, machine);
  gst_ctf_pb_end (pb);
  if (env_integer (w->tc, scid, "page_size", &page) && page > 0 && page < G_MAXINT32)
    gst_ctf_pb_uint (pb, 6, (guint64) page);
  if (env_integer (w->tc, scid, "cpus", &cpus) && cpus > 0 && cpus < G_MAXINT32)
    gst_ctf_pb_uint (pb, 8, (guint64) cpus);
  gst_ctf_pb_end (pb);
  gst_ctf_pf_packet_end (pb);
done:
  g_strfreev (words);
}

/* Perfetto's trace time is BOOTTIME: ours is ns from the clock's origin.
 * When that origin is the Unix epoch, REALTIME is the same number. */
static void
write_clock_snapshot (GstCtfPerfettoWriter * w, GstCtfPb * pb,
    const GstCtfClockClass * cc, gint64 ns)
{
  if (cc == NULL || !cc->origin_is_unix_epoch || ns < 0)
    return;
  gst_ctf_pf_packet_begin (pb, w, ns);
  gst_ctf_pb_begin (pb, PF_TP_CLOCK_SNAPSHOT);
  gst_ctf_pb_begin (pb, 1);
  gst_ctf_pb_uint (pb, 1, PF_CLOCK_BOOTTIME);
  gst_ctf_pb_uint (pb, 2, (guint64) ns);
  gst_ctf_pb_end (pb);
  gst_ctf_pb_begin (pb, 1);
  gst_ctf_pb_uint (pb, 1, PF_CLOCK_REALTIME);
  gst_ctf_pb_uint (pb, 2, (guint64) ns);
  gst_ctf_pb_end (pb);
  gst_ctf_pb_uint (pb, 2, PF_CLOCK_BOOTTIME);
  gst_ctf_pb_end (pb);
  gst_ctf_pf_packet_end (pb);
}

static PfStream *
stream_for (GstCtfPerfettoWriter * w, const GstCtfPacketInfo * info)
{
  guint64 inst = info->has_stream_instance_id ? info->stream_instance_id :
      G_MAXUINT64;
  PfStream st = { 0, };
  guint i;

  for (i = 0; i < w->streams->len; i++) {
    PfStream *s = &g_array_index (w->streams, PfStream, i);

    if (s->stream_class_id == info->stream_class_id && s->instance == inst) {
      s->sc = info->stream_class;
      return s;
    }
  }
  st.sc = info->stream_class;
  st.stream_class_id = info->stream_class_id;
  st.instance = inst;
  st.cpu = -1;
  st.current_tid = -1;
  st.current_prio = G_MININT64;
  g_array_append_val (w->streams, st);
  return &g_array_index (w->streams, PfStream, w->streams->len - 1);
}

/* Kernel or user space, by the env of the stream's trace (each input's
 * own in a merged trace class: gst_ctf_trace_merge_find_env()). */
static void
stream_domain (GstCtfPerfettoWriter * w, PfStream * st)
{
  const GstCtfEnvEntry *domain = gst_ctf_trace_merge_find_env (w->tc,
      st->stream_class_id, "domain");
  const GstCtfEnvEntry *tracer = gst_ctf_trace_merge_find_env (w->tc,
      st->stream_class_id, "tracer_name");
  gboolean kernel = (domain && domain->is_string &&
      strcmp (domain->str, "kernel") == 0) || (tracer && tracer->is_string &&
      strcmp (tracer->str, "trace-cmd") == 0);

  st->domain = kernel ? 2 : 1;
  st->lttng_prio = tracer && tracer->is_string &&
      strcmp (tracer->str, "lttng-modules") == 0;
}

static void
packet_cpu (GstCtfPerfettoWriter * w, PfStream * st)
{
  guint n = 0, i;
  const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (w->it,
      GST_CTF_SCOPE_PACKET_CONTEXT, &n);

  for (i = 1; v && i < n && i < v[0].end && v[i].end > i; i = v[i].end)
    if (v[i].name && strcmp (v[i].name, "cpu_id") == 0 && v[i].fc &&
        v[i].fc->type == GST_CTF_FIELD_CLASS_INTEGER) {
      st->cpu = (gint64) MIN (v[i].v.u, (guint64) G_MAXINT32);
      return;
    }
}

static gchar *
stream_track_name (const PfStream * st, gboolean kernel)
{
  if (kernel && st->cpu >= 0)
    return g_strdup_printf ("CPU %" G_GINT64_FORMAT " (trace)", st->cpu);
  if (st->instance != G_MAXUINT64 && st->cpu >= 0)
    return g_strdup_printf ("stream %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
        " (CPU %" G_GINT64_FORMAT ")", st->stream_class_id, st->instance,
        st->cpu);
  if (st->instance != G_MAXUINT64)
    return g_strdup_printf ("stream %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
        st->stream_class_id, st->instance);
  return g_strdup_printf ("stream %" G_GUINT64_FORMAT, st->stream_class_id);
}

/* What the tracer discarded before this packet (CTF 1.8 §5.2
 * `events_discarded`, `packet_seq_num`): an instant event on the stream's
 * track, named so a user sees it. */
static void
write_discards (GstCtfPerfettoWriter * w, PfStream * st, GstCtfPb * pb,
    const GstCtfClockClass * cc, const GstCtfMergeItem * items, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    gint64 ns = w->last_ns;
    gchar *name;

    if (cc)
      gst_ctf_clock_class_cycles_to_ns_from_origin (cc, items[i].end, &ns);
    if (st->track_uuid == 0) {
      gchar *tn = stream_track_name (st, w->kernel);

      st->track_uuid = gst_ctf_pf_global_track (w, pb, tn);
      g_free (tn);
    }
    if (items[i].count == G_MAXUINT64)
      name = g_strdup (items[i].type == GST_CTF_MERGE_DISCARDED_EVENTS ?
          "tracer discarded events" : "tracer discarded packets");
    else
      name = g_strdup_printf ("tracer discarded %" G_GUINT64_FORMAT " %s",
          items[i].count, items[i].type == GST_CTF_MERGE_DISCARDED_EVENTS ?
          "events" : "packets");
    gst_ctf_pf_instant (w, pb, st->track_uuid, ns, name);
    g_free (name);
  }
}

/* The packets of a failed CTF packet are cut off: what they interned or
 * described must be sent again, and the next packet clears the
 * sequence's incremental state. */
static void
forget_sent (GstCtfPerfettoWriter * w)
{
  GHashTableIter hi;
  gpointer k;
  guint i;

  w->sequence_started = FALSE;
  g_hash_table_remove_all (w->event_names);
  g_hash_table_remove_all (w->annotation_names);
  g_ptr_array_set_size (w->new_event_names, 0);
  g_ptr_array_set_size (w->new_annotation_names, 0);
  g_hash_table_remove_all (w->classes);
  g_hash_table_iter_init (&hi, w->threads);
  while (g_hash_table_iter_next (&hi, &k, NULL))
    g_free (k);
  g_hash_table_remove_all (w->threads);
  g_hash_table_remove_all (w->processes);
  w->note_track = 0;
  for (i = 0; i < w->streams->len; i++) {
    g_array_index (w->streams, PfStream, i).track_uuid = 0;
    g_array_index (w->streams, PfStream, i).last_thread_uuid = 0;
    g_array_index (w->streams, PfStream, i).last_ec = NULL;
  }
}

gboolean
gst_ctf_perfetto_writer_write_packet (GstCtfPerfettoWriter * w,
    const guint8 * data, gsize size, GByteArray * out, GError ** error)
{
  guint start = out->len;
  const GstCtfClockClass *cc;
  GstCtfPacketInfo info;
  GstCtfMergeItem items[2];
  GError *err = NULL;
  PfStream *st;
  GstCtfPb pb;
  gint64 begin_ns = -1;
  guint n;

  g_return_val_if_fail (w->tc != NULL, FALSE);
  gst_ctf_pb_init (&pb, out);
  if (!gst_ctf_packet_read_info (w->tc, data, size, &info, error))
    return FALSE;
  st = stream_for (w, &info);
  if (st->domain == 0)
    stream_domain (w, st);
  w->kernel = w->force_kernel || st->domain == 2;
  w->lttng_prio = st->lttng_prio;
  cc = info.stream_class ? info.stream_class->default_clock : NULL;
  if (!gst_ctf_event_iter_set_packet (w->it, data, size, error))
    return FALSE;
  if (st->cpu < 0)
    packet_cpu (w, st);
  if (!info.has_timestamp_begin)
    gst_ctf_event_iter_set_clock_value (w->it, st->clock);
  if (cc)
    gst_ctf_clock_class_cycles_to_ns_from_origin (cc,
        gst_ctf_event_iter_get_clock_value (w->it), &begin_ns);
  if (!w->started) {
    write_clock_snapshot (w, &pb, cc, begin_ns);
    write_system_info (w, &pb, st->stream_class_id);
    w->started = TRUE;
  }
  n = gst_ctf_discard_tracker_next_packet (&st->tracker, &info, cc, items);

  if (w->side_sc && info.stream_class == w->side_sc)
    gst_ctf_pf_ftrace_packet (w, st, NULL, FALSE, &err);
  else if (w->kernel)
    gst_ctf_pf_ftrace_packet (w, st, &pb, n > 0, &err);
  else
    gst_ctf_pf_track_packet (w, st, &pb, &err);
  if (err) {
    g_propagate_error (error, err);
    g_byte_array_set_size (out, start);
    forget_sent (w);
    return FALSE;
  }
  st->clock = gst_ctf_event_iter_get_clock_value (w->it);
  if (n && !(w->side_sc && info.stream_class == w->side_sc))
    write_discards (w, st, &pb, cc, items, n);
  write_process_tree (w, &pb, begin_ns >= 0 ? begin_ns : w->last_ns);
  return TRUE;
}

void
gst_ctf_perfetto_writer_write_note (GstCtfPerfettoWriter * w,
    const gchar * text, GByteArray * out)
{
  GstCtfPb pb;

  gst_ctf_pb_init (&pb, out);
  if (w->note_track == 0)
    w->note_track = gst_ctf_pf_global_track (w, &pb, "gst-ctf");
  gst_ctf_pf_instant (w, &pb, w->note_track, w->last_ns, text);
}
