/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The benchmark probe of gst-ctf-viewer (issue 26's targets), on the
 * window's frame clock:
 *
 * - first rows: the end of the first frame painted while the table's
 *   model has rows;
 * - index: the model's "loading" going FALSE;
 * - summary: the end of the first frame painted after that (the timeline
 *   drawn from the whole summary; a redraw of the timeline is queued then
 *   so that such a frame comes);
 * - the sweep: LEVELS zoom levels, geometric from the whole trace down to
 *   1 µs across the plot, PANS positions across the trace at each level.
 *   For each, the visible range is set and the frame that follows is
 *   timed: from the start of its paint phase (an emission hook runs
 *   before GTK's own handler) to the end of GTK's paint handler (snapshot
 *   of the window's invalid widgets, render and the copy to the X
 *   server).  Then the timeline alone is drawn again outside a frame, its
 *   snapshot vfunc and gsk_renderer_render_texture() timed apart, to tell
 *   our drawing code from the renderer.
 *
 * All times are g_get_monotonic_time() (CLOCK_MONOTONIC, µs) from the
 * start of main().  The JSON written holds the times in seconds, the
 * percentiles in ms (nearest rank) and every sweep frame.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gst-ctf-viewer-probe.h"

#define LEVELS 40
#define PANS 4
#define DEEPEST_NS 1000         /* the timeline's narrowest span */
#define SETTLE_MS 300           /* after the summary frame, before the sweep */
#define GIVE_UP_S 600

typedef enum {
  EMPTY_WAIT_FRAME,             /* no trace: the baseline */
  WAIT_LOAD,
  WAIT_SUMMARY_FRAME,
  SETTLE,
  SWEEP,
  DONE,
} State;

typedef struct {
  guint64 start, end;
  gint64 frame_us;              /* paint phase of the frame */
  gint64 snapshot_us;           /* the timeline's snapshot vfunc alone */
  gint64 render_us;             /* its node rendered to a texture */
} Step;

struct _ViewerProbe {
  gchar *json_path;
  gint64 t_main;
  gint64 open_called;            /* from main */
  gint64 open_returned;          /* the probe started: the trace opened */
  GtkWidget *window;
  GstCtfGtkTimeline *timeline;
  GListModel *rows;
  GstCtfGtkEventModel *model;
  GMainLoop *loop;
  gboolean *failed;

  GdkFrameClock *clock;
  gulong paint_handler, realize_handler, loading_handler;
  gulong hook;
  guint give_up_timer, settle_timer;
  State state;
  gint64 paint_start;           /* -1: no paint phase running */
  gint64 first_rows, index_done, summary_drawn;
  gint64 rows_published;        /* the table's model first had rows */
  gulong rows_handler;
  gint64 hwm_after_summary_kib;
  gint64 anon_after_summary_kib, file_after_summary_kib;
  guint64 trace_start, trace_end;
  gint width;
  Step steps[LEVELS * PANS];
  guint step;                   /* the step whose frame is awaited */
  gboolean step_queued;
};

static gint64
now_us (ViewerProbe * p)
{
  return g_get_monotonic_time () - p->t_main;
}

/* A "Key:   N kB" line of /proc/self/status (-1: none). */
static gint64
status_kib (const gchar * key)
{
  gchar *text = NULL, *line;
  gint64 kib = -1;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return -1;
  line = strstr (text, key);
  if (line != NULL)
    kib = g_ascii_strtoll (line + strlen (key), NULL, 10);
  g_free (text);
  return kib;
}

static gint64
vm_hwm_kib (void)
{
  return status_kib ("VmHWM:");
}

static gint
cmp_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* p50, p95 and max of one column of the steps, in ms, as a JSON object. */
static void
append_percentiles (GString * out, const gchar * name, const Step * steps,
    guint n, gsize offset)
{
  gint64 *v = g_new (gint64, n);
  guint i;

  for (i = 0; i < n; i++)
    v[i] = G_STRUCT_MEMBER (gint64, &steps[i], offset);
  qsort (v, n, sizeof *v, cmp_i64);
  /* nearest rank: the smallest value with at least p% at or below it */
  g_string_append_printf (out, "  \"%s\": {\"p50\": %.3f, \"p95\": %.3f, "
      "\"max\": %.3f},\n", name, v[(n * 50 + 99) / 100 - 1] / 1000.0,
      v[(n * 95 + 99) / 100 - 1] / 1000.0, v[n - 1] / 1000.0);
  g_free (v);
}

static void
append_json_string (GString * out, const gchar * s)
{
  g_string_append_c (out, '"');
  for (; *s != '\0'; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_printf (out, "\\%c", *s);
    else if ((guchar) * s < 0x20)
      g_string_append_printf (out, "\\u%04x", (guint) (guchar) * s);
    else
      g_string_append_c (out, *s);
  }
  g_string_append_c (out, '"');
}

static gdouble
secs (gint64 us)
{
  return us < 0 ? -1.0 : us / 1e6;
}

static gboolean
write_file (ViewerProbe * p, GString * out)
{
  GError *err = NULL;
  gboolean ok = g_file_set_contents (p->json_path, out->str, out->len, &err);

  if (!ok) {
    g_printerr ("--bench: %s\n", err->message);
    g_error_free (err);
  }
  g_string_free (out, TRUE);
  return ok;
}

/* No trace: the first frame and the peak RSS after it. */
static gboolean
write_empty_json (ViewerProbe * p)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "{\n  \"trace\": null,\n"
      "  \"main_monotonic_us\": %" G_GINT64_FORMAT ",\n"
      "  \"first_frame_s\": %.6f,\n"
      "  \"vm_hwm_after_first_frame_kib\": %" G_GINT64_FORMAT ",\n"
      "  \"rss_anon_kib\": %" G_GINT64_FORMAT ",\n"
      "  \"rss_file_kib\": %" G_GINT64_FORMAT ",\n"
      "  \"vm_hwm_end_kib\": %" G_GINT64_FORMAT "\n}\n", p->t_main,
      secs (p->summary_drawn), p->hwm_after_summary_kib,
      status_kib ("RssAnon:"), status_kib ("RssFile:"), vm_hwm_kib ());
  return write_file (p, out);
}

