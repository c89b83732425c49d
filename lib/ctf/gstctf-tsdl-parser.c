/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: CTF 1.8 TSDL parser (hand-written recursive descent).
 *
 * Grammar covered (CTF 1.8 §4, §5, §6, §7.3, §8 and Appendix C, as
 * babeltrace2 accepts it):
 *
 *   metadata     := { typealias | typedef | type-decl ";" | block }
 *   block        := ("trace" | "env" | "clock" | "stream" | "event" |
 *                    "callsite") "{" { entry } "}" [";"]
 *   entry        := path "=" unary ";" | path ":=" type-spec [dims] ";"
 *                 | typealias | typedef | type-decl ";"
 *   typealias    := "typealias" type-spec [dims] ":=" alias-name ";"
 *                   (alias-name: one or more words, then `*`s:
 *                    `unsigned long`, `void *`)
 *   typedef      := "typedef" type-spec declarator {"," declarator} ";"
 *   type-decl    := type-spec [declarator {"," declarator}]
 *   type-spec    := "integer" attrs | "floating_point" attrs
 *                 | "string" [attrs]
 *                 | "struct" [name] ["{" body "}"] ["align" "(" N ")"]
 *                 | "variant" [name] ["<" path ">"] ["{" body "}"]
 *                 | "enum" [name] [":" type-spec] ["{" enumerators "}"]
 *                 | type-name    (longest declared alias prefix)
 *   declarator   := name { "[" (integer | path) "]" }
 *   enumerator   := (ident | "string") ["=" int ["..." int]]
 *   unary        := ["-"|"+"] integer | "string" | 'c' | path
 *   path         := ident { ("." | "->") ident }
 *
 * Scoping: aliases and named struct/variant/enum declared in a block or a
 * struct/variant body are visible there and in nested scopes (CTF 1.8
 * §7.3.1).  Every use of an alias or a named type is a deep copy
 * (gst_ctf_field_class_copy), so every field of the final tree is its own
 * node.  Semantic passes (byte orders, mappings, references, meanings)
 * run afterwards in gstctf-resolve.c.
 *
 * Limits: GST_CTF_TSDL_MAX_NESTING (128) nested type specifiers, bodies
 * and blocks (a struct inside a struct costs two),
 * GST_CTF_TSDL_MAX_DIMENSIONS (16) `[..]` per declarator, a named type's
 * tree at most GST_CTF_TSDL_MAX_TYPE_DEPTH (512) deep, at most
 * GST_CTF_TSDL_MAX_NODES (1 Mi) field class nodes created by alias copies,
 * literals/identifiers at most 1 MiB.  The input size itself is limited by
 * gst_ctf_metadata_from_bytes().
 *
 * Errors: GST_CTF_ERROR_METADATA_SYNTAX for text that does not follow the
 * grammar (including unknown type names, as babeltrace's lexer then sees an
 * identifier where a type is expected) with "line L, column C";
 * GST_CTF_ERROR_METADATA_INVALID for well-formed but meaningless metadata.
 */
#include "gstctf-metadata.h"
#include "gstctf-tsdl-lexer.h"
#include "gstctf-tsdl-parser.h"

#include <stdarg.h>
#include <string.h>

#define LOOKAHEAD 8

typedef struct _Scope Scope;
struct _Scope {
  GHashTable *types;            /* "a:" alias, "s:", "v:", "e:" + name -> fc */
  Scope *parent;
};

typedef struct {
  GstCtfStreamClass *sc;
  gboolean has_id;
  guint line;
} StreamDecl;

typedef struct {
  GstCtfEventClass *ec;
  gboolean has_id;
  gboolean has_stream_id;
  gboolean has_name;
  guint line;
} EventDecl;

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
  GPtrArray *streams;           /* StreamDecl* */
  GPtrArray *events;            /* EventDecl* */
  gboolean trace_seen;
} Parser;

/* ---------------------------------------------------------------------- */
/* tokens */

static const TsdlToken *
peek (Parser * p, guint k)
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

static void
advance (Parser * p)
{
  if (p->la_n == 0)
    return;
  tsdl_token_clear (&p->la[p->la_head]);
  p->la_head = (p->la_head + 1) % LOOKAHEAD;
  p->la_n--;
}

/* Steals the string of the current token and advances. */
static gchar *
take_str (Parser * p)
{
  gchar *s;

  peek (p, 0);
  if (p->la_n == 0)
    return NULL;
  s = p->la[p->la_head].str;
  p->la[p->la_head].str = NULL;
  advance (p);
  return s;
}

static gboolean
is_type (Parser * p, guint k, TsdlTokenType type)
{
  return peek (p, k)->type == type;
}

static gboolean
is_ident (Parser * p, guint k, const gchar * name)
{
  const TsdlToken *t = peek (p, k);

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

G_GNUC_PRINTF (2, 3)
     static gboolean syntax_error (Parser * p, const gchar * fmt, ...)
{
  const TsdlToken *t = peek (p, 0);
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

G_GNUC_PRINTF (3, 4)
     static gboolean invalid_error (Parser * p, guint line,
    const gchar * fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  set_error (p, GST_CTF_ERROR_METADATA_INVALID, line, 0, fmt, ap);
  va_end (ap);
  return FALSE;
}

static gboolean
expect (Parser * p, TsdlTokenType type)
{
  if (!is_type (p, 0, type))
    return syntax_error (p, "expected %s", tsdl_token_type_name (type));
  advance (p);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* scopes */

static void
push_scope (Parser * p)
{
  Scope *s = g_new0 (Scope, 1);

  s->types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) gst_ctf_field_class_free);
  s->parent = p->scope;
  p->scope = s;
}

static void
pop_scope (Parser * p)
{
  Scope *s = p->scope;

  p->scope = s->parent;
  g_hash_table_unref (s->types);
  g_free (s);
}

static const GstCtfFieldClass *
lookup_type (Parser * p, gchar kind, const gchar * name)
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
static gboolean
register_type (Parser * p, gchar kind, const gchar * name,
    GstCtfFieldClass * fc, guint line)
{
  guint64 nodes = 0;
  guint depth = 0;

  if (!measure (fc, 1, &nodes, &depth, GST_CTF_TSDL_MAX_NODES)) {
    gst_ctf_field_class_free (fc);
    return invalid_error (p, line, "type `%s` is too deep or too large",
        name);
  }
  /* babeltrace2 refuses a redefinition in the same scope; LTTng never
   * emits one, so keep the last definition and stay lenient. */
  g_hash_table_replace (p->scope->types, g_strdup_printf ("%c:%s", kind,
          name), fc);
  return TRUE;
}

/* Deep copy of a registered type, counted against the node budget. */
static GstCtfFieldClass *
instantiate (Parser * p, const GstCtfFieldClass * tmpl, guint line)
{
  guint64 nodes = 0;
  guint depth = 0;

  if (!measure (tmpl, 1, &nodes, &depth,
          GST_CTF_TSDL_MAX_NODES - p->total_nodes)) {
    invalid_error (p, line, "metadata declares too many fields (more than %u)",
        GST_CTF_TSDL_MAX_NODES);
    return NULL;
  }
  p->total_nodes += nodes;
  return gst_ctf_field_class_copy (tmpl);
}

/* ---------------------------------------------------------------------- */
/* values */

static void
value_clear (Value * v)
{
  g_free (v->s);
  memset (v, 0, sizeof (*v));
}

/* path := ident { ("." | "->") ident } -> "a.b.c" */
static gchar *
parse_path (Parser * p)
{
  GString *s;

  if (!is_type (p, 0, TSDL_TOK_IDENT)) {
    syntax_error (p, "expected identifier");
    return NULL;
  }
  s = g_string_new (peek (p, 0)->str);
  advance (p);
  while ((is_type (p, 0, TSDL_TOK_DOT) || is_type (p, 0, TSDL_TOK_ARROW))
      && is_type (p, 1, TSDL_TOK_IDENT)) {
    g_string_append_c (s, '.');
    g_string_append (s, peek (p, 1)->str);
    advance (p);
    advance (p);
    if (s->len > TSDL_MAX_TOKEN_LEN) {
      g_string_free (s, TRUE);
      syntax_error (p, "path too long");
      return NULL;
    }
  }
  return g_string_free (s, FALSE);
}

static gboolean
parse_unary (Parser * p, Value * v)
{
  const TsdlToken *t = peek (p, 0);

  memset (v, 0, sizeof (*v));
  if (t->type == TSDL_TOK_MINUS || t->type == TSDL_TOK_PLUS) {
    v->neg = t->type == TSDL_TOK_MINUS;
    advance (p);
    t = peek (p, 0);
    if (t->type != TSDL_TOK_INTEGER)
      return syntax_error (p, "expected integer after sign");
  }
  switch (t->type) {
    case TSDL_TOK_INTEGER:
      v->kind = VAL_INT;
      v->u = t->u64;
      if (v->neg && v->u == 0)
        v->neg = FALSE;
      advance (p);
      return TRUE;
    case TSDL_TOK_STRING:
    case TSDL_TOK_CHAR:
      v->kind = VAL_STR;
      v->s = take_str (p);
      return TRUE;
    case TSDL_TOK_IDENT:
      v->kind = VAL_PATH;
      v->s = parse_path (p);
      return v->s != NULL;
    default:
      return syntax_error (p, "expected a value");
  }
}

static gboolean
value_to_uint (Parser * p, const Value * v, guint line, const gchar * what,
    guint64 * out)
{
  if (v->kind != VAL_INT || v->neg)
    return invalid_error (p, line, "`%s` expects an unsigned integer", what);
  *out = v->u;
  return TRUE;
}

static gboolean
value_to_int (Parser * p, const Value * v, guint line, const gchar * what,
    gint64 * out)
{
  if (v->kind != VAL_INT)
    return invalid_error (p, line, "`%s` expects an integer", what);
  if (v->neg) {
    if (v->u > (guint64) G_MAXINT64 + 1)
      return invalid_error (p, line, "`%s`: value out of range", what);
    *out = (gint64) (0 - v->u);
  } else {
    if (v->u > (guint64) G_MAXINT64)
      return invalid_error (p, line, "`%s`: value out of range", what);
    *out = (gint64) v->u;
  }
  return TRUE;
}

static gboolean
value_to_bool (Parser * p, const Value * v, guint line, const gchar * what,
    gboolean * out)
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
  return invalid_error (p, line, "`%s` expects a boolean", what);
}

