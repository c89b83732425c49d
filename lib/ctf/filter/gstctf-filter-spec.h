/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: a whole event filter as ctffilter's properties give it
 * (`events`, `cpus`, `stream-classes`, `streams`, `pids`, `tids`,
 * `filter`, `filter-out`), parsed from one line of text, and the per
 * event class decision ctffilter makes with them.
 */
#pragma once

#include "gstctf-filter-expr.h"

G_BEGIN_DECLS

/**
 * GstCtfFilterSpec:
 *
 * The settings of one filter, as one line of text writes them (see
 * gst_ctf_filter_spec_parse()).  Immutable once parsed; the plans made
 * with it (gst_ctf_filter_spec_class_kind()) must not outlive it.
 */
typedef struct _GstCtfFilterSpec GstCtfFilterSpec;

/**
 * gst_ctf_filter_class_kind: (skip)
 * @sc: the stream class of @ec
 * @ec: an event class
 * @system: (nullable): @ec's trace-cmd event system (trace.dat events),
 *   else %NULL (see gst_ctf_filter_plan_add_expr())
 * @events: (nullable): ctffilter's `events`
 * @filter: (nullable): ctffilter's `filter`
 * @filter_out: (nullable): ctffilter's `filter-out`
 * @pids: (nullable): ctffilter's `pids` (fields `vpid`, `pid`,
 *   `common_pid`, the first the event has)
 * @tids: (nullable): ctffilter's `tids` (fields `vtid`, `tid`,
 *   `common_pid`)
 * @plan: (out) (transfer full): the plan that decides on the values when
 *   the result is %GST_CTF_FILTER_PLAN_EVAL, else %NULL
 *
 * The decision ctffilter makes for the events of @ec, all the settings
 * given holding together.  The lists and expressions must outlive @plan.
 *
 * Returns: whether the events of @ec are never, always or on their values
 *   kept
 */
GST_CTF_API GstCtfFilterPlanKind gst_ctf_filter_class_kind (
    const GstCtfStreamClass * sc, const GstCtfEventClass * ec,
    const gchar * system, const GstCtfNameList * events,
    const GstCtfFilterExpr * filter, const GstCtfFilterExpr * filter_out,
    const GstCtfIdList * pids, const GstCtfIdList * tids,
    GstCtfFilterPlan ** plan);

/**
 * gst_ctf_filter_packet_cpu: (skip)
 * @values: (array length=n_values) (nullable): a packet context's decoded
 *   values (%GST_CTF_SCOPE_PACKET_CONTEXT)
 * @n_values: their number
 * @cpu: (out): its `cpu_id`
 *
 * The CPU ctffilter's `cpus` looks at: the packet context's integer (or
 * enumeration) member `cpu_id`.
 *
 * Returns: whether the packet context has one
 */
GST_CTF_API gboolean gst_ctf_filter_packet_cpu (const GstCtfFieldValue *
    values, guint n_values, guint64 * cpu);

/**
 * gst_ctf_filter_spec_parse: (skip)
 * @text: the settings: words `KEY=VALUE`, for KEY one of ctffilter's
 *   list properties `events`, `cpus`, `stream-classes`, `streams`, `pids`
 *   and `tids` or its `filter-out` (an expression in the grammar of
 *   `filter`: the events it matches are left out, trace-cmd's `-v -F`),
 *   each at most once, and the rest of the text a `filter` expression
 *   (trace-cmd's `report -F` grammar, gst_ctf_filter_expr_parse()); for
 *   example `events=sched_*,!sched_stat_* cpus=0-1 sched_switch: prev_pid
 *   > 0` or `filter-out="sched_switch: prev_pid == 0" sched_*`.  A VALUE
 *   has no space, or is quoted as gst-launch quotes a property
 *   (`"..."` or `'...'`, without the same quote inside; the quotes are not
 *   part of the value)
 * @error: return location for a %GST_CTF_ERROR_FILTER_SYNTAX whose
 *   message names the column (counted from 1 in @text) of the word or of
 *   the expression's token that is wrong
 *
 * Parses the settings of a filter.  Words are separated by spaces or
 * tabs; a word whose text before its first `=` is not one of the keys
 * above belongs to the expression, as does every word after the first
 * word of the expression.  An empty @text keeps every event.
 *
 * Returns: (transfer full) (nullable): the settings, %NULL on error
 */
