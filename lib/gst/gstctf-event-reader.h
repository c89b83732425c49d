/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfEventReader: the events of packet buffers, for language bindings
 * (Python through PyGObject) and applications.  A thin GObject over the
 * packet reader (gstctf-reader.h) that takes what travels in a pipeline:
 * `application/x-ctf` caps and one GstBuffer per CTF packet
 * (docs/design.md "The stream between elements"), or a trace on disk
 * read in global time order (gst_ctf_event_reader_open(),
 * gstctf-event-source.c).
 */
#pragma once

#include <gst/gst.h>
#include "gstctf-version.h"
#include "gstctf-model.h"
#include "gstctf-error.h"
#include "gstctf-reader.h"

G_BEGIN_DECLS

/**
 * GstCtfValueFlags:
 * @GST_CTF_VALUE_NONE: the default forms
 * @GST_CTF_VALUE_ENUM_LABELS: enumerations as `(xas)` / `(tas)`: the
 *   value and its labels (each label whose range holds the value, in
 *   babeltrace2's order: the order of the labels' first mappings)
 *
 * How gst_ctf_event_reader_get_field_variant_full() and
 * gst_ctf_event_reader_get_fields_full() give values.
 */
typedef enum {
  GST_CTF_VALUE_NONE = 0,
  GST_CTF_VALUE_ENUM_LABELS = 1 << 0,
} GstCtfValueFlags;

#define GST_CTF_TYPE_EVENT_READER (gst_ctf_event_reader_get_type ())

/**
 * GstCtfEventReader:
 *
 * Decodes the events of CTF packets one at a time.
 *
 * To read a trace on disk (a CTF trace directory, a directory above
 * several traces, a trace.dat file), open it with
 * gst_ctf_event_reader_open() and call gst_ctf_event_reader_next() until
 * it returns %FALSE: the events of the whole trace come in global time
 * order, without a pipeline.  From Python, with the GstCtf override:
 *
 * ```
 * for ev in GstCtf.EventReader.open("trace/"):
 *     print(ev.timestamp_ns, ev.name, ev["vtid"], ev.payload)
 * ```
 *
 * To decode the packets of a pipeline, make one from the caps of a pad or
 * a #GstSample
 * (gst_ctf_event_reader_new_from_caps()), give it a packet buffer with
 * gst_ctf_event_reader_set_buffer(), then call
 * gst_ctf_event_reader_next() until it returns %FALSE.  After each event,
 * the getters describe the current event: time, stream, event class,
 * fields.
 *
 * Walking events allocates nothing: plans are compiled once per event
 * class and values are decoded in place.  Only the field getters that
 * return a #GValue or a #GVariant allocate what they return.
 *
 * From Python:
 *
 * ```
 * sample = appsink.emit("pull-sample")
 * reader = GstCtf.EventReader.new_from_caps(sample.get_caps())
 * reader.set_buffer(sample.get_buffer())
 * while reader.next():
 *     print(reader.get_timestamp_ns(), reader.get_event_name(),
 *           reader.get_field("msg"))
 * ```
 *
 * Not thread safe: use one reader per thread.
 */
GST_CTF_API
G_DECLARE_FINAL_TYPE (GstCtfEventReader, gst_ctf_event_reader, GST_CTF,
    EVENT_READER, GObject)

GST_CTF_API GstCtfEventReader *gst_ctf_event_reader_new (
    GstCtfTraceClass * trace_class);
GST_CTF_API GstCtfEventReader *gst_ctf_event_reader_new_from_caps (
    GstCaps * caps, GError ** error);
GST_CTF_API GstCtfEventReader *gst_ctf_event_reader_new_from_metadata (
    const gchar * tsdl, GError ** error);

GST_CTF_API GstCtfEventReader *gst_ctf_event_reader_open (const gchar * path,
    GError ** error);
GST_CTF_API guint64 gst_ctf_event_reader_get_discarded_events (
    GstCtfEventReader * reader);
GST_CTF_API guint64 gst_ctf_event_reader_get_discarded_packets (
    GstCtfEventReader * reader);

GST_CTF_API gboolean gst_ctf_event_reader_set_caps (GstCtfEventReader * reader,
    GstCaps * caps, GError ** error);
GST_CTF_API GstCtfTraceClass *gst_ctf_event_reader_get_trace_class (
    GstCtfEventReader * reader);

