/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctfstatssink: summaries of a ctftracer trace (env tracer_name =
 * "ctftracer"): per-element processing time (`proctime`) and per-path
 * latency (`latency`), count, min, mean, p50, p99 and max in ns, named
 * with the trace's element_new / pad_new events.
 */
#pragma once

#include "gstctf-reader.h"

G_BEGIN_DECLS

typedef struct _GstCtfTracerStats GstCtfTracerStats;

GstCtfTracerStats *gst_ctf_tracer_stats_new (void);
void gst_ctf_tracer_stats_free (GstCtfTracerStats * ts);
/* One event: its class name and recorded payload values. */
void gst_ctf_tracer_stats_add (GstCtfTracerStats * ts, const gchar * name,
    const GstCtfFieldValue * v, guint n);
void gst_ctf_tracer_stats_append_text (GstCtfTracerStats * ts, GString * s);
/* `"ctftracer": {"proctime": {NAME: {...}}, "latency": {PATH: {...}}}` */
void gst_ctf_tracer_stats_append_json (GstCtfTracerStats * ts, GString * s,
    void (*json_string) (GString *, const gchar *));

G_END_DECLS
