/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: TSDL lexer (CTF 1.8 Appendix C.1, lexical grammar).
 *
 * Tokens: identifiers/keywords, integer literals (decimal, 0x hex, 0 octal,
 * U/L suffixes; a minus sign is a separate token), string and character
 * literals with C escapes (\' \" \? \\ \a \b \f \n \r \t \v, 1-3 octal
 * digits, \xHH.., \uHHHH, \UHHHHHHHH, as babeltrace's lexer accepts),
 * punctuators including `:=`, `...` and `->`.  Comments are `/ * * /` and
 * `//`; CR, LF and CRLF line ends are all accepted.  Lines and columns are
 * 1-based, columns count bytes.
 */
#include "gstctf-tsdl-lexer.h"
#include "gstctf-error.h"

#include <string.h>

void
tsdl_lexer_init (TsdlLexer * lex, const gchar * text, const gchar * origin)
{
  lex->text = text;
  lex->pos = text;
  lex->line = 1;
  lex->line_start = text;
  lex->origin = origin;
  lex->not_utf8 = FALSE;
}

void
tsdl_token_clear (TsdlToken * tok)
{
  g_free (tok->str);
  memset (tok, 0, sizeof (*tok));
}

const gchar *
tsdl_token_type_name (TsdlTokenType type)
{
  switch (type) {
    case TSDL_TOK_EOF:
      return "end of metadata";
    case TSDL_TOK_IDENT:
      return "identifier";
    case TSDL_TOK_INTEGER:
      return "integer";
    case TSDL_TOK_STRING:
      return "string literal";
    case TSDL_TOK_CHAR:
      return "character literal";
    case TSDL_TOK_LBRACE:
      return "`{`";
    case TSDL_TOK_RBRACE:
      return "`}`";
    case TSDL_TOK_LBRACKET:
      return "`[`";
    case TSDL_TOK_RBRACKET:
      return "`]`";
    case TSDL_TOK_LPAREN:
      return "`(`";
    case TSDL_TOK_RPAREN:
      return "`)`";
    case TSDL_TOK_SEMICOLON:
      return "`;`";
    case TSDL_TOK_COMMA:
      return "`,`";
    case TSDL_TOK_COLON:
      return "`:`";
    case TSDL_TOK_TYPEASSIGN:
      return "`:=`";
    case TSDL_TOK_ASSIGN:
      return "`=`";
    case TSDL_TOK_DOT:
      return "`.`";
    case TSDL_TOK_ELLIPSIS:
      return "`...`";
    case TSDL_TOK_ARROW:
      return "`->`";
    case TSDL_TOK_LT:
      return "`<`";
    case TSDL_TOK_GT:
      return "`>`";
    case TSDL_TOK_PLUS:
      return "`+`";
    case TSDL_TOK_MINUS:
      return "`-`";
    case TSDL_TOK_STAR:
      return "`*`";
  }
  return "token";
}

static gboolean
lex_error (TsdlLexer * lex, const gchar * at, GError ** error,
    const gchar * what)
{
  guint line = lex->line;
  guint col = (guint) (at - lex->line_start) + 1;

  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_SYNTAX,
      "Invalid metadata: file=\"%s\", line %u, column %u: %s",
      lex->origin ? lex->origin : "(memory)", line, col, what);
  return FALSE;
}

/* Consumes a line end at lex->pos (LF, CR or CRLF). */
static void
newline (TsdlLexer * lex)
{
  if (lex->pos[0] == '\r' && lex->pos[1] == '\n')
    lex->pos += 2;
  else
    lex->pos++;
  lex->line++;
  lex->line_start = lex->pos;
}

static gboolean
skip_space_and_comments (TsdlLexer * lex, GError ** error)
{
  for (;;) {
    gchar c = *lex->pos;

    if (c == '\n' || c == '\r') {
      newline (lex);
    } else if (c == ' ' || c == '\t' || c == '\v' || c == '\f') {
      lex->pos++;
    } else if (c == '/' && lex->pos[1] == '*') {
      const gchar *start = lex->pos;
      guint start_line = lex->line;
      const gchar *start_ls = lex->line_start;

      lex->pos += 2;
      for (;;) {
        if (*lex->pos == '\0') {
          lex->line = start_line;
          lex->line_start = start_ls;
          return lex_error (lex, start, error, "unterminated comment");
        }
        if (lex->pos[0] == '*' && lex->pos[1] == '/') {
          lex->pos += 2;
          break;
        }
        if (*lex->pos == '\n' || *lex->pos == '\r')
          newline (lex);
        else
          lex->pos++;
      }
    } else if (c == '/' && lex->pos[1] == '/') {
      while (*lex->pos != '\0' && *lex->pos != '\n' && *lex->pos != '\r')
        lex->pos++;
    } else {
      return TRUE;
    }
  }
}

