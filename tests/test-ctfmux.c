/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfmux and the library merge of traces (gstctf-trace-merge.h):
 *
 * - ctfmux of two corpus LTTng-UST traces, then ctfsink: `babeltrace2 OUT`
 *   prints exactly what `babeltrace2 T1 T2` prints (both modes);
 * - one input: the same buffers come out;
 * - mode=events: output timestamps non-decreasing in buffer order, the
 *   multiset of events (formatted as text) equals the inputs';
 * - mode=events with event bodies copied as bytes and re-encoded: both
 *   print what babeltrace2 prints for the inputs, and a trace with 64-bit
 *   aligned payloads takes both paths;
 * - equal timestamps: pad order;
 * - clocks that cannot be correlated (LTTng + trace.dat) refused with
 *   GST_CTF_ERROR_CLOCK unless force-correlate; then event counts add up
 *   and the pad offset shifts the trace.dat times exactly;
 * - a live upstream (appsrc is-live) with a pad that gives nothing: the
 *   other pad's packets come out after the latency;
 * - `ctfsrc ! ctftextsink` on the corpus units holding several traces
 *   equals babeltrace2's output (library merge in ctfsrc).
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <string.h>
#include <stdlib.h>

#include "gstctf-trace-dir.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"
#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"
#include "gstctf-trace-merge.h"
#include "gstctf-text-formatter.h"
#include "gstctf-error.h"

static const gchar *
corpus (void)
{
  const gchar *c = g_getenv ("GST_CTF_CORPUS");

  if (c == NULL || !g_file_test (c, G_FILE_TEST_IS_DIR))
    return NULL;
  return c;
}

#define NEED_CORPUS() G_STMT_START {                                    \
  if (corpus () == NULL) {                                              \
    g_print ("SKIP %s: GST_CTF_CORPUS not set or missing\n", G_STRFUNC); \
    return;                                                             \
  }                                                                     \
} G_STMT_END

static gchar *
cpath (const gchar * rel)
{
  return g_build_filename (corpus (), rel, NULL);
}

static void
rm_rf (const gchar * dir)
{
  gchar *argv[] = { (gchar *) "rm", (gchar *) "-rf", (gchar *) dir, NULL };

  g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
      NULL, NULL, NULL);
}

static gboolean
have_program (const gchar * name)
{
  gchar *p = g_find_program_in_path (name);

  g_free (p);
  return p != NULL;
}

/* `babeltrace2 ARGS...` stdout, NULL on failure. */
static gchar *
babeltrace2 (const gchar * a, const gchar * b)
{
  gchar *argv[] = { (gchar *) "babeltrace2", (gchar *) a, (gchar *) b, NULL };
  gchar *out = NULL;
  gint status = -1;

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL)) {
    g_free (out);
    return NULL;
  }
  return out;
}

static guint
count_lines (const gchar * s)
{
  guint n = 0;

  for (; s && *s; s++)
    if (*s == '\n')
      n++;
  return n;
}

/* ---- running a pipeline ------------------------------------------- */

typedef struct
{
  GPtrArray *buffers;
  GstCaps *caps;
  gchar *error;                 /* message + debug */
} Run;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Run * r)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);

  if (caps) {
    gst_caps_replace (&r->caps, caps);
    gst_caps_unref (caps);
  }
  g_ptr_array_add (r->buffers, gst_buffer_ref (buf));
}

/* Runs @desc; a fakesink named "out" (signal-handoffs=true) collects. */
static void
run_pipeline (const gchar * desc, Run * r)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstElement *out;
  GstBus *bus;
  GstMessage *msg;

  memset (r, 0, sizeof (*r));
  r->buffers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  fail_unless (p != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "");
  out = gst_bin_get_by_name (GST_BIN (p), "out");
  if (out) {
    g_signal_connect (out, "handoff", G_CALLBACK (on_handoff), r);
    gst_object_unref (out);
  }
  gst_element_set_state (p, GST_STATE_PLAYING);
  bus = gst_element_get_bus (p);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "timeout: %s", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    r->error = g_strdup_printf ("%s | %s", err->message, dbg ? dbg : "");
    g_clear_error (&err);
    g_free (dbg);
  }
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}

static void
run_clear (Run * r)
{
  g_ptr_array_unref (r->buffers);
  gst_caps_replace (&r->caps, NULL);
  g_free (r->error);
}

/* ---- ctfmux + ctfsink vs babeltrace2 T1 T2 ------------------------- */

static void
check_bt2_equal (const gchar * mode, const gchar * a, const gchar * b)
{
  gchar *ta = cpath (a), *tb = cpath (b);
  gchar *tmp = g_dir_make_tmp ("ctfmux-XXXXXX", NULL);
  gchar *out = g_build_filename (tmp, "merged", NULL);
  gchar *desc = g_strdup_printf ("ctfmux name=m mode=%s ! ctfsink "
      "location=\"%s\"  ctfsrc location=\"%s\" ! m.  ctfsrc location=\"%s\" "
      "! m.", mode, out, ta, tb);
  gchar *expected, *got;
  Run r;

  run_pipeline (desc, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  expected = babeltrace2 (ta, tb);
  got = babeltrace2 (out, NULL);
  fail_unless (expected != NULL);
  fail_unless (got != NULL, "babeltrace2 cannot read the merged trace");
  g_print ("ctfmux %s %s + %s: babeltrace2 OUT %u lines, T1 T2 %u lines\n",
      mode, a, b, count_lines (got), count_lines (expected));
  fail_unless (strcmp (got, expected) == 0,
      "babeltrace2 OUT differs from babeltrace2 T1 T2 (%s)", mode);
  g_free (expected);
  g_free (got);
  run_clear (&r);
  rm_rf (tmp);
  g_free (desc);
  g_free (out);
  g_free (tmp);
  g_free (ta);
  g_free (tb);
}

GST_START_TEST (test_mux_two_ust_babeltrace2)
{
  NEED_CORPUS ();
  if (!have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 not installed\n", G_STRFUNC);
    return;
  }
  /* per-UID traces (per-PID ones carry procname/vpid in their env, which
   * a merged trace keeps per input: babeltrace2 then prints them no
   * more) */
  check_bt2_equal ("packets", "ctf/lttng-ust/libc-ls",
      "ctf/lttng-ust/dl-statedump");
  check_bt2_equal ("packets", "ctf/lttng-ust/libc-ls",
      "ctf/lttng-ust/custom-2cpu");
  check_bt2_equal ("events", "ctf/lttng-ust/libc-ls",
      "ctf/lttng-ust/dl-statedump");
}

GST_END_TEST;

/* ---- packet headers that differ: re-encoded packets ----------------- */

/* @text without the ") HOST " hostname field of each line. */
static gchar *
strip_host (const gchar * text, const gchar * host)
{
  gchar *pat = g_strdup_printf (") %s ", host);
  gchar **lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; lines[i]; i++) {
    gchar *at = strstr (lines[i], pat);

    if (at) {
      g_string_append_len (out, lines[i], at - lines[i] + 2);
      g_string_append (out, at + strlen (pat));
    } else {
      g_string_append (out, lines[i]);
    }
    if (lines[i + 1])
      g_string_append_c (out, '\n');
  }
  g_strfreev (lines);
  g_free (pat);
  return g_string_free (out, FALSE);
}

