/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf-viewer on live LTTng sessions (`net://HOST[:PORT]/host/H/S`,
 * GstCtfGtkEventModel follows them): an "Open URL" entry, URLs dropped
 * as text, and following: while the session runs, the timeline shows its
 * last FOLLOW_NS (all of it while it is shorter) and scrolls as events
 * come, and the window's event table (the first GtkColumnView in a
 * GtkScrolledWindow in it) shows its last row.  Zooming or panning away,
 * scrolling the table up or selecting a row stops following; the Follow
 * toggle or the End key starts it again, at the zoom then shown.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include "gst-ctf-viewer-live.h"

#define FOLLOW_NS G_GUINT64_CONSTANT (10000000000)      /* 10 s */

struct _ViewerLive {
  GtkWindow *window;
  GstCtfGtkTimeline *timeline;
  GstCtfGtkEventModel *model;   /* a live one, else NULL */
  ViewerLiveOpenFunc open;
  gpointer data;
  GtkWidget *open_button;
  GtkWidget *entry;
  GtkWidget *follow;
  gboolean following;
  gboolean setting;             /* our own visible range change */
  guint64 width;                /* of the window followed */
  gulong range_handler;
  /* the event table, found in the window when a model is set */
  GtkAdjustment *table_adj;
  GtkSelectionModel *table_sel;
  gdouble table_upper;          /* the adjustment's upper last seen */
  guint table_idle;             /* scrolling it after its layout */
  GstCtfGtkLiveSeek seek;          /* where sessions are read from */
};

/* --live-seek: "beginning" or "last", as lttnglivesrc's seek. */
gboolean
viewer_live_parse_seek (const gchar * text, GstCtfGtkLiveSeek * seek,
    GError ** error)
{
  if (g_strcmp0 (text, "beginning") == 0) {
    *seek = GST_CTF_GTK_LIVE_SEEK_BEGINNING;
  } else if (g_strcmp0 (text, "last") == 0) {
    *seek = GST_CTF_GTK_LIVE_SEEK_LAST;
  } else {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--live-seek: expected \"beginning\" or \"last\", got \"%s\"",
        text);
    return FALSE;
  }
  return TRUE;
}

/* Where the sessions opened from now on are read from. */
void
viewer_live_set_seek (ViewerLive * live, GstCtfGtkLiveSeek seek)
{
  live->seek = seek;
}

/* The model of a trace or of a live session (from where --live-seek
 * says). */
GstCtfGtkEventModel *
viewer_live_open (ViewerLive * live, const gchar * path, GError ** error)
{
  if (viewer_live_is_url (path))
    return gst_ctf_gtk_event_model_new_for_url (path, live->seek, error);
  return gst_ctf_gtk_event_model_new_for_path (path, error);
}

gboolean
viewer_live_is_url (const gchar * path)
{
  return path != NULL && (g_str_has_prefix (path, "net://") ||
      g_str_has_prefix (path, "net4://"));
}

static gboolean
running (ViewerLive * live)
{
  return live->model != NULL &&
      gst_ctf_gtk_event_model_get_loading (live->model);
}

/* Scrolls the event table to its last row. */
static void
table_to_end (ViewerLive * live)
{
  gdouble end;

  if (live->table_adj == NULL)
    return;
  live->table_upper = gtk_adjustment_get_upper (live->table_adj);
  end = live->table_upper - gtk_adjustment_get_page_size (live->table_adj);
  if (gtk_adjustment_get_value (live->table_adj) == end)
    return;
  live->setting = TRUE;
  gtk_adjustment_set_value (live->table_adj, end);
  live->setting = FALSE;
}

/* Shows the end of the session. */
static void
follow_now (ViewerLive * live)
{
  guint64 a, b;

  if (live->following && running (live))
    table_to_end (live);
  if (!live->following || !running (live) ||
      !gst_ctf_gtk_event_model_get_time_range (live->model, &a, &b))
    return;
  live->setting = TRUE;
  if (b - a < live->width)
    gst_ctf_gtk_timeline_show_all (live->timeline);
  else
    gst_ctf_gtk_timeline_set_visible_range (live->timeline, b - live->width,
        b + live->width / 50);
  live->setting = FALSE;
}

static void
set_following (ViewerLive * live, gboolean on)
{
  live->following = on;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (live->follow)) != on)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (live->follow), on);
  follow_now (live);
}

/* The user zoomed or panned: away from the end stops following. */
static void
on_range (GstCtfGtkTimeline * t, GParamSpec * pspec, ViewerLive * live)
{
  guint64 s, e, a, b, want;

  if (live->setting || !live->following || !running (live) ||
      !gst_ctf_gtk_event_model_get_time_range (live->model, &a, &b))
    return;
  gst_ctf_gtk_timeline_get_visible_range (t, &s, &e);
  want = MIN (live->width, b - a);
  if (e + (e - s) / 20 < b || (guint64) llabs ((gint64) (e - s) -
          (gint64) want) > want / 5 + 1)
    set_following (live, FALSE);
}

