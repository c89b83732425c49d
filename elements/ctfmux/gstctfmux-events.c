/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfmux, mode=events: the events of all inputs merged by time
 * (GstCtfEventMerge) and written to output packets of their stream, each
 * packet holding consecutive events of the global order.  An event body is
 * copied as bytes behind a new header when it lands at the same offset
 * modulo its largest alignment (CTF 1.8 §4.2.2), else re-encoded.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfmux-private.h"

#define GST_CAT_DEFAULT gst_ctf_mux_debug

/* ------------------------------------------------------------------ */
/* events mode */

guint
gst_ctf_mux_out_stream_hash (gconstpointer p)
{
  const OutStream *os = p;

  return (guint) (os->sc * 0x9E3779B1u) ^ (guint) os->instance ^
      (guint) (os->instance >> 32);
}

gboolean
gst_ctf_mux_out_stream_equal (gconstpointer a, gconstpointer b)
{
  const OutStream *x = a, *y = b;

  return x->sc == y->sc && x->instance == y->instance;
}

static OutStream *
get_out_stream (GstCtfMux * self, guint64 sc, guint64 instance)
{
  OutStream key = { 0, }, *os;

  key.sc = sc;
  key.instance = instance;
  os = g_hash_table_lookup (self->out_streams, &key);
  if (os == NULL) {
    gchar name[64];

    os = g_new0 (OutStream, 1);
    os->sc = sc;
    os->instance = instance;
    os->rank = g_hash_table_size (self->out_streams);
    /* one file per output stream for ctfsink, also when the header has
     * no stream_instance_id to tell them apart */
    g_snprintf (name, sizeof (name), "stream_%" G_GUINT64_FORMAT "_%"
        G_GUINT64_FORMAT, sc, instance);
    os->name = g_intern_string (name);
    g_hash_table_add (self->out_streams, os);
  }
  return os;
}

/* Output packets go out in one buffer list per drain: one push instead of
 * one per packet (events mode makes many small packets when streams
 * interleave). */
static GstFlowReturn
push_pending (GstCtfMux * self)
{
  GstBufferList *list = self->pending;

  self->pending = NULL;
  if (list == NULL)
    return GST_FLOW_OK;
  if (gst_buffer_list_length (list) == 0) {
    gst_buffer_list_unref (list);
    return GST_FLOW_OK;
  }
  return gst_aggregator_finish_buffer_list (GST_AGGREGATOR (self), list);
}

static GstFlowReturn
flush_open_packet (GstCtfMux * self)
{
  GError *err = NULL;
  const guint8 *data;
  gsize size;
  GstBuffer *out;
  GstCtfPacketMeta *meta;
  OutStream *os = self->open_stream;

  if (self->open_w == NULL)
    return GST_FLOW_OK;
  os->last_clock = gst_ctf_packet_writer_get_clock_value (self->open_w);
  data = gst_ctf_packet_writer_finish_packet (self->open_w, &size, &err);
  self->open_w = NULL;
  if (data == NULL) {
    GST_ELEMENT_ERROR (self, STREAM, ENCODE,
        ("Cannot finish an events-mode output packet: %s", err->message),
        ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
            err->code));
    g_error_free (err);
    return GST_FLOW_ERROR;
  }
  /* buffer, memory and bytes in one allocation (the default allocator) */
  out = gst_buffer_new_allocate (NULL, size, NULL);
  if (out == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, (NULL),
        ("Cannot allocate a %" G_GSIZE_FORMAT "-byte buffer", size));
    return GST_FLOW_ERROR;
  }
  gst_buffer_fill (out, 0, data, size);
  if (self->open_first_ns >= 0) {
    GST_BUFFER_PTS (out) = self->open_first_ns;
    if (self->open_last_ns >= self->open_first_ns)
      GST_BUFFER_DURATION (out) = self->open_last_ns - self->open_first_ns;
  }
  meta = gst_buffer_add_ctf_packet_meta (out);
  meta->stream_class_id = os->sc;
  meta->stream_instance_id = os->instance;
  meta->stream_index = os->rank;
  meta->stream_id = os->instance;
  meta->stream_name = os->name;
  if (self->pending == NULL) {
    gst_ctf_mux_send_caps_and_segment (self, GST_BUFFER_PTS (out));
    self->pending = gst_buffer_list_new_sized (PENDING_MAX_BUFFERS);
    self->pending_bytes = 0;
  }
  gst_buffer_list_add (self->pending, out);
  self->pending_bytes += size;
  /* memory stays bounded also when a drain is long (at EOS) */
  if (gst_buffer_list_length (self->pending) >= PENDING_MAX_BUFFERS
      || self->pending_bytes >= PENDING_MAX_BYTES)
    return push_pending (self);
  return GST_FLOW_OK;
}

