// SPDX-License-Identifier: MIT
// Static / quasi-static analysis: Newton on the equilibrium equations with load stepping.
#ifndef RD_STATIC_H
#define RD_STATIC_H

#include "solver/stepper.h"

// the stepper's ops table (method RD_METHOD_STATIC)
extern const rdStepper rd_stepperStatic;

#endif  // RD_STATIC_H
