/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctf-decode: decode-only event throughput of the gst-ctf library.
 *
 *   ctf-decode [-a] [-j N] [-q] TRACE_DIR...
 *
 * Opens the CTF traces at or below each TRACE_DIR (as ctfsrc does: stream
 * files mapped, packet index from LTTng `index/` files or a header scan)
 * and decodes every event of every packet of every stream with the
 * library's compiled plans (gstctf-reader.h), without any output, so that
 * decoding is measured apart from I/O and text.
 *
 *   -a    decode all fields (record every value, what a consumer that reads
 *         the payloads pays, and what babeltrace2 always does); default:
 *         walk the events (header, ids, timestamps, dynamic sizes; static
 *         effect-free subtrees are skipped), what a packet filter pays
 *   -j N  decode streams on N threads (one iterator per thread, streams
 *         handed out largest first); 0 = one per CPU; default 1
 *   -q    print only the line of figures
 *
 * Prints the event and packet counts, the bytes of packets decoded, the
 * open (index) time and the decode time with ns/event and MB/s.
 */
#include <gstctf-trace-dir.h>
#include <gstctf-reader.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

typedef struct {
  GstCtfTraceDir *td;
  GstCtfStream *stream;
  guint64 bytes;
} Job;

typedef struct {
  GPtrArray *jobs;              /* Job*, shared; taken with next_job */
  gint next_job;
  gboolean all_fields;
  /* totals, added under lock */
  GMutex lock;
  guint64 events;
  guint64 packets;
  guint64 bytes;
  guint errors;
} Shared;

/* As ctfsrc does once a packet is consumed: its whole pages leave the
 * resident set (they stay in the page cache), so that peak RSS does not
 * grow with the trace. */
static void
drop_pages (const guint8 * data, gsize size)
{
  static gsize page = 0;
  guintptr b, e;

  if (page == 0)
    page = (gsize) sysconf (_SC_PAGESIZE);
  b = ((guintptr) data + page - 1) & ~(guintptr) (page - 1);
  e = ((guintptr) data + size) & ~(guintptr) (page - 1);
  if (e > b)
    madvise ((void *) b, e - b, MADV_DONTNEED);
}

/* Decodes the packets of one stream with the iterator of the thread. */
static void
decode_stream (Shared * sh, GstCtfEventIter * it, const Job * job,
    guint64 * n_events, guint64 * n_packets, guint64 * n_bytes)
{
  GstCtfStream *s = job->stream;
  guint n = s->packets->len;
  guint64 clock = 0;
  guint i;

  if (s->error != NULL)
    n = MIN (n, s->error_after);
  for (i = 0; i < n; i++) {
    const GstCtfStreamPacket *p =
        &g_array_index (s->packets, GstCtfStreamPacket, i);
    const GstCtfIndexEntry *e = p->entry;
    GError *err = NULL;
    gsize size = e->packet_size;     /* bytes */

    if (!gst_ctf_event_iter_set_packet (it, p->file->data + e->offset,
            size, &err)) {
      g_printerr ("ctf-decode: %s\n", err->message);
      g_clear_error (&err);
      g_atomic_int_inc (&sh->errors);
      return;
    }
    /* CTF 1.8 §8: a packet without timestamp_begin continues the clock of
     * the previous packet of its stream. */
    if (!gst_ctf_event_iter_get_packet_info (it)->has_timestamp_begin)
      gst_ctf_event_iter_set_clock_value (it, clock);
    while (gst_ctf_event_iter_next (it, &err))
      (*n_events)++;
    if (err != NULL) {
      g_printerr ("ctf-decode: %s\n", err->message);
      g_clear_error (&err);
      g_atomic_int_inc (&sh->errors);
      return;
    }
    clock = gst_ctf_event_iter_get_clock_value (it);
    drop_pages (p->file->data + e->offset, size);
    (*n_packets)++;
    *n_bytes += size;
  }
}

static gpointer
worker (gpointer data)
{
  Shared *sh = data;
  GstCtfTraceDir *cur_td = NULL;
  GstCtfEventIter *it = NULL;
  guint64 events = 0, packets = 0, bytes = 0;
  gint i;

  while ((i = g_atomic_int_add (&sh->next_job, 1)) < (gint) sh->jobs->len) {
    const Job *job = g_ptr_array_index (sh->jobs, i);

    /* one iterator per trace class, kept while jobs of the same trace
     * follow (its plans are compiled once) */
    if (job->td != cur_td) {
      if (it != NULL)
        gst_ctf_event_iter_free (it);
      cur_td = job->td;
      it = gst_ctf_event_iter_new (cur_td->trace_class);
      gst_ctf_event_iter_set_recording (it, sh->all_fields);
    }
    decode_stream (sh, it, job, &events, &packets, &bytes);
  }
  if (it != NULL)
    gst_ctf_event_iter_free (it);
  g_mutex_lock (&sh->lock);
  sh->events += events;
  sh->packets += packets;
  sh->bytes += bytes;
  g_mutex_unlock (&sh->lock);
  return NULL;
}

