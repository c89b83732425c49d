/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: ctffilter's text settings, as a user or a script
 * gives them: the trace-cmd `-F` filter parser, then plans compiled for
 * the event classes of a small trace class (every field kind a name can
 * reach) and evaluated on decoded values; the same text as an event name
 * list and as an id list.
 *
 *   meson setup build-fuzz -Dfuzzing=true (CC=clang)
 *   build-fuzz/tests/fuzz/fuzz-filter tests/fuzz/seeds/filter
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gstctf-filter-expr.h"
#include "gstctf-metadata.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static const char tsdl[] =
    "/* CTF 1.8 */\n"
    "trace { major = 1; minor = 8; byte_order = le; };\n"
    "stream { packet.context := struct { integer { size = 32; } cpu_id; };\n"
    "  event.context := struct { integer { size = 32; signed = true; } vpid;"
    " string procname; }; };\n"
    "event { name = \"sched_switch\"; id = 0; fields := struct {\n"
    "  integer { size = 32; signed = true; } a; string s;\n"
    "  enum : integer { size = 8; } { X = 0, Y = 1 ... 3, Z = 2 } e;\n"
    "  floating_point { exp_dig = 11; mant_dig = 53; align = 8; } f;\n"
    "  struct { integer { size = 8; } x; } st;\n"
    "  integer { size = 8; encoding = UTF8; } txt[4]; }; };\n"
    "event { name = \"prov:ev\"; id = 1; };\n";

static GstCtfTraceClass *
trace_class (void)
{
  static GstCtfTraceClass *tc;

  if (tc == NULL)
    tc = gst_ctf_tsdl_parse (tsdl, "fuzz", NULL);
  g_assert (tc != NULL);
  return tc;
}

/* Decoded values for the scopes, as the packet reader lays them out
 * (pre-order, each node's subtree end), from a few input bytes. */
static void
fill_values (const GstCtfStreamClass * sc, const GstCtfEventClass * ec,
    guint64 seed, GstCtfFieldValue pc[2], GstCtfFieldValue cc[3],
    GstCtfFieldValue pl[8])
{
  const GstCtfFieldClass *p = ec->payload;
  static const char *const strs[] = { "", "bash", "swapper/0", "a\\b" };
  guint i;

  memset (pc, 0, sizeof (GstCtfFieldValue) * 2);
  memset (cc, 0, sizeof (GstCtfFieldValue) * 3);
  memset (pl, 0, sizeof (GstCtfFieldValue) * 8);
  pc[0].fc = sc->packet_context;
  pc[0].end = 2;
  pc[1].fc = sc->packet_context->members[0].fc;
  pc[1].end = 2;
  pc[1].v.u = seed & 3;
  cc[0].fc = sc->event_common_context;
  cc[0].end = 3;
  cc[1].fc = sc->event_common_context->members[0].fc;
  cc[1].end = 2;
  cc[1].v.i = (gint64) (seed >> 2 & 0xff) - 128;
  cc[2].fc = sc->event_common_context->members[1].fc;
  cc[2].end = 3;
  cc[2].v.s.ptr = strs[seed >> 10 & 3];
  cc[2].v.s.len = strlen (cc[2].v.s.ptr);
  if (p == NULL)
    return;
  pl[0].fc = p;
  pl[0].end = 8;
  pl[0].v.u = p->n_members;
  for (i = 0; i < p->n_members && i < 6; i++)
    pl[i < 5 ? i + 1 : 7].fc = p->members[i].fc;
  for (i = 1; i < 8; i++)
    pl[i].end = i + 1;
  pl[5].end = 7;
  pl[6].fc = p->members[4].fc->members[0].fc;
  pl[1].v.i = (gint64) (seed >> 12 & 0xffff) - 1000;
  pl[2].v.s.ptr = strs[seed >> 28 & 3];
  pl[2].v.s.len = strlen (pl[2].v.s.ptr);
  pl[3].v.u = seed >> 30 & 7;
  pl[4].v.d = (gdouble) (seed >> 33 & 0xff) / 3.0;
  pl[5].v.u = 1;
  pl[6].v.u = seed >> 41 & 0xff;
  pl[7].v.s.ptr = "ab\0d";
  pl[7].v.s.len = 4;
}

static void
check_plans (const GstCtfFilterExpr * expr, const GstCtfIdList * ids,
    guint64 seed)
{
  static const gchar *const names[] = { "vpid", "common_pid", NULL };
  GstCtfTraceClass *tc = trace_class ();
  const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, 0);
  guint i;

  for (i = 0; i < sc->event_classes->len; i++) {
    const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, i);
    GstCtfFilterPlan *p = gst_ctf_filter_plan_new (sc, ec);
    GstCtfFieldValue pc[2], cc[3], pl[8];
    const GstCtfFieldValue *scopes[6] = { NULL, };
    guint n[6] = { 0, };

    gst_ctf_filter_plan_add_expr (p, expr, seed & 1 ? "sched" : NULL,
        (seed & 2) != 0);
    if (ids)
      gst_ctf_filter_plan_add_id_field (p, names, ids);
    fill_values (sc, ec, seed, pc, cc, pl);
    scopes[GST_CTF_SCOPE_PACKET_CONTEXT] = pc;
    n[GST_CTF_SCOPE_PACKET_CONTEXT] = 2;
    scopes[GST_CTF_SCOPE_EVENT_COMMON_CONTEXT] = cc;
    n[GST_CTF_SCOPE_EVENT_COMMON_CONTEXT] = 3;
    if (ec->payload) {
      scopes[GST_CTF_SCOPE_EVENT_PAYLOAD] = pl;
      n[GST_CTF_SCOPE_EVENT_PAYLOAD] = 8;
    }
    switch (gst_ctf_filter_plan_get_kind (p)) {
      case GST_CTF_FILTER_PLAN_NEVER:
        g_assert (!gst_ctf_filter_plan_matches (p, scopes, n));
        break;
      case GST_CTF_FILTER_PLAN_ALWAYS:
        g_assert (gst_ctf_filter_plan_matches (p, scopes, n));
        break;
      default:
        (void) gst_ctf_filter_plan_matches (p, scopes, n);
        break;
    }
    gst_ctf_filter_plan_free (p);
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  gchar *text = g_strndup ((const gchar *) data, size);
  guint64 seed = 0;
  GError *err = NULL;
  GstCtfFilterExpr *expr;
  GstCtfNameList *nl;
  GstCtfIdList *ids;
  gsize i;

  for (i = 0; i < size; i++)
    seed = seed * 1099511628211ull ^ data[i];
  expr = gst_ctf_filter_expr_parse (text, &err);
  if (expr == NULL) {
    g_assert (g_error_matches (err, GST_CTF_ERROR,
            GST_CTF_ERROR_FILTER_SYNTAX));
    g_clear_error (&err);
  }
  ids = gst_ctf_id_list_parse (text, &err);
  if (ids == NULL) {
    g_assert (g_error_matches (err, GST_CTF_ERROR,
            GST_CTF_ERROR_FILTER_SYNTAX));
    g_clear_error (&err);
  }
  if (expr)
    check_plans (expr, ids, seed);
  nl = gst_ctf_name_list_parse (text, &err);
  if (nl) {
    (void) gst_ctf_name_list_match (nl, "sched_switch");
    gst_ctf_name_list_free (nl);
  } else {
    g_assert (g_error_matches (err, GST_CTF_ERROR,
            GST_CTF_ERROR_FILTER_SYNTAX));
    g_clear_error (&err);
  }
  gst_ctf_id_list_free (ids);
  gst_ctf_filter_expr_free (expr);
  g_free (text);
  return 0;
}
