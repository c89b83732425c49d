/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests of the trace.dat reader (lib/tracecmd/).
 *
 * - Ring-buffer page parser on hand-made pages, little- and big-endian:
 *   TIME_EXTEND, TIME_STAMP with the page's 5 MSBs, PADDING, type_len 0
 *   lengths, MISSING_EVENTS with and without MISSING_STORED.
 * - Event format files: common fields, arrays, __data_loc, __rel_loc.
 * - Corrupt input: exact GError codes, no crash.
 * - Corpus oracle: every trace.dat of $GST_CTF_CORPUS/tracedat{,/public}
 *   against `trace-cmd report -R` (oracle/<f>.raw.txt): event for event,
 *   timestamp, CPU, event name, pid, comm and every field value; the
 *   "[N EVENTS DROPPED]" lines at the same places with the same counts.
 */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsttracecmd.h"
#include "gstctf-error.h"
#include "test-util.h"

/* ---- page builder --------------------------------------------------- */

typedef struct {
  guint8 buf[4096];
  guint len;                    /* bytes of event data written */
  GstCtfByteOrder bo;
  guint hdr;                    /* 16 (64-bit kernel) or 12 */
} PageBuilder;

static void
put32 (PageBuilder * b, guint off, guint32 v)
{
  if (b->bo == GST_CTF_BYTE_ORDER_LE) {
    b->buf[off] = v;
    b->buf[off + 1] = v >> 8;
    b->buf[off + 2] = v >> 16;
    b->buf[off + 3] = v >> 24;
  } else {
    b->buf[off] = v >> 24;
    b->buf[off + 1] = v >> 16;
    b->buf[off + 2] = v >> 8;
    b->buf[off + 3] = v;
  }
}

static void
put64 (PageBuilder * b, guint off, guint64 v)
{
  if (b->bo == GST_CTF_BYTE_ORDER_LE) {
    put32 (b, off, (guint32) v);
    put32 (b, off + 4, (guint32) (v >> 32));
  } else {
    put32 (b, off, (guint32) (v >> 32));
    put32 (b, off + 4, (guint32) v);
  }
}

static void
pb_init (PageBuilder * b, GstCtfByteOrder bo, guint hdr, guint64 ts)
{
  memset (b, 0, sizeof (*b));
  b->bo = bo;
  b->hdr = hdr;
  put64 (b, 0, ts);
}

static void
pb_word (PageBuilder * b, guint type_len, guint32 delta)
{
  guint32 w = b->bo == GST_CTF_BYTE_ORDER_LE ? (delta << 5) | type_len
      : (type_len << 27) | delta;
  put32 (b, b->hdr + b->len, w);
  b->len += 4;
}

static void
pb_u32 (PageBuilder * b, guint32 v)
{
  put32 (b, b->hdr + b->len, v);
  b->len += 4;
}

/* a data event with @n payload bytes, all set to @fill */
static void
pb_event (PageBuilder * b, guint32 delta, guint n, guint8 fill)
{
  guint padded = (n + 3) & ~3u;

  if (padded <= 28 * 4 && padded > 0) {
    pb_word (b, padded / 4, delta);
  } else {
    pb_word (b, 0, delta);
    pb_u32 (b, n + 4);
  }
  memset (b->buf + b->hdr + b->len, fill, n);
  b->len += padded;
}

static void
pb_commit (PageBuilder * b, guint64 flags)
{
  if (b->hdr == 16)
    put64 (b, 8, b->len | flags);
  else
    put32 (b, 8, (guint32) (b->len | flags));
}

