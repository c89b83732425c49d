/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: TSDL parser machinery shared by the block and type parsers:
 * token lookahead, error reporting, symbol scopes with the alias node
 * budget (CTF 1.8 §7.3.1), nesting limit, and values (unary expressions,
 * CTF 1.8 §4.1.5 attribute values).  See gstctf-tsdl-parser.c for the
 * grammar and the limits.
 */
#include "gstctf-metadata.h"
#include "gstctf-tsdl-parser-private.h"

#include <stdarg.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* tokens */

const TsdlToken *
_gst_ctf_tsdl_peek (Parser * p, guint k)
{
  g_assert (k < LOOKAHEAD);
  while (p->la_n <= k) {
    TsdlToken *slot;
    GError *err = NULL;

    if (p->lex_failed)
      return &p->eof_tok;
    slot = &p->la[(p->la_head + p->la_n) % LOOKAHEAD];
    if (!tsdl_lexer_next (&p->lex, slot, &err)) {
      p->lex_failed = TRUE;
      p->eof_tok.type = TSDL_TOK_EOF;
      p->eof_tok.line = p->lex.line;
      p->eof_tok.column = (guint) (p->lex.pos - p->lex.line_start) + 1;
      if (p->error == NULL)
        p->error = err;
      else
        g_error_free (err);
      return &p->eof_tok;
    }
    p->la_n++;
  }
  return &p->la[(p->la_head + k) % LOOKAHEAD];
}

void
_gst_ctf_tsdl_advance (Parser * p)
{
  if (p->la_n == 0)
    return;
  tsdl_token_clear (&p->la[p->la_head]);
  p->la_head = (p->la_head + 1) % LOOKAHEAD;
  p->la_n--;
}

/* Steals the string of the current token and advances. */
gchar *
_gst_ctf_tsdl_take_str (Parser * p)
{
  gchar *s;

  _gst_ctf_tsdl_peek (p, 0);
  if (p->la_n == 0)
    return NULL;
  s = p->la[p->la_head].str;
  p->la[p->la_head].str = NULL;
  _gst_ctf_tsdl_advance (p);
  return s;
}

gboolean
_gst_ctf_tsdl_is_type (Parser * p, guint k, TsdlTokenType type)
{
  return _gst_ctf_tsdl_peek (p, k)->type == type;
}

gboolean
_gst_ctf_tsdl_is_ident (Parser * p, guint k, const gchar * name)
{
  const TsdlToken *t = _gst_ctf_tsdl_peek (p, k);

  return t->type == TSDL_TOK_IDENT && strcmp (t->str, name) == 0;
}

static gchar *
describe_token (const TsdlToken * t)
{
  switch (t->type) {
    case TSDL_TOK_IDENT:
      return g_strdup_printf ("identifier `%s`", t->str);
    case TSDL_TOK_INTEGER:
      return g_strdup_printf ("integer %" G_GUINT64_FORMAT, t->u64);
    case TSDL_TOK_STRING:
      return g_strdup ("string literal");
    default:
      return g_strdup (tsdl_token_type_name (t->type));
  }
}

static gboolean
set_error (Parser * p, gint code, guint line, guint col, const gchar * fmt,
    va_list ap)
{
  gchar *msg;

  if (p->error != NULL)
    return FALSE;
  msg = g_strdup_vprintf (fmt, ap);
  if (col > 0)
    g_set_error (&p->error, GST_CTF_ERROR, code,
        "Invalid metadata: file=\"%s\", line %u, column %u: %s",
        p->origin ? p->origin : "(memory)", line, col, msg);
  else
    g_set_error (&p->error, GST_CTF_ERROR, code,
        "Invalid metadata: file=\"%s\", line %u: %s",
        p->origin ? p->origin : "(memory)", line, msg);
  g_free (msg);
  return FALSE;
}

gboolean
_gst_ctf_tsdl_syntax_error (Parser * p, const gchar * fmt, ...)
{
  const TsdlToken *t = _gst_ctf_tsdl_peek (p, 0);
  gchar *got, *full;
  va_list ap;

  if (p->error != NULL)
    return FALSE;
  got = describe_token (t);
  full = g_strdup_printf ("%s, got %s", fmt, got);
  va_start (ap, fmt);
  set_error (p, GST_CTF_ERROR_METADATA_SYNTAX, t->line, t->column, full, ap);
  va_end (ap);
  g_free (full);
  g_free (got);
  return FALSE;
}

gboolean
_gst_ctf_tsdl_invalid_error (Parser * p, guint line, const gchar * fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  set_error (p, GST_CTF_ERROR_METADATA_INVALID, line, 0, fmt, ap);
  va_end (ap);
  return FALSE;
}

gboolean
_gst_ctf_tsdl_expect (Parser * p, TsdlTokenType type)
{
  if (!_gst_ctf_tsdl_is_type (p, 0, type))
    return _gst_ctf_tsdl_syntax_error (p, "expected %s",
        tsdl_token_type_name (type));
  _gst_ctf_tsdl_advance (p);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* scopes */

void
_gst_ctf_tsdl_push_scope (Parser * p)
{
  Scope *s = g_new0 (Scope, 1);

  s->types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) gst_ctf_field_class_free);
  s->parent = p->scope;
  p->scope = s;
}

