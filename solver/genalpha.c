// SPDX-License-Identifier: MIT
// Lie-group generalized-alpha (Algorithm 1 of Bruls, Cardona & Arnold, Mech. Mach. Theory 48,
// 2012, as summarized in Kynema's documentation) with R_{n+1} = exp(h dq_rot) R_n and spatial
// angular velocities (solver.rotation_frame = spatial, the default) or R_{n+1} = R_n exp(h dq_rot)
// and body ones (body). The state keeps body rates either way: the spatial form converts them at
// the start and the end of a step.
#include "solver/genalpha.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "constraints/constraint.h"
#include "rodrigues/liegroup.h"
#include "solver/assemble.h"
#include "solver/implicit.h"
#include "solver/linsol.h"
#include "solver/pattern.h"
#include "solver/redundant.h"
#include "src/math/vec3.h"

// integration parameters from rho_inf (Chung-Hulbert through Arnold-Bruls' form)
typedef struct {
  double am, af, gamma, beta;
} gaParam;


static void ga_param(double rho, gaParam* p) {
  p->am = (2 * rho - 1) / (rho + 1);
  p->af = rho / (rho + 1);
  p->gamma = 0.5 + p->af - p->am;
  p->beta = 0.25 * (p->gamma + 0.5) * (p->gamma + 0.5);
}


// generalized-alpha's own scratch arrays, carved out of d->work after the implicit steppers'
// shared ones (rdImplicitWork)
typedef struct {
  double* gam;  // nconstraint
  // stabilized index 2
  double* eta;   // nconstraint: h eta, the multipliers of the position correction
  double* phi;   // nconstraint: position constraints
  double* Bh;    // njoint x RD_ASM_BSTRIDE: B T at the predictor, the correction direction
  double* Bc;    // njoint x RD_ASM_BSTRIDE: B T at the current iterate
  double* cor;   // nnode x 6: the correction Bh^T h eta, node layout
  double* dcor;  // nnode x 6: its change in the current iteration
  // the predictor's increment dq and velocities in the frame Newton iterates in, for a second
  // start of Newton (restart_at_last)
  double* dqp;  // nnode x 6
  double* vp;   // nnode x 6
  // spatial form: the rates of the step in the global frame (v, vd, a of Algorithm 1) and the
  // per-node data of the assembly (rd_assembleSpatialMaps)
  double* vs;   // nnode x 6
  double* vds;  // nnode x 6
  double* as;   // nnode x 6
  double* map;  // nnode x RD_ASM_SPATIAL
  double* Bhb;  // njoint x RD_ASM_BSTRIDE: Bh (then global) in body components at the iterate
  double* an;   // nnode x 6: a of the step's start, in the step's frame (the error estimate)
} gaWork;


// per-data solver objects: the iteration matrix and, for the stabilized formulation, the
// matrix B T Bh^T of the position correction (joint blocks coupled through shared nodes)
typedef struct {
  rdLinSol* ls;
  rdLinSol* le;
  int* Ap;  // ncon + 1
  int* Ai;
  int* jptr;  // njoint + 1: coupled row joints of column joint J in jrow[jptr[J]..]
  int* jrow;
  int* joff;   // offset of the row joint's rows within every column of joint J
  double* Ax;  // values of the correction matrix
  // modified Newton across steps (solver.modified_newton): the state of the kept factorization
  // of ls, saved in checkpoints (ga_history_save) so that a resumed run reuses the same matrix
  double* Afact;         // nnz: the values ls was last factored with (NULL without modified Newton)
  double h_fact;         // the step size of that matrix (0: none usable)
  double mbar;           // its smallest translational diagonal (the multiplier scale of the norm)
  double theta;          // contraction rate of the Newton corrections at the end of the last step
  int keep;              // the last step converged fast: start the next one with this factorization
  int fact_full;         // ls holds a full factorization of Afact (KLU: not a refactor)
  const rdGaHold* hold;  // mixed stepping: nodes whose motion is given (NULL: none)
} gaSolver;


// modified Newton: reuse the factorization while the corrections contract by this rate...
#define GA_THETA_MAX 0.3
// ...and carry it into the next step if the step took at most this many iterations
#define GA_KEEP_ITER 5

// full Newton's estimate stop: after this many stops on the estimate, a step that would stop
// on it iterates once more, measuring the rate again
#define GA_CONFIRM 16


// the scratch arrays in d->work: the shared ones in w, this stepper's in x (base NULL: only
// their size, in doubles)
static size_t layout(const rdModel* m, double* base, rdImplicitWork* w, gaWork* x) {
  size_t nn = (size_t)m->nnode;
  size_t nc = (size_t)m->nconstraint, nb = (size_t)m->njoint * RD_ASM_BSTRIDE;
  rdCarve c = {base, 0};
  rd_implicitCarve(&c, m, w);
  x->gam = rd_carve(&c, nc);
  x->eta = rd_carve(&c, nc);
  x->phi = rd_carve(&c, nc);
  x->Bh = rd_carve(&c, nb);
  x->Bc = rd_carve(&c, nb);
  x->cor = rd_carve(&c, 6 * nn);
  x->dcor = rd_carve(&c, 6 * nn);
  x->dqp = rd_carve(&c, 6 * nn);
  x->vp = rd_carve(&c, 6 * nn);
  x->vs = rd_carve(&c, 6 * nn);
  x->vds = rd_carve(&c, 6 * nn);
  x->as = rd_carve(&c, 6 * nn);
  x->map = rd_carve(&c, RD_ASM_SPATIAL * nn);
  x->Bhb = rd_carve(&c, nb);
  x->an = rd_carve(&c, 6 * nn);
  return c.used;
}


static size_t ga_work_size(const rdModel* m) {
  rdImplicitWork w;
  gaWork x;
  return sizeof(double) * layout(m, NULL, &w, &x);
}


static void carve(const rdModel* m, rdData* d, rdImplicitWork* w, gaWork* x) {
  layout(m, d->work, w, x);
}


// rates x (6 per node) turned between the frames at the configuration q: rotation parts R x
// (to_spatial 1) or R^T x (0), translations copied; out may be x
// node i's body rates x (nnode x 6) at q (nnode x 7) into global components in out
static void convert_rates1(const rdModel* m, int i, const double* q, const double* x, double* out) {
  memcpy(out + 6 * i, x + 6 * i, 3 * sizeof(double));
  if (m->node_kind[i] == RD_NODE_RIGID) {
    rdu_quatRotate(out + 6 * i + 3, q + 7 * i + 3, x + 6 * i + 3);
  } else {
    memcpy(out + 6 * i + 3, x + 6 * i + 3, 3 * sizeof(double));
  }
}


