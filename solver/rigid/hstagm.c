// SPDX-License-Identifier: MIT
// HSTAGM: Hulbert's staggered explicit algorithm with midpoint torque evaluation.
//
// Computers & Structures 44, 1992; momentum conserving; as given in Krysl & Endres 2005,
// appendix A.
#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/rigid/rigid_kernels.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

// Two interleaved leapfrog sequences: the integer states (R_n, W_n) in the state, the half
// states (R_{n+1/2}, W_{n+1/2}) in the memory:
//   R_n = R_{n-1} exp(h W_{n-1/2}),        R_n J W_n = R_{n-1} J W_{n-1} + h t(R_{n-1/2})
//   R_{n+1/2} = R_{n-1/2} exp(h W_n),      R_{n+1/2} J W_{n+1/2} = R_{n-1/2} J W_{n-1/2} + h t(R_n)
// so two torque evaluations per step. The half states are (re)started from the integer state
// whenever the step size changes (first step, step cuts, a shortened last step):
//   Theta = h/2 W + h^2/8 A,  R_{+1/2} = R exp(Theta),  R_{+1/2} J W_{+1/2} = R J W + h/2 t_{1/4}
// with t_{1/4} the torque at R exp(Theta/2), t + h/4. Translation: velocity Verlet.

static int start_half(const rdModel* m, rdData* d, rgView* v, double h) {
  rdState* s = &d->s;
  memcpy(v->q, s->q, 7 * (size_t)m->nnode * sizeof(double));
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgScratch* sc = &v->sc[i];
    const double* q = s->q + 7 * b->node + 3;
    double theta[3], quarter[3];
    v3_scale(theta, s->v + 6 * b->node + 3, 0.5 * h);
    v3_axpy(theta, 0.125 * h * h, s->vd + 6 * b->node + 3);
    rg_rotateRight(v->mem[i].qh, q, theta);
    v3_scale(quarter, theta, 0.5);
    rg_rotateRight(sc->q, q, quarter);
    rg_placeNode(b, v->q, sc->q, v->mem[i].xr);
  }
  int st = rg_loads(m, d, v, s->t + 0.25 * h, v->q, 0);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    double pi[3];
    rg_momentum(b, s->q + 7 * b->node + 3, s->v + 6 * b->node + 3, pi);
    v3_axpy(pi, 0.5 * h, v->sc[i].tau);
    rg_velocity(b, mem->qh, pi, mem->Wh);
    mem->hh = h;
  }
  return RD_OK;
}


RG_STEP int rg_stepHstagm(const rdModel* m, rdData* d, rgView* v, double h) {
  rdState* s = &d->s;
  // restart on a real change of step, not on the round-off jitter of t_{k+1} - t_k
  if (v->nb > 0 && !(fabs(h - v->mem[0].hh) <= 1e-6 * h)) {
    int st = start_half(m, d, v, h);
    if (st != RD_OK) {
      return st;
    }
  }
  // torque at the half state R_{n-1/2}
  memcpy(v->q, s->q, 7 * (size_t)m->nnode * sizeof(double));
  for (int i = 0; i < v->nb; i++) {
    rg_placeNode(&v->body[i], v->q, v->mem[i].qh, v->mem[i].xr);
  }
  int st = rg_loads(m, d, v, s->t + 0.5 * h, v->q, 0);
  if (st != RD_OK) {
    return st;
  }
  // integer state
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    const double* q = s->q + 7 * b->node + 3;
    double psi[3], pi[3];
    rg_momentum(b, q, s->v + 6 * b->node + 3, pi);
    v3_axpy(pi, h, sc->tau);
    v3_scale(psi, mem->Wh, h);
    rg_rotateRight(sc->q, q, psi);
    rg_velocity(b, sc->q, pi, sc->W0);
    rg_verletDrift(b, mem, h);
    rg_placeNode(b, s->q, sc->q, mem->xr);
  }
  // torque at the new integer state R_n
  st = rg_loads(m, d, v, s->t + h, s->q, 1);
  if (st != RD_OK) {
    return st;
  }
  // half state ahead, accelerations, node states
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    double psi[3], pi[3], A[3];
    rg_momentum(b, mem->qh, mem->Wh, pi);
    v3_axpy(pi, h, mem->tau);
    v3_scale(psi, sc->W0, h);
    rg_rotateRight(mem->qh, mem->qh, psi);
    rg_velocity(b, mem->qh, pi, mem->Wh);
    rg_verletKick(b, mem, h);
    rg_eulerAccel(b, sc->q, sc->W0, mem->tau, A);
    rg_writeNode(b, mem, s, sc->q, sc->W0, A);
  }
  rg_countIterations(d, 0);
  return RD_OK;
}


static int hstagm_step(const rdModel* m, rdData* d, double h) {
  return rg_stepHstagm(m, d, rg_view(m, d), h);
}

const rdStepper rd_stepperHstagm = {
    .method = RD_METHOD_HSTAGM,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = hstagm_step,
};
