/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The TSDL writer (CTF 1.8 §7): trace class -> metadata text.
 *
 * Everything is written inline (no typealias), with every attribute the
 * model knows made explicit, so that reading the text back gives the same
 * model whatever the defaults of the reader.  Block order follows what
 * babeltrace2 needs: the trace block first (byte order for `native`),
 * clocks before the integers that map to them, each stream before its
 * events.
 */
#include "gstctf-tsdl-writer.h"

#include <string.h>

#define MAX_DEPTH 64

static const gchar *const keywords[] = {
  "align", "callsite", "const", "char", "clock", "double", "enum", "env",
  "event", "floating_point", "float", "integer", "int", "long", "short",
  "signed", "stream", "string", "struct", "trace", "typealias", "typedef",
  "unsigned", "variant", "void", "_Bool", "_Complex", "_Imaginary", NULL
};

static gboolean
is_keyword (const gchar * s)
{
  guint i;

  for (i = 0; keywords[i]; i++) {
    if (s[0] == keywords[i][0] && strcmp (s, keywords[i]) == 0)
      return TRUE;
  }
  return FALSE;
}

static gboolean
is_identifier (const gchar * s)
{
  const gchar *p;

  if (s == NULL || s[0] == '\0' || g_ascii_isdigit (s[0]))
    return FALSE;
  for (p = s; *p; p++) {
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  }
  return TRUE;
}

/* A stream class's text as written, for its twins: its scopes (after
 * the `id` line, to the end of the stream block) and, per event class,
 * the text before its `stream_id` line and the text after it. */
typedef struct {
  gsize start, end;
} Span;

typedef struct {
  Span scopes;
  guint first_event;            /* in the event spans: 2 per event class */
  guint n_events;
} Spans;

/* Appends the bytes of @s at @span (s->str moves when it grows: copied
 * by offset after growing). */
static void
append_span (GString * s, const Span * span)
{
  gsize at = s->len, n = span->end - span->start;

  g_string_set_size (s, at + n);
  memmove (s->str + at, s->str + span->start, n);
}

gboolean
_gst_ctf_tsdl_name_is_plain (const gchar * name)
{
  return is_identifier (name) && !is_keyword (name);
}

/* A field or option name: identifiers go as they are; others get a
 * leading underscore, which readers strip for display (§4.2.2). */
static void
append_name (GString * s, const gchar * name)
{
  const gchar *p;

  if (is_identifier (name) && !is_keyword (name)) {
    g_string_append (s, name);
    return;
  }
  g_string_append_c (s, '_');
  for (p = name ? name : ""; *p; p++)
    g_string_append_c (s, g_ascii_isalnum (*p) ? *p : '_');
}

/* A string literal with C escapes (§7.1: TSDL literals are C's).  The
 * metadata is UTF-8 text (caps carry it as a string): bytes that are not
 * UTF-8 (a corrupt trace.dat's event name) become U+FFFD, as in the CTF 2
 * writer. */
static void
append_quoted (GString * s, const gchar * str)
{
  gchar *valid = NULL;
  const guchar *p;

  if (str && !g_utf8_validate (str, -1, NULL))
    str = valid = g_utf8_make_valid (str, -1);
  g_string_append_c (s, '"');
  for (p = (const guchar *) (str ? str : ""); *p; p++) {
    switch (*p) {
      case '"':
        g_string_append (s, "\\\"");
        break;
      case '\\':
        g_string_append (s, "\\\\");
        break;
      case '\n':
        g_string_append (s, "\\n");
        break;
      case '\t':
        g_string_append (s, "\\t");
        break;
      case '\r':
        g_string_append (s, "\\r");
        break;
      default:
        if (*p < 0x20 || *p == 0x7f)
          g_string_append_printf (s, "\\%03o", *p);
        else
          g_string_append_c (s, *p);
        break;
    }
  }
  g_string_append_c (s, '"');
  g_free (valid);
}

