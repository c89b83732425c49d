/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: semantic passes run on a parsed TSDL trace class.
 *
 * In order:
 *  1. per field class tree: `native` byte orders -> the trace's (CTF 1.8
 *     §4.1.5), alignments (a struct aligns as its most aligned member or
 *     its align() attribute, an array/sequence as its element, CTF 1.8
 *     §4.2), `map = clock.NAME.value` -> clock class (CTF 1.8 §8);
 *  2. clock origins: babeltrace2 2.0 sets a clock's origin to the Unix
 *     epoch when `absolute = true`, or when the trace is an LTTng trace
 *     (env `tracer_name` starting with "lttng") and the clock is named
 *     `monotonic` (visitor-generate-ir.c, visit_clock_decl);
 *  3. babeltrace2's auto-mapping: an unmapped `timestamp_begin` /
 *     `timestamp_end` (packet context) or `timestamp` (event header)
 *     integer is mapped to the trace's only clock, or to an implicit 1 GHz
 *     clock named `default` when there is none; with several clocks it is
 *     an error;
 *  4. field meanings by scope and name (ctf-meta-update-meanings);
 *  5. sequence lengths and variant tags (CTF 1.8 §7.3.2): absolute paths
 *     with a dynamic scope prefix, else relative lookup from the innermost
 *     enclosing structure outwards among the fields before the current one;
 *     each target gets a value slot;
 *  6. each stream class's default clock: the clock its mapped integers
 *     use (one at most).
 * All errors are GST_CTF_ERROR_METADATA_INVALID.
 */
#include "gstctf-metadata.h"
#include "gstctf-tsdl-parser.h"

#include <stdarg.h>
#include <string.h>

typedef struct {
  GstCtfTraceClass *tc;
  const gchar *origin;
  GError **error;
  /* struct/variant -> (name -> index + 1), built for wide compounds so
   * that resolving many references stays linear */
  GHashTable *member_index;
} Resolver;

G_GNUC_PRINTF (2, 3)
     static gboolean fail (Resolver * r, const gchar * fmt, ...)
{
  va_list ap;
  gchar *msg;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (r->error, GST_CTF_ERROR, GST_CTF_ERROR_METADATA_INVALID,
      "Invalid metadata: file=\"%s\": %s",
      r->origin ? r->origin : "(memory)", msg);
  g_free (msg);
  return FALSE;
}

static GstCtfClockClass *
find_clock (GstCtfTraceClass * tc, const gchar * name)
{
  guint i;

  for (i = 0; i < tc->clock_classes->len; i++) {
    GstCtfClockClass *cc = g_ptr_array_index (tc->clock_classes, i);
    if (g_strcmp0 (cc->name, name) == 0)
      return cc;
  }
  return NULL;
}

/* CTF 1.8 §4.2.2: readers strip one leading underscore of field names;
 * babeltrace2 matches meaningful names after that. */
static const gchar *
display_name (const gchar * name)
{
  if (name != NULL && name[0] == '_')
    return name + 1;
  return name;
}

/* ---------------------------------------------------------------------- */
/* 1. byte orders, alignments, clock mappings */

static gboolean
fix_tree (Resolver * r, GstCtfFieldClass * fc)
{
  guint i;

  if (fc == NULL)
    return TRUE;
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (fc->integer.byte_order == GST_CTF_TSDL_BYTE_ORDER_NATIVE)
        fc->integer.byte_order = r->tc->byte_order;
      if (fc->integer.size < 1 || fc->integer.size > 64)
        return fail (r, "integer of %u bits not supported (1 to 64)",
            fc->integer.size);
      if (fc->integer.map_clock_name != NULL) {
        fc->integer.mapped_clock = find_clock (r->tc,
            fc->integer.map_clock_name);
        if (fc->integer.mapped_clock == NULL)
          return fail (r, "integer mapped to unknown clock `%s`",
              fc->integer.map_clock_name);
      }
      break;
    case GST_CTF_FIELD_CLASS_FLOAT:
      if (fc->floating.byte_order == GST_CTF_TSDL_BYTE_ORDER_NATIVE)
        fc->floating.byte_order = r->tc->byte_order;
      break;
    case GST_CTF_FIELD_CLASS_STRUCT:
      for (i = 0; i < fc->n_members; i++) {
        if (!fix_tree (r, fc->members[i].fc))
          return FALSE;
        fc->alignment = MAX (fc->alignment, fc->members[i].fc->alignment);
      }
      break;
    case GST_CTF_FIELD_CLASS_VARIANT:
      /* a variant itself is not aligned; its selected option is */
      for (i = 0; i < fc->n_members; i++)
        if (!fix_tree (r, fc->members[i].fc))
          return FALSE;
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      if (!fix_tree (r, fc->element))
        return FALSE;
      fc->alignment = fc->element->alignment;
      break;
    case GST_CTF_FIELD_CLASS_STRING:
      break;
  }
  return TRUE;
}

