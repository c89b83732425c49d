/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Making a GstCtfGtkEvent from the event a merger just gave back.
 * Private to libgstctf-gtk. */
#pragma once

#include "gstctfgtk-event.h"
#include "gstctf-model.h"
#include "gstctf-event-merge.h"

G_BEGIN_DECLS

/* The CPU of a packet from its packet context values and info; -1 for
 * none. */
G_GNUC_INTERNAL gint _gst_ctf_gtk_packet_cpu (const GstCtfFieldValue * v,
    guint n, const GstCtfPacketInfo * pi);
G_GNUC_INTERNAL GstCtfGtkEvent *_gst_ctf_gtk_event_new (guint64 index,
    const GstCtfMergeItem * item, GBytes * packet, const gchar * fields,
    GstCtfTraceClass * tc);

G_END_DECLS
