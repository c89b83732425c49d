/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf report [-i FILE] [-F FILTER]... [-v] [--cpu CPUS] [--stat]
 *   [-w OUT] [FILE]: `trace-cmd report`'s text of a trace.dat,
 *
 *   tracecmdsrc ! [ctffilter filter=|filter-out= cpus=] !
 *     ctftextsink format=trace-cmd
 *
 * --stat prints what `trace-cmd report --stat` prints: the kernel
 * buffer statistics stored in the file (its CPUSTAT options) and where
 * each CPU's data is, read with the library's trace.dat reader.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <gst/gst.h>
#include "gsttracecmd.h"
#include "gst-ctf-commands.h"
#include "gst-ctf-elements.h"
#include "gst-ctf-error.h"
#include "gst-ctf-input.h"
#include "gst-ctf-plugin.h"
#include "gst-ctf-run.h"

/* Where each CPU's data is.  trace-cmd inflates compressed data into a
 * temporary file, pages from one page in, and reports those offsets and
 * sizes */
static gboolean
print_cpu_data (GstCtfTraceDat * td, guint buffer,
    const GstCtfTraceDatBuffer * b, FILE * out, GError ** error)
{
  guint64 inflated = b->page_size;
  guint i;

  for (i = 0; i < b->n_cpus; i++) {
    guint64 offset = b->cpus[i].offset, size = b->cpus[i].size;

    if (b->compressed) {
      GstCtfTraceDatCpuIter *it =
          gst_ctf_trace_dat_cpu_iter_new (td, buffer, i, error);
      gint64 pages = it ? gst_ctf_trace_dat_cpu_iter_get_n_pages (it,
          error) : -1;

      if (it != NULL)
        gst_ctf_trace_dat_cpu_iter_free (it);
      if (pages < 0)
        return FALSE;
      offset = inflated;
      size = (guint64) pages * b->page_size;
      inflated += size;
    }
    fprintf (out, "CPU%u data recorded at offset=0x%" G_GINT64_MODIFIER
        "x\n    %" G_GUINT64_FORMAT " bytes in size\n", b->cpus[i].cpu,
        offset, size);
  }
  return TRUE;
}

static gint
print_stat (const gchar * path, FILE * out)
{
  GError *error = NULL;
  GstCtfTraceDat *td = gst_ctf_trace_dat_open (path, &error);
  const GstCtfTraceDatOption *opts;
  const GstCtfTraceDatBuffer *top = NULL;
  guint n, i;

  if (td == NULL)
    return gst_ctf_cli_fail (error);
  fprintf (out, "cpus=%u\n\nKernel buffer statistics:\n"
      "  Note: \"entries\" are the entries left in the kernel ring buffer "
      "and are not\n"
      "        recorded in the trace data. They should all be zero.\n\n",
      gst_ctf_trace_dat_get_n_cpus (td));
  opts = gst_ctf_trace_dat_get_options (td, &n);
  for (i = 0; i < n; i++) {
    if (opts[i].id != GST_CTF_TRACE_DAT_OPTION_CPUSTAT)
      continue;
    /* the stats file's text, NUL-terminated in the file */
    fprintf (out, "%.*s\n", (int) strnlen ((const gchar *) opts[i].data,
            opts[i].size), (const gchar *) opts[i].data);
  }
  fputc ('\n', out);
  for (i = 0; i < gst_ctf_trace_dat_get_n_buffers (td); i++) {
    const GstCtfTraceDatBuffer *b = gst_ctf_trace_dat_get_buffer (td, i);

    if (b->name[0] == '\0') {
      top = b;
      break;
    }
  }
  if (top != NULL && !print_cpu_data (td, i, top, out, &error)) {
    gst_ctf_trace_dat_unref (td);
    return gst_ctf_cli_fail (error);
  }
  fflush (out);
  gst_ctf_trace_dat_unref (td);
  return 0;
}

