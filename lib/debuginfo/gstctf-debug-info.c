/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: the binaries each process of a trace has mapped and the
 * answers given for its addresses (GstCtfDebugInfo), as babeltrace2
 * 2.0's debug-info filter keeps them: binaries by base address per
 * process, an answer per (process, address) kept until the process's
 * next statedump.  The files themselves are read once per path, build id
 * and debug link (gstctf-bin-file.c) and shared by the processes.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <inttypes.h>
#include <string.h>

#include "gstctf-debug-info.h"
#include "gstctf-bin-file-private.h"

/* A binary a process has mapped. */
typedef struct
{
  guint64 baddr;
  guint64 memsz;
  gboolean is_pic;
  gchar *elf_path;              /* with the target prefix */
  guint8 *build_id;
  gsize build_id_len;
  gchar *debug_link;
  guint32 crc;
  GstCtfBinFile *file;          /* (transfer none), found when needed */
} Bin;

/* What the filter says for an address of a process. */
typedef struct
{
  gchar *bin;
  gchar *func;
  gchar *src;
} Answer;

typedef struct
{
  GHashTable *bins;             /* guint64 * baddr -> Bin */
  GPtrArray *order;             /* Bin, in the order they were added */
  GHashTable *answers;          /* guint64 * ip -> Answer */
} Proc;

struct _GstCtfDebugInfo
{
  gchar *debug_info_dir;
  gchar *target_prefix;
  gboolean full_path;
  GHashTable *procs;            /* gint64 * vpid -> Proc */
  GHashTable *files;            /* key text -> GstCtfBinFile */
  GHashTable *warned;           /* paths warned about */
  GQueue warnings;
  Proc *last_proc;              /* of last_vpid (processes stay) */
  gint64 last_vpid;
};

static void
bin_free (gpointer p)
{
  Bin *b = p;

  g_free (b->elf_path);
  g_free (b->build_id);
  g_free (b->debug_link);
  g_free (b);
}

static void
answer_free (gpointer p)
{
  Answer *a = p;

  g_free (a->bin);
  g_free (a->func);
  g_free (a->src);
  g_free (a);
}

static void
proc_free (gpointer p)
{
  Proc *pr = p;

  g_ptr_array_unref (pr->order);
  g_hash_table_unref (pr->bins);
  g_hash_table_unref (pr->answers);
  g_free (pr);
}

GstCtfDebugInfo *
gst_ctf_debug_info_new (const gchar * debug_info_dir,
    const gchar * target_prefix, gboolean full_path)
{
  GstCtfDebugInfo *di = g_new0 (GstCtfDebugInfo, 1);

  di->debug_info_dir = g_strdup (debug_info_dir);
  di->target_prefix = g_strdup (target_prefix);
  di->full_path = full_path;
  di->procs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      proc_free);
  di->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) _gst_ctf_bin_file_free);
  di->warned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_queue_init (&di->warnings);
  return di;
}

void
gst_ctf_debug_info_free (GstCtfDebugInfo * di)
{
  if (di == NULL)
    return;
  g_hash_table_unref (di->procs);
  g_hash_table_unref (di->files);
  g_hash_table_unref (di->warned);
  g_queue_clear_full (&di->warnings, g_free);
  g_free (di->debug_info_dir);
  g_free (di->target_prefix);
  g_free (di);
}

static Proc *
get_proc (GstCtfDebugInfo * di, gint64 vpid)
{
  Proc *p;

  if (G_LIKELY (di->last_proc && di->last_vpid == vpid))
    return di->last_proc;
  p = g_hash_table_lookup (di->procs, &vpid);
  if (p == NULL) {
    p = g_new0 (Proc, 1);
    p->bins = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
        NULL);
    p->order = g_ptr_array_new_with_free_func (bin_free);
    p->answers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
        answer_free);
    g_hash_table_insert (di->procs, g_memdup2 (&vpid, sizeof (vpid)), p);
  }
  di->last_proc = p;
  di->last_vpid = vpid;
  return p;
}

static Bin *
find_bin (GstCtfDebugInfo * di, gint64 vpid, guint64 baddr)
{
  return g_hash_table_lookup (get_proc (di, vpid)->bins, &baddr);
}

void
gst_ctf_debug_info_statedump_start (GstCtfDebugInfo * di, gint64 vpid)
{
  Proc *p = get_proc (di, vpid);

  g_hash_table_remove_all (p->bins);
  g_ptr_array_set_size (p->order, 0);
  g_hash_table_remove_all (p->answers);
}

