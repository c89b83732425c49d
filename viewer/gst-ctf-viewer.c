/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf-viewer: a trace viewer on the libgstctf-gtk-1.0 widgets.  The
 * timeline (GstCtfGtkTimeline) above the event table (a GtkColumnView of
 * GstCtfGtkEventModel) and the details of the selected event
 * (GstCtfGtkDetails).  Opens a CTF trace directory (or a directory above
 * several), a trace.dat file or an LTTng 0.x trace: by argument, the Open
 * button or drag and drop; a live LTTng session (`net://...`) by
 * argument, the Open URL button, the Open dialog's location or a dropped
 * URL, followed as it runs (gst-ctf-viewer-live.c).
 *
 *   gst-ctf-viewer [TRACE]
 *   gst-ctf-viewer net://HOST/host/H/S --screenshot-rows N --screenshot s.png
 *   gst-ctf-viewer TRACE --select ROW --screenshot out.png --quit-after-load
 *   gst-ctf-viewer TRACE --filter EXPR --search EXPR --goto TIME
 *
 * The find bar (filter, search, go to time) is gst-ctf-viewer-find.c.
 *   gst-ctf-viewer TRACE --select-range S:E --export DIR
 *
 * Markers A/B: gst-ctf-viewer-markers.c; export: gst-ctf-viewer-export*.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <gst/gst.h>
#include <gtk/gtk.h>
#include "gstctfgtk.h"
#include "gst-ctf-viewer-find.h"
#include "gst-ctf-viewer-markers.h"
#include "gst-ctf-viewer-export.h"
#include "gst-ctf-viewer-export-bar.h"
#include "gst-ctf-viewer-live.h"
#include "gst-ctf-viewer-probe.h"
#include "gst-ctf-viewer-tasks.h"

typedef struct {
  GtkWidget *window;
  GtkWidget *status;
  GtkWidget *timeline;
  GtkWidget *columns;
  GtkWidget *table_scroll;
  GtkWidget *details;
  GtkSingleSelection *selection;
  GstCtfGtkEventModel *model;
  ViewerFind *find;
  GMainLoop *loop;
  gboolean failed;
  /* options */
  gchar *screenshot;
  gboolean quit_after_load;
  gint select_row;
  gchar *filter;
  gchar *search;
  gchar *goto_time;
  gboolean print_selected;
  gchar *markers;
  gchar *export_dir;
  gchar *select_range;
  guint64 visible_start, visible_end;   /* --visible, 0:0 unset */
  GtkWidget *export_bar;
  GtkWidget *tasks;             /* the Tasks toggle */
  gboolean task_rows;
  gchar *task_tids;             /* --tasks */
  guint shot_tries;
  guint scroll_source;
  ViewerLive *live;
  gint shot_rows;               /* screenshot once this many rows (live) */
} Viewer;

static void
format_time (guint64 ns, gchar * out, gsize size)
{
  guint64 s = ns / 1000000000;

  g_snprintf (out, size, "%02u:%02u:%02u.%09u", (guint) (s / 3600 % 24),
      (guint) (s / 60 % 60), (guint) (s % 60), (guint) (ns % 1000000000));
}

/* ---- the event table ---- */

typedef enum {
  COL_TIME,
  COL_CPU,
  COL_NAME,
  COL_STREAM,
  COL_FIELDS,
} Column;

static void
setup_cell (GtkSignalListItemFactory * f, GtkListItem * li, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (GPOINTER_TO_INT (data) == COL_TIME)
    gtk_widget_add_css_class (label, "monospace");
  gtk_list_item_set_child (li, label);
}

static void
bind_cell (GtkSignalListItemFactory * f, GtkListItem * li, gpointer data)
{
  GstCtfGtkEvent *ev = gtk_list_item_get_item (li);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (li));
  gchar buf[64];

  if (ev == NULL) {
    gtk_label_set_text (label, "");
    return;
  }
  switch (GPOINTER_TO_INT (data)) {
    case COL_TIME:
      format_time (gst_ctf_gtk_event_get_timestamp_ns (ev), buf, sizeof buf);
      gtk_label_set_text (label, buf);
      break;
    case COL_CPU:
      if (gst_ctf_gtk_event_get_cpu (ev) >= 0)
        g_snprintf (buf, sizeof buf, "%d", gst_ctf_gtk_event_get_cpu (ev));
      else
        buf[0] = '\0';
      gtk_label_set_text (label, buf);
      break;
    case COL_NAME:
      gtk_label_set_text (label, gst_ctf_gtk_event_get_name (ev));
      break;
    case COL_STREAM:
      gtk_label_set_text (label, gst_ctf_gtk_event_get_stream_name (ev));
      break;
    default:
      gtk_label_set_text (label, gst_ctf_gtk_event_get_fields (ev));
      break;
  }
}

