/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `trace-cmd report` text for traces tracecmdsrc converted from a
 * trace.dat, with libtraceevent doing what it does for trace-cmd.
 *
 * libtraceevent formats ftrace records (the bytes the kernel wrote, laid
 * out as the event's format file says) with the print fmt and plugins.
 * The CTF events carry the same values in another layout, so each event's
 * record is rebuilt: the format file (carried whole in the side stream's
 * `tracecmd_event_format.format`) gives every field's offset and size,
 * and the CTF values come in the order gsttracecmd-ctf.c made the members
 * (one per field; a `_NAME_length` member before each dynamic array).
 * Integers go back at their offsets in the trace's byte order, char
 * arrays back as the string and NUL padding, `__data_loc`/`__rel_loc`
 * data after the fixed part with its offset/length word.  What the CTF
 * did not keep (bytes of a char array after its NUL) comes back as zeros.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* dladdr() */
#endif
#include "gsttracecmd-private.h"
#include "gsttracecmd-report.h"
#include "gsttracecmd-tep.h"

#include <dlfcn.h>
#include <stdio.h>
#include <traceevent/event-parse.h>

/* A rebuilt record stays within what a __data_loc word can address. */
#define MAX_RECORD 65536

struct _GstCtfTraceCmdReport
{
  GstCtfTraceClass *tc;
  GstCtfByteOrder bo;
  guint long_size;
  guint n_cpus;
  gboolean in_usecs;
  gboolean has_side;
  guint64 side_sc_id;
  GstCtfEventIter *side_it;

  GstTraceCmdTep *tep;          /* libtraceevent, in its own process */
  GHashTable *formats;          /* ftrace id -> GstCtfTraceDatEventFormat */
  GString *kallsyms;            /* rebuilt /proc/kallsyms text */
  GString *printk;              /* rebuilt printk_formats text */
  gboolean ready;               /* kallsyms and printk given to tep */

  GPtrArray *buffer_names;      /* by stream class id; "" = top level */
  gboolean instances;           /* more than one buffer: name column */
  gint name_width;
  GHashTable *drops;            /* "scid:sid" -> pending count */

  GByteArray *rec;
  guint64 common_extent;        /* end of the furthest common field */
  GString *prefix;
};

static const GstCtfEnvEntry *
env (GstCtfTraceClass * tc, const gchar * name)
{
  return gst_ctf_trace_class_find_env (tc, name);
}

static gint64
env_int (GstCtfTraceClass * tc, const gchar * name, gint64 def)
{
  const GstCtfEnvEntry *e = env (tc, name);

  return e && !e->is_string ? e->integer : def;
}

static const gchar *
env_str (GstCtfTraceClass * tc, const gchar * name)
{
  const GstCtfEnvEntry *e = env (tc, name);

  return e && e->is_string ? e->str : NULL;
}

/* trace-cmd shows SECS.USECS for the clocks counting ns (and for clocks
 * converted with TSC2NSEC), the raw count for the others. */
static gboolean
clock_in_usecs (GstCtfTraceClass * tc)
{
  static const gchar *const ns_clocks[] = { "local", "global", "uptime",
    "perf", "mono", "mono_raw", "boot", NULL
  };
  const gchar *clock = env_str (tc, "trace_clock");

  if (clock == NULL || env (tc, "tsc2nsec_mult") != NULL)
    return TRUE;
  return g_strv_contains (ns_clocks, clock);
}

/* libtraceevent's plugins are not linked with libtraceevent: they take its
 * symbols from the global scope, where a library that GStreamer loaded
 * with its plugin (RTLD_LOCAL) is not.  Make the loaded libtraceevent
 * global (RTLD_NOLOAD: the same copy, not another). */
static void
make_traceevent_global (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    Dl_info info;

    if (dladdr ((gpointer) tep_alloc, &info) && info.dli_fname) {
      void *h = dlopen (info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);

      /* kept open: the plugins need it as long as the process runs */
      if (h == NULL)
        g_warning ("libtraceevent plugins may not load: %s", dlerror ());
    }
    g_once_init_leave (&done, 1);
  }
}

