/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: printing of enumeration values as babeltrace2's
 * `sink.text.pretty` does (the labels whose ranges hold the value, then
 * the container integer), for gstctf-text-values.c.
 *
 * The labels of a value are printed in the order of babeltrace2's label
 * table for the enumeration.  babeltrace2 2.0 keeps one entry per
 * distinct label in the order labels first appear in the TSDL.  2.1
 * builds its table by iterating a C++ `std::unordered_map<std::string,
 * ...>` filled in that first-appearance order, so its order is the one
 * of GCC's libstdc++ hash table (babeltrace2 2.1.2 as built for Debian
 * 12, GCC 12): label_table_order() replays it.
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

/* Labels in babeltrace2's order: one entry (group) per distinct label,
 * groups numbered by the label's first appearance in the enumeration and
 * printed in print_order, each label once, when any of its ranges holds
 * the value.  The grouping, the order and the escaped labels are made once
 * per enumeration class. */
typedef struct {
  guint n_groups;
  guint *print_order;           /* groups in babeltrace2's table order */
  guint *order;                 /* mapping indices, grouped by label */
  guint *group_start;           /* n_groups + 1 offsets in order */
  guint *label_off;             /* n_groups + 1 offsets in labels */
  GString *labels;              /* the escaped labels, one after another */
} EnumInfo;

void
_gst_ctf_text_enum_info_free (gpointer data)
{
  EnumInfo *e = data;

  g_free (e->print_order);
  g_free (e->order);
  g_free (e->group_start);
  g_free (e->label_off);
  g_string_free (e->labels, TRUE);
  g_free (e);
}

/* ------------------------------------------------------------------ */
/* babeltrace2 2.1's label order: a libstdc++ std::unordered_map        */

/* libstdc++'s std::hash<std::string> on 64-bit targets (_Hash_bytes with
 * its fixed seed: a MurmurHash2-64A variant on 8-byte little-endian
 * words, the tail bytes read as one little-endian word). */
static guint64
libstdcxx_shift_mix (guint64 v)
{
  return v ^ (v >> 47);
}

static guint64
libstdcxx_string_hash (const gchar * p, gsize len)
{
  const guint64 mul = (G_GUINT64_CONSTANT (0xc6a4a793) << 32) +
      G_GUINT64_CONSTANT (0x5bd1e995);
  gsize whole = len & ~(gsize) 7, i;
  guint64 h = G_GUINT64_CONSTANT (0xc70f6907) ^ ((guint64) len * mul);

  for (i = 0; i < whole; i += 8) {
    guint64 w;

    memcpy (&w, p + i, 8);
    w = GUINT64_FROM_LE (w);
    h ^= libstdcxx_shift_mix (w * mul) * mul;
    h *= mul;
  }
  if (len & 7) {
    guint64 w = 0;
    gsize k;

    for (k = len & 7; k > 0; k--)
      w = (w << 8) + (guchar) p[whole + k - 1];
    h ^= w;
    h *= mul;
  }
  h = libstdcxx_shift_mix (h) * mul;
  return libstdcxx_shift_mix (h);
}

/* The bucket counts a libstdc++ hash table (maximum load factor 1) goes
 * through as unique keys are inserted one by one: 13 buckets at the first
 * insertion, then the next count when the table would hold more elements
 * than buckets (checked against GCC 12's std::unordered_map up to 24 M
 * elements). */
static const guint32 libstdcxx_bucket_counts[] = {
  13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229,
  172933, 351061, 712697, 1447153, 2938679, 5967347, 12117689, 24607243,
};

#define UM_EMPTY (-1)           /* bucket with no element */
#define UM_HEAD (-2)            /* bucket whose first element is the list's */

/* Fills @out with 0 .. @n - 1 in the iteration order of a libstdc++
 * std::unordered_map into which keys of hashes @hash[0], ... @hash[@n - 1]
 * were inserted in that order (all distinct).  The table is a singly
 * linked list of its elements, each bucket's elements next to each
 * other; a bucket points to the element before its first (UM_HEAD: the
 * list head).  An element goes first in its bucket, a new bucket goes
 * first in the list; growing relinks the list in order, each element
 * first in its new bucket.  Returns FALSE beyond the bucket counts
 * known. */
