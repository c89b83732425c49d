/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Oracle test for ctftextsink: for every CTF 1.8 unit of the corpus
 * (units holding several traces are read merged, as babeltrace2 does),
 * runs
 *
 *   ctfsrc location=UNIT ! ctftextsink location=TMP [babeltrace-version=2.0]
 *
 * and compares TMP byte for byte with:
 *
 * - by default, babeltrace2 2.1.2's text: oracle-bt2.1/<unit>.txt where
 *   the corpus has it (the units where 2.1.2 and 2.0.4 differ), else
 *   oracle/<unit>.txt, which ctf/lttng-ust/oracle-bt2.1/README.md says
 *   2.1.2 prints byte for byte too, but for five barectf units 2.1.2
 *   aborts on (not compared).  For a unit 2.0.4 does not read and the
 *   corpus has no 2.1.2 text for (succeed/meta-ctx-sequence, where 2.0.4
 *   aborts), the test runs ../shared/tools/babeltrace2-2.1 when it is
 *   there and compares with what it prints when it exits 0;
 * - with babeltrace-version=2.0, babeltrace2 2.0.4's text,
 *   oracle/<unit>.txt (`TZ=UTC LC_ALL=C babeltrace2 UNIT`), for every
 *   unit 2.0.4 reads (oracle/STATUS.tsv, exit 0).
 *
 * Prints the counts and the first differing line of each failure.  Units
 * babeltrace2 rejects are run too and reported, but only checked where
 * the corpus README says what to expect: lttng-modules-2.0-pre5 against
 * babeltrace 1's output (event count, names, timestamps) and
 * succeed/meta-ctx-sequence (runs without error).
 */
#include <gst/check/gstcheck.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <stdlib.h>

static const gchar *corpus_dirs[] = {
  "ctf/babeltrace", "ctf/lttng-ust", "ctf/other",
};

/* Runs the pipeline; returns TRUE on EOS, FALSE on ERROR (message in
 * *errmsg) or timeout. */
static gboolean
run_pipeline (const gchar * unit_path, const gchar * out_path,
    const gchar * sink_props, gchar ** errmsg)
{
  gchar *desc, *q_unit, *q_out;
  GstElement *pipeline;
  GError *err = NULL;
  GstBus *bus;
  GstMessage *msg;
  gboolean ok = FALSE;

  q_unit = g_strescape (unit_path, NULL);
  q_out = g_strescape (out_path, NULL);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctftextsink "
      "location=\"%s\" %s", q_unit, q_out, sink_props);
  g_free (q_unit);
  g_free (q_out);
  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (pipeline == NULL || err != NULL) {
    *errmsg = g_strdup_printf ("parse: %s", err ? err->message : "?");
    g_clear_error (&err);
    if (pipeline)
      gst_object_unref (pipeline);
    return FALSE;
  }

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL) {
    *errmsg = g_strdup ("timeout (120 s)");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    *errmsg = g_strdup_printf ("%s (%s)", err ? err->message : "?",
        dbg ? dbg : "");
    g_clear_error (&err);
    g_free (dbg);
  } else {
    ok = TRUE;
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return ok;
}

/* The units babeltrace2 2.1.2 aborts on (an assertion;
 * ctf/lttng-ust/oracle-bt2.1/README.md), relative to ctf/other: only the
 * 2.0 mode is compared. */
static const gchar *bt21_abort_units[] = {
  "barectf/counter-clock/dst-er-features/ts",
  "barectf/counter-clock/dst-er-features/ts-uint32",
  "barectf/counter-clock/dst-packet-features/end-ts",
  "barectf/counter-clock/dst-packet-features/end-ts-multi",
  "barectf/counter-clock/dst-packet-features/end-ts-uint32",
};

