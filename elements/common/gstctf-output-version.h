/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The `ctf-version` property of the elements that write or convert CTF
 * (ctfsink, ctfmux, tracecmdsrc, lttng0src), and the metadata
 * conversion behind it.
 */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/**
 * GstCtfOutputVersion:
 * @GST_CTF_OUTPUT_VERSION_AUTO: the version the element receives (ctfsink)
 *   or the newest of its inputs (ctfmux)
 * @GST_CTF_OUTPUT_VERSION_1_8: CTF 1.8 (TSDL metadata)
 * @GST_CTF_OUTPUT_VERSION_2: CTF 2 (JSON metadata, CTF2-SPEC-2.0)
 *
 * The CTF version an element writes.  Data streams are the same bytes in
 * both: only the metadata differs.
 */
typedef enum {
  GST_CTF_OUTPUT_VERSION_AUTO = 0,
  GST_CTF_OUTPUT_VERSION_1_8 = 1,
  GST_CTF_OUTPUT_VERSION_2 = 2,
} GstCtfOutputVersion;

GType gst_ctf_output_version_get_type (void);
#define GST_CTF_TYPE_OUTPUT_VERSION (gst_ctf_output_version_get_type ())

/* @metadata (TSDL or CTF 2) as @version (AUTO: unchanged), lossy when
 * @lossy (see gst_ctf_metadata_convert()); NULL with @error set when it
 * cannot be converted. */
gchar *gst_ctf_output_version_convert (const gchar * metadata,
    GstCtfOutputVersion version, gboolean lossy, GError ** error);

G_END_DECLS
