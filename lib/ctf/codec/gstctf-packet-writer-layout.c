/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CTF 1.8 packet writer: event header layouts and the flattened
 * scopes (moved from gstctf-packet-writer.c, file size).
 *
 * At creation the writer enumerates the layouts of the stream's event
 * header (one per combination of variant options, tags forced to a value
 * whose label selects the option, CTF 1.8 §4.2.6) and sorts them by size;
 * per event it takes the smallest one that holds the event class id and
 * gives back the exact clock value (§8).  Scopes whose layout a template
 * fixes are flattened into a list of integer writes.
 */
#include "gstctf-packet-writer-private.h"

#include <string.h>

/* Flattens the template @vals of @fc into @ops; FALSE when the layout is
 * not fixed by the template. */
static gboolean
flat_build (const GstCtfFieldClass * fc, const GstCtfFieldValue * vals,
    guint n, guint * i, GArray * ops, gboolean * has_variant, guint depth)
{
  FlatOp op = { NULL, 1, 0 };
  guint idx;
  guint64 k;

  if (fc == NULL || depth > MAX_DEPTH || *i >= n)
    return FALSE;
  idx = (*i)++;
  if (vals[idx].fc != fc)
    return FALSE;
  op.align = MAX (fc->alignment, 1);
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (fc->integer.size == 0 || fc->integer.size > 64 ||
          fc->form == GST_CTF_FIELD_FORM_LEB128)
        return FALSE;
      op.fc = fc;
      op.idx = idx;
      g_array_append_val (ops, op);
      return TRUE;
    case GST_CTF_FIELD_CLASS_STRUCT:
      if (vals[idx].v.u != fc->n_members)
        return FALSE;
      if (op.align > 1)
        g_array_append_val (ops, op);
      for (k = 0; k < fc->n_members; k++)
        if (!flat_build (fc->members[k].fc, vals, n, i, ops, has_variant,
                depth + 1))
          return FALSE;
      return TRUE;
    case GST_CTF_FIELD_CLASS_ARRAY:
      if (fc->element == NULL || is_text_element (fc->element)
          || vals[idx].v.u != fc->length || fc->length > MAX_TEMPLATE_VALUES)
        return FALSE;
      if (op.align > 1)
        g_array_append_val (ops, op);
      for (k = 0; k < fc->length; k++)
        if (!flat_build (fc->element, vals, n, i, ops, has_variant,
                depth + 1))
          return FALSE;
      return TRUE;
    case GST_CTF_FIELD_CLASS_VARIANT:
      if (vals[idx].v.u >= fc->n_members ||
          fc->form == GST_CTF_FIELD_FORM_OPTIONAL)
        return FALSE;
      *has_variant = TRUE;
      if (op.align > 1)
        g_array_append_val (ops, op);
      return flat_build (fc->members[vals[idx].v.u].fc, vals, n, i, ops,
          has_variant, depth + 1);
    default:
      return FALSE;
  }
}

/* Flattens a scope's template; leaves @f empty when it cannot. */
void
_gst_ctf_pw_flat_init (Flat * f, const GstCtfFieldClass * fc,
    const GstCtfFieldValue * vals, guint n)
{
  GArray *ops = g_array_new (FALSE, FALSE, sizeof (FlatOp));
  guint i = 0;
  gboolean has_variant = FALSE;

  memset (f, 0, sizeof (*f));
  if (fc != NULL && vals != NULL
      && flat_build (fc, vals, n, &i, ops, &has_variant, 0) && i == n
      && ops->len > 0) {
    guint k, out = 0, pending = 1;

    /* an align-only step merges into the next field's alignment (both
     * powers of two: aligning to one then the other is aligning to the
     * larger); only a trailing one stays */
    for (k = 0; k < ops->len; k++) {
      FlatOp op = g_array_index (ops, FlatOp, k);

      pending = MAX (pending, op.align);
      if (op.fc == NULL && k + 1 < ops->len)
        continue;
      op.align = pending;
      pending = 1;
      g_array_index (ops, FlatOp, out++) = op;
    }
    g_array_set_size (ops, out);
    f->n_ops = ops->len;
    f->ops = (FlatOp *) g_array_free (ops, FALSE);
    f->n_vals = n;
    f->has_variant = has_variant;
  } else {
    g_array_free (ops, TRUE);
  }
}

/* --- templates ----------------------------------------------------------- */

typedef struct {
  GArray *vals;                 /* GstCtfFieldValue */
  GArray *choices;              /* guint, option of the k-th variant met */
  GArray *radix;                /* guint, options of the k-th variant met */
  guint k;
  gboolean bad;
  guint8 *zeros;
  gsize n_zeros;
} TBuild;

