/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: ctftextsink's parallel merge against the sequential
 * one.  The input picks a trace class (fuzz-trace-class.h), then a byte
 * the number of streams (1 to 4), then the rest is read as packets, one
 * after the other; packet i belongs to stream i modulo that number, and
 * the packets are pushed in `timestamp_begin` order (as ctfsrc pushes
 * them).  The same packets go through gst_ctf_event_merge_next() with
 * gst_ctf_text_formatter_format_event() (ctftextsink parallel=false) and
 * through GstCtfTextStreams (parallel=true, two workers): the texts, the
 * discarded-items warnings and the first error, in their order, must be
 * equal.
 *
 *   meson setup build-fuzz -Dfuzzing=true (CC=clang)
 *   build-fuzz/tests/fuzz/fuzz-textmerge CORPUS_DIR tests/fuzz/seeds/textmerge
 *   FUZZ_TEXTMERGE_PRINT=1 build-fuzz/tests/fuzz/fuzz-textmerge FILE  (the text)
 *
 * The seeds (tests/fuzz/seeds/textmerge) are stream files of the fixed
 * LTTng-like trace class with 1 to 4 streams whose packets overlap in
 * time, equal timestamps across streams, discarded events and a packet
 * sequence gap: without them the fuzzer seldom makes two streams of
 * decodable events.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz-trace-class.h"
#include "gstctf-reader.h"
#include "gstctf-event-merge.h"
#include "gstctf-text-formatter.h"
#include "gstctftextsink-streams.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

#define MAX_PACKETS 64

typedef struct {
  GBytes *bytes;
  gint64 offset;
  guint64 sc;
  guint rank;
  gint64 key;                   /* timestamp_begin, ns; else the one before */
} Pkt;

