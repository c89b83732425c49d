/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat file structure: the common header, the v6 fixed order
 * (trace-cmd.dat.v6(5)) and the v7 sections and options
 * (trace-cmd.dat.v7(5)).
 *
 * v6: header_page, header_event, ftrace formats, event formats, kallsyms,
 * printk formats, saved cmdlines, CPU count, then optionally "options  \0"
 * (options end with id 0 and no size), then "flyrecord\0" (per CPU u64
 * offset + u64 size) or "latency  \0" (text).
 * v7: compression header and the offset of the first options section;
 * sections {u16 id, u16 flags, u32 description string id, u64 size}
 * anywhere, compressed ones starting with {u32 compressed, u32 inflated};
 * options sections chain through the DONE option's offset.
 *
 * The accessors of the parsed file are in gsttracecmd-accessors.c.
 */
#include "gsttracecmd-private.h"

#include <stdlib.h>

#define SEC_FL_COMPRESS 1

typedef struct {
  const guint8 *data;
  gsize size;
  gsize pos;
  guint64 file_offset;          /* file offset of data[0], or G_MAXUINT64 */
  const gchar *what;            /* what is being read, for messages */
} Cursor;

static void
cursor_init (Cursor * c, const guint8 * data, gsize size, guint64 file_offset,
    const gchar * what)
{
  c->data = data;
  c->size = size;
  c->pos = 0;
  c->file_offset = file_offset;
  c->what = what;
}

static guint64
cursor_offset (const Cursor * c)
{
  if (c->file_offset == G_MAXUINT64)
    return c->pos;
  return c->file_offset + c->pos;
}

static gboolean
cursor_need (GstCtfTraceDat * td, Cursor * c, gsize n, const gchar * expected,
    GError ** error)
{
  if (c->size - c->pos >= n)
    return TRUE;
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
      "Cannot read %s: file=\"%s\", offset=%" G_GUINT64_FORMAT "%s, "
      "expected=%s (%" G_GSIZE_FORMAT " bytes), remaining=%" G_GSIZE_FORMAT,
      c->what, td->origin, cursor_offset (c),
      c->file_offset == G_MAXUINT64 ? " (in inflated section)" : "",
      expected, n, c->size - c->pos);
  return FALSE;
}

static gboolean
cursor_u16 (GstCtfTraceDat * td, Cursor * c, guint16 * v, const gchar * what,
    GError ** error)
{
  if (!cursor_need (td, c, 2, what, error))
    return FALSE;
  *v = td_read16 (td->byte_order, c->data + c->pos);
  c->pos += 2;
  return TRUE;
}

static gboolean
cursor_u32 (GstCtfTraceDat * td, Cursor * c, guint32 * v, const gchar * what,
    GError ** error)
{
  if (!cursor_need (td, c, 4, what, error))
    return FALSE;
  *v = td_read32 (td->byte_order, c->data + c->pos);
  c->pos += 4;
  return TRUE;
}

static gboolean
cursor_u64 (GstCtfTraceDat * td, Cursor * c, guint64 * v, const gchar * what,
    GError ** error)
{
  if (!cursor_need (td, c, 8, what, error))
    return FALSE;
  *v = td_read64 (td->byte_order, c->data + c->pos);
  c->pos += 8;
  return TRUE;
}

static gboolean
cursor_bytes (GstCtfTraceDat * td, Cursor * c, guint64 n,
    const guint8 ** out, const gchar * what, GError ** error)
{
  if (n > c->size - c->pos) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Cannot read %s: file=\"%s\", offset=%" G_GUINT64_FORMAT "%s, "
        "expected=%s (%" G_GUINT64_FORMAT " bytes), remaining=%"
        G_GSIZE_FORMAT, c->what, td->origin, cursor_offset (c),
        c->file_offset == G_MAXUINT64 ? " (in inflated section)" : "",
        what, n, c->size - c->pos);
    return FALSE;
  }
  *out = c->data + c->pos;
  c->pos += n;
  return TRUE;
}

/* A NUL-terminated string inside the cursor. */
static gboolean
cursor_string (GstCtfTraceDat * td, Cursor * c, const gchar ** out,
    const gchar * what, GError ** error)
{
  const guint8 *nul = memchr (c->data + c->pos, 0, c->size - c->pos);

  if (!nul) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Cannot read %s: file=\"%s\", offset=%" G_GUINT64_FORMAT
        ", expected=NUL-terminated %s", c->what, td->origin,
        cursor_offset (c), what);
    return FALSE;
  }
  *out = (const gchar *) c->data + c->pos;
  c->pos = nul - c->data + 1;
  return TRUE;
}

static gboolean
cursor_tag (GstCtfTraceDat * td, Cursor * c, const gchar * tag, gsize len,
    GError ** error)
{
  if (!cursor_need (td, c, len, tag, error))
    return FALSE;
  if (memcmp (c->data + c->pos, tag, len) != 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Cannot read %s: file=\"%s\", offset=%" G_GUINT64_FORMAT
        ", expected-tag=\"%s\"", c->what, td->origin, cursor_offset (c), tag);
    return FALSE;
  }
  c->pos += len;
  return TRUE;
}

