/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests of the trace directory / packet index library code and of the
 * ctfsrc element, over the shared test_corpus (GST_CTF_CORPUS).
 */
#include <gst/check/gstcheck.h>
#include <string.h>
#include <glib/gstdio.h>

#include "gstctf-trace-dir.h"
#include "gstctf-index.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"
#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"

#include "test-util.h"

/* ---- running a ctfsrc pipeline ------------------------------------- */

typedef struct
{
  GMutex lock;
  GPtrArray *buffers;           /* GstBuffer */
  GstCaps *caps;
  GPtrArray *warnings;          /* GstMessage */
  GstMessage *error;
  gboolean eos;
} Run;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Run * r)
{
  g_mutex_lock (&r->lock);
  g_ptr_array_add (r->buffers, gst_buffer_ref (buf));
  if (r->caps == NULL)
    r->caps = gst_pad_get_current_caps (pad);
  g_mutex_unlock (&r->lock);
}

static void
run_clear (Run * r)
{
  g_ptr_array_unref (r->buffers);
  g_ptr_array_unref (r->warnings);
  if (r->caps)
    gst_caps_unref (r->caps);
  if (r->error)
    gst_message_unref (r->error);
  g_mutex_clear (&r->lock);
}

static void
run_init (Run * r)
{
  memset (r, 0, sizeof (*r));
  g_mutex_init (&r->lock);
  r->buffers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  r->warnings = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_message_unref);
}

static void
wait_bus (GstElement * pipeline, Run * r)
{
  GstBus *bus = gst_element_get_bus (pipeline);

  for (;;) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);

    fail_unless (m != NULL, "pipeline timed out");
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING) {
      g_ptr_array_add (r->warnings, m);
      continue;
    }
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR)
      r->error = m;
    else {
      r->eos = TRUE;
      gst_message_unref (m);
    }
    break;
  }
  gst_object_unref (bus);
}

static GstElement *
make_pipeline (const gchar * location, Run * r, GstElement ** src_out)
{
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *src = gst_element_factory_make ("ctfsrc", NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);

  fail_unless (src != NULL && sink != NULL);
  g_object_set (src, "location", location, NULL);
  g_object_set (sink, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), r);
  gst_bin_add_many (GST_BIN (pipeline), src, sink, NULL);
  fail_unless (gst_element_link (src, sink));
  if (src_out)
    *src_out = src;
  return pipeline;
}

/* Runs `ctfsrc location=LOCATION ! fakesink` to EOS or error. */
static void
run_src (const gchar * location, Run * r)
{
  GstElement *pipeline = make_pipeline (location, r, NULL);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  wait_bus (pipeline, r);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

static gchar *
error_text (GstMessage * m)
{
  GError *err = NULL;
  gchar *dbg = NULL, *s;

  gst_message_parse_error (m, &err, &dbg);
  s = g_strdup_printf ("%s | %s", err->message, dbg ? dbg : "");
  g_error_free (err);
  g_free (dbg);
  return s;
}

/* ---- library: finding traces, stream files, grouping ---------------- */

GST_START_TEST (test_find_traces_below_session)
{
  GPtrArray *t;
  GError *err = NULL;
  gchar *dir;

  NEED_CORPUS ();
  dir = test_corpus_path ("ctf/lttng-ust/libc-ls");
  t = gst_ctf_find_traces (dir, &err);
  fail_unless (t != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (t->len, 1);
  fail_unless (g_str_has_suffix (g_ptr_array_index (t, 0),
          "ust/uid/0/64-bit"), "found %s", (gchar *) g_ptr_array_index (t, 0));
  g_ptr_array_unref (t);
  g_free (dir);

  dir = test_corpus_path ("ctf/babeltrace/succeed/multi-domains");
  t = gst_ctf_find_traces (dir, &err);
  fail_unless (t != NULL);
  fail_unless (t->len >= 2, "multi-domains has a kernel and a UST trace");
  g_ptr_array_unref (t);
  g_free (dir);

  dir = test_corpus_path ("ctf/babeltrace/oracle");
  t = gst_ctf_find_traces (dir, &err);
  fail_unless (t == NULL);
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_NO_TRACE));
  g_clear_error (&err);
  g_free (dir);

  t = gst_ctf_find_traces ("/nonexistent/dir", &err);
  fail_unless (t == NULL);
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_IO));
  g_clear_error (&err);
}

GST_END_TEST;

