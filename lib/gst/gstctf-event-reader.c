/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfEventReader: the packet reader (gstctf-reader.h) as a GObject for
 * bindings: construction, packets and traces, iteration (which allocates
 * nothing) and the current event's accessors.  The field getters are in
 * gstctf-event-reader-fields.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctf-event-reader.h"
#include "gstctf-reader.h"
#include "gstctf-metadata.h"
#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"
#include "gstctf-event-source-private.h"
#include "gstctf-event-reader-private.h"
#include "gsttracecmd.h"

enum {
  PROP_0,
  PROP_DECODE_FIELDS,
  PROP_TRACE_CLASS,
  PROP_SIDE_STREAM,
};

G_DEFINE_FINAL_TYPE (GstCtfEventReader, gst_ctf_event_reader, G_TYPE_OBJECT);

static void
gst_ctf_event_reader_init (GstCtfEventReader * self)
{
  self->decode_fields = TRUE;
  self->cpu = -1;
  self->stream_clocks = g_array_new (FALSE, FALSE, sizeof (StreamClock));
}

static void
release_packet (GstCtfEventReader * self)
{
  if (self->buffer != NULL) {
    gst_buffer_unmap (self->buffer, &self->map);
    gst_buffer_unref (self->buffer);
    self->buffer = NULL;
  }
  g_clear_pointer (&self->bytes, g_bytes_unref);
  self->in_packet = FALSE;
  self->info = NULL;
  self->clock = NULL;
  self->ec = NULL;
  self->cpu = -1;
  self->stream_name = NULL;
}

