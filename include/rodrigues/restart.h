// SPDX-License-Identifier: MIT
// Exact restart: the complete integrator state to a file and back.
#ifndef RODRIGUES_RESTART_H
#define RODRIGUES_RESTART_H

#include "rodrigues/export.h"
#include "rodrigues/simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

// Write the complete state of `data` -- time, positions, rotations, velocities, accelerations,
// the generalized-alpha auxiliary variable, multipliers, the stepper's own memory, statistics --
// to `path`, atomically (a temporary file in the same directory, flushed, synced and renamed).
// The file records a fingerprint of the model's structure (method, node names and kinds, DOFs,
// constraints). Returns RD_OK, RD_ERR_IO or RD_ERR_ARG.
RD_API int rd_writeCheckpoint(const rdModel* model, const rdData* data, const char* path);

// Read a checkpoint written by rd_writeCheckpoint into `data` (made from a model with the same
// structure; options such as solver.final_time may differ). A run resumed this way with the same
// step size reproduces the uninterrupted run bit for bit. The data is left unchanged on error.
// Returns RD_OK, RD_ERR_IO (unreadable, truncated or corrupt file) or RD_ERR_ARG (a checkpoint
// of another model or method).
RD_API int rd_readCheckpoint(const rdModel* model, rdData* data, const char* path);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_RESTART_H
