/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests of the packet writer and the TSDL writer.
 *
 * Packet writer: every packet of real LTTng-UST traces is read with a
 * recording iterator and written again from the decoded values; the
 * written packet must decode to the same events (class, clock value,
 * every value), and a packet re-encoded whole with LTTng's header rule
 * must be byte-identical to the input.  Dropping the first half of a
 * packet's events (what timefilter does at a window edge) must give
 * exactly the kept events, switching 27-bit compact headers to extended
 * ones where the gap needs it (CTF 1.8 §8).
 *
 * TSDL writer: parse -> write -> parse gives an equal trace class for
 * every corpus trace class, and babeltrace2 prints the same text for a
 * trace made of the written metadata and packets as for the input.
 */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <string.h>

#include "gstctf-metadata.h"
#include "gstctf-reader.h"
#include "gstctf-packet-writer.h"
#include "gstctf-tsdl-writer.h"

#include "test-util.h"

/* examples/traces/ust-sample: in the source tree, no corpus needed */
static gchar *
sample_trace_dir (void)
{
  const gchar *data = g_getenv ("GST_CTF_TEST_DATA");
  gchar *d;

  if (data == NULL)
    return NULL;
  d = g_build_filename (data, "..", "..", "examples", "traces", "ust-sample",
      "ust", "uid", "0", "64-bit", NULL);
  if (!g_file_test (d, G_FILE_TEST_IS_DIR)) {
    g_free (d);
    return NULL;
  }
  return d;
}

/* Stream files of a trace directory (regular files but metadata, sorted). */
static GPtrArray *
stream_files (const gchar * dir)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  if (d == NULL)
    return out;
  while ((name = g_dir_read_name (d))) {
    gchar *p = g_build_filename (dir, name, NULL);

    if (strcmp (name, "metadata") != 0 && name[0] != '.'
        && g_file_test (p, G_FILE_TEST_IS_REGULAR))
      g_ptr_array_add (out, g_strdup (name));
    g_free (p);
  }
  g_dir_close (d);
  g_ptr_array_sort (out, test_compare_strings);
  return out;
}

static GstCtfTraceClass *
load_trace_class (const gchar * dir, gchar ** tsdl_out)
{
  gchar *meta = g_build_filename (dir, "metadata", NULL);
  GError *err = NULL;
  gchar *text = gst_ctf_metadata_load_file (meta, &err);
  GstCtfTraceClass *tc;

  ck_assert_msg (text != NULL, "%s: %s", meta, err ? err->message : "");
  tc = gst_ctf_tsdl_parse (text, meta, &err);
  ck_assert_msg (tc != NULL, "%s: %s", meta, err ? err->message : "");
  g_free (meta);
  if (tsdl_out)
    *tsdl_out = text;
  else
    g_free (text);
  return tc;
}

/* --- decoded events ------------------------------------------------------ */

typedef struct {
  const GstCtfEventClass *ec;
  guint64 clock;
  GstCtfFieldValue *vals[3];
  guint n[3];
} Event;

static void
event_clear (Event * e)
{
  guint s;

  for (s = 0; s < 3; s++)
    g_free (e->vals[s]);
}

static void
event_take (Event * e, GstCtfEventIter * it)
{
  guint s;

  e->ec = gst_ctf_event_iter_get_event_class (it);
  e->clock = gst_ctf_event_iter_get_clock_value (it);
  for (s = 0; s < 3; s++) {
    const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (it,
        GST_CTF_SCOPE_EVENT_COMMON_CONTEXT + s, &e->n[s]);

    e->vals[s] = e->n[s] ? g_memdup2 (v, e->n[s] * sizeof (*v)) : NULL;
  }
}

static gboolean
values_equal (const GstCtfFieldValue * a, guint na, const GstCtfFieldValue * b,
    guint nb, gchar ** why)
{
  guint i;

  if (na != nb) {
    *why = g_strdup_printf ("value count %u != %u", na, nb);
    return FALSE;
  }
  for (i = 0; i < na; i++) {
    const GstCtfFieldValue *x = &a[i], *y = &b[i];
    gboolean eq = TRUE;

    if (x->fc != y->fc || x->end != y->end || g_strcmp0 (x->name, y->name))
      eq = FALSE;
    else {
      switch (x->fc->type) {
        case GST_CTF_FIELD_CLASS_FLOAT:
          eq = memcmp (&x->v.d, &y->v.d, sizeof (gdouble)) == 0;
          break;
        case GST_CTF_FIELD_CLASS_STRING:
          eq = x->v.s.len == y->v.s.len
              && memcmp (x->v.s.ptr, y->v.s.ptr, x->v.s.len) == 0;
          break;
        case GST_CTF_FIELD_CLASS_ARRAY:
        case GST_CTF_FIELD_CLASS_SEQUENCE:
          if (x->end == i + 1 && x->fc->element
              && x->fc->element->type == GST_CTF_FIELD_CLASS_INTEGER
              && x->fc->element->integer.encoding != GST_CTF_ENCODING_NONE
              && x->fc->element->integer.size == 8) {
            eq = x->v.s.len == y->v.s.len && (x->v.s.len == 0
                || memcmp (x->v.s.ptr, y->v.s.ptr, x->v.s.len) == 0);
            break;
          }
          eq = x->v.u == y->v.u;
          break;
        default:
          eq = x->v.u == y->v.u;
          break;
      }
    }
    if (!eq) {
      *why = g_strdup_printf ("value %u (%s) differs", i,
          x->name ? x->name : "");
      return FALSE;
    }
  }
  return TRUE;
}

/* --- packet round trip --------------------------------------------------- */

typedef struct {
  guint traces;
  guint packets;
  guint packets_identical;      /* LTTng header rule, all events kept:
                                 * bytes up to content_size */
  guint packets_identical_full; /* same, padding included */
  guint packets_identical_wrap; /* CTF 1.8 §8 smallest headers */
  guint64 events;
  guint64 events_trimmed;
  guint packets_trimmed;
  guint extended_after_trim;
} Figures;

static GstCtfPacketWriter *
writer_for (GHashTable * writers, GstCtfTraceClass * tc, guint64 scid)
{
  GstCtfPacketWriter *w = g_hash_table_lookup (writers, &scid);
  GError *err = NULL;

  if (w == NULL) {
    guint64 *k = g_new (guint64, 1);

    *k = scid;
    w = gst_ctf_packet_writer_new (tc, scid & G_MAXUINT32, &err);
    ck_assert_msg (w != NULL, "%s", err ? err->message : "");
    g_hash_table_insert (writers, k, w);
  }
  return w;
}

/* Decodes @data (one packet) into @events; returns its info. */
static void
decode_packet (GstCtfEventIter * it, const guint8 * data, gsize size,
    guint64 base_clock, GArray * events, GstCtfPacketInfo * info,
    const gchar * what)
{
  GError *err = NULL;

  ck_assert_msg (gst_ctf_event_iter_set_packet (it, data, size, &err),
      "%s: %s", what, err ? err->message : "");
  *info = *gst_ctf_event_iter_get_packet_info (it);
  if (!info->has_timestamp_begin)
    gst_ctf_event_iter_set_clock_value (it, base_clock);
  while (gst_ctf_event_iter_next (it, &err)) {
    Event e = { 0, };

    event_take (&e, it);
    g_array_append_val (events, e);
  }
  ck_assert_msg (err == NULL, "%s: %s", what, err ? err->message : "");
}

static void
check_events_equal (GArray * want, guint first, GArray * got,
    const gchar * what)
{
  guint i, s;

  ck_assert_msg (got->len == want->len - first, "%s: %u events, expected %u",
      what, got->len, want->len - first);
  for (i = 0; i < got->len; i++) {
    Event *a = &g_array_index (want, Event, first + i);
    Event *b = &g_array_index (got, Event, i);
    gchar *why = NULL;

    ck_assert_msg (a->ec == b->ec, "%s: event %u class %s != %s", what, i,
        a->ec->name, b->ec->name);
    ck_assert_msg (a->clock == b->clock, "%s: event %u clock %"
        G_GUINT64_FORMAT " != %" G_GUINT64_FORMAT, what, i, b->clock,
        a->clock);
    for (s = 0; s < 3; s++) {
      if (!values_equal (a->vals[s], a->n[s], b->vals[s], b->n[s], &why))
        ck_abort_msg ("%s: event %u (%s) scope %u: %s", what, i, a->ec->name,
            s, why);
    }
  }
}

static void
clear_events (GArray * events)
{
  guint i;

  for (i = 0; i < events->len; i++)
    event_clear (&g_array_index (events, Event, i));
  g_array_set_size (events, 0);
}

