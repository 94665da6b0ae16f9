// SPDX-License-Identifier: MIT
// Lie-group generalized-alpha (Algorithm 1 of seed 004) with R_{n+1} = R_n exp(h dq_rot).
#include "genalpha.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assemble.h"
#include "linsol.h"
#include "pattern.h"
#include "rodrigues/liegroup.h"
#include "vec3.h"

void rd_gaParam(double rho, rdGaParam* p) {
  p->am = (2 * rho - 1) / (rho + 1);
  p->af = rho / (rho + 1);
  p->gamma = 0.5 + p->af - p->am;
  p->beta = 0.25 * (p->gamma + 0.5) * (p->gamma + 0.5);
}


// scratch arrays carved out of d->work
typedef struct {
  double* r;    // N residual
  double* sol;  // N right-hand side / solution
  double* gam;  // nconstraint
  double* Ax;   // nnz
  double* dq;   // nnode x 6: dq of Algorithm 1, node layout
  double* psi;  // nnode x 3: h dq_rot
  double* qn;   // nnode x 7: configuration at the start of the step
} gaWork;


static size_t nd(size_t n) {
  return (n + 8) & ~(size_t)7;  // doubles, rounded to 64 bytes
}


static size_t ga_work_size(const rdModel* m) {
  size_t N = (size_t)(m->ndof + m->nconstraint);
  size_t nnz = m->pattern ? (size_t)m->pattern->nnz : 0;
  size_t nn = (size_t)m->nnode;
  return sizeof(double) *
         (2 * nd(N) + nd((size_t)m->nconstraint) + nd(nnz) + nd(6 * nn) + nd(3 * nn) + nd(7 * nn));
}


static void carve(const rdModel* m, rdData* d, gaWork* w) {
  size_t N = (size_t)(m->ndof + m->nconstraint);
  size_t nn = (size_t)m->nnode;
  double* p = d->work;
  w->r = p;
  p += nd(N);
  w->sol = p;
  p += nd(N);
  w->gam = p;
  p += nd((size_t)m->nconstraint);
  w->Ax = p;
  p += nd((size_t)m->pattern->nnz);
  w->dq = p;
  p += nd(6 * nn);
  w->psi = p;
  p += nd(3 * nn);
  w->qn = p;
}


static int ga_check(const rdModel* m) {
  if (m->opt.linear_solver == RD_LINSOL_CHOLMOD) {
    return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                    "generalized_alpha: solver.linear_solver = cholmod is not supported: the "
                    "iteration matrix is an unsymmetric saddle-point matrix (gyroscopic and "
                    "tangent-operator terms, zero multiplier block); use klu, umfpack or dense");
  }
  for (int e = 0; e < m->nelem; e++) {
    if (m->elem[e].def.type == RD_ELEM_BUSHING) {
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%sgeneralized_alpha: bushing '%s' is not implemented yet",
                      m->elem[e].origin, *m->elem[e].origin ? ": " : "",
                      m->elem[e].def.u.bushing.name);
    }
  }
  if (m->opt.linear_solver == RD_LINSOL_CHOLMOD) {
    return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                    "generalized_alpha: cholmod needs a symmetric positive definite matrix; the "
                    "iteration matrix is an unsymmetric saddle-point matrix (use klu or umfpack)");
  }
  if (!m->pattern) {
    return RD_ERROR(m->ctx, RD_ERR_STATE, "generalized_alpha: the model has no matrix pattern");
  }
  return RD_OK;
}


// the message for a singular iteration matrix at unknown `col`
static void singular_message(const rdModel* m, int col, char* buf, int size) {
  char name[256];
  if (col < 0) {
    snprintf(buf, (size_t)size, "singular iteration matrix (the solver did not say where)");
    return;
  }
  rd_unknownName(m, col, name, sizeof(name));
  if (col < m->ndof) {
    snprintf(buf, (size_t)size,
             "singular iteration matrix at %s: no mass, stiffness or joint holds it", name);
    return;
  }
  // a multiplier: its joint is redundant with joints that share one of its nodes
  int row = col - m->ndof, j0 = 0;
  for (int j = 0; j < m->njoint; j++) {
    if (row >= m->joint[j].row && row < m->joint[j].row + m->joint[j].nrow) {
      j0 = j;
    }
  }
  char others[512] = "";
  const rdJointDef* a = &m->joint[j0].def;
  for (int j = 0; j < m->njoint; j++) {
    const rdJointDef* b = &m->joint[j].def;
    if (j == j0) {
      continue;
    }
    int share = 0;
    for (int x = 0; x < 2; x++) {
      for (int y = 0; y < 2; y++) {
        share |= a->node[x] >= 0 && a->node[x] == b->node[y];
      }
    }
    if (share && strlen(others) + strlen(b->name) + 8 < sizeof(others)) {
      strcat(others, *others ? ", '" : "'");
      strcat(others, b->name);
      strcat(others, "'");
    }
  }
  snprintf(buf, (size_t)size,
           "singular iteration matrix at %s: redundant constraint (dependent on joint%s %s)",
           name, strchr(others, ',') ? "s" : "", *others ? others : "(none sharing a node)");
}


