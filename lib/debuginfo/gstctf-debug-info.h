/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gst-ctf: source locations of instruction addresses of LTTng-UST
 * processes, as babeltrace2 2.0's `filter.lttng-utils.debug-info` finds
 * them: the binaries a process has mapped (told by the
 * `lttng_ust_statedump:*`, `lttng_ust_dl:*` and `lttng_ust_lib:*` events)
 * read with elfutils (libelf for ELF symbols and build ids, libdw for
 * DWARF), separate debug files by build id and by debug link.
 */
#pragma once

#include <glib.h>
#include "gstctf-version.h"

G_BEGIN_DECLS

/**
 * GstCtfDebugInfo:
 *
 * What a trace says of the binaries of its processes, and the source
 * locations found in them.  Feed it the state events in the trace's event
 * order (gst_ctf_debug_info_add_binary() for a `bin_info`, `dlopen` or
 * `lib:load` event, ...), and ask gst_ctf_debug_info_lookup() for the
 * `ip` context of each event.
 *
 * Each binary file is opened once (per path, build id and debug link) and
 * each address is resolved once per process, so the cost per event is a
 * hash lookup.  Files that cannot be read give empty fields, never an
 * error; one warning per file is queued (gst_ctf_debug_info_pop_warning()).
 * Not thread safe.
 *
 * |[<!-- language="C" -->
 * GstCtfDebugInfo *di = gst_ctf_debug_info_new (NULL, "/mnt/target", FALSE);
 * gst_ctf_debug_info_add_binary (di, vpid, 0x5555555540000, 0x4000,
 *     "/usr/bin/app", TRUE);
 * gst_ctf_debug_info_lookup (di, vpid, ip, &bin, &func, &src);
 * // bin = "app+0x119d", func = "level2+0x14", src = "app.c:5"
 * ]|
 */
typedef struct _GstCtfDebugInfo GstCtfDebugInfo;

/**
 * gst_ctf_debug_info_new: (skip)
 * @debug_info_dir: (nullable): where separate debug files are looked for
 *   (`DIR/.build-id/XX/YYYY.debug`, `DIR/BINDIR/LINK`); %NULL for
 *   `/usr/lib/debug`
 * @target_prefix: (nullable): prepended to every binary path of the trace
 *   (binaries copied from the traced machine), %NULL for none
 * @full_path: whether `bin` and `src` give whole paths rather than file
 *   names
 *
 * Returns: (transfer full): a new, empty state
 */
GST_CTF_API GstCtfDebugInfo *gst_ctf_debug_info_new (const gchar *
    debug_info_dir, const gchar * target_prefix, gboolean full_path);

/**
 * gst_ctf_debug_info_free: (skip)
 * @di: (nullable): the state
 */
GST_CTF_API void gst_ctf_debug_info_free (GstCtfDebugInfo * di);

/**
 * gst_ctf_debug_info_statedump_start: (skip)
 * @di: the state
 * @vpid: the process
 *
 * `lttng_ust_statedump:start`: forgets the binaries of @vpid and the
 * addresses resolved for it.
 */
GST_CTF_API void gst_ctf_debug_info_statedump_start (GstCtfDebugInfo * di,
    gint64 vpid);

/**
 * gst_ctf_debug_info_add_binary: (skip)
 * @di: the state
 * @vpid: the process
 * @baddr: base address where the binary is mapped
 * @memsz: bytes mapped; 0 (the vDSO) is ignored
 * @path: the binary's path on the traced machine
 * @is_pic: whether addresses in the file are relative to @baddr
 *   (position-independent code; `dlopen` and `lib:load` are always PIC)
 *
 * `lttng_ust_statedump:bin_info`, `lttng_ust_dl:dlopen`,
 * `lttng_ust_lib:load`: @vpid has mapped a binary at [@baddr, @baddr +
 * @memsz).  Nothing changes when a binary is already known at @baddr.
 */
GST_CTF_API void gst_ctf_debug_info_add_binary (GstCtfDebugInfo * di,
    gint64 vpid, guint64 baddr, guint64 memsz, const gchar * path,
    gboolean is_pic);

/**
 * gst_ctf_debug_info_set_build_id: (skip)
 * @di: the state
 * @vpid: the process
 * @baddr: base address of a binary given before
 * @build_id: (array length=len): the GNU build id bytes
 * @len: bytes in @build_id
 *
 * `*:build_id`: the binary's build id.  The file found must have the same
 * one (else the binary's fields stay empty), and its separate debug file
 * is then looked for as `.build-id/XX/YYYY.debug`.
 */
GST_CTF_API void gst_ctf_debug_info_set_build_id (GstCtfDebugInfo * di,
    gint64 vpid, guint64 baddr, const guint8 * build_id, gsize len);

/**
 * gst_ctf_debug_info_set_debug_link: (skip)
 * @di: the state
 * @vpid: the process
 * @baddr: base address of a binary given before
 * @filename: the `.gnu_debuglink` file name
 * @crc: its CRC-32
 *
 * `*:debug_link`: the binary's separate debug file, looked for beside
 * the binary, in its `.debug` directory, then below the debug directory.
 */
GST_CTF_API void gst_ctf_debug_info_set_debug_link (GstCtfDebugInfo * di,
    gint64 vpid, guint64 baddr, const gchar * filename, guint32 crc);

/**
 * gst_ctf_debug_info_remove_binary: (skip)
 * @di: the state
 * @vpid: the process
 * @baddr: base address of the binary
 *
 * `lttng_ust_lib:unload`: the binary at @baddr is no longer mapped.
 */
GST_CTF_API void gst_ctf_debug_info_remove_binary (GstCtfDebugInfo * di,
    gint64 vpid, guint64 baddr);

/**
 * gst_ctf_debug_info_lookup: (skip)
 * @di: the state
 * @vpid: the process
 * @ip: the instruction address (`ip` context)
 * @bin: (out) (transfer none): `FILE+0xOFFSET` (PIC) or `FILE@0xADDRESS`,
 *   or ""
 * @func: (out) (transfer none): `FUNCTION+0xOFFSET`, or ""
 * @src: (out) (transfer none): `SOURCE:LINE`, or ""
 *
 * The source location of @ip in the binaries @vpid has mapped.  The
 * first answer for an address is kept for the process until its next
 * statedump, as babeltrace2 keeps it.  Strings stay valid until the next
 * gst_ctf_debug_info_statedump_start() for @vpid or the state is freed.
 */
GST_CTF_API void gst_ctf_debug_info_lookup (GstCtfDebugInfo * di,
    gint64 vpid, guint64 ip, const gchar ** bin, const gchar ** func,
    const gchar ** src);

/**
 * gst_ctf_debug_info_pop_warning: (skip)
 * @di: the state
 *
 * A binary or debug file could not be used (missing, not ELF, corrupt,
 * another build id): one message per file, with its path and what is
 * wrong.
 *
 * Returns: (transfer full) (nullable): the oldest warning not popped yet
 */
GST_CTF_API gchar *gst_ctf_debug_info_pop_warning (GstCtfDebugInfo * di);

G_END_DECLS
