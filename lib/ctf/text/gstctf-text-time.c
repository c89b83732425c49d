/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: times as babeltrace2's `sink.text.pretty` prints them
 * (`HH:MM:SS.NNNNNNNNN`, `SEC.NS`, with the date, UTC or local time) and
 * its discarded events / packets warnings, for gstctf-text-formatter.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstctf-text-private.h"

/* ------------------------------------------------------------------ */
/* Timestamps                                                          */

static void append_wall_parts (GstCtfTextFormatter * f, GString * s,
    guint64 sec_abs, guint64 nsec_abs, gboolean negative);

void
_gst_ctf_text_append_wall (GstCtfTextFormatter * f, GString * s, gint64 ns)
{
  gint64 sec, nsec;
  guint64 sec_abs, nsec_abs;
  gboolean negative;

  /* The usual case: a time in the same second as the cached text (of a
   * time that was not negative): no division, no sign cases. */
  if (G_LIKELY (f->cached_base_ns >= 0 && ns >= f->cached_base_ns &&
          ns - f->cached_base_ns < NS_PER_S && f->have_cached_tm &&
          !f->opts.clock_seconds && f->cached_gmt == f->opts.clock_gmt &&
          f->cached_date == f->opts.clock_date &&
          s->allocated_len - s->len > sizeof (f->cached_text) + 10)) {
    gchar *d = s->str + s->len;

    memcpy (d, f->cached_text, sizeof (f->cached_text));
    d += f->cached_text_len;
    write_9digits (d, (guint32) (ns - f->cached_base_ns));
    d[9] = '\0';
    s->len = d + 9 - s->str;
    return;
  }

  sec = ns / NS_PER_S;
  nsec = ns % NS_PER_S;

  /* Same sign handling as babeltrace2's print_timestamp_wall(). */
  if (sec >= 0 && nsec >= 0) {
    negative = FALSE;
    sec_abs = sec;
    nsec_abs = nsec;
  } else if (sec > 0 && nsec < 0) {
    negative = FALSE;
    sec_abs = sec - 1;
    nsec_abs = NS_PER_S + nsec;
  } else if (sec == 0 && nsec < 0) {
    negative = TRUE;
    sec_abs = sec;
    nsec_abs = -nsec;
  } else if (sec < 0 && nsec > 0) {
    negative = TRUE;
    sec_abs = -(sec + 1);
    nsec_abs = NS_PER_S - nsec;
  } else if (sec < 0 && nsec == 0) {
    negative = TRUE;
    sec_abs = -sec;
    nsec_abs = nsec;
  } else {
    negative = TRUE;
    sec_abs = -sec;
    nsec_abs = -nsec;
  }
  append_wall_parts (f, s, sec_abs, nsec_abs, negative);
}

/* A time of a clock whose offset wrapped modulo 2^64 (Trace Compass's CTF
 * writer; gstctf-resolve.c): babeltrace 1.5 prints its ns as unsigned. */
void
_gst_ctf_text_append_wall_clock (GstCtfTextFormatter * f, GString * s,
    const GstCtfClockClass * cc, gint64 ns)
{
  if (G_UNLIKELY (ns < 0 && cc != NULL && cc->offset_wrapped))
    append_wall_parts (f, s, (guint64) ns / NS_PER_S, (guint64) ns % NS_PER_S,
        FALSE);
  else
    _gst_ctf_text_append_wall (f, s, ns);
}

