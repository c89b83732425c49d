/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Event name lists with globs and exclusions (`events=`), and id lists
 * such as CPU lists (`0,2-3`, as trace-cmd's `--cpu` and taskset write
 * them).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "gstctf-filter-expr.h"

struct _GstCtfNameList {
  GPtrArray *include;           /* GPatternSpec */
  GPtrArray *exclude;
};

struct _GstCtfIdList {
  GArray *ranges;               /* pairs of guint64: first, last */
};

static void
pattern_free (gpointer p)
{
  g_pattern_spec_free (p);
}

GstCtfNameList *
gst_ctf_name_list_parse (const gchar * text, GError ** error)
{
  GstCtfNameList *l;
  gchar **parts;
  guint i;

  if (text && !g_utf8_validate (text, -1, NULL)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX,
        "Event name list is not valid UTF-8");
    return NULL;
  }
  l = g_new0 (GstCtfNameList, 1);
  parts = g_strsplit (text ? text : "", ",", -1);
  l->include = g_ptr_array_new_with_free_func (pattern_free);
  l->exclude = g_ptr_array_new_with_free_func (pattern_free);
  for (i = 0; parts[i]; i++) {
    gchar *p = g_strstrip (parts[i]);
    gboolean excl = p[0] == '!';

    if (excl)
      p = g_strstrip (p + 1);
    if (*p == '\0') {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX,
          "Empty entry %u in event name list \"%s\": expected a name or a "
          "glob, \"!\" before one to exclude it", i + 1, text);
      g_strfreev (parts);
      gst_ctf_name_list_free (l);
      return NULL;
    }
    g_ptr_array_add (excl ? l->exclude : l->include, g_pattern_spec_new (p));
  }
  g_strfreev (parts);
  return l;
}

static gboolean
any_match (GPtrArray * a, const gchar * name, gsize len)
{
  guint i;

  for (i = 0; i < a->len; i++)
    if (g_pattern_spec_match (g_ptr_array_index (a, i), len, name, NULL))
      return TRUE;
  return FALSE;
}

gboolean
gst_ctf_name_list_match (const GstCtfNameList * l, const gchar * name)
{
  gsize len = strlen (name);

  if (any_match (l->exclude, name, len))
    return FALSE;
  return l->include->len == 0 || any_match (l->include, name, len);
}

void
gst_ctf_name_list_free (GstCtfNameList * l)
{
  if (l == NULL)
    return;
  g_ptr_array_unref (l->include);
  g_ptr_array_unref (l->exclude);
  g_free (l);
}

/* A decimal (or 0x hexadecimal) number that fills @s. */
static gboolean
parse_u64 (const gchar * s, guint64 * v)
{
  gchar *end = NULL;

  if (!g_ascii_isdigit (*s))
    return FALSE;
  errno = 0;
  *v = g_ascii_strtoull (s, &end, 0);
  return errno == 0 && end != s && *end == '\0';
}

GstCtfIdList *
gst_ctf_id_list_parse (const gchar * text, GError ** error)
{
  GstCtfIdList *l = g_new0 (GstCtfIdList, 1);
  gchar **parts = g_strsplit (text ? text : "", ",", -1);
  guint i;

  l->ranges = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (i = 0; parts[i]; i++) {
    gchar *p = g_strstrip (parts[i]), *dash = strchr (p, '-');
    guint64 lo, hi;

    if (dash) {
      *dash = '\0';
      g_strstrip (p);
      g_strstrip (dash + 1);
    }
    if (!parse_u64 (p, &lo) || (dash ? !parse_u64 (dash + 1, &hi) :
            !(hi = lo, TRUE)) || hi < lo) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX,
          "Invalid entry %u in list \"%s\": expected N or N-M with M >= N "
          "(non-negative integers)", i + 1, text);
      g_strfreev (parts);
      gst_ctf_id_list_free (l);
      return NULL;
    }
    g_array_append_val (l->ranges, lo);
    g_array_append_val (l->ranges, hi);
  }
  g_strfreev (parts);
  return l;
}

gboolean
gst_ctf_id_list_contains (const GstCtfIdList * l, guint64 v)
{
  const guint64 *r = (const guint64 *) l->ranges->data;
  guint i;

  for (i = 0; i + 1 < l->ranges->len; i += 2)
    if (v >= r[i] && v <= r[i + 1])
      return TRUE;
  return FALSE;
}

void
gst_ctf_id_list_free (GstCtfIdList * l)
{
  if (l == NULL)
    return;
  g_array_unref (l->ranges);
  g_free (l);
}
