// SPDX-License-Identifier: MIT
// Fuzz target: a deck (the input's bytes) read from memory, compiled, its data created and
// initialized, then a few steps. Every failure must be a status with a message; nothing may
// crash, hang, leak or read out of bounds.
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  fuzz_setup();
  return 0;
}


int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rdContext* ctx = NULL;
  if (rd_createContext(&ctx, NULL) != RD_OK) {
    return 0;
  }
  rdSpec* spec = NULL;
  rdModel* model = NULL;
  rdData* d = NULL;
  int st = rd_readDeckText(ctx, "fuzz.yaml", (const char*)data, size, NULL, 0, &spec);
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
    for (int k = 0; st == RD_OK && k < FUZZ_STEPS; k++) {
      st = rd_step(model, d, 0);
    }
    if (st == RD_OK) {
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
  return 0;
}
