// SPDX-License-Identifier: MIT
// NMS: explicit Newmark in the spatial frame, Krysl & Endres 2005 §2.5 (equivalent to NMB).
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/rigid/rigid_kernels.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

// R_n = exp(h w_{n-1} + h^2/2 a_{n-1}) R_{n-1};  i_n a_n - t_n + w_n x i_n w_n = 0 with
// i_n = R_n J R_n^T and w_n = w_{n-1} + h/2 (a_{n-1} + a_n), solved for a_n by Newton. The
// spatial w, a live in the stepper memory; the state keeps the body-frame W = R^T w, A = R^T a.
RG_STEP int rg_stepNms(const rdModel* m, rdData* d, rgView* v, double h) {
  rg_trialBegin(m, d, v);
  rdState* s = &d->s;
  double t1 = s->t + h;
  // atomic: the new values go to the scratch, rg_commit writes them once all bodies succeed
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    const double* q = s->q + 7 * b->node + 3;
    double psi[3];
    v3_scale(psi, mem->w, h);
    v3_axpy(psi, 0.5 * h * h, mem->al);
    rg_rotateLeft(sc->q, q, psi);
    v3_copy(sc->xr, mem->xr);
    if (!b->pinned) {
      double vel[3];
      v3_copy(vel, mem->vr);
      v3_axpy(vel, 0.5 * h, mem->ar);
      v3_axpy(sc->xr, h, vel);
    }
    rg_placeNode(b, v->q, sc->q, sc->xr);
  }
  int st = rg_loads(m, d, v, t1, v->q, 0);
  if (st != RD_OK) {
    return st;
  }
  int iters = 0;
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    double R[9], RJ[9], Js[9], wp[3];
    rdu_quatToMat(R, sc->q);
    m3_mul(RJ, R, b->J);
    m3_mult(Js, RJ, R);
    v3_copy(wp, mem->w);
    v3_axpy(wp, 0.5 * h, mem->al);
    v3_copy(sc->al, mem->al);
    st = rg_solveAccel(m, v, i, t1, Js, sc->tau, wp, h, sc->al, &iters);
    if (st != RD_OK) {
      d->stats.newton_iterations += iters;
      return st;
    }
    v3_copy(sc->w, wp);
    v3_axpy(sc->w, 0.5 * h, sc->al);
    m3_tmulv(sc->W, R, sc->w);
    m3_tmulv(sc->A, R, sc->al);
    v3_copy(sc->vr, mem->vr);
    v3_copy(sc->ar, mem->ar);
    if (!b->pinned) {
      v3_axpy(sc->vr, 0.5 * h, mem->ar);
      v3_scale(sc->ar, sc->f, 1 / b->mass);
      v3_axpy(sc->vr, 0.5 * h, sc->ar);
    }
  }
  st = rg_commit(m, d, v, t1, RG_NMS);
  if (st != RD_OK) {
    d->stats.newton_iterations += iters;
    return st;
  }
  rg_countIterations(d, iters);
  return RD_OK;
}


static int nms_step(const rdModel* m, rdData* d, double h) {
  return rg_stepNms(m, d, rg_view(m, d), h);
}

const rdStepper rd_stepperNms = {
    .method = RD_METHOD_NMS,
    .atomic = 1,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = nms_step,
};
