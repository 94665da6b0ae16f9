// SPDX-License-Identifier: MIT
// Checkpoint files: the whole rdState plus statistics, with a model fingerprint and checksum.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/restart.h"
#include "solver/stepper.h"
#include "src/core/atomic_file.h"
#include "src/core/core.h"
#include "src/model/data_impl.h"

#define CKPT_MAGIC "RDCHKPT"
#define CKPT_VERSION 4u

// fixed-size header (native byte order; `one` detects a foreign one)
typedef struct {
  char magic[8];
  uint32_t version;
  uint32_t header_size;
  uint64_t fingerprint;
  double one;
  int32_t nnode, nconstraint, method, initialized;
  uint64_t memory_size;
  double t;
  int64_t steps, rejected_steps, newton_iterations, factorizations, load_evaluations;
  int64_t last_newton_iterations, max_newton_iterations;
  int32_t redundant_constraints, unchecked_constraints;
  int32_t hostload_set, reserved;  // loads held by rd_setNodeLoad follow the history if set
  double min_rcond, min_step, wall_time;
  uint64_t payload_size;
  uint64_t history_size;  // bytes of stepper history after the state (rdStepper.history_*)
  uint64_t checksum;      // FNV-1a of the payload
} ckptHeader;

static uint64_t fnv(uint64_t h, const void* p, size_t n) {
  const unsigned char* c = p;
  for (size_t i = 0; i < n; i++) {
    h = (h ^ c[i]) * 1099511628211ull;
  }
  return h;
}


// structure of the model: what a checkpoint must match
static uint64_t fingerprint(const rdModel* m, size_t memory) {
  uint64_t h = 1469598103934665603ull;
  int32_t sizes[6] = {m->nnode, m->ndof, m->nconstraint, m->nelem, m->njoint, m->opt.method};
  h = fnv(h, sizes, sizeof(sizes));
  h = fnv(h, &memory, sizeof(memory));
  for (int i = 0; i < m->nnode; i++) {
    h = fnv(h, m->node_name[i], strlen(m->node_name[i]) + 1);
    h = fnv(h, &m->node_kind[i], sizeof(int));
  }
  for (int i = 0; i < m->nelem; i++) {
    h = fnv(h, &m->elem[i].def.type, sizeof(int));
  }
  for (int j = 0; j < m->njoint; j++) {
    h = fnv(h, &m->joint[j].def.type, sizeof(int));
    h = fnv(h, m->joint[j].def.node, 2 * sizeof(int));
  }
  return h;
}


// the arrays of a state, in file order
typedef struct {
  void* p;
  size_t n;
} span;

static int state_spans(const rdModel* m, const rdData* d, const rdState* s, span out[6]) {
  size_t nn = (size_t)m->nnode;
  out[0] = (span){s->q, 7 * nn * sizeof(double)};
  out[1] = (span){s->v, 6 * nn * sizeof(double)};
  out[2] = (span){s->vd, 6 * nn * sizeof(double)};
  out[3] = (span){s->a, 6 * nn * sizeof(double)};
  out[4] = (span){s->lambda, (size_t)m->nconstraint * sizeof(double)};
  out[5] = (span){s->memory, d->memory_size};
  return 6;
}


static int check_pair(const rdModel* m, const rdData* d, const char* path, const char* fn) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  if (d->model != m) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "%s: data was made from another model", fn);
  }
  if (!path || !*path) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "%s: no file name", fn);
  }
  if (d->in_step) {
    return RD_ERROR(m->ctx, RD_ERR_STATE, "%s: inside a step (rd_stepBegin without rd_stepEnd)",
                    fn);
  }
  return RD_OK;
}