static gboolean
write_json (ViewerProbe * p)
{
  GString *out = g_string_new ("{\n  \"trace\": ");
  guint n = G_N_ELEMENTS (p->steps), i;

  if (p->model == NULL)
    return write_empty_json (p);
  append_json_string (out, gst_ctf_gtk_event_model_get_path (p->model));
  g_string_append_printf (out, ",\n  \"events\": %u,\n"
      "  \"main_monotonic_us\": %" G_GINT64_FORMAT ",\n"
      "  \"open_called_s\": %.6f,\n  \"open_returned_s\": %.6f,\n"
      "  \"rows_published_s\": %.6f,\n  \"first_rows_s\": %.6f,\n  \"index_s\": %.6f,\n"
      "  \"summary_drawn_s\": %.6f,\n"
      "  \"vm_hwm_after_summary_kib\": %" G_GINT64_FORMAT ",\n"
      "  \"rss_anon_after_summary_kib\": %" G_GINT64_FORMAT ",\n"
      "  \"rss_file_after_summary_kib\": %" G_GINT64_FORMAT ",\n"
      "  \"vm_hwm_end_kib\": %" G_GINT64_FORMAT ",\n"
      "  \"trace_start_ns\": %" G_GUINT64_FORMAT ",\n"
      "  \"trace_end_ns\": %" G_GUINT64_FORMAT ",\n"
      "  \"timeline_width_px\": %d,\n  \"levels\": %d,\n  \"pans\": %d,\n",
      g_list_model_get_n_items (G_LIST_MODEL (p->model)), p->t_main,
      secs (p->open_called), secs (p->open_returned),
      secs (p->rows_published), secs (p->first_rows), secs (p->index_done), secs (p->summary_drawn),
      p->hwm_after_summary_kib, p->anon_after_summary_kib,
      p->file_after_summary_kib, vm_hwm_kib (), p->trace_start, p->trace_end,
      p->width, LEVELS, PANS);
  append_percentiles (out, "frame_ms", p->steps, n, G_STRUCT_OFFSET (Step,
          frame_us));
  append_percentiles (out, "snapshot_ms", p->steps, n,
      G_STRUCT_OFFSET (Step, snapshot_us));
  append_percentiles (out, "render_ms", p->steps, n, G_STRUCT_OFFSET (Step,
          render_us));
  g_string_append (out, "  \"steps\": [\n");
  for (i = 0; i < n; i++) {
    const Step *s = &p->steps[i];

    g_string_append_printf (out, "    {\"span_ns\": %" G_GUINT64_FORMAT
        ", \"start_ns\": %" G_GUINT64_FORMAT ", \"frame_ms\": %.3f, "
        "\"snapshot_ms\": %.3f, \"render_ms\": %.3f}%s\n", s->end - s->start,
        s->start, s->frame_us / 1000.0, s->snapshot_us / 1000.0,
        s->render_us / 1000.0, i + 1 < n ? "," : "");
  }
  g_string_append (out, "  ]\n}\n");
  return write_file (p, out);
}

