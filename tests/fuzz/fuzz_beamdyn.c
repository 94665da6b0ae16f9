// SPDX-License-Identifier: MIT
// Fuzz target: the OpenFAST BeamDyn importer. The input holds up to three files separated by
// NUL bytes (which no text file holds): the driver, the primary file and the blade file, written
// as driver.inp, primary.inp and blade.inp into a directory of this process (the seeds' driver
// names primary.inp, their primary blade.inp). The importer reads them, the model is compiled
// and, when small, initialized and stepped.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rodrigues/rodrigues.h"
#include "tests/fuzz/fuzz.h"

static char dir[256];


static void remove_dir(void) {
  const char* names[3] = {"driver.inp", "primary.inp", "blade.inp"};
  char path[512];
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
    remove(path);
  }
  rmdir(dir);
}


int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  fuzz_setup();
  const char* tmp = getenv("TMPDIR");
  snprintf(dir, sizeof(dir), "%s/rd_fuzz_beamdyn.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    abort();
  }
  atexit(remove_dir);
  return 0;
}


// write part k (bytes [a, b) of the input) as the k-th file
static void write_part(int k, const uint8_t* a, size_t n) {
  static const char* const names[3] = {"driver.inp", "primary.inp", "blade.inp"};
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
  FILE* f = fopen(path, "wb");
  if (!f || (n && fwrite(a, 1, n, f) != n) || fclose(f)) {
    abort();
  }
}


int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  size_t start = 0;
  for (int k = 0; k < 3; k++) {
    const uint8_t* nul = start < size ? memchr(data + start, 0, size - start) : NULL;
    size_t end = nul ? (size_t)(nul - data) : size;
    write_part(k, data + start, start < size ? end - start : 0);
    start = end < size ? end + 1 : size;
  }
  rdContext* ctx = NULL;
  if (rd_createContext(&ctx, NULL) != RD_OK) {
    return 0;
  }
  char driver[512];
  snprintf(driver, sizeof(driver), "%s/driver.inp", dir);
  rdSpec* spec = NULL;
  int st = rd_importBeamDyn(ctx, driver, &spec);
  fuzz_exercise(ctx, st, spec, 2, 0);
  return 0;
}
