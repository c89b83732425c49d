/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: merge the events of several streams of one trace into one
 * timestamp order, with babeltrace2's tie rules.
 *
 * babeltrace2 gives each data stream its own message iterator and muxes
 * them with a priority queue (filter.utils.muxer): oldest time first
 * (nanoseconds from the clock origin), equal times ordered by stream class
 * id then stream id (common/muxing/muxing.c), and a stream's own messages
 * keep their order.  Messages without a time go first.  Here each stream
 * has one event iterator positioned on its next event (its "head") and the
 * heads sit in a binary heap.
 *
 * Packets arrive in timestamp_begin order, so a packet still to come
 * cannot hold an event older than the latest timestamp_begin seen (the
 * "limit"): a head strictly older than the limit can be given back.  A
 * head equal to the limit waits, because a later packet of a stream that
 * sorts first could hold an event at that very time.  A live source can
 * move the limit on without a packet (gst_ctf_event_merge_advance(): the
 * end of a GAP event), so the events of its last packet need not wait for
 * the next one.
 *
 * Discarded items follow babeltrace2's CTF message iterator
 * (msg-iter.c): events_discarded is a per-stream snapshot counter, the
 * count is the difference with the previous packet (the snapshot itself
 * for the first packet), over [previous packet end, this packet end]
 * (first time: [this packet begin, this packet end]); discarded packets
 * are a packet_seq_num gap over [previous packet end, this packet begin].
 * The ranges are known only when the packets have both timestamp_begin
 * and timestamp_end.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstctf-event-merge.h"
#include "gstctf-heap-private.h"

typedef struct {
  GBytes *bytes;
  gint64 offset;
} QueuedPacket;

typedef struct {
  guint64 sc_id;
  gint64 id;                    /* rank: identity and tie order */
  gint64 bt_id;                 /* babeltrace2's stream id, reported */
  guint serial;                 /* creation order, last tie breaker */
  gchar *name;

  GQueue queue;                 /* QueuedPacket*, not yet started */
  GBytes *cur;                  /* packet the iterator is on */
  gint64 cur_offset;
  GstCtfEventIter *it;
  const GstCtfClockClass *clock;

  gboolean positioned;          /* iterator is on the head event */
  gboolean dead;                /* failed: drop everything */
  GError *error;                /* to give back when it is the oldest */
  gboolean has_ns;
  gint64 head_ns;

  gboolean have_clock_value;
  guint64 clock_value;

  /* what the previous packet of this stream said */
  GstCtfDiscardTracker discards;

  gint heap_index;              /* -1 when not in the heap */

  /* babeltrace2 event object of each event of the stream (simulation) */
  GArray *obj_ids;
  guint ev_emitted;

  /* Not recording (gst_ctf_event_merge_set_recording()): the current
   * packet's header and context values, kept when it started, and where
   * its clock started (for @side). */
  GArray *pkt_vals[2];          /* GstCtfFieldValue */
  gboolean cur_has_start_clock;
  guint64 cur_start_clock;
  /* A recording iterator that decodes the values of an event again when
   * they are asked for; it only goes forward in the current packet. */
  GstCtfEventIter *side;
  GBytes *side_packet;          /* the packet @side is on (a reference) */
} Stream;

struct _GstCtfEventMerge {
  GstCtfTraceClass *tc;
  GHashTable *streams;          /* key "scid:id" -> Stream* */
  GPtrArray *heap;              /* Stream* */
  GQueue notices;               /* GstCtfMergeItem* (discarded items) */
  Stream *returned;             /* stream whose head was given back */
  guint n_streams;
  guint n_queued;

  gboolean have_limit;
  gint64 limit;
  gboolean finished;

  /* Simulation of babeltrace2's event object recycling, needed only when
   * a text sequence can have length 0 (see run_simulation()). */
  gboolean sim_mode;
  gboolean sim_done;
  gsize queued_bytes;

  gboolean recording;           /* the stream iterators record values */
};

/* Above this, the simulation (which holds the whole trace) is given up. */
#define SIM_MAX_BYTES (64 * 1024 * 1024)

/* ------------------------------------------------------------------ */
/* Heap                                                                */

