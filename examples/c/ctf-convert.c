/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctf-convert: a CTF trace directory, a trace-cmd trace.dat file or a live
 * LTTng session -> a CTF 1.8 trace directory, optionally cut to a time
 * window.
 *
 *   ctf-convert [--begin T] [--end T] [--overwrite] INPUT OUTPUT-DIR
 *   ctf-convert --list net://RELAY[:PORT]
 *
 * INPUT `net://RELAY[:PORT]/host/HOST/SESSION` follows a live session
 * (lttnglivesrc) until it is destroyed; `--list` prints the relay's
 * sessions as `babeltrace2 -i lttng-live net://RELAY` does.
 *
 * The pipeline (docs/user-guide.md):
 *
 *   ctfsrc location=INPUT      ! [timefilter start=T end=T !] ctfsink location=OUT
 *   tracecmdsrc location=INPUT ! [timefilter ...             !] ctfsink location=OUT
 *   lttnglivesrc url=INPUT session-not-found=end ! [timefilter ... !] ctfsink location=OUT
 *
 * T takes babeltrace2's --begin/--end forms ("HH:MM:SS.NNNNNNNNN",
 * "YYYY-MM-DD HH:MM:SS", "SEC.NNNNNNNNN" from the clock origin).  A
 * progress line (packets, bytes, percent of the trace duration) is
 * refreshed on stderr twice a second while the conversion runs.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <gst/gst.h>
#include "gstctf-live.h"

typedef struct {
  GMainLoop *loop;
  GstElement *pipeline;
  guint64 packets;              /* counted in the streaming thread */
  guint64 bytes;
  gint exit_code;
  gboolean progress_shown;
  gboolean tty;
  gint64 started;
} App;

static GstPadProbeReturn
count_packet (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  App *app = user_data;
  guint i, n = 1;
  gsize bytes = 0;

  /* one buffer per packet, or a list of them */
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
    GstBufferList *list = GST_PAD_PROBE_INFO_BUFFER_LIST (info);

    n = gst_buffer_list_length (list);
    for (i = 0; i < n; i++)
      bytes += gst_buffer_get_size (gst_buffer_list_get (list, i));
  } else {
    bytes = gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info));
  }
  /* streaming thread; the progress timer reads these approximately */
  __atomic_add_fetch (&app->packets, n, __ATOMIC_RELAXED);
  __atomic_add_fetch (&app->bytes, bytes, __ATOMIC_RELAXED);
  return GST_PAD_PROBE_OK;
}

static void
print_progress (App * app, gboolean final)
{
  gint64 pos = -1, dur = -1;
  gchar percent[16] = "";
  gdouble secs = (g_get_monotonic_time () - app->started) / 1e6;

  if (!final && gst_element_query_position (app->pipeline, GST_FORMAT_TIME,
          &pos) && gst_element_query_duration (app->pipeline,
          GST_FORMAT_TIME, &dur) && dur > 0 && pos >= 0)
    g_snprintf (percent, sizeof (percent), "%5.1f %% ",
        MIN (100.0, 100.0 * pos / dur));
  else if (final)
    g_snprintf (percent, sizeof (percent), "100.0 %% ");
  /* one line rewritten in place on a terminal, one line per update in a
   * log file */
  fprintf (stderr, "%s%s%" G_GUINT64_FORMAT " packets, %.1f MiB, %.1f s%s",
      app->tty ? "\r" : "", percent,
      __atomic_load_n (&app->packets, __ATOMIC_RELAXED),
      __atomic_load_n (&app->bytes, __ATOMIC_RELAXED) / 1048576.0, secs,
      app->tty && !final ? "   " : "\n");
  fflush (stderr);
  app->progress_shown = TRUE;
}

