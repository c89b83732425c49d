/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat event formats -> CTF 1.8 trace class (lib/ctf/model/gstctf-model.h).
 *
 * One stream class per buffer (top-level: id 0), the CPU in the packet
 * context (`cpu_id`) and as the stream instance id: each CPU's pages make
 * one CTF stream.  Event classes carry the ftrace event id and name
 * (`sched_switch`); the `common_*` fields other than `common_type` go to
 * the stream's event common context when every format declares the same
 * ones, else to each payload; fields keep the format file's names.
 * Mapping: integers as declared (size, signedness; pointers in base 16),
 * char arrays and `__data_loc char[]` as strings, other static arrays as
 * CTF arrays, other dynamic arrays as sequences after a `_NAME_length`
 * uint32.  Timestamps are 64-bit ns (after TSC2NSEC/DATE/OFFSET, see
 * gst_ctf_trace_dat_convert_ts()) mapped to one clock class named after
 * the trace clock (CTF 1.8 §8).  The resolve state the CTF parser would
 * set (meanings, mapped clocks, value slots, sequence targets) is set
 * here directly.
 */
#include "gsttracecmd-private.h"

#include <stdio.h>

static GstCtfFieldClass *
clock_int (guint bits, GstCtfByteOrder bo, GstCtfClockClass * cc,
    GstCtfFieldMeaning meaning)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new_integer (bits, FALSE, bo, 10);

  fc->integer.map_clock_name = g_strdup (cc->name);
  fc->integer.mapped_clock = cc;
  fc->meaning = meaning;
  return fc;
}

static void
add_member (GstCtfFieldClass * st, const gchar * name, GstCtfFieldClass * fc,
    GstCtfFieldMeaning meaning)
{
  if (meaning != GST_CTF_MEANING_NONE)
    fc->meaning = meaning;
  gst_ctf_field_class_append_member (st, name, fc);
}

static void
add_env_str (GstCtfTraceClass * tc, const gchar * name, const gchar * value)
{
  /* (a value the trace.dat does not hold is left out) */
  if (value)
    gst_ctf_trace_class_add_env_string (tc, name, value);
}

/* A TSDL identifier from a clock name ("x86-tsc" -> "x86_tsc"). */
static gchar *
identifier (const gchar * s)
{
  gchar *id = g_strdup (s && *s ? s : "trace_clock");
  gchar *p;

  for (p = id; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      *p = '_';
  if (g_ascii_isdigit (id[0])) {
    gchar *t = g_strconcat ("_", id, NULL);
    g_free (id);
    id = t;
  }
  return id;
}

/* @name, or when @st already has a member of that name (real format
 * files can name two fields alike: a `__data_loc char[] type` then an
 * `int type` on some ARM kernels), `NAME_2`, `NAME_3`, ...: CTF field
 * names are unique within a structure.  Free with g_free. */
static gchar *
unique_member_name (const GstCtfFieldClass * st, const gchar * name)
{
  gchar *n = g_strdup (name);
  guint k;

  for (k = 2; gst_ctf_field_class_find_member (st, n, NULL) != NULL; k++) {
    g_free (n);
    n = g_strdup_printf ("%s_%u", name, k);
  }
  return n;
}

/* Appends the CTF member(s) for one ftrace field, named @as (NULL: the
 * field's name). */
void
_gst_ctf_trace_dat_append_field (GstCtfTraceClass * tc, GstCtfFieldClass * st,
    const GstCtfTraceDatField * f, const gchar * as, GstCtfByteOrder bo)
{
  GstCtfFieldClass *fc;
  guint elem = f->elem_size;
  gchar *name = unique_member_name (st, as ? as : f->name);

  if (elem != 1 && elem != 2 && elem != 4 && elem != 8)
    elem = 1;
  if (f->flags & GST_CTF_TRACE_DAT_FIELD_STRING) {
    fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING);
    fc->string.encoding = GST_CTF_ENCODING_UTF8;
  } else if (f->flags & GST_CTF_TRACE_DAT_FIELD_DYNAMIC
      || ((f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY) && f->size == 0)) {
    gchar *len_base = g_strdup_printf ("_%s_length", name);
    gchar *len_name = unique_member_name (st, len_base);
    GstCtfFieldClass *len_fc = gst_ctf_field_class_new_integer (32, FALSE, bo, 10);

    len_fc->value_slot = (gint) tc->n_value_slots++;
    fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_SEQUENCE);
    fc->alignment = 8;
    fc->element = gst_ctf_field_class_new_integer (elem * 8, FALSE, bo, 16);
    fc->ref_path = g_strdup (len_name);
    fc->ref_target = len_fc;
    gst_ctf_field_class_append_member (st, len_name, len_fc);
    g_free (len_name);
    g_free (len_base);
  } else if (f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY) {
    guint n = f->size / elem;

    fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
    fc->alignment = 8;
    fc->element = gst_ctf_field_class_new_integer (elem * 8,
        (f->flags & GST_CTF_TRACE_DAT_FIELD_SIGNED) != 0, bo,
        (f->flags & GST_CTF_TRACE_DAT_FIELD_POINTER) ? 16 : 10);
    fc->length = n;
  } else if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
    fc = gst_ctf_field_class_new_integer (f->size * 8, (f->flags & GST_CTF_TRACE_DAT_FIELD_SIGNED) != 0,
        bo, (f->flags & GST_CTF_TRACE_DAT_FIELD_POINTER) ? 16 : 10);
  } else {
    /* odd-sized scalar: keep its bytes */
    fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
    fc->alignment = 8;
    fc->element = gst_ctf_field_class_new_integer (8, FALSE, bo, 16);
    fc->length = f->size;
  }
  gst_ctf_field_class_append_member (st, name, fc);
  g_free (name);
}

