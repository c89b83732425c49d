/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctftextsink element tests (GstHarness): caps with the TSDL metadata and
 * one buffer per packet are pushed in, the written text is compared byte
 * for byte with babeltrace2's output for the same trace.
 *
 * tests/data/text/formats is a small trace made by
 * tests/data/text/gen-formats.py to cover the printing rules (integer
 * bases and masking, enums with several labels and <unknown>, string
 * escapes, text arrays, floats, variants, empty and nested structs,
 * hidden clock-mapped fields, env fields, discarded events);
 * formats*.bt2.1.txt are `TZ=UTC LC_ALL=C babeltrace2 [OPTIONS] formats`
 * by babeltrace2 2.1.2 (../shared/tools/babeltrace2-2.1), what
 * ctftextsink prints by default, and the other formats*.txt the same by
 * babeltrace2 2.0.4, what it prints with babeltrace-version=2.0
 * (formats.date-gmt*.txt with TZ=Europe/Paris).  tests/data/text/enums,
 * made by gen-enums.py, has enumerations of 3 to 130 labels holding one
 * value (babeltrace2 2.1's label order) and strings; enums.bt2.1.txt and
 * enums.bt2.0.txt are the two releases' output.
 *
 * The corpus units compared: babeltrace2 2.1.2's text where it differs
 * from 2.0.4 is in ctf/lttng-ust/oracle-bt2.1/ (the corpus README there
 * says where they differ), 2.0.4's in the oracle/ folders.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "gstctf-caps.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"
#include "gstctf-packet-meta.h"
#include "gstctf-text-formatter.h"

typedef struct {
  GBytes *file;
  gsize offset;
  gsize size;
  guint64 begin;
  guint file_index;
  guint rank;
} Pkt;

/* One stream file of the trace, with the ids ctfsrc gives its stream
 * (lib/ctf/trace/gstctf-trace-dir.c): babeltrace2's stream id (the instance id,
 * else 0, 1, ... over the files without one in path order) and its rank in
 * babeltrace2's tie order (stream class id, stream id, name). */
typedef struct {
  gchar *name;
  guint64 sc_id;
  guint64 instance_id;          /* G_MAXUINT64: none */
  guint64 bt_stream_id;
  guint rank;
} StreamFile;

static gint
pkt_cmp (gconstpointer a, gconstpointer b)
{
  const Pkt *x = a, *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return x->offset < y->offset ? -1 : (x->offset > y->offset);
}

/* g_ptr_array_sort() passes pointers to the elements. */
static gint
name_cmp (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

static gint
tie_cmp (gconstpointer a, gconstpointer b)
{
  const StreamFile *x = *(StreamFile * const *) a;
  const StreamFile *y = *(StreamFile * const *) b;

  if (x->sc_id != y->sc_id)
    return x->sc_id < y->sc_id ? -1 : 1;
  if (x->bt_stream_id != y->bt_stream_id)
    return x->bt_stream_id < y->bt_stream_id ? -1 : 1;
  return strcmp (x->name, y->name);
}

static void
stream_files_free (StreamFile * sf, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    g_free (sf[i].name);
  g_free (sf);
}

/* Splits the stream files of @dir into packets, sorted by
 * timestamp_begin then stream rank (what ctfsrc does); @files gets the
 * n_files stream files, indexed by Pkt.file_index. */
static GArray *
read_packets (GstCtfTraceClass * tc, const gchar * dir, StreamFile ** files,
    guint * n_files)
{
  GArray *pkts = g_array_new (FALSE, TRUE, sizeof (Pkt));
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *by_tie = g_ptr_array_new ();
  StreamFile *sf;
  guint fi, n = 0;
  guint64 next_auto_id = 0;

  fail_unless (d != NULL);
  while ((name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL);

    if (strcmp (name, "metadata") != 0 && name[0] != '.' &&
        g_file_test (path, G_FILE_TEST_IS_REGULAR))
      g_ptr_array_add (names, g_strdup (name));
    g_free (path);
  }
  g_dir_close (d);
  g_ptr_array_sort (names, name_cmp);
  sf = g_new0 (StreamFile, names->len);

  for (fi = 0; fi < names->len; fi++) {
    gchar *path = g_build_filename (dir, g_ptr_array_index (names, fi), NULL);
    gchar *contents;
    gsize len, off = 0;
    GBytes *bytes;
    StreamFile *f = &sf[n];

    if (!g_file_get_contents (path, &contents, &len, NULL)) {
      g_free (path);
      continue;
    }
    g_free (path);
    f->name = g_strdup (g_ptr_array_index (names, fi));
    f->instance_id = G_MAXUINT64;
    bytes = g_bytes_new_take (contents, len);
    while (off < len) {
      GstCtfPacketInfo info;
      GError *err = NULL;
      Pkt p = { 0, };

      fail_unless (gst_ctf_packet_read_info (tc, (const guint8 *) contents +
              off, len - off, &info, &err), "%s", err ? err->message : "");
      if (off == 0) {
        f->sc_id = info.stream_class_id;
        if (info.has_stream_instance_id)
          f->instance_id = info.stream_instance_id;
      }
      p.file = g_bytes_ref (bytes);
      p.offset = off;
      p.size = info.packet_size / 8;
      p.begin = info.has_timestamp_begin ? info.timestamp_begin : 0;
      p.file_index = n;
      fail_unless (p.size > 0);
      g_array_append_val (pkts, p);
      off += p.size;
    }
    g_bytes_unref (bytes);
    f->bt_stream_id = f->instance_id != G_MAXUINT64 ? f->instance_id :
        next_auto_id++;
    g_ptr_array_add (by_tie, f);
    n++;
  }
  g_ptr_array_sort (by_tie, tie_cmp);
  for (fi = 0; fi < by_tie->len; fi++)
    ((StreamFile *) g_ptr_array_index (by_tie, fi))->rank = fi;
  for (fi = 0; fi < pkts->len; fi++) {
    Pkt *p = &g_array_index (pkts, Pkt, fi);

    p->rank = sf[p->file_index].rank;
  }
  g_array_sort (pkts, pkt_cmp);
  g_ptr_array_unref (by_tie);
  g_ptr_array_unref (names);
  *files = sf;
  *n_files = n;
  return pkts;
}

/* For one test: added to the GstCtfPacketMeta stream_id (not to
 * stream_index), and a bus given to the sink. */
static guint64 meta_stream_id_add;
static GstBus *sink_bus;

/* Pushes the trace in @dir through a ctftextsink with @props set, returns
 * the text written and the last flow return. */
static gchar *
run_sink (const gchar * dir, const gchar * metadata_dir, gboolean with_meta,
    GstFlowReturn * last_ret, const gchar * first_prop, ...)
{
  GstHarness *h;
  GstElement *sink;
  gchar *tsdl, *out_path, *text = NULL;
  GstCtfTraceClass *tc;
  GError *err = NULL;
  GArray *pkts;
  StreamFile *files;
  guint n_files, i;
  gint fd;
  va_list args;

  {
    gchar *mpath = g_build_filename (metadata_dir, "metadata", NULL);

    tsdl = gst_ctf_metadata_load_file (mpath, &err);
    g_free (mpath);
  }
  fail_unless (tsdl != NULL, "%s", err ? err->message : "");
  tc = gst_ctf_tsdl_parse (tsdl, metadata_dir, &err);
  fail_unless (tc != NULL, "%s", err ? err->message : "");
  pkts = read_packets (tc, dir, &files, &n_files);

  fd = g_file_open_tmp ("textsink-XXXXXX.txt", &out_path, NULL);
  fail_unless (fd >= 0);
  close (fd);

  /* Properties are set before the harness starts the element. */
  sink = gst_element_factory_make ("ctftextsink", NULL);
  fail_unless (sink != NULL);
  g_object_set (sink, "location", out_path, NULL);
  if (first_prop) {
    va_start (args, first_prop);
    g_object_set_valist (G_OBJECT (sink), first_prop, args);
    va_end (args);
  }
  h = gst_harness_new_with_element (sink, "sink", NULL);
  gst_object_unref (sink);
  /* (the harness answers LATENCY live by default: ctftextsink would
   * format sequentially and write each packet's text out at once) */
  gst_harness_set_live (h, FALSE);
  if (sink_bus)
    gst_element_set_bus (h->element, sink_bus);
  gst_harness_set_src_caps (h, gst_ctf_caps_new (tsdl, tc->has_uuid ?
          tc->uuid : NULL));

  *last_ret = GST_FLOW_OK;
  for (i = 0; i < pkts->len && *last_ret == GST_FLOW_OK; i++) {
    Pkt *p = &g_array_index (pkts, Pkt, i);
    gsize flen;
    const guint8 *fdata = g_bytes_get_data (p->file, &flen);
    GstBuffer *buf = gst_buffer_new_memdup (fdata + p->offset, p->size);

    if (with_meta) {
      /* Filled as ctfsrc does. */
      GstCtfPacketMeta *m = gst_buffer_add_ctf_packet_meta (buf);
      const StreamFile *f = &files[p->file_index];

      m->stream_class_id = f->sc_id;
      m->stream_instance_id = f->instance_id;
      m->stream_name = g_intern_string (f->name);
      m->stream_index = f->rank;
      m->stream_id = f->bt_stream_id + meta_stream_id_add;
      m->offset = p->offset;
    }
    *last_ret = gst_harness_push (h, buf);
  }
  /* Events wait in the sink until no later packet can precede them: a
   * decoding error may only show when EOS flushes them. */
  if (*last_ret == GST_FLOW_OK &&
      !gst_harness_push_event (h, gst_event_new_eos ()))
    *last_ret = GST_FLOW_ERROR;
  gst_harness_teardown (h);

  fail_unless (g_file_get_contents (out_path, &text, NULL, NULL));
  g_unlink (out_path);
  g_free (out_path);
  for (i = 0; i < pkts->len; i++)
    g_bytes_unref (g_array_index (pkts, Pkt, i).file);
  g_array_unref (pkts);
  stream_files_free (files, n_files);
  gst_ctf_trace_class_unref (tc);
  g_free (tsdl);
  return text;
}

static void
assert_same_text (const gchar * got, const gchar * expected_path)
{
  gchar *expected = NULL;
  gchar **a, **b;
  guint i;

  fail_unless (g_file_get_contents (expected_path, &expected, NULL, NULL),
      "cannot read %s", expected_path);
  if (strcmp (got, expected) != 0) {
    a = g_strsplit (got, "\n", -1);
    b = g_strsplit (expected, "\n", -1);
    for (i = 0; a[i] && b[i] && strcmp (a[i], b[i]) == 0; i++);
    fail ("differs from %s at line %u:\n  got:      %s\n  expected: %s",
        expected_path, i + 1, a[i] ? a[i] : "<EOF>", b[i] ? b[i] : "<EOF>");
  }
  g_free (expected);
}

static gchar *
data_path (const gchar * rel)
{
  const gchar *d = g_getenv ("GST_CTF_TEST_DATA");

  return g_build_filename (d ? d : "tests/data", rel, NULL);
}

/* The text of trace @trace (tests/data/text) with the options @n1 = @v1,
 * @n2 = @v2 must be @name.bt2.1.txt by default and @name.txt (or, with
 * @bt20_suffix, @name.@bt20_suffix) with babeltrace-version=2.0, in both
 * formatting paths. */
static void
check_formats_of (const gchar * trace, const gchar * name,
    const gchar * bt20_suffix, const gchar * n1, gboolean v1,
    const gchar * n2, gboolean v2)
{
  gchar *dir = data_path (trace);
  gchar *rel21 = g_strdup_printf ("%s.bt2.1.txt", name);
  gchar *rel20 = g_strdup_printf ("%s.%s", name, bt20_suffix ? bt20_suffix :
      "txt");
  gchar *exp21 = data_path (rel21), *exp20 = data_path (rel20);
  GstFlowReturn ret;
  gchar *text;
  gboolean parallel;

  for (parallel = FALSE; parallel <= TRUE; parallel++) {
    /* (a NULL @n1 or @n2 ends the property list) */
    text = run_sink (dir, dir, FALSE, &ret, "parallel", parallel, n1, v1, n2,
        v2, NULL);
    fail_unless_equals_int (ret, GST_FLOW_OK);
    assert_same_text (text, exp21);
    g_free (text);
    text = run_sink (dir, dir, FALSE, &ret, "parallel", parallel,
        "babeltrace-version", GST_CTF_BABELTRACE_2_0, n1, v1, n2, v2, NULL);
    fail_unless_equals_int (ret, GST_FLOW_OK);
    assert_same_text (text, exp20);
    g_free (text);
  }
  g_free (exp21);
  g_free (exp20);
  g_free (rel21);
  g_free (rel20);
  g_free (dir);
}

static void
check_formats (const gchar * name, const gchar * n1, gboolean v1,
    const gchar * n2, gboolean v2)
{
  check_formats_of ("text/formats", name, NULL, n1, v1, n2, v2);
}

GST_START_TEST (test_formats_default)
{
  check_formats ("text/formats", NULL, FALSE, NULL, FALSE);
}

GST_END_TEST;

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
/* A process where some library (a plugin linked with -ffast-math) set the
 * CPU's flush-to-zero and denormals-are-zero modes still prints a
 * subnormal double as babeltrace2 does (formats.txt and formats.bt2.1.txt
 * have 4.94066e-324). */
GST_START_TEST (test_formats_denormals_are_zero)
{
  guint csr = _mm_getcsr ();

  _mm_setcsr (csr | 0x8040);    /* FTZ | DAZ */
  check_formats ("text/formats", NULL, FALSE, NULL, FALSE);
  _mm_setcsr (csr);
}

GST_END_TEST;
#endif

GST_START_TEST (test_formats_no_delta_seconds)
{
  check_formats ("text/formats.no-delta-seconds", "no-delta", TRUE,
      "clock-seconds", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_formats_cycles)
{
  check_formats ("text/formats.cycles", "clock-cycles", TRUE, NULL, FALSE);
}

GST_END_TEST;

GST_START_TEST (test_formats_date_gmt)
{
  /* babeltrace2 ran with TZ=Europe/Paris; clock-gmt must ignore TZ. */
  g_setenv ("TZ", "Europe/Paris", TRUE);
  tzset ();
  check_formats ("text/formats.date-gmt", "clock-date", TRUE,
      "clock-gmt", TRUE);
  g_setenv ("TZ", "UTC", TRUE);
  tzset ();
}

GST_END_TEST;

/* Enumeration values matching 3, 14, 40, 130 and 19 labels: babeltrace2
 * 2.1 prints them in its label table's order (a libstdc++ hash table
 * growing through 13, 29, 59, 127 and 257 buckets), braced; 2.0 in the
 * order they first appear, unbraced. */
GST_START_TEST (test_enum_label_order)
{
  check_formats_of ("text/enums", "text/enums", "bt2.0.txt", NULL, FALSE,
      NULL, FALSE);
}

GST_END_TEST;

static gboolean
corpus_unit (const gchar * rel, gchar ** path, gchar ** oracle,
    const gchar * oracle_base, const gchar * oracle_rel)
{
  const gchar *corpus = g_getenv ("GST_CTF_CORPUS");

  if (corpus == NULL || !g_file_test (corpus, G_FILE_TEST_IS_DIR)) {
    g_print ("SKIP: GST_CTF_CORPUS not set, corpus test not run\n");
    return FALSE;
  }
  *path = g_build_filename (corpus, rel, NULL);
  *oracle = g_build_filename (corpus, oracle_base, "oracle", oracle_rel,
      NULL);
  return TRUE;
}

/* Two per-CPU streams of an LTTng-UST trace, merged by the sink. */
/* babeltrace2 2.1.2's text of a ctf/lttng-ust unit (it differs from
 * 2.0.4's for the units recorded with enumerations or empty strings). */
static gchar *
oracle_bt21 (const gchar * unit)
{
  gchar *name = g_strdup_printf ("%s.txt", unit);
  gchar *path = g_build_filename (g_getenv ("GST_CTF_CORPUS"),
      "ctf/lttng-ust/oracle-bt2.1", name, NULL);

  g_free (name);
  return path;
}

GST_START_TEST (test_lttng_ust_two_streams)
{
  gchar *dir, *oracle, *oracle21, *text;
  GstFlowReturn ret;

  if (!corpus_unit ("ctf/lttng-ust/dl-statedump/ust/uid/0/64-bit", &dir,
          &oracle, "ctf/lttng-ust", "dl-statedump.txt"))
    return;
  oracle21 = oracle_bt21 ("dl-statedump");
  text = run_sink (dir, dir, TRUE, &ret, NULL);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  assert_same_text (text, oracle21);
  g_free (text);
  /* Without GstCtfPacketMeta: streams from the packet headers. */
  text = run_sink (dir, dir, FALSE, &ret, NULL);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  assert_same_text (text, oracle21);
  g_free (text);
  text = run_sink (dir, dir, TRUE, &ret, "babeltrace-version",
      GST_CTF_BABELTRACE_2_0, NULL);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  assert_same_text (text, oracle);
  g_free (text);
  g_free (dir);
  g_free (oracle);
  g_free (oracle21);
}

GST_END_TEST;

/* Empty strings and empty text sequences: babeltrace2 2.0 prints what its
 * recycled event objects held; babeltrace-version=2.0 reproduces it (and
 * emulate-recycling=true, which selects it), babeltrace2 2.1 and the
 * default print "", and so does the 2.0 mode with emulate-recycling=false,
 * on exactly those lines. */
GST_START_TEST (test_recycled_event_objects)
{
  gchar *dir, *oracle, *oracle21, *text, *expected;
  gchar **a, **b;
  GstFlowReturn ret;
  guint i, n_diff = 0;

  if (!corpus_unit ("ctf/lttng-ust/custom-2cpu/ust/uid/0/64-bit", &dir,
          &oracle, "ctf/lttng-ust", "custom-2cpu.txt"))
    return;
  oracle21 = oracle_bt21 ("custom-2cpu");
  text = run_sink (dir, dir, TRUE, &ret, "babeltrace-version",
      GST_CTF_BABELTRACE_2_0, NULL);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  assert_same_text (text, oracle);
  g_free (text);
  text = run_sink (dir, dir, TRUE, &ret, "emulate-recycling", TRUE, NULL);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  assert_same_text (text, oracle);
  g_free (text);
  text = run_sink (dir, dir, TRUE, &ret, NULL);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  assert_same_text (text, oracle21);
  g_free (text);

  text = run_sink (dir, dir, TRUE, &ret, "emulate-recycling", FALSE,
      "babeltrace-version", GST_CTF_BABELTRACE_2_0, NULL);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  fail_unless (g_file_get_contents (oracle, &expected, NULL, NULL));
  a = g_strsplit (text, "\n", -1);
  b = g_strsplit (expected, "\n", -1);
  fail_unless_equals_int (g_strv_length (a), g_strv_length (b));
  for (i = 0; a[i]; i++) {
    if (strcmp (a[i], b[i]) == 0)
      continue;
    n_diff++;
    /* ours: the empty sequence of length 0; babeltrace2: a stale text */
    fail_unless (strstr (a[i], "_seqtext_length = 0, seqtext = \"\"") ||
        strstr (a[i], "str = \"\""), "line %u: %s", i + 1, a[i]);
  }
  /* 183 lines of custom-2cpu carry a stale string in babeltrace2 2.0.4 */
  fail_unless_equals_int (n_diff, 183);
  g_strfreev (a);
  g_strfreev (b);
  g_free (expected);
  g_free (text);
  g_free (dir);
  g_free (oracle);
  g_free (oracle21);
}

GST_END_TEST;

/* babeltrace's fail/valid-events-then-invalid-events: the two good events
 * are written, then the element errors out. */
GST_START_TEST (test_valid_then_invalid)
{
  gchar *dir, *oracle, *text;
  GstFlowReturn ret;

  if (!corpus_unit ("ctf/babeltrace/fail/valid-events-then-invalid-events/trace",
          &dir, &oracle, "ctf/babeltrace",
          "fail/valid-events-then-invalid-events.txt"))
    return;
  text = run_sink (dir, dir, TRUE, &ret, NULL);
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  assert_same_text (text, oracle);
  g_free (text);
  g_free (dir);
  g_free (oracle);
}

GST_END_TEST;

/* The discarded-events warning names the stream by babeltrace2's stream
 * id (GstCtfPacketMeta.stream_id); stream_index only orders streams. */
GST_START_TEST (test_warning_stream_id)
{
  gchar *dir = data_path ("text/formats");
  gchar *exp = data_path ("text/formats.bt2.1.txt");
  gchar *exp20 = data_path ("text/formats.txt");
  GstFlowReturn ret;
  GstMessage *msg;
  gchar *text;
  guint n_warnings = 0;

  sink_bus = gst_bus_new ();
  meta_stream_id_add = 100;
  text = run_sink (dir, dir, TRUE, &ret, NULL);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  assert_same_text (text, exp);
  g_free (text);
  text = run_sink (dir, dir, TRUE, &ret, "babeltrace-version",
      GST_CTF_BABELTRACE_2_0, NULL);
  meta_stream_id_add = 0;
  fail_unless_equals_int (ret, GST_FLOW_OK);
  assert_same_text (text, exp20);
  g_free (text);

  while ((msg = gst_bus_pop_filtered (sink_bus, GST_MESSAGE_WARNING))) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_warning (msg, &err, &debug);
    fail_unless (debug != NULL);
    fail_unless (g_str_has_suffix (debug,
            "(stream class ID: 0, stream ID: 100)."), "%s", debug);
    /* (after GStreamer's "file(line): function (): element:" line) */
    fail_unless (strstr (debug, "\nWARNING: Tracer discarded 4 events "
            "between [07:06:43.000001007] and [07:06:44.000001015]") != NULL,
        "%s", debug);
    /* babeltrace2 2.1 names the trace by its UID, 2.0 by its UUID */
    fail_unless (strstr (debug, n_warnings == 0 ? "\" (UID: "
            "2a6422d0-6cee-11e0-8c08-cb07d7b3a564) within" : "\" (UUID: "
            "2a6422d0-6cee-11e0-8c08-cb07d7b3a564) within") != NULL, "%s",
        debug);
    n_warnings++;
    g_error_free (err);
    g_free (debug);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (n_warnings, 2);
  gst_clear_object (&sink_bus);
  g_free (exp);
  g_free (exp20);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("ctftextsink", NULL);
  gboolean b;
  gint v;
  gchar *loc;

  fail_unless (e != NULL);
  g_object_get (e, "no-delta", &b, NULL);
  fail_unless (!b);
  g_object_set (e, "clock-gmt", TRUE, "location", "/tmp/x.txt", NULL);
  g_object_get (e, "clock-gmt", &b, "location", &loc, NULL);
  fail_unless (b);
  fail_unless_equals_string (loc, "/tmp/x.txt");
  g_free (loc);

  /* babeltrace-version: 2.1 by default; emulate-recycling=true selects
   * 2.0 (its meaning before babeltrace-version), false only turns the
   * emulation off */
  g_object_get (e, "babeltrace-version", &v, "emulate-recycling", &b, NULL);
  fail_unless_equals_int (v, GST_CTF_BABELTRACE_2_1);
  fail_unless (!b);
  g_object_set (e, "babeltrace-version", GST_CTF_BABELTRACE_2_0, NULL);
  g_object_get (e, "emulate-recycling", &b, NULL);
  fail_unless (b);
  g_object_set (e, "emulate-recycling", FALSE, NULL);
  g_object_get (e, "babeltrace-version", &v, "emulate-recycling", &b, NULL);
  fail_unless_equals_int (v, GST_CTF_BABELTRACE_2_0);
  fail_unless (!b);
  g_object_set (e, "babeltrace-version", GST_CTF_BABELTRACE_2_1, NULL);
  g_object_set (e, "emulate-recycling", TRUE, NULL);
  g_object_get (e, "babeltrace-version", &v, "emulate-recycling", &b, NULL);
  fail_unless_equals_int (v, GST_CTF_BABELTRACE_2_0);
  fail_unless (b);
  gst_util_set_object_arg (G_OBJECT (e), "babeltrace-version", "2.1");
  g_object_get (e, "babeltrace-version", &v, "emulate-recycling", &b, NULL);
  fail_unless_equals_int (v, GST_CTF_BABELTRACE_2_1);
  fail_unless (!b);
  gst_object_unref (e);
}

GST_END_TEST;

static guint
count_lines (const gchar * text)
{
  guint n = 0;

  for (; *text; text++)
    n += *text == '\n';
  return n;
}

/* The parallel formatting (default) writes exactly what the sequential
 * path writes, on multi-stream traces of many chunks (256 events). */
GST_START_TEST (test_parallel_equals_sequential)
{
  static const gchar *const units[][3] = {
    {"ctf/lttng-ust/custom-2cpu/ust/uid/0/64-bit", "ctf/lttng-ust",
        "custom-2cpu"},
    {"ctf/lttng-ust/pthread-multichan/ust/pid/ustwork-16986-20261122-000538",
        "ctf/lttng-ust", "pthread-multichan"},
  };
  guint u;

  for (u = 0; u < G_N_ELEMENTS (units); u++) {
    gchar *dir, *oracle, *oracle21, *seq, *par, *rel;
    GstFlowReturn ret;
    gboolean have;

    rel = g_strconcat (units[u][2], ".txt", NULL);
    have = corpus_unit (units[u][0], &dir, &oracle, units[u][1], rel);
    g_free (rel);
    if (!have)
      return;
    oracle21 = oracle_bt21 (units[u][2]);
    seq = run_sink (dir, dir, TRUE, &ret, "parallel", FALSE, NULL);
    fail_unless_equals_int (ret, GST_FLOW_OK);
    par = run_sink (dir, dir, TRUE, &ret, "parallel", TRUE, NULL);
    fail_unless_equals_int (ret, GST_FLOW_OK);
    fail_unless (strcmp (seq, par) == 0, "%s: parallel output differs",
        units[u][0]);
    assert_same_text (par, oracle21);
    fail_unless (count_lines (par) > 4 * 1024);
    g_free (seq);
    g_free (par);
    /* the 2.0 formatting, streamed (no recycled strings): parallel too */
    seq = run_sink (dir, dir, TRUE, &ret, "parallel", FALSE,
        "babeltrace-version", GST_CTF_BABELTRACE_2_0, "emulate-recycling",
        FALSE, NULL);
    fail_unless_equals_int (ret, GST_FLOW_OK);
    par = run_sink (dir, dir, TRUE, &ret, "parallel", TRUE,
        "babeltrace-version", GST_CTF_BABELTRACE_2_0, "emulate-recycling",
        FALSE, NULL);
    fail_unless_equals_int (ret, GST_FLOW_OK);
    fail_unless (strcmp (seq, par) == 0, "%s: parallel output differs (2.0)",
        units[u][0]);
    fail_unless (strstr (par, "state = ( \"WAITING\", \"OVERLAP\" :"));
    g_free (seq);
    g_free (par);
    g_free (dir);
    g_free (oracle);
    g_free (oracle21);
  }
}

GST_END_TEST;

/* Bus sync handler: at each warning, what the sink has written so far
 * (it writes the text of every event before a warning first). */
static GstBusSyncReply
note_warning_place (GstBus * bus, GstMessage * msg, gpointer data)
{
  GString *log = data;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
    gchar *location = NULL, *debug = NULL;
    GStatBuf st;

    g_object_get (GST_MESSAGE_SRC (msg), "location", &location, NULL);
    fail_unless (location != NULL && g_stat (location, &st) == 0);
    gst_message_parse_warning (msg, NULL, &debug);
    g_string_append_printf (log, "%" G_GINT64_FORMAT " bytes, then %s\n",
        (gint64) st.st_size, strstr (debug, "WARNING: Tracer"));
    g_free (debug);
    g_free (location);
  }
  return GST_BUS_DROP;
}

/* Discarded packets and events of two streams: each warning comes after
 * the same text with and without parallel formatting (the order
 * babeltrace2's muxer gives them), every time. */
GST_START_TEST (test_parallel_warnings_in_place)
{
  static const gchar *const units[] = {
    "2-streams-lost-in-2", "2-streams-lost-in-1",
  };
  guint u, round;

  for (u = 0; u < G_N_ELEMENTS (units); u++) {
    gchar *dir, *oracle, *rel, *orel;
    GString *logs[2];
    guint parallel;
    gboolean have;

    rel = g_strconcat ("ctf/babeltrace/packet-seq-num/", units[u], NULL);
    orel = g_strconcat ("packet-seq-num/", units[u], ".txt", NULL);
    have = corpus_unit (rel, &dir, &oracle, "ctf/babeltrace", orel);
    g_free (rel);
    g_free (orel);
    if (!have)
      return;
    for (round = 0; round < 10; round++) {
      for (parallel = 0; parallel < 2; parallel++) {
        GstFlowReturn ret;
        gchar *text;

        logs[parallel] = g_string_new (NULL);
        sink_bus = gst_bus_new ();
        gst_bus_set_sync_handler (sink_bus, note_warning_place,
            logs[parallel], NULL);
        text = run_sink (dir, dir, TRUE, &ret, "parallel", (gboolean) parallel,
            NULL);
        fail_unless_equals_int (ret, GST_FLOW_OK);
        gst_clear_object (&sink_bus);
        assert_same_text (text, oracle);
        g_free (text);
      }
      fail_unless (strstr (logs[0]->str, "discarded") != NULL,
          "%s: no warning", units[u]);
      fail_unless_equals_string (logs[1]->str, logs[0]->str);
      g_string_free (logs[0], TRUE);
      g_string_free (logs[1], TRUE);
    }
    g_free (dir);
    g_free (oracle);
  }
}

GST_END_TEST;

/* A packet that cannot be decoded, read by ctfsrc: the error names the
 * stream file's path, the packet's byte offset in it and the bit offset
 * of the event that failed (a copy of the bundled ust-libc trace with
 * 512 bytes of 0xff in its first packet). */
GST_START_TEST (test_decode_error_names_file)
{
  const gchar *examples = g_getenv ("GST_CTF_EXAMPLES");
  gchar *tmp, *src, *stream, *data, *out, *desc, *want;
  GstElement *pipe;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  gsize len;

  fail_unless (examples != NULL);
  tmp = g_dir_make_tmp ("textsink-file-XXXXXX", NULL);
  src = g_build_filename (examples, "ust-libc", "ust", "uid", "0", "64-bit",
      NULL);
  stream = g_build_filename (tmp, "channel0_0", NULL);
  {
    gchar *from = g_build_filename (src, "channel0_0", NULL);
    gchar *meta_from = g_build_filename (src, "metadata", NULL);
    gchar *meta_to = g_build_filename (tmp, "metadata", NULL);

    fail_unless (g_file_get_contents (meta_from, &data, &len, NULL));
    fail_unless (g_file_set_contents (meta_to, data, len, NULL));
    g_free (data);
    fail_unless (g_file_get_contents (from, &data, &len, NULL));
    fail_unless (len > 4096 + 512);
    memset (data + 4096, 0xff, 512);
    fail_unless (g_file_set_contents (stream, data, len, NULL));
    g_free (data);
    g_free (from);
    g_free (meta_from);
    g_free (meta_to);
  }
  out = g_build_filename (tmp, "out.txt", NULL);
  desc = g_strdup_printf ("ctfsrc location=\"%s\" ! ctftextsink "
      "location=\"%s\"", tmp, out);
  pipe = gst_parse_launch (desc, &err);
  fail_unless (pipe != NULL, "%s", err ? err->message : "");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &err, NULL);
  want = g_strdup_printf ("file=\"%s\", stream=\"channel0_0\", "
      "packet-offset=0 (bytes)", stream);
  fail_unless (strstr (err->message, want) != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "offset=33032 bits") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);

  g_unlink (stream);
  g_unlink (out);
  {
    gchar *m = g_build_filename (tmp, "metadata", NULL);

    g_unlink (m);
    g_free (m);
  }
  g_rmdir (tmp);
  g_free (want);
  g_free (desc);
  g_free (out);
  g_free (stream);
  g_free (src);
  g_free (tmp);
}

