// SPDX-License-Identifier: MIT
// Dense eigen-solutions of the reduced linearized equations (LAPACK dsygvd, dgeev, dggev).
#include "solver/eigen.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// after the headers above: lapacke.h brings complex.h, whose macro I clashes with names
#include <lapacke.h>

int rd_eigenAlloc(rdContext* ctx, int n, int count, rdEigen* out) {
  memset(out, 0, sizeof(*out));
  out->n = n;
  out->count = count;
  size_t c = (size_t)count + 1, z = (size_t)count * (size_t)n + 1;
  out->lre = rd_calloc(ctx, c, sizeof(double));
  out->lim = rd_calloc(ctx, c, sizeof(double));
  out->zre = rd_calloc(ctx, z, sizeof(double));
  out->zim = rd_calloc(ctx, z, sizeof(double));
  if (!out->lre || !out->lim || !out->zre || !out->zim) {
    rd_eigenFree(ctx, out);
    return RD_ERR_NOMEM;
  }
  out->converged = count;
  return RD_OK;
}


void rd_eigenFree(rdContext* ctx, rdEigen* e) {
  rd_free(ctx, e->lre);
  rd_free(ctx, e->lim);
  rd_free(ctx, e->zre);
  rd_free(ctx, e->zim);
  memset(e, 0, sizeof(*e));
}


// candidates sorted by |lambda|, then by Im (qsort context through a file-level pointer is not
// thread-safe: an insertion sort of indices instead, count is small against ncand)
int rd_eigenSelect(const double* lre, const double* lim, int ncand, int count, int* order) {
  int kept = 0;
  for (int i = 0; i < ncand; i++) {
    if (lim[i] < 0 || !isfinite(lre[i]) || !isfinite(lim[i])) {
      continue;
    }
    double a = hypot(lre[i], lim[i]);
    if (kept == count && a >= hypot(lre[order[kept - 1]], lim[order[kept - 1]])) {
      continue;
    }
    int j = kept < count ? kept++ : count - 1;
    while (j > 0 && hypot(lre[order[j - 1]], lim[order[j - 1]]) > a) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
  }
  return kept;
}


// the symmetric undamped problem: K z = w^2 M z with dsygvd; lambda = i w (w^2 >= 0) or
// sqrt(-w^2) (unstable). RD_OK, or 1 when M is not positive definite (try the general form)
static int dense_symmetric(rdContext* ctx, const rdCsc* M, const rdCsc* K, int count,
                           rdEigen* out) {
  int n = M->nrow;
  size_t nn = (size_t)n * (size_t)n;
  double* A = rd_alloc(ctx, sizeof(double) * (nn + 1));
  double* Bm = rd_alloc(ctx, sizeof(double) * (nn + 1));
  double* w = rd_alloc(ctx, sizeof(double) * ((size_t)n + 1));
  double* lre = rd_alloc(ctx, sizeof(double) * ((size_t)n + 1));
  double* lim = rd_alloc(ctx, sizeof(double) * ((size_t)n + 1));
  int* order = rd_alloc(ctx, sizeof(int) * ((size_t)count + 1));
  int st = A && Bm && w && lre && lim && order ? RD_OK : RD_ERR_NOMEM;
  if (st == RD_OK) {
    rd_cscToDense(K, A, n);
    rd_cscToDense(M, Bm, n);
    // the symmetric parts (dsygvd reads the upper triangles)
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < j; i++) {
        size_t u = (size_t)j * (size_t)n + (size_t)i, l = (size_t)i * (size_t)n + (size_t)j;
        A[u] = 0.5 * (A[u] + A[l]);
        Bm[u] = 0.5 * (Bm[u] + Bm[l]);
      }
    }
    lapack_int info = LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'U', n, A, n, Bm, n, w);
    if (info > n) {
      st = 1;  // M not positive definite
    } else if (info != 0) {
      st = RD_ERROR(ctx, RD_ERR_NUMERIC, "dsygvd failed (info %d)", (int)info);
    }
  }
  if (st == RD_OK) {
    for (int k = 0; k < n; k++) {
      lre[k] = w[k] < 0 ? sqrt(-w[k]) : 0;
      lim[k] = w[k] < 0 ? 0 : sqrt(w[k]);
    }
    int kept = rd_eigenSelect(lre, lim, n, count < n ? count : n, order);
    st = rd_eigenAlloc(ctx, n, kept, out);
    for (int k = 0; st == RD_OK && k < kept; k++) {
      int j = order[k];
      out->lre[k] = lre[j];
      out->lim[k] = lim[j];
      memcpy(out->zre + (size_t)k * (size_t)n, A + (size_t)j * (size_t)n,
             sizeof(double) * (size_t)n);
    }
  }
  rd_free(ctx, A);
  rd_free(ctx, Bm);
  rd_free(ctx, w);
  rd_free(ctx, lre);
  rd_free(ctx, lim);
  rd_free(ctx, order);
  return st;
}


