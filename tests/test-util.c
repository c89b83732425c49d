/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "test-util.h"
#include <gst/check/gstcheck.h>

#include <stdlib.h>
#include <string.h>

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

gchar **
test_oracle_environ (void)
{
  return g_environ_unsetenv (g_get_environ (), "MALLOC_PERTURB_");
}

gboolean
test_report_line_parse (const gchar * line, TestReportLine * out)
{
  const gchar *lb = NULL, *p, *q;
  gchar *end;

  /* " [CPU]": the first bracket of digits */
  for (p = line; (p = strstr (p, " [")) != NULL; p++) {
    q = p + 2;
    while (g_ascii_isdigit (*q))
      q++;
    if (q > p + 2 && *q == ']') {
      lb = p;
      break;
    }
  }
  if (lb == NULL)
    return FALSE;
  q = lb;
  while (q > line && q[-1] != '-')
    q--;
  out->pid = strtol (q, NULL, 10);
  p = line;
  while (*p == ' ')
    p++;
  out->comm = g_strndup (p, MAX (q - 1 - p, 0));
  out->cpu = (guint) g_ascii_strtoull (lb + 2, &end, 10);
  p = end + 1;
  while (*p == ' ')
    p++;
  out->secs = g_ascii_strtoull (p, &end, 10);
  out->usecs = *end == '.' ? g_ascii_strtoull (end + 1, &end, 10) : 0;
  p = *end ? end + 1 : end;     /* past ':' */
  while (*p == ' ')
    p++;
  out->rest = p;
  return TRUE;
}

/* Runs @desc to EOS; FALSE with the error (message and debug) in
 * *errmsg otherwise. */
gboolean
test_run_pipeline (const gchar * desc, gchar ** errmsg)
{
  GstElement *pipeline;
  GError *err = NULL;
  GstBus *bus;
  GstMessage *msg;
  gboolean ok = FALSE;

  *errmsg = NULL;
  pipeline = gst_parse_launch (desc, &err);
  fail_unless (pipeline != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL) {
    *errmsg = g_strdup ("timeout (120 s)");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    *errmsg = g_strdup_printf ("%s (%s)", err->message, dbg ? dbg : "");
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

gint
test_compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar * const *) a, *(const gchar * const *) b);
}

static void
find_trace_dirs (const gchar * root, GPtrArray * out, guint depth)
{
  GDir *dir;
  const gchar *name;
  GPtrArray *subs;
  gchar *meta;
  guint i;

  if (depth > 12)
    return;
  meta = g_build_filename (root, "metadata", NULL);
  if (g_file_test (meta, G_FILE_TEST_IS_REGULAR))
    g_ptr_array_add (out, g_strdup (root));
  g_free (meta);
  dir = g_dir_open (root, 0, NULL);
  if (dir == NULL)
    return;
  subs = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir))) {
    gchar *p = g_build_filename (root, name, NULL);

    if (g_file_test (p, G_FILE_TEST_IS_DIR)
        && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
      g_ptr_array_add (subs, p);
    else
      g_free (p);
  }
  g_dir_close (dir);
  g_ptr_array_sort (subs, test_compare_strings);
  for (i = 0; i < subs->len; i++) {
    const gchar *s = g_ptr_array_index (subs, i);

    if (!g_str_has_suffix (s, "/oracle") && !g_str_has_suffix (s, "/index"))
      find_trace_dirs (s, out, depth + 1);
  }
  g_ptr_array_unref (subs);
}

void
test_find_trace_dirs (const gchar * root, GPtrArray * out)
{
  find_trace_dirs (root, out, 0);
}
