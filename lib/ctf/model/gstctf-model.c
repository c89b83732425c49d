/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace model: constructors, copies and lookups (CTF 1.8 §4, §5). */
#include "gstctf-model.h"
#include "gstctf-model-private.h"

#include <string.h>

G_DEFINE_BOXED_TYPE (GstCtfTraceClass, gst_ctf_trace_class,
    gst_ctf_trace_class_ref, gst_ctf_trace_class_unref)

GstCtfFieldClass *
gst_ctf_field_class_new (GstCtfFieldClassType type)
{
  GstCtfFieldClass *fc = g_new0 (GstCtfFieldClass, 1);

  fc->type = type;
  fc->alignment = 1;
  fc->value_slot = -1;
  if (type == GST_CTF_FIELD_CLASS_INTEGER || type == GST_CTF_FIELD_CLASS_ENUM)
    fc->integer.base = 10;
  if (type == GST_CTF_FIELD_CLASS_STRING)
    fc->alignment = 8;
  if (type == GST_CTF_FIELD_CLASS_STRING)
    fc->string.encoding = GST_CTF_ENCODING_UTF8;
  return fc;
}

GstCtfFieldClass *
gst_ctf_field_class_new_integer (guint size, gboolean is_signed,
    GstCtfByteOrder byte_order, guint base)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_INTEGER);

  fc->alignment = 8;
  fc->integer.size = size;
  fc->integer.is_signed = is_signed;
  fc->integer.byte_order = byte_order;
  fc->integer.base = base;
  return fc;
}

GstCtfFieldClass *
gst_ctf_field_class_new_struct (void)
{
  GstCtfFieldClass *fc = gst_ctf_field_class_new (GST_CTF_FIELD_CLASS_STRUCT);

  fc->alignment = 8;
  return fc;
}

void
gst_ctf_trace_class_add_env_string (GstCtfTraceClass * tc, const gchar * name,
    const gchar * value)
{
  GstCtfEnvEntry *e = g_new0 (GstCtfEnvEntry, 1);

  e->name = g_strdup (name);
  e->is_string = TRUE;
  e->str = g_strdup (value);
  g_ptr_array_add (tc->env, e);
}

void
gst_ctf_trace_class_add_env_integer (GstCtfTraceClass * tc,
    const gchar * name, gint64 value)
{
  GstCtfEnvEntry *e = g_new0 (GstCtfEnvEntry, 1);

  e->name = g_strdup (name);
  e->integer = value;
  g_ptr_array_add (tc->env, e);
}

/* Deep copy: a type alias instantiated at several places must give
 * distinct nodes (each may get its own value slot).  Resolution state
 * (ref_target, value_slot, meaning) is not copied: it is set on the final
 * tree. */
GstCtfFieldClass *
gst_ctf_field_class_copy (const GstCtfFieldClass * fc)
{
  GstCtfFieldClass *c;
  guint i;

  if (fc == NULL)
    return NULL;
  c = g_new (GstCtfFieldClass, 1);
  *c = *fc;
  c->integer.map_clock_name = g_strdup (fc->integer.map_clock_name);
  c->ref_path = g_strdup (fc->ref_path);
  c->ref_target = NULL;
  c->value_slot = -1;
  c->meaning = GST_CTF_MEANING_NONE;
  if (fc->enumeration.n_mappings > 0) {
    c->enumeration.mappings =
        g_new (GstCtfEnumMapping, fc->enumeration.n_mappings);
    for (i = 0; i < fc->enumeration.n_mappings; i++) {
      c->enumeration.mappings[i] = fc->enumeration.mappings[i];
      c->enumeration.mappings[i].label =
          g_strdup (fc->enumeration.mappings[i].label);
    }
  }
  if (fc->n_members > 0) {
    c->members = g_new (GstCtfNamedFieldClass, fc->n_members);
    for (i = 0; i < fc->n_members; i++) {
      c->members[i].name = g_strdup (fc->members[i].name);
      c->members[i].fc = gst_ctf_field_class_copy (fc->members[i].fc);
    }
  }
  c->element = gst_ctf_field_class_copy (fc->element);
  return c;
}

