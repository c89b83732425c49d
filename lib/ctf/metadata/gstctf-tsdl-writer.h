/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the TSDL writer: a trace class back to CTF 1.8 metadata text.
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * gst_ctf_tsdl_write:
 * @tc: a trace class
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_METADATA_INVALID when the trace class cannot be said in
 *   TSDL: a sequence or variant without a length or tag path, a float that
 *   is not 32 or 64 bits, an integer of 0 or more than 64 bits)
 *
 * Writes the TSDL metadata text of @tc (CTF 1.8 §7): the `/\* CTF 1.8 *\/`
 * preamble, the trace block (version, UUID, byte order, packet header),
 * env, clocks, stream blocks, then event blocks.  Field classes are written
 * inline with every attribute explicit (size, align, signedness, base,
 * encoding, clock mapping; byte order when it differs from the trace's),
 * so that gst_ctf_tsdl_parse() gives back an equal trace class and
 * babeltrace2 accepts it.  Names that are TSDL keywords or not identifiers
 * get a leading underscore (and invalid characters become `_`), which a
 * reader strips for display (CTF 1.8 §4.2.2); enumeration labels that are
 * not identifiers are written as string literals.
 *
 * A trace class built in memory with the model's construction helpers
 * (no meanings, value slots or resolved references yet) is made usable
 * by the packet reader and writer by writing it and parsing the text
 * back with gst_ctf_tsdl_parse(); the text is also what goes into the
 * output trace's `metadata` file and caps.
 *
 * Returns: (transfer full) (nullable): the metadata text, or %NULL
 */
GST_CTF_API gchar *gst_ctf_tsdl_write (const GstCtfTraceClass * tc,
    GError ** error);

/* (private) The label of @fc's enumeration selector whose ranges are
 * exactly those that select CTF 2 variant option @k (the name the TSDL
 * writer gives the option), or NULL when there is none. */
G_GNUC_INTERNAL
const gchar *_gst_ctf_tsdl_variant_option_label (const GstCtfFieldClass * fc,
    guint k);

/* (private) Whether the writer writes @name as it is (an identifier that
 * is no TSDL keyword), so that a reader reads back @name itself. */
G_GNUC_INTERNAL
gboolean _gst_ctf_tsdl_name_is_plain (const gchar * name);

/* (private) gst_ctf_tsdl_write() where @twin_of gives, for each stream
 * class of @tc in order, the position of an earlier one whose scopes and
 * event classes write the same text but for the stream class id (copies
 * of the same field classes with the same clocks: a merge of traces that
 * share their classes), or -1: the twin's text is copied with the id
 * changed instead of written again.  The caller answers for the
 * sameness; a twin with another number of event classes is written. */
G_GNUC_INTERNAL
gchar *_gst_ctf_tsdl_write_twins (const GstCtfTraceClass * tc,
    const gint * twin_of, GError ** error);

G_END_DECLS
