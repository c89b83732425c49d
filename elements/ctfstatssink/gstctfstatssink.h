/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

/**
 * GstCtfStatsSinkFormat:
 * @GST_CTF_STATS_SINK_FORMAT_TEXT: text for people
 * @GST_CTF_STATS_SINK_FORMAT_JSON: one JSON object for scripts
 */
typedef enum {
  GST_CTF_STATS_SINK_FORMAT_TEXT,
  GST_CTF_STATS_SINK_FORMAT_JSON,
} GstCtfStatsSinkFormat;

GType gst_ctf_stats_sink_format_get_type (void);
#define GST_TYPE_CTF_STATS_SINK_FORMAT (gst_ctf_stats_sink_format_get_type ())

#define GST_TYPE_CTF_STATS_SINK (gst_ctf_stats_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstCtfStatsSink, gst_ctf_stats_sink, GST,
    CTF_STATS_SINK, GstBaseSink)

GST_ELEMENT_REGISTER_DECLARE (ctfstatssink);

G_END_DECLS
