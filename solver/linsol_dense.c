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
  // the own LU: n x ld row-major (ld: n rounded up to 4, the padding columns zero), the unit
  // lower L below the diagonal and U on and above it; LAPACK's: n x n column-major, dgetrf's
  double* A;
  int ld;  // row stride of the own LU's A
  // the own LU's copy of the CSC values: the offset in A of every entry, and the offsets
  // outside the pattern, which the last factorization filled in (the padding included)
  int* at;    // Ap[n]
  int* fill;  // nfill
  int nfill;
  lapack_int* ipiv;  // n: row interchanges, 1-based, dgetrf's meaning
  // inv_norm1's (two padded vectors and two of n) or dgecon's workspace, made here:
  // LAPACKE_dgecon would allocate it at every factorization
  double* work;       // 4 ld + 4 n + 16: P_WORK(ld) of lu_factor, 2 ld + 2 n of inv_norm1
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
  dd->ld = own_lu(s) ? (s->n + 3) / 4 * 4 : s->n;
  size_t ld = (size_t)dd->ld;
  dd->A = rd_calloc(s->ctx, n * ld + 1, sizeof(double));
  dd->ipiv = rd_calloc(s->ctx, n + 1, sizeof(lapack_int));
  dd->work = rd_calloc(s->ctx, 4 * ld + 4 * n + 16, sizeof(double));
  dd->iwork = rd_calloc(s->ctx, n + 1, sizeof(lapack_int));
  if (!dd->A || !dd->ipiv || !dd->work || !dd->iwork) {
    return RD_ERR_NOMEM;
  }
  if (own_lu(s)) {
    // A marks the pattern here; the first copy of values overwrites every mark
    size_t nnz = (size_t)s->Ap[n];
    dd->at = rd_calloc(s->ctx, nnz + 1, sizeof(int));
    dd->fill = rd_calloc(s->ctx, n * ld - nnz + 1, sizeof(int));
    if (!dd->at || !dd->fill) {
      return RD_ERR_NOMEM;
    }
    for (int c = 0; c < s->n; c++) {
      for (int p = s->Ap[c]; p < s->Ap[c + 1]; p++) {
        dd->at[p] = s->Ai[p] * dd->ld + c;
        dd->A[dd->at[p]] = 1;
      }
    }
    for (size_t k = 0; k < n * ld; k++) {
      if (dd->A[k] == 0) {
        dd->fill[dd->nfill++] = (int)k;
      }
    }
  }
  return RD_OK;
}


// y[j] -= u x[j] over the four-aligned j in [j0, ld) (ld a multiple of 4): in the clones of
// the caller
RD_HOT void row_axpy(double* restrict y, const double* restrict x, double u, int j0, int ld) {
  rdV4 b = V4B(u);
  for (int j = j0; j < ld; j += 4) {
    V4ST(y + j, V4LD(y + j) - V4LD(x + j) * b);
  }
}


// the sum of a[j] x[j] over the four-aligned j in [j0, j1)
RD_HOT double row_dot(const double* restrict a, const double* restrict x, int j0, int j1) {
  rdV4 s = V4ZERO;
  for (int j = j0; j < j1; j += 4) {
    s += V4LD(a + j) * V4LD(x + j);
  }
  return (s[0] + s[1]) + (s[2] + s[3]);
}


