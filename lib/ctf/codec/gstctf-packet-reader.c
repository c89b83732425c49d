/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the CTF 1.8 packet reader: packet header and context
 * (CTF 1.8 §5), then events (header, common context, specific context,
 * payload) decoded with compiled plans (gstctf-plan.c).
 */
#include "gstctf-reader.h"
#include "gstctf-plan.h"
#include "gstctf-plan-exec-private.h"
#include "gstctf-packet-reader-private.h"

#include <string.h>

/* An event's scopes decoded as one run (gstctf-plan-event.c), its values
 * (exactly the run's, unless sequences add elements) and per scope a view
 * of them. */
typedef struct {
  const GstCtfRun *header;      /* the header's run it starts with, or
                                 * NULL: the scopes after the header */
  GstCtfEventRun *run;           /* NULL: the scopes cannot be one run */
  /* the run stops before the payload, which is decoded after it by its
   * plan (a payload with sequences or variants) */
  gboolean payload_after;
  GstCtfValueBuf values;
  GstCtfValueBuf views[GST_CTF_EVENT_RUN_SCOPES];
  guint last;                   /* the last scope of the run */
} EcJoined;


/* Per event class: its compiled scopes, made the first time an event of
 * the class is met. */
typedef struct {
  const GstCtfEventClass *ec;
  const GstCtfPlan *context;
  const GstCtfPlan *payload;
  gboolean compiled;
  /* recorded specific context and payload: one buffer per event class,
   * so that a run's fixed part (classes, names) stays in place from one
   * event of the class to the next (gstctf-plan.h tmpl_owner) */
  GstCtfValueBuf values[2];
  /* recording: the scopes after the header as one run, when they can
   * be, and the whole event (header included) as one run per header run
   * met (at most two: an LTTng header's compact and extended forms) */
  EcJoined body;
  EcJoined full[2];
  guint n_full;
} EcEntry;

/* Per stream class: event header and common context plans, and event
 * classes by id (a dense table when ids are small, else a hash). */
typedef struct {
  const GstCtfStreamClass *sc;
  const GstCtfPlan *packet_context;
  const GstCtfPlan *event_header;
  const GstCtfPlan *common_context;
  /* recording with joined runs: the event header's run and alignment */
  const GstCtfRun *header_run;
  guint32 header_align;
  EcEntry *dense;
  guint64 n_dense;
  GHashTable *sparse;           /* &entry->ec->id -> EcEntry */
  guint64 single_id;            /* id to use when events carry none */
  gboolean has_single_id;
} ScEntry;

struct _GstCtfEventIter {
  GstCtfTraceClass *tc;
  gboolean recording;
  gboolean no_runs;

  GHashTable *plans;            /* fc -> GstCtfPlan met (the trace
                                 * class's, class_plan()) */
  GHashTable *sc_entries;       /* sc -> ScEntry (owned) */
  const GstCtfPlan *packet_header;

  guint64 *slots;
  guint n_slots;
  GstCtfValueBuf values[GST_CTF_N_SCOPES];
  /* where each scope's values are: &values[scope], or an event class's
   * buffer for the specific context and payload */
  GstCtfValueBuf *cur_values[GST_CTF_N_SCOPES];

  /* current packet */
  const guint8 *data;
  gsize size;
  GstCtfPacketInfo info;
  ScEntry *cur_sc;
  gboolean in_packet;
  guint64 pos;                  /* bits from the packet start */
  guint64 clock;

  /* decode state for events, set up by set_packet */
  GstCtfDecodeCtx ctx;

  /* current event */
  const GstCtfEventClass *cur_ec;
  guint64 ev_begin;
  guint64 ev_header_end;        /* bits: where the event header ends */
  guint64 ev_end;
  guint64 n_packets;            /* packets started */
  guint64 packet_serial;        /* _gst_ctf_event_iter_get_packet_serial() */
};

static const gchar *const scope_names[GST_CTF_N_SCOPES] = {
  "packet header", "packet context", "event header",
  "event common context", "event specific context", "event payload",
};

/* ------------------------------------------------------------------ */
/* Plan cache                                                          */
/* ------------------------------------------------------------------ */

static const GstCtfPlan *
get_plan (GHashTable * plans, const GstCtfFieldClass * fc, gboolean runs,
    GError ** error)
{
  GstCtfPlan *plan;

  if (fc == NULL)
    return NULL;
  plan = g_hash_table_lookup (plans, fc);
  if (plan == NULL) {
    plan = gst_ctf_plan_compile_full (fc, runs, error);
    if (plan == NULL)
      return NULL;
    g_hash_table_insert (plans, (gpointer) fc, plan);
  }
  return plan;
}

