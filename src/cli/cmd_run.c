// SPDX-License-Identifier: MIT
// rodrigues run: integrate a deck to its final time, write history.csv and summary.json.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: rodrigues run DECK [-o DIR] [--set KEY=VALUE]... [--checkpoint FILE] [--resume FILE]\n"
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
    "  --resume FILE        start from the state in FILE (a checkpoint of the same model)\n"
    "                       instead of the initial conditions; e.g. with\n"
    "                       --set solver.final_time=... to continue a run\n"
    "  -h, --help           show this help\n"
    "\n"
    "Files appear only when the run succeeds: history.csv is written as a hidden\n"
    ".history.csv.partial and renamed at the end, summary.json likewise. On any error\n"
    "nothing is left behind and the exit status says why (see 'rodrigues --help').\n"
    "A progress bar is drawn on stderr when it is a terminal and CI is not set.\n";

// set by SIGINT / SIGTERM; the observer stops the run at the next output row
static volatile sig_atomic_t interrupted = 0;

static void on_signal(int sig) {
  interrupted = sig;
}


typedef struct runState_ {
  rdHistory* history;
  rdNetcdf* netcdf;  // DIR/history.nc when output.netcdf is set
  int netcdf_written;
  rdVtk* vtk;  // DIR/results.pvd and DIR/vtk when output.vtk is set
  int vtk_written;
  cliProgress progress;
  int status;  // first failure of the observer
  long rows;   // history rows written
} runState;


static int observe(const rdModel* m, const rdData* d, void* user) {
  runState* r = user;
  int st = rd_writeHistory(r->history, m, d);
  if (st == RD_OK && r->netcdf) {
    st = rd_writeNetcdf(r->netcdf, m, d);
  }
  if (st == RD_OK && r->vtk) {
    st = rd_writeVtk(r->vtk, m, d);
  }
  if (st != RD_OK) {
    r->status = st;
    return 1;
  }
  r->rows++;
  cli_progressUpdate(&r->progress, rd_time(d));
  return interrupted != 0;
}


// catch SIGINT and SIGTERM once (SA_RESETHAND: a second signal ends the program at once); a
// signal ignored by the parent stays ignored
static void catch_signals(struct sigaction old[2]) {
  static const int sigs[2] = {SIGINT, SIGTERM};
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int k = 0; k < 2; k++) {
    sigaction(sigs[k], NULL, &old[k]);
    if (old[k].sa_handler != SIG_IGN) {
      sigaction(sigs[k], &sa, NULL);
    }
  }
}


static void restore_signals(const struct sigaction old[2]) {
  sigaction(SIGINT, &old[0], NULL);
  sigaction(SIGTERM, &old[1], NULL);
}