// LU with partial pivoting of the n x ld row-major A in place (dd->A's layout); ipiv as
// dgetrf's; 0, or k + 1 for a zero pivot in column k (the factorization stops there).
// Right-looking in panels of four columns, one rdV4 wide. A panel is copied into P (4 columns
// of pld = ld + 4 rows, column-major: P_WORK(ld) doubles) and factored there column by column
// (pivot search, row swap, multipliers, the rank-1 update of the panel's later columns), all
// contiguous; then its U rows and the rows below it are updated by the four columns at once.
// Each entry takes the same multiply-subtracts, in the same order, as in the column-by-column
// algorithm. Terms with a zero multiplier or U entry (the iteration matrix's empty blocks) are
// skipped
#define P_WORK(ld) (4 * ((size_t)(ld) + 4))
RD_CLONES static int lu_factor(int n, int ld, double* A, lapack_int* ipiv, double* P) {
  size_t pld = (size_t)ld + 4;
  for (int K = 0; K < n; K += 4) {
    int kend = K + 4 < n ? K + 4 : n;
    for (int i = K; i < n; i++) {
      rdV4 v = V4LD(A + (size_t)i * (size_t)ld + (size_t)K);
      P[i] = v[0];
      P[pld + (size_t)i] = v[1];
      P[2 * pld + (size_t)i] = v[2];
      P[3 * pld + (size_t)i] = v[3];
    }
    for (int k = K; k < kend; k++) {
      double* col = P + (size_t)(k - K) * pld;
      // the pivot: the first row of the largest magnitude (NaN is never larger)
      int p = k;
      double big = fabs(col[k]);
      for (int r = k + 1; r < n; r++) {
        double a = fabs(col[r]);
        p = a > big ? r : p;
        big = a > big ? a : big;
      }
      ipiv[k] = p + 1;
      if (big == 0) {
        return k + 1;
      }
      if (p != k) {
        // whole rows of A (the panel's lanes there are stale, P has them) and of P
        double* rk = A + (size_t)k * (size_t)ld;
        double* rp = A + (size_t)p * (size_t)ld;
        for (int j = 0; j < ld; j += 4) {
          rdV4 t = V4LD(rk + j);
          V4ST(rk + j, V4LD(rp + j));
          V4ST(rp + j, t);
        }
        for (int c = 0; c < 4; c++) {
          double t = P[(size_t)c * pld + (size_t)k];
          P[(size_t)c * pld + (size_t)k] = P[(size_t)c * pld + (size_t)p];
          P[(size_t)c * pld + (size_t)p] = t;
        }
      }
      // multipliers and the rank-1 update of the later columns: four rows at a time, the
      // last step running into P's four spare rows
      rdV4 inv = V4B(1 / col[k]);
      for (int i = k + 1; i < n; i += 4) {
        V4ST(col + i, V4LD(col + i) * inv);
      }
      for (int c = k + 1 - K; c < kend - K; c++) {
        double* y = P + (size_t)c * pld;
        double u = y[k];
        if (u != 0) {
          rdV4 b = V4B(u);
          for (int i = k + 1; i < n; i += 4) {
            V4ST(y + i, V4LD(y + i) - V4LD(col + i) * b);
          }
        }
      }
    }
    for (int i = K; i < n; i++) {
      double* ri = A + (size_t)i * (size_t)ld + (size_t)K;
      V4ST(ri, ((rdV4){P[i], P[pld + (size_t)i], P[2 * pld + (size_t)i], P[3 * pld + (size_t)i]}));
    }
    int J = K + 4;
    if (J >= ld) {
      break;
    }
    // the panel's U rows right of it: the multipliers within the panel, in order
    for (int k = K + 1; k < kend; k++) {
      double* rk = A + (size_t)k * (size_t)ld;
      for (int q = K; q < k; q++) {
        double l = rk[q];
        if (l != 0) {
          row_axpy(rk, A + (size_t)q * (size_t)ld, l, J, ld);
        }
      }
    }
    // the rows below: four columns at a time (the panel is four wide here: a narrower last
    // panel leaves no columns right of it)
    const double* u0 = A + (size_t)K * (size_t)ld;
    const double *u1 = u0 + ld, *u2 = u1 + ld, *u3 = u2 + ld;
    for (int i = kend; i < n; i++) {
      double* ri = A + (size_t)i * (size_t)ld;
      double l0 = ri[K], l1 = ri[K + 1], l2 = ri[K + 2], l3 = ri[K + 3];
      if (l0 == 0 && l1 == 0 && l2 == 0 && l3 == 0) {
        continue;
      }
      rdV4 b0 = V4B(l0), b1 = V4B(l1), b2 = V4B(l2), b3 = V4B(l3);
      for (int j = J; j < ld; j += 4) {
        rdV4 a = V4LD(ri + j);
        a = a - V4LD(u0 + j) * b0;
        a = a - V4LD(u1 + j) * b1;
        a = a - V4LD(u2 + j) * b2;
        a = a - V4LD(u3 + j) * b3;
        V4ST(ri + j, a);
      }
    }
  }
  return 0;
}


