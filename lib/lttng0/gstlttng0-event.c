/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng 0.x event headers: one sub-buffer's events, in order.
 *
 * The 32-bit header holds a 5-bit event id and the 27 low bits of the
 * TSC.  Ids 29 to 31 extend it (LTTV ltt/tracefile.c, "LTT_RFLAG_*"):
 * 29 = 16-bit id, 16-bit size (0xFFFF: a 32-bit size follows) and the
 * full 64-bit TSC (aligned to 8 as lttng0_field_align() says); 30 = id
 * and size; 31 = id only.  The 27 bits widen against the previous full
 * TSC of the sub-buffer, which starts at the header's cycle_count_begin:
 * when they are below the previous low bits, the counter wrapped once.
 */
#include "gstlttng0-private.h"

void
_gst_ctf_lttng0_cursor_init (Lttng0Cursor * c, const Lttng0Tracefile * tf,
    const Lttng0SubBuf * sb)
{
  c->tf = tf;
  c->sb = sb;
  c->data = tf->base + sb->offset;
  c->pos = LTTNG0_SUBBUF_HEADER_SIZE;
  c->tsc = sb->cycle_begin;
}

static gint
truncated (Lttng0Cursor * c, guint32 at, const gchar * what, GError ** error)
{
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
      "Event header past the end of its sub-buffer's data: file=\"%s\", "
      "offset=%" G_GUINT64_FORMAT ", expected=%s, data-end=%"
      G_GUINT64_FORMAT, c->tf->path, c->sb->offset + at, what,
      c->sb->offset + c->sb->data_end);
  return -1;
}

/**
 * _gst_ctf_lttng0_cursor_next:
 * @t: the trace
 * @c: a cursor; the caller sets @c->pos past the previous payload
 * @h: (out caller-allocates): the header read
 * @error: return location for a %GST_CTF_ERROR_LTTNG0 error (a header
 *   cut by the end of the sub-buffer's data)
 *
 * Reads the event header at @c->pos (after alignment) and widens its
 * timestamp into @c->tsc.
 *
 * Returns: 1 with a header, 0 at the end of the data, -1 on error
 */
gint
_gst_ctf_lttng0_cursor_next (const GstCtfLttng0Trace * t, Lttng0Cursor * c,
    Lttng0EventHeader * h, GError ** error)
{
  const guint8 *d = c->data;
  guint32 end = c->sb->data_end;
  guint64 pos = lttng0_align_up (c->pos,
      lttng0_field_align (t->minor, t->alignment, 4));
  guint32 word, low, packed;
  gboolean be = t->big_endian;

  if (pos >= end)
    return 0;
  if (G_UNLIKELY (pos + 4 > end))
    return truncated (c, (guint32) pos, "32-bit event header", error);
  h->offset = (guint32) pos;
  word = lttng0_read32 (be, d + pos);
  pos += 4;
  packed = word >> LTTNG0_TSC_BITS;
  low = word & LTTNG0_TSC_MASK;
  h->id = (guint16) packed;
  h->size = -1;
  if (packed >= LTTNG0_ID_SIZE_TSC) {
    if (G_UNLIKELY (pos + 2 > end))
      return truncated (c, (guint32) pos, "16-bit event id", error);
    h->id = lttng0_read16 (be, d + pos);
    pos += 2;
  }
  if (packed == LTTNG0_ID_SIZE_TSC || packed == LTTNG0_ID_SIZE) {
    if (G_UNLIKELY (pos + 2 > end))
      return truncated (c, (guint32) pos, "16-bit event size", error);
    h->size = lttng0_read16 (be, d + pos);
    pos += 2;
    if (h->size == 0xFFFF) {
      if (G_UNLIKELY (pos + 4 > end))
        return truncated (c, (guint32) pos, "32-bit event size", error);
      h->size = lttng0_read32 (be, d + pos);
      pos += 4;
    }
  }
  if (packed == LTTNG0_ID_SIZE_TSC) {
    pos = lttng0_align_up (pos, lttng0_field_align (t->minor, t->alignment,
            8));
    if (G_UNLIKELY (pos + 8 > end))
      return truncated (c, (guint32) pos, "64-bit TSC", error);
    c->tsc = lttng0_read64 (be, d + pos);
    pos += 8;
  } else if (low < (c->tsc & LTTNG0_TSC_MASK)) {
    c->tsc = ((c->tsc & ~LTTNG0_TSC_MASK) + (LTTNG0_TSC_MASK + 1)) | low;
  } else {
    c->tsc = (c->tsc & ~LTTNG0_TSC_MASK) | low;
  }
  h->tsc = c->tsc;
  h->payload = (guint32) pos;
  return 1;
}
