/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfPacketSource: every trace on disk as CTF packets in its source
 * element's order (gstctf-packet-source.h).  One table of functions per
 * kind of input; the source holds the table and the kind's state.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctf-packet-source.h"
#include "gstctf-trace-source.h"
#include "gsttracecmd-packetizer.h"
#include "gstctf-trace-dat-share.h"
#include "gstlttng0-packetizer.h"
#include "gstctf-reader.h"

/* What one kind of input does. */
typedef struct {
  GstCtfPacketSourceKind kind;
  gboolean (*open) (GstCtfPacketSource * s, GError ** error);
  void (*close) (GstCtfPacketSource * s);
  /* NULL: cannot seek */
  gboolean (*seek) (GstCtfPacketSource * s, gint64 ns, GError ** error);
  gboolean (*rewind) (GstCtfPacketSource * s, GError ** error);
  gint (*next) (GstCtfPacketSource * s, GstCtfPacketSourcePacket * packet,
      GError ** error);
} SourceKind;

struct _GstCtfPacketSource {
  const SourceKind *impl;
  gchar *path;
  GstCtfPacketSourceFlags flags;
  GstCtfTraceClass *tc;
  GstCtfTraceSource *ctf;               /* CTF traces, or */
  GstCtfTraceDat *dat;                  /* a trace.dat file, or */
  GstCtfTraceDatPacketizer *pk;
  GstCtfLttng0Trace *l0;                /* an LTTng 0.x trace */
  GstCtfLttng0Packetizer *l0pk;
  gint64 l0_from_ns;                    /* LTTng 0.x seek: packets ending
                                         * before it are left out */
};

/* -- CTF traces: GstCtfTraceSource (ctfsrc's opening and order) -- */

static gboolean
ctf_open (GstCtfPacketSource * s, GError ** error)
{
  s->ctf = gst_ctf_trace_source_open (s->path, error);
  if (s->ctf == NULL)
    return FALSE;
  s->tc = gst_ctf_trace_class_ref (gst_ctf_trace_source_get_trace_class
      (s->ctf));
  return TRUE;
}

static void
ctf_close (GstCtfPacketSource * s)
{
  g_clear_pointer (&s->ctf, gst_ctf_trace_source_free);
}

static gboolean
ctf_seek (GstCtfPacketSource * s, gint64 ns, GError ** error)
{
  gst_ctf_trace_source_seek (s->ctf, ns);
  return TRUE;
}

static gboolean
ctf_rewind (GstCtfPacketSource * s, GError ** error)
{
  gst_ctf_trace_source_seek (s->ctf, G_MININT64);
  return TRUE;
}

static gint
ctf_next (GstCtfPacketSource * s, GstCtfPacketSourcePacket * packet,
    GError ** error)
{
  GstCtfSourcePacket p;
  gint r = gst_ctf_trace_source_next (s->ctf, &p, error);

  if (r <= 0)
    return r;
  packet->bytes = p.bytes;
  packet->stream_class_id = p.stream_class_id;
  packet->rank = p.rank;
  packet->stream_id = (gint64) p.stream_id;
  packet->stream_name = p.stream_name;
  packet->offset = p.offset;
  return 1;
}

static const SourceKind ctf_kind = {
  GST_CTF_PACKET_SOURCE_CTF, ctf_open, ctf_close, ctf_seek, ctf_rewind,
  ctf_next,
};

/* -- a trace.dat file: the trace.dat packetizer (tracecmdsrc's) -- */

static gboolean
dat_new_packetizer (GstCtfPacketSource * s, GError ** error)
{
  GstCtfTraceDatPacketizerFlags f = GST_CTF_TRACE_DAT_PACKETIZER_STRICT;

  if (s->flags & GST_CTF_PACKET_SOURCE_NO_SIDE_STREAM)
    f |= GST_CTF_TRACE_DAT_PACKETIZER_NO_FILE_STREAM;
  g_clear_pointer (&s->pk, gst_ctf_trace_dat_packetizer_free);
  s->pk = gst_ctf_trace_dat_packetizer_new (s->dat, f, 0, error);
  return s->pk != NULL;
}

