// SPDX-License-Identifier: MIT
// Dense eigen-solutions of the reduced linearized equations (LAPACK dsygvd, dgeev, dggev).
#include "solver/eigen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// last: lapacke.h brings complex.h, whose macro I clashes with names (LAPACKE is loaded when first
// used, src/core/lapack.h)
#include "src/core/lapack.h"

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


double rd_eigenScale(const rdCsc* M, const rdCsc* K) {
  double big = 0;
  for (int j = 0; j < K->ncol; j++) {
    double k = 0, m = 0;
    for (int p = K->Ap[j]; p < K->Ap[j + 1]; p++) {
      k = K->Ai[p] == j ? K->Ax[p] : k;
    }
    for (int p = M->Ap[j]; p < M->Ap[j + 1]; p++) {
      m = M->Ai[p] == j ? M->Ax[p] : m;
    }
    if (m > 0 && k / m > big) {
      big = k / m;
    }
  }
  return big;
}


// the dense symmetric parts of A and B (column-major, n x n), upper triangles filled
static void dense_symmetric_parts(const rdCsc* A, const rdCsc* B, double* Ad, double* Bd) {
  int n = A->nrow;
  rd_cscToDense(A, Ad, n);
  rd_cscToDense(B, Bd, n);
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < j; i++) {
      size_t u = (size_t)j * (size_t)n + (size_t)i, l = (size_t)i * (size_t)n + (size_t)j;
      Ad[u] = Ad[l] = 0.5 * (Ad[u] + Ad[l]);
      Bd[u] = Bd[l] = 0.5 * (Bd[u] + Bd[l]);
    }
  }
}