static void
ec_joined_clear (EcJoined * j)
{
  g_free (j->values.v);
  gst_ctf_event_run_free (j->run);
}

static void
ec_entry_clear (EcEntry * ee)
{
  guint k;

  g_free (ee->values[0].v);
  g_free (ee->values[1].v);
  ec_joined_clear (&ee->body);
  for (k = 0; k < ee->n_full; k++)
    ec_joined_clear (&ee->full[k]);
}

static void
ec_entry_free (EcEntry * ee)
{
  ec_entry_clear (ee);
  g_free (ee);
}

static void
ec_joined_make (EcJoined * j, const GstCtfRun * header, guint32 header_align,
    const GstCtfPlan * common_context, const EcEntry * ee)
{
  guint s;

  j->header = header;
  j->run = gst_ctf_event_run_new (header, header_align,
      (const GstCtfPlan * const[]) {
      common_context, ee->context, ee->payload});
  if (j->run == NULL && ee->payload != NULL) {
    j->run = gst_ctf_event_run_new (header, header_align,
        (const GstCtfPlan * const[]) {
        common_context, ee->context, NULL});
    j->payload_after = TRUE;
  }
  if (j->run == NULL)
    return;
  j->values.cap = j->run->run.n_items;
  j->values.v = g_new (GstCtfFieldValue, j->values.cap);
  for (s = 0; s < GST_CTF_EVENT_RUN_SCOPES; s++) {
    j->views[s].v = j->values.v + j->run->first[s];
    j->views[s].len = j->run->n[s];
    if (j->run->n[s] > 0)
      j->last = s;
  }
}

/* The whole-event run of @ee for header run @hr, made the first time,
 * or NULL. */
static EcJoined *
ec_entry_full (EcEntry * ee, const ScEntry * e, const GstCtfRun * hr)
{
  guint k;

  for (k = 0; k < ee->n_full; k++) {
    if (ee->full[k].header == hr)
      return ee->full[k].run ? &ee->full[k] : NULL;
  }
  if (ee->n_full == G_N_ELEMENTS (ee->full))
    return NULL;
  ec_joined_make (&ee->full[ee->n_full], hr, e->header_align,
      e->common_context, ee);
  ee->n_full++;
  return ee->full[k].run ? &ee->full[k] : NULL;
}

/* After event run @j decoded an event: the iterator's scopes from @first
 * to the payload are its views (after a run with sequences, the buffer
 * may have moved and the last scope has their elements too).  FALSE when
 * the payload is still to be decoded by its plan (payload_after). */
static inline gboolean
ec_joined_use (GstCtfValueBuf ** cur_values, EcJoined * j, GstCtfScope first)
{
  guint s;

  if (j->run->run.n_seqs > 0) {
    for (s = 0; s < GST_CTF_EVENT_RUN_SCOPES; s++)
      j->views[s].v = j->values.v + j->run->first[s];
    j->views[j->last].len = j->run->n[j->last] + j->values.len -
        j->run->run.n_items;
  }
  for (s = first; s < GST_CTF_SCOPE_EVENT_PAYLOAD; s++)
    cur_values[s] = &j->views[s - GST_CTF_SCOPE_EVENT_HEADER];
  if (j->payload_after)
    return FALSE;
  cur_values[GST_CTF_SCOPE_EVENT_PAYLOAD] = &j->views[3];
  return TRUE;
}

static void
sc_entry_free (ScEntry * e)
{
  guint64 i;

  for (i = 0; i < e->n_dense; i++)
    ec_entry_clear (&e->dense[i]);
  g_free (e->dense);
  if (e->sparse)
    g_hash_table_unref (e->sparse);
  g_free (e);
}

static ScEntry *
sc_entry_new (const GstCtfStreamClass * sc)
{
  ScEntry *e = g_new0 (ScEntry, 1);
  guint64 max_id = 0;
  guint i;

  e->sc = sc;
  for (i = 0; i < sc->event_classes->len; i++) {
    const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, i);
    max_id = MAX (max_id, ec->id);
  }
  /* babeltrace2: without an event class id in the event header, the
   * stream class must have exactly one event class. */
  if (sc->event_classes->len == 1) {
    const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, 0);
    e->single_id = ec->id;
    e->has_single_id = TRUE;
  }
  if (sc->event_classes->len > 0 && max_id < (1u << 20) &&
      max_id <= 8 * (guint64) sc->event_classes->len + 1024) {
    e->n_dense = max_id + 1;
    e->dense = g_new0 (EcEntry, e->n_dense);
    for (i = 0; i < sc->event_classes->len; i++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, i);
      if (e->dense[ec->id].ec == NULL)
        e->dense[ec->id].ec = ec;
    }
  } else {
    e->sparse = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
        (GDestroyNotify) ec_entry_free);
    for (i = 0; i < sc->event_classes->len; i++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, i);
      EcEntry *ee;

      if (g_hash_table_contains (e->sparse, &ec->id))
        continue;
      ee = g_new0 (EcEntry, 1);
      ee->ec = ec;
      g_hash_table_insert (e->sparse, (gpointer) & ee->ec->id, ee);
    }
  }
  return e;
}