static gboolean
dat_open (GstCtfPacketSource * s, GError ** error)
{
  s->dat = _gst_ctf_trace_dat_share_open (s->path, error);
  if (s->dat == NULL || !dat_new_packetizer (s, error))
    return FALSE;
  s->tc = gst_ctf_trace_class_ref
      (gst_ctf_trace_dat_packetizer_get_trace_class (s->pk));
  return TRUE;
}

static void
dat_close (GstCtfPacketSource * s)
{
  g_clear_pointer (&s->pk, gst_ctf_trace_dat_packetizer_free);
  g_clear_pointer (&s->dat, _gst_ctf_trace_dat_share_close);
}

static gboolean
dat_seek (GstCtfPacketSource * s, gint64 ns, GError ** error)
{
  /* one ns earlier: an event at @ns can end the page before the one whose
   * header time is @ns */
  return gst_ctf_trace_dat_packetizer_seek (s->pk, MAX (ns, G_MININT64 + 1)
      - 1, error);
}

static gboolean
dat_rewind (GstCtfPacketSource * s, GError ** error)
{
  return gst_ctf_trace_dat_packetizer_seek (s->pk, G_MININT64, error);
}

static gint
dat_next (GstCtfPacketSource * s, GstCtfPacketSourcePacket * packet,
    GError ** error)
{
  GstCtfTraceDatPacketInfo info;
  const guint8 *data;
  gsize size;
  gint r = gst_ctf_trace_dat_packetizer_next (s->pk, &data, &size, &info,
      error);

  if (r <= 0)
    return r;
  packet->bytes = g_bytes_new (data, size);
  packet->stream_class_id = info.stream_class_id;
  packet->rank = info.stream_index;
  packet->stream_id = (gint64) info.stream_instance_id;
  packet->stream_name = info.stream_name;
  packet->offset = -1;
  return 1;
}

static const SourceKind dat_kind = {
  GST_CTF_PACKET_SOURCE_TRACE_DAT, dat_open, dat_close, dat_seek,
  dat_rewind, dat_next,
};

/* -- an LTTng 0.x trace: the LTTng 0.x packetizer (lttng0src's) -- */

static gboolean
lttng0_new_packetizer (GstCtfPacketSource * s, GError ** error)
{
  s->l0_from_ns = G_MININT64;
  g_clear_pointer (&s->l0pk, gst_ctf_lttng0_packetizer_free);
  s->l0pk = gst_ctf_lttng0_packetizer_new (s->l0, error);
  return s->l0pk != NULL;
}

static gboolean
lttng0_open (GstCtfPacketSource * s, GError ** error)
{
  s->l0 = gst_ctf_lttng0_trace_open (s->path, error);
  if (s->l0 == NULL || !lttng0_new_packetizer (s, error))
    return FALSE;
  s->tc = gst_ctf_trace_class_ref
      (gst_ctf_lttng0_packetizer_get_trace_class (s->l0pk));
  return TRUE;
}

static void
lttng0_close (GstCtfPacketSource * s)
{
  g_clear_pointer (&s->l0pk, gst_ctf_lttng0_packetizer_free);
  g_clear_pointer (&s->l0, gst_ctf_lttng0_trace_unref);
}

/* Whether a packet's last event is before @ns (its clock value in ns
 * from the origin, as the event merger converts it). */
static gboolean
lttng0_ends_before (GstCtfPacketSource * s,
    const GstCtfLttng0PacketInfo * info, gint64 ns)
{
  const GstCtfStreamClass *sc = gst_ctf_trace_class_find_stream_class (s->tc,
      info->stream_class_id);
  gint64 end;

  if (sc == NULL || sc->default_clock == NULL ||
      !gst_ctf_clock_class_cycles_to_ns_from_origin (sc->default_clock,
          info->timestamp_end, &end))
    return FALSE;
  return end < ns;
}