static void
set_trace_class (GstCtfEventReader * self, GstCtfTraceClass * tc)
{
  release_packet (self);
  g_clear_pointer (&self->it, gst_ctf_event_iter_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  self->side = NULL;
  g_array_set_size (self->stream_clocks, 0);
  if (tc != NULL) {
    self->tc = gst_ctf_trace_class_ref (tc);
    self->side = gst_ctf_trace_dat_find_side_stream_class (tc);
    self->it = gst_ctf_event_iter_new (tc);
    gst_ctf_event_iter_set_recording (self->it, self->decode_fields);
  }
  self->cur = self->it;
}

static void
gst_ctf_event_reader_finalize (GObject * object)
{
  GstCtfEventReader *self = GST_CTF_EVENT_READER (object);

  set_trace_class (self, NULL);
  g_clear_pointer (&self->source, _gst_ctf_event_source_free);
  g_clear_error (&self->source_error);
  gst_clear_caps (&self->caps);
  g_array_free (self->stream_clocks, TRUE);
  G_OBJECT_CLASS (gst_ctf_event_reader_parent_class)->finalize (object);
}

static void
gst_ctf_event_reader_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfEventReader *self = GST_CTF_EVENT_READER (object);

  switch (prop_id) {
    case PROP_DECODE_FIELDS:
      gst_ctf_event_reader_set_decode_fields (self,
          g_value_get_boolean (value));
      break;
    case PROP_SIDE_STREAM:
      gst_ctf_event_reader_set_side_stream (self, g_value_get_boolean (value));
      break;
    case PROP_TRACE_CLASS:
      /* construct-only */
      if (g_value_get_boxed (value) != NULL)
        set_trace_class (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_event_reader_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfEventReader *self = GST_CTF_EVENT_READER (object);

  switch (prop_id) {
    case PROP_DECODE_FIELDS:
      g_value_set_boolean (value, self->decode_fields);
      break;
    case PROP_SIDE_STREAM:
      g_value_set_boolean (value, self->side_stream);
      break;
    case PROP_TRACE_CLASS:
      g_value_set_boxed (value, self->tc);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_event_reader_class_init (GstCtfEventReaderClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->finalize = gst_ctf_event_reader_finalize;
  gobject_class->set_property = gst_ctf_event_reader_set_property;
  gobject_class->get_property = gst_ctf_event_reader_get_property;

  /**
   * GstCtfEventReader:decode-fields:
   *
   * Whether events are fully decoded so that their fields can be read.
   * Without it the reader only decodes what it needs to walk events
   * (event header, sequence lengths, variant tags): faster when only
   * times and names are wanted.  Field getters then find nothing.
   */
  g_object_class_install_property (gobject_class, PROP_DECODE_FIELDS,
      g_param_spec_boolean ("decode-fields", "Decode fields",
          "Decode every field of every event (needed by the field getters)",
          TRUE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstCtfEventReader:side-stream:
   *
   * Whether the events of a trace.dat's side stream are given: the stream
   * class of the `tracecmd_*` event classes (the file's header and
   * options, ftrace event formats, saved cmdlines, kallsyms, printk
   * formats; gst_ctf_trace_dat_is_side_stream_class()), recognised by the
   * metadata, so also in a CTF copy of tracecmdsrc's output.  They
   * describe the trace rather than happen in it: off by default, as
   * `trace-cmd report` shows none of them.  Without it, a side stream
   * packet given to gst_ctf_event_reader_set_buffer() has no events.
   */
  g_object_class_install_property (gobject_class, PROP_SIDE_STREAM,
      g_param_spec_boolean ("side-stream", "Side stream",
          "Give the events of a trace.dat's side stream (tracecmd_* event "
          "classes), which describe the trace rather than happen in it",
          FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstCtfEventReader:trace-class:
   *
   * The trace class whose packets the reader decodes.
   */
  g_object_class_install_property (gobject_class, PROP_TRACE_CLASS,
      g_param_spec_boxed ("trace-class", "Trace class",
          "The trace class of the packets", GST_CTF_TYPE_TRACE_CLASS,
          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
          G_PARAM_STATIC_STRINGS));
}

/**
 * gst_ctf_event_reader_new:
 * @trace_class: the trace class of the packets that will be read
 *
 * Returns: (transfer full): a new reader
 */
GstCtfEventReader *
gst_ctf_event_reader_new (GstCtfTraceClass * trace_class)
{
  g_return_val_if_fail (trace_class != NULL, NULL);
  return g_object_new (GST_CTF_TYPE_EVENT_READER, "trace-class", trace_class,
      NULL);
}

/**
 * gst_ctf_event_reader_new_from_metadata:
 * @tsdl: plain-text metadata: TSDL (CTF 1.8 §7) or CTF 2 JSON fragments
 * @error: return location for a %GST_CTF_ERROR: the codes of
 *   gst_ctf_metadata_parse() (%GST_CTF_ERROR_METADATA_SYNTAX,
 *   %GST_CTF_ERROR_METADATA_INVALID)
 *
 * Returns: (transfer full) (nullable): a new reader, or %NULL on error
 */
GstCtfEventReader *
gst_ctf_event_reader_new_from_metadata (const gchar * tsdl, GError ** error)
{
  GstCtfTraceClass *tc;
  GstCtfEventReader *self;

  g_return_val_if_fail (tsdl != NULL, NULL);
  tc = gst_ctf_metadata_parse (tsdl, "caps metadata", error);
  if (tc == NULL)
    return NULL;
  self = gst_ctf_event_reader_new (tc);
  gst_ctf_trace_class_unref (tc);
  return self;
}

/**
 * gst_ctf_event_reader_new_from_caps:
 * @caps: fixed `application/x-ctf` caps (from a pad or a #GstSample)
 * @error: return location for a %GST_CTF_ERROR:
 *   %GST_CTF_ERROR_METADATA_INVALID when @caps carry no metadata, else the
 *   codes of gst_ctf_metadata_parse()
 *
 * Parses the trace class the caps carry.
 *
 * Returns: (transfer full) (nullable): a new reader, or %NULL on error
 */
GstCtfEventReader *
gst_ctf_event_reader_new_from_caps (GstCaps * caps, GError ** error)
{
  GstCtfEventReader *self;

  g_return_val_if_fail (GST_IS_CAPS (caps), NULL);
  self = g_object_new (GST_CTF_TYPE_EVENT_READER, NULL);
  if (!gst_ctf_event_reader_set_caps (self, caps, error)) {
    g_object_unref (self);
    return NULL;
  }
  return self;
}

/**
 * gst_ctf_event_reader_open:
 * @path: (type filename): a CTF 1.8 trace directory, its `metadata` file,
 *   a directory above one or several traces (read merged, as ctfsrc and
 *   `babeltrace2 DIR` read them), a trace-cmd `trace.dat` file or an
 *   LTTng 0.x trace directory (gst_ctf_packet_source_open())
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_IO (no
 *   such file or directory), %GST_CTF_ERROR_NO_TRACE (a directory with no
 *   trace below it), the metadata codes (%GST_CTF_ERROR_METADATA_SYNTAX,
 *   %GST_CTF_ERROR_METADATA_INVALID, %GST_CTF_ERROR_METADATA_PACKET),
 *   %GST_CTF_ERROR_PACKET (the first packet of a
 *   stream file cannot be read), %GST_CTF_ERROR_TRACEDAT (a file that is
 *   not a valid trace.dat; a corrupt ring-buffer page, which tracecmdsrc
 *   skips with a warning unless `strict`, is an error here), the errors
 *   of gst_ctf_lttng0_trace_open()
 *
 * Opens a trace for reading its events one at a time, in global time
 * order, without a pipeline: each gst_ctf_event_reader_next() gives the
 * next event of the whole trace, in the order (and with the ties) of
 * `ctfsrc ! ctftextsink` and babeltrace2 (nanoseconds from the clock
 * origin, then stream class id, then stream, then order in the stream),
 * for a trace.dat that of `tracecmdsrc strict=true ! ctftextsink`, for
 * an LTTng 0.x trace that of `lttng0src ! ctftextsink`.
 * Errors found later (a corrupt packet) come from
 * gst_ctf_event_reader_next() at their place in that order.  Discarded events and packets reported by the
 * tracer are counted (gst_ctf_event_reader_get_discarded_events()).
 *
 * The reader then takes no caps or packets (gst_ctf_event_reader_set_caps()
 * and gst_ctf_event_reader_set_buffer() refuse).  From Python, with the
 * GstCtf override: `for ev in GstCtf.EventReader.open(path): ...`; the
 * reader itself is the current event.
 *
 * Returns: (transfer full): a new reader, or %NULL on error
 */
GstCtfEventReader *
gst_ctf_event_reader_open (const gchar * path, GError ** error)
{
  GstCtfEventReader *self;
  GstCtfEventSource *source;

  g_return_val_if_fail (path != NULL, NULL);
  source = _gst_ctf_event_source_open (path, error);
  if (source == NULL)
    return NULL;
  self = gst_ctf_event_reader_new (_gst_ctf_event_source_get_trace_class
      (source));
  /* the source's iterators walk the events, not ours */
  g_clear_pointer (&self->it, gst_ctf_event_iter_free);
  self->cur = NULL;
  self->source = source;
  return self;
}

/**
 * gst_ctf_event_reader_get_discarded_events:
 * @reader: a reader made by gst_ctf_event_reader_open()
 *
 * Returns: the events the tracer reported discarded (increments of the
 *   packets' `events_discarded` counters) in the packets read so far
 */
guint64
gst_ctf_event_reader_get_discarded_events (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), 0);
  return reader->source ? _gst_ctf_event_source_get_discarded
      (reader->source, GST_CTF_MERGE_DISCARDED_EVENTS) : 0;
}

/**
 * gst_ctf_event_reader_get_discarded_packets:
 * @reader: a reader made by gst_ctf_event_reader_open()
 *
 * Returns: the packets missing so far (gaps of the packets'
 *   `packet_seq_num`)
 */
guint64
gst_ctf_event_reader_get_discarded_packets (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), 0);
  return reader->source ? _gst_ctf_event_source_get_discarded
      (reader->source, GST_CTF_MERGE_DISCARDED_PACKETS) : 0;
}

/**
 * gst_ctf_event_reader_set_caps:
 * @reader: a reader
 * @caps: fixed `application/x-ctf` caps
 * @error: return location for a %GST_CTF_ERROR, as
 *   gst_ctf_event_reader_new_from_caps()
 *
 * Switches to the trace class of @caps when its metadata differs from the
 * current one (new caps come when a trace grows or a merge adds a trace
 * class).  Cheap when the caps are the same: call it for every
 * #GstSample.  Drops the current packet when the trace class changes.
 *
 * Returns: %TRUE on success; on error the reader keeps its trace class
 */
gboolean
gst_ctf_event_reader_set_caps (GstCtfEventReader * reader, GstCaps * caps,
    GError ** error)
{
  const gchar *tsdl, *old;
  GstCtfTraceClass *tc;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), FALSE);
  g_return_val_if_fail (GST_IS_CAPS (caps), FALSE);
  g_return_val_if_fail (reader->source == NULL, FALSE);

  if (reader->caps == caps && reader->tc != NULL)
    return TRUE;
  tsdl = gst_ctf_caps_get_metadata (caps);
  if (tsdl == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Cannot read caps: expected %s caps with a `metadata` string "
        "field, got %" GST_PTR_FORMAT, GST_CTF_CAPS_MEDIA_TYPE, caps);
    return FALSE;
  }
  old = reader->caps ? gst_ctf_caps_get_metadata (reader->caps) : NULL;
  if (old == NULL || reader->tc == NULL || strcmp (old, tsdl) != 0) {
    tc = gst_ctf_metadata_parse (tsdl, "caps metadata", error);
    if (tc == NULL)
      return FALSE;
    set_trace_class (reader, tc);
    gst_ctf_trace_class_unref (tc);
  }
  gst_caps_replace (&reader->caps, caps);
  return TRUE;
}

/**
 * gst_ctf_event_reader_get_trace_class:
 * @reader: a reader
 *
 * Returns: (transfer none) (nullable): the trace class, %NULL before caps
 *   were set
 */
GstCtfTraceClass *
gst_ctf_event_reader_get_trace_class (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  return reader->tc;
}

/**
 * gst_ctf_event_reader_set_decode_fields:
 * @reader: a reader
 * @decode_fields: see #GstCtfEventReader:decode-fields
 *
 * Takes effect from the next packet given to the reader.
 */
void
gst_ctf_event_reader_set_decode_fields (GstCtfEventReader * reader,
    gboolean decode_fields)
{
  g_return_if_fail (GST_CTF_IS_EVENT_READER (reader));
  decode_fields = ! !decode_fields;
  if (reader->decode_fields == decode_fields)
    return;
  reader->decode_fields = decode_fields;
  g_object_notify (G_OBJECT (reader), "decode-fields");
}

/**
 * gst_ctf_event_reader_set_side_stream:
 * @reader: a reader
 * @side_stream: see #GstCtfEventReader:side-stream
 *
 * Whether the events of a trace.dat's side stream are given (default
 * %FALSE).  Takes effect at the next packet (the next event in a reader
 * made by gst_ctf_event_reader_open()).
 */
void
gst_ctf_event_reader_set_side_stream (GstCtfEventReader * reader,
    gboolean side_stream)
{
  g_return_if_fail (GST_CTF_IS_EVENT_READER (reader));
  side_stream = ! !side_stream;
  if (reader->side_stream == side_stream)
    return;
  reader->side_stream = side_stream;
  g_object_notify (G_OBJECT (reader), "side-stream");
}

/**
 * gst_ctf_event_reader_get_side_stream:
 * @reader: a reader
 *
 * Returns: whether the events of a trace.dat's side stream are given
 */
gboolean
gst_ctf_event_reader_get_side_stream (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), FALSE);
  return reader->side_stream;
}