GstCtfTraceCmdReport *
gst_ctf_trace_cmd_report_new (GstCtfTraceClass * tc, GError ** error)
{
  const gchar *tracer = env_str (tc, "tracer_name");
  GstCtfTraceCmdReport *r;
  const GstCtfStreamClass *side;
  guint i;

  if (tracer == NULL || strcmp (tracer, "trace-cmd") != 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Not a trace converted from a trace.dat: env tracer_name is \"%s\", "
        "expected \"trace-cmd\" (tracecmdsrc without lttng-compat)",
        tracer ? tracer : "(none)");
    return NULL;
  }
  r = g_new0 (GstCtfTraceCmdReport, 1);
  r->tc = gst_ctf_trace_class_ref (tc);
  r->bo = tc->byte_order;
  r->long_size = (guint) env_int (tc, "kernel_long_size",
      env_int (tc, "long_size", 8));
  r->n_cpus = (guint) env_int (tc, "cpus", 0);
  r->in_usecs = clock_in_usecs (tc);
  side = gst_ctf_trace_dat_find_side_stream_class (tc);
  if (side != NULL) {
    r->has_side = TRUE;
    r->side_sc_id = side->id;
  }
  if (!r->has_side) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "The trace has no \"tracecmd\" side stream with the event formats "
        "(tracecmdsrc file-stream=false?): trace-cmd's text needs them");
    gst_ctf_trace_cmd_report_free (r);
    return NULL;
  }
  r->side_it = gst_ctf_event_iter_new (tc);
  gst_ctf_event_iter_set_recording (r->side_it, TRUE);

  /* the plugins trace-cmd loads (sched_switch, kmem, ...) */
  make_traceevent_global ();
  r->tep = gst_trace_cmd_tep_new (r->bo == GST_CTF_BYTE_ORDER_BE,
      r->long_size, (guint) env_int (tc, "page_size", 4096), r->in_usecs);

  r->formats = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) gst_ctf_trace_dat_event_format_free);
  r->kallsyms = g_string_new (NULL);
  r->printk = g_string_new (NULL);
  r->buffer_names = g_ptr_array_new_with_free_func (g_free);
  for (i = 0;; i++) {
    gchar key[32];
    const gchar *name;

    g_snprintf (key, sizeof (key), "buffer_%u", i);
    name = env_str (tc, key);
    if (name == NULL)
      break;
    g_ptr_array_add (r->buffer_names, g_strdup (name));
    r->name_width = MAX (r->name_width, (gint) strlen (name));
  }
  r->instances = r->buffer_names->len > 1;
  r->drops = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->rec = g_byte_array_new ();
  r->prefix = g_string_new (NULL);
  return r;
}

void
gst_ctf_trace_cmd_report_free (GstCtfTraceCmdReport * r)
{
  if (r == NULL)
    return;
  gst_trace_cmd_tep_free (r->tep);
  if (r->side_it)
    gst_ctf_event_iter_free (r->side_it);
  if (r->formats)
    g_hash_table_unref (r->formats);
  if (r->kallsyms)
    g_string_free (r->kallsyms, TRUE);
  if (r->printk)
    g_string_free (r->printk, TRUE);
  if (r->buffer_names)
    g_ptr_array_unref (r->buffer_names);
  if (r->drops)
    g_hash_table_unref (r->drops);
  if (r->rec)
    g_byte_array_unref (r->rec);
  if (r->prefix)
    g_string_free (r->prefix, TRUE);
  gst_ctf_trace_class_unref (r->tc);
  g_free (r);
}

gboolean
gst_ctf_trace_cmd_report_is_side_stream (GstCtfTraceCmdReport * r,
    guint64 stream_class_id)
{
  return r->has_side && stream_class_id == r->side_sc_id;
}

/* ------------------------------------------------------------------ */
/* side stream */

/* The top-level member @name of a scope's values, or NULL. */
static const GstCtfFieldValue *
member (const GstCtfFieldValue * v, guint n, const gchar * name)
{
  guint i = 1;

  while (i < n) {
    if (v[i].name && strcmp (v[i].name, name) == 0)
      return &v[i];
    if (v[i].end <= i)
      break;
    i = v[i].end;
  }
  return NULL;
}

/* A string member's text (copied, NUL-terminated), or NULL. */
static gchar *
member_str (const GstCtfFieldValue * v, guint n, const gchar * name)
{
  const GstCtfFieldValue *m = member (v, n, name);

  if (m == NULL || m->fc->type != GST_CTF_FIELD_CLASS_STRING)
    return NULL;
  return g_strndup (m->v.s.ptr, m->v.s.len);
}

