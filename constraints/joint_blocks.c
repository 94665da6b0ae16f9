// SPDX-License-Identifier: MIT
// Joint building blocks: values, Jacobians w.r.t. (dx global, dtheta body), K^Phi, gamma.
#include "constraints/joint_blocks.h"

#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/math/blk.h"

static void side_node(const rdModel* m, rdSide* s, int node, int off, const double* q,
                      const double* v) {
  memset(s, 0, sizeof(*s));
  s->off = off;
  s->rot = m->node_kind[node] == RD_NODE_RIGID;
  v3_copy(s->x, q + 7 * node);
  rdu_quatToMat(s->R, q + 7 * node + 3);
  v3_copy(s->v, v + 6 * node);
  if (s->rot) {
    v3_copy(s->W, v + 6 * node + 3);
  }
  v3_copy(s->x0, m->node_q0 + 7 * node);
  rdu_quatToMat(s->R0, m->node_q0 + 7 * node + 3);
}


static void side_ground(rdSide* s) {
  memset(s, 0, sizeof(*s));
  s->off = -1;
  m3_identity(s->R);
  m3_identity(s->R0);
}


void rd_jointSides(const rdModel* m, const rdJoint* j, const double* q, const double* v,
                   rdJointEval* ev, rdSide* A, rdSide* B) {
  memset(ev, 0, sizeof(*ev));
  ev->nrow = j->nrow;
  int n0 = j->def.node[0], n1 = j->def.node[1];
  ev->node[0] = n0;
  ev->off[0] = 0;
  ev->nnode = 1;
  ev->n = m->node_kind[n0] == RD_NODE_RIGID ? 6 : 3;
  side_node(m, A, n0, 0, q, v);
  if (n1 >= 0) {
    ev->node[1] = n1;
    ev->off[1] = ev->n;
    ev->nnode = 2;
    side_node(m, B, n1, ev->n, q, v);
    ev->n += m->node_kind[n1] == RD_NODE_RIGID ? 6 : 3;
  } else {
    side_ground(B);
  }
}


void rd_sideGround(rdJointEval* ev, rdSide* B) {
  if (ev->nnode == 2) {
    ev->n = ev->off[1];
    ev->nnode = 1;
  }
  side_ground(B);
}


void rd_sideVec(double out[3], const rdSide* s, const double g[3]) {
  m3_tmulv(out, s->R0, g);
}


void rd_sideArm(double out[3], const rdSide* s, const double p[3]) {
  double d[3];
  v3_sub(d, p, s->x0);
  m3_tmulv(out, s->R0, d);
}


void rd_perpBasis(double u1[3], double u2[3], const double n[3]) {
  // the coordinate axis least aligned with n, made orthogonal
  int k = 0;
  for (int i = 1; i < 3; i++) {
    if (fabs(n[i]) < fabs(n[k])) {
      k = i;
    }
  }
  double e[3] = {0, 0, 0};
  e[k] = 1;
  v3_cross(u1, n, e);
  v3_scale(u1, u1, 1 / v3_norm(u1));
  v3_cross(u2, n, u1);
}


// body-frame acceleration term of a body-fixed vector r: al x r + W x (W x r) (+ known)
static void accel_vec(double out[3], const rdSide* s, const double r[3]) {
  double t1[3], t2[3], t3[3];
  v3_cross(t1, s->al, r);
  v3_cross(t2, s->W, r);
  v3_cross(t3, s->W, t2);
  v3_add(out, t1, t3);
}


// global position, velocity and zero-acceleration acceleration of the point x + R r
static void point_kin(const rdSide* s, const double r[3], double P[3], double Pd[3],
                      double Pdd[3]) {
  double t[3], u[3];
  m3_mulv(t, s->R, r);
  v3_add(P, s->x, t);
  v3_cross(u, s->W, r);
  m3_mulv(t, s->R, u);
  v3_add(Pd, s->v, t);
  accel_vec(u, s, r);
  m3_mulv(t, s->R, u);
  v3_add(Pdd, s->a, t);
}


// B[row, col..col+2] += s * g
static void brow(rdJointEval* ev, int row, int col, const double g[3], double s) {
  for (int k = 0; k < 3; k++) {
    ev->B[row * ev->n + col + k] += s * g[k];
  }
}


