// SPDX-License-Identifier: MIT
// Beam section forces at the quadrature points (src/sim/query_beam.c), for the query
// rd_getBeamSectionForces and the writers of section forces (NetCDF, VTK), which evaluate in
// scratch of their own so that the data is only read.
#ifndef RD_QUERY_BEAM_H
#define RD_QUERY_BEAM_H

#include <stddef.h>

#include "elements/beam.h"
#include "src/model/data_impl.h"

// doubles of scratch rd_beamSectionForcesIn needs for any of the first nbeam beams of m: the
// element residual (6 n) followed by the kernel workspace; the most quadrature points of one of
// them in *maxq (may be NULL), all of them in *nq (may be NULL)
size_t rd_beamSectionWork(const rdModel* m, int nbeam, int* maxq, int* nq);

// section forces of beam b at its quadrature points, evaluated in r (6 n doubles) and work (the
// kernel workspace): positions x (nq x 3, global) and forces F (nq x 6, N then M in the section
// frame), either may be NULL. Returns RD_OK or the kernel's status (raised by the kernel, if at
// all; the callers report it their way).
int rd_beamSectionForcesIn(const rdModel* m, const rdData* d, int b, double* r, double* work,
                           double* x, double* F);

// the two quadrature points of beam kernel b between which element coordinate xi in [-1, 1]
// lies: values there are (1 - t) value[g] + t value[g + 1], linear in xi, extrapolated beyond
// the first and the last point (one point: g = 0, t = 0)
void rd_beamQuadInterp(const rdBeam* b, double xi, int* g, double* t);

// section loads F (6: N then M, section frame) of beam b at the fraction s in [0, 1] of the
// element, interpolated (rd_beamQuadInterp) between the quadrature points, in scratch r and
// work as rd_beamSectionForcesIn. Returns RD_OK or the kernel's status.
int rd_beamSectionLoadIn(const rdModel* m, const rdData* d, int b, double s, double* r,
                         double* work, double F[6]);

#endif  // RD_QUERY_BEAM_H
