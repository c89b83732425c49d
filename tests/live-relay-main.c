/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-live-relay [--never-end] [--hold-after N] DIR [HOST SESSION]: the
 * tests' LTTng live relay (live-relay.c) as a program, for tests that run
 * other processes (the GTK viewer, gst-launch-1.0) and by hand: serves the
 * traces below DIR on 127.0.0.1, prints the port on stdout, and stops when
 * its stdin closes.  --never-end: the session is never destroyed (beacons after the
 * last packets, TestRelayOptions.never_end); --hold-after N: RETRY to
 * every index once N packets went (TestRelayOptions.hold_after).
 */
#include <stdio.h>
#include <unistd.h>

#include "live-relay.h"

int
main (int argc, char **argv)
{
  TestRelayOptions o = { 0 };
  GError *err = NULL;
  TestRelay *r;
  gchar buf[256];

  if (argc > 1 && g_strcmp0 (argv[1], "--never-end") == 0) {
    o.never_end = TRUE;
    argv++;
    argc--;
  }
  if (argc > 2 && g_strcmp0 (argv[1], "--hold-after") == 0) {
    o.hold_after = (guint) g_ascii_strtoull (argv[2], NULL, 10);
    argv += 2;
    argc -= 2;
  }
  if (argc != 2 && argc != 4) {
    fprintf (stderr, "usage: test-live-relay [--never-end] [--hold-after N] "
        "DIR [HOST SESSION]\n");
    return 2;
  }
  o.dir = argv[1];
  if (argc == 4) {
    o.hostname = argv[2];
    o.session_name = argv[3];
  }
  o.beacons = TRUE;
  r = test_relay_start (&o, &err);
  if (r == NULL) {
    fprintf (stderr, "test-live-relay: %s\n", err->message);
    g_error_free (err);
    return 1;
  }
  printf ("%u\n", test_relay_get_port (r));
  fflush (stdout);
  while (read (0, buf, sizeof buf) > 0);
  test_relay_stop (r);
  return 0;
}
