/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Filter plans: the conditions on the events of one event class, with
 * field names resolved once to positions in the decoded scopes (the flat
 * pre-order value arrays of gstctf-reader.h) and the parts that do not
 * depend on values folded away, so most event classes are decided
 * without looking at an event.
 *
 * Comparisons follow libtraceevent's (parse-filter.c): integers compare
 * as unsigned 64-bit values, signed fields sign-extended first;
 * `FIELD OP NUMBER` alone is true when not 0; strings compare up to
 * their first NUL; a string compared with an integer field compares with
 * its "0x%llx" text.  Additions: a string compared with an enumeration
 * compares with its labels (any label, as babeltrace2 prints them all),
 * floats compare as doubles.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-unicode-private.h"

#include <fnmatch.h>
#include <string.h>

#include "gstctf-filter-private.h"

#define N_SCOPES (GST_CTF_SCOPE_EVENT_PAYLOAD + 1)
#define MAX_PATH 8

typedef enum {
  NODE_FALSE,
  NODE_TRUE,
  NODE_AND,
  NODE_OR,
  NODE_NOT,
  NODE_INT,                     /* integer or enum compared with a number */
  NODE_FLOAT,
  NODE_STR,                     /* string or text array with a string */
  NODE_ENUM_STR,                /* enumeration labels with a string */
  NODE_INT_STR,                 /* integer as "0x%llx" with a string */
  NODE_IDS,                     /* integer in an id list */
} NodeType;

typedef struct {
  guint scope;
  guint depth;                  /* members below the scope's root */
  guint path[MAX_PATH];         /* member index at each level */
} FieldRef;

typedef struct _Node Node;

struct _Node {
  NodeType type;
  Node *l, *r;
  FieldRef ref;
  const FilterAst *ast;
  const GstCtfFieldClass *fc;
  const GstCtfIdList *ids;
};

struct _GstCtfFilterPlan {
  const GstCtfStreamClass *sc;
  const GstCtfEventClass *ec;
  GPtrArray *conds;             /* Node *, all must hold */
  gboolean never;
  GString *scratch;
};

static void
node_free (Node * n)
{
  if (n == NULL)
    return;
  node_free (n->l);
  node_free (n->r);
  g_free (n);
}

static Node *
node_const (gboolean v)
{
  Node *n = g_new0 (Node, 1);

  n->type = v ? NODE_TRUE : NODE_FALSE;
  return n;
}

GstCtfFilterPlan *
gst_ctf_filter_plan_new (const GstCtfStreamClass * sc,
    const GstCtfEventClass * ec)
{
  GstCtfFilterPlan *p = g_new0 (GstCtfFilterPlan, 1);

  p->sc = sc;
  p->ec = ec;
  p->conds = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  p->scratch = g_string_new (NULL);
  return p;
}

void
gst_ctf_filter_plan_free (GstCtfFilterPlan * p)
{
  if (p == NULL)
    return;
  g_ptr_array_unref (p->conds);
  g_string_free (p->scratch, TRUE);
  g_free (p);
}

/* ------------------------------------------------------------------ */
/* Field names */

static const GstCtfFieldClass *
scope_root (const GstCtfFilterPlan * p, guint scope)
{
  switch (scope) {
    case GST_CTF_SCOPE_EVENT_PAYLOAD:
      return p->ec->payload;
    case GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT:
      return p->ec->context;
    case GST_CTF_SCOPE_EVENT_COMMON_CONTEXT:
      return p->sc ? p->sc->event_common_context : NULL;
    case GST_CTF_SCOPE_PACKET_CONTEXT:
      return p->sc ? p->sc->packet_context : NULL;
    default:
      return NULL;
  }
}

/* A member named @name (len bytes) as written, or as babeltrace2 shows
 * it (one leading underscore less, CTF 1.8 §4.2.2). */
static gint
find_member (const GstCtfFieldClass * fc, const gchar * name, gsize len)
{
  guint i;

  if (fc == NULL || fc->type != GST_CTF_FIELD_CLASS_STRUCT)
    return -1;
  for (i = 0; i < fc->n_members; i++) {
    const gchar *m = fc->members[i].name;

    if ((strncmp (m, name, len) == 0 && m[len] == '\0') ||
        (m[0] == '_' && strncmp (m + 1, name, len) == 0 && m[len + 1] == '\0'))
      return (gint) i;
  }
  return -1;
}

