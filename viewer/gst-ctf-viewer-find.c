/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf-viewer's find bar.  The filter shows a GstCtfGtkFilterModel in
 * the table instead of the whole trace (its items are the base model's,
 * so the details and the timeline work as before); the search is a
 * GstCtfGtkSearch: next/previous read from the selected row's checkpoint
 * on a worker thread only until the first match (a new search cancels
 * the one still running; with a filter shown, a match it hides is
 * searched past); go to time selects gst_ctf_gtk_event_model_find_row()'s
 * row.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gst-ctf-viewer-find.h"

#define NS_PER_S G_GUINT64_CONSTANT (1000000000)
#define NS_PER_DAY (G_GUINT64_CONSTANT (86400) * NS_PER_S)

/* A find running on the search's worker; @f is cleared when its result
 * is no longer wanted (cancelled, a new find, the bar freed). */
typedef struct {
  ViewerFind *f;
  GCancellable *cancel;
  gboolean forward;
} FindCall;

struct _ViewerFind {
  GtkWidget *box;
  GtkWidget *filter_entry;
  GtkWidget *search_entry;
  GtkWidget *goto_entry;
  GtkSingleSelection *selection;
  GtkLabel *status;
  ViewerFindScrollFunc scroll;
  gpointer data;

  GstCtfGtkEventModel *model;
  GstCtfGtkFilterModel *filter;         /* shown when set */
  GstCtfGtkSearch *search;
  FindCall *call;               /* the find running, or NULL */
  /* asked while the filter still read the trace: done once it is read */
  gchar *queued_goto;
  gchar *queued_search;
  gboolean queued_forward;
};

static gboolean filter_loading (ViewerFind * f);

static void
set_status (ViewerFind * f, const gchar * format, ...) G_GNUC_PRINTF (2, 3);

static void
set_status (ViewerFind * f, const gchar * format, ...)
{
  va_list ap;
  gchar *text;

  va_start (ap, format);
  text = g_strdup_vprintf (format, ap);
  va_end (ap);
  gtk_label_set_text (f->status, text);
  g_free (text);
}

/* The base row of the selected event, or -1. */
static gint64
selected_base_row (ViewerFind * f)
{
  GstCtfGtkEvent *ev = gtk_single_selection_get_selected_item (f->selection);

  return ev != NULL ? (gint64) gst_ctf_gtk_event_get_index (ev) : -1;
}

guint
viewer_find_shown_row (ViewerFind * f, guint64 base_row)
{
  if (f->filter != NULL)
    return gst_ctf_gtk_filter_model_find_position (f->filter, base_row);
  return (guint) MIN (base_row, G_MAXUINT);
}

static void
select_shown (ViewerFind * f, guint row)
{
  if (row >= g_list_model_get_n_items (G_LIST_MODEL (f->selection)))
    return;
  gtk_single_selection_set_selected (f->selection, row);
  f->scroll (f->data, row);
}

/* ---- filter ---- */

static void
on_filter_loading (GstCtfGtkFilterModel * m, GParamSpec * pspec,
    ViewerFind * f)
{
  GError *err = NULL;

  if (gst_ctf_gtk_filter_model_get_loading (m) || m != f->filter)
    return;
  if (!gst_ctf_gtk_filter_model_wait (m, &err)) {
    set_status (f, "Filter \"%s\" stopped: %s",
        gst_ctf_gtk_filter_model_get_expression (m), err->message);
    g_error_free (err);
    return;
  }
  set_status (f, "Filter \"%s\": %u of %u events",
      gst_ctf_gtk_filter_model_get_expression (m),
      g_list_model_get_n_items (G_LIST_MODEL (m)),
      g_list_model_get_n_items (G_LIST_MODEL (f->model)));
  if (f->queued_goto != NULL) {
    gchar *t = g_steal_pointer (&f->queued_goto);

    viewer_find_goto (f, t);
    g_free (t);
  }
  if (f->queued_search != NULL) {
    gchar *t = g_steal_pointer (&f->queued_search);

    viewer_find_search (f, t, f->queued_forward);
    g_free (t);
  }
}

