// SPDX-License-Identifier: MIT
// Inline 3-vector and 3x3 (row-major) matrix kernels for the hot paths.
#ifndef RD_VEC3_H
#define RD_VEC3_H

#include <math.h>
#include <string.h>

static inline void v3_copy(double r[3], const double a[3]) {
  r[0] = a[0];
  r[1] = a[1];
  r[2] = a[2];
}

static inline void v3_add(double r[3], const double a[3], const double b[3]) {
  r[0] = a[0] + b[0];
  r[1] = a[1] + b[1];
  r[2] = a[2] + b[2];
}

static inline void v3_sub(double r[3], const double a[3], const double b[3]) {
  r[0] = a[0] - b[0];
  r[1] = a[1] - b[1];
  r[2] = a[2] - b[2];
}

static inline void v3_scale(double r[3], const double a[3], double s) {
  r[0] = s * a[0];
  r[1] = s * a[1];
  r[2] = s * a[2];
}

// r += s a
static inline void v3_axpy(double r[3], double s, const double a[3]) {
  r[0] += s * a[0];
  r[1] += s * a[1];
  r[2] += s * a[2];
}

static inline double v3_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline double v3_norm(const double a[3]) {
  return sqrt(v3_dot(a, a));
}

// r = a x b (r may not alias a or b)
static inline void v3_cross(double r[3], const double a[3], const double b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

// r = M a (r may not alias a)
static inline void m3_mulv(double r[3], const double M[9], const double a[3]) {
  r[0] = M[0] * a[0] + M[1] * a[1] + M[2] * a[2];
  r[1] = M[3] * a[0] + M[4] * a[1] + M[5] * a[2];
  r[2] = M[6] * a[0] + M[7] * a[1] + M[8] * a[2];
}

// r = M^T a (r may not alias a)
static inline void m3_tmulv(double r[3], const double M[9], const double a[3]) {
  r[0] = M[0] * a[0] + M[3] * a[1] + M[6] * a[2];
  r[1] = M[1] * a[0] + M[4] * a[1] + M[7] * a[2];
  r[2] = M[2] * a[0] + M[5] * a[1] + M[8] * a[2];
}

// C = A B (C may not alias A or B)
static inline void m3_mul(double C[9], const double A[9], const double B[9]) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    }
  }
}

// C = A^T B
static inline void m3_tmul(double C[9], const double A[9], const double B[9]) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      C[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
    }
  }
}

// C = A B^T
static inline void m3_mult(double C[9], const double A[9], const double B[9]) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      C[3 * i + j] =
          A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] + A[3 * i + 2] * B[3 * j + 2];
    }
  }
}

// S = skew(v), the cross-product matrix: S a = v x a (v may lie in S)
static inline void m3_skew(double S[9], const double v[3]) {
  double v0 = v[0], v1 = v[1], v2 = v[2];
  S[0] = 0;
  S[1] = -v2;
  S[2] = v1;
  S[3] = v2;
  S[4] = 0;
  S[5] = -v0;
  S[6] = -v1;
  S[7] = v0;
  S[8] = 0;
}

static inline void m3_identity(double M[9]) {
  memset(M, 0, 9 * sizeof(double));
  M[0] = M[4] = M[8] = 1;
}

// inverse of a symmetric positive definite 3x3 matrix via Cholesky; returns 0, or -1 if A is not
// positive definite
static inline int m3_spdInverse(double Ainv[9], const double A[9]) {
  double l00 = A[0];
  if (!(l00 > 0)) {
    return -1;
  }
  l00 = sqrt(l00);
  double l10 = A[3] / l00, l20 = A[6] / l00;
  double d1 = A[4] - l10 * l10;
  if (!(d1 > 0)) {
    return -1;
  }
  double l11 = sqrt(d1);
  double l21 = (A[7] - l20 * l10) / l11;
  double d2 = A[8] - l20 * l20 - l21 * l21;
  if (!(d2 > 0)) {
    return -1;
  }
  double l22 = sqrt(d2);
  // inverse of L (lower triangular)
  double i00 = 1 / l00, i11 = 1 / l11, i22 = 1 / l22;
  double i10 = -l10 * i00 / l11;
  double i21 = -l21 * i11 / l22;
  double i20 = -(l20 * i00 + l21 * i10) / l22;
  // A^-1 = L^-T L^-1
  Ainv[0] = i00 * i00 + i10 * i10 + i20 * i20;
  Ainv[1] = Ainv[3] = i10 * i11 + i20 * i21;
  Ainv[2] = Ainv[6] = i20 * i22;
  Ainv[4] = i11 * i11 + i21 * i21;
  Ainv[5] = Ainv[7] = i21 * i22;
  Ainv[8] = i22 * i22;
  return 0;
}

#endif  // RD_VEC3_H