static gchar *
dup_text (const guint8 * data, gsize size)
{
  /* options and files are NUL-terminated text, sometimes not */
  gsize n = size;
  const guint8 *nul = memchr (data, 0, size);

  if (nul)
    n = nul - data;
  return g_strndup ((const gchar *) data, n);
}

/* ---- v7 sections -------------------------------------------------- */

/* Reads the section at @offset; @data/@size is its (inflated) content. */
static gboolean
load_section (GstCtfTraceDat * td, guint64 offset, gint expect_id,
    const guint8 ** data, gsize * size, guint * flags_out, GError ** error)
{
  Cursor c;
  guint16 id, flags;
  guint32 desc;
  guint64 sz;
  const guint8 *content;

  if (offset > td->file_size) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Section offset past the end of the file: file=\"%s\", offset=%"
        G_GUINT64_FORMAT ", file-size=%" G_GSIZE_FORMAT, td->origin, offset,
        td->file_size);
    return FALSE;
  }
  cursor_init (&c, td->base + offset, td->file_size - offset, offset,
      "section header");
  if (!cursor_u16 (td, &c, &id, "section id", error)
      || !cursor_u16 (td, &c, &flags, "section flags", error)
      || !cursor_u32 (td, &c, &desc, "section description", error)
      || !cursor_u64 (td, &c, &sz, "section size", error))
    return FALSE;
  if (expect_id >= 0 && id != expect_id) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Unexpected section: file=\"%s\", offset=%" G_GUINT64_FORMAT
        ", expected-id=%d, id=%u", td->origin, offset, expect_id, id);
    return FALSE;
  }
  c.what = "section";
  if (!cursor_bytes (td, &c, sz, &content, "section content", error))
    return FALSE;
  if (flags_out)
    *flags_out = flags;
  if (!(flags & SEC_FL_COMPRESS)) {
    *data = content;
    *size = sz;
    return TRUE;
  } else {
    guint32 csize, usize;
    guint8 *out;
    Cursor cc;

    if (td->compression == GST_CTF_TRACE_DAT_COMPRESSION_NONE) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
          "Compressed section in a file without compression: file=\"%s\", "
          "offset=%" G_GUINT64_FORMAT, td->origin, offset);
      return FALSE;
    }
    cursor_init (&cc, content, sz, offset + 16, "compressed section");
    if (!cursor_u32 (td, &cc, &csize, "compressed size", error)
        || !cursor_u32 (td, &cc, &usize, "inflated size", error))
      return FALSE;
    if (csize > cc.size - cc.pos || usize > TD_MAX_SECTION_SIZE
        || !TD_INFLATE_PLAUSIBLE (csize, usize)) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
          "Bad compressed section sizes: file=\"%s\", offset=%"
          G_GUINT64_FORMAT ", compressed-size=%u, available=%" G_GSIZE_FORMAT
          ", inflated-size=%u, max-inflated-size=%u", td->origin, offset,
          csize, cc.size - cc.pos, usize, TD_MAX_SECTION_SIZE);
      return FALSE;
    }
    out = g_malloc (usize ? usize : 1);
    if (!td_decompress (td->compression, NULL, cc.data + cc.pos, csize, out,
            usize, td->origin, offset + 24, error)) {
      g_free (out);
      return FALSE;
    }
    g_ptr_array_add (td->owned, out);
    *data = out;
    *size = usize;
    return TRUE;
  }
}

/* ---- metadata blocks common to v6 and v7 ------------------------------ */

static gboolean
read_sized_text (GstCtfTraceDat * td, Cursor * c, gchar ** out,
    gsize * out_size, const gchar * what, GError ** error)
{
  guint64 n;
  const guint8 *p;

  if (!cursor_u64 (td, c, &n, what, error)
      || !cursor_bytes (td, c, n, &p, what, error))
    return FALSE;
  g_free (*out);
  *out = g_strndup ((const gchar *) p, n);
  if (out_size)
    *out_size = strlen (*out);
  return TRUE;
}

/* Like read_sized_text() for a text copied only when asked for (the
 * bytes stay valid as long as @td: its mapping, or an inflated section in
 * td->owned). */
static gboolean
read_lazy_text (GstCtfTraceDat * td, Cursor * c, TdLazyText * out,
    const gchar * what, GError ** error)
{
  guint32 n;
  const guint8 *p;

  if (!cursor_u32 (td, c, &n, what, error)
      || !cursor_bytes (td, c, n, &p, what, error))
    return FALSE;
  out->raw = p != NULL ? p : (const guint8 *) "";
  out->raw_size = n;
  return TRUE;
}

const gchar *
td_lazy_text_get (TdLazyText * t, gsize * size)
{
  if (t->raw == NULL) {
    if (size)
      *size = 0;
    return NULL;
  }
  if (g_once_init_enter (&t->text)) {
    gchar *text = g_strndup ((const gchar *) t->raw, t->raw_size);

    t->size = strlen (text);
    g_once_init_leave (&t->text, text);
  }
  if (size)
    *size = t->size;
  return t->text;
}