/* Resolves `a.b.c` in one scope. */
static const GstCtfFieldClass *
resolve_in (const GstCtfFilterPlan * p, guint scope, const gchar * name,
    FieldRef * ref)
{
  const GstCtfFieldClass *fc = scope_root (p, scope);
  const gchar *s = name;

  ref->scope = scope;
  ref->depth = 0;
  while (fc) {
    const gchar *dot = strchr (s, '.');
    gsize len = dot ? (gsize) (dot - s) : strlen (s);
    gint m = find_member (fc, s, len);

    if (m < 0 || ref->depth == MAX_PATH)
      return NULL;
    ref->path[ref->depth++] = (guint) m;
    fc = fc->members[m].fc;
    if (dot == NULL)
      return fc;
    s = dot + 1;
  }
  return NULL;
}

static const GstCtfFieldClass *
resolve (const GstCtfFilterPlan * p, const gchar * name, FieldRef * ref)
{
  static const guint order[] = { GST_CTF_SCOPE_EVENT_PAYLOAD,
    GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
    GST_CTF_SCOPE_PACKET_CONTEXT
  };
  const GstCtfFieldClass *fc;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (order); i++)
    if ((fc = resolve_in (p, order[i], name, ref)))
      return fc;
  /* libtraceevent's own names */
  if (strcmp (name, "CPU") == 0)
    return resolve (p, "cpu_id", ref);
  if (strcmp (name, "COMM") == 0)
    return resolve (p, "procname", ref);
  return NULL;
}

static gboolean
is_text (const GstCtfFieldClass * fc)
{
  const GstCtfFieldClass *el = fc->element;

  if (fc->type == GST_CTF_FIELD_CLASS_STRING)
    return TRUE;
  return (fc->type == GST_CTF_FIELD_CLASS_ARRAY ||
      fc->type == GST_CTF_FIELD_CLASS_SEQUENCE) && el &&
      el->type == GST_CTF_FIELD_CLASS_INTEGER && el->integer.size == 8 &&
      el->integer.encoding != GST_CTF_ENCODING_NONE &&
      el->alignment % 8 == 0;
}

/* ------------------------------------------------------------------ */
/* Compiling */

static Node *
compile_cmp (const GstCtfFilterPlan * p, const FilterAst * a)
{
  FieldRef ref;
  const GstCtfFieldClass *fc = resolve (p, a->field, &ref);
  NodeType t;
  Node *n;

  if (fc == NULL)
    return node_const (FALSE);  /* libtraceevent: an unknown field is false */
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
      t = a->is_string ? NODE_INT_STR : NODE_INT;
      break;
    case GST_CTF_FIELD_CLASS_ENUM:
      t = a->is_string ? NODE_ENUM_STR : NODE_INT;
      break;
    case GST_CTF_FIELD_CLASS_FLOAT:
      if (a->is_string)
        return node_const (FALSE);
      t = NODE_FLOAT;
      break;
    default:
      if (!is_text (fc) || !a->is_string)
        return node_const (FALSE);
      t = NODE_STR;
      break;
  }
  n = g_new0 (Node, 1);
  n->type = t;
  n->ref = ref;
  n->ast = a;
  n->fc = fc;
  return n;
}

/* Compiles @a, folding constants as libtraceevent's collapse_tree(). */
static Node *
compile (const GstCtfFilterPlan * p, const FilterAst * a)
{
  Node *l, *r, *n;

  switch (a->type) {
    case FILTER_AST_CMP:
      return compile_cmp (p, a);
    case FILTER_AST_NOT:
      l = compile (p, a->left);
      if (l->type == NODE_TRUE || l->type == NODE_FALSE) {
        l->type = l->type == NODE_TRUE ? NODE_FALSE : NODE_TRUE;
        return l;
      }
      n = g_new0 (Node, 1);
      n->type = NODE_NOT;
      n->l = l;
      return n;
    default:{
      gboolean is_and = a->type == FILTER_AST_AND;
      NodeType absorbing = is_and ? NODE_FALSE : NODE_TRUE;
      NodeType neutral = is_and ? NODE_TRUE : NODE_FALSE;

      l = compile (p, a->left);
      if (l->type == absorbing)
        return l;
      r = compile (p, a->right);
      if (l->type == neutral || r->type == absorbing) {
        node_free (l);
        return r;
      }
      if (r->type == neutral) {
        node_free (r);
        return l;
      }
      n = g_new0 (Node, 1);
      n->type = is_and ? NODE_AND : NODE_OR;
      n->l = l;
      n->r = r;
      return n;
    }
  }
}

static void
add_cond (GstCtfFilterPlan * p, Node * n)
{
  if (n->type == NODE_TRUE) {
    node_free (n);
  } else if (n->type == NODE_FALSE) {
    node_free (n);
    p->never = TRUE;
  } else {
    g_ptr_array_add (p->conds, n);
  }
}

