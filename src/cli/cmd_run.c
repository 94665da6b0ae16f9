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


static void print_stats(const rdModel* model, const char* dir, const cliOutputs* r, const rdData* d,
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
  cliOutputs r;
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
      cli_error("out of memory");
      code = CLI_OTHER;
    } else {
      sprintf(summary, "%s%ssummary.json", dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
      code = cli_makeDirs(dir, &created) == 0 ? CLI_OK : CLI_IO;
    }
  }
  int committed = 0;
  if (code == CLI_OK) {
    code = cli_integrate(&s, dir, &r, &wall);
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
    if (dir) {
      cli_discardOutputs(&r, dir, committed);
      cli_removeDirs(dir, created);
    }
  }
  free(summary);
  free(dir);
  cli_endDeckCommand(&args, &s);
  if (cli_interrupted) {
    // end the way the signal would have, now that the files are cleaned up
    int sig = cli_interrupted;
    signal(sig, SIG_DFL);
    raise(sig);
  }
  return code;
}