/* ------------------------------------------------------------------ */
/* Packet header and context                                           */
/* ------------------------------------------------------------------ */

typedef struct {
  GstCtfEventIter *it;          /* plans from the iterator, or */
  const GstCtfTraceClass *info_tc;      /* from the trace class */
  guint64 *slots;
  guint n_slots;
  GstCtfValueBuf *header_values;
  GstCtfValueBuf *context_values;
  guint64 clock;
} PacketDecode;

/* Compiled plans are kept in the trace class (its base's, for a derived
 * class, whose field classes are the base's), one table with RUN ops and
 * one without, shared by gst_ctf_packet_read_info() and every iterator:
 * they were compiled anew for every packet by the former (45 000
 * instructions a packet, a fifth of ctfmux mode=packets on 64 inputs)
 * and for every stream by the latter (the streams of one stream class
 * have the same field classes; with the merged class of a per-PID
 * session, whose traces share theirs, a sixth of the text sink's time
 * at 1000 traces).  Plans are read-only once made; the lock covers the
 * tables, and an iterator keeps the plans it met in a table of its own
 * (not owning them), looked up without the lock. */
static GMutex class_plans_lock;

static const GstCtfPlan *
class_plan (const GstCtfTraceClass * tc, const GstCtfFieldClass * fc,
    gboolean runs, GError ** error)
{
  GstCtfTraceClass *mtc = (GstCtfTraceClass *) tc;
  GHashTable **table;
  const GstCtfPlan *plan;

  if (mtc->base)
    mtc = mtc->base;
  table = &mtc->plans[runs ? 0 : 1];
  g_mutex_lock (&class_plans_lock);
  if (*table == NULL)
    *table = g_hash_table_new_full (NULL, NULL, NULL,
        (GDestroyNotify) gst_ctf_plan_free);
  plan = get_plan (*table, fc, runs, error);
  g_mutex_unlock (&class_plans_lock);
  return plan;
}

/* an iterator's plan of @fc (NULL for none, or on error) */
static const GstCtfPlan *
iter_plan (GstCtfEventIter * it, const GstCtfFieldClass * fc,
    GError ** error)
{
  const GstCtfPlan *plan;

  if (fc == NULL)
    return NULL;
  plan = g_hash_table_lookup (it->plans, fc);
  if (plan == NULL) {
    plan = class_plan (it->tc, fc, !it->no_runs, error);
    if (plan != NULL)
      g_hash_table_insert (it->plans, (gpointer) fc, (gpointer) plan);
  }
  return plan;
}

static const GstCtfPlan *
pd_plan (PacketDecode * pd, const GstCtfFieldClass * fc, GError ** error)
{
  if (pd->it)
    return iter_plan (pd->it, fc, error);
  return fc ? class_plan (pd->info_tc, fc, TRUE, error) : NULL;
}

static const GstCtfStreamClass *
choose_stream_class (const GstCtfTraceClass * tc, GstCtfPacketInfo * info,
    gboolean has_id, GError ** error)
{
  const GstCtfStreamClass *sc = NULL;

  if (!has_id && tc->stream_classes->len == 1) {
    /* No `stream_id`: babeltrace2 needs exactly one stream class. */
    sc = g_ptr_array_index (tc->stream_classes, 0);
    info->stream_class_id = sc->id;
    return sc;
  }
  sc = gst_ctf_trace_class_find_stream_class (tc, info->stream_class_id);
  if (sc == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_UNKNOWN_STREAM_CLASS,
        "Cannot read packet header: offset=0 bits, no stream class with ID %"
        G_GUINT64_FORMAT " in the trace class", info->stream_class_id);
  }
  return sc;
}