static inline gboolean
stream_before (const Stream * a, const Stream * b)
{
  /* Untimed heads first (babeltrace2 drains messages without time). */
  if (a->has_ns != b->has_ns)
    return !a->has_ns;
  if (a->has_ns && a->head_ns != b->head_ns)
    return a->head_ns < b->head_ns;
  if (a->sc_id != b->sc_id)
    return a->sc_id < b->sc_id;
  if (a->id != b->id)
    return a->id < b->id;
  return a->serial < b->serial;
}

GST_CTF_DEFINE_ITEM_HEAP (heap, Stream, stream_before, heap_index)

/* ------------------------------------------------------------------ */
/* Streams                                                             */

static void
queued_packet_free (QueuedPacket * q)
{
  g_bytes_unref (q->bytes);
  g_free (q);
}

static void
stream_free (Stream * s)
{
  QueuedPacket *q;

  while ((q = g_queue_pop_head (&s->queue)))
    queued_packet_free (q);
  if (s->cur)
    g_bytes_unref (s->cur);
  if (s->it)
    gst_ctf_event_iter_free (s->it);
  g_clear_error (&s->error);
  if (s->obj_ids)
    g_array_unref (s->obj_ids);
  if (s->pkt_vals[0])
    g_array_unref (s->pkt_vals[0]);
  if (s->pkt_vals[1])
    g_array_unref (s->pkt_vals[1]);
  if (s->side)
    gst_ctf_event_iter_free (s->side);
  if (s->side_packet)
    g_bytes_unref (s->side_packet);
  g_free (s->name);
  g_free (s);
}

static void
add_notice (GstCtfEventMerge * m, Stream * s, GstCtfMergeItemType type,
    guint64 count, const GstCtfClockClass * cc, guint64 begin, guint64 end)
{
  GstCtfMergeItem *n = g_new0 (GstCtfMergeItem, 1);

  n->type = type;
  n->stream_class_id = s->sc_id;
  n->stream_id = s->bt_id;
  n->stream_name = s->name;
  n->count = count;
  n->clock = cc;
  n->begin = begin;
  n->end = end;
  n->offset = s->cur_offset;
  g_queue_push_tail (&m->notices, n);
}

guint
gst_ctf_discard_tracker_next_packet (GstCtfDiscardTracker * t,
    const GstCtfPacketInfo * pi, const GstCtfClockClass * clock,
    GstCtfMergeItem items[2])
{
  gboolean have_range = pi->has_timestamp_begin && pi->has_timestamp_end &&
      clock != NULL;
  guint n = 0;

  g_return_val_if_fail (t != NULL && pi != NULL && items != NULL, 0);

  if (pi->has_events_discarded) {
    gboolean emit;
    guint64 count;

    if (!t->valid || !t->has_disc) {
      emit = pi->events_discarded != 0;
      count = pi->events_discarded;
    } else {
      count = pi->events_discarded - t->disc;
      emit = count != 0;
    }
    if (emit) {
      GstCtfMergeItem *it = &items[n++];

      memset (it, 0, sizeof (*it));
      it->type = GST_CTF_MERGE_DISCARDED_EVENTS;
      it->count = count;
      it->begin = (!t->valid || !t->has_disc) ? pi->timestamp_begin : t->end;
      it->end = pi->timestamp_end;
      if (t->valid && t->has_disc && !t->has_end)
        have_range = FALSE;
      it->clock = have_range ? clock : NULL;
    }
  }

  if (pi->has_packet_seq_num && t->valid && t->has_seq &&
      pi->packet_seq_num != t->seq + 1 && pi->packet_seq_num > t->seq) {
    GstCtfMergeItem *it = &items[n++];

    memset (it, 0, sizeof (*it));
    it->type = GST_CTF_MERGE_DISCARDED_PACKETS;
    it->count = pi->packet_seq_num - t->seq - 1;
    it->clock = have_range && t->has_end ? clock : NULL;
    it->begin = t->end;
    it->end = pi->timestamp_begin;
  }

  t->valid = TRUE;
  t->has_disc = pi->has_events_discarded;
  t->disc = pi->events_discarded;
  t->has_seq = pi->has_packet_seq_num;
  t->seq = pi->packet_seq_num;
  t->has_end = pi->has_timestamp_end;
  t->end = pi->timestamp_end;
  return n;
}