/* Writes events [first, n) of @events into a packet like @info. */
static const guint8 *
write_packet (GstCtfPacketWriter * w, const GstCtfPacketInfo * info,
    const GstCtfFieldValue * ctx, guint n_ctx, GArray * events, guint first,
    gboolean keep_sizes, gboolean keep_begin, guint64 begin_minus,
    guint64 base_clock, gsize * size, const gchar * what)
{
  GstCtfPacketWriterParams p = { 0, };
  GError *err = NULL;
  const guint8 *out;
  guint i;

  p.stream_instance_id = info->stream_instance_id;
  p.packet_seq_num = info->packet_seq_num;
  p.events_discarded = info->events_discarded;
  p.has_timestamp_begin = info->has_timestamp_begin && keep_begin;
  p.timestamp_begin = info->timestamp_begin - begin_minus;
  p.has_timestamp_end = info->has_timestamp_end;
  p.timestamp_end = info->timestamp_end;
  p.clock_value = base_clock;
  if (keep_sizes)
    p.packet_size = info->packet_size;
  ck_assert_msg (gst_ctf_packet_writer_begin_packet (w, &p, ctx, n_ctx, &err),
      "%s: %s", what, err ? err->message : "");
  for (i = first; i < events->len; i++) {
    Event *e = &g_array_index (events, Event, i);

    ck_assert_msg (gst_ctf_packet_writer_append_event (w, e->ec, e->clock,
            e->vals[0], e->n[0], e->vals[1], e->n[1], e->vals[2], e->n[2],
            &err), "%s: event %u: %s", what, i, err ? err->message : "");
  }
  out = gst_ctf_packet_writer_finish_packet (w, size, &err);
  ck_assert_msg (out != NULL, "%s: %s", what, err ? err->message : "");
  return out;
}

static void
writer_free_cb (gpointer p)
{
  gst_ctf_packet_writer_free (p);
}

/* Round trips every packet of the trace in @dir.  When @out_dir is set,
 * writes the re-encoded trace there (metadata from the TSDL writer). */
static void
round_trip_trace (const gchar * dir, const gchar * out_dir, Figures * fig)
{
  GstCtfTraceClass *tc = load_trace_class (dir, NULL);
  GstCtfEventIter *it = gst_ctf_event_iter_new (tc);
  GstCtfEventIter *it2 = gst_ctf_event_iter_new (tc);
  GHashTable *writers = g_hash_table_new_full (g_int64_hash, g_int64_equal,
      g_free, writer_free_cb);
  GPtrArray *files = stream_files (dir);
  GArray *events = g_array_new (FALSE, TRUE, sizeof (Event));
  GArray *got = g_array_new (FALSE, TRUE, sizeof (Event));
  GError *err = NULL;
  guint f;

  gst_ctf_event_iter_set_recording (it, TRUE);
  gst_ctf_event_iter_set_recording (it2, TRUE);
  if (out_dir) {
    gchar *tsdl = gst_ctf_tsdl_write (tc, &err);
    gchar *mp = g_build_filename (out_dir, "metadata", NULL);

    ck_assert_msg (tsdl != NULL, "%s: %s", dir, err ? err->message : "");
    g_mkdir_with_parents (out_dir, 0755);
    ck_assert (g_file_set_contents (mp, tsdl, -1, NULL));
    g_free (mp);
    g_free (tsdl);
  }

  for (f = 0; f < files->len; f++) {
    gchar *path = g_build_filename (dir, g_ptr_array_index (files, f), NULL);
    gchar *data;
    gsize size, off = 0;
    guint64 base = 0;
    GByteArray *outfile = g_byte_array_new ();
    guint pkt = 0;

    ck_assert (g_file_get_contents (path, &data, &size, NULL));
    while (off < size) {
      GstCtfPacketInfo info;
      const GstCtfFieldValue *ctx;
      guint n_ctx;
      GstCtfPacketWriter *w, *wl;
      const guint8 *out;
      gsize out_size, psize;
      gchar *what = g_strdup_printf ("%s packet %u (offset %" G_GSIZE_FORMAT
          ")", path, pkt, off);
      GstCtfPacketInfo info2;
      GArray *ctx_copy = g_array_new (FALSE, FALSE,
          sizeof (GstCtfFieldValue));

      /* decode the input packet, keep its context values */
      ck_assert_msg (gst_ctf_event_iter_set_packet (it, (guint8 *) data + off,
              size - off, &err), "%s: %s", what, err ? err->message : "");
      info = *gst_ctf_event_iter_get_packet_info (it);
      psize = info.packet_size / 8;
      ctx = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_PACKET_CONTEXT,
          &n_ctx);
      g_array_append_vals (ctx_copy, ctx, n_ctx);
      if (!info.has_timestamp_begin)
        gst_ctf_event_iter_set_clock_value (it, base);
      while (gst_ctf_event_iter_next (it, &err)) {
        Event e = { 0, };

        event_take (&e, it);
        g_array_append_val (events, e);
      }
      ck_assert_msg (err == NULL, "%s: %s", what, err ? err->message : "");
      fig->packets++;
      fig->events += events->len;

      /* one writer per stream: LTTng's header rule looks at the
       * previous event of the stream */
      w = writer_for (writers, tc, info.stream_class_id +
          ((guint64) f << 32));

      /* 1. all events, CTF 1.8 §8 smallest headers */
      out = write_packet (w, &info, (GstCtfFieldValue *) ctx_copy->data,
          ctx_copy->len, events, 0, TRUE, TRUE, 0, base, &out_size, what);
      if (out_size == psize && memcmp (out, data + off,
              (info.content_size + 7) / 8) == 0)
        fig->packets_identical_wrap++;
      decode_packet (it2, out, out_size, base, got, &info2, what);
      check_events_equal (events, 0, got, what);
      ck_assert_uint_eq (info2.timestamp_begin, info.timestamp_begin);
      ck_assert_uint_eq (info2.timestamp_end, info.timestamp_end);
      ck_assert_uint_eq (info2.packet_seq_num, info.packet_seq_num);
      ck_assert_uint_eq (info2.events_discarded, info.events_discarded);
      ck_assert_uint_eq (info2.stream_instance_id, info.stream_instance_id);
      ck_assert_uint_eq (info2.packet_size, info.packet_size);
      clear_events (got);

      /* 2. all events, LTTng's header rule: the same bytes */
      wl = writer_for (writers, tc, info.stream_class_id +
          ((guint64) f << 32) + (G_GUINT64_CONSTANT (1) << 62));
      gst_ctf_packet_writer_set_compact_wrap (wl, FALSE);
      out = write_packet (wl, &info, (GstCtfFieldValue *) ctx_copy->data,
          ctx_copy->len, events, 0, TRUE, TRUE, 0, base, &out_size, what);
      if (out_size == psize && memcmp (out, data + off, psize) == 0)
        fig->packets_identical_full++;
      /* LTTng leaves what a sub-buffer held before in the padding after
       * content_size: compare the content, and our padding is zeros */
      if (out_size == psize && memcmp (out, data + off,
              (info.content_size + 7) / 8) == 0)
        fig->packets_identical++;
      else if (g_getenv ("WRITER_DEBUG")) {
        gsize k;

        for (k = 0; k < MIN (out_size, psize); k++)
          if (out[k] != (guint8) data[off + k])
            break;
        g_print ("%s: differs at byte %" G_GSIZE_FORMAT " (sizes %"
            G_GSIZE_FORMAT "/%" G_GSIZE_FORMAT ", content %" G_GUINT64_FORMAT
            "/%" G_GUINT64_FORMAT " bits)\n", what, k, out_size, psize,
            gst_ctf_packet_writer_get_content_size (wl), info.content_size);
      }
      decode_packet (it2, out, out_size, base, got, &info2, what);
      check_events_equal (events, 0, got, what);
      clear_events (got);
      if (outfile)
        g_byte_array_append (outfile, out, out_size);

      /* 3. timefilter at a window start: drop the first half of the
       * events, keep timestamp_begin (a gap of up to the whole half) */
      if (events->len >= 2) {
        guint first = events->len / 2;

        out = write_packet (w, &info, (GstCtfFieldValue *) ctx_copy->data,
            ctx_copy->len, events, first, FALSE, TRUE, 0, base, &out_size,
            what);
        decode_packet (it2, out, out_size, base, got, &info2, what);
        check_events_equal (events, first, got, what);
        ck_assert_uint_eq (info2.timestamp_begin, info.timestamp_begin);
        ck_assert_uint_eq (info2.content_size,
            gst_ctf_packet_writer_get_content_size (w));
        ck_assert (info2.packet_size % 8 == 0);
        ck_assert (info2.packet_size - info2.content_size < 8);
        clear_events (got);
        /* and with timestamp_begin = the first kept event */
        out = write_packet (w, &info, (GstCtfFieldValue *) ctx_copy->data,
            ctx_copy->len, events, first, FALSE, FALSE, 0, base, &out_size,
            what);
        decode_packet (it2, out, out_size, base, got, &info2, what);
        check_events_equal (events, first, got, what);
        if (info.has_timestamp_begin)
          ck_assert_uint_eq (info2.timestamp_begin,
              g_array_index (events, Event, first).clock);
        clear_events (got);
        /* and with a window start 2^32 cycles before the packet: the first
         * kept event cannot use a 27- or 32-bit compact timestamp */
        if (info.has_timestamp_begin
            && info.timestamp_begin > (G_GUINT64_CONSTANT (1) << 32)) {
          const GstCtfFieldValue *hv;
          guint nh;

          out = write_packet (w, &info, (GstCtfFieldValue *) ctx_copy->data,
              ctx_copy->len, events, first, FALSE, TRUE,
              G_GUINT64_CONSTANT (1) << 32, base, &out_size, what);
          decode_packet (it2, out, out_size, base, got, &info2, what);
          check_events_equal (events, first, got, what);
          clear_events (got);
          ck_assert (gst_ctf_event_iter_set_packet (it2, out, out_size,
                  NULL));
          ck_assert (gst_ctf_event_iter_next (it2, NULL));
          hv = gst_ctf_event_iter_get_values (it2, GST_CTF_SCOPE_EVENT_HEADER,
              &nh);
          ck_assert (nh > 2 && hv[1].fc->type == GST_CTF_FIELD_CLASS_ENUM);
          ck_assert_msg (hv[1].v.u == 31 || hv[1].v.u == 65535,
              "%s: first kept event after a 2^32 gap has id %" G_GUINT64_FORMAT
              ", expected the extended header", what, hv[1].v.u);
          fig->extended_after_trim++;
        }
        fig->packets_trimmed++;
        fig->events_trimmed += events->len - first;
      }

      if (events->len > 0)
        base = g_array_index (events, Event, events->len - 1).clock;
      clear_events (events);
      g_array_free (ctx_copy, TRUE);
      g_free (what);
      ck_assert (psize > 0);
      off += psize;
      pkt++;
    }
    if (out_dir) {
      gchar *op = g_build_filename (out_dir, g_ptr_array_index (files, f),
          NULL);

      ck_assert (g_file_set_contents (op, (gchar *) outfile->data,
              outfile->len, NULL));
      g_free (op);
    }
    g_byte_array_unref (outfile);
    g_free (data);
    g_free (path);
  }
  fig->traces++;
  g_array_free (events, TRUE);
  g_array_free (got, TRUE);
  g_ptr_array_unref (files);
  g_hash_table_unref (writers);
  gst_ctf_event_iter_free (it);
  gst_ctf_event_iter_free (it2);
  gst_ctf_trace_class_unref (tc);
}