static void
check_page_corner_cases (GstCtfByteOrder bo, guint hdr)
{
  PageBuilder b;
  GstCtfTraceDatPage page;
  GstCtfTraceDatPageRecord r;
  GError *err = NULL;
  const guint64 t0 = 0xf800000000001000ull;     /* top 5 bits set (TAI) */
  guint lost_at;

  pb_init (&b, bo, hdr, t0);
  pb_event (&b, 5, 8, 0xa1);    /* t0 + 5 */
  pb_word (&b, 30, 3);          /* TIME_EXTEND: (2 << 27) + 3 */
  pb_u32 (&b, 2);
  pb_event (&b, 7, 4, 0xa2);    /* + (2 << 27) + 3 + 7 */
  /* PADDING: a discarded event; its length word counts the bytes after
   * the header word (itself included) */
  pb_word (&b, 29, 9);
  pb_u32 (&b, 8);
  b.len += 4;
  pb_event (&b, 1, 200, 0xa3);  /* type_len 0, length word 204 */
  pb_word (&b, 31, 0x123);      /* TIME_STAMP: 59 bits + page MSBs */
  pb_u32 (&b, 0x40);
  pb_event (&b, 0, 3, 0xa4);    /* payload rounded up to 4 */
  lost_at = b.hdr + b.len;
  /* MISSING_EVENTS | MISSING_STORED, count 4242 after the data */
  pb_commit (&b, (1ull << 31) | (1ull << 30));
  if (hdr == 16)
    put64 (&b, lost_at, 4242);
  else
    put32 (&b, lost_at, 4242);

  fail_unless (gst_ctf_trace_dat_page_init (&page, b.buf, sizeof (b.buf), bo,
          hdr - 8, hdr, &err));
  fail_unless_equals_uint64 (page.timestamp, t0);
  fail_unless_equals_int (page.commit, b.len);
  fail_unless_equals_int64 (page.missed_events, 4242);

  fail_unless_equals_int (gst_ctf_trace_dat_page_next (&page, &r, &err), 1);
  fail_unless_equals_uint64 (r.timestamp, t0 + 5);
  fail_unless_equals_int (r.size, 8);
  fail_unless_equals_int (r.data[0], 0xa1);
  fail_unless_equals_int (r.offset, hdr + 4);
  fail_unless_equals_int64 (r.missed_events, 4242);

  fail_unless_equals_int (gst_ctf_trace_dat_page_next (&page, &r, &err), 1);
  fail_unless_equals_uint64 (r.timestamp, t0 + 5 + (2ull << 27) + 3 + 7);
  fail_unless_equals_int (r.size, 4);
  fail_unless_equals_int (r.data[0], 0xa2);
  fail_unless_equals_int64 (r.missed_events, 0);

  fail_unless_equals_int (gst_ctf_trace_dat_page_next (&page, &r, &err), 1);
  /* the padding's delta counts too (kbuffer does the same) */
  fail_unless_equals_uint64 (r.timestamp,
      t0 + 5 + (2ull << 27) + 3 + 7 + 9 + 1);
  fail_unless_equals_int (r.size, 200);
  fail_unless_equals_int (r.data[0], 0xa3);
  fail_unless_equals_int (r.data[199], 0xa3);

  fail_unless_equals_int (gst_ctf_trace_dat_page_next (&page, &r, &err), 1);
  fail_unless_equals_uint64 (r.timestamp,
      ((0x40ull << 27) + 0x123) | 0xf800000000000000ull);
  fail_unless_equals_int (r.size, 4);
  fail_unless_equals_int (r.data[0], 0xa4);

  fail_unless_equals_int (gst_ctf_trace_dat_page_next (&page, &r, &err), 0);
  fail_unless (err == NULL);

  /* MISSING_EVENTS without MISSING_STORED: count unknown */
  pb_commit (&b, 1ull << 31);
  fail_unless (gst_ctf_trace_dat_page_init (&page, b.buf, sizeof (b.buf), bo,
          hdr - 8, hdr, &err));
  fail_unless_equals_int64 (page.missed_events, -1);

  /* an event running past the commit is an error, not a crash */
  pb_init (&b, bo, hdr, 1);
  pb_event (&b, 0, 16, 0);
  b.len -= 4;
  pb_commit (&b, 0);
  fail_unless (gst_ctf_trace_dat_page_init (&page, b.buf, sizeof (b.buf), bo,
          hdr - 8, hdr, &err));
  fail_unless_equals_int (gst_ctf_trace_dat_page_next (&page, &r, &err), -1);
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT));
  g_clear_error (&err);

  /* a commit larger than the page */
  pb_init (&b, bo, hdr, 1);
  b.len = 4090;
  pb_commit (&b, 0);
  fail_if (gst_ctf_trace_dat_page_init (&page, b.buf, sizeof (b.buf), bo,
          hdr - 8, hdr, &err));
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT));
  g_clear_error (&err);

  /* a zero length word (type_len 0, length < 4) */
  pb_init (&b, bo, hdr, 1);
  pb_word (&b, 0, 0);
  pb_u32 (&b, 2);
  pb_commit (&b, 0);
  fail_unless (gst_ctf_trace_dat_page_init (&page, b.buf, sizeof (b.buf), bo,
          hdr - 8, hdr, &err));
  fail_unless_equals_int (gst_ctf_trace_dat_page_next (&page, &r, &err), -1);
  g_clear_error (&err);

  /* trailing padding shorter than its length word ends the page */
  pb_init (&b, bo, hdr, 1);
  pb_event (&b, 2, 4, 0x11);
  pb_word (&b, 29, 0);
  pb_commit (&b, 0);
  fail_unless (gst_ctf_trace_dat_page_init (&page, b.buf, sizeof (b.buf), bo,
          hdr - 8, hdr, &err));
  fail_unless_equals_int (gst_ctf_trace_dat_page_next (&page, &r, &err), 1);
  fail_unless_equals_int (gst_ctf_trace_dat_page_next (&page, &r, &err), 0);
}

START_TEST (test_page_le64)
{
  check_page_corner_cases (GST_CTF_BYTE_ORDER_LE, 16);
}
END_TEST

START_TEST (test_page_be64)
{
  check_page_corner_cases (GST_CTF_BYTE_ORDER_BE, 16);
}
END_TEST

START_TEST (test_page_le32)
{
  check_page_corner_cases (GST_CTF_BYTE_ORDER_LE, 12);
}
END_TEST

START_TEST (test_page_be32)
{
  check_page_corner_cases (GST_CTF_BYTE_ORDER_BE, 12);
}
END_TEST

/* ---- format files ---------------------------------------------------- */

static const gchar sample_format[] =
    "name: sample\n"
    "ID: 1234\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:0;\n"
    "\tfield:__rel_loc u8[] blob;\toffset:28;\tsize:4;\tsigned:0;\n"
    "\tfield:void * ptr;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long ip;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\tfield:u32 cpus[4];\toffset:48;\tsize:16;\tsigned:0;\n"
    "\tfield:s16 delta;\toffset:64;\tsize:2;\tsigned:1;\n"
    "\n"
    "print fmt: \"comm=%s name=%s\", REC->comm, __get_str(name)\n";

