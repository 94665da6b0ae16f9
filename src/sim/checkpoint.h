// SPDX-License-Identifier: MIT
// Checkpoints in memory, for rd_readCheckpoint and the checkpoint fuzzer (tests/fuzz).
#ifndef RD_CHECKPOINT_H
#define RD_CHECKPOINT_H

#include <stddef.h>

#include "src/model/data_impl.h"

// rd_readCheckpointFlags of the `len` bytes at `buf` (a checkpoint file's content; `name`
// names it in messages)
int rd_checkpointParse(const rdModel* m, rdData* d, const char* name, const unsigned char* buf,
                       size_t len, int flags);

// recompute the checksum of a checkpoint held in buf[0..len) in place (tests and the fuzzer
// use it to reach the checks behind the checksum); nothing if len is shorter than the header
void rd_checkpointSeal(unsigned char* buf, size_t len);

#endif  // RD_CHECKPOINT_H