/* The discarded-items checks made when a packet starts. */
static void
check_discarded (GstCtfEventMerge * m, Stream * s,
    const GstCtfPacketInfo * pi)
{
  GstCtfMergeItem items[2];
  guint i, n = gst_ctf_discard_tracker_next_packet (&s->discards, pi,
      s->clock, items);

  for (i = 0; i < n; i++)
    add_notice (m, s, items[i].type, items[i].count, items[i].clock,
        items[i].begin, items[i].end);
}

/* Copies the packet header and context values of the packet @s->it has
 * just started (a recording iterator's are gone once it stops
 * recording); they point into the packet, which @s->cur keeps. */
static void
keep_packet_values (Stream * s)
{
  guint k;

  for (k = 0; k < 2; k++) {
    guint n;
    const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (s->it,
        k == 0 ? GST_CTF_SCOPE_PACKET_HEADER : GST_CTF_SCOPE_PACKET_CONTEXT,
        &n);

    if (s->pkt_vals[k] == NULL)
      s->pkt_vals[k] = g_array_new (FALSE, FALSE, sizeof (GstCtfFieldValue));
    g_array_set_size (s->pkt_vals[k], 0);
    if (n > 0)
      g_array_append_vals (s->pkt_vals[k], v, n);
  }
}

/* Positions @s on its next event, starting queued packets as needed.
 * Leaves it without a head when it has no more events for now, or with an
 * error. */
static void
stream_fill (GstCtfEventMerge * m, Stream * s)
{
  while (!s->positioned && s->error == NULL && !s->dead) {
    QueuedPacket *q;
    const GstCtfPacketInfo *pi;
    GError *err = NULL;

    if (s->cur != NULL) {
      if (gst_ctf_event_iter_next (s->it, &err)) {
        s->positioned = TRUE;
        s->clock_value = gst_ctf_event_iter_get_clock_value (s->it);
        s->have_clock_value = TRUE;
        s->has_ns = s->clock != NULL &&
            gst_ctf_clock_class_cycles_to_ns_from_origin (s->clock,
            s->clock_value, &s->head_ns);
        break;
      }
      if (err != NULL) {
        s->error = err;
        break;
      }
      /* End of this packet: babeltrace2 sets the stream's clock to the
       * packet's timestamp_end (its packet end message time), which is
       * where a next packet without timestamp_begin starts from. */
      pi = gst_ctf_event_iter_get_packet_info (s->it);
      s->clock_value = pi->has_timestamp_end ? pi->timestamp_end :
          gst_ctf_event_iter_get_clock_value (s->it);
      s->have_clock_value = TRUE;
      g_bytes_unref (s->cur);
      s->cur = NULL;
      m->n_queued--;
    }

    q = g_queue_pop_head (&s->queue);
    if (q == NULL)
      break;
    s->cur = q->bytes;
    s->cur_offset = q->offset;
    g_free (q);
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (s->cur, &size);
      gboolean ok;

      /* the packet's header and context values are kept in any case */
      if (!m->recording)
        gst_ctf_event_iter_set_recording (s->it, TRUE);
      ok = gst_ctf_event_iter_set_packet (s->it, data, size, &err);
      if (ok && !m->recording) {
        keep_packet_values (s);
        gst_ctf_event_iter_set_recording (s->it, FALSE);
      }
      if (!ok) {
        s->error = err;
        break;
      }
    }
    pi = gst_ctf_event_iter_get_packet_info (s->it);
    if (s->clock == NULL && pi->stream_class != NULL)
      s->clock = pi->stream_class->default_clock;
    /* CTF 1.8 §8: without timestamp_begin, the clock goes on from the
     * previous packet of the same stream. */
    s->cur_has_start_clock = !pi->has_timestamp_begin && s->have_clock_value;
    s->cur_start_clock = s->clock_value;
    if (s->cur_has_start_clock)
      gst_ctf_event_iter_set_clock_value (s->it, s->clock_value);
    if (pi->has_timestamp_begin) {
      s->has_ns = s->clock != NULL &&
          gst_ctf_clock_class_cycles_to_ns_from_origin (s->clock,
          pi->timestamp_begin, &s->head_ns);
    }
    check_discarded (m, s, pi);
  }
}

static void
stream_update_heap (GstCtfEventMerge * m, Stream * s)
{
  gboolean want = (s->positioned || s->error != NULL) && !s->dead;

  if (want)
    heap_update (m->heap, s);
  else
    heap_remove (m->heap, s);
}