START_TEST (test_format_parse)
{
  GError *err = NULL;
  GstCtfTraceDatEventFormat *f =
      gst_ctf_trace_dat_event_format_parse (sample_format,
      strlen (sample_format), "test", 8, &err);
  const GstCtfTraceDatField *fl;

  ck_assert_msg (f != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (f->id, 1234);
  fail_unless_equals_string (f->name, "sample");
  fail_unless_equals_string (f->system, "test");
  fail_unless_equals_int (f->n_common_fields, 4);
  fail_unless_equals_int (f->n_fields, 7);
  fail_unless_equals_string (f->common_fields[3].name, "common_pid");
  fail_unless (f->common_fields[3].flags & GST_CTF_TRACE_DAT_FIELD_SIGNED);

  fl = &f->fields[0];
  fail_unless_equals_string (fl->name, "comm");
  fail_unless_equals_string (fl->type, "char");
  fail_unless_equals_int (fl->array_len, 16);
  fail_unless_equals_int (fl->elem_size, 1);
  fail_unless_equals_int (fl->flags, GST_CTF_TRACE_DAT_FIELD_ARRAY |
      GST_CTF_TRACE_DAT_FIELD_STRING);

  fl = &f->fields[1];
  fail_unless_equals_string (fl->name, "name");
  fail_unless_equals_string (fl->type, "__data_loc char[]");
  fail_unless_equals_int (fl->flags, GST_CTF_TRACE_DAT_FIELD_ARRAY |
      GST_CTF_TRACE_DAT_FIELD_STRING | GST_CTF_TRACE_DAT_FIELD_DYNAMIC);

  fl = &f->fields[2];
  fail_unless_equals_string (fl->name, "blob");
  fail_unless (fl->flags & GST_CTF_TRACE_DAT_FIELD_RELATIVE);

  fl = &f->fields[3];
  fail_unless_equals_string (fl->name, "ptr");
  fail_unless_equals_string (fl->type, "void *");
  fail_unless (fl->flags & GST_CTF_TRACE_DAT_FIELD_POINTER);

  fl = &f->fields[4];
  fail_unless (fl->flags & GST_CTF_TRACE_DAT_FIELD_LONG);

  fl = &f->fields[5];
  fail_unless_equals_int (fl->array_len, 4);
  fail_unless_equals_int (fl->elem_size, 4);
  fail_unless (!(fl->flags & GST_CTF_TRACE_DAT_FIELD_STRING));

  fl = &f->fields[6];
  fail_unless_equals_string (fl->name, "delta");
  fail_unless (fl->flags & GST_CTF_TRACE_DAT_FIELD_SIGNED);
  fail_unless_equals_string (f->print_fmt,
      "\"comm=%s name=%s\", REC->comm, __get_str(name)");
  gst_ctf_trace_dat_event_format_free (f);

  /* a field line without offset */
  f = gst_ctf_trace_dat_event_format_parse ("name: x\nID: 1\nformat:\n"
      "\tfield:int a;\tsize:4;\n", 37, NULL, 8, &err);
  fail_unless (f == NULL);
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT));
  g_clear_error (&err);
}
END_TEST

/* ---- corrupt files --------------------------------------------------- */

static void
expect_open_error (const guint8 * data, gsize size, gint code)
{
  GBytes *bytes = g_bytes_new (data, size);
  GError *err = NULL;
  GstCtfTraceDat *td = gst_ctf_trace_dat_open_bytes (bytes, "bad.dat", &err);

  fail_unless (td == NULL);
  ck_assert_msg (g_error_matches (err, GST_CTF_ERROR, code), "%s",
      err ? err->message : "no error");
  ck_assert_msg (strstr (err->message, "bad.dat") != NULL, "%s", err->message);
  g_clear_error (&err);
  g_bytes_unref (bytes);
}

START_TEST (test_bad_files)
{
  static const guint8 not_tracedat[] = "hello world, not a trace.dat file";
  static const guint8 v5[] = "\x17\x08\x44tracing5\0\0\x08\0\x10\0\0";
  static const guint8 trunc6[] = "\x17\x08\x44tracing6\0\0\x08\0\x10\0\0"
      "header_page\0\xff\xff";
  static const guint8 badcomp[] = "\x17\x08\x44tracing7\0\0\x08\0\x10\0\0"
      "lz4\0" "1.0\0\0\0\0\0\0\0\0\0";
  GError *err = NULL;

  expect_open_error (not_tracedat, sizeof (not_tracedat),
      GST_CTF_ERROR_TRACEDAT);
  expect_open_error (v5, sizeof (v5) - 1, GST_CTF_ERROR_TRACEDAT);
  expect_open_error (trunc6, sizeof (trunc6) - 1, GST_CTF_ERROR_TRACEDAT);
  expect_open_error (badcomp, sizeof (badcomp) - 1, GST_CTF_ERROR_TRACEDAT);
  expect_open_error (not_tracedat, 0, GST_CTF_ERROR_TRACEDAT);

  fail_unless (gst_ctf_trace_dat_open ("/nonexistent/trace.dat", &err) ==
      NULL);
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_IO));
  g_clear_error (&err);

  /* a directory is named as such (mmap() said "No such device") */
  {
    gchar *dir = g_dir_make_tmp ("tracecmd-dir-XXXXXX", NULL);

    fail_unless (gst_ctf_trace_dat_open (dir, &err) == NULL);
    fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_IO));
    fail_unless (strstr (err->message, dir) != NULL, "%s", err->message);
    fail_unless (strstr (err->message, "is a directory") != NULL, "%s",
        err->message);
    g_clear_error (&err);
    g_rmdir (dir);
    g_free (dir);
  }
}
END_TEST

