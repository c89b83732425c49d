/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writing CTF 2 and converting metadata between CTF 1.8 and CTF 2
 * (gst_ctf_json_write(), gst_ctf_metadata_convert(), ctfsink's
 * ctf-version).  The data streams stay as they are; only `metadata`
 * changes.
 *
 * Always (bundled fixtures): tests/data/text/{enums,formats} (CTF 1.8)
 * written as CTF 2 by `ctfsrc ! ctfsink ctf-version=2` read back by
 * ctftextsink as babeltrace2 2.1.2 reads the originals (their .bt2.1.txt),
 * and by ../shared/tools/babeltrace2-2.1 when it is there; the writer's
 * output parses to the same trace class shape; tests/data/ctf2/kinds is
 * refused as CTF 1.8 naming its first boolean, and with the lossy flag
 * naming its first variable-length integer; a 64-bit unsigned mapping
 * is written as an unsigned JSON integer.
 *
 * With $GST_CTF_CORPUS:
 * - every CTF 1.8 unit babeltrace2 reads (oracle/STATUS.tsv, exit 0),
 *   its metadata files converted to CTF 2, read by
 *   ../shared/tools/babeltrace2-2.1, prints what 2.1.2 prints for the
 *   original (oracle-bt2.1/UNIT.txt, else oracle/UNIT.txt, which 2.1.2
 *   prints too but for five barectf units 2.1.2 aborts on: left out);
 * - every CTF 2 unit 2.1.2 reads, converted to CTF 1.8 where it can be,
 *   read by the system babeltrace2 (2.0.4), prints what 2.1.2 prints for
 *   the original, or, where 2.0 and 2.1 print differently (2.1 prints an
 *   empty string as `""` and several labels as `{ "A", "B" }`), what
 *   ctftextsink babeltrace-version=2.0 prints for the CTF 2 original;
 *   fl-bm (a bit map) is refused naming it; meta-ctx-sequence is left
 *   out (babeltrace2 2.0.4 aborts on its CTF 1.8 original too).
 */
#include <gst/check/gstcheck.h>
#include "test-util.h"
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "gstctf-metadata.h"
#include "gstctf-json-writer.h"

/* babeltrace2 2.1.2 aborts on these CTF 1.8 units (corpus README). */
static const gchar *bt21_aborts[] = {
  "barectf/counter-clock/dst-er-features/ts",
  "barectf/counter-clock/dst-er-features/ts-uint32",
  "barectf/counter-clock/dst-packet-features/end-ts",
  "barectf/counter-clock/dst-packet-features/end-ts-multi",
  "barectf/counter-clock/dst-packet-features/end-ts-uint32",
};

static gchar *
corpus_path (const gchar * rel)
{
  const gchar *c = g_getenv ("GST_CTF_CORPUS");
  gchar *p;

  if (c == NULL)
    return NULL;
  p = g_build_filename (c, rel, NULL);
  if (!g_file_test (p, G_FILE_TEST_EXISTS)) {
    g_free (p);
    return NULL;
  }
  return p;
}

static gchar *
bt21_tool (void)
{
  const gchar *c = g_getenv ("GST_CTF_CORPUS");
  gchar *p;

  if (c == NULL)
    return NULL;
  p = g_build_filename (c, "..", "tools", "babeltrace2-2.1", NULL);
  if (!g_file_test (p, G_FILE_TEST_IS_EXECUTABLE)) {
    g_free (p);
    return NULL;
  }
  return p;
}

/* `ctfsrc location=UNIT ! ctftextsink location=TMP PROPS`. */
static gchar *
text_of (const gchar * unit, const gchar * props, gchar ** errmsg)
{
  gchar *out, *desc, *text = NULL;
  gint fd = g_file_open_tmp ("convert-XXXXXX.txt", &out, NULL);

  fail_unless (fd >= 0);
  close (fd);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctftextsink "
      "location=\"%s\" %s", unit, out, props);
  if (test_run_pipeline (desc, errmsg))
    fail_unless (g_file_get_contents (out, &text, NULL, NULL));
  g_unlink (out);
  g_free (out);
  g_free (desc);
  return text;
}

/* `TOOL DIR` with TZ=UTC LC_ALL=C (the test environment): its stdout,
 * or NULL when it fails. */
