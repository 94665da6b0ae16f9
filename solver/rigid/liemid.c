// SPDX-License-Identifier: MIT
// LIEMID[E1], [E2], [EA]: the explicit midpoint Lie methods of Krysl.
//
// Krysl 2005, seeds 000/001 §3: LIEMID[E2] (symplectic-Euler
// counterpart, impulse at the start), LIEMID[E1] (its adjoint, impulse at the end) and
// LIEMID[EA] = E1(h/2) o E2(h/2), second order. One torque evaluation per step.
#include <string.h>

#include "core.h"
#include "rigid.h"
#include "rodrigues/liegroup.h"
#include "vec3.h"

enum { VARIANT_E1, VARIANT_E2, VARIANT_EA };

// one explicit midpoint-Lie substep of size hs for body i from attitude q and body momentum b
// (the torque impulse already added, pulled back to the frame of q): J psi / hs =
// exp(-psi/2) b; q' = q exp(psi), b' = exp(-psi) b
static int substep(const rdModel* m, const rgView* v, int i, double t, double hs, double q[4],
                   double b[3], int* iters) {
  const rgBody* bd = &v->body[i];
  double psi[3], mb[3];
  m3_mulv(psi, bd->Jinv, b);
  v3_scale(psi, psi, hs);
  int st = rg_solveRotvec(m, v, i, t, bd->J, b, hs, psi, iters);
  if (st != RD_OK) {
    return st;
  }
  rg_rotateRight(q, q, psi);
  v3_scale(mb, psi, -1);
  rg_expRotate(b, mb, b);
  return RD_OK;
}


static int liemid_step(const rdModel* m, rdData* d, double h, int variant) {
  rgView v;
  rg_view(m, d, &v);
  rdState* s = &d->s;
  double t = s->t, t1 = t + h;
  // impulse at the start: E2 the whole step, EA half of it; E1 none
  double kick0 = variant == VARIANT_E2 ? h : variant == VARIANT_EA ? 0.5 * h : 0;
  double kick1 = variant == VARIANT_E1 ? h : variant == VARIANT_EA ? 0.5 * h : 0;
  int iters = 0;
  for (int i = 0; i < v.nb; i++) {
    const rgBody* b = &v.body[i];
    rgMem* mem = &v.mem[i];
    rgScratch* sc = &v.sc[i];
    memcpy(sc->q, s->q + 7 * b->node + 3, sizeof(sc->q));
    double T[3];
    m3_mulv(sc->b, b->J, s->v + 6 * b->node + 3);
    rdu_quatRotateInv(T, sc->q, mem->tau);
    v3_axpy(sc->b, kick0, T);
    int st;
    if (variant == VARIANT_EA) {
      st = substep(m, &v, i, t, 0.5 * h, sc->q, sc->b, &iters);
      st = st ? st : substep(m, &v, i, t, 0.5 * h, sc->q, sc->b, &iters);
    } else {
      st = substep(m, &v, i, t, h, sc->q, sc->b, &iters);
    }
    if (st != RD_OK) {
      d->stats.newton_iterations += iters;
      return st;
    }
    // translation: symplectic Euler (E2), its adjoint (E1), velocity Verlet (EA)
    rg_kick(b, mem, kick0, mem->f);
    rg_translate(b, mem, h, mem->vr);
    rg_placeNode(b, s->q, sc->q, mem->xr);
  }
  // the torque at the end: the end impulse now, the start impulse of the next step
  int st = rg_loads(m, d, &v, t1, s->q, 1);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v.nb; i++) {
    const rgBody* b = &v.body[i];
    rgMem* mem = &v.mem[i];
    rgScratch* sc = &v.sc[i];
    double T[3], W[3], A[3];
    rdu_quatRotateInv(T, sc->q, mem->tau);
    v3_axpy(sc->b, kick1, T);
    m3_mulv(W, b->Jinv, sc->b);
    rg_kick(b, mem, kick1, mem->f);
    if (!b->pinned) {
      v3_scale(mem->ar, mem->f, 1 / b->mass);
    }
    rg_eulerAccel(b, sc->q, W, mem->tau, A);
    rg_writeNode(b, mem, s, sc->q, W, A);
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
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = e1_step,
};
const rdStepper rd_stepper_liemid_e2 = {
    .method = RD_METHOD_LIEMID_E2,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = e2_step,
};
const rdStepper rd_stepper_liemid_ea = {
    .method = RD_METHOD_LIEMID_EA,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = ea_step,
};
