/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* placeholder: being written */
#include "gstctfsrc.h"

struct _GstCtfSrc
{
  GstBaseSrc parent;
};

G_DEFINE_TYPE (GstCtfSrc, gst_ctf_src, GST_TYPE_BASE_SRC);
GST_ELEMENT_REGISTER_DEFINE (ctfsrc, "ctfsrc", GST_RANK_NONE, GST_TYPE_CTF_SRC);

static void
gst_ctf_src_class_init (GstCtfSrcClass * klass)
{
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "placeholder", "Generic", "placeholder", "gst-ctf");
}

static void
gst_ctf_src_init (GstCtfSrc * self)
{
}
