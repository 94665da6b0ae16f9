// SPDX-License-Identifier: MIT
// Editing a checkpoint file in place, for the tests that check what a reader refuses.
#ifndef RD_TEST_CHECKPOINT_FILE_H
#define RD_TEST_CHECKPOINT_FILE_H

#include <stddef.h>

// overwrite n bytes at offset `at` of the checkpoint file `path` with `bytes`, then reseal its
// checksum (rd_checkpointSeal) if `seal`; 1 if the file was read and written whole, else 0
int ckpt_patchFile(const char* path, long at, const void* bytes, size_t n, int seal);

#endif  // RD_TEST_CHECKPOINT_FILE_H
