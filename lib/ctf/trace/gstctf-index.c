/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Packet index of a CTF data stream file: from an LTTng `index/NAME.idx`
 * file when it is valid, else by scanning packet headers (CTF 1.8 §5).
 * The validation follows babeltrace2's `build_index_from_idx_file()`
 * (src/plugins/ctf/fs-src/data-stream-file.c): any failure makes the
 * caller fall back to scanning.
 */
#include "gstctf-index.h"
#include "gstctf-reader.h"

#include <glib/gstdio.h>
#include <string.h>
#ifdef G_OS_UNIX
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/* LTTng index file layout (lttng-index.h): a 16-byte header, then entries
 * of `packet_index_len` bytes; all big endian. */
#define IDX_HEADER_SIZE 16
#define IDX_ENTRY_1_0_SIZE (7 * 8)
#define IDX_ENTRY_1_1_SIZE (9 * 8)

static inline guint32
read_be32 (const guint8 * p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) |
      ((guint32) p[2] << 8) | (guint32) p[3];
}

static inline guint64
read_be64 (const guint8 * p)
{
  return ((guint64) read_be32 (p) << 32) | read_be32 (p + 4);
}

static GstCtfIndex *
index_new (void)
{
  GstCtfIndex *index = g_new0 (GstCtfIndex, 1);

  index->entries = g_array_new (FALSE, TRUE, sizeof (GstCtfIndexEntry));
  return index;
}

void
gst_ctf_index_free (GstCtfIndex * index)
{
  if (index == NULL)
    return;
  g_array_unref (index->entries);
  g_clear_error (&index->error);
  g_free (index);
}

/* Cycles of @sc's default clock to ns from its origin.  Without a clock
 * the cycles are taken as ns (1 GHz, the CTF 1.8 §8 default frequency). */
static gboolean
cycles_to_ns (const GstCtfStreamClass * sc, guint64 cycles, gint64 * ns)
{
  if (sc == NULL || sc->default_clock == NULL) {
    if (cycles > G_MAXINT64)
      return FALSE;
    *ns = (gint64) cycles;
    return TRUE;
  }
  return gst_ctf_clock_class_cycles_to_ns_from_origin (sc->default_clock,
      cycles, ns);
}

static const gchar *
name_or (const gchar * origin)
{
  return origin ? origin : "(stream)";
}

