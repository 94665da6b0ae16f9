// SPDX-License-Identifier: MIT
// The beam's section kernel (elements/beam_section.c), private to the element (elements/beam.c):
// at one quadrature point, the densities conjugate to the section inputs and their exact
// Jacobian. See elements/beam.c for the kinematics and docs/beam.md.
#ifndef RD_BEAM_SECTION_H
#define RD_BEAM_SECTION_H

#include "elements/beam.h"

// section input columns, ordered so that the elastic quantities (strains, their rates, the
// sectional forces) depend only on the columns [F0, F1) and the inertial ones (velocities,
// accelerations, momenta) only on [I0, I1): the Jacobian products run over those ranges
enum {
  CX1 = 0,
  CP1 = 3,
  CPD1 = 7,
  CXD1 = 11,
  CP = 14,
  CPD = 18,
  CXD = 22,
  CPDD = 25,
  CXDD = 29,
  NS = 32,
  F0 = 0,
  F1 = 22,
  I0 = 14,
  I1 = 32
};
// density rows: a_x, a_x', a_p, a_p'
enum { AX = 0, AX1 = 3, AP = 6, AP1 = 10, NA = 14 };

// the section inputs at a quadrature point: the quaternion field p, its arc-length derivative
// p1, rates pd, pd1, pdd; the reference line's x1 = x', velocities xd, xd1 = xd', acceleration xdd
typedef struct rdSectionIn_ {
  double p[4], p1[4], pd[4], pd1[4], pdd[4];
  double x1[3], xd[3], xdd[3], xd1[3];
} rdSectionIn;

// the section at a quadrature point: stiffness, damping, mass (6x6 row-major) and the reference
// strains
typedef struct rdSectionProp_ {
  const double* K;   // 36
  const double* D;   // 36
  const double* M;   // 36
  const double* G0;  // 3
  const double* k0;  // 3
  const double* et;  // 4: extension-twist term, the section's axis t (3, kernel frame) and cet;
                     // NULL: off
} rdSectionProp;

// densities a (NA) and, if Ja != NULL, d a / d s (NA x NS); F = [N; M] out. interp: the
// moment densities for interpolated virtual rotations, a_p = (R c1, 0), a_p' = (R M, 0).
// ld may be NULL (no distributed loads).
void rd_beamSectionEval(const rdSectionIn* s, const rdSectionProp* sp, const rdBeamLoads* ld,
                        int interp, double* a, double* Ja, double F[6]);

#endif  // RD_BEAM_SECTION_H
