// SPDX-License-Identifier: MIT
// The node-pair accumulation of the beam element's iteration matrix: the quadrature sum of the
// section Jacobians weighted with the basis of the two nodes, as matrix products. For each node
// i the rows are first combined over the points (A_i = phi_i Ja_a + phi_i' Ja_a', one pass over
// the points), then every pair (i, j) is a product of the n x nq basis with A_i, accumulated in
// registers over the points four columns at a time (rdV4: seven accumulators per row).
#include "elements/beam_pairs.h"

#include "elements/beam_section.h"
#include "src/math/blk.h"
#include "src/math/simd.h"

// the sums over np points of the rows a (stride JCOLS, rows `row_stride` apart from point to
// point): s[0 .. 3] = sum_g wp_g a[0 .. 15], s[4 .. 6] = sum_g wd_g a[16 .. 27], the weights
// w[g ws] of the two arrays
RD_HOT void row_sums(rdV4 s[7], const double* a, size_t row_stride, int np, const double* wp,
                     const double* wd, int ws) {
  rdV4 s0 = V4ZERO, s1 = V4ZERO, s2 = V4ZERO, s3 = V4ZERO;
  rdV4 t0 = V4ZERO, t1 = V4ZERO, t2 = V4ZERO;
  for (int g = 0; g < np; g++, a += row_stride) {
    rdV4 p = V4B(wp[g * ws]), d = V4B(wd[g * ws]);
    s0 += p * V4LD(a);
    s1 += p * V4LD(a + 4);
    s2 += p * V4LD(a + 8);
    s3 += p * V4LD(a + 12);
    t0 += d * V4LD(a + 16);
    t1 += d * V4LD(a + 20);
    t2 += d * V4LD(a + 24);
  }
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
  s[4] = t0;
  s[5] = t1;
  s[6] = t2;
}


// row_sums of two consecutive rows (a and a + JCOLS) at once: s[0 .. 6] the first's, s[7 .. 13]
// the second's
RD_HOT void row_sums2(rdV4 s[14], const double* a, size_t row_stride, int np, const double* wp,
                      const double* wd, int ws) {
  rdV4 s0 = V4ZERO, s1 = V4ZERO, s2 = V4ZERO, s3 = V4ZERO;
  rdV4 t0 = V4ZERO, t1 = V4ZERO, t2 = V4ZERO;
  rdV4 u0 = V4ZERO, u1 = V4ZERO, u2 = V4ZERO, u3 = V4ZERO;
  rdV4 w0 = V4ZERO, w1 = V4ZERO, w2 = V4ZERO;
  for (int g = 0; g < np; g++, a += row_stride) {
    rdV4 p = V4B(wp[g * ws]), d = V4B(wd[g * ws]);
    const double* b = a + JCOLS;
    s0 += p * V4LD(a);
    s1 += p * V4LD(a + 4);
    s2 += p * V4LD(a + 8);
    s3 += p * V4LD(a + 12);
    t0 += d * V4LD(a + 16);
    t1 += d * V4LD(a + 20);
    t2 += d * V4LD(a + 24);
    u0 += p * V4LD(b);
    u1 += p * V4LD(b + 4);
    u2 += p * V4LD(b + 8);
    u3 += p * V4LD(b + 12);
    w0 += d * V4LD(b + 16);
    w1 += d * V4LD(b + 20);
    w2 += d * V4LD(b + 24);
  }
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
  s[4] = t0;
  s[5] = t1;
  s[6] = t2;
  s[7] = u0;
  s[8] = u1;
  s[9] = u2;
  s[10] = u3;
  s[11] = w0;
  s[12] = w1;
  s[13] = w2;
}


RD_CLONES void rd_beamPairs(int n, int nq, int nrow, const double* phi, const double* dphi,
                            const double* Ja, double* ab, double* acc) {
  enum { NB = JCOLS / 4 };
  for (int i = 0; i < n; i++) {
    // A_i, B_i at every point: the rows of node i
    for (int g = 0; g < nq; g++) {
      rdV4 ci = V4B(phi[g * n + i]), di = V4B(dphi[g * n + i]);
      const double* J = Ja + (size_t)g * JROWS * JCOLS;
      double* o = ab + (size_t)g * PAIR_ROWS * JCOLS;
      for (int r = 0; r < nrow; r++) {
        const double* ja = J + r * JCOLS;
        const double* ja1 = J + (JX1 + r) * JCOLS;
        RD_UNROLL_N(7)
        for (int k = 0; k < NB; k++) {
          V4ST(o + r * JCOLS + 4 * k, ci * V4LD(ja + 4 * k) + di * V4LD(ja1 + 4 * k));
        }
      }
    }
    // the pairs (i, j): sum over the points, two rows at a time (sharing the weights'
    // broadcasts: fourteen accumulators), then row by row
    for (int j = 0; j < n; j++) {
      double* out = acc + ((size_t)i * (size_t)n + (size_t)j) * PAIR_SIZE;
      int r = 0;
      for (; r + 2 <= nrow; r += 2) {
        rdV4 t[14];
        row_sums2(t, ab + r * JCOLS, PAIR_ROWS * JCOLS, nq, phi + j, dphi + j, n);
        for (int h = 0; h < 2; h++) {
          const rdV4* th = t + 7 * h;
          double* o = out + (r + h) * PAIR_COLS;
          V4ST(o, th[0] + th[4]);
          V4ST(o + 4, th[1] + th[5]);
          V4ST(o + 8, th[2] + th[6]);
          V4ST(o + 12, th[3]);
        }
      }
      for (; r < nrow; r++) {
        rdV4 t[7];
        row_sums(t, ab + r * JCOLS, PAIR_ROWS * JCOLS, nq, phi + j, dphi + j, n);
        double* o = out + r * PAIR_COLS;
        V4ST(o, t[0] + t[4]);
        V4ST(o + 4, t[1] + t[5]);
        V4ST(o + 8, t[2] + t[6]);
        V4ST(o + 12, t[3]);
      }
    }
  }
}


