/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-ctfdebuginfo
 * @title: ctfdebuginfo
 * @short_description: adds the source location of LTTng-UST events
 *
 * Adds to every event that carries the `ip` and `vpid` contexts (LTTng-UST
 * with `lttng add-context -u -t vpid -t ip`) a structure
 * #GstCtfDebugInfoFilter:field-name `{ bin, func, src }` at the end of its
 * common context, as babeltrace2 2.0's `filter.lttng-utils.debug-info`
 * (`babeltrace2 --debug-info`) does: `bin = "app+0x119d", func =
 * "level2+0x14", src = "app.c:5"`, empty strings when unknown.  The
 * binaries each process has mapped come from the `lttng_ust_statedump:*`
 * (`bin_info`, `build_id`, `debug_link`, `start`), `lttng_ust_dl:dlopen`
 * and `lttng_ust_lib:*` (`load`, `build_id`, `debug_link`, `unload`)
 * events, taken in babeltrace2's event order across streams; functions
 * and lines are read with elfutils from the binaries (under
 * #GstCtfDebugInfoFilter:target-prefix) and their separate debug files
 * (#GstCtfDebugInfoFilter:debug-info-dir, by build id and by debug link),
 * each file opened once and each address resolved once per process.
 *
 * The output metadata (caps) has the new field, and the packets of the
 * stream classes that gain it are encoded again (the others pass
 * untouched), so `ctfsink` writes the field and any reader shows it.  A
 * binary that is missing, corrupt or of another build id gives empty
 * fields and one warning message naming the file, never an error.
 *
 * Packets are held until no packet still to come can hold an earlier
 * event (the order ctfsrc pushes them in: `timestamp_begin`), about one
 * packet per stream; a live source's GAP events (lttnglivesrc) let them
 * go sooner.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -q ctfsrc location=TRACE ! ctfdebuginfo target-prefix=/mnt/target ! ctftextsink
 * ]| The events with their source locations, as
 * `babeltrace2 --debug-info --debug-info-target-prefix=/mnt/target TRACE`.
 * |[
 * gst-launch-1.0 ctfsrc location=TRACE ! ctfdebuginfo full-path=true ! ctfsink location=OUT
 * ]| A CTF trace with the whole paths in each event's `debug_info`.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstctfdebuginfo.h"
#include "gstctfdebuginfo-private.h"

#include "gstctf-caps.h"
#include "gstctf-debug-info.h"
#include "gstctf-element-util.h"
#include "gstctf-event-merge.h"
#include "gstctf-metadata.h"
#include "gstctf-packet-meta.h"
#include "gstctf-packet-writer.h"
#include "gstctf-reader.h"

GST_DEBUG_CATEGORY_STATIC (gst_ctf_debug_info_filter_debug);
#define GST_CAT_DEFAULT gst_ctf_debug_info_filter_debug

#define DEFAULT_DEBUG_INFO_DIR "/usr/lib/debug"
#define DEFAULT_FIELD_NAME "debug_info"

enum
{
  PROP_0,
  PROP_DEBUG_INFO_DIR,
  PROP_TARGET_PREFIX,
  PROP_FULL_PATH,
  PROP_FIELD_NAME,
  N_PROPS
};

/* What an event class is to the state of the processes. */
typedef enum
{
  KIND_NONE = 0,                /* an ordinary event */
  KIND_BIN_INFO,                /* statedump bin_info: has is_pic */
  KIND_LOAD,                    /* dl:dlopen, lib:load: PIC */
  KIND_BUILD_ID,
  KIND_DEBUG_LINK,
  KIND_START,
  KIND_UNLOAD,
} EventKind;

/* An event class of a stream class that gains the field. */
typedef struct
{
  EventKind kind;
  const GstCtfEventClass *out;  /* the same class in the output */
  /* where vpid and ip were in the common context values last time
   * (checked by field class: a variable-size member before them moves
   * them) */
  guint i_vpid, i_ip;
  const GstCtfFieldClass *vpid_fc, *ip_fc;
} ClassInfo;

/* A data stream: its writer and the packet being written. */
typedef struct _Pending Pending;
typedef struct
{
  GstCtfPacketWriter *writer;
  Pending *current;
} Stream;

/* An input packet on its way out, in arrival order. */
struct _Pending
{
  GstBuffer *in;
  GstBuffer *out;               /* set once done */
  gboolean done;
  Stream *stream;               /* NULL: passed as it is */
  GstCtfPacketInfo info;
  const guint8 *data;           /* the merge's bytes of the packet */
};

/* The mapping of a pushed buffer, released with the merge's bytes. */
typedef struct
{
  GstBuffer *buffer;
  GstMapInfo map;
} Mapped;

struct _GstCtfDebugInfoFilter
{
  GstBaseTransform parent;

  /* Settings (object lock). */
  gchar *debug_info_dir;
  gchar *target_prefix;
  gboolean full_path;
  gchar *field_name;
  gchar *md_in;                 /* last metadata transformed, and result */
  gchar *md_out;

  /* State (streaming thread). */
  gchar *tsdl;
  GstCtfTraceClass *tc;
  GstCtfTraceClass *out_tc;
  GstCtfEventMerge *merge;
  GstCtfDebugInfo *di;
  GHashTable *classes;          /* in GstCtfEventClass -> ClassInfo */
  GHashTable *fits;             /* stream class id -> GINT (1 fits, 2 not) */
  GHashTable *streams;          /* key text -> Stream */
  GHashTable *by_data;          /* packet bytes -> Pending */
  GQueue pending;               /* Pending, arrival order */
  GArray *ctx;                  /* GstCtfFieldValue: the new common context */
  GByteArray *insert;           /* the structure's strings, encoded */
  const GstCtfFieldClass *di_fc;        /* the output's structure */
  const gchar *di_name;         /* its name (output trace class) */
  /* the last event's packet and class (most events follow one of the
   * same packet and often of the same class) */
  const guint8 *last_data;
  Pending *last_pe;
  const GstCtfEventClass *last_ec;
  ClassInfo *last_ci;
};

static GParamSpec *props[N_PROPS];

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CTF_CAPS_MEDIA_TYPE));

