// SPDX-License-Identifier: MIT
// Set-up shared by the fuzz targets.
#include <stdio.h>

#include "tests/fuzz/fuzz.h"

void fuzz_setup(void) {
  if (!freopen("/dev/null", "r", stdin)) {
    fclose(stdin);
  }
}
