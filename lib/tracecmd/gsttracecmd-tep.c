/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtraceevent in a child process (gsttracecmd-tep.h).
 *
 * libtraceevent 1.7.1 (Debian 12) dereferences NULL on some malformed print
 * fmts (fuzz-tracecmd-report found two shapes; trace-cmd report crashes on
 * the same files), and a trace.dat is untrusted input.  So this process
 * never gives it anything from the trace: at the first record, a forked
 * child parses the header page, the event formats, kallsyms and printk
 * formats, reporting each step done, then reads records from a socket pair
 * and answers each with its text.
 *
 * The parent knows where a child that dies (or is silent for
 * CHILD_TIMEOUT_MS) was: during setup, the step after the last one
 * reported; afterwards, the first record not answered.  It then starts a
 * new child with that input made milder: a format loses its print fmt (the
 * event prints as libtraceevent prints one it could not parse, as for any
 * print fmt it refuses), then the format itself; the header page or the
 * symbol tables are left out.  Records answered are kept and the others
 * sent again.  A child that dies with nothing left to make milder is an
 * error naming the record.
 *
 * Wire (one machine, host byte order): a record is ReqHead, the prefix,
 * the name, the record bytes; the child answers with MsgHead (+ the line).
 */
#include "gstctf-error.h"
#include "gsttracecmd-tep.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

/* trace-cmd's per-event name column (tracecmd/trace-read.c) */
#define NAME_COLUMN 20
/* queued record bytes that make gst_trace_cmd_tep_print() exchange */
#define BATCH_BYTES (64 * 1024)
/* a child silent this long is taken as hung (its slowest step, kallsyms
 * of a whole kernel, takes tens of ms; libFuzzer's -timeout is 10 s) */
#define CHILD_TIMEOUT_MS 5000
/* longest line the child sends (libtraceevent's text of one record) */
#define MAX_LINE (4 * 1024 * 1024)

typedef enum
{
  FORMAT_FULL,
  FORMAT_NO_PRINT_FMT,
  FORMAT_LEFT_OUT
} FormatState;

typedef struct
{
  guint id;
  gchar *system;
  gchar *text;
  FormatState state;
} Format;

typedef struct
{
  guint32 size;                 /* bytes after this head */
  guint32 prefix_len;
  guint32 name_len;
  guint32 id;
  gint32 cpu;
  guint32 pad;
  guint64 ts;
} ReqHead;

enum
{
  MSG_STEP,                     /* len = the setup step done */
  MSG_READY,
  MSG_LINE                      /* len bytes of text follow */
};

typedef struct
{
  guint32 kind;
  guint32 len;
} MsgHead;

struct _GstTraceCmdTep
{
  /* what the child inherits */
  struct tep_handle *tep;       /* plugins and cmdlines only, here */
  struct tep_plugin_list *plugins;
  gboolean in_usecs;
  gchar *header_page;
  GPtrArray *formats;           /* Format *, in the order given */
  GHashTable *by_id;            /* id -> Format * */
  gchar *kallsyms;
  gchar *printk;
  gboolean started;

  /* the child */
  pid_t pid;
  gint fd;

  /* records sent or to send, not answered yet */
  GByteArray *req;
  GArray *req_starts;           /* guint offsets into req */
  gsize sent;
  GByteArray *resp;             /* bytes received, not yet a whole message */
};

