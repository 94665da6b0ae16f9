// SPDX-License-Identifier: MIT
// Quadrature and interpolation on [-1, 1] (src/math/quadrature.c). The names keep the beam
// prefix of their first user, the beam element's basis; RD_OK or RD_ERR_ARG (bad n).
#ifndef RD_QUADRATURE_H
#define RD_QUADRATURE_H

// n Gauss-Lobatto-Legendre points of [-1, 1], 2 <= n <= 64, ascending (ends included)
int rd_beamGLL(int n, double* xi);

// n Gauss-Legendre points and weights of [-1, 1], 1 <= n <= 64, ascending
int rd_beamGauss(int n, double* xi, double* w);

// Lagrange basis through the n nodes xn at x: phi[k] and dphi[k] = d phi_k / dx
void rd_beamLagrange(int n, const double* xn, double x, double* phi, double* dphi);

#endif  // RD_QUADRATURE_H
