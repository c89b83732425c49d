/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* placeholder: being written */
#include "gstctfsink.h"

struct _GstCtfSink
{
  GstBaseSink parent;
};

G_DEFINE_TYPE (GstCtfSink, gst_ctf_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE (ctfsink, "ctfsink", GST_RANK_NONE, GST_TYPE_CTF_SINK);

static void
gst_ctf_sink_class_init (GstCtfSinkClass * klass)
{
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "placeholder", "Generic", "placeholder", "gst-ctf");
}

static void
gst_ctf_sink_init (GstCtfSink * self)
{
}
