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
// the generalized-alpha auxiliary variable, multipliers, the stepper's own memory, statistics,
// loads held by rd_setNodeLoad -- to `path`, atomically (a temporary file of a unique name in
// the same directory, flushed, synced and renamed). The file also holds the model's
// fingerprint: every value that changes the motion (the options but solver.final_time,
// solver.threads and output.*, gravity, each node's initial state, each element's, beam's,
// joint's, load's, torque law's and time function's definition, bit for bit; the node sets of
// callbacks, whose functions cannot be compared), and a checksum of all of it.
// Returns RD_OK, RD_ERR_IO, RD_ERR_ARG, RD_ERR_NUMERIC (a state that is not finite) or
// RD_ERR_NOMEM.
RD_API int rd_writeCheckpoint(const rdModel* model, const rdData* data, const char* path);

// Read a checkpoint written by rd_writeCheckpoint into `data`. The model must be the one that
// wrote it: same structure (method, nodes, constraints, linear solver) and same fingerprint;
// solver.final_time, solver.threads and output options may differ. A run resumed this way with
// the same step size reproduces the uninterrupted run bit for bit. The file is read whole into
// memory (at most twice the size a checkpoint of this model has, plus 1 MiB) and its checksum
// checked before anything in it is used. The data is left unchanged on error.
// Returns RD_OK, RD_ERR_IO (unreadable, truncated or corrupt file, another version or machine)
// or RD_ERR_ARG (a checkpoint of another model, with the list of what differs).
RD_API int rd_readCheckpoint(const rdModel* model, rdData* data, const char* path);

// flags of rd_readCheckpointFlags
#define RD_CHECKPOINT_ACCEPT_CHANGES 1  // resume although values of the fingerprint differ

// rd_readCheckpoint with flags: RD_CHECKPOINT_ACCEPT_CHANGES resumes a model whose values differ
// from the one that wrote the checkpoint (a deliberate change: another mass, time step,
// gravity); the structure must still match. The differences go to the context's warning
// handler. Returns as rd_readCheckpoint, and RD_ERR_ARG for an unknown flag.
RD_API int rd_readCheckpointFlags(const rdModel* model, rdData* data, const char* path, int flags);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_RESTART_H
