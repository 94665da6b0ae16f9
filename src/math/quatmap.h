// SPDX-License-Identifier: MIT
// Quaternion maps (w first) as matrices: L(d) b = vec(conj(d) (x) b), Q(q) y = q (x) y,
// (0, a) (x) (0, b) = Y(b) a. The beam's section kernel writes the angular map of its quaternion
// field, Lam(p) = 2 L(p) / |p|^2, and its derivatives on rows of four columns
// (elements/beam_section.c).
#ifndef RD_QUATMAP_H
#define RD_QUATMAP_H

#include "src/math/blk.h"
#include "src/math/quat.h"

// L(d) (3x4): L(d) b = vec(conj(d) (x) b)
static inline void qm_L(double L[12], const double d[4]) {
  double S[9];
  m3_skew(S, d + 1);
  for (int i = 0; i < 3; i++) {
    L[4 * i] = -d[1 + i];
    for (int j = 0; j < 3; j++) {
      L[4 * i + 1 + j] = (i == j ? d[0] : 0) - S[3 * i + j];
    }
  }
}


// left product matrix: q (x) y = Q(q) y
static inline void qm_Q(double Q[16], const double q[4]) {
  double S[9];
  m3_skew(S, q + 1);
  Q[0] = q[0];
  for (int i = 0; i < 3; i++) {
    Q[1 + i] = -q[1 + i];
    Q[4 * (1 + i)] = q[1 + i];
    for (int j = 0; j < 3; j++) {
      Q[4 * (1 + i) + 1 + j] = (i == j ? q[0] : 0) + S[3 * i + j];
    }
  }
}


// (0, a) (x) (0, b) = Y(b) a: Y(b) = [-b^T; -skew(b)] (4x3)
static inline void qm_Y(double Y[12], const double b[3]) {
  double S[9];
  m3_skew(S, b);
  for (int j = 0; j < 3; j++) {
    Y[j] = -b[j];
    for (int i = 0; i < 3; i++) {
      Y[3 * (1 + i) + j] = -S[3 * i + j];
    }
  }
}


#endif  // RD_QUATMAP_H
