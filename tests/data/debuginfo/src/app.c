/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The debug-info workload (record.sh): tracepoints from a call chain and
 * from an inlined function, malloc/free through the libc wrapper, and a
 * dlopen'ed library (liblttng-ust-dl). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "di_tp.h"

#ifndef DI_NAME
#define DI_NAME "app"
#endif

static inline __attribute__((always_inline)) void
inlined_step (int v)
{
  lttng_ust_tracepoint (di_app, step, 3, v);
}

__attribute__((noinline)) static void
level2 (int v)
{
  lttng_ust_tracepoint (di_app, step, 2, v);
  inlined_step (v + 1);
}

__attribute__((noinline)) static void
level1 (int v)
{
  void *p = malloc (64 + (v & 31));
  level2 (v);
  free (p);
}

int
main (int argc, char **argv)
{
  const char *lib = argc > 1 ? argv[1] : NULL;
  int n = argc > 2 ? atoi (argv[2]) : 3, i;

  usleep (200000);              /* the statedump goes first */
  for (i = 0; i < n; i++)
    level1 (i);
  if (lib && *lib) {
    void *h = dlopen (lib, RTLD_NOW);
    void (*work) (int);

    if (h == NULL) {
      fprintf (stderr, "%s\n", dlerror ());
      return 1;
    }
    work = (void (*)(int)) dlsym (h, "di_lib_work");
    for (i = 0; i < n; i++)
      work (i);
    dlclose (h);
  }
  level1 (n);
  if (argc > 3)
    puts (DI_NAME);             /* gives each variant its own build id */
  return 0;
}
