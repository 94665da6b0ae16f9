// SPDX-License-Identifier: MIT
// Null-space basis of the constraint Jacobian: identity columns for the free degrees of freedom,
// a dense orthonormal basis per group of coupled constraints (LAPACK dgeqp3, dorgqr).
#include "solver/nullspace.h"

#include <math.h>
#include <string.h>

// last: lapacke.h brings complex.h, whose macro I clashes with names (LAPACKE is loaded when first
// used, src/core/lapack.h)
#include "src/core/lapack.h"

static int find(int* parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}


// the null vectors of one group: its nd degrees of freedom dofs[], its rows rows[] of B (Bt:
// B^T, so a row of B is a column of Bt). Writes the (nd - rank) null vectors (nd each,
// column-major) into Z (nd x nd room) and returns their number through *nnull; adds the rank.
static int group_basis(rdContext* ctx, const rdCsc* Bt, const int* dofs, int nd, const int* rows,
                       int nrow, const int* local, double tol, double* Z, int* nnull, int* rank) {
  const rdLapack* la = rd_lapack(ctx, "the null space of the constraints");
  if (!la) {
    return RD_ERR_IO;
  }
  size_t ld = (size_t)nd;
  int ncol = nrow > nd ? nrow : nd;
  double* A = rd_calloc(ctx, ld * (size_t)ncol + 1, sizeof(double));
  double* tau = rd_calloc(ctx, (size_t)ncol + 1, sizeof(double));
  lapack_int* jpvt = rd_calloc(ctx, (size_t)ncol + 1, sizeof(lapack_int));
  if (!A || !tau || !jpvt) {
    rd_free(ctx, A);
    rd_free(ctx, tau);
    rd_free(ctx, jpvt);
    return RD_ERR_NOMEM;
  }
  // A = B^T of the group (nd x nrow), columns scaled to unit norm
  int nz = 0;
  for (int k = 0; k < nrow; k++) {
    double* col = A + (size_t)nz * ld;
    double s = 0;
    for (int p = Bt->Ap[rows[k]]; p < Bt->Ap[rows[k] + 1]; p++) {
      if (Bt->Ax[p] == 0) {
        continue;  // structural zeros: the degree of freedom may lie in no group
      }
      col[local[Bt->Ai[p]]] = Bt->Ax[p];
      s += Bt->Ax[p] * Bt->Ax[p];
    }
    if (s > 0) {
      for (int i = 0; i < nd; i++) {
        col[i] /= sqrt(s);
      }
      nz++;
    }
  }
  int r = 0, k = nz < nd ? nz : nd;
  lapack_int info = 0;
  if (nz > 0) {
    info = la->dgeqp3(LAPACK_COL_MAJOR, nd, nz, A, nd, jpvt, tau);
    double r11 = fabs(A[0]);
    while (info == 0 && r < k && fabs(A[(size_t)r * ld + (size_t)r]) > tol * r11) {
      r++;
    }
  }
  // Q from the k reflectors, then its trailing columns
  if (info == 0) {
    for (size_t c = (size_t)k * ld; c < ld * ld; c++) {
      A[c] = 0;
    }
    info = la->dorgqr(LAPACK_COL_MAJOR, nd, nd, k, A, nd, tau);
  }
  if (info == 0) {
    memcpy(Z, A + (size_t)r * ld, sizeof(double) * ld * (size_t)(nd - r));
    *nnull = nd - r;
    *rank += r;
  }
  rd_free(ctx, A);
  rd_free(ctx, tau);
  rd_free(ctx, jpvt);
  return info == 0 ? RD_OK : RD_ERROR(ctx, RD_ERR_LIBRARY, "null space: LAPACK info %d", (int)info);
}


