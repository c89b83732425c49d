/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: TSDL type specifiers (CTF 1.8 §4): integer, floating_point,
 * string, struct, variant, enum, type names; declarators with arrays
 * and sequences; typealias, typedef and declarations in bodies.  See
 * gstctf-tsdl-parser.c for the grammar and the limits.
 */
#include "gstctf-metadata.h"
#include "gstctf-tsdl-parser-private.h"

#include <string.h>

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
    _gst_ctf_tsdl_value_clear (&a->v);
  }
  g_array_free (attrs, TRUE);
}

static GArray *
parse_attrs (Parser * p)
{
  GArray *attrs = g_array_new (FALSE, TRUE, sizeof (Attr));

  if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_LBRACE))
    goto fail;
  while (!_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_RBRACE)) {
    Attr a = { 0, };

    if (p->error != NULL)
      goto fail;
    a.line = _gst_ctf_tsdl_peek (p, 0)->line;
    a.key = _gst_ctf_tsdl_parse_path (p);
    if (a.key == NULL)
      goto fail;
    if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_ASSIGN)
        || !_gst_ctf_tsdl_parse_unary (p, &a.v)) {
      g_free (a.key);
      _gst_ctf_tsdl_value_clear (&a.v);
      goto fail;
    }
    g_array_append_val (attrs, a);
    if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_SEMICOLON))
      goto fail;
  }
  _gst_ctf_tsdl_advance (p);
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

static gboolean parse_body_entry (Parser * p, GstCtfFieldClass * container,
    GHashTable * names);


/* The text of the integer attribute block after the current `integer`
 * token, from the lexer's position to the closing brace; 0 when the
 * lexer has read beyond the keyword or the block holds a literal, a
 * comment or a brace (then a byte scan could misread it).  The same text
 * always gives the same integer (its attributes are literals; a `map`
 * keeps the clock's name), so a merged trace class, which repeats each
 * integer of each input, parses each distinct one once. */
static gsize
integer_block_len (Parser * p)
{
  const gchar *s = p->lex.pos, *e;

  if (p->la_n != 1 || p->lex_failed)
    return 0;
  while (g_ascii_isspace (*s))
    s++;
  if (*s != '{')
    return 0;
  for (e = s + 1; *e != '\0' && *e != '}'; e++)
    if (*e == '{' || *e == '"' || *e == '\'' || *e == '/')
      return 0;
  if (*e != '}')
    return 0;
  return (gsize) (e + 1 - p->lex.pos);
}

/* Moves the lexer over @len bytes already parsed (lines counted). */
static void
lexer_skip (Parser * p, gsize len)
{
  const gchar *end = p->lex.pos + len, *q;

  for (q = p->lex.pos; q < end; q++) {
    if (*q == '\n') {
      p->lex.line++;
      p->lex.line_start = q + 1;
    }
  }
  p->lex.pos = end;
}

static GstCtfFieldClass *parse_integer_attrs (Parser * p);

/* CTF 1.8 §4.1.5 */
static GstCtfFieldClass *
parse_integer (Parser * p)
{
  gsize len = integer_block_len (p);
  const gchar *start = p->lex.pos;
  GstCtfFieldClass *fc;

  if (len > 0 && p->integer_memo != NULL) {
    gchar *key = g_strndup (start, len);
    const GstCtfFieldClass *known = g_hash_table_lookup (p->integer_memo, key);

    g_free (key);
    if (known != NULL) {
      _gst_ctf_tsdl_advance (p);
      lexer_skip (p, len);
      return gst_ctf_field_class_copy (known);
    }
  }
  fc = parse_integer_attrs (p);
  if (fc != NULL && len > 0 && p->la_n == 0 && p->lex.pos == start + len) {
    if (p->integer_memo == NULL)
      p->integer_memo = g_hash_table_new_full (g_str_hash, g_str_equal,
          g_free, (GDestroyNotify) gst_ctf_field_class_free);
    g_hash_table_insert (p->integer_memo, g_strndup (start, len),
        gst_ctf_field_class_copy (fc));
  }
  return fc;
}

