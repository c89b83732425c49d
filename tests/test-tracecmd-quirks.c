/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Real trace.dat files with what real kernels' files have: a format that
 * names two fields alike (some ARM kernels: a `__data_loc char[] type`
 * and an `int type`), and corrupt ring-buffer pages.
 *
 * Corrupt ring-buffer pages in real trace.dat files: without `strict`
 * the page is skipped (with its CPU, page and file offset in the message,
 * counted, one discarded event) and every other page converts, as
 * `trace-cmd report` goes on after it; with `strict` it is an error.
 * Files: tests/data/tracecmd/armv7-v6.dat (one page, 4-byte longs) and,
 * with the corpus, tracedat/syscalls-kmem.v7-none.dat and
 * sched-block-net.v6.dat (x86_64, many pages).
 */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <string.h>

#include "gsttracecmd.h"
#include "gsttracecmd-packetizer.h"
#include "gstctf-error.h"
#include "test-util.h"
#include "gstctf-reader.h"
#include "gstctf-metadata.h"

typedef enum
{
  BAD_COMMIT,                   /* the page's commit goes past the page */
  BAD_FIRST_EVENT,              /* its first event goes past the commit */
  BAD_LATER_EVENT,              /* its second event goes past the commit */
} Corruption;

typedef struct
{
  guint64 events;               /* CPU events, all pages */
  guint64 page_events;          /* events of the chosen page */
  guint64 discarded;            /* the last packet's events_discarded */
  guint skipped;                /* pages skipped */
  GError *first_skip;
  GError *error;
} Count;

static GBytes *
load (const gchar * path)
{
  gchar *data;
  gsize len;

  fail_unless (g_file_get_contents (path, &data, &len, NULL), "%s", path);
  return g_bytes_new_take (data, len);
}

/* Converts @bytes, counting CPU events; @cpu/@page: the page whose
 * events go to page_events. */
static void
convert (GBytes * bytes, guint flags, guint cpu, guint64 page, Count * c)
{
  GstCtfTraceDat *td = gst_ctf_trace_dat_open_bytes (bytes, "test.dat",
      NULL);
  GstCtfTraceDatPacketizer *p;
  GstCtfTraceDatPacketInfo info;
  const guint8 *data;
  gsize size;
  gint r;

  memset (c, 0, sizeof (*c));
  fail_unless (td != NULL);
  p = gst_ctf_trace_dat_packetizer_new (td, flags, 0, NULL);
  fail_unless (p != NULL);
  while ((r = gst_ctf_trace_dat_packetizer_next (p, &data, &size, &info,
              &c->error)) > 0) {
    if (info.is_file_stream)
      continue;
    c->events += info.n_events;
    if (info.cpu == cpu && info.page_index == page)
      c->page_events += info.n_events;
    if (info.cpu == cpu)
      c->discarded = info.events_discarded;
  }
  c->skipped = gst_ctf_trace_dat_packetizer_pop_skipped_pages (p,
      &c->first_skip);
  fail_unless (r == 0 || c->error != NULL);
  gst_ctf_trace_dat_packetizer_free (p);
  gst_ctf_trace_dat_unref (td);
}

static void
put32 (guint8 * d, GstCtfByteOrder bo, guint32 v)
{
  if (bo == GST_CTF_BYTE_ORDER_LE)
    v = GUINT32_TO_LE (v);
  else
    v = GUINT32_TO_BE (v);
  memcpy (d, &v, 4);
}

/* A copy of @bytes with page @k of CPU index 0 spoilt; @page_offset:
 * the page's byte offset in the file. */
