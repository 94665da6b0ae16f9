// SPDX-License-Identifier: MIT
// The time integration of an opened deck with its result files (history.csv, history.nc, the
// VTK series), shared by `run` and by the cases of `sweep`; SIGINT and SIGTERM stop it.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

volatile sig_atomic_t cli_interrupted = 0;

static void on_signal(int sig) {
  cli_interrupted = sig;
}


void cli_catchSignals(struct sigaction old[2]) {
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


void cli_restoreSignals(const struct sigaction old[2]) {
  sigaction(SIGINT, &old[0], NULL);
  sigaction(SIGTERM, &old[1], NULL);
}


int cli_writeRow(cliOutputs* r, const rdModel* m, const rdData* d) {
  int st = rd_writeHistory(r->history, m, d);
  if (st == RD_OK && r->netcdf) {
    st = rd_writeNetcdf(r->netcdf, m, d);
  }
  if (st == RD_OK && r->vtk) {
    st = rd_writeVtk(r->vtk, m, d);
  }
  if (st == RD_OK && r->extra) {
    st = r->extra(m, d, r->extra_user);
  }
  r->rows += st == RD_OK;
  return st;
}


static int observe(const rdModel* m, const rdData* d, void* user) {
  cliOutputs* r = user;
  int st = cli_writeRow(r, m, d);
  if (st != RD_OK) {
    r->status = st;
    return 1;
  }
  return 0;
}


// after every step: the progress bar, and a signal stops the run (within one step)
static int after_step(const rdModel* m, const rdData* d, void* user) {
  (void)m;
  cliOutputs* r = user;
  cli_progressUpdate(&r->progress, rd_time(d));
  return cli_interrupted != 0;
}


int cli_integrate(cliSession* s, const char* dir, cliOutputs* r, double* wall) {
  const rdModel* m = s->model;
  rdData* d = s->data;
  double tend = rd_getOptionReal(m, "solver.final_time");
  int st = rd_createHistory(m, dir, &r->history);
  if (st == RD_OK) {
    st = rd_writeHistory(r->history, m, d);
  }
  if (st == RD_OK && rd_getOptionReal(m, "output.netcdf") == 1) {
    char* path = cli_join(dir, "history.nc");
    if (!path) {
      cli_error("out of memory");
      return CLI_OTHER;
    }
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
  if (st == RD_OK && r->extra) {
    st = r->extra(m, d, r->extra_user);
  }
  if (st != RD_OK) {
    return cli_fail(s->ctx, st, 1);
  }
  r->rows = 1;

  struct sigaction old[2];
  cli_interrupted = 0;
  cli_catchSignals(old);
  double wall0 = cli_now();
  cli_progressBegin(&r->progress, rd_time(d), tend);
  rd_setStepCallback(d, after_step, r);
  st = rd_advance(m, d, tend, observe, r);
  rd_setStepCallback(d, NULL, NULL);
  cli_progressEnd(&r->progress);
  *wall += cli_now() - wall0;
  cli_restoreSignals(old);

  if (st == RD_OK && r->status != RD_OK) {
    st = r->status;
  }
  if (st != RD_OK) {
    return cli_fail(s->ctx, st, 1);
  }
  if (cli_interrupted) {
    cli_error("interrupted at t = %g; no results written", rd_time(d));
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


void cli_discardOutputs(cliOutputs* r, const char* dir, int committed) {
  rd_closeHistory(&r->history, 0);
  rd_closeNetcdf(&r->netcdf, 0);
  rd_closeVtk(&r->vtk, 0);
  if (committed) {
    // a history without its summary, and the VTK index of a failed run
    static const char* const names[] = {"history.csv", "results.pvd"};
    for (int k = 0; k < 2; k++) {
      char* path = cli_join(dir, names[k]);
      if (path) {
        remove(path);
      }
      free(path);
    }
  }
}
