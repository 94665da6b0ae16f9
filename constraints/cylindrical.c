// SPDX-License-Identifier: MIT
// Cylindrical joint: translation along and rotation about the common axis (4 equations).
#include "constraints/joint_blocks.h"

int rd_jointCylindrical(const rdModel* m, const rdJoint* j, double t, const double* q,
                        const double* v, const double* lam, rdJointEval* ev) {
  (void)t;
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  double rA[3], rB[3], u[2][3], nA[3], a[3], b[3];
  rd_sideArm(rA, &A, j->def.point);
  rd_sideArm(rB, &B, j->def.point);
  rd_perpBasis(u[0], u[1], j->def.axis);
  rd_sideVec(a, &A, j->def.axis);
  for (int k = 0; k < 2; k++) {
    rd_sideVec(nA, &A, u[k]);
    rd_rowDist(ev, k, &A, rA, nA, &B, rB, 0, rd_lam(lam, k));
    rd_sideVec(b, &B, u[k]);
    rd_rowDot(ev, 2 + k, &A, a, NULL, NULL, &B, b, 0, rd_lam(lam, 2 + k));
  }
  return RD_OK;
}