static void convert_rates(const rdModel* m, const double* q, const double* x, double* out,
                          int to_spatial) {
  for (int i = 0; i < m->nnode; i++) {
    double t[3];
    const double* r = x + 6 * i + 3;
    if (to_spatial) {
      rdu_quatRotate(t, q + 7 * i + 3, r);
    } else {
      rdu_quatRotateInv(t, q + 7 * i + 3, r);
    }
    memmove(out + 6 * i, x + 6 * i, 3 * sizeof(double));
    v3_copy(out + 6 * i + 3, m->node_kind[i] == RD_NODE_RIGID ? t : r);
  }
}


// mixed stepping in the spatial form: the held nodes' rates are the given body rates exactly
// (not their round trip through global components)
static void held_rates(const rdModel* m, const rdGaHold* hd, rdState* s) {
  for (int i = 0; hd && i < m->nnode; i++) {
    if (hd->held[i]) {
      memcpy(s->v + 6 * i, hd->v + 6 * i, 6 * sizeof(double));
      memcpy(s->vd + 6 * i, hd->vd + 6 * i, 6 * sizeof(double));
    }
  }
}


static int ga_check(const rdModel* m) {
  return rd_linsolCheckModel(m, m->opt.linear_solver, "generalized_alpha");
}


// the message for a singular iteration matrix: at the unknown of the zero pivot, or for one
// too ill-conditioned (no zero pivot, rcond > 0) at that of the smallest pivot
static void singular_message(const rdModel* m, const rdLinSol* ls, char* buf, int size) {
  char name[256];
  int col = ls->singular_col;
  if (col < 0) {
    snprintf(buf, (size_t)size, "singular iteration matrix (the solver did not say where)");
    return;
  }
  rd_unknownName(m, col, name, sizeof(name));
  if (ls->rcond > 0) {
    snprintf(buf, (size_t)size,
             "nearly singular iteration matrix (reciprocal condition %.1e), its smallest pivot "
             "at %s",
             ls->rcond, name);
    return;
  }
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
           "singular iteration matrix at %s: redundant constraint (dependent on joint%s %s)", name,
           strchr(others, ',') ? "s" : "", *others ? others : "(none sharing a node)");
}


static int ga_initialize(const rdModel* m, rdData* d) {
  // the estimate stop measures its rate again
  d->newton_rate = 0;
  d->newton_trust = 0;
  if (m->ndof + m->nconstraint == 0) {
    return RD_OK;  // nothing moves
  }
  rdImplicitWork w;
  gaWork gw;
  carve(m, d, &w, &gw);
  rdState* s = &d->s;
  // redundant equations at the initial configuration: removed (held at zero) or an error
  int st = rd_redundantDetect(m, d);
  if (st != RD_OK) {
    return st;
  }
  memset(s->vd, 0, 6 * (size_t)m->nnode * sizeof(double));
  if (m->opt.initial_acc == RD_GA_START_ZERO) {
    // from rest, as Kynema starts: zero accelerations and multipliers
    memset(s->a, 0, 6 * (size_t)m->nnode * sizeof(double));
    memset(s->lambda, 0, (size_t)m->nconstraint * sizeof(double));
    return RD_OK;
  }
  rdAsmCoef c = {1, 0, 0, NULL, NULL};
  st = rd_assemble(m, d, s->t, s->q, s->v, s->vd, NULL, &c, w.r, gw.gam, w.Ax);
  if (st != RD_OK) {
    return st;
  }
  rd_redundantMask(m, d, w.r, gw.gam, w.Ax);
  gaSolver* g = d->solver;
  const rdGaHold* hd = g->hold;
  if (hd && (st = hd->apply(m, d, hd->user, 1, s->vd, w.r, gw.gam, w.Ax)) != RD_OK) {
    return st;
  }
  for (int k = 0; k < m->ndof; k++) {
    w.sol[k] = -w.r[k];
  }
  for (int k = 0; k < m->nconstraint; k++) {
    w.sol[m->ndof + k] = -gw.gam[k];
  }
  rdLinSol* ls = g->ls;
  st = rd_implicitFactor(d, ls, w.Ax);
  ls->owner = NULL;  // the mass matrix, not an iteration matrix
  g->keep = 0;
  g->h_fact = 0;
  if (st > 0) {
    char msg[1024];
    singular_message(m, ls, msg, sizeof(msg));
    const char* at = ls->singular_col >= 0 ? rd_unknownOrigin(m, ls->singular_col) : "";
    return RD_ERROR(m->ctx, RD_ERR_NUMERIC, "%s%sconsistent initial accelerations at t = %g: %s",
                    at, *at ? ": " : "", s->t, msg);
  }
  if (st < 0) {
    return st;
  }
  st = rd_linsolSolve(ls, w.sol);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < m->nnode; i++) {
    int n = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
    for (int k = 0; k < n; k++) {
      s->vd[6 * i + k] = hd && hd->held[i] ? hd->vd[6 * i + k] : w.sol[m->node_dof[i] + k];
    }
  }
  memcpy(s->a, s->vd, 6 * (size_t)m->nnode * sizeof(double));
  for (int k = 0; k < m->nconstraint; k++) {
    s->lambda[k] = w.sol[m->ndof + k];
  }
  return RD_OK;
}


// nodes of joint j and their local DOF offsets (the layout of rdJointEval); returns the count
static int joint_layout(const rdModel* m, int j, int node[2], int off[2]) {
  int nn = rd_jointNodes(m, j, node);
  off[0] = 0;
  off[1] = m->node_kind[node[0]] == RD_NODE_RIGID ? 6 : 3;
  return nn;
}


static int joint_ndof(const rdModel* m, int j) {
  int node[2], off[2];
  int nn = joint_layout(m, j, node, off);
  return off[nn - 1] + (m->node_kind[node[nn - 1]] == RD_NODE_RIGID ? 6 : 3);
}


