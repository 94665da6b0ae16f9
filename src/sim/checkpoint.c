// SPDX-License-Identifier: MIT
// Checkpoint files: the whole rdState plus statistics, a fingerprint of every value of the model
// that changes the motion, and a checksum of all of it.
#include "src/sim/checkpoint.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements/beam.h"
#include "rodrigues/restart.h"
#include "solver/stepper.h"
#include "src/core/atomic_file.h"
#include "src/core/core.h"
#include "src/core/hash.h"
#include "src/core/input.h"
#include "src/core/strutil.h"
#include "src/model/data_impl.h"
#include "src/model/model_impl.h"

#define CKPT_MAGIC "RDCHKPT"
#define CKPT_VERSION 9u

// differences listed in a message, at most
#define CKPT_MAX_LISTED 8

// fixed-size header (native byte order; `one` detects a foreign one); the file is the header,
// the state arrays, the stepper's history, the held loads (if hostload_set) and nentry
// fingerprint entries
typedef struct {
  char magic[8];
  uint32_t version;
  uint32_t header_size;
  double one;
  int32_t nnode, nconstraint, method, initialized;
  uint64_t memory_size;
  double t;
  int64_t steps, rejected_steps, newton_iterations, factorizations, load_evaluations;
  int64_t last_newton_iterations, max_newton_iterations;
  int32_t redundant_constraints, unchecked_constraints;
  int32_t hostload_set, nentry;
  double min_rcond, min_step, wall_time;
  // the error estimates and the step-size controller (solver.adaptive)
  double error_estimate, max_local_error, max_step, step_error, ctrl_h;
  int64_t error_rejections;
  int32_t ctrl_rejected, reserved2;
  int64_t substep_iterations;  // the rigid sub-steps' inner iterations (mixed stepping)
  uint64_t payload_size;       // bytes of the state arrays
  uint64_t history_size;       // bytes of stepper history after the state (rdStepper.history_*)
  uint64_t checksum;           // FNV-1a of the whole file, this field taken as 0
} ckptHeader;

// one value of the model that changes the motion: an option, the gravity, a node's initial
// state, an element's, joint's, load's or time function's definition
typedef struct {
  char label[40];  // "node 'top'", "option solver.time_step"
  char value[16];  // options: the value as text (cut short), otherwise empty
  uint64_t hash;   // of every number (bit for bit) and formula that defines it
} ckptEntry;

// ---------------------------------------------------------------------------------------------
// the model's fingerprint

typedef struct {
  ckptEntry* e;
  int n;
  int cap;
} fingerprint;


static void put(fingerprint* f, uint64_t hash, const char* value, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;


static void put(fingerprint* f, uint64_t hash, const char* value, const char* fmt, ...) {
  if (f->n >= f->cap) {
    return;
  }
  ckptEntry* e = &f->e[f->n++];
  memset(e, 0, sizeof(*e));
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->label, sizeof(e->label), fmt, ap);
  va_end(ap);
  snprintf(e->value, sizeof(e->value), "%s", value ? value : "");
  e->hash = hash;
}


// hash of one field
#define H(h, x) ((h) = rd_hash((h), &(x), sizeof(x)))


static uint64_t hash_text(uint64_t h, const char* s) {
  return s ? rd_hash(h, s, strlen(s) + 1) : rd_hash(h, "", 1);
}


// options that change the motion: all but the end time, the outputs and the thread count
static int motion_option(const char* key) {
  return strcmp(key, "solver.final_time") && strncmp(key, "output.", 7) &&
         strcmp(key, "solver.threads");
}


static void put_options(fingerprint* f, const rdModel* m) {
  int nopt = rd_optionList(0, NULL, NULL, NULL, NULL);
  for (int i = 0; i < nopt; i++) {
    const char* key = NULL;
    char value[128];
    rd_optionList(i, &key, NULL, NULL, NULL);
    if (key && motion_option(key) && rd_optionGet(&m->opt, key, value, sizeof(value)) >= 0) {
      // shown in messages with 9 digits (the hash has all 17)
      char shown[32];
      double x;
      if (rd_parseReal(value, &x) == 0) {
        snprintf(shown, sizeof(shown), "%.9g", x);
      }
      put(f, hash_text(RD_HASH_INIT, value), rd_parseReal(value, &x) == 0 ? shown : value,
          "option %s", key);
    }
  }
}


