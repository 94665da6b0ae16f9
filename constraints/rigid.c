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
  static const double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int k = 0; k < 3; k++) {
    double a[3], b[3];
    rd_sideVec(a, &A, e[k]);
    rd_sideVec(b, &B, e[(k + 1) % 3]);
    rd_rowDot(ev, 3 + k, &A, a, NULL, NULL, &B, b, 0, rd_lam(lam, 3 + k));
  }
  return RD_OK;
}
