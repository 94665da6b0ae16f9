// SPDX-License-Identifier: MIT
// Lie-group core: SO(3) exp/log, quaternions, tangent operator T(psi) and derivatives, poses.
#include "rodrigues/liegroup.h"

#include <math.h>
#include <stddef.h>

#include "src/math/quat.h"
#include "src/math/vec3.h"

// ---------------------------------------------------------------------------------------------
// scalar helpers

// sin(x)/x, exact at 0 (the series error is below x^4/120 < 1e-18 where it is used)
static double sinc(double x) {
  if (fabs(x) < 1e-4)
    return 1.0 - x * x / 6.0;
  return sin(x) / x;
}

// sum_{j>=0} (-1)^j w_j z^j / (2j+k)!, with w_j = 1, (2j+2) or (2j+2)(2j+4) for m = 0, 1, 2.
// Used for 0 <= z < 4 only, where 16 terms are below rounding by many orders of magnitude.
static double alt_series(double z, int k, int m) {
  double inv_fact = 1.0;
  for (int i = 2; i <= k; ++i)
    inv_fact /= i;
  double zp = 1.0, sum = 0.0;
  for (int j = 0; j < 16; ++j) {
    double w = 1.0;
    if (m >= 1)
      w *= 2.0 * j + 2.0;
    if (m >= 2)
      w *= 2.0 * j + 4.0;
    double term = w * zp * inv_fact;
    sum += (j & 1) ? -term : term;
    zp *= z;
    inv_fact /= (double)(2 * j + k + 1) * (double)(2 * j + k + 2);
  }
  return sum;
}

// coefficients of T = I + f1 skew(psi) + f2 skew(psi)^2:
// f1 = (cos(phi) - 1)/phi^2 = -sinc(phi/2)^2/2, f2 = (phi - sin(phi))/phi^3
static void tangent_coef(double phi, double* f1, double* f2) {
  double s = sinc(0.5 * phi);
  *f1 = -0.5 * s * s;
  if (phi < 2.0) {
    *f2 = alt_series(phi * phi, 3, 0);
  } else {
    *f2 = (phi - sin(phi)) / (phi * phi * phi);
  }
}

// g1 = f1'(phi)/phi = (2 - 2 cos(phi) - phi sin(phi))/phi^4,
// g2 = f2'(phi)/phi = (phi (1 - cos(phi)) - 3 (phi - sin(phi)))/phi^5
static void tangent_dcoef(double phi, double* g1, double* g2) {
  if (phi < 2.0) {
    double z = phi * phi;
    *g1 = alt_series(z, 4, 1);
    *g2 = -alt_series(z, 5, 1);
  } else {
    double c = cos(phi), s = sin(phi);
    double p2 = phi * phi, p4 = p2 * p2;
    *g1 = (2.0 - 2.0 * c - phi * s) / p4;
    *g2 = (phi * (1.0 - c) - 3.0 * (phi - s)) / (p4 * phi);
  }
}

// coefficient of T^-1 = I + skew(psi)/2 + c skew(psi)^2 and gc = c'(phi)/phi. With x = phi/2,
// h = (sin x - x cos x)/x^3, hp = h'(x)/x and s = x/sin x:
// c = (1 - x cot x)/phi^2 = h s/4 and gc = s (hp + h^2 s)/16 (the series avoid the cancellation).
static void tangent_inv_coef(double phi, double* c, double* gc) {
  double x = 0.5 * phi;
  double h, hp;
  if (x < 2.0) {
    h = alt_series(x * x, 3, 1);
    hp = -alt_series(x * x, 5, 2);
  } else {
    double sx = sin(x), cx = cos(x), x2 = x * x;
    h = (sx - x * cx) / (x2 * x);
    hp = ((x2 - 3.0) * sx + 3.0 * x * cx) / (x2 * x2 * x);
  }
  double s = 1.0 / sinc(x);
  *c = 0.25 * h * s;
  if (gc)
    *gc = s * (hp + h * h * s) / 16.0;
}

// ---------------------------------------------------------------------------------------------
// matrix helpers