static gboolean
value_to_byte_order (Parser * p, const Value * v, guint line,
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
  return invalid_error (p, line, "invalid `byte_order`: expecting `native`, "
      "`network`, `be` or `le`");
}

static gboolean
value_to_encoding (Parser * p, const Value * v, guint line,
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
  return invalid_error (p, line, "invalid `encoding`: expecting `none`, "
      "`UTF8` or `ASCII`");
}

static gboolean
parse_uuid (const gchar * s, guint8 out[16])
{
  guint i = 0;

  if (s == NULL || strlen (s) != 36)
    return FALSE;
  for (; *s != '\0'; s++) {
    gint hi, lo;

    if (*s == '-') {
      if (i != 4 && i != 6 && i != 8 && i != 10)
        return FALSE;
      continue;
    }
    hi = g_ascii_xdigit_value (s[0]);
    lo = g_ascii_xdigit_value (s[1]);
    if (hi < 0 || lo < 0 || i >= 16)
      return FALSE;
    out[i++] = (guint8) ((hi << 4) | lo);
    s++;
  }
  return i == 16;
}

/* ---------------------------------------------------------------------- */
/* attribute lists: "{" { path "=" unary ";" } "}" */

typedef struct {
  gchar *key;
  Value v;
  guint line;
} Attr;

static void
attrs_free (GArray * attrs)
{
  guint i;

  for (i = 0; i < attrs->len; i++) {
    Attr *a = &g_array_index (attrs, Attr, i);
    g_free (a->key);
    value_clear (&a->v);
  }
  g_array_free (attrs, TRUE);
}

static GArray *
parse_attrs (Parser * p)
{
  GArray *attrs = g_array_new (FALSE, TRUE, sizeof (Attr));

  if (!expect (p, TSDL_TOK_LBRACE))
    goto fail;
  while (!is_type (p, 0, TSDL_TOK_RBRACE)) {
    Attr a = { 0, };

    if (p->error != NULL)
      goto fail;
    a.line = peek (p, 0)->line;
    a.key = parse_path (p);
    if (a.key == NULL)
      goto fail;
    if (!expect (p, TSDL_TOK_ASSIGN) || !parse_unary (p, &a.v)) {
      g_free (a.key);
      value_clear (&a.v);
      goto fail;
    }
    g_array_append_val (attrs, a);
    if (!expect (p, TSDL_TOK_SEMICOLON))
      goto fail;
  }
  advance (p);
  return attrs;

fail:
  attrs_free (attrs);
  return NULL;
}

static gboolean
is_pow2 (guint64 v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

/* ---------------------------------------------------------------------- */
/* type specifiers */

static GstCtfFieldClass *parse_type_specifier (Parser * p);
static gboolean parse_body_entry (Parser * p, GstCtfFieldClass * container,
    GHashTable * names);
static gboolean parse_typealias (Parser * p);
static gboolean parse_typedef (Parser * p);

/* CTF 1.8 §4.1.5 */
static GstCtfFieldClass *
parse_integer (Parser * p)
{
  guint line = peek (p, 0)->line;
  GstCtfFieldClass *fc;
  GArray *attrs;
  gboolean has_size = FALSE, has_align = FALSE;
  guint64 align = 0;
  guint i;

  advance (p);
  attrs = parse_attrs (p);
  if (attrs == NULL)
    return NULL;
  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_INTEGER);
  fc->integer.byte_order = GST_CTF_TSDL_BYTE_ORDER_NATIVE;
  for (i = 0; i < attrs->len; i++) {
    Attr *a = &g_array_index (attrs, Attr, i);
    guint64 u = 0;

    if (strcmp (a->key, "size") == 0) {
      if (!value_to_uint (p, &a->v, a->line, "size", &u))
        goto fail;
      if (u < 1 || u > 64) {
        invalid_error (p, a->line, "integer `size` %" G_GUINT64_FORMAT
            " not supported: expecting 1 to 64 bits", u);
        goto fail;
      }
      fc->integer.size = (guint) u;
      has_size = TRUE;
    } else if (strcmp (a->key, "align") == 0) {
      if (!value_to_uint (p, &a->v, a->line, "align", &align))
        goto fail;
      if (!is_pow2 (align) || align > G_MAXUINT32) {
        invalid_error (p, a->line, "integer `align` must be a power of two");
        goto fail;
      }
      has_align = TRUE;
    } else if (strcmp (a->key, "signed") == 0) {
      if (!value_to_bool (p, &a->v, a->line, "signed",
              &fc->integer.is_signed))
        goto fail;
    } else if (strcmp (a->key, "byte_order") == 0) {
      if (!value_to_byte_order (p, &a->v, a->line, &fc->integer.byte_order))
        goto fail;
    } else if (strcmp (a->key, "base") == 0) {
      guint base = 0;

      if (a->v.kind == VAL_INT && !a->v.neg) {
        if (a->v.u == 2 || a->v.u == 8 || a->v.u == 10 || a->v.u == 16)
          base = (guint) a->v.u;
      } else if (a->v.kind == VAL_PATH || a->v.kind == VAL_STR) {
        const gchar *s = a->v.s;

        if (!strcmp (s, "decimal") || !strcmp (s, "dec") || !strcmp (s, "d")
            || !strcmp (s, "i") || !strcmp (s, "u"))
          base = 10;
        else if (!strcmp (s, "hexadecimal") || !strcmp (s, "hex")
            || !strcmp (s, "x") || !strcmp (s, "X") || !strcmp (s, "p")
            || !strcmp (s, "pointer"))
          base = 16;
        else if (!strcmp (s, "octal") || !strcmp (s, "oct")
            || !strcmp (s, "o"))
          base = 8;
        else if (!strcmp (s, "binary") || !strcmp (s, "b"))
          base = 2;
      }
      if (base == 0) {
        invalid_error (p, a->line, "invalid integer `base`");
        goto fail;
      }
      fc->integer.base = base;
    } else if (strcmp (a->key, "encoding") == 0) {
      if (!value_to_encoding (p, &a->v, a->line, &fc->integer.encoding))
        goto fail;
    } else if (strcmp (a->key, "map") == 0) {
      /* map = clock.NAME.value (CTF 1.8 §8) */
      gchar **parts;

      if (a->v.kind != VAL_PATH) {
        invalid_error (p, a->line, "invalid `map`: expecting clock.NAME.value");
        goto fail;
      }
      parts = g_strsplit (a->v.s, ".", -1);
      if (g_strv_length (parts) != 3 || strcmp (parts[0], "clock") != 0
          || strcmp (parts[2], "value") != 0) {
        g_strfreev (parts);
        invalid_error (p, a->line, "invalid `map`: expecting clock.NAME.value");
        goto fail;
      }
      g_free (fc->integer.map_clock_name);
      fc->integer.map_clock_name = g_strdup (parts[1]);
      g_strfreev (parts);
    }
    /* babeltrace2 warns about unknown attributes and goes on */
  }
  if (!has_size) {
    invalid_error (p, line, "missing `size` attribute in integer");
    goto fail;
  }
  if (has_align)
    fc->alignment = (guint) align;
  else
    fc->alignment = fc->integer.size % 8 ? 1 : 8;
  attrs_free (attrs);
  return fc;

fail:
  attrs_free (attrs);
  gst_ctf_field_class_free (fc);
  return NULL;
}