// the rotation columns of the joint rows B (per joint, RD_ASM_BSTRIDE) turned between body and
// global components at the configuration q: each row's 3-column block b of a rigid node becomes
// R b (to_spatial 1) or R^T b (0), into out
static void joint_rotate(const rdModel* m, const double* q, const double* B, double* out,
                         int to_spatial) {
  for (int j = 0; j < m->njoint; j++) {
    int node[2], off[2], cn = joint_layout(m, j, node, off), w = joint_ndof(m, j);
    const double* Bj = B + (size_t)j * RD_ASM_BSTRIDE;
    double* Oj = out + (size_t)j * RD_ASM_BSTRIDE;
    memcpy(Oj, Bj, (size_t)(m->joint[j].nrow * w) * sizeof(double));
    for (int a = 0; a < cn; a++) {
      if (m->node_kind[node[a]] != RD_NODE_RIGID) {
        continue;
      }
      for (int k = 0; k < m->joint[j].nrow; k++) {
        double* b = Oj + k * w + off[a] + 3;
        double t[3];
        if (to_spatial) {
          rdu_quatRotate(t, q + 7 * node[a] + 3, b);
        } else {
          rdu_quatRotateInv(t, q + 7 * node[a] + 3, b);
        }
        v3_copy(b, t);
      }
    }
  }
}


// value positions: entry (row i of joint I, column k of joint J) of the correction matrix
static int eta_pos(const gaSolver* g, const rdModel* m, int e, int J, int i, int k) {
  return g->Ap[m->joint[J].row + k] + g->joff[e] + i;
}


// the correction matrix E = Bc Bh^T (joint blocks through shared nodes) into g->Ax
static void eta_matrix(const rdModel* m, gaSolver* g, const double* Bc, const double* Bh) {
  memset(g->Ax, 0, (size_t)g->Ap[m->nconstraint] * sizeof(double));
  for (int J = 0; J < m->njoint; J++) {
    int nJ[2], oJ[2], cJ = joint_layout(m, J, nJ, oJ), wJ = joint_ndof(m, J);
    const double* BJ = Bh + (size_t)J * RD_ASM_BSTRIDE;
    for (int e = g->jptr[J]; e < g->jptr[J + 1]; e++) {
      int I = g->jrow[e];
      int nI[2], oI[2], cI = joint_layout(m, I, nI, oI), wI = joint_ndof(m, I);
      const double* BI = Bc + (size_t)I * RD_ASM_BSTRIDE;
      for (int x = 0; x < cI; x++) {
        for (int y = 0; y < cJ; y++) {
          if (nI[x] != nJ[y]) {
            continue;
          }
          int nd = m->node_kind[nI[x]] == RD_NODE_RIGID ? 6 : 3;
          for (int i = 0; i < m->joint[I].nrow; i++) {
            for (int k = 0; k < m->joint[J].nrow; k++) {
              double sum = 0;
              for (int l = 0; l < nd; l++) {
                sum += BI[i * wI + oI[x] + l] * BJ[k * wJ + oJ[y] + l];
              }
              g->Ax[eta_pos(g, m, e, J, i, k)] += sum;
            }
          }
        }
      }
    }
  }
}


// out (node layout, 6 per node) = sum over joints of B^T y (B: per joint, RD_ASM_BSTRIDE)
static void joint_bt(const rdModel* m, const double* B, const double* y, double* out) {
  memset(out, 0, 6 * (size_t)m->nnode * sizeof(double));
  for (int j = 0; j < m->njoint; j++) {
    int node[2], off[2], cn = joint_layout(m, j, node, off), w = joint_ndof(m, j);
    const double* Bj = B + (size_t)j * RD_ASM_BSTRIDE;
    const double* yj = y + m->joint[j].row;
    for (int a = 0; a < cn; a++) {
      int nd = m->node_kind[node[a]] == RD_NODE_RIGID ? 6 : 3;
      for (int l = 0; l < nd; l++) {
        double sum = 0;
        for (int k = 0; k < m->joint[j].nrow; k++) {
          sum += Bj[k * w + off[a] + l] * yj[k];
        }
        out[6 * node[a] + l] += sum;
      }
    }
  }
}


// out (nconstraint) = B x for a DOF vector x (DOF numbering)
static void joint_b(const rdModel* m, const double* B, const double* x, double* out) {
  for (int j = 0; j < m->njoint; j++) {
    int node[2], off[2], cn = joint_layout(m, j, node, off), w = joint_ndof(m, j);
    const double* Bj = B + (size_t)j * RD_ASM_BSTRIDE;
    for (int k = 0; k < m->joint[j].nrow; k++) {
      double sum = 0;
      for (int a = 0; a < cn; a++) {
        int nd = m->node_kind[node[a]] == RD_NODE_RIGID ? 6 : 3;
        for (int l = 0; l < nd; l++) {
          sum += Bj[k * w + off[a] + l] * x[m->node_dof[node[a]] + l];
        }
      }
      out[m->joint[j].row + k] = sum;
    }
  }
}


static int factor_message(const rdModel* m, const rdData* d, rdLinSol* ls, int st, double h) {
  ls->owner = NULL;
  char msg[1024];
  singular_message(m, ls, msg, sizeof(msg));
  (void)st;
  return RD_ERROR(m->ctx, RD_RECOVER_SINGULAR, "step from t = %.17g (h = %g): %s", d->s.t, h, msg);
}


