// SPDX-License-Identifier: MIT
// CHOLMOD backend: sparse Cholesky for symmetric positive definite iteration matrices (models of
// point masses and springs without constraints). Analyse the upper triangle once, factor per
// call, solve with reused workspace. Every factorization first checks that the assembled
// matrix is symmetric: Cholesky of the upper triangle would silently solve another system.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solver/assemble.h"
#include "solver/linsol.h"
#include "solver/linsol_libs.h"

typedef struct {
  const rdCholmod* lib;
  cholmod_common c;
  int started;
  cholmod_sparse* U;  // upper triangle (stype = 1), pattern fixed, values per factor
  cholmod_factor* L;
  cholmod_dense* X;  // cholmod_solve2 workspace, allocated at the first solve
  cholmod_dense* Y;
  cholmod_dense* E;
  int* upos;  // per upper entry: its position in the full CSC values
  int* lpos;  // per upper entry: position of the mirror (j, i), or -1 on the diagonal
  int* diag;  // per column: position of the diagonal in the full values, or -1
} cholData;


// position of (row, col) in the full CSC pattern, or -1
static int find(const rdLinSol* s, int row, int col) {
  int lo = s->Ap[col], hi = s->Ap[col + 1] - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (s->Ai[mid] == row) {
      return mid;
    }
    if (s->Ai[mid] < row) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}


static int chol_analyze(rdLinSol* s) {
  cholData* k = rd_calloc(s->ctx, 1, sizeof(cholData));
  if (!k) {
    return RD_ERR_NOMEM;
  }
  s->impl = k;
  int n = s->n, nu = 0;
  for (int j = 0; j < n; j++) {
    for (int p = s->Ap[j]; p < s->Ap[j + 1]; p++) {
      nu += s->Ai[p] <= j;
    }
  }
  k->upos = rd_calloc(s->ctx, (size_t)nu + 1, sizeof(int));
  k->lpos = rd_calloc(s->ctx, (size_t)nu + 1, sizeof(int));
  k->diag = rd_calloc(s->ctx, (size_t)n + 1, sizeof(int));
  if (!k->upos || !k->lpos || !k->diag) {
    return RD_ERR_NOMEM;
  }
  k->lib = rd_cholmod(s->ctx);
  if (!k->lib) {
    return RD_ERR_IO;
  }
  k->lib->start(&k->c);
  k->started = 1;
  k->c.print = 0;
  k->c.error_handler = NULL;
  // LL' (not CHOLMOD's default simplicial LDL', which factors indefinite matrices without a
  // word): a pivot <= 0 then stops the factorization with CHOLMOD_NOT_POSDEF
  k->c.final_ll = 1;
  k->U = k->lib->allocate_sparse((size_t)n, (size_t)n, (size_t)nu, 1, 1, 1, CHOLMOD_REAL, &k->c);
  if (!k->U) {
    return RD_ERROR(s->ctx, RD_ERR_NOMEM, "cholmod_allocate_sparse failed (status %d)",
                    k->c.status);
  }
  int* Up = k->U->p;
  int* Ui = k->U->i;
  int q = 0;
  for (int j = 0; j < n; j++) {
    Up[j] = q;
    k->diag[j] = -1;
    for (int p = s->Ap[j]; p < s->Ap[j + 1]; p++) {
      int i = s->Ai[p];
      if (i > j) {
        continue;
      }
      int mirror = i == j ? -1 : find(s, j, i);
      if (i != j && mirror < 0) {
        return RD_ERROR(s->ctx, RD_ERR_UNSUPPORTED,
                        "solver.linear_solver = cholmod: the matrix pattern is not symmetric "
                        "(entry %d, %d has no mirror)",
                        i, j);
      }
      if (i == j) {
        k->diag[j] = p;
      }
      Ui[q] = i;
      k->upos[q] = p;
      k->lpos[q++] = mirror;
    }
  }
  Up[n] = q;
  k->L = k->lib->analyze(k->U, &k->c);
  if (!k->L) {
    return RD_ERROR(s->ctx, k->c.status == CHOLMOD_OUT_OF_MEMORY ? RD_ERR_NOMEM : RD_ERR_LIBRARY,
                    "cholmod_analyze failed (status %d)", k->c.status);
  }
  return RD_OK;
}


