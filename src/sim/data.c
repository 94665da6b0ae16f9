// SPDX-License-Identifier: MIT
// rdData: one allocation holds the state, the saved state, scratch and stepper workspace.
#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/assemble.h"
#include "solver/stepper.h"
#include "src/core/core.h"
#include "src/math/vec3.h"
#include "src/model/data_impl.h"

static int data_valid(const rdData* d) {
  return rd_dataValid(d);
}


// round up to a multiple of 64 bytes (cache line; keeps every array aligned)
static size_t align64(size_t n) {
  return (n + 63) & ~(size_t)63;
}


// bytes of one state's arrays
static size_t state_bytes(const rdModel* m, size_t memory) {
  size_t nn = (size_t)m->nnode;
  return align64(7 * nn * sizeof(double)) + 3 * align64(6 * nn * sizeof(double)) +
         align64((size_t)m->nconstraint * sizeof(double)) + align64(memory);
}


// carve a state's arrays out of p; returns the first byte after them
static char* carve_state(const rdModel* m, rdState* s, char* p, size_t memory) {
  size_t nn = (size_t)m->nnode;
  s->q = (double*)p;
  p += align64(7 * nn * sizeof(double));
  s->v = (double*)p;
  p += align64(6 * nn * sizeof(double));
  s->vd = (double*)p;
  p += align64(6 * nn * sizeof(double));
  s->a = (double*)p;
  p += align64(6 * nn * sizeof(double));
  s->lambda = (double*)p;
  p += align64((size_t)m->nconstraint * sizeof(double));
  s->memory = p;
  p += align64(memory);
  return p;
}


void rd_stateCopy(const rdModel* m, const rdData* d, rdState* dst, const rdState* src) {
  size_t nn = (size_t)m->nnode;
  dst->t = src->t;
  memcpy(dst->q, src->q, 7 * nn * sizeof(double));
  memcpy(dst->v, src->v, 6 * nn * sizeof(double));
  memcpy(dst->vd, src->vd, 6 * nn * sizeof(double));
  memcpy(dst->a, src->a, 6 * nn * sizeof(double));
  if (m->nconstraint) {
    memcpy(dst->lambda, src->lambda, (size_t)m->nconstraint * sizeof(double));
  }
  if (d->memory_size) {
    memcpy(dst->memory, src->memory, d->memory_size);
  }
}


int rd_resetData(const rdModel* m, rdData* d) {
  if (!rd_modelValid(m) || !data_valid(d)) {
    return RD_ERR_HANDLE;
  }
  if (d->model != m) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_resetData: data was made from another model");
  }
  size_t nn = (size_t)m->nnode;
  d->s.t = m->opt.start_time;
  memcpy(d->s.q, m->node_q0, 7 * nn * sizeof(double));
  memcpy(d->s.v, m->node_v0, 6 * nn * sizeof(double));
  memset(d->s.vd, 0, 6 * nn * sizeof(double));
  memset(d->s.a, 0, 6 * nn * sizeof(double));
  if (m->nconstraint) {
    memset(d->s.lambda, 0, (size_t)m->nconstraint * sizeof(double));
  }
  if (d->memory_size) {
    memset(d->s.memory, 0, d->memory_size);
  }
  memset(&d->stats, 0, sizeof(d->stats));
  d->ncut = 0;
  d->stats.min_rcond = 1;
  d->stats.min_step = INFINITY;
  d->step_error = NAN;
  d->ctrl_h = m->opt.time_step;
  d->ctrl_rejected = 0;
  d->newton_cap = 0;
  d->newton_rate = 0;
  d->newton_trust = 0;
  d->interp_active = 0;
  d->initialized = 0;
  d->in_step = 0;
  memset(d->hostload, 0, 6 * nn * sizeof(double));
  d->hostload_set = 0;
  for (int j = 0; d->motion && j < m->njoint; j++) {
    if (d->motion_slot[j] >= 0) {
      d->motion[d->motion_slot[j]].t = NAN;
    }
  }
  return RD_OK;
}