GST_START_TEST (test_stream_files_rule)
{
  gchar *dir = g_dir_make_tmp ("ctfsrc-XXXXXX", NULL);
  gchar *p;
  GPtrArray *names;
  GError *err = NULL;

  /* metadata, hidden, empty and directories are not data. */
  p = g_build_filename (dir, "metadata", NULL);
  g_file_set_contents (p, "/* CTF 1.8 */", -1, NULL);
  g_free (p);
  p = g_build_filename (dir, ".hidden", NULL);
  g_file_set_contents (p, "x", -1, NULL);
  g_free (p);
  p = g_build_filename (dir, "empty", NULL);
  g_file_set_contents (p, "", 0, NULL);
  g_free (p);
  p = g_build_filename (dir, "chan_1", NULL);
  g_file_set_contents (p, "x", -1, NULL);
  g_free (p);
  p = g_build_filename (dir, "chan_0", NULL);
  g_file_set_contents (p, "x", -1, NULL);
  g_free (p);
  p = g_build_filename (dir, "index", NULL);
  g_mkdir (p, 0755);
  g_free (p);

  names = gst_ctf_trace_dir_list_stream_files (dir, &err);
  fail_unless (names != NULL);
  fail_unless_equals_int (names->len, 2);
  fail_unless_equals_string (g_ptr_array_index (names, 0), "chan_0");
  fail_unless_equals_string (g_ptr_array_index (names, 1), "chan_1");
  g_ptr_array_unref (names);

  p = g_strdup_printf ("rm -rf '%s'", dir);
  fail_unless (system (p) == 0);
  g_free (p);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_tracefile_rotation_groups)
{
  GstCtfTraceDir *td;
  GError *err = NULL;
  gchar *dir;
  guint i, n_files = 0;

  NEED_CORPUS ();
  dir = test_corpus_path ("ctf/babeltrace/succeed/lttng-tracefile-rotation/kernel");
  td = gst_ctf_trace_dir_open (dir, &err);
  fail_unless (td != NULL, "%s", err ? err->message : "");
  /* mychan_N_M: 4 streams (one per CPU), 11 files. */
  fail_unless_equals_int (td->files->len, 11);
  fail_unless_equals_int (td->streams->len, 4);
  for (i = 0; i < td->streams->len; i++) {
    GstCtfStream *s = g_ptr_array_index (td->streams, i);
    gchar *expect = g_strdup_printf ("mychan_%u_0", i);
    guint j;

    fail_unless (s->error == NULL, "%s", s->error ? s->error->message : "");
    fail_unless_equals_string (s->name, expect);
    fail_unless (s->stream_instance_id != G_MAXUINT64);
    fail_unless_equals_uint64 (s->bt_stream_id, s->stream_instance_id);
    n_files += s->files->len;
    for (j = 1; j < s->packets->len; j++) {
      const GstCtfIndexEntry *a =
          g_array_index (s->packets, GstCtfStreamPacket, j - 1).entry;
      const GstCtfIndexEntry *b =
          g_array_index (s->packets, GstCtfStreamPacket, j).entry;
      fail_unless (a->timestamp_begin_ns <= b->timestamp_begin_ns);
    }
    g_free (expect);
  }
  fail_unless_equals_int (n_files, 11);
  gst_ctf_trace_dir_free (td);
  g_free (dir);
}

GST_END_TEST;

/* Without stream_instance_id, babeltrace2 numbers streams 0, 1, ... in
 * the order of their file paths. */
GST_START_TEST (test_auto_stream_ids)
{
  GstCtfTraceDir *td;
  GError *err = NULL;
  gchar *dir;
  guint i;

  NEED_CORPUS ();
  dir = test_corpus_path ("ctf/babeltrace/packet-seq-num/2-streams-lost-in-2");
  td = gst_ctf_trace_dir_open (dir, &err);
  fail_unless (td != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (td->streams->len, 2);
  for (i = 0; i < td->streams->len; i++) {
    GstCtfStream *s = g_ptr_array_index (td->streams, i);

    fail_unless_equals_uint64 (s->stream_instance_id, G_MAXUINT64);
    fail_unless_equals_uint64 (s->bt_stream_id, i);
    fail_unless_equals_int (s->stream_index, i);
  }
  fail_unless_equals_string (((GstCtfStream *) g_ptr_array_index (td->streams,
              0))->name, "test_stream_0");
  gst_ctf_trace_dir_free (td);
  g_free (dir);
}

GST_END_TEST;

/* The LTTng index is used when valid and agrees with a header scan. */
GST_START_TEST (test_index_idx_matches_scan)
{
  const gchar *units[] = { "ctf/babeltrace/succeed/trace-with-index",
    "ctf/lttng-ust/custom-2cpu/ust/uid/0/64-bit", NULL
  };
  guint u;

  NEED_CORPUS ();
  for (u = 0; units[u]; u++) {
    gchar *dir = test_corpus_path (units[u]);
    GstCtfTraceDir *td;
    GError *err = NULL;
    guint i, used_idx = 0;

    td = gst_ctf_trace_dir_open (dir, &err);
    fail_unless (td != NULL, "%s: %s", units[u], err ? err->message : "");
    for (i = 0; i < td->files->len; i++) {
      GstCtfStreamFile *f = g_ptr_array_index (td->files, i);
      GstCtfIndex *scan;
      guint j;

      fail_unless (f->index != NULL);
      if (!f->index->from_idx_file)
        continue;
      used_idx++;
      scan = gst_ctf_index_scan (td->trace_class, f->data, f->size, f->path);
      fail_unless (scan->error == NULL, "%s", scan->error ?
          scan->error->message : "");
      gst_ctf_index_fix_timestamp_end (scan);
      fail_unless_equals_int (scan->entries->len, f->index->entries->len);
      for (j = 0; j < scan->entries->len; j++) {
        GstCtfIndexEntry *a =
            &g_array_index (scan->entries, GstCtfIndexEntry, j);
        GstCtfIndexEntry *b =
            &g_array_index (f->index->entries, GstCtfIndexEntry, j);

        fail_unless_equals_uint64 (a->offset, b->offset);
        fail_unless_equals_uint64 (a->packet_size, b->packet_size);
        fail_unless_equals_uint64 (a->content_size, b->content_size);
        fail_unless_equals_uint64 (a->timestamp_begin, b->timestamp_begin);
        fail_unless_equals_int64 (a->timestamp_begin_ns,
            b->timestamp_begin_ns);
        fail_unless_equals_uint64 (a->stream_class_id, b->stream_class_id);
      }
      gst_ctf_index_free (scan);
    }
    fail_unless (used_idx > 0, "%s: no .idx file used", units[u]);
    gst_ctf_trace_dir_free (td);
    g_free (dir);
  }
}

GST_END_TEST;

/* A bad index is refused (then scanning is used), never trusted. */
GST_START_TEST (test_index_validation)
{
  gchar *dir;
  GstCtfTraceDir *td;
  GError *err = NULL;
  GstCtfStreamFile *f = NULL;
  gchar *idx_path, *base, *fdir, *idx;
  gsize idx_len;
  guint8 *bad;
  GstCtfIndex *index;
  guint i;

  NEED_CORPUS ();
  dir = test_corpus_path ("ctf/babeltrace/succeed/trace-with-index");
  td = gst_ctf_trace_dir_open (dir, &err);
  fail_unless (td != NULL, "%s", err ? err->message : "");
  for (i = 0; i < td->files->len && f == NULL; i++) {
    GstCtfStreamFile *c = g_ptr_array_index (td->files, i);
    if (c->index && c->index->from_idx_file)
      f = c;
  }
  fail_unless (f != NULL);
  base = g_path_get_basename (f->path);
  fdir = g_path_get_dirname (f->path);
  idx = g_strconcat (base, ".idx", NULL);
  idx_path = g_build_filename (fdir, "index", idx, NULL);
  fail_unless (g_file_get_contents (idx_path, (gchar **) & bad, &idx_len,
          NULL));

  index = gst_ctf_index_read_idx (td->trace_class, f->data, f->size, bad,
      idx_len, idx_path, &err);
  fail_unless (index != NULL, "%s", err ? err->message : "");
  gst_ctf_index_free (index);

  /* wrong magic */
  bad[0] ^= 0xff;
  index = gst_ctf_index_read_idx (td->trace_class, f->data, f->size, bad,
      idx_len, idx_path, &err);
  fail_unless (index == NULL);
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_INDEX));
  g_clear_error (&err);
  bad[0] ^= 0xff;

  /* truncated entry area */
  index = gst_ctf_index_read_idx (td->trace_class, f->data, f->size, bad,
      idx_len - 1, idx_path, &err);
  fail_unless (index == NULL);
  g_clear_error (&err);

  /* sum of packet sizes != file size (stream file shorter) */
  index = gst_ctf_index_read_idx (td->trace_class, f->data, f->size - 1, bad,
      idx_len, idx_path, &err);
  fail_unless (index == NULL);
  g_clear_error (&err);

  /* header only: 0 packets != file size */
  index = gst_ctf_index_read_idx (td->trace_class, f->data, f->size, bad,
      16, idx_path, &err);
  fail_unless (index == NULL);
  g_clear_error (&err);

  g_free (bad);
  g_free (idx_path);
  g_free (idx);
  g_free (fdir);
  g_free (base);
  gst_ctf_trace_dir_free (td);
  g_free (dir);
}