GST_START_TEST (test_mux_reencoded_headers)
{
  gchar *ta, *tb, *tmp, *out, *desc, *got, *expected, *e1, *e2;
  gchar *argv[] = { (gchar *) "babeltrace2",
    (gchar *) "--clock-force-correlate", NULL, NULL, NULL
  };
  gint status = -1;
  Run r;

  NEED_CORPUS ();
  if (!have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 not installed\n", G_STRFUNC);
    return;
  }
  /* LTTng-UST 2.13 + 2.x from Trace Compass: different packet headers,
   * different hostnames (kept per input) */
  ta = cpath ("ctf/lttng-ust/dl-statedump");
  tb = cpath ("ctf/other/tracecompass/ctf-sequence-empty");
  tmp = g_dir_make_tmp ("ctfmux-XXXXXX", NULL);
  out = g_build_filename (tmp, "merged", NULL);
  desc = g_strdup_printf ("ctfmux name=m force-correlate=true ! ctfsink "
      "location=\"%s\"  ctfsrc location=\"%s\" ! m.  ctfsrc location=\"%s\" "
      "! m.", out, ta, tb);
  run_pipeline (desc, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  got = babeltrace2 (out, NULL);
  fail_unless (got != NULL, "babeltrace2 cannot read the merged trace");
  argv[2] = ta;
  argv[3] = tb;
  fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &expected, NULL, &status,
          NULL));
  e1 = strip_host (expected, "vm");
  e2 = strip_host (e1, "ade");
  g_print ("ctfmux re-encoded packets: babeltrace2 OUT %u lines, T1 T2 %u\n",
      count_lines (got), count_lines (e2));
  fail_unless_equals_string (got, e2);
  g_free (e1);
  g_free (e2);
  g_free (expected);
  g_free (got);
  run_clear (&r);
  rm_rf (tmp);
  g_free (desc);
  g_free (out);
  g_free (tmp);
  g_free (ta);
  g_free (tb);
}

GST_END_TEST;

/* ---- one input: the same buffers ----------------------------------- */

GST_START_TEST (test_mux_single_input_same_buffers)
{
  gchar *dir;
  GstCtfTraceDir *td;
  GstHarness *h;
  GPtrArray *in = g_ptr_array_new ();
  guint i, j;

  NEED_CORPUS ();
  dir = cpath ("ctf/lttng-ust/libc-ls/ust/uid/0/64-bit");
  td = gst_ctf_trace_dir_open (dir, NULL);
  fail_unless (td != NULL);

  h = gst_harness_new_with_padnames ("ctfmux", "sink_0", "src");
  gst_harness_set_src_caps (h, gst_ctf_caps_new (td->metadata,
          td->trace_class->uuid));
  for (i = 0; i < td->streams->len; i++) {
    GstCtfStream *s = g_ptr_array_index (td->streams, i);

    for (j = 0; j < s->packets->len; j++) {
      GstCtfStreamPacket *p = &g_array_index (s->packets,
          GstCtfStreamPacket, j);
      GstBuffer *b = gst_buffer_new_memdup (p->file->data + p->entry->offset,
          p->entry->packet_size);

      GST_BUFFER_PTS (b) = p->entry->timestamp_begin_ns;
      g_ptr_array_add (in, b);
    }
  }
  /* one stream after the other: PTS order within each */
  for (i = 0; i < in->len; i++) {
    GstBuffer *b = g_ptr_array_index (in, i);

    gst_buffer_ref (b);
    fail_unless_equals_int (gst_harness_push (h, b), GST_FLOW_OK);
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  for (i = 0; i < in->len; i++) {
    GstBuffer *o = gst_harness_pull (h);

    fail_unless (o == g_ptr_array_index (in, i), "buffer %u is not the "
        "input buffer", i);
    gst_buffer_unref (o);
  }
  {
    GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

    fail_unless (caps != NULL);
    fail_unless_equals_string (gst_ctf_caps_get_metadata (caps),
        td->metadata);
    gst_caps_unref (caps);
  }
  gst_harness_teardown (h);
  g_ptr_array_free (in, TRUE);
  gst_ctf_trace_dir_free (td);
  g_free (dir);
}

GST_END_TEST;

/* ---- new metadata on a pad (a growing trace): still passthrough ---- */

static GPtrArray *
first_packets (GstCtfTraceDir * td, guint n)
{
  GPtrArray *a = g_ptr_array_new ();
  GstCtfStream *s = g_ptr_array_index (td->streams, 0);
  guint j;

  for (j = 0; j < s->packets->len && j < n; j++) {
    GstCtfStreamPacket *p = &g_array_index (s->packets, GstCtfStreamPacket,
        j);
    GstBuffer *b = gst_buffer_new_memdup (p->file->data + p->entry->offset,
        p->entry->packet_size);

    GST_BUFFER_PTS (b) = p->entry->timestamp_begin_ns;
    g_ptr_array_add (a, b);
  }
  return a;
}

GST_START_TEST (test_mux_caps_change_single_pad)
{
  gchar *da, *db;
  GstCtfTraceDir *ta, *tb;
  GPtrArray *pa, *pb;
  GstHarness *h;
  GstCaps *caps;
  guint i;

  NEED_CORPUS ();
  da = cpath ("ctf/lttng-ust/libc-ls/ust/uid/0/64-bit");
  db = cpath ("ctf/lttng-ust/dl-statedump/ust/uid/0/64-bit");
  ta = gst_ctf_trace_dir_open (da, NULL);
  tb = gst_ctf_trace_dir_open (db, NULL);
  fail_unless (ta != NULL && tb != NULL);
  pa = first_packets (ta, 2);
  pb = first_packets (tb, 2);

  h = gst_harness_new_with_padnames ("ctfmux", "sink_0", "src");
  gst_harness_set_src_caps (h, gst_ctf_caps_new (ta->metadata,
          ta->trace_class->uuid));
  for (i = 0; i < pa->len; i++)
    fail_unless_equals_int (gst_harness_push (h,
            gst_buffer_ref (g_ptr_array_index (pa, i))), GST_FLOW_OK);
  for (i = 0; i < pa->len; i++) {
    GstBuffer *o = gst_harness_pull (h);

    fail_unless (o == g_ptr_array_index (pa, i));
    gst_buffer_unref (o);
  }
  gst_harness_set_src_caps (h, gst_ctf_caps_new (tb->metadata,
          tb->trace_class->uuid));
  for (i = 0; i < pb->len; i++)
    fail_unless_equals_int (gst_harness_push (h,
            gst_buffer_ref (g_ptr_array_index (pb, i))), GST_FLOW_OK);
  gst_harness_push_event (h, gst_event_new_eos ());
  for (i = 0; i < pb->len; i++) {
    GstBuffer *o = gst_harness_pull (h);

    fail_unless (o == g_ptr_array_index (pb, i), "packet %u after the "
        "caps change is not the input buffer", i);
    gst_buffer_unref (o);
  }
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless_equals_string (gst_ctf_caps_get_metadata (caps), tb->metadata);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  g_ptr_array_set_free_func (pa, (GDestroyNotify) gst_buffer_unref);
  g_ptr_array_set_free_func (pb, (GDestroyNotify) gst_buffer_unref);
  g_ptr_array_unref (pa);
  g_ptr_array_unref (pb);
  gst_ctf_trace_dir_free (ta);
  gst_ctf_trace_dir_free (tb);
  g_free (da);
  g_free (db);
}

GST_END_TEST;

/* ---- equal timestamps: pad order ----------------------------------- */

GST_START_TEST (test_mux_ties_pad_order)
{
  gchar *dir;
  GstCtfTraceDir *td;
  GstHarness *h, *h1;
  GstCtfStream *s;
  GstCtfStreamPacket *p;
  GstBuffer *b0, *b1, *o;
  GstCaps *caps;

  NEED_CORPUS ();
  dir = cpath ("ctf/lttng-ust/libc-ls/ust/uid/0/64-bit");
  td = gst_ctf_trace_dir_open (dir, NULL);
  fail_unless (td != NULL);
  s = g_ptr_array_index (td->streams, 0);
  p = &g_array_index (s->packets, GstCtfStreamPacket, 0);

  h = gst_harness_new_with_padnames ("ctfmux", NULL, "src");
  h1 = gst_harness_new_with_element (h->element, "sink_1", NULL);
  {
    GstPad *p0 = gst_element_request_pad_simple (h->element, "sink_0");

    gst_harness_add_element_sink_pad (h, p0);
    gst_object_unref (p0);
  }
  caps = gst_ctf_caps_new (td->metadata, td->trace_class->uuid);
  gst_harness_set_src_caps (h1, gst_caps_ref (caps));
  gst_harness_set_src_caps (h, caps);
  b0 = gst_buffer_new_memdup (p->file->data + p->entry->offset,
      p->entry->packet_size);
  b1 = gst_buffer_copy (b0);
  GST_BUFFER_PTS (b0) = GST_BUFFER_PTS (b1) = 1000;
  /* pad 1 first in time of arrival; pad 0 must come out first */
  gst_buffer_ref (b0);
  gst_buffer_ref (b1);
  fail_unless_equals_int (gst_harness_push (h1, b1), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, b0), GST_FLOW_OK);
  gst_harness_push_event (h, gst_event_new_eos ());
  gst_harness_push_event (h1, gst_event_new_eos ());
  o = gst_harness_pull (h);
  fail_unless (o == b0);
  gst_buffer_unref (o);
  o = gst_harness_pull (h);
  fail_unless (o == b1);
  gst_buffer_unref (o);
  gst_buffer_unref (b0);
  gst_buffer_unref (b1);
  gst_harness_teardown (h1);
  gst_harness_teardown (h);
  gst_ctf_trace_dir_free (td);
  g_free (dir);
}

