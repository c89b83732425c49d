/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-ctfsink
 * @title: ctfsink
 * @short_description: writes a stream of CTF packets as a trace directory
 *
 * Writes `application/x-ctf` packets as a trace directory of the CTF
 * version it receives: the `metadata` file (the TSDL text, or CTF 2 JSON
 * fragments, from the caps) and one data stream file per stream.  A packet goes to the file named by its
 * #GstCtfPacketMeta `stream_name` when it has one (so `ctfsrc ! ctfsink`
 * reproduces the input's files byte for byte), else to
 * `stream_<class>_<instance>` (`stream_<class>` without instance id),
 * read from the packet header.
 *
 * Every file is written under a hidden temporary name (`.NAME.part`) and
 * renamed at EOS, `metadata` last: while it runs, the directory never
 * looks like a complete trace (babeltrace2 ignores hidden files, and there
 * is no `metadata`).  New caps mid-stream replace the metadata to write.
 * When upstream is live (`lttnglivesrc`: its LATENCY answer), each packet
 * goes to its file as it arrives; otherwise writes are batched.
 *
 * A run that does not end with a complete end-of-stream (the pipeline set
 * to NULL before EOS, as gst-launch-1.0 does on Ctrl-C without `-e` or on
 * an error anywhere; an error in ctfsink; a source that sent the
 * `application/x-ctf-truncated` event of gst_ctf_event_new_truncated()
 * before stopping on an error) is finished as a *truncated* trace: the
 * complete packets received so far (a file whose writes failed is cut back
 * to its last packet that reads) are given their final names, the
 * metadata gets an extra `env` block with `gst_ctf_truncated = 1` and
 * `gst_ctf_truncated_reason`, and a warning saying so is posted.  When no
 * packet was written, the temporary files are removed instead.
 *
 * #GstCtfSink:ctf-version converts the metadata to CTF 1.8 or CTF 2
 * (the data stream files stay the bytes received): CTF 1.8 to CTF 2
 * always works; CTF 2 to CTF 1.8 fails with an error naming the first
 * field class CTF 1.8 cannot express, unless #GstCtfSink:lossy allows
 * the lossy mappings gst_ctf_metadata_convert() documents.  A CTF 2
 * trace with more than one data stream class (LTTng channels, the CPUs of
 * a trace.dat with its header-page stream, merged traces) is one that
 * Trace Compass (up to at least its 2026-08 sources) cannot open ("Stream
 * without id with multiple streams"): ctfsink says so once in a warning,
 * naming `ctf-version=1.8`, which writes a trace it opens.
 *
 * The output directory is created if missing.  A non-empty one is refused
 * unless #GstCtfSink:overwrite is set, and then only when it holds nothing
 * but a CTF trace and leftovers of an unfinished ctfsink run (see the
 * property); the refusal names the first other file.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 ctfsrc location=trace/ ! ctfsink location=copy/
 * ]| Copies a trace.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfsink-private.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#ifdef G_OS_UNIX
#include <unistd.h>
#include <sys/mman.h>
#include <sys/uio.h>
#endif

#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"

GST_DEBUG_CATEGORY (gst_ctf_sink_debug);
#define GST_CAT_DEFAULT gst_ctf_sink_debug

#define DEFAULT_OVERWRITE FALSE

enum
{
  PROP_0,
  PROP_LOCATION,
  PROP_OVERWRITE,
  PROP_STATS,
  PROP_CTF_VERSION,
  PROP_LOSSY,
};


static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

