/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests and fuzz targets: structural comparison of two trace classes,
 * resolution state included (trace-class-diff.h).
 */
#include "trace-class-diff.h"

#include <stdarg.h>
#include <string.h>

#define MAX_DEPTH 512

typedef struct {
  const GstCtfTraceClass *a, *b;
  GString *path;
  gchar *diff;
} Cmp;

G_GNUC_PRINTF (2, 3)
     static gboolean differ (Cmp * c, const gchar * fmt, ...)
{
  va_list ap;
  gchar *what;

  va_start (ap, fmt);
  what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  c->diff = g_strdup_printf ("%s: %s", c->path->len ? c->path->str :
      "trace", what);
  g_free (what);
  return FALSE;
}

/* A clock's position in its trace class's clocks (-1: none, -2: not one
 * of them). */
static gint
clock_index (const GstCtfTraceClass * tc, const GstCtfClockClass * cc)
{
  guint i;

  if (cc == NULL)
    return -1;
  for (i = 0; i < tc->clock_classes->len; i++)
    if (g_ptr_array_index (tc->clock_classes, i) == cc)
      return (gint) i;
  return -2;
}

static gboolean
fc_same (Cmp * c, const GstCtfFieldClass * x, const GstCtfFieldClass * y,
    guint depth)
{
  gsize plen = c->path->len;
  guint i;

  if (x == NULL || y == NULL)
    return x == y ? TRUE : differ (c, "one field class is absent");
  if (depth > MAX_DEPTH)
    return differ (c, "too deep");
  if (x->type != y->type || x->form != y->form)
    return differ (c, "type %d/%d != %d/%d", x->type, x->form, y->type,
        y->form);
  if (x->alignment != y->alignment)
    return differ (c, "alignment %u != %u", x->alignment, y->alignment);
  if (x->meaning != y->meaning)
    return differ (c, "meaning %d != %d", x->meaning, y->meaning);
  if (x->value_slot != y->value_slot)
    return differ (c, "value slot %d != %d", x->value_slot, y->value_slot);
  if (x->type == GST_CTF_FIELD_CLASS_INTEGER
      || x->type == GST_CTF_FIELD_CLASS_ENUM) {
    if (x->integer.size != y->integer.size
        || x->integer.is_signed != y->integer.is_signed
        || x->integer.byte_order != y->integer.byte_order
        || x->integer.base != y->integer.base
        || x->integer.encoding != y->integer.encoding)
      return differ (c, "integer size/signed/byte order/base/encoding "
          "%u/%d/%d/%u/%d != %u/%d/%d/%u/%d", x->integer.size,
          x->integer.is_signed, x->integer.byte_order, x->integer.base,
          x->integer.encoding, y->integer.size, y->integer.is_signed,
          y->integer.byte_order, y->integer.base, y->integer.encoding);
    if (clock_index (c->a, x->integer.mapped_clock) !=
        clock_index (c->b, y->integer.mapped_clock)
        || clock_index (c->a, x->integer.mapped_clock) == -2
        || g_strcmp0 (x->integer.map_clock_name, y->integer.map_clock_name))
      return differ (c, "clock mapping %s != %s", x->integer.map_clock_name,
          y->integer.map_clock_name);
  }
  if (x->enumeration.n_mappings != y->enumeration.n_mappings)
    return differ (c, "%u != %u mappings", x->enumeration.n_mappings,
        y->enumeration.n_mappings);
  for (i = 0; i < x->enumeration.n_mappings; i++) {
    const GstCtfEnumMapping *p = &x->enumeration.mappings[i];
    const GstCtfEnumMapping *q = &y->enumeration.mappings[i];

    if (g_strcmp0 (p->label, q->label) || p->lower != q->lower
        || p->upper != q->upper || p->option != q->option)
      return differ (c, "mapping %u (%s) differs", i, p->label);
  }
  if (x->type == GST_CTF_FIELD_CLASS_FLOAT
      && (x->floating.exp_dig != y->floating.exp_dig
          || x->floating.mant_dig != y->floating.mant_dig
          || x->floating.byte_order != y->floating.byte_order))
    return differ (c, "floating point differs");
  if (x->type == GST_CTF_FIELD_CLASS_STRING
      && x->string.encoding != y->string.encoding)
    return differ (c, "string encoding %d != %d", x->string.encoding,
        y->string.encoding);
  if (x->length != y->length)
    return differ (c, "length %" G_GUINT64_FORMAT " != %" G_GUINT64_FORMAT,
        x->length, y->length);
  if (g_strcmp0 (x->ref_path, y->ref_path)
      || (x->ref_target == NULL) != (y->ref_target == NULL)
      || (x->ref_target && x->ref_target->value_slot !=
          y->ref_target->value_slot))
    return differ (c, "reference %s != %s", x->ref_path, y->ref_path);
  if (x->n_members != y->n_members)
    return differ (c, "%u != %u members", x->n_members, y->n_members);
  for (i = 0; i < x->n_members; i++) {
    if (g_strcmp0 (x->members[i].name, y->members[i].name))
      return differ (c, "member %u: %s != %s", i, x->members[i].name,
          y->members[i].name);
    g_string_append_printf (c->path, ".%s", x->members[i].name);
    if (!fc_same (c, x->members[i].fc, y->members[i].fc, depth + 1))
      return FALSE;
    g_string_truncate (c->path, plen);
  }
  if (x->element || y->element) {
    g_string_append (c->path, "[]");
    if (!fc_same (c, x->element, y->element, depth + 1))
      return FALSE;
    g_string_truncate (c->path, plen);
  }
  return TRUE;
}

