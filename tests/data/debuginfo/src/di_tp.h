/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracepoint of the debug-info workload (record.sh). */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER di_app
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./di_tp.h"
#if !defined(DI_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define DI_TP_H
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(di_app, step,
    LTTNG_UST_TP_ARGS(int, depth, int, value),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int, depth, depth)
        lttng_ust_field_integer(int, value, value)))
#endif
#include <lttng/tracepoint-event.h>