// solve with lu_factor's factors, b (n) in place; w: 2 ld. Row by row, as dot products over
// the four-aligned stretch that holds the row's part of L (forward) or U (backward): the lanes
// outside it meet entries of y and x not yet computed, kept zero
RD_CLONES static void lu_solve(int n, int ld, const double* A, const lapack_int* ipiv, double* b,
                               double* w) {
  for (int k = 0; k < n; k++) {
    int p = ipiv[k] - 1;
    if (p != k) {
      double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
  double *y = w, *x = w + ld;
  for (int j = 0; j < 2 * ld; j++) {
    w[j] = 0;
  }
  for (int i = 0; i < n; i++) {
    y[i] = b[i] - row_dot(A + (size_t)i * (size_t)ld, y, 0, (i + 3) / 4 * 4);
  }
  for (int i = n - 1; i >= 0; i--) {
    const double* ri = A + (size_t)i * (size_t)ld;
    x[i] = (y[i] - row_dot(ri, x, (i + 1) / 4 * 4, ld)) / ri[i];
  }
  for (int i = 0; i < n; i++) {
    b[i] = x[i];
  }
}


// solve A^T x = b in place with lu_factor's factors: A = P L U, so U^T w = b, L^T v = w, x = P v
static void lu_solve_trans(int n, int ld, const double* A, const lapack_int* ipiv, double* b) {
  for (int k = 0; k < n; k++) {
    const double* rk = A + (size_t)k * (size_t)ld;
    double t = b[k] /= rk[k];
    for (int j = k + 1; j < n; j++) {
      b[j] -= rk[j] * t;
    }
  }
  for (int k = n - 1; k >= 0; k--) {
    const double* rk = A + (size_t)k * (size_t)ld;
    double t = b[k];
    for (int j = 0; j < k; j++) {
      b[j] -= rk[j] * t;
    }
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
// instead of LAPACK's calls (about ten times the arithmetic at these sizes) and its loading;
// w: 2 n + 2 ld
static double inv_norm1(int n, int ld, const double* A, const lapack_int* ipiv, double* w) {
  double *x = w, *z = w + n, *scratch = w + 2 * n;
  for (int i = 0; i < n; i++) {
    x[i] = 1.0 / n;
  }
  lu_solve(n, ld, A, ipiv, x, scratch);
  double est = norm1(n, x);
  int last = -1;
  for (int it = 0; it < 5; it++) {
    for (int i = 0; i < n; i++) {
      z[i] = x[i] >= 0 ? 1 : -1;
    }
    lu_solve_trans(n, ld, A, ipiv, z);
    int j = 0;
    for (int i = 1; i < n; i++) {
      j = fabs(z[i]) > fabs(z[j]) ? i : j;
    }
    if (j == last) {
      break;
    }
    memset(x, 0, (size_t)n * sizeof(double));
    x[j] = 1;
    lu_solve(n, ld, A, ipiv, x, scratch);
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
  lu_solve(n, ld, A, ipiv, x, scratch);
  double alt = 2 * norm1(n, x) / (3.0 * n);
  return alt > est ? alt : est;
}


// the 1-norm of the n x n CSC matrix (Ap, Ax)
static double csc_norm1(int n, const int* Ap, const double* Ax) {
  double anorm = 0;
  for (int c = 0; c < n; c++) {
    double col = 0;
    for (int p = Ap[c]; p < Ap[c + 1]; p++) {
      col += fabs(Ax[p]);
    }
    anorm = col > anorm ? col : anorm;
  }
  return anorm;
}


// the CSC values Ax into dd->A: the own LU's row-major copy through the offsets of analyze,
// which write every entry once (a memset and a scatter wrote the pattern's twice); LAPACK's
// column-major one zeroed, then scattered
static void csc_to_dense(const rdLinSol* s, denseData* dd, const double* Ax) {
  if (own_lu(s)) {
    double* restrict A = dd->A;
    const int* restrict fill = dd->fill;
    const int* restrict at = dd->at;
    RD_UNROLL
    for (int k = 0; k < dd->nfill; k++) {
      A[fill[k]] = 0;
    }
    RD_UNROLL
    for (int p = 0; p < s->Ap[s->n]; p++) {
      A[at[p]] = Ax[p];
    }
    return;
  }
  size_t n = (size_t)s->n;
  memset(dd->A, 0, n * n * sizeof(double));
  for (int c = 0; c < s->n; c++) {
    for (int p = s->Ap[c]; p < s->Ap[c + 1]; p++) {
      dd->A[(size_t)c * n + (size_t)s->Ai[p]] = Ax[p];
    }
  }
}


static int dense_factor(rdLinSol* s, const double* Ax) {
  denseData* dd = s->impl;
  int n = s->n, ld = dd->ld;
  csc_to_dense(s, dd, Ax);
  s->nfactor++;
  if (n == 0) {
    s->rcond = 1;
    return RD_OK;
  }
  lapack_int info = own_lu(s) ? lu_factor(n, ld, dd->A, dd->ipiv, dd->work)
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
  // dgecon (always) with LAPACK's (both layouts keep the diagonal at i (ld + 1))
  int worst = 0;
  double umax = 0;
  for (int i = 0; i < n; i++) {
    double u = fabs(dd->A[(size_t)i * (size_t)(ld + 1)]);
    umax = u > umax ? u : umax;
    if (u < fabs(dd->A[(size_t)worst * (size_t)(ld + 1)])) {
      worst = i;
    }
  }
  s->rcond = fabs(dd->A[(size_t)worst * (size_t)(ld + 1)]) / umax;
  if (own_lu(s) && !(s->rcond > RD_LINSOL_PIVOT_RATIO_OK)) {
    double anorm = csc_norm1(n, s->Ap, Ax);
    double inv = inv_norm1(n, ld, dd->A, dd->ipiv, dd->work);
    s->rcond = anorm > 0 && inv > 0 && isfinite(inv) ? 1 / (anorm * inv) : 0;
  } else if (!own_lu(s)) {
    double rcond = 0;
    info = dd->la->dgecon_work(LAPACK_COL_MAJOR, '1', n, dd->A, n, csc_norm1(n, s->Ap, Ax), &rcond,
                               dd->work, dd->iwork);
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
    lu_solve(s->n, dd->ld, dd->A, dd->ipiv, b, dd->work);
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
  rd_free(s->ctx, dd->at);
  rd_free(s->ctx, dd->fill);
  rd_free(s->ctx, dd);
  s->impl = NULL;
}


const rdLinSolOps rd_linsolDense = {"dense", dense_analyze, dense_factor, dense_solve,
                                    dense_destroy};