GST_END_TEST;

/* ---- ctfsrc -------------------------------------------------------- */

/* Packets come out byte for byte, in timestamp_begin order, with PTS,
 * DURATION, meta and caps; every packet of every file exactly once. */
static void
check_trace_output (const gchar * rel)
{
  gchar *dir = test_corpus_path (rel);
  GPtrArray *traces;
  GstCtfTraceDir *td;
  GError *err = NULL;
  Run r;
  guint i, expected_packets = 0;
  GstClockTime last_pts = 0;
  guint last_rank = 0;
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);

  traces = gst_ctf_find_traces (dir, &err);
  fail_unless (traces != NULL && traces->len == 1);
  td = gst_ctf_trace_dir_open (g_ptr_array_index (traces, 0), &err);
  fail_unless (td != NULL, "%s: %s", rel, err ? err->message : "");
  for (i = 0; i < td->streams->len; i++)
    expected_packets +=
        ((GstCtfStream *) g_ptr_array_index (td->streams, i))->packets->len;

  run_init (&r);
  run_src (dir, &r);
  fail_unless (r.error == NULL, "%s: %s", rel, r.error ?
      error_text (r.error) : "");
  fail_unless (r.eos);
  fail_unless_equals_int (r.buffers->len, expected_packets);

  /* caps: the plain TSDL text and the UUID */
  fail_unless (r.caps != NULL || expected_packets == 0);
  if (r.caps) {
    fail_unless_equals_string (gst_ctf_caps_get_metadata (r.caps),
        td->metadata);
    fail_unless (gst_structure_has_field (gst_caps_get_structure (r.caps, 0),
            "uuid") == td->trace_class->has_uuid);
  }

  for (i = 0; i < r.buffers->len; i++) {
    GstBuffer *b = g_ptr_array_index (r.buffers, i);
    GstCtfPacketMeta *m = gst_buffer_get_ctf_packet_meta (b);
    GstCtfStreamFile *f = NULL;
    GstMapInfo map;
    guint j;
    gchar *key;

    fail_unless (m != NULL);
    fail_unless (m->stream_name != NULL);
    for (j = 0; j < td->files->len; j++) {
      GstCtfStreamFile *c = g_ptr_array_index (td->files, j);
      if (strcmp (c->name, m->stream_name) == 0)
        f = c;
    }
    fail_unless (f != NULL, "unknown stream file %s", m->stream_name);
    fail_unless (m->offset >= 0);
    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    fail_unless ((gsize) m->offset + map.size <= f->size);
    fail_unless (memcmp (map.data, f->data + m->offset, map.size) == 0,
        "%s: packet bytes differ from the file", rel);
    gst_buffer_unmap (b, &map);

    key = g_strdup_printf ("%s@%" G_GINT64_FORMAT, m->stream_name, m->offset);
    fail_if (g_hash_table_contains (seen, key), "packet pushed twice: %s",
        key);
    g_hash_table_add (seen, key);

    if (GST_BUFFER_PTS_IS_VALID (b)) {
      fail_unless (GST_BUFFER_PTS (b) >= last_pts,
          "%s: PTS goes back at packet %u", rel, i);
      if (GST_BUFFER_PTS (b) == last_pts && i > 0)
        fail_unless (m->stream_index >= last_rank ||
            GST_BUFFER_PTS (b) == last_pts, "tie order");
      last_pts = GST_BUFFER_PTS (b);
      last_rank = m->stream_index;
    }
  }

  g_hash_table_unref (seen);
  run_clear (&r);
  gst_ctf_trace_dir_free (td);
  g_ptr_array_unref (traces);
  g_free (dir);
}

