/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: babeltrace2 `sink.text.pretty`-compatible text formatting.
 *
 * What babeltrace2 prints is decided in two places, both reproduced here:
 *
 * - which fields reach its trace IR (src.ctf.fs metadata passes): an
 *   integer is dropped when it is mapped to a clock or has a special
 *   meaning (packet context `timestamp_begin`, `timestamp_end`,
 *   `events_discarded`, `packet_seq_num`, `packet_size`, `content_size`),
 *   unless a sequence or variant that is kept depends on it; a struct is
 *   dropped when all its members are (but kept when declared empty); an
 *   array follows its element; a kept variant keeps all its options; the
 *   packet header and event header never reach the output.  Arrays and
 *   sequences of 8-bit, 8-bit-aligned integers with an encoding are text
 *   (printed as a string cut at the first NUL).  Member names lose one
 *   leading underscore (CTF 1.8 §4.2.2 escape).
 * - how the pretty sink prints (print.c): timestamp, delta, trace
 *   environment fields, event name, then the four scopes.
 *
 * Numbers are formatted by hand into the reused GString: no allocation
 * per event.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-text-private.h"
#include "gstctf-packet-reader-private.h"

/* ------------------------------------------------------------------ */
/* Construction                                                        */

/* A scope without a static layout gets this template: never used. */
static Template tpl_none;

static void
tpl_free (Template * t)
{
  g_string_free (t->lit, TRUE);
  g_array_unref (t->ops);
  g_free (t);
}

static void
scope_cache_free (ScopeCache * c)
{
  if (c == NULL)
    return;
  g_array_unref (c->vals);
  g_array_unref (c->is_text);
  g_string_free (c->strs, TRUE);
  g_string_free (c->text, TRUE);
  g_free (c);
}

static void
sc_info_free (gpointer data)
{
  ScInfo *si = data;

  scope_cache_free (si->common_cache);
  g_free (si);
}

static void
ec_info_free (gpointer data)
{
  EcInfo *ei = data;

  if (ei->head)
    g_string_free (ei->head, TRUE);
  g_free (ei);
}

void
gst_ctf_text_options_init (GstCtfTextOptions * opts)
{
  g_return_if_fail (opts != NULL);

  memset (opts, 0, sizeof (*opts));
  opts->name_context = TRUE;
  opts->name_payload = TRUE;
  opts->field_trace_hostname = TRUE;
  opts->field_trace_procname = TRUE;
  opts->field_trace_vpid = TRUE;
}

static const gchar *
env_string (const GstCtfTraceClass * tc, const gchar * name)
{
  const GstCtfEnvEntry *e = gst_ctf_trace_class_find_env (tc, name);

  if (e == NULL || !e->is_string)
    return NULL;
  return e->str ? e->str : "";
}

GstCtfTextFormatter *
gst_ctf_text_formatter_new (GstCtfTraceClass * tc,
    const GstCtfTextOptions * opts)
{
  GstCtfTextFormatter *f;
  const GstCtfEnvEntry *vpid;

  g_return_val_if_fail (tc != NULL, NULL);

  f = g_new0 (GstCtfTextFormatter, 1);
  f->tc = gst_ctf_trace_class_ref (tc);
  if (opts)
    f->opts = *opts;
  else
    gst_ctf_text_options_init (&f->opts);

  f->cur_object = -1;
  f->stream_id = -1;
  f->cached_base_ns = -1;
  f->json_stream = g_string_new (NULL);
  f->offset_clocks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  f->json_info = g_hash_table_new_full (NULL, NULL, NULL,
      _gst_ctf_text_json_info_free);
  f->templates = g_ptr_array_new_with_free_func ((GDestroyNotify)
      tpl_free);
  f->pc_text = g_string_sized_new (256);
  f->pc_vals = g_array_new (FALSE, FALSE, sizeof (GstCtfFieldValue));
  f->objects = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      (GDestroyNotify) g_hash_table_unref);
  f->not_in_ir = g_hash_table_new (NULL, NULL);
  f->enums = g_hash_table_new_full (NULL, NULL, NULL,
      _gst_ctf_text_enum_info_free);
  f->sc_info = g_hash_table_new_full (NULL, NULL, NULL, sc_info_free);
  f->ec_info = g_hash_table_new_full (NULL, NULL, NULL, ec_info_free);
  _gst_ctf_text_compute_ir (f);

  f->env_hostname = env_string (tc, "hostname");
  f->env_domain = env_string (tc, "domain");
  f->env_procname = env_string (tc, "procname");
  vpid = gst_ctf_trace_class_find_env (tc, "vpid");
  if (vpid != NULL && !vpid->is_string) {
    f->has_env_vpid = TRUE;
    f->env_vpid = vpid->integer;
  }
  return f;
}

void
gst_ctf_text_formatter_free (GstCtfTextFormatter * f)
{
  if (f == NULL)
    return;
  g_hash_table_unref (f->objects);
  g_ptr_array_unref (f->templates);
  g_string_free (f->pc_text, TRUE);
  g_array_unref (f->pc_vals);
  g_hash_table_unref (f->not_in_ir);
  g_hash_table_unref (f->enums);
  g_hash_table_unref (f->sc_info);
  g_hash_table_unref (f->ec_info);
  gst_ctf_trace_class_unref (f->tc);
  g_free (f->trace_name);
  g_free (f->stream_name);
  g_free (f->stream_path);
  g_string_free (f->json_stream, TRUE);
  g_hash_table_unref (f->offset_clocks);
  g_hash_table_unref (f->json_info);
  g_free (f);
}