static GstCtfFieldClass *
parse_integer_attrs (Parser * p)
{
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  GstCtfFieldClass *fc;
  GArray *attrs;
  gboolean has_size = FALSE, has_align = FALSE;
  guint64 align = 0;
  guint i;

  _gst_ctf_tsdl_advance (p);
  attrs = parse_attrs (p);
  if (attrs == NULL)
    return NULL;
  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_INTEGER);
  fc->integer.byte_order = GST_CTF_TSDL_BYTE_ORDER_NATIVE;
  for (i = 0; i < attrs->len; i++) {
    Attr *a = &g_array_index (attrs, Attr, i);
    guint64 u = 0;

    if (strcmp (a->key, "size") == 0) {
      if (!_gst_ctf_tsdl_value_to_uint (p, &a->v, a->line, "size", &u))
        goto fail;
      if (u < 1 || u > 64) {
        _gst_ctf_tsdl_invalid_error (p, a->line,
            "integer `size` %" G_GUINT64_FORMAT
            " not supported: expecting 1 to 64 bits", u);
        goto fail;
      }
      fc->integer.size = (guint) u;
      has_size = TRUE;
    } else if (strcmp (a->key, "align") == 0) {
      if (!_gst_ctf_tsdl_value_to_uint (p, &a->v, a->line, "align", &align))
        goto fail;
      if (!is_pow2 (align) || align > G_MAXUINT32) {
        _gst_ctf_tsdl_invalid_error (p, a->line,
            "integer `align` must be a power of two");
        goto fail;
      }
      has_align = TRUE;
    } else if (strcmp (a->key, "signed") == 0) {
      if (!_gst_ctf_tsdl_value_to_bool (p, &a->v, a->line, "signed",
              &fc->integer.is_signed))
        goto fail;
    } else if (strcmp (a->key, "byte_order") == 0) {
      if (!_gst_ctf_tsdl_value_to_byte_order (p, &a->v, a->line,
              &fc->integer.byte_order))
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
        _gst_ctf_tsdl_invalid_error (p, a->line, "invalid integer `base`");
        goto fail;
      }
      fc->integer.base = base;
    } else if (strcmp (a->key, "encoding") == 0) {
      if (!_gst_ctf_tsdl_value_to_encoding (p, &a->v, a->line,
              &fc->integer.encoding))
        goto fail;
    } else if (strcmp (a->key, "map") == 0) {
      /* map = clock.NAME.value (CTF 1.8 §8) */
      gchar **parts;

      if (a->v.kind != VAL_PATH) {
        _gst_ctf_tsdl_invalid_error (p, a->line,
            "invalid `map`: expecting clock.NAME.value");
        goto fail;
      }
      parts = g_strsplit (a->v.s, ".", -1);
      if (g_strv_length (parts) != 3 || strcmp (parts[0], "clock") != 0
          || strcmp (parts[2], "value") != 0) {
        g_strfreev (parts);
        _gst_ctf_tsdl_invalid_error (p, a->line,
            "invalid `map`: expecting clock.NAME.value");
        goto fail;
      }
      g_free (fc->integer.map_clock_name);
      fc->integer.map_clock_name = g_strdup (parts[1]);
      g_strfreev (parts);
    }
    /* babeltrace2 warns about unknown attributes and goes on */
  }
  if (!has_size) {
    _gst_ctf_tsdl_invalid_error (p, line,
        "missing `size` attribute in integer");
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
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  GstCtfFieldClass *fc;
  GArray *attrs;
  gboolean has_align = FALSE;
  guint64 align = 0, exp_dig = 0, mant_dig = 0;
  guint i;

  _gst_ctf_tsdl_advance (p);
  attrs = parse_attrs (p);
  if (attrs == NULL)
    return NULL;
  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_FLOAT);
  fc->floating.byte_order = GST_CTF_TSDL_BYTE_ORDER_NATIVE;
  for (i = 0; i < attrs->len; i++) {
    Attr *a = &g_array_index (attrs, Attr, i);

    if (strcmp (a->key, "exp_dig") == 0) {
      if (!_gst_ctf_tsdl_value_to_uint (p, &a->v, a->line, "exp_dig", &exp_dig))
        goto fail;
    } else if (strcmp (a->key, "mant_dig") == 0) {
      if (!_gst_ctf_tsdl_value_to_uint (p, &a->v, a->line, "mant_dig",
              &mant_dig))
        goto fail;
    } else if (strcmp (a->key, "align") == 0) {
      if (!_gst_ctf_tsdl_value_to_uint (p, &a->v, a->line, "align", &align))
        goto fail;
      if (!is_pow2 (align) || align > G_MAXUINT32) {
        _gst_ctf_tsdl_invalid_error (p, a->line,
            "floating point `align` must be a power of two");
        goto fail;
      }
      has_align = TRUE;
    } else if (strcmp (a->key, "byte_order") == 0) {
      if (!_gst_ctf_tsdl_value_to_byte_order (p, &a->v, a->line,
              &fc->floating.byte_order))
        goto fail;
    }
  }
  if (!((exp_dig == 8 && mant_dig == 24) || (exp_dig == 11
              && mant_dig == 53))) {
    _gst_ctf_tsdl_invalid_error (p, line,
        "floating point with exp_dig=%" G_GUINT64_FORMAT " mant_dig=%"
        G_GUINT64_FORMAT " not supported: only 32-bit "
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

  _gst_ctf_tsdl_advance (p);
  fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING);
  if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_LBRACE)) {
    GArray *attrs = parse_attrs (p);
    guint i;

    if (attrs == NULL) {
      gst_ctf_field_class_free (fc);
      return NULL;
    }
    for (i = 0; i < attrs->len; i++) {
      Attr *a = &g_array_index (attrs, Attr, i);

      if (strcmp (a->key, "encoding") == 0 &&
          !_gst_ctf_tsdl_value_to_encoding (p, &a->v, a->line,
              &fc->string.encoding)) {
        attrs_free (attrs);
        gst_ctf_field_class_free (fc);
        return NULL;
      }
    }
    attrs_free (attrs);
  }
  return fc;
}


