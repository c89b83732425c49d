/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Time bounds as text, in the forms babeltrace2 2.0's
 * `filter.utils.trimmer` accepts for `begin`/`end` (its man page,
 * babeltrace2-filter.utils.trimmer(7), and the behaviour of
 * `babeltrace2 --begin/--end`): the same strings are accepted and rejected,
 * and give the same nanoseconds from the clock origin.
 */
#include "gstctf-time-parse.h"

#include <string.h>
#include <time.h>

#define NS_PER_S G_GINT64_CONSTANT (1000000000)

/* Exactly @n decimal digits at *@p; advances past them. */
static gboolean
take_digits (const gchar ** p, guint n, guint * value)
{
  guint v = 0, i;

  for (i = 0; i < n; i++) {
    if (!g_ascii_isdigit ((*p)[i]))
      return FALSE;
    v = v * 10 + (guint) ((*p)[i] - '0');
  }
  *p += n;
  *value = v;
  return TRUE;
}

/* `.N{1,9}` as nanoseconds: `.5` is half a second.  Advances past it. */
static gboolean
take_fraction (const gchar ** p, guint * ns)
{
  const gchar *s = *p + 1;
  guint v = 0, n = 0, i;

  if (**p != '.')
    return FALSE;
  while (g_ascii_isdigit (s[n])) {
    if (n == 9)
      return FALSE;
    v = v * 10 + (guint) (s[n] - '0');
    n++;
  }
  if (n == 0)
    return FALSE;
  for (i = n; i < 9; i++)
    v *= 10;
  *p = s + n;
  *ns = v;
  return TRUE;
}

/* The end of the text.  babeltrace2 matches with `^...$` regular
 * expressions, where `$` also matches before a final newline. */
static gboolean
at_end (const gchar * p)
{
  return p[0] == '\0' || (p[0] == '\n' && p[1] == '\0');
}

/* `HH:MM[:SS[.NNNNNNNNN]]` up to the end of the text. */
static gboolean
take_time_of_day (const gchar ** p, guint * h, guint * m, guint * s,
    guint * ns)
{
  *s = 0;
  *ns = 0;
  if (!take_digits (p, 2, h) || **p != ':')
    return FALSE;
  (*p)++;
  if (!take_digits (p, 2, m))
    return FALSE;
  if (**p == ':') {
    (*p)++;
    if (!take_digits (p, 2, s))
      return FALSE;
    if (**p == '.' && !take_fraction (p, ns))
      return FALSE;
  }
  return at_end (*p);
}

static gboolean
date_time_to_ns (guint year, guint month, guint day, guint hour,
    guint minute, guint second, guint nsec, gboolean gmt, gint64 * ns,
    const gchar * what, GError ** error)
{
  struct tm tm;
  time_t t;

  memset (&tm, 0, sizeof (tm));
  tm.tm_sec = (int) second;
  tm.tm_min = (int) minute;
  tm.tm_hour = (int) hour;
  tm.tm_mday = (int) day;
  tm.tm_mon = (int) month - 1;
  tm.tm_year = (int) year - 1900;
  tm.tm_isdst = -1;
  t = gmt ? timegm (&tm) : mktime (&tm);
  /* babeltrace2 refuses a negative result (mktime()'s error value). */
  if (t < 0 || (gint64) t > G_MAXINT64 / NS_PER_S - 1) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TIME_FORMAT,
        "Cannot convert date and time to a time since the Unix epoch: "
        "param=\"%s\", expected a date after 1970-01-01 00:00:00 (%s)",
        what, gmt ? "UTC" : "local time");
    return FALSE;
  }
  *ns = (gint64) t * NS_PER_S + nsec;
  return TRUE;
}

