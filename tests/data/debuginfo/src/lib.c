/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The dlopen'ed library of the debug-info workload (record.sh). */
#include <stdlib.h>

__attribute__((noinline)) static void *
di_lib_alloc (int v)
{
  return calloc (1, 16 + (v & 15));
}

void di_lib_work (int v);

void
di_lib_work (int v)
{
  void *p = di_lib_alloc (v);

  free (p);
}
