/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include "gstctf-version.h"

G_BEGIN_DECLS

/**
 * GST_CTF_ERROR:
 *
 * The error domain of libgstctf-1.0.  Codes are #GstCtfError.
 */
#define GST_CTF_ERROR (gst_ctf_error_quark ())
GST_CTF_API GQuark gst_ctf_error_quark (void);

/**
 * GstCtfError:
 * @GST_CTF_ERROR_IO: a file could not be opened or read (message names it)
 * @GST_CTF_ERROR_METADATA_SYNTAX: TSDL text does not follow the CTF 1.8
 *   grammar; the message gives line and column
 * @GST_CTF_ERROR_METADATA_INVALID: TSDL is well-formed but says something
 *   impossible or unsupported (unknown type, bad variant tag, integer > 64
 *   bits, unknown clock, ...)
 * @GST_CTF_ERROR_METADATA_PACKET: a packetized metadata packet is corrupt
 * @GST_CTF_ERROR_CTF2: no longer set: CTF 2 is read (kept so that the
 *   codes after it keep their values)
 * @GST_CTF_ERROR_PACKET: a data packet is corrupt or truncated (the
 *   message gives the offset and what was expected)
 * @GST_CTF_ERROR_UNKNOWN_EVENT_CLASS: an event refers to an event class id
 *   the metadata does not declare
 * @GST_CTF_ERROR_UNKNOWN_STREAM_CLASS: a packet refers to an undeclared
 *   stream class id
 * @GST_CTF_ERROR_INDEX: an LTTng index file is invalid
 * @GST_CTF_ERROR_NO_TRACE: no CTF trace under a directory
 * @GST_CTF_ERROR_SEVERAL_TRACES: several traces under a directory where
 *   one was expected
 * @GST_CTF_ERROR_CLOCK: a clock value cannot be converted (overflow)
 * @GST_CTF_ERROR_TRACEDAT: a trace-cmd trace.dat file is invalid,
 *   truncated or uses an unsupported feature (the message names the file,
 *   the byte offset and what was expected)
 * @GST_CTF_ERROR_TIME_FORMAT: a time bound given as text (babeltrace2
 *   `--begin`/`--end` forms) cannot be parsed or does not give a valid
 *   time (added for timefilter)
 * @GST_CTF_ERROR_FILTER_SYNTAX: an event filter given as text (trace-cmd
 *   `-F` expression, event name list, CPU or id list) cannot be parsed;
 *   the message gives the column and what was expected (added for
 *   ctffilter)
 * @GST_CTF_ERROR_LTTNG0: an LTTng 0.x trace (LTT format 2.3 to 2.6) is
 *   invalid, truncated or of an unsupported format version (the message
 *   names the file, the byte offset and what was expected)
 * @GST_CTF_ERROR_LIVE: an LTTng live relay (lttng-relayd viewer port)
 *   could not be reached, closed the connection, refused a request or
 *   sent a reply that breaks the protocol (the message names the relay
 *   and the command; added for lttnglivesrc)
 *
 * Error codes of %GST_CTF_ERROR.
 */
typedef enum {
  GST_CTF_ERROR_IO,
  GST_CTF_ERROR_METADATA_SYNTAX,
  GST_CTF_ERROR_METADATA_INVALID,
  GST_CTF_ERROR_METADATA_PACKET,
  GST_CTF_ERROR_CTF2,
  GST_CTF_ERROR_PACKET,
  GST_CTF_ERROR_UNKNOWN_EVENT_CLASS,
  GST_CTF_ERROR_UNKNOWN_STREAM_CLASS,
  GST_CTF_ERROR_INDEX,
  GST_CTF_ERROR_NO_TRACE,
  GST_CTF_ERROR_SEVERAL_TRACES,
  GST_CTF_ERROR_CLOCK,
  GST_CTF_ERROR_TRACEDAT,
  GST_CTF_ERROR_TIME_FORMAT,
  GST_CTF_ERROR_FILTER_SYNTAX,
  GST_CTF_ERROR_LTTNG0,
  GST_CTF_ERROR_LIVE,
} GstCtfError;

G_END_DECLS
