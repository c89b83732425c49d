/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * User-space events (LTTng-UST, barectf, any CTF) -> `TrackEvent`s
 * (perfetto_trace.proto), one TracePacket per event: on one track per
 * thread (LTTng's `vpid`/`vtid` contexts, thread tracks under their
 * process, named from `procname`), else one track per stream.  The event
 * class name is the event's name and every field (contexts and payload)
 * a debug annotation; names are interned (`InternedData`,
 * `SEQ_NEEDS_INCREMENTAL_STATE`).  `*_entry`/`*_begin` events open a
 * slice named without the suffix, `*_exit`/`*_end` close it (LTTng-UST's
 * `lttng_ust_cyg_profile:func_entry`/`func_exit`); others are instants.
 */
#include <string.h>

#include "gstctf-perfetto-private.h"

/* TrackEvent */
#define PF_TE_DEBUG_ANNOTATIONS 4
#define PF_TE_TYPE 9
#define PF_TE_NAME_IID 10
#define PF_TE_TRACK_UUID 11
#define PF_TE_NAME 23
#define PF_TYPE_SLICE_BEGIN 1
#define PF_TYPE_SLICE_END 2
#define PF_TYPE_INSTANT 3
/* DebugAnnotation */
#define PF_DA_NAME_IID 1
#define PF_DA_BOOL 2
#define PF_DA_UINT 3
#define PF_DA_INT 4
#define PF_DA_DOUBLE 5
#define PF_DA_STRING 6
#define PF_DA_POINTER 7
#define PF_DA_NAME 10
#define PF_DA_DICT 11
#define PF_DA_ARRAY 12
/* InternedData */
#define PF_ID_EVENT_NAMES 2
#define PF_ID_ANNOTATION_NAMES 3

static gboolean
has_suffix (const gchar * s, const gchar * suffix, gsize * stem)
{
  gsize l = strlen (s), k = strlen (suffix);

  if (l <= k || strcmp (s + l - k, suffix) != 0)
    return FALSE;
  *stem = l - k;
  return TRUE;
}

static guint64
intern (GHashTable * table, GPtrArray * fresh, const gchar * s, gsize len)
{
  gchar *key;
  gpointer iid;

  /* names are NUL-terminated but for a slice's stem: copy only those */
  if (s[len] == '\0' && g_hash_table_lookup_extended (table, s, NULL, &iid))
    return GPOINTER_TO_SIZE (iid);
  key = g_strndup (s, len);
  if (g_hash_table_lookup_extended (table, key, NULL, &iid)) {
    g_free (key);
    return GPOINTER_TO_SIZE (iid);
  }
  iid = GSIZE_TO_POINTER (g_hash_table_size (table) + 1);
  g_hash_table_insert (table, key, iid);
  g_ptr_array_add (fresh, key);
  return GPOINTER_TO_SIZE (iid);
}

/* Ordinal of member @name in @fc (struct), or -1. */
static gint
find_member (GstCtfPerfettoWriter * w, const GstCtfFieldClass * fc,
    const gchar * name)
{
  guint k;

  if (fc == NULL || fc->type != GST_CTF_FIELD_CLASS_STRUCT)
    return -1;
  for (k = 0; k < fc->n_members; k++)
    if (strcmp (gst_ctf_pf_display_name (w, fc->members[k].name), name) == 0)
      return (gint) k;
  return -1;
}

static void
find_context (GstCtfPerfettoWriter * w, const GstCtfStreamClass * sc,
    const GstCtfEventClass * ec, const gchar * name, gint * scope,
    gint * ordinal)
{
  *scope = -1;
  *ordinal = sc ? find_member (w, sc->event_common_context, name) : -1;
  if (*ordinal >= 0) {
    *scope = GST_CTF_SCOPE_EVENT_COMMON_CONTEXT;
    return;
  }
  *ordinal = find_member (w, ec->context, name);
  if (*ordinal >= 0)
    *scope = GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT;
}

/* The interned names of the members of @fc, by ordinal (see
 * PfClassInfo.anno). */
