/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the semantic pass of the CTF 2 front end.
 *
 *  - field locations (CTF2-SPEC-2.0 §5.3): with an `origin`, the path
 *    starts at that scope's root; without, at the structure holding the
 *    dynamic field, each `null` going up one structure.  The path crosses
 *    structures only; the target must be an integer (unsigned for a
 *    length) decoded before the dynamic field.  Each target gets a value
 *    slot, and ref_path becomes a readable path;
 *  - a variant's selector ranges are checked with its selector's
 *    signedness;
 *  - roles (§5.4.1) are checked against their scope and become the
 *    model's meanings; the clock-timestamp roles map to the data stream
 *    class's default clock.
 */
#include "gstctf-json-private.h"

#include <string.h>

typedef struct {
  GstCtfFieldClass *fc;         /* enclosing struct/variant/array */
  guint index;                  /* member index (0 for an element) */
} Frame;

typedef struct {
  GstCtfJsonCtx *c;
  GstCtfFieldClass *roots[GST_CTF_N_SCOPES];
  GstCtfScope scope;
  GstCtfStreamClass *sc;
  GArray *stack;                /* Frame */
} Walk;

static const struct {
  const gchar *origin;
  const gchar *tsdl;
} origins[GST_CTF_N_SCOPES] = {
  {"packet-header", "trace.packet.header"},
  {"packet-context", "stream.packet.context"},
  {"event-record-header", "stream.event.header"},
  {"event-record-common-context", "stream.event.context"},
  {"event-record-specific-context", "event.context"},
  {"event-record-payload", "event.fields"},
};

static GstCtfFieldClass *
member (GstCtfFieldClass * fc, const gchar * name, guint limit, guint * idx)
{
  guint i;

  for (i = 0; i < fc->n_members && i < limit; i++) {
    if (strcmp (fc->members[i].name, name) == 0) {
      *idx = i;
      return fc->members[i].fc;
    }
  }
  return NULL;
}