/* "{" { body-entry } "}" in a new scope, for struct and variant bodies. */
static gboolean
parse_compound_body (Parser * p, GstCtfFieldClass * fc)
{
  gboolean ok = TRUE;
  /* member names already in @fc, for the duplicate check in O(1) */
  GHashTable *names;

  if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_LBRACE))
    return FALSE;
  if (!_gst_ctf_tsdl_enter (p))
    return FALSE;
  names = g_hash_table_new (g_str_hash, g_str_equal);
  _gst_ctf_tsdl_push_scope (p);
  while (!_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_RBRACE)) {
    if (p->error != NULL || _gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_EOF)) {
      ok = _gst_ctf_tsdl_syntax_error (p, "expected `}`");
      break;
    }
    if (!parse_body_entry (p, fc, names)) {
      ok = FALSE;
      break;
    }
  }
  g_hash_table_unref (names);
  _gst_ctf_tsdl_pop_scope (p);
  _gst_ctf_tsdl_leave (p);
  if (ok)
    _gst_ctf_tsdl_advance (p);
  return ok;
}

/* CTF 1.8 §4.2.1 */
static GstCtfFieldClass *
parse_struct (Parser * p)
{
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  gchar *name = NULL;
  GstCtfFieldClass *fc = NULL;

  _gst_ctf_tsdl_advance (p);
  if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_IDENT)
      && !_gst_ctf_tsdl_is_ident (p, 0, "align"))
    name = _gst_ctf_tsdl_take_str (p);
  if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_LBRACE)) {
    fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);
    if (!parse_compound_body (p, fc))
      goto fail;
  } else if (name != NULL) {
    const GstCtfFieldClass *tmpl = _gst_ctf_tsdl_lookup_type (p, 's', name);

    if (tmpl == NULL) {
      _gst_ctf_tsdl_invalid_error (p, line, "unknown structure `struct %s`",
          name);
      goto fail;
    }
    fc = _gst_ctf_tsdl_instantiate (p, tmpl, line);
    if (fc == NULL)
      goto fail;
  } else {
    _gst_ctf_tsdl_syntax_error (p, "expected structure name or `{`");
    goto fail;
  }
  /* align(N) attribute (CTF 1.8 §4.2.1) */
  if (_gst_ctf_tsdl_is_ident (p, 0, "align")
      && _gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_LPAREN)) {
    Value v;

    _gst_ctf_tsdl_advance (p);
    _gst_ctf_tsdl_advance (p);
    if (!_gst_ctf_tsdl_parse_unary (p, &v))
      goto fail;
    if (v.kind != VAL_INT || v.neg || !is_pow2 (v.u) || v.u > G_MAXUINT32) {
      _gst_ctf_tsdl_value_clear (&v);
      _gst_ctf_tsdl_invalid_error (p, line,
          "structure `align()` must be a power of two");
      goto fail;
    }
    if (v.u > fc->alignment)
      fc->alignment = (guint) v.u;
    _gst_ctf_tsdl_value_clear (&v);
    if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_RPAREN))
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
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  gchar *name = NULL, *tag = NULL;
  GstCtfFieldClass *fc = NULL;

  _gst_ctf_tsdl_advance (p);
  if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_IDENT))
    name = _gst_ctf_tsdl_take_str (p);
  if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_LT)) {
    _gst_ctf_tsdl_advance (p);
    tag = _gst_ctf_tsdl_parse_path (p);
    if (tag == NULL || !_gst_ctf_tsdl_expect (p, TSDL_TOK_GT))
      goto fail;
  }
  *has_body = _gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_LBRACE);
  if (*has_body) {
    fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_VARIANT);
    if (!parse_compound_body (p, fc))
      goto fail;
  } else if (name != NULL) {
    const GstCtfFieldClass *tmpl = _gst_ctf_tsdl_lookup_type (p, 'v', name);

    if (tmpl == NULL) {
      _gst_ctf_tsdl_invalid_error (p, line, "unknown variant `variant %s`",
          name);
      goto fail;
    }
    fc = _gst_ctf_tsdl_instantiate (p, tmpl, line);
    if (fc == NULL)
      goto fail;
  } else {
    _gst_ctf_tsdl_syntax_error (p, "expected variant name or `{`");
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

  if (!_gst_ctf_tsdl_parse_unary (p, &v))
    return FALSE;
  if (v.kind != VAL_INT) {
    ok = _gst_ctf_tsdl_invalid_error (p, line,
        "enumerator value must be an integer");
  } else if (is_signed) {
    gint64 s;

    ok = _gst_ctf_tsdl_value_to_int (p, &v, line, "enumerator", &s);
    *out = (guint64) s;
  } else if (v.neg) {
    ok = _gst_ctf_tsdl_invalid_error (p, line,
        "negative enumerator value in an unsigned enumeration");
  } else {
    *out = v.u;
  }
  _gst_ctf_tsdl_value_clear (&v);
  return ok;
}

