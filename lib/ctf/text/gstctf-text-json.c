/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: JSON Lines output of the text formatter (the `json_lines`
 * option): one JSON object (RFC 8259) per event, on one line.
 *
 *   {"time_ns":N,"cycles":N,"clock":"C","name":"E",
 *    "trace":{"name":"T","hostname":"H","domain":"D","procname":"P",
 *             "vpid":N},
 *    "stream":{"class_id":N,"id":N,"name":"S","path":"F"},"cpu":N,
 *    "packet_context":{...},"event_header":{...},
 *    "stream_event_context":{...},"event_context":{...},"payload":{...}}
 *
 * Members that are unknown are left out (no clock, no `cpu_id`, no such
 * scope, no such environment entry).  The scopes other than the event
 * header hold the fields babeltrace2 shows (its trace IR, see
 * gstctf-text-formatter.c), named as it names them; the event header
 * holds every decoded field.  Values: integers as JSON numbers (any base;
 * CTF 2 booleans as true/false), enumerations and bit maps as
 * {"value":N,"labels":[...]}, floats as numbers ("nan", "inf", "-inf" as
 * strings), strings and text arrays as strings (up to the first NUL, as
 * babeltrace2), structures as objects, arrays and sequences as arrays,
 * BLOBs as strings of hexadecimal digits, a variant as an object with one
 * member named after its selected option, an optional as its value or
 * null.  Strings are escaped by hand (no allocation per event); a byte
 * XX that is not part of valid UTF-8 is given as the lone surrogate
 * \udcXX (as Python's "surrogateescape" error handler decodes it), so
 * every line is ASCII or valid UTF-8 and the bytes can be had back.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdio.h>

#include "gstctf-text-private.h"

/* 0: copied; 1: escaped; 2: first byte of a UTF-8 sequence (checked). */
static const guint8 json_class[256] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

/* Length of the valid UTF-8 sequence at @p (@left bytes available), 0
 * when it is not one (RFC 3629: no overlong forms, no surrogates, at
 * most U+10FFFF). */
static guint
utf8_seq_len (const guchar * p, gsize left)
{
  guchar c = p[0];

  if (c >= 0xc2 && c <= 0xdf)
    return left >= 2 && (p[1] & 0xc0) == 0x80 ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    guchar lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;

    return left >= 3 && p[1] >= lo && p[1] <= hi &&
        (p[2] & 0xc0) == 0x80 ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    guchar lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;

    return left >= 4 && p[1] >= lo && p[1] <= hi &&
        (p[2] & 0xc0) == 0x80 && (p[3] & 0xc0) == 0x80 ? 4 : 0;
  }
  return 0;
}

void
_gst_ctf_text_append_json_string (GString * s, const gchar * str, gsize len)
{
  static const gchar hex[] = "0123456789abcdef";
  const guchar *u = (const guchar *) str;
  gsize i = 0, run = 0;

  put_c (s, '"');
  while (i < len) {
    guchar c = u[i];
    gchar buf[6];
    guint n;

    if (G_LIKELY (json_class[c] == 0)) {
      i++;
      continue;
    }
    if (json_class[c] == 2 && (n = utf8_seq_len (u + i, len - i)) > 0) {
      i += n;
      continue;
    }
    if (i > run)
      put (s, str + run, i - run);
    buf[0] = '\\';
    switch (c) {
      case '"':
      case '\\':
        buf[1] = (gchar) c;
        put (s, buf, 2);
        break;
      case '\n':
        put_lit (s, "\\n");
        break;
      case '\t':
        put_lit (s, "\\t");
        break;
      case '\r':
        put_lit (s, "\\r");
        break;
      default:
        /* a control character: \u00XX; a byte outside valid UTF-8: the
         * lone surrogate U+DCXX (Python's "surrogateescape": no valid
         * text gives it, so the bytes can be had back) */
        buf[1] = 'u';
        buf[2] = c >= 0x80 ? 'd' : '0';
        buf[3] = c >= 0x80 ? 'c' : '0';
        buf[4] = hex[c >> 4];
        buf[5] = hex[c & 15];
        put (s, buf, 6);
        break;
    }
    i++;
    run = i;
  }
  if (len > run)
    put (s, str + run, len - run);
  put_c (s, '"');
}