// predictor of Algorithm 1: v, a, vd = 0, lambda = 0 and dq in d->work; the predicted
// configuration q_n o exp(h dq) in d->s.q (the corrector starts from it)
static int ga_predict(const rdModel* m, rdData* d, double h) {
  if (m->ndof + m->nconstraint == 0) {
    return RD_OK;
  }
  rdImplicitWork w;
  gaWork gw;
  carve(m, d, &w, &gw);
  rdState* s = &d->s;
  gaParam p;
  ga_param(m->opt.rho_inf, &p);
  int nn = m->nnode, ncon = m->nconstraint;
  int stab = m->opt.formulation == RD_GA_STABILIZED && ncon > 0;
  // the removed redundant equations, chosen again at q_n. After a change, a kept factorization
  // is stale and the pivot order of the old one is poor (KLU refactors with it): factor anew
  int changed;
  int st = rd_redundantTrack(m, d, &changed);
  if (st != RD_OK) {
    return st;
  }
  gaSolver* g = d->solver;
  if (changed) {
    g->keep = 0;
    g->ls->factored = 0;
    if (g->le) {
      g->le->factored = 0;
    }
  }
  // the rates of Algorithm 1: the state's own (body form) or their global components at q_n
  // (spatial form)
  int sp = m->opt.rotation_frame == RD_GA_SPATIAL;
  double* v = sp ? gw.vs : s->v;
  double* vd = sp ? gw.vds : s->vd;
  double* a = sp ? gw.as : s->a;
  if (sp) {
    convert_rates(m, s->q, s->v, v, 1);
    convert_rates(m, s->q, s->vd, vd, 1);
    convert_rates(m, s->q, s->a, a, 1);
  }
  memcpy(w.qn, s->q, 7 * (size_t)nn * sizeof(double));
  memset(w.psi, 0, 3 * (size_t)nn * sizeof(double));
  memcpy(gw.an, a, 6 * (size_t)nn * sizeof(double));
  for (int k = 0; k < 6 * nn; k++) {
    double an = a[k], vdn = vd[k], vn = v[k];
    double anew = (p.af * vdn - p.am * an) / (1 - p.am);
    w.dq[k] = vn + (0.5 - p.beta) * h * an + p.beta * h * anew;
    v[k] = vn + h * (1 - p.gamma) * an + p.gamma * h * anew;
    a[k] = anew;
    vd[k] = 0;
  }
  memset(s->lambda, 0, (size_t)ncon * sizeof(double));
  // mixed stepping: the held nodes are at their given motion, q_n o exp(0) = q_given
  for (int i = 0; g->hold && i < nn; i++) {
    const rdGaHold* hd = g->hold;
    if (hd->held[i]) {
      memcpy(w.qn + 7 * i, hd->q + 7 * i, 7 * sizeof(double));
      memset(w.dq + 6 * i, 0, 6 * sizeof(double));
      memcpy(s->v + 6 * i, hd->v + 6 * i, 6 * sizeof(double));
      memcpy(s->vd + 6 * i, hd->vd + 6 * i, 6 * sizeof(double));
      if (sp) {
        // the spatial form iterates on global rates: the given ones at the given rotation
        convert_rates1(m, i, hd->q, hd->v, v);
        convert_rates1(m, i, hd->q, hd->vd, vd);
      }
    }
  }
  if (stab) {
    memset(gw.eta, 0, (size_t)ncon * sizeof(double));
    memset(gw.cor, 0, 6 * (size_t)nn * sizeof(double));
  }
  memcpy(gw.dqp, w.dq, 6 * (size_t)nn * sizeof(double));
  memcpy(gw.vp, v, 6 * (size_t)nn * sizeof(double));
  rd_implicitUpdateFrame(m, w.qn, w.dq, stab ? gw.cor : NULL, h, sp, s->q, w.psi);
  if (sp) {
    // the predicted state in the state's body rates
    convert_rates(m, s->q, v, s->v, 0);
    convert_rates(m, s->q, vd, s->vd, 0);
    convert_rates(m, s->q, a, s->a, 0);
    held_rates(m, g->hold, s);
  }
  return RD_OK;
}


// The second start of Newton after a failure from the predicted state: the configuration of
// the last step, q_n (dq = 0). The predictor extrapolates the last velocities over the step;
// where they hold a component the step does not resolve (the first step after a sudden load on
// a small beam element: the tip of a 65-node composite cantilever leaves it at 92 m/s where it
// moves at 2, and the predictor puts it 0.46 m away), Newton can diverge from there until its
// iteration matrix is singular, while it converges in a few iterations from q_n. That start is
// the predicted state plus one correction dx = -h dq_p under the corrector's own update rules
// (dq += dx / h, v += gamma' dx, vd += beta' dx), so the relations between dq, v and vd hold
// and Newton solves the same equations. 0 if the prediction was q_n already (nothing to gain).
static int restart_at_last(const rdModel* m, rdData* d, double h) {
  rdImplicitWork w;
  gaWork gw;
  carve(m, d, &w, &gw);
  rdState* s = &d->s;
  int nn = m->nnode, moved = 0;
  for (int k = 0; k < 6 * nn && !moved; k++) {
    moved = gw.dqp[k] != 0;
  }
  if (!moved) {
    return 0;
  }
  gaParam p;
  ga_param(m->opt.rho_inf, &p);
  double gp = p.gamma / (h * p.beta);
  double bp = (1 - p.am) / (h * h * p.beta * (1 - p.af));
  const rdGaHold* hd = ((gaSolver*)d->solver)->hold;
  // the rates Newton iterates on: the state's (body form) or their global components (spatial
  // form; ga_correct_ converts them into the state's at each iteration)
  int sp = m->opt.rotation_frame == RD_GA_SPATIAL;
  double* v = sp ? gw.vs : s->v;
  double* vd = sp ? gw.vds : s->vd;
  for (int k = 0; k < 6 * nn; k++) {
    if (hd && hd->held[k / 6]) {
      continue;  // mixed stepping: at their given motion already (dq = 0)
    }
    double dx = -h * gw.dqp[k];
    w.dq[k] = 0;
    v[k] = gw.vp[k] + gp * dx;
    vd[k] = bp * dx;
  }
  int ncon = m->nconstraint;
  memset(s->lambda, 0, (size_t)ncon * sizeof(double));
  if (m->opt.formulation == RD_GA_STABILIZED && ncon > 0) {
    memset(gw.eta, 0, (size_t)ncon * sizeof(double));
    memset(gw.cor, 0, 6 * (size_t)nn * sizeof(double));
  }
  ((gaSolver*)d->solver)->keep = 0;  // factor at the first iteration
  return 1;
}


// smallest positive translational diagonal of the matrix Ax (0 if none), held nodes left out.
// The diagonal is read through the node's own block (rd_patternBlock): a scan of the columns
// read a third of the pattern at every factorization, 4 % of an iteration of the 10^6-DOF beam
static double mass_scale(const rdModel* m, const double* Ax, const rdGaHold* hold) {
  double mbar = 0;
  for (int i = 0; i < m->nnode; i++) {
    const int* pos = rd_patternBlock(m->pattern, i, i);
    for (int c3 = 0; c3 < 3 && pos && !(hold && hold->held[i]); c3++) {
      double x = Ax[pos[c3] + c3];
      if (x > 0 && (mbar == 0 || x < mbar)) {
        mbar = x;
      }
    }
  }
  return mbar;
}


