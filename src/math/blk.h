// SPDX-License-Identifier: MIT
// Small dense block helpers for element and joint matrices (row-major n x n, 3x3 blocks).
#ifndef RD_BLK_H
#define RD_BLK_H

#include "src/math/vec3.h"

// A[row.., col..] += s B (3x3 block into an n-column row-major matrix)
static inline void blk_add(double* A, int n, int row, int col, const double B[9], double s) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      A[(row + i) * n + col + j] += s * B[3 * i + j];
    }
  }
}

// C = A skew(v)
static inline void blk_mulSkew(double C[9], const double A[9], const double v[3]) {
  double S[9];
  m3_skew(S, v);
  m3_mul(C, A, S);
}

// C = skew(u) skew(v)
static inline void blk_skewSkew(double C[9], const double u[3], const double v[3]) {
  double S[9], T[9];
  m3_skew(S, u);
  m3_skew(T, v);
  m3_mul(C, S, T);
}

#endif  // RD_BLK_H