void
gst_ctf_text_formatter_set_trace_name (GstCtfTextFormatter * f,
    const gchar * name)
{
  g_return_if_fail (f != NULL);
  g_free (f->trace_name);
  f->trace_name = g_strdup (name);
  {
    GHashTableIter hi;
    gpointer v;

    /* (the name is in the event heads) */
    g_hash_table_iter_init (&hi, f->ec_info);
    while (g_hash_table_iter_next (&hi, NULL, &v)) {
      EcInfo *ei = v;

      if (ei->head)
        g_string_free (ei->head, TRUE);
      ei->head = NULL;
    }
  }
}

void
gst_ctf_text_formatter_set_stream (GstCtfTextFormatter * f, gint64 stream_id,
    const gchar * name, const gchar * path)
{
  g_return_if_fail (f != NULL);
  if (f->json_stream_valid && f->stream_id == stream_id &&
      (f->stream_name == name || g_strcmp0 (f->stream_name, name) == 0) &&
      g_strcmp0 (f->stream_path, path) == 0)
    return;
  f->stream_id = stream_id;
  g_free (f->stream_name);
  f->stream_name = g_strdup (name);
  g_free (f->stream_path);
  f->stream_path = g_strdup (path);
  f->json_stream_valid = FALSE;
}

void
gst_ctf_text_formatter_set_event_object (GstCtfTextFormatter * f,
    gint64 object)
{
  g_return_if_fail (f != NULL);
  f->cur_object = object;
}

void
gst_ctf_text_formatter_reset_delta (GstCtfTextFormatter * f)
{
  g_return_if_fail (f != NULL);
  memset (&f->delta, 0, sizeof (f->delta));
}

void
gst_ctf_text_formatter_get_delta (const GstCtfTextFormatter * f,
    GstCtfTextDelta * state)
{
  g_return_if_fail (f != NULL && state != NULL);
  *state = f->delta;
}

void
gst_ctf_text_formatter_set_delta (GstCtfTextFormatter * f,
    const GstCtfTextDelta * state)
{
  g_return_if_fail (f != NULL && state != NULL);
  f->delta = *state;
}


static gboolean
same_values (const GstCtfFieldValue * a, const GstCtfFieldValue * b, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    if (a[i].fc != b[i].fc || a[i].v.u != b[i].v.u || a[i].end != b[i].end ||
        a[i].name != b[i].name)
      return FALSE;
  }
  return TRUE;
}

static gboolean
values_cacheable (const GstCtfFieldValue * vals, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    const GstCtfFieldClass *fc = vals[i].fc;

    if (fc == NULL || fc->type == GST_CTF_FIELD_CLASS_STRING ||
        is_text_array (fc))
      return FALSE;
  }
  return TRUE;
}

static void
append_packet_context (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldValue * vals, guint n, gboolean names,
    gboolean filtered, guint64 serial)
{
  gsize start;

  /* The same packet as the last time: its values are the same. */
  if (f->pc_valid && f->pc_names == names && serial != 0 &&
      f->pc_serial == serial) {
    put (s, f->pc_text->str, f->pc_text->len);
    return;
  }
  if (f->pc_valid && f->pc_names == names && f->pc_vals->len == n &&
      same_values ((const GstCtfFieldValue *) (gpointer) f->pc_vals->data,
          vals, n)) {
    put (s, f->pc_text->str, f->pc_text->len);
    f->pc_serial = serial;
    return;
  }
  start = s->len;
  _gst_ctf_text_append_value (f, s, vals, n, 0, names, filtered, 0);
  f->pc_valid = values_cacheable (vals, n);
  if (f->pc_valid) {
    g_array_set_size (f->pc_vals, 0);
    g_array_append_vals (f->pc_vals, vals, n);
    g_string_truncate (f->pc_text, 0);
    g_string_append_len (f->pc_text, s->str + start, s->len - start);
    f->pc_names = names;
    f->pc_serial = serial;
  }
}

/* Whether the @len bytes at @a and @b are equal: word compares inline,
 * without a memcmp() call for the short strings a context holds. */
static inline gboolean
bytes_equal (const gchar * a, const gchar * b, gsize len)
{
  if (len >= 8) {
    guint64 x, y;
    gsize i;

    for (i = 0; i + 8 <= len; i += 8) {
      memcpy (&x, a + i, 8);
      memcpy (&y, b + i, 8);
      if (x != y)
        return FALSE;
    }
    if (i == len)
      return TRUE;
    /* the last 8 bytes, overlapping the words before */
    memcpy (&x, a + len - 8, 8);
    memcpy (&y, b + len - 8, 8);
    return x == y;
  }
  if (len >= 4) {
    guint32 x, y, z, w;

    memcpy (&x, a, 4);
    memcpy (&y, b, 4);
    memcpy (&z, a + len - 4, 4);
    memcpy (&w, b + len - 4, 4);
    return x == y && z == w;
  }
  while (len > 0) {
    len--;
    if (a[len] != b[len])
      return FALSE;
  }
  return TRUE;
}

