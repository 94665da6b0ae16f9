// SPDX-License-Identifier: MIT
// Inline kernels of the rigid steppers' hot path: rotations by quaternions, the exponential
// update, the weight of a body, 3x3 solves and the inner Newton solves of NMB/NMS and LIEMID.
#ifndef RD_RIGID_KERNELS_H
#define RD_RIGID_KERNELS_H

#include <math.h>

#include "core.h"
#include "rigid.h"
#include "vec3.h"

// out = R(q) a and R(q)^T a for a unit quaternion q (inline: the steppers' hot path)
static inline void rg_qrot(double out[3], const double q[4], const double a[3]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double t0 = 2.0 * (y * a[2] - z * a[1]), t1 = 2.0 * (z * a[0] - x * a[2]),
         t2 = 2.0 * (x * a[1] - y * a[0]);
  double r0 = a[0] + w * t0 + y * t2 - z * t1;
  double r1 = a[1] + w * t1 + z * t0 - x * t2;
  double r2 = a[2] + w * t2 + x * t1 - y * t0;
  out[0] = r0, out[1] = r1, out[2] = r2;
}

static inline void rg_qrotInv(double out[3], const double q[4], const double a[3]) {
  double qc[4] = {q[0], -q[1], -q[2], -q[3]};
  rg_qrot(out, qc, a);
}

// cos(x) and k = sin(x)/|psi| for x = |psi|/2: the quaternion of exp(psi) is (c, k psi).
// Up to x = 1/4 (a turn of 0.5 rad) both come from their Taylor polynomials in x^2, sin(x)/x to
// x^10 and cos(x) to x^12: the first omitted terms, x^12/13! and x^14/14!, are below 1e-17, a
// tenth of the last bit, so the values are libm's to rounding (tests/test_rigid_kernels.c) and
// need neither a square root nor a call. Beyond, libm's sin and cos.
static inline double rg_halfAngle(const double psi[3], double* c) {
  double p2 = psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2];
  double y = 0.25 * p2;  // x^2
  if (y <= 0.0625) {
    double sinc =
        1 + y * (-1.0 / 6 +
                 y * (1.0 / 120 +
                      y * (-1.0 / 5040 + y * (1.0 / 362880 + y * (-1.0 / 39916800)))));
    *c = 1 + y * (-1.0 / 2 +
                  y * (1.0 / 24 +
                       y * (-1.0 / 720 +
                            y * (1.0 / 40320 + y * (-1.0 / 3628800 + y * (1.0 / 479001600))))));
    return 0.5 * sinc;
  }
  double phi = sqrt(p2), x = 0.5 * phi;
  *c = cos(x);
  return sin(x) / phi;
}

// out = J a for the inertia of body b (diag: only the diagonal is read)
static inline void rg_jmul(double out[3], const double J[9], const double a[3], int diag) {
  if (diag) {
    out[0] = J[0] * a[0], out[1] = J[4] * a[1], out[2] = J[8] * a[2];
  } else {
    double r0 = J[0] * a[0] + J[1] * a[1] + J[2] * a[2];
    double r1 = J[3] * a[0] + J[4] * a[1] + J[5] * a[2];
    double r2 = J[6] * a[0] + J[7] * a[1] + J[8] * a[2];
    out[0] = r0, out[1] = r1, out[2] = r2;
  }
}

// x = A^-1 b for a general 3x3 matrix (Cramer's rule); -1 if A is (numerically) singular:
// |det A| <= 1e-14 max|A_ij|^3
static inline int rg_solve3(double x[3], const double A[9], const double b[3]) {
  double c0 = A[4] * A[8] - A[5] * A[7];
  double c1 = A[5] * A[6] - A[3] * A[8];
  double c2 = A[3] * A[7] - A[4] * A[6];
  double det = A[0] * c0 + A[1] * c1 + A[2] * c2;
  double scale = 0;
  for (int i = 0; i < 9; i++) {
    double a = fabs(A[i]);
    scale = a > scale ? a : scale;
  }
  if (!(fabs(det) > 1e-14 * scale * scale * scale) || !isfinite(det)) {
    return -1;
  }
  double id = 1 / det;
  double r0 = c0 * b[0] + (A[2] * A[7] - A[1] * A[8]) * b[1] + (A[1] * A[5] - A[2] * A[4]) * b[2];
  double r1 = c1 * b[0] + (A[0] * A[8] - A[2] * A[6]) * b[1] + (A[2] * A[3] - A[0] * A[5]) * b[2];
  double r2 = c2 * b[0] + (A[1] * A[6] - A[0] * A[7]) * b[1] + (A[0] * A[4] - A[1] * A[3]) * b[2];
  x[0] = r0 * id;
  x[1] = r1 * id;
  x[2] = r2 * id;
  return 0;
}