static gboolean
member_uint (const GstCtfFieldValue * v, guint n, const gchar * name,
    guint64 * out)
{
  const GstCtfFieldValue *m = member (v, n, name);

  if (m == NULL || m->fc->type != GST_CTF_FIELD_CLASS_INTEGER)
    return FALSE;
  *out = m->v.u;
  return TRUE;
}

static gboolean
take_format (GstCtfTraceCmdReport * r, const GstCtfFieldValue * v, guint n,
    GError ** error)
{
  gchar *system = member_str (v, n, "system");
  gchar *text = member_str (v, n, "format");
  GstCtfTraceDatEventFormat *fmt;
  gboolean ok = TRUE;

  if (text == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "tracecmd_event_format event without its \"format\" text (a trace "
        "converted by an older tracecmdsrc?): trace-cmd's text needs it");
    g_free (system);
    return FALSE;
  }
  fmt = gst_ctf_trace_dat_event_format_parse (text, strlen (text), system,
      r->long_size, error);
  if (fmt == NULL) {
    g_prefix_error (error, "In the side stream's event formats: ");
    ok = FALSE;
  } else if (!g_hash_table_contains (r->formats, GUINT_TO_POINTER (fmt->id))) {
    guint i;

    /* libtraceevent keeps the events it could not parse the print fmt of,
     * marked failed, and prints their fields as trace-cmd does; a print
     * fmt it crashes on (trace-cmd report crashes too) is taken back by
     * gsttracecmd-tep.c */
    gst_trace_cmd_tep_add_format (r->tep, fmt->id, system, text);
    /* libtraceevent reads every record's common_type (and pid, flags)
     * where the first format it parsed has them */
    for (i = 0; i < fmt->n_common_fields; i++)
      r->common_extent = MAX (r->common_extent,
          (guint64) fmt->common_fields[i].offset +
          fmt->common_fields[i].size);
    g_hash_table_insert (r->formats, GUINT_TO_POINTER (fmt->id), fmt);
  } else {
    gst_ctf_trace_dat_event_format_free (fmt);
  }
  g_free (text);
  g_free (system);
  return ok;
}

static void
take_side_event (GstCtfTraceCmdReport * r, const gchar * name,
    const GstCtfFieldValue * v, guint n)
{
  guint64 u;

  if (strcmp (name, "tracecmd_header") == 0) {
    gchar *page = member_str (v, n, "header_page");

    if (page)
      gst_trace_cmd_tep_set_header_page (r->tep, page);
    g_free (page);
  } else if (strcmp (name, "tracecmd_cmdline") == 0) {
    gchar *comm = member_str (v, n, "comm");

    if (comm && member_uint (v, n, "pid", &u))
      gst_trace_cmd_tep_add_comm (r->tep, comm, (gint) (gint64) u);
    g_free (comm);
  } else if (strcmp (name, "tracecmd_kallsym") == 0) {
    gchar *type = member_str (v, n, "type");
    gchar *sym = member_str (v, n, "name");
    gchar *mod = member_str (v, n, "module");

    /* back to a /proc/kallsyms line for libtraceevent */
    if (type && sym && member_uint (v, n, "address", &u)
        && !strchr (sym, '\n') && !(mod && strchr (mod, '\n'))) {
      g_string_append_printf (r->kallsyms, "%016" G_GINT64_MODIFIER "x %s %s",
          u, *type ? type : "t", sym);
      if (mod && *mod)
        g_string_append_printf (r->kallsyms, "\t[%s]", mod);
      g_string_append_c (r->kallsyms, '\n');
    }
    g_free (type);
    g_free (sym);
    g_free (mod);
  } else if (strcmp (name, "tracecmd_printk") == 0) {
    gchar *fmt = member_str (v, n, "format");

    if (fmt && member_uint (v, n, "address", &u) && !strchr (fmt, '\n'))
      g_string_append_printf (r->printk, "0x%" G_GINT64_MODIFIER "x : %s\n",
          u, fmt);
    g_free (fmt);
  }
}