GST_END_TEST;

/* ---- mode=events ---------------------------------------------------- */

/* Every event of @buffers (packets of @tc in buffer order) as a text
 * line without delta; *ordered FALSE when a time goes back. */
static void
collect_events (GstCtfTraceClass * tc, GPtrArray * buffers, GPtrArray * lines,
    gboolean * ordered, guint64 * n_events)
{
  GstCtfEventIter *it = gst_ctf_event_iter_new (tc);
  GstCtfTextOptions opts;
  GstCtfTextFormatter *f;
  GString *s = g_string_new (NULL);
  gint64 last = G_MININT64;
  guint i;

  gst_ctf_text_options_init (&opts);
  opts.no_delta = TRUE;
  opts.clock_gmt = TRUE;
  f = gst_ctf_text_formatter_new (tc, &opts);
  gst_ctf_event_iter_set_recording (it, TRUE);
  *ordered = TRUE;
  for (i = 0; i < buffers->len; i++) {
    GstBuffer *b = g_ptr_array_index (buffers, i);
    GstMapInfo map;
    GError *err = NULL;

    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    fail_unless (gst_ctf_event_iter_set_packet (it, map.data, map.size,
            &err), "%s", err ? err->message : "");
    while (gst_ctf_event_iter_next (it, &err)) {
      const GstCtfPacketInfo *pi = gst_ctf_event_iter_get_packet_info (it);
      gint64 ns = 0;

      if (pi->stream_class && pi->stream_class->default_clock)
        gst_ctf_clock_class_cycles_to_ns_from_origin
            (pi->stream_class->default_clock,
            gst_ctf_event_iter_get_clock_value (it), &ns);
      if (ns < last)
        *ordered = FALSE;
      last = ns;
      g_string_truncate (s, 0);
      gst_ctf_text_formatter_format_event (f, it, s);
      g_ptr_array_add (lines, g_strdup (s->str));
      (*n_events)++;
    }
    fail_unless (err == NULL, "%s", err ? err->message : "");
    gst_buffer_unmap (b, &map);
  }
  g_string_free (s, TRUE);
  gst_ctf_text_formatter_free (f);
  gst_ctf_event_iter_free (it);
}