/* ------------------------------------------------------------------ */
/* babeltrace2 event object recycling                                  */

/*
 * babeltrace2 2.0 keeps one pool of event objects per event class (last
 * recycled, first reused) and its CTF decoder does not clear a text
 * sequence whose length is 0, so such a field prints what the reused
 * object last held.  Which object an event gets depends on the graph's
 * timing: every source message iterator decodes 15 messages at a time
 * (MSG_BATCH_SIZE) into the muxer's per-stream queue when that queue is
 * empty, the muxer hands 15 messages at a time to the pretty sink, which
 * prints and releases each in turn.  This replays that graph over the
 * message sequence of each stream (stream beginning, packet beginning,
 * events, packet end, stream end) once the whole trace is known.
 */

#define BT_BATCH 15

enum {
  SIM_SB, SIM_PB, SIM_EV, SIM_PE, SIM_SE,
};

typedef struct {
  guint8 type;
  gboolean has_ts;
  gint64 ts;
  const GstCtfEventClass *ec;
} SimMsg;

typedef struct {
  Stream *s;
  GArray *msgs;                 /* SimMsg */
  guint next;                   /* next message to "decode" */
  GQueue queue;                 /* indices into msgs */
  guint n_ev;                   /* events decoded so far */
  gboolean ended;
} SimStream;

static gboolean
fc_has_text_sequence (const GstCtfFieldClass * fc, guint depth)
{
  guint i;

  if (fc == NULL || depth > 64)
    return FALSE;
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_STRUCT:
    case GST_CTF_FIELD_CLASS_VARIANT:
      for (i = 0; i < fc->n_members; i++)
        if (fc_has_text_sequence (fc->members[i].fc, depth + 1))
          return TRUE;
      return FALSE;
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      if (fc->element && (fc->element->type == GST_CTF_FIELD_CLASS_INTEGER
              || fc->element->type == GST_CTF_FIELD_CLASS_ENUM) &&
          fc->element->integer.size == 8 &&
          fc->element->integer.encoding != GST_CTF_ENCODING_NONE)
        return TRUE;
      return fc_has_text_sequence (fc->element, depth + 1);
    case GST_CTF_FIELD_CLASS_ARRAY:
      return fc_has_text_sequence (fc->element, depth + 1);
    case GST_CTF_FIELD_CLASS_STRING:
      /* an empty string is not cleared either */
      return TRUE;
    default:
      return FALSE;
  }
}

static gboolean
trace_has_text_sequence (const GstCtfTraceClass * tc)
{
  guint i, j;

  for (i = 0; tc->stream_classes && i < tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    if (fc_has_text_sequence (sc->event_common_context, 0))
      return TRUE;
    for (j = 0; sc->event_classes && j < sc->event_classes->len; j++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      if (fc_has_text_sequence (ec->context, 0) ||
          fc_has_text_sequence (ec->payload, 0))
        return TRUE;
    }
  }
  return FALSE;
}

static void
sim_add (GArray * msgs, guint8 type, const GstCtfClockClass * cc,
    gboolean has_cycles, guint64 cycles, const GstCtfEventClass * ec)
{
  SimMsg m = { type, FALSE, 0, ec };

  if (cc != NULL && has_cycles)
    m.has_ts = gst_ctf_clock_class_cycles_to_ns_from_origin (cc, cycles,
        &m.ts);
  g_array_append_val (msgs, m);
}

static void
sim_add_packet (GstCtfEventMerge * m, GArray * msgs, GstCtfEventIter * it,
    Stream * s, GBytes * packet, gboolean * have_clock, guint64 * clock)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (packet, &size);
  const GstCtfPacketInfo *pi;
  const GstCtfClockClass *cc;

  if (!gst_ctf_event_iter_set_packet (it, data, size, NULL))
    return;
  pi = gst_ctf_event_iter_get_packet_info (it);
  cc = pi->stream_class ? pi->stream_class->default_clock : NULL;
  if (!pi->has_timestamp_begin && *have_clock)
    gst_ctf_event_iter_set_clock_value (it, *clock);
  sim_add (msgs, SIM_PB, cc, pi->has_timestamp_begin, pi->timestamp_begin,
      NULL);
  while (gst_ctf_event_iter_next (it, NULL))
    sim_add (msgs, SIM_EV, cc, TRUE, gst_ctf_event_iter_get_clock_value (it),
        gst_ctf_event_iter_get_event_class (it));
  sim_add (msgs, SIM_PE, cc, pi->has_timestamp_end, pi->timestamp_end, NULL);
  *clock = pi->has_timestamp_end ? pi->timestamp_end :
      gst_ctf_event_iter_get_clock_value (it);
  *have_clock = TRUE;
}

