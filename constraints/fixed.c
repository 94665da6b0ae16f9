// SPDX-License-Identifier: MIT
// Fixed joint (clamp): node 0 held at its reference position and rotation.
#include "constraints/joint_blocks.h"

int rd_jointFixed(const rdModel* m, const rdJoint* j, double t, const double* q, const double* v,
                  const double* lam, rdJointEval* ev) {
  (void)t;
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  // the ground side of a clamp is the node's reference pose, whatever node[1] says
  static const double zero[3] = {0, 0, 0};
  if (ev->nnode == 2) {
    ev->n = ev->off[1];
    ev->nnode = 1;
  }
  B.off = -1;
  B.rot = 0;
  for (int k = 0; k < 3; k++) {
    B.x[k] = A.x0[k];
    B.v[k] = B.W[k] = 0;
  }
  m3_identity(B.R);
  rd_rowPoint(ev, 0, &A, zero, &B, zero, lam);
  if (!A.rot) {
    return RD_OK;
  }
  static const double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int k = 0; k < 3; k++) {
    double a[3];
    rd_sideVec(a, &A, e[k]);
    rd_rowDot(ev, 3 + k, &A, a, NULL, NULL, &B, e[(k + 1) % 3], 0, rd_lam(lam, 3 + k));
  }
  return RD_OK;
}