int rd_writeCheckpoint(const rdModel* m, const rdData* d, const char* path) {
  int st = check_pair(m, d, path, "rd_writeCheckpoint");
  if (st < 0) {
    return st;
  }
  span sp[6];
  int ns = state_spans(m, d, &d->s, sp);
  ckptHeader h;
  memset(&h, 0, sizeof(h));
  memcpy(h.magic, CKPT_MAGIC, sizeof(CKPT_MAGIC));
  h.version = CKPT_VERSION;
  h.header_size = sizeof(h);
  h.fingerprint = fingerprint(m, d->memory_size);
  h.one = 1.0;
  h.nnode = m->nnode;
  h.nconstraint = m->nconstraint;
  h.method = m->opt.method;
  h.initialized = d->initialized;
  h.memory_size = d->memory_size;
  h.t = d->s.t;
  h.steps = d->stats.steps;
  h.rejected_steps = d->stats.rejected_steps;
  h.newton_iterations = d->stats.newton_iterations;
  h.factorizations = d->stats.factorizations;
  h.load_evaluations = d->stats.load_evaluations;
  h.last_newton_iterations = d->stats.last_newton_iterations;
  h.max_newton_iterations = d->stats.max_newton_iterations;
  h.redundant_constraints = d->stats.redundant_constraints;
  h.unchecked_constraints = d->stats.unchecked_constraints;
  h.hostload_set = d->hostload_set;
  h.min_rcond = d->stats.min_rcond;
  h.min_step = d->stats.min_step;
  h.wall_time = d->stats.wall_time;
  // the stepper's history outside the state (e.g. the linear solver's pivot order)
  const rdStepper* stp = rd_stepperFor(m->opt.method);
  size_t hsize = stp && stp->history_size ? stp->history_size(m, d) : 0;
  void* hist = NULL;
  if (hsize) {
    hist = rd_alloc(m->ctx, hsize);
    if (!hist) {
      return RD_ERR_NOMEM;
    }
    stp->history_save(m, d, hist);
  }
  h.history_size = hsize;
  uint64_t sum = 1469598103934665603ull;
  for (int k = 0; k < ns; k++) {
    h.payload_size += sp[k].n;
    sum = fnv(sum, sp[k].p, sp[k].n);
  }
  sum = fnv(sum, hist, hsize);
  size_t lsize = d->hostload_set ? 6 * (size_t)m->nnode * sizeof(double) : 0;
  sum = fnv(sum, d->hostload, lsize);
  h.checksum = sum;
  // temporary file beside the target, renamed into place once complete
  char* tmp = NULL;
  FILE* f = rd_atomicOpen(m->ctx, path, &tmp);
  if (!f) {
    rd_free(m->ctx, hist);
    return rd_lastStatus(m->ctx);
  }
  int ok = fwrite(&h, sizeof(h), 1, f) == 1;
  for (int k = 0; ok && k < ns; k++) {
    ok = sp[k].n == 0 || fwrite(sp[k].p, 1, sp[k].n, f) == sp[k].n;
  }
  ok = ok && (hsize == 0 || fwrite(hist, 1, hsize, f) == hsize);
  ok = ok && (lsize == 0 || fwrite(d->hostload, 1, lsize, f) == lsize);
  st = rd_atomicCommit(m->ctx, f, tmp, path, !ok);
  rd_free(m->ctx, tmp);
  rd_free(m->ctx, hist);
  return st;
}


