// SPDX-License-Identifier: MIT
// Revolute joint: common point and common axis (5 equations), optional applied torque; with
// angle_fn a 6th equation prescribes the rotation of node 1 relative to node 0 about the axis:
// (exp(theta a) u1)_A . (u2)_B = sin(theta - psi) = 0, with (a, u1, u2) right-handed.
#include <math.h>

#include "constraints/joint_blocks.h"
#include "src/math/blk.h"

// torque tau about the axis e = R_A a: +tau e on node 1, -tau e on node 0 (residual: minus)
static void axis_torque(rdJointEval* ev, const rdSide* A, const double a[3], const rdSide* B,
                        double tau) {
  int n = ev->n;
  for (int k = 0; k < 3; k++) {
    ev->r[A->off + 3 + k] += tau * a[k];
  }
  if (B->off < 0 || !B->rot) {
    return;
  }
  double e[3], Rte[3], S[9], RR[9], M[9];
  m3_mulv(e, A->R, a);
  m3_tmulv(Rte, B->R, e);
  for (int k = 0; k < 3; k++) {
    ev->r[B->off + 3 + k] -= tau * Rte[k];
  }
  m3_skew(S, Rte);
  blk_add(ev->K, n, B->off + 3, B->off + 3, S, -tau);
  m3_tmul(RR, B->R, A->R);
  blk_mulSkew(M, RR, a);
  blk_add(ev->K, n, B->off + 3, A->off + 3, M, tau);
}


int rd_jointRevolute(const rdModel* m, const rdJoint* j, double t, const double* q, const double* v,
                     const double* lam, rdJointEval* ev) {
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  double rA[3], rB[3], a[3], u1[3], u2[3], b1[3], b2[3];
  rd_sideArm(rA, &A, j->def.point);
  rd_sideArm(rB, &B, j->def.point);
  rd_rowPoint(ev, 0, &A, rA, &B, rB, lam);
  rd_sideVec(a, &A, j->def.axis);
  rd_perpBasis(u1, u2, j->def.axis);
  rd_sideVec(b1, &B, u1);
  rd_sideVec(b2, &B, u2);
  rd_rowDot(ev, 3, &A, a, NULL, NULL, &B, b1, 0, rd_lam(lam, 3));
  rd_rowDot(ev, 4, &A, a, NULL, NULL, &B, b2, 0, rd_lam(lam, 4));
  if (j->def.angle_fn != RD_NO_TIMEFN) {
    double th[3], e[3], na[3], r[3], rd[3], rdd[3], nna[3];
    int st = rd_timeFnDerivs(m, j->def.angle_fn, t, th);
    if (st) {
      return st;
    }
    // r = exp(theta a) e (a is normal to e), and its rates from r' = theta' a x r
    rd_sideVec(e, &A, u1);
    v3_cross(na, a, e);
    double c = cos(th[0]), s = sin(th[0]);
    for (int i = 0; i < 3; i++) {
      r[i] = c * e[i] + s * na[i];
    }
    v3_cross(na, a, r);
    v3_cross(nna, a, na);
    v3_scale(rd, na, th[1]);
    for (int i = 0; i < 3; i++) {
      rdd[i] = th[2] * na[i] + th[1] * th[1] * nna[i];
    }
    rd_rowDot(ev, 5, &A, r, rd, rdd, &B, b2, 0, rd_lam(lam, 5));
  }
  if (j->def.torque != 0) {
    double s;
    int st = rd_timeFnEval(m, j->def.torque_fn, t, &s);
    if (st) {
      return st;
    }
    axis_torque(ev, &A, a, &B, s * j->def.torque);
  }
  return RD_OK;
}
