/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: opening a trace directory as ctfsrc does
 * (gst_ctf_trace_dir_open()): the `metadata` file, one or two data stream
 * files and their LTTng packet indexes (`index/NAME.idx`, read by
 * gst_ctf_index_read_idx(), else the stream file scanned by
 * gst_ctf_index_scan()), the files grouped into streams and their packets
 * ordered; then every packet the trace directory lists is walked with the
 * event iterator, as ctfsrc's consumers do.  The index is untrusted input
 * too: whatever it says, each listed packet must lie inside its file.
 * Then the directory is read as gst_ctf_event_reader_open() reads it:
 * the packets in ctfsrc's order (gst_ctf_trace_source_next()) into the
 * event merger, every event given back, any error a GST_CTF_ERROR.
 *
 * Input: the first byte's low two bits pick the trace class as in
 * fuzz-trace-class.h (its TSDL is written as `metadata`); its bits 2 to 4
 * say whether stream 0 has an index (F_IDX0), whether there is a second
 * stream file (F_TWO) and whether that one has an index (F_IDX1).  Then,
 * each as a 16-bit little-endian length and its bytes: index 0 (F_IDX0),
 * stream 0 (F_TWO), index 1 (F_TWO and F_IDX1); the rest is the last
 * stream file.  The seeds (tests/fuzz/seeds/tracedir, made by
 * tests/fuzz/seeds/make-packet-seeds.py) are packets of the fixed
 * LTTng-like classes with valid indexes.
 *
 *   meson setup build-fuzz -Dfuzzing=true (CC=clang)
 *   build-fuzz/tests/fuzz/fuzz-tracedir CORPUS_DIR -max_len=65536
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <glib/gstdio.h>

#include "fuzz-trace-class.h"
#include "gstctf-reader.h"
#include "gstctf-trace-dir.h"
#include "gstctf-trace-source.h"
#include "gstctf-event-merge.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

#define F_IDX0 (1 << 2)
#define F_TWO (1 << 3)
#define F_IDX1 (1 << 4)

static gchar *dir;

static const gchar *const names[] = {
  "metadata", "stream_0", "stream_1", "index/stream_0.idx",
  "index/stream_1.idx",
};

static void
write_file (const gchar * name, const void *bytes, gsize n)
{
  gchar *path = g_build_filename (dir, name, NULL);
  GError *err = NULL;

  if (!g_file_set_contents (path, bytes, (gssize) n, &err))
    g_error ("fuzz-tracedir: %s", err->message);
  g_free (path);
}

static void
clear_dir (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *path = g_build_filename (dir, names[i], NULL);

    if (g_unlink (path) != 0 && errno != ENOENT)
      g_error ("fuzz-tracedir: cannot remove %s", path);
    g_free (path);
  }
}

static void
remove_dir (void)
{
  gchar *index_dir = g_build_filename (dir, "index", NULL);

  clear_dir ();
  g_rmdir (index_dir);
  g_rmdir (dir);
  g_free (index_dir);
}

/* A 16-bit little-endian length and that many bytes (fewer when the
 * input ends first). */
static const uint8_t *
take (const uint8_t ** data, size_t * size, gsize * n)
{
  const uint8_t *p;

  if (*size < 2) {
    *data += *size;
    *size = 0;
    *n = 0;
    return *data;
  }
  *n = MIN ((gsize) ((*data)[0] | ((*data)[1] << 8)), *size - 2);
  p = *data + 2;
  *data += 2 + *n;
  *size -= 2 + *n;
  return p;
}

/* Every listed packet lies inside its file, and its events can be walked
 * (any error is a GST_CTF_ERROR). */
