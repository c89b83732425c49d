/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfTraceSource: the packets of the traces at or below a directory in
 * ctfsrc's order (see gstctf-trace-source.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include "gstctf-trace-source.h"
#include "gstctf-trace-dir.h"
#include "gstctf-trace-merge.h"
#include "gstctf-metadata.h"
#include "gstctf-heap-private.h"

/* Read position in one logical stream. */
typedef struct {
  const GstCtfStream *stream;
  guint trace;                  /* index in tds */
  guint64 new_sc_id;            /* stream class id in the output class */
  guint rank;                   /* tie order over all streams */
  guint cursor;                 /* next packet in stream->packets */
  guint end_cursor;             /* packets from it on are left out
                                 * (G_MAXUINT: none) */
  gint64 last_key;              /* ordering key of the last packet given */
  /* its place in the order of next packets (pos_refresh()): the key of
   * its next packet, or of its error when only that is left */
  gint64 key;
  gboolean is_error;
  gint heap_index;              /* in heap, -1 when it has nothing left */
} StreamPos;

struct _GstCtfTraceSource {
  GPtrArray *tds;               /* GstCtfTraceDir, merge input order */
  GPtrArray *names;             /* babeltrace2's name of each */
  GstCtfTraceMerge *merge;      /* several traces: their merge */
  StreamPos *pos;
  guint n_pos;
  GPtrArray *heap;              /* StreamPos with something left, next first */
  gboolean heap_stale;          /* cursors moved: heap to be made again */
  gboolean done;
};

/* One group of trace directories with one UUID: one logical trace. */
typedef struct {
  GPtrArray *paths;
  GstCtfTraceClass *tc;         /* of the first path, for the order */
  gchar *metadata;              /* its text */
  gchar *name;                  /* babeltrace2's trace name */
} TraceGroup;

static void
trace_group_free (TraceGroup * g)
{
  g_ptr_array_unref (g->paths);
  if (g->tc)
    gst_ctf_trace_class_unref (g->tc);
  g_free (g->metadata);
  g_free (g->name);
  g_free (g);
}

static gint
compare_groups (gconstpointer a, gconstpointer b)
{
  const TraceGroup *x = *(const TraceGroup * const *) a;
  const TraceGroup *y = *(const TraceGroup * const *) b;

  return gst_ctf_trace_merge_compare_traces (x->tc, x->name, y->tc, y->name);
}

/* Groups the trace directories by UUID, in babeltrace2's trace order. */
static GPtrArray *
group_traces (const gchar * location, GPtrArray * traces, GError ** error)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify)
      trace_group_free);
  guint i, j;

  for (i = 0; i < traces->len; i++) {
    const gchar *path = g_ptr_array_index (traces, i);
    gchar *mpath = g_build_filename (path, "metadata", NULL);
    gchar *text = gst_ctf_metadata_load_file (mpath, error);
    GstCtfTraceClass *tc = text ?
        gst_ctf_metadata_parse_shared (text, mpath, error) :
        NULL;
    TraceGroup *g = NULL;

    g_free (mpath);
    if (tc == NULL) {
      g_free (text);
      g_ptr_array_unref (groups);
      return NULL;
    }
    for (j = 0; tc->has_uuid && j < groups->len; j++) {
      TraceGroup *o = g_ptr_array_index (groups, j);

      if (o->tc->has_uuid && memcmp (o->tc->uuid, tc->uuid, 16) == 0) {
        g = o;
        break;
      }
    }
    if (g != NULL) {
      g_ptr_array_add (g->paths, g_strdup (path));
      gst_ctf_trace_class_unref (tc);
      g_free (text);
      continue;
    }
    g = g_new0 (TraceGroup, 1);
    g->paths = g_ptr_array_new_with_free_func (g_free);
    g_ptr_array_add (g->paths, g_strdup (path));
    g->tc = tc;
    g->metadata = text;
    g_ptr_array_add (groups, g);
  }
  /* babeltrace2 names a trace of several directories (one UUID) by its
   * host name alone */
  for (i = 0; i < groups->len; i++) {
    TraceGroup *g = g_ptr_array_index (groups, i);

    g->name = gst_ctf_trace_name (g->tc, location, g->paths->len == 1 ?
        (const gchar *) g_ptr_array_index (g->paths, 0) : NULL);
  }
  g_ptr_array_sort (groups, compare_groups);
  return groups;
}