static gboolean
read_headers (GstCtfTraceDat * td, Cursor * c, GError ** error)
{
  c->what = "header_page";
  if (!cursor_tag (td, c, "header_page", 12, error)
      || !read_sized_text (td, c, &td->header_page, NULL,
          "header_page text", error))
    return FALSE;
  c->what = "header_event";
  if (!cursor_tag (td, c, "header_event", 13, error)
      || !read_sized_text (td, c, &td->header_event, NULL,
          "header_event text", error))
    return FALSE;
  if (!td_parse_header_page (td->header_page, strlen (td->header_page),
          &td->kernel_long_size, &td->page_data_offset)) {
    /* very old kernels: fall back to the user-space long */
    td->kernel_long_size = td->long_size;
    td->page_data_offset = 8 + td->long_size;
  }
  if ((td->kernel_long_size != 4 && td->kernel_long_size != 8)
      || td->page_data_offset < 8 + td->kernel_long_size) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Unsupported header_page: file=\"%s\", commit-size=%u, "
        "data-offset=%u", td->origin, td->kernel_long_size,
        td->page_data_offset);
    return FALSE;
  }
  if (!strstr (td->header_event, "type_len")) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Unsupported ring-buffer format (pre-2.6.31 header_event): "
        "file=\"%s\"", td->origin);
    return FALSE;
  }
  return TRUE;
}

static gboolean
add_format (GstCtfTraceDat * td, const guint8 * text, guint64 len,
    const gchar * system, GError ** error)
{
  GstCtfTraceDatEventFormat *fmt;

  if (td->formats->len >= TD_MAX_EVENTS) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Too many event formats: file=\"%s\", max=%u", td->origin,
        TD_MAX_EVENTS);
    return FALSE;
  }
  fmt = gst_ctf_trace_dat_event_format_parse ((const gchar *) text, len,
      system, td->kernel_long_size, error);
  if (!fmt) {
    g_prefix_error (error, "In file \"%s\": ", td->origin);
    return FALSE;
  }
  g_ptr_array_add (td->formats, fmt);
  return TRUE;
}

static gboolean
read_ftrace_formats (GstCtfTraceDat * td, Cursor * c, GError ** error)
{
  guint32 n, i;

  c->what = "ftrace event formats";
  if (!cursor_u32 (td, c, &n, "format count", error))
    return FALSE;
  for (i = 0; i < n; i++) {
    guint64 sz;
    const guint8 *p;

    if (!cursor_u64 (td, c, &sz, "format size", error)
        || !cursor_bytes (td, c, sz, &p, "format text", error)
        || !add_format (td, p, sz, "ftrace", error))
      return FALSE;
  }
  return TRUE;
}

static gboolean
read_event_formats (GstCtfTraceDat * td, Cursor * c, GError ** error)
{
  guint32 nsys, s;

  c->what = "event formats";
  if (!cursor_u32 (td, c, &nsys, "system count", error))
    return FALSE;
  for (s = 0; s < nsys; s++) {
    const gchar *sys;
    guint32 n, i;

    if (!cursor_string (td, c, &sys, "system name", error)
        || !cursor_u32 (td, c, &n, "event count", error))
      return FALSE;
    for (i = 0; i < n; i++) {
      guint64 sz;
      const guint8 *p;

      if (!cursor_u64 (td, c, &sz, "format size", error)
          || !cursor_bytes (td, c, sz, &p, "format text", error)
          || !add_format (td, p, sz, sys, error))
        return FALSE;
    }
  }
  return TRUE;
}

static void
parse_cmdlines (GstCtfTraceDat * td)
{
  gchar *p;

  td->comms = g_strdup (td->cmdlines);
  p = td->comms;
  /* saved_cmdlines: "PID COMM\n" lines; COMM may contain spaces */
  while (p && *p) {
    gchar *eol = strchr (p, '\n');
    gchar *end;
    glong pid;

    if (eol)
      *eol = '\0';
    pid = strtol (p, &end, 10);
    if (end != p && *end == ' ' && pid > 0 && pid <= G_MAXINT)
      g_hash_table_insert (td->comm_by_pid, GINT_TO_POINTER ((gint) pid),
          end + 1);
    if (!eol)
      break;
    p = eol + 1;
  }
}

/* ---- options ---------------------------------------------------------- */

