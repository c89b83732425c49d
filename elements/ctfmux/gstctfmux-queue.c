/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfmux: how many packets each sink pad holds (issue 21).
 *
 * GstAggregator keeps one buffer per sink pad when its `latency` is 0 and
 * no upstream is live: every packet is then a hand-off between the input's
 * streaming thread and the aggregate thread (both sleep and wake once per
 * packet), and the base class looks at every sink pad before each
 * aggregate call.  With live inputs the base class keeps two buffers per
 * pad and the latency bounds the waits: nothing here changes that.
 *
 * Without live inputs, ctfmux lets each pad hold up to QUEUE_MAX_BUFFERS
 * packets or QUEUE_MAX_BYTES (at least one packet): the base class's
 * bound, a time span of the queued buffers not above `latency`, is lifted
 * by setting `latency` to DEEP_LATENCY (it means nothing else without live
 * inputs; the LATENCY query still answers the latency set before), and a
 * chain function in front of the base class's (after the pad's probes:
 * it counts only what the base class queued) blocks the input's
 * streaming thread when the pad is full, until the aggregate thread has
 * taken half of it.  One aggregate call then outputs every
 * packet that is certainly next (as long as every pad that is not at EOS
 * has one queued), and an input thread wakes once per half queue.
 *
 * The wait ends on FLUSH_START (the pad is flushing), when the
 * element goes to READY, when the pad is released and when the aggregate
 * thread stops on a flow error or EOS (the input gets that flow, as the
 * base class's own wait gives it); it also looks again every 100 ms.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfmux-private.h"

#define GST_CAT_DEFAULT gst_ctf_mux_debug

/* Packets and bytes a sink pad holds at most without live inputs (at
 * least one packet). */
#define QUEUE_MAX_BUFFERS 64
#define QUEUE_MAX_BYTES (1024 * 1024)
/* The `latency` (ns) that lifts GstAggregator's bound on the time span of
 * a pad's queued buffers. */
#define DEEP_LATENCY ((guint64) G_MAXINT64 / 2)
/* How often a blocked input thread looks at its pad's state anyway. */
#define WAIT_RECHECK (100 * G_TIME_SPAN_MILLISECOND)

/* The aggregator makes empty GAP buffers of GAP events, which its chain
 * function does not see: neither side counts them. */
static inline gboolean
counted (GstBuffer * buf)
{
  return !(GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP) &&
      gst_buffer_get_size (buf) == 0);
}

static inline gboolean
is_full (GstCtfMuxPad * pad)
{
  return pad->q_buffers >= QUEUE_MAX_BUFFERS || pad->q_bytes >= QUEUE_MAX_BYTES;
}

static gboolean
pad_is_flushing (GstCtfMuxPad * pad)
{
  gboolean flushing;

  GST_OBJECT_LOCK (pad);
  flushing = GST_PAD_IS_FLUSHING (pad);
  GST_OBJECT_UNLOCK (pad);
  return flushing;
}

static void
uncount (GstCtfMuxPad * pad, gsize size)
{
  g_mutex_lock (&pad->q_lock);
  /* (a flush may have reset the counts meanwhile: never below 0) */
  pad->q_buffers = pad->q_buffers > 0 ? pad->q_buffers - 1 : 0;
  pad->q_bytes = pad->q_bytes > size ? pad->q_bytes - size : 0;
  if (pad->q_waiting && pad->q_buffers <= QUEUE_MAX_BUFFERS / 2 &&
      pad->q_bytes <= QUEUE_MAX_BYTES / 2) {
    pad->q_waiting = FALSE;
    g_cond_broadcast (&pad->q_cond);
  }
  g_mutex_unlock (&pad->q_lock);
}

/* In front of GstAggregator's chain function (after the pad's probes):
 * waits for room, counts what the base class queued. */
static GstFlowReturn
queue_chain (GstPad * gpad, GstObject * parent, GstBuffer * buf)
{
  GstCtfMuxPad *pad = GST_CTF_MUX_PAD (gpad);
  GstFlowReturn halt, ret;
  gsize size;

  if (!counted (buf))
    return pad->agg_chain (gpad, parent, buf);
  size = gst_buffer_get_size (buf);
  g_mutex_lock (&pad->q_lock);
  while (is_full (pad) && pad->q_halt == GST_FLOW_OK) {
    if (pad_is_flushing (pad)) {
      /* the base class answers with the pad's flow */
      g_mutex_unlock (&pad->q_lock);
      return pad->agg_chain (gpad, parent, buf);
    }
    pad->q_waiting = TRUE;
    g_cond_wait_until (&pad->q_cond, &pad->q_lock,
        g_get_monotonic_time () + WAIT_RECHECK);
  }
  halt = pad->q_halt;
  if (halt == GST_FLOW_OK) {
    pad->q_buffers++;
    pad->q_bytes += size;
  }
  g_mutex_unlock (&pad->q_lock);
  if (halt != GST_FLOW_OK) {
    /* the flow the base class's pads give after it stopped */
    GST_DEBUG_OBJECT (pad, "not queued: %s", gst_flow_get_name (halt));
    gst_buffer_unref (buf);
    return halt;
  }
  ret = pad->agg_chain (gpad, parent, buf);
  if (ret != GST_FLOW_OK)
    uncount (pad, size);        /* not queued */
  return ret;
}

