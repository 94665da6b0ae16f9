// SPDX-License-Identifier: MIT
// Destroying a compiled model: the parts built by elements/ and solver/ (beam kernels; what the
// method's stepper prepared, through its unprepare hook), then the rest through the model layer
// (rd_modelFree).
#include "elements/beam.h"
#include "solver/stepper.h"
#include "src/model/model_impl.h"

void rd_destroyModel(rdModel** model) {
  if (!model || !rd_modelValid(*model)) {
    return;
  }
  rdModel* m = *model;
  for (int i = 0; m->beam && i < m->nbeam; i++) {
    rd_destroyBeam(&m->beam[i].kernel);
  }
  const rdStepper* stp = rd_stepperFor(m->opt.method);
  if (stp && stp->unprepare) {
    stp->unprepare(m);
  }
  rd_modelFree(m);
  *model = NULL;
}