static gboolean
filter_loading (ViewerFind * f)
{
  return f->filter != NULL && gst_ctf_gtk_filter_model_get_loading
      (f->filter);
}

static void
clear_filter (ViewerFind * f)
{
  g_clear_pointer (&f->queued_goto, g_free);
  g_clear_pointer (&f->queued_search, g_free);
  if (f->filter == NULL)
    return;
  g_signal_handlers_disconnect_by_data (f->filter, f);
  g_clear_object (&f->filter);
}

gboolean
viewer_find_apply_filter (ViewerFind * f, const gchar * text)
{
  GstCtfGtkFilterModel *m;
  GError *err = NULL;
  gint64 row = selected_base_row (f);

  if (f->model == NULL) {
    set_status (f, "No trace to filter");
    return FALSE;
  }
  if (text == NULL || *text == '\0') {
    clear_filter (f);
    gtk_single_selection_set_model (f->selection, G_LIST_MODEL (f->model));
    if (row >= 0)
      select_shown (f, (guint) row);
    set_status (f, "No filter: %u events",
        g_list_model_get_n_items (G_LIST_MODEL (f->model)));
    return TRUE;
  }
  m = gst_ctf_gtk_filter_model_new (f->model, text, &err);
  if (m == NULL) {
    set_status (f, "Bad filter: %s", err->message);
    g_error_free (err);
    return FALSE;
  }
  clear_filter (f);
  f->filter = m;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (f->filter_entry)),
          text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (f->filter_entry), text);
  g_signal_connect (m, "notify::loading", G_CALLBACK (on_filter_loading), f);
  gtk_single_selection_set_model (f->selection, G_LIST_MODEL (m));
  set_status (f, "Filtering with \"%s\"…", text);
  on_filter_loading (m, NULL, f);
  return TRUE;
}

/* ---- search ---- */

/* Whether the filter shows the base row @row. */
static gboolean
shown (ViewerFind * f, guint64 row)
{
  guint pos = gst_ctf_gtk_filter_model_find_position (f->filter, row);

  return pos < g_list_model_get_n_items (G_LIST_MODEL (f->filter)) &&
      gst_ctf_gtk_filter_model_get_base_row (f->filter, pos) == row;
}

static void start_find (ViewerFind * f, gint64 from, gboolean forward);

static void
find_call_free (FindCall * call)
{
  g_object_unref (call->cancel);
  g_free (call);
}

/* The find running, if any, is no longer wanted. */
static void
cancel_find (ViewerFind * f)
{
  if (f->call == NULL)
    return;
  f->call->f = NULL;
  g_cancellable_cancel (f->call->cancel);
  f->call = NULL;
}

static void
on_found (GObject * source, GAsyncResult * res, gpointer data)
{
  FindCall *call = data;
  ViewerFind *f = call->f;
  GstCtfGtkSearch *search = GST_CTF_GTK_SEARCH (source);
  GError *err = NULL;
  guint64 match = 0;
  gboolean found = gst_ctf_gtk_search_find_finish (search, res, &match,
      &err);
  const gchar *expr = gst_ctf_gtk_search_get_expression (search);

  if (f == NULL || f->call != call) {   /* not wanted any more */
    g_clear_error (&err);
    find_call_free (call);
    return;
  }
  f->call = NULL;
  if (err != NULL) {
    set_status (f, "Search \"%s\" stopped: %s", expr, err->message);
    g_error_free (err);
  } else if (!found) {
    set_status (f, "\"%s\": no %s match", expr, call->forward ? "next" :
        "previous");
  } else if (f->filter != NULL && !shown (f, match)) {
    /* hidden by the filter: the next one */
    start_find (f, (gint64) match, call->forward);
  } else if (match >= g_list_model_get_n_items (G_LIST_MODEL (f->model))) {
    set_status (f, "\"%s\": event %" G_GUINT64_FORMAT " is not loaded yet",
        expr, match);
  } else {
    select_shown (f, viewer_find_shown_row (f, match));
    set_status (f, "\"%s\": event %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
        " events read)", expr, match,
        gst_ctf_gtk_search_get_last_n_read (search));
  }
  find_call_free (call);
}