#define append_json_string _gst_ctf_text_append_json_string

static inline void
append_json_cstr (GString * s, const gchar * str)
{
  append_json_string (s, str ? str : "", str ? strlen (str) : 0);
}

/* A float that a JSON reader gives back exactly: the shortest of %.15g,
 * %.16g and %.17g that reads back as @d, with a fraction or an exponent
 * (so that it reads as a float). */
static void
append_json_float (GString * s, gdouble d)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  gint prec;

  if (isnan (d)) {
    put_lit (s, "\"nan\"");
    return;
  }
  if (isinf (d)) {
    if (d < 0)
      put_lit (s, "\"-inf\"");
    else
      put_lit (s, "\"inf\"");
    return;
  }
  if (d == 0) {
    if (signbit (d))
      put_lit (s, "-0.0");
    else
      put_lit (s, "0.0");
    return;
  }
  /* most values are short decimals: babeltrace2's 6 digits first */
  {
    gsize start = s->len;

    _gst_ctf_text_append_float (s, d);
    if (s->len - start < sizeof (buf)) {
      memcpy (buf, s->str + start, s->len - start);
      buf[s->len - start] = '\0';
      if (g_ascii_strtod (buf, NULL) == d) {
        if (strpbrk (buf, ".en") == NULL)
          put_lit (s, ".0");
        return;
      }
    }
    g_string_truncate (s, start);
  }
  for (prec = 15; prec <= 17; prec++) {
    gchar fmt[8];

    g_snprintf (fmt, sizeof (fmt), "%%.%dg", prec);
    g_ascii_formatd (buf, sizeof (buf), fmt, d);
    if (prec == 17 || g_ascii_strtod (buf, NULL) == d)
      break;
  }
  put_str (s, buf);
  /* (a JSON reader takes "1" for an integer: "1.0") */
  if (strpbrk (buf, ".en") == NULL)
    put_lit (s, ".0");
}

static inline void
append_json_int (GString * s, const GstCtfFieldClass * fc,
    const GstCtfFieldValue * v)
{
  if (fc->integer.is_signed)
    append_i64 (s, v->v.i);
  else
    append_u64 (s, v->v.u);
}

/* What is made once per field class: a structure's member keys
 * (`"name":`, escaped) and which members babeltrace2 leaves out; an
 * enumeration's distinct labels (escaped) and each mapping's label. */
typedef struct {
  GString *text;                /* keys or labels, one after another */
  guint n;                      /* members, or distinct labels */
  guint *off;                   /* n + 1 offsets in text */
  guint8 *not_in_ir;            /* structure: per member */
  guint *group;                 /* enumeration: per mapping, its label */
  guint *stamp;                 /* enumeration: per label, last use */
  guint cur_stamp;
} JsonInfo;

void
_gst_ctf_text_json_info_free (gpointer info)
{
  JsonInfo *ji = info;

  g_string_free (ji->text, TRUE);
  g_free (ji->off);
  g_free (ji->not_in_ir);
  g_free (ji->group);
  g_free (ji->stamp);
  g_free (ji);
}

