/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Caps of the packet stream between gst-ctf elements (docs/design.md "The
 * stream between elements"): `application/x-ctf` with the trace's TSDL
 * metadata as plain text, so caps + buffer are enough to decode a packet.
 * Also the event a source sends before it stops on an error, so that a
 * sink can tell the end-of-stream that follows from a complete one.
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

/**
 * gst_ctf_caps_set_trace_name:
 * @caps: writable `application/x-ctf` caps
 * @name: (nullable): the trace's name, %NULL to remove it
 *
 * Sets the optional `trace-name=(string)NAME` field: the name babeltrace2
 * gives the trace (gst_ctf_trace_name(): the `hostname` env entry, `/`
 * and the trace's path below the directory the user named), which
 * `ctftextsink` prints for `fields=trace`.  Sources that know it set it
 * (ctfsrc for a single trace; a merged trace class records each input's
 * name in its env instead, gstctf-trace-merge.h); it is not part of the
 * metadata, so a trace written by `ctfsink` does not change with it.
 */
GST_CTF_API void gst_ctf_caps_set_trace_name (GstCaps * caps,
    const gchar * name);

/**
 * gst_ctf_caps_get_trace_name:
 * @caps: fixed `application/x-ctf` caps
 *
 * Returns: (transfer none) (nullable): the `trace-name` field, %NULL when
 *   absent
 */
GST_CTF_API const gchar *gst_ctf_caps_get_trace_name (const GstCaps * caps);

/**
 * GST_CTF_EVENT_TRUNCATED:
 *
 * Name of the structure of the custom downstream event made by
 * gst_ctf_event_new_truncated().
 */
#define GST_CTF_EVENT_TRUNCATED "application/x-ctf-truncated"

/**
 * gst_ctf_event_new_truncated:
 * @reason: why the stream ends early (the error message, one line)
 *
 * Makes a serialized custom downstream event saying that the packets of
 * the stream end here, before the end of the input: a source sends it
 * just before it stops on an error (GstBaseSrc then posts the error and
 * sends end-of-stream, which alone looks like a complete stream).
 * `ctfsink` then finishes the trace as truncated.
 *
 * Returns: (transfer full): the event
 */
GST_CTF_API GstEvent *gst_ctf_event_new_truncated (const gchar * reason);

/**
 * gst_ctf_event_parse_truncated:
 * @event: an event
 * @reason: (out) (optional) (transfer none): the reason it carries
 *
 * Returns: %TRUE when @event was made by gst_ctf_event_new_truncated()
 */
GST_CTF_API gboolean gst_ctf_event_parse_truncated (GstEvent * event,
    const gchar ** reason);

G_END_DECLS
