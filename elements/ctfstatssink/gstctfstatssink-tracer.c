/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ctfstatssink: processing time and latency summaries of a ctftracer
 * trace (see gstctfstatssink-tracer.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstctfstatssink-tracer.h"

struct _GstCtfTracerStats
{
  GHashTable *element_names;    /* element id -> name */
  GHashTable *pad_names;        /* pad id -> "element.pad" */
  GHashTable *proctime;         /* element id -> GArray of guint64 */
  GHashTable *latency;          /* src << 16 | sink -> GArray of guint64 */
};

static void
array_free (gpointer a)
{
  g_array_free (a, TRUE);
}

GstCtfTracerStats *
gst_ctf_tracer_stats_new (void)
{
  GstCtfTracerStats *ts = g_new0 (GstCtfTracerStats, 1);

  ts->element_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  ts->pad_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  ts->proctime = g_hash_table_new_full (NULL, NULL, NULL, array_free);
  ts->latency = g_hash_table_new_full (NULL, NULL, NULL, array_free);
  return ts;
}

void
gst_ctf_tracer_stats_free (GstCtfTracerStats * ts)
{
  g_hash_table_unref (ts->element_names);
  g_hash_table_unref (ts->pad_names);
  g_hash_table_unref (ts->proctime);
  g_hash_table_unref (ts->latency);
  g_free (ts);
}

static const GstCtfFieldValue *
field (const GstCtfFieldValue * v, guint n, const gchar * name)
{
  guint i;

  for (i = 1; v && i < n && i < v[0].end && v[i].end > i; i = v[i].end)
    if (v[i].name && !strcmp (v[i].name, name) && v[i].fc)
      return &v[i];
  return NULL;
}

static gboolean
field_u (const GstCtfFieldValue * v, guint n, const gchar * name,
    guint64 * out)
{
  const GstCtfFieldValue *f = field (v, n, name);

  if (f == NULL || f->fc->type != GST_CTF_FIELD_CLASS_INTEGER)
    return FALSE;
  *out = f->v.u;
  return TRUE;
}

static gchar *
field_s (const GstCtfFieldValue * v, guint n, const gchar * name)
{
  const GstCtfFieldValue *f = field (v, n, name);

  if (f == NULL || f->fc->type != GST_CTF_FIELD_CLASS_STRING)
    return NULL;
  return g_strndup (f->v.s.ptr, f->v.s.len);
}

static void
add_value (GHashTable * h, guint64 key, guint64 value)
{
  GArray *a = g_hash_table_lookup (h, GSIZE_TO_POINTER (key));

  if (a == NULL) {
    a = g_array_new (FALSE, FALSE, sizeof (guint64));
    g_hash_table_insert (h, GSIZE_TO_POINTER (key), a);
  }
  g_array_append_val (a, value);
}

void
gst_ctf_tracer_stats_add (GstCtfTracerStats * ts, const gchar * name,
    const GstCtfFieldValue * v, guint n)
{
  guint64 a, b, t;

  if (!strcmp (name, "proctime")) {
    if (field_u (v, n, "element", &a) && field_u (v, n, "time", &t))
      add_value (ts->proctime, a, t);
  } else if (!strcmp (name, "latency")) {
    if (field_u (v, n, "src_pad", &a) && field_u (v, n, "sink_pad", &b) &&
        field_u (v, n, "time", &t))
      add_value (ts->latency, (a << 16) | (b & 0xffff), t);
  } else if (!strcmp (name, "element_new")) {
    gchar *nm = field_s (v, n, "name");

    if (nm != NULL && field_u (v, n, "element", &a))
      g_hash_table_insert (ts->element_names, GSIZE_TO_POINTER (a), nm);
    else
      g_free (nm);
  } else if (!strcmp (name, "pad_new")) {
    gchar *en = field_s (v, n, "element_name"), *pn = field_s (v, n, "name");

    if (en != NULL && pn != NULL && field_u (v, n, "pad", &a) &&
        field_u (v, n, "element", &b)) {
      g_hash_table_insert (ts->pad_names, GSIZE_TO_POINTER (a),
          g_strdup_printf ("%s.%s", en, pn));
      /* the element's final name (element_new has it at creation) */
      g_hash_table_insert (ts->element_names, GSIZE_TO_POINTER (b),
          g_strdup (en));
    }
    g_free (en);
    g_free (pn);
  }
}

typedef struct
{
  gchar *label;
  guint64 count, min, p50, p99, max;
  gdouble mean;
} Summary;

static gint
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static gint
cmp_label (gconstpointer a, gconstpointer b)
{
  return strcmp (((const Summary *) a)->label, ((const Summary *) b)->label);
}

/* nearest-rank percentile */
static guint64
rank (GArray * a, guint pct)
{
  guint64 r = ((guint64) a->len * pct + 99) / 100;

  return g_array_index (a, guint64, r > 0 ? r - 1 : 0);
}

static GArray *
summaries (GstCtfTracerStats * ts, gboolean latency)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Summary));
  GHashTableIter it;
  gpointer k, v;

  g_hash_table_iter_init (&it, latency ? ts->latency : ts->proctime);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    GArray *a = v;
    guint64 key = GPOINTER_TO_SIZE (k);
    Summary s = { 0, };
    gdouble sum = 0;
    guint i;

    g_array_sort (a, cmp_u64);
    for (i = 0; i < a->len; i++)
      sum += g_array_index (a, guint64, i);
    if (latency) {
      const gchar *src = g_hash_table_lookup (ts->pad_names,
          GSIZE_TO_POINTER (key >> 16));
      const gchar *sink = g_hash_table_lookup (ts->pad_names,
          GSIZE_TO_POINTER (key & 0xffff));

      s.label = g_strdup_printf ("%s -> %s", src ? src : "?",
          sink ? sink : "?");
    } else {
      const gchar *e = g_hash_table_lookup (ts->element_names, k);

      s.label = e ? g_strdup (e) : g_strdup_printf ("element %"
          G_GUINT64_FORMAT, key);
    }
    s.count = a->len;
    s.min = g_array_index (a, guint64, 0);
    s.max = g_array_index (a, guint64, a->len - 1);
    s.mean = sum / a->len;
    s.p50 = rank (a, 50);
    s.p99 = rank (a, 99);
    g_array_append_val (out, s);
  }
  g_array_sort (out, cmp_label);
  return out;
}