// candidate j of a first-order eigenproblem of size 2n (eigenvectors in V, column-major; a
// complex pair in the consecutive columns i, i + 1 with lim[i] != 0, as LAPACK stores them:
// V(:, i) +- i V(:, i + 1)) as pair k: z = the first n components, mapped by L^-T if L != NULL
static void store_pair(rdEigen* out, int k, int j, const double* lre, const double* lim,
                       const double* V, const int* first, int n, const double* L) {
  size_t ld = 2 * (size_t)n;
  double* zr = out->zre + (size_t)k * (size_t)n;
  double* zi = out->zim + (size_t)k * (size_t)n;
  out->lre[k] = lre[j];
  out->lim[k] = lim[j];
  int i = first[j];
  memcpy(zr, V + (size_t)i * ld, sizeof(double) * (size_t)n);
  if (lim[j] != 0) {
    double sign = j == i ? 1 : -1;
    for (int r = 0; r < n; r++) {
      zi[r] = sign * V[(size_t)(i + 1) * ld + (size_t)r];
    }
  }
  if (L) {
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, n, L, n, zr, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, n, L, n, zi, 1);
  }
}


// first[i]: the column where the eigenvector of candidate i starts (LAPACK stores a complex
// pair in consecutive columns, the first with lim > 0)
static void pair_storage(const double* lim, int n2, int* first) {
  for (int i = 0; i < n2; i++) {
    first[i] = i;
    if (lim[i] != 0 && i + 1 < n2) {
      first[i + 1] = i;
      i++;
    }
  }
}