/* Scope caches (ScopeCache): whether @vals print what @c holds. */
static inline gboolean
scope_cache_match (const ScopeCache * c, const GstCtfFieldValue * vals,
    guint n)
{
  const GstCtfFieldValue *cv;
  const guint8 *is_text;
  guint i;

  if (!c->valid || c->vals->len != n)
    return FALSE;
  cv = (const GstCtfFieldValue *) (gpointer) c->vals->data;
  is_text = (const guint8 *) c->is_text->data;
  /* A root class without sequences and variants fixes every value's
   * class, name and subtree end: only the values are compared then. */
  if (c->fixed_layout) {
    if (cv[0].fc != vals[0].fc)
      return FALSE;
  } else {
    for (i = 0; i < n; i++) {
      if (cv[i].fc != vals[i].fc || cv[i].end != vals[i].end ||
          cv[i].name != vals[i].name)
        return FALSE;
    }
  }
  for (i = 0; i < n; i++) {
    const GstCtfFieldValue *v = &vals[i];

    if (is_text[i]) {
      /* The kept text has no NUL: equal when @v starts with it and ends
       * there (its size, or a NUL), without measuring @v first. */
      gsize len = cv[i].v.s.len;

      if (v->v.s.ptr == NULL) {
        if (len != 0)
          return FALSE;
      } else if (len > v->v.s.len || (len < v->v.s.len &&
              v->v.s.ptr[len] != '\0') || !bytes_equal (c->strs->str +
              GPOINTER_TO_SIZE (cv[i].v.s.ptr), v->v.s.ptr, len)) {
        return FALSE;
      }
    } else if (cv[i].v.u != v->v.u) {
      return FALSE;
    }
  }
  return TRUE;
}

/* Keeps @vals and the text they printed (@text, @len) in @c. */
static void
scope_cache_store (ScopeCache * c, const GstCtfFieldValue * vals, guint n,
    const gchar * text, gsize len)
{
  guint i;

  c->valid = FALSE;
  g_array_set_size (c->vals, n);
  g_array_set_size (c->is_text, n);
  g_string_truncate (c->strs, 0);
  for (i = 0; i < n; i++) {
    GstCtfFieldValue *cv = &g_array_index (c->vals, GstCtfFieldValue, i);
    const GstCtfFieldClass *fc = vals[i].fc;
    gboolean txt = fc != NULL && (fc->type == GST_CTF_FIELD_CLASS_STRING ||
        (is_text_array (fc) && vals[i].end <= i + 1));

    *cv = vals[i];
    g_array_index (c->is_text, guint8, i) = txt;
    if (txt) {
      gsize l = vals[i].v.s.ptr ? strnlen (vals[i].v.s.ptr,
          vals[i].v.s.len) : 0;

      cv->v.u = 0;
      cv->v.s.ptr = GSIZE_TO_POINTER (c->strs->len);
      cv->v.s.len = (guint32) l;
      g_string_append_len (c->strs, vals[i].v.s.ptr, l);
    }
  }
  g_string_truncate (c->text, 0);
  g_string_append_len (c->text, text, len);
  if (n > 0 && vals[0].fc != c->layout_root) {
    c->layout_root = vals[0].fc;
    c->root_static = _gst_ctf_text_class_is_static (vals[0].fc, 0);
  }
  c->fixed_layout = n > 0 && c->root_static;
  c->valid = TRUE;
}

static ScopeCache *
scope_cache_new (void)
{
  ScopeCache *c = g_new0 (ScopeCache, 1);

  c->vals = g_array_new (FALSE, FALSE, sizeof (GstCtfFieldValue));
  c->is_text = g_array_new (FALSE, FALSE, 1);
  c->strs = g_string_new (NULL);
  c->text = g_string_new (NULL);
  return c;
}

gboolean
_gst_ctf_text_class_is_static (const GstCtfFieldClass * fc, guint depth)
{
  guint i;

  if (fc == NULL || depth > 256)
    return FALSE;
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_STRUCT:
      for (i = 0; i < fc->n_members; i++)
        if (!_gst_ctf_text_class_is_static (fc->members[i].fc, depth + 1))
          return FALSE;
      return TRUE;
    case GST_CTF_FIELD_CLASS_ARRAY:
      return is_text_array (fc) ||
          _gst_ctf_text_class_is_static (fc->element, depth + 1);
    case GST_CTF_FIELD_CLASS_SEQUENCE:
    case GST_CTF_FIELD_CLASS_VARIANT:
      return FALSE;
    default:
      return TRUE;
  }
}

/* Print templates.  tpl_walk() follows _gst_ctf_text_append_value() and append_struct()
 * exactly, writing the literal text they would print into the template
 * and a hole for each leaf value; it gives up (G_MAXUINT) on sequences and
 * variants, whose layout changes from event to event.  Returns the index
 * after @idx's subtree, as _gst_ctf_text_append_value() does. */
