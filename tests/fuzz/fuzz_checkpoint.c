// SPDX-License-Identifier: MIT
// Fuzz target: the checkpoint reader. The input's first byte chooses the model (bit 0: a double
// pendulum with generalized-alpha and KLU, whose checkpoints carry the factorization history;
// otherwise a free top with liemid_ea, whose carry stepper memory), whether the checksum is
// recomputed over the rest (bit 1: so that the checks behind it are reached) and whether a
// changed model is accepted (bit 2). The rest is the file. An accepted checkpoint is stepped.
// With RD_FUZZ_SEEDS=DIR set, the target writes valid checkpoints of both models into DIR (the
// seed corpus, each with its mode byte) and exits.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "src/sim/checkpoint.h"
#include "tests/fuzz/fuzz.h"

static const char* const decks[2] = {
    "solver: {method: generalized_alpha, time_step: 0.01, linear_solver: klu}\n"
    "gravity: [0, 0, -9.81]\n"
    "nodes:\n"
    "  - {name: a, position: [1, 0, 0]}\n"
    "  - {name: b, position: [2, 0, 0]}\n"
    "elements:\n"
    "  - {type: rigid_body, name: A, node: a, mass: 1, inertia: [0.1, 0.1, 0.1]}\n"
    "  - {type: rigid_body, name: B, node: b, mass: 1, inertia: [0.1, 0.1, 0.1]}\n"
    "joints:\n"
    "  - {name: pin, type: revolute, node: a, point: [0, 0, 0], axis: [0, 1, 0]}\n"
    "  - {name: hinge, type: revolute, nodes: [b, a], point: [1, 0, 0], axis: [0, 1, 0]}\n",
    "solver: {method: liemid_ea, time_step: 0.01}\n"
    "nodes:\n"
    "  - {name: top, angular_velocity: [1, 2, 30], angular_velocity_frame: body}\n"
    "elements:\n"
    "  - {type: rigid_body, name: body, node: top, mass: 2, inertia: [1, 2, 3]}\n"};

static rdContext* ctx;
static rdModel* model[2];


static void write_seeds(const char* dir) {
  for (int k = 0; k < 2; k++) {
    rdData* d = NULL;
    if (rd_createData(model[k], &d) != RD_OK || rd_initialize(model[k], d) != RD_OK) {
      abort();
    }
    for (int n = 0; n < 3; n++) {
      char path[512];
      snprintf(path, sizeof(path), "%s/seed_%d_%d.tmp", dir, k, n);
      if (rd_writeCheckpoint(model[k], d, path) != RD_OK) {
        fprintf(stderr, "%s\n", rd_lastError(ctx));
        abort();
      }
      // the file with its mode byte in front (model k, not resealed)
      FILE* f = fopen(path, "rb");
      static unsigned char buf[1 << 20];
      size_t len = f ? fread(buf + 1, 1, sizeof(buf) - 1, f) : 0;
      fclose(f);
      remove(path);
      buf[0] = (unsigned char)(k ? 0 : 1);
      snprintf(path, sizeof(path), "%s/seed_%d_%d", dir, k, n);
      f = fopen(path, "wb");
      fwrite(buf, 1, len + 1, f);
      fclose(f);
      for (int s = 0; s < 7; s++) {
        rd_step(model[k], d, 0);
      }
    }
    rd_destroyData(&d);
  }
}


int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  fuzz_setup();
  if (rd_createContext(&ctx, NULL) != RD_OK) {
    abort();
  }
  for (int k = 0; k < 2; k++) {
    rdSpec* spec = NULL;
    if (rd_readDeckText(ctx, "model.yaml", decks[k], strlen(decks[k]), NULL, 0, &spec) != RD_OK ||
        rd_compile(spec, &model[k]) != RD_OK) {
      fprintf(stderr, "fuzz_checkpoint: %s\n", rd_lastError(ctx));
      abort();
    }
    rd_destroySpec(&spec);
  }
  const char* seeds = getenv("RD_FUZZ_SEEDS");
  if (seeds) {
    write_seeds(seeds);
    exit(0);
  }
  return 0;
}


int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) {
    return 0;
  }
  int mode = data[0];
  const rdModel* m = model[mode & 1 ? 0 : 1];
  rdData* d = NULL;
  if (rd_createData(m, &d) != RD_OK) {
    abort();
  }
  unsigned char* buf = malloc(size);
  memcpy(buf, data + 1, size - 1);
  if (mode & 2) {
    rd_checkpointSeal(buf, size - 1);
  }
  int flags = mode & 4 ? RD_CHECKPOINT_ACCEPT_CHANGES : 0;
  int st = rd_checkpointParse(m, d, "fuzz", buf, size - 1, flags);
  if (st != RD_OK && !*rd_lastError(ctx)) {
    fprintf(stderr, "status %d without a message\n", st);
    __builtin_trap();
  }
  if (st != RD_OK && rd_isInitialized(d)) {
    fprintf(stderr, "a refused checkpoint changed the data\n");
    __builtin_trap();
  }
  for (int k = 0; st == RD_OK && k < 3; k++) {
    st = rd_step(m, d, 0);
  }
  free(buf);
  rd_destroyData(&d);
  rd_clearError(ctx);
  return 0;
}