#define gst_ctf_sink_parent_class parent_class
G_DEFINE_TYPE (GstCtfSink, gst_ctf_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (ctfsink, "ctfsink", GST_RANK_NONE,
    GST_TYPE_CTF_SINK, GST_DEBUG_CATEGORY_INIT (gst_ctf_sink_debug, "ctfsink",
        0, "CTF trace directory sink"));

static void gst_ctf_sink_finalize (GObject * object);
static void gst_ctf_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_ctf_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_ctf_sink_start (GstBaseSink * bsink);
static gboolean gst_ctf_sink_stop (GstBaseSink * bsink);
static gboolean gst_ctf_sink_set_caps (GstBaseSink * bsink, GstCaps * caps);
static gboolean gst_ctf_sink_event (GstBaseSink * bsink, GstEvent * event);
static GstFlowReturn gst_ctf_sink_render_list (GstBaseSink * bsink,
    GstBufferList * list);
static GstFlowReturn gst_ctf_sink_render (GstBaseSink * bsink,
    GstBuffer * buffer);

/* Why a trace that did not get a complete end-of-stream is truncated. */
#define REASON_NO_EOS "the pipeline stopped before end-of-stream " \
  "(interrupted, e.g. Ctrl-C without gst-launch-1.0 -e, or an error " \
  "elsewhere in the pipeline)"

static void
gst_ctf_sink_class_init (GstCtfSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *basesink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->finalize = gst_ctf_sink_finalize;
  gobject_class->set_property = gst_ctf_sink_set_property;
  gobject_class->get_property = gst_ctf_sink_get_property;

  /**
   * GstCtfSink:location:
   *
   * Output trace directory, created if missing.
   */
  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "Output trace directory, created if missing; must be empty unless "
          "overwrite=true (default: none, must be set)", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfSink:overwrite:
   *
   * Accept an output directory that holds a previous CTF trace, and
   * delete it at start: `metadata` (when it parses), its data stream files
   * (files whose packets that metadata reads, to the end), `index/` with
   * its LTTng `.idx` files, and the `.NAME.part` files of a ctfsink run
   * that never finished.  When anything else is there, the start fails
   * with an error naming the first such file, and nothing is deleted.
   */
  g_object_class_install_property (gobject_class, PROP_OVERWRITE,
      g_param_spec_boolean ("overwrite", "Overwrite",
          "Replace a previous CTF trace in the output directory (metadata, "
          "its stream files, index/, leftover .NAME.part files); refuses, "
          "deleting nothing, when anything else is there (default: false)",
          DEFAULT_OVERWRITE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfSink:stats:
   *
   * `application/x-ctf-sink-stats` with `packets`, `bytes` and
   * `discarded-events` (guint64, from #GstCtfPacketMeta) and `files`
   * (guint, data stream files written).
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Packets and bytes written, data stream files, events the tracer "
          "discarded (counts)", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstCtfSink:ctf-version:
   *
   * The CTF version of the trace written: `auto` (the version received),
   * `1.8` or `2`.  Only the metadata changes: a CTF 1.8 input becomes CTF
   * 2 with TSDL's reserved names as roles; a CTF 2 input becomes CTF 1.8
   * unless it has a field class CTF 1.8 cannot express (an error names
   * it; see #GstCtfSink:lossy).
   */
  g_object_class_install_property (gobject_class, PROP_CTF_VERSION,
      g_param_spec_enum ("ctf-version", "CTF version",
          "CTF version of the trace written: auto (as received), 1.8 or 2; "
          "only the metadata is converted, data streams stay as received",
          GST_CTF_TYPE_OUTPUT_VERSION, GST_CTF_OUTPUT_VERSION_AUTO,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfSink:lossy:
   *
   * With `ctf-version=1.8` and a CTF 2 input: write booleans, bit maps
   * and bit arrays as unsigned integers and BLOBs as arrays of bytes
   * (the data reads the same; readers show integers instead of
   * `true`/`false`, flag names or bytes) instead of refusing them.
   * Variable-length integers, optionals and integer-selected variants
   * are refused all the same.
   */
  g_object_class_install_property (gobject_class, PROP_LOSSY,
      g_param_spec_boolean ("lossy", "Lossy conversion",
          "With ctf-version=1.8: write CTF 2 booleans, bit maps and bit "
          "arrays as integers and BLOBs as byte arrays instead of refusing "
          "them (default: false)", FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_type_mark_as_plugin_api (GST_CTF_TYPE_OUTPUT_VERSION, 0);
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class,
      "CTF trace sink", "Sink/File",
      "Writes CTF packets as a trace directory (metadata + stream files) of "
      "the CTF version received", GST_CTF_ELEMENT_AUTHOR);

  basesink_class->start = GST_DEBUG_FUNCPTR (gst_ctf_sink_start);
  basesink_class->stop = GST_DEBUG_FUNCPTR (gst_ctf_sink_stop);
  basesink_class->set_caps = GST_DEBUG_FUNCPTR (gst_ctf_sink_set_caps);
  basesink_class->event = GST_DEBUG_FUNCPTR (gst_ctf_sink_event);
  basesink_class->render = GST_DEBUG_FUNCPTR (gst_ctf_sink_render);
  basesink_class->render_list = GST_DEBUG_FUNCPTR (gst_ctf_sink_render_list);
}

/* stdio buffer of each stream file: packets of a few KiB (tracecmdsrc
 * pages, small LTTng sub-buffers) are gathered into large sequential
 * writes instead of one write(2) per 4 KiB (the default st_blksize
 * buffer).  One per open stream file, so it stays moderate. */
#define WRITE_BUFFER_SIZE (256 * 1024)

#if defined(G_OS_UNIX) && defined(MADV_POPULATE_READ)
/* Maps in the pages of @data before a large write from them.  A write
 * from pages not mapped yet (ctfsrc's file mapping) makes the kernel
 * zero each destination page, fault the source page in and copy again;
 * mapped first, each page is copied once.  Failure is harmless (an old
 * kernel): the write maps them itself. */
static void
prefault (const guint8 * data, gsize size)
{
  static gsize page = 0;
  guintptr b, e;

  if (page == 0)
    page = (gsize) sysconf (_SC_PAGESIZE);
  b = (guintptr) data & ~(guintptr) (page - 1);
  e = ((guintptr) data + size + page - 1) & ~(guintptr) (page - 1);
  (void) madvise ((void *) b, e - b, MADV_POPULATE_READ);
}
#else
#define prefault(data, size) ((void) 0)
#endif

/* Small packets go through the stdio buffer; a packet at least as large
 * as the buffer is written straight from its memory (for ctfsrc, the
 * mapped input file) after what is buffered: stdio would first copy the
 * head of it into the buffer. */
static gboolean
write_packet (OutFile * f, const guint8 * data, gsize size)
{
#ifdef G_OS_UNIX
  if (size >= WRITE_BUFFER_SIZE) {
    int fd = fileno (f->fp);

    if (fflush (f->fp) != 0)
      return FALSE;
    prefault (data, size);
    while (size > 0) {
      gssize w = write (fd, data, MIN (size, (gsize) G_MAXSSIZE));

      if (w < 0) {
        if (errno == EINTR)
          continue;
        return FALSE;
      }
      data += w;
      size -= w;
    }
    return TRUE;
  }
#endif
  return fwrite (data, 1, size, f->fp) == size;
}

void
gst_ctf_sink_out_file_free (OutFile * f)
{
  if (f->fp)
    fclose (f->fp);
  g_free (f->fp_buf);
  g_free (f->name);
  g_free (f->part_path);
  g_free (f->final_path);
  g_free (f);
}

static void
gst_ctf_sink_init (GstCtfSink * self)
{
  self->overwrite = DEFAULT_OVERWRITE;
  /* A file writer: no clock synchronisation (timestamps are trace times). */
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
}

static void
gst_ctf_sink_finalize (GObject * object)
{
  GstCtfSink *self = GST_CTF_SINK (object);

  g_free (self->location);
  g_free (self->truncated_reason);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_ctf_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfSink *self = GST_CTF_SINK (object);

  switch (prop_id) {
    case PROP_LOCATION:
      GST_OBJECT_LOCK (self);
      g_free (self->location);
      self->location = g_value_dup_string (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_OVERWRITE:
      GST_OBJECT_LOCK (self);
      self->overwrite = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_CTF_VERSION:
      GST_OBJECT_LOCK (self);
      self->ctf_version = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_LOSSY:
      GST_OBJECT_LOCK (self);
      self->lossy = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_ctf_sink_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCtfSink *self = GST_CTF_SINK (object);

  switch (prop_id) {
    case PROP_LOCATION:
      GST_OBJECT_LOCK (self);
      g_value_set_string (value, self->location);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_OVERWRITE:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->overwrite);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_CTF_VERSION:
      GST_OBJECT_LOCK (self);
      g_value_set_enum (value, self->ctf_version);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_LOSSY:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->lossy);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_STATS:
      GST_OBJECT_LOCK (self);
      g_value_take_boxed (value,
          gst_structure_new ("application/x-ctf-sink-stats",
              "packets", G_TYPE_UINT64, self->packets,
              "bytes", G_TYPE_UINT64, self->bytes,
              "discarded-events", G_TYPE_UINT64, self->discarded_events,
              "files", G_TYPE_UINT, self->n_files, NULL));
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* An output directory must be empty, or hold only a previous trace when
 * overwrite=true (deleted here). */
static gboolean
prepare_directory (GstCtfSink * self)
{
  GstCtfSinkDirScan scan;
  GError *err = NULL;
  gchar *list;
  gboolean ok = FALSE;

  if (!gst_ctf_sink_dir_scan (self->location, &scan, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Cannot read output directory \"%s\": %s", self->location,
            err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }
  if (scan.names == NULL)
    return TRUE;
  list = gst_ctf_sink_dir_scan_describe (&scan);
  if (!self->overwrite) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Output directory \"%s\" is not empty: it holds %s%s; set "
            "overwrite=true to replace a previous trace.", self->location,
            list, scan.n_part == 0 ? "" : " (.NAME.part files are the "
            "unfinished files of a ctfsink run that was killed)"), (NULL));
  } else if (scan.foreign != NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Output directory \"%s\" holds \"%s\", which is not part of a CTF "
            "trace (%s); nothing was deleted: overwrite=true only replaces a "
            "previous trace (metadata, its stream files, index/, .NAME.part "
            "files).", self->location, scan.foreign, scan.foreign_why),
        (NULL));
  } else if (!gst_ctf_sink_dir_remove (&scan, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Cannot replace the trace in \"%s\": %s", self->location,
            err->message), (NULL));
    g_error_free (err);
  } else {
    GST_INFO_OBJECT (self, "deleted the previous trace in %s (%u files)",
        self->location, scan.removable->len);
    ok = TRUE;
  }
  g_free (list);
  gst_ctf_sink_dir_scan_clear (&scan);
  return ok;
}

static gboolean
gst_ctf_sink_start (GstBaseSink * bsink)
{
  GstCtfSink *self = GST_CTF_SINK (bsink);

  if (self->location == NULL || *self->location == '\0') {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No output directory given (set the `location` property)."), (NULL));
    return FALSE;
  }
  if (g_file_test (self->location, G_FILE_TEST_EXISTS) &&
      !g_file_test (self->location, G_FILE_TEST_IS_DIR)) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Output location \"%s\" exists and is not a directory.",
            self->location), (NULL));
    return FALSE;
  }
  if (g_mkdir_with_parents (self->location, 0755) != 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Cannot create output directory \"%s\": %s", self->location,
            g_strerror (errno)), (NULL));
    return FALSE;
  }
  if (!prepare_directory (self))
    return FALSE;

  self->files = g_hash_table_new (g_str_hash, g_str_equal);
  memset (self->meta_name, 0, sizeof (self->meta_name));
  memset (self->meta_file, 0, sizeof (self->meta_file));
  self->order = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_sink_out_file_free);
  self->finished = FALSE;
  self->tc_failed = FALSE;
  self->warned_trace_compass = FALSE;
  g_clear_pointer (&self->truncated_reason, g_free);
  GST_OBJECT_LOCK (self);
  self->packets = self->bytes = self->discarded_events = 0;
  self->n_files = 0;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_ctf_sink_stop (GstBaseSink * bsink)
{
  GstCtfSink *self = GST_CTF_SINK (bsink);

  /* Stopped without a complete end-of-stream: a truncated trace of what
   * was written, or nothing. */
  if (self->order != NULL && !self->finished)
    gst_ctf_sink_finish (self, self->truncated_reason ? self->truncated_reason :
        REASON_NO_EOS);
  g_clear_pointer (&self->truncated_reason, g_free);
  g_clear_pointer (&self->files, g_hash_table_unref);
  g_clear_pointer (&self->order, g_ptr_array_unref);
  g_clear_pointer (&self->metadata, g_free);
  g_clear_pointer (&self->caps_metadata, g_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  return TRUE;
}

OutFile *
gst_ctf_sink_out_file_new (GstCtfSink * self, const gchar * name)
{
  OutFile *f = g_new0 (OutFile, 1);
  gchar *part = g_strdup_printf (".%s.part", name);

  f->name = g_strdup (name);
  f->part_path = g_build_filename (self->location, part, NULL);
  f->final_path = g_build_filename (self->location, name, NULL);
  g_free (part);
  return f;
}

/* Once per run: a warning when the metadata is CTF 2 with more than one
 * data stream class, which Trace Compass's CTF 2 reader refuses (it finds
 * no stream class id in JSON fragments, so a second class is a "Stream
 * without id with multiple streams"). */
static void
warn_trace_compass (GstCtfSink * self)
{
  guint n;

  if (self->warned_trace_compass || !gst_ctf_metadata_is_ctf2 (self->metadata)
      || !gst_ctf_sink_ensure_trace_class (self, FALSE))
    return;
  n = self->tc->stream_classes->len;
  if (n < 2)
    return;
  self->warned_trace_compass = TRUE;
  GST_ELEMENT_WARNING (self, STREAM, FORMAT,
      ("Trace Compass cannot open the CTF 2 trace \"%s\": it has %u data "
          "stream classes and Trace Compass reads CTF 2 with one only "
          "(\"Stream without id with multiple streams\"); ctf-version=1.8 "
          "writes a trace it opens", self->location, n),
      ("CTF 2 metadata with %u data stream classes", n));
}

static gboolean
gst_ctf_sink_set_caps (GstBaseSink * bsink, GstCaps * caps)
{
  GstCtfSink *self = GST_CTF_SINK (bsink);
  const gchar *tsdl = gst_ctf_caps_get_metadata (caps);
  GstCtfOutputVersion version;
  gboolean lossy;
  gchar *converted;
  GError *err = NULL;

  if (tsdl == NULL) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Caps without CTF metadata: expected %s with a `metadata` string "
            "field", GST_CTF_CAPS_MEDIA_TYPE), ("caps: %" GST_PTR_FORMAT,
            caps));
    return FALSE;
  }
  {
    GstQuery *q = gst_query_new_latency ();

    self->live = FALSE;
    if (gst_pad_peer_query (GST_BASE_SINK_PAD (self), q))
      gst_query_parse_latency (q, &self->live, NULL, NULL);
    gst_query_unref (q);
  }
  if (self->caps_metadata && strcmp (self->caps_metadata, tsdl) == 0)
    return TRUE;
  GST_DEBUG_OBJECT (self, "new metadata (%" G_GSIZE_FORMAT " bytes)",
      strlen (tsdl));
  GST_OBJECT_LOCK (self);
  version = self->ctf_version;
  lossy = self->lossy;
  GST_OBJECT_UNLOCK (self);
  converted = gst_ctf_output_version_convert (tsdl, version, lossy, &err);
  if (converted == NULL) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Cannot write the trace as CTF %s: %s",
            version == GST_CTF_OUTPUT_VERSION_2 ? "2" : "1.8", err->message),
        ("ctf-version=%s, lossy=%d", version == GST_CTF_OUTPUT_VERSION_2 ?
            "2" : "1.8", lossy));
    g_error_free (err);
    return FALSE;
  }
  g_free (self->caps_metadata);
  self->caps_metadata = g_strdup (tsdl);
  g_free (self->metadata);
  self->metadata = converted;
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  self->tc_failed = FALSE;
  warn_trace_compass (self);
  return gst_ctf_sink_write_metadata (self, NULL);
}

