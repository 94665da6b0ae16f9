// SPDX-License-Identifier: MIT
// Rigid body on a rigid node: inertial forces with a centre-of-mass offset, gyroscopic matrix.
//
// With x the node position (global), R body->global, W the body angular velocity, c the COM
// offset (body) and J_P = J_c - m skew(c)^2 the inertia about the node (body):
//   r_x = m a + m R (alpha x c + W x (W x c))
//   r_t = J_P alpha + m c x (R^T a) + W x J_P W
#include <string.h>

#include "elements/element.h"
#include "rodrigues/liegroup.h"
#include "src/math/blk.h"

void rd_rigidBodyEval(const rdModel* m, const rdRigidBodyDef* b, const double* q, const double* v,
                      const double* vd, int jac, rdElemEval* ev) {
  rd_elemLayout(m, ev, b->node, -1);
  const double* qn = q + 7 * b->node;
  const double* W = v + 6 * b->node + 3;
  const double* acc = vd + 6 * b->node;
  const double* alpha = acc + 3;
  const double* c = b->com;
  double mass = b->mass;
  double R[9], JP[9], cc[9];
  rdu_quatToMat(R, qn + 3);
  blk_skewSkew(cc, c, c);
  for (int k = 0; k < 9; k++) {
    JP[k] = b->inertia[k] - mass * cc[k];
  }
  // translational residual
  double u[3], t1[3], Wc[3], WWc[3];
  v3_cross(t1, alpha, c);
  v3_cross(Wc, W, c);
  v3_cross(WWc, W, Wc);
  v3_add(u, t1, WWc);
  double Ru[3];
  m3_mulv(Ru, R, u);
  for (int i = 0; i < 3; i++) {
    ev->r[i] = mass * (acc[i] + Ru[i]);
  }
  // rotational residual
  double JPa[3], JPW[3], Rta[3], cRta[3], gyro[3];
  m3_mulv(JPa, JP, alpha);
  m3_mulv(JPW, JP, W);
  m3_tmulv(Rta, R, acc);
  v3_cross(cRta, c, Rta);
  v3_cross(gyro, W, JPW);
  for (int i = 0; i < 3; i++) {
    ev->r[3 + i] = JPa[i] + mass * cRta[i] + gyro[i];
  }
  if (!jac) {
    return;
  }
  int n = ev->n;
  double I3[9], Rc[9], cRt[9], tmp[9];
  m3_identity(I3);
  // mass matrix
  blk_add(ev->M, n, 0, 0, I3, mass);
  blk_mulSkew(Rc, R, c);
  blk_add(ev->M, n, 0, 3, Rc, -mass);
  double S[9];
  m3_skew(S, c);
  m3_mult(cRt, S, R);
  blk_add(ev->M, n, 3, 0, cRt, mass);
  blk_add(ev->M, n, 3, 3, JP, 1);
  // gyroscopic matrix
  double D[9];
  double wc = v3_dot(W, c);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      D[3 * i + j] = (i == j ? wc : 0) + W[i] * c[j] - 2 * c[i] * W[j];
    }
  }
  m3_mul(tmp, R, D);
  blk_add(ev->C, n, 0, 3, tmp, mass);
  double SW[9], SJW[9], G[9];
  m3_skew(SW, W);
  m3_skew(SJW, JPW);
  m3_mul(G, SW, JP);
  for (int k = 0; k < 9; k++) {
    G[k] -= SJW[k];
  }
  blk_add(ev->C, n, 3, 3, G, 1);
  // stiffness from the rotation dependence (R -> R exp(dtheta))
  blk_mulSkew(tmp, R, u);
  blk_add(ev->K, n, 0, 3, tmp, -mass);
  blk_skewSkew(tmp, c, Rta);
  blk_add(ev->K, n, 3, 3, tmp, mass);
}