static gboolean
parse_buffer_option (GstCtfTraceDat * td, const GstCtfTraceDatOption * o,
    GError ** error)
{
  GstCtfTraceDatBuffer *b;
  Cursor c;
  guint64 offset;
  const gchar *name, *clock = NULL;

  cursor_init (&c, o->data, o->size, G_MAXUINT64, "BUFFER option");
  if (!cursor_u64 (td, &c, &offset, "buffer offset", error)
      || !cursor_string (td, &c, &name, "buffer name", error))
    return FALSE;
  b = g_new0 (GstCtfTraceDatBuffer, 1);
  b->name = g_strdup (name);
  b->page_size = td->page_size;
  g_ptr_array_add (td->buffers, b);

  if (td->version < 7) {
    /* v6 instance: at @offset, optionally "flyrecord\0", then per CPU
     * u64 offset + u64 size for the file's CPU count */
    Cursor d;
    guint i;

    if (offset > td->file_size)
      goto bad;
    cursor_init (&d, td->base + offset, td->file_size - offset, offset,
        "buffer instance CPU table");
    if (d.size >= 10 && memcmp (d.data, "flyrecord", 10) == 0)
      d.pos = 10;
    if (td->n_cpus > TD_MAX_CPUS)
      goto bad;
    b->n_cpus = td->n_cpus;
    b->cpus = g_new0 (GstCtfTraceDatCpuData, b->n_cpus ? b->n_cpus : 1);
    for (i = 0; i < b->n_cpus; i++) {
      b->cpus[i].cpu = i;
      if (!cursor_u64 (td, &d, &b->cpus[i].offset, "CPU data offset", error)
          || !cursor_u64 (td, &d, &b->cpus[i].size, "CPU data size", error))
        return FALSE;
    }
    b->clock = g_strdup (td->clock);
    return TRUE;
  }

  if (!cursor_string (td, &c, &clock, "buffer clock", error))
    return FALSE;
  b->clock = g_strdup (clock);
  if (o->id == GST_CTF_TRACE_DAT_OPTION_BUFFER_TEXT) {
    b->latency = TRUE;
    return TRUE;
  } else {
    guint32 page_size, ncpu, i;
    guint flags;

    /* trace-cmd ≥ 3.0 writes the page size before the CPU count; the
     * option's size tells the two layouts apart */
    if (!cursor_u32 (td, &c, &page_size, "buffer page size", error))
      return FALSE;
    if (c.size - c.pos == (gsize) page_size * 20) {
      ncpu = page_size;
      page_size = td->page_size;
    } else if (!cursor_u32 (td, &c, &ncpu, "buffer CPU count", error))
      return FALSE;
    if (ncpu > TD_MAX_CPUS || page_size < td->page_data_offset
        || page_size > TD_MAX_PAGE_SIZE)
      goto bad;
    b->page_size = page_size;
    b->n_cpus = ncpu;
    b->cpus = g_new0 (GstCtfTraceDatCpuData, ncpu ? ncpu : 1);
    for (i = 0; i < ncpu; i++) {
      guint32 cpu;

      if (!cursor_u32 (td, &c, &cpu, "CPU id", error)
          || !cursor_u64 (td, &c, &b->cpus[i].offset, "CPU data offset", error)
          || !cursor_u64 (td, &c, &b->cpus[i].size, "CPU data size", error))
        return FALSE;
      b->cpus[i].cpu = cpu;
      if (b->cpus[i].offset > td->file_size
          || b->cpus[i].size > td->file_size - b->cpus[i].offset)
        goto bad;
    }
    /* the flyrecord section header tells whether the data is stored in
     * compressed chunks (v7 "BUFFER FLYRECORD SECTION") */
    if (offset > td->file_size || td->file_size - offset < 16
        || td_read16 (td->byte_order, td->base + offset) !=
        GST_CTF_TRACE_DAT_OPTION_BUFFER)
      goto bad;
    flags = td_read16 (td->byte_order, td->base + offset + 2);
    b->compressed = (flags & SEC_FL_COMPRESS) != 0;
    return TRUE;
  }

bad:
  g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
      "Invalid BUFFER option: file=\"%s\", buffer=\"%s\", offset=%"
      G_GUINT64_FORMAT, td->origin, name, offset);
  return FALSE;
}

/* Reads options from @c.  v6: until id 0 (which has no size).  v7: until
 * DONE, whose u64 is returned in @next. */
static gboolean
read_options (GstCtfTraceDat * td, Cursor * c, guint64 * next,
    GError ** error)
{
  c->what = "options";
  *next = 0;
  for (;;) {
    guint16 id;
    guint32 size;
    const guint8 *p;
    GstCtfTraceDatOption o;

    if (td->version >= 7 && c->pos == c->size)
      return TRUE;              /* tolerate a missing DONE */
    if (!cursor_u16 (td, c, &id, "option id", error))
      return FALSE;
    if (td->version < 7 && id == GST_CTF_TRACE_DAT_OPTION_DONE)
      return TRUE;
    if (!cursor_u32 (td, c, &size, "option size", error)
        || !cursor_bytes (td, c, size, &p, "option data", error))
      return FALSE;
    if (id == GST_CTF_TRACE_DAT_OPTION_DONE) {
      if (size >= 8)
        *next = td_read64 (td->byte_order, p);
      return TRUE;
    }
    if (td->options->len >= 1u << 20) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
          "Too many options: file=\"%s\"", td->origin);
      return FALSE;
    }
    o.id = id;
    o.data = p;
    o.size = size;
    g_array_append_val (td->options, o);
  }
}

static gchar *
extract_clock (const gchar * text)
{
  const gchar *lb = strchr (text, '[');
  const gchar *rb = lb ? strchr (lb, ']') : NULL;

  if (!lb || !rb)
    return NULL;
  return g_strndup (lb + 1, rb - lb - 1);
}