gboolean
gst_ctf_time_bound_parse (const gchar * str, gboolean gmt,
    GstCtfTimeBound * bound, GError ** error)
{
  const gchar *p;
  guint year, month, day, h, m, s, ns;

  g_return_val_if_fail (bound != NULL, FALSE);
  memset (bound, 0, sizeof (*bound));
  bound->kind = GST_CTF_TIME_BOUND_OPEN;
  if (str == NULL || *str == '\0')
    return TRUE;

  /* `YYYY-MM-DD hh:mm[:ss[.ns]]` and `YYYY-MM-DD` */
  p = str;
  if (take_digits (&p, 4, &year) && *p == '-') {
    p++;
    if (take_digits (&p, 2, &month) && *p == '-') {
      p++;
      if (take_digits (&p, 2, &day)) {
        if (at_end (p)) {
          bound->kind = GST_CTF_TIME_BOUND_ABSOLUTE;
          return date_time_to_ns (year, month, day, 0, 0, 0, 0, gmt,
              &bound->ns, str, error);
        }
        if (*p == ' ') {
          p++;
          if (take_time_of_day (&p, &h, &m, &s, &ns)) {
            bound->kind = GST_CTF_TIME_BOUND_ABSOLUTE;
            return date_time_to_ns (year, month, day, h, m, s, ns, gmt,
                &bound->ns, str, error);
          }
        }
      }
    }
  }

  /* `hh:mm[:ss[.ns]]` */
  p = str;
  if (take_time_of_day (&p, &h, &m, &s, &ns)) {
    bound->kind = GST_CTF_TIME_BOUND_TIME_OF_DAY;
    bound->hour = h;
    bound->minute = m;
    bound->second = s;
    bound->nsec = ns;
    return TRUE;
  }

  /* `[-]s[.ns]` */
  p = str;
  {
    gboolean neg = FALSE;
    guint64 sec = 0;
    guint frac = 0;
    gboolean overflow = FALSE;
    const gchar *digits;

    if (*p == '-') {
      neg = TRUE;
      p++;
    }
    digits = p;
    while (g_ascii_isdigit (*p)) {
      if (sec > (guint64) (G_MAXINT64 / NS_PER_S))
        overflow = TRUE;
      else
        sec = sec * 10 + (guint64) (*p - '0');
      p++;
    }
    if (p > digits && (at_end (p) || (*p == '.' && take_fraction (&p, &frac)
                && at_end (p)))) {
      if (overflow || sec > (guint64) ((G_MAXINT64 - frac) / NS_PER_S)) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TIME_FORMAT,
            "Time out of range: param=\"%s\", expected at most %"
            G_GINT64_FORMAT " seconds", str, G_MAXINT64 / NS_PER_S);
        return FALSE;
      }
      bound->kind = GST_CTF_TIME_BOUND_ABSOLUTE;
      bound->ns = (gint64) sec * NS_PER_S + frac;
      if (neg)
        bound->ns = -bound->ns;
      return TRUE;
    }
  }

  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TIME_FORMAT,
      "Invalid date/time format: param=\"%s\", expected "
      "\"YYYY-MM-DD HH:MM[:SS[.NNNNNNNNN]]\", \"YYYY-MM-DD\", "
      "\"HH:MM[:SS[.NNNNNNNNN]]\" or \"[-]SEC[.NNNNNNNNN]\"", str);
  return FALSE;
}

gboolean
gst_ctf_time_bound_resolve (GstCtfTimeBound * bound, gint64 first_ns,
    gboolean gmt, GError ** error)
{
  time_t secs;
  struct tm tm, *res;
  gchar what[64];

  g_return_val_if_fail (bound != NULL, FALSE);
  if (bound->kind != GST_CTF_TIME_BOUND_TIME_OF_DAY)
    return TRUE;

  /* The date of the first time: truncated toward zero, like
   * babeltrace2's integer division. */
  secs = (time_t) (first_ns / NS_PER_S);
  res = gmt ? gmtime_r (&secs, &tm) : localtime_r (&secs, &tm);
  g_snprintf (what, sizeof (what), "%02u:%02u:%02u.%09u", bound->hour,
      bound->minute, bound->second, bound->nsec);
  if (res == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TIME_FORMAT,
        "Cannot convert timestamp to date and time: ts=%" G_GINT64_FORMAT
        " ns, bound=\"%s\"", first_ns, what);
    return FALSE;
  }
  if (!date_time_to_ns ((guint) tm.tm_year + 1900, (guint) tm.tm_mon + 1,
          (guint) tm.tm_mday, bound->hour, bound->minute, bound->second,
          bound->nsec, gmt, &bound->ns, what, error))
    return FALSE;
  bound->kind = GST_CTF_TIME_BOUND_ABSOLUTE;
  return TRUE;
}

gchar *
gst_ctf_time_format_seconds (gint64 ns)
{
  guint64 a;

  if (ns < 0) {
    a = (guint64) (-(ns + 1)) + 1;      /* G_MININT64 too */
    return g_strdup_printf ("-%" G_GUINT64_FORMAT ".%09u",
        a / (guint64) NS_PER_S, (guint) (a % (guint64) NS_PER_S));
  }
  return g_strdup_printf ("%" G_GINT64_FORMAT ".%09u", ns / NS_PER_S,
      (guint) (ns % NS_PER_S));
}
