/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasesrc.h>

G_BEGIN_DECLS

#define GST_TYPE_TRACE_CMD_SRC (gst_trace_cmd_src_get_type ())
G_DECLARE_FINAL_TYPE (GstTraceCmdSrc, gst_trace_cmd_src, GST, TRACE_CMD_SRC,
    GstBaseSrc)

GST_ELEMENT_REGISTER_DECLARE (tracecmdsrc);

G_END_DECLS