GstCtfIndex *
gst_ctf_index_read_idx (const GstCtfTraceClass * tc, const guint8 * data,
    gsize size, const guint8 * idx_data, gsize idx_size, const gchar * origin,
    GError ** error)
{
  GstCtfPacketInfo first;
  GstCtfIndex *index = NULL;
  GError *err = NULL;
  const GstCtfStreamClass *sc;
  guint32 magic, major, minor, entry_size;
  guint64 n_entries, i, total = 0;

  g_return_val_if_fail (tc != NULL, NULL);

  /* babeltrace2 reads the first packet's properties to find the stream
   * class and its clock before trusting the index. */
  if (!gst_ctf_packet_read_info (tc, data, size, &first, &err)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
        "Cannot use LTTng index \"%s\": first packet unreadable: %s",
        name_or (origin), err->message);
    g_error_free (err);
    return NULL;
  }
  sc = first.stream_class;
  if (sc == NULL || sc->default_clock == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
        "Cannot use LTTng index \"%s\": the stream class has no default clock",
        name_or (origin));
    return NULL;
  }

  if (idx_size < IDX_HEADER_SIZE) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
        "Invalid LTTng index: file=\"%s\", offset=0, file size %"
        G_GSIZE_FORMAT " bytes < header size %d bytes", name_or (origin),
        idx_size, IDX_HEADER_SIZE);
    return NULL;
  }
  magic = read_be32 (idx_data);
  major = read_be32 (idx_data + 4);
  minor = read_be32 (idx_data + 8);
  entry_size = read_be32 (idx_data + 12);
  if (magic != GST_CTF_INDEX_MAGIC) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
        "Invalid LTTng index: file=\"%s\", offset=0, magic=0x%08x, "
        "expected-magic=0x%08x", name_or (origin), magic, GST_CTF_INDEX_MAGIC);
    return NULL;
  }
  if (major != 1) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
        "Unknown LTTng index version: file=\"%s\", offset=4, major=%u, "
        "minor=%u, expected-major=1", name_or (origin), major, minor);
    return NULL;
  }
  if (entry_size < IDX_ENTRY_1_0_SIZE) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
        "Invalid LTTng index: file=\"%s\", offset=12, packet_index_len=%u, "
        "expected at least %d", name_or (origin), entry_size,
        IDX_ENTRY_1_0_SIZE);
    return NULL;
  }
  if ((idx_size - IDX_HEADER_SIZE) % entry_size != 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
        "Invalid LTTng index: file=\"%s\", the %" G_GSIZE_FORMAT
        " bytes after the header are not a multiple of the entry size %u",
        name_or (origin), idx_size - IDX_HEADER_SIZE, entry_size);
    return NULL;
  }
  n_entries = (idx_size - IDX_HEADER_SIZE) / entry_size;

  index = index_new ();
  index->from_idx_file = TRUE;
  g_array_set_size (index->entries, n_entries);
  for (i = 0; i < n_entries; i++) {
    const guint8 *p = idx_data + IDX_HEADER_SIZE + i * entry_size;
    GstCtfIndexEntry *e = &g_array_index (index->entries, GstCtfIndexEntry, i);
    guint64 packet_bits = read_be64 (p + 8);
    gsize at = IDX_HEADER_SIZE + i * entry_size;

    e->offset = read_be64 (p);
    e->content_size = read_be64 (p + 16);
    e->timestamp_begin = read_be64 (p + 24);
    e->timestamp_end = read_be64 (p + 32);
    e->events_discarded = read_be64 (p + 40);
    e->stream_class_id = read_be64 (p + 48);
    e->stream_instance_id = G_MAXUINT64;
    e->flags = GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN |
        GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END |
        GST_CTF_INDEX_ENTRY_HAS_EVENTS_DISCARDED;
    if (minor >= 1 && entry_size >= IDX_ENTRY_1_1_SIZE) {
      e->stream_instance_id = read_be64 (p + 56);
      e->packet_seq_num = read_be64 (p + 64);
      e->flags |= GST_CTF_INDEX_ENTRY_HAS_STREAM_INSTANCE_ID |
          GST_CTF_INDEX_ENTRY_HAS_PACKET_SEQ_NUM;
    }

    if (packet_bits % 8 != 0 || packet_bits == 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
          "Invalid LTTng index: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", packet_size=%" G_GUINT64_FORMAT " bits, expected a non-zero "
          "multiple of 8", name_or (origin), at + 8, packet_bits);
      goto fail;
    }
    e->packet_size = packet_bits / 8;
    if (i > 0 && e->offset < (e - 1)->offset) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
          "Invalid LTTng index: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", packet offset %" G_GUINT64_FORMAT " < previous packet offset %"
          G_GUINT64_FORMAT, name_or (origin), at, e->offset, (e - 1)->offset);
      goto fail;
    }
    if (e->timestamp_end < e->timestamp_begin) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
          "Invalid LTTng index: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", timestamp_begin=%" G_GUINT64_FORMAT " > timestamp_end=%"
          G_GUINT64_FORMAT, name_or (origin), at + 24, e->timestamp_begin,
          e->timestamp_end);
      goto fail;
    }
    /* Beyond babeltrace2: each packet must lie inside the stream file
     * and its content must fit in it, or a reader would run off the
     * mapping. */
    if (e->offset > size || e->packet_size > size - e->offset
        || e->content_size > packet_bits) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
          "Invalid LTTng index: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", packet at %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
          " bytes (content %" G_GUINT64_FORMAT " bits) does not fit in the %"
          G_GSIZE_FORMAT "-byte stream file", name_or (origin), at,
          e->offset, e->packet_size, e->content_size, size);
      goto fail;
    }
    if (!cycles_to_ns (sc, e->timestamp_begin, &e->timestamp_begin_ns) ||
        !cycles_to_ns (sc, e->timestamp_end, &e->timestamp_end_ns)) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
          "Invalid LTTng index: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", timestamps do not fit in ns from origin", name_or (origin),
          at + 24);
      goto fail;
    }
    total += e->packet_size;
  }
  if (total != size) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_INDEX,
        "Invalid LTTng index: file=\"%s\", indexed size %" G_GUINT64_FORMAT
        " bytes != stream file size %" G_GSIZE_FORMAT " bytes",
        name_or (origin), total, size);
    goto fail;
  }
  /* Old (1.0) indexes have no instance id: take it from the packets. */
  if (n_entries > 0 && !(g_array_index (index->entries, GstCtfIndexEntry,
              0).flags & GST_CTF_INDEX_ENTRY_HAS_STREAM_INSTANCE_ID)
      && first.has_stream_instance_id) {
    for (i = 0; i < n_entries; i++) {
      GstCtfIndexEntry *e =
          &g_array_index (index->entries, GstCtfIndexEntry, i);
      e->stream_instance_id = first.stream_instance_id;
      e->flags |= GST_CTF_INDEX_ENTRY_HAS_STREAM_INSTANCE_ID;
    }
  }
  return index;

