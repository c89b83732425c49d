/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: `tracecmdsrc ! ctftextsink format=trace-cmd` on
 * arbitrary bytes.  Opens the input as a trace.dat, makes its CTF packets
 * (tracecmdsrc's packetizer), gives the side stream's packets to the
 * trace-cmd report printer (event format files and print fmts parsed by
 * libtraceevent, cmdlines, kallsyms, printk formats) and prints the other
 * packets' events in time order: every record is rebuilt from its CTF
 * values and its format, then formatted by libtraceevent in its child
 * process (gsttracecmd-tep.c: a child that dies is replaced; its crashes
 * are not this process's, and its code is not in this target's coverage).
 * Must never crash, hang or allocate without bound; errors are fine.
 */
#include <stdint.h>
#include <stddef.h>

#include "gsttracecmd.h"
#include "gsttracecmd-packetizer.h"
#include "gsttracecmd-report.h"
#include "gstctf-event-merge.h"

/* Debian 12's libtraceevent (1.7.1) leaks a few bytes inside
 * tep_parse_event() on some malformed print fmts: its leaks are not this
 * project's to find here (LeakSanitizer reads this hook at start). */
const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libtraceevent.so\n";
}

static void
drain (GstCtfEventMerge * m, GstCtfTraceCmdReport * r, GString * out)
{
  GstCtfMergeItem item;
  GstCtfMergeItemType t;
  GError *err = NULL;

  while ((t = gst_ctf_event_merge_next (m, &item, &err)) !=
      GST_CTF_MERGE_NONE) {
    if (t == GST_CTF_MERGE_EVENT)
      gst_ctf_trace_cmd_report_format_event (r, item.iter,
          item.stream_class_id, item.stream_id, item.has_ns ? item.ns : 0,
          out, &err);
    else if (t == GST_CTF_MERGE_DISCARDED_EVENTS)
      gst_ctf_trace_cmd_report_note_discarded (r, item.stream_class_id,
          item.stream_id, item.count);
    g_clear_error (&err);
    if (out->len > (1 << 20))
      g_string_truncate (out, 0);
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GBytes *bytes = g_bytes_new_static (data, size);
  GstCtfTraceDat *td = gst_ctf_trace_dat_open_bytes (bytes, "fuzz.dat", NULL);
  GstCtfTraceDatPacketizer *p = NULL;
  GstCtfTraceDatPacketInfo info;
  GstCtfTraceCmdReport *r = NULL;
  GstCtfEventMerge *m = NULL;
  GstCtfTraceClass *tc;
  GString *out = g_string_new (NULL);
  const guint8 *pkt;
  gsize len;
  guint n = 0;

  g_bytes_unref (bytes);
  if (!td)
    goto done;
  p = gst_ctf_trace_dat_packetizer_new (td, 0, 0, NULL);
  if (!p)
    goto done;
  tc = gst_ctf_trace_dat_packetizer_get_trace_class (p);
  r = gst_ctf_trace_cmd_report_new (tc, NULL);
  if (!r)
    goto done;
  m = gst_ctf_event_merge_new (tc);
  gst_ctf_trace_cmd_report_format_header (r, out);
  while (gst_ctf_trace_dat_packetizer_next (p, &pkt, &len, &info, NULL) > 0
      && n++ < 100000) {
    if (gst_ctf_trace_cmd_report_is_side_stream (r, info.stream_class_id)) {
      gst_ctf_trace_cmd_report_add_side_packet (r, pkt, len, NULL);
    } else {
      GBytes *b = g_bytes_new (pkt, len);

      gst_ctf_event_merge_push_full (m, b, info.stream_class_id,
          info.stream_index, (gint64) info.stream_instance_id,
          info.stream_name, -1, NULL);
      g_bytes_unref (b);
      drain (m, r, out);
    }
  }
  gst_ctf_event_merge_finish (m);
  drain (m, r, out);

done:
  if (m)
    gst_ctf_event_merge_free (m);
  gst_ctf_trace_cmd_report_free (r);
  gst_ctf_trace_dat_packetizer_free (p);
  if (td)
    gst_ctf_trace_dat_unref (td);
  g_string_free (out, TRUE);
  return 0;
}