static int ga_initialize(const rdModel* m, rdData* d) {
  if (m->ndof + m->nconstraint == 0) {
    return RD_OK;  // nothing moves
  }
  gaWork w;
  carve(m, d, &w);
  rdState* s = &d->s;
  memset(s->vd, 0, 6 * (size_t)m->nnode * sizeof(double));
  rdAsmCoef c = {1, 0, 0, NULL};
  int st = rd_assemble(m, d, s->t, s->q, s->v, s->vd, NULL, &c, w.r, w.gam, w.Ax);
  if (st != RD_OK) {
    return st;
  }
  for (int k = 0; k < m->ndof; k++) {
    w.sol[k] = -w.r[k];
  }
  for (int k = 0; k < m->nconstraint; k++) {
    w.sol[m->ndof + k] = -w.gam[k];
  }
  rdLinSol* ls = d->solver;
  st = rd_linsolFactor(ls, w.Ax);
  d->stats.factorizations++;
  ls->owner = NULL;
  if (st > 0) {
    char msg[1024];
    singular_message(m, ls->singular_col, msg, sizeof(msg));
    return RD_ERROR(m->ctx, RD_ERR_NUMERIC, "consistent initial accelerations at t = %g: %s",
                    s->t, msg);
  }
  if (st < 0) {
    return st;
  }
  if (ls->rcond < d->stats.min_rcond) {
    d->stats.min_rcond = ls->rcond;
  }
  st = rd_linsolSolve(ls, w.sol);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < m->nnode; i++) {
    int n = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
    for (int k = 0; k < n; k++) {
      s->vd[6 * i + k] = w.sol[m->node_dof[i] + k];
    }
  }
  memcpy(s->a, s->vd, 6 * (size_t)m->nnode * sizeof(double));
  for (int k = 0; k < m->nconstraint; k++) {
    s->lambda[k] = w.sol[m->ndof + k];
  }
  return RD_OK;
}


// q = q_n o exp(h dq): x_n + h dq_t, R_n exp(h dq_r); psi = h dq_r
static void update_q(const rdModel* m, const double* qn, const double* dq, double h, double* q,
                     double* psi) {
  for (int i = 0; i < m->nnode; i++) {
    const double* a = qn + 7 * i;
    const double* u = dq + 6 * i;
    double* b = q + 7 * i;
    for (int k = 0; k < 3; k++) {
      b[k] = a[k] + h * u[k];
    }
    if (m->node_kind[i] != RD_NODE_RIGID) {
      continue;
    }
    double* p = psi + 3 * i;
    v3_scale(p, u + 3, h);
    double e[4], r[4];
    rdu_rotvecToQuat(e, p);
    rdu_quatMul(r, a + 3, e);
    rdu_quatNormalize(b + 3, r);
  }
}


