// SPDX-License-Identifier: MIT
// NMB: explicit Newmark (beta = 0, gamma = 1/2) in the body frame, Krysl & Endres 2005 §2.4.
#include <string.h>

#include "core.h"
#include "rigid.h"
#include "rodrigues/liegroup.h"
#include "vec3.h"

// R_n = R_{n-1} exp(h W_{n-1} + h^2/2 A_{n-1});  J A_n - R_n^T t_n + W_n x J W_n = 0 with
// W_n = W_{n-1} + h/2 (A_{n-1} + A_n), solved for A_n by Newton. Translation: velocity Verlet.
static int nmb_step(const rdModel* m, rdData* d, double h) {
  rgView v;
  rg_view(m, d, &v);
  rg_trialBegin(m, d, &v);
  rdState* s = &d->s;
  double t1 = s->t + h;
  // the state is read only: everything new goes to the scratch and the trial configuration,
  // and rg_commit writes it back once every body has succeeded (an atomic step)
  for (int i = 0; i < v.nb; i++) {
    const rgBody* b = &v.body[i];
    const rgMem* mem = &v.mem[i];
    rgScratch* sc = &v.sc[i];
    const double* q = s->q + 7 * b->node + 3;
    v3_copy(sc->W0, s->v + 6 * b->node + 3);
    v3_copy(sc->b, s->vd + 6 * b->node + 3);
    double psi[3];
    v3_scale(psi, sc->W0, h);
    v3_axpy(psi, 0.5 * h * h, sc->b);
    rg_rotateRight(sc->q, q, psi);
    v3_copy(sc->xr, mem->xr);
    if (!b->pinned) {
      double vel[3];
      v3_copy(vel, mem->vr);
      v3_axpy(vel, 0.5 * h, mem->ar);
      v3_axpy(sc->xr, h, vel);
    }
    rg_placeNode(b, v.q, sc->q, sc->xr);
  }
  int st = rg_loads(m, d, &v, t1, v.q, 0);
  if (st != RD_OK) {
    return st;
  }
  int iters = 0;
  for (int i = 0; i < v.nb; i++) {
    const rgBody* b = &v.body[i];
    const rgMem* mem = &v.mem[i];
    rgScratch* sc = &v.sc[i];
    double T[3], Wp[3];
    rg_qrotInv(T, sc->q, sc->tau);
    v3_copy(Wp, sc->W0);
    v3_axpy(Wp, 0.5 * h, sc->b);
    v3_copy(sc->A, sc->b);
    st = rg_solveAccel(m, &v, i, t1, b->J, T, Wp, h, sc->A, &iters);
    if (st != RD_OK) {
      d->stats.newton_iterations += iters;
      return st;
    }
    v3_copy(sc->W, Wp);
    v3_axpy(sc->W, 0.5 * h, sc->A);
    v3_copy(sc->vr, mem->vr);
    v3_copy(sc->ar, mem->ar);
    if (!b->pinned) {
      v3_axpy(sc->vr, 0.5 * h, mem->ar);
      v3_scale(sc->ar, sc->f, 1 / b->mass);
      v3_axpy(sc->vr, 0.5 * h, sc->ar);
    }
  }
  st = rg_commit(m, d, &v, t1, 0);
  if (st != RD_OK) {
    d->stats.newton_iterations += iters;
    return st;
  }
  rg_countIterations(d, iters);
  return RD_OK;
}


const rdStepper rd_stepper_nmb = {
    .method = RD_METHOD_NMB,
    .atomic = 1,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = nmb_step,
};