static GBytes *
corrupt (GBytes * bytes, guint k, Corruption how, guint64 * page_offset)
{
  GstCtfTraceDat *td = gst_ctf_trace_dat_open_bytes (bytes, "test.dat",
      NULL);
  GstCtfTraceDatCpuIter *it = gst_ctf_trace_dat_cpu_iter_new (td, 0, 0, NULL);
  GstCtfByteOrder bo = gst_ctf_trace_dat_get_byte_order (td);
  guint ls = gst_ctf_trace_dat_get_kernel_long_size (td);
  gsize len;
  const guint8 *base = g_bytes_get_data (bytes, &len), *page = NULL;
  gsize page_len = 0;
  guint8 *copy = g_memdup2 (base, len);
  guint i;

  fail_unless (it != NULL);
  for (i = 0; i <= k; i++)
    fail_unless (gst_ctf_trace_dat_cpu_iter_next_page (it, &page, &page_len,
            NULL) == 1);
  /* an uncompressed file: the page is in the file's bytes */
  fail_unless (page >= base && page + page_len <= base + len);
  *page_offset = (guint64) (page - base);
  switch (how) {
    case BAD_COMMIT:
      put32 (copy + *page_offset + 8 + (bo == GST_CTF_BYTE_ORDER_BE &&
              ls == 8 ? 4 : 0), bo, 0x07ffffff);
      break;
    case BAD_FIRST_EVENT:
    case BAD_LATER_EVENT:{
      GstCtfTraceDatPage pg;
      GstCtfTraceDatPageRecord rec;
      guint at = 8 + ls;        /* the first entry */

      fail_unless (gst_ctf_trace_dat_page_init (&pg, page, page_len, bo, ls,
              8 + ls, NULL));
      if (how == BAD_LATER_EVENT) {
        /* the entry right after the first record */
        fail_unless (gst_ctf_trace_dat_page_next (&pg, &rec, NULL) == 1);
        at = rec.offset + rec.size;
        fail_unless (at + 8 <= 8 + ls + pg.commit);
      }
      /* type_len 0 (length word follows), a length past the commit */
      put32 (copy + *page_offset + at, bo, 0);
      put32 (copy + *page_offset + at + 4, bo, 0x7fffff00);
      break;
    }
  }
  gst_ctf_trace_dat_cpu_iter_free (it);
  gst_ctf_trace_dat_unref (td);
  return g_bytes_new_take (copy, len);
}

static void
check_file (const gchar * path, guint k)
{
  static const Corruption hows[] = { BAD_COMMIT, BAD_FIRST_EVENT,
    BAD_LATER_EVENT
  };
  GBytes *bytes = load (path);
  Count orig, c;
  guint i;

  convert (bytes, 0, 0, k, &orig);
  fail_unless (orig.error == NULL && orig.skipped == 0);
  fail_unless (orig.page_events > 1, "%s: page %u of cpu index 0 has %"
      G_GUINT64_FORMAT " events", path, k, orig.page_events);

  for (i = 0; i < G_N_ELEMENTS (hows); i++) {
    guint64 off;
    GBytes *bad = corrupt (bytes, k, hows[i], &off);
    gchar *where = g_strdup_printf ("page %u (file-offset %" G_GUINT64_FORMAT
        ")", k, off);

    /* skipped: every other event converts */
    convert (bad, 0, 0, k, &c);
    fail_unless (c.error == NULL, "%s: %s", path, c.error->message);
    fail_unless_equals_int (c.skipped, 1);
    fail_unless_equals_uint64 (c.events, orig.events - orig.page_events);
    fail_unless_equals_uint64 (c.page_events, 0);
    fail_unless (g_error_matches (c.first_skip, GST_CTF_ERROR,
            GST_CTF_ERROR_TRACEDAT));
    fail_unless (strstr (c.first_skip->message, where) != NULL, "%s",
        c.first_skip->message);
    /* the loss shows in the stream's next packet: one more discarded
     * event (the bundled file's only page has no next packet) */
    if (k > 0)
      fail_unless_equals_uint64 (c.discarded, orig.discarded + 1);
    g_clear_error (&c.first_skip);

    /* strict: an error at that page */
    convert (bad, GST_CTF_TRACE_DAT_PACKETIZER_STRICT, 0, k, &c);
    fail_unless (g_error_matches (c.error, GST_CTF_ERROR,
            GST_CTF_ERROR_TRACEDAT));
    fail_unless (strstr (c.error->message, where) != NULL, "%s",
        c.error->message);
    fail_unless_equals_int (c.skipped, 0);
    g_clear_error (&c.error);
    g_free (where);
    g_bytes_unref (bad);
  }
  g_bytes_unref (bytes);
}

