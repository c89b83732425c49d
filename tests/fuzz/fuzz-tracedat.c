/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the trace.dat reader on arbitrary bytes.  Opens the
 * input as a trace.dat, builds the CTF trace class, walks every buffer's
 * CPUs page by page and record by record (decoding every field), then the
 * merged iteration.  Must never crash, hang or allocate without bound;
 * errors are fine.
 */
#include <stdint.h>
#include <stddef.h>

#include "gsttracecmd.h"

static void
walk_fields (GstCtfTraceDat * td, const GstCtfTraceDatRecord * rec)
{
  const GstCtfTraceDatEventFormat *fmt =
      gst_ctf_trace_dat_get_event_format (td, rec->event_id);
  guint i;

  if (!fmt)
    return;
  for (i = 0; i < fmt->n_fields; i++) {
    const GstCtfTraceDatField *f = &fmt->fields[i];
    guint64 v;
    guint off, len;

    if (f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY) {
      if (gst_ctf_trace_dat_field_get_dynamic (td, f, rec->data, rec->size,
              &off, &len) && len > 0) {
        volatile guint8 first = rec->data[off];
        volatile guint8 last = rec->data[off + len - 1];
        (void) first;
        (void) last;
      }
    } else {
      gst_ctf_trace_dat_field_read_int (td, f, rec->data, rec->size, &v);
    }
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GBytes *bytes = g_bytes_new_static (data, size);
  GstCtfTraceDat *td = gst_ctf_trace_dat_open_bytes (bytes, "fuzz.dat", NULL);
  guint b, c;

  g_bytes_unref (bytes);
  if (!td)
    return 0;
  for (b = 0; b < gst_ctf_trace_dat_get_n_buffers (td); b++) {
    const GstCtfTraceDatBuffer *buf = gst_ctf_trace_dat_get_buffer (td, b);
    GstCtfTraceClass *tc = gst_ctf_trace_dat_build_trace_class (td, b, NULL);
    GstCtfTraceDatMergeIter *m;
    GstCtfTraceDatRecord rec;
    guint n = 0;

    for (c = 0; c < buf->n_cpus; c++) {
      GstCtfTraceDatCpuIter *it =
          gst_ctf_trace_dat_cpu_iter_new (td, b, c, NULL);

      while (it && gst_ctf_trace_dat_cpu_iter_next (it, &rec, NULL) > 0
          && n++ < 1000000) {
        walk_fields (td, &rec);
        if (tc) {
          GstCtfFieldValue common[64], payload[512];
          guint nc, np;

          gst_ctf_trace_dat_record_get_values (td, tc, &rec, common, 64, &nc,
              payload, 512, &np, NULL);
        }
      }
      gst_ctf_trace_dat_cpu_iter_free (it);
    }
    if (tc)
      gst_ctf_trace_class_unref (tc);
    m = gst_ctf_trace_dat_merge_iter_new (td, b, NULL);
    while (m && gst_ctf_trace_dat_merge_iter_next (m, &rec, NULL) > 0
        && n++ < 2000000)
      ;
    gst_ctf_trace_dat_merge_iter_free (m);
  }
  gst_ctf_trace_dat_unref (td);
  return 0;
}
