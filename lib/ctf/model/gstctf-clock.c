/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: clock values to nanoseconds from the clock's origin
 * (CTF 1.8 §8), computed as babeltrace2 2.0 does so that times printed
 * from the same trace are identical.
 */
#include "gstctf-reader.h"

#define NS_PER_S G_GINT64_CONSTANT (1000000000)

/* Cycles to nanoseconds.  babeltrace2 2.0 (lib/trace-ir/utils.h,
 * bt_util_ns_from_value()) is exact for a 1 GHz clock and otherwise
 * computes 1e9 * cycles / freq in double precision and truncates; we do
 * the same so that our times agree with its output to the nanosecond.
 * Saturates at G_MAXUINT64. */
static guint64
ns_from_cycles (guint64 freq, guint64 cycles)
{
  gdouble d;

  if (freq == G_GUINT64_CONSTANT (1000000000))
    return cycles;
  d = (1e9 * (gdouble) cycles) / (gdouble) freq;
  if (d >= (gdouble) G_MAXUINT64)
    return G_MAXUINT64;
  return (guint64) d;
}

/**
 * gst_ctf_clock_class_cycles_to_ns_from_origin:
 * @cc: a clock class
 * @cycles: a clock value
 * @ns: (out): nanoseconds from the clock's origin
 *
 * See the declaration in gstctf-reader.h.  The clock offset is first
 * normalized as babeltrace2's CTF reader does (`offset` cycles beyond
 * one second move into `offset_s`; a negative `offset` borrows whole
 * seconds so that the cycle part is in [0, freq)), then
 * `offset_s × 10^9 + ns(offset) + ns(cycles)`.
 *
 * Returns: %FALSE when the result does not fit in a gint64 (babeltrace2
 *   reports the same values as overflowing), or @cc has no frequency
 */
gboolean
gst_ctf_clock_class_cycles_to_ns_from_origin (const GstCtfClockClass * cc,
    guint64 cycles, gint64 * ns)
{
  gint64 offset_s;
  guint64 offset_cycles, value_ns;
  gint64 base_ns;

  g_return_val_if_fail (cc != NULL, FALSE);
  g_return_val_if_fail (ns != NULL, FALSE);

  if (cc->freq == 0)
    return FALSE;

  /* Normalize the offset: whole seconds of `offset` go to `offset_s`
   * (babeltrace2 calibrate_clock_class_offsets()). */
  offset_s = cc->offset_s;
  if (cc->offset >= 0) {
    guint64 off = (guint64) cc->offset;
    /* (a 1 GHz clock, the usual one, divides by a constant: a multiply) */
    guint64 whole = cc->freq == (guint64) NS_PER_S ? off / (guint64) NS_PER_S
        : off / cc->freq;

    if (whole > (guint64) G_MAXINT64 ||
        (offset_s > 0 && (gint64) whole > G_MAXINT64 - offset_s))
      return FALSE;
    offset_s += (gint64) whole;
    offset_cycles = off - whole * cc->freq;
  } else {
    /* floor division for a negative cycle offset */
    guint64 mag = (guint64) (-(cc->offset + 1)) + 1;
    guint64 whole = mag / cc->freq;
    guint64 rem = mag - whole * cc->freq;

    if (rem != 0)
      whole++;
    if (whole > (guint64) G_MAXINT64 ||
        (offset_s < 0 && (gint64) whole > offset_s - G_MININT64))
      return FALSE;
    offset_s -= (gint64) whole;
    offset_cycles = rem ? cc->freq - rem : 0;
  }

  /* babeltrace2 bt_util_get_base_offset_ns(): leaves one second of room
   * for the cycle part of the offset. */
  if (offset_s <= (G_MININT64 / NS_PER_S) - 1 ||
      offset_s >= (G_MAXINT64 / NS_PER_S) - 1)
    return FALSE;
  base_ns = offset_s * NS_PER_S + (gint64) ns_from_cycles (cc->freq,
      offset_cycles);

  value_ns = ns_from_cycles (cc->freq, cycles);
  if (value_ns >= (guint64) G_MAXINT64)
    return FALSE;
  if (base_ns > 0 && (gint64) value_ns > G_MAXINT64 - base_ns)
    return FALSE;
  *ns = base_ns + (gint64) value_ns;
  return TRUE;
}

/**
 * gst_ctf_clock_class_add_offset:
 * @cc: a clock class, changed in place
 * @offset_s: seconds to add to its offset
 * @offset_ns: nanoseconds to add to its offset (any sign, any size)
 *
 * See the declaration in gstctf-reader.h.  babeltrace2's `source.ctf.fs`
 * (`clock-class-offset-s`, `clock-class-offset-ns`) does the same: the
 * nanoseconds beyond a second, or below 0, move into the seconds first
 * (floor division), the rest is converted to cycles at the clock's
 * frequency (in double precision, truncated) and added to `offset`.
 *
 * Returns: %FALSE (and @cc unchanged) when the new offset does not fit
 */
gboolean
gst_ctf_clock_class_add_offset (GstCtfClockClass * cc, gint64 offset_s,
    gint64 offset_ns)
{
  gint64 extra = offset_ns / NS_PER_S, ns = offset_ns - extra * NS_PER_S;
  gint64 new_s, new_cycles;
  gdouble dcycles;

  g_return_val_if_fail (cc != NULL, FALSE);

  if (ns < 0) {
    ns += NS_PER_S;
    extra--;
  }
  dcycles = (gdouble) ns * (gdouble) cc->freq / 1e9;
  if (dcycles >= 9e18)
    return FALSE;
  if (__builtin_add_overflow (cc->offset_s, offset_s, &new_s) ||
      __builtin_add_overflow (new_s, extra, &new_s) ||
      __builtin_add_overflow (cc->offset, (gint64) dcycles, &new_cycles))
    return FALSE;
  cc->offset_s = new_s;
  cc->offset = new_cycles;
  return TRUE;
}
