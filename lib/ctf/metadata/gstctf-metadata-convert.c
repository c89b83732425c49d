/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: metadata conversion between CTF 1.8 (TSDL) and CTF 2 (JSON).
 *
 * The data streams stay as they are: a conversion parses the metadata
 * into the trace model and writes the model with the other writer.
 * CTF 1.8 -> CTF 2 always works; CTF 2 -> CTF 1.8 first looks for a
 * field class TSDL cannot say with the same data layout.
 */
#include "gstctf-unicode-private.h"
#include "gstctf-json-writer.h"
#include "gstctf-tsdl-writer.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"

#include <string.h>

static const gchar *const scope_names[GST_CTF_N_SCOPES] = {
  "packet header", "packet context", "event record header",
  "event record common context", "event record specific context",
  "event record payload",
};

typedef struct {
  GstCtfConvertFlags flags;
  GString *path;
  const gchar *where;           /* scope name */
  const gchar *event;           /* event record class name, or NULL */
  GError **error;
} Check;

static gboolean
refuse (Check * c, const gchar * what, const gchar * hint)
{
  g_set_error (c->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
      "Cannot convert CTF 2 metadata to CTF 1.8: %s%s%s%s, field `%s` is %s; "
      "CTF 1.8 has no such field class%s", c->event ? "event record class `"
      : "", c->event ? c->event : "", c->event ? "`, " : "", c->where,
      c->path->len ? c->path->str : "(root)", what, hint);
  return FALSE;
}

static gboolean
check_fc (Check * c, const GstCtfFieldClass * fc, guint depth)
{
  gboolean lossy = (c->flags & GST_CTF_CONVERT_LOSSY) != 0;
  const gchar *lossy_hint = " (a lossy mapping is available: "
      "GST_CTF_CONVERT_LOSSY, the `lossy` setting of the elements)";
  gsize len = c->path->len;
  guint i;

  if (fc == NULL || depth > 128)
    return TRUE;
  /* TSDL's encodings are UTF8 and ASCII only */
  if (_gst_ctf_encoding_unit (_gst_ctf_field_class_text_encoding (fc)) > 1)
    return refuse (c, "a UTF-16 or UTF-32 string", "");
  switch (fc->form) {
    case GST_CTF_FIELD_FORM_LEB128:
      return refuse (c, "a variable-length integer (LEB128)", "");
    case GST_CTF_FIELD_FORM_OPTIONAL:
      return refuse (c, "an optional", "");
    case GST_CTF_FIELD_FORM_BLOB:
      /* a packet header's 16-byte UUID is TSDL's `uint8_t uuid[16]` */
      if (!lossy && fc->meaning != GST_CTF_MEANING_UUID)
        return refuse (c, "a BLOB", lossy_hint);
      break;
    case GST_CTF_FIELD_FORM_BOOLEAN:
      if (!lossy)
        return refuse (c, "a boolean", lossy_hint);
      break;
    case GST_CTF_FIELD_FORM_BIT_MAP:
      if (!lossy)
        return refuse (c, "a bit map with flags", lossy_hint);
      break;
    case GST_CTF_FIELD_FORM_BIT_ARRAY:
      if (!lossy)
        return refuse (c, "a fixed-length bit array", lossy_hint);
      break;
    default:
      break;
  }
  /* (the selector is known once resolved: a trace class built in memory
   * is checked for the rest) */
  if (fc->type == GST_CTF_FIELD_CLASS_VARIANT && fc->ref_target != NULL &&
      fc->ref_target->type != GST_CTF_FIELD_CLASS_ENUM)
    return refuse (c, "a variant selected by an integer field (CTF 1.8 "
        "variants select by an enumeration's labels)", "");
  if (fc->type == GST_CTF_FIELD_CLASS_VARIANT && fc->ref_target != NULL &&
      fc->enumeration.n_mappings > 0) {
    for (i = 0; i < fc->n_members; i++)
      if (_gst_ctf_tsdl_variant_option_label (fc, i) == NULL)
        return refuse (c, "a variant one of whose options is not selected "
            "by exactly the ranges of one label of its enumeration selector",
            "");
  }
  if (fc->type == GST_CTF_FIELD_CLASS_FLOAT &&
      !((fc->floating.exp_dig == 8 && fc->floating.mant_dig == 24) ||
          (fc->floating.exp_dig == 11 && fc->floating.mant_dig == 53)))
    return refuse (c, "a floating point number that is neither 32 nor 64 "
        "bits", "");
  for (i = 0; i < fc->n_members; i++) {
    if (len > 0)
      g_string_append_c (c->path, '.');
    g_string_append (c->path, fc->members[i].name ? fc->members[i].name :
        "");
    if (!check_fc (c, fc->members[i].fc, depth + 1))
      return FALSE;
    g_string_truncate (c->path, len);
  }
  if (fc->element != NULL) {
    g_string_append (c->path, "[]");
    if (!check_fc (c, fc->element, depth + 1))
      return FALSE;
    g_string_truncate (c->path, len);
  }
  return TRUE;
}