/* Applies the options that change how the file reads (all versions). */
static gboolean
apply_options (GstCtfTraceDat * td, GError ** error)
{
  guint i;

  for (i = 0; i < td->options->len; i++) {
    const GstCtfTraceDatOption *o =
        &g_array_index (td->options, GstCtfTraceDatOption, i);
    gchar *s;

    switch (o->id) {
      case GST_CTF_TRACE_DAT_OPTION_DATE:
        /* "0x…" µs between the trace clock and gettimeofday
         * (trace-cmd-record(1) --date); the reader adds it ×1000 */
        s = dup_text (o->data, o->size);
        td->ts_offset += g_ascii_strtoll (s, NULL, 0) * 1000;
        g_free (s);
        break;
      case GST_CTF_TRACE_DAT_OPTION_OFFSET:
        s = dup_text (o->data, o->size);
        td->ts_offset += g_ascii_strtoll (s, NULL, 0);
        g_free (s);
        break;
      case GST_CTF_TRACE_DAT_OPTION_TSC2NSEC:
        if (o->size >= 16) {
          td->has_tsc2nsec = TRUE;
          td->tsc_mult = td_read32 (td->byte_order, o->data);
          td->tsc_shift = td_read32 (td->byte_order, o->data + 4);
          td->tsc_offset = td_read64 (td->byte_order, o->data + 8);
          if (td->tsc_shift > 63)
            td->tsc_shift = 63;
        }
        break;
      case GST_CTF_TRACE_DAT_OPTION_TRACECLOCK:
        s = dup_text (o->data, o->size);
        if (!td->clock)
          td->clock = extract_clock (s);
        g_free (s);
        break;
      case GST_CTF_TRACE_DAT_OPTION_UNAME:
        g_free (td->uname);
        td->uname = dup_text (o->data, o->size);
        g_strchomp (td->uname);
        break;
      case GST_CTF_TRACE_DAT_OPTION_VERSION:
        g_free (td->tracer_version);
        td->tracer_version = dup_text (o->data, o->size);
        g_strchomp (td->tracer_version);
        break;
      case GST_CTF_TRACE_DAT_OPTION_CPUCOUNT:
        if (o->size >= 4 && td->version >= 7)
          td->n_cpus = td_read32 (td->byte_order, o->data);
        break;
      default:
        break;
    }
  }
  /* buffers after the clock is known (v6 instances inherit it) */
  for (i = 0; i < td->options->len; i++) {
    const GstCtfTraceDatOption *o =
        &g_array_index (td->options, GstCtfTraceDatOption, i);

    if (o->id == GST_CTF_TRACE_DAT_OPTION_BUFFER
        || (o->id == GST_CTF_TRACE_DAT_OPTION_BUFFER_TEXT && td->version >= 7))
      if (!parse_buffer_option (td, o, error))
        return FALSE;
  }
  return TRUE;
}

/* ---- v6 ---------------------------------------------------------------- */

static gboolean
read_v6 (GstCtfTraceDat * td, Cursor * c, GError ** error)
{
  guint32 ncpus;
  GstCtfTraceDatBuffer *top;
  guint64 next;
  const guint8 *tag;
  guint i;

  if (!read_headers (td, c, error)
      || !read_ftrace_formats (td, c, error)
      || !read_event_formats (td, c, error))
    return FALSE;
  c->what = "kallsyms";
  if (!read_lazy_text (td, c, &td->kallsyms, "kallsyms", error))
    return FALSE;
  c->what = "printk formats";
  if (!read_lazy_text (td, c, &td->printk, "printk formats", error))
    return FALSE;
  c->what = "saved cmdlines";
  if (!read_sized_text (td, c, &td->cmdlines, &td->cmdlines_size,
          "saved cmdlines", error))
    return FALSE;
  c->what = "CPU count";
  if (!cursor_u32 (td, c, &ncpus, "CPU count", error))
    return FALSE;
  if (ncpus > TD_MAX_CPUS) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Too many CPUs: file=\"%s\", offset=%" G_GUINT64_FORMAT
        ", cpus=%u, max=%u", td->origin, cursor_offset (c) - 4, ncpus,
        TD_MAX_CPUS);
    return FALSE;
  }
  td->n_cpus = ncpus;

  /* top buffer first: instances come from BUFFER options */
  top = g_new0 (GstCtfTraceDatBuffer, 1);
  top->name = g_strdup ("");
  top->page_size = td->page_size;
  g_ptr_array_add (td->buffers, top);

  c->what = "data type tag";
  if (!cursor_bytes (td, c, 10, &tag, "options/latency/flyrecord tag", error))
    return FALSE;
  if (memcmp (tag, "options", 7) == 0) {
    if (!read_options (td, c, &next, error))
      return FALSE;
    c->what = "data type tag";
    if (!cursor_bytes (td, c, 10, &tag, "latency/flyrecord tag", error))
      return FALSE;
  }
  if (!apply_options (td, error))
    return FALSE;
  top->clock = g_strdup (td->clock);

  if (memcmp (tag, "latency", 7) == 0) {
    top->latency = TRUE;
    return TRUE;
  }
  if (memcmp (tag, "flyrecord", 10) != 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Cannot read data type tag: file=\"%s\", offset=%" G_GUINT64_FORMAT
        ", expected=\"flyrecord\" or \"latency\"", td->origin,
        cursor_offset (c) - 10);
    return FALSE;
  }
  c->what = "flyrecord CPU table";
  top->n_cpus = ncpus;
  top->cpus = g_new0 (GstCtfTraceDatCpuData, ncpus ? ncpus : 1);
  for (i = 0; i < ncpus; i++) {
    GstCtfTraceDatCpuData *cd = &top->cpus[i];

    cd->cpu = i;
    if (!cursor_u64 (td, c, &cd->offset, "CPU data offset", error)
        || !cursor_u64 (td, c, &cd->size, "CPU data size", error))
      return FALSE;
    if (cd->offset > td->file_size || cd->size > td->file_size - cd->offset) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
          "CPU data past the end of the file (truncated?): file=\"%s\", "
          "cpu=%u, offset=%" G_GUINT64_FORMAT ", size=%" G_GUINT64_FORMAT
          ", file-size=%" G_GSIZE_FORMAT, td->origin, i, cd->offset,
          cd->size, td->file_size);
      return FALSE;
    }
  }
  return TRUE;
}

