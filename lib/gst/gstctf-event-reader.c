/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfEventReader: the packet reader (gstctf-reader.h) as a GObject for
 * bindings.  Iteration allocates nothing; field getters build the GValue or
 * GVariant they return from the values the packet reader recorded (CTF 1.8
 * §4 types map to: integers and enumerations -> int64/uint64, floats ->
 * double, strings and text arrays/sequences -> string, structures ->
 * a{sv}, arrays and sequences -> av, variants -> their selected option).
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

/* Limits of one path given to the field getters. */
#define PATH_MAX_LEN 1024

/* Last clock value of a stream, for packets without `timestamp_begin`
 * (CTF 1.8 §8: the clock goes on from the previous packet). */
typedef struct {
  guint64 stream_class_id;
  gint64 instance;
  guint64 clock;
} StreamClock;

struct _GstCtfEventReader {
  GObject parent;

  GstCtfTraceClass *tc;
  GstCtfEventIter *it;          /* packet mode: our own iterator */
  GstCtfEventIter *cur;         /* the iterator on the current event */
  GstCaps *caps;                /* caps tc was made from, or NULL */
  gboolean decode_fields;

  /* current packet */
  GstBuffer *buffer;
  GstMapInfo map;
  GBytes *bytes;
  gboolean in_packet;
  const GstCtfPacketInfo *info;
  const GstCtfClockClass *clock;
  gint cpu;
  const gchar *stream_name;
  gint64 stream_key;

  /* current event */
  const GstCtfEventClass *ec;

  GArray *stream_clocks;        /* StreamClock */

  /* trace mode (gst_ctf_event_reader_open()) */
  GstCtfEventSource *source;
  GError *source_error;         /* given again by every later next() */
  gboolean source_done;
};