/* Calls @func on every root field class of the trace. */
typedef gboolean (*RootFunc) (Resolver * r, GstCtfFieldClass * fc,
    GstCtfScope scope, GstCtfStreamClass * sc, GstCtfEventClass * ec);

static gboolean
for_each_root (Resolver * r, RootFunc func)
{
  GstCtfTraceClass *tc = r->tc;
  guint i, j;

  if (!func (r, tc->packet_header, GST_CTF_SCOPE_PACKET_HEADER, NULL, NULL))
    return FALSE;
  for (i = 0; i < tc->stream_classes->len; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    if (!func (r, sc->packet_context, GST_CTF_SCOPE_PACKET_CONTEXT, sc, NULL)
        || !func (r, sc->event_header, GST_CTF_SCOPE_EVENT_HEADER, sc, NULL)
        || !func (r, sc->event_common_context,
            GST_CTF_SCOPE_EVENT_COMMON_CONTEXT, sc, NULL))
      return FALSE;
    for (j = 0; j < sc->event_classes->len; j++) {
      GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      if (!func (r, ec->context, GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT, sc, ec)
          || !func (r, ec->payload, GST_CTF_SCOPE_EVENT_PAYLOAD, sc, ec))
        return FALSE;
    }
  }
  return TRUE;
}

static gboolean
fix_root (Resolver * r, GstCtfFieldClass * fc, GstCtfScope scope,
    GstCtfStreamClass * sc, GstCtfEventClass * ec)
{
  return fix_tree (r, fc);
}

/* ---------------------------------------------------------------------- */
/* 2. clock origins */

/* babeltrace 1.5 (formats/ctf/ctf.c, clock_offset_ns()) computes a
 * clock's offset as `offset_s * 1000000000ULL` plus the offset cycles in
 * ns, in unsigned 64-bit arithmetic: an `offset_s` whose nanoseconds do
 * not fit (Trace Compass's CTF writer writes a nanosecond count there,
 * about 1.35e18) wraps modulo 2^64 where babeltrace2 refuses the trace.
 * The wrapped value replaces the offset.  Times are signed 64-bit ns
 * here: a wrapped offset at or beyond 2^63 ns (babeltrace 1.5 then prints
 * dates after the year 2262) is held as its two's complement, a negative
 * offset, so every time of the clock keeps babeltrace 1.5's value modulo
 * 2^64 and its order (all of them are beyond 2^63 together); the text
 * formatter prints the times of a wrapped clock as unsigned. */
static void
wrap_clock_offset (GstCtfClockClass * cc)
{
  const gint64 ns_per_s = 1000000000;
  gint64 wrapped, s, rem;

  if (cc->freq == 0 || (cc->offset_s < G_MAXINT64 / ns_per_s - 2 &&
          cc->offset_s > G_MININT64 / ns_per_s + 2))
    return;
  /* (the unsigned product modulo 2^64, read as two's complement) */
  wrapped = (gint64) ((guint64) cc->offset_s * (guint64) ns_per_s);
  s = wrapped / ns_per_s;
  rem = wrapped % ns_per_s;
  if (rem < 0) {
    s -= 1;
    rem += ns_per_s;
  }
  cc->offset_wrapped = TRUE;
  cc->metadata_offset_s = cc->offset_s;
  cc->offset_s = s;
  /* the nanoseconds below the second go to the cycle offset (exact at
   * 1 GHz, truncated at any other frequency) */
  cc->offset += cc->freq == (guint64) ns_per_s ? rem :
      (gint64) ((gdouble) rem * (gdouble) cc->freq / 1e9);
}

