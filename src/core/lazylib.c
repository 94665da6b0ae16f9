// SPDX-License-Identifier: MIT
// Libraries loaded on first use (lazylib.h). The tables they fill are the library's only
// process-wide objects: written once under the lock below, read-only after.
#include "src/core/lazylib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "src/core/core.h"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;


// the library's functions into their slots: 1, or 0 with lib->why set
static int load(rdLazyLib* lib, const rdLazySym* syms, int n) {
  void* h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    snprintf(lib->why, sizeof(lib->why), "%s", e ? e : lib->soname);
    return 0;
  }
  for (int k = 0; k < n; k++) {
    void* p = dlsym(h, syms[k].name);
    if (!p) {
      snprintf(lib->why, sizeof(lib->why), "%s has no %s", lib->soname, syms[k].name);
      return 0;
    }
    // POSIX makes dlsym's object pointer usable as a function pointer; ISO C has no
    // conversion between the two, a copy of the bits is what POSIX means
    memcpy(syms[k].slot, &p, syms[k].size);
  }
  return 1;
}


int rd_lazyLoad(rdContext* ctx, rdLazyLib* lib, const rdLazySym* syms, int n, const char* user) {
  pthread_mutex_lock(&g_lock);
  if (lib->state == 0) {
    lib->state = load(lib, syms, n) ? 1 : -1;
  }
  int ok = lib->state > 0;
  pthread_mutex_unlock(&g_lock);
  return ok ? RD_OK : RD_ERROR(ctx, RD_ERR_IO, "%s: cannot load %s: %s", user, lib->what, lib->why);
}