static uint64_t hash_element(const rdElemDef* e) {
  uint64_t h = RD_HASH_INIT;
  H(h, e->type);
  switch (e->type) {
    case RD_ELEM_RIGID_BODY:
      H(h, e->u.body.node);
      H(h, e->u.body.mass);
      H(h, e->u.body.inertia);
      H(h, e->u.body.com);
      break;
    case RD_ELEM_POINT_MASS:
      H(h, e->u.mass.node);
      H(h, e->u.mass.mass);
      break;
    case RD_ELEM_SPRING:
      H(h, e->u.spring.node);
      H(h, e->u.spring.anchor);
      H(h, e->u.spring.stiffness);
      H(h, e->u.spring.damping);
      H(h, e->u.spring.rest_length);
      break;
    case RD_ELEM_BUSHING:
      H(h, e->u.bushing.node);
      H(h, e->u.bushing.stiffness);
      H(h, e->u.bushing.damping);
      break;
    default:
      break;
  }
  return h;
}


static uint64_t hash_joint(const rdJointDef* j) {
  uint64_t h = RD_HASH_INIT;
  H(h, j->type);
  H(h, j->node);
  H(h, j->point);
  H(h, j->axis);
  H(h, j->axis2);
  H(h, j->angle_fn);
  H(h, j->torque_fn);
  H(h, j->torque);
  H(h, j->motion_fn);
  return h;
}


static uint64_t hash_load(const rdLoadDef* l) {
  uint64_t h = RD_HASH_INIT;
  H(h, l->node);
  H(h, l->kind);
  H(h, l->frame);
  H(h, l->value);
  H(h, l->timefn);
  return h;
}


static uint64_t hash_beam(const rdModelBeam* b) {
  uint64_t h = RD_HASH_INIT;
  H(h, b->def.force);
  H(h, b->def.moment);
  H(h, b->def.load_frame);
  H(h, b->def.timefn);
  return rd_beamHash(b->kernel, h);
}


static uint64_t hash_torque(rdTorqueLaw* tl) {
  uint64_t h = RD_HASH_INIT;
  H(h, tl->def.node);
  H(h, tl->def.type);
  H(h, tl->def.param);
  for (int k = 0; tl->expr && k < 3; k++) {
    h = hash_text(h, rd_exprText(&tl->expr[k]));
  }
  return h;
}


static uint64_t hash_timefn(rdTimeFn* fn) {
  uint64_t h = RD_HASH_INIT;
  H(h, fn->type);
  H(h, fn->value);
  H(h, fn->npoint);
  if (fn->npoint > 0 && fn->t && fn->y) {
    h = rd_hash(h, fn->t, (size_t)fn->npoint * sizeof(double));
    h = rd_hash(h, fn->y, (size_t)fn->npoint * sizeof(double));
  }
  return fn->expr ? hash_text(h, rd_exprText(fn->expr)) : h;
}


// entries of a model's fingerprint
static int fingerprint_size(const rdModel* m) {
  return rd_optionList(0, NULL, NULL, NULL, NULL) + 1 + m->nnode + m->nelem + m->nbeam + m->njoint +
         m->nload + m->ntorque + m->ntimefn + m->ncallback + m->nuser + m->nsub;
}