static gchar *
run_tool (const gchar * tool, const gchar * dir, gchar ** errmsg)
{
  const gchar *argv[] = { tool, dir, NULL };
  gchar *out = NULL, *err = NULL;
  gint status = 0;
  GError *e = NULL;

  *errmsg = NULL;
  if (!g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, &out, &err, &status, &e)) {
    *errmsg = g_strdup (e->message);
    g_error_free (e);
    return NULL;
  }
  if (!g_spawn_check_wait_status (status, NULL)) {
    gchar *nl = err ? strstr (err, " E ") : NULL;

    *errmsg = g_strdup_printf ("%s exited with status %d: %.400s", tool,
        status, nl ? nl : (err ? err : ""));
    g_free (out);
    out = NULL;
  }
  g_free (err);
  return out;
}

static gboolean
has_program (const gchar * name)
{
  gchar *p = g_find_program_in_path (name);

  g_free (p);
  return p != NULL;
}

static guint
first_diff (const gchar * got, const gchar * exp, gchar ** a, gchar ** b)
{
  gchar **x = g_strsplit (got, "\n", -1), **y = g_strsplit (exp, "\n", -1);
  guint i;

  *a = *b = NULL;
  if (strcmp (got, exp) == 0) {
    g_strfreev (x);
    g_strfreev (y);
    return 0;
  }
  for (i = 0; x[i] && y[i] && strcmp (x[i], y[i]) == 0; i++);
  *a = g_strdup (x[i] ? x[i] : "<EOF>");
  *b = g_strdup (y[i] ? y[i] : "<EOF>");
  g_strfreev (x);
  g_strfreev (y);
  return i + 1;
}

/* @text with the labels of each `( { "A", "B" } : container` set sorted:
 * babeltrace2 2.1 orders the labels of a CTF 1.8 value by its label hash
 * table, those of a CTF 2 value by another hash table filled in the
 * metadata's order; the writer gives the labels in the former's order,
 * which makes 2.1 print the same order for the corpus but not for every
 * enumeration with many labels sharing a value (tests/data/text/enums). */
static int
compare_strv (const void *a, const void *b)
{
  return strcmp (*(gchar * const *) a, *(gchar * const *) b);
}

static gchar *
sort_label_sets (const gchar * text)
{
  GString *s = g_string_new (NULL);
  const gchar *p = text;

  while (*p) {
    const gchar *open = strstr (p, "( { \"");
    const gchar *close;
    gchar *inner, **labels;

    if (open == NULL || (close = strstr (open, " } : container = ")) == NULL
        || memchr (open, '\n', close - open) != NULL) {
      g_string_append (s, p);
      break;
    }
    g_string_append_len (s, p, open - p + 4);
    inner = g_strndup (open + 4, close - (open + 4));
    labels = g_strsplit (inner, ", ", -1);
    qsort (labels, g_strv_length (labels), sizeof (gchar *), compare_strv);
    for (guint i = 0; labels[i] != NULL; i++)
      g_string_append_printf (s, "%s%s", i ? ", " : "", labels[i]);
    g_strfreev (labels);
    g_free (inner);
    p = close;
  }
  return g_string_free (s, FALSE);
}

/* @text without `, NAME = DIGITS` (a clock-mapped payload field CTF 2
 * has no role for: babeltrace2 2.1 shows it in CTF 2, hides it in CTF
 * 1.8). */
static gchar *
without_field (const gchar * text, const gchar * name)
{
  gchar *pat = g_strdup_printf (", %s = ", name);
  GString *s = g_string_new (NULL);
  const gchar *p = text, *hit;

  while ((hit = strstr (p, pat)) != NULL) {
    const gchar *e = hit + strlen (pat);

    g_string_append_len (s, p, hit - p);
    while (g_ascii_isdigit (*e))
      e++;
    p = e;
  }
  g_string_append (s, p);
  g_free (pat);
  return g_string_free (s, FALSE);
}

/* Copies the tree @src to @dst (created), converting every `metadata`
 * file to CTF @major; FALSE with *errmsg when a conversion fails. */
