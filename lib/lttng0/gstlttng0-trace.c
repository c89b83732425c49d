/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng 0.x traces: the directory, its tracefiles and their sub-buffers.
 *
 * Tracefiles are the regular files named `<channel>_<cpu>` (LTTV
 * `get_tracefile_name_number()`: the channel is what precedes the last
 * `_`, a `flight-` prefix marks a flight-recorder channel and is not part
 * of the channel name).  Every sub-buffer header is read when the trace
 * is opened (2.5 and 2.6 sub-buffers vary in size, so the headers are the
 * index), and the trace-wide values (version, byte order, alignment,
 * frequency, start time) are those of the first sub-buffer of the
 * lowest-numbered `metadata` tracefile, as LTTV takes them.
 */
#include "gstlttng0-private.h"

#include <stdlib.h>

G_DEFINE_BOXED_TYPE (GstCtfLttng0Trace, gst_ctf_lttng0_trace,
    gst_ctf_lttng0_trace_ref, gst_ctf_lttng0_trace_unref)

/* Where the magic number sits in the trace header of the formats before
 * 2.x (the seed document's "block start/end header" of 40 bytes, then
 * the trace header: magic, arch type/variant, float word order, then
 * arch_size, major, minor). */
#define OLD_MAGIC_OFFSET 40
#define OLD_MAJOR_OFFSET 57

/* A cycle counter faster than this is a corrupt header (LTTng 0.x ran on
 * CPUs of a few GHz). */
#define MAX_START_FREQ G_GUINT64_CONSTANT (1000000000000)

void
_gst_ctf_lttng0_trace_warn (GstCtfLttng0Trace * t, const gchar * fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  /* keep the array NULL-terminated */
  g_ptr_array_remove_index (t->warnings, t->warnings->len - 1);
  g_ptr_array_add (t->warnings, g_strdup_vprintf (fmt, ap));
  g_ptr_array_add (t->warnings, NULL);
  va_end (ap);
}

static void
tracefile_free (Lttng0Tracefile * tf)
{
  if (!tf)
    return;
  g_free (tf->path);
  g_free (tf->name);
  if (tf->bytes)
    g_bytes_unref (tf->bytes);
  g_free (tf->subbufs);
  g_free (tf);
}

static void
channel_free (Lttng0Channel * ch)
{
  g_free (ch->name);
  g_ptr_array_unref (ch->tracefiles);
  g_hash_table_unref (ch->markers);
  g_free (ch);
}

GstCtfLttng0Trace *
gst_ctf_lttng0_trace_ref (GstCtfLttng0Trace * t)
{
  g_atomic_int_inc (&t->ref_count);
  return t;
}

void
gst_ctf_lttng0_trace_unref (GstCtfLttng0Trace * t)
{
  if (!t || !g_atomic_int_dec_and_test (&t->ref_count))
    return;
  g_ptr_array_unref (t->channels);
  g_ptr_array_unref (t->tracefiles);
  g_ptr_array_unref (t->warnings);
  g_free (t->dir);
  g_free (t);
}

void
gst_ctf_lttng0_trace_get_version (GstCtfLttng0Trace * t, guint * major,
    guint * minor)
{
  if (major)
    *major = t->major;
  if (minor)
    *minor = t->minor;
}

guint
gst_ctf_lttng0_trace_get_n_tracefiles (GstCtfLttng0Trace * t)
{
  return t->tracefiles->len;
}

const gchar *const *
gst_ctf_lttng0_trace_get_warnings (GstCtfLttng0Trace * t)
{
  return (const gchar * const *) t->warnings->pdata;
}

/* `<channel>_<cpu>`: FALSE when @name is not a tracefile name. */
static gboolean
split_name (const gchar * name, gchar ** channel, guint * cpu)
{
  const gchar *us = strrchr (name, '_');
  const gchar *c;
  gchar *end;
  guint64 n;

  if (!us || us == name || !g_ascii_isdigit (us[1]))
    return FALSE;
  n = g_ascii_strtoull (us + 1, &end, 10);
  if (*end || n > G_MAXINT)
    return FALSE;
  c = name;
  if (g_str_has_prefix (c, "flight-") && c + 7 < us)
    c += 7;
  *channel = g_strndup (c, us - c);
  *cpu = (guint) n;
  return TRUE;
}