// the general problem on the first-order form (2n): Cholesky + dgeev, or dggev
static int dense_general(rdContext* ctx, const rdCsc* M, const rdCsc* D, const rdCsc* K, int count,
                         rdEigen* out) {
  int n = M->nrow, n2 = 2 * n;
  size_t nn = (size_t)n * (size_t)n, big = (size_t)n2 * (size_t)n2;
  double* L = rd_alloc(ctx, sizeof(double) * (nn + 1));
  double* Kd = rd_alloc(ctx, sizeof(double) * (nn + 1));
  double* Dd = rd_alloc(ctx, sizeof(double) * (nn + 1));
  double* A = rd_calloc(ctx, big + 1, sizeof(double));
  double* E = NULL;
  double* V = rd_alloc(ctx, sizeof(double) * (big + 1));
  double* lre = rd_alloc(ctx, sizeof(double) * ((size_t)n2 + 1));
  double* lim = rd_alloc(ctx, sizeof(double) * ((size_t)n2 + 1));
  double* beta = rd_alloc(ctx, sizeof(double) * ((size_t)n2 + 1));
  int* order = rd_alloc(ctx, sizeof(int) * ((size_t)count + 1));
  int* first = rd_alloc(ctx, sizeof(int) * ((size_t)n2 + 1));
  int st = L && Kd && Dd && A && V && lre && lim && beta && order && first ? RD_OK : RD_ERR_NOMEM;
  int chol = 0;
  if (st == RD_OK) {
    rd_cscToDense(M, L, n);
    rd_cscToDense(K, Kd, n);
    rd_cscToDense(D, Dd, n);
    // M = L L^T on the symmetric part of M
    for (int j = 0; j < n; j++) {
      for (int i = j + 1; i < n; i++) {
        size_t lo = (size_t)j * (size_t)n + (size_t)i, up = (size_t)i * (size_t)n + (size_t)j;
        L[lo] = 0.5 * (L[lo] + L[up]);
        L[up] = 0;
      }
    }
    chol = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, L, n) == 0;
  }
  if (st == RD_OK && chol) {
    // K^ = L^-1 K L^-T, D^ likewise, then A = [0 I; -K^ -D^]
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, n, 1, L, n, Kd,
                n);
    cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, n, n, 1, L, n, Kd,
                n);
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, n, 1, L, n, Dd,
                n);
    cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, n, n, 1, L, n, Dd,
                n);
  }
  if (st == RD_OK) {
    for (int j = 0; j < n; j++) {
      A[(size_t)(n + j) * (size_t)n2 + (size_t)j] = 1;
      for (int i = 0; i < n; i++) {
        A[(size_t)j * (size_t)n2 + (size_t)(n + i)] = -Kd[(size_t)j * (size_t)n + (size_t)i];
        A[(size_t)(n + j) * (size_t)n2 + (size_t)(n + i)] = -Dd[(size_t)j * (size_t)n + (size_t)i];
      }
    }
    lapack_int info;
    if (chol) {
      info = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'V', n2, A, n2, lre, lim, NULL, n2, V, n2);
      pair_storage(lim, n2, first);
    } else {
      E = rd_calloc(ctx, big + 1, sizeof(double));
      if (!E) {
        st = RD_ERR_NOMEM;
      } else {
        rd_cscToDense(M, Kd, n);
        for (int j = 0; j < n; j++) {
          E[(size_t)j * (size_t)n2 + (size_t)j] = 1;
          for (int i = 0; i < n; i++) {
            E[(size_t)(n + j) * (size_t)n2 + (size_t)(n + i)] =
                Kd[(size_t)j * (size_t)n + (size_t)i];
          }
        }
      }
      info = st != RD_OK ? 0
                         : LAPACKE_dggev(LAPACK_COL_MAJOR, 'N', 'V', n2, A, n2, E, n2, lre, lim,
                                         beta, NULL, n2, V, n2);
      pair_storage(lim, n2, first);
      // finite eigenvalues only: alpha / beta
      for (int k = 0; st == RD_OK && info == 0 && k < n2; k++) {
        double a = hypot(lre[k], lim[k]);
        if (fabs(beta[k]) <= 1e-13 * a || beta[k] == 0) {
          lre[k] = lim[k] = NAN;
        } else {
          lre[k] /= beta[k];
          lim[k] /= beta[k];
        }
      }
    }
    if (st == RD_OK && info != 0) {
      st =
          RD_ERROR(ctx, RD_ERR_NUMERIC, "%s failed (info %d)", chol ? "dgeev" : "dggev", (int)info);
    }
  }
  if (st == RD_OK) {
    int kept = rd_eigenSelect(lre, lim, n2, count < n2 ? count : n2, order);
    st = rd_eigenAlloc(ctx, n, kept, out);
    for (int k = 0; st == RD_OK && k < kept; k++) {
      store_pair(out, k, order[k], lre, lim, V, first, n, chol ? L : NULL);
    }
  }
  rd_free(ctx, L);
  rd_free(ctx, Kd);
  rd_free(ctx, Dd);
  rd_free(ctx, A);
  rd_free(ctx, E);
  rd_free(ctx, V);
  rd_free(ctx, lre);
  rd_free(ctx, lim);
  rd_free(ctx, beta);
  rd_free(ctx, order);
  rd_free(ctx, first);
  return st;
}


int rd_eigenDense(rdContext* ctx, const rdCsc* M, const rdCsc* D, const rdCsc* K,
                  const rdEigenOpts* o, rdEigen* out) {
  memset(out, 0, sizeof(*out));
  int count = o->count > 0 ? o->count : 1;
  if (o->symmetric) {
    int st = dense_symmetric(ctx, M, K, count, out);
    if (st != 1) {
      return st;
    }
  }
  return dense_general(ctx, M, D, K, count, out);
}