static gboolean
resolve_location (Walk * w, GstCtfFieldClass * fc, const gchar * what)
{
  GstCtfJsonCtx *c = w->c;
  JsonParser *p = json_parser_new_immutable ();
  GstCtfFieldClass *target = NULL;
  GString *readable = g_string_new (NULL);
  JsonObject *o;
  JsonNode *pn;
  JsonArray *path;
  const gchar *origin = NULL;
  gboolean ok = FALSE;
  guint i, n;

  if (!json_parser_load_from_data (p, fc->ref_path, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (p)))
    goto bad;
  o = json_node_get_object (json_parser_get_root (p));
  if (!_gst_ctf_json_get_string (c, o, "field location", "origin", FALSE,
          &origin))
    goto out;
  pn = json_object_get_member (o, "path");
  if (pn == NULL || !JSON_NODE_HOLDS_ARRAY (pn) ||
      json_array_get_length (json_node_get_array (pn)) == 0)
    goto bad;
  path = json_node_get_array (pn);
  n = json_array_get_length (path);

  if (origin != NULL) {
    GArray *idx = g_array_new (FALSE, FALSE, sizeof (guint));
    GstCtfScope s;
    guint k;

    for (s = 0; s < GST_CTF_N_SCOPES; s++)
      if (strcmp (origins[s].origin, origin) == 0)
        break;
    if (s == GST_CTF_N_SCOPES) {
      g_array_free (idx, TRUE);
      _gst_ctf_json_fail (c, "%s: field location with unknown origin `%s`",
          what, origin);
      goto out;
    }
    g_string_append (readable, origins[s].tsdl);
    target = s <= w->scope ? w->roots[s] : NULL;
    for (i = 0; i < n && target != NULL; i++) {
      JsonNode *e = json_array_get_element (path, i);
      guint j;

      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) !=
          G_TYPE_STRING || target->type != GST_CTF_FIELD_CLASS_STRUCT) {
        target = NULL;
        break;
      }
      target = member (target, json_node_get_string (e), G_MAXUINT, &j);
      g_array_append_val (idx, j);
      g_string_append_printf (readable, ".%s", json_node_get_string (e));
    }
    /* in the dynamic field's own scope, the target comes before it */
    if (target != NULL && s == w->scope) {
      gboolean before = FALSE;

      for (k = 0; k < MIN (idx->len, w->stack->len); k++) {
        guint ti = g_array_index (idx, guint, k);
        Frame *f = &g_array_index (w->stack, Frame, k);

        if (ti != f->index) {
          before = ti < f->index && f->fc->type == GST_CTF_FIELD_CLASS_STRUCT;
          break;
        }
      }
      if (!before)
        target = NULL;
    }
    g_array_free (idx, TRUE);
  } else {
    gint k = (gint) w->stack->len - 1;
    gboolean on_stack = TRUE;

    while (k >= 0 && g_array_index (w->stack, Frame, k).fc->type !=
        GST_CTF_FIELD_CLASS_STRUCT)
      k--;
    for (i = 0; i < n && k >= 0; i++) {
      JsonNode *e = json_array_get_element (path, i);
      Frame *f = &g_array_index (w->stack, Frame, k);
      guint j;

      if (JSON_NODE_HOLDS_NULL (e)) {
        if (!on_stack)
          break;
        g_string_append (readable, "..");
        for (k--; k >= 0 && g_array_index (w->stack, Frame, k).fc->type !=
            GST_CTF_FIELD_CLASS_STRUCT; k--);
        continue;
      }
      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) !=
          G_TYPE_STRING)
        break;
      if (readable->len > 0)
        g_string_append_c (readable, '.');
      g_string_append (readable, json_node_get_string (e));
      if (on_stack) {
        target = member (f->fc, json_node_get_string (e), f->index, &j);
        on_stack = FALSE;
      } else if (target != NULL && target->type == GST_CTF_FIELD_CLASS_STRUCT) {
        target = member (target, json_node_get_string (e), G_MAXUINT, &j);
      } else {
        target = NULL;
      }
      if (target == NULL)
        break;
    }
    if (i < n || on_stack)
      target = NULL;
    /* the same as an absolute path (TSDL's form): the names from the
     * scope root down to the structure the lookup started in */
    if (target != NULL) {
      GString *abs = g_string_new (origins[w->scope].tsdl);
      gint top = k, j;

      for (j = 0; j < top; j++) {
        Frame *f = &g_array_index (w->stack, Frame, j);

        if (f->fc->type == GST_CTF_FIELD_CLASS_STRUCT ||
            f->fc->type == GST_CTF_FIELD_CLASS_VARIANT)
          g_string_append_printf (abs, ".%s", f->fc->members[f->index].name);
      }
      for (i = 0; i < n; i++) {
        JsonNode *e = json_array_get_element (path, i);

        if (!JSON_NODE_HOLDS_NULL (e))
          g_string_append_printf (abs, ".%s", json_node_get_string (e));
      }
      g_string_free (readable, TRUE);
      readable = abs;
    }
  }

  if (target == NULL) {
    _gst_ctf_json_fail (c, "%s: field location %s does not name a field "
        "before it (through structures only)", what, fc->ref_path);
    goto out;
  }
  if (target->type != GST_CTF_FIELD_CLASS_INTEGER &&
      target->type != GST_CTF_FIELD_CLASS_ENUM) {
    _gst_ctf_json_fail (c, "%s: field location %s: the field is not an "
        "integer or a boolean", what, fc->ref_path);
    goto out;
  }
  if (fc->type == GST_CTF_FIELD_CLASS_SEQUENCE && target->integer.is_signed) {
    _gst_ctf_json_fail (c, "%s: length field location %s: the field is a "
        "signed integer", what, fc->ref_path);
    goto out;
  }
  if (target->value_slot < 0)
    target->value_slot = (gint) c->tc->n_value_slots++;
  fc->ref_target = target;
  g_free (fc->ref_path);
  fc->ref_path = g_string_free (readable, FALSE);
  readable = NULL;
  ok = TRUE;
  goto out;

bad:
  _gst_ctf_json_fail (c, "%s: invalid field location %s", what,
      fc->ref_path);
out:
  if (readable)
    g_string_free (readable, TRUE);
  g_object_unref (p);
  return ok;
}

static gboolean
check_variant_ranges (GstCtfJsonCtx * c, GstCtfFieldClass * fc)
{
  const GstCtfFieldClass *sel = fc->ref_target;
  gboolean sgn = sel->integer.is_signed;
  gboolean by_bool = fc->form == GST_CTF_FIELD_FORM_OPTIONAL &&
      fc->enumeration.n_mappings == 1 &&
      fc->enumeration.mappings[0].lower == 1 &&
      fc->enumeration.mappings[0].upper == G_MAXUINT64;
  guint i;

  /* an optional without ranges needs a boolean selector, one with
   * ranges an integer; a variant an integer (CTF2-SPEC-2.0 §5.4.16-17) */
  if (fc->form == GST_CTF_FIELD_FORM_OPTIONAL &&
      (sel->form == GST_CTF_FIELD_FORM_BOOLEAN) != by_bool)
    return _gst_ctf_json_fail (c, "optional: %s", by_bool ?
        "a selector that is not a boolean needs `selector-field-ranges`" :
        "a boolean selector takes no `selector-field-ranges`");
  if (fc->form != GST_CTF_FIELD_FORM_OPTIONAL &&
      sel->form == GST_CTF_FIELD_FORM_BOOLEAN)
    return _gst_ctf_json_fail (c, "variant: the selector is a boolean, "
        "expected an integer");
  if (by_bool)
    return TRUE;

  for (i = 0; i < fc->enumeration.n_mappings; i++) {
    const GstCtfEnumMapping *m = &fc->enumeration.mappings[i];

    if (sgn ? (gint64) m->lower > (gint64) m->upper : m->lower > m->upper)
      return _gst_ctf_json_fail (c, "variant option `%s`: selector range "
          "lower bound above upper bound", m->label);
  }
  return TRUE;
}

