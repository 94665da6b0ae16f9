// SPDX-License-Identifier: MIT
// Beam sections: 6x6 stiffness and mass at stations along the span, checks and interpolation.
#include <math.h>

#include "elements/beam.h"

// largest |A_ij| of a 6x6 matrix
static double maxabs6(const double* A) {
  double s = 0;
  for (int i = 0; i < 36; i++) {
    s = fmax(s, fabs(A[i]));
  }
  return s;
}


// 1 if the symmetric part of the 6x6 A is positive definite (Cholesky, every pivot above
// floor), 0 otherwise
static int spd6(const double* A, double floor) {
  double L[36] = {0};
  for (int j = 0; j < 6; j++) {
    double d = A[6 * j + j];
    for (int k = 0; k < j; k++) {
      d -= L[6 * j + k] * L[6 * j + k];
    }
    if (!(d > floor)) {
      return 0;
    }
    L[6 * j + j] = sqrt(d);
    for (int i = j + 1; i < 6; i++) {
      double s = 0.5 * (A[6 * i + j] + A[6 * j + i]);
      for (int k = 0; k < j; k++) {
        s -= L[6 * i + k] * L[6 * j + k];
      }
      L[6 * i + j] = s / L[6 * j + j];
    }
  }
  return 1;
}


// largest |A_ij - A_ji| relative to the largest |A_ij|
static double asym6(const double* A) {
  double a = 0, s = maxabs6(A);
  for (int i = 0; i < 6; i++) {
    for (int j = i + 1; j < 6; j++) {
      a = fmax(a, fabs(A[6 * i + j] - A[6 * j + i]));
    }
  }
  return s > 0 ? a / s : 0;
}


// NULL if the 6x6 matrix is symmetric (relative 1e-6, as the beam kernel) and positive definite
// (every Cholesky pivot above 1e-14 of the largest entry)
const char* rd_beamMatrixDefect(const double A[36]) {
  if (asym6(A) > 1e-6) {
    return "is not symmetric";
  }
  if (!spd6(A, 1e-14 * maxabs6(A))) {
    return "is not positive definite";
  }
  return NULL;
}


int rd_beamSectionCheck(rdContext* ctx, const rdBeamSection* s) {
  if (!s || s->nsta < 1 || !s->eta || !s->K || !s->M) {
    return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: no stations");
  }
  if (s->nsta > 1 && (s->eta[0] != 0 || s->eta[s->nsta - 1] != 1)) {
    return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: stations must run from 0 to 1 (got %g .. %g)",
                    s->eta[0], s->eta[s->nsta - 1]);
  }
  for (int i = 0; i < s->nsta; i++) {
    if (i > 0 && !(s->eta[i] > s->eta[i - 1])) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: station %d: eta %g not above %g", i,
                      s->eta[i], s->eta[i - 1]);
    }
    const double* K = s->K + 36 * i;
    const double* M = s->M + 36 * i;
    for (int k = 0; k < 36; k++) {
      if (!isfinite(K[k]) || !isfinite(M[k])) {
        return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: station %d: non-finite entry", i);
      }
    }
    if (asym6(K) > 1e-6 || asym6(M) > 1e-6) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: station %d (eta %g): %s matrix not symmetric",
                      i, s->eta[i], asym6(K) > 1e-6 ? "stiffness" : "mass");
    }
    if (!spd6(K, 0)) {
      return RD_ERROR(ctx, RD_ERR_MODEL,
                      "beam section: station %d (eta %g): stiffness not positive definite", i,
                      s->eta[i]);
    }
    if (!spd6(M, 0)) {
      return RD_ERROR(ctx, RD_ERR_MODEL,
                      "beam section: station %d (eta %g): mass not positive definite", i, s->eta[i]);
    }
  }
  for (int k = 0; k < 6; k++) {
    if (!(s->mu[k] >= 0)) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: damping mu[%d] = %g is negative", k,
                      s->mu[k]);
    }
  }
  return RD_OK;
}


void rd_beamSectionAt(const rdBeamSection* s, double eta, double K[36], double M[36]) {
  int i = 0;
  double t = 0;
  if (s->nsta > 1) {
    eta = fmin(1, fmax(0, eta));
    while (i < s->nsta - 2 && eta > s->eta[i + 1]) {
      i++;
    }
    t = (eta - s->eta[i]) / (s->eta[i + 1] - s->eta[i]);
  }
  const double* K0 = s->K + 36 * i;
  const double* M0 = s->M + 36 * i;
  const double* K1 = s->nsta > 1 ? K0 + 36 : K0;
  const double* M1 = s->nsta > 1 ? M0 + 36 : M0;
  for (int a = 0; a < 6; a++) {
    for (int b = 0; b < 6; b++) {
      int ab = 6 * a + b, ba = 6 * b + a;
      K[ab] = 0.5 * ((1 - t) * (K0[ab] + K0[ba]) + t * (K1[ab] + K1[ba]));
      M[ab] = 0.5 * ((1 - t) * (M0[ab] + M0[ba]) + t * (M1[ab] + M1[ba]));
    }
  }
}
