// SPDX-License-Identifier: MIT
// Universal joint: common point; axis (node 0) stays normal to axis2 (node 1): 4 equations.
#include "constraints/joint_blocks.h"

int rd_jointUniversal(const rdModel* m, const rdJoint* j, double t, const double* q,
                      const double* v, const double* lam, rdJointEval* ev) {
  (void)t;
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  double rA[3], rB[3], a[3], b[3];
  rd_sideArm(rA, &A, j->def.point);
  rd_sideArm(rB, &B, j->def.point);
  rd_rowPoint(ev, 0, &A, rA, &B, rB, lam);
  rd_sideVec(a, &A, j->def.axis);
  rd_sideVec(b, &B, j->def.axis2);
  rd_rowDot(ev, 3, &A, a, NULL, NULL, &B, b, 0, rd_lam(lam, 3));
  return RD_OK;
}