static gboolean
same_common_fields (const GstCtfTraceDatEventFormat * a,
    const GstCtfTraceDatEventFormat * b)
{
  guint i;

  if (a->n_common_fields != b->n_common_fields)
    return FALSE;
  for (i = 0; i < a->n_common_fields; i++) {
    const GstCtfTraceDatField *x = &a->common_fields[i];
    const GstCtfTraceDatField *y = &b->common_fields[i];
    if (strcmp (x->name, y->name) || x->offset != y->offset
        || x->size != y->size || x->flags != y->flags)
      return FALSE;
  }
  return TRUE;
}

/**
 * gst_ctf_trace_dat_build_trace_class:
 * @td: a file
 * @buffer: the buffer index whose stream class to build (0: top-level)
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Builds a CTF 1.8 trace class for the records of one buffer: packet
 * header {magic, uuid, stream_id, stream_instance_id (= CPU)}, packet
 * context {timestamp_begin, timestamp_end, content_size, packet_size,
 * events_discarded, cpu_id}, event header {id (uint16 = ftrace event
 * id), timestamp (uint64 ns)}, common context {the `common_*` fields but
 * `common_type`}, one event class per event format.  The trace UUID is
 * derived from the file's header and TRACEID, so it is stable for a file.
 * Env entries: `tracer_name` = "trace-cmd", `trace_dat_version`,
 * `trace_clock`, `cpus`, `long_size`, `compression`, `uname`,
 * `tracer_version`, `buffer`.
 *
 * Returns: (transfer full) (nullable): the trace class, or NULL when the
 *   buffer does not exist.
 */