GST_CTF_API void gst_ctf_event_reader_set_decode_fields (
    GstCtfEventReader * reader, gboolean decode_fields);
GST_CTF_API void gst_ctf_event_reader_set_side_stream (
    GstCtfEventReader * reader, gboolean side_stream);
GST_CTF_API gboolean gst_ctf_event_reader_get_side_stream (
    GstCtfEventReader * reader);
GST_CTF_API gboolean gst_ctf_event_reader_get_decode_fields (
    GstCtfEventReader * reader);

GST_CTF_API gboolean gst_ctf_event_reader_set_buffer (
    GstCtfEventReader * reader, GstBuffer * buffer, GError ** error);
GST_CTF_API gboolean gst_ctf_event_reader_set_bytes (
    GstCtfEventReader * reader, GBytes * bytes, GError ** error);
GST_CTF_API void gst_ctf_event_reader_clear (GstCtfEventReader * reader);

GST_CTF_API gboolean gst_ctf_event_reader_next (GstCtfEventReader * reader,
    GError ** error);
GST_CTF_API gboolean gst_ctf_event_reader_next_event (
    GstCtfEventReader * reader, gint64 * timestamp_ns, const gchar ** name,
    GError ** error);
GST_CTF_API guint gst_ctf_event_reader_skip_events (GstCtfEventReader * reader,
    GError ** error);

GST_CTF_API guint64 gst_ctf_event_reader_get_stream_class_id (
    GstCtfEventReader * reader);
GST_CTF_API gint64 gst_ctf_event_reader_get_stream_instance_id (
    GstCtfEventReader * reader);
GST_CTF_API gint gst_ctf_event_reader_get_cpu (GstCtfEventReader * reader);
GST_CTF_API const gchar *gst_ctf_event_reader_get_stream_name (
    GstCtfEventReader * reader);
GST_CTF_API guint64 gst_ctf_event_reader_get_packet_events_discarded (
    GstCtfEventReader * reader);

GST_CTF_API gboolean gst_ctf_event_reader_has_timestamp (
    GstCtfEventReader * reader);
GST_CTF_API gint64 gst_ctf_event_reader_get_timestamp_ns (
    GstCtfEventReader * reader);
GST_CTF_API guint64 gst_ctf_event_reader_get_clock_value (
    GstCtfEventReader * reader);
GST_CTF_API const gchar *gst_ctf_event_reader_get_event_name (
    GstCtfEventReader * reader);
GST_CTF_API guint64 gst_ctf_event_reader_get_event_class_id (
    GstCtfEventReader * reader);
GST_CTF_API gint64 gst_ctf_event_reader_get_event_loglevel (
    GstCtfEventReader * reader);

GST_CTF_API gboolean gst_ctf_event_reader_get_field (
    GstCtfEventReader * reader, const gchar * path, GValue * value);
GST_CTF_API GValue *gst_ctf_event_reader_dup_field (
    GstCtfEventReader * reader, const gchar * path);
GST_CTF_API GVariant *gst_ctf_event_reader_get_payload (
    GstCtfEventReader * reader);
GST_CTF_API GVariant *gst_ctf_event_reader_get_field_variant (
    GstCtfEventReader * reader, const gchar * path);
GST_CTF_API GVariant *gst_ctf_event_reader_get_fields (
    GstCtfEventReader * reader, GstCtfScope scope);
GST_CTF_API GVariant *gst_ctf_event_reader_get_field_variant_full (
    GstCtfEventReader * reader, const gchar * path, GstCtfValueFlags flags);
GST_CTF_API GVariant *gst_ctf_event_reader_get_fields_full (
    GstCtfEventReader * reader, GstCtfScope scope, GstCtfValueFlags flags);
GST_CTF_API GHashTable *gst_ctf_event_reader_get_fields_table_full (
    GstCtfEventReader * reader, GstCtfScope scope, GstCtfValueFlags flags);
GST_CTF_API const gchar **gst_ctf_event_reader_get_field_names (
    GstCtfEventReader * reader, GstCtfScope scope);
GST_CTF_API GHashTable *gst_ctf_event_reader_get_fields_table (
    GstCtfEventReader * reader, GstCtfScope scope);
GST_CTF_API gchar *gst_ctf_event_reader_format_fields (
    GstCtfEventReader * reader);

GST_CTF_API GVariant *gst_ctf_field_values_to_variant (
    const GstCtfFieldValue * values, guint n_values, GstCtfValueFlags flags);

G_END_DECLS
