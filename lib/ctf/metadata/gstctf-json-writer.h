/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the CTF 2 metadata writer (a trace class as a JSON text
 * sequence) and metadata conversion between CTF 1.8 and CTF 2.
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * gst_ctf_json_write:
 * @tc: a resolved trace class (from gst_ctf_metadata_parse(), TSDL or
 *   CTF 2)
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_METADATA_INVALID when a field class cannot be
 *   written: a sequence or variant whose length or selector field is
 *   not resolved, or not reachable by a CTF 2 field location)
 *
 * Writes the CTF 2 metadata of @tc (CTF2-SPEC-2.0 §6): a JSON text
 * sequence (RFC 7464: each fragment is the record separator 0x1E, one
 * JSON object and a line feed), made with json-glib.  Fragments: the
 * preamble (with the trace UUID), the trace class (`uid`, environment,
 * packet header field class), one clock class per clock (frequency,
 * offset from origin, `unix-epoch` origin, precision, description),
 * then each data stream class (default clock, packet context, event
 * record header and common context field classes) followed by its
 * event record classes (specific context and payload, LTTng's log level
 * and EMF URI as `lttng.org,2009` attributes, as LTTng 2.15 writes
 * them).  No field class aliases are written.
 *
 * A trace class read from CTF 1.8 metadata is written so that the same
 * data streams decode to the same fields: TSDL's reserved names become
 * roles (the model's meanings: magic, UUID, stream and stream instance
 * IDs, packet and content sizes, packet begin/end timestamps,
 * discarded event counter, packet sequence number, event header ID and
 * timestamp, those of LTTng's compact/extended variant too);
 * enumerations become integers with `mappings`; CTF 1.8 variants
 * become variants whose options carry the selector ranges of the tag
 * labels that name them (an option no label names is left out: it is
 * never selected); sequences become dynamic-length arrays with a field
 * location (absolute when the length field is reached through
 * structures from a scope root, else relative); byte-aligned arrays and
 * sequences of 8-bit text integers become static- or dynamic-length
 * strings, as babeltrace2 2.1 reads them; member names lose the one
 * leading underscore CTF 1.8 readers strip for display (unless that
 * makes two names equal).  An integer mapped to a clock outside the
 * packet context and the event record header (CTF 1.8 allows it, and
 * babeltrace2 then hides it and updates the clock from it) has no CTF 2
 * role: it is written as a plain integer, which readers show.  The
 * labels of an enumeration are written in the order babeltrace2 2.1
 * prints the labels of a CTF 1.8 value; 2.1 then prints them in the
 * same order for CTF 2 as for the original, but not for every
 * enumeration with many labels sharing values (2.1 orders CTF 2 labels
 * with another hash table).  Strings that are not UTF-8 are written with
 * their invalid bytes replaced (U+FFFD).
 *
 * Returns: (transfer full) (nullable): the metadata text (first byte
 *   0x1E), or %NULL
 */
GST_CTF_API gchar *gst_ctf_json_write (const GstCtfTraceClass * tc,
    GError ** error);

/**
 * GstCtfConvertFlags:
 * @GST_CTF_CONVERT_NONE: refuse what the target version cannot say
 * @GST_CTF_CONVERT_LOSSY: CTF 2 to CTF 1.8 only: write a boolean, a bit
 *   map or a fixed-length bit array as a plain unsigned integer and a
 *   BLOB as an array of 8-bit unsigned integers shown in hexadecimal
 *   (the data decodes the same; the text shows integers instead of
 *   `true`/`false`, flag names or bytes)
 *
 * How gst_ctf_metadata_convert() treats field classes the target
 * version has no word for.
 */
typedef enum {
  GST_CTF_CONVERT_NONE = 0,
  GST_CTF_CONVERT_LOSSY = 1 << 0,
} GstCtfConvertFlags;

/**
 * gst_ctf_metadata_convert:
 * @text: metadata text, TSDL or CTF 2 (as gst_ctf_metadata_load_file()
 *   returns it)
 * @major: the CTF version to write: 1 (CTF 1.8, TSDL) or 2 (CTF 2 JSON)
 * @flags: #GstCtfConvertFlags
 * @origin: (nullable): a name for error messages (the file path)
 * @error: return location for a %GST_CTF_ERROR
 *
 * Converts metadata between CTF 1.8 and CTF 2 without changing the
 * data streams it describes: their bytes decode the same with the new
 * metadata.  Metadata already of version @major is returned unchanged.
 * CTF 1.8 to CTF 2 is always possible (gst_ctf_json_write()).  CTF 2 to
 * CTF 1.8 (gst_ctf_tsdl_write()) fails with
 * %GST_CTF_ERROR_METADATA_INVALID naming the scope and path of the
 * first field class CTF 1.8 cannot express: a variable-length (LEB128)
 * integer, an optional, a variant selected by an integer rather than an
 * enumeration, and, unless @flags has %GST_CTF_CONVERT_LOSSY, a
 * boolean, a bit map, a bit array or a BLOB.  Errors of the parse are
 * those of gst_ctf_metadata_parse().
 *
 * Returns: (transfer full) (nullable): the metadata text, or %NULL
 */
GST_CTF_API gchar *gst_ctf_metadata_convert (const gchar * text, guint major,
    GstCtfConvertFlags flags, const gchar * origin, GError ** error);

/**
 * gst_ctf_trace_class_check_ctf18:
 * @tc: a trace class
 * @flags: #GstCtfConvertFlags
 * @error: return location for a %GST_CTF_ERROR
 *
 * Whether gst_ctf_tsdl_write() can say @tc in CTF 1.8 so that its data
 * streams decode the same (see gst_ctf_metadata_convert() for what is
 * refused, with %GST_CTF_ERROR_METADATA_INVALID).
 *
 * Returns: %TRUE when it can
 */
GST_CTF_API gboolean gst_ctf_trace_class_check_ctf18 (
    const GstCtfTraceClass * tc, GstCtfConvertFlags flags, GError ** error);

/**
 * gst_ctf_metadata_move_clocks:
 * @text: metadata text, TSDL or CTF 2 (as gst_ctf_metadata_load_file()
 *   returns it)
 * @offset_s: seconds to add to the offset of every clock class
 * @offset_ns: nanoseconds to add to it (any sign)
 * @force_unix_epoch: also make the origin of every clock class the Unix
 *   epoch (TSDL `absolute = true`; CTF 2 `origin` `unix-epoch`)
 * @origin: (nullable): a name for error messages (the file path)
 * @error: return location for a %GST_CTF_ERROR: the parse's errors, or
 *   %GST_CTF_ERROR_CLOCK naming the clock whose offset would overflow
 *
 * The metadata of the same trace with its clocks moved as babeltrace2's
 * `source.ctf.fs` moves them (`clock-class-offset-s`,
 * `clock-class-offset-ns`, `force-clock-class-origin-unix-epoch`; see
 * gst_ctf_clock_class_add_offset()), written again by the writer of its
 * version (gst_ctf_tsdl_write() or gst_ctf_json_write()): the data
 * streams decode the same and every time is moved.
 *
 * Returns: (transfer full) (nullable): the new metadata text, or %NULL
 */
GST_CTF_API gchar *gst_ctf_metadata_move_clocks (const gchar * text,
    gint64 offset_s, gint64 offset_ns, gboolean force_unix_epoch,
    const gchar * origin, GError ** error);

G_END_DECLS