/* CTF 1.8 §4.1.8 */
static GstCtfFieldClass *
parse_enum (Parser * p, gchar ** name_out)
{
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  gchar *name = NULL;
  GstCtfFieldClass *container = NULL, *fc = NULL;
  guint64 next = 0;
  gboolean next_overflow = FALSE;
  GArray *maps = NULL;

  _gst_ctf_tsdl_advance (p);
  if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_IDENT))
    name = _gst_ctf_tsdl_take_str (p);
  if (name != NULL && !_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_COLON)
      && !_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_LBRACE)) {
    const GstCtfFieldClass *tmpl = _gst_ctf_tsdl_lookup_type (p, 'e', name);

    if (tmpl == NULL) {
      _gst_ctf_tsdl_invalid_error (p, line, "unknown enumeration `enum %s`",
          name);
      goto fail;
    }
    fc = _gst_ctf_tsdl_instantiate (p, tmpl, line);
    if (fc == NULL)
      goto fail;
    *name_out = name;
    return fc;
  }
  if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_COLON)) {
    _gst_ctf_tsdl_advance (p);
    container = _gst_ctf_tsdl_parse_type_specifier (p);
    if (container == NULL)
      goto fail;
  } else {
    /* CTF 1.8 §4.1.8: the default container is the `int` type alias */
    const GstCtfFieldClass *tmpl = _gst_ctf_tsdl_lookup_type (p, 'a', "int");

    if (tmpl == NULL) {
      _gst_ctf_tsdl_invalid_error (p, line,
          "enumeration without a container type and no "
          "`int` type alias declared");
      goto fail;
    }
    container = _gst_ctf_tsdl_instantiate (p, tmpl, line);
    if (container == NULL)
      goto fail;
  }
  if (container->type != GST_CTF_FIELD_CLASS_INTEGER) {
    _gst_ctf_tsdl_invalid_error (p, line,
        "enumeration container type is not an integer");
    goto fail;
  }
  fc = container;
  container = NULL;
  fc->type = GST_CTF_FIELD_CLASS_ENUM;

  if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_LBRACE))
    goto fail;
  maps = g_array_new (FALSE, TRUE, sizeof (GstCtfEnumMapping));
  while (!_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_RBRACE)) {
    GstCtfEnumMapping m = { 0, };
    const TsdlToken *t = _gst_ctf_tsdl_peek (p, 0);
    guint eline = t->line;

    if (t->type != TSDL_TOK_IDENT && t->type != TSDL_TOK_STRING) {
      _gst_ctf_tsdl_syntax_error (p, "expected enumerator label");
      goto fail;
    }
    m.label = _gst_ctf_tsdl_take_str (p);
    g_array_append_val (maps, m);
    if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_ASSIGN)) {
      _gst_ctf_tsdl_advance (p);
      if (!parse_enum_value (p, fc->integer.is_signed, eline, &m.lower))
        goto fail;
      m.upper = m.lower;
      if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_ELLIPSIS)) {
        _gst_ctf_tsdl_advance (p);
        if (!parse_enum_value (p, fc->integer.is_signed, eline, &m.upper))
          goto fail;
      }
    } else {
      if (next_overflow) {
        _gst_ctf_tsdl_invalid_error (p, eline, "enumerator value overflows");
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
    if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_COMMA))
      _gst_ctf_tsdl_advance (p);
    else if (!_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_RBRACE)) {
      _gst_ctf_tsdl_syntax_error (p, "expected `,` or `}` in enumeration");
      goto fail;
    }
  }
  _gst_ctf_tsdl_advance (p);
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
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  guint n = 0, stars = 0, len;
  GString *key;

  while (n < MAX_TYPE_WORDS && _gst_ctf_tsdl_is_type (p, n, TSDL_TOK_IDENT)
      && !_gst_ctf_tsdl_is_ident (p, n, "const"))
    n++;
  while (n + stars < LOOKAHEAD - 1
      && _gst_ctf_tsdl_is_type (p, n + stars, TSDL_TOK_STAR))
    stars++;
  if (n == 0) {
    _gst_ctf_tsdl_syntax_error (p, "expected type specifier");
    return NULL;
  }
  for (len = n; len >= 1; len--) {
    const GstCtfFieldClass *tmpl;
    guint i, use_stars = len == n ? stars : 0;

    key = g_string_new (_gst_ctf_tsdl_peek (p, 0)->str);
    for (i = 1; i < len; i++) {
      g_string_append_c (key, ' ');
      g_string_append (key, _gst_ctf_tsdl_peek (p, i)->str);
    }
    for (i = 0; i < use_stars; i++)
      g_string_append (key, " *");
    tmpl = _gst_ctf_tsdl_lookup_type (p, 'a', key->str);
    if (tmpl == NULL && use_stars > 0) {
      g_string_truncate (key, key->len - 2 * use_stars);
      use_stars = 0;
      tmpl = _gst_ctf_tsdl_lookup_type (p, 'a', key->str);
    }
    g_string_free (key, TRUE);
    if (tmpl != NULL) {
      for (i = 0; i < len + use_stars; i++)
        _gst_ctf_tsdl_advance (p);
      return _gst_ctf_tsdl_instantiate (p, tmpl, line);
    }
  }
  _gst_ctf_tsdl_syntax_error (p, "unknown type name");
  return NULL;
}

