// SPDX-License-Identifier: MIT
// Inline kernels of the rigid steppers' hot path: the exponential update (quaternion
// rotations: src/math/quat.h), the weight of a body, 3x3 solves and the inner Newton solves of
// NMB/NMS and LIEMID.
#ifndef RD_RIGID_KERNELS_H
#define RD_RIGID_KERNELS_H

#include <math.h>

#include "solver/rigid/rigid.h"
#include "src/core/core.h"
#include "src/math/quat.h"
#include "src/math/vec3.h"

// The rotation exp(skew(p)), x = |p|, is a -> c a + s1 p x a + s2 (p.a) p with c = cos x,
// s1 = sin(x)/x and s2 = (1 - cos x)/x^2. rg_rotCoef gives the three from y = x^2:
// - y <= 1e-6: their Taylor polynomials to y^2 (first omitted term below 2e-21);
// - y <= 1/16: s1 and s2 to y^5 (first omitted terms y^6/13! < 1e-17, y^6/14! < 1e-18: a tenth
//   of the last bit or less), c = 1 - y s2;
// - beyond: libm's sin and cos.
// Below a turn of 0.5 rad (y = |psi|^2/4 for the half angle of exp(psi)) the values agree with
// libm's to rounding (tests/test_rigid_kernels.c) and cost neither a square root nor a call.
static inline void rg_rotCoef(double y, double* c, double* s1, double* s2) {
  if (y <= 1e-6) {
    *s1 = 1 - y * (1.0 / 6 - y * (1.0 / 120));
    *s2 = 0.5 - y * (1.0 / 24 - y * (1.0 / 720));
    *c = 1 - y * *s2;
  } else if (y <= 0.0625) {
    *s1 = 1 - y * (1.0 / 6 -
                   y * (1.0 / 120 - y * (1.0 / 5040 - y * (1.0 / 362880 - y * (1.0 / 39916800)))));
    *s2 = 0.5 -
          y * (1.0 / 24 -
               y * (1.0 / 720 - y * (1.0 / 40320 - y * (1.0 / 3628800 - y * (1.0 / 479001600)))));
    *c = 1 - y * *s2;
  } else {
    double x = sqrt(y), sn = sin(x);
    *c = cos(x);
    *s1 = sn / x;
    // (1 - cos x)/x^2 without cancellation: (sin x / x)^2 / (1 + cos x) for cos x > 0
    *s2 = *c > 0 ? *s1 * *s1 / (1 + *c) : (1 - *c) / y;
  }
}

// the coefficients of exp(-psi/2) in terms of psi, xx = |psi|^2 (y = xx/4): g1 = -s1/2,
// g2 = s2/4 and c of rg_rotCoef at y, so that exp(-psi/2) a = a + g1 psi x a +
// g2 (psi (psi.a) - xx a). The polynomials are rg_rotCoef's in xx: each coefficient of y^k
// times -1/2 (g1) or 1/4 (g2), over 4^k, and c = 1 - xx g2: the same numbers bit for bit
// (scalings by powers of 2 are exact), without forming y on the way to the residual
static inline void rg_rotCoefHalf(double xx, double* c, double* g1, double* g2) {
  if (xx <= 4 * 1e-6) {
    *g1 = -0.5 + xx * (1.0 / 48 - xx * (1.0 / 3840));
    *g2 = 0.125 - xx * (1.0 / 384 - xx * (1.0 / 46080));
    *c = 1 - xx * *g2;
  } else if (xx <= 4 * 0.0625) {
    *g1 = -0.5 + xx * (1.0 / 48 -
                       xx * (1.0 / 3840 - xx * (1.0 / 645120 - xx * (1.0 / 185794560 -
                                                                     xx * (1.0 / 81749606400)))));
    *g2 = 0.125 -
          xx * (1.0 / 384 -
                xx * (1.0 / 46080 - xx * (1.0 / 10321920 -
                                          xx * (1.0 / 3715891200 - xx * (1.0 / 1961990553600)))));
    *c = 1 - xx * *g2;
  } else {
    double s1, s2;
    rg_rotCoef(0.25 * xx, c, &s1, &s2);
    *g1 = -0.5 * s1;
    *g2 = 0.25 * s2;
  }
}

