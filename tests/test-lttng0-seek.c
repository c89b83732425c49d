/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng 0.x seeks by the sub-buffer headers' times (issue 26): for every
 * LTTng 0.x trace of the corpus, GstCtfPacketSource seeks to sampled
 * times (spread over the trace, at packet ends and one ns after them)
 * give, byte for byte, the packets a read from the start gives that end
 * at or after the time, in the same order, and, merged, the same rows
 * (time, stream, event class) as a full read from its first row at or
 * after the time, on one source seeking back and forth.  The time to the first packet after a seek and the time a
 * read from the start takes to reach it are printed (not asserted: the
 * machine may be shared).  Skipped without the corpus.
 */
#include <glib.h>
#include <stdlib.h>
#include <glib/gstdio.h>
#include <string.h>
#include "gstctf-packet-source.h"
#include "gstlttng0-packetizer.h"
#include "gstctf-reader.h"
#include "gstctf-event-merge.h"
#include "test-util.h"

#define N_TIMES 24
#define COMPARED 48             /* packets compared after each seek */
#define ROWS 3000               /* events compared after each seek */

/* An event (a row) as the merge gives it. */
typedef struct {
  gint64 ns;
  guint64 stream_class_id, event_class_id;
  const gchar *stream;          /* interned */
} Row;

/* Up to @max rows of @src, from where it is, at or after @from; all of
 * them when @max is 0. */
static GArray *
read_rows (GstCtfPacketSource * src, gint64 from, guint max)
{
  GstCtfEventMerge *merge =
      gst_ctf_event_merge_new (gst_ctf_packet_source_get_trace_class (src));
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Row));
  gboolean finished = FALSE;
  GError *err = NULL;

  gst_ctf_event_merge_set_emulate_recycling (merge, FALSE);
  gst_ctf_event_merge_set_recording (merge, FALSE);
  while (max == 0 || rows->len < max) {
    GstCtfMergeItem item;
    GstCtfMergeItemType t = gst_ctf_event_merge_next (merge, &item, &err);

    g_assert_no_error (err);
    g_assert_cmpint (t, !=, GST_CTF_MERGE_ERROR);
    if (t == GST_CTF_MERGE_EVENT) {
      const GstCtfEventClass *ec =
          gst_ctf_event_iter_get_event_class (item.iter);
      Row r = { item.ns, item.stream_class_id, ec ? ec->id : G_MAXUINT64,
        g_intern_string (item.stream_name)
      };

      g_assert_true (item.has_ns);
      if (item.ns >= from)
        g_array_append_val (rows, r);
      continue;
    }
    if (t != GST_CTF_MERGE_NONE)
      continue;
    if (finished)
      break;
    {
      GstCtfPacketSourcePacket p;
      gint r = gst_ctf_packet_source_next (src, &p, &err);

      g_assert_no_error (err);
      if (r == 0) {
        finished = TRUE;
        gst_ctf_event_merge_finish (merge);
        continue;
      }
      g_assert_true (gst_ctf_event_merge_push_full (merge, p.bytes,
              p.stream_class_id, p.rank, p.stream_id, p.stream_name,
              p.offset, &err));
      g_bytes_unref (p.bytes);
    }
  }
  gst_ctf_event_merge_free (merge);
  return rows;
}

typedef struct {
  gchar *sha;
  gint64 end;                   /* ns of its last event */
} Packet;

static void
packet_clear (gpointer p)
{
  g_free (((Packet *) p)->sha);
}

static gchar *
unpack (const gchar * tmp, const gchar * name)
{
  gchar *rel = g_strdup_printf ("ltt0/%s.tar.gz", name);
  gchar *src = test_corpus_path (rel);
  gchar *into = g_build_filename (tmp, "x", NULL);
  gchar *argv[] = { (gchar *) "tar", (gchar *) "xzf", src, (gchar *) "-C",
    into, NULL
  };
  gint status = -1;
  gchar *dir = g_build_filename (into, name, NULL);

  g_assert_cmpint (g_mkdir (into, 0700), ==, 0);
  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, NULL, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  g_free (src);
  g_free (rel);
  /* (trace-2.6's files are at the top of its tarball) */
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR)) {
    g_free (dir);
    return into;
  }
  g_free (into);
  return dir;
}