/* CTF 1.8 §4.1.7; babeltrace2 only supports binary32 and binary64 */
static GstCtfFieldClass *
parse_float (Parser * p)
{
  guint line = peek (p, 0)->line;
  GstCtfFieldClass *fc;
  GArray *attrs;
  gboolean has_align = FALSE;
  guint64 align = 0, exp_dig = 0, mant_dig = 0;
  guint i;

  advance (p);
  attrs = parse_attrs (p);
  if (attrs == NULL)
    return NULL;
  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_FLOAT);
  fc->floating.byte_order = GST_CTF_TSDL_BYTE_ORDER_NATIVE;
  for (i = 0; i < attrs->len; i++) {
    Attr *a = &g_array_index (attrs, Attr, i);

    if (strcmp (a->key, "exp_dig") == 0) {
      if (!value_to_uint (p, &a->v, a->line, "exp_dig", &exp_dig))
        goto fail;
    } else if (strcmp (a->key, "mant_dig") == 0) {
      if (!value_to_uint (p, &a->v, a->line, "mant_dig", &mant_dig))
        goto fail;
    } else if (strcmp (a->key, "align") == 0) {
      if (!value_to_uint (p, &a->v, a->line, "align", &align))
        goto fail;
      if (!is_pow2 (align) || align > G_MAXUINT32) {
        invalid_error (p, a->line, "floating point `align` must be a power "
            "of two");
        goto fail;
      }
      has_align = TRUE;
    } else if (strcmp (a->key, "byte_order") == 0) {
      if (!value_to_byte_order (p, &a->v, a->line, &fc->floating.byte_order))
        goto fail;
    }
  }
  if (!((exp_dig == 8 && mant_dig == 24) || (exp_dig == 11
              && mant_dig == 53))) {
    invalid_error (p, line, "floating point with exp_dig=%" G_GUINT64_FORMAT
        " mant_dig=%" G_GUINT64_FORMAT " not supported: only 32-bit "
        "(8/24) and 64-bit (11/53)", exp_dig, mant_dig);
    goto fail;
  }
  fc->floating.exp_dig = (guint) exp_dig;
  fc->floating.mant_dig = (guint) mant_dig;
  fc->alignment = has_align ? (guint) align : 8;
  attrs_free (attrs);
  return fc;

fail:
  attrs_free (attrs);
  gst_ctf_field_class_free (fc);
  return NULL;
}

/* CTF 1.8 §4.2.5 */
static GstCtfFieldClass *
parse_string (Parser * p)
{
  GstCtfFieldClass *fc;

  advance (p);
  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING);
  if (is_type (p, 0, TSDL_TOK_LBRACE)) {
    GArray *attrs = parse_attrs (p);
    guint i;

    if (attrs == NULL) {
      gst_ctf_field_class_free (fc);
      return NULL;
    }
    for (i = 0; i < attrs->len; i++) {
      Attr *a = &g_array_index (attrs, Attr, i);

      if (strcmp (a->key, "encoding") == 0 &&
          !value_to_encoding (p, &a->v, a->line, &fc->string.encoding)) {
        attrs_free (attrs);
        gst_ctf_field_class_free (fc);
        return NULL;
      }
    }
    attrs_free (attrs);
  }
  return fc;
}

static gboolean
enter (Parser * p)
{
  if (p->nesting >= GST_CTF_TSDL_MAX_NESTING)
    return syntax_error (p, "nesting deeper than %u levels",
        GST_CTF_TSDL_MAX_NESTING);
  p->nesting++;
  return TRUE;
}

static void
leave (Parser * p)
{
  p->nesting--;
}

/* "{" { body-entry } "}" in a new scope, for struct and variant bodies. */
static gboolean
parse_compound_body (Parser * p, GstCtfFieldClass * fc)
{
  gboolean ok = TRUE;
  /* member names already in @fc, for the duplicate check in O(1) */
  GHashTable *names;

  if (!expect (p, TSDL_TOK_LBRACE))
    return FALSE;
  if (!enter (p))
    return FALSE;
  names = g_hash_table_new (g_str_hash, g_str_equal);
  push_scope (p);
  while (!is_type (p, 0, TSDL_TOK_RBRACE)) {
    if (p->error != NULL || is_type (p, 0, TSDL_TOK_EOF)) {
      ok = syntax_error (p, "expected `}`");
      break;
    }
    if (!parse_body_entry (p, fc, names)) {
      ok = FALSE;
      break;
    }
  }
  g_hash_table_unref (names);
  pop_scope (p);
  leave (p);
  if (ok)
    advance (p);
  return ok;
}

/* CTF 1.8 §4.2.1 */
static GstCtfFieldClass *
parse_struct (Parser * p)
{
  guint line = peek (p, 0)->line;
  gchar *name = NULL;
  GstCtfFieldClass *fc = NULL;

  advance (p);
  if (is_type (p, 0, TSDL_TOK_IDENT) && !is_ident (p, 0, "align"))
    name = take_str (p);
  if (is_type (p, 0, TSDL_TOK_LBRACE)) {
    fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
    if (!parse_compound_body (p, fc))
      goto fail;
  } else if (name != NULL) {
    const GstCtfFieldClass *tmpl = lookup_type (p, 's', name);

    if (tmpl == NULL) {
      invalid_error (p, line, "unknown structure `struct %s`", name);
      goto fail;
    }
    fc = instantiate (p, tmpl, line);
    if (fc == NULL)
      goto fail;
  } else {
    syntax_error (p, "expected structure name or `{`");
    goto fail;
  }
  /* align(N) attribute (CTF 1.8 §4.2.1) */
  if (is_ident (p, 0, "align") && is_type (p, 1, TSDL_TOK_LPAREN)) {
    Value v;

    advance (p);
    advance (p);
    if (!parse_unary (p, &v))
      goto fail;
    if (v.kind != VAL_INT || v.neg || !is_pow2 (v.u) || v.u > G_MAXUINT32) {
      value_clear (&v);
      invalid_error (p, line, "structure `align()` must be a power of two");
      goto fail;
    }
    if (v.u > fc->alignment)
      fc->alignment = (guint) v.u;
    value_clear (&v);
    if (!expect (p, TSDL_TOK_RPAREN))
      goto fail;
  }
  g_free (name);
  return fc;

fail:
  g_free (name);
  gst_ctf_field_class_free (fc);
  return NULL;
}

