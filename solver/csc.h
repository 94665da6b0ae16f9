// SPDX-License-Identifier: MIT
// Compressed sparse column matrices for the linearization: extraction from the iteration-matrix
// pattern, products, transposes. Structural entries are kept (never dropped for being zero), so
// matrices built the same way from one pattern share their structure.
#ifndef RD_CSC_H
#define RD_CSC_H

#include "src/core/core.h"

typedef struct rdCsc_ {
  int nrow, ncol;
  int* Ap;     // ncol + 1
  int* Ai;     // Ap[ncol]: row indices, sorted in each column
  double* Ax;  // Ap[ncol]
} rdCsc;

// allocate A (nrow x ncol, room for nnz entries; Ap zeroed). RD_OK or RD_ERR_NOMEM.
int rd_cscAlloc(rdContext* ctx, int nrow, int ncol, int nnz, rdCsc* A);

// free the arrays of A (accepts a zeroed A) and zero it
void rd_cscFree(rdContext* ctx, rdCsc* A);

// C = A B (A: m x k, B: k x n), Gustavson's algorithm; rows sorted. RD_OK or RD_ERR_NOMEM.
int rd_cscMultiply(rdContext* ctx, const rdCsc* A, const rdCsc* B, rdCsc* C);

// T = A^T. RD_OK or RD_ERR_NOMEM.
int rd_cscTranspose(rdContext* ctx, const rdCsc* A, rdCsc* T);

// y = A x (y: nrow), or y += A x with add != 0
void rd_cscMatVec(const rdCsc* A, const double* x, double* y, int add);

// y = A^T x (y: ncol)
void rd_cscMatTVec(const rdCsc* A, const double* x, double* y);

// the dense column-major copy of A into D (leading dimension ld >= nrow), zeros elsewhere
void rd_cscToDense(const rdCsc* A, double* D, int ld);

// the largest |A_ij| and the largest |A_ij - A_ji| of a square A (structure of A and A^T may
// differ); for the symmetry test
void rd_cscSymmetry(const rdCsc* A, double* amax, double* skew);

#endif  // RD_CSC_H