static guint
tpl_walk (GstCtfTextFormatter * f, Template * t, const GstCtfFieldValue * vals,
    guint n, guint idx, gboolean names, gboolean filtered, guint depth)
{
  const GstCtfFieldValue *v = &vals[idx];
  const GstCtfFieldClass *fc = v->fc;
  guint end = MAX (MIN (v->end, n), idx + 1);
  TplOp op;

  if (fc == NULL || depth > 512)
    return G_MAXUINT;
  op.lit_off = t->tail_off;
  op.lit_len = t->lit->len - t->tail_off;
  op.idx = idx;
  op.kind = TPL_VALUE;

  op.idx = idx - t->shift;

  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
      if (fc->integer.base != 2 && fc->integer.base != 8 &&
          fc->integer.base != 16 && fc->form == GST_CTF_FIELD_FORM_PLAIN)
        op.kind = fc->integer.is_signed ? TPL_SDEC : TPL_UDEC;
      else if (fc->integer.base == 16 && fc->form == GST_CTF_FIELD_FORM_PLAIN)
        op.kind = TPL_HEX;
      else
        op.kind = TPL_INT;
      goto hole;
    case GST_CTF_FIELD_CLASS_ENUM:
      op.kind = TPL_ENUM;
      goto hole;
    case GST_CTF_FIELD_CLASS_FLOAT:
      op.kind = TPL_FLOAT;
      goto hole;
    case GST_CTF_FIELD_CLASS_STRING:
      op.kind = TPL_STR;
    hole:
      g_array_append_val (t->ops, op);
      t->tail_off = t->lit->len;
      return end;
    case GST_CTF_FIELD_CLASS_STRUCT:{
      guint child = idx + 1, printed = 0;

      end = MIN (vals[idx].end, n);
      g_string_append_c (t->lit, '{');
      while (child < end) {
        const GstCtfFieldValue *c = &vals[child];
        guint next = c->end > child ? c->end : child + 1;

        if (filtered && g_hash_table_contains (f->not_in_ir, c->fc)) {
          /* (left out, but its size must not vary) */
          if (!_gst_ctf_text_class_is_static (c->fc, 0))
            return G_MAXUINT;
          child = next;
          continue;
        }
        g_string_append (t->lit, printed++ > 0 ? ", " : " ");
        if (names) {
          g_string_append (t->lit, display_name (f, c->name));
          g_string_append (t->lit, " = ");
        }
        child = tpl_walk (f, t, vals, n, child, names, filtered, depth + 1);
        if (child == G_MAXUINT)
          return G_MAXUINT;
        if (child < next)
          child = next;
      }
      g_string_append (t->lit, " }");
      return MAX (end, idx + 1);
    }
    case GST_CTF_FIELD_CLASS_ARRAY:
      if (fc->form == GST_CTF_FIELD_FORM_BLOB)
        goto dyn;
      if (is_text_array (fc) && end == idx + 1) {
        op.kind = TPL_TEXT;
        goto hole;
      } else {
        guint child = idx + 1;
        guint64 i = 0;

        g_string_append_c (t->lit, '[');
        while (child < end) {
          g_string_append (t->lit, i > 0 ? ", " : " ");
          if (names)
            g_string_append_printf (t->lit, "[%" G_GUINT64_FORMAT "] = ", i);
          child = tpl_walk (f, t, vals, n, child, names, filtered,
              depth + 1);
          if (child == G_MAXUINT)
            return G_MAXUINT;
          i++;
        }
        g_string_append (t->lit, " ]");
      }
      return end;
    case GST_CTF_FIELD_CLASS_SEQUENCE:
    case GST_CTF_FIELD_CLASS_VARIANT:
      /* Printed whole by _gst_ctf_text_append_value(); the values after
       * its subtree are found from its end (tpl_run()). */
    dyn:
      op.kind = TPL_DYN;
      g_array_append_val (t->ops, op);
      t->tail_off = t->lit->len;
      t->n_dyn++;
      t->shift += end - (idx + 1);
      return end;
    default:
      return end;
  }
}

static Template *
tpl_build (GstCtfTextFormatter * f, const GstCtfFieldValue * vals, guint n,
    gboolean names, gboolean filtered)
{
  Template *t = g_new0 (Template, 1);

  t->root = vals[0].fc;
  t->n_values = n;
  t->lit = g_string_new (NULL);
  t->ops = g_array_new (FALSE, FALSE, sizeof (TplOp));
  if (tpl_walk (f, t, vals, n, 0, names, filtered, 0) == G_MAXUINT ||
      t->lit->len > G_MAXUINT32) {
    tpl_free (t);
    return &tpl_none;
  }
  t->tail_len = t->lit->len - t->tail_off;
  /* Room tpl_run() reserves before writing: every literal, and per value
   * a number (at most 20 digits, a sign or "0x"), and TPL_LIT_COPY bytes
   * for the fixed-size copy of the last piece of literal.  The literal
   * text is followed by TPL_LIT_COPY readable bytes for the same copies. */
  t->room = t->lit->len + (gsize) t->ops->len * 24 + TPL_LIT_COPY;
  {
    gsize len = t->lit->len;

    g_string_set_size (t->lit, len + TPL_LIT_COPY);
    memset (t->lit->str + len, 0, TPL_LIT_COPY);
    t->lit->len = len;
  }
  g_ptr_array_add (f->templates, t);
  return t;
}

/* A sequence of plain decimal or base-16 integers (`[ [0] = 1, [1] = 2
 * ]`): written in place after one reservation, as
 * _gst_ctf_text_append_value() prints it (templates have no colours).
 * Returns FALSE, writing nothing, for any other sequence. */
static gboolean
tpl_put_int_seq (GString * s, const GstCtfFieldValue * vals, guint idx,
    guint end, gboolean names)
{
  const GstCtfFieldClass *el = vals[idx].fc->element;
  gboolean hex, is_signed;
  guint child;
  guint64 i;
  gsize need;
  gchar *d;

  if (el == NULL || el->type != GST_CTF_FIELD_CLASS_INTEGER ||
      el->form != GST_CTF_FIELD_FORM_PLAIN || el->integer.base == 2 ||
      el->integer.base == 8 || is_text_array (vals[idx].fc))
    return FALSE;
  for (child = idx + 1; child < end; child++)
    if (vals[child].fc != el || vals[child].end > child + 1)
      return FALSE;
  hex = el->integer.base == 16;
  is_signed = el->integer.is_signed;
  /* per element at most ", [" 20 digits "] = " and "-" 20 digits */
  need = 4 + (gsize) (end - idx - 1) * 50;
  if (s->allocated_len - s->len <= need) {
    gsize len = s->len;

    g_string_set_size (s, len + need);
    s->len = len;
  }
  d = s->str + s->len;
  *d++ = '[';
  for (child = idx + 1, i = 0; child < end; child++, i++) {
    guint64 u = vals[child].v.u;

    if (i > 0)
      *d++ = ',';
    *d++ = ' ';
    if (names) {
      *d++ = '[';
      d += write_u64 (d, i);
      memcpy (d, "] = ", 4);
      d += 4;
    }
    if (hex) {
      d[0] = '0';
      d[1] = 'x';
      d += 2 + write_hex_upper (d + 2, hex_bits (el, u));
    } else if (is_signed && vals[child].v.i < 0) {
      *d++ = '-';
      d += write_u64 (d, (guint64) 0 - u);
    } else {
      d += write_u64 (d, u);
    }
  }
  memcpy (d, " ]", 2);
  d += 2;
  *d = '\0';
  s->len = d - s->str;
  return TRUE;
}

