/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkLiveSource: see gstctfgtk-live-source.h.
 *
 * One thread per source steps a #GstCtfLiveFollower (lib/live/, the
 * round `lttnglivesrc` runs too: attach to every relay session of the
 * traced host and session name, metadata before the packets that need
 * it, a packet only when every other stream has an index or an
 * inactivity beacon at or after its begin) and appends what it gives to
 * the spill file and the records: its advances (the element's GAP
 * events) are the ADVANCE records here, its new trace classes the
 * epochs.  Locks: each source's, and the registry's (the table of
 * sources by URL and every source's reference count), never held
 * together (the follower does its socket and file I/O without either).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "gstctfgtk-live-source.h"
#include "gstctf-live-follower.h"

#define POLL_MS 100
#define TIMEOUT_MS 10000
#define WAKE_MS 50

typedef enum {
  RECORD_PACKET,
  RECORD_ADVANCE,
} RecordKind;

/* One packet in the spill file, or an advance. */
typedef struct {
  RecordKind kind;
  guint stream;                 /* index in streams (packets) */
  guint64 file_offset;
  gsize size;
  guint64 stream_class_id;
  gint64 rank;
  gint64 stream_id;
  const gchar *stream_name;     /* interned */
  gint64 offset;                /* in the relay's stream file */
  gint64 ns;                    /* packet: begin; advance: the time */
  gint64 end_ns;                /* packet: its end */
  guint64 instance_id;          /* G_MAXUINT64: none in its header */
  guint64 discarded_delta;      /* events its stream lost before it */
} Record;

typedef struct {
  GstCtfTraceClass *tc;
  gchar *metadata;              /* its text (TSDL or CTF 2 JSON) */
  guint first;                  /* its first record */
} Epoch;

struct _GstCtfGtkLiveSource {
  gint ref;                     /* changed under registry_lock */
  gchar *url;
  GCancellable *cancel;
  GThread *thread;

  /* the follower thread's */
  GstCtfLiveFollower *follower;
  gint fd;                      /* the spill file (unlinked) */
  guint64 fd_size;

  GMutex lock;                  /* guards the rest */
  GCond cond;
  GArray *records;              /* Record */
  GArray *epochs;               /* Epoch */
  gboolean stopping;
  gboolean ended;
  GError *error;
};

struct _GstCtfGtkLiveReader {
  GstCtfGtkLiveSource *src;
  guint pos;                    /* next record */
  gint epoch;                   /* -1: before the first */
  gboolean follow;              /* wait at the end for more */
  const gint *cancelled;        /* (atomic, nullable): stops a wait */
  Record last;                  /* the last packet given */
};

/* The sources open in this process by URL (not reffed: a source leaves
 * it in its last unref, under the same lock), so that a reader that
 * knows a session by its URL only (the timeline's deep zoom) reads what
 * the model following it received instead of attaching again (a relay
 * lets one viewer attach to a session). */
static GMutex registry_lock;
static GHashTable *registry;    /* url -> GstCtfGtkLiveSource * */

gboolean
_gst_ctf_gtk_live_is_url (const gchar * path)
{
  return path != NULL && (g_str_has_prefix (path, "net://") ||
      g_str_has_prefix (path, "net4://"));
}

/* ---- the follower thread (lib/live/gstctf-live-follower.c) ---- */

/* A new epoch with the follower's new trace class: one trace's own, or
 * the merge of the session's traces. */
static void
new_epoch (GstCtfGtkLiveSource * s)
{
  Epoch e;

  g_mutex_lock (&s->lock);
  e.tc = gst_ctf_trace_class_ref (gst_ctf_live_follower_get_trace_class
      (s->follower));
  e.metadata = g_strdup (gst_ctf_live_follower_get_metadata (s->follower));
  e.first = s->records->len;
  g_array_append_val (s->epochs, e);
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
}

static void
add_record (GstCtfGtkLiveSource * s, const Record * r)
{
  g_mutex_lock (&s->lock);
  g_array_append_val (s->records, *r);
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
}

/* Appends @size bytes to the spill file: their offset there. */
static gboolean
spill (GstCtfGtkLiveSource * s, const guint8 * d, gsize size,
    guint64 * at, GError ** error)
{
  gsize done = 0;

  while (done < size) {
    gssize w = pwrite (s->fd, d + done, size - done,
        (off_t) (s->fd_size + done));

    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
          "Cannot write the live session's packets to a temporary file: %s",
          g_strerror (errno));
      return FALSE;
    }
    done += (gsize) w;
  }
  *at = s->fd_size;
  s->fd_size += size;
  return TRUE;
}