static gint
cmp_strp (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

static GstCtfTraceClass *
caps_tc (GstCaps * caps)
{
  GstCtfTraceClass *tc;
  GError *err = NULL;

  fail_unless (caps != NULL);
  tc = gst_ctf_tsdl_parse (gst_ctf_caps_get_metadata (caps), "caps", &err);
  fail_unless (tc != NULL, "%s", err ? err->message : "");
  return tc;
}

GST_START_TEST (test_mux_events_order_and_multiset)
{
  const gchar *units[] = { "ctf/lttng-ust/custom-2cpu",
    "ctf/lttng-ust/pthread-multichan"
  };
  GPtrArray *in_lines = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *out_lines = g_ptr_array_new_with_free_func (g_free);
  guint64 n_in = 0, n_out = 0;
  gboolean ordered;
  gchar *a, *b, *desc;
  GstCtfTraceClass *tc;
  Run r, ri;
  guint i, u;

  NEED_CORPUS ();
  /* the inputs, each with its own trace class */
  for (u = 0; u < G_N_ELEMENTS (units); u++) {
    gchar *t = cpath (units[u]);

    desc = g_strdup_printf ("ctfsrc location=\"%s\" ! fakesink name=out "
        "signal-handoffs=true", t);
    run_pipeline (desc, &ri);
    fail_unless (ri.error == NULL, "%s", ri.error);
    tc = caps_tc (ri.caps);
    collect_events (tc, ri.buffers, in_lines, &ordered, &n_in);
    gst_ctf_trace_class_unref (tc);
    run_clear (&ri);
    g_free (desc);
    g_free (t);
  }

  a = cpath (units[0]);
  b = cpath (units[1]);
  desc = g_strdup_printf ("ctfmux name=m mode=events ! fakesink name=out "
      "signal-handoffs=true  ctfsrc location=\"%s\" ! m.  ctfsrc "
      "location=\"%s\" ! m.", a, b);
  run_pipeline (desc, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  tc = caps_tc (r.caps);
  collect_events (tc, r.buffers, out_lines, &ordered, &n_out);
  g_print ("ctfmux mode=events: %" G_GUINT64_FORMAT " events in, %"
      G_GUINT64_FORMAT " out, %u packets out, order %s\n", n_in, n_out,
      r.buffers->len, ordered ? "non-decreasing" : "BROKEN");
  fail_unless (ordered, "output timestamps go back");
  fail_unless_equals_uint64 (n_out, n_in);
  g_ptr_array_sort (in_lines, cmp_strp);
  g_ptr_array_sort (out_lines, cmp_strp);
  for (i = 0; i < in_lines->len; i++)
    fail_unless_equals_string (g_ptr_array_index (out_lines, i),
        g_ptr_array_index (in_lines, i));
  /* and buffer PTS never go back either */
  for (i = 1; i < r.buffers->len; i++)
    fail_unless (GST_BUFFER_PTS (g_ptr_array_index (r.buffers, i)) >=
        GST_BUFFER_PTS (g_ptr_array_index (r.buffers, i - 1)));
  gst_ctf_trace_class_unref (tc);
  run_clear (&r);
  g_free (desc);
  g_free (a);
  g_free (b);
  g_ptr_array_unref (in_lines);
  g_ptr_array_unref (out_lines);
}

GST_END_TEST;

/* ---- mode=events keeps what the tracer lost visible ---------------- */

GST_START_TEST (test_mux_events_keeps_lost_packets)
{
  gchar *unit, *tmp, *out, *desc, *err_out = NULL, *txt = NULL, *exp;
  gchar *argv[] = { (gchar *) "babeltrace2", NULL, NULL };
  gint status;
  Run r;

  NEED_CORPUS ();
  if (!have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 not installed\n", G_STRFUNC);
    return;
  }
  /* two streams of one class without stream_instance_id, packets lost in
   * both (packet_seq_num gaps of 2 and 3) */
  unit = cpath ("ctf/babeltrace/packet-seq-num/2-streams-lost-in-2");
  tmp = g_dir_make_tmp ("ctfmux-XXXXXX", NULL);
  out = g_build_filename (tmp, "merged", NULL);
  desc = g_strdup_printf ("ctfmux name=m mode=events ! ctfsink "
      "location=\"%s\"  ctfsrc location=\"%s\" ! m.", out, unit);
  run_pipeline (desc, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  argv[1] = out;
  fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
          NULL, &txt, &err_out, &status, NULL));
  fail_unless (strstr (err_out, "discarded 2 packets") != NULL, "%s",
      err_out);
  fail_unless (strstr (err_out, "discarded 3 packets") != NULL, "%s",
      err_out);
  exp = babeltrace2 (unit, NULL);
  fail_unless (exp != NULL);
  fail_unless_equals_string (txt, exp);
  g_free (exp);
  g_free (txt);
  g_free (err_out);
  run_clear (&r);
  rm_rf (tmp);
  g_free (desc);
  g_free (out);
  g_free (tmp);
  g_free (unit);
}

GST_END_TEST;

/* ---- restart: READY and PLAYING again gives the same output --------- */

static guint
play_to_eos (GstElement * p)
{
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;
  guint ok;

  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  return ok;
}

GST_START_TEST (test_mux_restart)
{
  gchar *a, *b, *desc;
  GstElement *p, *out;
  Run r;
  guint n_first;

  NEED_CORPUS ();
  a = cpath ("ctf/lttng-ust/libc-ls");
  b = cpath ("ctf/lttng-ust/dl-statedump");
  desc = g_strdup_printf ("ctfmux name=m ! fakesink name=out "
      "signal-handoffs=true  ctfsrc location=\"%s\" ! m.  ctfsrc "
      "location=\"%s\" ! m.", a, b);
  memset (&r, 0, sizeof (r));
  r.buffers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  p = gst_parse_launch (desc, NULL);
  fail_unless (p != NULL);
  out = gst_bin_get_by_name (GST_BIN (p), "out");
  g_signal_connect (out, "handoff", G_CALLBACK (on_handoff), &r);
  gst_object_unref (out);
  fail_unless (play_to_eos (p));
  n_first = r.buffers->len;
  fail_unless (n_first > 0);
  gst_element_set_state (p, GST_STATE_READY);
  fail_unless (play_to_eos (p));
  g_print ("ctfmux restart: %u packets, then %u\n", n_first,
      r.buffers->len - n_first);
  fail_unless_equals_int (r.buffers->len, 2 * n_first);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  run_clear (&r);
  g_free (desc);
  g_free (a);
  g_free (b);
}

GST_END_TEST;

/* ---- a flushing seek through ctfmux --------------------------------- */

static void
seek_and_run (const gchar * mode, guint * n_all, guint * n_after,
    GstClockTime * target, gboolean * ok_after)
{
  gchar *a = cpath ("ctf/lttng-ust/custom-2cpu");
  gchar *b = cpath ("ctf/lttng-ust/pthread-multichan");
  gchar *desc = g_strdup_printf ("ctfmux name=m mode=%s ! fakesink "
      "name=out signal-handoffs=true sync=false  ctfsrc location=\"%s\" ! "
      "m.  ctfsrc location=\"%s\" ! m.", mode, a, b);
  GstElement *p, *out;
  GstBus *bus;
  GstMessage *msg;
  Run r;
  guint i;
  GstPad *pad;
  GstEvent *ev;
  const GstSegment *seg;
  GstClockTime stream_target;

  /* whole run first */
  run_pipeline (desc, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  *n_all = r.buffers->len;
  fail_unless (*n_all > 10);
  *target = GST_BUFFER_PTS (g_ptr_array_index (r.buffers, *n_all / 2));
  fail_unless (*target > 1000 * GST_SECOND, "PTS are absolute");
  run_clear (&r);

  memset (&r, 0, sizeof (r));
  r.buffers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  p = gst_parse_launch (desc, NULL);
  out = gst_bin_get_by_name (GST_BIN (p), "out");
  g_signal_connect (out, "handoff", G_CALLBACK (on_handoff), &r);
  gst_object_unref (out);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PAUSED);
  fail_unless (gst_element_get_state (p, NULL, NULL, 30 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS);
  g_ptr_array_set_size (r.buffers, 0);
  /* seeks are in stream time (0 at the inputs' first packet): the
   * segment maps the target PTS to it */
  pad = gst_element_get_static_pad (out, "sink");
  ev = gst_pad_get_sticky_event (pad, GST_EVENT_SEGMENT, 0);
  fail_unless (ev != NULL);
  gst_event_parse_segment (ev, &seg);
  stream_target = gst_segment_to_stream_time (seg, GST_FORMAT_TIME, *target);
  fail_unless (GST_CLOCK_TIME_IS_VALID (stream_target));
  fail_unless (stream_target < *target / 2, "stream time starts at 0");
  gst_event_unref (ev);
  gst_object_unref (pad);
  fail_unless (gst_element_seek_simple (p, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, stream_target));
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  *n_after = r.buffers->len;
  *ok_after = TRUE;
  for (i = 0; i < r.buffers->len; i++) {
    GstBuffer *buf = g_ptr_array_index (r.buffers, i);

    /* every packet still ends at or after the target */
    if (GST_BUFFER_PTS (buf) + GST_BUFFER_DURATION (buf) < *target)
      *ok_after = FALSE;
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  run_clear (&r);
  g_free (desc);
  g_free (a);
  g_free (b);
}

GST_START_TEST (test_mux_flushing_seek)
{
  const gchar *modes[] = { "packets", "events" };
  guint m;

  NEED_CORPUS ();
  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    guint n_all, n_after;
    GstClockTime target;
    gboolean ok;

    seek_and_run (modes[m], &n_all, &n_after, &target, &ok);
    g_print ("ctfmux %s seek to the middle: %u of %u packets\n", modes[m],
        n_after, n_all);
    fail_unless (n_after > 0 && n_after < n_all, "%u of %u", n_after, n_all);
    fail_unless (ok, "a packet ends before the seek target");
  }
}

GST_END_TEST;

/* ---- clocks: refused, forced, offset ------------------------------- */

static gboolean
have_element (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (f)
    gst_object_unref (f);
  return f != NULL;
}

/* ns of every event of the stream classes of merge input @input. */
static GArray *
input_event_times (GstCaps * caps, GPtrArray * buffers, gint input)
{
  GstCtfTraceClass *tc = caps_tc (caps);
  GstCtfEventIter *it = gst_ctf_event_iter_new (tc);
  GArray *times = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint i;

  for (i = 0; i < buffers->len; i++) {
    GstBuffer *b = g_ptr_array_index (buffers, i);
    GstMapInfo map;
    const GstCtfPacketInfo *pi;

    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    fail_unless (gst_ctf_event_iter_set_packet (it, map.data, map.size,
            NULL));
    pi = gst_ctf_event_iter_get_packet_info (it);
    if (gst_ctf_trace_merge_get_input_of_stream_class (tc,
            pi->stream_class_id) == input) {
      while (gst_ctf_event_iter_next (it, NULL)) {
        gint64 ns = 0;

        fail_unless (gst_ctf_clock_class_cycles_to_ns_from_origin
            (pi->stream_class->default_clock,
                gst_ctf_event_iter_get_clock_value (it), &ns));
        g_array_append_val (times, ns);
      }
    }
    gst_buffer_unmap (b, &map);
  }
  gst_ctf_event_iter_free (it);
  gst_ctf_trace_class_unref (tc);
  return times;
}

GST_START_TEST (test_mux_tracedat_clocks_offset)
{
  gchar *ust, *dat, *desc, *tmp, *out, *t_out, *t_ust, *t_dat;
  Run r, r0, r1;
  GArray *t0, *t1;
  guint i, in_dat = 0;
  gint dat_input;
  const gint64 offset = 1500000000;     /* 1.5 s */

  NEED_CORPUS ();
  if (!have_element ("tracecmdsrc")) {
    g_print ("SKIP %s: tracecmdsrc not available\n", G_STRFUNC);
    return;
  }
  ust = cpath ("ctf/lttng-ust/libc-ls");
  dat = cpath ("tracedat/sched-irq-timer-wq.v7-zstd.dat");

  /* LTTng monotonic (Unix epoch origin) + trace.dat local clock (no
   * origin, no UUID): refused, as babeltrace2 does */
  desc = g_strdup_printf ("ctfmux name=m ! fakesink name=out "
      "signal-handoffs=true  ctfsrc location=\"%s\" ! m.  tracecmdsrc "
      "location=\"%s\" ! m.", ust, dat);
  run_pipeline (desc, &r);
  fail_unless (r.error != NULL, "clocks that cannot be correlated merged");
  fail_unless (strstr (r.error, "Cannot correlate clocks") != NULL, "%s",
      r.error);
  fail_unless (strstr (r.error, "gst-ctf-error-quark, code 11") != NULL,
      "%s", r.error);
  fail_unless_equals_int (GST_CTF_ERROR_CLOCK, 11);
  fail_unless_equals_int (r.buffers->len, 0);
  run_clear (&r);
  g_free (desc);

  /* forced: babeltrace2 reads the output, counts add up */
  tmp = g_dir_make_tmp ("ctfmux-XXXXXX", NULL);
  out = g_build_filename (tmp, "merged", NULL);
  desc = g_strdup_printf ("ctfmux name=m force-correlate=true ! ctfsink "
      "location=\"%s\"  ctfsrc location=\"%s\" ! m.  tracecmdsrc "
      "location=\"%s\" ! m.", out, ust, dat);
  run_pipeline (desc, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  run_clear (&r);
  g_free (desc);
  if (have_program ("babeltrace2")) {
    gchar *dat_ctf = g_build_filename (tmp, "dat", NULL);

    desc = g_strdup_printf ("tracecmdsrc location=\"%s\" ! ctfsink "
        "location=\"%s\"", dat, dat_ctf);
    run_pipeline (desc, &r);
    fail_unless (r.error == NULL, "%s", r.error);
    run_clear (&r);
    g_free (desc);
    t_out = babeltrace2 (out, NULL);
    t_ust = babeltrace2 (ust, NULL);
    t_dat = babeltrace2 (dat_ctf, NULL);
    fail_unless (t_out != NULL, "babeltrace2 cannot read the merged trace");
    fail_unless (t_ust != NULL && t_dat != NULL);
    g_print ("ctfmux LTTng-UST + trace.dat: %u events = %u + %u\n",
        count_lines (t_out), count_lines (t_ust), count_lines (t_dat));
    fail_unless_equals_int (count_lines (t_out), count_lines (t_ust) +
        count_lines (t_dat));
    g_free (t_out);
    g_free (t_ust);
    g_free (t_dat);
    g_free (dat_ctf);
  } else {
    g_print ("SKIP part of %s: babeltrace2 not installed\n", G_STRFUNC);
  }
  rm_rf (tmp);
  g_free (out);
  g_free (tmp);

  /* the pad offset moves every trace.dat time by exactly that much */
  desc = g_strdup_printf ("ctfmux name=m force-correlate=true ! fakesink "
      "name=out signal-handoffs=true  ctfsrc location=\"%s\" ! m.  "
      "tracecmdsrc location=\"%s\" ! m.", ust, dat);
  run_pipeline (desc, &r0);
  fail_unless (r0.error == NULL, "%s", r0.error);
  g_free (desc);
  desc = g_strdup_printf ("ctfmux name=m force-correlate=true "
      "sink_1::offset=%" G_GINT64_FORMAT " ! fakesink name=out "
      "signal-handoffs=true  ctfsrc location=\"%s\" ! m.sink_0  "
      "tracecmdsrc location=\"%s\" ! m.sink_1", offset, ust, dat);
  run_pipeline (desc, &r1);
  fail_unless (r1.error == NULL, "%s", r1.error);
  g_free (desc);
  /* input order in the merge: babeltrace2's trace order (by UUID); the
   * merge records each input's name as babeltrace2 names it: ctfsrc's
   * caps say it (the host name and the trace's path below the location),
   * the trace.dat one is named as a trace given itself (no host name) */
  {
    GstCtfTraceClass *mt = caps_tc (r0.caps);
    const GstCtfEnvEntry *e0 = gst_ctf_trace_class_find_env (mt,
        "gstctf_trace0_name");
    const GstCtfEnvEntry *e1 = gst_ctf_trace_class_find_env (mt,
        "gstctf_trace1_name");

    fail_unless (e0 != NULL && e0->is_string && e1 != NULL && e1->is_string);
    dat_input = strcmp (e0->str, "") == 0 ? 0 : 1;
    fail_unless_equals_string (dat_input == 0 ? e1->str : e0->str,
        "vm/ust/uid/0/64-bit");
    fail_unless_equals_string (dat_input == 0 ? e0->str : e1->str, "");
    gst_ctf_trace_class_unref (mt);
  }
  t0 = input_event_times (r0.caps, r0.buffers, dat_input);
  t1 = input_event_times (r1.caps, r1.buffers, dat_input);
  fail_unless (t0->len > 1000, "%u trace.dat events", t0->len);
  fail_unless_equals_int (t1->len, t0->len);
  for (i = 0; i < t0->len; i++)
    if (g_array_index (t1, gint64, i) == g_array_index (t0, gint64, i) +
        offset)
      in_dat++;
  g_print ("ctfmux offset %" G_GINT64_FORMAT " ns: %u of %u trace.dat "
      "events moved exactly\n", offset, in_dat, t0->len);
  fail_unless_equals_int (in_dat, t0->len);
  g_array_unref (t0);
  g_array_unref (t1);
  run_clear (&r0);
  run_clear (&r1);
  g_free (ust);
  g_free (dat);
}

GST_END_TEST;

/* ---- live upstream ------------------------------------------------- */

GST_START_TEST (test_mux_live_timeout)
{
  gchar *dir;
  GstCtfTraceDir *td;
  GstElement *pipe, *src0, *src1, *mux, *sink;
  GstCaps *caps;
  Run r;
  GstCtfStream *s;
  GstBus *bus;
  GstMessage *msg;
  guint j, pushed = 0, got_before;
  GstFlowReturn fr;

  NEED_CORPUS ();
  if (!have_element ("appsrc")) {
    g_print ("SKIP %s: appsrc not available\n", G_STRFUNC);
    return;
  }
  dir = cpath ("ctf/lttng-ust/libc-ls/ust/uid/0/64-bit");
  td = gst_ctf_trace_dir_open (dir, NULL);
  fail_unless (td != NULL);
  memset (&r, 0, sizeof (r));
  r.buffers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);

  pipe = gst_pipeline_new (NULL);
  src0 = gst_element_factory_make ("appsrc", NULL);
  src1 = gst_element_factory_make ("appsrc", NULL);
  mux = gst_element_factory_make ("ctfmux", NULL);
  sink = gst_element_factory_make ("fakesink", NULL);
  caps = gst_ctf_caps_new (td->metadata, td->trace_class->uuid);
  g_object_set (src0, "is-live", TRUE, "format", GST_FORMAT_TIME, "caps",
      caps, NULL);
  g_object_set (src1, "is-live", TRUE, "format", GST_FORMAT_TIME, "caps",
      caps, NULL);
  g_object_set (mux, "latency", (guint64) 50 * GST_MSECOND, NULL);
  g_object_set (sink, "signal-handoffs", TRUE, "sync", FALSE, "async",
      FALSE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &r);
  gst_bin_add_many (GST_BIN (pipe), src0, src1, mux, sink, NULL);
  fail_unless (gst_element_link (src0, mux));
  fail_unless (gst_element_link (src1, mux));
  fail_unless (gst_element_link (mux, sink));
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  /* only src0 gives packets, src1 stays silent (live, no EOS) */
  s = g_ptr_array_index (td->streams, 0);
  for (j = 0; j < s->packets->len && j < 5; j++) {
    GstCtfStreamPacket *p = &g_array_index (s->packets,
        GstCtfStreamPacket, j);
    GstBuffer *b = gst_buffer_new_memdup (p->file->data + p->entry->offset,
        p->entry->packet_size);

    g_signal_emit_by_name (src0, "push-buffer", b, &fr);
    gst_buffer_unref (b);
    fail_unless_equals_int (fr, GST_FLOW_OK);
    pushed++;
  }
  /* the mux must not wait for src1 forever */
  for (j = 0; j < 100; j++) {
    GST_OBJECT_LOCK (sink);
    got_before = r.buffers->len;
    GST_OBJECT_UNLOCK (sink);
    if (got_before >= pushed)
      break;
    g_usleep (20000);
  }
  g_print ("ctfmux live: %u of %u packets out while the other live pad "
      "was silent (after %u ms)\n", got_before, pushed, j * 20);
  fail_unless_equals_int (got_before, pushed);

  g_signal_emit_by_name (src0, "end-of-stream", &fr);
  g_signal_emit_by_name (src1, "end-of-stream", &fr);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  gst_caps_unref (caps);
  run_clear (&r);
  gst_ctf_trace_dir_free (td);
  g_free (dir);
}

GST_END_TEST;

/* ---- library merge in ctfsrc: multi-trace corpus units -------------- */

GST_START_TEST (test_ctfsrc_multi_trace_units)
{
  const gchar *units[][2] = {
    {"ctf/babeltrace", "succeed/multi-domains"},
    {"ctf/babeltrace", "succeed/session-rotation"},
    {"ctf/other", "tracecompass/cyg-profile"},
  };
  guint u, n_ok = 0;

  NEED_CORPUS ();
  for (u = 0; u < G_N_ELEMENTS (units); u++) {
    gchar *unit = g_build_filename (corpus (), units[u][0], units[u][1],
        NULL);
    gchar *oracle = g_strdup_printf ("%s/%s/oracle/%s.txt", corpus (),
        units[u][0], units[u][1]);
    gchar *tmp = g_dir_make_tmp ("ctfmux-XXXXXX", NULL);
    gchar *txt = g_build_filename (tmp, "out.txt", NULL);
    gchar *desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctftextsink "
        "location=\"%s\"", unit, txt);
    gchar *expected = NULL, *got = NULL;
    Run r;

    run_pipeline (desc, &r);
    fail_unless (r.error == NULL, "%s: %s", units[u][1], r.error);
    fail_unless (g_file_get_contents (oracle, &expected, NULL, NULL));
    fail_unless (g_file_get_contents (txt, &got, NULL, NULL));
    g_print ("ctfsrc %s (several traces): %u lines, oracle %u: %s\n",
        units[u][1], count_lines (got), count_lines (expected),
        strcmp (got, expected) == 0 ? "identical" : "DIFFERENT");
    if (strcmp (got, expected) == 0)
      n_ok++;
    run_clear (&r);
    rm_rf (tmp);
    g_free (expected);
    g_free (got);
    g_free (desc);
    g_free (txt);
    g_free (tmp);
    g_free (oracle);
    g_free (unit);
  }
  fail_unless_equals_int (n_ok, G_N_ELEMENTS (units));
}

GST_END_TEST;

/* ---- the merge library alone ---------------------------------------- */

GST_START_TEST (test_merge_env_and_clocks)
{
  const gchar *a_tsdl = "/* CTF 1.8 */\n"
      "trace { major = 1; minor = 8; byte_order = le;\n"
      "  uuid = \"11111111-2222-3333-4444-555555555555\";\n"
      "  packet.header := struct { integer { size = 32; align = 8; } magic;\n"
      "    integer { size = 8; align = 8; } uuid[16];\n"
      "    integer { size = 32; align = 8; } stream_id; }; };\n"
      "env { hostname = \"h\"; procname = \"a\"; vpid = 1; };\n"
      "clock { name = monotonic; freq = 1000000000; offset_s = 10; };\n"
      "stream { id = 0; packet.context := struct {\n"
      "  integer { size = 64; align = 8; map = clock.monotonic.value; } "
      "timestamp_begin; }; };\n"
      "event { name = \"ev\"; id = 0; stream_id = 0; fields := struct {\n"
      "  integer { size = 32; align = 8; } x; }; };\n";
  gchar *b_tsdl;
  GstCtfTraceClass *tcs[2];
  const gchar *names[2] = { "A", "B" };
  gint64 offsets[2] = { 0, 250 };
  GstCtfTraceMerge *m;
  GstCtfTraceClass *mt;
  const GstCtfEnvEntry *e;
  guint64 id;
  GError *err = NULL;

  b_tsdl = g_strdup (a_tsdl);
  memcpy (strstr (b_tsdl, "11111111"), "99999999", 8);
  memcpy (strstr (b_tsdl, "\"a\""), "\"b\"", 3);
  memcpy (strstr (b_tsdl, "vpid = 1"), "vpid = 2", 8);
  tcs[0] = gst_ctf_tsdl_parse (a_tsdl, "a", &err);
  fail_unless (tcs[0] != NULL, "%s", err ? err->message : "");
  tcs[1] = gst_ctf_tsdl_parse (b_tsdl, "b", &err);
  fail_unless (tcs[1] != NULL, "%s", err ? err->message : "");

  /* no Unix epoch origin, different (absent) clock UUIDs: refused */
  fail_if (gst_ctf_trace_merge_check_clocks (tcs, names, 2, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK));
  g_clear_error (&err);
  /* forced: fine */
  fail_unless (gst_ctf_trace_merge_check_clocks_full (tcs, names, 2,
          GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH, &err));
  /* a trace without clock next to one with a clock: refused even forced */
  {
    const gchar *noclock = "/* CTF 1.8 */\n"
        "trace { major = 1; minor = 8; byte_order = le; };\n"
        "stream { id = 0; };\n"
        "event { name = \"e\"; id = 0; fields := struct { "
        "integer { size = 8; align = 8; } x; }; };\n";
    GstCtfTraceClass *mix[2];

    mix[0] = tcs[0];
    mix[1] = gst_ctf_tsdl_parse (noclock, "noclock", &err);
    fail_unless (mix[1] != NULL, "%s", err ? err->message : "");
    fail_if (gst_ctf_trace_merge_check_clocks_full (mix, NULL, 2,
            GST_CTF_TRACE_MERGE_FORCE_UNIX_EPOCH, &err));
    fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK));
    g_clear_error (&err);
    gst_ctf_trace_class_unref (mix[1]);
  }

  m = gst_ctf_trace_merge_new_full (tcs, names, offsets, 2,
      GST_CTF_TRACE_MERGE_NONE, &err);
  fail_unless (m != NULL, "%s", err ? err->message : "");
  mt = gst_ctf_trace_merge_get_trace_class (m);
  fail_unless_equals_int (mt->stream_classes->len, 2);
  fail_unless (gst_ctf_trace_merge_map_stream_class (m, 1, 0, &id));
  fail_unless_equals_uint64 (id, 1);
  fail_unless (!gst_ctf_trace_merge_packets_reencoded (m));
  /* common env kept, conflicting kept per input */
  e = gst_ctf_trace_class_find_env (mt, "hostname");
  fail_unless (e != NULL && g_strcmp0 (e->str, "h") == 0);
  fail_unless (gst_ctf_trace_class_find_env (mt, "procname") == NULL);
  e = gst_ctf_trace_merge_find_env (mt, 1, "procname");
  fail_unless (e != NULL && g_strcmp0 (e->str, "b") == 0);
  e = gst_ctf_trace_merge_find_env (mt, 0, "vpid");
  fail_unless (e != NULL && e->integer == 1);
  fail_unless_equals_int (gst_ctf_trace_merge_get_input_of_stream_class (mt,
          1), 1);
  /* clocks: the second is moved by 250 ns, so it differs and is renamed */
  fail_unless_equals_int (mt->clock_classes->len, 2);
  {
    const GstCtfStreamClass *s0 = gst_ctf_trace_class_find_stream_class (mt,
        0), *s1 = gst_ctf_trace_class_find_stream_class (mt, 1);
    gint64 n0, n1;

    fail_unless (s0->default_clock != s1->default_clock);
    fail_unless (gst_ctf_clock_class_cycles_to_ns_from_origin
        (s0->default_clock, 1000, &n0));
    fail_unless (gst_ctf_clock_class_cycles_to_ns_from_origin
        (s1->default_clock, 1000, &n1));
    fail_unless_equals_int64 (n1 - n0, 250);
    fail_unless (strcmp (((GstCtfClockClass *) g_ptr_array_index
                (mt->clock_classes, 1))->name, "monotonic") != 0);
  }
  /* a packet of input 1: stream_id and uuid patched in a copy */
  {
    guint8 pkt[64] = { 0 };
    GBytes *out;
    GstCtfPacketInfo info;
    gsize n;
    const guint8 *d;

    pkt[0] = 0xc1;
    pkt[1] = 0x1f;
    pkt[2] = 0xfc;
    pkt[3] = 0xc1;
    memcpy (pkt + 4, tcs[1]->uuid, 16);
    out = gst_ctf_trace_merge_rewrite_packet (m, 1, pkt, sizeof (pkt), 0,
        &id, &err);
    fail_unless (out != NULL, "%s", err ? err->message : "");
    fail_unless_equals_uint64 (id, 1);
    d = g_bytes_get_data (out, &n);
    fail_unless (gst_ctf_packet_read_info (mt, d, n, &info, &err), "%s",
        err ? err->message : "");
    fail_unless_equals_uint64 (info.stream_class_id, 1);
    fail_unless (memcmp (info.uuid, mt->uuid, 16) == 0);
    fail_unless (pkt[20] == 0);       /* the input is not touched */
    {
      /* the head alone: only the header bytes up to the patched fields,
       * and with the rest of the input, the same packet */
      gsize n_replaced = 0, packet_bytes = 0, hn;
      GBytes *head = gst_ctf_trace_merge_rewrite_packet_head (m, 1, pkt,
          sizeof (pkt), 0, NULL, &n_replaced, &packet_bytes, &err);
      const guint8 *hd;

      fail_unless (head != NULL, "%s", err ? err->message : "");
      hd = g_bytes_get_data (head, &hn);
      fail_unless_equals_uint64 (hn, n_replaced);
      fail_unless (n_replaced > 0 && n_replaced < packet_bytes);
      fail_unless_equals_uint64 (packet_bytes, n);
      fail_unless (memcmp (hd, d, hn) == 0);
      fail_unless (memcmp (pkt + n_replaced, d + hn, n - hn) == 0);
      g_bytes_unref (head);
    }
    g_bytes_unref (out);
  }
  gst_ctf_trace_merge_free (m);
  gst_ctf_trace_class_unref (tcs[0]);
  gst_ctf_trace_class_unref (tcs[1]);
  g_free (b_tsdl);
}