// RD_OK if A equals its transpose to round-off relative to its diagonal; otherwise raises
// RD_ERR_UNSUPPORTED naming the two unknowns
static int check_symmetric(rdLinSol* s, cholData* k, const double* Ax) {
  const int* Ui = k->U->i;
  const int* Up = k->U->p;
  for (int j = 0; j < s->n; j++) {
    double djj = k->diag[j] >= 0 ? fabs(Ax[k->diag[j]]) : 0;
    for (int q = Up[j]; q < Up[j + 1]; q++) {
      if (k->lpos[q] < 0) {
        continue;
      }
      int i = Ui[q];
      double a = Ax[k->upos[q]], b = Ax[k->lpos[q]];
      double dii = k->diag[i] >= 0 ? fabs(Ax[k->diag[i]]) : 0;
      double scale = fmax(sqrt(djj * dii), fmax(fabs(a), fabs(b)));
      if (!(fabs(a - b) <= 1e-12 * scale)) {
        char ni[256] = "", nj[256] = "";
        if (s->model) {
          rd_unknownName(s->model, i, ni, sizeof(ni));
          rd_unknownName(s->model, j, nj, sizeof(nj));
        } else {
          snprintf(ni, sizeof(ni), "unknown %d", i);
          snprintf(nj, sizeof(nj), "unknown %d", j);
        }
        return RD_ERROR(s->ctx, RD_ERR_UNSUPPORTED,
                        "solver.linear_solver = cholmod needs a symmetric matrix, but the entry "
                        "coupling %s to %s is %.6g one way and %.6g the other (a damper moving "
                        "transversely, or a non-symmetric user element); use klu",
                        ni, nj, a, b);
      }
    }
  }
  return RD_OK;
}


static int chol_factor(rdLinSol* s, const double* Ax) {
  cholData* k = s->impl;
  int st = check_symmetric(s, k, Ax);
  if (st != RD_OK) {
    return st;
  }
  double* Ux = k->U->x;
  size_t nu = (size_t)((int*)k->U->p)[s->n];
  for (size_t q = 0; q < nu; q++) {
    Ux[q] = Ax[k->upos[q]];
  }
  s->nfactor++;
  if (!k->lib->factorize(k->U, k->L, &k->c) || k->c.status < CHOLMOD_OK) {
    return RD_ERROR(s->ctx, k->c.status == CHOLMOD_OUT_OF_MEMORY ? RD_ERR_NOMEM : RD_ERR_LIBRARY,
                    "cholmod_factorize failed (status %d)", k->c.status);
  }
  if (k->c.status == CHOLMOD_NOT_POSDEF) {
    // L->minor: the column where the leading minor stopped being positive; in its original
    // numbering through the fill-reducing permutation
    size_t minor = k->L->minor;
    const int* perm = k->L->Perm;
    s->singular_col = minor < (size_t)s->n ? (perm ? perm[minor] : (int)minor) : -1;
    s->rcond = 0;
    return RD_RECOVER_SINGULAR;
  }
  s->rcond = k->lib->rcond(k->L, &k->c);
  if (!(s->rcond > RD_LINSOL_RCOND_MIN)) {
    return RD_RECOVER_SINGULAR;
  }
  return RD_OK;
}


static int chol_solve(rdLinSol* s, double* b) {
  cholData* k = s->impl;
  cholmod_dense B = {0};
  B.nrow = (size_t)s->n;
  B.ncol = 1;
  B.nzmax = (size_t)s->n;
  B.d = (size_t)s->n;
  B.x = b;
  B.xtype = CHOLMOD_REAL;
  B.dtype = CHOLMOD_DOUBLE;
  // X, Y, E are allocated by the first solve (the initial accelerations, before the time
  // loop) and reused after
  if (!k->lib->solve2(CHOLMOD_A, k->L, &B, NULL, &k->X, NULL, &k->Y, &k->E, &k->c)) {
    return RD_ERROR(s->ctx, RD_ERR_LIBRARY, "cholmod_solve2 failed (status %d)", k->c.status);
  }
  memcpy(b, k->X->x, (size_t)s->n * sizeof(double));
  return RD_OK;
}


static void chol_destroy(rdLinSol* s) {
  cholData* k = s->impl;
  if (!k) {
    return;
  }
  if (k->started) {
    k->lib->free_dense(&k->X, &k->c);
    k->lib->free_dense(&k->Y, &k->c);
    k->lib->free_dense(&k->E, &k->c);
    k->lib->free_factor(&k->L, &k->c);
    k->lib->free_sparse(&k->U, &k->c);
    k->lib->finish(&k->c);
  }
  rd_free(s->ctx, k->upos);
  rd_free(s->ctx, k->lpos);
  rd_free(s->ctx, k->diag);
  rd_free(s->ctx, k);
  s->impl = NULL;
}


const rdLinSolOps rd_linsolCholmod = {"cholmod", chol_analyze, chol_factor, chol_solve,
                                      chol_destroy};
