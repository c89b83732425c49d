/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests of tracecmdsrc: `tracecmdsrc ! ctfsink`, then babeltrace2 reads
 * the output without warnings (but the kernel's lost-event ones), with the
 * events of trace-cmd's raw oracle (`trace-cmd report -R`) per CPU, event
 * for event (µs timestamp, name, pid, comm rebuilt from the side stream's
 * tracecmd_cmdline events, every field value); v6 and v7 copies of one
 * recording give byte-identical output; caps, PTS order and packet meta
 * through a GstHarness; lttng-compat naming; errors.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsttracecmd.h"
#include "gstctf-caps.h"
#include "gstctf-packet-meta.h"
#include "gstctf-metadata.h"

#include "test-util.h"

static gchar *
data_path (const gchar * name)
{
  const gchar *d = g_getenv ("GST_CTF_TEST_DATA");

  return g_build_filename (d ? d : "tests/data", "tracecmd", name, NULL);
}

/* tests/data/tracecmdsrc: this test's own files */
static gchar *
own_data_path (const gchar * name)
{
  const gchar *d = g_getenv ("GST_CTF_TEST_DATA");

  return g_build_filename (d ? d : "tests/data", "tracecmdsrc", name, NULL);
}

/* Runs `tracecmdsrc location=DAT EXTRA ! ctfsink location=OUT` to EOS.
 * Returns the error text or NULL; @stats gets the source's stats. */
static gchar *
convert (const gchar * dat, const gchar * out, const gchar * extra,
    GstStructure ** stats)
{
  GError *err = NULL;
  gchar *desc = g_strdup_printf ("tracecmdsrc name=src location=\"%s\" %s ! "
      "ctfsink location=\"%s\"", dat, extra ? extra : "", out);
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *src;
  GstBus *bus;
  GstMessage *m;
  gchar *ret = NULL;
  guint64 warned = 0;

  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* to EOS or error; totals the lost-event warnings on the way (a filtered
   * pop drops the messages it does not ask for) */
  for (;;) {
    m = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    fail_unless (m != NULL, "timeout: %s", desc);
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING) {
      const GstStructure *d = NULL;
      guint64 n;

      gst_message_parse_warning_details (m, &d);
      if (d && gst_structure_get_uint64 (d, "discarded-events", &n))
        warned += n;
      gst_message_unref (m);
      continue;
    }
    break;
  }
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;

    gst_message_parse_error (m, &err, &dbg);
    ret = g_strdup_printf ("%s | %s", err->message, dbg ? dbg : "");
    g_clear_error (&err);
    g_free (dbg);
  }
  gst_message_unref (m);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  if (stats) {
    g_object_get (src, "stats", stats, NULL);
    gst_structure_set (*stats, "warned-discarded", G_TYPE_UINT64, warned,
        NULL);
  }
  gst_object_unref (src);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
  return ret;
}

/* ---- babeltrace2 output ------------------------------------------------ */

typedef struct
{
  gchar *name;
  gboolean is_string;
  gchar *value;                 /* scalar text, or the unescaped string */
  gsize len;                    /* of an unescaped string */
  GPtrArray *elems;             /* (element-type gchar*) of an array */
} BtField;

typedef struct
{
  guint64 ts_ns;
  gchar *name;
  gint cpu;
  GPtrArray *fields;            /* BtField, top-level members of all scopes */
} BtEvent;

static void
bt_field_free (BtField * f)
{
  g_free (f->name);
  g_free (f->value);
  if (f->elems)
    g_ptr_array_unref (f->elems);
  g_free (f);
}

static void
bt_event_free (BtEvent * e)
{
  g_free (e->name);
  g_ptr_array_unref (e->fields);
  g_free (e);
}

static const BtField *
bt_field (const BtEvent * e, const gchar * name)
{
  guint i;

  for (i = 0; i < e->fields->len; i++) {
    const BtField *f = g_ptr_array_index (e->fields, i);
    if (strcmp (f->name, name) == 0)
      return f;
  }
  return NULL;
}

static gchar *parse_value (const gchar ** p, BtField * into);

/* "..." with babeltrace2's escapes */
static gchar *
parse_string (const gchar ** p, gsize * len)
{
  GString *s = g_string_new (NULL);
  const gchar *q = *p + 1;

  while (*q && *q != '"') {
    if (*q == '\\' && q[1]) {
      q++;
      switch (*q) {
        case 'n':
          g_string_append_c (s, '\n');
          break;
        case 't':
          g_string_append_c (s, '\t');
          break;
        case 'r':
          g_string_append_c (s, '\r');
          break;
        case 'a':
          g_string_append_c (s, '\a');
          break;
        case 'b':
          g_string_append_c (s, '\b');
          break;
        case 'f':
          g_string_append_c (s, '\f');
          break;
        case 'v':
          g_string_append_c (s, '\v');
          break;
        case 'x':{
          gchar hex[3] = { q[1], q[1] ? q[2] : 0, 0 };
          g_string_append_c (s, (gchar) strtol (hex, NULL, 16));
          q += 2;
          break;
        }
        default:
          g_string_append_c (s, *q);
          break;
      }
      q++;
    } else {
      g_string_append_c (s, *q++);
    }
  }
  if (*q == '"')
    q++;
  *p = q;
  *len = s->len;
  return g_string_free (s, FALSE);
}

/* "{ a = 1, b = [ [0] = 2 ] }": appends members to @fields when given */
static void
parse_struct (const gchar ** p, GPtrArray * fields)
{
  const gchar *q = *p;

  g_assert (*q == '{');
  q++;
  for (;;) {
    const gchar *n;
    BtField *f;

    while (*q == ' ' || *q == ',')
      q++;
    if (*q == '}' || *q == '\0') {
      if (*q)
        q++;
      break;
    }
    n = q;
    while (*q && *q != ' ' && *q != '=')
      q++;
    f = g_new0 (BtField, 1);
    f->name = g_strndup (n, q - n);
    while (*q == ' ' || *q == '=')
      q++;
    f->value = parse_value (&q, f);
    if (fields)
      g_ptr_array_add (fields, f);
    else
      bt_field_free (f);
  }
  *p = q;
}

