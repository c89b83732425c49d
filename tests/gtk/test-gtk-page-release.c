/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The index's page releaser (lib/gtk/source/gstctfgtk-page-release.c): pages of
 * a file mapped read-only under the trace's path are given back once
 * RELEASE_LAG (8 MiB) of later packets were added, and read back the
 * same; memory outside the trace's mappings (a heap copy, a mapping of
 * another directory) is never touched.  Linux only (elsewhere: skipped).
 */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "gstctfgtk-page-release.h"

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>

#define MIB (1 << 20)
#define FILE_MIB 24

/* Resident bytes of the mapping that starts at @data, for this process
 * (its "Rss:" in /proc/self/smaps; mincore() would tell the page
 * cache's). */
static gsize
resident (const guint8 * data)
{
  gchar *text = NULL, *head = g_strdup_printf ("\n%lx-",
      (unsigned long) (guintptr) data), *at, *rss;
  gsize kib;

  g_assert_true (g_file_get_contents ("/proc/self/smaps", &text, NULL,
          NULL));
  at = strstr (text, head);
  g_assert_nonnull (at);
  rss = strstr (at, "\nRss:");
  g_assert_nonnull (rss);
  kib = (gsize) g_ascii_strtoull (rss + 5, NULL, 10);
  g_free (head);
  g_free (text);
  return kib * 1024;
}

static gchar *
make_file (const gchar * dir, guint8 ** expect)
{
  gchar *path = g_build_filename (dir, "stream_0", NULL);
  guint8 *buf = g_malloc (FILE_MIB * MIB);
  gsize i;

  for (i = 0; i < FILE_MIB * MIB; i++)
    buf[i] = (guint8) (i * 7 + i / 4093);
  g_assert_true (g_file_set_contents (path, (gchar *) buf, FILE_MIB * MIB,
          NULL));
  *expect = buf;
  return path;
}

static void
test_release (void)
{
  gchar *dir = g_dir_make_tmp ("gst-ctf-release-XXXXXX", NULL);
  guint8 *expect;
  gchar *path = make_file (dir, &expect);
  GMappedFile *mf = g_mapped_file_new (path, FALSE, NULL);
  const guint8 *data = (const guint8 *) g_mapped_file_get_contents (mf);
  GstCtfGtkPageRelease *r;
  guint i;

  g_assert_nonnull (mf);
  g_assert_cmpint (memcmp (data, expect, FILE_MIB * MIB), ==, 0);
  g_assert_cmpuint (resident (data), ==, FILE_MIB * MIB);
  r = _gst_ctf_gtk_page_release_new (dir);
  /* 1 MiB "packets", the first one shifted off the page boundary */
  _gst_ctf_gtk_page_release_add (r, data + 100, MIB - 100);
  for (i = 1; i < FILE_MIB; i++)
    _gst_ctf_gtk_page_release_add (r, data + (gsize) i * MIB, MIB);
  /* all but the last 8 MiB (and the first packet's partial page) */
  g_assert_cmpuint (_gst_ctf_gtk_page_release_get_released (r), ==,
      (FILE_MIB - 8) * MIB - sysconf (_SC_PAGESIZE));
  /* the last 8 MiB and the first packet's shared page (a file's huge
   * page mapped whole is unmapped whole, that page with it) */
  g_assert_cmpuint (resident (data), >=, 8 * MIB);
  g_assert_cmpuint (resident (data), <=, 8 * MIB + sysconf (_SC_PAGESIZE));
  /* given back, not lost */
  g_assert_cmpint (memcmp (data, expect, FILE_MIB * MIB), ==, 0);
  /* flush (the deep-zoom worker at the end of a range): the last 8 MiB
   * too (the memcmp above read the others in again), read back equal */
  g_assert_cmpuint (resident (data), ==, FILE_MIB * MIB);
  _gst_ctf_gtk_page_release_flush (r);
  g_assert_cmpuint (_gst_ctf_gtk_page_release_get_released (r), ==,
      FILE_MIB * MIB - sysconf (_SC_PAGESIZE));
  g_assert_cmpuint (resident (data), <=, (FILE_MIB - 8) * MIB +
      sysconf (_SC_PAGESIZE));
  g_assert_cmpint (memcmp (data, expect, FILE_MIB * MIB), ==, 0);
  _gst_ctf_gtk_page_release_free (r);

  /* memory that is not the trace's file mapping: left alone */
  {
    gchar *other = g_dir_make_tmp ("gst-ctf-release-XXXXXX", NULL);
    guint8 *heap = g_memdup2 (expect, FILE_MIB * MIB);

    r = _gst_ctf_gtk_page_release_new (other);
    for (i = 0; i < FILE_MIB; i++) {
      _gst_ctf_gtk_page_release_add (r, heap + (gsize) i * MIB, MIB);
      _gst_ctf_gtk_page_release_add (r, data + (gsize) i * MIB, MIB);
    }
    g_assert_cmpuint (_gst_ctf_gtk_page_release_get_released (r), ==, 0);
    g_assert_cmpint (memcmp (heap, expect, FILE_MIB * MIB), ==, 0);
    g_assert_cmpuint (resident (data), ==, FILE_MIB * MIB);
    _gst_ctf_gtk_page_release_free (r);
    g_free (heap);
    g_rmdir (other);
    g_free (other);
  }

  g_mapped_file_unref (mf);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
  g_free (expect);
}
#endif

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#ifdef __linux__
  g_test_add_func ("/gtk/page-release/release", test_release);
#else
  g_test_add_func ("/gtk/page-release/release", g_test_skip);
#endif
  return g_test_run ();
}
