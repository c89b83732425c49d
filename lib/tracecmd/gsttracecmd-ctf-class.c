/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CTF side of a trace.dat's conversion (TdCtfClass, in
 * gsttracecmd-private.h), built once per file, flags and clock offset and
 * shared by the packetizers on it.  The GTK model alone has four on one
 * file (its index, its table, deep zoom, a filter or search): each used
 * to build the same 8 MB again.  An entry lives while a packetizer uses
 * it; the file's GstCtfTraceDat outlives it, since each packetizer holds
 * a reference on both.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttracecmd-private.h"

/* the flags that change the trace class; the others change reading */
#define CLASS_FLAGS (GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT | \
    GST_CTF_TRACE_DAT_PACKETIZER_NO_FILE_STREAM)

static GMutex lock;
static GSList *classes;         /* TdCtfClass * in use (a handful) */

static void
ctf_class_free (TdCtfClass * c)
{
  guint i;

  for (i = 0; i < c->n_ec_tables; i++)
    g_free (c->ec_tables[i]);
  g_free (c->ec_tables);
  _gst_ctf_trace_dat_plans_free (c->plans);
  if (c->layouts) {
    for (i = 0; i < 65536; i++)
      _gst_ctf_trace_dat_lttng_layout_free (c->layouts[i]);
    g_free (c->layouts);
  }
  g_free (c->tsdl);
  if (c->tc)
    gst_ctf_trace_class_unref (c->tc);
  if (c->build_tc)
    gst_ctf_trace_class_unref (c->build_tc);
  g_ptr_array_unref (c->keep);
  g_free (c);
}

/* A reference on the class of (@td, @flags, @clock_offset_ns): the one in
 * use, or a new one built outside the lock (two first users at once build
 * two, both correct). */
TdCtfClass *
_gst_ctf_trace_dat_ctf_class_get (GstCtfTraceDat * td, guint flags,
    gint64 clock_offset_ns, GError ** error)
{
  TdCtfClass *c = NULL;
  GSList *l;

  flags &= CLASS_FLAGS;
  g_mutex_lock (&lock);
  for (l = classes; l != NULL; l = l->next) {
    TdCtfClass *e = l->data;

    if (e->td == td && e->flags == flags
        && e->clock_offset_ns == clock_offset_ns) {
      e->ref_count++;
      c = e;
      break;
    }
  }
  g_mutex_unlock (&lock);
  if (c != NULL)
    return c;

  c = g_new0 (TdCtfClass, 1);
  c->ref_count = 1;
  c->td = td;
  c->flags = flags;
  c->clock_offset_ns = clock_offset_ns;
  c->keep = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_trace_class_unref);
  if (!_gst_ctf_trace_dat_ctf_class_build (c, error)) {
    ctf_class_free (c);
    return NULL;
  }
  g_mutex_lock (&lock);
  classes = g_slist_prepend (classes, c);
  g_mutex_unlock (&lock);
  return c;
}

void
_gst_ctf_trace_dat_ctf_class_unref (TdCtfClass * c)
{
  gboolean last;

  if (c == NULL)
    return;
  g_mutex_lock (&lock);
  last = --c->ref_count == 0;
  if (last)
    classes = g_slist_remove (classes, c);
  g_mutex_unlock (&lock);
  if (last)
    ctf_class_free (c);
}
