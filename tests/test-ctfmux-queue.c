/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfmux's sink pad queues without live inputs (issue 21):
 *
 * - a pad holds up to 64 packets (or 1 MiB, at least one packet) while
 *   another pad has none: an input thread pushes that many and then
 *   waits; every packet comes out in time order once the other pad ends;
 * - an input thread waiting for room gets FLUSHING on FLUSH_START, the
 *   pad takes 64 packets again after FLUSH_STOP; it gets FLUSHING when
 *   the element goes to NULL;
 * - the LATENCY query answers the `latency` set by the application (plus
 *   upstream's), and the property is that value again after the run;
 * - live: after a timeout with no data anywhere the pads still take
 *   packets; a GAP event gives no output buffer.
 *
 * Inputs are made-up packets of one inline trace class, whose buffers
 * pass through (same metadata on both pads): no corpus needed.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <string.h>

#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"

/* what ctfmux lets a sink pad hold without live inputs */
#define MAX_BUFFERS 64
#define MAX_BYTES (1024 * 1024)

static const gchar *tsdl = "/* CTF 1.8 */\n"
    "trace { major = 1; minor = 8; byte_order = le; };\n"
    "stream { id = 0; };\n"
    "event { name = \"e\"; id = 0; fields := struct { "
    "integer { size = 8; align = 8; } x; }; };\n";

typedef struct
{
  GstHarness *h;
  guint n;                      /* packets to push */
  gsize size;
  GstClockTime pts0;
  gint pushed;                  /* atomic: pushes that returned OK */
  GstFlowReturn last;           /* the flow that stopped it, or OK */
  GThread *thread;
} Pusher;

static GstBuffer *
packet (gsize size, GstClockTime pts)
{
  GstBuffer *b = gst_buffer_new_allocate (NULL, size, NULL);

  gst_buffer_memset (b, 0, 0, size);
  GST_BUFFER_PTS (b) = pts;
  gst_buffer_add_ctf_packet_meta (b)->stream_class_id = 0;
  return b;
}

static gpointer
push_thread (gpointer data)
{
  Pusher *p = data;
  guint i;

  p->last = GST_FLOW_OK;
  for (i = 0; i < p->n; i++) {
    GstFlowReturn fr = gst_harness_push (p->h, packet (p->size, p->pts0 + i));

    if (fr != GST_FLOW_OK) {
      p->last = fr;
      break;
    }
    g_atomic_int_inc (&p->pushed);
  }
  return NULL;
}

static void
pusher_start (Pusher * p, GstHarness * h, guint n, gsize size,
    GstClockTime pts0)
{
  p->h = h;
  p->n = n;
  p->size = size;
  p->pts0 = pts0;
  p->pushed = 0;
  p->last = GST_FLOW_OK;
  p->thread = g_thread_new ("pusher", push_thread, p);
}

/* The pushes that returned once the thread waits: at least @expect
 * (waited for up to 20 s), then 300 ms for any more. */
static gint
pushed_when_blocked (Pusher * p, gint expect)
{
  guint i;

  for (i = 0; i < 2000 && g_atomic_int_get (&p->pushed) < expect; i++)
    g_usleep (10000);
  g_usleep (300000);
  return g_atomic_int_get (&p->pushed);
}

/* ctfmux with harnesses on sink_0 (@h, which also takes the output) and
 * sink_1 (@h1), neither live. */
static void
mux_new (GstHarness ** h, GstHarness ** h1, guint64 latency)
{
  GstPad *p0;

  *h = gst_harness_new_with_padnames ("ctfmux", NULL, "src");
  g_object_set ((*h)->element, "latency", latency, NULL);
  *h1 = gst_harness_new_with_element ((*h)->element, "sink_1", NULL);
  p0 = gst_element_request_pad_simple ((*h)->element, "sink_0");
  gst_harness_add_element_sink_pad (*h, p0);
  gst_object_unref (p0);
  gst_harness_set_live (*h, FALSE);
  gst_harness_set_live (*h1, FALSE);
  gst_harness_set_src_caps (*h1, gst_ctf_caps_new (tsdl, NULL));
  gst_harness_set_src_caps (*h, gst_ctf_caps_new (tsdl, NULL));
}

/* sink_1 gives one packet at time 0 and sink_0 one at 1000: the first
 * goes out, then sink_1 has nothing and sink_0 fills up. */
static void
mux_prime (GstHarness * h, GstHarness * h1, gsize size)
{
  GstBuffer *o;

  fail_unless_equals_int (gst_harness_push (h1, packet (size, 0)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, packet (size, 1000)),
      GST_FLOW_OK);
  o = gst_harness_pull (h);
  fail_unless (o != NULL);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (o), 0);
  gst_buffer_unref (o);
}