GstCtfFieldClass *
_gst_ctf_tsdl_parse_type_specifier (Parser * p)
{
  const TsdlToken *t;
  GstCtfFieldClass *fc = NULL;
  gchar *name = NULL;
  guint line;

  while (_gst_ctf_tsdl_is_ident (p, 0, "const"))
    _gst_ctf_tsdl_advance (p);
  t = _gst_ctf_tsdl_peek (p, 0);
  line = t->line;
  if (t->type != TSDL_TOK_IDENT) {
    _gst_ctf_tsdl_syntax_error (p, "expected type specifier");
    return NULL;
  }
  if (!_gst_ctf_tsdl_enter (p))
    return NULL;
  if (strcmp (t->str, "integer") == 0) {
    fc = parse_integer (p);
  } else if (strcmp (t->str, "floating_point") == 0) {
    fc = parse_float (p);
  } else if (strcmp (t->str, "string") == 0) {
    fc = parse_string (p);
  } else if (strcmp (t->str, "struct") == 0) {
    gboolean has_body = _gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_LBRACE)
        || (_gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_IDENT)
            && _gst_ctf_tsdl_is_type (p, 2, TSDL_TOK_LBRACE));

    if (has_body && _gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_IDENT))
      name = g_strdup (_gst_ctf_tsdl_peek (p, 1)->str);
    fc = parse_struct (p);
    if (fc != NULL && name != NULL) {
      if (!_gst_ctf_tsdl_register_type (p, 's', name,
              gst_ctf_field_class_copy (fc), line)) {
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
      if (!_gst_ctf_tsdl_register_type (p, 'v', name, tmpl, line)) {
        gst_ctf_field_class_free (fc);
        fc = NULL;
      }
    }
  } else if (strcmp (t->str, "enum") == 0) {
    gboolean has_body = _gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_LBRACE)
        || _gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_COLON)
        || (_gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_IDENT)
            && (_gst_ctf_tsdl_is_type (p, 2, TSDL_TOK_LBRACE)
                || _gst_ctf_tsdl_is_type (p, 2, TSDL_TOK_COLON)));

    fc = parse_enum (p, &name);
    if (fc != NULL && name != NULL && has_body) {
      if (!_gst_ctf_tsdl_register_type (p, 'e', name,
              gst_ctf_field_class_copy (fc), line)) {
        gst_ctf_field_class_free (fc);
        fc = NULL;
      }
    }
  } else {
    fc = parse_named_type (p);
  }
  _gst_ctf_tsdl_leave (p);
  g_free (name);
  if (fc == NULL && p->error == NULL)
    _gst_ctf_tsdl_syntax_error (p, "invalid type specifier");
  return fc;
}

