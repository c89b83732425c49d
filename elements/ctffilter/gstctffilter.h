/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

#define GST_TYPE_CTF_FILTER (gst_ctf_filter_get_type ())
G_DECLARE_FINAL_TYPE (GstCtfFilter, gst_ctf_filter, GST, CTF_FILTER,
    GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (ctffilter);

G_END_DECLS
