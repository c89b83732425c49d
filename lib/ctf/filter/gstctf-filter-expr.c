/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The parser of trace-cmd's `report -F` filters (libtraceevent's event
 * filter grammar, tep_filter_add_filter_str()):
 *
 *   filter  := term (',' term)*
 *   term    := events [':' expr]
 *   events  := pattern (',' pattern)*       SYSTEM/EVENT or NAME, regexes
 *   expr    := unary (('&&' | '||') unary)*  left to right, no precedence
 *   unary   := '!' unary | '(' expr ')' | FIELD cmpop value
 *            | FIELD bitop NUMBER
 *   value   := NUMBER | '-' NUMBER | "string" | 'c'
 *
 * libtraceevent rejects a ',' inside an expression, so a ',' after one
 * starts the next term (several `-F` options of trace-cmd are one filter
 * with several terms here).  A 'c' of one character is its code, as in
 * libtraceevent; `~` between a field and a string is the kernel's glob
 * match (an addition: libtraceevent only has `=~`).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "gstctf-filter-private.h"

#define MAX_DEPTH 64

typedef enum {
  TOK_END,
  TOK_ITEM,                     /* a field name */
  TOK_NUM,
  TOK_STR,                      /* "..." */
  TOK_CHAR,                     /* '...' */
  TOK_OP,
  TOK_LPAREN,
  TOK_RPAREN,
  TOK_COMMA,
} TokType;

typedef struct {
  const gchar *text;
  gsize pos;
  /* current token */
  TokType type;
  gsize start;
  gchar *val;
  guint64 num;
  GError **error;
} Lexer;

static const gchar *const ops[] = {
  "&&", "||", "==", "!=", "<=", ">=", "=~", "!~", "<<", ">>",
  "<", ">", "!", "~", "&", "|", "^", "+", "-", "*", "/", "%", NULL
};

/* glibc's regcomp() builds an automaton whose size multiplies bounded
 * repetitions (a group of a{200} repeated {200} times takes hundreds of
 * MB) and
 * regexec() with back-references can take exponential time: a pattern is
 * refused when it is long, repeats much or refers back, so a filter
 * cannot take unbounded memory or time. */
#define FILTER_REGEX_MAX_LEN 256
#define FILTER_REGEX_MAX_REPEAT 64
#define FILTER_REGEX_MAX_STATES 4096

static gboolean
regex_affordable (const gchar * r, gsize len)
{
  guint64 states = 1;
  gsize i;

  if (len > FILTER_REGEX_MAX_LEN)
    return FALSE;
  for (i = 0; i < len; i++) {
    if (r[i] == '\\' && i + 1 < len && r[i + 1] >= '1' && r[i + 1] <= '9')
      return FALSE;             /* a back-reference */
    if (r[i] == '{') {
      guint64 n = 0, m = 0;
      gsize j = i + 1;

      while (j < len && g_ascii_isdigit (r[j]) && n <= FILTER_REGEX_MAX_REPEAT)
        n = n * 10 + (guint64) (r[j++] - '0');
      if (j < len && r[j] == ',') {
        j++;
        while (j < len && g_ascii_isdigit (r[j]) &&
            m <= FILTER_REGEX_MAX_REPEAT)
          m = m * 10 + (guint64) (r[j++] - '0');
      }
      n = MAX (n, m);
      if (n > FILTER_REGEX_MAX_REPEAT)
        return FALSE;
      states *= MAX (n, 1);
      if (states > FILTER_REGEX_MAX_STATES)
        return FALSE;
    }
  }
  return TRUE;
}

static gboolean
fail (Lexer * lx, gsize at, const gchar * expected)
{
  if (lx->error && *lx->error == NULL) {
    const gchar *found = lx->text + at;

    g_set_error (lx->error, GST_CTF_ERROR, GST_CTF_ERROR_FILTER_SYNTAX,
        "Cannot parse filter \"%s\": expected %s at column %" G_GSIZE_FORMAT
        " (found %s%.12s%s)", lx->text, expected, at + 1,
        *found ? "\"" : "the end", found, *found ? "\"" : "");
  }
  return FALSE;
}

