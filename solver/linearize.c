// SPDX-License-Identifier: MIT
// Linearized equations at an operating point: M, D, K from three assemblies (the time stepper's
// exact tangents) with the terms of a spinning frame, the constraint Jacobian, and Newton for
// the steady state of a spinning model (docs/modal.md).
#include "solver/linearize.h"

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

void rd_linFrameRates(const rdModel* m, const rdLinFrame* f, const double* q, double* v,
                      double* vd) {
  for (int i = 0; i < m->nnode; i++) {
    const double* x = q + 7 * i;
    double r[3], u[3];
    v3_sub(r, x, f->center);
    v3_cross(v + 6 * i, f->omega, r);
    v3_cross(vd + 6 * i, f->omega, v + 6 * i);
    if (m->node_kind[i] == RD_NODE_RIGID) {
      rdu_quatRotateInv(u, x + 3, f->omega);
      v3_copy(v + 6 * i + 3, u);
    } else {
      memset(v + 6 * i + 3, 0, 3 * sizeof(double));
    }
    memset(vd + 6 * i + 3, 0, 3 * sizeof(double));
  }
}


// the node-row, node-column block (rows and columns < ndof) of the pattern values Ax into A,
// allocated here; the same structure for every Ax
static int extract_dofs(const rdModel* m, const double* Ax, rdCsc* A) {
  const rdPattern* P = m->pattern;
  int n = m->ndof, nnz = 0;
  for (int c = 0; c < n; c++) {
    for (int p = P->Ap[c]; p < P->Ap[c + 1] && P->Ai[p] < n; p++) {
      nnz++;
    }
  }
  int st = rd_cscAlloc(m->ctx, n, n, nnz, A);
  if (st != RD_OK) {
    return st;
  }
  nnz = 0;
  for (int c = 0; c < n; c++) {
    for (int p = P->Ap[c]; p < P->Ap[c + 1] && P->Ai[p] < n; p++) {
      A->Ai[nnz] = P->Ai[p];
      A->Ax[nnz++] = Ax[p];
    }
    A->Ap[c + 1] = nnz;
  }
  return RD_OK;
}


// the constraint rows (rows >= ndof) in the node columns of Ax: B, nconstraint x ndof
static int extract_b(const rdModel* m, const double* Ax, rdCsc* B) {
  const rdPattern* P = m->pattern;
  int n = m->ndof, nnz = 0;
  for (int c = 0; c < n; c++) {
    for (int p = P->Ap[c]; p < P->Ap[c + 1]; p++) {
      nnz += P->Ai[p] >= n;
    }
  }
  int st = rd_cscAlloc(m->ctx, m->nconstraint, n, nnz, B);
  if (st != RD_OK) {
    return st;
  }
  nnz = 0;
  for (int c = 0; c < n; c++) {
    for (int p = P->Ap[c]; p < P->Ap[c + 1]; p++) {
      if (P->Ai[p] >= n) {
        B->Ai[nnz] = P->Ai[p] - n;
        B->Ax[nnz++] = Ax[p];
      }
    }
    B->Ap[c + 1] = nnz;
  }
  return RD_OK;
}


// the 3 x 3 blocks (row-major) of the frame terms of node i, translation (t) and rotation (r):
// Gv = diag(omega~, W~), Gc = diag(2 omega~, W~), Ga = diag(omega~ omega~, Wd~)
typedef struct {
  double vt[9], vr[9], ct[9], cr[9], at[9], ar[9];
} frameBlocks;


static void frame_blocks(const rdLinFrame* f, const double* v, const double* vd, frameBlocks* g) {
  m3_skew(g->vt, f->omega);
  m3_skew(g->vr, v + 3);
  for (int k = 0; k < 9; k++) {
    g->ct[k] = 2 * g->vt[k];
    g->cr[k] = g->vr[k];
  }
  m3_mul(g->at, g->vt, g->vt);
  m3_skew(g->ar, vd + 3);
}


// rows < nrow of columns c0 .. c0+2 of X (values Xx, structure Ap/Ai shared with A): A += X G
// (G row-major 3 x 3). The three columns of a node block have the same rows (the pattern
// stores whole node blocks).
static void add_times(const int* Ap, const int* Ai, int nrow, double* Ax, const double* Xx, int c0,
                      const double G[9]) {
  int len = Ap[c0 + 1] - Ap[c0];
  for (int k = 0; k < len; k++) {
    if (Ai[Ap[c0] + k] >= nrow) {
      break;
    }
    double x[3];
    for (int l = 0; l < 3; l++) {
      x[l] = Xx[Ap[c0 + l] + k];
    }
    for (int j = 0; j < 3; j++) {
      Ax[Ap[c0 + j] + k] += x[0] * G[j] + x[1] * G[3 + j] + x[2] * G[6 + j];
    }
  }
}