static gboolean
on_timer (gpointer user_data)
{
  print_progress (user_data, FALSE);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  App *app = user_data;
  GError *err = NULL;
  gchar *dbg = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      print_progress (app, TRUE);
      g_main_loop_quit (app->loop);
      break;
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      if (app->progress_shown && app->tty)
        fputc ('\n', stderr);
      fprintf (stderr, "ctf-convert: error from %s: %s\n",
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
      if (dbg != NULL)
        fprintf (stderr, "  (%s)\n", dbg);
      g_clear_error (&err);
      g_free (dbg);
      app->exit_code = 1;
      g_main_loop_quit (app->loop);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &dbg);
      if (app->progress_shown && app->tty)
        fputc ('\n', stderr);
      fprintf (stderr, "ctf-convert: warning from %s: %s\n",
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
      g_clear_error (&err);
      g_free (dbg);
      break;
    default:
      break;
  }
  return TRUE;
}

/* a new element, added to (and owned by) the pipeline */
static GstElement *
make (GstElement * pipeline, const gchar * factory, const gchar * name)
{
  GstElement *e = gst_element_factory_make (factory, name);

  if (e != NULL)
    gst_bin_add (GST_BIN (pipeline), e);
  else
    fprintf (stderr, "ctf-convert: the `%s` element is not available; "
        "is GST_PLUGIN_PATH set to the gst-ctf plugin directory?\n",
        factory);
  return e;
}

/* The relay's sessions, one line per host and name (babeltrace2 adds up
 * the relay sessions of one tracing session, one per domain). */
static gint
list_sessions (const gchar * url)
{
  GError *error = NULL;
  GPtrArray *sessions = gst_ctf_live_list_sessions (url, 10000, NULL, &error);
  gchar *host;
  guint16 port;
  guint i, j;

  if (sessions == NULL) {
    fprintf (stderr, "ctf-convert: %s\n", error->message);
    g_error_free (error);
    return 1;
  }
  gst_ctf_live_parse_url (url, &host, &port, NULL, NULL, NULL);
  for (i = 0; i < sessions->len; i++) {
    GstCtfLiveSession *s = g_ptr_array_index (sessions, i);
    guint64 streams = s->streams;
    guint32 clients = s->clients, timer = s->live_timer;
    gboolean seen = FALSE;

    for (j = 0; j < i && !seen; j++) {
      GstCtfLiveSession *o = g_ptr_array_index (sessions, j);

      seen = strcmp (o->hostname, s->hostname) == 0 &&
          strcmp (o->session_name, s->session_name) == 0;
    }
    if (seen)
      continue;
    for (j = i + 1; j < sessions->len; j++) {
      GstCtfLiveSession *o = g_ptr_array_index (sessions, j);

      if (strcmp (o->hostname, s->hostname) == 0 &&
          strcmp (o->session_name, s->session_name) == 0) {
        streams += o->streams;
        clients = MAX (clients, o->clients);
        timer = MAX (timer, o->live_timer);
      }
    }
    printf ("net://%s:%u/host/%s/%s (timer = %u, %" G_GUINT64_FORMAT
        " stream(s), %u client(s) connected)\n", host, port, s->hostname,
        s->session_name, timer, streams, clients);
  }
  g_free (host);
  g_ptr_array_unref (sessions);
  return 0;
}