static gboolean
decode_packet (const GstCtfTraceClass * tc, PacketDecode * pd,
    const guint8 * data, gsize size, GstCtfPacketInfo * info,
    GError ** error)
{
  GstCtfDecodeCtx ctx;
  const GstCtfStreamClass *sc;
  const GstCtfPlan *plan;
  guint64 avail_bits;
  gboolean has_sc_id;

  memset (info, 0, sizeof (*info));
  if (size == 0 || data == NULL) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot read packet header: offset=0 bits, no bytes available");
    return FALSE;
  }
  avail_bits = (size > (G_MAXUINT64 >> 4)) ? (G_MAXUINT64 >> 1) :
      (guint64) size * 8;

  memset (&ctx, 0, sizeof (ctx));
  ctx.data = data;
  ctx.n_bytes = size;
  ctx.limit = avail_bits;
  ctx.slots = pd->slots;
  ctx.n_slots = pd->n_slots;
  ctx.info = info;
  ctx.clock = pd->clock;

  /* CTF 1.8 §5.1: the trace packet header. */
  if (tc->packet_header) {
    plan = pd_plan (pd, tc->packet_header, error);
    if (plan == NULL)
      return FALSE;
    ctx.values = pd->header_values;
    ctx.scope_name = scope_names[GST_CTF_SCOPE_PACKET_HEADER];
    if (!gst_ctf_plan_exec (plan, &ctx, error))
      return FALSE;
  }
  /* info->stream_class_id was set by the `stream_id` field if any. */
  has_sc_id = (ctx.seen_meanings &
      (1u << GST_CTF_MEANING_STREAM_CLASS_ID)) != 0;

  /* A packet UUID that differs from the trace's is not an error:
   * babeltrace2 2.0 reads such packets (corpus intersection/onestream,
   * 3eventsintersectreverse); info->uuid keeps it for whoever cares. */

  sc = choose_stream_class (tc, info, has_sc_id, error);
  if (sc == NULL)
    return FALSE;
  info->stream_class = sc;

  /* CTF 1.8 §5.2: the stream packet context. */
  if (sc->packet_context) {
    plan = pd_plan (pd, sc->packet_context, error);
    if (plan == NULL)
      return FALSE;
    ctx.values = pd->context_values;
    ctx.scope_name = scope_names[GST_CTF_SCOPE_PACKET_CONTEXT];
    if (!gst_ctf_plan_exec (plan, &ctx, error))
      return FALSE;
  }

  /* Sizes as babeltrace2 completes them: a missing one takes the other's
   * value; with neither the packet is the rest of the bytes. */
  if (info->has_packet_size && !info->has_content_size)
    info->content_size = info->packet_size;
  else if (!info->has_packet_size && info->has_content_size)
    info->packet_size = info->content_size;
  else if (!info->has_packet_size && !info->has_content_size)
    info->packet_size = info->content_size = avail_bits;

  if (info->content_size > info->packet_size) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot read packet context: offset=%" G_GUINT64_FORMAT " bits, "
        "content size (%" G_GUINT64_FORMAT " bits) is greater than the "
        "packet size (%" G_GUINT64_FORMAT " bits)", ctx.pos,
        info->content_size, info->packet_size);
    return FALSE;
  }
  if (info->packet_size % 8 != 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot read packet context: offset=%" G_GUINT64_FORMAT " bits, "
        "packet size (%" G_GUINT64_FORMAT " bits) is not a multiple of 8",
        ctx.pos, info->packet_size);
    return FALSE;
  }
  if (info->packet_size > avail_bits) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot read packet context: offset=%" G_GUINT64_FORMAT " bits, "
        "packet size (%" G_GUINT64_FORMAT " bits) is larger than the %"
        G_GSIZE_FORMAT " bytes available", ctx.pos, info->packet_size, size);
    return FALSE;
  }
  if (ctx.pos > info->content_size) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot read packet context: offset=%" G_GUINT64_FORMAT " bits, "
        "header and context end past the content size (%" G_GUINT64_FORMAT
        " bits)", ctx.pos, info->content_size);
    return FALSE;
  }
  if (info->packet_size == 0) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot read packet context: offset=0 bits, packet size is 0");
    return FALSE;
  }
  info->events_offset = ctx.pos;
  pd->clock = ctx.clock;
  return TRUE;
}

gboolean
gst_ctf_packet_read_info (const GstCtfTraceClass * tc, const guint8 * data,
    gsize size, GstCtfPacketInfo * info, GError ** error)
{
  PacketDecode pd;
  guint64 stack_slots[64];
  gboolean ret;

  g_return_val_if_fail (tc != NULL, FALSE);
  g_return_val_if_fail (info != NULL, FALSE);

  memset (&pd, 0, sizeof (pd));
  pd.info_tc = tc;
  pd.n_slots = tc->n_value_slots;
  if (pd.n_slots <= G_N_ELEMENTS (stack_slots)) {
    memset (stack_slots, 0, sizeof (stack_slots));
    pd.slots = stack_slots;
  } else {
    pd.slots = g_new0 (guint64, pd.n_slots);
  }
  ret = decode_packet (tc, &pd, data, size, info, error);
  if (pd.slots != stack_slots)
    g_free (pd.slots);
  return ret;
}

