/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

#define GST_TYPE_CTF_SINK (gst_ctf_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstCtfSink, gst_ctf_sink, GST, CTF_SINK, GstBaseSink)

GST_ELEMENT_REGISTER_DECLARE (ctfsink);

G_END_DECLS
