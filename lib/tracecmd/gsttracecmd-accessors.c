/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat file accessors: what gsttracecmd-file.c read from the header,
 * the v6 fixed blocks or the v7 sections and options (trace-cmd.dat.v6(5),
 * trace-cmd.dat.v7(5)), and the reading of one event field.
 */
#include "gsttracecmd-private.h"

/**
 * gst_ctf_trace_dat_get_origin:
 * @td: a file
 *
 * Returns: the path (or name) given at open.
 */
const gchar *
gst_ctf_trace_dat_get_origin (GstCtfTraceDat * td)
{
  return td->origin;
}

/**
 * gst_ctf_trace_dat_get_version:
 * @td: a file
 *
 * Returns: the file format version, 6 or 7.
 */
guint
gst_ctf_trace_dat_get_version (GstCtfTraceDat * td)
{
  return td->version;
}

/**
 * gst_ctf_trace_dat_get_compression:
 * @td: a file
 *
 * Returns: the compression of v7 sections and data.
 */
GstCtfTraceDatCompression
gst_ctf_trace_dat_get_compression (GstCtfTraceDat * td)
{
  return td->compression;
}

/**
 * gst_ctf_trace_dat_get_compression_name:
 * @td: a file
 * @version: (out) (optional) (nullable): the algorithm version the file
 *   names (v7), or NULL
 *
 * Returns: the compression name as written (`none`, `zlib`, `zstd`).
 */
const gchar *
gst_ctf_trace_dat_get_compression_name (GstCtfTraceDat * td,
    const gchar ** version)
{
  if (version)
    *version = td->compression_version;
  return td->compression_name;
}

/**
 * gst_ctf_trace_dat_get_byte_order:
 * @td: a file
 *
 * Returns: the byte order of every number in the file and its records.
 */
GstCtfByteOrder
gst_ctf_trace_dat_get_byte_order (GstCtfTraceDat * td)
{
  return td->byte_order;
}

/**
 * gst_ctf_trace_dat_get_long_size:
 * @td: a file
 *
 * Returns: the traced machine's user-space `long` size in bytes (4 or 8).
 */
guint
gst_ctf_trace_dat_get_long_size (GstCtfTraceDat * td)
{
  return td->long_size;
}

/**
 * gst_ctf_trace_dat_get_kernel_long_size:
 * @td: a file
 *
 * Returns: the kernel `long` size in bytes (size of the page header's
 *   commit field, from `header_page`).
 */
guint
gst_ctf_trace_dat_get_kernel_long_size (GstCtfTraceDat * td)
{
  return td->kernel_long_size;
}

/**
 * gst_ctf_trace_dat_get_page_size:
 * @td: a file
 *
 * Returns: the host page size in bytes from the file header (a v7 buffer
 *   may use another ring-buffer page size: see #GstCtfTraceDatBuffer).
 */
guint
gst_ctf_trace_dat_get_page_size (GstCtfTraceDat * td)
{
  return td->page_size;
}

/**
 * gst_ctf_trace_dat_get_n_cpus:
 * @td: a file
 *
 * Returns: the CPU count of the traced machine (v6 header, v7 CPUCOUNT).
 */
guint
gst_ctf_trace_dat_get_n_cpus (GstCtfTraceDat * td)
{
  return td->n_cpus;
}

/**
 * gst_ctf_trace_dat_get_clock:
 * @td: a file
 *
 * Returns: (nullable): the active trace clock (`local`, `mono`,
 *   `x86-tsc`, ...) from TRACECLOCK or the top buffer, or NULL.
 */
const gchar *
gst_ctf_trace_dat_get_clock (GstCtfTraceDat * td)
{
  guint i;

  if (td->clock)
    return td->clock;
  for (i = 0; i < td->buffers->len; i++) {
    GstCtfTraceDatBuffer *b = g_ptr_array_index (td->buffers, i);
    if (b->name[0] == '\0' && b->clock)
      return b->clock;
  }
  return NULL;
}

