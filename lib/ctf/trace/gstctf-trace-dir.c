/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CTF traces on disk: finding them, listing and indexing their data
 * stream files, grouping the files into logical streams.
 *
 * Behaviour follows babeltrace2 2.0's `source.ctf.fs`
 * (src/plugins/ctf/fs-src/fs.c):
 *  - stream files: regular files of the trace directory except `metadata`,
 *    hidden files and empty files;
 *  - a file whose first packet has a `stream_instance_id` and a
 *    `timestamp_begin` joins the group of its (stream class, instance id);
 *    any other file is a group of its own;
 *  - files in a group are ordered by first `timestamp_begin`, the group's
 *    packet indexes merged in `timestamp_begin` order with identical
 *    entries dropped (overlapping LTTng snapshots);
 *  - groups are sorted by the path of their first file; a group without
 *    instance id gets the next automatic stream id (0, 1, ...) in that
 *    order, which is what babeltrace2's muxer compares on ties.
 */
#include "gstctf-trace-dir.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#define MAX_DEPTH 32

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

static gboolean
is_trace_dir (const gchar * dir)
{
  gchar *md = g_build_filename (dir, "metadata", NULL);
  gboolean ret = g_file_test (md, G_FILE_TEST_IS_REGULAR);

  g_free (md);
  return ret;
}

static void
find_traces_rec (const gchar * dir, guint depth, GPtrArray * out)
{
  GDir *d;
  const gchar *name;
  GPtrArray *subdirs;
  guint i;

  if (is_trace_dir (dir)) {
    g_ptr_array_add (out, g_strdup (dir));
    return;
  }
  if (depth >= MAX_DEPTH)
    return;
  d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  subdirs = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL) {
    gchar *p = g_build_filename (dir, name, NULL);

    if (g_file_test (p, G_FILE_TEST_IS_DIR))
      g_ptr_array_add (subdirs, p);
    else
      g_free (p);
  }
  g_dir_close (d);
  g_ptr_array_sort (subdirs, compare_strings);
  for (i = 0; i < subdirs->len; i++)
    find_traces_rec (g_ptr_array_index (subdirs, i), depth + 1, out);
  g_ptr_array_unref (subdirs);
}

GPtrArray *
gst_ctf_find_traces (const gchar * dir, GError ** error)
{
  GPtrArray *out;
  gchar *norm;

  g_return_val_if_fail (dir != NULL, NULL);

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot open trace directory \"%s\": %s", dir,
        g_file_test (dir, G_FILE_TEST_EXISTS) ? "not a directory" :
        "no such file or directory");
    return NULL;
  }
  /* Strip trailing separators so reported paths look like the input. */
  norm = g_strdup (dir);
  while (strlen (norm) > 1 && norm[strlen (norm) - 1] == G_DIR_SEPARATOR)
    norm[strlen (norm) - 1] = '\0';

  out = g_ptr_array_new_with_free_func (g_free);
  find_traces_rec (norm, 0, out);
  if (out->len == 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_NO_TRACE,
        "No CTF trace found below \"%s\" (expected a directory holding a "
        "`metadata` file)", norm);
    g_ptr_array_unref (out);
    out = NULL;
  } else {
    g_ptr_array_sort (out, compare_strings);
  }
  g_free (norm);
  return out;
}

GPtrArray *
gst_ctf_trace_dir_list_stream_files (const gchar * trace_dir, GError ** error)
{
  GError *err = NULL;
  GDir *d;
  const gchar *name;
  GPtrArray *out;

  g_return_val_if_fail (trace_dir != NULL, NULL);

  d = g_dir_open (trace_dir, 0, &err);
  if (d == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot open trace directory \"%s\": %s", trace_dir, err->message);
    g_error_free (err);
    return NULL;
  }
  out = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL) {
    gchar *p;
    GStatBuf st;

    if (strcmp (name, "metadata") == 0 || name[0] == '.')
      continue;
    p = g_build_filename (trace_dir, name, NULL);
    /* g_stat follows symbolic links, like babeltrace2's
     * g_file_test (G_FILE_TEST_IS_REGULAR). */
    if (g_stat (p, &st) == 0 && S_ISREG (st.st_mode) && st.st_size > 0)
      g_ptr_array_add (out, g_strdup (name));
    g_free (p);
  }
  g_dir_close (d);
  g_ptr_array_sort (out, compare_strings);
  return out;
}

