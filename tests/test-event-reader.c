/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst_ctf_event_reader_open(): traces on disk read event by event in
 * global time order, from C (the Python tests cover the same API through
 * PyGObject; these run in the sanitizer builds, where introspection is not
 * built).  Order and values are compared with babeltrace2 by
 * gir/tests/test_trace_reader.py; here: counts, time order, values,
 * enumeration labels, and every error path with its code.
 */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <string.h>
#include "gstctf-event-reader.h"
#include "gsttracecmd.h"
#include "test-util.h"

static gchar *
example (const gchar * name)
{
  return g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), name, NULL);
}

/* Walks every event; checks time order; returns the count, the error in
 * @error. */
static guint
walk (GstCtfEventReader * r, GError ** error)
{
  gint64 last = G_MININT64;
  guint n = 0;

  while (gst_ctf_event_reader_next (r, error)) {
    gint64 ts = gst_ctf_event_reader_get_timestamp_ns (r);

    ck_assert (gst_ctf_event_reader_get_event_name (r) != NULL);
    if (gst_ctf_event_reader_has_timestamp (r)) {
      ck_assert_msg (ts >= last, "event %u at %" G_GINT64_FORMAT " before %"
          G_GINT64_FORMAT, n, ts, last);
      last = ts;
    }
    n++;
  }
  return n;
}

static guint
count_events (const gchar * path)
{
  GError *err = NULL;
  GstCtfEventReader *r = gst_ctf_event_reader_open (path, &err);
  guint n;

  ck_assert_msg (r != NULL, "%s: %s", path, err ? err->message : "");
  n = walk (r, &err);
  ck_assert_msg (err == NULL, "%s: %s", path, err ? err->message : "");
  /* the end stays the end */
  ck_assert (!gst_ctf_event_reader_next (r, &err));
  ck_assert (err == NULL);
  g_object_unref (r);
  return n;
}

START_TEST (test_bundled_counts)
{
  gchar *libc = example ("ust-libc"), *sample = example ("ust-sample");
  gchar *meta = g_build_filename (libc, "ust", "uid", "0", "64-bit",
      "metadata", NULL);

  ck_assert_uint_eq (count_events (libc), 833);
  ck_assert_uint_eq (count_events (meta), 833);
  ck_assert_uint_eq (count_events (sample), 358);
  g_free (meta);
  g_free (libc);
  g_free (sample);
}
END_TEST;

START_TEST (test_values)
{
  gchar *sample = example ("ust-sample");
  GstCtfEventReader *r = gst_ctf_event_reader_open (sample, NULL);
  gboolean seen_enum = FALSE, seen_array = FALSE;

  ck_assert (r != NULL);
  while (gst_ctf_event_reader_next (r, NULL)) {
    const gchar *name = gst_ctf_event_reader_get_event_name (r);
    GValue *v = gst_ctf_event_reader_dup_field (r, "vtid");

    /* LTTng contexts under babeltrace2's names */
    ck_assert (v != NULL && (G_VALUE_HOLDS_INT64 (v) || G_VALUE_HOLDS_UINT64 (v)));
    g_boxed_free (G_TYPE_VALUE, v);
    ck_assert_int_ge (gst_ctf_event_reader_get_cpu (r), 0);
    if (!seen_enum && strcmp (name, "corpus_tp:enums") == 0) {
      GVariant *f = gst_ctf_event_reader_get_fields_full (r,
          GST_CTF_SCOPE_EVENT_PAYLOAD, GST_CTF_VALUE_ENUM_LABELS);
      gchar *text = g_variant_print (f, FALSE);

      ck_assert_str_eq (text,
          "{'state': <(int64 -10, ['NEGATIVE'])>, 'flag': <(uint64 0, @as [])>}");
      g_free (text);
      g_variant_unref (f);
      f = gst_ctf_event_reader_get_field_variant (r, "state");
      ck_assert_str_eq (g_variant_get_type_string (f), "x");
      g_variant_unref (f);
      {
        const gchar **names = gst_ctf_event_reader_get_field_names (r,
            GST_CTF_SCOPE_EVENT_PAYLOAD);
        GHashTable *t = gst_ctf_event_reader_get_fields_table_full (r,
            GST_CTF_SCOPE_EVENT_PAYLOAD, GST_CTF_VALUE_ENUM_LABELS);
        const GValue *state = g_hash_table_lookup (t, "state");

        ck_assert (names[0] && names[1] && !names[2]);
        ck_assert_str_eq (names[0], "state");
        ck_assert_str_eq (names[1], "flag");
        ck_assert (state != NULL && G_VALUE_HOLDS_VARIANT (state));
        ck_assert_str_eq (g_variant_get_type_string (g_value_get_variant
                (state)), "(xas)");
        g_hash_table_unref (t);
        g_free (names);
      }
      seen_enum = TRUE;
    }
    if (!seen_array && strcmp (name, "corpus_tp:arrays") == 0) {
      GVariant *f = gst_ctf_event_reader_get_field_variant_full (r, "arr4",
          GST_CTF_VALUE_ENUM_LABELS);

      ck_assert_str_eq (g_variant_get_type_string (f), "av");
      ck_assert_uint_eq (g_variant_n_children (f), 4);
      g_variant_unref (f);
      seen_array = TRUE;
    }
  }
  ck_assert (seen_enum && seen_array);
  g_object_unref (r);
  g_free (sample);
}
END_TEST;