static void
tbuild (TBuild * b, const GstCtfFieldClass * fc, const gchar * name,
    guint depth)
{
  GstCtfFieldValue v = { fc, name, 0, {0} };
  guint idx = b->vals->len;
  guint64 k;
  guint i;

  if (depth > MAX_DEPTH || b->vals->len >= MAX_TEMPLATE_VALUES) {
    b->bad = TRUE;
    return;
  }
  g_array_append_val (b->vals, v);
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_STRING:
      g_array_index (b->vals, GstCtfFieldValue, idx).v.s.ptr = "";
      break;
    case GST_CTF_FIELD_CLASS_STRUCT:
      g_array_index (b->vals, GstCtfFieldValue, idx).v.u = fc->n_members;
      for (i = 0; i < fc->n_members && !b->bad; i++)
        tbuild (b, fc->members[i].fc, fc->members[i].name, depth + 1);
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
      if (fc->element == NULL || fc->length > MAX_TEMPLATE_VALUES) {
        b->bad = TRUE;
        break;
      }
      if (is_text_element (fc->element)) {
        if (fc->length > b->n_zeros)
          b->bad = TRUE;
        g_array_index (b->vals, GstCtfFieldValue, idx).v.s.ptr =
            (const gchar *) b->zeros;
        g_array_index (b->vals, GstCtfFieldValue, idx).v.s.len = fc->length;
        break;
      }
      g_array_index (b->vals, GstCtfFieldValue, idx).v.u = fc->length;
      for (k = 0; k < fc->length && !b->bad; k++)
        tbuild (b, fc->element, NULL, depth + 1);
      break;
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      /* empty: its length field defaults to 0 too */
      if (fc->element && is_text_element (fc->element))
        g_array_index (b->vals, GstCtfFieldValue, idx).v.s.ptr = "";
      break;
    case GST_CTF_FIELD_CLASS_VARIANT:{
      guint kk = b->k++;
      guint choice;

      if (fc->n_members == 0) {
        b->bad = TRUE;
        break;
      }
      if (kk >= b->choices->len) {
        guint zero = 0;

        g_array_append_val (b->choices, zero);
      }
      choice = g_array_index (b->choices, guint, kk);
      g_array_set_size (b->radix, MAX (b->radix->len, kk + 1));
      g_array_index (b->radix, guint, kk) = fc->n_members;
      g_array_index (b->vals, GstCtfFieldValue, idx).v.u = choice;
      tbuild (b, fc->members[choice].fc, fc->members[choice].name, depth + 1);
      break;
    }
    default:
      break;
  }
  g_array_index (b->vals, GstCtfFieldValue, idx).end = b->vals->len;
}

void
_gst_ctf_pw_layout_clear (Layout * l)
{
  g_free (l->vals);
  g_free (l->ids);
  g_free (l->ts);
  g_free (l->id_tagged);
  g_free (l->flat.ops);
}

static gint
find_template_index (const GstCtfFieldValue * vals, guint before,
    const GstCtfFieldClass * fc)
{
  guint j;

  for (j = 0; j < before; j++) {
    if (vals[j].fc == fc)
      return j;
  }
  return -1;
}

/* Finishes a layout from its template: forces the tags, finds the id and
 * clock fields.  Returns FALSE when the combination cannot be written. */