static gchar *
parse_value (const gchar ** p, BtField * into)
{
  const gchar *q = *p;
  gchar *v;

  if (*q == '"') {
    gsize len;
    v = parse_string (&q, &len);
    if (into) {
      into->is_string = TRUE;
      into->len = len;
    }
  } else if (*q == '[') {
    GPtrArray *elems = g_ptr_array_new_with_free_func (g_free);
    q++;
    for (;;) {
      while (*q == ' ' || *q == ',')
        q++;
      if (*q == ']' || *q == '\0') {
        if (*q)
          q++;
        break;
      }
      /* "[N] = value" */
      while (*q && *q != '=')
        q++;
      while (*q == '=' || *q == ' ')
        q++;
      g_ptr_array_add (elems, parse_value (&q, NULL));
    }
    if (into)
      into->elems = elems;
    else
      g_ptr_array_unref (elems);
    v = g_strdup ("[array]");
  } else if (*q == '{') {
    parse_struct (&q, NULL);
    v = g_strdup ("{struct}");
  } else {
    const gchar *s = q;
    while (*q && *q != ',' && *q != ' ' && *q != '}' && *q != ']')
      q++;
    v = g_strndup (s, q - s);
  }
  *p = q;
  return v;
}

/* "[SECS.NANOS] NAME: { ... }, { ... }" (--clock-seconds --no-delta) */
static BtEvent *
parse_bt_line (const gchar * line)
{
  BtEvent *e;
  const gchar *p = line, *n;
  guint64 secs, ns = 0;
  gchar *end;
  const BtField *cpu;

  if (*p != '[')
    return NULL;
  secs = g_ascii_strtoull (p + 1, &end, 10);
  if (*end == '.') {
    const gchar *f = end + 1;
    ns = g_ascii_strtoull (f, &end, 10);
  }
  p = strchr (end, ']');
  if (!p)
    return NULL;
  p += 2;
  n = p;
  p = strchr (p, ':');
  if (!p)
    return NULL;
  e = g_new0 (BtEvent, 1);
  e->ts_ns = secs * 1000000000ull + ns;
  e->name = g_strndup (n, p - n);
  e->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) bt_field_free);
  p++;
  while (*p) {
    while (*p == ' ' || *p == ',')
      p++;
    if (*p != '{')
      break;
    parse_struct (&p, e->fields);
  }
  cpu = bt_field (e, "cpu_id");
  e->cpu = cpu ? atoi (cpu->value) : -1;
  return e;
}

/* Cuts @text into lines in place (memchr, not g_strsplit(): that calls
 * strstr() per line, quadratic under ASan on multi-MB texts).  Returns a
 * NULL-terminated array of pointers into @text; free it with g_free(). */
static gchar **
split_lines (gchar * text)
{
  GPtrArray *a = g_ptr_array_new ();
  gchar *l = text, *end = text + strlen (text);

  while (l < end) {
    gchar *nl = memchr (l, '\n', end - l);

    if (nl)
      *nl = '\0';
    g_ptr_array_add (a, l);
    l = nl ? nl + 1 : end;
  }
  g_ptr_array_add (a, NULL);
  return (gchar **) g_ptr_array_free (a, FALSE);
}

/* babeltrace2 --clock-seconds --no-delta DIR: events and stderr */
static GPtrArray *
babeltrace2_events (const gchar * dir, gchar ** err_text, gint * status)
{
  gchar *argv[] = { (gchar *) "babeltrace2", (gchar *) "--clock-seconds",
    (gchar *) "--no-delta", (gchar *) dir, NULL
  };
  gchar *out = NULL;
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify)
      bt_event_free);

  *status = -1;
  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
          &out, err_text, status, NULL))
    return events;
  /* lines cut in place with memchr: g_strsplit() calls strstr() per
   * line, quadratic under ASan's interceptor on tens of MB */
  {
    gchar *l = out, *end = out + strlen (out);

    while (l < end) {
      gchar *nl = memchr (l, '\n', end - l);
      BtEvent *e;

      if (nl)
        *nl = '\0';
      e = l[0] ? parse_bt_line (l) : NULL;
      if (e)
        g_ptr_array_add (events, e);
      l = nl ? nl + 1 : end;
    }
  }
  g_free (out);
  return events;
}

/* ---- comparison with the oracle ---------------------------------------- */

typedef struct
{
  guint events, equal, drops;
  guint ts_bad, name_bad, pid_bad, comm_bad, field_bad, missing;
  gchar first_diff[600];
} Stats;

static void
note (Stats * st, const gchar * fmt, ...)
{
  va_list ap;

  if (st->first_diff[0])
    return;
  va_start (ap, fmt);
  g_vsnprintf (st->first_diff, sizeof (st->first_diff), fmt, ap);
  va_end (ap);
}

static gboolean
parse_number (const gchar * s, guint64 * v)
{
  gboolean neg = FALSE;
  gchar *end;

  while (*s == ' ')
    s++;
  if (strcmp (s, "(nil)") == 0) {
    *v = 0;
    return TRUE;
  }
  if (*s == '-') {
    neg = TRUE;
    s++;
  }
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    *v = g_ascii_strtoull (s + 2, &end, 16);
  else
    *v = g_ascii_strtoull (s, &end, 10);
  if (end == s || *end != '\0')
    return FALSE;
  if (neg)
    *v = -*v;
  return TRUE;
}

/* "ARRAY[01, 02]" -> bytes */
static GByteArray *
parse_array_text (const gchar * s)
{
  GByteArray *b;

  if (!g_str_has_prefix (s, "ARRAY["))
    return NULL;
  b = g_byte_array_new ();
  s += 6;
  while (*s && *s != ']') {
    gchar *end;
    guint8 x = (guint8) strtoul (s, &end, 16);

    if (end == s)
      break;
    g_byte_array_append (b, &x, 1);
    s = end;
    while (*s == ',' || *s == ' ')
      s++;
  }
  return b;
}

/* kernel symbols rebuilt from the side stream's tracecmd_kallsym events */
typedef struct
{
  guint64 addr;
  gchar *name;
} Sym;