static int ga_step(const rdModel* m, rdData* d, double h) {
  if (m->ndof + m->nconstraint == 0) {
    return RD_OK;
  }
  gaWork w;
  carve(m, d, &w);
  rdState* s = &d->s;
  const rdOptions* o = &m->opt;
  rdGaParam p;
  rd_gaParam(o->rho_inf, &p);
  double bp = (1 - p.am) / (h * h * p.beta * (1 - p.af));
  double gp = p.gamma / (h * p.beta);
  double bh2 = p.beta * h * h;
  double t1 = s->t + h;
  int nn = m->nnode, ndof = m->ndof, ncon = m->nconstraint;
  memcpy(w.qn, s->q, 7 * (size_t)nn * sizeof(double));
  memset(w.psi, 0, 3 * (size_t)nn * sizeof(double));
  // predictor
  for (int k = 0; k < 6 * nn; k++) {
    double an = s->a[k], vdn = s->vd[k], vn = s->v[k];
    double anew = (p.af * vdn - p.am * an) / (1 - p.am);
    w.dq[k] = vn + (0.5 - p.beta) * h * an + p.beta * h * anew;
    s->v[k] = vn + h * (1 - p.gamma) * an + p.gamma * h * anew;
    s->a[k] = anew;
    s->vd[k] = 0;
  }
  memset(s->lambda, 0, (size_t)ncon * sizeof(double));
  rdLinSol* ls = d->solver;
  rdAsmCoef c = {(1 - p.am) / (1 - p.af), p.gamma * h, bh2, w.psi};
  double err = 2, prev = 2;
  int iter = 0, worst = 0;
  while (iter < o->max_iter && err > 1) {
    iter++;
    update_q(m, w.qn, w.dq, h, s->q, w.psi);
    int reuse = o->modified_newton && iter > 1 && ls->factored && ls->owner == d &&
                err < 0.25 * prev;
    int st = rd_assemble(m, d, t1, s->q, s->v, s->vd, s->lambda, &c, w.r, NULL,
                         reuse ? NULL : w.Ax);
    if (st != RD_OK) {
      return st;
    }
    for (int k = 0; k < ndof; k++) {
      w.sol[k] = -bh2 * w.r[k];
    }
    for (int k = 0; k < ncon; k++) {
      w.sol[ndof + k] = -w.r[ndof + k];
    }
    if (!reuse) {
      st = rd_linsolFactor(ls, w.Ax);
      d->stats.factorizations++;
      ls->owner = d;
      if (st > 0) {
        ls->owner = NULL;
        char msg[1024];
        singular_message(m, ls->singular_col, msg, sizeof(msg));
        return RD_ERROR(m->ctx, RD_RECOVER_SINGULAR, "step from t = %.17g (h = %g): %s", s->t,
                        h, msg);
      }
      if (st < 0) {
        return st;
      }
      if (ls->rcond < d->stats.min_rcond) {
        d->stats.min_rcond = ls->rcond;
      }
    }
    st = rd_linsolSolve(ls, w.sol);
    if (st != RD_OK) {
      return st;
    }
    // increments and the Arnold-Hante norm
    double sum = 0, big = -1;
    for (int i = 0; i < nn; i++) {
      int n = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
      for (int k = 0; k < n; k++) {
        int dof = m->node_dof[i] + k;
        double dx = w.sol[dof];
        double* dqk = w.dq + 6 * i + k;
        *dqk += dx / h;
        s->v[6 * i + k] += gp * dx;
        s->vd[6 * i + k] += bp * dx;
        double e = dx / (o->atol + o->rtol * fabs(h * *dqk));
        sum += e * e;
        if (e * e > big) {
          big = e * e;
          worst = dof;
        }
      }
    }
    for (int k = 0; k < ncon; k++) {
      s->lambda[k] += w.sol[ndof + k] / bh2;
    }
    // multipliers: relative to the largest of their joint, not the component alone -- a
    // component through zero would ask for accuracy below the round-off of phi / (beta h^2)
    for (int j = 0; j < m->njoint; j++) {
      const rdJoint* jt = &m->joint[j];
      double lmax = 0;
      for (int k = jt->row; k < jt->row + jt->nrow; k++) {
        lmax = fmax(lmax, fabs(s->lambda[k]));
      }
      for (int k = jt->row; k < jt->row + jt->nrow; k++) {
        double e = w.sol[ndof + k] / bh2 / (o->atol + o->rtol * lmax);
        sum += e * e;
        if (e * e > big) {
          big = e * e;
          worst = ndof + k;
        }
      }
    }
    prev = err;
    err = ndof + ncon > 0 ? sqrt(sum / (ndof + ncon)) : 0;
  }
  d->stats.newton_iterations += iter;
  if (err > 1) {
    char name[256];
    rd_unknownName(m, worst, name, sizeof(name));
    return RD_ERROR(m->ctx, RD_RECOVER_NEWTON,
                    "Newton did not converge in %d iterations in the step from t = %.17g "
                    "(h = %g): error norm %.3g, largest at %s",
                    iter, s->t, h, err, name);
  }
  d->stats.last_newton_iterations = iter;
  update_q(m, w.qn, w.dq, h, s->q, w.psi);
  for (int k = 0; k < 6 * nn; k++) {
    s->a[k] += s->vd[k] * (1 - p.af) / (1 - p.am);
  }
  return RD_OK;
}


// the factorization belongs to the data, so that a model stays immutable and several data
// objects of one model can be stepped in parallel threads
static int ga_attach(const rdModel* m, rdData* d) {
  if (m->pattern->n == 0) {
    return RD_OK;
  }
  rdLinSol* ls = NULL;
  int st = rd_linsolCreate(m->ctx, m->opt.linear_solver, m->pattern->n, m->pattern->Ap,
                           m->pattern->Ai, &ls);
  d->solver = ls;
  return st;
}


static void ga_release(const rdModel* m, rdData* d) {
  (void)m;
  rdLinSol* ls = d->solver;
  rd_linsolDestroy(&ls);
  d->solver = NULL;
}


const rdStepper rd_stepperGeneralizedAlpha = {
    .method = RD_METHOD_GENERALIZED_ALPHA,
    .check = ga_check,
    .memory_size = NULL,
    .work_size = ga_work_size,
    .initialize = ga_initialize,
    .step = ga_step,
    .attach = ga_attach,
    .release = ga_release,
};
