/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pages of the packets the index and the deep-zoom worker read, given
 * back (gstctfgtk-page-release.h).
 * The trace's file mappings are found in /proc/self/maps when the
 * releaser is made (the packet source maps every stream file when it is
 * opened): read-only private mappings of files under the trace's path.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include "gstctfgtk-page-release.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#define CAN_RELEASE 1
#endif

/* bytes of packets kept mapped behind the newest one: the event merger
 * may still read the last packets of the other streams (a page released
 * too early is only read again) */
#define RELEASE_LAG (8 << 20)

typedef struct {
  guintptr start, end;
} Range;

typedef struct {
  guintptr start, end;
} Pending;

struct _GstCtfGtkPageRelease {
  GArray *ranges;               /* Range, by start */
  GQueue pending;               /* Pending, oldest first */
  gsize pending_bytes;
  gsize page;
  guint64 released;             /* bytes given back */
};

#ifdef CAN_RELEASE
static gint
cmp_range (gconstpointer a, gconstpointer b)
{
  guintptr x = ((const Range *) a)->start, y = ((const Range *) b)->start;

  return x < y ? -1 : x > y;
}

/* The read-only private mappings of files under @prefix (a directory
 * with its trailing '/', or a file). */
static void
find_ranges (GstCtfGtkPageRelease * r, const gchar * prefix)
{
  gchar *text = NULL, **lines, **l;

  if (!g_file_get_contents ("/proc/self/maps", &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (l = lines; *l != NULL; l++) {
    /* start-end perms offset dev inode   path */
    gchar **f = g_strsplit_set (*l, " ", 6);

    if (g_strv_length (f) == 6) {
      const gchar *path = g_strchug (f[5]);
      gchar *dash = strchr (f[0], '-');

      if (dash != NULL && f[1][0] == 'r' && f[1][1] == '-' &&
          f[1][3] == 'p' && g_str_has_prefix (path, prefix)) {
        Range rg;

        rg.start = (guintptr) g_ascii_strtoull (f[0], NULL, 16);
        rg.end = (guintptr) g_ascii_strtoull (dash + 1, NULL, 16);
        g_array_append_val (r->ranges, rg);
      }
    }
    g_strfreev (f);
  }
  g_strfreev (lines);
  g_free (text);
  g_array_sort (r->ranges, cmp_range);
}

static gboolean
in_ranges (GstCtfGtkPageRelease * r, guintptr b, guintptr e)
{
  guint lo = 0, hi = r->ranges->len;

  while (lo < hi) {             /* the last range starting at or before b */
    guint mid = (lo + hi) / 2;

    if (g_array_index (r->ranges, Range, mid).start <= b)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 && e <= g_array_index (r->ranges, Range, lo - 1).end;
}
#endif

/*
 * _gst_ctf_gtk_page_release_new:
 * @trace_path: the path the model opened (a trace directory, a directory
 *   above several, a `metadata` file, a trace.dat)
 *
 * To be made once the index's packet source is open.
 *
 * Returns: (transfer full): the releaser
 */
GstCtfGtkPageRelease *
_gst_ctf_gtk_page_release_new (const gchar * trace_path)
{
  GstCtfGtkPageRelease *r = g_new0 (GstCtfGtkPageRelease, 1);

  r->ranges = g_array_new (FALSE, FALSE, sizeof (Range));
  g_queue_init (&r->pending);
#ifdef CAN_RELEASE
  {
    /* (/proc/self/maps names the files by their real path) */
    char *real = realpath (trace_path, NULL);

    r->page = (gsize) sysconf (_SC_PAGESIZE);
    if (real != NULL) {
      /* a file (`metadata`, a trace.dat): its directory */
      gchar *dir = g_file_test (real, G_FILE_TEST_IS_DIR) ? g_strdup (real) :
          g_path_get_dirname (real);
      gchar *prefix = g_strconcat (dir, G_DIR_SEPARATOR_S, NULL);

      find_ranges (r, prefix);
      g_free (dir);
      g_free (prefix);
      free (real);
    }
  }
#endif
  return r;
}

#ifdef CAN_RELEASE
/* Gives back the oldest noted packets' pages until at most @lag bytes
 * stay noted. */
static void
release_beyond (GstCtfGtkPageRelease * r, gsize lag)
{
  while (r->pending_bytes > lag) {
    Pending *p = g_queue_pop_head (&r->pending);

    (void) madvise ((void *) p->start, p->end - p->start, MADV_DONTNEED);
    r->pending_bytes -= p->end - p->start;
    r->released += p->end - p->start;
    g_free (p);
  }
}
#endif

/*
 * _gst_ctf_gtk_page_release_add:
 * @r: a releaser
 * @data: a packet the index just gave the event merger
 * @size: its size in bytes
 *
 * Notes the packet; gives back the whole pages of the packets that are
 * now RELEASE_LAG bytes behind.  Packets outside the trace's file
 * mappings are ignored.
 */
void
_gst_ctf_gtk_page_release_add (GstCtfGtkPageRelease * r, gconstpointer data,
    gsize size)
{
#ifdef CAN_RELEASE
  guintptr b = (guintptr) data, e = b + size;
  Pending *p;

  if (r == NULL || size == 0 || !in_ranges (r, b, e))
    return;
  /* whole pages only: the ends may share a page with a neighbour */
  b = (b + r->page - 1) & ~(guintptr) (r->page - 1);
  e &= ~(guintptr) (r->page - 1);
  if (e <= b)
    return;
  p = g_new (Pending, 1);
  p->start = b;
  p->end = e;
  g_queue_push_tail (&r->pending, p);
  r->pending_bytes += e - b;
  release_beyond (r, RELEASE_LAG);
#endif
}

/*
 * _gst_ctf_gtk_page_release_flush:
 * @r: (nullable): a releaser
 *
 * Gives back the pages of every packet noted so far: the reader is done
 * with them (the deep-zoom worker at the end of a range).
 */
void
_gst_ctf_gtk_page_release_flush (GstCtfGtkPageRelease * r)
{
#ifdef CAN_RELEASE
  if (r != NULL)
    release_beyond (r, 0);
#endif
}

/* Bytes given back so far (for tests). */
guint64
_gst_ctf_gtk_page_release_get_released (GstCtfGtkPageRelease * r)
{
  return r != NULL ? r->released : 0;
}

void
_gst_ctf_gtk_page_release_free (GstCtfGtkPageRelease * r)
{
  if (r == NULL)
    return;
  g_queue_clear_full (&r->pending, g_free);
  g_array_unref (r->ranges);
  g_free (r);
}