/**
 * gst_ctf_trace_dat_get_uname:
 * @td: a file
 *
 * Returns: (nullable): the UNAME option text, or NULL.
 */
const gchar *
gst_ctf_trace_dat_get_uname (GstCtfTraceDat * td)
{
  return td->uname;
}

/**
 * gst_ctf_trace_dat_get_tracer_version:
 * @td: a file
 *
 * Returns: (nullable): the VERSION option (trace-cmd's version), or NULL.
 */
const gchar *
gst_ctf_trace_dat_get_tracer_version (GstCtfTraceDat * td)
{
  return td->tracer_version;
}

/**
 * gst_ctf_trace_dat_get_ts_offset:
 * @td: a file
 *
 * Returns: the offset in ns added to every converted timestamp: DATE
 *   option × 1000 plus OFFSET option.
 */
gint64
gst_ctf_trace_dat_get_ts_offset (GstCtfTraceDat * td)
{
  return td->ts_offset;
}

/**
 * gst_ctf_trace_dat_get_tsc2nsec:
 * @td: a file
 * @mult: (out) (optional): multiplier
 * @shift: (out) (optional): shift
 * @offset: (out) (optional): offset as stored (not applied by
 *   trace-cmd's reader, nor here)
 *
 * Returns: TRUE when the file has a TSC2NSEC option: then
 *   ns = (raw × @mult) >> @shift.
 */
gboolean
gst_ctf_trace_dat_get_tsc2nsec (GstCtfTraceDat * td, guint32 * mult,
    guint32 * shift, guint64 * offset)
{
  if (mult)
    *mult = td->tsc_mult;
  if (shift)
    *shift = td->tsc_shift;
  if (offset)
    *offset = td->tsc_offset;
  return td->has_tsc2nsec;
}

/**
 * gst_ctf_trace_dat_convert_ts:
 * @td: a file
 * @raw: a ring-buffer clock value
 *
 * Converts as trace-cmd's reader does (`timestamp_calc`): TSC2NSEC
 * (128-bit product, shifted) when present, then + DATE×1000 + OFFSET.
 *
 * Returns: the timestamp in ns.
 */
guint64
gst_ctf_trace_dat_convert_ts (GstCtfTraceDat * td, guint64 raw)
{
  guint64 ts = raw;

  if (td->has_tsc2nsec && td->tsc_mult) {
    /* mul_u64_u32_shr without overflow */
    guint64 lo = (raw & 0xffffffffu) * td->tsc_mult;
    guint64 hi = (raw >> 32) * td->tsc_mult;
    guint s = td->tsc_shift;

    if (s == 0)
      ts = lo + (hi << 32);
    else if (s <= 32)
      ts = (lo >> s) + (hi << (32 - s));
    else
      ts = (hi + (lo >> 32)) >> (s - 32);
  }
  return ts + (guint64) td->ts_offset;
}

/**
 * gst_ctf_trace_dat_get_options:
 * @td: a file
 * @n_options: (out): number of options
 *
 * Returns: (array length=n_options) (transfer none): every option in file
 *   order (DONE excluded), unknown ids included.
 */
const GstCtfTraceDatOption *
gst_ctf_trace_dat_get_options (GstCtfTraceDat * td, guint * n_options)
{
  *n_options = td->options->len;
  return (const GstCtfTraceDatOption *) td->options->data;
}

/**
 * gst_ctf_trace_dat_get_header_page:
 * @td: a file
 *
 * Returns: the text of `events/header_page`.
 */
const gchar *
gst_ctf_trace_dat_get_header_page (GstCtfTraceDat * td)
{
  return td->header_page;
}

/**
 * gst_ctf_trace_dat_get_header_event:
 * @td: a file
 *
 * Returns: the text of `events/header_event`.
 */
const gchar *
gst_ctf_trace_dat_get_header_event (GstCtfTraceDat * td)
{
  return td->header_event;
}