/* @n bytes of literal text at @d: one fixed-size copy when short (the
 * literal is followed by TPL_LIT_COPY readable bytes, and the room
 * reserved covers them). */
static inline gchar *
tpl_put_lit (gchar * d, const gchar * lit, guint32 n)
{
  if (G_LIKELY (n <= TPL_LIT_COPY))
    memcpy (d, lit, TPL_LIT_COPY);
  else
    memcpy (d, lit, n);
  return d + n;
}

/* Makes room for @need more bytes after @s's text; returns where it
 * ends. */
static inline gchar *
reserve (GString * s, gsize need)
{
  if (G_UNLIKELY (s->allocated_len - s->len <= need)) {
    gsize len = s->len;

    g_string_set_size (s, len + need);
    s->len = len;
  }
  return s->str + s->len;
}

static void
tpl_run (GstCtfTextFormatter * f, const Template * t, GString * s,
    const GstCtfFieldValue * vals, guint n, gboolean names,
    gboolean filtered)
{
  const TplOp *op = (const TplOp *) (gpointer) t->ops->data;
  const TplOp *ops_end = op + t->ops->len;
  const gchar *lit = t->lit->str;
  /* Slots the dynamic subtrees so far take beyond their root. */
  guint base = 0;
  /* Numbers are written in place after one reservation; other values
   * are appended to @s, and the room is made again after them. */
  gchar *d = reserve (s, t->room);

  for (; op < ops_end; op++) {
    guint idx = op->idx + base;
    const GstCtfFieldValue *v;

    /* (never with values of the template's class: the root matched) */
    if (G_UNLIKELY (idx >= n))
      break;
    v = &vals[idx];
    d = tpl_put_lit (d, lit + op->lit_off, op->lit_len);
    if (G_UNLIKELY (v->fc == NULL))
      continue;                 /* (as _gst_ctf_text_append_value()) */
    switch (op->kind) {
      case TPL_UDEC:
        d += write_u64 (d, v->v.u);
        continue;
      case TPL_SDEC:
        if (v->v.i < 0) {
          *d++ = '-';
          d += write_u64 (d, (guint64) 0 - v->v.u);
        } else {
          d += write_u64 (d, v->v.u);
        }
        continue;
      case TPL_HEX:
        d[0] = '0';
        d[1] = 'x';
        d += 2 + write_hex_upper (d + 2, hex_bits (v->fc, v->v.u));
        continue;
      default:
        break;
    }
    *d = '\0';
    s->len = d - s->str;
    switch (op->kind) {
      case TPL_INT:
        _gst_ctf_text_append_integer (s, v->fc, v);
        break;
      case TPL_ENUM:
        _gst_ctf_text_append_enum (f, s, v->fc, v);
        break;
      case TPL_FLOAT:
        _gst_ctf_text_append_float (s, v->v.d);
        break;
      case TPL_DYN:
        /* The usual sequences in short: a text sequence (without event
         * object emulation) and an empty one. */
        if (v->fc->type == GST_CTF_FIELD_CLASS_SEQUENCE && v->end <= idx + 1) {
          if (is_text_array (v->fc)) {
            if (f->cur_object < 0) {
              _gst_ctf_text_append_field_text (s, v->fc, v);
              break;
            }
          } else if (v->fc->form != GST_CTF_FIELD_FORM_BLOB) {
            put_lit (s, "[ ]");
            break;
          }
        } else if (v->fc->type == GST_CTF_FIELD_CLASS_SEQUENCE &&
            v->fc->form != GST_CTF_FIELD_FORM_BLOB) {
          guint end = MAX (MIN (v->end, n), idx + 1);

          if (tpl_put_int_seq (s, vals, idx, end, names)) {
            base += end - (idx + 1);
            break;
          }
        }
        base += _gst_ctf_text_append_value (f, s, vals, n, idx, names,
            filtered, 1) - (idx + 1);
        break;
      case TPL_TEXT:
        /* (as _gst_ctf_text_append_value(): up to the first NUL) */
        _gst_ctf_text_append_field_text (s, v->fc, v);
        break;
      case TPL_STR:
        if (f->cur_object < 0) {
          _gst_ctf_text_append_field_text (s, v->fc, v);
          break;
        }
        /* fall through */
      default:
        _gst_ctf_text_append_value (f, s, vals, n, idx, names, filtered, 1);
        break;
    }
    d = reserve (s, t->room);
  }
  d = tpl_put_lit (d, lit + t->tail_off, t->tail_len);
  *d = '\0';
  s->len = d - s->str;
}

