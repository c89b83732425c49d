/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Elements and properties looked up by name, with an error that names the
 * option when this build lacks them */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

GstElement *gst_ctf_cli_add (GstElement * pipeline, const gchar * factory,
    const gchar * option, GError ** error);
gboolean gst_ctf_cli_has_property (GstElement * element, const gchar * name);
gboolean gst_ctf_cli_set (GstElement * element, const gchar * name,
    const gchar * value, const gchar * option, GError ** error);

G_END_DECLS