static gint
hexval (gchar c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
lex_quoted (TsdlLexer * lex, TsdlToken * tok, GError ** error)
{
  gchar quote = *lex->pos;
  const gchar *start = lex->pos;
  GString *s = g_string_new (NULL);

  lex->pos++;
  for (;;) {
    gchar c = *lex->pos;

    if (c == '\0' || c == '\n' || c == '\r') {
      g_string_free (s, TRUE);
      return lex_error (lex, start, error, quote == '"' ?
          "unterminated string literal" : "unterminated character literal");
    }
    if (s->len > TSDL_MAX_TOKEN_LEN) {
      g_string_free (s, TRUE);
      return lex_error (lex, start, error, "string literal too long");
    }
    if (c == quote) {
      lex->pos++;
      break;
    }
    if (c != '\\') {
      g_string_append_c (s, c);
      lex->pos++;
      continue;
    }
    /* escape sequence */
    lex->pos++;
    c = *lex->pos;
    switch (c) {
      case '\'':
      case '"':
      case '?':
      case '\\':
        g_string_append_c (s, c);
        lex->pos++;
        break;
      case 'a':
        g_string_append_c (s, '\a');
        lex->pos++;
        break;
      case 'b':
        g_string_append_c (s, '\b');
        lex->pos++;
        break;
      case 'f':
        g_string_append_c (s, '\f');
        lex->pos++;
        break;
      case 'n':
        g_string_append_c (s, '\n');
        lex->pos++;
        break;
      case 'r':
        g_string_append_c (s, '\r');
        lex->pos++;
        break;
      case 't':
        g_string_append_c (s, '\t');
        lex->pos++;
        break;
      case 'v':
        g_string_append_c (s, '\v');
        lex->pos++;
        break;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':{
        guint v = 0, n = 0;

        while (n < 3 && *lex->pos >= '0' && *lex->pos <= '7') {
          v = v * 8 + (guint) (*lex->pos - '0');
          lex->pos++;
          n++;
        }
        g_string_append_c (s, (gchar) (v & 0xff));
        break;
      }
      case 'x':{
        guint v = 0, n = 0;

        lex->pos++;
        while (hexval (*lex->pos) >= 0) {
          v = ((v << 4) | (guint) hexval (*lex->pos)) & 0xff;
          lex->pos++;
          n++;
        }
        if (n == 0) {
          g_string_free (s, TRUE);
          return lex_error (lex, lex->pos, error,
              "invalid \\x escape sequence: expected hexadecimal digits");
        }
        g_string_append_c (s, (gchar) v);
        break;
      }
      case 'u':
      case 'U':{
        guint want = c == 'u' ? 4 : 8, n;
        gunichar v = 0;

        lex->pos++;
        for (n = 0; n < want; n++) {
          if (hexval (lex->pos[n]) < 0) {
            g_string_free (s, TRUE);
            return lex_error (lex, lex->pos, error,
                "invalid universal character name escape sequence");
          }
          v = (v << 4) | (gunichar) hexval (lex->pos[n]);
        }
        lex->pos += want;
        if (!g_unichar_validate (v)) {
          g_string_free (s, TRUE);
          return lex_error (lex, lex->pos, error,
              "invalid universal character name");
        }
        g_string_append_unichar (s, v);
        break;
      }
      default:
        g_string_free (s, TRUE);
        return lex_error (lex, lex->pos - 1, error,
            "invalid escape sequence in literal");
    }
  }
  tok->type = quote == '"' ? TSDL_TOK_STRING : TSDL_TOK_CHAR;
  if (!g_utf8_validate_len (s->str, s->len, NULL))
    lex->not_utf8 = TRUE;
  tok->str = g_string_free (s, FALSE);
  return TRUE;
}

