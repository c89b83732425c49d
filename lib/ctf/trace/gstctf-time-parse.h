/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: time bounds written as text, in the forms babeltrace2's
 * `--begin`/`--end` options (its `filter.utils.trimmer` component)
 * accept, so that a window that works with one tool works with the other.
 */
#pragma once

#include <glib.h>
#include "gstctf-version.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GstCtfTimeBoundKind:
 * @GST_CTF_TIME_BOUND_OPEN: no bound (the window is open on this side)
 * @GST_CTF_TIME_BOUND_ABSOLUTE: the bound is known in ns from the clock
 *   origin (#GstCtfTimeBound.ns)
 * @GST_CTF_TIME_BOUND_TIME_OF_DAY: only a time of day was given
 *   (`HH:MM[:SS[.NNNNNNNNN]]`); the date comes from the first packet, see
 *   gst_ctf_time_bound_resolve()
 */
typedef enum {
  GST_CTF_TIME_BOUND_OPEN,
  GST_CTF_TIME_BOUND_ABSOLUTE,
  GST_CTF_TIME_BOUND_TIME_OF_DAY,
} GstCtfTimeBoundKind;

/**
 * GstCtfTimeBound:
 * @kind: what is known
 * @ns: nanoseconds from the clock origin (the Unix epoch for an absolute
 *   clock), when @kind is %GST_CTF_TIME_BOUND_ABSOLUTE
 * @hour: hour of the day, for %GST_CTF_TIME_BOUND_TIME_OF_DAY
 * @minute: minute
 * @second: second
 * @nsec: nanoseconds in the second
 *
 * One side of a time window.
 */
typedef struct {
  GstCtfTimeBoundKind kind;
  gint64 ns;
  guint hour;
  guint minute;
  guint second;
  guint nsec;
} GstCtfTimeBound;

/**
 * gst_ctf_time_bound_parse:
 * @str: (nullable): the text; %NULL or "" for an open bound
 * @gmt: whether dates and times of day are UTC (else local time, as the
 *   `TZ` environment variable says, like mktime())
 * @bound: (out caller-allocates): the result
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_TIME_FORMAT: not one of the forms below, or a date
 *   that mktime()/timegm() cannot convert, or seconds beyond ±2^63 ns)
 *
 * Parses a time bound in one of the forms of babeltrace2 2.0's trimmer:
 *
 * - `YYYY-MM-DD HH:MM[:SS[.NNNNNNNNN]]`: a date and time (local time
 *   unless @gmt);
 * - `YYYY-MM-DD`: midnight of that day;
 * - `HH:MM[:SS[.NNNNNNNNN]]`: a time of day; the date is the one of the
 *   first packet (gst_ctf_time_bound_resolve());
 * - `[-]SEC[.NNNNNNNNN]`: seconds from the clock origin.
 *
 * Fields have exactly the digits shown (1 to 9 for the fraction, which is
 * a decimal fraction: `.5` is 500000000 ns); values are not range checked
 * (mktime() normalises `25:00`), as in babeltrace2.
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_time_bound_parse (const gchar * str,
    gboolean gmt, GstCtfTimeBound * bound, GError ** error);

/**
 * gst_ctf_time_bound_resolve:
 * @bound: a bound; only %GST_CTF_TIME_BOUND_TIME_OF_DAY is changed
 * @first_ns: time of the first packet, ns from the clock origin
 * @gmt: as for gst_ctf_time_bound_parse()
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_TIME_FORMAT when the date cannot be computed)
 *
 * Gives a time-of-day bound the date (in local time unless @gmt) of
 * @first_ns, making it %GST_CTF_TIME_BOUND_ABSOLUTE, as babeltrace2 does
 * with its first message that has a time.
 *
 * Returns: %TRUE on success
 */
GST_CTF_API gboolean gst_ctf_time_bound_resolve (GstCtfTimeBound * bound,
    gint64 first_ns, gboolean gmt, GError ** error);

/**
 * gst_ctf_time_format_seconds:
 * @ns: nanoseconds from the clock origin
 *
 * Formats @ns in the `[-]SEC.NNNNNNNNN` form that
 * gst_ctf_time_bound_parse() reads back exactly, whatever the time zone.
 *
 * Returns: (transfer full): the text
 */
GST_CTF_API gchar *gst_ctf_time_format_seconds (gint64 ns);

G_END_DECLS
