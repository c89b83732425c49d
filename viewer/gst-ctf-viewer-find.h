/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf-viewer's find bar: a filter entry (a GstCtfGtkFilterModel
 * shown instead of the whole trace), a search entry with previous/next
 * buttons (F3, Shift+F3) and a go-to-time entry.
 */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk.h"

G_BEGIN_DECLS

typedef struct _ViewerFind ViewerFind;

/* Scrolls the table to the shown row @row. */
typedef void (*ViewerFindScrollFunc) (gpointer data, guint row);

ViewerFind *viewer_find_new (GtkSingleSelection * selection,
    GtkLabel * status, ViewerFindScrollFunc scroll, gpointer data);
void viewer_find_free (ViewerFind * f);
GtkWidget *viewer_find_get_widget (ViewerFind * f);

/* A new trace (NULL: none): the filter and the search are dropped and
 * the selection shows @model. */
void viewer_find_set_model (ViewerFind * f, GstCtfGtkEventModel * model);

/* As typed in the entries and Enter pressed (also what --filter,
 * --search and --goto do).  Errors go to the status line; FALSE then. */
gboolean viewer_find_apply_filter (ViewerFind * f, const gchar * text);
gboolean viewer_find_search (ViewerFind * f, const gchar * text,
    gboolean forward);
gboolean viewer_find_goto (ViewerFind * f, const gchar * text);

/* The row shown for the base model's @base_row (the first shown at or
 * after it when filtered). */
guint viewer_find_shown_row (ViewerFind * f, guint64 base_row);

/* Whether a filter or a search is still reading the trace. */
gboolean viewer_find_busy (ViewerFind * f);

/* A time as typed: `HH:MM:SS[.NNNNNNNNN]` (the time of day as the table
 * shows it, on the day of @start_ns or the next when earlier than it),
 * `SECONDS.NNNNNNNNN` (since the clock origin, babeltrace2
 * --clock-seconds) or whole nanoseconds since the origin. */
gboolean viewer_find_parse_time (const gchar * text, guint64 start_ns,
    guint64 * ns, GError ** error);

G_END_DECLS
