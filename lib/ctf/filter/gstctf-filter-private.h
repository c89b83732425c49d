/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The parsed form of a trace-cmd `-F` filter, shared by the parser
 * (gstctf-filter-expr.c) and the per-event-class compiler and evaluator
 * (gstctf-filter-plan.c).
 */
#pragma once

#include <regex.h>

#include "gstctf-filter-expr.h"

G_BEGIN_DECLS

typedef enum {
  FILTER_AST_AND,
  FILTER_AST_OR,
  FILTER_AST_NOT,
  FILTER_AST_CMP,
} FilterAstType;

typedef enum {
  FILTER_CMP_EQ,
  FILTER_CMP_NE,
  FILTER_CMP_LT,
  FILTER_CMP_LE,
  FILTER_CMP_GT,
  FILTER_CMP_GE,
  FILTER_CMP_REGEX,             /* =~ */
  FILTER_CMP_NOT_REGEX,         /* !~ */
  FILTER_CMP_GLOB,              /* ~ (the kernel's event filter glob) */
  FILTER_CMP_NONZERO,           /* FIELD BITOP NUMBER alone */
} FilterCmp;

typedef enum {
  FILTER_EXP_NONE,
  FILTER_EXP_ADD,
  FILTER_EXP_SUB,
  FILTER_EXP_MUL,
  FILTER_EXP_DIV,
  FILTER_EXP_MOD,
  FILTER_EXP_SHL,
  FILTER_EXP_SHR,
  FILTER_EXP_AND,
  FILTER_EXP_OR,
  FILTER_EXP_XOR,
} FilterExp;

typedef struct _FilterAst FilterAst;

struct _FilterAst {
  FilterAstType type;
  FilterAst *left, *right;      /* AND, OR; NOT uses left */
  /* CMP */
  gchar *field;
  FilterCmp cmp;
  FilterExp exp;
  guint64 exp_value;
  gboolean is_string;           /* the value is @str, else @num */
  guint64 num;                  /* as libtraceevent: strtoull() bits */
  gdouble num_d;                /* the same number, for float fields */
  gchar *str;
  regex_t re;                   /* REGEX / NOT_REGEX */
  gboolean has_re;
};

typedef struct {
  regex_t sys;
  regex_t ev;
  gboolean has_sys;             /* SYSTEM/EVENT, else NAME */
} FilterEventPattern;

typedef struct {
  GArray *events;               /* FilterEventPattern */
  FilterAst *expr;              /* NULL: every event it names */
} FilterTerm;

struct _GstCtfFilterExpr {
  GPtrArray *terms;             /* FilterTerm */
};

G_GNUC_INTERNAL gboolean gst_ctf_filter_term_names (const FilterTerm * t,
    const gchar * name, const gchar * system);

G_END_DECLS