static gchar *
run_babeltrace2 (const gchar * bt2, const gchar * dir)
{
  gchar *argv[] = { (gchar *) bt2, (gchar *) dir, NULL };
  gchar *env[] = { (gchar *) "TZ=UTC", (gchar *) "LC_ALL=C", NULL };
  gchar *out = NULL, *errout = NULL;
  gint status = 0;
  GError *err = NULL;

  ck_assert_msg (g_spawn_sync (NULL, argv, env, 0, NULL, NULL, &out, &errout,
          &status, &err), "%s", err ? err->message : "");
  ck_assert_msg (g_spawn_check_wait_status (status, NULL),
      "babeltrace2 %s failed: %s", dir, errout);
  g_free (errout);
  return out;
}

/* stdout of `babeltrace2 DIR`, or NULL when it fails */
static gchar *
run_babeltrace2_status (const gchar * bt2, const gchar * dir)
{
  gchar *argv[] = { (gchar *) bt2, (gchar *) dir, NULL };
  gchar *env[] = { (gchar *) "TZ=UTC", (gchar *) "LC_ALL=C", NULL };
  gchar *out = NULL;
  gint status = 0;

  if (!g_spawn_sync (NULL, argv, env, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
          &out, NULL, &status, NULL) || !g_spawn_check_wait_status (status,
          NULL)) {
    g_free (out);
    return NULL;
  }
  return out;
}

static void
print_figures (const gchar * what, const Figures * fig)
{
  g_print ("%s: %u traces, %u packets, %" G_GUINT64_FORMAT " events "
      "round-tripped; content byte-identical %u/%u with LTTng's header rule "
      "(padding too: %u/%u), %u/%u with the smallest headers; trimmed %u "
      "packets, %" G_GUINT64_FORMAT " kept events, %u extended after a 2^32 "
      "gap\n", what, fig->traces, fig->packets, fig->events,
      fig->packets_identical, fig->packets, fig->packets_identical_full,
      fig->packets, fig->packets_identical_wrap, fig->packets,
      fig->packets_trimmed, fig->events_trimmed, fig->extended_after_trim);
}

static void
round_trip_and_babeltrace (const gchar * dir, Figures * fig)
{
  gchar *tmp = g_dir_make_tmp ("gst-ctf-writer-XXXXXX", NULL);
  gchar *bt2 = g_find_program_in_path ("babeltrace2");

  ck_assert (tmp != NULL);
  round_trip_trace (dir, tmp, fig);
  if (bt2) {
    gchar *a = run_babeltrace2 (bt2, dir);
    gchar *b = run_babeltrace2 (bt2, tmp);

    ck_assert_msg (strcmp (a, b) == 0, "babeltrace2 output differs: %s vs %s",
        dir, tmp);
    ck_assert (strlen (a) > 0);
    g_free (a);
    g_free (b);
  } else {
    g_print ("SKIP babeltrace2 comparison: babeltrace2 not installed\n");
  }
  {
    gchar *argv[] = { (gchar *) "rm", (gchar *) "-rf", tmp, NULL };

    g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
        NULL, NULL, NULL);
  }
  g_free (bt2);
  g_free (tmp);
}

START_TEST (test_round_trip_sample)
{
  gchar *dir = sample_trace_dir ();
  Figures fig = { 0, };

  if (dir == NULL) {
    g_print ("SKIP %s: examples/traces/ust-sample not found\n", G_STRFUNC);
    return;
  }
  round_trip_and_babeltrace (dir, &fig);
  print_figures ("ust-sample", &fig);
  ck_assert (fig.packets > 0 && fig.events > 0);
  /* LTTng chooses headers the same way: all packets come back intact */
  ck_assert_uint_eq (fig.packets_identical, fig.packets);
  g_free (dir);
}
END_TEST

START_TEST (test_round_trip_corpus_lttng_ust)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  Figures fig = { 0, };
  gchar *root;
  guint i;

  if (test_corpus () == NULL) {
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing\n", G_STRFUNC);
    return;
  }
  root = g_build_filename (test_corpus (), "ctf", "lttng-ust", NULL);
  test_find_trace_dirs (root, dirs);
  ck_assert_msg (dirs->len >= 4, "expected the 4 LTTng-UST traces in %s", root);
  for (i = 0; i < dirs->len; i++)
    round_trip_and_babeltrace (g_ptr_array_index (dirs, i), &fig);
  print_figures ("corpus LTTng-UST", &fig);
  ck_assert (fig.events > 0);
  ck_assert_uint_eq (fig.packets_identical, fig.packets);
  g_free (root);
  g_ptr_array_unref (dirs);
}
END_TEST

/* Any corpus trace: every packet the reader decodes is written again and
 * must decode to the same events.  Returns FALSE when the trace class does
 * not parse (fail/ traces, CTF 2). */
typedef struct {
  guint traces;
  guint packets;
  guint64 events;
  guint identical;              /* content bytes identical */
  guint unreadable_files;       /* input errors: the rest of the file is skipped */
  guint unwritable_streams;     /* stream classes the writer refuses */
} AnyFigures;

