/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the CTF 2 JSON metadata front end (gstctf-json-*.c),
 * as a reader meets an untrusted `metadata` file: loading (plain or
 * packetized), fragments, field classes, field locations, roles; then
 * a decode plan compiled for every scope of what it accepted (the model
 * it builds must be one the decoder takes or refuses cleanly); then the
 * CTF 2 writer round trip: what the front end accepts is written back
 * (gst_ctf_json_write()), the text parses again, and writing that model
 * gives the same text (the writer keeps the model as it was).
 *
 *   CC=clang meson setup build-fuzz -Dfuzzing=true ...
 *   build-fuzz/tests/fuzz/fuzz-json tests/fuzz/seeds/json -max_len=65536
 */
#include <stddef.h>
#include <stdint.h>

#include "gstctf-metadata.h"
#include "gstctf-plan.h"
#include "gstctf-json-writer.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static void
compile (const GstCtfFieldClass * fc)
{
  GError *err = NULL;
  GstCtfPlan *plan;

  if (fc == NULL)
    return;
  plan = gst_ctf_plan_compile (fc, &err);
  if (plan != NULL)
    gst_ctf_plan_free (plan);
  else
    g_assert (err != NULL && err->domain == GST_CTF_ERROR);
  g_clear_error (&err);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GError *err = NULL;
  GstCtfTraceClass *tc;
  gchar *text;
  guint i, j;

  text = gst_ctf_metadata_from_bytes (data, size, "fuzz", &err);
  if (text == NULL) {
    g_assert (err != NULL && err->domain == GST_CTF_ERROR);
    g_error_free (err);
    return 0;
  }
  if (!gst_ctf_metadata_is_ctf2 (text)) {
    g_free (text);
    return 0;
  }
  tc = gst_ctf_metadata_parse (text, "fuzz", &err);
  g_free (text);
  if (tc == NULL) {
    g_assert (err != NULL && err->domain == GST_CTF_ERROR);
    g_error_free (err);
    return 0;
  }
  g_assert (err == NULL);
  compile (tc->packet_header);
  for (i = 0; i < tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    compile (sc->packet_context);
    compile (sc->event_header);
    compile (sc->event_common_context);
    for (j = 0; j < sc->event_classes->len; j++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      compile (ec->context);
      compile (ec->payload);
    }
  }
  {
    gchar *w1 = gst_ctf_json_write (tc, &err), *w2;
    GstCtfTraceClass *tc2;

    if (w1 == NULL) {
      g_assert (err != NULL && err->domain == GST_CTF_ERROR);
      g_clear_error (&err);
    } else {
      tc2 = gst_ctf_metadata_parse (w1, "written", &err);
      if (tc2 == NULL)
        g_error ("written CTF 2 does not parse: %s\n%s", err->message, w1);
      w2 = gst_ctf_json_write (tc2, &err);
      g_assert (w2 != NULL);
      if (strcmp (w1, w2) != 0)
        g_error ("CTF 2 written twice differs:\n%s\n---\n%s", w1, w2);
      g_free (w2);
      gst_ctf_trace_class_unref (tc2);
      g_free (w1);
    }
  }
  gst_ctf_trace_class_unref (tc);
  return 0;
}
