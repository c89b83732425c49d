/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat -> CTF 1.8 packets: the trace class.
 *
 * Builds the CTF model of a trace.dat file for the packetizer
 * (gsttracecmd-packetizer.c): one stream class per flyrecord buffer, the
 * side stream class `tracecmd`, the environment and clock class (CTF 1.8
 * §8), written as TSDL and parsed back (CTF 1.8 §7), and the per-stream
 * packet writers.  Moved out of gsttracecmd-packetizer.c unchanged.
 */
#include "gsttracecmd-private.h"
#include "gsttracecmd-packetizer.h"
#include "gstctf-tsdl-writer.h"
#include "gstctf-packet-writer.h"
#include "gstctf-metadata.h"

#include <stdio.h>
#include <stdlib.h>

static const gchar *const fev_names[N_FEV] = {
  "tracecmd_header", "tracecmd_option", "tracecmd_event_format",
  "tracecmd_cmdline", "tracecmd_kallsym", "tracecmd_printk"
};

/* ---- model helpers ----------------------------------------------------- */

static GstCtfFieldClass *
mk_clock_int (GstCtfByteOrder bo, const gchar * clock)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new_integer (64, FALSE, bo, 10);

  fc->integer.map_clock_name = g_strdup (clock);
  return fc;
}

static GstCtfFieldClass *
mk_string (void)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING);

  fc->alignment = 8;
  fc->string.encoding = GST_CTF_ENCODING_UTF8;
  return fc;
}

static void
env_remove (GstCtfTraceClass * tc, const gchar * name)
{
  guint i;

  for (i = 0; i < tc->env->len; i++) {
    GstCtfEnvEntry *e = g_ptr_array_index (tc->env, i);
    if (strcmp (e->name, name) == 0) {
      g_ptr_array_remove_index (tc->env, i);
      return;
    }
  }
}

static void
env_set_str (GstCtfTraceClass * tc, const gchar * name, const gchar * value)
{
  if (!value)
    return;
  env_remove (tc, name);
  gst_ctf_trace_class_add_env_string (tc, name, value);
}

static void
env_set_int (GstCtfTraceClass * tc, const gchar * name, gint64 value)
{
  env_remove (tc, name);
  gst_ctf_trace_class_add_env_integer (tc, name, value);
}

static gchar *
option_text (const GstCtfTraceDatOption * o)
{
  gsize n = strnlen ((const gchar *) o->data, o->size);
  gchar *s = g_strndup ((const gchar *) o->data, n);

  return g_strchomp (s);
}

/* Options that only describe where things sit in the file (v7 section
 * offsets, buffer tables): they differ between v6 and v7 copies of one
 * recording and say nothing about the trace. */
gboolean
_gst_ctf_trace_dat_option_is_container (guint id)
{
  switch (id) {
    case GST_CTF_TRACE_DAT_OPTION_DONE:
    case GST_CTF_TRACE_DAT_OPTION_BUFFER:
    case GST_CTF_TRACE_DAT_OPTION_STRINGS:
    case GST_CTF_TRACE_DAT_OPTION_HEADER_INFO:
    case GST_CTF_TRACE_DAT_OPTION_FTRACE_EVENTS:
    case GST_CTF_TRACE_DAT_OPTION_EVENT_FORMATS:
    case GST_CTF_TRACE_DAT_OPTION_KALLSYMS:
    case GST_CTF_TRACE_DAT_OPTION_PRINTK:
    case GST_CTF_TRACE_DAT_OPTION_CMDLINES:
    case GST_CTF_TRACE_DAT_OPTION_BUFFER_TEXT:
      /* written by `trace-cmd convert` to v7 from the CPU count */
    case GST_CTF_TRACE_DAT_OPTION_CPUCOUNT:
      return TRUE;
    default:
      return FALSE;
  }
}

const gchar *
_gst_ctf_trace_dat_option_name (guint id)
{
  static const gchar *const names[] = {
    "DONE", "DATE", "CPUSTAT", "BUFFER", "TRACECLOCK", "UNAME", "HOOK",
    "OFFSET", "CPUCOUNT", "VERSION", "PROCMAPS", "TRACEID", "TIME_SHIFT",
    "GUEST", "TSC2NSEC", "STRINGS", "HEADER_INFO", "FTRACE_EVENTS",
    "EVENT_FORMATS", "KALLSYMS", "PRINTK", "CMDLINES", "BUFFER_TEXT",
    "BTF_FILE", "LAST_BOOT_INFO", "MODULES_FILE"
  };

  return id < G_N_ELEMENTS (names) ? names[id] : "UNKNOWN";
}