void
gst_ctf_filter_plan_add_expr (GstCtfFilterPlan * p,
    const GstCtfFilterExpr * expr, const gchar * system, gboolean negate)
{
  Node *any = node_const (FALSE);
  guint i;

  /* The terms that name the event, OR'ed (several -F of trace-cmd). */
  for (i = 0; i < expr->terms->len && any->type != NODE_TRUE; i++) {
    const FilterTerm *t = g_ptr_array_index (expr->terms, i);
    Node *c, *n;

    if (!gst_ctf_filter_term_names (t, p->ec->name, system))
      continue;
    c = t->expr ? compile (p, t->expr) : node_const (TRUE);
    if (c->type == NODE_FALSE) {
      node_free (c);
    } else if (any->type == NODE_FALSE || c->type == NODE_TRUE) {
      node_free (any);
      any = c;
    } else {
      n = g_new0 (Node, 1);
      n->type = NODE_OR;
      n->l = any;
      n->r = c;
      any = n;
    }
  }
  if (negate) {
    if (any->type == NODE_TRUE || any->type == NODE_FALSE) {
      any->type = any->type == NODE_TRUE ? NODE_FALSE : NODE_TRUE;
    } else {
      Node *n = g_new0 (Node, 1);

      n->type = NODE_NOT;
      n->l = any;
      any = n;
    }
  }
  add_cond (p, any);
}

void
gst_ctf_filter_plan_add_id_field (GstCtfFilterPlan * p,
    const gchar * const *names, const GstCtfIdList * ids)
{
  static const guint order[] = { GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
    GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT
  };
  guint i, s;

  for (i = 0; names[i]; i++) {
    for (s = 0; s < G_N_ELEMENTS (order); s++) {
      FieldRef ref;
      const GstCtfFieldClass *fc = resolve_in (p, order[s], names[i], &ref);

      if (fc && (fc->type == GST_CTF_FIELD_CLASS_INTEGER ||
              fc->type == GST_CTF_FIELD_CLASS_ENUM)) {
        Node *n = g_new0 (Node, 1);

        n->type = NODE_IDS;
        n->ref = ref;
        n->fc = fc;
        n->ids = ids;
        add_cond (p, n);
        return;
      }
    }
  }
  add_cond (p, node_const (FALSE));
}

GstCtfFilterPlanKind
gst_ctf_filter_plan_get_kind (const GstCtfFilterPlan * p)
{
  if (p->never)
    return GST_CTF_FILTER_PLAN_NEVER;
  return p->conds->len == 0 ? GST_CTF_FILTER_PLAN_ALWAYS :
      GST_CTF_FILTER_PLAN_EVAL;
}

/* ------------------------------------------------------------------ */
/* Evaluating */

static const GstCtfFieldValue *
lookup (const FieldRef * ref, const GstCtfFieldValue * const *scopes,
    const guint * n_values)
{
  const GstCtfFieldValue *v = scopes[ref->scope];
  guint n = n_values[ref->scope], i = 0, d, k;

  if (v == NULL || n == 0)
    return NULL;
  for (d = 0; d < ref->depth; d++) {
    guint end = MIN (v[i].end, n);

    i++;                        /* first member */
    for (k = 0; k < ref->path[d] && i < end; k++)
      i = v[i].end;
    if (i >= end)
      return NULL;
  }
  return &v[i];
}

static guint64
apply_exp (FilterExp e, guint64 a, guint64 b)
{
  switch (e) {
    case FILTER_EXP_ADD:
      return a + b;
    case FILTER_EXP_SUB:
      return a - b;
    case FILTER_EXP_MUL:
      return a * b;
    case FILTER_EXP_DIV:
      return b ? a / b : 0;
    case FILTER_EXP_MOD:
      return b ? a % b : 0;
    case FILTER_EXP_SHL:
      return b < 64 ? a << b : 0;
    case FILTER_EXP_SHR:
      return b < 64 ? a >> b : 0;
    case FILTER_EXP_AND:
      return a & b;
    case FILTER_EXP_OR:
      return a | b;
    case FILTER_EXP_XOR:
      return a ^ b;
    default:
      return a;
  }
}

static gboolean
cmp_u64 (FilterCmp c, guint64 a, guint64 b)
{
  switch (c) {
    case FILTER_CMP_EQ:
      return a == b;
    case FILTER_CMP_NE:
      return a != b;
    case FILTER_CMP_LT:
      return a < b;
    case FILTER_CMP_LE:
      return a <= b;
    case FILTER_CMP_GT:
      return a > b;
    case FILTER_CMP_GE:
      return a >= b;
    case FILTER_CMP_NONZERO:
      return a != 0;
    default:
      return FALSE;
  }
}