#define gst_ctf_debug_info_filter_parent_class parent_class
G_DEFINE_TYPE (GstCtfDebugInfoFilter, gst_ctf_debug_info_filter,
    GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (ctfdebuginfo, "ctfdebuginfo",
    GST_RANK_NONE, GST_TYPE_CTF_DEBUG_INFO_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_ctf_debug_info_filter_debug, "ctfdebuginfo",
        0, "CTF debug info (source locations of LTTng-UST events)"));

static void gst_ctf_debug_info_filter_finalize (GObject * object);
static void gst_ctf_debug_info_filter_set_property (GObject * object,
    guint prop_id, const GValue * value, GParamSpec * pspec);
static void gst_ctf_debug_info_filter_get_property (GObject * object,
    guint prop_id, GValue * value, GParamSpec * pspec);
static gboolean gst_ctf_debug_info_filter_start (GstBaseTransform * trans);
static gboolean gst_ctf_debug_info_filter_stop (GstBaseTransform * trans);
static gboolean gst_ctf_debug_info_filter_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
static GstCaps *gst_ctf_debug_info_filter_transform_caps (GstBaseTransform *
    trans, GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static gboolean gst_ctf_debug_info_filter_sink_event (GstBaseTransform *
    trans, GstEvent * event);
static GstFlowReturn gst_ctf_debug_info_filter_generate_output (
    GstBaseTransform * trans, GstBuffer ** outbuf);

#define PROP_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_READY)

static void
gst_ctf_debug_info_filter_class_init (GstCtfDebugInfoFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->finalize = gst_ctf_debug_info_filter_finalize;
  gobject_class->set_property = gst_ctf_debug_info_filter_set_property;
  gobject_class->get_property = gst_ctf_debug_info_filter_get_property;

  /**
   * GstCtfDebugInfoFilter:debug-info-dir:
   *
   * Where separate debug files are looked for: `DIR/.build-id/XX/
   * YYYY.debug` for a binary with a build id, `DIR/BINARY_DIR/LINK` last
   * for a debug link (babeltrace2's `--debug-info-dir`).
   */
  props[PROP_DEBUG_INFO_DIR] = g_param_spec_string ("debug-info-dir",
      "Debug info directory", "Directory of separate debug files (build "
      "id and debug link lookups), as babeltrace2 --debug-info-dir",
      DEFAULT_DEBUG_INFO_DIR, PROP_FLAGS);

  /**
   * GstCtfDebugInfoFilter:target-prefix:
   *
   * Prepended to the binary paths the trace names, for binaries copied
   * from the traced machine (babeltrace2's `--debug-info-target-prefix`).
   * %NULL: the paths as they are.
   */
  props[PROP_TARGET_PREFIX] = g_param_spec_string ("target-prefix",
      "Target prefix", "Directory prepended to the binary paths of the "
      "trace, e.g. /mnt/target (none: the paths as they are)", NULL,
      PROP_FLAGS);

  /**
   * GstCtfDebugInfoFilter:full-path:
   *
   * Whole paths in `bin` and `src` instead of file names
   * (babeltrace2's `--debug-info-full-path`).
   */
  props[PROP_FULL_PATH] = g_param_spec_boolean ("full-path", "Full path",
      "Whole paths in bin and src rather than file names", FALSE,
      PROP_FLAGS);

  /**
   * GstCtfDebugInfoFilter:field-name:
   *
   * Name of the structure added to the event common context
   * (babeltrace2's `debug-info-field-name` parameter).
   */
  props[PROP_FIELD_NAME] = g_param_spec_string ("field-name", "Field name",
      "Name of the structure added to the event common context",
      DEFAULT_FIELD_NAME, PROP_FLAGS);

  g_object_class_install_properties (gobject_class, N_PROPS, props);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "CTF debug info", "Filter",
      "Adds the binary, function and source line of each LTTng-UST event "
      "with ip and vpid contexts, as babeltrace2 --debug-info",
      GST_CTF_ELEMENT_AUTHOR);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_ctf_debug_info_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_ctf_debug_info_filter_stop);
  trans_class->set_caps =
      GST_DEBUG_FUNCPTR (gst_ctf_debug_info_filter_set_caps);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_ctf_debug_info_filter_transform_caps);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (gst_ctf_debug_info_filter_sink_event);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_ctf_debug_info_filter_generate_output);
  trans_class->passthrough_on_same_caps = FALSE;
}

static void
stream_free (gpointer p)
{
  Stream *s = p;

  gst_ctf_packet_writer_free (s->writer);
  g_free (s);
}

static void
pending_free (gpointer p)
{
  Pending *pe = p;

  gst_buffer_unref (pe->in);
  if (pe->out)
    gst_buffer_unref (pe->out);
  g_free (pe);
}

static void
gst_ctf_debug_info_filter_init (GstCtfDebugInfoFilter * self)
{
  self->debug_info_dir = g_strdup (DEFAULT_DEBUG_INFO_DIR);
  self->field_name = g_strdup (DEFAULT_FIELD_NAME);
  g_queue_init (&self->pending);
  self->ctx = g_array_new (FALSE, FALSE, sizeof (GstCtfFieldValue));
  self->insert = g_byte_array_new ();
}

