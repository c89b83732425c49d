/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the GTK tests share: a model opened and indexed, a widget shown in
 * a window, a widget's own drawing as pixels, an oracle's lines.
 */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk.h"

G_BEGIN_DECLS

/* g_test_init() and a display: FALSE, after printing a TAP skip line, when
 * there is none (run under xvfb-run).  Criticals are fatal, warnings not
 * (GTK warns that it finds no session bus under xvfb-run). */
gboolean gtk_test_init_display (int *argc, char ***argv);
/* The model of @path, every event indexed (asserts no error). */
GstCtfGtkEventModel *gtk_test_open_loaded (const gchar * path);
/* A window of @w x @h holding @child, shown and laid out. */
GtkWidget *gtk_test_show (GtkWidget * child, gint w, gint h);
/* @w's own drawing now as B8G8R8A8 premultiplied rows of 4 * width bytes
 * (g_free()), NULL when it draws nothing yet. */
guchar *gtk_test_render (GtkWidget * w, gint * width, gint * height);
/* The non-empty lines of @text, or of the file @path. */
GPtrArray *gtk_test_split_lines (const gchar * text);
GPtrArray *gtk_test_read_lines (const gchar * path);
/* Asserts that @ev is babeltrace2's text line @line, `[TIME] (+DELTA)
 * [HOST ]NAME: FIELDS` (no time for an event without one): time, name,
 * fields and, where LTTng's packet context prints `cpu_id` first, the CPU.
 * @unit and @pos name it in the failure. */
void gtk_test_check_line (const gchar * unit, guint pos, GstCtfGtkEvent * ev,
    const gchar * line);

/* Whether pixel (@x, @y) of B8G8R8A8 rows @px (@width wide) is @c, or @c
 * under the timeline axis's grid line (12 % black over part of it). */
gboolean gtk_test_pixel_is (const guchar * px, gint width, gint x, gint y,
    const GdkRGBA * c);
/* The timeline's deep-zoom event times of @lane once its worker read them
 * (10 s at most; g_free()). */
guint64 *gtk_test_wait_event_times (GstCtfGtkTimeline * tl, guint lane,
    gsize * n);

G_END_DECLS
