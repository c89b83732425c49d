/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Caps of the packet stream (docs/design.md "The stream between
 * elements"): the TSDL text travels in caps so that a pipeline can be
 * serialized (gdppay) and every element can decode a packet from caps +
 * buffer alone.  The truncation event marks a stream that a source cut
 * short on an error.
 */
#include "gstctf-caps.h"

#include <stdio.h>

GstCaps *
gst_ctf_caps_new (const gchar * tsdl, const guint8 * uuid)
{
  GstCaps *caps;

  g_return_val_if_fail (tsdl != NULL, NULL);

  caps = gst_caps_new_simple (GST_CTF_CAPS_MEDIA_TYPE,
      "metadata", G_TYPE_STRING, tsdl, NULL);
  if (uuid != NULL) {
    gchar s[37];

    /* The canonical 8-4-4-4-12 form, as TSDL writes `uuid = "..."`. */
    g_snprintf (s, sizeof (s),
        "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
        "%02x%02x%02x%02x%02x%02x", uuid[0], uuid[1], uuid[2], uuid[3],
        uuid[4], uuid[5], uuid[6], uuid[7], uuid[8], uuid[9], uuid[10],
        uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
    gst_caps_set_simple (caps, "uuid", G_TYPE_STRING, s, NULL);
  }
  return caps;
}

/* a string field of the first structure of CTF caps, or NULL */
static const gchar *
caps_get_string (const GstCaps * caps, const gchar * field)
{
  const GstStructure *s;

  if (gst_caps_get_size (caps) < 1)
    return NULL;
  s = gst_caps_get_structure (caps, 0);
  if (!gst_structure_has_name (s, GST_CTF_CAPS_MEDIA_TYPE))
    return NULL;
  return gst_structure_get_string (s, field);
}

const gchar *
gst_ctf_caps_get_metadata (const GstCaps * caps)
{
  g_return_val_if_fail (caps != NULL, NULL);

  return caps_get_string (caps, "metadata");
}

void
gst_ctf_caps_set_trace_name (GstCaps * caps, const gchar * name)
{
  GstStructure *s;

  g_return_if_fail (GST_IS_CAPS (caps) && gst_caps_is_writable (caps));
  g_return_if_fail (gst_caps_get_size (caps) >= 1);

  s = gst_caps_get_structure (caps, 0);
  if (name != NULL)
    gst_structure_set (s, "trace-name", G_TYPE_STRING, name, NULL);
  else
    gst_structure_remove_field (s, "trace-name");
}

const gchar *
gst_ctf_caps_get_trace_name (const GstCaps * caps)
{
  g_return_val_if_fail (caps != NULL, NULL);

  return caps_get_string (caps, "trace-name");
}

GstEvent *
gst_ctf_event_new_truncated (const gchar * reason)
{
  g_return_val_if_fail (reason != NULL, NULL);

  return gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
      gst_structure_new (GST_CTF_EVENT_TRUNCATED, "reason", G_TYPE_STRING,
          reason, NULL));
}

gboolean
gst_ctf_event_parse_truncated (GstEvent * event, const gchar ** reason)
{
  const GstStructure *s;

  g_return_val_if_fail (GST_IS_EVENT (event), FALSE);

  if (GST_EVENT_TYPE (event) != GST_EVENT_CUSTOM_DOWNSTREAM)
    return FALSE;
  s = gst_event_get_structure (event);
  if (s == NULL || !gst_structure_has_name (s, GST_CTF_EVENT_TRUNCATED))
    return FALSE;
  if (reason) {
    *reason = gst_structure_get_string (s, "reason");
    if (*reason == NULL)
      *reason = "no reason given";
  }
  return TRUE;
}
