/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The merged trace class of gst_ctf_trace_merge_new_full() against what
 * parsing its own metadata text gives: built directly (inputs parsed from
 * TSDL) or parsed back (the others), it must be the same class, resolution
 * state included (trace-class-diff.c), write the same TSDL, and be what
 * gst_ctf_metadata_parse_shared() gives for its text while it lives.
 *
 * Inputs: every trace of the corpus (../shared/corpus/ctf, skipped when
 * absent) and the bundled examples, merged one by one, in pairs, with
 * themselves, all at once, with time offsets; hand-written texts for the
 * corner cases.  GST_CTF_TEST_MERGE_DIRS (colon-separated directories,
 * e.g. per-PID sessions) adds one merge of all the traces under each.
 */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "gstctf-metadata.h"
#include "gstctf-tsdl-writer.h"
#include "gstctf-trace-merge.h"

#include "test-util.h"
#include "trace-class-diff.h"

/* Checks one merge; returns FALSE when the merge itself refused. */
static gboolean
check_merge_named (GstCtfTraceClass * const *tcs,
    const gchar * const *names, guint n, const gint64 * offsets,
    GstCtfTraceMergeFlags flags, const gchar * what)
{
  GstCtfTraceMerge *m;
  GstCtfTraceClass *merged, *parsed, *shared;
  const gchar *text;
  gchar *diff, *a, *b;
  GError *err = NULL;

  m = gst_ctf_trace_merge_new_full (tcs, names, offsets, n, flags, &err);
  if (m == NULL) {
    g_clear_error (&err);
    return FALSE;
  }
  merged = gst_ctf_trace_merge_get_trace_class (m);
  text = gst_ctf_trace_merge_get_metadata (m);
  parsed = gst_ctf_metadata_parse (text, "merged", &err);
  ck_assert_msg (parsed != NULL, "%s: merged text does not parse: %s", what,
      err ? err->message : "");
  diff = trace_class_diff (merged, parsed);
  ck_assert_msg (diff == NULL, "%s: merged class != its parsed text: %s",
      what, diff);
  a = gst_ctf_tsdl_write (merged, NULL);
  b = gst_ctf_tsdl_write (parsed, NULL);
  ck_assert_msg (a != NULL && g_strcmp0 (a, b) == 0,
      "%s: the merged class and its parsed text write different TSDL", what);
  /* the stream and event blocks the merge wrote (those of stream classes
   * copied from the same input class with the same clocks written once,
   * then copied) are what the writer writes of the class (with one stream
   * class, the resolved header may add stream ids; the env and clocks
   * blocks may have names twice or offsets to normalise) */
  if (merged->stream_classes->len > 1)
    ck_assert_msg (g_strcmp0 (strstr (text, "\nstream {"),
            strstr (a, "\nstream {")) == 0, "%s: the merge's stream blocks "
        "differ from the writer's", what);
  /* downstream finds it from the caps text without parsing */
  shared = gst_ctf_metadata_parse_shared (text, "caps", NULL);
  ck_assert_msg (shared == merged, "%s: not shared under its text", what);
  gst_ctf_trace_class_unref (shared);
  g_free (a);
  g_free (b);
  gst_ctf_trace_class_unref (parsed);
  gst_ctf_trace_merge_free (m);
  return TRUE;
}

static gboolean
check_merge (GstCtfTraceClass * const *tcs, guint n, const gint64 * offsets,
    GstCtfTraceMergeFlags flags, const gchar * what)
{
  return check_merge_named (tcs, NULL, n, offsets, flags, what);
}

/* Trace classes of the directories holding a `metadata` file under @root
 * (sorted by path), parsed as ctfsrc parses them. */
static GPtrArray *
traces_under (const gchar * root)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_trace_class_unref);
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  guint i;

  test_find_trace_dirs (root, dirs);
  for (i = 0; i < dirs->len; i++) {
    gchar *meta = g_build_filename (g_ptr_array_index (dirs, i), "metadata",
        NULL);
    gchar *text = gst_ctf_metadata_load_file (meta, NULL);
    GstCtfTraceClass *tc = text ?
        gst_ctf_metadata_parse_shared (text, meta, NULL) : NULL;

    if (tc)
      g_ptr_array_add (out, tc);
    g_free (text);
    g_free (meta);
  }
  g_ptr_array_unref (dirs);
  return out;
}

START_TEST (test_merge_corpus)
{
  GPtrArray *tcs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_trace_class_unref);
  const gchar *roots[] = { "ctf", "ctf2" };
  guint i, merged = 0, tried = 0;
  gchar *ex;

  if (test_corpus () != NULL) {
    for (i = 0; i < G_N_ELEMENTS (roots); i++) {
      gchar *r = g_build_filename (test_corpus (), roots[i], NULL);
      GPtrArray *t = traces_under (r);

      g_ptr_array_extend_and_steal (tcs, t);
      g_free (r);
    }
  } else {
    g_print ("SKIP (corpus part) %s: GST_CTF_CORPUS not set or missing\n",
        G_STRFUNC);
  }
  ex = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), NULL);
  g_ptr_array_extend_and_steal (tcs, traces_under (ex));
  g_free (ex);
  ck_assert (tcs->len >= 2);

  for (i = 0; i < tcs->len; i++) {
    GstCtfTraceClass *pair[2];
    gint64 offsets[2] = { -1500000001, 2999999999 };
    gchar *what = g_strdup_printf ("trace %u", i);

    pair[0] = g_ptr_array_index (tcs, i);
    pair[1] = g_ptr_array_index (tcs, (i + 1) % tcs->len);
    tried += 4;
    merged += check_merge (pair, 1, NULL, 0, what);
    merged += check_merge (pair, 2, NULL, 0, what);
    merged += check_merge (pair, 2, offsets,
        GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH, what);
    pair[1] = pair[0];
    merged += check_merge (pair, 2, NULL, 0, what);
    g_free (what);
  }
  tried++;
  merged += check_merge ((GstCtfTraceClass * const *) tcs->pdata, tcs->len,
      NULL, 0, "all traces");
  g_print ("trace merge: %u of %u merges of %u trace classes equal to their "
      "parsed text (the others refused by the merge)\n", merged, tried,
      tcs->len);
  ck_assert (merged > tried / 2);
  g_ptr_array_unref (tcs);
}
END_TEST

