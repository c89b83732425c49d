/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf [convert] [OPTIONS] INPUT...: babeltrace2 convert's options
 * (the same long and short names, `--opt=VALUE` and `--opt VALUE`) and
 * gst-ctf's own (-o json-lines|trace-cmd|perfetto|stats, --filter,
 * --events, --cpus).
 */
#include <string.h>
#include <gst/gst.h>
#include "gst-ctf-options.h"
#include "gst-ctf-error.h"

static const struct {
  const gchar *name;
  GstCtfCliOutput output;
} output_names[] = {
  {"text", GST_CTF_CLI_OUTPUT_TEXT},
  {"ctf", GST_CTF_CLI_OUTPUT_CTF},
  {"ctf-metadata", GST_CTF_CLI_OUTPUT_CTF_METADATA},
  {"dummy", GST_CTF_CLI_OUTPUT_DUMMY},
  {"json-lines", GST_CTF_CLI_OUTPUT_JSON_LINES},
  {"trace-cmd", GST_CTF_CLI_OUTPUT_TRACE_CMD},
  {"perfetto", GST_CTF_CLI_OUTPUT_PERFETTO},
  {"stats", GST_CTF_CLI_OUTPUT_STATS},
};

static gboolean
parse_output (const gchar * option, const gchar * value, gpointer data,
    GError ** error)
{
  GstCtfCliOptions *opts = data;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (output_names); i++) {
    if (strcmp (value, output_names[i].name) == 0) {
      opts->output = output_names[i].output;
      return TRUE;
    }
  }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "Unknown output format: %s=\"%s\" (expected text, ctf, ctf-metadata, "
      "dummy, json-lines, trace-cmd, perfetto or stats)", option, value);
  return FALSE;
}

/* BEGIN,END or [BEGIN,END] (babeltrace2's --timerange) */
static gboolean
parse_timerange (const gchar * option, const gchar * value, gpointer data,
    GError ** error)
{
  GstCtfCliOptions *opts = data;
  gsize len = strlen (value);
  const gchar *start = value, *comma;

  if (len >= 2 && value[0] == '[' && value[len - 1] == ']') {
    start++;
    len -= 2;
  }
  comma = memchr (start, ',', len);
  if (comma == NULL || comma == start || comma == start + len - 1) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "Invalid time range: %s=\"%s\" (expected BEGIN,END or [BEGIN,END])",
        option, value);
    return FALSE;
  }
  g_free (opts->begin);
  g_free (opts->end);
  opts->begin = g_strndup (start, comma - start);
  opts->end = g_strndup (comma + 1, start + len - comma - 1);
  return TRUE;
}

static gboolean
parse_input_format (const gchar * option, const gchar * value,
    gpointer data, GError ** error)
{
  GstCtfCliOptions *opts = data;

  if (strcmp (value, "ctf") != 0 && strcmp (value, "lttng-live") != 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "Unknown input format: %s=\"%s\" (expected ctf or lttng-live; "
        "inputs are detected without it)", option, value);
    return FALSE;
  }
  g_free (opts->input_format);
  opts->input_format = g_strdup (value);
  return TRUE;
}

static gboolean
no_progress (const gchar * option, const gchar * value, gpointer data,
    GError ** error)
{
  ((GstCtfCliOptions *) data)->progress = FALSE;
  return TRUE;
}

gboolean
gst_ctf_cli_is_text_output (GstCtfCliOutput output)
{
  return output == GST_CTF_CLI_OUTPUT_TEXT;
}

/* Options that only a text sink takes (babeltrace2 also refuses them
 * with another output format) */
static gboolean
check_text_only (GstCtfCliOptions * o, GError ** error)
{
  const gchar *opt = NULL;

  if (o->output == GST_CTF_CLI_OUTPUT_TEXT)
    return TRUE;
  if (o->names)
    opt = "--names";
  else if (o->fields)
    opt = "--fields";
  else if (o->no_delta)
    opt = "--no-delta";
  else if (o->color)
    opt = "--color";
  else if (o->clock_cycles)
    opt = "--clock-cycles";
  else if (o->clock_date)
    opt = "--clock-date";
  else if (o->clock_seconds)
    opt = "--clock-seconds";
  if (opt == NULL)
    return TRUE;
  g_set_error (error, GST_CTF_CLI_ERROR, 0,
      "Option %s applies to the text output only (-o text)", opt);
  return FALSE;
}

