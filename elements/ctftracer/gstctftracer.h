/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_CTF_TRACER (gst_ctf_tracer_get_type ())
G_DECLARE_FINAL_TYPE (GstCtfTracer, gst_ctf_tracer, GST, CTF_TRACER,
    GstTracer)

G_END_DECLS
