/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat -> CTF packets: the trace's time range and TIME seeks.
 *
 * Pages of one CPU are in time order, and a page header's time stamp is
 * at or before its first event's (each event adds its delta to it,
 * gsttracecmd-page.c).  A seek to T binary-searches each CPU for the last
 * page whose header time is at or before T (page random access:
 * gst_ctf_trace_dat_cpu_iter_seek_page()), and the streams go on from
 * there: every event at or after T is still pushed, with a few before it
 * (the rest of that page), as ctfsrc does with whole packets.  The end of
 * the trace is the last event of each CPU's last non-empty page.  Probes
 * use iterators of their own, so the streams' look-ahead pages stay valid.
 */
#include "gsttracecmd-private.h"
#include "gsttracecmd-packetizer.h"

#if defined(G_OS_UNIX)
#include <sys/mman.h>
#include <unistd.h>
#endif

/* Pages looked at, from the last, for a CPU's last event. */
#define END_PAGES 16

/* A fault on a file mapping also maps the cached pages around it (Linux's
 * fault-around, 64 KiB by default): each page a binary search looks at
 * leaves that much resident.  A reader seeking from range to range (the
 * GTK timeline's deep zoom) kept 25 MB of a 142 MB file resident after 16
 * seeks; the pages probed are given back after the search. */
#define PROBE_SPAN (64 * 1024)
#define MAX_PROBES 64

static void
release_probes (GstCtfTraceDat * td, const guint8 ** probes, guint n)
{
#if defined(G_OS_UNIX) && defined(MADV_DONTNEED)
  guint64 ps = (guint64) sysconf (_SC_PAGESIZE);
  guint i;

  if (!td->mapped)
    return;
  for (i = 0; i < n; i++) {
    guint64 off = (guint64) (probes[i] - td->base);
    guint64 start = off / PROBE_SPAN * PROBE_SPAN;
    guint64 end = MIN (start + PROBE_SPAN, (guint64) td->file_size / ps * ps);

    if (end > start)
      madvise ((gpointer) (td->base + start), end - start, MADV_DONTNEED);
  }
#endif
}

static guint64
clock_value (GstCtfTraceDat * td, guint64 raw)
{
  return gst_ctf_trace_dat_convert_ts (td, raw) - (guint64) td->ts_offset;
}

static gint64
to_ns (GstCtfTraceDatPacketizer * p, guint64 cv)
{
  const GstCtfClockClass *cc = g_ptr_array_index (p->cls->tc->clock_classes, 0);

  return (gint64) cv + cc->offset_s * 1000000000 + cc->offset;
}

/* Page @i's header time (clock value): 1, 0 when there is no such page
 * or it is too short for a header, -1 on a bad chunk. */
static gint
page_time (GstCtfTraceDatPacketizer * p, GstCtfTraceDatCpuIter * it,
    guint64 i, guint64 * cv, const guint8 ** probed, GError ** error)
{
  const guint8 *page;
  gsize len;
  gint r;

  if (!gst_ctf_trace_dat_cpu_iter_seek_page (it, i, error))
    return -1;
  r = gst_ctf_trace_dat_cpu_iter_next_page (it, &page, &len, error);
  if (r <= 0)
    return r;
  if (page >= p->td->base && page < p->td->base + p->td->file_size)
    *probed = page;
  if (len < 8)
    return 0;
  *cv = clock_value (p->td, td_read64 (p->td->byte_order, page));
  return 1;
}

/* The last page of @s whose header time is at or before @cv (0 when
 * none is). */
static gboolean
find_page (GstCtfTraceDatPacketizer * p, Stream * s, guint64 cv,
    guint64 * page, GError ** error)
{
  GstCtfTraceDatCpuIter *it = gst_ctf_trace_dat_cpu_iter_new (p->td,
      s->buffer, s->cpu_index, error);
  gint64 n;
  guint64 lo = 0, hi;
  gboolean ok = FALSE;
  const guint8 *probes[MAX_PROBES];
  guint n_probes = 0;

  if (!it)
    return FALSE;
  n = gst_ctf_trace_dat_cpu_iter_get_n_pages (it, error);
  if (n < 0)
    goto out;
  /* first page whose time is after @cv, in [lo, hi) */
  hi = (guint64) n;
  while (lo < hi) {
    guint64 mid = lo + (hi - lo) / 2, t = 0;
    const guint8 *probed = NULL;
    gint r = page_time (p, it, mid, &t, &probed, error);

    if (probed != NULL && n_probes < MAX_PROBES)
      probes[n_probes++] = probed;
    if (r < 0)
      goto out;
    if (r > 0 && t <= cv)
      lo = mid + 1;
    else
      hi = mid;
  }
  *page = lo > 0 ? lo - 1 : 0;
  ok = TRUE;
out:
  release_probes (p->td, probes, n_probes);
  gst_ctf_trace_dat_cpu_iter_free (it);
  return ok;
}

/* The time of @s's last event: from its last page back (corrupt pages
 * and empty ones are passed over).  FALSE with @error unset when none of
 * the last END_PAGES pages has one. */