static gboolean
table_end_idle (gpointer data)
{
  ViewerLive *live = data;

  live->table_idle = 0;
  if (live->following && running (live))
    table_to_end (live);
  return G_SOURCE_REMOVE;
}

/* The table's end after its layout: the list view ignores the changes
 * of its adjustment's value made while it lays its rows out. */
static void
table_to_end_later (ViewerLive * live)
{
  if (live->table_idle == 0)
    live->table_idle = g_idle_add (table_end_idle, live);
}

/* The table grew (or its page did): its end again. */
static void
on_table_changed (GtkAdjustment * adj, ViewerLive * live)
{
  if (live->following && running (live))
    table_to_end_later (live);
}

/* The user scrolled the table: up from its end stops following.  (A
 * change of the adjustment's upper is the table's layout of new rows,
 * not the user.) */
static void
on_table_value (GtkAdjustment * adj, ViewerLive * live)
{
  gdouble upper = gtk_adjustment_get_upper (adj);

  if (live->setting || !live->following || !running (live))
    return;
  if (upper != live->table_upper) {
    live->table_upper = upper;
    table_to_end_later (live);
    return;
  }
  if (gtk_adjustment_get_value (adj) + 1 < upper -
      gtk_adjustment_get_page_size (adj))
    set_following (live, FALSE);
}

/* The user selected a row: following stops (the row stays in view). */
static void
on_table_selected (GtkSelectionModel * sel, guint pos, guint n,
    ViewerLive * live)
{
  GtkBitset *set;

  if (live->setting || !live->following || !running (live))
    return;
  set = gtk_selection_model_get_selection (sel);
  if (!gtk_bitset_is_empty (set))
    set_following (live, FALSE);
  gtk_bitset_unref (set);
}

static GtkWidget *
find_table (GtkWidget * w)
{
  GtkWidget *c, *found;

  if (GTK_IS_COLUMN_VIEW (w) && GTK_IS_SCROLLED_WINDOW (gtk_widget_get_parent
          (w)))
    return w;
  for (c = gtk_widget_get_first_child (w); c != NULL;
      c = gtk_widget_get_next_sibling (c))
    if ((found = find_table (c)) != NULL)
      return found;
  return NULL;
}

/* Finds the window's event table (once it is there). */
static void
watch_table (ViewerLive * live)
{
  GtkWidget *table;

  if (live->table_adj != NULL ||
      (table = find_table (GTK_WIDGET (live->window))) == NULL)
    return;
  live->table_adj = g_object_ref (gtk_scrolled_window_get_vadjustment
      (GTK_SCROLLED_WINDOW (gtk_widget_get_parent (table))));
  g_signal_connect (live->table_adj, "changed",
      G_CALLBACK (on_table_changed), live);
  g_signal_connect (live->table_adj, "value-changed",
      G_CALLBACK (on_table_value), live);
  live->table_sel = gtk_column_view_get_model (GTK_COLUMN_VIEW (table));
  if (live->table_sel != NULL) {
    g_object_ref (live->table_sel);
    g_signal_connect (live->table_sel, "selection-changed",
        G_CALLBACK (on_table_selected), live);
  }
}

static void
on_follow_toggled (GtkToggleButton * b, ViewerLive * live)
{
  gboolean on = gtk_toggle_button_get_active (b);
  guint64 s, e, a, z;

  if (on == live->following)
    return;
  if (on && live->model != NULL &&
      gst_ctf_gtk_event_model_get_time_range (live->model, &a, &z)) {
    /* at the zoom shown now (all of it: the default window) */
    gst_ctf_gtk_timeline_get_visible_range (live->timeline, &s, &e);
    live->width = e - s < z - a && e > s ? e - s : FOLLOW_NS;
  }
  set_following (live, on);
}

static gboolean
on_end_key (GtkWidget * w, GVariant * args, gpointer data)
{
  ViewerLive *live = data;

  if (!running (live))
    return FALSE;               /* the table's End */
  if (!live->following)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (live->follow), TRUE);
  return TRUE;
}

static void
on_items_changed (GListModel * m, guint pos, guint removed, guint added,
    ViewerLive * live)
{
  follow_now (live);
}

static void
on_loading (GstCtfGtkEventModel * m, GParamSpec * pspec, ViewerLive * live)
{
  gtk_widget_set_visible (live->follow, running (live));
}

static void
on_url_activate (GtkEntry * entry, ViewerLive * live)
{
  gchar *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE
              (entry))));

  if (url[0] != '\0') {
    GtkWidget *pop = gtk_widget_get_ancestor (GTK_WIDGET (entry),
        GTK_TYPE_POPOVER);

    if (pop != NULL)
      gtk_popover_popdown (GTK_POPOVER (pop));
    live->open (live->data, url);
  }
  g_free (url);
}