static gboolean
round_trip_any (const gchar * dir, const gchar * out_dir, AnyFigures * fig,
    gboolean * complete)
{
  gchar *meta = g_build_filename (dir, "metadata", NULL);
  gchar *text = gst_ctf_metadata_load_file (meta, NULL);
  GstCtfTraceClass *tc = text ? gst_ctf_tsdl_parse (text, meta, NULL) : NULL;
  GstCtfEventIter *it, *it2;
  GPtrArray *files;
  GArray *events, *got;
  guint f;

  g_free (text);
  g_free (meta);
  *complete = TRUE;
  if (tc == NULL)
    return FALSE;
  if (out_dir) {
    gchar *tsdl = gst_ctf_tsdl_write (tc, NULL);
    gchar *mp = g_build_filename (out_dir, "metadata", NULL);

    ck_assert (tsdl != NULL);
    ck_assert (g_file_set_contents (mp, tsdl, -1, NULL));
    g_free (mp);
    g_free (tsdl);
  }
  it = gst_ctf_event_iter_new (tc);
  it2 = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);
  gst_ctf_event_iter_set_recording (it2, TRUE);
  files = stream_files (dir);
  events = g_array_new (FALSE, TRUE, sizeof (Event));
  got = g_array_new (FALSE, TRUE, sizeof (Event));

  for (f = 0; f < files->len; f++) {
    gchar *path = g_build_filename (dir, g_ptr_array_index (files, f), NULL);
    GHashTable *writers = g_hash_table_new_full (g_int64_hash, g_int64_equal,
        g_free, writer_free_cb);
    gchar *data = NULL;
    gsize size = 0, off = 0;
    guint64 base = 0;
    guint pkt = 0;
    GByteArray *outfile = g_byte_array_new ();

    if (!g_file_get_contents (path, &data, &size, NULL))
      size = 0;
    while (off < size) {
      GError *err = NULL;
      GstCtfPacketInfo info, info2;
      const GstCtfFieldValue *ctx;
      guint n_ctx, i;
      GArray *ctx_copy;
      GstCtfPacketWriter *w;
      GstCtfPacketWriterParams p = { 0, };
      const guint8 *out;
      gsize out_size, psize;
      guint64 key;
      gchar *what;

      if (!gst_ctf_event_iter_set_packet (it, (guint8 *) data + off,
              size - off, &err)) {
        fig->unreadable_files++;
        *complete = FALSE;
        g_clear_error (&err);
        break;
      }
      info = *gst_ctf_event_iter_get_packet_info (it);
      psize = info.packet_size / 8;
      if (psize == 0 || info.stream_class == NULL) {
        fig->unreadable_files++;
        *complete = FALSE;
        break;
      }
      ctx = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_PACKET_CONTEXT,
          &n_ctx);
      ctx_copy = g_array_new (FALSE, FALSE, sizeof (GstCtfFieldValue));
      g_array_append_vals (ctx_copy, ctx, n_ctx);
      if (!info.has_timestamp_begin)
        gst_ctf_event_iter_set_clock_value (it, base);
      while (gst_ctf_event_iter_next (it, &err)) {
        Event e = { 0, };

        event_take (&e, it);
        g_array_append_val (events, e);
      }
      if (err) {
        /* a corrupt input packet: not the writer's business */
        fig->unreadable_files++;
        *complete = FALSE;
        g_clear_error (&err);
        clear_events (events);
        g_array_free (ctx_copy, TRUE);
        break;
      }

      key = info.stream_class_id;
      w = g_hash_table_lookup (writers, &key);
      if (w == NULL) {
        guint64 *k = g_new (guint64, 1);

        *k = key;
        w = gst_ctf_packet_writer_new (tc, key, &err);
        if (w == NULL) {
          g_print ("  %s: writer refuses stream class %" G_GUINT64_FORMAT
              ": %s\n", dir, key, err->message);
          g_clear_error (&err);
          fig->unwritable_streams++;
          *complete = FALSE;
          g_free (k);
          clear_events (events);
          g_array_free (ctx_copy, TRUE);
          break;
        }
        g_hash_table_insert (writers, k, w);
      }
      what = g_strdup_printf ("%s packet %u", path, pkt);
      p.stream_instance_id = info.stream_instance_id;
      p.packet_seq_num = info.packet_seq_num;
      p.events_discarded = info.events_discarded;
      p.has_timestamp_begin = info.has_timestamp_begin;
      p.timestamp_begin = info.timestamp_begin;
      p.has_timestamp_end = info.has_timestamp_end;
      p.timestamp_end = info.timestamp_end;
      p.clock_value = base;
      if (info.has_packet_size)
        p.packet_size = info.packet_size;
      ck_assert_msg (gst_ctf_packet_writer_begin_packet (w, &p,
              (GstCtfFieldValue *) ctx_copy->data, ctx_copy->len, &err),
          "%s: %s", what, err ? err->message : "");
      for (i = 0; i < events->len; i++) {
        Event *e = &g_array_index (events, Event, i);

        ck_assert_msg (gst_ctf_packet_writer_append_event (w, e->ec, e->clock,
                e->vals[0], e->n[0], e->vals[1], e->n[1], e->vals[2],
                e->n[2], &err), "%s: event %u: %s", what, i,
            err ? err->message : "");
      }
      out = gst_ctf_packet_writer_finish_packet (w, &out_size, &err);
      ck_assert_msg (out != NULL, "%s: %s", what, err ? err->message : "");
      if (info.has_content_size && out_size == psize
          && memcmp (out, data + off, (info.content_size + 7) / 8) == 0)
        fig->identical++;
      g_byte_array_append (outfile, out, out_size);
      decode_packet (it2, out, out_size, base, got, &info2, what);
      check_events_equal (events, 0, got, what);
      clear_events (got);
      fig->packets++;
      fig->events += events->len;
      if (events->len > 0)
        base = g_array_index (events, Event, events->len - 1).clock;
      clear_events (events);
      g_array_free (ctx_copy, TRUE);
      g_free (what);
      off += psize;
      pkt++;
    }
    if (out_dir) {
      gchar *op = g_build_filename (out_dir, g_ptr_array_index (files, f),
          NULL);

      ck_assert (g_file_set_contents (op, (gchar *) outfile->data,
              outfile->len, NULL));
      g_free (op);
    }
    g_byte_array_unref (outfile);
    g_hash_table_unref (writers);
    g_free (data);
    g_free (path);
  }
  fig->traces++;
  g_array_free (events, TRUE);
  g_array_free (got, TRUE);
  g_ptr_array_unref (files);
  gst_ctf_event_iter_free (it);
  gst_ctf_event_iter_free (it2);
  gst_ctf_trace_class_unref (tc);
  return TRUE;
}

START_TEST (test_round_trip_corpus_all)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  AnyFigures fig = { 0, };
  gchar *root, *bt2;
  guint i, bt2_compared = 0, bt2_same = 0;

  if (test_corpus () == NULL) {
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing\n", G_STRFUNC);
    return;
  }
  root = g_build_filename (test_corpus (), "ctf", NULL);
  test_find_trace_dirs (root, dirs);
  bt2 = g_find_program_in_path ("babeltrace2");
  for (i = 0; i < dirs->len; i++) {
    const gchar *dir = g_ptr_array_index (dirs, i);
    gchar *tmp = g_dir_make_tmp ("gst-ctf-writer-XXXXXX", NULL);
    gboolean complete;

    if (round_trip_any (dir, tmp, &fig, &complete) && complete && bt2) {
      gchar *a = run_babeltrace2_status (bt2, dir);
      gchar *b = a ? run_babeltrace2_status (bt2, tmp) : NULL;

      if (a) {
        bt2_compared++;
        if (b && strcmp (a, b) == 0)
          bt2_same++;
        else
          g_print ("  babeltrace2 output differs: %s\n", dir);
      }
      g_free (a);
      g_free (b);
    }
    {
      gchar *argv[] = { (gchar *) "rm", (gchar *) "-rf", tmp, NULL };

      g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
          NULL, NULL, NULL);
    }
    g_free (tmp);
  }
  if (bt2)
    g_print ("babeltrace2 prints the same for %u/%u written corpus traces "
        "(those read completely, where babeltrace2 reads the input)\n",
        bt2_same, bt2_compared);
  else
    g_print ("SKIP babeltrace2 comparison: babeltrace2 not installed\n");
  g_free (bt2);
  g_print ("all corpus CTF traces: %u trace classes, %u packets, %"
      G_GUINT64_FORMAT " events round-tripped; content byte-identical %u/%u "
      "(smallest headers); %u stream files with unreadable input skipped "
      "from there; %u stream classes refused by the writer\n", fig.traces,
      fig.packets, fig.events, fig.identical, fig.packets,
      fig.unreadable_files, fig.unwritable_streams);
  ck_assert (fig.traces > 30 && fig.events > 0);
  ck_assert_uint_eq (fig.unwritable_streams, 0);
  ck_assert_uint_eq (bt2_same, bt2_compared);
  g_free (root);
  g_ptr_array_unref (dirs);
}
END_TEST

/* --- TSDL writer: structural comparison of trace classes ----------------- */

static gboolean fc_equal (const GstCtfFieldClass * a,
    const GstCtfFieldClass * b, GString * path, guint depth);

#define DIFF(...) G_STMT_START {                                        \
    g_string_append_printf (path, ": " __VA_ARGS__);                    \
    return FALSE;                                                       \
  } G_STMT_END

