// SPDX-License-Identifier: MIT
// Prismatic joint: relative translation along the axis only, no relative rotation (5 equations).
#include "constraints/joint_blocks.h"

int rd_jointPrismatic(const rdModel* m, const rdJoint* j, double t, const double* q,
                      const double* v, const double* lam, rdJointEval* ev) {
  (void)t;
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  double rA[3], rB[3], u[2][3], nA[3];
  rd_sideArm(rA, &A, j->def.point);
  rd_sideArm(rB, &B, j->def.point);
  rd_perpBasis(u[0], u[1], j->def.axis);
  for (int k = 0; k < 2; k++) {
    rd_sideVec(nA, &A, u[k]);
    rd_rowDist(ev, k, &A, rA, nA, &B, rB, 0, rd_lam(lam, k));
  }
  rd_rowAlign(ev, 2, &A, &B, lam);
  return RD_OK;
}
