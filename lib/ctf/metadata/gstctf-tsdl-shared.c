/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: trace classes parsed once per metadata text while they live
 * (gst_ctf_metadata_parse_shared(), gstctf-metadata.h).  The table itself is
 * in gstctf-model.c, next to the reference counting it depends on.
 */
#include "gstctf-metadata.h"
#include "gstctf-model-private.h"
#include "gstctf-tsdl-parser.h"
#include "gstctf-tsdl-writer.h"

#include <string.h>

/* A 64-bit hash of @len bytes of @text, 8 bytes per step (a SHA-256
 * took 15 instructions a byte: a tenth of a 100-trace session's setup
 * went into hashing its merged metadata twice); the table compares the
 * texts themselves, so the hash needs no strength. */
static guint64
text_hash (const gchar * text, gsize len)
{
  const guint64 m = G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  guint64 h = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ len;
  guint64 w;
  gsize i;

  for (i = 0; i + 8 <= len; i += 8) {
    memcpy (&w, text + i, 8);
    h = (h ^ w) * m;
    h ^= h >> 29;
  }
  w = 0;
  memcpy (&w, text + i, len - i);
  h = (h ^ w) * m;
  h ^= h >> 32;
  return h;
}

/* The tables' key for the @n_parts byte ranges of @text: the hash, the
 * length, the bytes and a NUL (gstctf-model-private.h).  For a skeleton,
 * each cut's position in the skeleton follows the bytes before it, so
 * that two texts get the same key only when they are equal but for what
 * is cut out (and not when the cuts merely shift). */
typedef struct {
  gsize start, end;
} Range;

static guint8 *
make_key (const gchar * text, const Range * parts, guint n_parts)
{
  guint64 len = 0, at = 0, h;
  guint8 *key, *p;
  guint i;

  for (i = 0; i < n_parts; i++)
    len += parts[i].end - parts[i].start;
  if (n_parts > 1)
    len += (n_parts - 1) * sizeof (guint64);
  key = g_malloc (GST_CTF_SHARED_KEY_HEAD + len + 1);
  p = key + GST_CTF_SHARED_KEY_HEAD;
  for (i = 0; i < n_parts; i++) {
    gsize n = parts[i].end - parts[i].start;

    memcpy (p, text + parts[i].start, n);
    p += n;
    at += n;
    if (i + 1 < n_parts) {
      memcpy (p, &at, sizeof (at));
      p += sizeof (at);
    }
  }
  *p = 0;
  h = text_hash ((const gchar *) key + GST_CTF_SHARED_KEY_HEAD, len);
  memcpy (key, &h, 8);
  memcpy (key + 8, &len, 8);
  return key;
}

/* ------------------------------------------------------------------ */
/* What the traces of one session differ in.
 *
 * The traces of an LTTng per-PID session (one trace per process) have
 * the same metadata but for the trace's `uuid` and the values of the
 * `env` block (vpid, procname, ...).  find_variable_parts() finds those
 * two places with a light scan (comments, string and character literals,
 * braces; a top-level `trace {` or `env {` after a `;`); the text without
 * them is the "skeleton".  A text whose skeleton is known is then parsed
 * as its own env and uuid only, and shares the rest with the class parsed
 * first (_gst_ctf_trace_class_new_derived()). */

typedef struct {
  Range env;                    /* the env block's body, if any */
  Range uuid;                   /* the trace uuid's string, quotes excluded */
  gboolean has_env, has_uuid;
} VariableParts;

