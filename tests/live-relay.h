/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small LTTng live relay for the tests: serves the traces below a
 * directory over lttng-relayd's viewer protocol on 127.0.0.1 (a port it
 * picks), as one live session that is destroyed once every stream has been
 * read to its end.  Scripted quirks exercise the viewer.
 */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const gchar *dir;             /* traces at or below it */
  const gchar *hostname;        /* the traced host's name */
  const gchar *session_name;
  guint32 minor;                /* the relay's protocol minor (4, 13, 15) */
  guint metadata_chunk;         /* bytes per GET_METADATA reply, 0: all */
  guint retry_runs;             /* RETRY replies before each index */
  gboolean beacons;             /* INACTIVE (quiet until just before the
                                 * next packet) before each index */
  gboolean late_streams;        /* only the first data stream of a trace at
                                 * attach; the others with NEW_STREAM */
  guint late_after;             /* with late_streams: the late ones only
                                 * once this many GET_PACKET replies went */
  gboolean empty_new_streams;   /* relayd 2.13: OK with 0 streams, not NO_NEW */
  guint32 attach_status;        /* 0: OK; else this ATTACH status */
  guint32 live_timer;           /* µs; 0 means 100000 */
  gboolean session_per_trace;   /* one relay session per trace, all with
                                 * the same host and session names (as
                                 * lttng-relayd shows each domain and
                                 * bitness of a session) */
  guint close_after;            /* close each connection after this many
                                 * GET_PACKET replies (0: never) */
  gboolean never_end;           /* after a stream's last packet, INACTIVE
                                 * beacons past every packet of its trace
                                 * instead of HUP: the session runs on */
  gboolean stall_at_end;        /* after a stream's last packet, RETRY
                                 * forever (its next packet never comes) */
  guint hold_after;             /* RETRY to every index once this many
                                 * GET_PACKET replies went (0: never) */
} TestRelayOptions;

typedef struct _TestRelay TestRelay;

TestRelay *test_relay_start (const TestRelayOptions * opts, GError ** error);
guint16 test_relay_get_port (TestRelay * r);
/* Whether the session has been destroyed (every stream read to its end). */
gboolean test_relay_session_destroyed (TestRelay * r);
void test_relay_stop (TestRelay * r);

G_END_DECLS