GST_START_TEST (test_src_packets)
{
  const gchar *units[] = {
    "ctf/babeltrace/succeed/2packets",
    "ctf/babeltrace/succeed/smalltrace",
    "ctf/babeltrace/succeed/lttng-tracefile-rotation",
    "ctf/babeltrace/succeed/trace-with-index",
    "ctf/babeltrace/packet-seq-num/2-streams-lost-in-2",
    "ctf/lttng-ust/pthread-multichan",
    "ctf/lttng-ust/custom-2cpu",
    NULL
  };
  guint i;

  NEED_CORPUS ();
  for (i = 0; units[i]; i++)
    check_trace_output (units[i]);
}

GST_END_TEST;

/* PTS is timestamp_begin in ns since the epoch for LTTng (its monotonic
 * clock has an absolute origin); DURATION = end - begin. */
GST_START_TEST (test_src_pts_values)
{
  gchar *dir;
  GstCtfTraceDir *td;
  GError *err = NULL;
  Run r;
  GstBuffer *b;
  GstCtfPacketMeta *m;
  guint i, j;
  const GstCtfIndexEntry *e = NULL;

  NEED_CORPUS ();
  dir = test_corpus_path ("ctf/lttng-ust/custom-2cpu/ust/uid/0/64-bit");
  td = gst_ctf_trace_dir_open (dir, &err);
  fail_unless (td != NULL, "%s", err ? err->message : "");
  run_init (&r);
  run_src (dir, &r);
  fail_unless (r.error == NULL);
  fail_unless (r.buffers->len > 0);
  b = g_ptr_array_index (r.buffers, 0);
  m = gst_buffer_get_ctf_packet_meta (b);
  for (i = 0; i < td->streams->len; i++) {
    GstCtfStream *s = g_ptr_array_index (td->streams, i);
    for (j = 0; j < s->packets->len; j++) {
      GstCtfStreamPacket *p = &g_array_index (s->packets, GstCtfStreamPacket,
          j);
      if (p->file->name == m->stream_name
          && p->entry->offset == (guint64) m->offset)
        e = p->entry;
    }
  }
  fail_unless (e != NULL);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (b), e->timestamp_begin_ns);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (b),
      e->timestamp_end_ns - e->timestamp_begin_ns);
  /* recorded in 2025/2026: well after 2020-01-01 */
  fail_unless (GST_BUFFER_PTS (b) > G_GUINT64_CONSTANT (1577836800) *
      GST_SECOND);
  run_clear (&r);
  gst_ctf_trace_dir_free (td);
  g_free (dir);
}

GST_END_TEST;

/* Several traces with different UUIDs below location (LTTng kernel + UST)
 * are read merged, as babeltrace2 reads them: one merged trace class in
 * the caps, every packet of both traces, in timestamp_begin order, with
 * the merged stream class ids in their headers. */
GST_START_TEST (test_src_several_traces)
{
  gchar *dir, *kdir, *udir;
  Run r;
  GstCtfTraceDir *k, *u;
  GstCtfTraceClass *tc;
  guint i;
  GstClockTime last = 0;

  NEED_CORPUS ();
  dir = test_corpus_path ("ctf/babeltrace/succeed/multi-domains");
  kdir = g_build_filename (dir, "kernel", NULL);
  udir = g_build_filename (dir, "ust", NULL);
  k = gst_ctf_trace_dir_open (kdir, NULL);
  u = gst_ctf_trace_dir_open (udir, NULL);
  fail_unless (k != NULL && u != NULL);
  run_init (&r);
  run_src (dir, &r);
  fail_unless (r.error == NULL, "%s", r.error ? error_text (r.error) : "");
  fail_unless (r.caps != NULL);
  tc = gst_ctf_tsdl_parse (gst_ctf_caps_get_metadata (r.caps), "caps", NULL);
  fail_unless (tc != NULL);
  fail_unless (gst_ctf_trace_class_find_env (tc, "gstctf_merged_traces")
      != NULL);
  fail_unless_equals_int (tc->stream_classes->len,
      k->trace_class->stream_classes->len +
      u->trace_class->stream_classes->len);
  {
    guint n = 0;

    for (i = 0; i < k->streams->len; i++)
      n += ((GstCtfStream *) g_ptr_array_index (k->streams, i))->packets->len;
    for (i = 0; i < u->streams->len; i++)
      n += ((GstCtfStream *) g_ptr_array_index (u->streams, i))->packets->len;
    fail_unless_equals_int (r.buffers->len, n);
  }
  for (i = 0; i < r.buffers->len; i++) {
    GstBuffer *b = g_ptr_array_index (r.buffers, i);
    GstCtfPacketMeta *meta = gst_buffer_get_ctf_packet_meta (b);
    GstCtfPacketInfo info;
    GstMapInfo map;

    fail_unless (GST_BUFFER_PTS (b) >= last);
    last = GST_BUFFER_PTS (b);
    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    fail_unless (gst_ctf_packet_read_info (tc, map.data, map.size, &info,
            NULL));
    fail_unless (meta != NULL);
    fail_unless_equals_uint64 (info.stream_class_id, meta->stream_class_id);
    fail_unless (info.has_uuid && memcmp (info.uuid, tc->uuid, 16) == 0);
    gst_buffer_unmap (b, &map);
  }
  gst_ctf_trace_class_unref (tc);
  gst_ctf_trace_dir_free (k);
  gst_ctf_trace_dir_free (u);
  run_clear (&r);
  g_free (kdir);
  g_free (udir);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_src_no_trace)
{
  Run r;
  gchar *t;

  run_init (&r);
  run_src ("/nonexistent/trace", &r);
  fail_unless (r.error != NULL);
  t = error_text (r.error);
  fail_unless (strstr (t, "gst-ctf-error-quark") != NULL, "%s", t);
  g_free (t);
  run_clear (&r);
}