static gboolean
bt21_aborts (const gchar * dir, const gchar * unit)
{
  guint i;

  if (strcmp (dir, "ctf/other") != 0)
    return FALSE;
  for (i = 0; i < G_N_ELEMENTS (bt21_abort_units); i++)
    if (strcmp (unit, bt21_abort_units[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Runs babeltrace2 2.1.2 (../shared/tools/babeltrace2-2.1 next to the
 * corpus) on @unit from @base, as the oracles were made; returns its
 * stdout when it exits 0, NULL when it is absent or fails. */
static gchar *
run_babeltrace21 (const gchar * corpus, const gchar * base,
    const gchar * unit, gsize * len)
{
  gchar *tool = g_build_filename (corpus, "..", "tools", "babeltrace2-2.1",
      NULL);
  gchar *argv[] = { tool, (gchar *) unit, NULL };
  gchar **envp = g_get_environ ();
  gchar *out = NULL;
  gint status = -1;

  envp = g_environ_setenv (envp, "TZ", "UTC", TRUE);
  envp = g_environ_setenv (envp, "LC_ALL", "C", TRUE);
  if (!g_file_test (tool, G_FILE_TEST_IS_EXECUTABLE) ||
      !g_spawn_sync (base, argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
          NULL, &out, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL)) {
    g_clear_pointer (&out, g_free);
  }
  if (out)
    *len = strlen (out);
  g_strfreev (envp);
  g_free (tool);
  return out;
}

/* First differing line (1-based) of two texts, 0 when equal. */
static guint
first_diff_line (const gchar * a, gsize alen, const gchar * b, gsize blen,
    gchar ** la, gchar ** lb)
{
  gsize i = 0, line_start = 0;
  guint line = 1;

  while (i < alen && i < blen && a[i] == b[i]) {
    if (a[i] == '\n') {
      line++;
      line_start = i + 1;
    }
    i++;
  }
  if (i == alen && i == blen)
    return 0;
  {
    const gchar *ea = memchr (a + line_start, '\n', alen - line_start);
    const gchar *eb = memchr (b + line_start, '\n', blen - line_start);

    *la = line_start < alen ? g_strndup (a + line_start,
        ea ? (gsize) (ea - (a + line_start)) : alen - line_start) :
        g_strdup ("<EOF>");
    *lb = line_start < blen ? g_strndup (b + line_start,
        eb ? (gsize) (eb - (b + line_start)) : blen - line_start) :
        g_strdup ("<EOF>");
  }
  return line;
}

static gchar *
read_gzip (const gchar * path, gsize * len)
{
  GFile *file = g_file_new_for_path (path);
  GFileInputStream *fin = g_file_read (file, NULL, NULL);
  GZlibDecompressor *dec;
  GInputStream *in;
  GByteArray *buf;
  guint8 chunk[65536];
  gssize n;

  g_object_unref (file);
  if (fin == NULL)
    return NULL;
  dec = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  in = g_converter_input_stream_new (G_INPUT_STREAM (fin),
      G_CONVERTER (dec));
  buf = g_byte_array_new ();
  while ((n = g_input_stream_read (in, chunk, sizeof (chunk), NULL,
              NULL)) > 0)
    g_byte_array_append (buf, chunk, n);
  g_object_unref (in);
  g_object_unref (dec);
  g_object_unref (fin);
  *len = buf->len;
  g_byte_array_append (buf, (const guint8 *) "", 1);
  return (gchar *) g_byte_array_free (buf, FALSE);
}

/* "[ts] (+delta) ... name: {" -> ts and name. */
static gboolean
parse_line_key (const gchar * line, gchar ** ts, gchar ** name)
{
  const gchar *close = strchr (line, ']');
  const gchar *colon, *start;

  if (line[0] != '[' || close == NULL)
    return FALSE;
  colon = strstr (close, ": {");
  if (colon == NULL)
    colon = strstr (close, ": ");
  if (colon == NULL)
    return FALSE;
  start = colon;
  while (start > close && start[-1] != ' ')
    start--;
  *ts = g_strndup (line + 1, close - line - 1);
  *name = g_strndup (start, colon - start);
  return TRUE;
}

static gint
cmp_str (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* Event count, names and timestamps must match babeltrace 1's output.
 * babeltrace 1 has no deterministic order for events of different
 * streams with the same timestamp (babeltrace2 orders them by stream), so
 * within a run of equal timestamps the event names are compared as
 * sorted lists. */
static gboolean
compare_with_bt1 (const gchar * ours, const gchar * bt1, gchar ** why)
{
  gchar **a = g_strsplit (ours, "\n", -1);
  gchar **b = g_strsplit (bt1, "\n", -1);
  guint na = g_strv_length (a), nb = g_strv_length (b), i, j;
  gboolean ok = TRUE;

  if (na > 0 && a[na - 1][0] == '\0')
    na--;
  if (nb > 0 && b[nb - 1][0] == '\0')
    nb--;
  if (na != nb) {
    *why = g_strdup_printf ("%u events, babeltrace 1 printed %u", na, nb);
    ok = FALSE;
  }
  for (i = 0; ok && i < na; i = j) {
    GPtrArray *ka = g_ptr_array_new_with_free_func (g_free);
    GPtrArray *kb = g_ptr_array_new_with_free_func (g_free);
    gchar *ts0 = NULL, *name;
    guint k;

    for (j = i; ok && j < na; j++) {
      gchar *ta = NULL, *ea = NULL, *tb = NULL, *eb = NULL;

      if (!parse_line_key (a[j], &ta, &ea) ||
          !parse_line_key (b[j], &tb, &eb) || strcmp (ta, tb) != 0) {
        *why = g_strdup_printf ("line %u: \"%s\" vs babeltrace 1 \"%s\"",
            j + 1, a[j], b[j]);
        ok = FALSE;
      } else if (ts0 != NULL && strcmp (ta, ts0) != 0) {
        g_free (ta);
        g_free (ea);
        g_free (tb);
        g_free (eb);
        break;
      } else {
        if (ts0 == NULL)
          ts0 = g_strdup (ta);
        g_ptr_array_add (ka, ea);
        g_ptr_array_add (kb, eb);
        ea = eb = NULL;
      }
      g_free (ta);
      g_free (ea);
      g_free (tb);
      g_free (eb);
    }
    g_ptr_array_sort (ka, cmp_str);
    g_ptr_array_sort (kb, cmp_str);
    for (k = 0; ok && k < ka->len; k++) {
      name = g_ptr_array_index (ka, k);
      if (strcmp (name, g_ptr_array_index (kb, k)) != 0) {
        *why = g_strdup_printf ("events at [%s] (line %u): %s vs babeltrace 1 "
            "%s", ts0, i + 1, name, (gchar *) g_ptr_array_index (kb, k));
        ok = FALSE;
      }
    }
    g_free (ts0);
    g_ptr_array_unref (ka);
    g_ptr_array_unref (kb);
    if (j == i)
      j = i + 1;
  }
  g_strfreev (a);
  g_strfreev (b);
  return ok;
}

/* Whether the pipeline ended with EOS and wrote @expected; else appends
 * the first difference (or the error) to @failures. */
static gboolean
output_matches (GString * failures, const gchar * dir, const gchar * unit,
    const gchar * mode, gboolean eos, const gchar * errmsg, const gchar * got,
    gsize glen, const gchar * expected, gsize elen)
{
  gchar *la = NULL, *lb = NULL;
  guint line = first_diff_line (got, glen, expected, elen, &la, &lb);

  if (line != 0)
    g_string_append_printf (failures, "  FAIL %s/%s%s%s%s%s: line %u\n"
        "      ours:   %.300s\n      oracle: %.300s\n", dir, unit, mode,
        eos ? "" : " (error: ", eos ? "" : errmsg, eos ? "" : ")", line, la,
        lb);
  else if (!eos)
    g_string_append_printf (failures, "  FAIL %s/%s%s: same text but "
        "error: %s\n", dir, unit, mode, errmsg);
  g_free (la);
  g_free (lb);
  return line == 0 && eos;
}

GST_START_TEST (test_oracle_text)
{
  const gchar *corpus = g_getenv ("GST_CTF_CORPUS");
  const gchar *only = g_getenv ("GST_CTF_ORACLE_ONLY");
  gchar *tmpdir;
  /* default (2.1) and babeltrace-version=2.0 comparisons */
  guint n_checked = 0, n_ok = 0, n_checked20 = 0, n_ok20 = 0;
  guint n_skipped = 0, n_other = 0, d;
  GString *report = g_string_new (NULL);
  GString *failures = g_string_new (NULL);
  GstElementFactory *src;

  if (corpus == NULL || !g_file_test (corpus, G_FILE_TEST_IS_DIR)) {
    g_print ("SKIP: GST_CTF_CORPUS not set or missing; oracle test not run\n");
    return;
  }
  src = gst_element_factory_find ("ctfsrc");
  fail_unless (src != NULL, "ctfsrc element not found");
  gst_object_unref (src);

  tmpdir = g_dir_make_tmp ("oracle-text-XXXXXX", NULL);
  fail_unless (tmpdir != NULL);

  for (d = 0; d < G_N_ELEMENTS (corpus_dirs); d++) {
    gchar *base = g_build_filename (corpus, corpus_dirs[d], NULL);
    gchar *status_path = g_build_filename (base, "oracle", "STATUS.tsv",
        NULL);
    gchar *status = NULL;
    gchar **lines;
    guint i;

    if (!g_file_get_contents (status_path, &status, NULL, NULL)) {
      g_print ("SKIP: %s missing\n", status_path);
      g_free (status_path);
      g_free (base);
      continue;
    }
    lines = g_strsplit (status, "\n", -1);
    for (i = 1; lines[i] != NULL; i++) {
      gchar **cols = g_strsplit (lines[i], "\t", -1);
      const gchar *unit;
      gint bt_exit;
      gchar *unit_path, *oracle_path, *out_path, *errmsg = NULL;
      gchar *expected = NULL, *got = NULL;
      gsize elen = 0, glen = 0;
      gboolean eos, is_pre5, is_meta_ctx_seq;

      if (g_strv_length (cols) < 2 || cols[0][0] == '\0') {
        g_strfreev (cols);
        continue;
      }
      unit = cols[0];
      bt_exit = atoi (cols[1]);
      if (only && strstr (unit, only) == NULL) {
        g_strfreev (cols);
        continue;
      }
      unit_path = g_build_filename (base, unit, NULL);
      is_pre5 = g_str_has_suffix (unit, "lttng-modules-2.0-pre5");
      is_meta_ctx_seq = strcmp (unit, "succeed/meta-ctx-sequence") == 0;

      /* Units holding several traces (succeed/multi-domains,
       * succeed/session-rotation, tracecompass/cyg-profile) are read
       * merged by ctfsrc (gstctf-trace-merge.h), as babeltrace2 muxes
       * them: no skip. */

      out_path = g_build_filename (tmpdir, "out.txt", NULL);
      g_unlink (out_path);
      eos = run_pipeline (unit_path, out_path, "", &errmsg);
      g_file_get_contents (out_path, &got, &glen, NULL);
      if (got == NULL)
        got = g_strdup ("");

      if (is_pre5) {
        gchar *bt1_path = g_strdup_printf ("%s/oracle/%s.bt1.txt.gz", base,
            unit);
        gsize bt1_len = 0;
        gchar *bt1 = read_gzip (bt1_path, &bt1_len);
        gchar *why = NULL;

        n_checked++;
        if (bt1 == NULL) {
          why = g_strdup ("cannot read babeltrace 1 oracle");
        } else if (!eos) {
          why = g_strdup_printf ("error: %s", errmsg);
        } else if (compare_with_bt1 (got, bt1, &why)) {
          n_ok++;
        }
        if (why)
          g_string_append_printf (failures, "  FAIL %s/%s (vs bt1): %s\n",
              corpus_dirs[d], unit, why);
        g_free (why);
        g_free (bt1);
        g_free (bt1_path);
      } else if (is_meta_ctx_seq) {
        /* babeltrace2 2.0.4 aborts on it (an assertion), bt 1 fails:
         * only sanity in the 2.0 mode: no error.  2.1.2 reads it. */
        gchar *errmsg20 = NULL;

        n_checked20++;
        if (run_pipeline (unit_path, out_path, "babeltrace-version=2.0",
                &errmsg20))
          n_ok20++;
        else
          g_string_append_printf (failures, "  FAIL %s/%s (2.0): error: "
              "%s\n", corpus_dirs[d], unit, errmsg20);
        g_free (errmsg20);
        expected = run_babeltrace21 (corpus, base, unit, &elen);
        if (expected == NULL) {
          g_string_append_printf (report, "  skip %s/%s (2.1): no "
              "babeltrace2-2.1 to compare with\n", corpus_dirs[d], unit);
          n_skipped++;
        } else {
          n_checked++;
          if (output_matches (failures, corpus_dirs[d], unit, "", eos,
                  errmsg, got, glen, expected, elen))
            n_ok++;
        }
      } else if (bt_exit != 0) {
        /* babeltrace2 rejects it: informative only. */
        oracle_path = g_strdup_printf ("%s/oracle/%s.txt", base, unit);
        g_file_get_contents (oracle_path, &expected, &elen, NULL);
        g_string_append_printf (report, "  info %s/%s: babeltrace2 exit %d; "
            "ours: %s, output %s the oracle\n", corpus_dirs[d], unit,
            bt_exit, eos ? "EOS" : "error", expected && elen == glen &&
            memcmp (expected, got, glen) == 0 ? "equals" : "differs from");
        n_other++;
        g_free (oracle_path);
      } else {
        gchar *got20 = NULL, *errmsg20 = NULL, *oracle21;
        gsize glen20 = 0;
        gboolean eos20;

        /* babeltrace-version=2.0: babeltrace2 2.0.4's text */
        n_checked20++;
        oracle_path = g_strdup_printf ("%s/oracle/%s.txt", base, unit);
        g_unlink (out_path);
        eos20 = run_pipeline (unit_path, out_path, "babeltrace-version=2.0",
            &errmsg20);
        g_file_get_contents (out_path, &got20, &glen20, NULL);
        if (!g_file_get_contents (oracle_path, &expected, &elen, NULL))
          g_string_append_printf (failures, "  FAIL %s/%s: no oracle %s\n",
              corpus_dirs[d], unit, oracle_path);
        else if (output_matches (failures, corpus_dirs[d], unit, " (2.0)",
                eos20, errmsg20, got20 ? got20 : "", glen20, expected, elen))
          n_ok20++;
        g_free (got20);
        g_free (errmsg20);

        /* default: babeltrace2 2.1.2's text */
        oracle21 = g_strdup_printf ("%s/oracle-bt2.1/%s.txt", base, unit);
        if (bt21_aborts (corpus_dirs[d], unit)) {
          g_string_append_printf (report, "  skip %s/%s (2.1): babeltrace2 "
              "2.1.2 aborts on it\n", corpus_dirs[d], unit);
          n_skipped++;
        } else if (g_file_test (oracle21, G_FILE_TEST_EXISTS)) {
          g_free (expected);
          expected = NULL;
          n_checked++;
          if (!g_file_get_contents (oracle21, &expected, &elen, NULL))
            g_string_append_printf (failures, "  FAIL %s/%s: cannot read "
                "%s\n", corpus_dirs[d], unit, oracle21);
          else if (output_matches (failures, corpus_dirs[d], unit, "", eos,
                  errmsg, got, glen, expected, elen))
            n_ok++;
        } else if (expected != NULL) {
          /* 2.1.2 prints the same bytes as 2.0.4 */
          n_checked++;
          if (output_matches (failures, corpus_dirs[d], unit, "", eos,
                  errmsg, got, glen, expected, elen))
            n_ok++;
        }
        g_free (oracle21);
        g_free (oracle_path);
      }

      g_unlink (out_path);
      g_free (out_path);
      g_free (errmsg);
      g_free (expected);
      g_free (got);
      g_free (unit_path);
      g_strfreev (cols);
    }
    g_strfreev (lines);
    g_free (status);
    g_free (status_path);
    g_free (base);
  }
  g_rmdir (tmpdir);
  g_free (tmpdir);

  g_print ("oracle-text: babeltrace2 2.1.2 (default): %u/%u units "
      "identical; babeltrace2 2.0.4 (babeltrace-version=2.0): %u/%u units "
      "identical (%u not compared, %u not read by babeltrace2)\n%s%s",
      n_ok, n_checked, n_ok20, n_checked20, n_skipped, n_other, report->str,
      failures->str);
  fail_unless (n_ok == n_checked, "%u of %u units differ from babeltrace2 "
      "2.1.2's text", n_checked - n_ok, n_checked);
  fail_unless (n_ok20 == n_checked20, "%u of %u units differ from "
      "babeltrace2 2.0.4's text with babeltrace-version=2.0",
      n_checked20 - n_ok20, n_checked20);
  g_string_free (report, TRUE);
  g_string_free (failures, TRUE);
}

GST_END_TEST;

/* The traces bundled in examples/traces (no corpus needed): ust-libc is
 * byte-identical to babeltrace2 (2.0.4 and 2.1.2 print the same text for
 * it); ust-sample (custom-2cpu kind, with empty strings and enumeration
 * values of two labels) to 2.1.2 by default and to 2.0.4 with
 * babeltrace-version=2.0 or emulate-recycling=true. */
GST_START_TEST (test_bundled_samples)
{
  static const struct {
    const gchar *name, *props, *oracle;
  } samples[] = {
    {"ust-libc", "", "ust-libc.babeltrace2.txt"},
    {"ust-libc", "babeltrace-version=2.0", "ust-libc.babeltrace2.txt"},
    {"ust-sample", "", "ust-sample.babeltrace2-2.1.txt"},
    {"ust-sample", "babeltrace-version=2.0", "ust-sample.babeltrace2.txt"},
    {"ust-sample", "emulate-recycling=true", "ust-sample.babeltrace2.txt"},
  };
  const gchar *dir = g_getenv ("GST_CTF_EXAMPLES");
  guint i;

  fail_unless (dir != NULL, "GST_CTF_EXAMPLES is not set");
  for (i = 0; i < G_N_ELEMENTS (samples); i++) {
    gchar *trace = g_build_filename (dir, samples[i].name, NULL);
    gchar *oracle = g_build_filename (dir, samples[i].oracle, NULL);
    gchar *out = g_build_filename (g_get_tmp_dir (), "gst-ctf-sample.txt",
        NULL);
    gchar *errmsg = NULL, *got = NULL, *expected = NULL;
    gchar *la = NULL, *lb = NULL;
    gsize glen = 0, elen = 0;
    guint line;

    fail_unless (run_pipeline (trace, out, samples[i].props, &errmsg),
        "%s: %s", samples[i].name, errmsg);
    fail_unless (g_file_get_contents (out, &got, &glen, NULL));
    fail_unless (g_file_get_contents (oracle, &expected, &elen, NULL));
    line = first_diff_line (got, glen, expected, elen, &la, &lb);
    fail_unless (line == 0, "%s (%s) differs from %s at line %u:\n"
        "  ours:   %s\n  oracle: %s", samples[i].name, samples[i].props,
        samples[i].oracle, line, la, lb);
    g_unlink (out);
    g_free (got);
    g_free (expected);
    g_free (out);
    g_free (oracle);
    g_free (trace);
  }
}

GST_END_TEST;

static Suite *
oracle_text_suite (void)
{
  Suite *s = suite_create ("oracle-text");
  TCase *tc = tcase_create ("oracle");

  tcase_set_timeout (tc, 0);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_bundled_samples);
  tcase_add_test (tc, test_oracle_text);
  return s;
}

GST_CHECK_MAIN (oracle_text);
