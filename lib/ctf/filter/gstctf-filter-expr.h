/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: event filters given as text.  Event name lists with globs and
 * exclusions, id lists ("0,2-3"), and field expressions in the grammar of
 * trace-cmd's `report -F` option (libtraceevent's event filter), compiled
 * per event class into plans that decide on decoded values.
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-reader.h"
#include "gstctf-error.h"

G_BEGIN_DECLS

/**
 * GstCtfNameList:
 *
 * A list of event name patterns, as `events="sched_*,irq_handler_entry,
 * !sched_wakeup*"` writes it: comma-separated globs (`*` any text, `?` one
 * character, matched against the whole event class name); an entry that
 * starts with `!` excludes.  A name matches when it matches no exclusion
 * and, if there is at least one inclusion, one of them.
 */
typedef struct _GstCtfNameList GstCtfNameList;

/**
 * gst_ctf_name_list_parse:
 * @text: the list
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_FILTER_SYNTAX: an empty entry, text that is not
 *   UTF-8)
 *
 * Returns: (transfer full) (nullable): the list, %NULL on error
 */
GST_CTF_API GstCtfNameList *gst_ctf_name_list_parse (const gchar * text,
    GError ** error);

/**
 * gst_ctf_name_list_match:
 * @list: a list
 * @name: an event class name
 *
 * Returns: whether @list keeps events named @name
 */
GST_CTF_API gboolean gst_ctf_name_list_match (const GstCtfNameList * list,
    const gchar * name);

/**
 * gst_ctf_name_list_free:
 * @list: (transfer full) (nullable): a list
 */
GST_CTF_API void gst_ctf_name_list_free (GstCtfNameList * list);

/**
 * GstCtfIdList:
 *
 * A set of unsigned integers written as trace-cmd's `--cpu` and taskset
 * write CPU lists: comma-separated numbers and inclusive ranges
 * (`0,2-3`).
 */
typedef struct _GstCtfIdList GstCtfIdList;

/**
 * gst_ctf_id_list_parse:
 * @text: the list
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_FILTER_SYNTAX: not a number, a range whose end is
 *   before its start, an empty entry)
 *
 * Returns: (transfer full) (nullable): the set, %NULL on error
 */
GST_CTF_API GstCtfIdList *gst_ctf_id_list_parse (const gchar * text,
    GError ** error);

/**
 * gst_ctf_id_list_contains:
 * @list: a set
 * @value: a value
 *
 * Returns: whether @value is in @list
 */
GST_CTF_API gboolean gst_ctf_id_list_contains (const GstCtfIdList * list,
    guint64 value);

/**
 * gst_ctf_id_list_free:
 * @list: (transfer full) (nullable): a set
 */
GST_CTF_API void gst_ctf_id_list_free (GstCtfIdList * list);

/**
 * GstCtfFilterExpr:
 *
 * A parsed filter in trace-cmd's `-F` grammar: one or more terms
 * `EVENTS[: EXPRESSION]` separated by commas, where EVENTS is a
 * comma-separated list of `SYSTEM/EVENT` or `NAME` (POSIX basic regular
 * expressions matched whole and without case, `NAME` against the system
 * or the event name), and EXPRESSION combines comparisons
 * `FIELD OP VALUE` (`==`, `!=`, `<`, `<=`, `>`, `>=` on numbers; `==`,
 * `!=`, `=~`, `!~` (regular expression) and `~` (glob, as the kernel's
 * event filters write it) on strings) and `FIELD BITOP NUMBER` (`&`, `|`,
 * `^`, `+`, `-`, `*`, `/`, `%`, `<<`, `>>`: true when not 0) with `&&`,
 * `||` (evaluated left to right, with no precedence between them, as
 * libtraceevent does), `!` and parentheses.  An event is kept when one
 * term names it and its expression (if any) holds.  A comparison on a
 * field the event does not have is false.
 */
typedef struct _GstCtfFilterExpr GstCtfFilterExpr;

/**
 * gst_ctf_filter_expr_parse:
 * @text: the filter, as given to `trace-cmd report -F`
 * @error: return location for a %GST_CTF_ERROR
 *   (%GST_CTF_ERROR_FILTER_SYNTAX, with the column and what was expected)
 *
 * Returns: (transfer full) (nullable): the filter, %NULL on error
 */
GST_CTF_API GstCtfFilterExpr *gst_ctf_filter_expr_parse (const gchar * text,
    GError ** error);

