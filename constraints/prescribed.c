// SPDX-License-Identifier: MIT
// Prescribed motion: node 0 follows x(t) = x0 + u(t) and R(t) = exp(psi(t)) R0, with u and psi
// (global) given component-wise by time functions (none: held at 0).
#include <math.h>
#include <string.h>

#include "constraints/joint_blocks.h"
#include "rodrigues/liegroup.h"
#include "src/model/data_impl.h"

// the moving ground frame at t (position, rotation exp(psi), rates from psi'), A's reference
// position x0 its origin
static int ground_frame(const rdModel* m, const rdJoint* j, double t, const rdSide* A,
                        rdMotionFrame* B) {
  double f[6][3];
  for (int k = 0; k < 6; k++) {
    int st = rd_timeFnDerivs(m, j->def.motion_fn[k], t, f[k]);
    if (st) {
      return st;
    }
  }
  double psi[3], psid[3], psidd[3], T[9], D[9], w[3], wd[3];
  for (int k = 0; k < 3; k++) {
    B->x[k] = A->x0[k] + f[k][0];
    B->v[k] = f[k][1];
    B->a[k] = f[k][2];
    psi[k] = f[3 + k][0];
    psid[k] = f[3 + k][1];
    psidd[k] = f[3 + k][2];
  }
  rdu_expSO3(B->R, psi);
  rdu_dexpSO3(T, psi);
  m3_mulv(w, T, psid);
  m3_mulv(wd, T, psidd);
  rdu_dTangentTransSO3(D, psi, psid);
  double Dp[3];
  m3_mulv(Dp, D, psid);
  v3_add(wd, wd, Dp);
  m3_tmulv(B->W, B->R, w);
  m3_tmulv(B->al, B->R, wd);
  return RD_OK;
}


int rd_jointPrescribed(const rdModel* m, const rdJoint* j, double t, const double* q,
                       const double* v, const double* lam, rdMotionFrame* frame, rdJointEval* ev) {
  rdSide A, B;
  rd_jointSides(m, j, q, v, ev, &A, &B);
  rd_sideGround(ev, &B);
  // the frame kept for t, or computed (and kept if the data keeps one): the same bits
  rdMotionFrame own;
  rdMotionFrame* fr = frame ? frame : &own;
  if (!frame || frame->t != t) {
    int st = ground_frame(m, j, t, &A, fr);
    fr->t = st ? NAN : t;
    if (st) {
      return st;
    }
  }
  v3_copy(B.x, fr->x);
  v3_copy(B.v, fr->v);
  v3_copy(B.a, fr->a);
  memcpy(B.R, fr->R, sizeof(B.R));
  v3_copy(B.W, fr->W);
  v3_copy(B.al, fr->al);
  rd_rowHold(ev, &A, &B, lam);
  return RD_OK;
}