gint
gst_ctf_cli_report (gint argc, gchar ** argv)
{
  gchar *input = NULL, *cpus = NULL, *output = NULL;
  gchar **filters = NULL;
  gboolean invert = FALSE, stat = FALSE, verbose = FALSE;
  GOptionEntry entries[] = {
    {"input", 'i', 0, G_OPTION_ARG_FILENAME, &input,
        "The trace.dat file (default: trace.dat)", "FILE"},
    {"filter", 'F', 0, G_OPTION_ARG_STRING_ARRAY, &filters,
        "Keep the events FILTER matches (trace-cmd's grammar; repeatable)",
        "FILTER"},
    {"invert", 'v', 0, G_OPTION_ARG_NONE, &invert,
        "Drop the events the -F filters match instead", NULL},
    {"cpu", 0, 0, G_OPTION_ARG_STRING, &cpus,
        "Only these CPUs (\"0,2-3\")", "CPUS"},
    {"stat", 0, 0, G_OPTION_ARG_NONE, &stat,
        "Print the kernel buffer statistics stored in the file", NULL},
    {"output", 'w', 0, G_OPTION_ARG_FILENAME, &output,
        "Write the text to FILE instead of the standard output", "FILE"},
    {"verbose", 0, 0, G_OPTION_ARG_NONE, &verbose,
        "Print the details of errors", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("[FILE] - print a trace.dat "
      "as trace-cmd report does");
  GError *error = NULL;
  GstElement *pipeline = NULL, *src, *last, *sink;
  gint status = 1;
  GstCtfCliInput kind;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    goto fail;
  gst_ctf_cli_set_verbose (verbose);
  if (argc > 2) {
    g_set_error (&error, GST_CTF_CLI_ERROR, 0,
        "gst-ctf report takes one trace.dat file");
    goto fail;
  }
  if (input == NULL)
    input = g_strdup (argc == 2 ? argv[1] : "trace.dat");
  if (!gst_ctf_cli_detect_input (input, &kind, &error))
    goto fail;
  if (kind != GST_CTF_CLI_INPUT_TRACE_DAT) {
    g_set_error (&error, GST_CTF_CLI_ERROR, 0,
        "Not a trace.dat file: file=\"%s\", offset=0: expected trace-cmd's "
        "magic 17 08 44 \"tracing\"", input);
    goto fail;
  }
  if (!gst_ctf_cli_init (&error))
    goto fail;
  if (stat) {
    FILE *out = output ? fopen (output, "w") : stdout;

    if (out == NULL) {
      g_set_error (&error, GST_CTF_CLI_ERROR, 0, "Cannot write \"%s\": %s",
          output, g_strerror (errno));
      goto fail;
    }
    status = print_stat (input, out);
    if (out != stdout)
      fclose (out);
    goto out;
  }
  pipeline = gst_pipeline_new ("gst-ctf-report");
  src = last = gst_ctf_cli_add (pipeline, "tracecmdsrc", NULL, &error);
  if (src == NULL)
    goto fail;
  g_object_set (src, "location", input, NULL);
  if (filters != NULL || cpus != NULL) {
    GstElement *f = gst_ctf_cli_add (pipeline, "ctffilter", NULL, &error);
    gchar *joined = filters ? g_strjoinv (", ", filters) : NULL;
    gboolean ok;

    ok = f != NULL && gst_element_link (last, f) &&
        (joined == NULL || gst_ctf_cli_set (f, invert ? "filter-out" :
            "filter", joined, "-F", &error)) &&
        (cpus == NULL || gst_ctf_cli_set (f, "cpus", cpus, "--cpu", &error));
    g_free (joined);
    if (!ok)
      goto fail;
    last = f;
  }
  sink = gst_ctf_cli_add (pipeline, "ctftextsink", NULL, &error);
  if (sink == NULL)
    goto fail;
  gst_util_set_object_arg (G_OBJECT (sink), "format", "trace-cmd");
  if (output != NULL)
    g_object_set (sink, "location", output, NULL);
  if (!gst_element_link (last, sink)) {
    g_set_error (&error, GST_CTF_CLI_ERROR, 0, "Cannot link ctftextsink");
    goto fail;
  }
  status = gst_ctf_cli_run (pipeline, sink, FALSE, verbose);
  goto out;
fail:
  status = gst_ctf_cli_fail (error);
out:
  if (pipeline != NULL)
    gst_object_unref (pipeline);
  g_option_context_free (ctx);
  g_free (input);
  g_free (cpus);
  g_free (output);
  g_strfreev (filters);
  return status;
}