/* ---- corpus oracle --------------------------------------------------- */

typedef struct {
  gchar *addr_text;
  GStringChunk *name_chunk;     /* owns the strings of names[] */
  guint64 *addrs;
  const gchar **names;
  guint n;
} Syms;

static gint
cmp_u64_idx (gconstpointer a, gconstpointer b, gpointer data)
{
  const guint64 *addrs = data;
  guint64 x = addrs[*(const guint *) a], y = addrs[*(const guint *) b];
  return x < y ? -1 : x > y;
}

/* kallsyms "ADDR TYPE NAME [MOD]" lines, sorted by address */
static void
syms_load (Syms * s, GstCtfTraceDat * td)
{
  gsize len;
  const gchar *text = gst_ctf_trace_dat_get_kallsyms (td, &len);
  gchar **lines;
  guint i, n = 0;
  GArray *idx;
  guint64 *addrs;
  const gchar **names;

  memset (s, 0, sizeof (*s));
  if (!text)
    return;
  s->addr_text = g_strndup (text, len);
  /* not g_intern_string: the GLib quark table is never freed, and growing
   * it by the ~200k kallsyms names of the corpus leaks each outgrown array
   * (~86 MB in all) */
  s->name_chunk = g_string_chunk_new (64 * 1024);
  lines = g_strsplit (s->addr_text, "\n", -1);
  addrs = g_new0 (guint64, g_strv_length (lines) + 1);
  names = g_new0 (const gchar *, g_strv_length (lines) + 1);
  for (i = 0; lines[i]; i++) {
    gchar **parts = g_strsplit (lines[i], " ", 4);
    if (g_strv_length (parts) >= 3) {
      gchar *t = strchr (parts[2], '\t');
      if (t)
        *t = '\0';
      addrs[n] = g_ascii_strtoull (parts[0], NULL, 16);
      names[n] = g_string_chunk_insert (s->name_chunk, parts[2]);
      n++;
    }
    g_strfreev (parts);
  }
  g_strfreev (lines);
  idx = g_array_new (FALSE, FALSE, sizeof (guint));
  for (i = 0; i < n; i++)
    g_array_append_val (idx, i);
  g_array_sort_with_data (idx, cmp_u64_idx, addrs);
  s->addrs = g_new0 (guint64, n + 1);
  s->names = g_new0 (const gchar *, n + 1);
  for (i = 0; i < n; i++) {
    s->addrs[i] = addrs[g_array_index (idx, guint, i)];
    s->names[i] = names[g_array_index (idx, guint, i)];
  }
  s->n = n;
  g_array_free (idx, TRUE);
  g_free (addrs);
  g_free (names);
}

static const gchar *
syms_find (Syms * s, guint64 addr)
{
  guint lo = 0, hi = s->n;

  if (s->n == 0 || addr < s->addrs[0])
    return NULL;
  while (hi - lo > 1) {
    guint mid = (lo + hi) / 2;
    if (s->addrs[mid] <= addr)
      lo = mid;
    else
      hi = mid;
  }
  return s->names[lo];
}

static void
syms_clear (Syms * s)
{
  g_free (s->addr_text);
  if (s->name_chunk)
    g_string_chunk_free (s->name_chunk);
  g_free (s->addrs);
  g_free (s->names);
}

static gboolean
printable (const guint8 * p, guint len)
{
  guint i;

  for (i = 0; i < len && p[i]; i++)
    if (!g_ascii_isprint (p[i]) && !g_ascii_isspace (p[i]))
      return FALSE;
  return TRUE;
}