/**
 * gst_ctf_event_reader_get_decode_fields:
 * @reader: a reader
 *
 * Returns: see #GstCtfEventReader:decode-fields
 */
gboolean
gst_ctf_event_reader_get_decode_fields (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), FALSE);
  return reader->decode_fields;
}

/* ------------------------------------------------------------------ */
/* Packets                                                             */
/* ------------------------------------------------------------------ */

static StreamClock *
find_stream_clock (GstCtfEventReader * self, guint64 sc_id, gint64 instance)
{
  guint i;

  for (i = 0; i < self->stream_clocks->len; i++) {
    StreamClock *s = &g_array_index (self->stream_clocks, StreamClock, i);
    if (s->stream_class_id == sc_id && s->instance == instance)
      return s;
  }
  return NULL;
}

static void
save_stream_clock (GstCtfEventReader * self)
{
  StreamClock *s;
  StreamClock n;

  if (self->info == NULL)
    return;
  s = find_stream_clock (self, self->info->stream_class_id,
      self->stream_key);
  if (s == NULL) {
    /* Bounded by the number of streams, not by packets. */
    if (self->stream_clocks->len >= 65536)
      return;
    n.stream_class_id = self->info->stream_class_id;
    n.instance = self->stream_key;
    n.clock = 0;
    g_array_append_val (self->stream_clocks, n);
    s = &g_array_index (self->stream_clocks, StreamClock,
        self->stream_clocks->len - 1);
  }
  s->clock = gst_ctf_event_iter_get_clock_value (self->it);
}