GST_END_TEST;

/* A decoding error in the middle of a stream, thousands of events in:
 * the events before it are all written, in order, then the error; the
 * same with and without parallel formatting. */
GST_START_TEST (test_parallel_error_mid_trace)
{
  static const gchar *const files[] = { "metadata", "channel0_0",
    "channel0_1"
  };
  gchar *dir, *oracle, *tmp, *seq, *par, *expected;
  GstFlowReturn ret;
  guint i;

  if (!corpus_unit ("ctf/lttng-ust/custom-2cpu/ust/uid/0/64-bit", &dir,
          &oracle, "ctf/lttng-ust", "custom-2cpu.txt"))
    return;
  tmp = g_dir_make_tmp ("textsink-err-XXXXXX", NULL);
  fail_unless (tmp != NULL);
  for (i = 0; i < G_N_ELEMENTS (files); i++) {
    gchar *src = g_build_filename (dir, files[i], NULL);
    gchar *dst = g_build_filename (tmp, files[i], NULL);
    gchar *data;
    gsize len;

    fail_unless (g_file_get_contents (src, &data, &len, NULL));
    /* 4 KiB packets: garbage in the events of packet 18 of stream 0
     * (compact header id 31, then an extended id no class has) */
    if (i == 1) {
      fail_unless (len > 18 * 4096 + 4096);
      memset (data + 18 * 4096 + 1024, 0xff, 2048);
    }
    fail_unless (g_file_set_contents (dst, data, len, NULL));
    g_free (data);
    g_free (src);
    g_free (dst);
  }

  seq = run_sink (tmp, tmp, TRUE, &ret, "parallel", FALSE, NULL);
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  par = run_sink (tmp, tmp, TRUE, &ret, "parallel", TRUE, NULL);
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  fail_unless (strcmp (seq, par) == 0, "parallel output differs");
  /* the lines before the error are babeltrace2's first lines */
  {
    gchar *oracle21 = oracle_bt21 ("custom-2cpu");

    fail_unless (g_file_get_contents (oracle21, &expected, NULL, NULL));
    g_free (oracle21);
  }
  fail_unless (count_lines (par) > 2000);
  fail_unless (count_lines (par) < count_lines (expected));
  {
    gchar **a = g_strsplit (par, "\n", -1);
    gchar **b = g_strsplit (expected, "\n", -1);

    /* up to the garbage (which decodes as a few events of 0xff values
     * first) */
    for (i = 0; i < 2000 && a[i] && a[i + 1]; i++)
      fail_unless (strcmp (a[i], b[i]) == 0, "line %u: %s", i + 1, a[i]);
    g_strfreev (a);
    g_strfreev (b);
  }

  for (i = 0; i < G_N_ELEMENTS (files); i++) {
    gchar *dst = g_build_filename (tmp, files[i], NULL);

    g_unlink (dst);
    g_free (dst);
  }
  g_rmdir (tmp);
  g_free (tmp);
  g_free (expected);
  g_free (seq);
  g_free (par);
  g_free (dir);
  g_free (oracle);
}

