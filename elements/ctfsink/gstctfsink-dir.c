/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfsink: what an output directory already holds.
 *
 * overwrite=true replaces a previous CTF trace, nothing else: an entry
 * may be deleted only when it is
 *   - `metadata`, CTF metadata that parses;
 *   - a data stream file of that metadata: a regular file whose packets,
 *     read with it, fill the file exactly (an empty file only when
 *     `index/NAME.idx` names it, as LTTng writes for a stream without
 *     packets);
 *   - `index/`, holding only LTTng packet indexes (`*.idx` starting with
 *     the index magic);
 *   - a leftover of a ctfsink run that never finished: `.metadata.part`
 *     (metadata that parses) and `.NAME.part` files that are empty or
 *     start with a packet that metadata reads.
 * Anything else (a `thesis.tex`, a subdirectory, a symbolic link, a hidden
 * file) is foreign: the run is refused, naming it, and nothing is deleted.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfsink-private.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "gstctf-metadata.h"
#include "gstctf-index.h"

/* First four bytes (big endian) of an LTTng `.idx` file. */
#define LTTNG_INDEX_MAGIC 0xC1F1DCC1u

typedef struct
{
  const gchar *dir;
  GstCtfTraceClass *tc;         /* from `metadata`, or NULL */
  gchar *tc_why;                /* why not, when `metadata` is there */
  GstCtfTraceClass *part_tc;    /* from `.metadata.part`, or NULL */
  gchar *part_why;
  gboolean index_ok;            /* `index` holds only .idx files */
  gchar *index_why;
  GPtrArray *index_files;       /* full paths */
  GHashTable *indexed;          /* NAME of each index/NAME.idx */
} ScanCtx;

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

static gboolean
is_part_name (const gchar * name)
{
  gsize n = strlen (name);

  return n > strlen (GST_CTF_SINK_PART_PREFIX GST_CTF_SINK_PART_SUFFIX) &&
      g_str_has_prefix (name, GST_CTF_SINK_PART_PREFIX) &&
      g_str_has_suffix (name, GST_CTF_SINK_PART_SUFFIX);
}

static GstCtfTraceClass *
load_trace_class (const gchar * path, gchar ** why)
{
  GError *err = NULL;
  gchar *text = gst_ctf_metadata_load_file (path, &err);
  GstCtfTraceClass *tc = NULL;

  if (text != NULL) {
    tc = gst_ctf_metadata_parse (text, path, &err);
    g_free (text);
  }
  if (tc == NULL) {
    *why = g_strdup (err->message);
    g_error_free (err);
  }
  return tc;
}

/* Whether @path (a non-empty regular file) is a data stream of @tc: its
 * packets fill it exactly (@whole), or at least its first packet reads
 * (a `.part` file cut short when its run was killed). */
static gboolean
is_data_stream (const GstCtfTraceClass * tc, const gchar * path,
    gboolean whole, gchar ** why)
{
  GError *err = NULL;
  GMappedFile *mf = g_mapped_file_new (path, FALSE, &err);
  GstCtfIndex *idx;
  gboolean ok;

  if (mf == NULL) {
    *why = g_strdup (err->message);
    g_error_free (err);
    return FALSE;
  }
  idx = gst_ctf_index_scan (tc,
      (const guint8 *) g_mapped_file_get_contents (mf),
      g_mapped_file_get_length (mf), path);
  ok = idx->entries->len > 0 && (!whole || idx->error == NULL);
  if (!ok)
    *why = g_strdup (idx->error ? idx->error->message : "no packet");
  gst_ctf_index_free (idx);
  g_mapped_file_unref (mf);
  return ok;
}

static gboolean
starts_with_index_magic (const gchar * path)
{
  FILE *fp = g_fopen (path, "rb");
  guint8 b[4];
  gboolean ok;

  if (fp == NULL)
    return FALSE;
  ok = fread (b, 1, 4, fp) == 4 && GST_READ_UINT32_BE (b) == LTTNG_INDEX_MAGIC;
  fclose (fp);
  return ok;
}

