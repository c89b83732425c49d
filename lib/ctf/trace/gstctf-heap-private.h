/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: a binary min-heap of streams in a GPtrArray, each item knowing
 * its place (so that one item's key can change and the item move), as the
 * event merges use (gstctf-event-merge.c, ctftextsink's parallel merge).
 * Not installed.
 *
 * GST_CTF_DEFINE_ITEM_HEAP (heap, Stream, stream_before, heap_index)
 * defines, for items of type Stream whose `gint heap_index` member is -1
 * when out of the heap and a `gboolean stream_before (const Stream *,
 * const Stream *)` order, static functions:
 *
 *   heap_up (h, i), heap_down (h, i)   restore the order from index i
 *   heap_remove (h, item)              take it out (if in)
 *   heap_update (h, item)              put it in, or move it after its key
 *                                      changed
 *
 * A macro and not a callback: the comparison is inlined in the merges'
 * per-event paths.
 */
#pragma once

#include <glib.h>

#define GST_CTF_DEFINE_ITEM_HEAP(prefix, Type, before, index)              \
G_GNUC_UNUSED static inline void                                           \
prefix##_swap (GPtrArray * h, guint i, guint j)                            \
{                                                                          \
  Type *a = h->pdata[i], *b = h->pdata[j];                                 \
                                                                           \
  h->pdata[i] = b;                                                         \
  h->pdata[j] = a;                                                         \
  b->index = i;                                                            \
  a->index = j;                                                            \
}                                                                          \
                                                                           \
G_GNUC_UNUSED static void                                                  \
prefix##_up (GPtrArray * h, guint i)                                       \
{                                                                          \
  while (i > 0) {                                                          \
    guint p = (i - 1) / 2;                                                 \
                                                                           \
    if (!before ((const Type *) h->pdata[i], (const Type *) h->pdata[p]))  \
      break;                                                               \
    prefix##_swap (h, i, p);                                               \
    i = p;                                                                 \
  }                                                                        \
}                                                                          \
                                                                           \
G_GNUC_UNUSED static void                                                  \
prefix##_down (GPtrArray * h, guint i)                                     \
{                                                                          \
  for (;;) {                                                               \
    guint l = 2 * i + 1, r = l + 1, m = i;                                 \
                                                                           \
    if (l < h->len && before ((const Type *) h->pdata[l],                  \
            (const Type *) h->pdata[m]))                                   \
      m = l;                                                               \
    if (r < h->len && before ((const Type *) h->pdata[r],                  \
            (const Type *) h->pdata[m]))                                   \
      m = r;                                                               \
    if (m == i)                                                            \
      break;                                                               \
    prefix##_swap (h, i, m);                                               \
    i = m;                                                                 \
  }                                                                        \
}                                                                          \
                                                                           \
G_GNUC_UNUSED static void                                                  \
prefix##_remove (GPtrArray * h, Type * s)                                  \
{                                                                          \
  guint i, last;                                                           \
                                                                           \
  if (s->index < 0)                                                        \
    return;                                                                \
  i = s->index;                                                            \
  last = h->len - 1;                                                       \
  if (i != last)                                                           \
    prefix##_swap (h, i, last);                                            \
  g_ptr_array_set_size (h, last);                                          \
  s->index = -1;                                                           \
  if (i < h->len) {                                                        \
    prefix##_up (h, i);                                                    \
    prefix##_down (h, i);                                                  \
  }                                                                        \
}                                                                          \
                                                                           \
G_GNUC_UNUSED static void                                                  \
prefix##_update (GPtrArray * h, Type * s)                                  \
{                                                                          \
  if (s->index < 0) {                                                      \
    s->index = h->len;                                                     \
    g_ptr_array_add (h, s);                                                \
  }                                                                        \
  prefix##_up (h, s->index);                                               \
  prefix##_down (h, s->index);                                             \
}
