/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-perfettosink
 * @title: perfettosink
 * @short_description: writes a CTF packet stream as a Perfetto trace
 *
 * Writes Perfetto's native trace format (a `.pftrace` file: a sequence of
 * `TracePacket`s, `perfetto_trace.proto`), which ui.perfetto.dev and
 * trace_processor open.  Kernel traces (tracecmdsrc, LTTng kernel) become
 * per-CPU ftrace event bundles with Perfetto's typed scheduling, IRQ,
 * workqueue and system call events and a process tree, so the UI shows
 * CPU tracks, thread states and process names; user-space traces
 * (LTTng-UST, barectf, any CTF) become track events on one track per
 * thread with every field as an argument.  Mapping:
 * `lib/perfetto/gstctf-perfetto*.c`.
 *
 * The file is written as `.NAME.part` beside #GstPerfettoSink:location and
 * renamed at end-of-stream.  When the pipeline stops before (an error
 * upstream, Ctrl-C without `-e`), the complete packets written are kept
 * under the final name and the trace ends with an instant event on the
 * "gst-ctf" track that says it is truncated and why; with nothing written,
 * nothing is left.  Memory stays flat: packets are written as each CTF
 * packet is read.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 tracecmdsrc location=trace.dat ! perfettosink location=trace.pftrace
 * ]| A trace.dat for ui.perfetto.dev.
 * |[
 * gst-launch-1.0 tracecmdsrc location=trace.dat ! timefilter start=893.6 end=893.7 ! perfettosink location=cut.pftrace
 * ]| Only 100 ms of it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "gstperfettosink.h"

#include "gstctf-caps.h"
#include "gstctf-element-util.h"
#include "gstctf-perfetto.h"
#include "gsttracecmd.h"

GST_DEBUG_CATEGORY_STATIC (gst_perfetto_sink_debug);
#define GST_CAT_DEFAULT gst_perfetto_sink_debug

enum
{
  PROP_0,
  PROP_LOCATION,
  PROP_OVERWRITE,
};

struct _GstPerfettoSink
{
  GstBaseSink parent;

  /* Properties, protected by the object lock. */
  gchar *location;
  gboolean overwrite;

  /* Streaming thread (and start/stop). */
  gchar *tsdl;
  GstCtfPerfettoWriter *writer;
  gchar *final_path;
  gchar *part_path;
  FILE *file;
  GByteArray *out;
  guint64 written;              /* bytes of whole TracePackets in the file */
  gchar *error_text;            /* why the trace stops early, if it does */
  gboolean finished;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS ("application/x-ctf"));