static gint
sim_stream_cmp (gconstpointer a, gconstpointer b)
{
  const Stream *x = *(Stream * const *) a, *y = *(Stream * const *) b;

  return x->serial < y->serial ? -1 : (x->serial > y->serial);
}

static void
run_simulation (GstCtfEventMerge * m)
{
  GPtrArray *streams = g_ptr_array_new ();
  GPtrArray *sims = g_ptr_array_new ();
  GHashTable *pools = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) g_array_unref);
  GstCtfEventIter *it = gst_ctf_event_iter_new (m->tc);
  GHashTableIter hi;
  gpointer value;
  gint64 last_ts = G_MININT64, next_obj = 0;
  guint i;
  GArray *batch = g_array_new (FALSE, FALSE, sizeof (gpointer) * 2);

  g_hash_table_iter_init (&hi, m->streams);
  while (g_hash_table_iter_next (&hi, NULL, &value))
    g_ptr_array_add (streams, value);
  g_ptr_array_sort (streams, sim_stream_cmp);

  /* The message sequence of each stream. */
  for (i = 0; i < streams->len; i++) {
    Stream *s = g_ptr_array_index (streams, i);
    SimStream *ss = g_new0 (SimStream, 1);
    gboolean have_clock = FALSE;
    guint64 clock = 0;
    GList *l;

    ss->s = s;
    ss->msgs = g_array_new (FALSE, FALSE, sizeof (SimMsg));
    g_queue_init (&ss->queue);
    sim_add (ss->msgs, SIM_SB, NULL, FALSE, 0, NULL);
    if (s->cur)
      sim_add_packet (m, ss->msgs, it, s, s->cur, &have_clock, &clock);
    for (l = s->queue.head; l; l = l->next)
      sim_add_packet (m, ss->msgs, it, s, ((QueuedPacket *) l->data)->bytes,
          &have_clock, &clock);
    sim_add (ss->msgs, SIM_SE, NULL, FALSE, 0, NULL);
    if (s->obj_ids)
      g_array_unref (s->obj_ids);
    s->obj_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
    s->ev_emitted = 0;
    g_ptr_array_add (sims, ss);
  }

  for (;;) {
    guint n;

    g_array_set_size (batch, 0);
    /* The muxer fills one output batch... */
    while (batch->len < BT_BATCH) {
      SimStream *best = NULL;
      gint64 best_ts = 0;
      gpointer pair[2];
      guint idx;
      SimMsg *msg;

      for (i = 0; i < sims->len; i++) {
        SimStream *ss = g_ptr_array_index (sims, i);

        if (ss->ended || !g_queue_is_empty (&ss->queue))
          continue;
        /* ...refilling an empty upstream queue with one source batch,
         * which takes event objects from the pools. */
        for (n = 0; n < BT_BATCH && ss->next < ss->msgs->len; n++) {
          SimMsg *sm = &g_array_index (ss->msgs, SimMsg, ss->next);
          gint64 obj;

          if (sm->type == SIM_EV) {
            GArray *pool = g_hash_table_lookup (pools, sm->ec);

            if (pool != NULL && pool->len > 0) {
              obj = g_array_index (pool, gint64, pool->len - 1);
              g_array_set_size (pool, pool->len - 1);
            } else {
              obj = next_obj++;
            }
            g_array_append_val (ss->s->obj_ids, obj);
          }
          g_queue_push_tail (&ss->queue, GUINT_TO_POINTER (ss->next));
          ss->next++;
        }
        if (n == 0)
          ss->ended = TRUE;
      }
      for (i = 0; i < sims->len; i++) {
        SimStream *ss = g_ptr_array_index (sims, i);
        gint64 ts;

        if (ss->ended)
          continue;
        msg = &g_array_index (ss->msgs, SimMsg,
            GPOINTER_TO_UINT (g_queue_peek_head (&ss->queue)));
        ts = msg->has_ts ? msg->ts : last_ts;
        if (best == NULL || ts < best_ts || (ts == best_ts &&
                (ss->s->sc_id < best->s->sc_id || (ss->s->sc_id ==
                        best->s->sc_id && ss->s->id < best->s->id)))) {
          best = ss;
          best_ts = ts;
        }
      }
      if (best == NULL)
        break;
      idx = GPOINTER_TO_UINT (g_queue_pop_head (&best->queue));
      last_ts = best_ts;
      pair[0] = best;
      pair[1] = GUINT_TO_POINTER (idx);
      g_array_append_val (batch, pair);
    }
    if (batch->len == 0)
      break;
    /* The sink prints the batch, releasing each event object in turn. */
    for (n = 0; n < batch->len; n++) {
      gpointer *pair = &g_array_index (batch, gpointer, 2 * n);
      SimStream *ss = pair[0];
      SimMsg *msg = &g_array_index (ss->msgs, SimMsg,
          GPOINTER_TO_UINT (pair[1]));

      if (msg->type == SIM_EV) {
        GArray *pool = g_hash_table_lookup (pools, msg->ec);
        gint64 obj = g_array_index (ss->s->obj_ids, gint64, ss->n_ev);

        ss->n_ev++;
        if (pool == NULL) {
          pool = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_hash_table_insert (pools, (gpointer) msg->ec, pool);
        }
        g_array_append_val (pool, obj);
      }
    }
  }

  for (i = 0; i < sims->len; i++) {
    SimStream *ss = g_ptr_array_index (sims, i);

    g_array_unref (ss->msgs);
    g_queue_clear (&ss->queue);
    g_free (ss);
  }
  g_array_unref (batch);
  g_ptr_array_unref (sims);
  g_ptr_array_unref (streams);
  g_hash_table_unref (pools);
  gst_ctf_event_iter_free (it);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