/* The CPU of a packet: LTTng's packet context `cpu_id`, else the stream
 * instance id (trace.dat streams: one per CPU, docs/design.md). */
static gint
packet_cpu (GstCtfEventReader * self)
{
  const GstCtfFieldValue *v;
  guint n, i;

  if (self->source != NULL)
    v = _gst_ctf_event_source_get_values (self->source,
        GST_CTF_SCOPE_PACKET_CONTEXT, &n);
  else
    v = gst_ctf_event_iter_get_values (self->it, GST_CTF_SCOPE_PACKET_CONTEXT,
        &n);
  if (v != NULL && n > 0 && v[0].fc->type == GST_CTF_FIELD_CLASS_STRUCT) {
    for (i = 1; i < n && i < v[0].end; i = MAX (v[i].end, i + 1)) {
      if (v[i].name != NULL && strcmp (v[i].name, "cpu_id") == 0 &&
          (v[i].fc->type == GST_CTF_FIELD_CLASS_INTEGER ||
              v[i].fc->type == GST_CTF_FIELD_CLASS_ENUM))
        return v[i].v.u <= G_MAXINT ? (gint) v[i].v.u : -1;
    }
  }
  if (self->info->has_stream_instance_id &&
      self->info->stream_instance_id <= G_MAXINT)
    return (gint) self->info->stream_instance_id;
  return -1;
}