/* declarator := [name] { "[" (integer | path) "]" }; takes @base.
 * CTF 1.8 §4.2.3/§4.2.4: `x[a][b]` is an array of `a` arrays of `b`. */
GstCtfFieldClass *
_gst_ctf_tsdl_parse_declarator (Parser * p, GstCtfFieldClass * base,
    gboolean want_name, gchar ** name_out)
{
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  gchar *name = NULL;
  guint64 lengths[GST_CTF_TSDL_MAX_DIMENSIONS];
  gchar *paths[GST_CTF_TSDL_MAX_DIMENSIONS];
  guint ndims = 0, i;
  GstCtfFieldClass *fc = base;

  if (want_name) {
    if (!_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_IDENT)) {
      _gst_ctf_tsdl_syntax_error (p, "expected field name");
      goto fail;
    }
    name = _gst_ctf_tsdl_take_str (p);
  }
  while (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_LBRACKET)) {
    if (ndims == GST_CTF_TSDL_MAX_DIMENSIONS) {
      _gst_ctf_tsdl_syntax_error (p, "more than %u array dimensions",
          GST_CTF_TSDL_MAX_DIMENSIONS);
      goto fail;
    }
    _gst_ctf_tsdl_advance (p);
    if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_INTEGER)) {
      lengths[ndims] = _gst_ctf_tsdl_peek (p, 0)->u64;
      paths[ndims] = NULL;
      _gst_ctf_tsdl_advance (p);
    } else if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_IDENT)) {
      paths[ndims] = _gst_ctf_tsdl_parse_path (p);
      if (paths[ndims] == NULL)
        goto fail;
      lengths[ndims] = 0;
    } else {
      _gst_ctf_tsdl_syntax_error (p,
          "expected array length or sequence length field");
      goto fail;
    }
    ndims++;
    if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_RBRACKET))
      goto fail;
  }
  if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_COLON)) {
    _gst_ctf_tsdl_invalid_error (p, line, "GCC bit-fields are not supported");
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
gboolean
_gst_ctf_tsdl_parse_typealias (Parser * p)
{
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  GstCtfFieldClass *fc;
  gchar *dummy = NULL;
  GString *name;

  _gst_ctf_tsdl_advance (p);
  fc = _gst_ctf_tsdl_parse_type_specifier (p);
  if (fc == NULL)
    return FALSE;
  fc = _gst_ctf_tsdl_parse_declarator (p, fc, FALSE, &dummy);
  if (fc == NULL)
    return FALSE;
  if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_TYPEASSIGN)) {
    gst_ctf_field_class_free (fc);
    return FALSE;
  }
  while (_gst_ctf_tsdl_is_ident (p, 0, "const"))
    _gst_ctf_tsdl_advance (p);
  if (!_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_IDENT)) {
    gst_ctf_field_class_free (fc);
    return _gst_ctf_tsdl_syntax_error (p, "expected type alias name");
  }
  name = g_string_new (NULL);
  while (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_IDENT)
      || _gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_STAR)) {
    if (name->len > 0)
      g_string_append_c (name, ' ');
    if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_STAR))
      g_string_append_c (name, '*');
    else
      g_string_append (name, _gst_ctf_tsdl_peek (p, 0)->str);
    _gst_ctf_tsdl_advance (p);
    if (name->len > 1024) {
      g_string_free (name, TRUE);
      gst_ctf_field_class_free (fc);
      return _gst_ctf_tsdl_syntax_error (p, "type alias name too long");
    }
  }
  if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_SEMICOLON)) {
    g_string_free (name, TRUE);
    gst_ctf_field_class_free (fc);
    return FALSE;
  }
  if (!_gst_ctf_tsdl_register_type (p, 'a', name->str, fc, line)) {
    g_string_free (name, TRUE);
    return FALSE;
  }
  g_string_free (name, TRUE);
  return TRUE;
}