static gboolean
is_ident_start (gchar c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static gboolean
is_ident_char (gchar c)
{
  return is_ident_start (c) || (c >= '0' && c <= '9');
}

static gboolean
lex_number (TsdlLexer * lex, TsdlToken * tok, GError ** error)
{
  const gchar *start = lex->pos;
  guint base = 10;
  guint64 v = 0;
  guint ndigits = 0;

  if (lex->pos[0] == '0' && (lex->pos[1] == 'x' || lex->pos[1] == 'X')) {
    base = 16;
    lex->pos += 2;
  } else if (lex->pos[0] == '0') {
    base = 8;
    lex->pos++;
    ndigits = 1;                /* `0` alone is a valid octal literal */
  }
  for (;;) {
    gint d = hexval (*lex->pos);

    if (d < 0 || (guint) d >= base) {
      if (d >= 0 && base != 16 && (*lex->pos >= '0' && *lex->pos <= '9'))
        return lex_error (lex, lex->pos, error,
            "invalid digit in octal integer literal");
      break;
    }
    if (v > (G_MAXUINT64 - (guint64) d) / base)
      return lex_error (lex, start, error,
          "integer literal does not fit in 64 bits");
    v = v * base + (guint64) d;
    ndigits++;
    lex->pos++;
  }
  if (ndigits == 0)
    return lex_error (lex, start, error, "invalid integer literal");
  /* C integer suffixes, as babeltrace accepts them (U, L, LL, UL, ...). */
  while (*lex->pos == 'u' || *lex->pos == 'U' || *lex->pos == 'l'
      || *lex->pos == 'L')
    lex->pos++;
  if (is_ident_char (*lex->pos))
    return lex_error (lex, lex->pos, error,
        "invalid character after integer literal");
  tok->type = TSDL_TOK_INTEGER;
  tok->u64 = v;
  return TRUE;
}

gboolean
tsdl_lexer_next (TsdlLexer * lex, TsdlToken * tok, GError ** error)
{
  gchar c;

  tsdl_token_clear (tok);
  if (!skip_space_and_comments (lex, error))
    return FALSE;

  tok->line = lex->line;
  tok->column = (guint) (lex->pos - lex->line_start) + 1;
  c = *lex->pos;

  if (c == '\0') {
    tok->type = TSDL_TOK_EOF;
    return TRUE;
  }
  if (is_ident_start (c)) {
    const gchar *start = lex->pos;

    while (is_ident_char (*lex->pos))
      lex->pos++;
    if (lex->pos - start > TSDL_MAX_TOKEN_LEN)
      return lex_error (lex, start, error, "identifier too long");
    tok->type = TSDL_TOK_IDENT;
    tok->str = g_strndup (start, lex->pos - start);
    return TRUE;
  }
  if (c >= '0' && c <= '9')
    return lex_number (lex, tok, error);
  if (c == '"' || c == '\'')
    return lex_quoted (lex, tok, error);

  lex->pos++;
  switch (c) {
    case '{':
      tok->type = TSDL_TOK_LBRACE;
      return TRUE;
    case '}':
      tok->type = TSDL_TOK_RBRACE;
      return TRUE;
    case '[':
      tok->type = TSDL_TOK_LBRACKET;
      return TRUE;
    case ']':
      tok->type = TSDL_TOK_RBRACKET;
      return TRUE;
    case '(':
      tok->type = TSDL_TOK_LPAREN;
      return TRUE;
    case ')':
      tok->type = TSDL_TOK_RPAREN;
      return TRUE;
    case ';':
      tok->type = TSDL_TOK_SEMICOLON;
      return TRUE;
    case ',':
      tok->type = TSDL_TOK_COMMA;
      return TRUE;
    case ':':
      if (*lex->pos == '=') {
        lex->pos++;
        tok->type = TSDL_TOK_TYPEASSIGN;
      } else {
        tok->type = TSDL_TOK_COLON;
      }
      return TRUE;
    case '=':
      tok->type = TSDL_TOK_ASSIGN;
      return TRUE;
    case '.':
      if (lex->pos[0] == '.' && lex->pos[1] == '.') {
        lex->pos += 2;
        tok->type = TSDL_TOK_ELLIPSIS;
      } else {
        tok->type = TSDL_TOK_DOT;
      }
      return TRUE;
    case '-':
      if (*lex->pos == '>') {
        lex->pos++;
        tok->type = TSDL_TOK_ARROW;
      } else {
        tok->type = TSDL_TOK_MINUS;
      }
      return TRUE;
    case '<':
      tok->type = TSDL_TOK_LT;
      return TRUE;
    case '>':
      tok->type = TSDL_TOK_GT;
      return TRUE;
    case '+':
      tok->type = TSDL_TOK_PLUS;
      return TRUE;
    case '*':
      tok->type = TSDL_TOK_STAR;
      return TRUE;
    default:
      break;
  }
  lex->pos--;
  return lex_error (lex, lex->pos, error, "unexpected character");
}
