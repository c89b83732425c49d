/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasesrc.h>

G_BEGIN_DECLS

#define GST_TYPE_LTTNG0_SRC (gst_lttng0_src_get_type ())
G_DECLARE_FINAL_TYPE (GstLttng0Src, gst_lttng0_src, GST, LTTNG0_SRC,
    GstBaseSrc)

GST_ELEMENT_REGISTER_DECLARE (lttng0src);

G_END_DECLS
