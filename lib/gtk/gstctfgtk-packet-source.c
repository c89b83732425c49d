/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkPacketSource: the model's names for the library's
 * GstCtfPacketSource (gstctf-packet-source.h), which opens every input
 * and reads it in its source element's order (gstctfgtk-packet-source.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfgtk-packet-source.h"

GstCtfGtkPacketSource *
_gst_ctf_gtk_packet_source_open (const gchar * path, GError ** error)
{
  /* the side stream of synthetic tracecmd_* events is left out: the rows
   * are the records `trace-cmd report` prints */
  return gst_ctf_packet_source_open (path,
      GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM, error);
}