static GArray *
annotation_iids (GstCtfPerfettoWriter * w, const GstCtfFieldClass * fc)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint k;

  for (k = 0; fc && fc->type == GST_CTF_FIELD_CLASS_STRUCT &&
      k < fc->n_members; k++) {
    const gchar *name = gst_ctf_pf_display_name (w, fc->members[k].name);
    guint64 iid = intern (w->annotation_names, w->new_annotation_names, name,
        strlen (name));

    g_array_append_val (a, iid);
  }
  return a;
}

static PfClassInfo *
class_info (GstCtfPerfettoWriter * w, const GstCtfStreamClass * sc,
    const GstCtfEventClass * ec)
{
  PfClassInfo *ci = g_hash_table_lookup (w->classes, ec);
  gsize stem = strlen (ec->name);

  if (ci)
    return ci;
  ci = g_new0 (PfClassInfo, 1);
  if (has_suffix (ec->name, "_entry", &stem) ||
      has_suffix (ec->name, "_begin", &stem))
    ci->slice = 1;
  else if (has_suffix (ec->name, "_exit", &stem) ||
      has_suffix (ec->name, "_end", &stem))
    ci->slice = 2;
  ci->name_iid = intern (w->event_names, w->new_event_names, ec->name,
      ci->slice == 1 ? stem : strlen (ec->name));
  ci->anno[0] = annotation_iids (w, sc ? sc->event_common_context : NULL);
  ci->anno[1] = annotation_iids (w, ec->context);
  ci->anno[2] = annotation_iids (w, ec->payload);
  find_context (w, sc, ec, "vpid", &ci->vpid_scope, &ci->vpid);
  find_context (w, sc, ec, "vtid", &ci->vtid_scope, &ci->vtid);
  find_context (w, sc, ec, "procname", &ci->procname_scope, &ci->procname);
  g_hash_table_insert (w->classes, (gpointer) ec, ci);
  return ci;
}

guint64
gst_ctf_pf_global_track (GstCtfPerfettoWriter * w, GstCtfPb * pb,
    const gchar * name)
{
  guint64 uuid = w->next_uuid++;

  gst_ctf_pf_packet_begin (pb, w, -1);
  gst_ctf_pb_begin (pb, PF_TP_TRACK_DESCRIPTOR);
  gst_ctf_pb_uint (pb, 1, uuid);
  gst_ctf_pb_string (pb, 2, name);
  gst_ctf_pb_end (pb);
  gst_ctf_pf_packet_end (pb);
  return uuid;
}

void
gst_ctf_pf_instant (GstCtfPerfettoWriter * w, GstCtfPb * pb,
    guint64 track_uuid, gint64 ns, const gchar * name)
{
  gst_ctf_pf_packet_begin (pb, w, (gint64) gst_ctf_pf_ns (ns));
  gst_ctf_pb_begin (pb, PF_TP_TRACK_EVENT);
  gst_ctf_pb_uint (pb, PF_TE_TYPE, PF_TYPE_INSTANT);
  gst_ctf_pb_uint (pb, PF_TE_TRACK_UUID, track_uuid);
  gst_ctf_pb_string (pb, PF_TE_NAME, name);
  gst_ctf_pb_end (pb);
  gst_ctf_pf_packet_end (pb);
}

static const GstCtfFieldValue *
context_value (GstCtfPerfettoWriter * w, gint scope, gint ordinal)
{
  const GstCtfFieldValue *v;
  guint n = 0;

  if (scope < 0)
    return NULL;
  v = gst_ctf_event_iter_get_values (w->it, scope, &n);
  v = gst_ctf_pf_member (v, n, (guint) ordinal);
  return v && v->fc && (v->fc->type == GST_CTF_FIELD_CLASS_INTEGER ||
      v->fc->type == GST_CTF_FIELD_CLASS_ENUM) ? v : NULL;
}

