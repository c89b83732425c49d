/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the Perfetto writer (perfettosink's library side)
 * over an untrusted stream file.  The input picks its trace class as
 * fuzz-packet does (fuzz-trace-class.h); the rest is cut into packets
 * (their `packet_size`) and written twice: as the trace class says
 * (user space: track events) and as a kernel trace (ftrace bundles,
 * compact sched, process tree).  After every packet the output must be
 * whole `TracePacket`s whose nested lengths fit (a packet that does not
 * decode adds nothing), and the writer must go on with the next one.
 *
 *   meson setup build-fuzz -Dfuzzing=true (CC=clang)
 *   build-fuzz/tests/fuzz/fuzz-perfetto CORPUS_DIR -max_len=65536
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz-trace-class.h"
#include "gstctf-perfetto-private.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static gboolean
read_varint (const guint8 * p, gsize n, gsize * i, guint64 * v)
{
  guint shift = 0;

  *v = 0;
  while (*i < n && shift < 64) {
    guint8 b = p[(*i)++];

    *v |= (guint64) (b & 0x7f) << shift;
    if (b < 0x80)
      return TRUE;
    shift += 7;
  }
  return FALSE;
}

/* Every field of a message in [@p, @p + @n) is well formed; messages we
 * write nested (length-delimited fields) are walked @depth levels down
 * when they parse as messages (strings may not). */
static gboolean
well_formed (const guint8 * p, gsize n, guint depth)
{
  gsize i = 0;

  while (i < n) {
    guint64 key, v;

    if (!read_varint (p, n, &i, &key))
      return FALSE;
    switch (key & 7) {
      case 0:
        if (!read_varint (p, n, &i, &v))
          return FALSE;
        break;
      case 1:
        if (n - i < 8)
          return FALSE;
        i += 8;
        break;
      case 2:
        if (!read_varint (p, n, &i, &v) || v > n - i)
          return FALSE;
        if (depth)
          (void) well_formed (p + i, v, depth - 1);
        i += v;
        break;
      default:
        return FALSE;
    }
  }
  return i == n;
}

static void
check_trace (const GByteArray * out)
{
  gsize i = 0;

  /* a Trace: only field 1 (TracePacket), length-delimited */
  while (i < out->len) {
    guint64 key, len;

    g_assert (read_varint (out->data, out->len, &i, &key));
    g_assert (key == ((1 << 3) | 2));
    g_assert (read_varint (out->data, out->len, &i, &len));
    g_assert (len <= out->len - i);
    g_assert (well_formed (out->data + i, len, 0));
    i += len;
  }
}

static void
run (GstCtfTraceClass * tc, const uint8_t * data, size_t size,
    gboolean kernel)
{
  GstCtfPerfettoWriter *w = gst_ctf_perfetto_writer_new ();
  GByteArray *out = g_byte_array_new ();
  gsize off = 0;
  guint packets = 0;

  gst_ctf_perfetto_writer_set_trace_class (w, tc, NULL);
  if (kernel)
    w->force_kernel = TRUE;
  while (off < size && packets++ < 64) {
    GstCtfPacketInfo info;
    GError *err = NULL;
    guint before = out->len;
    gsize len;

    if (!gst_ctf_packet_read_info (tc, data + off, size - off, &info, NULL))
      break;
    len = info.packet_size / 8;
    if (len == 0 || len > size - off)
      break;
    if (!gst_ctf_perfetto_writer_write_packet (w, data + off, len, out,
            &err)) {
      g_assert (err != NULL);
      g_assert (out->len == before);
      g_clear_error (&err);
    }
    check_trace (out);
    off += len;
  }
  gst_ctf_perfetto_writer_write_note (w, "end", out);
  check_trace (out);
  g_byte_array_unref (out);
  gst_ctf_perfetto_writer_free (w);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstCtfTraceClass *tc = fuzz_trace_class (&data, &size);

  if (tc == NULL)
    return 0;
  run (tc, data, size, FALSE);
  run (tc, data, size, TRUE);
  gst_ctf_trace_class_unref (tc);
  return 0;
}
