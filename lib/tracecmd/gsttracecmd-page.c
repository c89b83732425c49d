/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel ring-buffer sub-buffer ("page") parser.
 *
 * Layout (`events/header_page`, `events/header_event`, and the kernel's
 * kernel/trace/ring_buffer.c): u64 time stamp, a kernel `long` commit word
 * (low 27 bits = bytes of event data; bit 31 = events were lost before
 * this page; bit 30 = their count is stored as a `long` right after the
 * data), then the events.  Each event starts with a 32-bit word
 * `type_len:5, time_delta:27` (bit-field order follows the byte order:
 * type_len is in the low bits on little-endian, the high bits on
 * big-endian), then:
 *   1..28  payload of type_len × 4 bytes;
 *   0      u32 length (counting itself), payload rounded up to 4;
 *   29     PADDING: u32 length of the padding after the header word
 *          (a discarded event, or the rest of the page);
 *   30     TIME_EXTEND: delta = (u32 << 27) + time_delta;
 *   31     TIME_STAMP: absolute stamp, 59 bits (u32 << 27) + time_delta,
 *          the 5 most significant bits taken from the running stamp.
 * The running stamp starts at the page time stamp; every entry but
 * TIME_STAMP adds its delta (libtraceevent kbuffer-parse.c does the same).
 */
#include "gsttracecmd-private.h"

#define TD_COMMIT_MASK      ((1u << 27) - 1)
#define TD_MISSING_EVENTS   (1ull << 31)
#define TD_MISSING_STORED   (1ull << 30)
#define TD_TS_SHIFT         27
#define TD_TS_MSB           (0xf8ull << 56)

#define TD_TYPE_PADDING     29
#define TD_TYPE_TIME_EXTEND 30
#define TD_TYPE_TIME_STAMP  31

/**
 * gst_ctf_trace_dat_page_init:
 * @page: (out caller-allocates): the parser state to fill
 * @data: (array length=size): the page bytes
 * @size: bytes available at @data (normally the page size; the commit
 *   must fit)
 * @byte_order: the file's byte order
 * @commit_size: size of the header's `commit` field: the kernel `long`
 *   (4 or 8, from `header_page`)
 * @data_offset: offset of the first event (`data` in `header_page`:
 *   12 or 16)
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Reads a page header.  @data must stay valid while @page is used.
 *
 * Returns: TRUE on success, FALSE when the header does not fit or the
 *   commit goes past @size.
 */
gboolean
gst_ctf_trace_dat_page_init (GstCtfTraceDatPage * page, const guint8 * data,
    gsize size, GstCtfByteOrder byte_order, guint commit_size,
    guint data_offset, GError ** error)
{
  guint64 flags;

  memset (page, 0, sizeof (*page));
  if ((commit_size != 4 && commit_size != 8) || data_offset < 8 + commit_size
      || size < data_offset) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Cannot read ring-buffer page header: page-size=%" G_GSIZE_FORMAT
        ", commit-size=%u, data-offset=%u", size, commit_size, data_offset);
    return FALSE;
  }
  page->data = data;
  page->size = size;
  page->byte_order = byte_order;
  page->data_offset = data_offset;
  page->timestamp = td_read64 (byte_order, data);
  flags = td_read_n (byte_order, data + 8, commit_size);
  page->commit = (guint) (flags & TD_COMMIT_MASK);
  if (page->commit > size - data_offset) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Ring-buffer page commit goes past the page: commit=%u, "
        "page-size=%" G_GSIZE_FORMAT ", data-offset=%u", page->commit, size,
        data_offset);
    return FALSE;
  }
  if (flags & TD_MISSING_EVENTS) {
    gsize at = (gsize) data_offset + page->commit;

    page->missed_events = -1;
    /* MISSING_STORED: the count is a kernel long after the data */
    if ((flags & TD_MISSING_STORED) && at + commit_size <= size)
      page->missed_events =
          (gint64) td_read_n (byte_order, data + at, commit_size);
  }
  page->ts = page->timestamp;
  page->pos = 0;
  page->first = TRUE;
  return TRUE;
}

/**
 * gst_ctf_trace_dat_page_next:
 * @page: a page from gst_ctf_trace_dat_page_init()
 * @rec: (out caller-allocates): the next data record
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Moves to the next data record, applying TIME_EXTEND, TIME_STAMP and
 * PADDING entries on the way.
 *
 * Returns: 1 with @rec filled, 0 at the end of the page, -1 on a corrupt
 *   entry (@error set).
 */
gint
gst_ctf_trace_dat_page_next (GstCtfTraceDatPage * page,
    GstCtfTraceDatPageRecord * rec, GError ** error)
{
  const guint8 *d = page->data + page->data_offset;
  GstCtfByteOrder bo = page->byte_order;

  while (page->pos < page->commit) {
    guint32 w, type_len, delta, len, p;
    guint avail;

    if (page->commit - page->pos < 4)
      goto truncated;
    w = td_read32 (bo, d + page->pos);
    if (bo == GST_CTF_BYTE_ORDER_LE) {
      type_len = w & 0x1f;
      delta = w >> 5;
    } else {
      type_len = w >> 27;
      delta = w & TD_COMMIT_MASK;
    }
    p = page->pos + 4;
    avail = page->commit - p;

    switch (type_len) {
      case TD_TYPE_PADDING:
        page->ts += delta;
        /* A padding too short for its length word ends the page. */
        if (avail < 4) {
          page->pos = page->commit;
          return 0;
        }
        len = td_read32 (bo, d + p);
        page->pos = len >= avail ? page->commit : p + len;
        continue;
      case TD_TYPE_TIME_EXTEND:
        if (avail < 4)
          goto truncated;
        page->ts += ((guint64) td_read32 (bo, d + p) << TD_TS_SHIFT) + delta;
        page->pos = p + 4;
        continue;
      case TD_TYPE_TIME_STAMP:{
        guint64 msb = page->ts & TD_TS_MSB;

        if (avail < 4)
          goto truncated;
        page->ts = (((guint64) td_read32 (bo, d + p) << TD_TS_SHIFT) + delta)
            | msb;
        page->pos = p + 4;
        continue;
      }
      case 0:
        if (avail < 4)
          goto truncated;
        len = td_read32 (bo, d + p);
        if (len < 4)
          goto bad_length;
        len = ((len - 4) + 3) & ~3u;
        p += 4;
        avail -= 4;
        break;
      default:
        len = type_len * 4;
        break;
    }
    if (len > avail)
      goto bad_length;
    page->ts += delta;
    rec->timestamp = page->ts;
    rec->data = d + p;
    rec->size = len;
    rec->offset = page->data_offset + p;
    rec->missed_events = page->first ? page->missed_events : 0;
    page->first = FALSE;
    page->pos = p + len;
    return 1;
  }
  return 0;

truncated:
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
      "Truncated ring-buffer event header: page-offset=%u, commit=%u",
      page->data_offset + page->pos, page->commit);
  return -1;
bad_length:
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
      "Ring-buffer event goes past the page commit: page-offset=%u, "
      "commit=%u", page->data_offset + page->pos, page->commit);
  return -1;
}