/* CTF 1.8 §4.2.2 */
static GstCtfFieldClass *
parse_variant (Parser * p, gchar ** name_out, gboolean * has_body)
{
  guint line = peek (p, 0)->line;
  gchar *name = NULL, *tag = NULL;
  GstCtfFieldClass *fc = NULL;

  advance (p);
  if (is_type (p, 0, TSDL_TOK_IDENT))
    name = take_str (p);
  if (is_type (p, 0, TSDL_TOK_LT)) {
    advance (p);
    tag = parse_path (p);
    if (tag == NULL || !expect (p, TSDL_TOK_GT))
      goto fail;
  }
  *has_body = is_type (p, 0, TSDL_TOK_LBRACE);
  if (*has_body) {
    fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_VARIANT);
    if (!parse_compound_body (p, fc))
      goto fail;
  } else if (name != NULL) {
    const GstCtfFieldClass *tmpl = lookup_type (p, 'v', name);

    if (tmpl == NULL) {
      invalid_error (p, line, "unknown variant `variant %s`", name);
      goto fail;
    }
    fc = instantiate (p, tmpl, line);
    if (fc == NULL)
      goto fail;
  } else {
    syntax_error (p, "expected variant name or `{`");
    goto fail;
  }
  if (tag != NULL) {
    g_free (fc->ref_path);
    fc->ref_path = tag;
    tag = NULL;
  }
  *name_out = name;
  return fc;

fail:
  g_free (name);
  g_free (tag);
  gst_ctf_field_class_free (fc);
  return NULL;
}

static gboolean
parse_enum_value (Parser * p, gboolean is_signed, guint line, guint64 * out)
{
  Value v;
  gboolean ok = TRUE;

  if (!parse_unary (p, &v))
    return FALSE;
  if (v.kind != VAL_INT) {
    ok = invalid_error (p, line, "enumerator value must be an integer");
  } else if (is_signed) {
    gint64 s;

    ok = value_to_int (p, &v, line, "enumerator", &s);
    *out = (guint64) s;
  } else if (v.neg) {
    ok = invalid_error (p, line,
        "negative enumerator value in an unsigned enumeration");
  } else {
    *out = v.u;
  }
  value_clear (&v);
  return ok;
}

/* CTF 1.8 §4.1.8 */
static GstCtfFieldClass *
parse_enum (Parser * p, gchar ** name_out)
{
  guint line = peek (p, 0)->line;
  gchar *name = NULL;
  GstCtfFieldClass *container = NULL, *fc = NULL;
  guint64 next = 0;
  gboolean next_overflow = FALSE;
  GArray *maps = NULL;

  advance (p);
  if (is_type (p, 0, TSDL_TOK_IDENT))
    name = take_str (p);
  if (name != NULL && !is_type (p, 0, TSDL_TOK_COLON)
      && !is_type (p, 0, TSDL_TOK_LBRACE)) {
    const GstCtfFieldClass *tmpl = lookup_type (p, 'e', name);

    if (tmpl == NULL) {
      invalid_error (p, line, "unknown enumeration `enum %s`", name);
      goto fail;
    }
    fc = instantiate (p, tmpl, line);
    if (fc == NULL)
      goto fail;
    *name_out = name;
    return fc;
  }
  if (is_type (p, 0, TSDL_TOK_COLON)) {
    advance (p);
    container = parse_type_specifier (p);
    if (container == NULL)
      goto fail;
  } else {
    /* CTF 1.8 §4.1.8: the default container is the `int` type alias */
    const GstCtfFieldClass *tmpl = lookup_type (p, 'a', "int");

    if (tmpl == NULL) {
      invalid_error (p, line, "enumeration without a container type and no "
          "`int` type alias declared");
      goto fail;
    }
    container = instantiate (p, tmpl, line);
    if (container == NULL)
      goto fail;
  }
  if (container->type != GST_CTF_FIELD_CLASS_INTEGER) {
    invalid_error (p, line, "enumeration container type is not an integer");
    goto fail;
  }
  fc = container;
  container = NULL;
  fc->type = GST_CTF_FIELD_CLASS_ENUM;

  if (!expect (p, TSDL_TOK_LBRACE))
    goto fail;
  maps = g_array_new (FALSE, TRUE, sizeof (GstCtfEnumMapping));
  while (!is_type (p, 0, TSDL_TOK_RBRACE)) {
    GstCtfEnumMapping m = { 0, };
    const TsdlToken *t = peek (p, 0);
    guint eline = t->line;

    if (t->type != TSDL_TOK_IDENT && t->type != TSDL_TOK_STRING) {
      syntax_error (p, "expected enumerator label");
      goto fail;
    }
    m.label = take_str (p);
    g_array_append_val (maps, m);
    if (is_type (p, 0, TSDL_TOK_ASSIGN)) {
      advance (p);
      if (!parse_enum_value (p, fc->integer.is_signed, eline, &m.lower))
        goto fail;
      m.upper = m.lower;
      if (is_type (p, 0, TSDL_TOK_ELLIPSIS)) {
        advance (p);
        if (!parse_enum_value (p, fc->integer.is_signed, eline, &m.upper))
          goto fail;
      }
    } else {
      if (next_overflow) {
        invalid_error (p, eline, "enumerator value overflows");
        goto fail;
      }
      m.lower = m.upper = next;
    }
    /* ranges written high to low are accepted, as babeltrace 1 does */
    if (fc->integer.is_signed ? (gint64) m.lower > (gint64) m.upper :
        m.lower > m.upper) {
      guint64 tmp = m.lower;
      m.lower = m.upper;
      m.upper = tmp;
    }
    g_array_index (maps, GstCtfEnumMapping, maps->len - 1).lower = m.lower;
    g_array_index (maps, GstCtfEnumMapping, maps->len - 1).upper = m.upper;
    next = m.upper + 1;
    next_overflow = fc->integer.is_signed ?
        (gint64) m.upper == G_MAXINT64 : m.upper == G_MAXUINT64;
    if (is_type (p, 0, TSDL_TOK_COMMA))
      advance (p);
    else if (!is_type (p, 0, TSDL_TOK_RBRACE)) {
      syntax_error (p, "expected `,` or `}` in enumeration");
      goto fail;
    }
  }
  advance (p);
  fc->enumeration.n_mappings = maps->len;
  fc->enumeration.mappings =
      (GstCtfEnumMapping *) g_array_free (maps, maps->len == 0);
  maps = NULL;
  *name_out = name;
  return fc;

fail:
  if (maps != NULL) {
    guint i;
    for (i = 0; i < maps->len; i++)
      g_free (g_array_index (maps, GstCtfEnumMapping, i).label);
    g_array_free (maps, TRUE);
  }
  g_free (name);
  gst_ctf_field_class_free (container);
  gst_ctf_field_class_free (fc);
  return NULL;
}

#define MAX_TYPE_WORDS 6

