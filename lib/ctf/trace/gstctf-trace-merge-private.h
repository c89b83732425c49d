/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the env entries a merge records (gstctf-trace-merge.h), looked
 * up in constant time: for callers that ask for every stream class of a
 * merged trace class (thousands of inputs), where
 * gst_ctf_trace_merge_find_env() would go over the whole env each time.
 */
#pragma once

#include "gstctf-model.h"

G_BEGIN_DECLS

typedef struct _GstCtfMergeEnvIndex GstCtfMergeEnvIndex;

/* Indexes @tc's env (which must outlive the index and not change). */
GstCtfMergeEnvIndex *_gst_ctf_merge_env_index_new (const GstCtfTraceClass *
    tc);
void _gst_ctf_merge_env_index_free (GstCtfMergeEnvIndex * idx);

/* As gst_ctf_trace_merge_get_input_of_stream_class(). */
gint _gst_ctf_merge_env_index_input (const GstCtfMergeEnvIndex * idx,
    guint64 stream_class_id);

/* The env entry @key itself, or NULL. */
const GstCtfEnvEntry *_gst_ctf_merge_env_index_lookup (const
    GstCtfMergeEnvIndex * idx, const gchar * key);

/* As gst_ctf_trace_merge_find_env(). */
const GstCtfEnvEntry *_gst_ctf_merge_env_index_find (const
    GstCtfMergeEnvIndex * idx, guint64 stream_class_id, const gchar * name);

G_END_DECLS