GstCtfTraceClass *
gst_ctf_trace_dat_build_trace_class (GstCtfTraceDat * td, guint buffer,
    GError ** error)
{
  const GstCtfTraceDatBuffer *b = gst_ctf_trace_dat_get_buffer (td, buffer);
  GstCtfByteOrder bo = td->byte_order;
  GstCtfTraceClass *tc;
  GstCtfClockClass *cc;
  GstCtfStreamClass *sc;
  GstCtfFieldClass *st;
  const GstCtfTraceDatEventFormat *first = NULL;
  gboolean shared_common = TRUE;
  GChecksum *sum;
  guint8 digest[32];
  gsize dlen = sizeof (digest);
  guint i, j;
  gchar *desc;

  if (!b) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "No such buffer: file=\"%s\", buffer=%u", td->origin, buffer);
    return NULL;
  }
  tc = gst_ctf_trace_class_new ();
  tc->major = 1;
  tc->minor = 8;
  tc->byte_order = bo;

  /* a stable UUID (v4 layout bits) from what identifies the file */
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (sum, td->base, MIN (td->file_size, (gsize) 4096));
  for (i = 0; i < td->options->len; i++) {
    const GstCtfTraceDatOption *o =
        &g_array_index (td->options, GstCtfTraceDatOption, i);
    if (o->id == GST_CTF_TRACE_DAT_OPTION_TRACEID)
      g_checksum_update (sum, o->data, o->size);
  }
  g_checksum_update (sum, (const guint8 *) b->name, strlen (b->name));
  g_checksum_get_digest (sum, digest, &dlen);
  g_checksum_free (sum);
  memcpy (tc->uuid, digest, 16);
  tc->uuid[6] = (tc->uuid[6] & 0x0f) | 0x40;
  tc->uuid[8] = (tc->uuid[8] & 0x3f) | 0x80;
  tc->has_uuid = TRUE;

  add_env_str (tc, "domain", "kernel");
  add_env_str (tc, "tracer_name", "trace-cmd");
  gst_ctf_trace_class_add_env_integer (tc, "trace_dat_version", td->version);
  add_env_str (tc, "trace_clock", b->clock ? b->clock :
      gst_ctf_trace_dat_get_clock (td));
  gst_ctf_trace_class_add_env_integer (tc, "cpus", td->n_cpus);
  gst_ctf_trace_class_add_env_integer (tc, "long_size", td->long_size);
  add_env_str (tc, "compression", td->compression_name);
  add_env_str (tc, "uname", td->uname);
  add_env_str (tc, "tracer_version", td->tracer_version);
  add_env_str (tc, "buffer", b->name);

  /* clock: converted ns; absolute when DATE maps it to gettimeofday */
  cc = gst_ctf_clock_class_new ();
  cc->name = identifier (b->clock ? b->clock : gst_ctf_trace_dat_get_clock
      (td));
  desc = g_strdup_printf ("trace-cmd trace clock %s",
      b->clock ? b->clock : gst_ctf_trace_dat_get_clock (td) ?
      gst_ctf_trace_dat_get_clock (td) : "(unknown)");
  cc->description = desc;
  cc->freq = G_GUINT64_CONSTANT (1000000000);
  for (i = 0; i < td->options->len; i++)
    if (g_array_index (td->options, GstCtfTraceDatOption, i).id ==
        GST_CTF_TRACE_DAT_OPTION_DATE)
      cc->absolute = cc->origin_is_unix_epoch = TRUE;
  g_ptr_array_add (tc->clock_classes, cc);

  /* packet header (CTF 1.8 §5 trace.packet.header) */
  st = gst_ctf_field_class_new_struct ();
  add_member (st, "magic", gst_ctf_field_class_new_integer (32, FALSE, bo, 16), GST_CTF_MEANING_MAGIC);
  {
    GstCtfFieldClass *u = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
    u->alignment = 8;
    u->element = gst_ctf_field_class_new_integer (8, FALSE, bo, 16);
    u->length = 16;
    add_member (st, "uuid", u, GST_CTF_MEANING_UUID);
  }
  add_member (st, "stream_id", gst_ctf_field_class_new_integer (32, FALSE, bo, 10),
      GST_CTF_MEANING_STREAM_CLASS_ID);
  add_member (st, "stream_instance_id", gst_ctf_field_class_new_integer (64, FALSE, bo, 10),
      GST_CTF_MEANING_STREAM_INSTANCE_ID);
  tc->packet_header = st;

  sc = gst_ctf_stream_class_new (0);
  sc->default_clock = cc;
  st = gst_ctf_field_class_new_struct ();
  add_member (st, "timestamp_begin", clock_int (64, bo, cc,
          GST_CTF_MEANING_TIMESTAMP_BEGIN), GST_CTF_MEANING_TIMESTAMP_BEGIN);
  add_member (st, "timestamp_end", clock_int (64, bo, cc,
          GST_CTF_MEANING_TIMESTAMP_END), GST_CTF_MEANING_TIMESTAMP_END);
  add_member (st, "content_size", gst_ctf_field_class_new_integer (64, FALSE, bo, 10),
      GST_CTF_MEANING_CONTENT_SIZE);
  add_member (st, "packet_size", gst_ctf_field_class_new_integer (64, FALSE, bo, 10),
      GST_CTF_MEANING_PACKET_SIZE);
  add_member (st, "events_discarded", gst_ctf_field_class_new_integer (64, FALSE, bo, 10),
      GST_CTF_MEANING_EVENTS_DISCARDED);
  add_member (st, "cpu_id", gst_ctf_field_class_new_integer (32, FALSE, bo, 10), GST_CTF_MEANING_NONE);
  sc->packet_context = st;

  st = gst_ctf_field_class_new_struct ();
  add_member (st, "id", gst_ctf_field_class_new_integer (16, FALSE, bo, 10),
      GST_CTF_MEANING_EVENT_CLASS_ID);
  add_member (st, "timestamp", clock_int (64, bo, cc,
          GST_CTF_MEANING_TIMESTAMP), GST_CTF_MEANING_TIMESTAMP);
  sc->event_header = st;

  for (i = 0; i < td->formats->len; i++) {
    const GstCtfTraceDatEventFormat *f = g_ptr_array_index (td->formats, i);
    if (!first)
      first = f;
    else if (!same_common_fields (first, f))
      shared_common = FALSE;
  }
  if (first && shared_common) {
    st = gst_ctf_field_class_new_struct ();
    for (j = 0; j < first->n_common_fields; j++)
      if (strcmp (first->common_fields[j].name, "common_type") != 0)
        _gst_ctf_trace_dat_append_field (tc, st, &first->common_fields[j],
            NULL, bo);
    sc->event_common_context = st;
  }

  for (i = 0; i < td->formats->len; i++) {
    const GstCtfTraceDatEventFormat *f = g_ptr_array_index (td->formats, i);
    GstCtfEventClass *ec;

    /* the first format of an id wins, as for record lookups */
    if (f->id >= 65536 || td->format_by_id[f->id] != f)
      continue;
    ec = gst_ctf_event_class_new ();
    ec->id = f->id;
    ec->name = g_strdup (f->name);
    ec->stream_class_id = sc->id;
    st = gst_ctf_field_class_new_struct ();
    if (!shared_common)
      for (j = 0; j < f->n_common_fields; j++)
        if (strcmp (f->common_fields[j].name, "common_type") != 0)
          _gst_ctf_trace_dat_append_field (tc, st, &f->common_fields[j],
              NULL, bo);
    for (j = 0; j < f->n_fields; j++)
      _gst_ctf_trace_dat_append_field (tc, st, &f->fields[j], NULL, bo);
    ec->payload = st;
    g_ptr_array_add (sc->event_classes, ec);
    g_hash_table_insert (sc->event_class_by_id, &ec->id, ec);
  }
  g_ptr_array_add (tc->stream_classes, sc);
  return tc;
}