/* A stream name from upstream must stay inside the output directory and
 * not collide with what a trace directory reserves. */
static gboolean
stream_name_is_safe (const gchar * name)
{
  return name && *name && name[0] != '.' && strchr (name, '/') == NULL &&
      strchr (name, '\\') == NULL && strcmp (name, "metadata") != 0 &&
      strcmp (name, "index") != 0 && strlen (name) < 200;
}

static gchar *
stream_name_from_header (GstCtfSink * self, GstBuffer * buffer,
    const GstMapInfo * map)
{
  GstCtfPacketInfo info;
  GError *err = NULL;

  if (!gst_ctf_sink_ensure_trace_class (self, TRUE))
    return NULL;
  memset (&info, 0, sizeof (info));
  if (!gst_ctf_packet_read_info (self->tc, map->data, map->size, &info, &err)) {
    GST_ELEMENT_ERROR (self, STREAM, DECODE,
        ("Cannot read packet header: buffer offset=%" G_GUINT64_FORMAT ": %s",
            GST_BUFFER_OFFSET (buffer), err->message),
        ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
            err->code));
    g_error_free (err);
    return NULL;
  }
  if (info.has_stream_instance_id)
    return g_strdup_printf ("stream_%" G_GUINT64_FORMAT "_%" G_GUINT64_FORMAT,
        info.stream_class_id, info.stream_instance_id);
  return g_strdup_printf ("stream_%" G_GUINT64_FORMAT, info.stream_class_id);
}

