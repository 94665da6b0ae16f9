// SPDX-License-Identifier: MIT
// Editing a checkpoint file in place (checkpoint_file.h).
#include "tests/support/checkpoint_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/sim/checkpoint.h"

int ckpt_patchFile(const char* path, long at, const void* bytes, size_t n, int seal) {
  FILE* f = fopen(path, "rb");
  long size = -1;
  if (f && fseek(f, 0, SEEK_END) == 0) {
    size = ftell(f);
  }
  unsigned char* buf = f && size >= at + (long)n && fseek(f, 0, SEEK_SET) == 0 && at >= 0
                           ? malloc((size_t)size)
                           : NULL;
  int ok = buf && fread(buf, 1, (size_t)size, f) == (size_t)size;
  if (f) {
    fclose(f);
  }
  if (ok) {
    memcpy(buf + at, bytes, n);
    if (seal) {
      rd_checkpointSeal(buf, (size_t)size);
    }
    f = fopen(path, "wb");
    ok = f && fwrite(buf, 1, (size_t)size, f) == (size_t)size;
    ok = f && fclose(f) == 0 && ok;
  }
  free(buf);
  return ok;
}