/* A type name: the longest run of words (+ `*`s) declared as an alias. */
static GstCtfFieldClass *
parse_named_type (Parser * p)
{
  guint line = peek (p, 0)->line;
  guint n = 0, stars = 0, len;
  GString *key;

  while (n < MAX_TYPE_WORDS && is_type (p, n, TSDL_TOK_IDENT)
      && !is_ident (p, n, "const"))
    n++;
  while (n + stars < LOOKAHEAD - 1 && is_type (p, n + stars, TSDL_TOK_STAR))
    stars++;
  if (n == 0) {
    syntax_error (p, "expected type specifier");
    return NULL;
  }
  for (len = n; len >= 1; len--) {
    const GstCtfFieldClass *tmpl;
    guint i, use_stars = len == n ? stars : 0;

    key = g_string_new (peek (p, 0)->str);
    for (i = 1; i < len; i++) {
      g_string_append_c (key, ' ');
      g_string_append (key, peek (p, i)->str);
    }
    for (i = 0; i < use_stars; i++)
      g_string_append (key, " *");
    tmpl = lookup_type (p, 'a', key->str);
    if (tmpl == NULL && use_stars > 0) {
      g_string_truncate (key, key->len - 2 * use_stars);
      use_stars = 0;
      tmpl = lookup_type (p, 'a', key->str);
    }
    g_string_free (key, TRUE);
    if (tmpl != NULL) {
      for (i = 0; i < len + use_stars; i++)
        advance (p);
      return instantiate (p, tmpl, line);
    }
  }
  syntax_error (p, "unknown type name");
  return NULL;
}

static GstCtfFieldClass *
parse_type_specifier (Parser * p)
{
  const TsdlToken *t;
  GstCtfFieldClass *fc = NULL;
  gchar *name = NULL;
  guint line;

  while (is_ident (p, 0, "const"))
    advance (p);
  t = peek (p, 0);
  line = t->line;
  if (t->type != TSDL_TOK_IDENT) {
    syntax_error (p, "expected type specifier");
    return NULL;
  }
  if (!enter (p))
    return NULL;
  if (strcmp (t->str, "integer") == 0) {
    fc = parse_integer (p);
  } else if (strcmp (t->str, "floating_point") == 0) {
    fc = parse_float (p);
  } else if (strcmp (t->str, "string") == 0) {
    fc = parse_string (p);
  } else if (strcmp (t->str, "struct") == 0) {
    gboolean has_body = is_type (p, 1, TSDL_TOK_LBRACE)
        || (is_type (p, 1, TSDL_TOK_IDENT) && is_type (p, 2, TSDL_TOK_LBRACE));

    if (has_body && is_type (p, 1, TSDL_TOK_IDENT))
      name = g_strdup (peek (p, 1)->str);
    fc = parse_struct (p);
    if (fc != NULL && name != NULL) {
      if (!register_type (p, 's', name, gst_ctf_field_class_copy (fc), line)) {
        gst_ctf_field_class_free (fc);
        fc = NULL;
      }
    }
  } else if (strcmp (t->str, "variant") == 0) {
    gboolean has_body = FALSE;

    fc = parse_variant (p, &name, &has_body);
    if (fc != NULL && name != NULL && has_body) {
      GstCtfFieldClass *tmpl = gst_ctf_field_class_copy (fc);

      /* the registered declaration carries no tag of its own use */
      g_clear_pointer (&tmpl->ref_path, g_free);
      if (!register_type (p, 'v', name, tmpl, line)) {
        gst_ctf_field_class_free (fc);
        fc = NULL;
      }
    }
  } else if (strcmp (t->str, "enum") == 0) {
    gboolean has_body = is_type (p, 1, TSDL_TOK_LBRACE)
        || is_type (p, 1, TSDL_TOK_COLON)
        || (is_type (p, 1, TSDL_TOK_IDENT) && (is_type (p, 2, TSDL_TOK_LBRACE)
            || is_type (p, 2, TSDL_TOK_COLON)));

    fc = parse_enum (p, &name);
    if (fc != NULL && name != NULL && has_body) {
      if (!register_type (p, 'e', name, gst_ctf_field_class_copy (fc), line)) {
        gst_ctf_field_class_free (fc);
        fc = NULL;
      }
    }
  } else {
    fc = parse_named_type (p);
  }
  leave (p);
  g_free (name);
  if (fc == NULL && p->error == NULL)
    syntax_error (p, "invalid type specifier");
  return fc;
}

/* declarator := [name] { "[" (integer | path) "]" }; takes @base.
 * CTF 1.8 §4.2.3/§4.2.4: `x[a][b]` is an array of `a` arrays of `b`. */
static GstCtfFieldClass *
parse_declarator (Parser * p, GstCtfFieldClass * base, gboolean want_name,
    gchar ** name_out)
{
  guint line = peek (p, 0)->line;
  gchar *name = NULL;
  guint64 lengths[GST_CTF_TSDL_MAX_DIMENSIONS];
  gchar *paths[GST_CTF_TSDL_MAX_DIMENSIONS];
  guint ndims = 0, i;
  GstCtfFieldClass *fc = base;

  if (want_name) {
    if (!is_type (p, 0, TSDL_TOK_IDENT)) {
      syntax_error (p, "expected field name");
      goto fail;
    }
    name = take_str (p);
  }
  while (is_type (p, 0, TSDL_TOK_LBRACKET)) {
    if (ndims == GST_CTF_TSDL_MAX_DIMENSIONS) {
      syntax_error (p, "more than %u array dimensions",
          GST_CTF_TSDL_MAX_DIMENSIONS);
      goto fail;
    }
    advance (p);
    if (is_type (p, 0, TSDL_TOK_INTEGER)) {
      lengths[ndims] = peek (p, 0)->u64;
      paths[ndims] = NULL;
      advance (p);
    } else if (is_type (p, 0, TSDL_TOK_IDENT)) {
      paths[ndims] = parse_path (p);
      if (paths[ndims] == NULL)
        goto fail;
      lengths[ndims] = 0;
    } else {
      syntax_error (p, "expected array length or sequence length field");
      goto fail;
    }
    ndims++;
    if (!expect (p, TSDL_TOK_RBRACKET))
      goto fail;
  }
  if (is_type (p, 0, TSDL_TOK_COLON)) {
    invalid_error (p, line, "GCC bit-fields are not supported");
    goto fail;
  }
  for (i = ndims; i > 0; i--) {
    GstCtfFieldClass *outer;

    if (paths[i - 1] != NULL) {
      outer = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
      outer->ref_path = paths[i - 1];
      paths[i - 1] = NULL;
    } else {
      outer = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
      outer->length = lengths[i - 1];
    }
    outer->element = fc;
    outer->alignment = fc->alignment;
    fc = outer;
  }
  *name_out = name;
  return fc;

fail:
  for (i = 0; i < ndims; i++)
    g_free (paths[i]);
  g_free (name);
  gst_ctf_field_class_free (fc);
  return NULL;
}

/* typealias type-spec [dims] ":=" words { "*" } ";"  (CTF 1.8 §4.1.2) */
static gboolean
parse_typealias (Parser * p)
{
  guint line = peek (p, 0)->line;
  GstCtfFieldClass *fc;
  gchar *dummy = NULL;
  GString *name;

  advance (p);
  fc = parse_type_specifier (p);
  if (fc == NULL)
    return FALSE;
  fc = parse_declarator (p, fc, FALSE, &dummy);
  if (fc == NULL)
    return FALSE;
  if (!expect (p, TSDL_TOK_TYPEASSIGN)) {
    gst_ctf_field_class_free (fc);
    return FALSE;
  }
  while (is_ident (p, 0, "const"))
    advance (p);
  if (!is_type (p, 0, TSDL_TOK_IDENT)) {
    gst_ctf_field_class_free (fc);
    return syntax_error (p, "expected type alias name");
  }
  name = g_string_new (NULL);
  while (is_type (p, 0, TSDL_TOK_IDENT) || is_type (p, 0, TSDL_TOK_STAR)) {
    if (name->len > 0)
      g_string_append_c (name, ' ');
    if (is_type (p, 0, TSDL_TOK_STAR))
      g_string_append_c (name, '*');
    else
      g_string_append (name, peek (p, 0)->str);
    advance (p);
    if (name->len > 1024) {
      g_string_free (name, TRUE);
      gst_ctf_field_class_free (fc);
      return syntax_error (p, "type alias name too long");
    }
  }
  if (!expect (p, TSDL_TOK_SEMICOLON)) {
    g_string_free (name, TRUE);
    gst_ctf_field_class_free (fc);
    return FALSE;
  }
  if (!register_type (p, 'a', name->str, fc, line)) {
    g_string_free (name, TRUE);
    return FALSE;
  }
  g_string_free (name, TRUE);
  return TRUE;
}

