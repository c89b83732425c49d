/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasesrc.h>

G_BEGIN_DECLS

#define GST_TYPE_CTF_SRC (gst_ctf_src_get_type ())
G_DECLARE_FINAL_TYPE (GstCtfSrc, gst_ctf_src, GST, CTF_SRC, GstBaseSrc)

GST_ELEMENT_REGISTER_DECLARE (ctfsrc);

G_END_DECLS