static gboolean
last_event (GstCtfTraceDatPacketizer * p, Stream * s, guint64 * cv,
    GError ** error)
{
  GstCtfTraceDat *td = p->td;
  GstCtfTraceDatCpuIter *it = gst_ctf_trace_dat_cpu_iter_new (td, s->buffer,
      s->cpu_index, error);
  gint64 n, i;
  gboolean found = FALSE;

  if (!it)
    return FALSE;
  n = gst_ctf_trace_dat_cpu_iter_get_n_pages (it, error);
  for (i = n - 1; !found && i >= 0 && i >= n - END_PAGES; i--) {
    GstCtfTraceDatPage pg;
    GstCtfTraceDatPageRecord pr;
    const guint8 *page;
    gsize len;

    if (!gst_ctf_trace_dat_cpu_iter_seek_page (it, (guint64) i, error) ||
        gst_ctf_trace_dat_cpu_iter_next_page (it, &page, &len, error) < 0)
      break;
    if (!gst_ctf_trace_dat_page_init (&pg, page, len, td->byte_order,
            td->kernel_long_size, td->page_data_offset, NULL))
      continue;
    while (gst_ctf_trace_dat_page_next (&pg, &pr, NULL) > 0) {
      guint64 t = clock_value (td, pr.timestamp);

      if (!found || t > *cv)
        *cv = t;
      found = TRUE;
    }
  }
  gst_ctf_trace_dat_cpu_iter_free (it);
  return found;
}

/**
 * gst_ctf_trace_dat_packetizer_get_time_range:
 * @p: a packetizer
 * @begin_ns: (out) (optional): the first packet's `timestamp_begin`, in
 *   ns from the clock origin (with the clock class offset), as
 *   #GstCtfTraceDatPacketInfo.begin_ns gives it
 * @end_ns: (out) (optional): the time of the trace's last event, same
 *   unit
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error (a chunk
 *   table or a first page that cannot be read)
 *
 * The range the conversion covers, for DURATION and SEEKING answers: the
 * first pages of every CPU and the last non-empty page of each are read
 * (one chunk per CPU inflated for compressed data).  A trace without
 * events gives @begin_ns = @end_ns = -1.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_ctf_trace_dat_packetizer_get_time_range (GstCtfTraceDatPacketizer * p,
    gint64 * begin_ns, gint64 * end_ns, GError ** error)
{
  guint i;

  if (!_gst_ctf_trace_dat_packetizer_start (p, error))
    return FALSE;
  if (!p->have_end) {
    gboolean any = FALSE;

    for (i = 0; i < p->n_streams; i++) {
      guint64 t = 0;
      GError *err = NULL;

      if (last_event (p, &p->streams[i], &t, &err)) {
        if (!any || t > p->end_cv)
          p->end_cv = t;
        any = TRUE;
      } else if (err) {
        g_propagate_error (error, err);
        return FALSE;
      }
    }
    p->have_end = TRUE;
    p->has_events = any;
  }
  if (begin_ns)
    *begin_ns = p->has_events ? to_ns (p, p->t0) : -1;
  if (end_ns)
    *end_ns = p->has_events ? to_ns (p, MAX (p->end_cv, p->t0)) : -1;
  return TRUE;
}

/**
 * gst_ctf_trace_dat_packetizer_seek:
 * @p: a packetizer
 * @ns: a time in ns from the clock origin (with the clock class offset,
 *   as #GstCtfTraceDatPacketInfo.begin_ns)
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Makes the next packets start at @ns: the side stream's packets again
 * (the information the file holds is not in a time range), then each
 * CPU's pages from the last one whose header time is at or before @ns
 * (binary search over the pages).  Every event at or after @ns follows;
 * the first packet of a CPU may hold a few events before it.  The
 * streams' `events_discarded` counters start again from 0, as for a
 * trace that begins there.  @ns before the trace's start converts
 * everything, as at first.
 *
 * Returns: %TRUE on success
 */
gboolean
gst_ctf_trace_dat_packetizer_seek (GstCtfTraceDatPacketizer * p, gint64 ns,
    GError ** error)
{
  const GstCtfClockClass *cc;
  gint64 origin;
  guint64 cv;
  guint i;

  if (!_gst_ctf_trace_dat_packetizer_start (p, error))
    return FALSE;
  cc = g_ptr_array_index (p->cls->tc->clock_classes, 0);
  origin = cc->offset_s * 1000000000 + cc->offset;
  cv = ns <= origin ? 0 : (guint64) (ns - origin);

  for (i = 0; i < p->n_streams; i++) {
    Stream *s = &p->streams[i];
    guint64 page = 0;

    if (cv > p->t0 && !find_page (p, s, cv, &page, error))
      return FALSE;
    if (!gst_ctf_trace_dat_cpu_iter_seek_page (s->it, page, error))
      return FALSE;
    _gst_ctf_trace_dat_packetizer_stream_reset (p, s, page);
    if (!_gst_ctf_trace_dat_packetizer_stream_load (p, s, error))
      return FALSE;
  }
  _gst_ctf_trace_dat_packetizer_file_reset (p);
  /* the side stream (and the statedump) again, at the seek's time: a
   * time window starting there keeps them */
  p->side_cv = MAX (cv, p->t0);
  return TRUE;
}