static void
stream_file_free (GstCtfStreamFile * f)
{
  if (f == NULL)
    return;
  g_free (f->path);
  gst_ctf_index_free (f->index);
  g_clear_error (&f->error);
  if (f->mapped)
    g_mapped_file_unref (f->mapped);
  g_free (f);
}

static void
stream_free (GstCtfStream * s)
{
  if (s == NULL)
    return;
  g_ptr_array_unref (s->files);
  g_array_unref (s->packets);
  g_free (s);
}

void
gst_ctf_trace_dir_free (GstCtfTraceDir * td)
{
  if (td == NULL)
    return;
  g_free (td->path);
  g_free (td->metadata);
  if (td->trace_class)
    gst_ctf_trace_class_unref (td->trace_class);
  if (td->streams)
    g_ptr_array_unref (td->streams);
  if (td->files)
    g_ptr_array_unref (td->files);
  g_free (td);
}

static gboolean
ns_of (const GstCtfStreamClass * sc, guint64 cycles, gint64 * ns)
{
  if (sc == NULL || sc->default_clock == NULL) {
    *ns = (gint64) MIN (cycles, (guint64) G_MAXINT64);
    return cycles <= G_MAXINT64;
  }
  return gst_ctf_clock_class_cycles_to_ns_from_origin (sc->default_clock,
      cycles, ns);
}

/* Maps and indexes one stream file.  Fails only on I/O errors. */
static GstCtfStreamFile *
open_stream_file (const GstCtfTraceClass * tc, const gchar * dir,
    const gchar * name, GError ** error)
{
  GstCtfStreamFile *f = g_new0 (GstCtfStreamFile, 1);
  GstCtfPacketInfo info;
  GError *err = NULL;

  f->path = g_build_filename (dir, name, NULL);
  f->name = g_intern_string (name);
  f->stream_class_id = G_MAXUINT64;
  f->stream_instance_id = G_MAXUINT64;
  f->mapped = g_mapped_file_new (f->path, FALSE, &err);
  if (f->mapped == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot open stream file \"%s\": %s", f->path, err->message);
    g_error_free (err);
    stream_file_free (f);
    return NULL;
  }
  f->data = (const guint8 *) g_mapped_file_get_contents (f->mapped);
  f->size = g_mapped_file_get_length (f->mapped);

  memset (&info, 0, sizeof (info));
  if (!gst_ctf_packet_read_info (tc, f->data, f->size, &info, &err)) {
    g_set_error (&f->error, GST_CTF_ERROR, err->domain == GST_CTF_ERROR ?
        err->code : GST_CTF_ERROR_PACKET,
        "Cannot read first packet header or context: file=\"%s\", "
        "offset=0: %s", f->path, err->message);
    g_error_free (err);
    return f;
  }
  f->first_packet_ok = TRUE;
  f->stream_class_id = info.stream_class_id;
  if (info.has_stream_instance_id)
    f->stream_instance_id = info.stream_instance_id;
  if (info.has_timestamp_begin
      && ns_of (info.stream_class, info.timestamp_begin, &f->begin_ns))
    f->has_begin = TRUE;

  f->index = gst_ctf_index_build (tc, f->data, f->size, f->path);
  if (f->index->error)
    f->error = g_error_copy (f->index->error);
  return f;
}

static gint
compare_files_in_group (gconstpointer a, gconstpointer b)
{
  const GstCtfStreamFile *fa = *(GstCtfStreamFile * const *) a;
  const GstCtfStreamFile *fb = *(GstCtfStreamFile * const *) b;

  if (fa->begin_ns != fb->begin_ns)
    return fa->begin_ns < fb->begin_ns ? -1 : 1;
  return strcmp (fa->name, fb->name);
}

typedef struct {
  GstCtfStreamPacket p;
  guint file_rank;
} SortPacket;

static gint
compare_sort_packets (gconstpointer a, gconstpointer b)
{
  const SortPacket *pa = a, *pb = b;

  if (pa->p.entry->timestamp_begin_ns != pb->p.entry->timestamp_begin_ns)
    return pa->p.entry->timestamp_begin_ns <
        pb->p.entry->timestamp_begin_ns ? -1 : 1;
  if (pa->file_rank != pb->file_rank)
    return pa->file_rank < pb->file_rank ? -1 : 1;
  if (pa->p.entry->offset != pb->p.entry->offset)
    return pa->p.entry->offset < pb->p.entry->offset ? -1 : 1;
  return 0;
}

static gboolean
entries_equal (const GstCtfIndexEntry * a, const GstCtfIndexEntry * b)
{
  return a->packet_size == b->packet_size &&
      a->timestamp_begin == b->timestamp_begin &&
      a->timestamp_end == b->timestamp_end &&
      a->packet_seq_num == b->packet_seq_num;
}