/* The slot of a packet meta's stream name in the file cache. */
static inline guint
meta_name_slot (const gchar * name)
{
  return (guint) (((guintptr) name >> 3) & (G_N_ELEMENTS (((GstCtfSink *)
                  NULL)->meta_name) - 1));
}

/* What render_packet() adds to the statistics. */
typedef struct {
  guint64 packets;
  guint64 bytes;
  guint64 discarded_events;
} RenderStats;

#ifdef G_OS_UNIX
/* Up to this many memories of a large packet go out in one writev(2). */
#define MAX_IOV 8

/* write_packet() for a large packet of several memories: one system
 * call, so the file's pages are written whole (two writes would leave a
 * partial page for the kernel to zero and fill twice). */
static gboolean
writev_packet (OutFile * f, GstBuffer * buffer, guint n)
{
  struct iovec iov[MAX_IOV];
  GstMapInfo mi[MAX_IOV];
  int fd = fileno (f->fp);
  guint i, k = 0, mapped = 0;
  gboolean ok = TRUE;

  if (fflush (f->fp) != 0)
    return FALSE;
  for (i = 0; i < n; i++) {
    if (!gst_memory_map (gst_buffer_peek_memory (buffer, i), &mi[i],
            GST_MAP_READ)) {
      ok = FALSE;
      break;
    }
    mapped++;
    iov[i].iov_base = mi[i].data;
    iov[i].iov_len = mi[i].size;
    if (mi[i].size >= WRITE_BUFFER_SIZE)
      prefault (mi[i].data, mi[i].size);
  }
  while (ok && k < n) {
    gssize w = writev (fd, iov + k, n - k);

    if (w < 0) {
      if (errno == EINTR)
        continue;
      ok = FALSE;
      break;
    }
    /* past what was written: whole vectors, then into one */
    while (k < n && (gsize) w >= iov[k].iov_len) {
      w -= iov[k].iov_len;
      k++;
    }
    if (k < n) {
      iov[k].iov_base = (guint8 *) iov[k].iov_base + w;
      iov[k].iov_len -= w;
    }
  }
  for (i = 0; i < mapped; i++)
    gst_memory_unmap (gst_buffer_peek_memory (buffer, i), &mi[i]);
  return ok;
}
#endif