/* Spills a packet the follower gave (its bytes taken) and records it. */
static gboolean
add_packet (GstCtfGtkLiveSource * s, GstCtfLiveFollowerPacket * p,
    GError ** error)
{
  Record r = { RECORD_PACKET, };
  const guint8 *d;
  gboolean ok;

  d = g_bytes_get_data (p->bytes, &r.size);
  ok = spill (s, d, r.size, &r.file_offset, error);
  g_bytes_unref (p->bytes);
  if (!ok)
    return FALSE;
  /* as lttnglivesrc's packet meta and ctftextsink's reading of it */
  r.stream = p->rank;
  r.stream_class_id = p->stream_class_id;
  r.rank = p->has_stream_instance_id ? (gint64) p->stream_instance_id :
      (gint64) p->rank;
  r.stream_id = r.rank;
  r.stream_name = p->stream_name;
  r.offset = (gint64) p->offset;
  r.ns = p->begin_ns;
  r.end_ns = p->end_ns;
  r.instance_id = p->has_stream_instance_id ? p->stream_instance_id :
      G_MAXUINT64;
  r.discarded_delta = p->events_discarded_delta;
  add_record (s, &r);
  return TRUE;
}

static gpointer
follow_thread (gpointer data)
{
  GstCtfGtkLiveSource *s = data;
  GError *err = NULL;
  gboolean eos = FALSE, done = FALSE;

  while (!done) {
    GstCtfLiveFollowerPacket packet;
    GstCtfLiveFollowerAdvance adv;
    Record r = { RECORD_ADVANCE, };
    gint64 until;

    g_mutex_lock (&s->lock);
    done = s->stopping;
    g_mutex_unlock (&s->lock);
    if (done)
      break;
    switch (gst_ctf_live_follower_step (s->follower, &packet, &adv, &err)) {
      case GST_CTF_LIVE_FOLLOWER_PACKET:
        done = !add_packet (s, &packet, &err);
        break;
      case GST_CTF_LIVE_FOLLOWER_METADATA:
        new_epoch (s);
        break;
      case GST_CTF_LIVE_FOLLOWER_ADVANCE:
        /* the readers' merges may give back what is older than it
         * (lttnglivesrc's GAP event) */
        r.ns = adv.to_ns;
        add_record (s, &r);
        break;
      case GST_CTF_LIVE_FOLLOWER_AGAIN:
        break;
      case GST_CTF_LIVE_FOLLOWER_WAIT:
        until = g_get_monotonic_time () + POLL_MS * 1000;
        g_mutex_lock (&s->lock);
        while (!s->stopping && g_cond_wait_until (&s->cond, &s->lock,
                until));
        g_mutex_unlock (&s->lock);
        break;
      case GST_CTF_LIVE_FOLLOWER_END:
        eos = done = TRUE;
        break;
      case GST_CTF_LIVE_FOLLOWER_ERROR:
        done = TRUE;
        break;
    }
  }
  g_clear_pointer (&s->follower, gst_ctf_live_follower_free);
  g_mutex_lock (&s->lock);
  s->ended = TRUE;
  if (err != NULL && !s->stopping && !eos)
    s->error = err;
  else
    g_clear_error (&err);
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
  return NULL;
}

/* ---- the source ---- */

