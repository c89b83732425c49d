/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstctf-output-version.h"
#include "gstctf-json-writer.h"

GType
gst_ctf_output_version_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {GST_CTF_OUTPUT_VERSION_AUTO, "The CTF version received (ctfsink), "
          "the newest of the inputs (ctfmux)", "auto"},
    {GST_CTF_OUTPUT_VERSION_1_8, "CTF 1.8 (TSDL metadata)", "1.8"},
    {GST_CTF_OUTPUT_VERSION_2, "CTF 2 (JSON metadata)", "2"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstCtfOutputVersion", values);

    g_once_init_leave (&id, t);
  }
  return (GType) id;
}

gchar *
gst_ctf_output_version_convert (const gchar * metadata,
    GstCtfOutputVersion version, gboolean lossy, GError ** error)
{
  if (version == GST_CTF_OUTPUT_VERSION_AUTO)
    return g_strdup (metadata);
  return gst_ctf_metadata_convert (metadata,
      version == GST_CTF_OUTPUT_VERSION_2 ? 2 : 1,
      lossy ? GST_CTF_CONVERT_LOSSY : GST_CTF_CONVERT_NONE, NULL, error);
}