int
main (int argc, char **argv)
{
  gchar *begin = NULL, *end = NULL;
  gboolean overwrite = FALSE;
  gchar *list = NULL;
  GOptionEntry entries[] = {
    {"list", 'l', 0, G_OPTION_ARG_STRING, &list,
        "Print the sessions of an LTTng relay and exit", "net://RELAY[:PORT]"},
    {"begin", 'b', 0, G_OPTION_ARG_STRING, &begin,
        "Keep events at or after T (babeltrace2 --begin forms)", "T"},
    {"end", 'e', 0, G_OPTION_ARG_STRING, &end,
        "Keep events at or before T (babeltrace2 --end forms)", "T"},
    {"overwrite", 'f', 0, G_OPTION_ARG_NONE, &overwrite,
        "Replace a CTF trace already in OUTPUT-DIR (fails, deleting "
        "nothing, when other files are there)", NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *error = NULL;
  App app = { 0 };
  GstElement *src, *filter = NULL, *sink;
  GstPad *pad;
  GstBus *bus;
  const gchar *input, *output;
  gboolean is_dir, is_live;
  guint timer;

  ctx = g_option_context_new ("INPUT OUTPUT-DIR - convert a CTF trace "
      "directory, a trace.dat file or a live LTTng session "
      "(net://RELAY/host/HOST/SESSION) to CTF 1.8");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  app.exit_code = 2;
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    fprintf (stderr, "ctf-convert: %s\n", error->message);
    g_clear_error (&error);
    g_option_context_free (ctx);
    goto out;
  }
  if (list != NULL) {
    g_option_context_free (ctx);
    app.exit_code = list_sessions (list);
    g_free (list);
    goto out;
  }
  if (argc != 3) {
    gchar *help = g_option_context_get_help (ctx, TRUE, NULL);
    fprintf (stderr, "%s", help);
    g_free (help);
    g_option_context_free (ctx);
    goto out;
  }
  g_option_context_free (ctx);
  input = argv[1];
  output = argv[2];

  app.exit_code = 1;
  is_live = g_str_has_prefix (input, "net://") ||
      g_str_has_prefix (input, "net4://");
  if (!is_live && !g_file_test (input, G_FILE_TEST_EXISTS)) {
    fprintf (stderr, "ctf-convert: input not found: \"%s\"\n", input);
    goto out;
  }
  is_dir = g_file_test (input, G_FILE_TEST_IS_DIR);

  app.pipeline = gst_pipeline_new ("convert");
  src = make (app.pipeline, is_live ? "lttnglivesrc" : is_dir ? "ctfsrc" :
      "tracecmdsrc", "src");
  sink = make (app.pipeline, "ctfsink", "sink");
  if (src == NULL || sink == NULL)
    goto out;
  if (begin != NULL || end != NULL) {
    filter = make (app.pipeline, "timefilter", "window");
    if (filter == NULL)
      goto out;
    if (begin != NULL)
      g_object_set (filter, "start", begin, NULL);
    if (end != NULL)
      g_object_set (filter, "end", end, NULL);
  }
  if (is_live)
    /* until the session is destroyed */
    gst_util_set_object_arg (G_OBJECT (src), "session-not-found", "end");
  g_object_set (src, is_live ? "url" : "location", input, NULL);
  g_object_set (sink, "location", output, NULL);
  if (overwrite &&
      g_object_class_find_property (G_OBJECT_GET_CLASS (sink), "overwrite"))
    g_object_set (sink, "overwrite", TRUE, NULL);

  if (!(filter ? gst_element_link_many (src, filter, sink, NULL) :
          gst_element_link (src, sink))) {
    fprintf (stderr, "ctf-convert: cannot link the pipeline\n");
    goto out;
  }
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST, count_packet, &app, NULL);
  gst_object_unref (pad);

  app.loop = g_main_loop_new (NULL, FALSE);
  app.tty = isatty (STDERR_FILENO);
  bus = gst_element_get_bus (app.pipeline);
  gst_bus_add_watch (bus, on_message, &app);
  gst_object_unref (bus);

  app.exit_code = 0;
  app.started = g_get_monotonic_time ();
  if (gst_element_set_state (app.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* the error message on the bus says why */
    app.exit_code = 1;
  }
  timer = g_timeout_add (500, on_timer, &app);
  g_main_loop_run (app.loop);
  g_source_remove (timer);

  gst_element_set_state (app.pipeline, GST_STATE_NULL);
  if (app.exit_code == 0)
    fprintf (stderr, "ctf-convert: wrote %s\n", output);

out:
  if (app.pipeline != NULL)
    gst_object_unref (app.pipeline);
  if (app.loop != NULL)
    g_main_loop_unref (app.loop);
  g_free (begin);
  g_free (end);
  return app.exit_code;
}