void rd_rowPoint(rdJointEval* ev, int row, const rdSide* A, const double rA[3], const rdSide* B,
                 const double rB[3], const double* lam) {
  int n = ev->n;
  double PA[3], PdA[3], PddA[3], PB[3], PdB[3], PddB[3];
  point_kin(A, rA, PA, PdA, PddA);
  point_kin(B, rB, PB, PdB, PddB);
  double I3[9], M[9], L[9];
  m3_identity(I3);
  for (int i = 0; i < 3; i++) {
    ev->phi[row + i] = PA[i] - PB[i];
    ev->gamma[row + i] = PddA[i] - PddB[i];
  }
  double l[3] = {lam ? lam[0] : 0, lam ? lam[1] : 0, lam ? lam[2] : 0};
  const rdSide* side[2] = {A, B};
  const double* arm[2] = {rA, rB};
  for (int k = 0; k < 2; k++) {
    const rdSide* s = side[k];
    double sg = k == 0 ? 1 : -1;
    if (s->off < 0) {
      continue;
    }
    blk_add(ev->B, n, row, s->off, I3, sg);
    if (!s->rot) {
      continue;
    }
    blk_mulSkew(M, s->R, arm[k]);
    blk_add(ev->B, n, row, s->off + 3, M, -sg);
    // d/dtheta of r x (R^T lam)
    double Rl[3];
    m3_tmulv(Rl, s->R, l);
    blk_skewSkew(L, arm[k], Rl);
    blk_add(ev->K, n, s->off + 3, s->off + 3, L, sg);
  }
}


void rd_rowDot(rdJointEval* ev, int row, const rdSide* A, const double a[3], const double ad[3],
               const double add[3], const rdSide* B, const double b[3], double c, double lam) {
  int n = ev->n;
  double e[3], f[3], Rtf[3], Rte[3], g[3];
  m3_mulv(e, A->R, a);
  m3_mulv(f, B->R, b);
  m3_tmulv(Rtf, A->R, f);
  m3_tmulv(Rte, B->R, e);
  ev->phi[row] = v3_dot(e, f) - c;
  // gamma: e'' f + 2 e' f' + e f'' at zero node accelerations
  double t1[3], t2[3], ed[3], edd[3], fd[3], fdd[3];
  v3_cross(t1, A->W, a);
  if (ad) {
    v3_add(t1, t1, ad);
  }
  m3_mulv(ed, A->R, t1);
  accel_vec(t2, A, a);
  if (ad) {
    double w[3];
    v3_cross(w, A->W, ad);
    v3_axpy(t2, 2, w);
  }
  if (add) {
    v3_add(t2, t2, add);
  }
  m3_mulv(edd, A->R, t2);
  v3_cross(t1, B->W, b);
  m3_mulv(fd, B->R, t1);
  accel_vec(t2, B, b);
  m3_mulv(fdd, B->R, t2);
  ev->gamma[row] = v3_dot(edd, f) + 2 * v3_dot(ed, fd) + v3_dot(e, fdd);
  double M[9], N[9], RR[9];
  if (A->off >= 0 && A->rot) {
    v3_cross(g, a, Rtf);
    brow(ev, row, A->off + 3, g, 1);
    blk_skewSkew(M, a, Rtf);
    blk_add(ev->K, n, A->off + 3, A->off + 3, M, lam);
    if (B->off >= 0 && B->rot) {
      // -lam skew(a) R_A^T R_B skew(b)
      m3_tmul(RR, A->R, B->R);
      blk_mulSkew(M, RR, b);
      m3_skew(N, a);
      m3_mul(RR, N, M);
      blk_add(ev->K, n, A->off + 3, B->off + 3, RR, -lam);
    }
  }
  if (B->off >= 0 && B->rot) {
    v3_cross(g, b, Rte);
    brow(ev, row, B->off + 3, g, 1);
    blk_skewSkew(M, b, Rte);
    blk_add(ev->K, n, B->off + 3, B->off + 3, M, lam);
    if (A->off >= 0 && A->rot) {
      m3_tmul(RR, B->R, A->R);
      blk_mulSkew(M, RR, a);
      m3_skew(N, b);
      m3_mul(RR, N, M);
      blk_add(ev->K, n, B->off + 3, A->off + 3, RR, -lam);
    }
  }
}