/* Reads the next token into @lx. */
static gboolean
next (Lexer * lx)
{
  const gchar *s = lx->text;
  gsize p = lx->pos;
  guint i;

  g_clear_pointer (&lx->val, g_free);
  while (g_ascii_isspace (s[p]))
    p++;
  lx->start = p;
  if (s[p] == '\0') {
    lx->type = TOK_END;
    lx->pos = p;
    return TRUE;
  }
  if (s[p] == '(' || s[p] == ')' || s[p] == ',') {
    lx->type = s[p] == '(' ? TOK_LPAREN : s[p] == ')' ? TOK_RPAREN :
        TOK_COMMA;
    lx->pos = p + 1;
    return TRUE;
  }
  if (g_ascii_isalnum (s[p]) || s[p] == '_') {
    gsize b = p;

    while (g_ascii_isalnum (s[p]) || s[p] == '_' || s[p] == '.')
      p++;
    lx->val = g_strndup (s + b, p - b);
    lx->pos = p;
    if (g_ascii_isdigit (s[b])) {
      gchar *end = NULL;

      errno = 0;
      lx->num = g_ascii_strtoull (lx->val, &end, 0);
      if (errno != 0 || end == NULL || *end != '\0')
        return fail (lx, b, "a number (decimal, 0x hexadecimal or 0 "
            "octal, at most 2^64-1)");
      lx->type = TOK_NUM;
    } else {
      lx->type = TOK_ITEM;
    }
    return TRUE;
  }
  if (s[p] == '"' || s[p] == '\'') {
    gchar q = s[p];
    GString *str = g_string_new (NULL);

    for (p++; s[p] && s[p] != q; p++) {
      if (s[p] == '\\' && s[p + 1]) {
        p++;
        g_string_append_c (str, s[p] == 'n' ? '\n' : s[p] == 't' ? '\t' :
            s[p]);
      } else {
        g_string_append_c (str, s[p]);
      }
    }
    if (s[p] != q) {
      g_string_free (str, TRUE);
      return fail (lx, lx->start, "a closing quote");
    }
    lx->val = g_string_free (str, FALSE);
    lx->type = q == '"' ? TOK_STR : TOK_CHAR;
    lx->pos = p + 1;
    return TRUE;
  }
  for (i = 0; ops[i]; i++) {
    gsize n = strlen (ops[i]);

    if (strncmp (s + p, ops[i], n) == 0) {
      lx->val = g_strdup (ops[i]);
      lx->type = TOK_OP;
      lx->pos = p + n;
      return TRUE;
    }
  }
  return fail (lx, p, "a field name, a value, an operator or a parenthesis");
}

static gboolean
is_op (Lexer * lx, const gchar * op)
{
  return lx->type == TOK_OP && strcmp (lx->val, op) == 0;
}

static void
ast_free (FilterAst * a)
{
  if (a == NULL)
    return;
  ast_free (a->left);
  ast_free (a->right);
  g_free (a->field);
  g_free (a->str);
  if (a->has_re)
    regfree (&a->re);
  g_free (a);
}

static gboolean
cmp_op (const gchar * op, FilterCmp * cmp)
{
  static const struct {
    const gchar *op;
    FilterCmp cmp;
  } t[] = {
    {"==", FILTER_CMP_EQ}, {"!=", FILTER_CMP_NE}, {"<", FILTER_CMP_LT},
    {"<=", FILTER_CMP_LE}, {">", FILTER_CMP_GT}, {">=", FILTER_CMP_GE},
    {"=~", FILTER_CMP_REGEX}, {"!~", FILTER_CMP_NOT_REGEX},
    {"~", FILTER_CMP_GLOB},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (t); i++)
    if (strcmp (op, t[i].op) == 0) {
      *cmp = t[i].cmp;
      return TRUE;
    }
  return FALSE;
}