static void
add_column (Viewer * v, const gchar * title, Column col, gint width,
    gboolean expand)
{
  GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *c;

  g_signal_connect (f, "setup", G_CALLBACK (setup_cell),
      GINT_TO_POINTER (col));
  g_signal_connect (f, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (col));
  c = gtk_column_view_column_new (title, f);
  gtk_column_view_column_set_resizable (c, TRUE);
  gtk_column_view_column_set_expand (c, expand);
  if (width > 0)
    gtk_column_view_column_set_fixed_width (c, width);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (v->columns), c);
  g_object_unref (c);
}

/* Scrolls the table to @row (GTK 4.8 has no gtk_column_view_scroll_to():
 * the rows have one height, so the row is at its share of the
 * adjustment). */
static void
scroll_to (Viewer * v, guint row)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment
      (GTK_SCROLLED_WINDOW (v->table_scroll));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (v->selection));
  gdouble upper = gtk_adjustment_get_upper (adj);
  gdouble page = gtk_adjustment_get_page_size (adj);

  if (n == 0)
    return;
  gtk_adjustment_set_value (adj, CLAMP (upper * row / n - page / 3, 0,
          upper - page));
}

/* ---- glue ---- */

static void
update_status (Viewer * v)
{
  gchar *text;
  const GError *err;
  guint n;

  if (v->model == NULL)
    return;
  n = g_list_model_get_n_items (G_LIST_MODEL (v->model));
  err = gst_ctf_gtk_event_model_get_error (v->model);
  if ((text = viewer_live_status (v->live)) != NULL)
    ;                           /* live: following or not, ended */
  else if (err != NULL)
    text = g_strdup_printf ("%u events before an error: %s", n,
        err->message);
  else if (gst_ctf_gtk_event_model_get_loading (v->model))
    text = g_strdup_printf ("Loading… %u events", n);
  else
    text = g_strdup_printf ("%u events", n);
  gtk_label_set_text (GTK_LABEL (v->status), text);
  g_free (text);
}

static void
on_selected (GtkSingleSelection * sel, GParamSpec * pspec, Viewer * v)
{
  GstCtfGtkEvent *ev = gtk_single_selection_get_selected_item (sel);

  gst_ctf_gtk_details_set_event (GST_CTF_GTK_DETAILS (v->details), ev);
  if (ev != NULL) {
    guint64 ns = gst_ctf_gtk_event_get_timestamp_ns (ev);

    /* centred when zoomed in, and marked */
    gst_ctf_gtk_timeline_center_on (GST_CTF_GTK_TIMELINE (v->timeline), ns);
    gst_ctf_gtk_timeline_set_selection (GST_CTF_GTK_TIMELINE (v->timeline),
        ns, ns + 1);
  }
}

/* Again once the table has its new height (a filter just applied). */
static gboolean
scroll_again (gpointer data)
{
  Viewer *v = data;
  guint row = gtk_single_selection_get_selected (v->selection);

  v->scroll_source = 0;
  if (row != GTK_INVALID_LIST_POSITION)
    scroll_to (v, row);
  return G_SOURCE_REMOVE;
}

static void
scroll_to_cb (gpointer data, guint row)
{
  Viewer *v = data;

  scroll_to (v, row);
  if (v->scroll_source == 0)
    v->scroll_source = g_timeout_add (100, scroll_again, v);
}

static void
on_event_activated (GstCtfGtkTimeline * t, guint row, Viewer * v)
{
  row = viewer_find_shown_row (v->find, row);   /* filtered */
  gtk_single_selection_set_selected (v->selection, row);
  scroll_to (v, row);
}