/* babeltrace2 reads the first packet header and context of every stream
 * file when it opens a trace and fails there, before any event; with
 * GST_CTF_TRACE_SOURCE_OPEN_CLOCK_ERRORS also when a packet's times cannot
 * be converted (a clock offset beyond 2^63 ns), as its index does. */
static const GError *
first_packet_error (const GstCtfTraceDir * td, GstCtfTraceSourceOpenFlags
    flags)
{
  guint i;

  for (i = 0; i < td->files->len; i++) {
    const GstCtfStreamFile *f = g_ptr_array_index (td->files, i);

    if (!f->first_packet_ok && f->error)
      return f->error;
    if ((flags & GST_CTF_TRACE_SOURCE_OPEN_CLOCK_ERRORS) && f->error &&
        g_error_matches (f->error, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK))
      return f->error;
  }
  return NULL;
}

static gint
compare_pos_by_rank (gconstpointer a, gconstpointer b)
{
  const StreamPos *x = *(const StreamPos * const *) a;
  const StreamPos *y = *(const StreamPos * const *) b;

  if (x->new_sc_id != y->new_sc_id)
    return x->new_sc_id < y->new_sc_id ? -1 : 1;
  if (x->trace != y->trace)
    return x->trace < y->trace ? -1 : 1;
  return (gint) x->stream->stream_index - (gint) y->stream->stream_index;
}

/* One position per stream of every trace; with several traces, ranks by
 * merged stream class id (trace order, then the trace's stream class id),
 * then the stream's rank in its trace. */
static void
make_positions (GstCtfTraceSource * src)
{
  GPtrArray *by_rank;
  guint i, j, n = 0;

  for (i = 0; i < src->tds->len; i++)
    n += ((GstCtfTraceDir *) g_ptr_array_index (src->tds, i))->streams->len;
  src->pos = g_new0 (StreamPos, MAX (n, 1));
  src->heap = g_ptr_array_sized_new (MAX (n, 1));
  src->heap_stale = TRUE;
  for (i = 0; i < src->tds->len; i++) {
    GstCtfTraceDir *td = g_ptr_array_index (src->tds, i);

    for (j = 0; j < td->streams->len; j++) {
      StreamPos *p = &src->pos[src->n_pos++];

      p->stream = g_ptr_array_index (td->streams, j);
      p->trace = i;
      p->last_key = G_MININT64;
      p->end_cursor = G_MAXUINT;
      p->new_sc_id = p->stream->stream_class_id;
      p->rank = p->stream->stream_index;
      if (src->merge != NULL && !gst_ctf_trace_merge_map_stream_class
          (src->merge, i, p->stream->stream_class_id, &p->new_sc_id))
        p->new_sc_id = G_MAXUINT64;
    }
  }
  if (src->merge == NULL)
    return;
  by_rank = g_ptr_array_sized_new (src->n_pos);
  for (i = 0; i < src->n_pos; i++)
    g_ptr_array_add (by_rank, &src->pos[i]);
  g_ptr_array_sort (by_rank, compare_pos_by_rank);
  for (i = 0; i < by_rank->len; i++)
    ((StreamPos *) g_ptr_array_index (by_rank, i))->rank = i;
  g_ptr_array_unref (by_rank);
}

/* Opens the trace directories of @groups (babeltrace2's trace order)
 * and, several, merges their trace classes; on failure says where in
 * @failure, @error unprefixed. */