gboolean
gst_ctf_trace_cmd_report_add_side_packet (GstCtfTraceCmdReport * r,
    const guint8 * data, gsize size, GError ** error)
{
  if (r->ready)
    return TRUE;
  if (!gst_ctf_event_iter_set_packet (r->side_it, data, size, error))
    return FALSE;
  for (;;) {
    const GstCtfEventClass *ec;
    const GstCtfFieldValue *v;
    GError *err = NULL;
    guint n = 0;

    if (!gst_ctf_event_iter_next (r->side_it, &err)) {
      if (err == NULL)
        return TRUE;
      g_propagate_error (error, err);
      return FALSE;
    }
    ec = gst_ctf_event_iter_get_event_class (r->side_it);
    v = gst_ctf_event_iter_get_values (r->side_it, GST_CTF_SCOPE_EVENT_PAYLOAD,
        &n);
    if (ec == NULL || ec->name == NULL || v == NULL)
      continue;
    if (strcmp (ec->name, "tracecmd_event_format") == 0) {
      if (!take_format (r, v, n, error))
        return FALSE;
    } else {
      take_side_event (r, ec->name, v, n);
    }
  }
}

/* The symbol tables are parsed once, when the first event is printed. */
static void
make_ready (GstCtfTraceCmdReport * r)
{
  if (r->ready)
    return;
  r->ready = TRUE;
  gst_trace_cmd_tep_set_symbols (r->tep, r->kallsyms->str, r->printk->str);
  g_string_free (r->kallsyms, TRUE);
  g_string_free (r->printk, TRUE);
  r->kallsyms = r->printk = NULL;
}

void
gst_ctf_trace_cmd_report_format_header (GstCtfTraceCmdReport * r,
    GString * out)
{
  g_string_append_printf (out, "cpus=%u\n", r->n_cpus);
}

static gchar *
drop_key (guint64 stream_class_id, gint64 stream_id)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GINT64_FORMAT,
      stream_class_id, stream_id);
}

void
gst_ctf_trace_cmd_report_note_discarded (GstCtfTraceCmdReport * r,
    guint64 stream_class_id, gint64 stream_id, guint64 count)
{
  gchar *key = drop_key (stream_class_id, stream_id);
  guint64 prev = GPOINTER_TO_SIZE (g_hash_table_lookup (r->drops, key));

  /* G_MAXSIZE: a loss of unknown size (G_MAXUINT64), printed without a
   * count, as trace-cmd prints a record whose missed_events is -1 */
  if (prev == G_MAXSIZE)
    prev = 0;
  g_hash_table_replace (r->drops, key, GSIZE_TO_POINTER ((gsize)
          (count == G_MAXUINT64 ? G_MAXSIZE :
              MIN (prev + count, (guint64) G_MAXSIZE - 1))));
}

/* ------------------------------------------------------------------ */
/* record rebuilding */

typedef struct {
  const GstCtfFieldValue *v;
  guint n;
  guint i;
} Cursor;

/* The next member's value (its subtree is skipped). */
static const GstCtfFieldValue *
take (Cursor * c)
{
  const GstCtfFieldValue *v;

  if (c->v == NULL || c->i >= c->n)
    return NULL;
  v = &c->v[c->i];
  if (v->end <= c->i || v->end > c->n)
    return NULL;
  c->i = v->end;
  return v;
}

static gboolean
grow (GByteArray * rec, guint64 len)
{
  if (len > MAX_RECORD)
    return FALSE;
  if (rec->len < len) {
    guint old = rec->len;

    g_byte_array_set_size (rec, (guint) len);
    memset (rec->data + old, 0, len - old);
  }
  return TRUE;
}

static gboolean
put_int (GstCtfTraceCmdReport * r, guint64 off, guint size, guint64 x)
{
  guint k;

  if (size == 0 || size > 8 || !grow (r->rec, off + size))
    return FALSE;
  for (k = 0; k < size; k++) {
    guint shift = r->bo == GST_CTF_BYTE_ORDER_BE ? (size - 1 - k) * 8 : k * 8;

    r->rec->data[off + k] = (guint8) (x >> shift);
  }
  return TRUE;
}

/* Where a field's variable-size data goes; for `__data_loc`/`__rel_loc`
 * fields, also writes the location word. */
