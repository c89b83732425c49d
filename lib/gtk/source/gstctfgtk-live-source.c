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
 * epochs.  Lock order: the source's lock only (the follower does its
 * socket and file I/O without it).
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
} Record;

typedef struct {
  GstCtfTraceClass *tc;
  guint first;                  /* its first record */
} Epoch;

struct _GstCtfGtkLiveSource {
  gint ref;
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
};

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
_gst_ctf_gtk_live_source_open (const gchar * url, GError ** error)
{
  GstCtfGtkLiveSource *s = g_new0 (GstCtfGtkLiveSource, 1);
  gchar *tmp = NULL;

  s->ref = 1;
  s->fd = -1;
  g_mutex_init (&s->lock);
  g_cond_init (&s->cond);
  s->cancel = g_cancellable_new ();
  s->records = g_array_new (FALSE, FALSE, sizeof (Record));
  s->epochs = g_array_new (FALSE, FALSE, sizeof (Epoch));
  s->ended = TRUE;              /* no thread yet */

  /* the connection, the listing and the attach here: their errors are
   * the constructor's */
  s->follower = gst_ctf_live_follower_new (url, GST_CTF_LIVE_SEEK_BEGINNING,
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
  return s;
fail:
  _gst_ctf_gtk_live_source_unref (s);
  return NULL;
}

GstCtfGtkLiveSource *
_gst_ctf_gtk_live_source_ref (GstCtfGtkLiveSource * s)
{
  g_atomic_int_inc (&s->ref);
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

  if (!g_atomic_int_dec_and_test (&s->ref))
    return;
  _gst_ctf_gtk_live_source_stop (s);
  gst_ctf_live_follower_free (s->follower);
  if (s->fd >= 0)
    close (s->fd);
  for (i = 0; i < s->epochs->len; i++)
    gst_ctf_trace_class_unref (g_array_index (s->epochs, Epoch, i).tc);
  g_array_unref (s->epochs);
  g_array_unref (s->records);
  g_object_unref (s->cancel);
  g_clear_error (&s->error);
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->cond);
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
  return r;
}

void
_gst_ctf_gtk_live_reader_free (GstCtfGtkLiveReader * r)
{
  if (r == NULL)
    return;
  _gst_ctf_gtk_live_source_unref (r->src);
  g_free (r);
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

/* Within @epoch: from the packet where every stream's last packet that
 * begins before @ns is (the ones after it are later). */
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
    if (s->ended || s->stopping) {
      /* (after an error too: what came before it is read to its end;
       * _gst_ctf_gtk_live_source_dup_error() tells) */
      g_mutex_unlock (&s->lock);
      return GST_CTF_GTK_LIVE_END;
    }
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
  return GST_CTF_GTK_LIVE_PACKET;
}
