// SPDX-License-Identifier: MIT
// Importers of other codes' input files: OpenFAST BeamDyn (driver + primary + blade files).
// See docs/import.md for what is read, the frame conversions and what is not supported.
#ifndef RODRIGUES_IMPORT_H
#define RODRIGUES_IMPORT_H

#include <stdio.h>

#include "rodrigues/export.h"
#include "rodrigues/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

// Read a BeamDyn (v5) driver file, the primary input file it names (relative to the driver's
// directory) and the blade file the primary names (relative to the primary's directory) into a
// new spec: one Legendre spectral beam element of order `order_elem` on rigid nodes named
// "blade_0" ... "blade_N" at the GLL points of BeamDyn's least-squares fit of the key points,
// with BeamDyn's section frames (rotation_field RD_BEAM_ROTATION_DISPLACEMENT), weak form
// (virtual_rotation RD_BEAM_VIRTUAL_ROTATION_INTERPOLATED) and extension-twist term
// (extension_twist 1), its stations rotated from BeamDyn's section
// frame (beam axis z) to ours (beam axis x): C' = Q C Q^T, Q = diag(P, P),
// P = [[0,0,1],[1,0,0],[0,1,0]]; damping mu permuted likewise; the root clamped ("root", type
// fixed) or, with a root angular velocity, driven by a prescribed rotation about the origin;
// gravity, time step, rho_inf, start and final time; outputs at the root and tip nodes.
// The global frame is the driver's: blade axes = GlbDCM^T, root at GlbPos.
// Errors: RD_ERR_IO (a file cannot be read) or RD_ERR_DECK with the last error
// "FILE:LINE: message" for malformed or unsupported input; *spec is NULL then.
RD_API int rd_importBeamDyn(rdContext* ctx, const char* driver, rdSpec** spec);

// Same reading as rd_importBeamDyn, but write the equivalent YAML deck (docs/deck.md) to `out`
// instead: rd_readDeck on it gives the same model (numbers are written to round-trip exactly).
// Returns RD_OK, RD_ERR_ARG, RD_ERR_IO (also a write error on `out`) or RD_ERR_DECK.
RD_API int rd_importBeamDynDeck(rdContext* ctx, const char* driver, FILE* out);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_IMPORT_H