fail:
  gst_ctf_index_free (index);
  return NULL;
}

GstCtfIndex *
gst_ctf_index_scan (const GstCtfTraceClass * tc, const guint8 * data,
    gsize size, const gchar * origin)
{
  GstCtfIndex *index;
  gsize offset = 0;

  g_return_val_if_fail (tc != NULL, NULL);

  index = index_new ();
  while (offset < size) {
    GstCtfPacketInfo info;
    GstCtfIndexEntry e;
    GError *err = NULL;
    guint64 bytes;

    memset (&info, 0, sizeof (info));
    if (!gst_ctf_packet_read_info (tc, data + offset, size - offset, &info,
            &err)) {
      g_set_error (&index->error, GST_CTF_ERROR, err->domain == GST_CTF_ERROR
          ? err->code : GST_CTF_ERROR_PACKET,
          "Cannot read packet header or context: file=\"%s\", offset=%"
          G_GSIZE_FORMAT ": %s", name_or (origin), offset, err->message);
      g_error_free (err);
      break;
    }
    /* Every size is checked again here: the index is what the source
     * trusts to cut buffers, so a reader bug must not make it overrun. */
    if (info.packet_size % 8 != 0 || info.packet_size == 0
        || info.packet_size / 8 > size - offset) {
      g_set_error (&index->error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
          "Invalid packet size: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", packet-size=%" G_GUINT64_FORMAT " bits, expected a non-zero "
          "multiple of 8 of at most %" G_GUINT64_FORMAT " bits (rest of the "
          "file)", name_or (origin), offset, info.packet_size,
          (guint64) (size - offset) * 8);
      break;
    }
    if (info.content_size > info.packet_size) {
      g_set_error (&index->error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
          "Invalid content size: file=\"%s\", offset=%" G_GSIZE_FORMAT
          ", content-size=%" G_GUINT64_FORMAT " bits > packet-size=%"
          G_GUINT64_FORMAT " bits", name_or (origin), offset,
          info.content_size, info.packet_size);
      break;
    }
    /* No check of the packet UUID against the trace's: babeltrace2 2.0
     * reads traces where they differ (corpus intersection/onestream). */
    bytes = info.packet_size / 8;

    memset (&e, 0, sizeof (e));
    e.offset = offset;
    e.packet_size = bytes;
    e.content_size = info.content_size;
    e.stream_class_id = info.stream_class_id;
    e.stream_instance_id = G_MAXUINT64;
    if (info.has_stream_instance_id) {
      e.stream_instance_id = info.stream_instance_id;
      e.flags |= GST_CTF_INDEX_ENTRY_HAS_STREAM_INSTANCE_ID;
    }
    if (info.has_timestamp_begin) {
      e.timestamp_begin = info.timestamp_begin;
      if (!cycles_to_ns (info.stream_class, e.timestamp_begin,
              &e.timestamp_begin_ns)) {
        g_set_error (&index->error, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK,
            "Cannot convert timestamp_begin to ns: file=\"%s\", offset=%"
            G_GSIZE_FORMAT ", cycles=%" G_GUINT64_FORMAT, name_or (origin),
            offset, e.timestamp_begin);
        break;
      }
      e.flags |= GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN;
    }
    if (info.has_timestamp_end) {
      e.timestamp_end = info.timestamp_end;
      if (!cycles_to_ns (info.stream_class, e.timestamp_end,
              &e.timestamp_end_ns)) {
        g_set_error (&index->error, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK,
            "Cannot convert timestamp_end to ns: file=\"%s\", offset=%"
            G_GSIZE_FORMAT ", cycles=%" G_GUINT64_FORMAT, name_or (origin),
            offset, e.timestamp_end);
        break;
      }
      e.flags |= GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END;
    }
    if (info.has_events_discarded) {
      e.events_discarded = info.events_discarded;
      e.flags |= GST_CTF_INDEX_ENTRY_HAS_EVENTS_DISCARDED;
    }
    if (info.has_packet_seq_num) {
      e.packet_seq_num = info.packet_seq_num;
      e.flags |= GST_CTF_INDEX_ENTRY_HAS_PACKET_SEQ_NUM;
    }
    g_array_append_val (index->entries, e);
    offset += bytes;
  }
  return index;
}

