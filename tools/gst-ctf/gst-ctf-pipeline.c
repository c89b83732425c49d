/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * babeltrace2 convert's implicit graph, as elements:
 *
 *   SOURCE [! ctfmux (several inputs)] [! ctffilter] [! timefilter]
 *     [! ctfdebuginfo] ! SINK
 *
 * SOURCE is ctfsrc, tracecmdsrc, lttng0src or lttnglivesrc (input
 * detection); SINK ctftextsink (text, json-lines, trace-cmd,
 * ctf-metadata), ctfsink (ctf), ctfstatssink (stats; dummy: to
 * /dev/null) or perfettosink.  Elements are made by name and properties
 * set by name: what this build lacks fails with an error naming the
 * option.
 */
#include <string.h>
#include <glib/gstdio.h>
#include "gst-ctf-pipeline.h"
#include "gst-ctf-input.h"
#include "gst-ctf-elements.h"
#include "gst-ctf-error.h"

/* babeltrace2's --clock-offset=SEC and --clock-offset-ns=NS are
 * source.ctf.fs parameters (the clock classes are shifted, so the
 * trimmer and the muxer see the shifted times); sources that have
 * `clock-offset-ns` take them, else ctftextsink's display properties
 * (same text when no time range is given) */
static gboolean
sources_shift_clocks (GPtrArray * sources)
{
  guint i;

  for (i = 0; i < sources->len; i++)
    if (!gst_ctf_cli_has_property (g_ptr_array_index (sources, i),
            "clock-offset-ns"))
      return FALSE;
  return TRUE;
}

static gboolean
check_integer (const gchar * option, const gchar * value, GError ** error)
{
  gint64 v;

  if (g_ascii_string_to_signed (value, 10, G_MININT64, G_MAXINT64, &v,
          NULL))
    return TRUE;
  g_set_error (error, GST_CTF_CLI_ERROR, 0,
      "Invalid %s=\"%s\": expected an integer", option, value);
  return FALSE;
}

static gboolean
set_source_options (const GstCtfCliOptions * o, GstElement * src,
    GstCtfCliInput kind, gboolean shift_at_source, gboolean several,
    GError ** error)
{
  if (kind == GST_CTF_CLI_INPUT_LIVE)
    /* a session the relay does not list ends the output at once
     * (babeltrace2 waits for it); the session's destruction ends it
     * with any value */
    gst_util_set_object_arg (G_OBJECT (src), "session-not-found", "end");
  if (o->stream_intersection) {
    if (kind != GST_CTF_CLI_INPUT_CTF) {
      g_set_error (error, GST_CTF_CLI_ERROR, 0,
          "--stream-intersection applies to CTF trace directories only");
      return FALSE;
    }
    if (!gst_ctf_cli_set (src, "stream-intersection", "true",
            "--stream-intersection", error))
      return FALSE;
  }
  if (shift_at_source && o->clock_offset &&
      !gst_ctf_cli_set (src, "clock-offset", o->clock_offset,
          "--clock-offset", error))
    return FALSE;
  if (shift_at_source && o->clock_offset_ns &&
      !gst_ctf_cli_set (src, "clock-offset-ns", o->clock_offset_ns,
          "--clock-offset-ns", error))
    return FALSE;
  if (o->clock_force_correlate) {
    if (gst_ctf_cli_has_property (src, "force-clock-class-origin-unix-epoch"))
      g_object_set (src, "force-clock-class-origin-unix-epoch", TRUE, NULL);
    else if (!several)
      return gst_ctf_cli_set (src, "force-clock-class-origin-unix-epoch",
          "true", "--clock-force-correlate", error);
  }
  return TRUE;
}

