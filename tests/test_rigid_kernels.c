// SPDX-License-Identifier: MIT
// The rigid steppers' inline kernels (solver/rigid/rigid_kernels.h) against independent values.
//
// The rotation coefficients from Taylor polynomials against libm's sin and cos (to rounding),
// the LIEMID Newton tangent against central differences of the residual, the quaternion
// normalization, the elimination without pivoting against Cramer's rule, and the condition
// under which NMB's principal-axes tangent is used without a singularity test.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/rigid/rigid_kernels.h"
#include "tests/test_macros.h"

// uniform in [0, 1]
static double urand(void) {
  return rand() / (double)RAND_MAX;
}


// error in units of the last place of ref
static double ulps(double x, double ref) {
  return fabs(x - ref) / (nextafter(fabs(ref), INFINITY) - fabs(ref));
}


// c = cos x, s1 = sin(x)/x, s2 = (1 - cos x)/x^2 = 2 sin(x/2)^2 / x^2 from libm in long double,
// for every tier of rg_rotCoef (y = x^2 up to 1e-6, up to 1/16, beyond)
static void test_rotcoef(void) {
  // worst error per coefficient, [0]: the polynomial tiers (y <= 1/16), [1]: libm's tier
  double worst[2][3] = {{0, 0, 0}, {0, 0, 0}};
  int n = 0, half_mismatch = 0;
  for (int i = 1; i <= 200000; i++) {
    // x from 1e-8 to 1, half of the points below x = 1e-3 (y = 1e-6)
    double x =
        i <= 100000 ? 1e-8 * pow(1e5, i / 100000.0) : 1e-3 * pow(1e3, (i - 100000) / 100000.0);
    double y = x * x;
    double c, s1, s2;
    rg_rotCoef(y, &c, &s1, &s2);
    // references in long double (64-bit mantissa), rounded once to double
    long double xl = x, hl = sinl(0.5L * xl) / xl;
    double ref[3] = {(double)cosl(xl), (double)(sinl(xl) / xl), (double)(2 * hl * hl)};
    double got[3] = {c, s1, s2};
    // the scaled coefficients of the LIEMID kernel, from |psi|^2 = 4 y
    double ch, g1, g2;
    rg_rotCoefHalf(4 * y, &ch, &g1, &g2);
    half_mismatch += ch != c || g1 != -0.5 * s1 || g2 != 0.25 * s2;
    int tier = y > 0.0625;
    for (int k = 0; k < 3; k++) {
      double u = ulps(got[k], ref[k]);
      worst[tier][k] = u > worst[tier][k] ? u : worst[tier][k];
    }
    n++;
  }
  printf(
      "# rg_rotCoefHalf = (c, -s1/2, s2/4) of rg_rotCoef bit for bit over the same angles: "
      "%d mismatches\n",
      half_mismatch);
  CHECK(half_mismatch == 0);
  printf(
      "# rg_rotCoef vs libm over %d angles in [1e-8, 1], in ulp: polynomials (x <= 1/4) "
      "cos %.2f, sin(x)/x %.2f, (1 - cos x)/x^2 %.2f; libm tier %.2f %.2f %.2f\n",
      n, worst[0][0], worst[0][1], worst[0][2], worst[1][0], worst[1][1], worst[1][2]);
  // the polynomials are correct to about an ulp; beyond x = 1/4, (1 - cos x)/x^2 =
  // (sin(x)/x)^2/(1 + cos x) collects a few more roundings (as before the polynomials)
  CHECK_MSG(worst[0][0] <= 1.5 && worst[0][1] <= 1.5 && worst[0][2] <= 1.5,
            "polynomial coefficients off by %.2f, %.2f, %.2f ulp", worst[0][0], worst[0][1],
            worst[0][2]);
  CHECK_MSG(worst[1][0] <= 2 && worst[1][1] <= 2 && worst[1][2] <= 8,
            "libm-tier coefficients off by %.2f, %.2f, %.2f ulp", worst[1][0], worst[1][1],
            worst[1][2]);
  // rg_halfAngle: the quaternion of exp(psi) is (cos(|psi|/2), sin(|psi|/2) psi/|psi|)
  double psi[3] = {0.12, -0.31, 0.2}, c;
  double k = rg_halfAngle(psi, &c);
  double phi = sqrt(psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]);
  CHECK_NEAR(c, cos(0.5 * phi), 2e-16);
  CHECK_NEAR(k, sin(0.5 * phi) / phi, 2e-16);
}


// r(psi) = Jh psi - exp(-psi/2) b, evaluated with libm through rdu_expSO3
static void residual(const double Jh[9], const double b[3], const double psi[3], double r[3]) {
  double R[9], half[3] = {-0.5 * psi[0], -0.5 * psi[1], -0.5 * psi[2]}, e[3];
  rdu_expSO3(R, half);
  m3_mulv(e, R, b);
  m3_mulv(r, Jh, psi);
  v3_sub(r, r, e);
}


