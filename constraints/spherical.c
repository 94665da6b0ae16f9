// SPDX-License-Identifier: MIT
// Spherical joint: the joint point, carried by both nodes, coincides (3 equations).
#include "constraints/joint_blocks.h"

int rd_jointSpherical(const rdModel* m, const rdJoint* j, double t, const double* q,
                      const double* v, const double* lam, rdJointEval* ev) {
  (void)t;
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  double rA[3], rB[3];
  rd_sideArm(rA, &A, j->def.point);
  rd_sideArm(rB, &B, j->def.point);
  rd_rowPoint(ev, 0, &A, rA, &B, rB, lam);
  return RD_OK;
}