void
gst_ctf_debug_info_add_binary (GstCtfDebugInfo * di, gint64 vpid,
    guint64 baddr, guint64 memsz, const gchar * path, gboolean is_pic)
{
  Proc *p;
  Bin *b;

  if (memsz == 0 || path == NULL)
    return;
  p = get_proc (di, vpid);
  if (g_hash_table_contains (p->bins, &baddr))
    return;
  b = g_new0 (Bin, 1);
  b->baddr = baddr;
  b->memsz = memsz;
  b->is_pic = is_pic;
  b->elf_path = di->target_prefix ? g_build_filename (di->target_prefix,
      path, NULL) : g_strdup (path);
  g_hash_table_insert (p->bins, g_memdup2 (&baddr, sizeof (baddr)), b);
  g_ptr_array_add (p->order, b);
}

void
gst_ctf_debug_info_set_build_id (GstCtfDebugInfo * di, gint64 vpid,
    guint64 baddr, const guint8 * build_id, gsize len)
{
  Bin *b = find_bin (di, vpid, baddr);

  if (b == NULL || build_id == NULL)
    return;
  g_free (b->build_id);
  b->build_id = g_memdup2 (build_id, len);
  b->build_id_len = len;
  b->file = NULL;
}

void
gst_ctf_debug_info_set_debug_link (GstCtfDebugInfo * di, gint64 vpid,
    guint64 baddr, const gchar * filename, guint32 crc)
{
  Bin *b = find_bin (di, vpid, baddr);

  if (b == NULL || filename == NULL)
    return;
  g_free (b->debug_link);
  b->debug_link = g_strdup (filename);
  b->crc = crc;
  b->file = NULL;
}

void
gst_ctf_debug_info_remove_binary (GstCtfDebugInfo * di, gint64 vpid,
    guint64 baddr)
{
  Proc *p = get_proc (di, vpid);
  Bin *b = g_hash_table_lookup (p->bins, &baddr);

  if (b == NULL)
    return;
  g_hash_table_remove (p->bins, &baddr);
  g_ptr_array_remove (p->order, b);
}

/* The shared file for what @b says now. */
static GstCtfBinFile *
bin_file (GstCtfDebugInfo * di, Bin * b)
{
  GString *key;
  GstCtfBinFile *f;
  gsize i;

  if (b->file)
    return b->file;
  key = g_string_new (b->elf_path);
  g_string_append_c (key, '\n');
  for (i = 0; b->build_id && i < b->build_id_len; i++)
    g_string_append_printf (key, "%02x", b->build_id[i]);
  g_string_append_printf (key, "\n%s\n%08x", b->debug_link ? b->debug_link :
      "", b->crc);
  f = g_hash_table_lookup (di->files, key->str);
  if (f == NULL) {
    GstCtfBinFileKey k = { b->elf_path, di->debug_info_dir, b->build_id,
      b->build_id_len, b->debug_link, b->crc
    };

    f = _gst_ctf_bin_file_new (&k, di->warned, &di->warnings);
    g_hash_table_insert (di->files, g_string_free (key, FALSE), f);
  } else {
    g_string_free (key, TRUE);
  }
  b->file = f;
  return f;
}

static Answer *
answer_new (GstCtfDebugInfo * di, Bin * b, guint64 ip)
{
  GstCtfBinFile *f = bin_file (di, b);
  const gchar *func, *src_path;
  guint64 addr = b->is_pic ? ip - b->baddr : ip;
  gint64 line;
  Answer *a;

  if (!_gst_ctf_bin_file_usable (f))
    return NULL;
  _gst_ctf_bin_file_resolve (f, addr, &func, &src_path, &line);
  a = g_new0 (Answer, 1);
  a->bin = g_strdup_printf ("%s%c%#" PRIx64, di->full_path ? b->elf_path :
      _gst_ctf_path_basename (b->elf_path), b->is_pic ? '+' : '@', addr);
  a->func = g_strdup (func ? func : "");
  a->src = src_path ? g_strdup_printf ("%s:%" G_GINT64_FORMAT,
      di->full_path ? src_path : _gst_ctf_path_basename (src_path), line) :
      g_strdup ("");
  return a;
}

void
gst_ctf_debug_info_lookup (GstCtfDebugInfo * di, gint64 vpid, guint64 ip,
    const gchar ** bin, const gchar ** func, const gchar ** src)
{
  Proc *p = get_proc (di, vpid);
  Answer *a = g_hash_table_lookup (p->answers, &ip);
  guint i;

  *bin = *func = *src = "";
  if (a == NULL) {
    for (i = 0; i < p->order->len; i++) {
      Bin *b = g_ptr_array_index (p->order, i);

      if (ip < b->baddr || ip - b->baddr >= b->memsz)
        continue;
      a = answer_new (di, b, ip);
      if (a)
        g_hash_table_insert (p->answers, g_memdup2 (&ip, sizeof (ip)), a);
      break;
    }
  }
  if (a) {
    *bin = a->bin;
    *func = a->func;
    *src = a->src;
  }
}

gchar *
gst_ctf_debug_info_pop_warning (GstCtfDebugInfo * di)
{
  return g_queue_pop_head (&di->warnings);
}