/* Starts an output packet for @item's stream. */
static gboolean
begin_out_packet (GstCtfMux * self, const GstCtfMergeItem * item,
    const GstCtfPacketInfo * pi, guint64 instance, guint64 clock,
    GError ** err)
{
  GstCtfPacketWriter *w;
  GstCtfPacketWriterParams p = { 0, };
  const GstCtfFieldValue *ctx;
  guint nctx;
  OutStream *os;

  os = get_out_stream (self, item->stream_class_id, instance);
  w = os->w;
  if (w == NULL) {
    w = g_hash_table_lookup (self->writers, &item->stream_class_id);
    if (w == NULL) {
      guint64 *key = g_new (guint64, 1);

      w = gst_ctf_packet_writer_new (self->out_tc, item->stream_class_id,
          err);
      if (w == NULL) {
        g_free (key);
        return FALSE;
      }
      *key = item->stream_class_id;
      g_hash_table_insert (self->writers, key, w);
    }
    os->w = w;
  }
  /* A gap in the source's packet_seq_num (packets the tracer lost) is
   * kept as a gap in ours: discarded packets are never hidden. */
  if (pi->has_packet_seq_num) {
    if (os->has_src_seq && pi->packet_seq_num > os->src_seq + 1)
      os->seq += pi->packet_seq_num - os->src_seq - 1;
    os->has_src_seq = TRUE;
    os->src_seq = MAX (os->src_seq, pi->packet_seq_num);
  }
  p.stream_instance_id = instance;
  p.packet_seq_num = os->seq++;
  p.events_discarded = pi->events_discarded;
  if (pi->has_timestamp_begin) {
    /* the packet starts at its first event (an event header without
     * timestamp takes the packet's time, CTF 1.8 §8) */
    p.has_timestamp_begin = TRUE;
    p.timestamp_begin = clock;
    p.clock_value = clock;
  } else {
    /* no timestamp_begin: the base is the stream's last clock value */
    p.clock_value = MIN (os->last_clock, clock);
  }
  ctx = gst_ctf_event_merge_get_values (self->emerge,
      GST_CTF_SCOPE_PACKET_CONTEXT, &nctx, err);
  if (ctx == NULL && err && *err)
    return FALSE;
  if (!gst_ctf_packet_writer_begin_packet (w, &p, nctx ? ctx : NULL, nctx,
          err))
    return FALSE;
  self->open_w = w;
  self->open_stream = os;
  self->open_sc = item->stream_class_id;
  self->open_instance = instance;
  self->open_src_seq = pi->packet_seq_num;
  self->open_src_discarded = pi->events_discarded;
  self->open_src_begin = pi->timestamp_begin;
  self->open_first_ns = item->has_ns ? item->ns : -1;
  return TRUE;
}

