/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One parse of a trace.dat file for every packet source of the process
 * that reads it (gstctf-trace-dat-share.c).  Private to the library.
 */
#pragma once

#include "gsttracecmd.h"

G_BEGIN_DECLS

/* (transfer full): the file, read now or shared with a source that has it
 * open; errors as gst_ctf_trace_dat_open(). */
G_GNUC_INTERNAL GstCtfTraceDat *_gst_ctf_trace_dat_share_open (const gchar *
    path, GError ** error);
/* Gives back what _gst_ctf_trace_dat_share_open() returned. */
G_GNUC_INTERNAL void _gst_ctf_trace_dat_share_close (GstCtfTraceDat * td);

G_END_DECLS