/* (inlined at each of its four calls: the scope's constants fold) */
G_ALWAYS_INLINE static inline void
append_scope (GstCtfTextFormatter * f, GString * s,
    const TextEventView * ev, GstCtfValueBuf * const *bufs,
    GstCtfScope scope, ScopeState state,
    Template ** tpl, ScopeCache ** cache, const gchar * scope_name,
    gboolean names, gboolean * start_line)
{
  const GstCtfFieldValue *vals;
  guint n = 0;
  gsize start;

  if (state == SCOPE_ABSENT)
    return;
  /* (gst_ctf_event_iter_get_values() without a call per scope) */
  if (bufs == NULL || bufs[scope]->len == 0)
    return;
  vals = bufs[scope]->v;
  n = bufs[scope]->len;
  if (!*start_line)
    put_lit (s, ", ");
  *start_line = FALSE;
  if (f->opts.name_scope) {
    put_color (f, s, COLOR_NAME);
    put_str (s, scope_name);
    put_color (f, s, COLOR_RESET);
    put_lit (s, " = ");
  }
  if (scope == GST_CTF_SCOPE_PACKET_CONTEXT) {
    append_packet_context (f, s, vals, n, names, state == SCOPE_FILTERED,
        _gst_ctf_event_iter_get_packet_serial (ev->it));
    return;
  }
  /* (a string's text depends on more than its value while event objects
   * are emulated) */
  if (cache != NULL && f->cur_object < 0) {
    if (*cache == NULL)
      *cache = scope_cache_new ();
    if (scope_cache_match (*cache, vals, n)) {
      put (s, (*cache)->text->str, (*cache)->text->len);
      return;
    }
  }
  start = s->len;
  /* (templates have no colours) */
  if (tpl != NULL && !f->opts.color) {
    if (*tpl == NULL)
      *tpl = tpl_build (f, vals, n, names, state == SCOPE_FILTERED);
    if (*tpl != &tpl_none && ((*tpl)->n_dyn > 0 || (*tpl)->n_values == n)
        && (*tpl)->root == vals[0].fc) {
      tpl_run (f, *tpl, s, vals, n, names, state == SCOPE_FILTERED);
      goto done;
    }
  }
  _gst_ctf_text_append_value (f, s, vals, n, 0, names, state == SCOPE_FILTERED, 0);
done:
  if (cache != NULL && f->cur_object < 0)
    scope_cache_store (*cache, vals, n, s->str + start, s->len - start);
}

/* ------------------------------------------------------------------ */
/* Timestamps                                                          */

static inline gboolean
event_ns (GstCtfTextFormatter * f, const GstCtfClockClass * cc,
    guint64 cycles, gint64 * ns)
{
  if (f->memo_cc != cc || f->memo_cycles != cycles) {
    if (cc == f->origin_cc && f->origin_ok && cycles < (guint64) G_MAXINT64
        && (f->origin_ns <= 0 || (gint64) cycles <= G_MAXINT64 -
            f->origin_ns)) {
      /* a 1 GHz clock: its offset in ns, plus the cycles (as the
       * conversion below computes it, without its overflow cases) */
      f->memo_ns = f->origin_ns + (gint64) cycles;
      f->memo_ok = TRUE;
    } else {
      f->memo_ok = gst_ctf_clock_class_cycles_to_ns_from_origin (cc, cycles,
          &f->memo_ns);
      if (cc != f->origin_cc) {
        f->origin_cc = cc;
        f->origin_ok = cc->freq == (guint64) NS_PER_S &&
            gst_ctf_clock_class_cycles_to_ns_from_origin (cc, 0,
            &f->origin_ns);
      }
    }
    f->memo_cc = cc;
    f->memo_cycles = cycles;
  }
  *ns = f->memo_ns;
  return f->memo_ok;
}

/* The delta text of an event at @ns (@ns_ok) / @cycles after the event
 * @d describes. */
static inline void
put_delta (GString * s, gboolean clock_cycles, const GstCtfTextDelta * d,
    gboolean ns_ok, gint64 ns, guint64 cycles)
{
  if (clock_cycles) {
    if (!d->have_cycles) {
      put_lit (s, "+????????????");
    } else {
      put_c (s, '+');
      append_u64_padded (s, cycles - d->cycles, 12);
    }
  } else if (d->have_ns && ns_ok) {
    guint64 delta = (guint64) (ns - d->ns);

    if (G_LIKELY (s->allocated_len - s->len > 32)) {
      /* room for all of it: written in place */
      gchar *p = s->str + s->len;

      *p++ = '+';
      if (G_LIKELY (delta < (guint64) NS_PER_S)) {
        /* (the usual delta, under a second: no division) */
        *p++ = '0';
        *p++ = '.';
        write_9digits (p, (guint32) delta);
        p += 9;
        *p = '\0';
        s->len = p - s->str;
        return;
      }
      p += write_u64 (p, delta / NS_PER_S);
      *p++ = '.';
      write_9digits (p, (guint32) (delta % NS_PER_S));
      p += 9;
      *p = '\0';
      s->len = p - s->str;
      return;
    }
    put_c (s, '+');
    append_u64 (s, delta / NS_PER_S);
    put_c (s, '.');
    append_9digits (s, (guint32) (delta % NS_PER_S));
  } else {
    put_lit (s, "+?.?????????");
  }
}

/* Moves @d to an event with a clock. */
static inline void
delta_update (GstCtfTextDelta * d, gboolean clock_cycles, gboolean ns_ok,
    gint64 ns, guint64 cycles)
{
  if (clock_cycles) {
    d->have_cycles = TRUE;
    d->cycles = cycles;
  } else if (ns_ok) {
    d->have_ns = TRUE;
    d->ns = ns;
  }
}

