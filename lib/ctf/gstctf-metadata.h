/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "gstctf-model.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * gst_ctf_metadata_load_file:
 * @path: (type filename): a `metadata` file
 * @error: return location for a %GST_CTF_ERROR
 *
 * Reads a metadata file, plain text (`/\* CTF 1.8` preamble) or packetized
 * (CTF 1.8 §7.1 packets with magic 0x75D11D57), and returns its TSDL
 * text.  A CTF 2 file (JSON fragments, 0x1E record separators) fails with
 * %GST_CTF_ERROR_CTF2.  Errors name the file and the byte offset.
 *
 * Returns: (transfer full): the TSDL text, NUL terminated, or %NULL
 */
GST_CTF_API gchar *gst_ctf_metadata_load_file (const gchar * path,
    GError ** error);

/**
 * gst_ctf_metadata_from_bytes:
 * @data: (array length=size): file contents
 * @size: bytes
 * @origin: (nullable): a name for error messages (the file path)
 * @error: return location for a %GST_CTF_ERROR
 *
 * Like gst_ctf_metadata_load_file() on bytes already in memory.
 *
 * Returns: (transfer full): the TSDL text, or %NULL
 */
GST_CTF_API gchar *gst_ctf_metadata_from_bytes (const guint8 * data,
    gsize size, const gchar * origin, GError ** error);

/**
 * gst_ctf_tsdl_parse:
 * @text: TSDL text (NUL terminated)
 * @origin: (nullable): a name for error messages (the file path)
 * @error: return location for a %GST_CTF_ERROR
 *
 * Parses the whole CTF 1.8 TSDL grammar into a trace class and resolves
 * it: type aliases expanded, sequence lengths and variant tags resolved
 * (relative then absolute scopes, CTF 1.8 §7.3), clock mappings, field
 * meanings and value slots set, babeltrace2's trace quirks applied.
 * Syntax errors are %GST_CTF_ERROR_METADATA_SYNTAX and give line and
 * column; semantic ones are %GST_CTF_ERROR_METADATA_INVALID.
 *
 * Returns: (transfer full): the trace class, or %NULL
 */
GST_CTF_API GstCtfTraceClass *gst_ctf_tsdl_parse (const gchar * text,
    const gchar * origin, GError ** error);

/**
 * gst_ctf_tsdl_parse_shared:
 * @text: TSDL text (NUL terminated)
 * @origin: (nullable): a name for error messages
 * @error: return location for a %GST_CTF_ERROR, as gst_ctf_tsdl_parse()
 *
 * gst_ctf_tsdl_parse() for callers that only read the trace class: while a
 * trace class parsed from the same text this way is alive, it is returned
 * again (referenced) instead of parsing anew.  The elements of a pipeline
 * each parse the metadata of their caps: with thousands of traces merged
 * (ctfsrc on an LTTng per-PID session) that text is megabytes, and
 * ctfsrc's merge, ctftextsink, timefilter and ctfsink then share one
 * trace class.  Texts are told apart by their SHA-256 and length; nothing
 * is kept once the last reference is gone.  The result must not be
 * changed.
 *
 * Returns: (transfer full): the trace class, or %NULL
 */
GST_CTF_API GstCtfTraceClass *gst_ctf_tsdl_parse_shared (const gchar * text,
    const gchar * origin, GError ** error);

G_END_DECLS