static gboolean
layout_init (GstCtfPacketWriter * w, Layout * l, GArray * vals,
    GError ** error)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *ts = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *tagged = g_array_new (FALSE, FALSE, sizeof (VariantChoice));
  GstCtfFieldValue *v = (GstCtfFieldValue *) vals->data;
  guint n = vals->len, i, j;
  gint final_id = -1;
  gboolean ok = TRUE;
  guint8 *forced = g_new0 (guint8, n);

  for (i = 0; i < n; i++) {
    const GstCtfFieldClass *fc = v[i].fc;

    if (fc->type == GST_CTF_FIELD_CLASS_INTEGER
        || fc->type == GST_CTF_FIELD_CLASS_ENUM) {
      if (fc->meaning == GST_CTF_MEANING_EVENT_CLASS_ID) {
        g_array_append_val (ids, i);
        final_id = i;
      } else if (fc->integer.mapped_clock != NULL
          && !fc->integer.is_signed) {
        /* what a reader updates its clock from (babeltrace2: unsigned
         * clock-mapped integers) */
        g_array_append_val (ts, i);
      }
    }
  }
  for (i = 0; i < n && ok; i++) {
    const GstCtfFieldClass *fc = v[i].fc;
    const GstCtfFieldClass *tag;
    gint ti;
    guint opt = (guint) v[i].v.u;
    gboolean found = FALSE;

    if (fc->type != GST_CTF_FIELD_CLASS_VARIANT)
      continue;
    tag = fc->ref_target;
    ti = tag ? find_template_index (v, i, tag) : -1;
    if (ti < 0 || tag->type != GST_CTF_FIELD_CLASS_ENUM) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
          "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
          ", variant=\"%s\", tag=\"%s\", expected an enumeration tag in the "
          "event header", w->sc->id, v[i].name ? v[i].name : "",
          fc->ref_path ? fc->ref_path : "");
      ok = FALSE;
      break;
    }
    if (ti == final_id) {
      VariantChoice vc = { fc, opt };

      g_array_append_val (tagged, vc);
    }
    /* a value whose label selects the option: the lowest of the first
     * mapping that does (this is what LTTng writes: 31 for `extended`) */
    for (j = 0; j < tag->enumeration.n_mappings; j++) {
      if (_gst_ctf_pw_variant_option_for (w, fc, tag->enumeration.mappings[j].lower)
          == (gint) opt) {
        if (forced[ti] && v[ti].v.u != tag->enumeration.mappings[j].lower)
          continue;
        v[ti].v.u = tag->enumeration.mappings[j].lower;
        forced[ti] = 1;
        found = TRUE;
        break;
      }
    }
    if (!found)
      ok = FALSE;               /* this combination cannot be selected */
  }
  g_free (forced);
  if (ok) {
    l->n_vals = n;
    l->vals = g_memdup2 (v, n * sizeof (GstCtfFieldValue));
    l->n_ids = ids->len;
    l->ids = (guint *) g_array_free (ids, FALSE);
    l->n_ts = ts->len;
    l->ts = (guint *) g_array_free (ts, FALSE);
    l->n_id_tagged = tagged->len;
    l->id_tagged = (VariantChoice *) g_array_free (tagged, FALSE);
  } else {
    g_array_free (ids, TRUE);
    g_array_free (ts, TRUE);
    g_array_free (tagged, TRUE);
  }
  return ok;
}

static gint
layout_cmp (gconstpointer a, gconstpointer b)
{
  const Layout *la = a, *lb = b;

  if (la->bits != lb->bits)
    return la->bits < lb->bits ? -1 : 1;
  return la->order < lb->order ? -1 : (la->order > lb->order);
}

gboolean
_gst_ctf_pw_build_layouts (GstCtfPacketWriter * w, GError ** error)
{
  const GstCtfFieldClass *eh = w->sc->event_header;
  GArray *layouts = g_array_new (FALSE, TRUE, sizeof (Layout));
  TBuild b = { 0, };
  gboolean ok = TRUE;
  guint order = 0;

  b.choices = g_array_new (FALSE, TRUE, sizeof (guint));
  b.radix = g_array_new (FALSE, TRUE, sizeof (guint));
  b.zeros = w->zeros;
  b.n_zeros = 4096;

  if (eh == NULL) {
    Layout l = { 0, };

    g_array_append_val (layouts, l);
  }
  while (eh != NULL) {
    Layout l = { 0, };
    gint j;

    b.vals = g_array_new (FALSE, TRUE, sizeof (GstCtfFieldValue));
    b.k = 0;
    b.bad = FALSE;
    g_array_set_size (b.radix, 0);
    tbuild (&b, eh, NULL, 0);
    g_array_set_size (b.choices, b.k);
    if (b.bad) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
          "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
          ", expected a header of bounded size", w->sc->id);
      g_array_free (b.vals, TRUE);
      ok = FALSE;
      break;
    }
    if (layout_init (w, &l, b.vals, error)) {
      Cursor c = { l.vals, l.n_vals, 0 };

      l.order = order++;
      /* measure: a dry encode from bit 0 */
      w->dry = TRUE;
      w->pos = 0;
      w->scope = GST_CTF_SCOPE_EVENT_HEADER;
      if (_gst_ctf_pw_encode_field (w, eh, &c, 0, NULL)) {
        l.bits = w->pos;
        g_array_append_val (layouts, l);
      } else {
        _gst_ctf_pw_layout_clear (&l);
      }
      w->dry = FALSE;
      w->pos = 0;
    } else if (error && *error) {
      g_array_free (b.vals, TRUE);
      ok = FALSE;
      break;
    }
    g_array_free (b.vals, TRUE);
    if (layouts->len > MAX_LAYOUTS) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
          "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
          ", expected at most %d variant option combinations", w->sc->id,
          MAX_LAYOUTS);
      ok = FALSE;
      break;
    }
    /* next combination (mixed-radix odometer over the variants met) */
    for (j = (gint) b.k - 1; j >= 0; j--) {
      guint *ch = &g_array_index (b.choices, guint, j);

      if (*ch + 1 < g_array_index (b.radix, guint, j)) {
        (*ch)++;
        g_array_set_size (b.choices, j + 1);
        break;
      }
    }
    if (j < 0)
      break;
  }
  g_array_free (b.choices, TRUE);
  g_array_free (b.radix, TRUE);
  if (ok && layouts->len == 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
        ", no variant option combination can be selected by its tags",
        w->sc->id);
    ok = FALSE;
  }
  if (!ok) {
    guint i;

    for (i = 0; i < layouts->len; i++)
      _gst_ctf_pw_layout_clear (&g_array_index (layouts, Layout, i));
    g_array_free (layouts, TRUE);
    return FALSE;
  }
  g_array_sort (layouts, layout_cmp);
  w->n_layouts = layouts->len;
  w->layouts = (Layout *) g_array_free (layouts, FALSE);
  for (order = 0; order < w->n_layouts; order++) {
    Layout *l = &w->layouts[order];

    _gst_ctf_pw_flat_init (&l->flat, eh, l->vals, l->n_vals);
  }
  return TRUE;
}

