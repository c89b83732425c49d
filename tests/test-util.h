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

/* In a test function: passes with a SKIP message when the corpus is
 * absent (Check has no skip), so a clone without ../shared passes on the
 * project's own fixtures. */
#define NEED_CORPUS() G_STMT_START {                                    \
  if (test_corpus () == NULL) {                                         \
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing\n", G_STRFUNC); \
    return;                                                             \
  }                                                                     \
} G_STMT_END

G_END_DECLS