int rd_nullSpace(rdContext* ctx, const rdCsc* B, double tol, rdCsc* N, int* rank) {
  memset(N, 0, sizeof(*N));
  *rank = 0;
  int n = B->ncol, nc = B->nrow;
  rdCsc Bt;
  int st = rd_cscTranspose(ctx, B, &Bt);
  if (st != RD_OK) {
    return st;
  }
  int* parent = rd_alloc(ctx, sizeof(int) * ((size_t)n + 1));
  int* local = rd_alloc(ctx, sizeof(int) * ((size_t)n + 1));
  int* size = rd_calloc(ctx, (size_t)n + 1, sizeof(int));
  int* dofs = rd_alloc(ctx, sizeof(int) * ((size_t)n + 1));
  int* rows = rd_alloc(ctx, sizeof(int) * ((size_t)nc + 1));
  int* done = rd_calloc(ctx, (size_t)n + 1, sizeof(int));
  unsigned char* cons = rd_calloc(ctx, (size_t)n + 1, 1);
  if (!parent || !local || !size || !dofs || !rows || !done || !cons) {
    st = RD_ERR_NOMEM;
    goto out;
  }
  // groups: degrees of freedom joined by the equations that touch them (nonzero entries)
  for (int i = 0; i < n; i++) {
    parent[i] = i;
  }
  for (int k = 0; k < nc; k++) {
    int first = -1;
    for (int p = Bt.Ap[k]; p < Bt.Ap[k + 1]; p++) {
      if (Bt.Ax[p] == 0) {
        continue;
      }
      int i = Bt.Ai[p];
      cons[i] = 1;
      if (first < 0) {
        first = i;
      } else {
        int a = find(parent, first), b = find(parent, i);
        parent[a < b ? b : a] = a < b ? a : b;
      }
    }
  }
  int largest = 0, ncols = 0;
  for (int i = 0; i < n; i++) {
    if (cons[i]) {
      int g = find(parent, i);
      size[g]++;
      largest = size[g] > largest ? size[g] : largest;
    } else {
      ncols++;
    }
  }
  if (largest > RD_NULLSPACE_MAX_GROUP) {
    st = RD_ERROR(ctx, RD_ERR_UNSUPPORTED,
                  "null space of the constraints: %d coupled constrained degrees of freedom, more "
                  "than the dense QR takes (%d)",
                  largest, RD_NULLSPACE_MAX_GROUP);
    goto out;
  }
  // at most n columns, dense in their group: room for the identity columns plus every group's
  // nd x nd block
  size_t room = (size_t)ncols;
  for (int i = 0; i < n; i++) {
    if (cons[i] && find(parent, i) == i) {
      room += (size_t)size[i] * (size_t)size[i];
    }
  }
  if (room > (size_t)0x7fffffff || (st = rd_cscAlloc(ctx, n, n, (int)room, N)) != RD_OK) {
    st = RD_ERR_NOMEM;
    goto out;
  }
  double* Z = rd_alloc(ctx, sizeof(double) * ((size_t)largest * (size_t)largest + 1));
  if (!Z) {
    st = RD_ERR_NOMEM;
    goto out;
  }
  int col = 0, nnz = 0;
  for (int i = 0; i < n && st == RD_OK; i++) {
    if (!cons[i]) {
      N->Ai[nnz] = i;
      N->Ax[nnz++] = 1;
      N->Ap[++col] = nnz;
      continue;
    }
    int g = find(parent, i);
    if (done[g]) {
      continue;
    }
    done[g] = 1;
    // the group's degrees of freedom (ascending) and equations
    int nd = 0, nrow = 0;
    for (int j = i; j < n; j++) {
      if (cons[j] && find(parent, j) == g) {
        local[j] = nd;
        dofs[nd++] = j;
      }
    }
    for (int k = 0; k < nc; k++) {
      for (int p = Bt.Ap[k]; p < Bt.Ap[k + 1]; p++) {
        if (Bt.Ax[p] != 0) {
          if (find(parent, Bt.Ai[p]) == g) {
            rows[nrow++] = k;
          }
          break;
        }
      }
    }
    int nnull = 0;
    st = group_basis(ctx, &Bt, dofs, nd, rows, nrow, local, tol, Z, &nnull, rank);
    for (int c = 0; st == RD_OK && c < nnull; c++) {
      for (int a = 0; a < nd; a++) {
        double z = Z[(size_t)c * (size_t)nd + (size_t)a];
        if (z != 0) {
          N->Ai[nnz] = dofs[a];
          N->Ax[nnz++] = z;
        }
      }
      N->Ap[++col] = nnz;
    }
  }
  rd_free(ctx, Z);
  if (st == RD_OK) {
    N->ncol = col;
  }
out:
  if (st != RD_OK) {
    rd_cscFree(ctx, N);
  }
  rd_cscFree(ctx, &Bt);
  rd_free(ctx, parent);
  rd_free(ctx, local);
  rd_free(ctx, size);
  rd_free(ctx, dofs);
  rd_free(ctx, rows);
  rd_free(ctx, done);
  rd_free(ctx, cons);
  return st;
}


int rd_nullSpaceReduce(rdContext* ctx, const rdCsc* N, const rdCsc* A, rdCsc* Ar) {
  rdCsc AN, Nt;
  memset(Ar, 0, sizeof(*Ar));
  int st = rd_cscMultiply(ctx, A, N, &AN);
  if (st != RD_OK) {
    return st;
  }
  st = rd_cscTranspose(ctx, N, &Nt);
  if (st == RD_OK) {
    st = rd_cscMultiply(ctx, &Nt, &AN, Ar);
  }
  rd_cscFree(ctx, &AN);
  rd_cscFree(ctx, &Nt);
  return st;
}
