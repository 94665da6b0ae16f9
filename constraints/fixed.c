// SPDX-License-Identifier: MIT
// Fixed joint (clamp): node 0 held at its reference position and rotation.
#include "constraints/joint_blocks.h"

int rd_jointFixed(const rdModel* m, const rdJoint* j, double t, const double* q, const double* v,
                  const double* lam, rdJointEval* ev) {
  (void)t;
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  // the ground side of a clamp is the node's reference pose, whatever node[1] says
  rd_sideGround(ev, &B);
  v3_copy(B.x, A.x0);
  rd_rowHold(ev, &A, &B, lam);
  return RD_OK;
}