static const gchar *
meaning_role (GstCtfFieldMeaning m)
{
  switch (m) {
    case GST_CTF_MEANING_MAGIC:
      return "packet-magic-number";
    case GST_CTF_MEANING_UUID:
      return "metadata-stream-uuid";
    case GST_CTF_MEANING_STREAM_CLASS_ID:
      return "data-stream-class-id";
    case GST_CTF_MEANING_STREAM_INSTANCE_ID:
      return "data-stream-id";
    case GST_CTF_MEANING_PACKET_SIZE:
      return "packet-total-length";
    case GST_CTF_MEANING_CONTENT_SIZE:
      return "packet-content-length";
    case GST_CTF_MEANING_TIMESTAMP:
    case GST_CTF_MEANING_TIMESTAMP_BEGIN:
      return "default-clock-timestamp";
    case GST_CTF_MEANING_TIMESTAMP_END:
      return "packet-end-default-clock-timestamp";
    case GST_CTF_MEANING_EVENTS_DISCARDED:
      return "discarded-event-record-counter-snapshot";
    case GST_CTF_MEANING_PACKET_SEQ_NUM:
      return "packet-sequence-number";
    case GST_CTF_MEANING_EVENT_CLASS_ID:
      return "event-record-class-id";
    default:
      return "";
  }
}

static gboolean
apply_role (Walk * w, GstCtfFieldClass * fc, const gchar * name)
{
  GstCtfFieldMeaning m = fc->meaning;
  gboolean ok;

  if (m == GST_CTF_MEANING_NONE)
    return TRUE;
  switch (w->scope) {
    case GST_CTF_SCOPE_PACKET_HEADER:
      ok = m == GST_CTF_MEANING_MAGIC || m == GST_CTF_MEANING_UUID ||
          m == GST_CTF_MEANING_STREAM_CLASS_ID ||
          m == GST_CTF_MEANING_STREAM_INSTANCE_ID;
      break;
    case GST_CTF_SCOPE_PACKET_CONTEXT:
      ok = m == GST_CTF_MEANING_PACKET_SIZE ||
          m == GST_CTF_MEANING_CONTENT_SIZE ||
          m == GST_CTF_MEANING_TIMESTAMP ||
          m == GST_CTF_MEANING_TIMESTAMP_END ||
          m == GST_CTF_MEANING_EVENTS_DISCARDED ||
          m == GST_CTF_MEANING_PACKET_SEQ_NUM;
      if (m == GST_CTF_MEANING_TIMESTAMP)
        fc->meaning = GST_CTF_MEANING_TIMESTAMP_BEGIN;
      break;
    case GST_CTF_SCOPE_EVENT_HEADER:
      ok = m == GST_CTF_MEANING_EVENT_CLASS_ID ||
          m == GST_CTF_MEANING_TIMESTAMP;
      break;
    default:
      ok = FALSE;
      break;
  }
  if (!ok)
    return _gst_ctf_json_fail (w->c, "field `%s`: role `%s` not allowed in "
        "the %s scope", name ? name : "", meaning_role (m),
        origins[w->scope].origin);
  if (m == GST_CTF_MEANING_UUID) {
    if (fc->type != GST_CTF_FIELD_CLASS_ARRAY || fc->length != 16)
      return _gst_ctf_json_fail (w->c, "field `%s`: role "
          "`metadata-stream-uuid` needs a static-length BLOB of 16 bytes",
          name ? name : "");
    return TRUE;
  }
  if (fc->type != GST_CTF_FIELD_CLASS_INTEGER &&
      fc->type != GST_CTF_FIELD_CLASS_ENUM)
    return _gst_ctf_json_fail (w->c, "field `%s`: role `%s` needs an "
        "integer field class", name ? name : "", meaning_role (m));
  if (fc->integer.is_signed)
    return _gst_ctf_json_fail (w->c, "field `%s`: role `%s` needs an "
        "unsigned integer field class", name ? name : "", meaning_role (m));
  if (m == GST_CTF_MEANING_TIMESTAMP || m == GST_CTF_MEANING_TIMESTAMP_BEGIN
      || m == GST_CTF_MEANING_TIMESTAMP_END) {
    if (w->sc == NULL || w->sc->default_clock == NULL)
      return _gst_ctf_json_fail (w->c, "field `%s`: role `%s` in a data "
          "stream class without a default clock class", name ? name : "",
          meaning_role (m));
    fc->integer.mapped_clock = w->sc->default_clock;
    g_free (fc->integer.map_clock_name);
    fc->integer.map_clock_name = g_strdup (w->sc->default_clock->name);
  }
  return TRUE;
}