static gboolean
fc_equal (const GstCtfFieldClass * a, const GstCtfFieldClass * b,
    GString * path, guint depth)
{
  guint i;
  gsize plen = path->len;

  if (a == NULL || b == NULL) {
    if (a != b)
      DIFF ("one field class is absent");
    return TRUE;
  }
  if (depth > 64)
    DIFF ("too deep");
  if (a->type != b->type)
    DIFF ("type %d != %d", a->type, b->type);
  if (a->alignment != b->alignment)
    DIFF ("alignment %u != %u", a->alignment, b->alignment);
  if (a->meaning != b->meaning)
    DIFF ("meaning %d != %d", a->meaning, b->meaning);
  if ((a->value_slot >= 0) != (b->value_slot >= 0))
    DIFF ("value slot %d != %d", a->value_slot, b->value_slot);
  switch (a->type) {
    case GST_CTF_FIELD_CLASS_ENUM:
      if (a->enumeration.n_mappings != b->enumeration.n_mappings)
        DIFF ("%u != %u mappings", a->enumeration.n_mappings,
            b->enumeration.n_mappings);
      for (i = 0; i < a->enumeration.n_mappings; i++) {
        const GstCtfEnumMapping *x = &a->enumeration.mappings[i];
        const GstCtfEnumMapping *y = &b->enumeration.mappings[i];

        if (strcmp (x->label, y->label) || x->lower != y->lower
            || x->upper != y->upper)
          DIFF ("mapping %u: %s %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT
              " != %s %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT, i, x->label,
              (gint64) x->lower, (gint64) x->upper, y->label,
              (gint64) y->lower, (gint64) y->upper);
      }
      /* the container */
      G_GNUC_FALLTHROUGH;
    case GST_CTF_FIELD_CLASS_INTEGER:
      if (a->integer.size != b->integer.size
          || a->integer.is_signed != b->integer.is_signed
          || a->integer.byte_order != b->integer.byte_order
          || a->integer.base != b->integer.base
          || a->integer.encoding != b->integer.encoding)
        DIFF ("integer size/signed/byte order/base/encoding differ: "
            "%u/%d/%d/%u/%d != %u/%d/%d/%u/%d", a->integer.size,
            a->integer.is_signed, a->integer.byte_order, a->integer.base,
            a->integer.encoding, b->integer.size, b->integer.is_signed,
            b->integer.byte_order, b->integer.base, b->integer.encoding);
      if ((a->integer.mapped_clock == NULL) !=
          (b->integer.mapped_clock == NULL)
          || (a->integer.mapped_clock
              && strcmp (a->integer.mapped_clock->name,
                  b->integer.mapped_clock->name)))
        DIFF ("clock mapping differs");
      break;
    case GST_CTF_FIELD_CLASS_FLOAT:
      if (a->floating.exp_dig != b->floating.exp_dig
          || a->floating.mant_dig != b->floating.mant_dig
          || a->floating.byte_order != b->floating.byte_order)
        DIFF ("float differs");
      break;
    case GST_CTF_FIELD_CLASS_STRING:
      if (a->string.encoding != b->string.encoding)
        DIFF ("string encoding differs");
      break;
    case GST_CTF_FIELD_CLASS_STRUCT:
    case GST_CTF_FIELD_CLASS_VARIANT:
      if (a->n_members != b->n_members)
        DIFF ("%u != %u members", a->n_members, b->n_members);
      if (a->type == GST_CTF_FIELD_CLASS_VARIANT
          && (g_strcmp0 (a->ref_path, b->ref_path)
              || (a->ref_target == NULL) != (b->ref_target == NULL)))
        DIFF ("tag %s != %s", a->ref_path, b->ref_path);
      for (i = 0; i < a->n_members; i++) {
        if (strcmp (a->members[i].name, b->members[i].name))
          DIFF ("member %u name %s != %s", i, a->members[i].name,
              b->members[i].name);
        g_string_append_printf (path, ".%s", a->members[i].name);
        if (!fc_equal (a->members[i].fc, b->members[i].fc, path, depth + 1))
          return FALSE;
        g_string_truncate (path, plen);
      }
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      if (a->type == GST_CTF_FIELD_CLASS_ARRAY && a->length != b->length)
        DIFF ("length %" G_GUINT64_FORMAT " != %" G_GUINT64_FORMAT,
            a->length, b->length);
      if (a->type == GST_CTF_FIELD_CLASS_SEQUENCE
          && (g_strcmp0 (a->ref_path, b->ref_path)
              || (a->ref_target == NULL) != (b->ref_target == NULL)))
        DIFF ("length %s != %s", a->ref_path, b->ref_path);
      g_string_append (path, "[]");
      if (!fc_equal (a->element, b->element, path, depth + 1))
        return FALSE;
      g_string_truncate (path, plen);
      break;
  }
  return TRUE;
}

static gboolean
clock_equal (const GstCtfClockClass * a, const GstCtfClockClass * b,
    GString * path)
{
  if (g_strcmp0 (a->name, b->name) || g_strcmp0 (a->description,
          b->description) || a->has_uuid != b->has_uuid
      || (a->has_uuid && memcmp (a->uuid, b->uuid, 16))
      || a->freq != b->freq || a->precision != b->precision
      || a->offset_s != b->offset_s || a->offset != b->offset
      || a->absolute != b->absolute
      || a->origin_is_unix_epoch != b->origin_is_unix_epoch)
    DIFF ("clock %s differs", a->name);
  return TRUE;
}

static gboolean
trace_class_equal (const GstCtfTraceClass * a, const GstCtfTraceClass * b,
    GString * path)
{
  guint i, j;

  if (a->major != b->major || a->minor != b->minor)
    DIFF ("version");
  if (a->has_uuid != b->has_uuid || (a->has_uuid
          && memcmp (a->uuid, b->uuid, 16)))
    DIFF ("uuid");
  if (a->byte_order != b->byte_order)
    DIFF ("byte order");
  if (a->n_value_slots != b->n_value_slots)
    DIFF ("value slots %u != %u", a->n_value_slots, b->n_value_slots);
  g_string_assign (path, "packet.header");
  if (!fc_equal (a->packet_header, b->packet_header, path, 0))
    return FALSE;
  if (a->env->len != b->env->len)
    DIFF ("env %u != %u entries", a->env->len, b->env->len);
  for (i = 0; i < a->env->len; i++) {
    const GstCtfEnvEntry *x = g_ptr_array_index (a->env, i);
    const GstCtfEnvEntry *y = g_ptr_array_index (b->env, i);

    if (strcmp (x->name, y->name) || x->is_string != y->is_string
        || (x->is_string ? g_strcmp0 (x->str, y->str) != 0 :
            x->integer != y->integer))
      DIFF ("env %s differs", x->name);
  }
  if (a->clock_classes->len != b->clock_classes->len)
    DIFF ("clock count");
  for (i = 0; i < a->clock_classes->len; i++) {
    if (!clock_equal (g_ptr_array_index (a->clock_classes, i),
            g_ptr_array_index (b->clock_classes, i), path))
      return FALSE;
  }
  if (a->stream_classes->len != b->stream_classes->len)
    DIFF ("stream class count");
  for (i = 0; i < a->stream_classes->len; i++) {
    const GstCtfStreamClass *x = g_ptr_array_index (a->stream_classes, i);
    const GstCtfStreamClass *y = g_ptr_array_index (b->stream_classes, i);

    g_string_printf (path, "stream %" G_GUINT64_FORMAT, x->id);
    if (x->id != y->id)
      DIFF ("id %" G_GUINT64_FORMAT, y->id);
    if ((x->default_clock == NULL) != (y->default_clock == NULL)
        || (x->default_clock && strcmp (x->default_clock->name,
                y->default_clock->name)))
      DIFF ("default clock");
    g_string_append (path, " packet.context");
    if (!fc_equal (x->packet_context, y->packet_context, path, 0))
      return FALSE;
    g_string_printf (path, "stream %" G_GUINT64_FORMAT " event.header",
        x->id);
    if (!fc_equal (x->event_header, y->event_header, path, 0))
      return FALSE;
    g_string_printf (path, "stream %" G_GUINT64_FORMAT " event.context",
        x->id);
    if (!fc_equal (x->event_common_context, y->event_common_context, path, 0))
      return FALSE;
    if (x->event_classes->len != y->event_classes->len)
      DIFF ("event class count");
    for (j = 0; j < x->event_classes->len; j++) {
      const GstCtfEventClass *e = g_ptr_array_index (x->event_classes, j);
      const GstCtfEventClass *f = g_ptr_array_index (y->event_classes, j);

      g_string_printf (path, "event %s", e->name);
      if (e->id != f->id || g_strcmp0 (e->name, f->name)
          || e->loglevel != f->loglevel
          || g_strcmp0 (e->model_emf_uri, f->model_emf_uri)
          || e->stream_class_id != f->stream_class_id)
        DIFF ("attributes");
      g_string_append (path, " context");
      if (!fc_equal (e->context, f->context, path, 0))
        return FALSE;
      g_string_printf (path, "event %s fields", e->name);
      if (!fc_equal (e->payload, f->payload, path, 0))
        return FALSE;
    }
  }
  return TRUE;
}

