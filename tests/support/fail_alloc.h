// SPDX-License-Identifier: MIT
// An allocator for the allocation-failure tests (header-only): call number `fail_at` (counting
// from 0; negative: none) fails, `live` counts the blocks not yet freed.
#ifndef RD_FAIL_ALLOC_H
#define RD_FAIL_ALLOC_H

#include <stdlib.h>

typedef struct {
  long calls, fail_at, live;
} failAlloc;

static inline void* fa_malloc(size_t n, void* user) {
  failAlloc* fa = user;
  if (fa->fail_at >= 0 && fa->calls++ == fa->fail_at) {
    return NULL;
  }
  void* p = malloc(n);
  fa->live += p != NULL;
  return p;
}

static inline void fa_free(void* p, void* user) {
  failAlloc* fa = user;
  if (p) {
    fa->live--;
    free(p);
  }
}

#endif  // RD_FAIL_ALLOC_H