GstCtfFieldValue *
_gst_ctf_pw_build_simple_template (GstCtfPacketWriter * w, const GstCtfFieldClass * fc,
    guint * n)
{
  TBuild b = { 0, };
  GstCtfFieldValue *ret = NULL;

  *n = 0;
  if (fc == NULL)
    return NULL;
  b.vals = g_array_new (FALSE, TRUE, sizeof (GstCtfFieldValue));
  b.choices = g_array_new (FALSE, TRUE, sizeof (guint));
  b.radix = g_array_new (FALSE, TRUE, sizeof (guint));
  b.zeros = w->zeros;
  b.n_zeros = 4096;
  tbuild (&b, fc, NULL, 0);
  if (!b.bad) {
    *n = b.vals->len;
    ret = (GstCtfFieldValue *) g_array_free (b.vals, FALSE);
  } else {
    g_array_free (b.vals, TRUE);
  }
  g_array_free (b.choices, TRUE);
  g_array_free (b.radix, TRUE);
  return ret;
}

/* CTF 1.8 §8 */
static inline guint64
reconstruct (guint64 cur, guint64 v, guint size)
{
  guint64 mask;

  if (size >= 64)
    return v;
  mask = (G_GUINT64_CONSTANT (1) << size) - 1;
  if (v < (cur & mask))
    cur += mask + 1;
  return (cur & ~mask) | v;
}

static inline guint64
int_max (const GstCtfFieldClass * fc)
{
  guint size = fc->integer.size - (fc->integer.is_signed ? 1 : 0);

  return size >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << size) - 1;
}

/* Whether @l's id fields can hold event class id @id (its last id field
 * is wide enough, the variants it tags select this layout's options). */
static gboolean
layout_ids_ok (GstCtfPacketWriter * w, const Layout * l, guint64 id)
{
  guint i;

  if (l->n_ids > 0) {
    const GstCtfFieldClass *fc = l->vals[l->ids[l->n_ids - 1]].fc;

    if (id > int_max (fc))
      return FALSE;
    for (i = 0; i < l->n_id_tagged; i++) {
      if (_gst_ctf_pw_variant_option_for (w, l->id_tagged[i].variant, id)
          != (gint) l->id_tagged[i].option)
        return FALSE;
    }
  }
  return TRUE;
}

/* Fills @l's id and clock fields for the event, whose id layout_ids_ok()
 * accepted; FALSE when the layout cannot give back the clock value. */