static gboolean
copy_converted (const gchar * src, const gchar * dst, guint major,
    gchar ** errmsg)
{
  GDir *d = g_dir_open (src, 0, NULL);
  const gchar *n;
  gboolean ok = TRUE;

  fail_unless (d != NULL, "%s", src);
  fail_unless (g_mkdir_with_parents (dst, 0755) == 0);
  while (ok && (n = g_dir_read_name (d)) != NULL) {
    gchar *s = g_build_filename (src, n, NULL);
    gchar *t = g_build_filename (dst, n, NULL);

    if (g_file_test (s, G_FILE_TEST_IS_DIR)) {
      ok = copy_converted (s, t, major, errmsg);
    } else if (strcmp (n, "metadata") == 0) {
      GError *err = NULL;
      gchar *text = gst_ctf_metadata_load_file (s, &err), *conv = NULL;

      fail_unless (text != NULL, "%s: %s", s, err ? err->message : "");
      conv = gst_ctf_metadata_convert (text, major, GST_CTF_CONVERT_NONE, s,
          &err);
      if (conv == NULL) {
        fail_unless (err != NULL && err->domain == GST_CTF_ERROR &&
            err->code == GST_CTF_ERROR_METADATA_INVALID);
        *errmsg = g_strdup (err->message);
        g_error_free (err);
        ok = FALSE;
      } else {
        fail_unless (g_file_set_contents (t, conv, -1, NULL));
      }
      g_free (text);
      g_free (conv);
    } else {
      gchar *data;
      gsize len;

      fail_unless (g_file_get_contents (s, &data, &len, NULL), "%s", s);
      fail_unless (g_file_set_contents (t, data, len, NULL));
      g_free (data);
    }
    g_free (s);
    g_free (t);
  }
  g_dir_close (d);
  return ok;
}

static void
remove_tree (const gchar * path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const gchar *n;

  if (d != NULL) {
    while ((n = g_dir_read_name (d)) != NULL) {
      gchar *p = g_build_filename (path, n, NULL);

      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        remove_tree (p);
      else
        g_unlink (p);
      g_free (p);
    }
    g_dir_close (d);
  }
  g_rmdir (path);
}

/* ------------------------------------------------------------------ */
/* Bundled fixtures                                                     */

/* `ctfsrc ! ctfsink ctf-version=2` of a bundled CTF 1.8 trace: stream
 * files byte-identical, CTF 2 metadata that reads as babeltrace2 2.1.2
 * reads the original (ctftextsink; babeltrace2-2.1 too when present). */
static void
check_bundled_to_ctf2 (const gchar * name)
{
  const gchar *data = g_getenv ("GST_CTF_TEST_DATA");
  gchar *in = g_build_filename (data, "text", name, NULL);
  gchar *exp_name = g_strdup_printf ("%s.bt2.1.txt", name);
  gchar *exp_path = g_build_filename (data, "text", exp_name, NULL);
  gchar *out = g_dir_make_tmp ("convert-XXXXXX", NULL);
  gchar *desc, *errmsg = NULL, *expected, *got, *a, *b, *md, *stream_a,
      *stream_b, *da, *db, *tool;
  gsize la, lb;
  guint line;

  fail_unless (g_file_get_contents (exp_path, &expected, NULL, NULL));
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctfsink "
      "location=\"%s\" overwrite=true ctf-version=2", in, out);
  fail_unless (test_run_pipeline (desc, &errmsg), "%s", errmsg);
  md = g_build_filename (out, "metadata", NULL);
  fail_unless (g_file_get_contents (md, &da, NULL, NULL));
  fail_unless (gst_ctf_metadata_is_ctf2 (da), "%s: not CTF 2", md);
  g_free (da);
  stream_a = g_build_filename (in, "stream_0", NULL);
  stream_b = g_build_filename (out, "stream_0", NULL);
  fail_unless (g_file_get_contents (stream_a, &da, &la, NULL));
  fail_unless (g_file_get_contents (stream_b, &db, &lb, NULL));
  fail_unless (la == lb && memcmp (da, db, la) == 0, "%s differs", stream_b);
  g_free (da);
  g_free (db);

  got = text_of (out, "", &errmsg);
  fail_unless (got != NULL, "%s", errmsg);
  if (strcmp (name, "formats") == 0) {
    gchar *w = without_field (got, "hidden_ts");

    g_free (got);
    got = w;
  }
  line = first_diff (got, expected, &a, &b);
  fail_unless (line == 0, "%s as CTF 2, line %u:\n  got:      %.300s\n  "
      "expected: %.300s", name, line, a, b);
  g_free (got);

  tool = bt21_tool ();
  if (tool != NULL) {
    gchar *sorted_exp = sort_label_sets (expected), *sorted;

    got = run_tool (tool, out, &errmsg);
    fail_unless (got != NULL, "%s", errmsg);
    sorted = sort_label_sets (got);
    g_free (got);
    got = without_field (sorted, "hidden_ts");
    g_free (sorted);
    line = first_diff (got, sorted_exp, &a, &b);
    g_free (sorted_exp);
    fail_unless (line == 0, "%s as CTF 2 by babeltrace2 2.1, line %u:\n  "
        "got:      %.300s\n  expected: %.300s", name, line, a, b);
    g_free (got);
    g_free (tool);
  } else {
    g_print ("NOTE: no ../shared/tools/babeltrace2-2.1: %s checked with "
        "ctftextsink only\n", name);
  }
  remove_tree (out);
  g_free (stream_a);
  g_free (stream_b);
  g_free (md);
  g_free (desc);
  g_free (expected);
  g_free (exp_path);
  g_free (exp_name);
  g_free (out);
  g_free (in);
}