/* Drops what was learnt from the packets (not the trace class). */
static void
drop_packets (GstCtfDebugInfoFilter * self)
{
  self->last_data = NULL;
  self->last_pe = NULL;
  self->last_ec = NULL;
  self->last_ci = NULL;
  g_queue_clear_full (&self->pending, pending_free);
  g_clear_pointer (&self->merge, gst_ctf_event_merge_free);
  g_clear_pointer (&self->by_data, g_hash_table_unref);
  g_clear_pointer (&self->streams, g_hash_table_unref);
}

static void
drop_state (GstCtfDebugInfoFilter * self)
{
  drop_packets (self);
  g_clear_pointer (&self->di, gst_ctf_debug_info_free);
  g_clear_pointer (&self->classes, g_hash_table_unref);
  g_clear_pointer (&self->fits, g_hash_table_unref);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  g_clear_pointer (&self->out_tc, gst_ctf_trace_class_unref);
  g_clear_pointer (&self->tsdl, g_free);
  self->di_fc = NULL;
}

static void
gst_ctf_debug_info_filter_finalize (GObject * object)
{
  GstCtfDebugInfoFilter *self = GST_CTF_DEBUG_INFO_FILTER (object);

  drop_state (self);
  g_array_unref (self->ctx);
  g_byte_array_unref (self->insert);
  g_free (self->debug_info_dir);
  g_free (self->target_prefix);
  g_free (self->field_name);
  g_free (self->md_in);
  g_free (self->md_out);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_ctf_debug_info_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtfDebugInfoFilter *self = GST_CTF_DEBUG_INFO_FILTER (object);
  gchar **str = NULL;

  switch (prop_id) {
    case PROP_DEBUG_INFO_DIR:
      str = &self->debug_info_dir;
      break;
    case PROP_TARGET_PREFIX:
      str = &self->target_prefix;
      break;
    case PROP_FIELD_NAME:
      str = &self->field_name;
      break;
    case PROP_FULL_PATH:
      GST_OBJECT_LOCK (self);
      self->full_path = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      return;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
  }
  GST_OBJECT_LOCK (self);
  g_free (*str);
  *str = g_value_dup_string (value);
  if (prop_id == PROP_FIELD_NAME && (*str == NULL || **str == '\0')) {
    g_free (*str);
    *str = g_strdup (DEFAULT_FIELD_NAME);
  }
  g_clear_pointer (&self->md_in, g_free);
  g_clear_pointer (&self->md_out, g_free);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_ctf_debug_info_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtfDebugInfoFilter *self = GST_CTF_DEBUG_INFO_FILTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEBUG_INFO_DIR:
      g_value_set_string (value, self->debug_info_dir);
      break;
    case PROP_TARGET_PREFIX:
      g_value_set_string (value, self->target_prefix);
      break;
    case PROP_FULL_PATH:
      g_value_set_boolean (value, self->full_path);
      break;
    case PROP_FIELD_NAME:
      g_value_set_string (value, self->field_name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_ctf_debug_info_filter_start (GstBaseTransform * trans)
{
  GstCtfDebugInfoFilter *self = GST_CTF_DEBUG_INFO_FILTER (trans);

  drop_state (self);
  GST_OBJECT_LOCK (self);
  self->di = gst_ctf_debug_info_new (self->debug_info_dir,
      self->target_prefix && *self->target_prefix ? self->target_prefix :
      NULL, self->full_path);
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_ctf_debug_info_filter_stop (GstBaseTransform * trans)
{
  drop_state (GST_CTF_DEBUG_INFO_FILTER (trans));
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Caps */

/* The output metadata for @md (object lock held). */
static gchar *
output_metadata (GstCtfDebugInfoFilter * self, const gchar * md)
{
  GError *err = NULL;
  gchar *out;

  if (self->md_in && strcmp (self->md_in, md) == 0)
    return g_strdup (self->md_out);
  out = _gst_ctf_debug_info_metadata (md, self->field_name, NULL, &err);
  if (out == NULL) {
    /* set_caps reports the parse error; the metadata goes on as it is */
    GST_DEBUG_OBJECT (self, "metadata not changed: %s", err->message);
    g_clear_error (&err);
    out = g_strdup (md);
  }
  g_free (self->md_in);
  g_free (self->md_out);
  self->md_in = g_strdup (md);
  self->md_out = g_strdup (out);
  return out;
}

static GstCaps *
gst_ctf_debug_info_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCtfDebugInfoFilter *self = GST_CTF_DEBUG_INFO_FILTER (trans);
  GstCaps *res = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (res); i++) {
    GstStructure *st = gst_caps_get_structure (res, i);
    const gchar *md = gst_structure_get_string (st, "metadata");

    if (direction == GST_PAD_SRC) {
      gst_structure_remove_field (st, "metadata");
    } else if (md != NULL) {
      gchar *out;

      GST_OBJECT_LOCK (self);
      out = output_metadata (self, md);
      GST_OBJECT_UNLOCK (self);
      gst_structure_set (st, "metadata", G_TYPE_STRING, out, NULL);
      g_free (out);
    }
  }
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, res,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (res);
    res = tmp;
  }
  return res;
}

static EventKind
event_kind (const gchar * name)
{
  static const struct
  {
    const gchar *name;
    EventKind kind;
  } kinds[] = {
    {"lttng_ust_statedump:bin_info", KIND_BIN_INFO},
    {"lttng_ust_dl:dlopen", KIND_LOAD},
    {"lttng_ust_lib:load", KIND_LOAD},
    {"lttng_ust_statedump:start", KIND_START},
    {"lttng_ust_statedump:debug_link", KIND_DEBUG_LINK},
    {"lttng_ust_statedump:build_id", KIND_BUILD_ID},
    {"lttng_ust_lib:unload", KIND_UNLOAD},
    /* lttng-ust 2.12+ also tells the build id and debug link of what
     * dlopen loads, babeltrace2 2.0 takes only the statedump's */
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strcmp (name, kinds[i].name) == 0)
      return kinds[i].kind;
  return KIND_NONE;
}

static gboolean
gst_ctf_debug_info_filter_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps)
{
  GstCtfDebugInfoFilter *self = GST_CTF_DEBUG_INFO_FILTER (trans);
  GstCtfTraceClass *tc = NULL, *out_tc;
  const gchar *md = gst_ctf_caps_get_metadata (outcaps);
  GError *err = NULL;
  guint i, j;

  switch (gst_ctf_element_parse_caps (GST_ELEMENT (self), incaps,
          &self->tsdl, &tc)) {
    case GST_CTF_CAPS_SAME:
      return TRUE;
    case GST_CTF_CAPS_FAILED:
      return FALSE;
    case GST_CTF_CAPS_NEW:
      break;
  }
  out_tc = md ? gst_ctf_metadata_parse (md, "output caps", &err) : NULL;
  if (out_tc == NULL) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Cannot write the metadata with the debug info field: %s",
            err ? err->message : "no metadata in the output caps"), (NULL));
    g_clear_error (&err);
    gst_ctf_trace_class_unref (tc);
    return FALSE;
  }
  /* the packets held went out at the caps event (push_all()); a grown
   * trace class keeps the ids, so the state of the processes stays */
  drop_packets (self);
  g_clear_pointer (&self->classes, g_hash_table_unref);
  g_clear_pointer (&self->fits, g_hash_table_unref);
  g_clear_pointer (&self->tc, gst_ctf_trace_class_unref);
  g_clear_pointer (&self->out_tc, gst_ctf_trace_class_unref);
  self->tc = tc;
  self->out_tc = out_tc;
  self->di_fc = NULL;
  self->classes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->fits = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (i = 0; i < tc->stream_classes->len; i++) {
    const GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);
    const GstCtfStreamClass *osc =
        gst_ctf_trace_class_find_stream_class (out_tc, sc->id);
    const GstCtfFieldClass *ofc;
    gboolean fits;

    GST_OBJECT_LOCK (self);
    fits = osc && _gst_ctf_debug_info_context_fits (sc->event_common_context,
        self->field_name) && (ofc = gst_ctf_field_class_find_member
        (osc->event_common_context, self->field_name, NULL)) != NULL &&
        ofc->type == GST_CTF_FIELD_CLASS_STRUCT && ofc->n_members == 3;
    GST_OBJECT_UNLOCK (self);
    g_hash_table_insert (self->fits, (gpointer) & sc->id,
        GINT_TO_POINTER (fits ? 1 : 2));
    if (!fits)
      continue;
    self->di_fc = ofc;
    self->di_name = osc->event_common_context->members[
        osc->event_common_context->n_members - 1].name;
    for (j = 0; j < sc->event_classes->len; j++) {
      const GstCtfEventClass *ec = g_ptr_array_index (sc->event_classes, j);
      ClassInfo *ci = g_new0 (ClassInfo, 1);

      ci->kind = g_str_has_prefix (ec->name, "lttng_ust") ?
          event_kind (ec->name) : KIND_NONE;
      ci->out = gst_ctf_stream_class_find_event_class (osc, ec->id);
      g_hash_table_insert (self->classes, (gpointer) ec, ci);
    }
  }
  self->merge = gst_ctf_event_merge_new (tc);
  gst_ctf_event_merge_set_emulate_recycling (self->merge, FALSE);
  self->by_data = g_hash_table_new (NULL, NULL);
  self->streams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      stream_free);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Events */

