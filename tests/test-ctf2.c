/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CTF 2 reading (CTF2-SPEC-2.0, CTF2-PMETA-1.0).
 *
 * Always: the JSON front end on metadata written here (integers beyond
 * int64, errors naming the fragment, extensions refused, packetized
 * CTF 2), and tests/data/ctf2/kinds (every CTF 2 field class CTF 1.8 lacks)
 * against its text (babeltrace2 2.1.2's, see gen-kinds.py), and
 * tests/data/ctf2/utf (UTF-16/32 strings, gen-utf.py) against
 * babeltrace2 2.1.2's text, also at test time when ../shared/tools has
 * it, and UTF-16/32 text it refuses refused with the string named.
 *
 * With $GST_CTF_CORPUS: `ctfsrc ! ctftextsink` on every unit of ctf2/
 * that babeltrace2 2.1.2 reads equals its oracle byte for byte, but for
 * the units of known_differences[] (each with its reason; they must
 * differ only by that); the fail/ units give the expected errors; and
 * `ctfsrc ! ctfsink` keeps a CTF 2 trace's files byte-identical.
 */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "gstctf-metadata.h"
#include "test-util.h"

#define PREAMBLE "\x1e{\"type\": \"preamble\", \"version\": 2}\n"
#define DSC "\x1e{\"type\": \"data-stream-class\"}\n"

/* Units that differ from babeltrace2 2.1.2's text, each with its reason
 * (checked: they must differ only by it); none now.  The one reason there
 * was, 2.1's several-labels form `( { "A", "B" } : container = 4 )`, came
 * with ctftextsink's babeltrace-version=2.1 default; labels_as_2_0() turns
 * an oracle back into 2.0's form for such a unit. */
static const gchar *known_differences[] = {
  NULL,
};

static gchar *
corpus_dir (const gchar * rel)
{
  const gchar *c = g_getenv ("GST_CTF_CORPUS");
  gchar *p;

  if (c == NULL)
    return NULL;
  p = g_build_filename (c, rel, NULL);
  if (!g_file_test (p, G_FILE_TEST_IS_DIR)) {
    g_free (p);
    return NULL;
  }
  return p;
}

/* `ctfsrc location=UNIT ! ctftextsink location=TMP`; the text, or NULL
 * with *errmsg. */
static gchar *
text_of (const gchar * unit, gchar ** errmsg)
{
  gchar *out, *desc, *q_unit, *q_out, *text = NULL;
  gint fd = g_file_open_tmp ("ctf2-XXXXXX.txt", &out, NULL);

  fail_unless (fd >= 0);
  close (fd);
  q_unit = g_strescape (unit, NULL);
  q_out = g_strescape (out, NULL);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctftextsink "
      "location=\"%s\"", q_unit, q_out);
  if (test_run_pipeline (desc, errmsg))
    fail_unless (g_file_get_contents (out, &text, NULL, NULL));
  g_unlink (out);
  g_free (out);
  g_free (desc);
  g_free (q_unit);
  g_free (q_out);
  return text;
}

/* First differing line (1-based), 0 when equal; the lines in *a, *b. */
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

/* babeltrace2 2.1's several-labels form turned into 2.0.4's. */
static gchar *
labels_as_2_0 (const gchar * text)
{
  GString *s = g_string_new (NULL);
  const gchar *p = text;

  while (*p) {
    const gchar *open = strstr (p, "( { \"");
    const gchar *close;

    if (open == NULL || (close = strstr (open, " } : container = ")) == NULL
        || memchr (open, '\n', close - open) != NULL) {
      g_string_append (s, p);
      break;
    }
    g_string_append_len (s, p, open - p);
    g_string_append (s, "( ");
    g_string_append_len (s, open + 4, close - (open + 4));
    g_string_append (s, " : container = ");
    p = close + strlen (" } : container = ");
  }
  return g_string_free (s, FALSE);
}

static gboolean
is_known_difference (const gchar * rel)
{
  guint i;

  for (i = 0; known_differences[i] != NULL; i++)
    if (strcmp (rel, known_differences[i]) == 0)
      return TRUE;
  return FALSE;
}

