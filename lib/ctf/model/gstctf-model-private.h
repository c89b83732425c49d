/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: trace class internals shared by the library's builders.
 */
#pragma once

#include "gstctf-model.h"

G_BEGIN_DECLS

/* Indexes @tc's stream classes by id, so that
 * gst_ctf_trace_class_find_stream_class() takes constant time (thousands
 * of stream classes in a merged trace class, looked up per packet).  Call
 * again after changing the array; a stale index is only slower. */
void _gst_ctf_trace_class_index_stream_classes (GstCtfTraceClass * tc);

/* The table of gst_ctf_metadata_parse_shared() (gstctf-tsdl-shared.c): a key
 * (a 64-bit hash of a metadata text and its length, as two guint64, then
 * the text itself and a NUL: GST_CTF_SHARED_KEY_HEAD + length + 1 bytes)
 * -> a trace class, holding no reference; gst_ctf_trace_class_unref()
 * takes a dying class out before freeing it, and a lookup only takes a
 * reference on a class whose count is not zero yet.  Keys are equal when
 * their texts are: the hash only picks the bucket. */
#define GST_CTF_SHARED_KEY_HEAD 16
/* Two such tables: by the whole text (@skeleton FALSE), and by the text
 * less its env block's body and its trace uuid (@skeleton TRUE: the
 * traces of one per-PID session differ only there).
 * Returns: (transfer full) (nullable): the live class with @key */
GstCtfTraceClass *_gst_ctf_trace_class_shared_lookup (const guint8 * key,
    gboolean skeleton);
/* Puts @tc in the table under @key (taken, g_malloc'd), unless a class
 * has that key already (then @tc simply stays unshared). */
void _gst_ctf_trace_class_shared_insert (GstCtfTraceClass * tc,
    guint8 * key, gboolean skeleton);

/* gst_ctf_metadata_parse_shared() by the whole text only: for a text no
 * other will resemble (a merged trace class: megabytes, scanned for
 * nothing) */
GstCtfTraceClass *_gst_ctf_metadata_parse_shared_whole (const gchar * text,
    const gchar * origin, GError ** error);

/* A new class with @base's packet header, clock and stream classes
 * (shared, not copied: @base gets a reference) and @own's env and uuid
 * (moved out of @own, which stays valid and is not freed). */
GstCtfTraceClass *_gst_ctf_trace_class_new_derived (GstCtfTraceClass * base,
    GstCtfTraceClass * own);

/* Finishes @tc, a class built in memory (copies of parsed classes' field
 * classes, with the construction helpers' defaults: no meanings, value
 * slots or references yet) as gst_ctf_tsdl_parse() finishes a class it
 * parsed from @text, where @text is what gst_ctf_tsdl_write() wrote of
 * @tc: env entries of the same name merged as the parser merges them,
 * clock offsets normalised, the stream class index, then the resolve
 * passes (gstctf-resolve.c).  Then puts @tc in
 * gst_ctf_metadata_parse_shared()'s table under @text (unless a class
 * is there already), so that whoever parses @text while @tc lives gets
 * @tc.  FALSE (nothing registered, @tc unusable) when a name of the env
 * or of a clock would not read back as it is (the writer changes it), or
 * when the resolve passes fail: then parse @text instead. */
gboolean _gst_ctf_metadata_adopt_tsdl (GstCtfTraceClass * tc,
    const gchar * text, GError ** error);

G_END_DECLS