enum {
  PROP_0,
  PROP_DECODE_FIELDS,
  PROP_TRACE_CLASS,
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
  g_array_set_size (self->stream_clocks, 0);
  if (tc != NULL) {
    self->tc = gst_ctf_trace_class_ref (tc);
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
 *   `babeltrace2 DIR` read them), or a trace-cmd `trace.dat` file
 * @error: return location for a %GST_CTF_ERROR: %GST_CTF_ERROR_IO (no
 *   such file or directory), %GST_CTF_ERROR_NO_TRACE (a directory with no
 *   trace below it), the metadata codes (%GST_CTF_ERROR_METADATA_SYNTAX,
 *   %GST_CTF_ERROR_METADATA_INVALID, %GST_CTF_ERROR_METADATA_PACKET),
 *   %GST_CTF_ERROR_PACKET (the first packet of a
 *   stream file cannot be read), %GST_CTF_ERROR_TRACEDAT (a file that is
 *   not a valid trace.dat; a corrupt ring-buffer page, which tracecmdsrc
 *   skips with a warning unless `strict`, is an error here)
 *
 * Opens a trace for reading its events one at a time, in global time
 * order, without a pipeline: each gst_ctf_event_reader_next() gives the
 * next event of the whole trace, in the order (and with the ties) of
 * `ctfsrc ! ctftextsink` and babeltrace2 (nanoseconds from the clock
 * origin, then stream class id, then stream, then order in the stream),
 * or for a trace.dat that of `tracecmdsrc strict=true ! ctftextsink`.
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
  self->in_packet = TRUE;
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
  if (!_gst_ctf_event_source_next (self->source, self->decode_fields, &item,
          &err)) {
    if (err != NULL) {
      self->source_error = g_error_copy (err);
      g_propagate_error (error, err);
    } else {
      self->source_done = TRUE;
    }
    return FALSE;
  }
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
static gboolean
name_matches (const gchar * tsdl_name, const gchar * want, gsize len)
{
  if (tsdl_name == NULL)
    return FALSE;
  if (strncmp (tsdl_name, want, len) == 0 && tsdl_name[len] == '\0')
    return TRUE;
  return tsdl_name[0] == '_' && strncmp (tsdl_name + 1, want, len) == 0 &&
      tsdl_name[len + 1] == '\0';
}

static const gchar *
display_name (const gchar * tsdl_name)
{
  if (tsdl_name == NULL)
    return "";
  return tsdl_name[0] == '_' ? tsdl_name + 1 : tsdl_name;
}

/* A variant stands for its selected option. */
static guint
unwrap_variant (const GstCtfFieldValue * v, guint n, guint i)
{
  while (i < n && v[i].fc->type == GST_CTF_FIELD_CLASS_VARIANT &&
      v[i].end > i + 1)
    i++;
  return i;
}

/* The packet reader's text array rule (CTF 1.8 §4.2.3 note, as in
 * gstctf-plan.c): byte-aligned 8-bit integers with an encoding are kept
 * as bytes, with no child values. */
static gboolean
fc_is_text_array (const GstCtfFieldClass * fc)
{
  const GstCtfFieldClass *e = fc->element;
  guint a;

  if ((fc->type != GST_CTF_FIELD_CLASS_ARRAY &&
          fc->type != GST_CTF_FIELD_CLASS_SEQUENCE) || e == NULL)
    return FALSE;
  a = e->alignment;
  if (a == 0 || (a & (a - 1)) != 0)
    a = 1;
  return e->type == GST_CTF_FIELD_CLASS_INTEGER && e->integer.size == 8 &&
      a % 8 == 0 && e->integer.encoding != GST_CTF_ENCODING_NONE;
}

static gboolean
is_compound_with_children (const GstCtfFieldValue * v, guint i)
{
  switch (v[i].fc->type) {
    case GST_CTF_FIELD_CLASS_STRUCT:
      return TRUE;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      return !fc_is_text_array (v[i].fc);
    default:
      return FALSE;
  }
}

/* Finds @path ("a.b[2].c") below the root @v[0] of one scope; returns the
 * value index or -1. */
static gint
resolve_in_scope (const GstCtfFieldValue * v, guint n, const gchar * path)
{
  const gchar *p = path;
  guint cur = 0, i;

  if (n == 0)
    return -1;
  while (*p != '\0') {
    gsize len = strcspn (p, ".[");
    gint found = -1;

    cur = unwrap_variant (v, n, cur);
    if (cur >= n || v[cur].fc->type != GST_CTF_FIELD_CLASS_STRUCT)
      return -1;
    for (i = cur + 1; i < v[cur].end && i < n; i = MAX (v[i].end, i + 1)) {
      if (name_matches (v[i].name, p, len)) {
        found = (gint) i;
        break;
      }
    }
    if (found < 0)
      return -1;
    cur = (guint) found;
    p += len;
    while (*p == '[') {
      gchar *endp;
      guint64 idx = g_ascii_strtoull (p + 1, &endp, 10);
      guint64 k;

      if (endp == p + 1 || *endp != ']')
        return -1;
      p = endp + 1;
      cur = unwrap_variant (v, n, cur);
      if (cur >= n || (v[cur].fc->type != GST_CTF_FIELD_CLASS_ARRAY &&
              v[cur].fc->type != GST_CTF_FIELD_CLASS_SEQUENCE) ||
          !is_compound_with_children (v, cur) || idx >= v[cur].v.u)
        return -1;
      i = cur + 1;
      for (k = 0; k < idx && i < v[cur].end; k++)
        i = MAX (v[i].end, i + 1);
      if (i >= v[cur].end || i >= n)
        return -1;
      cur = i;
    }
    if (*p == '.')
      p++;
    else if (*p != '\0')
      return -1;
  }
  return (gint) unwrap_variant (v, n, cur);
}

/* The values of one scope of the current event: the packet reader's, or
 * in trace mode the merger's (decoded on demand when the merger does not
 * record, see GstCtfEventReader:decode-fields). */
static const GstCtfFieldValue *
scope_values (GstCtfEventReader * self, GstCtfScope scope, guint * n)
{
  *n = 0;
  if (self->cur == NULL)
    return NULL;
  if (self->source != NULL)
    return _gst_ctf_event_source_get_values (self->source, scope, n);
  return gst_ctf_event_iter_get_values (self->cur, scope, n);
}

static const struct {
  const gchar *prefix;
  GstCtfScope scope;
} scope_prefixes[] = {
  {"payload", GST_CTF_SCOPE_EVENT_PAYLOAD},
  {"context", GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT},
  {"common-context", GST_CTF_SCOPE_EVENT_COMMON_CONTEXT},
  {"header", GST_CTF_SCOPE_EVENT_HEADER},
  {"packet-context", GST_CTF_SCOPE_PACKET_CONTEXT},
  {"packet-header", GST_CTF_SCOPE_PACKET_HEADER},
};

/* Search order without a scope prefix: what babeltrace2 prints last comes
 * first (the payload is what users ask for most). */
static const GstCtfScope search_order[] = {
  GST_CTF_SCOPE_EVENT_PAYLOAD,
  GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT,
  GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
  GST_CTF_SCOPE_PACKET_CONTEXT,
  GST_CTF_SCOPE_EVENT_HEADER,
  GST_CTF_SCOPE_PACKET_HEADER,
};

static const GstCtfFieldValue *
resolve_path (GstCtfEventReader * self, const gchar * path, guint * index,
    guint * n_values)
{
  const GstCtfFieldValue *v;
  const gchar *colon;
  guint n, s;
  gint i;

  if (self->cur == NULL || self->ec == NULL || path == NULL ||
      strnlen (path, PATH_MAX_LEN + 1) > PATH_MAX_LEN)
    return NULL;
  colon = strchr (path, ':');
  if (colon != NULL) {
    gsize plen = colon - path;

    for (s = 0; s < G_N_ELEMENTS (scope_prefixes); s++) {
      if (strlen (scope_prefixes[s].prefix) == plen &&
          strncmp (scope_prefixes[s].prefix, path, plen) == 0) {
        v = scope_values (self, scope_prefixes[s].scope, &n);
        i = resolve_in_scope (v, n, colon + 1);
        if (i < 0)
          return NULL;
        *index = (guint) i;
        *n_values = n;
        return v;
      }
    }
    return NULL;
  }
  for (s = 0; s < G_N_ELEMENTS (search_order); s++) {
    v = scope_values (self, search_order[s], &n);
    i = resolve_in_scope (v, n, path);
    if (i >= 0) {
      *index = (guint) i;
      *n_values = n;
      return v;
    }
  }
  return NULL;
}

static gchar *
text_dup (const gchar * ptr, gsize len)
{
  if (ptr == NULL)
    return g_strdup ("");
  /* Text arrays are not cut at a NUL by the reader (CTF 1.8 §4.2.3 note);
   * strings are already. */
  len = strnlen (ptr, len);
  if (g_utf8_validate_len (ptr, len, NULL))
    return g_strndup (ptr, len);
  return g_utf8_make_valid (ptr, len);
}

static gboolean
is_text (const GstCtfFieldValue * v, guint i)
{
  GstCtfFieldClassType t = v[i].fc->type;

  return t == GST_CTF_FIELD_CLASS_STRING ||
      ((t == GST_CTF_FIELD_CLASS_ARRAY || t == GST_CTF_FIELD_CLASS_SEQUENCE)
      && !is_compound_with_children (v, i));
}

static gboolean
mapping_holds (const GstCtfFieldClass * fc, const GstCtfEnumMapping * m,
    const GstCtfFieldValue * v)
{
  if (fc->integer.is_signed)
    return (gint64) m->lower <= v->v.i && v->v.i <= (gint64) m->upper;
  return m->lower <= v->v.u && v->v.u <= m->upper;
}

/* An enumeration value with its labels, `(xas)` or `(tas)`: each label
 * once, when one of its ranges holds the value, in the order of the
 * label's first mapping (babeltrace2's order: its Python bindings' and
 * its text output's). */
static GVariant *
enum_to_variant (const GstCtfFieldValue * v)
{
  const GstCtfFieldClass *fc = v->fc;
  const GstCtfEnumMapping *maps = fc->enumeration.mappings;
  guint n = fc->enumeration.n_mappings, i, j;
  GVariantBuilder labels;
  GVariant *value;

  g_variant_builder_init (&labels, G_VARIANT_TYPE_STRING_ARRAY);
  for (i = 0; i < n; i++) {
    const gchar *label = maps[i].label ? maps[i].label : "";
    gboolean held = FALSE;

    /* Only at the label's first mapping: is it new, and does any of its
     * mappings hold the value? */
    for (j = 0; j < i; j++)
      if (g_strcmp0 (maps[j].label, maps[i].label) == 0)
        break;
    if (j < i)
      continue;
    for (j = i; j < n && !held; j++)
      held = g_strcmp0 (maps[j].label, maps[i].label) == 0 &&
          mapping_holds (fc, &maps[j], v);
    if (held)
      g_variant_builder_add (&labels, "s", label);
  }
  value = fc->integer.is_signed ? g_variant_new_int64 (v->v.i) :
      g_variant_new_uint64 (v->v.u);
  return g_variant_new ("(@*as)", value, &labels);
}

static GVariant *
value_to_variant (const GstCtfFieldValue * v, guint n, guint i, guint depth,
    GstCtfValueFlags flags)
{
  GVariantBuilder b;
  guint c;

  i = unwrap_variant (v, n, i);
  if (i >= n)
    return g_variant_new_string ("");
  switch (v[i].fc->type) {
    case GST_CTF_FIELD_CLASS_ENUM:
      if (flags & GST_CTF_VALUE_ENUM_LABELS)
        return enum_to_variant (&v[i]);
      /* fall through */
    case GST_CTF_FIELD_CLASS_INTEGER:
      return v[i].fc->integer.is_signed ? g_variant_new_int64 (v[i].v.i) :
          g_variant_new_uint64 (v[i].v.u);
    case GST_CTF_FIELD_CLASS_FLOAT:
      return g_variant_new_double (v[i].v.d);
    case GST_CTF_FIELD_CLASS_VARIANT:
      /* an option-less variant */
      return g_variant_new_string ("");
    default:
      break;
  }
  if (is_text (v, i))
    return g_variant_new_take_string (text_dup (v[i].v.s.ptr, v[i].v.s.len));
  /* The packet reader limits nesting (GST_CTF_PLAN_MAX_DEPTH); this
   * guard keeps the recursion bounded on its own. */
  if (depth > 128)
    return g_variant_new_string ("");
  if (v[i].fc->type == GST_CTF_FIELD_CLASS_STRUCT) {
    g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
    for (c = i + 1; c < v[i].end && c < n; c = MAX (v[c].end, c + 1))
      g_variant_builder_add (&b, "{sv}", display_name (v[c].name),
          value_to_variant (v, n, c, depth + 1, flags));
  } else {
    g_variant_builder_init (&b, G_VARIANT_TYPE ("av"));
    for (c = i + 1; c < v[i].end && c < n; c = MAX (v[c].end, c + 1))
      g_variant_builder_add (&b, "v", value_to_variant (v, n, c, depth + 1,
              flags));
  }
  return g_variant_builder_end (&b);
}

static void
value_to_gvalue (const GstCtfFieldValue * v, guint n, guint i, GValue * value,
    GstCtfValueFlags flags)
{
  switch (v[i].fc->type) {
    case GST_CTF_FIELD_CLASS_ENUM:
      if (flags & GST_CTF_VALUE_ENUM_LABELS) {
        g_value_init (value, G_TYPE_VARIANT);
        g_value_take_variant (value, g_variant_ref_sink (enum_to_variant
                (&v[i])));
        return;
      }
      /* fall through */
    case GST_CTF_FIELD_CLASS_INTEGER:
      if (v[i].fc->integer.is_signed) {
        g_value_init (value, G_TYPE_INT64);
        g_value_set_int64 (value, v[i].v.i);
      } else {
        g_value_init (value, G_TYPE_UINT64);
        g_value_set_uint64 (value, v[i].v.u);
      }
      return;
    case GST_CTF_FIELD_CLASS_FLOAT:
      g_value_init (value, G_TYPE_DOUBLE);
      g_value_set_double (value, v[i].v.d);
      return;
    default:
      break;
  }
  if (is_text (v, i)) {
    g_value_init (value, G_TYPE_STRING);
    g_value_take_string (value, text_dup (v[i].v.s.ptr, v[i].v.s.len));
    return;
  }
  g_value_init (value, G_TYPE_VARIANT);
  g_value_take_variant (value, g_variant_ref_sink (value_to_variant (v, n,
              i, 0, flags)));
}

static void
free_gvalue (GValue * v)
{
  g_value_unset (v);
  g_free (v);
}

/**
 * gst_ctf_event_reader_get_field: (skip)
 * @reader: a reader positioned on an event (with
 *   #GstCtfEventReader:decode-fields)
 * @path: a field name, or a path such as `a.b[2].c`, optionally prefixed
 *   by a scope: `payload:`, `context:` (event specific context),
 *   `common-context:`, `header:` (event header), `packet-context:`,
 *   `packet-header:`.  Without a prefix, scopes are searched in that
 *   order.  A leading underscore of a TSDL name is optional.
 * @value: (out caller-allocates): an uninitialized #GValue that receives
 *   the value: #G_TYPE_INT64 or #G_TYPE_UINT64 for integers and
 *   enumerations (by the signedness of the field), #G_TYPE_DOUBLE for
 *   floats, #G_TYPE_STRING for strings and text arrays (invalid UTF-8
 *   replaced), #G_TYPE_VARIANT for structures (`a{sv}`) and arrays (`av`).
 *   A variant gives its selected option's value.
 *
 * Reads one field of the current event.  Bindings get
 * gst_ctf_event_reader_dup_field() under this name.
 *
 * Returns: %TRUE when the field exists (@value is then set; unset it)
 */
gboolean
gst_ctf_event_reader_get_field (GstCtfEventReader * reader,
    const gchar * path, GValue * value)
{
  const GstCtfFieldValue *v;
  guint i, n;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  v = resolve_path (reader, path, &i, &n);
  if (v == NULL)
    return FALSE;
  value_to_gvalue (v, n, i, value, GST_CTF_VALUE_NONE);
  return TRUE;
}

/**
 * gst_ctf_event_reader_dup_field: (rename-to gst_ctf_event_reader_get_field)
 * @reader: a reader positioned on an event
 * @path: as gst_ctf_event_reader_get_field()
 *
 * gst_ctf_event_reader_get_field() for bindings: in Python,
 * `reader.get_field("msg")` gives the value, or %None when the event has
 * no such field.
 *
 * Returns: (transfer full) (nullable): a new #GValue (free with
 *   g_boxed_free()), or %NULL when there is no such field
 */
GValue *
gst_ctf_event_reader_dup_field (GstCtfEventReader * reader,
    const gchar * path)
{
  GValue *value = g_new0 (GValue, 1);

  if (!gst_ctf_event_reader_get_field (reader, path, value)) {
    g_free (value);
    return NULL;
  }
  return value;
}

/**
 * gst_ctf_event_reader_get_payload:
 * @reader: a reader positioned on an event
 *
 * gst_ctf_event_reader_get_fields() of the event payload: the event's own
 * fields.
 *
 * Returns: (transfer full): an `a{sv}` dictionary
 */
GVariant *
gst_ctf_event_reader_get_payload (GstCtfEventReader * reader)
{
  return gst_ctf_event_reader_get_fields (reader,
      GST_CTF_SCOPE_EVENT_PAYLOAD);
}

/* The values of a scope when it is a structure, else NULL. */
static const GstCtfFieldValue *
struct_scope (GstCtfEventReader * reader, GstCtfScope scope, guint * n)
{
  const GstCtfFieldValue *v = NULL;

  *n = 0;
  if (reader->ec != NULL || scope <= GST_CTF_SCOPE_PACKET_CONTEXT)
    v = scope_values (reader, scope, n);
  if (v == NULL || *n == 0 || v[0].fc->type != GST_CTF_FIELD_CLASS_STRUCT)
    return NULL;
  return v;
}

/**
 * gst_ctf_event_reader_get_field_variant:
 * @reader: a reader positioned on an event
 * @path: as gst_ctf_event_reader_get_field()
 *
 * Like gst_ctf_event_reader_get_field(), as a #GVariant: `x`/`t`
 * integers and enumerations, `d` floats, `s` text, `a{sv}` structures
 * (fields in declaration order), `av` arrays and sequences.
 *
 * Returns: (transfer full) (nullable): the value, %NULL when there is no
 *   such field
 */
GVariant *
gst_ctf_event_reader_get_field_variant (GstCtfEventReader * reader,
    const gchar * path)
{
  return gst_ctf_event_reader_get_field_variant_full (reader, path,
      GST_CTF_VALUE_NONE);
}

/**
 * gst_ctf_event_reader_get_field_variant_full:
 * @reader: a reader positioned on an event
 * @path: as gst_ctf_event_reader_get_field()
 * @flags: #GstCtfValueFlags
 *
 * gst_ctf_event_reader_get_field_variant() with options: with
 * %GST_CTF_VALUE_ENUM_LABELS, enumerations are `(xas)` (signed) or
 * `(tas)` (unsigned) pairs of the value and its labels.
 *
 * Returns: (transfer full) (nullable): the value, %NULL when there is no
 *   such field
 */
GVariant *
gst_ctf_event_reader_get_field_variant_full (GstCtfEventReader * reader,
    const gchar * path, GstCtfValueFlags flags)
{
  const GstCtfFieldValue *v;
  guint i, n;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  v = resolve_path (reader, path, &i, &n);
  if (v == NULL)
    return NULL;
  return g_variant_ref_sink (value_to_variant (v, n, i, 0, flags));
}

/**
 * gst_ctf_event_reader_get_fields:
 * @reader: a reader positioned on an event
 * @scope: which scope (#GST_CTF_SCOPE_EVENT_PAYLOAD for the event's
 *   fields)
 *
 * All the fields of one scope of the current event (or packet, for the
 * packet scopes) as a dictionary in declaration order, names without the
 * TSDL leading underscore, values typed as
 * gst_ctf_event_reader_get_field_variant() says.
 *
 * Returns: (transfer full): an `a{sv}` dictionary, empty when the scope is
 *   absent or fields are not decoded
 */
GVariant *
gst_ctf_event_reader_get_fields (GstCtfEventReader * reader,
    GstCtfScope scope)
{
  return gst_ctf_event_reader_get_fields_full (reader, scope,
      GST_CTF_VALUE_NONE);
}

/**
 * gst_ctf_event_reader_get_fields_full:
 * @reader: a reader positioned on an event
 * @scope: which scope
 * @flags: #GstCtfValueFlags
 *
 * gst_ctf_event_reader_get_fields() with the options of
 * gst_ctf_event_reader_get_field_variant_full().
 *
 * Returns: (transfer full): an `a{sv}` dictionary
 */
GVariant *
gst_ctf_event_reader_get_fields_full (GstCtfEventReader * reader,
    GstCtfScope scope, GstCtfValueFlags flags)
{
  const GstCtfFieldValue *v;
  guint n;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  v = struct_scope (reader, scope, &n);
  if (v == NULL)
    return g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE
            ("{sv}"), NULL, 0));
  return g_variant_ref_sink (value_to_variant (v, n, 0, 0, flags));
}