/* ---- v7 ---------------------------------------------------------------- */

static gboolean
read_section_at (GstCtfTraceDat * td, guint id, GError ** error)
{
  guint i;
  guint64 offset = 0;
  gboolean found = FALSE;
  const guint8 *data;
  gsize size;
  Cursor c;

  for (i = 0; i < td->options->len; i++) {
    const GstCtfTraceDatOption *o =
        &g_array_index (td->options, GstCtfTraceDatOption, i);
    if (o->id == id && o->size >= 8) {
      offset = td_read64 (td->byte_order, o->data);
      found = TRUE;
    }
  }
  if (!found) {
    if (id == GST_CTF_TRACE_DAT_OPTION_HEADER_INFO) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
          "No HEADER_INFO option: file=\"%s\"", td->origin);
      return FALSE;
    }
    return TRUE;                /* optional section */
  }
  if (!load_section (td, offset, id, &data, &size, NULL, error))
    return FALSE;
  cursor_init (&c, data, size, G_MAXUINT64, "section");
  switch (id) {
    case GST_CTF_TRACE_DAT_OPTION_HEADER_INFO:
      return read_headers (td, &c, error);
    case GST_CTF_TRACE_DAT_OPTION_FTRACE_EVENTS:
      return read_ftrace_formats (td, &c, error);
    case GST_CTF_TRACE_DAT_OPTION_EVENT_FORMATS:
      return read_event_formats (td, &c, error);
    case GST_CTF_TRACE_DAT_OPTION_KALLSYMS:
      c.what = "kallsyms";
      return read_lazy_text (td, &c, &td->kallsyms, "kallsyms", error);
    case GST_CTF_TRACE_DAT_OPTION_PRINTK:
      c.what = "printk formats";
      return read_lazy_text (td, &c, &td->printk, "printk formats", error);
    case GST_CTF_TRACE_DAT_OPTION_CMDLINES:
      c.what = "saved cmdlines";
      return read_sized_text (td, &c, &td->cmdlines,
          &td->cmdlines_size, "saved cmdlines", error);
    default:
      return TRUE;
  }
}

static gboolean
read_v7 (GstCtfTraceDat * td, Cursor * c, GError ** error)
{
  const gchar *name, *version;
  guint64 offset;
  guint n = 0;
  GHashTable *seen;
  gboolean ok = TRUE;

  c->what = "compression header";
  if (!cursor_string (td, c, &name, "compression name", error)
      || !cursor_string (td, c, &version, "compression version", error))
    return FALSE;
  td->compression_name = g_strdup (name);
  td->compression_version = g_strdup (version);
  if (strcmp (name, "none") == 0)
    td->compression = GST_CTF_TRACE_DAT_COMPRESSION_NONE;
  else if (strcmp (name, "zlib") == 0)
    td->compression = GST_CTF_TRACE_DAT_COMPRESSION_ZLIB;
  else if (strcmp (name, "zstd") == 0)
    td->compression = GST_CTF_TRACE_DAT_COMPRESSION_ZSTD;
  else {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Unsupported compression: file=\"%s\", compression=\"%s\", "
        "expected=none, zlib or zstd", td->origin, name);
    return FALSE;
  }
  if (!cursor_u64 (td, c, &offset, "first options section offset", error))
    return FALSE;

  /* chained options sections; a loop in the chain is an error */
  seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  while (offset != 0) {
    const guint8 *data;
    gsize size;
    Cursor oc;
    guint64 *key;

    if (g_hash_table_contains (seen, &offset) || ++n > TD_MAX_SECTIONS) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
          "Options sections form a loop: file=\"%s\", offset=%"
          G_GUINT64_FORMAT, td->origin, offset);
      ok = FALSE;
      break;
    }
    key = g_new (guint64, 1);
    *key = offset;
    g_hash_table_add (seen, key);
    if (!load_section (td, offset, GST_CTF_TRACE_DAT_OPTION_DONE, &data,
            &size, NULL, error)) {
      ok = FALSE;
      break;
    }
    cursor_init (&oc, data, size, G_MAXUINT64, "options");
    if (!read_options (td, &oc, &offset, error)) {
      ok = FALSE;
      break;
    }
  }
  g_hash_table_destroy (seen);
  if (!ok)
    return FALSE;

  if (!read_section_at (td, GST_CTF_TRACE_DAT_OPTION_HEADER_INFO, error)
      || !read_section_at (td, GST_CTF_TRACE_DAT_OPTION_FTRACE_EVENTS, error)
      || !read_section_at (td, GST_CTF_TRACE_DAT_OPTION_EVENT_FORMATS, error)
      || !read_section_at (td, GST_CTF_TRACE_DAT_OPTION_KALLSYMS, error)
      || !read_section_at (td, GST_CTF_TRACE_DAT_OPTION_PRINTK, error)
      || !read_section_at (td, GST_CTF_TRACE_DAT_OPTION_CMDLINES, error))
    return FALSE;
  return apply_options (td, error);
}