/* A URL dropped as text. */
static gboolean
on_drop_text (GtkDropTarget * t, const GValue * value, gdouble x, gdouble y,
    ViewerLive * live)
{
  gchar *url;

  if (!G_VALUE_HOLDS_STRING (value))
    return FALSE;
  url = g_strstrip (g_strdup (g_value_get_string (value)));
  if (!viewer_live_is_url (url)) {
    g_free (url);
    return FALSE;
  }
  live->open (live->data, url);
  g_free (url);
  return TRUE;
}

ViewerLive *
viewer_live_new (GtkWindow * window, GstCtfGtkTimeline * timeline,
    ViewerLiveOpenFunc open, gpointer data)
{
  ViewerLive *live = g_new0 (ViewerLive, 1);
  GtkWidget *pop = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkEventController *keys = gtk_shortcut_controller_new ();
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_STRING,
      GDK_ACTION_COPY);

  live->window = window;
  live->seek = GST_CTF_GTK_LIVE_SEEK_BEGINNING;
  live->timeline = timeline;
  live->open = open;
  live->data = data;
  live->width = FOLLOW_NS;
  live->following = TRUE;

  live->entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (live->entry),
      "net://HOST[:PORT]/host/TRACED_HOST/SESSION");
  gtk_editable_set_width_chars (GTK_EDITABLE (live->entry), 46);
  g_signal_connect (live->entry, "activate", G_CALLBACK (on_url_activate),
      live);
  gtk_box_append (GTK_BOX (box), gtk_label_new ("LTTng live session"));
  gtk_box_append (GTK_BOX (box), live->entry);
  gtk_popover_set_child (GTK_POPOVER (pop), box);
  live->open_button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (live->open_button),
      "Open URL");
  gtk_widget_set_tooltip_text (live->open_button,
      "Follow a live LTTng session through lttng-relayd");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (live->open_button), pop);

  live->follow = gtk_toggle_button_new_with_label ("Follow");
  gtk_widget_set_tooltip_text (live->follow,
      "Keep the end of the live session in view (End)");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (live->follow), TRUE);
  gtk_widget_set_visible (live->follow, FALSE);
  g_signal_connect (live->follow, "toggled", G_CALLBACK (on_follow_toggled),
      live);

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_End, 0),
          gtk_callback_action_new (on_end_key, live, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (window), keys);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop_text), live);
  gtk_widget_add_controller (GTK_WIDGET (window), GTK_EVENT_CONTROLLER
      (drop));
  live->range_handler = g_signal_connect (timeline, "notify::visible-end-ns",
      G_CALLBACK (on_range), live);
  return live;
}

void
viewer_live_set_model (ViewerLive * live, GstCtfGtkEventModel * model)
{
  if (live->model != NULL) {
    g_signal_handlers_disconnect_by_data (live->model, live);
    g_clear_object (&live->model);
  }
  if (model != NULL &&
      viewer_live_is_url (gst_ctf_gtk_event_model_get_path (model))) {
    watch_table (live);
    live->model = g_object_ref (model);
    g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed),
        live);
    g_signal_connect (model, "notify::loading", G_CALLBACK (on_loading),
        live);
    live->width = FOLLOW_NS;
    set_following (live, TRUE);
  }
  gtk_widget_set_visible (live->follow, running (live));
}

void
viewer_live_free (ViewerLive * live)
{
  if (live == NULL)
    return;
  /* (the window and its widgets are gone) */
  if (live->model != NULL)
    g_signal_handlers_disconnect_by_data (live->model, live);
  g_clear_object (&live->model);
  if (live->table_adj != NULL)
    g_signal_handlers_disconnect_by_data (live->table_adj, live);
  g_clear_object (&live->table_adj);
  g_clear_handle_id (&live->table_idle, g_source_remove);
  if (live->table_sel != NULL)
    g_signal_handlers_disconnect_by_data (live->table_sel, live);
  g_clear_object (&live->table_sel);
  g_free (live);
}

GtkWidget *
viewer_live_get_open_button (ViewerLive * live)
{
  return live->open_button;
}

GtkWidget *
viewer_live_get_follow_button (ViewerLive * live)
{
  return live->follow;
}

gboolean
viewer_live_get_following (ViewerLive * live)
{
  return live->following;
}

gchar *
viewer_live_status (ViewerLive * live)
{
  guint n;
  const GError *err;

  if (live->model == NULL)
    return NULL;
  n = g_list_model_get_n_items (G_LIST_MODEL (live->model));
  err = gst_ctf_gtk_event_model_get_error (live->model);
  if (err != NULL)
    return g_strdup_printf ("Live session stopped after %u events: %s", n,
        err->message);
  if (running (live))
    return g_strdup_printf ("Live: %u events so far%s", n, live->following ?
        ", following" : " (End: follow again)");
  return g_strdup_printf ("Live session ended: %u events", n);
}
