/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng 0.x markers -> CTF 1.8 trace class (lib/ctf/model/gstctf-model.h).
 *
 * One stream class per channel (id = the channel's rank, `metadata`
 * first), one stream per tracefile; the packet context carries the CPU
 * (`cpu_id`), the tracer's running lost-event count (`events_discarded`)
 * and corrupt sub-buffer count (`subbuf_corrupt`); the event header is a
 * 16-bit id (the marker's id in its channel) and a 64-bit timestamp.
 * Event classes are the usable markers, named `channel.marker` as LTTV
 * names them; their fields keep the format string's names (made TSDL
 * identifiers: other characters become `_`, a leading `_` gets one more
 * since readers strip one, CTF 1.8 §4.2.2; a repeated name gets `_2`...)
 * and the size, signedness and byte order (network fields big-endian)
 * the trace has; pointers and `%x` print in base 16, `%o` in base 8.
 * The payload is packed (byte-aligned).
 *
 * Clock (CTF 1.8 §8): LTTV's time is cycles × 10^9 × freq_scale /
 * start_freq; the clock counts cycles × (freq_scale / g) at start_freq / g
 * Hz (g their greatest common divisor, so the common freq_scale = 1 keeps
 * the raw cycle counts).  Its origin is the Unix epoch: start_time (the
 * wall-clock time at start_tsc, the first metadata sub-buffer's
 * cycle_count_begin) minus start_tsc.  The model is written as TSDL and
 * parsed back by the packetizer.
 */
#include "gstlttng0-private.h"
#include "gstlttng0-packetizer.h"
#include "gstctf-model.h"

static GstCtfFieldClass *
clock_fc (GstCtfByteOrder bo, const gchar * clock)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new_integer (64, FALSE, bo, 10);

  fc->integer.map_clock_name = g_strdup (clock);
  return fc;
}

/* A TSDL identifier from a format string's field name, unique in @seen. */
static gchar *
field_name (const gchar * s, GHashTable * seen)
{
  GString *g = g_string_new (NULL);
  gchar *base;
  guint n = 2;
  const gchar *p;

  if (s[0] == '_' || g_ascii_isdigit (s[0]) || !s[0])
    g_string_append_c (g, '_');
  for (p = s; *p; p++)
    g_string_append_c (g, g_ascii_isalnum (*p) || *p == '_' ? *p : '_');
  base = g_string_free (g, FALSE);
  if (g_hash_table_contains (seen, base)) {
    gchar *t;

    do {
      t = g_strdup_printf ("%s_%u", base, n++);
      if (!g_hash_table_contains (seen, t))
        break;
      g_free (t);
    } while (TRUE);
    g_free (base);
    base = t;
  }
  g_hash_table_add (seen, base);
  return g_strdup (base);
}

/* An event class name made of printable ASCII (TSDL string literal). */
static gchar *
event_name (const Lttng0Marker * m)
{
  gchar *n = g_strdup_printf ("%s.%s", m->channel, m->name);
  gchar *p;

  for (p = n; *p; p++)
    if (!g_ascii_isprint (*p) || *p == '"' || *p == '\\')
      *p = '_';
  return n;
}

static GstCtfEventClass *
event_class (const Lttng0Marker * m, guint64 sc_id, GstCtfByteOrder bo)
{
  GstCtfEventClass *ec = gst_ctf_event_class_new ();
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  guint i;

  ec->id = m->id;
  ec->name = event_name (m);
  ec->stream_class_id = sc_id;
  if (m->n_fields > 0)
    ec->payload = gst_ctf_field_class_new_struct ();
  for (i = 0; i < m->n_fields; i++) {
    const Lttng0Field *f = &m->fields[i];
    GstCtfFieldClass *fc;
    gchar *name;

    if (f->type == LTTNG0_FIELD_STRING) {
      fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRING);
      fc->alignment = 8;
      fc->string.encoding = GST_CTF_ENCODING_UTF8;
    } else {
      fc = gst_ctf_field_class_new_integer (f->size * 8, f->type == LTTNG0_FIELD_SIGNED,
          f->network ? GST_CTF_BYTE_ORDER_BE : bo, f->base);
    }
    name = field_name (f->name, seen);
    gst_ctf_field_class_append_member (ec->payload, name, fc);
    g_free (name);
  }
  g_hash_table_unref (seen);
  return ec;
}

