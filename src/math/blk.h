// SPDX-License-Identifier: MIT
// Small dense kernels: row-major matrices with explicit leading dimensions, blocks of them, 3x3
// skew products, the 6x6 rotation of a section matrix.
#ifndef RD_BLK_H
#define RD_BLK_H

#include <stddef.h>

#include "src/math/vec3.h"

// unroll the hot loop that follows (GCC, Clang): -O2 does not unroll, and the loop control
// costs as much as the arithmetic in these short loops (25 % of a step of the NREL deck)
#if defined(__GNUC__)
#define RD_UNROLL _Pragma("GCC unroll 4")
#define RD_PRAGMA(x) _Pragma(#x)
#define RD_UNROLL_N(n) RD_PRAGMA(GCC unroll n)  // the same, n times
#else
#define RD_UNROLL
#define RD_UNROLL_N(n)
#endif

// always inlined, whatever the size of the caller: the small kernels of the beam's section
// kernel and pair sums, whose size would otherwise stop GCC from inlining them (and from
// compiling them into the callers' AVX2 clones, src/math/simd.h)
#if defined(__GNUC__)
#define RD_HOT static inline __attribute__((always_inline))
#else
#define RD_HOT static inline
#endif

// C (m x nc, ldc) += s A (m x k, lda) B (k x nc, ldb); terms with s A_il = 0 are skipped
static inline void blk_mm(double* C, int ldc, const double* A, int lda, const double* B, int ldb,
                          int m, int k, int nc, double s) {
  for (int i = 0; i < m; i++) {
    for (int l = 0; l < k; l++) {
      double a = s * A[i * lda + l];
      if (a == 0) {
        continue;
      }
      const double* b = B + l * ldb;
      double* c = C + i * ldc;
      for (int j = 0; j < nc; j++) {
        c[j] += a * b[j];
      }
    }
  }
}


// C (m x nc, ldc) += s A (m x k, lda) B (k x nc, ldb), every term (blk_mm's order, no test for
// zeros): for small blocks of sizes known where it is inlined, whose loops the compiler unrolls
// completely (the beam's 4x3 rotation maps: the tests and short loops of blk_mm cost ten
// instructions a multiply-add)
static inline void blk_mmFull(double* C, int ldc, const double* A, int lda, const double* B,
                              int ldb, int m, int k, int nc, double s) {
  RD_UNROLL
  for (int i = 0; i < m; i++) {
    RD_UNROLL
    for (int l = 0; l < k; l++) {
      double a = s * A[i * lda + l];
      const double* b = B + l * ldb;
      double* c = C + i * ldc;
      RD_UNROLL
      for (int j = 0; j < nc; j++) {
        c[j] += a * b[j];
      }
    }
  }
}


// C (m x nc, ldc) += s A^T B, A is k x m (lda), B is k x nc (ldb); terms with s A_li = 0 are
// skipped
static inline void blk_mtm(double* C, int ldc, const double* A, int lda, const double* B, int ldb,
                           int m, int k, int nc, double s) {
  for (int l = 0; l < k; l++) {
    const double* b = B + l * ldb;
    for (int i = 0; i < m; i++) {
      double a = s * A[l * lda + i];
      if (a == 0) {
        continue;
      }
      double* c = C + i * ldc;
      for (int j = 0; j < nc; j++) {
        c[j] += a * b[j];
      }
    }
  }
}


// J[r0.., c0..] += s A (an m x k block into a row-major matrix of leading dimension ld)
static inline void blk_put(double* J, int ld, int r0, int c0, const double* A, int m, int k,
                           double s) {
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < k; j++) {
      J[(r0 + i) * ld + c0 + j] += s * A[i * k + j];
    }
  }
}


// A[row.., col..] += s B (3x3 block into an n-column row-major matrix)
static inline void blk_add(double* A, int n, int row, int col, const double B[9], double s) {
  blk_put(A, n, row, col, B, 3, 3, s);
}


// columns c0 .. c0+2 of the N x N row-major A times B (3x3): A[:, c0..] = A[:, c0..] B
static inline void blk_colsMul(double* A, int N, int c0, const double B[9]) {
  for (int i = 0; i < N; i++) {
    double* a = A + (size_t)i * (size_t)N + c0;
    double t0 = a[0], t1 = a[1], t2 = a[2];
    a[0] = t0 * B[0] + t1 * B[3] + t2 * B[6];
    a[1] = t0 * B[1] + t1 * B[4] + t2 * B[7];
    a[2] = t0 * B[2] + t1 * B[5] + t2 * B[8];
  }
}


// rows r0 .. r0+2 of the N x N row-major A times R^T from the left: A[r0.., :] = R^T A[r0.., :]
static inline void blk_rowsTmul(double* A, int N, int r0, const double R[9]) {
  double* a0 = A + (size_t)r0 * (size_t)N;
  double* a1 = a0 + N;
  double* a2 = a1 + N;
  for (int j = 0; j < N; j++) {
    double t0 = a0[j], t1 = a1[j], t2 = a2[j];
    a0[j] = R[0] * t0 + R[3] * t1 + R[6] * t2;
    a1[j] = R[1] * t0 + R[4] * t1 + R[7] * t2;
    a2[j] = R[2] * t0 + R[5] * t1 + R[8] * t2;
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


// A <- Q A Q^T with Q = diag(R, R) (6x6 row-major)
static inline void blk_rotate6(double A[36], const double R[9]) {
  double T[36];
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      double acc = 0;
      for (int k = 0; k < 3; k++) {
        acc += R[3 * (i % 3) + k] * A[6 * (3 * (i / 3) + k) + j];
      }
      T[6 * i + j] = acc;
    }
  }
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      double acc = 0;
      for (int k = 0; k < 3; k++) {
        acc += T[6 * i + 3 * (j / 3) + k] * R[3 * (j % 3) + k];
      }
      A[6 * i + j] = acc;
    }
  }
}

#endif  // RD_BLK_H