/* GST_CTF_TEST_MERGE_DIRS: all the traces under each directory at once */
START_TEST (test_merge_sessions)
{
  const gchar *dirs = g_getenv ("GST_CTF_TEST_MERGE_DIRS");
  gchar **v;
  guint i;

  if (dirs == NULL || *dirs == '\0') {
    g_print ("SKIP %s: GST_CTF_TEST_MERGE_DIRS not set\n", G_STRFUNC);
    return;
  }
  v = g_strsplit (dirs, ":", -1);
  for (i = 0; v[i]; i++) {
    GPtrArray *tcs = traces_under (v[i]);

    ck_assert_msg (tcs->len > 0, "%s: no trace", v[i]);
    ck_assert_msg (check_merge ((GstCtfTraceClass * const *) tcs->pdata,
            tcs->len, NULL, 0, v[i]), "%s: merge refused", v[i]);
    g_print ("trace merge: %s: %u traces, merged class equal to its parsed "
        "text\n", v[i], tcs->len);
    g_ptr_array_unref (tcs);
  }
  g_strfreev (v);
}
END_TEST

static GstCtfTraceClass *
parse (const gchar * text)
{
  GError *err = NULL;
  GstCtfTraceClass *tc = gst_ctf_tsdl_parse (text, "test", &err);

  ck_assert_msg (tc != NULL, "%s", err ? err->message : "");
  return tc;
}

#define TSDL_HEAD \
  "/* CTF 1.8 */\n" \
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n" \
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n" \
  "trace { major = 1; minor = 8; byte_order = le;\n" \
  "  packet.header := struct { uint32_t magic; uint32_t stream_id; }; };\n" \
  "clock { name = monotonic; freq = 1000000000; offset_s = 10; };\n" \
  "stream { id = 0; packet.context := struct { uint64_t timestamp_begin;\n" \
  "  uint64_t timestamp_end; uint64_t packet_size; uint64_t content_size; };\n" \
  "  event.header := struct { uint32_t id; uint64_t timestamp; }; };\n"

/* Inputs whose env gives the merged env one name twice ("trace0_x": a
 * name common to both inputs and the first input's own "x"): the parser
 * keeps one entry (the first place, the last value), so must the direct
 * class. */
START_TEST (test_merge_env_same_name)
{
  GstCtfTraceClass *tcs[2];

  tcs[0] = parse (TSDL_HEAD "env { x = 1; trace0_x = 7; };\n"
      "event { name = \"e\"; id = 0; stream_id = 0;"
      " fields := struct { uint32_t a; uint32_t n; uint32_t s[n]; }; };\n");
  tcs[1] = parse (TSDL_HEAD "env { x = 2; trace0_x = 7; };\n"
      "event { name = \"f\"; id = 0; stream_id = 0;"
      " fields := struct { uint64_t b; }; };\n");
  ck_assert (check_merge (tcs, 2, NULL, 0, "env names"));
  gst_ctf_trace_class_unref (tcs[0]);
  gst_ctf_trace_class_unref (tcs[1]);
}
END_TEST

/* A literal that is not UTF-8 (\xff) is written back as U+FFFD: such an
 * input is not copied as it is, the merged text is parsed back. */
START_TEST (test_merge_not_utf8)
{
  GstCtfTraceClass *tcs[3];

  tcs[0] = parse (TSDL_HEAD "event { name = \"bad\\xff\"; id = 0;"
      " stream_id = 0; fields := struct { uint32_t a; }; };\n");
  tcs[1] = parse (TSDL_HEAD "event { name = \"f\"; id = 0; stream_id = 0;"
      " fields := struct { uint64_t b; }; };\n");
  tcs[2] = parse (TSDL_HEAD "env { procname = \"\\xfe\"; };\n"
      "event { name = \"f\"; id = 0; stream_id = 0;"
      " fields := struct { uint64_t b; }; };\n");
  ck_assert (!tcs[0]->from_tsdl && tcs[1]->from_tsdl);
  ck_assert (check_merge (tcs, 2, NULL, 0, "event name not UTF-8"));
  ck_assert (check_merge (tcs + 1, 2, NULL, 0, "env value not UTF-8"));
  {
    /* the inputs' names (paths) go into the merged env */
    const gchar *names[] = { "/tmp/a\xff", "b" };

    ck_assert (check_merge_named (tcs + 1, names, 1, NULL, 0,
            "input name not UTF-8"));
  }
  gst_ctf_trace_class_unref (tcs[0]);
  gst_ctf_trace_class_unref (tcs[1]);
  gst_ctf_trace_class_unref (tcs[2]);
}
END_TEST

static Suite *
trace_merge_suite (void)
{
  Suite *s = suite_create ("trace-merge");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_merge_corpus);
  tcase_add_test (tc, test_merge_sessions);
  tcase_add_test (tc, test_merge_env_same_name);
  tcase_add_test (tc, test_merge_not_utf8);
  return s;
}

GST_CHECK_MAIN (trace_merge);
