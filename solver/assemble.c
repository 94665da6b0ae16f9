// SPDX-License-Identifier: MIT
// Residual and iteration matrix: element, load and joint contributions scattered through the
// precomputed block maps of the model's pattern.
#include "solver/assemble.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "constraints/constraint.h"
#include "elements/beam.h"
#include "elements/coupling.h"
#include "elements/element.h"
#include "elements/loads.h"
#include "elements/user_element.h"
#include "rodrigues/liegroup.h"
#include "solver/pattern.h"
#include "src/math/blk.h"

void rd_unknownName(const rdModel* m, int k, char* buf, int size) {
  static const char xyz[] = "xyz";
  if (k < m->ndof) {
    for (int i = 0; i < m->nnode; i++) {
      int nd = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
      int o = k - m->node_dof[i];
      if (o >= 0 && o < nd) {
        snprintf(buf, (size_t)size, "node '%s' %s %c", m->node_name[i],
                 o < 3 ? "translation" : "rotation", xyz[o % 3]);
        return;
      }
    }
  }
  int row = k - m->ndof;
  for (int j = 0; j < m->njoint; j++) {
    if (row >= m->joint[j].row && row < m->joint[j].row + m->joint[j].nrow) {
      snprintf(buf, (size_t)size, "joint '%s' equation %d", m->joint[j].def.name,
               row - m->joint[j].row + 1);
      return;
    }
  }
  snprintf(buf, (size_t)size, "unknown %d", k);
}


const char* rd_unknownOrigin(const rdModel* m, int k) {
  const char* origin = NULL;
  if (k >= 0 && k < m->ndof) {
    for (int i = 0; i < m->nnode; i++) {
      int o = k - m->node_dof[i];
      if (o >= 0 && o < (m->node_kind[i] == RD_NODE_RIGID ? 6 : 3)) {
        origin = m->node_origin ? m->node_origin[i] : NULL;
      }
    }
  }
  int row = k - m->ndof;
  for (int j = 0; k >= m->ndof && j < m->njoint; j++) {
    if (row >= m->joint[j].row && row < m->joint[j].row + m->joint[j].nrow) {
      origin = m->joint[j].origin;
    }
  }
  return origin ? origin : "";
}


// right-multiply the rotation columns of the rows x n matrix A by T(psi) of their node
static void apply_T(const rdModel* m, const double* psi, double* A, int rows, int n, int nnode,
                    const int* node, const int* off) {
  if (!psi) {
    return;
  }
  for (int b = 0; b < nnode; b++) {
    if (m->node_kind[node[b]] != RD_NODE_RIGID) {
      continue;
    }
    double T[9];
    rdu_tangentSO3(T, psi + 3 * node[b]);
    int c0 = off[b] + 3;
    for (int i = 0; i < rows; i++) {
      double* a = A + i * n + c0;
      double t0 = a[0], t1 = a[1], t2 = a[2];
      a[0] = t0 * T[0] + t1 * T[3] + t2 * T[6];
      a[1] = t0 * T[1] + t1 * T[4] + t2 * T[7];
      a[2] = t0 * T[2] + t1 * T[5] + t2 * T[8];
    }
  }
}


static int ndof_of(const rdModel* m, int node) {
  return m->node_kind[node] == RD_NODE_RIGID ? 6 : 3;
}


void rd_assembleSpatialMaps(const rdModel* m, const double* q, const double* v, const double* vd,
                            const double* psi, double* map) {
  for (int i = 0; i < m->nnode; i++) {
    if (m->node_kind[i] != RD_NODE_RIGID) {
      continue;
    }
    double* p = map + RD_ASM_SPATIAL * i;
    double pb[3] = {0, 0, 0};
    if (psi) {
      rdu_quatRotateInv(pb, q + 7 * i + 3, psi + 3 * i);
    }
    rdu_dexpSO3(p, pb);
    v3_copy(p + 9, v + 6 * i + 3);
    if (vd) {
      v3_copy(p + 12, vd + 6 * i + 3);
    } else {
      memset(p + 12, 0, 3 * sizeof(double));
    }
  }
}


