/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkPacketSource: the packets of a CTF trace (or several), a
 * trace.dat file or an LTTng 0.x trace, in their source element's order
 * (gstctfgtk-packet-source.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctf-trace-source.h"
#include "gsttracecmd-packetizer.h"
#include "gstlttng0-packetizer.h"
#include "gstctfgtk-packet-source.h"

struct _GstCtfGtkPacketSource {
  gchar *path;
  GstCtfTraceSource *ctf;               /* CTF traces, or */
  GstCtfTraceDat *dat;                  /* a trace.dat file, or */
  GstCtfTraceDatPacketizer *pk;
  GstCtfLttng0Trace *l0;                /* an LTTng 0.x trace */
  GstCtfLttng0Packetizer *l0pk;
  GstCtfTraceClass *tc;
};

/* An LTTng 0.x trace directory holds `metadata_N` tracefiles and no CTF
 * `metadata` file. */
static gboolean
is_lttng0_dir (const gchar * path)
{
  GDir *d;
  const gchar *name;
  gboolean found = FALSE;
  gchar *meta;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return FALSE;
  meta = g_build_filename (path, "metadata", NULL);
  if (g_file_test (meta, G_FILE_TEST_EXISTS)) {
    g_free (meta);
    return FALSE;
  }
  g_free (meta);
  d = g_dir_open (path, 0, NULL);
  if (d == NULL)
    return FALSE;
  while (!found && (name = g_dir_read_name (d)) != NULL)
    found = g_str_has_prefix (name, "metadata_");
  g_dir_close (d);
  return found;
}

static gboolean
open_dat (GstCtfGtkPacketSource * s, GError ** error)
{
  /* strict: a corrupt page is an error, not a page left out (a model has
   * no warning channel: nothing may look complete when it is not); the
   * side stream of synthetic tracecmd_* events is left out: the rows are
   * the records `trace-cmd report` prints */
  g_clear_pointer (&s->pk, gst_ctf_trace_dat_packetizer_free);
  s->pk = gst_ctf_trace_dat_packetizer_new (s->dat,
      GST_CTF_TRACE_DAT_PACKETIZER_STRICT |
      GST_CTF_TRACE_DAT_PACKETIZER_NO_FILE_STREAM, 0, error);
  return s->pk != NULL;
}

static gboolean
open_lttng0 (GstCtfGtkPacketSource * s, GError ** error)
{
  g_clear_pointer (&s->l0pk, gst_ctf_lttng0_packetizer_free);
  s->l0pk = gst_ctf_lttng0_packetizer_new (s->l0, error);
  return s->l0pk != NULL;
}

GstCtfGtkPacketSource *
_gst_ctf_gtk_packet_source_open (const gchar * path, GError ** error)
{
  GstCtfGtkPacketSource *s;
  gchar *base;
  gboolean is_dat;

  g_return_val_if_fail (path != NULL, NULL);

  /* A regular file other than a CTF `metadata` file is a trace.dat. */
  base = g_path_get_basename (path);
  is_dat = g_file_test (path, G_FILE_TEST_IS_REGULAR) &&
      strcmp (base, "metadata") != 0;
  g_free (base);

  s = g_new0 (GstCtfGtkPacketSource, 1);
  s->path = g_strdup (path);
  if (is_dat) {
    s->dat = gst_ctf_trace_dat_open (path, error);
    if (s->dat == NULL || !open_dat (s, error))
      goto fail;
    s->tc = gst_ctf_trace_class_ref
        (gst_ctf_trace_dat_packetizer_get_trace_class (s->pk));
  } else if (is_lttng0_dir (path)) {
    s->l0 = gst_ctf_lttng0_trace_open (path, error);
    if (s->l0 == NULL || !open_lttng0 (s, error))
      goto fail;
    s->tc = gst_ctf_trace_class_ref
        (gst_ctf_lttng0_packetizer_get_trace_class (s->l0pk));
  } else {
    s->ctf = gst_ctf_trace_source_open (path, error);
    if (s->ctf == NULL)
      goto fail;
    s->tc = gst_ctf_trace_class_ref
        (gst_ctf_trace_source_get_trace_class (s->ctf));
  }
  return s;

fail:
  _gst_ctf_gtk_packet_source_free (s);
  return NULL;
}

void
_gst_ctf_gtk_packet_source_free (GstCtfGtkPacketSource * s)
{
  if (s == NULL)
    return;
  g_clear_pointer (&s->tc, gst_ctf_trace_class_unref);
  g_clear_pointer (&s->pk, gst_ctf_trace_dat_packetizer_free);
  g_clear_pointer (&s->dat, gst_ctf_trace_dat_unref);
  g_clear_pointer (&s->l0pk, gst_ctf_lttng0_packetizer_free);
  g_clear_pointer (&s->l0, gst_ctf_lttng0_trace_unref);
  g_clear_pointer (&s->ctf, gst_ctf_trace_source_free);
  g_free (s->path);
  g_free (s);
}

GstCtfTraceClass *
_gst_ctf_gtk_packet_source_get_trace_class (GstCtfGtkPacketSource * s)
{
  return s->tc;
}

/* Whether _gst_ctf_gtk_packet_source_seek() works: LTTng 0.x traces are
 * only read from their beginning. */
gboolean
_gst_ctf_gtk_packet_source_can_seek (GstCtfGtkPacketSource * s)
{
  return s->l0 == NULL;
}

/* The next packets hold every event at or after @ns (and some before). */
gboolean
_gst_ctf_gtk_packet_source_seek (GstCtfGtkPacketSource * s, gint64 ns,
    GError ** error)
{
  if (s->ctf != NULL) {
    gst_ctf_trace_source_seek (s->ctf, ns);
    return TRUE;
  }
  if (s->pk != NULL)
    /* one ns earlier: an event at @ns can end the page before the one
     * whose header time is @ns */
    return gst_ctf_trace_dat_packetizer_seek (s->pk, MAX (ns, G_MININT64 + 1)
        - 1, error);
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
      "Cannot seek in \"%s\": an LTTng 0.x trace is read from its start",
      s->path);
  return FALSE;
}

