/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: what the library's other rooms may ask an event iterator
 * beyond its public API (gstctf-reader.h).  Private to the library.
 */
#ifndef __GST_CTF_PACKET_READER_PRIVATE_H__
#define __GST_CTF_PACKET_READER_PRIVATE_H__

#include "gstctf-reader.h"
#include "gstctf-plan.h"

G_BEGIN_DECLS

/* A number for the packet @it is on, different for every
 * gst_ctf_event_iter_set_packet() call of every iterator of the process
 * (0: none yet).  The packet header and context values
 * (gst_ctf_event_iter_get_values()) do not change while it stays the
 * same. */
guint64 _gst_ctf_event_iter_get_packet_serial (const GstCtfEventIter * it);

/* The recorded values of @it's current event, one buffer per scope
 * (GstCtfScope order, GST_CTF_N_SCOPES of them; a scope without values
 * has len 0), or NULL when @it does not record: what
 * gst_ctf_event_iter_get_values() reads, for a caller that reads several
 * scopes per event.  Valid until @it moves. */
GstCtfValueBuf *const *_gst_ctf_event_iter_get_value_bufs (
    const GstCtfEventIter * it);

G_END_DECLS

#endif /* __GST_CTF_PACKET_READER_PRIVATE_H__ */
