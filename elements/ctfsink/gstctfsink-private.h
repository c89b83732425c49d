/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfsink internals shared by gstctfsink.c (the element: properties,
 * start and stop, writing packets), gstctfsink-finish.c (the metadata
 * file, ending a run as a complete or a truncated trace) and
 * gstctfsink-dir.c (what an output directory already holds: which entries
 * belong to a CTF trace or to an earlier ctfsink run, and removing
 * exactly those).
 */
#pragma once

#include "gstctfsink.h"

#include <stdio.h>

#include "gstctf-model.h"
#include "gstctf-output-version.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_ctf_sink_debug);

typedef struct
{
  gchar *name;                  /* final base name */
  gchar *part_path;             /* full path of the temporary file */
  gchar *final_path;
  FILE *fp;
  gchar *fp_buf;                /* stdio buffer of fp, or NULL */
  guint64 bytes;                 /* of complete packets */
  guint64 packets;
  gboolean failed;              /* a write or close failed */
} OutFile;

struct _GstCtfSink
{
  GstBaseSink parent;

  gchar *location;
  gboolean overwrite;
  GstCtfOutputVersion ctf_version;
  gboolean lossy;

  /* Streaming state. */
  GHashTable *files;            /* name -> OutFile */
  GPtrArray *order;             /* OutFile, creation order */
  /* The file of the packet meta's stream name last seen at each slot, by
   * the name's address (checked by content: an address can be reused). */
  const gchar *meta_name[8];
  OutFile *meta_file[8];
  gchar *caps_metadata;         /* the metadata text of the caps */
  gchar *metadata;              /* what is written: it, converted to
                                 * ctf_version */
  GstCtfTraceClass *tc;         /* parsed lazily, for packets w/o meta */
  gboolean tc_failed;
  gboolean warned_trace_compass;        /* CTF 2, several stream classes */
  gboolean finished;
  /* upstream answered the LATENCY query live (asked at each caps): the
   * packets go to the files at once, not through WRITE_BUFFER_SIZE */
  gboolean live;
  /* why the trace will be truncated (ctfsink's own error, or the
   * application/x-ctf-truncated event), or NULL */
  gchar *truncated_reason;

  /* Statistics (object lock). */
  guint64 packets;
  guint64 bytes;
  guint64 discarded_events;
  guint n_files;
};

OutFile *gst_ctf_sink_out_file_new (GstCtfSink * self, const gchar * name);
void gst_ctf_sink_out_file_free (OutFile * f);

/* The trace class of the current metadata, parsed on first use.  Posts an
 * error when it does not parse and @post. */
gboolean gst_ctf_sink_ensure_trace_class (GstCtfSink * self, gboolean post);

/* Writes the metadata text to `.metadata.part`, with the truncation `env`
 * block when @truncated (the reason) is not NULL. */
gboolean gst_ctf_sink_write_metadata (GstCtfSink * self,
    const gchar * truncated);

/* Ends the run: a complete trace when @reason is NULL, else a truncated
 * one, or nothing when no packet was written.  Once per run. */
gboolean gst_ctf_sink_finish (GstCtfSink * self, const gchar * reason);

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
