/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef __GST_TRACECMD_TEP_H__
#define __GST_TRACECMD_TEP_H__

#include <glib.h>

G_BEGIN_DECLS

/*
 * GstTraceCmdTep: libtraceevent kept in a child process (private to the
 * library; gsttracecmd-report.c is its one user).
 *
 * Everything of a trace.dat that libtraceevent parses (header page, event
 * formats and their print fmts, kallsyms, printk formats) and every record
 * it prints goes to a forked child over a socket pair; the parent only
 * loads the plugins and registers the cmdlines before the fork.  A child
 * that dies or stops answering is replaced, and the input that killed it
 * is given again in a milder form (a format without its print fmt, then
 * without the format) or left out, so a malformed trace.dat cannot crash
 * or hang the process that prints it.
 */
typedef struct _GstTraceCmdTep GstTraceCmdTep;

GstTraceCmdTep *gst_trace_cmd_tep_new (gboolean big_endian, guint long_size,
    guint page_size, gboolean in_usecs);
void gst_trace_cmd_tep_free (GstTraceCmdTep * t);

/* Setup, before the first gst_trace_cmd_tep_print() (ignored after it). */
void gst_trace_cmd_tep_set_header_page (GstTraceCmdTep * t,
    const gchar * text);
void gst_trace_cmd_tep_add_comm (GstTraceCmdTep * t, const gchar * comm,
    gint pid);
void gst_trace_cmd_tep_add_format (GstTraceCmdTep * t, guint id,
    const gchar * system, const gchar * text);
void gst_trace_cmd_tep_set_symbols (GstTraceCmdTep * t,
    const gchar * kallsyms, const gchar * printk);

/* Queues one record's line: @prefix (the instance column, a drop line),
 * then `COMM-PID [CPU] TIME: NAME: INFO` as trace-cmd report prints it
 * (@name when libtraceevent does not know event @id).  Lines reach @out in
 * order, by this call when the queue is full or by
 * gst_trace_cmd_tep_flush(). */
gboolean gst_trace_cmd_tep_print (GstTraceCmdTep * t, const gchar * prefix,
    gsize prefix_len, guint id, const gchar * name, const guint8 * record,
    gsize size, guint64 ts, gint cpu, GString * out, GError ** error);
gboolean gst_trace_cmd_tep_flush (GstTraceCmdTep * t, GString * out,
    GError ** error);

G_END_DECLS

#endif