/* FALSE when the window was not drawn yet (try again later). */
static gboolean
save_screenshot (Viewer * v)
{
  GdkPaintable *p = gtk_widget_paintable_new (v->window);
  GtkSnapshot *s = gtk_snapshot_new ();
  gint w = gtk_widget_get_width (v->window);
  gint h = gtk_widget_get_height (v->window);
  GskRenderNode *node;
  GskRenderer *r = gtk_native_get_renderer (GTK_NATIVE (v->window));

  gdk_paintable_snapshot (p, s, w, h);
  node = gtk_snapshot_free_to_node (s);
  if (node == NULL || r == NULL) {
    g_clear_pointer (&node, gsk_render_node_unref);
    g_object_unref (p);
    return FALSE;
  }
  {
    GdkTexture *tex = gsk_renderer_render_texture (r, node,
        &GRAPHENE_RECT_INIT (0, 0, w, h));

    if (!gdk_texture_save_to_png (tex, v->screenshot)) {
      g_printerr ("Cannot write the screenshot \"%s\"\n", v->screenshot);
      v->failed = TRUE;
    }
    g_object_unref (tex);
  }
  g_clear_pointer (&node, gsk_render_node_unref);
  g_object_unref (p);
  return TRUE;
}

/* Loaded and drawn: the screenshot, then the end when asked. */
static gboolean
after_load (gpointer data)
{
  Viewer *v = data;

  if (viewer_find_busy (v->find) && ++v->shot_tries < 240)
    return G_SOURCE_CONTINUE;   /* the filter or the search still reads */
  if (v->select_row >= 0 && v->model != NULL) {
    scroll_to (v, (guint) v->select_row);
    v->select_row = -1;
    return G_SOURCE_CONTINUE;   /* drawn at the next timeout */
  }

  if (v->screenshot != NULL && !save_screenshot (v)) {
    if (++v->shot_tries < 60)
      return G_SOURCE_CONTINUE; /* not drawn yet */
    g_printerr ("Cannot save the screenshot: the window was not drawn\n");
    v->failed = TRUE;
  }
  if (v->print_selected) {
    GstCtfGtkEvent *ev = gtk_single_selection_get_selected_item
        (v->selection);

    if (ev != NULL) {
      gchar t[32];

      format_time (gst_ctf_gtk_event_get_timestamp_ns (ev), t, sizeof t);
      g_print ("selected %" G_GUINT64_FORMAT " [%s] %s\n",
          gst_ctf_gtk_event_get_index (ev), t,
          gst_ctf_gtk_event_get_name (ev));
    }
    g_print ("shown %u\n", g_list_model_get_n_items (G_LIST_MODEL
            (v->selection)));
    g_print ("status %s\n", gtk_label_get_text (GTK_LABEL (v->status)));
  }
  if (v->quit_after_load)
    g_main_loop_quit (v->loop);
  return G_SOURCE_REMOVE;
}

static void
loaded (Viewer * v)
{
  if (v->model != NULL && v->select_row >= 0 &&
      (guint) v->select_row < g_list_model_get_n_items (G_LIST_MODEL
          (v->model))) {
    gtk_single_selection_set_selected (v->selection, v->select_row);
  }
  if (v->model != NULL && gst_ctf_gtk_event_model_get_error (v->model))
    v->failed = TRUE;
  /* --visible: the timeline's range, once the trace's is known */
  if (v->visible_end > v->visible_start)
    gst_ctf_gtk_timeline_set_visible_range (GST_CTF_GTK_TIMELINE
        (v->timeline), v->visible_start, v->visible_end);
  /* --filter, --goto, --search: as typed, on the first trace; a bad one
   * fails the run */
  if (v->model != NULL && v->filter != NULL &&
      !viewer_find_apply_filter (v->find, v->filter))
    v->failed = TRUE;
  if (v->model != NULL && v->goto_time != NULL &&
      !viewer_find_goto (v->find, v->goto_time))
    v->failed = TRUE;
  if (v->model != NULL && v->search != NULL &&
      !viewer_find_search (v->find, v->search, TRUE))
    v->failed = TRUE;
  if (v->failed)
    g_printerr ("%s\n", gtk_label_get_text (GTK_LABEL (v->status)));
  g_clear_pointer (&v->filter, g_free);
  g_clear_pointer (&v->goto_time, g_free);
  g_clear_pointer (&v->search, g_free);
  if (v->screenshot != NULL || v->quit_after_load)
    /* a few frames for the rows and the tree to be drawn */
    g_timeout_add (500, after_load, v);
}

