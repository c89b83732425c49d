/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfPacketSource (issue 26): every input on disk through one source:
 * which kind a path is, packets equal to those of the kind's own reader
 * (GstCtfTraceSource, the trace.dat and LTTng 0.x packetizers), rewind
 * and seek giving the same packets again, and GstCtf.EventReader reading
 * LTTng 0.x traces through it (event counts of the corpus's names); two
 * sources on one trace.dat share its parse and read it as one would.
 */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <string.h>
#include "gstctf-packet-source.h"
#include "gstctf-trace-source.h"
#include "gstctf-event-reader.h"
#include "gsttracecmd-packetizer.h"
#include "gstlttng0-packetizer.h"
#include "gstctf-reader.h"
#include "test-util.h"

/* What identifies a packet: its fields and its bytes. */
typedef struct {
  guint64 stream_class_id;
  gint64 rank, stream_id, offset;
  const gchar *stream_name;
  gsize size;
  gchar *sha;
} Seen;

static void
seen_clear (gpointer p)
{
  g_free (((Seen *) p)->sha);
}

static GArray *
seen_new (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (Seen));

  g_array_set_clear_func (a, seen_clear);
  return a;
}

static void
seen_add (GArray * a, guint64 sc, gint64 rank, gint64 stream_id,
    const gchar * name, gint64 offset, GBytes * bytes)
{
  Seen s;

  s.stream_class_id = sc;
  s.rank = rank;
  s.stream_id = stream_id;
  s.stream_name = g_intern_string (name);
  s.offset = offset;
  s.size = g_bytes_get_size (bytes);
  s.sha = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
  g_array_append_val (a, s);
}

static void
assert_same (GArray * a, GArray * b, const gchar * what)
{
  guint i;

  fail_unless_equals_int (a->len, b->len);
  for (i = 0; i < a->len; i++) {
    const Seen *x = &g_array_index (a, Seen, i), *y = &g_array_index (b,
        Seen, i);

    fail_unless (x->stream_class_id == y->stream_class_id && x->rank ==
        y->rank && x->stream_id == y->stream_id && x->offset == y->offset
        && x->stream_name == y->stream_name && x->size == y->size &&
        strcmp (x->sha, y->sha) == 0, "%s: packet %u differs (%s@%"
        G_GINT64_FORMAT " vs %s@%" G_GINT64_FORMAT ")", what, i,
        x->stream_name, x->offset, y->stream_name, y->offset);
  }
}

/* Every packet left in @s. */
static GArray *
read_all (GstCtfPacketSource * s)
{
  GArray *a = seen_new ();
  GstCtfPacketSourcePacket p;
  GError *err = NULL;
  gint r;

  while ((r = gst_ctf_packet_source_next (s, &p, &err)) > 0) {
    seen_add (a, p.stream_class_id, p.rank, p.stream_id, p.stream_name,
        p.offset, p.bytes);
    g_bytes_unref (p.bytes);
  }
  fail_unless (r == 0, "%s", err ? err->message : "?");
  fail_unless (a->len > 0);
  return a;
}

/* Opens @path, checks its kind, reads it, rewinds and (when it can) seeks
 * to the start: the same packets each time.  Returns the packets. */
static GArray *
check_source (const gchar * path, GstCtfPacketSourceFlags flags,
    GstCtfPacketSourceKind kind)
{
  GError *err = NULL;
  GstCtfPacketSource *s = gst_ctf_packet_source_open (path, flags, &err);
  GArray *first, *again;

  fail_unless (s != NULL, "%s: %s", path, err ? err->message : "?");
  fail_unless_equals_int (gst_ctf_packet_source_get_kind (s), kind);
  fail_unless (gst_ctf_packet_source_get_trace_class (s) != NULL);
  first = read_all (s);

  fail_unless (gst_ctf_packet_source_rewind (s, &err), "%s",
      err ? err->message : "?");
  again = read_all (s);
  assert_same (first, again, "after rewind");
  g_array_unref (again);

  fail_unless (gst_ctf_packet_source_can_seek (s));
  fail_unless (gst_ctf_packet_source_seek (s, G_MININT64, &err));
  again = read_all (s);
  assert_same (first, again, "after a seek to the start");
  g_array_unref (again);
  gst_ctf_packet_source_free (s);
  return first;
}

