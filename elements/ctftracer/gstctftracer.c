/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:tracer-ctftracer
 * @title: ctftracer
 * @short_description: records a GStreamer pipeline as a CTF trace
 *
 * A GstTracer that writes what the pipelines of the process do as a CTF
 * 1.8 trace (CTF 2 with `ctf-version=2`) in the directory `location`:
 * buffer flow (every pad push, pull and buffer list with PTS, DTS,
 * duration, offset, size and flags), per-element processing time
 * (`proctime`: from a buffer entering an element to the element pushing
 * it on, in the same thread), source-to-sink latency (`latency`, as the
 * core `latency` tracer), queue levels, state changes, bus messages,
 * pad and element names, thread CPU usage and per-pad rates every
 * `period`, and optionally the debug log.
 *
 * One stream per thread (`stream_N`, packet context `thread_id`), filled
 * without a shared lock and written by a writer thread; partly filled
 * packets are flushed every `flush-interval` and at exit, so a process
 * killed with SIGKILL leaves a trace readable up to its last flush.  When
 * a thread's packet buffers are all waiting for the writer, its events
 * are discarded and counted (`events_discarded`), never blocking the
 * pipeline.
 *
 * Parameters (`GST_TRACERS="ctftracer(location=DIR,flush-interval=500)"`):
 * `location` (default `ctftracer-PID`; must be empty or absent),
 * `overwrite` (replace a previous CTF trace there, as ctfsink),
 * `ctf-version` (1 or 2), `flush-interval` and `period` (ms, default
 * 1000), `packet-size` (bytes, 4096 to 16 MiB, default 65536; strings
 * longer than 512 bytes are cut), `buffers-per-thread`
 * (default 32), and the switches `buffers`, `latency`, `queue-levels`,
 * `states`, `messages`, `rusage`, `rates`, `events` (default on),
 * `queries`, `log` (default off).
 *
 * ## Example
 * |[
 * GST_TRACERS="ctftracer(location=/tmp/t)" gst-launch-1.0 videotestsrc num-buffers=100 ! videoconvert ! fakesink
 * gst-launch-1.0 ctfsrc location=/tmp/t ! ctftextsink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctftracer.h"
#include "gstctftracer-private.h"
#include "gstctfsink-private.h"
#include "gstctf-output-version.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <glib/gstdio.h>

GST_DEBUG_CATEGORY_STATIC (gst_ctf_tracer_debug);
#define GST_CAT_DEFAULT gst_ctf_tracer_debug

G_DEFINE_TYPE (GstCtfTracer, gst_ctf_tracer, GST_TYPE_TRACER);

/* The running trace (one per process), for the atexit() flush. */
static Trace *live_trace;
G_LOCK_DEFINE_STATIC (live_trace);

/* ---- parameters and start ---- */

static gboolean
get_bool (const GstStructure * st, const gchar * name, gboolean def)
{
  gboolean v;

  return gst_structure_get_boolean (st, name, &v) ? v : def;
}

static guint
get_uint (const GstStructure * st, const gchar * name, guint def,
    guint min, guint max)
{
  gint v;
  guint u;

  if (gst_structure_get_uint (st, name, &u))
    return CLAMP (u, min, max);
  if (gst_structure_get_int (st, name, &v))
    return CLAMP ((guint) MAX (v, 0), min, max);
  return def;
}

/* FALSE when @params do not parse (then nothing is traced: a location
 * meant for the trace may be in them). */
static gboolean
parse_params (TracerSettings * set, const gchar * params)
{
  gchar *text = g_strdup_printf ("ctftracer,%s", params ? params : "");
  GstStructure *st = gst_structure_from_string (text, NULL);
  const gchar *loc;

  gboolean ok = st != NULL || params == NULL || *params == '\0';

  if (st == NULL)
    st = gst_structure_new_empty ("ctftracer");
  loc = gst_structure_get_string (st, "location");
  set->location = loc != NULL ? g_strdup (loc) :
      g_strdup_printf ("ctftracer-%d", (int) getpid ());
  set->overwrite = get_bool (st, "overwrite", FALSE);
  set->ctf_version = get_uint (st, "ctf-version", 1, 1, 2);
  set->buffers = get_bool (st, "buffers", TRUE);
  set->events = get_bool (st, "events", TRUE);
  set->queries = get_bool (st, "queries", FALSE);
  set->latency = get_bool (st, "latency", TRUE);
  set->queue_levels = get_bool (st, "queue-levels", TRUE);
  set->states = get_bool (st, "states", TRUE);
  set->messages = get_bool (st, "messages", TRUE);
  set->rusage = get_bool (st, "rusage", TRUE);
  set->rates = get_bool (st, "rates", TRUE);
  set->log = get_bool (st, "log", FALSE);
  set->flush_interval = get_uint (st, "flush-interval", 1000, 1, 3600000) *
      GST_MSECOND;
  set->period = get_uint (st, "period", 1000, 1, 3600000) * GST_MSECOND;
  set->packet_size = get_uint (st, "packet-size", 65536,
      TRACER_MIN_PACKET_SIZE, 1 << 24);
  set->buffers_per_thread = get_uint (st, "buffers-per-thread", 32, 1, 4096);
  set->writer_pause_ms = get_uint (st, "writer-pause", 0, 0, 10000);
  gst_structure_free (st);
  g_free (text);
  return ok;
}

/* `location` must be empty or absent, or (overwrite) hold only a previous
 * CTF trace, which is deleted: ctfsink's rules. */
static gchar *
prepare_directory (const TracerSettings * set)
{
  GstCtfSinkDirScan scan;
  GError *err = NULL;
  gchar *why = NULL, *list;

  if (g_mkdir_with_parents (set->location, 0755) != 0)
    return g_strdup_printf ("Cannot create directory \"%s\": %s",
        set->location, g_strerror (errno));
  if (!gst_ctf_sink_dir_scan (set->location, &scan, &err)) {
    why = g_strdup_printf ("Cannot read directory \"%s\": %s",
        set->location, err->message);
    g_error_free (err);
    return why;
  }
  if (scan.names == NULL)
    return NULL;
  list = gst_ctf_sink_dir_scan_describe (&scan);
  if (!set->overwrite)
    why = g_strdup_printf ("Directory \"%s\" is not empty: it holds %s; "
        "set overwrite=true to replace a previous trace", set->location,
        list);
  else if (scan.foreign != NULL)
    why = g_strdup_printf ("Directory \"%s\" holds \"%s\", which is not part "
        "of a CTF trace (%s); nothing was deleted", set->location,
        scan.foreign, scan.foreign_why);
  else if (!gst_ctf_sink_dir_remove (&scan, &err)) {
    why = g_strdup_printf ("Cannot replace the trace in \"%s\": %s",
        set->location, err->message);
    g_error_free (err);
  }
  g_free (list);
  gst_ctf_sink_dir_scan_clear (&scan);
  return why;
}

static gboolean
write_metadata (Trace * t)
{
  gchar *tsdl = tracer_metadata_tsdl (t), *text = tsdl;
  GError *err = NULL;
  gboolean ok;
  gchar *path;

  if (t->s.ctf_version == 2) {
    text = gst_ctf_output_version_convert (tsdl, GST_CTF_OUTPUT_VERSION_2,
        FALSE, &err);
    if (text == NULL) {
      t->error = g_strdup_printf ("Cannot write CTF 2 metadata: %s",
          err->message);
      g_error_free (err);
      g_free (tsdl);
      return FALSE;
    }
  }
  path = g_build_filename (t->s.location, "metadata", NULL);
  ok = g_file_set_contents (path, text, -1, &err);
  if (!ok) {
    t->error = g_strdup_printf ("Cannot write \"%s\": %s", path,
        err->message);
    g_error_free (err);
  }
  if (text != tsdl)
    g_free (text);
  g_free (tsdl);
  g_free (path);
  return ok;
}

static void
stop_at_exit (void)
{
  Trace *t;

  G_LOCK (live_trace);
  t = live_trace;
  G_UNLOCK (live_trace);
  if (t != NULL)
    tracer_writer_stop (t);
}

static Trace *
trace_new (const gchar * params)
{
  Trace *t = g_new0 (Trace, 1);
  guint i;

  if (!parse_params (&t->s, params))
    t->error = g_strdup_printf ("Cannot parse the parameters \"%s\" "
        "(expected NAME=VALUE,... as in a GstStructure)", params);
  g_mutex_init (&t->lock);
  t->streams = g_ptr_array_new ();
  t->pads = g_ptr_array_new ();
  t->dir_fd = -1;
  for (i = 0; i < 16; i++)
    t->uuid[i] = g_random_int_range (0, 256);
  t->uuid[6] = (t->uuid[6] & 0x0f) | 0x40;      /* RFC 4122 version 4 */
  t->uuid[8] = (t->uuid[8] & 0x3f) | 0x80;
  return t;
}

/* The directory, the metadata and the writer thread, at the first hook
 * call: a tracer object made only to be inspected (gst-inspect-1.0
 * ctftracer) writes nothing. */
static void
trace_open (Trace * t)
{
  static gboolean atexit_set;
  gint64 real, mono;

  mono = tracer_now ();
  real = g_get_real_time () * 1000;
  t->epoch_offset_ns = real - mono;

  if (t->error == NULL)
    t->error = prepare_directory (&t->s);
  if (t->error == NULL) {
    t->dir_fd = open (t->s.location, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (t->dir_fd < 0)
      t->error = g_strdup_printf ("Cannot open directory \"%s\": %s",
          t->s.location, g_strerror (errno));
  }
  if (t->error == NULL && !write_metadata (t))
    g_assert (t->error != NULL);
  if (t->error != NULL) {
    g_printerr ("ctftracer: %s; not tracing.\n", t->error);
    GST_ERROR ("%s", t->error);
    return;
  }
  GST_INFO ("tracing to %s", t->s.location);
  tracer_writer_start (t);
  G_LOCK (live_trace);
  if (live_trace == NULL)
    live_trace = t;
  G_UNLOCK (live_trace);
  if (!atexit_set) {
    atexit (stop_at_exit);
    atexit_set = TRUE;
  }
  g_atomic_int_set (&t->active, 1);
}

gboolean
tracer_trace_open_once (Trace * t)
{
  if (g_once_init_enter (&t->opened)) {
    trace_open (t);
    g_once_init_leave (&t->opened, 1);
  }
  return g_atomic_int_get (&t->active);
}


static void
trace_free (Trace * t)
{
  guint i;

  tracer_writer_stop (t);
  G_LOCK (live_trace);
  if (live_trace == t)
    live_trace = NULL;
  G_UNLOCK (live_trace);
  for (i = 0; i < t->streams->len; i++)
    tracer_stream_free (g_ptr_array_index (t->streams, i));
  /* Streams stay reachable from threads' GPrivate */
  if (t->queue != NULL)
    g_async_queue_unref (t->queue);
  if (t->dir_fd >= 0)
    close (t->dir_fd);
  /* PadInfo stay: a pad may outlive the trace (pad_finalized) */
  g_free (t->s.location);
  g_free (t->error);
  /* the Trace itself (and its lock) stays: a thread's Stream points at
   * it */
}

static void
gst_ctf_tracer_constructed (GObject * object)
{
  GstCtfTracer *self = GST_CTF_TRACER (object);
  gchar *params = NULL;
  Trace *t;

  G_OBJECT_CLASS (gst_ctf_tracer_parent_class)->constructed (object);
  g_object_get (object, "params", &params, NULL);
  t = self->trace = trace_new (params);
  g_free (params);
  tracer_hooks_register (GST_TRACER (object), t);
}

static void
gst_ctf_tracer_finalize (GObject * object)
{
  GstCtfTracer *self = GST_CTF_TRACER (object);

  if (self->trace != NULL) {
    if (self->trace->s.log)
      tracer_hooks_remove_log ();
    trace_free (self->trace);
  }
  G_OBJECT_CLASS (gst_ctf_tracer_parent_class)->finalize (object);
}

static void
gst_ctf_tracer_class_init (GstCtfTracerClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->constructed = gst_ctf_tracer_constructed;
  gobject_class->finalize = gst_ctf_tracer_finalize;
  tracer_hooks_init ();
  GST_DEBUG_CATEGORY_INIT (gst_ctf_tracer_debug, "ctftracer", 0,
      "CTF tracer");
}

static void
gst_ctf_tracer_init (GstCtfTracer * self)
{
}