static JsonInfo *
json_info_new (GstCtfTextFormatter * f, const GstCtfFieldClass * fc)
{
  JsonInfo *ji = g_new0 (JsonInfo, 1);
  guint i, k;

  ji->text = g_string_new (NULL);
  if (fc->type == GST_CTF_FIELD_CLASS_STRUCT) {
    ji->n = fc->n_members;
    ji->off = g_new (guint, ji->n + 1);
    ji->not_in_ir = g_new0 (guint8, MAX (ji->n, 1));
    for (i = 0; i < ji->n; i++) {
      ji->off[i] = (guint) ji->text->len;
      append_json_cstr (ji->text, display_name (f, fc->members[i].name));
      g_string_append_c (ji->text, ':');
      ji->not_in_ir[i] = g_hash_table_contains (f->not_in_ir,
          fc->members[i].fc);
    }
    ji->off[ji->n] = (guint) ji->text->len;
    return ji;
  }
  /* an enumeration or bit map */
  ji->group = g_new (guint, MAX (fc->enumeration.n_mappings, 1));
  ji->off = g_new (guint, fc->enumeration.n_mappings + 1);
  for (i = 0; i < fc->enumeration.n_mappings; i++) {
    const gchar *label = fc->enumeration.mappings[i].label;

    label = label ? label : "";
    for (k = 0; k < i; k++) {
      const gchar *o = fc->enumeration.mappings[k].label;

      if (strcmp (o ? o : "", label) == 0)
        break;
    }
    if (k < i) {
      ji->group[i] = ji->group[k];
      continue;
    }
    ji->group[i] = ji->n;
    ji->off[ji->n++] = (guint) ji->text->len;
    append_json_cstr (ji->text, label);
  }
  ji->off[ji->n] = (guint) ji->text->len;
  ji->stamp = g_new0 (guint, MAX (ji->n, 1));
  return ji;
}

static inline JsonInfo *
json_info (GstCtfTextFormatter * f, const GstCtfFieldClass * fc)
{
  guint slot = (guint) (((guintptr) fc >> 4) & 63);
  JsonInfo *ji;

  if (f->json_cache_key[slot] == fc)
    return f->json_cache_val[slot];
  ji = g_hash_table_lookup (f->json_info, fc);
  if (ji == NULL) {
    ji = json_info_new (f, fc);
    g_hash_table_insert (f->json_info, (gpointer) fc, ji);
  }
  f->json_cache_key[slot] = fc;
  f->json_cache_val[slot] = ji;
  return ji;
}

