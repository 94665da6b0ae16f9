// SPDX-License-Identifier: MIT
// Beam section forces at the quadrature points (src/sim/query_beam.c), for the query
// rd_getBeamSectionForces and the writers of section forces (NetCDF, VTK), which evaluate in
// scratch of their own so that the data is only read.
#ifndef RD_QUERY_BEAM_H
#define RD_QUERY_BEAM_H

#include <stddef.h>

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

#endif  // RD_QUERY_BEAM_H
