// SPDX-License-Identifier: MIT
// Compressed sparse column matrices: allocation, products, transposes, symmetry.
#include "solver/csc.h"

#include <math.h>
#include <string.h>

int rd_cscAlloc(rdContext* ctx, int nrow, int ncol, int nnz, rdCsc* A) {
  memset(A, 0, sizeof(*A));
  A->nrow = nrow;
  A->ncol = ncol;
  A->Ap = rd_calloc(ctx, (size_t)ncol + 1, sizeof(int));
  A->Ai = rd_alloc(ctx, sizeof(int) * ((size_t)nnz + 1));
  A->Ax = rd_alloc(ctx, sizeof(double) * ((size_t)nnz + 1));
  if (!A->Ap || !A->Ai || !A->Ax) {
    rd_cscFree(ctx, A);
    return RD_ERR_NOMEM;
  }
  return RD_OK;
}


void rd_cscFree(rdContext* ctx, rdCsc* A) {
  rd_free(ctx, A->Ap);
  rd_free(ctx, A->Ai);
  rd_free(ctx, A->Ax);
  memset(A, 0, sizeof(*A));
}


// sort the row indices of one column (insertion sort: columns are short), values alongside
static void sort_column(int* Ai, double* Ax, int n) {
  for (int i = 1; i < n; i++) {
    int r = Ai[i];
    double x = Ax[i];
    int j = i - 1;
    while (j >= 0 && Ai[j] > r) {
      Ai[j + 1] = Ai[j];
      Ax[j + 1] = Ax[j];
      j--;
    }
    Ai[j + 1] = r;
    Ax[j + 1] = x;
  }
}


int rd_cscMultiply(rdContext* ctx, const rdCsc* A, const rdCsc* B, rdCsc* C) {
  memset(C, 0, sizeof(*C));
  int m = A->nrow, n = B->ncol;
  int* mark = rd_alloc(ctx, sizeof(int) * ((size_t)m + 1));
  double* acc = rd_alloc(ctx, sizeof(double) * ((size_t)m + 1));
  int* Ap = rd_calloc(ctx, (size_t)n + 1, sizeof(int));
  if (!mark || !acc || !Ap) {
    rd_free(ctx, mark);
    rd_free(ctx, acc);
    rd_free(ctx, Ap);
    return RD_ERR_NOMEM;
  }
  // symbolic pass: the size of every column
  for (int i = 0; i < m; i++) {
    mark[i] = -1;
  }
  size_t nnz = 0;
  for (int j = 0; j < n; j++) {
    for (int p = B->Ap[j]; p < B->Ap[j + 1]; p++) {
      int k = B->Ai[p];
      for (int q = A->Ap[k]; q < A->Ap[k + 1]; q++) {
        if (mark[A->Ai[q]] != j) {
          mark[A->Ai[q]] = j;
          nnz++;
        }
      }
    }
    Ap[j + 1] = (int)nnz;
  }
  int st = nnz > (size_t)0x7fffffff ? RD_ERR_NOMEM : rd_cscAlloc(ctx, m, n, (int)nnz, C);
  if (st != RD_OK) {
    rd_free(ctx, mark);
    rd_free(ctx, acc);
    rd_free(ctx, Ap);
    return st;
  }
  memcpy(C->Ap, Ap, sizeof(int) * ((size_t)n + 1));
  rd_free(ctx, Ap);
  // numeric pass
  for (int i = 0; i < m; i++) {
    mark[i] = -1;
  }
  for (int j = 0; j < n; j++) {
    int c0 = C->Ap[j], len = 0;
    for (int p = B->Ap[j]; p < B->Ap[j + 1]; p++) {
      int k = B->Ai[p];
      double b = B->Ax[p];
      for (int q = A->Ap[k]; q < A->Ap[k + 1]; q++) {
        int i = A->Ai[q];
        if (mark[i] != j) {
          mark[i] = j;
          acc[i] = 0;
          C->Ai[c0 + len++] = i;
        }
        acc[i] += A->Ax[q] * b;
      }
    }
    for (int p = 0; p < len; p++) {
      C->Ax[c0 + p] = acc[C->Ai[c0 + p]];
    }
    sort_column(C->Ai + c0, C->Ax + c0, len);
  }
  rd_free(ctx, mark);
  rd_free(ctx, acc);
  return RD_OK;
}


int rd_cscTranspose(rdContext* ctx, const rdCsc* A, rdCsc* T) {
  int nnz = A->Ap[A->ncol];
  int st = rd_cscAlloc(ctx, A->ncol, A->nrow, nnz, T);
  if (st != RD_OK) {
    return st;
  }
  int* next = rd_calloc(ctx, (size_t)A->nrow + 1, sizeof(int));
  if (!next) {
    rd_cscFree(ctx, T);
    return RD_ERR_NOMEM;
  }
  for (int p = 0; p < nnz; p++) {
    T->Ap[A->Ai[p] + 1]++;
  }
  for (int i = 0; i < A->nrow; i++) {
    T->Ap[i + 1] += T->Ap[i];
    next[i] = T->Ap[i];
  }
  // columns of A in order: the rows of every column of T come out sorted
  for (int j = 0; j < A->ncol; j++) {
    for (int p = A->Ap[j]; p < A->Ap[j + 1]; p++) {
      int q = next[A->Ai[p]]++;
      T->Ai[q] = j;
      T->Ax[q] = A->Ax[p];
    }
  }
  rd_free(ctx, next);
  return RD_OK;
}


void rd_cscMatVec(const rdCsc* A, const double* x, double* y, int add) {
  if (!add) {
    memset(y, 0, sizeof(double) * (size_t)A->nrow);
  }
  for (int j = 0; j < A->ncol; j++) {
    double xj = x[j];
    for (int p = A->Ap[j]; p < A->Ap[j + 1]; p++) {
      y[A->Ai[p]] += A->Ax[p] * xj;
    }
  }
}


void rd_cscMatTVec(const rdCsc* A, const double* x, double* y) {
  for (int j = 0; j < A->ncol; j++) {
    double s = 0;
    for (int p = A->Ap[j]; p < A->Ap[j + 1]; p++) {
      s += A->Ax[p] * x[A->Ai[p]];
    }
    y[j] = s;
  }
}


void rd_cscToDense(const rdCsc* A, double* D, int ld) {
  for (int j = 0; j < A->ncol; j++) {
    double* col = D + (size_t)j * (size_t)ld;
    memset(col, 0, sizeof(double) * (size_t)A->nrow);
    for (int p = A->Ap[j]; p < A->Ap[j + 1]; p++) {
      col[A->Ai[p]] = A->Ax[p];
    }
  }
}


// entry (i, j) of A, 0 if not stored (binary search in column j)
static double entry(const rdCsc* A, int i, int j) {
  int lo = A->Ap[j], hi = A->Ap[j + 1] - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (A->Ai[mid] == i) {
      return A->Ax[mid];
    }
    if (A->Ai[mid] < i) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return 0;
}


void rd_cscSymmetry(const rdCsc* A, double* amax, double* skew) {
  double big = 0, diff = 0;
  for (int j = 0; j < A->ncol; j++) {
    for (int p = A->Ap[j]; p < A->Ap[j + 1]; p++) {
      int i = A->Ai[p];
      big = fmax(big, fabs(A->Ax[p]));
      diff = fmax(diff, fabs(A->Ax[p] - entry(A, j, i)));
    }
  }
  *amax = big;
  *skew = diff;
}
