/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean gst_ctf_cli_init (GError ** error);

G_END_DECLS