/* ---- trace class ------------------------------------------------------- */

/* CTF 1.8 §4.2.2: a reader strips one leading underscore of a field name
 * for display, so `__syscall_nr` would show as `_syscall_nr`.  Give such
 * ftrace fields one more underscore (not the `_NAME_length` members that
 * sequences refer to). */
static void
escape_underscores (GstCtfFieldClass * st)
{
  guint i, j;

  if (!st)
    return;
  for (i = 0; i < st->n_members; i++) {
    gboolean is_length = FALSE;
    gchar *n = st->members[i].name;

    if (n[0] != '_')
      continue;
    for (j = 0; j < st->n_members; j++)
      if (st->members[j].fc->ref_path &&
          strcmp (st->members[j].fc->ref_path, n) == 0)
        is_length = TRUE;
    if (is_length)
      continue;
    st->members[i].name = g_strconcat ("_", n, NULL);
    g_free (n);
  }
}

static void
escape_stream_class (GstCtfStreamClass * sc)
{
  guint i;

  escape_underscores (sc->event_common_context);
  for (i = 0; i < sc->event_classes->len; i++)
    escape_underscores (((GstCtfEventClass *)
            g_ptr_array_index (sc->event_classes, i))->payload);
}

/* LTTng-kernel naming and field sets (gsttracecmd-lttng.c): the common
 * context's `common_pid` is the `tid` context, each payload follows the
 * event's layout. */
static void
apply_lttng (TdCtfClass * c, GstCtfTraceClass * tc, GstCtfStreamClass * sc)
{
  GstCtfTraceDat *td = c->td;
  guint i, j;

  if (sc->event_common_context) {
    GstCtfFieldClass *st = sc->event_common_context;
    for (j = 0; j < st->n_members; j++)
      if (strcmp (st->members[j].name, "common_pid") == 0
          && st->members[j].fc->type == GST_CTF_FIELD_CLASS_INTEGER) {
        g_free (st->members[j].name);
        st->members[j].name = g_strdup ("_tid");
      }
  }
  for (i = 0; i < sc->event_classes->len; i++) {
    GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, i);
    const GstCtfTraceDatEventFormat *f =
        gst_ctf_trace_dat_get_event_format (td, (guint) ec->id);

    if (!f || ec->id >= 65536)
      continue;
    g_free (ec->name);
    ec->name = _gst_ctf_trace_dat_lttng_event_name (f);
    if (!c->layouts[ec->id])
      c->layouts[ec->id] = _gst_ctf_trace_dat_lttng_layout_new (f,
          td->kernel_long_size, sc->event_common_context == NULL);
    if (ec->payload)
      gst_ctf_field_class_free (ec->payload);
    ec->payload = _gst_ctf_trace_dat_lttng_payload (tc,
        c->layouts[ec->id], td->byte_order);
    escape_underscores (ec->payload);
  }
}

/* The UUID, and the earliest first-page time of the CPUs (ns after
 * TSC2NSEC, DATE and OFFSET, as the records' times; G_MAXUINT64 when no
 * CPU has a page). */