static gboolean
start_packet (GstCtfEventReader * self, const guint8 * data, gsize size,
    const GstCtfPacketMeta * meta, GError ** error)
{
  const GstCtfStreamClass *sc;
  StreamClock *s;

  /* Packet context values are always recorded: they are per packet, and
   * the CPU comes from them. */
  gst_ctf_event_iter_set_recording (self->it, TRUE);
  if (!gst_ctf_event_iter_set_packet (self->it, data, size, error)) {
    release_packet (self);
    return FALSE;
  }
  self->info = gst_ctf_event_iter_get_packet_info (self->it);
  self->cpu = packet_cpu (self);
  gst_ctf_event_iter_set_recording (self->it, self->decode_fields);

  sc = self->info->stream_class;
  self->clock = sc ? sc->default_clock : NULL;
  if (self->info->has_stream_instance_id)
    self->stream_key = (gint64) self->info->stream_instance_id;
  else if (meta != NULL)
    self->stream_key = -1 - (gint64) meta->stream_index;
  else
    self->stream_key = -1;
  if (meta != NULL)
    self->stream_name = meta->stream_name;

  if (!self->info->has_timestamp_begin) {
    s = find_stream_clock (self, self->info->stream_class_id,
        self->stream_key);
    if (s != NULL)
      gst_ctf_event_iter_set_clock_value (self->it, s->clock);
  }
  /* the side stream's packets have no events unless asked for */
  self->in_packet = sc == NULL || sc != self->side || self->side_stream;
  return TRUE;
}