static gint
sym_cmp (gconstpointer a, gconstpointer b)
{
  const Sym *x = a, *y = b;

  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void
sym_clear (gpointer p)
{
  g_free (((Sym *) p)->name);
}

static const gchar *
sym_find (GArray * syms, guint64 addr)
{
  guint lo = 0, hi = syms->len;

  if (syms->len == 0 || addr < g_array_index (syms, Sym, 0).addr)
    return NULL;
  while (hi - lo > 1) {
    guint mid = (lo + hi) / 2;
    if (g_array_index (syms, Sym, mid).addr <= addr)
      lo = mid;
    else
      hi = mid;
  }
  return g_array_index (syms, Sym, lo).name;
}

static gboolean
field_equal (GstCtfTraceDat * td, GArray * syms,
    const GstCtfTraceDatField * f, const BtField * ours, const gchar * val)
{
  if (!ours)
    return FALSE;
  if (ours->is_string) {
    GByteArray *b = parse_array_text (val);
    gsize n = ours->len;
    gboolean ok;

    if (b) {
      /* not printable for libtraceevent: its bytes up to the NUL */
      gsize m = strnlen ((const gchar *) b->data, b->len);
      ok = m == n && memcmp (b->data, ours->value, n) == 0;
      g_byte_array_unref (b);
      return ok;
    }
    /* trace-cmd report drops a final newline (trace_marker text) */
    if (n > 0 && ours->value[n - 1] == '\n')
      n--;
    return strlen (val) == n && memcmp (val, ours->value, n) == 0;
  }
  if (ours->elems) {
    GString *s = g_string_new ("ARRAY[");
    guint i, k, es = MAX (f->elem_size, 1);
    gboolean ok, first = TRUE;

    for (i = 0; i < ours->elems->len; i++) {
      guint64 x = 0;

      parse_number (g_ptr_array_index (ours->elems, i), &x);
      for (k = 0; k < es; k++) {
        guint sh = gst_ctf_trace_dat_get_byte_order (td) ==
            GST_CTF_BYTE_ORDER_LE ? k : es - 1 - k;
        g_string_append_printf (s, "%s%02x", first ? "" : ", ",
            (guint) ((x >> (8 * sh)) & 0xff));
        first = FALSE;
      }
    }
    g_string_append_c (s, ']');
    ok = strcmp (s->str, val) == 0;
    g_string_free (s, TRUE);
    return ok;
  } else {
    guint64 a, b, mask;
    const gchar *sym;
    gchar *end;

    mask = f->size >= 8 ? G_MAXUINT64 : (1ull << (f->size * 8)) - 1;
    if (!parse_number (ours->value, &a))
      return FALSE;

    if (parse_number (val, &b) && (a & mask) == (b & mask))
      return TRUE;
    /* what a print fmt made of it in -R output: %x, %o, %ps/%pS */
    b = g_ascii_strtoull (val, &end, 16);
    if (*end == '\0' && end != val && (a & mask) == (b & mask))
      return TRUE;
    b = g_ascii_strtoull (val, &end, 8);
    if (*end == '\0' && end != val && (a & mask) == (b & mask))
      return TRUE;
    sym = sym_find (syms, a);
    return sym && g_str_has_prefix (val, sym)
        && (val[strlen (sym)] == '\0' || val[strlen (sym)] == '+'
        || val[strlen (sym)] == ' ');
  }
}

static gboolean
compare_event (GstCtfTraceDat * td, GHashTable * comms, GArray * syms,
    const gchar * line,
    const BtEvent * e, Stats * st)
{
  const gchar *p, *q;
  gchar *comm;
  const gchar *our_comm;
  glong pid;
  guint64 secs, frac, us, our_pid = 0;
  const GstCtfTraceDatEventFormat *fmt = NULL;
  const BtField *pf;
  gboolean ok = TRUE;
  guint i, n;
  TestReportLine rl;

  if (!test_report_line_parse (line, &rl))
    return FALSE;
  comm = rl.comm;
  pid = rl.pid;
  secs = rl.secs;
  frac = rl.usecs;
  p = rl.rest;

  us = (e->ts_ns + 500) / 1000;
  if (us != secs * 1000000 + frac) {
    note (st, "timestamp: oracle %s, babeltrace2 %" G_GUINT64_FORMAT " ns",
        line, e->ts_ns);
    st->ts_bad++;
    ok = FALSE;
  }
  q = strchr (p, ':');
  if (!q || strlen (e->name) != (gsize) (q - p)
      || memcmp (p, e->name, q - p) != 0) {
    note (st, "name: oracle %s, babeltrace2 %s", line, e->name);
    st->name_bad++;
    g_free (comm);
    return FALSE;
  }
  n = gst_ctf_trace_dat_get_n_event_formats (td);
  for (i = 0; i < n && !fmt; i++) {
    const GstCtfTraceDatEventFormat *f =
        gst_ctf_trace_dat_get_nth_event_format (td, i);
    if (strcmp (f->name, e->name) == 0)
      fmt = f;
  }
  fail_unless (fmt != NULL);
  pf = bt_field (e, "common_pid");
  if (pf)
    parse_number (pf->value, &our_pid);
  if ((glong) (gint) our_pid != pid) {
    note (st, "pid: oracle %s, babeltrace2 %s", line, pf ? pf->value : "-");
    st->pid_bad++;
    ok = FALSE;
  }
  our_comm = g_hash_table_lookup (comms, GINT_TO_POINTER ((gint) our_pid));
  if (!our_comm)
    our_comm = our_pid == 0 ? "<idle>" : "<...>";
  if (strcmp (comm, our_comm) != 0) {
    note (st, "comm: oracle %s, rebuilt %s", line, our_comm);
    st->comm_bad++;
    ok = FALSE;
  }
  g_free (comm);

  p = q + 1;
  while (*p == ' ')
    p++;
  for (i = 0; i < fmt->n_fields; i++) {
    const GstCtfTraceDatField *f = &fmt->fields[i];
    gsize nl = strlen (f->name);
    const gchar *vend;
    gchar *val;

    if (strncmp (p, f->name, nl) != 0 || p[nl] != '=') {
      note (st, "field name %s: oracle %s", f->name, line);
      st->field_bad++;
      return FALSE;
    }
    p += nl + 1;
    if (i + 1 < fmt->n_fields) {
      gchar *pat = g_strdup_printf (" %s=", fmt->fields[i + 1].name);
      vend = strstr (p, pat);
      g_free (pat);
      if (!vend)
        vend = p + strlen (p);
    } else {
      vend = p + strlen (p);
    }
    val = g_strndup (p, vend - p);
    if (!field_equal (td, syms, f, bt_field (e, f->name), val)) {
      const BtField *o = bt_field (e, f->name);
      note (st, "field %s: oracle \"%s\", babeltrace2 \"%s\" (line %s)",
          f->name, val, o ? o->value : "(none)", line);
      st->field_bad++;
      ok = FALSE;
    }
    g_free (val);
    p = *vend ? vend + 1 : vend;
  }
  return ok;
}

/* " [CPU]" of an oracle line */
static const gchar *
oracle_cpu_bracket (const gchar * l)
{
  const gchar *p, *q;

  for (p = l; (p = strstr (p, " [")) != NULL; p++) {
    q = p + 2;
    while (g_ascii_isdigit (*q))
      q++;
    if (q > p + 2 && *q == ']')
      return p;
  }
  return NULL;
}

/* (µs, event name) of an oracle line */
static void
oracle_key (const gchar * l, guint64 * us, const gchar ** name, gsize * len)
{
  const gchar *p = strchr (oracle_cpu_bracket (l) + 2, ']') + 1;
  gchar *q;
  guint64 secs, frac;

  while (*p == ' ')
    p++;
  secs = g_ascii_strtoull (p, &q, 10);
  frac = *q == '.' ? g_ascii_strtoull (q + 1, &q, 10) : 0;
  *us = secs * 1000000 + frac;
  p = q + 1;
  while (*p == ' ')
    p++;
  *name = p;
  q = strchr (p, ':');
  *len = q ? (gsize) (q - p) : strlen (p);
}

typedef struct
{
  guint64 us;
  const gchar *name;
  gsize len;
  guint idx;
  gpointer item;
} SortKey;

static gint
sort_key_cmp (gconstpointer a, gconstpointer b)
{
  const SortKey *x = a, *y = b;
  gint c;

  if (x->us != y->us)
    return x->us < y->us ? -1 : 1;
  c = strncmp (x->name, y->name, MIN (x->len, y->len));
  if (c == 0 && x->len != y->len)
    c = x->len < y->len ? -1 : 1;
  if (c != 0)
    return c;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void
sort_keys (GPtrArray * a, SortKey * keys)
{
  guint i;

  qsort (keys, a->len, sizeof (SortKey), (GCompareFunc) sort_key_cmp);
  for (i = 0; i < a->len; i++)
    a->pdata[i] = keys[i].item;
  g_free (keys);
}

static void
sort_oracle (GPtrArray * a)
{
  SortKey *keys = g_new0 (SortKey, MAX (a->len, 1));
  guint i;

  for (i = 0; i < a->len; i++) {
    oracle_key (g_ptr_array_index (a, i), &keys[i].us, &keys[i].name,
        &keys[i].len);
    keys[i].idx = i;
    keys[i].item = g_ptr_array_index (a, i);
  }
  sort_keys (a, keys);
}

static void
sort_ours (GPtrArray * a)
{
  SortKey *keys = g_new0 (SortKey, MAX (a->len, 1));
  guint i;

  for (i = 0; i < a->len; i++) {
    const BtEvent *e = g_ptr_array_index (a, i);
    keys[i].us = (e->ts_ns + 500) / 1000;
    keys[i].name = e->name;
    keys[i].len = strlen (e->name);
    keys[i].idx = i;
    keys[i].item = (gpointer) e;
  }
  sort_keys (a, keys);
}

/* Converts @dat, reads it with babeltrace2 and compares it with the raw
 * oracle per CPU.  Returns FALSE (with a printed line) on any mismatch. */
static gboolean
check_file (const gchar * dat, const gchar * oracle)
{
  gchar *tmp = g_dir_make_tmp ("tracecmdsrc-XXXXXX", NULL);
  gchar *out = g_build_filename (tmp, "ctf", NULL);
  gchar *name = g_path_get_basename (dat);
  GstStructure *stats = NULL;
  gchar *err = convert (dat, out, NULL, &stats);
  GPtrArray *events;
  gchar *bt_err = NULL, *text = NULL;
  gint status;
  GstCtfTraceDat *td;
  GHashTable *comms = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  GArray *syms = g_array_new (FALSE, FALSE, sizeof (Sym));
  GHashTable *per_cpu = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) g_ptr_array_unref);
  gchar **lines;
  guint i, warn_lines = 0, bad_stderr = 0, expected_drops = 0;
  guint64 oracle_dropped = 0, discarded = 0;
  Stats st;
  gboolean ok;

  memset (&st, 0, sizeof (st));
  fail_unless (err == NULL, "%s: %s", dat, err);
  td = gst_ctf_trace_dat_open (dat, NULL);
  fail_unless (td != NULL);
  events = babeltrace2_events (out, &bt_err, &status);
  fail_unless_equals_int (status, 0);

  /* our events per CPU; the comm table from the side stream */
  for (i = 0; i < events->len; i++) {
    BtEvent *e = g_ptr_array_index (events, i);
    GPtrArray *l;

    if (strcmp (e->name, "tracecmd_cmdline") == 0) {
      const BtField *p = bt_field (e, "pid"), *c = bt_field (e, "comm");
      fail_unless (p && c);
      g_hash_table_insert (comms, GINT_TO_POINTER (atoi (p->value)),
          g_strdup (c->value));
      continue;
    }
    if (strcmp (e->name, "tracecmd_kallsym") == 0) {
      const BtField *a = bt_field (e, "address"), *n = bt_field (e, "name");
      Sym sy;
      fail_unless (a && n);
      parse_number (a->value, &sy.addr);
      sy.name = g_strdup (n->value);
      g_array_append_val (syms, sy);
      continue;
    }
    if (e->cpu < 0)
      continue;
    l = g_hash_table_lookup (per_cpu, GINT_TO_POINTER (e->cpu));
    if (!l) {
      l = g_ptr_array_new ();
      g_hash_table_insert (per_cpu, GINT_TO_POINTER (e->cpu), l);
    }
    g_ptr_array_add (l, e);
  }

  g_array_sort (syms, sym_cmp);
  g_array_set_clear_func (syms, sym_clear);
  fail_unless (g_file_get_contents (oracle, &text, NULL, NULL), "%s", oracle);
  lines = split_lines (text);
  {
    /* oracle event lines per CPU; with several buffers, instance lines
     * start with "NAME:" */
    GHashTable *oracle_cpu = g_hash_table_new_full (NULL, NULL, NULL,
        (GDestroyNotify) g_ptr_array_unref);
    gboolean multi = gst_ctf_trace_dat_get_n_buffers (td) > 1;
    GHashTableIter it;
    gpointer k, v;

    for (i = 0; lines[i]; i++) {
      const gchar *l = lines[i], *lb;
      glong cpu;
      GPtrArray *ol;

      if (l[0] == '\0' || g_str_has_prefix (l, "cpus="))
        continue;
      if (g_str_has_prefix (l, "CPU:") && strstr (l, "DROPPED]")) {
        const gchar *b = strchr (l, '[');
        st.drops++;
        oracle_dropped += g_ascii_strtoull (b + 1, NULL, 10);
        continue;
      }
      if (g_str_has_prefix (l, "CPU:") && strstr (l, "LOST EVENTS")) {
        st.drops++;
        oracle_dropped += 1;
        continue;
      }
      if (multi && l[0] != ' ') {
        guint b;
        for (b = 1; b < gst_ctf_trace_dat_get_n_buffers (td); b++) {
          const gchar *bn = gst_ctf_trace_dat_get_buffer (td, b)->name;
          if (g_str_has_prefix (l, bn) && l[strlen (bn)] == ':') {
            l += strlen (bn) + 1;
            break;
          }
        }
      }
      st.events++;
      lb = oracle_cpu_bracket (l);
      if (!lb) {
        note (&st, "unparsed oracle line %s", l);
        continue;
      }
      cpu = strtol (lb + 2, NULL, 10);
      ol = g_hash_table_lookup (oracle_cpu, GINT_TO_POINTER (cpu));
      if (!ol) {
        ol = g_ptr_array_new ();
        g_hash_table_insert (oracle_cpu, GINT_TO_POINTER (cpu), ol);
      }
      g_ptr_array_add (ol, (gpointer) l);
    }

    g_hash_table_iter_init (&it, oracle_cpu);
    while (g_hash_table_iter_next (&it, &k, &v)) {
      GPtrArray *ol = v;
      GPtrArray *ours = g_hash_table_lookup (per_cpu, k);
      guint c, n = ours ? ours->len : 0;

      /* the buffers of one CPU interleave in an order trace-cmd does not
       * define for equal times: compare both sorted by (µs, name) */
      if (multi) {
        sort_oracle (ol);
        if (ours)
          sort_ours (ours);
      }
      for (c = 0; c < ol->len; c++) {
        if (c >= n) {
          st.missing++;
          note (&st, "no event for oracle line %s",
              (const gchar *) g_ptr_array_index (ol, c));
          continue;
        }
        if (compare_event (td, comms, syms, g_ptr_array_index (ol, c),
                g_ptr_array_index (ours, c), &st))
          st.equal++;
      }
      if (n > ol->len) {
        note (&st, "cpu %d: %u events, oracle %u", GPOINTER_TO_INT (k), n,
            ol->len);
        st.missing++;
      }
    }
    /* CPUs the oracle does not have */
    g_hash_table_iter_init (&it, per_cpu);
    while (g_hash_table_iter_next (&it, &k, &v))
      if (!g_hash_table_contains (oracle_cpu, k)) {
        note (&st, "cpu %d: events, none in the oracle", GPOINTER_TO_INT (k));
        st.missing++;
      }
    g_hash_table_unref (oracle_cpu);
  }
  g_free (lines);

  /* stderr: only babeltrace2's lost-event warnings, one per oracle drop */
  lines = split_lines (bt_err ? bt_err : (gchar *) "");
  for (i = 0; lines[i]; i++) {
    if (lines[i][0] == '\0')
      continue;
    if (g_str_has_prefix (lines[i], "WARNING: Tracer") &&
        strstr (lines[i], "discarded"))
      warn_lines++;
    else
      bad_stderr++;
  }
  g_free (lines);
  expected_drops = st.drops;
  fail_unless (gst_structure_get_uint64 (stats, "discarded-events",
          &discarded));
  {
    guint64 warned = 0;
    fail_unless (gst_structure_get_uint64 (stats, "warned-discarded",
            &warned));
    fail_unless (warned == discarded, "%s: warnings say %" G_GUINT64_FORMAT
        " lost events, stats %" G_GUINT64_FORMAT, name, warned, discarded);
  }
  {
    /* every event keeps its exact time (none went back on its CPU) */
    guint64 clamped = G_MAXUINT64;
    fail_unless (gst_structure_get_uint64 (stats, "clamped-timestamps",
            &clamped));
    fail_unless (clamped == 0, "%s: %" G_GUINT64_FORMAT " clamped", name,
        clamped);
  }

  ok = st.equal == st.events && st.missing == 0 && bad_stderr == 0
      && warn_lines == expected_drops && discarded == oracle_dropped
      && st.events > 0;
  g_print ("tracecmdsrc: %s: %u/%u events equal to trace-cmd report -R "
      "(ts %u, name %u, pid %u, comm %u, field %u differ, %u missing); "
      "babeltrace2 warnings %u (oracle drops %u), other stderr lines %u; "
      "discarded %" G_GUINT64_FORMAT " (oracle %" G_GUINT64_FORMAT ")%s%s\n",
      name, st.equal, st.events, st.ts_bad, st.name_bad, st.pid_bad,
      st.comm_bad, st.field_bad, st.missing, warn_lines, expected_drops,
      bad_stderr, discarded, oracle_dropped, st.first_diff[0] ? "; first: " :
      "", st.first_diff);

  gst_structure_free (stats);
  g_free (text);
  g_free (bt_err);
  g_hash_table_unref (per_cpu);
  g_hash_table_unref (comms);
  g_array_unref (syms);
  g_ptr_array_unref (events);
  gst_ctf_trace_dat_unref (td);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (out);
  g_free (name);
  return ok;
}