/* The contents of the regular file @path (NULL when it is missing,
 * unreadable, not a regular file or above 1 GiB).  An index file is a
 * few KiB: read, not mapped (an open, a read and a close per stream
 * instead of a stat, an open, a map, a page fault and an unmap). */
static guint8 *
read_small_file (const gchar * path, gsize * len)
{
#ifdef G_OS_UNIX
  struct stat st;
  guint8 *buf;
  gsize got = 0;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);

  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size < 0 ||
      st.st_size > (1 << 30)) {
    close (fd);
    return NULL;
  }
  buf = g_malloc (MAX (st.st_size, 1));
  while (got < (gsize) st.st_size) {
    gssize r = read (fd, buf + got, st.st_size - got);

    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    got += r;
  }
  close (fd);
  *len = got;
  return buf;
#else
  gchar *buf = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) ||
      !g_file_get_contents (path, &buf, len, NULL))
    return NULL;
  return (guint8 *) buf;
#endif
}

GstCtfIndex *
gst_ctf_index_build (const GstCtfTraceClass * tc, const guint8 * data,
    gsize size, const gchar * origin)
{
  GstCtfIndex *index = NULL;

  if (origin != NULL) {
    gchar *dir = g_path_get_dirname (origin);
    gchar *base = g_path_get_basename (origin);
    gchar *idx_base = g_strconcat (base, ".idx", NULL);
    gchar *idx_path = g_build_filename (dir, "index", idx_base, NULL);
    gsize idx_len = 0;
    guint8 *idx;

    /* A missing or unreadable index is not an error: scan instead. */
    if ((idx = read_small_file (idx_path, &idx_len)) != NULL) {
      GError *err = NULL;

      index = gst_ctf_index_read_idx (tc, data, size, idx, idx_len,
          idx_path, &err);
      if (index == NULL) {
        g_info ("%s; falling back to scanning the stream file",
            err->message);
        g_error_free (err);
      }
      g_free (idx);
    }
    g_free (idx_path);
    g_free (idx_base);
    g_free (base);
    g_free (dir);
  }
  if (index == NULL) {
    index = gst_ctf_index_scan (tc, data, size, origin);
#if defined(G_OS_UNIX) && defined(MADV_DONTNEED)
    /* the scan touched every packet's first page, and the kernel mapped
     * the pages around each: the whole file would stay in the resident
     * set until its packets are read and released */
    {
      gsize page = (gsize) sysconf (_SC_PAGESIZE);
      guintptr b = ((guintptr) data + page - 1) & ~(guintptr) (page - 1);
      guintptr e = ((guintptr) data + size) & ~(guintptr) (page - 1);

      if (e > b)
        (void) madvise ((void *) b, e - b, MADV_DONTNEED);
    }
#endif
  }
  gst_ctf_index_fix_timestamp_end (index);
  return index;
}

void
gst_ctf_index_fix_timestamp_end (GstCtfIndex * index)
{
  guint i, n;

  g_return_if_fail (index != NULL);
  n = index->entries->len;
  for (i = 0; i < n; i++) {
    GstCtfIndexEntry *e = &g_array_index (index->entries, GstCtfIndexEntry, i);
    const guint32 both = GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN |
        GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END;

    if ((e->flags & both) != both || e->timestamp_begin == 0)
      continue;
    if (e->timestamp_end != 0 && e->timestamp_end >= e->timestamp_begin)
      continue;
    if (i + 1 < n && (e[1].flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN)
        && e[1].timestamp_begin >= e->timestamp_begin) {
      e->timestamp_end = e[1].timestamp_begin;
      e->timestamp_end_ns = e[1].timestamp_begin_ns;
    } else {
      e->timestamp_end = e->timestamp_begin;
      e->timestamp_end_ns = e->timestamp_begin_ns;
    }
    e->flags |= GST_CTF_INDEX_ENTRY_TIMESTAMP_END_FIXED;
  }
}
