// SPDX-License-Identifier: MIT
// Dense LU backend (LAPACKE dgetrf/dgetrs/dgecon): reference for tests and tiny models.
#include <math.h>
#include <string.h>

#include "solver/linsol.h"

// last: lapacke.h brings complex.h
#include "src/core/lapack.h"

typedef struct {
  const rdLapack* la;
  double* A;  // n x n column-major
  lapack_int* ipiv;
  // dgecon's workspace, made here: LAPACKE_dgecon would allocate it at every factorization
  double* work;       // 4 n
  lapack_int* iwork;  // n
} denseData;


static int dense_analyze(rdLinSol* s) {
  denseData* dd = rd_calloc(s->ctx, 1, sizeof(denseData));
  if (!dd) {
    return RD_ERR_NOMEM;
  }
  s->impl = dd;
  dd->la = rd_lapack(s->ctx, "solver.linear_solver = dense");
  if (!dd->la) {
    return RD_ERR_IO;
  }
  size_t n = (size_t)s->n;
  dd->A = rd_calloc(s->ctx, n * n + 1, sizeof(double));
  dd->ipiv = rd_calloc(s->ctx, n + 1, sizeof(lapack_int));
  dd->work = rd_calloc(s->ctx, 4 * n + 1, sizeof(double));
  dd->iwork = rd_calloc(s->ctx, n + 1, sizeof(lapack_int));
  return dd->A && dd->ipiv && dd->work && dd->iwork ? RD_OK : RD_ERR_NOMEM;
}


static int dense_factor(rdLinSol* s, const double* Ax) {
  denseData* dd = s->impl;
  int n = s->n;
  memset(dd->A, 0, (size_t)n * (size_t)n * sizeof(double));
  double anorm = 0;  // 1-norm
  for (int c = 0; c < n; c++) {
    double col = 0;
    for (int p = s->Ap[c]; p < s->Ap[c + 1]; p++) {
      dd->A[(size_t)c * (size_t)n + (size_t)s->Ai[p]] = Ax[p];
      col += fabs(Ax[p]);
    }
    anorm = fmax(anorm, col);
  }
  s->nfactor++;
  if (n == 0) {
    s->rcond = 1;
    return RD_OK;
  }
  lapack_int info = dd->la->dgetrf(LAPACK_COL_MAJOR, n, n, dd->A, n, dd->ipiv);
  if (info < 0) {
    return RD_ERROR(s->ctx, RD_ERR_LIBRARY, "dgetrf: bad argument %d", (int)-info);
  }
  if (info > 0) {
    s->singular_col = (int)info - 1;
    s->rcond = 0;
    return RD_RECOVER_SINGULAR;
  }
  double rcond = 0;
  info =
      dd->la->dgecon_work(LAPACK_COL_MAJOR, '1', n, dd->A, n, anorm, &rcond, dd->work, dd->iwork);
  s->rcond = info == 0 ? rcond : 0;
  if (!(s->rcond > RD_LINSOL_RCOND_MIN)) {
    // the smallest pivot points at the most dependent column
    int worst = 0;
    for (int i = 1; i < n; i++) {
      if (fabs(dd->A[(size_t)i * (size_t)n + (size_t)i]) <
          fabs(dd->A[(size_t)worst * (size_t)n + (size_t)worst])) {
        worst = i;
      }
    }
    s->singular_col = worst;
    return RD_RECOVER_SINGULAR;
  }
  return RD_OK;
}


static int dense_solve(rdLinSol* s, double* b) {
  denseData* dd = s->impl;
  if (s->n == 0) {
    return RD_OK;
  }
  lapack_int info = dd->la->dgetrs(LAPACK_COL_MAJOR, 'N', s->n, 1, dd->A, s->n, dd->ipiv, b, s->n);
  return info == 0 ? RD_OK : RD_ERROR(s->ctx, RD_ERR_LIBRARY, "dgetrs failed (%d)", (int)info);
}


static void dense_destroy(rdLinSol* s) {
  denseData* dd = s->impl;
  if (!dd) {
    return;
  }
  rd_free(s->ctx, dd->A);
  rd_free(s->ctx, dd->ipiv);
  rd_free(s->ctx, dd->work);
  rd_free(s->ctx, dd->iwork);
  rd_free(s->ctx, dd);
  s->impl = NULL;
}


const rdLinSolOps rd_linsolDense = {"dense", dense_analyze, dense_factor, dense_solve,
                                    dense_destroy};
