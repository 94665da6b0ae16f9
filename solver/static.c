// SPDX-License-Identifier: MIT
// Static / quasi-static analysis: Newton on internal + constraint forces = loads at pseudo-time t.
// Loads with a time function follow it; body loads (gravity, distributed beam loads without a
// time function) grow with the load factor, 0 at solver.start_time to 1 at solver.final_time
// (rd_bodyLoadFactor).
//
// A step from t to t + h is solver.load_steps load increments; each is solved by Newton on
// [K T, B^T; B T, 0] (no inertia, no damping) with the Lie-group update R = R_n exp(psi).
// A failed increment returns a recoverable status, so rd_step halves the step and retries.
// Velocities and accelerations stay zero.
#include "solver/static.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/assemble.h"
#include "solver/implicit.h"
#include "solver/linsol.h"
#include "solver/pattern.h"
#include "solver/redundant.h"
#include "src/math/vec3.h"

// the scratch arrays in d->work: the implicit steppers' shared ones (dq: the increment of the
// load step, translation global, rotation vector)
static size_t st_work_size(const rdModel* m) {
  rdCarve c = {NULL, 0};
  rdImplicitWork w;
  rd_implicitCarve(&c, m, &w);
  return sizeof(double) * c.used;
}


static void carve(const rdModel* m, rdData* d, rdImplicitWork* w) {
  rdCarve c = {d->work, 0};
  rd_implicitCarve(&c, m, w);
}


static int st_check(const rdModel* m) {
  return rd_linsolCheckModel(m, m->opt.linear_solver, "static");
}


// zero rates: the state of a static analysis is a configuration and multipliers
static void zero_rates(const rdModel* m, rdState* s) {
  size_t n = 6 * (size_t)m->nnode * sizeof(double);
  memset(s->v, 0, n);
  memset(s->vd, 0, n);
  memset(s->a, 0, n);
}


static int st_initialize(const rdModel* m, rdData* d) {
  zero_rates(m, &d->s);
  memset(d->s.lambda, 0, (size_t)m->nconstraint * sizeof(double));
  // redundant equations at the initial configuration: removed (held at zero) or an error
  return rd_redundantDetect(m, d);
}


// the message for a singular matrix: at the unknown of the zero pivot, or for one too
// ill-conditioned (no zero pivot, rcond > 0) at that of the smallest pivot
static void singular_message(const rdModel* m, const rdLinSol* ls, char* buf, int size) {
  char name[256];
  int col = ls->singular_col;
  if (col < 0) {
    snprintf(buf, (size_t)size, "singular stiffness matrix (the solver did not say where)");
    return;
  }
  rd_unknownName(m, col, name, sizeof(name));
  if (ls->rcond > 0) {
    snprintf(buf, (size_t)size,
             "nearly singular stiffness matrix (reciprocal condition %.1e), its smallest pivot "
             "at %s",
             ls->rcond, name);
    return;
  }
  snprintf(buf, (size_t)size, "singular stiffness matrix at %s: %s", name,
           col < m->ndof ? "no stiffness or joint holds it (a mechanism, or an unstable "
                           "equilibrium)"
                         : "redundant constraint");
}


// the first load that the load parameter does not scale (a nodal load without a time function,
// a load callback, a load held by the host, a torque law): cutting the load step does not
// reduce it. Writes ", with 'name' applied in full at every load step" (or "") into buf.
static void constant_load(const rdModel* m, const rdData* d, char* buf, size_t size) {
  const char* what = NULL;
  const char* name = NULL;
  for (int i = 0; i < m->nload && !what; i++) {
    if (m->load[i].def.timefn == RD_NO_TIMEFN) {
      what = "the nodal load";
      name = m->load[i].def.name;
    }
  }
  if (!what && m->ncallback > 0) {
    what = "the load callback";
    name = m->callback[0].name;
  }
  if (!what && m->ntorque > 0) {
    what = "the torque law";
    name = m->torque[0].def.name;
  }
  if (!what && d->hostload_set) {
    what = "the loads held by the host";
  }
  if (!what) {
    *buf = 0;
  } else if (name) {
    snprintf(buf, size, "; %s '%s' has no time function: it is applied in full at every load step",
             what, name);
  } else {
    snprintf(buf, size, "; %s are applied in full at every load step", what);
  }
}