// S (rows x n, row-major; not aliasing M, C, K) = cM M + cC C + cK K (each may be NULL) in the
// spatial form: a spatial increment R x turns the node by dTheta = T^T x and, at fixed spatial
// rates, moves the body rates W = R^T omega by skew(W) dTheta (dW/dt likewise), so the rotation
// columns of each rigid local node take cK (K + C skew(W) + M skew(dW)) T^T + cC C + cM M.
// Local node b starts at column off[b] (off NULL: 6 b)
static void spatial_sum(const rdModel* m, const double* map, double cM, double cC, double cK,
                        const double* M, const double* C, const double* K, double* S, int rows,
                        int n, int nnode, const int* node, const int* off) {
  // term by term, each loop free of tests: the same sums as (cM M + cC C) + cK K per entry with
  // the absent terms as +0 (which turns a -0 into +0, hence the adds of zero)
  int len = rows * n;
  const double* X[3] = {M, C, K};
  double cx[3] = {cM, cC, cK};
  if (M) {
    for (int k = 0; k < len; k++) {
      S[k] = cM * M[k];
    }
  } else {
    memset(S, 0, (size_t)len * sizeof(double));
  }
  for (int t = 1; t < 3; t++) {
    const double* Xt = X[t];
    double ct = cx[t];
    if (Xt) {
      for (int k = 0; k < len; k++) {
        S[k] += ct * Xt[k];
      }
    } else if (X[0] || (t == 2 && X[1])) {
      for (int k = 0; k < len; k++) {
        S[k] += 0.0;
      }
    }
  }
  for (int b = 0; b < nnode; b++) {
    if (m->node_kind[node[b]] != RD_NODE_RIGID) {
      continue;
    }
    const double* p = map + RD_ASM_SPATIAL * node[b];
    for (int i = 0; i < rows; i++) {
      size_t o = (size_t)i * (size_t)n + (size_t)((off ? off[b] : 6 * b) + 3);
      double u[3] = {0, 0, 0}, t[3];
      if (K) {
        v3_copy(u, K + o);
      }
      if (C) {
        v3_cross(t, C + o, p + 9);  // the row vector C skew(W)
        v3_add(u, u, t);
      }
      if (M) {
        v3_cross(t, M + o, p + 12);
        v3_add(u, u, t);
      }
      m3_tmulv(t, p, u);  // the row vector u T^T
      // an absent term as 0 * 0 (+0, as the sum was written before)
      static const double zero[3] = {0, 0, 0};
      const double* Co = C ? C + o : zero;
      const double* Mo = M ? M + o : zero;
      double cc = C ? cC : 0, cm = M ? cM : 0;
      for (int k = 0; k < 3; k++) {
        S[o + k] = cK * t[k] + cc * Co[k] + cm * Mo[k];
      }
    }
  }
}


// scatter the local n x n matrix S (local nodes node/off) into the node-node blocks of Ax
static void scatter(const rdModel* m, double* Ax, const double* S, int n, int nnode,
                    const int* node, const int* off) {
  const rdPattern* P = m->pattern;
  for (int a = 0; a < nnode; a++) {
    for (int b = 0; b < nnode; b++) {
      const int* pos = rd_patternBlock(P, node[a], node[b]);
      int na = ndof_of(m, node[a]), nb = ndof_of(m, node[b]);
      for (int k = 0; k < nb; k++) {
        for (int i = 0; i < na; i++) {
          Ax[pos[k] + i] += S[(off[a] + i) * n + off[b] + k];
        }
      }
    }
  }
}


// right-multiply the rotation columns of the rows x 6n matrix A (6 per node of nodes) by T(psi)
static void apply_T6(const rdModel* m, const double* psi, double* A, int rows, int n,
                     const int* nodes) {
  if (!psi) {
    return;
  }
  int N = 6 * n;
  for (int b = 0; b < n; b++) {
    if (m->node_kind[nodes[b]] != RD_NODE_RIGID) {
      continue;
    }
    double T[9];
    rdu_tangentSO3(T, psi + 3 * nodes[b]);
    for (int i = 0; i < rows; i++) {
      double* a = A + (size_t)i * (size_t)N + 6 * b + 3;
      double t0 = a[0], t1 = a[1], t2 = a[2];
      a[0] = t0 * T[0] + t1 * T[3] + t2 * T[6];
      a[1] = t0 * T[1] + t1 * T[4] + t2 * T[7];
      a[2] = t0 * T[2] + t1 * T[5] + t2 * T[8];
    }
  }
}


