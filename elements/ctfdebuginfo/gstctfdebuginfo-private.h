/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: what ctfdebuginfo's files share.
 */
#pragma once

#include "gstctf-model.h"

G_BEGIN_DECLS

/* Whether the member name @member is @name as babeltrace2 shows it (a
 * TSDL name's leading underscore dropped, CTF 1.8 §7.3.1 note). */
gboolean _gst_ctf_debug_info_name_is (const gchar * member,
    const gchar * name);

/* Whether babeltrace2 adds its debug info structure to the event common
 * context @fc: an unsigned integer `ip`, a signed 32-bit integer `vpid`
 * and no member named @field_name yet. */
gboolean _gst_ctf_debug_info_context_fits (const GstCtfFieldClass * fc,
    const gchar * field_name);

/* gstctfdebuginfo-metadata.c: the metadata @text with the structure
 * `@field_name { string bin; string func; string src; }` appended to the
 * event common context of every stream class that fits (free with
 * g_free); NULL with @error set when @text cannot be parsed or written
 * again.  *@n_added: the stream classes changed. */
gchar *_gst_ctf_debug_info_metadata (const gchar * text,
    const gchar * field_name, guint * n_added, GError ** error);

G_END_DECLS
