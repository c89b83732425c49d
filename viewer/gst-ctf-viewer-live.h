/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-ctf-viewer on live sessions (net://): Open URL, following. */
#pragma once

#include <gtk/gtk.h>
#include "gstctfgtk.h"

G_BEGIN_DECLS

typedef struct _ViewerLive ViewerLive;

/* Opens a trace or a URL (the viewer's open_trace()). */
typedef void (*ViewerLiveOpenFunc) (gpointer data, const gchar * path);

ViewerLive *viewer_live_new (GtkWindow * window, GstCtfGtkTimeline *
    timeline, ViewerLiveOpenFunc open, gpointer data);
void viewer_live_free (ViewerLive * live);
/* The "Open URL" button (for the header bar). */
GtkWidget *viewer_live_get_open_button (ViewerLive * live);
/* The "Follow" toggle (shown while a live session runs). */
GtkWidget *viewer_live_get_follow_button (ViewerLive * live);
void viewer_live_set_model (ViewerLive * live, GstCtfGtkEventModel * model);
gboolean viewer_live_is_url (const gchar * path);
gboolean viewer_live_parse_seek (const gchar * text,
    GstCtfGtkLiveSeek * seek, GError ** error);
void viewer_live_set_seek (ViewerLive * live, GstCtfGtkLiveSeek seek);
/* (transfer full) (nullable) */
GstCtfGtkEventModel *viewer_live_open (ViewerLive * live, const gchar * path,
    GError ** error);
gboolean viewer_live_get_following (ViewerLive * live);
/* (transfer full) (nullable): the status line of a live model, NULL for
 * a trace on disk */
gchar *viewer_live_status (ViewerLive * live);

G_END_DECLS