static void
procname_of (GstCtfPerfettoWriter * w, const PfClassInfo * ci, GString * s)
{
  const GstCtfFieldValue *v, *x;
  guint n = 0;
  gchar *t;

  g_string_truncate (s, 0);
  if (ci->procname_scope < 0)
    return;
  v = gst_ctf_event_iter_get_values (w->it, ci->procname_scope, &n);
  x = gst_ctf_pf_member (v, n, (guint) ci->procname);
  if (x == NULL)
    return;
  t = gst_ctf_pf_value_text (v, (guint) (x - v));
  g_string_assign (s, t);
  g_free (t);
}

guint
gst_ctf_pf_thread_key_hash (gconstpointer p)
{
  const PfThreadKey *k = p;

  return g_int64_hash (&k->pid) * 31 + g_int64_hash (&k->tid);
}

gboolean
gst_ctf_pf_thread_key_equal (gconstpointer a, gconstpointer b)
{
  const PfThreadKey *x = a, *y = b;

  return x->pid == y->pid && x->tid == y->tid;
}

/* The track of the current event: its thread's (described on first use,
 * under its process) or its stream's. */
static guint64
event_track (GstCtfPerfettoWriter * w, PfStream * st, const PfClassInfo * ci,
    GstCtfPb * pb, gint64 ns)
{
  const GstCtfFieldValue *tid = context_value (w, ci->vtid_scope, ci->vtid);
  const GstCtfFieldValue *pid = context_value (w, ci->vpid_scope, ci->vpid);
  gint64 t, p;
  PfThreadKey key, *k;
  guint64 uuid, puuid;
  GString *name;

  if (tid == NULL) {
    if (st->track_uuid == 0) {
      gchar *tn = st->instance != G_MAXUINT64 ?
          g_strdup_printf ("stream %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
          st->stream_class_id, st->instance) :
          g_strdup_printf ("stream %" G_GUINT64_FORMAT, st->stream_class_id);

      st->track_uuid = gst_ctf_pf_global_track (w, pb, tn);
      g_free (tn);
    }
    return st->track_uuid;
  }
  t = tid->fc->integer.is_signed ? tid->v.i : (gint64) tid->v.u;
  p = pid ? (pid->fc->integer.is_signed ? pid->v.i : (gint64) pid->v.u) : t;
  if (st->last_thread_uuid && st->last_pid == p && st->last_tid == t)
    return st->last_thread_uuid;
  key.pid = p;
  key.tid = t;
  uuid = GPOINTER_TO_SIZE (g_hash_table_lookup (w->threads, &key));
  if (uuid) {
    st->last_pid = p;
    st->last_tid = t;
    st->last_thread_uuid = uuid;
    return uuid;
  }
  name = g_string_new (NULL);
  procname_of (w, ci, name);
  puuid = GPOINTER_TO_SIZE (g_hash_table_lookup (w->processes,
          GSIZE_TO_POINTER ((gsize) (guint32) p)));
  if (puuid == 0) {
    puuid = w->next_uuid++;
    g_hash_table_insert (w->processes, GSIZE_TO_POINTER ((gsize) (guint32) p),
        GSIZE_TO_POINTER (puuid));
    /* TrackDescriptor { uuid 1, process 3 { pid 1, process_name 6 } } */
    gst_ctf_pf_packet_begin (pb, w, (gint64) gst_ctf_pf_ns (ns));
    gst_ctf_pb_begin (pb, PF_TP_TRACK_DESCRIPTOR);
    gst_ctf_pb_uint (pb, 1, puuid);
    gst_ctf_pb_begin (pb, 3);
    gst_ctf_pb_int (pb, 1, (gint32) p);
    if (name->len)
      gst_ctf_pb_string (pb, 6, name->str);
    gst_ctf_pb_end (pb);
    gst_ctf_pb_end (pb);
    gst_ctf_pf_packet_end (pb);
  }
  uuid = w->next_uuid++;
  k = g_new (PfThreadKey, 1);
  *k = key;
  g_hash_table_insert (w->threads, k, GSIZE_TO_POINTER (uuid));
  /* TrackDescriptor { uuid 1, parent_uuid 5, thread 4 { pid 1, tid 2,
   * thread_name 5 } } */
  gst_ctf_pf_packet_begin (pb, w, (gint64) gst_ctf_pf_ns (ns));
  gst_ctf_pb_begin (pb, PF_TP_TRACK_DESCRIPTOR);
  gst_ctf_pb_uint (pb, 1, uuid);
  gst_ctf_pb_uint (pb, 5, puuid);
  gst_ctf_pb_begin (pb, 4);
  gst_ctf_pb_int (pb, 1, (gint32) p);
  gst_ctf_pb_int (pb, 2, t);
  if (name->len)
    gst_ctf_pb_string (pb, 5, name->str);
  gst_ctf_pb_end (pb);
  gst_ctf_pb_end (pb);
  gst_ctf_pf_packet_end (pb);
  g_string_free (name, TRUE);
  st->last_pid = p;
  st->last_tid = t;
  st->last_thread_uuid = uuid;
  return uuid;
}

