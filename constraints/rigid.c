// SPDX-License-Identifier: MIT
// Rigid joint: node 1 keeps its reference position and orientation relative to node 0.
#include "constraints/joint_blocks.h"

int rd_jointRigid(const rdModel* m, const rdJoint* j, double t, const double* q, const double* v,
                  const double* lam, rdJointEval* ev) {
  (void)t;
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  double rA[3];
  static const double zero[3] = {0, 0, 0};
  rd_sideArm(rA, &A, B.x0);
  rd_rowPoint(ev, 0, &A, rA, &B, zero, lam);
  rd_rowAlign(ev, 3, &A, &B, lam);
  return RD_OK;
}