static GstFlowReturn
write_event (GstCtfMux * self, const GstCtfMergeItem * item)
{
  GstCtfEventIter *it = item->iter;
  const GstCtfPacketInfo *pi = gst_ctf_event_iter_get_packet_info (it);
  const GstCtfEventClass *ec = gst_ctf_event_iter_get_event_class (it);
  guint64 instance = pi->has_stream_instance_id ? pi->stream_instance_id :
      (guint64) MAX (item->stream_id, 0);
  guint64 clock = gst_ctf_event_iter_get_clock_value (it);
  const GstCtfFieldValue *cc, *sc, *pl;
  guint ncc, nsc, npl;
  GError *err = NULL;
  GstFlowReturn ret;
  gboolean copied = FALSE;

  if (self->open_w != NULL && (self->open_sc != item->stream_class_id ||
          self->open_instance != instance ||
          self->open_src_seq != pi->packet_seq_num ||
          self->open_src_discarded != pi->events_discarded ||
          self->open_src_begin != pi->timestamp_begin ||
          gst_ctf_packet_writer_get_content_size (self->open_w) >
          EVENTS_PACKET_MAX_BITS)) {
    ret = flush_open_packet (self);
    if (ret != GST_FLOW_OK)
      return ret;
  }
  if (self->open_w == NULL &&
      !begin_out_packet (self, item, pi, instance, clock, &err))
    goto error;

  if (self->cur_copy_bodies) {
    /* The body (event contexts and payload) as bytes behind a new
     * header, when its alignment allows (CTF 1.8 §4.2.2). */
    gsize size;
    const guint8 *data = gst_ctf_event_merge_get_packet_data (self->emerge,
        &size);
    guint64 end, body = gst_ctf_event_iter_get_header_end (it);

    gst_ctf_event_iter_get_event_offset (it, &end);
    if (!gst_ctf_packet_writer_append_event_body (self->open_w, ec, clock,
            data, size, body, end, &copied, &err))
      goto error;
  }
  if (!copied) {
    if (!(cc = gst_ctf_event_merge_get_values (self->emerge,
                GST_CTF_SCOPE_EVENT_COMMON_CONTEXT, &ncc, &err)) && err)
      goto error;
    if (!(sc = gst_ctf_event_merge_get_values (self->emerge,
                GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT, &nsc, &err)) && err)
      goto error;
    if (!(pl = gst_ctf_event_merge_get_values (self->emerge,
                GST_CTF_SCOPE_EVENT_PAYLOAD, &npl, &err)) && err)
      goto error;
    if (!gst_ctf_packet_writer_append_event (self->open_w, ec, clock, cc,
            ncc, sc, nsc, pl, npl, &err))
      goto error;
  }
  if (copied)
    self->n_copied++;
  else
    self->n_reencoded++;
  self->open_last_ns = item->has_ns ? item->ns : -1;
  return GST_FLOW_OK;

error:
  GST_ELEMENT_ERROR (self, STREAM, ENCODE,
      ("Cannot re-encode event \"%s\" (stream class %" G_GUINT64_FORMAT
          "): %s", ec ? ec->name : "?", item->stream_class_id, err->message),
      ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
          err->code));
  g_error_free (err);
  return GST_FLOW_ERROR;
}

GstFlowReturn
gst_ctf_mux_events_drain (GstCtfMux * self, gboolean finish)
{
  GstCtfMergeItem item;
  GstCtfMergeItemType t;
  GError *err = NULL;
  GstFlowReturn ret = GST_FLOW_OK;

  if (self->emerge == NULL)
    return GST_FLOW_OK;
  if (finish)
    gst_ctf_event_merge_finish (self->emerge);
  while (ret == GST_FLOW_OK &&
      (t = gst_ctf_event_merge_next (self->emerge, &item, &err)) !=
      GST_CTF_MERGE_NONE) {
    switch (t) {
      case GST_CTF_MERGE_EVENT:
        ret = write_event (self, &item);
        break;
      case GST_CTF_MERGE_ERROR:
        GST_ELEMENT_ERROR (self, STREAM, DECODE,
            ("Cannot decode an event of stream class %" G_GUINT64_FORMAT
                ": %s", item.stream_class_id, err ? err->message : "?"),
            (NULL));
        g_clear_error (&err);
        ret = GST_FLOW_ERROR;
        break;
      default:
        /* discarded items: the events_discarded counters and the
         * packet sequence carry them */
        break;
    }
  }
  if (ret == GST_FLOW_OK && finish)
    ret = flush_open_packet (self);
  if (ret == GST_FLOW_OK)
    ret = push_pending (self);
  else
    g_clear_pointer (&self->pending, gst_buffer_list_unref);
  return ret;
}