// x = A^-1 b; when every row of A is diagonally dominant by a factor 2 (sum of |A_ij|, j != i,
// at most |A_ii|/2: the Newton tangents of small steps) by elimination without pivoting, which
// is then backward stable and |det A| >= prod |A_ii|/2 (no singularity to test); otherwise by
// rg_solve3. -1 if A is (numerically) singular.
static inline int rg_solve3dd(double x[3], const double A[9], const double b[3]) {
  double d0 = fabs(A[0]), d1 = fabs(A[4]), d2 = fabs(A[8]);
  if (!(fabs(A[1]) + fabs(A[2]) <= 0.5 * d0 && fabs(A[3]) + fabs(A[5]) <= 0.5 * d1 &&
        fabs(A[6]) + fabs(A[7]) <= 0.5 * d2)) {
    return rg_solve3(x, A, b);
  }
  double i0 = 1 / A[0];
  double l10 = A[3] * i0, l20 = A[6] * i0;
  double b11 = A[4] - l10 * A[1], b12 = A[5] - l10 * A[2];
  double b21 = A[7] - l20 * A[1], b22 = A[8] - l20 * A[2];
  double i1 = 1 / b11, l21 = b21 * i1;
  double c22 = b22 - l21 * b12;
  double y1 = b[1] - l10 * b[0];
  double y2 = b[2] - l20 * b[0] - l21 * y1;
  double x2 = y2 / c22;
  double x1 = (y1 - b12 * x2) * i1;
  x[0] = (b[0] - A[1] * x1 - A[2] * x2) * i0;
  x[1] = x1;
  x[2] = x2;
  return 0;
}

// out = a b / |a b| (quaternions)
static inline void rg_quatMulNormalize(double out[4], const double a[4], const double b[4]) {
  double r0 = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double r1 = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double r2 = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double r3 = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  double n = 1.0 / sqrt(r0 * r0 + r1 * r1 + r2 * r2 + r3 * r3);
  out[0] = r0 * n, out[1] = r1 * n, out[2] = r2 * n, out[3] = r3 * n;
}

// out = q exp(psi) (psi in the body frame), normalized
static inline void rg_expRight(double out[4], const double q[4], const double psi[3]) {
  double c;
  double k = rg_halfAngle(psi, &c);
  double dq[4] = {c, k * psi[0], k * psi[1], k * psi[2]};
  rg_quatMulNormalize(out, q, dq);
}

// node position of body b in the configuration array q (nnode x 7) for attitude qb, with the
// rotation point at xr
static inline void rg_placeNode(const rgBody* b, double* q, const double qb[4],
                                const double xr[3]) {
  double* qn = q + 7 * b->node;
  if (b->rzero) {
    v3_copy(qn, xr);
  } else {
    double Rr[3];
    rg_qrot(Rr, qb, b->r);
    v3_add(qn, xr, Rr);
  }
  memcpy(qn + 3, qb, 4 * sizeof(double));
}

// node state (s.q, s.v, s.vd) of body b from its attitude, body angular velocity and
// acceleration, and the rotation point's motion in mem
static inline void rg_writeNode(const rgBody* b, const rgMem* mem, rdState* s,
                                const double q[4], const double W[3], const double A[3]) {
  double* v = s->v + 6 * b->node;
  double* a = s->vd + 6 * b->node;
  double Wr[3], WWr[3], Ar[3], g[3];
  rg_placeNode(b, s->q, q, mem->xr);
  v3_copy(v + 3, W);
  v3_copy(a + 3, A);
  if (b->rzero) {
    v3_copy(v, mem->vr);
    v3_copy(a, mem->ar);
    return;
  }
  // v = v_r + R (W x r);  a = a_r + R (A x r + W x (W x r))
  v3_cross(Wr, W, b->r);
  rg_qrot(g, q, Wr);
  v3_add(v, mem->vr, g);
  v3_cross(WWr, W, Wr);
  v3_cross(Ar, A, b->r);
  v3_add(Ar, Ar, WWr);
  rg_qrot(g, q, Ar);
  v3_add(a, mem->ar, g);
}

