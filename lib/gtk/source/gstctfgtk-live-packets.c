/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkLivePackets: a reader of a live model's spill file
 * (gstctfgtk-live-source.h) that makes each packet the buffer
 * `lttnglivesrc` would have pushed, with the caps of its trace class.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfgtk-live-packets.h"
#include "gstctfgtk-live-source.h"
#include "gstctfgtk-event-model-private.h"
#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"

struct _GstCtfGtkLivePackets {
  GObject parent;

  GstCtfGtkLiveReader *reader;
  GstCaps *caps;                /* of the epoch read now */
};

G_DEFINE_FINAL_TYPE (GstCtfGtkLivePackets, gst_ctf_gtk_live_packets,
    G_TYPE_OBJECT);

static void
gst_ctf_gtk_live_packets_init (GstCtfGtkLivePackets * self)
{
}

static void
gst_ctf_gtk_live_packets_finalize (GObject * object)
{
  GstCtfGtkLivePackets *self = GST_CTF_GTK_LIVE_PACKETS (object);

  g_clear_pointer (&self->reader, _gst_ctf_gtk_live_reader_free);
  gst_clear_caps (&self->caps);
  G_OBJECT_CLASS (gst_ctf_gtk_live_packets_parent_class)->finalize (object);
}

static void
gst_ctf_gtk_live_packets_class_init (GstCtfGtkLivePacketsClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_ctf_gtk_live_packets_finalize;
}

/**
 * gst_ctf_gtk_live_packets_new:
 * @model: a model of a live session (made from a `net://` URL)
 * @error: return location for a %GST_CTF_ERROR_LIVE error: @model is not
 *   a live session's
 *
 * A reader of the packets @model received, from the first: it does not
 * attach to the relay again (lttng-relayd lets one viewer attach to a
 * session) and does not wait for more; it ends at the last packet
 * received when it gets there.  Give its samples to an `appsrc` to run
 * them through elements (`appsrc ! timefilter ! ctfsink` writes what
 * `lttnglivesrc ! timefilter ! ctfsink` would have written of them).
 *
 * Returns: (transfer full) (nullable): the reader, %NULL with @error set
 */
GstCtfGtkLivePackets *
gst_ctf_gtk_live_packets_new (GstCtfGtkEventModel * model, GError ** error)
{
  GstCtfGtkLiveSource *live;
  GstCtfGtkLivePackets *self;

  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT_MODEL (model), NULL);
  live = _gst_ctf_gtk_event_model_get_live_source (model);
  if (live == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LIVE,
        "\"%s\" is not a live session",
        gst_ctf_gtk_event_model_get_path (model));
    return NULL;
  }
  self = g_object_new (GST_CTF_GTK_TYPE_LIVE_PACKETS, NULL);
  self->reader = _gst_ctf_gtk_live_reader_new (live);
  _gst_ctf_gtk_live_reader_set_follow (self->reader, FALSE, NULL);
  return self;
}

/**
 * gst_ctf_gtk_live_packets_pull:
 * @packets: a reader
 * @error: return location for a %GST_CTF_ERROR_IO error (the model's
 *   temporary file cannot be read)
 *
 * The next packet, as `lttnglivesrc` pushes it: one buffer a packet, PTS
 * its `timestamp_begin` (ns from the clock origin), DURATION to its
 * `timestamp_end`, OFFSET its place in the relay's stream file, a
 * #GstCtfPacketMeta; the sample's caps are `application/x-ctf` with the
 * metadata of the session's trace class for it (the same #GstCaps until
 * a new trace class: new metadata, a trace joining the session).
 *
 * Returns: (transfer full) (nullable): the packet, %NULL at the end of
 *   what was received (or with @error set)
 */
GstSample *
gst_ctf_gtk_live_packets_pull (GstCtfGtkLivePackets * packets,
    GError ** error)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_LIVE_PACKETS (packets), NULL);

  for (;;) {
    GstCtfPacketSourcePacket p;
    GstCtfPacketMeta *meta;
    GstBuffer *buf;
    GstSample *sample;
    gint64 ns, end_ns;
    guint64 instance_id, discarded;
    GstCtfGtkLiveItem it = _gst_ctf_gtk_live_reader_next (packets->reader,
        &p, &ns, error);

    if (it == GST_CTF_GTK_LIVE_ERROR || it == GST_CTF_GTK_LIVE_END)
      return NULL;
    if (it == GST_CTF_GTK_LIVE_ADVANCE)
      continue;
    if (it == GST_CTF_GTK_LIVE_NEW_EPOCH) {
      GstCtfTraceClass *tc = _gst_ctf_gtk_live_reader_get_trace_class
          (packets->reader);

      gst_clear_caps (&packets->caps);
      packets->caps = gst_ctf_caps_new (_gst_ctf_gtk_live_reader_get_metadata
          (packets->reader), tc->has_uuid ? tc->uuid : NULL);
      continue;
    }
    _gst_ctf_gtk_live_reader_get_last (packets->reader, &end_ns,
        &instance_id, &discarded);
    buf = gst_buffer_new_wrapped_bytes (p.bytes);
    g_bytes_unref (p.bytes);
    /* as lttnglivesrc's make_buffer(), no clock shift */
    GST_BUFFER_PTS (buf) = ns >= 0 ? (GstClockTime) ns : GST_CLOCK_TIME_NONE;
    if (ns >= 0 && end_ns >= ns)
      GST_BUFFER_DURATION (buf) = end_ns - ns;
    GST_BUFFER_OFFSET (buf) = p.offset;
    meta = gst_buffer_add_ctf_packet_meta (buf);
    meta->stream_class_id = p.stream_class_id;
    meta->stream_instance_id = instance_id;
    meta->stream_name = p.stream_name;
    meta->stream_index = (guint) p.rank;
    meta->offset = p.offset;
    meta->events_discarded_delta = discarded;
    sample = gst_sample_new (buf, packets->caps, NULL, NULL);
    gst_buffer_unref (buf);
    return sample;
  }
}
