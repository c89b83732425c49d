/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the LTTng 0.x reader and its CTF conversion (what
 * lttng0src does) on arbitrary tracefiles.
 *
 * Input: records of { u8 file, u32 little-endian length, bytes }; the
 * file byte picks a tracefile name (metadata_0, metadata_1, kernel_0,
 * kernel_1, fs_0, flight-net_0; a name given again gets the bytes
 * appended).  The trace is opened, its packetizer built (trace class,
 * TSDL text parsed back) and every packet made, then decoded with the
 * packet reader: each packet lttng0src pushes must decode without error
 * and hold the events the packetizer counted.  Must never crash, hang or
 * allocate without bound; errors opening the trace are fine.
 *
 * Seeds (tests/fuzz/seeds/lttng0, tests/fuzz/seeds/make-lttng0-seeds.py):
 * small cuts of the corpus traces of formats 2.3, 2.3 aligned, 2.5, 2.6.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "gstlttng0-private.h"
#include "gstlttng0-packetizer.h"
#include "gstctf-reader.h"

static const gchar *const file_names[] = {
  "metadata_0", "metadata_1", "kernel_0", "kernel_1", "fs_0", "flight-net_0",
};

#define N_NAMES G_N_ELEMENTS (file_names)

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GByteArray *files[N_NAMES] = { NULL, };
  GBytes *contents[N_NAMES];
  const gchar *names[N_NAMES];
  GstCtfLttng0Trace *t;
  GstCtfLttng0Packetizer *p = NULL;
  GstCtfEventIter *it = NULL;
  GstCtfLttng0PacketInfo info;
  const guint8 *pkt;
  gsize len, pos = 0;
  guint i, n = 0, packets = 0;

  while (pos + 5 <= size) {
    guint k = data[pos] % N_NAMES;
    guint32 l = (guint32) data[pos + 1] | (guint32) data[pos + 2] << 8 |
        (guint32) data[pos + 3] << 16 | (guint32) data[pos + 4] << 24;

    pos += 5;
    l = (guint32) MIN ((gsize) l, size - pos);
    if (!files[k])
      files[k] = g_byte_array_new ();
    g_byte_array_append (files[k], data + pos, l);
    pos += l;
  }
  for (i = 0; i < N_NAMES; i++)
    if (files[i]) {
      names[n] = file_names[i];
      contents[n++] = g_byte_array_free_to_bytes (files[i]);
    }

  t = _gst_ctf_lttng0_trace_open_bytes (names, contents, n, NULL);
  if (t)
    p = gst_ctf_lttng0_packetizer_new (t, NULL);
  if (p)
    it = gst_ctf_event_iter_new (gst_ctf_lttng0_packetizer_get_trace_class
        (p));
  while (p && packets++ < 100000
      && gst_ctf_lttng0_packetizer_next (p, &pkt, &len, &info, NULL) > 0) {
    GError *err = NULL;
    guint events = 0;

    if (!gst_ctf_event_iter_set_packet (it, pkt, len, &err))
      abort ();
    while (gst_ctf_event_iter_next (it, &err))
      events++;
    if (err || events != info.n_events)
      abort ();
  }
  if (it)
    gst_ctf_event_iter_free (it);
  gst_ctf_lttng0_packetizer_free (p);
  if (t)
    gst_ctf_lttng0_trace_unref (t);
  for (i = 0; i < n; i++)
    g_bytes_unref (contents[i]);
  return 0;
}