static gboolean
is_ident_char (gchar c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* Skips a literal opening at text[i] with @quote; returns the position
 * after it, or 0 when it is not closed. */
static gsize
skip_literal (const gchar * text, gsize len, gsize i, gchar quote)
{
  for (i++; i < len; i++) {
    if (text[i] == '\\')
      i++;
    else if (text[i] == quote)
      return i + 1;
    else if (text[i] == '\n')
      return 0;
  }
  return 0;
}

/* The bytes that matter inside a block where no keyword is looked for
 * (everything but the top level and the trace block's own statements):
 * most of a text is skipped on this table alone. */
static const guint8 deep_stop[256] = {
  ['{'] = 1,['}'] = 1,['"'] = 1,['\''] = 1,['/'] = 1,
};

/* The bytes that matter in a statement already known to be none of those
 * looked for (state OTHER): braces, literals, comments and its end. */
static const guint8 other_stop[256] = {
  ['{'] = 1,['}'] = 1,['"'] = 1,['\''] = 1,['/'] = 1,[';'] = 1,
};

static gboolean
find_variable_parts (const gchar * text, gsize len, VariableParts * v)
{
  enum { OTHER, STMT_START, TRACE_KW, ENV_KW, UUID_KW, UUID_EQ } state =
      STMT_START;
  enum { NONE, IN_TRACE, IN_ENV } block = NONE;
  guint depth = 0, n_trace = 0;
  gsize i = 0;

  memset (v, 0, sizeof (*v));
  while (i < len) {
    gchar c;
    gsize j;

    if (depth >= 2 || (depth == 1 && block != IN_TRACE)) {
      while (i < len && !deep_stop[(guchar) text[i]])
        i++;
      if (i == len)
        break;
    } else if (state == OTHER) {
      while (i < len && !other_stop[(guchar) text[i]])
        i++;
      if (i == len)
        break;
    }
    c = text[i];
    if (g_ascii_isspace (c)) {
      i++;
      continue;
    }
    if (c == '/' && i + 1 < len && text[i + 1] == '*') {
      const gchar *e = g_strstr_len (text + i + 2, len - i - 2, "*/");

      if (e == NULL)
        return FALSE;
      i = e + 2 - text;
      continue;
    }
    if (c == '/' && i + 1 < len && text[i + 1] == '/') {
      while (i < len && text[i] != '\n')
        i++;
      continue;
    }
    if (c == '"' || c == '\'') {
      j = skip_literal (text, len, i, c);
      if (j == 0)
        return FALSE;
      if (state == UUID_EQ && c == '"') {
        if (v->has_uuid)
          return FALSE;
        v->has_uuid = TRUE;
        v->uuid.start = i + 1;
        v->uuid.end = j - 1;
      }
      state = OTHER;
      i = j;
      continue;
    }
    if (is_ident_char (c)) {
      for (j = i; j < len && is_ident_char (text[j]); j++);
      if (state == STMT_START && depth == 0 && j - i == 5 &&
          memcmp (text + i, "trace", 5) == 0)
        state = TRACE_KW;
      else if (state == STMT_START && depth == 0 && j - i == 3 &&
          memcmp (text + i, "env", 3) == 0)
        state = ENV_KW;
      else if (state == STMT_START && depth == 1 && block == IN_TRACE &&
          j - i == 4 && memcmp (text + i, "uuid", 4) == 0)
        state = UUID_KW;
      else
        state = OTHER;
      i = j;
      continue;
    }
    if (c == '{') {
      if (state == TRACE_KW || state == ENV_KW) {
        if (state == TRACE_KW && n_trace++ > 0)
          return FALSE;
        if (state == ENV_KW) {
          if (v->has_env)
            return FALSE;
          v->has_env = TRUE;
          v->env.start = i + 1;
        }
        block = state == TRACE_KW ? IN_TRACE : IN_ENV;
      }
      depth++;
      state = STMT_START;
    } else if (c == '}') {
      if (depth == 0)
        return FALSE;
      if (--depth == 0) {
        if (block == IN_ENV)
          v->env.end = i;
        block = NONE;
      }
      state = OTHER;
    } else if (c == ';') {
      state = STMT_START;
    } else if (c == '=' && state == UUID_KW) {
      state = UUID_EQ;
    } else {
      state = OTHER;
    }
    i++;
  }
  return depth == 0 && (v->has_env || v->has_uuid);
}

/* The skeleton key of @text (NULL when it has no variable parts). */
static guint8 *
make_skeleton_key (const gchar * text, gsize len, VariableParts * v)
{
  Range cut[2], parts[3];
  guint n_cut = 0, n = 0, i;
  gsize at = 0;

  if (!find_variable_parts (text, len, v))
    return NULL;
  if (v->has_env)
    cut[n_cut++] = v->env;
  if (v->has_uuid) {
    cut[n_cut] = v->uuid;
    /* (in text order) */
    if (n_cut == 1 && cut[0].start > v->uuid.start) {
      cut[1] = cut[0];
      cut[0] = v->uuid;
    }
    n_cut++;
  }
  for (i = 0; i < n_cut; i++) {
    parts[n].start = at;
    parts[n++].end = cut[i].start;
    at = cut[i].end;
  }
  parts[n].start = at;
  parts[n++].end = len;
  return make_key (text, parts, n);
}

static gboolean
same_env_entry (const GstCtfEnvEntry * a, const GstCtfEnvEntry * b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return a->is_string == b->is_string && a->integer == b->integer &&
      g_strcmp0 (a->str, b->str) == 0;
}

/* ------------------------------------------------------------------ */
/* The env entries and uuid of a trace in their usual spelling, without
 * the parser (it costs 70 000 instructions for a per-PID trace's 14
 * entries): `name = "text";` (printable ASCII, no escape) and
 * `name = [-]decimal;` entries, the uuid as 8-4-4-4-12 hexadecimal
 * digits.  Anything else (comments, escapes, other literals, paths,
 * keywords, a name twice) is left to the parser: NULL. */

static const gchar *
skip_blanks (const gchar * p, const gchar * end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  return p;
}

static gboolean
read_plain_uuid (const gchar * s, gsize len, guint8 out[16])
{
  guint i, n = 0;

  if (len != 36)
    return FALSE;
  for (i = 0; i < 36; i++) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-')
        return FALSE;
      continue;
    }
    if (!g_ascii_isxdigit (s[i]) || !g_ascii_isxdigit (s[i + 1]))
      return FALSE;
    out[n++] = (guint8) ((g_ascii_xdigit_value (s[i]) << 4) |
        g_ascii_xdigit_value (s[i + 1]));
    i++;
  }
  return n == 16;
}

