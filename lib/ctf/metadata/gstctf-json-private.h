/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the CTF 2 JSON metadata front end, private interface.
 *
 * gstctf-json-parse.c splits the metadata stream into fragments (RFC 7464
 * JSON text sequence, CTF2-SPEC-2.0 §6) and builds the trace, clock,
 * data stream and event record classes; gstctf-json-fields.c builds field
 * classes (§5.4); gstctf-json-resolve.c resolves field locations (§5.3)
 * and turns roles into the model's meanings and clock mappings.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "gstctf-model.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/* Limits on what a metadata stream may build. */
#define GST_CTF_JSON_MAX_DEPTH 64       /* nesting of field classes */
#define GST_CTF_JSON_MAX_NODES (1024 * 1024)    /* field class nodes */
#define GST_CTF_JSON_MAX_NESTING 512    /* JSON arrays and objects */

typedef struct {
  const gchar *origin;          /* file name for messages, or NULL */
  guint index;                  /* current fragment, from 0 */
  gsize offset;                 /* its byte offset in the stream */
  GError **error;
  GstCtfTraceClass *tc;
  GHashTable *aliases;          /* name -> GstCtfFieldClass (owned) */
  guint n_nodes;
} GstCtfJsonCtx;

/* Sets a GST_CTF_ERROR_METADATA_INVALID error naming the file, the
 * fragment (index and byte offset) and @fmt; returns FALSE. */
G_GNUC_INTERNAL G_GNUC_PRINTF (2, 3)
gboolean _gst_ctf_json_fail (GstCtfJsonCtx * c, const gchar * fmt, ...);

/* JSON helpers: typed member access that fails with a message naming
 * the member (@what is the object's kind, for messages). */
G_GNUC_INTERNAL
gboolean _gst_ctf_json_get_uint (GstCtfJsonCtx * c, JsonObject * o,
    const gchar * what, const gchar * key, gboolean required, guint64 dflt,
    guint64 * out);
G_GNUC_INTERNAL
gboolean _gst_ctf_json_get_string (GstCtfJsonCtx * c, JsonObject * o,
    const gchar * what, const gchar * key, gboolean required,
    const gchar ** out);
/* Refuses a property of @o that is neither in @allowed (NULL-terminated)
 * nor `type`, `attributes` or `extensions` (babeltrace2 2.1 refuses
 * them too: a property of a draft of the specification would change
 * what the data means). */
G_GNUC_INTERNAL
gboolean _gst_ctf_json_check_props (GstCtfJsonCtx * c, JsonObject * o,
    const gchar * what, const gchar * const *allowed);
/* Refuses a non-empty `extensions` object (CTF2-SPEC-2.0 §5.1: a
 * consumer must refuse extensions it does not know). */
G_GNUC_INTERNAL
gboolean _gst_ctf_json_check_extensions (GstCtfJsonCtx * c, JsonObject * o,
    const gchar * what);

/* Builds the field class of @node (an object, or a string naming a field
 * class alias); NULL with an error set. */
G_GNUC_INTERNAL
GstCtfFieldClass *_gst_ctf_json_field_class (GstCtfJsonCtx * c,
    JsonNode * node, const gchar * what, guint depth);

/* Once a fragment's field classes are built: their field locations
 * resolved (ref_target, value slots), roles checked and turned into
 * meanings and clock mappings.  The trace class's packet header, a data
 * stream class's three scopes, an event record class's two. */
G_GNUC_INTERNAL
gboolean _gst_ctf_json_resolve_trace (GstCtfJsonCtx * c);
G_GNUC_INTERNAL
gboolean _gst_ctf_json_resolve_stream (GstCtfJsonCtx * c,
    GstCtfStreamClass * sc);
G_GNUC_INTERNAL
gboolean _gst_ctf_json_resolve_event (GstCtfJsonCtx * c,
    GstCtfStreamClass * sc, GstCtfEventClass * ec);

/* The whole front end: @text (@len bytes, the first one 0x1E) into a
 * trace class, or NULL with a GST_CTF_ERROR_METADATA_SYNTAX (JSON) or
 * GST_CTF_ERROR_METADATA_INVALID (CTF 2) error. */
G_GNUC_INTERNAL
GstCtfTraceClass *_gst_ctf_json_parse (const gchar * text, gsize len,
    const gchar * origin, GError ** error);

G_END_DECLS
