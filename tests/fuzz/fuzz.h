// SPDX-License-Identifier: MIT
// What the fuzz targets share: the libFuzzer entry points, and the limits that keep one input
// fast enough for a campaign (a slow input would be reported as a hang).
#ifndef RD_FUZZ_H
#define RD_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "rodrigues/rodrigues.h"

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

// what a reader made of the input (st its status, spec its result): compile it and, when it has
// at most FUZZ_MAX_DOF degrees of freedom, create its data, initialize it and take `steps` steps;
// with `query`, read its energy and momentum after them. Every failure must leave a message (a
// status without one traps). Destroys spec and ctx.
void fuzz_exercise(rdContext* ctx, int st, rdSpec* spec, int steps, int query);

#endif  // RD_FUZZ_H
