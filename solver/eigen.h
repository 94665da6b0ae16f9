// SPDX-License-Identifier: MIT
// Eigen-solutions of the reduced linearized equations M z'' + D z' + K z = 0 (docs/modal.md):
// dense LAPACK (dsygvd for the symmetric undamped problem, dgeev / dggev on the first-order
// form otherwise) and ARPACK with shift-invert on a sparse factorization.
#ifndef RD_EIGEN_H
#define RD_EIGEN_H

#include "solver/csc.h"

// what to compute
typedef struct rdEigenOpts_ {
  int count;      // eigenpairs wanted: those of smallest |lambda| (of a conjugate pair, one)
  int symmetric;  // 1: D = 0 and M, K symmetric (K z = w^2 M z); 0: the quadratic problem
  double shift;   // symmetric and ARPACK only: target w^2 of the shift-invert (0: lowest)
  double tol;     // ARPACK's relative accuracy of the Ritz values (0: machine precision)
  int max_iter;   // ARPACK's restarts (0: 1000)
  int linsol;     // ARPACK: backend of the factorization (rdLinSolKind; AUTO: CHOLMOD for a
                  // symmetric problem, KLU otherwise)
} rdEigenOpts;

// eigenpairs: lambda (the root of det(lambda^2 M + lambda D + K) = 0) and z, sorted by |lambda|;
// of a complex pair only the one with Im lambda > 0
typedef struct rdEigen_ {
  int n;          // size of the reduced problem
  int count;      // pairs stored
  double* lre;    // count: Re lambda
  double* lim;    // count: Im lambda
  double* zre;    // count x n: Re z (pair k at k n)
  double* zim;    // count x n: Im z
  int converged;  // ARPACK: Ritz values that converged (dense: count)
  int restarts;   // ARPACK: restarts used (dense: 0)
  int products;   // ARPACK: applications of the operator (dense: 0)
  double sigma;   // the shift used (of w^2 for the symmetric problem, of lambda otherwise)
} rdEigen;

// the shift of the dense solvers, relative to the spectrum's scale rd_eigenScale: the low
// eigenvalues (rigid-body modes included) come out to round-off of the shift, not of the
// largest eigenvalue; the largest to a relative 1e-8 (w^2) or 1e-12 (lambda)
#define RD_EIGEN_SHIFT 1e-8

// the largest K_ii / M_ii over M_ii > 0 (0 if none): a scale of w^2
double rd_eigenScale(const rdCsc* M, const rdCsc* K);

// dense LAPACK with a spectral shift sigma: symmetric: M z = mu (K - sigma M) z with dsygvd,
// w^2 = sigma + 1 / mu, sigma = -RD_EIGEN_SHIFT rd_eigenScale (K z = w^2 M z when K - sigma M is
// not positive definite, the general form when M is not either); general: dgeev of the dense
// OP = (A - sigma E)^-1 E of the first-order form, A = [0 I; -K -D], E = diag(I, M),
// lambda = sigma + 1 / nu, sigma = -sqrt(RD_EIGEN_SHIFT rd_eigenScale) (infinite eigenvalues of
// a singular M are left out). RD_OK, RD_ERR_NOMEM, RD_ERR_NUMERIC (LAPACK failed).
int rd_eigenDense(rdContext* ctx, const rdCsc* M, const rdCsc* D, const rdCsc* K,
                  const rdEigenOpts* o, rdEigen* out);

// ARPACK, shift-invert with a real shift sigma on a sparse factorization: symmetric: dsaupd in
// mode 3 with the M inner product, OP = (K - sigma M)^-1 M; general: dnaupd on the first-order
// operator OP = (A - sigma E)^-1 E, A = [0 I; -K -D], E = diag(I, M), which needs only the
// factorization of P(sigma) = K + sigma D + sigma^2 M (n x n). sigma = o->shift (symmetric) or
// 0; when that matrix is singular (a free body) sigma = -1e-9 max(K_ii / M_ii). M, D and K must
// have the same structure. RD_OK, RD_ERR_NOMEM, RD_ERR_NUMERIC (no convergence, singular),
// RD_ERR_UNSUPPORTED (built without ARPACK).
int rd_eigenArpack(rdContext* ctx, const rdCsc* M, const rdCsc* D, const rdCsc* K,
                   const rdEigenOpts* o, rdEigen* out);

// allocate out for count pairs of size n (zeroed). RD_OK or RD_ERR_NOMEM.
int rd_eigenAlloc(rdContext* ctx, int n, int count, rdEigen* out);

// free the arrays of e and zero it (accepts a zeroed e)
void rd_eigenFree(rdContext* ctx, rdEigen* e);

// keep the pairs of candidate eigenvalues (lre, lim; ncand) in out, the count of smallest
// |lambda| with Im >= 0 (a real one counts once), sorted; order[] receives their candidate
// indices (count). Returns the number kept.
int rd_eigenSelect(const double* lre, const double* lim, int ncand, int count, int* order);

// first[i]: the candidate whose column starts the eigenvector of candidate i (ncand, in the
// order of their imaginary parts im): LAPACK and ARPACK store a complex pair in consecutive
// columns i, i + 1 with im[i] != 0, the eigenvectors V(:, i) +- i V(:, i + 1)
void rd_eigenPairStorage(const double* im, int ncand, int* first);

// pair k of out from candidate j: its eigenvalue (lre, lim) and the first out->n components of
// its eigenvector in V (columns of leading dimension ld, ncol of them; first of
// rd_eigenPairStorage)
void rd_eigenStorePair(rdEigen* out, int k, int j, const double* lre, const double* lim,
                       const double* V, size_t ld, int ncol, const int* first);

#endif  // RD_EIGEN_H
