// SPDX-License-Identifier: MIT
// The sweep driver: arguments, the sweep directory (index.csv, the cases' results, the tables),
// which cases to run, and the cases one after another in this process.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"

const char cli_sweepUsage[] =
    "usage: rodrigues sweep SWEEP.yaml [-o DIR] [--jobs K] [--retry-failed] [--case ID]...\n"
    "                       [--checkpoint-every INTERVAL]\n"
    "       mpirun -n N rodrigues sweep SWEEP.yaml [-o DIR] ...    (or srun)\n"
    "\n"
    "Run the cases of a sweep file (a base deck and --set overrides per case, docs/sweep.md):\n"
    "each case's results into DIR/cases/<id>/ (as 'rodrigues run' writes them, plus\n"
    "result.json), the cases in DIR/index.csv, the collected quantities of every case in\n"
    "DIR/sweep.csv and DIR/sweep.nc. A failing case is recorded and the others go on.\n"
    "Running the command again skips the cases that have a result and runs the rest (missing,\n"
    "interrupted, crashed, or run with other inputs); cases that failed in the deck, the model\n"
    "or the numerics are run again only with --retry-failed.\n"
    "\n"
    "  -o, --output DIR  the sweep directory (default: out/<SWEEP's base name>)\n"
    "  -j, --jobs K      run K cases at a time, each in a process of its own\n"
    "  --retry-failed    run the failed cases again too\n"
    "  --case ID         run this case (an id of index.csv, or its number), even if it has a\n"
    "                    result; repeatable; the other cases are left as they are\n"
    "  --checkpoint-every INTERVAL\n"
    "                    checkpoint each case into DIR/cases/<id>/ every INTERVAL of\n"
    "                    simulated time (0.5) or wall-clock time (30s, 5min, 2h); a case\n"
    "                    that was killed or interrupted resumes from its checkpoint\n"
    "  -h, --help        show this help\n"
    "\n"
    "Under mpirun or srun with N > 1 processes, 'rodrigues sweep' hands over to\n"
    "'rodrigues-sweep' (built when Open MPI is found): rank 0 hands the cases out as the\n"
    "other ranks finish them. Exit status: 0 when every case is ok, 3 when some is not\n"
    "(see sweep.csv), 1, 2, 4, 5 as for 'rodrigues run' (see 'rodrigues --help').\n";


int cli_sweepParseArgs(int argc, char** argv, cliSweepArgs* a) {
  memset(a, 0, sizeof(*a));
  const char* cmd = argv[0];
  a->only = malloc((size_t)(argc > 0 ? argc : 1) * sizeof(*a->only));
  if (!a->only) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    int has_value = i + 1 < argc;
    if (s[0] != '-' || !s[1]) {
      if (a->file) {
        return cli_usageError(cmd, "more than one sweep file given:", s);
      }
      a->file = s;
    } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      a->help = 1;
    } else if (!strcmp(s, "-o") || !strcmp(s, "--output")) {
      if (!has_value || !*argv[i + 1]) {
        return cli_usageError(cmd, "missing directory after", s);
      }
      a->outdir = argv[++i];
    } else if (!strcmp(s, "-j") || !strcmp(s, "--jobs")) {
      char* end = NULL;
      long k = has_value ? strtol(argv[i + 1], &end, 10) : 0;
      if (!has_value || !end || *end || k < 1 || k > 4096) {
        return cli_usageError(cmd, "--jobs takes a number of processes from 1 to 4096, got",
                              has_value ? argv[i + 1] : NULL);
      }
      a->jobs = (int)k;
      i++;
    } else if (!strcmp(s, "--checkpoint-every")) {
      double every;
      int wall;
      if (!has_value || cli_parseInterval(cmd, argv[i + 1], &every, &wall) != CLI_OK) {
        return has_value ? CLI_USAGE : cli_usageError(cmd, "missing interval after", s);
      }
      a->every = argv[++i];
    } else if (!strcmp(s, "--retry-failed")) {
      a->retry_failed = 1;
    } else if (!strcmp(s, "--case") || !strcmp(s, "--worker")) {
      if (!has_value || !*argv[i + 1]) {
        return cli_usageError(cmd, "missing case id after", s);
      }
      if (s[2] == 'c') {
        a->only[a->nonly++] = argv[++i];
      } else {
        a->worker = argv[++i];
      }
    } else {
      return cli_usageError(cmd, "unknown option", s);
    }
  }
  if (!a->file && !a->help) {
    return cli_usageError(cmd, "missing the sweep file", NULL);
  }
  return CLI_OK;
}


