// SPDX-License-Identifier: MIT
// Planar joint: node 1's point stays in node 0's plane of normal `axis`, rotation about it only.
#include "constraints/joint_blocks.h"

int rd_jointPlanar(const rdModel* m, const rdJoint* j, double t, const double* q, const double* v,
                   const double* lam, rdJointEval* ev) {
  (void)t;
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  double rA[3], rB[3], u[2][3], nA[3], b[3];
  rd_sideArm(rA, &A, j->def.point);
  rd_sideArm(rB, &B, j->def.point);
  rd_sideVec(nA, &A, j->def.axis);
  rd_rowDist(ev, 0, &A, rA, nA, &B, rB, 0, rd_lam(lam, 0));
  rd_perpBasis(u[0], u[1], j->def.axis);
  for (int k = 0; k < 2; k++) {
    rd_sideVec(b, &B, u[k]);
    rd_rowDot(ev, 1 + k, &A, nA, NULL, NULL, &B, b, 0, rd_lam(lam, 1 + k));
  }
  return RD_OK;
}