/* typedef type-spec declarator { "," declarator } ";"  (CTF 1.8 §4.1.2) */
static gboolean
parse_typedef (Parser * p)
{
  guint line = peek (p, 0)->line;
  GstCtfFieldClass *base;

  advance (p);
  base = parse_type_specifier (p);
  if (base == NULL)
    return FALSE;
  for (;;) {
    gchar *name = NULL;
    GstCtfFieldClass *fc = instantiate (p, base, line);

    if (fc == NULL)
      break;
    fc = parse_declarator (p, fc, TRUE, &name);
    if (fc == NULL)
      break;
    if (!register_type (p, 'a', name, fc, line)) {
      g_free (name);
      break;
    }
    g_free (name);
    if (is_type (p, 0, TSDL_TOK_COMMA)) {
      advance (p);
      continue;
    }
    if (expect (p, TSDL_TOK_SEMICOLON)) {
      gst_ctf_field_class_free (base);
      return TRUE;
    }
    break;
  }
  gst_ctf_field_class_free (base);
  return FALSE;
}

/* type-spec [declarator {"," declarator}] ";" — in a struct/variant body
 * (@container) the declarators add members; elsewhere only type
 * declarations are allowed. */
static gboolean
parse_declaration (Parser * p, GstCtfFieldClass * container,
    GHashTable * names)
{
  guint line = peek (p, 0)->line;
  GstCtfFieldClass *base;

  base = parse_type_specifier (p);
  if (base == NULL)
    return FALSE;
  if (is_type (p, 0, TSDL_TOK_SEMICOLON)) {
    advance (p);
    gst_ctf_field_class_free (base);
    return TRUE;
  }
  if (container == NULL) {
    gst_ctf_field_class_free (base);
    return syntax_error (p, "expected `;` after type declaration");
  }
  for (;;) {
    gchar *name = NULL;
    GstCtfFieldClass *fc = instantiate (p, base, line);

    if (fc == NULL)
      break;
    fc = parse_declarator (p, fc, TRUE, &name);
    if (fc == NULL)
      break;
    if (g_hash_table_contains (names, name)) {
      invalid_error (p, line, "duplicate field `%s`", name);
      g_free (name);
      gst_ctf_field_class_free (fc);
      break;
    }
    gst_ctf_field_class_append_member (container, name, fc);
    g_hash_table_add (names, container->members[container->n_members - 1].name);
    g_free (name);
    if (is_type (p, 0, TSDL_TOK_COMMA)) {
      advance (p);
      continue;
    }
    if (expect (p, TSDL_TOK_SEMICOLON)) {
      gst_ctf_field_class_free (base);
      return TRUE;
    }
    break;
  }
  gst_ctf_field_class_free (base);
  return FALSE;
}

static gboolean
parse_body_entry (Parser * p, GstCtfFieldClass * container,
    GHashTable * names)
{
  if (is_ident (p, 0, "typealias"))
    return parse_typealias (p);
  if (is_ident (p, 0, "typedef"))
    return parse_typedef (p);
  return parse_declaration (p, container, names);
}

/* ---------------------------------------------------------------------- */
/* blocks (CTF 1.8 §5, §6, §8) */

typedef enum {
  BLOCK_TRACE,
  BLOCK_ENV,
  BLOCK_CLOCK,
  BLOCK_STREAM,
  BLOCK_EVENT,
  BLOCK_CALLSITE,
} BlockKind;

typedef struct {
  BlockKind kind;
  guint line;
  /* clock */
  GstCtfClockClass *clock;
  gboolean clock_has_name;
  gint64 offset_s;
  guint64 offset_cycles;
  gboolean offset_neg;
  /* stream / event */
  StreamDecl *sd;
  EventDecl *ed;
} Block;

static gboolean
set_scope_fc (Parser * p, GstCtfFieldClass ** slot, GstCtfFieldClass * fc,
    const gchar * key, guint line)
{
  if (fc->type != GST_CTF_FIELD_CLASS_STRUCT) {
    gst_ctf_field_class_free (fc);
    return invalid_error (p, line, "`%s` must be a structure", key);
  }
  if (*slot != NULL) {
    gst_ctf_field_class_free (fc);
    return invalid_error (p, line, "duplicate `%s`", key);
  }
  *slot = fc;
  return TRUE;
}

static gboolean
block_type_entry (Parser * p, Block * b, const gchar * key,
    GstCtfFieldClass * fc, guint line)
{
  switch (b->kind) {
    case BLOCK_TRACE:
      if (strcmp (key, "packet.header") == 0)
        return set_scope_fc (p, &p->tc->packet_header, fc, key, line);
      break;
    case BLOCK_STREAM:
      if (strcmp (key, "packet.context") == 0)
        return set_scope_fc (p, &b->sd->sc->packet_context, fc, key, line);
      if (strcmp (key, "event.header") == 0)
        return set_scope_fc (p, &b->sd->sc->event_header, fc, key, line);
      if (strcmp (key, "event.context") == 0)
        return set_scope_fc (p, &b->sd->sc->event_common_context, fc, key,
            line);
      break;
    case BLOCK_EVENT:
      if (strcmp (key, "context") == 0)
        return set_scope_fc (p, &b->ed->ec->context, fc, key, line);
      if (strcmp (key, "fields") == 0)
        return set_scope_fc (p, &b->ed->ec->payload, fc, key, line);
      break;
    default:
      break;
  }
  /* unknown type attribute: babeltrace2 warns and ignores it */
  gst_ctf_field_class_free (fc);
  return TRUE;
}

static gchar *
value_to_string (const Value * v)
{
  if (v->kind == VAL_STR || v->kind == VAL_PATH)
    return g_strdup (v->s);
  return NULL;
}

