/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The `ctf` plugin: registers the gst-ctf elements. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstctfsrc.h"
#include "gstctfsink.h"
#include "gstctftextsink.h"
#include "gsttracecmdsrc.h"
#include "gstlttng0src.h"
#include "gstlttnglivesrc.h"
#include "gstctftimefilter.h"
#include "gstctffilter.h"
#include "gstctfdebuginfo.h"
#include "gstctfstatssink.h"
#include "gstperfettosink.h"
#include "gstctfmux.h"
#include "gstctftracer.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (ctfsrc, plugin);
  ret |= GST_ELEMENT_REGISTER (ctfsink, plugin);
  ret |= GST_ELEMENT_REGISTER (ctftextsink, plugin);
  ret |= GST_ELEMENT_REGISTER (tracecmdsrc, plugin);
  ret |= GST_ELEMENT_REGISTER (lttng0src, plugin);
  ret |= GST_ELEMENT_REGISTER (lttnglivesrc, plugin);
  ret |= GST_ELEMENT_REGISTER (timefilter, plugin);
  ret |= GST_ELEMENT_REGISTER (ctffilter, plugin);
  ret |= GST_ELEMENT_REGISTER (ctfdebuginfo, plugin);
  ret |= GST_ELEMENT_REGISTER (ctfstatssink, plugin);
  ret |= GST_ELEMENT_REGISTER (ctfmux, plugin);
  ret |= GST_ELEMENT_REGISTER (perfettosink, plugin);
  /* a GstTracer, not an element: GST_TRACERS="ctftracer(...)" */
  ret |= gst_tracer_register (plugin, "ctftracer", GST_TYPE_CTF_TRACER);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, ctf,
    "CTF 1.8, trace-cmd trace.dat and LTTng 0.x readers, an LTTng live "
    "source, filters, muxer and writers", plugin_init, VERSION, "LGPL", "gst-ctf",
    GST_CTF_PACKAGE_ORIGIN)
