// SPDX-License-Identifier: MIT
// Rotation control: node 1 rigidly attached to node 0 except for a prescribed relative rotation
// theta(t) about `axis` (fixed in node 0): R_1 = R_0 exp(theta n_0) R_00^T R_10 (6 equations).
#include <math.h>

#include "constraints/joint_blocks.h"

int rd_jointRotationControl(const rdModel* m, const rdJoint* j, double t, const double* q,
                            const double* v, const double* lam, rdJointEval* ev) {
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  double th[3];
  int st = rd_timeFnDerivs(m, j->def.angle_fn, t, th);
  if (st) {
    return st;
  }
  double rA[3], nA[3];
  static const double zero[3] = {0, 0, 0};
  rd_sideArm(rA, &A, B.x0);
  rd_rowPoint(ev, 0, &A, rA, &B, zero, lam);
  rd_sideVec(nA, &A, j->def.axis);
  double c = cos(th[0]), s = sin(th[0]);
  static const double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int k = 0; k < 3; k++) {
    double a0[3], b[3], a[3], na[3], nna[3], ad[3], add[3];
    rd_sideVec(a0, &A, e[k]);
    rd_sideVec(b, &B, e[(k + 1) % 3]);
    // a = exp(theta n) a0 (Rodrigues), its rates from a' = theta' n x a
    v3_cross(na, nA, a0);
    double nd = v3_dot(nA, a0);
    for (int i = 0; i < 3; i++) {
      a[i] = c * a0[i] + s * na[i] + (1 - c) * nd * nA[i];
    }
    v3_cross(na, nA, a);
    v3_cross(nna, nA, na);
    v3_scale(ad, na, th[1]);
    for (int i = 0; i < 3; i++) {
      add[i] = th[2] * na[i] + th[1] * th[1] * nna[i];
    }
    rd_rowDot(ev, 3 + k, &A, a, ad, add, &B, b, 0, rd_lam(lam, 3 + k));
  }
  return RD_OK;
}
