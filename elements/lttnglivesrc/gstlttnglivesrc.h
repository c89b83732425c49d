/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_LTTNG_LIVE_SRC (gst_lttng_live_src_get_type ())
G_DECLARE_FINAL_TYPE (GstLttngLiveSrc, gst_lttng_live_src, GST,
    LTTNG_LIVE_SRC, GstPushSrc)

/**
 * GstLttngLiveSeek:
 * @GST_LTTNG_LIVE_SEEK_BEGINNING: from the oldest data the relay has
 * @GST_LTTNG_LIVE_SEEK_LAST: from the packets the relay receives next
 */
typedef enum {
  GST_LTTNG_LIVE_SEEK_BEGINNING,
  GST_LTTNG_LIVE_SEEK_LAST,
} GstLttngLiveSeek;

/**
 * GstLttngLiveNotFound:
 * @GST_LTTNG_LIVE_NOT_FOUND_WAIT: list the sessions again every
 *   poll interval until one appears (babeltrace2's `continue`)
 * @GST_LTTNG_LIVE_NOT_FOUND_END: end-of-stream
 * @GST_LTTNG_LIVE_NOT_FOUND_ERROR: an element error (babeltrace2's `fail`)
 */
typedef enum {
  GST_LTTNG_LIVE_NOT_FOUND_WAIT,
  GST_LTTNG_LIVE_NOT_FOUND_END,
  GST_LTTNG_LIVE_NOT_FOUND_ERROR,
} GstLttngLiveNotFound;

GST_ELEMENT_REGISTER_DECLARE (lttnglivesrc);

G_END_DECLS