// the symmetric undamped problem K z = w^2 M z, shift-inverted: M z = mu (K - sigma M) z with
// dsygvd, w^2 = sigma + 1 / mu; if K - sigma M is not positive definite, K z = w^2 M z itself.
// lambda = i w (w^2 >= 0) or sqrt(-w^2) (unstable). RD_OK, or 1 when M is not positive definite
// either (try the general form)
static int dense_symmetric(rdContext* ctx, const rdLapack* la, const rdCsc* M, const rdCsc* K,
                           int count, rdEigen* out) {
  int n = M->nrow;
  size_t nn = (size_t)n * (size_t)n;
  double* A = rd_alloc(ctx, sizeof(double) * (nn + 1));
  double* Bm = rd_alloc(ctx, sizeof(double) * (nn + 1));
  double* w = rd_alloc(ctx, sizeof(double) * ((size_t)n + 1));
  double* lre = rd_alloc(ctx, sizeof(double) * ((size_t)n + 1));
  double* lim = rd_alloc(ctx, sizeof(double) * ((size_t)n + 1));
  int* order = rd_alloc(ctx, sizeof(int) * ((size_t)count + 1));
  int st = A && Bm && w && lre && lim && order ? RD_OK : RD_ERR_NOMEM;
  double rho = rd_eigenScale(M, K), sigma = -RD_EIGEN_SHIFT * (rho > 0 ? rho : 1);
  int shifted = 1;
  if (st == RD_OK) {
    // A = M, B = K - sigma M
    dense_symmetric_parts(M, K, A, Bm);
    for (size_t k = 0; k < nn; k++) {
      Bm[k] -= sigma * A[k];
    }
    lapack_int info = la->dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'U', n, A, n, Bm, n, w);
    if (info > n) {
      // K - sigma M indefinite (prestress beyond buckling, an unstable state): unshifted
      shifted = 0;
      dense_symmetric_parts(K, M, A, Bm);
      info = la->dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'U', n, A, n, Bm, n, w);
      st = info > n ? 1 : RD_OK;  // M not positive definite
    }
    if (st == RD_OK && info != 0) {
      st = RD_ERROR(ctx, RD_ERR_NUMERIC, "dsygvd failed (info %d)", (int)info);
    }
  }
  if (st == RD_OK) {
    for (int k = 0; k < n; k++) {
      double w2 = shifted ? (w[k] > 0 ? sigma + 1 / w[k] : INFINITY) : w[k];
      lre[k] = w2 < 0 ? sqrt(-w2) : 0;
      lim[k] = w2 < 0 ? 0 : sqrt(w2);
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
    if (st == RD_OK) {
      out->sigma = shifted ? sigma : 0;
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


void rd_eigenStorePair(rdEigen* out, int k, int j, const double* lre, const double* lim,
                       const double* V, size_t ld, int ncol, const int* first) {
  int n = out->n;
  double* zr = out->zre + (size_t)k * (size_t)n;
  double* zi = out->zim + (size_t)k * (size_t)n;
  out->lre[k] = lre[j];
  out->lim[k] = lim[j];
  int i = first[j];
  memcpy(zr, V + (size_t)i * ld, sizeof(double) * (size_t)n);
  if (lim[j] != 0 && i + 1 < ncol) {
    double sign = j == i ? 1 : -1;
    for (int r = 0; r < n; r++) {
      zi[r] = sign * V[(size_t)(i + 1) * ld + (size_t)r];
    }
  }
}


void rd_eigenPairStorage(const double* im, int ncand, int* first) {
  for (int i = 0; i < ncand; i++) {
    first[i] = i;
    if (im[i] != 0 && i + 1 < ncand) {
      first[i + 1] = i;
      i++;
    }
  }
}


// the general problem, shift-inverted on the first-order form (2n): the eigenvalues nu of
// OP = (A - sigma E)^-1 E, A = [0 I; -K -D], E = diag(I, M), with dgeev; lambda = sigma + 1/nu.
// OP = [-X1, -X2; I - sigma X1, -sigma X2] with X1 = P^-1 (D + sigma M), X2 = P^-1 M and
// P = K + sigma D + sigma^2 M (one LU, dgesv). nu = 0 (infinite lambda: massless unknowns) is
// left out.
static int dense_general(rdContext* ctx, const rdLapack* la, const rdCsc* M, const rdCsc* D,
                         const rdCsc* K, int count, rdEigen* out) {
  int n = M->nrow, n2 = 2 * n;
  size_t nn = (size_t)n * (size_t)n, big = (size_t)n2 * (size_t)n2;
  double* P = rd_alloc(ctx, sizeof(double) * (nn + 1));
  double* X = rd_alloc(ctx, sizeof(double) * (2 * nn + 1));
  double* T = rd_alloc(ctx, sizeof(double) * (nn + 1));
  double* A = rd_calloc(ctx, big + 1, sizeof(double));
  double* V = rd_alloc(ctx, sizeof(double) * (big + 1));
  double* lre = rd_alloc(ctx, sizeof(double) * ((size_t)n2 + 1));
  double* lim = rd_alloc(ctx, sizeof(double) * ((size_t)n2 + 1));
  int* order = rd_alloc(ctx, sizeof(int) * ((size_t)count + 1));
  int* first = rd_alloc(ctx, sizeof(int) * ((size_t)n2 + 1));
  lapack_int* ipiv = rd_alloc(ctx, sizeof(lapack_int) * ((size_t)n + 1));
  int st = P && X && T && A && V && lre && lim && order && first && ipiv ? RD_OK : RD_ERR_NOMEM;
  double rho = rd_eigenScale(M, K), sigma = -sqrt(RD_EIGEN_SHIFT * (rho > 0 ? rho : 1));
  for (int attempt = 0; st == RD_OK && attempt < 3; attempt++) {
    // P = K + sigma D + sigma^2 M; X = [D + sigma M, M]
    rd_cscToDense(K, P, n);
    rd_cscToDense(D, X, n);
    rd_cscToDense(M, X + nn, n);
    for (size_t k = 0; k < nn; k++) {
      P[k] += sigma * X[k] + sigma * sigma * X[nn + k];
      X[k] += sigma * X[nn + k];
    }
    lapack_int info = la->dgesv(LAPACK_COL_MAJOR, n, 2 * n, P, n, ipiv, X, n);
    if (info == 0) {
      break;
    }
    if (info < 0 || attempt == 2) {
      st = RD_ERROR(ctx, RD_ERR_NUMERIC, "modes: the shifted matrix is singular (dgesv info %d)",
                    (int)info);
    }
    sigma *= 3.7;  // an eigenvalue at the shift: move it
  }
  if (st == RD_OK) {
    const double *X1 = X, *X2 = X + nn;
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) {
        size_t s = (size_t)j * (size_t)n + (size_t)i;
        A[(size_t)j * (size_t)n2 + (size_t)i] = -X1[s];
        A[(size_t)(n + j) * (size_t)n2 + (size_t)i] = -X2[s];
        A[(size_t)j * (size_t)n2 + (size_t)(n + i)] = (i == j) - sigma * X1[s];
        A[(size_t)(n + j) * (size_t)n2 + (size_t)(n + i)] = -sigma * X2[s];
      }
    }
    lapack_int info = la->dgeev(LAPACK_COL_MAJOR, 'N', 'V', n2, A, n2, lre, lim, NULL, n2, V, n2);
    if (info != 0) {
      st = RD_ERROR(ctx, RD_ERR_NUMERIC, "dgeev failed (info %d)", (int)info);
    }
  }
  if (st == RD_OK) {
    rd_eigenPairStorage(lim, n2, first);
    // nu -> lambda = sigma + 1 / nu (nu = 0: infinite, left out)
    for (int k = 0; k < n2; k++) {
      double den = lre[k] * lre[k] + lim[k] * lim[k];
      if (den > 0) {
        lre[k] = sigma + lre[k] / den;
        lim[k] = -lim[k] / den;
      } else {
        lre[k] = lim[k] = NAN;
      }
    }
    int kept = rd_eigenSelect(lre, lim, n2, count < n2 ? count : n2, order);
    st = rd_eigenAlloc(ctx, n, kept, out);
    for (int k = 0; st == RD_OK && k < kept; k++) {
      rd_eigenStorePair(out, k, order[k], lre, lim, V, (size_t)n2, n2, first);
    }
    if (st == RD_OK) {
      out->sigma = sigma;
    }
  }
  rd_free(ctx, P);
  rd_free(ctx, X);
  rd_free(ctx, T);
  rd_free(ctx, A);
  rd_free(ctx, V);
  rd_free(ctx, lre);
  rd_free(ctx, lim);
  rd_free(ctx, order);
  rd_free(ctx, first);
  rd_free(ctx, ipiv);
  return st;
}


int rd_eigenDense(rdContext* ctx, const rdCsc* M, const rdCsc* D, const rdCsc* K,
                  const rdEigenOpts* o, rdEigen* out) {
  memset(out, 0, sizeof(*out));
  int count = o->count > 0 ? o->count : 1;
  const rdLapack* la = rd_lapack(ctx, "the dense eigen-solver");
  if (!la) {
    return RD_ERR_IO;
  }
  if (o->symmetric) {
    int st = dense_symmetric(ctx, la, M, K, count, out);
    if (st != 1) {
      return st;
    }
  }
  return dense_general(ctx, la, M, D, K, count, out);
}
