/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the trace.dat -> CTF conversion behind tracecmdsrc on
 * arbitrary bytes.  Opens the input as a trace.dat, builds the packetizer
 * (trace class, TSDL text parsed back) and makes every packet, through the
 * direct encoder or (when the input's last byte is odd) the packet writer
 * path, in plain or LTTng-compatible naming.  Must never crash, hang or
 * allocate without bound; errors are fine.
 */
#include <stdint.h>
#include <stddef.h>

#include "gsttracecmd.h"
#include "gsttracecmd-packetizer.h"

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GBytes *bytes = g_bytes_new_static (data, size);
  GstCtfTraceDat *td = gst_ctf_trace_dat_open_bytes (bytes, "fuzz.dat", NULL);
  GstCtfTraceDatPacketizer *p;
  GstCtfTraceDatPacketInfo info;
  const guint8 *pkt;
  gsize len;
  guint n = 0, flags = 0;

  g_bytes_unref (bytes);
  if (!td)
    return 0;
  if (size > 0 && (data[size - 1] & 1))
    g_setenv ("GST_CTF_TRACEDAT_NO_DIRECT", "1", TRUE);
  else
    g_unsetenv ("GST_CTF_TRACEDAT_NO_DIRECT");
  if (size > 1 && (data[size - 2] & 1))
    flags |= GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT;
  p = gst_ctf_trace_dat_packetizer_new (td, flags, 0, NULL);
  while (p && gst_ctf_trace_dat_packetizer_next (p, &pkt, &len, &info,
          NULL) > 0 && n++ < 100000) {
    volatile guint8 last = len ? pkt[len - 1] : 0;
    (void) last;
  }
  gst_ctf_trace_dat_packetizer_free (p);
  gst_ctf_trace_dat_unref (td);
  return 0;
}