/* ------------------------------------------------------------------ */
/* Event iterator                                                      */
/* ------------------------------------------------------------------ */

static void clear_values (GstCtfEventIter * it, GstCtfScope first,
    GstCtfScope last);

/**
 * gst_ctf_event_iter_new: (skip)
 * @tc: a trace class
 *
 * Makes an iterator for packets of @tc.  Plans are compiled lazily, the
 * first time a field class is met.
 *
 * Returns: (transfer full): a new iterator; free with
 *   gst_ctf_event_iter_free()
 */
GstCtfEventIter *
gst_ctf_event_iter_new (GstCtfTraceClass * tc)
{
  GstCtfEventIter *it;

  g_return_val_if_fail (tc != NULL, NULL);

  it = g_new0 (GstCtfEventIter, 1);
  it->tc = gst_ctf_trace_class_ref (tc);
  it->plans = g_hash_table_new (g_direct_hash, g_direct_equal);
  it->sc_entries = g_hash_table_new_full (g_direct_hash, g_direct_equal,
      NULL, (GDestroyNotify) sc_entry_free);
  it->n_slots = tc->n_value_slots;
  it->slots = g_new0 (guint64, MAX (it->n_slots, 1));
  clear_values (it, GST_CTF_SCOPE_PACKET_HEADER, GST_CTF_SCOPE_EVENT_PAYLOAD);
  return it;
}

/**
 * gst_ctf_event_iter_free:
 * @it: (transfer full): an iterator
 *
 * Frees @it and its plans.
 */
void
gst_ctf_event_iter_free (GstCtfEventIter * it)
{
  guint i;

  if (it == NULL)
    return;
  g_hash_table_unref (it->sc_entries);
  g_hash_table_unref (it->plans);
  for (i = 0; i < GST_CTF_N_SCOPES; i++)
    g_free (it->values[i].v);
  g_free (it->slots);
  gst_ctf_trace_class_unref (it->tc);
  g_free (it);
}

void
gst_ctf_event_iter_set_recording (GstCtfEventIter * it, gboolean record)
{
  g_return_if_fail (it != NULL);
  it->recording = record;
}

void
_gst_ctf_event_iter_set_runs (GstCtfEventIter * it, gboolean on)
{
  it->no_runs = !on;
}

static void
clear_values (GstCtfEventIter * it, GstCtfScope first, GstCtfScope last)
{
  guint s;

  for (s = first; s <= last; s++) {
    it->values[s].len = 0;
    it->cur_values[s] = &it->values[s];
  }
}

gboolean
gst_ctf_event_iter_set_packet (GstCtfEventIter * it, const guint8 * data,
    gsize size, GError ** error)
{
  PacketDecode pd;
  ScEntry *e;

  g_return_val_if_fail (it != NULL, FALSE);

  it->in_packet = FALSE;
  it->cur_ec = NULL;
  it->n_packets++;
  {
    /* (process-wide: a formatter may see several iterators) */
    static guint64 last_serial;

    it->packet_serial = __atomic_add_fetch (&last_serial, 1,
        __ATOMIC_RELAXED);
  }
  it->data = data;
  it->size = size;
  clear_values (it, GST_CTF_SCOPE_PACKET_HEADER, GST_CTF_SCOPE_EVENT_PAYLOAD);

  memset (&pd, 0, sizeof (pd));
  pd.it = it;
  pd.slots = it->slots;
  pd.n_slots = it->n_slots;
  if (it->recording) {
    pd.header_values = &it->values[GST_CTF_SCOPE_PACKET_HEADER];
    pd.context_values = &it->values[GST_CTF_SCOPE_PACKET_CONTEXT];
  }
  /* The clock starts at 0; `timestamp_begin` (clock-mapped) sets it. */
  pd.clock = 0;
  if (!decode_packet (it->tc, &pd, data, size, &it->info, error))
    return FALSE;

  e = g_hash_table_lookup (it->sc_entries, it->info.stream_class);
  if (e == NULL) {
    e = sc_entry_new (it->info.stream_class);
    g_hash_table_insert (it->sc_entries, (gpointer) it->info.stream_class,
        e);
  }
  if (e->event_header == NULL && e->sc->event_header) {
    e->event_header = iter_plan (it, e->sc->event_header, error);
    if (e->event_header == NULL)
      return FALSE;
  }
  if (e->common_context == NULL && e->sc->event_common_context) {
    e->common_context = iter_plan (it, e->sc->event_common_context, error);
    if (e->common_context == NULL)
      return FALSE;
  }
  if (e->event_header && !it->no_runs) {
    e->header_run = e->event_header->whole_run;
    e->header_align = e->event_header->ops[0].align;
  }
  it->cur_sc = e;
  /* A clock-mapped `timestamp_begin` already set the clock (CTF 1.8 §8);
   * an unmapped one (trace without clocks) still gives the base. */
  it->clock = pd.clock;
  if (it->info.has_timestamp_begin && pd.clock == 0)
    it->clock = it->info.timestamp_begin;
  memset (&it->ctx, 0, sizeof (it->ctx));
  it->ctx.data = data;
  it->ctx.n_bytes = size;
  it->ctx.limit = MIN (it->info.content_size, (guint64) size * 8);
  it->ctx.limit = MIN (it->ctx.limit, G_GUINT64_CONSTANT (1) << 60);
  it->ctx.slots = it->slots;
  it->ctx.n_slots = it->n_slots;
  it->pos = it->info.events_offset;
  it->ev_begin = it->ev_header_end = it->ev_end = it->pos;
  it->in_packet = TRUE;
  return TRUE;
}