/* sink_1 ends: every packet of sink_0 comes out in order. */
static void
mux_drain (GstHarness * h, GstHarness * h1, Pusher * p)
{
  guint i;

  gst_harness_push_event (h1, gst_event_new_eos ());
  g_thread_join (p->thread);
  fail_unless_equals_int (p->last, GST_FLOW_OK);
  fail_unless_equals_int (p->pushed, p->n);
  gst_harness_push_event (h, gst_event_new_eos ());
  for (i = 0; i <= p->n; i++) {
    GstBuffer *o = gst_harness_pull (h);

    fail_unless (o != NULL, "packet %u missing", i);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (o),
        i == 0 ? 1000 : p->pts0 + i - 1);
    gst_buffer_unref (o);
  }
}

static void
queue_depth (gsize size, gint expect)
{
  GstHarness *h, *h1;
  Pusher p;

  mux_new (&h, &h1, 0);
  mux_prime (h, h1, size);
  pusher_start (&p, h, 300, size, 2000);
  /* the pad holds its first packet and what the thread pushed */
  fail_unless_equals_int (pushed_when_blocked (&p, expect), expect);
  mux_drain (h, h1, &p);
  gst_harness_teardown (h1);
  gst_harness_teardown (h);
}

GST_START_TEST (test_mux_queue_depth)
{
  queue_depth (1024, MAX_BUFFERS - 1);
}

GST_END_TEST;

GST_START_TEST (test_mux_queue_bytes)
{
  /* 256 KiB packets: 4 make 1 MiB */
  queue_depth (MAX_BYTES / 4, 3);
}

GST_END_TEST;

GST_START_TEST (test_mux_queue_flush)
{
  GstHarness *h, *h1;
  Pusher p;

  mux_new (&h, &h1, 0);
  mux_prime (h, h1, 1024);
  pusher_start (&p, h, 300, 1024, 2000);
  fail_unless_equals_int (pushed_when_blocked (&p, MAX_BUFFERS - 1),
      MAX_BUFFERS - 1);
  /* the waiting thread gets FLUSHING */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  g_thread_join (p.thread);
  fail_unless_equals_int (p.last, GST_FLOW_FLUSHING);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  {
    GstSegment seg;

    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  }
  /* the flush emptied the pad: it holds 64 packets again */
  pusher_start (&p, h, 300, 1024, 5000);
  fail_unless_equals_int (pushed_when_blocked (&p, MAX_BUFFERS),
      MAX_BUFFERS);
  gst_element_set_state (h->element, GST_STATE_NULL);
  g_thread_join (p.thread);
  fail_unless_equals_int (p.last, GST_FLOW_FLUSHING);
  gst_harness_teardown (h1);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_mux_queue_latency)
{
  GstHarness *h, *h1;
  Pusher p;
  GstQuery *q;
  gboolean live;
  GstClockTime min, max;
  guint64 latency;

  mux_new (&h, &h1, 5 * GST_MSECOND);
  mux_prime (h, h1, 1024);
  pusher_start (&p, h, 300, 1024, 2000);
  fail_unless_equals_int (pushed_when_blocked (&p, MAX_BUFFERS - 1),
      MAX_BUFFERS - 1);
  q = gst_query_new_latency ();
  fail_unless (gst_pad_peer_query (h->sinkpad, q));
  gst_query_parse_latency (q, &live, &min, &max);
  gst_query_unref (q);
  fail_if (live);
  fail_unless_equals_uint64 (min, 5 * GST_MSECOND);
  fail_unless_equals_uint64 (max, GST_CLOCK_TIME_NONE);
  mux_drain (h, h1, &p);
  gst_element_set_state (h->element, GST_STATE_NULL);
  g_object_get (h->element, "latency", &latency, NULL);
  fail_unless_equals_uint64 (latency, 5 * GST_MSECOND);
  gst_harness_teardown (h1);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- live inputs (GstHarness is live) ------------------------------- */

/* A live timeout with no data on any pad (aggregate answers NEED_DATA, a
 * custom error value): the pads take packets after it.  appsrc is live,
 * the pipeline runs on the system clock. */
static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gint * n)
{
  g_atomic_int_inc (n);
}

