// SPDX-License-Identifier: MIT
// KLU backend: analyse once (at the first factorization), refactor with the old pivots, full
// factor when the factorization has become ill-conditioned.
//
// klu_rcond is only the ratio of the smallest to the largest pivot: cheap, but it shrinks along
// long chains of bodies (2e-12 at 1000 bodies) where the matrix is well conditioned. A small
// ratio is therefore confirmed with klu_condest (a 1-norm estimate, a few solves) before the
// factorization is rejected, as SUNDIALS' KLU interface does.
//
// A refactorization keeps the pivot order of the last full factorization. When the values have
// moved far from those, the elimination can grow large entries off the diagonal of U, which
// neither the pivot ratio nor the condition estimate (computed with the same factors) notices:
// the solves are then inaccurate and Newton slows down or stalls. The first solve after every
// refactorization therefore checks its residual (one product with A) and, if it is not at
// round-off, factors afresh and solves again.
//
// Row scaling (KLU's default, the largest entry of each row) is for the choice of pivots: a full
// factorization scales, a refactorization, which chooses none, does not. Scaling cost a pass
// over the matrix and a division per entry at every refactorization (70 ms of a 10^6-DOF beam's
// 380); without it the pivot ratio of that beam's refactorization is 8e-7 instead of 3e-5, far
// from the condition estimate's 1e-8, and the solves' residuals stay at round-off
// (docs/performance.md, "Large models end to end").
#include <klu.h>
#include <math.h>
#include <string.h>

#include "solver/linsol.h"

typedef struct {
  klu_common common;
  klu_symbolic* symbolic;
  klu_numeric* numeric;
  const double* Ax;  // values of the last refactorization, until its first solve is checked
  double* b0;        // n: right-hand side of that solve
  double* r;         // n: its residual
} kluData;


// relative residual above which a refactorization's solve is not trusted: round-off of a
// backward-stable solve is ~n eps ||A|| ||x||; 1e-10 leaves room for n up to ~10^5
#define KLU_SOLVE_RESIDUAL_MAX 1e-10


static int klu_analyze_(rdLinSol* s) {
  kluData* k = rd_calloc(s->ctx, 1, sizeof(kluData));
  if (!k) {
    return RD_ERR_NOMEM;
  }
  s->impl = k;
  s->pivot_values = rd_alloc(s->ctx, sizeof(double) * ((size_t)s->Ap[s->n] + 1));
  k->b0 = rd_alloc(s->ctx, sizeof(double) * ((size_t)s->n + 1));
  k->r = rd_alloc(s->ctx, sizeof(double) * ((size_t)s->n + 1));
  if (!s->pivot_values || !k->b0 || !k->r) {
    return RD_ERR_NOMEM;
  }
  klu_defaults(&k->common);
  k->common.halt_if_singular = 1;
  // the iteration matrix is a saddle-point matrix with a zero block: KLU's default diagonal
  // preference (tol 0.001) and AMD ordering give pivot ratios of 1e-12 on a 1000-body chain and
  // a failed factorization at 10^4; COLAMD with tol 0.1 keeps them near 1e-4 (bench/ga_chain)
  k->common.tol = 0.1;
  k->common.ordering = 1;
  return RD_OK;
}


// the symbolic analysis (BTF, COLAMD ordering), at the first factorization: that allocates
// KLU's numeric factors anyway, and a model that is only checked (rodrigues check) or never
// factored (initial_acceleration: zero, no step) does not pay for it; 10 % of checking a
// 10^4-body chain (docs/performance.md, "Setup and large models")
static int analyze_once(rdLinSol* s, kluData* k) {
  if (k->symbolic) {
    return RD_OK;
  }
  k->symbolic = klu_analyze(s->n, (int*)s->Ap, (int*)s->Ai, &k->common);
  if (!k->symbolic) {
    return RD_ERROR(s->ctx, k->common.status == KLU_OUT_OF_MEMORY ? RD_ERR_NOMEM : RD_ERR_LIBRARY,
                    "klu_analyze failed (status %d)", k->common.status);
  }
  return RD_OK;
}


// reciprocal condition of the current factorization into s->rcond: the pivot ratio when it is
// comfortable, otherwise 1 / (1-norm condition estimate); 0 if KLU failed
static int condition(rdLinSol* s, kluData* k, const double* Ax) {
  if (!klu_rcond(k->symbolic, k->numeric, &k->common)) {
    return 0;
  }
  s->rcond = k->common.rcond;
  if (s->rcond > RD_LINSOL_PIVOT_RATIO_OK) {
    return 1;
  }
  if (!klu_condest((int*)s->Ap, (double*)Ax, k->symbolic, k->numeric, &k->common)) {
    return 0;
  }
  s->rcond = k->common.condest > 0 ? 1 / k->common.condest : 0;
  return 1;
}


// the column of the smallest pivot in magnitude (Udiag is in pivot order, pivot k in column
// Q[k]): where a matrix that has no zero pivot but is too ill-conditioned is nearest singular
static int smallest_pivot(const kluData* k) {
  const double* u = k->numeric->Udiag;
  int n = k->symbolic->n, best = 0;
  for (int i = 1; i < n; i++) {
    if (fabs(u[i]) < fabs(u[best])) {
      best = i;
    }
  }
  return n > 0 ? k->symbolic->Q[best] : -1;
}