/* Writes the bytes of @buffer to @f (@map: the buffer mapped, or NULL):
 * memory by memory, so a packet made of a new header and a share of the
 * input packet (ctfmux, ctfsrc merging traces) is written without being
 * merged into one copy. */
static gboolean
write_buffer (OutFile * f, GstBuffer * buffer, const GstMapInfo * map)
{
  guint i, n;

  if (map != NULL)
    return map->size == 0 || write_packet (f, map->data, map->size);
  n = gst_buffer_n_memory (buffer);
#ifdef G_OS_UNIX
  if (n > 1 && n <= MAX_IOV &&
      gst_buffer_get_size (buffer) >= WRITE_BUFFER_SIZE)
    return writev_packet (f, buffer, n);
#endif
  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    GstMapInfo mi;
    gboolean ok;

    if (!gst_memory_map (mem, &mi, GST_MAP_READ))
      return FALSE;
    ok = mi.size == 0 || write_packet (f, mi.data, mi.size);
    gst_memory_unmap (mem, &mi);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* Writes one packet to its stream file. */
static GstFlowReturn
render_packet (GstCtfSink * self, GstBuffer * buffer, RenderStats * st)
{
  GstCtfPacketMeta *meta = gst_buffer_get_ctf_packet_meta (buffer);
  GstMapInfo map;
  gboolean mapped = FALSE;
  gsize size = gst_buffer_get_size (buffer);
  gchar *name;
  OutFile *f;

  if (self->metadata == NULL) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Packet before caps: no metadata to write."), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  if (meta && meta->stream_name != NULL) {
    guint slot = meta_name_slot (meta->stream_name);

    f = self->meta_file[slot];
    if (self->meta_name[slot] == meta->stream_name && f != NULL &&
        strcmp (f->name, meta->stream_name) == 0)
      goto have_file;
  }
  if (meta && stream_name_is_safe (meta->stream_name)) {
    name = g_strdup (meta->stream_name);
  } else {
    /* the name from the packet header: the buffer as one mapping */
    if (!gst_buffer_map (buffer, &map, GST_MAP_READ)) {
      GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Cannot map buffer."),
          (NULL));
      return GST_FLOW_ERROR;
    }
    mapped = TRUE;
    name = stream_name_from_header (self, buffer, &map);
    if (name == NULL) {
      gst_buffer_unmap (buffer, &map);
      return GST_FLOW_ERROR;
    }
  }

  f = g_hash_table_lookup (self->files, name);
  if (f == NULL) {
    f = gst_ctf_sink_out_file_new (self, name);
    f->fp = g_fopen (f->part_path, "wb");
    if (f->fp == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
          ("Cannot create \"%s\": %s", f->part_path, g_strerror (errno)),
          (NULL));
      gst_ctf_sink_out_file_free (f);
      g_free (name);
      if (mapped)
        gst_buffer_unmap (buffer, &map);
      return GST_FLOW_ERROR;
    }
    f->fp_buf = g_malloc (WRITE_BUFFER_SIZE);
    setvbuf (f->fp, f->fp_buf, _IOFBF, WRITE_BUFFER_SIZE);
    g_hash_table_insert (self->files, f->name, f);
    g_ptr_array_add (self->order, f);
    GST_OBJECT_LOCK (self);
    self->n_files++;
    GST_OBJECT_UNLOCK (self);
  }
  g_free (name);
  if (meta && meta->stream_name != NULL &&
      strcmp (f->name, meta->stream_name) == 0) {
    guint slot = meta_name_slot (meta->stream_name);

    self->meta_name[slot] = meta->stream_name;
    self->meta_file[slot] = f;
  }