static gint
pkt_cmp (gconstpointer a, gconstpointer b)
{
  const Pkt *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Appends what the sink writes for @t (the text is already in @out for an
 * event).  Returns FALSE after an error: the sink stops there. */
static gboolean
note_item (GString * out, GstCtfMergeItemType t, const GstCtfMergeItem * item,
    const gchar * warn, const GError * err)
{
  switch (t) {
    case GST_CTF_MERGE_DISCARDED_EVENTS:
    case GST_CTF_MERGE_DISCARDED_PACKETS:
      g_string_append_printf (out, "[%s]", warn);
      return TRUE;
    case GST_CTF_MERGE_ERROR:
      g_string_append_printf (out, "[error %s %" G_GINT64_FORMAT ": %s]",
          item->stream_name ? item->stream_name : "",
          item->offset, err ? err->message : "");
      return FALSE;
    default:
      return TRUE;
  }
}

/* The sequential path: the event merge and a formatter, as ctftextsink
 * with parallel=false. */
typedef struct {
  GstCtfEventMerge *m;
  GstCtfTextFormatter *fmt;
} Sequential;

static gboolean
seq_push (gpointer e, const Pkt * p, const gchar * name, GError ** err)
{
  return gst_ctf_event_merge_push_full (((Sequential *) e)->m, p->bytes,
      p->sc, p->rank, p->rank, name, p->offset, err);
}

static void
seq_finish (gpointer e)
{
  gst_ctf_event_merge_finish (((Sequential *) e)->m);
}

static GstCtfMergeItemType
seq_next (gpointer e, GString * out, GstCtfMergeItem * item, GString * warn,
    GError ** err)
{
  Sequential *q = e;
  GstCtfMergeItemType t = gst_ctf_event_merge_next (q->m, item, err);

  if (t == GST_CTF_MERGE_EVENT)
    gst_ctf_text_formatter_format_event (q->fmt, item->iter, out);
  else if (t == GST_CTF_MERGE_DISCARDED_EVENTS
      || t == GST_CTF_MERGE_DISCARDED_PACKETS)
    gst_ctf_text_formatter_format_discarded (q->fmt, warn,
        t == GST_CTF_MERGE_DISCARDED_EVENTS ? GST_CTF_DISCARDED_EVENTS :
        GST_CTF_DISCARDED_PACKETS, item->count, item->clock, item->begin,
        item->end, item->stream_name, item->stream_class_id,
        item->stream_id);
  return t;
}

/* The parallel path, GstCtfTextStreams. */
static gboolean
par_push (gpointer e, const Pkt * p, const gchar * name, GError ** err)
{
  return gst_ctf_text_streams_push (e, p->bytes, p->sc, p->rank, p->rank,
      name, NULL, p->offset, err);
}

static void
par_finish (gpointer e)
{
  gst_ctf_text_streams_finish (e);
}

static GstCtfMergeItemType
par_next (gpointer e, GString * out, GstCtfMergeItem * item, GString * warn,
    GError ** err)
{
  return gst_ctf_text_streams_next (e, out, item, warn, err);
}

typedef struct {
  gboolean (*push) (gpointer e, const Pkt * p, const gchar * name,
      GError ** err);
  void (*finish) (gpointer e);
  GstCtfMergeItemType (*next) (gpointer e, GString * out,
      GstCtfMergeItem * item, GString * warn, GError ** err);
} Engine;

/* What the sink writes: each packet pushed then everything that can be
 * given back, until the end or the first error. */
static GString *
run (const Engine * eng, gpointer e, GArray * pkts)
{
  GString *out = g_string_new (NULL), *warn = g_string_new (NULL);
  gboolean go = TRUE;
  guint i;

  for (i = 0; i <= pkts->len && go; i++) {
    GstCtfMergeItem item;
    GstCtfMergeItemType t;
    GError *err = NULL;

    if (i < pkts->len) {
      Pkt *p = &g_array_index (pkts, Pkt, i);
      gchar name[8];

      g_snprintf (name, sizeof (name), "s%u", p->rank);
      if (!eng->push (e, p, name, &err)) {
        g_string_append_printf (out, "[push: %s]", err->message);
        g_error_free (err);
        break;
      }
    } else {
      eng->finish (e);
    }
    for (;;) {
      g_string_truncate (warn, 0);
      t = eng->next (e, out, &item, warn, &err);
      if (t == GST_CTF_MERGE_NONE)
        break;
      go = note_item (out, t, &item, warn->str, err);
      g_clear_error (&err);
      if (!go)
        break;
    }
  }
  g_string_free (warn, TRUE);
  return out;
}

static const Engine sequential = { seq_push, seq_finish, seq_next };
static const Engine parallel = { par_push, par_finish, par_next };

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstCtfTraceClass *tc = fuzz_trace_class (&data, &size);
  GArray *pkts;
  GString *seq, *par;
  guint n_streams;
  gsize off = 0;
  gint64 key = G_MININT64;
  guint i;

  if (tc == NULL)
    return 0;
  if (size < 1) {
    gst_ctf_trace_class_unref (tc);
    return 0;
  }
  n_streams = 1 + data[0] % 4;
  data++;
  size--;

  pkts = g_array_new (FALSE, FALSE, sizeof (Pkt));
  while (off < size && pkts->len < MAX_PACKETS) {
    GstCtfPacketInfo info;
    Pkt p;

    if (!gst_ctf_packet_read_info (tc, data + off, size - off, &info, NULL))
      break;
    p.bytes = g_bytes_new_static (data + off, info.packet_size / 8);
    p.offset = off;
    p.sc = info.stream_class_id;
    p.rank = pkts->len % n_streams;
    if (info.has_timestamp_begin && info.stream_class &&
        info.stream_class->default_clock)
      gst_ctf_clock_class_cycles_to_ns_from_origin
          (info.stream_class->default_clock, info.timestamp_begin, &key);
    p.key = key;
    g_array_append_val (pkts, p);
    off += info.packet_size / 8;
  }
  /* pushed in timestamp_begin order, as ctfsrc pushes them (the merges
   * need it); g_array_sort is not stable, hence the offset */
  g_array_sort (pkts, pkt_cmp);

  {
    Sequential q;
    GstCtfTextOptions opts;
    GstCtfTextStreams *ts;

    q.m = gst_ctf_event_merge_new (tc);
    gst_ctf_event_merge_set_emulate_recycling (q.m, FALSE);
    q.fmt = gst_ctf_text_formatter_new (tc, NULL);
    gst_ctf_text_formatter_set_trace_name (q.fmt, "");
    seq = run (&sequential, &q, pkts);
    gst_ctf_text_formatter_free (q.fmt);
    gst_ctf_event_merge_free (q.m);

    gst_ctf_text_options_init (&opts);
    ts = gst_ctf_text_streams_new (tc, &opts, "", 2);
    par = run (&parallel, ts, pkts);
    gst_ctf_text_streams_free (ts);
  }
  if (g_getenv ("FUZZ_TEXTMERGE_PRINT"))
    g_printerr ("%u packets:\n%s\n", pkts->len, seq->str);
  if (strcmp (seq->str, par->str) != 0) {
    gsize d = 0;

    while (seq->str[d] && seq->str[d] == par->str[d])
      d++;
    g_error ("parallel merge differs at byte %" G_GSIZE_FORMAT ":\n"
        "sequential: %.200s\nparallel:   %.200s", d, seq->str + d,
        par->str + d);
  }
  g_string_free (seq, TRUE);
  g_string_free (par, TRUE);
  for (i = 0; i < pkts->len; i++)
    g_bytes_unref (g_array_index (pkts, Pkt, i).bytes);
  g_array_unref (pkts);
  gst_ctf_trace_class_unref (tc);
  return 0;
}