static FilterExp
exp_op (const gchar * op)
{
  static const gchar *const t[] = { "+", "-", "*", "/", "%", "<<", ">>",
    "&", "|", "^"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (t); i++)
    if (strcmp (op, t[i]) == 0)
      return (FilterExp) (FILTER_EXP_ADD + i);
  return FILTER_EXP_NONE;
}

/* value := NUMBER | '-' NUMBER | "string" | 'c' */
static gboolean
parse_value (Lexer * lx, FilterAst * a)
{
  gboolean neg = FALSE;

  if (!next (lx))
    return FALSE;
  if (is_op (lx, "-")) {
    neg = TRUE;
    if (!next (lx))
      return FALSE;
    if (lx->type != TOK_NUM)
      return fail (lx, lx->start, "a number after \"-\"");
  }
  switch (lx->type) {
    case TOK_NUM:
      a->num = neg ? (guint64) 0 - lx->num : lx->num;
      a->num_d = neg ? -(gdouble) lx->num : (gdouble) lx->num;
      break;
    case TOK_CHAR:
      /* One character compares as its code, unless matched as a regex
       * (libtraceevent). */
      if (strlen (lx->val) == 1 && a->cmp != FILTER_CMP_REGEX &&
          a->cmp != FILTER_CMP_NOT_REGEX && a->cmp != FILTER_CMP_GLOB) {
        a->num = (guchar) lx->val[0];
        a->num_d = a->num;
        break;
      }
      /* fall through */
    case TOK_STR:
      a->is_string = TRUE;
      a->str = g_strdup (lx->val);
      break;
    default:
      return fail (lx, lx->start, "a number or a quoted string (the right "
          "side of a comparison is a value)");
  }
  if (a->is_string && a->cmp != FILTER_CMP_EQ && a->cmp != FILTER_CMP_NE &&
      a->cmp != FILTER_CMP_REGEX && a->cmp != FILTER_CMP_NOT_REGEX &&
      a->cmp != FILTER_CMP_GLOB)
    return fail (lx, lx->start, "a number (strings compare with ==, !=, =~, "
        "!~ or ~)");
  if (!a->is_string && (a->cmp == FILTER_CMP_REGEX ||
          a->cmp == FILTER_CMP_NOT_REGEX || a->cmp == FILTER_CMP_GLOB))
    return fail (lx, lx->start, "a quoted string (=~, !~ and ~ match "
        "strings)");
  if (a->cmp == FILTER_CMP_REGEX || a->cmp == FILTER_CMP_NOT_REGEX) {
    if (!regex_affordable (a->str, strlen (a->str)))
      return fail (lx, lx->start, "a regular expression of at most 256 "
          "characters, repetition counts up to 64 and no back-reference");
    if (regcomp (&a->re, a->str, REG_ICASE | REG_NOSUB) != 0)
      return fail (lx, lx->start, "a valid POSIX basic regular expression");
    a->has_re = TRUE;
  }
  return next (lx);
}

static FilterAst *parse_expr (Lexer * lx, guint depth);

/* FIELD cmpop value | FIELD bitop NUMBER; @lx is on FIELD. */
static FilterAst *
parse_cmp (Lexer * lx)
{
  FilterAst *a = g_new0 (FilterAst, 1);

  a->type = FILTER_AST_CMP;
  a->field = g_strdup (lx->val);
  if (!next (lx))
    goto error;
  if (lx->type != TOK_OP) {
    fail (lx, lx->start, "a comparison operator after the field name");
    goto error;
  }
  if (cmp_op (lx->val, &a->cmp)) {
    if (!parse_value (lx, a))
      goto error;
    return a;
  }
  a->exp = exp_op (lx->val);
  if (a->exp == FILTER_EXP_NONE) {
    fail (lx, lx->start, "a comparison (==, !=, <, <=, >, >=, =~, !~, ~) "
        "or an operation (&, |, ^, +, -, *, /, %, <<, >>)");
    goto error;
  }
  a->cmp = FILTER_CMP_NONZERO;
  if (!next (lx))
    goto error;
  if (lx->type != TOK_NUM) {
    fail (lx, lx->start, "a number after the operation");
    goto error;
  }
  a->exp_value = lx->num;
  if (!next (lx))
    goto error;
  return a;

error:
  ast_free (a);
  return NULL;
}