have_file:
  if (!write_buffer (f, buffer, mapped ? &map : NULL)) {
    f->failed = TRUE;
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Cannot write %" G_GSIZE_FORMAT " bytes to \"%s\": %s", size,
            f->part_path, g_strerror (errno)), (NULL));
    if (mapped)
      gst_buffer_unmap (buffer, &map);
    return GST_FLOW_ERROR;
  }
  f->bytes += size;
  f->packets++;
  st->packets++;
  st->bytes += size;
  if (meta)
    st->discarded_events += meta->events_discarded_delta;

  if (mapped)
    gst_buffer_unmap (buffer, &map);
  return GST_FLOW_OK;
}

/* After ctfsink's own error, the end-of-stream that follows (a source
 * sends one after the error it posts for it) finishes a truncated trace. */
static void
note_flow (GstCtfSink * self, GstFlowReturn ret)
{
  if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING &&
      self->truncated_reason == NULL)
    self->truncated_reason = g_strdup ("ctfsink could not write a packet "
        "(see its error message)");
}

static void
add_stats (GstCtfSink * self, const RenderStats * st)
{
  GST_OBJECT_LOCK (self);
  self->packets += st->packets;
  self->bytes += st->bytes;
  self->discarded_events += st->discarded_events;
  GST_OBJECT_UNLOCK (self);
}

