/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The decision "is this row kept" of the filter model and of the search:
 * the packet first (`stream-classes`, `streams`, `cpus`), then the plan of
 * the event's class (gst_ctf_filter_spec_class_kind(), the decision
 * ctffilter makes), made once per class.  A trace.dat's events get their
 * trace-cmd system from its event formats, as ctffilter gets them from
 * tracecmdsrc's side stream, so that `sched/sched_switch` and `sched`
 * name them.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfgtk-filter-match-private.h"
#include "gsttracecmd.h"

#define N_SCOPES (GST_CTF_SCOPE_EVENT_PAYLOAD + 1)

typedef struct {
  GstCtfFilterPlanKind kind;
  GstCtfFilterPlan *plan;       /* for GST_CTF_FILTER_PLAN_EVAL */
} ClassPlan;

struct _GstCtfGtkMatcher {
  const GstCtfFilterSpec *spec;
  const GstCtfTraceClass *tc;
  GHashTable *systems;          /* event name -> trace-cmd system, or NULL */
  GHashTable *plans;            /* GstCtfEventClass -> ClassPlan */
  const GstCtfEventClass *last_ec;
  ClassPlan *last;
};

static void
class_plan_free (gpointer p)
{
  ClassPlan *cp = p;

  gst_ctf_filter_plan_free (cp->plan);
  g_free (cp);
}

/* The trace-cmd systems of a trace.dat's events (none when it cannot be
 * read: the packet source reads it too, and says so). */
static GHashTable *
trace_dat_systems (const gchar * path)
{
  GstCtfTraceDat *td = gst_ctf_trace_dat_open (path, NULL);
  GHashTable *systems;
  guint i, n;

  if (td == NULL)
    return NULL;
  systems = gst_ctf_filter_systems_new ();
  n = gst_ctf_trace_dat_get_n_event_formats (td);
  for (i = 0; i < n; i++) {
    const GstCtfTraceDatEventFormat *f =
        gst_ctf_trace_dat_get_nth_event_format (td, i);

    if (f->system != NULL && f->name != NULL)
      gst_ctf_filter_systems_add (systems, f->name, f->system);
  }
  gst_ctf_trace_dat_unref (td);
  return systems;
}

GstCtfGtkMatcher *
_gst_ctf_gtk_matcher_new (const GstCtfFilterSpec * spec,
    GstCtfGtkPacketSource * src, const gchar * path)
{
  GstCtfGtkMatcher *m = g_new0 (GstCtfGtkMatcher, 1);

  m->spec = spec;
  m->tc = _gst_ctf_gtk_packet_source_get_trace_class (src);
  m->plans = g_hash_table_new_full (NULL, NULL, NULL, class_plan_free);
  /* a regular file is read as a trace.dat (gstctf-packet-source.h) */
  if (gst_ctf_filter_spec_has_expression (spec) &&
      g_file_test (path, G_FILE_TEST_IS_REGULAR))
    m->systems = trace_dat_systems (path);
  return m;
}

void
_gst_ctf_gtk_matcher_free (GstCtfGtkMatcher * m)
{
  if (m == NULL)
    return;
  g_hash_table_unref (m->plans);
  if (m->systems != NULL)
    g_hash_table_unref (m->systems);
  g_free (m);
}

static ClassPlan *
class_plan (GstCtfGtkMatcher * m, guint64 stream_class_id,
    const GstCtfEventClass * ec)
{
  ClassPlan *cp;
  const GstCtfStreamClass *sc;

  if (ec == m->last_ec && m->last != NULL)
    return m->last;
  cp = g_hash_table_lookup (m->plans, ec);
  if (cp == NULL) {
    cp = g_new0 (ClassPlan, 1);
    cp->kind = GST_CTF_FILTER_PLAN_NEVER;
    sc = gst_ctf_trace_class_find_stream_class (m->tc, stream_class_id);
    if (sc != NULL && ec != NULL)
      cp->kind = gst_ctf_filter_spec_class_kind (m->spec, sc, ec,
          m->systems != NULL && ec->name != NULL ?
          g_hash_table_lookup (m->systems, ec->name) : NULL, &cp->plan);
    g_hash_table_insert (m->plans, (gpointer) ec, cp);
  }
  m->last_ec = ec;
  m->last = cp;
  return cp;
}

gboolean
_gst_ctf_gtk_matcher_keeps (GstCtfGtkMatcher * m, GstCtfEventMerge * merge,
    const GstCtfMergeItem * item, GError ** error)
{
  const GstCtfFieldValue *scopes[N_SCOPES] = { NULL, };
  guint n[N_SCOPES] = { 0, }, s;
  const GstCtfFieldValue *ctx = NULL;
  guint n_ctx = 0;
  ClassPlan *cp;

  if (gst_ctf_filter_spec_needs_cpu (m->spec)) {
    GError *err = NULL;

    ctx = gst_ctf_event_merge_get_values (merge,
        GST_CTF_SCOPE_PACKET_CONTEXT, &n_ctx, &err);
    if (err != NULL) {
      g_propagate_error (error, err);
      return FALSE;
    }
  }
  if (!gst_ctf_filter_spec_keeps_packet (m->spec, item->stream_class_id,
          item->stream_name, ctx, n_ctx))
    return FALSE;
  cp = class_plan (m, item->stream_class_id,
      gst_ctf_event_iter_get_event_class (item->iter));
  if (cp->kind != GST_CTF_FILTER_PLAN_EVAL)
    return cp->kind == GST_CTF_FILTER_PLAN_ALWAYS;
  for (s = GST_CTF_SCOPE_PACKET_CONTEXT; s < N_SCOPES; s++) {
    GError *err = NULL;

    scopes[s] = gst_ctf_event_merge_get_values (merge, s, &n[s], &err);
    if (err != NULL) {
      g_propagate_error (error, err);
      return FALSE;
    }
  }
  return gst_ctf_filter_plan_matches (cp->plan, scopes, n);
}