/**
 * gst_ctf_event_reader_get_fields_table:
 * @reader: a reader positioned on an event
 * @scope: which scope, as gst_ctf_event_reader_get_fields()
 *
 * The top-level fields of one scope as a hash table of #GValue, typed as
 * gst_ctf_event_reader_get_field() says.  For bindings: PyGObject turns
 * it into a `dict` in C, much faster than unpacking the #GVariant of
 * gst_ctf_event_reader_get_fields().
 *
 * Returns: (transfer full) (element-type utf8 GValue): field name (TSDL
 *   leading underscore stripped) -> value; empty when the scope is absent
 *   or fields are not decoded
 */
GHashTable *
gst_ctf_event_reader_get_fields_table (GstCtfEventReader * reader,
    GstCtfScope scope)
{
  return gst_ctf_event_reader_get_fields_table_full (reader, scope,
      GST_CTF_VALUE_NONE);
}

/**
 * gst_ctf_event_reader_get_fields_table_full:
 * @reader: a reader positioned on an event
 * @scope: which scope
 * @flags: #GstCtfValueFlags; with %GST_CTF_VALUE_ENUM_LABELS an
 *   enumeration is a #G_TYPE_VARIANT `(xas)` / `(tas)` value
 *
 * gst_ctf_event_reader_get_fields_table() with the options of
 * gst_ctf_event_reader_get_field_variant_full().  With
 * gst_ctf_event_reader_get_field_names() a binding builds the scope's
 * dictionary in declaration order (the GstCtf Python override does).
 *
 * Returns: (transfer full) (element-type utf8 GValue): field name ->
 *   value
 */
