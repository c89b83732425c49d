/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

#define GST_TYPE_CTF_DEBUG_INFO_FILTER (gst_ctf_debug_info_filter_get_type ())
G_DECLARE_FINAL_TYPE (GstCtfDebugInfoFilter, gst_ctf_debug_info_filter, GST,
    CTF_DEBUG_INFO_FILTER, GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (ctfdebuginfo);

G_END_DECLS
