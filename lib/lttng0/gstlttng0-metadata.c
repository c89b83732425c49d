/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng 0.x markers: the metadata channel, read when the trace is opened.
 *
 * The `metadata_N` tracefiles hold two kinds of events, with fixed ids
 * (LTTV `ltt_process_metadata_tracefile()`): 0 `core_marker_id` (channel,
 * marker name, the marker's 16-bit event id in its channel, the sizes of
 * int, long, pointer and size_t, the alignment) and 1
 * `core_marker_format` (channel, marker name, format string).  Their own
 * layouts are given by the format strings below (the tracer describes
 * them with these same strings in the trace).  Ids are per channel; a
 * marker is usable once both events are read and its format parses.
 * Problems inside a metadata sub-buffer are left for the packetizer to
 * report (it reads the same events again to write them out).
 */
#include "gstlttng0-private.h"

static const gchar core_id_format[] =
    "channel %s name %s event_id %hu int #1u%zu long #1u%zu pointer #1u%zu "
    "size_t #1u%zu alignment #1u%u";
static const gchar core_format_format[] = "channel %s name %s format %s";

static Lttng0Marker *
core_marker (const GstCtfLttng0Trace * t, guint id)
{
  Lttng0Marker *m = g_new0 (Lttng0Marker, 1);

  m->channel = g_strdup ("metadata");
  m->name = g_strdup (id == LTTNG0_CORE_MARKER_ID ? "core_marker_id" :
      "core_marker_format");
  m->id = id;
  m->int_size = 4;
  m->long_size = m->pointer_size = m->size_t_size =
      t->arch_size == 8 ? 8 : 4;
  m->alignment = t->alignment;
  m->format = g_strdup (id == LTTNG0_CORE_MARKER_ID ? core_id_format :
      core_format_format);
  /* these formats parse */
  _gst_ctf_lttng0_marker_parse (m, t->minor, NULL);
  return m;
}

/**
 * _gst_ctf_lttng0_core_marker:
 * @t: a trace
 * @id: %LTTNG0_CORE_MARKER_ID or %LTTNG0_CORE_MARKER_FORMAT
 *
 * Returns: (transfer none): the metadata channel's marker
 */
const Lttng0Marker *
_gst_ctf_lttng0_core_marker (const GstCtfLttng0Trace * t, guint id)
{
  Lttng0Channel *ch = g_ptr_array_index (t->channels, 0);

  return g_hash_table_lookup (ch->markers, GUINT_TO_POINTER (id));
}

static Lttng0Channel *
find_channel (GstCtfLttng0Trace * t, const gchar * name)
{
  guint i;

  for (i = 0; i < t->channels->len; i++) {
    Lttng0Channel *ch = g_ptr_array_index (t->channels, i);
    if (strcmp (ch->name, name) == 0)
      return ch;
  }
  return NULL;
}

static void
marker_id_event (GstCtfLttng0Trace * t, const Lttng0Value * v,
    const Lttng0Cursor * c, guint32 at)
{
  Lttng0Channel *ch = find_channel (t, v[0].s);
  Lttng0Marker *m;
  guint id = (guint) v[2].u;

  /* the metadata channel's own markers are built in; a channel without
   * tracefiles has no events to describe */
  if (!ch || ch == g_ptr_array_index (t->channels, 0))
    return;
  m = g_hash_table_lookup (ch->markers, GUINT_TO_POINTER (id));
  if (m) {
    if (strcmp (m->name, v[1].s) != 0)
      _gst_ctf_lttng0_trace_warn (t, "Event id described twice, the first "
          "description kept: file=\"%s\", offset=%" G_GUINT64_FORMAT
          ", channel=\"%s\", id=%u, first=\"%s\", then=\"%s\"", c->tf->path,
          c->sb->offset + at, ch->name, id, m->name, v[1].s);
    return;
  }
  m = g_new0 (Lttng0Marker, 1);
  m->channel = g_strdup (ch->name);
  m->name = g_strndup (v[1].s, v[1].len);
  m->id = (guint16) id;
  m->int_size = (guint8) v[3].u;
  m->long_size = (guint8) v[4].u;
  m->pointer_size = (guint8) v[5].u;
  m->size_t_size = (guint8) v[6].u;
  m->alignment = (guint8) v[7].u;
  g_hash_table_insert (ch->markers, GUINT_TO_POINTER (id), m);
}