/**
 * gst_ctf_trace_dat_get_cmdlines:
 * @td: a file
 * @size: (out) (optional): its length in bytes
 *
 * Returns: (nullable): the saved cmdlines text (`PID COMM` lines), or
 *   NULL.
 */
const gchar *
gst_ctf_trace_dat_get_cmdlines (GstCtfTraceDat * td, gsize * size)
{
  if (size)
    *size = td->cmdlines_size;
  return td->cmdlines;
}

/**
 * gst_ctf_trace_dat_get_kallsyms:
 * @td: a file
 * @size: (out) (optional): its length in bytes
 *
 * Returns: (nullable): the `/proc/kallsyms` text, or NULL.
 */
const gchar *
gst_ctf_trace_dat_get_kallsyms (GstCtfTraceDat * td, gsize * size)
{
  return td_lazy_text_get (&td->kallsyms, size);
}

/**
 * gst_ctf_trace_dat_get_printk:
 * @td: a file
 * @size: (out) (optional): its length in bytes
 *
 * Returns: (nullable): the `printk_formats` text, or NULL.
 */
const gchar *
gst_ctf_trace_dat_get_printk (GstCtfTraceDat * td, gsize * size)
{
  return td_lazy_text_get (&td->printk, size);
}

/**
 * gst_ctf_trace_dat_lookup_comm:
 * @td: a file
 * @pid: a pid
 *
 * Looks a pid up in the saved cmdlines, as trace-cmd does: pid 0 is
 * `<idle>`, an unknown pid `<...>`.
 *
 * Returns: the command name.
 */
const gchar *
gst_ctf_trace_dat_lookup_comm (GstCtfTraceDat * td, gint pid)
{
  const gchar *comm;

  if (pid == 0)
    return "<idle>";
  comm = g_hash_table_lookup (td->comm_by_pid, GINT_TO_POINTER (pid));
  return comm ? comm : "<...>";
}

/**
 * gst_ctf_trace_dat_get_n_event_formats:
 * @td: a file
 *
 * Returns: the number of event formats (ftrace's own and all systems').
 */
guint
gst_ctf_trace_dat_get_n_event_formats (GstCtfTraceDat * td)
{
  return td->formats->len;
}

/**
 * gst_ctf_trace_dat_get_nth_event_format:
 * @td: a file
 * @n: index, < gst_ctf_trace_dat_get_n_event_formats()
 *
 * Returns: (transfer none): the format, in file order.
 */
const GstCtfTraceDatEventFormat *
gst_ctf_trace_dat_get_nth_event_format (GstCtfTraceDat * td, guint n)
{
  g_return_val_if_fail (n < td->formats->len, NULL);
  return g_ptr_array_index (td->formats, n);
}

/**
 * gst_ctf_trace_dat_get_event_format:
 * @td: a file
 * @id: an event id (a record's `common_type`)
 *
 * Constant-time lookup.
 *
 * Returns: (transfer none) (nullable): the format, or NULL.
 */
const GstCtfTraceDatEventFormat *
gst_ctf_trace_dat_get_event_format (GstCtfTraceDat * td, guint id)
{
  return id < 65536 ? td->format_by_id[id] : NULL;
}

/**
 * gst_ctf_trace_dat_find_event_format:
 * @td: a file
 * @system: (nullable): event system, or NULL for any
 * @name: event name
 *
 * Returns: (transfer none) (nullable): the first matching format.
 */
const GstCtfTraceDatEventFormat *
gst_ctf_trace_dat_find_event_format (GstCtfTraceDat * td,
    const gchar * system, const gchar * name)
{
  guint i;

  for (i = 0; i < td->formats->len; i++) {
    GstCtfTraceDatEventFormat *f = g_ptr_array_index (td->formats, i);
    if (strcmp (f->name, name) == 0 && (!system
            || strcmp (f->system, system) == 0))
      return f;
  }
  return NULL;
}

/**
 * gst_ctf_trace_dat_get_n_buffers:
 * @td: a file
 *
 * Returns: the number of buffers: the top-level one (index 0 when the
 *   file has flyrecord data at top level) and the instances.
 */