GST_END_TEST;

/* Every trace of the fail/ set: an error (never a crash), with the GError
 * domain of the library in the message. */
GST_START_TEST (test_src_fail_traces)
{
  gchar *fail_dir;
  GDir *d;
  const gchar *name;
  guint n = 0;

  NEED_CORPUS ();
  fail_dir = test_corpus_path ("ctf/babeltrace/fail");
  d = g_dir_open (fail_dir, 0, NULL);
  fail_unless (d != NULL);
  while ((name = g_dir_read_name (d)) != NULL) {
    gchar *unit = g_build_filename (fail_dir, name, NULL);
    Run r;

    run_init (&r);
    run_src (unit, &r);
    if (r.error) {
      gchar *t = error_text (r.error);
      fail_unless (strstr (t, "gst-ctf-error-quark") != NULL, "%s: %s", name,
          t);
      g_print ("fail/%s: %u packets, then error: %s\n", name,
          r.buffers->len, t);
      g_free (t);
    } else {
      /* Only packet-level reading happens here: a trace whose events are
       * corrupt (not its headers) reads fine in ctfsrc. */
      g_print ("fail/%s: no error at packet level (%u packets)\n", name,
          r.buffers->len);
    }
    run_clear (&r);
    g_free (unit);
    n++;
  }
  g_dir_close (d);
  fail_unless (n >= 11);
  g_free (fail_dir);
}

GST_END_TEST;

GST_START_TEST (test_src_specific_errors)
{
  Run r;
  gchar *dir, *t;

  NEED_CORPUS ();
  /* TSDL syntax error: METADATA_SYNTAX (code 1) */
  dir = test_corpus_path ("ctf/babeltrace/fail/metadata-syntax-error");
  run_init (&r);
  run_src (dir, &r);
  fail_unless (r.error != NULL);
  t = error_text (r.error);
  fail_unless (strstr (t, "gst-ctf-error-quark, code 1)") != NULL, "%s", t);
  g_free (t);
  run_clear (&r);
  g_free (dir);

  /* packet size larger than the file: PACKET (code 5), naming the file
   * and the offset */
  dir = test_corpus_path ("ctf/babeltrace/fail/invalid-packet-size");
  run_init (&r);
  run_src (dir, &r);
  fail_unless (r.error != NULL);
  t = error_text (r.error);
  fail_unless (strstr (t, "gst-ctf-error-quark, code 5)") != NULL, "%s", t);
  fail_unless (strstr (t, "offset=") != NULL, "%s", t);
  g_free (t);
  run_clear (&r);
  g_free (dir);
}

GST_END_TEST;

/* A stream file whose first packet header or context cannot be read fails
 * the trace when it opens, as babeltrace2 does (nothing printed): the state
 * change to PAUSED fails at once with the error on the bus, instead of an
 * error from the streaming thread racing the application's main loop. */
GST_START_TEST (test_src_first_packet_error_at_start)
{
  const gchar *units[] = { "smalltrace", "invalid-packet-size" };
  guint i;

  NEED_CORPUS ();
  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    gchar *rel = g_strconcat ("ctf/babeltrace/fail/", units[i], NULL);
    gchar *dir = test_corpus_path (rel);
    GstElement *pipe = gst_pipeline_new (NULL);
    GstElement *src = gst_element_factory_make ("ctfsrc", NULL);
    GstElement *sink = gst_element_factory_make ("fakesink", NULL);
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *msg;
    GError *err = NULL;
    gchar *dbg = NULL;

    fail_unless (src != NULL && sink != NULL);
    g_object_set (src, "location", dir, NULL);
    gst_bin_add_many (GST_BIN (pipe), src, sink, NULL);
    fail_unless (gst_element_link (src, sink));
    fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "%s: no error message", units[i]);
    gst_message_parse_error (msg, &err, &dbg);
    fail_unless (g_error_matches (err, GST_STREAM_ERROR,
            GST_STREAM_ERROR_DECODE), "%s: %s", units[i], err->message);
    fail_unless (strstr (err->message, "Cannot read first packet header or "
            "context") != NULL, "%s: %s", units[i], err->message);
    fail_unless (strstr (dbg, "gst-ctf-error-quark, code 5)") != NULL, "%s",
        dbg);
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipe);
    g_free (dir);
    g_free (rel);
  }
}