/* Fills @s->packets from its files and finds where its error stops it. */
static void
stream_collect_packets (GstCtfStream * s)
{
  guint i, j;

  if (s->files->len > 1)
    g_ptr_array_sort (s->files, compare_files_in_group);

  if (s->files->len == 1) {
    GstCtfStreamFile *f = g_ptr_array_index (s->files, 0);

    if (f->index) {
      for (j = 0; j < f->index->entries->len; j++) {
        GstCtfStreamPacket p;

        p.file = f;
        p.entry = &g_array_index (f->index->entries, GstCtfIndexEntry, j);
        g_array_append_val (s->packets, p);
      }
    }
    if (f->error) {
      s->error = f->error;
      s->error_after = s->packets->len;
    }
  } else {
    GArray *tmp = g_array_new (FALSE, FALSE, sizeof (SortPacket));

    for (i = 0; i < s->files->len; i++) {
      GstCtfStreamFile *f = g_ptr_array_index (s->files, i);

      if (f->index == NULL)
        continue;
      for (j = 0; j < f->index->entries->len; j++) {
        SortPacket sp;

        sp.p.file = f;
        sp.p.entry = &g_array_index (f->index->entries, GstCtfIndexEntry, j);
        sp.file_rank = i;
        g_array_append_val (tmp, sp);
      }
    }
    g_array_sort (tmp, compare_sort_packets);
    for (j = 0; j < tmp->len; j++) {
      const SortPacket *sp = &g_array_index (tmp, SortPacket, j);

      if (s->packets->len > 0) {
        const GstCtfStreamPacket *last = &g_array_index (s->packets,
            GstCtfStreamPacket, s->packets->len - 1);

        if (entries_equal (last->entry, sp->p.entry))
          continue;
      }
      g_array_append_val (s->packets, sp->p);
    }
    g_array_unref (tmp);

    /* The error of the earliest failing file stops the stream after the
     * last packet of that file. */
    for (i = 0; i < s->files->len && s->error == NULL; i++) {
      GstCtfStreamFile *f = g_ptr_array_index (s->files, i);

      if (f->error == NULL)
        continue;
      s->error = f->error;
      s->error_after = 0;
      for (j = 0; j < s->packets->len; j++) {
        if (g_array_index (s->packets, GstCtfStreamPacket, j).file == f)
          s->error_after = j + 1;
      }
    }
  }
}

static gint
compare_streams_by_first_path (gconstpointer a, gconstpointer b)
{
  const GstCtfStream *sa = *(GstCtfStream * const *) a;
  const GstCtfStream *sb = *(GstCtfStream * const *) b;

  return strcmp (((GstCtfStreamFile *) g_ptr_array_index (sa->files,
              0))->path, ((GstCtfStreamFile *) g_ptr_array_index (sb->files,
              0))->path);
}

static gint
compare_streams_bt2_tie (gconstpointer a, gconstpointer b)
{
  const GstCtfStream *sa = *(GstCtfStream * const *) a;
  const GstCtfStream *sb = *(GstCtfStream * const *) b;

  if (sa->stream_class_id != sb->stream_class_id)
    return sa->stream_class_id < sb->stream_class_id ? -1 : 1;
  if (sa->bt_stream_id != sb->bt_stream_id)
    return sa->bt_stream_id < sb->bt_stream_id ? -1 : 1;
  return compare_streams_by_first_path (a, b);
}

/* Loads and parses one trace directory's metadata (shared: the elements
 * downstream parse the same text from the caps, ctfmux once per input). */
static gboolean
load_metadata (const gchar * path, gchar ** text, GstCtfTraceClass ** tc,
    GError ** error)
{
  gchar *md_path = g_build_filename (path, "metadata", NULL);

  *tc = NULL;
  *text = gst_ctf_metadata_load_file (md_path, error);
  if (*text != NULL) {
    *tc = gst_ctf_metadata_parse_shared (*text, md_path, error);
    if (*tc == NULL)
      g_clear_pointer (text, g_free);
  }
  g_free (md_path);
  return *tc != NULL;
}

/* Opens the stream files of @path (read with @tc) and adds them to the
 * streams of @td: a file with an instance id and a begin time joins the
 * stream of its (class, instance), from this or an earlier directory;
 * any other file is a stream of its own. */