// torque about the rotation point of body b at attitude qb and its total force: the weight,
// plus the node load fn (global force, global moment at the node) if not NULL. The torque is
// spatial, or in the body frame with body = 1.
static inline void rg_bodyLoad(const rgBody* b, const double qb[4], const double* fn, int body,
                               double torque[3], double f[3]) {
  if (!fn) {
    v3_copy(f, b->mg);
    if (b->czero) {
      torque[0] = torque[1] = torque[2] = 0;
    } else if (body) {
      // R^T ((R c) x m g) = c x (R^T m g)
      double gb[3];
      rg_qrotInv(gb, qb, b->mg);
      v3_cross(torque, b->c, gb);
    } else {
      double Rc[3];
      rg_qrot(Rc, qb, b->c);
      v3_cross(torque, Rc, b->mg);
    }
    return;
  }
  // spatial: (R c) x m g + M + (R r) x F, with x_node - x_r = R r
  double tau[3];
  v3_add(f, b->mg, fn);
  v3_copy(tau, fn + 3);
  if (!b->czero) {
    double Rc[3], arm[3];
    rg_qrot(Rc, qb, b->c);
    v3_cross(arm, Rc, b->mg);
    v3_add(tau, tau, arm);
  }
  if (!b->rzero) {
    double Rr[3], arm[3];
    rg_qrot(Rr, qb, b->r);
    v3_cross(arm, Rr, fn);
    v3_add(tau, tau, arm);
  }
  if (body) {
    rg_qrotInv(torque, qb, tau);
  } else {
    v3_copy(torque, tau);
  }
}

// J A - T + W x J W = 0, W = Wp + h/2 A, by Newton from the guess in A; diag: J is diagonal
// (a constant after inlining, so both kernels are specialised)
// the same for a diagonal J = diag(j0, j1, j2), written out in scalars (the principal-axes
// kernel of NMB: no 3x3 products with zeros, few values kept in memory)
__attribute__((always_inline)) static inline int rg_accelNewtonDiag(const rdModel* m, const rgView* v, int ib, double t,
                                     const double J[9], const double T[3], const double Wp[3],
                                     double h, double A[3], int* iters) {
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  double hh = 0.5 * h, Tn = v3_norm(T);
  double j0 = J[0], j1 = J[4], j2 = J[8];
  double t0 = T[0], t1 = T[1], t2 = T[2];
  double p0 = Wp[0], p1 = Wp[1], p2 = Wp[2];
  double a0 = A[0], a1 = A[1], a2 = A[2];
  for (int it = 0;; it++) {
    double w0 = p0 + hh * a0, w1 = p1 + hh * a1, w2 = p2 + hh * a2;
    double u0 = j0 * w0, u1 = j1 * w1, u2 = j2 * w2;  // J W
    double ja0 = j0 * a0, ja1 = j1 * a1, ja2 = j2 * a2;
    double r0 = ja0 - t0 + (w1 * u2 - w2 * u1);
    double r1 = ja1 - t1 + (w2 * u0 - w0 * u2);
    double r2 = ja2 - t2 + (w0 * u1 - w1 * u0);
    // |r| <= tol s compared in squares; |W| |J W| from one square root
    double rr = r0 * r0 + r1 * r1 + r2 * r2;
    double scale = sqrt(ja0 * ja0 + ja1 * ja1 + ja2 * ja2) + Tn +
                   sqrt((w0 * w0 + w1 * w1 + w2 * w2) * (u0 * u0 + u1 * u1 + u2 * u2));
    double lim = tol * scale;
    if (rr <= lim * lim) {
      A[0] = a0, A[1] = a1, A[2] = a2;
      *iters += it;
      return RD_OK;
    }
    double rn = sqrt(rr);
    if (it == maxit || !isfinite(rn)) {
      A[0] = a0, A[1] = a1, A[2] = a2;
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the angular acceleration", rn, scale, it);
    }
    // K = J + h/2 (skew(W) J - skew(J W))
    double K[9] = {j0,
                   hh * (u2 - w2 * j1),
                   hh * (w1 * j2 - u1),
                   hh * (w2 * j0 - u2),
                   j1,
                   hh * (u0 - w0 * j2),
                   hh * (u1 - w1 * j0),
                   hh * (w0 * j1 - u0),
                   j2};
    double r[3] = {r0, r1, r2}, dA[3];
    if (rg_solve3dd(dA, K, r)) {
      A[0] = a0, A[1] = a1, A[2] = a2;
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the angular acceleration (singular tangent)", rn, scale,
                           it);
    }
    a0 -= dA[0], a1 -= dA[1], a2 -= dA[2];
  }
}