static gint
compare_labels (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* {"value":N,"labels":[...]}: the labels whose ranges hold the value,
 * each once, in the order they first appear in the enumeration (a bit
 * map: the flags with a set bit, sorted by name). */
static void
append_json_enum (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldClass * fc, const GstCtfFieldValue * v)
{
  const GstCtfEnumMapping *maps = fc->enumeration.mappings;
  JsonInfo *ji = json_info (f, fc);
  gboolean bit_map = fc->form == GST_CTF_FIELD_FORM_BIT_MAP;
  GPtrArray *flags = NULL;
  guint i, printed = 0;

  put_lit (s, "{\"value\":");
  append_json_int (s, fc, v);
  put_lit (s, ",\"labels\":[");
  if (++ji->cur_stamp == 0) {
    memset (ji->stamp, 0, MAX (ji->n, 1) * sizeof (guint));
    ji->cur_stamp = 1;
  }
  for (i = 0; i < fc->enumeration.n_mappings; i++) {
    guint g = ji->group[i];
    gboolean match;

    if (ji->stamp[g] == ji->cur_stamp)
      continue;
    if (bit_map) {
      guint64 lo = maps[i].lower, hi = MIN (maps[i].upper, 63), mask;

      if (lo > 63 || hi < lo)
        continue;
      mask = (hi - lo == 63) ? G_MAXUINT64 :
          ((G_GUINT64_CONSTANT (1) << (hi - lo + 1)) - 1) << lo;
      match = (v->v.u & mask) != 0;
    } else if (fc->integer.is_signed) {
      match = v->v.i >= (gint64) maps[i].lower &&
          v->v.i <= (gint64) maps[i].upper;
    } else {
      match = v->v.u >= maps[i].lower && v->v.u <= maps[i].upper;
    }
    if (!match)
      continue;
    ji->stamp[g] = ji->cur_stamp;
    if (bit_map) {
      if (flags == NULL)
        flags = g_ptr_array_new ();
      g_ptr_array_add (flags, maps[i].label ? maps[i].label : (gchar *) "");
      continue;
    }
    if (printed++ > 0)
      put_c (s, ',');
    put (s, ji->text->str + ji->off[g], ji->off[g + 1] - ji->off[g]);
  }
  if (flags != NULL) {
    g_ptr_array_sort (flags, compare_labels);
    for (i = 0; i < flags->len; i++) {
      if (i > 0)
        put_c (s, ',');
      append_json_cstr (s, g_ptr_array_index (flags, i));
    }
    g_ptr_array_free (flags, TRUE);
  }
  put_lit (s, "]}");
}

static guint append_json_value (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldValue * vals, guint n, guint idx, gboolean filtered,
    guint depth);

static guint
append_json_struct (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldValue * vals, guint n, guint idx, gboolean filtered,
    guint depth)
{
  guint end = MIN (vals[idx].end, n);
  guint child = idx + 1;
  guint printed = 0, k = 0;
  const GstCtfFieldClass *fc = vals[idx].fc;
  /* the members' keys made once, when the values are the members in
   * order (else looked up each) */
  JsonInfo *ji = vals[idx].v.u == fc->n_members ? json_info (f, fc) : NULL;

  put_c (s, '{');
  while (child < end) {
    const GstCtfFieldValue *c = &vals[child];
    guint next = c->end > child ? c->end : child + 1;

    if (ji != NULL && (k >= ji->n || c->name != fc->members[k].name))
      ji = NULL;
    if (filtered && (ji ? ji->not_in_ir[k] :
            g_hash_table_contains (f->not_in_ir, c->fc))) {
      child = next;
      k++;
      continue;
    }
    if (printed++ > 0)
      put_c (s, ',');
    if (ji != NULL) {
      put (s, ji->text->str + ji->off[k], ji->off[k + 1] - ji->off[k]);
    } else {
      append_json_cstr (s, display_name (f, c->name));
      put_c (s, ':');
    }
    k++;
    child = append_json_value (f, s, vals, n, child, filtered, depth + 1);
    if (child < next)
      child = next;
  }
  put_c (s, '}');
  return MAX (end, idx + 1);
}

static guint
append_json_value (GstCtfTextFormatter * f, GString * s,
    const GstCtfFieldValue * vals, guint n, guint idx, gboolean filtered,
    guint depth)
{
  const GstCtfFieldValue *v = &vals[idx];
  const GstCtfFieldClass *fc = v->fc;
  guint end = MAX (MIN (v->end, n), idx + 1);

  if (fc == NULL || depth > 512) {
    put_lit (s, "null");
    return end;
  }
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
      if (fc->form == GST_CTF_FIELD_FORM_BOOLEAN) {
        if (v->v.u != 0)
          put_lit (s, "true");
        else
          put_lit (s, "false");
      } else {
        append_json_int (s, fc, v);
      }
      break;
    case GST_CTF_FIELD_CLASS_ENUM:
      append_json_enum (f, s, fc, v);
      break;
    case GST_CTF_FIELD_CLASS_FLOAT:
      append_json_float (s, v->v.d);
      break;
    case GST_CTF_FIELD_CLASS_STRING:
      append_json_string (s, v->v.s.ptr, v->v.s.ptr ?
          strnlen (v->v.s.ptr, v->v.s.len) : 0);
      break;
    case GST_CTF_FIELD_CLASS_STRUCT:
      return append_json_struct (f, s, vals, n, idx, filtered, depth);
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      if (fc->form == GST_CTF_FIELD_FORM_BLOB) {
        static const gchar hex[] = "0123456789abcdef";
        guint i;

        put_c (s, '"');
        for (i = idx + 1; i < end; i++) {
          guint8 b = (guint8) vals[i].v.u;

          put_c (s, hex[b >> 4]);
          put_c (s, hex[b & 15]);
        }
        put_c (s, '"');
      } else if (is_text_array (fc) && end == idx + 1) {
        append_json_string (s, v->v.s.ptr, v->v.s.ptr ?
            strnlen (v->v.s.ptr, v->v.s.len) : 0);
      } else {
        guint child = idx + 1;

        put_c (s, '[');
        while (child < end) {
          if (child > idx + 1)
            put_c (s, ',');
          child = append_json_value (f, s, vals, n, child, filtered,
              depth + 1);
        }
        put_c (s, ']');
      }
      break;
    case GST_CTF_FIELD_CLASS_VARIANT:
      if (fc->form == GST_CTF_FIELD_FORM_OPTIONAL) {
        if (idx + 1 < end)
          append_json_value (f, s, vals, n, idx + 1, filtered, depth + 1);
        else
          put_lit (s, "null");
        break;
      }
      put_c (s, '{');
      if (idx + 1 < end) {
        append_json_cstr (s, display_name (f, vals[idx + 1].name));
        put_c (s, ':');
        append_json_value (f, s, vals, n, idx + 1, filtered, depth + 1);
      }
      put_c (s, '}');
      break;
    default:
      put_lit (s, "null");
      break;
  }
  return end;
}