GST_START_TEST (test_ctf)
{
  gchar *path = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"),
      "ust-sample", NULL);
  GArray *got = check_source (path, GST_CTF_PACKET_SOURCE_FLAGS_NONE,
      GST_CTF_PACKET_SOURCE_CTF);
  GArray *want = seen_new ();
  GstCtfTraceSource *ts = gst_ctf_trace_source_open (path, NULL);
  GstCtfSourcePacket p;

  fail_unless (ts != NULL);
  while (gst_ctf_trace_source_next (ts, &p, NULL) > 0) {
    seen_add (want, p.stream_class_id, p.rank, (gint64) p.stream_id,
        p.stream_name, p.offset, p.bytes);
    g_bytes_unref (p.bytes);
  }
  assert_same (want, got, "CTF vs GstCtfTraceSource");
  gst_ctf_trace_source_free (ts);
  g_array_unref (want);
  g_array_unref (got);
  g_free (path);
}

GST_END_TEST;

/* A trace.dat, with and without its side stream, against the trace.dat
 * packetizer with the same flags. */
GST_START_TEST (test_tracedat)
{
  guint side;

  NEED_CORPUS ();
  for (side = 0; side < 2; side++) {
    gchar *path = test_corpus_path ("tracedat/syscalls-kmem.v7-none.dat");
    GArray *got = check_source (path, side ?
        GST_CTF_PACKET_SOURCE_FLAGS_NONE :
        GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM,
        GST_CTF_PACKET_SOURCE_TRACE_DAT);
    GArray *want = seen_new ();
    GstCtfTraceDat *dat = gst_ctf_trace_dat_open (path, NULL);
    GstCtfTraceDatPacketizer *pk = gst_ctf_trace_dat_packetizer_new (dat,
        GST_CTF_TRACE_DAT_PACKETIZER_STRICT | (side ? 0 :
            GST_CTF_TRACE_DAT_PACKETIZER_NO_FILE_STREAM), 0, NULL);
    GstCtfTraceDatPacketInfo info;
    const guint8 *data;
    gsize size;

    fail_unless (pk != NULL);
    while (gst_ctf_trace_dat_packetizer_next (pk, &data, &size, &info,
            NULL) > 0) {
      GBytes *b = g_bytes_new_static (data, size);

      seen_add (want, info.stream_class_id, info.stream_index,
          (gint64) info.stream_instance_id, info.stream_name, -1, b);
      g_bytes_unref (b);
    }
    assert_same (want, got, "trace.dat vs its packetizer");
    /* the side stream is one more stream's packets */
    if (side)
      fail_unless (got->len > 0);
    gst_ctf_trace_dat_packetizer_free (pk);
    gst_ctf_trace_dat_unref (dat);
    g_array_unref (want);
    g_array_unref (got);
    g_free (path);
  }
}

GST_END_TEST;

/* Two sources on one trace.dat share one parse of it
 * (gstctf-trace-dat-share.c): each gives every packet a source alone
 * gives, read at once on two threads; a file replaced under the same path
 * is read again, not taken for the one still open. */
static gpointer
read_all_thread (gpointer s)
{
  return read_all (s);
}

static GArray *
read_path (const gchar * path)
{
  GstCtfPacketSource *s = gst_ctf_packet_source_open (path,
      GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM, NULL);
  GArray *a;

  fail_unless (s != NULL);
  a = read_all (s);
  gst_ctf_packet_source_free (s);
  return a;
}