static gboolean
cmp_double (FilterCmp c, gdouble a, gdouble b)
{
  switch (c) {
    case FILTER_CMP_EQ:
      return a == b;
    case FILTER_CMP_NE:
      return a != b;
    case FILTER_CMP_LT:
      return a < b;
    case FILTER_CMP_LE:
      return a <= b;
    case FILTER_CMP_GT:
      return a > b;
    case FILTER_CMP_GE:
      return a >= b;
    default:
      return FALSE;
  }
}

/* @s is NUL-terminated. */
static gboolean
cmp_str (const FilterAst * a, const gchar * s)
{
  switch (a->cmp) {
    case FILTER_CMP_EQ:
      return strcmp (s, a->str) == 0;
    case FILTER_CMP_NE:
      return strcmp (s, a->str) != 0;
    case FILTER_CMP_REGEX:
      return regexec (&a->re, s, 0, NULL, 0) == 0;
    case FILTER_CMP_NOT_REGEX:
      return regexec (&a->re, s, 0, NULL, 0) != 0;
    case FILTER_CMP_GLOB:
      return fnmatch (a->str, s, 0) == 0;
    default:
      return FALSE;
  }
}

/* For != and !~, "no label" is what must hold for all labels. */
static gboolean
cmp_labels (const FilterAst * a, const GstCtfFieldClass * fc, guint64 u)
{
  gboolean negative = a->cmp == FILTER_CMP_NE ||
      a->cmp == FILTER_CMP_NOT_REGEX;
  guint i;

  for (i = 0; i < fc->enumeration.n_mappings; i++) {
    const GstCtfEnumMapping *m = &fc->enumeration.mappings[i];
    gboolean in = fc->integer.is_signed ?
        (gint64) u >= (gint64) m->lower && (gint64) u <= (gint64) m->upper :
        u >= m->lower && u <= m->upper;

    if (in && cmp_str (a, m->label) != negative)
      return !negative;
  }
  return negative;
}

static gboolean
eval (GstCtfFilterPlan * p, const Node * n,
    const GstCtfFieldValue * const *scopes, const guint * n_values)
{
  const GstCtfFieldValue *v;

  switch (n->type) {
    case NODE_FALSE:
      return FALSE;
    case NODE_TRUE:
      return TRUE;
    case NODE_AND:
      return eval (p, n->l, scopes, n_values) &&
          eval (p, n->r, scopes, n_values);
    case NODE_OR:
      return eval (p, n->l, scopes, n_values) ||
          eval (p, n->r, scopes, n_values);
    case NODE_NOT:
      return !eval (p, n->l, scopes, n_values);
    default:
      break;
  }
  v = lookup (&n->ref, scopes, n_values);
  if (G_UNLIKELY (v == NULL || v->fc == NULL || v->fc->type != n->fc->type))
    return FALSE;
  switch (n->type) {
    case NODE_INT:
      return cmp_u64 (n->ast->cmp, apply_exp (n->ast->exp, v->v.u,
              n->ast->exp_value), n->ast->num);
    case NODE_FLOAT:
      if (n->ast->cmp == FILTER_CMP_NONZERO)
        return apply_exp (n->ast->exp, (guint64) (gint64) v->v.d,
            n->ast->exp_value) != 0;
      return cmp_double (n->ast->cmp, v->v.d, n->ast->num_d);
    case NODE_IDS:
      return (!n->fc->integer.is_signed || v->v.i >= 0) &&
          gst_ctf_id_list_contains (n->ids, v->v.u);
    case NODE_ENUM_STR:
      return cmp_labels (n->ast, n->fc, v->v.u);
    case NODE_INT_STR:
      g_string_printf (p->scratch, "0x%" G_GINT64_MODIFIER "x", v->v.u);
      return cmp_str (n->ast, p->scratch->str);
    case NODE_STR:{
      g_string_truncate (p->scratch, 0);
      _gst_ctf_text_append_utf8 (p->scratch,
          _gst_ctf_field_class_text_encoding (v->fc), v->v.s.ptr,
          v->v.s.len);
      return cmp_str (n->ast, p->scratch->str);
    }
    default:
      return FALSE;
  }
}

gboolean
gst_ctf_filter_plan_matches (GstCtfFilterPlan * p,
    const GstCtfFieldValue * const *scopes, const guint * n_values)
{
  guint i;

  if (p->never)
    return FALSE;
  for (i = 0; i < p->conds->len; i++)
    if (!eval (p, g_ptr_array_index (p->conds, i), scopes, n_values))
      return FALSE;
  return TRUE;
}
