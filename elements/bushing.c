// SPDX-License-Identifier: MIT
// Six-DOF bushing between two rigid nodes (or a node and the ground): generalized force
// f = K d + C d' conjugate to d = (u, phi), both in node 0's body frame:
//   u   = R0^T (x1 - x0) - u_ref                  relative displacement
//   phi = log(R0^T R1 Q_ref^T)                    relative rotation vector, |phi| <= pi
// with u_ref = R0^T (x1 - x0) and Q_ref = R0^T R1 in the initial configuration, so d = 0 there.
// The ground side is node 0's initial frame. With B = dd/dq (q: dx global, dtheta body),
//   d' = B v,  residual r = B^T f,  potential energy d^T K d / 2.
// B: du = R0^T (dx1 - dx0) + skew(s) dth0 (s = R0^T (x1 - x0)); dphi = T^-T(phi) (G dth1 - dth0)
// with G = R0^T R1 and T the tangent operator.
#include <string.h>

#include "elements/element.h"
#include "rodrigues/liegroup.h"
#include "src/math/blk.h"

// everything about one bushing at q: d, B (6 x 12: x0, th0, x1, th1) and the pieces of K
typedef struct {
  double R0[9], G[9], s[3], phi[3], D[9], d[6];
  double B[72];
} bushGeo;


static void geometry(const rdModel* m, const rdBushingDef* b, const double* q, bushGeo* g) {
  int n0 = b->node[0], n1 = b->node[1];
  const double* q00 = m->node_q0 + 7 * n0;
  double x1[3], R1[9], x10[3], R10[9], R00[9];
  rdu_quatToMat(g->R0, q + 7 * n0 + 3);
  rdu_quatToMat(R00, q00 + 3);
  if (n1 >= 0) {
    v3_copy(x1, q + 7 * n1);
    rdu_quatToMat(R1, q + 7 * n1 + 3);
    v3_copy(x10, m->node_q0 + 7 * n1);
    rdu_quatToMat(R10, m->node_q0 + 7 * n1 + 3);
  } else {
    v3_copy(x1, q00);  // the ground side: node 0's initial frame
    memcpy(R1, R00, sizeof(R1));
    v3_copy(x10, q00);
    memcpy(R10, R00, sizeof(R10));
  }
  double dx[3], uref[3], Qref[9], P[9];
  v3_sub(dx, x1, q + 7 * n0);
  m3_tmulv(g->s, g->R0, dx);
  v3_sub(dx, x10, q00);
  m3_tmulv(uref, R00, dx);
  m3_tmul(Qref, R00, R10);
  m3_tmul(g->G, g->R0, R1);
  // P = G Qref^T
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      P[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) {
        P[3 * i + j] += g->G[3 * i + k] * Qref[3 * j + k];
      }
    }
  }
  rdu_logSO3(g->phi, P);
  rdu_dexpinvSO3(g->D, g->phi);
  for (int k = 0; k < 3; k++) {
    g->d[k] = g->s[k] - uref[k];
    g->d[3 + k] = g->phi[k];
  }
  // B
  memset(g->B, 0, sizeof(g->B));
  double S[9], DG[9];
  m3_skew(S, g->s);
  m3_mul(DG, g->D, g->G);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      g->B[12 * i + j] = -g->R0[3 * j + i];
      g->B[12 * i + 3 + j] = S[3 * i + j];
      g->B[12 * i + 6 + j] = g->R0[3 * j + i];
      g->B[12 * (3 + i) + 3 + j] = -g->D[3 * i + j];
      g->B[12 * (3 + i) + 9 + j] = DG[3 * i + j];
    }
  }
}


double rd_bushingEnergy(const rdModel* m, const rdBushingDef* b, const double* q) {
  bushGeo g;
  geometry(m, b, q, &g);
  double e = 0;
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      e += g.d[i] * b->stiffness[6 * i + j] * g.d[j];
    }
  }
  return 0.5 * e;
}


// C (rows x 12) += A (rows x 3) into columns c0..c0+2
static void put3(double* X, int rows, int r0, int c0, const double* A, double s) {
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < 3; j++) {
      X[12 * (r0 + i) + c0 + j] += s * A[3 * i + j];
    }
  }
}