static guint
check_dir (const gchar * dir, gboolean * all_ok)
{
  GDir *gd = g_dir_open (dir, 0, NULL);
  const gchar *name;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint k;

  while (gd && (name = g_dir_read_name (gd)))
    if (g_str_has_suffix (name, ".dat"))
      g_ptr_array_add (names, g_strdup (name));
  if (gd)
    g_dir_close (gd);
  g_ptr_array_sort (names, (GCompareFunc) g_ascii_strcasecmp);
  for (k = 0; k < names->len; k++) {
    const gchar *n = g_ptr_array_index (names, k);
    gchar *dat = g_build_filename (dir, n, NULL);
    gchar *oname = g_strconcat (n, ".raw.txt", NULL);
    gchar *oracle = g_build_filename (dir, "oracle", oname, NULL);

    if (!check_file (dat, oracle))
      *all_ok = FALSE;
    g_free (dat);
    g_free (oname);
    g_free (oracle);
  }
  k = names->len;
  g_ptr_array_unref (names);
  return k;
}

START_TEST (test_data_oracle)
{
  gchar *dir = data_path (NULL);
  gboolean ok = TRUE;

  if (!test_have_program ("babeltrace2")) {
    g_print ("SKIP %s: babeltrace2 not found\n", G_STRFUNC);
    g_free (dir);
    return;
  }
  fail_unless_equals_int (check_dir (dir, &ok), 4);
  g_free (dir);
  dir = own_data_path (NULL);
  /* two buffers (instance), DATE, OFFSET, TSC2NSEC + DATE */
  fail_unless_equals_int (check_dir (dir, &ok), 4);
  fail_unless (ok, "an output differs from its oracle (see above)");
  g_free (dir);
}

