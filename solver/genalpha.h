// SPDX-License-Identifier: MIT
// Lie-group generalized-alpha stepper on R^3 x SO(3) (Bruls, Cardona & Arnold 2012), body form.
#ifndef RD_GENALPHA_H
#define RD_GENALPHA_H

#include "solver/stepper.h"

// the stepper's ops table (method RD_METHOD_GENERALIZED_ALPHA)
extern const rdStepper rd_stepperGeneralizedAlpha;

// stabilized formulation, for tests: the correction matrix Bc Bh^T (Bc, Bh: per joint B T as
// returned by rd_assembleEx) as a dense nconstraint x nconstraint row-major E, through the
// sparse pattern of d; RD_ERR_STATE if d was not created for solver.formulation = stabilized
int rd_gaCorrectionMatrix(const rdModel* m, rdData* d, const double* Bc, const double* Bh,
                          double* E);

#endif  // RD_GENALPHA_H