// M = I + a skew(psi) + b skew(psi)^2, using skew(psi)^2 = psi psi^T - |psi|^2 I
// (diagonal entries -(psi_j^2 + psi_k^2) written without cancellation)
static void quadratic_in_skew(double M[9], const double psi[3], double a, double b) {
  double p0 = psi[0], p1 = psi[1], p2 = psi[2];
  double s0 = p0 * p0, s1 = p1 * p1, s2 = p2 * p2;
  // shared symmetric products, so that M(-psi) = M(psi)^T holds exactly in floating point
  double b01 = b * (p0 * p1), b02 = b * (p0 * p2), b12 = b * (p1 * p2);
  double a0 = a * p0, a1 = a * p1, a2 = a * p2;
  M[0] = 1.0 - b * (s1 + s2);
  M[1] = b01 - a2;
  M[2] = b02 + a1;
  M[3] = b01 + a2;
  M[4] = 1.0 - b * (s0 + s2);
  M[5] = b12 - a0;
  M[6] = b02 - a1;
  M[7] = b12 + a0;
  M[8] = 1.0 - b * (s0 + s1);
}

// Jacobian of M(psi) a for M = I + f1 skew(psi) + f2 skew(psi)^2 with f1, f2 functions of
// phi = |psi| and g1 = f1'/phi, g2 = f2'/phi:
// D = g1 (psi x a) psi^T - f1 skew(a) + g2 (psi x (psi x a)) psi^T
//     + f2 ((psi.a) I + psi a^T - 2 a psi^T)
static void d_quadratic_in_skew(double D[9], const double psi[3], const double a[3], double f1,
                                double g1, double f2, double g2) {
  double p[3] = {psi[0], psi[1], psi[2]};
  double v[3] = {a[0], a[1], a[2]};
  double pa = v3_dot(p, v);
  double pp = v3_dot(p, p);
  double cr[3];
  v3_cross(cr, p, v);
  // psi x (psi x a) = psi (psi.a) - a |psi|^2
  double cc[3] = {p[0] * pa - v[0] * pp, p[1] * pa - v[1] * pp, p[2] * pa - v[2] * pp};
  double sa[9];
  m3_skew(sa, v);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      double d = (g1 * cr[i] + g2 * cc[i]) * p[j] - f1 * sa[3 * i + j];
      d += f2 * ((i == j ? pa : 0.0) + p[i] * v[j] - 2.0 * v[i] * p[j]);
      D[3 * i + j] = d;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// skew

void rdu_skew(double S[9], const double v[3]) {
  m3_skew(S, v);
}

void rdu_unskew(double v[3], const double S[9]) {
  double v0 = 0.5 * (S[7] - S[5]);
  double v1 = 0.5 * (S[2] - S[6]);
  double v2 = 0.5 * (S[3] - S[1]);
  v[0] = v0, v[1] = v1, v[2] = v2;
}

// ---------------------------------------------------------------------------------------------
// SO(3) exp / log

void rdu_expSO3(double R[9], const double psi[3]) {
  double p[3] = {psi[0], psi[1], psi[2]};
  double phi = v3_norm(p);
  double sh = sinc(0.5 * phi);
  // sin(phi)/phi and (1 - cos(phi))/phi^2 = sinc(phi/2)^2 / 2, both cancellation-free
  quadratic_in_skew(R, p, sinc(phi), 0.5 * sh * sh);
}

void rdu_logSO3(double psi[3], const double R[9]) {
  double q[4];
  rdu_matToQuat(q, R);
  rdu_quatToRotvec(psi, q);
}

// ---------------------------------------------------------------------------------------------
// quaternions

void rdu_quatMul(double out[4], const double a[4], const double b[4]) {
  q4_mul(out, a, b);
}

void rdu_quatConj(double out[4], const double q[4]) {
  out[0] = q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = -q[3];
}

double rdu_quatNormalize(double out[4], const double q[4]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double n = sqrt(w * w + x * x + y * y + z * z);
  if (n == 0.0) {
    out[0] = 1.0, out[1] = 0.0, out[2] = 0.0, out[3] = 0.0;
    return 0.0;
  }
  double s = 1.0 / n;
  out[0] = w * s, out[1] = x * s, out[2] = y * s, out[3] = z * s;
  return n;
}

void rdu_quatRotate(double out[3], const double q[4], const double v[3]) {
  q4_rotate(out, q, v);
}

void rdu_quatRotateInv(double out[3], const double q[4], const double v[3]) {
  q4_rotateInv(out, q, v);
}

void rdu_quatToMat(double R[9], const double q[4]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double n2 = w * w + x * x + y * y + z * z;
  double s = n2 > 0.0 ? 2.0 / n2 : 0.0;
  double xx = s * x * x, yy = s * y * y, zz = s * z * z;
  double xy = s * x * y, xz = s * x * z, yz = s * y * z;
  double wx = s * w * x, wy = s * w * y, wz = s * w * z;
  R[0] = 1.0 - yy - zz, R[1] = xy - wz, R[2] = xz + wy;
  R[3] = xy + wz, R[4] = 1.0 - xx - zz, R[5] = yz - wx;
  R[6] = xz - wy, R[7] = yz + wx, R[8] = 1.0 - xx - yy;
}

void rdu_matToQuat(double q[4], const double R[9]) {
  double r00 = R[0], r01 = R[1], r02 = R[2];
  double r10 = R[3], r11 = R[4], r12 = R[5];
  double r20 = R[6], r21 = R[7], r22 = R[8];
  double tr = r00 + r11 + r22;
  double w, x, y, z;
  // Shepperd: take the square root of the largest of 4w^2, 4x^2, 4y^2, 4z^2 (minus 1 each)
  if (tr >= r00 && tr >= r11 && tr >= r22) {
    double t = sqrt(1.0 + tr);
    double f = 0.5 / t;
    w = 0.5 * t;
    x = (r21 - r12) * f;
    y = (r02 - r20) * f;
    z = (r10 - r01) * f;
  } else if (r00 >= r11 && r00 >= r22) {
    double t = sqrt(1.0 + r00 - r11 - r22);
    double f = 0.5 / t;
    x = 0.5 * t;
    w = (r21 - r12) * f;
    y = (r01 + r10) * f;
    z = (r02 + r20) * f;
  } else if (r11 >= r22) {
    double t = sqrt(1.0 - r00 + r11 - r22);
    double f = 0.5 / t;
    y = 0.5 * t;
    w = (r02 - r20) * f;
    x = (r01 + r10) * f;
    z = (r12 + r21) * f;
  } else {
    double t = sqrt(1.0 - r00 - r11 + r22);
    double f = 0.5 / t;
    z = 0.5 * t;
    w = (r10 - r01) * f;
    x = (r02 + r20) * f;
    y = (r12 + r21) * f;
  }
  double s = w < 0.0 ? -1.0 : 1.0;
  double qq[4] = {s * w, s * x, s * y, s * z};
  rdu_quatNormalize(q, qq);
}

void rdu_quatToRotvec(double psi[3], const double q[4]) {
  double s = q[0] < 0.0 ? -1.0 : 1.0;
  double w = s * q[0];
  double v[3] = {s * q[1], s * q[2], s * q[3]};
  double n = v3_norm(v);
  double f;
  // psi = 2 atan2(n, w) v/n; for n << w the series of atan avoids 0/0
  if (n < 1e-6 * w) {
    double r = n / w;
    f = 2.0 / w * (1.0 - r * r / 3.0);
  } else if (n == 0.0) {
    f = 0.0;
  } else {
    f = 2.0 * atan2(n, w) / n;
  }
  psi[0] = f * v[0], psi[1] = f * v[1], psi[2] = f * v[2];
}

void rdu_rotvecToQuat(double q[4], const double psi[3]) {
  double p[3] = {psi[0], psi[1], psi[2]};
  double phi = v3_norm(p);
  double f = 0.5 * sinc(0.5 * phi);
  q[0] = cos(0.5 * phi);
  q[1] = f * p[0], q[2] = f * p[1], q[3] = f * p[2];
}

double rdu_quatDistance(const double a[4], const double b[4]) {
  // conj(a) * b = (cos(theta/2), sin(theta/2) axis) up to sign: |vector part| = sin(theta/2)
  double c[4], d[4];
  rdu_quatConj(c, a);
  rdu_quatMul(d, c, b);
  return 2.0 * v3_norm(d + 1);
}

// ---------------------------------------------------------------------------------------------
// tangent operator

void rdu_tangentSO3(double T[9], const double psi[3]) {
  double p[3] = {psi[0], psi[1], psi[2]};
  double f1, f2;
  tangent_coef(v3_norm(p), &f1, &f2);
  quadratic_in_skew(T, p, f1, f2);
}

void rdu_tangentInvSO3(double Tinv[9], const double psi[3]) {
  double p[3] = {psi[0], psi[1], psi[2]};
  double c;
  tangent_inv_coef(v3_norm(p), &c, NULL);
  quadratic_in_skew(Tinv, p, 0.5, c);
}

void rdu_dexpSO3(double J[9], const double psi[3]) {
  double p[3] = {-psi[0], -psi[1], -psi[2]};
  // T(psi)^T = T(-psi)
  rdu_tangentSO3(J, p);
}

void rdu_dexpinvSO3(double Jinv[9], const double psi[3]) {
  double p[3] = {-psi[0], -psi[1], -psi[2]};
  rdu_tangentInvSO3(Jinv, p);
}

void rdu_dTangentSO3(double D[9], const double psi[3], const double a[3]) {
  double phi = v3_norm(psi);
  double f1, f2, g1, g2;
  tangent_coef(phi, &f1, &f2);
  tangent_dcoef(phi, &g1, &g2);
  d_quadratic_in_skew(D, psi, a, f1, g1, f2, g2);
}

void rdu_dTangentTransSO3(double D[9], const double psi[3], const double a[3]) {
  double phi = v3_norm(psi);
  double f1, f2, g1, g2;
  tangent_coef(phi, &f1, &f2);
  tangent_dcoef(phi, &g1, &g2);
  // T^T = I - f1 skew(psi) + f2 skew(psi)^2
  d_quadratic_in_skew(D, psi, a, -f1, -g1, f2, g2);
}

void rdu_dTangentInvSO3(double D[9], const double psi[3], const double a[3]) {
  double c, gc;
  tangent_inv_coef(v3_norm(psi), &c, &gc);
  d_quadratic_in_skew(D, psi, a, 0.5, 0.0, c, gc);
}

void rdu_dTangentInvTransSO3(double D[9], const double psi[3], const double a[3]) {
  double c, gc;
  tangent_inv_coef(v3_norm(psi), &c, &gc);
  d_quadratic_in_skew(D, psi, a, -0.5, 0.0, c, gc);
}

// ---------------------------------------------------------------------------------------------
// poses of R^3 x SO(3)

void rdu_poseIdentity(double p[7]) {
  p[0] = 0.0, p[1] = 0.0, p[2] = 0.0;
  p[3] = 1.0, p[4] = 0.0, p[5] = 0.0, p[6] = 0.0;
}

void rdu_poseCompose(double out[7], const double a[7], const double b[7]) {
  double x[3], q[4];
  rdu_quatRotate(x, a + 3, b);
  x[0] += a[0], x[1] += a[1], x[2] += a[2];
  rdu_quatMul(q, a + 3, b + 3);
  out[0] = x[0], out[1] = x[1], out[2] = x[2];
  rdu_quatNormalize(out + 3, q);
}

void rdu_poseInverse(double out[7], const double p[7]) {
  double x[3], q[4];
  rdu_quatConj(q, p + 3);
  rdu_quatRotate(x, q, p);
  out[0] = -x[0], out[1] = -x[1], out[2] = -x[2];
  rdu_quatNormalize(out + 3, q);
}

void rdu_poseTransformPoint(double out[3], const double p[7], const double v[3]) {
  double x[3];
  rdu_quatRotate(x, p + 3, v);
  out[0] = p[0] + x[0], out[1] = p[1] + x[1], out[2] = p[2] + x[2];
}

void rdu_poseExpIncrementRight(double out[7], const double p[7], const double du[6]) {
  double dq[4], q[4];
  rdu_rotvecToQuat(dq, du + 3);
  rdu_quatMul(q, p + 3, dq);
  out[0] = p[0] + du[0], out[1] = p[1] + du[1], out[2] = p[2] + du[2];
  rdu_quatNormalize(out + 3, q);
}

void rdu_poseExpIncrementLeft(double out[7], const double p[7], const double du[6]) {
  double dq[4], q[4];
  rdu_rotvecToQuat(dq, du + 3);
  rdu_quatMul(q, dq, p + 3);
  out[0] = p[0] + du[0], out[1] = p[1] + du[1], out[2] = p[2] + du[2];
  rdu_quatNormalize(out + 3, q);
}

void rdu_poseLogIncrementRight(double du[6], const double p0[7], const double p1[7]) {
  double c[4], q[4];
  rdu_quatConj(c, p0 + 3);
  rdu_quatMul(q, c, p1 + 3);
  double u[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
  du[0] = u[0], du[1] = u[1], du[2] = u[2];
  rdu_quatToRotvec(du + 3, q);
}

void rdu_poseLogIncrementLeft(double du[6], const double p0[7], const double p1[7]) {
  double c[4], q[4];
  rdu_quatConj(c, p0 + 3);
  rdu_quatMul(q, p1 + 3, c);
  double u[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
  du[0] = u[0], du[1] = u[1], du[2] = u[2];
  rdu_quatToRotvec(du + 3, q);
}