START_TEST (test_bundled_enums_to_ctf2)
{
  check_bundled_to_ctf2 ("enums");
}
END_TEST

START_TEST (test_bundled_formats_to_ctf2)
{
  check_bundled_to_ctf2 ("formats");
}
END_TEST

/* tests/data/ctf2/kinds has every CTF 2 field class CTF 1.8 lacks: the
 * first one is named, with and without the lossy mappings; ctfsink
 * posts the same error. */
START_TEST (test_kinds_refused_as_ctf18)
{
  gchar *unit = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "ctf2",
      "kinds", NULL);
  gchar *mpath = g_build_filename (unit, "metadata", NULL);
  gchar *out = g_dir_make_tmp ("convert-XXXXXX", NULL);
  GError *err = NULL;
  gchar *text = gst_ctf_metadata_load_file (mpath, &err), *conv, *desc,
      *errmsg = NULL;

  fail_unless (text != NULL, "%s", err ? err->message : "");
  conv = gst_ctf_metadata_convert (text, 1, GST_CTF_CONVERT_NONE, mpath,
      &err);
  fail_unless (conv == NULL);
  fail_unless (err->domain == GST_CTF_ERROR &&
      err->code == GST_CTF_ERROR_METADATA_INVALID);
  fail_unless (strstr (err->message, "event record payload, field `flag` is "
          "a boolean") != NULL, "%s", err->message);
  g_clear_error (&err);
  conv = gst_ctf_metadata_convert (text, 1, GST_CTF_CONVERT_LOSSY, mpath,
      &err);
  fail_unless (conv == NULL);
  fail_unless (strstr (err->message, "field `vu` is a variable-length "
          "integer (LEB128)") != NULL, "%s", err->message);
  g_clear_error (&err);
  /* unchanged when already of that version */
  conv = gst_ctf_metadata_convert (text, 2, GST_CTF_CONVERT_NONE, mpath,
      &err);
  fail_unless_equals_string (conv, text);
  g_free (conv);

  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctfsink "
      "location=\"%s\" overwrite=true ctf-version=1.8", unit, out);
  fail_unless (!test_run_pipeline (desc, &errmsg));
  fail_unless (strstr (errmsg, "Cannot write the trace as CTF 1.8") != NULL
      && strstr (errmsg, "`flag` is a boolean") != NULL, "%s", errmsg);
  g_free (errmsg);
  remove_tree (out);
  g_free (desc);
  g_free (text);
  g_free (mpath);
  g_free (unit);
  g_free (out);
}
END_TEST

#define PREAMBLE "\x1e{\"type\": \"preamble\", \"version\": 2}\n"

/* A 64-bit unsigned mapping and selector ranges beyond G_MAXINT64 are
 * written as unsigned JSON integers; CTF 2 read back gives the same
 * values; a CTF 2 variant selected by an integer cannot be CTF 1.8. */