/* One `name = value;` entry at @p into @tc; the position after it, or
 * NULL when it is not in the usual spelling. */
static const gchar *
read_plain_env_entry (GstCtfTraceClass * tc, const gchar * p,
    const gchar * end)
{
  const gchar *k = p, *val;
  gchar *key;
  GstCtfEnvEntry *e;
  guint64 u = 0;
  gboolean neg = FALSE;
  guint n;

  while (p < end && is_ident_char (*p))
    p++;
  if (p == k || g_ascii_isdigit (*k))
    return NULL;
  key = g_strndup (k, p - k);
  if (!_gst_ctf_tsdl_name_is_plain (key)
      || gst_ctf_trace_class_find_env (tc, key) != NULL) {
    g_free (key);
    return NULL;
  }
  p = skip_blanks (p, end);
  if (p == end || *p != '=')
    goto fail;
  p = skip_blanks (p + 1, end);
  if (p < end && *p == '"') {
    val = ++p;
    while (p < end && *p >= 0x20 && *p <= 0x7e && *p != '"' && *p != '\\')
      p++;
    if (p == end || *p != '"')
      goto fail;
    gst_ctf_trace_class_add_env_string (tc, key, NULL);
    e = g_ptr_array_index (tc->env, tc->env->len - 1);
    e->is_string = TRUE;
    e->str = g_strndup (val, p - val);
    p++;
  } else {
    if (p < end && *p == '-') {
      neg = TRUE;
      p++;
    }
    /* decimal only (a leading 0 is octal), at most 19 digits (no
     * overflow), no suffix */
    for (n = 0; p < end && g_ascii_isdigit (*p) && n < 20; n++, p++)
      u = u * 10 + (guint64) (*p - '0');
    if (n == 0 || n > 19 || (n > 1 && p[-(gssize) n] == '0')
        || (p < end && (is_ident_char (*p) || *p == '.')))
      goto fail;
    gst_ctf_trace_class_add_env_integer (tc, key,
        neg ? (gint64) (0 - u) : (gint64) u);
  }
  p = skip_blanks (p, end);
  if (p == end || *p != ';')
    goto fail;
  g_free (key);
  return p + 1;

fail:
  g_free (key);
  return NULL;
}

