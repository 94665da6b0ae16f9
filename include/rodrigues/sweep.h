// SPDX-License-Identifier: MIT
// Parameter sweeps: a sweep file (a base deck and its cases as --set overrides), the quantities
// collected per case, the result of one case and the tables of a sweep (docs/sweep.md). The
// library reads, collects and writes; running the cases (one after another, in processes, on
// MPI ranks) is the caller's: `rodrigues sweep` is one such client.
#ifndef RODRIGUES_SWEEP_H
#define RODRIGUES_SWEEP_H

#include "rodrigues/export.h"
#include "rodrigues/simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdSweep_ rdSweep;
typedef struct rdCollector_ rdCollector;

// ---------------------------------------------------------------------------------------------
// the sweep file

// Read the sweep file `path` (YAML; docs/sweep.md): `deck` (the base deck, relative to the sweep
// file), `set` (overrides of every case; a string value with ${FORMULA} is a template of the
// parameters), `parameters` (case variables that are not deck paths), `grid` (every combination
// of the listed values, the first key varying slowest), `cases` (explicit cases, after the
// grid's) and `collect` (quantities per case: "min(SOURCE)", "max(...)", "absmax(...)",
// "final(...)"). Every variable's deck path is checked by reading the base deck with it once.
// On error returns RD_ERR_DECK (RD_ERR_IO, RD_ERR_NOMEM) with "FILE:LINE:COLUMN: message" as
// the context's last error; *sweep is NULL.
RD_API int rd_readSweep(rdContext* ctx, const char* path, rdSweep** sweep);

// Destroy a sweep; accepts NULL and sets *sweep to NULL. While collectors made for it exist it
// destroys nothing (*sweep stays, usable; the context's last error is RD_ERR_STATE). A stale
// copy of a destroyed sweep's handle is refused with RD_ERR_HANDLE (docs/api.md "Handles").
RD_API void rd_destroySweep(rdSweep** sweep);

// The base deck's path (the sweep file's `deck` resolved against the sweep file's directory).
RD_API const char* rd_sweepDeck(const rdSweep* sweep);

// Number of cases (>= 1; a sweep without grid and cases has one case, the base deck).
RD_API int rd_sweepCaseCount(const rdSweep* sweep);

// The id of case i (0 <= i < count): its variables as NAME=VALUE (the last segment of a deck
// path) joined by '_', a name for its directory; with '-' and 8 hex digits of a hash of the
// values when that text had to be shortened or changed. "base" for a case without variables.
// NULL if i is out of range.
RD_API const char* rd_sweepCaseId(const rdSweep* sweep, int i);

// The case with the id `id`, or with the number `id` (0-based, in decimal); -1 if none.
RD_API int rd_sweepFindCase(const rdSweep* sweep, const char* id);

// The overrides of case i for rd_readDeck ("KEY=VALUE": the sweep's `set`, templates filled in,
// then the case's deck-path variables) into *overrides (owned by the sweep); returns their
// number, or RD_ERR_ARG if i is out of range.
RD_API int rd_sweepOverrides(const rdSweep* sweep, int i, const char* const** overrides);

// Number of variables (deck paths and parameters that take values in the grid or the cases).
RD_API int rd_sweepVariableCount(const rdSweep* sweep);

// The name of variable k (a deck path, or a parameter name); NULL if out of range.
RD_API const char* rd_sweepVariable(const rdSweep* sweep, int k);

// The value of variable k in case i as YAML text ("1e-3", "[0, 1, 0]"); NULL if the case does
// not set it (the deck's own value applies) or an index is out of range.
RD_API const char* rd_sweepValue(const rdSweep* sweep, int i, int k);

// Number of collected quantities.
RD_API int rd_sweepQuantityCount(const rdSweep* sweep);

// The name of quantity q as written in the sweep file and in the tables, e.g. "max(tip.z)";
// NULL if out of range.
RD_API const char* rd_sweepQuantity(const rdSweep* sweep, int q);

// A fingerprint of case i (16 hex digits): a hash of the base deck file's bytes, the case's
// overrides and the collected quantities. A result with another fingerprint is stale.
// NULL if i is out of range.
RD_API const char* rd_sweepFingerprint(const rdSweep* sweep, int i);

// ---------------------------------------------------------------------------------------------
// collecting the quantities of one case

// Create a collector of the sweep's quantities for a model compiled from its base deck (with a
// case's overrides). A SOURCE is a column of history.csv ("tip.z", "total_energy") or the
// reaction of a joint, "reaction.JOINT.force_x" (force_y, force_z, moment_x, ..., and "force",
// "moment" for the magnitudes; rd_getJointReaction). Returns RD_OK, RD_ERR_NOMEM, or
// RD_ERR_DECK with "SWEEP:LINE:COLUMN: message" when a source is not in the model.
RD_API int rd_createCollector(const rdSweep* sweep, const rdModel* model, rdCollector** c);

