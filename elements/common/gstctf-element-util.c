/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What several elements do the same way (see gstctf-element-util.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "gstctf-element-util.h"
#include "gstctf-caps.h"
#include "gstctf-error.h"
#include "gstctf-metadata.h"

/* The trace class of @caps' metadata (TSDL or CTF 2 JSON), parsed once
 * per text for the whole process (gst_ctf_metadata_parse_shared()).
 * When the text equals *@metadata, nothing changes (SAME).  Else, on
 * success, *@metadata takes a copy of the text and *@trace_class a
 * reference to the new trace class (NEW): the caller drops what it derived
 * from the old one and unrefs it first.  On failure an element error is
 * posted (STREAM FORMAT without metadata, STREAM DECODE when it does not
 * parse, with the GError domain and code in the debug string). */
GstCtfCapsResult
gst_ctf_element_parse_caps (GstElement * element, GstCaps * caps,
    gchar ** metadata, GstCtfTraceClass ** trace_class)
{
  const gchar *text = gst_ctf_caps_get_metadata (caps);
  GError *err = NULL;
  GstCtfTraceClass *tc;

  if (text == NULL) {
    GST_ELEMENT_ERROR (element, STREAM, FORMAT,
        ("Caps carry no CTF metadata."), ("caps: %" GST_PTR_FORMAT, caps));
    return GST_CTF_CAPS_FAILED;
  }
  if (*metadata != NULL && strcmp (*metadata, text) == 0)
    return GST_CTF_CAPS_SAME;
  tc = gst_ctf_metadata_parse_shared (text, "caps", &err);
  if (tc == NULL) {
    GST_ELEMENT_ERROR (element, STREAM, DECODE,
        ("Cannot parse the CTF metadata of the caps: %s", err->message),
        ("%s (%s, code %d)", err->message, g_quark_to_string (err->domain),
            err->code));
    g_clear_error (&err);
    return GST_CTF_CAPS_FAILED;
  }
  g_free (*metadata);
  *metadata = g_strdup (text);
  *trace_class = tc;
  return GST_CTF_CAPS_NEW;
}

/* A library GError as an element error: a file or trace that is not there
 * (GST_CTF_ERROR_IO, _NO_TRACE) is RESOURCE NOT_FOUND with the library's
 * message; anything else STREAM DECODE, "@what: message".  The GError
 * domain and code go into the debug string so that applications and tests
 * can tell the causes apart. */
void
gst_ctf_element_post_gerror (GstElement * element, const GError * err,
    const gchar * what)
{
  gchar *dbg = g_strdup_printf ("%s (%s, code %d)", err->message,
      g_quark_to_string (err->domain), err->code);

  if (err->domain == GST_CTF_ERROR && (err->code == GST_CTF_ERROR_IO ||
          err->code == GST_CTF_ERROR_NO_TRACE))
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND, ("%s", err->message),
        ("%s", dbg));
  else
    GST_ELEMENT_ERROR (element, STREAM, DECODE, ("%s: %s", what,
            err->message), ("%s", dbg));
  g_free (dbg);
}

/* A packet that does not decode: STREAM DECODE naming the packet by its
 * byte offset in its stream file and its PTS. */
void
gst_ctf_element_post_packet_error (GstElement * element, GstBuffer * buf,
    const GError * err, const gchar * what)
{
  GST_ELEMENT_ERROR (element, STREAM, DECODE, ("%s: %s", what, err->message),
      ("buffer offset=%" G_GUINT64_FORMAT " (bytes in its stream file), "
          "pts=%" GST_TIME_FORMAT " (%s, code %d)", GST_BUFFER_OFFSET (buf),
          GST_TIME_ARGS (GST_BUFFER_PTS (buf)),
          g_quark_to_string (err->domain), err->code));
}

/* A source's caps: *@caps (read under the object lock) once the source
 * knows its metadata, else its pad template's; intersected with @filter
 * when given.  Returns: (transfer full). */
GstCaps *
gst_ctf_element_src_get_caps (GstBaseSrc * src, GstCaps ** caps,
    GstCaps * filter)
{
  GstCaps *ret;

  GST_OBJECT_LOCK (src);
  if (*caps)
    ret = gst_caps_ref (*caps);
  else
    ret = gst_pad_get_pad_template_caps (GST_BASE_SRC_PAD (src));
  GST_OBJECT_UNLOCK (src);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (ret);
    ret = tmp;
  }
  return ret;
}