#define gst_perfetto_sink_parent_class parent_class
G_DEFINE_TYPE (GstPerfettoSink, gst_perfetto_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (perfettosink, "perfettosink",
    GST_RANK_NONE, GST_TYPE_PERFETTO_SINK,
    GST_DEBUG_CATEGORY_INIT (gst_perfetto_sink_debug, "perfettosink", 0,
        "Perfetto trace writer"));

static void gst_perfetto_sink_finalize (GObject * object);
static void gst_perfetto_sink_set_property (GObject * object,
    guint prop_id, const GValue * value, GParamSpec * pspec);
static void gst_perfetto_sink_get_property (GObject * object,
    guint prop_id, GValue * value, GParamSpec * pspec);
static gboolean gst_perfetto_sink_start (GstBaseSink * sink);
static gboolean gst_perfetto_sink_stop (GstBaseSink * sink);
static gboolean gst_perfetto_sink_set_caps (GstBaseSink * sink,
    GstCaps * caps);
static gboolean gst_perfetto_sink_event (GstBaseSink * sink,
    GstEvent * event);
static GstFlowReturn gst_perfetto_sink_render (GstBaseSink * sink,
    GstBuffer * buf);

static void
gst_perfetto_sink_class_init (GstPerfettoSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *sink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->finalize = gst_perfetto_sink_finalize;
  gobject_class->set_property = gst_perfetto_sink_set_property;
  gobject_class->get_property = gst_perfetto_sink_get_property;

  /**
   * GstPerfettoSink:location:
   *
   * The Perfetto trace file to write (`NAME.pftrace`).
   */
  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "Perfetto trace file to write, e.g. trace.pftrace (written as "
          ".NAME.part beside it, renamed at end-of-stream)", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstPerfettoSink:overwrite:
   *
   * Replace an existing #GstPerfettoSink:location when it is a Perfetto
   * trace (it starts with a `TracePacket`) and a leftover `.NAME.part`;
   * anything else is never replaced.
   */
  g_object_class_install_property (gobject_class, PROP_OVERWRITE,
      g_param_spec_boolean ("overwrite", "Overwrite",
          "Replace an existing Perfetto trace at location (default false: "
          "fail); a file that is not a Perfetto trace is never replaced",
          FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class,
      "Perfetto trace writer", "Sink/File",
      "Writes a CTF packet stream as a Perfetto trace (.pftrace): kernel "
      "events as per-CPU ftrace bundles with a process tree, user-space "
      "events as track events per thread", GST_CTF_ELEMENT_AUTHOR);

  sink_class->start = GST_DEBUG_FUNCPTR (gst_perfetto_sink_start);
  sink_class->stop = GST_DEBUG_FUNCPTR (gst_perfetto_sink_stop);
  sink_class->set_caps = GST_DEBUG_FUNCPTR (gst_perfetto_sink_set_caps);
  sink_class->event = GST_DEBUG_FUNCPTR (gst_perfetto_sink_event);
  sink_class->render = GST_DEBUG_FUNCPTR (gst_perfetto_sink_render);
}

static void
gst_perfetto_sink_init (GstPerfettoSink * self)
{
  self->out = g_byte_array_new ();
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
}

static void
gst_perfetto_sink_finalize (GObject * object)
{
  GstPerfettoSink *self = GST_PERFETTO_SINK (object);

  g_free (self->location);
  g_byte_array_unref (self->out);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_perfetto_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstPerfettoSink *self = GST_PERFETTO_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    case PROP_OVERWRITE:
      self->overwrite = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_perfetto_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstPerfettoSink *self = GST_PERFETTO_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_OVERWRITE:
      g_value_set_boolean (value, self->overwrite);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
reset (GstPerfettoSink * self)
{
  if (self->file)
    fclose (self->file);
  self->file = NULL;
  g_clear_pointer (&self->writer, gst_ctf_perfetto_writer_free);
  g_clear_pointer (&self->tsdl, g_free);
  g_clear_pointer (&self->final_path, g_free);
  g_clear_pointer (&self->part_path, g_free);
  g_clear_pointer (&self->error_text, g_free);
  g_byte_array_set_size (self->out, 0);
  self->written = 0;
  self->finished = FALSE;
}

/* A Perfetto trace starts with `Trace.packet` (field 1, length-delimited:
 * byte 0x0a); an empty file is one too. */
static gboolean
looks_like_perfetto (const gchar * path)
{
  FILE *f = g_fopen (path, "rb");
  int c;

  if (f == NULL)
    return FALSE;
  c = fgetc (f);
  fclose (f);
  return c == EOF || c == 0x0a;
}

static gboolean
gst_perfetto_sink_start (GstBaseSink * sink)
{
  GstPerfettoSink *self = GST_PERFETTO_SINK (sink);
  gchar *dir, *base, *name;
  gboolean overwrite;

  reset (self);
  GST_OBJECT_LOCK (self);
  self->final_path = g_strdup (self->location);
  overwrite = self->overwrite;
  GST_OBJECT_UNLOCK (self);
  if (self->final_path == NULL || *self->final_path == '\0') {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No location set: perfettosink needs location=FILE.pftrace."),
        (NULL));
    return FALSE;
  }
  dir = g_path_get_dirname (self->final_path);
  base = g_path_get_basename (self->final_path);
  name = g_strdup_printf (".%s.part", base);
  self->part_path = g_build_filename (dir, name, NULL);
  g_free (name);
  g_free (base);
  g_free (dir);

  if (g_file_test (self->final_path, G_FILE_TEST_EXISTS)) {
    if (!overwrite || g_file_test (self->final_path, G_FILE_TEST_IS_DIR) ||
        !looks_like_perfetto (self->final_path)) {
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
          ("\"%s\" exists%s.", self->final_path, overwrite ?
              " and is not a Perfetto trace: not replaced" :
              ": set overwrite=true to replace a Perfetto trace"), (NULL));
      return FALSE;
    }
  }
  if (g_file_test (self->part_path, G_FILE_TEST_EXISTS) && !overwrite) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("\"%s\" exists (left by a run that was killed): set overwrite=true "
            "to replace it.", self->part_path), (NULL));
    return FALSE;
  }
  self->file = g_fopen (self->part_path, "wb");
  if (self->file == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Cannot write \"%s\": %s", self->part_path, g_strerror (errno)),
        (NULL));
    return FALSE;
  }
  self->writer = gst_ctf_perfetto_writer_new ();
  return TRUE;
}

/* Cuts the file back to its last whole TracePacket. */
static void
cut_back (GstPerfettoSink * self)
{
  fflush (self->file);
  if (ftruncate (fileno (self->file), (off_t) self->written) != 0)
    GST_WARNING_OBJECT (self, "cannot truncate %s: %s", self->part_path,
        g_strerror (errno));
  fseeko (self->file, (off_t) self->written, SEEK_SET);
}

