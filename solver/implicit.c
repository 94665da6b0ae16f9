// SPDX-License-Identifier: MIT
// Shared pieces of the implicit steppers (generalized-alpha, static).
#include "solver/implicit.h"

#include <math.h>

#include "rodrigues/liegroup.h"
#include "solver/assemble.h"
#include "solver/pattern.h"
#include "solver/redundant.h"
#include "src/math/vec3.h"

int rd_implicitPrepare(rdModel* m) {
  int st = rd_redundantLoops(m);
  st = st < 0 ? st : rd_assembleBeamColors(m);
  st = st < 0 ? st : rd_patternBuild(m);
  if (st >= 0) {
    st = m->linsol = rd_linsolChoose(m, m->opt.linear_solver);
  }
  return st;
}


void rd_implicitUnprepare(rdModel* m) {
  rd_free(m->ctx, m->beam_order);
  rd_free(m->ctx, m->beam_color);
  m->beam_order = NULL;
  m->beam_color = NULL;
  rd_patternDestroy(m);
}


// the factorization belongs to the data, so that a model stays immutable and several data
// objects of one model can be stepped in parallel threads
int rd_implicitAttach(const rdModel* m, rdData* d, rdLinSol** ls) {
  const rdPattern* P = m->pattern;
  if (P->n == 0) {
    return RD_OK;
  }
  int st = rd_linsolCreate(m->ctx, m->linsol, P->n, P->Ap, P->Ai, ls);
  if (*ls) {
    (*ls)->model = m;
  }
  return st == RD_OK ? rd_redundantAttach(m, d) : st;
}


void rd_implicitRelease(const rdModel* m, rdData* d, rdLinSol** ls) {
  rd_redundantRelease(m, d);
  rd_linsolDestroy(ls);
}


void rd_implicitCarve(rdCarve* c, const rdModel* m, rdImplicitWork* w) {
  size_t N = (size_t)(m->ndof + m->nconstraint), nn = (size_t)m->nnode;
  w->r = rd_carve(c, N);
  w->sol = rd_carve(c, N);
  w->Ax = rd_carve(c, m->pattern ? (size_t)m->pattern->nnz : 0);
  w->dq = rd_carve(c, 6 * nn);
  w->psi = rd_carve(c, 3 * nn);
  w->qn = rd_carve(c, 7 * nn);
}


void rd_implicitUpdate(const rdModel* m, const double* qn, const double* dq, const double* cor,
                       double h, double* q, double* psi) {
  rd_implicitUpdateFrame(m, qn, dq, cor, h, 0, q, psi);
}


void rd_implicitUpdateFrame(const rdModel* m, const double* qn, const double* dq, const double* cor,
                            double h, int spatial, double* q, double* psi) {
  for (int i = 0; i < m->nnode; i++) {
    const double* a = qn + 7 * i;
    const double* u = dq + 6 * i;
    const double* c = cor ? cor + 6 * i : NULL;
    double* b = q + 7 * i;
    for (int k = 0; k < 3; k++) {
      b[k] = a[k] + h * u[k] + (c ? c[k] : 0);
    }
    if (m->node_kind[i] != RD_NODE_RIGID) {
      continue;
    }
    double* p = psi + 3 * i;
    v3_scale(p, u + 3, h);
    if (c) {
      v3_add(p, p, c + 3);
    }
    double e[4], r[4];
    rdu_rotvecToQuat(e, p);
    if (spatial) {
      rdu_quatMul(r, e, a + 3);
    } else {
      rdu_quatMul(r, a + 3, e);
    }
    rdu_quatNormalize(b + 3, r);
  }
}


int rd_implicitFactor(rdData* d, rdLinSol* ls, const double* Ax) {
  int st = rd_linsolFactor(ls, Ax);
  d->stats.factorizations++;
  ls->owner = st > 0 ? NULL : d;
  if (st == RD_OK && ls->rcond < d->stats.min_rcond) {
    d->stats.min_rcond = ls->rcond;
  }
  return st;
}


double rd_implicitConstraintScale(const rdModel* m, const double* Ax) {
  const rdPattern* P = m->pattern;
  double sum = 0;
  int n = 0;
  for (int c = 0; c < m->ndof; c++) {
    for (int p = P->Ap[c]; p < P->Ap[c + 1]; p++) {
      if (P->Ai[p] == c && Ax[p] != 0) {
        sum += fabs(Ax[p]);
        n++;
      }
    }
  }
  return n > 0 && isfinite(sum) && sum > 0 ? sum / n : 1;
}


void rd_implicitScaleConstraints(const rdModel* m, double* Ax, double s) {
  const rdPattern* P = m->pattern;
  for (int c = 0; c < P->n; c++) {
    for (int p = P->Ap[c]; p < P->Ap[c + 1]; p++) {
      if ((c >= m->ndof) != (P->Ai[p] >= m->ndof)) {
        Ax[p] *= s;
      }
    }
  }
}