static void
append_wall_parts (GstCtfTextFormatter * f, GString * s, guint64 sec_abs,
    guint64 nsec_abs, gboolean negative)
{
  if (!f->opts.clock_seconds) {
    time_t t = (time_t) sec_abs;
    struct tm *tm;

    if (negative && !f->negative_warning_done) {
      fputs ("[warning] Fallback to [sec.ns] to print negative time value. "
          "Use --clock-seconds.\n", stderr);
      f->negative_warning_done = TRUE;
      goto seconds;
    }

    if (G_LIKELY (f->have_cached_tm && f->cached_sec == t &&
            f->cached_gmt == f->opts.clock_gmt &&
            f->cached_date == f->opts.clock_date)) {
      put (s, f->cached_text, f->cached_text_len);
      append_9digits (s, (guint32) nsec_abs);
      return;
    }
    if (f->opts.clock_gmt)
      tm = gmtime_r (&t, &f->cached_tm);
    else
      tm = localtime_r (&t, &f->cached_tm);
    f->have_cached_tm = FALSE;
    f->cached_base_ns = -1;
    if (tm == NULL) {
      fputs (f->opts.clock_gmt ? "[warning] Unable to get gmtime.\n" :
          "[warning] Unable to get localtime.\n", stderr);
      goto seconds;
    }

    {
      GString text = { f->cached_text, 0, sizeof (f->cached_text) };

      if (f->opts.clock_date) {
        gchar buf[32];
        gsize r = strftime (buf, sizeof (buf), "%Y-%m-%d ", tm);

        /* (the date of a far year does not fit the cache: no cache) */
        if (r == 0 || r > 24) {
          if (r == 0)
            fputs ("[warning] Unable to print ascii time.\n", stderr);
          else {
            put (s, buf, r);
            append_u64_padded (s, (guint64) tm->tm_hour, 2);
            put_c (s, ':');
            append_u64_padded (s, (guint64) tm->tm_min, 2);
            put_c (s, ':');
            append_u64_padded (s, (guint64) tm->tm_sec, 2);
            put_c (s, '.');
            append_9digits (s, (guint32) nsec_abs);
            return;
          }
          goto seconds;
        }
        put (&text, buf, r);
      }
      append_u64_padded (&text, (guint64) tm->tm_hour, 2);
      put_c (&text, ':');
      append_u64_padded (&text, (guint64) tm->tm_min, 2);
      put_c (&text, ':');
      append_u64_padded (&text, (guint64) tm->tm_sec, 2);
      put_c (&text, '.');
      g_assert (text.str == f->cached_text);
      f->cached_text_len = text.len;
    }
    f->have_cached_tm = TRUE;
    f->cached_sec = t;
    /* (the seconds of a negative time print as its absolute value's; the
     * unsigned times of a wrapped clock beyond 2^63 ns are not cached) */
    f->cached_base_ns = negative || sec_abs > (guint64) (G_MAXINT64 /
        NS_PER_S) - 1 ? -1 : (gint64) sec_abs * NS_PER_S;
    f->cached_gmt = f->opts.clock_gmt;
    f->cached_date = f->opts.clock_date;
    put (s, f->cached_text, f->cached_text_len);
    append_9digits (s, (guint32) nsec_abs);
    return;
  }

seconds:
  if (negative)
    put_c (s, '-');
  append_u64 (s, sec_abs);
  put_c (s, '.');
  append_u64_padded (s, nsec_abs, 9);
}

/* ------------------------------------------------------------------ */
/* Discarded items                                                     */

/* babeltrace2 (src.ctf.fs, clock-class-offset-s / -ns) adds the offsets
 * to each clock class (gst_ctf_clock_class_add_offset()). */
static const GstCtfClockClass *
offset_clock (GstCtfTextFormatter * f, const GstCtfClockClass * cc)
{
  GstCtfClockClass *adj;

  if (cc == f->last_offset_cc)
    return f->last_offset_adj;
  adj = g_hash_table_lookup (f->offset_clocks, cc);
  if (adj == NULL) {
    adj = g_new (GstCtfClockClass, 1);
    *adj = *cc;                 /* (names shared: never freed here) */
    /* (an offset out of range: times print as Error) */
    if (!gst_ctf_clock_class_add_offset (adj, f->opts.clock_offset_s,
            f->opts.clock_offset_ns))
      adj->freq = 0;
    g_hash_table_insert (f->offset_clocks, (gpointer) cc, adj);
  }
  f->last_offset_cc = cc;
  f->last_offset_adj = adj;
  return adj;
}

