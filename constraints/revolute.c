// SPDX-License-Identifier: MIT
// Revolute joint: common point and common axis (5 equations), optional applied torque.
#include "blk.h"
#include "joint_blocks.h"

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
  blk_skew(S, Rte);
  blk_add(ev->K, n, B->off + 3, B->off + 3, S, -tau);
  m3_tmul(RR, B->R, A->R);
  blk_mulSkew(M, RR, a);
  blk_add(ev->K, n, B->off + 3, A->off + 3, M, tau);
}


int rd_jointRevolute(const rdModel* m, const rdJoint* j, double t, const double* q,
                     const double* v, const double* lam, rdJointEval* ev) {
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
  if (j->def.torque != 0) {
    double s;
    int st = rd_timefnEval(m, j->def.torque_fn, t, &s);
    if (st) {
      return st;
    }
    axis_torque(ev, &A, a, &B, s * j->def.torque);
  }
  return RD_OK;
}