// on the node rows of the node columns of pattern values (structure Ap/Ai): K += C Gv + M Ga
// with C and M as given (Cx may be NULL: no C Gv)
static void frame_stiffness(const rdModel* m, const int* Ap, const int* Ai, const rdLinFrame* f,
                            const double* v, const double* vd, const double* Mx, const double* Cx,
                            double* Kx) {
  for (int i = 0; i < m->nnode; i++) {
    frameBlocks g;
    frame_blocks(f, v + 6 * i, vd + 6 * i, &g);
    int c = m->node_dof[i], rigid = m->node_kind[i] == RD_NODE_RIGID;
    if (Cx) {
      add_times(Ap, Ai, m->ndof, Kx, Cx, c, g.vt);
    }
    add_times(Ap, Ai, m->ndof, Kx, Mx, c, g.at);
    if (rigid && Cx) {
      add_times(Ap, Ai, m->ndof, Kx, Cx, c + 3, g.vr);
    }
    if (rigid) {
      add_times(Ap, Ai, m->ndof, Kx, Mx, c + 3, g.ar);
    }
  }
}


// D += M Gc, likewise
static void frame_damping(const rdModel* m, const int* Ap, const int* Ai, const rdLinFrame* f,
                          const double* v, const double* vd, const double* Mx, double* Dx) {
  for (int i = 0; i < m->nnode; i++) {
    frameBlocks g;
    frame_blocks(f, v + 6 * i, vd + 6 * i, &g);
    int c = m->node_dof[i];
    add_times(Ap, Ai, m->ndof, Dx, Mx, c, g.ct);
    if (m->node_kind[i] == RD_NODE_RIGID) {
      add_times(Ap, Ai, m->ndof, Dx, Mx, c + 3, g.cr);
    }
  }
}


// M, C and K (each with the constraint blocks B^T and B the assembly adds) at the state into
// the pattern values Mx, Cx, Kx, and the residual r
static int assemble3(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                     const double* vd, const double* lam, double* r, double* Mx, double* Cx,
                     double* Kx) {
  // the body form (spatial NULL), whatever solver.rotation_frame: the linearization's rotation
  // coordinates are body increments, R = R_op exp(skew(theta)), as rd_linMatrices documents
  rdAsmCoef cm = {1, 0, 0, NULL, NULL}, cc = {0, 1, 0, NULL, NULL}, ck = {0, 0, 1, NULL, NULL};
  int st = rd_assemble(m, d, t, q, v, vd, lam, &cm, r, NULL, Mx);
  if (st == RD_OK) {
    st = rd_assemble(m, d, t, q, v, vd, lam, &cc, r, NULL, Cx);
  }
  if (st == RD_OK) {
    st = rd_assemble(m, d, t, q, v, vd, lam, &ck, r, NULL, Kx);
  }
  return st;
}


int rd_linMatrices(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                   const double* vd, const double* lam, const rdLinFrame* f, double* r, rdCsc* M,
                   rdCsc* D, rdCsc* K, rdCsc* B) {
  rdContext* ctx = m->ctx;
  memset(M, 0, sizeof(*M));
  memset(D, 0, sizeof(*D));
  memset(K, 0, sizeof(*K));
  memset(B, 0, sizeof(*B));
  const rdPattern* P = m->pattern;
  size_t nnz = (size_t)P->nnz, N = (size_t)(m->ndof + m->nconstraint);
  double* Mx = rd_alloc(ctx, sizeof(double) * (nnz + 1));
  double* Cx = rd_alloc(ctx, sizeof(double) * (nnz + 1));
  double* Kx = rd_alloc(ctx, sizeof(double) * (nnz + 1));
  double* res = r ? r : rd_alloc(ctx, sizeof(double) * (N + 1));
  int st = Mx && Cx && Kx && res ? RD_OK : RD_ERR_NOMEM;
  if (st == RD_OK) {
    st = assemble3(m, d, t, q, v, vd, lam, res, Mx, Cx, Kx);
  }
  if (st == RD_OK) {
    // K first: it needs C before C becomes D
    frame_stiffness(m, P->Ap, P->Ai, f, v, vd, Mx, Cx, Kx);
    frame_damping(m, P->Ap, P->Ai, f, v, vd, Mx, Cx);
    st = extract_dofs(m, Mx, M);
  }
  st = st == RD_OK ? extract_dofs(m, Cx, D) : st;
  st = st == RD_OK ? extract_dofs(m, Kx, K) : st;
  st = st == RD_OK ? extract_b(m, Kx, B) : st;
  if (st != RD_OK) {
    rd_cscFree(ctx, M);
    rd_cscFree(ctx, D);
    rd_cscFree(ctx, K);
    rd_cscFree(ctx, B);
  }
  rd_free(ctx, Mx);
  rd_free(ctx, Cx);
  rd_free(ctx, Kx);
  if (!r) {
    rd_free(ctx, res);
  }
  return st;
}