GstCtfGtkLiveSource *
_gst_ctf_gtk_live_source_open (const gchar * url, GstCtfLiveSeek seek,
    GError ** error)
{
  GstCtfGtkLiveSource *s = g_new0 (GstCtfGtkLiveSource, 1);
  gchar *tmp = NULL;

  s->ref = 1;
  s->url = g_strdup (url);
  s->fd = -1;
  g_mutex_init (&s->lock);
  g_cond_init (&s->cond);
  s->cancel = g_cancellable_new ();
  s->records = g_array_new (FALSE, FALSE, sizeof (Record));
  s->epochs = g_array_new (FALSE, FALSE, sizeof (Epoch));
  s->ended = TRUE;              /* no thread yet */

  /* the connection, the listing and the attach here: their errors are
   * the constructor's */
  s->follower = gst_ctf_live_follower_new (url, seek,
      GST_CTF_LIVE_NOT_FOUND_ERROR, TIMEOUT_MS, POLL_MS, s->cancel, error);
  if (s->follower == NULL || gst_ctf_live_follower_attach (s->follower,
          error) != GST_CTF_LIVE_FOLLOWER_AGAIN)
    goto fail;
  s->fd = g_file_open_tmp ("gst-ctf-live-XXXXXX", &tmp, error);
  if (s->fd < 0)
    goto fail;
  /* the file goes with its descriptor, also when the process dies */
  g_unlink (tmp);
  g_free (tmp);
  s->ended = FALSE;
  s->thread = g_thread_new ("gstctf-gtk-live", follow_thread, s);
  g_mutex_lock (&registry_lock);
  if (registry == NULL)
    registry = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_replace (registry, s->url, s);
  g_mutex_unlock (&registry_lock);
  return s;
fail:
  _gst_ctf_gtk_live_source_unref (s);
  return NULL;
}

GstCtfGtkLiveSource *
_gst_ctf_gtk_live_source_ref (GstCtfGtkLiveSource * s)
{
  g_mutex_lock (&registry_lock);
  s->ref++;
  g_mutex_unlock (&registry_lock);
  return s;
}

/* The source a model of this process follows @url with (the latest
 * opened), NULL for none. */
GstCtfGtkLiveSource *
_gst_ctf_gtk_live_source_lookup (const gchar * url)
{
  GstCtfGtkLiveSource *s = NULL;

  g_mutex_lock (&registry_lock);
  if (registry != NULL)
    s = g_hash_table_lookup (registry, url);
  if (s != NULL)
    s->ref++;
  g_mutex_unlock (&registry_lock);
  return s;
}

/* Ends the follower (its socket I/O at once) and wakes the readers:
 * they see the end of what was received. */
void
_gst_ctf_gtk_live_source_stop (GstCtfGtkLiveSource * s)
{
  g_mutex_lock (&s->lock);
  s->stopping = TRUE;
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
  g_cancellable_cancel (s->cancel);
  if (s->thread != NULL)
    g_thread_join (g_steal_pointer (&s->thread));
}

void
_gst_ctf_gtk_live_source_unref (GstCtfGtkLiveSource * s)
{
  guint i;

  g_mutex_lock (&registry_lock);
  if (--s->ref > 0) {
    g_mutex_unlock (&registry_lock);
    return;
  }
  if (registry != NULL && g_hash_table_lookup (registry, s->url) == s)
    g_hash_table_remove (registry, s->url);
  g_mutex_unlock (&registry_lock);
  _gst_ctf_gtk_live_source_stop (s);
  gst_ctf_live_follower_free (s->follower);
  if (s->fd >= 0)
    close (s->fd);
  for (i = 0; i < s->epochs->len; i++) {
    gst_ctf_trace_class_unref (g_array_index (s->epochs, Epoch, i).tc);
    g_free (g_array_index (s->epochs, Epoch, i).metadata);
  }
  g_array_unref (s->epochs);
  g_array_unref (s->records);
  g_object_unref (s->cancel);
  g_clear_error (&s->error);
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->cond);
  g_free (s->url);
  g_free (s);
}

/* The error that ended the follower (the relay closed the connection,
 * a corrupt packet...), NULL when the session ended or was stopped. */
GError *
_gst_ctf_gtk_live_source_dup_error (GstCtfGtkLiveSource * s)
{
  GError *e;

  g_mutex_lock (&s->lock);
  e = s->error != NULL ? g_error_copy (s->error) : NULL;
  g_mutex_unlock (&s->lock);
  return e;
}

/* ---- readers ---- */