GstTraceCmdTep *
gst_trace_cmd_tep_new (gboolean big_endian, guint long_size, guint page_size,
    gboolean in_usecs)
{
  GstTraceCmdTep *t = g_new0 (GstTraceCmdTep, 1);

  t->tep = tep_alloc ();
  tep_set_file_bigendian (t->tep, big_endian ? TEP_BIG_ENDIAN :
      TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian (t->tep, G_BYTE_ORDER == G_BIG_ENDIAN ?
      TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_long_size (t->tep, (gint) long_size);
  tep_set_page_size (t->tep, (gint) page_size);
  /* the plugins trace-cmd loads (sched_switch, kmem, ...): they come from
   * the system, not from the trace, and dlopen() stays in this process */
  t->plugins = tep_load_plugins (t->tep);
  t->in_usecs = in_usecs;
  t->formats = g_ptr_array_new ();
  t->by_id = g_hash_table_new (NULL, NULL);
  t->pid = -1;
  t->fd = -1;
  t->req = g_byte_array_new ();
  t->req_starts = g_array_new (FALSE, FALSE, sizeof (guint));
  t->resp = g_byte_array_new ();
  return t;
}

static void
stop_child (GstTraceCmdTep * t)
{
  if (t->fd >= 0)
    close (t->fd);
  t->fd = -1;
  if (t->pid > 0) {
    kill (t->pid, SIGKILL);
    while (waitpid (t->pid, NULL, 0) < 0 && errno == EINTR);
  }
  t->pid = -1;
  g_byte_array_set_size (t->resp, 0);
}

void
gst_trace_cmd_tep_free (GstTraceCmdTep * t)
{
  guint i;

  if (t == NULL)
    return;
  /* nothing more is wanted from it, whatever it is doing */
  stop_child (t);
  for (i = 0; i < t->formats->len; i++) {
    Format *f = g_ptr_array_index (t->formats, i);

    g_free (f->system);
    g_free (f->text);
    g_free (f);
  }
  g_ptr_array_unref (t->formats);
  g_hash_table_unref (t->by_id);
  g_free (t->header_page);
  g_free (t->kallsyms);
  g_free (t->printk);
  if (t->plugins)
    tep_unload_plugins (t->plugins, t->tep);
  tep_free (t->tep);
  g_byte_array_unref (t->req);
  g_array_unref (t->req_starts);
  g_byte_array_unref (t->resp);
  g_free (t);
}

void
gst_trace_cmd_tep_set_header_page (GstTraceCmdTep * t, const gchar * text)
{
  if (t->started)
    return;
  g_free (t->header_page);
  t->header_page = g_strdup (text);
}

void
gst_trace_cmd_tep_add_comm (GstTraceCmdTep * t, const gchar * comm, gint pid)
{
  /* a copy of the name into a list: no parsing */
  if (!t->started)
    tep_register_comm (t->tep, comm, pid);
}

void
gst_trace_cmd_tep_add_format (GstTraceCmdTep * t, guint id,
    const gchar * system, const gchar * text)
{
  Format *f;

  if (t->started || g_hash_table_contains (t->by_id, GUINT_TO_POINTER (id)))
    return;
  f = g_new0 (Format, 1);
  f->id = id;
  f->system = g_strdup (system ? system : "");
  f->text = g_strdup (text);
  f->state = FORMAT_FULL;
  g_ptr_array_add (t->formats, f);
  g_hash_table_insert (t->by_id, GUINT_TO_POINTER (id), f);
}

void
gst_trace_cmd_tep_set_symbols (GstTraceCmdTep * t, const gchar * kallsyms,
    const gchar * printk)
{
  if (t->started)
    return;
  g_free (t->kallsyms);
  g_free (t->printk);
  t->kallsyms = kallsyms && *kallsyms ? g_strdup (kallsyms) : NULL;
  t->printk = printk && *printk ? g_strdup (printk) : NULL;
}

/* ------------------------------------------------------------------ */
/* the child */

/* The format's text up to its print fmt: what is after `print fmt:`, or
 * (when libtraceevent's tokenizer might find one in another spelling,
 * `print fmt :`) everything after the last field line, is left out. */
static gchar *
without_print_fmt (const gchar * text)
{
  gchar *copy = g_strdup (text);
  gchar *pf = strstr (copy, "print fmt:");
  gchar *last = g_strrstr (copy, "field:");
  gchar *eol = last ? strchr (last, '\n') : NULL;

  if (eol == NULL && last != NULL)
    eol = strchr (last, ';');
  if (pf != NULL)
    pf[strlen ("print fmt:")] = '\0';
  else if (eol != NULL)
    eol[1] = '\0';
  else
    copy[0] = '\0';
  return copy;
}

typedef struct
{
  gint fd;
  GByteArray *in;
  gsize in_pos;
  GString *out;
} Chan;

static void
chan_send (Chan * c)
{
  gsize done = 0;

  while (done < c->out->len) {
    ssize_t n = write (c->fd, c->out->str + done, c->out->len - done);

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      _exit (0);                /* the parent is gone */
    done += (gsize) n;
  }
  g_string_truncate (c->out, 0);
}

static void
chan_msg (Chan * c, guint32 kind, guint32 len, const gchar * data)
{
  MsgHead h = { kind, len };

  g_string_append_len (c->out, (const gchar *) &h, sizeof (h));
  if (data)
    g_string_append_len (c->out, data, len);
  if (kind != MSG_LINE || c->out->len >= BATCH_BYTES)
    chan_send (c);
}

/* Makes @need unread bytes available; ends the child at the parent's end. */
static guint8 *
chan_take (Chan * c, gsize need)
{
  guint8 *p;

  while (c->in->len - c->in_pos < need) {
    guint8 buf[BATCH_BYTES];
    ssize_t n;

    /* answer what is done before waiting for more */
    if (c->out->len)
      chan_send (c);
    if (c->in_pos > 0) {
      g_byte_array_remove_range (c->in, 0, (guint) c->in_pos);
      c->in_pos = 0;
    }
    n = read (c->fd, buf, sizeof (buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      _exit (0);
    g_byte_array_append (c->in, buf, (guint) n);
  }
  p = c->in->data + c->in_pos;
  c->in_pos += need;
  return p;
}

static void
child_setup (GstTraceCmdTep * t, Chan * c)
{
  guint32 step = 0;
  guint i;

  if (t->header_page)
    tep_parse_header_page (t->tep, t->header_page, strlen (t->header_page),
        tep_get_long_size (t->tep));
  chan_msg (c, MSG_STEP, step++, NULL);
  for (i = 0; i < t->formats->len; i++) {
    Format *f = g_ptr_array_index (t->formats, i);

    if (f->state == FORMAT_FULL) {
      tep_parse_event (t->tep, f->text, strlen (f->text), f->system);
    } else if (f->state == FORMAT_NO_PRINT_FMT) {
      gchar *text = without_print_fmt (f->text);

      tep_parse_event (t->tep, text, strlen (text), f->system);
      g_free (text);
    }
    chan_msg (c, MSG_STEP, step++, NULL);
  }
  if (t->kallsyms)
    tep_parse_kallsyms (t->tep, t->kallsyms);
  chan_msg (c, MSG_STEP, step++, NULL);
  if (t->printk)
    tep_parse_printk_formats (t->tep, t->printk);
  chan_msg (c, MSG_STEP, step++, NULL);
  chan_msg (c, MSG_READY, 0, NULL);
}

static void
child_print (GstTraceCmdTep * t, Chan * c, struct trace_seq *s)
{
  ReqHead h;
  const guint8 *p;
  struct tep_record rec;
  struct tep_event *event;
  gchar *own = NULL;
  const gchar *name;
  gint len;

  memcpy (&h, chan_take (c, sizeof (h)), sizeof (h));
  p = chan_take (c, h.size);

  memset (&rec, 0, sizeof (rec));
  rec.ts = h.ts;
  rec.cpu = h.cpu;
  rec.data = (void *) (p + h.prefix_len + h.name_len);
  rec.size = rec.record_size = (gint) (h.size - h.prefix_len - h.name_len);

  trace_seq_reset (s);
  if (h.prefix_len)
    trace_seq_printf (s, "%.*s", (gint) h.prefix_len, (const gchar *) p);
  tep_print_event (t->tep, s, &rec, "%16s-%-5d [%03d]", TEP_PRINT_COMM,
      TEP_PRINT_PID, TEP_PRINT_CPU);
  tep_print_event (t->tep, s, &rec, t->in_usecs ? " %6.1000d:" : "%12d:",
      TEP_PRINT_TIME);
  event = tep_find_event_by_record (t->tep, &rec);
  if (event && event->name)
    name = event->name;
  else
    name = own = g_strndup ((const gchar *) p + h.prefix_len, h.name_len);
  trace_seq_printf (s, " %s: ", name);
  len = (gint) strlen (name);
  if (len < NAME_COLUMN)
    trace_seq_printf (s, "%*s", NAME_COLUMN - len, "");
  g_free (own);
  tep_print_event (t->tep, s, &rec, "%s", TEP_PRINT_INFO);
  trace_seq_terminate (s);
  len = (gint) MIN (s->len, MAX_LINE - 1);
  if (len > 0 && s->buffer[len - 1] == '\n')
    len--;
  s->buffer[len] = '\n';
  chan_msg (c, MSG_LINE, (guint32) len + 1, s->buffer);
}

G_GNUC_NORETURN static void
child_main (GstTraceCmdTep * t, gint fd)
{
  static const gint fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
    SIGTRAP, SIGSYS
  };
  struct rlimit no_core = { 0, 0 };
  struct trace_seq s;
  Chan c = { fd, g_byte_array_new (), 0, g_string_new (NULL) };
  guint i;

  /* a crash here ends this process only, quietly: no handler inherited
   * from the parent (sanitizers, libFuzzer) writes reports or artifacts,
   * and no core file is left; Ctrl-C is for the parent (gst-launch -e
   * sends EOS and still wants its lines) */
  for (i = 0; i < G_N_ELEMENTS (fatal); i++)
    signal (fatal[i], SIG_DFL);
  signal (SIGINT, SIG_IGN);
  signal (SIGPIPE, SIG_IGN);
  setrlimit (RLIMIT_CORE, &no_core);
  tep_set_loglevel (TEP_LOG_NONE);

  child_setup (t, &c);
  trace_seq_init (&s);
  for (;;)
    child_print (t, &c, &s);
}

/* ------------------------------------------------------------------ */
/* the parent */

static gboolean
fork_child (GstTraceCmdTep * t, GError ** error)
{
  gint sv[2];
  pid_t pid;

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot make a socket pair for libtraceevent's process: %s",
        g_strerror (errno));
    return FALSE;
  }
  pid = fork ();
  if (pid < 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_IO,
        "Cannot start libtraceevent's process: fork() failed: %s",
        g_strerror (errno));
    close (sv[0]);
    close (sv[1]);
    return FALSE;
  }
  if (pid == 0) {
    close (sv[0]);
    child_main (t, sv[1]);
  }
  close (sv[1]);
  t->pid = pid;
  t->fd = sv[0];
  return TRUE;
}