START_TEST (test_corpus_text)
{
  static const struct {
    const gchar *dir;           /* units, under ctf2/ */
    const gchar *oracle;        /* their oracle directory, under ctf2/ */
  } groups[] = {
    {"babeltrace/succeed", "babeltrace/oracle/succeed"},
    {"babeltrace/intersection", "babeltrace/oracle/intersection"},
    {"converted", "converted/oracle"},
    {"lttng-2.15", "lttng-2.15/oracle"},
  };
  gchar *top = corpus_dir ("ctf2");
  guint g, n_same = 0, n_known = 0, n_total = 0;
  GString *failures = g_string_new (NULL);

  if (top == NULL) {
    g_print ("SKIP test_corpus_text: no corpus/ctf2 ($GST_CTF_CORPUS)\n");
    g_string_free (failures, TRUE);
    return;
  }
  for (g = 0; g < G_N_ELEMENTS (groups); g++) {
    gchar *dir = g_build_filename (top, groups[g].dir, NULL);
    GDir *d = g_dir_open (dir, 0, NULL);
    GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
    const gchar *n;
    guint k;

    fail_unless (d != NULL, "%s", dir);
    while ((n = g_dir_read_name (d)) != NULL)
      if (strcmp (n, "oracle") != 0)
        g_ptr_array_add (names, g_strdup (n));
    g_dir_close (d);
    g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
    for (k = 0; k < names->len; k++) {
      const gchar *name = g_ptr_array_index (names, k);
      gchar *rel = g_strdup_printf ("%s/%s", groups[g].dir, name);
      gchar *unit = g_build_filename (dir, name, NULL);
      gchar *opath = g_strdup_printf ("%s/%s/%s.txt", top, groups[g].oracle,
          name);
      gchar *expected = NULL, *got, *errmsg = NULL, *a, *b;
      guint line;

      n_total++;
      fail_unless (g_file_get_contents (opath, &expected, NULL, NULL),
          "%s", opath);
      got = text_of (unit, &errmsg);
      if (got == NULL) {
        g_string_append_printf (failures, "  %s: error: %s\n", rel, errmsg);
      } else if ((line = first_diff (got, expected, &a, &b)) == 0) {
        n_same++;
        if (is_known_difference (rel))
          g_print ("NOTE: %s now equals babeltrace2 2.1.2: remove it from "
              "known_differences[]\n", rel);
      } else if (is_known_difference (rel)) {
        gchar *as20 = labels_as_2_0 (expected), *a2, *b2;
        guint l2 = first_diff (got, as20, &a2, &b2);

        if (l2 == 0)
          n_known++;
        else
          g_string_append_printf (failures, "  %s (known: 2.1 labels) line "
              "%u:\n    got:      %.300s\n    expected: %.300s\n", rel, l2,
              a2, b2);
        g_free (as20);
        g_free (a2);
        g_free (b2);
      } else {
        g_string_append_printf (failures, "  %s line %u:\n    got:      "
            "%.300s\n    expected: %.300s\n", rel, line, a, b);
      }
      if (got != NULL && line != 0) {
        g_free (a);
        g_free (b);
      }
      g_free (got);
      g_free (errmsg);
      g_free (expected);
      g_free (opath);
      g_free (unit);
      g_free (rel);
    }
    g_ptr_array_unref (names);
    g_free (dir);
  }
  g_print ("ctf2 text: %u/%u units identical to babeltrace2 2.1.2, %u more "
      "differ only by 2.1's enumeration labels form\n", n_same, n_total,
      n_known);
  fail_unless (failures->len == 0, "units differing from babeltrace2 "
      "2.1.2:\n%s", failures->str);
  fail_unless (n_total >= 40, "only %u units", n_total);
  g_string_free (failures, TRUE);
  g_free (top);
}
END_TEST

START_TEST (test_corpus_fail_units)
{
  static const gchar *metadata_units[] = {
    "meta-no-stream-cls", "meta-no-trace-cls-no-stream-cls",
  };
  gchar *top = corpus_dir ("ctf2/babeltrace/fail");
  gchar *unit, *text, *errmsg = NULL;
  guint i;

  if (top == NULL) {
    g_print ("SKIP test_corpus_fail_units: no corpus/ctf2\n");
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (metadata_units); i++) {
    gchar *m = g_build_filename (top, metadata_units[i], "metadata", NULL);
    GError *err = NULL;
    gchar *md = gst_ctf_metadata_load_file (m, &err);
    GstCtfTraceClass *tc;

    fail_unless (md != NULL, "%s: %s", m, err ? err->message : "");
    tc = gst_ctf_metadata_parse (md, m, &err);
    fail_unless (tc == NULL, "%s parsed", m);
    fail_unless (err->domain == GST_CTF_ERROR &&
        err->code == GST_CTF_ERROR_METADATA_INVALID, "%s: %s", m,
        err->message);
    fail_unless (strstr (err->message, "fragment=") != NULL &&
        strstr (err->message, "offset=") != NULL &&
        strstr (err->message, "data stream class") != NULL, "%s: %s", m,
        err->message);
    g_error_free (err);
    g_free (md);
    g_free (m);
  }
  /* an event record of no bits: the decoder says so (no endless loop) */
  unit = g_build_filename (top, "empty-event-record", NULL);
  text = text_of (unit, &errmsg);
  fail_unless (text == NULL, "empty-event-record read");
  fail_unless (strstr (errmsg, "takes no bits") != NULL, "%s", errmsg);
  g_free (errmsg);
  g_free (unit);
  g_free (top);
}
END_TEST