static gboolean
block_value_entry (Parser * p, Block * b, const gchar * key, Value * v,
    guint line)
{
  GstCtfTraceClass *tc = p->tc;
  guint64 u = 0;
  gint64 s;

  switch (b->kind) {
    case BLOCK_TRACE:
      if (strcmp (key, "major") == 0) {
        if (!value_to_uint (p, v, line, key, &u))
          return FALSE;
        tc->major = (guint) MIN (u, G_MAXUINT);
      } else if (strcmp (key, "minor") == 0) {
        if (!value_to_uint (p, v, line, key, &u))
          return FALSE;
        tc->minor = (guint) MIN (u, G_MAXUINT);
      } else if (strcmp (key, "uuid") == 0) {
        if (v->kind != VAL_STR || !parse_uuid (v->s, tc->uuid))
          return invalid_error (p, line, "invalid trace `uuid`");
        tc->has_uuid = TRUE;
      } else if (strcmp (key, "byte_order") == 0) {
        GstCtfByteOrder bo;

        if (!value_to_byte_order (p, v, line, &bo))
          return FALSE;
        if (bo == GST_CTF_TSDL_BYTE_ORDER_NATIVE)
          return invalid_error (p, line, "trace `byte_order` cannot be "
              "`native`");
        tc->byte_order = bo;
      }
      return TRUE;
    case BLOCK_ENV:{
      GstCtfEnvEntry *e = NULL;
      guint i;

      for (i = 0; i < tc->env->len; i++) {
        GstCtfEnvEntry *x = g_ptr_array_index (tc->env, i);
        if (strcmp (x->name, key) == 0)
          e = x;
      }
      if (e == NULL) {
        e = g_new0 (GstCtfEnvEntry, 1);
        e->name = g_strdup (key);
        g_ptr_array_add (tc->env, e);
      }
      g_clear_pointer (&e->str, g_free);
      if (v->kind == VAL_INT) {
        e->is_string = FALSE;
        /* as babeltrace2: unsigned values are kept as their bits */
        e->integer = v->neg ? (gint64) (0 - v->u) : (gint64) v->u;
      } else {
        e->is_string = TRUE;
        e->str = g_strdup (v->s);
      }
      return TRUE;
    }
    case BLOCK_CLOCK:{
      GstCtfClockClass *cc = b->clock;

      if (strcmp (key, "name") == 0) {
        g_free (cc->name);
        cc->name = value_to_string (v);
        if (cc->name == NULL)
          return invalid_error (p, line, "invalid clock `name`");
        b->clock_has_name = TRUE;
      } else if (strcmp (key, "uuid") == 0) {
        if (v->kind != VAL_STR || !parse_uuid (v->s, cc->uuid))
          return invalid_error (p, line, "invalid clock `uuid`");
        cc->has_uuid = TRUE;
      } else if (strcmp (key, "description") == 0) {
        g_free (cc->description);
        cc->description = value_to_string (v);
      } else if (strcmp (key, "freq") == 0) {
        if (!value_to_uint (p, v, line, key, &u))
          return FALSE;
        if (u == 0 || u == G_MAXUINT64)
          return invalid_error (p, line, "invalid clock frequency %"
              G_GUINT64_FORMAT, u);
        cc->freq = u;
      } else if (strcmp (key, "precision") == 0) {
        if (!value_to_uint (p, v, line, key, &u))
          return FALSE;
        cc->precision = u;
      } else if (strcmp (key, "offset_s") == 0) {
        if (!value_to_int (p, v, line, key, &b->offset_s))
          return FALSE;
      } else if (strcmp (key, "offset") == 0) {
        if (v->kind != VAL_INT)
          return invalid_error (p, line, "`offset` expects an integer");
        b->offset_cycles = v->u;
        b->offset_neg = v->neg;
      } else if (strcmp (key, "absolute") == 0) {
        if (!value_to_bool (p, v, line, key, &cc->absolute))
          return FALSE;
      }
      return TRUE;
    }
    case BLOCK_STREAM:
      if (strcmp (key, "id") == 0) {
        if (!value_to_uint (p, v, line, key, &u))
          return FALSE;
        b->sd->sc->id = u;
        b->sd->has_id = TRUE;
      }
      return TRUE;
    case BLOCK_EVENT:{
      GstCtfEventClass *ec = b->ed->ec;

      if (strcmp (key, "name") == 0) {
        g_free (ec->name);
        ec->name = value_to_string (v);
        if (ec->name == NULL)
          return invalid_error (p, line, "invalid event `name`");
        b->ed->has_name = TRUE;
      } else if (strcmp (key, "id") == 0) {
        if (!value_to_uint (p, v, line, key, &u))
          return FALSE;
        ec->id = u;
        b->ed->has_id = TRUE;
      } else if (strcmp (key, "stream_id") == 0) {
        if (!value_to_uint (p, v, line, key, &u))
          return FALSE;
        ec->stream_class_id = u;
        b->ed->has_stream_id = TRUE;
      } else if (strcmp (key, "loglevel") == 0) {
        if (!value_to_int (p, v, line, key, &s))
          return FALSE;
        ec->loglevel = s;
      } else if (strcmp (key, "model.emf.uri") == 0) {
        g_free (ec->model_emf_uri);
        ec->model_emf_uri = value_to_string (v);
      }
      return TRUE;
    }
    case BLOCK_CALLSITE:
      /* parsed and ignored, as babeltrace2 does */
      return TRUE;
  }
  return TRUE;
}

/* CTF 1.8 §8: keep offset (cycles) below freq, moving whole seconds to
 * offset_s, as babeltrace2 does. */
static void
finish_clock (Block * b)
{
  GstCtfClockClass *cc = b->clock;
  guint64 f = cc->freq;
  guint64 secs = b->offset_cycles / f;
  guint64 rem = b->offset_cycles % f;

  /* offset_s is kept within +-2^62 so the sums below cannot overflow */
  gint64 base = CLAMP (b->offset_s, -(G_MAXINT64 / 2), G_MAXINT64 / 2);
  gint64 whole = (gint64) MIN (secs, (guint64) (G_MAXINT64 / 4));

  if (!b->offset_neg) {
    cc->offset_s = base + whole;
    cc->offset = (gint64) rem;
  } else {
    /* negative cycles: borrow one more second so the rest is >= 0 */
    cc->offset_s = base - whole;
    if (rem != 0) {
      cc->offset_s -= 1;
      cc->offset = (gint64) (f - rem);
    } else {
      cc->offset = 0;
    }
  }
}

static gboolean
parse_block (Parser * p, BlockKind kind)
{
  Block b = { 0, };
  gboolean ok = TRUE;

  b.kind = kind;
  b.line = peek (p, 0)->line;
  advance (p);
  if (!expect (p, TSDL_TOK_LBRACE))
    return FALSE;
  if (kind == BLOCK_TRACE) {
    if (p->trace_seen)
      return invalid_error (p, b.line, "duplicate `trace` block");
    p->trace_seen = TRUE;
  } else if (kind == BLOCK_CLOCK) {
    b.clock = gst_ctf_clock_class_new ();
  } else if (kind == BLOCK_STREAM) {
    b.sd = g_new0 (StreamDecl, 1);
    b.sd->sc = gst_ctf_stream_class_new (0);
    b.sd->line = b.line;
    g_ptr_array_add (p->streams, b.sd);
  } else if (kind == BLOCK_EVENT) {
    b.ed = g_new0 (EventDecl, 1);
    b.ed->ec = gst_ctf_event_class_new ();
    b.ed->line = b.line;
    g_ptr_array_add (p->events, b.ed);
  }
  if (!enter (p)) {
    gst_ctf_clock_class_free (b.clock);
    return FALSE;
  }
  push_scope (p);
  while (ok && !is_type (p, 0, TSDL_TOK_RBRACE)) {
    const TsdlToken *t = peek (p, 0);

    if (p->error != NULL || t->type == TSDL_TOK_EOF) {
      ok = syntax_error (p, "expected `}`");
      break;
    }
    if (is_ident (p, 0, "typealias")) {
      ok = parse_typealias (p);
    } else if (is_ident (p, 0, "typedef")) {
      ok = parse_typedef (p);
    } else if (t->type == TSDL_TOK_IDENT && (is_type (p, 1, TSDL_TOK_ASSIGN)
            || is_type (p, 1, TSDL_TOK_TYPEASSIGN)
            || is_type (p, 1, TSDL_TOK_DOT))) {
      guint line = t->line;
      gchar *key = parse_path (p);

      if (key == NULL) {
        ok = FALSE;
      } else if (is_type (p, 0, TSDL_TOK_ASSIGN)) {
        Value v;

        advance (p);
        ok = parse_unary (p, &v) && block_value_entry (p, &b, key, &v, line);
        value_clear (&v);
        ok = ok && expect (p, TSDL_TOK_SEMICOLON);
      } else if (is_type (p, 0, TSDL_TOK_TYPEASSIGN)) {
        GstCtfFieldClass *fc;
        gchar *dummy = NULL;

        advance (p);
        fc = parse_type_specifier (p);
        if (fc != NULL)
          fc = parse_declarator (p, fc, FALSE, &dummy);
        ok = fc != NULL && block_type_entry (p, &b, key, fc, line)
            && expect (p, TSDL_TOK_SEMICOLON);
      } else {
        ok = syntax_error (p, "expected `=` or `:=`");
      }
      g_free (key);
    } else {
      ok = parse_declaration (p, NULL, NULL);
    }
  }
  pop_scope (p);
  leave (p);
  if (ok)
    advance (p);
  if (ok && is_type (p, 0, TSDL_TOK_SEMICOLON))
    advance (p);
  if (kind == BLOCK_CLOCK) {
    guint i;

    if (ok && !b.clock_has_name)
      ok = invalid_error (p, b.line, "missing `name` attribute in clock");
    for (i = 0; ok && i < p->tc->clock_classes->len; i++) {
      GstCtfClockClass *o = g_ptr_array_index (p->tc->clock_classes, i);
      if (strcmp (o->name, b.clock->name) == 0)
        ok = invalid_error (p, b.line, "duplicate clock `%s`", o->name);
    }
    if (ok) {
      finish_clock (&b);
      g_ptr_array_add (p->tc->clock_classes, b.clock);
    } else {
      gst_ctf_clock_class_free (b.clock);
    }
  }
  return ok;
}