void
gst_ctf_field_class_free (GstCtfFieldClass * fc)
{
  guint i;

  if (fc == NULL)
    return;
  g_free (fc->integer.map_clock_name);
  g_free (fc->ref_path);
  for (i = 0; i < fc->enumeration.n_mappings; i++)
    g_free (fc->enumeration.mappings[i].label);
  g_free (fc->enumeration.mappings);
  for (i = 0; i < fc->n_members; i++) {
    g_free (fc->members[i].name);
    gst_ctf_field_class_free (fc->members[i].fc);
  }
  g_free (fc->members);
  gst_ctf_field_class_free (fc->element);
  g_free (fc);
}

void
gst_ctf_field_class_append_member (GstCtfFieldClass * fc, const gchar * name,
    GstCtfFieldClass * member)
{
  fc->members = g_renew (GstCtfNamedFieldClass, fc->members,
      fc->n_members + 1);
  fc->members[fc->n_members].name = g_strdup (name);
  fc->members[fc->n_members].fc = member;
  fc->n_members++;
}

const GstCtfFieldClass *
gst_ctf_field_class_find_member (const GstCtfFieldClass * fc,
    const gchar * name, guint * index)
{
  guint i;

  if (fc == NULL)
    return NULL;
  for (i = 0; i < fc->n_members; i++) {
    if (strcmp (fc->members[i].name, name) == 0) {
      if (index)
        *index = i;
      return fc->members[i].fc;
    }
  }
  return NULL;
}

GstCtfEventClass *
gst_ctf_event_class_new (void)
{
  GstCtfEventClass *ec = g_new0 (GstCtfEventClass, 1);

  ec->loglevel = -1;
  return ec;
}

void
gst_ctf_event_class_free (GstCtfEventClass * ec)
{
  if (ec == NULL)
    return;
  g_free (ec->name);
  g_free (ec->model_emf_uri);
  gst_ctf_field_class_free (ec->context);
  gst_ctf_field_class_free (ec->payload);
  g_free (ec);
}

GstCtfStreamClass *
gst_ctf_stream_class_new (guint64 id)
{
  GstCtfStreamClass *sc = g_new0 (GstCtfStreamClass, 1);

  sc->id = id;
  sc->event_classes =
      g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_event_class_free);
  sc->event_class_by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  return sc;
}

void
gst_ctf_stream_class_free (GstCtfStreamClass * sc)
{
  if (sc == NULL)
    return;
  gst_ctf_field_class_free (sc->packet_context);
  gst_ctf_field_class_free (sc->event_header);
  gst_ctf_field_class_free (sc->event_common_context);
  g_hash_table_unref (sc->event_class_by_id);
  g_ptr_array_unref (sc->event_classes);
  g_free (sc);
}

const GstCtfEventClass *
gst_ctf_stream_class_find_event_class (const GstCtfStreamClass * sc,
    guint64 id)
{
  gint64 key = (gint64) id;

  return g_hash_table_lookup (sc->event_class_by_id, &key);
}

GstCtfClockClass *
gst_ctf_clock_class_new (void)
{
  GstCtfClockClass *cc = g_new0 (GstCtfClockClass, 1);

  cc->freq = G_GUINT64_CONSTANT (1000000000);
  return cc;
}

void
gst_ctf_clock_class_free (GstCtfClockClass * cc)
{
  if (cc == NULL)
    return;
  g_free (cc->name);
  g_free (cc->description);
  g_free (cc);
}

static void
env_entry_free (GstCtfEnvEntry * e)
{
  g_free (e->name);
  g_free (e->str);
  g_free (e);
}

