// SPDX-License-Identifier: MIT
// Fuzz target: a deck (the input's bytes) read from memory, compiled, its data created and
// initialized, then a few steps. Every failure must be a status with a message; nothing may
// crash, hang, leak or read out of bounds.

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
  int st = rd_readDeckText(ctx, "fuzz.yaml", (const char*)data, size, NULL, 0, &spec);
  fuzz_exercise(ctx, st, spec, FUZZ_STEPS, 1);
  return 0;
}