/* The top-level member @name of a decoded structure (index in @v). */
static guint
member (const GstCtfFieldValue * v, guint n, const gchar * name)
{
  guint i;

  for (i = 1; v && i < n && i < v[0].end && v[i].end > i; i = v[i].end)
    if (_gst_ctf_debug_info_name_is (v[i].name, name))
      return i;
  return 0;
}

static guint64
payload_u (const GstCtfFieldValue * v, guint n, const gchar * name,
    gboolean * ok)
{
  guint i = member (v, n, name);

  if (i == 0 || v[i].fc == NULL || (v[i].fc->type !=
          GST_CTF_FIELD_CLASS_INTEGER && v[i].fc->type !=
          GST_CTF_FIELD_CLASS_ENUM)) {
    *ok = FALSE;
    return 0;
  }
  return v[i].v.u;
}

static gchar *
payload_s (const GstCtfFieldValue * v, guint n, const gchar * name)
{
  guint i = member (v, n, name);

  if (i == 0 || v[i].fc == NULL || v[i].fc->type !=
      GST_CTF_FIELD_CLASS_STRING)
    return NULL;
  return g_strndup (v[i].v.s.ptr ? v[i].v.s.ptr : "", v[i].v.s.len);
}

/* The build id bytes: a sequence of integers or a text sequence. */
static guint8 *
payload_bytes (const GstCtfFieldValue * v, guint n, const gchar * name,
    gsize * len)
{
  guint i = member (v, n, name), k;
  GByteArray *a;

  if (i == 0 || v[i].fc == NULL || (v[i].fc->type !=
          GST_CTF_FIELD_CLASS_SEQUENCE && v[i].fc->type !=
          GST_CTF_FIELD_CLASS_ARRAY))
    return NULL;
  a = g_byte_array_new ();
  if (v[i].end == i + 1 && v[i].v.s.ptr)
    g_byte_array_append (a, (const guint8 *) v[i].v.s.ptr, v[i].v.s.len);
  else
    for (k = i + 1; k < v[i].end && k < n; k = v[k].end > k ? v[k].end : n) {
      guint8 b = (guint8) v[k].v.u;

      g_byte_array_append (a, &b, 1);
    }
  *len = a->len;
  return g_byte_array_free (a, FALSE);
}

