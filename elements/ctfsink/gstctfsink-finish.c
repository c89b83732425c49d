/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfsink: the metadata file and the end of a run.
 *
 * At a complete end-of-stream every file gets its final name, `metadata`
 * last.  Otherwise (see gst_ctf_sink_finish()) the run ends as a
 * truncated trace: stream files whose writes failed are cut back to their
 * last packet that the index scan reads, files without a packet are
 * deleted, the metadata gets an `env` block with `gst_ctf_truncated = 1`
 * and `gst_ctf_truncated_reason` (CTF 2: the same entries in the trace
 * class's `environment`), and a warning is posted; with no packet
 * at all, every temporary file is deleted.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctfsink-private.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>
#ifdef G_OS_UNIX
#include <unistd.h>
#endif

#include "gstctf-metadata.h"
#include "gstctf-index.h"

#define GST_CAT_DEFAULT gst_ctf_sink_debug

/* The env entry that marks a truncated trace. */
#define TRUNCATED_ENV "gst_ctf_truncated"

static gboolean
metadata_says_truncated (GstCtfSink * self)
{
  return gst_ctf_sink_ensure_trace_class (self, FALSE) &&
      gst_ctf_trace_class_find_env (self->tc, TRUNCATED_ENV) != NULL;
}

/* @reason as a TSDL string literal's contents: printable ASCII without
 * quotes or backslashes. */
static gchar *
tsdl_string_contents (const gchar * reason)
{
  gchar *t = g_strdup (reason);
  gchar *c;

  for (c = t; *c; c++) {
    if (*c == '"')
      *c = '\'';
    else if (*c == '\\')
      *c = '/';
    else if ((guchar) * c < 0x20 || (guchar) * c >= 0x7f)
      *c = ' ';
  }
  return t;
}

/* Writes the whole metadata text to its temporary file (replacing an
 * earlier version).  With @truncated (a reason), an `env` block marks the
 * trace as truncated, unless the metadata already says so (a truncated
 * trace copied): babeltrace2 and our parser add the entries of every
 * `env` block to the trace's environment. */
gboolean
gst_ctf_sink_write_metadata (GstCtfSink * self, const gchar * truncated)
{
  OutFile *f;
  GError *err = NULL;
  gchar *text;

  f = g_hash_table_lookup (self->files, "metadata");
  if (f == NULL) {
    f = gst_ctf_sink_out_file_new (self, "metadata");
    g_hash_table_insert (self->files, f->name, f);
    g_ptr_array_add (self->order, f);
  }
  /* A plain-text metadata file must start with the `/\* CTF 1.8` signature
   * (CTF 1.8 §7.1; babeltrace2 refuses the file otherwise).  TSDL that
   * came from packetized metadata has none: add it.  CTF 2 metadata
   * (first byte 0x1E) is written as it came, a truncated trace's with
   * the two entries in its trace class's `environment`. */
  if (g_str_has_prefix (self->metadata, "/* CTF ") ||
      gst_ctf_metadata_is_ctf2 (self->metadata))
    text = g_strdup (self->metadata);
  else
    text = g_strconcat ("/* CTF 1.8 */\n", self->metadata, NULL);
  if (truncated && !metadata_says_truncated (self) &&
      gst_ctf_metadata_is_ctf2 (self->metadata)) {
    gchar *t = gst_ctf_metadata_ctf2_add_environment (text,
        TRUNCATED_ENV "_reason", 0, truncated, &err);
    gchar *t2 = t ? gst_ctf_metadata_ctf2_add_environment (t, TRUNCATED_ENV,
        1, NULL, &err) : NULL;

    g_free (t);
    if (t2 == NULL) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED,
          ("Cannot mark the CTF 2 metadata as truncated: %s", err->message),
          (NULL));
      g_error_free (err);
      g_free (text);
      return FALSE;
    }
    g_free (text);
    text = t2;
  } else if (truncated && !metadata_says_truncated (self)) {
    gchar *r = tsdl_string_contents (truncated);
    gchar *t = g_strdup_printf ("%s\n/* Written by ctfsink (gst-ctf): the "
        "trace ends early. */\nenv {\n\t" TRUNCATED_ENV " = 1;\n\t"
        TRUNCATED_ENV "_reason = \"%s\";\n};\n", text, r);

    g_free (r);
    g_free (text);
    text = t;
  }
  if (!g_file_set_contents (f->part_path, text, -1, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Cannot write metadata \"%s\": %s", f->part_path, err->message),
        (NULL));
    g_error_free (err);
    g_free (text);
    return FALSE;
  }
  f->bytes = strlen (text);
  g_free (text);
  return TRUE;
}

/* The trace class of the current metadata, parsed on first use (packets
 * without a stream name, truncation).  Posts an error when @post. */
gboolean
gst_ctf_sink_ensure_trace_class (GstCtfSink * self, gboolean post)
{
  GError *err = NULL;

  if (self->tc == NULL && !self->tc_failed) {
    self->tc = gst_ctf_metadata_parse_shared (self->metadata, "caps", &err);
    if (self->tc == NULL) {
      if (post)
        GST_ELEMENT_ERROR (self, STREAM, DECODE,
            ("Cannot parse the metadata from caps: %s", err->message),
            ("%s (%s, code %d)", err->message,
                g_quark_to_string (err->domain), err->code));
      g_error_free (err);
      self->tc_failed = TRUE;
    }
  }
  return self->tc != NULL;
}

/* Closes @f's stream; on failure marks it and keeps the first message. */
static void
close_file (OutFile * f, gchar ** why)
{
  int r;

  if (f->fp == NULL)
    return;
  r = fclose (f->fp);
  f->fp = NULL;
  if (r != 0) {
    f->failed = TRUE;
    if (*why == NULL)
      *why = g_strdup_printf ("Cannot write \"%s\": %s", f->part_path,
          g_strerror (errno));
  }
}