// p[0 .. 5] = (a0, a1, a2, b0, b1, b2): two overlapping stores, the second a lane shuffle
typedef long long rdV4i __attribute__((vector_size(32)));
#if defined(__clang__)
#define V4SHUF(a, b) __builtin_shufflevector((a), (b), 2, 4, 5, 6)
#else
#define V4SHUF(a, b) __builtin_shuffle((a), (b), (rdV4i){2, 4, 5, 6})
#endif
#define STORE_ROW(p, a, b)       \
  do {                           \
    V4ST((p), (a));              \
    V4ST((p) + 2, V4SHUF(a, b)); \
  } while (0)


RD_CLONES void rd_beamPairsFinish(int n, int nrow, const double* acc, const double* W,
                                  const double* Er, int er_stride, double* S) {
  size_t nd = 6 * (size_t)n;
  for (int j = 0; j < n; j++) {
    // the maps of node j as rows of 3 columns and a zero: block m, row l at 4 m + l
    rdV4 Wv[12];
    const double* Wj = W + 36 * j;
    // GCC 12 at -O3 takes the vector constructor for a read of Wv[k] (-Wmaybe-uninitialized);
    // zeroing Wv first silences it at 0.2 % of a B3 step, so the warning is turned off here only
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    for (int k = 0; k < 12; k++) {
      Wv[k] = (rdV4){Wj[3 * k], Wj[3 * k + 1], Wj[3 * k + 2], 0};
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
    for (int i = 0; i < n; i++) {
      const double* a = acc + ((size_t)i * (size_t)n + (size_t)j) * PAIR_SIZE;
      const double* E = Er + (size_t)i * (size_t)er_stride;
      // translation columns as they are, rotation columns through the maps (the rows past
      // nrow are zero and unused)
      rdV4 tr[PAIR_ROWS], rot[PAIR_ROWS];
      for (int r = 0; r < nrow; r++) {
        const double* ar = a + r * PAIR_COLS;
        tr[r] = V4LD(ar);
        rdV4 y = V4ZERO;
        RD_UNROLL_N(12)
        for (int k = 0; k < 12; k++) {
          y += ar[4 + k] * Wv[k];
        }
        rot[r] = y;
      }
      // force rows as they are, moment rows Er_i^T (rows 3 .. 6)
      double* blk = S + 6 * (size_t)i * nd + 6 * (size_t)j;
      for (int r = 0; r < 3; r++) {
        STORE_ROW(blk + (size_t)r * nd, tr[r], rot[r]);
      }
      for (int r = 0; r < 3; r++) {
        rdV4 x = E[r] * tr[3] + E[3 + r] * tr[4] + E[6 + r] * tr[5];
        rdV4 y = E[r] * rot[3] + E[3 + r] * rot[4] + E[6 + r] * rot[5];
        if (nrow == PAIR_ROWS) {
          x += E[9 + r] * tr[6];
          y += E[9 + r] * rot[6];
        }
        STORE_ROW(blk + (size_t)(3 + r) * nd, x, y);
      }
    }
  }
}


RD_CLONES void rd_beamPairsCompress(int nq, int nv, int nrow, const double* cL, const double* Ja,
                                    double* Y) {
  for (int m = 0; m < nv; m++) {
    const double* cm = cL + (size_t)m * (size_t)nq * 3;
    double* ym = Y + (size_t)m * JROWS * JCOLS;
    for (int r = 0; r < JROWS; r++) {
      if (r % PAIR_ROWS >= nrow) {
        for (int k = 0; k < JCOLS; k++) {
          ym[r * JCOLS + k] = 0;
        }
        continue;
      }
      // the row's phi_j columns take L_m / J^t, its phi_j' columns L_m / J^(t+1), t = 0 for
      // the rows a, 1 for the rows a'
      int t = r / PAIR_ROWS;
      rdV4 y[7];
      row_sums(y, Ja + r * JCOLS, JROWS * JCOLS, nq, cm + t, cm + t + 1, 3);
      for (int k = 0; k < 7; k++) {
        V4ST(ym + r * JCOLS + 4 * k, y[k]);
      }
    }
  }
}