static GstCtfTraceClass *
read_plain_parts (const gchar * text, const VariableParts * v)
{
  GstCtfTraceClass *own = gst_ctf_trace_class_new ();

  if (v->has_uuid) {
    if (!read_plain_uuid (text + v->uuid.start, v->uuid.end - v->uuid.start,
            own->uuid))
      goto fail;
    own->has_uuid = TRUE;
  }
  if (v->has_env) {
    const gchar *p = text + v->env.start, *end = text + v->env.end;

    for (p = skip_blanks (p, end); p < end; p = skip_blanks (p, end)) {
      p = read_plain_env_entry (own, p, end);
      if (p == NULL)
        goto fail;
    }
  }
  own->from_tsdl = TRUE;
  return own;

fail:
  gst_ctf_trace_class_unref (own);
  return NULL;
}

/* @text's class made from @base (the class of a text with the same
 * skeleton): only its env block and uuid are parsed.  NULL when that
 * small parse fails or gives what the whole text's parse might not (the
 * whole text is then parsed and reports its own errors). */
static GstCtfTraceClass *
parse_derived (GstCtfTraceClass * base, const gchar * text,
    const VariableParts * v)
{
  GString *s;
  GstCtfTraceClass *own, *tc = NULL;

  /* a uuid or env block the cuts did not find (the parser reads some
   * spellings the cutter does not) is not taken from @base: whole parse */
  if ((!v->has_uuid && base->has_uuid) || (!v->has_env && base->env->len))
    return NULL;
  own = read_plain_parts (text, v);
  if (own)
    goto read;
  s = g_string_new ("/* CTF 1.8 */\ntrace {\n\tbyte_order = le;\n");

  if (v->has_uuid) {
    g_string_append (s, "\tuuid = \"");
    g_string_append_len (s, text + v->uuid.start,
        v->uuid.end - v->uuid.start);
    g_string_append (s, "\";\n");
  }
  g_string_append (s, "};\n");
  if (v->has_env) {
    g_string_append (s, "env {");
    g_string_append_len (s, text + v->env.start, v->env.end - v->env.start);
    g_string_append (s, "};\n");
  }
  own = gst_ctf_tsdl_parse (s->str, NULL, NULL);
  g_string_free (s, TRUE);
  if (own == NULL)
    return NULL;
read:
  /* the one env value the resolver reads (the clocks' origin); the rest
   * of @own (a default stream class) is not used */
  if (same_env_entry (gst_ctf_trace_class_find_env (own, "tracer_name"),
          gst_ctf_trace_class_find_env (base, "tracer_name")))
    tc = _gst_ctf_trace_class_new_derived (base, own);
  gst_ctf_trace_class_unref (own);
  return tc;
}

static GstCtfTraceClass *
parse_shared (const gchar * text, const gchar * origin, gboolean by_skeleton,
    GError ** error)
{
  guint8 *key, *skeleton = NULL;
  GstCtfTraceClass *tc, *base = NULL;
  VariableParts v;
  gsize len;
  Range all;

  len = strlen (text);
  all.start = 0;
  all.end = len;
  key = make_key (text, &all, 1);
  tc = _gst_ctf_trace_class_shared_lookup (key, FALSE);
  if (tc) {
    g_free (key);
    return tc;
  }
  if (by_skeleton && !gst_ctf_metadata_is_ctf2 (text))
    skeleton = make_skeleton_key (text, len, &v);
  if (skeleton)
    base = _gst_ctf_trace_class_shared_lookup (skeleton, TRUE);
  if (base) {
    tc = parse_derived (base, text, &v);
    gst_ctf_trace_class_unref (base);
  }
  if (tc == NULL)
    tc = gst_ctf_metadata_parse (text, origin, error);
  if (tc) {
    _gst_ctf_trace_class_shared_insert (tc, key, FALSE);        /* takes @key */
    if (skeleton && tc->base == NULL)
      _gst_ctf_trace_class_shared_insert (tc, skeleton, TRUE);
    else
      g_free (skeleton);
  } else {
    g_free (key);
    g_free (skeleton);
  }
  return tc;
}