void
gst_ctf_event_iter_set_clock_value (GstCtfEventIter * it, guint64 cycles)
{
  g_return_if_fail (it != NULL);
  it->clock = cycles;
}

const GstCtfPacketInfo *
gst_ctf_event_iter_get_packet_info (GstCtfEventIter * it)
{
  g_return_val_if_fail (it != NULL, NULL);
  return &it->info;
}

static EcEntry *
find_ec_entry (ScEntry * e, guint64 id)
{
  EcEntry *ee;

  if (e->dense) {
    if (id >= e->n_dense)
      return NULL;
    ee = &e->dense[id];
    return ee->ec ? ee : NULL;
  }
  return g_hash_table_lookup (e->sparse, &id);
}

gboolean
gst_ctf_event_iter_next (GstCtfEventIter * it, GError ** error)
{
  GstCtfDecodeCtx *ctx = &it->ctx;
  ScEntry *e;
  EcEntry *ee;
  guint64 content, id;
  gboolean rec;

  if (G_UNLIKELY (!it->in_packet))
    return FALSE;
  e = it->cur_sc;
  content = it->info.content_size;
  it->cur_ec = NULL;

  /* babeltrace2: the events end exactly at `content_size`; a cursor past
   * it is an error. */
  if (it->pos == content) {
    it->in_packet = FALSE;
    return FALSE;
  }
  if (G_UNLIKELY (it->pos > content)) {
    it->in_packet = FALSE;
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot decode event header: offset=%" G_GUINT64_FORMAT " bits, "
        "cursor is past the packet's content size (%" G_GUINT64_FORMAT
        " bits)", it->pos, content);
    return FALSE;
  }

  rec = it->recording;
  /* The hardware prefetcher stops at page ends: ask for the bytes half a
   * page ahead (a hint: never a fault, whatever the address) so that the
   * next page is in cache when the events get there.  With
   * GstCtfRun.bits0, ctf-decode on the bench trace: recording 5% faster,
   * walking 14%. */
  __builtin_prefetch ((const void *) ((guintptr) ctx->data +
          (guintptr) (it->pos >> 3) + 2048));
  ctx->pos = it->ev_begin = it->pos;
  ctx->clock = it->clock;
  ctx->has_event_class_id = FALSE;

  /* Recording an event whose scopes are one run: header run picked and
   * event class id read first, then the whole event at once. */
  if (rec && e->header_run) {
    guint64 pos = (ctx->pos + e->header_align - 1) &
        ~((guint64) e->header_align - 1);
    const GstCtfRun *hr;
    EcJoined *j;

    if (run_pick_event (e->header_run, ctx, pos, &hr, &id) &&
        (ee = find_ec_entry (e, id)) != NULL && ee->compiled &&
        (j = ec_entry_full (ee, e, hr)) != NULL) {
      gint r;

      ctx->values = &j->values;
      ctx->scope_name = scope_names[GST_CTF_SCOPE_EVENT_HEADER];
      r = gst_ctf_event_run_exec (j->run, ctx, error);
      if (G_LIKELY (r > 0)) {
        it->ev_header_end = pos + hr->bits0;
        if (G_LIKELY (ec_joined_use (it->cur_values, j,
                    GST_CTF_SCOPE_EVENT_HEADER)))
          goto decoded;
        goto payload_after;
      }
      if (r < 0)
        goto failed;
      /* does not fit: scope by scope, for the errors of those */
      ctx->pos = it->ev_begin;
      ctx->clock = it->clock;
      ctx->has_event_class_id = FALSE;
    }
  }

  /* the other scopes' values are reset where they are decoded */
  it->values[GST_CTF_SCOPE_EVENT_HEADER].len = 0;
  it->cur_values[GST_CTF_SCOPE_EVENT_HEADER] =
      &it->values[GST_CTF_SCOPE_EVENT_HEADER];

  if (e->event_header) {
    /* Walking too, a header of static layout (LTTng's) is read by its
     * decode run, into the otherwise unused header values: one bounds
     * check and fixed loads instead of the ops one by one. */
    if (rec || e->event_header->whole_run != NULL) {
      ctx->values = &it->values[GST_CTF_SCOPE_EVENT_HEADER];
      if (!rec)
        ctx->values->len = 0;
    } else {
      ctx->values = NULL;
    }
    ctx->scope_name = scope_names[GST_CTF_SCOPE_EVENT_HEADER];
    if (!gst_ctf_plan_run_scope (e->event_header, ctx, error))
      goto failed;
  }
  /* Before any alignment padding of the next scope: a scope's plan
   * aligns at its start, not at its end. */
  it->ev_header_end = ctx->pos;

  /* The event class id is the last decoded id-meaning integer (LTTng's
   * `v.extended.id` overrides the enum `id`); without one, the stream
   * class's single event class. */
  if (ctx->has_event_class_id)
    id = ctx->event_class_id;
  else if (e->has_single_id)
    id = e->single_id;
  else
    id = 0;
  if (G_LIKELY (e->dense != NULL && id < e->n_dense && e->dense[id].ec))
    ee = &e->dense[id];
  else
    ee = find_ec_entry (e, id);
  if (G_UNLIKELY (ee == NULL)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_UNKNOWN_EVENT_CLASS,
        "No event class with ID %" G_GUINT64_FORMAT " in stream class %"
        G_GUINT64_FORMAT ": offset=%" G_GUINT64_FORMAT " bits, "
        "event-class-id=%" G_GUINT64_FORMAT, id, e->sc->id, it->ev_begin, id);
    goto failed;
  }
  if (G_UNLIKELY (!ee->compiled)) {
    if (ee->ec->context) {
      ee->context = iter_plan (it, ee->ec->context, error);
      if (ee->context == NULL)
        goto failed;
    }
    if (ee->ec->payload) {
      ee->payload = iter_plan (it, ee->ec->payload, error);
      if (ee->payload == NULL)
        goto failed;
    }
    if (!it->no_runs)
      ec_joined_make (&ee->body, NULL, 0, e->common_context, ee);
    ee->compiled = TRUE;
  }

  if (rec && ee->body.run) {
    guint64 start = ctx->pos, clock = ctx->clock;
    gint r;

    ctx->values = &ee->body.values;
    ctx->scope_name = scope_names[GST_CTF_SCOPE_EVENT_PAYLOAD];
    r = gst_ctf_event_run_exec (ee->body.run, ctx, error);
    if (G_LIKELY (r > 0)) {
      if (G_LIKELY (ec_joined_use (it->cur_values, &ee->body,
                  GST_CTF_SCOPE_EVENT_COMMON_CONTEXT)))
        goto decoded;
      goto payload_after;
    }
    if (r < 0)
      goto failed;
    /* does not fit: scope by scope, for the errors of those */
    ctx->pos = start;
    ctx->clock = clock;
  }
  if (rec)
    clear_values (it, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
        GST_CTF_SCOPE_EVENT_PAYLOAD);

  if (e->common_context) {
    ctx->values = rec ? &it->values[GST_CTF_SCOPE_EVENT_COMMON_CONTEXT] :
        NULL;
    ctx->scope_name = scope_names[GST_CTF_SCOPE_EVENT_COMMON_CONTEXT];
    if (!gst_ctf_plan_run_scope (e->common_context, ctx, error))
      goto failed;
  }
  if (rec) {
    ee->values[0].len = ee->values[1].len = 0;
    it->cur_values[GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT] = &ee->values[0];
    it->cur_values[GST_CTF_SCOPE_EVENT_PAYLOAD] = &ee->values[1];
  }
  if (ee->context) {
    ctx->values = rec ? &ee->values[0] : NULL;
    ctx->scope_name = scope_names[GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT];
    if (!gst_ctf_plan_run_scope (ee->context, ctx, error))
      goto failed;
  }
