/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: ctfdebuginfo's output metadata: the input's, with the debug
 * info structure (`bin`, `func`, `src` strings, as babeltrace2's
 * debug-info filter makes it) last in the event common context of the
 * stream classes whose events carry `ip` and `vpid`.  Written again as
 * TSDL (CTF 1.8) or JSON (CTF 2), so that ctfsink writes the field and
 * any reader sees it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstctfdebuginfo-private.h"
#include "gstctf-metadata.h"
#include "gstctf-tsdl-writer.h"
#include "gstctf-json-writer.h"

gboolean
_gst_ctf_debug_info_name_is (const gchar * member, const gchar * name)
{
  return member && (strcmp (member, name) == 0 || (member[0] == '_' &&
          strcmp (member + 1, name) == 0));
}

static const GstCtfFieldClass *
find_member (const GstCtfFieldClass * fc, const gchar * name)
{
  guint i;

  for (i = 0; i < fc->n_members; i++)
    if (_gst_ctf_debug_info_name_is (fc->members[i].name, name))
      return fc->members[i].fc;
  return NULL;
}

gboolean
_gst_ctf_debug_info_context_fits (const GstCtfFieldClass * fc,
    const gchar * field_name)
{
  const GstCtfFieldClass *ip, *vpid;

  if (fc == NULL || fc->type != GST_CTF_FIELD_CLASS_STRUCT ||
      find_member (fc, field_name) != NULL)
    return FALSE;
  ip = find_member (fc, "ip");
  vpid = find_member (fc, "vpid");
  return ip && ip->type == GST_CTF_FIELD_CLASS_INTEGER &&
      !ip->integer.is_signed && vpid &&
      vpid->type == GST_CTF_FIELD_CLASS_INTEGER && vpid->integer.is_signed &&
      vpid->integer.size == 32;
}

static GstCtfFieldClass *
string_class (void)
{
  GstCtfFieldClass *s = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING);

  s->alignment = 8;
  s->string.encoding = GST_CTF_ENCODING_UTF8;
  return s;
}

gchar *
_gst_ctf_debug_info_metadata (const gchar * text, const gchar * field_name,
    guint * n_added, GError ** error)
{
  GstCtfTraceClass *tc;
  gchar *out;
  guint i, added = 0;

  tc = gst_ctf_metadata_parse (text, "caps", error);
  if (tc == NULL)
    return NULL;
  for (i = 0; i < tc->stream_classes->len; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);
    GstCtfFieldClass *st;

    if (!_gst_ctf_debug_info_context_fits (sc->event_common_context,
            field_name))
      continue;
    st = gst_ctf_field_class_new_struct ();
    gst_ctf_field_class_append_member (st, "bin", string_class ());
    gst_ctf_field_class_append_member (st, "func", string_class ());
    gst_ctf_field_class_append_member (st, "src", string_class ());
    gst_ctf_field_class_append_member (sc->event_common_context, field_name,
        st);
    added++;
  }
  if (added == 0)
    out = g_strdup (text);
  else if (tc->major >= 2)
    out = gst_ctf_json_write (tc, error);
  else
    out = gst_ctf_tsdl_write (tc, error);
  gst_ctf_trace_class_unref (tc);
  if (n_added)
    *n_added = added;
  return out;
}
