// SPDX-License-Identifier: MIT
// Destroying a compiled model: the parts built by elements/ and solver/ (beam kernels, the
// iteration-matrix pattern), then the rest through the model layer (rd_modelFree).
#include "elements/beam.h"
#include "solver/pattern.h"
#include "src/model/model_impl.h"

void rd_destroyModel(rdModel** model) {
  if (!model || !rd_modelValid(*model)) {
    return;
  }
  rdModel* m = *model;
  for (int i = 0; m->beam && i < m->nbeam; i++) {
    rd_destroyBeam(&m->beam[i].kernel);
  }
  rd_patternDestroy(m);
  rd_modelFree(m);
  *model = NULL;
}