// corrector: Newton from the predicted state, then the final update. Modified Newton
// (solver.modified_newton) keeps the factorization of ls while the corrections contract by
// theta = |dx_k| / |dx_k-1| < GA_THETA_MAX, also into the next steps when a step converged in
// at most GA_KEEP_ITER iterations; it refactors when the rate degrades, when h changes, after a
// failed step and after rd_initialize
static int ga_correct_(const rdModel* m, rdData* d, double h) {
  if (m->ndof + m->nconstraint == 0) {
    return RD_OK;
  }
  rdImplicitWork w;
  gaWork gw;
  carve(m, d, &w, &gw);
  rdState* s = &d->s;
  const rdOptions* o = &m->opt;
  gaSolver* g = d->solver;
  gaParam p;
  ga_param(o->rho_inf, &p);
  double bp = (1 - p.am) / (h * h * p.beta * (1 - p.af));
  double gp = p.gamma / (h * p.beta);
  double bh2 = p.beta * h * h;
  double t1 = s->t + h;
  int nn = m->nnode, ndof = m->ndof, ncon = m->nconstraint;
  // stabilized index 2: position and velocity constraints, positions corrected by Bh^T h eta
  int stab = o->formulation == RD_GA_STABILIZED && ncon > 0;
  rdLinSol* ls = g->ls;
  // spatial form: Newton moves the global rates of the step (ga_predict), the assembly reads
  // their body components at the iterate
  int sp = o->rotation_frame == RD_GA_SPATIAL;
  double* v = sp ? gw.vs : s->v;
  double* vd = sp ? gw.vds : s->vd;
  double* a = sp ? gw.as : s->a;
  rdAsmCoef c = {(1 - p.am) / (1 - p.af), p.gamma * h, bh2, w.psi, sp ? gw.map : NULL};
  // velocity rows scaled by beta h / gamma: B + (beta h / gamma) Z T, O(1) like B T
  rdAsmStab x = {1, bh2 / (p.gamma * h), gw.phi, gw.Bc};
  double err = 2, prev = 2, theta = g->theta;
  int iter = 0, worst = 0, reuse = 0, done = 0;
  // full Newton may stop on the estimate (solver.newton_test); modified Newton keeps its test
  int estimate = !o->modified_newton && o->newton_test == RD_NEWTON_ESTIMATE;
  while (iter < o->max_iter && !done) {
    iter++;
    rd_implicitUpdateFrame(m, w.qn, w.dq, stab ? gw.cor : NULL, h, sp, s->q, w.psi);
    if (sp) {
      convert_rates(m, s->q, v, s->v, 0);
      convert_rates(m, s->q, vd, s->vd, 0);
      held_rates(m, g->hold, s);
      rd_assembleSpatialMaps(m, s->q, s->v, s->vd, w.psi, gw.map);
    }
    // the first iteration of a step: the last step's factorization if it converged fast with
    // the same h; later ones: the current factorization while the corrections contract fast
    // (the same h: rd_advance's steps to grid points differ from h in the last bits)
    reuse = o->modified_newton && ls->factored && ls->owner == d &&
            fabs(h - g->h_fact) <= 1e-10 * h && (iter == 1 ? g->keep : theta < GA_THETA_MAX);
    int st = rd_assembleEx(m, d, t1, s->q, s->v, s->vd, s->lambda, &c, stab ? &x : NULL, w.r, NULL,
                           reuse ? NULL : w.Ax);
    if (st != RD_OK) {
      return st;
    }
    rd_redundantMask(m, d, w.r, NULL, reuse ? NULL : w.Ax);
    if (g->hold) {
      st = g->hold->apply(m, d, g->hold->user, c.cM, s->vd, w.r, NULL, reuse ? NULL : w.Ax);
      if (st != RD_OK) {
        return st;
      }
    }
    if (stab && iter == 1) {
      // the direction of the correction: B T at the predictor, fixed for the step (spatial
      // form: in global components, as the correction it makes)
      if (sp) {
        joint_rotate(m, s->q, gw.Bc, gw.Bh, 1);
      } else {
        memcpy(gw.Bh, gw.Bc, (size_t)m->njoint * RD_ASM_BSTRIDE * sizeof(double));
      }
    }
    for (int k = 0; k < ndof; k++) {
      w.sol[k] = -bh2 * w.r[k];
    }
    for (int k = 0; k < ncon; k++) {
      w.sol[ndof + k] = -(stab ? x.cZ : 1) * w.r[ndof + k];
    }
    if (!reuse) {
      long nfull = ls->nfactor;
      st = rd_implicitFactor(d, ls, w.Ax);
      if (st > 0) {
        d->stats.newton_iterations += iter;
        return factor_message(m, d, ls, st, h);
      }
      if (st < 0) {
        return st;
      }
      g->h_fact = h;
      g->mbar = mass_scale(m, w.Ax, g->hold);
      if (g->Afact) {
        // the history of a checkpoint (ga_history_save)
        memcpy(g->Afact, w.Ax, (size_t)m->pattern->nnz * sizeof(double));
        g->fact_full = ls->nfactor != nfull;
      }
    }
    st = rd_linsolSolve(ls, w.sol);
    if (st != RD_OK) {
      return st;
    }
    if (stab) {
      // position constraints: Bc (dx + Bh^T d(h eta)) = -phi, with Bc = B T at the iterate
      // (spatial form: dx and Bc in body components at the iterate, Bh turned to them)
      double* rhs = w.r + ndof;  // the velocity residual is no longer needed
      joint_b(m, gw.Bc, w.sol, rhs);
      for (int k = 0; k < ncon; k++) {
        rhs[k] = -gw.phi[k] - rhs[k];
      }
      if (sp) {
        joint_rotate(m, s->q, gw.Bh, gw.Bhb, 0);
      }
      eta_matrix(m, g, gw.Bc, sp ? gw.Bhb : gw.Bh);
      rd_redundantMaskCon(m, d, g->Ap, g->Ai, g->Ax, rhs);
      st = rd_linsolFactor(g->le, g->Ax);
      d->stats.factorizations++;
      if (st > 0) {
        d->stats.newton_iterations += iter;
        return factor_message(m, d, g->le, st, h);
      }
      if (st < 0) {
        return st;
      }
      st = rd_linsolSolve(g->le, rhs);
      if (st != RD_OK) {
        return st;
      }
      for (int k = 0; k < ncon; k++) {
        gw.eta[k] += rhs[k];
      }
      joint_bt(m, gw.Bh, rhs, gw.dcor);
      for (int k = 0; k < 6 * nn; k++) {
        gw.cor[k] += gw.dcor[k];
      }
    }
    if (sp) {
      // the rotation increments from body components at the iterate to global ones
      for (int i = 0; i < nn; i++) {
        if (m->node_kind[i] == RD_NODE_RIGID) {
          double* xr = w.sol + m->node_dof[i] + 3;
          double t[3];
          rdu_quatRotate(t, s->q + 7 * i + 3, xr);
          v3_copy(xr, t);
        }
      }
    }
    // a correction that turns a node by more than half a turn: Newton has left the region
    // where the update is a chart (the tangent operator is singular at 2 pi), stop the step
    for (int i = 0; i < nn; i++) {
      double turn = m->node_kind[i] == RD_NODE_RIGID ? v3_norm(w.sol + m->node_dof[i] + 3) : 0;
      if (turn > 3.14159265358979323846 || !isfinite(turn)) {
        d->stats.newton_iterations += iter;
        return RD_ERROR(m->ctx, RD_RECOVER_NEWTON,
                        "Newton diverged in the step from t = %.17g (h = %g): iteration %d turns "
                        "node '%s' by %.3g rad",
                        s->t, h, iter, m->node_name[i], turn);
      }
    }
    // increments and the Arnold-Hante norm; adaptive steps cap its scale by the controller's
    // d->newton_cap (a fraction of the error the step may make)
    double sum = 0, big = -1, cap = d->newton_cap > 0 ? d->newton_cap : INFINITY;
    for (int i = 0; i < nn; i++) {
      int n = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
      for (int k = 0; k < n; k++) {
        int dof = m->node_dof[i] + k;
        double dx = w.sol[dof];
        double* dqk = w.dq + 6 * i + k;
        *dqk += dx / h;
        v[6 * i + k] += gp * dx;
        vd[6 * i + k] += bp * dx;
        double step = h * *dqk, inc = fabs(dx);
        if (stab) {
          // the configuration moves by dx + the change of the correction
          step += gw.cor[6 * i + k];
          inc = fmax(inc, fabs(dx + gw.dcor[6 * i + k]));
        }
        double e = inc / fmin(o->atol + o->rtol * fabs(step), cap);
        rd_implicitNormAdd(e, dof, &sum, &big, &worst);
      }
    }
    for (int k = 0; k < ncon; k++) {
      s->lambda[k] += w.sol[ndof + k] / bh2;
    }
    // multipliers (docs/generalized_alpha.md): |dlambda_k| / (atol mbar / (beta h^2) + rtol L),
    // L the largest |lambda| of the model and mbar the smallest translational diagonal of the
    // scaled matrix (a mass): a multiplier is converged when the motion it causes in the step,
    // beta h^2 dlambda / mbar, is below atol. lambda = solution / (beta h^2) carries the
    // round-off of phi over beta h^2, so a per-component (or per-joint) scale near zero -- the
    // far end of a chain -- cannot be met
    double lmax = 0, mbar = g->mbar;  // of the last assembled matrix
    for (int k = 0; k < ncon; k++) {
      lmax = fmax(lmax, fabs(s->lambda[k]));
    }
    double ltol = o->atol * (mbar > 0 ? mbar : 1) / bh2 + o->rtol * lmax;
    ltol = fmin(ltol, cap * (mbar > 0 ? mbar : 1) / bh2);
    for (int k = 0; k < ncon; k++) {
      double e = w.sol[ndof + k] / bh2 / ltol;
      rd_implicitNormAdd(e, ndof + k, &sum, &big, &worst);
    }
    prev = err;
    int nknown = g->hold ? g->hold->nfree : ndof + ncon;
    err = nknown > 0 ? sqrt(sum / nknown) : 0;
    // the rate: measured from the second iteration on; after a first iteration with the last
    // step's matrix, that step's rate; after a fresh one, the correction against 2
    if (iter > 1) {
      theta = err / prev;
    } else if (!reuse) {
      theta = err / 2;
    }
    // the error left in the iterate after this correction is about theta / (1 - theta) err
    // (Hairer & Wanner, Solving Ordinary Differential Equations II, Springer 1996, IV.8). With a
    // kept matrix (linear convergence) it must be within the tolerance as well
    if (reuse) {
      done = err <= 1 && theta < 1 && theta * err <= 1 - theta;
    } else {
      done = err <= 1;
    }
    // full Newton stops on that estimate alone from the second iteration on. The first
    // correction mostly removes the predictor's error, so theta from it says nothing of a slow
    // tail (a load that enters without its derivative): the rate assumed is at least the one
    // last measured from a third iteration, and after GA_CONFIRM stops a step that would stop
    // iterates once more to measure it again
    if (estimate && iter > 2) {
      d->newton_rate = theta;
      d->newton_trust = GA_CONFIRM;
    }
    double th = fmax(theta, d->newton_rate);
    if (!done && estimate && iter > 1 && th < 1 && th * err <= 1 - th && d->newton_trust > 0) {
      done = 1;
      d->newton_trust--;
    }
  }
  d->stats.newton_iterations += iter;
  if (!done) {
    char name[256];
    rd_unknownName(m, worst, name, sizeof(name));
    return RD_ERROR(m->ctx, RD_RECOVER_NEWTON,
                    "Newton did not converge in %d iterations in the step from t = %.17g "
                    "(h = %g): error norm %.3g, largest at %s",
                    iter, s->t, h, err, name);
  }
  d->stats.last_newton_iterations = iter;
  g->theta = theta;
  g->keep = o->modified_newton && iter <= GA_KEEP_ITER && theta < GA_THETA_MAX;
  rd_implicitUpdateFrame(m, w.qn, w.dq, stab ? gw.cor : NULL, h, sp, s->q, w.psi);
  for (int k = 0; k < 6 * nn; k++) {
    a[k] += vd[k] * (1 - p.af) / (1 - p.am);
  }
  // local error estimate of the configuration. a_n approximates the acceleration at
  // t_n + (alpha_m - alpha_f) h, so q_{n+1} = q_n + h v_n + h^2 ((1/2 - beta) a_n + beta a_{n+1})
  // differs from the Taylor series by C h^3 q''' + O(h^4), C = beta + (alpha_m - alpha_f) / 2
  // - 1/6 (1/12 at rho_inf = 1, the trapezoidal rule), with h q''' = a_{n+1} - a_n + O(h^2).
  // A rotation has the Lie group's term besides: the exact increment is h v + h^2/2 v' +
  // h^3/6 v'' -+ h^3/12 v x v' (body, spatial form), so its error is C h^3 v'' +- h^3/12 v x v'
  double cl = (p.beta + 0.5 * (p.am - p.af) - 1.0 / 6) * h * h, el = 0;
  double cw = (sp ? 1 : -1) * h * h * h / 12;
  for (int i = 0; i < nn; i++) {
    int rigid = m->node_kind[i] == RD_NODE_RIGID;
    double e[6], cx[3] = {0, 0, 0};
    if (rigid) {
      v3_cross(cx, v + 6 * i + 3, vd + 6 * i + 3);
    }
    for (int k = 0; k < (rigid ? 6 : 3); k++) {
      e[k] = cl * (a[6 * i + k] - gw.an[6 * i + k]) + (k >= 3 ? cw * cx[k - 3] : 0);
    }
    el = fmax(el, fmax(v3_norm(e), rigid ? v3_norm(e + 3) : 0));
  }
  d->step_error = el;
  if (sp) {
    convert_rates(m, s->q, v, s->v, 0);
    convert_rates(m, s->q, vd, s->vd, 0);
    convert_rates(m, s->q, a, s->a, 0);
    held_rates(m, g->hold, s);
  }
  return RD_OK;
}


