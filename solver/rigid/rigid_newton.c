// SPDX-License-Identifier: MIT
// Inner Newton solves of the explicit rigid steppers, and their failure reports.
//
// Inner Newton solves of the rigid steppers: the acceleration of the explicit Newmark (NMB, NMS)
// and the incremental rotation vector of the explicit midpoint Lie methods; failure reports.
#include <math.h>
#include <string.h>

#include "core.h"
#include "rigid.h"
#include "rodrigues/liegroup.h"
#include "vec3.h"

int rg_solve3(double x[3], const double A[9], const double b[3]) {
  // cofactors: inverse = adj(A) / det(A)
  double c0 = A[4] * A[8] - A[5] * A[7];
  double c1 = A[5] * A[6] - A[3] * A[8];
  double c2 = A[3] * A[7] - A[4] * A[6];
  double det = A[0] * c0 + A[1] * c1 + A[2] * c2;
  double scale = fabs(A[0]);
  for (int i = 1; i < 9; i++) {
    double a = fabs(A[i]);
    scale = a > scale ? a : scale;
  }
  if (!isfinite(det) || !(fabs(det) > 1e-14 * scale * scale * scale)) {
    return -1;
  }
  double r0 = c0 * b[0] + (A[2] * A[7] - A[1] * A[8]) * b[1] + (A[1] * A[5] - A[2] * A[4]) * b[2];
  double r1 = c1 * b[0] + (A[0] * A[8] - A[2] * A[6]) * b[1] + (A[2] * A[3] - A[0] * A[5]) * b[2];
  double r2 = c2 * b[0] + (A[1] * A[6] - A[0] * A[7]) * b[1] + (A[0] * A[4] - A[1] * A[3]) * b[2];
  x[0] = r0 / det;
  x[1] = r1 / det;
  x[2] = r2 / det;
  return 0;
}


int rg_newtonFail(const rdModel* m, const rgView* v, int ib, double t, const char* what,
                  double res, double scale, int iters) {
  const rgBody* b = &v->body[ib];
  return RD_ERROR(m->ctx, RD_RECOVER_NEWTON,
                  "method '%s': Newton solve for %s of body '%s' (node '%s') did not converge "
                  "at t = %.17g: residual %.3e (%.3e relative, tolerance %.1e) after %d "
                  "iterations (solver.rigid_max_iter = %d)",
                  v->method, what, m->elem[b->elem].def.u.body.name, m->node_name[b->node], t,
                  res, scale > 0 ? res / scale : res, m->opt.rigid_tol, iters,
                  m->opt.rigid_max_iter);
}


void rg_countIterations(rdData* d, int iters) {
  d->stats.newton_iterations += iters;
  d->stats.last_newton_iterations = iters;
}


int rg_solveAccel(const rdModel* m, const rgView* v, int ib, double t, const double J[9],
                  const double T[3], const double Wp[3], double h, double A[3], int* iters) {
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  for (int it = 0;; it++) {
    double W[3], JW[3], JA[3], gyro[3], r[3];
    v3_copy(W, Wp);
    v3_axpy(W, 0.5 * h, A);
    m3_mulv(JW, J, W);
    m3_mulv(JA, J, A);
    v3_cross(gyro, W, JW);
    v3_sub(r, JA, T);
    v3_add(r, r, gyro);
    double rn = v3_norm(r);
    // the round-off floor of r: the gyroscopic term is measured by its factors, |W| |J W|, not
    // by |W x J W|, which cancels when W is near an axis of J (a spinning top; in the spatial
    // frame every component of w and i w is large, and the floor was above the tolerance)
    double scale = v3_norm(JA) + v3_norm(T) + v3_norm(W) * v3_norm(JW);
    if (rn <= tol * scale) {
      *iters += it;
      return RD_OK;
    }
    if (it == maxit || !isfinite(rn)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the angular acceleration", rn, scale, it);
    }
    // K = J + h/2 (skew(W) J - skew(J W)); column k of skew(W) J is W x J e_k
    double K[9], dA[3], hh = 0.5 * h;
    for (int k = 0; k < 3; k++) {
      double c0 = J[k], c1 = J[3 + k], c2 = J[6 + k];
      K[k] = c0 + hh * (W[1] * c2 - W[2] * c1);
      K[3 + k] = c1 + hh * (W[2] * c0 - W[0] * c2);
      K[6 + k] = c2 + hh * (W[0] * c1 - W[1] * c0);
    }
    // - skew(J W)
    K[1] += hh * JW[2];
    K[2] -= hh * JW[1];
    K[3] -= hh * JW[2];
    K[5] += hh * JW[0];
    K[6] += hh * JW[1];
    K[7] -= hh * JW[0];
    if (rg_solve3(dA, K, r)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the angular acceleration (singular tangent)", rn, scale,
                           it);
    }
    v3_axpy(A, -1, dA);
  }
}