START_TEST (test_tsdl_round_trip_corpus)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  guint i, parsed = 0, equal = 0;
  gchar *root;

  if (test_corpus () == NULL) {
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing\n", G_STRFUNC);
    return;
  }
  root = g_build_filename (test_corpus (), "ctf", NULL);
  test_find_trace_dirs (root, dirs);
  {
    gchar *s = sample_trace_dir ();

    if (s)
      g_ptr_array_add (dirs, s);
  }
  for (i = 0; i < dirs->len; i++) {
    const gchar *dir = g_ptr_array_index (dirs, i);
    gchar *meta = g_build_filename (dir, "metadata", NULL);
    GError *err = NULL;
    gchar *text = gst_ctf_metadata_load_file (meta, NULL);
    GstCtfTraceClass *a = NULL, *b = NULL;
    gchar *out = NULL;
    GString *path = g_string_new (NULL);

    if (text)
      a = gst_ctf_tsdl_parse (text, meta, NULL);
    if (a == NULL)
      goto next;                /* fail/ traces, CTF 2: not ours to write */
    parsed++;
    out = gst_ctf_tsdl_write (a, &err);
    ck_assert_msg (out != NULL, "%s: %s", meta, err ? err->message : "");
    b = gst_ctf_tsdl_parse (out, "written", &err);
    ck_assert_msg (b != NULL, "%s: written TSDL does not parse: %s\n%s", meta,
        err ? err->message : "", out);
    ck_assert_msg (trace_class_equal (a, b, path), "%s: %s", meta, path->str);
    equal++;
  next:
    g_clear_pointer (&a, gst_ctf_trace_class_unref);
    g_clear_pointer (&b, gst_ctf_trace_class_unref);
    g_string_free (path, TRUE);
    g_free (out);
    g_free (text);
    g_free (meta);
  }
  g_print ("TSDL writer: %u/%u parsed corpus trace classes written and "
      "re-parsed equal (%u metadata files)\n", equal, parsed, dirs->len);
  ck_assert (parsed > 30);
  ck_assert_uint_eq (equal, parsed);
  g_free (root);
  g_ptr_array_unref (dirs);
}
END_TEST

/* --- synthetic traces ---------------------------------------------------- */

static const gchar *synth_tsdl =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "trace { major = 1; minor = 8; byte_order = be;\n"
    "  uuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\";\n"
    "  packet.header := struct { uint32_t magic; uint8_t uuid[16];\n"
    "    uint32_t stream_id; }; };\n"
    "clock { name = c; freq = 1000000000; };\n"
    "typealias integer { size = 27; align = 1; signed = false;\n"
    "  map = clock.c.value; } := ts27;\n"
    "typealias integer { size = 64; align = 8; signed = false;\n"
    "  map = clock.c.value; } := ts64;\n"
    "stream { id = 0;\n"
    "  packet.context := struct { ts64 timestamp_begin; ts64 timestamp_end;\n"
    "    uint64_t content_size; uint64_t packet_size;\n"
    "    uint32_t events_discarded; uint32_t cpu_id; };\n"
    "  event.header := struct {\n"
    "    enum : integer { size = 5; align = 1; signed = false; }\n"
    "      { compact = 0 ... 30, extended = 31 } id;\n"
    "    variant <id> { struct { ts27 timestamp; } compact;\n"
    "      struct { uint32_t id; ts64 timestamp; } extended; } v;\n"
    "  } align(8); };\n"
    "event { name = small; id = 1; stream_id = 0;\n"
    "  fields := struct { integer { size = 3; align = 1; signed = true; } a;\n"
    "    integer { size = 13; align = 8; signed = false; byte_order = le; } b;\n"
    "    uint8_t len; string s; integer { size = 8; align = 8;\n"
    "      signed = false; encoding = UTF8; } t[len];\n"
    "    floating_point { exp_dig = 11; mant_dig = 53; align = 8; } d; }; };\n"
    "event { name = big; id = 40; stream_id = 0;\n"
    "  fields := struct { uint8_t n; uint32_t seq[n]; }; };\n";

static GstCtfTraceClass *
synth_trace_class (void)
{
  GError *err = NULL;
  GstCtfTraceClass *tc = gst_ctf_tsdl_parse (synth_tsdl, "synth", &err);

  ck_assert_msg (tc != NULL, "%s", err ? err->message : "");
  return tc;
}

/* payload values of `small` */
static void
small_values (GstCtfTraceClass * tc, GstCtfFieldValue * v, gint64 a,
    guint64 b, const gchar * s, const gchar * t, gdouble d)
{
  const GstCtfEventClass *ec = gst_ctf_stream_class_find_event_class
      (gst_ctf_trace_class_find_stream_class (tc, 0), 1);
  const GstCtfFieldClass *p = ec->payload;
  guint i;

  memset (v, 0, 7 * sizeof (*v));
  v[0].fc = p;
  v[0].end = 7;
  v[0].v.u = 6;
  for (i = 0; i < 6; i++) {
    v[i + 1].fc = p->members[i].fc;
    v[i + 1].name = p->members[i].name;
    v[i + 1].end = i + 2;
  }
  v[1].v.i = a;
  v[2].v.u = b;
  v[3].v.u = strlen (t);
  v[4].v.s.ptr = s;
  v[4].v.s.len = strlen (s);
  v[5].v.s.ptr = t;
  v[5].v.s.len = strlen (t);
  v[6].v.d = d;
}