/* Reads what the child sent; FALSE when it is dead or silent too long. */
static gboolean
receive (GstTraceCmdTep * t, gboolean want_send)
{
  struct pollfd p = { t->fd, POLLIN, 0 };
  gint r;

  if (want_send)
    p.events |= POLLOUT;
  do
    r = poll (&p, 1, CHILD_TIMEOUT_MS);
  while (r < 0 && errno == EINTR);
  if (r <= 0)
    return FALSE;
  if (p.revents & POLLOUT && want_send) {
    ssize_t n = send (t->fd, t->req->data + t->sent, t->req->len - t->sent,
        MSG_NOSIGNAL | MSG_DONTWAIT);

    if (n < 0 && errno != EAGAIN && errno != EINTR)
      return FALSE;
    if (n > 0)
      t->sent += (gsize) n;
  }
  if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
    guint8 buf[BATCH_BYTES];
    ssize_t n = recv (t->fd, buf, sizeof (buf), MSG_DONTWAIT);

    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
      return FALSE;
    if (n > 0)
      g_byte_array_append (t->resp, buf, (guint) n);
  }
  return TRUE;
}

/* Whether a whole message was received (its payload stays in resp until
 * consume()); a message no child of ours sends (a child whose memory
 * libtraceevent spoiled) makes *bad TRUE. */
