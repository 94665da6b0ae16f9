// SPDX-License-Identifier: MIT
// Four doubles as one value (GCC/Clang vector extension) for the beam kernel's column blocks,
// and the function multi-versioning that runs them on AVX2 + FMA where the processor has it.
//
// rdV4 arithmetic compiles to whatever the function's target has: two SSE2 operations each in
// the generic x86-64 build, one AVX operation in the clone RD_CLONES adds (x86-64-v3: AVX2,
// FMA), chosen once at load time by the processor (an ifunc). a * b + c becomes one FMA in that
// clone (the project compiles with -ffp-contract=fast; the generic x86-64 has no FMA, so its
// code is unchanged). Only code inlined into a cloned function is cloned: the kernels that use
// rdV4 are static inline (RD_HOT) and called from RD_CLONES functions.
#ifndef RD_SIMD_H
#define RD_SIMD_H

#include <string.h>

typedef double rdV4 __attribute__((vector_size(32)));
// the same for loads and stores at any 8-byte alignment, aliasing double
typedef double rdV4u __attribute__((vector_size(32), aligned(8), may_alias));

// load, store, broadcast (macros, not functions: a 32-byte vector passed by value to a
// non-inlined function changes the ABI between the clones)
#define V4LD(p) (*(const rdV4u*)(p))
#define V4ST(p, v) (*(rdV4u*)(p) = (v))
#define V4B(s) ((rdV4){(s), (s), (s), (s)})
#define V4ZERO ((rdV4){0, 0, 0, 0})

// a generic and an AVX2 + FMA version of the function, picked at load time (x86-64, GCC with
// ifunc support); elsewhere one generic version
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && \
    !defined(RD_NO_CLONES)
#define RD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define RD_CLONES
#endif

#endif  // RD_SIMD_H