static inline int rg_accelNewton(const rdModel* m, const rgView* v, int ib, double t,
                                  const double J[9], int diag, const double T[3],
                                  const double Wp[3], double h, double A[3], int* iters) {
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  double hh = 0.5 * h, Tn = v3_norm(T);
  for (int it = 0;; it++) {
    double W[3], JW[3], JA[3], gyro[3], r[3];
    v3_copy(W, Wp);
    v3_axpy(W, hh, A);
    rg_jmul(JW, J, W, diag);
    rg_jmul(JA, J, A, diag);
    v3_cross(gyro, W, JW);
    v3_sub(r, JA, T);
    v3_add(r, r, gyro);
    double rn = v3_norm(r);
    // the round-off floor of r: the gyroscopic term is measured by its factors, |W| |J W|, not
    // by |W x J W|, which cancels when W is near an axis of J (a spinning top; in the spatial
    // frame every component of w and i w is large, and the floor was above the tolerance)
    double scale = v3_norm(JA) + Tn + v3_norm(W) * v3_norm(JW);
    if (rn <= tol * scale) {
      *iters += it;
      return RD_OK;
    }
    if (it == maxit || !isfinite(rn)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the angular acceleration", rn, scale, it);
    }
    // K = J + h/2 (skew(W) J - skew(J W)); column k of skew(W) J is W x J e_k
    double K[9], dA[3];
    if (diag) {
      double j0 = J[0], j1 = J[4], j2 = J[8];
      K[0] = j0, K[4] = j1, K[8] = j2;
      K[1] = hh * (JW[2] - W[2] * j1);
      K[2] = hh * (W[1] * j2 - JW[1]);
      K[3] = hh * (W[2] * j0 - JW[2]);
      K[5] = hh * (JW[0] - W[0] * j2);
      K[6] = hh * (JW[1] - W[1] * j0);
      K[7] = hh * (W[0] * j1 - JW[0]);
    } else {
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
    }
    if (rg_solve3(dA, K, r)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the angular acceleration (singular tangent)", rn, scale,
                           it);
    }
    v3_axpy(A, -1, dA);
  }
}


// (x - sin x)/x^3 from x^2 and sin(x)/x (the series below x = 1/2, where the difference
// cancels; it only enters the Newton tangent)
static inline double rg_tangentF2(double x2, double sinc) {
  if (x2 < 0.25) {
    return 1.0 / 6 - x2 * (1.0 / 120 - x2 * (1.0 / 5040 - x2 * (1.0 / 362880)));
  }
  return (1 - sinc) / x2;
}


// J psi / h = exp(-psi/2) b by Newton from the guess in psi. The residual and the tangent use
// one sin and one cos of x = |psi|/2: with p = -psi/2, exp(skew(p)) a = a + s1 p x a +
// s2 p x (p x a), s1 = sin(x)/x, s2 = (1 - cos x)/x^2
static inline int rg_rotvecNewton(const rdModel* m, const rgView* v, int ib, double t,
                                   const double J[9], int diag, const double b[3], double h,
                                   double psi[3], double eb[3], double dq[4], int* iters) {
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  double bn = v3_norm(b), ih = 1 / h;
  for (int it = 0;; it++) {
    double c;
    double k = rg_halfAngle(psi, &c);  // sin(x)/|psi|
    double x2 = 0.25 * v3_dot(psi, psi);
    double s1 = 2 * k;
    // (1 - cos x)/x^2 without cancellation: (sin x / x)^2 / (1 + cos x) for cos x > 0
    double s2 = c > 0 ? s1 * s1 / (1 + c) : (1 - c) / x2;
    double p[3], pb[3], ppb[3], e[3], Jp[3], r[3];
    v3_scale(p, psi, -0.5);
    v3_cross(pb, p, b);
    v3_cross(ppb, p, pb);
    for (int i = 0; i < 3; i++) {
      e[i] = b[i] + s1 * pb[i] + s2 * ppb[i];
    }
    rg_jmul(Jp, J, psi, diag);
    v3_scale(Jp, Jp, ih);
    v3_sub(r, Jp, e);
    double rn = v3_norm(r);
    double scale = v3_norm(Jp) + bn;
    if (rn <= tol * scale) {
      // exp(-psi) b = exp(-psi/2) e
      double pe[3], ppe[3];
      v3_cross(pe, p, e);
      v3_cross(ppe, p, pe);
      for (int i = 0; i < 3; i++) {
        eb[i] = e[i] + s1 * pe[i] + s2 * ppe[i];
      }
      dq[0] = c, dq[1] = k * psi[0], dq[2] = k * psi[1], dq[3] = k * psi[2];
      *iters += it;
      return RD_OK;
    }
    if (it == maxit || !isfinite(rn)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the incremental rotation vector", rn, scale, it);
    }
    // d(exp(-psi/2) b)/dpsi = 1/2 skew(e) Jl(-psi/2) = 1/2 skew(e) T(u), u = psi/2, T the
    // right tangent I + f1 skew(u) + f2 skew(u)^2 (f1 = -s2, f2 = (x - sin x)/x^3), and
    // skew(e) T(u) = s1 skew(e) + f1 (u e^T - (e.u) I) + f2 (e x u) u^T
    double u[3], eu[3], M[9], K[9], dp[3];
    v3_scale(u, psi, 0.5);
    v3_cross(eu, e, u);
    double f1 = -s2, f2 = rg_tangentF2(x2, s1), ed = v3_dot(e, u);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        M[3 * i + j] = f1 * u[i] * e[j] + f2 * eu[i] * u[j];
      }
      M[4 * i] -= f1 * ed;
    }
    M[1] -= s1 * e[2], M[2] += s1 * e[1];
    M[3] += s1 * e[2], M[5] -= s1 * e[0];
    M[6] -= s1 * e[1], M[7] += s1 * e[0];
    for (int i = 0; i < 9; i++) {
      K[i] = (diag && i % 4 ? 0 : J[i]) * ih - 0.5 * M[i];
    }
    if (rg_solve3(dp, K, r)) {
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the incremental rotation vector (singular tangent)", rn,
                           scale, it);
    }
    v3_axpy(psi, -1, dp);
  }
}


