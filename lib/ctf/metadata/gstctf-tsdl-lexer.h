/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: TSDL lexer (private).
 *
 * Splits CTF 1.8 TSDL text (CTF 1.8 §7.1 "Metadata", Appendix C
 * "TSDL grammar", lexical part C.1) into tokens.  Keywords are returned as
 * identifiers (the parser compares them): TSDL lets most keywords appear as
 * names in places (`name = string;`, enum labels, dotted paths).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  TSDL_TOK_EOF = 0,
  TSDL_TOK_IDENT,               /* identifier or keyword */
  TSDL_TOK_INTEGER,             /* integer literal, value in .u64 */
  TSDL_TOK_STRING,              /* "string" literal, unescaped in .str */
  TSDL_TOK_CHAR,                /* 'c' literal, unescaped in .str */
  TSDL_TOK_LBRACE,              /* { */
  TSDL_TOK_RBRACE,              /* } */
  TSDL_TOK_LBRACKET,            /* [ */
  TSDL_TOK_RBRACKET,            /* ] */
  TSDL_TOK_LPAREN,              /* ( */
  TSDL_TOK_RPAREN,              /* ) */
  TSDL_TOK_SEMICOLON,           /* ; */
  TSDL_TOK_COMMA,               /* , */
  TSDL_TOK_COLON,               /* : */
  TSDL_TOK_TYPEASSIGN,          /* := */
  TSDL_TOK_ASSIGN,              /* = */
  TSDL_TOK_DOT,                 /* . */
  TSDL_TOK_ELLIPSIS,            /* ... */
  TSDL_TOK_ARROW,               /* -> */
  TSDL_TOK_LT,                  /* < */
  TSDL_TOK_GT,                  /* > */
  TSDL_TOK_PLUS,                /* + */
  TSDL_TOK_MINUS,               /* - */
  TSDL_TOK_STAR,                /* * */
} TsdlTokenType;

typedef struct {
  TsdlTokenType type;
  guint line;                   /* 1-based */
  guint column;                 /* 1-based, in bytes */
  gchar *str;                   /* IDENT, STRING, CHAR: owned */
  guint64 u64;                  /* INTEGER */
} TsdlToken;

typedef struct {
  const gchar *text;
  const gchar *pos;
  guint line;
  const gchar *line_start;
  const gchar *origin;
  /* a string or character literal was not UTF-8 (the TSDL writer would
   * not write it back as it is) */
  gboolean not_utf8;
} TsdlLexer;

/* Longest accepted string literal or identifier, in bytes. */
#define TSDL_MAX_TOKEN_LEN (1024 * 1024)

void tsdl_lexer_init (TsdlLexer * lex, const gchar * text,
    const gchar * origin);

/* Reads the next token into @tok (whose previous contents are cleared).
 * Returns FALSE with a GST_CTF_ERROR_METADATA_SYNTAX error on invalid
 * input (unterminated comment/string, bad escape, integer overflow,
 * stray character). */
gboolean tsdl_lexer_next (TsdlLexer * lex, TsdlToken * tok, GError ** error);

void tsdl_token_clear (TsdlToken * tok);

const gchar *tsdl_token_type_name (TsdlTokenType type);

G_END_DECLS
