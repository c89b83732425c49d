/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: what the library's other rooms may ask an event iterator
 * beyond its public API (gstctf-reader.h).  Private to the library.
 */
#ifndef __GST_CTF_PACKET_READER_PRIVATE_H__
#define __GST_CTF_PACKET_READER_PRIVATE_H__

#include "gstctf-reader.h"

G_BEGIN_DECLS

/* A number for the packet @it is on, different for every
 * gst_ctf_event_iter_set_packet() call of every iterator of the process
 * (0: none yet).  The packet header and context values
 * (gst_ctf_event_iter_get_values()) do not change while it stays the
 * same. */
guint64 _gst_ctf_event_iter_get_packet_serial (const GstCtfEventIter * it);

G_END_DECLS

#endif /* __GST_CTF_PACKET_READER_PRIVATE_H__ */
