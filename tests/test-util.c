/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "test-util.h"

const gchar *
test_corpus (void)
{
  const gchar *c = g_getenv ("GST_CTF_CORPUS");

  if (c == NULL || !g_file_test (c, G_FILE_TEST_IS_DIR))
    return NULL;
  return c;
}

gchar *
test_corpus_path (const gchar * rel)
{
  return g_build_filename (test_corpus (), rel, NULL);
}

void
test_rm_rf (const gchar * dir)
{
  gchar *argv[] = { (gchar *) "rm", (gchar *) "-rf", (gchar *) dir, NULL };

  g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
      NULL, NULL, NULL);
}

gboolean
test_have_program (const gchar * name)
{
  gchar *p = g_find_program_in_path (name);
  gboolean ok = p != NULL;

  g_free (p);
  return ok;
}