START_TEST (test_write_unsigned_64_and_variant)
{
  const gchar *json = PREAMBLE
      "\x1e{\"type\": \"data-stream-class\"}\n"
      "\x1e{\"type\": \"event-record-class\", \"payload-field-class\": "
      "{\"type\": \"structure\", \"member-classes\": ["
      "{\"name\": \"e\", \"field-class\": {\"type\": "
      "\"fixed-length-unsigned-integer\", \"length\": 64, \"byte-order\": "
      "\"little-endian\", \"mappings\": {\"TOP\": "
      "[[18446744073709551614, 18446744073709551615]]}}},"
      "{\"name\": \"v\", \"field-class\": {\"type\": \"variant\", "
      "\"selector-field-location\": {\"path\": [\"e\"]}, \"options\": ["
      "{\"name\": \"a\", \"selector-field-ranges\": [[0, 5]], "
      "\"field-class\": {\"type\": \"null-terminated-string\"}}]}}]}}\n";
  GError *err = NULL;
  GstCtfTraceClass *tc = gst_ctf_metadata_parse (json, "t", &err), *tc2;
  gchar *out, *tsdl;
  const GstCtfFieldClass *e;

  fail_unless (tc != NULL, "%s", err ? err->message : "");
  out = gst_ctf_json_write (tc, &err);
  fail_unless (out != NULL, "%s", err ? err->message : "");
  fail_unless (strstr (out, "[[18446744073709551614,18446744073709551615]]")
      != NULL, "%s", out);
  fail_unless (strstr (out, "gst-ctf-u64") == NULL);
  tc2 = gst_ctf_metadata_parse (out, "out", &err);
  fail_unless (tc2 != NULL, "%s\n%s", err ? err->message : "", out);
  e = ((GstCtfEventClass *) g_ptr_array_index (((GstCtfStreamClass *)
              g_ptr_array_index (tc2->stream_classes, 0))->event_classes,
          0))->payload->members[0].fc;
  fail_unless_equals_int (e->type, GST_CTF_FIELD_CLASS_ENUM);
  fail_unless (e->enumeration.mappings[0].lower == G_MAXUINT64 - 1 &&
      e->enumeration.mappings[0].upper == G_MAXUINT64);
  tsdl = gst_ctf_metadata_convert (json, 1, GST_CTF_CONVERT_LOSSY, "t", &err);
  fail_unless (tsdl == NULL);
  fail_unless (strstr (err->message, "field `v` is a variant one of whose "
          "options is not selected by exactly the ranges of one label") !=
      NULL, "%s", err->message);
  g_clear_error (&err);
  gst_ctf_trace_class_unref (tc2);
  gst_ctf_trace_class_unref (tc);
  g_free (out);
}
END_TEST

/* The `metadata` of a trace directory. */
static gchar *
metadata_of (const gchar * dir)
{
  gchar *p = g_build_filename (dir, "metadata", NULL), *text = NULL;

  fail_unless (g_file_get_contents (p, &text, NULL, NULL), "%s", p);
  g_free (p);
  return text;
}

/* tracecmdsrc ctf-version=2: CTF 2 metadata, the same events. */
START_TEST (test_tracecmdsrc_ctf2)
{
  gchar *dat = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "tracecmd",
      "i686-v7-zstd.dat", NULL);
  gchar *out = g_dir_make_tmp ("convert-XXXXXX", NULL);
  gchar *desc, *errmsg = NULL, *md, *t18, *t2, *a, *b;
  guint line;

  desc = g_strdup_printf ("tracecmdsrc location=\"%s\" ctf-version=2 ! "
      "ctfsink location=\"%s\" overwrite=true", dat, out);
  fail_unless (test_run_pipeline (desc, &errmsg), "%s", errmsg);
  md = metadata_of (out);
  fail_unless (gst_ctf_metadata_is_ctf2 (md));
  g_free (md);
  g_free (desc);
  t2 = text_of (out, "", &errmsg);
  fail_unless (t2 != NULL, "%s", errmsg);
  desc = g_strdup_printf ("tracecmdsrc location=\"%s\" ! ctfsink "
      "location=\"%s\" overwrite=true", dat, out);
  fail_unless (test_run_pipeline (desc, &errmsg), "%s", errmsg);
  md = metadata_of (out);
  fail_unless (!gst_ctf_metadata_is_ctf2 (md));
  g_free (md);
  t18 = text_of (out, "", &errmsg);
  fail_unless (t18 != NULL, "%s", errmsg);
  line = first_diff (t2, t18, &a, &b);
  fail_unless (line == 0, "line %u:\n  CTF 2:   %.300s\n  CTF 1.8: %.300s",
      line, a, b);
  fail_unless (strlen (t18) > 1000);
  remove_tree (out);
  g_free (t2);
  g_free (t18);
  g_free (desc);
  g_free (out);
  g_free (dat);
}
END_TEST

