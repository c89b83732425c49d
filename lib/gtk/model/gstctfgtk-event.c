/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkEvent: one row of a GstCtfGtkEventModel.  It keeps its
 * packet's bytes (a reference: a mapping of the stream file, or the page
 * converted from a trace.dat) and a copy of its decoded values, whose
 * strings point into those bytes, so its fields can be walked after the
 * model's reader has gone on.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctfgtk-event-private.h"
#include "gstctf-event-reader.h"
#include "gstctf-filter-spec.h"

/* The scopes babeltrace2's text prints for an event, with the names its
 * `--names=scope` option gives them. */
static const struct {
  GstCtfScope scope;
  const gchar *name;
} scopes[] = {
  {GST_CTF_SCOPE_PACKET_CONTEXT, "stream.packet.context"},
  {GST_CTF_SCOPE_EVENT_COMMON_CONTEXT, "stream.event.context"},
  {GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT, "event.context"},
  {GST_CTF_SCOPE_EVENT_PAYLOAD, "event.fields"},
};

#define N_SCOPES G_N_ELEMENTS (scopes)

struct _GstCtfGtkEvent {
  GObject parent;

  guint64 index;
  gboolean has_ns;
  gint64 ns;
  const gchar *name;            /* interned */
  gint cpu;
  const gchar *stream_name;     /* interned */
  gchar *fields;

  GstCtfTraceClass *tc;         /* the field classes of @values */
  GBytes *packet;               /* the bytes their strings point into */
  GstCtfFieldValue *values[N_SCOPES];
  guint n_values[N_SCOPES];
};

enum {
  PROP_0,
  PROP_INDEX,
  PROP_TIMESTAMP_NS,
  PROP_NAME,
  PROP_CPU,
  PROP_STREAM_NAME,
  PROP_FIELDS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

G_DEFINE_FINAL_TYPE (GstCtfGtkEvent, gst_ctf_gtk_event, G_TYPE_OBJECT);

static void
gst_ctf_gtk_event_init (GstCtfGtkEvent * self)
{
  self->cpu = -1;
}

static void
gst_ctf_gtk_event_finalize (GObject * object)
{
  GstCtfGtkEvent *self = GST_CTF_GTK_EVENT (object);
  guint i;

  for (i = 0; i < N_SCOPES; i++)
    g_free (self->values[i]);
  g_clear_pointer (&self->packet, g_bytes_unref);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  g_free (self->fields);
  G_OBJECT_CLASS (gst_ctf_gtk_event_parent_class)->finalize (object);
}

static void
gst_ctf_gtk_event_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfGtkEvent *self = GST_CTF_GTK_EVENT (object);