// Newton for equilibrium at pseudo-time t1 from the current state
static int increment(const rdModel* m, rdData* d, rdImplicitWork* w, double t1, double h) {
  rdState* s = &d->s;
  const rdOptions* o = &m->opt;
  int nn = m->nnode, ndof = m->ndof, ncon = m->nconstraint;
  // the removed redundant equations, chosen again at the converged configuration
  int changed;
  int st0 = rd_redundantTrack(m, d, &changed);
  if (st0 != RD_OK) {
    return st0;
  }
  if (changed) {
    ((rdLinSol*)d->solver)->factored = 0;  // a new pivot order (KLU refactors with the old)
  }
  memcpy(w->qn, s->q, 7 * (size_t)nn * sizeof(double));
  memset(w->dq, 0, 6 * (size_t)nn * sizeof(double));
  memset(w->psi, 0, 3 * (size_t)nn * sizeof(double));
  rdLinSol* ls = d->solver;
  rdAsmCoef c = {.cM = 0, .cC = 0, .cK = 1, .psi = w->psi};
  double err = 2, prev = 2, cs = 1;
  int iter = 0, worst = 0;
  while (iter < o->max_iter && err > 1) {
    iter++;
    rd_implicitUpdate(m, w->qn, w->dq, NULL, 1, s->q, w->psi);
    int reuse =
        o->modified_newton && iter > 1 && ls->factored && ls->owner == d && err < 0.25 * prev;
    int st =
        rd_assemble(m, d, t1, s->q, s->v, s->vd, s->lambda, &c, w->r, NULL, reuse ? NULL : w->Ax);
    if (st != RD_OK) {
      return st;
    }
    rd_redundantMask(m, d, w->r, NULL, reuse ? NULL : w->Ax);
    if (!reuse && ncon > 0) {
      if (iter == 1) {
        cs = rd_implicitConstraintScale(m, w->Ax);  // kept while a factorization is reused
      }
      rd_implicitScaleConstraints(m, w->Ax, cs);
    }
    for (int k = 0; k < ndof; k++) {
      w->sol[k] = -w->r[k];
    }
    for (int k = ndof; k < ndof + ncon; k++) {
      w->sol[k] = -cs * w->r[k];
    }
    if (!reuse) {
      st = rd_implicitFactor(d, ls, w->Ax);
      if (st > 0) {
        char msg[1024], cl[256];
        singular_message(m, ls, msg, sizeof(msg));
        constant_load(m, d, cl, sizeof(cl));
        d->stats.newton_iterations += iter;
        return RD_ERROR(m->ctx, RD_RECOVER_SINGULAR,
                        "static: load step to t = %.17g (h = %g, body-load factor %.3g): %s%s", t1,
                        h, rd_bodyLoadFactor(m, t1), msg, cl);
      }
      if (st < 0) {
        return st;
      }
    }
    st = rd_linsolSolve(ls, w->sol);
    if (st != RD_OK) {
      return st;
    }
    for (int k = ndof; k < ndof + ncon; k++) {
      w->sol[k] *= cs;
    }
    // increments and the Arnold-Hante norm, relative to the increment of the load step
    double sum = 0, big = -1;
    for (int i = 0; i < nn; i++) {
      int n = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
      for (int k = 0; k < n; k++) {
        int dof = m->node_dof[i] + k;
        double dx = w->sol[dof];
        double* u = w->dq + 6 * i + k;
        *u += dx;
        double e = dx / (o->atol + o->rtol * fabs(*u));
        rd_implicitNormAdd(e, dof, &sum, &big, &worst);
      }
    }
    for (int k = 0; k < ncon; k++) {
      s->lambda[k] += w->sol[ndof + k];
    }
    for (int j = 0; j < m->njoint; j++) {
      const rdJoint* jt = &m->joint[j];
      double lmax = 0;
      for (int k = jt->row; k < jt->row + jt->nrow; k++) {
        lmax = fmax(lmax, fabs(s->lambda[k]));
      }
      for (int k = jt->row; k < jt->row + jt->nrow; k++) {
        double e = w->sol[ndof + k] / (o->atol + o->rtol * lmax);
        rd_implicitNormAdd(e, ndof + k, &sum, &big, &worst);
      }
    }
    prev = err;
    err = ndof + ncon > 0 ? sqrt(sum / (ndof + ncon)) : 0;
    // a rotation increment beyond pi leaves the chart of the update: cut the load step
    double turn = 0;
    for (int i = 0; i < nn; i++) {
      turn = fmax(turn, v3_norm(w->dq + 6 * i + 3));
    }
    if (!isfinite(err) || turn > 3.0) {
      char cl[256];
      constant_load(m, d, cl, sizeof(cl));
      d->stats.newton_iterations += iter;
      return RD_ERROR(m->ctx, RD_RECOVER_NEWTON,
                      "static: Newton diverged in the load step to t = %.17g (h = %g, body-load "
                      "factor %.3g): error norm %.3g, rotation increment %.3g rad%s",
                      t1, h, rd_bodyLoadFactor(m, t1), err, turn, cl);
    }
  }
  d->stats.newton_iterations += iter;
  if (err > 1) {
    char name[256], cl[256];
    rd_unknownName(m, worst, name, sizeof(name));
    constant_load(m, d, cl, sizeof(cl));
    return RD_ERROR(m->ctx, RD_RECOVER_NEWTON,
                    "static: Newton did not converge in %d iterations in the load step to "
                    "t = %.17g (h = %g, body-load factor %.3g): error norm %.3g, largest at %s%s",
                    iter, t1, h, rd_bodyLoadFactor(m, t1), err, name, cl);
  }
  d->stats.last_newton_iterations = iter;
  rd_implicitUpdate(m, w->qn, w->dq, NULL, 1, s->q, w->psi);
  return RD_OK;
}