/**
 * gst_ctf_event_reader_set_buffer:
 * @reader: a reader with a trace class
 * @buffer: (transfer none): one CTF packet, byte for byte (a reference is
 *   kept, and the buffer stays mapped, until the next packet or
 *   gst_ctf_event_reader_clear())
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_PACKET
 *   when the packet header or context cannot be read (the message gives
 *   the offset in bits), %GST_CTF_ERROR_UNKNOWN_STREAM_CLASS
 *
 * Starts reading the events of @buffer.  The stream is taken from the
 * packet header, and the stream name from the buffer's #GstCtfPacketMeta
 * when present.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_ctf_event_reader_set_buffer (GstCtfEventReader * reader,
    GstBuffer * buffer, GError ** error)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), FALSE);
  g_return_val_if_fail (GST_IS_BUFFER (buffer), FALSE);
  g_return_val_if_fail (reader->it != NULL, FALSE);

  if (reader->in_packet)
    save_stream_clock (reader);
  release_packet (reader);
  if (!gst_buffer_map (buffer, &reader->map, GST_MAP_READ)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot map packet buffer for reading: size=%" G_GSIZE_FORMAT
        " bytes", gst_buffer_get_size (buffer));
    return FALSE;
  }
  reader->buffer = gst_buffer_ref (buffer);
  return start_packet (reader, reader->map.data, reader->map.size,
      gst_buffer_get_ctf_packet_meta (buffer), error);
}

/**
 * gst_ctf_event_reader_set_bytes:
 * @reader: a reader with a trace class
 * @bytes: (transfer none): one CTF packet, byte for byte (a reference is
 *   kept)
 * @error: as gst_ctf_event_reader_set_buffer()
 *
 * Like gst_ctf_event_reader_set_buffer() for bytes outside GStreamer.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_ctf_event_reader_set_bytes (GstCtfEventReader * reader, GBytes * bytes,
    GError ** error)
{
  gsize size;
  const guint8 *data;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);
  g_return_val_if_fail (reader->it != NULL, FALSE);

  if (reader->in_packet)
    save_stream_clock (reader);
  release_packet (reader);
  reader->bytes = g_bytes_ref (bytes);
  data = g_bytes_get_data (bytes, &size);
  return start_packet (reader, data, size, NULL, error);
}

/**
 * gst_ctf_event_reader_clear:
 * @reader: a reader
 *
 * Drops the current packet (and the buffer reference) and forgets the
 * clock values of all streams (to start another trace of the same class).
 */
void
gst_ctf_event_reader_clear (GstCtfEventReader * reader)
{
  g_return_if_fail (GST_CTF_IS_EVENT_READER (reader));
  release_packet (reader);
  g_array_set_size (reader->stream_clocks, 0);
}

/* Trace mode: the next event of the whole trace. */
static gboolean
next_in_trace (GstCtfEventReader * self, GError ** error)
{
  GstCtfMergeItem item;
  GError *err = NULL;

  self->cur = NULL;
  self->info = NULL;
  self->clock = NULL;
  self->stream_name = NULL;
  self->cpu = -1;
  if (self->source_error != NULL) {
    g_propagate_error (error, g_error_copy (self->source_error));
    return FALSE;
  }
  if (self->source_done)
    return FALSE;
  do {
    if (!_gst_ctf_event_source_next (self->source, self->decode_fields,
            &item, &err)) {
      if (err != NULL) {
        self->source_error = g_error_copy (err);
        g_propagate_error (error, err);
      } else {
        self->source_done = TRUE;
      }
      return FALSE;
    }
    /* the side stream describes the trace: skipped unless asked for */
  } while (self->side != NULL && !self->side_stream &&
      gst_ctf_event_iter_get_packet_info (item.iter)->stream_class ==
      self->side);
  self->cur = item.iter;
  self->ec = gst_ctf_event_iter_get_event_class (item.iter);
  self->info = gst_ctf_event_iter_get_packet_info (item.iter);
  self->clock = self->info->stream_class ?
      self->info->stream_class->default_clock : NULL;
  self->stream_name = item.stream_name;
  self->cpu = packet_cpu (self);
  return TRUE;
}