// cos(x) and k = sin(x)/|psi| for x = |psi|/2: the quaternion of exp(psi) is (c, k psi)
static inline double rg_halfAngle(const double psi[3], double* c) {
  double s1, s2;
  rg_rotCoef(0.25 * v3_dot(psi, psi), c, &s1, &s2);
  return 0.5 * s1;
}

// out = exp(skew(p)) a from the coefficients of rg_rotCoef at y = |p|^2, written as a plus a
// correction, a + s1 p x a + s2 (p (p.a) - y a): the rounding then changes |out| by about eps y
// |a|, not eps |a| as c a + ... would (the momentum-conserving methods rotate their momentum
// by it every step)
static inline void rg_rotate(double out[3], const double p[3], double y, double s1, double s2,
                             const double a[3]) {
  double pa[3];
  v3_cross(pa, p, a);
  double d = v3_dot(p, a);
  for (int i = 0; i < 3; i++) {
    out[i] = a[i] + (s1 * pa[i] + s2 * (d * p[i] - y * a[i]));
  }
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

// out = A^-1 for a general 3x3 matrix (adjugate over determinant); -1 if A is (numerically)
// singular: |det A| <= 1e-14 max|A_ij|^3
static inline int rg_inverse3(double out[9], const double A[9]) {
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
  out[0] = c0 * id;
  out[1] = (A[2] * A[7] - A[1] * A[8]) * id;
  out[2] = (A[1] * A[5] - A[2] * A[4]) * id;
  out[3] = c1 * id;
  out[4] = (A[0] * A[8] - A[2] * A[6]) * id;
  out[5] = (A[2] * A[3] - A[0] * A[5]) * id;
  out[6] = c2 * id;
  out[7] = (A[1] * A[6] - A[0] * A[7]) * id;
  out[8] = (A[0] * A[4] - A[1] * A[3]) * id;
  return 0;
}

// x = A^-1 b for a general 3x3 matrix (Cramer's rule); -1 if A is (numerically) singular
static inline int rg_solve3(double x[3], const double A[9], const double b[3]) {
  double Ai[9], r[3];
  if (rg_inverse3(Ai, A)) {
    return -1;
  }
  m3_mulv(r, Ai, b);
  v3_copy(x, r);
  return 0;
}

// x = A^-1 b by elimination without pivoting, for a matrix whose rows are diagonally dominant
// by a factor 2 (sum of |A_ij|, j != i, at most |A_ii|/2): the elimination is then backward
// stable and |det A| >= prod |A_ii|/2, so there is no singularity to test
static inline void rg_solve3dd(double x[3], const double A[9], const double b[3]) {
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
}

// out = a b / |a b| (quaternions). The product of unit quaternions is unit to a few rounding
// errors, n2 = 1 + d: then 1/sqrt(n2) = 1 - d/2 + O(d^2) (d^2 below 1e-28), without a square
// root or a division; a product further from unit length is normalized exactly.
static inline void rg_quatMulNormalize(double out[4], const double a[4], const double b[4]) {
  double r[4];
  q4_mul(r, a, b);
  double r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
  double n2 = r0 * r0 + r1 * r1 + r2 * r2 + r3 * r3;
  double n = fabs(n2 - 1) <= 1e-14 ? 1.5 - 0.5 * n2 : 1 / sqrt(n2);
  out[0] = r0 * n, out[1] = r1 * n, out[2] = r2 * n, out[3] = r3 * n;
}

// out = q exp(psi) (psi in the body frame), normalized
static inline void rg_expRight(double out[4], const double q[4], const double psi[3]) {
  double c;
  double k = rg_halfAngle(psi, &c);
  double dq[4] = {c, k * psi[0], k * psi[1], k * psi[2]};
  rg_quatMulNormalize(out, q, dq);
}

// spatial angular momentum pi = R(q) J W of body b with attitude q and body angular velocity W
static inline void rg_momentum(const rgBody* b, const double q[4], const double W[3],
                               double pi[3]) {
  double JW[3];
  m3_mulv(JW, b->J, W);
  q4_rotate(pi, q, JW);
}


// body angular velocity W = J^-1 R(q)^T pi from the spatial angular momentum pi
static inline void rg_velocity(const rgBody* b, const double q[4], const double pi[3],
                               double W[3]) {
  double P[3];
  q4_rotateInv(P, q, pi);
  m3_mulv(W, b->Jinv, P);
}


// velocity Verlet for the rotation point of a free body (pinned: nothing moves). Drift:
// x_r += h (v_r + h/2 a_r); kick, once the force f at the new state is in mem:
// v_r += h/2 a_r, a_r = f / m, v_r += h/2 a_r
static inline void rg_verletDrift(const rgBody* b, rgMem* mem, double h) {
  double vel[3];
  v3_copy(vel, mem->vr);
  v3_axpy(vel, 0.5 * h, mem->ar);
  if (!b->pinned) {
    v3_axpy(mem->xr, h, vel);
  }
}


static inline void rg_verletKick(const rgBody* b, rgMem* mem, double h) {
  if (!b->pinned) {
    v3_axpy(mem->vr, 0.5 * h, mem->ar);
    v3_scale(mem->ar, mem->f, 1 / b->mass);
    v3_axpy(mem->vr, 0.5 * h, mem->ar);
  }
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
    q4_rotate(Rr, qb, b->r);
    v3_add(qn, xr, Rr);
  }
  memcpy(qn + 3, qb, 4 * sizeof(double));
}