static gboolean
next_msg (GstTraceCmdTep * t, MsgHead * h, gboolean * bad)
{
  if (t->resp->len < sizeof (*h))
    return FALSE;
  memcpy (h, t->resp->data, sizeof (*h));
  if (h->kind > MSG_LINE || (h->kind == MSG_LINE && h->len > MAX_LINE)) {
    *bad = TRUE;
    return FALSE;
  }
  return h->kind != MSG_LINE || t->resp->len - sizeof (*h) >= h->len;
}

static void
consume (GstTraceCmdTep * t, const MsgHead * h)
{
  g_byte_array_remove_range (t->resp, 0, sizeof (*h) +
      (h->kind == MSG_LINE ? h->len : 0));
}

/* Makes the input of setup step @step milder; FALSE when it cannot be. */
static gboolean
soften_step (GstTraceCmdTep * t, guint step)
{
  if (step == 0) {
    if (t->header_page == NULL)
      return FALSE;
    g_clear_pointer (&t->header_page, g_free);
    return TRUE;
  }
  if (step <= t->formats->len) {
    Format *f = g_ptr_array_index (t->formats, step - 1);

    if (f->state == FORMAT_LEFT_OUT)
      return FALSE;
    f->state++;
    return TRUE;
  }
  if (step == t->formats->len + 1 && t->kallsyms) {
    g_clear_pointer (&t->kallsyms, g_free);
    return TRUE;
  }
  if (step == t->formats->len + 2 && t->printk) {
    g_clear_pointer (&t->printk, g_free);
    return TRUE;
  }
  return FALSE;
}

/* Starts a child and waits until it parsed everything, replacing it with
 * a milder setup while one dies. */
