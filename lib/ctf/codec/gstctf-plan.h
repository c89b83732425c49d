/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: compiled decode plans (private to the library).
 *
 * A field class tree is compiled once into a flat array of ops in
 * pre-order.  Every op knows where its subtree ends (@next), so a
 * structure is decoded by walking its members linearly, an array or
 * sequence by running its element's op range N times and a variant by
 * running the op range of the selected option.  Integers that are byte
 * aligned get fast-path op kinds that need no bit arithmetic.
 *
 * Recording plans replace sequences of sibling fields whose offsets are
 * fixed from their first one by RUN ops (GstCtfRun): one bounds check,
 * reads at fixed byte offsets into values whose fixed part (class, name,
 * end) is a template, which stays in place from one event of a class to
 * the next.  Runs extend across strings, text sequences and sequences
 * of packed scalars (segments) and into a final variant's options; an
 * event whose scopes are each one run is one event run
 * (gstctf-plan-event.c).
 */
#pragma once

#include "gstctf-model.h"
#include "gstctf-reader.h"

G_BEGIN_DECLS

/* Nesting limit of compiled field classes (structs, arrays, variants in
 * each other).  Deeper trees are refused when compiled, so decoding
 * recursion is bounded too. */
#define GST_CTF_PLAN_MAX_DEPTH 64

/* A static array or sequence whose element may take zero bits cannot be
 * bounded by the bits left in the packet: such arrays are limited to this
 * many elements. */
#define GST_CTF_PLAN_MAX_ZERO_SIZE_ELEMS (1u << 16)

/* Element iterations of zero-size elements allowed in one scope decode
 * (elements of at least one bit are bounded by the bits left): nested
 * sequences of empty structures cannot make a decode loop for long. */
#define GST_CTF_PLAN_MAX_EMPTY_ITERATIONS (1u << 20)

/* Recording limit: values of one scope of one event. */
#define GST_CTF_PLAN_MAX_VALUES (1u << 22)

typedef enum {
  GST_CTF_OP_INT = 0,           /* any integer/enum: bit-level read */
  GST_CTF_OP_INT8,              /* byte-aligned 8-bit */
  GST_CTF_OP_INT16,             /* byte-aligned 16-bit, native order */
  GST_CTF_OP_INT32,
  GST_CTF_OP_INT64,
  GST_CTF_OP_INT16_SWAP,        /* byte-aligned 16-bit, foreign order */
  GST_CTF_OP_INT32_SWAP,
  GST_CTF_OP_INT64_SWAP,
  GST_CTF_OP_FLOAT,
  GST_CTF_OP_STRING,
  GST_CTF_OP_STRUCT_BEGIN,
  GST_CTF_OP_STRUCT_END,
  GST_CTF_OP_ARRAY,             /* static length, element ops follow */
  GST_CTF_OP_SEQUENCE,          /* length from a value slot */
  GST_CTF_OP_TEXT_ARRAY,        /* bytes, no element ops */
  GST_CTF_OP_TEXT_SEQUENCE,
  GST_CTF_OP_VARIANT,           /* option ops follow, one subtree each */
  GST_CTF_OP_JUMP,              /* fast plans: end of a variant option,
                                 * continue at @next */
  GST_CTF_OP_SKIP,              /* fast plans: a static, effect-free
                                 * subtree: align, then skip static_bits */
  GST_CTF_OP_RUN,               /* recording plans: consecutive siblings
                                 * of static layout, see GstCtfRun */
  GST_CTF_OP_VARINT,            /* CTF 2 variable-length integer (LEB128),
                                 * byte-aligned; never in a run */
  GST_CTF_OP_WTEXT,             /* CTF 2 UTF-16/32 string: @size bits a
                                 * code unit, @byte_order; null-terminated
                                 * (GST_CTF_OP_F_NUL_TERMINATED), else
                                 * @length bytes or @ref_slot's (>= 0);
                                 * checked; never in a run */
} GstCtfOpKind;

/* How a run item (or a scalar array element) is read: byte-aligned, at a
 * fixed byte offset.  0 is "none" (GstCtfOp.elem_kind). */