/* Back to the first packet. */
gboolean
_gst_ctf_gtk_packet_source_rewind (GstCtfGtkPacketSource * s,
    GError ** error)
{
  if (s->ctf != NULL) {
    gst_ctf_trace_source_seek (s->ctf, G_MININT64);
    return TRUE;
  }
  if (s->pk != NULL)
    return gst_ctf_trace_dat_packetizer_seek (s->pk, G_MININT64, error);
  return open_lttng0 (s, error);
}

/* 1 with @packet filled, 0 at the end, -1 with @error set. */
gint
_gst_ctf_gtk_packet_source_next (GstCtfGtkPacketSource * s,
    GstCtfGtkPacket * packet, GError ** error)
{
  const guint8 *data;
  gsize size;
  gint r;

  memset (packet, 0, sizeof (*packet));
  if (s->ctf != NULL) {
    GstCtfSourcePacket p;

    r = gst_ctf_trace_source_next (s->ctf, &p, error);
    if (r <= 0)
      return r;
    packet->bytes = p.bytes;
    packet->stream_class_id = p.stream_class_id;
    packet->rank = p.rank;
    packet->stream_id = (gint64) p.stream_id;
    packet->stream_name = p.stream_name;
    packet->offset = p.offset;
  } else if (s->pk != NULL) {
    GstCtfTraceDatPacketInfo info;

    r = gst_ctf_trace_dat_packetizer_next (s->pk, &data, &size, &info,
        error);
    if (r <= 0)
      return r;
    packet->bytes = g_bytes_new (data, size);
    packet->stream_class_id = info.stream_class_id;
    packet->rank = info.stream_index;
    packet->stream_id = (gint64) info.stream_instance_id;
    packet->stream_name = info.stream_name;
    packet->offset = -1;
  } else {
    GstCtfLttng0PacketInfo info;

    r = gst_ctf_lttng0_packetizer_next (s->l0pk, &data, &size, &info,
        error);
    if (r <= 0)
      return r;
    packet->bytes = g_bytes_new (data, size);
    packet->stream_class_id = info.stream_class_id;
    packet->rank = info.stream_index;
    packet->stream_id = (gint64) info.stream_instance_id;
    packet->stream_name = info.stream_name;
    packet->offset = (gint64) info.file_offset;
  }
  return 1;
}
