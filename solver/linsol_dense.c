// SPDX-License-Identifier: MIT
// Dense LU backend: its own right-looking LU with partial pivoting up to
// RD_LINSOL_DENSE_OWN_MAX unknowns, with the condition from the pivot ratio, confirmed by a
// 1-norm estimate when the ratio is small (as the KLU backend does with klu_condest); LAPACKE
// dgetrf/dgecon/dgetrs above.
//
// Below a few dozen unknowns the LAPACK calls cost more than their arithmetic: on the heavy
// top's 9 x 9 iteration matrix one dgetrf + dgecon + dgetrs through OpenBLAS is 35 k
// instructions, the loops below 3.4 k (docs/performance.md, "Backends on small models"),
// and loading LAPACK loads OpenBLAS, which starts threads.
#include <math.h>
#include <string.h>

#include "solver/linsol.h"
#include "src/math/blk.h"
#include "src/math/simd.h"

// last: lapacke.h brings complex.h
#include "src/core/lapack.h"

typedef struct {
  const rdLapack* la;  // NULL with the own LU
  double* A;           // n x n column-major: the LU factors, dgetrf's layout
  lapack_int* ipiv;    // n: row interchanges, 1-based
  // dgecon's (or inv_norm1's) workspace, made here: LAPACKE_dgecon would allocate it at every
  // factorization
  double* work;       // 4 n
  lapack_int* iwork;  // n
} denseData;


static int own_lu(const rdLinSol* s) {
  return s->n <= RD_LINSOL_DENSE_OWN_MAX;
}


static int dense_analyze(rdLinSol* s) {
  denseData* dd = rd_calloc(s->ctx, 1, sizeof(denseData));
  if (!dd) {
    return RD_ERR_NOMEM;
  }
  s->impl = dd;
  if (!own_lu(s)) {
    dd->la = rd_lapack(s->ctx, "solver.linear_solver = dense");
    if (!dd->la) {
      return RD_ERR_IO;
    }
  }
  size_t n = (size_t)s->n;
  dd->A = rd_calloc(s->ctx, n * n + 1, sizeof(double));
  dd->ipiv = rd_calloc(s->ctx, n + 1, sizeof(lapack_int));
  dd->work = rd_calloc(s->ctx, 4 * n + 1, sizeof(double));
  dd->iwork = rd_calloc(s->ctx, n + 1, sizeof(lapack_int));
  return dd->A && dd->ipiv && dd->work && dd->iwork ? RD_OK : RD_ERR_NOMEM;
}


// y[i] -= x[i] u for i in [i0, n): four at a time (rdV4), in the clones of the caller
RD_HOT void column_update(double* y, const double* x, double u, int i0, int n) {
  int i = i0;
  rdV4 b = V4B(u);
  for (; i + 4 <= n; i += 4) {
    V4ST(y + i, V4LD(y + i) - V4LD(x + i) * b);
  }
  for (; i < n; i++) {
    y[i] -= x[i] * u;
  }
}


// LU with partial pivoting of the n x n column-major A in place, in dgetrf's layout (unit lower
// L below the diagonal, U on and above it, ipiv 1-based); 0, or k + 1 for a zero pivot in
// column k (the factorization stops there). Zero multipliers skip their column update: the
// iteration matrices have empty blocks (the multipliers') and zero rows within node blocks
RD_CLONES static int lu_factor(int n, double* A, lapack_int* ipiv) {
  for (int k = 0; k < n; k++) {
    double* ck = A + (size_t)k * (size_t)n;
    int p = k;
    double big = fabs(ck[k]);
    for (int i = k + 1; i < n; i++) {
      if (fabs(ck[i]) > big) {
        big = fabs(ck[i]);
        p = i;
      }
    }
    ipiv[k] = p + 1;
    if (big == 0) {
      return k + 1;
    }
    if (p != k) {
      for (int j = 0; j < n; j++) {
        double* cj = A + (size_t)j * (size_t)n;
        double t = cj[k];
        cj[k] = cj[p];
        cj[p] = t;
      }
    }
    double inv = 1 / ck[k];
    for (int i = k + 1; i < n; i++) {
      ck[i] *= inv;
    }
    for (int j = k + 1; j < n; j++) {
      double* cj = A + (size_t)j * (size_t)n;
      double u = cj[k];
      if (u != 0) {
        column_update(cj, ck, u, k + 1, n);
      }
    }
  }
  return 0;
}


