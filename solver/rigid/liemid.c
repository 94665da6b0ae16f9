// SPDX-License-Identifier: MIT
// LIEMID[E1], [E2], [EA]: the explicit midpoint Lie methods of Krysl.
//
// Krysl, "Explicit Newmark algorithm for rotational dynamics", §3 (also Krysl, Acta
// Polytechnica 44, 2004, and IJNME 63, 2005): LIEMID[E2] (symplectic-Euler
// counterpart, impulse at the start), LIEMID[E1] (its adjoint, impulse at the end) and
// LIEMID[EA] = E1(h/2) o E2(h/2), second order. One torque evaluation per step.
#include <string.h>

#include "solver/rigid/rigid_kernels.h"
#include "src/core/core.h"

enum { VARIANT_E1, VARIANT_E2, VARIANT_EA };

// one explicit midpoint-Lie substep (number k of the step) of size hs for body i from body
// momentum b (the torque impulse already added, pulled back to the frame of the attitude):
// J psi / hs = exp(-psi/2) b; on return b' = exp(-psi) b and dq = the quaternion of exp(psi)
// (principal axes: jh = diag(J)/hs, hi = hs/diag(J) and bb = |b|^2 precomputed)
RG_HOT int substep(const rdModel* m, const rgView* v, int i, int k, double t, double hs,
                   const double jh[3], const double hi[3], double bb, double b[3], double dq[4],
                   int* iters, int* newK) {
  const rgBody* bd = &v->body[i];
  const rgMem* mem = &v->mem[i];
  rgScratch* sc = &v->sc[i];
  double eb[3];
  // the inverse tangent of this substep from an earlier step, if made for this substep size
  const double* Ki = fabs(mem->hK[k] - hs) <= 1e-6 * hs ? mem->Ki[k] : NULL;
  int st = bd->diag ? rg_rotvecNewtonDiag(m, v, i, t, jh, hi, bb, b, Ki, sc->Ki[k], &sc->knew[k],
                                          eb, dq, iters)
                    : rg_rotvecNewton(m, v, i, t, bd->J, bd->Jinv, 0, b, hs, Ki, sc->Ki[k],
                                      &sc->knew[k], eb, dq, iters);
  if (st != RD_OK) {
    return st;
  }
  sc->hK[k] = hs;
  *newK |= sc->knew[k];
  v3_copy(b, eb);
  return RD_OK;
}