gboolean
_gst_ctf_text_printed_ns (GstCtfTextFormatter * f,
    const GstCtfClockClass * cc, guint64 cycles, gint64 * ns)
{
  if (f->opts.clock_offset_s != 0 || f->opts.clock_offset_ns != 0)
    cc = offset_clock (f, cc);
  return gst_ctf_clock_class_cycles_to_ns_from_origin (cc, cycles, ns);
}

void
gst_ctf_text_formatter_format_discarded (GstCtfTextFormatter * f,
    GString * out, GstCtfDiscardedKind kind, guint64 count,
    const GstCtfClockClass * cc, guint64 begin, guint64 end,
    const gchar * stream_name, guint64 stream_class_id, gint64 stream_id)
{
  const gchar *elem = kind == GST_CTF_DISCARDED_PACKETS ? "packet" : "event";
  const gchar *uid;

  g_return_if_fail (f != NULL && out != NULL);

  if (f->opts.color)
    put_lit (out, COLOR_WARNING COLOR_WARNING_WORD "WARNING" COLOR_RESET
        COLOR_WARNING ": ");
  else
    put_lit (out, "WARNING: ");
  if (count == G_MAXUINT64) {
    put_lit (out, "Tracer may have discarded ");
    put_str (out, elem);
    put_c (out, 's');
  } else {
    put_lit (out, "Tracer discarded ");
    append_u64 (out, count);
    put_c (out, ' ');
    put_str (out, elem);
    if (count != 1)
      put_c (out, 's');
  }
  put_c (out, ' ');

  if (cc != NULL) {
    gint64 ns;

    put_lit (out, "between [");
    if (_gst_ctf_text_printed_ns (f, cc, begin, &ns))
      _gst_ctf_text_append_wall_clock (f, out, cc, ns);
    else
      put_lit (out, "Error");
    put_lit (out, "] and [");
    if (_gst_ctf_text_printed_ns (f, cc, end, &ns))
      _gst_ctf_text_append_wall_clock (f, out, cc, ns);
    else
      put_lit (out, "Error");
    put_c (out, ']');
  } else {
    put_lit (out, "(unknown time range)");
  }

  put_lit (out, " in trace \"");
  {
    const GstCtfStreamClass *sc =
        gst_ctf_trace_class_find_stream_class (f->tc, stream_class_id);
    const ScInfo *si = sc ? g_hash_table_lookup (f->sc_info, sc) : NULL;
    const gchar *name = _gst_ctf_text_trace_name (f, si);

    put_str (out, name ? name : "(unknown)");
  }
  put_lit (out, "\" ");
  /* babeltrace2 2.1 runs its graph with MIP 1, where a trace has a UID
   * (for CTF 1.8, its UUID's text) instead of a UUID. */
  uid = f->opts.babeltrace_version == GST_CTF_BABELTRACE_2_0 ? "UUID" : "UID";
  if (f->tc->major >= 2) {
    /* CTF 2: the trace class's own UID text */
    if (f->tc->uid != NULL) {
      put_lit (out, "(UID: ");
      put_str (out, f->tc->uid);
      put_lit (out, ") ");
    } else {
      put_lit (out, "(no UID) ");
    }
  } else if (f->tc->has_uuid) {
    const guint8 *u = f->tc->uuid;

    g_string_append_printf (out, "(%s: %02x%02x%02x%02x-%02x%02x-%02x%02x-"
        "%02x%02x-%02x%02x%02x%02x%02x%02x) ", uid, u[0], u[1], u[2], u[3],
        u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
        u[14], u[15]);
  } else {
    put_lit (out, "(no ");
    put_str (out, uid);
    put_lit (out, ") ");
  }
  put_lit (out, "within stream \"");
  put_str (out, stream_name ? stream_name : "(unknown)");
  put_lit (out, "\" (stream class ID: ");
  append_u64 (out, stream_class_id);
  put_lit (out, ", ");
  if (stream_id >= 0) {
    put_lit (out, "stream ID: ");
    append_u64 (out, (guint64) stream_id);
  } else {
    put_lit (out, "no stream ID");
  }
  put_lit (out, ").");
  put_color (f, out, COLOR_RESET);
  put_c (out, '\n');
}