GST_END_TEST;

/* ---- mode=events: bodies copied as bytes vs re-encoded ------------- */

/* The counts ctfmux logs at the end of events mode (INFO). */
typedef struct
{
  gboolean seen;
  guint64 copied;
  guint64 reencoded;
} CopyCounts;

static void
count_log (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  CopyCounts *c = user_data;
  const gchar *text;
  guint64 a, b;

  if (strcmp (gst_debug_category_get_name (category), "ctfmux") != 0)
    return;
  text = gst_debug_message_get (message);
  if (text && sscanf (text, "events: %" G_GUINT64_FORMAT " bodies copied, %"
          G_GUINT64_FORMAT " re-encoded", &a, &b) == 2) {
    c->seen = TRUE;
    c->copied = a;
    c->reencoded = b;
  }
}

/* ctfmux mode=events copy-bodies=@copy of @inputs (pipeline text giving
 * the inputs, linked to `m.`) into a new directory; returns
 * `babeltrace2 OUT` and the counts. */
static gchar *
mux_events_bt2 (const gchar * inputs, gboolean copy, CopyCounts * counts)
{
  gchar *tmp = g_dir_make_tmp ("ctfmux-XXXXXX", NULL);
  gchar *out = g_build_filename (tmp, "merged", NULL);
  gchar *desc = g_strdup_printf ("ctfmux name=m mode=events copy-bodies=%s "
      "! ctfsink location=\"%s\" %s", copy ? "true" : "false", out, inputs);
  gchar *text;
  Run r;

  memset (counts, 0, sizeof (*counts));
  gst_debug_set_threshold_for_name ("ctfmux", GST_LEVEL_INFO);
  gst_debug_add_log_function (count_log, counts, NULL);
  run_pipeline (desc, &r);
  gst_debug_remove_log_function (count_log);
  fail_unless (r.error == NULL, "%s", r.error);
  text = babeltrace2 (out, NULL);
  fail_unless (text != NULL, "babeltrace2 cannot read %s", out);
  fail_unless (counts->seen, "no copy counts logged");
  g_print ("ctfmux events copy-bodies=%d: %" G_GUINT64_FORMAT " copied, %"
      G_GUINT64_FORMAT " re-encoded, %u lines\n", copy, counts->copied,
      counts->reencoded, count_lines (text));
  run_clear (&r);
  rm_rf (tmp);
  g_free (desc);
  g_free (out);
  g_free (tmp);
  return text;
}

