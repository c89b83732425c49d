/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the trace.dat -> CTF conversion behind tracecmdsrc on
 * arbitrary bytes.  Opens the input as a trace.dat, builds the packetizer
 * (trace class, TSDL text parsed back) and makes every packet, through the
 * direct encoder or (when the input's last byte is odd) the packet writer
 * path, in plain or LTTng-compatible naming, strict or skipping corrupt
 * pages; then asks the time range, seeks to its middle and makes the
 * packets again.  Must never crash, hang or allocate without bound;
 * errors are fine.
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
  if (size > 2 && (data[size - 3] & 1))
    flags |= GST_CTF_TRACE_DAT_PACKETIZER_STRICT;
  p = gst_ctf_trace_dat_packetizer_new (td, flags, 0, NULL);
  while (p && gst_ctf_trace_dat_packetizer_next (p, &pkt, &len, &info,
          NULL) > 0 && n++ < 100000) {
    volatile guint8 last = len ? pkt[len - 1] : 0;
    (void) last;
  }
  if (p) {
    gint64 begin, end;

    (void) gst_ctf_trace_dat_packetizer_pop_skipped_pages (p, NULL);
    if (gst_ctf_trace_dat_packetizer_get_time_range (p, &begin, &end, NULL)
        && begin >= 0 && end >= begin
        && gst_ctf_trace_dat_packetizer_seek (p, begin + (end - begin) / 2,
            NULL)) {
      n = 0;
      while (gst_ctf_trace_dat_packetizer_next (p, &pkt, &len, &info,
              NULL) > 0 && n++ < 100000) {
        volatile guint8 last = len ? pkt[len - 1] : 0;
        (void) last;
      }
    }
  }
  gst_ctf_trace_dat_packetizer_free (p);
  gst_ctf_trace_dat_unref (td);
  return 0;
}
