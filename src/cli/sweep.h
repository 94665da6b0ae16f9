// SPDX-License-Identifier: MIT
// The sweep driver shared by `rodrigues sweep` (one after another, --jobs processes) and
// `rodrigues-sweep` (MPI ranks): arguments, the sweep directory and its tables, running a case.
#ifndef RD_CLI_SWEEP_H
#define RD_CLI_SWEEP_H

#include "cli.h"

// the arguments of `sweep`
typedef struct cliSweepArgs_ {
  const char* file;    // the sweep file
  const char* outdir;  // -o DIR, or NULL (out/<sweep file's base name>)
  int jobs;            // --jobs K (0: not given)
  int retry_failed;    // --retry-failed: run failed cases again
  const char** only;   // --case ID...: only these cases, run again (array from malloc)
  int nonly;
  const char* worker;  // --worker ID: run this one case, write its result, nothing else
  const char* every;   // --checkpoint-every INTERVAL (NULL: no checkpoints)
  int help;
} cliSweepArgs;

extern const char cli_sweepUsage[];

// Parse the arguments (argv[0] is the command name). Returns CLI_OK or, with the error printed,
// CLI_USAGE. Free with cli_sweepFreeArgs in any case.
int cli_sweepParseArgs(int argc, char** argv, cliSweepArgs* a);
void cli_sweepFreeArgs(cliSweepArgs* a);

// an open sweep
typedef struct cliSweep_ {
  rdContext* ctx;
  rdSweep* sw;
  char* dir;  // the sweep directory
  int ncase, nquantity;
  rdCaseResult* results;  // ncase: what is known of each case
  double* values;         // ncase x nquantity, the results' values
  int* todo;              // the cases to run, in order
  int ntodo;
  int ndone;    // cases finished by this run
  int nfailed;  // of which not ok
  double wall0;
  double every;    // checkpoints of each case every this interval (0: none)
  int every_wall;  // of wall-clock time (else simulated time)
  int lock;        // the sweep directory's lock (-1: not held; a worker holds its case's only)
} cliSweep;

// Read the sweep file. Unless `worker`, also create the directory, take its lock (refused, the
// error printed, while another sweep or run writes it), write index.csv, read what
// every case's result says and list the cases to run: missing, stale, crashed and error ones,
// failed ones with --retry-failed, the --case ones always; prints what it found. Returns an
// exit code, the error printed. Call cli_sweepClose in any case.
int cli_sweepOpen(const cliSweepArgs* a, int worker, cliSweep* s);
void cli_sweepClose(cliSweep* s);

// DIR/cases/<id> of case i, a new string (NULL if out of memory)
char* cli_sweepCaseDir(const cliSweep* s, int i);

// Run case i in this process (sweep_case.c): its outputs into DIR/cases/<id>/, its result into
// DIR/cases/<id>/result.json and *r (r->values must hold nquantity values). The case directory
// is locked meanwhile as a run's is: while another run writes it, the case is an error saying
// so and its files are left alone. Returns the case's exit code; CLI_IO if even the result could
// not be written.
int cli_sweepRunCase(cliSweep* s, int i, rdCaseResult* r);

// Case i with checkpoints (s->every > 0; sweep_resume.c): start it from its checkpoint in
// DIR/cases/<id>/ when an earlier run left a valid one (the history's rows up to it kept, the
// collector's state restored, a line in resumed.txt), else from its initial conditions; then
// integrate it to its final time like cli_integrate, writing the history in place and, every
// interval and when interrupted, the checkpoint and the collector's state. On success the
// checkpoint files go. Returns an exit code, the error reported with cli_error.
int cli_sweepIntegrateResumable(cliSweep* s, int i, cliSession* ss, const char* dir,
                                cliOutputs* out, rdCollector* col, double* wall);

// After case i ended (in any process): read its result (a missing one becomes `crash` if that
// is not NULL, with that reason: a worker that died), keep it, print its line.
void cli_sweepCaseEnded(cliSweep* s, int i, const char* crash);

// Run the cases to do one after another in this process (stops early when interrupted).
void cli_sweepSerial(cliSweep* s);

// Write the tables from every case's result and print the summary; `extra` (may be NULL) is
// printed after it. Returns 0 when every case is ok, CLI_NUMERIC when some is not, CLI_IO if
// the tables cannot be written.
int cli_sweepFinish(cliSweep* s, const char* extra);

#endif  // RD_CLI_SWEEP_H
