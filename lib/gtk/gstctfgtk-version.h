/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

/**
 * GST_CTF_GTK_API:
 *
 * Marks a public symbol of libgstctf-gtk-1.0.
 */
#if defined(BUILDING_GST_CTF_GTK) && defined(__GNUC__)
#define GST_CTF_GTK_API __attribute__ ((visibility ("default"))) extern
#else
#define GST_CTF_GTK_API extern
#endif