static void
append_event_timestamp (GstCtfTextFormatter * f, GString * s,
    const GstCtfClockClass * cc, guint64 cycles, gboolean * start_line)
{
  gboolean names = f->opts.name_header;
  gint64 ns = 0;
  gboolean ns_ok = event_ns (f, cc, cycles, &ns);

  if (names) {
    put_color (f, s, COLOR_NAME);
    put_lit (s, "timestamp");
    put_color (f, s, COLOR_RESET);
    put_lit (s, " = ");
  } else {
    put_c (s, '[');
  }

  put_color (f, s, COLOR_TIMESTAMP);
  if (f->opts.clock_cycles) {
    append_u64_padded (s, cycles, 20);
  } else if (f->opts.clock_offset_s != 0 || f->opts.clock_offset_ns != 0) {
    gint64 printed;

    if (_gst_ctf_text_printed_ns (f, cc, cycles, &printed))
      _gst_ctf_text_append_wall_clock (f, s, cc, printed);
    else
      put_lit (s, "Error");
  } else if (!ns_ok) {
    put_lit (s, "Error");
  } else {
    _gst_ctf_text_append_wall_clock (f, s, cc, ns);
  }

  put_color (f, s, COLOR_RESET);
  if (!names)
    put_lit (s, "] ");

  if (!f->opts.no_delta) {
    if (names) {
      put_lit (s, ", ");
      put_color (f, s, COLOR_NAME);
      put_lit (s, "delta");
      put_color (f, s, COLOR_RESET);
      put_lit (s, " = ");
    }
    else
      put_c (s, '(');
    if (f->defer_delta)
      f->line.delta_at = (gssize) (s->len - f->line_start);
    else
      put_delta (s, f->opts.clock_cycles, &f->delta, ns_ok, ns, cycles);
    if (!names)
      put_lit (s, ") ");
  }
  if (f->defer_delta) {
    f->line.has_clock = TRUE;
    f->line.has_ns = ns_ok;
    f->line.ns = ns;
    f->line.cycles = cycles;
  } else {
    delta_update (&f->delta, f->opts.clock_cycles, ns_ok, ns, cycles);
  }
  *start_line = !names;
}