// atomic steps: every number of the scratch that the step writes is checked, and only then are
// the memory and the node states written (frame: RG_BODY, RG_SPATIAL or RG_NMS, see rigid.h)
// 0 if the three numbers are finite, NaN otherwise (x * 0 is NaN for inf and NaN)
static inline double zero3(const double x[3]) {
  return x[0] * 0.0 + (x[1] * 0.0 + x[2] * 0.0);
}


static inline int rg_commit(const rdModel* m, rdData* d, rgView* v, double t, int frame) {
  // the numbers this step writes; a pinned body's rotation point stays where it is
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const rgScratch* sc = &v->sc[i];
    double z = (sc->q[0] * 0.0 + zero3(sc->q + 1)) +
               (zero3(frame == RG_BODY ? sc->T : sc->tau) + zero3(sc->f)) +
               (zero3(sc->W) + zero3(sc->A));
    if (!b->pinned) {
      z += zero3(sc->xr) + (zero3(sc->vr) + zero3(sc->ar));
    }
    if (frame == RG_NMS) {
      z += zero3(sc->w) + zero3(sc->al);
    }
    if (!(z == 0)) {
      return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE,
                      "method '%s': non-finite state of body '%s' (node '%s') at t = %.17g",
                      v->method, m->elem[b->elem].def.u.body.name, m->node_name[b->node], t);
    }
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const rgScratch* sc = &v->sc[i];
    rgMem* mem = &v->mem[i];
    v3_copy(frame == RG_BODY ? mem->T : mem->tau, frame == RG_BODY ? sc->T : sc->tau);
    v3_copy(mem->f, sc->f);
    if (!b->pinned) {
      v3_copy(mem->xr, sc->xr);
      v3_copy(mem->vr, sc->vr);
      v3_copy(mem->ar, sc->ar);
    }
    if (frame == RG_NMS) {
      v3_copy(mem->w, sc->w);
      v3_copy(mem->al, sc->al);
    }
    if (b->pinned && b->rzero) {
      // the node is the fixed pivot: its position, velocity and acceleration stay (p, 0, 0)
      // as rg_initialize wrote them; only the rotation moves
      double* x = d->s.q + 7 * b->node;
      x[3] = sc->q[0], x[4] = sc->q[1], x[5] = sc->q[2], x[6] = sc->q[3];
      v3_copy(d->s.v + 6 * b->node + 3, sc->W);
      v3_copy(d->s.vd + 6 * b->node + 3, sc->A);
    } else {
      rg_writeNode(b, mem, &d->s, sc->q, sc->W, sc->A);
    }
  }
  return RD_OK;
}

#endif  // RD_RIGID_KERNELS_H