static void
on_loading (GstCtfGtkEventModel * m, GParamSpec * pspec, Viewer * v)
{
  update_status (v);
  if (!gst_ctf_gtk_event_model_get_loading (m))
    loaded (v);
}

static void
on_items_changed (GListModel * m, guint pos, guint removed, guint added,
    Viewer * v)
{
  update_status (v);
  /* --screenshot-rows: a running live session, drawn with N rows */
  if (v->shot_rows > 0 && g_list_model_get_n_items (m) >=
      (guint) v->shot_rows) {
    v->shot_rows = 0;
    if (gst_ctf_gtk_event_model_get_loading (v->model))
      g_timeout_add (500, after_load, v);
  }
}


static void
open_trace (Viewer * v, const gchar * path)
{
  GError *err = NULL;
  GstCtfGtkEventModel *m = viewer_live_open (v->live, path, &err);
  gchar *title, *base;

  if (m == NULL) {
    gchar *text = g_strdup_printf ("Cannot open \"%s\": %s", path,
        err->message);

    g_printerr ("%s\n", text);
    gtk_label_set_text (GTK_LABEL (v->status), text);
    g_free (text);
    g_error_free (err);
    v->failed = TRUE;
    loaded (v);
    return;
  }
  if (v->model != NULL)
    g_signal_handlers_disconnect_by_data (v->model, v);
  g_set_object (&v->model, m);
  g_signal_connect (m, "notify::loading", G_CALLBACK (on_loading), v);
  g_signal_connect (m, "items-changed", G_CALLBACK (on_items_changed), v);
  viewer_find_set_model (v->find, m);
  gst_ctf_gtk_timeline_set_model (GST_CTF_GTK_TIMELINE (v->timeline), m);
  viewer_live_set_model (v->live, m);
  gst_ctf_viewer_export_bar_set_model (v->export_bar, m);
  gst_ctf_gtk_details_set_event (GST_CTF_GTK_DETAILS (v->details), NULL);
  base = g_path_get_basename (path);
  title = g_strdup_printf ("%s — gst-ctf-viewer", base);
  g_free (base);
  gtk_window_set_title (GTK_WINDOW (v->window), title);
  g_free (title);
  update_status (v);
  g_object_unref (m);
}

static void
open_cb (gpointer data, const gchar * path)
{
  open_trace (data, path);
}

static void
on_open_response (GtkNativeDialog * d, gint response, Viewer * v)
{
  if (response == GTK_RESPONSE_ACCEPT) {
    GFile *f = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (d));
    gchar *path = g_file_get_path (f);

    /* a net:// URL typed as the location has no local path */
    if (path == NULL) {
      path = g_file_get_uri (f);
      if (!viewer_live_is_url (path))
        g_clear_pointer (&path, g_free);
    }
    if (path != NULL)
      open_trace (v, path);
    g_free (path);
    g_object_unref (f);
  }
  g_object_unref (d);
}

static void
on_open (GtkButton * b, Viewer * v)
{
  /* a trace directory or a trace.dat: a folder chooser takes both when
   * the file itself is picked in its list */
  GtkFileChooserNative *d = gtk_file_chooser_native_new ("Open a trace",
      GTK_WINDOW (v->window), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
      "_Open", "_Cancel");

  g_signal_connect (d, "response", G_CALLBACK (on_open_response), v);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (d));
}

static gboolean
on_drop (GtkDropTarget * t, const GValue * value, gdouble x, gdouble y,
    Viewer * v)
{
  GSList *files;
  gchar *path;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = gdk_file_list_get_files (g_value_get_boxed (value));
  if (files == NULL)
    return FALSE;
  path = g_file_get_path (files->data);
  g_slist_free (files);
  if (path == NULL)
    return FALSE;
  open_trace (v, path);
  g_free (path);
  return TRUE;
}

static gboolean
on_close (GtkWindow * w, Viewer * v)
{
  g_main_loop_quit (v->loop);
  return FALSE;
}

