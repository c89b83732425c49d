/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstCtfGtkLivePackets: the packets a live event model received, as
 * `lttnglivesrc` pushes them (caps + buffers), e.g. to export them.
 */
#pragma once

#include <gst/gst.h>
#include "gstctfgtk-version.h"
#include "gstctfgtk-event-model.h"

G_BEGIN_DECLS

#define GST_CTF_GTK_TYPE_LIVE_PACKETS (gst_ctf_gtk_live_packets_get_type ())

GST_CTF_GTK_API
G_DECLARE_FINAL_TYPE (GstCtfGtkLivePackets, gst_ctf_gtk_live_packets,
    GST_CTF_GTK, LIVE_PACKETS, GObject)

GST_CTF_GTK_API GstCtfGtkLivePackets *gst_ctf_gtk_live_packets_new (
    GstCtfGtkEventModel * model, GError ** error);
GST_CTF_GTK_API GstSample *gst_ctf_gtk_live_packets_pull (
    GstCtfGtkLivePackets * packets, GError ** error);

G_END_DECLS