static void
finish (ViewerProbe * p, gboolean ok)
{
  if (p->state == DONE)
    return;
  p->state = DONE;
  if (!ok || !write_json (p))
    *p->failed = TRUE;
  g_main_loop_quit (p->loop);
}

/* The range of step @i: level i / PANS, position i % PANS. */
static void
step_range (ViewerProbe * p, guint i, guint64 * start, guint64 * end)
{
  /* (offsets from the trace's start: ns since 1970 do not fit a double) */
  gdouble full = (gdouble) (p->trace_end - p->trace_start);
  gdouble span = full * pow (DEEPEST_NS / full,
      (gdouble) (i / PANS) / (LEVELS - 1));
  gdouble centre = full * (2 * (i % PANS) + 1) / (2 * PANS);

  span = MAX (span, DEEPEST_NS);
  *start = p->trace_start + (guint64) MAX (centre - span / 2, 0);
  *end = *start + (guint64) (span + 0.5);
}

static void
queue_step (ViewerProbe * p)
{
  Step *s = &p->steps[p->step];

  step_range (p, p->step, &s->start, &s->end);
  gst_ctf_gtk_timeline_set_visible_range (p->timeline, s->start, s->end);
  gtk_widget_queue_draw (GTK_WIDGET (p->timeline));
  p->step_queued = TRUE;
}

/* The timeline alone, outside a frame: its snapshot, then the render. */
static void
time_timeline (ViewerProbe * p, Step * s)
{
  GtkWidget *w = GTK_WIDGET (p->timeline);
  GskRenderer *r = gtk_native_get_renderer (GTK_NATIVE (p->window));
  GtkSnapshot *snap = gtk_snapshot_new ();
  GskRenderNode *node;
  gint64 t0, t1;

  t0 = g_get_monotonic_time ();
  GTK_WIDGET_GET_CLASS (w)->snapshot (w, snap);
  node = gtk_snapshot_free_to_node (snap);
  t1 = g_get_monotonic_time ();
  s->snapshot_us = t1 - t0;
  if (node != NULL && r != NULL) {
    GdkTexture *tex = gsk_renderer_render_texture (r, node,
        &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (w),
            gtk_widget_get_height (w)));

    s->render_us = g_get_monotonic_time () - t1;
    g_object_unref (tex);
  }
  g_clear_pointer (&node, gsk_render_node_unref);
}

