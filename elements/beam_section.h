// SPDX-License-Identifier: MIT
// The beam's section kernel (elements/beam_section.c), private to the element (elements/beam.c):
// at one quadrature point, the densities conjugate to the section inputs and their exact
// Jacobian. See elements/beam.c for the kinematics and docs/beam.md.
#ifndef RD_BEAM_SECTION_H
#define RD_BEAM_SECTION_H

#include "elements/beam.h"

// density rows a_x, a_x', a_p, a_p' (the residual's densities, rd_beamSectionEval's a)
enum { AX = 0, AX1 = 3, AP = 6, AP1 = 10, NA = 14 };

// The Jacobian of the densities, JROWS x JCOLS row-major, folded for the iteration matrix
// S = cM d/dvd + cC d/dv + cK d/dq of the element:
// rows: a_x (3) and a_p (4), which the residual of node i weights with phi_i, then a_x' and a_p'
// (weighted with phi_i'); with interpolated virtual rotations the 4th row of a_p and a_p' is 0.
// columns: the derivatives that node j's state reaches weighted with phi_j (16), then those
// weighted with phi_j' (12), in blocks of 4:
//   JT   cM d/dxdd + cC d/dxd (3 and a zero)     JT1   cK d/dx' + cC d/dxd' (3 and a zero)
//   JG1  d/dp                                     JG11  d/dp'
//   JG2  d/dpd                                    JG21  d/dpd'
//   JG3  d/dpdd
// (the quaternion blocks take the nodal maps of node j afterwards, elements/beam.c). The rows
// a_x have no phi_j' columns; a_x' and a_p' reach only JG1, JG2 among the phi_j columns.
enum { JX = 0, JP = 3, JX1 = 7, JP1 = 10, JROWS = 14 };
enum { JT = 0, JG1 = 4, JG2 = 8, JG3 = 12, JPHI = 16, JT1 = 16, JG11 = 20, JG21 = 24, JCOLS = 28 };

// the coefficients of the iteration matrix, S = cM M + cC C + cK K
typedef struct rdSectionCoef_ {
  double cM, cC, cK;
} rdSectionCoef;

// the section inputs at a quadrature point: the quaternion field p, its arc-length derivative
// p1, rates pd, pd1, pdd; the reference line's x1 = x', velocities xd, xd1 = xd', acceleration xdd
typedef struct rdSectionIn_ {
  double p[4], p1[4], pd[4], pd1[4], pdd[4];
  double x1[3], xd[3], xdd[3], xd1[3];
} rdSectionIn;

// the section at a quadrature point: stiffness, damping, mass (6x6 row-major), the transposes of
// the first two (the sectional forces take their columns) and the reference strains
typedef struct rdSectionProp_ {
  const double* K;   // 36
  const double* D;   // 36
  const double* M;   // 36
  const double* Kt;  // 36, K^T
  const double* Dt;  // 36, D^T
  const double* G0;  // 3
  const double* k0;  // 3
  const double* et;  // 4: extension-twist term, the section's axis t (3, kernel frame) and cet;
                     // NULL: off
} rdSectionProp;

// densities a (NA) and, if c and Ja are not NULL, their Jacobian times jw (the quadrature
// weight) into Ja (JROWS x JCOLS, folded with c as above); F = [N; M] out. interp: the moment
// densities for interpolated virtual rotations, a_p = (R c1, 0), a_p' = (R M, 0). ld may be
// NULL (no distributed loads). A generic and an AVX2 + FMA version (src/math/simd.h).
void rd_beamSectionEval(const rdSectionIn* s, const rdSectionProp* sp, const rdBeamLoads* ld,
                        int interp, const rdSectionCoef* c, double jw, double* a, double* Ja,
                        double F[6]);

#endif  // RD_BEAM_SECTION_H