  switch (prop_id) {
    case PROP_INDEX:
      g_value_set_uint64 (value, self->index);
      break;
    case PROP_TIMESTAMP_NS:
      g_value_set_uint64 (value, gst_ctf_gtk_event_get_timestamp_ns (self));
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_CPU:
      g_value_set_int (value, self->cpu);
      break;
    case PROP_STREAM_NAME:
      g_value_set_string (value, self->stream_name);
      break;
    case PROP_FIELDS:
      g_value_set_string (value, self->fields);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_gtk_event_class_init (GstCtfGtkEventClass * klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  const GParamFlags f = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  oc->finalize = gst_ctf_gtk_event_finalize;
  oc->get_property = gst_ctf_gtk_event_get_property;

  /**
   * GstCtfGtkEvent:index:
   *
   * The event's row in its model (0 is the first event).
   */
  props[PROP_INDEX] = g_param_spec_uint64 ("index", NULL, NULL, 0,
      G_MAXUINT64, 0, f);
  /**
   * GstCtfGtkEvent:timestamp-ns:
   *
   * The event's time in nanoseconds from its clock's origin (the time
   * babeltrace2 prints as `[HH:MM:SS.NNNNNNNNN]`, in UTC); 0 when its
   * stream has no clock (gst_ctf_gtk_event_has_timestamp()).
   */
  props[PROP_TIMESTAMP_NS] = g_param_spec_uint64 ("timestamp-ns", NULL,
      NULL, 0, G_MAXUINT64, 0, f);
  /**
   * GstCtfGtkEvent:name:
   *
   * The event class name (`sched_switch`, `lttng_ust_libc:malloc`).
   */
  props[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, f);
  /**
   * GstCtfGtkEvent:cpu:
   *
   * The CPU: the packet context's `cpu_id` (LTTng), else the stream
   * instance id (trace.dat, LTTng 0.x: one stream per CPU); -1 when the
   * trace has none.
   */
  props[PROP_CPU] = g_param_spec_int ("cpu", NULL, NULL, -1, G_MAXINT, -1,
      f);
  /**
   * GstCtfGtkEvent:stream-name:
   *
   * The data stream the event is in: the name of its first stream file
   * (`channel0_1`; `traceN_channel0_1` when several traces are merged),
   * `cpuN` for a trace.dat.
   */
  props[PROP_STREAM_NAME] = g_param_spec_string ("stream-name", NULL, NULL,
      NULL, f);
  /**
   * GstCtfGtkEvent:fields:
   *
   * The event's scopes as babeltrace2's text prints them after the event
   * name: `{ cpu_id = 0 }, { vtid = 12 }, { size = 16, ptr = 0x55... }`
   * (packet context, common context, specific context, payload; empty
   * scopes left out as babeltrace2 does).
   */
  props[PROP_FIELDS] = g_param_spec_string ("fields", NULL, NULL, NULL, f);
  g_object_class_install_properties (oc, N_PROPS, props);
}

/* The CPU of a packet: LTTng's packet context `cpu_id` (as ctffilter's
 * `cpus` reads it), else the stream instance id (trace.dat, LTTng 0.x);
 * -1 for none.  The index's lanes and the deep-zoom worker use it too. */
gint
_gst_ctf_gtk_packet_cpu (const GstCtfFieldValue * v, guint n,
    const GstCtfPacketInfo * pi)
{
  guint64 cpu;

  if (v != NULL && n > 0 && v[0].fc->type == GST_CTF_FIELD_CLASS_STRUCT &&
      gst_ctf_filter_packet_cpu (v, n, &cpu))
    return cpu <= G_MAXINT ? (gint) cpu : -1;
  if (pi != NULL && pi->has_stream_instance_id &&
      pi->stream_instance_id <= G_MAXINT)
    return (gint) pi->stream_instance_id;
  return -1;
}

GstCtfGtkEvent *
_gst_ctf_gtk_event_new (guint64 index, const GstCtfMergeItem * item,
    GBytes * packet, const gchar * fields, GstCtfTraceClass * tc)
{
  GstCtfGtkEvent *self = g_object_new (GST_CTF_GTK_TYPE_EVENT, NULL);
  const GstCtfEventClass *ec = gst_ctf_event_iter_get_event_class
      (item->iter);
  const GstCtfFieldValue *pc = NULL;
  guint i, n_pc = 0;

  self->index = index;
  self->has_ns = item->has_ns;
  self->ns = item->has_ns ? item->ns : 0;
  self->name = g_intern_string (ec && ec->name ? ec->name : "");
  self->stream_name = g_intern_string (item->stream_name ?
      item->stream_name : "");
  self->fields = g_strdup (fields);
  self->tc = gst_ctf_trace_class_ref (tc);
  /* without the packet's bytes, string values cannot be kept */
  if (packet != NULL) {
    self->packet = g_bytes_ref (packet);
    for (i = 0; i < N_SCOPES; i++) {
      guint n = 0;
      const GstCtfFieldValue *v = gst_ctf_event_iter_get_values (item->iter,
          scopes[i].scope, &n);

      if (v == NULL || n == 0)
        continue;
      self->values[i] = g_memdup2 (v, n * sizeof (*v));
      self->n_values[i] = n;
    }
  }
  pc = gst_ctf_event_iter_get_values (item->iter,
      GST_CTF_SCOPE_PACKET_CONTEXT, &n_pc);
  self->cpu = _gst_ctf_gtk_packet_cpu (pc, n_pc,
      gst_ctf_event_iter_get_packet_info (item->iter));
  return self;
}

/**
 * gst_ctf_gtk_event_get_index:
 * @event: an event
 *
 * Returns: the event's row in its model
 */
guint64
gst_ctf_gtk_event_get_index (GstCtfGtkEvent * event)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT (event), 0);
  return event->index;
}