static gint
tracefile_cmp (gconstpointer a, gconstpointer b)
{
  const Lttng0Tracefile *x = *(Lttng0Tracefile * const *) a;
  const Lttng0Tracefile *y = *(Lttng0Tracefile * const *) b;

  if (x->cpu != y->cpu)
    return x->cpu < y->cpu ? -1 : 1;
  return strcmp (x->name, y->name);
}

static gint
channel_cmp (gconstpointer a, gconstpointer b)
{
  const Lttng0Channel *x = *(Lttng0Channel * const *) a;
  const Lttng0Channel *y = *(Lttng0Channel * const *) b;
  gboolean mx = strcmp (x->name, "metadata") == 0;
  gboolean my = strcmp (y->name, "metadata") == 0;

  if (mx != my)
    return mx ? -1 : 1;
  return strcmp (x->name, y->name);
}

static gint
subbuf_cmp (gconstpointer a, gconstpointer b)
{
  const Lttng0SubBuf *x = a, *y = b;

  if (x->cycle_begin != y->cycle_begin)
    return x->cycle_begin < y->cycle_begin ? -1 : 1;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Checks the first sub-buffer header of a tracefile: magic, byte order,
 * version.  Returns 1 when good, 0 when the file is not a tracefile of a
 * supported format (@error set), -1 when it is of an unsupported version
 * (@error set). */
static gint
check_first_header (const Lttng0Tracefile * tf, gboolean * be,
    guint * major, guint * minor, GError ** error)
{
  const guint8 *h = tf->base;
  guint32 le_magic;

  if (tf->size < LTTNG0_SUBBUF_HEADER_SIZE) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
        "Tracefile shorter than a sub-buffer header: file=\"%s\", "
        "offset=0, size=%" G_GSIZE_FORMAT ", expected=%d bytes at least",
        tf->path, tf->size, LTTNG0_SUBBUF_HEADER_SIZE);
    return 0;
  }
  le_magic = lttng0_read32 (FALSE, h + 16);
  if (le_magic != LTTNG0_MAGIC && le_magic != GUINT32_SWAP_LE_BE
      (LTTNG0_MAGIC)) {
    if (tf->size > OLD_MAJOR_OFFSET + 1) {
      guint32 old = lttng0_read32 (FALSE, h + OLD_MAGIC_OFFSET);

      if (old == LTTNG0_MAGIC || old == GUINT32_SWAP_LE_BE (LTTNG0_MAGIC)) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
            "Unsupported LTT trace format %u.%u (the block header and "
            "facilities format, before 2.3): file=\"%s\", offset=%d, "
            "expected=format 2.3 to 2.6", h[OLD_MAJOR_OFFSET],
            h[OLD_MAJOR_OFFSET + 1], tf->path, OLD_MAJOR_OFFSET);
        return -1;
      }
    }
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
        "Bad magic number in sub-buffer header: file=\"%s\", offset=16, "
        "expected-magic=0x00D6B7ED, found=0x%08X", tf->path,
        lttng0_read32 (TRUE, h + 16));
    return 0;
  }
  *be = le_magic != LTTNG0_MAGIC;
  *major = h[20];
  *minor = h[21];
  if (*major != 2 || *minor < 3 || *minor > 6) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
        "Unsupported LTT trace format %u.%u (%s than the supported 2.3 to "
        "2.6): file=\"%s\", offset=20", *major, *minor,
        *major < 2 || (*major == 2 && *minor < 3) ? "older" : "newer",
        tf->path);
    return -1;
  }
  return 1;
}

/* Reads every sub-buffer header of @tf.  A problem ends the index there
 * with a warning: what comes before it is read. */
