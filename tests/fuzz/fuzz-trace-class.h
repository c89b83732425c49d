/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer helpers shared by the targets that read packets.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "gstctf-metadata.h"

/* The trace class an input picks with the low two bits of its first
 * byte: 0 an LTTng-like one with the kernel's compact event header, 1 a
 * big-endian one with bit fields, 3 an LTTng-like one with LTTng-UST's
 * large event header (fuzz-trace-class.c); 2 a metadata text carried by
 * the input itself (16-bit little endian length, then the text: TSDL, or
 * CTF 2 JSON fragments when its first byte is 0x1E).  Moves @data and
 * @size past what it used.  Returns a new reference, or NULL when the
 * input is too short or its metadata does not parse. */
GstCtfTraceClass *fuzz_trace_class (const uint8_t ** data, size_t * size);

/* The TSDL text of the trace class fuzz_trace_class() picks for the same
 * input (a new string; the fixed classes' texts start with the CTF 1.8
 * signature), moving @data and @size the same way; NULL when the input
 * is too short. */
gchar *fuzz_trace_class_tsdl (const uint8_t ** data, size_t * size);
