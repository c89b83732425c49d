/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf's convert options: babeltrace2 convert's, plus gst-ctf's own
 * output formats and event selection.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  GST_CTF_CLI_OUTPUT_TEXT,
  GST_CTF_CLI_OUTPUT_CTF,
  GST_CTF_CLI_OUTPUT_CTF_METADATA,
  GST_CTF_CLI_OUTPUT_DUMMY,
  GST_CTF_CLI_OUTPUT_JSON_LINES,
  GST_CTF_CLI_OUTPUT_TRACE_CMD,
  GST_CTF_CLI_OUTPUT_PERFETTO,
  GST_CTF_CLI_OUTPUT_STATS,
} GstCtfCliOutput;

/* What the command line asked for; strings are owned (g_free) */
typedef struct {
  gchar **inputs;               /* INPUT... */
  gchar *input_format;          /* -i: ctf, lttng-live (or NULL: detected) */
  GstCtfCliOutput output;       /* -o */
  gchar *output_path;           /* -w */
  /* filter.utils.trimmer */
  gchar *begin;
  gchar *end;
  /* sink.text.pretty */
  gboolean clock_cycles, clock_date, clock_gmt, clock_seconds, no_delta;
  gchar *names;
  gchar *fields;
  gchar *color;
  gchar *babeltrace_version;
  /* source.ctf.fs */
  gchar *clock_offset;          /* SEC, as given */
  gchar *clock_offset_ns;       /* NS, as given */
  gboolean clock_force_correlate;
  gboolean stream_intersection;
  /* filter.lttng-utils.debug-info */
  gboolean debug_info, debug_info_full_path;
  gchar *debug_info_dir;
  gchar *debug_info_target_prefix;
  /* ctffilter */
  gchar *filter;
  gchar *events;
  gchar *cpus;
  /* ctfsink */
  gboolean overwrite;
  gboolean verbose;
  gboolean progress;            /* --no-progress clears it */
} GstCtfCliOptions;

gboolean gst_ctf_cli_options_parse (GstCtfCliOptions * opts, gint * argc,
    gchar *** argv, GError ** error);
void gst_ctf_cli_options_clear (GstCtfCliOptions * opts);
gboolean gst_ctf_cli_is_text_output (GstCtfCliOutput output);

G_END_DECLS