START_TEST (test_synthetic_headers_and_values)
{
  GstCtfTraceClass *tc = synth_trace_class ();
  GError *err = NULL;
  GstCtfPacketWriter *w = gst_ctf_packet_writer_new (tc, 0, &err);
  GstCtfStreamClass *sc = gst_ctf_trace_class_find_stream_class (tc, 0);
  const GstCtfEventClass *small = gst_ctf_stream_class_find_event_class (sc,
      1);
  const GstCtfEventClass *big = gst_ctf_stream_class_find_event_class (sc,
      40);
  GstCtfPacketWriterParams p = { 0, };
  GstCtfFieldValue v[7], bv[5];
  guint64 clocks[] = { 1000, 1001, 1000 + (1 << 27) + 5, 1000 + (1 << 27) + 6,
    G_GUINT64_CONSTANT (1) << 40, (G_GUINT64_CONSTANT (1) << 40) + 100
  };
  guint ids_expected[] = { 1, 1, 31, 1, 31, 31 };
  GstCtfEventIter *it;
  const guint8 *data;
  gsize size;
  guint i, n;

  ck_assert_msg (w != NULL, "%s", err ? err->message : "");
  ck_assert (gst_ctf_packet_writer_set_context_field (w, "cpu_id", 3));
  ck_assert (!(gst_ctf_packet_writer_set_context_field (w, "nope", 3)));
  p.timestamp_begin = 1000;
  p.has_timestamp_begin = TRUE;
  p.events_discarded = 7;
  p.packet_align = 64;
  ck_assert_msg (gst_ctf_packet_writer_begin_packet (w, &p, NULL, 0, &err),
      "%s", err ? err->message : "");
  for (i = 0; i < G_N_ELEMENTS (clocks); i++) {
    if (i == 5) {
      /* `big`: id 40 > 30 needs the extended header */
      memset (bv, 0, sizeof (bv));
      bv[0].fc = big->payload;
      bv[0].v.u = 2;
      bv[0].end = 5;
      bv[1].fc = big->payload->members[0].fc;
      bv[1].v.u = 2;
      bv[1].end = 2;
      bv[2].fc = big->payload->members[1].fc;
      bv[2].v.u = 2;
      bv[2].end = 5;
      bv[3].fc = big->payload->members[1].fc->element;
      bv[3].v.u = 0xdeadbeef;
      bv[3].end = 4;
      bv[4].fc = big->payload->members[1].fc->element;
      bv[4].v.u = 42;
      bv[4].end = 5;
      ck_assert_msg (gst_ctf_packet_writer_append_event (w, big, clocks[i],
              NULL, 0, NULL, 0, bv, 5, &err), "%s", err ? err->message : "");
      continue;
    }
    small_values (tc, v, -4 + (gint) i, 8191 - i, "hello", i % 2 ? "" : "ab",
        1.5 * i);
    ck_assert_msg (gst_ctf_packet_writer_append_event (w, small, clocks[i],
            NULL, 0, NULL, 0, v, 7, &err), "%s", err ? err->message : "");
  }

  /* errors leave the packet as it was */
  n = gst_ctf_packet_writer_get_content_size (w);
  small_values (tc, v, 4, 0, "x", "", 0);       /* 4 does not fit 3 signed bits */
  ck_assert (!(gst_ctf_packet_writer_append_event (w, small, clocks[5], NULL, 0,
          NULL, 0, v, 7, &err)));
  ck_assert (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);
  small_values (tc, v, 0, 8192, "x", "", 0);    /* 8192 does not fit 13 bits */
  ck_assert (!(gst_ctf_packet_writer_append_event (w, small, clocks[5], NULL, 0,
          NULL, 0, v, 7, &err)));
  ck_assert (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);
  small_values (tc, v, 0, 0, "x", "abc", 0);
  v[3].v.u = 2;                 /* length field 2, text of 3 bytes */
  ck_assert (!(gst_ctf_packet_writer_append_event (w, small, clocks[5], NULL, 0,
          NULL, 0, v, 7, &err)));
  ck_assert (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);
  bv[1].v.u = 3;                /* sequence length 3, 2 elements */
  ck_assert (!(gst_ctf_packet_writer_append_event (w, big, clocks[5], NULL, 0,
          NULL, 0, bv, 5, &err)));
  ck_assert (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);
  small_values (tc, v, 0, 0, "x", "", 0);
  ck_assert (!(gst_ctf_packet_writer_append_event (w, small, clocks[5], NULL, 0,
          NULL, 0, v, 5, &err)));        /* too few values */
  ck_assert (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);
  {
    /* an event class of another trace class is refused */
    GstCtfTraceClass *other = synth_trace_class ();
    const GstCtfEventClass *oec = gst_ctf_stream_class_find_event_class
        (gst_ctf_trace_class_find_stream_class (other, 0), 1);

    small_values (tc, v, 0, 0, "x", "", 0);
    ck_assert (!gst_ctf_packet_writer_append_event (w, oec, clocks[5], NULL,
            0, NULL, 0, v, 7, &err));
    ck_assert (g_error_matches (err, GST_CTF_ERROR,
            GST_CTF_ERROR_UNKNOWN_EVENT_CLASS));
    g_clear_error (&err);
    gst_ctf_trace_class_unref (other);
  }
  ck_assert_uint_eq (gst_ctf_packet_writer_get_content_size (w), n);
  ck_assert_uint_eq (gst_ctf_packet_writer_get_event_count (w), 6);

  data = gst_ctf_packet_writer_finish_packet (w, &size, &err);
  ck_assert_msg (data != NULL, "%s", err ? err->message : "");
  ck_assert_uint_eq (size % 64, 0);

  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);
  ck_assert_msg (gst_ctf_event_iter_set_packet (it, data, size, &err), "%s",
      err ? err->message : "");
  {
    const GstCtfPacketInfo *info = gst_ctf_event_iter_get_packet_info (it);
    const GstCtfFieldValue *ctx = gst_ctf_event_iter_get_values (it,
        GST_CTF_SCOPE_PACKET_CONTEXT, &n);

    ck_assert_uint_eq (info->timestamp_begin, 1000);
    ck_assert_uint_eq (info->timestamp_end, clocks[5]);
    ck_assert_uint_eq (info->content_size, gst_ctf_packet_writer_get_content_size (w));
    ck_assert_uint_eq (info->packet_size, size * 8);
    ck_assert_uint_eq (info->events_discarded, 7);
    ck_assert_uint_eq (n, 7);
    ck_assert_uint_eq (ctx[6].v.u, 3);  /* cpu_id */
    ck_assert (info->has_uuid && memcmp (info->uuid, tc->uuid, 16) == 0);
  }
  for (i = 0; i < G_N_ELEMENTS (clocks); i++) {
    const GstCtfFieldValue *hv, *pv;
    guint nh, np;

    ck_assert_msg (gst_ctf_event_iter_next (it, &err), "%u: %s", i,
        err ? err->message : "");
    ck_assert_uint_eq (gst_ctf_event_iter_get_clock_value (it), clocks[i]);
    hv = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_HEADER, &nh);
    ck_assert_uint_eq (hv[1].v.u, ids_expected[i]);
    pv = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD, &np);
    if (i == 5) {
      ck_assert_str_eq (gst_ctf_event_iter_get_event_class (it)->name, "big");
      ck_assert_uint_eq (np, 5);
      ck_assert_uint_eq (pv[3].v.u, 0xdeadbeef);
      ck_assert_uint_eq (pv[4].v.u, 42);
      continue;
    }
    ck_assert_uint_eq (np, 7);
    ck_assert_int_eq (pv[1].v.i, -4 + (gint) i);
    ck_assert_uint_eq (pv[2].v.u, 8191 - i);
    ck_assert_uint_eq (pv[4].v.s.len, 5);
    ck_assert (memcmp (pv[4].v.s.ptr, "hello", 5) == 0);
    ck_assert_uint_eq (pv[5].v.s.len, i % 2 ? 0 : 2);
    ck_assert (pv[6].v.d == 1.5 * i);
  }
  ck_assert (!(gst_ctf_event_iter_next (it, &err)));
  ck_assert (err == NULL);

  /* a fixed packet size too small for the content */
  p.packet_size = 64 * 8;
  ck_assert (gst_ctf_packet_writer_begin_packet (w, &p, NULL, 0, &err));
  small_values (tc, v, 0, 0, "a long enough string to pass 64 bytes in all",
      "", 0);
  ck_assert (!(gst_ctf_packet_writer_append_event (w, small, 1000, NULL, 0, NULL,
          0, v, 7, &err)));
  ck_assert (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);
  data = gst_ctf_packet_writer_finish_packet (w, &size, &err);
  ck_assert_uint_eq (size, 64);

  /* clocks going backwards by less than 2^27 need the 64-bit field */
  p.packet_size = 0;
  ck_assert (gst_ctf_packet_writer_begin_packet (w, &p, NULL, 0, &err));
  small_values (tc, v, 0, 0, "", "", 0);
  ck_assert (gst_ctf_packet_writer_append_event (w, small, 5000, NULL, 0,
          NULL, 0, v, 7, &err));
  ck_assert (gst_ctf_packet_writer_append_event (w, small, 4000, NULL, 0,
          NULL, 0, v, 7, &err));
  data = gst_ctf_packet_writer_finish_packet (w, &size, &err);
  ck_assert (gst_ctf_event_iter_set_packet (it, data, size, &err));
  ck_assert (gst_ctf_event_iter_next (it, &err));
  ck_assert_uint_eq (gst_ctf_event_iter_get_clock_value (it), 5000);
  ck_assert (gst_ctf_event_iter_next (it, &err));
  ck_assert_uint_eq (gst_ctf_event_iter_get_clock_value (it), 4000);

  gst_ctf_event_iter_free (it);
  gst_ctf_packet_writer_free (w);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

START_TEST (test_synthetic_tsdl_round_trip)
{
  GstCtfTraceClass *a = synth_trace_class (), *b;
  GError *err = NULL;
  gchar *out = gst_ctf_tsdl_write (a, &err);
  GString *path = g_string_new (NULL);

  ck_assert_msg (out != NULL, "%s", err ? err->message : "");
  b = gst_ctf_tsdl_parse (out, "written", &err);
  ck_assert_msg (b != NULL, "%s\n%s", err ? err->message : "", out);
  ck_assert_msg (trace_class_equal (a, b, path), "%s\n%s", path->str, out);
  g_string_free (path, TRUE);
  g_free (out);
  gst_ctf_trace_class_unref (a);
  gst_ctf_trace_class_unref (b);
}
END_TEST

/* A trace class built in memory (as tracecmdsrc or a merge does), with
 * names TSDL cannot say as they are: write TSDL, parse it back (which
 * resolves meanings and references), write packets, let babeltrace2 read
 * the result. */
static GstCtfFieldClass *
mk_int (guint size, guint align, gboolean is_signed, GstCtfClockClass * cc)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_INTEGER);

  fc->integer.size = size;
  fc->alignment = align;
  fc->integer.is_signed = is_signed;
  fc->integer.byte_order = GST_CTF_BYTE_ORDER_LE;
  if (cc) {
    fc->integer.map_clock_name = g_strdup (cc->name);
    fc->integer.mapped_clock = cc;
  }
  return fc;
}

