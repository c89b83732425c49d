/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

/**
 * GST_CTF_API:
 *
 * Marks a public symbol of libgstctf-1.0.
 */
#if defined(BUILDING_GST_CTF) && defined(__GNUC__)
#define GST_CTF_API __attribute__ ((visibility ("default"))) extern
#else
#define GST_CTF_API extern
#endif