gboolean
gst_ctf_cli_options_parse (GstCtfCliOptions * o, gint * argc, gchar *** argv,
    GError ** error)
{
  GOptionEntry entries[] = {
    /* outputs */
    {"output-format", 'o', 0, G_OPTION_ARG_CALLBACK, parse_output,
        "Output format: text (default, babeltrace2's), ctf (a CTF trace in "
          "the -w directory), ctf-metadata, dummy (read, print nothing), "
          "json-lines, trace-cmd (trace-cmd report's text of a trace.dat), "
          "perfetto (-w FILE), stats", "FORMAT"},
    {"output", 'w', 0, G_OPTION_ARG_FILENAME, &o->output_path,
        "Write the output to PATH (a directory for -o ctf) instead of the "
          "standard output", "PATH"},
    {"input-format", 'i', 0, G_OPTION_ARG_CALLBACK, parse_input_format,
        "ctf or lttng-live (accepted for babeltrace2's sake: inputs are "
          "detected)", "FORMAT"},
    /* trimmer */
    {"begin", 'b', 0, G_OPTION_ARG_STRING, &o->begin,
        "Start at BEGIN: [YYYY-MM-DD [hh:mm:]]ss[.nnnnnnnnn]", "BEGIN"},
    {"end", 'e', 0, G_OPTION_ARG_STRING, &o->end,
        "End at END (same forms as BEGIN)", "END"},
    {"timerange", 't', 0, G_OPTION_ARG_CALLBACK, parse_timerange,
        "BEGIN,END or [BEGIN,END]", "TIMERANGE"},
    /* text */
    {"clock-cycles", 0, 0, G_OPTION_ARG_NONE, &o->clock_cycles,
        "Print timestamps in clock cycles", NULL},
    {"clock-date", 0, 0, G_OPTION_ARG_NONE, &o->clock_date,
        "Print timestamp dates", NULL},
    {"clock-gmt", 0, 0, G_OPTION_ARG_NONE, &o->clock_gmt,
        "Print and parse timestamps in UTC, not the local time zone", NULL},
    {"clock-seconds", 0, 0, G_OPTION_ARG_NONE, &o->clock_seconds,
        "Print timestamps as SEC.NS", NULL},
    {"color", 0, 0, G_OPTION_ARG_STRING, &o->color,
        "never, auto or always", "WHEN"},
    {"fields", 'f', 0, G_OPTION_ARG_STRING, &o->fields,
        "Also print FIELD,...: all, trace, trace:hostname, trace:domain, "
          "trace:procname, trace:vpid, loglevel, emf", "FIELD[,FIELD]..."},
    {"names", 'n', 0, G_OPTION_ARG_STRING, &o->names,
        "Print field names: payload (arg, args), none, all, scope, header, "
          "context (ctx)", "NAME[,NAME]..."},
    {"no-delta", 0, 0, G_OPTION_ARG_NONE, &o->no_delta,
        "Do not print the time since the previous event", NULL},
    {"babeltrace-version", 0, 0, G_OPTION_ARG_STRING,
          &o->babeltrace_version,
          "Print what babeltrace2 VERSION prints: 2.1 (default) or 2.0",
        "VERSION"},
    /* sources */
    {"clock-force-correlate", 0, 0, G_OPTION_ARG_NONE,
          &o->clock_force_correlate,
        "Take the origin of every clock to be the Unix epoch", NULL},
    {"clock-offset", 0, 0, G_OPTION_ARG_STRING, &o->clock_offset,
        "Add SEC seconds to the clocks' offset", "SEC"},
    {"clock-offset-ns", 0, 0, G_OPTION_ARG_STRING, &o->clock_offset_ns,
        "Add NS ns to the clocks' offset", "NS"},
    {"stream-intersection", 0, 0, G_OPTION_ARG_NONE,
          &o->stream_intersection,
        "Only events in the time range where every stream has packets",
        NULL},
    /* debug info */
    {"debug-info", 0, 0, G_OPTION_ARG_NONE, &o->debug_info,
        "Add source locations of instruction pointers (ctfdebuginfo)", NULL},
    {"debug-info-dir", 0, 0, G_OPTION_ARG_FILENAME, &o->debug_info_dir,
        "Look for debug info in DIR, not /usr/lib/debug", "DIR"},
    {"debug-info-full-path", 0, 0, G_OPTION_ARG_NONE,
          &o->debug_info_full_path,
        "Print full source and binary paths", NULL},
    {"debug-info-target-prefix", 0, 0, G_OPTION_ARG_FILENAME,
          &o->debug_info_target_prefix,
        "Prefix of the executables' paths", "DIR"},
    /* ctffilter */
    {"filter", 0, 0, G_OPTION_ARG_STRING, &o->filter,
        "Keep the events FILTER matches (trace-cmd's -F grammar, ctffilter)",
        "FILTER"},
    {"events", 0, 0, G_OPTION_ARG_STRING, &o->events,
        "Keep events whose name matches a glob, '!' excludes "
          "(\"sched_*,!sched_wakeup*\")", "GLOBS"},
    {"cpus", 0, 0, G_OPTION_ARG_STRING, &o->cpus,
        "Keep events of these CPUs (\"0,2-3\")", "CPUS"},
    /* misc */
    {"overwrite", 0, 0, G_OPTION_ARG_NONE, &o->overwrite,
        "-o ctf: replace a CTF trace already in the -w directory", NULL},
    {"no-progress", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
        no_progress, "Never show the progress bar", NULL},
    {"verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose,
        "Print the details of errors", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->inputs,
        NULL, NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GOptionGroup *group;
  gboolean ok;

  o->progress = TRUE;
  ctx = g_option_context_new ("INPUT... - read, convert and print traces "
      "as babeltrace2 does");
  g_option_context_set_summary (ctx,
      "INPUT: a CTF 1.8 or CTF 2 trace directory (or a directory above "
      "traces), a trace-cmd trace.dat file, an LTTng 0.x trace directory, "
      "or an LTTng live session net://RELAY[:PORT]/host/HOST/SESSION. "
      "Several inputs are merged by time.\n\n"
      "Other commands:\n"
      "  gst-ctf report [-F FILTER] [--cpu CPUS] [--stat] trace.dat\n"
      "  gst-ctf list net://RELAY[:PORT]");
  g_option_context_set_description (ctx,
      "See gst-ctf(1) for the babeltrace2 and trace-cmd equivalents.");
  group = g_option_group_new (NULL, NULL, NULL, o, NULL);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (ctx, group);
  g_option_context_set_strict_posix (ctx, FALSE);
  ok = g_option_context_parse (ctx, argc, argv, error);
  g_option_context_free (ctx);
  if (!ok)
    return FALSE;
  if (o->inputs == NULL || o->inputs[0] == NULL) {
    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "No input trace (gst-ctf --help shows the usage)");
    return FALSE;
  }
  if (o->color && strcmp (o->color, "never") != 0 &&
      strcmp (o->color, "auto") != 0 && strcmp (o->color, "always") != 0) {
    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "Invalid --color=\"%s\" (expected never, auto or always)", o->color);
    return FALSE;
  }
  if (o->babeltrace_version && strcmp (o->babeltrace_version, "2.0") != 0 &&
      strcmp (o->babeltrace_version, "2.1") != 0) {
    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "Invalid --babeltrace-version=\"%s\" (expected 2.0 or 2.1)",
        o->babeltrace_version);
    return FALSE;
  }
  if ((o->output == GST_CTF_CLI_OUTPUT_CTF ||
          o->output == GST_CTF_CLI_OUTPUT_PERFETTO) && o->output_path == NULL) {
    g_set_error (error, GST_CTF_CLI_ERROR, 0,
        "-o %s needs an output path (-w PATH)",
        o->output == GST_CTF_CLI_OUTPUT_CTF ? "ctf" : "perfetto");
    return FALSE;
  }
  if ((o->debug_info_dir || o->debug_info_full_path ||
          o->debug_info_target_prefix) && !o->debug_info)
    o->debug_info = TRUE;       /* as babeltrace2: they imply --debug-info */
  return check_text_only (o, error);
}

void
gst_ctf_cli_options_clear (GstCtfCliOptions * o)
{
  g_strfreev (o->inputs);
  g_free (o->input_format);
  g_free (o->output_path);
  g_free (o->begin);
  g_free (o->end);
  g_free (o->names);
  g_free (o->fields);
  g_free (o->color);
  g_free (o->babeltrace_version);
  g_free (o->clock_offset);
  g_free (o->clock_offset_ns);
  g_free (o->debug_info_dir);
  g_free (o->debug_info_target_prefix);
  g_free (o->filter);
  g_free (o->events);
  g_free (o->cpus);
  memset (o, 0, sizeof (*o));
}
