/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The side stream of a trace made from a trace.dat file: the stream class
 * whose events describe the trace (the file's header and options, the
 * ftrace event formats, saved cmdlines, kallsyms, printk formats) rather
 * than happen in it (docs/tracecmdsrc.md).  Recognised by its metadata
 * alone, so that a CTF copy written by ctfsink and read back by ctfsrc is
 * recognised as the trace.dat itself is.
 */
#include "gsttracecmd.h"

#include <string.h>

/**
 * gst_ctf_trace_dat_is_side_stream_class: (skip)
 * @sc: a stream class
 *
 * Whether @sc is the side stream class of a trace made from a trace.dat
 * file (by tracecmdsrc, or a CTF copy of its output): it has the event
 * class `tracecmd_event_format`, and the names of all its event classes
 * start with `tracecmd_`.
 *
 * Event-level consumers (ctftextsink, ctfstatssink, #GstCtfEventReader,
 * ctffilter's counts) leave its events out unless asked for them (their
 * `side-stream` property): `trace-cmd report` shows none of them.  Filters
 * and writers pass its packets whole, so that nothing in the file is lost.
 *
 * Returns: %TRUE for the side stream class
 */
gboolean
gst_ctf_trace_dat_is_side_stream_class (const GstCtfStreamClass * sc)
{
  gboolean has_formats = FALSE;
  guint i;

  g_return_val_if_fail (sc != NULL, FALSE);
  if (sc->event_classes == NULL)
    return FALSE;
  for (i = 0; i < sc->event_classes->len; i++) {
    const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, i);

    if (ec->name == NULL || strncmp (ec->name, "tracecmd_", 9) != 0)
      return FALSE;
    if (strcmp (ec->name + 9, "event_format") == 0)
      has_formats = TRUE;
  }
  return has_formats;
}

/**
 * gst_ctf_trace_dat_find_side_stream_class: (skip)
 * @tc: a trace class
 *
 * Returns: (transfer none) (nullable): the side stream class of @tc (see
 *   gst_ctf_trace_dat_is_side_stream_class()), %NULL when it has none
 */
const GstCtfStreamClass *
gst_ctf_trace_dat_find_side_stream_class (const GstCtfTraceClass * tc)
{
  guint i;

  g_return_val_if_fail (tc != NULL, NULL);
  for (i = 0; tc->stream_classes && i < tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    if (gst_ctf_trace_dat_is_side_stream_class (sc))
      return sc;
  }
  return NULL;
}
