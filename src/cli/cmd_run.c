// SPDX-License-Identifier: MIT
// rodrigues run: integrate a deck to its final time, write history.csv and summary.json.
// The run writes into DIR/incomplete/ (locked against a second run) and publishes its files into
// DIR only when it succeeds; a failed, interrupted or killed run leaves its rows and a status
// there, and DIR's earlier results untouched (docs/cli.md "Results, failures and restarts").
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: rodrigues run DECK [-o DIR] [--set KEY=VALUE]... [--checkpoint FILE\n"
    "                      [--checkpoint-every INTERVAL]] [--resume FILE [--resume-changed]]\n"
    "\n"
    "Read DECK, integrate it from solver.start_time to solver.final_time and write\n"
    "DIR/history.csv (one row every output.every steps, the first and the final time\n"
    "always) and DIR/summary.json (final state and statistics); with output.netcdf also\n"
    "DIR/history.nc, with output.vtk also DIR/results.pvd and DIR/vtk/*.vtu (ParaView).\n"
    "\n"
    "  -o, --output DIR     results directory, created with its parents\n"
    "                       (default: out/<DECK's base name without .yaml>)\n"
    "  -s, --set KEY=VALUE  override a deck value before it is read, e.g.\n"
    "                       --set solver.time_step=1e-4 --set nodes.top.velocity=[0,1,0]\n"
    "                       (repeatable; 'rodrigues options' lists the solver keys)\n"
    "  --checkpoint FILE    write the complete integrator state to FILE at the end\n"
    "  --checkpoint-every INTERVAL\n"
    "                       also write it every INTERVAL of simulated time (a number,\n"
    "                       e.g. 0.5) or of wall-clock time (30s, 5min, 2h), and when\n"
    "                       the run fails or is interrupted: a killed run loses at most\n"
    "                       one interval\n"
    "  --resume FILE        start from the state in FILE (a checkpoint of the same model)\n"
    "                       instead of the initial conditions, continuing the history of\n"
    "                       DIR/incomplete if the run that wrote FILE left one there\n"
    "  --resume-changed     resume although values of the model differ from those that\n"
    "                       wrote FILE (a deliberate change; its structure must match)\n"
    "  -h, --help           show this help\n"
    "\n"
    "The run writes into DIR/incomplete/ and moves its files into DIR only when it\n"
    "succeeds (DIR/summary.json last, \"status\": \"ok\"). A run that fails or is\n"
    "interrupted (Ctrl-C, SIGTERM: it stops within one step) keeps its rows up to the\n"
    "last completed step in DIR/incomplete/, with a summary.json whose \"status\" is\n"
    "\"failed\" or \"interrupted\"; a killed one leaves \"running\" and its rows up to\n"
    "the last checkpoint. Results of an earlier run in DIR are left as they are; a\n"
    "second run into DIR while one is running is refused.\n"
    "A progress bar is drawn on stderr when it is a terminal and CI is not set.\n";

typedef struct runState_ {
  const cliDeckArgs* args;
  char* staging;    // DIR/incomplete
  char* summary;    // DIR/incomplete/summary.json
  cliOutputs out;   // in DIR/incomplete; out.status: the first failure of a callback
  double last_row;  // time of the last row written
  // periodic checkpoints
  int every_wall;     // the interval is wall-clock time
  double every;       // its length (0: no periodic checkpoints)
  double next;        // when the next is due (simulated or wall time)
  double wall_start;  // wall clock at the start of the integration
} runState;


// a row in every output
static int write_row(runState* r, const rdModel* m, const rdData* d) {
  int st = cli_writeRow(&r->out, m, d);
  if (st == RD_OK) {
    r->last_row = rd_time(d);
  }
  return st;
}


static int observe(const rdModel* m, const rdData* d, void* user) {
  runState* r = user;
  int st = write_row(r, m, d);
  if (st != RD_OK) {
    r->out.status = st;
    return 1;
  }
  return 0;
}


// the rows so far on disk, the state in the checkpoint file, and a summary saying "running" at
// this time: what a killed run leaves
static int checkpoint_now(runState* r, const rdModel* m, const rdData* d) {
  int st = rd_flushHistory(r->out.history);
  if (st == RD_OK) {
    st = rd_writeCheckpoint(m, d, r->args->checkpoint);
  }
  if (st == RD_OK) {
    rdRunStatus run = {"running", NULL, rd_historyRows(r->out.history), cli_now() - r->wall_start};
    st = rd_writeSummaryStatus(m, d, r->summary, &run);
  }
  return st;
}


// after every step: the progress bar, a stop request, a periodic checkpoint
static int after_step(const rdModel* m, const rdData* d, void* user) {
  runState* r = user;
  double t = rd_time(d);
  cli_progressUpdate(&r->out.progress, t);
  if (cli_interrupted) {
    return 1;
  }
  if (r->every > 0 && (r->every_wall ? cli_now() : t) >= r->next) {
    int st = checkpoint_now(r, m, d);
    if (st != RD_OK) {
      r->out.status = st;
      return 1;
    }
    r->next = (r->every_wall ? cli_now() : t) + r->every;
  }
  return 0;
}


// open the history (continued when resuming a run that left one in DIR/incomplete) and the
// other outputs in the run's directory; the first row unless the history is continued
static int open_outputs(cliSession* s, runState* r, int resumed) {
  const rdModel* m = s->model;
  rdData* d = s->data;
  char* csv = cli_join(r->staging, "history.csv");
  struct stat sb;
  int cont = resumed && csv && stat(csv, &sb) == 0;
  if (!csv || cli_makeStaging(r->staging, cont) != 0) {
    free(csv);
    return csv ? CLI_IO : CLI_OTHER;
  }
  long kept = 0;
  // rows after the checkpoint's time are cut (and the row a run stopped by a signal wrote there)
  int st = rd_openHistory(m, csv, cont ? rd_time(d) : -INFINITY, &r->out.history, &kept);
  free(csv);
  if (st == RD_ERR_ARG) {
    cli_error("%s; remove %s or resume into another directory", rd_lastError(s->ctx), r->staging);
    return CLI_DECK;
  }
  if (st == RD_OK && rd_getOptionReal(m, "output.netcdf") == 1) {
    char* path = cli_join(r->staging, "history.nc");
    st = path ? rd_createNetcdf(m, path, &r->out.netcdf) : RD_ERR_NOMEM;
    free(path);
  }
  if (st == RD_OK && rd_getOptionReal(m, "output.vtk") == 1) {
    st = rd_createVtk(m, r->staging, &r->out.vtk);
  }
  r->last_row = -INFINITY;
  if (st == RD_OK && cont && kept > 0) {
    // the history goes on from its rows; the outputs that start afresh get this first row
    r->last_row = rd_time(d);
    if (r->out.netcdf) {
      st = rd_writeNetcdf(r->out.netcdf, m, d);
    }
    if (st == RD_OK && r->out.vtk) {
      st = rd_writeVtk(r->out.vtk, m, d);
    }
  } else if (st == RD_OK) {
    st = write_row(r, m, d);
  }
  if (st == RD_OK) {
    rdRunStatus run = {"running", NULL, rd_historyRows(r->out.history), 0};
    st = rd_writeSummaryStatus(m, d, r->summary, &run);
  }
  return st == RD_OK ? CLI_OK : cli_fail(s->ctx, st, 1);
}


// close the outputs, keeping what they hold (in DIR/incomplete); CLI_OK or the exit code
static int close_outputs(cliSession* s, runState* r) {
  int st = rd_closeHistory(&r->out.history, 1);
  if (r->out.netcdf) {
    int e = rd_closeNetcdf(&r->out.netcdf, 1);
    r->out.netcdf_written = e == RD_OK;
    st = st == RD_OK ? e : st;
  }
  if (r->out.vtk) {
    int e = rd_closeVtk(&r->out.vtk, 1);
    r->out.vtk_written = e == RD_OK;
    st = st == RD_OK ? e : st;
  }
  return st == RD_OK ? CLI_OK : cli_fail(s->ctx, st, 1);
}


// integrate; returns the status of the run (RD_OK also when interrupted)
static int integrate(cliSession* s, runState* r, double* wall) {
  const rdModel* m = s->model;
  rdData* d = s->data;
  double tend = rd_getOptionReal(m, "solver.final_time");
  struct sigaction old[2];
  cli_catchSignals(old);
  r->wall_start = cli_now();
  r->next = r->every_wall ? r->wall_start + r->every : rd_time(d) + r->every;
  rd_setStepCallback(d, after_step, r);
  cli_progressBegin(&r->out.progress, rd_time(d), tend);
  int st = cli_interrupted ? RD_OK : rd_advance(m, d, tend, observe, r);
  cli_progressEnd(&r->out.progress);
  rd_setStepCallback(d, NULL, NULL);
  *wall += cli_now() - r->wall_start;
  cli_restoreSignals(old);
  return st == RD_OK ? r->out.status : st;
}


// the redundant constraint equations removed (solver.redundant_constraints = remove)
static void print_redundant(const rdModel* m, const rdData* d) {
  int joint[8], eq[8];
  int n = rd_getRedundantConstraints(m, d, joint, eq, 8);
  if (n <= 0) {
    return;
  }
  printf(
      "removed %d redundant constraint equation%s (solver.redundant_constraints = remove; "
      "summary.json lists them):",
      n, n > 1 ? "s" : "");
  for (int k = 0; k < n && k < 8; k++) {
    printf("%s joint '%s' equation %d", k ? "," : "", rd_jointName(m, joint[k]), eq[k] + 1);
  }
  printf("%s\n", n > 8 ? ", ..." : "");
}


static void print_stats(const rdModel* model, const char* dir, const runState* r, long rows,
                        const rdData* d, double wall) {
  rdStats stats;
  rd_getStats(d, &stats);
  const char* sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
  printf("wrote %s%shistory.csv (%ld rows)%s%s%s and %s%ssummary.json\n", dir, sep, rows,
         r->out.netcdf_written ? ", " : "", r->out.netcdf_written ? dir : "",
         r->out.netcdf_written ? (*sep ? "/history.nc" : "history.nc") : "", dir, sep);
  printf("t = %.6g: %ld steps (%ld rejected), %ld Newton iterations (at most %d in a step), ",
         rd_time(d), stats.steps, stats.rejected_steps, stats.newton_iterations,
         stats.max_newton_iterations);
  // mixed stepping: the rigid sub-steps' inner iterations, counted apart
  rdModelInfo info;
  if (rd_modelInfo(model, &info) == RD_OK && info.nsubsystem > 0) {
    printf("%ld sub-step iterations, ", stats.substep_iterations);
  }
  printf("%ld factorizations, %.3g s\n", stats.factorizations, wall);
  // the rejected steps: when and why (all kept ones are in summary.json)
  int ncut = rd_stepCutCount(d);
  for (int i = 0; i < ncut && i < 3; i++) {
    rdStepCut c;
    rd_getStepCut(d, i, &c);
    printf("step cut at t = %.6g (h = %.3g): %s\n", c.t, c.h, c.reason);
  }
  if (stats.rejected_steps > 3) {
    printf("(%ld step cuts in all; the first %d are listed in %s%ssummary.json)\n",
           stats.rejected_steps, ncut, dir, sep);
  }
  if (r->out.vtk_written) {
    printf("wrote %s%sresults.pvd and %s%svtk/\n", dir, sep, dir, sep);
  }
  print_redundant(model, d);
}


// a run that did not reach its end: the last completed step as the last row, a checkpoint of
// it (periodic checkpoints asked for), the outputs closed in DIR/incomplete, a summary saying
// what happened; the error printed. Returns the exit code (0 when interrupted).
static int keep_incomplete(cliSession* s, runState* r, int st, double wall) {
  const rdModel* m = s->model;
  const rdData* d = s->data;
  char error[2048] = "";
  if (st != RD_OK) {
    const char* msg = rd_lastError(s->ctx);
    snprintf(error, sizeof(error), "%s", msg && *msg ? msg : rd_statusString(st));
  }
  int code = st != RD_OK ? cli_exitCode(st, 1) : CLI_OK;
  if (r->out.history && rd_time(d) > r->last_row) {
    (void)write_row(r, m, d);
  }
  if (r->every > 0 && r->out.history) {
    (void)rd_flushHistory(r->out.history);
    (void)rd_writeCheckpoint(m, d, r->args->checkpoint);
  }
  long rows = rd_historyRows(r->out.history);
  (void)close_outputs(s, r);
  rdRunStatus run = {st != RD_OK ? "failed" : "interrupted", st != RD_OK ? error : NULL, rows,
                     wall};
  int written = rd_writeSummaryStatus(m, d, r->summary, &run) == RD_OK;
  if (st != RD_OK) {
    cli_error("%s", error);
  }
  cli_error("%s at t = %.9g; %ld row%s in %s/history.csv%s", st != RD_OK ? "failed" : "interrupted",
            rd_time(d), rows, rows == 1 ? "" : "s", r->staging,
            written ? " (summary.json there says what happened)" : "");
  return code;
}


int cmd_run(int argc, char** argv) {
  cliDeckArgs args;
  cliSession s;
  int code = cli_startDeckCommand(argc, argv, 1, usage, &args, &s);
  if (args.help) {
    cli_endDeckCommand(&args, &s);
    return code;
  }
  runState r;
  memset(&r, 0, sizeof(r));
  r.args = &args;
  if (code == CLI_OK && args.every) {
    code = cli_parseInterval("run", args.every, &r.every, &r.every_wall);
  }
  char* dir = NULL;
  size_t created = 0;
  int lock = -1;
  double wall = 0;

  // the starting state: nothing is written before it is known
  if (code == CLI_OK) {
    double wall0 = cli_now();
    int st = args.resume
                 ? rd_readCheckpointFlags(s.model, s.data, args.resume,
                                          args.resume_changed ? RD_CHECKPOINT_ACCEPT_CHANGES : 0)
                 : rd_initialize(s.model, s.data);
    wall += cli_now() - wall0;
    if (st != RD_OK) {
      // a checkpoint of another model is an error of the input (exit 2), as a deck's
      code = cli_fail(s.ctx, st, !args.resume);
      if (st == RD_ERR_ARG && args.resume && !args.resume_changed &&
          strstr(rd_lastError(s.ctx), "written for another model")) {
        cli_error("--resume-changed resumes with changed values");
      }
    }
  }
  // the directory, its lock, the run's own directory DIR/incomplete
  if (code == CLI_OK) {
    dir = cli_outputDir(args.deck, args.outdir, "");
    r.staging = dir ? cli_join(dir, "incomplete") : NULL;
    r.summary = r.staging ? cli_join(r.staging, "summary.json") : NULL;
    if (!r.summary) {
      cli_error("out of memory");
      code = CLI_OTHER;
    } else if (cli_makeDirs(dir, &created) != 0 || cli_lockDir(dir, &lock) != 0) {
      code = CLI_IO;
    }
  }
  if (code == CLI_OK) {
    code = open_outputs(&s, &r, args.resume != NULL);
  }
  int st = RD_OK;
  if (code == CLI_OK) {
    st = integrate(&s, &r, &wall);
  }
  double tend = code == CLI_OK ? rd_getOptionReal(s.model, "solver.final_time") : 0;
  if (code == CLI_OK && st == RD_OK && !cli_interrupted && rd_time(s.data) == tend) {
    // success: the outputs closed, the final checkpoint, the summary, then all into DIR
    long rows = rd_historyRows(r.out.history);
    code = close_outputs(&s, &r);
    if (code == CLI_OK && args.checkpoint) {
      int e = rd_writeCheckpoint(s.model, s.data, args.checkpoint);
      code = e == RD_OK ? CLI_OK : cli_fail(s.ctx, e, 1);
    }
    if (code == CLI_OK) {
      rdRunStatus run = {"ok", NULL, rows, wall};
      int e = rd_writeSummaryStatus(s.model, s.data, r.summary, &run);
      code = e == RD_OK ? CLI_OK : cli_fail(s.ctx, e, 1);
    }
    if (code == CLI_OK && cli_publish(dir, r.staging) != 0) {
      code = CLI_IO;
    }
    if (code == CLI_OK) {
      print_stats(s.model, dir, &r, rows, s.data, wall);
    } else {
      // all rows computed, but the run's files could not all be written: they stay where
      // they are, and the earlier results in DIR too
      char error[2048];
      snprintf(error, sizeof(error), "%s", rd_lastError(s.ctx));
      rdRunStatus run = {"failed", *error ? error : "cannot publish the results", rows, wall};
      (void)rd_writeSummaryStatus(s.model, s.data, r.summary, &run);
      cli_error("failed at the end; %ld rows in %s/history.csv", rows, r.staging);
    }
  } else if (code == CLI_OK) {
    code = keep_incomplete(&s, &r, st != RD_OK ? st : cli_interrupted ? RD_OK : RD_ERR_STATE, wall);
  } else if (lock < 0 && dir) {
    // nothing was written: the directories this run created go again
    cli_removeDirs(dir, created);
  }
  rd_closeHistory(&r.out.history, 1);
  rd_closeNetcdf(&r.out.netcdf, 1);
  rd_closeVtk(&r.out.vtk, 1);
  if (lock >= 0) {
    close(lock);
  }
  free(r.summary);
  free(r.staging);
  free(dir);
  cli_endDeckCommand(&args, &s);
  if (cli_interrupted) {
    // end the way the signal would have, now that the files are in order
    int sig = cli_interrupted;
    signal(sig, SIG_DFL);
    raise(sig);
  }
  return code;
}