void
gst_ctf_text_formatter_append_delta (const GstCtfTextFormatter * f,
    GString * out, GstCtfTextDelta * state, const GstCtfTextLine * line)
{
  g_return_if_fail (f != NULL && out != NULL && state != NULL
      && line != NULL);

  if (!line->has_clock)
    return;
  if (line->delta_at >= 0)
    put_delta (out, f->opts.clock_cycles, state, line->has_ns, line->ns,
        line->cycles);
  delta_update (state, f->opts.clock_cycles, line->has_ns, line->ns,
      line->cycles);
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

static const gchar *const log_level_names[] = {
  "TRACE_EMERG", "TRACE_ALERT", "TRACE_CRIT", "TRACE_ERR", "TRACE_WARNING",
  "TRACE_NOTICE", "TRACE_INFO", "TRACE_DEBUG_SYSTEM", "TRACE_DEBUG_PROGRAM",
  "TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT",
  "TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE", "TRACE_DEBUG",
};

static inline void
sep_field (GstCtfTextFormatter * f, GString * s, gboolean start_line,
    gboolean names, const gchar * name, gboolean dom_print)
{
  if (!start_line)
    put_lit (s, ", ");
  if (names) {
    put_color (f, s, COLOR_NAME);
    put_str (s, name);
    put_color (f, s, COLOR_RESET);
    put_lit (s, " = ");
  } else if (dom_print) {
    put_c (s, ':');
  }
}

/* gst_ctf_text_formatter_format_event() after its checks */
static inline void
format_event (GstCtfTextFormatter * f, GstCtfEventIter * it, GString * out)
{
  const GstCtfPacketInfo *pi;
  TextEventView ev;

  pi = gst_ctf_event_iter_get_packet_info (it);
  ev.sc = pi ? pi->stream_class : NULL;
  ev.ec = gst_ctf_event_iter_get_event_class (it);
  ev.cycles = gst_ctf_event_iter_get_clock_value (it);
  ev.it = it;
  _gst_ctf_text_format_view (f, &ev, out);
}

void
gst_ctf_text_formatter_format_event (GstCtfTextFormatter * f,
    GstCtfEventIter * it, GString * out)
{
  g_return_if_fail (f != NULL && it != NULL && out != NULL);

  format_event (f, it, out);
}

void
gst_ctf_text_formatter_format_event_line (GstCtfTextFormatter * f,
    GstCtfEventIter * it, GString * out, GstCtfTextLine * line)
{
  g_return_if_fail (f != NULL && it != NULL && out != NULL && line != NULL);

  f->defer_delta = TRUE;
  f->line_start = out->len;
  memset (&f->line, 0, sizeof (f->line));
  f->line.delta_at = -1;
  format_event (f, it, out);
  f->defer_delta = FALSE;
  *line = f->line;
}

/* Trace environment fields, log level, EMF URI and event name, after the
 * timestamp; @start_line: nothing was printed on the line yet. */
static void
append_head (GstCtfTextFormatter * f, GString * out, const ScInfo * si,
    const GstCtfEventClass * ec, gboolean start_line)
{
  gboolean names = f->opts.name_header;
  gboolean dom_print = FALSE;
  const gchar *trace_name = _gst_ctf_text_trace_name (f, si);

  if (f->opts.field_trace && trace_name) {
    if (!start_line)
      put_lit (out, ", ");
    if (names) {
      put_color (f, out, COLOR_NAME);
      put_lit (out, "trace");
      put_color (f, out, COLOR_RESET);
      put_lit (out, " = ");
    }
    put_str (out, trace_name);
    if (names)
      put_lit (out, ", ");
  }
  if (f->opts.field_trace_hostname && (si->merged ? si->env_hostname :
          f->env_hostname)) {
    sep_field (f, out, start_line, names, "trace:hostname", FALSE);
    put_str (out, si->merged ? si->env_hostname : f->env_hostname);
    dom_print = TRUE;
  }
  if (f->opts.field_trace_domain && (si->merged ? si->env_domain :
          f->env_domain)) {
    sep_field (f, out, start_line, names, "trace:domain", dom_print);
    put_str (out, si->merged ? si->env_domain : f->env_domain);
    dom_print = TRUE;
  }
  if (f->opts.field_trace_procname && (si->merged ? si->env_procname :
          f->env_procname)) {
    sep_field (f, out, start_line, names, "trace:procname", dom_print);
    put_str (out, si->merged ? si->env_procname : f->env_procname);
    dom_print = TRUE;
  }
  if (f->opts.field_trace_vpid && (si->merged ? si->has_env_vpid :
          f->has_env_vpid)) {
    sep_field (f, out, start_line, names, "trace:vpid", dom_print);
    put_c (out, '(');
    append_i64 (out, si->merged ? si->env_vpid : f->env_vpid);
    put_c (out, ')');
    dom_print = TRUE;
  }
  if (f->opts.field_loglevel && ec != NULL && ec->loglevel >= 0 &&
      ec->loglevel < (gint64) G_N_ELEMENTS (log_level_names)) {
    sep_field (f, out, start_line, names, "loglevel", dom_print);
    put_str (out, log_level_names[ec->loglevel]);
    put_lit (out, " (");
    append_i64 (out, ec->loglevel);
    put_c (out, ')');
    dom_print = TRUE;
  }
  if (f->opts.field_emf && ec != NULL && ec->model_emf_uri) {
    sep_field (f, out, start_line, names, "model.emf.uri", dom_print);
    put_str (out, ec->model_emf_uri);
    dom_print = TRUE;
  }
  if (dom_print && !names)
    put_c (out, ' ');
  if (!start_line)
    put_lit (out, ", ");
  start_line = TRUE;
  if (names) {
    put_color (f, out, COLOR_NAME);
    put_lit (out, "name");
    put_color (f, out, COLOR_RESET);
    put_lit (out, " = ");
  }
  put_color (f, out, COLOR_EVENT_NAME);
  put_str (out, ec && ec->name ? ec->name : "<unknown>");
  put_color (f, out, COLOR_RESET);
  if (names)
    put_lit (out, ", ");
  else
    put_lit (out, ": ");
}

void
_gst_ctf_text_format_view (GstCtfTextFormatter * f, const TextEventView * ev,
    GString * out)
{
  const GstCtfStreamClass *sc = ev->sc;
  const GstCtfEventClass *ec = ev->ec;
  const ScInfo *si;
  const EcInfo *ei;
  GstCtfValueBuf *const *bufs;
  gboolean start_line = TRUE;
  static const ScInfo no_sc = { SCOPE_ABSENT, SCOPE_ABSENT };
  static const EcInfo no_ec = { SCOPE_ABSENT, SCOPE_ABSENT };

  if (sc != f->last_sc || f->last_sc_info == NULL) {
    si = sc ? g_hash_table_lookup (f->sc_info, sc) : NULL;
    f->last_sc = sc;
    f->last_sc_info = si ? si : &no_sc;
  }
  si = f->last_sc_info;
  if (ec != f->last_ec || f->last_ec_info == NULL) {
    guint slot = (guint) (((guintptr) ec >> 4) & 63);

    if (ec != NULL && f->ec_cache_key[slot] == ec) {
      ei = f->ec_cache_val[slot];
    } else {
      ei = ec ? g_hash_table_lookup (f->ec_info, ec) : NULL;
      if (ei == NULL)
        ei = &no_ec;
      else {
        f->ec_cache_key[slot] = ec;
        f->ec_cache_val[slot] = ei;
      }
    }
    f->last_ec = ec;
    f->last_ec_info = ei;
  }
  ei = f->last_ec_info;

  if (f->opts.json_lines) {
    _gst_ctf_text_format_json (f, ev, si, ei != &no_ec && sc != NULL ?
        (EcInfo *) ei : NULL, out);
    return;
  }

  /* Timestamp, only when the stream class has a default clock. */
  if (sc != NULL && sc->default_clock != NULL) {
    guint64 cycles = ev->cycles;

    append_event_timestamp (f, out, sc->default_clock, cycles, &start_line);
  }

  /* The text between the delta and the scopes depends on the event class
   * only: made once. */
  if (ei != &no_ec && sc != NULL) {
    EcInfo *mei = (EcInfo *) ei;

    if (mei->head == NULL || mei->head_entry != start_line) {
      if (mei->head == NULL)
        mei->head = g_string_new (NULL);
      g_string_truncate (mei->head, 0);
      append_head (f, mei->head, si, ec, start_line);
      mei->head_entry = start_line;
    }
    put (out, mei->head->str, mei->head->len);
  } else {
    append_head (f, out, si, ec, start_line);
  }
  start_line = TRUE;

  bufs = _gst_ctf_event_iter_get_value_bufs (ev->it);
  /* (the static no_sc / no_ec have absent scopes: their template slots
   * are never written) */
  append_scope (f, out, ev, bufs, GST_CTF_SCOPE_PACKET_CONTEXT, si->packet_context,
      NULL, NULL, "stream.packet.context", f->opts.name_context,
      &start_line);
  /* (the common context mostly repeats: the same process and thread) */
  append_scope (f, out, ev, bufs, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
      si->common_context, &((ScInfo *) si)->common_tpl,
      &((ScInfo *) si)->common_cache, "stream.event.context",
      f->opts.name_context, &start_line);
  append_scope (f, out, ev, bufs, GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT,
      ei->specific_context, &((EcInfo *) ei)->specific_tpl, NULL,
      "event.context", f->opts.name_context, &start_line);
  append_scope (f, out, ev, bufs, GST_CTF_SCOPE_EVENT_PAYLOAD, ei->payload,
      &((EcInfo *) ei)->payload_tpl, NULL,
      "event.fields", f->opts.name_payload, &start_line);
  put_c (out, '\n');
}
