/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the ftrace event format parser on arbitrary text, and
 * what is built from a format: the CTF members of its fields, its LTTng
 * layout (lttng-compat) and that layout's payload class and values of a
 * record.  Input: one byte (bit 0: a 4-byte kernel long; bits 1-3: the
 * system, SYSTEMS below), then the format file text.  Seeds: real format
 * files (seeds/format, made by seeds/make-format-seeds.py).  Must never
 * crash, hang or allocate without bound; errors are fine.
 */
#include <stdint.h>
#include <stddef.h>

#include "gsttracecmd-private.h"

static const gchar *const SYSTEMS[8] = { "other", "sched", "block",
  "syscalls", "kmem", "net", "irq", "timer"
};

/* A record: the format's fields lie within 64 KiB; bytes from the input
 * so that dynamic array locations point anywhere. */
static guint8 record[4096];
/* what the field accessors read of a file: its byte order */
static GstCtfTraceDat td;

static void
exercise (GstCtfTraceDatEventFormat * fmt, guint long_size,
    gboolean with_common)
{
  GstCtfTraceClass *tc = gst_ctf_trace_class_new ();
  GstCtfFieldClass *plain = gst_ctf_field_class_new
      (GST_CTF_FIELD_CLASS_STRUCT);
  LttngLayout *l = _gst_ctf_trace_dat_lttng_layout_new (fmt, long_size,
      with_common);
  GstCtfFieldClass *st = _gst_ctf_trace_dat_lttng_payload (tc, l,
      GST_CTF_BYTE_ORDER_LE);
  GstCtfTraceDatRecord rec = { 0, };
  GstCtfFieldValue *v;
  guint n = 0, i, max = 64 + 2 * sizeof (record);
  guint8 text[16];

  for (i = 0; i < fmt->n_fields; i++)
    _gst_ctf_trace_dat_append_field (tc, plain, &fmt->fields[i], NULL,
        GST_CTF_BYTE_ORDER_LE);
  g_free (_gst_ctf_trace_dat_lttng_event_name (fmt));
  rec.data = record;
  rec.size = sizeof (record);
  for (i = 0; i < l->n; i++) {
    const LttngField *lf = &l->f[i];

    if (lf->kind == LK_TEXT && lf->bytes <= sizeof (text))
      _gst_ctf_trace_dat_lttng_text (&td, lf, record, sizeof (record),
          text);
    else if (lf->kind != LK_FIELD && lf->kind != LK_TEXT)
      (void) _gst_ctf_trace_dat_lttng_int (&td, lf, record,
          sizeof (record));
  }
  v = g_new0 (GstCtfFieldValue, max);
  (void) _gst_ctf_trace_dat_lttng_values (&td, l, st, &rec, v, max, &n);
  g_free (v);
  gst_ctf_field_class_free (st);
  gst_ctf_field_class_free (plain);
  _gst_ctf_trace_dat_lttng_layout_free (l);
  gst_ctf_trace_class_unref (tc);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstCtfTraceDatEventFormat *fmt;
  guint long_size;
  const gchar *system;
  gsize i;

  if (size < 1)
    return 0;
  long_size = (data[0] & 1) ? 4 : 8;
  td.byte_order = GST_CTF_BYTE_ORDER_LE;
  td.long_size = td.kernel_long_size = long_size;
  system = SYSTEMS[(data[0] >> 1) & 7];
  for (i = 0; i < sizeof (record); i++)
    record[i] = size > 1 ? data[1 + i % (size - 1)] : 0;
  fmt = gst_ctf_trace_dat_event_format_parse ((const gchar *) data + 1,
      size - 1, system, long_size, NULL);
  if (!fmt)
    return 0;
  exercise (fmt, long_size, FALSE);
  exercise (fmt, long_size, TRUE);
  gst_ctf_trace_dat_event_format_free (fmt);
  return 0;
}
