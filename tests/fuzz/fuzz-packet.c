/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the packet reader over an untrusted stream file.
 * The input's first byte picks the trace class (fuzz-trace-class.h):
 * three fixed ones (LTTng-like with the kernel's compact event header or
 * with LTTng-UST's large one, and a big-endian one without packet sizes
 * that uses bit fields, variants and nested sequences), or a metadata
 * text carried by the input itself (TSDL or CTF 2), so layouts the fixed
 * ones lack get exercised too.  The seeds (tests/fuzz/seeds/packet, made
 * by tests/fuzz/seeds/make-packet-seeds.py) are packets of the LTTng-like
 * classes whose events all decode, and ctf2-kinds, ctf2-utf and
 * ctf2-windows: tests/data/ctf2/NAME (its metadata carried, then its
 * stream: booleans, BLOBs, LEB128 integers, optionals, variants with
 * integer selectors, bit maps; UTF-16/32 strings; all of them with a
 * clock and role-only header fields).  The rest is read as the stream file: packet info, then
 * every event with recording on and off, packet after packet, as ctfsrc
 * and ctftextsink do.  Every event is also printed as text, once directly
 * (gst_ctf_text_formatter_format_event()) and once as the parallel
 * ctftextsink does, on another formatter: the line without its delta
 * (gst_ctf_text_formatter_format_event_line()), the delta put in after
 * (gst_ctf_text_formatter_append_delta()): the two texts must be equal.
 * A third iterator records without runs (gstctf-plan.h GstCtfRun, and the
 * event runs of gstctf-plan-event.c that join an event's scopes): every
 * field by the op interpreter.  Its events, values, header ends and
 * errors must be the same.
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
#include "gstctf-plan.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static guint64 sink;

/* Whether value @v (at index @i) is text: a string, or an array or
 * sequence of encoded bytes recorded as one value. */
static gboolean
is_text (const GstCtfFieldValue * v, guint i)
{
  if (v->fc->type == GST_CTF_FIELD_CLASS_STRING)
    return TRUE;
  return (v->fc->type == GST_CTF_FIELD_CLASS_ARRAY ||
      v->fc->type == GST_CTF_FIELD_CLASS_SEQUENCE) && v->end == i + 1 &&
      v->v.s.ptr != NULL &&
      v->fc->element->type == GST_CTF_FIELD_CLASS_INTEGER &&
      v->fc->element->integer.encoding != GST_CTF_ENCODING_NONE;
}

/* The values of @a and @b (two iterators on the same event) are equal. */
static void
assert_same_values (GstCtfEventIter * a, GstCtfEventIter * b)
{
  guint s;

  for (s = 0; s < GST_CTF_N_SCOPES; s++) {
    guint na, nb, i;
    const GstCtfFieldValue *va = gst_ctf_event_iter_get_values (a, s, &na);
    const GstCtfFieldValue *vb = gst_ctf_event_iter_get_values (b, s, &nb);

    g_assert (na == nb);
    for (i = 0; i < na; i++) {
      g_assert (va[i].fc == vb[i].fc);
      g_assert (va[i].name == vb[i].name);
      g_assert (va[i].end == vb[i].end);
      if (is_text (&va[i], i)) {
        /* text: its bytes (where they are when there are some) */
        g_assert (va[i].v.s.len == vb[i].v.s.len);
        g_assert (va[i].v.s.len == 0 || va[i].v.s.ptr == vb[i].v.s.ptr);
      } else {
        /* integers, floats (as bits), child counts, variant options */
        g_assert (va[i].v.u == vb[i].v.u);
      }
    }
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstCtfTraceClass *tc;
  GstCtfEventIter *it;
  GError *err = NULL;
  gsize off = 0;
  guint packets = 0;

  GstCtfEventIter *fast, *plain;
  GError *err2 = NULL;
  GstCtfTextFormatter *fmt_seq, *fmt_line, *fmt_json, *fmt_color;
  GstCtfTextOptions opts;
  GstCtfTextDelta delta = { 0 };
  GString *text_seq, *text_line, *line, *other;

  tc = fuzz_trace_class (&data, &size);
  if (tc == NULL)
    return 0;

  it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (it, TRUE);
  fmt_seq = gst_ctf_text_formatter_new (tc, NULL);
  fmt_line = gst_ctf_text_formatter_new (tc, NULL);
  /* JSON Lines (with clock offsets) and the coloured text, on the same
   * events: one valid UTF-8 line each */
  gst_ctf_text_options_init (&opts);
  opts.json_lines = TRUE;
  opts.clock_offset_s = -3;
  opts.clock_offset_ns = 1500000001;
  fmt_json = gst_ctf_text_formatter_new (tc, &opts);
  gst_ctf_text_formatter_set_stream (fmt_json, 1, "stream\x80\"", NULL);
  gst_ctf_text_options_init (&opts);
  opts.color = TRUE;
  opts.name_header = opts.name_scope = TRUE;
  opts.clock_offset_ns = -7;
  fmt_color = gst_ctf_text_formatter_new (tc, &opts);
  other = g_string_new (NULL);
  text_seq = g_string_new (NULL);
  text_line = g_string_new (NULL);
  line = g_string_new (NULL);
  /* the same walk without recording (skipping plans) must agree */
  fast = gst_ctf_event_iter_new (tc);
  plain = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (plain, TRUE);
  _gst_ctf_event_iter_set_runs (plain, FALSE);
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
    if (!gst_ctf_event_iter_set_packet (plain, data + off, size - off,
            NULL))
      g_error ("set_packet differs without runs");

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
      if (!gst_ctf_event_iter_next (plain, NULL))
        g_error ("event at %" G_GUINT64_FORMAT " bits fails without runs",
            b);
      fb = gst_ctf_event_iter_get_event_offset (plain, &fe);
      g_assert (fb == b && fe == e);
      g_assert (gst_ctf_event_iter_get_clock_value (plain) ==
          gst_ctf_event_iter_get_clock_value (it));
      g_assert (gst_ctf_event_iter_get_event_class (plain) ==
          gst_ctf_event_iter_get_event_class (it));
      g_assert (gst_ctf_event_iter_get_header_end (plain) ==
          gst_ctf_event_iter_get_header_end (it));
      assert_same_values (it, plain);
      for (s = 0; s < GST_CTF_N_SCOPES; s++) {
        guint n, i;
        const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (it, s, &n);

        for (i = 0; i < n; i++) {
          g_assert (v[i].end > i && v[i].end <= n);
          if (is_text (&v[i], i)) {
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
        g_string_truncate (other, 0);
        gst_ctf_text_formatter_format_event (fmt_json, it, other);
        g_assert (other->len > 2 && other->str[0] == '{' &&
            other->str[other->len - 1] == '\n' &&
            memchr (other->str, '\n', other->len - 1) == NULL);
        if (!g_utf8_validate (other->str, other->len, NULL))
          g_error ("a JSON line is not UTF-8");
        g_string_truncate (other, 0);
        gst_ctf_text_formatter_format_event (fmt_color, it, other);
        g_assert (other->len > 0 && other->str[other->len - 1] == '\n');
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
    /* the same end (or error) without runs */
    g_assert (!gst_ctf_event_iter_next (plain, &err2));
    g_assert ((err == NULL) == (err2 == NULL));
    if (err) {
      g_assert (err->domain == GST_CTF_ERROR);
      g_assert (err2->code == err->code);
      g_assert (strcmp (err2->message, err->message) == 0);
      g_clear_error (&err);
      g_clear_error (&err2);
    }
    off += info.packet_size / 8;
    packets++;
  }
  if (strcmp (text_seq->str, text_line->str) != 0)
    g_error ("lines with their deltas put in differ from the direct text");
  g_string_free (text_seq, TRUE);
  g_string_free (text_line, TRUE);
  g_string_free (line, TRUE);
  g_string_free (other, TRUE);
  gst_ctf_text_formatter_free (fmt_json);
  gst_ctf_text_formatter_free (fmt_color);
  gst_ctf_text_formatter_free (fmt_seq);
  gst_ctf_text_formatter_free (fmt_line);
  gst_ctf_event_iter_free (fast);
  gst_ctf_event_iter_free (plain);
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
  return 0;
}