GstCtfTraceClass *
gst_ctf_metadata_parse_shared (const gchar * text, const gchar * origin,
    GError ** error)
{
  g_return_val_if_fail (text != NULL, NULL);

  return parse_shared (text, origin, TRUE, error);
}

GstCtfTraceClass *
_gst_ctf_metadata_parse_shared_whole (const gchar * text, const gchar * origin,
    GError ** error)
{
  g_return_val_if_fail (text != NULL, NULL);

  return parse_shared (text, origin, FALSE, error);
}

/* ------------------------------------------------------------------ */
/* A class built in memory, finished as if parsed from its text */

/* The parser's clock offsets (finish_clock() in gstctf-tsdl-parser.c):
 * `offset` cycles kept below `freq`, whole seconds moved to `offset_s`,
 * which stays within +-2^62. */
static void
normalise_clock (GstCtfClockClass * cc)
{
  guint64 f = cc->freq;
  gboolean neg = cc->offset < 0;
  guint64 cycles = neg ? 0 - (guint64) cc->offset : (guint64) cc->offset;
  guint64 rem = cycles % f;
  gint64 base = CLAMP (cc->offset_s, -(G_MAXINT64 / 2), G_MAXINT64 / 2);
  gint64 whole = (gint64) MIN (cycles / f, (guint64) (G_MAXINT64 / 4));

  if (!neg) {
    cc->offset_s = base + whole;
    cc->offset = (gint64) rem;
  } else {
    cc->offset_s = base - whole - (rem != 0);
    cc->offset = rem != 0 ? (gint64) (f - rem) : 0;
  }
}

/* Later env entries of a name already seen set the first one's value and
 * go, as in the parser's env block. */
static void
merge_env_names (GstCtfTraceClass * tc)
{
  GHashTable *first = g_hash_table_new (g_str_hash, g_str_equal);
  guint i = 0;

  while (i < tc->env->len) {
    GstCtfEnvEntry *e = g_ptr_array_index (tc->env, i);
    GstCtfEnvEntry *f = g_hash_table_lookup (first, e->name);

    if (f == NULL) {
      g_hash_table_insert (first, e->name, e);
      i++;
      continue;
    }
    g_free (f->str);
    f->str = g_strdup (e->str);
    f->is_string = e->is_string;
    f->integer = e->is_string ? 0 : e->integer;
    g_ptr_array_remove_index (tc->env, i);
  }
  g_hash_table_unref (first);
}

gboolean
_gst_ctf_metadata_adopt_tsdl (GstCtfTraceClass * tc, const gchar * text,
    GError ** error)
{
  Range all;
  guint i;

  g_return_val_if_fail (tc != NULL && text != NULL, FALSE);

  /* names the writer would change (the parse would give the changed one) */
  for (i = 0; i < tc->env->len; i++) {
    const GstCtfEnvEntry *e = g_ptr_array_index (tc->env, i);

    if (!_gst_ctf_tsdl_name_is_plain (e->name)
        || (e->is_string && e->str && !g_utf8_validate (e->str, -1, NULL)))
      goto not_plain;
  }
  for (i = 0; i < tc->clock_classes->len; i++) {
    GstCtfClockClass *cc = g_ptr_array_index (tc->clock_classes, i);

    if (!_gst_ctf_tsdl_name_is_plain (cc->name) || cc->freq == 0
        || cc->freq == G_MAXUINT64 || (cc->description
            && !g_utf8_validate (cc->description, -1, NULL)))
      goto not_plain;
    normalise_clock (cc);
  }
  merge_env_names (tc);
  _gst_ctf_trace_class_index_stream_classes (tc);
  if (!gst_ctf_tsdl_resolve (tc, "merged metadata", error))
    return FALSE;
  tc->from_tsdl = TRUE;
  all.start = 0;
  all.end = strlen (text);
  _gst_ctf_trace_class_shared_insert (tc, make_key (text, &all, 1), FALSE);
  return TRUE;

not_plain:
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
      "A name or text of the trace class does not read back as it is");
  return FALSE;
}