typedef enum {
  GST_CTF_RUN_NONE = 0,
  GST_CTF_RUN_U8,
  GST_CTF_RUN_S8,
  GST_CTF_RUN_U16,
  GST_CTF_RUN_S16,
  GST_CTF_RUN_U32,
  GST_CTF_RUN_S32,
  GST_CTF_RUN_U64,
  GST_CTF_RUN_U16_SWAP,
  GST_CTF_RUN_S16_SWAP,
  GST_CTF_RUN_U32_SWAP,
  GST_CTF_RUN_S32_SWAP,
  GST_CTF_RUN_U64_SWAP,         /* last integer kind */
  GST_CTF_RUN_F32,
  GST_CTF_RUN_F64,
  GST_CTF_RUN_F32_SWAP,
  GST_CTF_RUN_F64_SWAP,
  GST_CTF_RUN_TEXT,             /* text array of @value bytes */
  GST_CTF_RUN_DYN,              /* string or text sequence ending a run
                                 * segment (GstCtfRunSeg) */
  GST_CTF_RUN_CONST,            /* structure or static array: @value is
                                 * its child count, its children follow */
} GstCtfRunKind;

/* Side effects of an integer op, tested with one branch on the fast
 * path. */
#define GST_CTF_OP_F_SIGNED   (1u << 0)
#define GST_CTF_OP_F_CLOCK    (1u << 1)  /* updates the clock (CTF 1.8 §8) */
#define GST_CTF_OP_F_SLOT     (1u << 2)  /* stores into a value slot */
#define GST_CTF_OP_F_MEANING  (1u << 3)  /* header/context/event id role */
#define GST_CTF_OP_F_EFFECTS  (GST_CTF_OP_F_CLOCK | GST_CTF_OP_F_SLOT | \
    GST_CTF_OP_F_MEANING)
/* A variant that is a CTF 2 optional: no option selected means absent
 * (recorded as a variant value without child), not an error. */
#define GST_CTF_OP_F_OPTIONAL (1u << 4)
/* GST_CTF_OP_WTEXT: a null-terminated string */
#define GST_CTF_OP_F_NUL_TERMINATED (1u << 5)

typedef struct {
  guint64 lower;
  guint64 upper;
  guint32 option;
} GstCtfVariantRange;

struct _GstCtfRun;

typedef struct {
  guint8 kind;                  /* GstCtfOpKind */
  guint8 flags;                 /* GST_CTF_OP_F_* */
  guint8 size;                  /* bits (ints, floats) */
  guint8 byte_order;            /* GstCtfByteOrder */
  guint8 meaning;               /* GstCtfFieldMeaning */
  guint8 tag_signed;            /* variant: compare ranges as signed */
  guint8 elem_kind;             /* recording arrays/sequences whose element
                                 * is one effect-free byte-aligned scalar
                                 * (stride == size): its GstCtfRunKind */
  guint8 pad_;
  guint32 align;                /* bits, power of two */
  guint32 next;                 /* index of the op after this subtree */
  gint32 slot;                  /* value slot written, or -1 */
  gint32 ref_slot;              /* sequence length / variant tag slot */
  guint32 n_children;           /* struct members, variant options */
  guint64 length;               /* static array length */
  guint64 min_elem_bits;        /* arrays: fewest bits an element takes */
  guint64 static_bits;          /* size when static and effect-free, else
                                 * G_MAXUINT64 */
  guint64 stride;               /* arrays of static elements: distance
                                 * between element starts, else 0 */
  const GstCtfFieldClass *fc;
  const gchar *name;            /* member/option name or NULL */
  GstCtfVariantRange *ranges;   /* variant: sorted by option, then range */
  guint32 n_ranges;
  guint32 *options;             /* variant: op index of each option root */
  guint32 *option_ends;         /* variant: op index after each option */
  const struct _GstCtfRun *run; /* GST_CTF_OP_RUN */
} GstCtfOp;

/* One recorded value of a run. */
typedef struct {
  const GstCtfFieldClass *fc;
  const gchar *name;
  guint64 value;                /* CONST: child count; TEXT: bytes */
  guint32 byte_off;             /* from the run's first byte */
  guint32 end_off;              /* GstCtfFieldValue.end minus the index
                                 * of the run's first value */
  guint8 kind;                  /* GstCtfRunKind */
  guint16 seg;                  /* its segment */
} GstCtfRunItem;