payload:
  if (ee->payload) {
    ctx->values = rec ? &ee->values[1] : NULL;
    ctx->scope_name = scope_names[GST_CTF_SCOPE_EVENT_PAYLOAD];
    if (!gst_ctf_plan_run_scope (ee->payload, ctx, error))
      goto failed;
  }
  goto decoded;

payload_after:
  /* an event run that stops before the payload (the values of the scopes
   * before it are in the run's views): the payload by its plan */
  ee->values[1].len = 0;
  it->cur_values[GST_CTF_SCOPE_EVENT_PAYLOAD] = &ee->values[1];
  goto payload;

decoded:
  /* An event that takes no bits would repeat forever. */
  if (G_UNLIKELY (ctx->pos == it->ev_begin)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Cannot decode event: offset=%" G_GUINT64_FORMAT " bits, event "
        "`%s` takes no bits, so the packet's events never end",
        it->ev_begin, ee->ec->name ? ee->ec->name : "");
    goto failed;
  }

  it->pos = it->ev_end = ctx->pos;
  it->clock = ctx->clock;
  it->cur_ec = ee->ec;
  return TRUE;

failed:
  it->in_packet = FALSE;
  clear_values (it, GST_CTF_SCOPE_EVENT_HEADER, GST_CTF_SCOPE_EVENT_PAYLOAD);
  return FALSE;
}