// ---------------------------------------------------------------------------------------------
// steady state

// scratch of the steady-state Newton
typedef struct {
  double *v, *vd, *r, *sol, *Mx, *Cx, *Kx, *q0;
  rdLinSol* ls;
} steadyWork;


// Newton at the full rate of f from (q, lam); RD_OK, or RD_ERR_NUMERIC with the reason in msg
static int newton(const rdModel* m, rdData* d, double t, const rdLinFrame* f, double* q,
                  double* lam, steadyWork* w, int* iterations, char* msg, size_t msize) {
  const rdPattern* P = m->pattern;
  const rdOptions* o = &m->opt;
  int ndof = m->ndof, ncon = m->nconstraint, nn = m->nnode;
  memcpy(w->q0, q, 7 * (size_t)nn * sizeof(double));
  // the tolerances: a thousandth of the model's (the matrices are only as good as the state)
  double atol = 1e-3 * o->atol, rtol = 1e-3 * o->rtol, err = 2, prev = 4;
  for (int iter = 1; iter <= 60; iter++) {
    rd_linFrameRates(m, f, q, w->v, w->vd);
    int st = assemble3(m, d, t, q, w->v, w->vd, lam, w->r, w->Mx, w->Cx, w->Kx);
    if (st != RD_OK) {
      return st;
    }
    frame_stiffness(m, P->Ap, P->Ai, f, w->v, w->vd, w->Mx, w->Cx, w->Kx);
    rd_redundantMask(m, d, w->r, NULL, w->Kx);
    double s = ncon > 0 ? rd_implicitConstraintScale(m, w->Kx) : 1;
    rd_implicitScaleConstraints(m, w->Kx, s);
    for (int k = 0; k < ndof + ncon; k++) {
      w->sol[k] = -(k < ndof ? 1 : s) * w->r[k];
    }
    *iterations += 1;
    st = rd_linsolFactor(w->ls, w->Kx);
    if (st > 0) {
      char name[256];
      rd_unknownName(m, w->ls->singular_col, name, sizeof(name));
      snprintf(msg, msize, "singular matrix at %s (a mechanism, or an unstable state)", name);
      return RD_ERR_NUMERIC;
    }
    if (st == RD_OK) {
      st = rd_linsolSolve(w->ls, w->sol);
    }
    if (st != RD_OK) {
      return st;
    }
    // the update q o exp(dx) and the error norm (docs/generalized_alpha.md, static analysis)
    double sum = 0, turn = 0;
    for (int i = 0; i < nn; i++) {
      const double* dx = w->sol + m->node_dof[i];
      double* qi = q + 7 * i;
      for (int k = 0; k < 3; k++) {
        qi[k] += dx[k];
        double e = dx[k] / (atol + rtol * fabs(qi[k] - w->q0[7 * i + k]));
        sum += e * e;
      }
      if (m->node_kind[i] != RD_NODE_RIGID) {
        continue;
      }
      double e4[4], r4[4];
      rdu_rotvecToQuat(e4, dx + 3);
      rdu_quatMul(r4, qi + 3, e4);
      rdu_quatNormalize(qi + 3, r4);
      for (int k = 3; k < 6; k++) {
        double e = dx[k] / (atol + rtol);  // relative to a radian
        sum += e * e;
      }
      turn = fmax(turn, v3_norm(dx + 3));
    }
    double lmax = 0;
    for (int k = 0; k < ncon; k++) {
      lam[k] += s * w->sol[ndof + k];
      lmax = fmax(lmax, fabs(lam[k]));
    }
    for (int k = 0; k < ncon; k++) {
      double e = s * w->sol[ndof + k] / (o->atol + rtol * lmax);
      sum += e * e;
    }
    prev = err;
    err = ndof + ncon > 0 ? sqrt(sum / (ndof + ncon)) : 0;
    if (!isfinite(err) || turn > 3.0) {
      snprintf(msg, msize, "Newton diverged (error norm %.3g, rotation increment %.3g rad)", err,
               turn);
      return RD_ERR_NUMERIC;
    }
    // converged; or at the model's tolerance and no longer contracting (round-off)
    if (err <= 1 || (err <= 1e3 && err > 0.5 * prev)) {
      return RD_OK;
    }
  }
  snprintf(msg, msize, "Newton did not converge in 60 iterations (error norm %.3g)", err);
  return RD_ERR_NUMERIC;
}