void rd_rowDist(rdJointEval* ev, int row, const rdSide* A, const double rA[3], const double nA[3],
                const rdSide* B, const double rB[3], double c, double lam) {
  int n = ev->n;
  double PA[3], PdA[3], PddA[3], PB[3], PdB[3], PddB[3], nv[3];
  point_kin(A, rA, PA, PdA, PddA);
  point_kin(B, rB, PB, PdB, PddB);
  m3_mulv(nv, A->R, nA);
  double d[3], dd[3], ddd[3];
  v3_sub(d, PB, PA);
  v3_sub(dd, PdB, PdA);
  v3_sub(ddd, PddB, PddA);
  ev->phi[row] = v3_dot(d, nv) - c;
  double t[3], nd[3], ndd[3];
  v3_cross(t, A->W, nA);
  m3_mulv(nd, A->R, t);
  accel_vec(t, A, nA);
  m3_mulv(ndd, A->R, t);
  ev->gamma[row] = v3_dot(ddd, nv) + 2 * v3_dot(dd, nd) + v3_dot(d, ndd);
  // s = R_A^T (P_B - x_A), the arm of the row's moment on A
  double s[3], w[3], g[3], M[9], N[9], RR[9], S[9];
  v3_sub(w, PB, A->x);
  m3_tmulv(s, A->R, w);
  int ar = A->off >= 0 && A->rot, br = B->off >= 0 && B->rot;
  if (A->off >= 0) {
    brow(ev, row, A->off, nv, -1);
    if (ar) {
      v3_cross(g, nA, s);
      brow(ev, row, A->off + 3, g, 1);
      // x_A row: d(-lam R_A nA)/dtheta_A = lam R_A skew(nA)
      blk_mulSkew(M, A->R, nA);
      blk_add(ev->K, n, A->off, A->off + 3, M, lam);
      // theta_A row: lam skew(nA) s
      m3_skew(N, nA);
      m3_mult(RR, N, A->R);  // skew(nA) R_A^T
      blk_add(ev->K, n, A->off + 3, A->off, RR, -lam);
      blk_skewSkew(S, nA, s);
      blk_add(ev->K, n, A->off + 3, A->off + 3, S, lam);
    }
  }
  if (B->off >= 0) {
    brow(ev, row, B->off, nv, 1);
    if (ar) {
      blk_mulSkew(M, A->R, nA);
      blk_add(ev->K, n, B->off, A->off + 3, M, -lam);
      m3_skew(N, nA);
      m3_mult(RR, N, A->R);
      blk_add(ev->K, n, A->off + 3, B->off, RR, lam);
    }
    if (br) {
      double Rn[3];
      m3_tmulv(Rn, B->R, nv);
      v3_cross(g, rB, Rn);
      brow(ev, row, B->off + 3, g, 1);
      blk_skewSkew(S, rB, Rn);
      blk_add(ev->K, n, B->off + 3, B->off + 3, S, lam);
      if (ar) {
        // theta_A row, theta_B column: -lam skew(nA) R_A^T R_B skew(rB)
        double T1[9], T2[9];
        m3_tmul(T1, A->R, B->R);
        blk_mulSkew(T2, T1, rB);
        m3_skew(N, nA);
        m3_mul(T1, N, T2);
        blk_add(ev->K, n, A->off + 3, B->off + 3, T1, -lam);
        // theta_B row, theta_A column: -lam skew(rB) R_B^T R_A skew(nA)
        m3_tmul(T1, B->R, A->R);
        blk_mulSkew(T2, T1, nA);
        m3_skew(N, rB);
        m3_mul(T1, N, T2);
        blk_add(ev->K, n, B->off + 3, A->off + 3, T1, -lam);
      }
    }
  }
}


int rd_timeFnDerivs(const rdModel* m, int k, double t, double f[3]) {
  f[0] = f[1] = f[2] = 0;
  if (k == RD_NO_TIMEFN) {
    return RD_OK;
  }
  // central differences for the rates (used only for consistent initial accelerations)
  double h = 1e-4 * (1 + fabs(t)), fm, fp;
  int st = rd_timeFnEval(m, k, t, &f[0]);
  st = st ? st : rd_timeFnEval(m, k, t - h, &fm);
  st = st ? st : rd_timeFnEval(m, k, t + h, &fp);
  if (st) {
    return st;
  }
  f[1] = (fp - fm) / (2 * h);
  f[2] = (fp - 2 * f[0] + fm) / (h * h);
  return RD_OK;
}


void rd_rowAlign(rdJointEval* ev, int row, const rdSide* A, const rdSide* B, const double* lam) {
  static const double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int k = 0; k < 3; k++) {
    double a[3], b[3];
    rd_sideVec(a, A, e[k]);
    rd_sideVec(b, B, e[(k + 1) % 3]);
    rd_rowDot(ev, row + k, A, a, NULL, NULL, B, b, 0, rd_lam(lam, row + k));
  }
}


void rd_rowHold(rdJointEval* ev, const rdSide* A, const rdSide* B, const double* lam) {
  static const double zero[3] = {0, 0, 0};
  rd_rowPoint(ev, 0, A, zero, B, zero, lam);
  if (A->rot) {
    rd_rowAlign(ev, 3, A, B, lam);
  }
}