static gint
lttng0_next (GstCtfPacketSource * s, GstCtfPacketSourcePacket * packet,
    GError ** error)
{
  GstCtfLttng0PacketInfo info;
  const guint8 *data;
  gsize size;
  gint r;

  do {
    r = gst_ctf_lttng0_packetizer_next (s->l0pk, &data, &size, &info, error);
    if (r <= 0)
      return r;
  } while (s->l0_from_ns != G_MININT64 &&
      lttng0_ends_before (s, &info, s->l0_from_ns));
  packet->bytes = g_bytes_new (data, size);
  packet->stream_class_id = info.stream_class_id;
  packet->rank = info.stream_index;
  packet->stream_id = (gint64) info.stream_instance_id;
  packet->stream_name = info.stream_name;
  packet->offset = (gint64) info.file_offset;
  return 1;
}

/* The sub-buffer headers are the index of times: the packetizer puts
 * each tracefile at its first packet ending at or after @ns
 * (gst_ctf_lttng0_packetizer_seek()); packets still ending before it
 * (when a header's time misled it) are left out here, undecoded.  Packets
 * of one tracefile do not overlap, so the ones given are each stream's
 * packets from its first ending at or after @ns. */
static gboolean
lttng0_seek (GstCtfPacketSource * s, gint64 ns, GError ** error)
{
  s->l0_from_ns = ns;
  return gst_ctf_lttng0_packetizer_seek (s->l0pk, ns, error);
}

static const SourceKind lttng0_kind = {
  GST_CTF_PACKET_SOURCE_LTTNG0, lttng0_open, lttng0_close, lttng0_seek,
  lttng0_new_packetizer, lttng0_next,
};

/* -- what a path is -- */

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

/* A regular file other than a CTF `metadata` file is a trace.dat. */
static gboolean
is_trace_dat (const gchar * path)
{
  gchar *base;
  gboolean is_dat;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  base = g_path_get_basename (path);
  is_dat = strcmp (base, "metadata") != 0;
  g_free (base);
  return is_dat;
}

GstCtfPacketSource *
gst_ctf_packet_source_open (const gchar * path, GstCtfPacketSourceFlags flags,
    GError ** error)
{
  GstCtfPacketSource *s;

  g_return_val_if_fail (path != NULL, NULL);

  s = g_new0 (GstCtfPacketSource, 1);
  s->path = g_strdup (path);
  s->flags = flags;
  if (is_trace_dat (path))
    s->impl = &dat_kind;
  else if (is_lttng0_dir (path))
    s->impl = &lttng0_kind;
  else
    s->impl = &ctf_kind;
  if (!s->impl->open (s, error)) {
    gst_ctf_packet_source_free (s);
    return NULL;
  }
  return s;
}

void
gst_ctf_packet_source_free (GstCtfPacketSource * s)
{
  if (s == NULL)
    return;
  s->impl->close (s);
  g_clear_pointer (&s->tc, gst_ctf_trace_class_unref);
  g_free (s->path);
  g_free (s);
}

GstCtfPacketSourceKind
gst_ctf_packet_source_get_kind (GstCtfPacketSource * s)
{
  g_return_val_if_fail (s != NULL, GST_CTF_PACKET_SOURCE_CTF);
  return s->impl->kind;
}

GstCtfTraceClass *
gst_ctf_packet_source_get_trace_class (GstCtfPacketSource * s)
{
  g_return_val_if_fail (s != NULL, NULL);
  return s->tc;
}

gboolean
gst_ctf_packet_source_can_seek (GstCtfPacketSource * s)
{
  g_return_val_if_fail (s != NULL, FALSE);
  return s->impl->seek != NULL;
}

gboolean
gst_ctf_packet_source_seek (GstCtfPacketSource * s, gint64 ns,
    GError ** error)
{
  g_return_val_if_fail (s != NULL, FALSE);
  if (s->impl->seek == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot seek in \"%s\"", s->path);
    return FALSE;
  }
  return s->impl->seek (s, ns, error);
}

gboolean
gst_ctf_packet_source_rewind (GstCtfPacketSource * s, GError ** error)
{
  g_return_val_if_fail (s != NULL, FALSE);
  return s->impl->rewind (s, error);
}

gint
gst_ctf_packet_source_next (GstCtfPacketSource * s,
    GstCtfPacketSourcePacket * packet, GError ** error)
{
  g_return_val_if_fail (s != NULL, -1);
  g_return_val_if_fail (packet != NULL, -1);
  memset (packet, 0, sizeof (*packet));
  return s->impl->next (s, packet, error);
}