GstCtfEventMerge *
gst_ctf_event_merge_new (GstCtfTraceClass * tc)
{
  GstCtfEventMerge *m;

  g_return_val_if_fail (tc != NULL, NULL);

  m = g_new0 (GstCtfEventMerge, 1);
  m->tc = gst_ctf_trace_class_ref (tc);
  m->streams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) stream_free);
  m->heap = g_ptr_array_new ();
  g_queue_init (&m->notices);
  m->sim_mode = trace_has_text_sequence (tc);
  m->recording = TRUE;
  return m;
}

void
gst_ctf_event_merge_free (GstCtfEventMerge * m)
{
  if (m == NULL)
    return;
  g_queue_clear_full (&m->notices, g_free);
  g_ptr_array_unref (m->heap);
  g_hash_table_unref (m->streams);
  gst_ctf_trace_class_unref (m->tc);
  g_free (m);
}

gboolean
gst_ctf_event_merge_push (GstCtfEventMerge * m, GBytes * packet,
    guint64 stream_class_id, gint64 stream_id, const gchar * stream_name,
    gint64 offset, GError ** error)
{
  return gst_ctf_event_merge_push_full (m, packet, stream_class_id,
      stream_id, stream_id, stream_name, offset, error);
}

gboolean
gst_ctf_event_merge_push_full (GstCtfEventMerge * m, GBytes * packet,
    guint64 stream_class_id, gint64 rank, gint64 stream_id,
    const gchar * stream_name, gint64 offset, GError ** error)
{
  gchar key[48];
  Stream *s;
  QueuedPacket *q;
  GstCtfPacketInfo info;
  gsize size;
  const guint8 *data;

  g_return_val_if_fail (m != NULL && packet != NULL, FALSE);

  data = g_bytes_get_data (packet, &size);
  if (!gst_ctf_packet_read_info (m->tc, data, size, &info, error))
    return FALSE;

  g_snprintf (key, sizeof (key), "%" G_GUINT64_FORMAT ":%" G_GINT64_FORMAT,
      stream_class_id, rank);
  s = g_hash_table_lookup (m->streams, key);
  if (s == NULL) {
    s = g_new0 (Stream, 1);
    s->sc_id = stream_class_id;
    s->id = rank;
    s->bt_id = stream_id;
    s->serial = m->n_streams++;
    s->name = g_strdup (stream_name);
    s->heap_index = -1;
    s->it = gst_ctf_event_iter_new (m->tc);
    gst_ctf_event_iter_set_recording (s->it, m->recording);
    g_queue_init (&s->queue);
    if (info.stream_class)
      s->clock = info.stream_class->default_clock;
    g_hash_table_insert (m->streams, g_strdup (key), s);
  }
  if (s->dead)
    return TRUE;

  q = g_new0 (QueuedPacket, 1);
  q->bytes = g_bytes_ref (packet);
  q->offset = offset;
  g_queue_push_tail (&s->queue, q);
  m->n_queued++;
  m->queued_bytes += size;
  if (m->sim_mode && !m->sim_done && m->queued_bytes > SIM_MAX_BYTES)
    m->sim_mode = FALSE;

  if (info.has_timestamp_begin && info.stream_class &&
      info.stream_class->default_clock) {
    gint64 ns;

    if (gst_ctf_clock_class_cycles_to_ns_from_origin
        (info.stream_class->default_clock, info.timestamp_begin, &ns)) {
      if (!m->have_limit || ns > m->limit)
        m->limit = ns;
      m->have_limit = TRUE;
    }
  }

  if (s != m->returned && !s->positioned) {
    stream_fill (m, s);
    stream_update_heap (m, s);
  }
  return TRUE;
}