void
_gst_ctf_tsdl_pop_scope (Parser * p)
{
  Scope *s = p->scope;

  p->scope = s->parent;
  g_hash_table_unref (s->types);
  g_free (s);
}

const GstCtfFieldClass *
_gst_ctf_tsdl_lookup_type (Parser * p, gchar kind, const gchar * name)
{
  gchar *key = g_strdup_printf ("%c:%s", kind, name);
  const GstCtfFieldClass *fc = NULL;
  Scope *s;

  for (s = p->scope; s != NULL && fc == NULL; s = s->parent)
    fc = g_hash_table_lookup (s->types, key);
  g_free (key);
  return fc;
}

/* Walks @fc counting nodes and depth; FALSE when over the limits. */
static gboolean
measure (const GstCtfFieldClass * fc, guint depth, guint64 * nodes,
    guint * max_depth, guint64 node_limit)
{
  guint i;

  if (fc == NULL)
    return TRUE;
  (*nodes)++;
  if (depth > *max_depth)
    *max_depth = depth;
  if (*nodes > node_limit || depth > GST_CTF_TSDL_MAX_TYPE_DEPTH)
    return FALSE;
  for (i = 0; i < fc->n_members; i++)
    if (!measure (fc->members[i].fc, depth + 1, nodes, max_depth, node_limit))
      return FALSE;
  return measure (fc->element, depth + 1, nodes, max_depth, node_limit);
}

/* Registers @fc (taken) in the current scope under @kind:@name. */
gboolean
_gst_ctf_tsdl_register_type (Parser * p, gchar kind, const gchar * name,
    GstCtfFieldClass * fc, guint line)
{
  guint64 nodes = 0;
  guint depth = 0;

  if (!measure (fc, 1, &nodes, &depth, GST_CTF_TSDL_MAX_NODES)) {
    gst_ctf_field_class_free (fc);
    return _gst_ctf_tsdl_invalid_error (p, line,
        "type `%s` is too deep or too large", name);
  }
  /* babeltrace2 refuses a redefinition in the same scope; LTTng never
   * emits one, so keep the last definition and stay lenient. */
  g_hash_table_replace (p->scope->types, g_strdup_printf ("%c:%s", kind,
          name), fc);
  return TRUE;
}

/* Deep copy of a registered type, counted against the node budget. */
GstCtfFieldClass *
_gst_ctf_tsdl_instantiate (Parser * p, const GstCtfFieldClass * tmpl,
    guint line)
{
  guint64 nodes = 0;
  guint depth = 0;

  if (!measure (tmpl, 1, &nodes, &depth,
          GST_CTF_TSDL_MAX_NODES - p->total_nodes)) {
    _gst_ctf_tsdl_invalid_error (p, line,
        "metadata declares too many fields (more than %u)",
        GST_CTF_TSDL_MAX_NODES);
    return NULL;
  }
  p->total_nodes += nodes;
  return gst_ctf_field_class_copy (tmpl);
}

gboolean
_gst_ctf_tsdl_enter (Parser * p)
{
  if (p->nesting >= GST_CTF_TSDL_MAX_NESTING)
    return _gst_ctf_tsdl_syntax_error (p, "nesting deeper than %u levels",
        GST_CTF_TSDL_MAX_NESTING);
  p->nesting++;
  return TRUE;
}

void
_gst_ctf_tsdl_leave (Parser * p)
{
  p->nesting--;
}

/* ---------------------------------------------------------------------- */
/* values */

void
_gst_ctf_tsdl_value_clear (Value * v)
{
  g_free (v->s);
  memset (v, 0, sizeof (*v));
}

/* path := ident { ("." | "->") ident } -> "a.b.c" */
gchar *
_gst_ctf_tsdl_parse_path (Parser * p)
{
  GString *s;

  if (!_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_IDENT)) {
    _gst_ctf_tsdl_syntax_error (p, "expected identifier");
    return NULL;
  }
  s = g_string_new (_gst_ctf_tsdl_peek (p, 0)->str);
  _gst_ctf_tsdl_advance (p);
  while ((_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_DOT)
          || _gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_ARROW))
      && _gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_IDENT)) {
    g_string_append_c (s, '.');
    g_string_append (s, _gst_ctf_tsdl_peek (p, 1)->str);
    _gst_ctf_tsdl_advance (p);
    _gst_ctf_tsdl_advance (p);
    if (s->len > TSDL_MAX_TOKEN_LEN) {
      g_string_free (s, TRUE);
      _gst_ctf_tsdl_syntax_error (p, "path too long");
      return NULL;
    }
  }
  return g_string_free (s, FALSE);
}