/**
 * gst_ctf_event_reader_next:
 * @reader: a reader
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_PACKET
 *   (an event runs past the packet's content; the message gives the
 *   offset in bits; or, in a reader made by gst_ctf_event_reader_open(),
 *   a corrupt packet of a stream file), %GST_CTF_ERROR_UNKNOWN_EVENT_CLASS,
 *   %GST_CTF_ERROR_UNKNOWN_STREAM_CLASS, %GST_CTF_ERROR_TRACEDAT (a
 *   corrupt trace.dat page or section)
 *
 * Decodes the next event of the current packet; in a reader made by
 * gst_ctf_event_reader_open(), the next event of the whole trace (an
 * error then stays: every later call gives it again).
 *
 * Returns: %TRUE when positioned on an event; %FALSE at the end of the
 *   packet (with @error unset) or on error
 */
gboolean
gst_ctf_event_reader_next (GstCtfEventReader * reader, GError ** error)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), FALSE);

  reader->ec = NULL;
  if (reader->source != NULL)
    return next_in_trace (reader, error);
  if (!reader->in_packet)
    return FALSE;
  if (gst_ctf_event_iter_next (reader->it, error)) {
    reader->ec = gst_ctf_event_iter_get_event_class (reader->it);
    return TRUE;
  }
  save_stream_clock (reader);
  reader->in_packet = FALSE;
  return FALSE;
}

/**
 * gst_ctf_event_reader_next_event:
 * @reader: a reader
 * @timestamp_ns: (out) (optional): the event time, as
 *   gst_ctf_event_reader_get_timestamp_ns()
 * @name: (out) (optional) (transfer none) (nullable): the event class
 *   name, as gst_ctf_event_reader_get_event_name()
 * @error: as gst_ctf_event_reader_next()
 *
 * gst_ctf_event_reader_next() and the two most used getters in one call:
 * from Python, `ok, ts, name = reader.next_event()` costs one call per
 * event instead of three.
 *
 * Returns: %TRUE when positioned on an event; %FALSE at the end of the
 *   packet (with @error unset, @timestamp_ns 0 and @name %NULL) or on
 *   error
 */
gboolean
gst_ctf_event_reader_next_event (GstCtfEventReader * reader,
    gint64 * timestamp_ns, const gchar ** name, GError ** error)
{
  gboolean ok = gst_ctf_event_reader_next (reader, error);

  if (timestamp_ns != NULL)
    *timestamp_ns = ok ? gst_ctf_event_reader_get_timestamp_ns (reader) : 0;
  if (name != NULL)
    *name = ok ? reader->ec->name : NULL;
  return ok;
}

/**
 * gst_ctf_event_reader_skip_events:
 * @reader: a reader
 * @error: as gst_ctf_event_reader_next()
 *
 * Walks the rest of the current packet without stopping (one call from a
 * binding instead of one per event, to count events); in a reader made
 * by gst_ctf_event_reader_open(), the rest of the trace.
 *
 * Returns: the number of events walked; with @error set when a corrupt
 *   event stopped the walk
 */
guint
gst_ctf_event_reader_skip_events (GstCtfEventReader * reader,
    GError ** error)
{
  guint n = 0;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), 0);
  while (gst_ctf_event_reader_next (reader, error))
    n++;
  return n;
}

/* ------------------------------------------------------------------ */
/* Current event                                                       */
/* ------------------------------------------------------------------ */

/**
 * gst_ctf_event_reader_get_stream_class_id:
 * @reader: a reader with a packet
 *
 * Returns: the stream class id of the current packet (0 when the trace
 *   has one unnamed stream class)
 */
guint64
gst_ctf_event_reader_get_stream_class_id (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), 0);
  return reader->info ? reader->info->stream_class_id : 0;
}

/**
 * gst_ctf_event_reader_get_stream_instance_id:
 * @reader: a reader with a packet
 *
 * Returns: the stream instance id of the packet header (CTF 1.8 §5.1
 *   `stream_instance_id`), -1 when it has none (or above %G_MAXINT64)
 */
gint64
gst_ctf_event_reader_get_stream_instance_id (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), -1);
  if (reader->info == NULL || !reader->info->has_stream_instance_id ||
      reader->info->stream_instance_id > G_MAXINT64)
    return -1;
  return (gint64) reader->info->stream_instance_id;
}