static gboolean
start_sweep (gpointer data)
{
  ViewerProbe *p = data;

  p->settle_timer = 0;
  if (p->model == NULL) {
    p->hwm_after_summary_kib = vm_hwm_kib ();
    finish (p, TRUE);
    return G_SOURCE_REMOVE;
  }
  if (!gst_ctf_gtk_event_model_get_time_range (p->model, &p->trace_start,
          &p->trace_end) || p->trace_end <= p->trace_start) {
    g_printerr ("--bench: the trace has no time range\n");
    finish (p, FALSE);
    return G_SOURCE_REMOVE;
  }
  p->width = gtk_widget_get_width (GTK_WIDGET (p->timeline));
  p->state = SWEEP;
  p->step = 0;
  queue_step (p);
  return G_SOURCE_REMOVE;
}

/* Runs before the frame clock's "paint" handlers. */
static gboolean
paint_hook (GSignalInvocationHint * hint, guint n, const GValue * values,
    gpointer data)
{
  ViewerProbe *p = data;

  if (g_value_get_object (&values[0]) == (gpointer) p->clock)
    p->paint_start = g_get_monotonic_time ();
  return TRUE;
}

/* Runs after GTK's "paint" handler: the frame is drawn. */
static void
on_paint (GdkFrameClock * clock, ViewerProbe * p)
{
  gint64 end = g_get_monotonic_time ();
  gint64 start = p->paint_start;

  p->paint_start = -1;
  if (p->first_rows < 0 && g_list_model_get_n_items (p->rows) > 0)
    p->first_rows = end - p->t_main;
  switch (p->state) {
    case EMPTY_WAIT_FRAME:
      p->summary_drawn = end - p->t_main;
      p->state = SETTLE;
      p->settle_timer = g_timeout_add (SETTLE_MS, start_sweep, p);
      break;
    case WAIT_SUMMARY_FRAME:
      p->summary_drawn = end - p->t_main;
      p->hwm_after_summary_kib = vm_hwm_kib ();
      p->anon_after_summary_kib = status_kib ("RssAnon:");
      p->file_after_summary_kib = status_kib ("RssFile:");
      p->state = SETTLE;
      p->settle_timer = g_timeout_add (SETTLE_MS, start_sweep, p);
      break;
    case SWEEP:
      if (!p->step_queued || start < 0)
        break;
      p->step_queued = FALSE;
      p->steps[p->step].frame_us = end - start;
      time_timeline (p, &p->steps[p->step]);
      if (++p->step == G_N_ELEMENTS (p->steps))
        finish (p, TRUE);
      else
        queue_step (p);
      break;
    default:
      break;
  }
}

static void
on_loading (GstCtfGtkEventModel * m, GParamSpec * pspec, ViewerProbe * p)
{
  if (p->state != WAIT_LOAD || gst_ctf_gtk_event_model_get_loading (m))
    return;
  p->index_done = now_us (p);
  if (gst_ctf_gtk_event_model_get_error (m) != NULL) {
    g_printerr ("--bench: %s\n", gst_ctf_gtk_event_model_get_error (m)->
        message);
    finish (p, FALSE);
    return;
  }
  p->state = WAIT_SUMMARY_FRAME;
  gtk_widget_queue_draw (GTK_WIDGET (p->timeline));
}

static void
on_rows_changed (GListModel * rows, guint pos, guint removed, guint added,
    ViewerProbe * p)
{
  if (p->rows_published < 0 && g_list_model_get_n_items (rows) > 0)
    p->rows_published = now_us (p);
}

static void
attach_clock (ViewerProbe * p)
{
  p->clock = gtk_widget_get_frame_clock (p->window);
  if (p->clock == NULL)
    return;
  g_object_ref (p->clock);
  p->paint_handler = g_signal_connect (p->clock, "paint",
      G_CALLBACK (on_paint), p);
  p->hook = g_signal_add_emission_hook (g_signal_lookup ("paint",
          GDK_TYPE_FRAME_CLOCK), 0, paint_hook, p, NULL);
}

static void
on_realize (GtkWidget * w, ViewerProbe * p)
{
  if (p->clock == NULL)
    attach_clock (p);
}

static gboolean
give_up (gpointer data)
{
  ViewerProbe *p = data;

  p->give_up_timer = 0;
  g_printerr ("--bench: not done after %d s (state %d)\n", GIVE_UP_S,
      p->state);
  finish (p, FALSE);
  return G_SOURCE_REMOVE;
}