/* ---- open --------------------------------------------------------------- */

static gboolean
read_file (GstCtfTraceDat * td, GError ** error)
{
  Cursor c;
  const gchar *version;
  const guint8 *p;
  guint32 page_size;
  guint i;

  cursor_init (&c, td->base, td->file_size, 0, "trace.dat header");
  if (!cursor_need (td, &c, 10, "magic", error))
    return FALSE;
  if (memcmp (c.data, "\x17\x08\x44tracing", 10) != 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Cannot read trace.dat header: file=\"%s\", offset=0, "
        "expected-magic=17 08 44 \"tracing\"", td->origin);
    return FALSE;
  }
  c.pos = 10;
  if (!cursor_string (td, &c, &version, "version string", error))
    return FALSE;
  td->version = (guint) g_ascii_strtoull (version, NULL, 10);
  if (td->version < 6 || td->version > 7) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Unsupported trace.dat version: file=\"%s\", offset=10, "
        "version=\"%.16s\", expected=6 or 7", td->origin, version);
    return FALSE;
  }
  if (!cursor_bytes (td, &c, 2, &p, "endianness and long size", error))
    return FALSE;
  if (p[0] > 1 || (p[1] != 4 && p[1] != 8)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Cannot read trace.dat header: file=\"%s\", offset=%" G_GUINT64_FORMAT
        ", endianness=%u, long-size=%u, expected=endianness 0/1 and long "
        "size 4/8", td->origin, cursor_offset (&c) - 2, p[0], p[1]);
    return FALSE;
  }
  td->byte_order = p[0] ? GST_CTF_BYTE_ORDER_BE : GST_CTF_BYTE_ORDER_LE;
  td->long_size = p[1];
  if (!cursor_u32 (td, &c, &page_size, "page size", error))
    return FALSE;
  if (page_size < 32 || page_size > TD_MAX_PAGE_SIZE) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "Unsupported page size: file=\"%s\", offset=%" G_GUINT64_FORMAT
        ", page-size=%u", td->origin, cursor_offset (&c) - 4, page_size);
    return FALSE;
  }
  td->page_size = page_size;
  td->kernel_long_size = td->long_size;
  td->page_data_offset = 8 + td->long_size;

  if (td->version >= 7) {
    if (!read_v7 (td, &c, error))
      return FALSE;
  } else {
    td->compression_name = g_strdup ("none");
    if (!read_v6 (td, &c, error))
      return FALSE;
  }
  if (!td->header_page) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
        "No header_page in the file: file=\"%s\"", td->origin);
    return FALSE;
  }

  parse_cmdlines (td);

  /* event formats by id; the common_type field locates the id */
  td->format_by_id = g_new0 (GstCtfTraceDatEventFormat *, 65536);
  td->common_type_offset = 0;
  td->common_type_size = 2;
  for (i = 0; i < td->formats->len; i++) {
    GstCtfTraceDatEventFormat *f = g_ptr_array_index (td->formats, i);
    const GstCtfTraceDatField *ct;

    if (f->id < 65536 && !td->format_by_id[f->id])
      td->format_by_id[f->id] = f;
    if (i == 0 || td->common_type_size == 0) {
      ct = gst_ctf_trace_dat_event_format_find_field (f, "common_type");
      if (ct && (ct->size == 1 || ct->size == 2 || ct->size == 4)) {
        td->common_type_offset = ct->offset;
        td->common_type_size = ct->size;
      }
    }
  }
  return TRUE;
}

static void
buffer_free (gpointer p)
{
  GstCtfTraceDatBuffer *b = p;

  g_free (b->name);
  g_free (b->clock);
  g_free (b->cpus);
  g_free (b);
}