static int ga_correct(const rdModel* m, rdData* d, double h) {
  // a recoverable failure from the predicted state: once more from the last configuration;
  // if that fails too, the first failure is what the step reports
  // (the step's Newton iterations are those of both starts)
  long before = d->stats.newton_iterations;
  int st = ga_correct_(m, d, h);
  if (st > 0 && d->solver && restart_at_last(m, d, h)) {
    char first[RD_ERRLEN];
    snprintf(first, sizeof(first), "%s", rd_lastError(m->ctx));
    int again = ga_correct_(m, d, h);
    st = again == RD_OK ? RD_OK : again < 0 ? again : RD_ERROR(m->ctx, st, "%s", first);
    if (st == RD_OK) {
      d->stats.last_newton_iterations = (int)(d->stats.newton_iterations - before);
    }
  }
  if (st != RD_OK && d->solver) {
    ((gaSolver*)d->solver)->keep = 0;  // a failed step refactors at its retry
  }
  return st;
}


void rd_gaSetHold(rdData* d, const rdGaHold* hold) {
  ((gaSolver*)d->solver)->hold = hold;
}


static int ga_step(const rdModel* m, rdData* d, double h) {
  int st = ga_predict(m, d, h);
  return st != RD_OK ? st : ga_correct(m, d, h);
}