const GstCtfEventClass *
gst_ctf_event_iter_get_event_class (GstCtfEventIter * it)
{
  g_return_val_if_fail (it != NULL, NULL);
  return it->cur_ec;
}

guint64
gst_ctf_event_iter_get_clock_value (GstCtfEventIter * it)
{
  g_return_val_if_fail (it != NULL, 0);
  return it->clock;
}

guint64
gst_ctf_event_iter_get_event_offset (GstCtfEventIter * it, guint64 * end)
{
  g_return_val_if_fail (it != NULL, 0);
  if (end)
    *end = it->ev_end;
  return it->ev_begin;
}

/**
 * gst_ctf_event_iter_get_header_end:
 * @it: the iterator, after gst_ctf_event_iter_next() returned %TRUE
 *
 * Where the current event's header (CTF 1.8 §6.1, the stream class's
 * `event.header`) ends: one past its last bit, before any alignment
 * padding of the scope that follows (the stream event context, or the
 * next scope present).  Equal to the event's offset when the stream
 * class has no event header.  The bits from there to the event's end
 * (gst_ctf_event_iter_get_event_offset()) are the event's body, which can
 * be copied as bytes to a place with the same alignment.
 *
 * Returns: a bit offset from the packet's first byte
 */
guint64
gst_ctf_event_iter_get_header_end (GstCtfEventIter * it)
{
  g_return_val_if_fail (it != NULL, 0);
  return it->ev_header_end;
}

guint64
_gst_ctf_event_iter_get_packet_serial (const GstCtfEventIter * it)
{
  return it->packet_serial;
}

GstCtfValueBuf *const *
_gst_ctf_event_iter_get_value_bufs (const GstCtfEventIter * it)
{
  return it->recording ? it->cur_values : NULL;
}

guint64
gst_ctf_event_iter_get_packet_count (GstCtfEventIter * it)
{
  g_return_val_if_fail (it != NULL, 0);
  return it->n_packets;
}

gboolean
gst_ctf_event_iter_set_position (GstCtfEventIter * it, guint64 offset,
    guint64 clock_value)
{
  g_return_val_if_fail (it != NULL, FALSE);
  if (!it->in_packet || offset < it->info.events_offset ||
      offset > it->info.content_size)
    return FALSE;
  it->pos = offset;
  it->clock = clock_value;
  it->cur_ec = NULL;
  it->ev_begin = it->ev_header_end = it->ev_end = offset;
  return TRUE;
}

const GstCtfFieldValue *
gst_ctf_event_iter_get_values (GstCtfEventIter * it, GstCtfScope scope,
    guint * n_values)
{
  const GstCtfValueBuf *b;

  g_return_val_if_fail (it != NULL, NULL);
  if (n_values)
    *n_values = 0;
  if ((guint) scope >= GST_CTF_N_SCOPES || !it->recording)
    return NULL;
  b = it->cur_values[scope];
  if (b->len == 0)
    return NULL;
  if (n_values)
    *n_values = b->len;
  return b->v;
}
