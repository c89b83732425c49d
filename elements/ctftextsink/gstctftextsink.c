/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-ctftextsink
 * @title: ctftextsink
 * @short_description: prints CTF events as babeltrace2 text
 *
 * Decodes the CTF packets it receives and writes one line per event in the
 * format of babeltrace2's `sink.text.pretty` component (what `babeltrace2
 * TRACE` prints by default), events of all the streams merged in timestamp
 * order with babeltrace2's tie rules.  With the default properties and
 * `TZ=UTC LC_ALL=C`, the output is byte-identical to `TZ=UTC LC_ALL=C
 * babeltrace2 TRACE` of babeltrace2 2.1 (checked against 2.1.2); with
 * #GstCtfTextSink:babeltrace-version=2.0, to babeltrace2 2.0's (2.0.4,
 * what Debian 12 ships).  The two differ in how an enumeration value with
 * several labels is printed (`{ "B", "A" }` in 2.1's label table order,
 * `"A", "B"` in 2.0) and in 2.0's stale empty strings (see
 * #GstCtfTextSink:emulate-recycling).  Discarded events and packets are reported like
 * babeltrace2 does, as `WARNING: ...` lines on stderr, and as element
 * warning messages.  A packet that cannot be decoded stops the pipeline
 * with an error, after the events before it were written.
 *
 * #GstCtfTextSink:format=json-lines writes one JSON object per event
 * instead (JSON Lines: `time_ns`, `cycles`, `clock`, `name`, `trace`,
 * `stream`, `cpu`, then the scopes as objects, enumerations as
 * `{"value", "labels"}`; docs/user-guide.md), and format=metadata the
 * trace's metadata text as `babeltrace2 -o ctf-metadata` prints it.
 * babeltrace2's `--names`, `--fields`, `--color`, `--clock-offset` and
 * `--clock-offset-ns` are #GstCtfTextSink:names, #GstCtfTextSink:fields,
 * #GstCtfTextSink:color, #GstCtfTextSink:clock-offset and
 * #GstCtfTextSink:clock-offset-ns.
 *
 * With #GstCtfTextSink:parallel (the default), worker threads (one per
 * core, at most 8) decode and format the events of the packets, several
 * packets at once (of one stream too: a packet with `timestamp_begin`
 * depends on no other), and the streaming thread merges their lines in
 * babeltrace2's order and puts in the `(+S.NS)` deltas.  The output is the
 * same byte for byte, and a warning or an error is still written after
 * the text of every event before it.  Memory stays bounded: a few packets
 * per stream, and at most 16 chunks of 256 formatted lines per worker
 * ahead of the merge.
 *
 * When upstream is live (its answer to the LATENCY query, asked at each
 * new caps: `lttnglivesrc`), the text of each packet is written out (and
 * flushed, to the file or stdout) as soon as the merge can give its events
 * back, and a GAP event lets the merge give back the events before its
 * end; the formatting is then sequential.  Otherwise the text is written
 * in chunks of 64 KiB.
 *
 * With #GstCtfTextSink:format=trace-cmd, a trace that tracecmdsrc
 * converted from a trace.dat prints as `trace-cmd report` prints the file,
 * byte for byte: `cpus=N`, then `COMM-PID [CPU] SECS.USECS: EVENT: INFO`
 * lines, INFO formatted by libtraceevent (and the plugins trace-cmd loads)
 * from the event's print fmt; the ftrace formats, saved cmdlines, kallsyms
 * and printk formats come from tracecmdsrc's `tracecmd` side stream
 * (lib/tracecmd/gsttracecmd-report.h).  Other traces are refused with an
 * error.  This format is printed on the streaming thread.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 ctfsrc location=/path/to/trace ! ctftextsink location=trace.txt
 * ]|
 * Writes the text of the trace to `trace.txt`; without `location`, the text
 * goes to stdout.
 * |[
 * gst-launch-1.0 -q tracecmdsrc location=trace.dat ! ctftextsink format=trace-cmd
 * ]|
 * Prints what `trace-cmd report -i trace.dat` prints.
 * |[
 * gst-launch-1.0 -q ctfsrc location=/path/to/trace ! ctftextsink format=json-lines
 * ]|
 * One JSON object per event on stdout.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "gstctftextsink.h"
#include "gstctf-caps.h"
#include "gstctf-element-util.h"
#include "gsttracecmd.h"
#include "gstctf-packet-meta.h"
#include "gstctf-metadata.h"
#include "gstctf-reader.h"
#include "gstctf-text-formatter.h"
#include "gstctf-event-merge.h"
#include "gstctftextsink-streams.h"
#include "gsttracecmd-report.h"

GST_DEBUG_CATEGORY_STATIC (gst_ctf_text_sink_debug);
#define GST_CAT_DEFAULT gst_ctf_text_sink_debug

/* Output is written in chunks of about this size (upstream not live). */
#define FLUSH_THRESHOLD (64 * 1024)

/* Parallel formatting: worker threads, one per core, at most this many. */
#define MAX_WORKERS 8

enum {
  PROP_0,
  PROP_LOCATION,
  PROP_NO_DELTA,
  PROP_CLOCK_CYCLES,
  PROP_CLOCK_DATE,
  PROP_CLOCK_GMT,
  PROP_CLOCK_SECONDS,
  PROP_FIELD_TRACE_DOMAIN,
  PROP_FIELD_LOGLEVEL,
  PROP_FIELD_EMF,
  PROP_NAME_HEADER,
  PROP_NAME_SCOPE,
  PROP_BABELTRACE_VERSION,
  PROP_EMULATE_RECYCLING,
  PROP_PARALLEL,
  PROP_FORMAT,
  PROP_CLOCK_OFFSET,
  PROP_CLOCK_OFFSET_NS,
  PROP_NAMES,
  PROP_FIELDS,
  PROP_COLOR,
  PROP_SIDE_STREAM,
};

/* babeltrace2's --color */
typedef enum {
  GST_CTF_TEXT_COLOR_AUTO = 0,
  GST_CTF_TEXT_COLOR_NEVER = 1,
  GST_CTF_TEXT_COLOR_ALWAYS = 2,
} GstCtfTextColor;

#define GST_TYPE_CTF_TEXT_COLOR (gst_ctf_text_color_get_type ())

static GType
gst_ctf_text_color_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CTF_TEXT_COLOR_AUTO, "stdout (no location) when babeltrace2 "
          "colours (stdout and stderr terminals, TERM xterm, screen, tmux, "
          "...; BABELTRACE_TERM_COLOR=always/never decides first)", "auto"},
    {GST_CTF_TEXT_COLOR_NEVER, "never", "never"},
    {GST_CTF_TEXT_COLOR_ALWAYS, "stdout or location when babeltrace2 "
          "colours (as auto says)", "always"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtfTextColor", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

/* babeltrace2's bt_common_colors_supported(): without it, babeltrace2
 * prints no colour whatever --color says (its colour codes are empty
 * strings then).  BABELTRACE_TERM_COLOR=always or never (any case)
 * decides; another value is ignored. */
static gboolean
terminal_has_colors (void)
{
  static const gchar *const terms[] = { "xterm", "rxvt", "konsole",
    "gnome-terminal", "screen", "tmux", "putty"
  };
  const gchar *force = g_getenv ("BABELTRACE_TERM_COLOR");
  const gchar *term = g_getenv ("TERM");
  guint i;

  if (force != NULL && g_ascii_strcasecmp (force, "always") == 0)
    return TRUE;
  if (force != NULL && g_ascii_strcasecmp (force, "never") == 0)
    return FALSE;
  if (term == NULL)
    return FALSE;
  for (i = 0; i < G_N_ELEMENTS (terms); i++)
    if (g_str_has_prefix (term, terms[i]))
      return isatty (1) && isatty (2);
  return FALSE;
}

/**
 * GstCtfTextFormat:
 * @GST_CTF_TEXT_FORMAT_BABELTRACE: babeltrace2's `sink.text.pretty` text
 * @GST_CTF_TEXT_FORMAT_TRACE_CMD: `trace-cmd report`'s text, for traces
 *   tracecmdsrc converted from a trace.dat
 * @GST_CTF_TEXT_FORMAT_JSON_LINES: one JSON object per event (JSON Lines)
 * @GST_CTF_TEXT_FORMAT_METADATA: the trace's metadata text, as
 *   `babeltrace2 -o ctf-metadata` prints it
 *
 * What ctftextsink prints.
 */
typedef enum {
  GST_CTF_TEXT_FORMAT_BABELTRACE = 0,
  GST_CTF_TEXT_FORMAT_TRACE_CMD = 1,
  GST_CTF_TEXT_FORMAT_JSON_LINES = 2,
  GST_CTF_TEXT_FORMAT_METADATA = 3,
} GstCtfTextFormat;

#define GST_TYPE_CTF_TEXT_FORMAT (gst_ctf_text_format_get_type ())

static GType
gst_ctf_text_format_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CTF_TEXT_FORMAT_BABELTRACE, "babeltrace2's default text "
          "(sink.text.pretty)", "babeltrace"},
    {GST_CTF_TEXT_FORMAT_TRACE_CMD, "trace-cmd report's text (traces from "
          "tracecmdsrc)", "trace-cmd"},
    {GST_CTF_TEXT_FORMAT_JSON_LINES,
        "JSON Lines: one JSON object per event", "json-lines"},
    {GST_CTF_TEXT_FORMAT_METADATA,
        "the trace's metadata text, as babeltrace2 -o ctf-metadata prints it",
        "metadata"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtfTextFormat", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_CTF_TEXT_SINK_BABELTRACE_VERSION \
  (gst_ctf_text_sink_babeltrace_version_get_type ())

static GType
gst_ctf_text_sink_babeltrace_version_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CTF_BABELTRACE_2_1, "babeltrace2 2.1 (checked against 2.1.2)",
        "2.1"},
    {GST_CTF_BABELTRACE_2_0, "babeltrace2 2.0 (checked against 2.0.4)",
        "2.0"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtfTextSinkBabeltraceVersion",
        values);

    g_once_init_leave (&type, t);
  }
  return type;
}

struct _GstCtfTextSink
{
  GstBaseSink parent;

  /* properties */
  gchar *location;
  GstCtfTextOptions opts;       /* (babeltrace_version included) */
  /* babeltrace-version=2.0 only: replay babeltrace2 2.0's recycled event
   * objects (see emulating_recycling()) */
  gboolean recycle;
  gboolean parallel;
  GstCtfTextFormat format;
  const gchar *json_stream_name;        /* the formatter's stream now */
  gint64 json_stream_id;
  GstCtfTextColor color;
  gchar *names;                 /* as last set, babeltrace2's --names */
  gchar *fields;                /* babeltrace2's --fields */
  gboolean side_stream;

  /* the trace class's trace.dat side stream class, printed only with
   * side-stream=true */
  gboolean has_side;
  guint64 side_sc_id;

  /* state */
  FILE *out;
  gboolean out_is_stdout;
  /* upstream answered the LATENCY query live (asked at each new caps):
   * the text is written out after each buffer and GAP event instead of
   * in FLUSH_THRESHOLD chunks, and formatted sequentially */
  gboolean live;
  gchar *tsdl;
  GstCtfTraceClass *tc;
  GstCtfTextFormatter *fmt;
  GstCtfEventMerge *merge;
  GString *text;
  GString *warn;
  GHashTable *stream_ids;       /* "scid:instance" -> id+1, without meta */
  /* format=trace-cmd: "scid:stream_id" of the streams whose next loss
   * has no count (GstCtfPacketMeta.events_discarded_unknown) */
  GHashTable *unknown_losses;
  GHashTable *file_paths;       /* interned stream name -> interned path */
  guint64 n_events;
  guint64 n_discarded_events;
  guint64 n_discarded_packets;

  /* Parallel formatting (NULL: sequential, with @merge and @fmt). */
  GstCtfTextStreams *streams;
  /* format=trace-cmd: the report printer (sequential, with @merge). */
  GstCtfTraceCmdReport *report;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

#define gst_ctf_text_sink_parent_class parent_class
G_DEFINE_TYPE (GstCtfTextSink, gst_ctf_text_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (ctftextsink, "ctftextsink",
    GST_RANK_NONE, GST_TYPE_CTF_TEXT_SINK,
    GST_DEBUG_CATEGORY_INIT (gst_ctf_text_sink_debug, "ctftextsink", 0,
        "CTF to babeltrace2 text"));

/* ------------------------------------------------------------------ */

typedef struct {
  GstBuffer *buffer;
  GstMapInfo map;
} MappedBuffer;

static void
mapped_buffer_free (gpointer data)
{
  MappedBuffer *mb = data;

  gst_buffer_unmap (mb->buffer, &mb->map);
  gst_buffer_unref (mb->buffer);
  g_free (mb);
}

/* babeltrace2 2.0's stale empty strings are reproduced in the 2.0 mode
 * unless emulate-recycling was set to false. */
static gboolean
emulating_recycling (GstCtfTextSink * self)
{
  return self->opts.babeltrace_version == GST_CTF_BABELTRACE_2_0 &&
      self->recycle && self->format == GST_CTF_TEXT_FORMAT_BABELTRACE;
}

/* babeltrace2 prints the first negative time of its output as SEC.NS
 * and later ones as times of the day: the workers, each with a formatter
 * of its own, cannot tell which one is first.  A clock whose origin is
 * before the Unix epoch (or moved there by clock-offset) can print
 * negative times: such a trace is formatted sequentially.  (A clock whose
 * offset wrapped modulo 2^64 prints unsigned times: gstctf-resolve.c.) */
static gboolean
may_print_negative_times (GstCtfTextSink * self, const GstCtfTraceClass * tc)
{
  guint i;

  if (self->opts.clock_cycles || self->opts.clock_seconds)
    return FALSE;
  if (self->opts.clock_offset_s < 0 || self->opts.clock_offset_ns < 0)
    return TRUE;
  for (i = 0; i < tc->clock_classes->len; i++) {
    const GstCtfClockClass *cc = g_ptr_array_index (tc->clock_classes, i);

    if (!cc->offset_wrapped && (cc->offset_s < 0 || cc->offset < 0))
      return TRUE;
  }
  return FALSE;
}

/* Writes the text of the events given back so far; also before anything
 * written out of the events' order (warnings on stderr, errors). */
static gboolean
write_text (GstCtfTextSink * self)
{
  GError *err = NULL;

  /* format=trace-cmd: the lines libtraceevent's process has not given
   * back yet come first */
  if (self->report && !gst_ctf_trace_cmd_report_flush (self->report,
          self->text, &err)) {
    GST_ELEMENT_ERROR (self, STREAM, DECODE,
        ("Cannot print event as trace-cmd does: %s", err->message),
        ("%s (%s, %d)", err->message, g_quark_to_string (err->domain),
            err->code));
    g_clear_error (&err);
    g_string_truncate (self->text, 0);
    return FALSE;
  }
  if (self->text->len == 0 || self->out == NULL)
    return TRUE;
  if (fwrite (self->text->str, 1, self->text->len, self->out) !=
      self->text->len) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Could not write to file \"%s\".",
            self->location ? self->location : "(stdout)"),
        ("%s", g_strerror (errno)));
    g_string_truncate (self->text, 0);
    return FALSE;
  }
  g_string_truncate (self->text, 0);
  return TRUE;
}

/* Live upstream: what was given back goes out now, through the FILE's
 * buffer too (stdout to a pipe or a file is fully buffered). */
static gboolean
write_live (GstCtfTextSink * self)
{
  if (!self->live)
    return TRUE;
  if (!write_text (self))
    return FALSE;
  if (self->out && fflush (self->out) != 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Could not write to file \"%s\".",
            self->location ? self->location : "(stdout)"),
        ("%s", g_strerror (errno)));
    return FALSE;
  }
  return TRUE;
}

/* Whether the source upstream is live (its LATENCY answer). */
static gboolean
upstream_is_live (GstCtfTextSink * self)
{
  GstQuery *q = gst_query_new_latency ();
  gboolean live = FALSE;

  if (gst_pad_peer_query (GST_BASE_SINK_PAD (self), q))
    gst_query_parse_latency (q, &live, NULL, NULL);
  gst_query_unref (q);
  GST_DEBUG_OBJECT (self, "upstream is %slive", live ? "" : "not ");
  return live;
}

/* format=metadata: the metadata text as babeltrace2 -o ctf-metadata
 * prints it. */
static gboolean
write_metadata (GstCtfTextSink * self, const gchar * text)
{
  /* (babeltrace2 also puts the CTF 1.8 signature before packetized TSDL
   * that lacks it, which the caps do not tell; LTTng writes it) */
  g_string_append (self->text, text);
  g_string_append_c (self->text, '\n');
  return write_text (self);
}

static void
drop_trace (GstCtfTextSink * self)
{
  self->json_stream_name = NULL;
  self->json_stream_id = -1;
  g_clear_pointer (&self->streams, gst_ctf_text_streams_free);
  g_clear_pointer (&self->report, gst_ctf_trace_cmd_report_free);
  g_clear_pointer (&self->merge, gst_ctf_event_merge_free);
  g_clear_pointer (&self->fmt, gst_ctf_text_formatter_free);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  g_clear_pointer (&self->tsdl, g_free);
  if (self->stream_ids)
    g_hash_table_remove_all (self->stream_ids);
  if (self->unknown_losses)
    g_hash_table_remove_all (self->unknown_losses);
  if (self->file_paths)
    g_hash_table_remove_all (self->file_paths);
}

/* Where a packet's bytes are, for error messages: "file=\"PATH\", " when
 * the source said which file it read it from, then the stream name and
 * the packet's byte offset in that file (free with g_free). */
static gchar *
packet_place (GstCtfTextSink * self, const gchar * stream_name, gint64 offset)
{
  const gchar *path = stream_name ? g_hash_table_lookup (self->file_paths,
      g_intern_string (stream_name)) : NULL;

  return g_strdup_printf ("%s%s%sstream=\"%s\", packet-offset=%"
      G_GINT64_FORMAT " (bytes)", path ? "file=\"" : "", path ? path : "",
      path ? "\", " : "", stream_name ? stream_name : "(unknown)", offset);
}

/* No more packets of this trace class: everything can be given back. */
static void
finish_trace (GstCtfTextSink * self)
{
  if (self->streams)
    gst_ctf_text_streams_finish (self->streams);
  else
    gst_ctf_event_merge_finish (self->merge);
}

/* Gives back everything the merger can give; on a decoding error posts it
 * (after writing the events before it) and returns GST_FLOW_ERROR. */
static GstFlowReturn
drain (GstCtfTextSink * self)
{
  GstCtfMergeItem item;
  GstCtfMergeItemType t;
  GError *err = NULL;

  if (self->tc == NULL)
    return GST_FLOW_OK;

  for (;;) {
    /* (g_string_truncate() without a call per event) */
    self->warn->len = 0;
    self->warn->str[0] = '\0';
    t = self->streams ? gst_ctf_text_streams_next (self->streams, self->text,
        &item, self->warn, &err) : gst_ctf_event_merge_next (self->merge,
        &item, &err);
    if (t == GST_CTF_MERGE_NONE)
      break;
    switch (t) {
      case GST_CTF_MERGE_EVENT:
        if (self->report) {
          if (!gst_ctf_trace_cmd_report_format_event (self->report, item.iter,
                  item.stream_class_id, item.stream_id, item.has_ns ? item.ns
                  : 0, self->text, &err)) {
            gchar *place = packet_place (self, item.stream_name, item.offset);

            write_text (self);
            GST_ELEMENT_ERROR (self, STREAM, DECODE,
                ("Cannot print event as trace-cmd does: %s: %s", place,
                    err->message), ("%s (%s, %d)", err->message,
                    g_quark_to_string (err->domain), err->code));
            g_free (place);
            g_clear_error (&err);
            return GST_FLOW_ERROR;
          }
        } else if (self->streams == NULL) {
          gst_ctf_text_formatter_set_event_object (self->fmt,
              item.pool_object);
          /* (the merge's stream names stay while their stream does) */
          if (self->opts.json_lines && (item.stream_name !=
                  self->json_stream_name || item.stream_id !=
                  self->json_stream_id)) {
            self->json_stream_name = item.stream_name;
            self->json_stream_id = item.stream_id;
            gst_ctf_text_formatter_set_stream (self->fmt, item.stream_id,
                item.stream_name, item.stream_name ?
                g_hash_table_lookup (self->file_paths,
                    g_intern_string (item.stream_name)) : NULL);
          }
          gst_ctf_text_formatter_format_event (self->fmt, item.iter,
              self->text);
        }
        self->n_events++;
        if (self->text->len >= FLUSH_THRESHOLD && !write_text (self))
          return GST_FLOW_ERROR;
        break;
      case GST_CTF_MERGE_DISCARDED_EVENTS:
      case GST_CTF_MERGE_DISCARDED_PACKETS:{
        gboolean events = t == GST_CTF_MERGE_DISCARDED_EVENTS;

        if (self->report) {
          gchar key[48];
          guint64 count = item.count == G_MAXUINT64 ? 0 : item.count;

          /* trace-cmd prints the loss before the stream's next event,
           * without a count when the kernel stored none (tracecmdsrc
           * counts such a loss as 1 and says so in the packet meta) */
          g_snprintf (key, sizeof (key), "%" G_GUINT64_FORMAT ":%"
              G_GINT64_FORMAT, item.stream_class_id, item.stream_id);
          if (events && g_hash_table_remove (self->unknown_losses, key))
            count = G_MAXUINT64;
          if (events)
            gst_ctf_trace_cmd_report_note_discarded (self->report,
                item.stream_class_id, item.stream_id, count);
          g_string_printf (self->warn, "Tracer discarded %" G_GUINT64_FORMAT
              " %s in stream \"%s\"\n", item.count, events ? "events" :
              "packets", item.stream_name ? item.stream_name : "(unknown)");
        } else if (self->streams == NULL)
          gst_ctf_text_formatter_format_discarded (self->fmt, self->warn,
              events ? GST_CTF_DISCARDED_EVENTS : GST_CTF_DISCARDED_PACKETS,
              item.count, item.clock, item.begin, item.end, item.stream_name,
              item.stream_class_id, item.stream_id);
        /* babeltrace2 prints these on stderr, keep the order with the
         * events written so far. */
        if (!write_text (self))
          return GST_FLOW_ERROR;
        if (self->out)
          fflush (self->out);
        if (self->report == NULL)
          fputs (self->warn->str, stderr);
        if (events)
          self->n_discarded_events += item.count == G_MAXUINT64 ? 0 :
              item.count;
        else
          self->n_discarded_packets += item.count == G_MAXUINT64 ? 0 :
              item.count;
        g_strchomp (self->warn->str);
        GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, DECODE,
            ("Tracer discarded %" G_GUINT64_FORMAT " %s in stream \"%s\".",
                item.count, events ? "events" : "packets",
                item.stream_name ? item.stream_name : "(unknown)"),
            ("%s", self->warn->str),
            ("discarded-kind", G_TYPE_STRING, events ? "events" : "packets",
                "count", G_TYPE_UINT64, item.count, NULL));
        break;
      }
      case GST_CTF_MERGE_ERROR:
        write_text (self);
        if (self->out)
          fflush (self->out);
      {
        gchar *place = packet_place (self, item.stream_name, item.offset);

        /* (the reader's bit offsets count from the packet's start) */
        GST_ELEMENT_ERROR (self, STREAM, DECODE,
            ("Cannot decode event: %s: %s (bit offsets count from the "
                "packet's start).", place,
                err ? err->message : "unknown error"),
            ("%s (%s, %d)", err ? err->message : "unknown error",
                err ? g_quark_to_string (err->domain) : "",
                err ? err->code : 0));
        g_free (place);
        g_clear_error (&err);
        return GST_FLOW_ERROR;
      }
      default:
        break;
    }
  }
  return GST_FLOW_OK;
}

/* ------------------------------------------------------------------ */

static gboolean
gst_ctf_text_sink_set_caps (GstBaseSink * bsink, GstCaps * caps)
{
  GstCtfTextSink *self = GST_CTF_TEXT_SINK (bsink);
  const GstCtfEnvEntry *host;
  const gchar *trace_name;
  GstCtfTraceClass *tc = NULL;
  GstCtfTextDelta delta;
  GError *err = NULL;
  gchar *metadata;

  switch (gst_ctf_element_parse_caps (GST_ELEMENT (self), caps, &self->tsdl,
          &tc)) {
    case GST_CTF_CAPS_SAME:
      return TRUE;
    case GST_CTF_CAPS_FAILED:
      return FALSE;
    case GST_CTF_CAPS_NEW:
      break;
  }
  self->live = upstream_is_live (self);
  if (self->format == GST_CTF_TEXT_FORMAT_METADATA) {
    /* the metadata text of each new trace; the packets are not read */
    gst_ctf_trace_class_unref (tc);
    return write_metadata (self, self->tsdl);
  }
  metadata = g_steal_pointer (&self->tsdl);

  /* New metadata: give back what the previous trace class still holds. */
  if (self->tc) {
    finish_trace (self);
    if (drain (self) != GST_FLOW_OK || !write_text (self)) {
      gst_ctf_trace_class_unref (tc);
      g_free (metadata);
      return FALSE;
    }
  }
  /* Live, new caps are the same session growing (a trace joined, more
   * metadata): the deltas go on, as babeltrace2 net://...'s.  Otherwise a
   * new trace starts from a fresh delta, as a babeltrace2 run of it. */
  memset (&delta, 0, sizeof (delta));
  if (self->live && self->streams)
    gst_ctf_text_streams_get_delta (self->streams, &delta);
  else if (self->live && self->fmt)
    gst_ctf_text_formatter_get_delta (self->fmt, &delta);
  drop_trace (self);
  self->tc = tc;
  {
    const GstCtfStreamClass *side =
        gst_ctf_trace_dat_find_side_stream_class (tc);

    self->has_side = side != NULL;
    self->side_sc_id = side ? side->id : 0;
  }
  self->tsdl = metadata;
  /* babeltrace2's trace name: the source's (ctfsrc knows the path below
   * its location), else as babeltrace2 names a trace given itself (a
   * merged trace class names each input in its env) */
  trace_name = gst_ctf_caps_get_trace_name (caps);
  if (trace_name == NULL) {
    host = gst_ctf_trace_class_find_env (tc, "hostname");
    trace_name = host && host->is_string && host->str ? host->str : "";
  }
  if (self->format == GST_CTF_TEXT_FORMAT_TRACE_CMD) {
    /* libtraceevent's handle is not thread-safe: sequential */
    self->report = gst_ctf_trace_cmd_report_new (tc, &err);
    if (self->report == NULL) {
      GST_ELEMENT_ERROR (self, STREAM, WRONG_TYPE,
          ("format=trace-cmd needs a trace that tracecmdsrc converted from "
              "a trace.dat: %s", err->message), (NULL));
      g_clear_error (&err);
      return FALSE;
    }
    gst_ctf_trace_cmd_report_format_header (self->report, self->text);
    self->merge = gst_ctf_event_merge_new (tc);
    gst_ctf_event_merge_set_emulate_recycling (self->merge, FALSE);
  } else if (self->parallel && !emulating_recycling (self) && !self->live
      && !may_print_negative_times (self, tc)) {
    /* babeltrace2's event object emulation needs the event objects in
     * order: sequential.  Live, the text of a packet is wanted as soon as
     * it arrives, which the workers would make later (the merge does not
     * wait for them between pushes): sequential too. */
    self->streams = gst_ctf_text_streams_new (tc, &self->opts, trace_name,
        CLAMP (g_get_num_processors (), 1, MAX_WORKERS));
    gst_ctf_text_streams_set_delta (self->streams, &delta);
  } else {
    self->fmt = gst_ctf_text_formatter_new (tc, &self->opts);
    gst_ctf_text_formatter_set_trace_name (self->fmt, trace_name);
    gst_ctf_text_formatter_set_delta (self->fmt, &delta);
    self->merge = gst_ctf_event_merge_new (tc);
    gst_ctf_event_merge_set_emulate_recycling (self->merge,
        emulating_recycling (self));
  }
  return TRUE;
}

static GstFlowReturn
gst_ctf_text_sink_render (GstBaseSink * bsink, GstBuffer * buffer)
{
  GstCtfTextSink *self = GST_CTF_TEXT_SINK (bsink);
  GstCtfPacketMeta *meta;
  MappedBuffer *mb;
  GBytes *bytes;
  guint64 sc_id;
  gint64 rank, stream_id;
  const gchar *name = NULL;
  gint64 offset = -1;
  GError *err = NULL;
  gboolean ok;

  if (self->format == GST_CTF_TEXT_FORMAT_METADATA && self->tsdl != NULL)
    return GST_FLOW_OK;
  if (self->tc == NULL) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("Received a buffer before caps with CTF metadata."));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  mb = g_new0 (MappedBuffer, 1);
  if (!gst_buffer_map (buffer, &mb->map, GST_MAP_READ)) {
    g_free (mb);
    GST_ELEMENT_ERROR (self, RESOURCE, READ, (NULL),
        ("Cannot map buffer."));
    return GST_FLOW_ERROR;
  }
  mb->buffer = gst_buffer_ref (buffer);
  bytes = g_bytes_new_with_free_func (mb->map.data, mb->map.size,
      mapped_buffer_free, mb);

  meta = gst_buffer_get_ctf_packet_meta (buffer);
  if (meta != NULL) {
    /* stream_index is the stream's rank in babeltrace2's tie order (which
     * also sorts the traces of a merged trace class, whose stream ids can
     * repeat): it orders equal timestamps.  stream_id is what babeltrace2
     * prints; a producer that does not know it leaves G_MAXUINT64, then
     * the header's instance id (babeltrace2's id when present) or, last,
     * the rank stands for it. */
    sc_id = meta->stream_class_id;
    rank = meta->stream_index;
    if (meta->stream_id != G_MAXUINT64)
      stream_id = (gint64) meta->stream_id;
    else if (meta->stream_instance_id != G_MAXUINT64)
      stream_id = (gint64) meta->stream_instance_id;
    else
      stream_id = rank;
    name = meta->stream_name;
    offset = meta->offset;
    if (meta->file_path && name &&
        g_hash_table_lookup (self->file_paths, name) != meta->file_path)
      g_hash_table_insert (self->file_paths, (gpointer) name,
          (gpointer) meta->file_path);
  } else {
    /* Without the meta, the packet header says where it belongs. */
    GstCtfPacketInfo info;
    gchar key[48];
    gpointer id;

    if (!gst_ctf_packet_read_info (self->tc, mb->map.data, mb->map.size,
            &info, &err)) {
      g_bytes_unref (bytes);
      write_text (self);
      GST_ELEMENT_ERROR (self, STREAM, DECODE,
          ("Cannot read packet header: buffer-offset=%" G_GUINT64_FORMAT
              " (bytes).", GST_BUFFER_OFFSET (buffer)),
          ("%s", err ? err->message : "unknown error"));
      g_clear_error (&err);
      return GST_FLOW_ERROR;
    }
    sc_id = info.stream_class_id;
    g_snprintf (key, sizeof (key), "%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT
        ":%d", sc_id, info.stream_instance_id, info.has_stream_instance_id);
    id = g_hash_table_lookup (self->stream_ids, key);
    if (id == NULL) {
      id = GSIZE_TO_POINTER (g_hash_table_size (self->stream_ids) + 1);
      g_hash_table_insert (self->stream_ids, g_strdup (key), id);
    }
    stream_id = info.has_stream_instance_id ?
        (gint64) info.stream_instance_id : (gint64) GPOINTER_TO_SIZE (id) - 1;
    rank = stream_id;
  }

  if (self->report && meta && meta->events_discarded_unknown)
    g_hash_table_add (self->unknown_losses, g_strdup_printf ("%"
            G_GUINT64_FORMAT ":%" G_GINT64_FORMAT, sc_id, stream_id));
  if (self->report
      && gst_ctf_trace_cmd_report_is_side_stream (self->report, sc_id)) {
    /* what libtraceevent needs; trace-cmd prints none of it */
    ok = gst_ctf_trace_cmd_report_add_side_packet (self->report,
        mb->map.data, mb->map.size, &err);
    if (ok) {
      g_bytes_unref (bytes);
      return GST_FLOW_OK;
    }
  } else if (self->has_side && sc_id == self->side_sc_id
      && !self->side_stream) {
    /* the trace.dat's side stream describes the trace: not printed */
    g_bytes_unref (bytes);
    return GST_FLOW_OK;
  } else if (self->streams)
    ok = gst_ctf_text_streams_push (self->streams, bytes, sc_id, rank,
        stream_id, name, meta ? meta->file_path : NULL, offset, &err);
  else
    ok = gst_ctf_event_merge_push_full (self->merge, bytes, sc_id, rank,
        stream_id, name, offset, &err);
  g_bytes_unref (bytes);
  if (!ok) {
    gchar *place;

    write_text (self);
    place = packet_place (self, name, offset);

    GST_ELEMENT_ERROR (self, STREAM, DECODE,
        ("Cannot read packet: %s: %s (bit offsets count from the "
            "packet's start).", place, err ? err->message : "unknown error"),
        ("%s (%s, %d)", err ? err->message : "unknown error",
            err ? g_quark_to_string (err->domain) : "", err ? err->code : 0));
    g_free (place);
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  if (drain (self) != GST_FLOW_OK)
    return GST_FLOW_ERROR;
  return write_live (self) ? GST_FLOW_OK : GST_FLOW_ERROR;
}

static gboolean
gst_ctf_text_sink_event (GstBaseSink * bsink, GstEvent * event)
{
  GstCtfTextSink *self = GST_CTF_TEXT_SINK (bsink);

  if (GST_EVENT_TYPE (event) == GST_EVENT_GAP && self->merge != NULL) {
    GstClockTime ts, dur;

    /* No packet before the GAP's end will come (packets arrive in
     * timestamp_begin order, PTS = timestamp_begin in ns from the clock
     * origin): the events before it can be given back. */
    gst_event_parse_gap (event, &ts, &dur);
    if (GST_CLOCK_TIME_IS_VALID (ts) && ts <= G_MAXINT64) {
      if (GST_CLOCK_TIME_IS_VALID (dur) && dur <= G_MAXINT64 - ts)
        ts += dur;
      gst_ctf_event_merge_advance (self->merge, (gint64) ts);
      if (drain (self) != GST_FLOW_OK || !write_live (self)) {
        gst_event_unref (event);
        return FALSE;
      }
    }
  } else if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
    if (self->tc) {
      finish_trace (self);
      if (drain (self) != GST_FLOW_OK) {
        gst_event_unref (event);
        return FALSE;
      }
    }
    /* babeltrace2 ends its standard output with a colour reset when it
     * colours (whatever --color says; with -w too, but that one goes to
     * the terminal, not into the file: not written with a location) */
    if (self->format == GST_CTF_TEXT_FORMAT_BABELTRACE &&
        self->out_is_stdout && terminal_has_colors ())
      g_string_append (self->text, "\033[0m");
    if (!write_text (self)) {
      gst_event_unref (event);
      return FALSE;
    }
    if (self->out)
      fflush (self->out);
    GST_INFO_OBJECT (self, "%" G_GUINT64_FORMAT " events written, %"
        G_GUINT64_FORMAT " events and %" G_GUINT64_FORMAT
        " packets discarded by the tracer", self->n_events,
        self->n_discarded_events, self->n_discarded_packets);
  }
  return GST_BASE_SINK_CLASS (parent_class)->event (bsink, event);
}

static gboolean
gst_ctf_text_sink_start (GstBaseSink * bsink)
{
  GstCtfTextSink *self = GST_CTF_TEXT_SINK (bsink);

  self->n_events = 0;
  self->live = FALSE;
  self->n_discarded_events = 0;
  self->n_discarded_packets = 0;
  /* babeltrace2: colours when its process's stdout and stderr are such
   * terminals (or BABELTRACE_TERM_COLOR=always), whatever -w says, and
   * with --color=auto only on stdout (no -w) */
  self->opts.color = self->color != GST_CTF_TEXT_COLOR_NEVER &&
      terminal_has_colors () && (self->color == GST_CTF_TEXT_COLOR_ALWAYS ||
      self->location == NULL || self->location[0] == '\0');
  if (self->location == NULL || self->location[0] == '\0') {
    self->out = stdout;
    self->out_is_stdout = TRUE;
    return TRUE;
  }
  self->out = g_fopen (self->location, "wb");
  if (self->out == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Could not open file \"%s\" for writing.", self->location),
        ("%s", g_strerror (errno)));
    return FALSE;
  }
  self->out_is_stdout = FALSE;
  return TRUE;
}

static gboolean
gst_ctf_text_sink_stop (GstBaseSink * bsink)
{
  GstCtfTextSink *self = GST_CTF_TEXT_SINK (bsink);
  gboolean ok = TRUE;

  write_text (self);
  drop_trace (self);
  if (self->out) {
    if (self->out_is_stdout) {
      fflush (self->out);
    } else if (fclose (self->out) != 0) {
      GST_ELEMENT_ERROR (self, RESOURCE, CLOSE,
          ("Could not close file \"%s\".", self->location),
          ("%s", g_strerror (errno)));
      ok = FALSE;
    }
    self->out = NULL;
  }
  return ok;
}

/* ------------------------------------------------------------------ */

/* babeltrace2's --names: a comma-separated list of payload (args, arg),
 * context (ctx), header, scope, all, none.  Without the option, payload
 * and context names are printed; "all" / "none" set every kind, and any
 * other name alone hides the kinds it does not name (babeltrace2's
 * name-default=hide).  Returns FALSE on an unknown name. */
static gboolean
parse_names (const gchar * list, GstCtfTextOptions * o)
{
  gchar **tok = g_strsplit (list ? list : "", ",", -1);
  gint def = -1;                /* -1: unset, 0: hide, 1: show */
  gboolean other = FALSE, payload = FALSE, context = FALSE, header = FALSE,
      scope = FALSE, ok = TRUE;
  guint i;

  for (i = 0; tok[i] != NULL; i++) {
    const gchar *t = g_strstrip (tok[i]);

    if (strcmp (t, "all") == 0)
      def = 1;
    else if (strcmp (t, "none") == 0)
      def = 0;
    else if (strcmp (t, "payload") == 0 || strcmp (t, "args") == 0 ||
        strcmp (t, "arg") == 0)
      payload = other = TRUE;
    else if (strcmp (t, "context") == 0 || strcmp (t, "ctx") == 0)
      context = other = TRUE;
    else if (strcmp (t, "header") == 0)
      header = other = TRUE;
    else if (strcmp (t, "scope") == 0)
      scope = other = TRUE;
    else if (t[0] != '\0')
      ok = FALSE;
  }
  g_strfreev (tok);
  if (!ok)
    return FALSE;
  if (def < 0 && !other) {
    /* (unset: babeltrace2's defaults) */
    o->name_payload = o->name_context = TRUE;
    o->name_header = o->name_scope = FALSE;
    return TRUE;
  }
  if (def < 0)
    def = 0;
  o->name_payload = def || payload;
  o->name_context = def || context;
  o->name_header = def || header;
  o->name_scope = def || scope;
  return TRUE;
}

/* babeltrace2's --fields: trace, trace:hostname, trace:domain,
 * trace:procname, trace:vpid, loglevel, emf, callsite, all; as --names,
 * naming some hides the others (hostname, procname and vpid are printed
 * by default).  callsite is accepted and prints nothing (no call site
 * information is read). */
static gboolean
parse_fields (const gchar * list, GstCtfTextOptions * o)
{
  gchar **tok = g_strsplit (list ? list : "", ",", -1);
  gboolean all = FALSE, other = FALSE, ok = TRUE;
  gboolean trace = FALSE, host = FALSE, domain = FALSE, proc = FALSE,
      vpid = FALSE, loglevel = FALSE, emf = FALSE;
  guint i;

  for (i = 0; tok[i] != NULL; i++) {
    const gchar *t = g_strstrip (tok[i]);

    if (strcmp (t, "all") == 0)
      all = TRUE;
    else if (strcmp (t, "trace") == 0)
      trace = other = TRUE;
    else if (strcmp (t, "trace:hostname") == 0)
      host = other = TRUE;
    else if (strcmp (t, "trace:domain") == 0)
      domain = other = TRUE;
    else if (strcmp (t, "trace:procname") == 0)
      proc = other = TRUE;
    else if (strcmp (t, "trace:vpid") == 0)
      vpid = other = TRUE;
    else if (strcmp (t, "loglevel") == 0)
      loglevel = other = TRUE;
    else if (strcmp (t, "emf") == 0)
      emf = other = TRUE;
    else if (strcmp (t, "callsite") == 0)
      other = TRUE;
    else if (t[0] != '\0')
      ok = FALSE;
  }
  g_strfreev (tok);
  if (!ok)
    return FALSE;
  if (!all && !other) {
    o->field_trace = o->field_trace_domain = FALSE;
    o->field_loglevel = o->field_emf = FALSE;
    o->field_trace_hostname = o->field_trace_procname =
        o->field_trace_vpid = TRUE;
    return TRUE;
  }
  o->field_trace = all || trace;
  o->field_trace_hostname = all || host;
  o->field_trace_domain = all || domain;
  o->field_trace_procname = all || proc;
  o->field_trace_vpid = all || vpid;
  o->field_loglevel = all || loglevel;
  o->field_emf = all || emf;
  return TRUE;
}

static void
gst_ctf_text_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfTextSink *self = GST_CTF_TEXT_SINK (object);
  gboolean notify_version = FALSE;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    case PROP_NO_DELTA:
      self->opts.no_delta = g_value_get_boolean (value);
      break;
    case PROP_CLOCK_CYCLES:
      self->opts.clock_cycles = g_value_get_boolean (value);
      break;
    case PROP_CLOCK_DATE:
      self->opts.clock_date = g_value_get_boolean (value);
      break;
    case PROP_CLOCK_GMT:
      self->opts.clock_gmt = g_value_get_boolean (value);
      break;
    case PROP_CLOCK_SECONDS:
      self->opts.clock_seconds = g_value_get_boolean (value);
      break;
    case PROP_FIELD_TRACE_DOMAIN:
      self->opts.field_trace_domain = g_value_get_boolean (value);
      break;
    case PROP_FIELD_LOGLEVEL:
      self->opts.field_loglevel = g_value_get_boolean (value);
      break;
    case PROP_FIELD_EMF:
      self->opts.field_emf = g_value_get_boolean (value);
      break;
    case PROP_NAME_HEADER:
      self->opts.name_header = g_value_get_boolean (value);
      break;
    case PROP_NAME_SCOPE:
      self->opts.name_scope = g_value_get_boolean (value);
      break;
    case PROP_BABELTRACE_VERSION:
      self->opts.babeltrace_version = g_value_get_enum (value);
      break;
    case PROP_EMULATE_RECYCLING:
      /* true keeps meaning "babeltrace2 2.0.4's exact output", as before
       * babeltrace-version existed */
      self->recycle = g_value_get_boolean (value);
      if (self->recycle &&
          self->opts.babeltrace_version != GST_CTF_BABELTRACE_2_0) {
        self->opts.babeltrace_version = GST_CTF_BABELTRACE_2_0;
        notify_version = TRUE;
      }
      break;
    case PROP_PARALLEL:
      self->parallel = g_value_get_boolean (value);
      break;
    case PROP_FORMAT:
      self->format = g_value_get_enum (value);
      self->opts.json_lines = self->format == GST_CTF_TEXT_FORMAT_JSON_LINES;
      break;
    case PROP_CLOCK_OFFSET:
      self->opts.clock_offset_s = g_value_get_int64 (value);
      break;
    case PROP_CLOCK_OFFSET_NS:
      self->opts.clock_offset_ns = g_value_get_int64 (value);
      break;
    case PROP_COLOR:
      self->color = g_value_get_enum (value);
      break;
    case PROP_SIDE_STREAM:
      self->side_stream = g_value_get_boolean (value);
      break;
    case PROP_NAMES:{
      const gchar *v = g_value_get_string (value);

      if (!parse_names (v, &self->opts)) {
        g_warning ("ctftextsink: invalid names \"%s\" (a comma-separated "
            "list of payload, context, header, scope, all, none)", v);
        break;
      }
      g_free (self->names);
      self->names = g_strdup (v);
      break;
    }
    case PROP_FIELDS:{
      const gchar *v = g_value_get_string (value);

      if (!parse_fields (v, &self->opts)) {
        g_warning ("ctftextsink: invalid fields \"%s\" (a comma-separated "
            "list of trace, trace:hostname, trace:domain, trace:procname, "
            "trace:vpid, loglevel, emf, callsite, all)", v);
        break;
      }
      g_free (self->fields);
      self->fields = g_strdup (v);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  if (notify_version)
    g_object_notify (object, "babeltrace-version");
}

static void
gst_ctf_text_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfTextSink *self = GST_CTF_TEXT_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_NO_DELTA:
      g_value_set_boolean (value, self->opts.no_delta);
      break;
    case PROP_CLOCK_CYCLES:
      g_value_set_boolean (value, self->opts.clock_cycles);
      break;
    case PROP_CLOCK_DATE:
      g_value_set_boolean (value, self->opts.clock_date);
      break;
    case PROP_CLOCK_GMT:
      g_value_set_boolean (value, self->opts.clock_gmt);
      break;
    case PROP_CLOCK_SECONDS:
      g_value_set_boolean (value, self->opts.clock_seconds);
      break;
    case PROP_FIELD_TRACE_DOMAIN:
      g_value_set_boolean (value, self->opts.field_trace_domain);
      break;
    case PROP_FIELD_LOGLEVEL:
      g_value_set_boolean (value, self->opts.field_loglevel);
      break;
    case PROP_FIELD_EMF:
      g_value_set_boolean (value, self->opts.field_emf);
      break;
    case PROP_NAME_HEADER:
      g_value_set_boolean (value, self->opts.name_header);
      break;
    case PROP_NAME_SCOPE:
      g_value_set_boolean (value, self->opts.name_scope);
      break;
    case PROP_BABELTRACE_VERSION:
      g_value_set_enum (value, self->opts.babeltrace_version);
      break;
    case PROP_EMULATE_RECYCLING:
      g_value_set_boolean (value, emulating_recycling (self));
      break;
    case PROP_PARALLEL:
      g_value_set_boolean (value, self->parallel);
      break;
    case PROP_FORMAT:
      g_value_set_enum (value, self->format);
      break;
    case PROP_CLOCK_OFFSET:
      g_value_set_int64 (value, self->opts.clock_offset_s);
      break;
    case PROP_CLOCK_OFFSET_NS:
      g_value_set_int64 (value, self->opts.clock_offset_ns);
      break;
    case PROP_NAMES:
      g_value_set_string (value, self->names);
      break;
    case PROP_COLOR:
      g_value_set_enum (value, self->color);
      break;
    case PROP_SIDE_STREAM:
      g_value_set_boolean (value, self->side_stream);
      break;
    case PROP_FIELDS:
      g_value_set_string (value, self->fields);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_ctf_text_sink_finalize (GObject * object)
{
  GstCtfTextSink *self = GST_CTF_TEXT_SINK (object);

  drop_trace (self);
  g_hash_table_unref (self->stream_ids);
  g_hash_table_unref (self->unknown_losses);
  g_hash_table_unref (self->file_paths);
  g_string_free (self->text, TRUE);
  g_string_free (self->warn, TRUE);
  g_free (self->location);
  g_free (self->names);
  g_free (self->fields);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

#define BOOL_PROP(id, name, nick, blurb) \
  g_object_class_install_property (gobject_class, id, \
      g_param_spec_boolean (name, nick, blurb, FALSE, \
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
          GST_PARAM_MUTABLE_READY))

static void
gst_ctf_text_sink_class_init (GstCtfTextSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *bsink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->set_property = gst_ctf_text_sink_set_property;
  gobject_class->get_property = gst_ctf_text_sink_get_property;
  gobject_class->finalize = gst_ctf_text_sink_finalize;

  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "File to write the text to (stdout when unset, like babeltrace2)",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  BOOL_PROP (PROP_NO_DELTA, "no-delta", "No delta",
      "Do not print the time since the previous event, \"(+S.NS)\" "
      "(babeltrace2 --no-delta)");
  BOOL_PROP (PROP_CLOCK_CYCLES, "clock-cycles", "Clock cycles",
      "Print timestamps as raw clock cycles instead of time "
      "(babeltrace2 --clock-cycles)");
  BOOL_PROP (PROP_CLOCK_DATE, "clock-date", "Clock date",
      "Print the date (YYYY-MM-DD) before the time of day "
      "(babeltrace2 --clock-date)");
  BOOL_PROP (PROP_CLOCK_GMT, "clock-gmt", "Clock GMT",
      "Print times in UTC instead of the local time zone "
      "(babeltrace2 --clock-gmt)");
  BOOL_PROP (PROP_CLOCK_SECONDS, "clock-seconds", "Clock seconds",
      "Print times as seconds since the clock origin, SEC.NS, instead of "
      "HH:MM:SS.NS (babeltrace2 --clock-seconds)");
  BOOL_PROP (PROP_FIELD_TRACE_DOMAIN, "field-trace-domain",
      "Field trace:domain",
      "Print the trace's \"domain\" environment entry (kernel, ust) after "
      "the host name (babeltrace2 --fields=trace:domain)");
  BOOL_PROP (PROP_FIELD_LOGLEVEL, "field-loglevel", "Field loglevel",
      "Print each event's log level, e.g. TRACE_INFO (6) "
      "(babeltrace2 --fields=loglevel)");
  BOOL_PROP (PROP_FIELD_EMF, "field-emf", "Field EMF URI",
      "Print each event class's model.emf.uri when it has one "
      "(babeltrace2 --fields=emf)");
  BOOL_PROP (PROP_NAME_HEADER, "name-header", "Name header fields",
      "Print the names of the header fields (timestamp = , name = ) "
      "(babeltrace2 --names=header)");
  BOOL_PROP (PROP_NAME_SCOPE, "name-scope", "Name scopes",
      "Print the scope names (stream.packet.context = , event.fields = ) "
      "(babeltrace2 --names=scope)");

  g_object_class_install_property (gobject_class, PROP_BABELTRACE_VERSION,
      g_param_spec_enum ("babeltrace-version", "babeltrace2 version",
          "Which babeltrace2 release's text to reproduce: 2.1 (the default, "
          "checked against 2.1.2) or 2.0 (checked against 2.0.4, what "
          "Debian 12 ships; an enumeration value with several labels prints "
          "them as \"A\", \"B\" instead of { \"B\", \"A\" }, and an "
          "empty string as 2.0 does, see emulate-recycling)",
          GST_TYPE_CTF_TEXT_SINK_BABELTRACE_VERSION, GST_CTF_BABELTRACE_2_1,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_EMULATE_RECYCLING,
      g_param_spec_boolean ("emulate-recycling", "Emulate recycling",
          "With babeltrace-version=2.0: print an empty string or empty text "
          "sequence as the value babeltrace2 2.0's recycled event object "
          "last held, a 2.0 bug (2.0.4's exact output; needs the whole "
          "trace, up to 64 MiB, before the first line, and formats on one "
          "thread).  On by default in that mode; set it to false for \"\" "
          "there, streamed.  Setting it to true also selects "
          "babeltrace-version=2.0, as before that property existed.  Reads "
          "true when the emulation is in effect", FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_PARALLEL,
      g_param_spec_boolean ("parallel", "Parallel",
          "Decode and format the packets on worker threads (one per "
          "core, at most " G_STRINGIFY (MAX_WORKERS) ") and merge their "
          "lines on the streaming thread (same output; not while "
          "emulate-recycling is in effect, nor when upstream is live)",
          TRUE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_FORMAT,
      g_param_spec_enum ("format", "Format",
          "What to print: babeltrace (babeltrace2's default text) or "
          "trace-cmd (trace-cmd report's text, byte for byte, for a trace "
          "tracecmdsrc converted from a trace.dat: cpus=N, then "
          "COMM-PID [CPU] SECS.USECS: EVENT: the event's print fmt "
          "formatted by libtraceevent and its plugins; the babeltrace2 "
          "switches do not apply); json-lines, one JSON object per event "
          "(time_ns, cycles, clock, name, trace, stream, cpu, then the "
          "scopes packet_context, event_header, stream_event_context, "
          "event_context and payload as objects; enumerations as "
          "{\"value\", \"labels\"}), for scripts; or metadata, the "
          "trace's metadata text (TSDL, or CTF 2 JSON) as babeltrace2 -o "
          "ctf-metadata prints it, once per trace",
          GST_TYPE_CTF_TEXT_FORMAT, GST_CTF_TEXT_FORMAT_BABELTRACE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_CLOCK_OFFSET,
      g_param_spec_int64 ("clock-offset", "Clock offset",
          "Seconds added to the offset of every clock class: the printed "
          "times move (babeltrace2 --clock-offset)", G_MININT32, G_MAXINT32,
          0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_CLOCK_OFFSET_NS,
      g_param_spec_int64 ("clock-offset-ns", "Clock offset (ns)",
          "Nanoseconds added to the offset of every clock class "
          "(babeltrace2 --clock-offset-ns)", G_MININT64 / 2, G_MAXINT64 / 2,
          0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_NAMES,
      g_param_spec_string ("names", "Names",
          "Which field names to print, as babeltrace2 --names / -n: a "
          "comma-separated list of payload (args), context (ctx), header, "
          "scope, all, none; naming some hides the others (default: "
          "payload and context names).  Sets name-header and name-scope",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_FIELDS,
      g_param_spec_string ("fields", "Fields",
          "Which optional fields to print, as babeltrace2 --fields / -f: a "
          "comma-separated list of trace, trace:hostname, trace:domain, "
          "trace:procname, trace:vpid, loglevel, emf, callsite, all; "
          "naming some hides the others (default: trace:hostname, "
          "trace:procname, trace:vpid).  Sets field-trace-domain, "
          "field-loglevel and field-emf.  trace is babeltrace2's trace name: "
          "the host name and the trace's path below the directory ctfsrc "
          "was given (its caps' trace-name; each input's for a merged "
          "trace)",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_COLOR,
      g_param_spec_enum ("color", "Color",
          "Colour the text as babeltrace2 --color does, when babeltrace2 "
          "would colour at all (stdout and stderr on a terminal whose TERM "
          "it knows, or BABELTRACE_TERM_COLOR=always): auto colours stdout "
          "only, always stdout or location, never nothing", GST_TYPE_CTF_TEXT_COLOR, GST_CTF_TEXT_COLOR_AUTO,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCtfTextSink:side-stream:
   *
   * Also prints the events of a trace.dat's side stream (the stream class
   * of the `tracecmd_*` event classes: the file's header and options,
   * ftrace event formats, saved cmdlines, kallsyms, printk formats; see
   * gst_ctf_trace_dat_is_side_stream_class()), which describe the trace
   * rather than happen in it.  Off by default, as `trace-cmd report` shows
   * none of them.  format=trace-cmd reads them in any case.
   */
  g_object_class_install_property (gobject_class, PROP_SIDE_STREAM,
      g_param_spec_boolean ("side-stream", "Side stream",
          "Also print the events of a trace.dat's side stream (tracecmd_* "
          "event classes: header, options, ftrace formats, cmdlines, "
          "kallsyms, printk formats), which describe the trace rather than "
          "happen in it", FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_type_mark_as_plugin_api (GST_TYPE_CTF_TEXT_SINK_BABELTRACE_VERSION, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CTF_TEXT_FORMAT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CTF_TEXT_COLOR, 0);
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class,
      "CTF text sink", "Sink/Trace",
      "Writes the events of CTF packets as babeltrace2's text, or as "
      "trace-cmd report's for traces from tracecmdsrc (format=trace-cmd)",
      GST_CTF_ELEMENT_AUTHOR);

  bsink_class->set_caps = GST_DEBUG_FUNCPTR (gst_ctf_text_sink_set_caps);
  bsink_class->render = GST_DEBUG_FUNCPTR (gst_ctf_text_sink_render);
  bsink_class->event = GST_DEBUG_FUNCPTR (gst_ctf_text_sink_event);
  bsink_class->start = GST_DEBUG_FUNCPTR (gst_ctf_text_sink_start);
  bsink_class->stop = GST_DEBUG_FUNCPTR (gst_ctf_text_sink_stop);
}

static void
gst_ctf_text_sink_init (GstCtfTextSink * self)
{
  gst_ctf_text_options_init (&self->opts);
  self->recycle = TRUE;
  self->parallel = TRUE;
  self->text = g_string_sized_new (FLUSH_THRESHOLD + 4096);
  self->warn = g_string_sized_new (512);
  self->stream_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  self->unknown_losses = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  self->file_paths = g_hash_table_new (NULL, NULL);
  /* A text sink writes as fast as it can: no clock sync. */
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
}
