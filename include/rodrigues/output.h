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

// Open DIR/history.csv for writing (under a unique temporary name DIR/.history.csv.XXXXXX until
// closed) and write the header: time; for each output node N: N.x N.y N.z N.qw N.qx N.qy N.qz
// N.vx N.vy N.vz N.wx N.wy N.wz N.Wx N.Wy N.Wz; kinetic_energy potential_energy total_energy;
// momentum_x/y/z (total linear momentum) angular_momentum_x/y/z (about the global origin, global
// frame; see rd_getMomentum); newton_iterations. The directory must exist. Returns RD_OK,
// RD_ERR_IO or RD_ERR_NOMEM.
RD_API int rd_createHistory(const rdModel* model, const char* dir, rdHistory** history);

// Open the history file `path` to be written in place, as by a run that may be killed: the file
// is at every moment a header and complete rows, also if the process is killed inside a write
// (rows are kept in memory and written, at rd_flushHistory, when the memory is full and at
// rd_closeHistory, to two copies .NAME.0 and .NAME.1 beside it in turn, `path` a hard link to
// the complete one; where the file system has no hard links, to `path` directly, whole rows in
// one write each time). A new or empty file gets
// the header. An existing one must have this model's header (else RD_ERR_ARG); its rows after
// time `after` are cut, with an incomplete last row, and the row at `after` too when it is off
// the model's output grid (start_time + k output.every time_step, and final_time: the rows an
// uninterrupted run writes; a run stopped between two wrote its last row there), and new rows
// follow: a run resumed from a checkpoint at time `after` continues the history it wrote, as
// the uninterrupted run's (-INFINITY keeps no row). *rows
// (may be NULL) receives the rows kept. Returns RD_OK, RD_ERR_ARG, RD_ERR_IO or RD_ERR_NOMEM.
RD_API int rd_openHistory(const rdModel* model, const char* path, double after, rdHistory** history,
                          long* rows);

// Append one row for the current state of `data` (17 significant digits).
// Returns RD_OK or RD_ERR_IO.
RD_API int rd_writeHistory(rdHistory* history, const rdModel* model, const rdData* data);

// Write the rows held in memory to the file, whole, and sync it (rd_openHistory's; for those of
// rd_createHistory the file is still the temporary one). Returns RD_OK, RD_ERR_IO or
// RD_ERR_HANDLE.
RD_API int rd_flushHistory(rdHistory* history);

// Rows written so far (with those kept by rd_openHistory), -1 for an invalid handle.
RD_API long rd_historyRows(const rdHistory* history);

// Close the history. Of rd_createHistory: commit != 0: write the rows, flush, sync and rename
// it to DIR/history.csv; commit == 0: delete the temporary file. Of rd_openHistory: the rows
// are written and kept either way. Sets *history to NULL; accepts NULL. Returns RD_OK,
// RD_ERR_IO or RD_ERR_HANDLE (a handle closed before).
RD_API int rd_closeHistory(rdHistory** history, int commit);

// Write the summary JSON file `path` atomically: "status": "ok", final state of every node,
// model counts, statistics and `wall_time` (seconds, measured by the caller). Returns RD_OK or
// RD_ERR_IO.
RD_API int rd_writeSummary(const rdModel* model, const rdData* data, const char* path,
                           double wall_time);

// How a run ended, for its summary.
typedef struct rdRunStatus_ {
  const char* status;  // "ok", "failed", "interrupted" or "running" (NULL: "ok")
  const char* error;   // what went wrong (the library's message), or NULL
  long rows;           // rows of its history.csv, or < 0 if not said
  double wall_time;    // seconds, measured by the caller
} rdRunStatus;

// rd_writeSummary with the run's status: "status", and "error" and "history_rows" when given,
// follow "version"; "time" and the node states are those of `data` (after a failure: the last
// completed step). Returns RD_OK, RD_ERR_ARG or RD_ERR_IO.
RD_API int rd_writeSummaryStatus(const rdModel* model, const rdData* data, const char* path,
                                 const rdRunStatus* run);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_OUTPUT_H
