/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Introspection annotations for library symbols that have no doc comment
 * of their own.  Read by g-ir-scanner only (gir/meson.build); never
 * compiled.  The trace model's construction helpers return plain C
 * structures that are not boxed types: bindings cannot own them, so they
 * are left out of GstCtf-1.0.gir.  Bindings read traces through
 * #GstCtfEventReader and the elements.
 */

/**
 * gst_ctf_field_class_new: (skip)
 */

/**
 * gst_ctf_field_class_copy: (skip)
 */

/**
 * gst_ctf_stream_class_new: (skip)
 */

/**
 * gst_ctf_event_class_new: (skip)
 */

/**
 * gst_ctf_clock_class_new: (skip)
 */

/**
 * gst_ctf_trace_class_find_stream_class: (skip)
 */
