/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: one binary file as a process of the trace mapped it: its ELF
 * file, its DWARF (in the file or a separate debug file), and the function
 * names and source lines found at addresses (gstctf-bin-file.c).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _GstCtfBinFile GstCtfBinFile;

/* What is known of a binary when it is looked at: the same file seen
 * with another build id or debug link is another GstCtfBinFile. */
typedef struct
{
  const gchar *elf_path;        /* with the target prefix */
  const gchar *debug_info_dir;  /* never NULL */
  const guint8 *build_id;       /* nullable */
  gsize build_id_len;
  const gchar *debug_link;      /* nullable */
  guint32 debug_link_crc;
} GstCtfBinFileKey;

/* @warnings: where messages about unusable files are appended (one per
 * path: @warned remembers the paths). */
GstCtfBinFile *_gst_ctf_bin_file_new (const GstCtfBinFileKey * key,
    GHashTable * warned, GQueue * warnings);
void _gst_ctf_bin_file_free (GstCtfBinFile * f);

/* Whether the file's fields can be given at all: FALSE when the trace
 * gave a build id and the file does not have it. */
gboolean _gst_ctf_bin_file_usable (GstCtfBinFile * f);

/* The function (`NAME+0xOFF`) and source location (`PATH:LINE`, @src_path
 * the path alone) at @addr (relative to the file for PIC); each NULL
 * when unknown.  Found once per address, then kept: the strings belong
 * to @f. */
void _gst_ctf_bin_file_resolve (GstCtfBinFile * f, guint64 addr,
    const gchar ** func, const gchar ** src_path, gint64 * line);

/* The file name part of @path (babeltrace2: the whole path when it ends
 * with '/'). */
const gchar *_gst_ctf_path_basename (const gchar * path);

G_END_DECLS
