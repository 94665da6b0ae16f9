// SPDX-License-Identifier: MIT
// Mixed stepping (docs/mixed.md): generalized-alpha for the flexible part of a model, Krysl's
// explicit rigid-body methods with sub-steps for its rigid subsystems.
#ifndef RD_MIXED_H
#define RD_MIXED_H

#include "solver/stepper.h"

// the stepper of a model with rigid subsystems (rd_modelStepper)
extern const rdStepper rd_stepperMixed;

#endif  // RD_MIXED_H