GstCtfTraceClass *
gst_ctf_trace_class_new (void)
{
  GstCtfTraceClass *tc = g_new0 (GstCtfTraceClass, 1);

  tc->ref_count = 1;
  tc->env = g_ptr_array_new_with_free_func ((GDestroyNotify) env_entry_free);
  tc->clock_classes =
      g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_clock_class_free);
  tc->stream_classes =
      g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_ctf_stream_class_free);
  return tc;
}

/* gst_ctf_metadata_parse_shared()'s tables (gstctf-model-private.h) */
static GMutex shared_lock;
static GHashTable *shared_tables[2];    /* key -> GstCtfTraceClass */

static guint
shared_key_hash (gconstpointer k)
{
  guint h;

  memcpy (&h, k, sizeof (h));
  return h;
}

static gboolean
shared_key_equal (gconstpointer a, gconstpointer b)
{
  guint64 len;

  if (memcmp (a, b, GST_CTF_SHARED_KEY_HEAD) != 0)
    return FALSE;
  memcpy (&len, (const guint8 *) a + 8, sizeof (len));
  return memcmp ((const guint8 *) a + GST_CTF_SHARED_KEY_HEAD,
      (const guint8 *) b + GST_CTF_SHARED_KEY_HEAD, len) == 0;
}

GstCtfTraceClass *
_gst_ctf_trace_class_shared_lookup (const guint8 * key, gboolean skeleton)
{
  GHashTable *table;
  GstCtfTraceClass *tc;

  g_mutex_lock (&shared_lock);
  table = shared_tables[skeleton ? 1 : 0];
  tc = table ? g_hash_table_lookup (table, key) : NULL;
  /* a reference, unless the class is being freed (count 0) */
  while (tc) {
    gint n = g_atomic_int_get (&tc->ref_count);

    if (n <= 0)
      tc = NULL;
    else if (g_atomic_int_compare_and_exchange (&tc->ref_count, n, n + 1))
      break;
  }
  g_mutex_unlock (&shared_lock);
  return tc;
}

void
_gst_ctf_trace_class_shared_insert (GstCtfTraceClass * tc, guint8 * key,
    gboolean skeleton)
{
  GHashTable **table = &shared_tables[skeleton ? 1 : 0];
  guint8 **tc_key = skeleton ? &tc->skeleton_key : &tc->shared_key;

  g_mutex_lock (&shared_lock);
  if (*table == NULL)
    *table = g_hash_table_new (shared_key_hash, shared_key_equal);
  /* (another thread may have put the same text in meanwhile: the first
   * stays) */
  if (*tc_key == NULL && !g_hash_table_contains (*table, key)) {
    *tc_key = key;
    g_hash_table_insert (*table, key, tc);
    key = NULL;
  }
  g_mutex_unlock (&shared_lock);
  g_free (key);
}

static void
shared_forget (GstCtfTraceClass * tc, guint8 ** key, GHashTable ** table)
{
  g_mutex_lock (&shared_lock);
  if (*table && g_hash_table_lookup (*table, *key) == tc)
    g_hash_table_remove (*table, *key);
  if (*table && g_hash_table_size (*table) == 0)
    g_clear_pointer (table, g_hash_table_unref);
  g_mutex_unlock (&shared_lock);
  g_clear_pointer (key, g_free);
}