// exp(-psi/2) as a matrix and the quaternion of exp(psi), from one sin and one cos of |psi|/2
static void half_exp(double E[9], double dq[4], const double psi[3]) {
  double sn, c;
  double k = rg_halfAngle(psi, &sn, &c);
  // with x = |psi|/2: exp(p), p = -psi/2, is I + sin(x)/x skew(p) + (1 - cos(x))/x^2 skew(p)^2
  double a = -2 * k;  // sin(x)/x times -1/2 folded into p
  double x2 = 0.25 * (psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]);
  // (1 - cos x)/x^2 without cancellation: (sin x / x)^2 / (1 + cos x) for cos x > 0
  double bq = c > 0 ? (4 * k * k) / (1 + c) : (1 - c) / x2;
  double b = 0.25 * bq;  // skew(p)^2 = skew(psi)^2 / 4
  double p0 = psi[0], p1 = psi[1], p2 = psi[2];
  double s0 = p0 * p0, s1 = p1 * p1, s2 = p2 * p2;
  double b01 = b * (p0 * p1), b02 = b * (p0 * p2), b12 = b * (p1 * p2);
  double a0 = 0.5 * a * p0, a1 = 0.5 * a * p1, a2 = 0.5 * a * p2;
  E[0] = 1.0 - b * (s1 + s2);
  E[1] = b01 - a2;
  E[2] = b02 + a1;
  E[3] = b01 + a2;
  E[4] = 1.0 - b * (s0 + s2);
  E[5] = b12 - a0;
  E[6] = b02 - a1;
  E[7] = b12 + a0;
  E[8] = 1.0 - b * (s0 + s1);
  dq[0] = c, dq[1] = k * p0, dq[2] = k * p1, dq[3] = k * p2;
}


int rg_solveRotvec(const rdModel* m, const rgView* v, int ib, double t, const double J[9],
                   const double b[3], double h, double psi[3], double Eb[3], double dq[4],
                   int* iters) {
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  double bn = v3_norm(b);
  for (int it = 0;; it++) {
    // r = J psi / h - exp(-psi/2) b
    double E[9], Jp[3], r[3];
    half_exp(E, dq, psi);
    m3_mulv(Eb, E, b);
    m3_mulv(Jp, J, psi);
    v3_scale(Jp, Jp, 1 / h);
    v3_sub(r, Jp, Eb);
    double rn = v3_norm(r);
    double scale = v3_norm(Jp) + bn;
    if (rn <= tol * scale) {
      // exp(-psi) b = exp(-psi/2) exp(-psi/2) b
      double e2[3];
      m3_mulv(e2, E, Eb);
      v3_copy(Eb, e2);
      *iters += it;
      return RD_OK;
    }
    if (it == maxit || !isfinite(rn)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the incremental rotation vector", rn, scale, it);
    }
    // K = J/h - 1/2 exp(-psi/2) skew(b) T(-psi/2)
    double half[3], T[9], Sb[9], SbT[9], ESbT[9], K[9], dp[3];
    v3_scale(half, psi, -0.5);
    rdu_tangentSO3(T, half);
    rdu_skew(Sb, b);
    m3_mul(SbT, Sb, T);
    m3_mul(ESbT, E, SbT);
    for (int k = 0; k < 9; k++) {
      K[k] = J[k] / h - 0.5 * ESbT[k];
    }
    if (rg_solve3(dp, K, r)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the incremental rotation vector (singular tangent)", rn,
                           scale, it);
    }
    v3_axpy(psi, -1, dp);
  }
}
