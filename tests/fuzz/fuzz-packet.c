/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the packet reader over an untrusted stream file.
 * The input's first byte picks the trace class: 0 and 1 (low bit) one of
 * two fixed ones (an LTTng-like one, and a big-endian one without packet
 * sizes that uses bit fields, variants and nested sequences); 2 (first
 * byte & 3 == 2) a TSDL text carried by the input itself (16-bit little
 * endian length, then the text), so layouts the fixed ones lack get
 * exercised too.  The rest is read as the stream file: packet info, then
 * every event with recording on and off, packet after packet, as ctfsrc
 * and ctftextsink do.  Every event is also printed as text, once directly
 * (gst_ctf_text_formatter_format_event()) and once as the parallel
 * ctftextsink does, on another formatter: the line without its delta
 * (gst_ctf_text_formatter_format_event_line()), the delta put in after
 * (gst_ctf_text_formatter_append_delta()): the two texts must be equal.
 *
 *   meson setup build-fuzz -Dfuzzing=true (CC=clang)
 *   build-fuzz/tests/fuzz/fuzz-packet CORPUS_DIR -max_len=65536
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz-trace-class.h"
#include "gstctf-reader.h"
#include "gstctf-text-formatter.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static guint64 sink;

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstCtfTraceClass *tc;
  GstCtfEventIter *it;
  GError *err = NULL;
  gsize off = 0;
  guint packets = 0;

  GstCtfEventIter *fast;
  GstCtfTextFormatter *fmt_seq, *fmt_line;
  GstCtfTextDelta delta = { 0 };
  GString *text_seq, *text_line, *line;

  tc = fuzz_trace_class (&data, &size);
  if (tc == NULL)
    return 0;

  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);
  fmt_seq = gst_ctf_text_formatter_new (tc, NULL);
  fmt_line = gst_ctf_text_formatter_new (tc, NULL);
  text_seq = g_string_new (NULL);
  text_line = g_string_new (NULL);
  line = g_string_new (NULL);
  /* the same walk without recording (skipping plans) must agree */
  fast = gst_ctf_event_iter_new (tc);
  while (off < size && packets < 64) {
    GstCtfPacketInfo info;
    const GstCtfPacketInfo *pi;
    gboolean ok;

    ok = gst_ctf_packet_read_info (tc, data + off, size - off, &info, &err);
    if (!ok) {
      g_assert (err != NULL && err->domain == GST_CTF_ERROR);
      g_clear_error (&err);
      break;
    }
    g_assert (info.packet_size > 0 && info.packet_size % 8 == 0);
    g_assert (info.packet_size / 8 <= size - off);
    g_assert (info.content_size <= info.packet_size);
    if (!gst_ctf_event_iter_set_packet (it, data + off, size - off, &err))
      g_error ("read_info succeeded but set_packet failed: %s", err->message);
    pi = gst_ctf_event_iter_get_packet_info (it);
    g_assert (pi->packet_size == info.packet_size);
    if (!gst_ctf_event_iter_set_packet (fast, data + off, size - off, NULL))
      g_error ("set_packet differs with recording off");

    while (gst_ctf_event_iter_next (it, &err)) {
      guint s;
      guint64 b, e, fb, fe;

      b = gst_ctf_event_iter_get_event_offset (it, &e);
      g_assert (b < e && e <= pi->content_size);
      if (!gst_ctf_event_iter_next (fast, NULL))
        g_error ("event at %" G_GUINT64_FORMAT " bits fails without "
            "recording", b);
      fb = gst_ctf_event_iter_get_event_offset (fast, &fe);
      g_assert (fb == b && fe == e);
      g_assert (gst_ctf_event_iter_get_clock_value (fast) ==
          gst_ctf_event_iter_get_clock_value (it));
      for (s = 0; s < GST_CTF_N_SCOPES; s++) {
        guint n, i;
        const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (it, s, &n);

        for (i = 0; i < n; i++) {
          g_assert (v[i].end > i && v[i].end <= n);
          if (v[i].fc->type == GST_CTF_FIELD_CLASS_STRING ||
              ((v[i].fc->type == GST_CTF_FIELD_CLASS_ARRAY ||
                      v[i].fc->type == GST_CTF_FIELD_CLASS_SEQUENCE) &&
                  v[i].end == i + 1 && v[i].v.s.ptr != NULL &&
                  v[i].fc->element->type == GST_CTF_FIELD_CLASS_INTEGER &&
                  v[i].fc->element->integer.encoding !=
                  GST_CTF_ENCODING_NONE)) {
            /* text must lie inside the input */
            g_assert ((const guint8 *) v[i].v.s.ptr >= data + off);
            g_assert ((const guint8 *) v[i].v.s.ptr + v[i].v.s.len <=
                data + size);
            if (v[i].v.s.len)
              sink += (guint8) v[i].v.s.ptr[v[i].v.s.len - 1];
          } else {
            sink += v[i].v.u;
          }
        }
      }
      sink += gst_ctf_event_iter_get_clock_value (it);
      if (text_seq->len < 4 * 1024 * 1024) {
        GstCtfTextLine li;

        gst_ctf_text_formatter_format_event (fmt_seq, it, text_seq);
        g_string_truncate (line, 0);
        gst_ctf_text_formatter_format_event_line (fmt_line, it, line, &li);
        g_assert (li.delta_at < (gssize) line->len);
        if (li.delta_at >= 0) {
          g_string_append_len (text_line, line->str, li.delta_at);
          gst_ctf_text_formatter_append_delta (fmt_line, text_line, &delta,
              &li);
          g_string_append (text_line, line->str + li.delta_at);
        } else {
          gst_ctf_text_formatter_append_delta (fmt_line, text_line, &delta,
              &li);
          g_string_append_len (text_line, line->str, line->len);
        }
      }
    }
    if (err) {
      g_assert (err->domain == GST_CTF_ERROR);
      g_clear_error (&err);
    }
    off += info.packet_size / 8;
    packets++;
  }
  if (strcmp (text_seq->str, text_line->str) != 0)
    g_error ("lines with their deltas put in differ from the direct text");
  g_string_free (text_seq, TRUE);
  g_string_free (text_line, TRUE);
  g_string_free (line, TRUE);
  gst_ctf_text_formatter_free (fmt_seq);
  gst_ctf_text_formatter_free (fmt_line);
  gst_ctf_event_iter_free (fast);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
  return 0;
}