/* Live upstream: the packets written go to the files now (a session
 * followed live is on disk as it comes, not WRITE_BUFFER_SIZE later). */
static GstFlowReturn
flush_live (GstCtfSink * self, GstFlowReturn ret)
{
  guint i;

  if (ret != GST_FLOW_OK || !self->live)
    return ret;
  for (i = 0; i < self->order->len; i++) {
    OutFile *f = g_ptr_array_index (self->order, i);

    if (f->fp && !f->failed && fflush (f->fp) != 0) {
      f->failed = TRUE;
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
          ("Cannot write to \"%s\": %s", f->part_path, g_strerror (errno)),
          (NULL));
      return GST_FLOW_ERROR;
    }
  }
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_ctf_sink_render (GstBaseSink * bsink, GstBuffer * buffer)
{
  GstCtfSink *self = GST_CTF_SINK (bsink);
  RenderStats st = { 0 };
  GstFlowReturn ret = flush_live (self, render_packet (self, buffer, &st));

  add_stats (self, &st);
  note_flow (self, ret);
  return ret;
}

/* A list of packets (ctfmux sends its output in lists): basesink's work
 * and the statistics lock once per list instead of once per packet. */
static GstFlowReturn
gst_ctf_sink_render_list (GstBaseSink * bsink, GstBufferList * list)
{
  GstCtfSink *self = GST_CTF_SINK (bsink);
  RenderStats st = { 0 };
  GstFlowReturn ret = GST_FLOW_OK;
  guint i, n = gst_buffer_list_length (list);

  for (i = 0; i < n && ret == GST_FLOW_OK; i++)
    ret = render_packet (self, gst_buffer_list_get (list, i), &st);
  ret = flush_live (self, ret);
  add_stats (self, &st);
  note_flow (self, ret);
  return ret;
}

static gboolean
gst_ctf_sink_event (GstBaseSink * bsink, GstEvent * event)
{
  GstCtfSink *self = GST_CTF_SINK (bsink);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      if (!gst_ctf_sink_finish (self, self->truncated_reason)) {
        gst_event_unref (event);
        return FALSE;
      }
      break;
    case GST_EVENT_CUSTOM_DOWNSTREAM:{
      const gchar *reason;

      if (gst_ctf_event_parse_truncated (event, &reason)) {
        GST_DEBUG_OBJECT (self, "upstream truncates the stream: %s", reason);
        g_free (self->truncated_reason);
        self->truncated_reason = g_strdup (reason);
      }
      break;
    }
    case GST_EVENT_FLUSH_STOP:
      /* Data already written stays: a seek upstream appends after it. */
      break;
    default:
      break;
  }
  return GST_BASE_SINK_CLASS (parent_class)->event (bsink, event);
}