static gboolean
start_child (GstTraceCmdTep * t, GError ** error)
{
  t->started = TRUE;
  for (;;) {
    gint64 step = -1;
    MsgHead h;
    gboolean ready = FALSE, bad = FALSE;

    if (!fork_child (t, error))
      return FALSE;
    while (!ready) {
      while (next_msg (t, &h, &bad)) {
        consume (t, &h);
        if (h.kind == MSG_READY)
          ready = TRUE;
        else if (h.kind == MSG_STEP)
          step = h.len;
      }
      if (!ready && (bad || !receive (t, FALSE)))
        break;
    }
    if (ready)
      return TRUE;
    stop_child (t);
    g_debug ("libtraceevent's process died at setup step %" G_GINT64_FORMAT
        " (0: header page, then the formats, kallsyms, printk formats)",
        step + 1);
    if (!soften_step (t, (guint) (step + 1))) {
      g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
          "libtraceevent's process died reading the trace's formats (step "
          "%" G_GINT64_FORMAT "), with nothing left to leave out",
          step + 1);
      return FALSE;
    }
  }
}

/* The record @i of the queue (its head). */
static void
req_head (GstTraceCmdTep * t, guint i, ReqHead * h)
{
  memcpy (h, t->req->data + g_array_index (t->req_starts, guint, i),
      sizeof (*h));
}

/* Drops the @n first records of the queue (answered) and rewinds the
 * sending to the first one left. */
static void
drop_answered (GstTraceCmdTep * t, guint n)
{
  guint cut, i;

  if (n == 0)
    return;
  cut = n < t->req_starts->len ? g_array_index (t->req_starts, guint, n)
      : t->req->len;
  g_byte_array_remove_range (t->req, 0, cut);
  g_array_remove_range (t->req_starts, 0, n);
  for (i = 0; i < t->req_starts->len; i++)
    g_array_index (t->req_starts, guint, i) -= cut;
  t->sent = t->sent > cut ? t->sent - cut : 0;
}

gboolean
gst_trace_cmd_tep_flush (GstTraceCmdTep * t, GString * out, GError ** error)
{
  while (t->req_starts->len > 0) {
    guint answered = 0;
    MsgHead h;
    gboolean alive = TRUE, bad = FALSE;

    if (t->pid < 0 && !start_child (t, error))
      return FALSE;
    while (answered < t->req_starts->len) {
      while (answered < t->req_starts->len && next_msg (t, &h, &bad)) {
        if (h.kind == MSG_LINE)
          g_string_append_len (out, (const gchar *) t->resp->data +
              sizeof (h), h.len);
        consume (t, &h);
        answered++;
      }
      if (answered < t->req_starts->len
          && !(alive = !bad && receive (t, t->sent < t->req->len)))
        break;
    }
    drop_answered (t, answered);
    if (!alive) {
      ReqHead rh;
      Format *f;

      /* the first record not answered killed it: its format is made
       * milder and the rest is sent again to a new child */
      stop_child (t);
      t->sent = 0;
      req_head (t, 0, &rh);
      f = g_hash_table_lookup (t->by_id, GUINT_TO_POINTER (rh.id));
      g_debug ("libtraceevent's process died printing a record of event id "
          "%u", rh.id);
      if (f == NULL || f->state == FORMAT_LEFT_OUT) {
        g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_TRACEDAT,
            "libtraceevent's process died printing a record of event id %u "
            "at %" G_GUINT64_FORMAT " (trace-cmd report would crash too)",
            rh.id, (guint64) rh.ts);
        return FALSE;
      }
      f->state++;
    }
  }
  t->sent = 0;
  return TRUE;
}

gboolean
gst_trace_cmd_tep_print (GstTraceCmdTep * t, const gchar * prefix,
    gsize prefix_len, guint id, const gchar * name, const guint8 * record,
    gsize size, guint64 ts, gint cpu, GString * out, GError ** error)
{
  gsize name_len = name ? strlen (name) : 0;
  ReqHead h = { 0, };
  guint start = t->req->len;

  h.size = (guint32) (prefix_len + name_len + size);
  h.prefix_len = (guint32) prefix_len;
  h.name_len = (guint32) name_len;
  h.id = id;
  h.cpu = cpu;
  h.ts = ts;
  g_array_append_val (t->req_starts, start);
  g_byte_array_append (t->req, (const guint8 *) &h, sizeof (h));
  g_byte_array_append (t->req, (const guint8 *) prefix, (guint) prefix_len);
  g_byte_array_append (t->req, (const guint8 *) name, (guint) name_len);
  g_byte_array_append (t->req, record, (guint) size);
  if (t->req->len >= BATCH_BYTES)
    return gst_trace_cmd_tep_flush (t, out, error);
  return TRUE;
}