void cli_sweepFreeArgs(cliSweepArgs* a) {
  free((void*)a->only);
  a->only = NULL;
  a->nonly = 0;
}


char* cli_sweepCaseDir(const cliSweep* s, int i) {
  const char* id = rd_sweepCaseId(s->sw, i);
  char* p = malloc(strlen(s->dir) + strlen(id) + sizeof("/cases/"));
  if (p) {
    sprintf(p, "%s/cases/%s", s->dir, id);
  }
  return p;
}


// what the earlier runs left: every case's result
static int read_results(cliSweep* s) {
  for (int i = 0; i < s->ncase; i++) {
    char* dir = cli_sweepCaseDir(s, i);
    char* path = dir ? cli_join(dir, "result.json") : NULL;
    int st = path ? rd_readCaseResult(s->sw, i, path, s->results + i) : RD_ERR_NOMEM;
    free(path);
    free(dir);
    if (st != RD_OK) {
      return cli_fail(s->ctx, st, 0);
    }
  }
  return CLI_OK;
}


// the cases to run: --case ones, or those whose result says so
static int plan(const cliSweepArgs* a, cliSweep* s) {
  for (int k = 0; k < a->nonly; k++) {
    int i = rd_sweepFindCase(s->sw, a->only[k]);
    if (i < 0) {
      fprintf(stderr, "rodrigues sweep: no case '%s' in %s (index.csv lists them)\n", a->only[k],
              a->file);
      return CLI_USAGE;
    }
    s->todo[s->ntodo++] = i;
  }
  if (a->nonly) {
    return CLI_OK;
  }
  int count[RD_CASE_STALE + 1] = {0};
  for (int i = 0; i < s->ncase; i++) {
    rdCaseState st = s->results[i].state;
    count[st]++;
    if (st != RD_CASE_OK && (st != RD_CASE_FAILED || a->retry_failed)) {
      s->todo[s->ntodo++] = i;
    }
  }
  printf("%d case%s in %s", s->ncase, s->ncase == 1 ? "" : "s", s->dir);
  if (count[RD_CASE_OK] || count[RD_CASE_FAILED]) {
    printf(": %d done before (%d ok, %d failed)", count[RD_CASE_OK] + count[RD_CASE_FAILED],
           count[RD_CASE_OK], count[RD_CASE_FAILED]);
  }
  if (count[RD_CASE_STALE]) {
    printf(", %d with results of other inputs", count[RD_CASE_STALE]);
  }
  printf("; %d to run\n", s->ntodo);
  fflush(stdout);
  return CLI_OK;
}


int cli_sweepOpen(const cliSweepArgs* a, int worker, cliSweep* s) {
  memset(s, 0, sizeof(*s));
  s->lock = -1;
  s->wall0 = cli_now();
  int st = rd_createContext(&s->ctx, NULL);
  if (st != RD_OK) {
    return cli_fail(NULL, st, 0);
  }
  rd_setWarningHandler(s->ctx, cli_warning, NULL);
  st = rd_readSweep(s->ctx, a->file, &s->sw);
  if (st != RD_OK) {
    return cli_fail(s->ctx, st, 0);
  }
  if (a->every) {
    (void)cli_parseInterval("sweep", a->every, &s->every, &s->every_wall);
  }
  s->ncase = rd_sweepCaseCount(s->sw);
  s->nquantity = rd_sweepQuantityCount(s->sw);
  s->dir = cli_outputDir(a->file, a->outdir, "");
  s->results = calloc((size_t)s->ncase, sizeof(rdCaseResult));
  s->values = calloc((size_t)s->ncase * (size_t)s->nquantity + 1, sizeof(double));
  s->todo = calloc((size_t)s->ncase + (size_t)a->nonly + 1, sizeof(int));
  if (!s->dir || !s->results || !s->values || !s->todo) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  for (int i = 0; i < s->ncase; i++) {
    s->results[i].values = s->values + (size_t)i * (size_t)s->nquantity;
  }
  if (worker) {
    return CLI_OK;
  }
  char* cases = cli_join(s->dir, "cases");
  int code = cases && cli_makeDirs(s->dir, NULL) == 0 && cli_lockDir(s->dir, &s->lock) == 0 &&
                     cli_makeDirs(cases, NULL) == 0
                 ? CLI_OK
                 : CLI_IO;
  free(cases);
  if (code == CLI_OK) {
    st = rd_writeSweepIndex(s->sw, s->dir);
    code = st == RD_OK ? read_results(s) : cli_fail(s->ctx, st, 0);
  }
  return code == CLI_OK ? plan(a, s) : code;
}