/* ctfsrc ! ctfsink of a CTF 2 trace: metadata and stream files as they
 * were. */
START_TEST (test_corpus_ctfsink_copy)
{
  gchar *in = corpus_dir ("ctf2/lttng-2.15/ust-libc/ust/uid/0/64-bit");
  gchar *out, *desc, *errmsg = NULL;
  static const gchar *files[] = { "metadata", "channel0_0", "channel0_1" };
  guint i;

  if (in == NULL) {
    g_print ("SKIP test_corpus_ctfsink_copy: no corpus/ctf2\n");
    return;
  }
  out = g_dir_make_tmp ("ctf2-copy-XXXXXX", NULL);
  fail_unless (out != NULL);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctfsink location=\"%s\" "
      "overwrite=true", in, out);
  fail_unless (test_run_pipeline (desc, &errmsg), "%s", errmsg);
  for (i = 0; i < G_N_ELEMENTS (files); i++) {
    gchar *a = g_build_filename (in, files[i], NULL);
    gchar *b = g_build_filename (out, files[i], NULL);
    gchar *da, *db;
    gsize la, lb;

    fail_unless (g_file_get_contents (a, &da, &la, NULL));
    fail_unless (g_file_get_contents (b, &db, &lb, NULL), "%s", b);
    fail_unless (la == lb && memcmp (da, db, la) == 0, "%s differs", b);
    g_unlink (b);
    g_free (da);
    g_free (db);
    g_free (a);
    g_free (b);
  }
  g_rmdir (out);
  g_free (desc);
  g_free (out);
  g_free (in);
}
END_TEST

/* tests/data/ctf2/NAME prints tests/data/ctf2/NAME.txt. */
static void
check_fixture_text (const gchar * name)
{
  gchar *unit = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "ctf2",
      name, NULL);
  gchar *exp_name = g_strconcat (name, ".txt", NULL);
  gchar *exp_path = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "ctf2",
      exp_name, NULL);
  gchar *expected = NULL, *errmsg = NULL, *got, *a, *b;
  guint line;

  fail_unless (g_file_get_contents (exp_path, &expected, NULL, NULL));
  got = text_of (unit, &errmsg);
  fail_unless (got != NULL, "%s", errmsg);
  line = first_diff (got, expected, &a, &b);
  fail_unless (line == 0, "%s line %u:\n  got:      %s\n  expected: %s",
      name, line, a, b);
  g_free (got);
  g_free (expected);
  g_free (exp_path);
  g_free (exp_name);
  g_free (unit);
}

START_TEST (test_kinds_text)
{
  check_fixture_text ("kinds");
}
END_TEST

/* UTF-16/32 strings (see gen-utf.py), as babeltrace2 2.1.2 prints them */
START_TEST (test_utf_text)
{
  check_fixture_text ("utf");
}
END_TEST

/* babeltrace2 2.1.2 next to the corpus (../shared/tools), or NULL. */
static gchar *
babeltrace21 (void)
{
  const gchar *c = g_getenv ("GST_CTF_CORPUS");
  gchar *tool;

  if (c == NULL)
    return NULL;
  tool = g_build_filename (c, "..", "tools", "babeltrace2-2.1", NULL);
  if (!g_file_test (tool, G_FILE_TEST_IS_EXECUTABLE))
    g_clear_pointer (&tool, g_free);
  return tool;
}

/* Runs babeltrace2 2.1.2 on @unit: its stdout when it exits 0, else
 * NULL. */
static gchar *
babeltrace21_text (const gchar * tool, const gchar * unit)
{
  gchar *argv[] = { (gchar *) tool, (gchar *) unit, NULL };
  gchar **envp = g_get_environ ();
  gchar *out = NULL;
  gint status = -1;

  envp = g_environ_setenv (envp, "TZ", "UTC", TRUE);
  envp = g_environ_setenv (envp, "LC_ALL", "C", TRUE);
  if (!g_spawn_sync (NULL, argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
          NULL, &out, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL))
    g_clear_pointer (&out, g_free);
  g_strfreev (envp);
  return out;
}