START_TEST (test_fields_on_demand)
{
  gchar *sample = example ("ust-sample");
  GstCtfEventReader *r = gst_ctf_event_reader_open (sample, NULL);
  gchar *procname = NULL;
  GValue *v;

  gst_ctf_event_reader_set_decode_fields (r, FALSE);
  ck_assert (gst_ctf_event_reader_next (r, NULL));
  v = gst_ctf_event_reader_dup_field (r, "procname");
  ck_assert (v != NULL);
  procname = g_value_dup_string (v);
  ck_assert_str_eq (procname, "ustwork");
  g_boxed_free (G_TYPE_VALUE, v);
  ck_assert_int_eq (gst_ctf_event_reader_get_cpu (r), 0);
  g_free (procname);
  g_object_unref (r);
  g_free (sample);
}
END_TEST;

static void
expect_open_error (const gchar * path, gint code)
{
  GError *err = NULL;
  GstCtfEventReader *r = gst_ctf_event_reader_open (path, &err);

  ck_assert (r == NULL);
  ck_assert_msg (g_error_matches (err, GST_CTF_ERROR, code), "%s: %s (%d)",
      path, err ? err->message : "no error", err ? err->code : -1);
  g_error_free (err);
}

/* A copy of a bundled trace in a new temporary directory with the packet
 * magic of the packet at @offset of channel0_0 zeroed. */
static gchar *
corrupt_copy (const gchar * trace, gsize offset)
{
  gchar *tmp = g_dir_make_tmp ("gstctf-reader-XXXXXX", NULL);
  gchar *src = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), trace, "ust",
      "uid", "0", "64-bit", NULL);
  gchar *dst = g_build_filename (tmp, "64-bit", NULL);
  const gchar *names[] = { "metadata", "channel0_0", "channel0_1" };
  guint i;

  g_mkdir (dst, 0755);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *from = g_build_filename (src, names[i], NULL);
    gchar *to = g_build_filename (dst, names[i], NULL);
    gchar *data;
    gsize len;

    ck_assert (g_file_get_contents (from, &data, &len, NULL));
    if (i == 1) {
      ck_assert (offset + 4 <= len);
      memset (data + offset, 0, 4);
    }
    ck_assert (g_file_set_contents (to, data, len, NULL));
    g_free (data);
    g_free (from);
    g_free (to);
  }
  g_free (src);
  g_free (dst);
  return tmp;
}

START_TEST (test_open_errors)
{
  gchar *tmp = g_dir_make_tmp ("gstctf-reader-XXXXXX", NULL);
  gchar *missing = g_build_filename (tmp, "missing", NULL);
  gchar *notes = g_build_filename (tmp, "notes.txt", NULL);
  gchar *corrupt = corrupt_copy ("ust-libc", 0);

  expect_open_error (missing, GST_CTF_ERROR_IO);
  ck_assert (g_file_set_contents (notes, "no trace here\n", -1, NULL));
  expect_open_error (tmp, GST_CTF_ERROR_NO_TRACE);
  /* a file that is no trace.dat */
  expect_open_error (notes, GST_CTF_ERROR_TRACEDAT);
  expect_open_error (corrupt, GST_CTF_ERROR_PACKET);
  test_rm_rf (corrupt);
  test_rm_rf (tmp);
  g_free (corrupt);
  g_free (notes);
  g_free (missing);
  g_free (tmp);
}
END_TEST;

START_TEST (test_later_error_is_sticky)
{
  gchar *corrupt = corrupt_copy ("ust-sample", 8192);
  GError *err = NULL;
  GstCtfEventReader *r = gst_ctf_event_reader_open (corrupt, &err);
  guint n;

  ck_assert_msg (r != NULL, "%s", err ? err->message : "");
  n = walk (r, &err);
  ck_assert_uint_gt (n, 0);
  ck_assert_uint_lt (n, 358);
  ck_assert (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  ck_assert_msg (strstr (err->message, "channel0_0") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  ck_assert (!gst_ctf_event_reader_next (r, &err));
  ck_assert (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET));
  g_clear_error (&err);
  g_object_unref (r);
  test_rm_rf (corrupt);
  g_free (corrupt);
}
END_TEST;

START_TEST (test_tracedat)
{
  const gchar *names[] = { "armv7-v6.dat", "i686-v7-zstd.dat" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"),
        "tracecmd", names[i], NULL);

    ck_assert_uint_gt (count_events (path), 10);
    g_free (path);
  }
}
END_TEST;