static gboolean
layout_fill (GstCtfPacketWriter * w, Layout * l, guint64 id, guint64 base,
    guint64 clock)
{
  guint i;
  guint64 cur = base;

  for (i = 0; i < l->n_ts; i++) {
    const GstCtfFieldClass *fc = l->vals[l->ts[i]].fc;
    guint size = fc->integer.size;
    guint64 low = size >= 64 ? clock :
        clock & ((G_GUINT64_CONSTANT (1) << size) - 1);

    /* LTTng's rule: the bits above N must equal those of the previous
     * event of the stream (0 before the first one) */
    if (!w->allow_wrap && size < 64
        && (clock >> size) != (w->stream_last_clock >> size))
      return FALSE;
    cur = reconstruct (cur, low, size);
    l->vals[l->ts[i]].v.u = low;
  }
  if (cur != clock)
    return FALSE;
  for (i = 0; i < l->n_ids; i++) {
    GstCtfFieldValue *v = &l->vals[l->ids[i]];

    if (i == l->n_ids - 1)
      v->v.u = id;
    else if (v->fc->type != GST_CTF_FIELD_CLASS_ENUM
        || v->fc->value_slot < 0)
      /* an id field that is not a tag: anything, the last id wins */
      v->v.u = MIN (id, int_max (v->fc));
  }
  return TRUE;
}

/* Whether @root's tree holds the node @node. */
static gboolean
fc_contains (const GstCtfFieldClass * root, const GstCtfFieldClass * node,
    guint depth)
{
  guint i;

  if (root == NULL || depth > MAX_DEPTH)
    return FALSE;
  if (root == node)
    return TRUE;
  for (i = 0; i < root->n_members; i++)
    if (fc_contains (root->members[i].fc, node, depth + 1))
      return TRUE;
  return fc_contains (root->element, node, depth + 1);
}

/* The largest alignment in @fc's tree (bits, at least 1), or 0 when the
 * body it belongs to cannot be copied as bytes: a length or tag that
 * lives in the event header (the writer writes its own header), or a tree
 * deeper than MAX_DEPTH. */
static guint
body_fc_align (GstCtfPacketWriter * w, const GstCtfFieldClass * fc,
    guint depth)
{
  guint a, i, sub;

  if (fc == NULL)
    return 1;
  if (depth > MAX_DEPTH)
    return 0;
  if (fc->ref_target != NULL
      && fc_contains (w->sc->event_header, fc->ref_target, 0))
    return 0;
  a = MAX (fc->alignment, 1);
  for (i = 0; i < fc->n_members; i++) {
    sub = body_fc_align (w, fc->members[i].fc, depth + 1);
    if (sub == 0)
      return 0;
    a = MAX (a, sub);
  }
  if (fc->element != NULL) {
    sub = body_fc_align (w, fc->element, depth + 1);
    if (sub == 0)
      return 0;
    a = MAX (a, sub);
  }
  return a;
}

void
_gst_ctf_pw_ec_info_fill (GstCtfPacketWriter * w, EcInfo * e,
    const GstCtfEventClass * ec)
{
  guint i, a, b;

  e->ec = ec;
  a = body_fc_align (w, w->sc->event_common_context, 0);
  b = a ? body_fc_align (w, ec->context, 0) : 0;
  a = b ? MAX (a, b) : 0;
  b = a ? body_fc_align (w, ec->payload, 0) : 0;
  a = b ? MAX (a, b) : 0;
  e->body_align = a ? MAX (a, 8) : 0;
  e->id_ok = 0;
  for (i = 0; i < MIN (w->n_layouts, 64); i++)
    if (layout_ids_ok (w, &w->layouts[i], ec->id))
      e->id_ok |= G_GUINT64_CONSTANT (1) << i;
}

/* The smallest layout for the event (filled), or NULL (error set). */
Layout *
_gst_ctf_pw_choose_layout (GstCtfPacketWriter * w, const EcInfo * e,
    guint64 clock_value, GError ** error)
{
  const GstCtfEventClass *ec = e->ec;
  guint64 base = w->clock;
  guint i;

  if (w->n_events == 0 && w->has_tb_field && !w->params.has_timestamp_begin)
    base = clock_value;         /* timestamp_begin will be this event's */

  for (i = 0; i < w->n_layouts; i++) {
    Layout *l = &w->layouts[i];

    if (i < 64 ? !(e->id_ok & (G_GUINT64_CONSTANT (1) << i))
        : !layout_ids_ok (w, l, ec->id))
      continue;
    if (layout_fill (w, l, ec->id, base, clock_value))
      return l;
  }
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
      "Cannot write event header: stream-class-id=%" G_GUINT64_FORMAT
      ", event-class-id=%" G_GUINT64_FORMAT ", event-class-name=\"%s\", "
      "clock-value=%" G_GUINT64_FORMAT ", previous-clock-value=%"
      G_GUINT64_FORMAT ", expected a header layout that holds the id and "
      "gives back the clock value", w->sc->id, ec->id,
      ec->name ? ec->name : "", clock_value, base);
  return NULL;
}