static gboolean
flush_out (GstPerfettoSink * self)
{
  if (self->out->len == 0)
    return TRUE;
  if (fwrite (self->out->data, 1, self->out->len, self->file) !=
      self->out->len) {
    int e = errno;

    cut_back (self);
    g_byte_array_set_size (self->out, 0);
    g_free (self->error_text);
    self->error_text = g_strdup_printf ("cannot write \"%s\": %s",
        self->part_path, g_strerror (e));
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("Cannot write \"%s\": %s",
            self->part_path, g_strerror (e)), ("after %" G_GUINT64_FORMAT
            " bytes", self->written));
    return FALSE;
  }
  self->written += self->out->len;
  g_byte_array_set_size (self->out, 0);
  return TRUE;
}

/* Gives the file its final name.  @reason: why it ends early (%NULL: it
 * does not). */
static gboolean
finish (GstPerfettoSink * self, const gchar * reason)
{
  gboolean ok = TRUE;

  if (self->file == NULL || self->finished)
    return TRUE;
  self->finished = TRUE;
  GST_DEBUG_OBJECT (self, "finishing %s: %s", self->part_path,
      reason ? reason : "complete");
  flush_out (self);
  if (reason && self->written > 0) {
    gchar *note = g_strdup_printf ("gst-ctf: trace truncated: %s", reason);

    gst_ctf_perfetto_writer_write_note (self->writer, note, self->out);
    flush_out (self);
    g_free (note);
  }
  if (fclose (self->file) != 0) {
    self->file = NULL;
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("Cannot write \"%s\": %s",
            self->part_path, g_strerror (errno)), (NULL));
    g_unlink (self->part_path);
    return FALSE;
  }
  self->file = NULL;
  if (self->written == 0 && reason) {
    /* nothing was written: nothing is left */
    g_unlink (self->part_path);
    return TRUE;
  }
  if (g_rename (self->part_path, self->final_path) != 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("Cannot rename \"%s\" to "
            "\"%s\": %s", self->part_path, self->final_path,
            g_strerror (errno)), (NULL));
    ok = FALSE;
  } else if (reason) {
    GST_ELEMENT_WARNING (self, RESOURCE, WRITE, ("Trace \"%s\" is truncated: "
            "%s", self->final_path, reason), (NULL));
  }
  return ok;
}

static gboolean
gst_perfetto_sink_stop (GstBaseSink * sink)
{
  GstPerfettoSink *self = GST_PERFETTO_SINK (sink);

  finish (self, self->error_text ? self->error_text :
      "the pipeline stopped before end-of-stream");
  reset (self);
  return TRUE;
}

static gboolean
gst_perfetto_sink_set_caps (GstBaseSink * sink, GstCaps * caps)
{
  GstPerfettoSink *self = GST_PERFETTO_SINK (sink);
  GstCtfTraceClass *tc = NULL;

  switch (gst_ctf_element_parse_caps (GST_ELEMENT (self), caps, &self->tsdl,
          &tc)) {
    case GST_CTF_CAPS_SAME:
      return TRUE;
    case GST_CTF_CAPS_FAILED:
      return FALSE;
    case GST_CTF_CAPS_NEW:
      break;
  }
  gst_ctf_perfetto_writer_set_trace_class (self->writer, tc,
      gst_ctf_trace_dat_find_side_stream_class (tc));
  gst_ctf_trace_class_unref (tc);
  return TRUE;
}

static GstFlowReturn
gst_perfetto_sink_render (GstBaseSink * sink, GstBuffer * buf)
{
  GstPerfettoSink *self = GST_PERFETTO_SINK (sink);
  GError *err = NULL;
  GstMapInfo map;
  gboolean ok;

  if (self->tsdl == NULL) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("Received a packet before caps with CTF metadata."));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, (NULL), ("Cannot map buffer."));
    return GST_FLOW_ERROR;
  }
  ok = gst_ctf_perfetto_writer_write_packet (self->writer, map.data,
      map.size, self->out, &err);
  gst_buffer_unmap (buf, &map);
  if (!ok) {
    g_free (self->error_text);
    self->error_text = g_strdup_printf ("cannot decode a packet: %s",
        err->message);
    gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err,
        "Cannot decode packet");
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  /* whole TracePackets go out in batches of about 1 MiB */
  if (self->out->len >= (1 << 20) && !flush_out (self))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

static gboolean
gst_perfetto_sink_event (GstBaseSink * sink, GstEvent * event)
{
  GstPerfettoSink *self = GST_PERFETTO_SINK (sink);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      /* after an error here or upstream (a source sends EOS after its
       * error), the trace ends early and says so */
      if (!flush_out (self) || !finish (self, self->error_text)) {
        gst_event_unref (event);
        return FALSE;
      }
      break;
    case GST_EVENT_CUSTOM_DOWNSTREAM:{
      const gchar *reason;

      if (gst_ctf_event_parse_truncated (event, &reason)) {
        g_free (self->error_text);
        self->error_text = g_strdup (reason);
      }
      break;
    }
    default:
      break;
  }
  return GST_BASE_SINK_CLASS (parent_class)->event (sink, event);
}
