// SPDX-License-Identifier: MIT
// The beam's residual-only section kernel four quadrature points at a time
// (elements/beam_section4.c), private to the element (elements/beam.c): the densities of
// rd_beamSectionEval without their Jacobian, each value an rdV4 whose lanes are four points.
#ifndef RD_BEAM_SECTION4_H
#define RD_BEAM_SECTION4_H

#include "elements/beam.h"

// the nodal values the section inputs interpolate, per node, and their sums at a point
// (sum_k phi_k nv_k and sum_k phi'_k nv_k): q (4), qd (4), qdd (4), x (3), xd (3), xdd (3), 3
// unused
enum { NV_Q = 0, NV_QD = 4, NV_QDD = 8, NV_X = 12, NV_XD = 15, NV_XDD = 18, NV = 24 };

// the sections of four quadrature points, value by value, lane l the point 4 blk + l (a
// padded lane repeats the last point): 6x6 stiffness, damping, mass (row-major), the reference
// strains and the extension-twist term (the section axis t and cet; zero when off)
typedef struct rdSectionProp4_ {
  double K[36][4], D[36][4], M[36][4];
  double G0[3][4], k0[3][4], et[4][4];
} rdSectionProp4;

// the densities a[l] (NA values and 2 unused, elements/beam_section.h) and the sectional forces
// F[l] = [N; M] (and 2 unused) of the four points l from their input sums sv (phi) and sd (phi'),
// NV rows of 4 lanes each, as
// rd_beamSectionEval computes them without c and Ja (the same formulas; the results agree to
// round-off). et: the term is on; ld may be NULL (no distributed loads); follow, if not NULL,
// the follower force and moment per lane (6 rows) in place of ld's; interp as in
// rd_beamSectionEval. A generic and an AVX2 + FMA version (src/math/simd.h).
void rd_beamSectionResidual4(const double (*sv)[4], const double (*sd)[4], const rdSectionProp4* sp,
                             int et, const rdBeamLoads* ld, const double (*follow)[4], int interp,
                             double (*a)[16], double (*F)[8]);

#endif  // RD_BEAM_SECTION4_H