/* An integer of a run with a side effect (value slot, clock, meaning),
 * applied once the run's values are read, in field order. */
typedef struct _GstCtfRunEffectS {
  guint32 item;                 /* its GstCtfRunItem */
  guint32 bit_off;              /* from the run's start, for messages */
  guint8 fast;                  /* GST_CTF_RUN_FX_* */
  GstCtfOp op;                  /* copy of its op */
} GstCtfRunEffect;

#define GST_CTF_RUN_FX_ANY   0  /* gstctf-plan-exec.c int_effects() */
#define GST_CTF_RUN_FX_SLOT  1  /* only a value slot */
#define GST_CTF_RUN_FX_CLOCK 2  /* only a clock update */

#define GST_CTF_RUN_FX_EVENT_ID 3  /* a value slot (or none) and the
                                 * event class id */

/* One read of a run. */
typedef struct _GstCtfRunLoadS {
  guint32 byte_off;             /* from the run's first byte */
  guint32 val_off;              /* bytes from the run's first value */
  guint32 kind;                 /* GstCtfRunKind */
} GstCtfRunLoad;

/* Most segments a run has (so most sequences it holds). */
#define GST_CTF_RUN_MAX_SEGS 64

/* A run: siblings (structure members, an array element, a variant
 * option, a scope root) whose layout is fixed relative to the run's
 * first field but for the strings and sequences that end its segments
 * and the variant that may end it: every field byte-aligned, none more
 * aligned than the first.  It is decoded with one bounds check per
 * segment and no per-field dispatch on ops; when a check fails the
 * original first op (@orig) runs instead, so that errors are those of
 * field-by-field decoding. */

/* A stretch of a run with fixed offsets from its start, ended by a
 * string, text sequence or sequence of packed scalars (whose size the
 * data gives; the next segment starts after it) or by the run's end. */
typedef struct {
  guint64 bits;                 /* from its aligned start to the dynamic
                                 * field or the run's end */
  guint32 align;                /* its start's alignment (the run's first
                                 * segment is aligned by the caller) */
  guint32 first_load;
  guint32 n_loads;
  guint32 first_effect;
  guint32 n_effects;
  /* the same as pointers into the run's arrays */
  const struct _GstCtfRunLoadS *loads, *loads_end;
  const struct _GstCtfRunEffectS *fx, *fx_end;
  guint32 dyn_item;             /* value index of the dynamic field */
  guint8 dyn_kind;              /* GST_CTF_OP_STRING,
                                 * GST_CTF_OP_TEXT_SEQUENCE or
                                 * GST_CTF_OP_SEQUENCE (of byte-aligned,
                                 * effect-free scalars), or 0: none */
  guint8 dyn_elem_kind;         /* sequence: its elements' GstCtfRunKind */
  guint32 dyn_align;
  gint32 dyn_slot;              /* sequence: its length's slot */
  const GstCtfFieldClass *dyn_elem_fc;  /* sequence: its elements' */
  const gchar *dyn_elem_name;
  guint32 first_item;           /* value index of its first value */
} GstCtfRunSeg;

/* A structure or static array of a run holding a sequence (whose
 * elements are values of their own): its end moves with the element
 * counts of the sequences before it (GstCtfRun.grow). */
typedef struct {
  guint32 item;                 /* its value index in the run's template */
  guint32 end;                  /* its end there (value index, from the
                                 * run's first value) */
  guint32 end_local;            /* the same as its template records it */
} GstCtfRunGrow;