/* One value (@v[@i]) of a DebugAnnotation (its name already written). */
static void
annotation_value (GstCtfPb * pb, const GstCtfFieldValue * v, guint i)
{
  const GstCtfFieldValue *x = &v[i];
  const GstCtfFieldClass *fc = x->fc;
  guint j;

  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (fc->form == GST_CTF_FIELD_FORM_BOOLEAN)
        gst_ctf_pb_bool (pb, PF_DA_BOOL, x->v.u != 0);
      else if (fc->integer.base == 16)  /* shown in hex, as babeltrace2 */
        gst_ctf_pb_uint (pb, PF_DA_POINTER, x->v.u &
            (fc->integer.size < 64 ? (G_GUINT64_CONSTANT (1) <<
                    fc->integer.size) - 1 : G_MAXUINT64));
      else if (fc->integer.is_signed)
        gst_ctf_pb_int (pb, PF_DA_INT, x->v.i);
      else
        gst_ctf_pb_uint (pb, PF_DA_UINT, x->v.u);
      break;
    case GST_CTF_FIELD_CLASS_FLOAT:
      gst_ctf_pb_double (pb, PF_DA_DOUBLE, x->v.d);
      break;
    case GST_CTF_FIELD_CLASS_STRING:
      gst_ctf_pb_bytes (pb, PF_DA_STRING, x->v.s.ptr, x->v.s.ptr ?
          x->v.s.len : 0);
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      if (x->end == i + 1 && x->v.s.ptr) {
        const gchar *nul = memchr (x->v.s.ptr, 0, x->v.s.len);

        gst_ctf_pb_bytes (pb, PF_DA_STRING, x->v.s.ptr,
            nul ? (gsize) (nul - x->v.s.ptr) : x->v.s.len);
        break;
      }
      for (j = i + 1; j < x->end; j = v[j].end) {
        gst_ctf_pb_begin (pb, PF_DA_ARRAY);
        annotation_value (pb, v, j);
        gst_ctf_pb_end (pb);
      }
      break;
    case GST_CTF_FIELD_CLASS_STRUCT:
      for (j = i + 1; j < x->end; j = v[j].end) {
        gst_ctf_pb_begin (pb, PF_DA_DICT);
        gst_ctf_pb_string (pb, PF_DA_NAME, v[j].name ? v[j].name : "");
        annotation_value (pb, v, j);
        gst_ctf_pb_end (pb);
      }
      break;
    case GST_CTF_FIELD_CLASS_VARIANT:
      if (x->end > i + 1)
        annotation_value (pb, v, i + 1);
      break;
  }
}