guint
gst_ctf_trace_dat_get_n_buffers (GstCtfTraceDat * td)
{
  return td->buffers->len;
}

/**
 * gst_ctf_trace_dat_get_buffer:
 * @td: a file
 * @index: < gst_ctf_trace_dat_get_n_buffers()
 *
 * Returns: (transfer none) (nullable): the buffer, or NULL.
 */
const GstCtfTraceDatBuffer *
gst_ctf_trace_dat_get_buffer (GstCtfTraceDat * td, guint index)
{
  if (index >= td->buffers->len)
    return NULL;
  return g_ptr_array_index (td->buffers, index);
}

/**
 * gst_ctf_trace_dat_field_read_int:
 * @td: a file (for its byte order)
 * @field: a non-array field of 1, 2, 4 or 8 bytes
 * @data: (array length=size): a record
 * @size: the record size
 * @value: (out): the value; sign-extended to 64 bits for signed fields
 *
 * Returns: FALSE when the field does not fit in the record or has another
 *   size.
 */
gboolean
gst_ctf_trace_dat_field_read_int (GstCtfTraceDat * td,
    const GstCtfTraceDatField * field, const guint8 * data, gsize size,
    guint64 * value)
{
  guint64 v;
  guint n = field->size;

  if ((n != 1 && n != 2 && n != 4 && n != 8) || field->offset > size
      || n > size - field->offset)
    return FALSE;
  v = td_read_n (td->byte_order, data + field->offset, n);
  if ((field->flags & GST_CTF_TRACE_DAT_FIELD_SIGNED) && n < 8
      && (v >> (n * 8 - 1)) & 1)
    v |= ~((1ull << (n * 8)) - 1);
  *value = v;
  return TRUE;
}

/**
 * gst_ctf_trace_dat_field_get_dynamic:
 * @td: a file
 * @field: a `__data_loc` / `__rel_loc` field, or a static array
 * @data: (array length=size): a record
 * @size: the record size
 * @offset: (out): where the array starts in the record
 * @length: (out): its length in bytes
 *
 * Decodes a dynamic array location word: low 16 bits the offset (from the
 * record start, or from the end of the word for `__rel_loc`), high 16 bits
 * the length; a 2-byte location is an offset only, the array running to
 * the end of the record.  A static array declared without a size
 * (`char buf[]`, size 0) also runs to the end of the record.  Like libtraceevent, a location outside the
 * record gives a length of 0.
 *
 * Returns: FALSE when the location word itself does not fit.
 */
gboolean
gst_ctf_trace_dat_field_get_dynamic (GstCtfTraceDat * td,
    const GstCtfTraceDatField * field, const guint8 * data, gsize size,
    guint * offset, guint * length)
{
  guint32 w;
  guint off, len;

  if (!(field->flags & GST_CTF_TRACE_DAT_FIELD_DYNAMIC)) {
    if (field->offset > size || field->size > size - field->offset)
      return FALSE;
    *offset = field->offset;
    *length = field->size;
    /* `char buf[]` (size 0, ftrace's print): to the end of the record */
    if (field->size == 0 && (field->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY))
      *length = (guint) (size - field->offset);
    return TRUE;
  }
  if (field->size == 2) {
    if (field->offset > size || 2 > size - field->offset)
      return FALSE;
    off = td_read16 (td->byte_order, data + field->offset);
    len = off <= size ? (guint) (size - off) : 0;
  } else {
    if (field->offset > size || 4 > size - field->offset)
      return FALSE;
    w = td_read32 (td->byte_order, data + field->offset);
    off = w & 0xffff;
    len = w >> 16;
  }
  if (field->flags & GST_CTF_TRACE_DAT_FIELD_RELATIVE)
    off += field->offset + field->size;
  if (off > size || len > size - off) {
    off = MIN (off, (guint) size);
    len = 0;
  }
  *offset = off;
  *length = len;
  return TRUE;
}