static void
index_subbufs (GstCtfLttng0Trace * t, Lttng0Tracefile * tf)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (Lttng0SubBuf));
  guint64 off = 0;
  gboolean be = t->big_endian;
  gboolean sorted = TRUE;

  while (off < tf->size) {
    const guint8 *h = tf->base + off;
    Lttng0SubBuf sb = { 0, };
    guint32 a52, a56;

    if (tf->size - off < LTTNG0_SUBBUF_HEADER_SIZE) {
      _gst_ctf_lttng0_trace_warn (t, "Truncated sub-buffer header left out: "
          "file=\"%s\", offset=%" G_GUINT64_FORMAT ", size=%" G_GUINT64_FORMAT
          ", expected=%d bytes", tf->path, off, (guint64) tf->size - off,
          LTTNG0_SUBBUF_HEADER_SIZE);
      break;
    }
    if (lttng0_read32 (be, h + 16) != LTTNG0_MAGIC) {
      _gst_ctf_lttng0_trace_warn (t, "Bad magic number in sub-buffer "
          "header, rest of the tracefile left out: file=\"%s\", offset=%"
          G_GUINT64_FORMAT ", expected-magic=0x00D6B7ED, found=0x%08X",
          tf->path, off + 16, lttng0_read32 (be, h + 16));
      break;
    }
    sb.offset = off;
    sb.cycle_begin = lttng0_read64 (be, h);
    sb.cycle_end = lttng0_read64 (be, h + 8);
    a52 = lttng0_read32 (be, h + 52);
    a56 = lttng0_read32 (be, h + 56);
    sb.events_lost = lttng0_read32 (be, h + 60);
    sb.subbuf_corrupt = lttng0_read32 (be, h + 64);
    sb.size = a56;
    if (t->minor <= 4)          /* lost_size, buf_size */
      sb.data_end = a52 <= a56 ? a56 - a52 : 0;
    else                        /* data_size, sb_size */
      sb.data_end = a52;
    if (sb.size < LTTNG0_SUBBUF_HEADER_SIZE
        || sb.data_end < LTTNG0_SUBBUF_HEADER_SIZE
        || sb.data_end > sb.size) {
      _gst_ctf_lttng0_trace_warn (t, "Bad sub-buffer sizes, rest of the "
          "tracefile left out: file=\"%s\", offset=%" G_GUINT64_FORMAT
          ", %s=%u, %s=%u, expected=a size of %d bytes at least holding "
          "the data", tf->path, off + 52, t->minor <= 4 ? "lost_size" :
          "data_size", a52, t->minor <= 4 ? "buf_size" : "sb_size", a56,
          LTTNG0_SUBBUF_HEADER_SIZE);
      break;
    }
    if (sb.size > tf->size - off) {
      _gst_ctf_lttng0_trace_warn (t, "Sub-buffer size past the end of the "
          "file, sub-buffer left out: file=\"%s\", offset=%" G_GUINT64_FORMAT
          ", sub-buffer-size=%u, file-size=%" G_GSIZE_FORMAT, tf->path, off,
          sb.size, tf->size);
      break;
    }
    if (a->len > 0 && sb.cycle_begin <
        g_array_index (a, Lttng0SubBuf, a->len - 1).cycle_begin)
      sorted = FALSE;
    g_array_append_val (a, sb);
    off += sb.size;
  }
  /* flight-recorder files hold a ring buffer: read it in time order */
  if (!sorted)
    g_array_sort (a, subbuf_cmp);
  tf->n_subbufs = a->len;
  tf->subbufs = (Lttng0SubBuf *) g_array_free (a, FALSE);
}

static Lttng0Channel *
channel_get (GstCtfLttng0Trace * t, GHashTable * by_name, const gchar * name)
{
  Lttng0Channel *ch = g_hash_table_lookup (by_name, name);

  if (!ch) {
    ch = g_new0 (Lttng0Channel, 1);
    ch->name = g_strdup (name);
    ch->tracefiles = g_ptr_array_new ();
    ch->markers = g_hash_table_new_full (NULL, NULL, NULL,
        (GDestroyNotify) _gst_ctf_lttng0_marker_free);
    g_hash_table_insert (by_name, ch->name, ch);
    g_ptr_array_add (t->channels, ch);
  }
  return ch;
}

/* The trace-wide values, from the first sub-buffer header of @tf. */
static void
read_trace_values (GstCtfLttng0Trace * t, const Lttng0Tracefile * tf)
{
  const guint8 *h = tf->base;
  gboolean be = t->big_endian;

  t->arch_size = h[22];
  t->alignment = h[23];
  t->start_time_sec = lttng0_read64 (be, h + 24);
  t->start_time_usec = lttng0_read64 (be, h + 32);
  t->start_freq = lttng0_read64 (be, h + 40);
  t->freq_scale = lttng0_read32 (be, h + 48);
  t->start_tsc = lttng0_read64 (be, h);
}

