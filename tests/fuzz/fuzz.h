// SPDX-License-Identifier: MIT
// What the fuzz targets share: the libFuzzer entry points, and the limits that keep one input
// fast enough for a campaign (a slow input would be reported as a hang).
#ifndef RD_FUZZ_H
#define RD_FUZZ_H

#include <stddef.h>
#include <stdint.h>

// the entry points libFuzzer calls (and tests/fuzz/replay.c, without libFuzzer)
int LLVMFuzzerInitialize(int* argc, char*** argv);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// models with more degrees of freedom are compiled but not stepped
#define FUZZ_MAX_DOF 600

// steps taken by the targets that step
#define FUZZ_STEPS 5

// the initialization every target needs: nothing may read the terminal (a deck naming
// /dev/stdin reads the empty /dev/null instead)
void fuzz_setup(void);

#endif  // RD_FUZZ_H
