/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* placeholder: being written */
#include "gstctftextsink.h"

struct _GstCtfTextSink
{
  GstBaseSink parent;
};

G_DEFINE_TYPE (GstCtfTextSink, gst_ctf_text_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE (ctftextsink, "ctftextsink", GST_RANK_NONE, GST_TYPE_CTF_TEXT_SINK);

static void
gst_ctf_text_sink_class_init (GstCtfTextSinkClass * klass)
{
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "placeholder", "Generic", "placeholder", "gst-ctf");
}

static void
gst_ctf_text_sink_init (GstCtfTextSink * self)
{
}
