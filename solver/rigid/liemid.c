// SPDX-License-Identifier: MIT
// LIEMID[E1], [E2], [EA]: the explicit midpoint Lie methods of Krysl.
//
// Krysl 2005, seeds 000/001 §3: LIEMID[E2] (symplectic-Euler
// counterpart, impulse at the start), LIEMID[E1] (its adjoint, impulse at the end) and
// LIEMID[EA] = E1(h/2) o E2(h/2), second order. One torque evaluation per step.
#include <string.h>

#include "core.h"
#include "rigid_kernels.h"
#include "vec3.h"

enum { VARIANT_E1, VARIANT_E2, VARIANT_EA };

// one explicit midpoint-Lie substep of size hs for body i from attitude q and body momentum b
// (the torque impulse already added, pulled back to the frame of q): J psi / hs =
// exp(-psi/2) b; q' = q exp(psi), b' = exp(-psi) b
static int substep(const rdModel* m, const rgView* v, int i, double t, double hs, double q[4],
                   double b[3], int* iters) {
  const rgBody* bd = &v->body[i];
  double psi[3], eb[3], dq[4];
  // guess: hs J^-1 b
  rg_jmul(psi, bd->Jinv, b, bd->diag);
  v3_scale(psi, psi, hs);
  int st = rg_solveRotvec(m, v, i, t, b, hs, psi, eb, dq, iters);
  if (st != RD_OK) {
    return st;
  }
  rg_mulNormalize(q, q, dq);
  v3_copy(b, eb);
  return RD_OK;
}


static int liemid_step(const rdModel* m, rdData* d, double h, int variant) {
  rgView* v = rg_view(m, d);
  rg_trialBegin(m, d, v);
  const rdState* s = &d->s;
  double t = s->t, t1 = t + h;
  // impulse at the start: E2 the whole step, EA half of it; E1 none
  double kick0 = variant == VARIANT_E2 ? h : variant == VARIANT_EA ? 0.5 * h : 0;
  double kick1 = variant == VARIANT_E1 ? h : variant == VARIANT_EA ? 0.5 * h : 0;
  int iters = 0;
  // atomic: the new values go to the scratch, rg_commit writes them once all bodies succeed
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    memcpy(sc->q, s->q + 7 * b->node + 3, sizeof(sc->q));
    // body momentum plus the start impulse (the body torque of the memory is at this attitude)
    rg_jmul(sc->b, b->J, s->v + 6 * b->node + 3, b->diag);
    v3_axpy(sc->b, kick0, mem->T);
    int st;
    if (variant == VARIANT_EA) {
      st = substep(m, v, i, t, 0.5 * h, sc->q, sc->b, &iters);
      st = st ? st : substep(m, v, i, t, 0.5 * h, sc->q, sc->b, &iters);
    } else {
      st = substep(m, v, i, t, h, sc->q, sc->b, &iters);
    }
    if (st != RD_OK) {
      d->stats.newton_iterations += iters;
      return st;
    }
    // translation: symplectic Euler (E2), its adjoint (E1), velocity Verlet (EA)
    v3_copy(sc->vr, mem->vr);
    v3_copy(sc->xr, mem->xr);
    if (!b->pinned) {
      v3_axpy(sc->vr, kick0 / b->mass, mem->f);
      v3_axpy(sc->xr, h, sc->vr);
    }
    rg_placeNode(b, v->q, sc->q, sc->xr);
  }
  // the torque at the end: the end impulse now, the start impulse of the next step
  int st = rg_loadsBody(m, d, v, t1, v->q, 0);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    v3_axpy(sc->b, kick1, sc->T);
    rg_jmul(sc->W, b->Jinv, sc->b, b->diag);
    v3_copy(sc->ar, mem->ar);
    if (!b->pinned) {
      v3_axpy(sc->vr, kick1 / b->mass, sc->f);
      v3_scale(sc->ar, sc->f, 1 / b->mass);
    }
    // the Euler equations at the end: J A = T - W x J W
    rg_eulerAccelBody(b, sc->W, sc->T, sc->A);
  }
  st = rg_commit(m, d, v, t1, RG_BODY);
  if (st != RD_OK) {
    d->stats.newton_iterations += iters;
    return st;
  }
  rg_countIterations(d, iters);
  return RD_OK;
}


static int e1_step(const rdModel* m, rdData* d, double h) {
  return liemid_step(m, d, h, VARIANT_E1);
}


static int e2_step(const rdModel* m, rdData* d, double h) {
  return liemid_step(m, d, h, VARIANT_E2);
}


static int ea_step(const rdModel* m, rdData* d, double h) {
  return liemid_step(m, d, h, VARIANT_EA);
}


const rdStepper rd_stepper_liemid_e1 = {
    .method = RD_METHOD_LIEMID_E1,
    .atomic = 1,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = e1_step,
};
const rdStepper rd_stepper_liemid_e2 = {
    .method = RD_METHOD_LIEMID_E2,
    .atomic = 1,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = e2_step,
};
const rdStepper rd_stepper_liemid_ea = {
    .method = RD_METHOD_LIEMID_EA,
    .atomic = 1,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = ea_step,
};