/* `,"KEY":{...}` for a scope with values. */
static void
append_json_scope (GstCtfTextFormatter * f, GString * s, GstCtfEventIter * it,
    GstCtfScope scope, ScopeState state, const gchar * key, gsize key_len)
{
  const GstCtfFieldValue *vals;
  guint n = 0;

  if (state == SCOPE_ABSENT)
    return;
  vals = gst_ctf_event_iter_get_values (it, scope, &n);
  if (vals == NULL || n == 0)
    return;
  put (s, key, key_len);
  append_json_value (f, s, vals, n, 0, state == SCOPE_FILTERED, 0);
}

#define SCOPE(f, s, it, scope, state, key) \
  append_json_scope (f, s, it, scope, state, ",\"" key "\":", \
      sizeof (key) + 3)

/* The CPU: the packet context's `cpu_id` member, when it is an integer. */
static gboolean
packet_cpu (GstCtfEventIter * it, guint64 * cpu)
{
  const GstCtfFieldValue *vals;
  guint n = 0, child;

  vals = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_PACKET_CONTEXT, &n);
  if (vals == NULL || n == 0 || vals[0].fc == NULL ||
      vals[0].fc->type != GST_CTF_FIELD_CLASS_STRUCT)
    return FALSE;
  for (child = 1; child < n && child < vals[0].end;) {
    const GstCtfFieldValue *c = &vals[child];

    if (c->name && c->name[0] == 'c' && c->fc &&
        strcmp (c->name, "cpu_id") == 0 &&
        (c->fc->type == GST_CTF_FIELD_CLASS_INTEGER ||
            c->fc->type == GST_CTF_FIELD_CLASS_ENUM)) {
      *cpu = c->v.u;
      return TRUE;
    }
    child = c->end > child ? c->end : child + 1;
  }
  return FALSE;
}

/* `"name":"E","trace":{...}`: made once per event class. */
static void
append_json_head (GstCtfTextFormatter * f, GString * s, const ScInfo * si,
    const GstCtfEventClass * ec)
{
  const gchar *host = si->merged ? si->env_hostname : f->env_hostname;
  const gchar *domain = si->merged ? si->env_domain : f->env_domain;
  const gchar *proc = si->merged ? si->env_procname : f->env_procname;
  gboolean has_vpid = si->merged ? si->has_env_vpid : f->has_env_vpid;
  gint64 vpid = si->merged ? si->env_vpid : f->env_vpid;
  const gchar *trace_name = _gst_ctf_text_trace_name (f, si);
  gboolean first = TRUE;

  put_lit (s, "\"name\":");
  append_json_cstr (s, ec && ec->name ? ec->name : "<unknown>");
  put_lit (s, ",\"trace\":{");
#define MEMBER(key) \
  G_STMT_START { \
    if (!first) \
      put_c (s, ','); \
    first = FALSE; \
    put_lit (s, "\"" key "\":"); \
  } G_STMT_END
  if (trace_name && trace_name[0]) {
    MEMBER ("name");
    append_json_cstr (s, trace_name);
  }
  if (host) {
    MEMBER ("hostname");
    append_json_cstr (s, host);
  }
  if (domain) {
    MEMBER ("domain");
    append_json_cstr (s, domain);
  }
  if (proc) {
    MEMBER ("procname");
    append_json_cstr (s, proc);
  }
  if (has_vpid) {
    MEMBER ("vpid");
    append_i64 (s, vpid);
  }
#undef MEMBER
  put_c (s, '}');
}