typedef struct _GstCtfRun {
  /* segs[0].bits, here at the start: the first read of a run on each
   * event (its bounds check) does not wait for a load of @segs first */
  guint64 bits0;
  GstCtfOp orig;
  guint32 n_segs;
  GstCtfRunSeg *segs;
  guint32 n_items;
  guint32 n_effects;
  guint32 n_loads;
  GstCtfRunEffect *effects;
  /* the recorded values as far as they are fixed (class, name, end
   * relative to the run's first value, constant values): copied (unless
   * still in place from the previous event), then the reads fill in the
   * rest */
  GstCtfFieldValue *tmpl;
  GstCtfRunLoad *loads;
  /* A variant may end the run (its item @tail_item): the run of the
   * selected option follows, then the structures around the variant
   * (items @open) end. */
  gint32 tail_item;             /* or -1 */
  guint32 n_open;
  guint32 *open;
  GstCtfOp *tail_op;            /* copy of the variant's op */
  struct _GstCtfRun **tail_runs; /* per option */
  /* When the variant's tag is read by this run and each option's run
   * has a fixed offset here: per option, this run and the option's as
   * one (no tail), chosen by reading the tag first (or NULL) */
  struct _GstCtfRun **flat;
  guint32 tag_byte_off;
  guint32 tag_kind;             /* GstCtfRunKind of the tag */
  /* An event header's run (without tail) that reads the event class id
   * (its last integer with that meaning, CTF 1.8 §6.1) at a fixed
   * place: where and how, so the id is known before the run is decoded;
   * else GST_CTF_RUN_NONE. */
  guint32 id_byte_off;
  guint32 id_kind;
  /* Sequences of scalars end some segments: each adds its element count
   * to the place of every value after it, so the segments after the
   * first are copied from the template at their place for each event,
   * and the structures around a sequence get their end then. */
  guint32 n_seqs;
  guint32 n_grow;
  GstCtfRunGrow *grow;
} GstCtfRun;

/* @ops decode everything (recording); @fast_ops are the same walk with
 * every static-size subtree that has no side effect (no value slot,
 * clock, meaning) collapsed into one SKIP op and without structure
 * begin/end ops (a structure's alignment moves to its first member), used
 * when not recording. */
typedef struct {
  GstCtfOp *ops;
  guint n_ops;
  GstCtfOp *fast_ops;
  guint n_fast_ops;
  const GstCtfFieldClass *root;
  /* When the fast plan is a single SKIP (a scope of static size and no
   * side effect, like most event payloads): its alignment and size, so
   * the caller can skip the scope without running the interpreter. */
  gboolean skip_only;
  guint32 skip_align;
  guint64 skip_bits;
  /* When the recording plan is a single RUN (a scope of static layout,
   * like most event payloads and contexts): that run. */
  const GstCtfRun *whole_run;
} GstCtfPlan;

/* Recorded values of one scope: grows, never shrinks, so a warmed-up
 * iterator records without allocating. */
typedef struct {
  GstCtfFieldValue *v;
  guint len;
  guint cap;
  /* the whole-scope run whose template is in place from index 0, or
   * NULL (anything else may have written there) */
  gconstpointer tmpl_owner;
  /* with it, the run of its tail variant's option whose template follows
   * (valid only while @tmpl_owner is) */
  gconstpointer tail_owner;
} GstCtfValueBuf;

/* What a decode needs and produces.  The caller fills the inputs; on
 * failure @error is set (GST_CTF_ERROR_PACKET unless said otherwise). */
typedef struct {
  /* inputs */
  const guint8 *data;
  guint64 n_bytes;              /* bytes readable at @data */
  guint64 limit;                /* bits: nothing may be read past this */
  guint64 pos;                  /* current bit offset from @data */
  guint64 *slots;               /* value slots, tc->n_value_slots */
  guint n_slots;
  GstCtfValueBuf *values;       /* or NULL: no recording */
  GstCtfPacketInfo *info;       /* packet header/context roles, or NULL */
  const gchar *scope_name;      /* for error messages */
  /* state */
  guint64 clock;                /* current clock value, cycles */
  guint64 event_class_id;
  gboolean has_event_class_id;
  gboolean has_magic;
  guint32 magic;
  guint32 seen_meanings;        /* 1 << GstCtfFieldMeaning decoded */
} GstCtfDecodeCtx;

/* The scopes of an event (CTF 1.8 §6.1: event header, stream event
 * context, event context, payload, in this order) as one run, when each
 * present scope is one run without a final variant, all but the last
 * have one segment, and none is more aligned than the first (so the
 * padding between them is static); gstctf-plan-event.c. */
#define GST_CTF_EVENT_RUN_SCOPES 4