GST_END_TEST;

/* Lost packets (packet_seq_num gaps) are posted as warnings with counts. */
GST_START_TEST (test_src_packet_seq_num_warnings)
{
  struct
  {
    const gchar *unit;
    guint64 lost;
  } cases[] = {
    {"ctf/babeltrace/packet-seq-num/2-lost-before-last", 2},
    {"ctf/babeltrace/packet-seq-num/2-streams-lost-in-2", 6},
    {"ctf/babeltrace/packet-seq-num/7-lost-between-2-with-index", 7},
    {"ctf/babeltrace/packet-seq-num/no-lost", 0},
    {"ctf/babeltrace/packet-seq-num/no-lost-not-starting-at-0", 0},
  };
  guint c, i;

  NEED_CORPUS ();
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    gchar *dir = test_corpus_path (cases[c].unit);
    Run r;
    guint64 lost = 0;

    run_init (&r);
    run_src (dir, &r);
    fail_unless (r.error == NULL, "%s", cases[c].unit);
    for (i = 0; i < r.warnings->len; i++) {
      const GstStructure *det = NULL;
      guint64 n;

      gst_message_parse_warning_details (g_ptr_array_index (r.warnings, i),
          &det);
      if (det && gst_structure_get_uint64 (det, "discarded-packets", &n))
        lost += n;
    }
    fail_unless_equals_uint64 (lost, cases[c].lost);
    run_clear (&r);
    g_free (dir);
  }
}

GST_END_TEST;

GST_START_TEST (test_src_discarded_events_warning)
{
  gchar *dir;
  Run r;
  guint i;
  guint64 total = 0;

  NEED_CORPUS ();
  dir = test_corpus_path ("ctf/babeltrace/succeed/ev-disc-no-ts-begin-end");
  run_init (&r);
  run_src (dir, &r);
  fail_unless (r.error == NULL);
  for (i = 0; i < r.warnings->len; i++) {
    const GstStructure *det = NULL;
    guint64 n;

    gst_message_parse_warning_details (g_ptr_array_index (r.warnings, i),
        &det);
    if (det && gst_structure_get_uint64 (det, "discarded-events", &n))
      total += n;
  }
  /* babeltrace2: "Tracer discarded 17 events" */
  fail_unless_equals_uint64 (total, 17);
  run_clear (&r);
  g_free (dir);
}

GST_END_TEST;

/* DURATION and SEEKING queries, then a TIME seek: every stream restarts
 * at its first packet ending at or after the seek position. */
GST_START_TEST (test_src_seek)
{
  gchar *dir;
  GstCtfTraceDir *td;
  GError *err = NULL;
  GstElement *pipeline, *src;
  Run r;
  gint64 dur = -1, seg_start = -1, seg_end = -1, mid;
  gint64 first_begin = G_MAXINT64, last_end = 0;
  gboolean seekable = FALSE;
  GstQuery *q;
  guint i, j, expected = 0;

  NEED_CORPUS ();
  dir = test_corpus_path ("ctf/lttng-ust/pthread-multichan");
  {
    GPtrArray *t = gst_ctf_find_traces (dir, &err);
    fail_unless (t != NULL && t->len == 1);
    td = gst_ctf_trace_dir_open (g_ptr_array_index (t, 0), &err);
    g_ptr_array_unref (t);
  }
  fail_unless (td != NULL, "%s", err ? err->message : "");
  for (i = 0; i < td->streams->len; i++) {
    GstCtfStream *s = g_ptr_array_index (td->streams, i);
    for (j = 0; j < s->packets->len; j++) {
      const GstCtfIndexEntry *e =
          g_array_index (s->packets, GstCtfStreamPacket, j).entry;
      first_begin = MIN (first_begin, e->timestamp_begin_ns);
      last_end = MAX (last_end, e->timestamp_end_ns);
    }
  }
  mid = first_begin + (last_end - first_begin) / 2;
  for (i = 0; i < td->streams->len; i++) {
    GstCtfStream *s = g_ptr_array_index (td->streams, i);
    for (j = 0; j < s->packets->len; j++) {
      if (g_array_index (s->packets, GstCtfStreamPacket,
              j).entry->timestamp_end_ns >= mid)
        expected++;
    }
  }

  run_init (&r);
  pipeline = make_pipeline (dir, &r, &src);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);

  fail_unless (gst_element_query_duration (pipeline, GST_FORMAT_TIME, &dur));
  /* stream time: 0 at the first timestamp_begin */
  fail_unless_equals_int64 (dur, last_end - first_begin);
  q = gst_query_new_seeking (GST_FORMAT_TIME);
  fail_unless (gst_element_query (pipeline, q));
  gst_query_parse_seeking (q, NULL, &seekable, &seg_start, &seg_end);
  fail_unless (seekable);
  fail_unless_equals_int64 (seg_start, 0);
  fail_unless_equals_int64 (seg_end, last_end - first_begin);
  gst_query_unref (q);

  fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, mid - first_begin));
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  g_mutex_lock (&r.lock);
  g_ptr_array_set_size (r.buffers, 0);
  g_mutex_unlock (&r.lock);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  wait_bus (pipeline, &r);
  fail_unless (r.error == NULL);
  /* The prerolled buffer after the seek was cleared above but is
   * rendered once more when going to PLAYING; at most one more. */
  fail_unless (r.buffers->len == expected || r.buffers->len == expected - 1,
      "got %u buffers after seek, expected %u", r.buffers->len, expected);
  for (i = 0; i < r.buffers->len; i++) {
    GstBuffer *b = g_ptr_array_index (r.buffers, i);
    fail_unless (GST_BUFFER_PTS (b) + GST_BUFFER_DURATION (b) >=
        (GstClockTime) mid);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  run_clear (&r);
  gst_ctf_trace_dir_free (td);
  g_free (dir);
}