gboolean
_gst_ctf_tsdl_parse_unary (Parser * p, Value * v)
{
  const TsdlToken *t = _gst_ctf_tsdl_peek (p, 0);

  memset (v, 0, sizeof (*v));
  if (t->type == TSDL_TOK_MINUS || t->type == TSDL_TOK_PLUS) {
    v->neg = t->type == TSDL_TOK_MINUS;
    _gst_ctf_tsdl_advance (p);
    t = _gst_ctf_tsdl_peek (p, 0);
    if (t->type != TSDL_TOK_INTEGER)
      return _gst_ctf_tsdl_syntax_error (p, "expected integer after sign");
  }
  switch (t->type) {
    case TSDL_TOK_INTEGER:
      v->kind = VAL_INT;
      v->u = t->u64;
      if (v->neg && v->u == 0)
        v->neg = FALSE;
      _gst_ctf_tsdl_advance (p);
      return TRUE;
    case TSDL_TOK_STRING:
    case TSDL_TOK_CHAR:
      v->kind = VAL_STR;
      v->s = _gst_ctf_tsdl_take_str (p);
      return TRUE;
    case TSDL_TOK_IDENT:
      v->kind = VAL_PATH;
      v->s = _gst_ctf_tsdl_parse_path (p);
      return v->s != NULL;
    default:
      return _gst_ctf_tsdl_syntax_error (p, "expected a value");
  }
}

gboolean
_gst_ctf_tsdl_value_to_uint (Parser * p, const Value * v, guint line,
    const gchar * what, guint64 * out)
{
  if (v->kind != VAL_INT || v->neg)
    return _gst_ctf_tsdl_invalid_error (p, line,
        "`%s` expects an unsigned integer", what);
  *out = v->u;
  return TRUE;
}

gboolean
_gst_ctf_tsdl_value_to_int (Parser * p, const Value * v, guint line,
    const gchar * what, gint64 * out)
{
  if (v->kind != VAL_INT)
    return _gst_ctf_tsdl_invalid_error (p, line, "`%s` expects an integer",
        what);
  if (v->neg) {
    if (v->u > (guint64) G_MAXINT64 + 1)
      return _gst_ctf_tsdl_invalid_error (p, line, "`%s`: value out of range",
          what);
    *out = (gint64) (0 - v->u);
  } else {
    if (v->u > (guint64) G_MAXINT64)
      return _gst_ctf_tsdl_invalid_error (p, line, "`%s`: value out of range",
          what);
    *out = (gint64) v->u;
  }
  return TRUE;
}

gboolean
_gst_ctf_tsdl_value_to_bool (Parser * p, const Value * v, guint line,
    const gchar * what, gboolean * out)
{
  if (v->kind == VAL_INT && !v->neg) {
    *out = v->u != 0;
    return TRUE;
  }
  if (v->kind == VAL_PATH || v->kind == VAL_STR) {
    if (strcmp (v->s, "true") == 0 || strcmp (v->s, "TRUE") == 0) {
      *out = TRUE;
      return TRUE;
    }
    if (strcmp (v->s, "false") == 0 || strcmp (v->s, "FALSE") == 0) {
      *out = FALSE;
      return TRUE;
    }
  }
  return _gst_ctf_tsdl_invalid_error (p, line, "`%s` expects a boolean", what);
}

gboolean
_gst_ctf_tsdl_value_to_byte_order (Parser * p, const Value * v, guint line,
    GstCtfByteOrder * out)
{
  if (v->kind == VAL_PATH || v->kind == VAL_STR) {
    if (strcmp (v->s, "native") == 0) {
      *out = GST_CTF_TSDL_BYTE_ORDER_NATIVE;
      return TRUE;
    }
    if (strcmp (v->s, "be") == 0 || strcmp (v->s, "network") == 0
        || strcmp (v->s, "big") == 0) {
      *out = GST_CTF_BYTE_ORDER_BE;
      return TRUE;
    }
    if (strcmp (v->s, "le") == 0 || strcmp (v->s, "little") == 0) {
      *out = GST_CTF_BYTE_ORDER_LE;
      return TRUE;
    }
  }
  return _gst_ctf_tsdl_invalid_error (p, line,
      "invalid `byte_order`: expecting `native`, `network`, `be` or `le`");
}

gboolean
_gst_ctf_tsdl_value_to_encoding (Parser * p, const Value * v, guint line,
    GstCtfEncoding * out)
{
  if (v->kind == VAL_PATH || v->kind == VAL_STR) {
    if (g_ascii_strcasecmp (v->s, "none") == 0) {
      *out = GST_CTF_ENCODING_NONE;
      return TRUE;
    }
    if (g_ascii_strcasecmp (v->s, "UTF8") == 0) {
      *out = GST_CTF_ENCODING_UTF8;
      return TRUE;
    }
    if (g_ascii_strcasecmp (v->s, "ASCII") == 0) {
      *out = GST_CTF_ENCODING_ASCII;
      return TRUE;
    }
  }
  return _gst_ctf_tsdl_invalid_error (p, line,
      "invalid `encoding`: expecting `none`, `UTF8` or `ASCII`");
}