GHashTable *
gst_ctf_event_reader_get_fields_table_full (GstCtfEventReader * reader,
    GstCtfScope scope, GstCtfValueFlags flags)
{
  const GstCtfFieldValue *v;
  GHashTable *t;
  guint n, c, i;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  t = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      (GDestroyNotify) free_gvalue);
  v = struct_scope (reader, scope, &n);
  if (v == NULL)
    return t;
  for (c = 1; c < v[0].end && c < n; c = MAX (v[c].end, c + 1)) {
    GValue *gv = g_new0 (GValue, 1);

    i = unwrap_variant (v, n, c);
    value_to_gvalue (v, n, i, gv, flags);
    /* Keys point into the trace class, which outlives the table's use
     * in a binding call; names are unique within a structure. */
    g_hash_table_insert (t, (gpointer) display_name (v[c].name), gv);
  }
  return t;
}

/**
 * gst_ctf_event_reader_get_field_names:
 * @reader: a reader positioned on an event
 * @scope: which scope
 *
 * The names of the top-level fields of one scope, in declaration order,
 * as gst_ctf_event_reader_get_fields_table() names them.
 *
 * Returns: (transfer container) (array zero-terminated=1): the names
 *   (the strings belong to the trace class); empty when the scope is
 *   absent or fields are not decoded
 */