START_TEST (test_tracedat_truncated)
{
  gchar *path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"),
      "tracecmd", "armv7-v6.dat", NULL);
  gchar *tmp = g_dir_make_tmp ("gstctf-reader-XXXXXX", NULL);
  gchar *cut = g_build_filename (tmp, "trace.dat", NULL);
  GstCtfEventReader *r;
  GError *err = NULL;
  gchar *data;
  gsize len;

  ck_assert (g_file_get_contents (path, &data, &len, NULL));
  ck_assert (g_file_set_contents (cut, data, len * 2 / 3, NULL));
  r = gst_ctf_event_reader_open (cut, &err);
  if (r != NULL) {
    walk (r, &err);
    g_object_unref (r);
  }
  ck_assert_msg (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT),
      "%s", err ? err->message : "no error");
  g_error_free (err);
  test_rm_rf (tmp);
  g_free (data);
  g_free (cut);
  g_free (tmp);
  g_free (path);
}
END_TEST;

/* A corrupt ring-buffer page (its commit past the page), which
 * tracecmdsrc skips with a warning, is an error here: a reader has no
 * warning channel. */
START_TEST (test_tracedat_corrupt_page)
{
  gchar *path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"),
      "tracecmd", "armv7-v7-none.dat", NULL);
  gchar *tmp = g_dir_make_tmp ("gstctf-reader-XXXXXX", NULL);
  gchar *bad = g_build_filename (tmp, "trace.dat", NULL);
  GstCtfTraceDat *td;
  GstCtfTraceDatCpuIter *it;
  GBytes *bytes;
  GstCtfEventReader *r;
  const guint8 *page = NULL;
  gsize page_len = 0, len;
  GError *err = NULL;
  gchar *data;
  guint32 commit = 0x07ffffff;
  guint at;

  ck_assert (g_file_get_contents (path, &data, &len, NULL));
  bytes = g_bytes_new_static (data, len);
  td = gst_ctf_trace_dat_open_bytes (bytes, path, NULL);
  ck_assert (td != NULL);
  it = gst_ctf_trace_dat_cpu_iter_new (td, 0, 0, NULL);
  ck_assert (it != NULL);
  ck_assert_int_eq (gst_ctf_trace_dat_cpu_iter_next_page (it, &page,
          &page_len, NULL), 1);
  /* an uncompressed file: the page is in the mapping; its commit word
   * follows the 8-byte timestamp (little endian, 32-bit ARM) */
  ck_assert_int_eq (gst_ctf_trace_dat_get_byte_order (td),
      GST_CTF_BYTE_ORDER_LE);
  ck_assert (page >= (const guint8 *) data && page + page_len <=
      (const guint8 *) data + len);
  at = (guint) (page - (const guint8 *) data) + 8;
  gst_ctf_trace_dat_cpu_iter_free (it);
  gst_ctf_trace_dat_unref (td);
  g_bytes_unref (bytes);
  commit = GUINT32_TO_LE (commit);
  memcpy (data + at, &commit, 4);
  ck_assert (g_file_set_contents (bad, data, len, NULL));

  r = gst_ctf_event_reader_open (bad, &err);
  ck_assert_msg (r != NULL, "%s", err ? err->message : "");
  walk (r, &err);
  ck_assert_msg (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT),
      "%s", err ? err->message : "no error");
  g_error_free (err);
  g_object_unref (r);
  test_rm_rf (tmp);
  g_free (data);
  g_free (bad);
  g_free (tmp);
  g_free (path);
}
END_TEST;

/* Several traces below one directory, read merged (kernel + user space):
 * babeltrace2's count (oracle/STATUS.tsv). */
START_TEST (test_corpus_merged)
{
  gchar *unit;

  NEED_CORPUS ();
  unit = test_corpus_path ("ctf/babeltrace/succeed/multi-domains");
  if (!g_file_test (unit, G_FILE_TEST_IS_DIR)) {
    g_print ("SKIP %s: %s missing\n", G_STRFUNC, unit);
    g_free (unit);
    return;
  }
  ck_assert_uint_eq (count_events (unit), 4272);
  g_free (unit);
}
END_TEST;

static Suite *
event_reader_suite (void)
{
  Suite *s = suite_create ("event reader open");
  TCase *tc = tcase_create ("open");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_bundled_counts);
  tcase_add_test (tc, test_values);
  tcase_add_test (tc, test_fields_on_demand);
  tcase_add_test (tc, test_open_errors);
  tcase_add_test (tc, test_later_error_is_sticky);
  tcase_add_test (tc, test_tracedat);
  tcase_add_test (tc, test_tracedat_truncated);
  tcase_add_test (tc, test_tracedat_corrupt_page);
  tcase_add_test (tc, test_corpus_merged);
  return s;
}

/* Without gst_check_init(): the library readers need no GStreamer
 * registry (and the system plugins it would load are not under test). */
int
main (void)
{
  SRunner *sr = srunner_create (event_reader_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : 0;
}