static void
update_clock_origins (Resolver * r)
{
  const GstCtfEnvEntry *e = gst_ctf_trace_class_find_env (r->tc,
      "tracer_name");
  gboolean is_lttng = e != NULL && e->is_string && e->str != NULL
      && g_str_has_prefix (e->str, "lttng");
  guint i;

  for (i = 0; i < r->tc->clock_classes->len; i++) {
    GstCtfClockClass *cc = g_ptr_array_index (r->tc->clock_classes, i);

    cc->origin_is_unix_epoch = cc->absolute
        || (is_lttng && g_strcmp0 (cc->name, "monotonic") == 0);
    if (!cc->offset_wrapped)
      wrap_clock_offset (cc);
  }
}

/* ---------------------------------------------------------------------- */
/* 3. babeltrace2's automatic clock mapping */

static gboolean
auto_map_field (Resolver * r, GstCtfFieldClass * fc)
{
  GstCtfClockClass *cc;

  if (fc->type != GST_CTF_FIELD_CLASS_INTEGER
      && fc->type != GST_CTF_FIELD_CLASS_ENUM)
    return TRUE;
  if (fc->integer.mapped_clock != NULL)
    return TRUE;
  switch (r->tc->clock_classes->len) {
    case 0:
      cc = gst_ctf_clock_class_new ();
      cc->name = g_strdup ("default");
      g_ptr_array_add (r->tc->clock_classes, cc);
      break;
    case 1:
      cc = g_ptr_array_index (r->tc->clock_classes, 0);
      break;
    default:
      return fail (r, "timestamp field not mapped to a clock and the trace "
          "has several clocks");
  }
  fc->integer.mapped_clock = cc;
  g_free (fc->integer.map_clock_name);
  fc->integer.map_clock_name = g_strdup (cc->name);
  return TRUE;
}