static void
marker_format_event (GstCtfLttng0Trace * t, GHashTable * formats,
    const Lttng0Value * v, const Lttng0Cursor * c, guint32 at)
{
  gchar *key = g_strdup_printf ("%s.%s", v[0].s, v[1].s);
  const gchar *old = g_hash_table_lookup (formats, key);

  if (old) {
    if (strcmp (old, v[2].s) != 0)
      _gst_ctf_lttng0_trace_warn (t, "Marker format given twice, the first "
          "kept: file=\"%s\", offset=%" G_GUINT64_FORMAT ", marker=\"%s\", "
          "first=\"%s\", then=\"%s\"", c->tf->path, c->sb->offset + at, key,
          old, v[2].s);
    g_free (key);
    return;
  }
  g_hash_table_insert (formats, key, g_strndup (v[2].s, v[2].len));
}

/* Reads one metadata sub-buffer's markers; stops at the first problem. */
static void
read_subbuf (GstCtfLttng0Trace * t, GHashTable * formats,
    const Lttng0Tracefile * tf, const Lttng0SubBuf * sb)
{
  const Lttng0Marker *core[2] = {
    _gst_ctf_lttng0_core_marker (t, LTTNG0_CORE_MARKER_ID),
    _gst_ctf_lttng0_core_marker (t, LTTNG0_CORE_MARKER_FORMAT)
  };
  Lttng0Value v[8];
  Lttng0Cursor c;
  Lttng0EventHeader h;

  _gst_ctf_lttng0_cursor_init (&c, tf, sb);
  while (_gst_ctf_lttng0_cursor_next (t, &c, &h, NULL) > 0) {
    guint32 end;

    if (h.id > LTTNG0_CORE_MARKER_FORMAT) {
      if (h.size < 0)
        return;
      c.pos = (guint32) MIN ((guint64) h.payload + (guint64) h.size,
          (guint64) sb->data_end);
      continue;
    }
    if (_gst_ctf_lttng0_marker_decode (t, core[h.id], &c, h.payload, v,
            &end, NULL) < 0)
      return;
    if (h.id == LTTNG0_CORE_MARKER_ID)
      marker_id_event (t, v, &c, h.offset);
    else
      marker_format_event (t, formats, v, &c, h.offset);
    c.pos = end;
  }
}

/**
 * _gst_ctf_lttng0_read_metadata:
 * @t: a trace whose tracefiles are indexed
 * @error: unused (problems are warnings)
 *
 * Reads every marker of the metadata channel and parses their formats.
 *
 * Returns: %TRUE
 */
gboolean
_gst_ctf_lttng0_read_metadata (GstCtfLttng0Trace * t, GError ** error)
{
  Lttng0Channel *meta = g_ptr_array_index (t->channels, 0);
  GHashTable *formats = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  guint i, j;

  g_hash_table_insert (meta->markers,
      GUINT_TO_POINTER (LTTNG0_CORE_MARKER_ID),
      core_marker (t, LTTNG0_CORE_MARKER_ID));
  g_hash_table_insert (meta->markers,
      GUINT_TO_POINTER (LTTNG0_CORE_MARKER_FORMAT),
      core_marker (t, LTTNG0_CORE_MARKER_FORMAT));
  for (i = 0; i < meta->tracefiles->len; i++) {
    const Lttng0Tracefile *tf = g_ptr_array_index (meta->tracefiles, i);

    for (j = 0; j < tf->n_subbufs; j++)
      read_subbuf (t, formats, tf, &tf->subbufs[j]);
  }

  for (i = 1; i < t->channels->len; i++) {
    Lttng0Channel *ch = g_ptr_array_index (t->channels, i);
    GHashTableIter it;
    gpointer val;

    g_hash_table_iter_init (&it, ch->markers);
    while (g_hash_table_iter_next (&it, NULL, &val)) {
      Lttng0Marker *m = val;
      gchar *key = g_strdup_printf ("%s.%s", m->channel, m->name);
      const gchar *f = g_hash_table_lookup (formats, key);
      GError *err = NULL;

      g_free (key);
      if (!f) {
        _gst_ctf_lttng0_trace_warn (t, "Marker without a format, its events "
            "are left out: marker=\"%s.%s\", id=%u", m->channel, m->name,
            m->id);
        continue;
      }
      m->format = g_strdup (f);
      if (!_gst_ctf_lttng0_marker_parse (m, t->minor, &err)) {
        _gst_ctf_lttng0_trace_warn (t, "%s; its events are left out",
            err->message);
        g_error_free (err);
      }
    }
  }
  g_hash_table_unref (formats);
  return TRUE;
}