static void
append_uuid (GString * s, const guint8 * u)
{
  g_string_append_printf (s, "\"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
      "%02x%02x%02x%02x%02x%02x\"", u[0], u[1], u[2], u[3], u[4], u[5], u[6],
      u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static void
indent (GString * s, guint level)
{
  guint i;

  for (i = 0; i < level; i++)
    g_string_append_c (s, '\t');
}

static const gchar *
byte_order_name (GstCtfByteOrder bo)
{
  return bo == GST_CTF_BYTE_ORDER_BE ? "be" : "le";
}

static const gchar *
encoding_name (GstCtfEncoding e)
{
  switch (e) {
    case GST_CTF_ENCODING_UTF8:
      return "UTF8";
    case GST_CTF_ENCODING_ASCII:
      return "ASCII";
    default:
      return "none";
  }
}

typedef struct {
  GString *s;
  const GstCtfTraceClass *tc;
  GError **error;
  gboolean failed;
  /* the model comes from CTF 2 metadata: its names are shown as written,
   * so a leading underscore gets another one (readers of TSDL strip
   * one, CTF 1.8 §4.2.2) */
  gboolean ctf2;
  /* the absolute path prefix of the scope being written ("event.fields."),
   * for sequence lengths and variant tags (append_scope_ref_path()) */
  const gchar *scope_prefix;
} W;

/* A member or option name, escaped for a CTF 2 model. */
static void
append_member_name (W * w, GString * s, const gchar * name)
{
  if (w->ctf2 && name != NULL && name[0] == '_')
    g_string_append_c (s, '_');
  append_name (s, name);
}

/* A sequence length / variant tag path, its names escaped as
 * append_member_name() does (the scope prefix of an absolute path has
 * none starting with an underscore). */
static void
append_ref_path (W * w, GString * s, const gchar * path)
{
  gchar **tok;
  guint i;

  if (!w->ctf2) {
    g_string_append (s, path);
    return;
  }
  tok = g_strsplit (path, ".", -1);
  for (i = 0; tok[i] != NULL; i++) {
    if (i > 0)
      g_string_append_c (s, '.');
    if (tok[i][0] == '_')
      g_string_append_c (s, '_');
    g_string_append (s, tok[i]);
  }
  g_strfreev (tok);
}

/* A sequence length or variant tag path: one in the scope being written
 * (a CTF 2 location, or a merged trace class holding one: "event.fields.")
 * is written relative, found by the lexical lookup.  babeltrace2's TSDL
 * parser takes no variant tag starting with a keyword, and Trace Compass
 * resolves no sequence length "event.fields.NAME" ("Is not an integer"). */
static void
append_scope_ref_path (W * w, GString * s, const gchar * path)
{
  if (w->scope_prefix != NULL && g_str_has_prefix (path, w->scope_prefix)
      && path[strlen (w->scope_prefix)] != '\0')
    append_ref_path (w, s, path + strlen (w->scope_prefix));
  else
    append_ref_path (w, s, path);
}

static void
fail (W * w, const gchar * what, const gchar * name)
{
  if (w->failed)
    return;
  w->failed = TRUE;
  g_set_error (w->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
      "Cannot write TSDL: field=\"%s\", %s", name ? name : "", what);
}

static void write_type (W * w, const GstCtfFieldClass * fc, const gchar *
    name, guint level, guint depth);

/* @v in decimal (g_string_append_printf() costs a vasprintf and an
 * allocation: a merged trace class of 1000 traces has 29 000 integers) */
static void
append_uint (GString * s, guint64 v)
{
  gchar buf[20];
  guint n = 0;

  do {
    buf[sizeof (buf) - 1 - n++] = (gchar) ('0' + v % 10);
    v /= 10;
  } while (v != 0);
  g_string_append_len (s, buf + sizeof (buf) - n, n);
}

static void
append_int (GString * s, gint64 v)
{
  if (v < 0) {
    g_string_append_c (s, '-');
    append_uint (s, 0 - (guint64) v);
  } else {
    append_uint (s, (guint64) v);
  }
}

static void
write_integer (W * w, const GstCtfFieldClass * fc, const gchar * name)
{
  GString *s = w->s;

  if (fc->integer.size == 0 || fc->integer.size > 64) {
    fail (w, "expected an integer of 1 to 64 bits", name);
    return;
  }
  g_string_append (s, "integer { size = ");
  append_uint (s, fc->integer.size);
  g_string_append (s, "; align = ");
  append_uint (s, fc->alignment);
  g_string_append (s, fc->integer.is_signed ? "; signed = true;" :
      "; signed = false;");
  if (fc->integer.byte_order != w->tc->byte_order) {
    g_string_append (s, " byte_order = ");
    g_string_append (s, byte_order_name (fc->integer.byte_order));
    g_string_append_c (s, ';');
  }
  g_string_append (s, " encoding = ");
  g_string_append (s, encoding_name (fc->integer.encoding));
  g_string_append (s, "; base = ");
  append_uint (s, fc->integer.base ? fc->integer.base : 10);
  g_string_append_c (s, ';');
  if (fc->integer.map_clock_name || fc->integer.mapped_clock) {
    const gchar *cn = fc->integer.mapped_clock ?
        fc->integer.mapped_clock->name : fc->integer.map_clock_name;

    g_string_append (s, " map = clock.");
    append_name (s, cn);
    g_string_append (s, ".value;");
  }
  g_string_append (s, " }");
}

static void
append_enum_value (GString * s, const GstCtfFieldClass * fc, guint64 v)
{
  if (fc->integer.is_signed && (gint64) v < 0) {
    g_string_append_c (s, '-');
    append_uint (s, 0 - v);
  } else {
    append_uint (s, v);
  }
}

static void
write_enum (W * w, const GstCtfFieldClass * fc, const gchar * name,
    guint level)
{
  GString *s = w->s;
  guint i;

  g_string_append (s, "enum : ");
  write_integer (w, fc, name);
  g_string_append (s, " {\n");
  for (i = 0; i < fc->enumeration.n_mappings; i++) {
    const GstCtfEnumMapping *m = &fc->enumeration.mappings[i];

    indent (s, level + 1);
    if (is_identifier (m->label) && !is_keyword (m->label))
      g_string_append (s, m->label);
    else
      append_quoted (s, m->label);
    g_string_append (s, " = ");
    append_enum_value (s, fc, m->lower);
    if (m->upper != m->lower) {
      g_string_append (s, " ... ");
      append_enum_value (s, fc, m->upper);
    }
    g_string_append (s, i + 1 < fc->enumeration.n_mappings ? ",\n" : "\n");
  }
  indent (s, level);
  g_string_append (s, "}");
}

/* Writes "TYPE NAME[dims];" for a member or option. */
/* The TSDL name babeltrace2 gives a CTF 2 role by (CTF 1.8's reserved
 * names), or NULL. */
static const gchar *
reserved_name (const GstCtfFieldClass * fc)
{
  switch (fc->meaning) {
    case GST_CTF_MEANING_MAGIC:
      return "magic";
    case GST_CTF_MEANING_UUID:
      return "uuid";
    case GST_CTF_MEANING_STREAM_CLASS_ID:
      return "stream_id";
    case GST_CTF_MEANING_STREAM_INSTANCE_ID:
      return "stream_instance_id";
    case GST_CTF_MEANING_TIMESTAMP_BEGIN:
      return "timestamp_begin";
    case GST_CTF_MEANING_TIMESTAMP_END:
      return "timestamp_end";
    case GST_CTF_MEANING_EVENTS_DISCARDED:
      return "events_discarded";
    case GST_CTF_MEANING_PACKET_SEQ_NUM:
      return "packet_seq_num";
    case GST_CTF_MEANING_PACKET_SIZE:
      return "packet_size";
    case GST_CTF_MEANING_CONTENT_SIZE:
      return "content_size";
    case GST_CTF_MEANING_EVENT_CLASS_ID:
      return "id";
    default:
      return NULL;
  }
}

const gchar *
_gst_ctf_tsdl_variant_option_label (const GstCtfFieldClass * fc, guint k)
{
  const GstCtfFieldClass *tag = fc->ref_target;
  guint l, m, n_opt = 0;

  if (tag == NULL || tag->type != GST_CTF_FIELD_CLASS_ENUM)
    return NULL;
  for (m = 0; m < fc->enumeration.n_mappings; m++)
    n_opt += fc->enumeration.mappings[m].option == k;
  if (n_opt == 0)
    return NULL;
  /* a label whose ranges are exactly the option's */
  for (l = 0; l < tag->enumeration.n_mappings; l++) {
    const gchar *label = tag->enumeration.mappings[l].label;
    guint n_label = 0, found = 0;

    for (m = 0; m < tag->enumeration.n_mappings; m++) {
      const GstCtfEnumMapping *lm = &tag->enumeration.mappings[m];
      guint o;

      if (g_strcmp0 (lm->label, label) != 0)
        continue;
      n_label++;
      for (o = 0; o < fc->enumeration.n_mappings; o++) {
        const GstCtfEnumMapping *om = &fc->enumeration.mappings[o];

        if (om->option == k && om->lower == lm->lower &&
            om->upper == lm->upper) {
          found++;
          break;
        }
      }
    }
    if (n_label == n_opt && found == n_label)
      return label;
  }
  return NULL;
}

static void
write_decl (W * w, const GstCtfFieldClass * fc, const gchar * name,
    guint level, guint depth, gboolean raw)
{
  GString *dims = g_string_new (NULL);
  const GstCtfFieldClass *base = fc;

  /* C declarator order: the outermost dimension first */
  while (base && (base->type == GST_CTF_FIELD_CLASS_ARRAY
          || base->type == GST_CTF_FIELD_CLASS_SEQUENCE)) {
    if (base->type == GST_CTF_FIELD_CLASS_ARRAY) {
      g_string_append_printf (dims, "[%" G_GUINT64_FORMAT "]", base->length);
    } else {
      if (base->ref_path == NULL || base->ref_path[0] == '\0')
        fail (w, "expected a sequence length path", name);
      g_string_append_c (dims, '[');
      append_scope_ref_path (w, dims, base->ref_path ? base->ref_path : "");
      g_string_append_c (dims, ']');
    }
    base = base->element;
  }
  indent (w->s, level);
  if (base == NULL)
    fail (w, "expected an element field class", name);
  else
    write_type (w, base, name, level, depth + 1);
  g_string_append_c (w->s, ' ');
  /* a CTF 2 field with a role gets the reserved name babeltrace2 gives
   * that meaning by; an option, the label of its selector that selects
   * it, as written */
  if (w->ctf2 && reserved_name (fc) != NULL)
    g_string_append (w->s, reserved_name (fc));
  else if (raw)
    append_name (w->s, name);
  else
    append_member_name (w, w->s, name);
  g_string_append (w->s, dims->str);
  g_string_append (w->s, ";\n");
  g_string_free (dims, TRUE);
}

static void
write_members (W * w, const GstCtfFieldClass * fc, guint level, guint depth)
{
  guint i;

  for (i = 0; i < fc->n_members && !w->failed; i++) {
    const gchar *label = NULL;

    /* (a trace class built in memory, not resolved: its options as
     * named) */
    if (w->ctf2 && fc->type == GST_CTF_FIELD_CLASS_VARIANT &&
        fc->enumeration.n_mappings > 0 && fc->ref_target != NULL) {
      label = _gst_ctf_tsdl_variant_option_label (fc, i);
      if (label == NULL) {
        fail (w, "expected an option selected by one label of its "
            "enumeration selector", fc->members[i].name);
        return;
      }
    }
    write_decl (w, fc->members[i].fc, label ? label : fc->members[i].name,
        level + 1, depth, label != NULL);
  }
}

static void
write_type (W * w, const GstCtfFieldClass * fc, const gchar * name,
    guint level, guint depth)
{
  GString *s = w->s;

  if (depth > MAX_DEPTH) {
    fail (w, "expected a field class nested at most 64 deep", name);
    return;
  }
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
      write_integer (w, fc, name);
      break;
    case GST_CTF_FIELD_CLASS_ENUM:
      /* a CTF 2 bit map's flags are bit indices, not values: written
       * (lossy) as its integer */
      if (fc->form == GST_CTF_FIELD_FORM_BIT_MAP)
        write_integer (w, fc, name);
      else
        write_enum (w, fc, name, level);
      break;
    case GST_CTF_FIELD_CLASS_FLOAT:
      if (!((fc->floating.exp_dig == 8 && fc->floating.mant_dig == 24)
              || (fc->floating.exp_dig == 11
                  && fc->floating.mant_dig == 53))) {
        fail (w, "expected a 32- or 64-bit float", name);
        break;
      }
      g_string_append_printf (s, "floating_point { exp_dig = %u; "
          "mant_dig = %u; align = %u;", fc->floating.exp_dig,
          fc->floating.mant_dig, fc->alignment);
      if (fc->floating.byte_order != w->tc->byte_order)
        g_string_append_printf (s, " byte_order = %s;",
            byte_order_name (fc->floating.byte_order));
      g_string_append (s, " }");
      break;
    case GST_CTF_FIELD_CLASS_STRING:
      if (fc->string.encoding == GST_CTF_ENCODING_UTF8)
        g_string_append (s, "string");
      else
        g_string_append_printf (s, "string { encoding = %s; }",
            encoding_name (fc->string.encoding));
      break;
    case GST_CTF_FIELD_CLASS_STRUCT:{
      guint i, max = 1;

      g_string_append (s, "struct {\n");
      write_members (w, fc, level, depth);
      indent (s, level);
      g_string_append (s, "}");
      /* align() only when more than the members ask (§4.2.1) */
      for (i = 0; i < fc->n_members; i++)
        max = MAX (max, fc->members[i].fc->alignment);
      if (fc->alignment > max)
        g_string_append_printf (s, " align(%u)", fc->alignment);
      break;
    }
    case GST_CTF_FIELD_CLASS_VARIANT:
      if (fc->ref_path == NULL || fc->ref_path[0] == '\0') {
        fail (w, "expected a variant tag path", name);
        break;
      }
      g_string_append (s, "variant <");
      append_scope_ref_path (w, s, fc->ref_path);
      g_string_append (s, "> {\n");
      write_members (w, fc, level, depth);
      indent (s, level);
      g_string_append (s, "}");
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      /* only reached for a scope root that is an array: not TSDL */
      fail (w, "expected a struct at the root of a scope", name);
      break;
  }
}

static void
write_scope (W * w, const gchar * key, const GstCtfFieldClass * fc,
    guint level)
{
  static const gchar *const prefixes[][2] = {
    {"packet.header", "trace.packet.header."},
    {"packet.context", "stream.packet.context."},
    {"event.header", "stream.event.header."},
    {"event.context", "stream.event.context."},
    {"context", "event.context."},
    {"fields", "event.fields."},
  };
  guint i;

  if (fc == NULL)
    return;
  w->scope_prefix = NULL;
  for (i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (strcmp (key, prefixes[i][0]) == 0)
      w->scope_prefix = prefixes[i][1];
  indent (w->s, level);
  g_string_append_printf (w->s, "%s := ", key);
  write_type (w, fc, key, level, 0);
  g_string_append (w->s, ";\n");
}

static gboolean
header_has_meaning (const GstCtfFieldClass * fc, GstCtfFieldMeaning m,
    guint depth)
{
  guint i;

  if (fc == NULL || depth > MAX_DEPTH)
    return FALSE;
  if (fc->meaning == m)
    return TRUE;
  for (i = 0; i < fc->n_members; i++) {
    if (header_has_meaning (fc->members[i].fc, m, depth + 1))
      return TRUE;
  }
  return FALSE;
}

gchar *
gst_ctf_tsdl_write (const GstCtfTraceClass * tc, GError ** error)
{
  g_return_val_if_fail (tc != NULL, NULL);

  return _gst_ctf_tsdl_write_twins (tc, NULL, error);
}

gchar *
_gst_ctf_tsdl_write_twins (const GstCtfTraceClass * tc, const gint * twin_of,
    GError ** error)
{
  W w = { 0, };
  GString *s;
  gboolean write_ids, bare = FALSE;
  guint i, j;
  /* where each stream class's text went (only when twins are given) */
  GArray *spans = twin_of ? g_array_new (FALSE, FALSE, sizeof (Spans)) : NULL;
  GArray *event_spans = twin_of ? g_array_new (FALSE, FALSE,
      sizeof (Span)) : NULL;

  s = w.s = g_string_new ("/* CTF 1.8 */\n\n");
  w.tc = tc;
  w.error = error;
  w.ctf2 = tc->major >= 2;

  g_string_append (s, "trace {\n");
  /* a trace class built in memory may leave the version unset, and one
   * read from CTF 2 metadata is written as CTF 1.8: 1.8 */
  g_string_append_printf (s, "\tmajor = %u;\n\tminor = %u;\n",
      (tc->major || tc->minor) && !w.ctf2 ? tc->major : 1,
      (tc->major || tc->minor) && !w.ctf2 ? tc->minor : 8);
  if (tc->has_uuid) {
    g_string_append (s, "\tuuid = ");
    append_uuid (s, tc->uuid);
    g_string_append (s, ";\n");
  }
  g_string_append_printf (s, "\tbyte_order = %s;\n",
      byte_order_name (tc->byte_order));
  write_scope (&w, "packet.header", tc->packet_header, 1);
  g_string_append (s, "};\n\n");

  if (tc->env->len > 0) {
    g_string_append (s, "env {\n");
    for (i = 0; i < tc->env->len; i++) {
      const GstCtfEnvEntry *e = g_ptr_array_index (tc->env, i);

      g_string_append_c (s, '\t');
      append_name (s, e->name);
      g_string_append (s, " = ");
      if (e->is_string)
        append_quoted (s, e->str);
      else
        append_int (s, e->integer);
      g_string_append (s, ";\n");
    }
    g_string_append (s, "};\n\n");
  }

  for (i = 0; i < tc->clock_classes->len; i++) {
    const GstCtfClockClass *cc = g_ptr_array_index (tc->clock_classes, i);

    g_string_append (s, "clock {\n\tname = ");
    append_name (s, cc->name);
    g_string_append (s, ";\n");
    if (cc->has_uuid) {
      g_string_append (s, "\tuuid = ");
      append_uuid (s, cc->uuid);
      g_string_append (s, ";\n");
    }
    if (cc->description) {
      g_string_append (s, "\tdescription = ");
      append_quoted (s, cc->description);
      g_string_append (s, ";\n");
    }
    g_string_append_printf (s, "\tfreq = %" G_GUINT64_FORMAT ";\n"
        "\tprecision = %" G_GUINT64_FORMAT ";\n"
        "\toffset_s = %" G_GINT64_FORMAT ";\n"
        "\toffset = %" G_GINT64_FORMAT ";\n", cc->freq, cc->precision,
        cc->offset_s, cc->offset);
    if (cc->absolute)
      g_string_append (s, "\tabsolute = true;\n");
    g_string_append (s, "};\n\n");
  }

  /* babeltrace2 refuses a stream `id` when the packet header has no
   * `stream_id`, unless there are several stream classes. */
  write_ids = tc->stream_classes->len > 1
      || header_has_meaning (tc->packet_header,
      GST_CTF_MEANING_STREAM_CLASS_ID, 0);
  /* the only stream class, without id and scopes, needs no `stream`
   * block (CTF 1.8 §6.2), and Trace Compass's TSDL grammar takes no
   * empty one (`stream { };`: "RewriteEmptyStreamException: rule
   * ctfBody") */
  if (tc->stream_classes->len == 1 && !write_ids) {
    const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, 0);

    bare = sc->event_header == NULL && sc->packet_context == NULL
        && sc->event_common_context == NULL;
  }

  for (i = 0; i < tc->stream_classes->len && !w.failed; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);
    gint twin = twin_of ? twin_of[i] : -1;
    const Spans *t = twin >= 0 && (guint) twin < i ?
        &g_array_index (spans, Spans, twin) : NULL;
    Spans own = { {0, 0}, 0, 0 };
    gsize at;

    if (t && t->n_events != sc->event_classes->len)
      t = NULL;
    if (!bare)
      g_string_append (s, "stream {\n");
    if (write_ids) {
      g_string_append (s, "\tid = ");
      append_uint (s, sc->id);
      g_string_append (s, ";\n");
    }
    if (t) {
      append_span (s, &t->scopes);
      own = *t;                 /* (a twin of this one is a twin of @t) */
    } else {
      at = s->len;
      write_scope (&w, "event.header", sc->event_header, 1);
      write_scope (&w, "packet.context", sc->packet_context, 1);
      write_scope (&w, "event.context", sc->event_common_context, 1);
      if (!bare)
        g_string_append (s, "};\n\n");
      own.scopes.start = at;
      own.scopes.end = s->len;
      own.first_event = event_spans ? event_spans->len : 0;
      own.n_events = sc->event_classes->len;
    }

    for (j = 0; j < sc->event_classes->len && !w.failed; j++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);
      Span head, tail;

      if (t) {
        append_span (s, &g_array_index (event_spans, Span,
                t->first_event + 2 * j));
        if (write_ids) {
          g_string_append (s, "\tstream_id = ");
          append_uint (s, sc->id);
          g_string_append (s, ";\n");
        }
        append_span (s, &g_array_index (event_spans, Span,
                t->first_event + 2 * j + 1));
        continue;
      }
      head.start = s->len;
      g_string_append (s, "event {\n\tname = ");
      append_quoted (s, ec->name);
      g_string_append (s, ";\n\tid = ");
      append_uint (s, ec->id);
      g_string_append (s, ";\n");
      head.end = s->len;
      if (write_ids) {
        g_string_append (s, "\tstream_id = ");
        append_uint (s, sc->id);
        g_string_append (s, ";\n");
      }
      tail.start = s->len;
      if (ec->loglevel != -1) {
        g_string_append (s, "\tloglevel = ");
        append_int (s, ec->loglevel);
        g_string_append (s, ";\n");
      }
      if (ec->model_emf_uri) {
        g_string_append (s, "\tmodel.emf.uri = ");
        append_quoted (s, ec->model_emf_uri);
        g_string_append (s, ";\n");
      }
      write_scope (&w, "context", ec->context, 1);
      write_scope (&w, "fields", ec->payload, 1);
      g_string_append (s, "};\n\n");
      tail.end = s->len;
      if (event_spans) {
        g_array_append_val (event_spans, head);
        g_array_append_val (event_spans, tail);
      }
    }
    if (spans)
      g_array_append_val (spans, own);
  }
  if (spans)
    g_array_unref (spans);
  if (event_spans)
    g_array_unref (event_spans);

  if (w.failed) {
    g_string_free (s, TRUE);
    return NULL;
  }
  return g_string_free (s, FALSE);
}