void rd_assembleScatter6(const rdModel* m, double* Ax, const double* S, int n, const int* nodes) {
  const rdPattern* P = m->pattern;
  size_t N = 6 * (size_t)n;
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++) {
      const int* pos = rd_patternBlock(P, nodes[a], nodes[b]);
      int na = ndof_of(m, nodes[a]), nb = ndof_of(m, nodes[b]);
      const double* s0 = S + (size_t)(6 * a) * N + (size_t)(6 * b);
      if (na == 6) {
        // the rows of a rigid node written out: the strided loads of the loop cost as much
        // again as the additions
        const double *s1 = s0 + N, *s2 = s1 + N, *s3 = s2 + N, *s4 = s3 + N, *s5 = s4 + N;
        for (int k = 0; k < nb; k++) {
          double* x = Ax + pos[k];
          x[0] += s0[k];
          x[1] += s1[k];
          x[2] += s2[k];
          x[3] += s3[k];
          x[4] += s4[k];
          x[5] += s5[k];
        }
        continue;
      }
      for (int k = 0; k < nb; k++) {
        for (int i = 0; i < na; i++) {
          Ax[pos[k] + i] += s0[(size_t)i * N + (size_t)k];
        }
      }
    }
  }
}


// the fourth 6n x 6n matrix of the host scratch (the first three hold a callback's K, C, M):
// the spatial form's sum
static double* spatial_scratch(const rdModel* m, rdData* d) {
  size_t nj = 6 * (size_t)m->jac_maxnode;
  return rd_hostMatrices(m, d) + 3 * nj * nj;
}


// host coupling: user elements (residual and matrices) and the Jacobians of host load callbacks
static int assemble_coupling(const rdModel* m, rdData* d, double t, const double* q,
                             const double* v, const double* vd, const rdAsmCoef* c, double* r,
                             double* Ax) {
  for (int e = 0; e < m->nuser; e++) {
    const rdUserElementDef* u = &m->user[e];
    if (rd_loadSkipped(d, u->nodes, u->nnode)) {
      continue;
    }
    double *ur, *K = NULL, *C = NULL, *M = NULL;
    int st = rd_userElemEval(m, d, e, t, q, v, vd, Ax != NULL, &ur, &K, &C, &M);
    if (st != RD_OK) {
      return st;
    }
    for (int a = 0; a < u->nnode; a++) {
      double* ri = r + m->node_dof[u->nodes[a]];
      for (int k = 0; k < ndof_of(m, u->nodes[a]); k++) {
        ri[k] += ur[6 * a + k];
      }
    }
    if (!Ax) {
      continue;
    }
    int N = 6 * u->nnode;
    if (c->spatial) {
      double* S = spatial_scratch(m, d);
      spatial_sum(m, c->spatial, c->cM, c->cC, c->cK, M, C, K, S, N, N, u->nnode, u->nodes, NULL);
      rd_assembleScatter6(m, Ax, S, u->nnode, u->nodes);
      continue;
    }
    apply_T6(m, c->psi, K, N, u->nnode, u->nodes);
    for (size_t k = 0; k < (size_t)N * (size_t)N; k++) {
      K[k] = c->cM * M[k] + c->cC * C[k] + c->cK * K[k];
    }
    rd_assembleScatter6(m, Ax, K, u->nnode, u->nodes);
  }
  if (!Ax || (c->cK == 0 && c->cC == 0)) {
    return RD_OK;
  }
  for (int i = 0; i < m->ncallback; i++) {
    const rdLoadCallbackDef* cb = &m->callback[i];
    if (!cb->jacobian || rd_loadSkipped(d, cb->nodes, cb->nnode)) {
      continue;
    }
    double *K, *C;
    int st = rd_hostLoadJacobian(m, d, i, t, q, v, &K, &C);
    if (st != RD_OK) {
      return st;
    }
    int N = 6 * cb->nnode;
    if (c->spatial) {
      double* S = spatial_scratch(m, d);
      spatial_sum(m, c->spatial, 0, c->cC, c->cK, NULL, C, K, S, N, N, cb->nnode, cb->nodes, NULL);
      rd_assembleScatter6(m, Ax, S, cb->nnode, cb->nodes);
      continue;
    }
    apply_T6(m, c->psi, K, N, cb->nnode, cb->nodes);
    for (size_t k = 0; k < (size_t)N * (size_t)N; k++) {
      K[k] = c->cC * C[k] + c->cK * K[k];
    }
    rd_assembleScatter6(m, Ax, K, cb->nnode, cb->nodes);
  }
  return RD_OK;
}