static void
update_state (GstCtfDebugInfoFilter * self, EventKind kind, gint64 vpid,
    const GstCtfFieldValue * p, guint n)
{
  gboolean ok = TRUE;
  guint64 baddr = payload_u (p, n, "baddr", &ok);

  switch (kind) {
    case KIND_START:
      gst_ctf_debug_info_statedump_start (self->di, vpid);
      break;
    case KIND_BIN_INFO:
    case KIND_LOAD:{
      guint64 memsz = payload_u (p, n, "memsz", &ok);
      gboolean pic_ok = TRUE;
      gboolean pic = kind == KIND_LOAD ||
          payload_u (p, n, "is_pic", &pic_ok) == 1;
      gchar *path = payload_s (p, n, "path");

      if (ok && pic_ok)
        gst_ctf_debug_info_add_binary (self->di, vpid, baddr, memsz, path,
            pic);
      g_free (path);
      break;
    }
    case KIND_BUILD_ID:{
      gsize len = 0;
      guint8 *id = payload_bytes (p, n, "build_id", &len);

      if (ok && id)
        gst_ctf_debug_info_set_build_id (self->di, vpid, baddr, id, len);
      g_free (id);
      break;
    }
    case KIND_DEBUG_LINK:{
      guint64 crc = payload_u (p, n, "crc", &ok);
      gchar *file = payload_s (p, n, "filename");

      if (ok && file)
        gst_ctf_debug_info_set_debug_link (self->di, vpid, baddr, file,
            (guint32) crc);
      g_free (file);
      break;
    }
    case KIND_UNLOAD:
      if (ok)
        gst_ctf_debug_info_remove_binary (self->di, vpid, baddr);
      break;
    case KIND_NONE:
      break;
  }
}

static void
post_warnings (GstCtfDebugInfoFilter * self)
{
  gchar *w;

  while ((w = gst_ctf_debug_info_pop_warning (self->di)) != NULL) {
    GST_ELEMENT_WARNING (self, RESOURCE, READ, ("%s", w), (NULL));
    g_free (w);
  }
}

/* Copies the fields of @in a packet written again keeps. */
static void
copy_fields (GstBuffer * out, GstBuffer * in)
{
  GstCtfPacketMeta *meta;

  gst_buffer_copy_into (out, in, GST_BUFFER_COPY_FLAGS |
      GST_BUFFER_COPY_TIMESTAMPS | GST_BUFFER_COPY_META, 0, -1);
  if ((meta = gst_buffer_get_ctf_packet_meta (out)) != NULL)
    meta->file_path = NULL;
  GST_BUFFER_OFFSET_END (out) = GST_BUFFER_OFFSET_NONE;
}

static gboolean
finish_packet (GstCtfDebugInfoFilter * self, Pending * pe, GError ** error)
{
  GBytes *bytes;

  bytes = gst_ctf_packet_writer_finish_packet_bytes (pe->stream->writer,
      error);
  pe->stream->current = NULL;
  if (bytes == NULL)
    return FALSE;
  pe->out = gst_buffer_new_wrapped_bytes (bytes);
  g_bytes_unref (bytes);
  copy_fields (pe->out, pe->in);
  pe->done = TRUE;
  g_hash_table_remove (self->by_data, pe->data);
  if (self->last_pe == pe) {
    self->last_pe = NULL;
    self->last_data = NULL;
  }
  return TRUE;
}

static gboolean
begin_packet (GstCtfDebugInfoFilter * self, Pending * pe, GError ** error)
{
  Stream *s = pe->stream;
  GstCtfPacketWriterParams p = { 0, };
  const GstCtfFieldValue *ctx;
  guint n_ctx = 0;

  if (s->current && !finish_packet (self, s->current, error))
    return FALSE;
  p.stream_instance_id = pe->info.stream_instance_id;
  p.packet_seq_num = pe->info.packet_seq_num;
  p.events_discarded = pe->info.events_discarded;
  p.has_timestamp_begin = pe->info.has_timestamp_begin;
  p.timestamp_begin = pe->info.timestamp_begin;
  p.has_timestamp_end = pe->info.has_timestamp_end &&
      (!pe->info.has_timestamp_begin ||
      pe->info.timestamp_end >= pe->info.timestamp_begin);
  p.timestamp_end = pe->info.timestamp_end;
  p.clock_value = gst_ctf_packet_writer_get_clock_value (s->writer);
  ctx = gst_ctf_event_merge_get_values (self->merge,
      GST_CTF_SCOPE_PACKET_CONTEXT, &n_ctx, error);
  if (error && *error)
    return FALSE;
  if (!gst_ctf_packet_writer_begin_packet (s->writer, &p, ctx, n_ctx, error))
    return FALSE;
  s->current = pe;
  return TRUE;
}

/* Where the event common context of the event at @it ends (bit offset in
 * its packet), from its values: 0 when a member's size is not known from
 * its value alone (a compound member, a string of another encoding). */