/**
 * gst_ctf_filter_expr_free:
 * @expr: (transfer full) (nullable): a filter; free the plans made with
 *   it first
 */
GST_CTF_API void gst_ctf_filter_expr_free (GstCtfFilterExpr * expr);

/**
 * GstCtfFilterPlanKind:
 * @GST_CTF_FILTER_PLAN_NEVER: no event of the class is kept
 * @GST_CTF_FILTER_PLAN_ALWAYS: every event of the class is kept
 * @GST_CTF_FILTER_PLAN_EVAL: the decoded values decide
 *   (gst_ctf_filter_plan_matches())
 */
typedef enum {
  GST_CTF_FILTER_PLAN_NEVER,
  GST_CTF_FILTER_PLAN_ALWAYS,
  GST_CTF_FILTER_PLAN_EVAL,
} GstCtfFilterPlanKind;

/**
 * GstCtfFilterPlan:
 *
 * The conditions an event of one event class must meet, with field names
 * resolved to positions in the decoded scopes and constant parts folded.
 * Conditions added to a plan must all hold.  Not thread-safe (it keeps a
 * scratch buffer for string comparisons).
 */
typedef struct _GstCtfFilterPlan GstCtfFilterPlan;

/**
 * gst_ctf_filter_plan_new:
 * @sc: the stream class of @ec
 * @ec: an event class
 *
 * Returns: (transfer full): a plan that keeps every event of @ec until
 *   conditions are added
 */
GST_CTF_API GstCtfFilterPlan *gst_ctf_filter_plan_new (const GstCtfStreamClass
    * sc, const GstCtfEventClass * ec);

/**
 * gst_ctf_filter_plan_add_expr:
 * @plan: a plan
 * @expr: a filter; it must outlive @plan
 * @system: (nullable): the event's system (trace-cmd's event system, e.g.
 *   "sched"), when known; else the part of the event class name before
 *   its first `:` (LTTng's provider), if any
 * @negate: %TRUE to keep the events @expr does not keep (trace-cmd's
 *   `-v`)
 *
 * Adds the condition "@expr keeps the event" (or does not).  Fields are
 * looked up by name, as babeltrace2 shows them, in the payload, then the
 * event context, the stream's event context and the packet context;
 * `a.b` names a member of a structure; `CPU` is `cpu_id` and `COMM` is
 * `procname` when the event has no field with that name.
 */
GST_CTF_API void gst_ctf_filter_plan_add_expr (GstCtfFilterPlan * plan,
    const GstCtfFilterExpr * expr, const gchar * system, gboolean negate);

/**
 * gst_ctf_filter_plan_add_id_field:
 * @plan: a plan
 * @names: (array zero-terminated=1): field names, tried in order in the
 *   stream's event context, then the event context
 * @ids: the values to keep; it must outlive @plan
 *
 * Adds the condition "the first of @names the event has, an integer, has
 * a value in @ids" (false when it has none of them): what `pids`/`tids`
 * filters need (`vpid`, `pid`, `common_pid`).
 */
GST_CTF_API void gst_ctf_filter_plan_add_id_field (GstCtfFilterPlan * plan,
    const gchar * const *names, const GstCtfIdList * ids);

/**
 * gst_ctf_filter_plan_get_kind:
 * @plan: a plan
 *
 * Returns: whether events of the class are always, never or sometimes kept
 */
GST_CTF_API GstCtfFilterPlanKind gst_ctf_filter_plan_get_kind (const
    GstCtfFilterPlan * plan);

/**
 * gst_ctf_filter_plan_matches:
 * @plan: a plan of kind %GST_CTF_FILTER_PLAN_EVAL (others answer their
 *   kind)
 * @scopes: (array fixed-size=6): the decoded values of each #GstCtfScope
 *   (gst_ctf_event_iter_get_values()), %NULL for a scope without values
 * @n_values: (array fixed-size=6): the number of values of each scope
 *
 * Returns: whether the event is kept
 */
GST_CTF_API gboolean gst_ctf_filter_plan_matches (GstCtfFilterPlan * plan,
    const GstCtfFieldValue * const *scopes, const guint * n_values);

/**
 * gst_ctf_filter_plan_free:
 * @plan: (transfer full) (nullable): a plan
 */
GST_CTF_API void gst_ctf_filter_plan_free (GstCtfFilterPlan * plan);

G_END_DECLS