static GstCtfTraceDat *
trace_dat_new (const gchar * origin)
{
  GstCtfTraceDat *td = g_new0 (GstCtfTraceDat, 1);

  td->ref_count = 1;
  td->origin = g_strdup (origin);
  td->options = g_array_new (FALSE, FALSE, sizeof (GstCtfTraceDatOption));
  td->owned = g_ptr_array_new_with_free_func (g_free);
  td->comm_by_pid = g_hash_table_new (NULL, NULL);
  td->formats = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_trace_dat_event_format_free);
  td->buffers = g_ptr_array_new_with_free_func (buffer_free);
  return td;
}

/**
 * gst_ctf_trace_dat_open:
 * @path: (type filename): a trace.dat file
 * @error: return location for a #GError: %GST_CTF_ERROR_IO when the file
 *   cannot be opened or mapped, %GST_CTF_ERROR_TRACEDAT when it is not a
 *   valid trace.dat (the message names the file, the byte offset and
 *   what was expected)
 *
 * Opens a trace.dat file (version 6 or 7, uncompressed, zlib or zstd):
 * maps it and reads its header, options, event formats, kallsyms, printk
 * formats and saved cmdlines.  Ring-buffer data is read later, page by
 * page, by the iterators.
 *
 * Returns: (transfer full) (nullable): the file, or NULL on error.
 */
GstCtfTraceDat *
gst_ctf_trace_dat_open (const gchar * path, GError ** error)
{
  GError *err = NULL;
  GMappedFile *mf;
  GstCtfTraceDat *td;

  /* (mmap() of a directory fails with "No such device") */
  if (g_file_test (path, G_FILE_TEST_IS_DIR)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot open trace.dat file: file=\"%s\" is a directory, not a "
        "trace-cmd trace.dat file (ctfsrc reads CTF trace directories)", path);
    return NULL;
  }
  mf = g_mapped_file_new (path, FALSE, &err);
  if (!mf) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot open trace.dat file: file=\"%s\": %s", path, err->message);
    g_clear_error (&err);
    return NULL;
  }
  td = trace_dat_new (path);
  td->mapped = mf;
  td->base = (const guint8 *) g_mapped_file_get_contents (mf);
  td->file_size = g_mapped_file_get_length (mf);
  if (!td->base)
    td->base = (const guint8 *) "";
  if (!read_file (td, error)) {
    gst_ctf_trace_dat_unref (td);
    return NULL;
  }
  return td;
}

/**
 * gst_ctf_trace_dat_open_bytes:
 * @bytes: the whole file's bytes
 * @origin: (nullable): a name for messages (a path)
 * @error: return location for a %GST_CTF_ERROR_TRACEDAT error
 *
 * Like gst_ctf_trace_dat_open() for a file already in memory (tests,
 * fuzzing).  A reference to @bytes is kept.
 *
 * Returns: (transfer full) (nullable): the file, or NULL on error.
 */
GstCtfTraceDat *
gst_ctf_trace_dat_open_bytes (GBytes * bytes, const gchar * origin,
    GError ** error)
{
  GstCtfTraceDat *td = trace_dat_new (origin ? origin : "<memory>");
  gsize size;

  td->bytes = g_bytes_ref (bytes);
  td->base = g_bytes_get_data (bytes, &size);
  td->file_size = size;
  if (!td->base)
    td->base = (const guint8 *) "";
  if (!read_file (td, error)) {
    gst_ctf_trace_dat_unref (td);
    return NULL;
  }
  return td;
}

/**
 * gst_ctf_trace_dat_ref:
 * @td: a file
 *
 * Returns: (transfer full): @td
 */
GstCtfTraceDat *
gst_ctf_trace_dat_ref (GstCtfTraceDat * td)
{
  g_atomic_int_inc (&td->ref_count);
  return td;
}

/**
 * gst_ctf_trace_dat_unref:
 * @td: (transfer full): a file
 *
 * Drops a reference; the last one unmaps the file.
 */
void
gst_ctf_trace_dat_unref (GstCtfTraceDat * td)
{
  if (!td || !g_atomic_int_dec_and_test (&td->ref_count))
    return;
  g_free (td->origin);
  if (td->mapped)
    g_mapped_file_unref (td->mapped);
  if (td->bytes)
    g_bytes_unref (td->bytes);
  g_free (td->compression_name);
  g_free (td->compression_version);
  g_free (td->header_page);
  g_free (td->header_event);
  g_free (td->clock);
  g_free (td->uname);
  g_free (td->tracer_version);
  g_array_free (td->options, TRUE);
  g_ptr_array_free (td->owned, TRUE);
  g_hash_table_destroy (td->comm_by_pid);
  g_free (td->cmdlines);
  g_free (td->comms);
  g_free (td->kallsyms.text);
  g_free (td->printk.text);
  g_ptr_array_free (td->formats, TRUE);
  g_free (td->format_by_id);
  g_ptr_array_free (td->buffers, TRUE);
  g_free (td);
}

G_DEFINE_BOXED_TYPE (GstCtfTraceDat, gst_ctf_trace_dat, gst_ctf_trace_dat_ref,
    gst_ctf_trace_dat_unref)