static guint64
common_context_end (GstCtfEventIter * it, const GstCtfFieldValue * cc,
    guint n_cc)
{
  guint64 pos = gst_ctf_event_iter_get_header_end (it);
  guint i;

#define ALIGN_UP(p, a) (((p) + (a) - 1) / (a) * (a))
  if (G_UNLIKELY (n_cc == 0 || cc[0].fc == NULL))
    return 0;
  pos = ALIGN_UP (pos, MAX (cc[0].fc->alignment, 1));
  for (i = 1; i < n_cc && i < cc[0].end; i = cc[i].end) {
    const GstCtfFieldClass *fc = cc[i].fc;

    if (G_UNLIKELY (fc == NULL || cc[i].end != i + 1))
      return 0;
    pos = ALIGN_UP (pos, MAX (fc->alignment, 1));
    switch (fc->type) {
      case GST_CTF_FIELD_CLASS_INTEGER:
      case GST_CTF_FIELD_CLASS_ENUM:
        if (fc->form != GST_CTF_FIELD_FORM_PLAIN &&
            fc->form != GST_CTF_FIELD_FORM_BOOLEAN)
          return 0;
        pos += fc->integer.size;
        break;
      case GST_CTF_FIELD_CLASS_FLOAT:
        pos += fc->floating.exp_dig + fc->floating.mant_dig;
        break;
      case GST_CTF_FIELD_CLASS_STRING:
        if (fc->form != GST_CTF_FIELD_FORM_PLAIN ||
            (fc->string.encoding != GST_CTF_ENCODING_UTF8 &&
                fc->string.encoding != GST_CTF_ENCODING_ASCII &&
                fc->string.encoding != GST_CTF_ENCODING_NONE))
          return 0;
        pos += ((guint64) cc[i].v.s.len + 1) * 8;
        break;
      default:
        return 0;
    }
  }
#undef ALIGN_UP
  return pos;
}

/* One event of a stream class that gains the field. */
static gboolean
handle_event (GstCtfDebugInfoFilter * self, GstCtfEventIter * it,
    GError ** error)
{
  gsize size = 0;
  const guint8 *data = gst_ctf_event_merge_get_packet_data (self->merge,
      &size);
  Pending *pe;
  const GstCtfEventClass *ec = gst_ctf_event_iter_get_event_class (it);
  ClassInfo *ci;
  const GstCtfFieldValue *cc, *sp, *pl;
  GstCtfFieldValue *nv;
  guint n_cc, n_sp, n_pl, i_vpid, i_ip, n;
  const gchar *str[3];
  guint64 end, split;
  gint64 vpid;

  if (G_LIKELY (data == self->last_data)) {
    pe = self->last_pe;
  } else {
    pe = g_hash_table_lookup (self->by_data, data);
    self->last_data = data;
    self->last_pe = pe;
  }
  if (G_UNLIKELY (pe == NULL || pe->stream == NULL))
    return TRUE;
  if (G_LIKELY (ec == self->last_ec)) {
    ci = self->last_ci;
  } else {
    ci = g_hash_table_lookup (self->classes, ec);
    self->last_ec = ec;
    self->last_ci = ci;
  }
  if (G_UNLIKELY (ci == NULL || ci->out == NULL)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_UNKNOWN_EVENT_CLASS,
        "Event class %" G_GUINT64_FORMAT " (%s) is not in the output "
        "metadata", ec->id, ec->name);
    return FALSE;
  }
  if (pe->stream->current != pe && !begin_packet (self, pe, error))
    return FALSE;
  cc = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_COMMON_CONTEXT,
      &n_cc);
  sp = gst_ctf_event_iter_get_values (it,
      GST_CTF_SCOPE_EVENT_SPECIFIC_CONTEXT, &n_sp);
  pl = gst_ctf_event_iter_get_values (it, GST_CTF_SCOPE_EVENT_PAYLOAD,
      &n_pl);
  i_vpid = ci->i_vpid;
  i_ip = ci->i_ip;
  if (G_UNLIKELY (i_vpid >= n_cc || i_ip >= n_cc ||
          cc[i_vpid].fc != ci->vpid_fc || cc[i_ip].fc != ci->ip_fc ||
          i_vpid == 0 || i_ip == 0)) {
    i_vpid = ci->i_vpid = member (cc, n_cc, "vpid");
    i_ip = ci->i_ip = member (cc, n_cc, "ip");
    ci->vpid_fc = i_vpid ? cc[i_vpid].fc : NULL;
    ci->ip_fc = i_ip ? cc[i_ip].fc : NULL;
  }
  if (G_UNLIKELY (i_vpid == 0 || i_ip == 0 || n_cc == 0)) {
    g_set_error (error, GST_CTF_ERROR, GST_CTF_ERROR_PACKET,
        "Event %s has no vpid or ip value", ec->name);
    return FALSE;
  }
  vpid = cc[i_vpid].v.i;
  if (G_UNLIKELY (ci->kind != KIND_NONE)) {
    update_state (self, ci->kind, vpid, pl, n_pl);
    post_warnings (self);
  }
  gst_ctf_debug_info_lookup (self->di, vpid, cc[i_ip].v.u, &str[0], &str[1],
      &str[2]);
  post_warnings (self);

  /* the body copied as bytes, the structure's strings spliced in after
   * the common context, when the layout allows */
  split = common_context_end (it, cc, n_cc);
  if (G_LIKELY (split != 0)) {
    gboolean copied = FALSE;
    gsize l0 = strlen (str[0]) + 1, l1 = strlen (str[1]) + 1,
        l2 = strlen (str[2]) + 1;

    gst_ctf_event_iter_get_event_offset (it, &end);
    g_byte_array_set_size (self->insert, l0 + l1 + l2);
    memcpy (self->insert->data, str[0], l0);
    memcpy (self->insert->data + l0, str[1], l1);
    memcpy (self->insert->data + l0 + l1, str[2], l2);
    if (!gst_ctf_packet_writer_append_event_spliced (pe->stream->writer,
            ci->out, gst_ctf_event_iter_get_clock_value (it), data, size,
            gst_ctf_event_iter_get_header_end (it), split, end,
            self->insert->data, self->insert->len, &copied, error))
      return FALSE;
    if (copied)
      goto appended;
  }

  /* the common context with the structure appended, encoded again */
  n = n_cc;
  g_array_set_size (self->ctx, n + 4);
  nv = (GstCtfFieldValue *) self->ctx->data;
  memcpy (nv, cc, n * sizeof (GstCtfFieldValue));
  nv[0].end = n + 4;
  nv[0].v.u++;
  nv[n].fc = self->di_fc;
  nv[n].name = self->di_name;
  nv[n].end = n + 4;
  nv[n].v.u = 3;
  for (guint k = 0; k < 3; k++) {
    GstCtfFieldValue *sv = &nv[n + 1 + k];

    sv->fc = self->di_fc->members[k].fc;
    sv->name = self->di_fc->members[k].name;
    sv->end = n + 2 + k;
    sv->v.s.ptr = str[k];
    sv->v.s.len = (guint32) strlen (str[k]);
  }
  if (!gst_ctf_packet_writer_append_event (pe->stream->writer, ci->out,
          gst_ctf_event_iter_get_clock_value (it), nv, n + 4, sp, n_sp, pl,
          n_pl, error))
    return FALSE;