/* Looks for the match after (before) @from on the search's worker. */
static void
start_find (ViewerFind * f, gint64 from, gboolean forward)
{
  FindCall *call = g_new0 (FindCall, 1);

  cancel_find (f);
  call->f = f;
  call->cancel = g_cancellable_new ();
  call->forward = forward;
  f->call = call;
  set_status (f, "Searching %s for \"%s\"…", forward ? "forward" :
      "backward", gst_ctf_gtk_search_get_expression (f->search));
  gst_ctf_gtk_search_find_async (f->search, from, forward, call->cancel,
      on_found, call);
}

static void
clear_search (ViewerFind * f)
{
  cancel_find (f);
  g_clear_object (&f->search);
}

gboolean
viewer_find_search (ViewerFind * f, const gchar * text, gboolean forward)
{
  gint64 from;

  if (f->model == NULL) {
    set_status (f, "No trace to search");
    return FALSE;
  }
  if (text == NULL || *text == '\0') {
    clear_search (f);
    set_status (f, "Type a filter expression to search for");
    return FALSE;
  }
  if (f->search == NULL || strcmp (text,
          gst_ctf_gtk_search_get_expression (f->search)) != 0) {
    GError *err = NULL;
    GstCtfGtkSearch *s = gst_ctf_gtk_search_new (f->model, text, &err);

    if (s == NULL) {
      set_status (f, "Bad search: %s", err->message);
      g_error_free (err);
      return FALSE;
    }
    clear_search (f);
    f->search = s;
    if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (f->search_entry)),
            text) != 0)
      gtk_editable_set_text (GTK_EDITABLE (f->search_entry), text);
  }
  if (filter_loading (f)) {
    g_free (f->queued_search);
    f->queued_search = g_strdup (text);
    f->queued_forward = forward;
    set_status (f, "Searching for \"%s\" once the filter is applied…", text);
    return TRUE;
  }
  /* no selection: from the first row forward, the last backward */
  from = selected_base_row (f);
  if (from < 0 && !forward)
    from = g_list_model_get_n_items (G_LIST_MODEL (f->model));
  start_find (f, from, forward);
  return TRUE;
}

/* ---- go to time ---- */

static gboolean
parse_digits (const gchar ** p, guint max_digits, guint64 * out,
    guint * n_digits)
{
  guint n = 0;
  guint64 v = 0;

  while (g_ascii_isdigit (**p) && n < max_digits) {
    v = v * 10 + (guint64) (**p - '0');
    (*p)++;
    n++;
  }
  *out = v;
  if (n_digits != NULL)
    *n_digits = n;
  return n > 0;
}

/* `.NNN`: up to 9 digits, as nanoseconds. */
static gboolean
parse_fraction (const gchar ** p, guint64 * ns)
{
  guint64 v;
  guint n;

  *ns = 0;
  if (**p != '.')
    return TRUE;
  (*p)++;
  if (!parse_digits (p, 9, &v, &n))
    return FALSE;
  for (; n < 9; n++)
    v *= 10;
  *ns = v;
  return TRUE;
}

gboolean
viewer_find_parse_time (const gchar * text, guint64 start_ns, guint64 * ns,
    GError ** error)
{
  const gchar *p = text;
  guint64 a, frac;

  while (g_ascii_isspace (*p))
    p++;
  if (!parse_digits (&p, 19, &a, NULL))
    goto bad;
  if (*p == ':') {
    guint64 m, s, day, t;

    p++;
    if (!parse_digits (&p, 2, &m, NULL) || *p != ':')
      goto bad;
    p++;
    if (!parse_digits (&p, 2, &s, NULL) || !parse_fraction (&p, &frac))
      goto bad;
    if (a > 23 || m > 59 || s > 60)
      goto bad;
    t = ((a * 60 + m) * 60 + s) * NS_PER_S + frac;
    day = start_ns - start_ns % NS_PER_DAY;
    *ns = day + t < start_ns ? day + NS_PER_DAY + t : day + t;
  } else if (*p == '.') {
    if (!parse_fraction (&p, &frac) || a > G_MAXUINT64 / NS_PER_S - 1)
      goto bad;
    *ns = a * NS_PER_S + frac;
  } else {
    *ns = a;
  }
  while (g_ascii_isspace (*p))
    p++;
  if (*p != '\0')
    goto bad;
  return TRUE;

bad:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "\"%s\" is not a time: HH:MM:SS.NNNNNNNNN, SECONDS.NNNNNNNNN or "
      "nanoseconds", text);
  return FALSE;
}