void
gst_ctf_event_merge_set_emulate_recycling (GstCtfEventMerge * m,
    gboolean emulate)
{
  g_return_if_fail (m != NULL);
  m->sim_mode = emulate && m->n_queued == 0 && !m->sim_done &&
      trace_has_text_sequence (m->tc);
}

void
gst_ctf_event_merge_finish (GstCtfEventMerge * m)
{
  g_return_if_fail (m != NULL);
  m->finished = TRUE;
}

void
gst_ctf_event_merge_advance (GstCtfEventMerge * m, gint64 ns)
{
  g_return_if_fail (m != NULL);
  if (!m->have_limit || ns > m->limit)
    m->limit = ns;
  m->have_limit = TRUE;
}

guint
gst_ctf_event_merge_get_n_queued (GstCtfEventMerge * m)
{
  g_return_val_if_fail (m != NULL, 0);
  return m->n_queued;
}

GstCtfMergeItemType
gst_ctf_event_merge_next (GstCtfEventMerge * m, GstCtfMergeItem * item,
    GError ** error)
{
  Stream *s;
  GstCtfMergeItem *n;

  g_return_val_if_fail (m != NULL && item != NULL, GST_CTF_MERGE_NONE);

  memset (item, 0, sizeof (*item));
  item->offset = -1;
  item->pool_object = -1;

  /* Move the stream whose event was given back to its next event. */
  if (m->returned != NULL) {
    s = m->returned;
    m->returned = NULL;
    s->positioned = FALSE;
    stream_fill (m, s);
    stream_update_heap (m, s);
  }

  n = g_queue_pop_head (&m->notices);
  if (n != NULL) {
    *item = *n;
    g_free (n);
    return item->type;
  }

  if (m->heap->len == 0)
    return GST_CTF_MERGE_NONE;

  if (m->sim_mode && !m->sim_done) {
    /* The simulation needs the whole trace. */
    if (!m->finished)
      return GST_CTF_MERGE_NONE;
    run_simulation (m);
    m->sim_done = TRUE;
  }

  s = g_ptr_array_index (m->heap, 0);
  if (!m->finished) {
    /* Strictly older than any packet still to come. */
    if (!m->have_limit)
      return GST_CTF_MERGE_NONE;
    if (s->has_ns && s->head_ns >= m->limit)
      return GST_CTF_MERGE_NONE;
  }

  item->stream_class_id = s->sc_id;
  item->stream_id = s->bt_id;
  item->stream_name = s->name;
  item->offset = s->cur_offset;
  item->has_ns = s->has_ns;
  item->ns = s->head_ns;

  if (s->error != NULL) {
    QueuedPacket *q;

    heap_remove (m->heap, s);
    g_propagate_error (error, s->error);
    s->error = NULL;
    s->dead = TRUE;
    while ((q = g_queue_pop_head (&s->queue))) {
      queued_packet_free (q);
      m->n_queued--;
    }
    if (s->cur) {
      g_bytes_unref (s->cur);
      s->cur = NULL;
      m->n_queued--;
    }
    item->type = GST_CTF_MERGE_ERROR;
    return GST_CTF_MERGE_ERROR;
  }

  item->type = GST_CTF_MERGE_EVENT;
  item->pool_object = -1;
  if (s->obj_ids != NULL && s->ev_emitted < s->obj_ids->len)
    item->pool_object = g_array_index (s->obj_ids, gint64, s->ev_emitted);
  s->ev_emitted++;
  item->iter = s->it;
  item->has_ns = s->has_ns;
  item->ns = s->head_ns;
  m->returned = s;
  return GST_CTF_MERGE_EVENT;
}