START_TEST (test_utf_babeltrace21)
{
  gchar *tool = babeltrace21 ();
  gchar *unit, *bt, *got, *errmsg = NULL, *a, *b;
  guint line;

  if (tool == NULL) {
    g_print ("SKIP %s: no ../shared/tools/babeltrace2-2.1\n", G_STRFUNC);
    return;
  }
  unit = g_build_filename (g_getenv ("GST_CTF_TEST_DATA"), "ctf2", "utf",
      NULL);
  bt = babeltrace21_text (tool, unit);
  fail_unless (bt != NULL, "babeltrace2 2.1 failed on %s", unit);
  got = text_of (unit, &errmsg);
  fail_unless (got != NULL, "%s", errmsg);
  line = first_diff (got, bt, &a, &b);
  fail_unless (line == 0, "line %u:\n  got:          %s\n  babeltrace2: %s",
      line, a, b);
  g_free (got);
  g_free (bt);
  g_free (unit);
  g_free (tool);
}
END_TEST

/* UTF-16/32 text that iconv cannot convert: babeltrace2 2.1.2 stops with
 * an error, so does ctfsrc ! ctftextsink, naming the string and the
 * byte.  Each case: the payload's string class, the stream bytes, what
 * the error says. */
START_TEST (test_utf_invalid)
{
  static const struct {
    const gchar *fc;
    const gchar *data;
    gsize len;
    const gchar *what;
  } cases[] = {
    /* a lone high surrogate */
    {"{\"type\": \"null-terminated-string\", \"encoding\": \"utf-16le\"}",
        "a\0\0\xd8\0\0\x09", 7, "`s` is not valid utf-16le at its byte 2"},
    /* a low surrogate first */
    {"{\"type\": \"static-length-string\", \"encoding\": \"utf-16be\", "
          "\"length\": 4}", "\xdc\0\xd8\0\x09", 5,
        "`s` is not valid utf-16be at its byte 0"},
    /* above U+10FFFF */
    {"{\"type\": \"static-length-string\", \"encoding\": \"utf-32le\", "
          "\"length\": 4}", "\0\0\x11\0\x09", 5,
        "`s` is not valid utf-32le at its byte 0"},
    /* a surrogate in UTF-32 */
    {"{\"type\": \"static-length-string\", \"encoding\": \"utf-32be\", "
          "\"length\": 8}", "\0\0\0a\0\0\xd8\0\x09", 9,
        "`s` is not valid utf-32be at its byte 4"},
    /* half a code unit */
    {"{\"type\": \"static-length-string\", \"encoding\": \"utf-16le\", "
          "\"length\": 3}", "a\0b\x09", 4,
        "`s` is not valid utf-16le at its byte 2"},
    /* no null code unit (a zero byte pair across two units is none) */
    {"{\"type\": \"null-terminated-string\", \"encoding\": \"utf-16le\"}",
        "\x09a\0\0\x01", 5, "utf-16le string `s` has no null code unit"},
  };
  gchar *tool = babeltrace21 ();
  guint k;

  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    gchar *dir = g_dir_make_tmp ("ctf2-utf-XXXXXX", NULL);
    gchar *md = g_strdup_printf (PREAMBLE DSC "\x1e{\"type\": "
        "\"event-record-class\", \"payload-field-class\": {\"type\": "
        "\"structure\", \"member-classes\": [%s{\"name\": \"s\", "
        "\"field-class\": %s}, {\"name\": \"b\", \"field-class\": "
        "{\"type\": \"fixed-length-unsigned-integer\", \"length\": 8, "
        "\"byte-order\": \"little-endian\"}}]}}\n",
        k == 5 ? "{\"name\": \"c\", \"field-class\": {\"type\": "
        "\"fixed-length-unsigned-integer\", \"length\": 8, "
        "\"byte-order\": \"little-endian\"}}, " : "", cases[k].fc);
    gchar *md_path = g_build_filename (dir, "metadata", NULL);
    gchar *st_path = g_build_filename (dir, "stream", NULL);
    gchar *errmsg = NULL, *got;

    fail_unless (g_file_set_contents (md_path, md, -1, NULL));
    fail_unless (g_file_set_contents (st_path, cases[k].data, cases[k].len,
            NULL));
    got = text_of (dir, &errmsg);
    fail_unless (got == NULL, "case %u decoded: %s", k, got);
    fail_unless (strstr (errmsg, cases[k].what) != NULL,
        "case %u: not `%s`: %s", k, cases[k].what, errmsg);
    if (tool) {
      gchar *bt = babeltrace21_text (tool, dir);

      fail_unless (bt == NULL, "case %u: babeltrace2 2.1 read it: %s", k,
          bt);
    }
    g_free (errmsg);
    test_rm_rf (dir);
    g_free (st_path);
    g_free (md_path);
    g_free (md);
    g_free (dir);
  }
  g_free (tool);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The JSON front end on metadata written here                          */


