/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfEventSource: a trace on disk as events in babeltrace2's order
 * (gstctf-event-source-private.h).  The packets come in the order the
 * source elements push them (GstCtfPacketSource: ctfsrc's, tracecmdsrc's
 * or lttng0src's order) and go through the event merger ctftextsink uses,
 * so the events, their order and their ties are those of
 * `ctfsrc ! ctftextsink` (babeltrace2's).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctf-event-source-private.h"
#include "gstctf-packet-source.h"

struct _GstCtfEventSource {
  gchar *path;
  GstCtfPacketSource *packets;          /* any input (gstctf-packet-source.h) */
  GstCtfTraceClass *tc;
  GstCtfEventMerge *merge;              /* made by the first next() */
  gboolean finished;                    /* no more packets */
  guint64 discarded_events;
  guint64 discarded_packets;
};

GstCtfEventSource *
_gst_ctf_event_source_open (const gchar * path, GError ** error)
{
  GstCtfEventSource *s;
  GstCtfPacketSource *packets;

  g_return_val_if_fail (path != NULL, NULL);

  /* (a trace.dat with its side stream, as `tracecmdsrc ! ctftextsink`) */
  packets = gst_ctf_packet_source_open (path,
      GST_CTF_PACKET_SOURCE_FLAGS_NONE, error);
  if (packets == NULL)
    return NULL;
  s = g_new0 (GstCtfEventSource, 1);
  s->path = g_strdup (path);
  s->packets = packets;
  s->tc = gst_ctf_trace_class_ref (gst_ctf_packet_source_get_trace_class
      (packets));
  return s;
}

void
_gst_ctf_event_source_free (GstCtfEventSource * s)
{
  if (s == NULL)
    return;
  g_clear_pointer (&s->merge, gst_ctf_event_merge_free);
  g_clear_pointer (&s->tc, gst_ctf_trace_class_unref);
  g_clear_pointer (&s->packets, gst_ctf_packet_source_free);
  g_free (s->path);
  g_free (s);
}

GstCtfTraceClass *
_gst_ctf_event_source_get_trace_class (GstCtfEventSource * s)
{
  return s->tc;
}

guint64
_gst_ctf_event_source_get_discarded (GstCtfEventSource * s,
    GstCtfMergeItemType type)
{
  return type == GST_CTF_MERGE_DISCARDED_EVENTS ? s->discarded_events :
      s->discarded_packets;
}

/* The values of the event just given back, also when the merger does not
 * record them (the packet context always is). */
const GstCtfFieldValue *
_gst_ctf_event_source_get_values (GstCtfEventSource * s, GstCtfScope scope,
    guint * n_values)
{
  const GstCtfFieldValue *v;

  *n_values = 0;
  if (s->merge == NULL)
    return NULL;
  v = gst_ctf_event_merge_get_values (s->merge, scope, n_values, NULL);
  if (v == NULL)
    *n_values = 0;
  return v;
}

/* Queues the next packet in the sources' order; FALSE with @error unset
 * when there is none. */
static gboolean
push_packet (GstCtfEventSource * s, GError ** error)
{
  GstCtfPacketSourcePacket p;
  gboolean ok;

  if (gst_ctf_packet_source_next (s->packets, &p, error) <= 0)
    return FALSE;
  ok = gst_ctf_event_merge_push_full (s->merge, p.bytes, p.stream_class_id,
      p.rank, p.stream_id, p.stream_name, p.offset, error);
  g_bytes_unref (p.bytes);
  /* (a trace.dat page has no place in a file of CTF packets) */
  if (!ok && p.offset >= 0)
    g_prefix_error (error, "Cannot read packet at byte %" G_GINT64_FORMAT
        " of stream \"%s\" of \"%s\": ", p.offset, p.stream_name, s->path);
  return ok;
}

gboolean
_gst_ctf_event_source_next (GstCtfEventSource * s, gboolean record,
    GstCtfMergeItem * item, GError ** error)
{
  GError *err = NULL;

  if (s->merge == NULL) {
    s->merge = gst_ctf_event_merge_new (s->tc);
    /* true values, not babeltrace2 2.0's recycled strings */
    gst_ctf_event_merge_set_emulate_recycling (s->merge, FALSE);
    gst_ctf_event_merge_set_recording (s->merge, record);
  }
  for (;;) {
    switch (gst_ctf_event_merge_next (s->merge, item, &err)) {
      case GST_CTF_MERGE_EVENT:
        return TRUE;
      case GST_CTF_MERGE_DISCARDED_EVENTS:
        if (item->count != G_MAXUINT64)
          s->discarded_events += item->count;
        continue;
      case GST_CTF_MERGE_DISCARDED_PACKETS:
        if (item->count != G_MAXUINT64)
          s->discarded_packets += item->count;
        continue;
      case GST_CTF_MERGE_ERROR:
        if (err == NULL)
          g_set_error (&err, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
              "unknown error");
        g_propagate_prefixed_error (error, err, "Cannot decode event in the "
            "packet at byte %" G_GINT64_FORMAT " of stream \"%s\" of "
            "\"%s\": ", item->offset, item->stream_name ?
            item->stream_name : "(unknown)", s->path);
        return FALSE;
      case GST_CTF_MERGE_NONE:
      default:
        break;
    }
    if (s->finished)
      return FALSE;
    if (!push_packet (s, &err)) {
      if (err != NULL) {
        g_propagate_error (error, err);
        return FALSE;
      }
      s->finished = TRUE;
      gst_ctf_event_merge_finish (s->merge);
    }
  }
}