GST_END_TEST;

/* Pushes the packets of @dir into @h after caps with its metadata (as
 * run_sink() does with the meta). */
static void
push_trace_full (GstHarness * h, const gchar * dir, guint grow_at)
{
  gchar *mpath = g_build_filename (dir, "metadata", NULL);
  GError *err = NULL;
  gchar *tsdl = gst_ctf_metadata_load_file (mpath, &err);
  GstCtfTraceClass *tc;
  GArray *pkts;
  StreamFile *files;
  guint n_files, i;

  fail_unless (tsdl != NULL, "%s", err ? err->message : "");
  tc = gst_ctf_tsdl_parse (tsdl, dir, &err);
  fail_unless (tc != NULL, "%s", err ? err->message : "");
  pkts = read_packets (tc, dir, &files, &n_files);
  gst_harness_set_src_caps (h, gst_ctf_caps_new (tsdl, tc->has_uuid ?
          tc->uuid : NULL));
  for (i = 0; i < pkts->len; i++) {
    Pkt *p = &g_array_index (pkts, Pkt, i);
    gsize flen;
    const guint8 *fdata = g_bytes_get_data (p->file, &flen);
    GstBuffer *buf = gst_buffer_new_memdup (fdata + p->offset, p->size);
    GstCtfPacketMeta *m = gst_buffer_add_ctf_packet_meta (buf);
    const StreamFile *f = &files[p->file_index];

    if (i == grow_at) {
      /* new caps: the metadata grew (here by a comment) */
      gchar *grown = g_strconcat (tsdl, "\n/* grown */\n", NULL);

      gst_harness_set_src_caps (h, gst_ctf_caps_new (grown, tc->has_uuid ?
              tc->uuid : NULL));
      g_free (grown);
    }
    m->stream_class_id = f->sc_id;
    m->stream_instance_id = f->instance_id;
    m->stream_name = g_intern_string (f->name);
    m->stream_index = f->rank;
    m->stream_id = f->bt_stream_id;
    m->offset = p->offset;
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  for (i = 0; i < pkts->len; i++)
    g_bytes_unref (g_array_index (pkts, Pkt, i).file);
  g_array_unref (pkts);
  stream_files_free (files, n_files);
  gst_ctf_trace_class_unref (tc);
  g_free (tsdl);
  g_free (mpath);
}

static void
push_trace (GstHarness * h, const gchar * dir)
{
  push_trace_full (h, dir, G_MAXUINT);
}

/* Live upstream (the harness answers LATENCY live), metadata that grows
 * mid-stream (new caps of the same session, as lttnglivesrc pushes them):
 * the `(+S.NS)` deltas go on across the caps, as babeltrace2 net://...
 * prints them: one unknown delta `(+?.` followed by nine `?`, on the first
 * line. */
GST_START_TEST (test_live_delta_across_caps)
{
  gchar *dir = g_build_filename (g_getenv ("GST_CTF_EXAMPLES"), "ust-sample",
      "ust", "uid", "0", "64-bit", NULL);
  gchar *out_path, *text, *rest;
  GstElement *sink;
  GstHarness *h;
  gint fd;

  fd = g_file_open_tmp ("textsink-XXXXXX.txt", &out_path, NULL);
  fail_unless (fd >= 0);
  close (fd);
  sink = gst_element_factory_make ("ctftextsink", NULL);
  g_object_set (sink, "location", out_path, NULL);
  h = gst_harness_new_with_element (sink, "sink", NULL);
  gst_object_unref (sink);
  push_trace_full (h, dir, 3);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  gst_harness_teardown (h);
  fail_unless (g_file_get_contents (out_path, &text, NULL, NULL));
  /* (a `(+?.` delta is the unknown one) */
  rest = strstr (text, "(+?.");
  fail_unless (g_str_has_prefix (text, "[") && rest != NULL, "%.200s", text);
  rest++;
  fail_unless (strstr (rest, "(+?.") == NULL,
      "a delta started again after the new caps: %.200s", strstr (rest,
          "(+?."));
  g_unlink (out_path);
  g_free (out_path);
  g_free (text);
  g_free (dir);
}

GST_END_TEST;

/* New metadata mid-stream (caps of another trace): the first trace's
 * events are all written, then the second's from a fresh delta; the
 * parallel workers are replaced without losing or reordering text. */
GST_START_TEST (test_parallel_new_caps)
{
  gchar *dir_a, *oracle_a, *dir_b, *oracle_b;
  gboolean parallel;

  if (!corpus_unit ("ctf/lttng-ust/custom-2cpu/ust/uid/0/64-bit", &dir_a,
          &oracle_a, "ctf/lttng-ust", "custom-2cpu.txt") ||
      !corpus_unit
      ("ctf/lttng-ust/pthread-multichan/ust/pid/ustwork-16986-20261122-000538",
          &dir_b, &oracle_b, "ctf/lttng-ust", "pthread-multichan.txt"))
    return;

  for (parallel = FALSE; parallel <= TRUE; parallel++) {
    GstFlowReturn ret;
    gchar *a = run_sink (dir_a, dir_a, TRUE, &ret, "parallel", parallel,
        NULL);
    gchar *b = run_sink (dir_b, dir_b, TRUE, &ret, "parallel", parallel,
        NULL);
    gchar *expected = g_strconcat (a, b, NULL);
    gchar *out_path, *text;
    GstElement *sink;
    GstHarness *h;
    gint fd;

    fd = g_file_open_tmp ("textsink-XXXXXX.txt", &out_path, NULL);
    fail_unless (fd >= 0);
    close (fd);
    sink = gst_element_factory_make ("ctftextsink", NULL);
    g_object_set (sink, "location", out_path, "parallel", parallel, NULL);
    h = gst_harness_new_with_element (sink, "sink", NULL);
    gst_object_unref (sink);
    gst_harness_set_live (h, FALSE);
    push_trace (h, dir_a);
    push_trace (h, dir_b);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    gst_harness_teardown (h);
    fail_unless (g_file_get_contents (out_path, &text, NULL, NULL));
    g_unlink (out_path);
    g_free (out_path);
    fail_unless (strcmp (text, expected) == 0,
        "parallel=%d: the text of two traces in a row differs", parallel);
    g_free (text);
    g_free (expected);
    g_free (a);
    g_free (b);
  }
  g_free (dir_a);
  g_free (oracle_a);
  g_free (dir_b);
  g_free (oracle_b);
}

GST_END_TEST;

static Suite *
textsink_suite (void)
{
  Suite *s = suite_create ("ctftextsink");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_formats_default);
#if defined(__SSE__) || defined(__x86_64__)
  tcase_add_test (tc, test_formats_denormals_are_zero);
#endif
  tcase_add_test (tc, test_formats_no_delta_seconds);
  tcase_add_test (tc, test_formats_cycles);
  tcase_add_test (tc, test_formats_date_gmt);
  tcase_add_test (tc, test_enum_label_order);
  tcase_add_test (tc, test_lttng_ust_two_streams);
  tcase_add_test (tc, test_recycled_event_objects);
  tcase_add_test (tc, test_valid_then_invalid);
  tcase_add_test (tc, test_warning_stream_id);
  tcase_add_test (tc, test_parallel_equals_sequential);
  tcase_add_test (tc, test_parallel_error_mid_trace);
  tcase_add_test (tc, test_decode_error_names_file);
  tcase_add_test (tc, test_parallel_warnings_in_place);
  tcase_add_test (tc, test_parallel_new_caps);
  tcase_add_test (tc, test_live_delta_across_caps);
  return s;
}

GST_CHECK_MAIN (textsink);
