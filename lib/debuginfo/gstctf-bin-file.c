/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: function names and source lines of a binary file through
 * elfutils, with the lookup rules of babeltrace2 2.0's debug-info filter
 * (its `bin-info.c`), so that the same files give the same text:
 *
 * - DWARF comes from the file itself, else from `DIR/.build-id/XX/
 *   YYYY.debug` (build id known), else from the debug link (beside the
 *   file, in its `.debug` directory, then `DIR/FILE_DIR/LINK`, each with
 *   a matching CRC-32); a DWARF source needs at least one compile unit.
 * - Function: the first top-level `DW_TAG_subprogram` of the compile
 *   units whose ranges hold the address, `NAME+0xOFF` from its low pc;
 *   without DWARF, the nearest `STT_FUNC` symbol at or below the address
 *   in the first `SHT_SYMTAB` section that has one.
 * - Source: in the compile unit whose top-level subprogram holds the
 *   address, the call site of an inlined subroutine holding it (walked as
 *   babeltrace2 walks it: after going down to a child, the walk goes on
 *   with that child's next sibling); else the line table row whose
 *   address is exactly the address.  Any libdw error while looking drops
 *   the source location of that address.
 *
 * Nothing here fails: a file that cannot be read gives no names.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <zlib.h>

#include "gstctf-bin-file-private.h"

#define DEFAULT_DEBUG_DIR "/usr/lib/debug"

typedef struct
{
  gchar *func;                  /* nullable */
  gchar *src_path;              /* nullable */
  gint64 line;
} Resolved;

struct _GstCtfBinFile
{
  gchar *elf_path;
  gchar *debug_info_dir;
  guint8 *build_id;
  gsize build_id_len;
  gchar *debug_link;
  guint32 debug_link_crc;

  GHashTable *warned;           /* (transfer none) paths warned about */
  GQueue *warnings;             /* (transfer none) */

  gint elf_fd;
  Elf *elf;
  gboolean elf_tried;
  gboolean build_id_matches;

  gint dwarf_fd;
  Dwarf *dwarf;
  gboolean dwarf_tried;

  GHashTable *resolved;         /* guint64 * -> Resolved */
};

const gchar *
_gst_ctf_path_basename (const gchar * path)
{
  const gchar *slash;
  gsize n = strlen (path);

  if (n == 0 || path[n - 1] == '/')
    return path;
  slash = strrchr (path, '/');
  return slash ? slash + 1 : path;
}

static void
warn (GstCtfBinFile * f, const gchar * path, const gchar * fmt, ...)
    G_GNUC_PRINTF (3, 4);

static void
warn (GstCtfBinFile * f, const gchar * path, const gchar * fmt, ...)
{
  va_list ap;
  gchar *what;

  if (g_hash_table_contains (f->warned, path))
    return;
  g_hash_table_add (f->warned, g_strdup (path));
  va_start (ap, fmt);
  what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_queue_push_tail (f->warnings, g_strdup_printf ("Cannot use binary "
          "file=\"%s\": %s; its debug info fields stay empty", path, what));
  g_free (what);
}

static void
resolved_free (gpointer p)
{
  Resolved *r = p;

  g_free (r->func);
  g_free (r->src_path);
  g_free (r);
}

/* ------------------------------------------------------------------ */
/* ELF file, build id */

static gboolean
open_elf (GstCtfBinFile * f)
{
  if (f->elf_tried)
    return f->elf != NULL;
  f->elf_tried = TRUE;
  f->elf_fd = open (f->elf_path, O_RDONLY | O_CLOEXEC);
  if (f->elf_fd < 0) {
    warn (f, f->elf_path, "cannot open it (%s)", g_strerror (errno));
    return FALSE;
  }
  f->elf = elf_begin (f->elf_fd, ELF_C_READ, NULL);
  if (f->elf == NULL || elf_kind (f->elf) != ELF_K_ELF) {
    warn (f, f->elf_path, "not an ELF file (%s)", f->elf ?
        "expected ELF magic 7f 45 4c 46 at offset 0" : elf_errmsg (-1));
    if (f->elf)
      elf_end (f->elf);
    f->elf = NULL;
    return FALSE;
  }
  return TRUE;
}

/* Whether the file's build id notes say the trace's build id: the
 * first GNU build id note found decides. */
static gboolean
file_has_build_id (GstCtfBinFile * f)
{
  Elf_Scn *scn = NULL;

  if (!open_elf (f))
    return FALSE;
  while ((scn = elf_nextscn (f->elf, scn)) != NULL) {
    GElf_Shdr shdr;
    GElf_Nhdr nhdr;
    Elf_Data *data;
    size_t name_off, desc_off;

    if (gelf_getshdr (scn, &shdr) == NULL)
      return FALSE;
    if (shdr.sh_type != SHT_NOTE)
      continue;
    data = elf_getdata (scn, NULL);
    if (data == NULL)
      return FALSE;
    if (gelf_getnote (data, 0, &nhdr, &name_off, &desc_off) == 0)
      continue;
    if (nhdr.n_namesz != 4 || nhdr.n_type != NT_GNU_BUILD_ID ||
        memcmp ((const guint8 *) data->d_buf + name_off, "GNU", 4) != 0)
      continue;
    return nhdr.n_descsz >= f->build_id_len && f->build_id_len > 0 &&
        desc_off + f->build_id_len <= data->d_size &&
        memcmp ((const guint8 *) data->d_buf + desc_off, f->build_id,
        f->build_id_len) == 0;
  }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* DWARF */

static gboolean
dwarf_from_path (GstCtfBinFile * f, const gchar * path)
{
  Dwarf_Off next;
  size_t hdr;
  gint fd;
  Dwarf *dw;

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;
  dw = dwarf_begin (fd, DWARF_C_READ);
  if (dw == NULL || dwarf_nextcu (dw, 0, &next, &hdr, NULL, NULL,
          NULL) != 0) {
    if (dw)
      dwarf_end (dw);
    close (fd);
    return FALSE;
  }
  f->dwarf = dw;
  f->dwarf_fd = fd;
  return TRUE;
}

static gboolean
crc_matches (const gchar * path, guint32 crc)
{
  guint8 buf[65536];
  uLong c = crc32 (0L, Z_NULL, 0);
  gssize n;
  gint fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return FALSE;
  while ((n = read (fd, buf, sizeof (buf))) > 0)
    c = crc32 (c, buf, (uInt) n);
  close (fd);
  return n == 0 && (guint32) c == crc;
}

static gboolean
dwarf_from_build_id (GstCtfBinFile * f)
{
  GString *name;
  gchar *path, dir[3];
  gboolean ok;
  gsize i;

  if (f->build_id == NULL || f->build_id_len == 0)
    return FALSE;
  g_snprintf (dir, sizeof (dir), "%02x", f->build_id[0]);
  name = g_string_new (NULL);
  for (i = 1; i < f->build_id_len; i++)
    g_string_append_printf (name, "%02x", f->build_id[i]);
  g_string_append (name, ".debug");
  path = g_build_filename (f->debug_info_dir, ".build-id", dir, name->str,
      NULL);
  ok = dwarf_from_path (f, path);
  g_free (path);
  g_string_free (name, TRUE);
  return ok;
}

static gboolean
dwarf_from_debug_link (GstCtfBinFile * f)
{
  gchar *bin_dir, *paths[3];
  gboolean ok = FALSE;
  guint i;

  if (f->debug_link == NULL)
    return FALSE;
  bin_dir = g_path_get_dirname (f->elf_path);
  paths[0] = g_build_filename (bin_dir, f->debug_link, NULL);
  paths[1] = g_build_filename (bin_dir, ".debug", f->debug_link, NULL);
  paths[2] = g_build_filename (f->debug_info_dir, bin_dir, f->debug_link,
      NULL);
  for (i = 0; i < 3; i++) {
    if (crc_matches (paths[i], f->debug_link_crc)) {
      ok = dwarf_from_path (f, paths[i]);
      break;
    }
  }
  for (i = 0; i < 3; i++)
    g_free (paths[i]);
  g_free (bin_dir);
  return ok;
}

static gboolean
open_dwarf (GstCtfBinFile * f)
{
  if (!f->dwarf_tried) {
    f->dwarf_tried = TRUE;
    if (!dwarf_from_path (f, f->elf_path) && !dwarf_from_build_id (f))
      dwarf_from_debug_link (f);
  }
  return f->dwarf != NULL;
}

/* The compile unit DIEs one after the other; FALSE at the end or on an
 * error. */
static gboolean
next_cu (Dwarf * dw, Dwarf_Off * off, Dwarf_Die * cu_die)
{
  Dwarf_Off next;
  size_t hdr;

  if (dwarf_nextcu (dw, *off, &next, &hdr, NULL, NULL, NULL) != 0)
    return FALSE;
  if (dwarf_offdie (dw, *off + hdr, cu_die) == NULL)
    return FALSE;
  *off = next;
  return TRUE;
}

/* Moves @die to its next sibling; FALSE (@die unchanged) at the last one
 * or on an error. */
static gboolean
next_sibling (Dwarf_Die * die)
{
  Dwarf_Die next;

  if (dwarf_siblingof (die, &next) != 0)
    return FALSE;
  *die = next;
  return TRUE;
}

static gchar *
name_plus_offset (const gchar * name, guint64 low, guint64 addr)
{
  return g_strdup_printf ("%s+%#" PRIx64, name, addr - low);
}

/* The DWARF function at @addr: NULL when none or on an error. */
static gchar *
dwarf_function (GstCtfBinFile * f, guint64 addr)
{
  Dwarf_Off off = 0;
  Dwarf_Die cu_die;

  while (next_cu (f->dwarf, &off, &cu_die)) {
    Dwarf_Die die;

    if (dwarf_child (&cu_die, &die) != 0)
      continue;
    do {
      gint tag = dwarf_tag (&die), has;

      if (tag == DW_TAG_invalid)
        return NULL;
      if (tag != DW_TAG_subprogram)
        continue;
      has = dwarf_haspc (&die, addr);
      if (has < 0)
        return NULL;
      if (has == 1) {
        const gchar *name = dwarf_diename (&die);
        Dwarf_Addr low;

        if (name == NULL || dwarf_lowpc (&die, &low) != 0)
          return NULL;
        return name_plus_offset (name, low, addr);
      }
    } while (next_sibling (&die));
  }
  return NULL;
}

/* The ELF symbol function at @addr: NULL when none or on an error. */
static gchar *
elf_function (GstCtfBinFile * f, guint64 addr)
{
  Elf_Scn *scn = NULL;

  if (!open_elf (f))
    return NULL;
  while ((scn = elf_nextscn (f->elf, scn)) != NULL) {
    GElf_Shdr shdr;
    GElf_Sym best = { 0, }, sym;
    Elf_Data *data;
    gboolean found = FALSE;
    size_t i, n;
    const gchar *name;

    if (gelf_getshdr (scn, &shdr) == NULL)
      return NULL;
    if (shdr.sh_type != SHT_SYMTAB)
      continue;
    data = elf_getdata (scn, NULL);
    if (data == NULL || shdr.sh_entsize == 0)
      return NULL;
    n = shdr.sh_size / shdr.sh_entsize;
    for (i = 0; i < n; i++) {
      if (gelf_getsym (data, (int) i, &sym) == NULL)
        return NULL;
      if (GELF_ST_TYPE (sym.st_info) != STT_FUNC)
        continue;
      if (sym.st_value <= addr && (!found || sym.st_value > best.st_value)) {
        best = sym;
        found = TRUE;
      }
    }
    if (!found)
      continue;
    name = elf_strptr (f->elf, shdr.sh_link, best.st_name);
    return name ? name_plus_offset (name, best.st_value, addr) : NULL;
  }
  return NULL;
}

/* babeltrace2's walk below a subprogram holding @addr: TRUE with *found
 * and *die on the DIE it stopped at, FALSE on an error (also when the
 * subprogram has no child). */
static gboolean
inlined_below (Dwarf_Die * die, guint64 addr, gboolean * found)
{
  gboolean contains = FALSE;
  Dwarf_Die cur;

  if (dwarf_child (die, &cur) != 0)
    return FALSE;
  do {
    gint has = dwarf_haspc (&cur, addr);

    if (has < 0)
      return FALSE;
    contains = has == 1;
    if (contains) {
      gint tag = dwarf_tag (&cur);

      if (tag == DW_TAG_invalid)
        return FALSE;
      if (tag == DW_TAG_inlined_subroutine)
        break;
      if (dwarf_haschildren (&cur)) {
        Dwarf_Die child;

        if (dwarf_child (&cur, &child) != 0)
          return FALSE;
        cur = child;
      }
    }
  } while (next_sibling (&cur));
  *die = cur;
  *found = contains;
  return TRUE;
}

/* The call site of the inlined subroutine @die. */
static gboolean
call_site (Dwarf_Die * cu_die, Dwarf_Die * die, gchar ** path, gint64 * line)
{
  Dwarf_Attribute attr;
  Dwarf_Sword file_no;
  Dwarf_Word line_no;
  Dwarf_Files *files;
  const gchar *name;

  if (dwarf_attr (die, DW_AT_call_file, &attr) == NULL ||
      dwarf_formsdata (&attr, &file_no) != 0 ||
      dwarf_getsrcfiles (cu_die, &files, NULL) != 0 || file_no < 0 ||
      (name = dwarf_filesrc (files, (size_t) file_no, NULL, NULL)) == NULL ||
      dwarf_attr (die, DW_AT_call_line, &attr) == NULL ||
      dwarf_formudata (&attr, &line_no) != 0)
    return FALSE;
  *path = g_strdup (name);
  *line = (gint64) line_no;
  return TRUE;
}

/* The source location at @addr in one compile unit: FALSE on an error,
 * *path NULL when not found there. */
static gboolean
cu_source (Dwarf_Die * cu_die, guint64 addr, gchar ** path, gint64 * line)
{
  Dwarf_Die die;
  Dwarf_Line *row;
  Dwarf_Addr row_addr;
  const gchar *name;
  gint n;

  if (dwarf_child (cu_die, &die) == 0) {
    do {
      gint tag = dwarf_tag (&die), has;
      gboolean found = FALSE;

      if (tag == DW_TAG_invalid)
        return FALSE;
      if (tag != DW_TAG_subprogram)
        continue;
      has = dwarf_haspc (&die, addr);
      if (has < 0)
        return FALSE;
      if (has == 0)
        continue;
      if (!inlined_below (&die, addr, &found))
        return FALSE;
      if (found)
        return call_site (cu_die, &die, path, line);
      break;
    } while (next_sibling (&die));
  }
  row = dwarf_getsrc_die (cu_die, addr);
  if (row == NULL)
    return TRUE;
  if (dwarf_lineaddr (row, &row_addr) != 0 ||
      (name = dwarf_linesrc (row, NULL, NULL)) == NULL)
    return FALSE;
  if (row_addr != addr)
    return TRUE;
  if (dwarf_lineno (row, &n) != 0)
    return FALSE;
  *path = g_strdup (name);
  *line = n;
  return TRUE;
}

static gchar *
dwarf_source (GstCtfBinFile * f, guint64 addr, gint64 * line)
{
  Dwarf_Off off = 0;
  Dwarf_Die cu_die;
  gchar *path = NULL;

  while (next_cu (f->dwarf, &off, &cu_die)) {
    if (!cu_source (&cu_die, addr, &path, line)) {
      g_free (path);
      return NULL;
    }
    if (path)
      return path;
  }
  return NULL;
}

/* ------------------------------------------------------------------ */

GstCtfBinFile *
_gst_ctf_bin_file_new (const GstCtfBinFileKey * key, GHashTable * warned,
    GQueue * warnings)
{
  GstCtfBinFile *f = g_new0 (GstCtfBinFile, 1);
  static gsize elf_ready = 0;

  if (g_once_init_enter (&elf_ready)) {
    elf_version (EV_CURRENT);
    g_once_init_leave (&elf_ready, 1);
  }
  f->elf_path = g_strdup (key->elf_path);
  f->debug_info_dir = g_strdup (key->debug_info_dir ? key->debug_info_dir :
      DEFAULT_DEBUG_DIR);
  if (key->build_id) {
    f->build_id = g_memdup2 (key->build_id, key->build_id_len);
    f->build_id_len = key->build_id_len;
  }
  f->debug_link = g_strdup (key->debug_link);
  f->debug_link_crc = key->debug_link_crc;
  f->warned = warned;
  f->warnings = warnings;
  f->elf_fd = f->dwarf_fd = -1;
  f->resolved = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      resolved_free);
  if (f->build_id) {
    f->build_id_matches = file_has_build_id (f);
    if (!f->build_id_matches && f->elf)
      warn (f, f->elf_path, "its build id is not the one the trace gives");
  }
  return f;
}

void
_gst_ctf_bin_file_free (GstCtfBinFile * f)
{
  if (f == NULL)
    return;
  if (f->dwarf)
    dwarf_end (f->dwarf);
  if (f->dwarf_fd >= 0)
    close (f->dwarf_fd);
  if (f->elf)
    elf_end (f->elf);
  if (f->elf_fd >= 0)
    close (f->elf_fd);
  g_hash_table_unref (f->resolved);
  g_free (f->elf_path);
  g_free (f->debug_info_dir);
  g_free (f->build_id);
  g_free (f->debug_link);
  g_free (f);
}

gboolean
_gst_ctf_bin_file_usable (GstCtfBinFile * f)
{
  return f->build_id == NULL || f->build_id_matches;
}

void
_gst_ctf_bin_file_resolve (GstCtfBinFile * f, guint64 addr,
    const gchar ** func, const gchar ** src_path, gint64 * line)
{
  Resolved *r = g_hash_table_lookup (f->resolved, &addr);

  if (r == NULL) {
    gboolean dwarf = open_dwarf (f);

    r = g_new0 (Resolved, 1);
    r->func = dwarf ? dwarf_function (f, addr) : elf_function (f, addr);
    if (dwarf)
      r->src_path = dwarf_source (f, addr, &r->line);
    g_hash_table_insert (f->resolved, g_memdup2 (&addr, sizeof (addr)), r);
  }
  *func = r->func;
  *src_path = r->src_path;
  *line = r->line;
}