int rd_linSteady(const rdModel* m, rdData* d, double t, const rdLinFrame* f, double* q, double* lam,
                 int* iterations) {
  rdContext* ctx = m->ctx;
  const rdPattern* P = m->pattern;
  size_t nn = (size_t)m->nnode, nnz = (size_t)P->nnz, N = (size_t)P->n;
  int count = 0;
  if (iterations) {
    *iterations = 0;
  }
  if (N == 0) {
    return RD_OK;
  }
  steadyWork w;
  memset(&w, 0, sizeof(w));
  w.v = rd_alloc(ctx, sizeof(double) * 6 * nn);
  w.vd = rd_alloc(ctx, sizeof(double) * 6 * nn);
  w.q0 = rd_alloc(ctx, sizeof(double) * 7 * nn);
  w.r = rd_alloc(ctx, sizeof(double) * N);
  w.sol = rd_alloc(ctx, sizeof(double) * N);
  w.Mx = rd_alloc(ctx, sizeof(double) * (nnz + 1));
  w.Cx = rd_alloc(ctx, sizeof(double) * (nnz + 1));
  w.Kx = rd_alloc(ctx, sizeof(double) * (nnz + 1));
  double* qs = rd_alloc(ctx, sizeof(double) * 7 * nn);
  double* ls = rd_alloc(ctx, sizeof(double) * ((size_t)m->nconstraint + 1));
  int st = w.v && w.vd && w.q0 && w.r && w.sol && w.Mx && w.Cx && w.Kx && qs && ls ? RD_OK
                                                                                   : RD_ERR_NOMEM;
  if (st == RD_OK) {
    st = rd_linsolCreate(ctx, RD_LINSOL_KLU, P->n, P->Ap, P->Ai, &w.ls);
  }
  char msg[512] = "";
  if (st == RD_OK) {
    w.ls->model = m;
    memcpy(qs, q, sizeof(double) * 7 * nn);
    memcpy(ls, lam, sizeof(double) * (size_t)m->nconstraint);
    // the full rate, then ramps of 2, 4, 8, 16 stages, each from the start
    for (int stages = 1; stages <= 16; stages *= 2) {
      if (stages > 1 && v3_norm(f->omega) == 0) {
        break;  // no rate to ramp
      }
      memcpy(q, qs, sizeof(double) * 7 * nn);
      memcpy(lam, ls, sizeof(double) * (size_t)m->nconstraint);
      st = RD_OK;
      for (int k = 1; k <= stages && st == RD_OK; k++) {
        rdLinFrame fk = *f;
        v3_scale(fk.omega, f->omega, (double)k / stages);
        st = newton(m, d, t, &fk, q, lam, &w, &count, msg, sizeof(msg));
      }
      if (st != RD_ERR_NUMERIC) {
        break;
      }
    }
    if (st == RD_ERR_NUMERIC) {
      memcpy(q, qs, sizeof(double) * 7 * nn);
      memcpy(lam, ls, sizeof(double) * (size_t)m->nconstraint);
      st = RD_ERROR(ctx, RD_ERR_NUMERIC, "steady state at t = %g, spin %g rad/s: %s", t,
                    v3_norm(f->omega), msg);
    }
  }
  if (iterations) {
    *iterations = count;
  }
  rd_linsolDestroy(&w.ls);
  rd_free(ctx, w.v);
  rd_free(ctx, w.vd);
  rd_free(ctx, w.q0);
  rd_free(ctx, w.r);
  rd_free(ctx, w.sol);
  rd_free(ctx, w.Mx);
  rd_free(ctx, w.Cx);
  rd_free(ctx, w.Kx);
  rd_free(ctx, qs);
  rd_free(ctx, ls);
  return st;
}
