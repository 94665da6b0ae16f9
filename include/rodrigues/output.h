// SPDX-License-Identifier: MIT
// Result files: the time history (history.csv) and the final summary (summary.json).
// Files are written under a temporary name and renamed into place only when complete, so a
// crash never leaves a file that looks finished.
#ifndef RODRIGUES_OUTPUT_H
#define RODRIGUES_OUTPUT_H

#include "rodrigues/export.h"
#include "rodrigues/simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdHistory_ rdHistory;

// Open DIR/history.csv for writing (as DIR/.history.csv.partial until closed) and write the
// header: time; for each output node N: N.x N.y N.z N.qw N.qx N.qy N.qz N.vx N.vy N.vz
// N.wx N.wy N.wz N.Wx N.Wy N.Wz; kinetic_energy potential_energy total_energy;
// momentum_x/y/z (total linear momentum) angular_momentum_x/y/z (about the global origin, global
// frame; see rd_getMomentum); newton_iterations. The directory must exist. Returns RD_OK, RD_ERR_IO
// or RD_ERR_NOMEM.
RD_API int rd_createHistory(const rdModel* model, const char* dir, rdHistory** history);

// Append one row for the current state of `data` (17 significant digits).
// Returns RD_OK or RD_ERR_IO.
RD_API int rd_writeHistory(rdHistory* history, const rdModel* model, const rdData* data);

// Close the history. commit != 0: flush and rename it to DIR/history.csv; commit == 0: delete
// the partial file. Sets *history to NULL; accepts NULL. Returns RD_OK or RD_ERR_IO.
RD_API int rd_closeHistory(rdHistory** history, int commit);

// Write the summary JSON file `path` atomically: final state of every node, model counts,
// statistics and `wall_time` (seconds, measured by the caller). Returns RD_OK or RD_ERR_IO.
RD_API int rd_writeSummary(const rdModel* model, const rdData* data, const char* path,
                           double wall_time);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_OUTPUT_H