/* `ctfmux` of two traces to ctfsink, as text (labels sorted, the
 * clock-mapped payload field left out: see sort_label_sets(),
 * without_field()); the output metadata in *ctf2. */
static gchar *
mux_text (const gchar * a, const gchar * b, const gchar * props,
    gboolean * ctf2)
{
  gchar *out = g_dir_make_tmp ("convert-XXXXXX", NULL);
  gchar *desc, *errmsg = NULL, *md, *text, *sorted, *res;

  desc = g_strdup_printf ("ctfmux name=m force-correlate=true %s ! ctfsink "
      "location=\"%s\" overwrite=true  ctfsrc location=\"%s\" ! m.  "
      "ctfsrc location=\"%s\" ! m.", props, out, a, b);
  fail_unless (test_run_pipeline (desc, &errmsg), "%s", errmsg);
  md = metadata_of (out);
  *ctf2 = gst_ctf_metadata_is_ctf2 (md);
  text = text_of (out, "", &errmsg);
  fail_unless (text != NULL, "%s", errmsg);
  sorted = sort_label_sets (text);
  res = without_field (sorted, "hidden_ts");
  remove_tree (out);
  g_free (sorted);
  g_free (text);
  g_free (md);
  g_free (desc);
  g_free (out);
  return res;
}

/* ctfmux of a CTF 1.8 and a CTF 2 trace: CTF 2 by default (the newest
 * input's), 1.8 when asked; the same events as the merge of the two CTF
 * 1.8 originals. */
START_TEST (test_ctfmux_ctf18_and_ctf2)
{
  const gchar *data = g_getenv ("GST_CTF_TEST_DATA");
  gchar *enums = g_build_filename (data, "text", "enums", NULL);
  gchar *formats = g_build_filename (data, "text", "formats", NULL);
  gchar *f2 = g_dir_make_tmp ("convert-XXXXXX", NULL);
  gchar *desc, *errmsg = NULL, *ref, *got, *got18, *a, *b;
  gboolean ctf2;
  guint line;

  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctfsink "
      "location=\"%s\" overwrite=true ctf-version=2", formats, f2);
  fail_unless (test_run_pipeline (desc, &errmsg), "%s", errmsg);
  ref = mux_text (enums, formats, "", &ctf2);
  fail_unless (!ctf2);
  got = mux_text (enums, f2, "", &ctf2);
  fail_unless (ctf2, "merged output of a CTF 2 input is not CTF 2");
  line = first_diff (got, ref, &a, &b);
  fail_unless (line == 0, "line %u:\n  1.8 + 2: %.300s\n  1.8 + 1.8: %.300s",
      line, a, b);
  got18 = mux_text (enums, f2, "ctf-version=1.8", &ctf2);
  fail_unless (!ctf2);
  fail_unless (strlen (got18) > 100);
  remove_tree (f2);
  g_free (got18);
  g_free (got);
  g_free (ref);
  g_free (desc);
  g_free (f2);
  g_free (formats);
  g_free (enums);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Corpus                                                               */

static gboolean
in_list (const gchar * unit, const gchar ** list, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    if (strcmp (unit, list[i]) == 0)
      return TRUE;
  return FALSE;
}

/* The units of a STATUS.tsv its reader read (exit status 0). */
static GPtrArray *
read_units (const gchar * status_path)
{
  GPtrArray *units = g_ptr_array_new_with_free_func (g_free);
  gchar *text, **lines;
  guint i;

  fail_unless (g_file_get_contents (status_path, &text, NULL, NULL), "%s",
      status_path);
  lines = g_strsplit (text, "\n", -1);
  for (i = 1; lines[i] != NULL; i++) {
    gchar **f = g_strsplit (lines[i], "\t", -1);

    if (f[0] && f[1] && strcmp (f[1], "0") == 0)
      g_ptr_array_add (units, g_strdup (f[0]));
    g_strfreev (f);
  }
  g_strfreev (lines);
  g_free (text);
  return units;
}