int rd_gaCorrectionMatrix(const rdModel* m, rdData* d, const double* Bc, const double* Bh,
                          double* E) {
  gaSolver* g = d->solver;
  if (!g || !g->le) {
    return RD_ERR_STATE;
  }
  int nc = m->nconstraint;
  eta_matrix(m, g, Bc, Bh);
  memset(E, 0, (size_t)nc * (size_t)nc * sizeof(double));
  for (int col = 0; col < nc; col++) {
    for (int k = g->Ap[col]; k < g->Ap[col + 1]; k++) {
      E[(size_t)g->Ai[k] * (size_t)nc + (size_t)col] = g->Ax[k];
    }
  }
  return RD_OK;
}


static void ga_release(const rdModel* m, rdData* d) {
  gaSolver* g = d->solver;
  rd_implicitRelease(m, d, g ? &g->ls : NULL);
  if (!g) {
    return;
  }
  rd_linsolDestroy(&g->le);
  rd_free(m->ctx, g->Ap);
  rd_free(m->ctx, g->Ai);
  rd_free(m->ctx, g->jptr);
  rd_free(m->ctx, g->jrow);
  rd_free(m->ctx, g->joff);
  rd_free(m->ctx, g->Ax);
  rd_free(m->ctx, g->Afact);
  rd_free(m->ctx, g);
  d->solver = NULL;
}


// the joints that share a node with joint J (J itself included), in increasing order, into
// out; from the joints of each node (jstart/jlist, CSR, increasing): a merge of J's two lists
static int coupled_joints(const rdModel* m, const int* jstart, const int* jlist, int J, int* out) {
  int node[2], off[2];
  int nn = joint_layout(m, J, node, off);
  int a = jstart[node[0]], ae = jstart[node[0] + 1];
  int b = nn > 1 ? jstart[node[1]] : 0, be = nn > 1 ? jstart[node[1] + 1] : 0;
  int n = 0;
  while (a < ae || b < be) {
    int next = b >= be || (a < ae && jlist[a] <= jlist[b]) ? jlist[a] : jlist[b];
    a += a < ae && jlist[a] == next;
    b += b < be && jlist[b] == next;
    out[n++] = next;
  }
  return n;
}


// pattern of the correction matrix: dense joint blocks for joints sharing a node, found through
// the joints of each node (the pattern's size, not njoint^2, once per data)
static int eta_pattern(const rdModel* m, gaSolver* g) {
  rdContext* ctx = m->ctx;
  int nj = m->njoint, nc = m->nconstraint, nnode = m->nnode;
  g->jptr = rd_calloc(ctx, (size_t)nj + 1, sizeof(int));
  g->Ap = rd_calloc(ctx, (size_t)nc + 1, sizeof(int));
  int* jstart = rd_calloc(ctx, (size_t)nnode + 1, sizeof(int));
  int* jlist = rd_calloc(ctx, 2 * (size_t)nj + 1, sizeof(int));
  int* cpl = NULL;   // the coupled joints of one joint
  int* fill = NULL;  // next free place in each node's list
  int st = RD_ERR_NOMEM;
  if (!g->jptr || !g->Ap || !jstart || !jlist) {
    goto done;
  }
  int node[2], off[2], most = 0;
  for (int J = 0; J < nj; J++) {
    int nn = joint_layout(m, J, node, off);
    for (int k = 0; k < nn; k++) {
      jstart[node[k] + 1]++;
    }
  }
  for (int i = 0; i < nnode; i++) {
    most = jstart[i + 1] > most ? jstart[i + 1] : most;
    jstart[i + 1] += jstart[i];
  }
  cpl = rd_calloc(ctx, 2 * (size_t)most + 1, sizeof(int));
  fill = rd_calloc(ctx, (size_t)nnode + 1, sizeof(int));
  if (!cpl || !fill) {
    goto done;
  }
  memcpy(fill, jstart, (size_t)nnode * sizeof(int));
  for (int J = 0; J < nj; J++) {
    int nn = joint_layout(m, J, node, off);
    for (int k = 0; k < nn; k++) {
      jlist[fill[node[k]]++] = J;  // in increasing J
    }
  }
  size_t npair = 0, nnz = 0;
  for (int J = 0; J < nj; J++) {
    int n = coupled_joints(m, jstart, jlist, J, cpl);
    npair += (size_t)n;
    for (int q = 0; q < n; q++) {
      nnz += (size_t)m->joint[cpl[q]].nrow * (size_t)m->joint[J].nrow;
    }
  }
  g->jrow = rd_calloc(ctx, npair + 1, sizeof(int));
  g->joff = rd_calloc(ctx, npair + 1, sizeof(int));
  g->Ai = rd_calloc(ctx, nnz + 1, sizeof(int));
  g->Ax = rd_calloc(ctx, nnz + 1, sizeof(double));
  if (!g->jrow || !g->joff || !g->Ai || !g->Ax) {
    goto done;
  }
  int e = 0, pos = 0;
  for (int J = 0; J < nj; J++) {
    g->jptr[J] = e;
    int len = 0, n = coupled_joints(m, jstart, jlist, J, cpl);
    for (int q = 0; q < n; q++) {
      g->jrow[e] = cpl[q];
      g->joff[e++] = len;
      len += m->joint[cpl[q]].nrow;
    }
    // joints are numbered in increasing row order, so rows come out sorted
    for (int k = 0; k < m->joint[J].nrow; k++) {
      g->Ap[m->joint[J].row + k] = pos;
      for (int q = g->jptr[J]; q < e; q++) {
        int I = g->jrow[q];
        for (int i = 0; i < m->joint[I].nrow; i++) {
          g->Ai[pos++] = m->joint[I].row + i;
        }
      }
    }
  }
  g->jptr[nj] = e;
  g->Ap[nc] = pos;
  st = rd_linsolCreate(ctx, m->opt.linear_solver, nc, g->Ap, g->Ai, &g->le);
done:
  rd_free(ctx, jstart);
  rd_free(ctx, jlist);
  rd_free(ctx, cpl);
  rd_free(ctx, fill);
  return st;
}