typedef struct {
  GstCtfFieldValue *v;
  guint n;
  guint max;
} Values;

static GstCtfFieldValue *
val_push (Values * vs, const GstCtfFieldClass * fc, const gchar * name)
{
  GstCtfFieldValue *v;

  if (vs->n >= vs->max)
    return NULL;
  v = &vs->v[vs->n++];
  memset (v, 0, sizeof (*v));
  v->fc = fc;
  v->name = name;
  v->end = vs->n;
  return v;
}

/* Values of one ftrace field, consuming the CTF member(s) made for it by
 * _gst_ctf_trace_dat_append_field() from @members[*mi]. */
static gboolean
field_values (GstCtfTraceDat * td, const GstCtfTraceDatField * f,
    const GstCtfTraceDatRecord * rec, const GstCtfNamedFieldClass * members,
    guint n_members, guint * mi, Values * vs)
{
  const GstCtfNamedFieldClass *m;
  GstCtfFieldValue *v;
  guint off = 0, len = 0, i;

  if (*mi >= n_members)
    return FALSE;
  m = &members[(*mi)++];
  if (m->fc->type == GST_CTF_FIELD_CLASS_STRING) {
    gst_ctf_trace_dat_field_get_dynamic (td, f, rec->data, rec->size, &off,
        &len);
    if (!(v = val_push (vs, m->fc, m->name)))
      return FALSE;
    v->v.s.ptr = (const gchar *) rec->data + off;
    v->v.s.len = (guint32) strnlen ((const gchar *) rec->data + off, len);
    return TRUE;
  }
  if (m->fc->type == GST_CTF_FIELD_CLASS_INTEGER && f->size > 0
      && !(f->flags & (GST_CTF_TRACE_DAT_FIELD_ARRAY))) {
    guint64 x = 0;

    gst_ctf_trace_dat_field_read_int (td, f, rec->data, rec->size, &x);
    if (!(v = val_push (vs, m->fc, m->name)))
      return FALSE;
    v->v.u = x;
    return TRUE;
  }
  /* arrays and sequences of integers */
  {
    const GstCtfFieldClass *seq = m->fc, *elem;
    guint esize, count;

    gst_ctf_trace_dat_field_get_dynamic (td, f, rec->data, rec->size, &off,
        &len);
    if (seq->type == GST_CTF_FIELD_CLASS_INTEGER) {
      /* the `_NAME_length` member of a sequence */
      if (*mi >= n_members)
        return FALSE;
      elem = members[*mi].fc->element;
      esize = elem ? elem->integer.size / 8 : 1;
      if (!(v = val_push (vs, m->fc, m->name)))
        return FALSE;
      v->v.u = len / MAX (esize, 1);
      m = &members[(*mi)++];
      seq = m->fc;
    }
    elem = seq->element;
    if (!elem)
      return FALSE;
    esize = MAX (elem->integer.size / 8, 1);
    count = seq->type == GST_CTF_FIELD_CLASS_ARRAY ? (guint) seq->length
        : len / esize;
    if (!(v = val_push (vs, seq, m->name)))
      return FALSE;
    v->v.u = count;
    for (i = 0; i < count; i++) {
      GstCtfFieldValue *e = val_push (vs, elem, NULL);
      guint64 x = 0;

      if (!e)
        return FALSE;
      if ((i + 1) * esize <= len)
        x = td_read_n (td->byte_order, rec->data + off + i * esize, esize);
      if (elem->integer.is_signed && esize < 8 && (x >> (esize * 8 - 1)) & 1)
        x |= ~((1ull << (esize * 8)) - 1);
      e->v.u = x;
    }
    v->end = vs->n;
    return TRUE;
  }
}