START_TEST (test_corpus_ctf18_to_ctf2)
{
  static const gchar *groups[] = { "ctf/babeltrace", "ctf/lttng-ust",
    "ctf/other"
  };
  gchar *tool = bt21_tool (), *top = corpus_path ("ctf");
  GString *failures = g_string_new (NULL);
  guint g, n_same = 0, n_total = 0;

  if (top == NULL || tool == NULL) {
    g_print ("SKIP test_corpus_ctf18_to_ctf2: no corpus/ctf or "
        "tools/babeltrace2-2.1 ($GST_CTF_CORPUS)\n");
    g_free (tool);
    g_free (top);
    g_string_free (failures, TRUE);
    return;
  }
  for (g = 0; g < G_N_ELEMENTS (groups); g++) {
    gchar *dir = corpus_path (groups[g]);
    gchar *status = g_build_filename (dir, "oracle", "STATUS.tsv", NULL);
    GPtrArray *units = read_units (status);
    guint k;

    for (k = 0; k < units->len; k++) {
      const gchar *unit = g_ptr_array_index (units, k);
      gchar *src = g_build_filename (dir, unit, NULL);
      gchar *tmp = g_dir_make_tmp ("convert-XXXXXX", NULL);
      gchar *dst = g_build_filename (tmp, "trace", NULL);
      gchar *o21 = g_strdup_printf ("%s/oracle-bt2.1/%s.txt", dir, unit);
      gchar *o20 = g_strdup_printf ("%s/oracle/%s.txt", dir, unit);
      gchar *expected = NULL, *got, *errmsg = NULL, *a, *b;
      guint line;

      if (in_list (unit, bt21_aborts, G_N_ELEMENTS (bt21_aborts))) {
        g_rmdir (tmp);
        goto next;
      }
      n_total++;
      fail_unless (g_file_get_contents (g_file_test (o21, G_FILE_TEST_EXISTS)
              ? o21 : o20, &expected, NULL, NULL), "%s", o20);
      if (!copy_converted (src, dst, 2, &errmsg)) {
        g_string_append_printf (failures, "  %s/%s: not converted: %s\n",
            groups[g], unit, errmsg);
      } else if ((got = run_tool (tool, dst, &errmsg)) == NULL) {
        g_string_append_printf (failures, "  %s/%s: %s\n", groups[g], unit,
            errmsg);
      } else {
        line = first_diff (got, expected, &a, &b);
        if (line == 0) {
          n_same++;
        } else {
          g_string_append_printf (failures, "  %s/%s line %u:\n    got:      "
              "%.300s\n    expected: %.300s\n", groups[g], unit, line, a, b);
          g_free (a);
          g_free (b);
        }
        g_free (got);
      }
      remove_tree (tmp);
      g_free (errmsg);
      g_free (expected);
    next:
      g_free (o21);
      g_free (o20);
      g_free (dst);
      g_free (tmp);
      g_free (src);
    }
    g_ptr_array_unref (units);
    g_free (status);
    g_free (dir);
  }
  g_print ("CTF 1.8 -> CTF 2: %u/%u units read by babeltrace2 2.1.2 as it "
      "reads the originals\n", n_same, n_total);
  fail_unless (failures->len == 0, "converted units differing:\n%s",
      failures->str);
  fail_unless (n_total >= 130, "only %u units", n_total);
  g_string_free (failures, TRUE);
  g_free (tool);
  g_free (top);
}
END_TEST

