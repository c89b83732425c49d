/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: TSDL parser and resolve pass, private interface.
 */
#pragma once

#include "gstctf-model.h"

G_BEGIN_DECLS

/* While parsing, `byte_order = native` (or no byte_order at all) is kept
 * as this value; gst_ctf_tsdl_resolve() replaces it by the trace's byte
 * order (CTF 1.8 §4.1.5). */
#define GST_CTF_TSDL_BYTE_ORDER_NATIVE ((GstCtfByteOrder) 2)

/* Limits on what a metadata text may build (bad input must not exhaust
 * the stack or memory). */
#define GST_CTF_TSDL_MAX_NESTING 128    /* type specifiers + bodies */
#define GST_CTF_TSDL_MAX_DIMENSIONS 16  /* [..] per declarator */
#define GST_CTF_TSDL_MAX_TYPE_DEPTH 512 /* depth of a field class tree */
#define GST_CTF_TSDL_MAX_NODES (1024 * 1024)    /* nodes copied from aliases */

/* Runs the semantic passes on a freshly parsed trace class (streams and
 * events attached): native byte orders, alignments, clock mappings and
 * babeltrace2's clock quirks, field meanings, sequence length / variant
 * tag resolution with value slots, default clocks of stream classes.
 * Errors are GST_CTF_ERROR_METADATA_INVALID. */
gboolean gst_ctf_tsdl_resolve (GstCtfTraceClass * tc, const gchar * origin,
    GError ** error);

G_END_DECLS