static gboolean
add_trace_files (GstCtfTraceDir * td, const gchar * path,
    const GstCtfTraceClass * tc, GError ** error)
{
  GPtrArray *names;
  guint i, j;

  names = gst_ctf_trace_dir_list_stream_files (path, error);
  if (names == NULL)
    return FALSE;
  for (i = 0; i < names->len; i++) {
    GstCtfStreamFile *f = open_stream_file (tc, path,
        g_ptr_array_index (names, i), error);
    GstCtfStream *s = NULL;
    gboolean groupable;

    if (f == NULL) {
      g_ptr_array_unref (names);
      return FALSE;
    }
    g_ptr_array_add (td->files, f);

    groupable = f->first_packet_ok && f->has_begin &&
        f->stream_instance_id != G_MAXUINT64;
    if (groupable) {
      for (j = 0; j < td->streams->len; j++) {
        GstCtfStream *c = g_ptr_array_index (td->streams, j);

        if (c->stream_instance_id != G_MAXUINT64 &&
            c->stream_class_id == f->stream_class_id &&
            c->stream_instance_id == f->stream_instance_id) {
          s = c;
          break;
        }
      }
    }
    if (s == NULL) {
      s = g_new0 (GstCtfStream, 1);
      s->stream_class_id = f->stream_class_id;
      s->stream_instance_id = groupable ? f->stream_instance_id : G_MAXUINT64;
      s->files = g_ptr_array_new ();
      s->packets = g_array_new (FALSE, FALSE, sizeof (GstCtfStreamPacket));
      g_ptr_array_add (td->streams, s);
    }
    g_ptr_array_add (s->files, f);
  }
  g_ptr_array_unref (names);
  return TRUE;
}

/* Packets of each stream, babeltrace2's stream order and ids. */
static void
finish_streams (GstCtfTraceDir * td)
{
  GPtrArray *by_tie;
  guint i;
  guint64 next_auto_id = 0;

  for (i = 0; i < td->streams->len; i++) {
    GstCtfStream *s = g_ptr_array_index (td->streams, i);
    GstCtfStreamFile *first;

    stream_collect_packets (s);
    first = g_ptr_array_index (s->files, 0);
    s->name = first->name;
  }

  /* babeltrace2 order: by first file path; automatic ids in that order. */
  g_ptr_array_sort (td->streams, compare_streams_by_first_path);
  for (i = 0; i < td->streams->len; i++) {
    GstCtfStream *s = g_ptr_array_index (td->streams, i);

    s->index = i;
    if (s->stream_instance_id != G_MAXUINT64)
      s->bt_stream_id = s->stream_instance_id;
    else
      s->bt_stream_id = next_auto_id++;
  }
  /* (not g_ptr_array_copy: it would copy the free function too) */
  by_tie = g_ptr_array_sized_new (td->streams->len);
  for (i = 0; i < td->streams->len; i++)
    g_ptr_array_add (by_tie, g_ptr_array_index (td->streams, i));
  g_ptr_array_sort (by_tie, compare_streams_bt2_tie);
  for (i = 0; i < by_tie->len; i++)
    ((GstCtfStream *) g_ptr_array_index (by_tie, i))->stream_index = i;
  g_ptr_array_unref (by_tie);
}

static GstCtfTraceDir *
trace_dir_new (const gchar * path)
{
  GstCtfTraceDir *td = g_new0 (GstCtfTraceDir, 1);

  td->path = g_strdup (path);
  td->files = g_ptr_array_new_with_free_func ((GDestroyNotify)
      stream_file_free);
  td->streams = g_ptr_array_new_with_free_func ((GDestroyNotify) stream_free);
  return td;
}

GstCtfTraceDir *
gst_ctf_trace_dir_open (const gchar * path, GError ** error)
{
  GstCtfTraceDir *td;

  g_return_val_if_fail (path != NULL, NULL);

  td = trace_dir_new (path);
  if (!load_metadata (path, &td->metadata, &td->trace_class, error) ||
      !add_trace_files (td, path, td->trace_class, error)) {
    gst_ctf_trace_dir_free (td);
    return NULL;
  }
  finish_streams (td);
  return td;
}

GstCtfTraceDir *
gst_ctf_trace_dir_open_parsed (const gchar * path, const gchar * metadata,
    GstCtfTraceClass * tc, GError ** error)
{
  GstCtfTraceDir *td;

  g_return_val_if_fail (path != NULL && metadata != NULL && tc != NULL,
      NULL);

  td = trace_dir_new (path);
  td->metadata = g_strdup (metadata);
  td->trace_class = gst_ctf_trace_class_ref (tc);
  if (!add_trace_files (td, path, td->trace_class, error)) {
    gst_ctf_trace_dir_free (td);
    return NULL;
  }
  finish_streams (td);
  return td;
}