/* typedef type-spec declarator { "," declarator } ";"  (CTF 1.8 §4.1.2) */
gboolean
_gst_ctf_tsdl_parse_typedef (Parser * p)
{
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  GstCtfFieldClass *base;

  _gst_ctf_tsdl_advance (p);
  base = _gst_ctf_tsdl_parse_type_specifier (p);
  if (base == NULL)
    return FALSE;
  for (;;) {
    gchar *name = NULL;
    GstCtfFieldClass *fc = _gst_ctf_tsdl_instantiate (p, base, line);

    if (fc == NULL)
      break;
    fc = _gst_ctf_tsdl_parse_declarator (p, fc, TRUE, &name);
    if (fc == NULL)
      break;
    if (!_gst_ctf_tsdl_register_type (p, 'a', name, fc, line)) {
      g_free (name);
      break;
    }
    g_free (name);
    if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_COMMA)) {
      _gst_ctf_tsdl_advance (p);
      continue;
    }
    if (_gst_ctf_tsdl_expect (p, TSDL_TOK_SEMICOLON)) {
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
gboolean
_gst_ctf_tsdl_parse_declaration (Parser * p, GstCtfFieldClass * container,
    GHashTable * names)
{
  guint line = _gst_ctf_tsdl_peek (p, 0)->line;
  GstCtfFieldClass *base;

  base = _gst_ctf_tsdl_parse_type_specifier (p);
  if (base == NULL)
    return FALSE;
  if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_SEMICOLON)) {
    _gst_ctf_tsdl_advance (p);
    gst_ctf_field_class_free (base);
    return TRUE;
  }
  if (container == NULL) {
    gst_ctf_field_class_free (base);
    return _gst_ctf_tsdl_syntax_error (p,
        "expected `;` after type declaration");
  }
  for (;;) {
    gchar *name = NULL;
    GstCtfFieldClass *fc = _gst_ctf_tsdl_instantiate (p, base, line);

    if (fc == NULL)
      break;
    fc = _gst_ctf_tsdl_parse_declarator (p, fc, TRUE, &name);
    if (fc == NULL)
      break;
    if (g_hash_table_contains (names, name)) {
      _gst_ctf_tsdl_invalid_error (p, line, "duplicate field `%s`", name);
      g_free (name);
      gst_ctf_field_class_free (fc);
      break;
    }
    gst_ctf_field_class_append_member (container, name, fc);
    g_hash_table_add (names, container->members[container->n_members - 1].name);
    g_free (name);
    if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_COMMA)) {
      _gst_ctf_tsdl_advance (p);
      continue;
    }
    if (_gst_ctf_tsdl_expect (p, TSDL_TOK_SEMICOLON)) {
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
  if (_gst_ctf_tsdl_is_ident (p, 0, "typealias"))
    return _gst_ctf_tsdl_parse_typealias (p);
  if (_gst_ctf_tsdl_is_ident (p, 0, "typedef"))
    return _gst_ctf_tsdl_parse_typedef (p);
  return _gst_ctf_tsdl_parse_declaration (p, container, names);
}