/* Both paths give what babeltrace2 prints for the inputs: LTTng-UST
 * fields are byte-aligned, so every body is copied. */
GST_START_TEST (test_mux_events_copy_bodies)
{
  gchar *ta, *tb, *inputs, *expected, *copied, *reencoded;
  CopyCounts c1, c2;

  NEED_CORPUS ();
  if (!have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 not installed\n", G_STRFUNC);
    return;
  }
  ta = cpath ("ctf/lttng-ust/libc-ls");
  tb = cpath ("ctf/lttng-ust/dl-statedump");
  inputs = g_strdup_printf ("ctfsrc location=\"%s\" ! m.  ctfsrc "
      "location=\"%s\" ! m.", ta, tb);
  expected = babeltrace2 (ta, tb);
  fail_unless (expected != NULL);
  copied = mux_events_bt2 (inputs, TRUE, &c1);
  reencoded = mux_events_bt2 (inputs, FALSE, &c2);
  fail_unless (c1.copied > 0 && c1.reencoded == 0);
  fail_unless (c2.copied == 0 && c2.reencoded == c1.copied);
  fail_unless_equals_uint64 (c1.copied, count_lines (expected));
  fail_unless (strcmp (copied, expected) == 0,
      "copied bodies: babeltrace2 OUT differs from babeltrace2 T1 T2");
  fail_unless (strcmp (reencoded, expected) == 0,
      "re-encoded: babeltrace2 OUT differs from babeltrace2 T1 T2");
  g_free (expected);
  g_free (copied);
  g_free (reencoded);
  g_free (inputs);
  g_free (ta);
  g_free (tb);
}