void rd_bushingEval(const rdModel* m, const rdBushingDef* b, const double* q, const double* v,
                    int jac, rdElemEval* ev) {
  int n0 = b->node[0], n1 = b->node[1];
  rd_elemLayout(m, ev, n0, n1);
  bushGeo g;
  geometry(m, b, q, &g);
  // local velocities (x0, th0, x1, th1); the ground is at rest
  double vl[12] = {0};
  memcpy(vl, v + 6 * n0, 6 * sizeof(double));
  if (n1 >= 0) {
    memcpy(vl + 6, v + 6 * n1, 6 * sizeof(double));
  }
  double dd[6] = {0}, f[6];
  for (int i = 0; i < 6; i++) {
    for (int k = 0; k < 12; k++) {
      dd[i] += g.B[12 * i + k] * vl[k];
    }
  }
  for (int i = 0; i < 6; i++) {
    f[i] = 0;
    for (int j = 0; j < 6; j++) {
      f[i] += b->stiffness[6 * i + j] * g.d[j] + b->damping[6 * i + j] * dd[j];
    }
  }
  int n = ev->n;  // 6 (ground) or 12: the first n columns of B are the local DOFs
  double r[12] = {0};
  for (int k = 0; k < 12; k++) {
    for (int i = 0; i < 6; i++) {
      r[k] += g.B[12 * i + k] * f[i];
    }
  }
  memcpy(ev->r, r, (size_t)n * sizeof(double));
  if (!jac) {
    return;
  }
  // Jd: d(d')/dq at fixed v (6 x 12)
  double Jd[72] = {0}, A[9], T9[9];
  double vr[3], dv[3], W0[3], W1[3], GW1[3], om[3];
  v3_sub(dv, vl + 6, vl);
  m3_tmulv(vr, g.R0, dv);
  v3_copy(W0, vl + 3);
  v3_copy(W1, vl + 9);
  m3_mulv(GW1, g.G, W1);
  v3_sub(om, GW1, W0);
  // du' = -skew(W0) Js + [0, skew(vr), 0, 0]
  m3_skew(A, W0);
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 12; k++) {
      double sum = 0;
      for (int l = 0; l < 3; l++) {
        sum -= A[3 * i + l] * g.B[12 * l + k];
      }
      Jd[12 * i + k] = sum;
    }
  }
  m3_skew(A, vr);
  put3(Jd, 3, 0, 3, A, 1);
  // dphi' = dD(phi, om) Jphi + D [0, skew(G W1), 0, -G skew(W1)]
  rdu_dTangentInvTransSO3(A, g.phi, om);
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 12; k++) {
      double sum = 0;
      for (int l = 0; l < 3; l++) {
        sum += A[3 * i + l] * g.B[12 * (3 + l) + k];
      }
      Jd[12 * (3 + i) + k] = sum;
    }
  }
  double S[9];
  m3_skew(S, GW1);
  m3_mul(A, g.D, S);
  put3(Jd, 3, 3, 3, A, 1);
  blk_mulSkew(S, g.G, W1);
  m3_mul(A, g.D, S);
  put3(Jd, 3, 3, 9, A, -1);
  // Kd = K B + C Jd, CB = C B (6 x 12)
  double Kd[72] = {0}, CB[72] = {0};
  for (int i = 0; i < 6; i++) {
    for (int k = 0; k < 12; k++) {
      double a = 0, c = 0;
      for (int j = 0; j < 6; j++) {
        a += b->stiffness[6 * i + j] * g.B[12 * j + k] + b->damping[6 * i + j] * Jd[12 * j + k];
        c += b->damping[6 * i + j] * g.B[12 * j + k];
      }
      Kd[12 * i + k] = a;
      CB[12 * i + k] = c;
    }
  }
  double KK[144] = {0}, CC[144] = {0};
  for (int a = 0; a < 12; a++) {
    for (int k = 0; k < 12; k++) {
      double x = 0, y = 0;
      for (int i = 0; i < 6; i++) {
        x += g.B[12 * i + a] * Kd[12 * i + k];
        y += g.B[12 * i + a] * CB[12 * i + k];
      }
      KK[12 * a + k] = x;
      CC[12 * a + k] = y;
    }
  }
  // geometric terms: d(B^T)/dq f
  double fu[3] = {f[0], f[1], f[2]}, fp[3] = {f[3], f[4], f[5]}, mu[3], Tinv[9], Gm[3];
  rdu_tangentInvSO3(Tinv, g.phi);
  m3_mulv(mu, Tinv, fp);
  blk_mulSkew(A, g.R0, fu);  // R0 skew(fu)
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      KK[12 * i + 3 + j] += A[3 * i + j];
      KK[12 * (6 + i) + 3 + j] -= A[3 * i + j];
    }
  }
  // th0 rows: skew(fu) Js - dTinv(phi, fp) Jphi; th1 rows: G^T dTinv Jphi
  double Sf[9], dT[9], GdT[9];
  m3_skew(Sf, fu);
  rdu_dTangentInvSO3(dT, g.phi, fp);
  m3_tmul(GdT, g.G, dT);
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 12; k++) {
      double a0 = 0, a1 = 0;
      for (int l = 0; l < 3; l++) {
        a0 += Sf[3 * i + l] * g.B[12 * l + k] - dT[3 * i + l] * g.B[12 * (3 + l) + k];
        a1 += GdT[3 * i + l] * g.B[12 * (3 + l) + k];
      }
      KK[12 * (3 + i) + k] += a0;
      KK[12 * (9 + i) + k] += a1;
    }
  }
  // th1 rows: -G^T skew(mu) on th0, skew(G^T mu) on th1
  m3_skew(S, mu);
  m3_tmul(A, g.G, S);
  m3_tmulv(Gm, g.G, mu);
  m3_skew(T9, Gm);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      KK[12 * (9 + i) + 3 + j] -= A[3 * i + j];
      KK[12 * (9 + i) + 9 + j] += T9[3 * i + j];
    }
  }
  for (int a = 0; a < n; a++) {
    for (int k = 0; k < n; k++) {
      ev->K[a * n + k] = KK[12 * a + k];
      ev->C[a * n + k] = CC[12 * a + k];
    }
  }
}
