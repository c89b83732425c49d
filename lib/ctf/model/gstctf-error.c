/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstctf-error.h"

G_DEFINE_QUARK (gst-ctf-error-quark, gst_ctf_error)
