/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

#define GST_TYPE_CTF_TIME_FILTER (gst_ctf_time_filter_get_type ())
G_DECLARE_FINAL_TYPE (GstCtfTimeFilter, gst_ctf_time_filter, GST,
    CTF_TIME_FILTER, GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (timefilter);

G_END_DECLS
