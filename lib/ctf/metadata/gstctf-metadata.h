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
 * Reads a metadata file, plain text or packetized (CTF 1.8 §7.1 packets
 * with magic 0x75D11D57, version 1.8 or, CTF2-PMETA-1.0, 2.0), and
 * returns its text: TSDL, or a CTF 2 JSON text sequence (first byte
 * 0x1E).  Errors name the file and the byte offset.
 *
 * Returns: (transfer full): the metadata text, NUL terminated, or %NULL
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
 * Returns: (transfer full): the metadata text, or %NULL
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

/* The RFC 7464 record separator that starts every CTF 2 fragment. */
#define GST_CTF_METADATA_JSON_RS '\x1e'

/**
 * gst_ctf_metadata_is_ctf2:
 * @text: metadata text
 *
 * Returns: whether @text is CTF 2 metadata (its first byte is 0x1E)
 */
static inline gboolean
gst_ctf_metadata_is_ctf2 (const gchar * text)
{
  return text != NULL && text[0] == GST_CTF_METADATA_JSON_RS;
}

/**
 * gst_ctf_metadata_ctf2_add_environment:
 * @text: CTF 2 metadata (a JSON text sequence, first byte 0x1E)
 * @name: the environment entry's name
 * @int_value: its value when @string_value is %NULL
 * @string_value: (nullable): its value, a string
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_METADATA_INVALID when @text is not CTF 2 or its trace
 *   class fragment is not an object)
 *
 * Adds an entry to the `environment` of @text's trace class fragment
 * (CTF2-SPEC-2.0 §5.2; creating the property, or a trace class fragment
 * after the preamble, when there is none), first among its entries.  The
 * rest of @text is kept byte for byte.  An entry of that name already
 * there is not looked for.
 *
 * Returns: (transfer full) (nullable): the new metadata text, or %NULL
 */
GST_CTF_API gchar *gst_ctf_metadata_ctf2_add_environment (const gchar * text,
    const gchar * name, gint64 int_value, const gchar * string_value,
    GError ** error);

GST_CTF_API GstCtfTraceClass *gst_ctf_metadata_parse (const gchar * text,
    const gchar * origin, GError ** error);

/**
 * gst_ctf_metadata_parse_shared:
 * @text: metadata text, TSDL or CTF 2 (NUL terminated)
 * @origin: (nullable): a name for error messages
 * @error: return location for a %GST_CTF_ERROR, as gst_ctf_metadata_parse()
 *
 * gst_ctf_metadata_parse() for callers that only read the trace class: while a
 * trace class parsed from the same text this way is alive, it is returned
 * again (referenced) instead of parsing anew.  The elements of a pipeline
 * each parse the metadata of their caps: with thousands of traces merged
 * (ctfsrc on an LTTng per-PID session) that text is megabytes, and
 * ctfsrc's merge, ctftextsink, timefilter and ctfsink then share one
 * trace class.  Texts are compared byte for byte (the table keeps a copy
 * of each text while its trace class lives, found by a 64-bit hash);
 * nothing is kept once the last reference is gone.  A TSDL text that
 * differs from a live one only in its `env` values and its trace `uuid`
 * (the traces of an LTTng per-PID session) is parsed as those two only:
 * its trace class has its own env and uuid and shares the packet header,
 * clock and stream classes of the other.  The result must not be
 * changed.
 *
 * Returns: (transfer full): the trace class, or %NULL
 */
GST_CTF_API GstCtfTraceClass *gst_ctf_metadata_parse_shared (const gchar * text,
    const gchar * origin, GError ** error);

G_END_DECLS