GstCtfTraceClass *
_gst_ctf_trace_class_new_derived (GstCtfTraceClass * base,
    GstCtfTraceClass * own)
{
  GstCtfTraceClass *tc = g_new0 (GstCtfTraceClass, 1);
  GPtrArray *env;

  if (base->base)
    base = base->base;
  tc->ref_count = 1;
  tc->base = gst_ctf_trace_class_ref (base);
  tc->major = base->major;
  tc->minor = base->minor;
  tc->byte_order = base->byte_order;
  tc->packet_header = base->packet_header;
  tc->clock_classes = g_ptr_array_ref (base->clock_classes);
  tc->stream_classes = g_ptr_array_ref (base->stream_classes);
  tc->n_value_slots = base->n_value_slots;
  tc->uid = base->uid;
  tc->from_tsdl = base->from_tsdl && own->from_tsdl;
  if (base->sc_pos_by_id)
    tc->sc_pos_by_id = g_hash_table_ref (base->sc_pos_by_id);
  memcpy (tc->uuid, own->uuid, sizeof (tc->uuid));
  tc->has_uuid = own->has_uuid;
  /* @own keeps an empty env of its own */
  env = own->env;
  own->env = g_ptr_array_new_with_free_func ((GDestroyNotify) env_entry_free);
  tc->env = env;
  return tc;
}

GstCtfTraceClass *
gst_ctf_trace_class_ref (GstCtfTraceClass * tc)
{
  g_atomic_int_inc (&tc->ref_count);
  return tc;
}

void
gst_ctf_trace_class_unref (GstCtfTraceClass * tc)
{
  if (!g_atomic_int_dec_and_test (&tc->ref_count))
    return;
  if (tc->shared_key)
    shared_forget (tc, &tc->shared_key, &shared_tables[0]);
  if (tc->skeleton_key)
    shared_forget (tc, &tc->skeleton_key, &shared_tables[1]);
  if (tc->plans[0])
    g_hash_table_unref (tc->plans[0]);
  if (tc->plans[1])
    g_hash_table_unref (tc->plans[1]);
  if (tc->base) {
    /* the packet header and uid are the base's */
    gst_ctf_trace_class_unref (tc->base);
  } else {
    gst_ctf_field_class_free (tc->packet_header);
    g_free (tc->uid);
  }
  g_ptr_array_unref (tc->env);
  g_ptr_array_unref (tc->clock_classes);
  g_ptr_array_unref (tc->stream_classes);
  if (tc->sc_pos_by_id)
    g_hash_table_unref (tc->sc_pos_by_id);
  g_free (tc);
}

GstCtfStreamClass *
gst_ctf_trace_class_find_stream_class (const GstCtfTraceClass * tc,
    guint64 id)
{
  guint i;

  if (tc->sc_pos_by_id != NULL) {
    gpointer pos;

    if (g_hash_table_lookup_extended (tc->sc_pos_by_id, &id, NULL, &pos) &&
        GPOINTER_TO_UINT (pos) < tc->stream_classes->len) {
      GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes,
          GPOINTER_TO_UINT (pos));

      if (sc->id == id)
        return sc;
    }
  }
  for (i = 0; i < tc->stream_classes->len; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);
    if (sc->id == id)
      return sc;
  }
  return NULL;
}

void
_gst_ctf_trace_class_index_stream_classes (GstCtfTraceClass * tc)
{
  guint i;

  if (tc->sc_pos_by_id == NULL)
    tc->sc_pos_by_id = g_hash_table_new_full (g_int64_hash, g_int64_equal,
        g_free, NULL);
  g_hash_table_remove_all (tc->sc_pos_by_id);
  for (i = 0; i < tc->stream_classes->len; i++) {
    GstCtfStreamClass *sc = g_ptr_array_index (tc->stream_classes, i);

    /* the first class with an id is the one a scan finds */
    if (!g_hash_table_contains (tc->sc_pos_by_id, &sc->id))
      g_hash_table_insert (tc->sc_pos_by_id, g_memdup2 (&sc->id,
              sizeof (sc->id)), GUINT_TO_POINTER (i));
  }
}

const GstCtfEnvEntry *
gst_ctf_trace_class_find_env (const GstCtfTraceClass * tc, const gchar * name)
{
  guint i;

  for (i = 0; i < tc->env->len; i++) {
    const GstCtfEnvEntry *e = g_ptr_array_index (tc->env, i);
    if (strcmp (e->name, name) == 0)
      return e;
  }
  return NULL;
}