// node state (s.q, s.v, s.vd) of body b from its attitude, body angular velocity and
// acceleration, and the rotation point's motion in mem
static inline void rg_writeNode(const rgBody* b, const rgMem* mem, rdState* s, const double q[4],
                                const double W[3], const double A[3]) {
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
  q4_rotate(g, q, Wr);
  v3_add(v, mem->vr, g);
  v3_cross(WWr, W, Wr);
  v3_cross(Ar, A, b->r);
  v3_add(Ar, Ar, WWr);
  q4_rotate(g, q, Ar);
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
      q4_rotateInv(gb, qb, b->mg);
      v3_cross(torque, b->c, gb);
    } else {
      double Rc[3];
      q4_rotate(Rc, qb, b->c);
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
    q4_rotate(Rc, qb, b->c);
    v3_cross(arm, Rc, b->mg);
    v3_add(tau, tau, arm);
  }
  if (!b->rzero) {
    double Rr[3], arm[3];
    q4_rotate(Rr, qb, b->r);
    v3_cross(arm, Rr, fn);
    v3_add(tau, tau, arm);
  }
  if (body) {
    q4_rotateInv(torque, qb, tau);
  } else {
    v3_copy(torque, tau);
  }
}

// J A - T + W x J W = 0, W = Wp + h/2 A, by Newton from the guess in A; diag: J is diagonal
// (a constant after inlining, so both kernels are specialised)
// the same for a diagonal J = diag(j0, j1, j2), written out in scalars (the principal-axes
// kernel of NMB: no 3x3 products with zeros, few values kept in memory)
RG_HOT int rg_accelNewtonDiag(const rdModel* m, const rgView* v, int ib, double t,
                              const double J[9], const double T[3], const double Wp[3], double h,
                              double A[3], int* iters) {
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  double hh = 0.5 * h, Tn = v3_norm(T);
  double j0 = J[0], j1 = J[4], j2 = J[8];
  double jr2 = v->body[ib].jr2;
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
    // (rr is finite exactly when |r| is)
    if (it == maxit || !isfinite(rr)) {
      A[0] = a0, A[1] = a1, A[2] = a2;
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the angular acceleration", sqrt(rr), scale, it);
    }
    // K = J + h/2 (skew(W) J - skew(J W))
    double K[9] = {j0, hh * (u2 - w2 * j1), hh * (w1 * j2 - u1), hh * (w2 * j0 - u2),
                   j1, hh * (u0 - w0 * j2), hh * (u1 - w1 * j0), hh * (w0 * j1 - u0),
                   j2};
    // every off-diagonal entry of row i is at most h/2 (|J W| + |W| j_max) <= h/2 2 j_max |W|,
    // so the rows are dominant by a factor 2 (rg_solve3dd) when 8 (h/2) j_max |W| <= j_min
    double r[3] = {r0, r1, r2}, dA[3], eh = 8 * hh;
    if ((w0 * w0 + w1 * w1 + w2 * w2) * (eh * eh) <= jr2) {
      rg_solve3dd(dA, K, r);
    } else if (rg_solve3(dA, K, r)) {
      A[0] = a0, A[1] = a1, A[2] = a2;
      *iters += it;
      return rg_newtonFail(m, v, ib, t, "the angular acceleration (singular tangent)", sqrt(rr),
                           scale, it);
    }
    a0 -= dA[0], a1 -= dA[1], a2 -= dA[2];
  }
}