static gboolean
open_groups (GstCtfTraceSource * src, const gchar * location,
    GPtrArray * groups, GstCtfTraceSourceOpenFlags flags,
    GstCtfTraceSourceFailure * failure, GError ** error)
{
  GstCtfTraceClass **tcs;
  const gchar **names;
  gboolean ok = FALSE;
  guint i, n = groups->len;

  tcs = g_new0 (GstCtfTraceClass *, n);
  names = g_new0 (const gchar *, n);
  for (i = 0; i < n; i++) {
    TraceGroup *g = g_ptr_array_index (groups, i);
    GstCtfTraceDir *td;
    const GError *first;

    /* one directory whose metadata is parsed already */
    if (g->paths->len == 1 && g->tc != NULL)
      td = gst_ctf_trace_dir_open_parsed (g_ptr_array_index (g->paths, 0),
          g->metadata, g->tc, error);
    else
      td = gst_ctf_trace_dir_open_merged ((const gchar * const *)
          g->paths->pdata, g->paths->len, n == 1 && g->paths->len > 1 ?
          location : NULL, error);
    if (td == NULL)
      goto done;
    g_ptr_array_add (src->tds, td);
    /* babeltrace2 names a lone trace from what its directory holds; a
     * trace of several directories (one UUID) by its host name alone */
    if (g->name == NULL)
      g->name = gst_ctf_trace_name (td->trace_class, location,
          g->paths->len == 1 ? (const gchar *) g_ptr_array_index (g->paths,
              0) : NULL);
    else if (n == 1) {
      g_free (g->name);
      g->name = gst_ctf_trace_name (td->trace_class, location,
          g->paths->len == 1 ? (const gchar *) g_ptr_array_index (g->paths,
              0) : NULL);
    }
    g_ptr_array_add (src->names, g_strdup (g->name));
    first = first_packet_error (td, flags);
    if (first != NULL) {
      failure->stage = GST_CTF_TRACE_SOURCE_FAILED_FIRST_PACKET;
      failure->trace_path = g_strdup (td->path);
      g_propagate_error (error, g_error_copy (first));
      goto done;
    }
    tcs[i] = td->trace_class;
    names[i] = g->name;
  }
  if (n > 1) {
    if (!gst_ctf_trace_merge_check_clocks (tcs, names, n, error) ||
        (src->merge = gst_ctf_trace_merge_new (tcs, names, n,
                error)) == NULL) {
      failure->stage = GST_CTF_TRACE_SOURCE_FAILED_MERGE;
      goto done;
    }
  }
  make_positions (src);
  ok = TRUE;

done:
  g_free (tcs);
  g_free (names);
  return ok;
}

GstCtfTraceSource *
gst_ctf_trace_source_open_full (const gchar * location,
    GstCtfTraceSourceOpenFlags flags, GstCtfTraceSourceFailure * failure,
    GError ** error)
{
  GstCtfTraceSourceFailure dummy;
  GstCtfTraceSource *src;
  GPtrArray *traces, *groups;
  gchar *dir = NULL;
  gboolean ok;

  g_return_val_if_fail (location != NULL, NULL);
  if (failure == NULL)
    failure = &dummy;
  memset (failure, 0, sizeof (*failure));

  /* A `metadata` file stands for its directory. */
  if (g_file_test (location, G_FILE_TEST_IS_REGULAR)) {
    gchar *base = g_path_get_basename (location);

    if (strcmp (base, "metadata") == 0)
      dir = g_path_get_dirname (location);
    g_free (base);
  }
  if (dir == NULL)
    dir = g_strdup (location);

  traces = gst_ctf_find_traces (dir, error);
  if (traces == NULL) {
    g_free (dir);
    return NULL;
  }
  if (traces->len == 1) {
    /* one directory: nothing to group (its metadata is read once, when
     * it is opened) */
    TraceGroup *g = g_new0 (TraceGroup, 1);

    g->paths = g_ptr_array_new_with_free_func (g_free);
    g_ptr_array_add (g->paths, g_strdup (g_ptr_array_index (traces, 0)));
    groups = g_ptr_array_new_with_free_func ((GDestroyNotify)
        trace_group_free);
    g_ptr_array_add (groups, g);
  } else {
    groups = group_traces (dir, traces, error);
  }
  g_ptr_array_unref (traces);
  if (groups == NULL) {
    g_free (dir);
    return NULL;
  }
  failure->n_traces = groups->len;
  src = g_new0 (GstCtfTraceSource, 1);
  src->tds = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_trace_dir_free);
  src->names = g_ptr_array_new_with_free_func (g_free);
  ok = open_groups (src, dir, groups, flags, failure, error);
  g_ptr_array_unref (groups);
  g_free (dir);
  if (!ok) {
    gst_ctf_trace_source_free (src);
    return NULL;
  }
  return src;
}