static GstCtfTraceClass *
parse (const gchar * text, GError ** err)
{
  return gst_ctf_metadata_parse (text, "test", err);
}

/* Fails unless @text is refused with @code, naming fragment @frag at
 * byte @offset (or any when -1) and saying @what. */
static void
assert_refused (const gchar * text, gint code, guint frag, gint offset,
    const gchar * what)
{
  GError *err = NULL;
  GstCtfTraceClass *tc = parse (text, &err);
  gchar *f = g_strdup_printf ("fragment=%u,", frag);
  gchar *o = g_strdup_printf ("offset=%d:", offset);

  fail_unless (tc == NULL, "parsed: %s", text);
  fail_unless (err->domain == GST_CTF_ERROR && err->code == code,
      "code %d: %s", err->code, err->message);
  fail_unless (strstr (err->message, f) != NULL, "not %s: %s", f,
      err->message);
  fail_unless (offset < 0 || strstr (err->message, o) != NULL, "not %s: %s",
      o, err->message);
  fail_unless (strstr (err->message, what) != NULL, "not `%s`: %s", what,
      err->message);
  g_error_free (err);
  g_free (f);
  g_free (o);
}

/* gst_ctf_metadata_ctf2_add_environment(), which ctfsink's truncation
 * mark uses: into an environment with entries, an empty one, a trace
 * class without one, metadata without a trace class; the rest of the
 * text kept (an integer beyond int64 in the trace class too). */
static void
check_env_added (const gchar * text)
{
  GError *err = NULL;
  gchar *a = gst_ctf_metadata_ctf2_add_environment (text, "gst_ctf_r", 0,
      "why \"so\"", &err);
  gchar *b = a ? gst_ctf_metadata_ctf2_add_environment (a, "gst_ctf_t", 1,
      NULL, &err) : NULL;
  GstCtfTraceClass *tc;
  const GstCtfEnvEntry *e;

  fail_unless (b != NULL, "%s", err ? err->message : "");
  tc = parse (b, &err);
  fail_unless (tc != NULL, "%s: %s", b, err ? err->message : "");
  e = gst_ctf_trace_class_find_env (tc, "gst_ctf_t");
  fail_unless (e != NULL && !e->is_string && e->integer == 1, "%s", b);
  e = gst_ctf_trace_class_find_env (tc, "gst_ctf_r");
  fail_unless (e != NULL && e->is_string && strcmp (e->str, "why \"so\"")
      == 0, "%s", b);
  if (strstr (text, "\"a\": \"x\"")) {
    e = gst_ctf_trace_class_find_env (tc, "a");
    fail_unless (e != NULL && e->is_string && strcmp (e->str, "x") == 0);
  }
  fail_unless (g_str_has_suffix (b, DSC), "%s", b);
  if (strstr (text, "18446744073709551615"))
    fail_unless (strstr (b, "18446744073709551615") != NULL, "%s", b);
  gst_ctf_trace_class_unref (tc);
  g_free (a);
  g_free (b);
}

START_TEST (test_add_environment)
{
  GError *err = NULL;

  check_env_added (PREAMBLE "\x1e{\"type\": \"trace-class\", \"environment\": "
      "{\"a\": \"x\"}, \"packet-header-field-class\": {\"type\": "
      "\"structure\", \"member-classes\": [{\"name\": \"m\", "
      "\"field-class\": {\"type\": \"fixed-length-unsigned-integer\", "
      "\"length\": 64, \"byte-order\": \"little-endian\", \"mappings\": "
      "{\"max\": [[18446744073709551615, 18446744073709551615]]}}}]}}\n"
      DSC);
  check_env_added (PREAMBLE "\x1e{\"environment\": { }, \"type\": "
      "\"trace-class\"}\n" DSC);
  check_env_added (PREAMBLE "\x1e{\"type\": \"trace-class\", \"attributes\": "
      "{\"x.org\": {\"environment\": {}}}}\n" DSC);
  check_env_added (PREAMBLE "\x1e{\"type\": \"trace-class\"}" DSC);
  check_env_added (PREAMBLE DSC);
  fail_unless (gst_ctf_metadata_ctf2_add_environment ("/* CTF 1.8 */",
          "a", 1, NULL, &err) == NULL);
  fail_unless (err->domain == GST_CTF_ERROR &&
      err->code == GST_CTF_ERROR_METADATA_INVALID);
  g_error_free (err);
}
END_TEST

