// SPDX-License-Identifier: MIT
// The UMFPACK and CHOLMOD functions of their backends, loaded when a model first chooses them
// (src/core/lazylib.h): both pull in BLAS (OpenBLAS), which a run with KLU never loads.
#ifndef RD_LINSOL_LIBS_H
#define RD_LINSOL_LIBS_H

#include <cholmod.h>
#include <umfpack.h>

#include "rodrigues/context.h"

typedef struct rdUmfpack_ {
  __typeof__(&umfpack_di_defaults) defaults;
  __typeof__(&umfpack_di_symbolic) symbolic;
  __typeof__(&umfpack_di_numeric) numeric;
  __typeof__(&umfpack_di_solve) solve;
  __typeof__(&umfpack_di_get_numeric) get_numeric;
  __typeof__(&umfpack_di_free_symbolic) free_symbolic;
  __typeof__(&umfpack_di_free_numeric) free_numeric;
} rdUmfpack;

typedef struct rdCholmod_ {
  __typeof__(&cholmod_start) start;
  __typeof__(&cholmod_finish) finish;
  __typeof__(&cholmod_allocate_sparse) allocate_sparse;
  __typeof__(&cholmod_free_sparse) free_sparse;
  __typeof__(&cholmod_analyze) analyze;
  __typeof__(&cholmod_factorize) factorize;
  __typeof__(&cholmod_free_factor) free_factor;
  __typeof__(&cholmod_rcond) rcond;
  __typeof__(&cholmod_solve2) solve2;
  __typeof__(&cholmod_free_dense) free_dense;
} rdCholmod;

// the functions, or NULL with RD_ERR_IO raised in ctx (the library could not be loaded)
const rdUmfpack* rd_umfpack(rdContext* ctx);
const rdCholmod* rd_cholmod(rdContext* ctx);

#endif  // RD_LINSOL_LIBS_H
