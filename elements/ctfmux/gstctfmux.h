/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstaggregator.h>

G_BEGIN_DECLS

/**
 * GstCtfMuxMode:
 * @GST_CTF_MUX_MODE_PACKETS: packets are passed (or rewritten for a
 *   merged trace class) whole, ordered by `timestamp_begin`
 * @GST_CTF_MUX_MODE_EVENTS: events are re-encoded into new packets in one
 *   global timestamp order
 *
 * What #GstCtfMux orders.
 */
typedef enum {
  GST_CTF_MUX_MODE_PACKETS = 0,
  GST_CTF_MUX_MODE_EVENTS = 1,
} GstCtfMuxMode;

#define GST_TYPE_CTF_MUX_MODE (gst_ctf_mux_mode_get_type ())
GType gst_ctf_mux_mode_get_type (void);

#define GST_TYPE_CTF_MUX_PAD (gst_ctf_mux_pad_get_type ())
G_DECLARE_FINAL_TYPE (GstCtfMuxPad, gst_ctf_mux_pad, GST, CTF_MUX_PAD,
    GstAggregatorPad)

#define GST_TYPE_CTF_MUX (gst_ctf_mux_get_type ())
G_DECLARE_FINAL_TYPE (GstCtfMux, gst_ctf_mux, GST, CTF_MUX, GstAggregator)

GST_ELEMENT_REGISTER_DECLARE (ctfmux);

G_END_DECLS