/* The packets of a read from the start, with their ends. */
static GArray *
read_packetizer (const gchar * dir)
{
  GstCtfLttng0Trace *t = gst_ctf_lttng0_trace_open (dir, NULL);
  GstCtfLttng0Packetizer *pk;
  GArray *a = g_array_new (FALSE, TRUE, sizeof (Packet));
  GstCtfLttng0PacketInfo info;
  const guint8 *data;
  gsize size;

  g_array_set_clear_func (a, packet_clear);
  g_assert_nonnull (t);
  pk = gst_ctf_lttng0_packetizer_new (t, NULL);
  g_assert_nonnull (pk);
  while (gst_ctf_lttng0_packetizer_next (pk, &data, &size, &info, NULL) > 0) {
    const GstCtfStreamClass *sc = gst_ctf_trace_class_find_stream_class
        (gst_ctf_lttng0_packetizer_get_trace_class (pk),
        info.stream_class_id);
    Packet p;

    g_assert_true (sc != NULL && sc->default_clock != NULL);
    g_assert_true (gst_ctf_clock_class_cycles_to_ns_from_origin
        (sc->default_clock, info.timestamp_end, &p.end));
    p.sha = g_compute_checksum_for_data (G_CHECKSUM_SHA1, data, size);
    g_array_append_val (a, p);
  }
  gst_ctf_lttng0_packetizer_free (pk);
  gst_ctf_lttng0_trace_unref (t);
  return a;
}

