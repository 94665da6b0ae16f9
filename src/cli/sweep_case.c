// SPDX-License-Identifier: MIT
// One case of a sweep in this process: the base deck with the case's overrides, run as `rodrigues
// run` runs it into DIR/cases/<id>/, its quantities collected at every history row, and its
// result written to DIR/cases/<id>/result.json whatever happened.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"

// the observer's share of the sweep: one sample per history row
static int collect(const rdModel* m, const rdData* d, void* user) {
  (void)m;
  return rd_collect(user, d);
}


// remove what an earlier run of the case left, so that no old file passes for a new one; with
// checkpoints the history and the checkpoint stay for the case to resume from (sweep_resume.c)
static void clear_case(const char* dir, int resumable) {
  static const char* const names[] = {
      "result.json",    "summary.json",   "history.nc",      "results.pvd",      "history.csv",
      ".history.csv.0", ".history.csv.1", "checkpoint.ckpt", "checkpoint.state", "resumed.txt"};
  for (int k = 0; k < (resumable ? 4 : 10); k++) {
    char* path = cli_join(dir, names[k]);
    if (path) {
      remove(path);
    }
    free(path);
  }
}


// the state a failure with this exit code leaves: a deck, model or numerical failure is repeated
// by a rerun, an I/O error, lack of memory or an interruption may not be
static rdCaseState failure_state(int code) {
  return code == CLI_DECK || code == CLI_NUMERIC ? RD_CASE_FAILED : RD_CASE_ERROR;
}


// the run itself; returns an exit code, the error in r->error
static int run(cliSweep* s, int i, const char* dir, rdCaseResult* r, rdCollector** col,
               double* wall) {
  const char* const* set = NULL;
  int nset = rd_sweepOverrides(s->sw, i, &set);
  cliSession ss;
  double t0 = cli_now();
  int code = cli_loadModel(rd_sweepDeck(s->sw), set, nset, &ss);
  if (code == CLI_OK) {
    int st = rd_createData(ss.model, &ss.data);
    if (st == RD_OK) {
      st = rd_createCollector(s->sw, ss.model, col);
    }
    if (st == RD_OK && !(s->every > 0)) {
      st = rd_initialize(ss.model, ss.data);
    }
    if (st != RD_OK) {
      code = cli_fail(ss.ctx, st, st != RD_ERR_DECK);
    }
  }
  *wall = cli_now() - t0;
  cliOutputs out;
  memset(&out, 0, sizeof(out));
  out.extra = collect;
  out.extra_user = *col;
  int committed = 0;
  if (code == CLI_OK) {
    code = s->every > 0 ? cli_sweepIntegrateResumable(s, i, &ss, dir, &out, *col, wall)
                        : cli_integrate(&ss, dir, &out, wall);
    committed = code == CLI_OK;
  }
  if (code == CLI_OK) {
    char* summary = cli_join(dir, "summary.json");
    int st = summary ? rd_writeSummary(ss.model, ss.data, summary, *wall) : RD_ERR_NOMEM;
    free(summary);
    if (st != RD_OK) {
      code = cli_fail(ss.ctx, st, 1);
    }
  }
  if (code == CLI_OK) {
    rdStats stats;
    rd_getStats(ss.data, &stats);
    r->steps = stats.steps;
    r->rejected_steps = stats.rejected_steps;
    rd_collectedValues(*col, r->values);
  } else {
    cli_discardOutputs(&out, dir, committed);
    if (ss.data) {
      rdStats stats;
      rd_getStats(ss.data, &stats);
      r->steps = stats.steps;
      r->rejected_steps = stats.rejected_steps;
    }
  }
  rd_destroyCollector(col);
  cli_closeSession(&ss);
  *wall = cli_now() - t0;
  return code;
}


int cli_sweepRunCase(cliSweep* s, int i, rdCaseResult* r) {
  r->state = RD_CASE_ERROR;
  r->exit_code = CLI_OTHER;
  r->wall_time = NAN;
  r->steps = r->rejected_steps = 0;
  for (int q = 0; q < s->nquantity; q++) {
    r->values[q] = NAN;
  }
  r->error[0] = '\0';
  char* dir = cli_sweepCaseDir(s, i);
  char* result = dir ? cli_join(dir, "result.json") : NULL;
  if (!result) {
    free(dir);
    snprintf(r->error, sizeof(r->error), "out of memory");
    return CLI_OTHER;
  }
  // every message of the case goes into its result, none to the terminal
  cli_captureErrors(r->error, sizeof(r->error));
  // the case directory's lock, held until its result is written
  int lock = -1;
  int code = cli_makeDirs(dir, NULL) == 0 && cli_lockDir(dir, &lock) == 0 ? CLI_OK : CLI_IO;
  if (code == CLI_OK) {
    clear_case(dir, s->every > 0);
    rdCollector* col = NULL;
    double wall = 0;
    code = run(s, i, dir, r, &col, &wall);
    r->wall_time = wall;
  }
  cli_captureErrors(NULL, 0);
  r->exit_code = code;
  r->state = code == CLI_OK ? RD_CASE_OK : failure_state(code);
  if (code == CLI_OK) {
    r->error[0] = '\0';
  }
  int st = rd_writeCaseResult(s->sw, i, r, result);
  if (st != RD_OK) {
    fprintf(stderr, "rodrigues: case '%s': %s\n", rd_sweepCaseId(s->sw, i), rd_lastError(s->ctx));
    code = CLI_IO;
  }
  if (lock >= 0) {
    close(lock);
  }
  free(result);
  free(dir);
  return code;
}