static gboolean
label_table_order (const guint64 * hash, guint n, guint * out)
{
  gint *next = g_new (gint, MAX (n, 1));
  gint *bucket = NULL;
  gint head = -1;
  guint nb = 0, level = 0, count, i;
  gboolean ok = TRUE;

  for (count = 0; count < n; count++) {
    guint b;

    if (count + 1 > nb) {
      /* grow: relink the list into the new buckets */
      gint p = head, first_bucket = 0;

      if (level >= G_N_ELEMENTS (libstdcxx_bucket_counts)) {
        ok = FALSE;
        break;
      }
      nb = libstdcxx_bucket_counts[level++];
      g_free (bucket);
      bucket = g_new (gint, nb);
      for (i = 0; i < nb; i++)
        bucket[i] = UM_EMPTY;
      head = -1;
      while (p >= 0) {
        gint after = next[p];

        b = (guint) (hash[p] % nb);
        if (bucket[b] == UM_EMPTY) {
          next[p] = head;
          head = p;
          bucket[b] = UM_HEAD;
          if (next[p] >= 0)
            bucket[first_bucket] = p;
          first_bucket = (gint) b;
        } else if (bucket[b] == UM_HEAD) {
          next[p] = head;
          head = p;
        } else {
          next[p] = next[bucket[b]];
          next[bucket[b]] = p;
        }
        p = after;
      }
    }
    b = (guint) (hash[count] % nb);
    if (bucket[b] == UM_EMPTY) {
      next[count] = head;
      head = (gint) count;
      if (next[count] >= 0)
        bucket[hash[next[count]] % nb] = (gint) count;
      bucket[b] = UM_HEAD;
    } else if (bucket[b] == UM_HEAD) {
      next[count] = head;
      head = (gint) count;
    } else {
      next[count] = next[bucket[b]];
      next[bucket[b]] = (gint) count;
    }
  }
  if (ok) {
    gint p;

    for (p = head, i = 0; p >= 0; p = next[p])
      out[i++] = (guint) p;
  }
  g_free (bucket);
  g_free (next);
  return ok;
}

/* @table_order: babeltrace2 2.1's label order for a CTF 1.8 trace (its
 * label table's); else the order of first appearance, which is also 2.1's
 * for CTF 2 metadata (the mappings in the order the metadata gives them). */
static EnumInfo *
enum_info_new (const GstCtfFieldClass * fc, gboolean table_order)
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

  e->print_order = g_new (guint, MAX (e->n_groups, 1));
  for (g = 0; g < e->n_groups; g++)
    e->print_order[g] = g;
  if (table_order && e->n_groups > 1) {
    guint64 *hash = g_new (guint64, e->n_groups);

    for (g = 0; g < e->n_groups; g++) {
      const gchar *label = maps[e->order[e->group_start[g]]].label;

      hash[g] = libstdcxx_string_hash (label ? label : "",
          label ? strlen (label) : 0);
    }
    /* (beyond 24 M labels: first-appearance order) */
    if (!label_table_order (hash, e->n_groups, e->print_order))
      for (g = 0; g < e->n_groups; g++)
        e->print_order[g] = g;
    g_free (hash);
  }
  g_free (count);
  g_free (group_of);
  g_hash_table_unref (groups);
  return e;
}

