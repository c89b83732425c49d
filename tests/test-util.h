/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the unit tests: where the corpus is, skipping when it
 * is absent, removing temporary trees, finding peer programs. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The corpus directory from GST_CTF_CORPUS (tests/meson.build points it
 * at ../shared/corpus), or NULL when it is unset or missing. */
const gchar *test_corpus (void);

/* A path below the corpus (free with g_free); only after NEED_CORPUS. */
gchar *test_corpus_path (const gchar * rel);

/* `rm -rf DIR`. */
void test_rm_rf (const gchar * dir);

/* Whether NAME is an executable in PATH (babeltrace2, trace-cmd). */
gboolean test_have_program (const gchar * name);

/* Appends to @out (of g_strdup()ed paths) every directory under @root,
 * @root included, that holds a `metadata` file, sorted by path; symbolic
 * links, `oracle` and `index` directories are not entered. */
void test_find_trace_dirs (const gchar * root, GPtrArray * out);

/* g_ptr_array_sort() function for an array of strings (by g_strcmp0()). */
gint test_compare_strings (gconstpointer a, gconstpointer b);

/* The environment for a peer tool run as the oracle: meson's random
 * MALLOC_PERTURB_ left out (trace-cmd 3.1.6 reads memory it did not
 * initialise: with MALLOC_PERTURB_=164 or 221 its report prints times in
 * ns).  Free with g_strfreev(). */
gchar **test_oracle_environ (void);

/* Runs the gst_parse_launch() description @desc to EOS (2 minutes at
 * most); FALSE with the error (message and debug) in *errmsg otherwise. */
gboolean test_run_pipeline (const gchar * desc, gchar ** errmsg);

/* In a test function: passes with a SKIP message when the corpus is
 * absent (Check has no skip), so a clone without ../shared passes on the
 * project's own fixtures. */
#define NEED_CORPUS() G_STMT_START {                                    \
  if (test_corpus () == NULL) {                                         \
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing\n", G_STRFUNC); \
    return;                                                             \
  }                                                                     \
} G_STMT_END

/* One event line of `trace-cmd report` (-R or not):
 * "COMM-PID [CPU] SECS.USECS: NAME: FIELDS", COMM may hold spaces and
 * dashes (the PID follows the last '-' before " [CPU]").  @comm is
 * allocated (g_free); @rest points into @line at NAME. */
typedef struct {
  gchar *comm;
  glong pid;
  guint cpu;
  guint64 secs, usecs;
  const gchar *rest;
} TestReportLine;

/* Returns FALSE (and allocates nothing) when @line is not an event line. */
gboolean test_report_line_parse (const gchar * line, TestReportLine * out);

G_END_DECLS