static gint
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
check_trace (const gchar * name)
{
  gchar *tmp = g_dir_make_tmp ("gstctf-l0seek-XXXXXX", NULL);
  gchar *dir = unpack (tmp, name);
  GArray *all = read_packetizer (dir);
  GstCtfPacketSource *src;
  gint64 times[N_TIMES], lo = G_MAXINT64, hi = G_MININT64;
  gdouble seek_ms = 0, scan_ms = 0;
  guint i, k, compared = 0, compared_rows = 0;
  GArray *all_rows;

  g_assert_cmpuint (all->len, >, 0);
  for (i = 0; i < all->len; i++) {
    lo = MIN (lo, g_array_index (all, Packet, i).end);
    hi = MAX (hi, g_array_index (all, Packet, i).end);
  }
  /* spread over the trace, packet ends, one ns after them; shuffled (the
   * source seeks back and forth) */
  for (i = 0; i < N_TIMES; i++) {
    if (i % 3 == 0)
      times[i] = lo + (hi - lo) / N_TIMES * i;
    else
      times[i] = g_array_index (all, Packet, (gsize) all->len * i /
          N_TIMES).end + (i % 3 == 2);
  }
  qsort (times, N_TIMES, sizeof (gint64), compare_i64);
  for (i = 0; i < N_TIMES / 2; i += 2) {
    gint64 x = times[i];

    times[i] = times[N_TIMES - 1 - i];
    times[N_TIMES - 1 - i] = x;
  }

  src = gst_ctf_packet_source_open (dir, GST_CTF_PACKET_SOURCE_FLAGS_NONE,
      NULL);
  g_assert_nonnull (src);
  all_rows = read_rows (src, G_MININT64, 0);
  for (k = 0; k < N_TIMES; k++) {
    gint64 t = times[k], t0;
    GstCtfPacketSourcePacket p;
    GError *err = NULL;
    guint n = 0;
    gint r = 1;

    /* a read from the start, to the first packet ending at or after t
     * (what a seek cost before the headers were its index) */
    t0 = g_get_monotonic_time ();
    g_assert_true (gst_ctf_packet_source_rewind (src, &err));
    for (i = 0; i < all->len; i++) {
      r = gst_ctf_packet_source_next (src, &p, &err);
      g_assert_cmpint (r, ==, 1);
      g_bytes_unref (p.bytes);
      if (g_array_index (all, Packet, i).end >= t)
        break;
    }
    scan_ms += (g_get_monotonic_time () - t0) / 1000.0;

    t0 = g_get_monotonic_time ();
    g_assert_true (gst_ctf_packet_source_seek (src, t, &err));
    g_assert_no_error (err);
    for (i = 0; i < all->len; i++) {
      const Packet *want = &g_array_index (all, Packet, i);
      gchar *sha;

      if (want->end < t)
        continue;
      r = gst_ctf_packet_source_next (src, &p, &err);
      g_assert_no_error (err);
      if (r <= 0)
        g_error ("%s: seek to %" G_GINT64_FORMAT ": ended before packet %u",
            name, t, i);
      sha = g_compute_checksum_for_bytes (G_CHECKSUM_SHA1, p.bytes);
      if (strcmp (sha, want->sha) != 0)
        g_error ("%s: seek to %" G_GINT64_FORMAT ": packet %u after it "
            "differs from packet %u of a read from the start", name, t, n, i);
      g_free (sha);
      g_bytes_unref (p.bytes);
      if (n == 0)
        seek_ms += (g_get_monotonic_time () - t0) / 1000.0;
      if (++n == COMPARED && k % 4 != 0)
        break;                  /* every packet after a quarter of them */
    }
    if (i == all->len) {
      r = gst_ctf_packet_source_next (src, &p, &err);
      g_assert_cmpint (r, ==, 0);
    }
    compared += n;

    /* the rows from t: those of the full read from its first row at or
     * after t */
    g_assert_true (gst_ctf_packet_source_seek (src, t, &err));
    {
      GArray *rows = read_rows (src, t, ROWS);
      guint first = 0;

      while (first < all_rows->len && g_array_index (all_rows, Row,
              first).ns < t)
        first++;
      g_assert_cmpuint (rows->len, ==, MIN (ROWS, all_rows->len - first));
      for (i = 0; i < rows->len; i++) {
        const Row *a = &g_array_index (rows, Row, i);
        const Row *b = &g_array_index (all_rows, Row, first + i);

        if (a->ns != b->ns || a->stream_class_id != b->stream_class_id ||
            a->event_class_id != b->event_class_id || a->stream != b->stream)
          g_error ("%s: seek to %" G_GINT64_FORMAT ": row %u after it (%"
              G_GINT64_FORMAT " %s) is not row %u of a full read (%"
              G_GINT64_FORMAT " %s)", name, t, i, a->ns, a->stream,
              first + i, b->ns, b->stream);
      }
      compared_rows += rows->len;
      g_array_unref (rows);
    }
  }
  g_test_message ("%s: %u packets, %u rows, %u seeks, %u packets and %u "
      "rows after them equal to a read from the start's; first packet after "
      "a seek: %.2f ms on average (from the start: %.2f ms)", name,
      all->len, all_rows->len, N_TIMES, compared, compared_rows,
      seek_ms / N_TIMES, scan_ms / N_TIMES);
  g_array_unref (all_rows);
  gst_ctf_packet_source_free (src);
  g_array_unref (all);
  test_rm_rf (tmp);
  g_free (dir);
  g_free (tmp);
}

static void
test_corpus_seeks (void)
{
  const gchar *names[] = { "trace-1021events-nolost-1cpu",
    "trace-15316events_nolost_newformat", "trace-2.6",
    "trace-399747events-nolost-1cpu", "trace-698650events_3029lost-8CPU"
  };
  guint i;

  if (test_corpus () == NULL) {
    g_test_skip ("GST_CTF_CORPUS not set or missing");
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    check_trace (names[i]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lttng0-seek/corpus", test_corpus_seeks);
  return g_test_run ();
}