static gboolean
data_place (GstCtfTraceCmdReport * r, const GstCtfTraceDatField * f,
    guint64 len, guint64 * pos)
{
  guint64 word;

  if (!(f->flags & GST_CTF_TRACE_DAT_FIELD_DYNAMIC)) {
    *pos = f->offset;
    return grow (r->rec, *pos + len) && (f->size == 0 || len <= f->size);
  }
  *pos = r->rec->len;
  if (len > 0xffff || !grow (r->rec, *pos + len))
    return FALSE;
  word = (f->flags & GST_CTF_TRACE_DAT_FIELD_RELATIVE) ?
      *pos - (f->offset + f->size) : *pos;
  if (word > 0xffff)
    return FALSE;
  return put_int (r, f->offset, MIN (f->size, 4), (len << 16) | word);
}

/* Writes one ftrace field from the CTF member(s) gsttracecmd-ctf.c's
 * append_field() made for it. */
static gboolean
put_field (GstCtfTraceCmdReport * r, const GstCtfTraceDatField * f,
    Cursor * c)
{
  const GstCtfFieldValue *v = take (c);
  const GstCtfFieldClass *elem;
  guint64 pos, count, esize, k;

  if (v == NULL)
    return FALSE;
  if (f->flags & GST_CTF_TRACE_DAT_FIELD_STRING) {
    guint64 len;

    if (v->fc->type != GST_CTF_FIELD_CLASS_STRING)
      return FALSE;
    len = v->v.s.len;
    if (!(f->flags & GST_CTF_TRACE_DAT_FIELD_DYNAMIC) && f->size > 0)
      len = MIN (len, (guint64) f->size - 1);
    /* with its NUL, as the kernel's __string() stores it */
    if (!data_place (r, f, len + 1, &pos))
      return FALSE;
    memcpy (r->rec->data + pos, v->v.s.ptr, len);
    r->rec->data[pos + len] = 0;
    return TRUE;
  }
  if (v->fc->type == GST_CTF_FIELD_CLASS_INTEGER) {
    if (!(f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY))
      return put_int (r, f->offset, f->size, v->v.u);
    /* the `_NAME_length` member before a dynamic array */
    if ((v = take (c)) == NULL)
      return FALSE;
  }
  if (v->fc->type != GST_CTF_FIELD_CLASS_ARRAY
      && v->fc->type != GST_CTF_FIELD_CLASS_SEQUENCE)
    return FALSE;
  elem = v->fc->element;
  if (elem == NULL || elem->type != GST_CTF_FIELD_CLASS_INTEGER)
    return FALSE;
  esize = MAX (elem->integer.size / 8, 1);
  if (esize > 8)
    return FALSE;
  if (elem->integer.size == 8
      && elem->integer.encoding != GST_CTF_ENCODING_NONE) {
    /* a text array: its bytes, no children */
    count = v->v.s.len;
    if (!data_place (r, f, count, &pos))
      return FALSE;
    memcpy (r->rec->data + pos, v->v.s.ptr, count);
    return TRUE;
  }
  count = v->v.u;
  if (count != v->end - (guint) (v - c->v) - 1 || count * esize > MAX_RECORD)
    return FALSE;
  if (!data_place (r, f, count * esize, &pos))
    return FALSE;
  for (k = 0; k < count; k++)
    if (!put_int (r, pos + k * esize, (guint) esize, v[1 + k].v.u))
      return FALSE;
  return TRUE;
}

static gboolean
rebuild_record (GstCtfTraceCmdReport * r, const GstCtfTraceDatEventFormat *
    fmt, GstCtfEventIter * it)
{
  Cursor common = { NULL, 0, 1 }, payload = { NULL, 0, 1 };
  Cursor *cc;
  guint64 fixed = 0;
  guint i;

  common.v = gst_ctf_event_iter_get_values (it,
      GST_CTF_SCOPE_EVENT_COMMON_CONTEXT, &common.n);
  payload.v = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD,
      &payload.n);
  cc = common.v && common.n > 0 ? &common : &payload;

  for (i = 0; i < fmt->n_common_fields; i++)
    fixed = MAX (fixed, (guint64) fmt->common_fields[i].offset +
        fmt->common_fields[i].size);
  for (i = 0; i < fmt->n_fields; i++)
    fixed = MAX (fixed, (guint64) fmt->fields[i].offset +
        fmt->fields[i].size);
  g_byte_array_set_size (r->rec, 0);
  if (!grow (r->rec, MAX (fixed, MIN (r->common_extent, MAX_RECORD))))
    return FALSE;

  for (i = 0; i < fmt->n_common_fields; i++) {
    const GstCtfTraceDatField *f = &fmt->common_fields[i];

    if (strcmp (f->name, "common_type") == 0) {
      if (!put_int (r, f->offset, f->size, fmt->id))
        return FALSE;
    } else if (!put_field (r, f, cc)) {
      return FALSE;
    }
  }
  for (i = 0; i < fmt->n_fields; i++)
    if (!put_field (r, &fmt->fields[i], &payload))
      return FALSE;
  /* the ring buffer's records are 4-byte multiples */
  return grow (r->rec, (r->rec->len + 3) & ~3u);
}