static GstElement *
add_sources (GstElement * pipeline, const GstCtfCliOptions * o,
    gboolean * shifted, GError ** error)
{
  guint n = g_strv_length (o->inputs), i;
  GPtrArray *sources = g_ptr_array_new ();
  GstCtfCliInput *kinds = g_new0 (GstCtfCliInput, n);
  GstElement *out = NULL, *mux = NULL;
  gboolean shift;

  for (i = 0; i < n; i++) {
    GstElement *src;

    if (!gst_ctf_cli_detect_input (o->inputs[i], &kinds[i], error))
      goto done;
    src = gst_ctf_cli_add (pipeline, gst_ctf_cli_input_factory (kinds[i]),
        NULL, error);
    if (src == NULL)
      goto done;
    g_object_set (src, gst_ctf_cli_input_property (kinds[i]), o->inputs[i],
        NULL);
    g_ptr_array_add (sources, src);
  }
  shift = *shifted = sources_shift_clocks (sources);
  if (!shift && (o->clock_offset || o->clock_offset_ns) &&
      o->output != GST_CTF_CLI_OUTPUT_TEXT &&
      o->output != GST_CTF_CLI_OUTPUT_JSON_LINES) {
    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "Option --clock-offset%s is not available in this build for -o "
        "other than text: `%s` has no `clock-offset-ns` property",
        o->clock_offset ? "" : "-ns",
        GST_OBJECT_NAME (gst_element_get_factory (g_ptr_array_index
                (sources, 0))));
    goto done;
  }
  for (i = 0; i < n; i++)
    if (!set_source_options (o, g_ptr_array_index (sources, i), kinds[i],
            shift, n > 1, error))
      goto done;
  if (n == 1) {
    out = g_ptr_array_index (sources, 0);
    goto done;
  }
  mux = gst_ctf_cli_add (pipeline, "ctfmux", NULL, error);
  if (mux == NULL)
    goto done;
  if (o->clock_force_correlate)
    g_object_set (mux, "force-correlate", TRUE, NULL);
  for (i = 0; i < n; i++) {
    if (!gst_element_link (g_ptr_array_index (sources, i), mux)) {
      g_set_error (error, GST_CTF_CLI_ERROR, 0,
          "Cannot merge input \"%s\" (linking it to ctfmux failed)",
          o->inputs[i]);
      goto done;
    }
  }
  out = mux;
done:
  g_ptr_array_unref (sources);
  g_free (kinds);
  return out;
}

/* link @e after *@last, which becomes @e */
static gboolean
chain (GstElement ** last, GstElement * e, GError ** error)
{
  if (e == NULL)
    return FALSE;
  if (!gst_element_link (*last, e)) {
    g_set_error (error, GST_CTF_CLI_ERROR, 0, "Cannot link %s to %s",
        GST_OBJECT_NAME (gst_element_get_factory (*last)),
        GST_OBJECT_NAME (gst_element_get_factory (e)));
    return FALSE;
  }
  *last = e;
  return TRUE;
}

static GstElement *
add_filters (GstElement * pipeline, GstElement * last,
    const GstCtfCliOptions * o, GError ** error)
{
  GstElement *e;

  if (o->filter || o->events || o->cpus) {
    e = gst_ctf_cli_add (pipeline, "ctffilter", NULL, error);
    if (!chain (&last, e, error) ||
        (o->filter && !gst_ctf_cli_set (e, "filter", o->filter, "--filter",
                error)) ||
        (o->events && !gst_ctf_cli_set (e, "events", o->events, "--events",
                error)) ||
        (o->cpus && !gst_ctf_cli_set (e, "cpus", o->cpus, "--cpus", error)))
      return NULL;
  }
  if (o->begin || o->end) {
    e = gst_ctf_cli_add (pipeline, "timefilter", NULL, error);
    if (!chain (&last, e, error) ||
        (o->begin && !gst_ctf_cli_set (e, "start", o->begin, "--begin",
                error)) ||
        (o->end && !gst_ctf_cli_set (e, "end", o->end, "--end", error)))
      return NULL;
    if (o->clock_gmt)
      g_object_set (e, "gmt", TRUE, NULL);
  }
  if (o->debug_info) {
    e = gst_ctf_cli_add (pipeline, "ctfdebuginfo", "--debug-info", error);
    if (!chain (&last, e, error) ||
        (o->debug_info_dir && !gst_ctf_cli_set (e, "debug-info-dir",
                o->debug_info_dir, "--debug-info-dir", error)) ||
        (o->debug_info_target_prefix && !gst_ctf_cli_set (e,
                "target-prefix", o->debug_info_target_prefix,
                "--debug-info-target-prefix", error)) ||
        (o->debug_info_full_path && !gst_ctf_cli_set (e, "full-path",
                "true", "--debug-info-full-path", error)))
      return NULL;
  }
  return last;
}

