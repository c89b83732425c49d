/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Caps of the packet stream between gst-ctf elements (docs/design.md "The
 * stream between elements"): `application/x-ctf` with the trace's TSDL
 * metadata as plain text, so caps + buffer are enough to decode a packet.
 */
#pragma once

#include <gst/gst.h>
#include "gstctf-version.h"

G_BEGIN_DECLS

/**
 * GST_CTF_CAPS_MEDIA_TYPE:
 *
 * The media type: one buffer = one CTF packet, byte for byte.
 */
#define GST_CTF_CAPS_MEDIA_TYPE "application/x-ctf"

/**
 * gst_ctf_caps_new:
 * @tsdl: plain-text TSDL metadata of the trace (CTF 1.8 §7)
 * @uuid: (nullable) (array fixed-size=16): the trace UUID
 *
 * Makes `application/x-ctf, metadata=(string)TSDL[, uuid=(string)UUID]`.
 *
 * Returns: (transfer full): new caps
 */
GST_CTF_API GstCaps *gst_ctf_caps_new (const gchar * tsdl,
    const guint8 * uuid);

/**
 * gst_ctf_caps_get_metadata:
 * @caps: fixed `application/x-ctf` caps
 *
 * Returns: (transfer none) (nullable): the TSDL text, %NULL when absent
 */
GST_CTF_API const gchar *gst_ctf_caps_get_metadata (const GstCaps * caps);

G_END_DECLS