// load stiffness -df/dq of node i (6x6, row-major) for the loads that depend on the rotation
// the dead-load stiffness of node i's total moment: f_t = R^T M gives -skew(R^T M) in K_tt
static void moment_stiffness(const rdModel* m, const rdData* d, const double* q, int i,
                             double K[36]) {
  memset(K, 0, 36 * sizeof(double));
  if (m->node_kind[i] != RD_NODE_RIGID) {
    return;
  }
  double R[9], Rt_m[3], S[9];
  rdu_quatToMat(R, q + 7 * i + 3);
  m3_tmulv(Rt_m, R, d->force + 6 * i + 3);
  m3_skew(S, Rt_m);
  blk_add(K, 6, 3, 3, S, -1);
}


// the correction of a follower load on its node (its moment was counted as dead above)
static void follower_stiffness(const rdModel* m, double t, const double* q, const rdLoadDef* ld,
                               double K[36]) {
  memset(K, 0, 36 * sizeof(double));
  double s = 1, w[3], R[9], S[9];
  if (rd_timeFnEval(m, ld->timefn, t, &s) != RD_OK) {
    s = 0;  // the residual evaluation reports it
  }
  v3_scale(w, ld->value, s);
  if (ld->kind == RD_LOAD_MOMENT) {
    m3_skew(S, w);  // a follower moment has no stiffness: undo the dead part
    blk_add(K, 6, 3, 3, S, 1);
  } else {
    rdu_quatToMat(R, q + 7 * ld->node + 3);
    blk_mulSkew(S, R, w);  // F = R w: -dF/dtheta = R skew(w)
    blk_add(K, 6, 0, 3, S, 1);
  }
}


// gravity moment (R c) x m g of a body: true stiffness -skew(c) skew(R^T m g), dead part undone
// (g: gravity times the body-load factor)
static void gravity_stiffness(const double* g, const double* q, const rdRigidBodyDef* b,
                              double K[36]) {
  memset(K, 0, 36 * sizeof(double));
  double R[9], S[9], mg[3], Rmg[3], cm[3];
  rdu_quatToMat(R, q + 7 * b->node + 3);
  v3_scale(mg, g, b->mass);
  m3_tmulv(Rmg, R, mg);
  v3_cross(cm, b->com, Rmg);
  m3_skew(S, cm);
  blk_add(K, 6, 3, 3, S, 1);
  blk_skewSkew(S, b->com, Rmg);
  blk_add(K, 6, 3, 3, S, -1);
}


// add c->cK K (6x6, node i's DOFs) to the iteration matrix, times T(psi)
static void add_node_stiffness(const rdModel* m, const rdAsmCoef* c, double* Ax, int i,
                               const double K[36]) {
  int node = i, off = 0;
  int n = ndof_of(m, i);
  double S[36];
  if (c->spatial) {
    double Kn[36];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        Kn[a * n + b] = K[a * 6 + b];
      }
    }
    spatial_sum(m, c->spatial, 0, 0, c->cK, NULL, NULL, Kn, S, n, n, 1, &node, &off);
    scatter(m, Ax, S, n, 1, &node, &off);
    return;
  }
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++) {
      S[a * n + b] = c->cK * K[a * 6 + b];
    }
  }
  apply_T(m, c->psi, S, n, n, 1, &node, &off);
  scatter(m, Ax, S, n, 1, &node, &off);
}