static void
build_window (Viewer * v, gint width, gint height)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *open = gtk_button_new_with_mnemonic ("_Open");
  GtkWidget *hpaned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *tl_scroll = gtk_scrolled_window_new ();
  GtkWidget *table_scroll = v->table_scroll = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST,
      GDK_ACTION_COPY);

  v->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (v->window), width, height);
  gtk_window_set_title (GTK_WINDOW (v->window), "gst-ctf-viewer");
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), open);
  /* rows per task below the CPUs (GstCtfGtkTimeline:task-rows) */
  v->tasks = gtk_toggle_button_new_with_mnemonic ("_Tasks");
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), v->tasks);
  gtk_window_set_titlebar (GTK_WINDOW (v->window), header);
  g_signal_connect (open, "clicked", G_CALLBACK (on_open), v);

  v->timeline = gst_ctf_gtk_timeline_new (NULL);
  v->live = viewer_live_new (GTK_WINDOW (v->window), GST_CTF_GTK_TIMELINE
      (v->timeline), open_cb, v);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header),
      viewer_live_get_open_button (v->live));
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header),
      viewer_live_get_follow_button (v->live));
  g_signal_connect (v->timeline, "event-activated",
      G_CALLBACK (on_event_activated), v);
  g_object_bind_property (v->tasks, "active", v->timeline, "task-rows",
      G_BINDING_BIDIRECTIONAL);
  /* which tasks get rows (gst-ctf-viewer-tasks.c) */
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header),
      gst_ctf_viewer_tasks_button_new (GST_CTF_GTK_TIMELINE (v->timeline)));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (tl_scroll),
      v->timeline);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (tl_scroll),
      GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW
      (tl_scroll), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW
      (tl_scroll), height / 3);

  v->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (v->selection, FALSE);
  gtk_single_selection_set_can_unselect (v->selection, TRUE);
  g_signal_connect (v->selection, "notify::selected-item",
      G_CALLBACK (on_selected), v);
  v->columns = gtk_column_view_new (GTK_SELECTION_MODEL (v->selection));
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (v->columns),
      TRUE);
  add_column (v, "Time", COL_TIME, 180, FALSE);
  add_column (v, "CPU", COL_CPU, 50, FALSE);
  add_column (v, "Name", COL_NAME, 200, FALSE);
  add_column (v, "Stream", COL_STREAM, 110, FALSE);
  add_column (v, "Fields", COL_FIELDS, -1, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (table_scroll),
      v->columns);

  v->details = gst_ctf_gtk_details_new ();
  gtk_widget_set_size_request (v->details, 320, -1);

  gtk_paned_set_start_child (GTK_PANED (hpaned), table_scroll);
  gtk_paned_set_end_child (GTK_PANED (hpaned), v->details);
  gtk_paned_set_resize_end_child (GTK_PANED (hpaned), FALSE);
  gtk_paned_set_position (GTK_PANED (hpaned), width - 380);
  gtk_widget_set_vexpand (hpaned, TRUE);

  v->status = gtk_label_new ("Open a trace directory or a trace.dat file "
      "(or drop it here)");
  gtk_label_set_xalign (GTK_LABEL (v->status), 0);
  /* (an error message on as many lines as it takes, and can be copied) */
  gtk_label_set_wrap (GTK_LABEL (v->status), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (v->status), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (v->status), TRUE);
  gtk_widget_set_margin_start (v->status, 6);
  gtk_widget_set_margin_top (v->status, 3);
  gtk_widget_set_margin_bottom (v->status, 3);
  gtk_box_append (GTK_BOX (box), tl_scroll);
  gtk_box_append (GTK_BOX (box), gst_ctf_viewer_marker_bar_new
      (GST_CTF_GTK_TIMELINE (v->timeline)));
  gtk_box_append (GTK_BOX (box), gtk_separator_new
      (GTK_ORIENTATION_HORIZONTAL));
  v->find = viewer_find_new (v->selection, GTK_LABEL (v->status),
      scroll_to_cb, v);
  gtk_box_append (GTK_BOX (box), viewer_find_get_widget (v->find));
  gtk_box_append (GTK_BOX (box), hpaned);
  v->export_bar = gst_ctf_viewer_export_bar_new (GST_CTF_GTK_TIMELINE
      (v->timeline), v->status);
  gtk_box_append (GTK_BOX (box), v->export_bar);
  gtk_box_append (GTK_BOX (box), v->status);
  gtk_window_set_child (GTK_WINDOW (v->window), box);

  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), v);
  gtk_widget_add_controller (v->window, GTK_EVENT_CONTROLLER (drop));
  g_signal_connect (v->window, "close-request", G_CALLBACK (on_close), v);
}