static inline int rg_accelNewton(const rdModel* m, const rgView* v, int ib, double t,
                                 const double J[9], int diag, const double T[3], const double Wp[3],
                                 double h, double A[3], int* iters) {
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


// J psi / h = exp(-psi/2) b (explicit midpoint Lie) for psi by Newton.
// Guess: psi0 = h J^-1 b, improved by one fixed-point step of the equation with exp(-psi/2) to
// second order (no trigonometry): psi = h J^-1 (b + p x b + p x (p x b)/2), p = -psi0/2.
// Residual r = J psi / h - e, e = exp(skew(p)) b, p = -psi/2 (rg_rotCoef, rg_rotate).
// Converged when |r| <= tol 2 |b|: the two terms of the equation both have the magnitude |b| at
// the solution (exp is a rotation), and the test is always made on a freshly evaluated
// residual. The tangent: Ki_old, if not NULL, is an inverse tangent kept from an earlier step,
// used for the first correction only (modified Newton); every further correction, or the first
// when there is none, uses the exact tangent at the iterate (rg_rotvecTangent), whose inverse
// goes to Ki_new (*knew = 1). On success eb = exp(-psi) b and dq = the quaternion of exp(psi).
static inline int rg_rotvecNewton(const rdModel* m, const rgView* v, int ib, double t,
                                  const double J[9], const double Jinv[9], int diag,
                                  const double b[3], double h, const double* Ki_old,
                                  double Ki_new[9], int* knew, double eb[3], double dq[4],
                                  int* iters) {
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  double ih = 1 / h, scale = 2 * v3_norm(b), lim = tol * scale, lim2 = lim * lim;
  double Jh[9], psi[3];
  if (diag) {
    Jh[0] = J[0] * ih, Jh[4] = J[4] * ih, Jh[8] = J[8] * ih;
  } else {
    for (int i = 0; i < 9; i++) {
      Jh[i] = J[i] * ih;
    }
  }
  {
    double p[3], pb[3], ppb[3], g[3];
    rg_jmul(p, Jinv, b, diag);
    v3_scale(p, p, -0.5 * h);
    v3_cross(pb, p, b);
    v3_cross(ppb, p, pb);
    for (int j = 0; j < 3; j++) {
      g[j] = h * (b[j] + pb[j] + 0.5 * ppb[j]);
    }
    rg_jmul(psi, Jinv, g, diag);
  }
  const double* Ki = Ki_old;
  *knew = 0;
  for (int it = 0;; it++) {
    double y = 0.25 * v3_dot(psi, psi), c, s1, s2;
    rg_rotCoef(y, &c, &s1, &s2);
    double p[3], e[3], Jp[3], r[3];
    v3_scale(p, psi, -0.5);
    rg_rotate(e, p, y, s1, s2, b);
    rg_jmul(Jp, Jh, psi, diag);
    v3_sub(r, Jp, e);
    double rr = v3_dot(r, r);
    if (rr <= lim2) {
      // exp(-psi) b = exp(-psi/2) e; the quaternion of exp(psi) has the angle 2x: (c, s1 psi/2)
      rg_rotate(eb, p, y, s1, s2, e);
      dq[0] = c, dq[1] = -s1 * p[0], dq[2] = -s1 * p[1], dq[3] = -s1 * p[2];
      *iters += it;
      return RD_OK;
    }
    double rn = sqrt(rr);
    if (it == maxit || !isfinite(rn)) {
      *iters += it;
      rg_newtonFail(m, v, ib, t, "the incremental rotation vector", rn, scale, it);
      return RD_RECOVER_NEWTON;
    }
    if (!Ki || it > 0) {
      if (diag) {
        Jh[1] = Jh[2] = Jh[3] = Jh[5] = Jh[6] = Jh[7] = 0;
      }
      if (rg_rotvecTangent(Ki_new, Jh, psi, e, s1, s2, y)) {
        *iters += it;
        rg_newtonFail(m, v, ib, t, "the incremental rotation vector (singular tangent)", rn, scale,
                      it);
        return RD_RECOVER_NEWTON;
      }
      Ki = Ki_new;
      *knew = 1;
    }
    double dp[3];
    m3_mulv(dp, Ki, r);
    v3_axpy(psi, -1, dp);
  }
}


// rg_rotvecNewton for a diagonal J = diag(j), written out in scalars, with jh = j/h,
// hi = h/j and bb = |b|^2 given (the half steps of LIEMID[EA] share them: the same h, and |b|
// does not change under the rotation between them); the test |r| <= tol 2|b| is made in squares.
// exp(-psi/2) is applied as in rg_rotate with p = -psi/2 folded into the coefficients
// (rg_rotCoefHalf) and the products with psi (scalings by powers of 2: the same numbers)
RG_HOT int rg_rotvecNewtonDiag(const rdModel* m, const rgView* v, int ib, double t,
                               const double jh[3], const double hi[3], double bb, const double b[3],
                               const double* Ki_old, double Ki_new[9], int* knew, double eb[3],
                               double dq[4], int* iters) {
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  double b0 = b[0], b1 = b[1], b2 = b[2];
  double lim2 = (2 * tol) * (2 * tol) * bb;
  double jh0 = jh[0], jh1 = jh[1], jh2 = jh[2];
  double x0, x1, x2;  // psi
  {
    double hi0 = hi[0], hi1 = hi[1], hi2 = hi[2];
    double p0 = -0.5 * hi0 * b0, p1 = -0.5 * hi1 * b1, p2 = -0.5 * hi2 * b2;
    double c0 = p1 * b2 - p2 * b1, c1 = p2 * b0 - p0 * b2, c2 = p0 * b1 - p1 * b0;
    double d = 0.5 * (p0 * b0 + p1 * b1 + p2 * b2), yy = 0.5 * (p0 * p0 + p1 * p1 + p2 * p2);
    // b + p x b + (p (p.b) - |p|^2 b)/2
    x0 = hi0 * (b0 + c0 + d * p0 - yy * b0);
    x1 = hi1 * (b1 + c1 + d * p1 - yy * b1);
    x2 = hi2 * (b2 + c2 + d * p2 - yy * b2);
  }
  const double* Ki = Ki_old;
  *knew = 0;
  for (int it = 0;; it++) {
    double xx = x0 * x0 + x1 * x1 + x2 * x2, c, g1, g2;
    rg_rotCoefHalf(xx, &c, &g1, &g2);
    // e = exp(-psi/2) b
    double xb = x0 * b0 + x1 * b1 + x2 * b2;
    double e0 = b0 + (g1 * (x1 * b2 - x2 * b1) + g2 * (xb * x0 - xx * b0));
    double e1 = b1 + (g1 * (x2 * b0 - x0 * b2) + g2 * (xb * x1 - xx * b1));
    double e2 = b2 + (g1 * (x0 * b1 - x1 * b0) + g2 * (xb * x2 - xx * b2));
    double r0 = jh0 * x0 - e0, r1 = jh1 * x1 - e1, r2 = jh2 * x2 - e2;
    double rr = r0 * r0 + r1 * r1 + r2 * r2;
    if (rr <= lim2) {
      // exp(-psi) b = exp(-psi/2) e; the quaternion of exp(psi) has the angle 2x: (c, s1 psi/2)
      double xe = x0 * e0 + x1 * e1 + x2 * e2;
      eb[0] = e0 + (g1 * (x1 * e2 - x2 * e1) + g2 * (xe * x0 - xx * e0));
      eb[1] = e1 + (g1 * (x2 * e0 - x0 * e2) + g2 * (xe * x1 - xx * e1));
      eb[2] = e2 + (g1 * (x0 * e1 - x1 * e0) + g2 * (xe * x2 - xx * e2));
      dq[0] = c, dq[1] = -g1 * x0, dq[2] = -g1 * x1, dq[3] = -g1 * x2;
      *iters += it;
      return RD_OK;
    }
    // (rr is finite exactly when |r| is)
    if (it == maxit || !isfinite(rr)) {
      *iters += it;
      rg_newtonFail(m, v, ib, t, "the incremental rotation vector", sqrt(rr), 2 * sqrt(bb), it);
      return RD_RECOVER_NEWTON;
    }
    if (!Ki || it > 0) {
      double Jh[9] = {jh0, 0, 0, 0, jh1, 0, 0, 0, jh2};
      double psi[3] = {x0, x1, x2}, e[3] = {e0, e1, e2};
      if (rg_rotvecTangent(Ki_new, Jh, psi, e, -2 * g1, 4 * g2, 0.25 * xx)) {
        *iters += it;
        rg_newtonFail(m, v, ib, t, "the incremental rotation vector (singular tangent)", sqrt(rr),
                      2 * sqrt(bb), it);
        return RD_RECOVER_NEWTON;
      }
      Ki = Ki_new;
      *knew = 1;
    }
    x0 -= Ki[0] * r0 + Ki[1] * r1 + Ki[2] * r2;
    x1 -= Ki[3] * r0 + Ki[4] * r1 + Ki[5] * r2;
    x2 -= Ki[6] * r0 + Ki[7] * r1 + Ki[8] * r2;
  }
}


// atomic steps: every number of the scratch that the step writes is checked, and only then are
// the memory and the node states written (frame: RG_BODY, RG_SPATIAL or RG_NMS, see rigid.h)
// the sum of three numbers
static inline double sum3(const double x[3]) {
  return x[0] + (x[1] + x[2]);
}

RG_HOT int rg_commit(const rdModel* m, rdData* d, rgView* v, double t, int frame) {
  // the numbers this step writes; a pinned body's rotation point stays where it is
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const rgScratch* sc = &v->sc[i];
    // 0 times their sum is 0 if they are all finite and NaN otherwise (numbers so large that
    // the sum overflows, beyond 1e307, count as non-finite too)
    double z = (sc->q[0] + sum3(sc->q + 1)) +
               (sum3(frame == RG_BODY ? sc->T : sc->tau) + sum3(sc->f)) +
               (sum3(sc->W) + sum3(sc->A));
    if (!b->pinned) {
      z += sum3(sc->xr) + (sum3(sc->vr) + sum3(sc->ar));
    }
    if (frame == RG_NMS) {
      z += sum3(sc->w) + sum3(sc->al);
    }
    if (!(z * 0.0 == 0)) {
      return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE,
                      "method '%s': non-finite state of body '%s' (node '%s') at t = %.17g",
                      v->method, m->elem[b->elem].def.u.body.name, m->node_name[b->node], t);
    }
  }
  // the local error monitor of fixed-step runs: the third-order Taylor term h^3/6 q''' with
  // h q''' = the change of the (angular and rotation point's) acceleration, the difference
  // between explicit Newmark (beta = 0) and the linear-acceleration rule (beta = 1/6)
  double h = t - d->s.t, el = 0;
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const rgScratch* sc = &v->sc[i];
    double dA[3];
    v3_sub(dA, sc->A, d->s.vd + 6 * b->node + 3);
    el = fmax(el, v3_norm(dA));
    if (!b->pinned) {
      v3_sub(dA, sc->ar, v->mem[i].ar);
      el = fmax(el, v3_norm(dA));
    }
  }
  d->step_error = h * h / 6 * el;
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