gboolean
_gst_ctf_trace_dat_field_values (GstCtfTraceDat * td,
    const GstCtfTraceDatField * f, const GstCtfTraceDatRecord * rec,
    const GstCtfNamedFieldClass * members, guint n_members, guint * mi,
    GstCtfFieldValue * v, guint * n, guint max)
{
  Values vs = { v, *n, max };
  gboolean ok = field_values (td, f, rec, members, n_members, mi, &vs);

  *n = vs.n;
  return ok;
}

/**
 * gst_ctf_trace_dat_record_get_values:
 * @td: a file
 * @tc: a trace class from gst_ctf_trace_dat_build_trace_class() for the
 *   record's buffer
 * @rec: a record
 * @common: (out caller-allocates) (array length=max_common): values of the
 *   stream's event common context (pre-order, as #GstCtfFieldValue says)
 * @max_common: room in @common
 * @n_common: (out): values written to @common (0 when the trace class has
 *   no common context)
 * @payload: (out caller-allocates) (array length=max_payload): values of
 *   the event payload
 * @max_payload: room in @payload
 * @n_payload: (out): values written to @payload
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Decodes a record into the values of its CTF event class, ready for a
 * packet writer.  Strings point into the record (@rec->data).
 *
 * Returns: (transfer none) (nullable): the event class, or NULL with
 *   @error set when the record's event id has no class or the arrays are
 *   too small.
 */