static void
make_uuid (GstCtfTraceDat * td, guint8 * uuid, guint64 * first_ns)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize dlen = sizeof (digest);
  const GstCtfTraceDatOption *opts;
  guint n_opts, i, b;
  gsize len;
  const gchar *s;

  /* what a recording is, not how it is stored */
  opts = gst_ctf_trace_dat_get_options (td, &n_opts);
  for (i = 0; i < n_opts; i++)
    if (opts[i].id == GST_CTF_TRACE_DAT_OPTION_TRACEID
        || opts[i].id == GST_CTF_TRACE_DAT_OPTION_UNAME
        || opts[i].id == GST_CTF_TRACE_DAT_OPTION_DATE)
      g_checksum_update (sum, opts[i].data, opts[i].size);
  if (td->header_page)
    g_checksum_update (sum, (const guint8 *) td->header_page, -1);
  s = gst_ctf_trace_dat_get_cmdlines (td, &len);
  if (s)
    g_checksum_update (sum, (const guint8 *) s, len);
  /* the first page of every CPU */
  for (b = 0; b < td->buffers->len; b++) {
    const GstCtfTraceDatBuffer *buf = g_ptr_array_index (td->buffers, b);

    g_checksum_update (sum, (const guint8 *) buf->name, -1);
    for (i = 0; !buf->latency && i < buf->n_cpus; i++) {
      GstCtfTraceDatCpuIter *it = gst_ctf_trace_dat_cpu_iter_new (td, b, i,
          NULL);
      const guint8 *page;
      gsize size;

      if (it && gst_ctf_trace_dat_cpu_iter_next_page (it, &page, &size,
              NULL) > 0) {
        g_checksum_update (sum, page, size);
        /* the page header's time stamp (header_page: u64 at 0) */
        if (size >= 8)
          *first_ns = MIN (*first_ns, gst_ctf_trace_dat_convert_ts (td,
                  td_read64 (td->byte_order, page)));
      }
      gst_ctf_trace_dat_cpu_iter_free (it);
    }
  }
  g_checksum_get_digest (sum, digest, &dlen);
  g_checksum_free (sum);
  memcpy (uuid, digest, 16);
  uuid[6] = (uuid[6] & 0x0f) | 0x40;
  uuid[8] = (uuid[8] & 0x3f) | 0x80;
}

static void
set_clock_offset (GstCtfClockClass * cc, gint64 total)
{
  gint64 s = total / 1000000000;
  gint64 ns = total % 1000000000;

  if (ns < 0) {
    ns += 1000000000;
    s--;
  }
  cc->offset_s = s;
  cc->offset = ns;
}

/* A file that names no trace clock (v6 files often have an empty
 * TRACECLOCK option) was recorded with ftrace's default, `local`; `trace-cmd
 * convert` writes that name into v7 BUFFER options, so naming it here
 * keeps v6 and v7 copies alike. */
static void
default_clock (GstCtfTraceClass * bt)
{
  GstCtfClockClass *cc = g_ptr_array_index (bt->clock_classes, 0);
  GstCtfEnvEntry *e;
  guint i, at = bt->env->len;

  if (gst_ctf_trace_class_find_env (bt, "trace_clock"))
    return;
  /* where the builder puts it when the file names a clock */
  for (i = 0; i < bt->env->len; i++)
    if (strcmp (((GstCtfEnvEntry *) g_ptr_array_index (bt->env, i))->name,
            "trace_dat_version") == 0)
      at = i + 1;
  e = g_new0 (GstCtfEnvEntry, 1);
  e->name = g_strdup ("trace_clock");
  e->is_string = TRUE;
  e->str = g_strdup ("local");
  g_ptr_array_insert (bt->env, at, e);
  g_free (cc->name);
  cc->name = g_strdup ("local");
  g_free (cc->description);
  cc->description = g_strdup ("trace-cmd trace clock local");
}

