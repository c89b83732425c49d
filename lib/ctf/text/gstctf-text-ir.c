/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: which field classes reach babeltrace2's trace IR, hence its
 * text output, for gstctf-text-formatter.c (see the rules there): fills
 * the formatter's not_in_ir set and its per stream class and per event
 * class scope states.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-text-private.h"
#include "gstctf-trace-merge-private.h"

/* ------------------------------------------------------------------ */
/* Which field classes reach babeltrace2's trace IR                     */

static gboolean
int_has_meaning_in_packet_context (const gchar * name)
{
  static const gchar *const names[] = {
    "timestamp_begin", "timestamp_end", "events_discarded",
    "packet_seq_num", "packet_size", "content_size",
  };
  guint i;

  if (name == NULL)
    return FALSE;
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

static void
force_not_in_ir (GHashTable * set, const GstCtfFieldClass * fc, guint depth)
{
  guint i;

  if (fc == NULL || depth > 256)
    return;
  g_hash_table_add (set, (gpointer) fc);
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_STRUCT:
    case GST_CTF_FIELD_CLASS_VARIANT:
      for (i = 0; i < fc->n_members; i++)
        force_not_in_ir (set, fc->members[i].fc, depth + 1);
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      force_not_in_ir (set, fc->element, depth + 1);
      break;
    default:
      break;
  }
}

/* Returns whether @fc is in IR; records the nodes that are not in
 * @not_in_ir and the length/tag targets of kept sequences/variants in
 * @dependents.  Members are visited in reverse order: a dependency is
 * always declared before its dependent (babeltrace2's update-in-ir pass
 * does the same). @pc_top: @fc is a direct member of the packet context,
 * named @name. */
static gboolean
update_in_ir (GHashTable * not_in_ir, GHashTable * dependents,
    const GstCtfFieldClass * fc, const gchar * name, gboolean pc_top,
    guint depth, gboolean ctf2)
{
  gboolean in_ir = FALSE;
  gint i;

  if (fc == NULL)
    return FALSE;
  if (depth > 256)
    return TRUE;

  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:{
      gboolean mapped = fc->integer.mapped_clock != NULL ||
          fc->integer.map_clock_name != NULL;
      /* CTF 1.8: by name in the packet context; CTF 2: by role */
      gboolean meaning = ctf2 ? fc->meaning != GST_CTF_MEANING_NONE :
          pc_top && int_has_meaning_in_packet_context (name);

      in_ir = (!mapped && !meaning) ||
          g_hash_table_contains (dependents, fc);
      break;
    }
    case GST_CTF_FIELD_CLASS_STRUCT:
      if (fc->n_members == 0)
        in_ir = TRUE;
      for (i = (gint) fc->n_members - 1; i >= 0; i--) {
        if (update_in_ir (not_in_ir, dependents, fc->members[i].fc,
                fc->members[i].name, FALSE, depth + 1, ctf2))
          in_ir = TRUE;
      }
      break;
    case GST_CTF_FIELD_CLASS_VARIANT:
      for (i = (gint) fc->n_members - 1; i >= 0; i--) {
        if (update_in_ir (not_in_ir, dependents, fc->members[i].fc,
                fc->members[i].name, FALSE, depth + 1, ctf2))
          in_ir = TRUE;
      }
      if (in_ir) {
        /* All options stay selectable. */
        for (i = 0; i < (gint) fc->n_members; i++)
          g_hash_table_remove (not_in_ir, fc->members[i].fc);
        if (fc->ref_target)
          g_hash_table_add (dependents, (gpointer) fc->ref_target);
      }
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      in_ir = update_in_ir (not_in_ir, dependents, fc->element, NULL,
          FALSE, depth + 1, ctf2);
      if (fc->type == GST_CTF_FIELD_CLASS_SEQUENCE && in_ir &&
          fc->ref_target)
        g_hash_table_add (dependents, (gpointer) fc->ref_target);
      break;
    default:
      in_ir = TRUE;
      break;
  }

  if (in_ir)
    g_hash_table_remove (not_in_ir, fc);
  else
    g_hash_table_add (not_in_ir, (gpointer) fc);
  return in_ir;
}

static gboolean
subtree_has_filtered (GHashTable * not_in_ir, const GstCtfFieldClass * fc,
    guint depth)
{
  guint i;

  if (fc == NULL || depth > 256)
    return FALSE;
  if (g_hash_table_contains (not_in_ir, fc))
    return TRUE;
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_STRUCT:
    case GST_CTF_FIELD_CLASS_VARIANT:
      for (i = 0; i < fc->n_members; i++)
        if (subtree_has_filtered (not_in_ir, fc->members[i].fc, depth + 1))
          return TRUE;
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      return subtree_has_filtered (not_in_ir, fc->element, depth + 1);
    default:
      break;
  }
  return FALSE;
}

