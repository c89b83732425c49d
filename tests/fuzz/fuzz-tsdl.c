/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: metadata loading (plain, packetized) then TSDL
 * parsing and resolution, as a reader does with an untrusted `metadata`
 * file (CTF 2 metadata has its own target, fuzz-json).
 *
 *   meson setup build-fuzz -Dfuzzing=true (CC=clang)
 *   build-fuzz/tests/fuzz/fuzz-tsdl CORPUS_DIR -max_len=65536
 */
#include <stddef.h>
#include <stdint.h>

#include "gstctf-metadata.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GError *err = NULL;
  gchar *text;
  GstCtfTraceClass *tc;

  text = gst_ctf_metadata_from_bytes (data, size, "fuzz", &err);
  if (text == NULL) {
    g_assert (err != NULL && err->domain == GST_CTF_ERROR);
    g_error_free (err);
    return 0;
  }
  tc = gst_ctf_tsdl_parse (text, "fuzz", &err);
  if (tc != NULL) {
    g_assert (err == NULL);
    gst_ctf_trace_class_unref (tc);
  } else {
    g_assert (err != NULL && err->domain == GST_CTF_ERROR);
    g_error_free (err);
  }
  g_free (text);
  return 0;
}
