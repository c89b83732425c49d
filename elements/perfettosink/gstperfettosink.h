/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

#define GST_TYPE_PERFETTO_SINK (gst_perfetto_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstPerfettoSink, gst_perfetto_sink, GST,
    PERFETTO_SINK, GstBaseSink)

GST_ELEMENT_REGISTER_DECLARE (perfettosink);

G_END_DECLS