static void
annotations (GstCtfPerfettoWriter * w, GstCtfPb * pb, GstCtfScope scope,
    const GArray * iids)
{
  const GstCtfFieldValue *v;
  guint n = 0, i, k = 0;

  v = gst_ctf_event_iter_get_values (w->it, scope, &n);
  if (v == NULL || n == 0 || v[0].fc == NULL ||
      v[0].fc->type != GST_CTF_FIELD_CLASS_STRUCT)
    return;
  for (i = 1; i < n && i < v[0].end && v[i].end > i; i = v[i].end, k++) {
    if (G_UNLIKELY (k >= iids->len))
      break;
    gst_ctf_pb_begin (pb, PF_TE_DEBUG_ANNOTATIONS);
    gst_ctf_pb_uint (pb, PF_DA_NAME_IID, g_array_index (iids, guint64, k));
    annotation_value (pb, v, i);
    gst_ctf_pb_end (pb);
  }
}

static void
write_interned (GstCtfPerfettoWriter * w, GstCtfPb * pb)
{
  guint i;

  if (w->new_event_names->len == 0 && w->new_annotation_names->len == 0)
    return;
  gst_ctf_pb_begin (pb, PF_TP_INTERNED_DATA);
  for (i = 0; i < w->new_event_names->len; i++) {
    const gchar *s = g_ptr_array_index (w->new_event_names, i);

    gst_ctf_pb_begin (pb, PF_ID_EVENT_NAMES);
    gst_ctf_pb_uint (pb, 1, GPOINTER_TO_SIZE (g_hash_table_lookup
            (w->event_names, s)));
    gst_ctf_pb_string (pb, 2, s);
    gst_ctf_pb_end (pb);
  }
  for (i = 0; i < w->new_annotation_names->len; i++) {
    const gchar *s = g_ptr_array_index (w->new_annotation_names, i);

    gst_ctf_pb_begin (pb, PF_ID_ANNOTATION_NAMES);
    gst_ctf_pb_uint (pb, 1, GPOINTER_TO_SIZE (g_hash_table_lookup
            (w->annotation_names, s)));
    gst_ctf_pb_string (pb, 2, s);
    gst_ctf_pb_end (pb);
  }
  gst_ctf_pb_end (pb);
  g_ptr_array_set_size (w->new_event_names, 0);
  g_ptr_array_set_size (w->new_annotation_names, 0);
}

void
gst_ctf_pf_track_packet (GstCtfPerfettoWriter * w, PfStream * st,
    GstCtfPb * pb, GError ** error)
{
  const GstCtfClockClass *cc = st->sc ? st->sc->default_clock : NULL;

  while (gst_ctf_event_iter_next (w->it, error)) {
    const GstCtfEventClass *ec = gst_ctf_event_iter_get_event_class (w->it);
    PfClassInfo *ci;
    guint64 track;
    gint64 ns;

    if (ec != st->last_ec) {
      st->last_ci = class_info (w, st->sc, ec);
      st->last_ec = ec;
    }
    ci = st->last_ci;

    if (!cc || !gst_ctf_clock_class_cycles_to_ns_from_origin (cc,
            gst_ctf_event_iter_get_clock_value (w->it), &ns))
      ns = (gint64) gst_ctf_event_iter_get_clock_value (w->it);
    w->last_ns = ns;
    track = event_track (w, st, ci, pb, ns);

    /* The track event, then what it interned (the order of a message's
     * fields does not matter) */
    gst_ctf_pf_packet_begin (pb, w, (gint64) gst_ctf_pf_ns (ns));
    gst_ctf_pb_begin (pb, PF_TP_TRACK_EVENT);
    gst_ctf_pb_uint (pb, PF_TE_TYPE, ci->slice == 1 ? PF_TYPE_SLICE_BEGIN :
        ci->slice == 2 ? PF_TYPE_SLICE_END : PF_TYPE_INSTANT);
    gst_ctf_pb_uint (pb, PF_TE_TRACK_UUID, track);
    gst_ctf_pb_uint (pb, PF_TE_NAME_IID, ci->name_iid);
    annotations (w, pb, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT, ci->anno[0]);
    annotations (w, pb, GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT, ci->anno[1]);
    annotations (w, pb, GST_CTF_SCOPE_EVENT_PAYLOAD, ci->anno[2]);
    gst_ctf_pb_end (pb);
    write_interned (w, pb);
    gst_ctf_pf_packet_end (pb);
    w->events++;
  }
}
