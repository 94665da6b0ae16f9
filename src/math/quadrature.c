// SPDX-License-Identifier: MIT
// Quadrature and interpolation on [-1, 1]: Gauss-Lobatto-Legendre nodes, Gauss-Legendre rules,
// Lagrange polynomials (the beam element's basis, the generated beam nodes of src/model).
#include "src/math/quadrature.h"

#include <math.h>

#include "rodrigues/status.h"

#define RD_PI_ 3.14159265358979323846

// Legendre P_n(x) and P_n'(x) by the three-term recurrence
static void legendre(int n, double x, double* p, double* dp) {
  double p0 = 1, p1 = x;
  if (n == 0) {
    *p = 1;
    *dp = 0;
    return;
  }
  for (int k = 2; k <= n; k++) {
    double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  *p = p1;
  // n P_{n-1} - n x P_n = (1 - x^2) P_n'; at |x| = 1 use P_n'(+-1) = (+-1)^(n-1) n (n+1)/2
  if (fabs(fabs(x) - 1) < 1e-15) {
    *dp = (x > 0 || n % 2 == 1 ? 1.0 : -1.0) * 0.5 * n * (n + 1);
  } else {
    *dp = n * (p0 - x * p1) / (1 - x * x);
  }
}


int rd_gaussLegendre(int n, double* xi, double* w) {
  if (n < 1 || n > 64) {
    return RD_ERR_ARG;
  }
  for (int i = 0; i < (n + 1) / 2; i++) {
    // Newton from the Chebyshev-like guess; roots in descending order, mirrored
    double x = cos(RD_PI_ * (i + 0.75) / (n + 0.5)), p = 0, dp = 1;
    for (int it = 0; it < 100; it++) {
      legendre(n, x, &p, &dp);
      double dx = p / dp;
      x -= dx;
      if (fabs(dx) < 1e-16) {
        break;
      }
    }
    legendre(n, x, &p, &dp);
    double wi = 2 / ((1 - x * x) * dp * dp);
    xi[n - 1 - i] = x;
    xi[i] = -x;
    w[i] = w[n - 1 - i] = wi;
  }
  if (n % 2 == 1) {
    xi[n / 2] = 0;
  }
  return RD_OK;
}


int rd_gaussLobatto(int n, double* xi) {
  if (n < 2 || n > 64) {
    return RD_ERR_ARG;
  }
  int N = n - 1;  // interior points: roots of P_N'
  xi[0] = -1;
  xi[N] = 1;
  for (int i = 1; i <= (N - 1 + 1) / 2; i++) {
    double x = cos(RD_PI_ * i / N);
    for (int it = 0; it < 100; it++) {
      // f = P_N', f' = (2 x P_N' - N (N+1) P_N) / (1 - x^2)
      double p, dp;
      legendre(N, x, &p, &dp);
      double d2p = (2 * x * dp - N * (N + 1) * p) / (1 - x * x);
      double dx = dp / d2p;
      x -= dx;
      if (fabs(dx) < 1e-16) {
        break;
      }
    }
    xi[N - i] = x;
    xi[i] = -x;
  }
  if (n % 2 == 1) {
    xi[N / 2] = 0;
  }
  return RD_OK;
}


void rd_lagrangeBasis(int n, const double* xn, double x, double* phi, double* dphi) {
  for (int k = 0; k < n; k++) {
    double den = 1, num = 1, dnum = 0;
    for (int j = 0; j < n; j++) {
      if (j == k) {
        continue;
      }
      den *= xn[k] - xn[j];
      // product rule on prod_j (x - x_j)
      dnum = dnum * (x - xn[j]) + num;
      num *= x - xn[j];
    }
    phi[k] = num / den;
    dphi[k] = dnum / den;
  }
}
