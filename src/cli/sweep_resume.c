// SPDX-License-Identifier: MIT
// A sweep case with periodic checkpoints (`rodrigues sweep --checkpoint-every`): its history is
// written in place, and every interval its rows are flushed, the collector's state and the
// integrator's state are written atomically into the case's own directory (checkpoint.state,
// checkpoint.ckpt). A rerun of a case that was killed or interrupted resumes from them, with the
// rows up to the checkpoint kept, as `rodrigues run --resume` continues its history: the case's
// history.csv and result.json are those of an uninterrupted run, bit for bit.
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep.h"

static const char state_magic[] = "rodrigues sweep case state 1";

// the files of a case's checkpoint, beside its outputs
typedef struct resumable_ {
  cliSweep* s;
  int i;
  const char* dir;
  cliOutputs* out;
  rdCollector* col;
  char* csv;         // DIR/history.csv
  char* ckpt;        // DIR/checkpoint.ckpt
  char* state;       // DIR/checkpoint.state: the collector's state at the checkpoint
  double* buf;       // 2 * nquantity + 1 numbers of the collector's state
  double* prev;      // the state written before (2 * nquantity + 1)
  double prev_time;  // its time
  long prev_rows;    // its history rows, -1: none yet
  double next;       // when the next checkpoint is due (simulated or wall time)
  double wall0;      // wall clock at the start of the integration
  double resumed;    // the time resumed from, NAN when started from the initial conditions
} resumable;


// remove DIR/NAME
static void remove_in(const char* dir, const char* name) {
  char* path = cli_join(dir, name);
  if (path) {
    remove(path);
  }
  free(path);
}


// the history's copies beside it (rd_openHistory), the checkpoint and its state
static void remove_checkpoint(const resumable* c, int with_history) {
  static const char* const names[] = {".history.csv.0", ".history.csv.1", "checkpoint.ckpt",
                                      "checkpoint.state", "history.csv"};
  for (int k = 0; k < 4 + (with_history != 0); k++) {
    remove_in(c->dir, names[k]);
  }
}


// one state of the collector, with the time and the history rows it belongs to
static void print_entry(FILE* f, double t, long rows, const double* v, int n) {
  fprintf(f, "time %a\nrows %ld\n", t, rows);
  for (int k = 0; k < n; k++) {
    fprintf(f, "%a\n", v[k]);
  }
}


// the collector's state at this time, and the one before it (the checkpoint file still holds
// that one until it is replaced), written atomically
static int write_state(resumable* c, const rdModel* m, const rdData* d) {
  int n = 2 * c->s->nquantity + 1;
  rd_getCollectorState(c->col, c->buf);
  double t = rd_time(d);
  long rows = rd_historyRows(c->out->history);
  size_t len = strlen(c->state);
  char* tmp = malloc(len + 5);
  if (!tmp) {
    return RD_ERR_NOMEM;
  }
  memcpy(tmp, c->state, len);
  memcpy(tmp + len, ".tmp", 5);
  FILE* f = fopen(tmp, "w");
  int ok = f != NULL;
  if (ok) {
    fprintf(f, "%s\nfingerprint %s\nquantities %d\nentries %d\n", state_magic,
            rd_sweepFingerprint(c->s->sw, c->i), c->s->nquantity, 1 + (c->prev_rows >= 0));
    print_entry(f, t, rows, c->buf, n);
    if (c->prev_rows >= 0) {
      print_entry(f, c->prev_time, c->prev_rows, c->prev, n);
    }
    ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
  }
  ok = ok && rename(tmp, c->state) == 0;
  if (!ok) {
    cli_error("cannot write '%s'", c->state);
    remove(tmp);
  } else {
    memcpy(c->prev, c->buf, (size_t)n * sizeof(double));
    c->prev_time = t;
    c->prev_rows = rows;
  }
  free(tmp);
  (void)m;
  return ok ? RD_OK : RD_ERR_IO;
}


// a number of the state file
static int read_number(FILE* f, double* x) {
  char word[64];
  char* end = NULL;
  int ok = fscanf(f, " %63s", word) == 1;
  *x = ok ? strtod(word, &end) : NAN;
  return ok && end && !*end;
}


