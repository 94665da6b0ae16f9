// SPDX-License-Identifier: MIT
// Shared declarations of the rodrigues command-line program (a client of the public API only).
#ifndef RD_CLI_H
#define RD_CLI_H

#include <signal.h>
#include <stddef.h>

#include "rodrigues/rodrigues.h"

// exit codes (documented in --help and docs/cli.md)
enum {
  CLI_OK = 0,       // success
  CLI_USAGE = 1,    // bad command line
  CLI_DECK = 2,     // deck or model error
  CLI_NUMERIC = 3,  // numerical failure during the run
  CLI_IO = 4,       // input/output error
  CLI_OTHER = 5     // anything else (out of memory, internal error)
};

// a subcommand: argv[0] is the command name; returns an exit code. "COMMAND --help" must print
// the command's usage to stdout and return CLI_OK (rodrigues help COMMAND relies on it).
typedef int (*cliCommandFn)(int argc, char** argv);

typedef struct cliCommand_ {
  const char* name;  // as typed: "run"
  cliCommandFn fn;
  const char* args;  // synopsis of the arguments: "DECK [-o DIR] [--set KEY=VALUE]..."
  const char* help;  // one line
} cliCommand;

// the subcommands, one file each
int cmd_run(int argc, char** argv);
int cmd_check(int argc, char** argv);
int cmd_options(int argc, char** argv);
int cmd_converge(int argc, char** argv);
int cmd_import(int argc, char** argv);
int cmd_sweep(int argc, char** argv);
int cmd_modes(int argc, char** argv);
int cmd_campbell(int argc, char** argv);

// ---------------------------------------------------------------------------------------------
// arguments and loading shared by the commands that read a deck (common.c)

typedef struct cliDeckArgs_ {
  const char* deck;        // the deck file
  const char* outdir;      // -o DIR, or NULL
  const char* checkpoint;  // run: --checkpoint FILE (written at the end), or NULL
  const char* resume;      // run: --resume FILE (state to start from), or NULL
  const char* every;       // run: --checkpoint-every INTERVAL, or NULL
  int resume_changed;      // run: --resume-changed (a checkpoint of a changed model accepted)
  const char** set;        // the --set KEY=VALUE texts (pointers into argv; array from malloc)
  int nset;
  int help;  // --help was given
} cliDeckArgs;

// Print "rodrigues CMD: WHAT 'ARG'" (ARG may be NULL) and a hint to `rodrigues CMD --help` to
// stderr; returns CLI_USAGE.
int cli_usageError(const char* cmd, const char* what, const char* arg);

// "--checkpoint-every" INTERVAL: simulated time (a number, *wall = 0) or wall-clock time (30s,
// 5min, 2h; *wall = 1) into *every. CLI_OK or, with the error printed, CLI_USAGE.
int cli_parseInterval(const char* cmd, const char* text, double* every, int* wall);

// Parse "DECK [--set KEY=VALUE]..." (and "-o DIR" if allow_output). On a usage error print it
// with a hint to `rodrigues CMD --help` and return CLI_USAGE; otherwise CLI_OK. Free with
// cli_freeDeckArgs in any case.
int cli_parseDeckArgs(int argc, char** argv, int allow_output, cliDeckArgs* args);
void cli_freeDeckArgs(cliDeckArgs* args);

// what a deck becomes
typedef struct cliSession_ {
  rdContext* ctx;
  rdModel* model;
  rdData* data;
} cliSession;

// Read the deck with the overrides `set` (nset "KEY=VALUE" texts) and compile it: s->ctx (its
// warnings printed by cli_warning) and s->model. Returns CLI_OK, or prints the error and returns
// the exit code. Call cli_closeSession in any case.
int cli_loadModel(const char* deck, const char* const* set, int nset, cliSession* s);

// cli_loadModel of the deck and overrides of `args`, then create the data (s->data).
int cli_openSession(const cliDeckArgs* args, cliSession* s);
void cli_closeSession(cliSession* s);

// The start of a command that reads a deck (run, check): parse its arguments, print `usage` on
// --help (args->help set, CLI_OK returned, nothing opened), else open the session. Returns
// CLI_OK, or the exit code with the error printed. Call cli_endDeckCommand in any case.
int cli_startDeckCommand(int argc, char** argv, int allow_output, const char* usage,
                         cliDeckArgs* args, cliSession* s);
void cli_endDeckCommand(cliDeckArgs* args, cliSession* s);

// Create the directory `path` and its missing parents. *created (may be NULL) receives the
// length of the shallowest prefix this call created (0: none), also after a failure, for
// cli_removeDirs. Returns 0, or -1 with the reason printed.
int cli_makeDirs(char* path, size_t* created);

// Remove the (empty) directories cli_makeDirs created, deepest first.
void cli_removeDirs(char* path, size_t created);

// ---------------------------------------------------------------------------------------------
// the results directory of a run (run_dir.c): DIR/.rodrigues.lock, DIR/incomplete/