void
_gst_ctf_text_format_json (GstCtfTextFormatter * f, const TextEventView * ev,
    const ScInfo * si, EcInfo * ei, GString * out)
{
  const GstCtfStreamClass *sc = ev->sc;
  guint64 cpu;

  put_c (out, '{');
  if (sc != NULL && sc->default_clock != NULL) {
    const GstCtfClockClass *cc = sc->default_clock;
    gint64 ns = 0, printed = 0;
    gboolean ok = gst_ctf_clock_class_cycles_to_ns_from_origin (cc,
        ev->cycles, &ns);
    gboolean printed_ok = ok;

    if (f->opts.clock_offset_s == 0 && f->opts.clock_offset_ns == 0)
      printed = ns;
    else if (ok)
      printed_ok = _gst_ctf_text_printed_ns (f, cc, ev->cycles, &printed);
    if (printed_ok) {
      put_lit (out, "\"time_ns\":");
      append_i64 (out, printed);
      put_c (out, ',');
    }
    put_lit (out, "\"cycles\":");
    append_u64 (out, ev->cycles);
    put_lit (out, ",\"clock\":");
    append_json_cstr (out, cc->name);
    put_c (out, ',');
    if (f->defer_delta) {
      f->line.has_clock = TRUE;
      f->line.has_ns = ok;
      f->line.ns = ns;
      f->line.cycles = ev->cycles;
    }
  }

  if (ei == NULL) {
    append_json_head (f, out, si, ev->ec);
  } else {
    if (ei->head == NULL) {
      ei->head = g_string_new (NULL);
      append_json_head (f, ei->head, si, ev->ec);
    }
    put (out, ei->head->str, ei->head->len);
  }

  /* the stream, as its source names it */
  if (f->json_stream_sc != sc || !f->json_stream_valid) {
    g_string_truncate (f->json_stream, 0);
    g_string_append (f->json_stream, ",\"stream\":{\"class_id\":");
    append_u64 (f->json_stream, sc ? sc->id : 0);
    if (f->stream_id >= 0) {
      g_string_append (f->json_stream, ",\"id\":");
      append_i64 (f->json_stream, f->stream_id);
    }
    if (f->stream_name) {
      g_string_append (f->json_stream, ",\"name\":");
      append_json_cstr (f->json_stream, f->stream_name);
    }
    if (f->stream_path) {
      g_string_append (f->json_stream, ",\"path\":");
      append_json_cstr (f->json_stream, f->stream_path);
    }
    g_string_append_c (f->json_stream, '}');
    f->json_stream_sc = sc;
    f->json_stream_valid = TRUE;
  }
  put (out, f->json_stream->str, f->json_stream->len);

  if (packet_cpu (ev->it, &cpu)) {
    put_lit (out, ",\"cpu\":");
    append_u64 (out, cpu);
  }
  SCOPE (f, out, ev->it, GST_CTF_SCOPE_PACKET_CONTEXT, si->packet_context,
      "packet_context");
  {
    const GstCtfFieldValue *vals;
    guint n = 0;

    vals = gst_ctf_event_iter_get_values (ev->it, GST_CTF_SCOPE_EVENT_HEADER,
        &n);
    if (vals != NULL && n > 0) {
      put_lit (out, ",\"event_header\":");
      append_json_value (f, out, vals, n, 0, FALSE, 0);
    }
  }
  SCOPE (f, out, ev->it, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
      si->common_context, "stream_event_context");
  if (ei != NULL) {
    SCOPE (f, out, ev->it, GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT,
        ei->specific_context, "event_context");
    SCOPE (f, out, ev->it, GST_CTF_SCOPE_EVENT_PAYLOAD, ei->payload,
        "payload");
  }
  put_lit (out, "}\n");
}