void
gst_ctf_trace_source_failure_clear (GstCtfTraceSourceFailure * failure)
{
  if (failure != NULL)
    g_clear_pointer (&failure->trace_path, g_free);
}

GstCtfTraceSource *
gst_ctf_trace_source_open (const gchar * location, GError ** error)
{
  GstCtfTraceSourceFailure failure;
  GError *err = NULL;
  GstCtfTraceSource *src;

  src = gst_ctf_trace_source_open_full (location,
      GST_CTF_TRACE_SOURCE_OPEN_NONE, &failure, &err);
  if (src != NULL)
    return src;
  switch (failure.stage) {
    case GST_CTF_TRACE_SOURCE_FAILED_FIRST_PACKET:
      g_prefix_error (&err, "Cannot read CTF trace \"%s\": ",
          failure.trace_path ? failure.trace_path : location);
      break;
    case GST_CTF_TRACE_SOURCE_FAILED_MERGE:
      g_prefix_error (&err, "Cannot read the %u traces below \"%s\" "
          "merged: ", failure.n_traces, location);
      break;
    case GST_CTF_TRACE_SOURCE_FAILED_NONE:
    default:
      break;
  }
  g_propagate_error (error, err);
  gst_ctf_trace_source_failure_clear (&failure);
  return NULL;
}

void
gst_ctf_trace_source_free (GstCtfTraceSource * src)
{
  if (src == NULL)
    return;
  g_clear_pointer (&src->merge, gst_ctf_trace_merge_free);
  g_ptr_array_unref (src->tds);
  g_ptr_array_unref (src->names);
  g_free (src->pos);
  if (src->heap)
    g_ptr_array_unref (src->heap);
  g_free (src);
}

GstCtfTraceClass *
gst_ctf_trace_source_get_trace_class (GstCtfTraceSource * src)
{
  g_return_val_if_fail (src != NULL, NULL);
  if (src->merge != NULL)
    return gst_ctf_trace_merge_get_trace_class (src->merge);
  return ((GstCtfTraceDir *) g_ptr_array_index (src->tds, 0))->trace_class;
}

const gchar *
gst_ctf_trace_source_get_metadata (GstCtfTraceSource * src)
{
  g_return_val_if_fail (src != NULL, NULL);
  if (src->merge != NULL)
    return gst_ctf_trace_merge_get_metadata (src->merge);
  return ((GstCtfTraceDir *) g_ptr_array_index (src->tds, 0))->metadata;
}

static inline gint64
packet_key (const GstCtfIndexEntry * e, const StreamPos * p)
{
  if (e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN)
    return e->timestamp_begin_ns;
  return p->last_key;
}

/* The order of next packets: the smallest timestamp_begin over all
 * streams; ties go to a packet before an error, then to the stream
 * babeltrace2's muxer puts first (ranks are unique). */
static inline gboolean
pos_before (const StreamPos * a, const StreamPos * b)
{
  if (a->key != b->key)
    return a->key < b->key;
  if (a->is_error != b->is_error)
    return a->is_error < b->is_error;
  if (a->rank != b->rank)
    return a->rank < b->rank;
  return a < b;
}

GST_CTF_DEFINE_ITEM_HEAP (pos_heap, StreamPos, pos_before, heap_index);

/* Puts @p where its next packet (or error) is due, or takes it out of the
 * heap when it has nothing left.  A stream whose file is corrupt takes
 * part with its error, due right after its last valid packet, unless its
 * packets are cut before that (end_cursor). */
static void
pos_refresh (GstCtfTraceSource * src, StreamPos * p)
{
  const GstCtfStream *s = p->stream;
  guint limit = s->error ? s->error_after : s->packets->len;
  gboolean cut = p->end_cursor < limit;

  if (cut)
    limit = p->end_cursor;
  if (p->cursor < limit) {
    p->key = packet_key (g_array_index (s->packets, GstCtfStreamPacket,
            p->cursor).entry, p);
    p->is_error = FALSE;
  } else if (s->error && p->cursor >= limit && !cut) {
    /* the bad packet starts where the last valid one ends */
    p->key = p->last_key;
    if (limit > 0) {
      const GstCtfIndexEntry *last = g_array_index (s->packets,
          GstCtfStreamPacket, limit - 1).entry;

      if (last->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END)
        p->key = MAX (p->key, last->timestamp_end_ns);
    }
    p->is_error = TRUE;
  } else {
    pos_heap_remove (src->heap, p);
    return;
  }
  pos_heap_update (src->heap, p);
}

