/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: TSDL parser internals shared by gstctf-tsdl-parser.c (blocks,
 * top level), gstctf-tsdl-types.c (type specifiers, declarations) and
 * gstctf-tsdl-parser-core.c (tokens, errors, symbol scopes, values).
 * Not installed; the library builds with hidden visibility, so none of
 * these symbols is exported.
 */
#pragma once

#include "gstctf-tsdl-lexer.h"
#include "gstctf-tsdl-parser.h"

G_BEGIN_DECLS

#define LOOKAHEAD 8

typedef struct _Scope Scope;
struct _Scope {
  GHashTable *types;            /* "a:" alias, "s:", "v:", "e:" + name -> fc */
  Scope *parent;
};

typedef enum {
  VAL_NONE = 0,
  VAL_INT,
  VAL_STR,
  VAL_PATH,
} ValKind;

typedef struct {
  ValKind kind;
  gboolean neg;
  guint64 u;
  gchar *s;
} Value;

/* State of one gst_ctf_tsdl_parse() call. */
typedef struct {
  TsdlLexer lex;
  TsdlToken la[LOOKAHEAD];
  guint la_head;
  guint la_n;
  TsdlToken eof_tok;
  gboolean lex_failed;
  GError *error;
  const gchar *origin;
  Scope *scope;
  guint nesting;
  guint64 total_nodes;
  GstCtfTraceClass *tc;
  GPtrArray *streams;           /* StreamDecl* (gstctf-tsdl-parser.c) */
  GPtrArray *events;            /* EventDecl* (gstctf-tsdl-parser.c) */
  GHashTable *env_by_name;      /* env key -> GstCtfEnvEntry in tc->env */
  GHashTable *clock_names;      /* names of tc->clock_classes */
  gboolean trace_seen;
  /* integer attribute blocks already parsed: their exact text (from after
   * the `integer` keyword to the closing brace) -> the field class */
  GHashTable *integer_memo;
} Parser;

/* tokens and errors (gstctf-tsdl-parser-core.c) */

const TsdlToken *_gst_ctf_tsdl_peek (Parser * p, guint k);
void _gst_ctf_tsdl_advance (Parser * p);
gchar *_gst_ctf_tsdl_take_str (Parser * p);
gboolean _gst_ctf_tsdl_is_type (Parser * p, guint k, TsdlTokenType type);
gboolean _gst_ctf_tsdl_is_ident (Parser * p, guint k, const gchar * name);
/* These record the first error in p->error and return FALSE. */
gboolean _gst_ctf_tsdl_syntax_error (Parser * p, const gchar * fmt, ...)
    G_GNUC_PRINTF (2, 3);
gboolean _gst_ctf_tsdl_invalid_error (Parser * p, guint line,
    const gchar * fmt, ...) G_GNUC_PRINTF (3, 4);
gboolean _gst_ctf_tsdl_expect (Parser * p, TsdlTokenType type);

/* symbol scopes and limits (gstctf-tsdl-parser-core.c): register_type
 * takes @fc; instantiate returns a deep copy counted against
 * GST_CTF_TSDL_MAX_NODES; enter/leave count GST_CTF_TSDL_MAX_NESTING. */

void _gst_ctf_tsdl_push_scope (Parser * p);
void _gst_ctf_tsdl_pop_scope (Parser * p);
const GstCtfFieldClass *_gst_ctf_tsdl_lookup_type (Parser * p, gchar kind,
    const gchar * name);
gboolean _gst_ctf_tsdl_register_type (Parser * p, gchar kind,
    const gchar * name, GstCtfFieldClass * fc, guint line);
GstCtfFieldClass *_gst_ctf_tsdl_instantiate (Parser * p,
    const GstCtfFieldClass * tmpl, guint line);
gboolean _gst_ctf_tsdl_enter (Parser * p);
void _gst_ctf_tsdl_leave (Parser * p);

/* values (gstctf-tsdl-parser-core.c) */

void _gst_ctf_tsdl_value_clear (Value * v);
gchar *_gst_ctf_tsdl_parse_path (Parser * p);
gboolean _gst_ctf_tsdl_parse_unary (Parser * p, Value * v);
gboolean _gst_ctf_tsdl_value_to_uint (Parser * p, const Value * v,
    guint line, const gchar * what, guint64 * out);
gboolean _gst_ctf_tsdl_value_to_int (Parser * p, const Value * v,
    guint line, const gchar * what, gint64 * out);
gboolean _gst_ctf_tsdl_value_to_bool (Parser * p, const Value * v,
    guint line, const gchar * what, gboolean * out);
gboolean _gst_ctf_tsdl_value_to_byte_order (Parser * p, const Value * v,
    guint line, GstCtfByteOrder * out);
gboolean _gst_ctf_tsdl_value_to_encoding (Parser * p, const Value * v,
    guint line, GstCtfEncoding * out);

/* types and declarations (gstctf-tsdl-types.c); parse_declarator takes
 * @base.  A NULL @container makes parse_declaration accept only type
 * declarations (block and top level). */

GstCtfFieldClass *_gst_ctf_tsdl_parse_type_specifier (Parser * p);
GstCtfFieldClass *_gst_ctf_tsdl_parse_declarator (Parser * p,
    GstCtfFieldClass * base, gboolean want_name, gchar ** name_out);
gboolean _gst_ctf_tsdl_parse_typealias (Parser * p);
gboolean _gst_ctf_tsdl_parse_typedef (Parser * p);
gboolean _gst_ctf_tsdl_parse_declaration (Parser * p,
    GstCtfFieldClass * container, GHashTable * names);

G_END_DECLS