static void
check_streams (GstCtfTraceDir * td)
{
  GstCtfEventIter *it = gst_ctf_event_iter_new (td->trace_class);
  guint i, j;

  for (i = 0; i < td->streams->len; i++) {
    GstCtfStream *s = g_ptr_array_index (td->streams, i);

    g_assert (s->error == NULL || s->error_after <= s->packets->len);
    for (j = 0; j < s->packets->len; j++) {
      const GstCtfStreamPacket *p =
          &g_array_index (s->packets, GstCtfStreamPacket, j);
      const GstCtfIndexEntry *e = p->entry;
      GError *err = NULL;

      g_assert (e->packet_size > 0 && e->offset <= p->file->size &&
          e->packet_size <= p->file->size - e->offset);
      g_assert (e->content_size <= e->packet_size * 8);
      if (!gst_ctf_event_iter_set_packet (it, p->file->data + e->offset,
              e->packet_size, &err)) {
        g_assert (err != NULL && err->domain == GST_CTF_ERROR);
        g_error_free (err);
        continue;
      }
      while (gst_ctf_event_iter_next (it, &err));
      if (err != NULL) {
        g_assert (err->domain == GST_CTF_ERROR);
        g_error_free (err);
      }
    }
  }
  gst_ctf_event_iter_free (it);
}

/* Packets in time order into the merger; every item given back. */
static void
check_source (void)
{
  GstCtfTraceSource *src;
  GstCtfEventMerge *m;
  GstCtfSourcePacket p;
  GstCtfMergeItem item;
  GError *err = NULL;
  gboolean more = TRUE, ended = FALSE;
  gint r;

  src = gst_ctf_trace_source_open (dir, &err);
  if (src == NULL) {
    g_assert (err != NULL && err->domain == GST_CTF_ERROR);
    g_error_free (err);
    return;
  }
  m = gst_ctf_event_merge_new (gst_ctf_trace_source_get_trace_class (src));
  gst_ctf_event_merge_set_emulate_recycling (m, FALSE);
  while (more) {
    r = gst_ctf_trace_source_next (src, &p, &err);
    if (r > 0) {
      if (!gst_ctf_event_merge_push_full (m, p.bytes, p.stream_class_id,
              p.rank, (gint64) p.stream_id, p.stream_name, p.offset, &err))
        more = FALSE;
      g_bytes_unref (p.bytes);
    } else {
      more = FALSE;
      ended = TRUE;
    }
    if (err != NULL) {
      g_assert (err->domain == GST_CTF_ERROR);
      g_clear_error (&err);
    }
    if (!more)
      gst_ctf_event_merge_finish (m);
    while (gst_ctf_event_merge_next (m, &item, &err) != GST_CTF_MERGE_NONE) {
      if (err != NULL) {
        g_assert (err->domain == GST_CTF_ERROR);
        g_clear_error (&err);
      }
    }
  }
  /* the end stays the end (when the loop stopped on a packet the merge
   * refused, the source has not reached its end) */
  if (ended)
    g_assert (gst_ctf_trace_source_next (src, &p, NULL) <= 0);
  gst_ctf_event_merge_free (m);
  gst_ctf_trace_source_free (src);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstCtfTraceDir *td;
  GError *err = NULL;
  const uint8_t *part;
  guint flags;
  gchar *tsdl;
  gsize n;

  if (dir == NULL) {
    gchar *index_dir;

    dir = g_dir_make_tmp ("fuzz-tracedir-XXXXXX", &err);
    if (dir == NULL)
      g_error ("fuzz-tracedir: %s", err->message);
    index_dir = g_build_filename (dir, "index", NULL);
    if (g_mkdir (index_dir, 0700) != 0)
      g_error ("fuzz-tracedir: cannot create %s", index_dir);
    g_free (index_dir);
    atexit (remove_dir);
  }
  if (size < 1)
    return 0;
  flags = data[0];
  tsdl = fuzz_trace_class_tsdl (&data, &size);
  if (tsdl == NULL)
    return 0;
  clear_dir ();
  write_file ("metadata", tsdl, strlen (tsdl));
  g_free (tsdl);

  if (flags & F_IDX0) {
    part = take (&data, &size, &n);
    write_file ("index/stream_0.idx", part, n);
  }
  if (flags & F_TWO) {
    part = take (&data, &size, &n);
    write_file ("stream_0", part, n);
    if (flags & F_IDX1) {
      part = take (&data, &size, &n);
      write_file ("index/stream_1.idx", part, n);
    }
    write_file ("stream_1", data, size);
  } else {
    write_file ("stream_0", data, size);
  }

  td = gst_ctf_trace_dir_open (dir, &err);
  if (td == NULL) {
    g_assert (err != NULL && err->domain == GST_CTF_ERROR);
    g_error_free (err);
    return 0;
  }
  check_streams (td);
  gst_ctf_trace_dir_free (td);
  check_source ();
  return 0;
}