START_TEST (test_json_unsigned_64)
{
  /* ranges up to 2^64-1: json-glib holds them as gint64 bits */
  const gchar *text = PREAMBLE DSC "\x1e{\"type\": \"event-record-class\", "
      "\"payload-field-class\": {\"type\": \"structure\", \"member-classes\": "
      "[{\"name\": \"e\", \"field-class\": {\"type\": "
      "\"fixed-length-unsigned-integer\", \"length\": 64, \"byte-order\": "
      "\"little-endian\", \"mappings\": {\"HIGH\": [[9223372036854775808, "
      "18446744073709551615]], \"LOW\": [[0, 1]]}}}]}}";
  GError *err = NULL;
  GstCtfTraceClass *tc = parse (text, &err);
  const GstCtfStreamClass *sc;
  const GstCtfEventClass *ec;
  const GstCtfFieldClass *e;

  fail_unless (tc != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (tc->major, 2);
  sc = g_ptr_array_index (tc->stream_classes, 0);
  ec = g_ptr_array_index (sc->event_classes, 0);
  e = ec->payload->members[0].fc;
  fail_unless_equals_int (e->type, GST_CTF_FIELD_CLASS_ENUM);
  fail_unless_equals_int (e->enumeration.n_mappings, 2);
  fail_unless (e->enumeration.mappings[0].lower ==
      G_GUINT64_CONSTANT (1) << 63);
  fail_unless (e->enumeration.mappings[0].upper == G_MAXUINT64);
  gst_ctf_trace_class_unref (tc);

  /* beyond 2^64-1: refused with the byte offset of the literal */
  assert_refused (PREAMBLE DSC "\x1e{\"type\": \"event-record-class\", "
      "\"id\": 18446744073709551616}", GST_CTF_ERROR_METADATA_INVALID, 2, 105,
      "out of range");
}
END_TEST

START_TEST (test_json_errors)
{
  /* not a JSON text: syntax error, fragment 1 at byte 36 */
  assert_refused (PREAMBLE "\x1e{\"type\": ", GST_CTF_ERROR_METADATA_SYNTAX,
      1, 36, "not a JSON text");
  /* an extension the reader does not know (CTF2-SPEC-2.0: refuse) */
  assert_refused ("\x1e{\"type\": \"preamble\", \"version\": 2, "
      "\"extensions\": {\"example.org,2024\": {\"x\": 1}}}" DSC,
      GST_CTF_ERROR_METADATA_INVALID, 0, 0, "example.org,2024");
  /* nesting json-glib would recurse into: refused first (the third
   * fragment's 513th `[`, at byte 36 + 31 + 1 + 512) */
  {
    GString *deep = g_string_new (PREAMBLE DSC);
    guint k;

    g_string_append (deep, "\x1e");
    for (k = 0; k < 600; k++)
      g_string_append_c (deep, '[');
    assert_refused (deep->str, GST_CTF_ERROR_METADATA_INVALID, 2, 580,
        "nested deeper");
    g_string_free (deep, TRUE);
  }
  /* a property of a draft of the spec (Trace Compass' CTF2-7.0) */
  assert_refused (PREAMBLE "\x1e{\"type\": \"trace-class\", \"uuid\": []}"
      DSC, GST_CTF_ERROR_METADATA_INVALID, 1, 36, "unknown property `uuid`");
  /* no preamble first */
  assert_refused (DSC PREAMBLE, GST_CTF_ERROR_METADATA_INVALID, 0, 0,
      "expected the preamble");
  /* version */
  assert_refused ("\x1e{\"type\": \"preamble\", \"version\": 3}",
      GST_CTF_ERROR_METADATA_INVALID, 0, 0, "version 3");
  /* an unknown field class type, in the third fragment */
  assert_refused (PREAMBLE DSC "\x1e{\"type\": \"event-record-class\", "
      "\"payload-field-class\": {\"type\": \"structure\", \"member-classes\": "
      "[{\"name\": \"x\", \"field-class\": {\"type\": \"decimal\"}}]}}",
      GST_CTF_ERROR_METADATA_INVALID, 2, 67, "unknown field class type "
      "`decimal`");
  /* a length after its sequence */
  assert_refused (PREAMBLE DSC "\x1e{\"type\": \"event-record-class\", "
      "\"payload-field-class\": {\"type\": \"structure\", \"member-classes\": "
      "[{\"name\": \"s\", \"field-class\": {\"type\": \"dynamic-length-string\","
      " \"length-field-location\": {\"path\": [\"n\"]}}}, {\"name\": \"n\", "
      "\"field-class\": {\"type\": \"fixed-length-unsigned-integer\", "
      "\"length\": 8, \"byte-order\": \"little-endian\"}}]}}",
      GST_CTF_ERROR_METADATA_INVALID, 2, 67, "does not name a field before");
  /* a role where it has no meaning */
  assert_refused (PREAMBLE DSC "\x1e{\"type\": \"event-record-class\", "
      "\"payload-field-class\": {\"type\": \"structure\", \"member-classes\": "
      "[{\"name\": \"n\", \"field-class\": {\"type\": "
      "\"fixed-length-unsigned-integer\", \"length\": 8, \"byte-order\": "
      "\"little-endian\", \"roles\": [\"packet-total-length\"]}}]}}",
      GST_CTF_ERROR_METADATA_INVALID, 2, 67, "not allowed");
  /* an event record class of an undeclared data stream class */
  assert_refused (PREAMBLE DSC "\x1e{\"type\": \"event-record-class\", "
      "\"data-stream-class-id\": 4}", GST_CTF_ERROR_METADATA_INVALID, 2, 67,
      "no data stream class with ID 4");
  /* a timestamp role without a default clock */
  assert_refused (PREAMBLE "\x1e{\"type\": \"data-stream-class\", "
      "\"event-record-header-field-class\": {\"type\": \"structure\", "
      "\"member-classes\": [{\"name\": \"t\", \"field-class\": {\"type\": "
      "\"fixed-length-unsigned-integer\", \"length\": 32, \"byte-order\": "
      "\"little-endian\", \"roles\": [\"default-clock-timestamp\"]}}]}}",
      GST_CTF_ERROR_METADATA_INVALID, 1, 36, "without a default clock");
  /* an optional whose selector is not a boolean needs ranges */
  assert_refused (PREAMBLE DSC "\x1e{\"type\": \"event-record-class\", "
      "\"payload-field-class\": {\"type\": \"structure\", \"member-classes\": "
      "[{\"name\": \"n\", \"field-class\": {\"type\": "
      "\"fixed-length-unsigned-integer\", \"length\": 8, \"byte-order\": "
      "\"little-endian\"}}, {\"name\": \"o\", \"field-class\": {\"type\": "
      "\"optional\", \"selector-field-location\": {\"path\": [\"n\"]}, "
      "\"field-class\": {\"type\": \"null-terminated-string\"}}}]}}",
      GST_CTF_ERROR_METADATA_INVALID, 2, 67, "needs `selector-field-ranges`");
}
END_TEST

/* Field class aliases, relative locations going up with null, clock
 * classes: what the corpus does not have (LTTng 2.15's kernel metadata
 * is reported to use aliases). */
START_TEST (test_json_aliases_and_locations)
{
  const gchar *text = PREAMBLE
      "\x1e{\"type\": \"field-class-alias\", \"name\": \"u8\", \"field-class\":"
      " {\"type\": \"fixed-length-unsigned-integer\", \"length\": 8, "
      "\"byte-order\": \"little-endian\", \"alignment\": 8}}\n"
      "\x1e{\"type\": \"clock-class\", \"id\": \"c\", \"frequency\": 1000, "
      "\"origin\": \"unix-epoch\", \"offset-from-origin\": {\"seconds\": 10, "
      "\"cycles\": 5}}\n"
      "\x1e{\"type\": \"field-class-alias\", \"name\": \"ts\", "
      "\"field-class\": {\"type\": \"fixed-length-unsigned-integer\", "
      "\"length\": 32, \"byte-order\": \"little-endian\", \"roles\": "
      "[\"default-clock-timestamp\"]}}\n"
      "\x1e{\"type\": \"data-stream-class\", \"default-clock-class-id\": "
      "\"c\", \"event-record-header-field-class\": {\"type\": "
      "\"structure\", \"member-classes\": [{\"name\": \"t\", "
      "\"field-class\": \"ts\"}]}}\n"
      "\x1e{\"type\": \"event-record-class\", \"payload-field-class\": "
      "{\"type\": \"structure\", \"member-classes\": [{\"name\": \"_len\", "
      "\"field-class\": \"u8\"}, {\"name\": \"inner\", \"field-class\": "
      "{\"type\": \"structure\", \"member-classes\": [{\"name\": \"a\", "
      "\"field-class\": {\"type\": \"dynamic-length-array\", "
      "\"length-field-location\": {\"path\": [null, \"_len\"]}, "
      "\"element-field-class\": \"u8\"}}]}}]}}\n";
  GError *err = NULL;
  GstCtfTraceClass *tc = parse (text, &err);
  const GstCtfStreamClass *sc;
  const GstCtfEventClass *ec;
  const GstCtfFieldClass *len, *a;
  const GstCtfClockClass *cc;

  fail_unless (tc != NULL, "%s", err ? err->message : "");
  sc = g_ptr_array_index (tc->stream_classes, 0);
  cc = sc->default_clock;
  fail_unless (cc != NULL && cc->freq == 1000 && cc->offset_s == 10 &&
      cc->offset == 5 && cc->origin_is_unix_epoch);
  /* an alias keeps its roles */
  fail_unless_equals_int (sc->event_header->members[0].fc->meaning,
      GST_CTF_MEANING_TIMESTAMP);
  fail_unless (sc->event_header->members[0].fc->integer.mapped_clock == cc);
  ec = g_ptr_array_index (sc->event_classes, 0);
  len = ec->payload->members[0].fc;
  a = ec->payload->members[1].fc->members[0].fc;
  fail_unless_equals_int (a->type, GST_CTF_FIELD_CLASS_SEQUENCE);
  fail_unless (a->ref_target == len && len->value_slot >= 0);
  /* the same as an absolute TSDL path */
  fail_unless_equals_string (a->ref_path, "event.fields._len");
  fail_unless_equals_int (a->element->integer.size, 8);
  gst_ctf_trace_class_unref (tc);
}
END_TEST

/* CTF2-PMETA-1.0: the metadata in packets of version 2.0. */
START_TEST (test_packetized_ctf2)
{
  const gchar *json = PREAMBLE DSC;
  gsize jl = strlen (json), total = 37 + jl;
  guint8 *pkt = g_malloc0 (total);
  guint32 magic = GUINT32_TO_LE (0x75D11D57);
  guint32 bits = GUINT32_TO_LE ((guint32) total * 8);
  GError *err = NULL;
  gchar *text;
  GstCtfTraceClass *tc;

  memcpy (pkt, &magic, 4);
  memcpy (pkt + 24, &bits, 4);
  memcpy (pkt + 28, &bits, 4);
  pkt[35] = 2;
  pkt[36] = 0;
  memcpy (pkt + 37, json, jl);
  text = gst_ctf_metadata_from_bytes (pkt, total, "p", &err);
  fail_unless (text != NULL, "%s", err ? err->message : "");
  fail_unless_equals_string (text, json);
  tc = parse (text, &err);
  fail_unless (tc != NULL, "%s", err ? err->message : "");
  gst_ctf_trace_class_unref (tc);
  g_free (text);
  /* versions are not mixed */
  pkt[35] = 3;
  fail_unless (gst_ctf_metadata_from_bytes (pkt, total, "p", &err) == NULL);
  fail_unless_equals_int (err->code, GST_CTF_ERROR_METADATA_PACKET);
  g_clear_error (&err);
  g_free (pkt);
}
END_TEST

static Suite *
ctf2_suite (void)
{
  Suite *s = suite_create ("ctf2");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_json_unsigned_64);
  tcase_add_test (tc, test_add_environment);
  tcase_add_test (tc, test_json_errors);
  tcase_add_test (tc, test_json_aliases_and_locations);
  tcase_add_test (tc, test_packetized_ctf2);
  tcase_add_test (tc, test_kinds_text);
  tcase_add_test (tc, test_utf_text);
  tcase_add_test (tc, test_utf_babeltrace21);
  tcase_add_test (tc, test_utf_invalid);
  tcase_add_test (tc, test_corpus_fail_units);
  tcase_add_test (tc, test_corpus_ctfsink_copy);
  tcase_add_test (tc, test_corpus_text);
  return s;
}

GST_CHECK_MAIN (ctf2);