int
main (int argc, char **argv)
{
  gint64 t_main = g_get_monotonic_time (), t_open;     /* for --bench */
  gchar *bench = NULL, *visible = NULL;
  ViewerProbe *probe = NULL;
  Viewer v = { 0 };
  gchar *size = NULL, *live_seek = NULL;
  GstCtfGtkLiveSeek seek = GST_CTF_GTK_LIVE_SEEK_BEGINNING;
  gint width = 1280, height = 800;
  GArray *task_tids = NULL;     /* --tasks */
  GError *err = NULL;
  GOptionEntry entries[] = {
    {"screenshot", 0, 0, G_OPTION_ARG_FILENAME, &v.screenshot,
        "Save the window as PNG once the trace is loaded", "FILE"},
    {"quit-after-load", 0, 0, G_OPTION_ARG_NONE, &v.quit_after_load,
        "Quit once the trace is loaded (and the screenshot saved); exit "
          "status 1 when the trace could not be read", NULL},
    {"select", 0, 0, G_OPTION_ARG_INT, &v.select_row,
        "Select this row once loaded", "ROW"},
    {"filter", 0, 0, G_OPTION_ARG_STRING, &v.filter,
        "Show only the events this filter keeps (as typed in the Filter "
          "entry: events=, cpus=, pids=, ... then a trace-cmd -F "
          "expression)", "TEXT"},
    {"search", 0, 0, G_OPTION_ARG_STRING, &v.search,
        "Select the first event this filter keeps (after --goto's row)",
          "TEXT"},
    {"goto", 0, 0, G_OPTION_ARG_STRING, &v.goto_time,
        "Select the first event at or after this time "
          "(HH:MM:SS.NNNNNNNNN, SECONDS.NNNNNNNNN or ns)", "TIME"},
    {"print-selected", 0, 0, G_OPTION_ARG_NONE, &v.print_selected,
        "Once loaded, print the selected event (row, time, name) and the "
          "number of rows shown, for tests", NULL},
    {"markers", 0, 0, G_OPTION_ARG_STRING, &v.markers,
        "Place markers A and B (ns from the clock origin)", "A:B"},
    {"select-range", 0, 0, G_OPTION_ARG_STRING, &v.select_range,
        "Select this time range (ns from the clock origin)", "A:B"},
    {"visible", 0, 0, G_OPTION_ARG_STRING, &visible,
        "Once loaded, show this time range in the timeline (ns from the "
          "clock origin; at least 1 us)", "START:END"},
    {"export", 0, 0, G_OPTION_ARG_FILENAME, &v.export_dir,
        "Export the selected range (else A..B) of TRACE into this new or "
          "empty directory, then quit (exit status 1 on error)", "DIR"},
    {"screenshot-rows", 0, 0, G_OPTION_ARG_INT, &v.shot_rows,
        "Live: take the screenshot (and quit with --quit-after-load) once "
          "this many rows came, while the session runs", "N"},
    {"task-rows", 0, 0, G_OPTION_ARG_NONE, &v.task_rows,
        "Show a row per task (the Tasks button)", NULL},
    {"tasks", 0, 0, G_OPTION_ARG_STRING, &v.task_tids,
        "Show rows for these tasks only (thread ids, as the Task rows "
          "picker chooses; implies --task-rows)", "TID,..."},
    {"live-seek", 0, 0, G_OPTION_ARG_STRING, &live_seek,
        "Live: read the session from \"beginning\" (the oldest data the "
          "relay has, the default) or \"last\" (its newest packets), as "
          "lttnglivesrc's seek", "WHERE"},
    {"size", 0, 0, G_OPTION_ARG_STRING, &size,
        "Window size (default 1280x800)", "WxH"},
    {"bench", 0, 0, G_OPTION_ARG_FILENAME, &bench,
        "Time the first rows, the index, the timeline and a zoom/pan sweep "
          "of TRACE, write them to FILE as JSON, then quit", "FILE"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("[TRACE] - view a CTF trace, "
      "a trace.dat, an LTTng 0.x trace or a live LTTng session (net://...)");
  gint status;

  v.select_row = -1;
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    g_error_free (err);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);
  if (live_seek != NULL && !viewer_live_parse_seek (live_seek, &seek, &err)) {
    g_printerr ("%s\n", err->message);
    g_error_free (err);
    g_free (live_seek);
    return 2;
  }
  g_free (live_seek);
  if (size != NULL && sscanf (size, "%dx%d", &width, &height) != 2) {
    g_printerr ("--size: expected WxH, got \"%s\"\n", size);
    return 2;
  }
  if (visible != NULL &&
      (sscanf (visible, "%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
              &v.visible_start, &v.visible_end) != 2 ||
          v.visible_end <= v.visible_start)) {
    g_printerr ("--visible: expected START:END in ns, START < END, got "
        "\"%s\"\n", visible);
    g_free (visible);
    g_free (v.task_tids);
    g_free (size);
    return 2;
  }
  g_free (visible);
  if (v.task_tids != NULL &&
      !gst_ctf_viewer_tasks_parse (v.task_tids, &task_tids, &err)) {
    g_printerr ("%s\n", err->message);
    g_error_free (err);
    g_free (v.task_tids);
    g_free (size);
    return 2;
  }
  gst_init (NULL, NULL);
  gtk_init ();
  v.loop = g_main_loop_new (NULL, FALSE);
  build_window (&v, width, height);
  viewer_live_set_seek (v.live, seek);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (v.tasks), v.task_rows);
  if (task_tids != NULL) {
    gst_ctf_gtk_timeline_set_task_row_tids (GST_CTF_GTK_TIMELINE
        (v.timeline), (const gint *) task_tids->data, task_tids->len);
    gst_ctf_gtk_timeline_set_task_rows (GST_CTF_GTK_TIMELINE (v.timeline),
        TRUE);
    g_array_unref (task_tids);
  }
  if (v.markers != NULL) {
    guint64 a, b;

    if (sscanf (v.markers, "%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, &a,
            &b) != 2) {
      g_printerr ("--markers: expected A:B in ns, got \"%s\"\n", v.markers);
      return 2;
    }
    gst_ctf_gtk_timeline_set_marker (GST_CTF_GTK_TIMELINE (v.timeline), 0, a);
    gst_ctf_gtk_timeline_set_marker (GST_CTF_GTK_TIMELINE (v.timeline), 1, b);
  }
  gtk_window_present (GTK_WINDOW (v.window));
  t_open = g_get_monotonic_time ();
  if (argc > 1)
    open_trace (&v, argv[1]);
  if (bench != NULL)
    probe = viewer_probe_start (bench, t_main, t_open, v.window,
        GST_CTF_GTK_TIMELINE (v.timeline), G_LIST_MODEL (v.selection),
        v.model, v.loop, &v.failed);
  if (v.select_range != NULL) {
    guint64 a, b;

    if (sscanf (v.select_range, "%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
            &a, &b) != 2) {
      g_printerr ("--select-range: expected A:B in ns\n");
      return 2;
    }
    gst_ctf_gtk_timeline_set_selection (GST_CTF_GTK_TIMELINE (v.timeline), a,
        b);
  }
  if (v.export_dir != NULL)
    gst_ctf_viewer_export_bar_run (v.export_bar, v.export_dir, v.loop,
        &v.failed);
  g_main_loop_run (v.loop);
  viewer_probe_free (probe);
  g_free (bench);
  status = v.failed ? 1 : 0;
  if (GTK_IS_WINDOW (v.window))
    gtk_window_destroy (GTK_WINDOW (v.window));
  if (v.scroll_source != 0)
    g_source_remove (v.scroll_source);
  viewer_find_free (v.find);
  viewer_live_free (v.live);
  g_clear_object (&v.model);
  g_main_loop_unref (v.loop);
  g_free (v.filter);
  g_free (v.search);
  g_free (v.goto_time);
  g_free (v.screenshot);
  g_free (size);
  g_free (v.markers);
  g_free (v.export_dir);
  g_free (v.select_range);
  g_free (v.task_tids);
  return status;
}
