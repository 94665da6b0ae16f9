// SPDX-License-Identifier: MIT
// Registry of time steppers by method.
#include "stepper.h"

#include "genalpha.h"
#include "rodrigues/model.h"

const rdStepper* rd_stepperFor(int method) {
  switch (method) {
    case RD_METHOD_GENERALIZED_ALPHA: return &rd_stepperGeneralizedAlpha;
    default:
      return NULL;
  }
}