static gboolean
scope_same (Cmp * c, const gchar * what, const GstCtfFieldClass * x,
    const GstCtfFieldClass * y)
{
  gsize plen = c->path->len;

  g_string_append (c->path, what);
  if (!fc_same (c, x, y, 0))
    return FALSE;
  g_string_truncate (c->path, plen);
  return TRUE;
}

static gboolean
clocks_same (Cmp * c)
{
  guint i;

  if (c->a->clock_classes->len != c->b->clock_classes->len)
    return differ (c, "%u != %u clocks", c->a->clock_classes->len,
        c->b->clock_classes->len);
  for (i = 0; i < c->a->clock_classes->len; i++) {
    const GstCtfClockClass *x = g_ptr_array_index (c->a->clock_classes, i);
    const GstCtfClockClass *y = g_ptr_array_index (c->b->clock_classes, i);

    if (g_strcmp0 (x->name, y->name) || g_strcmp0 (x->description,
            y->description) || x->has_uuid != y->has_uuid
        || (x->has_uuid && memcmp (x->uuid, y->uuid, 16))
        || x->freq != y->freq || x->precision != y->precision
        || x->offset_s != y->offset_s || x->offset != y->offset
        || x->absolute != y->absolute
        || x->origin_is_unix_epoch != y->origin_is_unix_epoch)
      return differ (c, "clock %u (%s) differs", i, x->name);
  }
  return TRUE;
}

static gboolean
env_same (Cmp * c)
{
  guint i;

  if (c->a->env->len != c->b->env->len)
    return differ (c, "%u != %u env entries", c->a->env->len,
        c->b->env->len);
  for (i = 0; i < c->a->env->len; i++) {
    const GstCtfEnvEntry *x = g_ptr_array_index (c->a->env, i);
    const GstCtfEnvEntry *y = g_ptr_array_index (c->b->env, i);

    if (g_strcmp0 (x->name, y->name) || x->is_string != y->is_string
        || (x->is_string ? g_strcmp0 (x->str, y->str) != 0 :
            x->integer != y->integer))
      return differ (c, "env entry %u (%s) differs", i, x->name);
  }
  return TRUE;
}

static gboolean
event_class_same (Cmp * c, const GstCtfStreamClass * sx,
    const GstCtfStreamClass * sy, guint j)
{
  const GstCtfEventClass *x = g_ptr_array_index (sx->event_classes, j);
  const GstCtfEventClass *y = g_ptr_array_index (sy->event_classes, j);

  g_string_printf (c->path, "stream class %" G_GUINT64_FORMAT " event %s",
      sx->id, x->name);
  if (x->id != y->id || g_strcmp0 (x->name, y->name)
      || x->loglevel != y->loglevel
      || g_strcmp0 (x->model_emf_uri, y->model_emf_uri)
      || x->stream_class_id != y->stream_class_id)
    return differ (c, "attributes differ");
  if (gst_ctf_stream_class_find_event_class (sx, x->id) != x
      || gst_ctf_stream_class_find_event_class (sy, y->id) != y)
    return differ (c, "not found by its id");
  return scope_same (c, " context", x->context, y->context)
      && scope_same (c, " fields", x->payload, y->payload);
}

static gboolean
stream_class_same (Cmp * c, guint i)
{
  const GstCtfStreamClass *x = g_ptr_array_index (c->a->stream_classes, i);
  const GstCtfStreamClass *y = g_ptr_array_index (c->b->stream_classes, i);
  guint j;

  g_string_printf (c->path, "stream class %" G_GUINT64_FORMAT, x->id);
  if (x->id != y->id)
    return differ (c, "id != %" G_GUINT64_FORMAT, y->id);
  if (gst_ctf_trace_class_find_stream_class (c->a, x->id) != x
      || gst_ctf_trace_class_find_stream_class (c->b, y->id) != y)
    return differ (c, "not found by its id");
  if (clock_index (c->a, x->default_clock) !=
      clock_index (c->b, y->default_clock)
      || clock_index (c->a, x->default_clock) == -2)
    return differ (c, "default clock differs");
  if (!scope_same (c, " packet.context", x->packet_context,
          y->packet_context)
      || !scope_same (c, " event.header", x->event_header, y->event_header)
      || !scope_same (c, " event.context", x->event_common_context,
          y->event_common_context))
    return FALSE;
  if (x->event_classes->len != y->event_classes->len)
    return differ (c, "%u != %u event classes", x->event_classes->len,
        y->event_classes->len);
  for (j = 0; j < x->event_classes->len; j++)
    if (!event_class_same (c, x, y, j))
      return FALSE;
  return TRUE;
}

gchar *
trace_class_diff (const GstCtfTraceClass * a,
    const GstCtfTraceClass * b)
{
  Cmp c = { a, b, g_string_new (NULL), NULL };
  guint i;
  gboolean same;

  same = (a->major == b->major && a->minor == b->minor
      && g_strcmp0 (a->uid, b->uid) == 0) ? TRUE :
      differ (&c, "version or uid differs");
  if (same && (a->has_uuid != b->has_uuid
          || (a->has_uuid && memcmp (a->uuid, b->uuid, 16))))
    same = differ (&c, "uuid differs");
  if (same && a->byte_order != b->byte_order)
    same = differ (&c, "byte order differs");
  if (same && a->n_value_slots != b->n_value_slots)
    same = differ (&c, "%u != %u value slots", a->n_value_slots,
        b->n_value_slots);
  same = same && env_same (&c) && clocks_same (&c)
      && scope_same (&c, "packet.header", a->packet_header, b->packet_header);
  if (same && a->stream_classes->len != b->stream_classes->len)
    same = differ (&c, "%u != %u stream classes", a->stream_classes->len,
        b->stream_classes->len);
  for (i = 0; same && i < a->stream_classes->len; i++)
    same = stream_class_same (&c, i);
  g_string_free (c.path, TRUE);
  return c.diff;
}