void
gst_ctf_event_merge_set_recording (GstCtfEventMerge * m, gboolean record)
{
  g_return_if_fail (m != NULL);
  g_return_if_fail (m->n_streams == 0);
  m->recording = record;
}

const guint8 *
gst_ctf_event_merge_get_packet_data (GstCtfEventMerge * m, gsize * size)
{
  g_return_val_if_fail (m != NULL, NULL);
  if (size)
    *size = 0;
  if (m->returned == NULL || m->returned->cur == NULL)
    return NULL;
  return g_bytes_get_data (m->returned->cur, size);
}

/* Moves @s->side onto the event @s->it is on (decoding it again, with
 * its values). */
static gboolean
side_seek (GstCtfEventMerge * m, Stream * s, GError ** error)
{
  guint64 target = gst_ctf_event_iter_get_event_offset (s->it, NULL);
  gsize size;
  const guint8 *data = g_bytes_get_data (s->cur, &size);

  if (s->side == NULL) {
    s->side = gst_ctf_event_iter_new (m->tc);
    gst_ctf_event_iter_set_recording (s->side, TRUE);
  }
  if (s->side_packet != s->cur || gst_ctf_event_iter_get_event_class
      (s->side) == NULL
      || gst_ctf_event_iter_get_event_offset (s->side, NULL) > target) {
    if (s->side_packet)
      g_bytes_unref (s->side_packet);
    s->side_packet = NULL;
    if (!gst_ctf_event_iter_set_packet (s->side, data, size, error))
      return FALSE;
    s->side_packet = g_bytes_ref (s->cur);
    if (s->cur_has_start_clock)
      gst_ctf_event_iter_set_clock_value (s->side, s->cur_start_clock);
    if (!gst_ctf_event_iter_next (s->side, error))
      goto lost;
  }
  while (gst_ctf_event_iter_get_event_offset (s->side, NULL) < target) {
    if (!gst_ctf_event_iter_next (s->side, error))
      goto lost;
  }
  if (gst_ctf_event_iter_get_event_offset (s->side, NULL) == target)
    return TRUE;

lost:
  /* the packet decoded differently the second time: cannot happen with
   * the same bytes, iterator and clock */
  if (error != NULL && *error == NULL)
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot decode event values again: stream=\"%s\", offset=%"
        G_GUINT64_FORMAT " bits, expected an event there",
        s->name ? s->name : "", target);
  g_clear_pointer (&s->side_packet, g_bytes_unref);
  return FALSE;
}

const GstCtfFieldValue *
gst_ctf_event_merge_get_values (GstCtfEventMerge * m, GstCtfScope scope,
    guint * n_values, GError ** error)
{
  Stream *s;

  g_return_val_if_fail (m != NULL && n_values != NULL, NULL);
  *n_values = 0;
  s = m->returned;
  if (s == NULL || s->cur == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot get event values: expected an event just given back by "
        "gst_ctf_event_merge_next()");
    return NULL;
  }
  if (m->recording)
    return gst_ctf_event_iter_get_values (s->it, scope, n_values);
  if (scope == GST_CTF_SCOPE_PACKET_HEADER
      || scope == GST_CTF_SCOPE_PACKET_CONTEXT) {
    GArray *a = s->pkt_vals[scope == GST_CTF_SCOPE_PACKET_HEADER ? 0 : 1];

    if (a == NULL || a->len == 0)
      return NULL;
    *n_values = a->len;
    return (const GstCtfFieldValue *) a->data;
  }
  if (!side_seek (m, s, error))
    return NULL;
  return gst_ctf_event_iter_get_values (s->side, scope, n_values);
}
