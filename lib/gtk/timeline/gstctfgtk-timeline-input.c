/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkTimeline's input: wheel and pinch zoom, wheel and drag pan,
 * Shift+drag selection, Ctrl+click markers, a click activating the
 * nearest event, the keys, and the tooltip of what is under the pointer.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include "gstctfgtk-timeline-private.h"

static gboolean
on_scroll (GtkEventControllerScroll * c, gdouble dx, gdouble dy,
    GstCtfGtkTimeline * self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state
      (GTK_EVENT_CONTROLLER (c));
  gint64 s, e;
  gdouble x = 0, y = 0;
  GdkEvent *ev = gtk_event_controller_get_current_event
      (GTK_EVENT_CONTROLLER (c));

  if (!_gst_ctf_gtk_timeline_get_range (self, &s, &e))
    return FALSE;
  if (ev != NULL)
    gdk_event_get_position (ev, &x, &y);
  if (mods & GDK_CONTROL_MASK) {
    gst_ctf_gtk_timeline_zoom (self, pow (1.25, -dy),
        gst_ctf_gtk_timeline_get_time_at (self, x));
  } else {
    gint64 d = (gint64) ((dx + dy) * (e - s) / 10);

    _gst_ctf_gtk_timeline_set_range (self, s + d, e + d);
  }
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag * g, gdouble x, gdouble y,
    GstCtfGtkTimeline * self)
{
  gint64 s = 0, e = 0;
  GdkModifierType mods = gtk_event_controller_get_current_event_state
      (GTK_EVENT_CONTROLLER (g));

  _gst_ctf_gtk_timeline_get_range (self, &s, &e);
  self->drag_start = (guint64) s;
  self->drag_end = (guint64) e;
  self->drag_x = x;
  self->selecting = (mods & GDK_SHIFT_MASK) != 0;
  self->marking = (mods & GDK_CONTROL_MASK) != 0;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag * g, gdouble ox, gdouble oy,
    GstCtfGtkTimeline * self)
{
  if (self->marking)
    return;
  if (self->selecting) {
    gst_ctf_gtk_timeline_set_selection (self,
        gst_ctf_gtk_timeline_get_time_at (self, self->drag_x),
        gst_ctf_gtk_timeline_get_time_at (self, self->drag_x + ox));
  } else {
    gdouble span = (gdouble) (self->drag_end - self->drag_start);
    gint64 d = (gint64) (-ox / _gst_ctf_gtk_timeline_plot_width (self) * span);

    _gst_ctf_gtk_timeline_set_range (self, (gint64) self->drag_start + d,
        (gint64) self->drag_end + d);
  }
}

static void
on_drag_end (GtkGestureDrag * g, gdouble ox, gdouble oy,
    GstCtfGtkTimeline * self)
{
  guint64 t;
  guint row, n;

  if (fabs (ox) > 3 || fabs (oy) > 3 || self->model == NULL ||
      self->drag_x < _gst_ctf_gtk_timeline_label_width (self))
    return;
  if (self->marking) {
    /* Ctrl+click: marker A; Ctrl+Shift+click: marker B */
    gst_ctf_gtk_timeline_set_marker (self, self->selecting ? 1 : 0,
        gst_ctf_gtk_timeline_get_time_at (self, self->drag_x));
    return;
  }
  /* a click: the nearest event */
  t = gst_ctf_gtk_timeline_get_time_at (self, self->drag_x);
  row = gst_ctf_gtk_event_model_find_row (self->model, t);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  if (n == 0)
    return;
  if (row >= n)
    row = n - 1;
  else if (row > 0) {
    GstCtfGtkEvent *a = g_list_model_get_item (G_LIST_MODEL (self->model),
        row - 1);
    GstCtfGtkEvent *b = g_list_model_get_item (G_LIST_MODEL (self->model),
        row);

    if (a != NULL && b != NULL && t - gst_ctf_gtk_event_get_timestamp_ns (a)
        < gst_ctf_gtk_event_get_timestamp_ns (b) - t)
      row--;
    g_clear_object (&a);
    g_clear_object (&b);
  }
  g_signal_emit (self, _gst_ctf_gtk_timeline_signals[SIGNAL_EVENT_ACTIVATED],
      0, row);
}

static void
on_zoom_begin (GtkGesture * g, GdkEventSequence * seq,
    GstCtfGtkTimeline * self)
{
  self->zoom_scale = 1.0;
}

static void
on_zoom_scale (GtkGestureZoom * g, gdouble scale, GstCtfGtkTimeline * self)
{
  gdouble cx = 0, cy = 0;

  if (scale <= 0 || self->zoom_scale <= 0)
    return;
  gtk_gesture_get_bounding_box_center (GTK_GESTURE (g), &cx, &cy);
  gst_ctf_gtk_timeline_zoom (self, scale / self->zoom_scale,
      gst_ctf_gtk_timeline_get_time_at (self, cx));
  self->zoom_scale = scale;
}