static gboolean
walk_tree (Walk * w, GstCtfFieldClass * fc, const gchar * name, guint depth)
{
  guint i;

  if (depth > GST_CTF_JSON_MAX_DEPTH + 1)
    return _gst_ctf_json_fail (w->c, "field classes nested too deep");
  if (!apply_role (w, fc, name))
    return FALSE;
  if (fc->type == GST_CTF_FIELD_CLASS_SEQUENCE ||
      fc->type == GST_CTF_FIELD_CLASS_VARIANT) {
    if (!resolve_location (w, fc, name ? name : "field"))
      return FALSE;
    if (fc->type == GST_CTF_FIELD_CLASS_VARIANT &&
        !check_variant_ranges (w->c, fc))
      return FALSE;
  }
  for (i = 0; i < fc->n_members; i++) {
    Frame f = { fc, i };
    gboolean ok;

    g_array_append_val (w->stack, f);
    ok = walk_tree (w, fc->members[i].fc, fc->members[i].name, depth + 1);
    g_array_set_size (w->stack, w->stack->len - 1);
    if (!ok)
      return FALSE;
  }
  if (fc->element != NULL) {
    Frame f = { fc, 0 };
    gboolean ok;

    g_array_append_val (w->stack, f);
    ok = walk_tree (w, fc->element, NULL, depth + 1);
    g_array_set_size (w->stack, w->stack->len - 1);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

static gboolean
walk_root (Walk * w, GstCtfScope scope)
{
  if (w->roots[scope] == NULL)
    return TRUE;
  w->scope = scope;
  g_array_set_size (w->stack, 0);
  return walk_tree (w, w->roots[scope], NULL, 0);
}

static gboolean
resolve_scopes (GstCtfJsonCtx * c, GstCtfStreamClass * sc,
    GstCtfEventClass * ec, GstCtfScope first, GstCtfScope last)
{
  Walk w;
  gboolean ok = TRUE;
  GstCtfScope s;

  memset (&w, 0, sizeof (w));
  w.c = c;
  w.sc = sc;
  w.stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  w.roots[GST_CTF_SCOPE_PACKET_HEADER] = c->tc->packet_header;
  if (sc != NULL) {
    w.roots[GST_CTF_SCOPE_PACKET_CONTEXT] = sc->packet_context;
    w.roots[GST_CTF_SCOPE_EVENT_HEADER] = sc->event_header;
    w.roots[GST_CTF_SCOPE_EVENT_COMMON_CONTEXT] = sc->event_common_context;
  }
  if (ec != NULL) {
    w.roots[GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT] = ec->context;
    w.roots[GST_CTF_SCOPE_EVENT_PAYLOAD] = ec->payload;
  }
  for (s = first; ok && s <= last; s++)
    ok = walk_root (&w, s);
  g_array_free (w.stack, TRUE);
  return ok;
}

gboolean
_gst_ctf_json_resolve_trace (GstCtfJsonCtx * c)
{
  return resolve_scopes (c, NULL, NULL, GST_CTF_SCOPE_PACKET_HEADER,
      GST_CTF_SCOPE_PACKET_HEADER);
}

gboolean
_gst_ctf_json_resolve_stream (GstCtfJsonCtx * c, GstCtfStreamClass * sc)
{
  return resolve_scopes (c, sc, NULL, GST_CTF_SCOPE_PACKET_CONTEXT,
      GST_CTF_SCOPE_EVENT_COMMON_CONTEXT);
}

gboolean
_gst_ctf_json_resolve_event (GstCtfJsonCtx * c, GstCtfStreamClass * sc,
    GstCtfEventClass * ec)
{
  return resolve_scopes (c, sc, ec, GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT,
      GST_CTF_SCOPE_EVENT_PAYLOAD);
}