static guint
count_classes (const GstCtfTraceClass * tc)
{
  guint i, n = tc->stream_classes->len;

  for (i = 0; i < tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);
    n += sc->event_classes->len;
  }
  return n;
}

static gchar *
uuid_string (const guint8 * u)
{
  return g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
      "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5], u[6],
      u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

GstCtfTraceDir *
gst_ctf_trace_dir_open_merged (const gchar * const *paths, guint n_paths,
    const gchar * name, GError ** error)
{
  GstCtfTraceDir *td = NULL;
  gchar **texts;
  GstCtfTraceClass **tcs;
  gchar **sorted;
  guint i, winner = 0;

  g_return_val_if_fail (paths != NULL && n_paths > 0, NULL);

  if (n_paths == 1)
    return gst_ctf_trace_dir_open (paths[0], error);

  /* babeltrace2 sorts its inputs to be deterministic. */
  sorted = g_new0 (gchar *, n_paths + 1);
  for (i = 0; i < n_paths; i++)
    sorted[i] = g_strdup (paths[i]);
  qsort (sorted, n_paths, sizeof (gchar *), compare_strings);

  texts = g_new0 (gchar *, n_paths);
  tcs = g_new0 (GstCtfTraceClass *, n_paths);
  for (i = 0; i < n_paths; i++) {
    if (!load_metadata (sorted[i], &texts[i], &tcs[i], error))
      goto done;
    if (!tcs[i]->has_uuid) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_SEVERAL_TRACES,
          "Several traces given, but \"%s\" has no UUID: they cannot form "
          "one logical trace", sorted[i]);
      goto done;
    }
    if (i > 0 && memcmp (tcs[i]->uuid, tcs[0]->uuid, 16) != 0) {
      gchar *a = uuid_string (tcs[0]->uuid), *b = uuid_string (tcs[i]->uuid);

      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_SEVERAL_TRACES,
          "Several traces with different UUIDs: \"%s\" (%s) and \"%s\" "
          "(%s)", sorted[0], a, sorted[i], b);
      g_free (a);
      g_free (b);
      goto done;
    }
    /* The largest metadata (most stream and event classes) describes
     * all the chunks (babeltrace2's merge_ctf_fs_traces()). */
    if (count_classes (tcs[i]) > count_classes (tcs[winner]))
      winner = i;
  }

  td = trace_dir_new (name ? name : sorted[winner]);
  td->metadata = g_steal_pointer (&texts[winner]);
  td->trace_class = gst_ctf_trace_class_ref (tcs[winner]);
  for (i = 0; i < n_paths; i++) {
    /* each directory's files are read with its own metadata */
    if (!add_trace_files (td, sorted[i], tcs[i], error)) {
      g_clear_pointer (&td, gst_ctf_trace_dir_free);
      goto done;
    }
  }
  finish_streams (td);

done:
  for (i = 0; i < n_paths; i++) {
    g_free (texts[i]);
    if (tcs[i])
      gst_ctf_trace_class_unref (tcs[i]);
  }
  g_free (texts);
  g_free (tcs);
  g_strfreev (sorted);
  return td;
}

gchar *
gst_ctf_trace_name (const GstCtfTraceClass * trace_class, const gchar * root,
    const gchar * path)
{
  const GstCtfEnvEntry *host =
      gst_ctf_trace_class_find_env (trace_class, "hostname");
  gsize rl = strlen (root), pl;
  const gchar *rel = path;
  GString *name = g_string_new (NULL);
  gboolean has_host = host && host->is_string && host->str;

  if (has_host)
    g_string_append (name, host->str);
  if (path == NULL)
    return g_string_free (name, FALSE);
  while (rl > 1 && root[rl - 1] == G_DIR_SEPARATOR)
    rl--;
  pl = strlen (path);
  while (pl > 1 && path[pl - 1] == G_DIR_SEPARATOR)
    pl--;
  if (pl == rl && strncmp (path, root, rl) == 0)
    rel = NULL;                 /* the input itself */
  else if (strncmp (path, root, rl) == 0 && path[rl] == G_DIR_SEPARATOR)
    rel = path + rl + 1;
  if (rel != NULL) {
    if (has_host)
      g_string_append_c (name, G_DIR_SEPARATOR);
    g_string_append (name, rel);
  }
  return g_string_free (name, FALSE);
}