GST_START_TEST (test_mux_live_need_data)
{
  GstElement *pipe, *src0, *src1, *mux, *sink;
  GstCaps *caps;
  GstBus *bus;
  GstMessage *msg;
  GstFlowReturn fr;
  GstElementFactory *f = gst_element_factory_find ("appsrc");
  gint got = 0;
  guint i;

  if (f == NULL) {
    g_print ("SKIP %s: appsrc not available\n", G_STRFUNC);
    return;
  }
  gst_object_unref (f);
  pipe = gst_pipeline_new (NULL);
  src0 = gst_element_factory_make ("appsrc", NULL);
  src1 = gst_element_factory_make ("appsrc", NULL);
  mux = gst_element_factory_make ("ctfmux", NULL);
  sink = gst_element_factory_make ("fakesink", NULL);
  caps = gst_ctf_caps_new (tsdl, NULL);
  g_object_set (src0, "is-live", TRUE, "format", GST_FORMAT_TIME, "caps",
      caps, NULL);
  g_object_set (src1, "is-live", TRUE, "format", GST_FORMAT_TIME, "caps",
      caps, NULL);
  g_object_set (mux, "latency", (guint64) 10 * GST_MSECOND, NULL);
  g_object_set (sink, "signal-handoffs", TRUE, "sync", FALSE, "async",
      FALSE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &got);
  gst_bin_add_many (GST_BIN (pipe), src0, src1, mux, sink, NULL);
  fail_unless (gst_element_link (src0, mux));
  fail_unless (gst_element_link (src1, mux));
  fail_unless (gst_element_link (mux, sink));
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  /* several timeouts without any data */
  g_usleep (300000);
  for (i = 0; i < 3; i++) {
    GstBuffer *b = packet (1024, 1000 + i);

    /* (the action signal does not take the buffer) */
    g_signal_emit_by_name (src0, "push-buffer", b, &fr);
    gst_buffer_unref (b);
    fail_unless_equals_int (fr, GST_FLOW_OK);
  }
  g_signal_emit_by_name (src0, "end-of-stream", &fr);
  g_signal_emit_by_name (src1, "end-of-stream", &fr);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    fail ("error instead of EOS: %s", err->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  fail_unless_equals_int (g_atomic_int_get (&got), 3);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* A GAP event (lttnglivesrc sends them) is time going by, not a packet:
 * nothing of it comes out. */
GST_START_TEST (test_mux_gap_event)
{
  GstHarness *h = gst_harness_new_with_padnames ("ctfmux", "sink_0", "src");
  GstBuffer *o;

  gst_harness_set_src_caps (h, gst_ctf_caps_new (tsdl, NULL));
  fail_unless (gst_harness_push_event (h, gst_event_new_gap (500, 100)));
  fail_unless_equals_int (gst_harness_push (h, packet (1024, 1000)),
      GST_FLOW_OK);
  gst_harness_push_event (h, gst_event_new_eos ());
  o = gst_harness_pull (h);
  fail_unless (o != NULL);
  fail_if (GST_BUFFER_FLAG_IS_SET (o, GST_BUFFER_FLAG_GAP));
  fail_unless_equals_uint64 (GST_BUFFER_PTS (o), 1000);
  fail_unless_equals_uint64 (gst_buffer_get_size (o), 1024);
  gst_buffer_unref (o);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
ctfmux_queue_suite (void)
{
  Suite *s = suite_create ("ctfmux-queue");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_mux_queue_depth);
  tcase_add_test (tc, test_mux_queue_bytes);
  tcase_add_test (tc, test_mux_queue_flush);
  tcase_add_test (tc, test_mux_queue_latency);
  tcase_add_test (tc, test_mux_live_need_data);
  tcase_add_test (tc, test_mux_gap_event);
  return s;
}

GST_CHECK_MAIN (ctfmux_queue);