/**
 * gst_ctf_event_reader_get_cpu:
 * @reader: a reader with a packet
 *
 * Returns: the CPU of the current packet: the packet context's `cpu_id`
 *   (LTTng), else the stream instance id (trace.dat: one stream per CPU);
 *   -1 when unknown
 */
gint
gst_ctf_event_reader_get_cpu (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), -1);
  return reader->cpu;
}

/**
 * gst_ctf_event_reader_get_stream_name:
 * @reader: a reader with a packet
 *
 * Returns: (transfer none) (nullable): the data stream file name the
 *   packet came from (from its #GstCtfPacketMeta), or %NULL
 */
const gchar *
gst_ctf_event_reader_get_stream_name (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  return reader->stream_name;
}

/**
 * gst_ctf_event_reader_get_packet_events_discarded:
 * @reader: a reader with a packet
 *
 * Returns: the packet context's `events_discarded` snapshot counter (CTF
 *   1.8 §5.2; not a delta), 0 when absent
 */
guint64
gst_ctf_event_reader_get_packet_events_discarded (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), 0);
  if (reader->info == NULL || !reader->info->has_events_discarded)
    return 0;
  return reader->info->events_discarded;
}

/**
 * gst_ctf_event_reader_has_timestamp:
 * @reader: a reader
 *
 * Returns: whether the current packet's stream class has a clock, so that
 *   gst_ctf_event_reader_get_timestamp_ns() is meaningful
 */
gboolean
gst_ctf_event_reader_has_timestamp (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), FALSE);
  return reader->clock != NULL;
}

/**
 * gst_ctf_event_reader_get_timestamp_ns:
 * @reader: a reader positioned on an event
 *
 * The event time as babeltrace2 prints it: nanoseconds from the clock's
 * origin (the Unix epoch for LTTng and trace.dat clocks), offsets
 * included (see gst_ctf_clock_class_cycles_to_ns_from_origin()).
 *
 * Returns: nanoseconds; 0 without a clock, %G_MININT64 on overflow
 */
gint64
gst_ctf_event_reader_get_timestamp_ns (GstCtfEventReader * reader)
{
  gint64 ns;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), 0);
  if (reader->clock == NULL)
    return 0;
  if (!gst_ctf_clock_class_cycles_to_ns_from_origin (reader->clock,
          gst_ctf_event_iter_get_clock_value (reader->cur), &ns))
    return G_MININT64;
  return ns;
}

/**
 * gst_ctf_event_reader_get_clock_value:
 * @reader: a reader positioned on an event
 *
 * Returns: the event time in cycles of the stream class's clock
 */
guint64
gst_ctf_event_reader_get_clock_value (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), 0);
  return reader->cur ? gst_ctf_event_iter_get_clock_value (reader->cur) : 0;
}

/**
 * gst_ctf_event_reader_get_event_name:
 * @reader: a reader positioned on an event
 *
 * Returns: (transfer none) (nullable): the event class name, %NULL when
 *   not on an event
 */
const gchar *
gst_ctf_event_reader_get_event_name (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  return reader->ec ? reader->ec->name : NULL;
}

/**
 * gst_ctf_event_reader_get_event_class_id:
 * @reader: a reader positioned on an event
 *
 * Returns: the event class id, unique within the stream class (a cheap
 *   key for per-class caches in bindings)
 */
guint64
gst_ctf_event_reader_get_event_class_id (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), 0);
  return reader->ec ? reader->ec->id : 0;
}

/**
 * gst_ctf_event_reader_get_event_loglevel:
 * @reader: a reader positioned on an event
 *
 * Returns: the event class `loglevel`, -1 when it has none
 */
gint64
gst_ctf_event_reader_get_event_loglevel (GstCtfEventReader * reader)
{
  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), -1);
  return reader->ec ? reader->ec->loglevel : -1;
}

/* ------------------------------------------------------------------ */
/* Fields                                                              */
/* ------------------------------------------------------------------ */

/* TSDL names may start with an underscore that readers strip for display
 * (CTF 1.8 §4.2.2); both spellings find the field. */