static gboolean
auto_map_fields (Resolver * r, GstCtfFieldClass * fc, const gchar * name)
{
  guint i;

  if (fc == NULL || (fc->type != GST_CTF_FIELD_CLASS_STRUCT
          && fc->type != GST_CTF_FIELD_CLASS_VARIANT))
    return TRUE;
  for (i = 0; i < fc->n_members; i++) {
    if (g_strcmp0 (display_name (fc->members[i].name), name) == 0
        && !auto_map_field (r, fc->members[i].fc))
      return FALSE;
    if (!auto_map_fields (r, fc->members[i].fc, name))
      return FALSE;
  }
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* 4. meanings */

static void
set_meaning_by_name (GstCtfFieldClass * fc, const gchar * name,
    const gchar * want, GstCtfFieldMeaning meaning)
{
  guint i;

  if (fc == NULL)
    return;
  switch (fc->type) {
    case GST_CTF_FIELD_CLASS_INTEGER:
    case GST_CTF_FIELD_CLASS_ENUM:
      if (name != NULL && strcmp (display_name (name), want) == 0)
        fc->meaning = meaning;
      break;
    case GST_CTF_FIELD_CLASS_STRUCT:
    case GST_CTF_FIELD_CLASS_VARIANT:
      for (i = 0; i < fc->n_members; i++)
        set_meaning_by_name (fc->members[i].fc, fc->members[i].name, want,
            meaning);
      break;
    case GST_CTF_FIELD_CLASS_ARRAY:
    case GST_CTF_FIELD_CLASS_SEQUENCE:
      set_meaning_by_name (fc->element, NULL, want, meaning);
      break;
    default:
      break;
  }
}

/* Clock-mapped integers without another meaning update the stream's
 * default clock wherever they are (babeltrace2 msg-iter does so). */
static void
set_timestamp_meanings (GstCtfFieldClass * fc)
{
  guint i;

  if (fc == NULL)
    return;
  if ((fc->type == GST_CTF_FIELD_CLASS_INTEGER
          || fc->type == GST_CTF_FIELD_CLASS_ENUM)
      && fc->integer.mapped_clock != NULL
      && fc->meaning == GST_CTF_MEANING_NONE)
    fc->meaning = GST_CTF_MEANING_TIMESTAMP;
  for (i = 0; i < fc->n_members; i++)
    set_timestamp_meanings (fc->members[i].fc);
  set_timestamp_meanings (fc->element);
}

static gboolean
meanings_root (Resolver * r, GstCtfFieldClass * fc, GstCtfScope scope,
    GstCtfStreamClass * sc, GstCtfEventClass * ec)
{
  if (fc == NULL)
    return TRUE;
  switch (scope) {
    case GST_CTF_SCOPE_PACKET_HEADER:{
      guint i;

      set_meaning_by_name (fc, NULL, "magic", GST_CTF_MEANING_MAGIC);
      set_meaning_by_name (fc, NULL, "stream_id",
          GST_CTF_MEANING_STREAM_CLASS_ID);
      set_meaning_by_name (fc, NULL, "stream_instance_id",
          GST_CTF_MEANING_STREAM_INSTANCE_ID);
      for (i = 0; i < fc->n_members; i++) {
        GstCtfFieldClass *m = fc->members[i].fc;

        if (strcmp (display_name (fc->members[i].name), "uuid") == 0
            && m->type == GST_CTF_FIELD_CLASS_ARRAY && m->length == 16
            && m->element->type == GST_CTF_FIELD_CLASS_INTEGER
            && m->element->integer.size == 8)
          m->meaning = GST_CTF_MEANING_UUID;
      }
      break;
    }
    case GST_CTF_SCOPE_PACKET_CONTEXT:
      set_meaning_by_name (fc, NULL, "timestamp_begin",
          GST_CTF_MEANING_TIMESTAMP_BEGIN);
      set_meaning_by_name (fc, NULL, "timestamp_end",
          GST_CTF_MEANING_TIMESTAMP_END);
      set_meaning_by_name (fc, NULL, "events_discarded",
          GST_CTF_MEANING_EVENTS_DISCARDED);
      set_meaning_by_name (fc, NULL, "packet_seq_num",
          GST_CTF_MEANING_PACKET_SEQ_NUM);
      set_meaning_by_name (fc, NULL, "packet_size",
          GST_CTF_MEANING_PACKET_SIZE);
      set_meaning_by_name (fc, NULL, "content_size",
          GST_CTF_MEANING_CONTENT_SIZE);
      break;
    case GST_CTF_SCOPE_EVENT_HEADER:
      set_meaning_by_name (fc, NULL, "id", GST_CTF_MEANING_EVENT_CLASS_ID);
      break;
    default:
      break;
  }
  if (scope != GST_CTF_SCOPE_PACKET_HEADER)
    set_timestamp_meanings (fc);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* 5. sequence lengths and variant tags */

typedef struct {
  GstCtfFieldClass *fc;         /* enclosing struct/variant/array/sequence */
  guint index;                  /* member index (0 for an element) */
} Frame;

typedef struct {
  GstCtfFieldClass *roots[GST_CTF_N_SCOPES];
  GstCtfScope scope;
  GArray *stack;                /* Frame */
} RefCtx;

static const struct {
  const gchar *prefix;
  guint ntokens;
  GstCtfScope scope;
} abs_prefixes[] = {
  {"trace.packet.header.", 3, GST_CTF_SCOPE_PACKET_HEADER},
  {"stream.packet.context.", 3, GST_CTF_SCOPE_PACKET_CONTEXT},
  {"stream.event.header.", 3, GST_CTF_SCOPE_EVENT_HEADER},
  {"stream.event.context.", 3, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT},
  {"event.context.", 2, GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT},
  {"event.fields.", 2, GST_CTF_SCOPE_EVENT_PAYLOAD},
};

/* Follows @tokens from @fc through struct/variant members (arrays and
 * sequences are crossed to their element).  The first member must have
 * an index below @first_limit.  Records the indices in @indices. */
static gboolean
find_member_index (Resolver * r, GstCtfFieldClass * fc, const gchar * name,
    guint * idx)
{
  GHashTable *h;
  guint i;

  if (fc->n_members < 16)
    return gst_ctf_field_class_find_member (fc, name, idx) != NULL;
  h = g_hash_table_lookup (r->member_index, fc);
  if (h == NULL) {
    h = g_hash_table_new (g_str_hash, g_str_equal);
    for (i = 0; i < fc->n_members; i++)
      g_hash_table_insert (h, fc->members[i].name, GUINT_TO_POINTER (i + 1));
    g_hash_table_insert (r->member_index, fc, h);
  }
  i = GPOINTER_TO_UINT (g_hash_table_lookup (h, name));
  if (i == 0)
    return FALSE;
  *idx = i - 1;
  return TRUE;
}

static GstCtfFieldClass *
lookup_path (Resolver * r, GstCtfFieldClass * fc, gchar ** tokens,
    guint first_limit, GArray * indices)
{
  guint t;

  for (t = 0; tokens[t] != NULL; t++) {
    guint idx;

    while (fc->type == GST_CTF_FIELD_CLASS_ARRAY
        || fc->type == GST_CTF_FIELD_CLASS_SEQUENCE) {
      guint zero = 0;
      g_array_append_val (indices, zero);
      fc = fc->element;
    }
    if (fc->type != GST_CTF_FIELD_CLASS_STRUCT
        && fc->type != GST_CTF_FIELD_CLASS_VARIANT)
      return NULL;
    if (!find_member_index (r, fc, tokens[t], &idx))
      return NULL;
    if (t == 0 && idx >= first_limit)
      return NULL;
    g_array_append_val (indices, idx);
    fc = fc->members[idx].fc;
  }
  return fc;
}

static gboolean
resolve_ref (Resolver * r, RefCtx * ctx, GstCtfFieldClass * fc)
{
  const gchar *kind = fc->type == GST_CTF_FIELD_CLASS_SEQUENCE ?
      "sequence length" : "variant tag";
  GstCtfFieldClass *target = NULL;
  GArray *indices;
  gchar **tokens;
  guint i;

  if (fc->ref_path == NULL)
    return fail (r, "variant without a tag");
  indices = g_array_new (FALSE, FALSE, sizeof (guint));
  for (i = 0; i < G_N_ELEMENTS (abs_prefixes); i++) {
    if (g_str_has_prefix (fc->ref_path, abs_prefixes[i].prefix)) {
      GstCtfScope s = abs_prefixes[i].scope;
      GstCtfFieldClass *root = ctx->roots[s];

      tokens = g_strsplit (fc->ref_path + strlen (abs_prefixes[i].prefix),
          ".", -1);
      if (s <= ctx->scope && root != NULL)
        target = lookup_path (r, root, tokens, G_MAXUINT, indices);
      g_strfreev (tokens);
      if (target != NULL && s == ctx->scope) {
        /* must be before the current field: compare index paths */
        guint k, n = MIN (indices->len, ctx->stack->len);
        gboolean before = FALSE;

        for (k = 0; k < n; k++) {
          guint ti = g_array_index (indices, guint, k);
          Frame *f = &g_array_index (ctx->stack, Frame, k);

          if (ti != f->index) {
            before = ti < f->index && f->fc->type != GST_CTF_FIELD_CLASS_VARIANT;
            break;
          }
        }
        if (!before)
          target = NULL;
      }
      goto found;
    }
  }
  /* relative lookup (CTF 1.8 §7.3.2), innermost structure first */
  tokens = g_strsplit (fc->ref_path, ".", -1);
  for (i = ctx->stack->len; i > 0 && target == NULL; i--) {
    Frame *f = &g_array_index (ctx->stack, Frame, i - 1);

    if (f->fc->type != GST_CTF_FIELD_CLASS_STRUCT)
      continue;
    g_array_set_size (indices, 0);
    target = lookup_path (r, f->fc, tokens, f->index, indices);
  }
  g_strfreev (tokens);

found:
  g_array_free (indices, TRUE);
  if (target == NULL)
    return fail (r, "cannot resolve %s `%s`: no such field before it",
        kind, fc->ref_path);
  if (fc->type == GST_CTF_FIELD_CLASS_SEQUENCE) {
    if ((target->type != GST_CTF_FIELD_CLASS_INTEGER
            && target->type != GST_CTF_FIELD_CLASS_ENUM)
        || target->integer.is_signed)
      return fail (r, "sequence length `%s` is not an unsigned integer",
          fc->ref_path);
  } else if (target->type != GST_CTF_FIELD_CLASS_ENUM) {
    return fail (r, "variant tag `%s` is not an enumeration", fc->ref_path);
  }
  if (target->value_slot < 0)
    target->value_slot = (gint) r->tc->n_value_slots++;
  fc->ref_target = target;
  return TRUE;
}

static gboolean
resolve_tree (Resolver * r, RefCtx * ctx, GstCtfFieldClass * fc)
{
  guint i;

  if (fc->type == GST_CTF_FIELD_CLASS_SEQUENCE
      || fc->type == GST_CTF_FIELD_CLASS_VARIANT) {
    if (!resolve_ref (r, ctx, fc))
      return FALSE;
  }
  if (fc->type == GST_CTF_FIELD_CLASS_STRUCT
      || fc->type == GST_CTF_FIELD_CLASS_VARIANT) {
    for (i = 0; i < fc->n_members; i++) {
      Frame f = { fc, i };
      gboolean ok;

      g_array_append_val (ctx->stack, f);
      ok = resolve_tree (r, ctx, fc->members[i].fc);
      g_array_set_size (ctx->stack, ctx->stack->len - 1);
      if (!ok)
        return FALSE;
    }
  } else if (fc->element != NULL) {
    Frame f = { fc, 0 };
    gboolean ok;

    g_array_append_val (ctx->stack, f);
    ok = resolve_tree (r, ctx, fc->element);
    g_array_set_size (ctx->stack, ctx->stack->len - 1);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

static gboolean
resolve_root (Resolver * r, RefCtx * ctx, GstCtfScope scope)
{
  GstCtfFieldClass *fc = ctx->roots[scope];

  if (fc == NULL)
    return TRUE;
  ctx->scope = scope;
  g_array_set_size (ctx->stack, 0);
  return resolve_tree (r, ctx, fc);
}

static gboolean
resolve_refs (Resolver * r)
{
  GstCtfTraceClass *tc = r->tc;
  RefCtx ctx;
  gboolean ok = TRUE;
  guint i, j;

  memset (&ctx, 0, sizeof (ctx));
  ctx.stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  ctx.roots[GST_CTF_SCOPE_PACKET_HEADER] = tc->packet_header;
  ok = resolve_root (r, &ctx, GST_CTF_SCOPE_PACKET_HEADER);
  for (i = 0; ok && i < tc->stream_classes->len; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    ctx.roots[GST_CTF_SCOPE_PACKET_CONTEXT] = sc->packet_context;
    ctx.roots[GST_CTF_SCOPE_EVENT_HEADER] = sc->event_header;
    ctx.roots[GST_CTF_SCOPE_EVENT_COMMON_CONTEXT] = sc->event_common_context;
    ctx.roots[GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT] = NULL;
    ctx.roots[GST_CTF_SCOPE_EVENT_PAYLOAD] = NULL;
    ok = resolve_root (r, &ctx, GST_CTF_SCOPE_PACKET_CONTEXT)
        && resolve_root (r, &ctx, GST_CTF_SCOPE_EVENT_HEADER)
        && resolve_root (r, &ctx, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT);
    for (j = 0; ok && j < sc->event_classes->len; j++) {
      GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      ctx.roots[GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT] = ec->context;
      ctx.roots[GST_CTF_SCOPE_EVENT_PAYLOAD] = ec->payload;
      ok = resolve_root (r, &ctx, GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT)
          && resolve_root (r, &ctx, GST_CTF_SCOPE_EVENT_PAYLOAD);
    }
  }
  g_array_free (ctx.stack, TRUE);
  return ok;
}

/* Value slots are numbered in the order targets are met, over the whole
 * trace class; a packet only uses the packet header's and those of its
 * stream class.  Renumbered so: the packet header's targets first, then
 * each stream class's from the same base (stream classes share numbers).
 * n_value_slots, the size of every decoder's slot array (zeroed per
 * packet by gst_ctf_packet_read_info(), one per iterator), then grows
 * with the largest stream class instead of with all of them: with the
 * merged class of 1000 per-PID traces, one event header tag each, 1 001
 * slots became 2.  A field class met twice (shared by two trees) keeps
 * the numbering as it was. */
static gboolean
collect_slotted (GstCtfFieldClass * fc, GHashTable * seen, GPtrArray * out)
{
  guint i;

  if (fc == NULL)
    return TRUE;
  if (!g_hash_table_add (seen, fc))
    return FALSE;
  if (fc->value_slot >= 0)
    g_ptr_array_add (out, fc);
  for (i = 0; i < fc->n_members; i++)
    if (!collect_slotted (fc->members[i].fc, seen, out))
      return FALSE;
  return collect_slotted (fc->element, seen, out);
}

static void
renumber_slots (GstCtfTraceClass * tc)
{
  GHashTable *seen;
  GPtrArray *header, **per_sc;
  guint i, j, k, max = 0;
  gboolean ok;

  if (tc->n_value_slots == 0)
    return;
  seen = g_hash_table_new (NULL, NULL);
  header = g_ptr_array_new ();
  per_sc = g_new0 (GPtrArray *, MAX (tc->stream_classes->len, 1));
  ok = collect_slotted (tc->packet_header, seen, header);
  for (i = 0; ok && i < tc->stream_classes->len; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    per_sc[i] = g_ptr_array_new ();
    ok = collect_slotted (sc->packet_context, seen, per_sc[i])
        && collect_slotted (sc->event_header, seen, per_sc[i])
        && collect_slotted (sc->event_common_context, seen, per_sc[i]);
    for (j = 0; ok && j < sc->event_classes->len; j++) {
      GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      ok = collect_slotted (ec->context, seen, per_sc[i])
          && collect_slotted (ec->payload, seen, per_sc[i]);
    }
  }
  if (ok) {
    for (k = 0; k < header->len; k++)
      ((GstCtfFieldClass *) g_ptr_array_index (header, k))->value_slot = k;
    for (i = 0; i < tc->stream_classes->len; i++) {
      for (k = 0; k < per_sc[i]->len; k++)
        ((GstCtfFieldClass *) g_ptr_array_index (per_sc[i], k))->value_slot =
            header->len + k;
      max = MAX (max, per_sc[i]->len);
    }
    tc->n_value_slots = header->len + max;
  }
  for (i = 0; i < tc->stream_classes->len; i++)
    if (per_sc[i])
      g_ptr_array_unref (per_sc[i]);
  g_free (per_sc);
  g_ptr_array_unref (header);
  g_hash_table_unref (seen);
}

/* ---------------------------------------------------------------------- */
/* 6. default clocks */

static gboolean
find_mapped_clock (Resolver * r, const GstCtfFieldClass * fc,
    GstCtfClockClass ** cc)
{
  guint i;

  if (fc == NULL)
    return TRUE;
  if ((fc->type == GST_CTF_FIELD_CLASS_INTEGER
          || fc->type == GST_CTF_FIELD_CLASS_ENUM)
      && fc->integer.mapped_clock != NULL) {
    if (*cc != NULL && *cc != fc->integer.mapped_clock)
      return fail (r, "a stream class uses more than one clock (`%s` and "
          "`%s`)", (*cc)->name, fc->integer.mapped_clock->name);
    *cc = fc->integer.mapped_clock;
  }
  for (i = 0; i < fc->n_members; i++)
    if (!find_mapped_clock (r, fc->members[i].fc, cc))
      return FALSE;
  return find_mapped_clock (r, fc->element, cc);
}

static gboolean
update_default_clocks (Resolver * r)
{
  guint i, j;

  for (i = 0; i < r->tc->stream_classes->len; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (r->tc->stream_classes, i);
    GstCtfClockClass *cc = NULL;

    if (!find_mapped_clock (r, sc->packet_context, &cc)
        || !find_mapped_clock (r, sc->event_header, &cc)
        || !find_mapped_clock (r, sc->event_common_context, &cc))
      return FALSE;
    for (j = 0; j < sc->event_classes->len; j++) {
      GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);

      if (!find_mapped_clock (r, ec->context, &cc)
          || !find_mapped_clock (r, ec->payload, &cc))
        return FALSE;
    }
    sc->default_clock = cc;
  }
  return TRUE;
}

gboolean
gst_ctf_tsdl_resolve (GstCtfTraceClass * tc, const gchar * origin,
    GError ** error)
{
  Resolver r = { tc, origin, error, NULL };
  gboolean ok;
  guint i;

  if (!for_each_root (&r, fix_root))
    return FALSE;
  update_clock_origins (&r);
  for (i = 0; i < tc->stream_classes->len; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    if (!auto_map_fields (&r, sc->packet_context, "timestamp_begin")
        || !auto_map_fields (&r, sc->packet_context, "timestamp_end")
        || !auto_map_fields (&r, sc->event_header, "timestamp"))
      return FALSE;
  }
  if (!for_each_root (&r, meanings_root))
    return FALSE;
  r.member_index = g_hash_table_new_full (g_direct_hash, g_direct_equal,
      NULL, (GDestroyNotify) g_hash_table_unref);
  ok = resolve_refs (&r);
  g_hash_table_unref (r.member_index);
  if (!ok)
    return FALSE;
  renumber_slots (tc);
  return update_default_clocks (&r);
}