static GstCtfStreamClass *
make_file_stream_class (guint64 id, GstCtfByteOrder bo, const gchar * clock)
{
  GstCtfStreamClass *sc = gst_ctf_stream_class_new (id);
  GstCtfFieldClass *st;
  GstCtfEventClass *ec;
  GstCtfFieldClass *seq;
  guint i;

  st = gst_ctf_field_class_new_struct ();
  gst_ctf_field_class_append_member (st, "timestamp_begin",
      mk_clock_int (bo, clock));
  gst_ctf_field_class_append_member (st, "timestamp_end",
      mk_clock_int (bo, clock));
  gst_ctf_field_class_append_member (st, "content_size",
      gst_ctf_field_class_new_integer (64, FALSE, bo, 10));
  gst_ctf_field_class_append_member (st, "packet_size",
      gst_ctf_field_class_new_integer (64, FALSE, bo, 10));
  sc->packet_context = st;
  st = gst_ctf_field_class_new_struct ();
  gst_ctf_field_class_append_member (st, "id", gst_ctf_field_class_new_integer (16, FALSE, bo, 10));
  gst_ctf_field_class_append_member (st, "timestamp", mk_clock_int (bo,
          clock));
  sc->event_header = st;

  for (i = 0; i < N_FEV; i++) {
    ec = gst_ctf_event_class_new ();
    ec->id = i;
    ec->name = g_strdup (fev_names[i]);
    ec->stream_class_id = id;
    st = gst_ctf_field_class_new_struct ();
    switch (i) {
      case FEV_HEADER:
        gst_ctf_field_class_append_member (st, "header_page", mk_string ());
        gst_ctf_field_class_append_member (st, "header_event", mk_string ());
        break;
      case FEV_OPTION:
        gst_ctf_field_class_append_member (st, "id",
            gst_ctf_field_class_new_integer (16, FALSE, bo, 10));
        gst_ctf_field_class_append_member (st, "name", mk_string ());
        gst_ctf_field_class_append_member (st, "text", mk_string ());
        gst_ctf_field_class_append_member (st, "offset",
            gst_ctf_field_class_new_integer (32, FALSE, bo, 10));
        gst_ctf_field_class_append_member (st, "_data_length",
            gst_ctf_field_class_new_integer (32, FALSE, bo, 10));
        seq = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
        seq->alignment = 8;
        seq->element = gst_ctf_field_class_new_integer (8, FALSE, bo, 16);
        seq->ref_path = g_strdup ("_data_length");
        gst_ctf_field_class_append_member (st, "data", seq);
        break;
      case FEV_EVENT_FORMAT:
        gst_ctf_field_class_append_member (st, "id",
            gst_ctf_field_class_new_integer (32, FALSE, bo, 10));
        gst_ctf_field_class_append_member (st, "system", mk_string ());
        gst_ctf_field_class_append_member (st, "name", mk_string ());
        gst_ctf_field_class_append_member (st, "print_fmt", mk_string ());
        gst_ctf_field_class_append_member (st, "format", mk_string ());
        break;
      case FEV_CMDLINE:
        gst_ctf_field_class_append_member (st, "pid",
            gst_ctf_field_class_new_integer (32, TRUE, bo, 10));
        gst_ctf_field_class_append_member (st, "comm", mk_string ());
        break;
      case FEV_KALLSYM:
        gst_ctf_field_class_append_member (st, "address",
            gst_ctf_field_class_new_integer (64, FALSE, bo, 16));
        gst_ctf_field_class_append_member (st, "type", mk_string ());
        gst_ctf_field_class_append_member (st, "name", mk_string ());
        gst_ctf_field_class_append_member (st, "module", mk_string ());
        break;
      case FEV_PRINTK:
        gst_ctf_field_class_append_member (st, "address",
            gst_ctf_field_class_new_integer (64, FALSE, bo, 16));
        gst_ctf_field_class_append_member (st, "format", mk_string ());
        break;
    }
    ec->payload = st;
    g_ptr_array_add (sc->event_classes, ec);
    g_hash_table_insert (sc->event_class_by_id, &ec->id, ec);
  }
  return sc;
}

/* Values of the ftrace fields: how many values a record of @f can give
 * when records hold at most @record_bytes bytes (an array holds no more
 * than its record). */
static guint
max_values (const GstCtfTraceDatEventFormat * f, guint record_bytes)
{
  guint64 n = 2 + (guint64) record_bytes;
  guint i;

  for (i = 0; i < f->n_common_fields + f->n_fields; i++) {
    const GstCtfTraceDatField *x = i < f->n_common_fields ?
        &f->common_fields[i] : &f->fields[i - f->n_common_fields];
    n += 2;
    if ((x->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY) && x->elem_size) {
      guint64 bytes = MIN ((guint64) x->size, (guint64) record_bytes);

      n += bytes / MAX (x->elem_size, 1) + bytes;
    }
  }
  return (guint) MIN (n, (guint64) G_MAXUINT / 2);
}

/* lttng-modules' `trace_creation_datetime` (lttng-tools' ISO 8601 basic
 * form, YYYYmmddTHHMMSS+HHMM): the wall-clock second of the trace's first
 * page, in UTC, when a DATE option maps the trace clock to the time of
 * day; "" otherwise (what lttng-modules writes when the session daemon
 * gives no creation time). */
static gchar *
lttng_creation_datetime (GstCtfTraceDat * td, guint64 first_ns)
{
  const GstCtfTraceDatOption *opts;
  guint n_opts, i;
  gboolean date = FALSE;
  GDateTime *dt;
  gchar *s;

  opts = gst_ctf_trace_dat_get_options (td, &n_opts);
  for (i = 0; i < n_opts; i++)
    if (opts[i].id == GST_CTF_TRACE_DAT_OPTION_DATE)
      date = TRUE;
  if (!date || first_ns == G_MAXUINT64)
    return g_strdup ("");
  dt = g_date_time_new_from_unix_utc ((gint64) (first_ns / 1000000000));
  if (!dt)
    return g_strdup ("");
  s = g_date_time_format (dt, "%Y%m%dT%H%M%S+0000");
  g_date_time_unref (dt);
  return s ? s : g_strdup ("");
}