/* After GstAggregatorPad's constructed(), which set its chain function. */
void
gst_ctf_mux_queue_add_pad (GstCtfMuxPad * pad)
{
  pad->agg_chain = GST_PAD_CHAINFUNC (pad);
  gst_pad_set_chain_function (GST_PAD (pad), queue_chain);
}

/* The aggregate thread popped @buf from @pad. */
void
gst_ctf_mux_queue_popped (GstCtfMuxPad * pad, GstBuffer * buf)
{
  if (counted (buf))
    uncount (pad, gst_buffer_get_size (buf));
}

/* @pad's queue is empty and open (start, FLUSH_STOP). */
void
gst_ctf_mux_queue_reset (GstCtfMuxPad * pad)
{
  g_mutex_lock (&pad->q_lock);
  pad->q_buffers = 0;
  pad->q_bytes = 0;
  pad->q_halt = GST_FLOW_OK;
  g_mutex_unlock (&pad->q_lock);
}

/* A blocked input thread of @pad looks again (FLUSH_START). */
void
gst_ctf_mux_queue_wake (GstCtfMuxPad * pad)
{
  g_mutex_lock (&pad->q_lock);
  g_cond_broadcast (&pad->q_cond);
  g_mutex_unlock (&pad->q_lock);
}

/* @pad takes no more buffers: they get @flow (release, READY, or the
 * aggregate thread stopped with @flow). */
void
gst_ctf_mux_queue_halt (GstCtfMuxPad * pad, GstFlowReturn flow)
{
  g_mutex_lock (&pad->q_lock);
  pad->q_halt = flow;
  g_cond_broadcast (&pad->q_cond);
  g_mutex_unlock (&pad->q_lock);
}

void
gst_ctf_mux_queue_halt_all (GstCtfMux * self, GstFlowReturn flow)
{
  GList *l;

  GST_OBJECT_LOCK (self);
  for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next)
    gst_ctf_mux_queue_halt (l->data, flow);
  GST_OBJECT_UNLOCK (self);
}

void
gst_ctf_mux_queue_reset_all (GstCtfMux * self)
{
  GList *l;

  GST_OBJECT_LOCK (self);
  for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next)
    gst_ctf_mux_queue_reset (l->data);
  GST_OBJECT_UNLOCK (self);
}

/* Aggregate thread, before taking packets: deep queues without live
 * inputs, the `latency` set before with them. */
void
gst_ctf_mux_queue_update (GstCtfMux * self)
{
  GstAggregator *agg = GST_AGGREGATOR (self);
  gboolean live = GST_CLOCK_TIME_IS_VALID (gst_aggregator_get_latency (agg));
  guint64 cur;

  if (live == !self->deep)
    return;
  g_object_get (self, "latency", &cur, NULL);
  if (!live) {
    GST_OBJECT_LOCK (self);
    self->deep = TRUE;
    self->saved_latency = cur;
    GST_OBJECT_UNLOCK (self);
    GST_DEBUG_OBJECT (self, "no live input: up to %d packets per pad",
        QUEUE_MAX_BUFFERS);
    g_object_set (self, "latency", DEEP_LATENCY, NULL);
  } else {
    gst_ctf_mux_queue_restore (self);
  }
}

/* Puts back the `latency` set before (live inputs, or READY). */
void
gst_ctf_mux_queue_restore (GstCtfMux * self)
{
  guint64 cur, saved;
  gboolean deep;

  GST_OBJECT_LOCK (self);
  deep = self->deep;
  saved = self->saved_latency;
  self->deep = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (!deep)
    return;
  g_object_get (self, "latency", &cur, NULL);
  /* (unless the application set another one meanwhile) */
  if (cur == DEEP_LATENCY)
    g_object_set (self, "latency", saved, NULL);
}

/* The LATENCY query answered by the base class: without the part
 * DEEP_LATENCY added. */
void
gst_ctf_mux_queue_fix_latency (GstCtfMux * self, GstQuery * query)
{
  gboolean live, deep;
  GstClockTime min, max;
  guint64 saved;

  GST_OBJECT_LOCK (self);
  deep = self->deep;
  saved = self->saved_latency;
  GST_OBJECT_UNLOCK (self);
  if (!deep)
    return;
  gst_query_parse_latency (query, &live, &min, &max);
  if (min < DEEP_LATENCY)
    return;
  min = min - DEEP_LATENCY + saved;
  /* (the base class's sum wraps around when max is large: so does this) */
  if (GST_CLOCK_TIME_IS_VALID (max))
    max = max - DEEP_LATENCY + saved;
  gst_query_set_latency (query, live, min, max);
}