/**
 * gst_ctf_gtk_event_has_timestamp:
 * @event: an event
 *
 * Returns: whether the event has a time (its stream has a clock)
 */
gboolean
gst_ctf_gtk_event_has_timestamp (GstCtfGtkEvent * event)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT (event), FALSE);
  return event->has_ns;
}

/**
 * gst_ctf_gtk_event_get_timestamp_ns:
 * @event: an event
 *
 * Returns: #GstCtfGtkEvent:timestamp-ns, nanoseconds from the clock's
 *   origin
 */
guint64
gst_ctf_gtk_event_get_timestamp_ns (GstCtfGtkEvent * event)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT (event), 0);
  return event->ns > 0 ? (guint64) event->ns : 0;
}

/**
 * gst_ctf_gtk_event_get_name:
 * @event: an event
 *
 * Returns: (transfer none): #GstCtfGtkEvent:name
 */
const gchar *
gst_ctf_gtk_event_get_name (GstCtfGtkEvent * event)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT (event), NULL);
  return event->name;
}

/**
 * gst_ctf_gtk_event_get_cpu:
 * @event: an event
 *
 * Returns: #GstCtfGtkEvent:cpu, -1 when unknown
 */
gint
gst_ctf_gtk_event_get_cpu (GstCtfGtkEvent * event)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT (event), -1);
  return event->cpu;
}

/**
 * gst_ctf_gtk_event_get_stream_name:
 * @event: an event
 *
 * Returns: (transfer none): #GstCtfGtkEvent:stream-name
 */
const gchar *
gst_ctf_gtk_event_get_stream_name (GstCtfGtkEvent * event)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT (event), NULL);
  return event->stream_name;
}

/**
 * gst_ctf_gtk_event_get_fields:
 * @event: an event
 *
 * Returns: (transfer none): #GstCtfGtkEvent:fields, babeltrace2's text of
 *   the event's scopes
 */
const gchar *
gst_ctf_gtk_event_get_fields (GstCtfGtkEvent * event)
{
  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT (event), NULL);
  return event->fields;
}

/**
 * gst_ctf_gtk_event_dup_fields_variant:
 * @event: an event
 *
 * The event's fields as values, to walk them (a details view): an
 * `a{sv}` with one entry per scope that has fields, named as
 * babeltrace2's `--names=scope` prints them (`stream.packet.context`,
 * `stream.event.context`, `event.context`, `event.fields`), each an
 * `a{sv}` of its fields in declaration order.  Integers are `x` or `t`,
 * floats `d`, strings and text arrays `s`, structures `a{sv}`, arrays
 * and sequences `av`, enumerations `(xas)` or `(tas)`: the value and its
 * labels (gst_ctf_event_reader_get_fields_full() with
 * %GST_CTF_VALUE_ENUM_LABELS).
 *
 * Returns: (transfer full): the fields
 */
GVariant *
gst_ctf_gtk_event_dup_fields_variant (GstCtfGtkEvent * event)
{
  GVariantBuilder b;
  guint i;

  g_return_val_if_fail (GST_CTF_GTK_IS_EVENT (event), NULL);
  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  for (i = 0; i < N_SCOPES; i++) {
    const GstCtfFieldValue *v = event->values[i];
    GVariant *s;

    if (v == NULL || event->n_values[i] <= 1 ||
        v[0].fc->type != GST_CTF_FIELD_CLASS_STRUCT)
      continue;
    s = gst_ctf_field_values_to_variant (v, event->n_values[i],
        GST_CTF_VALUE_ENUM_LABELS);
    if (s != NULL) {
      g_variant_builder_add (&b, "{sv}", scopes[i].name, s);
      g_variant_unref (s);
    }
  }
  return g_variant_ref_sink (g_variant_builder_end (&b));
}