// the factorization belongs to the data (rd_implicitAttach), with the correction matrix of the
// stabilized formulation and the kept matrix of modified Newton
static int ga_attach(const rdModel* m, rdData* d) {
  gaSolver* g = rd_calloc(m->ctx, 1, sizeof(gaSolver));
  if (!g) {
    return RD_ERR_NOMEM;
  }
  d->solver = g;
  if (m->pattern->n == 0) {
    return RD_OK;
  }
  int st = rd_implicitAttach(m, d, &g->ls);
  if (st == RD_OK && m->opt.formulation == RD_GA_STABILIZED && m->nconstraint > 0) {
    st = eta_pattern(m, g);
  }
  if (st == RD_OK && m->opt.modified_newton) {
    g->Afact = rd_calloc(m->ctx, (size_t)m->pattern->nnz + 1, sizeof(double));
    st = g->Afact ? RD_OK : RD_ERR_NOMEM;
  }
  if (st != RD_OK) {
    ga_release(m, d);
  }
  return st;
}


// checkpoints carry the linear solvers' factorization history (KLU's pivot order): the main
// solver's, then the stabilized formulation's correction solver's; with modified Newton also
// the kept factorization (GA_MN_HEAD doubles: usable, h_fact, mbar, theta, keep, fact_full;
// then its values), which a resumed run refactors so that it reuses the same matrix; with full
// Newton the GA_EST doubles of its estimate stop (d->newton_rate, newton_trust; whatever
// solver.newton_test, so that a run may resume with the other test)
enum { GA_MN_HEAD = 6, GA_EST = 2 };


static size_t ga_history_size(const rdModel* m, const rdData* d) {
  const gaSolver* g = d->solver;
  if (!g) {
    return 0;
  }
  size_t n = rd_linsolHistorySize(g->ls) + rd_linsolHistorySize(g->le);
  if (g->Afact) {
    n += GA_MN_HEAD + (size_t)m->pattern->nnz;
  }
  if (!m->opt.modified_newton) {
    n += GA_EST;
  }
  return sizeof(double) * n;
}


static void ga_history_save(const rdModel* m, const rdData* d, void* buf) {
  const gaSolver* g = d->solver;
  double* p = buf;
  rd_linsolSaveHistory(g->ls, p);
  p += rd_linsolHistorySize(g->ls);
  rd_linsolSaveHistory(g->le, p);
  p += rd_linsolHistorySize(g->le);
  if (!m->opt.modified_newton) {
    p[0] = d->newton_rate;
    p[1] = d->newton_trust;
    p += GA_EST;
  }
  if (g->Afact) {
    int usable = g->ls && g->ls->factored && g->ls->owner == d && g->h_fact > 0;
    double head[GA_MN_HEAD] = {usable, g->h_fact, g->mbar, g->theta, g->keep, g->fact_full};
    memcpy(p, head, sizeof(head));
    memcpy(p + GA_MN_HEAD, g->Afact, (size_t)m->pattern->nnz * sizeof(double));
  }
}


static int ga_history_load(const rdModel* m, rdData* d, const void* buf) {
  gaSolver* g = d->solver;
  if (!g) {
    return RD_OK;
  }
  const double* p = buf;
  int st = g->ls ? rd_linsolLoadHistory(g->ls, p) : RD_OK;
  p += rd_linsolHistorySize(g->ls);
  if (st == RD_OK && g->le) {
    st = rd_linsolLoadHistory(g->le, p);
  }
  p += rd_linsolHistorySize(g->le);
  if (!m->opt.modified_newton) {
    d->newton_rate = p[0];
    d->newton_trust = (int)p[1];
    p += GA_EST;
  }
  if (st != RD_OK || !g->Afact) {
    return st;
  }
  g->keep = 0;
  g->h_fact = 0;
  g->theta = p[3];
  if (p[0] == 0) {
    return RD_OK;  // the next step factors
  }
  memcpy(g->Afact, p + GA_MN_HEAD, (size_t)m->pattern->nnz * sizeof(double));
  g->fact_full = p[5] != 0;
  // a full factorization of Afact is what the solver's own history rebuilt (KLU); otherwise
  // factor Afact (KLU: a refactor with the saved pivot order, as in the saved run)
  if (!g->fact_full || rd_linsolHistorySize(g->ls) == 0) {
    st = rd_linsolFactor(g->ls, g->Afact);
  }
  if (st == RD_OK) {
    g->ls->owner = d;
    g->h_fact = p[1];
    g->mbar = p[2];
    g->keep = p[4] != 0;
  }
  return st > 0 ? RD_OK : st;  // singular: the next step factors again and says so
}


const rdStepper rd_stepperGeneralizedAlpha = {
    .method = RD_METHOD_GENERALIZED_ALPHA,
    .prepare = rd_implicitPrepare,
    .unprepare = rd_implicitUnprepare,
    .check = ga_check,
    .memory_size = rd_redundantMemorySize,
    .work_size = ga_work_size,
    .initialize = ga_initialize,
    .step = ga_step,
    .predict = ga_predict,
    .correct = ga_correct,
    .attach = ga_attach,
    .release = ga_release,
    .history_size = ga_history_size,
    .history_save = ga_history_save,
    .history_load = ga_history_load,
};