const GstCtfEventClass *
gst_ctf_trace_dat_record_get_values (GstCtfTraceDat * td,
    const GstCtfTraceClass * tc, const GstCtfTraceDatRecord * rec,
    GstCtfFieldValue * common, guint max_common, guint * n_common,
    GstCtfFieldValue * payload, guint max_payload, guint * n_payload,
    GError ** error)
{
  return _gst_ctf_trace_dat_record_values (td, tc, rec, common, max_common,
      n_common, payload, max_payload, n_payload, error);
}

/* gst_ctf_trace_dat_record_get_values(); with @payload NULL, only the
 * common context's values (the payload's come from elsewhere). */
const GstCtfEventClass *
_gst_ctf_trace_dat_record_values (GstCtfTraceDat * td,
    const GstCtfTraceClass * tc, const GstCtfTraceDatRecord * rec,
    GstCtfFieldValue * common, guint max_common, guint * n_common,
    GstCtfFieldValue * payload, guint max_payload, guint * n_payload,
    GError ** error)
{
  const GstCtfStreamClass *sc = tc->stream_classes->len ?
      g_ptr_array_index (tc->stream_classes, 0) : NULL;
  const GstCtfTraceDatEventFormat *fmt =
      gst_ctf_trace_dat_get_event_format (td, rec->event_id);
  const GstCtfEventClass *ec;
  Values vs;
  GstCtfFieldValue *root;
  guint i, mi;

  *n_common = *n_payload = 0;
  ec = sc && fmt ? gst_ctf_stream_class_find_event_class (sc, fmt->id) : NULL;
  if (!ec || !ec->payload) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Record of unknown event: file=\"%s\", cpu=%u, page=%" G_GUINT64_FORMAT
        ", page-offset=%u, event-id=%u", td->origin, rec->cpu,
        rec->page_index, rec->page_offset, rec->event_id);
    return NULL;
  }
  if (sc->event_common_context) {
    const GstCtfFieldClass *cfc = sc->event_common_context;

    vs.v = common;
    vs.n = 0;
    vs.max = max_common;
    mi = 0;
    if (!(root = val_push (&vs, cfc, NULL)))
      goto too_small;
    root->v.u = cfc->n_members;
    for (i = 0; i < fmt->n_common_fields; i++) {
      if (strcmp (fmt->common_fields[i].name, "common_type") == 0)
        continue;
      if (!field_values (td, &fmt->common_fields[i], rec, cfc->members,
              cfc->n_members, &mi, &vs))
        goto too_small;
    }
    root->end = vs.n;
    *n_common = vs.n;
  }
  if (!payload)
    return ec;
  vs.v = payload;
  vs.n = 0;
  vs.max = max_payload;
  mi = 0;
  if (!(root = val_push (&vs, ec->payload, NULL)))
    goto too_small;
  root->v.u = ec->payload->n_members;
  if (!sc->event_common_context)
    for (i = 0; i < fmt->n_common_fields; i++) {
      if (strcmp (fmt->common_fields[i].name, "common_type") == 0)
        continue;
      if (!field_values (td, &fmt->common_fields[i], rec,
              ec->payload->members, ec->payload->n_members, &mi, &vs))
        goto too_small;
    }
  for (i = 0; i < fmt->n_fields; i++)
    if (!field_values (td, &fmt->fields[i], rec, ec->payload->members,
            ec->payload->n_members, &mi, &vs))
      goto too_small;
  root->end = vs.n;
  *n_payload = vs.n;
  return ec;

too_small:
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
      "Too many values for the arrays given: file=\"%s\", event=\"%s\", "
      "max-common=%u, max-payload=%u", td->origin, fmt->name, max_common,
      max_payload);
  return NULL;
}