static ScopeState
scope_state (GHashTable * not_in_ir, const GstCtfFieldClass * root)
{
  if (root == NULL || g_hash_table_contains (not_in_ir, root))
    return SCOPE_ABSENT;
  return subtree_has_filtered (not_in_ir, root, 0) ? SCOPE_FILTERED :
      SCOPE_PLAIN;
}

void
_gst_ctf_text_compute_ir (GstCtfTextFormatter * f)
{
  GHashTable *dependents = g_hash_table_new (NULL, NULL);
  gboolean ctf2 = f->tc->major >= 2;
  GstCtfMergeEnvIndex *env;
  gint input;
  guint i, j;

  for (i = 0; f->tc->stream_classes && i < f->tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (f->tc->stream_classes,
        i);
    const GstCtfFieldClass *pc = sc->packet_context;

    for (j = 0; sc->event_classes && j < sc->event_classes->len; j++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      update_in_ir (f->not_in_ir, dependents, ec->payload, NULL, FALSE, 0, ctf2);
      update_in_ir (f->not_in_ir, dependents, ec->context, NULL, FALSE, 0, ctf2);
    }
    update_in_ir (f->not_in_ir, dependents, sc->event_common_context, NULL,
        FALSE, 0, ctf2);
    force_not_in_ir (f->not_in_ir, sc->event_header, 0);

    /* Packet context: its direct members may carry a meaning. */
    if (pc != NULL && pc->type == GST_CTF_FIELD_CLASS_STRUCT) {
      gboolean in_ir = pc->n_members == 0;
      gint k;

      for (k = (gint) pc->n_members - 1; k >= 0; k--) {
        if (update_in_ir (f->not_in_ir, dependents, pc->members[k].fc,
                pc->members[k].name, TRUE, 1, ctf2))
          in_ir = TRUE;
      }
      if (in_ir)
        g_hash_table_remove (f->not_in_ir, pc);
      else
        g_hash_table_add (f->not_in_ir, (gpointer) pc);
    } else {
      update_in_ir (f->not_in_ir, dependents, pc, NULL, FALSE, 0, ctf2);
    }
  }
  force_not_in_ir (f->not_in_ir, f->tc->packet_header, 0);
  g_hash_table_unref (dependents);

  env = _gst_ctf_merge_env_index_new (f->tc);
  for (i = 0; f->tc->stream_classes && i < f->tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (f->tc->stream_classes,
        i);
    ScInfo *si = g_new0 (ScInfo, 1);

    si->packet_context = scope_state (f->not_in_ir, sc->packet_context);
    si->common_context = scope_state (f->not_in_ir,
        sc->event_common_context);
    if ((input = _gst_ctf_merge_env_index_input (env, sc->id)) >= 0) {
      const GstCtfEnvEntry *e;
      gchar key[64];

      si->merged = TRUE;
      /* the input's name as the merge recorded it (gstctf-trace-merge.h) */
      g_snprintf (key, sizeof (key), "gstctf_trace%d_name", input);
      e = _gst_ctf_merge_env_index_lookup (env, key);
      si->trace_name = e && e->is_string ? (e->str ? e->str : "") : NULL;
      e = _gst_ctf_merge_env_index_find (env, sc->id, "hostname");
      si->env_hostname = e && e->is_string ? (e->str ? e->str : "") : NULL;
      e = _gst_ctf_merge_env_index_find (env, sc->id, "domain");
      si->env_domain = e && e->is_string ? (e->str ? e->str : "") : NULL;
      e = _gst_ctf_merge_env_index_find (env, sc->id, "procname");
      si->env_procname = e && e->is_string ? (e->str ? e->str : "") : NULL;
      e = _gst_ctf_merge_env_index_find (env, sc->id, "vpid");
      if (e && !e->is_string) {
        si->has_env_vpid = TRUE;
        si->env_vpid = e->integer;
      }
      /* (a merge not given the name: as babeltrace2 names a trace given
       * itself) */
      if (si->trace_name == NULL)
        si->trace_name = si->env_hostname ? si->env_hostname : "";
    }
    g_hash_table_insert (f->sc_info, (gpointer) sc, si);

    for (j = 0; sc->event_classes && j < sc->event_classes->len; j++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);
      EcInfo *ei = g_new0 (EcInfo, 1);

      ei->specific_context = scope_state (f->not_in_ir, ec->context);
      ei->payload = scope_state (f->not_in_ir, ec->payload);
      g_hash_table_insert (f->ec_info, (gpointer) ec, ei);
    }
  }
  _gst_ctf_merge_env_index_free (env);
}

const gchar *
_gst_ctf_text_trace_name (const GstCtfTextFormatter * f, const ScInfo * si)
{
  return si != NULL && si->merged ? si->trace_name : f->trace_name;
}