static gboolean
on_key (GtkEventControllerKey * c, guint keyval, guint keycode,
    GdkModifierType state, GstCtfGtkTimeline * self)
{
  gint64 s, e;

  if (!_gst_ctf_gtk_timeline_get_range (self, &s, &e))
    return FALSE;
  switch (keyval) {
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      gst_ctf_gtk_timeline_zoom (self, 2.0, (guint64) (s + (e - s) / 2));
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      gst_ctf_gtk_timeline_zoom (self, 0.5, (guint64) (s + (e - s) / 2));
      return TRUE;
    case GDK_KEY_Left:
      _gst_ctf_gtk_timeline_set_range (self, s - (e - s) / 5, e - (e - s) / 5);
      return TRUE;
    case GDK_KEY_Right:
      _gst_ctf_gtk_timeline_set_range (self, s + (e - s) / 5, e + (e - s) / 5);
      return TRUE;
    case GDK_KEY_Home:
      gst_ctf_gtk_timeline_show_all (self);
      return TRUE;
    case GDK_KEY_a:
    case GDK_KEY_b:
      /* at the pointer, else at the middle of the view */
      gst_ctf_gtk_timeline_set_marker (self, keyval == GDK_KEY_a ? 0 : 1,
          self->pointer_x >= _gst_ctf_gtk_timeline_label_width (self) ?
          gst_ctf_gtk_timeline_get_time_at (self, self->pointer_x) :
          (guint64) (s + (e - s) / 2));
      return TRUE;
    case GDK_KEY_Escape:
      gst_ctf_gtk_timeline_set_marker (self, 0, G_MAXUINT64);
      gst_ctf_gtk_timeline_set_marker (self, 1, G_MAXUINT64);
      return TRUE;
    default:
      return FALSE;
  }
}

static gboolean
on_query_tooltip (GtkWidget * w, gint x, gint y, gboolean keyboard,
    GtkTooltip * tooltip, GstCtfGtkTimeline * self)
{
  GstCtfGtkSummary *sum;
  gint lane = gst_ctf_gtk_timeline_get_lane_at (self, y);
  guint64 t;
  gint64 s, e;
  gint tid, cpu;
  const gchar *comm;
  guint32 count = 0;
  guint64 lost = 0;
  gchar *label, *text;
  guint n_tasks = _gst_ctf_gtk_timeline_n_task_rows (self);
  gdouble label_w = _gst_ctf_gtk_timeline_label_width (self);

  if (!_gst_ctf_gtk_timeline_get_range (self, &s, &e))
    return FALSE;
  if (lane < 0 && n_tasks > 0 &&
      y >= _gst_ctf_gtk_timeline_task_row_y (self, 0)) {
    /* a task's row: where it runs at the pointer; its label: its name
     * whole (the label may be cut) */
    guint i = (guint) ((y - _gst_ctf_gtk_timeline_task_row_y (self, 0)) /
        (TASK_H + LANE_GAP));

    if (i >= n_tasks)
      return FALSE;
    sum = _gst_ctf_gtk_event_model_get_summary (self->model);
    comm = _gst_ctf_gtk_summary_get_task_info (sum,
        _gst_ctf_gtk_timeline_task_row_index (self, i), &tid);
    cpu = _gst_ctf_gtk_summary_get_task_cpu (sum, tid, (gint64)
        gst_ctf_gtk_timeline_get_time_at (self, x));
    if (x < label_w)
      text = g_strdup_printf ("%s-%d", comm ? comm : "", tid);
    else if (cpu >= 0)
      text = g_strdup_printf ("%s-%d\nruns on CPU %d", comm ? comm : "",
          tid, cpu);
    else
      text = g_strdup_printf ("%s-%d\nnot running", comm ? comm : "", tid);
    gtk_tooltip_set_text (tooltip, text);
    g_free (text);
    return TRUE;
  }
  if (lane < 0 || x < label_w)
    return FALSE;
  sum = _gst_ctf_gtk_event_model_get_summary (self->model);
  t = gst_ctf_gtk_timeline_get_time_at (self, x);
  {
    gdouble ns_per_px = (gdouble) (e - s) /
        _gst_ctf_gtk_timeline_plot_width (self);
    gint64 c0 = s + (gint64) ((x - label_w) * ns_per_px);

    _gst_ctf_gtk_summary_get_density (sum, lane, c0,
        c0 + MAX ((gint64) ns_per_px, 1), 1, &count, &lost);
  }
  label = _gst_ctf_gtk_summary_get_lane_label (sum, lane, &cpu);
  comm = _gst_ctf_gtk_summary_get_task (sum, lane, (gint64) t, &tid);
  if (comm != NULL)
    text = g_strdup_printf ("%s\n%s-%d\n%u events%s", label, comm, tid,
        count, lost ? " (events lost)" : "");
  else
    text = g_strdup_printf ("%s\n%u events%s", label, count,
        lost ? " (events lost)" : "");
  gtk_tooltip_set_text (tooltip, text);
  g_free (text);
  g_free (label);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion * c, gdouble x, gdouble y,
    GstCtfGtkTimeline * self)
{
  self->pointer_x = x;
}

static void
on_leave (GtkEventControllerMotion * c, GstCtfGtkTimeline * self)
{
  self->pointer_x = -1;
}

/* The pointer, the tooltip, scrolling, dragging, pinching and the keys
 * (from the widget's init). */
void
_gst_ctf_gtk_timeline_add_controllers (GstCtfGtkTimeline * self)
{
  GtkEventController *scroll, *key, *motion;
  GtkGesture *drag, *zoom;

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip),
      self);

  scroll = gtk_event_controller_scroll_new
      (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  zoom = gtk_gesture_zoom_new ();
  g_signal_connect (zoom, "begin", G_CALLBACK (on_zoom_begin), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (on_zoom_scale), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (zoom));

  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
}