int rd_readCheckpoint(const rdModel* m, rdData* d, const char* path) {
  int st = check_pair(m, d, path, "rd_readCheckpoint");
  if (st < 0) {
    return st;
  }
  rdContext* ctx = m->ctx;
  FILE* f = fopen(path, "rb");
  if (!f) {
    return RD_ERROR(ctx, RD_ERR_IO, "cannot open checkpoint '%s': %s", path, strerror(errno));
  }
  ckptHeader h;
  if (fread(&h, sizeof(h), 1, f) != 1 || memcmp(h.magic, CKPT_MAGIC, sizeof(CKPT_MAGIC)) ||
      h.header_size != sizeof(h) || h.one != 1.0) {
    fclose(f);
    return RD_ERROR(ctx, RD_ERR_IO, "'%s' is not a rodrigues checkpoint (or from another machine)",
                    path);
  }
  if (h.version != CKPT_VERSION) {
    fclose(f);
    return RD_ERROR(ctx, RD_ERR_IO, "checkpoint '%s' has version %u, expected %u", path, h.version,
                    CKPT_VERSION);
  }
  if (h.fingerprint != fingerprint(m, d->memory_size) || h.nnode != m->nnode ||
      h.nconstraint != m->nconstraint || h.memory_size != d->memory_size) {
    fclose(f);
    return RD_ERROR(ctx, RD_ERR_ARG,
                    "checkpoint '%s' was written for another model (nodes, elements, joints or "
                    "method differ: it has %d nodes and method '%s')",
                    path, h.nnode, rd_methodName(h.method) ? rd_methodName(h.method) : "?");
  }
  const rdStepper* stp = rd_stepperFor(m->opt.method);
  size_t hsize = stp && stp->history_size ? stp->history_size(m, d) : 0;
  if (h.history_size != hsize) {
    fclose(f);
    return RD_ERROR(ctx, RD_ERR_ARG,
                    "checkpoint '%s' was written with another linear solver or stepper history "
                    "(%llu bytes, expected %zu)",
                    path, (unsigned long long)h.history_size, hsize);
  }
  size_t lsize = h.hostload_set ? 6 * (size_t)m->nnode * sizeof(double) : 0;
  // the history, then the held loads (read aside: `data` stays untouched on error)
  char* hist = hsize + lsize ? rd_alloc(ctx, hsize + lsize) : NULL;
  if (hsize + lsize && !hist) {
    fclose(f);
    return RD_ERR_NOMEM;
  }
  // read into the saved state first, so that `data` is untouched on error
  span sp[6];
  int ns = state_spans(m, d, &d->saved, sp);
  uint64_t sum = 1469598103934665603ull;
  int ok = 1;
  for (int k = 0; ok && k < ns; k++) {
    ok = sp[k].n == 0 || fread(sp[k].p, 1, sp[k].n, f) == sp[k].n;
    sum = fnv(sum, sp[k].p, sp[k].n);
  }
  ok = ok && (hsize + lsize == 0 || fread(hist, 1, hsize + lsize, f) == hsize + lsize);
  sum = fnv(sum, hist, hsize);
  sum = fnv(sum, hist + hsize, lsize);
  ok = ok && fgetc(f) == EOF;
  fclose(f);
  if (!ok || sum != h.checksum) {
    rd_free(ctx, hist);
    return RD_ERROR(ctx, RD_ERR_IO, "checkpoint '%s' is truncated or corrupt", path);
  }
  d->saved.t = h.t;
  rd_stateCopy(m, d, &d->s, &d->saved);
  d->initialized = h.initialized;
  d->stats.steps = (long)h.steps;
  d->stats.rejected_steps = (long)h.rejected_steps;
  d->stats.newton_iterations = (long)h.newton_iterations;
  d->stats.factorizations = (long)h.factorizations;
  d->stats.load_evaluations = (long)h.load_evaluations;
  d->stats.last_newton_iterations = (int)h.last_newton_iterations;
  d->stats.max_newton_iterations = (int)h.max_newton_iterations;
  d->stats.redundant_constraints = h.redundant_constraints;
  d->stats.unchecked_constraints = h.unchecked_constraints;
  d->hostload_set = h.hostload_set;
  if (lsize) {
    memcpy(d->hostload, hist + hsize, lsize);
  } else {
    memset(d->hostload, 0, 6 * (size_t)m->nnode * sizeof(double));
  }
  d->stats.min_rcond = h.min_rcond;
  d->stats.min_step = h.min_step;
  d->stats.wall_time = h.wall_time;
  st = hsize ? stp->history_load(m, d, hist) : RD_OK;
  rd_free(ctx, hist);
  return st;
}