gboolean
viewer_find_goto (ViewerFind * f, const gchar * text)
{
  guint64 start = 0, end = 0, ns;
  guint row, n;
  GError *err = NULL;

  if (f->model == NULL ||
      !gst_ctf_gtk_event_model_get_time_range (f->model, &start, &end)) {
    set_status (f, "No times to go to yet");
    return FALSE;
  }
  if (!viewer_find_parse_time (text, start, &ns, &err)) {
    set_status (f, "%s", err->message);
    g_error_free (err);
    return FALSE;
  }
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (f->goto_entry)),
          text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (f->goto_entry), text);
  if (filter_loading (f)) {
    g_free (f->queued_goto);
    f->queued_goto = g_strdup (text);
    set_status (f, "Going to %s once the filter is applied…", text);
    return TRUE;
  }
  row = gst_ctf_gtk_event_model_find_row (f->model, ns);
  n = g_list_model_get_n_items (G_LIST_MODEL (f->model));
  if (row >= n) {
    set_status (f, "No event at or after %s", text);
    return FALSE;
  }
  row = viewer_find_shown_row (f, row);
  if (row >= g_list_model_get_n_items (G_LIST_MODEL (f->selection))) {
    set_status (f, "No shown event at or after %s", text);
    return FALSE;
  }
  select_shown (f, row);
  set_status (f, "Went to %s", text);
  return TRUE;
}

/* ---- the bar ---- */

static void
on_filter_activate (GtkEntry * e, ViewerFind * f)
{
  viewer_find_apply_filter (f, gtk_editable_get_text (GTK_EDITABLE (e)));
}

static void
on_search_activate (GtkEntry * e, ViewerFind * f)
{
  viewer_find_search (f, gtk_editable_get_text (GTK_EDITABLE (e)), TRUE);
}

static void
on_next (GtkButton * b, ViewerFind * f)
{
  viewer_find_search (f, gtk_editable_get_text (GTK_EDITABLE
          (f->search_entry)), TRUE);
}

static void
on_previous (GtkButton * b, ViewerFind * f)
{
  viewer_find_search (f, gtk_editable_get_text (GTK_EDITABLE
          (f->search_entry)), FALSE);
}

static gboolean
on_shortcut (GtkWidget * w, GVariant * args, gpointer data)
{
  ViewerFind *f = data;

  viewer_find_search (f, gtk_editable_get_text (GTK_EDITABLE
          (f->search_entry)), g_variant_get_boolean (args));
  return TRUE;
}

static void
on_goto_activate (GtkEntry * e, ViewerFind * f)
{
  viewer_find_goto (f, gtk_editable_get_text (GTK_EDITABLE (e)));
}

static GtkWidget *
labelled (GtkWidget * box, const gchar * label, GtkWidget * w)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);

  gtk_label_set_mnemonic_widget (GTK_LABEL (l), w);
  gtk_box_append (GTK_BOX (box), l);
  gtk_box_append (GTK_BOX (box), w);
  return w;
}