END_TEST;

START_TEST (test_corpus_oracle)
{
  gchar *dir, *pub;
  gboolean ok = TRUE;
  guint n;

  if (!test_corpus () || !test_have_program ("babeltrace2")) {
    g_print ("SKIP %s: GST_CTF_CORPUS or babeltrace2 missing\n", G_STRFUNC);
    return;
  }
  dir = g_build_filename (test_corpus (), "tracedat", NULL);
  pub = g_build_filename (test_corpus (), "tracedat", "public", NULL);
  n = check_dir (dir, &ok);
  n += check_dir (pub, &ok);
  fail_unless (n >= 7, "only %u corpus files", n);
  fail_unless (ok, "an output differs from its oracle (see above)");
  g_free (dir);
  g_free (pub);
}

END_TEST;

/* ---- v6 / v7 ------------------------------------------------------------ */

static gboolean
dirs_equal (const gchar * a, const gchar * b, gchar ** why)
{
  GDir *d = g_dir_open (a, 0, NULL);
  const gchar *n;
  guint na = 0, nb = 0;
  gboolean ok = TRUE;

  fail_unless (d != NULL);
  while ((n = g_dir_read_name (d)) && ok) {
    gchar *pa = g_build_filename (a, n, NULL);
    gchar *pb = g_build_filename (b, n, NULL);
    gchar *da = NULL, *db = NULL;
    gsize la = 0, lb = 0;

    na++;
    if (!g_file_get_contents (pa, &da, &la, NULL)
        || !g_file_get_contents (pb, &db, &lb, NULL) || la != lb
        || memcmp (da, db, la) != 0) {
      *why = g_strdup_printf ("%s differs", n);
      ok = FALSE;
    }
    g_free (da);
    g_free (db);
    g_free (pa);
    g_free (pb);
  }
  g_dir_close (d);
  d = g_dir_open (b, 0, NULL);
  while (d && g_dir_read_name (d))
    nb++;
  if (d)
    g_dir_close (d);
  if (ok && na != nb) {
    *why = g_strdup_printf ("%u vs %u files", na, nb);
    ok = FALSE;
  }
  return ok;
}