typedef struct {
  GstCtfRun run;
  guint32 align;                /* bits: the first scope's alignment */
  /* per scope: its values' place in the run's, and their count (0 for
   * an absent scope) */
  guint32 first[GST_CTF_EVENT_RUN_SCOPES];
  guint32 n[GST_CTF_EVENT_RUN_SCOPES];
  GPtrArray *allocs;
} GstCtfEventRun;

/* @header: the event header's run (a whole-scope run or, for a header
 * ending with a variant, the one picked for an event, GstCtfRun.flat),
 * aligned to @header_align, or NULL for the scopes after the header;
 * @plans: per scope after the header, its plan or NULL when the scope
 * is absent.  Returns NULL when the scopes cannot be one run or fewer
 * than two are present. */
G_GNUC_INTERNAL
GstCtfEventRun *gst_ctf_event_run_new (const GstCtfRun * header,
    guint32 header_align,
    const GstCtfPlan * const plans[GST_CTF_EVENT_RUN_SCOPES - 1]);
G_GNUC_INTERNAL
void gst_ctf_event_run_free (GstCtfEventRun * er);
/* Decodes @er at ctx->pos into ctx->values (from index 0, in place
 * when ctx->values->tmpl_owner is @er's run).  1: done, ctx->pos at
 * the end; 0: does not fit (decode the scopes one by one, from the same
 * position: side effects applied again give the same state); -1: error
 * (a side effect failed). */
G_GNUC_INTERNAL
gint gst_ctf_event_run_exec (const GstCtfEventRun * er,
    GstCtfDecodeCtx * ctx, GError ** error);

/* Tests: whether an iterator decodes with runs (RUN ops and event runs,
 * the default) or every field with the op interpreter
 * (gstctf-packet-reader.c); before its first packet. */
G_GNUC_INTERNAL
void _gst_ctf_event_iter_set_runs (GstCtfEventIter * it, gboolean on);

/* Once a run's segments, loads and effects are final: each segment's
 * loads and effects as pointers, and GstCtfRun.bits0 (gstctf-plan.c, for
 * its runs and gstctf-plan-event.c's). */
G_GNUC_INTERNAL
void _gst_ctf_run_link (GstCtfRun * run);

G_GNUC_INTERNAL
GstCtfPlan *gst_ctf_plan_compile (const GstCtfFieldClass * fc,
    GError ** error);
/* gst_ctf_plan_compile() with or without RUN ops (@runs FALSE: every
 * field decoded by the interpreter, for tests). */
G_GNUC_INTERNAL
GstCtfPlan *gst_ctf_plan_compile_full (const GstCtfFieldClass * fc,
    gboolean runs, GError ** error);
G_GNUC_INTERNAL
void gst_ctf_plan_free (GstCtfPlan * plan);
G_GNUC_INTERNAL
gboolean gst_ctf_plan_exec (const GstCtfPlan * plan, GstCtfDecodeCtx * ctx,
    GError ** error);
/* As gst_ctf_plan_exec() for a context whose limit is already within
 * n_bytes * 8 and below 2^60 bits. */
G_GNUC_INTERNAL
gboolean gst_ctf_plan_run (const GstCtfPlan * plan, GstCtfDecodeCtx * ctx,
    GError ** error);
/* gst_ctf_plan_run() for a context without recording (the fast plan). */
G_GNUC_INTERNAL
gboolean gst_ctf_plan_run_walk (const GstCtfPlan * plan,
    GstCtfDecodeCtx * ctx, GError ** error);

/* Decodes one scope: skip-only plans are skipped inline when not
 * recording; everything else (and any error) goes to the interpreter. */
static inline gboolean
gst_ctf_plan_run_scope (const GstCtfPlan * plan, GstCtfDecodeCtx * ctx,
    GError ** error)
{
  if (ctx->values == NULL) {
    if (plan->skip_only) {
      guint64 pos = (ctx->pos + plan->skip_align - 1) &
          ~((guint64) plan->skip_align - 1);

      if (G_LIKELY (pos + plan->skip_bits <= ctx->limit)) {
        ctx->pos = pos + plan->skip_bits;
        return TRUE;
      }
    }
    return gst_ctf_plan_run_walk (plan, ctx, error);
  }
  return gst_ctf_plan_run (plan, ctx, error);
}

G_END_DECLS