/* Adds the tracefile @name (its bytes @bytes; @path for messages).  A
 * file whose name is not a tracefile name is ignored; a data tracefile
 * that is not a supported tracefile is left out with a warning.
 * Returns FALSE on an error. */
static gboolean
trace_add (GstCtfLttng0Trace * t, GHashTable * by_name, gboolean * have_format,
    const gchar * name, const gchar * path, GBytes * bytes, GError ** error)
{
  Lttng0Tracefile *tf;
  gchar *channel = NULL;
  guint cpu, major = 0, minor = 0;
  gboolean be = FALSE, is_meta;
  GError *err = NULL;
  gint r;

  if (!split_name (name, &channel, &cpu))
    return TRUE;
  is_meta = strcmp (channel, "metadata") == 0;
  tf = g_new0 (Lttng0Tracefile, 1);
  tf->path = g_strdup (path);
  tf->name = g_strdup (name);
  tf->cpu = cpu;
  tf->bytes = g_bytes_ref (bytes);
  tf->base = g_bytes_get_data (bytes, &tf->size);
  r = check_first_header (tf, &be, &major, &minor, &err);
  if (r < 0 || (r == 0 && is_meta)) {
    g_propagate_error (error, err);
    goto fail;
  }
  if (r == 0) {
    _gst_ctf_lttng0_trace_warn (t, "Tracefile left out: %s", err->message);
    g_error_free (err);
    tracefile_free (tf);
    g_free (channel);
    return TRUE;
  }
  if (!*have_format) {
    t->big_endian = be;
    t->major = major;
    t->minor = minor;
    *have_format = TRUE;
  } else if (be != t->big_endian || major != t->major || minor != t->minor) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
        "Tracefiles of different formats in one trace: file=\"%s\", "
        "offset=16, format=%u.%u %s-endian, expected=%u.%u %s-endian "
        "(as the first tracefile)", path, major, minor, be ? "big" :
        "little", t->major, t->minor, t->big_endian ? "big" : "little");
    goto fail;
  }
  g_ptr_array_add (channel_get (t, by_name, channel)->tracefiles, tf);
  g_ptr_array_add (t->tracefiles, tf);
  g_free (channel);
  return TRUE;

fail:
  tracefile_free (tf);
  g_free (channel);
  return FALSE;
}

/* Orders channels and tracefiles, reads the trace-wide values, indexes
 * the sub-buffers and reads the markers. */
static gboolean
trace_finish (GstCtfLttng0Trace * t, GError ** error)
{
  Lttng0Tracefile *meta0;
  guint i;

  g_ptr_array_sort (t->channels, channel_cmp);
  g_ptr_array_set_free_func (t->tracefiles, NULL);
  g_ptr_array_set_size (t->tracefiles, 0);
  for (i = 0; i < t->channels->len; i++) {
    Lttng0Channel *ch = g_ptr_array_index (t->channels, i);
    guint j;

    g_ptr_array_sort (ch->tracefiles, tracefile_cmp);
    for (j = 0; j < ch->tracefiles->len; j++) {
      Lttng0Tracefile *tf = g_ptr_array_index (ch->tracefiles, j);

      tf->channel = i;
      g_ptr_array_add (t->tracefiles, tf);
    }
  }
  g_ptr_array_set_free_func (t->tracefiles, (GDestroyNotify) tracefile_free);

  if (t->channels->len == 0
      || strcmp (((Lttng0Channel *) g_ptr_array_index (t->channels,
                  0))->name, "metadata") != 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
        "No metadata tracefile: dir=\"%s\", expected=metadata_N files "
        "(an LTTng 0.x trace directory)", t->dir);
    return FALSE;
  }
  meta0 = g_ptr_array_index (((Lttng0Channel *) g_ptr_array_index
          (t->channels, 0))->tracefiles, 0);
  read_trace_values (t, meta0);
  if (t->start_freq == 0 || t->start_freq > MAX_START_FREQ
      || t->freq_scale == 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_LTTNG0,
        "Bad trace clock in sub-buffer header: file=\"%s\", offset=40, "
        "start_freq=%" G_GUINT64_FORMAT ", freq_scale=%u, expected=a "
        "start_freq of 1 Hz to 1 THz and a non-zero freq_scale",
        meta0->path, t->start_freq, t->freq_scale);
    return FALSE;
  }
  for (i = 0; i < t->tracefiles->len; i++)
    index_subbufs (t, g_ptr_array_index (t->tracefiles, i));
  return _gst_ctf_lttng0_read_metadata (t, error);
}