/* Event classes by id for each stream class of @c's trace class. */
static void
ec_tables_setup (TdCtfClass * c)
{
  guint i, j;

  c->n_ec_tables = c->tc->stream_classes->len;
  c->ec_tables = g_new0 (const GstCtfEventClass **, c->n_ec_tables);
  for (i = 0; i < c->tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (c->tc->stream_classes, i);

    c->ec_tables[i] = g_new0 (const GstCtfEventClass *, 65536);
    for (j = 0; j < sc->event_classes->len; j++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);
      if (ec->id < 65536)
        c->ec_tables[i][ec->id] = ec;
    }
  }
}

/* Builds the CTF side of @c->td's conversion for @c->flags and
 * @c->clock_offset_ns into @c (its key and @keep already set). */
gboolean
_gst_ctf_trace_dat_ctf_class_build (TdCtfClass * c, GError ** error)
{
  GstCtfTraceDat *td = c->td;
  gint64 clock_offset_ns = c->clock_offset_ns;
  GstCtfTraceClass *tc = NULL;
  GArray *bufs = g_array_new (FALSE, FALSE, sizeof (guint));
  const GstCtfTraceDatOption *opts;
  guint n_opts, i, k, max_page = 0;
  GstCtfByteOrder bo = td->byte_order;
  GstCtfStreamClass *sc0;
  gint64 total_offset = td->ts_offset + clock_offset_ns;
  guint64 first_ns = G_MAXUINT64;
  gchar *tmp;

  for (i = 0; i < td->buffers->len; i++) {
    const GstCtfTraceDatBuffer *b = g_ptr_array_index (td->buffers, i);
    if (!b->latency) {
      g_array_append_val (bufs, i);
      max_page = MAX (max_page, b->page_size);
    }
  }
  if (bufs->len == 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "No flyrecord (ring-buffer) data: file=\"%s\", expected=flyrecord "
        "buffer (latency trace.dat files hold only text and are not "
        "converted)", td->origin);
    g_array_free (bufs, TRUE);
    return FALSE;
  }

  for (k = 0; k < bufs->len; k++) {
    guint bi = g_array_index (bufs, guint, k);
    const GstCtfTraceDatBuffer *b = g_ptr_array_index (td->buffers, bi);
    GstCtfTraceClass *bt = gst_ctf_trace_dat_build_trace_class (td, bi,
        error);
    GstCtfStreamClass *sc;
    gchar key[32];

    if (!bt)
      goto fail;
    default_clock (bt);
    if (k == 0) {
      tc = bt;
      c->build_tc = gst_ctf_trace_class_ref (bt);
      sc = g_ptr_array_index (tc->stream_classes, 0);
    } else {
      GstCtfClockClass *bcc = g_ptr_array_index (bt->clock_classes, 0);
      gboolean found = FALSE;

      g_ptr_array_add (c->keep, bt);
      sc = g_ptr_array_steal_index (bt->stream_classes, 0);
      sc->id = k;
      for (i = 0; i < sc->event_classes->len; i++)
        ((GstCtfEventClass *) g_ptr_array_index (sc->event_classes,
                i))->stream_class_id = k;
      for (i = 0; i < tc->clock_classes->len; i++) {
        GstCtfClockClass *c = g_ptr_array_index (tc->clock_classes, i);
        if (strcmp (c->name, bcc->name) == 0) {
          sc->default_clock = c;
          found = TRUE;
        }
      }
      if (!found) {
        /* an instance with its own trace clock gets its own clock class;
         * its fields keep mapping to it by name */
        g_ptr_array_add (tc->clock_classes,
            g_ptr_array_steal_index (bt->clock_classes, 0));
      }
      g_ptr_array_add (tc->stream_classes, sc);
    }
    escape_stream_class (sc);
    if (c->flags & GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT) {
      if (!c->layouts)
        c->layouts = g_new0 (LttngLayout *, 65536);
      apply_lttng (c, bt, sc);
      if (k == 0)
        _gst_ctf_trace_dat_lttng_add_statedump (sc, bo,
            td->kernel_long_size);
    }
    g_snprintf (key, sizeof (key), "buffer_%u", k);
    env_set_str (tc, key, b->name);
  }

  /* env: what identifies the trace and small file items; the container
   * format (version, compression) is left out on purpose */
  env_remove (tc, "trace_dat_version");
  env_remove (tc, "compression");
  env_remove (tc, "buffer");
  /* the file header's user-space long size is the converting host's
   * after `trace-cmd convert`; the kernel's is kept below */
  env_remove (tc, "long_size");
  make_uuid (td, tc->uuid, &first_ns);
  tc->has_uuid = TRUE;
  env_set_int (tc, "page_size", max_page);
  env_set_int (tc, "kernel_long_size", td->kernel_long_size);
  env_set_int (tc, "ts_offset", td->ts_offset);
  if (clock_offset_ns)
    env_set_int (tc, "clock_offset", clock_offset_ns);
  opts = gst_ctf_trace_dat_get_options (td, &n_opts);
  for (i = 0; i < n_opts; i++) {
    const GstCtfTraceDatOption *o = &opts[i];
    switch (o->id) {
      case GST_CTF_TRACE_DAT_OPTION_DATE:
        tmp = option_text (o);
        env_set_str (tc, "date", tmp);
        g_free (tmp);
        break;
      case GST_CTF_TRACE_DAT_OPTION_OFFSET:
        tmp = option_text (o);
        env_set_str (tc, "offset", tmp);
        g_free (tmp);
        break;
      case GST_CTF_TRACE_DAT_OPTION_TRACECLOCK:
        tmp = option_text (o);
        env_set_str (tc, "trace_clocks", tmp);
        g_free (tmp);
        break;
      case GST_CTF_TRACE_DAT_OPTION_TRACEID:
        if (o->size == 8) {
          tmp = g_strdup_printf ("0x%016" G_GINT64_MODIFIER "X",
              td_read64 (bo, o->data));
          env_set_str (tc, "trace_id", tmp);
          g_free (tmp);
        }
        break;
      case GST_CTF_TRACE_DAT_OPTION_TSC2NSEC:
        if (o->size >= 16) {
          env_set_int (tc, "tsc2nsec_mult", td_read32 (bo, o->data));
          env_set_int (tc, "tsc2nsec_shift", td_read32 (bo, o->data + 4));
          env_set_int (tc, "tsc2nsec_offset",
              (gint64) td_read64 (bo, o->data + 8));
        }
        break;
      default:
        break;
    }
  }
  if (c->flags & GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT) {
    gchar **u = td->uname ? g_strsplit (td->uname, " ", 4) : NULL;

    env_set_str (tc, "tracer_name", "lttng-modules");
    env_set_int (tc, "tracer_major", 2);
    env_set_int (tc, "tracer_minor", 13);
    env_set_int (tc, "tracer_patchlevel", 0);
    env_set_str (tc, "domain", "kernel");
    if (u && g_strv_length (u) >= 3) {
      env_set_str (tc, "sysname", u[0]);
      env_set_str (tc, "hostname", u[1]);
      env_set_str (tc, "kernel_release", u[2]);
    }
    g_strfreev (u);
    /* trace-cmd's UNAME option is "sysname nodename release machine":
     * the kernel's version string (uname -v) is not in the file */
    env_set_str (tc, "kernel_version", "");
    env_set_str (tc, "trace_buffering_scheme", "global");
    /* no session name in a trace.dat */
    env_set_str (tc, "trace_name", "");
    tmp = lttng_creation_datetime (td, first_ns);
    env_set_str (tc, "trace_creation_datetime", tmp);
    g_free (tmp);
  }

  for (i = 0; i < tc->clock_classes->len; i++)
    set_clock_offset (g_ptr_array_index (tc->clock_classes, i),
        total_offset);

  sc0 = g_ptr_array_index (tc->stream_classes, 0);
  c->file_stream =
      !(c->flags & GST_CTF_TRACE_DAT_PACKETIZER_NO_FILE_STREAM);
  if (c->file_stream) {
    c->file_sc_id = tc->stream_classes->len;
    g_ptr_array_add (tc->stream_classes,
        make_file_stream_class (c->file_sc_id, bo, sc0->default_clock->name));
  }

  /* room for the values of the largest record: one within a page, and,
   * as a file claiming huge pages must not make us allocate for them,
   * within the file's size (a larger record, only possible inflated from
   * a compressed file, is an error: too many values) */
  c->max_values = 64;
  for (i = 0; i < td->formats->len; i++)
    c->max_values = MAX (c->max_values,
        max_values (g_ptr_array_index (td->formats, i),
            (guint) MIN ((guint64) max_page, (guint64) td->file_size)));

  c->tsdl = gst_ctf_tsdl_write (tc, error);
  if (!c->tsdl)
    goto fail;
  c->tc = gst_ctf_tsdl_parse (c->tsdl, td->origin, error);
  if (!c->tc) {
    g_prefix_error (error, "Generated metadata does not parse back: ");
    goto fail;
  }
  gst_ctf_trace_class_unref (tc);
  g_array_free (bufs, TRUE);
  ec_tables_setup (c);
  _gst_ctf_trace_dat_plans_setup (c);
  return TRUE;