GST_CTF_API GstCtfFilterSpec *gst_ctf_filter_spec_parse (const gchar * text,
    GError ** error);

/**
 * gst_ctf_filter_spec_free: (skip)
 * @spec: (transfer full) (nullable): settings
 */
GST_CTF_API void gst_ctf_filter_spec_free (GstCtfFilterSpec * spec);

/**
 * gst_ctf_filter_spec_has_expression: (skip)
 * @spec: settings
 *
 * Returns: whether @spec has a `filter` or `filter-out` expression (which
 *   may name trace-cmd systems: see gst_ctf_filter_spec_class_kind())
 */
GST_CTF_API gboolean gst_ctf_filter_spec_has_expression (
    const GstCtfFilterSpec * spec);

/**
 * gst_ctf_filter_spec_class_kind: (skip)
 * @spec: settings
 * @sc: the stream class of @ec
 * @ec: an event class
 * @system: (nullable): @ec's trace-cmd event system, else %NULL
 * @plan: (out) (transfer full): as gst_ctf_filter_class_kind() gives it
 *
 * gst_ctf_filter_class_kind() with the settings of @spec.  The stream,
 * stream class and CPU settings are not part of it: see
 * gst_ctf_filter_spec_keeps_packet().
 *
 * Returns: whether the events of @ec are never, always or on their values
 *   kept
 */
GST_CTF_API GstCtfFilterPlanKind gst_ctf_filter_spec_class_kind (
    const GstCtfFilterSpec * spec, const GstCtfStreamClass * sc,
    const GstCtfEventClass * ec, const gchar * system,
    GstCtfFilterPlan ** plan);

/**
 * gst_ctf_filter_spec_keeps_packet: (skip)
 * @spec: settings
 * @stream_class_id: the packet's stream class id
 * @stream_name: (nullable): the packet's stream name (#GstCtfPacketMeta)
 * @context: (array length=n_context) (nullable): the packet context's
 *   decoded values, %NULL when @spec does not need them
 *   (gst_ctf_filter_spec_needs_cpu())
 * @n_context: their number
 *
 * Whether the events of the packet can be kept at all, as ctffilter
 * decides per packet (`stream-classes`, `streams`, `cpus`: a packet
 * without `cpu_id` is dropped when `cpus` is set).
 *
 * Returns: %FALSE when no event of the packet is kept
 */
GST_CTF_API gboolean gst_ctf_filter_spec_keeps_packet (
    const GstCtfFilterSpec * spec, guint64 stream_class_id,
    const gchar * stream_name, const GstCtfFieldValue * context,
    guint n_context);

/**
 * gst_ctf_filter_spec_needs_cpu: (skip)
 * @spec: settings
 *
 * Returns: whether @spec has `cpus` (the packet context's values are
 *   needed)
 */
GST_CTF_API gboolean gst_ctf_filter_spec_needs_cpu (
    const GstCtfFilterSpec * spec);

/**
 * gst_ctf_filter_systems_new: (skip)
 *
 * An empty table of trace-cmd event systems by event name, what
 * ctffilter learns from tracecmdsrc's side stream (`tracecmd_event_format`
 * events) and readers from the trace.dat's event formats; add to it with
 * gst_ctf_filter_systems_add().
 *
 * Returns: (transfer full): a table of strings (event name -> system)
 */
GST_CTF_API GHashTable *gst_ctf_filter_systems_new (void);

/**
 * gst_ctf_filter_systems_add: (skip)
 * @systems: a table from gst_ctf_filter_systems_new()
 * @name: an event name (`sched_switch`), the CTF event class's name
 * @system: its trace-cmd system (`sched`)
 *
 * Notes @name's system (a later one for the same name replaces it, as the
 * last format file of that name decides for trace-cmd).
 */
GST_CTF_API void gst_ctf_filter_systems_add (GHashTable * systems,
    const gchar * name, const gchar * system);

G_END_DECLS
