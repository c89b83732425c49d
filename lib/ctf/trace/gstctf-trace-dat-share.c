/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The trace.dat files the packet sources of this process have open, one
 * parse each: a second GstCtfPacketSource on the same file (the GTK
 * model's index, deep zoom, filter and search readers beside its table's
 * reader; two tracecmdsrc on one file) shares the first one's
 * GstCtfTraceDat, which nothing changes once it is read (its header,
 * event formats and saved cmdlines are megabytes; kallsyms alone is
 * 5 MB on a desktop kernel).  An entry lives while a source uses it; a
 * file replaced under the same path (another inode, size or mtime) is
 * read again.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <glib/gstdio.h>
#include "gstctf-trace-dat-share.h"

typedef struct {
  gchar *path;
  GStatBuf st;
  GstCtfTraceDat *td;
  guint users;
} Entry;

static GMutex lock;
static GPtrArray *entries;      /* Entry (a handful at most) */

static gboolean
same_file (const GStatBuf * a, const GStatBuf * b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
      a->st_size == b->st_size && a->st_mtime == b->st_mtime;
}

GstCtfTraceDat *
_gst_ctf_trace_dat_share_open (const gchar * path, GError ** error)
{
  GstCtfTraceDat *td = NULL;
  GStatBuf st;
  Entry *e;
  guint i;

  if (g_stat (path, &st) != 0)
    return gst_ctf_trace_dat_open (path, error);   /* its own error */
  g_mutex_lock (&lock);
  for (i = 0; entries != NULL && i < entries->len; i++) {
    e = g_ptr_array_index (entries, i);
    if (strcmp (e->path, path) == 0 && same_file (&e->st, &st)) {
      e->users++;
      td = gst_ctf_trace_dat_ref (e->td);
      break;
    }
  }
  g_mutex_unlock (&lock);
  if (td != NULL)
    return td;

  /* read outside the lock (seconds on a slow disk); two first opens of
   * one file at once make two entries, both correct */
  td = gst_ctf_trace_dat_open (path, error);
  if (td == NULL)
    return NULL;
  e = g_new0 (Entry, 1);
  e->path = g_strdup (path);
  e->st = st;
  e->td = gst_ctf_trace_dat_ref (td);
  e->users = 1;
  g_mutex_lock (&lock);
  if (entries == NULL)
    entries = g_ptr_array_new ();
  g_ptr_array_add (entries, e);
  g_mutex_unlock (&lock);
  return td;
}

void
_gst_ctf_trace_dat_share_close (GstCtfTraceDat * td)
{
  Entry *gone = NULL;
  guint i;

  if (td == NULL)
    return;
  g_mutex_lock (&lock);
  for (i = 0; entries != NULL && i < entries->len; i++) {
    Entry *e = g_ptr_array_index (entries, i);

    if (e->td == td) {
      if (--e->users == 0)
        gone = g_ptr_array_steal_index_fast (entries, i);
      break;
    }
  }
  g_mutex_unlock (&lock);
  if (gone != NULL) {
    gst_ctf_trace_dat_unref (gone->td);
    g_free (gone->path);
    g_free (gone);
  }
  gst_ctf_trace_dat_unref (td);
}