// the rotation of body i from t to t + h up to the end impulse, and the translation
RG_HOT int rotate(const rdModel* m, const rgView* v, const rdState* s, int i, double h, int variant,
                  double kick0, int* iters, int* newK) {
  const rgBody* b = &v->body[i];
  const rgMem* mem = &v->mem[i];
  rgScratch* sc = &v->sc[i];
  double t = s->t, dq[4];
  // body momentum plus the start impulse (the body torque of the memory is at this attitude)
  rg_jmul(sc->b, b->J, s->v + 6 * b->node + 3, b->diag);
  v3_axpy(sc->b, kick0, mem->T);
  int st;
  double hs = variant == VARIANT_EA ? 0.5 * h : h, jh[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  double bb = v3_dot(sc->b, sc->b);
  if (b->diag) {
    for (int k = 0; k < 3; k++) {
      jh[k] = b->J[4 * k] / hs;
      hi[k] = hs * b->Jinv[4 * k];
    }
  }
  if (variant == VARIANT_EA) {
    // q' = q exp(psi_a) exp(psi_b), normalized once
    double dqa[4], dqb[4];
    st = substep(m, v, i, 0, t, hs, jh, hi, bb, sc->b, dqa, iters, newK);
    st = st ? st : substep(m, v, i, 1, t, hs, jh, hi, bb, sc->b, dqb, iters, newK);
    if (st == RD_OK) {
      q4_mul(dq, dqa, dqb);
    }
  } else {
    st = substep(m, v, i, 0, t, hs, jh, hi, bb, sc->b, dq, iters, newK);
  }
  if (st != RD_OK) {
    return st;
  }
  rg_quatMulNormalize(sc->q, s->q + 7 * b->node + 3, dq);
  // translation: symplectic Euler (E2), its adjoint (E1), velocity Verlet (EA)
  if (!b->pinned) {
    v3_copy(sc->vr, mem->vr);
    v3_copy(sc->xr, mem->xr);
    v3_axpy(sc->vr, kick0 / b->mass, mem->f);
    v3_axpy(sc->xr, h, sc->vr);
  }
  return RD_OK;
}


// the end of the step for body i once its torque (sc->T) and force (sc->f) at t + h are known
RG_HOT void finish(const rgView* v, int i, double kick1) {
  const rgBody* b = &v->body[i];
  const rgMem* mem = &v->mem[i];
  rgScratch* sc = &v->sc[i];
  v3_axpy(sc->b, kick1, sc->T);
  rg_jmul(sc->W, b->Jinv, sc->b, b->diag);
  if (!b->pinned) {
    v3_axpy(sc->vr, kick1 / b->mass, sc->f);
    v3_scale(sc->ar, sc->f, 1 / b->mass);
  }
  (void)mem;
  // the Euler equations at the end: J A = T - W x J W, with the momentum J W = b
  double gyro[3], rhs[3];
  v3_cross(gyro, sc->W, sc->b);
  v3_sub(rhs, sc->T, gyro);
  rg_jmul(sc->A, b->Jinv, rhs, b->diag);
}


RG_HOT int liemid_step(const rdModel* m, rdData* d, rgView* v, double h, int variant) {
  const rdState* s = &d->s;
  double t1 = s->t + h;
  // impulse at the start: E2 the whole step, EA half of it; E1 none
  double kick0 = variant == VARIANT_E2 ? h : variant == VARIANT_EA ? 0.5 * h : 0;
  double kick1 = variant == VARIANT_E1 ? h : variant == VARIANT_EA ? 0.5 * h : 0;
  int nsub = variant == VARIANT_EA ? 2 : 1;
  int iters = 0, newK = 0, st = RD_OK;
  // atomic: the new values go to the scratch, rg_commit writes them once all bodies succeed
  if (!rg_generic(v, d)) {
    // only the weights act: each body's step is independent, one pass
    d->stats.load_evaluations++;
    for (int i = 0; i < v->nb && st == RD_OK; i++) {
      rgScratch* sc = &v->sc[i];
      st = rotate(m, v, s, i, h, variant, kick0, &iters, &newK);
      if (st == RD_OK) {
        rg_bodyLoad(&v->body[i], sc->q, NULL, 1, sc->T, sc->f);
        finish(v, i, kick1);
      }
    }
  } else {
    rg_trialBegin(m, d, v);
    for (int i = 0; i < v->nb && st == RD_OK; i++) {
      const rgBody* b = &v->body[i];
      st = rotate(m, v, s, i, h, variant, kick0, &iters, &newK);
      rg_placeNode(b, v->q, v->sc[i].q, b->pinned ? v->mem[i].xr : v->sc[i].xr);
    }
    // the torque at the end: the end impulse now, the start impulse of the next step
    st = st ? st : rg_loadsBody(m, d, v, t1, v->q, 0);
    for (int i = 0; i < v->nb && st == RD_OK; i++) {
      finish(v, i, kick1);
    }
  }
  st = st ? st : rg_commit(m, d, v, t1, RG_BODY);
  if (st != RD_OK) {
    d->stats.newton_iterations += iters;
    return st;
  }
  // the inverse tangents made in this step, for the next (modified Newton)
  for (int i = 0; i < v->nb && newK; i++) {
    rgScratch* sc = &v->sc[i];
    for (int k = 0; k < nsub; k++) {
      if (sc->knew[k]) {
        memcpy(v->mem[i].Ki[k], sc->Ki[k], sizeof(sc->Ki[k]));
        v->mem[i].hK[k] = sc->hK[k];
      }
    }
  }
  rg_countIterations(d, iters);
  return RD_OK;
}


RG_STEP int rg_stepLiemidE1(const rdModel* m, rdData* d, rgView* v, double h) {
  return liemid_step(m, d, v, h, VARIANT_E1);
}


static int e1_step(const rdModel* m, rdData* d, double h) {
  return rg_stepLiemidE1(m, d, rg_view(m, d), h);
}


RG_STEP int rg_stepLiemidE2(const rdModel* m, rdData* d, rgView* v, double h) {
  return liemid_step(m, d, v, h, VARIANT_E2);
}


static int e2_step(const rdModel* m, rdData* d, double h) {
  return rg_stepLiemidE2(m, d, rg_view(m, d), h);
}


RG_STEP int rg_stepLiemidEa(const rdModel* m, rdData* d, rgView* v, double h) {
  return liemid_step(m, d, v, h, VARIANT_EA);
}


static int ea_step(const rdModel* m, rdData* d, double h) {
  return rg_stepLiemidEa(m, d, rg_view(m, d), h);
}


const rdStepper rd_stepperLiemidE1 = {
    .method = RD_METHOD_LIEMID_E1,
    .atomic = 1,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = e1_step,
};
const rdStepper rd_stepperLiemidE2 = {
    .method = RD_METHOD_LIEMID_E2,
    .atomic = 1,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = e2_step,
};
const rdStepper rd_stepperLiemidEa = {
    .method = RD_METHOD_LIEMID_EA,
    .atomic = 1,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = ea_step,
};