// Take the lock of the results directory `dir` for this process (released when it ends,
// however it ends); *fd the open lock file, to be kept open. 0, or -1 with the reason printed
// (another run holds it: its process id).
int cli_lockDir(const char* dir, int* fd);

// Remove `path` and, if it is a directory, everything in it (symbolic links are removed, not
// followed). 0, or -1 with errno set.
int cli_removeTree(const char* path);

// Make the run's directory `staging` afresh (keep_history 0: whatever an earlier run left there
// goes), or keep its history.csv and summary.json for a resumed run to continue (keep_history 1:
// the outputs that cannot be continued go). 0, or -1 with the reason printed.
int cli_makeStaging(const char* staging, int keep_history);

// Publish a successful run: move the VTK series, link history.nc, history.csv and, last,
// summary.json from `staging` into `dir` (an output of an earlier run that this run did not
// make is removed, so that DIR holds one run's files), then remove `staging`. 0, or -1 with the
// reason printed.
int cli_publish(const char* dir, const char* staging);

// The results directory, a new string: `dir` without trailing slashes, or, if dir is NULL,
// "out/PREFIX<deck's base name without .yaml or .yml>".
char* cli_outputDir(const char* deck, const char* dir, const char* prefix);

// Print "rodrigues: <last error>" (the status text if there is none) to stderr and return the
// exit code for `status`; `running` != 0 once the time integration has started.
int cli_fail(const rdContext* ctx, int status, int running);