GST_END_TEST;

/* A stream file cut in the middle of a packet: the valid packets (of all
 * streams, in order) come out first, then an error naming the file, the
 * byte offset and what was expected. */
GST_START_TEST (test_src_truncated_file)
{
  gchar *src_dir, *tmp, *cmd, *victim, *t;
  gchar *data = NULL;
  gsize len = 0;
  Run r;
  guint i, n_victim = 0, n_other = 0;
  GstClockTime last = 0;

  NEED_CORPUS ();
  src_dir = test_corpus_path ("ctf/lttng-ust/custom-2cpu/ust/uid/0/64-bit");
  tmp = g_dir_make_tmp ("ctfsrc-XXXXXX", NULL);
  /* no index/: the cut file must be scanned */
  cmd = g_strdup_printf ("cp '%s/metadata' '%s/channel0_0' '%s/channel0_1' "
      "'%s/' && chmod u+w '%s'/*", src_dir, src_dir, src_dir, tmp, tmp);
  fail_unless (system (cmd) == 0);
  g_free (cmd);
  victim = g_build_filename (tmp, "channel0_0", NULL);
  fail_unless (g_file_get_contents (victim, &data, &len, NULL));
  fail_unless (len > 6 * 8192);
  /* 5 whole 8 KiB packets and half of the 6th */
  fail_unless (g_file_set_contents (victim, data, 5 * 8192 + 4096, NULL));
  g_free (data);

  run_init (&r);
  run_src (tmp, &r);
  fail_unless (r.error != NULL);
  t = error_text (r.error);
  fail_unless (strstr (t, "channel0_0") != NULL, "%s", t);
  fail_unless (strstr (t, "offset=40960") != NULL, "%s", t);
  fail_unless (strstr (t, "gst-ctf-error-quark, code 5)") != NULL, "%s", t);
  for (i = 0; i < r.buffers->len; i++) {
    GstBuffer *b = g_ptr_array_index (r.buffers, i);
    GstCtfPacketMeta *m = gst_buffer_get_ctf_packet_meta (b);

    if (strcmp (m->stream_name, "channel0_0") == 0)
      n_victim++;
    else
      n_other++;
    fail_unless (GST_BUFFER_PTS (b) >= last);
    last = GST_BUFFER_PTS (b);
  }
  fail_unless_equals_int (n_victim, 5);
  fail_unless (n_other > 0);
  g_free (t);
  run_clear (&r);

  cmd = g_strdup_printf ("rm -rf '%s'", tmp);
  fail_unless (system (cmd) == 0);
  g_free (cmd);
  g_free (victim);
  g_free (tmp);
  g_free (src_dir);
}

GST_END_TEST;

/* LTTng session rotation: chunks of one trace (same UUID) in several
 * directories are read as one logical trace, the same packets in the same
 * order as the unsplit trace. */
GST_START_TEST (test_src_rotation_chunks_merged)
{
  const gchar *files[] = { "channel0_0", "channel0_1" };
  gchar *src_dir, *tmp, *cmd;
  Run whole, split;
  guint f, i;

  NEED_CORPUS ();
  src_dir = test_corpus_path ("ctf/lttng-ust/custom-2cpu/ust/uid/0/64-bit");
  tmp = g_dir_make_tmp ("ctfsrc-XXXXXX", NULL);
  cmd = g_strdup_printf ("mkdir -p '%s/c1/ust/uid/0/64-bit' "
      "'%s/c2/ust/uid/0/64-bit' && "
      "cp '%s/metadata' '%s/c1/ust/uid/0/64-bit/' && "
      "cp '%s/metadata' '%s/c2/ust/uid/0/64-bit/'", tmp, tmp, src_dir, tmp,
      src_dir, tmp);
  fail_unless (system (cmd) == 0);
  g_free (cmd);
  /* first 7 packets (8 KiB each) of each stream in chunk 1, rest in 2 */
  for (f = 0; f < G_N_ELEMENTS (files); f++) {
    gchar *in = g_build_filename (src_dir, files[f], NULL);
    gchar *o1 = g_build_filename (tmp, "c1/ust/uid/0/64-bit", files[f], NULL);
    gchar *o2 = g_build_filename (tmp, "c2/ust/uid/0/64-bit", files[f], NULL);
    gchar *data;
    gsize len;

    fail_unless (g_file_get_contents (in, &data, &len, NULL));
    fail_unless (len > 7 * 8192);
    fail_unless (g_file_set_contents (o1, data, 7 * 8192, NULL));
    fail_unless (g_file_set_contents (o2, data + 7 * 8192, len - 7 * 8192,
            NULL));
    g_free (data);
    g_free (in);
    g_free (o1);
    g_free (o2);
  }

  run_init (&whole);
  run_src (src_dir, &whole);
  run_init (&split);
  run_src (tmp, &split);
  fail_unless (whole.error == NULL && split.error == NULL, "%s",
      split.error ? error_text (split.error) : "");
  fail_unless_equals_int (split.buffers->len, whole.buffers->len);
  for (i = 0; i < whole.buffers->len; i++) {
    GstBuffer *a = g_ptr_array_index (whole.buffers, i);
    GstBuffer *b = g_ptr_array_index (split.buffers, i);
    GstMapInfo ma, mb;

    fail_unless_equals_uint64 (GST_BUFFER_PTS (a), GST_BUFFER_PTS (b));
    fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
    fail_unless (gst_buffer_map (b, &mb, GST_MAP_READ));
    fail_unless (ma.size == mb.size && memcmp (ma.data, mb.data,
            ma.size) == 0, "packet %u differs", i);
    gst_buffer_unmap (a, &ma);
    gst_buffer_unmap (b, &mb);
  }
  run_clear (&whole);
  run_clear (&split);

  cmd = g_strdup_printf ("rm -rf '%s'", tmp);
  fail_unless (system (cmd) == 0);
  g_free (cmd);
  g_free (tmp);
  g_free (src_dir);
}

