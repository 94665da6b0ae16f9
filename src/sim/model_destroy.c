// SPDX-License-Identifier: MIT
// Destroying a compiled model: the parts built by elements/ and solver/ (beam kernels; what the
// method's stepper prepared, through its unprepare hook), then the rest through the model layer
// (rd_modelFree).
#include "elements/beam.h"
#include "solver/stepper.h"
#include "src/core/core.h"
#include "src/model/model_impl.h"

void rd_destroyModel(rdModel** model) {
  if (!model || !rd_modelValid(*model)) {
    return;
  }
  rdModel* m = *model;
  // its data and writers point into it: refuse while any is alive
  int live = atomic_load(&m->children);
  if (live > 0) {
    RD_ERROR(m->ctx, RD_ERR_STATE,
             "rd_destroyModel: %d data object%s or writer%s made from this model %s not "
             "destroyed; destroy them first (the model is kept)",
             live, live > 1 ? "s" : "", live > 1 ? "s" : "", live > 1 ? "are" : "is");
    return;
  }
  for (int i = 0; m->beam && i < m->nbeam; i++) {
    rd_destroyBeam(&m->beam[i].kernel);
  }
  const rdStepper* stp = rd_modelStepper(m);
  if (stp && stp->unprepare) {
    stp->unprepare(m);
  }
  rd_modelFree(m);
  *model = NULL;
}
