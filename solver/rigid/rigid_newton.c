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
  double scale = 0;
  for (int i = 0; i < 9; i++) {
    scale = fmax(scale, fabs(A[i]));
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
    // K = J + h/2 (skew(W) J - skew(J W))
    double SW[9], SJW[9], SWJ[9], K[9], dA[3];
    rdu_skew(SW, W);
    rdu_skew(SJW, JW);
    m3_mul(SWJ, SW, J);
    for (int k = 0; k < 9; k++) {
      K[k] = J[k] + 0.5 * h * (SWJ[k] - SJW[k]);
    }
    if (rg_solve3(dA, K, r)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the angular acceleration (singular tangent)", rn, scale,
                           it);
    }
    v3_axpy(A, -1, dA);
  }
}


int rg_solveRotvec(const rdModel* m, const rgView* v, int ib, double t, const double J[9],
                   const double b[3], double h, double psi[3], int* iters) {
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  double bn = v3_norm(b);
  for (int it = 0;; it++) {
    // r = J psi / h - exp(-psi/2) b
    double half[3], E[9], Eb[3], Jp[3], r[3];
    v3_scale(half, psi, -0.5);
    rdu_expSO3(E, half);
    m3_mulv(Eb, E, b);
    m3_mulv(Jp, J, psi);
    v3_scale(Jp, Jp, 1 / h);
    v3_sub(r, Jp, Eb);
    double rn = v3_norm(r);
    double scale = v3_norm(Jp) + bn;
    if (rn <= tol * scale) {
      *iters += it;
      return RD_OK;
    }
    if (it == maxit || !isfinite(rn)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the incremental rotation vector", rn, scale, it);
    }
    // K = J/h - 1/2 exp(-psi/2) skew(b) T(-psi/2)
    double T[9], Sb[9], SbT[9], ESbT[9], K[9], dp[3];
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