static void
check_identical (const gchar * a, const gchar * b)
{
  gchar *tmp = g_dir_make_tmp ("tracecmdsrc-XXXXXX", NULL);
  gchar *oa = g_build_filename (tmp, "a", NULL);
  gchar *ob = g_build_filename (tmp, "b", NULL);
  gchar *err, *why = NULL;

  err = convert (a, oa, NULL, NULL);
  fail_unless (err == NULL, "%s", err);
  err = convert (b, ob, NULL, NULL);
  fail_unless (err == NULL, "%s", err);
  fail_unless (dirs_equal (oa, ob, &why), "%s vs %s: %s", a, b, why);
  g_print ("tracecmdsrc: %s and %s: byte-identical CTF output\n", a, b);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (oa);
  g_free (ob);
}

START_TEST (test_v6_v7_identical)
{
  gchar *a = data_path ("i686-v6.dat"), *b = data_path ("i686-v7-zstd.dat");
  gchar *c = data_path ("armv7-v6.dat"), *d = data_path ("armv7-v7-none.dat");

  check_identical (a, b);
  check_identical (c, d);
  g_free (a);
  g_free (b);
  g_free (c);
  g_free (d);
}

END_TEST;

/* `trace-cmd convert` of a corpus file to v6 and v7 none/zstd */
START_TEST (test_v6_v7_convert)
{
  gchar *src, *tmp;
  const gchar *const variants[][3] = {
    {"v6.dat", "--file-version", "6"},
    {"v7-none.dat", "--compression", "none"},
    {"v7-zstd.dat", "--compression", "zstd"},
  };
  guint i;

  if (!test_corpus () || !test_have_program ("trace-cmd")) {
    g_print ("SKIP %s: GST_CTF_CORPUS or trace-cmd missing\n", G_STRFUNC);
    return;
  }
  src = g_build_filename (test_corpus (), "tracedat",
      "sched-irq-timer-wq.v7-zstd.dat", NULL);
  tmp = g_dir_make_tmp ("tracecmdsrc-conv-XXXXXX", NULL);
  for (i = 0; i < G_N_ELEMENTS (variants); i++) {
    gchar *out = g_build_filename (tmp, variants[i][0], NULL);
    gchar *argv[] = { (gchar *) "trace-cmd", (gchar *) "convert",
      (gchar *) "-i", src, (gchar *) "-o", out, (gchar *) variants[i][1],
      (gchar *) variants[i][2], NULL
    };
    gint status = -1;

    gchar **envp = test_oracle_environ ();

    fail_unless (g_spawn_sync (NULL, argv, envp, G_SPAWN_SEARCH_PATH |
            G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
            NULL, NULL, NULL, &status, NULL));
    g_strfreev (envp);
    fail_unless_equals_int (status, 0);
    check_identical (src, out);
    g_free (out);
  }
  g_free (src);
  /* two buffers: v7 zstd -> v6 */
  src = own_data_path ("instance.v7-zstd.dat");
  {
    gchar *out = g_build_filename (tmp, "instance.v6.dat", NULL);
    gchar *argv[] = { (gchar *) "trace-cmd", (gchar *) "convert",
      (gchar *) "-i", src, (gchar *) "-o", out, (gchar *) "--file-version",
      (gchar *) "6", NULL
    };
    gint status = -1;

    gchar **envp = test_oracle_environ ();

    fail_unless (g_spawn_sync (NULL, argv, envp, G_SPAWN_SEARCH_PATH |
            G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
            NULL, NULL, NULL, &status, NULL));
    g_strfreev (envp);
    fail_unless_equals_int (status, 0);
    check_identical (src, out);
    g_free (out);
  }
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (src);
}

END_TEST;

/* The direct encoder and the packet writer path give the same bytes,
 * with plain and with LTTng naming and values. */
static void
check_direct_vs_writer (const gchar * dat)
{
  static const gchar *const props[] = { "file-stream=false",
    "file-stream=false lttng-compat=true"
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (props); k++) {
    gchar *tmp = g_dir_make_tmp ("tracecmdsrc-XXXXXX", NULL);
    gchar *oa = g_build_filename (tmp, "direct", NULL);
    gchar *ob = g_build_filename (tmp, "writer", NULL);
    gchar *err, *why = NULL;

    /* the side stream goes through the packet writer either way */
    g_unsetenv ("GST_CTF_TRACEDAT_NO_DIRECT");
    err = convert (dat, oa, props[k], NULL);
    fail_unless (err == NULL, "%s", err);
    g_setenv ("GST_CTF_TRACEDAT_NO_DIRECT", "1", TRUE);
    err = convert (dat, ob, props[k], NULL);
    g_unsetenv ("GST_CTF_TRACEDAT_NO_DIRECT");
    fail_unless (err == NULL, "%s", err);
    fail_unless (dirs_equal (oa, ob, &why), "%s (%s): direct vs packet "
        "writer: %s", dat, props[k], why);
    g_print ("tracecmdsrc: %s (%s): direct encoding = packet writer "
        "output\n", dat, props[k]);
    test_rm_rf (tmp);
    g_free (tmp);
    g_free (oa);
    g_free (ob);
  }
}