// Take one sample: the current state of `data` (call it where a history row is written, so that
// the extremes are those of history.csv's rows). Returns RD_OK or the status of a query.
RD_API int rd_collect(rdCollector* c, const rdData* data);

// The quantities from the samples so far (count: rd_sweepQuantityCount): min, max, absmax
// (the value of largest magnitude, with its sign), final (the last sample). NaN before the first
// sample or where a sample was not finite. Returns RD_OK or RD_ERR_HANDLE.
RD_API int rd_collectedValues(const rdCollector* c, double* values);

// The collector's state, to be saved beside a checkpoint and restored when the case resumes
// from it: 2 * rd_sweepQuantityCount + 1 numbers (the quantities so far, 1 for each quantity
// that had a sample that was not finite and 0 else, the number of samples). Returns RD_OK or
// RD_ERR_HANDLE.
RD_API int rd_getCollectorState(const rdCollector* c, double* state);

// Restore a state of rd_getCollectorState (of a collector of the same case). Returns RD_OK,
// RD_ERR_HANDLE, or RD_ERR_ARG (a flag that is not 0 or 1, a count that is not a whole number
// from 0, a quantity that is not finite).
RD_API int rd_setCollectorState(rdCollector* c, const double* state);

// Destroy a collector; accepts NULL and sets *c to NULL. A stale copy of the handle is then
// refused with RD_ERR_HANDLE, and destroying it again does nothing. The model and the sweep of a
// live collector refuse to be destroyed (RD_ERR_STATE).
RD_API void rd_destroyCollector(rdCollector** c);

// ---------------------------------------------------------------------------------------------
// the result of one case, and the tables

// what became of a case
typedef enum rdCaseState_ {
  RD_CASE_MISSING = 0,  // no result (not run, running, or killed): run it
  RD_CASE_OK,           // ran to the final time
  RD_CASE_FAILED,       // failed for a reason that a rerun repeats (deck, model, numerics)
  RD_CASE_ERROR,        // failed for a reason of circumstance (I/O, memory, interrupted): rerun it
  RD_CASE_CRASHED,      // its process ended without a result (a signal); rerun it
  RD_CASE_STALE         // a result of other inputs (another fingerprint): rerun it
} rdCaseState;

// the result of a case
typedef struct rdCaseResult_ {
  rdCaseState state;
  int exit_code;     // how the case ended, as the exit status of `rodrigues run` (0 ok,
                     // 2 deck or model, 3 numerical, 4 input/output, 5 other: docs/cli.md)
  double wall_time;  // seconds of reading, compiling, integrating and writing
  long steps;        // rdStats of the run (0 if it did not start)
  long rejected_steps;
  double* values;    // rd_sweepQuantityCount values, caller-owned (NaN: not available)
  char error[1024];  // the error message, "" if none
} rdCaseResult;

// The name of a state: "missing", "ok", "failed", "error", "crashed", "stale".
RD_API const char* rd_caseStateName(rdCaseState state);

// Write the result of case i as JSON to `path` (atomically): id, fingerprint, state, exit_code,
// wall_time, steps, rejected_steps, the quantities by name, error. Returns RD_OK, RD_ERR_ARG or
// RD_ERR_IO.
RD_API int rd_writeCaseResult(const rdSweep* sweep, int i, const rdCaseResult* r, const char* path);

// Read the result of case i from `path` into *r (r->values must hold rd_sweepQuantityCount
// values). A missing file gives state RD_CASE_MISSING and RD_OK; a result of another id or
// fingerprint RD_CASE_STALE; an unreadable or malformed file RD_CASE_MISSING with the reason
// in r->error. Returns RD_OK, RD_ERR_ARG or RD_ERR_NOMEM.
RD_API int rd_readCaseResult(const rdSweep* sweep, int i, const char* path, rdCaseResult* r);

// Write DIR/index.csv: one row per case (case, id, the variables' values). Atomic.
// Returns RD_OK or RD_ERR_IO.
RD_API int rd_writeSweepIndex(const rdSweep* sweep, const char* dir);

// Write DIR/sweep.csv and DIR/sweep.nc from results[0 .. count): one row (record) per case in
// case order: case, id, the variables, state, exit_code, wall_time, steps, rejected_steps, the
// quantities, error. In sweep.nc the dimension is `case`; variables whose values are all numbers
// are doubles, others strings, and each quantity names them as its coordinates. Both files are
// written under temporary names and renamed. Returns RD_OK, RD_ERR_IO or RD_ERR_NOMEM.
RD_API int rd_writeSweepTables(const rdSweep* sweep, const rdCaseResult* results, const char* dir);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_SWEEP_H