static gint
marker_cmp (gconstpointer a, gconstpointer b)
{
  const Lttng0Marker *x = *(Lttng0Marker * const *) a;
  const Lttng0Marker *y = *(Lttng0Marker * const *) b;

  return (gint) x->id - (gint) y->id;
}

static guint64
gcd (guint64 a, guint64 b)
{
  while (b) {
    guint64 r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/* Clock class offset: start_time - start_tsc, in (s, cycles) with the
 * cycles in [0, freq).  Unsigned arithmetic with an explicit borrow: the
 * header values are untrusted (the trace opener bounds start_freq). */
static void
clock_offset (const GstCtfLttng0Trace * t, guint64 freq, guint64 mult,
    GstCtfClockClass * cc)
{
  guint64 tsc = t->start_tsc * mult;
  guint64 usec = t->start_time_usec % 1000000;
  /* floor (usec × freq / 10^6) < freq, without overflow */
  guint64 usec_cyc = freq / 1000000 * usec + freq % 1000000 * usec / 1000000;
  guint64 rem = tsc % freq;
  gint64 s = (gint64) MIN (t->start_time_sec, G_GUINT64_CONSTANT (1) << 40)
      + (gint64) (t->start_time_usec / 1000000 % 1000000)
      - (gint64) MIN (tsc / freq, G_GUINT64_CONSTANT (1) << 40);

  if (usec_cyc >= rem) {
    cc->offset = (gint64) (usec_cyc - rem);
  } else {
    cc->offset = (gint64) (freq - (rem - usec_cyc));
    s--;
  }
  cc->offset_s = s;
}

/**
 * _gst_ctf_lttng0_build_trace_class:
 * @t: a trace
 * @mult: (out): what a TSC is multiplied by to give the clock's value
 *
 * Returns: (transfer full): the CTF model of the trace (no resolve state:
 *   write it as TSDL and parse it back)
 */
GstCtfTraceClass *
_gst_ctf_lttng0_build_trace_class (const GstCtfLttng0Trace * t,
    guint64 * mult)
{
  GstCtfTraceClass *tc = gst_ctf_trace_class_new ();
  GstCtfByteOrder bo = t->big_endian ? GST_CTF_BYTE_ORDER_BE :
      GST_CTF_BYTE_ORDER_LE;
  GstCtfClockClass *cc;
  GstCtfFieldClass *st, *u;
  GChecksum *sum;
  guint8 digest[32];
  gsize dlen = sizeof (digest);
  guint64 g = gcd (t->start_freq, t->freq_scale);
  gchar *base, key[64];
  guint i, j;

  tc->major = 1;
  tc->minor = 8;
  tc->byte_order = bo;

  /* a stable UUID from what identifies the recording: each tracefile's
   * name and first sub-buffer header */
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  for (i = 0; i < t->tracefiles->len; i++) {
    const Lttng0Tracefile *tf = g_ptr_array_index (t->tracefiles, i);

    g_checksum_update (sum, (const guint8 *) tf->name, strlen (tf->name) + 1);
    g_checksum_update (sum, tf->base, LTTNG0_SUBBUF_HEADER_SIZE);
  }
  g_checksum_get_digest (sum, digest, &dlen);
  g_checksum_free (sum);
  memcpy (tc->uuid, digest, 16);
  tc->uuid[6] = (tc->uuid[6] & 0x0f) | 0x40;
  tc->uuid[8] = (tc->uuid[8] & 0x3f) | 0x80;
  tc->has_uuid = TRUE;

  gst_ctf_trace_class_add_env_string (tc, "domain", "kernel");
  gst_ctf_trace_class_add_env_string (tc, "tracer_name", "lttng0");
  gst_ctf_trace_class_add_env_integer (tc, "ltt_major_version", t->major);
  gst_ctf_trace_class_add_env_integer (tc, "ltt_minor_version", t->minor);
  gst_ctf_trace_class_add_env_integer (tc, "arch_size", t->arch_size);
  gst_ctf_trace_class_add_env_integer (tc, "alignment", t->alignment);
  gst_ctf_trace_class_add_env_integer (tc, "start_freq", (gint64) t->start_freq);
  gst_ctf_trace_class_add_env_integer (tc, "freq_scale", t->freq_scale);
  gst_ctf_trace_class_add_env_integer (tc, "start_tsc", (gint64) t->start_tsc);
  gst_ctf_trace_class_add_env_integer (tc, "start_time_sec", (gint64) t->start_time_sec);
  gst_ctf_trace_class_add_env_integer (tc, "start_time_usec", (gint64) t->start_time_usec);
  base = g_path_get_basename (t->dir);
  gst_ctf_trace_class_add_env_string (tc, "trace_name", base);
  g_free (base);
  for (i = 0; i < t->channels->len; i++) {
    g_snprintf (key, sizeof (key), "channel_%u", i);
    gst_ctf_trace_class_add_env_string (tc, key, ((Lttng0Channel *) g_ptr_array_index (t->channels,
                i))->name);
  }

  cc = gst_ctf_clock_class_new ();
  cc->name = g_strdup ("tsc");
  cc->description = g_strdup ("LTTng 0.x cycle counter (start_freq / "
      "freq_scale), origin from the trace's start_time");
  *mult = t->freq_scale / g;
  cc->freq = t->start_freq / g;
  cc->absolute = cc->origin_is_unix_epoch = TRUE;
  clock_offset (t, cc->freq, *mult, cc);
  g_ptr_array_add (tc->clock_classes, cc);

  st = gst_ctf_field_class_new_struct ();
  gst_ctf_field_class_append_member (st, "magic", gst_ctf_field_class_new_integer (32, FALSE, bo, 16));
  u = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_ARRAY);
  u->alignment = 8;
  u->element = gst_ctf_field_class_new_integer (8, FALSE, bo, 16);
  u->length = 16;
  gst_ctf_field_class_append_member (st, "uuid", u);
  gst_ctf_field_class_append_member (st, "stream_id",
      gst_ctf_field_class_new_integer (32, FALSE, bo, 10));
  gst_ctf_field_class_append_member (st, "stream_instance_id",
      gst_ctf_field_class_new_integer (64, FALSE, bo, 10));
  tc->packet_header = st;

  for (i = 0; i < t->channels->len; i++) {
    const Lttng0Channel *ch = g_ptr_array_index (t->channels, i);
    GstCtfStreamClass *sc = gst_ctf_stream_class_new (i);
    GPtrArray *ms = g_ptr_array_new ();
    GHashTableIter it;
    gpointer val;

    sc->default_clock = cc;
    st = gst_ctf_field_class_new_struct ();
    gst_ctf_field_class_append_member (st, "timestamp_begin",
        clock_fc (bo, cc->name));
    gst_ctf_field_class_append_member (st, "timestamp_end",
        clock_fc (bo, cc->name));
    gst_ctf_field_class_append_member (st, "content_size",
        gst_ctf_field_class_new_integer (64, FALSE, bo, 10));
    gst_ctf_field_class_append_member (st, "packet_size",
        gst_ctf_field_class_new_integer (64, FALSE, bo, 10));
    gst_ctf_field_class_append_member (st, "packet_seq_num",
        gst_ctf_field_class_new_integer (64, FALSE, bo, 10));
    gst_ctf_field_class_append_member (st, "events_discarded",
        gst_ctf_field_class_new_integer (64, FALSE, bo, 10));
    gst_ctf_field_class_append_member (st, "cpu_id",
        gst_ctf_field_class_new_integer (32, FALSE, bo, 10));
    gst_ctf_field_class_append_member (st, "subbuf_corrupt",
        gst_ctf_field_class_new_integer (64, FALSE, bo, 10));
    sc->packet_context = st;
    st = gst_ctf_field_class_new_struct ();
    gst_ctf_field_class_append_member (st, "id", gst_ctf_field_class_new_integer (16, FALSE, bo, 10));
    gst_ctf_field_class_append_member (st, "timestamp",
        clock_fc (bo, cc->name));
    sc->event_header = st;

    g_hash_table_iter_init (&it, ch->markers);
    while (g_hash_table_iter_next (&it, NULL, &val))
      if (((Lttng0Marker *) val)->usable)
        g_ptr_array_add (ms, val);
    g_ptr_array_sort (ms, marker_cmp);
    for (j = 0; j < ms->len; j++) {
      GstCtfEventClass *ec = event_class (g_ptr_array_index (ms, j), i, bo);

      g_ptr_array_add (sc->event_classes, ec);
      g_hash_table_insert (sc->event_class_by_id, &ec->id, ec);
    }
    g_ptr_array_unref (ms);
    g_ptr_array_add (tc->stream_classes, sc);
  }
  return tc;
}