// full factorization; RD_RECOVER_SINGULAR with singular_col set
static int full_factor(rdLinSol* s, kluData* k, const double* Ax) {
  k->Ax = NULL;
  int st = analyze_once(s, k);
  if (st != RD_OK) {
    return st;
  }
  if (k->numeric) {
    klu_free_numeric(&k->numeric, &k->common);
  }
  k->numeric = klu_factor((int*)s->Ap, (int*)s->Ai, (double*)Ax, k->symbolic, &k->common);
  s->nfactor++;
  // the pivot order now comes from these values: keep them for checkpoints
  s->has_pivots = k->numeric != NULL;
  if (s->has_pivots && Ax != s->pivot_values) {
    memcpy(s->pivot_values, Ax, sizeof(double) * (size_t)s->Ap[s->n]);
  }
  if (!k->numeric || k->common.status == KLU_SINGULAR) {
    if (k->common.status == KLU_OUT_OF_MEMORY) {
      return RD_ERROR(s->ctx, RD_ERR_NOMEM, "klu_factor: out of memory");
    }
    if (k->common.status < 0 && k->common.status != KLU_SINGULAR) {
      return RD_ERROR(s->ctx, RD_ERR_LIBRARY, "klu_factor failed (status %d)", k->common.status);
    }
    s->singular_col = k->common.singular_col;
    s->rcond = 0;
    return RD_RECOVER_SINGULAR;
  }
  if (!condition(s, k, Ax)) {
    return RD_ERROR(s->ctx, RD_ERR_LIBRARY, "klu_rcond/klu_condest failed (status %d)",
                    k->common.status);
  }
  if (!(s->rcond > RD_LINSOL_RCOND_MIN)) {
    s->singular_col = k->common.singular_col < s->n ? k->common.singular_col : smallest_pivot(k);
    return RD_RECOVER_SINGULAR;
  }
  return RD_OK;
}


static int klu_factor_(rdLinSol* s, const double* Ax) {
  kluData* k = s->impl;
  if (k->numeric && s->factored) {
    // same pattern: reuse the pivot order, check it is still good
    // no scaling and no check of the pattern (the full factorization checked it)
    int scale = k->common.scale;
    k->common.scale = -1;
    int ok =
        klu_refactor((int*)s->Ap, (int*)s->Ai, (double*)Ax, k->symbolic, k->numeric, &k->common);
    k->common.scale = scale;
    s->nrefactor++;
    if (ok && k->common.status == KLU_OK && condition(s, k, Ax) &&
        s->rcond > 1e3 * RD_LINSOL_RCOND_MIN) {
      k->Ax = Ax;  // the next solve checks its residual
      return RD_OK;
    }
  }
  return full_factor(s, k, Ax);
}


// 1 if x solves A x = b0 to round-off (A: the pattern with values Ax)
static int solve_accurate(const rdLinSol* s, kluData* k, const double* Ax, const double* x) {
  int n = s->n;
  memcpy(k->r, k->b0, (size_t)n * sizeof(double));
  double anorm = 0, xnorm = 0, bnorm = 0, rnorm = 0;
  for (int c = 0; c < n; c++) {
    double col = 0;
    for (int p = s->Ap[c]; p < s->Ap[c + 1]; p++) {
      k->r[s->Ai[p]] -= Ax[p] * x[c];
      col += fabs(Ax[p]);
    }
    anorm = fmax(anorm, col);
    xnorm = fmax(xnorm, fabs(x[c]));
  }
  for (int i = 0; i < n; i++) {
    rnorm = fmax(rnorm, fabs(k->r[i]));
    bnorm = fmax(bnorm, fabs(k->b0[i]));
  }
  return rnorm <= KLU_SOLVE_RESIDUAL_MAX * (anorm * xnorm + bnorm);
}


static int klu_solve_(rdLinSol* s, double* b) {
  kluData* k = s->impl;
  const double* Ax = k->Ax;
  if (Ax) {
    memcpy(k->b0, b, (size_t)s->n * sizeof(double));
  }
  if (!klu_solve(k->symbolic, k->numeric, s->n, 1, b, &k->common)) {
    return RD_ERROR(s->ctx, RD_ERR_LIBRARY, "klu_solve failed (status %d)", k->common.status);
  }
  if (!Ax) {
    return RD_OK;
  }
  k->Ax = NULL;
  if (solve_accurate(s, k, Ax, b)) {
    return RD_OK;
  }
  // the old pivot order has gone bad for these values: new pivots, solve again
  s->nrefactor_rejected++;
  int st = full_factor(s, k, Ax);
  if (st != RD_OK) {
    s->factored = 0;
    return st;
  }
  memcpy(b, k->b0, (size_t)s->n * sizeof(double));
  if (!klu_solve(k->symbolic, k->numeric, s->n, 1, b, &k->common)) {
    return RD_ERROR(s->ctx, RD_ERR_LIBRARY, "klu_solve failed (status %d)", k->common.status);
  }
  return RD_OK;
}


static void klu_destroy_(rdLinSol* s) {
  kluData* k = s->impl;
  if (!k) {
    return;
  }
  if (k->numeric) {
    klu_free_numeric(&k->numeric, &k->common);
  }
  if (k->symbolic) {
    klu_free_symbolic(&k->symbolic, &k->common);
  }
  rd_free(s->ctx, k->b0);
  rd_free(s->ctx, k->r);
  rd_free(s->ctx, k);
  s->impl = NULL;
}


const rdLinSolOps rd_linsolKlu = {"klu", klu_analyze_, klu_factor_, klu_solve_, klu_destroy_};