/* unary := '!' unary | '(' expr ')' | comparison; @lx is on its first
 * token, and ends after it. */
static FilterAst *
parse_unary (Lexer * lx, guint depth)
{
  FilterAst *a;

  if (depth > MAX_DEPTH) {
    fail (lx, lx->start, "fewer nested parentheses and '!' (at most 64)");
    return NULL;
  }
  if (is_op (lx, "!")) {
    if (!next (lx))
      return NULL;
    a = g_new0 (FilterAst, 1);
    a->type = FILTER_AST_NOT;
    a->left = parse_unary (lx, depth + 1);
    if (a->left == NULL) {
      ast_free (a);
      return NULL;
    }
    return a;
  }
  if (lx->type == TOK_LPAREN) {
    if (!next (lx))
      return NULL;
    a = parse_expr (lx, depth + 1);
    if (a == NULL)
      return NULL;
    if (lx->type != TOK_RPAREN) {
      fail (lx, lx->start, "\")\" or && or ||");
      ast_free (a);
      return NULL;
    }
    if (!next (lx)) {
      ast_free (a);
      return NULL;
    }
    return a;
  }
  if (lx->type == TOK_ITEM)
    return parse_cmp (lx);
  fail (lx, lx->start, "a field name, \"(\" or \"!\"");
  return NULL;
}

static FilterAst *
parse_expr (Lexer * lx, guint depth)
{
  FilterAst *left = parse_unary (lx, depth);

  while (left && (is_op (lx, "&&") || is_op (lx, "||"))) {
    FilterAst *a = g_new0 (FilterAst, 1);

    a->type = is_op (lx, "&&") ? FILTER_AST_AND : FILTER_AST_OR;
    a->left = left;
    left = a;
    if (!next (lx))
      goto error;
    a->right = parse_unary (lx, depth);
    if (a->right == NULL)
      goto error;
  }
  return left;

error:
  ast_free (left);
  return NULL;
}

static void
term_free (gpointer p)
{
  FilterTerm *t = p;
  guint i;

  for (i = 0; i < t->events->len; i++) {
    FilterEventPattern *e = &g_array_index (t->events, FilterEventPattern, i);

    regfree (&e->ev);
    if (e->has_sys)
      regfree (&e->sys);
  }
  g_array_unref (t->events);
  ast_free (t->expr);
  g_free (t);
}

static gboolean
compile_anchored (regex_t * re, const gchar * s, gsize len)
{
  gchar *r;
  gboolean ok;

  if (!regex_affordable (s, len))
    return FALSE;
  r = g_strdup_printf ("^%.*s$", (int) len, s);
  ok = regcomp (re, r, REG_ICASE | REG_NOSUB) == 0;

  g_free (r);
  return ok;
}

/* One pattern of an event list, text[b, e): `SYSTEM/EVENT` or `NAME`. */
static gboolean
add_pattern (Lexer * lx, FilterTerm * t, gsize b, gsize e)
{
  const gchar *s = lx->text;
  FilterEventPattern pat = { 0, };
  const gchar *slash;

  while (b < e && g_ascii_isspace (s[b]))
    b++;
  while (e > b && g_ascii_isspace (s[e - 1]))
    e--;
  if (b == e)
    return fail (lx, b, "an event name (SYSTEM/EVENT or NAME)");
  slash = memchr (s + b, '/', e - b);
  if (slash) {
    gsize sb = b, se = slash - s, eb = se + 1, ee = e;

    while (se > sb && g_ascii_isspace (s[se - 1]))
      se--;
    while (eb < ee && g_ascii_isspace (s[eb]))
      eb++;
    if (se == sb || eb == ee)
      return fail (lx, b, "SYSTEM/EVENT with both parts");
    if (!compile_anchored (&pat.sys, s + sb, se - sb))
      return fail (lx, sb, "a valid regular expression for the system");
    if (!compile_anchored (&pat.ev, s + eb, ee - eb)) {
      regfree (&pat.sys);
      return fail (lx, eb, "a valid regular expression for the event");
    }
    pat.has_sys = TRUE;
  } else if (!compile_anchored (&pat.ev, s + b, e - b)) {
    return fail (lx, b, "a valid regular expression for the event name");
  }
  g_array_append_val (t->events, pat);
  return TRUE;
}