static gboolean
check_scope (Check * c, const GstCtfFieldClass * fc, GstCtfScope scope)
{
  c->where = scope_names[scope];
  g_string_truncate (c->path, 0);
  return check_fc (c, fc, 0);
}

gboolean
gst_ctf_trace_class_check_ctf18 (const GstCtfTraceClass * tc,
    GstCtfConvertFlags flags, GError ** error)
{
  Check c = { flags, g_string_new (NULL), NULL, NULL, error };
  gboolean ok;
  guint i, j;

  g_return_val_if_fail (tc != NULL, FALSE);

  ok = check_scope (&c, tc->packet_header, GST_CTF_SCOPE_PACKET_HEADER);
  for (i = 0; ok && i < tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    c.event = NULL;
    ok = check_scope (&c, sc->packet_context, GST_CTF_SCOPE_PACKET_CONTEXT)
        && check_scope (&c, sc->event_header, GST_CTF_SCOPE_EVENT_HEADER)
        && check_scope (&c, sc->event_common_context,
        GST_CTF_SCOPE_EVENT_COMMON_CONTEXT);
    for (j = 0; ok && j < sc->event_classes->len; j++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      c.event = ec->name;
      ok = check_scope (&c, ec->context, GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT)
          && check_scope (&c, ec->payload, GST_CTF_SCOPE_EVENT_PAYLOAD);
    }
  }
  g_string_free (c.path, TRUE);
  return ok;
}

gchar *
gst_ctf_metadata_convert (const gchar * text, guint major,
    GstCtfConvertFlags flags, const gchar * origin, GError ** error)
{
  GstCtfTraceClass *tc;
  gchar *out;

  g_return_val_if_fail (text != NULL, NULL);

  if (major != 1 && major != 2) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
        "Cannot convert metadata: file=\"%s\": CTF version %u, expected 1 "
        "(CTF 1.8) or 2", origin ? origin : "(memory)", major);
    return NULL;
  }
  if ((major == 2) == gst_ctf_metadata_is_ctf2 (text))
    return g_strdup (text);
  tc = gst_ctf_metadata_parse (text, origin, error);
  if (tc == NULL)
    return NULL;
  if (major == 2) {
    out = gst_ctf_json_write (tc, error);
  } else if (gst_ctf_trace_class_check_ctf18 (tc, flags, error)) {
    out = gst_ctf_tsdl_write (tc, error);
  } else {
    out = NULL;
  }
  gst_ctf_trace_class_unref (tc);
  return out;
}

/**
 * gst_ctf_metadata_move_clocks:
 * @text: metadata text, TSDL or CTF 2
 * @offset_s: seconds to add to every clock's offset
 * @offset_ns: nanoseconds to add to every clock's offset
 * @force_unix_epoch: make every clock's origin the Unix epoch
 * @origin: (nullable): a name for error messages (the file path)
 * @error: return location for a %GST_CTF_ERROR
 *
 * See the declaration in gstctf-json-writer.h.
 *
 * Returns: (transfer full) (nullable): the new metadata text, or %NULL
 */
gchar *
gst_ctf_metadata_move_clocks (const gchar * text, gint64 offset_s,
    gint64 offset_ns, gboolean force_unix_epoch, const gchar * origin,
    GError ** error)
{
  GstCtfTraceClass *tc;
  gchar *out = NULL;
  guint i;

  g_return_val_if_fail (text != NULL, NULL);

  tc = gst_ctf_metadata_parse (text, origin, error);
  if (tc == NULL)
    return NULL;
  for (i = 0; i < tc->clock_classes->len; i++) {
    GstCtfClockClass *cc = g_ptr_array_index (tc->clock_classes, i);

    if (!gst_ctf_clock_class_add_offset (cc, offset_s, offset_ns)) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_CLOCK,
          "Cannot move clock \"%s\" of %s by %" G_GINT64_FORMAT " s and %"
          G_GINT64_FORMAT " ns: its offset (offset_s = %" G_GINT64_FORMAT
          ", offset = %" G_GINT64_FORMAT " cycles) would overflow",
          cc->name, origin ? origin : "(memory)", offset_s, offset_ns,
          cc->offset_s, cc->offset);
      goto done;
    }
    if (force_unix_epoch) {
      cc->absolute = TRUE;
      cc->origin_is_unix_epoch = TRUE;
    }
  }
  out = gst_ctf_metadata_is_ctf2 (text) ? gst_ctf_json_write (tc, error) :
      gst_ctf_tsdl_write (tc, error);
done:
  gst_ctf_trace_class_unref (tc);
  return out;
}