// the collector's state at time t into c->buf and the history rows it belongs to; 1 when the
// state file is this case's and has an entry of that time
static int read_state(resumable* c, double t, long* rows) {
  FILE* f = fopen(c->state, "r");
  if (!f) {
    return 0;
  }
  int n = 2 * c->s->nquantity + 1;
  char line[256], fp[64] = "";
  int nq = -1, nentry = 0, found = 0;
  int ok = fgets(line, sizeof(line), f) && !strncmp(line, state_magic, strlen(state_magic));
  ok = ok && fscanf(f, " fingerprint %63s quantities %d entries %d", fp, &nq, &nentry) == 3;
  ok = ok && !strcmp(fp, rd_sweepFingerprint(c->s->sw, c->i)) && nq == c->s->nquantity;
  for (int e = 0; ok && !found && e < nentry; e++) {
    double te;
    char key[16];
    ok = fscanf(f, " %15s", key) == 1 && !strcmp(key, "time") && read_number(f, &te) &&
         fscanf(f, " rows %ld", rows) == 1;
    for (int k = 0; ok && k < n; k++) {
      ok = read_number(f, c->buf + k);
    }
    found = ok && te == t;
  }
  fclose(f);
  return found;
}


// the state of the checkpoint, the collector's and the history's rows up to it; 1 when all
// three are there and agree (the data then holds the checkpoint's state, the history is open).
// An interrupted case writes no row where it stopped; rd_openHistory would cut one off the
// output grid, as for `run --resume`
static int resume(resumable* c, cliSession* ss) {
  struct stat sb;
  double t;
  long rows, kept = -1;
  if (stat(c->ckpt, &sb) != 0 || stat(c->csv, &sb) != 0 ||
      rd_readCheckpoint(ss->model, ss->data, c->ckpt) != RD_OK) {
    return 0;
  }
  t = rd_time(ss->data);
  if (!read_state(c, t, &rows)) {
    return 0;
  }
  if (rd_openHistory(ss->model, c->csv, t, &c->out->history, &kept) != RD_OK || kept != rows ||
      rd_setCollectorState(c->col, c->buf) != RD_OK) {
    rd_closeHistory(&c->out->history, 0);
    return 0;
  }
  c->resumed = t;
  return 1;
}


// a fresh start: no file of an earlier run, the initial conditions, an empty history
static int start(resumable* c, cliSession* ss) {
  remove_checkpoint(c, 1);
  remove_in(c->dir, "resumed.txt");
  // a checkpoint that was read in part leaves the data in no known state: a new one
  rd_destroyData(&ss->data);
  int st = rd_createData(ss->model, &ss->data);
  if (st == RD_OK) {
    st = rd_initialize(ss->model, ss->data);
  }
  if (st != RD_OK) {
    return cli_fail(ss->ctx, st, st != RD_ERR_DECK);
  }
  st = rd_openHistory(ss->model, c->csv, -INFINITY, &c->out->history, NULL);
  return st == RD_OK ? CLI_OK : cli_fail(ss->ctx, st, 1);
}


// the rows so far on disk, then the collector's state and the checkpoint at this time
static int checkpoint_now(resumable* c, const rdModel* m, const rdData* d) {
  int st = rd_flushHistory(c->out->history);
  if (st == RD_OK) {
    st = write_state(c, m, d);
  }
  if (st == RD_OK) {
    st = rd_writeCheckpoint(m, d, c->ckpt);
  }
  return st;
}


static int observe(const rdModel* m, const rdData* d, void* user) {
  resumable* c = user;
  int st = cli_writeRow(c->out, m, d);
  if (st != RD_OK) {
    c->out->status = st;
    return 1;
  }
  return 0;
}


// after every step: the progress bar, a stop request, a periodic checkpoint
static int after_step(const rdModel* m, const rdData* d, void* user) {
  resumable* c = user;
  double t = rd_time(d);
  cli_progressUpdate(&c->out->progress, t);
  if (cli_interrupted) {
    return 1;
  }
  if ((c->s->every_wall ? cli_now() : t) >= c->next) {
    int st = checkpoint_now(c, m, d);
    if (st != RD_OK) {
      c->out->status = st;
      return 1;
    }
    c->next = (c->s->every_wall ? cli_now() : t) + c->s->every;
  }
  return 0;
}


// the other outputs (they start afresh when resumed, as with `run --resume`) and the first row
static int open_outputs(resumable* c, cliSession* ss) {
  const rdModel* m = ss->model;
  const rdData* d = ss->data;
  cliOutputs* r = c->out;
  int st = RD_OK;
  if (rd_getOptionReal(m, "output.netcdf") == 1) {
    char* path = cli_join(c->dir, "history.nc");
    st = path ? rd_createNetcdf(m, path, &r->netcdf) : RD_ERR_NOMEM;
    free(path);
  }
  if (st == RD_OK && rd_getOptionReal(m, "output.vtk") == 1) {
    st = rd_createVtk(m, c->dir, &r->vtk);
  }
  if (st == RD_OK && isnan(c->resumed)) {
    st = cli_writeRow(r, m, d);
  } else if (st == RD_OK) {
    if (r->netcdf) {
      st = rd_writeNetcdf(r->netcdf, m, d);
    }
    if (st == RD_OK && r->vtk) {
      st = rd_writeVtk(r->vtk, m, d);
    }
  }
  return st == RD_OK ? CLI_OK : cli_fail(ss->ctx, st, 1);
}


