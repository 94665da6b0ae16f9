// SPDX-License-Identifier: MIT
// Queries of results computed by the implicit steppers (joint reactions).
#ifndef RODRIGUES_QUERY_H
#define RODRIGUES_QUERY_H

#include "rodrigues/export.h"
#include "rodrigues/model.h"
#include "rodrigues/simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

// Reaction of joint `j` on its first node at the current state: the force (global) and the
// moment about the node (global) that the joint's constraint forces apply to node[0]
// (-B^T lambda restricted to that node; a point node gets a zero moment). The applied torque of
// a revolute joint is not included. Valid after rd_initialize with the generalized-alpha
// method (the multipliers of other methods are zero). Either output may be NULL.
// Returns RD_OK, RD_ERR_HANDLE or RD_ERR_ARG.
RD_API int rd_getJointReaction(const rdModel* model, const rdData* data, int j, double force[3],
                               double moment[3]);

// Constraint equations that rd_initialize found redundant and removed
// (solver.redundant_constraints = remove; generalized_alpha and static), as chosen for the
// current step: along the motion of a closed loop the removed equations may change (they are
// chosen again at every step so that the kept ones stay well conditioned). Writes up to `max`
// pairs: the joint index and the equation within the joint (0-based; messages and summary.json
// count equations from 1) into joint[] and equation[] (either may be NULL). Their multipliers
// are zero, so the reactions (rd_getJointReaction) are those of the kept equations: for a
// redundant system the reactions are not unique, and these are one valid distribution.
// Returns the number of removed equations (>= 0), RD_ERR_HANDLE or RD_ERR_ARG.
RD_API int rd_getRedundantConstraints(const rdModel* model, const rdData* data, int* joint,
                                      int* equation, int max);

// Sectional forces of beam element `b` (0 <= b < rdModelInfo.nbeam, in the order added) at its
// quadrature points for the current state: positions x (nq x 3, global) and the resultants
// F (nq x 6: force N then moment M, in the section frame, elastic plus damping). *nq receives
// the number of points; x and F may be NULL to ask for nq only, otherwise they must hold nq
// points. Uses the data's scratch (not its state). Returns RD_OK, RD_ERR_HANDLE, RD_ERR_ARG or
// a numerical status of the kernel.
RD_API int rd_getBeamSectionForces(const rdModel* model, rdData* data, int b, int* nq, double* x,
                                   double* F);

// Section loads of beam element `b` at the fraction s of the element (0 <= s <= 1, 0 at its
// first node) for the current state: F (6: force N then moment M, in the section frame, elastic
// plus damping), interpolated linearly in the element coordinate between the two neighbouring
// quadrature points of rd_getBeamSectionForces (extrapolated beyond the first and the last), so
// exact at a quadrature point (quadrature `stations`: the element ends and the stations) and for
// loads linear along the element. The values history.csv writes for output.section_loads.
// Uses the data's scratch (not its state). Returns RD_OK, RD_ERR_HANDLE, RD_ERR_ARG or a
// numerical status of the kernel.
RD_API int rd_getBeamSectionLoad(const rdModel* model, rdData* data, int b, double s, double F[6]);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_QUERY_H