/* A stream file some write of which failed: cut back to its last packet
 * that reads with the metadata.  Returns the packets kept (0: delete it). */
static guint64
cut_back (GstCtfSink * self, OutFile * f)
{
  GMappedFile *mf;
  GstCtfIndex *idx;
  gsize len;
  guint64 n, end = 0;

  if (!gst_ctf_sink_ensure_trace_class (self, FALSE))
    return 0;
  mf = g_mapped_file_new (f->part_path, FALSE, NULL);
  if (mf == NULL)
    return 0;
  len = g_mapped_file_get_length (mf);
  idx = gst_ctf_index_scan (self->tc,
      (const guint8 *) g_mapped_file_get_contents (mf), len, f->part_path);
  n = idx->entries->len;
  if (n > 0) {
    const GstCtfIndexEntry *e = &g_array_index (idx->entries,
        GstCtfIndexEntry, n - 1);

    end = e->offset + e->packet_size;
  }
  gst_ctf_index_free (idx);
  g_mapped_file_unref (mf);
  if (end < len) {
#ifdef G_OS_UNIX
    if (truncate (f->part_path, (off_t) end) != 0)
      n = 0;
#else
    n = 0;
#endif
  }
  GST_DEBUG_OBJECT (self, "%s cut back from %" G_GSIZE_FORMAT " to %"
      G_GUINT64_FORMAT " bytes (%" G_GUINT64_FORMAT " packets)", f->part_path,
      len, end, n);
  f->packets = n;
  f->bytes = end;
  return n;
}

/* Deletes the temporary files of this run (nothing is kept). */
static void
remove_part_files (GstCtfSink * self)
{
  guint i;

  for (i = 0; i < self->order->len; i++) {
    OutFile *f = g_ptr_array_index (self->order, i);

    if (f->fp) {
      fclose (f->fp);
      f->fp = NULL;
    }
    if (g_unlink (f->part_path) != 0 && errno != ENOENT)
      GST_WARNING_OBJECT (self, "cannot delete %s: %s", f->part_path,
          g_strerror (errno));
  }
}

/* Gives every file its final name, `metadata` last. */
static gboolean
rename_files (GstCtfSink * self)
{
  OutFile *md = NULL;
  guint i;

  for (i = 0; i < self->order->len; i++) {
    OutFile *f = g_ptr_array_index (self->order, i);

    if (strcmp (f->name, "metadata") == 0) {
      md = f;
      continue;
    }
    if (g_rename (f->part_path, f->final_path) != 0) {
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
          ("Cannot rename \"%s\" to \"%s\": %s", f->part_path,
              f->final_path, g_strerror (errno)), (NULL));
      return FALSE;
    }
  }
  if (md && g_rename (md->part_path, md->final_path) != 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Cannot rename \"%s\" to \"%s\": %s", md->part_path,
            md->final_path, g_strerror (errno)), (NULL));
    return FALSE;
  }
  return TRUE;
}

/* Truncated: drops what is not a complete packet, marks the metadata and
 * renames; or, when no packet is left, deletes the temporary files.
 * Says so with a warning. */
static gboolean
finish_truncated (GstCtfSink * self, const gchar * reason)
{
  guint64 kept = 0;
  gboolean created = self->order->len > 0;
  guint i;

  for (i = self->order->len; i-- > 0;) {
    OutFile *f = g_ptr_array_index (self->order, i);

    if (strcmp (f->name, "metadata") == 0)
      continue;
    if (f->failed)
      cut_back (self, f);
    if (f->packets == 0) {
      if (g_unlink (f->part_path) != 0 && errno != ENOENT)
        GST_WARNING_OBJECT (self, "cannot delete %s: %s", f->part_path,
            g_strerror (errno));
      g_hash_table_remove (self->files, f->name);
      g_ptr_array_remove_index (self->order, i);
      continue;
    }
    kept += f->packets;
  }
  if (kept == 0) {
    remove_part_files (self);
    if (created)
      GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
          ("Nothing written to \"%s\": %s before any complete packet.",
              self->location, reason), (NULL));
    return TRUE;
  }
  if (!gst_ctf_sink_write_metadata (self, reason) || !rename_files (self)) {
    remove_part_files (self);
    return FALSE;
  }
  GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
      ("Trace \"%s\" is truncated: %s. The %" G_GUINT64_FORMAT " complete "
          "packets written are kept as a valid trace, marked with `"
          TRUNCATED_ENV " = 1` in the env of its metadata.", self->location,
          reason, kept), (NULL));
  return TRUE;
}

/* Closes every file and gives it its final name: a complete trace when
 * @reason is NULL, else a truncated one (finish_truncated()). */
gboolean
gst_ctf_sink_finish (GstCtfSink * self, const gchar * reason)
{
  gchar *close_error = NULL;
  gboolean ok = TRUE;
  guint i;

  if (self->finished || self->order == NULL)
    return TRUE;
  self->finished = TRUE;
  for (i = 0; i < self->order->len; i++)
    close_file (g_ptr_array_index (self->order, i), &close_error);
  if (close_error) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("%s", close_error), (NULL));
    ok = FALSE;
    if (reason == NULL)
      reason = close_error;
  }
  if (reason)
    ok = finish_truncated (self, reason) && ok;
  else
    ok = rename_files (self);
  if (ok && reason == NULL)
    GST_INFO_OBJECT (self, "trace written to %s: %" G_GUINT64_FORMAT
        " packets, %" G_GUINT64_FORMAT " bytes", self->location,
        self->packets, self->bytes);
  g_free (close_error);
  return ok;
}