// say in the case's directory where it resumed
static void note_resumed(const resumable* c) {
  char* path = cli_join(c->dir, "resumed.txt");
  FILE* f = path ? fopen(path, "a") : NULL;
  if (f) {
    fprintf(f, "resumed from the checkpoint at t = %.17g (%ld history rows kept)\n", c->resumed,
            rd_historyRows(c->out->history));
    fclose(f);
  }
  free(path);
}


// close the outputs: committed on success, else the history kept and the others dropped
static int close_outputs(cliOutputs* r, int commit) {
  int st = rd_closeHistory(&r->history, 1);
  int e = rd_closeNetcdf(&r->netcdf, commit);
  r->netcdf_written = commit && e == RD_OK;
  st = st == RD_OK ? e : st;
  e = rd_closeVtk(&r->vtk, commit);
  r->vtk_written = commit && e == RD_OK;
  return st == RD_OK ? e : st;
}


static int integrate(resumable* c, cliSession* ss, double* wall) {
  const rdModel* m = ss->model;
  rdData* d = ss->data;
  double tend = rd_getOptionReal(m, "solver.final_time");
  struct sigaction old[2];
  cli_interrupted = 0;
  cli_catchSignals(old);
  c->wall0 = cli_now();
  c->next = (c->s->every_wall ? c->wall0 : rd_time(d)) + c->s->every;
  cli_progressBegin(&c->out->progress, rd_time(d), tend);
  rd_setStepCallback(d, after_step, c);
  int st = rd_advance(m, d, tend, observe, c);
  rd_setStepCallback(d, NULL, NULL);
  cli_progressEnd(&c->out->progress);
  *wall += cli_now() - c->wall0;
  cli_restoreSignals(old);
  if (st == RD_OK && c->out->status != RD_OK) {
    st = c->out->status;
  }
  if (st != RD_OK) {
    // a failure that a rerun repeats: no history, nothing to resume from
    int code = cli_fail(ss->ctx, st, 1);
    close_outputs(c->out, 0);
    remove_checkpoint(c, 1);
    return code;
  }
  if (cli_interrupted) {
    st = checkpoint_now(c, m, d);
    close_outputs(c->out, 0);
    cli_error("interrupted at t = %g; %s", rd_time(d),
              st == RD_OK ? "a rerun resumes from there" : "no checkpoint written");
    return CLI_OTHER;
  }
  st = close_outputs(c->out, 1);
  if (st != RD_OK) {
    return cli_fail(ss->ctx, st, 1);
  }
  remove_checkpoint(c, 0);
  return CLI_OK;
}


int cli_sweepIntegrateResumable(cliSweep* s, int i, cliSession* ss, const char* dir,
                                cliOutputs* out, rdCollector* col, double* wall) {
  resumable c;
  memset(&c, 0, sizeof(c));
  c.s = s;
  c.i = i;
  c.dir = dir;
  c.out = out;
  c.col = col;
  c.resumed = NAN;
  c.csv = cli_join(dir, "history.csv");
  c.ckpt = cli_join(dir, "checkpoint.ckpt");
  c.state = cli_join(dir, "checkpoint.state");
  c.buf = malloc((size_t)(2 * s->nquantity + 1) * sizeof(double));
  c.prev = malloc((size_t)(2 * s->nquantity + 1) * sizeof(double));
  c.prev_rows = -1;
  int code = CLI_OK;
  if (!c.csv || !c.ckpt || !c.state || !c.buf || !c.prev) {
    cli_error("out of memory");
    code = CLI_OTHER;
  }
  double wall0 = cli_now();
  if (code == CLI_OK && !resume(&c, ss)) {
    code = start(&c, ss);
  }
  if (code == CLI_OK) {
    code = open_outputs(&c, ss);
  }
  *wall += cli_now() - wall0;
  if (code == CLI_OK && !isnan(c.resumed)) {
    note_resumed(&c);
  }
  if (code == CLI_OK) {
    code = integrate(&c, ss, wall);
  } else {
    close_outputs(out, 0);
  }
  free(c.buf);
  free(c.prev);
  free(c.state);
  free(c.ckpt);
  free(c.csv);
  return code;
}
