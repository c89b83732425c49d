/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Start-up: GStreamer's registry (a scan of every plugin directory, or
 * reading the cached registry.bin of all installed plugins) is most of the
 * cost of starting gst-launch-1.0 on a small trace.  gst-ctf needs only
 * its own plugin: it finds libgstctf.so (in GST_PLUGIN_PATH_1_0 /
 * GST_PLUGIN_PATH, then the directory it was installed to), disables the
 * registry (GST_REGISTRY_DISABLE) and loads that one file.  Without the
 * file, the usual registry is used.
 */
#include <string.h>
#include <gst/gst.h>
#include "gst-ctf-plugin.h"
#include "gst-ctf-error.h"

#define PLUGIN_FILE "libgstctf.so"

static gchar *
find_in_path (const gchar * path)
{
  gchar **dirs, **d;
  gchar *found = NULL;

  if (path == NULL)
    return NULL;
  dirs = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);
  for (d = dirs; *d != NULL && found == NULL; d++) {
    gchar *f;

    if (**d == '\0')
      continue;
    f = g_build_filename (*d, PLUGIN_FILE, NULL);
    if (g_file_test (f, G_FILE_TEST_IS_REGULAR))
      found = f;
    else
      g_free (f);
  }
  g_strfreev (dirs);
  return found;
}

static gchar *
find_plugin (void)
{
  gchar *f = find_in_path (g_getenv ("GST_PLUGIN_PATH_1_0"));

  if (f == NULL)
    f = find_in_path (g_getenv ("GST_PLUGIN_PATH"));
  if (f == NULL)
    f = find_in_path (GST_CTF_PLUGIN_DIR);
  return f;
}

gboolean
gst_ctf_cli_init (GError ** error)
{
  gchar *file = find_plugin ();
  GstPlugin *plugin;
  GError *err = NULL;
  gboolean had_disable = g_getenv ("GST_REGISTRY_DISABLE") != NULL;

  if (file != NULL && !had_disable)
    g_setenv ("GST_REGISTRY_DISABLE", "yes", TRUE);
  gst_init (NULL, NULL);
  if (!had_disable)
    /* not for the processes the pipeline may start */
    g_unsetenv ("GST_REGISTRY_DISABLE");
  if (file == NULL)
    return TRUE;
  plugin = gst_plugin_load_file (file, &err);
  if (plugin == NULL) {
    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "Cannot load the gst-ctf plugin: file=\"%s\": %s", file,
        err->message);
    g_error_free (err);
    g_free (file);
    return FALSE;
  }
  gst_object_unref (plugin);
  g_free (file);
  return TRUE;
}
