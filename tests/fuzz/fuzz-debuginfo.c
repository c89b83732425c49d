/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the ELF/DWARF side of ctfdebuginfo (lib/debuginfo):
 * the input is a binary file a trace names, looked up at addresses spread
 * over it (DWARF functions and lines, else ELF symbols; build id notes
 * when the trace gives one), with the file also found as its own
 * separate debug file by debug link (CRC-32 of the input) for a binary
 * that is not there.
 *
 *   meson setup build-fuzz -Dfuzzing=true (CC=clang)
 *   build-fuzz/tests/fuzz/fuzz-debuginfo tests/fuzz/seeds/debuginfo
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "gstctf-debug-info.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static gchar *dir, *bin, *missing;

static void
lookups (GstCtfDebugInfo * di, size_t size)
{
  const gchar *b, *f, *s;
  gchar *w;
  guint64 a;

  for (a = 0; a < 0x4000; a += 0x7f1)
    gst_ctf_debug_info_lookup (di, 1, 0x10000 + a, &b, &f, &s);
  gst_ctf_debug_info_lookup (di, 1, 0x10000 + size, &b, &f, &s);
  while ((w = gst_ctf_debug_info_pop_warning (di)) != NULL)
    g_free (w);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstCtfDebugInfo *di;
  guint32 crc = (guint32) crc32 (crc32 (0L, Z_NULL, 0), data, (uInt) size);

  if (dir == NULL) {
    dir = g_dir_make_tmp ("fuzz-debuginfo-XXXXXX", NULL);
    bin = g_build_filename (dir, "bin", NULL);
    missing = g_build_filename (dir, "missing", NULL);
  }
  if (!g_file_set_contents_full (bin, (const gchar *) data, size,
          G_FILE_SET_CONTENTS_NONE, 0644, NULL))
    return 0;

  /* one way of finding the file per input (the size picks it) */
  switch (size % 3) {
    case 0:                    /* the binary, PIC */
      di = gst_ctf_debug_info_new (dir, NULL, FALSE);
      gst_ctf_debug_info_add_binary (di, 1, 0x10000, 0x100000, bin, TRUE);
      break;
    case 1:                    /* not PIC, with a build id to check */
      di = gst_ctf_debug_info_new (dir, NULL, TRUE);
      gst_ctf_debug_info_add_binary (di, 1, 0x10000, 0x100000, bin, FALSE);
      if (size >= 20)
        gst_ctf_debug_info_set_build_id (di, 1, 0x10000, data + size - 20,
            20);
      break;
    default:                   /* the debug link of a missing binary */
      di = gst_ctf_debug_info_new (dir, NULL, FALSE);
      gst_ctf_debug_info_add_binary (di, 1, 0x10000, 0x100000, missing,
          TRUE);
      gst_ctf_debug_info_set_debug_link (di, 1, 0x10000, "bin", crc);
      break;
  }
  lookups (di, size);
  gst_ctf_debug_info_free (di);
  return 0;
}