fail:
  if (tc)
    gst_ctf_trace_class_unref (tc);
  g_array_free (bufs, TRUE);
  return FALSE;
}

static gchar *
sanitize (const gchar * s)
{
  gchar *r = g_strdup (s);
  gchar *c;

  for (c = r; *c; c++)
    if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-')
      *c = '_';
  return r;
}

gboolean
_gst_ctf_trace_dat_packetizer_setup_streams (GstCtfTraceDatPacketizer * p,
    GError ** error)
{
  GstCtfTraceDat *td = p->td;
  guint k = 0, b, i, n = 0;

  for (b = 0; b < td->buffers->len; b++) {
    const GstCtfTraceDatBuffer *buf = g_ptr_array_index (td->buffers, b);
    if (!buf->latency)
      n += buf->n_cpus;
  }
  /* one spare slot: a stream whose setup failed half-way */
  p->streams = g_new0 (Stream, n + 1);
  for (b = 0; b < td->buffers->len; b++) {
    const GstCtfTraceDatBuffer *buf = g_ptr_array_index (td->buffers, b);
    gchar *bname;

    if (buf->latency)
      continue;
    bname = sanitize (buf->name);
    for (i = 0; i < buf->n_cpus; i++) {
      Stream *s = &p->streams[p->n_streams];
      gchar *name;

      s->sc_id = k;
      s->buffer = b;
      s->cpu_index = i;
      s->cpu = buf->cpus[i].cpu;
      /* lttng-compat: LTTng's stream file names, CHANNEL_CPU, one
       * channel per buffer (`ctfsink location=OUT/kernel` then lays the
       * output out as an LTTng session) */
      if (p->flags & GST_CTF_TRACE_DAT_PACKETIZER_LTTNG_COMPAT)
        name = g_strdup_printf ("channel%u_%u", k, s->cpu);
      else
        name = *bname ? g_strdup_printf ("%s-cpu%u", bname, s->cpu)
            : g_strdup_printf ("cpu%u", s->cpu);
      s->name = g_intern_string (name);
      g_free (name);
      s->index = p->n_streams;
      s->released = G_MAXUINT64;
      if (buf->compressed && buf->cpus[i].size >= 4
          && buf->cpus[i].offset <= td->file_size - 4) {
        s->z_left = td_read32 (td->byte_order,
            td->base + buf->cpus[i].offset);
        s->z_off = buf->cpus[i].offset + 4;
        s->z_cur = s->z_off;
        s->z_page_size = buf->page_size;
        s->released = buf->cpus[i].offset;
      }
      s->ec_by_id = p->cls->ec_tables[k];
      s->it = gst_ctf_trace_dat_cpu_iter_new (td, b, i, error);
      if (!s->it) {
        g_free (bname);
        return FALSE;
      }
      s->w = gst_ctf_packet_writer_new (p->cls->tc, k, error);
      if (!s->w) {
        g_free (bname);
        return FALSE;
      }
      gst_ctf_packet_writer_set_context_field (s->w, "cpu_id", s->cpu);
      p->n_streams++;
    }
    g_free (bname);
    k++;
  }
  if (p->cls->file_stream) {
    p->file_index = p->n_streams;
    p->fw = gst_ctf_packet_writer_new (p->cls->tc, p->cls->file_sc_id, error);
    if (!p->fw)
      return FALSE;
    for (i = 0; i < N_FEV; i++)
      p->fec[i] = p->cls->ec_tables[p->cls->file_sc_id][i];
  }
  return TRUE;
}