/* The bundled armv7 file with irq_handler_entry's `__data_loc char[]
 * name` renamed `irq` (the same length: the file's layout is unchanged):
 * two fields `irq`.  The file converts; the second field is `irq_2`, the
 * trace class parses back, and every irq_handler_entry event keeps both
 * values (the int irq, the string name). */
GST_START_TEST (test_duplicate_field_name)
{
  gchar *path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "armv7-v6.dat", NULL);
  GBytes *orig = load (path), *bytes;
  gsize len = g_bytes_get_size (orig);
  guint8 *d = g_memdup2 (g_bytes_get_data (orig, NULL), len);
  const gchar *from = "field:__data_loc char[] name;";
  const gchar *to = "field:__data_loc char[] irq; ";
  guint8 *at = NULL;
  GstCtfTraceDat *td;
  GstCtfTraceDatPacketizer *p;
  GstCtfTraceDatPacketInfo info;
  GstCtfTraceClass *tc;
  const GstCtfEventClass *ec = NULL;
  const guint8 *data;
  GError *err = NULL;
  gsize size;
  guint i, n = 0, idx = 0;

  for (i = 0; at == NULL && i + strlen (from) <= len; i++)
    if (memcmp (d + i, from, strlen (from)) == 0)
      at = d + i;
  fail_unless (at != NULL);
  memcpy (at, to, strlen (to));
  bytes = g_bytes_new_take (d, len);
  td = gst_ctf_trace_dat_open_bytes (bytes, "dup.dat", &err);
  fail_unless (td != NULL, "%s", err ? err->message : "");
  p = gst_ctf_trace_dat_packetizer_new (td, 0, 0, &err);
  fail_unless (p != NULL, "%s", err ? err->message : "");
  tc = gst_ctf_tsdl_parse (gst_ctf_trace_dat_packetizer_get_metadata (p),
      "dup", &err);
  fail_unless (tc != NULL, "%s", err ? err->message : "");
  {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, 0);

    for (i = 0; i < sc->event_classes->len; i++) {
      const GstCtfEventClass *e = g_ptr_array_index (sc->event_classes, i);

      if (strcmp (e->name, "irq_handler_entry") == 0)
        ec = e;
    }
  }
  fail_unless (ec != NULL && ec->payload != NULL);
  fail_unless (gst_ctf_field_class_find_member (ec->payload, "irq",
          &idx) != NULL);
  fail_unless (gst_ctf_field_class_find_member (ec->payload, "irq_2",
          &i) != NULL);
  fail_unless_equals_int (i, idx + 1);
  fail_unless_equals_int (ec->payload->members[i].fc->type,
      GST_CTF_FIELD_CLASS_STRING);
  fail_unless_equals_int (ec->payload->members[idx].fc->type,
      GST_CTF_FIELD_CLASS_INTEGER);

  /* the events: irq=16, irq_2="gp_timer" as trace-cmd prints them */
  while (gst_ctf_trace_dat_packetizer_next (p, &data, &size, &info,
          &err) > 0) {
    GstCtfEventIter *it;

    if (info.is_file_stream)
      continue;
    it = gst_ctf_event_iter_new (tc);
    gst_ctf_event_iter_set_recording (it, TRUE);
    fail_unless (gst_ctf_event_iter_set_packet (it, data, size, &err), "%s",
        err ? err->message : "");
    while (gst_ctf_event_iter_next (it, &err)) {
      const GstCtfFieldValue *v;
      guint nv, k, seen = 0;

      if (gst_ctf_event_iter_get_event_class (it)->id != ec->id)
        continue;
      v = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD,
          &nv);
      for (k = 0; k < nv; k++) {
        if (g_strcmp0 (v[k].name, "irq") == 0) {
          fail_unless_equals_int (v[k].v.i, 16);
          seen |= 1;
        } else if (g_strcmp0 (v[k].name, "irq_2") == 0) {
          fail_unless_equals_int (v[k].v.s.len, 8);
          fail_unless (memcmp (v[k].v.s.ptr, "gp_timer", 8) == 0);
          seen |= 2;
        }
      }
      fail_unless_equals_int (seen, 3);
      n++;
    }
    fail_unless (err == NULL, "%s", err ? err->message : "");
    gst_ctf_event_iter_free (it);
  }
  fail_unless (err == NULL, "%s", err ? err->message : "");
  /* trace-cmd report -R prints 11 of them (tests/data/tracecmd/oracle) */
  fail_unless_equals_int (n, 11);
  gst_ctf_trace_class_unref (tc);
  gst_ctf_trace_dat_packetizer_free (p);
  gst_ctf_trace_dat_unref (td);
  g_bytes_unref (bytes);
  g_bytes_unref (orig);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_bad_page_bundled)
{
  gchar *path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "armv7-v6.dat", NULL);

  check_file (path, 0);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_bad_page_corpus)
{
  gchar *path;

  NEED_CORPUS ();
  path = test_corpus_path ("tracedat/syscalls-kmem.v7-none.dat");
  check_file (path, 3);
  g_free (path);
  path = test_corpus_path ("tracedat/sched-block-net.v6.dat");
  check_file (path, 1);
  g_free (path);
}

