/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: metadata loading (plain, packetized) then TSDL
 * parsing and resolution, as a reader does with an untrusted `metadata`
 * file (CTF 2 metadata has its own target, fuzz-json).  The shared parse
 * must give what the whole parse gives, and the merge of the class (alone
 * and with the previous input's) what parsing the merged text gives.
 *
 *   meson setup build-fuzz -Dfuzzing=true (CC=clang)
 *   build-fuzz/tests/fuzz/fuzz-tsdl CORPUS_DIR -max_len=65536
 */
#include <stddef.h>
#include <stdint.h>

#include "gstctf-metadata.h"
#include "gstctf-tsdl-writer.h"
#include "gstctf-trace-merge.h"
#include "../trace-class-diff.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

/* The shared parse's class of the previous input, kept alive: an input
 * that differs from it only in its env values and trace uuid (a mutation
 * there) is read by the small parse of those two, and must give what the
 * whole parse gives. */
static GstCtfTraceClass *previous;

static gchar *
write_or_null (GstCtfTraceClass * tc)
{
  return tc ? gst_ctf_tsdl_write (tc, NULL) : NULL;
}

/* The merged class of @n classes (built directly when they were read from
 * TSDL) must be what parsing its own text gives. */
static void
check_merge (GstCtfTraceClass * const *tcs, guint n)
{
  GstCtfTraceMerge *m = gst_ctf_trace_merge_new (tcs, NULL, n, NULL);
  GstCtfTraceClass *parsed;
  gchar *diff;

  if (m == NULL)
    return;
  parsed = gst_ctf_metadata_parse (gst_ctf_trace_merge_get_metadata (m),
      "merged", NULL);
  g_assert (parsed != NULL);
  diff = trace_class_diff (gst_ctf_trace_merge_get_trace_class (m), parsed);
  if (diff)
    g_error ("merged class != its parsed text: %s", diff);
  gst_ctf_trace_class_unref (parsed);
  gst_ctf_trace_merge_free (m);
}

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
  } else {
    g_assert (err != NULL && err->domain == GST_CTF_ERROR);
    g_clear_error (&err);
  }
  {
    GstCtfTraceClass *shared = gst_ctf_metadata_parse_shared (text, "fuzz",
        NULL);
    gchar *a = write_or_null (tc), *b = write_or_null (shared);

    g_assert ((tc == NULL) == (shared == NULL));
    g_assert (g_strcmp0 (a, b) == 0);
    g_free (a);
    g_free (b);
    if (shared != NULL) {
      GstCtfTraceClass *pair[2] = { shared, previous ? previous : shared };

      check_merge (pair, 1);
      check_merge (pair, 2);
      if (previous != NULL)
        gst_ctf_trace_class_unref (previous);
      previous = shared;
    }
  }
  if (tc != NULL)
    gst_ctf_trace_class_unref (tc);
  g_free (text);
  return 0;
}
