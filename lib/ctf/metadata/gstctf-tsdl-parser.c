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
 *
 * Files: gstctf-tsdl-parser.c (this one) parses blocks and the top level
 * and attaches streams and events; gstctf-tsdl-types.c parses type
 * specifiers and declarations; gstctf-tsdl-parser-core.c has the token,
 * error, scope and value helpers (gstctf-tsdl-parser-private.h).
 */
#include "gstctf-metadata.h"
#include "gstctf-tsdl-parser-private.h"
#include "gstctf-model-private.h"

#include <string.h>

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
    return _gst_ctf_tsdl_invalid_error (p, line, "`%s` must be a structure",
        key);
  }
  if (*slot != NULL) {
    gst_ctf_field_class_free (fc);
    return _gst_ctf_tsdl_invalid_error (p, line, "duplicate `%s`", key);
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
        if (!_gst_ctf_tsdl_value_to_uint (p, v, line, key, &u))
          return FALSE;
        tc->major = (guint) MIN (u, G_MAXUINT);
      } else if (strcmp (key, "minor") == 0) {
        if (!_gst_ctf_tsdl_value_to_uint (p, v, line, key, &u))
          return FALSE;
        tc->minor = (guint) MIN (u, G_MAXUINT);
      } else if (strcmp (key, "uuid") == 0) {
        if (v->kind != VAL_STR || !parse_uuid (v->s, tc->uuid))
          return _gst_ctf_tsdl_invalid_error (p, line, "invalid trace `uuid`");
        tc->has_uuid = TRUE;
      } else if (strcmp (key, "byte_order") == 0) {
        GstCtfByteOrder bo;

        if (!_gst_ctf_tsdl_value_to_byte_order (p, v, line, &bo))
          return FALSE;
        if (bo == GST_CTF_TSDL_BYTE_ORDER_NATIVE)
          return _gst_ctf_tsdl_invalid_error (p, line,
              "trace `byte_order` cannot be `native`");
        tc->byte_order = bo;
      }
      return TRUE;
    case BLOCK_ENV:{
      GstCtfEnvEntry *e;

      if (p->env_by_name == NULL)
        p->env_by_name = g_hash_table_new (g_str_hash, g_str_equal);
      e = g_hash_table_lookup (p->env_by_name, key);
      if (e == NULL) {
        e = g_new0 (GstCtfEnvEntry, 1);
        e->name = g_strdup (key);
        g_ptr_array_add (tc->env, e);
        g_hash_table_insert (p->env_by_name, e->name, e);
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
          return _gst_ctf_tsdl_invalid_error (p, line, "invalid clock `name`");
        b->clock_has_name = TRUE;
      } else if (strcmp (key, "uuid") == 0) {
        if (v->kind != VAL_STR || !parse_uuid (v->s, cc->uuid))
          return _gst_ctf_tsdl_invalid_error (p, line, "invalid clock `uuid`");
        cc->has_uuid = TRUE;
      } else if (strcmp (key, "description") == 0) {
        g_free (cc->description);
        cc->description = value_to_string (v);
      } else if (strcmp (key, "freq") == 0) {
        if (!_gst_ctf_tsdl_value_to_uint (p, v, line, key, &u))
          return FALSE;
        if (u == 0 || u == G_MAXUINT64)
          return _gst_ctf_tsdl_invalid_error (p, line,
              "invalid clock frequency %" G_GUINT64_FORMAT, u);
        cc->freq = u;
      } else if (strcmp (key, "precision") == 0) {
        if (!_gst_ctf_tsdl_value_to_uint (p, v, line, key, &u))
          return FALSE;
        cc->precision = u;
      } else if (strcmp (key, "offset_s") == 0) {
        if (!_gst_ctf_tsdl_value_to_int (p, v, line, key, &b->offset_s))
          return FALSE;
      } else if (strcmp (key, "offset") == 0) {
        if (v->kind != VAL_INT)
          return _gst_ctf_tsdl_invalid_error (p, line,
              "`offset` expects an integer");
        b->offset_cycles = v->u;
        b->offset_neg = v->neg;
      } else if (strcmp (key, "absolute") == 0) {
        if (!_gst_ctf_tsdl_value_to_bool (p, v, line, key, &cc->absolute))
          return FALSE;
      }
      return TRUE;
    }
    case BLOCK_STREAM:
      if (strcmp (key, "id") == 0) {
        if (!_gst_ctf_tsdl_value_to_uint (p, v, line, key, &u))
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
          return _gst_ctf_tsdl_invalid_error (p, line, "invalid event `name`");
        b->ed->has_name = TRUE;
      } else if (strcmp (key, "id") == 0) {
        if (!_gst_ctf_tsdl_value_to_uint (p, v, line, key, &u))
          return FALSE;
        ec->id = u;
        b->ed->has_id = TRUE;
      } else if (strcmp (key, "stream_id") == 0) {
        if (!_gst_ctf_tsdl_value_to_uint (p, v, line, key, &u))
          return FALSE;
        ec->stream_class_id = u;
        b->ed->has_stream_id = TRUE;
      } else if (strcmp (key, "loglevel") == 0) {
        if (!_gst_ctf_tsdl_value_to_int (p, v, line, key, &s))
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
  b.line = _gst_ctf_tsdl_peek (p, 0)->line;
  _gst_ctf_tsdl_advance (p);
  if (!_gst_ctf_tsdl_expect (p, TSDL_TOK_LBRACE))
    return FALSE;
  if (kind == BLOCK_TRACE) {
    if (p->trace_seen)
      return _gst_ctf_tsdl_invalid_error (p, b.line, "duplicate `trace` block");
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
  if (!_gst_ctf_tsdl_enter (p)) {
    gst_ctf_clock_class_free (b.clock);
    return FALSE;
  }
  _gst_ctf_tsdl_push_scope (p);
  while (ok && !_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_RBRACE)) {
    const TsdlToken *t = _gst_ctf_tsdl_peek (p, 0);

    if (p->error != NULL || t->type == TSDL_TOK_EOF) {
      ok = _gst_ctf_tsdl_syntax_error (p, "expected `}`");
      break;
    }
    if (_gst_ctf_tsdl_is_ident (p, 0, "typealias")) {
      ok = _gst_ctf_tsdl_parse_typealias (p);
    } else if (_gst_ctf_tsdl_is_ident (p, 0, "typedef")) {
      ok = _gst_ctf_tsdl_parse_typedef (p);
    } else if (t->type == TSDL_TOK_IDENT
        && (_gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_ASSIGN)
            || _gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_TYPEASSIGN)
            || _gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_DOT))) {
      guint line = t->line;
      gchar *key = _gst_ctf_tsdl_parse_path (p);

      if (key == NULL) {
        ok = FALSE;
      } else if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_ASSIGN)) {
        Value v;

        _gst_ctf_tsdl_advance (p);
        ok = _gst_ctf_tsdl_parse_unary (p, &v)
            && block_value_entry (p, &b, key, &v, line);
        _gst_ctf_tsdl_value_clear (&v);
        ok = ok && _gst_ctf_tsdl_expect (p, TSDL_TOK_SEMICOLON);
      } else if (_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_TYPEASSIGN)) {
        GstCtfFieldClass *fc;
        gchar *dummy = NULL;

        _gst_ctf_tsdl_advance (p);
        fc = _gst_ctf_tsdl_parse_type_specifier (p);
        if (fc != NULL)
          fc = _gst_ctf_tsdl_parse_declarator (p, fc, FALSE, &dummy);
        ok = fc != NULL && block_type_entry (p, &b, key, fc, line)
            && _gst_ctf_tsdl_expect (p, TSDL_TOK_SEMICOLON);
      } else {
        ok = _gst_ctf_tsdl_syntax_error (p, "expected `=` or `:=`");
      }
      g_free (key);
    } else {
      ok = _gst_ctf_tsdl_parse_declaration (p, NULL, NULL);
    }
  }
  _gst_ctf_tsdl_pop_scope (p);
  _gst_ctf_tsdl_leave (p);
  if (ok)
    _gst_ctf_tsdl_advance (p);
  if (ok && _gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_SEMICOLON))
    _gst_ctf_tsdl_advance (p);
  if (kind == BLOCK_CLOCK) {
    if (ok && !b.clock_has_name)
      ok = _gst_ctf_tsdl_invalid_error (p, b.line,
          "missing `name` attribute in clock");
    if (p->clock_names == NULL)
      p->clock_names = g_hash_table_new (g_str_hash, g_str_equal);
    if (ok && g_hash_table_contains (p->clock_names, b.clock->name))
      ok = _gst_ctf_tsdl_invalid_error (p, b.line, "duplicate clock `%s`",
          b.clock->name);
    if (ok) {
      finish_clock (&b);
      g_ptr_array_add (p->tc->clock_classes, b.clock);
      g_hash_table_add (p->clock_names, b.clock->name);
    } else {
      gst_ctf_clock_class_free (b.clock);
    }
  }
  return ok;
}