GST_END_TEST;

/* The element: a warning naming the page, `skipped-pages` in stats, the
 * other events pushed; strict=true: an element error. */
GST_START_TEST (test_bad_page_element)
{
  gchar *path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "armv7-v6.dat", NULL);
  GBytes *bytes = load (path), *bad;
  gchar *tmp = g_dir_make_tmp ("tracecmd-bad-XXXXXX", NULL);
  gchar *file = g_build_filename (tmp, "bad.dat", NULL);
  guint64 off;
  guint strict;

  bad = corrupt (bytes, 0, BAD_LATER_EVENT, &off);
  fail_unless (g_file_set_contents (file, g_bytes_get_data (bad, NULL),
          g_bytes_get_size (bad), NULL));
  for (strict = 0; strict < 2; strict++) {
    GstElement *pipe, *src;
    GstBus *bus;
    GstMessage *msg;
    GError *err = NULL;
    gchar *desc = g_strdup_printf ("tracecmdsrc name=src location=\"%s\" "
        "strict=%s ! fakesink", file, strict ? "true" : "false");
    gchar *where = g_strdup_printf ("page 0 (file-offset %" G_GUINT64_FORMAT
        ")", off);

    pipe = gst_parse_launch (desc, &err);
    fail_unless (pipe != NULL, "%s", err ? err->message : "");
    src = gst_bin_get_by_name (GST_BIN (pipe), "src");
    bus = gst_element_get_bus (pipe);
    gst_element_set_state (pipe, GST_STATE_PLAYING);
    msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
        strict ? GST_MESSAGE_ERROR : GST_MESSAGE_WARNING);
    fail_unless (msg != NULL);
    if (strict)
      gst_message_parse_error (msg, &err, NULL);
    else
      gst_message_parse_warning (msg, &err, NULL);
    fail_unless (strstr (err->message, where) != NULL, "%s", err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
    if (!strict) {
      GstStructure *st = NULL;
      guint64 n = 0;

      msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
          GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
      fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
      gst_message_unref (msg);
      g_object_get (src, "stats", &st, NULL);
      fail_unless (gst_structure_get_uint64 (st, "skipped-pages", &n));
      fail_unless_equals_uint64 (n, 1);
      gst_structure_free (st);
    }
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (src);
    gst_object_unref (pipe);
    g_free (where);
    g_free (desc);
  }
  g_unlink (file);
  g_rmdir (tmp);
  g_free (file);
  g_free (tmp);
  g_free (path);
  g_bytes_unref (bad);
  g_bytes_unref (bytes);
}

GST_END_TEST;

static Suite *
tracecmd_quirks_suite (void)
{
  Suite *s = suite_create ("tracecmd-quirks");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_duplicate_field_name);
  tcase_add_test (tc, test_bad_page_bundled);
  tcase_add_test (tc, test_bad_page_corpus);
  tcase_add_test (tc, test_bad_page_element);
  return s;
}

GST_CHECK_MAIN (tracecmd_quirks);