GST_START_TEST (test_tracedat_shared)
{
  gchar *armv7 = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"),
      "tracecmd", "armv7-v6.dat", NULL);
  gchar *i686 = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"),
      "tracecmd", "i686-v6.dat", NULL);
  gchar *tmp = g_dir_make_tmp ("gstctf-share-XXXXXX", NULL);
  gchar *path = g_build_filename (tmp, "trace.dat", NULL);
  gchar *next = g_build_filename (tmp, "next.dat", NULL);
  GArray *want_a, *want_i, *got_a, *got_b, *got_c;
  GstCtfPacketSource *a, *b, *c;
  gchar *data;
  gsize len;
  GThread *t;

  want_a = read_path (armv7);
  want_i = read_path (i686);
  fail_unless (g_file_get_contents (armv7, &data, &len, NULL));
  fail_unless (g_file_set_contents (path, data, len, NULL));
  g_free (data);
  a = gst_ctf_packet_source_open (path, GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM,
      NULL);
  b = gst_ctf_packet_source_open (path, GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM,
      NULL);
  fail_unless (a != NULL && b != NULL);
  t = g_thread_new ("read-a", read_all_thread, a);
  got_b = read_all (b);
  got_a = g_thread_join (t);
  assert_same (want_a, got_a, "first of two sources on one file");
  assert_same (want_a, got_b, "second of two sources on one file");
  fail_unless (gst_ctf_packet_source_rewind (a, NULL));
  gst_ctf_packet_source_free (b);
  g_array_unref (got_a);
  got_a = read_all (a);         /* b gone, a still reads its file */
  assert_same (want_a, got_a, "a source after the other was freed");

  /* another trace.dat renamed over the path while a has it open */
  fail_unless (g_file_get_contents (i686, &data, &len, NULL));
  fail_unless (g_file_set_contents (next, data, len, NULL));
  g_free (data);
  fail_unless (g_rename (next, path) == 0);
  c = gst_ctf_packet_source_open (path, GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM,
      NULL);
  fail_unless (c != NULL);
  got_c = read_all (c);
  assert_same (want_i, got_c, "a file replaced under the same path");
  gst_ctf_packet_source_free (c);
  gst_ctf_packet_source_free (a);

  g_array_unref (want_a);
  g_array_unref (want_i);
  g_array_unref (got_a);
  g_array_unref (got_b);
  g_array_unref (got_c);
  g_unlink (path);
  g_rmdir (tmp);
  g_free (next);
  g_free (path);
  g_free (tmp);
  g_free (armv7);
  g_free (i686);
}

GST_END_TEST;

/* Unpacks a corpus tarball of LTTng 0.x into @tmp; returns the trace
 * directory (the tarball's name without .tar.gz). */
static gchar *
unpack_lttng0 (const gchar * tmp, const gchar * name)
{
  gchar *tarball = g_strdup_printf ("ltt0/%s.tar.gz", name);
  gchar *src = test_corpus_path (tarball);
  gchar *argv[] = { (gchar *) "tar", (gchar *) "xzf", src, (gchar *) "-C",
    (gchar *) tmp, NULL
  };
  gint status = -1;
  gchar *dir = g_build_filename (tmp, name, NULL);

  fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, NULL, NULL, &status, NULL) && status == 0, "tar %s", src);
  fail_unless (g_file_test (dir, G_FILE_TEST_IS_DIR), "no %s", dir);
  g_free (src);
  g_free (tarball);
  return dir;
}

/* An LTTng 0.x trace against the LTTng 0.x packetizer (rewinding reads
 * the tracefiles again from their start), a seek to a time in the middle
 * giving exactly its packets that end at or after that time, and read by
 * GstCtf.EventReader: as many events as the corpus's name says, none
 * lost, in time order. */