// the inverse tangent of the LIEMID equation against central differences, for turns from
// 1e-3 to 2 rad (every tier of the coefficients)
static void test_rotvec_tangent(void) {
  srand(7);
  double worst = 0;
  for (int trial = 0; trial < 60; trial++) {
    double J[9] = {2.0, 0.3, -0.1, 0.3, 1.5, 0.2, -0.1, 0.2, 1.0};
    double h = 0.05, Jh[9], b[3], psi[3];
    for (int i = 0; i < 9; i++) {
      Jh[i] = J[i] / h;
    }
    double size = 1e-3 * pow(2000, trial / 59.0);
    for (int i = 0; i < 3; i++) {
      b[i] = 2 * urand() - 1;
      psi[i] = size * (2 * urand() - 1);
    }
    double y = 0.25 * v3_dot(psi, psi), c, s1, s2, p[3], e[3], Ki[9], K[9];
    rg_rotCoef(y, &c, &s1, &s2);
    v3_scale(p, psi, -0.5);
    rg_rotate(e, p, y, s1, s2, b);
    CHECK(rg_rotvecTangent(Ki, Jh, psi, e, s1, s2, y) == 0);
    // K by central differences, column j
    for (int j = 0; j < 3; j++) {
      double pp[3], pm[3], rp[3], rm[3], d = 1e-6;
      v3_copy(pp, psi);
      v3_copy(pm, psi);
      pp[j] += d;
      pm[j] -= d;
      residual(Jh, b, pp, rp);
      residual(Jh, b, pm, rm);
      for (int i = 0; i < 3; i++) {
        K[3 * i + j] = (rp[i] - rm[i]) / (2 * d);
      }
    }
    // Ki K = I
    double P[9];
    m3_mul(P, Ki, K);
    for (int i = 0; i < 9; i++) {
      double err = fabs(P[i] - (i % 4 == 0 ? 1 : 0));
      worst = err > worst ? err : worst;
    }
  }
  printf("# LIEMID inverse tangent times the central-difference tangent: |Ki K - I| <= %.1e\n",
         worst);
  CHECK_MSG(worst < 1e-7, "LIEMID tangent off by %.2e", worst);
}


static void test_quaternions(void) {
  double a[4] = {0.9, 0.1, -0.3, 0.2}, b[4] = {0.2, -0.5, 0.4, 0.7}, out[4];
  double na = sqrt(v3_dot(a + 1, a + 1) + a[0] * a[0]);
  double nb = sqrt(v3_dot(b + 1, b + 1) + b[0] * b[0]);
  for (int i = 0; i < 4; i++) {
    a[i] /= na;
    b[i] /= nb;
  }
  // unit inputs: the product is unit to rounding, and normalized without a square root
  rg_quatMulNormalize(out, a, b);
  double n2 = out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3];
  CHECK_NEAR(n2, 1, 4e-16);
  double ref[4];
  rdu_quatMul(ref, a, b);
  for (int i = 0; i < 4; i++) {
    CHECK_NEAR(out[i], ref[i], 4e-16);
  }
  // a product far from unit length is normalized exactly
  double big[4] = {2 * a[0], 2 * a[1], 2 * a[2], 2 * a[3]};
  rg_quatMulNormalize(out, big, b);
  n2 = out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3];
  CHECK_NEAR(n2, 1, 4e-16);
  // many products of unit quaternions stay unit (no drift of the length)
  double q[4] = {1, 0, 0, 0};
  for (int k = 0; k < 1000000; k++) {
    double psi[3] = {1e-3 * sin(k), 2e-3 * cos(0.3 * k), 1e-3};
    rg_expRight(q, q, psi);
  }
  n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  printf("# |q|^2 - 1 after 10^6 exponential updates: %.1e\n", n2 - 1);
  CHECK_NEAR(n2, 1, 1e-15);
}


// the elimination without pivoting and Cramer's rule agree on dominant matrices, and NMB's
// sufficient condition 8 (h/2) j_max |W| <= j_min does give rows dominant by a factor 2
static void test_solves(void) {
  srand(11);
  double worst = 0;
  int dominant = 1;
  for (int trial = 0; trial < 1000; trial++) {
    double j[3], W[3], JW[3], r[3], x1[3], x2[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
      j[i] = 0.1 + 10 * urand();
      W[i] = 2 * urand() - 1;
      r[i] = 2 * urand() - 1;
    }
    double jmin = fmin(j[0], fmin(j[1], j[2])), jmax = fmax(j[0], fmax(j[1], j[2]));
    // the largest h/2 the condition allows
    double hh = (1 - 1e-12) * jmin / (8 * jmax * v3_norm(W));
    for (int i = 0; i < 3; i++) {
      JW[i] = j[i] * W[i];
    }
    double K[9] = {
        j[0], hh * (JW[2] - W[2] * j[1]), hh * (W[1] * j[2] - JW[1]), hh * (W[2] * j[0] - JW[2]),
        j[1], hh * (JW[0] - W[0] * j[2]), hh * (JW[1] - W[1] * j[0]), hh * (W[0] * j[1] - JW[0]),
        j[2]};
    for (int i = 0; i < 3; i++) {
      double off = 0;
      for (int k = 0; k < 3; k++) {
        off += k == i ? 0 : fabs(K[3 * i + k]);
      }
      dominant &= off <= 0.5 * K[4 * i];
    }
    rg_solve3dd(x1, K, r);
    CHECK(rg_solve3(x2, K, r) == 0);
    double dx[3];
    v3_sub(dx, x1, x2);
    double e = v3_norm(dx) / v3_norm(x2);
    worst = e > worst ? e : worst;
  }
  CHECK_MSG(dominant, "the principal-axes condition gave a tangent that is not dominant");
  CHECK_MSG(worst < 1e-13, "elimination and Cramer's rule differ by %.2e (relative)", worst);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_rotcoef());
  TEST_CASE(test_rotvec_tangent());
  TEST_CASE(test_quaternions());
  TEST_CASE(test_solves());
  return TEST_SUMMARY();
}