void cli_sweepClose(cliSweep* s) {
  if (s->lock >= 0) {
    close(s->lock);
    s->lock = -1;
  }
  free(s->todo);
  free(s->values);
  free(s->results);
  free(s->dir);
  rd_destroySweep(&s->sw);
  rd_destroyContext(&s->ctx);
}


void cli_sweepCaseEnded(cliSweep* s, int i, const char* crash) {
  rdCaseResult* r = s->results + i;
  char* dir = cli_sweepCaseDir(s, i);
  char* path = dir ? cli_join(dir, "result.json") : NULL;
  if (!path || rd_readCaseResult(s->sw, i, path, r) != RD_OK) {
    r->state = RD_CASE_MISSING;
  }
  free(path);
  free(dir);
  if (r->state == RD_CASE_MISSING && crash) {
    r->state = RD_CASE_CRASHED;
    snprintf(r->error, sizeof(r->error), "%s", crash);
  }
  s->ndone++;
  s->nfailed += r->state != RD_CASE_OK;
  int width = snprintf(NULL, 0, "%d", s->ntodo);
  printf("[%*d/%d] %s: %s", width, s->ndone, s->ntodo, rd_sweepCaseId(s->sw, i),
         rd_caseStateName(r->state));
  if (isfinite(r->wall_time)) {
    printf(", %.3g s", r->wall_time);
  }
  printf("%s%s\n", r->error[0] ? ": " : "", r->error);
  fflush(stdout);
}


void cli_sweepSerial(cliSweep* s) {
  struct sigaction old[2];
  cli_catchSignals(old);
  for (int k = 0; k < s->ntodo && !cli_interrupted; k++) {
    int i = s->todo[k];
    cli_sweepRunCase(s, i, s->results + i);
    cli_sweepCaseEnded(s, i, NULL);
  }
  cli_restoreSignals(old);
}


int cli_sweepFinish(cliSweep* s, const char* extra) {
  int count[RD_CASE_STALE + 1] = {0};
  for (int i = 0; i < s->ncase; i++) {
    count[s->results[i].state]++;
  }
  int st = rd_writeSweepTables(s->sw, s->results, s->dir);
  if (st != RD_OK) {
    return cli_fail(s->ctx, st, 0);
  }
  printf("%d ok, %d failed", count[RD_CASE_OK], count[RD_CASE_FAILED]);
  if (count[RD_CASE_ERROR] || count[RD_CASE_CRASHED]) {
    printf(", %d error%s", count[RD_CASE_ERROR] + count[RD_CASE_CRASHED],
           count[RD_CASE_ERROR] + count[RD_CASE_CRASHED] == 1 ? "" : "s");
  }
  if (count[RD_CASE_MISSING] + count[RD_CASE_STALE]) {
    printf(", %d not run", count[RD_CASE_MISSING] + count[RD_CASE_STALE]);
  }
  printf(" (%d run now, %.3g s); wrote %s/sweep.csv and %s/sweep.nc\n", s->ndone,
         cli_now() - s->wall0, s->dir, s->dir);
  if (extra && *extra) {
    printf("%s\n", extra);
  }
  if (cli_interrupted) {
    fprintf(stderr, "rodrigues: sweep interrupted; run the same command again to go on\n");
  }
  return count[RD_CASE_OK] == s->ncase ? CLI_OK : CLI_NUMERIC;
}
