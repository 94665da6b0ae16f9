// SPDX-License-Identifier: MIT
// UMFPACK backend (umfpack_di_*): symbolic analysis once, numeric factorization per call.
#include <math.h>
#include <string.h>

#include "solver/linsol.h"
#include "solver/linsol_libs.h"

typedef struct {
  const rdUmfpack* lib;
  double control[UMFPACK_CONTROL];
  double info[UMFPACK_INFO];
  void* symbolic;
  void* numeric;
  const double* Ax;  // values of the last factorization
  double* x;         // n: solution scratch
  double* udiag;     // n: diagonal of U (singular column lookup)
  int* Q;            // n: column permutation
} umfData;


static int umf_analyze(rdLinSol* s) {
  umfData* u = rd_calloc(s->ctx, 1, sizeof(umfData));
  if (!u) {
    return RD_ERR_NOMEM;
  }
  s->impl = u;
  u->x = rd_calloc(s->ctx, (size_t)s->n + 1, sizeof(double));
  u->udiag = rd_calloc(s->ctx, (size_t)s->n + 1, sizeof(double));
  u->Q = rd_calloc(s->ctx, (size_t)s->n + 1, sizeof(int));
  if (!u->x || !u->udiag || !u->Q) {
    return RD_ERR_NOMEM;
  }
  u->lib = rd_umfpack(s->ctx);
  if (!u->lib) {
    return RD_ERR_IO;
  }
  u->lib->defaults(u->control);
  u->control[UMFPACK_IRSTEP] = 0;  // the caller may reuse a factorization for new values
  int st = u->lib->symbolic(s->n, s->n, s->Ap, s->Ai, NULL, &u->symbolic, u->control, u->info);
  if (st != UMFPACK_OK) {
    return RD_ERROR(s->ctx, st == UMFPACK_ERROR_out_of_memory ? RD_ERR_NOMEM : RD_ERR_LIBRARY,
                    "umfpack_di_symbolic failed (status %d)", st);
  }
  return RD_OK;
}


// the column of the first zero pivot, else of the smallest in magnitude (udiag in pivot
// order, pivot k in column Q[k]); -1 if UMFPACK cannot say
static int smallest_pivot(umfData* u, int n) {
  if (u->lib->get_numeric(NULL, NULL, NULL, NULL, NULL, NULL, NULL, u->Q, u->udiag, NULL, NULL,
                          u->numeric) != UMFPACK_OK) {
    return -1;
  }
  int best = 0;
  for (int k = 0; k < n && u->udiag[best] != 0; k++) {
    if (fabs(u->udiag[k]) < fabs(u->udiag[best])) {
      best = k;
    }
  }
  return n > 0 ? u->Q[best] : -1;
}


static int umf_factor(rdLinSol* s, const double* Ax) {
  umfData* u = s->impl;
  if (u->numeric) {
    u->lib->free_numeric(&u->numeric);
  }
  s->nfactor++;
  int st = u->lib->numeric(s->Ap, s->Ai, Ax, u->symbolic, &u->numeric, u->control, u->info);
  u->Ax = Ax;
  if (st == UMFPACK_WARNING_singular_matrix) {
    s->rcond = 0;
    s->singular_col = smallest_pivot(u, s->n);
    return RD_RECOVER_SINGULAR;
  }
  if (st != UMFPACK_OK) {
    return RD_ERROR(s->ctx, st == UMFPACK_ERROR_out_of_memory ? RD_ERR_NOMEM : RD_ERR_LIBRARY,
                    "umfpack_di_numeric failed (status %d)", st);
  }
  s->rcond = u->info[UMFPACK_RCOND];
  if (!(s->rcond > RD_LINSOL_RCOND_MIN)) {
    s->singular_col = smallest_pivot(u, s->n);
    return RD_RECOVER_SINGULAR;
  }
  return RD_OK;
}


static int umf_solve(rdLinSol* s, double* b) {
  umfData* u = s->impl;
  int st = u->lib->solve(UMFPACK_A, s->Ap, s->Ai, u->Ax, u->x, b, u->numeric, u->control, u->info);
  if (st != UMFPACK_OK) {
    return RD_ERROR(s->ctx, RD_ERR_LIBRARY, "umfpack_di_solve failed (status %d)", st);
  }
  memcpy(b, u->x, (size_t)s->n * sizeof(double));
  return RD_OK;
}


static void umf_destroy(rdLinSol* s) {
  umfData* u = s->impl;
  if (!u) {
    return;
  }
  if (u->numeric) {
    u->lib->free_numeric(&u->numeric);
  }
  if (u->symbolic) {
    u->lib->free_symbolic(&u->symbolic);
  }
  rd_free(s->ctx, u->x);
  rd_free(s->ctx, u->udiag);
  rd_free(s->ctx, u->Q);
  rd_free(s->ctx, u);
  s->impl = NULL;
}


const rdLinSolOps rd_linsolUmfpack = {"umfpack", umf_analyze, umf_factor, umf_solve, umf_destroy};