static gboolean
parse_top_level (Parser * p)
{
  while (p->error == NULL && !is_type (p, 0, TSDL_TOK_EOF)) {
    const TsdlToken *t = peek (p, 0);
    gboolean ok;

    if (t->type == TSDL_TOK_IDENT && is_type (p, 1, TSDL_TOK_LBRACE)
        && (strcmp (t->str, "trace") == 0 || strcmp (t->str, "env") == 0
            || strcmp (t->str, "clock") == 0 || strcmp (t->str, "stream") == 0
            || strcmp (t->str, "event") == 0
            || strcmp (t->str, "callsite") == 0)) {
      BlockKind k;

      if (strcmp (t->str, "trace") == 0)
        k = BLOCK_TRACE;
      else if (strcmp (t->str, "env") == 0)
        k = BLOCK_ENV;
      else if (strcmp (t->str, "clock") == 0)
        k = BLOCK_CLOCK;
      else if (strcmp (t->str, "stream") == 0)
        k = BLOCK_STREAM;
      else if (strcmp (t->str, "event") == 0)
        k = BLOCK_EVENT;
      else
        k = BLOCK_CALLSITE;
      ok = parse_block (p, k);
    } else if (is_ident (p, 0, "typealias")) {
      ok = parse_typealias (p);
    } else if (is_ident (p, 0, "typedef")) {
      ok = parse_typedef (p);
    } else if (t->type == TSDL_TOK_SEMICOLON) {
      advance (p);
      ok = TRUE;
    } else {
      ok = parse_declaration (p, NULL, NULL);
    }
    if (!ok)
      break;
  }
  return p->error == NULL;
}

/* ---------------------------------------------------------------------- */
/* attaching streams and events (CTF 1.8 §5, babeltrace2's rules) */

static gboolean
attach_classes (Parser * p)
{
  GstCtfTraceClass *tc = p->tc;
  guint i;

  for (i = 0; i < p->streams->len; i++) {
    StreamDecl *sd = g_ptr_array_index (p->streams, i);

    if (!sd->has_id && p->streams->len > 1)
      return invalid_error (p, sd->line, "stream class without `id` in a "
          "trace with several stream classes");
    if (gst_ctf_trace_class_find_stream_class (tc, sd->sc->id) != NULL)
      return invalid_error (p, sd->line, "duplicate stream class id %"
          G_GUINT64_FORMAT, sd->sc->id);
    g_ptr_array_add (tc->stream_classes, sd->sc);
    sd->sc = NULL;
  }
  /* a trace without stream block has an implicit stream class 0 */
  if (tc->stream_classes->len == 0)
    g_ptr_array_add (tc->stream_classes, gst_ctf_stream_class_new (0));

  for (i = 0; i < p->events->len; i++) {
    EventDecl *ed = g_ptr_array_index (p->events, i);
    GstCtfEventClass *ec = ed->ec;
    GstCtfStreamClass *sc;

    if (!ed->has_name)
      return invalid_error (p, ed->line, "missing `name` attribute in event");
    if (!ed->has_stream_id) {
      if (tc->stream_classes->len > 1)
        return invalid_error (p, ed->line, "event `%s` has no `stream_id` "
            "and the trace has several stream classes", ec->name);
      sc = g_ptr_array_index (tc->stream_classes, 0);
      ec->stream_class_id = sc->id;
    } else {
      sc = gst_ctf_trace_class_find_stream_class (tc, ec->stream_class_id);
      if (sc == NULL)
        return invalid_error (p, ed->line, "event `%s`: no stream class "
            "with id %" G_GUINT64_FORMAT, ec->name, ec->stream_class_id);
    }
    if (!ed->has_id) {
      if (sc->event_classes->len > 0)
        return invalid_error (p, ed->line, "event `%s` has no `id` but its "
            "stream class has other event classes", ec->name);
      ec->id = 0;
    }
    if (gst_ctf_stream_class_find_event_class (sc, ec->id) != NULL)
      return invalid_error (p, ed->line, "duplicate event class id %"
          G_GUINT64_FORMAT " in stream class %" G_GUINT64_FORMAT, ec->id,
          sc->id);
    g_ptr_array_add (sc->event_classes, ec);
    g_hash_table_insert (sc->event_class_by_id, &ec->id, ec);
    ed->ec = NULL;
  }
  return TRUE;
}

static void
stream_decl_free (StreamDecl * sd)
{
  gst_ctf_stream_class_free (sd->sc);
  g_free (sd);
}

static void
event_decl_free (EventDecl * ed)
{
  gst_ctf_event_class_free (ed->ec);
  g_free (ed);
}

/**
 * gst_ctf_tsdl_parse:
 * @text: TSDL text (NUL terminated)
 * @origin: (nullable): a name for error messages (the file path)
 * @error: return location for a %GST_CTF_ERROR
 *
 * Parses the whole CTF 1.8 TSDL grammar into a trace class and resolves
 * it.  Syntax errors are %GST_CTF_ERROR_METADATA_SYNTAX and give line and
 * column; semantic ones are %GST_CTF_ERROR_METADATA_INVALID.
 *
 * Returns: (transfer full): the trace class, or %NULL
 */
GstCtfTraceClass *
gst_ctf_tsdl_parse (const gchar * text, const gchar * origin, GError ** error)
{
  Parser p;
  GstCtfTraceClass *tc;
  guint i;

  g_return_val_if_fail (text != NULL, NULL);

  memset (&p, 0, sizeof (p));
  tsdl_lexer_init (&p.lex, text, origin);
  p.origin = origin;
  p.tc = tc = gst_ctf_trace_class_new ();
  /* lenient defaults for early metadata without these attributes */
  tc->major = 1;
  tc->minor = 8;
  tc->byte_order = G_BYTE_ORDER == G_BIG_ENDIAN ?
      GST_CTF_BYTE_ORDER_BE : GST_CTF_BYTE_ORDER_LE;
  p.streams = g_ptr_array_new_with_free_func ((GDestroyNotify)
      stream_decl_free);
  p.events = g_ptr_array_new_with_free_func ((GDestroyNotify)
      event_decl_free);
  push_scope (&p);

  if (parse_top_level (&p))
    attach_classes (&p);

  while (p.scope != NULL)
    pop_scope (&p);
  for (i = 0; i < LOOKAHEAD; i++)
    tsdl_token_clear (&p.la[i]);
  g_ptr_array_unref (p.streams);
  g_ptr_array_unref (p.events);

  if (p.error == NULL && !gst_ctf_tsdl_resolve (tc, origin, &p.error))
    g_assert (p.error != NULL);
  if (p.error != NULL) {
    g_propagate_error (error, p.error);
    gst_ctf_trace_class_unref (tc);
    return NULL;
  }
  return tc;
}
