/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What several elements do the same way: taking the trace class out of
 * caps, turning a library GError into an element error, answering a
 * source's CAPS query.
 */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasesrc.h>
#include "gstctf-model.h"

G_BEGIN_DECLS

typedef enum {
  GST_CTF_CAPS_SAME,            /* the metadata text the element has */
  GST_CTF_CAPS_NEW,             /* a new (or grown) trace class */
  GST_CTF_CAPS_FAILED,          /* the element error is posted */
} GstCtfCapsResult;

GstCtfCapsResult gst_ctf_element_parse_caps (GstElement * element,
    GstCaps * caps, gchar ** metadata, GstCtfTraceClass ** trace_class);

void gst_ctf_element_post_gerror (GstElement * element, const GError * err,
    const gchar * what);

void gst_ctf_element_post_packet_error (GstElement * element, GstBuffer * buf,
    const GError * err, const gchar * what);

GstCaps *gst_ctf_element_src_get_caps (GstBaseSrc * src, GstCaps ** caps,
    GstCaps * filter);


G_END_DECLS