/* `index/`: only regular `NAME.idx` files with the LTTng index magic. */
static void
check_index_dir (ScanCtx * c, const gchar * path)
{
  GError *err = NULL;
  GDir *d = g_dir_open (path, 0, &err);
  const gchar *name;

  c->index_ok = d != NULL;
  if (d == NULL) {
    c->index_why = g_strdup (err->message);
    g_error_free (err);
    return;
  }
  while (c->index_ok && (name = g_dir_read_name (d)) != NULL) {
    gchar *p = g_build_filename (path, name, NULL);
    GStatBuf st;

    if (g_str_has_suffix (name, ".idx") && g_lstat (p, &st) == 0 &&
        S_ISREG (st.st_mode) && starts_with_index_magic (p)) {
      g_ptr_array_add (c->index_files, p);
      g_hash_table_add (c->indexed, g_strndup (name, strlen (name) - 4));
    } else {
      c->index_ok = FALSE;
      c->index_why = g_strdup_printf ("it holds \"%s\", which is not an "
          "LTTng packet index (NAME.idx)", name);
      g_free (p);
    }
  }
  g_dir_close (d);
}

/* Whether the entry @name belongs to a CTF trace or to an unfinished
 * ctfsink run; else *why says why not. */
static gboolean
belongs (ScanCtx * c, const gchar * name, gchar ** why)
{
  gchar *path = g_build_filename (c->dir, name, NULL);
  GStatBuf st;
  gboolean ok = FALSE;

  if (g_lstat (path, &st) != 0) {
    *why = g_strdup (g_strerror (errno));
  } else if (strcmp (name, "index") == 0 && S_ISDIR (st.st_mode)) {
    ok = c->index_ok;
    if (!ok)
      *why = g_strdup (c->index_why);
  } else if (!S_ISREG (st.st_mode)) {
    *why = g_strdup (S_ISDIR (st.st_mode) ? "a directory other than index/" :
        S_ISLNK (st.st_mode) ? "a symbolic link" : "not a regular file");
  } else if (strcmp (name, "metadata") == 0) {
    ok = c->tc != NULL;
    if (!ok)
      *why = g_strdup_printf ("not CTF metadata: %s", c->tc_why);
  } else if (strcmp (name, ".metadata.part") == 0) {
    ok = c->part_tc != NULL;
    if (!ok)
      *why = g_strdup_printf ("not CTF metadata: %s", c->part_why);
  } else if (is_part_name (name)) {
    if (c->part_tc == NULL && c->tc == NULL) {
      *why = g_strdup ("a hidden .part file without CTF metadata beside it");
    } else if (st.st_size == 0) {
      ok = TRUE;
    } else {
      ok = c->part_tc && is_data_stream (c->part_tc, path, FALSE, why);
      if (!ok && c->tc) {
        g_clear_pointer (why, g_free);
        ok = is_data_stream (c->tc, path, FALSE, why);
      }
      if (!ok) {
        gchar *w = *why;

        *why = g_strdup_printf ("not a data stream of the CTF metadata "
            "beside it: %s", w);
        g_free (w);
      }
    }
  } else if (name[0] == '.') {
    *why = g_strdup ("a hidden file");
  } else if (c->tc == NULL) {
    *why = g_strdup (c->tc_why ? "the directory's metadata is not CTF "
        "metadata" : "the directory has no CTF metadata file");
  } else if (st.st_size == 0) {
    ok = g_hash_table_contains (c->indexed, name);
    if (!ok)
      *why = g_strdup ("an empty file that index/ does not name");
  } else {
    ok = is_data_stream (c->tc, path, TRUE, why);
    if (!ok) {
      gchar *w = *why;

      *why = g_strdup_printf ("not a data stream of the trace described by "
          "\"metadata\": %s", w);
      g_free (w);
    }
  }
  g_free (path);
  return ok;
}

