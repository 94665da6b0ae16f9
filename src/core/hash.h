// SPDX-License-Identifier: MIT
// FNV-1a, 64 bits: checksums of checkpoint files and fingerprints of models.
#ifndef RD_HASH_H
#define RD_HASH_H

#include <stddef.h>
#include <stdint.h>

#define RD_HASH_INIT 1469598103934665603ull

// h extended by the n bytes at p (p may be NULL when n is 0)
static inline uint64_t rd_hash(uint64_t h, const void* p, size_t n) {
  const unsigned char* c = p;
  for (size_t i = 0; i < n; i++) {
    h = (h ^ c[i]) * 1099511628211ull;
  }
  return h;
}

#endif  // RD_HASH_H
