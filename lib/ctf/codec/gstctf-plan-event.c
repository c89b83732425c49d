/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: event runs.  The scopes of an event (CTF 1.8 §6.1: event
 * header, stream event context, event context, payload) are decoded one
 * after the other; when each is one run (gstctf-plan.h) and the padding
 * between them does not depend on the data, they are one run: one bounds
 * check, one pass of reads, instead of a run per scope.  The values stay
 * per scope (their `end` indexes count from the scope's first value),
 * side by side in one buffer.
 */
#include "gstctf-plan.h"

#include <string.h>

static gpointer
er_alloc (GPtrArray * allocs, gsize size)
{
  gpointer p = g_malloc0 (MAX (size, 1));

  g_ptr_array_add (allocs, p);
  return p;
}

/* Whether run @r (aligned to @a at its start) can follow a first
 * segment that is at bit @off from a start aligned to @align (@last:
 * nothing follows it, so it may have several segments).  *@at: where it
 * starts. */
static gboolean
joinable (const GstCtfRun * r, guint32 a, guint32 align, guint64 off,
    gboolean last, guint64 * at)
{
  if (r == NULL || r->tail_item >= 0 || r->flat != NULL)
    return FALSE;
  if (!last && r->n_segs != 1)
    return FALSE;
  /* its padding is static only when the start is at least as aligned */
  if (a > align)
    return FALSE;
  *at = (off + a - 1) & ~((guint64) a - 1);
  return *at + r->segs[0].bits < (G_GUINT64_CONSTANT (1) << 31);
}

/* Loads of a segment, grouped by kind (as the run compiler does) so that
 * the dispatch on the kind mostly repeats the previous one. */
static gint
load_by_kind (gconstpointer a, gconstpointer b)
{
  const GstCtfRunLoad *la = a, *lb = b;

  if (la->kind != lb->kind)
    return la->kind < lb->kind ? -1 : 1;
  return la->val_off < lb->val_off ? -1 : la->val_off > lb->val_off;
}

GstCtfEventRun *
gst_ctf_event_run_new (const GstCtfRun * header, guint32 header_align,
    const GstCtfPlan * const plans[GST_CTF_EVENT_RUN_SCOPES - 1])
{
  const GstCtfRun *runs[GST_CTF_EVENT_RUN_SCOPES];
  guint32 aligns[GST_CTF_EVENT_RUN_SCOPES];
  guint64 at[GST_CTF_EVENT_RUN_SCOPES], off = 0;
  guint32 align = 0, first_item[GST_CTF_EVENT_RUN_SCOPES];
  guint n_runs = 0, n_items = 0, n_loads = 0, n_effects = 0, n_segs;
  guint s, k, i, last = 0;
  GstCtfEventRun *b;
  GstCtfRun *run;
  const GstCtfRun *lr;

  runs[0] = header;
  aligns[0] = header_align;
  for (s = 1; s < GST_CTF_EVENT_RUN_SCOPES; s++) {
    const GstCtfPlan *plan = plans[s - 1];

    /* a present scope that is not one run cannot be joined */
    if (plan != NULL && plan->whole_run == NULL)
      return NULL;
    runs[s] = plan ? plan->whole_run : NULL;
    aligns[s] = plan ? plan->ops[0].align : 1;
  }
  for (s = 0; s < GST_CTF_EVENT_RUN_SCOPES; s++) {
    if (runs[s] != NULL)
      last = s;
  }
  for (s = 0; s < GST_CTF_EVENT_RUN_SCOPES; s++) {
    if (runs[s] == NULL)
      continue;
    if (n_runs == 0)
      align = aligns[s];
    if (!joinable (runs[s], aligns[s], align, off, s == last, &at[s]))
      return NULL;
    first_item[s] = n_items;
    off = at[s] + runs[s]->segs[0].bits;
    n_items += runs[s]->n_items;
    n_loads += runs[s]->n_loads;
    n_effects += runs[s]->n_effects;
    n_runs++;
  }
  /* one scope alone is already one run */
  if (n_runs < 2 || n_items > 4096)
    return NULL;

  b = g_new0 (GstCtfEventRun, 1);
  b->allocs = g_ptr_array_new_with_free_func (g_free);
  b->align = align;
  run = &b->run;
  lr = runs[last];
  run->orig = runs[last]->orig;
  run->orig.align = align;
  run->tail_item = -1;
  run->n_items = n_items;
  run->n_loads = n_loads;
  run->n_effects = n_effects;
  n_segs = lr->n_segs;
  run->n_segs = n_segs;
  run->segs = er_alloc (b->allocs, n_segs * sizeof (GstCtfRunSeg));
  run->tmpl = er_alloc (b->allocs,
      n_items * sizeof (GstCtfFieldValue));
  run->loads = er_alloc (b->allocs, n_loads * sizeof (GstCtfRunLoad));
  run->effects = er_alloc (b->allocs,
      n_effects * sizeof (GstCtfRunEffect));

  /* the first segment: every scope's first (and only, but the last's)
   * segment at its static offset; then the last scope's other segments */
  n_loads = n_effects = 0;
  for (i = 0; i < n_segs; i++) {
    GstCtfRunSeg *sg = &run->segs[i];

    sg->first_load = n_loads;
    sg->first_effect = n_effects;
    for (s = 0; s < GST_CTF_EVENT_RUN_SCOPES; s++) {
      const GstCtfRun *r = runs[s];
      const GstCtfRunSeg *rs;
      guint64 shift;

      if (r == NULL || (i > 0 && s != last))
        continue;
      rs = &r->segs[i];
      shift = i == 0 ? at[s] : 0;
      for (k = 0; k < rs->n_loads; k++) {
        GstCtfRunLoad *l = &run->loads[n_loads++];

        *l = r->loads[rs->first_load + k];
        l->byte_off += (guint32) (shift / 8);
        l->val_off += first_item[s] * sizeof (GstCtfFieldValue);
      }
      for (k = 0; k < rs->n_effects; k++) {
        const GstCtfRunEffect *from = &r->effects[rs->first_effect + k];
        GstCtfRunEffect *fx;

        /* the event class id: read before the run is (its event class
         * chose it); only a value slot is left to set */
        if (s == 0 && from->fast == GST_CTF_RUN_FX_EVENT_ID &&
            !(from->op.flags & GST_CTF_OP_F_SLOT))
          continue;
        fx = &run->effects[n_effects++];
        *fx = *from;
        if (s == 0 && from->fast == GST_CTF_RUN_FX_EVENT_ID)
          fx->fast = GST_CTF_RUN_FX_SLOT;
        fx->item += first_item[s];
        fx->bit_off += (guint32) at[s];
      }
    }
    sg->n_loads = n_loads - sg->first_load;
    sg->n_effects = n_effects - sg->first_effect;
    qsort (run->loads + sg->first_load, sg->n_loads, sizeof (GstCtfRunLoad),
        load_by_kind);
    sg->bits = i == 0 ? off : lr->segs[i].bits;
    sg->align = i == 0 ? 1 : lr->segs[i].align;
    sg->dyn_kind = lr->segs[i].dyn_kind;
    sg->dyn_elem_kind = lr->segs[i].dyn_elem_kind;
    sg->dyn_elem_fc = lr->segs[i].dyn_elem_fc;
    sg->dyn_elem_name = lr->segs[i].dyn_elem_name;
    sg->dyn_align = lr->segs[i].dyn_align;
    sg->dyn_slot = lr->segs[i].dyn_slot;
    sg->dyn_item = lr->segs[i].dyn_item + first_item[last];
    sg->first_item = i == 0 ? 0 : lr->segs[i].first_item + first_item[last];
  }
  /* sequences (in the last scope only: the others have one segment) */
  run->n_seqs = lr->n_seqs;
  run->n_grow = lr->n_grow;
  if (lr->n_grow > 0) {
    run->grow = er_alloc (b->allocs, lr->n_grow * sizeof (GstCtfRunGrow));
    for (k = 0; k < lr->n_grow; k++) {
      run->grow[k] = lr->grow[k];
      run->grow[k].item += first_item[last];
      run->grow[k].end += first_item[last];
      /* end_local: the scope's own count, as its values record it */
    }
  }
  run->n_effects = n_effects;
  _gst_ctf_run_link (run);

  /* values: each scope's as its own run records them (`end` from the
   * scope's first value), one scope after the other */
  for (s = 0; s < GST_CTF_EVENT_RUN_SCOPES; s++) {
    if (runs[s] == NULL)
      continue;
    memcpy (run->tmpl + first_item[s], runs[s]->tmpl,
        runs[s]->n_items * sizeof (GstCtfFieldValue));
    b->first[s] = first_item[s];
    b->n[s] = runs[s]->n_items;
  }
  return b;
}

void
gst_ctf_event_run_free (GstCtfEventRun * er)
{
  if (er == NULL)
    return;
  g_ptr_array_free (er->allocs, TRUE);
  g_free (er);
}