appended:
  gst_ctf_event_iter_get_event_offset (it, &end);
  if (end >= pe->info.content_size)
    return finish_packet (self, pe, error);
  return TRUE;
}

/* Gives the merge's events their fields, as far as it can go. */
static gboolean
drain (GstCtfDebugInfoFilter * self, GError ** error)
{
  GstCtfMergeItem item;
  GstCtfMergeItemType t;

  while ((t = gst_ctf_event_merge_next (self->merge, &item, error)) !=
      GST_CTF_MERGE_NONE) {
    if (t == GST_CTF_MERGE_ERROR)
      return FALSE;
    if (t == GST_CTF_MERGE_EVENT && !handle_event (self, item.iter, error))
      return FALSE;
  }
  return TRUE;
}

static void
mapped_free (gpointer p)
{
  Mapped *m = p;

  gst_buffer_unmap (m->buffer, &m->map);
  gst_buffer_unref (m->buffer);
  g_free (m);
}

static gchar *
stream_key (const GstCtfPacketInfo * info, const GstCtfPacketMeta * meta)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
      "/%d/%s", info->stream_class_id, info->stream_instance_id,
      info->has_stream_instance_id, meta && meta->stream_name ?
      meta->stream_name : "");
}

static GstFlowReturn
receive (GstCtfDebugInfoFilter * self, GstBuffer * buf)
{
  GstCtfPacketMeta *meta = gst_buffer_get_ctf_packet_meta (buf);
  Pending *pe = g_new0 (Pending, 1);
  Mapped *m;
  GBytes *bytes;
  GError *err = NULL;
  gint64 rank, stream_id, offset = -1;
  gchar *key;
  Stream *s;

  pe->in = gst_buffer_ref (buf);
  g_queue_push_tail (&self->pending, pe);
  m = g_new0 (Mapped, 1);
  if (!gst_buffer_map (buf, &m->map, GST_MAP_READ)) {
    g_free (m);
    GST_ELEMENT_ERROR (self, RESOURCE, READ, (NULL), ("Cannot map buffer."));
    return GST_FLOW_ERROR;
  }
  m->buffer = gst_buffer_ref (buf);
  bytes = g_bytes_new_with_free_func (m->map.data, m->map.size, mapped_free,
      m);
  if (!gst_ctf_packet_read_info (self->tc, m->map.data, m->map.size,
          &pe->info, &err)) {
    g_bytes_unref (bytes);
    gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err,
        "Cannot read packet header");
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  if (pe->info.stream_class == NULL || GPOINTER_TO_INT (g_hash_table_lookup
          (self->fits, &pe->info.stream_class_id)) != 1 ||
      pe->info.content_size <= pe->info.events_offset) {
    /* nothing to add: the packet goes out as it is */
    g_bytes_unref (bytes);
    pe->out = gst_buffer_ref (buf);
    pe->done = TRUE;
    return GST_FLOW_OK;
  }
  key = stream_key (&pe->info, meta);
  s = g_hash_table_lookup (self->streams, key);
  if (s == NULL) {
    s = g_new0 (Stream, 1);
    s->writer = gst_ctf_packet_writer_new (self->out_tc,
        pe->info.stream_class_id, &err);
    if (s->writer == NULL) {
      g_free (s);
      g_free (key);
      g_bytes_unref (bytes);
      gst_ctf_element_post_gerror (GST_ELEMENT (self), err,
          "Cannot write packets with the debug info field");
      g_clear_error (&err);
      return GST_FLOW_ERROR;
    }
    g_hash_table_insert (self->streams, key, s);
  } else {
    g_free (key);
  }
  pe->stream = s;
  pe->data = m->map.data;
  g_hash_table_insert (self->by_data, (gpointer) pe->data, pe);
  if (meta) {
    rank = meta->stream_index;
    stream_id = meta->stream_id != G_MAXUINT64 ? (gint64) meta->stream_id :
        meta->stream_instance_id != G_MAXUINT64 ?
        (gint64) meta->stream_instance_id : rank;
    offset = meta->offset;
  } else {
    stream_id = rank = pe->info.has_stream_instance_id ?
        (gint64) pe->info.stream_instance_id : 0;
  }
  if (!gst_ctf_event_merge_push_full (self->merge, bytes,
          pe->info.stream_class_id, rank, stream_id, meta ?
          meta->stream_name : NULL, offset, &err)) {
    g_bytes_unref (bytes);
    gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err,
        "Cannot read packet");
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  g_bytes_unref (bytes);
  if (!drain (self, &err)) {
    gst_ctf_element_post_packet_error (GST_ELEMENT (self), buf, err,
        "Cannot add the debug info to the packet's events");
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* The merge has given back every event: every packet is done. */
static GstFlowReturn
finish (GstCtfDebugInfoFilter * self)
{
  GError *err = NULL;
  GList *l;

  if (self->merge == NULL)
    return GST_FLOW_OK;
  gst_ctf_event_merge_finish (self->merge);
  if (!drain (self, &err)) {
    gst_ctf_element_post_gerror (GST_ELEMENT (self), err,
        "Cannot add the debug info to the last packets' events");
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  for (l = self->pending.head; l; l = l->next) {
    Pending *pe = l->data;

    if (!pe->done && pe->stream && pe->stream->current == pe &&
        !finish_packet (self, pe, &err)) {
      gst_ctf_element_post_gerror (GST_ELEMENT (self), err,
          "Cannot write the packet again");
      g_clear_error (&err);
      return GST_FLOW_ERROR;
    }
    if (!pe->done) {
      /* a packet whose events the merge did not give back (a stream
       * dropped after an error): as it is */
      pe->out = gst_buffer_ref (pe->in);
      pe->done = TRUE;
    }
  }
  return GST_FLOW_OK;
}

static GstBuffer *
pop_done (GstCtfDebugInfoFilter * self)
{
  Pending *pe = g_queue_peek_head (&self->pending);
  GstBuffer *out;

  if (pe == NULL || !pe->done)
    return NULL;
  g_queue_pop_head (&self->pending);
  out = pe->out;
  pe->out = NULL;
  pending_free (pe);
  return out;
}

/* Gives every held packet its fields and pushes them all. */
static void
push_all (GstCtfDebugInfoFilter * self)
{
  GstBuffer *out;
  GstFlowReturn ret = finish (self);

  while (ret == GST_FLOW_OK && (out = pop_done (self)) != NULL)
    ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
  if (ret != GST_FLOW_OK)
    GST_DEBUG_OBJECT (self, "pushing the held packets: %s",
        gst_flow_get_name (ret));
}

static gboolean
gst_ctf_debug_info_filter_sink_event (GstBaseTransform * trans,
    GstEvent * event)
{
  GstCtfDebugInfoFilter *self = GST_CTF_DEBUG_INFO_FILTER (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_CAPS:{
      GstCaps *caps;
      const gchar *md;

      /* new metadata (a live session's grown trace class): the packets
       * held go out first, under the caps they came with */
      gst_event_parse_caps (event, &caps);
      md = gst_ctf_caps_get_metadata (caps);
      if (self->merge && self->tsdl && md && strcmp (md, self->tsdl) != 0)
        push_all (self);
      break;
    }
    case GST_EVENT_EOS:
      push_all (self);
      break;
    case GST_EVENT_GAP:
      if (self->merge) {
        GstClockTime ts, dur;

        /* a live source: no packet before the GAP's end will come
         * (PTS = timestamp_begin in ns from the clock origin), so the
         * events before it get their fields and their packets go out
         * before the GAP */
        gst_event_parse_gap (event, &ts, &dur);
        if (GST_CLOCK_TIME_IS_VALID (ts) && ts <= G_MAXINT64) {
          GError *err = NULL;
          GstBuffer *out;
          GstFlowReturn ret = GST_FLOW_OK;

          if (GST_CLOCK_TIME_IS_VALID (dur) && dur <= G_MAXINT64 - ts)
            ts += dur;
          gst_ctf_event_merge_advance (self->merge, (gint64) ts);
          if (!drain (self, &err)) {
            gst_ctf_element_post_gerror (GST_ELEMENT (self), err,
                "Cannot add the debug info to the packets' events");
            g_clear_error (&err);
          }
          while (ret == GST_FLOW_OK && (out = pop_done (self)) != NULL)
            ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
        }
      }
      break;
    case GST_EVENT_FLUSH_STOP:
      if (self->tc) {
        /* a new run of packets: held ones go */
        drop_packets (self);
        self->merge = gst_ctf_event_merge_new (self->tc);
        gst_ctf_event_merge_set_emulate_recycling (self->merge, FALSE);
        self->by_data = g_hash_table_new (NULL, NULL);
        self->streams = g_hash_table_new_full (g_str_hash, g_str_equal,
            g_free, stream_free);
      }
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static GstFlowReturn
gst_ctf_debug_info_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCtfDebugInfoFilter *self = GST_CTF_DEBUG_INFO_FILTER (trans);
  GstBuffer *buf = trans->queued_buf;
  GstFlowReturn ret = GST_FLOW_OK;

  *outbuf = NULL;
  if (buf) {
    trans->queued_buf = NULL;
    if (self->merge == NULL) {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
          ("Received a packet before caps with CTF metadata."));
      gst_buffer_unref (buf);
      return GST_FLOW_NOT_NEGOTIATED;
    }
    ret = receive (self, buf);
    gst_buffer_unref (buf);
    if (ret != GST_FLOW_OK)
      return ret;
  }
  *outbuf = pop_done (self);
  return ret;
}