static int st_step(const rdModel* m, rdData* d, double h) {
  zero_rates(m, &d->s);
  if (m->ndof + m->nconstraint == 0) {
    return RD_OK;
  }
  rdImplicitWork w;
  carve(m, d, &w);
  int n = m->opt.load_steps;
  double t0 = d->s.t;
  for (int k = 1; k <= n; k++) {
    double t1 = k == n ? t0 + h : t0 + h * k / n;
    int st = increment(m, d, &w, t1, h / n);
    if (st != RD_OK) {
      return st;
    }
  }
  return RD_OK;
}


// the factorization belongs to the data (see rdStepper.attach)
static int st_attach(const rdModel* m, rdData* d) {
  rdLinSol* ls = NULL;
  int st = rd_implicitAttach(m, d, &ls);
  d->solver = ls;
  return st;
}


static void st_release(const rdModel* m, rdData* d) {
  rdLinSol* ls = d->solver;
  rd_implicitRelease(m, d, &ls);
  d->solver = NULL;
}


const rdStepper rd_stepperStatic = {
    .method = RD_METHOD_STATIC,
    .prepare = rd_implicitPrepare,
    .unprepare = rd_implicitUnprepare,
    .check = st_check,
    .memory_size = rd_redundantMemorySize,
    .work_size = st_work_size,
    .initialize = st_initialize,
    .step = st_step,
    .attach = st_attach,
    .release = st_release,
    .history_size = rd_solverHistorySize,
    .history_save = rd_solverHistorySave,
    .history_load = rd_solverHistoryLoad,
};