GstFlowReturn
gst_ctf_mux_events_push (GstCtfMux * self, GstCtfMuxPad * pad, GstBuffer * buf)
{
  GstCtfPacketMeta *meta = gst_buffer_get_ctf_packet_meta (buf);
  GstMapInfo map;
  GBytes *bytes;
  GError *err = NULL;
  guint64 sc = 0, inst = G_MAXUINT64;
  gchar key[96];
  gpointer id;
  gint64 stream_id;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    gst_buffer_unref (buf);
    GST_ELEMENT_ERROR (self, RESOURCE, READ, (NULL), ("Cannot map buffer"));
    return GST_FLOW_ERROR;
  }
  if (self->merge) {
    bytes = gst_ctf_trace_merge_rewrite_packet (self->merge, pad->input,
        map.data, map.size, meta && meta->stream_id != G_MAXUINT64 ?
        meta->stream_id : 0, &sc, &err);
    gst_buffer_unmap (buf, &map);
    if (bytes == NULL)
      goto error;
  } else {
    GstCtfPacketInfo info;

    if (!gst_ctf_packet_read_info (self->out_tc, map.data, map.size, &info,
            &err)) {
      gst_buffer_unmap (buf, &map);
      goto error;
    }
    sc = info.stream_class_id;
    bytes = g_bytes_new (map.data, MIN (map.size, info.packet_size / 8));
    gst_buffer_unmap (buf, &map);
  }
  /* Stream id for the tie order: the instance id, else one per stream of
   * each pad in order of appearance. */
  {
    guint64 in_sc;

    gst_ctf_mux_head_ids (pad, buf, &in_sc, &inst);
  }
  /* Streams without instance id are told apart by the stream id the
   * source gives (ctfsrc: babeltrace2's 0, 1, 2, ... by file path). */
  if (inst != G_MAXUINT64) {
    stream_id = (gint64) inst;
  } else if (meta && meta->stream_id != G_MAXUINT64) {
    stream_id = (gint64) meta->stream_id;
  } else {
    g_snprintf (key, sizeof (key), "%u:%" G_GUINT64_FORMAT, pad->order, sc);
    id = g_hash_table_lookup (self->stream_ids, key);
    if (id == NULL) {
      id = GSIZE_TO_POINTER (g_hash_table_size (self->stream_ids) + 1);
      g_hash_table_insert (self->stream_ids, g_strdup (key), id);
    }
    stream_id = (gint64) GPOINTER_TO_SIZE (id) - 1;
  }
  if (!gst_ctf_event_merge_push (self->emerge, bytes, sc, stream_id,
          meta ? meta->stream_name : NULL, meta ? meta->offset : -1, &err)) {
    g_bytes_unref (bytes);
    goto error;
  }
  g_bytes_unref (bytes);
  gst_buffer_unref (buf);
  return gst_ctf_mux_events_drain (self, FALSE);

error:
  GST_ELEMENT_ERROR (self, STREAM, DECODE,
      ("Cannot read a packet of pad %s: %s", GST_PAD_NAME (pad),
          err->message), ("%s (%s, code %d)", err->message,
          g_quark_to_string (err->domain), err->code));
  g_error_free (err);
  gst_buffer_unref (buf);
  return GST_FLOW_ERROR;
}