GST_START_TEST (test_lttng0)
{
  const gchar *name = "trace-15316events_nolost_newformat";
  gchar *tmp, *dir;
  GArray *got, *want, *after;
  GPtrArray *ends;
  GstCtfPacketSource *src;
  gint64 mid;
  guint i, j;
  GstCtfLttng0Trace *t;
  GstCtfLttng0Packetizer *pk;
  GstCtfLttng0PacketInfo info;
  GstCtfEventReader *r;
  GError *err = NULL;
  const guint8 *data;
  gsize size;
  gint64 last = G_MININT64;
  guint n = 0;

  NEED_CORPUS ();
  tmp = g_dir_make_tmp ("gstctf-psrc-XXXXXX", NULL);
  dir = unpack_lttng0 (tmp, name);
  got = check_source (dir, GST_CTF_PACKET_SOURCE_FLAGS_NONE,
      GST_CTF_PACKET_SOURCE_LTTNG0);
  want = seen_new ();
  t = gst_ctf_lttng0_trace_open (dir, NULL);
  fail_unless (t != NULL);
  pk = gst_ctf_lttng0_packetizer_new (t, NULL);
  fail_unless (pk != NULL);
  ends = g_ptr_array_new_with_free_func (g_free);
  while (gst_ctf_lttng0_packetizer_next (pk, &data, &size, &info, NULL) > 0) {
    GBytes *b = g_bytes_new_static (data, size);
    const GstCtfStreamClass *sc = gst_ctf_trace_class_find_stream_class
        (gst_ctf_lttng0_packetizer_get_trace_class (pk),
        info.stream_class_id);
    gint64 *end = g_new (gint64, 1);

    fail_unless (sc != NULL && sc->default_clock != NULL);
    fail_unless (gst_ctf_clock_class_cycles_to_ns_from_origin
        (sc->default_clock, info.timestamp_end, end));
    g_ptr_array_add (ends, end);

    seen_add (want, info.stream_class_id, info.stream_index,
        (gint64) info.stream_instance_id, info.stream_name,
        (gint64) info.file_offset, b);
    g_bytes_unref (b);
  }
  assert_same (want, got, "LTTng 0.x vs its packetizer");
  gst_ctf_lttng0_packetizer_free (pk);
  gst_ctf_lttng0_trace_unref (t);

  /* a seek to the end of the middle packet: the packets ending at or
   * after it, in the same order */
  mid = *(gint64 *) g_ptr_array_index (ends, ends->len / 2);
  src = gst_ctf_packet_source_open (dir, GST_CTF_PACKET_SOURCE_FLAGS_NONE,
      NULL);
  fail_unless (src != NULL);
  fail_unless (gst_ctf_packet_source_seek (src, mid, NULL));
  after = read_all (src);
  gst_ctf_packet_source_free (src);
  for (i = 0, j = 0; i < want->len; i++) {
    if (*(gint64 *) g_ptr_array_index (ends, i) < mid)
      continue;
    fail_unless (j < after->len);
    fail_unless (strcmp (g_array_index (want, Seen, i).sha,
            g_array_index (after, Seen, j).sha) == 0, "packet %u", i);
    j++;
  }
  fail_unless_equals_int (j, after->len);
  fail_unless (after->len < want->len);
  g_array_unref (after);
  g_ptr_array_unref (ends);

  r = gst_ctf_event_reader_open (dir, &err);
  fail_unless (r != NULL, "%s: %s", dir, err ? err->message : "?");
  gst_ctf_event_reader_set_decode_fields (r, FALSE);
  while (gst_ctf_event_reader_next (r, &err)) {
    if (gst_ctf_event_reader_has_timestamp (r)) {
      gint64 ts = gst_ctf_event_reader_get_timestamp_ns (r);

      fail_unless (ts >= last, "event %u before the one before it", n);
      last = ts;
    }
    n++;
  }
  fail_unless (err == NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (n, 15316);
  fail_unless_equals_uint64 (gst_ctf_event_reader_get_discarded_events (r),
      0);
  g_object_unref (r);

  g_array_unref (want);
  g_array_unref (got);
  test_rm_rf (tmp);
  g_free (dir);
  g_free (tmp);
}

GST_END_TEST;

/* Nothing there: the CTF source's error (no trace found). */
GST_START_TEST (test_errors)
{
  GError *err = NULL;
  gchar *tmp = g_dir_make_tmp ("gstctf-psrc-XXXXXX", NULL);

  fail_unless (gst_ctf_packet_source_open (tmp,
          GST_CTF_PACKET_SOURCE_FLAGS_NONE, &err) == NULL);
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_NO_TRACE),
      "%s", err ? err->message : "no error");
  g_clear_error (&err);
  g_rmdir (tmp);
  g_free (tmp);
}

GST_END_TEST;

static Suite *
packet_source_suite (void)
{
  Suite *s = suite_create ("packet source");
  TCase *tc = tcase_create ("kinds");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_ctf);
  tcase_add_test (tc, test_tracedat);
  tcase_add_test (tc, test_tracedat_shared);
  tcase_add_test (tc, test_lttng0);
  tcase_add_test (tc, test_errors);
  return s;
}

/* Without gst_check_init(): the library needs no GStreamer registry. */
int
main (void)
{
  SRunner *sr = srunner_create (packet_source_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