// the fingerprint of m into f (f->e sized by fingerprint_size); callbacks and their user
// pointers cannot be compared: only their node sets count
static void make_fingerprint(const rdModel* m, fingerprint* f) {
  put_options(f, m);
  uint64_t h = rd_hash(RD_HASH_INIT, m->gravity, sizeof(m->gravity));
  put(f, h, NULL, "gravity");
  for (int i = 0; i < m->nnode; i++) {
    h = RD_HASH_INIT;
    H(h, m->node_kind[i]);
    h = rd_hash(h, m->node_q0 + 7 * i, 7 * sizeof(double));
    h = rd_hash(h, m->node_v0 + 6 * i, 6 * sizeof(double));
    put(f, h, NULL, "node '%s'", m->node_name[i]);
  }
  for (int i = 0; i < m->nelem; i++) {
    put(f, hash_element(&m->elem[i].def), NULL, "element '%s'", rd_elemDefName(&m->elem[i].def));
  }
  for (int i = 0; i < m->nbeam; i++) {
    put(f, hash_beam(&m->beam[i]), NULL, "beam '%s'", m->beam[i].def.name);
  }
  for (int i = 0; i < m->njoint; i++) {
    put(f, hash_joint(&m->joint[i].def), NULL, "joint '%s'", m->joint[i].def.name);
  }
  for (int i = 0; i < m->nload; i++) {
    put(f, hash_load(&m->load[i].def), NULL, "load '%s'", m->load[i].def.name);
  }
  for (int i = 0; i < m->ntorque; i++) {
    put(f, hash_torque(&m->torque[i]), NULL, "torque law '%s'", m->torque[i].def.name);
  }
  for (int i = 0; i < m->ntimefn; i++) {
    put(f, hash_timefn(&m->timefn[i]), NULL, "time function '%s'", m->timefn_name[i]);
  }
  for (int i = 0; i < m->ncallback; i++) {
    const rdLoadCallbackDef* c = &m->callback[i];
    h = RD_HASH_INIT;
    H(h, c->nnode);
    h = rd_hash(h, c->nodes, (size_t)c->nnode * sizeof(int));
    int jac = c->jacobian != NULL;
    H(h, jac);
    put(f, h, NULL, "load callback '%s'", c->name);
  }
  for (int i = 0; i < m->nuser; i++) {
    const rdUserElementDef* u = &m->user[i];
    h = RD_HASH_INIT;
    H(h, u->nnode);
    h = rd_hash(h, u->nodes, (size_t)u->nnode * sizeof(int));
    put(f, h, NULL, "user element '%s'", u->name);
  }
  // the partition of mixed stepping (none: no entry)
  for (int k = 0; k < m->nsub; k++) {
    const rdSubsystem* b = &m->sub[k];
    h = RD_HASH_INIT;
    H(h, b->method);
    H(h, b->substeps);
    H(h, b->nbody);
    h = rd_hash(h, b->node, (size_t)b->nbody * sizeof(int));
    put(f, h, NULL, "subsystem '%s'", b->name);
  }
}