// 1 if joint j is a prescribed motion given by pure functions of t (no callbacks), whose ground
// frame the data may keep between evaluations (rdMotionFrame)
static int motion_cached(const rdModel* m, int j) {
  const rdJointDef* d = &m->joint[j].def;
  if (d->type != RD_JOINT_PRESCRIBED) {
    return 0;
  }
  for (int k = 0; k < 6; k++) {
    int f = d->motion_fn[k];
    if (f != RD_NO_TIMEFN && m->timefn[f].type == RD_TIMEFN_CALLBACK) {
      return 0;
    }
  }
  return 1;
}


int rd_createData(const rdModel* m, rdData** data) {
  if (!data) {
    return rd_modelValid(m) ? RD_ERROR(m->ctx, RD_ERR_ARG, "rd_createData: NULL output")
                            : RD_ERR_ARG;
  }
  *data = NULL;
  if (!rd_modelValid(m)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = m->ctx;
  const rdStepper* st = rd_modelStepper(m);
  if (!st) {
    return RD_ERROR(ctx, RD_ERR_UNSUPPORTED, "method '%s' is not available in this build",
                    rd_methodName(m->opt.method));
  }
  int status = st->check(m);
  if (status < 0) {
    return status;
  }
  size_t memory = st->memory_size ? st->memory_size(m) : 0;
  size_t work = st->work_size ? st->work_size(m) : 0;
  size_t nc =
      (size_t)(m->callback_maxnode > m->user_maxnode ? m->callback_maxnode : m->user_maxnode);
  size_t nj = 6 * (size_t)m->jac_maxnode;
  size_t cbuf = (25 * nc + 4 * nj * nj) * sizeof(double);
  size_t forces = align64(6 * (size_t)m->nnode * sizeof(double));
  int nslot = rd_assembleBeamSlots(m);
  size_t beamwork =
      (size_t)nslot * m->beam_work * sizeof(double) + align64((size_t)m->nbeam * sizeof(double));
  // adaptive steps: a third state, for rows between steps and step doubling
  int nstate = m->opt.adaptive ? 3 : 2;
  int nmotion = 0;
  for (int j = 0; j < m->njoint; j++) {
    nmotion += motion_cached(m, j);
  }
  size_t motion = nmotion ? align64((size_t)nmotion * sizeof(rdMotionFrame)) +
                                align64((size_t)m->njoint * sizeof(int))
                          : 0;
  size_t total = (size_t)nstate * state_bytes(m, memory) + 2 * forces + align64(cbuf) +
                 align64(beamwork) + motion + align64(work) + 64;
  rdData* d = rd_calloc(ctx, 1, sizeof(rdData));
  if (!d) {
    return RD_ERR_NOMEM;
  }
  d->block = rd_calloc(ctx, 1, total);
  if (!d->block) {
    rd_free(ctx, d);
    return RD_ERR_NOMEM;
  }
  char* p = (char*)(((uintptr_t)d->block + 63) & ~(uintptr_t)63);
  p = carve_state(m, &d->s, p, memory);
  p = carve_state(m, &d->saved, p, memory);
  if (nstate == 3) {
    p = carve_state(m, &d->interp, p, memory);
  }
  d->force = (double*)p;
  p += align64(6 * (size_t)m->nnode * sizeof(double));
  d->hostload = (double*)p;
  p += forces;
  d->cbuf = (double*)p;
  p += align64(cbuf);
  d->beamscale = (double*)p;
  d->beamwork = (double*)(p + align64((size_t)m->nbeam * sizeof(double)));
  d->nbeamslot = nslot;
  p += align64(beamwork);
  if (nmotion) {
    d->motion = (rdMotionFrame*)p;
    p += align64((size_t)nmotion * sizeof(rdMotionFrame));
    d->motion_slot = (int*)p;
    p += align64((size_t)m->njoint * sizeof(int));
    for (int j = 0, k = 0; j < m->njoint; j++) {
      d->motion_slot[j] = motion_cached(m, j) ? k++ : -1;
    }
  }
  d->work = p;
  d->work_size = work;
  d->memory_size = memory;
  d->magic = RD_MAGIC_DATA;
  d->model = m;
  d->ctx = ctx;
  rd_adopt(&((rdModel*)m)->children);
  rd_resetData(m, d);
  if (st->attach && (status = st->attach(m, d)) < 0) {
    rd_destroyData(&d);
    return status;
  }
  *data = d;
  return RD_OK;
}


void rd_destroyData(rdData** data) {
  if (!data || !data_valid(*data)) {
    return;
  }
  rdData* d = *data;
  rdContext* ctx = d->ctx;
  const rdStepper* st = rd_modelStepper(d->model);
  if (st && st->release) {
    st->release(d->model, d);
  }
  rd_free(ctx, d->block);
  d->magic = RD_MAGIC_DEAD;
  rd_release(&((rdModel*)d->model)->children);
  rd_bury(ctx, RD_KIND_DATA, d);
  *data = NULL;
}


int rd_copyData(rdData* dst, const rdData* src) {
  if (!data_valid(dst) || !data_valid(src)) {
    return RD_ERR_HANDLE;
  }
  if (dst->model != src->model) {
    return RD_ERROR(dst->ctx, RD_ERR_ARG, "rd_copyData: data made from different models");
  }
  if (src->in_step) {
    return RD_ERROR(dst->ctx, RD_ERR_STATE,
                    "rd_copyData: the source is inside a step "
                    "(between rd_stepBegin and rd_stepEnd)");
  }
  if (dst != src) {
    rd_stateCopy(src->model, src, &dst->s, &src->s);
    dst->stats = src->stats;
    dst->step_error = src->step_error;
    dst->ctrl_h = src->ctrl_h;
    dst->ctrl_rejected = src->ctrl_rejected;
    dst->newton_rate = src->newton_rate;
    dst->newton_trust = src->newton_trust;
    memcpy(dst->cut, src->cut, sizeof(src->cut));
    dst->ncut = src->ncut;
    dst->initialized = src->initialized;
    dst->in_step = 0;
    memcpy(dst->hostload, src->hostload, 6 * (size_t)src->model->nnode * sizeof(double));
    dst->hostload_set = src->hostload_set;
  }
  return RD_OK;
}


double rd_time(const rdData* d) {
  return data_valid(d) ? d->s.t : NAN;
}


int rd_isInitialized(const rdData* d) {
  return data_valid(d) ? d->initialized : 0;
}


int rd_getStats(const rdData* d, rdStats* stats) {
  if (!data_valid(d)) {
    return RD_ERR_HANDLE;
  }
  if (!stats) {
    return RD_ERROR(d->ctx, RD_ERR_ARG, "rd_getStats: NULL output");
  }
  *stats = d->stats;
  return RD_OK;
}


int rd_getStepCut(const rdData* d, int i, rdStepCut* cut) {
  if (!data_valid(d)) {
    return RD_ERR_HANDLE;
  }
  if (i < 0 || i >= d->ncut || !cut) {
    return RD_ERROR(d->ctx, RD_ERR_ARG, "rd_getStepCut: rejection %d of %d kept, or NULL output", i,
                    d->ncut);
  }
  *cut = d->cut[i];
  return RD_OK;
}


int rd_stepCutCount(const rdData* d) {
  return data_valid(d) ? d->ncut : 0;
}


int rd_getNodeState(const rdModel* m, const rdData* d, int i, double x[3], double q[4], double v[3],
                    double w[3], double W[3]) {
  if (!rd_modelValid(m) || !data_valid(d)) {
    return RD_ERR_HANDLE;
  }
  if (d->model != m) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_getNodeState: data was made from another model");
  }
  if (i < 0 || i >= m->nnode) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_getNodeState: node index %d out of range", i);
  }
  const double* qi = d->s.q + 7 * i;
  const double* vi = d->s.v + 6 * i;
  if (x) {
    v3_copy(x, qi);
  }
  if (q) {
    memcpy(q, qi + 3, 4 * sizeof(double));
  }
  if (v) {
    v3_copy(v, vi);
  }
  if (W) {
    v3_copy(W, vi + 3);
  }
  if (w) {
    rdu_quatRotate(w, qi + 3, vi + 3);
  }
  return RD_OK;
}