// integrate and write the history; returns an exit code, the error already printed
static int integrate(cliSession* s, const char* dir, runState* r, double* wall) {
  const rdModel* m = s->model;
  rdData* d = s->data;
  double tend = rd_getOptionReal(m, "solver.final_time");
  int st = rd_createHistory(m, dir, &r->history);
  if (st == RD_OK) {
    st = rd_writeHistory(r->history, m, d);
  }
  if (st == RD_OK && rd_getOptionReal(m, "output.netcdf") == 1) {
    char* path = malloc(strlen(dir) + sizeof("/history.nc"));
    if (!path) {
      fprintf(stderr, "rodrigues: out of memory\n");
      return CLI_OTHER;
    }
    sprintf(path, "%s%shistory.nc", dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
    st = rd_createNetcdf(m, path, &r->netcdf);
    free(path);
    if (st == RD_OK) {
      st = rd_writeNetcdf(r->netcdf, m, d);
    }
  }
  if (st == RD_OK && rd_getOptionReal(m, "output.vtk") == 1) {
    st = rd_createVtk(m, dir, &r->vtk);
    if (st == RD_OK) {
      st = rd_writeVtk(r->vtk, m, d);
    }
  }
  if (st != RD_OK) {
    return cli_fail(s->ctx, st, 1);
  }
  r->rows = 1;

  struct sigaction old[2];
  interrupted = 0;
  catch_signals(old);
  double wall0 = cli_now();
  cli_progressBegin(&r->progress, rd_time(d), tend);
  st = rd_advance(m, d, tend, observe, r);
  cli_progressEnd(&r->progress);
  *wall += cli_now() - wall0;
  restore_signals(old);

  if (st == RD_OK && r->status != RD_OK) {
    st = r->status;
  }
  if (st != RD_OK) {
    return cli_fail(s->ctx, st, 1);
  }
  if (interrupted) {
    fprintf(stderr, "rodrigues: interrupted at t = %g; no results written\n", rd_time(d));
    return CLI_OTHER;
  }
  st = rd_closeHistory(&r->history, 1);
  if (st == RD_OK && r->netcdf) {
    st = rd_closeNetcdf(&r->netcdf, 1);
    r->netcdf_written = st == RD_OK;
  }
  if (st == RD_OK && r->vtk) {
    st = rd_closeVtk(&r->vtk, 1);
    r->vtk_written = st == RD_OK;
  }
  return st == RD_OK ? CLI_OK : cli_fail(s->ctx, st, 1);
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


static void print_stats(const rdModel* model, const char* dir, const runState* r, const rdData* d,
                        double wall) {
  rdStats stats;
  rd_getStats(d, &stats);
  const char* sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
  printf("wrote %s%shistory.csv (%ld rows)%s%s%s and %s%ssummary.json\n", dir, sep, r->rows,
         r->netcdf_written ? ", " : "", r->netcdf_written ? dir : "",
         r->netcdf_written ? (*sep ? "/history.nc" : "history.nc") : "", dir, sep);
  printf(
      "t = %.6g: %ld steps (%ld rejected), %ld Newton iterations (at most %d in a step), "
      "%ld factorizations, %.3g s\n",
      rd_time(d), stats.steps, stats.rejected_steps, stats.newton_iterations,
      stats.max_newton_iterations, stats.factorizations, wall);
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
  if (r->vtk_written) {
    printf("wrote %s%sresults.pvd and %s%svtk/\n", dir, sep, dir, sep);
  }
  print_redundant(model, d);
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
  char* dir = NULL;
  char* summary = NULL;
  size_t created = 0;
  double wall = 0;

  if (code == CLI_OK) {
    double wall0 = cli_now();
    int st = args.resume ? rd_readCheckpoint(s.model, s.data, args.resume)
                         : rd_initialize(s.model, s.data);
    wall += cli_now() - wall0;
    if (st != RD_OK) {
      code = cli_fail(s.ctx, st, 1);
    }
  }
  if (code == CLI_OK) {
    dir = cli_outputDir(args.deck, args.outdir, "");
    summary = dir ? malloc(strlen(dir) + sizeof("/summary.json")) : NULL;
    if (!summary) {
      fprintf(stderr, "rodrigues: out of memory\n");
      code = CLI_OTHER;
    } else {
      sprintf(summary, "%s%ssummary.json", dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
      code = cli_makeDirs(dir, &created) == 0 ? CLI_OK : CLI_IO;
    }
  }
  int committed = 0;
  if (code == CLI_OK) {
    code = integrate(&s, dir, &r, &wall);
    committed = code == CLI_OK;
  }
  if (code == CLI_OK && args.checkpoint) {
    int st = rd_writeCheckpoint(s.model, s.data, args.checkpoint);
    if (st != RD_OK) {
      code = cli_fail(s.ctx, st, 1);
    }
  }
  if (code == CLI_OK) {
    int st = rd_writeSummary(s.model, s.data, summary, wall);
    if (st != RD_OK) {
      code = cli_fail(s.ctx, st, 1);
    }
  }
  if (code == CLI_OK) {
    print_stats(s.model, dir, &r, s.data, wall);
  } else {
    // leave nothing behind: the partial history, a history without its summary, new directories
    rd_closeHistory(&r.history, 0);
    rd_closeNetcdf(&r.netcdf, 0);
    rd_closeVtk(&r.vtk, 0);
    if (committed) {
      size_t n = strlen(summary) - strlen("summary.json");
      strcpy(summary + n, "history.csv");
      remove(summary);
      strcpy(summary + n, "results.pvd");  // a failed run leaves no VTK index
      remove(summary);
    }
    if (dir) {
      cli_removeDirs(dir, created);
    }
  }
  free(summary);
  free(dir);
  cli_endDeckCommand(&args, &s);
  if (interrupted) {
    // end the way the signal would have, now that the files are cleaned up
    int sig = interrupted;
    signal(sig, SIG_DFL);
    raise(sig);
  }
  return code;
}