GST_END_TEST;

/* Corrupted copies of a trace (random bytes in packet headers and
 * contexts, LTTng index included): never a crash or a hang, and every
 * buffer pushed lies inside its file. */
GST_START_TEST (test_src_corrupted_copies)
{
  gchar *src_dir, *tmp, *cmd;
  GRand *rand;
  guint round, n_errors = 0;

  NEED_CORPUS ();
  rand = g_rand_new_with_seed (20261122);
  src_dir = test_corpus_path ("ctf/babeltrace/succeed/trace-with-index");
  tmp = g_dir_make_tmp ("ctfsrc-XXXXXX", NULL);
  for (round = 0; round < 40; round++) {
    GPtrArray *names;
    guint k, n;
    Run r;

    cmd = g_strdup_printf ("rm -rf '%s'/t && cp -r '%s' '%s'/t && "
        "chmod -R u+w '%s'/t", tmp, src_dir, tmp, tmp);
    fail_unless (system (cmd) == 0);
    g_free (cmd);
    {
      gchar *t = g_build_filename (tmp, "t", NULL);
      names = gst_ctf_trace_dir_list_stream_files (t, NULL);
      fail_unless (names != NULL && names->len > 0);
      for (k = 0; k < 1 + round % 4; k++) {
        const gchar *name = g_ptr_array_index (names,
            g_rand_int_range (rand, 0, names->len));
        gchar *p = g_build_filename (t, name, NULL);
        gchar *idx_name = g_strconcat (name, ".idx", NULL);
        gchar *idx = g_build_filename (t, "index", idx_name, NULL);
        gchar *target = (round % 3 == 0
            && g_file_test (idx, G_FILE_TEST_EXISTS)) ? idx : p;
        gchar *data;
        gsize len;

        fail_unless (g_file_get_contents (target, &data, &len, NULL));
        if (len > 0) {
          /* mostly the first bytes of a packet: header and context */
          gsize at = g_rand_int_range (rand, 0, MIN (len, 128));
          if (round % 5 == 4)
            len = g_rand_int_range (rand, 0, len);      /* truncate */
          else
            data[at] ^= (gchar) (1 + g_rand_int_range (rand, 0, 255));
          fail_unless (g_file_set_contents (target, data, len, NULL));
        }
        g_free (data);
        g_free (idx);
        g_free (idx_name);
        g_free (p);
      }
      g_ptr_array_unref (names);

      run_init (&r);
      run_src (t, &r);
      fail_unless (r.error != NULL || r.eos);
      n_errors += r.error != NULL;
      for (n = 0; n < r.buffers->len; n++) {
        GstBuffer *b = g_ptr_array_index (r.buffers, n);
        GstCtfPacketMeta *m = gst_buffer_get_ctf_packet_meta (b);
        fail_unless (m != NULL && m->offset >= 0);
        fail_unless (gst_buffer_get_size (b) > 0);
      }
      run_clear (&r);
      g_free (t);
    }
  }
  g_print ("corrupted copies: %u of 40 gave an error\n", n_errors);
  fail_unless (n_errors > 0);
  cmd = g_strdup_printf ("rm -rf '%s'", tmp);
  fail_unless (system (cmd) == 0);
  g_free (cmd);
  g_rand_free (rand);
  g_free (tmp);
  g_free (src_dir);
}

GST_END_TEST;

static Suite *
ctfsrc_suite (void)
{
  Suite *s = suite_create ("ctfsrc");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_find_traces_below_session);
  tcase_add_test (tc, test_stream_files_rule);
  tcase_add_test (tc, test_tracefile_rotation_groups);
  tcase_add_test (tc, test_auto_stream_ids);
  tcase_add_test (tc, test_index_idx_matches_scan);
  tcase_add_test (tc, test_index_validation);
  tcase_add_test (tc, test_src_packets);
  tcase_add_test (tc, test_src_pts_values);
  tcase_add_test (tc, test_src_several_traces);
  tcase_add_test (tc, test_src_no_trace);
  tcase_add_test (tc, test_src_fail_traces);
  tcase_add_test (tc, test_src_specific_errors);
  tcase_add_test (tc, test_src_first_packet_error_at_start);
  tcase_add_test (tc, test_src_packet_seq_num_warnings);
  tcase_add_test (tc, test_src_discarded_events_warning);
  tcase_add_test (tc, test_src_seek);
  tcase_add_test (tc, test_src_truncated_file);
  tcase_add_test (tc, test_src_rotation_chunks_merged);
  tcase_add_test (tc, test_src_corrupted_copies);
  return s;
}

GST_CHECK_MAIN (ctfsrc);
