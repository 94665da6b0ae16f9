// SPDX-License-Identifier: MIT
// Set-up and the model's exercise shared by the fuzz targets.
#include <stdio.h>

#include "tests/fuzz/fuzz.h"

void fuzz_setup(void) {
  if (!freopen("/dev/null", "r", stdin)) {
    fclose(stdin);
  }
}


void fuzz_exercise(rdContext* ctx, int st, rdSpec* spec, int steps, int query) {
  rdModel* model = NULL;
  rdData* d = NULL;
  if (st == RD_OK) {
    st = rd_compile(spec, &model);
  }
  rd_destroySpec(&spec);
  rdModelInfo info;
  if (st == RD_OK && rd_modelInfo(model, &info) == RD_OK && info.ndof <= FUZZ_MAX_DOF) {
    st = rd_createData(model, &d);
    if (st == RD_OK) {
      st = rd_initialize(model, d);
    }
    for (int k = 0; st == RD_OK && k < steps; k++) {
      st = rd_step(model, d, 0);
    }
    if (st == RD_OK && query) {
      double ke, pe, p[3], L[3];
      rd_getEnergy(model, d, &ke, &pe);
      rd_getMomentum(model, d, p, L);
    }
  }
  // every failure leaves a message
  if (st != RD_OK && !*rd_lastError(ctx)) {
    fprintf(stderr, "status %d without a message\n", st);
    __builtin_trap();
  }
  rd_destroyData(&d);
  rd_destroyModel(&model);
  rd_destroyContext(&ctx);
}
