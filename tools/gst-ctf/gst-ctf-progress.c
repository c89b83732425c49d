/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The progress bar: when stderr is a terminal, once the job has run for
 * more than a second (GST_CTF_PROGRESS_DELAY_MS overrides it, for tests),
 * one line rewritten in place every 200 ms:
 *
 *   [#############.................]  43.1 %  12034 packets  96.2 MiB  2.3 s
 *
 * The percentage is the pipeline's POSITION over its DURATION (stream
 * time: ctfsrc, tracecmdsrc and timefilter answer); packets and bytes
 * are counted on the sink's pad.  At the end the full bar is drawn
 * and its line ended.
 */
#include <stdio.h>
#include <unistd.h>
#include "gst-ctf-progress.h"

#define BAR_WIDTH 30

struct _GstCtfCliProgress {
  GstElement *pipeline;
  GstPad *pad;
  gulong probe;
  guint timer;
  gint64 started;
  gint64 delay_us;
  gboolean shown;
  guint64 packets;              /* counted in the streaming thread */
  guint64 bytes;
};

static GstPadProbeReturn
count (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstCtfCliProgress *p = user_data;
  guint i, n = 1;
  gsize bytes = 0;

  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
    GstBufferList *list = GST_PAD_PROBE_INFO_BUFFER_LIST (info);

    n = gst_buffer_list_length (list);
    for (i = 0; i < n; i++)
      bytes += gst_buffer_get_size (gst_buffer_list_get (list, i));
  } else {
    bytes = gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info));
  }
  __atomic_add_fetch (&p->packets, n, __ATOMIC_RELAXED);
  __atomic_add_fetch (&p->bytes, bytes, __ATOMIC_RELAXED);
  return GST_PAD_PROBE_OK;
}

static void
draw (GstCtfCliProgress * p, gdouble fraction)
{
  gchar bar[BAR_WIDTH + 1];
  guint i, full = fraction < 0 ? 0 : (guint) (fraction * BAR_WIDTH);
  gchar percent[16] = "     ";

  for (i = 0; i < BAR_WIDTH; i++)
    bar[i] = i < full ? '#' : '.';
  bar[BAR_WIDTH] = '\0';
  if (fraction >= 0)
    g_snprintf (percent, sizeof (percent), "%5.1f %%", 100.0 * fraction);
  fprintf (stderr, "\r[%s] %s  %" G_GUINT64_FORMAT " packets  %.1f MiB  "
      "%.1f s\033[K", bar, percent,
      __atomic_load_n (&p->packets, __ATOMIC_RELAXED),
      __atomic_load_n (&p->bytes, __ATOMIC_RELAXED) / 1048576.0,
      (g_get_monotonic_time () - p->started) / 1e6);
  fflush (stderr);
  p->shown = TRUE;
}

static gboolean
tick (gpointer user_data)
{
  GstCtfCliProgress *p = user_data;
  gint64 pos = -1, dur = -1;
  gdouble fraction = -1;

  if (g_get_monotonic_time () - p->started < p->delay_us)
    return G_SOURCE_CONTINUE;
  if (gst_element_query_position (p->pipeline, GST_FORMAT_TIME, &pos) &&
      gst_element_query_duration (p->pipeline, GST_FORMAT_TIME, &dur) &&
      dur > 0 && pos >= 0)
    fraction = MIN (1.0, (gdouble) pos / dur);
  draw (p, fraction);
  return G_SOURCE_CONTINUE;
}

/* NULL when stderr is not a terminal */
GstCtfCliProgress *
gst_ctf_cli_progress_new (GstElement * pipeline, GstElement * sink)
{
  GstCtfCliProgress *p;
  const gchar *delay = g_getenv ("GST_CTF_PROGRESS_DELAY_MS");

  if (!isatty (STDERR_FILENO))
    return NULL;
  p = g_new0 (GstCtfCliProgress, 1);
  p->pipeline = pipeline;
  p->started = g_get_monotonic_time ();
  p->delay_us = (delay ? g_ascii_strtoll (delay, NULL, 10) : 1000) * 1000;
  p->pad = gst_element_get_static_pad (sink, "sink");
  if (p->pad != NULL)
    p->probe = gst_pad_add_probe (p->pad, GST_PAD_PROBE_TYPE_BUFFER |
        GST_PAD_PROBE_TYPE_BUFFER_LIST, count, p, NULL);
  p->timer = g_timeout_add (200, tick, p);
  if (p->delay_us == 0)
    draw (p, -1);
  return p;
}

/* Stops the updates; @done: draws the full bar once, when the bar was
 * shown, and ends its line */
void
gst_ctf_cli_progress_finish (GstCtfCliProgress * p, gboolean done)
{
  if (p == NULL)
    return;
  if (p->timer) {
    g_source_remove (p->timer);
    p->timer = 0;
  }
  if (p->shown) {
    if (done)
      draw (p, 1.0);
    fputc ('\n', stderr);
    fflush (stderr);
    p->shown = FALSE;
  }
}

void
gst_ctf_cli_progress_free (GstCtfCliProgress * p)
{
  if (p == NULL)
    return;
  gst_ctf_cli_progress_finish (p, FALSE);
  if (p->pad != NULL) {
    gst_pad_remove_probe (p->pad, p->probe);
    gst_object_unref (p->pad);
  }
  g_free (p);
}