START_TEST (test_direct_vs_writer)
{
  const gchar *const data[] = { "i686-v6.dat", "armv7-v6.dat" };
  const gchar *const dirs[] = { "tracedat", "tracedat/public" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (data); i++) {
    gchar *d = data_path (data[i]);
    check_direct_vs_writer (d);
    g_free (d);
  }
  if (!test_corpus ()) {
    g_print ("SKIP %s (corpus part): GST_CTF_CORPUS missing\n", G_STRFUNC);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (dirs); i++) {
    gchar *dir = g_build_filename (test_corpus (), dirs[i], NULL);
    GDir *gd = g_dir_open (dir, 0, NULL);
    const gchar *n;

    while (gd && (n = g_dir_read_name (gd))) {
      if (g_str_has_suffix (n, ".dat")) {
        gchar *f = g_build_filename (dir, n, NULL);
        check_direct_vs_writer (f);
        g_free (f);
      }
    }
    if (gd)
      g_dir_close (gd);
    g_free (dir);
  }
}

END_TEST;

/* ---- harness ------------------------------------------------------------ */

START_TEST (test_harness_caps_order)
{
  gchar *dat = data_path ("armv7-v6.dat");
  GstHarness *h = gst_harness_new_with_padnames ("tracecmdsrc", NULL, "src");
  GstCaps *caps;
  const GstStructure *s;
  GstEvent *ev;
  gboolean eos = FALSE;
  guint n = 0, waited = 0;
  GstClockTime last = 0;
  GstBuffer *buf;

  g_object_set (h->element, "location", dat, NULL);
  gst_harness_play (h);
  while (!eos && waited < 3000) {
    while ((ev = gst_harness_try_pull_event (h))) {
      if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
        eos = TRUE;
      gst_event_unref (ev);
    }
    if (!eos) {
      g_usleep (10000);
      waited++;
    }
  }
  fail_unless (eos);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, GST_CTF_CAPS_MEDIA_TYPE));
  fail_unless (strstr (gst_ctf_caps_get_metadata (caps), "CTF 1.8") != NULL);
  fail_unless (strstr (gst_ctf_caps_get_metadata (caps),
          "event {\n\tname = \"sched_switch\"") != NULL ||
      strstr (gst_ctf_caps_get_metadata (caps), "sched_switch") != NULL);
  fail_unless (gst_structure_has_field (s, "uuid"));
  gst_caps_unref (caps);

  while ((buf = gst_harness_try_pull (h))) {
    GstCtfPacketMeta *m = gst_buffer_get_ctf_packet_meta (buf);

    fail_unless (m != NULL);
    fail_unless (GST_BUFFER_PTS_IS_VALID (buf));
    fail_unless (GST_BUFFER_PTS (buf) >= last);
    last = GST_BUFFER_PTS (buf);
    fail_unless (m->stream_name != NULL);
    /* packet header magic (CTF 1.8 §5.1), little endian trace */
    {
      GstMapInfo map;
      fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
      fail_unless (map.size >= 4 && GST_READ_UINT32_LE (map.data) ==
          0xc1fc1fc1);
      gst_buffer_unmap (buf, &map);
    }
    n++;
    gst_buffer_unref (buf);
  }
  /* one side-stream packet + one page */
  fail_unless (n >= 2, "%u packets", n);
  gst_harness_teardown (h);
  g_free (dat);
}

END_TEST;

START_TEST (test_lttng_compat)
{
  gchar *tmp = g_dir_make_tmp ("tracecmdsrc-XXXXXX", NULL);
  gchar *out = g_build_filename (tmp, "ctf", NULL);
  gchar *meta_path = g_build_filename (out, "metadata", NULL);
  gchar *dat = data_path ("armv7-v6.dat");
  gchar *err, *meta = NULL;

  err = convert (dat, out, "lttng-compat=true file-stream=false", NULL);
  fail_unless (err == NULL, "%s", err);
  fail_unless (g_file_get_contents (meta_path, &meta, NULL, NULL));
  fail_unless (strstr (meta, "tracer_name = \"lttng-modules\";") != NULL);
  fail_unless (strstr (meta, "domain = \"kernel\";") != NULL);
  fail_unless (strstr (meta, "tracer_major = 2;") != NULL);
  fail_unless (strstr (meta, " prev_tid;") != NULL);
  fail_unless (strstr (meta, " next_tid;") != NULL);
  fail_unless (strstr (meta, " prev_pid;") == NULL);
  /* softirq_entry of system irq */
  if (strstr (meta, "softirq_entry"))
    fail_unless (strstr (meta, "\"irq_softirq_entry\"") != NULL);
  fail_unless (strstr (meta, "tracecmd_cmdline") == NULL);
  if (test_have_program ("babeltrace2")) {
    gchar *argv[] = { (gchar *) "babeltrace2", out, NULL };
    gchar *o = NULL, *e = NULL;
    gint status = -1;

    fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
            NULL, &o, &e, &status, NULL));
    fail_unless_equals_int (status, 0);
    fail_unless_equals_string (e, "");
    fail_unless (strstr (o, "prev_tid = ") != NULL);
    /* priorities as lttng-modules records them: prio - MAX_RT_PRIO (a
     * normal task is 20 where trace-cmd report says 120), in every sched
     * event, in the same order as the oracle's */
    {
      gchar *oracle_path = data_path ("oracle/armv7-v6.dat.raw.txt");
      gchar *oracle = NULL;
      GRegex *ours = g_regex_new ("prio = (-?[0-9]+)", 0, 0, NULL);
      GRegex *theirs = g_regex_new ("prio=(-?[0-9]+)", 0, 0, NULL);
      GMatchInfo *mo, *mt;
      guint n = 0;

      fail_unless (g_file_get_contents (oracle_path, &oracle, NULL, NULL));
      g_regex_match (ours, o, 0, &mo);
      g_regex_match (theirs, oracle, 0, &mt);
      while (g_match_info_matches (mt)) {
        gchar *a, *b;

        fail_unless (g_match_info_matches (mo), "prio %u missing", n);
        a = g_match_info_fetch (mo, 1);
        b = g_match_info_fetch (mt, 1);
        fail_unless_equals_int64 (g_ascii_strtoll (a, NULL, 10),
            g_ascii_strtoll (b, NULL, 10) - 100);
        g_free (a);
        g_free (b);
        g_match_info_next (mo, NULL);
        g_match_info_next (mt, NULL);
        n++;
      }
      fail_unless (!g_match_info_matches (mo));
      fail_unless (n >= 30, "%u priorities", n);
      g_match_info_free (mo);
      g_match_info_free (mt);
      g_regex_unref (ours);
      g_regex_unref (theirs);
      g_free (oracle);
      g_free (oracle_path);
    }
    g_free (o);
    g_free (e);
  }
  g_free (meta);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (out);
  g_free (meta_path);
  g_free (dat);
}

