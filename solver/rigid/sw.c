// SPDX-License-Identifier: MIT
// SW: the explicit momentum-conserving algorithm of Simo & Wong.
//
// IJNME 31, 1991, as given in Krysl & Endres 2005, appendix A.
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/rigid/rigid_kernels.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

// R_n = R_{n-1} exp(h W_{n-1} + h^2/2 A_{n-1})
// R_n J W_n = R_{n-1} J W_{n-1} + h/2 (t_n + t_{n-1})   (spatial torques; t_{n-1} in the memory)
// A_n = 2/h (W_n - W_{n-1}) - A_{n-1}                  (algorithmic acceleration, in the state)
// Translation: velocity Verlet.
RG_STEP int rg_stepSw(const rdModel* m, rdData* d, rgView* v, double h) {
  rdState* s = &d->s;
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    const double* q = s->q + 7 * b->node + 3;
    double psi[3];
    v3_copy(sc->W0, s->v + 6 * b->node + 3);
    v3_copy(sc->b, s->vd + 6 * b->node + 3);
    // spatial momentum plus the first half of the torque impulse
    rg_momentum(b, q, sc->W0, sc->P0);
    v3_axpy(sc->P0, 0.5 * h, mem->tau);
    v3_scale(psi, sc->W0, h);
    v3_axpy(psi, 0.5 * h * h, sc->b);
    rg_rotateRight(sc->q, q, psi);
    rg_verletDrift(b, mem, h);
    rg_placeNode(b, s->q, sc->q, mem->xr);
  }
  int st = rg_loads(m, d, v, s->t + h, s->q, 1);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    double pi[3], W[3], A[3];
    v3_copy(pi, sc->P0);
    v3_axpy(pi, 0.5 * h, mem->tau);
    rg_velocity(b, sc->q, pi, W);
    v3_sub(A, W, sc->W0);
    v3_scale(A, A, 2 / h);
    v3_sub(A, A, sc->b);
    rg_verletKick(b, mem, h);
    rg_writeNode(b, mem, s, sc->q, W, A);
  }
  rg_countIterations(d, 0);
  return RD_OK;
}


static int sw_step(const rdModel* m, rdData* d, double h) {
  return rg_stepSw(m, d, rg_view(m, d), h);
}

const rdStepper rd_stepperSw = {
    .method = RD_METHOD_SW,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = sw_step,
};