// solve with lu_factor's factors, b in place
RD_CLONES static void lu_solve(int n, const double* A, const lapack_int* ipiv, double* b) {
  for (int k = 0; k < n; k++) {
    int p = ipiv[k] - 1;
    if (p != k) {
      double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
  for (int k = 0; k < n; k++) {
    const double* ck = A + (size_t)k * (size_t)n;
    double x = b[k];
    if (x != 0) {
      column_update(b, ck, x, k + 1, n);
    }
  }
  for (int k = n - 1; k >= 0; k--) {
    const double* ck = A + (size_t)k * (size_t)n;
    double x = b[k] /= ck[k];
    if (x != 0) {
      column_update(b, ck, x, 0, k);
    }
  }
}


// solve A^T x = b in place with lu_factor's factors: A = P L U, so U^T w = b, L^T v = w, x = P v
static void lu_solve_trans(int n, const double* A, const lapack_int* ipiv, double* b) {
  for (int k = 0; k < n; k++) {
    const double* ck = A + (size_t)k * (size_t)n;
    double t = b[k];
    for (int i = 0; i < k; i++) {
      t -= ck[i] * b[i];
    }
    b[k] = t / ck[k];
  }
  for (int k = n - 1; k >= 0; k--) {
    const double* ck = A + (size_t)k * (size_t)n;
    double t = b[k];
    for (int i = k + 1; i < n; i++) {
      t -= ck[i] * b[i];
    }
    b[k] = t;
  }
  for (int k = n - 1; k >= 0; k--) {
    int p = ipiv[k] - 1;
    if (p != k) {
      double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
}


static double norm1(int n, const double* x) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += fabs(x[i]);
  }
  return s;
}


// a lower estimate of the 1-norm of A^-1 from lu_factor's factors: Hager's method with
// Higham's refinements (Higham, "FORTRAN codes for estimating the one-norm of a real or complex
// matrix", ACM TOMS 14, 1988; LAPACK's dlacn2, which dgecon uses), a few solves with A and A^T
// instead of LAPACK's calls (about ten times the arithmetic at these sizes) and its loading; w: 2 n
static double inv_norm1(int n, const double* A, const lapack_int* ipiv, double* w) {
  double *x = w, *z = w + n;
  for (int i = 0; i < n; i++) {
    x[i] = 1.0 / n;
  }
  lu_solve(n, A, ipiv, x);
  double est = norm1(n, x);
  int last = -1;
  for (int it = 0; it < 5; it++) {
    for (int i = 0; i < n; i++) {
      z[i] = x[i] >= 0 ? 1 : -1;
    }
    lu_solve_trans(n, A, ipiv, z);
    int j = 0;
    for (int i = 1; i < n; i++) {
      j = fabs(z[i]) > fabs(z[j]) ? i : j;
    }
    if (j == last) {
      break;
    }
    memset(x, 0, (size_t)n * sizeof(double));
    x[j] = 1;
    lu_solve(n, A, ipiv, x);
    double e = norm1(n, x);
    if (e <= est) {
      break;
    }
    est = e;
    last = j;
  }
  // Higham's alternating vector catches what the iteration misses
  for (int i = 0; i < n; i++) {
    x[i] = (i % 2 ? -1 : 1) * (1 + (double)i / (n > 1 ? n - 1 : 1));
  }
  lu_solve(n, A, ipiv, x);
  double alt = 2 * norm1(n, x) / (3.0 * n);
  return alt > est ? alt : est;
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
    anorm = col > anorm ? col : anorm;
  }
  s->nfactor++;
  if (n == 0) {
    s->rcond = 1;
    return RD_OK;
  }
  lapack_int info = own_lu(s) ? lu_factor(n, dd->A, dd->ipiv)
                              : dd->la->dgetrf(LAPACK_COL_MAJOR, n, n, dd->A, n, dd->ipiv);
  if (info < 0) {
    return RD_ERROR(s->ctx, RD_ERR_LIBRARY, "dgetrf: bad argument %d", (int)-info);
  }
  if (info > 0) {
    s->singular_col = (int)info - 1;
    s->rcond = 0;
    return RD_RECOVER_SINGULAR;
  }
  // the pivot ratio when it is comfortable, else a 1-norm estimate: inv_norm1 with the own LU,
  // dgecon (always) with LAPACK's
  int worst = 0;
  double umax = 0;
  for (int i = 0; i < n; i++) {
    double u = fabs(dd->A[(size_t)i * (size_t)n + (size_t)i]);
    umax = u > umax ? u : umax;
    if (u < fabs(dd->A[(size_t)worst * (size_t)n + (size_t)worst])) {
      worst = i;
    }
  }
  s->rcond = fabs(dd->A[(size_t)worst * (size_t)n + (size_t)worst]) / umax;
  if (own_lu(s) && !(s->rcond > RD_LINSOL_PIVOT_RATIO_OK)) {
    double inv = inv_norm1(n, dd->A, dd->ipiv, dd->work);
    s->rcond = anorm > 0 && inv > 0 && isfinite(inv) ? 1 / (anorm * inv) : 0;
  } else if (!own_lu(s)) {
    double rcond = 0;
    info =
        dd->la->dgecon_work(LAPACK_COL_MAJOR, '1', n, dd->A, n, anorm, &rcond, dd->work, dd->iwork);
    s->rcond = info == 0 ? rcond : 0;
  }
  if (!(s->rcond > RD_LINSOL_RCOND_MIN)) {
    // the smallest pivot points at the most dependent column
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
  if (own_lu(s)) {
    lu_solve(s->n, dd->A, dd->ipiv, b);
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