START_TEST (test_in_memory_trace_class)
{
  GstCtfTraceClass *mem = gst_ctf_trace_class_new (), *tc;
  GstCtfClockClass *cc = gst_ctf_clock_class_new ();
  GstCtfStreamClass *sc = gst_ctf_stream_class_new (0);
  GstCtfEventClass *ec = gst_ctf_event_class_new ();
  GstCtfFieldClass *fc, *arr, *en, *seq;
  GstCtfEnvEntry *env;
  GstCtfPacketWriter *w;
  GstCtfPacketWriterParams p = { 0, };
  GstCtfFieldValue v[8];
  GError *err = NULL;
  gchar *tsdl, *tmp, *path, *bt2;
  const guint8 *data;
  gsize size;
  guint i;
  static const guint8 uuid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    13, 14, 15, 16
  };

  mem->major = 1;
  mem->minor = 8;
  memcpy (mem->uuid, uuid, 16);
  mem->has_uuid = TRUE;
  cc->name = g_strdup ("mono");
  cc->description = g_strdup ("a \"quoted\" clock\\n");
  cc->offset_s = 1700000000;
  cc->absolute = TRUE;
  g_ptr_array_add (mem->clock_classes, cc);
  env = g_new0 (GstCtfEnvEntry, 1);
  env->name = g_strdup ("note");
  env->is_string = TRUE;
  env->str = g_strdup ("tab\there \"q\" back\\slash\nnewline");
  g_ptr_array_add (mem->env, env);

  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
  fc->alignment = 8;
  gst_ctf_field_class_append_member (fc, "magic", mk_int (32, 8, FALSE,
          NULL));
  arr = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
  arr->element = mk_int (8, 8, FALSE, NULL);
  arr->length = 16;
  arr->alignment = 8;
  gst_ctf_field_class_append_member (fc, "uuid", arr);
  gst_ctf_field_class_append_member (fc, "stream_id", mk_int (32, 8, FALSE,
          NULL));
  mem->packet_header = fc;

  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
  fc->alignment = 8;
  gst_ctf_field_class_append_member (fc, "timestamp_begin", mk_int (64, 8,
          FALSE, cc));
  gst_ctf_field_class_append_member (fc, "timestamp_end", mk_int (64, 8,
          FALSE, cc));
  gst_ctf_field_class_append_member (fc, "content_size", mk_int (64, 8,
          FALSE, NULL));
  gst_ctf_field_class_append_member (fc, "packet_size", mk_int (64, 8,
          FALSE, NULL));
  gst_ctf_field_class_append_member (fc, "cpu_id", mk_int (32, 8, FALSE,
          NULL));
  sc->packet_context = fc;
  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
  fc->alignment = 8;
  gst_ctf_field_class_append_member (fc, "id", mk_int (16, 8, FALSE, NULL));
  gst_ctf_field_class_append_member (fc, "timestamp", mk_int (64, 8, FALSE,
          cc));
  sc->event_header = fc;
  sc->default_clock = cc;

  ec->id = 0;
  ec->name = g_strdup ("sched:wake \"x\"");
  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
  fc->alignment = 8;
  gst_ctf_field_class_append_member (fc, "string",
      gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING));
  gst_ctf_field_class_append_member (fc, "a-b", mk_int (7, 1, TRUE, NULL));
  gst_ctf_field_class_append_member (fc, "_len", mk_int (8, 8, FALSE, NULL));
  seq = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
  seq->element = mk_int (16, 8, FALSE, NULL);
  seq->element->integer.base = 16;
  seq->alignment = 8;
  seq->ref_path = g_strdup ("_len");
  gst_ctf_field_class_append_member (fc, "_seq", seq);
  en = mk_int (8, 8, FALSE, NULL);
  en->type = GST_CTF_FIELD_CLASS_ENUM;
  en->enumeration.n_mappings = 2;
  en->enumeration.mappings = g_new0 (GstCtfEnumMapping, 2);
  en->enumeration.mappings[0].label = g_strdup ("LABEL WITH SPACE");
  en->enumeration.mappings[0].lower = 1;
  en->enumeration.mappings[0].upper = 1;
  en->enumeration.mappings[1].label = g_strdup ("enum");
  en->enumeration.mappings[1].lower = 2;
  en->enumeration.mappings[1].upper = 9;
  gst_ctf_field_class_append_member (fc, "_e", en);
  ec->payload = fc;
  g_ptr_array_add (sc->event_classes, ec);
  g_hash_table_insert (sc->event_class_by_id, &ec->id, ec);
  g_ptr_array_add (mem->stream_classes, sc);

  tsdl = gst_ctf_tsdl_write (mem, &err);
  ck_assert_msg (tsdl != NULL, "%s", err ? err->message : "");
  ck_assert (strstr (tsdl, " _string;") != NULL);
  ck_assert (strstr (tsdl, " _a_b;") != NULL);
  ck_assert (strstr (tsdl, "\"LABEL WITH SPACE\" = 1") != NULL);
  tc = gst_ctf_tsdl_parse (tsdl, "in-memory", &err);
  ck_assert_msg (tc != NULL, "%s\n%s", err ? err->message : "", tsdl);
  ck_assert_str_eq (((GstCtfEnvEntry *) g_ptr_array_index (tc->env,
              0))->str, env->str);
  ck_assert_str_eq (((GstCtfClockClass *) g_ptr_array_index
          (tc->clock_classes, 0))->description, cc->description);

  w = gst_ctf_packet_writer_new (tc, 0, &err);
  ck_assert_msg (w != NULL, "%s", err ? err->message : "");
  ck_assert (gst_ctf_packet_writer_set_context_field (w, "cpu_id", 1));
  ck_assert (gst_ctf_packet_writer_begin_packet (w, &p, NULL, 0, &err));
  ec = g_ptr_array_index (((GstCtfStreamClass *)
          g_ptr_array_index (tc->stream_classes, 0))->event_classes, 0);
  memset (v, 0, sizeof (v));
  v[0].v.u = 5;
  v[1].v.s.ptr = "hello";
  v[1].v.s.len = 5;
  v[2].v.i = -3;
  v[3].v.u = 2;
  v[4].v.u = 2;
  v[5].v.u = 0xbeef;
  v[6].v.u = 0x12;
  v[7].v.u = 1;
  for (i = 0; i < 3; i++) {
    v[7].v.u = 1 + 3 * i;
    ck_assert_msg (gst_ctf_packet_writer_append_event (w, ec, 1000 * (i + 1),
            NULL, 0, NULL, 0, v, 8, &err), "%s", err ? err->message : "");
  }
  data = gst_ctf_packet_writer_finish_packet (w, &size, &err);
  ck_assert_msg (data != NULL, "%s", err ? err->message : "");

  tmp = g_dir_make_tmp ("gst-ctf-writer-XXXXXX", NULL);
  path = g_build_filename (tmp, "metadata", NULL);
  ck_assert (g_file_set_contents (path, tsdl, -1, NULL));
  g_free (path);
  path = g_build_filename (tmp, "stream_0", NULL);
  ck_assert (g_file_set_contents (path, (const gchar *) data, size, NULL));
  g_free (path);

  bt2 = g_find_program_in_path ("babeltrace2");
  if (bt2) {
    gchar *out = run_babeltrace2 (bt2, tmp);
    gchar **lines = g_strsplit (out, "\n", -1);

    ck_assert_uint_eq (g_strv_length (lines), 4);
    ck_assert_str_eq (lines[0], "[22:13:20.000001000] (+?.?????????" ") "
        "sched:wake \"x\": { cpu_id = 1 }, { string = \"hello\", a_b = -3, "
        "len = 2, seq = [ [0] = 0xBEEF, [1] = 0x12 ], "
        "e = ( \"LABEL WITH SPACE\" : container = 1 ) }");
    ck_assert (strstr (lines[1], "e = ( \"enum\" : container = 4 )") != NULL);
    ck_assert (strstr (lines[2], "[22:13:20.000003000] (+0.000001000)")
        != NULL);
    g_strfreev (lines);
    g_free (out);
  } else {
    g_print ("SKIP babeltrace2 check: babeltrace2 not installed\n");
  }
  {
    gchar *argv[] = { (gchar *) "rm", (gchar *) "-rf", tmp, NULL };

    g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
        NULL, NULL, NULL);
  }
  g_free (bt2);
  g_free (tmp);
  g_free (tsdl);
  gst_ctf_packet_writer_free (w);
  gst_ctf_trace_class_unref (tc);
  gst_ctf_trace_class_unref (mem);
}
END_TEST

static Suite *
writer_suite (void)
{
  Suite *s = suite_create ("writer");
  TCase *tc = tcase_create ("unit");
  TCase *tcc = tcase_create ("corpus");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_synthetic_headers_and_values);
  tcase_add_test (tc, test_synthetic_tsdl_round_trip);
  tcase_add_test (tc, test_round_trip_sample);
  tcase_add_test (tc, test_in_memory_trace_class);
  suite_add_tcase (s, tcc);
  tcase_set_timeout (tcc, 600);
  tcase_add_test (tcc, test_round_trip_corpus_lttng_ust);
  tcase_add_test (tcc, test_tsdl_round_trip_corpus);
  tcase_add_test (tcc, test_round_trip_corpus_all);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (writer_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : 0;
}