/* ------------------------------------------------------------------ */
/* lines */

static gint
event_cpu (GstCtfEventIter * it)
{
  const GstCtfPacketInfo *pi = gst_ctf_event_iter_get_packet_info (it);
  const GstCtfFieldValue *v;
  guint n = 0;
  guint64 cpu;

  v = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_PACKET_CONTEXT, &n);
  if (v && member_uint (v, n, "cpu_id", &cpu))
    return (gint) cpu;
  return pi && pi->has_stream_instance_id ? (gint) pi->stream_instance_id
      : 0;
}

gboolean
gst_ctf_trace_cmd_report_format_event (GstCtfTraceCmdReport * r,
    GstCtfEventIter * it, guint64 stream_class_id, gint64 stream_id,
    gint64 ns, GString * out, GError ** error)
{
  const GstCtfEventClass *ec = gst_ctf_event_iter_get_event_class (it);
  const GstCtfTraceDatEventFormat *fmt;
  GString *s = r->prefix;
  gchar *key;
  gpointer dropped;
  gint cpu;

  if (gst_ctf_trace_cmd_report_is_side_stream (r, stream_class_id))
    return TRUE;
  make_ready (r);
  fmt = ec ? g_hash_table_lookup (r->formats, GUINT_TO_POINTER (ec->id))
      : NULL;
  if (fmt == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Event \"%s\" (id %" G_GUINT64_FORMAT ") has no ftrace format in the "
        "side stream (did a timefilter or ctffilter before the sink drop the "
        "side stream's tracecmd_event_format events?)",
        ec && ec->name ? ec->name : "?", ec ? ec->id : 0);
    return FALSE;
  }
  if (!rebuild_record (r, fmt, it)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "The values of event \"%s\" do not fit its ftrace format (fields "
        "as tracecmdsrc maps them, record within %u bytes)", fmt->name,
        MAX_RECORD);
    return FALSE;
  }
  cpu = event_cpu (it);
  g_string_truncate (s, 0);
  if (r->instances) {
    const gchar *buf = stream_class_id < r->buffer_names->len ?
        g_ptr_array_index (r->buffer_names, stream_class_id) : "";

    if (*buf)
      g_string_append_printf (s, "%*s: ", r->name_width, buf);
    else
      g_string_append_printf (s, "%*s  ", r->name_width, "");
  }
  if (g_hash_table_size (r->drops) > 0) {
    key = drop_key (stream_class_id, stream_id);
    if (g_hash_table_lookup_extended (r->drops, key, NULL, &dropped)) {
      if (GPOINTER_TO_SIZE (dropped) == G_MAXSIZE)
        g_string_append_printf (s, "CPU:%d [EVENTS DROPPED]\n", cpu);
      else
        g_string_append_printf (s, "CPU:%d [%" G_GSIZE_FORMAT
            " EVENTS DROPPED]\n", cpu, GPOINTER_TO_SIZE (dropped));
      g_hash_table_remove (r->drops, key);
    }
    g_free (key);
  }
  return gst_trace_cmd_tep_print (r->tep, s->str, s->len, fmt->id, fmt->name,
      r->rec->data, r->rec->len, (guint64) ns, cpu, out, error);
}

gboolean
gst_ctf_trace_cmd_report_flush (GstCtfTraceCmdReport * r, GString * out,
    GError ** error)
{
  return gst_trace_cmd_tep_flush (r->tep, out, error);
}