/* Adds the bytes of @path (a file, or the files below a directory) to
 * *@total, stopping once it passes @limit or after @budget entries */
static void
add_size (const gchar * path, guint64 limit, guint64 * total, guint * budget)
{
  GStatBuf st;
  GDir *dir;
  const gchar *name;

  if (*total > limit || *budget == 0 || g_stat (path, &st) != 0)
    return;
  (*budget)--;
  if (!S_ISDIR (st.st_mode)) {
    *total += st.st_size;
    return;
  }
  dir = g_dir_open (path, 0, NULL);
  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL && *total <= limit &&
      *budget > 0) {
    gchar *child = g_build_filename (path, name, NULL);

    add_size (child, limit, total, budget);
    g_free (child);
  }
  g_dir_close (dir);
}

/* Inputs of at most 4 MiB (not live): ctftextsink decodes them on the
 * streaming thread, as starting its worker threads (one per core) costs
 * more than they save there; the text is the same */
static gboolean
small_inputs (const GstCtfCliOptions * o)
{
  const guint64 limit = 4 << 20;
  guint64 total = 0;
  guint budget = 512, i;

  for (i = 0; o->inputs[i] != NULL; i++) {
    if (gst_ctf_cli_is_live_url (o->inputs[i]))
      return FALSE;
    add_size (o->inputs[i], limit, &total, &budget);
  }
  return total <= limit && budget > 0;
}