static void
heap_rebuild (GstCtfTraceSource * src)
{
  guint i;

  g_ptr_array_set_size (src->heap, 0);
  for (i = 0; i < src->n_pos; i++)
    src->pos[i].heap_index = -1;
  for (i = 0; i < src->n_pos; i++)
    pos_refresh (src, &src->pos[i]);
  src->heap_stale = FALSE;
}

gint
gst_ctf_trace_source_next_packet (GstCtfTraceSource * src,
    GstCtfSourceSlot * slot, GError ** error)
{
  StreamPos *p;
  const GstCtfStream *s;

  g_return_val_if_fail (src != NULL, -1);
  g_return_val_if_fail (slot != NULL, -1);
  memset (slot, 0, sizeof (*slot));
  if (src->done)
    return 0;
  if (src->heap_stale)
    heap_rebuild (src);
  if (src->heap->len == 0) {
    src->done = TRUE;
    return 0;
  }
  p = g_ptr_array_index (src->heap, 0);
  s = p->stream;
  slot->stream = p - src->pos;
  if (p->is_error) {
    /* (the source gives nothing more, until a seek) */
    src->done = TRUE;
    g_propagate_error (error, g_error_copy (s->error));
    return -1;
  }
  slot->index = p->cursor;
  slot->packet = &g_array_index (s->packets, GstCtfStreamPacket, p->cursor);
  p->last_key = packet_key (slot->packet->entry, p);
  p->cursor++;
  pos_refresh (src, p);
  return 1;
}

/* The bytes of a packet of the file mapping, kept alive by them. */
static GBytes *
packet_bytes (const GstCtfStreamPacket * sp)
{
  const GstCtfIndexEntry *e = sp->entry;

  return g_bytes_new_with_free_func (sp->file->data + e->offset,
      e->packet_size, (GDestroyNotify) g_mapped_file_unref,
      g_mapped_file_ref (sp->file->mapped));
}

gint
gst_ctf_trace_source_next (GstCtfTraceSource * src,
    GstCtfSourcePacket * packet, GError ** error)
{
  GstCtfSourceSlot slot;
  const GstCtfStreamPacket *sp;
  const StreamPos *p;
  GError *err = NULL;
  gint r;

  g_return_val_if_fail (src != NULL, -1);
  g_return_val_if_fail (packet != NULL, -1);
  memset (packet, 0, sizeof (*packet));
  r = gst_ctf_trace_source_next_packet (src, &slot, &err);
  if (r < 0) {
    g_propagate_prefixed_error (error, err, "Corrupt CTF data stream: ");
    return -1;
  }
  if (r == 0)
    return 0;

  p = &src->pos[slot.stream];
  sp = slot.packet;
  if (src->merge != NULL) {
    GBytes *whole;

    whole = gst_ctf_trace_merge_rewrite_packet (src->merge, p->trace,
        sp->file->data + sp->entry->offset, sp->entry->packet_size,
        p->stream->bt_stream_id, NULL, error);
    if (whole == NULL) {
      src->done = TRUE;
      return -1;
    }
    packet->bytes = whole;
    packet->stream_name = gst_ctf_trace_source_stream_name (src, slot.stream,
        sp);
  } else {
    packet->bytes = packet_bytes (sp);
    packet->stream_name = sp->file->name;
  }
  packet->stream_class_id = p->new_sc_id;
  packet->rank = p->rank;
  packet->stream_id = p->stream->bt_stream_id;
  packet->offset = (gint64) sp->entry->offset;
  packet->entry = sp->entry;
  return 1;
}