static gint
compare_labels (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* A CTF 2 bit map as babeltrace2 2.1 prints it: the value in
 * hexadecimal, then the flags with a set bit, sorted by name, each once:
 * `0x12 { "MEOW", "SALUT" }`. */
static void
append_bit_map (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldClass * fc, const GstCtfFieldValue * v)
{
  const GstCtfEnumMapping *maps = fc->enumeration.mappings;
  GPtrArray *set = g_ptr_array_new ();
  guint i;

  put_color (f, s, COLOR_VALUE);
  _gst_ctf_text_append_integer (s, fc, v);
  put_color (f, s, COLOR_RESET);
  for (i = 0; i < fc->enumeration.n_mappings; i++) {
    guint64 lo = maps[i].lower, hi = MIN (maps[i].upper, 63), mask;
    guint k;

    if (lo > 63)
      continue;
    mask = (hi - lo == 63) ? G_MAXUINT64 :
        ((G_GUINT64_CONSTANT (1) << (hi - lo + 1)) - 1) << lo;
    if ((v->v.u & mask) == 0)
      continue;
    for (k = 0; k < set->len; k++)
      if (strcmp (g_ptr_array_index (set, k), maps[i].label) == 0)
        break;
    if (k == set->len)
      g_ptr_array_add (set, maps[i].label);
  }
  if (set->len > 0) {
    g_ptr_array_sort (set, compare_labels);
    put_lit (s, " {");
    for (i = 0; i < set->len; i++) {
      if (i > 0)
        put_c (s, ',');
      put_c (s, ' ');
      put_color (f, s, COLOR_VALUE);
      append_escaped (s, g_ptr_array_index (set, i),
          strlen (g_ptr_array_index (set, i)));
      put_color (f, s, COLOR_RESET);
    }
    put_lit (s, " }");
  }
  g_ptr_array_free (set, TRUE);
}

void
_gst_ctf_text_append_enum (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldClass * fc, const GstCtfFieldValue * v)
{
  const GstCtfEnumMapping *maps = fc->enumeration.mappings;
  const EnumInfo *e;
  guint k, g, i, printed = 0;
  gsize start;

  if (fc->form == GST_CTF_FIELD_FORM_BIT_MAP) {
    append_bit_map (f, s, fc, v);
    return;
  }
  if (fc == f->last_enum_fc) {
    e = f->last_enum;
  } else {
    e = g_hash_table_lookup (f->enums, fc);
    if (e == NULL) {
      e = enum_info_new (fc, f->opts.babeltrace_version !=
          GST_CTF_BABELTRACE_2_0 && f->tc->major < 2);
      g_hash_table_insert (f->enums, (gpointer) fc, (gpointer) e);
    }
    f->last_enum_fc = fc;
    f->last_enum = e;
  }

  put_lit (s, "( ");
  start = s->len;
  for (k = 0; k < e->n_groups; k++) {
    g = e->print_order[k];
    for (i = e->group_start[g]; i < e->group_start[g + 1]; i++) {
      if (mapping_matches (fc, &maps[e->order[i]], v))
        break;
    }
    if (i == e->group_start[g + 1])
      continue;
    if (printed++ > 0)
      put_lit (s, ", ");
    put_color (f, s, COLOR_VALUE);
    put (s, e->labels->str + e->label_off[g], e->label_off[g + 1] -
        e->label_off[g]);
    put_color (f, s, COLOR_RESET);
  }
  if (printed == 0) {
    put_color (f, s, COLOR_UNKNOWN);
    put_lit (s, "<unknown>");
    put_color (f, s, COLOR_RESET);
  } else if (printed > 1 &&
      f->opts.babeltrace_version != GST_CTF_BABELTRACE_2_0) {
    /* babeltrace2 2.1 braces several labels (rare: made afterwards) */
    g_string_insert_len (s, start, "{ ", 2);
    put_lit (s, " }");
  }
  put_lit (s, " : container = ");
  put_color (f, s, COLOR_VALUE);
  append_integer (s, fc, v);
  put_color (f, s, COLOR_RESET);
  put_lit (s, " )");
}

const gchar **
_gst_ctf_text_enum_label_order (const GstCtfFieldClass * fc, guint * n)
{
  EnumInfo *e = enum_info_new (fc, TRUE);
  const gchar **labels = g_new0 (const gchar *, e->n_groups + 1);
  guint k;

  for (k = 0; k < e->n_groups; k++) {
    guint g = e->print_order[k];

    labels[k] = fc->enumeration.mappings[e->order[e->group_start[g]]].label;
  }
  *n = e->n_groups;
  _gst_ctf_text_enum_info_free (e);
  return labels;
}