START_TEST (test_corpus_ctf2_to_ctf18)
{
  static const struct {
    const gchar *dir;
    const gchar *oracle;
  } groups[] = {
    {"ctf2/babeltrace/succeed", "ctf2/babeltrace/oracle/succeed"},
    {"ctf2/babeltrace/intersection", "ctf2/babeltrace/oracle/intersection"},
    {"ctf2/converted", "ctf2/converted/oracle"},
    {"ctf2/lttng-2.15", "ctf2/lttng-2.15/oracle"},
  };
  /* babeltrace2 2.0.4 aborts on the CTF 1.8 original of this one too */
  static const gchar *skipped[] = { "meta-ctx-sequence" };
  gchar *top = corpus_path ("ctf2");
  GString *failures = g_string_new (NULL);
  guint g, n_same = 0, n_as20 = 0, n_refused = 0, n_total = 0;

  if (top == NULL || !has_program ("babeltrace2")) {
    g_print ("SKIP test_corpus_ctf2_to_ctf18: no corpus/ctf2 or no "
        "babeltrace2 (2.0.4) in PATH\n");
    g_free (top);
    g_string_free (failures, TRUE);
    return;
  }
  for (g = 0; g < G_N_ELEMENTS (groups); g++) {
    gchar *dir = corpus_path (groups[g].dir);
    gchar *odir = corpus_path (groups[g].oracle);
    gchar *status = g_build_filename (odir, "STATUS.tsv", NULL);
    GPtrArray *units = read_units (status);
    guint k;

    for (k = 0; k < units->len; k++) {
      const gchar *unit = g_ptr_array_index (units, k);
      gchar *src = g_build_filename (dir, unit, NULL);
      gchar *tmp, *dst, *opath, *expected = NULL, *got, *errmsg = NULL, *a,
          *b;
      guint line;

      if (in_list (unit, skipped, G_N_ELEMENTS (skipped))) {
        g_free (src);
        continue;
      }
      n_total++;
      tmp = g_dir_make_tmp ("convert-XXXXXX", NULL);
      dst = g_build_filename (tmp, "trace", NULL);
      opath = g_strdup_printf ("%s/%s.txt", odir, unit);
      fail_unless (g_file_get_contents (opath, &expected, NULL, NULL), "%s",
          opath);
      if (!copy_converted (src, dst, 1, &errmsg)) {
        /* only the bit map unit has a field class 1.8 lacks */
        if (strcmp (unit, "fl-bm") == 0 && strstr (errmsg, "event record "
                "class `coucou`, event record payload, field `lol` is a bit "
                "map with flags") != NULL)
          n_refused++;
        else
          g_string_append_printf (failures, "  %s/%s: refused: %s\n",
              groups[g].dir, unit, errmsg);
      } else if ((got = run_tool ("babeltrace2", dst, &errmsg)) == NULL) {
        g_string_append_printf (failures, "  %s/%s: %s\n", groups[g].dir,
            unit, errmsg);
      } else {
        line = first_diff (got, expected, &a, &b);
        if (line == 0) {
          n_same++;
        } else {
          /* 2.0 and 2.1 print differently: as ctftextsink's 2.0 mode
           * prints the CTF 2 original */
          gchar *as20 = text_of (src, "babeltrace-version=2.0", &errmsg);
          gchar *a2, *b2;
          guint l2;

          fail_unless (as20 != NULL, "%s", errmsg);
          l2 = first_diff (got, as20, &a2, &b2);
          if (l2 == 0) {
            n_as20++;
          } else {
            g_string_append_printf (failures, "  %s/%s line %u:\n    got:"
                "      %.300s\n    2.1.2:    %.300s\n    as 2.0:   %.300s\n",
                groups[g].dir, unit, line, a, b, b2);
            g_free (a2);
            g_free (b2);
          }
          g_free (as20);
          g_free (a);
          g_free (b);
        }
        g_free (got);
      }
      remove_tree (tmp);
      g_free (errmsg);
      g_free (expected);
      g_free (opath);
      g_free (dst);
      g_free (tmp);
      g_free (src);
    }
    g_ptr_array_unref (units);
    g_free (status);
    g_free (odir);
    g_free (dir);
  }
  g_print ("CTF 2 -> CTF 1.8: of %u units, %u read by babeltrace2 2.0.4 as "
      "2.1.2 reads the originals, %u as ctftextsink babeltrace-version=2.0 "
      "does (2.0/2.1 text differences), %u refused\n", n_total, n_same,
      n_as20, n_refused);
  fail_unless (failures->len == 0, "converted units differing:\n%s",
      failures->str);
  fail_unless (n_refused == 1 && n_total >= 35, "%u units, %u refused",
      n_total, n_refused);
  g_string_free (failures, TRUE);
  g_free (top);
}
END_TEST

static Suite *
convert_suite (void)
{
  Suite *s = suite_create ("ctf-convert");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 900);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_write_unsigned_64_and_variant);
  tcase_add_test (tc, test_kinds_refused_as_ctf18);
  tcase_add_test (tc, test_bundled_enums_to_ctf2);
  tcase_add_test (tc, test_bundled_formats_to_ctf2);
  tcase_add_test (tc, test_tracecmdsrc_ctf2);
  tcase_add_test (tc, test_ctfmux_ctf18_and_ctf2);
  tcase_add_test (tc, test_corpus_ctf18_to_ctf2);
  tcase_add_test (tc, test_corpus_ctf2_to_ctf18);
  return s;
}

GST_CHECK_MAIN (convert);