ViewerFind *
viewer_find_new (GtkSingleSelection * selection, GtkLabel * status,
    ViewerFindScrollFunc scroll, gpointer data)
{
  ViewerFind *f = g_new0 (ViewerFind, 1);
  GtkWidget *prev = gtk_button_new_from_icon_name ("go-up-symbolic");
  GtkWidget *next = gtk_button_new_from_icon_name ("go-down-symbolic");
  GtkEventController *sc = gtk_shortcut_controller_new ();
  GtkShortcutAction *act = gtk_callback_action_new (on_shortcut, f, NULL);

  f->selection = g_object_ref (selection);
  f->status = g_object_ref (status);
  f->scroll = scroll;
  f->data = data;

  f->box = g_object_ref_sink (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6));
  gtk_widget_set_margin_start (f->box, 6);
  gtk_widget_set_margin_end (f->box, 6);
  gtk_widget_set_margin_top (f->box, 3);
  gtk_widget_set_margin_bottom (f->box, 3);

  f->filter_entry = labelled (f->box, "_Filter:", gtk_entry_new ());
  gtk_widget_set_hexpand (f->filter_entry, TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (f->filter_entry),
      "events=sched_* cpus=0-1 pids=N, and/or -F: sched/sched_switch: "
      "next_pid == 1");
  gtk_widget_set_tooltip_text (f->filter_entry, "Show only the events "
      "ctffilter would keep: first words events=GLOBS (! excludes), "
      "cpus=0,2-3, pids=, tids=, streams=GLOBS, stream-classes=, "
      "filter-out=\"EXPRESSION\" (leaves out what it matches, trace-cmd's "
      "-v -F), then a trace-cmd report -F expression (ctffilter's filter; "
      "trace.dat events by SYSTEM/EVENT too); Enter applies, empty shows "
      "every event");
  g_signal_connect (f->filter_entry, "activate",
      G_CALLBACK (on_filter_activate), f);

  f->search_entry = labelled (f->box, "_Search:", gtk_entry_new ());
  gtk_widget_set_hexpand (f->search_entry, TRUE);
  gtk_widget_set_tooltip_text (f->search_entry, "Select the next event "
      "this text keeps (the filter's settings and grammar), read from the "
      "selected event on; F3 next, Shift+F3 previous");
  g_signal_connect (f->search_entry, "activate",
      G_CALLBACK (on_search_activate), f);
  gtk_widget_set_tooltip_text (prev, "Previous match (Shift+F3)");
  gtk_widget_set_tooltip_text (next, "Next match (F3)");
  g_signal_connect (prev, "clicked", G_CALLBACK (on_previous), f);
  g_signal_connect (next, "clicked", G_CALLBACK (on_next), f);
  gtk_box_append (GTK_BOX (f->box), prev);
  gtk_box_append (GTK_BOX (f->box), next);

  f->goto_entry = labelled (f->box, "_Go to:", gtk_entry_new ());
  gtk_editable_set_width_chars (GTK_EDITABLE (f->goto_entry), 24);
  gtk_entry_set_placeholder_text (GTK_ENTRY (f->goto_entry),
      "HH:MM:SS.NNNNNNNNN");
  gtk_widget_set_tooltip_text (f->goto_entry, "Select the first event at or "
      "after this time: HH:MM:SS.NNNNNNNNN (as the Time column shows), "
      "SECONDS.NNNNNNNNN since the clock origin, or nanoseconds");
  g_signal_connect (f->goto_entry, "activate",
      G_CALLBACK (on_goto_activate), f);

  /* F3 / Shift+F3 from anywhere in the window */
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (sc),
      GTK_SHORTCUT_SCOPE_GLOBAL);
  {
    GtkShortcut *s = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_F3,
            0), g_object_ref (act));

    gtk_shortcut_set_arguments (s, g_variant_new_boolean (TRUE));
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (sc), s);
    s = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_F3,
            GDK_SHIFT_MASK), act);
    gtk_shortcut_set_arguments (s, g_variant_new_boolean (FALSE));
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (sc), s);
  }
  gtk_widget_add_controller (f->box, sc);
  return f;
}

GtkWidget *
viewer_find_get_widget (ViewerFind * f)
{
  return f->box;
}

void
viewer_find_set_model (ViewerFind * f, GstCtfGtkEventModel * model)
{
  clear_filter (f);
  clear_search (f);
  g_set_object (&f->model, model);
  gtk_single_selection_set_model (f->selection, G_LIST_MODEL (model));
}

gboolean
viewer_find_busy (ViewerFind * f)
{
  return filter_loading (f) || f->call != NULL;
}

void
viewer_find_free (ViewerFind * f)
{
  if (f == NULL)
    return;
  clear_filter (f);
  clear_search (f);
  g_clear_object (&f->model);
  g_object_unref (f->selection);
  g_object_unref (f->status);
  g_object_unref (f->box);
  g_free (f);
}