static gint
compare_jobs (gconstpointer a, gconstpointer b)
{
  const Job *ja = *(const Job * const *) a, *jb = *(const Job * const *) b;

  return (ja->bytes < jb->bytes) - (ja->bytes > jb->bytes);
}

static void
usage (void)
{
  g_printerr ("usage: ctf-decode [-a] [-j THREADS] [-q] TRACE_DIR...\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  GPtrArray *tds = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_trace_dir_free);
  Shared sh;
  GThread **threads;
  gint64 t0, t1, t2;
  gboolean quiet = FALSE;
  gint n_threads = 1;
  gint opt;
  guint i, j;
  double dec_s;

  memset (&sh, 0, sizeof (sh));
  g_mutex_init (&sh.lock);
  sh.jobs = g_ptr_array_new_with_free_func (g_free);
  while ((opt = getopt (argc, argv, "aj:qh")) != -1) {
    switch (opt) {
      case 'a':
        sh.all_fields = TRUE;
        break;
      case 'j':
        n_threads = atoi (optarg);
        break;
      case 'q':
        quiet = TRUE;
        break;
      default:
        usage ();
    }
  }
  if (optind >= argc)
    usage ();
  if (n_threads <= 0)
    n_threads = (gint) g_get_num_processors ();

  t0 = g_get_monotonic_time ();
  for (i = optind; i < (guint) argc; i++) {
    GError *err = NULL;
    GPtrArray *paths = gst_ctf_find_traces (argv[i], &err);

    if (paths == NULL) {
      g_printerr ("ctf-decode: %s\n", err->message);
      return 1;
    }
    for (j = 0; j < paths->len; j++) {
      GstCtfTraceDir *td = gst_ctf_trace_dir_open (g_ptr_array_index (paths,
              j), &err);
      if (td == NULL) {
        g_printerr ("ctf-decode: %s\n", err->message);
        return 1;
      }
      g_ptr_array_add (tds, td);
    }
    g_ptr_array_unref (paths);
  }
  for (i = 0; i < tds->len; i++) {
    GstCtfTraceDir *td = g_ptr_array_index (tds, i);

    for (j = 0; j < td->streams->len; j++) {
      Job *job = g_new0 (Job, 1);
      guint k;

      job->td = td;
      job->stream = g_ptr_array_index (td->streams, j);
      for (k = 0; k < job->stream->packets->len; k++)
        job->bytes += g_array_index (job->stream->packets,
            GstCtfStreamPacket, k).entry->packet_size;
      g_ptr_array_add (sh.jobs, job);
    }
  }
  /* Largest streams first, so that threads finish together; keep the
   * jobs of one trace together when single-threaded. */
  if (n_threads > 1)
    g_ptr_array_sort (sh.jobs, compare_jobs);
  n_threads = MAX (1, MIN ((guint) n_threads, sh.jobs->len));

  t1 = g_get_monotonic_time ();
  threads = g_new0 (GThread *, n_threads);
  for (i = 1; i < (guint) n_threads; i++)
    threads[i] = g_thread_new ("decode", worker, &sh);
  worker (&sh);
  for (i = 1; i < (guint) n_threads; i++)
    g_thread_join (threads[i]);
  t2 = g_get_monotonic_time ();
  g_free (threads);

  dec_s = (t2 - t1) / 1e6;
  if (!quiet) {
    g_print ("traces %u, streams %u, threads %d, %s\n", tds->len,
        sh.jobs->len, n_threads, sh.all_fields ? "all fields" : "walk");
    g_print ("open + index: %.3f s\n", (t1 - t0) / 1e6);
  }
  g_print ("events %" G_GUINT64_FORMAT " packets %" G_GUINT64_FORMAT
      " bytes %" G_GUINT64_FORMAT " decode %.3f s %.1f ns/event %.0f MB/s\n",
      sh.events, sh.packets, sh.bytes, dec_s,
      sh.events ? dec_s * 1e9 / sh.events : 0.0,
      dec_s > 0 ? sh.bytes / 1e6 / dec_s : 0.0);

  g_ptr_array_unref (sh.jobs);
  g_ptr_array_unref (tds);
  g_mutex_clear (&sh.lock);
  return sh.errors ? 1 : 0;
}