// joint-local velocities (DOF layout of ev) from the nodal v
static void joint_velocity(const rdModel* m, const rdJointEval* ev, const double* v, double* vloc) {
  for (int a = 0; a < ev->nnode; a++) {
    int node = ev->node[a];
    for (int k = 0; k < ndof_of(m, node); k++) {
      vloc[ev->off[a] + k] = v[6 * node + k];
    }
  }
}


// explicit time derivative of phi (moving constraints only) and, if dB is not NULL, its
// q-derivative d(B)/dt (nrow x n, before T), both by central differences in t
static int joint_phit(const rdModel* m, int j, double t, const double* q, const double* v, int nrow,
                      double* phit, double* dB) {
  int type = m->joint[j].def.type;
  if (type != RD_JOINT_PRESCRIBED && type != RD_JOINT_ROTATION_CONTROL) {
    if (dB) {
      memset(dB, 0, RD_JOINT_MAXROW * RD_JOINT_MAXDOF * sizeof(double));
    }
    return RD_OK;  // phit stays 0
  }
  double e = 1e-6 * (fabs(t) > 1 ? fabs(t) : 1);
  rdJointEval a, b;
  int st = rd_jointEval(m, j, t + e, q, v, NULL, &a);
  if (st == RD_OK) {
    st = rd_jointEval(m, j, t - e, q, v, NULL, &b);
  }
  for (int k = 0; st == RD_OK && k < nrow; k++) {
    phit[k] = (a.phi[k] - b.phi[k]) / (2 * e);
  }
  for (int k = 0; st == RD_OK && dB && k < nrow * a.n; k++) {
    dB[k] = (a.B[k] - b.B[k]) / (2 * e);
  }
  return st;
}


// Z = d(B v)/dq at fixed v (nrow x n, before T). Row k is v^T H_k with H_k = d(B_k^T)/dq,
// the K^Phi of the joint for the unit multiplier e_k.
static int joint_Z(const rdModel* m, int j, double t, const double* q, const double* v,
                   const double* vloc, int n, int nrow, double* Z) {
  rdJointEval e0, ek;
  int st = rd_jointEval(m, j, t, q, v, NULL, &e0);
  for (int k = 0; st == RD_OK && k < nrow; k++) {
    double lam[RD_JOINT_MAXROW] = {0};
    lam[k] = 1;
    st = rd_jointEval(m, j, t, q, v, lam, &ek);
    for (int c = 0; st == RD_OK && c < n; c++) {
      double s = 0;
      for (int l = 0; l < n; l++) {
        s += vloc[l] * (ek.K[l * n + c] - e0.K[l * n + c]);
      }
      Z[k * n + c] = s;
    }
  }
  return st;
}


int rd_assemble(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                const double* vd, const double* lam, const rdAsmCoef* c, double* r, double* gamma,
                double* Ax) {
  return rd_assembleEx(m, d, t, q, v, vd, lam, c, NULL, r, gamma, Ax);
}