static GstCtfLttng0Trace *
trace_new (const gchar * dir)
{
  GstCtfLttng0Trace *t = g_new0 (GstCtfLttng0Trace, 1);

  t->ref_count = 1;
  t->dir = g_strdup (dir);
  t->tracefiles = g_ptr_array_new_with_free_func ((GDestroyNotify)
      tracefile_free);
  t->channels = g_ptr_array_new_with_free_func ((GDestroyNotify)
      channel_free);
  t->warnings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (t->warnings, NULL);
  return t;
}

GstCtfLttng0Trace *
gst_ctf_lttng0_trace_open (const gchar * dir, GError ** error)
{
  GstCtfLttng0Trace *t;
  GDir *d;
  const gchar *fn;
  GPtrArray *names;
  GHashTable *by_name;
  gboolean have_format = FALSE;
  GError *err = NULL;
  guint i;

  d = g_dir_open (dir, 0, &err);
  if (!d) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot open trace directory: dir=\"%s\", reason=\"%s\"", dir,
        err->message);
    g_error_free (err);
    return NULL;
  }
  names = g_ptr_array_new_with_free_func (g_free);
  while ((fn = g_dir_read_name (d)))
    if (fn[0] != '.')
      g_ptr_array_add (names, g_strdup (fn));
  g_dir_close (d);
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);

  t = trace_new (dir);
  by_name = g_hash_table_new (g_str_hash, g_str_equal);
  for (i = 0; i < names->len; i++) {
    const gchar *name = g_ptr_array_index (names, i);
    gchar *path = g_build_filename (dir, name, NULL);
    GMappedFile *map;
    GBytes *bytes;
    gboolean ok;

    if (!g_file_test (path, G_FILE_TEST_IS_REGULAR)) {
      g_free (path);
      continue;
    }
    map = g_mapped_file_new (path, FALSE, &err);
    if (!map) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
          "Cannot read tracefile: file=\"%s\", reason=\"%s\"", path,
          err->message);
      g_error_free (err);
      g_free (path);
      goto fail;
    }
    bytes = g_mapped_file_get_bytes (map);
    g_mapped_file_unref (map);
    ok = trace_add (t, by_name, &have_format, name, path, bytes, error);
    g_bytes_unref (bytes);
    g_free (path);
    if (!ok)
      goto fail;
  }
  if (!trace_finish (t, error))
    goto fail;
  g_hash_table_unref (by_name);
  g_ptr_array_unref (names);
  return t;

fail:
  g_hash_table_unref (by_name);
  g_ptr_array_unref (names);
  gst_ctf_lttng0_trace_unref (t);
  return NULL;
}

/**
 * _gst_ctf_lttng0_trace_open_bytes:
 * @names: (array length=n): tracefile names
 * @contents: (array length=n): their bytes
 * @n: number of tracefiles
 * @error: as gst_ctf_lttng0_trace_open()
 *
 * gst_ctf_lttng0_trace_open() on tracefiles held in memory (the fuzz
 * target's input), in the order given.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL
 */
GstCtfLttng0Trace *
_gst_ctf_lttng0_trace_open_bytes (const gchar * const *names,
    GBytes * const *contents, guint n, GError ** error)
{
  GstCtfLttng0Trace *t = trace_new ("(memory)");
  GHashTable *by_name = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean have_format = FALSE;
  guint i;

  for (i = 0; i < n; i++)
    if (!trace_add (t, by_name, &have_format, names[i], names[i],
            contents[i], error))
      goto fail;
  if (!trace_finish (t, error))
    goto fail;
  g_hash_table_unref (by_name);
  return t;

fail:
  g_hash_table_unref (by_name);
  gst_ctf_lttng0_trace_unref (t);
  return NULL;
}