static int new_fingerprint(const rdModel* m, fingerprint* f) {
  f->n = 0;
  f->cap = fingerprint_size(m);
  f->e = rd_calloc(m->ctx, (size_t)f->cap, sizeof(ckptEntry));
  if (!f->e) {
    return RD_ERR_NOMEM;
  }
  make_fingerprint(m, f);
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// the file's parts

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


static size_t payload_size(const rdModel* m, const rdData* d) {
  return (25 * (size_t)m->nnode + (size_t)m->nconstraint) * sizeof(double) + d->memory_size;
}


static size_t history_size(const rdModel* m, const rdData* d) {
  const rdStepper* stp = rd_modelStepper(m);
  return stp && stp->history_size ? stp->history_size(m, d) : 0;
}


static int check_pair(const rdModel* m, const rdData* d, const char* path, const char* fn) {
  if (!rd_modelValid(m) || !rd_dataValid(d)) {
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
  if (d->interp_active) {
    return RD_ERROR(m->ctx, RD_ERR_STATE,
                    "%s: the state of an output row between adaptive steps (an interpolation, "
                    "not a state to continue from): call it after rd_advance returns",
                    fn);
  }
  return RD_OK;
}


// 1 if the n doubles at p are all finite
static int all_finite(const void* p, size_t n) {
  const unsigned char* c = p;
  for (size_t i = 0; i < n; i++) {
    double x;
    memcpy(&x, c + i * sizeof(double), sizeof(double));
    if (!isfinite(x)) {
      return 0;
    }
  }
  return 1;
}

// ---------------------------------------------------------------------------------------------
// writing

int rd_writeCheckpoint(const rdModel* m, const rdData* d, const char* path) {
  int st = check_pair(m, d, path, "rd_writeCheckpoint");
  if (st < 0) {
    return st;
  }
  rdContext* ctx = m->ctx;
  span sp[6];
  int ns = state_spans(m, d, &d->s, sp);
  for (int k = 0; k < 5; k++) {
    if (!all_finite(sp[k].p, sp[k].n / sizeof(double)) || !isfinite(d->s.t)) {
      return RD_ERROR(ctx, RD_ERR_NUMERIC, "rd_writeCheckpoint: the state is not finite");
    }
  }
  ckptHeader h;
  memset(&h, 0, sizeof(h));
  memcpy(h.magic, CKPT_MAGIC, sizeof(CKPT_MAGIC));
  h.version = CKPT_VERSION;
  h.header_size = sizeof(h);
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
  h.substep_iterations = d->stats.substep_iterations;
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
  h.payload_size = payload_size(m, d);
  h.error_estimate = d->stats.error_estimate;
  h.max_local_error = d->stats.max_local_error;
  h.max_step = d->stats.max_step;
  h.error_rejections = d->stats.error_rejections;
  h.step_error = d->step_error;
  h.ctrl_h = d->ctrl_h;
  h.ctrl_rejected = d->ctrl_rejected;
  // the stepper's history outside the state (e.g. the linear solver's pivot order)
  const rdStepper* stp = rd_modelStepper(m);
  size_t hsize = history_size(m, d);
  size_t lsize = d->hostload_set ? 6 * (size_t)m->nnode * sizeof(double) : 0;
  fingerprint fp;
  st = new_fingerprint(m, &fp);
  void* hist = st == RD_OK && hsize ? rd_alloc(ctx, hsize) : NULL;
  if (st != RD_OK || (hsize && !hist)) {
    rd_free(ctx, fp.e);
    return RD_ERR_NOMEM;
  }
  if (hsize) {
    stp->history_save(m, d, hist);
  }
  h.history_size = hsize;
  h.nentry = fp.n;
  // the checksum covers the header (this field taken as 0) and everything after it
  uint64_t sum = rd_hash(RD_HASH_INIT, &h, sizeof(h));
  for (int k = 0; k < ns; k++) {
    sum = rd_hash(sum, sp[k].p, sp[k].n);
  }
  sum = rd_hash(sum, hist, hsize);
  sum = rd_hash(sum, d->hostload, lsize);
  sum = rd_hash(sum, fp.e, (size_t)fp.n * sizeof(ckptEntry));
  h.checksum = sum;
  // temporary file beside the target, renamed into place once complete
  char* tmp = NULL;
  FILE* f = rd_atomicOpen(ctx, path, &tmp);
  if (!f) {
    rd_free(ctx, hist);
    rd_free(ctx, fp.e);
    return rd_lastStatus(ctx);
  }
  int ok = fwrite(&h, sizeof(h), 1, f) == 1;
  for (int k = 0; ok && k < ns; k++) {
    ok = sp[k].n == 0 || fwrite(sp[k].p, 1, sp[k].n, f) == sp[k].n;
  }
  ok = ok && (hsize == 0 || fwrite(hist, 1, hsize, f) == hsize);
  ok = ok && (lsize == 0 || fwrite(d->hostload, 1, lsize, f) == lsize);
  ok = ok && (fp.n == 0 || fwrite(fp.e, sizeof(ckptEntry), (size_t)fp.n, f) == (size_t)fp.n);
  st = rd_atomicCommit(ctx, f, tmp, path, !ok);
  rd_free(ctx, tmp);
  rd_free(ctx, hist);
  rd_free(ctx, fp.e);
  return st;
}

// ---------------------------------------------------------------------------------------------
// reading

// the checksum a file of len >= sizeof(ckptHeader) bytes should hold: of its header with the
// checksum taken as 0, then of everything after it (as rd_writeCheckpoint computes it)
static uint64_t file_checksum(const unsigned char* buf, size_t len) {
  ckptHeader h;
  memcpy(&h, buf, sizeof(h));
  h.checksum = 0;
  uint64_t sum = rd_hash(RD_HASH_INIT, &h, sizeof(h));
  return rd_hash(sum, buf + sizeof(h), len - sizeof(h));
}


void rd_checkpointSeal(unsigned char* buf, size_t len) {
  if (len < sizeof(ckptHeader)) {
    return;
  }
  uint64_t sum = file_checksum(buf, len);
  memcpy(buf + offsetof(ckptHeader, checksum), &sum, sizeof(sum));
}


// a header whose values a writer could have produced
static const char* header_defect(const ckptHeader* h) {
  if (!isfinite(h->t)) {
    return "its time is not finite";
  }
  if ((h->initialized != 0 && h->initialized != 1) ||
      (h->hostload_set != 0 && h->hostload_set != 1)) {
    return "a flag is neither 0 nor 1";
  }
  if (h->steps < 0 || h->rejected_steps < 0 || h->newton_iterations < 0 || h->factorizations < 0 ||
      h->load_evaluations < 0 || h->last_newton_iterations < 0 || h->max_newton_iterations < 0 ||
      h->redundant_constraints < 0 || h->unchecked_constraints < 0 || h->nentry < 0 ||
      h->nnode < 0 || h->nconstraint < 0 || h->steps > LONG_MAX || h->rejected_steps > LONG_MAX ||
      h->newton_iterations > LONG_MAX || h->factorizations > LONG_MAX ||
      h->load_evaluations > LONG_MAX || h->last_newton_iterations > INT_MAX ||
      h->max_newton_iterations > INT_MAX || h->substep_iterations < 0 ||
      h->substep_iterations > LONG_MAX) {
    return "a count is out of range";
  }
  if (!(h->min_rcond >= 0 && h->min_rcond <= 1) || !(h->min_step > 0) ||
      !(h->wall_time >= 0 && isfinite(h->wall_time))) {
    return "a statistic is out of range";
  }
  // the error estimates (the last step's is NaN before the first step) and the step controller
  if (!(h->error_estimate >= 0) || !(h->max_local_error >= 0) ||
      !(h->max_step >= 0 && isfinite(h->max_step)) || h->step_error < 0 ||
      !(h->ctrl_h > 0 && isfinite(h->ctrl_h)) || h->error_rejections < 0 ||
      h->error_rejections > LONG_MAX || (h->ctrl_rejected != 0 && h->ctrl_rejected != 1) ||
      h->reserved2 != 0) {
    return "an error estimate or the step controller's state is out of range";
  }
  return NULL;
}


// append "; " and the difference to a message of at most size bytes
static void listed(char* msg, size_t size, int* n, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;


static void listed(char* msg, size_t size, int* n, const char* fmt, ...) {
  if (++*n > CKPT_MAX_LISTED) {
    return;
  }
  size_t used = strlen(msg);
  if (used + 3 >= size) {
    return;
  }
  if (used) {
    memcpy(msg + used, "; ", 3);
    used += 2;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + used, size - used, fmt, ap);
  va_end(ap);
}


// the differences between the file's fingerprint and the model's, appended to msg (their count
// in *n); 1 if an object is not the same (another name or kind): the structure differs
static int compare_fingerprints(const ckptEntry* file, int nfile, const fingerprint* model,
                                char* msg, size_t size, int* n) {
  int renamed = 0;
  int common = nfile < model->n ? nfile : model->n;
  for (int i = 0; i < common; i++) {
    ckptEntry a = file[i];
    const ckptEntry* b = &model->e[i];
    a.label[sizeof(a.label) - 1] = '\0';
    a.value[sizeof(a.value) - 1] = '\0';
    if (strcmp(a.label, b->label)) {
      listed(msg, size, n, "%s in the checkpoint, %s in the model", a.label, b->label);
      renamed = 1;
    } else if (a.hash != b->hash && (a.value[0] || b->value[0])) {
      listed(msg, size, n, "%s is %s in the checkpoint, %s in the model", a.label, a.value,
             b->value);
    } else if (a.hash != b->hash) {
      listed(msg, size, n, "%s differs", a.label);
    }
  }
  if (nfile != model->n) {
    listed(msg, size, n, "%d definitions in the checkpoint, %d in the model", nfile, model->n);
  }
  return renamed;
}


int rd_checkpointParse(const rdModel* m, rdData* d, const char* name, const unsigned char* buf,
                       size_t len, int flags) {
  rdContext* ctx = m->ctx;
  ckptHeader h;
  if (len < sizeof(h)) {
    return RD_ERROR(ctx, RD_ERR_IO, "'%s' is not a rodrigues checkpoint (too short)", name);
  }
  memcpy(&h, buf, sizeof(h));
  if (memcmp(h.magic, CKPT_MAGIC, sizeof(CKPT_MAGIC)) || h.header_size != sizeof(h) ||
      h.one != 1.0) {
    return RD_ERROR(ctx, RD_ERR_IO, "'%s' is not a rodrigues checkpoint (or from another machine)",
                    name);
  }
  if (h.version != CKPT_VERSION) {
    return RD_ERROR(ctx, RD_ERR_IO, "checkpoint '%s' has version %u, expected %u", name, h.version,
                    CKPT_VERSION);
  }
  // everything the file holds is checked before anything in it is believed
  const char* defect = h.checksum != file_checksum(buf, len) ? "checksum" : header_defect(&h);
  // sizes, without overflow: the file is the header and its parts, nothing more
  size_t rest = len - sizeof(h);
  size_t lsize = h.hostload_set ? 6 * (size_t)(h.nnode > 0 ? h.nnode : 0) * sizeof(double) : 0;
  if (!defect &&
      (h.payload_size > rest || h.history_size > rest - h.payload_size ||
       lsize > rest - h.payload_size - h.history_size ||
       (rest - h.payload_size - h.history_size - lsize) % sizeof(ckptEntry) ||
       (rest - h.payload_size - h.history_size - lsize) / sizeof(ckptEntry) != (size_t)h.nentry)) {
    defect = "sizes";
  }
  if (defect) {
    return RD_ERROR(ctx, RD_ERR_IO, "checkpoint '%s' is truncated or corrupt (%s)", name, defect);
  }
  // structure: what must match for the state to fit this data at all
  size_t hsize = history_size(m, d);
  char msg[RD_ERRLEN / 2];
  msg[0] = '\0';
  int ndiff = 0;
  if (h.method != m->opt.method) {
    const char* was = rd_methodName(h.method);
    listed(msg, sizeof(msg), &ndiff, "method '%s' in the checkpoint, '%s' in the model",
           was ? was : "?", rd_methodName(m->opt.method));
  }
  if (h.nnode != m->nnode || h.nconstraint != m->nconstraint) {
    listed(msg, sizeof(msg), &ndiff,
           "%d nodes and %d constraint equations in the checkpoint, %d and %d in the model",
           h.nnode, h.nconstraint, m->nnode, m->nconstraint);
  }
  if (h.memory_size != d->memory_size || h.payload_size != payload_size(m, d)) {
    listed(msg, sizeof(msg), &ndiff, "the integrator's memory differs");
  }
  if (h.history_size != hsize) {
    listed(msg, sizeof(msg), &ndiff,
           "another linear solver or stepper history (%llu bytes, expected %zu)",
           (unsigned long long)h.history_size, hsize);
  }
  fingerprint fp;
  if (new_fingerprint(m, &fp) != RD_OK) {
    return RD_ERR_NOMEM;
  }
  const unsigned char* entries = buf + sizeof(h) + h.payload_size + h.history_size + lsize;
  ckptEntry* file = rd_alloc(ctx, (size_t)h.nentry * sizeof(ckptEntry) + 1);
  if (!file) {
    rd_free(ctx, fp.e);
    return RD_ERR_NOMEM;
  }
  memcpy(file, entries, (size_t)h.nentry * sizeof(ckptEntry));
  int structural = ndiff > 0 || h.nentry != fp.n;
  structural |= compare_fingerprints(file, h.nentry, &fp, msg, sizeof(msg), &ndiff);
  if (ndiff > CKPT_MAX_LISTED) {
    size_t used = strlen(msg);
    snprintf(msg + used, sizeof(msg) - used, "; and %d more", ndiff - CKPT_MAX_LISTED);
  }
  rd_free(ctx, file);
  rd_free(ctx, fp.e);
  if (structural || (ndiff && !(flags & RD_CHECKPOINT_ACCEPT_CHANGES))) {
    return RD_ERROR(ctx, RD_ERR_ARG, "checkpoint '%s' was written for another model: %s", name,
                    msg);
  }
  // the state: into the saved state first, so that `data` is untouched on error
  span sp[6];
  int ns = state_spans(m, d, &d->saved, sp);
  const unsigned char* p = buf + sizeof(h);
  for (int k = 0; k < ns; k++) {
    memcpy(sp[k].p, p, sp[k].n);
    p += sp[k].n;
  }
  int finite = 1;
  for (int k = 0; k < 5; k++) {
    finite = finite && all_finite(sp[k].p, sp[k].n / sizeof(double));
  }
  finite = finite && all_finite(p, hsize / sizeof(double)) &&
           all_finite(p + hsize, lsize / sizeof(double));
  if (!finite) {
    return RD_ERROR(ctx, RD_ERR_IO, "checkpoint '%s' is corrupt (a value is not finite)", name);
  }
  if (ndiff) {
    rd_warnOnce(ctx, RD_WARN_CHECKPOINT_CHANGED, "resuming '%s' with a changed model: %s", name,
                msg);
  }
  // the stepper's history (aligned for its doubles), then the state
  if (hsize) {
    void* hist = rd_alloc(ctx, hsize);
    if (!hist) {
      return RD_ERR_NOMEM;
    }
    memcpy(hist, p, hsize);
    int st = rd_modelStepper(m)->history_load(m, d, hist);
    rd_free(ctx, hist);
    if (st > 0) {
      // the saved factorization is singular: a writer never saves one (the next step would
      // refactor, but the run would not be the one that wrote the file)
      return RD_ERROR(ctx, RD_ERR_IO,
                      "checkpoint '%s' is corrupt (its factorization history is singular)", name);
    }
    if (st < 0) {
      return st;
    }
  }
  p += hsize;
  d->saved.t = h.t;
  rd_stateCopy(m, d, &d->s, &d->saved);
  d->initialized = h.initialized;
  d->stats.steps = (long)h.steps;
  d->stats.rejected_steps = (long)h.rejected_steps;
  d->stats.newton_iterations = (long)h.newton_iterations;
  d->stats.substep_iterations = (long)h.substep_iterations;
  d->stats.factorizations = (long)h.factorizations;
  d->stats.load_evaluations = (long)h.load_evaluations;
  d->stats.last_newton_iterations = (int)h.last_newton_iterations;
  d->stats.max_newton_iterations = (int)h.max_newton_iterations;
  d->stats.redundant_constraints = h.redundant_constraints;
  d->stats.unchecked_constraints = h.unchecked_constraints;
  d->hostload_set = h.hostload_set;
  if (lsize) {
    memcpy(d->hostload, p, lsize);
  } else {
    memset(d->hostload, 0, 6 * (size_t)m->nnode * sizeof(double));
  }
  d->stats.min_rcond = h.min_rcond;
  d->stats.min_step = h.min_step;
  d->stats.wall_time = h.wall_time;
  d->stats.error_estimate = h.error_estimate;
  d->stats.max_local_error = h.max_local_error;
  d->stats.max_step = h.max_step;
  d->stats.error_rejections = (long)h.error_rejections;
  d->step_error = h.step_error;
  d->ctrl_h = h.ctrl_h;
  d->ctrl_rejected = h.ctrl_rejected;
  return RD_OK;
}


int rd_readCheckpointFlags(const rdModel* m, rdData* d, const char* path, int flags) {
  int st = check_pair(m, d, path, "rd_readCheckpoint");
  if (st < 0) {
    return st;
  }
  if (flags & ~RD_CHECKPOINT_ACCEPT_CHANGES) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_readCheckpointFlags: unknown flags 0x%x", flags);
  }
  // read at most what a checkpoint of a model of this size can hold (fingerprints of other
  // sizes included), so that no file makes the reader allocate without bound
  rdContext* ctx = m->ctx;
  size_t limit = 2 * (sizeof(ckptHeader) + payload_size(m, d) + history_size(m, d) +
                      6 * (size_t)m->nnode * sizeof(double) +
                      (size_t)fingerprint_size(m) * sizeof(ckptEntry)) +
                 (1u << 20);
  char* buf = NULL;
  size_t len = 0;
  int too_large = 0;
  st = rd_readInput(ctx, path, limit, 0, &buf, &len, &too_large);
  if (st == RD_ERR_IO) {
    char msg[RD_ERRLEN];
    snprintf(msg, sizeof(msg), "%s", rd_lastError(ctx));
    return RD_ERROR(ctx, RD_ERR_IO, "checkpoint %s", msg);
  }
  if (st != RD_OK) {
    return st;
  }
  if (too_large) {
    return RD_ERROR(ctx, RD_ERR_ARG,
                    "checkpoint '%s' was written for another model (larger than %zu bytes, the "
                    "most a checkpoint of this model can hold)",
                    path, limit);
  }
  st = rd_checkpointParse(m, d, path, (const unsigned char*)buf, len, flags);
  rd_free(ctx, buf);
  return st;
}


int rd_readCheckpoint(const rdModel* m, rdData* d, const char* path) {
  return rd_readCheckpointFlags(m, d, path, 0);
}