GstCtfFilterExpr *
gst_ctf_filter_expr_parse (const gchar * text, GError ** error)
{
  GstCtfFilterExpr *f = g_new0 (GstCtfFilterExpr, 1);
  Lexer lx = { 0, };

  lx.text = text ? text : "";
  lx.error = error;
  f->terms = g_ptr_array_new_with_free_func (term_free);
  for (;;) {
    FilterTerm *t = g_new0 (FilterTerm, 1);
    const gchar *s = lx.text;
    gsize b = lx.pos;

    t->events = g_array_new (FALSE, FALSE, sizeof (FilterEventPattern));
    g_ptr_array_add (f->terms, t);
    /* The event list: up to the ':' or the end. */
    for (;;) {
      gsize e = b;

      while (s[e] && s[e] != ',' && s[e] != ':')
        e++;
      if (!add_pattern (&lx, t, b, e))
        goto error;
      b = e + (s[e] != '\0');
      if (s[e] != ',') {
        lx.pos = b;
        break;
      }
    }
    if (b == 0 || s[b - 1] != ':') {
      lx.pos = b;
      break;                    /* the end: a term without expression */
    }
    if (!next (&lx))
      goto error;
    t->expr = parse_expr (&lx, 0);
    if (t->expr == NULL)
      goto error;
    if (lx.type == TOK_END)
      break;
    if (lx.type != TOK_COMMA) {
      fail (&lx, lx.start, "&&, ||, \",\" (next term) or the end");
      goto error;
    }
  }
  g_free (lx.val);
  return f;

error:
  g_free (lx.val);
  gst_ctf_filter_expr_free (f);
  return NULL;
}

void
gst_ctf_filter_expr_free (GstCtfFilterExpr * f)
{
  if (f == NULL)
    return;
  g_ptr_array_unref (f->terms);
  g_free (f);
}

static gboolean
re_match (const regex_t * re, const gchar * s, gsize len)
{
  gchar buf[256];
  gchar *tmp = NULL;
  gboolean m;

  if (len < sizeof (buf)) {
    memcpy (buf, s, len);
    buf[len] = '\0';
    m = regexec (re, buf, 0, NULL, 0) == 0;
  } else {
    tmp = g_strndup (s, len);
    m = regexec (re, tmp, 0, NULL, 0) == 0;
    g_free (tmp);
  }
  return m;
}

/* Whether a term names the event class @name.  trace-cmd's events have a
 * system and a name; a CTF event class name `PROVIDER:EVENT` (LTTng) has
 * them too, and a plain name is matched as a whole. */
gboolean
gst_ctf_filter_term_names (const FilterTerm * t, const gchar * name,
    const gchar * system)
{
  const gchar *colon = strchr (name, ':');
  const gchar *ev = name, *sys = system;
  gsize sys_len = system ? strlen (system) : 0;
  guint i;

  if (system == NULL && colon) {
    sys = name;
    sys_len = colon - name;
    ev = colon + 1;
  }
  for (i = 0; i < t->events->len; i++) {
    const FilterEventPattern *p = &g_array_index (t->events,
        FilterEventPattern, i);

    if (p->has_sys) {
      if (sys && re_match (&p->sys, sys, sys_len) &&
          re_match (&p->ev, ev, strlen (ev)))
        return TRUE;
    } else if (re_match (&p->ev, ev, strlen (ev)) ||
        re_match (&p->ev, name, strlen (name)) ||
        (sys && re_match (&p->ev, sys, sys_len))) {
      return TRUE;
    }
  }
  return FALSE;
}