/* (g_main_loop_quit() before g_main_loop_run() would be lost) */
static gboolean
quit_now (gpointer data)
{
  ViewerProbe *p = data;

  p->give_up_timer = 0;
  g_main_loop_quit (p->loop);
  return G_SOURCE_REMOVE;
}

/**
 * viewer_probe_start:
 * @json_path: the file written at the end
 * @t_main_us: g_get_monotonic_time() at the start of main()
 * @t_open_us: g_get_monotonic_time() just before the trace was opened
 * @window: the viewer's window (shown)
 * @timeline: its timeline
 * @rows: the table's model (its first rows drawn are timed)
 * @model: (nullable): the trace being indexed; NULL: no trace (the
 *   first frame and the peak RSS after it are written: the baseline)
 * @loop: quit once the file is written (or on failure)
 * @failed: set to TRUE on failure; TRUE already (the trace could not be
 *   opened): the probe quits at once
 *
 * Returns: (transfer full): the probe, for viewer_probe_free()
 */
ViewerProbe *
viewer_probe_start (const gchar * json_path, gint64 t_main_us,
    gint64 t_open_us, GtkWidget * window, GstCtfGtkTimeline * timeline, GListModel * rows,
    GstCtfGtkEventModel * model, GMainLoop * loop, gboolean * failed)
{
  ViewerProbe *p = g_new0 (ViewerProbe, 1);

  p->json_path = g_strdup (json_path);
  p->t_main = t_main_us;
  p->open_called = t_open_us - t_main_us;
  p->open_returned = g_get_monotonic_time () - t_main_us;
  p->window = window;
  p->timeline = timeline;
  p->rows = rows;
  p->loop = loop;
  p->failed = failed;
  p->paint_start = p->first_rows = p->index_done = p->summary_drawn = -1;
  p->rows_published = -1;
  p->hwm_after_summary_kib = -1;
  if (*failed) {                /* the trace could not be opened */
    p->state = DONE;
    p->give_up_timer = g_idle_add (quit_now, p);
    return p;
  }
  if (model != NULL) {
    p->model = g_object_ref (model);
    p->loading_handler = g_signal_connect (model, "notify::loading",
        G_CALLBACK (on_loading), p);
    p->state = WAIT_LOAD;
    p->rows_handler = g_signal_connect (rows, "items-changed",
        G_CALLBACK (on_rows_changed), p);
  } else {
    p->state = EMPTY_WAIT_FRAME;
  }
  attach_clock (p);
  if (p->clock == NULL)
    p->realize_handler = g_signal_connect (window, "realize",
        G_CALLBACK (on_realize), p);
  p->give_up_timer = g_timeout_add_seconds (GIVE_UP_S, give_up, p);
  if (model != NULL)           /* indexed already (a tiny trace) */
    on_loading (model, NULL, p);
  return p;
}

void
viewer_probe_free (ViewerProbe * p)
{
  if (p == NULL)
    return;
  if (p->give_up_timer != 0)
    g_source_remove (p->give_up_timer);
  if (p->settle_timer != 0)
    g_source_remove (p->settle_timer);
  if (p->hook != 0)
    g_signal_remove_emission_hook (g_signal_lookup ("paint",
            GDK_TYPE_FRAME_CLOCK), p->hook);
  if (p->clock != NULL) {
    g_signal_handler_disconnect (p->clock, p->paint_handler);
    g_object_unref (p->clock);
  }
  if (p->realize_handler != 0 && GTK_IS_WIDGET (p->window))
    g_signal_handler_disconnect (p->window, p->realize_handler);
  if (p->rows_handler != 0)
    g_signal_handler_disconnect (p->rows, p->rows_handler);
  if (p->model != NULL) {
    g_signal_handler_disconnect (p->model, p->loading_handler);
    g_object_unref (p->model);
  }
  g_free (p->json_path);
  g_free (p);
}
