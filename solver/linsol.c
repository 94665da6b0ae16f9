// SPDX-License-Identifier: MIT
// Linear-solver front end: backend selection and the common create/factor/solve/destroy.
#include "solver/linsol.h"

#include <amd.h>
#include <stdio.h>
#include <string.h>

#include "solver/pattern.h"
#include "src/model/model_impl.h"
#include "src/model/options.h"

int rd_linsolCreate(rdContext* ctx, int kind, int n, const int* Ap, const int* Ai, rdLinSol** out) {
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
      ops = &rd_linsolCholmod;
      break;
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


// why CHOLMOD cannot factor model m's matrices (into buf), or 0 if the structure allows it
static int cholmod_obstacle(const rdModel* m, char* buf, size_t size) {
  if (m->nconstraint > 0) {
    snprintf(buf, size,
             "needs a symmetric positive definite matrix, but the %d constraint equations of the "
             "joints add Lagrange multipliers (a saddle-point matrix, indefinite); use klu, "
             "umfpack or dense",
             m->nconstraint);
    return 1;
  }
  for (int i = 0; i < m->nnode; i++) {
    if (m->node_kind[i] == RD_NODE_RIGID) {
      snprintf(buf, size,
               "needs a symmetric matrix, but node '%s' rotates (gyroscopic and tangent-operator "
               "terms are not symmetric); cholmod is for models of point masses and springs; use "
               "klu",
               m->node_name[i]);
      return 1;
    }
  }
  return 0;
}


int rd_linsolCheckModel(const rdModel* m, int kind, const char* who) {
  if (!m->pattern) {
    return RD_ERROR(m->ctx, RD_ERR_STATE, "%s: the model has no matrix pattern", who);
  }
  char why[512];
  if (kind == RD_LINSOL_CHOLMOD && cholmod_obstacle(m, why, sizeof(why))) {
    return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED, "%s: solver.linear_solver = cholmod %s", who, why);
  }
  return RD_OK;
}


// AMD's estimate of the LU multiply-subtract pairs per unknown for the pattern (A + A^T); -1 if
// AMD failed, RD_ERR_NOMEM without memory for its permutation
static double lu_work_per_unknown(const rdModel* m) {
  const rdPattern* P = m->pattern;
  int* perm = rd_alloc(m->ctx, sizeof(int) * ((size_t)P->n + 1));
  if (!perm) {
    return RD_ERR_NOMEM;
  }
  double info[AMD_INFO];
  int st = amd_order(P->n, P->Ap, P->Ai, perm, NULL, info);
  rd_free(m->ctx, perm);
  return st == AMD_OK || st == AMD_OK_BUT_JUMBLED ? info[AMD_NMULTSUBS_LU] / P->n : -1;
}


int rd_linsolChoose(const rdModel* m, int kind) {
  if (kind != RD_LINSOL_AUTO || !m->pattern || m->pattern->n == 0) {
    return kind == RD_LINSOL_AUTO ? RD_LINSOL_KLU : kind;
  }
  // small models: the dense backend's own LU, cheaper than KLU's refactorization (whose fixed
  // costs per call dominate there) and than LAPACK's
  if (m->pattern->n <= RD_LINSOL_DENSE_OWN_MAX) {
    return RD_LINSOL_DENSE;
  }
  // CHOLMOD where the matrix is certainly symmetric: no joints, no rotations, no dampers (their
  // tangent is unsymmetric once they move), no host code of unknown symmetry; and large enough
  // for its supernodes to pay (bench/ga_lattice)
  char why[512];
  int symmetric = !cholmod_obstacle(m, why, sizeof(why)) && m->nuser == 0;
  for (int k = 0; symmetric && k < m->ncallback; k++) {
    symmetric = !m->callback[k].jacobian;
  }
  for (int e = 0; symmetric && e < m->nelem; e++) {
    const rdElemDef* ed = &m->elem[e].def;
    symmetric = !(ed->type == RD_ELEM_SPRING && ed->u.spring.damping != 0);
  }
  if (symmetric && m->ndof >= RD_LINSOL_CHOLMOD_MIN_DOF) {
    return RD_LINSOL_CHOLMOD;
  }
  // KLU (no supernodes) for the sparse, banded or tree-like matrices of mechanisms and beams;
  // UMFPACK where the fill says the matrix is mesh-like (bench/ga_lattice)
  double work = lu_work_per_unknown(m);
  if (work == RD_ERR_NOMEM) {
    return RD_ERR_NOMEM;
  }
  return work >= RD_LINSOL_UMFPACK_MIN_WORK ? RD_LINSOL_UMFPACK : RD_LINSOL_KLU;
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
