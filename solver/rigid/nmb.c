// SPDX-License-Identifier: MIT
// NMB: explicit Newmark (beta = 0, gamma = 1/2) in the body frame, Krysl & Endres 2005 §2.4.
#include "solver/rigid/rigid_kernels.h"
#include "src/core/core.h"

// R_n = R_{n-1} exp(h W_{n-1} + h^2/2 A_{n-1});  J A_n - R_n^T t_n + W_n x J W_n = 0 with
// W_n = W_{n-1} + h/2 (A_{n-1} + A_n), solved for A_n by Newton. Translation: velocity Verlet.
// The state is read only: everything new goes to the scratch (and the trial configuration for
// the generic loads), and rg_commit writes it back once every body has succeeded (atomic).

// first half for body i: the attitude and the rotation point at t + h, the known part
// W0 + h/2 A0 of the angular velocity (in sc->W0) and the guess A0 (in sc->A)
static inline void predict(const rgView* v, const rdState* s, int i, double h) {
  const rgBody* b = &v->body[i];
  const rgMem* mem = &v->mem[i];
  rgScratch* sc = &v->sc[i];
  const double* W0 = s->v + 6 * b->node + 3;
  const double* A0 = s->vd + 6 * b->node + 3;
  double hh = 0.5 * h, psi[3];
  for (int k = 0; k < 3; k++) {
    sc->W0[k] = W0[k] + hh * A0[k];
    sc->A[k] = A0[k];
    psi[k] = h * sc->W0[k];
  }
  rg_expRight(sc->q, s->q + 7 * b->node + 3, psi);
  // a pinned body's rotation point stays at p (mem->xr, vr = ar = 0): no scratch copy
  if (!b->pinned) {
    for (int k = 0; k < 3; k++) {
      sc->xr[k] = mem->xr[k] + h * (mem->vr[k] + hh * mem->ar[k]);
    }
  }
}


// second half for body i once its torque (sc->T) and force (sc->f) at t + h are known: the
// acceleration by Newton, the angular velocity, the translation
RG_HOT int correct(const rdModel* m, const rgView* v, int i, double t1, double h, int* iters) {
  const rgBody* b = &v->body[i];
  const rgMem* mem = &v->mem[i];
  rgScratch* sc = &v->sc[i];
  double hh = 0.5 * h;
  int st = b->diag ? rg_accelNewtonDiag(m, v, i, t1, b->J, sc->T, sc->W0, h, sc->A, iters)
                   : rg_accelNewton(m, v, i, t1, b->J, 0, sc->T, sc->W0, h, sc->A, iters);
  if (st != RD_OK) {
    return st;
  }
  for (int k = 0; k < 3; k++) {
    sc->W[k] = sc->W0[k] + hh * sc->A[k];
  }
  if (!b->pinned) {
    v3_copy(sc->vr, mem->vr);
    v3_axpy(sc->vr, hh, mem->ar);
    v3_scale(sc->ar, sc->f, 1 / b->mass);
    v3_axpy(sc->vr, hh, sc->ar);
  }
  return RD_OK;
}


RG_STEP int rg_stepNmb(const rdModel* m, rdData* d, rgView* v, double h) {
  const rdState* s = &d->s;
  double t1 = s->t + h;
  int iters = 0, st = RD_OK;
  if (!rg_generic(v, d)) {
    // only the weights act: each body's step is independent, one pass
    d->stats.load_evaluations++;
    for (int i = 0; i < v->nb && st == RD_OK; i++) {
      rgScratch* sc = &v->sc[i];
      predict(v, s, i, h);
      rg_bodyLoad(&v->body[i], sc->q, NULL, 1, sc->T, sc->f);
      st = correct(m, v, i, t1, h, &iters);
    }
  } else {
    rg_trialBegin(m, d, v);
    for (int i = 0; i < v->nb; i++) {
      predict(v, s, i, h);
      const rgBody* b = &v->body[i];
      rg_placeNode(b, v->q, v->sc[i].q, b->pinned ? v->mem[i].xr : v->sc[i].xr);
    }
    st = rg_loadsBody(m, d, v, t1, v->q, 0);
    if (st != RD_OK) {
      return st;
    }
    for (int i = 0; i < v->nb && st == RD_OK; i++) {
      st = correct(m, v, i, t1, h, &iters);
    }
  }
  st = st ? st : rg_commit(m, d, v, t1, RG_BODY);
  if (st != RD_OK) {
    d->stats.newton_iterations += iters;
    return st;
  }
  rg_countIterations(d, iters);
  return RD_OK;
}


static int nmb_step(const rdModel* m, rdData* d, double h) {
  return rg_stepNmb(m, d, rg_view(m, d), h);
}

const rdStepper rd_stepperNmb = {
    .method = RD_METHOD_NMB,
    .atomic = 1,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = nmb_step,
};