static void
free_summaries (GArray * a)
{
  guint i;

  for (i = 0; i < a->len; i++)
    g_free (g_array_index (a, Summary, i).label);
  g_array_free (a, TRUE);
}

void
gst_ctf_tracer_stats_append_text (GstCtfTracerStats * ts, GString * s)
{
  guint k, i;

  for (k = 0; k < 2; k++) {
    GArray *a = summaries (ts, k == 1);

    g_string_append_printf (s, "\n%s (ns): count min mean p50 p99 max\n",
        k == 0 ? "processing time per element" : "latency per path");
    for (i = 0; i < a->len; i++) {
      const Summary *m = &g_array_index (a, Summary, i);

      g_string_append_printf (s, "  %s: %" G_GUINT64_FORMAT " %"
          G_GUINT64_FORMAT " %.0f %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
          " %" G_GUINT64_FORMAT "\n", m->label, m->count, m->min, m->mean,
          m->p50, m->p99, m->max);
    }
    free_summaries (a);
  }
}

void
gst_ctf_tracer_stats_append_json (GstCtfTracerStats * ts, GString * s,
    void (*json_string) (GString *, const gchar *))
{
  guint k, i;

  g_string_append (s, ", \"ctftracer\": {");
  for (k = 0; k < 2; k++) {
    GArray *a = summaries (ts, k == 1);

    g_string_append (s, k == 0 ? "\"proctime\": {" : ", \"latency\": {");
    for (i = 0; i < a->len; i++) {
      const Summary *m = &g_array_index (a, Summary, i);

      g_string_append (s, i ? ", " : "");
      json_string (s, m->label);
      g_string_append_printf (s, ": {\"count\": %" G_GUINT64_FORMAT
          ", \"min\": %" G_GUINT64_FORMAT ", \"mean\": %.1f, \"p50\": %"
          G_GUINT64_FORMAT ", \"p99\": %" G_GUINT64_FORMAT ", \"max\": %"
          G_GUINT64_FORMAT "}", m->count, m->min, m->mean, m->p50, m->p99,
          m->max);
    }
    g_string_append_c (s, '}');
    free_summaries (a);
  }
  g_string_append_c (s, '}');
}