GstCtfGtkLiveReader *
_gst_ctf_gtk_live_reader_new (GstCtfGtkLiveSource * s)
{
  GstCtfGtkLiveReader *r = g_new0 (GstCtfGtkLiveReader, 1);

  r->src = _gst_ctf_gtk_live_source_ref (s);
  r->epoch = -1;
  r->follow = TRUE;
  return r;
}

/* @follow FALSE: the reader ends at the last record received when it
 * gets there (a snapshot that grows until then) instead of waiting for
 * more; @cancelled (atomic, nullable, must outlive the reader) set to
 * non-zero ends a wait within WAKE_MS. */
void
_gst_ctf_gtk_live_reader_set_follow (GstCtfGtkLiveReader * r,
    gboolean follow, const gint * cancelled)
{
  r->follow = follow;
  r->cancelled = cancelled;
}

/* Whether the next read would wait for the follower (following) or end
 * (not following): every record received was read. */
gboolean
_gst_ctf_gtk_live_reader_caught_up (GstCtfGtkLiveReader * r)
{
  gboolean caught_up;

  g_mutex_lock (&r->src->lock);
  caught_up = r->pos >= r->src->records->len &&
      !((guint) (r->epoch + 1) < r->src->epochs->len);
  g_mutex_unlock (&r->src->lock);
  return caught_up;
}

/* (transfer none) (nullable): the metadata text of the epoch read now */
const gchar *
_gst_ctf_gtk_live_reader_get_metadata (GstCtfGtkLiveReader * r)
{
  const gchar *m = NULL;

  g_mutex_lock (&r->src->lock);
  if (r->epoch >= 0)
    m = g_array_index (r->src->epochs, Epoch, r->epoch).metadata;
  g_mutex_unlock (&r->src->lock);
  return m;
}

void
_gst_ctf_gtk_live_reader_free (GstCtfGtkLiveReader * r)
{
  if (r == NULL)
    return;
  _gst_ctf_gtk_live_source_unref (r->src);
  g_free (r);
}

/* What lttnglivesrc's buffer and packet meta carry besides the packet
 * source's fields, of the last packet given: its end (ns from the clock
 * origin), its stream instance id (G_MAXUINT64: none), the events its
 * stream lost before it. */
void
_gst_ctf_gtk_live_reader_get_last (GstCtfGtkLiveReader * r, gint64 * end_ns,
    guint64 * instance_id, guint64 * discarded_delta)
{
  *end_ns = r->last.end_ns;
  *instance_id = r->last.instance_id;
  *discarded_delta = r->last.discarded_delta;
}

GstCtfGtkLiveSource *
_gst_ctf_gtk_live_reader_get_source (GstCtfGtkLiveReader * r)
{
  return r->src;
}

/* The trace class of the packets the reader gives now (NULL before the
 * first epoch). */
GstCtfTraceClass *
_gst_ctf_gtk_live_reader_get_trace_class (GstCtfGtkLiveReader * r)
{
  GstCtfTraceClass *tc = NULL;

  g_mutex_lock (&r->src->lock);
  if (r->epoch >= 0)
    tc = g_array_index (r->src->epochs, Epoch, r->epoch).tc;
  g_mutex_unlock (&r->src->lock);
  return tc;
}

guint
_gst_ctf_gtk_live_reader_get_epoch (GstCtfGtkLiveReader * r)
{
  return r->epoch < 0 ? 0 : (guint) r->epoch;
}

void
_gst_ctf_gtk_live_reader_rewind (GstCtfGtkLiveReader * r)
{
  r->pos = 0;
  r->epoch = -1;
}

/* Within @epoch (G_MAXUINT: the epoch @ns is in, the last one whose
 * first packet begins at or before it): from the packet where every
 * stream's last packet that begins before @ns is (the ones after it are
 * later). */
