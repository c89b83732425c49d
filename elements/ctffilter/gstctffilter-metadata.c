/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: ctffilter's reduced metadata (#GstCtfFilter:reduce-metadata):
 * the trace's metadata without the event classes the filter can never
 * keep, written again as TSDL.  The event classes left keep their ids, so
 * the packets (passed untouched or re-encoded) need no change.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstctffilter-private.h"
#include "gstctf-metadata.h"
#include "gstctf-tsdl-writer.h"

gchar *
_gst_ctf_filter_reduced_metadata (const gchar * text,
    GstCtfFilterKeepFunc keep, gpointer data, guint * n_removed,
    GError ** error)
{
  GstCtfTraceClass *tc;
  gchar *out;
  guint i, removed = 0;
  gboolean systems = FALSE;

  tc = gst_ctf_metadata_parse (text, "caps", error);
  if (tc == NULL)
    return NULL;
  if (tc->major >= 2) {
    /* passed whole: the TSDL writer does not write every CTF 2 field
     * class, and CTF 2 is not written yet */
    gst_ctf_trace_class_unref (tc);
    if (n_removed)
      *n_removed = 0;
    return g_strdup (text);
  }
  for (i = 0; i < tc->stream_classes->len && !systems; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);
    guint j;

    for (j = 0; j < sc->event_classes->len; j++)
      if (strcmp (((GstCtfEventClass *) g_ptr_array_index
                  (sc->event_classes, j))->name, "tracecmd_event_format") == 0)
        systems = TRUE;
  }
  for (i = 0; i < tc->stream_classes->len; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);
    guint j = 0;

    while (j < sc->event_classes->len) {
      GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      if (keep (data, sc, ec, systems)) {
        j++;
        continue;
      }
      g_hash_table_remove (sc->event_class_by_id, &ec->id);
      g_ptr_array_remove_index (sc->event_classes, j);
      removed++;
    }
  }
  out = gst_ctf_tsdl_write (tc, error);
  gst_ctf_trace_class_unref (tc);
  if (n_removed)
    *n_removed = removed;
  return out;
}
