/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfPacketMeta: where a packet buffer comes from (stream class,
 * instance, file, offset) and how many events the tracer discarded before
 * it.  Plain data, copied with the buffer.
 */
#include "gstctf-packet-meta.h"

static gboolean
gst_ctf_packet_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCtfPacketMeta *m = (GstCtfPacketMeta *) meta;

  m->stream_class_id = 0;
  m->stream_instance_id = G_MAXUINT64;
  m->stream_name = NULL;
  m->stream_index = 0;
  m->offset = -1;
  m->events_discarded_delta = 0;
  m->stream_id = G_MAXUINT64;
  m->file_path = NULL;
  m->events_discarded_unknown = FALSE;
  return TRUE;
}

static gboolean
gst_ctf_packet_meta_transform (GstBuffer * dest, GstMeta * meta,
    GstBuffer * buffer, GQuark type, gpointer data)
{
  GstCtfPacketMeta *src = (GstCtfPacketMeta *) meta, *dst;

  /* The meta describes a whole packet: copy it on copies, and on a
   * region copy only when the region is the whole buffer. */
  if (GST_META_TRANSFORM_IS_COPY (type)) {
    GstMetaTransformCopy *copy = data;

    if (copy->region && (copy->offset != 0
            || (copy->size != (gsize) - 1
                && copy->size != gst_buffer_get_size (buffer))))
      return TRUE;
  } else {
    return FALSE;
  }
  dst = gst_buffer_add_ctf_packet_meta (dest);
  if (dst == NULL)
    return FALSE;
  dst->stream_class_id = src->stream_class_id;
  dst->stream_instance_id = src->stream_instance_id;
  dst->stream_name = src->stream_name;
  dst->stream_index = src->stream_index;
  dst->offset = src->offset;
  dst->events_discarded_delta = src->events_discarded_delta;
  dst->stream_id = src->stream_id;
  dst->file_path = src->file_path;
  dst->events_discarded_unknown = src->events_discarded_unknown;
  return TRUE;
}

GType
gst_ctf_packet_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstCtfPacketMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

const GstMetaInfo *
gst_ctf_packet_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *mi = gst_meta_register (GST_CTF_PACKET_META_API_TYPE,
        "GstCtfPacketMeta", sizeof (GstCtfPacketMeta),
        gst_ctf_packet_meta_init, NULL, gst_ctf_packet_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);
  }
  return info;
}

GstCtfPacketMeta *
gst_buffer_add_ctf_packet_meta (GstBuffer * buffer)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  return (GstCtfPacketMeta *) gst_buffer_add_meta (buffer,
      GST_CTF_PACKET_META_INFO, NULL);
}
