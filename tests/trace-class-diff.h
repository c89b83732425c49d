/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests and fuzz targets: where two trace classes differ.
 */
#pragma once

#include "gstctf-model.h"

G_BEGIN_DECLS

/* Where @a and @b differ, as "PATH: WHAT" (the first difference found),
 * or NULL when they are equal: versions, uuids, byte orders, env, clocks,
 * and every field class with its resolution state (meanings, value slots,
 * reference targets by their slots, mapped clocks by their positions),
 * stream and event classes with their ids (and the id indexes), default
 * clocks.  Compiled plans and sharing are not compared.
 * Returns: (transfer full) (nullable) */
gchar *trace_class_diff (const GstCtfTraceClass * a,
    const GstCtfTraceClass * b);

G_END_DECLS
