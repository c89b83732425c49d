/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "di_tp.h"