static gboolean
set_text_options (GstElement * sink, const GstCtfCliOptions * o,
    gboolean display_offsets, GError ** error)
{
  struct {
    gboolean on;
    const gchar *prop, *option;
  } flags[] = {
    {o->clock_cycles, "clock-cycles", "--clock-cycles"},
    {o->clock_date, "clock-date", "--clock-date"},
    {o->clock_gmt, "clock-gmt", "--clock-gmt"},
    {o->clock_seconds, "clock-seconds", "--clock-seconds"},
    {o->no_delta, "no-delta", "--no-delta"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (flags); i++)
    if (flags[i].on && !gst_ctf_cli_set (sink, flags[i].prop, "true",
            flags[i].option, error))
      return FALSE;
  return (!o->names || gst_ctf_cli_set (sink, "names", o->names, "--names",
          error)) &&
      (!o->fields || gst_ctf_cli_set (sink, "fields", o->fields,
          "--fields", error)) &&
      (!o->color || gst_ctf_cli_set (sink, "color", o->color, "--color",
          error)) &&
      (!display_offsets || !o->clock_offset ||
      gst_ctf_cli_set (sink, "clock-offset", o->clock_offset,
          "--clock-offset", error)) &&
      (!display_offsets || !o->clock_offset_ns ||
      gst_ctf_cli_set (sink, "clock-offset-ns", o->clock_offset_ns,
          "--clock-offset-ns", error));
}

static GstElement *
add_sink (GstElement * pipeline, const GstCtfCliOptions * o,
    gboolean display_offsets, const gchar * dummy_path, GError ** error)
{
  GstElement *sink;
  const gchar *format = NULL;

  switch (o->output) {
    case GST_CTF_CLI_OUTPUT_CTF:
      sink = gst_ctf_cli_add (pipeline, "ctfsink", NULL, error);
      if (sink != NULL && o->overwrite)
        g_object_set (sink, "overwrite", TRUE, NULL);
      break;
    case GST_CTF_CLI_OUTPUT_PERFETTO:
      sink = gst_ctf_cli_add (pipeline, "perfettosink", "-o perfetto",
          error);
      break;
    case GST_CTF_CLI_OUTPUT_STATS:
      /* ctfstatssink replaces its location (a new file renamed over it):
       * never a device or a pipe */
      if (o->output_path && g_file_test (o->output_path, G_FILE_TEST_EXISTS)
          && !g_file_test (o->output_path, G_FILE_TEST_IS_REGULAR)) {
        g_set_error (error, GST_CTF_CLI_ERROR, 0,
            "-o stats writes a regular file: \"%s\" is not one (leave -w "
            "out for the standard output)", o->output_path);
        return NULL;
      }
      sink = gst_ctf_cli_add (pipeline, "ctfstatssink", NULL, error);
      break;
    case GST_CTF_CLI_OUTPUT_DUMMY:
      /* every event decoded, as babeltrace2's dummy sink; the summary goes
       * to a file of our own, deleted at the end (gst-ctf-convert.c) */
      sink = gst_ctf_cli_add (pipeline, "ctfstatssink", NULL, error);
      if (sink != NULL)
        g_object_set (sink, "location", dummy_path, NULL);
      break;
    case GST_CTF_CLI_OUTPUT_JSON_LINES:
      format = "json-lines";
      /* fall through */
    case GST_CTF_CLI_OUTPUT_TRACE_CMD:
      format = format ? format : "trace-cmd";
      /* fall through */
    case GST_CTF_CLI_OUTPUT_CTF_METADATA:
      format = format ? format : "metadata";
      /* fall through */
    case GST_CTF_CLI_OUTPUT_TEXT:
    default:
      sink = gst_ctf_cli_add (pipeline, "ctftextsink", NULL, error);
      if (sink == NULL)
        return NULL;
      if (format != NULL)
        gst_util_set_object_arg (G_OBJECT (sink), "format", format);
      if (o->babeltrace_version)
        gst_util_set_object_arg (G_OBJECT (sink), "babeltrace-version",
            o->babeltrace_version);
      if (small_inputs (o) && gst_ctf_cli_has_property (sink, "parallel"))
        g_object_set (sink, "parallel", FALSE, NULL);
      if (!set_text_options (sink, o, display_offsets, error))
        return NULL;
      break;
  }
  if (sink != NULL && o->output_path != NULL &&
      o->output != GST_CTF_CLI_OUTPUT_DUMMY)
    g_object_set (sink, "location", o->output_path, NULL);
  return sink;
}

/* @dummy_path: where -o dummy's sink may write (a file of gst-ctf's own) */
GstElement *
gst_ctf_cli_pipeline_new (const GstCtfCliOptions * o,
    const gchar * dummy_path, GstElement ** sink_out, GError ** error)
{
  GstElement *pipeline = gst_pipeline_new ("gst-ctf");
  GstElement *last, *sink;
  gboolean display_offsets, shifted = FALSE;

  if (o->clock_offset && !check_integer ("--clock-offset", o->clock_offset,
          error))
    goto fail;
  if (o->clock_offset_ns && !check_integer ("--clock-offset-ns",
          o->clock_offset_ns, error))
    goto fail;
  last = add_sources (pipeline, o, &shifted, error);
  if (last == NULL)
    goto fail;
  /* the sources did not take the clock offsets: the text sink shows them */
  display_offsets = !shifted;
  if (o->output != GST_CTF_CLI_OUTPUT_CTF_METADATA) {
    last = add_filters (pipeline, last, o, error);
    if (last == NULL)
      goto fail;
  }
  sink = add_sink (pipeline, o, display_offsets, dummy_path, error);
  if (!chain (&last, sink, error))
    goto fail;
  *sink_out = sink;
  return pipeline;
fail:
  gst_object_unref (pipeline);
  return NULL;
}