// Print "rodrigues: MESSAGE" (from fmt) on stderr, or, while errors are captured, keep the first
// message in the capture buffer instead.
void cli_error(const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

// Capture the messages of cli_error (and so of cli_fail) in buf (size bytes; the first one is
// kept, buf is emptied now) instead of printing them; buf NULL prints again.
void cli_captureErrors(char* buf, size_t size);

// The library's warning handler: "rodrigues: warning: MESSAGE" on stderr (a message repeated
// right after itself is not printed again).
void cli_warning(const char* message, void* user);

// The exit code for a library status.
int cli_exitCode(int status, int running);

// ---------------------------------------------------------------------------------------------
// progress bar on stderr (progress.c): drawn only when stderr is a terminal and CI is unset

typedef struct cliProgress_ {
  int enabled;
  double t0, t1;     // simulated time span
  double wall0;      // wall clock at the start
  double last_draw;  // wall clock of the last drawing
  int drawn;         // something is on the line
} cliProgress;

void cli_progressBegin(cliProgress* p, double t0, double t1);
void cli_progressUpdate(cliProgress* p, double t);  // throttled to about 10 drawings per second
void cli_progressEnd(cliProgress* p);               // erase the bar

// glibc's malloc without fast bins, called first thing by the programs: a large deck's YAML
// document is millions of small blocks, freed once the model is read; kept unmerged in fast bins
// they raised the peak memory of `rodrigues check` on a 10^5-body chain from 2.1 to 2.4 GiB and
// cost 16 % of its CPU time (docs/performance.md, "Setup and large models"). A no-op elsewhere.
void cli_tuneMalloc(void);

// monotonic wall clock, seconds
double cli_now(void);

// "DIR/NAME" (one slash between) in a new string (free it), NULL if out of memory
char* cli_join(const char* dir, const char* name);

// ---------------------------------------------------------------------------------------------
// the time integration with its result files (integrate.c), shared by run and sweep

// set by SIGINT / SIGTERM while caught (the signal's number); the integration stops at the end
// of the current step (the step callback)
extern volatile sig_atomic_t cli_interrupted;

// catch SIGINT and SIGTERM once (SA_RESETHAND: a second signal ends the program at once); a
// signal ignored by the parent stays ignored. old[] receives the handlers to restore.
void cli_catchSignals(struct sigaction old[2]);
void cli_restoreSignals(const struct sigaction old[2]);

// the result files of a run and what the integration observed
typedef struct cliOutputs_ {
  rdHistory* history;
  rdNetcdf* netcdf;  // DIR/history.nc when output.netcdf is set
  int netcdf_written;
  rdVtk* vtk;  // DIR/results.pvd and DIR/vtk when output.vtk is set
  int vtk_written;
  rdObserver extra;  // called after the writers at every history row (may be NULL); its
  void* extra_user;  // non-zero return is a status that fails the run
  int status;        // first failure of the observer
  long rows;         // history rows written
  cliProgress progress;
} cliOutputs;

// A row into every output of r (history, history.nc, VTK, then r->extra); r->rows counts the
// rows written. RD_OK or the first failure's status.
int cli_writeRow(cliOutputs* r, const rdModel* m, const rdData* d);

// Integrate the initialized session from its time to solver.final_time, writing the history
// (and history.nc, the VTK series) into the existing directory `dir`, committed at the end.
// *wall is increased by the integration's wall time. Returns an exit code, the error reported
// with cli_error; on failure call cli_discardOutputs.
int cli_integrate(cliSession* s, const char* dir, cliOutputs* r, double* wall);

// Delete what a failed run left: the partial files, and, if `committed` (the integration
// succeeded but a later step failed), the committed history and VTK index.
void cli_discardOutputs(cliOutputs* r, const char* dir, int committed);

// ---------------------------------------------------------------------------------------------
// the convergence study (cmd_converge.c) and its figures (converge_plot.c)

// one run of the study: a method at a step size
typedef struct convRun_ {
  const char* method;
  double dt;
  int ok;
  char why[160];  // failure reason
  double q[4];    // final orientation
  double Pi[3];   // final body angular momentum
  double err_R, err_Pi, order_R, order_Pi;
  long steps, loads;
  double wall;
} convRun;

// ---------------------------------------------------------------------------------------------
// linearization and modes (modal_args.c): what rodrigues modes and rodrigues campbell share

#define CLI_MAX_CHANNELS 64  // state-space inputs, outputs
#define CLI_MAX_RAYS 16      // Campbell diagram: the k-per-revolution rays

typedef struct cliModalArgs_ {
  int count;                         // --count N: modes
  const char* at;                    // --at initial | static | t=T
  double at_time;                    // T of --at t=T
  double spin_rpm;                   // --spin-rpm R
  double axis[3];                    // --spin-axis X,Y,Z
  int has_axis;                      // given
  double center[3];                  // --spin-center X,Y,Z
  double flap[3];                    // --flap-axis X,Y,Z
  int solver;                        // --solver auto | dense | arpack (rdEigenSolver)
  int export_matrices;               // --export-matrices
  int vtk;                           // 0 with --no-vtk
  int frames;                        // --frames N (0: the library's default)
  double amplitude;                  // --amplitude A (0: the library's default)
  const char* in[CLI_MAX_CHANNELS];  // --ss-input KIND:NAME:COMPONENT
  int nin;
  const char* out[CLI_MAX_CHANNELS];  // --ss-output KIND:NAME:COMPONENT
  int nout;
  double speeds[3];  // campbell --speeds FROM:TO:STEP (rpm)
  int has_speeds;
  int rays[CLI_MAX_RAYS];  // campbell --rays 1,3,6
  int nray;
} cliModalArgs;

// Take the modal options (campbell != 0: those of rodrigues campbell) out of argv; the rest
// (argv[0] first, then the deck's arguments) into rest (argc + 1 pointers), their number into
// *rest_argc. CLI_OK, or CLI_USAGE with the error printed.
int cli_parseModalArgs(int argc, char** argv, int campbell, cliModalArgs* o, int* rest_argc,
                       char** rest);

// The start of rodrigues modes (campbell 0) or campbell (1): the modal options into o, the rest
// into args (cli_parseDeckArgs); with --help the usage is printed (args->help set, CLI_OK).
// CLI_OK, or the exit code with the error printed. Call cli_freeDeckArgs in any case.
int cli_startModalCommand(int argc, char** argv, int campbell, const char* usage, cliModalArgs* o,
                          cliDeckArgs* args);

// Load the deck at the operating point of o->at into s (model, data): the initial state
// (rd_initialize; a deck of a rigid-body method is read with solver.method generalized_alpha),
// the static equilibrium at solver.final_time (read with solver.method static and run), or the
// state of its run at time T. CLI_OK, or the exit code with the error printed.
int cli_operatingPoint(const cliDeckArgs* a, const cliModalArgs* o, cliSession* s);

// the linearization's definition: the spin of o at rpm (rev/min), a steady state or not
rdLinearizeDef cli_linearizeDef(const cliModalArgs* o, double rpm, int steady);

// the modes' definition of o (the flap axis: --flap-axis, else the spin axis)
rdModalDef cli_modalDef(const cliModalArgs* o);

// ---------------------------------------------------------------------------------------------
// figures (gnuplot.c)

// write s as a gnuplot single-quoted string (a quote is doubled)
void cli_gnuplotQuoted(FILE* f, const char* s);

// line colour k (cycling through a dozen), "#rrggbb"
const char* cli_plotColor(int k);

// run gnuplot on `script`: 0 if it drew, 1 if gnuplot is not installed, -1 if it failed (both
// said on stderr, "rodrigues CMD: ...")
int cli_runGnuplot(const char* script, const char* cmd);

// DIR/convergence.dat (blocks per method: dt err_R err_Pi, positive errors only) and
// DIR/convergence.gp from the runs r (nmethod x nlevel, method-major), with a panel of the
// body angular momentum's errors when has_pi, and one of the attitude's; then run gnuplot on it
// for DIR/convergence.png and .svg. Returns 0 if the plots were drawn, 1 if gnuplot is not
// installed, -1 if they could not be drawn (each said on stderr).
int cli_plotConvergence(const char* dir, const char* deck, const convRun* r, const char** methods,
                        int nmethod, int nlevel, int has_pi);

#endif  // RD_CLI_H
