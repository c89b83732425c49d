/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * packet-floor: what N packets cost as GstBuffers alone, the floor under
 * `ctfmux mode=events` (one GstBuffer per output packet, DESIGN.md).
 *
 *   packet-floor N BYTES
 *
 * Makes N buffers of BYTES bytes the way ctfmux's events mode makes its
 * output packets (gst_buffer_new_allocate(), the bytes copied in, a
 * GstCtfPacketMeta added and filled), in GstBufferLists of 256, and
 * consumes each list the way ctfsink's render_list does (every buffer's
 * meta looked up, its memory mapped, its bytes given to a 256 KiB stdio
 * buffer on /dev/null, unmapped), then frees it.  No decoding, encoding,
 * pads or disk writes: what is left when all of those cost nothing.
 * Prints the time and ns per packet.
 */
#include <gst/gst.h>
#include <gstctf-packet-meta.h>

#include <stdio.h>
#include <stdlib.h>

#define LIST_LEN 256

static void
consume (GstBufferList * list, FILE * out)
{
  guint i, n = gst_buffer_list_length (list);

  for (i = 0; i < n; i++) {
    GstBuffer *buf = gst_buffer_list_get (list, i);
    GstCtfPacketMeta *meta = gst_buffer_get_ctf_packet_meta (buf);
    GstMapInfo map;

    if (meta == NULL || !gst_buffer_map (buf, &map, GST_MAP_READ))
      g_error ("packet-floor: a buffer without meta or memory");
    fwrite (map.data, 1, map.size, out);
    gst_buffer_unmap (buf, &map);
  }
  gst_buffer_list_unref (list);
}

int
main (int argc, char **argv)
{
  guint64 n, i;
  gsize size;
  guint8 *bytes;
  GstBufferList *list = NULL;
  FILE *out;
  gint64 t0, t1;

  gst_init (&argc, &argv);
  if (argc != 3) {
    g_printerr ("usage: packet-floor N BYTES\n");
    return 2;
  }
  n = g_ascii_strtoull (argv[1], NULL, 10);
  size = (gsize) g_ascii_strtoull (argv[2], NULL, 10);
  if (size == 0 || size > 1024 * 1024) {
    g_printerr ("packet-floor: BYTES must be 1 to 1048576\n");
    return 2;
  }
  bytes = g_malloc0 (size);
  out = fopen ("/dev/null", "wb");
  if (out == NULL) {
    g_printerr ("packet-floor: cannot open /dev/null\n");
    return 1;
  }
  setvbuf (out, NULL, _IOFBF, 256 * 1024);

  t0 = g_get_monotonic_time ();
  for (i = 0; i < n; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
    GstCtfPacketMeta *meta;

    gst_buffer_fill (buf, 0, bytes, size);
    GST_BUFFER_PTS (buf) = i;
    meta = gst_buffer_add_ctf_packet_meta (buf);
    meta->stream_class_id = i & 3;
    meta->stream_instance_id = i & 1;
    meta->stream_index = (guint) (i & 3);
    meta->stream_name = "stream";
    if (list == NULL)
      list = gst_buffer_list_new_sized (LIST_LEN);
    gst_buffer_list_add (list, buf);
    if (gst_buffer_list_length (list) == LIST_LEN) {
      consume (list, out);
      list = NULL;
    }
  }
  if (list != NULL)
    consume (list, out);
  t1 = g_get_monotonic_time ();

  fclose (out);
  g_free (bytes);
  printf ("packets %" G_GUINT64_FORMAT " bytes %" G_GSIZE_FORMAT " time %.3f s"
      " %.0f ns/packet\n", n, size, (t1 - t0) / 1e6,
      n ? (t1 - t0) * 1e3 / (gdouble) n : 0.0);
  return 0;
}
