/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf list net://RELAY[:PORT]: the relay's sessions, one line each,
 * as `babeltrace2 -i lttng-live net://RELAY` prints them (babeltrace2
 * adds up the relay sessions of one tracing session, one per domain).
 */
#include <stdio.h>
#include <string.h>
#include "gstctf-live.h"
#include "gst-ctf-commands.h"
#include "gst-ctf-error.h"

static gboolean
same_session (GstCtfLiveSession * a, GstCtfLiveSession * b)
{
  return strcmp (a->hostname, b->hostname) == 0 &&
      strcmp (a->session_name, b->session_name) == 0;
}

gint
gst_ctf_cli_list (const gchar * url)
{
  GError *error = NULL;
  GPtrArray *sessions;
  gchar *host = NULL;
  guint16 port = 0;
  guint i, j;

  if (!gst_ctf_live_parse_url (url, &host, &port, NULL, NULL, &error))
    return gst_ctf_cli_fail (error);
  sessions = gst_ctf_live_list_sessions (url, 10000, NULL, &error);
  if (sessions == NULL) {
    g_free (host);
    return gst_ctf_cli_fail (error);
  }
  for (i = 0; i < sessions->len; i++) {
    GstCtfLiveSession *s = g_ptr_array_index (sessions, i);
    guint64 streams = s->streams;
    guint32 clients = s->clients, timer = s->live_timer;
    gboolean seen = FALSE;

    for (j = 0; j < i && !seen; j++)
      seen = same_session (g_ptr_array_index (sessions, j), s);
    if (seen)
      continue;
    for (j = i + 1; j < sessions->len; j++) {
      GstCtfLiveSession *o = g_ptr_array_index (sessions, j);

      if (same_session (o, s)) {
        streams += o->streams;
        clients = MAX (clients, o->clients);
        timer = MAX (timer, o->live_timer);
      }
    }
    printf ("net://%s:%u/host/%s/%s (timer = %u, %" G_GUINT64_FORMAT
        " stream(s), %u client(s) connected)\n", host, port, s->hostname,
        s->session_name, timer, streams, clients);
  }
  fflush (stdout);
  g_free (host);
  g_ptr_array_unref (sessions);
  return 0;
}