void
_gst_ctf_gtk_live_reader_seek (GstCtfGtkLiveReader * r, guint epoch,
    gint64 ns)
{
  GstCtfGtkLiveSource *s = r->src;
  GHashTable *last = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer v;
  guint first, end, i, pos;

  g_mutex_lock (&s->lock);
  if (epoch == G_MAXUINT && s->epochs->len > 0) {
    /* the last epoch whose first packet begins at or before @ns */
    for (epoch = s->epochs->len - 1; epoch > 0; epoch--) {
      guint k = g_array_index (s->epochs, Epoch, epoch).first;
      const Record *rec = NULL;

      for (; k < s->records->len; k++) {
        rec = &g_array_index (s->records, Record, k);
        if (rec->kind == RECORD_PACKET)
          break;
        rec = NULL;
      }
      if (rec != NULL && rec->ns <= ns)
        break;
    }
  }
  if (epoch >= s->epochs->len) {
    g_mutex_unlock (&s->lock);
    g_hash_table_unref (last);
    _gst_ctf_gtk_live_reader_rewind (r);
    return;
  }
  first = g_array_index (s->epochs, Epoch, epoch).first;
  end = epoch + 1 < s->epochs->len ?
      g_array_index (s->epochs, Epoch, epoch + 1).first : s->records->len;
  for (i = first; i < end; i++) {
    const Record *rec = &g_array_index (s->records, Record, i);

    if (rec->kind != RECORD_PACKET)
      continue;
    if (rec->ns >= ns)
      break;                    /* in begin order: the rest are later */
    g_hash_table_insert (last, GUINT_TO_POINTER (rec->stream + 1),
        GUINT_TO_POINTER (i + 1));
  }
  g_mutex_unlock (&s->lock);
  pos = i;
  g_hash_table_iter_init (&it, last);
  while (g_hash_table_iter_next (&it, NULL, &v))
    pos = MIN (pos, GPOINTER_TO_UINT (v) - 1);
  g_hash_table_unref (last);
  r->pos = pos;
  r->epoch = (gint) epoch;
}

GstCtfGtkLiveItem
_gst_ctf_gtk_live_reader_next (GstCtfGtkLiveReader * r,
    GstCtfPacketSourcePacket * packet, gint64 * ns, GError ** error)
{
  GstCtfGtkLiveSource *s = r->src;
  Record rec;
  guint8 *data;
  gsize done = 0;

  g_mutex_lock (&s->lock);
  for (;;) {
    if ((guint) (r->epoch + 1) < s->epochs->len &&
        g_array_index (s->epochs, Epoch, r->epoch + 1).first <= r->pos) {
      r->epoch++;
      g_mutex_unlock (&s->lock);
      return GST_CTF_GTK_LIVE_NEW_EPOCH;
    }
    if (r->pos < s->records->len)
      break;
    if (s->ended || s->stopping || !r->follow ||
        (r->cancelled != NULL && g_atomic_int_get (r->cancelled))) {
      /* (after an error too: what came before it is read to its end;
       * _gst_ctf_gtk_live_source_dup_error() tells) */
      g_mutex_unlock (&s->lock);
      return GST_CTF_GTK_LIVE_END;
    }
    if (r->cancelled != NULL)
      g_cond_wait_until (&s->cond, &s->lock, g_get_monotonic_time () +
          WAKE_MS * 1000);
    else
      g_cond_wait (&s->cond, &s->lock);
  }
  rec = g_array_index (s->records, Record, r->pos);
  r->pos++;
  g_mutex_unlock (&s->lock);

  if (rec.kind == RECORD_ADVANCE) {
    *ns = rec.ns;
    return GST_CTF_GTK_LIVE_ADVANCE;
  }
  data = g_malloc (MAX (rec.size, 1));
  while (done < rec.size) {
    gssize n = pread (s->fd, data + done, rec.size - done,
        (off_t) (rec.file_offset + done));

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
          "Cannot read the live session's packet of stream %s back from "
          "its temporary file: %s", rec.stream_name,
          n < 0 ? g_strerror (errno) : "short read");
      g_free (data);
      return GST_CTF_GTK_LIVE_ERROR;
    }
    done += (gsize) n;
  }
  packet->bytes = g_bytes_new_take (data, rec.size);
  packet->stream_class_id = rec.stream_class_id;
  packet->rank = rec.rank;
  packet->stream_id = rec.stream_id;
  packet->stream_name = rec.stream_name;
  packet->offset = rec.offset;
  *ns = rec.ns;
  r->last = rec;
  return GST_CTF_GTK_LIVE_PACKET;
}
