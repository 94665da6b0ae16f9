// SPDX-License-Identifier: MIT
// Registry of time steppers by method.
#include "stepper.h"

#include "rodrigues/model.h"

const rdStepper* rd_stepperFor(int method) {
  switch (method) {
    default:
      return NULL;
  }
}