int rd_assembleEx(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                  const double* vd, const double* lam, const rdAsmCoef* c, const rdAsmStab* x,
                  double* r, double* gamma, double* Ax) {
  static const rdAsmStab none = {0, 0, NULL, NULL};
  if (!x) {
    x = &none;
  }
  const rdPattern* P = m->pattern;
  int N = m->ndof + m->nconstraint;
  memset(r, 0, (size_t)N * sizeof(double));
  if (Ax) {
    memset(Ax, 0, (size_t)P->nnz * sizeof(double));
  }
  // applied loads: f_x global, f_t = R^T M (body)
  int st = rd_evalLoads(m, d, t, q, v, d->force);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < m->nnode; i++) {
    double* ri = r + m->node_dof[i];
    const double* fi = d->force + 6 * i;
    for (int k = 0; k < 3; k++) {
      ri[k] -= fi[k];
    }
    if (m->node_kind[i] == RD_NODE_RIGID) {
      double mb[3];
      rdu_quatRotateInv(mb, q + 7 * i + 3, fi + 3);
      for (int k = 0; k < 3; k++) {
        ri[3 + k] -= mb[k];
      }
    }
    // (no moment, no stiffness: nothing to add)
    if (Ax && c->cK != 0 && m->node_kind[i] == RD_NODE_RIGID &&
        (fi[3] != 0 || fi[4] != 0 || fi[5] != 0)) {
      double K[36];
      moment_stiffness(m, d, q, i, K);
      add_node_stiffness(m, c, Ax, i, K);
    }
  }
  // stiffness of follower loads and of gravity on offset centres of mass: one pass over the
  // loads and the elements (not one per node), so that assembly stays linear in the model size
  if (Ax && c->cK != 0) {
    double K[36];
    for (int l = 0; l < m->nload; l++) {
      const rdLoadDef* ld = &m->load[l].def;
      if (ld->frame == RD_FRAME_BODY && m->node_kind[ld->node] == RD_NODE_RIGID) {
        follower_stiffness(m, t, q, ld, K);
        add_node_stiffness(m, c, Ax, ld->node, K);
      }
    }
    double g[3];
    v3_scale(g, m->gravity, rd_bodyLoadFactor(m, t));
    int has_g = g[0] != 0 || g[1] != 0 || g[2] != 0;
    for (int e = 0; has_g && e < m->nelem; e++) {
      const rdElemDef* ed = &m->elem[e].def;
      const double* com = ed->type == RD_ELEM_RIGID_BODY ? ed->u.body.com : NULL;
      // (the centre of mass at the node: no gravity moment, no stiffness)
      if (com && (com[0] != 0 || com[1] != 0 || com[2] != 0)) {
        gravity_stiffness(g, q, &ed->u.body, K);
        add_node_stiffness(m, c, Ax, ed->u.body.node, K);
      }
    }
  }
  // elements
  rdElemEval ev;
  double S[RD_ELEM_MAXDOF * RD_ELEM_MAXDOF];
  for (int e = 0; e < m->nelem; e++) {
    st = rd_elemEval(m, e, q, v, vd, Ax != NULL, &ev);
    if (st != RD_OK) {
      return st;
    }
    for (int a = 0; a < ev.nnode; a++) {
      double* ri = r + m->node_dof[ev.node[a]];
      for (int k = 0; k < ndof_of(m, ev.node[a]); k++) {
        ri[k] += ev.r[ev.off[a] + k];
      }
    }
    if (!Ax) {
      continue;
    }
    int n = ev.n;
    if (c->spatial) {
      spatial_sum(m, c->spatial, c->cM, c->cC, c->cK, ev.M, ev.C, ev.K, S, n, n, ev.nnode, ev.node,
                  ev.off);
      scatter(m, Ax, S, n, ev.nnode, ev.node, ev.off);
      continue;
    }
    apply_T(m, c->psi, ev.K, n, n, ev.nnode, ev.node, ev.off);
    for (int k = 0; k < n * n; k++) {
      S[k] = c->cM * ev.M[k] + c->cC * ev.C[k] + c->cK * ev.K[k];
    }
    scatter(m, Ax, S, n, ev.nnode, ev.node, ev.off);
  }
  st = rd_assembleBeams(m, d, t, q, v, vd, c, r, Ax);
  if (st != RD_OK) {
    return st;
  }
  st = assemble_coupling(m, d, t, q, v, vd, c, r, Ax);
  if (st != RD_OK) {
    return st;
  }
  // joints
  rdJointEval je;
  for (int j = 0; j < m->njoint; j++) {
    const rdJoint* jt = &m->joint[j];
    st = rd_jointEvalKept(m, j, t, q, v, lam ? lam + jt->row : NULL, rd_dataMotionFrame(d, j), &je);
    if (st != RD_OK) {
      return st;
    }
    int n = je.n;
    double vloc[RD_JOINT_MAXDOF], phit[RD_JOINT_MAXROW] = {0};
    double dB[RD_JOINT_MAXROW * RD_JOINT_MAXDOF];
    if (x->vel) {
      joint_velocity(m, &je, v, vloc);
      st = joint_phit(m, j, t, q, v, je.nrow, phit, Ax ? dB : NULL);
      if (st != RD_OK) {
        return st;
      }
    }
    for (int k = 0; k < je.nrow; k++) {
      double rk = je.phi[k];
      if (x->vel) {
        // velocity constraint B v + phi_t; phi itself goes to x->phi
        rk = phit[k];
        for (int i = 0; i < n; i++) {
          rk += je.B[k * n + i] * vloc[i];
        }
        if (x->phi) {
          x->phi[jt->row + k] = je.phi[k];
        }
      }
      r[m->ndof + jt->row + k] = rk;
      if (gamma) {
        gamma[jt->row + k] = je.gamma[k];
      }
    }
    for (int a = 0; a < je.nnode; a++) {
      double* ri = r + m->node_dof[je.node[a]];
      for (int k = 0; k < ndof_of(m, je.node[a]); k++) {
        double s = je.r[je.off[a] + k];
        for (int row = 0; lam && row < je.nrow; row++) {
          s += je.B[row * n + je.off[a] + k] * lam[jt->row + row];
        }
        ri[k] += s;
      }
    }
    double BT[RD_JOINT_MAXROW * RD_JOINT_MAXDOF];
    if ((Ax || x->BT) && c->spatial) {
      spatial_sum(m, c->spatial, 0, 0, 1, NULL, NULL, je.B, BT, je.nrow, n, je.nnode, je.node,
                  je.off);
    } else if (Ax || x->BT) {
      memcpy(BT, je.B, (size_t)(je.nrow * n) * sizeof(double));
      apply_T(m, c->psi, BT, je.nrow, n, je.nnode, je.node, je.off);
    }
    if (x->BT) {
      memcpy(x->BT + (size_t)j * RD_ASM_BSTRIDE, BT, (size_t)(je.nrow * n) * sizeof(double));
    }
    if (!Ax) {
      continue;
    }
    if (c->spatial) {
      spatial_sum(m, c->spatial, 0, 0, c->cK, NULL, NULL, je.K, S, n, n, je.nnode, je.node, je.off);
    } else {
      apply_T(m, c->psi, je.K, n, n, je.nnode, je.node, je.off);
      for (int k = 0; k < n * n; k++) {
        S[k] = c->cK * je.K[k];
      }
    }
    scatter(m, Ax, S, n, je.nnode, je.node, je.off);
    // B^T (unscaled), then the constraint rows: B T (index 3) or B + cZ Z T (stabilized)
    int J = m->nnode + j;
    for (int a = 0; a < je.nnode; a++) {
      int node = je.node[a], nd = ndof_of(m, node);
      const int* pos = rd_patternBlock(P, node, J);  // node rows, multiplier columns
      for (int row = 0; row < je.nrow; row++) {
        for (int i = 0; i < nd; i++) {
          Ax[pos[row] + i] += je.B[row * n + je.off[a] + i];
        }
      }
    }
    const double* rows = BT;
    if (x->vel) {
      double Z[RD_JOINT_MAXROW * RD_JOINT_MAXDOF];
      st = joint_Z(m, j, t, q, v, vloc, n, je.nrow, Z);
      if (st != RD_OK) {
        return st;
      }
      for (int k = 0; k < je.nrow * n; k++) {
        Z[k] += dB[k];  // d(phi_t)/dq of a moving constraint
      }
      if (c->spatial) {
        // B v with v = R^T omega: B takes the place of C (coefficient 1), Z that of K
        spatial_sum(m, c->spatial, 0, 1, x->cZ, NULL, je.B, Z, BT, je.nrow, n, je.nnode, je.node,
                    je.off);
      } else {
        apply_T(m, c->psi, Z, je.nrow, n, je.nnode, je.node, je.off);
        for (int k = 0; k < je.nrow * n; k++) {
          Z[k] = je.B[k] + x->cZ * Z[k];
        }
        memcpy(BT, Z, (size_t)(je.nrow * n) * sizeof(double));
      }
    }
    for (int a = 0; a < je.nnode; a++) {
      int node = je.node[a], nd = ndof_of(m, node);
      const int* pos = rd_patternBlock(P, J, node);  // multiplier rows, node columns
      for (int k = 0; k < nd; k++) {
        for (int row = 0; row < je.nrow; row++) {
          Ax[pos[k] + row] += rows[row * n + je.off[a] + k];
        }
      }
    }
  }
  return RD_OK;
}