GST_END_TEST;

/* Score-P's 64-bit aligned payloads: an output packet that starts in the
 * middle of a source packet (another stream's events came between) puts
 * the body at another offset modulo 64 bits, and those events must be
 * re-encoded; the output still prints exactly the oracle. */
GST_START_TEST (test_mux_events_copy_fallback)
{
  const gchar *unit = "tracecompass/bandwidth_issue";
  gchar *t, *inputs, *oracle_path, *oracle = NULL, *copied, *reencoded;
  CopyCounts c1, c2;

  NEED_CORPUS ();
  if (!have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 not installed\n", G_STRFUNC);
    return;
  }
  t = g_build_filename (corpus (), "ctf/other", unit, NULL);
  oracle_path = g_strdup_printf ("%s/ctf/other/oracle/%s.txt", corpus (),
      unit);
  fail_unless (g_file_get_contents (oracle_path, &oracle, NULL, NULL));
  inputs = g_strdup_printf ("ctfsrc location=\"%s\" ! m.", t);
  copied = mux_events_bt2 (inputs, TRUE, &c1);
  reencoded = mux_events_bt2 (inputs, FALSE, &c2);
  /* both paths taken */
  fail_unless (c1.copied > 0 && c1.reencoded > 0);
  fail_unless_equals_uint64 (c1.copied + c1.reencoded, count_lines (oracle));
  fail_unless (c2.copied == 0);
  fail_unless (strcmp (copied, oracle) == 0,
      "copied bodies: babeltrace2 OUT differs from the oracle");
  fail_unless (strcmp (reencoded, oracle) == 0,
      "re-encoded: babeltrace2 OUT differs from the oracle");
  g_free (oracle);
  g_free (oracle_path);
  g_free (copied);
  g_free (reencoded);
  g_free (inputs);
  g_free (t);
}

GST_END_TEST;

static Suite *
ctfmux_suite (void)
{
  Suite *s = suite_create ("ctfmux");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_merge_env_and_clocks);
  tcase_add_test (tc, test_mux_single_input_same_buffers);
  tcase_add_test (tc, test_mux_ties_pad_order);
  tcase_add_test (tc, test_mux_caps_change_single_pad);
  tcase_add_test (tc, test_mux_restart);
  tcase_add_test (tc, test_mux_flushing_seek);
  tcase_add_test (tc, test_mux_two_ust_babeltrace2);
  tcase_add_test (tc, test_mux_reencoded_headers);
  tcase_add_test (tc, test_mux_events_order_and_multiset);
  tcase_add_test (tc, test_mux_events_keeps_lost_packets);
  tcase_add_test (tc, test_mux_events_copy_bodies);
  tcase_add_test (tc, test_mux_events_copy_fallback);
  tcase_add_test (tc, test_mux_tracedat_clocks_offset);
  tcase_add_test (tc, test_mux_live_timeout);
  tcase_add_test (tc, test_ctfsrc_multi_trace_units);
  return s;
}

GST_CHECK_MAIN (ctfmux);
