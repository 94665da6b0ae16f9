// SPDX-License-Identifier: MIT
// Linear-solver front end: backend selection and the common create/factor/solve/destroy.
#include "linsol.h"

#include <string.h>

#include "options.h"

int rd_linsolCreate(rdContext* ctx, int kind, int n, const int* Ap, const int* Ai,
                    rdLinSol** out) {
  *out = NULL;
  const rdLinSolOps* ops;
  switch (kind) {
    case RD_LINSOL_AUTO:
    case RD_LINSOL_KLU:
      ops = &rd_linsolKlu;
      break;
    case RD_LINSOL_UMFPACK:
      ops = &rd_linsolUmfpack;
      break;
    case RD_LINSOL_DENSE:
      ops = &rd_linsolDense;
      break;
    case RD_LINSOL_CHOLMOD:
      return RD_ERROR(ctx, RD_ERR_UNSUPPORTED,
                      "solver.linear_solver = cholmod: the generalized-alpha iteration matrix is "
                      "an unsymmetric saddle-point matrix (gyroscopic and tangent-operator terms, "
                      "zero multiplier block), which Cholesky cannot factor; use klu, umfpack or "
                      "dense");
    default:
      return RD_ERROR(ctx, RD_ERR_ARG, "unknown linear solver %d", kind);
  }
  rdLinSol* s = rd_calloc(ctx, 1, sizeof(rdLinSol));
  if (!s) {
    return RD_ERR_NOMEM;
  }
  s->ops = ops;
  s->ctx = ctx;
  s->kind = kind;
  s->n = n;
  s->Ap = Ap;
  s->Ai = Ai;
  s->rcond = 1;
  s->singular_col = -1;
  int st = ops->analyze(s);
  if (st < 0) {
    rd_linsolDestroy(&s);
    return st;
  }
  *out = s;
  return RD_OK;
}


int rd_linsolFactor(rdLinSol* s, const double* Ax) {
  s->singular_col = -1;
  int st = s->ops->factor(s, Ax);
  s->factored = st == RD_OK;
  return st;
}


int rd_linsolSolve(rdLinSol* s, double* b) {
  if (!s->factored) {
    return RD_ERROR(s->ctx, RD_ERR_STATE, "linear solve without a factorization");
  }
  return s->ops->solve(s, b);
}


size_t rd_linsolHistorySize(const rdLinSol* s) {
  return s && s->pivot_values ? (size_t)s->Ap[s->n] + 1 : 0;
}


void rd_linsolSaveHistory(const rdLinSol* s, double* buf) {
  size_t n = rd_linsolHistorySize(s);
  if (n) {
    buf[0] = s->has_pivots;
    memcpy(buf + 1, s->pivot_values, (n - 1) * sizeof(double));
  }
}


int rd_linsolLoadHistory(rdLinSol* s, const double* buf) {
  s->factored = 0;
  s->owner = NULL;
  if (!rd_linsolHistorySize(s) || buf[0] == 0) {
    s->has_pivots = 0;
    return RD_OK;
  }
  int st = rd_linsolFactor(s, buf + 1);
  // a refactorization of the current values follows at the next Newton iteration
  s->owner = NULL;
  return st;
}


void rd_linsolDestroy(rdLinSol** s) {
  if (!s || !*s) {
    return;
  }
  if ((*s)->ops) {
    (*s)->ops->destroy(*s);
  }
  rd_free((*s)->ctx, (*s)->pivot_values);
  rd_free((*s)->ctx, *s);
  *s = NULL;
}