const gchar **
gst_ctf_event_reader_get_field_names (GstCtfEventReader * reader,
    GstCtfScope scope)
{
  const GstCtfFieldValue *v;
  GPtrArray *names;
  guint n, c;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  names = g_ptr_array_new ();
  v = struct_scope (reader, scope, &n);
  for (c = 1; v != NULL && c < v[0].end && c < n; c = MAX (v[c].end, c + 1))
    g_ptr_array_add (names, (gpointer) display_name (v[c].name));
  g_ptr_array_add (names, NULL);
  return (const gchar **) g_ptr_array_free (names, FALSE);
}

static void
format_value (GString * s, const GstCtfFieldValue * v, guint n, guint i,
    guint depth)
{
  guint c, k;

  i = unwrap_variant (v, n, i);
  if (i >= n)
    return;
  switch (v[i].fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (v[i].fc->type == GST_CTF_FIELD_CLASS_ENUM) {
        /* the first label whose range holds the value, as a hint */
        for (k = 0; k < v[i].fc->enumeration.n_mappings; k++) {
          const GstCtfEnumMapping *m = &v[i].fc->enumeration.mappings[k];
          gboolean in = v[i].fc->integer.is_signed ?
              ((gint64) m->lower <= v[i].v.i && v[i].v.i <= (gint64) m->upper)
              : (m->lower <= v[i].v.u && v[i].v.u <= m->upper);
          if (in) {
            g_string_append_printf (s, "\"%s\" : ", m->label);
            break;
          }
        }
      }
      if (v[i].fc->integer.base == 16)
        g_string_append_printf (s, "0x%" G_GINT64_MODIFIER "X", v[i].v.u);
      else if (v[i].fc->integer.is_signed)
        g_string_append_printf (s, "%" G_GINT64_FORMAT, v[i].v.i);
      else
        g_string_append_printf (s, "%" G_GUINT64_FORMAT, v[i].v.u);
      return;
    case GST_CTF_FIELD_CLASS_FLOAT:
      g_string_append_printf (s, "%g", v[i].v.d);
      return;
    case GST_CTF_FIELD_CLASS_VARIANT:
      return;
    default:
      break;
  }
  if (is_text (v, i)) {
    gchar *t = text_dup (v[i].v.s.ptr, MIN (v[i].v.s.len, 4096));
    gchar *e = g_strescape (t, NULL);
    g_string_append_printf (s, "\"%s\"", e);
    g_free (e);
    g_free (t);
    return;
  }
  if (depth > 128)
    return;
  g_string_append (s, v[i].fc->type == GST_CTF_FIELD_CLASS_STRUCT ? "{ " :
      "[ ");
  for (c = i + 1; c < v[i].end && c < n; c = MAX (v[c].end, c + 1)) {
    if (c != i + 1)
      g_string_append (s, ", ");
    if (v[i].fc->type == GST_CTF_FIELD_CLASS_STRUCT)
      g_string_append_printf (s, "%s = ", display_name (v[c].name));
    format_value (s, v, n, c, depth + 1);
  }
  g_string_append (s, v[i].fc->type == GST_CTF_FIELD_CLASS_STRUCT ? " }" :
      " ]");
}

