/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfsink internals shared by gstctfsink.c (the element, writing and
 * finishing the trace) and gstctfsink-dir.c (what an output directory
 * already holds: which entries belong to a CTF trace or to an earlier
 * ctfsink run, and removing exactly those).
 */
#pragma once

#include "gstctfsink.h"

G_BEGIN_DECLS

/* The temporary name of a file being written: `.NAME.part`. */
#define GST_CTF_SINK_PART_PREFIX "."
#define GST_CTF_SINK_PART_SUFFIX ".part"

/* What an output directory holds, for the start of a run. */
typedef struct
{
  /* entries (base names), sorted; NULL when the directory is empty */
  GPtrArray *names;
  /* the `.NAME.part` files among them */
  guint n_part;
  /* full paths of the files to delete for overwrite=true, in deletion
   * order (`metadata` first), when every entry belongs to a CTF trace or
   * is a leftover of ctfsink; and the `index` directory to remove after
   * them (NULL when there is none) */
  GPtrArray *removable;
  gchar *index_dir;
  /* else: the first entry that does not, and why */
  gchar *foreign;
  gchar *foreign_why;
} GstCtfSinkDirScan;

/* Reads @dir (which exists).  FALSE with @error when it cannot be read. */
gboolean gst_ctf_sink_dir_scan (const gchar * dir, GstCtfSinkDirScan * scan,
    GError ** error);

void gst_ctf_sink_dir_scan_clear (GstCtfSinkDirScan * scan);

/* "\"a\", \".b.part\" and 3 more": the first entries, for messages. */
gchar *gst_ctf_sink_dir_scan_describe (const GstCtfSinkDirScan * scan);

/* Deletes scan->removable, then scan->index_dir.  Stops at the first
 * failure. */
gboolean gst_ctf_sink_dir_remove (const GstCtfSinkDirScan * scan,
    GError ** error);

G_END_DECLS