END_TEST;

/* The clock of files with the options that move the time line (real
 * recordings: trace-cmd extract --date / --ts-offset / --tsc2nsec --date):
 * the values are those of `trace-cmd report` (test_data_oracle compares
 * every event's time), the clock is absolute with a Unix epoch origin only
 * with DATE (the offset to gettimeofday); OFFSET is a plain shift. */
START_TEST (test_clock_options)
{
  static const struct
  {
    const gchar *file, *name;
    gint64 offset_s, offset;
    gboolean absolute;
  } cases[] = {
    /* DATE 0x661224ea5295a us */
    {"date.v7-zstd.dat", "local", 1795649836, 493146000, TRUE},
    /* OFFSET 1000000000000 ns */
    {"ts-offset.v7-zstd.dat", "local", 1000, 0, FALSE},
    /* DATE 0x6611870653651 us; x86-tsc ticks x 1654360224 >> 32 */
    {"tsc2nsec-date.v7-zstd.dat", "tsc2nsec", 1795607453, 54545000, TRUE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *tmp = g_dir_make_tmp ("tracecmdsrc-XXXXXX", NULL);
    gchar *out = g_build_filename (tmp, "ctf", NULL);
    gchar *meta_path = g_build_filename (out, "metadata", NULL);
    gchar *dat = own_data_path (cases[i].file);
    gchar *err, *meta = NULL;
    GstCtfTraceClass *tc;
    const GstCtfClockClass *cc;
    GError *e = NULL;

    err = convert (dat, out, NULL, NULL);
    fail_unless (err == NULL, "%s", err);
    fail_unless (g_file_get_contents (meta_path, &meta, NULL, NULL));
    tc = gst_ctf_tsdl_parse (meta, meta_path, &e);
    fail_unless (tc != NULL, "%s", e ? e->message : "");
    fail_unless_equals_int (tc->clock_classes->len, 1);
    cc = g_ptr_array_index (tc->clock_classes, 0);
    fail_unless_equals_string (cc->name, cases[i].name);
    fail_unless_equals_uint64 (cc->freq, 1000000000);
    fail_unless_equals_int64 (cc->offset_s, cases[i].offset_s);
    fail_unless_equals_int64 (cc->offset, cases[i].offset);
    fail_unless_equals_int (cc->absolute, cases[i].absolute);
    fail_unless_equals_int (cc->origin_is_unix_epoch, cases[i].absolute);
    gst_ctf_trace_class_unref (tc);
    g_free (meta);
    test_rm_rf (tmp);
    g_free (tmp);
    g_free (out);
    g_free (meta_path);
    g_free (dat);
  }
}

END_TEST;

START_TEST (test_clock_offset)
{
  gchar *tmp = g_dir_make_tmp ("tracecmdsrc-XXXXXX", NULL);
  gchar *out = g_build_filename (tmp, "ctf", NULL);
  gchar *meta_path = g_build_filename (out, "metadata", NULL);
  gchar *dat = data_path ("i686-v6.dat");
  gchar *err, *meta = NULL;

  err = convert (dat, out, "clock-offset-ns=-1500000000", NULL);
  fail_unless (err == NULL, "%s", err);
  fail_unless (g_file_get_contents (meta_path, &meta, NULL, NULL));
  /* -1.5 s = -2 s + 500000000 ns (CTF 1.8 §8) */
  fail_unless (strstr (meta, "offset_s = -2;") != NULL, "%s", meta);
  fail_unless (strstr (meta, "offset = 500000000;") != NULL);
  g_free (meta);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (out);
  g_free (meta_path);
  g_free (dat);
}

END_TEST;

START_TEST (test_errors)
{
  gchar *tmp = g_dir_make_tmp ("tracecmdsrc-XXXXXX", NULL);
  gchar *out = g_build_filename (tmp, "ctf", NULL);
  gchar *bad = g_build_filename (tmp, "bad.dat", NULL);
  gchar *trunc = g_build_filename (tmp, "trunc.dat", NULL);
  gchar *src = data_path ("armv7-v6.dat");
  gchar *err, *data = NULL;
  gsize len;

  err = convert ("/nonexistent/trace.dat", out, NULL, NULL);
  fail_unless (err != NULL);
  fail_unless (strstr (err, "/nonexistent/trace.dat") != NULL, "%s", err);
  g_free (err);

  fail_unless (g_file_set_contents (bad, "not a trace.dat file", -1, NULL));
  err = convert (bad, out, NULL, NULL);
  fail_unless (err != NULL);
  fail_unless (strstr (err, "bad.dat") != NULL, "%s", err);
  g_free (err);

  /* cut in the middle of the metadata: an error, no crash */
  fail_unless (g_file_get_contents (src, &data, &len, NULL));
  fail_unless (g_file_set_contents (trunc, data, len / 3, NULL));
  err = convert (trunc, out, NULL, NULL);
  fail_unless (err != NULL);
  g_free (err);

  g_free (data);
  test_rm_rf (tmp);
  g_free (tmp);
  g_free (out);
  g_free (bad);
  g_free (trunc);
  g_free (src);
}

END_TEST;

static Suite *
tracecmdsrc_suite (void)
{
  Suite *s = suite_create ("tracecmdsrc");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_harness_caps_order);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_clock_offset);
  tcase_add_test (tc, test_clock_options);
  tcase_add_test (tc, test_lttng_compat);
  tcase_add_test (tc, test_v6_v7_identical);
  tcase_add_test (tc, test_v6_v7_convert);
  tcase_add_test (tc, test_direct_vs_writer);
  tcase_add_test (tc, test_data_oracle);
  /* its own case: the longest (CK_RUN_CASE=corpus runs it alone) */
  tc = tcase_create ("corpus");
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_corpus_oracle);
  return s;
}

GST_CHECK_MAIN (tracecmdsrc);