/**
 * gst_ctf_event_reader_format_fields:
 * @reader: a reader positioned on an event
 *
 * The event's fields as one line of text in the style of babeltrace2's
 * pretty output: the common context, the specific context and the
 * payload, each as `{ name = value, ... }`, separated by `, `.  Enum
 * values are preceded by their label, strings are quoted and escaped,
 * and long text is cut to 4096 bytes (for list views).
 *
 * Returns: (transfer full): the text, empty when there is no field
 */
gchar *
gst_ctf_event_reader_format_fields (GstCtfEventReader * reader)
{
  static const GstCtfScope scopes[] = {
    GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
    GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT,
    GST_CTF_SCOPE_EVENT_PAYLOAD,
  };
  GString *s;
  guint k, n;

  g_return_val_if_fail (GST_CTF_IS_EVENT_READER (reader), NULL);
  s = g_string_new (NULL);
  if (reader->cur == NULL || reader->ec == NULL)
    return g_string_free (s, FALSE);
  for (k = 0; k < G_N_ELEMENTS (scopes); k++) {
    const GstCtfFieldValue *v =
        scope_values (reader, scopes[k], &n);
    if (v == NULL || n <= 1)
      continue;
    if (s->len > 0)
      g_string_append (s, ", ");
    format_value (s, v, n, 0, 0);
  }
  return g_string_free (s, FALSE);
}