const gchar *
gst_ctf_trace_source_stream_name (GstCtfTraceSource * src, guint stream,
    const GstCtfStreamPacket * packet)
{
  gchar *n;
  const gchar *name;

  g_return_val_if_fail (src != NULL && stream < src->n_pos, NULL);
  if (src->merge == NULL)
    return packet->file->name;
  /* file names of different traces may clash (LTTng's chan_0) */
  n = g_strdup_printf ("trace%u_%s", src->pos[stream].trace,
      packet->file->name);
  name = g_intern_string (n);
  g_free (n);
  return name;
}

/* Packets of @s before @cursor end before @ns: the last packet whose
 * timestamp_begin is before @ns (packets of one stream do not overlap). */
static guint
seek_cursor (const GstCtfStream * s, gint64 ns)
{
  guint lo = 0, hi = s->error ? s->error_after : s->packets->len;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    const GstCtfIndexEntry *e = g_array_index (s->packets,
        GstCtfStreamPacket, mid).entry;

    if (!(e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN))
      return 0;
    if (e->timestamp_begin_ns < ns)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 ? lo - 1 : 0;
}

/* Makes @p start at @cursor. */
static void
pos_restart (StreamPos * p, guint cursor)
{
  p->cursor = cursor;
  p->last_key = G_MININT64;
  if (p->cursor > 0)
    p->last_key = packet_key (g_array_index (p->stream->packets,
            GstCtfStreamPacket, p->cursor - 1).entry, p);
}

void
gst_ctf_trace_source_seek (GstCtfTraceSource * src, gint64 ns)
{
  guint i;

  g_return_if_fail (src != NULL);
  for (i = 0; i < src->n_pos; i++)
    pos_restart (&src->pos[i], seek_cursor (src->pos[i].stream, ns));
  src->heap_stale = TRUE;
  src->done = FALSE;
}

guint
gst_ctf_trace_source_find_packet_ending_at_or_after (const GstCtfStream * s,
    gint64 ns)
{
  guint lo = 0, hi = s->packets->len;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    const GstCtfIndexEntry *e =
        g_array_index (s->packets, GstCtfStreamPacket, mid).entry;
    gint64 end;

    if (e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_END)
      end = e->timestamp_end_ns;
    else if (e->flags & GST_CTF_INDEX_ENTRY_HAS_TIMESTAMP_BEGIN)
      end = e->timestamp_begin_ns;
    else
      return 0;                 /* no time: cannot seek inside */
    if (end < ns)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void
gst_ctf_trace_source_set_stream_range (GstCtfTraceSource * src,
    guint stream, guint first, guint end)
{
  g_return_if_fail (src != NULL && stream < src->n_pos);
  pos_restart (&src->pos[stream], first);
  src->pos[stream].end_cursor = end;
  src->heap_stale = TRUE;
  src->done = FALSE;
}

guint
gst_ctf_trace_source_get_n_traces (GstCtfTraceSource * src)
{
  g_return_val_if_fail (src != NULL, 0);
  return src->tds->len;
}

GstCtfTraceDir *
gst_ctf_trace_source_get_trace_dir (GstCtfTraceSource * src, guint i)
{
  g_return_val_if_fail (src != NULL && i < src->tds->len, NULL);
  return g_ptr_array_index (src->tds, i);
}

const gchar *
gst_ctf_trace_source_get_trace_name (GstCtfTraceSource * src, guint i)
{
  g_return_val_if_fail (src != NULL && i < src->names->len, NULL);
  return g_ptr_array_index (src->names, i);
}

GstCtfTraceMerge *
gst_ctf_trace_source_get_merge (GstCtfTraceSource * src)
{
  g_return_val_if_fail (src != NULL, NULL);
  return src->merge;
}

guint
gst_ctf_trace_source_get_n_streams (GstCtfTraceSource * src)
{
  g_return_val_if_fail (src != NULL, 0);
  return src->n_pos;
}

const GstCtfStream *
gst_ctf_trace_source_get_stream (GstCtfTraceSource * src, guint i,
    guint * trace, guint64 * stream_class_id, guint * rank)
{
  const StreamPos *p;

  g_return_val_if_fail (src != NULL && i < src->n_pos, NULL);
  p = &src->pos[i];
  if (trace)
    *trace = p->trace;
  if (stream_class_id)
    *stream_class_id = p->new_sc_id;
  if (rank)
    *rank = p->rank;
  return p->stream;
}
