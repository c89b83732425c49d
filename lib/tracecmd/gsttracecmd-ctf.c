/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gsttracecmd-private.h"

GstCtfTraceClass *
gst_ctf_trace_dat_build_trace_class (GstCtfTraceDat * td, guint buffer,
    GError ** error)
{
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT, "Not yet");
  return NULL;
}
