/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: trace class internals shared by the library's builders.
 */
#pragma once

#include "gstctf-model.h"

G_BEGIN_DECLS

/* Indexes @tc's stream classes by id, so that
 * gst_ctf_trace_class_find_stream_class() takes constant time (thousands
 * of stream classes in a merged trace class, looked up per packet).  Call
 * again after changing the array; a stale index is only slower. */
void _gst_ctf_trace_class_index_stream_classes (GstCtfTraceClass * tc);

/* gstctf-tsdl-shared.c: takes a dying shared trace class out of the
 * table (called by gst_ctf_trace_class_unref() before freeing it). */
void _gst_ctf_tsdl_shared_forget (GstCtfTraceClass * tc);

G_END_DECLS