static gboolean
parse_top_level (Parser * p)
{
  while (p->error == NULL && !_gst_ctf_tsdl_is_type (p, 0, TSDL_TOK_EOF)) {
    const TsdlToken *t = _gst_ctf_tsdl_peek (p, 0);
    gboolean ok;

    if (t->type == TSDL_TOK_IDENT
        && _gst_ctf_tsdl_is_type (p, 1, TSDL_TOK_LBRACE)
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
    } else if (_gst_ctf_tsdl_is_ident (p, 0, "typealias")) {
      ok = _gst_ctf_tsdl_parse_typealias (p);
    } else if (_gst_ctf_tsdl_is_ident (p, 0, "typedef")) {
      ok = _gst_ctf_tsdl_parse_typedef (p);
    } else if (t->type == TSDL_TOK_SEMICOLON) {
      _gst_ctf_tsdl_advance (p);
      ok = TRUE;
    } else {
      ok = _gst_ctf_tsdl_parse_declaration (p, NULL, NULL);
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
  GHashTable *ids = g_hash_table_new (g_int64_hash, g_int64_equal);
  guint i;

  for (i = 0; i < p->streams->len; i++) {
    StreamDecl *sd = g_ptr_array_index (p->streams, i);

    if (!sd->has_id && p->streams->len > 1) {
      g_hash_table_unref (ids);
      return _gst_ctf_tsdl_invalid_error (p, sd->line,
          "stream class without `id` in a "
          "trace with several stream classes");
    }
    if (!g_hash_table_add (ids, &sd->sc->id)) {
      g_hash_table_unref (ids);
      return _gst_ctf_tsdl_invalid_error (p, sd->line,
          "duplicate stream class id %" G_GUINT64_FORMAT, sd->sc->id);
    }
    g_ptr_array_add (tc->stream_classes, sd->sc);
    sd->sc = NULL;
  }
  g_hash_table_unref (ids);
  /* a trace without stream block has an implicit stream class 0 */
  if (tc->stream_classes->len == 0)
    g_ptr_array_add (tc->stream_classes, gst_ctf_stream_class_new (0));
  _gst_ctf_trace_class_index_stream_classes (tc);

  for (i = 0; i < p->events->len; i++) {
    EventDecl *ed = g_ptr_array_index (p->events, i);
    GstCtfEventClass *ec = ed->ec;
    GstCtfStreamClass *sc;

    if (!ed->has_name)
      return _gst_ctf_tsdl_invalid_error (p, ed->line,
          "missing `name` attribute in event");
    if (!ed->has_stream_id) {
      if (tc->stream_classes->len > 1)
        return _gst_ctf_tsdl_invalid_error (p, ed->line,
            "event `%s` has no `stream_id` "
            "and the trace has several stream classes", ec->name);
      sc = g_ptr_array_index (tc->stream_classes, 0);
      ec->stream_class_id = sc->id;
    } else {
      sc = gst_ctf_trace_class_find_stream_class (tc, ec->stream_class_id);
      if (sc == NULL)
        return _gst_ctf_tsdl_invalid_error (p, ed->line,
            "event `%s`: no stream class with id %" G_GUINT64_FORMAT,
            ec->name, ec->stream_class_id);
    }
    if (!ed->has_id) {
      if (sc->event_classes->len > 0)
        return _gst_ctf_tsdl_invalid_error (p, ed->line,
            "event `%s` has no `id` but its "
            "stream class has other event classes", ec->name);
      ec->id = 0;
    }
    if (gst_ctf_stream_class_find_event_class (sc, ec->id) != NULL)
      return _gst_ctf_tsdl_invalid_error (p, ed->line,
          "duplicate event class id %" G_GUINT64_FORMAT " in stream class %"
          G_GUINT64_FORMAT, ec->id, sc->id);
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
  _gst_ctf_tsdl_push_scope (&p);

  if (parse_top_level (&p))
    attach_classes (&p);

  while (p.scope != NULL)
    _gst_ctf_tsdl_pop_scope (&p);
  for (i = 0; i < LOOKAHEAD; i++)
    tsdl_token_clear (&p.la[i]);
  g_ptr_array_unref (p.streams);
  g_ptr_array_unref (p.events);
  if (p.env_by_name)
    g_hash_table_unref (p.env_by_name);
  if (p.clock_names)
    g_hash_table_unref (p.clock_names);
  if (p.integer_memo)
    g_hash_table_unref (p.integer_memo);

  if (p.error == NULL && !gst_ctf_tsdl_resolve (tc, origin, &p.error))
    g_assert (p.error != NULL);
  if (p.error != NULL) {
    g_propagate_error (error, p.error);
    gst_ctf_trace_class_unref (tc);
    return NULL;
  }
  tc->from_tsdl = !p.lex.not_utf8;
  return tc;
}
