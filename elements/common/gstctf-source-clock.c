/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sources' clock options (gstctf-source-clock.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-source-clock.h"

#include "gstctf-caps.h"
#include "gstctf-json-writer.h"

#define NS_PER_S G_GINT64_CONSTANT (1000000000)

enum
{
  REL_CLOCK_OFFSET,
  REL_CLOCK_OFFSET_NS,
  REL_FORCE_UNIX_EPOCH,
  REL_TRACE_NAME,
};

void
gst_ctf_source_clock_install (GObjectClass * klass, guint first_prop_id)
{
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  g_object_class_install_property (klass, first_prop_id + REL_CLOCK_OFFSET,
      g_param_spec_int64 ("clock-offset", "Clock offset (s)",
          "Seconds added to the offset of every clock of the trace class "
          "this source produces, so every time moves, in the caps' "
          "metadata (ctfsink writes the moved clock) and the buffers' PTS "
          "(babeltrace2 --clock-offset, source.ctf.fs clock-class-offset-s)",
          G_MININT32, G_MAXINT32, 0, flags));
  g_object_class_install_property (klass,
      first_prop_id + REL_CLOCK_OFFSET_NS,
      g_param_spec_int64 ("clock-offset-ns", "Clock offset (ns)",
          "Nanoseconds added to the offset of every clock of the trace "
          "class, with clock-offset (babeltrace2 --clock-offset-ns, "
          "source.ctf.fs clock-class-offset-ns)", G_MININT64 / 2,
          G_MAXINT64 / 2, 0, flags));
  g_object_class_install_property (klass,
      first_prop_id + REL_FORCE_UNIX_EPOCH,
      g_param_spec_boolean ("force-clock-class-origin-unix-epoch",
          "Force Unix epoch origin",
          "Make the origin of every clock of the trace class the Unix "
          "epoch, so traces whose clocks are not known to be correlated "
          "can be merged (babeltrace2 --clock-force-correlate, "
          "source.ctf.fs force-clock-class-origin-unix-epoch)", FALSE,
          flags));
  g_object_class_install_property (klass, first_prop_id + REL_TRACE_NAME,
      g_param_spec_string ("trace-name", "Trace name",
          "The trace's name (ctftextsink fields=trace) instead of its path: "
          "HOSTNAME/NAME when the trace has a `hostname` env entry, else "
          "NAME (source.ctf.fs trace-name; default: none, the source's "
          "own name)", NULL, flags));
}

gboolean
gst_ctf_source_clock_set_property (GstCtfSourceClock * sc, guint rel_id,
    const GValue * value)
{
  switch (rel_id) {
    case REL_CLOCK_OFFSET:
      sc->offset_s = g_value_get_int64 (value);
      return TRUE;
    case REL_CLOCK_OFFSET_NS:
      sc->offset_ns = g_value_get_int64 (value);
      return TRUE;
    case REL_FORCE_UNIX_EPOCH:
      sc->force_unix_epoch = g_value_get_boolean (value);
      return TRUE;
    case REL_TRACE_NAME:
      g_free (sc->trace_name);
      sc->trace_name = g_value_dup_string (value);
      return TRUE;
    default:
      return FALSE;
  }
}

gboolean
gst_ctf_source_clock_get_property (const GstCtfSourceClock * sc,
    guint rel_id, GValue * value)
{
  switch (rel_id) {
    case REL_CLOCK_OFFSET:
      g_value_set_int64 (value, sc->offset_s);
      return TRUE;
    case REL_CLOCK_OFFSET_NS:
      g_value_set_int64 (value, sc->offset_ns);
      return TRUE;
    case REL_FORCE_UNIX_EPOCH:
      g_value_set_boolean (value, sc->force_unix_epoch);
      return TRUE;
    case REL_TRACE_NAME:
      g_value_set_string (value, sc->trace_name);
      return TRUE;
    default:
      return FALSE;
  }
}

void
gst_ctf_source_clock_copy (GstCtfSourceClock * dst,
    const GstCtfSourceClock * src)
{
  gchar *name = g_strdup (src->trace_name);

  g_free (dst->trace_name);
  *dst = *src;
  dst->trace_name = name;
}

void
gst_ctf_source_clock_clear (GstCtfSourceClock * sc)
{
  g_clear_pointer (&sc->trace_name, g_free);
}

gboolean
gst_ctf_source_clock_moves (const GstCtfSourceClock * sc)
{
  return sc->offset_s != 0 || sc->offset_ns != 0 || sc->force_unix_epoch;
}

gint64
gst_ctf_source_clock_shift_ns (const GstCtfSourceClock * sc)
{
  gint64 s;

  /* (clock-offset is within ±2^31 s, clock-offset-ns within ±2^62: this
   * saturates only beyond ±292 years) */
  if (__builtin_mul_overflow (sc->offset_s, NS_PER_S, &s) ||
      __builtin_add_overflow (s, sc->offset_ns, &s))
    return (sc->offset_s < 0) ? G_MININT64 : G_MAXINT64;
  return s;
}

GstClockTime
gst_ctf_source_clock_shift_pts (const GstCtfSourceClock * sc,
    GstClockTime pts)
{
  gint64 shift = gst_ctf_source_clock_shift_ns (sc), t;

  if (!GST_CLOCK_TIME_IS_VALID (pts) || shift == 0)
    return pts;
  if (pts > (GstClockTime) G_MAXINT64 ||
      __builtin_add_overflow ((gint64) pts, shift, &t))
    return shift < 0 ? 0 : (GstClockTime) G_MAXINT64;
  return t < 0 ? 0 : (GstClockTime) t;
}

gchar *
gst_ctf_source_clock_apply_metadata (const GstCtfSourceClock * sc,
    const gchar * metadata, const gchar * origin, GError ** error)
{
  if (!gst_ctf_source_clock_moves (sc))
    return g_strdup (metadata);
  return gst_ctf_metadata_move_clocks (metadata, sc->offset_s,
      sc->offset_ns, sc->force_unix_epoch, origin, error);
}

gboolean
gst_ctf_source_clock_apply (const GstCtfSourceClock * sc, GstCaps ** caps,
    const gchar * hostname, const gchar * origin, GError ** error)
{
  if (gst_ctf_source_clock_moves (sc)) {
    const gchar *text = gst_ctf_caps_get_metadata (*caps);
    gchar *moved;

    if (text == NULL)
      return TRUE;
    moved = gst_ctf_source_clock_apply_metadata (sc, text, origin, error);
    if (moved == NULL)
      return FALSE;
    *caps = gst_caps_make_writable (*caps);
    gst_structure_set (gst_caps_get_structure (*caps, 0), "metadata",
        G_TYPE_STRING, moved, NULL);
    g_free (moved);
  }
  if (sc->trace_name != NULL) {
    /* babeltrace2 (src.ctf.fs set_trace_name()): the `hostname` env
     * entry, a slash, then the name given */
    gchar *name = hostname ? g_strconcat (hostname, "/", sc->trace_name,
        NULL) : g_strdup (sc->trace_name);

    *caps = gst_caps_make_writable (*caps);
    gst_ctf_caps_set_trace_name (*caps, name);
    g_free (name);
  }
  return TRUE;
}

const gchar *
gst_ctf_source_clock_hostname (const GstCtfTraceClass * tc)
{
  const GstCtfEnvEntry *e = tc ? gst_ctf_trace_class_find_env (tc,
      "hostname") : NULL;

  return e && e->is_string ? e->str : NULL;
}
