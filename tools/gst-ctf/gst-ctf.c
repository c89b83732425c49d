/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: babeltrace2's and trace-cmd's command lines on gst-ctf's
 * elements (docs/gst-ctf.1.scd).
 *
 *   gst-ctf [convert] [OPTIONS] INPUT...   as babeltrace2 [convert]
 *   gst-ctf report [OPTIONS] [trace.dat]   as trace-cmd report
 *   gst-ctf list net://RELAY[:PORT]        as babeltrace2 -i lttng-live
 */
#include <string.h>
#include <locale.h>
#include "gst-ctf-commands.h"
#include "gst-ctf-error.h"

gint
gst_ctf_cli_list_command (gint argc, gchar ** argv)
{
  if (argc != 2 || argv[1][0] == '-') {
    gst_ctf_cli_print_error ("Usage: gst-ctf list net://RELAY[:PORT]",
        NULL);
    return 1;
  }
  return gst_ctf_cli_list (argv[1]);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  if (argc >= 2 && strcmp (argv[1], "report") == 0)
    return gst_ctf_cli_report (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "list") == 0)
    return gst_ctf_cli_list_command (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "convert") == 0) {
    /* keep argv[0] for the messages */
    argv[1] = argv[0];
    return gst_ctf_cli_convert (argc - 1, argv + 1);
  }
  return gst_ctf_cli_convert (argc, argv);
}
