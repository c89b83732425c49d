/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: printing of enumeration values as babeltrace2's
 * `sink.text.pretty` does (the labels whose ranges hold the value, then
 * the container integer), for gstctf-text-values.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-text-private.h"

#define append_escaped _gst_ctf_text_append_escaped
#define append_integer _gst_ctf_text_append_integer

static gboolean
mapping_matches (const GstCtfFieldClass * fc, const GstCtfEnumMapping * m,
    const GstCtfFieldValue * v)
{
  if (fc->integer.is_signed)
    return v->v.i >= (gint64) m->lower && v->v.i <= (gint64) m->upper;
  return v->v.u >= m->lower && v->v.u <= m->upper;
}

/* Labels in babeltrace2's order: one entry per distinct label, ordered by
 * the label's first appearance in the enumeration, each label once,
 * printed when any of its ranges holds the value.  The grouping and the
 * escaped labels are made once per enumeration class. */
typedef struct {
  guint n_groups;
  guint *order;                 /* mapping indices, grouped by label */
  guint *group_start;           /* n_groups + 1 offsets in order */
  guint *label_off;             /* n_groups + 1 offsets in labels */
  GString *labels;              /* the escaped labels, one after another */
} EnumInfo;

void
_gst_ctf_text_enum_info_free (gpointer data)
{
  EnumInfo *e = data;

  g_free (e->order);
  g_free (e->group_start);
  g_free (e->label_off);
  g_string_free (e->labels, TRUE);
  g_free (e);
}

static EnumInfo *
enum_info_new (const GstCtfFieldClass * fc)
{
  const GstCtfEnumMapping *maps = fc->enumeration.mappings;
  guint n = fc->enumeration.n_mappings;
  EnumInfo *e = g_new0 (EnumInfo, 1);
  /* label -> group + 1; the NULL label is its own group (g_strcmp0) */
  GHashTable *groups = g_hash_table_new (g_str_hash, g_str_equal);
  guint null_group = 0;
  guint *group_of = g_new (guint, MAX (n, 1));
  guint *count = g_new0 (guint, n + 1);
  guint i, g;

  e->order = g_new (guint, MAX (n, 1));
  e->group_start = g_new0 (guint, n + 1);
  e->label_off = g_new0 (guint, n + 1);
  e->labels = g_string_new (NULL);
  for (i = 0; i < n; i++) {
    const gchar *label = maps[i].label;
    guint grp = label ? GPOINTER_TO_UINT (g_hash_table_lookup (groups,
            label)) : null_group;

    if (grp == 0) {
      grp = ++e->n_groups;
      if (label)
        g_hash_table_insert (groups, (gpointer) label, GUINT_TO_POINTER (grp));
      else
        null_group = grp;
      e->label_off[grp - 1] = (guint) e->labels->len;
      append_escaped (e->labels, label ? label : "", label ? strlen (label) :
          0);
    }
    group_of[i] = grp - 1;
    count[grp - 1]++;
  }
  e->label_off[e->n_groups] = (guint) e->labels->len;
  for (g = 0; g < e->n_groups; g++)
    e->group_start[g + 1] = e->group_start[g] + count[g];
  /* (count becomes the fill position) */
  for (g = 0; g < e->n_groups; g++)
    count[g] = e->group_start[g];
  for (i = 0; i < n; i++)
    e->order[count[group_of[i]]++] = i;
  g_free (count);
  g_free (group_of);
  g_hash_table_unref (groups);
  return e;
}

void
_gst_ctf_text_append_enum (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldClass * fc, const GstCtfFieldValue * v)
{
  const GstCtfEnumMapping *maps = fc->enumeration.mappings;
  const EnumInfo *e;
  guint g, i, printed = 0;

  if (fc == f->last_enum_fc) {
    e = f->last_enum;
  } else {
    e = g_hash_table_lookup (f->enums, fc);
    if (e == NULL) {
      e = enum_info_new (fc);
      g_hash_table_insert (f->enums, (gpointer) fc, (gpointer) e);
    }
    f->last_enum_fc = fc;
    f->last_enum = e;
  }

  put_lit (s, "( ");
  for (g = 0; g < e->n_groups; g++) {
    for (i = e->group_start[g]; i < e->group_start[g + 1]; i++) {
      if (mapping_matches (fc, &maps[e->order[i]], v))
        break;
    }
    if (i == e->group_start[g + 1])
      continue;
    if (printed++ > 0)
      put_lit (s, ", ");
    put (s, e->labels->str + e->label_off[g], e->label_off[g + 1] -
        e->label_off[g]);
  }
  if (printed == 0)
    put_lit (s, "<unknown>");
  put_lit (s, " : container = ");
  append_integer (s, fc, v);
  put_lit (s, " )");
}