gboolean
gst_ctf_sink_dir_scan (const gchar * dir, GstCtfSinkDirScan * scan,
    GError ** error)
{
  ScanCtx c = { dir, };
  GDir *d;
  const gchar *name;
  GPtrArray *names, *streams, *parts;
  gchar *p;
  guint i;

  memset (scan, 0, sizeof (*scan));
  d = g_dir_open (dir, 0, error);
  if (d == NULL)
    return FALSE;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  if (names->len == 0) {
    g_ptr_array_unref (names);
    return TRUE;
  }
  g_ptr_array_sort (names, compare_names);
  scan->names = names;
  for (i = 0; i < names->len; i++)
    scan->n_part += is_part_name (g_ptr_array_index (names, i));

  p = g_build_filename (dir, "metadata", NULL);
  if (g_file_test (p, G_FILE_TEST_EXISTS))
    c.tc = load_trace_class (p, &c.tc_why);
  g_free (p);
  p = g_build_filename (dir, ".metadata.part", NULL);
  if (g_file_test (p, G_FILE_TEST_EXISTS))
    c.part_tc = load_trace_class (p, &c.part_why);
  g_free (p);
  c.index_files = g_ptr_array_new_with_free_func (g_free);
  c.indexed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p = g_build_filename (dir, "index", NULL);
  check_index_dir (&c, p);

  streams = g_ptr_array_new_with_free_func (g_free);
  parts = g_ptr_array_new_with_free_func (g_free);
  for (i = 0; i < names->len && scan->foreign == NULL; i++) {
    const gchar *n = g_ptr_array_index (names, i);
    gchar *why = NULL;

    if (!belongs (&c, n, &why)) {
      scan->foreign = g_strdup (n);
      scan->foreign_why = why;
    } else if (strcmp (n, "metadata") != 0 && strcmp (n, "index") != 0) {
      g_ptr_array_add (is_part_name (n) ? parts : streams,
          g_build_filename (dir, n, NULL));
    }
  }

  if (scan->foreign == NULL) {
    /* `metadata` first: a removal that stops half way does not leave a
     * directory that looks like a complete trace. */
    scan->removable = g_ptr_array_new_with_free_func (g_free);
    if (c.tc)
      g_ptr_array_add (scan->removable, g_build_filename (dir, "metadata",
              NULL));
    g_ptr_array_extend_and_steal (scan->removable, streams);
    g_ptr_array_extend_and_steal (scan->removable, parts);
    if (c.index_ok) {
      for (i = 0; i < c.index_files->len; i++)
        g_ptr_array_add (scan->removable,
            g_strdup (g_ptr_array_index (c.index_files, i)));
      scan->index_dir = g_strdup (p);
    }
  } else {
    g_ptr_array_unref (streams);
    g_ptr_array_unref (parts);
  }

  g_free (p);
  g_clear_pointer (&c.tc, gst_ctf_trace_class_unref);
  g_clear_pointer (&c.part_tc, gst_ctf_trace_class_unref);
  g_free (c.tc_why);
  g_free (c.part_why);
  g_free (c.index_why);
  g_ptr_array_unref (c.index_files);
  g_hash_table_unref (c.indexed);
  return TRUE;
}

void
gst_ctf_sink_dir_scan_clear (GstCtfSinkDirScan * scan)
{
  g_clear_pointer (&scan->names, g_ptr_array_unref);
  g_clear_pointer (&scan->removable, g_ptr_array_unref);
  g_clear_pointer (&scan->index_dir, g_free);
  g_clear_pointer (&scan->foreign, g_free);
  g_clear_pointer (&scan->foreign_why, g_free);
}

gchar *
gst_ctf_sink_dir_scan_describe (const GstCtfSinkDirScan * scan)
{
  GString *s = g_string_new (NULL);
  guint i, n = scan->names ? scan->names->len : 0;
  const guint shown = 4;

  for (i = 0; i < n && i < shown; i++) {
    if (i > 0)
      g_string_append (s, i + 1 == n ? " and " : ", ");
    g_string_append_printf (s, "\"%s\"",
        (const gchar *) g_ptr_array_index (scan->names, i));
  }
  if (n > shown)
    g_string_append_printf (s, " and %u more", n - shown);
  return g_string_free (s, FALSE);
}

gboolean
gst_ctf_sink_dir_remove (const GstCtfSinkDirScan * scan, GError ** error)
{
  guint i;

  g_return_val_if_fail (scan->removable != NULL, FALSE);
  for (i = 0; i < scan->removable->len; i++) {
    const gchar *p = g_ptr_array_index (scan->removable, i);

    if (g_unlink (p) != 0) {
      int e = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
          "Cannot delete \"%s\": %s", p, g_strerror (e));
      return FALSE;
    }
  }
  if (scan->index_dir && g_rmdir (scan->index_dir) != 0) {
    int e = errno;

    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
        "Cannot delete \"%s\": %s", scan->index_dir, g_strerror (e));
    return FALSE;
  }
  return TRUE;
}
