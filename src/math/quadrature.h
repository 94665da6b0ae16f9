// SPDX-License-Identifier: MIT
// Quadrature and interpolation on [-1, 1] (src/math/quadrature.c): the beam element's basis,
// the nodes of generated beams, BeamDyn's lines. RD_OK or RD_ERR_ARG (bad n).
#ifndef RD_QUADRATURE_H
#define RD_QUADRATURE_H

// n Gauss-Lobatto-Legendre points of [-1, 1], 2 <= n <= 64, ascending (ends included)
int rd_gaussLobatto(int n, double* xi);

// n Gauss-Legendre points and weights of [-1, 1], 1 <= n <= 64, ascending
int rd_gaussLegendre(int n, double* xi, double* w);

// Lagrange basis through the n nodes xn at x: phi[k] and dphi[k] = d phi_k / dx
void rd_lagrangeBasis(int n, const double* xn, double x, double* phi, double* dphi);

#endif  // RD_QUADRATURE_H