static gchar *
array_text (const guint8 * p, guint len)
{
  GString *s = g_string_new ("ARRAY[");
  guint i;

  for (i = 0; i < len; i++)
    g_string_append_printf (s, "%s%02x", i ? ", " : "", p[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/* Does the oracle text @val show the field's value?  Arrays and strings
 * must match exactly as libtraceevent prints them raw; integers may be
 * printed by the print fmt (decimal, hex, with or without 0x, or a kernel
 * symbol for %ps), so the number is parsed back and compared. */
static gboolean
field_matches (GstCtfTraceDat * td, Syms * syms,
    const GstCtfTraceDatField * f, const guint8 * data, guint size,
    const gchar * val)
{
  if (f->flags & GST_CTF_TRACE_DAT_FIELD_ARRAY) {
    guint off, len;
    gboolean ok;

    if (!gst_ctf_trace_dat_field_get_dynamic (td, f, data, size, &off, &len))
      return FALSE;
    if ((f->flags & GST_CTF_TRACE_DAT_FIELD_STRING)
        && printable (data + off, len)) {
      gsize n = strnlen ((const gchar *) data + off, len);
      /* libtraceevent prints %s of the bytes: to the NUL; trace-cmd
       * report drops a final newline (trace_marker text has one) */
      if (n > 0 && data[off + n - 1] == '\n')
        n--;
      ok = strlen (val) == n && memcmp (val, data + off, n) == 0;
    } else {
      gchar *t = array_text (data + off, len);
      ok = strcmp (t, val) == 0;
      g_free (t);
    }
    return ok;
  } else {
    guint64 v, mask, parsed;
    const gchar *s = val;
    gchar *end;
    gboolean neg = FALSE;
    const gchar *sym;

    if (!gst_ctf_trace_dat_field_read_int (td, f, data, size, &v))
      return FALSE;
    mask = f->size >= 8 ? G_MAXUINT64 : (1ull << (f->size * 8)) - 1;
    while (*s == ' ')
      s++;
    /* %p of NULL */
    if (strcmp (s, "(nil)") == 0)
      return (v & mask) == 0;
    if (*s == '-') {
      neg = TRUE;
      s++;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
      parsed = g_ascii_strtoull (s + 2, &end, 16);
    else
      parsed = g_ascii_strtoull (s, &end, 10);
    if (end != s && *end == '\0') {
      if (neg)
        parsed = -parsed;
      if ((parsed & mask) == (v & mask))
        return TRUE;
      /* a plain %x or %o print fmt */
      parsed = g_ascii_strtoull (s, &end, 16);
      if (*end == '\0' && (parsed & mask) == (v & mask))
        return TRUE;
      parsed = g_ascii_strtoull (s, &end, 8);
      return *end == '\0' && (parsed & mask) == (v & mask);
    }
    parsed = g_ascii_strtoull (s, &end, 16);
    if (end != s && *end == '\0' && (parsed & mask) == (v & mask))
      return TRUE;
    /* %ps / %pS: a symbol name, maybe +off/size */
    sym = syms_find (syms, v);
    if (sym && g_str_has_prefix (val, sym)
        && (val[strlen (sym)] == '\0' || val[strlen (sym)] == '+'
            || val[strlen (sym)] == ' '))
      return TRUE;
    return FALSE;
  }
}

typedef struct {
  guint events;                 /* oracle events */
  guint equal;                  /* fully equal */
  guint drops;                  /* oracle DROPPED lines */
  guint drops_equal;
  guint ts_bad, name_bad, pid_bad, comm_bad, cpu_bad, field_bad;
  gchar first_diff[512];
} Stats;

static void
note_diff (Stats * st, guint line, const gchar * what, const gchar * exp,
    const gchar * got)
{
  if (g_getenv ("TRACECMD_TEST_VERBOSE"))
    printf ("  diff line %u: %s: oracle \"%s\", reader \"%s\"\n", line,
        what, exp, got);
  if (st->first_diff[0])
    return;
  g_snprintf (st->first_diff, sizeof (st->first_diff),
      "line %u: %s: oracle \"%.200s\", reader \"%.200s\"", line, what, exp,
      got);
}

/* Compares one oracle event line with @rec. */
static gboolean
compare_event (GstCtfTraceDat * td, Syms * syms, const gchar * line,
    guint lineno, const GstCtfTraceDatRecord * rec, Stats * st)
{
  const GstCtfTraceDatEventFormat *fmt =
      gst_ctf_trace_dat_get_event_format (td, rec->event_id);
  const gchar *p, *q;
  gchar *comm, *got;
  glong pid;
  guint64 us, secs, frac;
  gboolean ok = TRUE;
  const GstCtfTraceDatField *pidf;
  guint64 our_pid = 0;
  guint i, cpu;
  TestReportLine rl;

  if (!test_report_line_parse (line, &rl))
    return FALSE;
  comm = rl.comm;
  pid = rl.pid;
  cpu = rl.cpu;
  secs = rl.secs;
  frac = rl.usecs;
  p = rl.rest;

  /* timestamp: trace-cmd prints µs rounded to nearest (ts + 500) / 1000 */
  us = (rec->ts + 500) / 1000;
  if (us / 1000000 != secs || us % 1000000 != frac) {
    gchar exp[64];
    got = g_strdup_printf ("%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT,
        us / 1000000, us % 1000000);
    g_snprintf (exp, sizeof (exp), "%" G_GUINT64_FORMAT ".%06"
        G_GUINT64_FORMAT, secs, frac);
    note_diff (st, lineno, "timestamp", exp, got);
    g_free (got);
    st->ts_bad++;
    ok = FALSE;
  }
  if (cpu != rec->cpu) {
    st->cpu_bad++;
    ok = FALSE;
  }
  if (!fmt) {
    note_diff (st, lineno, "event", p, "(unknown id)");
    st->name_bad++;
    g_free (comm);
    return FALSE;
  }
  q = strchr (p, ':');
  if (!q || (gsize) (q - p) != strlen (fmt->name)
      || memcmp (p, fmt->name, q - p) != 0) {
    note_diff (st, lineno, "event name", p, fmt->name);
    st->name_bad++;
    g_free (comm);
    return FALSE;
  }
  pidf = gst_ctf_trace_dat_event_format_find_field (fmt, "common_pid");
  if (pidf)
    gst_ctf_trace_dat_field_read_int (td, pidf, rec->data, rec->size,
        &our_pid);
  if ((glong) (gint) our_pid != pid) {
    st->pid_bad++;
    ok = FALSE;
  }
  if (strcmp (comm, gst_ctf_trace_dat_lookup_comm (td, (gint) our_pid))) {
    note_diff (st, lineno, "comm", comm,
        gst_ctf_trace_dat_lookup_comm (td, (gint) our_pid));
    st->comm_bad++;
    ok = FALSE;
  }
  g_free (comm);

  /* fields: " name=value" in format order; split on the next name */
  p = q + 1;
  while (*p == ' ')
    p++;
  for (i = 0; i < fmt->n_fields; i++) {
    const GstCtfTraceDatField *f = &fmt->fields[i];
    gsize nl = strlen (f->name);
    const gchar *vend;
    gchar *val;

    if (strncmp (p, f->name, nl) != 0 || p[nl] != '=') {
      note_diff (st, lineno, "field name", p, f->name);
      st->field_bad++;
      return FALSE;
    }
    p += nl + 1;
    if (i + 1 < fmt->n_fields) {
      gchar *pat = g_strdup_printf (" %s=", fmt->fields[i + 1].name);
      vend = strstr (p, pat);
      g_free (pat);
      if (!vend)
        vend = p + strlen (p);
    } else {
      vend = p + strlen (p);
    }
    val = g_strndup (p, vend - p);
    if (!field_matches (td, syms, f, rec->data, rec->size, val)) {
      note_diff (st, lineno, f->name, val, "(different)");
      st->field_bad++;
      ok = FALSE;
    }
    g_free (val);
    p = *vend ? vend + 1 : vend;
  }
  return ok;
}

static gboolean
compare_file (const gchar * dat, const gchar * oracle, Stats * st,
    GError ** error)
{
  GstCtfTraceDat *td;
  GstCtfTraceDatMergeIter *it;
  gchar *text;
  gchar **lines;
  guint i;
  GstCtfTraceDatRecord rec;
  gboolean have = FALSE;
  gint r = 1;
  Syms syms;

  memset (st, 0, sizeof (*st));
  if (!g_file_get_contents (oracle, &text, NULL, error))
    return FALSE;
  td = gst_ctf_trace_dat_open (dat, error);
  if (!td) {
    g_free (text);
    return FALSE;
  }
  syms_load (&syms, td);
  it = gst_ctf_trace_dat_merge_iter_new (td, 0, error);
  fail_unless (it != NULL);
  lines = g_strsplit (text, "\n", -1);
  g_free (text);
  for (i = 0; lines[i]; i++) {
    const gchar *l = lines[i];

    if (l[0] == '\0' || g_str_has_prefix (l, "cpus=")) {
      if (g_str_has_prefix (l, "cpus="))
        fail_unless_equals_int (atoi (l + 5),
            gst_ctf_trace_dat_get_buffer (td, 0)->n_cpus);
      continue;
    }
    if (!have && r > 0) {
      r = gst_ctf_trace_dat_merge_iter_next (it, &rec, error);
      if (r < 0)
        break;
      have = r > 0;
    }
    if (g_str_has_prefix (l, "CPU:") && strstr (l, "EVENTS DROPPED]")) {
      glong cpu = strtol (l + 4, NULL, 10);
      const gchar *b = strchr (l, '[');
      gint64 n = g_ascii_isdigit (b[1]) ? g_ascii_strtoll (b + 1, NULL, 10)
          : -1;

      st->drops++;
      if (have && rec.missed_events == n && rec.cpu == (guint) cpu)
        st->drops_equal++;
      else
        note_diff (st, i + 1, "dropped", l, "(no such drop)");
      continue;
    }
    st->events++;
    if (!have) {
      note_diff (st, i + 1, "event", l, "(end of data)");
      continue;
    }
    if (compare_event (td, &syms, l, i + 1, &rec, st))
      st->equal++;
    have = FALSE;
  }
  /* the reader must not have more events than the oracle */
  if (r > 0 && !have)
    r = gst_ctf_trace_dat_merge_iter_next (it, &rec, error);
  if (r > 0 || have)
    note_diff (st, i, "event", "(end of oracle)", "more records");
  g_strfreev (lines);
  gst_ctf_trace_dat_merge_iter_free (it);
  syms_clear (&syms);
  gst_ctf_trace_dat_unref (td);
  return r >= 0 && !(r > 0 || have);
}

/* Compares every DIR/<f>.dat with DIR/oracle/<f>.raw.txt; returns the
 * number of files, FALSE in @all_ok when one differs. */
static guint
compare_dir (const gchar * dir, gboolean * all_ok)
{
  GDir *gd = g_dir_open (dir, 0, NULL);
  const gchar *name;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint k, files = 0;

  while (gd && (name = g_dir_read_name (gd)))
    if (g_str_has_suffix (name, ".dat"))
      g_ptr_array_add (names, g_strdup (name));
  if (gd)
    g_dir_close (gd);
  g_ptr_array_sort (names, (GCompareFunc) g_ascii_strcasecmp);
  for (k = 0; k < names->len; k++) {
    const gchar *n = *(gchar **) & names->pdata[k];
    gchar *dat = g_build_filename (dir, n, NULL);
    gchar *oname = g_strconcat (n, ".raw.txt", NULL);
    gchar *oracle = g_build_filename (dir, "oracle", oname, NULL);
    GError *err = NULL;
    Stats st;
    gboolean ok = compare_file (dat, oracle, &st, &err);

    files++;
    printf ("tracecmd: %s: %u/%u events equal, %u/%u drops equal "
        "(ts %u, name %u, pid %u, comm %u, cpu %u, field %u differ)%s%s\n",
        n, st.equal, st.events, st.drops_equal, st.drops, st.ts_bad,
        st.name_bad, st.pid_bad, st.comm_bad, st.cpu_bad, st.field_bad,
        st.first_diff[0] ? "; first: " : "", st.first_diff);
    if (err)
      printf ("tracecmd: %s: error: %s\n", n, err->message);
    if (!ok || st.equal != st.events || st.drops_equal != st.drops
        || st.events == 0)
      *all_ok = FALSE;
    g_clear_error (&err);
    g_free (dat);
    g_free (oname);
    g_free (oracle);
  }
  g_ptr_array_free (names, TRUE);
  return files;
}

START_TEST (test_corpus_oracle)
{
  const gchar *corpus = g_getenv ("GST_CTF_CORPUS");
  const gchar *subdirs[] = { "tracedat", "tracedat/public" };
  guint d, files = 0;
  gboolean all_ok = TRUE;

  if (!corpus || !g_file_test (corpus, G_FILE_TEST_IS_DIR)) {
    printf ("tracecmd: GST_CTF_CORPUS not set or missing: corpus test "
        "skipped\n");
    return;
  }
  for (d = 0; d < G_N_ELEMENTS (subdirs); d++) {
    gchar *dir = g_build_filename (corpus, subdirs[d], NULL);
    files += compare_dir (dir, &all_ok);
    g_free (dir);
  }
  ck_assert_msg (files >= 7, "expected 7 corpus files, found %u", files);
  fail_unless (all_ok, "some events differ from trace-cmd report -R");
}
END_TEST

/* small files shipped in tests/data/tracecmd (v6 and v7 of 32-bit
 * machines, zstd and none) */
START_TEST (test_data_oracle)
{
  const gchar *data = g_getenv ("GST_CTF_TEST_DATA");
  gchar *dir;
  gboolean all_ok = TRUE;
  guint files;

  if (!data) {
    printf ("tracecmd: GST_CTF_TEST_DATA not set: test skipped\n");
    return;
  }
  dir = g_build_filename (data, "tracecmd", NULL);
  files = compare_dir (dir, &all_ok);
  g_free (dir);
  ck_assert_msg (files >= 4, "expected 4 test files, found %u", files);
  fail_unless (all_ok, "some events differ from trace-cmd report -R");
}
END_TEST


/* ---- CTF trace class ------------------------------------------------ */

START_TEST (test_ctf_model)
{
  const gchar *corpus = g_getenv ("GST_CTF_CORPUS");
  gchar *path;
  GstCtfTraceDat *td;
  GstCtfTraceClass *tc;
  GstCtfStreamClass *sc;
  const GstCtfEventClass *ec;
  const GstCtfTraceDatEventFormat *fmt;
  const GstCtfFieldClass *fc;
  GError *err = NULL;
  guint idx;

  if (!corpus || !g_file_test (corpus, G_FILE_TEST_IS_DIR)) {
    printf ("tracecmd: GST_CTF_CORPUS not set: CTF model test skipped\n");
    return;
  }
  path = g_build_filename (corpus, "tracedat",
      "sched-irq-timer-wq.v7-zstd.dat", NULL);
  td = gst_ctf_trace_dat_open (path, &err);
  ck_assert_msg (td != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (gst_ctf_trace_dat_get_version (td), 7);
  fail_unless_equals_int (gst_ctf_trace_dat_get_compression (td),
      GST_CTF_TRACE_DAT_COMPRESSION_ZSTD);
  fail_unless_equals_string (gst_ctf_trace_dat_get_clock (td), "local");
  fail_unless_equals_int (gst_ctf_trace_dat_get_n_cpus (td), 2);
  fail_unless_equals_int (gst_ctf_trace_dat_get_long_size (td), 8);
  fail_unless_equals_int (gst_ctf_trace_dat_get_kernel_long_size (td), 8);
  fail_unless_equals_string (gst_ctf_trace_dat_get_tracer_version (td),
      "3.1.6 not-a-git-repo");
  fail_unless_equals_string (gst_ctf_trace_dat_lookup_comm (td, 15),
      "rcu_preempt");
  fail_unless_equals_string (gst_ctf_trace_dat_lookup_comm (td, 0), "<idle>");

  tc = gst_ctf_trace_dat_build_trace_class (td, 0, &err);
  ck_assert_msg (tc != NULL, "%s", err ? err->message : "");
  fail_unless (tc->has_uuid);
  fail_unless_equals_int (tc->clock_classes->len, 1);
  fail_unless_equals_string (((GstCtfClockClass *)
          g_ptr_array_index (tc->clock_classes, 0))->name, "local");
  fail_unless_equals_string (gst_ctf_trace_class_find_env (tc,
          "tracer_name")->str, "trace-cmd");
  sc = gst_ctf_trace_class_find_stream_class (tc, 0);
  fail_unless (sc != NULL);
  fail_unless (gst_ctf_field_class_find_member (sc->packet_context,
          "cpu_id", NULL) != NULL);
  fc = gst_ctf_field_class_find_member (sc->event_header, "timestamp", NULL);
  fail_unless (fc && fc->integer.size == 64 && fc->integer.mapped_clock);
  fail_unless (gst_ctf_field_class_find_member (sc->event_common_context,
          "common_pid", NULL) != NULL);
  fail_unless (gst_ctf_field_class_find_member (sc->event_common_context,
          "common_type", NULL) == NULL);

  fmt = gst_ctf_trace_dat_find_event_format (td, "sched", "sched_switch");
  fail_unless (fmt != NULL);
  ec = gst_ctf_stream_class_find_event_class (sc, fmt->id);
  fail_unless (ec != NULL);
  fail_unless_equals_string (ec->name, "sched_switch");
  fc = gst_ctf_field_class_find_member (ec->payload, "prev_comm", &idx);
  fail_unless (fc && fc->type == GST_CTF_FIELD_CLASS_STRING);
  fail_unless_equals_int (idx, 0);
  fc = gst_ctf_field_class_find_member (ec->payload, "prev_pid", NULL);
  fail_unless (fc && fc->type == GST_CTF_FIELD_CLASS_INTEGER
      && fc->integer.size == 32 && fc->integer.is_signed);

  /* __data_loc char[] -> string; pointers in hex */
  fmt = gst_ctf_trace_dat_find_event_format (td, "irq", "irq_handler_entry");
  ec = gst_ctf_stream_class_find_event_class (sc, fmt->id);
  fc = gst_ctf_field_class_find_member (ec->payload, "name", NULL);
  fail_unless (fc && fc->type == GST_CTF_FIELD_CLASS_STRING);
  fmt = gst_ctf_trace_dat_find_event_format (td, "timer", "hrtimer_setup");
  if (fmt) {
    ec = gst_ctf_stream_class_find_event_class (sc, fmt->id);
    fc = gst_ctf_field_class_find_member (ec->payload, "hrtimer", NULL);
    fail_unless (fc && fc->integer.base == 16);
  }
  /* every record decodes into values of its event class */
  {
    GstCtfTraceDatMergeIter *it = gst_ctf_trace_dat_merge_iter_new (td, 0,
        &err);
    GstCtfTraceDatRecord rec;
    GstCtfFieldValue common[64], payload[1024];
    guint nc, np, n = 0, switches = 0;
    const GstCtfTraceDatEventFormat *sw =
        gst_ctf_trace_dat_find_event_format (td, "sched", "sched_switch");

    while (gst_ctf_trace_dat_merge_iter_next (it, &rec, &err) > 0) {
      ec = gst_ctf_trace_dat_record_get_values (td, tc, &rec, common, 64, &nc,
          payload, 1024, &np, &err);
      ck_assert_msg (ec != NULL, "%s", err ? err->message : "");
      fail_unless_equals_int (payload[0].end, np);
      fail_unless_equals_int (payload[0].v.u, ec->payload->n_members);
      fail_unless_equals_int (common[0].end, nc);
      fail_unless_equals_int (nc, 4);
      fail_unless_equals_string (common[3].name, "common_pid");
      if (rec.event_id == sw->id) {
        const GstCtfTraceDatField *f =
            gst_ctf_trace_dat_event_format_find_field (sw, "prev_comm");
        guint64 pid;

        fail_unless_equals_string (payload[1].name, "prev_comm");
        fail_unless (payload[1].v.s.len == strnlen ((const gchar *) rec.data
                + f->offset, 16));
        fail_unless (memcmp (payload[1].v.s.ptr, rec.data + f->offset,
                payload[1].v.s.len) == 0);
        f = gst_ctf_trace_dat_event_format_find_field (sw, "prev_pid");
        gst_ctf_trace_dat_field_read_int (td, f, rec.data, rec.size, &pid);
        fail_unless_equals_string (payload[2].name, "prev_pid");
        fail_unless_equals_uint64 (payload[2].v.u, pid);
        switches++;
      }
      n++;
    }
    fail_unless (err == NULL);
    fail_unless_equals_int (n, 14132);
    fail_unless (switches > 100);
    gst_ctf_trace_dat_merge_iter_free (it);
  }
  gst_ctf_trace_class_unref (tc);

  fail_unless (gst_ctf_trace_dat_build_trace_class (td, 7, &err) == NULL);
  fail_unless (g_error_matches (err, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT));
  g_clear_error (&err);
  gst_ctf_trace_dat_unref (td);
  g_free (path);
}
END_TEST

static Suite *
tracecmd_suite (void)
{
  Suite *s = suite_create ("tracecmd");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_page_le64);
  tcase_add_test (tc, test_page_be64);
  tcase_add_test (tc, test_page_le32);
  tcase_add_test (tc, test_page_be32);
  tcase_add_test (tc, test_format_parse);
  tcase_add_test (tc, test_bad_files);
  tcase_add_test (tc, test_ctf_model);
  tcase_add_test (tc, test_corpus_oracle);
  tcase_add_test (tc, test_data_oracle);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (tracecmd_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
